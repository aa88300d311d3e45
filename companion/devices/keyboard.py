"""On a desktop the keyboard presses the seat buttons, through the simulated (MockFactory) pins.

Seat n's JUMP is the digit n, its STAY the letter below it on the keyboard:

    JUMP  1 2 3 4 5 6 7 8
    STAY  q w e r t y u i

A key down drives the button's mock pin low (pressed, the button shorts it to ground), a key
up drives it high again, so the whole path (gpiozero's input device, its callback thread, the
debouncer, the stuck-button timer, the queue) runs exactly as with real buttons.
Key names are pygame's (`pygame.key.name(event.key)`), but nothing here imports pygame.
"""

from __future__ import annotations

from ..errors import CompanionError
from .events import JUMP, STAY
from .seats import SeatInput

JUMP_KEYS = "12345678"
STAY_KEYS = "qwertyui"
KEY_MAP: dict[str, tuple[int, str]] = {
    **{key: (seat, JUMP) for seat, key in enumerate(JUMP_KEYS, start=1)},
    **{key: (seat, STAY) for seat, key in enumerate(STAY_KEYS, start=1)},
}


class NotSimulated(CompanionError, RuntimeError):
    """The keyboard only drives simulated pins; real buttons are pressed by hand."""


class KeyboardSeats:
    def __init__(self, seat_input: SeatInput):
        if not seat_input.simulated:
            raise NotSimulated("the seats are on real GPIO pins: the keyboard does not press them")
        self.input = seat_input

    def key_down(self, key: str) -> bool:
        """Press the button mapped to `key`; False if no seat button has that key."""
        return self._drive(key, pressed=True)

    def key_up(self, key: str) -> bool:
        return self._drive(key, pressed=False)

    def _drive(self, key: str, pressed: bool) -> bool:
        found = KEY_MAP.get(key.lower())
        if found is None or found[0] > self.input.seat_count:
            return False
        pin = self.input.pin(*found)
        if pressed:
            pin.drive_low()  # the button shorts its pin to ground
        else:
            pin.drive_high()
        return True

    def legend(self) -> list[tuple[int, str, str]]:
        """(seat, JUMP key, STAY key) for every seat, for the on-screen key map."""
        return [
            (seat, JUMP_KEYS[seat - 1], STAY_KEYS[seat - 1].upper()) for seat in range(1, self.input.seat_count + 1)
        ]
