"""Cloudship storm forecast: the exact storm, the learned skill, the simulated flights."""

import json
import random
import subprocess
import sys
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st

from companion.insights.forecast import (
    NEUTRAL_SKILL,
    forecast,
    journal_skill,
    skill_estimate,
    storm_arrival,
    storm_rounds,
    storm_steps,
    tips_on_target,
)
from companion.insights.shipsim import aim, hidden_hail, roll, simulate_cloudship, tip
from companion.journal import Journal
from companion.rules import Match
from companion.rules.cloudship import BEDS, FLOWERS, RULES, STORM, STORM_END, ShipState
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


ON_TARGET = [
    {"act": "roll", "dice": ["blue", "white", "storm"]},
    {"act": "drop", "ball": "rain", "bed": "blue"},
    {"act": "drop", "ball": "rain", "bed": "white"},
    {"act": "land"},
]
MISSED = [
    {"act": "roll", "dice": ["blue", "blue", "yellow"]},
    {"act": "drop", "ball": "rain", "bed": "purple"},
    {"act": "land"},
]


def test_every_ball_at_rest_is_a_tip_and_a_raindrop_that_adds_a_flower_is_on_target():
    # blue, then white: both on target; the first tip, had it gone wrong with two raindrops
    # aboard, would have found the other wanted bed (white) one time in three
    assert tips_on_target(game(ON_TARGET)) == (2, 2, pytest.approx(1 / 3))
    # the raindrops kept aboard were no tip; purple was not wanted, blue and yellow were
    assert tips_on_target(game(MISSED)) == (0, 1, pytest.approx(1 / 3))
    assert tips_on_target(game(ON_TARGET + MISSED)) == (2, 3, pytest.approx(2 / 3))
    # an undone round does not count
    assert tips_on_target(game(ON_TARGET + [{"act": "undo"}] * 4)) == (0, 0, 0)
    # a hailstone that fell is a tip gone wrong; the raindrop that cancels it was on target,
    # and so is the one for the rolled blue
    hail = {"game": "cloudship", "players": ["Ann", "Ben"], "mode": "stormy"}
    opening = (
        [{"act": "roll", "dice": ["yellow", "yellow", "yellow"]}]
        + [{"act": "drop", "ball": "rain", "bed": "yellow"}] * 3
        + [{"act": "land"}]
    )
    cancelled = [
        {"act": "roll", "dice": ["blue", "white", "storm"]},
        {"act": "drop", "ball": "hail", "bed": "yellow"},
        {"act": "drop", "ball": "rain", "bed": "yellow"},
        {"act": "drop", "ball": "rain", "bed": "blue"},
        {"act": "land"},
    ]
    played = game(opening + cancelled, hail)
    assert played.state.beds == (3, 0, 0, 1)
    # luck: the hailstone's tip (2 of 3 balls raindrops, 1 other wanted bed of 3), the cancelling
    # raindrop's (yellow, blue and white all wanted), the blue one's (white still wanted)
    assert tips_on_target(played) == (3 + 2, 3 + 3, pytest.approx(2 / 3 * 1 / 3 + 2 / 3 + 1 / 3))


def test_skill_starts_neutral_and_learns_from_flights():
    assert skill_estimate([]) == NEUTRAL_SKILL
    good = skill_estimate([game(ON_TARGET)] * 5)
    bad = skill_estimate([game(MISSED)] * 5)
    assert bad < NEUTRAL_SKILL < good
    # (on target - luck + 0.5 * 4) / (tips - luck + 4)
    assert good == pytest.approx((10 - 5 / 3 + 2) / (10 - 5 / 3 + 4))
    assert bad == pytest.approx((0 - 5 / 3 + 2) / (5 - 5 / 3 + 4))
    assert skill_estimate([game(MISSED)] * 50) == 0.0  # never below nought


def crew_game(setup: dict, skill: float, seed: int) -> Match:
    """A whole game the forecast's crew plays at `skill`, kept as a match (its actions)."""
    rng = random.Random(seed)
    match = Match.start({"game": "cloudship", **setup})
    faces = hidden_hail(match.state, rng)
    while match.state.phase != "over":
        state = match.state
        if state.phase == "roll":
            action = {"act": "roll", "dice": roll(rng)}
        elif state.phase == "flight":
            aimed = aim(state)
            ball, bed = tip(state, aimed, skill, rng) if aimed else (None, None)
            action = {"act": "drop", "ball": ball, "bed": bed} if aimed else {"act": "land"}
        elif state.phase == "plant":
            action = {"act": "plant", "bed": max(state.open_beds(), key=state.bed)}
        else:
            action = {"act": "reveal", "hail": faces.get(state.revealing, False)}
        match = match.apply(action)
    return match


@pytest.mark.parametrize("skill", [0.25, 0.5, 0.8])
def test_the_skill_learned_from_a_crews_games_is_the_skill_it_played_at(skill):
    games = [crew_game({"players": ["A", "B"], "mode": "standard"}, skill, seed) for seed in range(40)]
    assert skill_estimate(games) == pytest.approx(skill, abs=0.05)


