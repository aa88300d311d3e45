"""Values shared by the seat devices, the router and the screens (no gpiozero, no pygame)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

JUMP = "jump"
STAY = "stay"
BUTTONS = (JUMP, STAY)


@dataclass(frozen=True)
class SeatPress:
    """One debounced press: seat numbers start at 1, `time` is the clock at the edge."""

    seat: int
    button: str  # JUMP or STAY
    time: float


class LedMode(Enum):
    OFF = "off"
    ON = "on"  # steady: this seat acts now, or has won
    BLINK = "blink"  # this seat's player decides now
