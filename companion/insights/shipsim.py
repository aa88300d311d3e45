"""Cloudship flights played out by a crew of a given skill, through the real rules core.

The crew's aim (one plan for every skill):
- each raindrop is aimed at the bed of one coloured die (a full bed of a rolled colour still
  counts: reading 4 turns that watering into a wild flower);
- each hailstone is aimed at an empty bed, where it does nothing (reading 3); with no empty
  bed, at the bed of a rolled colour, where it cancels a raindrop instead of taking a flower.
A ball lands where it is aimed with chance `skill`; otherwise it comes to rest in one of the
three other beds or falls overboard (does not count, reading 9), each equally likely.
A wild flower goes to the open bed with the most flowers. A tile nobody has seen is decided
when it is flipped, from a layout drawn at random among those the mode allows and the faces
already seen agree with (see `hidden_hail`).
"""

from __future__ import annotations

import random
from concurrent.futures import ProcessPoolExecutor
from typing import Sequence

from ..rules.cloudship import (
    BEDS, FACE_WEIGHTS, MODES, RULES, STORM, TILE_SECTIONS, ShipState, section_spaces,
)

FACE_LIST = [face for face, weight in FACE_WEIGHTS.items() for _ in range(weight)]
OVERBOARD = None
# the setups the mode table compares (partly cloudy: one set left out, or two)
MODE_SETUPS: dict[str, dict] = {
    **{mode: {"mode": mode} for mode in MODES if mode != "partly_cloudy"},
    "partly_cloudy_1": {"mode": "partly_cloudy", "removed_sets": [1]},
    "partly_cloudy_2": {"mode": "partly_cloudy", "removed_sets": [1, 2]},
}
ROUND_LIMIT = 500


class ShipSimulationError(ValueError):
    """A Cloudship simulation that cannot run as asked (one line, for the CLI)."""


def roll(rng: random.Random) -> list[str]:
    """Three dice; three storms do not count and are rolled again (the rulebook)."""
    while True:
        dice = [rng.choice(FACE_LIST) for _ in range(3)]
        if dice.count(STORM) < 3:
            return dice


def aims(state: ShipState) -> list[tuple[str, str]]:
    """(ball, bed aimed at) for everything loaded this round (see the module's docstring)."""
    rolled = [face for face in state.dice if face != STORM]
    plan = [("rain", colour) for colour in rolled]
    empty = [colour for colour, n in zip(BEDS, state.beds) if n == 0]
    for i in range(state.load[1]):
        plan.append(("hail", empty[i % len(empty)] if empty else rolled[i % len(rolled)]))
    return plan


def landing(aimed: str, skill: float, rng: random.Random) -> str | None:
    """Where an aimed ball comes to rest: the bed aimed at with chance `skill`."""
    if rng.random() < skill:
        return aimed
    return rng.choice([bed for bed in BEDS if bed != aimed] + [OVERBOARD])


def hidden_hail(state: ShipState, rng: random.Random) -> dict[int, bool]:
    """A face for every tile still face down with no known face (0-based space -> hail?),
    drawn uniformly among the layouts the mode allows that agree with the faces already seen:
    one hail tile per set of three in standard and partly cloudy, three among all nine tiles
    in tornado (rulings.md, Cloudship, reading 7)."""
    unknown = [i for i, t in enumerate(state.tiles) if t is not None and t.hail is None]
    if not unknown:
        return {}
    if state.mode == "tornado":
        groups = [[i for i, t in enumerate(state.tiles) if t is not None]]
        per_group = len(TILE_SECTIONS)
    else:
        groups = [[s - 1 for s in section_spaces(sec)] for sec in TILE_SECTIONS]
        per_group = 1
    faces: dict[int, bool] = {}
    for group in groups:
        hidden = [i for i in group if i in unknown]
        if not hidden:
            continue
        known = sum(1 for i in group if state.tiles[i] is not None and state.tiles[i].hail)
        hail = set(rng.sample(hidden, max(0, min(len(hidden), per_group - known))))
        faces.update({i: i in hail for i in hidden})
    return faces


def play_rounds(state: ShipState, skill: float, rng: random.Random,
                limit: int = ROUND_LIMIT) -> ShipState:
    """Play on from any state until the game is over; the state it ends in."""
    faces = hidden_hail(state, rng)
    apply = RULES.apply
    for _ in range(limit * 40):
        phase = state.phase
        if phase == "over":
            return state
        if phase == "roll":
            state = apply(state, {"act": "roll", "dice": roll(rng)})
        elif phase == "flight":
            plan = aims(state)
            # balls already told this round are in state.drops: fly only the rest
            for kind in ("rain", "hail"):
                told = state.dropped(kind)
                for ball, aimed in [p for p in plan if p[0] == kind][told:]:
                    bed = landing(aimed, skill, rng)
                    if bed is not OVERBOARD:
                        state = apply(state, {"act": "drop", "ball": ball, "bed": bed})
            state = apply(state, {"act": "land"})
        elif phase == "plant":
            open_beds = state.open_beds()
            fullest = max(open_beds, key=state.bed)
            state = apply(state, {"act": "plant", "bed": fullest})
        else:  # reveal
            state = apply(state, {"act": "reveal", "hail": faces.get(state.revealing, False)})
    raise ShipSimulationError(f"the game did not end within {limit} rounds")


def new_game(setup_name: str, rng: random.Random) -> ShipState:
    setup = {"players": ["A", "B", "C"], **MODE_SETUPS[setup_name]}
    return RULES.setup(setup)


def _wins(setup_name: str, skill: float, seed: int, start: int, stop: int) -> tuple[int, int]:
    """(games won, rounds of the games won) among games start..stop-1."""
    won = rounds = 0
    for i in range(start, stop):
        rng = random.Random(seed * 1_000_003 + i)
        end = play_rounds(new_game(setup_name, rng), skill, rng)
        if end.result == "won":
            won += 1
            rounds += end.round
    return won, rounds


def simulate_cloudship(games: int, skill: float, seed: int = 0, jobs: int = 1,
                       modes: Sequence[str] = tuple(MODE_SETUPS)) -> dict:
    """The win rate per mode for a crew of the given skill (and the mean rounds of a win)."""
    if games < 1:
        raise ShipSimulationError("--games must be 1 or more")
    if not 0.0 <= skill <= 1.0:
        raise ShipSimulationError(f"--skill is a chance from 0 to 1, not {skill}")
    if jobs < 1:
        raise ShipSimulationError("--jobs must be 1 or more")
    tasks = [(mode, skill, seed, a, min(a + max(1, games // jobs), games))
             for mode in modes for a in range(0, games, max(1, games // jobs))]
    if jobs == 1:
        parts = [_wins(*task) for task in tasks]
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            parts = list(pool.map(_wins, *zip(*tasks)))
    totals = {mode: [0, 0] for mode in modes}
    for task, (won, rounds) in zip(tasks, parts):
        totals[task[0]][0] += won
        totals[task[0]][1] += rounds
    return {
        "game": "cloudship", "games": games, "skill": skill, "seed": seed,
        "win_rate": {mode: round(won / games, 4) for mode, (won, _) in totals.items()},
        "mean_rounds_of_a_win": {mode: round(rounds / won, 2) if won else None
                                 for mode, (won, rounds) in totals.items()},
    }
