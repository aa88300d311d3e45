"""The app's settings: one TOML file in the user's config directory.

Read with tomllib, written with tomli-w (atomically, so a power cut never leaves half a file).
A file that cannot be read is never fatal: the app starts with the defaults, says why, and keeps
the broken file beside the new one for a person to look at.
"""

from __future__ import annotations

import os
import time
import tomllib
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

import platformdirs
import tomli_w

APP_NAME = "cloud-companion"
LANGUAGES = ("en", "de", "hu")
ROTATIONS = (0, 90, 180, 270)
# BCM numbers a Pi header offers (GPIO 0-27)
GPIO_RANGE = range(0, 28)
# I2C (2, 3) and the UART (14, 15) stay free of seats: the bed detectors use them by default
RESERVED_PINS = {2: "I2C SDA", 3: "I2C SCL", 14: "UART TX", 15: "UART RX"}


class ConfigError(ValueError):
    """A setting that cannot work (a pin used twice, out of range, an unknown language)."""


@dataclass(frozen=True)
class SeatPins:
    jump: int
    stay: int
    led: int


# Defaults: 8 seats x 3 pins = 24 GPIOs, which is every header pin except I2C and the UART.
# Seats 1-7 use GPIO 4-13 and 16-27; seat 8 also uses GPIO 0 and 1 (the HAT ID EEPROM pins,
# free when no HAT is fitted). See hardware/WIRING.md.
DEFAULT_SEATS: tuple[SeatPins, ...] = (
    SeatPins(jump=4, stay=17, led=27),
    SeatPins(jump=22, stay=10, led=9),
    SeatPins(jump=11, stay=5, led=6),
    SeatPins(jump=13, stay=19, led=26),
    SeatPins(jump=18, stay=23, led=24),
    SeatPins(jump=25, stay=8, led=7),
    SeatPins(jump=12, stay=16, led=20),
    SeatPins(jump=21, stay=0, led=1),
)


@dataclass(frozen=True)
class Config:
    language: str = "en"
    volume: float = 0.8  # 0.0 to 1.0
    muted: bool = False
    rotate: int = 0
    seats: tuple[SeatPins, ...] = DEFAULT_SEATS
    ship: "ShipSettings" = field(default_factory=lambda: ShipSettings())

    def with_changes(self, **changes: Any) -> "Config":
        return validate(replace(self, **changes))


def default_path() -> Path:
    return Path(platformdirs.user_config_dir(APP_NAME)) / "config.toml"


def validate(config: Config) -> Config:
    if config.language not in LANGUAGES:
        raise ConfigError(f"language must be one of {', '.join(LANGUAGES)}, not {config.language!r}")
    if not (isinstance(config.volume, (int, float)) and 0.0 <= config.volume <= 1.0):
        raise ConfigError(f"volume must be between 0.0 and 1.0, not {config.volume!r}")
    if config.rotate not in ROTATIONS:
        raise ConfigError(f"rotate must be one of 0, 90, 180, 270, not {config.rotate!r}")
    if not 1 <= len(config.seats) <= 8:
        raise ConfigError(f"there must be 1 to 8 seats, not {len(config.seats)}")
    used: dict[int, str] = {}
    for number, seat in enumerate(config.seats, start=1):
        for role in ("jump", "stay", "led"):
            pin = getattr(seat, role)
            where = f"seat {number} {role}"
            if not isinstance(pin, int) or isinstance(pin, bool) or pin not in GPIO_RANGE:
                raise ConfigError(f"{where}: GPIO {pin!r} is out of range (0 to 27)")
            if pin in RESERVED_PINS:
                raise ConfigError(f"{where}: GPIO {pin} is kept free for {RESERVED_PINS[pin]}")
            if pin in used:
                raise ConfigError(f"{where}: GPIO {pin} is already used by {used[pin]}")
            used[pin] = where
    validate_ship(config.ship, used)
    return config


def from_dict(data: dict[str, Any]) -> Config:
    """A Config from parsed TOML; ConfigError for anything that cannot work."""
    known = {"language", "volume", "muted", "rotate"}
    unknown = set(data) - known - {"seats", "ship"}
    if unknown:
        raise ConfigError(f"unknown setting(s): {', '.join(sorted(unknown))}")
    values: dict[str, Any] = {k: data[k] for k in known if k in data}
    if "seats" in data:
        try:
            values["seats"] = tuple(SeatPins(int(s["jump"]), int(s["stay"]), int(s["led"]))
                                    for s in data["seats"])
        except (KeyError, TypeError, ValueError):
            raise ConfigError('each [[seats]] entry needs whole numbers "jump", "stay" and "led"') from None
    if "ship" in data:
        values["ship"] = ship_from_dict(data["ship"])
    try:
        return validate(Config(**values))
    except TypeError as exc:
        raise ConfigError(str(exc)) from None


def to_dict(config: Config) -> dict[str, Any]:
    data = asdict(config)
    data["seats"] = [asdict(s) for s in config.seats]
    data["ship"] = ship_to_dict(config.ship)
    return data


