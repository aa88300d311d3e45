"""The ship's twin: the physical model on its own (deterministic, its sensors as mounted in
hardware/SHIP.md), and through the whole chain (the real firmware on the board host, a real pty,
the real link, the bed detectors on gpiozero's mock pins, the judge with the contract's
timings): calibration runs, a wild crew that makes no phantom drop, the thresholds' margins."""

import json
import math
import subprocess
import sys

import pytest

from companion.ship.board import Board
from companion.ship.judge import Timings
from companion.ship.protocol import decode
from companion.ship.twin.calibrate import CalibrationRun, compare
from companion.ship.twin.core import TwinCore
from companion.ship.twin.physics import BALL_R, BEAM_DEPTH, BED_CENTRES, G, ShipModel, bed_at
from companion.ship.twin.pilot import Pilot
from companion.ship.twin.runner import levelled_flash


def flight(seed: int, balls=(("rain", "purple"), ("hail", "white"))):
    """A short flight in board time: lift, two balls tipped in over their beds, set down."""
    core = TwinCore(seed)
    model, pilot = core.model, Pilot(core.model)
    samples = core.samples_to(1000)
    model.lift()
    samples += core.samples_to(2000)
    for kind, bed in balls:
        pilot.hand_in(kind, bed)
    t = 2000
    while pilot.busy and t < 60_000:
        t += 20
        samples += core.samples_to(t)
        pilot.tick()
    model.set_down()
    samples += core.samples_to(t + 3000)
    return core, samples


def test_the_same_seed_flies_the_same_flight_and_another_seed_does_not():
    one, two, other = flight(5)[1], flight(5)[1], flight(6)[1]
    assert [s.record() for s in one] == [s.record() for s in two]
    assert [s.record() for s in one] != [s.record() for s in other]


def test_the_sensors_read_as_mounted_x_to_the_bow_y_to_port_z_up():
    model = ShipModel(1, accel_bias_g=0, gyro_bias_dps=0)
    model.hold(pitch=20)  # nose up: the X axis points up a little
    model.advance(3000)
    ax, ay, az, *_ = model.imu()
    assert ax == pytest.approx(math.sin(math.radians(20)), abs=0.02) and abs(ay) < 0.02
    model.hold(pitch=0, roll=15)  # right side down: Y (to port) points up
    model.advance(6000)
    ax, ay, az, *_ = model.imu()
    assert ay == pytest.approx(math.sin(math.radians(15)), abs=0.02) and abs(ax) < 0.02
    assert math.sqrt(ax * ax + ay * ay + az * az) == pytest.approx(1.0, abs=0.02)  # at rest: 1 g


def test_a_ball_rolls_downhill_and_a_slight_slope_does_not_start_it():
    model = ShipModel(2)
    ball = model.load("rain", 0.05, 0.02)
    model.hold(pitch=0.5)  # less than static friction holds
    model.advance(3000)
    assert (ball.u, ball.v) == (0.05, 0.02)
    model.hold(pitch=-6)  # nose down: the ball rolls to the bow
    model.advance(5000)
    assert ball.u > 0.06 and ball.state == "aboard"


def test_a_ball_over_the_hole_breaks_the_beam_while_its_body_passes_and_lands_under_the_ship():
    model = ShipModel(3)
    model.lift()
    model.hold(x=BED_CENTRES["blue"][0], y=BED_CENTRES["blue"][1])
    model.advance(4000)
    model.load("hail", 0.0, 0.0)
    model.hold(pitch=0.1)  # a nudge: the ball moves, and it is over the hole
    beam = []
    for t in range(4001, 4400):
        model.advance(t)
        beam.append(model.beam())
    story = model.truth[0]
    broken = beam.count(True)
    expected = 1000 * (math.sqrt(2 * (BEAM_DEPTH + 2 * BALL_R) / G) - math.sqrt(2 * BEAM_DEPTH / G))
    assert abs(broken - expected) <= 2 and story["through"] == "hole"
    assert story["bed"] == "blue" == bed_at(*story["where"])
    # free fall from the deck: the beam clears once the ball has fallen its depth and its size
    fall = 1000 * (math.sqrt(2 * story["height"] / G) - math.sqrt(2 * (BEAM_DEPTH + 2 * BALL_R) / G))
    assert story["landed"] - story["beam_clear"] == pytest.approx(fall, abs=2)


