"""The twin on a simulated clock: the real-time twin (runner.TwinShip) with its clock moved on by
the run instead of by the wall, so thousands of drops are flown in minutes.

Everything but the clock is the real-time twin's own: the model and the crew, the real firmware
on the board host (MicroPython, compiled as flashed), and the twin's wake schedule (`_pass`: every
`flying_wake_s` in flight, each millisecond while a BALL line goes out, at each beam clearing
and bed impact, once a BEAT's batch is out at rest). What differs:

- `now` is the board's clock, moved by `step()` to the next wake (`advance_to`); the Pi's clock
  (`pi_ms`) runs beside it, `PI_OFFSET_MS` ahead.
- The board is fed with every sample marked (Board.feed_marked): the board host's clock marks
  on the port when the firmware has done its steps up to each sample (see companion.ship.board),
  so the lines the steps up to a wake's last sample wrote are handed on at that wake's time, as
  the real-time twin's thread hands on what it finds when it wakes. The board works on a wake's
  samples while the model moves on to the next: each wake hands on the lines of the wakes before
  it (the two processes in step, each on a core of its own).
- No pty: what the firmware writes goes to `port(data)` (the run's LineSplitter, the link's own),
  and the bed impacts to `strike(bed)` at their time.
- Ahead of the clock: a copy of the model and the crew (`Ahead`) runs up to a second ahead of
  `now` where the run allows it (`step(ahead_to)`: no crew action can come before then) and
  feeds the board those samples at once, each flagged to be marked (Board.feed_marked), so the
  board works through them while the model catches up and neither waits for the other. The
  samples are the same whenever they are made (runner.catch_up); the twin's own model still
  moves with the clock, and each wake takes the lines of the steps up to the samples that model
  has reached, as if it had fed them itself. A crew action brings the copy to the same moment
  and is done on both; a copy found ahead of a crew action, or a sample of the copy's that the
  model does not make at the same time, is an error (AheadError), never a different run.
"""

from __future__ import annotations

import copy
import math
from collections import deque
from collections.abc import Callable
from typing import Any, TypeVar

from ...errors import CompanionError
from .core import IMU_MS, RestingRun, TwinCore, TwinSample
from .pilot import Pilot
from .runner import TwinShip, catch_up, start_board

PI_OFFSET_MS = 10_000_000  # the Pi's clock reads this when the board powers on
# MicroPython's heap on the board host: a Pico's (about 190 KB free after boot), not the unix
# port's 2 MB. The firmware runs the same in either; in the larger one each call of a function
# whose frame goes on the heap searches far more of it for room (half the board's time)
PICO_HEAP = "192K"
AHEAD_STRIDE_MS = 500  # the copy runs on when it is less than this ahead of where it may go

T = TypeVar("T")


class AheadError(CompanionError, RuntimeError):
    """The copy ahead of the clock and the twin's model parted: a crew action came where the
    copy had gone past, or the two made different samples."""


class Ahead:
    """A copy of the twin's model and crew (deep-copied at power-on), moved on by catch_up."""

    def __init__(self, core: TwinCore, pilot: Pilot, next_tick: int, now: int):
        self.core, self.pilot = copy.deepcopy((core, pilot))
        self.next_tick = next_tick
        self.now = now  # board ms it has been moved to
        self.times: deque[int] = deque()  # the times of the samples fed that the model has not made yet

    def run_to(self, now: int) -> list[TwinSample | RestingRun]:
        samples, self.next_tick = catch_up(self.core, self.pilot, self.next_tick, now)
        self.now = now
        # what the runner takes from the twin's own model: nobody takes it from the copy
        self.core.strikes.clear()
        self.core.model.cleared.clear()
        times = self.times
        for sample in samples:
            if isinstance(sample, RestingRun):
                times.extend(range(sample.t_ms, sample.t_ms + IMU_MS * sample.count, IMU_MS))
            else:
                times.append(sample.t_ms)
        return samples


def sample_times(samples: list[TwinSample | RestingRun]) -> tuple[int, int]:
    """How many samples, and the time of the last."""
    count, last = 0, -1
    for sample in samples:
        if isinstance(sample, RestingRun):
            count += sample.count
            last = sample.t_ms + IMU_MS * (sample.count - 1)
        else:
            count += 1
            last = sample.t_ms
    return count, last


