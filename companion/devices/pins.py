"""Which gpiozero pin factory drives the seats (and any other gpiozero device).

On a Raspberry Pi gpiozero makes its normal choice (lgpio first). On a machine without GPIO
that choice fails, and the app falls back to gpiozero's own MockFactory, so that every device
still runs for real on simulated pins (the keyboard drives them). GPIOZERO_PIN_FACTORY still
overrides: a factory asked for by name that cannot load is an error, never silently simulated.
"""

from __future__ import annotations

import logging
import os
import warnings
from collections import deque
from dataclasses import dataclass

from gpiozero import Device
from gpiozero.exc import BadPinFactory
from gpiozero.pins import Factory
from gpiozero.pins.mock import MockFactory, MockPin

from ..errors import CompanionError

log = logging.getLogger(__name__)

ENV_OVERRIDE = "GPIOZERO_PIN_FACTORY"


class NoPinFactory(CompanionError, RuntimeError):
    """The pin factory named in GPIOZERO_PIN_FACTORY could not be loaded."""


@dataclass(frozen=True)
class PinChoice:
    factory: Factory
    simulated: bool  # MockFactory: nothing physical is attached
    name: str  # the factory's class name, for the status line and the log
    # why gpiozero passed over the factories it prefers: "lgpio: No module named 'lgpio'", ...
    passed_over: tuple[str, ...] = ()
    preset: bool = False  # Device.pin_factory was set before the app chose (a test, a script)

    @property
    def why(self) -> str:
        """How this factory came to be the one, in a phrase for doctor."""
        if self.preset:
            return "set before the app chose"
        if os.environ.get(ENV_OVERRIDE):
            return f"asked for by {ENV_OVERRIDE}={os.environ[ENV_OVERRIDE]}"
        if self.passed_over:
            return "gpiozero passed over " + "; ".join(self.passed_over)
        return "gpiozero's first choice"


class SimulatedPin(MockPin):
    """gpiozero's mock pin, keeping its last changes only: MockPin records every change for a
    test to check (`assert_states`), which over an evening of blinking seat LEDs and presses on
    simulated pins is a list without end."""

    HISTORY = 64
    states: deque[tuple[float, bool]]  # gpiozero's PinState (timestamp, state); a deque from the first clear_states

    def clear_states(self) -> None:
        super().clear_states()
        self.states = deque(self.states, maxlen=self.HISTORY)


FALLBACK = "Falling back from "  # gpiozero's words for each factory it could not load
_chosen: PinChoice | None = None  # the last choice, so a second call still knows why


def choose_pin_factory() -> PinChoice:
    """gpiozero's factory (set globally, so every device shares it), or MockFactory.

    An already set `Device.pin_factory` (a test, or a second call) is kept as it is.
    """
    global _chosen
    if _chosen is not None and Device.pin_factory is _chosen.factory:
        return _chosen
    passed_over: list[str] = []
    preset = Device.pin_factory is not None
    if not preset:
        requested = os.environ.get(ENV_OVERRIDE)
        if requested:
            try:
                Device.ensure_pin_factory()
            except Exception as exc:  # gpiozero raises BadPinFactory, ImportError, OSError ...
                raise NoPinFactory(f"{ENV_OVERRIDE}={requested}: the pin factory could not be loaded ({exc})") from exc
        else:
            with warnings.catch_warnings(record=True) as said:
                # gpiozero warns about every factory it tries; one line of our own says it all,
                # and doctor tells each reason
                warnings.simplefilter("always")
                try:
                    Device.ensure_pin_factory()
                except BadPinFactory as exc:  # gpiozero's answer once every factory has failed
                    log.debug("no GPIO pin factory: %s", exc)
                    Device.pin_factory = MockFactory(pin_class=SimulatedPin)
            passed_over = [str(w.message).removeprefix(FALLBACK) for w in said if str(w.message).startswith(FALLBACK)]
    factory = Device.pin_factory
    choice = _chosen = PinChoice(
        factory, isinstance(factory, MockFactory), type(factory).__name__, tuple(passed_over), preset
    )
    if choice.simulated:
        log.info(
            "no GPIO on this machine: seat buttons and LEDs are simulated "
            "(gpiozero %s; the keyboard presses the buttons)",
            choice.name,
        )
    else:
        log.info("GPIO pin factory: %s", choice.name)
    return choice
