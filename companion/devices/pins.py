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
from dataclasses import dataclass

from gpiozero import Device
from gpiozero.exc import BadPinFactory
from gpiozero.pins import Factory
from gpiozero.pins.mock import MockFactory

log = logging.getLogger(__name__)

ENV_OVERRIDE = "GPIOZERO_PIN_FACTORY"


class NoPinFactory(RuntimeError):
    """The pin factory named in GPIOZERO_PIN_FACTORY could not be loaded."""


@dataclass(frozen=True)
class PinChoice:
    factory: Factory
    simulated: bool  # MockFactory: nothing physical is attached
    name: str        # the factory's class name, for the status line and the log


def choose_pin_factory() -> PinChoice:
    """gpiozero's factory (set globally, so every device shares it), or MockFactory.

    An already set `Device.pin_factory` (a test, or a second call) is kept as it is.
    """
    if Device.pin_factory is None:
        requested = os.environ.get(ENV_OVERRIDE)
        if requested:
            try:
                Device.ensure_pin_factory()
            except Exception as exc:  # gpiozero raises BadPinFactory, ImportError, OSError ...
                raise NoPinFactory(f"{ENV_OVERRIDE}={requested}: the pin factory could not be "
                                   f"loaded ({exc})") from exc
        else:
            with warnings.catch_warnings():
                # gpiozero warns about every factory it tries; one line of our own says it all
                warnings.simplefilter("ignore")
                try:
                    Device.ensure_pin_factory()
                except BadPinFactory as exc:  # gpiozero's answer once every factory has failed
                    log.debug("no GPIO pin factory: %s", exc)
                    Device.pin_factory = MockFactory()
    factory = Device.pin_factory
    choice = PinChoice(factory, isinstance(factory, MockFactory), type(factory).__name__)
    if choice.simulated:
        log.info("no GPIO on this machine: seat buttons and LEDs are simulated "
                 "(gpiozero %s; the keyboard presses the buttons)", choice.name)
    else:
        log.info("GPIO pin factory: %s", choice.name)
    return choice
