"""The app's settings: one TOML file in the user's config directory.

Read with tomllib, written with tomli-w (atomically, so a power cut never leaves half a file).
A bad settings file is never fatal. Each setting is checked on its own: a bad value is named
(its key and what is wrong with it) and that one setting falls back to its default, the others
stay as written. Only a file that cannot be read as settings at all (not TOML, not UTF-8) is
moved aside, kept for a person to look at; anything else (a directory, a file we may not read,
a device or a pipe, a file over `settings_file.MAX_BYTES`) is left where it is and the defaults
are used, so the app always reaches its first frame at once. Many bad settings of one kind (thousands of unknown
keys) are one sentence with a count, not one each. `companion/config.example.toml` lists every setting with its default.

Adding a setting: a field on `Config` (or on one of its tables) with its default, and a check in
`CHECKS` (dotted TOML key -> function that returns the value or raises ConfigError).
"""

from __future__ import annotations

import os
import shutil
import time
import tomllib
from collections.abc import Callable
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

import platformdirs
import tomli_w

from . import APP_NAME
from .errors import CompanionError
from .settings_file import parse, read_small_file

# the [judge] table is the drop judge's own Timings (hardware/PROTOCOL.md section 2): one list of names
from .ship.judge import Timings as JudgeTimings

LANGUAGES = ("en", "de", "hu")
ROTATIONS = (0, 90, 180, 270)
LOG_LEVELS = ("debug", "info", "warning", "error")
# BCM numbers a Pi header offers (GPIO 0-27)
GPIO_RANGE = range(28)
# The seats leave I2C (2, 3) and the UART (14, 15) free: the flowerbed detectors use them
RESERVED_PINS = {2: "I2C SDA", 3: "I2C SCL", 14: "UART TX", 15: "UART RX"}
BED_COLOURS = ("yellow", "purple", "white", "blue")
EXAMPLE = Path(__file__).with_name("config.example.toml")
NAMED = 5  # of many unknown settings, the first few are named and the rest counted


class ConfigError(CompanionError, ValueError):
    """A setting that cannot work (a pin used twice, out of range, an unknown language)."""


@dataclass(frozen=True)
class SeatPins:
    jump: int
    stay: int
    led: int


@dataclass(frozen=True)
class BedPins:
    """The flowerbeds' impact detectors (hardware/PROTOCOL.md): the pins the seats leave free."""

    yellow: int = 2
    purple: int = 3
    white: int = 14
    blue: int = 15


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


EDGES = ("bottom", "right", "top", "left")
# two seats on each side, going round the table from the screen's bottom edge
DEFAULT_SEAT_EDGES = ("bottom", "bottom", "right", "right", "top", "top", "left", "left")


@dataclass(frozen=True)
class Config:
    language: str = "en"
    volume: float = 0.8  # 0.0 to 1.0
    muted: bool = False
    speech: bool = False  # read the game aloud (espeak-ng)
    log_level: str = "info"
    rotate: int = 0
    size: tuple[int, int] | None = None  # None: the whole screen
    seats: tuple[SeatPins, ...] = DEFAULT_SEATS
    beds: BedPins = BedPins()
    show_odds: bool = True  # the Cloud 9 risk meter on its game screen
    show_forecast: bool = False  # the Cloudship storm forecast's percentages (for grown-ups)
    ship_port: str = "auto"  # "auto", "off", "sim", a device such as /dev/rfcomm0, or a pyserial URL
    ship_beds: bool = True  # bed detectors fitted; without them each ball asks "where did it land?"
    flight_logs: int = 100  # flights kept for `cloud-companion judge`, at most 1 MB each
    judge: JudgeTimings = JudgeTimings()
    live: bool = False  # the live page for the TV and phones on the home network (`cloud-companion live`)
    live_port: int = 8019
    # where each seat (1 to 8) sits around the screen, an edge of the display as mounted
    # (the picture's edges turn with `rotate`): the turn ribbon is drawn on that edge
    seat_edges: tuple[str, ...] = DEFAULT_SEAT_EDGES

    def with_changes(self, **changes: Any) -> Config:
        return validate(replace(self, **changes))

    def bed_pins(self) -> tuple[int, ...]:
        """The detectors' pins in BED_COLOURS order."""
        return tuple(getattr(self.beds, colour) for colour in BED_COLOURS)