def test_skill_is_learned_from_a_journal_on_disk(tmp_path):
    path = tmp_path / "journal.db"
    journal = Journal.open(path)
    play(journal, ON_TARGET, SUNNY)
    play(journal, ON_TARGET, SUNNY)
    play(journal, [{"act": "roll", "dice": ["red", "green"]}], {"game": "cloud9", "players": ["A", "B", "C"]})
    journal.close()
    reader = Journal.read(path)
    assert journal_skill(reader) == pytest.approx((4 - 2 / 3 + 2) / (4 - 2 / 3 + 4))
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


# --- what any forecast must do ------------------------------------------------------------------

WON = "companion/examples/cloudship-won.jsonl"
FACE_LIST = BEDS + (STORM, STORM)


def replayed(path: str, lines: int) -> Match:
    """The game of the first `lines` lines of a replay file (the setup is line 1)."""
    with open(path, encoding="utf-8") as f:
        rows = [json.loads(line) for line in f if line.strip()][:lines]
    return game(rows[1:], rows[0])


def one_flight_from_winning():
    state = replayed(WON, 35).state
    assert sum(state.beds) == FLOWERS - 1 and STORM_END - state.storm == 7
    assert state.phase == "flight" and state.dice.count("yellow") == 1 and state.load[1] > 0
    return state


def test_one_easy_flight_from_winning_the_forecast_is_high():
    state = one_flight_from_winning()
    assert forecast(state, NEUTRAL_SKILL, runs=1200, seed=0).win > 0.9
    # the next two lines of the file do win the game
    assert replayed(WON, 37).state.result == "won"


@given(st.floats(0.05, 1.0))
@settings(max_examples=8, deadline=None, derandomize=True)
def test_one_flower_to_go_the_crew_wins_at_least_as_often_as_its_first_raindrop_lands(skill):
    # the first tip on target plants the twelfth flower: the crew lands and has won
    runs = 600
    win = forecast(one_flight_from_winning(), skill, runs=runs, seed=1).win
    assert win >= skill - 3 * (skill * (1 - skill) / runs) ** 0.5


HAIL = [False, True, False, False, False, True, True, False, False, False, False, False]


def planted(flowers: int, storm: int, mode: str = "standard") -> "ShipState":
    """A game about to roll, with `flowers` planted and the storm on `storm`, played to there
    through the rules core (tiles known from the setup, so nothing is asked on the way)."""
    setup = {"players": ["A", "B", "C"], "mode": mode, **({"hail": HAIL} if mode == "standard" else {})}
    state = RULES.setup(setup)
    while state.storm < storm:
        dice = ["storm", "storm", "blue"] if storm - state.storm >= 2 else ["storm", "blue", "blue"]
        state = RULES.apply(RULES.apply(state, {"act": "roll", "dice": dice}), {"act": "land"})
    while sum(state.beds) < flowers:
        bed = min(state.open_beds(), key=state.bed)
        state = RULES.apply(state, {"act": "roll", "dice": [bed] * 3})
        state = RULES.apply(RULES.apply(state, {"act": "drop", "ball": "rain", "bed": bed}), {"act": "land"})
    assert state.phase == "roll" and sum(state.beds) == flowers and state.storm == storm
    return state


def margin(a: float, b: float, runs: int) -> float:
    """Three standard errors of the difference of two forecasts of `runs` flights each."""
    return 3 * ((a * (1 - a) + b * (1 - b)) / runs) ** 0.5 + 0.01


@given(st.sampled_from(["standard", "sunny"]), st.integers(0, 9), st.integers(0, 9))
@settings(max_examples=10, deadline=None, derandomize=True)
def test_the_forecast_rises_with_flowers_planted_and_with_storm_squares_left(mode, flowers, storm):
    runs = 400
    here = forecast(planted(flowers, storm, mode), 0.5, runs, seed=2).win
    more_flowers = forecast(planted(flowers + 2, storm, mode), 0.5, runs, seed=2).win
    calmer = forecast(planted(flowers, max(0, storm - 2), mode), 0.5, runs, seed=2).win
    assert more_flowers >= here - margin(here, more_flowers, runs)
    assert calmer >= here - margin(here, calmer, runs)


def test_the_forecast_rises_clearly_from_no_flower_to_eleven_and_from_storm_to_calm():
    by_flowers = [forecast(planted(n, 6), 0.5, 400, seed=3).win for n in (0, 4, 8, 11)]
    assert by_flowers == sorted(by_flowers) and by_flowers[-1] - by_flowers[0] > 0.5
    by_calm = [forecast(planted(6, s), 0.5, 400, seed=3).win for s in (11, 8, 4, 0)]
    assert by_calm == sorted(by_calm) and by_calm[-1] - by_calm[0] > 0.5


def bots_flowers_after_landing(state) -> int:
    """How many flowers a landing now leaves, asked of the rules core itself."""
    state = RULES.apply(state, {"act": "land"})
    while state.phase == "plant":
        state = RULES.apply(state, RULES.legal_actions(state)[0])
    return sum(state.beds)


