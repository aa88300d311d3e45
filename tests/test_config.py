"""The settings file: defaults, round trip, every pin-map error, broken files kept aside."""

import os
import tomllib
from dataclasses import asdict
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from companion import config
from companion.config import Config, ConfigError, SeatPins
from companion.settings_file import MAX_BYTES


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


@pytest.mark.parametrize(
    "seats,message",
    [
        ((SeatPins(4, 4, 5),), "GPIO 4 is already used by seat 1 jump"),
        ((SeatPins(4, 5, 6), SeatPins(7, 8, 6)), "seat 2 led: GPIO 6 is already used by seat 1 led"),
        ((SeatPins(4, 5, 28),), "out of range"),
        ((SeatPins(-1, 5, 6),), "out of range"),
        ((SeatPins(2, 5, 6),), "kept free for I2C SDA"),
        ((SeatPins(4, 14, 6),), "kept free for UART TX"),
        ((), "1 to 8 seats"),
    ],
)
def test_pin_map_errors_are_clear(seats, message):
    with pytest.raises(ConfigError, match=message):
        Config().with_changes(seats=seats)


@pytest.mark.parametrize(
    "text,why",
    [
        ("language = [", "not TOML"),
        (b"language = '\xff'", "not UTF-8"),
    ],
)
def test_a_file_that_is_not_settings_is_kept_aside_and_defaults_used(tmp_path, text, why):
    path = tmp_path / "config.toml"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    loaded, problems = config.load(path)
    assert loaded == Config()
    assert len(problems) == 1 and why in problems[0] and "using the defaults" in problems[0]
    kept = list(tmp_path.glob("config.toml.broken-*"))
    assert len(kept) == 1 and kept[0].name in problems[0]
    assert kept[0].read_bytes() == path.with_name(kept[0].name).read_bytes()
    assert not path.exists()


@pytest.mark.parametrize(
    "text,key,problem",
    [
        ('language = "fr"', "language", "must be one of en, de, hu, not 'fr'"),
        ("volume = 3", "volume", "from 0.0 to 1.0"),
        ("volume = true", "volume", "from 0.0 to 1.0"),
        ("rotate = 45", "rotate", "must be one of 0, 90, 180, 270"),
        ("rotate = 90.0", "rotate", "must be one of 0, 90, 180, 270, not 90.0"),
        ("rotate = true", "rotate", "must be one of 0, 90, 180, 270, not True"),
        ('muted = "yes"', "muted", "true or false"),
        ("speech = 1", "speech", "true or false"),
        ('log_level = "loud"', "log_level", "debug, info, warning, error"),
        ('size = "big"', "size", 'like "800x480"'),
        ('size = "10x10"', "size", "out of range"),
        ("colour = 1", "colour", "unknown setting"),
        ('[ship]\nport = "COM3"', "ship.port", '"/dev/ttyACM0"'),
        ("[beds]\nyellow = 40", "beds.yellow", "out of range"),
        ("[judge]\nsettle = -5", "judge.settle", "whole number from 0"),
        ('[judge]\nsettle = "300ms"', "judge.settle", "whole number"),
        ("[judge]\nlift_samples = 0", "judge.lift_samples", "from 1"),
        ("[judge]\nsilent = 0", "judge.silent", "from 1000"),
        ("[judge]\nrest_time = 0", "judge.rest_time", "from 100"),
        ("[judge]\nrest_motion = 0", "judge.rest_motion", "from 1"),
        ("[judge]\nwobble = 3", "judge.wobble", "unknown setting"),
        ("judge = 3", "judge", "must be a table"),
        ("[[seats]]\njump = 4", "seats", 'seat 1 needs exactly "jump", "stay" and "led"'),
        ("[[seats]]\njump = 4\nstay = 40\nled = 5", "seats", "seat 1 stay: GPIO 40 is out of range"),
    ],
)
def test_each_bad_value_is_named_and_only_it_falls_back(tmp_path, text, key, problem):
    path = tmp_path / "config.toml"
    path.write_text("volume = 0.3\n" + text if not text.startswith("volume") else "muted = true\n" + text)
    loaded, problems = config.load(path)
    assert len(problems) == 1, problems
    assert problems[0].startswith(f"{path}: {key}: ") and problem in problems[0]
    expected = Config(volume=0.3) if not text.startswith("volume") else Config(muted=True)
    assert loaded == expected
    assert path.exists() and not list(tmp_path.glob("*.broken-*"))  # readable: never moved


@pytest.mark.parametrize(
    "text,problem",
    [
        ("[[seats]]\njump = 4\nstay = 4\nled = 5", "seat 1 stay: GPIO 4 is already used by seat 1 jump"),
        ("[beds]\nyellow = 4", "beds.yellow: GPIO 4 is already used by seat 1 jump"),
        ("[[seats]]\njump = 2\nstay = 5\nled = 6", "seat 1 jump: GPIO 2 is kept free for I2C SDA"),
    ],
)
def test_a_pin_clash_falls_back_to_the_default_pins(tmp_path, text, problem):
    path = tmp_path / "config.toml"
    path.write_text('language = "de"\n' + text)
    loaded, problems = config.load(path)
    assert loaded == Config(language="de")
    assert len(problems) == 1 and problem in problems[0] and "default pins" in problems[0]