def default_path() -> Path:
    return Path(platformdirs.user_config_dir(APP_NAME)) / "config.toml"


# --- checks of single values: each returns the value to use or raises ConfigError ---------


def _choice(options: tuple) -> Callable[[Any], Any]:
    def check(value):
        # the same value of the same type: 90.0 is not the rotation 90, True is not 1
        if not any(value == option and type(value) is type(option) for option in options):
            raise ConfigError(f"must be one of {', '.join(map(str, options))}, not {value!r}")
        return value

    return check


def _boolean(value):
    if not isinstance(value, bool):
        raise ConfigError(f"must be true or false, not {value!r}")
    return value


def _volume(value):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= value <= 1.0:
        raise ConfigError(f"must be a number from 0.0 to 1.0, not {value!r}")
    return float(value)


def _whole(low: int, high: int) -> Callable[[Any], int]:
    def check(value):
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise ConfigError(f"must be a whole number from {low} to {high}, not {value!r}")
        return value

    return check


def _gpio(value):
    if isinstance(value, bool) or not isinstance(value, int) or value not in GPIO_RANGE:
        raise ConfigError(f"GPIO {value!r} is out of range (0 to 27)")
    return value


def _size(value):
    if value == "auto":
        return None
    try:
        w, h = (int(part) for part in str(value).lower().split("x"))
    except ValueError:
        raise ConfigError(f'must be "auto" or a size like "800x480", not {value!r}') from None
    if not (200 <= w <= 8000 and 200 <= h <= 8000):
        raise ConfigError(f"{value!r} is out of range (200 to 8000 pixels each way)")
    return (w, h)


def _port(value):
    if not isinstance(value, str) or not (
        value in ("auto", "off", "sim") or value.startswith("/dev/") or "://" in value
    ):
        raise ConfigError(
            f'must be "auto", "off", "sim", a device such as "/dev/ttyACM0" or a pyserial '
            f'URL such as "socket://host:port", not {value!r}'
        )
    return value


def _seats(value):
    if not isinstance(value, list) or not 1 <= len(value) <= 8:
        count = len(value) if isinstance(value, list) else "not a list of tables"
        raise ConfigError(f"there must be 1 to 8 seats ([[seats]] tables, one per seat in seat order), not {count}")
    seats = []
    for number, entry in enumerate(value, start=1):
        if not isinstance(entry, dict) or set(entry) != {"jump", "stay", "led"}:
            raise ConfigError(f'seat {number} needs exactly "jump", "stay" and "led"')
        pins = {}
        for role in ("jump", "stay", "led"):
            try:
                pins[role] = _gpio(entry[role])
            except ConfigError as exc:
                raise ConfigError(f"seat {number} {role}: {exc}") from None
        seats.append(SeatPins(**pins))
    return tuple(seats)


# the judge's timings that 0 would break: a rest no tilt can start (motion below 0), a landing on
# one still sample, a ship "silent" between two of its own lines (a BEAT comes every second)
def _seat_edges(value):
    if not isinstance(value, list) or len(value) != len(DEFAULT_SEAT_EDGES) or any(e not in EDGES for e in value):
        raise ConfigError(f"must list the edge of each of the 8 seats ({', '.join(EDGES)}), not {value!r}")
    return tuple(value)


JUDGE_LEAST = {"lift_samples": 1, "rest_motion": 1, "rest_time": 100, "silent": 1000}

