"""The twin on a simulated clock: the real-time twin (runner.TwinShip) with its clock moved on by
the run instead of by the wall, so thousands of drops are flown in minutes.

Everything but the clock is the real-time twin's own: the model and the crew, the real firmware
on the board host (MicroPython, compiled as flashed), and the twin's wake schedule (`_pass`: every
`flying_wake_s` in flight, each millisecond while a BALL line goes out, at each beam clearing
and bed impact, once a BEAT's batch is out at rest). What differs:

- `now` is the board's clock, moved by `step()` to the next wake (`advance_to`); the Pi's clock
  (`pi_ms`) runs beside it, `PI_OFFSET_MS` ahead.
- The board is fed with `sync`: the board host's clock marks on the port when the firmware has
  done its steps up to the last sample of a wake (see companion.ship.board), so the lines those
  steps wrote are handed on at that wake's time, as the real-time twin's thread hands on what it
  finds when it wakes. The board works on a wake's samples while the model moves on to the
  next: each wake hands on the lines of the wakes before it (the two processes in step, each on
  a core of its own).
- No pty: what the firmware writes goes to `port(data)` (the run's LineSplitter, the link's own),
  and the bed impacts to `strike(bed)` at their time.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable
from typing import Any

from .core import RestingRun, TwinSample
from .runner import TwinShip, start_board

PI_OFFSET_MS = 10_000_000  # the Pi's clock reads this when the board powers on


class VirtualTwin(TwinShip):
    def __init__(
        self,
        strike: Callable[[str], None] | None = None,
        *,
        port: Callable[[bytes], None] | None = None,
        **options: Any,  # TwinShip's
    ):
        super().__init__(strike, **options)
        self.now = 0  # the board's ms
        self.port = port or (lambda data: None)
        self._marked: deque[int] = deque()  # the time of each wake whose lines are not handed on yet
        self._fed_now = False

    @staticmethod
    def _open_port() -> tuple[int, int, str | None]:
        return -1, -1, None  # the lines go to `port`, not into a pty

    def start(self) -> VirtualTwin:
        """Power the board on; its main.py starts `boot_s` later on the simulated clock."""
        self.now += round(self.boot_s * 1000)
        board = start_board(self.interpreter, self._flash.name, self.compiled, self.model)
        with self.lock:
            self._power_on(board)
        return self

    def board_ms(self) -> int:
        return self.now

    def pi_ms(self) -> int:
        return PI_OFFSET_MS + self.now

    def board_to_pi(self, board_ms: float) -> int:
        return int(PI_OFFSET_MS + board_ms)

    def step(self) -> int:
        """One wake of the twin at `now`; the board ms of the next one."""
        now, wake_at, expecting = self._pass()
        return now + 1 if expecting else max(now + 1, math.ceil(wake_at))

    def advance_to(self, t: int) -> None:
        """Move the clock on to `t` (the next wake, or sooner: the run's own deadlines)."""
        self.now = max(self.now, int(t))

    def _feed(self, samples: list[TwinSample | RestingRun]) -> None:
        assert self._board is not None  # _catch_up feeds a powered board only
        if self._board.feed(*samples, sync=True):
            self._marked.append(self.now)
            self._fed_now = True

    def _write_lines(self) -> None:
        """The lines of every wake but this one (whose samples the board is working on), each
        at the time of its wake."""
        board, now = self._board, self.now
        keep = 1 if self._fed_now else 0
        self._fed_now = False
        if board is None:
            return
        try:
            while len(self._marked) > keep:
                self.now = self._marked.popleft()
                self._hand_on(board.synced_lines(1))
        finally:
            self.now = now

    def write_raw(self, data: bytes) -> None:
        self.written += 1
        self.port(data)
