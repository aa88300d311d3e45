"""The bed detectors on gpiozero's MockFactory pins, their pins in the settings, and the flight
log's bounds."""

import queue

import pytest
from gpiozero.pins.mock import MockFactory

from companion import config as settings
from companion.config import BedPins, Config, ConfigError
from companion.devices.beds import BedDetectors
from companion.ship.flightlog import FlightLog
from companion.ship.records import judge_records, read_records


class Clock:
    def __init__(self):
        self.ms = 0

    def __call__(self):
        return self.ms


def test_an_impact_is_a_bed_record_on_the_queue():
    events: queue.Queue = queue.Queue()
    clock = Clock()
    woken = []
    beds = BedDetectors((2, 3, 14, 15), events, clock, pin_factory=MockFactory(), wake=lambda: woken.append(1))
    try:
        clock.ms = 1234
        beds.pin("white").drive_low()  # the comparator pulls the line low on an impact
        beds.pin("white").drive_high()
        clock.ms = 1300
        beds.pin("blue").drive_low()
        assert events.get_nowait() == [(1234, "bed", "white")]
        assert events.get_nowait() == [(1300, "bed", "blue")]
        assert woken == [1, 1]
        assert beds.impacts["white"] == 1
    finally:
        beds.close()


def test_a_detector_held_active_is_stuck_and_gives_no_more_impacts():
    events: queue.Queue = queue.Queue()
    clock = Clock()
    beds = BedDetectors((2, 3, 14, 15), events, clock, pin_factory=MockFactory(), stuck_after_ms=3000)
    try:
        beds.pin("yellow").drive_low()  # a ball resting on the beam, a shorted wire
        clock.ms = 2000
        beds.pin("purple").drive_low()
        assert beds.stuck_now(clock()) == []
        clock.ms = 3100
        assert beds.stuck_now(clock()) == ["yellow"]
        beds.pin("yellow").drive_high()
        beds.pin("purple").drive_high()
        assert beds.stuck_now(clock()) == []
        assert [r for item in list(events.queue) for r in item] == [(0, "bed", "yellow"), (2000, "bed", "purple")]
    finally:
        beds.close()


def test_bed_pins_are_checked_with_the_seat_pins():
    assert Config().bed_pins() == (2, 3, 14, 15)
    with pytest.raises(ConfigError, match="beds.yellow: GPIO 4 is already used by seat 1 jump"):
        Config(beds=BedPins(yellow=4)).with_changes()
    with pytest.raises(ConfigError, match="beds.blue: GPIO 2 is already used by beds.yellow"):
        Config(beds=BedPins(blue=2)).with_changes()
    with pytest.raises(ConfigError, match="out of range"):
        Config(beds=BedPins(blue=40)).with_changes()
    # without bed detectors their pins are free for anything
    Config(ship_beds=False, beds=BedPins(4, 4, 4, 4)).with_changes()


def test_the_ship_settings_in_the_file(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text('[ship]\nport = "/dev/rfcomm0"\nbeds = false\n[judge]\nsettle = 400\n')
    config, problems = settings.load(path)
    assert problems == []
    assert config.ship_port == "/dev/rfcomm0" and not config.ship_beds
    assert config.judge.settle == 400
    settings.save(config, path)
    assert settings.load(path)[0] == config
    for bad in (
        "[ship]\ncolour = 1\n",
        "[judge]\nsettle = -1\n",
        "[judge]\nsoon = 1\n",
        '[beds]\nblue = "x"\n',
        '[ship]\nport = ""\n',
        "ship = 3\n",
    ):
        path.write_text(bad)
        config, problems = settings.load(path)
        assert config == Config() and len(problems) == 1, bad


def test_the_flight_log_is_bounded(tmp_path):
    log = FlightLog(tmp_path, keep=3, max_bytes=400)
    for _ in range(5):
        path = log.start()
        for t in range(100):
            log.record(t, "ship", f"$TILT,{t},0,0,0,1*00")
        log.close()
        assert path.stat().st_size <= 400
    kept = log.flights()
    assert len(kept) == 3
    # what is kept is the judge's input, whole lines: it replays
    records = read_records(kept[-1].read_bytes())
    assert records and all(key == "ship" for _t, key, _v in records)
    assert list(judge_records(records))


def test_a_flight_log_that_cannot_be_written_costs_nothing(tmp_path):
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    log = FlightLog(blocked / "flights")
    assert log.start() is None
    log.record(1, "bed", "blue")
    assert log.problem and not log.recording


def test_the_flight_log_cap_counts_bytes_not_characters(tmp_path):
    # a noisy line read as Latin-1 is mostly characters that take two bytes in UTF-8
    log = FlightLog(tmp_path, keep=1, max_bytes=1000)
    path = log.start()
    for t in range(100):
        log.record(t, "ship", "$\u00ff\u00fe" * 20)
    log.close()
    assert 500 < path.stat().st_size <= 1000