# dotted TOML key -> (Config field, or (table field, its field), check)
CHECKS: dict[str, tuple[tuple[str, ...], Callable[[Any], Any]]] = {
    "language": (("language",), _choice(LANGUAGES)),
    "volume": (("volume",), _volume),
    "muted": (("muted",), _boolean),
    "speech": (("speech",), _boolean),
    "show_odds": (("show_odds",), _boolean),
    "show_forecast": (("show_forecast",), _boolean),
    "live": (("live",), _boolean),
    "live_port": (("live_port",), _whole(1024, 65535)),
    "log_level": (("log_level",), _choice(LOG_LEVELS)),
    "rotate": (("rotate",), _choice(ROTATIONS)),
    "size": (("size",), _size),
    "seats": (("seats",), _seats),
    "seat_edges": (("seat_edges",), _seat_edges),
    "ship.port": (("ship_port",), _port),
    "ship.beds": (("ship_beds",), _boolean),
    "ship.flight_logs": (("flight_logs",), _whole(0, 10_000)),
    **{f"beds.{colour}": (("beds", colour), _gpio) for colour in BED_COLOURS},
    **{
        f"judge.{name}": (("judge", name), _whole(JUDGE_LEAST.get(name, 0), 60_000))
        for name in (f.name for f in fields(JudgeTimings))
    },
}
TABLES = {"ship", "beds", "judge"}  # TOML tables whose keys are checked one by one


def validate(config: Config) -> Config:
    """The whole config, or ConfigError naming the first setting that cannot work."""
    for key, value in _flatten(to_dict(config)).items():
        try:
            CHECKS[key][1](value)
        except ConfigError as exc:
            raise ConfigError(str(exc) if key == "seats" else f"{key}: {exc}") from None
    problem = pin_clash(config) or timing_clash(config)
    if problem:
        raise ConfigError(problem)
    return config


def _flatten(data: dict[str, Any]) -> dict[str, Any]:
    """{"judge": {"settle": 1}} -> {"judge.settle": 1}; tables that are not tables stay as they are."""
    flat: dict[str, Any] = {}
    for key, value in data.items():
        if key in TABLES and isinstance(value, dict):
            flat.update({f"{key}.{sub}": sub_value for sub, sub_value in value.items()})
        else:
            flat[key] = value
    return flat


def timing_clash(config: Config) -> str | None:
    if config.judge.min_fall >= config.judge.max_fall:
        return "judge.min_fall must be shorter than judge.max_fall"
    return None


def pin_clash(config: Config) -> str | None:
    """A pin used twice (seats and beds together), or a seat on a pin kept free."""
    used: dict[int, str] = {}
    for number, seat in enumerate(config.seats, start=1):
        for role in ("jump", "stay", "led"):
            pin, where = getattr(seat, role), f"seat {number} {role}"
            if pin in RESERVED_PINS:
                return f"{where}: GPIO {pin} is kept free for {RESERVED_PINS[pin]}"
            if pin in used:
                return f"{where}: GPIO {pin} is already used by {used[pin]}"
            used[pin] = where
    for colour in BED_COLOURS if config.ship_beds else ():  # no detectors fitted: their pins are free
        pin = getattr(config.beds, colour)
        if pin in used:
            return f"beds.{colour}: GPIO {pin} is already used by {used[pin]}"
        used[pin] = f"beds.{colour}"
    return None


def from_dict(data: dict[str, Any]) -> tuple[Config, list[str]]:
    """A Config from parsed TOML, and one sentence per setting that could not be used.

    Each bad value falls back to its default on its own; a clash between settings (a pin used
    twice) falls back to the default pins."""
    problems: list[str] = []
    for key in TABLES & set(data):
        if not isinstance(data[key], dict):
            problems.append(f"{key}: must be a table ([{key}]); using the defaults for it")
    flat = {k: v for k, v in _flatten(data).items() if k not in TABLES}
    values: dict[str, Any] = {}
    tables: dict[str, dict[str, Any]] = {"beds": {}, "judge": {}}
    for key, value in flat.items():
        if key not in CHECKS:
            continue
        where, check = CHECKS[key]
        try:
            checked = check(value)
        except ConfigError as exc:
            problems.append(f"{key}: {exc}; using the default")
            continue
        if len(where) == 2:
            tables[where[0]][where[1]] = checked
        else:
            values[where[0]] = checked
    unknown = [key for key in flat if key not in CHECKS]
    if unknown:  # one sentence for them all, after the bad values
        problems.append(_unknown_settings(unknown))
    config = Config(**values, beds=BedPins(**tables["beds"]), judge=JudgeTimings(**tables["judge"]))
    clash = pin_clash(config)
    if clash:
        problems.append(f"{clash}; using the default pins for the seats and the beds")
        config = replace(config, seats=DEFAULT_SEATS, beds=BedPins())
    clash = timing_clash(config)
    if clash:
        problems.append(f"{clash}; using the defaults for both")
        config = replace(
            config, judge=replace(config.judge, min_fall=JudgeTimings.min_fall, max_fall=JudgeTimings.max_fall)
        )
    return config, problems


