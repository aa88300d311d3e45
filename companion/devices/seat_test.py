"""Settings -> seat test: which seat and button was pressed; every LED lights in turn."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from .events import LedMode, SeatPress

STEP_S = 0.5  # each LED stays lit this long before the next seat's turn
RECENT = 8  # presses kept for the screen's list


@dataclass
class SeatTestModel:
    seat_count: int
    clock: Callable[[], float]
    started: float
    step_s: float = STEP_S
    recent: deque[SeatPress] = field(default_factory=lambda: deque(maxlen=RECENT))
    stuck: frozenset[tuple[int, str]] = frozenset()  # (seat, button) held down, ignored

    @property
    def last(self) -> SeatPress | None:
        return self.recent[-1] if self.recent else None

    def record(self, press: SeatPress) -> None:
        self.recent.append(press)

    def lit_seat(self, now: float | None = None) -> int:
        """The seat whose LED is lit: 1, 2, ... seat_count, 1, ... one step each."""
        now = self.clock() if now is None else now
        return int(max(0.0, now - self.started) // self.step_s) % self.seat_count + 1

    def led_plan(self, now: float | None = None) -> dict[int, LedMode]:
        return {self.lit_seat(now): LedMode.ON}
