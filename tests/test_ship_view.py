"""The ship on the Cloudship screen (real pygame, dummy video): balls falling and settling, the
question without bed detectors, notices and the link in the top bar, in every language at
800x480 and 720x1280, with nothing cut off."""

import queue
import time

import pytest

from companion import i18n
from companion.config import Config, JudgeTimings
from companion.rules import RulesError
from companion.rules.cloudship import BEDS
from companion.ship.session import ShipSession
from companion.ui.loop.ship_view import ShipPanel
from companion.ui.screens.cloudship import demo_game
from companion.ui.tools.harness import Harness
from tests.shipstreams import Board

SETUP, ACTIONS = demo_game()
SIZES = [(800, 480), (720, 1280)]
LANGUAGES = ["en", "de", "hu"]


class Clock:
    def __init__(self):
        self.ms = 10_000

    def __call__(self):
        return self.ms


def table(size, language="en", beds=True):
    h = Harness(size, config=Config(language=language))
    h.app.hardware.simulated = False  # as on the Pi: real pins, a real ship
    clock = Clock()
    events: queue.Queue = queue.Queue()
    session = ShipSession(events, clock=clock, beds_present=beds)
    panel = ShipPanel(session)
    h.app.hardware.ship = panel
    session.attach(h.app.controller)
    h.start_game(SETUP)
    h.app.controller.submit({"act": "roll", "dice": ["yellow", "purple", "storm"]})
    h.app.pump()
    return h, panel, events, clock, Board()


def arrive(h, events, clock, *records):
    for t, key, value in records:
        clock.ms = t
        events.put([(t, key, value)])
        h.app.pump()


def check(h, name, tmp_path):
    assert h.overflows() == [], name
    assert h.off_canvas() == [], name
    h.save(tmp_path / f"{name}.png")


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_a_ball_falls_lands_and_is_judged_on_screen(tmp_path, size, language):
    h, panel, events, clock, b = table(size, language)
    arrive(h, events, clock, (10_000, "port", "back"), (10_010, "ship", b.tilt(50, roll=120)))
    assert h.app.hardware.ship_tilt() == pytest.approx(12.0)
    assert h.app.hardware.sensor_status() == "ok"
    arrive(h, events, clock, (10_100, "ship", b.ball("rain")))
    clock.ms = 10_250
    assert panel.session.falling() == [("rain", 150)]
    check(h, f"falling-{language}-{size[0]}", tmp_path)
    arrive(h, events, clock, (10_300, "bed", "purple"))
    assert panel.session.settling() == [("rain", "purple")]
    check(h, f"settling-{language}-{size[0]}", tmp_path)
    clock.ms = 10_601
    h.app.pump()
    assert h.app.controller.match.view["drops"] == [{"ball": "rain", "bed": "purple"}]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_notices_and_the_question_without_bed_detectors(tmp_path, size, language):
    h, panel, events, clock, b = table(size, language, beds=False)
    arrive(h, events, clock, (10_000, "port", "back"), (10_100, "ship", b.ball("hail")))
    assert panel.session.asking == ["hail"]
    assert h.find("fly-hint").texts() == [i18n.translator("ship")("Where did the hailstone land? Tap it on its bed.")]
    check(h, f"asking-{language}-{size[0]}", tmp_path)
    clock.ms = 11_000
    h.app.pump()
    assert h.app.toast_text is None  # no detectors: "outside" is not claimed, the crew says where
    with pytest.raises(RulesError):  # a tap the rules refuse (no hail was loaded) answers nothing
        h.app.controller.submit({"act": "drop", "ball": "hail", "bed": "blue"})
    assert panel.session.asking == ["hail"]
    arrive(h, events, clock, (11_100, "bed", "white"), (11_200, "port", "lost"))
    assert h.app.toast_text is not None
    assert h.app.hardware.sensor_status() == i18n.translator("ship")("link lost")
    check(h, f"lost-{language}-{size[0]}", tmp_path)


def test_a_drop_by_touch_answers_the_question():
    h, panel, events, clock, b = table((800, 480), beds=False)
    arrive(h, events, clock, (10_000, "port", "back"), (10_100, "ship", b.ball("rain")))
    assert panel.session.asking == ["rain"]
    h.app.controller.submit({"act": "drop", "ball": "rain", "bed": "yellow"})  # as the bed's button does
    assert panel.session.asking == []
    assert h.app.controller.match.view["drops"] == [{"ball": "rain", "bed": "yellow"}]


def test_a_ball_beyond_the_load_is_refused_with_a_notice():
    h, panel, events, clock, b = table((800, 480))
    records = [(10_000, "port", "back")]
    t = 10_100
    for _ in range(3):  # the roll loaded 2 raindrops
        records += [(t, "ship", b.ball("rain")), (t + 100, "bed", BEDS[0])]
        t += 500
    arrive(h, events, clock, *records)
    clock.ms = t + 1000
    h.app.pump()
    assert len(h.app.controller.match.view["drops"]) == 2
    assert "raindrop" in h.app.toast_text


