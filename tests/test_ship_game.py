"""Whole Cloudship games played with the simulated ship: every drop is a ball released by the
simulator on a real pty, read by the real link, struck on a bed detector's mock pin, judged,
and submitted through the controller; every landing is the ship set down. The rolls, the wild
flowers and the reveals are entered as the table enters them."""

import json
import time
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from companion.config import Config, JudgeTimings
from companion.rules import Match
from companion.ship.flightlog import FlightLog
from companion.ship.records import judge_records, read_records
from companion.ui.harness import Harness
from companion.ui.ship_view import ShipPanel

EXAMPLES = Path(__file__).resolve().parent.parent / "companion" / "examples"
# the contract's timings, shortened so a game takes seconds (the rules of the judge are the same)
FAST = (("min_fall", 10), ("max_fall", 400), ("settle", 100), ("lift_samples", 3), ("rest_time", 150))
FALL_S = 0.15  # well inside MIN_FALL..MAX_FALL, whatever the load on the machine
BETWEEN_S = 0.12


def game(name: str):
    lines = (EXAMPLES / name).read_text().splitlines()
    return json.loads(lines[0]), [json.loads(line) for line in lines[1:] if line.strip()]


@pytest.fixture
def table(tmp_path):
    config = Config(ship_port="sim", judge=JudgeTimings(**dict(FAST)))
    h = Harness((800, 480))
    log = FlightLog(tmp_path / "flights", keep=50)
    panel = ShipPanel.open(config, h.app.wake, True, pin_factory=MockFactory(), flight_log=log,
                           sim_options={"tilt_s": 0.01, "seed": 3})
    h.app.hardware.ship = panel
    panel.session.attach(h.app.controller)
    yield h, panel, log
    panel.close()


def pump_until(h, done, timeout=5.0) -> None:
    end = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < end, "the ship's drop never came through"
        h.app.pump()
        time.sleep(0.003)


def release(h, panel, drops: list[dict]) -> None:
    """Lift off (once a flight), then release balls one after another over their beds."""
    sim, session, controller = panel.simulator, panel.session, h.app.controller
    pump_until(h, lambda: session.judge.in_flight)
    if not session.judge.flown:
        sim.fly()
        pump_until(h, lambda: session.judge.flown)
    before = len(controller.match.actions())
    for drop in drops:
        sim.release(drop["ball"], drop["bed"], fall_s=FALL_S)
        time.sleep(BETWEEN_S)
    pump_until(h, lambda: len(controller.match.actions()) == before + len(drops))


def land(h, panel) -> None:
    panel.simulator.set_down()
    pump_until(h, lambda: h.app.controller.match.state.phase != "flight")


def play(h, panel, actions) -> None:
    controller = h.app.controller
    pending: list[dict] = []
    for action in actions:
        if action["act"] == "drop":
            pending.append(action)
            continue
        if action["act"] in ("land", "undo"):
            release(h, panel, pending)
            pending = []
        if action["act"] == "land":
            land(h, panel)
        else:
            controller.submit(action)  # by touch, as the table does (an undo corrects a drop)
            h.app.pump()


@pytest.mark.parametrize("name,result", [("cloudship-won.jsonl", "won"), ("cloudship-lost.jsonl", "lost")])
def test_a_whole_game_judged_from_the_simulated_sensors(table, name, result):
    h, panel, log = table
    setup, actions = game(name)
    h.start_game(setup)
    play(h, panel, actions)
    match = h.app.controller.match
    played = Match.start(setup)
    for action in actions:
        played = played.apply(action)
    assert match.actions() == played.actions()  # every drop where it fell, every landing judged
    assert match.view == played.view
    assert match.view["result"] == result
    assert panel.session.judge.counts.get("gap", 0) == 0
    # each flight was logged, and replaying a log judges its drops again
    flights = log.flights()
    assert len(flights) == sum(1 for a in actions if a["act"] == "land")
    first = [a for a in judge_records(read_records(flights[0].read_bytes()), panel.session.judge.__class__(
        panel.session.judge.timings)) if "act" in a]
    expected = actions[1:actions.index({"act": "land"}) + 1]
    assert [{k: v for k, v in a.items() if k != "t"} for a in first] == expected


