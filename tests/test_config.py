"""The settings file: defaults, round trip, every pin-map error, broken files kept aside."""

from pathlib import Path

import pytest

from companion import config
from companion.config import Config, ConfigError, SeatPins


def test_missing_file_gives_defaults(tmp_path):
    assert config.load(tmp_path / "none.toml") == (Config(), [])


def test_round_trip(tmp_path):
    path = tmp_path / "sub" / "config.toml"
    changed = Config().with_changes(language="hu", volume=0.25, muted=True, rotate=90)
    config.save(changed, path)
    assert config.load(path) == (changed, [])


def test_defaults_leave_i2c_and_uart_free_and_use_no_pin_twice():
    pins = [p for seat in config.DEFAULT_SEATS for p in (seat.jump, seat.stay, seat.led)]
    assert len(pins) == len(set(pins)) == 24
    assert not {2, 3, 14, 15} & set(pins)


@pytest.mark.parametrize("seats,message", [
    ((SeatPins(4, 4, 5),), "GPIO 4 is already used by seat 1 jump"),
    ((SeatPins(4, 5, 6), SeatPins(7, 8, 6)), "seat 2 led: GPIO 6 is already used by seat 1 led"),
    ((SeatPins(4, 5, 28),), "out of range"),
    ((SeatPins(-1, 5, 6),), "out of range"),
    ((SeatPins(2, 5, 6),), "kept free for I2C SDA"),
    ((SeatPins(4, 14, 6),), "kept free for UART TX"),
    ((), "1 to 8 seats"),
])
def test_pin_map_errors_are_clear(seats, message):
    with pytest.raises(ConfigError, match=message):
        Config().with_changes(seats=seats)


@pytest.mark.parametrize("text", [
    "language = [",                      # not TOML
    'language = "fr"',                    # unknown language
    "volume = 3",                         # out of range
    "rotate = 45",
    "colour = 1",                         # unknown setting
    "[[seats]]\njump = 4\nstay = 4\nled = 5",
    "[[seats]]\njump = 4",
])
def test_a_broken_file_is_kept_aside_and_defaults_used(tmp_path, text):
    path = tmp_path / "config.toml"
    path.write_text(text)
    loaded, problems = config.load(path)
    assert loaded == Config()
    assert len(problems) == 1 and "using the defaults" in problems[0]
    kept = list(tmp_path.glob("config.toml.broken-*"))
    assert len(kept) == 1 and kept[0].read_text() == text
    assert not path.exists()


def test_seats_from_file(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text("[[seats]]\njump = 4\nstay = 17\nled = 27\n\n[[seats]]\njump = 22\nstay = 10\nled = 9\n")
    loaded, problems = config.load(path)
    assert problems == [] and loaded.seats == (SeatPins(4, 17, 27), SeatPins(22, 10, 9))


def test_save_is_atomic_no_temporary_left(tmp_path):
    path = tmp_path / "config.toml"
    config.save(Config(), path)
    assert [p.name for p in tmp_path.iterdir()] == ["config.toml"]
