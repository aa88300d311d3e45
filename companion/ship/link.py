"""The serial link to the cloud ship: pyserial's ReaderThread on the port, reopened by itself.

A thread of its own (`ShipLink`) opens the port named in the settings: a device path
(`/dev/ttyACM0`, `/dev/rfcomm0`), any pyserial URL (`socket://host:port`, `rfc2217://...`,
`loop://`) or `auto` (the first USB port with the Pico's vendor id 0x2E8A). While it is open,
`PortReader` (pyserial's ReaderThread, reading a device port straight from its file
descriptor) reads it and `LineSplitter` cuts the bytes into lines. Each line
goes to `events` as the judge's input record `(t, "ship", line)`, stamped with the Pi's
clock when it arrived; the port's coming and going as `(t, "port", "back" | "lost")`. `events`
is a queue (then `wake` rouses the main loop for every read) or the session's inlet, which
judges each record on this thread and wakes the main loop itself only when it must
(companion.ship.session).

After an unplug (a read error) the port is tried again every `retry_s` until it is back; the
screen never waits for any of it.
"""

from __future__ import annotations

import logging
import os
import select
import threading
import time
from collections.abc import Callable
from typing import Protocol

import serial
import serial.threaded
from serial.tools import list_ports

from ..errors import CompanionError

log = logging.getLogger(__name__)

BAUD = 115200
PICO_VID = 0x2E8A  # Raspberry Pi (the RP2040's USB vendor id)
RETRY_S = 1.0
PIECE = 82  # a read shorter than the longest line (80 characters and \r\n) is a piece of one
TILT = b"$TILT,"
LONGEST = 200  # a line this long is no message: cut, passed on (the judge says too_long), skipped

Clock = Callable[[], int]


def clock_ms() -> int:
    """The Pi's clock for the judge: milliseconds, never going back."""
    return time.monotonic_ns() // 1_000_000


class NoPort(CompanionError, OSError):
    """`auto` found no board, or the port could not be opened."""


def find_pico() -> str:
    """The device of the first USB serial port with the Pico's vendor id."""
    for port in sorted(list_ports.comports(), key=lambda p: p.device):
        if port.vid == PICO_VID:
            return port.device
    raise NoPort("no cloud ship board (USB vendor id 2E8A) is plugged in")


def open_port(spec: str) -> serial.SerialBase:
    """The port for a settings value: a path, a pyserial URL or `auto`. A device is locked
    (flock) while open, so `doctor` finds it busy instead of taking lines from the app."""
    url = find_pico() if spec == "auto" else spec
    try:
        return serial.serial_for_url(url, baudrate=BAUD, timeout=None, exclusive=True)
    except (serial.SerialException, ValueError) as exc:
        raise NoPort(str(exc)) from None


class LineSplitter(serial.threaded.Protocol):
    """Bytes to lines (`\\n` ends one). Each chunk read becomes one list of records on the queue,
    all with the time it arrived: one queue put per read, not per line."""

    # what `deliver` says back (an inlet's wake-or-not) is not this splitter's business
    def __init__(self, deliver: Callable[[list[tuple[int, str, str]]], object], clock: Clock):
        self.deliver = deliver
        self.clock = clock
        self.buffer = bytearray()
        self.skipping = False  # inside an over-long line: drop bytes up to its end

    def data_received(self, data: bytes) -> None:
        t = self.clock()
        buffer = self.buffer
        buffer.extend(data)
        if b"\n" not in data and len(buffer) <= LONGEST:
            return
        records = []
        lines = buffer.split(b"\n")
        rest = lines.pop()
        for raw in lines:
            if self.skipping:
                self.skipping = False
                continue
            # latin-1 maps every byte to one character: a stray byte stays visible to the
            # judge (which rejects it as format) instead of failing the decode here
            records.append((t, "ship", raw.decode("latin-1")))
        if len(rest) > LONGEST:
            if not self.skipping:
                records.append((t, "ship", rest[: LONGEST + 1].decode("latin-1")))
            self.skipping = True
            rest = bytearray()
        self.buffer = bytearray(rest)
        if records:
            self.deliver(records)

    def connection_lost(self, exc: BaseException | None) -> None:
        # the port failed (unplugged): ShipLink reports it and reopens; nothing to raise
        if exc is not None:
            log.info("ship port closed: %s", exc)