@pytest.mark.parametrize("interpreter", ["micropython", "cpython"])
def test_the_real_firmware_sees_the_twins_balls_with_their_colours_and_its_tilt(interpreter, tmp_path):
    why = Board.available(interpreter)
    if why:
        pytest.skip(why)
    core, samples = flight(7)
    # levelled at the table first, as SHIP.md has the maker do: its own 1 g and tilt zero
    run = Board.run(list(samples), interpreter, flash=levelled_flash(interpreter, tmp_path, model=core.model))
    messages = [decode(line) for line in run.usb]
    balls = [(m[2], m[3][0]) for m in messages if m[0] == "BALL"]
    assert [kind for _t, kind in balls] == ["rain", "hail"]
    stories = sorted(core.model.truth, key=lambda s: s["beam_clear"])
    assert [t for t, _k in balls] == [s["beam_clear"] for s in stories]  # written as the beam clears
    tilts = [m for m in messages if m[0] == "TILT"]
    resting = [int(m[3][2]) for m in tilts if m[2] < 1000]
    assert max(resting) < Timings().rest_motion  # the ship on the table rests
    seconds = (samples[-1].t_ms - samples[0].t_ms) / 1000
    # 20 a second (a resting ship's last second of them may still wait for its BEAT)
    assert seconds * 20 - 22 <= len(tilts) <= seconds * 20 + 2
    assert [m[1] for m in messages] == list(range(len(messages)))


def test_the_firmware_reports_the_twins_tilt_with_the_signs_of_the_contract(tmp_path):
    """Nose up is positive pitch, right side down positive roll (hardware/SHIP.md's mounting,
    tilt.py's words): the twin's hull held so, the real (levelled) firmware's TILT lines say so."""
    core = TwinCore(8)
    samples = core.samples_to(500)
    core.model.hold(pitch=10.0, roll=-6.0)
    samples += core.samples_to(4000)
    name = "micropython" if Board.available("micropython") is None else "cpython"
    run = Board.run(samples, name, flash=levelled_flash(name, tmp_path, model=core.model))
    last = [decode(line) for line in run.usb if line.startswith("$TILT")][-1]
    pitch, roll = int(last[3][0]), int(last[3][1])
    assert abs(pitch - 100) <= 5 and abs(roll + 60) <= 5, (pitch, roll)


def test_an_unlevelled_board_with_the_chips_factory_offset_never_rests_and_a_levelled_one_does(tmp_path):
    """The twin's MPU-6050 reads gravity off by its zero-g offset (seed 1: 66 mg low on Z, within
    the datasheet's ±80 mg): MOTION against a nominal 1 g would never fall under REST_MOTION.
    Levelled at the table (calibrate.level()), the board measures from its own 1 g."""
    core = TwinCore(1)
    samples = core.samples_to(3000)
    raw = Board.run(samples, "cpython")
    levelled = Board.run(samples, "cpython", flash=levelled_flash("cpython", tmp_path, model=core.model))

    def resting(run):
        return [int(decode(line)[3][2]) for line in run.usb if line.startswith("$TILT")][2:]

    assert min(resting(raw)) > 3 * Timings().rest_motion
    assert max(resting(levelled)) < Timings().rest_motion


MARGINS = (
    "fall_margin_ms",
    "bounce_margin_ms",
    "ring_again_margin_ms",
    "rest_motion_margin_mg",
    "move_motion_margin_mg",
    "rest_time_margin_ms",
    "silent_margin_ms",
)


def report_margins(record_property, name, margins):
    """Each threshold's margin, in the test report (and shown with pytest -s)."""
    shown = {key: margins[key] for key in MARGINS + ("flight_moving_share", "lift_to_flown_ms", "landing_to_land_ms")}
    record_property(name, json.dumps(shown))
    print(name, json.dumps(shown))


def positive(margin):
    values = margin if isinstance(margin, list) else [margin]
    return all(v is None or v > 0 for v in values)