def test_judge_times_that_contradict_each_other_fall_back(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text("[judge]\nmin_fall = 900\nsettle = 250\n")
    loaded, problems = config.load(path)
    assert loaded.judge == config.JudgeTimings(settle=250)
    assert problems == [f"{path}: judge.min_fall must be shorter than judge.max_fall; using the defaults for both"]


def test_a_directory_is_reported_and_never_moved(tmp_path):
    folder = tmp_path / "settings"
    (folder / "keep").mkdir(parents=True)
    loaded, problems = config.load(folder)
    assert loaded == Config()
    assert problems == [f"the settings file {folder} is a directory, not a file: using the defaults"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["settings"] and (folder / "keep").is_dir()


def test_an_unreadable_file_is_reported_and_never_moved(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text('language = "de"')
    path.chmod(0)
    if os.access(path, os.R_OK):
        pytest.skip("root reads any file")
    loaded, problems = config.load(path)
    assert loaded == Config() and "could not be read" in problems[0]
    assert [p.name for p in tmp_path.iterdir()] == ["config.toml"]


def test_the_example_file_lists_every_setting_at_its_default():
    text = config.EXAMPLE.read_text()
    assert config.load(config.EXAMPLE) == (Config(), [])
    for key in config.CHECKS:
        if key != "seats":
            assert f"\n{key.split('.')[-1]} = " in text, key
    # and every default it shows is the real one: the file without comments is Config() in full
    uncommented = "\n".join(
        line[2:] if line.startswith("# ") and "=" in line or line.startswith("# [[") else line
        for line in text.splitlines()
    )
    assert tomllib.loads(uncommented)["seats"][:2] == [asdict(s) for s in config.DEFAULT_SEATS[:2]]


@settings(deadline=None)  # each example writes and fsyncs a file: slow on a busy disk
@given(
    st.builds(
        Config,
        language=st.sampled_from(config.LANGUAGES),
        volume=st.floats(0, 1),
        muted=st.booleans(),
        speech=st.booleans(),
        log_level=st.sampled_from(config.LOG_LEVELS),
        rotate=st.sampled_from(config.ROTATIONS),
        size=st.none() | st.tuples(st.integers(200, 8000), st.integers(200, 8000)),
        ship_port=st.sampled_from(["auto", "off", "/dev/rfcomm0"]),
        judge=st.builds(
            config.JudgeTimings,
            min_fall=st.integers(0, 100),
            max_fall=st.integers(101, 60_000),
            silent=st.integers(1000, 60_000),
        ),
    )
)
def test_any_valid_config_survives_a_round_trip(tmp_path_factory, value):
    path = tmp_path_factory.mktemp("rt") / "config.toml"
    config.save(value, path)
    assert config.load(path) == (value, [])


@given(
    st.dictionaries(
        st.sampled_from(sorted(config.CHECKS) + ["judge", "beds", "other"]),
        st.one_of(
            st.integers(-5, 70_000),
            st.text(max_size=8),
            st.booleans(),
            st.floats(allow_nan=False),
            st.lists(st.integers(), max_size=3),
        ),
    )
)
def test_any_parsed_file_gives_a_valid_config(data):
    tables: dict = {}
    for key, value in data.items():
        head, _, tail = key.partition(".")
        if tail and isinstance(tables.setdefault(head, {}), dict):
            tables[head][tail] = value
        elif not tail:
            tables[head] = value
    loaded, problems = config.from_dict(tables)
    assert config.validate(loaded) == loaded  # never a config that cannot work


def test_seats_from_file(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text("[[seats]]\njump = 4\nstay = 17\nled = 27\n\n[[seats]]\njump = 22\nstay = 10\nled = 9\n")
    loaded, problems = config.load(path)
    assert problems == [] and loaded.seats == (SeatPins(4, 17, 27), SeatPins(22, 10, 9))


def test_save_is_atomic_no_temporary_left(tmp_path):
    path = tmp_path / "config.toml"
    config.save(Config(), path)
    assert [p.name for p in tmp_path.iterdir()] == ["config.toml"]


def test_rewriting_a_file_with_bad_values_keeps_a_copy_of_it_first(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text('volume = 7\nfavourite = "Ann"\n')
    loaded, problems = config.load(path)
    assert len(problems) == 2
    config.save(loaded.with_changes(language="de"), path)  # what the Settings screen does
    kept = list(tmp_path.glob("config.toml.before-*"))
    assert len(kept) == 1 and kept[0].read_text() == 'volume = 7\nfavourite = "Ann"\n'
    assert config.load(path) == (Config(language="de"), [])
    config.save(Config(language="hu"), path)  # a clean file is simply rewritten
    assert len(list(tmp_path.glob("config.toml.before-*"))) == 1


def test_a_fifo_device_or_huge_file_is_refused_at_once_and_left_alone(tmp_path):
    fifo = tmp_path / "settings-fifo"
    os.mkfifo(fifo)  # nobody writes it: opening it the usual way would wait for ever
    huge = tmp_path / "huge.toml"
    with open(huge, "wb") as f:
        f.truncate(50_000_000)
    for path, why in (
        (fifo, "is not a regular file (a device or a pipe)"),
        (Path("/dev/zero"), "is not a regular file (a device or a pipe)"),
        (huge, "is 50,000,000 bytes, more than a settings file can be (64 KiB)"),
    ):
        loaded, problems = config.load(path)
        assert loaded == Config() and problems == [f"the settings file {path} {why}: using the defaults"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["huge.toml", "settings-fifo"]


def test_a_file_just_under_the_limit_is_read():
    text = 'language = "de"\n' + "# a comment\n" * ((MAX_BYTES - 20) // 12)
    assert len(text.encode()) <= MAX_BYTES
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "config.toml"
        path.write_text(text)
        assert config.load(path) == (Config(language="de"), [])


def test_many_unknown_settings_are_one_sentence_with_a_count(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text('language = "de"\n' + "".join(f"key{n} = {n}\n" for n in range(3000)))
    loaded, problems = config.load(path)
    assert loaded == Config(language="de")
    assert problems == [f"{path}: key0, key1, key2, key3, key4 and 2,995 more: 3,000 unknown settings; ignored"]