class Pace:
    """Whether bytes come faster than any board writes them: a flood (a replay, a reader
    behind), read as fast as it comes, never let pour in. Measured over windows of `WINDOW_S`:
    the first window of a flood still pauses as a batch would, the first after it ends too."""

    WINDOW_S = 0.05
    FLOOD_BYTES_PER_S = 4 * 11_520  # four times the fastest board: Bluetooth at 115200 baud

    def __init__(self, clock: Callable[[], float] = time.monotonic):
        self.clock = clock
        self.start = clock()
        self.bytes = 0
        self.flooding = False

    def add(self, n: int) -> bool:
        """`n` bytes were read now; True while the bytes come as a flood."""
        now = self.clock()
        self.bytes += n
        elapsed = now - self.start
        if elapsed >= self.WINDOW_S:
            self.flooding = self.bytes > self.FLOOD_BYTES_PER_S * elapsed
            self.start, self.bytes = now, 0
        return self.flooding


class PortReader(serial.threaded.ReaderThread):
    """pyserial's ReaderThread with a cheaper wait on a device port (a tty or pty).

    ReaderThread reads ``in_waiting or 1`` bytes: a line arriving on an idle port costs two
    reads (its first byte, then the rest) and a status ioctl. Here the thread sleeps in one
    poll() on the port and pyserial's cancel pipe, then takes whatever has arrived in one
    os.read: one wake-up per line the board writes. stop() still works through pyserial's
    cancel_read. Ports without a file descriptor (socket://, rfc2217://, loop://) keep
    ReaderThread's own loop.

    The Pico hands its USB port a few bytes a millisecond, so a line reaches the Pi in pieces,
    each of which would wake the thread. When a read shorter than a line ends inside a line,
    the thread lets the rest of it arrive for `PIECE_S` before it reads again (a longer read is
    a burst or a flood, read on at once): the line is complete only with its
    last byte anyway, so a ball's line comes no later than that pause after it (`reads` counts
    the reads, for the bench).

    A resting ship's board holds its TILT lines back and lets them go together (about a second
    of them, hardware/ship/messages.py), still a few bytes a millisecond: a read that brought
    lines, the last of them a TILT (whole, after another line, or begun), is such a batch on its
    way, and the thread lets `BATCH_S` of it arrive before it reads again. Only a TILT is waited
    for so: a read that ends inside any other line (a BALL behind the batch) waits `PIECE_S`.
    Bytes coming faster than any board writes them (`Pace`: a replay, a reader behind) are read
    on at once.
    """

    CHUNK = 4096
    PIECE_S = 0.005  # a TILT line (28 bytes) at the firmware's 8 bytes a millisecond: 4 ms
    BATCH_S = 0.025  # 200 bytes of a batch at 8 a millisecond: a second's batch in four reads
    # a read this long is a flood (or a reader woken late), not a batch pouring in at the Pico's
    # pace; a pty hands over at most 4095 bytes a read, so CHUNK itself is never reached
    FLOOD = CHUNK // 2
    reads = 0

    def run(self) -> None:
        fd = getattr(self.serial, "fd", None)
        cancel = getattr(self.serial, "pipe_abort_read_r", None)
        if not isinstance(fd, int) or not isinstance(cancel, int):
            super().run()
            return
        self.protocol = self.protocol_factory()
        self.protocol.connection_made(self)
        # ReaderThread's own event, set as its run() does (the stubs leave its private parts out)
        self._connection_made.set()  # type: ignore[attr-defined]
        poller = select.poll()
        poller.register(fd, select.POLLIN)
        poller.register(cancel, select.POLLIN)
        error: BaseException | None = None
        pace = Pace()
        try:
            while self.alive:
                ready = poller.poll()
                if any(which == cancel for which, _ in ready):
                    os.read(cancel, 1000)
                    continue  # stop() cleared `alive`; a stray cancel just waits again
                data = self._read(fd)
                if data:
                    self.reads += 1
                    self.protocol.data_received(data)
                    flooding = pace.add(len(data))  # faster than a board writes: read on
                    pause = 0.0 if flooding else self._pause(data)
                    if pause:
                        time.sleep(pause)  # the rest of a line, or of a batch, is on its way
        except Exception as exc:  # the port failed (unplugged) or the protocol did: the end
            error = exc
        self.alive = False
        self.protocol.connection_lost(error)
        # as ReaderThread.run() leaves it: no protocol once the port is closed (its stubs say it always has one)
        self.protocol = None  # type: ignore[assignment]

    def _pause(self, data: bytes) -> float:
        """How long to let more bytes arrive after this read (0: read on at once)."""
        if len(data) >= self.FLOOD:  # more than a held batch could bring meanwhile: read on
            return 0.0
        whole = data.endswith(b"\n")  # the read ends where a line does
        end = len(data) - 1 if whole else len(data)
        start = data.rfind(b"\n", 0, end) + 1  # where the read's last line (whole or begun) starts
        last = data[start : start + len(TILT)]
        last_is_tilt = len(last) >= 2 and TILT.startswith(last)
        after_lines = start > 0 and (not whole or data.count(b"\n") >= 2)
        if last_is_tilt and after_lines:
            return self.BATCH_S  # lines, the last a TILT (whole or begun): a held batch pouring in
        if not whole and len(data) < PIECE:
            return self.PIECE_S  # a piece of a line
        return 0.0

    def _read(self, fd: int) -> bytes:
        try:
            data = os.read(fd, self.CHUNK)
        except (BlockingIOError, InterruptedError):
            return b""  # woken for nothing (as poll may be): wait again
        except OSError as exc:  # EIO: the pty's other side closed, the USB device vanished
            raise serial.SerialException(f"read failed: {exc}") from None
        if not data:
            # a vanished device can read as ready with nothing in it; pyserial says the same
            raise serial.SerialException("device reports readiness to read but returned no data (device disconnected?)")
        return data