def test_a_calibration_run_judges_every_ball_right_within_the_thresholds(record_property):
    report = CalibrationRun(10, seed=3).fly()
    summary = report["summary"]
    margins = summary["margins"]
    report_margins(record_property, "calibration_margins", margins)
    assert all(positive(margins[key]) for key in MARGINS), margins
    # the levelled board rests with the sensor's noise (None: it was never read at rest, a flight
    # that missed its timings on a busy machine)
    assert (margins["rest_motion_margin_mg"] or 0) >= 3, margins
    assert margins["rest_time_margin_ms"] > 1000 and margins["silent_margin_ms"] > 1500
    assert summary["drops"] + summary["given_up"] == 10 and summary["drops"] >= 8
    assert summary["phantoms"] == 0 and summary["missed"] == 0
    assert summary["judged_right"] == summary["drops"], [r for r in report["drops"] if not r["right"]]
    margins = summary["margins"]
    low, high = margins["fall_margin_ms"]
    assert low > 30 and high > 300  # every fall well inside MIN_FALL .. MAX_FALL
    assert margins["rest_motion_margin_mg"] > 0  # the resting ship reads under REST_MOTION
    assert margins["lift_to_flown_ms"] < 5000 and margins["landing_to_land_ms"] < 6000
    tm = Timings()
    assert tm.settle < summary["latency_p50_ms"] < tm.settle + tm.max_fall


def test_hard_swinging_and_tilting_make_no_phantom_drop(record_property):
    """A wild crew swings the empty ship about over the box and tips it to 25 degrees while the
    beam flickers (a string, sunlight through the hole): the firmware's flicker filter and the
    judge give no ball, no drop and no notice, and the flight is still seen and landed."""

    def wild(twin, until, _progress):
        with twin.lock:
            twin.model.flicker_rate = 4.0  # flickers a second, 1-2 ms each
            twin.pilot.swing(0.09, 25.0, hz=1.2)
        twin._nudge.set()
        until(lambda: False, 8)
        with twin.lock:
            twin.pilot.stop_swing()
            twin.model.flicker_rate = 0.0

    run = CalibrationRun(0, seed=11)
    report = run.fly(flight=wild)
    summary = report["summary"]
    report_margins(record_property, "swinging_margins", summary["margins"])
    assert summary["drops"] == 0 and summary["phantoms"] == 0
    assert positive(summary["margins"]["rest_time_margin_ms"])  # no landing in mid-swing
    assert positive(summary["margins"]["move_motion_margin_mg"])
    assert not any("notice" in n or "x_ball" in n for n in run.news)
    # the flight was seen (a calm crew's MOTION is about MOVE_MOTION half the time: 20 moving
    # samples take two to four seconds, and the run looks at the judge twice a second) ...
    assert summary["margins"]["lift_to_flown_ms"] < 5000
    assert summary["margins"]["landing_to_land_ms"] < 8000  # ... and its landing


@pytest.mark.parametrize("seed", [11, 12])
def test_a_wild_crew_with_balls_aboard_makes_no_phantom_beyond_what_no_judge_can_tell(seed):
    """Swung hard with five balls aboard, the ship throws balls over the rim and through the
    hole. A drop is judged only for balls that came through the hole, except at the moments
    these sensors cannot tell apart (a ball over the rim striking the next bed as a fresh drop's
    bounce would; a ball that lands outside while another falls): each may cost one phantom."""

    def wild(twin, until, _progress):
        with twin.lock:
            for i, kind in enumerate(("rain", "rain", "rain", "hail", "hail")):
                angle = 2 * math.pi * i / 5
                twin.model.load(kind, 0.05 * math.cos(angle), 0.03 * math.sin(angle))
            twin.pilot.swing(0.09, 25.0, hz=1.2)
        twin._nudge.set()
        until(lambda: not twin.model.balls, 10)
        with twin.lock:
            twin.pilot.stop_swing()

    report = CalibrationRun(0, seed=seed).fly(flight=wild)
    summary, rows = report["summary"], report["drops"]
    assert summary["phantoms"] <= summary["ambiguous"], rows
    assert summary["judged_wrong"] <= summary["ambiguous"], rows
    assert summary["missed"] <= summary["ambiguous"], rows
    if summary["ambiguous"] == 0:
        assert summary["judged_right"] == summary["drops"], rows


def test_a_ball_over_the_rim_landing_while_a_ball_from_the_hole_falls_outside_is_counted_ambiguous():
    """A ball leaves the hole and falls beside the box; meanwhile a ball thrown over the rim
    strikes yellow: the judge takes that impact for the falling ball's landing (any judge of
    these sensors would), so the run counts the moment as ambiguous."""
    stories = [
        {"id": 1, "through": "hole", "bed": None, "ball": "rain"},
        {"id": 2, "through": "rim", "bed": "yellow", "ball": "hail"},
    ]
    run = CalibrationRun(0)
    assert run._ambiguous(stories, {2: [(1150, "yellow")]}, {1: 1000}) == 1
    assert run._ambiguous(stories, {2: [(1900, "yellow")]}, {1: 1000}) == 0  # past max_fall: no ball falls


