"""The twin in real time: the model, the real firmware on the board host, a pseudo-terminal.

`TwinShip` runs on its own thread: as time passes it moves the model, feeds the board host
(companion.ship.board: `hardware/ship/main.py` under MicroPython's unix port, or CPython where
that is missing) the samples of what the sensors read, and writes what the firmware writes on
its USB port into a pty, whose other end (`path`) the app's link opens like the real port. Each
ball that lands in a bed strikes that bed's detector at its time through `strike(bed)` (the
desktop app drives the bed detectors' mock pins with it).

The crew's hands: `fly()`, `set_down()`, `tilt_by()`, `hold()`, `release(kind, bed)` (a ball put
on the deck; with a bed, the pilot flies there and tips it into the hole), the same as the
simple simulator's (companion.ship.sim) so keys and scripts drive either. The model is shared
with the screen: read it under `lock` (`balls()`, `hull()`).

The board powers on with `start()`; its firmware starts `boot_s` later (as a Pico's main.py
does, its clock then well past zero), so an app's first frame does not wait for it.

The twin passes on what the firmware writes, when it writes it. A resting ship's firmware holds
its TILT lines back and lets them go with its BEAT, once a second (hardware/ship/messages.py):
while nothing moves, the thread wakes only as each such batch is out (`BATCH_OUT_MS` after the
BEAT is due), so the app's reader wakes about once a second. In flight the thread wakes every
`flying_wake_s`, at each beam clearing (so a BALL line goes out as the board writes it) and at
each impact on a bed.

Writes never block: with nobody reading, the pty fills and lines are dropped (the judge sees
the gap), as a real link would drop them.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import threading
import time
import tty
from collections.abc import Callable
from pathlib import Path
from typing import Protocol, TypeVar

from ..board import Board
from ..sim import write_or_drop
from .core import RestingRun, TwinCore, TwinSample
from .physics import BED_CENTRES, Ball, Hull, ShipModel
from .pilot import TICK_MS, Pilot

T = TypeVar("T")  # what a crew action gives back

BEAT_MS = 1000  # the firmware's BEAT (hardware/ship/ship.py): a resting ship's lines go with it
# a second's held lines (about 500 bytes) leave the board 8 bytes a step, and at rest the twin
# gives the board a sample (a step) each IMU tick, 5 ms: they are out some 320 ms after the BEAT
BATCH_OUT_MS = 500
FLYING_WAKE_S = 0.02
TILT_STEP = 5.0  # degrees a key tilts the ship
EXPECT_MS = 50  # a ball's BALL line follows its beam clearing within a few ms (8 bytes a ms)


PULSE_MS = 10  # a piezo's comparator holds its output low this long per ring


class MockPin(Protocol):
    """A bed detector's pin as a test or the twin drives it (gpiozero's MockPin)."""

    def drive_low(self) -> None: ...

    def drive_high(self) -> None: ...


class Beds(Protocol):
    """The bed detectors' pins (companion.devices.beds.BedDetectors)."""

    def pin(self, colour: str, /) -> MockPin: ...


def pulse(beds: Beds | None, bed: str, ms: int = PULSE_MS) -> None:
    """A ball strikes a bed detector on mock pins (companion.devices.beds): its pin goes low
    for a moment, as the comparator pulls it."""
    if beds is None:
        return
    pin = beds.pin(bed)
    pin.drive_low()
    timer = threading.Timer(ms / 1000, pin.drive_high)
    timer.daemon = True
    timer.start()


def interpreter() -> str:
    """MicroPython's unix port where it is installed (the board's own interpreter), else CPython."""
    return "micropython" if Board.available("micropython") is None else "cpython"


LEVEL_MS = 2600  # calibrate.level() takes two seconds of the ship standing level