class Inlet(Protocol):
    """Where the link puts each batch of records: a queue.Queue (its put says nothing, None),
    or an inlet whose put says False when nobody need be woken for this batch."""

    def put(self, records: list[tuple[int, str, str]], /) -> bool | None: ...


class ShipLink(threading.Thread):
    """Keeps the port open and its lines flowing onto `events` (lists of records)."""

    def __init__(
        self,
        spec: str,
        events: Inlet,
        *,
        clock: Clock = clock_ms,
        wake: Callable[[], None] | None = None,
        retry_s: float = RETRY_S,
    ):
        super().__init__(name="ship-link", daemon=True)
        self.spec = spec
        self.events = events
        self.clock = clock
        self.wake = wake or (lambda: None)
        self.retry_s = retry_s
        self.state = "opening"  # opening, open, missing (never opened yet), lost
        self.problem: str | None = None  # why the port is not open, for the log and the screen
        self.opened = 0  # how many times the port was opened
        self._stopping = threading.Event()
        self._reader: PortReader | None = None
        self._lock = threading.Lock()

    def run(self) -> None:
        while not self._stopping.is_set():
            try:
                port = open_port(self.spec)
            except (NoPort, OSError) as exc:
                if self.problem != str(exc):
                    log.info("ship port %s: %s", self.spec, exc)
                self.problem = str(exc)
                if self.state == "opening":
                    self.state = "missing"
                    self.wake()
                self._stopping.wait(self.retry_s)
                continue
            self.problem = None
            # any pyserial URL's port works (loop://, socket://): the stubs ask for a serial.Serial
            reader = PortReader(port, lambda: LineSplitter(self._deliver, self.clock))  # type: ignore[arg-type]
            reader.name = "ship-reader"
            with self._lock:
                if self._stopping.is_set():
                    port.close()
                    return
                self._reader = reader
            self.opened += 1
            self.state = "open"
            self._deliver([(self.clock(), "port", "back")])
            reader.start()
            reader.join()  # until the port fails (unplugged) or stop() stops it
            try:
                port.close()
            except Exception:  # a vanished device may fail to close; it is gone either way
                pass
            if self._stopping.is_set():
                return
            self.state = "lost"
            self._deliver([(self.clock(), "port", "lost")])
            self._stopping.wait(self.retry_s)

    def _deliver(self, records: list[tuple[int, str, str]]) -> None:
        # a queue's put says nothing (None): wake; an inlet says False when nobody need wake
        if self.events.put(records) is not False:
            self.wake()

    def stop(self) -> None:
        with self._lock:
            self._stopping.set()
            reader = self._reader
        if reader is not None and reader.alive:
            reader.alive = False
            try:
                reader.serial.cancel_read()
            except (OSError, AttributeError, serial.SerialException):
                pass  # the port failed and was closed meanwhile: the reader has ended anyway
        self.join(5.0)