def bots_play(state, skill: float, rng: random.Random) -> str:
    """The crew played through the rules core's legal actions alone, with real dice: each tip
    goes for the first bed (rolled colours first, in the dice's order) where one more raindrop
    leaves more flowers after landing; a tip lands where aimed with chance `skill`, else any
    ball aboard falls in one of the other beds; the crew lands when a tip cannot help."""
    while state.phase != "over":
        assert state.phase != "reveal"  # every tile's face is known from the setup
        if state.phase == "roll":
            state = RULES.apply(state, {"act": "roll", "dice": [rng.choice(FACE_LIST) for _ in range(3)]})
        elif state.phase == "plant":
            state = RULES.apply(state, {"act": "plant", "bed": max(state.open_beds(), key=state.bed)})
        else:
            drops = [a for a in RULES.legal_actions(state) if a["act"] == "drop"]
            now = bots_flowers_after_landing(state)
            rolled = list(dict.fromkeys(d for d in state.dice if d != STORM))
            order = rolled + [b for b in BEDS if b not in rolled]
            rain = [a for a in drops if a["ball"] == "rain"]
            aimed = None
            if rain and now < FLOWERS:
                aimed = next(
                    (
                        a["bed"]
                        for a in sorted(rain, key=lambda a: order.index(a["bed"]))
                        if bots_flowers_after_landing(RULES.apply(state, a)) > now
                    ),
                    None,
                )
            if aimed is None:
                state = RULES.apply(state, {"act": "land"})
                continue
            if rng.random() < skill:
                ball, bed = "rain", aimed
            else:
                aboard = [ball for ball, n in zip(("rain", "hail"), state.load) for _ in range(n - state.dropped(ball))]
                ball, bed = rng.choice(aboard), rng.choice([b for b in BEDS if b != aimed])
            state = RULES.apply(state, {"act": "drop", "ball": ball, "bed": bed})
    return state.result


@pytest.mark.parametrize(
    "flowers, storm, mode, skill", [(0, 0, "standard", 0.4), (6, 5, "standard", 0.5), (3, 6, "sunny", 0.6)]
)
def test_the_forecast_agrees_with_bots_playing_the_same_state_through_the_rules_core(flowers, storm, mode, skill):
    state = planted(flowers, storm, mode)
    runs = 1000
    f = forecast(state, skill, runs, seed=4).win
    rng = random.Random(5)
    bots = sum(bots_play(state, skill, rng) == "won" for _ in range(runs)) / runs
    assert 0.05 < bots < 0.95  # a state where the crew's play decides something
    assert f == pytest.approx(bots, abs=4 * ((f * (1 - f) + bots * (1 - bots)) / runs) ** 0.5)


def run_cli(*args, stdin=None):
    return subprocess.run(
        [sys.executable, "-m", "companion", "odds", "cloudship", *args],
        capture_output=True,
        text=True,
        timeout=60,
        input=stdin,
    )


def test_cli_forecasts_from_a_replay_file(tmp_path):
    state = tmp_path / "state.jsonl"
    state.write_text("\n".join(json.dumps(x) for x in [SUNNY] + ON_TARGET) + "\n")
    run = run_cli("--state", str(state), "--db", str(tmp_path / "none.db"), "--runs", "200")
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert 0 < out["win"] < 1 and out["skill"] == NEUTRAL_SKILL and out["skill_from"] == "default"
    assert out["storm_in_about_rounds"] >= 1


@pytest.mark.parametrize("runs", ["0", "20001", str(10**9)])
def test_cli_refuses_a_number_of_runs_that_does_not_fit_in_one_line(tmp_path, runs):
    state = tmp_path / "state.jsonl"
    state.write_text(json.dumps(SUNNY) + "\n")
    run = run_cli("--state", str(state), "--skill", "0.5", "--runs", runs)
    assert run.returncode == 1 and "--runs must be 1 to 20000" in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1


def test_cli_forecasts_the_example_one_flight_from_winning_as_high(tmp_path):
    state = tmp_path / "state.jsonl"
    with open(WON, encoding="utf-8") as f:
        state.write_text("".join(f.readlines()[:35]))
    run = run_cli("--state", str(state), "--db", str(tmp_path / "none.db"), "--skill", "0.5")
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["win"] > 0.9


@pytest.mark.parametrize(
    "lines, message",
    [
        (['{"game": "cloud9", "players": ["A", "B", "C"]}'], "not Cloudship"),
        ([json.dumps(SUNNY), '{"act": "fly"}'], "line 2"),
        (["not json"], "line 1"),
    ],
)
def test_cli_refuses_what_is_not_a_cloudship_game_in_one_line(tmp_path, lines, message):
    state = tmp_path / "state.jsonl"
    state.write_text("\n".join(lines) + "\n")
    run = run_cli("--state", str(state), "--skill", "0.5")
    assert run.returncode == 1 and message in run.stderr
    assert len(run.stderr.strip().splitlines()) == 1
