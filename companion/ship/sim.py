"""A simulated cloud ship on a pseudo-terminal, speaking the real protocol.

`ShipSimulator` opens a pty and writes what the ship's board would, from its own thread: HELLO
at start, TILT 20 times a second, BEAT once a second, BALL when a ball is released. The reader
opens the pty's other end (`path`) exactly like the real port. Keys, a timed script or a test
move the ship: `fly()`, `set_down()`, `tilt_by()`, `release("rain", "yellow")`. A release
with a bed strikes that bed a moment later through `strike(bed)` (the desktop app drives the
bed detectors' mock pins with it), so the whole path runs as on the table.

Writes never block: with nobody reading, the pty fills and lines are dropped (the judge sees the
gap), as a real link would drop them.

The desktop app and `cloud-companion ship-sim` fly the ship's twin (companion.ship.twin: the
real firmware on a physical model); this simple stand-in, one line at a time at the board's
pace, serves the link's tests (junk, silence, a replug) and the benches.

The timed scripts (`parse_script`, `read_script`) are shared by both.
"""

from __future__ import annotations

import errno
import math
import os
import random
import threading
import time
import tty
from collections.abc import Callable, Sequence

from ..errors import CompanionError
from .protocol import encode

TILT_S = 0.05
BEAT_S = 1.0
FALL_S = 0.18  # from the hole to the bed
FIRMWARE = "sim"


def write_or_drop(fd: int, data: bytes) -> bool:
    """Write into a non-blocking pty as a board would: False when the line has no room (nobody
    reads, or the other end is gone), and the bytes are dropped."""
    try:
        os.write(fd, data)
        return True
    except OSError as exc:
        if exc.errno not in (errno.EAGAIN, errno.EWOULDBLOCK, errno.EIO, errno.EBADF):
            raise
        return False


class ScriptError(CompanionError, ValueError):
    """A line of a timed script that cannot be read."""