def test_a_stuck_bed_detector_is_shown_in_the_top_bar(tmp_path):
    from gpiozero.pins.mock import MockFactory

    from companion.devices.beds import BedDetectors

    h, panel, events, clock, b = table((800, 480), "de")
    panel.beds = BedDetectors((2, 3, 14, 15), events, clock, pin_factory=MockFactory(), stuck_after_ms=3000)
    try:
        arrive(h, events, clock, (10_000, "port", "back"))
        panel.beds.pin("white").drive_low()
        arrive(h, events, clock, (13_500, "ship", b.tilt(0)))
        assert h.app.hardware.sensor_status() == "Beetmelder hängt: Weiß"
        check(h, "stuck-de-800", tmp_path)
    finally:
        panel.beds.close()


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_desktops_simulated_ship_says_so(tmp_path, size, language):
    from gpiozero.pins.mock import MockFactory

    h = Harness(size, config=Config(language=language))
    config = Config(ship_port="sim")
    panel = ShipPanel.open(
        config, h.app.wake, True, pin_factory=MockFactory(), flight_log=None, sim_options={"seed": 1}
    )
    h.app.hardware.ship = panel
    try:
        panel.session.attach(h.app.controller)
        h.start_game(SETUP)
        h.app.controller.submit({"act": "roll", "dice": ["yellow", "purple", "storm"]})
        deadline = time.monotonic() + 5
        while panel.session.link != "connected" and time.monotonic() < deadline:
            h.app.pump()
        h.app.pump()
        assert h.find("fly-hint").texts() == [
            i18n.translator("ship")("Simulated ship: f flies, v b n m to a bed, j k drop balls, s lands.")
        ]
        assert h.app.hardware.sensor_status() is None  # the "Simulated" badge says it
        check(h, f"sim-{language}-{size[0]}", tmp_path)
    finally:
        panel.close()


def test_no_ship_notices_during_another_game():
    h = Harness((800, 480))
    events: queue.Queue = queue.Queue()
    clock = Clock()
    panel = ShipPanel(ShipSession(events, clock=clock))
    h.app.hardware.ship = panel
    h.start_game({"game": "cloudmine", "players": ["Ann", "Ben", "Csilla", "Dóra"]})
    arrive(h, events, clock, (10_000, "bed", "blue"), (10_100, "port", "lost"))
    assert h.app.toast_text is None


def test_a_ship_never_found_is_missed_only_while_cloudship_is_played(tmp_path):
    from companion.ship.link import ShipLink

    h = Harness((800, 480))
    h.app.hardware.simulated = False
    events: queue.Queue = queue.Queue()
    link = ShipLink("auto", events, retry_s=0.05)  # no Pico on this machine
    link.start()
    panel = ShipPanel(ShipSession(events, clock=Clock()), link=link)
    h.app.hardware.ship = panel
    try:
        deadline = time.monotonic() + 5
        while link.state != "missing" and time.monotonic() < deadline:
            time.sleep(0.01)
        h.app.pump()
        assert h.app.hardware.sensor_status() is None
        h.start_game(SETUP)
        assert h.app.hardware.sensor_status() == "missing"
        assert h.shows(i18n.translator("app")("Sensor: {status}").format(status=i18n.translator("app")("not found")))
    finally:
        link.stop()


def test_desktop_keys_fly_the_twin_over_a_bed_and_drop_a_ball_into_it():
    import pygame
    from gpiozero.pins.mock import MockFactory

    h = Harness((800, 480))
    config = Config(ship_port="sim", judge=JudgeTimings(lift_samples=3))
    panel = ShipPanel.open(
        config, h.app.wake, True, pin_factory=MockFactory(), flight_log=None, sim_options={"seed": 4}
    )
    h.app.hardware.ship = panel
    session = panel.session
    try:
        session.attach(h.app.controller)
        h.start_game(SETUP)
        h.app.controller.submit({"act": "roll", "dice": ["yellow", "purple", "storm"]})

        def until(done, seconds=10):
            end = time.monotonic() + seconds
            while not done() and time.monotonic() < end:
                h.app.pump()
                time.sleep(0.005)
            return done()

        assert until(lambda: session.link == "connected")
        h.key(pygame.K_f)
        assert until(lambda: session.judge.flown)
        h.key(pygame.K_v)  # over the yellow bed
        h.key(pygame.K_j)  # a raindrop onto the deck, tipped into the hole
        assert until(lambda: h.app.controller.match.view["drops"] == [{"ball": "rain", "bed": "yellow"}], 20)
        h.key(pygame.K_z, mod=pygame.KMOD_CTRL)  # Ctrl+Z is still undo, not a ship key
        assert h.app.controller.match.view["drops"] == []
        before = panel.simulator.model.pitch.target
        h.key(pygame.K_LEFT)  # the arrows tilt the deck
        assert panel.simulator.model.pitch.target > before
    finally:
        panel.close()


