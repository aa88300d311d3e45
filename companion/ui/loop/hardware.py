"""The seat buttons and the cloud ship as the screens see them.

The seat code (companion.devices.table.SeatTable) turns presses into actions by itself; the app
tells it which screen is showing (`enter`) and, once per loop pass, collects what happened
(`poll`): refusals become a toast, claims and seat-test presses go to the screen.
`NoHardware` stands in when there are no seat buttons at all (tests, the demo).
The cloud ship, when attached, is `ship` (a companion.ui.loop.ship_view.ShipPanel): `pump_ship` runs
it once per loop pass, and the top bar and the Cloudship screen read its status and tilt here.
"""

from __future__ import annotations

from collections.abc import Callable

import pygame


class NoHardware:
    """Nothing attached: seats are claimed by touch, no sensor."""

    simulated = True
    ship = None  # the cloud ship's ShipPanel, when attached

    def __init__(self, sensor: str | None = None):
        self._sensor = sensor
        self.mode = "idle"

    def pump_ship(self, app) -> None:
        if self.ship is not None:
            self.ship.pump(app)

    def ship_due_s(self) -> float | None:
        """Seconds until the ship's judge has a deadline to fire (None: no ship)."""
        return self.ship.due_s() if self.ship is not None else None

    def ship_tilt(self) -> float | None:
        return self.ship.tilt_degrees() if self.ship is not None else None

    def ship_key(self, event) -> bool:
        """Desktop keys move the simulated ship (companion.ui.loop.ship_view)."""
        if self.ship is None or event.type not in (pygame.KEYDOWN, pygame.KEYUP):
            return False
        plain = not (event.mod & (pygame.KMOD_CTRL | pygame.KMOD_ALT | pygame.KMOD_META))
        return self.ship.key(pygame.key.name(event.key), event.type == pygame.KEYDOWN, plain)

    def close_ship(self) -> None:
        if self.ship is not None:
            self.ship.close()
            self.ship = None

    def enter(self, screen) -> None:
        self.mode = screen.seat_mode()

    def poll(self) -> list:
        return []

    def frame_shown(self) -> None:
        """The loop pass's frame is on the screen: what waited for it may go (seat LEDs)."""

    def key(self, event) -> bool:
        return self.ship_key(event)

    def sensor_status(self) -> str | None:
        if self.ship is None:
            return self._sensor
        status = self.ship.status()
        # simulated pins and a simulated ship: the "Simulated" badge already says so
        return None if status == "simulated" and self.simulated else status

    def status_line(self) -> str | None:
        return None

    def seat_test(self):
        return None

    def close(self) -> None:
        self.close_ship()


class SeatHardware(NoHardware):
    """The real or simulated seat buttons behind companion.devices.table.SeatTable."""

    def __init__(self, table, simulated: bool, keyboard=None, sensor: str | None = None):
        super().__init__(sensor)
        self.table, self.simulated, self.keyboard = table, simulated, keyboard
        self.test_model = None
        table.input.hold_leds_for_frame = True  # released by frame_shown, after each pass's frame

    @classmethod
    def open(cls, config, wake: Callable[[], None]) -> SeatHardware:
        from ...devices.table import SeatTable

        table = SeatTable.open(config, wake=wake)
        simulated = bool(table.input.simulated)
        keyboard = None
        if simulated:
            from ...devices.keyboard import KeyboardSeats

            keyboard = KeyboardSeats(table.input)
        return cls(table, simulated, keyboard)

    def enter(self, screen) -> None:
        from ...devices.router import SeatMap

        mode = self.mode = screen.seat_mode()
        self.test_model = None
        if mode == "play":
            players = screen.players
            seats = (
                SeatMap(tuple(sorted((p.seat, p.name) for p in players)))
                if players and all(p.seat for p in players)
                else None
            )
            self.table.play(screen.controller, seats)
        elif mode == "claim":
            # the screen's own claims, so a seat taken by touch is lit and not taken twice
            self.table.claim_seats(screen.waiting, current=lambda: SeatMap(tuple(screen.claimed())))
        elif mode == "test":
            self.test_model = self.table.seat_test()
        else:
            self.table.idle()

    def poll(self) -> list:
        return self.table.poll()

    def frame_shown(self) -> None:
        self.table.input.release_leds()

    def key(self, event) -> bool:
        """Desktop keys press the simulated seat buttons (1-8 JUMP, q-i STAY)."""
        if self.ship_key(event):
            return True
        if self.keyboard is None:
            return False

        name = pygame.key.name(event.key)
        if event.type == pygame.KEYDOWN:
            return bool(self.keyboard.key_down(name))
        if event.type == pygame.KEYUP:
            return bool(self.keyboard.key_up(name))
        return False

    def status_line(self) -> str | None:
        return self.table.status()

    def seat_test(self):
        return self.test_model

    def close(self) -> None:
        self.close_ship()
        self.table.close()