def test_a_ball_over_the_rim_into_the_next_bed_is_taken_for_a_fresh_drops_bounce():
    """What the wild crew shows, in the judge's own terms: a ball through the hole strikes
    purple, a ball thrown over the rim strikes yellow 98 ms later; the bounce rule moves the
    first ball to yellow. Any judge of a beam at the hole and a detector per bed sees the same
    two impacts; the twin counts these moments as ambiguous (see the calibration run)."""
    from companion.ship.judge import Judge
    from companion.ship.protocol import encode

    judge = Judge()
    out = judge.ship(1000, encode("BALL", 0, 1000, ["rain"])) + judge.bed(1148, "purple") + judge.bed(1246, "yellow")
    out += judge.finish()
    assert [o for o in out if "act" in o] == [{"t": 1546, "act": "drop", "ball": "rain", "bed": "yellow"}]


def test_the_simulated_clock_judges_the_first_200_drops_as_real_time_does(record_property):
    """`twin --virtual` stands for a run in real time: the same seed's first 200 drops, flown on
    the simulated clock and on the wall clock, are each judged right (or wrong) in both, and the
    judge says the same of every ball that did the same in both. (The two twins fly the same
    plan a little differently, as the crew acts when each clock says: a ball aimed near a
    divider may land in the next bed in one of them, and is judged by where it landed.)"""
    virtual = CalibrationRun(200, seed=0, virtual=True).fly()
    real = CalibrationRun(200, seed=0).fly()
    same = compare(virtual["drops"], real["drops"])
    record_property("virtual_against_real_time", json.dumps(same))
    print("virtual_against_real_time", json.dumps(same))
    # on a loaded machine the wall-clock crew gives up a ball now and then (it could not tip it
    # in time) and acts later, so fewer flights match (86 of 199 at a load average of 10,
    # 194 of 200 quiet): what must hold is the judge, not the crew's timing
    assert same["drops"] + same["unpaired"] == 200 and same["unpaired"] <= 5, same
    assert same["same_verdict"] == same["drops"] and same["differ"] == [], same
    assert same["same_judgement"] == same["same_flight"] >= same["drops"] // 3, same
    for key in ("judged_wrong", "phantoms", "missed"):
        assert virtual["summary"][key] == real["summary"][key] == 0, key
    assert abs(virtual["summary"]["judged_right"] - real["summary"]["judged_right"]) <= same["unpaired"]


def test_twin_prints_each_drop_and_the_summary_as_json_lines():
    out = subprocess.run(
        [sys.executable, "-m", "companion", "twin", "--drops", "3", "--seed", "2", "--json"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    lines = [json.loads(line) for line in out.stdout.splitlines()]
    assert [line["drop"] for line in lines[:-1]] == [1, 2, 3]
    summary = lines[-1]["summary"]
    assert {"drops", "judged_right", "phantoms", "missed", "latency_p50_ms", "latency_p99_ms"} <= set(summary)
    assert all({"twin", "judged", "right"} <= set(line) for line in lines[:-1])


def test_twin_uses_the_judge_timings_of_the_settings_file(tmp_path):
    settings = tmp_path / "settings.toml"
    settings.write_text("[judge]\nsettle = 220\nrest_time = 1500\n")
    out = subprocess.run(
        [sys.executable, "-m", "companion", "twin", "--drops", "2", "--json", "--config", str(settings)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    summary = json.loads(out.stdout.splitlines()[-1])["summary"]
    assert summary["timings"]["settle"] == 220 and summary["timings"]["rest_time"] == 1500
    assert summary["judged_right"] == summary["drops"] == 2
    assert 220 < summary["latency_p50_ms"] < 300 + 220  # the fall, then the shorter settle


@pytest.mark.parametrize("drops", ["0", "-3", "100000"])
def test_twin_refuses_a_count_it_cannot_fly(capsys, drops):
    from companion.cli import main

    assert main(["twin", "--drops", drops]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith("cloud-companion: twin: --drops")