def load(path: Path | None = None) -> tuple[Config, list[str]]:
    """The settings and a list of problems (human sentences); never raises for a bad file.

    A missing file means the defaults. An unreadable or invalid file is renamed aside with a
    timestamp, so nothing is lost, and the defaults are used.
    """
    path = path or default_path()
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        return from_dict(data), []
    except FileNotFoundError:
        return Config(), []
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, ConfigError) as exc:
        kept = _move_aside(path)
        where = f"; it was kept as {kept.name}" if kept else ""
        return Config(), [f"the settings file {path} could not be used ({exc}){where}: using the defaults"]


def save(config: Config, path: Path | None = None) -> None:
    """Write the settings atomically (temporary file, fsync, rename)."""
    path = path or default_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".toml.tmp")
    with open(tmp, "wb") as f:
        tomli_w.dump(to_dict(validate(config)), f)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def _move_aside(path: Path) -> Path | None:
    target = path.with_name(f"{path.name}.broken-{time.strftime('%Y%m%d-%H%M%S')}")
    try:
        path.rename(target)
        return target
    except OSError:
        return None


# --- the cloud ship: its port, the bed detectors, the judge's timings -------------------------
# (hardware/SHIP.md; the timings' meaning is the ship contract's section 2)

SHIP_BEDS = ("yellow", "purple", "white", "blue")
# The seats take every other GPIO; the ship's sensors sit on the ship's own board, so the Pi's
# I2C and UART pins are free for the four bed detectors (open-collector outputs: GPIO 2 and 3
# have fixed pull-ups, which suits them; 14 and 15 need the serial console switched off).
DEFAULT_BED_PINS = (2, 3, 14, 15)
SHIP_TIMINGS = ("min_fall", "max_fall", "settle", "bounce_min", "move_motion", "lift_samples",
                "rest_motion", "rest_time", "silent")


@dataclass(frozen=True)
class ShipSettings:
    port: str = "auto"  # "auto" (the Pico on USB), "off", "sim", a device path or a pyserial URL
    beds: bool = True   # bed detectors fitted; without them each ball asks "where did it land?"
    bed_pins: tuple[int, ...] = DEFAULT_BED_PINS  # yellow, purple, white, blue
    timings: tuple[tuple[str, int], ...] = ()  # changes to the judge's defaults, e.g. ("settle", 400)
    flight_logs: int = 100  # flights kept for `cloud-companion judge`, at most 1 MB each


def validate_ship(ship: "ShipSettings", used: dict[int, str]) -> None:
    if not isinstance(ship.port, str) or not ship.port.strip():
        raise ConfigError('ship port must be "auto", "off", "sim", a device path or a pyserial URL')
    if not isinstance(ship.beds, bool):
        raise ConfigError(f"ship beds must be true or false, not {ship.beds!r}")
    if not isinstance(ship.flight_logs, int) or isinstance(ship.flight_logs, bool) or not 0 <= ship.flight_logs <= 10000:
        raise ConfigError(f"ship flight_logs must be a whole number from 0 to 10000, not {ship.flight_logs!r}")
    if len(ship.bed_pins) != len(SHIP_BEDS):
        raise ConfigError(f"ship bed_pins needs {len(SHIP_BEDS)} pins (yellow, purple, white, blue), "
                          f"not {len(ship.bed_pins)}")
    for name, value in ship.timings:
        if name not in SHIP_TIMINGS:
            raise ConfigError(f"unknown ship timing {name!r} (one of {', '.join(SHIP_TIMINGS)})")
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise ConfigError(f"ship timing {name} must be a whole number, 0 or more, not {value!r}")
    if not ship.beds:
        return
    for colour, pin in zip(SHIP_BEDS, ship.bed_pins):
        where = f"{colour} bed detector"
        if not isinstance(pin, int) or isinstance(pin, bool) or pin not in GPIO_RANGE:
            raise ConfigError(f"{where}: GPIO {pin!r} is out of range (0 to 27)")
        if pin in used:
            raise ConfigError(f"{where}: GPIO {pin} is already used by {used[pin]}")
        used[pin] = where


def ship_from_dict(data: Any) -> "ShipSettings":
    if not isinstance(data, dict):
        raise ConfigError("[ship] must be a table")
    unknown = set(data) - {"port", "beds", "bed_pins", "timings", "flight_logs"}
    if unknown:
        raise ConfigError(f"unknown ship setting(s): {', '.join(sorted(unknown))}")
    values: dict[str, Any] = {k: data[k] for k in ("port", "beds", "flight_logs") if k in data}
    if "bed_pins" in data:
        if not isinstance(data["bed_pins"], list):
            raise ConfigError("ship bed_pins must be a list of 4 GPIO numbers")
        values["bed_pins"] = tuple(data["bed_pins"])
    if "timings" in data:
        if not isinstance(data["timings"], dict):
            raise ConfigError("[ship.timings] must be a table")
        values["timings"] = tuple(sorted(data["timings"].items()))
    return ShipSettings(**values)


def ship_to_dict(ship: "ShipSettings") -> dict[str, Any]:
    data: dict[str, Any] = {"port": ship.port, "beds": ship.beds, "bed_pins": list(ship.bed_pins),
                            "flight_logs": ship.flight_logs}
    if ship.timings:
        data["timings"] = dict(ship.timings)
    return data
