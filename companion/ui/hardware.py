"""What the screens need to know about the hardware at the table.

The device code (seat buttons on gpiozero, the ship sensor on pyserial) gives the app an object
with this shape; until it exists, and on a machine without Pi pins, the app uses these stand-ins.
Seat presses reach the app through `App.seat_pressed(seat, button)` (thread-safe).
"""

from __future__ import annotations

from typing import Protocol


class Hardware(Protocol):
    simulated: bool  # True: no real pins, the screen says so

    def sensor_status(self) -> str | None: ...        # "ok", "simulated", "missing", or None (no sensor)
    def light_seats(self, seats: set[int]) -> None: ...  # the seat LEDs mirror whose turn it is


class NoHardware:
    """A desktop or a test: seats are claimed and pressed by touch, no sensor."""

    simulated = True

    def __init__(self, sensor: str | None = None):
        self._sensor = sensor
        self.lit: set[int] = set()

    def sensor_status(self) -> str | None:
        return self._sensor

    def light_seats(self, seats: set[int]) -> None:
        self.lit = set(seats)
