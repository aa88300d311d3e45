"""Whole Cloudship games played with the ship's twin through the whole chain: every ball is
tipped into the hole by the twin's crew, falls through the beam of the real firmware (on the
board host), goes over a real pty into the real link, lands in a bed and strikes its detector's
mock pin, is judged, and is submitted through the controller; every landing is the twin set
down on the table. The rolls, the wild flowers and the reveals are entered as the table enters
them."""

import json
import time
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from companion.config import Config, JudgeTimings
from companion.rules import Match
from companion.ship.flightlog import FlightLog
from companion.ship.records import judge_records, read_records
from companion.ui.loop.ship_view import ShipPanel
from companion.ui.tools.harness import Harness

EXAMPLES = Path(__file__).resolve().parent.parent / "companion" / "examples"
# the contract's timings with a shorter settle and rest, so a game takes seconds (the rules of
# the judge are the same; the falls are the twin's own, from the ship's height)
FAST = (("settle", 100), ("lift_samples", 5), ("rest_time", 300))
QUICK_CREW = {"carry_speed": 0.4}  # the crew carries the ship from bed to bed briskly


def game(name: str):
    lines = (EXAMPLES / name).read_text().splitlines()
    return json.loads(lines[0]), [json.loads(line) for line in lines[1:] if line.strip()]


@pytest.fixture
def table(tmp_path):
    config = Config(ship_port="sim", judge=JudgeTimings(**dict(FAST)))
    h = Harness((800, 480))
    log = FlightLog(tmp_path / "flights", keep=50)
    panel = ShipPanel.open(
        config, h.app.wake, True, pin_factory=MockFactory(), flight_log=log, sim_options={"seed": 3, "crew": QUICK_CREW}
    )
    h.app.hardware.ship = panel
    panel.session.attach(h.app.controller)
    yield h, panel, log
    panel.close()


def pump_until(h, done, timeout=5.0, why="the ship's drop never came through") -> None:
    end = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < end, why
        h.app.pump()
        time.sleep(0.003)


def release(h, panel, drops: list[dict]) -> None:
    """Lift off (once a flight), then tip the balls into the hole one after another, each over
    its bed."""
    twin, session, controller = panel.simulator, panel.session, h.app.controller
    pump_until(h, lambda: session.judge.in_flight)
    if not session.judge.flown:
        twin.fly()
        pump_until(h, lambda: session.judge.flown, why="the twin's flight was not seen")
    before = len(controller.match.actions())
    for drop in drops:
        twin.release(drop["ball"], drop["bed"])
    pump_until(h, lambda: len(controller.match.actions()) == before + len(drops), timeout=6.0 * len(drops) + 5)


def land(h, panel) -> None:
    panel.simulator.set_down()
    pump_until(
        h, lambda: h.app.controller.match.state.phase != "flight", timeout=10, why="the twin's landing was not judged"
    )


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


def truth_of(panel) -> list[dict]:
    """What the twin's balls really did: kind and the bed each ended in, in landing order."""
    stories = sorted(panel.simulator.model.truth, key=lambda s: s["landed"])
    return [{"ball": s["ball"], "bed": s["bed"], "through": s["through"]} for s in stories]


@pytest.mark.parametrize("name,result", [("cloudship-won.jsonl", "won"), ("cloudship-lost.jsonl", "lost")])
def test_a_whole_game_judged_from_the_twins_sensors(table, name, result):
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
    # every ball the twin dropped went through the hole into the bed the game says
    drops = [a for a in actions if a["act"] == "drop"]
    assert truth_of(panel) == [{"ball": d["ball"], "bed": d["bed"], "through": "hole"} for d in drops]
    # each flight was logged, and replaying a log judges its drops again
    flights = log.flights()
    assert len(flights) == sum(1 for a in actions if a["act"] == "land")
    first = [
        a
        for a in judge_records(
            read_records(flights[0].read_bytes()), panel.session.judge.__class__(panel.session.judge.timings)
        )
        if "act" in a
    ]
    expected = actions[1 : actions.index({"act": "land"}) + 1]
    assert [{k: v for k, v in a.items() if k != "t"} for a in first] == expected


def test_a_refused_drop_is_a_notice_and_the_game_goes_on(table):
    h, panel, _log = table
    setup, actions = game("cloudship-won.jsonl")
    h.start_game(setup)
    h.app.controller.submit(actions[0])  # a roll that loads 2 raindrops, no hail
    h.app.pump()
    pump_until(h, lambda: panel.session.judge.in_flight)
    panel.simulator.release("hail", "yellow")
    pump_until(h, lambda: h.app.toast_text is not None, timeout=15)
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
    from companion.ui.loop.ship_view import strike_mock

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


def test_a_flood_of_balls_from_a_faulty_sensor_is_shown_as_the_ships_problem(tmp_path):
    """A flickering beam is a fault below the twin's physics: the line simulator writes the
    BALL lines such a board sends, all at once, into the same link, judge and screen."""
    import queue

    from companion.devices.beds import BedDetectors
    from companion.ship.link import ShipLink, clock_ms
    from companion.ship.session import ShipSession
    from companion.ship.sim import ShipSimulator
    from companion.ui.loop.ship_view import strike_mock

    h = Harness((800, 480))
    events: queue.Queue = queue.Queue()
    beds = BedDetectors((2, 3, 14, 15), events, clock_ms, pin_factory=MockFactory(), wake=h.app.wake)
    sim = ShipSimulator(strike=lambda bed: strike_mock(beds, bed), tilt_s=0.01, seed=5)
    sim.link_at(tmp_path / "ship")
    link = ShipLink(str(tmp_path / "ship"), events, wake=h.app.wake, retry_s=0.05)
    link.start()
    session = ShipSession(events, clock=clock_ms)
    h.app.hardware.ship = ShipPanel(session, link=link, simulator=sim, beds=beds)
    session.attach(h.app.controller)
    try:
        sim.start()
        setup, actions = game("cloudship-won.jsonl")
        h.start_game(setup)
        h.app.controller.submit(actions[0])
        pump_until(h, lambda: session.judge.in_flight and session.link == "connected")
        sim.fly()
        for _ in range(8):  # a flickering beam: more balls than the ship can hold, all at once
            sim.release("rain", None)
        pump_until(h, lambda: h.app.toast_text is not None and "ball_sensor" in h.app.toast_text)
        assert "more than the ship holds" in h.app.toast_text
    finally:
        link.stop()
        sim.close()
        beds.close()