class ShipSimulator:
    def __init__(
        self,
        strike: Callable[[str], None] | None = None,
        *,
        seed: int | None = None,
        device: str = "CS-SIM",
        tilt_s: float = TILT_S,
        beat_s: float = BEAT_S,
    ):
        self.strike = strike or (lambda bed: None)
        self.device = device
        self.tilt_s = tilt_s
        self.beat_s = beat_s
        self.rng = random.Random(seed)
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)  # no echo, no line editing: the bytes pass as they are
        os.set_blocking(self.master, False)
        self.path = os.ttyname(self.slave)
        self.pitch = 0.0  # degrees
        self.roll = 0.0
        self.flying = False
        self.quiet_until = 0.0  # a silent board (script: "silent MS")
        self.dropped = 0  # writes the pty had no room for
        self.written = 0  # writes
        self._seq = 0
        self._started = time.monotonic()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._nudge = threading.Event()  # the ship moved: write what is due now
        self._next_tilt: float | None = None  # when the next TILT and BEAT are due (monotonic)
        self._next_beat: float | None = None
        self._timers: list[threading.Timer] = []
        self._thread = threading.Thread(target=self._run, name="ship-sim", daemon=True)

    # -- what the crew does -----------------------------------------------------------------------

    def start(self) -> ShipSimulator:
        self.send("HELLO", "1", self.device, FIRMWARE)
        self._thread.start()
        return self

    def link_at(self, path: str | os.PathLike[str]) -> None:
        """Make `path` a symbolic link to this ship's pty, replacing an older one there: a name
        that stays (like /dev/serial/by-id/...), so a replug is a new pty behind the same path."""
        if os.path.islink(path):
            os.unlink(path)
        os.symlink(self.path, path)

    def fly(self) -> None:
        self.flying = True
        self._nudge.set()

    def set_down(self) -> None:
        self.flying = False
        self.pitch = self.roll = 0.0

    def tilt_by(self, pitch: float, roll: float) -> None:
        self.pitch = max(-45.0, min(45.0, self.pitch + pitch))
        self.roll = max(-45.0, min(45.0, self.roll + roll))
        self._nudge.set()

    def release(self, kind: str, bed: str | None = None, fall_s: float = FALL_S) -> None:
        """A ball leaves the hole; with a bed, it strikes that bed `fall_s` later."""
        self.send("BALL", kind)
        if bed is not None:
            self.later(fall_s, lambda: self.strike(bed))

    def later(self, seconds: float, fn: Callable[[], None]) -> None:
        timer = threading.Timer(seconds, fn)
        timer.daemon = True
        self._timers.append(timer)
        timer.start()

    # -- the board --------------------------------------------------------------------------------

    def board_ms(self) -> int:
        return int((time.monotonic() - self._started) * 1000)

    def send(self, kind: str, *fields: int | str) -> None:
        with self._lock:
            self._write_due(time.monotonic())  # the stream's lines sampled before this one go first
            self.write_raw(self._line(kind, self.board_ms(), fields))

    def _line(self, kind: str, board_ms: int, fields: Sequence[int | str]) -> bytes:
        line = encode(kind, self._seq, board_ms, fields)
        self._seq = (self._seq + 1) % 65536
        return (line + "\r\n").encode("ascii")

    def write_raw(self, data: bytes) -> None:
        """Bytes onto the line as they are (tests send junk through this)."""
        if time.monotonic() < self.quiet_until:
            return
        if write_or_drop(self.master, data):
            self.written += 1
        else:
            self.dropped += 1

    def sample(self) -> tuple[int, int, int]:
        """PITCH, ROLL (tenths of a degree) and MOTION (milli-g) as the board would measure."""
        if self.flying:
            motion = self.rng.randint(45, 140)
            wobble = 2.0
        else:
            motion = self.rng.randint(1, 6)
            wobble = 0.1
        return (
            round((self.pitch + self.rng.uniform(-wobble, wobble)) * 10),
            round((self.roll + self.rng.uniform(-wobble, wobble)) * 10),
            motion,
        )

    def _run(self) -> None:
        self._next_tilt = self._next_beat = time.monotonic()
        while not self._stop.is_set():
            self._nudge.clear()
            with self._lock:
                self._write_due(time.monotonic())
            due = min(self._next_tilt, self._next_beat)
            self._nudge.wait(max(0.0, due - time.monotonic()))

    def _write_due(self, now: float) -> None:
        """The TILT and BEAT lines due by `now`, sampled and stamped at their own times, in
        one write (the lock held)."""
        if self._next_tilt is None or self._next_beat is None:
            return  # not streaming yet (HELLO)
        lines = []
        fields: tuple[int, ...]
        while min(self._next_tilt, self._next_beat) <= now:
            if self._next_tilt <= self._next_beat:
                at, kind, fields = self._next_tilt, "TILT", self.sample()
                self._next_tilt += self.tilt_s
            else:
                at, kind, fields = self._next_beat, "BEAT", (3900,)
                self._next_beat += self.beat_s
            lines.append(self._line(kind, int((at - self._started) * 1000), fields))
        if lines:
            self.write_raw(b"".join(lines))

    def close(self) -> None:
        for timer in self._timers:
            timer.cancel()
        self.unplug()

    def unplug(self) -> None:
        """The cable comes out: the board's side of the pty closes (balls in the air still land)."""
        self._stop.set()
        self._nudge.set()
        if self._thread.is_alive():
            self._thread.join(2.0)
        # once only: a closed descriptor's number is soon another file's
        fds, self.master, self.slave = (self.master, self.slave), -1, -1
        for fd in fds:
            if fd >= 0:
                try:
                    os.close(fd)
                except OSError:
                    pass

    # -- a timed script -----------------------------------------------------------------------------

    def run_script(self, text: str, stop: threading.Event | None = None) -> None:
        """Play a script: one `MS COMMAND [ARGS]` a line, MS from the start ('#' comments).

        fly | down | tilt PITCH ROLL | rain [BED] | hail [BED] | err CODE TEXT | junk TEXT |
        silent MS | hello [PROTO]
        """
        steps = parse_script(text)
        start = time.monotonic()
        for at, command, args in steps:
            delay = start + at / 1000 - time.monotonic()
            if delay > 0 and stop is not None and stop.wait(delay):
                return
            if delay > 0 and stop is None:
                time.sleep(delay)
            self.do(command, args)

    def do(self, command: str, args: list[str]) -> None:
        if command == "fly":
            self.fly()
        elif command == "down":
            self.set_down()
        elif command == "tilt":
            self.pitch, self.roll = float(args[0]), float(args[1])
        elif command in ("rain", "hail"):
            self.release(command, args[0] if args else None)
        elif command == "err":
            self.send("ERR", args[0], " ".join(args[1:]))
        elif command == "junk":
            self.write_raw((" ".join(args) + "\n").encode("latin-1"))
        elif command == "silent":
            self.quiet_until = time.monotonic() + int(args[0]) / 1000
        elif command == "over":
            pass  # a simulator without a hull has nowhere to carry
        elif command == "hello":
            with self._lock:
                self._seq = 0
            self.send("HELLO", args[0] if args else "1", self.device, FIRMWARE)


