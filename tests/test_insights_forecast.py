"""Cloudship storm forecast: the exact storm, the learned skill, the simulated flights."""

import json
import random
import subprocess
import sys
from fractions import Fraction

import pytest

from companion.insights.forecast import (
    NEUTRAL_SKILL, forecast, journal_skill, raindrops_landed, skill_estimate, storm_arrival,
    storm_rounds, storm_steps,
)
from companion.insights.shipsim import simulate_cloudship
from companion.journal import Journal
from companion.rules import Match
from companion.rules.cloudship import RULES, STORM_END
from journaling import play

SUNNY = {"game": "cloudship", "players": ["Ann", "Ben"], "mode": "sunny"}


def test_a_counted_roll_moves_the_storm_0_1_or_2_squares():
    steps = storm_steps()
    assert sum(steps.values()) == 1
    # P(no storm face) = (4/6)^3 = 8/27, out of the 26/27 that count
    assert steps[0] == Fraction(8, 26)
    assert set(steps) == {0, 1, 2}


def test_expected_rounds_agree_with_the_round_by_round_distribution():
    # E[T] = sum over r of P(T > r)
    arrival = storm_arrival(0, 200)
    from_distribution = 1 + sum(1 - a for a in arrival)
    assert float(storm_rounds(0)) == pytest.approx(float(from_distribution), abs=1e-9)
    assert storm_rounds(STORM_END) == 0
    assert storm_rounds(STORM_END - 1) == 1 / (1 - storm_steps()[0])


def test_expected_rounds_agree_with_rolling_real_dice():
    rng = random.Random(4)
    faces = ["yellow", "purple", "white", "blue", "storm", "storm"]
    total, trials = 0, 4000
    for _ in range(trials):
        storm = rounds = 0
        while storm < STORM_END:
            dice = [rng.choice(faces) for _ in range(3)]
            if dice.count("storm") == 3:
                continue
            storm += dice.count("storm")
            rounds += 1
        total += rounds
    assert total / trials == pytest.approx(float(storm_rounds(0)), abs=0.15)


def game(actions, setup=SUNNY) -> Match:
    match = Match.start(setup)
    for action in actions:
        match = match.apply(action)
    return match


ON_TARGET = [{"act": "roll", "dice": ["blue", "white", "storm"]},
             {"act": "drop", "ball": "rain", "bed": "blue"},
             {"act": "drop", "ball": "rain", "bed": "white"}, {"act": "land"}]
MISSED = [{"act": "roll", "dice": ["blue", "blue", "yellow"]},
          {"act": "drop", "ball": "rain", "bed": "purple"}, {"act": "land"}]


def test_raindrops_in_a_rolled_colours_bed_count_as_landed():
    assert raindrops_landed(game(ON_TARGET)) == (2, 2)
    assert raindrops_landed(game(MISSED)) == (0, 3)
    assert raindrops_landed(game(ON_TARGET + MISSED)) == (2, 5)
    # an undone round does not count
    assert raindrops_landed(game(ON_TARGET + [{"act": "undo"}] * 4)) == (0, 0)


def test_skill_starts_neutral_and_learns_from_flights():
    assert skill_estimate([]) == NEUTRAL_SKILL
    good = skill_estimate([game(ON_TARGET)] * 5)
    bad = skill_estimate([game(MISSED)] * 5)
    assert bad < NEUTRAL_SKILL < good
    assert good == pytest.approx((10 + 2) / (10 + 4))


def test_skill_is_learned_from_a_journal_on_disk(tmp_path):
    path = tmp_path / "journal.db"
    journal = Journal.open(path)
    play(journal, ON_TARGET, SUNNY)
    play(journal, ON_TARGET, SUNNY)
    play(journal, [{"act": "roll", "dice": ["red", "green"]}], {"game": "cloud9", "players": ["A", "B", "C"]})
    journal.close()
    reader = Journal.read(path)
    assert journal_skill(reader) == pytest.approx((4 + 2) / (4 + 4))
    reader.close()


def test_a_finished_game_is_certain():
    lost = RULES.setup(SUNNY)
    from companion.rules.common import evolve
    assert forecast(evolve(lost, phase="over", result="lost")).win == 0.0
    assert forecast(evolve(lost, phase="over", result="won")).storm_in_about is None


def test_forecast_agrees_with_whole_simulated_games():
    start = RULES.setup(SUNNY)
    f = forecast(start, skill=0.6, runs=1400, seed=1)
    simulated = simulate_cloudship(1400, 0.6, seed=8, modes=["sunny"])["win_rate"]["sunny"]
    assert f.win == pytest.approx(simulated, abs=0.05)
    assert f.storm_in_about == round(float(storm_rounds(0)))


def test_a_better_crew_and_a_calmer_sky_are_more_likely_to_win():
    start = RULES.setup(SUNNY)
    assert forecast(start, 0.9, 300).win > forecast(start, 0.3, 300).win
    near_storm = game([{"act": "roll", "dice": ["storm", "storm", "blue"]}, {"act": "land"}] * 5)
    assert near_storm.state.storm == 10
    assert forecast(near_storm.state, 0.6, 300).win < forecast(start, 0.6, 300).win
    assert forecast(near_storm.state, 0.6, 10).storm_in_about < 5


def run_cli(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "companion", "odds", "cloudship", *args],
                          capture_output=True, text=True, timeout=60, input=stdin)


def test_cli_forecasts_from_a_replay_file(tmp_path):
    state = tmp_path / "state.jsonl"
    state.write_text("\n".join(json.dumps(x) for x in [SUNNY] + ON_TARGET) + "\n")
    run = run_cli("--state", str(state), "--db", str(tmp_path / "none.db"), "--runs", "200")
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert 0 < out["win"] < 1 and out["skill"] == NEUTRAL_SKILL and out["skill_from"] == "default"
    assert out["storm_in_about_rounds"] >= 1


@pytest.mark.parametrize("lines, message", [
    (['{"game": "cloud9", "players": ["A", "B", "C"]}'], "not Cloudship"),
    ([json.dumps(SUNNY), '{"act": "fly"}'], "line 2"),
    (["not json"], "line 1"),
])
def test_cli_refuses_what_is_not_a_cloudship_game_in_one_line(tmp_path, lines, message):
    state = tmp_path / "state.jsonl"
    state.write_text("\n".join(lines) + "\n")
    run = run_cli("--state", str(state), "--skill", "0.5")
    assert run.returncode == 1 and message in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1