def test_a_refused_drop_is_a_notice_and_the_game_goes_on(table):
    h, panel, _log = table
    setup, actions = game("cloudship-won.jsonl")
    h.start_game(setup)
    h.app.controller.submit(actions[0])  # a roll that loads 2 raindrops, no hail
    h.app.pump()
    pump_until(h, lambda: panel.session.judge.in_flight)
    panel.simulator.release("hail", "yellow", fall_s=0.25)  # time to spare on a busy machine
    pump_until(h, lambda: h.app.toast_text is not None)
    assert "hailstone" in h.app.toast_text
    assert h.app.controller.match.view["drops"] == []
    assert h.app.controller.match.state.phase == "flight"


def test_an_unplug_and_replug_in_the_middle_of_a_flight(tmp_path):
    """The cable comes out after the first ball, goes back in with a new pty behind the same
    path: the ball in the air is still judged from its bed, the rest of the flight too."""
    import queue

    from companion.devices.beds import BedDetectors
    from companion.ship.judge import Timings
    from companion.ship.link import ShipLink, clock_ms
    from companion.ship.session import ShipSession
    from companion.ship.sim import ShipSimulator
    from companion.ui.ship_view import strike_mock

    h = Harness((800, 480))
    events: queue.Queue = queue.Queue()
    beds = BedDetectors((2, 3, 14, 15), events, clock_ms, pin_factory=MockFactory(), wake=h.app.wake)
    path = tmp_path / "ship"
    sims = []

    def plug():
        sim = ShipSimulator(strike=lambda bed: strike_mock(beds, bed), tilt_s=0.01, seed=5)
        sims.append(sim)
        sim.link_at(path)
        return sim

    sim = plug()
    link = ShipLink(str(path), events, wake=h.app.wake, retry_s=0.05)
    link.start()
    session = ShipSession(events, clock=clock_ms, timings=Timings().with_changes(**dict(FAST)))
    panel = ShipPanel(session, link=link, simulator=sim, beds=beds)
    h.app.hardware.ship = panel
    session.attach(h.app.controller)
    try:
        sim.start()
        setup, actions = game("cloudship-won.jsonl")
        h.start_game(setup)
        h.app.controller.submit(actions[0])  # two raindrops: yellow and white
        pump_until(h, lambda: session.judge.in_flight and session.link == "connected")
        sim.fly()
        pump_until(h, lambda: session.judge.flown)
        sim.release("rain", "yellow", fall_s=0.15)
        pump_until(h, lambda: session.judge.balls)
        sim.unplug()  # the cable comes out while the ball falls
        pump_until(h, lambda: session.link == "lost")
        assert h.app.hardware.sensor_status() == "link lost"
        pump_until(h, lambda: len(h.app.controller.match.view["drops"]) == 1)
        panel.simulator = sim = plug()
        sim.start()
        sim.fly()
        pump_until(h, lambda: session.link == "connected")
        sim.release("rain", "white", fall_s=0.1)
        pump_until(h, lambda: len(h.app.controller.match.view["drops"]) == 2)
        sim.set_down()
        pump_until(h, lambda: h.app.controller.match.state.phase != "flight")
        assert h.app.controller.match.actions() == actions[:4]
        assert link.opened == 2
    finally:
        link.stop()
        for s in sims:
            s.close()
        beds.close()


def test_a_flood_of_balls_from_a_faulty_sensor_is_shown_as_the_ships_problem(table):
    h, panel, _log = table
    setup, actions = game("cloudship-won.jsonl")
    h.start_game(setup)
    h.app.controller.submit(actions[0])
    h.app.pump()
    pump_until(h, lambda: panel.session.judge.in_flight)
    for _ in range(8):  # a flickering beam: more balls than the ship can hold, all at once
        panel.simulator.do("rain", [])
    pump_until(h, lambda: h.app.toast_text is not None and "ball_sensor" in h.app.toast_text)
    assert "more than the ship holds" in h.app.toast_text