COMMANDS = {
    "fly": (0, 0),
    "down": (0, 0),
    "tilt": (2, 2),
    "rain": (0, 1),
    "hail": (0, 1),
    "err": (1, 99),
    "junk": (0, 99),
    "silent": (1, 1),
    "hello": (0, 1),
    "over": (1, 1),
}
BEDS = ("yellow", "purple", "white", "blue")


MAX_SCRIPT_BYTES = 1_000_000
MAX_SCRIPT_MS = 86_400_000  # a day: a script time or silence longer than that is a slip


def read_script(path: str) -> str:
    """A script file's text; ScriptError when its bytes are not UTF-8 text (OSError passes)."""
    with open(path, "rb") as f:
        data = f.read(MAX_SCRIPT_BYTES + 1)
    if len(data) > MAX_SCRIPT_BYTES:
        raise ScriptError(f"longer than {MAX_SCRIPT_BYTES // 1_000_000} MB: not a script")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise ScriptError("is not text (a script is UTF-8 lines: 'MS COMMAND [ARGS]')") from None
    if "\0" in text:
        raise ScriptError("is not text (it holds NUL bytes)")
    return text


def parse_script(text: str) -> list[tuple[int, str, list[str]]]:
    steps: list[tuple[int, str, list[str]]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        try:
            at = int(words[0])
        except ValueError:
            raise ScriptError(f"line {number}: a script line starts with the time in ms") from None
        if not 0 <= at <= MAX_SCRIPT_MS:
            raise ScriptError(f"line {number}: a time is 0 to at most {MAX_SCRIPT_MS} ms (a day)")
        command, args = (words[1], words[2:]) if len(words) > 1 else ("", [])
        if command not in COMMANDS:
            raise ScriptError(f"line {number}: unknown command {command!r} ({', '.join(COMMANDS)})")
        least, most = COMMANDS[command]
        if not least <= len(args) <= most:
            raise ScriptError(f"line {number}: {command} takes {least} to {most} words")
        if command in ("rain", "hail", "over") and args and args[0] not in BEDS:
            raise ScriptError(f"line {number}: {args[0]!r} is not a bed ({', '.join(BEDS)})")
        try:
            if command == "tilt" and not all(math.isfinite(float(a)) for a in args):
                raise ValueError
            if command == "silent":
                int(args[0])
        except ValueError:
            raise ScriptError(f"line {number}: {command} needs numbers") from None
        if command == "silent" and not 0 <= int(args[0]) <= MAX_SCRIPT_MS:
            raise ScriptError(f"line {number}: silent lasts 0 to at most {MAX_SCRIPT_MS} ms (a day)")
        if steps and at < steps[-1][0]:
            raise ScriptError(f"line {number}: time goes back")
        steps.append((at, command, args))
    return steps
