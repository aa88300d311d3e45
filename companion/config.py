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
# I2C (2, 3) and the UART (14, 15) stay free: the ship sensor and add-ons use them
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
    show_odds: bool = True  # the Cloud 9 risk meter and the Cloudship forecast on the game screens

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
    if not isinstance(config.show_odds, bool):
        raise ConfigError(f"show_odds must be true or false, not {config.show_odds!r}")
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
    return config


def from_dict(data: dict[str, Any]) -> Config:
    """A Config from parsed TOML; ConfigError for anything that cannot work."""
    known = {"language", "volume", "muted", "rotate", "show_odds"}
    unknown = set(data) - known - {"seats"}
    if unknown:
        raise ConfigError(f"unknown setting(s): {', '.join(sorted(unknown))}")
    values: dict[str, Any] = {k: data[k] for k in known if k in data}
    if "seats" in data:
        try:
            values["seats"] = tuple(SeatPins(int(s["jump"]), int(s["stay"]), int(s["led"]))
                                    for s in data["seats"])
        except (KeyError, TypeError, ValueError):
            raise ConfigError('each [[seats]] entry needs whole numbers "jump", "stay" and "led"') from None
    try:
        return validate(Config(**values))
    except TypeError as exc:
        raise ConfigError(str(exc)) from None


def to_dict(config: Config) -> dict[str, Any]:
    data = asdict(config)
    data["seats"] = [asdict(s) for s in config.seats]
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