class VirtualTwin(TwinShip):
    def __init__(
        self,
        strike: Callable[[str], None] | None = None,
        *,
        port: Callable[[bytes], None] | None = None,
        ahead: bool = True,
        **options: Any,  # TwinShip's
    ):
        """`ahead`: the board fed by a copy of the model running ahead of the clock (where
        `step` is told it may), else by the model itself as the clock reaches each sample. A
        crew that reaches into the model other than through `act` and the crew's methods (a
        test's own flight, under the lock) needs the latter: the copy would not see it."""
        super().__init__(strike, **options)
        self.now = 0  # the board's ms
        self.port = port or (lambda data: None)
        self.feeds_ahead = ahead
        # each wake whose lines are not handed on yet: its time, and how many samples the
        # model had made by then (the board's steps up to that sample wrote its lines)
        self._marked: deque[tuple[int, int]] = deque()
        self._fed_now = False
        self._ahead: Ahead | None = None
        self._made = 0  # samples the model has made
        self._taken = 0  # samples whose steps' lines are handed on
        self._caught_up = 0  # board ms the model was last moved to

    @staticmethod
    def _open_port() -> tuple[int, int, str | None]:
        return -1, -1, None  # the lines go to `port`, not into a pty

    def start(self) -> VirtualTwin:
        """Power the board on; its main.py starts `boot_s` later on the simulated clock."""
        self.now += round(self.boot_s * 1000)
        board = start_board(self.interpreter, self._flash.name, self.compiled, self.model, heap=PICO_HEAP)
        with self.lock:
            self._power_on(board)
            self._caught_up = self.core.t  # the model stands before its first sample
            if self.feeds_ahead:
                self._ahead = Ahead(self.core, self.pilot, self._next_tick, self.core.t)
                self.core.sensing = False  # the copy's samples go to the board: these are counted
        return self

    def board_ms(self) -> int:
        return self.now

    def pi_ms(self) -> int:
        return PI_OFFSET_MS + self.now

    def board_to_pi(self, board_ms: float) -> int:
        return int(PI_OFFSET_MS + board_ms)

    def step(self, ahead_to: int = 0) -> int:
        """One wake of the twin at `now`; the board ms of the next one. `ahead_to`: no crew
        action comes before this board ms (but through the model), so the board may be fed
        the samples up to it."""
        ahead = self._ahead
        if ahead is not None and ahead.now < max(self.now, ahead_to - AHEAD_STRIDE_MS):
            self._run_ahead(ahead, max(self.now, ahead_to))
        now, wake_at, expecting = self._pass()
        return now + 1 if expecting else max(now + 1, math.ceil(wake_at))

    def advance_to(self, t: int) -> None:
        """Move the clock on to `t` (the next wake, or sooner: the run's own deadlines)."""
        self.now = max(self.now, int(t))

    def _run_ahead(self, ahead: Ahead, to: int) -> None:
        samples = ahead.run_to(to)
        if samples and self._board is not None:
            self._board.feed_marked(*samples)

    def _in_step(self, to: int) -> Ahead | None:
        """The copy (if any) moved to board ms `to`, where the model stands (the lock held)."""
        ahead = self._ahead
        if ahead is None:
            return None
        if ahead.now > to:
            raise AheadError(f"a crew action at {to} ms, the copy of the model already at {ahead.now} ms")
        if ahead.now < to:
            self._run_ahead(ahead, to)
        return ahead

    def _catch_up(self) -> None:
        ahead = self._ahead
        if ahead is not None and ahead.now < self.now:
            self._run_ahead(ahead, self.now)
        super()._catch_up()
        self._caught_up = self.now

    def _change(self, fn: Callable[[TwinCore, Pilot], T]) -> T:
        with self.lock:
            self._catch_up()
            return self._on_both(self.now, fn)

    def act(self, fn: Callable[[TwinCore, Pilot], T]) -> T:
        with self.lock:
            return self._on_both(self._caught_up, fn)

    def _on_both(self, at: int, fn: Callable[[TwinCore, Pilot], T]) -> T:
        ahead = self._in_step(at)
        done = fn(self.core, self.pilot)
        if ahead is not None:
            fn(ahead.core, ahead.pilot)
        return done

    def reset(self) -> None:
        raise NotImplementedError("the twin on a simulated clock has no soft reset")

    def _feed(self, samples: list[TwinSample | RestingRun]) -> None:
        """The model's samples to the board, or, with a copy ahead, made again: the board had
        them from the copy (the same, checked by their times)."""
        assert self._board is not None  # _catch_up feeds a powered board only
        count, last = sample_times(samples)
        if self._ahead is None:
            self._board.feed_marked(*samples)
        else:
            times = self._ahead.times
            if count > len(times):
                raise AheadError(f"the model made {count} samples to {last} ms, the copy {len(times)}")
            for _ in range(count - 1):
                times.popleft()
            if times.popleft() != last:
                raise AheadError(f"the model's sample at {last} ms is not the copy's")
        self._made += count
        self._marked.append((self.now, self._made))
        self._fed_now = True

    def _write_lines(self) -> None:
        """The lines of every wake but this one (whose samples the board may be working on),
        each at the time of its wake."""
        board, now = self._board, self.now
        keep = 1 if self._fed_now else 0
        self._fed_now = False
        if board is None:
            return
        try:
            while len(self._marked) > keep:
                self.now, made = self._marked.popleft()
                lines = board.synced_lines(made - self._taken)
                self._taken = made
                self._hand_on(lines)
        finally:
            self.now = now

    def write_raw(self, data: bytes) -> None:
        self.written += 1
        self.port(data)