def test_busy_bed_pins_leave_the_ship_working_and_ask_by_touch():
    from gpiozero import DigitalInputDevice
    from gpiozero.pins.mock import MockFactory

    factory = MockFactory()
    holder = DigitalInputDevice(14, pin_factory=factory)  # GPIO 14 already taken
    try:
        h = Harness((800, 480))
        panel = ShipPanel.open(Config(ship_port="loop://"), h.app.wake, False, pin_factory=factory, flight_log=None)
        try:
            assert panel.beds is None and not panel.session.beds_present
            assert len(panel.problems) == 1 and "bed detectors unavailable" in panel.problems[0]
        finally:
            panel.close()
    finally:
        holder.close()


def test_the_gils_quick_switches_last_while_a_ship_panel_is_open_and_end_with_the_last():
    import sys

    from gpiozero.pins.mock import MockFactory

    before = sys.getswitchinterval()
    sys.setswitchinterval(0.004)
    try:
        h = Harness((800, 480))
        config = Config(ship_port="loop://", ship_beds=False)
        first = ShipPanel.open(config, h.app.wake, False, pin_factory=MockFactory(), flight_log=None)
        second = ShipPanel.open(config, h.app.wake, False, pin_factory=MockFactory(), flight_log=None)
        assert sys.getswitchinterval() == pytest.approx(0.001)
        first.close()
        assert sys.getswitchinterval() == pytest.approx(0.001)  # the other panel still wants them
        second.close()
        second.close()  # closing twice gives nothing back twice
        assert sys.getswitchinterval() == pytest.approx(0.004)
        h.app.hardware.ship = ShipPanel.open(config, h.app.wake, False, pin_factory=MockFactory(), flight_log=None)
        h.app.hardware.close_ship()  # the ship switched off in the settings, or the app ending
        assert sys.getswitchinterval() == pytest.approx(0.004)
    finally:
        sys.setswitchinterval(before)


def test_the_loop_sleeps_until_the_ships_silence_falls_due_and_then_shows_it(monkeypatch):
    from companion.ship.judge import Timings
    from companion.ship.link import clock_ms
    from companion.ui.loop import app as app_module

    monkeypatch.setattr(app_module, "WATCHED_IDLE_S", 120.0)  # no look at SDL ends the sleep
    h = Harness((800, 480))
    h.app.hardware.simulated = False
    events: queue.Queue = queue.Queue()
    session = ShipSession(events, clock=clock_ms, timings=Timings(silent=400))
    h.app.hardware.ship = ShipPanel(session)
    b, now = Board(), clock_ms()
    events.put([(now, "port", "back"), (now, "ship", b.hello()), (now, "ship", b.tilt(0))])
    h.app.pump()
    assert session.link == "connected"
    started = time.monotonic()
    h.app.wait()  # nothing posts a wake-up: only the judge's deadline can end this sleep
    assert time.monotonic() - started < 60
    h.app.pump()
    assert session.link == "silent" and h.app.hardware.sensor_status() == "silent"


def test_a_bed_detector_held_too_long_ends_the_loops_sleep_when_it_counts_as_stuck(monkeypatch):
    from gpiozero.pins.mock import MockFactory

    from companion.devices.beds import BedDetectors
    from companion.ship.link import clock_ms
    from companion.ui.loop import app as app_module

    monkeypatch.setattr(app_module, "WATCHED_IDLE_S", 120.0)
    h = Harness((800, 480))
    h.app.hardware.simulated = False
    events: queue.Queue = queue.Queue()
    session = ShipSession(events, clock=clock_ms)
    panel = ShipPanel(session)
    panel.beds = BedDetectors(
        (2, 3, 14, 15), events, clock_ms, pin_factory=MockFactory(), wake=h.app.wake, stuck_after_ms=300
    )
    h.app.hardware.ship = panel
    try:
        panel.beds.pin("blue").drive_low()
        h.app.pump()
        assert h.app.hardware.sensor_status() != "bed detector stuck: blue"
        started = time.monotonic()
        h.app.wait()  # the impact's own wake-up was cleared by the pump: only the stuck time is left
        assert time.monotonic() - started < 60
        h.app.pump()
        assert h.app.hardware.sensor_status() == "bed detector stuck: blue"
        panel.beds.pin("blue").drive_high()  # it lets go: the loop is woken to say so
        h.app.wait()
        assert time.monotonic() - started < 60
        h.app.pump()
        assert h.app.hardware.sensor_status() != "bed detector stuck: blue"
    finally:
        panel.beds.close()
