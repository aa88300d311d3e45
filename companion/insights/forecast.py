"""Cloudship: the storm forecast, from the state of the game and the crew's own skill.

Method.
- The storm is exact. Each round the three dice move the storm one square per storm face
  (two faces of six); three storms are rolled again, so a round moves it 0, 1 or 2 squares with
  the binomial chances given fewer than three. `storm_rounds` solves the resulting Markov chain
  exactly (fractions) for the expected number of rounds until the marker reaches the end
  square, and its distribution round by round.
- The flights are simulated. From the current state the game is played on through the rules
  core until it is won or lost, by the crew of shipsim: each tip of the ship aims a raindrop
  at a bed where it plants (a rolled colour) or saves a flower (cancelling a hailstone), the
  hailstones are kept aboard, and the crew lands as soon as landing wins or no raindrop can
  help any more. When the commander is about to roll, the next roll is not sampled but taken
  exactly: every roll is played out the same number of times and weighted by its true chance
  (the rules core's `roll_outcomes`), which takes the dice's share out of the sampling error.
- The skill is the chance that a tip puts the raindrop aimed in the bed it is aimed at (a tip
  that goes wrong lets any ball aboard fall in another bed; shipsim). It is learned from this
  table's past flights in the journal, which tell where each ball came to rest but not where
  it was aimed: every ball that came to rest in a bed was one tip, on target when it was a
  raindrop in a bed where it added a flower (a rolled colour still owed one, or a hailstone
  there to cancel). A tip that went wrong can land on target by luck (a raindrop falling into
  another bed that wanted one), so the estimate takes out what luck explains: with n tips, k of
  them on target and l expected on target by luck alone, a tip's chance of going as meant is
  (k - l) / (n - l) (the moments of the model: k = p n + (1 - p) l). It is pulled towards a
  neutral 0.5 as if four more tips had been seen, half of them on target, so a table without
  history gets 0.5 (a crew that puts every other raindrop where it aims) and a few flights
  move it only a little.
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from math import comb
from typing import Any

from ..rules import Match
from ..rules.cloudship import BEDS, DICE, FACE_WEIGHTS, RULES, STORM, STORM_END, ShipState
from .shipsim import play_rounds, wanted

NEUTRAL_SKILL = 0.5
PRIOR_TIPS = 4  # the neutral skill counts as this many tips already seen
DEFAULT_RUNS = 1200
MAX_RUNS = 20_000  # a forecast of a few seconds here, about a minute on a Pi: enough


@dataclass(frozen=True)
class Forecast:
    win: float  # the chance of planting all twelve flowers before the storm
    storm_rounds: float  # expected rounds until the storm arrives (ignoring a win)
    skill: float
    runs: int
    over: bool = False

    @property
    def storm_in_about(self) -> int | None:
        """'The storm arrives in about N rounds' (at least 1 while the game goes on)."""
        return None if self.over else max(1, round(self.storm_rounds))

    def to_json(self) -> dict[str, Any]:
        return {
            "win": round(self.win, 4),
            "storm_in_about_rounds": self.storm_in_about,
            "storm_rounds_expected": round(self.storm_rounds, 3),
            "skill": round(self.skill, 3),
            "runs": self.runs,
        }


# --- the storm, exactly ------------------------------------------------------------------------


def storm_steps() -> dict[int, Fraction]:
    """How far one counted roll moves the storm: k storm faces of three, k < 3."""
    p = Fraction(FACE_WEIGHTS[STORM], sum(FACE_WEIGHTS.values()))
    raw = {k: comb(DICE, k) * p**k * (1 - p) ** (DICE - k) for k in range(DICE + 1)}
    counted = 1 - raw[DICE]  # three storms are rolled again
    return {k: raw[k] / counted for k in range(DICE)}


@cache
def storm_rounds(storm: int) -> Fraction:
    """Expected rounds (rolls that count) until the marker on `storm` reaches the end square."""
    if storm >= STORM_END:
        return Fraction(0)
    steps = storm_steps()
    # E[s] = 1 + p0 E[s] + sum_k p_k E[s + k]  =>  E[s] = (1 + sum_k p_k E[s + k]) / (1 - p0)
    ahead = sum(p * storm_rounds(min(storm + k, STORM_END)) for k, p in steps.items() if k)
    return (1 + ahead) / (1 - steps[0])


def storm_arrival(storm: int, rounds: int) -> list[Fraction]:
    """P(the storm has arrived by the end of round 1, 2, ... `rounds` from now)."""
    steps = storm_steps()
    where = {storm: Fraction(1)}
    out = []
    for _ in range(rounds):
        nxt: dict[int, Fraction] = {}
        for s, p in where.items():
            for k, q in steps.items():
                t = s if s >= STORM_END else min(s + k, STORM_END)
                nxt[t] = nxt.get(t, 0) + p * q
        where = nxt
        out.append(where.get(STORM_END, Fraction(0)))
    return out


# --- the skill, from the journal ---------------------------------------------------------------


def tips_on_target(match: Match) -> tuple[int, int, float]:
    """(tips on target, tips, tips expected on target by luck alone) over a game's flights
    (undone actions left out). Every ball that came to rest in a bed is a tip; it was on target
    when it was a raindrop in a bed where it added a flower (see the module's docstring). A tip
    that went wrong lands on target by luck when it lets a raindrop fall (r of the r + h balls
    aboard) into another of the g beds that wanted one: (r / (r + h)) * (g - 1) / 3."""
    on_target = tips = 0
    luck = 0.0
    step = match.current
    while step.before is not None:
        before, action = step.before.state, step.action
        assert action is not None  # only the setup's step has none, and it has no step before it
        if action.get("act") == "drop" and before.phase == "flight":
            tips += 1
            rain = before.load[0] - before.dropped("rain")
            hail = before.load[1] - before.dropped("hail")
            beds = wanted(before)
            if rain and beds:
                luck += rain / (rain + hail) * (len(beds) - 1) / (len(BEDS) - 1)
            on_target += action.get("ball") == "rain" and action.get("bed") in beds
        step = step.before
    return on_target, tips, luck


def skill_estimate(matches: Iterable[Match]) -> float:
    """The crew's skill from past games (see the module's docstring); 0.5 without any."""
    on_target = tips = 0
    luck = 0.0
    for match in matches:
        hits, n, by_luck = tips_on_target(match)
        on_target += hits
        tips += n
        luck += by_luck
    share = (on_target - luck + NEUTRAL_SKILL * PRIOR_TIPS) / (tips - luck + PRIOR_TIPS)
    return min(1.0, max(0.0, share))


def journal_skill(journal, exclude: int | None = None) -> float:
    """skill_estimate over every Cloudship game in a journal (but `exclude`, the one now)."""
    from ..journal.journal import rebuild  # the journal is optional for the forecast

    matches = []
    for game in journal.games():
        if game.game == "cloudship" and game.id != exclude:
            summary, actions = journal.stored(game.id)
            matches.append(rebuild(summary.setup, actions, game.id))
    return skill_estimate(matches)


# --- the forecast --------------------------------------------------------------------------------


def forecast(state: ShipState, skill: float = NEUTRAL_SKILL, runs: int = DEFAULT_RUNS, seed: int = 0) -> Forecast:
    """The chance of winning from `state` and when the storm is due (see the docstring)."""
    if state.phase == "over":
        return Forecast(1.0 if state.result == "won" else 0.0, 0.0, skill, 0, over=True)
    rng = random.Random(seed)
    # the storm already moved this round once the dice are down: count from the next roll
    expected = float(storm_rounds(state.storm))
    if state.phase != "roll":
        return Forecast(_wins(state, skill, runs, rng) / runs, expected, skill, runs)
    outcomes = [o for o in RULES.roll_outcomes(state) if o.action["dice"].count(STORM) < DICE]
    total = sum(o.probability for o in outcomes)
    per_roll = max(1, runs // len(outcomes))
    win = 0.0
    for outcome in outcomes:
        after = RULES.apply(state, outcome.action)
        win += outcome.probability / total * _wins(after, skill, per_roll, rng) / per_roll
    return Forecast(win, expected, skill, per_roll * len(outcomes))


def _wins(state: ShipState, skill: float, runs: int, rng: random.Random) -> int:
    return sum(play_rounds(state, skill, rng).result == "won" for _ in range(runs))
