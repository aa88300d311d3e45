"""The bed detectors: one impact detector per flowerbed in the box (gpiozero).

Each detector (a piezo disc behind a comparator, or a break-beam across the bed) pulls its GPIO
low while a ball strikes. gpiozero's DigitalInputDevice calls back on its own thread; the
callback only stamps the edge with the judge's clock and puts the record `(t, "bed", colour)`
on the ship's event queue, like the ship's lines, so the judge sees both in arrival order.

A detector held active for longer than `stuck_after_ms` is stuck (a wire shorted, a ball
resting on a break-beam): it is reported; being held, it gives no new impacts until it lets go.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from gpiozero import DigitalInputDevice
from gpiozero.pins import Factory

from ..config import BED_COLOURS

if TYPE_CHECKING:  # the ship's session or a queue.Queue: anything with put
    from ..ship.link import Inlet

STUCK_AFTER_MS = 3000


class BedDetectors:
    def __init__(
        self,
        pins: Sequence[int],
        events: Inlet,
        clock: Callable[[], int],
        *,
        pin_factory: Factory | None = None,
        wake: Callable[[], None] | None = None,
        stuck_after_ms: int = STUCK_AFTER_MS,
    ):
        self.events = events
        self.clock = clock
        self.wake = wake or (lambda: None)
        self.stuck_after_ms = stuck_after_ms
        self.impacts = dict.fromkeys(BED_COLOURS, 0)
        self._since: dict[str, int] = {}  # active since (for stuck detectors)
        self.devices: dict[str, DigitalInputDevice] = {}
        try:
            for colour, pin in zip(BED_COLOURS, pins):
                # pulled up (GPIO 2 and 3 also have fixed pull-ups): an impact pulls it low
                device = DigitalInputDevice(pin, pull_up=True, pin_factory=pin_factory)
                device.when_activated = lambda c=colour: self._struck(c)
                device.when_deactivated = lambda c=colour: self._released(c)
                self.devices[colour] = device
                if device.is_active:  # held when the app starts: stuck from the start
                    self._since[colour] = self.clock() - stuck_after_ms - 1
        except Exception:
            self.close()
            raise

    def _struck(self, colour: str) -> None:
        t = self.clock()
        self._since[colour] = t
        self.impacts[colour] += 1
        self.events.put([(t, "bed", colour)])
        self.wake()

    def _released(self, colour: str) -> None:
        since = self._since.pop(colour, None)
        if since is not None and self.clock() - since > self.stuck_after_ms:
            self.wake()  # a stuck detector let go: the screen stops saying so now

    def stuck_now(self, now: int) -> list[str]:
        """The detectors held active too long, for the screen."""
        return [c for c, since in list(self._since.items()) if now - since > self.stuck_after_ms]

    def stuck_in_ms(self, now: int) -> float | None:
        """How long until a detector held now counts as stuck (None: none is on its way), so
        the screen can say so when it happens rather than at the loop's next look."""
        coming = [
            since + self.stuck_after_ms + 1 - now
            for since in list(self._since.values())
            if now - since <= self.stuck_after_ms
        ]
        return max(0, min(coming)) if coming else None

    def pin(self, colour: str):
        """The gpiozero pin of a bed (the simulator drives mock pins through it)."""
        return self.devices[colour].pin

    def close(self) -> None:
        for device in self.devices.values():
            device.close()
        self.devices.clear()