def _unknown_settings(keys: list[str]) -> str:
    """One sentence for all unknown keys: "x: unknown setting; ignored", or the first few and a count."""
    if len(keys) == 1:
        return f"{keys[0]}: unknown setting; ignored"
    named = ", ".join(keys[:NAMED])
    more = f" and {len(keys) - NAMED:,} more" if len(keys) > NAMED else ""
    return f"{named}{more}: {len(keys):,} unknown settings; ignored"


def to_dict(config: Config) -> dict[str, Any]:
    """The TOML layout of config.example.toml (tables last, as TOML needs)."""
    data: dict[str, Any] = {
        "language": config.language,
        "volume": config.volume,
        "muted": config.muted,
        "speech": config.speech,
        "show_odds": config.show_odds,
        "show_forecast": config.show_forecast,
        "live": config.live,
        "live_port": config.live_port,
        "log_level": config.log_level,
        "rotate": config.rotate,
        "size": "auto" if config.size is None else f"{config.size[0]}x{config.size[1]}",
        "seat_edges": list(config.seat_edges),
        "ship": {"port": config.ship_port, "beds": config.ship_beds, "flight_logs": config.flight_logs},
        "beds": asdict(config.beds),
        "judge": asdict(config.judge),
        "seats": [asdict(s) for s in config.seats],
    }
    return data


def load(path: Path | None = None, move_aside: bool = True) -> tuple[Config, list[str]]:
    """The settings and a list of problems (one sentence each); never raises.

    A missing file means the defaults. A file that is not TOML (or not UTF-8) is renamed aside
    with a timestamp, so nothing is lost; a path that is not a file, or cannot be opened, is
    left alone. Bad values are named and replaced by their defaults one by one. `move_aside`
    False (doctor) only reports: a read-only look changes no file."""
    path = path or default_path()
    try:
        raw = read_small_file(path)
    except FileNotFoundError:
        return Config(), []
    except ValueError as exc:  # a folder, a device or a pipe, a file too big to be settings
        return Config(), [f"the settings file {path} {exc}: using the defaults"]
    except OSError as exc:
        return Config(), [f"the settings file {path} could not be read ({exc.strerror or exc}): using the defaults"]
    try:
        data = parse(raw)
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        why = "it is not UTF-8 text" if isinstance(exc, UnicodeDecodeError) else f"not TOML: {exc}"
        kept = _move_aside(path) if move_aside else None
        where = f"; it was kept as {kept.name}" if kept else ""
        return Config(), [f"the settings file {path} could not be read ({why}){where}: using the defaults"]
    config, problems = from_dict(data)
    return config, [f"{path}: {problem}" for problem in problems]


def save(config: Config, path: Path | None = None) -> None:
    """Write the settings atomically (temporary file, fsync, rename)."""
    path = path or default_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    _keep_if_not_clean(path)
    tmp = path.with_suffix(".toml.tmp")
    with open(tmp, "wb") as f:
        tomli_w.dump(to_dict(validate(config)), f)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def _keep_if_not_clean(path: Path) -> None:
    """Before the Settings screen rewrites a file that had bad or unknown values (which the
    rewrite would drop), keep a copy of it as written, for a person to look at."""
    if not path.is_file():
        return
    _, problems = load(path, move_aside=False)
    if problems:
        shutil.copy2(path, path.with_name(f"{path.name}.before-{time.strftime('%Y%m%d-%H%M%S')}"))


def _move_aside(path: Path) -> Path | None:
    target = path.with_name(f"{path.name}.broken-{time.strftime('%Y%m%d-%H%M%S')}")
    try:
        path.rename(target)
        return target
    except OSError:
        return None