def levelled_flash(
    name: str, folder: str | os.PathLike[str], compiled: bool = False, model: ShipModel | None = None
) -> Path:
    """The board's flash in `folder`: the firmware's sources (MicroPython compiles them as it
    imports, in the board's own process), or compiled .mpy files as flash.sh ships them where
    mpy-cross is at hand (a dozen mpy-cross runs first: the calibration run's choice, not the
    app's start). With a model, the board is levelled on the table as a maker does it: the real
    `calibrate.level()`, shown the model standing level, writes calibration.json with the
    board's own tilt zero and 1 g. Made once: a soft reset starts the board on it again."""
    from ..board import make_flash, mpy_cross

    flash = Path(folder) / "flash"
    built = (flash / "main.py").exists()
    if not built and compiled and name == "micropython" and mpy_cross() is not None:
        try:
            make_flash(flash, compiled=True)
            built = True
        except (OSError, subprocess.CalledProcessError):
            shutil.rmtree(flash, ignore_errors=True)  # mpy-cross failed here: the sources will do
    if not built:
        make_flash(flash)
    if model is not None and not (flash / "calibration.json").exists():
        standing = [TwinSample(t, model.standing_level(t // 5), model.colour(), 0) for t in range(0, LEVEL_MS, 5)]
        Board.run(standing, name, flash=flash, run="import calibrate; calibrate.level()")
    return flash


def start_board(
    name: str,
    folder: str | os.PathLike[str],
    compiled: bool = False,
    model: ShipModel | None = None,
    heap: str | None = None,
) -> Board:
    """The board host on the flash in `folder` (levelled_flash); `heap`: MicroPython's (Board)."""
    flash = levelled_flash(name, folder, compiled, model)
    return Board(name, flash=flash, readers=False, heap=heap)  # the runner takes the lines when it wakes


def catch_up(core: TwinCore, pilot: Pilot, next_tick: int, now: int) -> tuple[list[TwinSample | RestingRun], int]:
    """Move the model to board time `now`, the pilot acting every TICK_MS from `next_tick`:
    the board's samples meanwhile, and when the pilot acts next. However the time is cut into
    calls, the same samples come out (the model moves only to its samples' times, and the pilot
    acts after the samples up to its tick)."""
    samples: list[TwinSample | RestingRun] = []
    if pilot.busy:
        next_tick = max(next_tick, core.t + 1)
        while next_tick <= now and pilot.busy:
            samples += core.samples_to(next_tick)
            pilot.tick()
            next_tick += TICK_MS
    samples += core.samples_to(now)
    return samples, next_tick


class TwinShip:
    def __init__(
        self,
        strike: Callable[[str], None] | None = None,
        *,
        seed: int | None = None,
        board: str | None = None,
        flying_wake_s: float = FLYING_WAKE_S,
        model: ShipModel | None = None,
        crew: dict[str, float] | None = None,  # the Pilot's options
        compiled: bool = False,
        boot_s: float = 0.0,
    ):
        self.strike = strike or (lambda bed: None)
        self.core = TwinCore(seed, model=model)
        self.model = self.core.model
        self.pilot = Pilot(self.model, **(crew or {}))
        self.interpreter = board or interpreter()
        self.compiled = compiled
        self.boot_s = boot_s  # the Pico's main.py starts this long after power-on
        self.flying_wake_s = flying_wake_s
        self.master, self.slave, self.path = self._open_port()
        self.lock = threading.RLock()  # the model, the pilot and the core
        self.dropped = 0  # writes the pty had no room for
        self.written = 0  # writes into the pty
        self.quiet_until = 0.0
        self.beams: list[tuple[int, int]] = []  # (Pi ms, ball id) each BALL line went out
        self.struck: list[tuple[int, str, int]] = []  # (Pi ms, bed, ball id) of each impact
        self.lines: list[str] = []  # every line the firmware wrote, for the calibration run
        self.keep_lines = False
        self._board: Board | None = None
        self.firmware_started = 0  # the board ms main.py started at (the lines' T count from it)
        self._started = 0.0
        self._balls_written = 0
        self._last_beat: int | None = None  # T of the firmware's last BEAT line
        self._clears_seen = 0
        self._expect_until = 0
        self._ball_written: dict[int, int] = {}  # ball id -> board ms its BALL line went out
        self._pending: list[tuple[int, str, Ball]] = []  # bed impacts due (board ms, bed, ball)
        self._next_tick = 0
        self._stop = threading.Event()
        self._nudge = threading.Event()
        self._thread = threading.Thread(target=self._run, name="ship-twin", daemon=True)
        self._flash = tempfile.TemporaryDirectory(prefix="twin-")  # the board's flash, levelled once

    @staticmethod
    def _open_port() -> tuple[int, int, str | None]:
        """The pty the firmware's USB lines go into: (master, slave, the slave's path)."""
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo, no line editing: the bytes pass as they are
        os.set_blocking(master, False)
        return master, slave, os.ttyname(slave)

    # -- what the crew does -----------------------------------------------------------------------

    def start(self) -> TwinShip:
        """Power the board on: its host starts on the twin's own thread (the app's first frame
        does not wait for it)."""
        self._started = time.monotonic()
        self._thread.start()
        return self

    def link_at(self, path: str | os.PathLike[str]) -> None:
        """Make `path` a symbolic link to this ship's pty, replacing an older one there."""
        assert self.path is not None  # a twin that writes into a pty
        if os.path.islink(path):
            os.unlink(path)
        os.symlink(self.path, path)

    @property
    def flying(self) -> bool:
        return self.model.flying

    def _change(self, fn: Callable[[TwinCore, Pilot], T]) -> T:
        """A crew action: the model moved to now, then `fn(core, pilot)` (the model is
        `core.model`), under the lock."""
        with self.lock:
            self._catch_up()
            done = fn(self.core, self.pilot)
        self._nudge.set()
        return done

    def act(self, fn: Callable[[TwinCore, Pilot], T]) -> T:
        """A crew action on the model as it stands (not moved to now first): `fn(core, pilot)`
        under the lock."""
        with self.lock:
            done = fn(self.core, self.pilot)
        self._nudge.set()
        return done

    def fly(self) -> None:
        self._change(lambda core, _pilot: core.model.lift())

    def set_down(self) -> None:
        def down(core: TwinCore, pilot: Pilot) -> None:
            pilot.queue.clear()
            pilot.goal = None
            core.model.set_down()

        self._change(down)

    def tilt_by(self, pitch: float, roll: float) -> None:
        def tilt(core: TwinCore, _pilot: Pilot) -> None:
            m = core.model
            m.hold(pitch=m.pitch.target + pitch, roll=m.roll.target + roll)

        self._change(tilt)

    def hold(self, pitch: float | None = None, roll: float | None = None, **where: float | None) -> None:
        self._change(lambda core, _pilot: core.model.hold(pitch=pitch, roll=roll, **where))

    def over(self, bed: str) -> None:
        """Carry the ship over a bed (lifting it first)."""

        def carry(core: TwinCore, pilot: Pilot) -> None:
            if not core.model.flying:
                core.model.lift()
            pilot.carry(BED_CENTRES[bed])

        self._change(carry)

    def release(self, kind: str, bed: str | None = None) -> None:
        """A ball handed onto the deck when the balls before it are down; the pilot tips it into
        the hole (over `bed`, or where the ship is)."""

        def put(core: TwinCore, pilot: Pilot) -> None:
            if not core.model.flying:
                core.model.lift()
            pilot.hand_in(kind, bed)

        self._change(put)

    def load(self, kind: str, u: float, v: float) -> Ball:
        return self._change(lambda core, _pilot: core.model.load(kind, u, v))

    # -- for the screen ---------------------------------------------------------------------------

    def balls(self) -> list[tuple[str, float, float, str]]:
        """(kind, u, v, state) of each ball on the deck or falling."""
        with self.lock:
            return [(b.kind, b.u, b.v, b.state) for b in self.model.balls]

    def hull(self) -> Hull:
        with self.lock:
            return self.model.hull()

    def board_ms(self) -> int:
        return int((time.monotonic() - self._started) * 1000)

    def pi_ms(self) -> int:
        """The Pi's clock for the judge (companion.ship.link.clock_ms)."""
        return time.monotonic_ns() // 1_000_000

    def board_to_pi(self, board_ms: float) -> int:
        return int(self._started * 1000 + board_ms)

    # -- the thread ---------------------------------------------------------------------------------

    def _catch_up(self) -> None:
        """Move the model to now, the pilot acting every TICK_MS; the samples to the board
        (the lock held)."""
        if self._board is None:
            return
        samples, self._next_tick = catch_up(self.core, self.pilot, self._next_tick, self.board_ms())
        if samples:
            self._feed(samples)

    def _feed(self, samples: list[TwinSample | RestingRun]) -> None:
        assert self._board is not None  # _catch_up feeds a powered board only
        try:
            self._board.feed(*samples)
        except (BrokenPipeError, ValueError, OSError):
            pass  # the board has stopped (closing)

    def _strike_at(self, t: int, ball: Ball) -> int:
        """When an impact at board time `t` strikes its bed: then, or, for a ball through the
        hole whose BALL line went out late (this computer was busy), as long after that line
        as the ball took from the beam to the bed. The Pico writes at once; a late line must
        not reach the judge after its ball's impact."""
        if ball.story.get("through") != "hole":
            return t
        written = self._ball_written.get(ball.id)
        if written is None:
            return t + 10**9  # not written yet: wait for it
        beam_clear: int = ball.story["beam_clear"]
        return max(t, written + t - beam_clear)

    def _run(self) -> None:
        if self.boot_s and self._stop.wait(self.boot_s):
            return
        board = start_board(self.interpreter, self._flash.name, self.compiled, self.model)
        with self.lock:
            if self._stop.is_set():
                _close_board(board)
                return
            self._power_on(board)
        while not self._stop.is_set():
            self._nudge.clear()
            now, wake_at, expecting = self._pass()
            if expecting:
                # the board is writing its BALL line, a few bytes a millisecond: its next sample
                # is due in a millisecond, and its bytes are taken the moment they come
                current, wait_s = self._board, max(0.0, (now + 1 - self.board_ms()) / 1000)
                if current is not None:  # (a soft reset swaps the board meanwhile)
                    current.wait_usb(wait_s)
                    continue
                wake_at = now + 1
            self._nudge.wait(max(0.0, (wake_at - self.board_ms()) / 1000))

    def _power_on(self, board: Board) -> None:
        """The board's main.py starts now (the lock held), the Pico's clock long past zero."""
        now = self.board_ms()
        if now > self.core.t + 1:
            self.model.advance(now)
            self.core.t = now - 1
        self.firmware_started = self.core.t + 1  # board ms of its first sample: T counts from here
        self._board = board

    def _pass(self) -> tuple[int, float, bool]:
        """One wake of the twin: the model moved to now and the board fed, the firmware's lines
        written, the impacts due struck. Board ms now, when to wake next, and whether a BALL
        line is being written (then the next wake is a millisecond on)."""
        with self.lock:
            self._catch_up()
            self._pending += self.core.strikes
            self.core.strikes.clear()
            beam_due = self.core.beam_due()
            quiet = self.model.quiet() and not self.pilot.busy and not self.model.flying
            if self.core.beam_clears != self._clears_seen:  # a break ended: a ball's?
                self._clears_seen = self.core.beam_clears
                self._expect_until = self.core.t + EXPECT_MS
            # a ball's body has passed and its BALL line is not read yet (a flicker's break
            # gives none, and a ball the firmware missed gives none for long)
            expecting = bool(self.model.cleared) and self.core.t < self._expect_until
        self._write_lines()
        now = self.board_ms()
        pending = self._pending
        due = [s for s in pending if self._strike_at(s[0], s[2]) <= now]
        if due:
            self._pending = pending = [s for s in pending if s not in due]
            for _t, bed, ball in due:
                self.struck.append((self.pi_ms(), bed, ball.id))
                self.strike(bed)
        wake_at = now + self.flying_wake_s * 1000
        batch_out = self._batch_out()
        if quiet and batch_out is not None and batch_out > now:
            wake_at = batch_out  # nothing moves: the firmware writes nothing before its next BEAT
        if beam_due is not None:
            wake_at = min(wake_at, beam_due)
        if pending:
            wake_at = min(wake_at, min(self._strike_at(s[0], s[2]) for s in pending))
        return now, wake_at, expecting

    def _batch_out(self) -> int | None:
        """Board ms by which a resting ship's next batch of lines is out (None: no BEAT seen)."""
        if self._last_beat is None:
            return None
        return self.firmware_started + self._last_beat + BEAT_MS + BATCH_OUT_MS

    def _write_lines(self) -> None:
        if self._board is not None:
            self._hand_on(self._board.usb_lines())

    def _hand_on(self, lines: list[str]) -> None:
        """The firmware's lines into the pty, noting its BEATs and each BALL line's ball."""
        if not lines:
            return
        for line in lines:
            if line.startswith("$BEAT,"):
                try:
                    self._last_beat = int(line.split(",")[2])
                except (IndexError, ValueError):
                    pass
            elif line.startswith("$BALL"):
                self._balls_written += 1
                with self.lock:
                    cleared = self.model.cleared
                    ball_id = cleared.pop(0) if cleared else -1
                self._ball_written[ball_id] = self.board_ms()
                self.beams.append((self.pi_ms(), ball_id))
        if self.keep_lines:
            self.lines += lines
        self.write_raw("".join(line + "\r\n" for line in lines).encode("ascii", "replace"))

    def write_raw(self, data: bytes) -> None:
        if time.monotonic() < self.quiet_until or self.master < 0:
            return
        if write_or_drop(self.master, data):
            self.written += 1
        else:
            self.dropped += 1

    def reset(self) -> None:
        """A soft reset of the board: the firmware starts again, the clock running on."""
        with self.lock:
            old, self._board = self._board, None
            self._balls_written = self._clears_seen = self.core.beam_clears
            self.model.cleared.clear()
            self._last_beat = None  # the new firmware's BEATs count from its own start
            self.core.t = self.core.model.t - 1  # the new board's first sample is now
            self._board = start_board(self.interpreter, self._flash.name, self.compiled)
            self.firmware_started = self.core.t + 1
            self._catch_up()
        if old is not None:
            _close_board(old)
        self._nudge.set()

    # -- a timed script ---------------------------------------------------------------------------

    def run_script(self, text: str, stop: threading.Event | None = None) -> None:
        """Play a script (companion.ship.sim.parse_script: one `MS COMMAND [ARGS]` a line)."""
        from ..sim import parse_script

        steps = parse_script(text)
        start = time.monotonic()
        for at, command, args in steps:
            delay = start + at / 1000 - time.monotonic()
            if delay > 0:
                if stop is None:
                    time.sleep(delay)
                elif stop.wait(delay):
                    return
            self.do(command, args)

    def do(self, command: str, args: list[str]) -> None:
        """fly | down | over BED | tilt PITCH ROLL | rain [BED] | hail [BED] | err imu|ball_sensor (that part
        stops answering for a second: the firmware reports it) | junk TEXT | silent MS | hello
        (a soft reset of the board)"""
        if command == "fly":
            self.fly()
        elif command == "down":
            self.set_down()
        elif command == "tilt":
            self.hold(pitch=float(args[0]), roll=float(args[1]))
        elif command in ("rain", "hail"):
            self.release(command, args[0] if args else None)
        elif command == "over":
            self.over(args[0])
        elif command == "err":
            part = {"imu": "imu", "ball_sensor": "colour", "colour": "colour"}.get(args[0], "imu")
            self._change(lambda core, _pilot: core.fail(part, 1000))
        elif command == "junk":
            self.write_raw((" ".join(args) + "\n").encode("latin-1"))
        elif command == "silent":
            self.quiet_until = time.monotonic() + int(args[0]) / 1000
        elif command == "hello":
            self.reset()

    def close(self) -> None:
        self.unplug()

    def unplug(self) -> None:
        """The cable comes out: the pty closes; the board stops."""
        self._stop.set()
        self._nudge.set()
        if self._thread.is_alive():
            self._thread.join(5.0)
        board, self._board = self._board, None
        if board is not None:
            _close_board(board)
        self._flash.cleanup()
        fds, self.master, self.slave = (self.master, self.slave), -1, -1
        for fd in fds:
            if fd >= 0:
                try:
                    os.close(fd)
                except OSError:
                    pass


def _close_board(board: Board) -> None:
    try:
        board.close(timeout=10)
    except Exception:  # a board host that does not stop in time: it ends with its input
        pass
