"""Cloudship flights played out by a crew of a given skill, through the real rules core.

What "skill" means. A flight is a string of tips: the crew steers the ship over a bed and
tips it to let one raindrop fall through the hole. The crew's skill is the chance that a tip
goes as meant: the raindrop aimed comes to rest in the bed aimed at. A tip that goes wrong
lets one ball aboard fall, each ball aboard as likely as any other (a hailstone as likely as a
raindrop), and it comes to rest in one of the three other beds, each as likely. A ball that
falls over the edge or beside the box does not count and goes back into the ship (reading 9):
it is a tip that did not happen, so it is not played at all. With no hail aboard, the skill is
simply the share of raindrops that land in the bed they were aimed at: skill 0.5 is a crew
that puts every other raindrop where it aims.

How the crew flies (the rulebook lets a crew do exactly this):
- each tip aims a raindrop at a bed where one more raindrop adds a flower now: a bed of a
  rolled colour still owed a raindrop (a full one gives a wild flower, reading 4), or a bed
  where a hailstone has come to rest and would take a flower (a raindrop cancels it, reading
  3; the rulebook's last question);
- hailstones are never tipped out on purpose: they stay aboard unless a tip goes wrong;
- the crew lands as soon as landing wins the game, or when no raindrop aboard can plant or save
  a flower any more ("land ... if you want to end your flight early"; "you can interrupt or
  cancel a flight at any time").
A wild flower goes to the open bed with the most flowers. A tile nobody has seen is decided
when it is flipped, from a layout drawn at random among those the mode allows and the faces
already seen agree with (see `hidden_hail`).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Iterator, Sequence

from ..errors import CompanionError
from ..rules.cloudship import (
    BED_CAPACITY,
    BEDS,
    FACE_WEIGHTS,
    FLOWERS,
    MODES,
    RULES,
    STORM,
    TILE_SECTIONS,
    ShipState,
    bed_outcome,
    section_spaces,
)

FACE_LIST = [face for face, weight in FACE_WEIGHTS.items() for _ in range(weight)]
# the setups the mode table compares (partly cloudy: one set left out, or two)
MODE_SETUPS: dict[str, dict] = {
    **{mode: {"mode": mode} for mode in MODES if mode != "partly_cloudy"},
    "partly_cloudy_1": {"mode": "partly_cloudy", "removed_sets": [1]},
    "partly_cloudy_2": {"mode": "partly_cloudy", "removed_sets": [1, 2]},
}
ROUND_LIMIT = 500


class ShipSimulationError(CompanionError, ValueError):
    """A Cloudship simulation that cannot run as asked (one line, for the CLI)."""


def roll(rng: random.Random) -> list[str]:
    """Three dice; three storms do not count and are rolled again (the rulebook)."""
    while True:
        dice = [rng.choice(FACE_LIST) for _ in range(3)]
        if dice.count(STORM) < 3:
            return dice


def flowers_after_landing(state: ShipState, drops: Sequence[tuple[str, str]] | None = None) -> int:
    """The flowers in the beds once a flight with these balls at rest (the state's own, by
    default) has landed and its round is resolved: the rules core's readings 3 and 4 counted
    out (hail first, then the plantings, wild ones in any open bed), without asking anybody
    where a wild flower goes or what a tile shows, neither of which changes the count."""
    rain, hail = _at_rest(state.drops if drops is None else drops)
    assert state.dice is not None  # a flight follows a roll
    rolled = _rolled(state.dice)
    beds = [_bed_after(state.beds[i], rain[i], hail[i], rolled[i]) for i in range(len(BEDS))]
    held, wild, room = (sum(column) for column in zip(*beds))
    return held + min(wild, room)


def _bed_after(flowers: int, rain: int, hail: int, rolled: int) -> tuple[int, int, int]:
    """(flowers the bed holds, wild flowers it gives, room left in it) after a landing."""
    hail_left, water = bed_outcome(rain, hail, rolled)
    left = flowers - min(hail_left, flowers)
    regular = min(water, BED_CAPACITY - left)
    return left + regular, water - regular, BED_CAPACITY - left - regular


def _at_rest(drops: Sequence[tuple[str, str]]) -> tuple[list[int], list[int]]:
    """(raindrops, hailstones) at rest in each bed, in BEDS order."""
    return ([drops.count(("rain", colour)) for colour in BEDS], [drops.count(("hail", colour)) for colour in BEDS])


def _rolled(dice: Sequence[str]) -> list[int]:
    return [dice.count(colour) for colour in BEDS]


def _aim_order(dice: Sequence[str]) -> list[int]:
    """The beds (indices) in the order the crew considers them: the rolled colours in the
    order of the dice, then the others in board order."""
    rolled = [BEDS.index(face) for face in dict.fromkeys(dice) if face != STORM]
    return rolled + [i for i in range(len(BEDS)) if i not in rolled]


def aim(state: ShipState) -> str | None:
    """The bed the crew aims its next raindrop at, or None to land now (see the module's
    docstring): the first bed where one more raindrop adds a flower (a raindrop never adds
    more than one), the rolled colours first in the order of the dice, then the others."""
    if state.load[0] <= state.dropped("rain"):
        return None
    assert state.dice is not None  # a flight follows a roll
    rain, hail = _at_rest(state.drops)
    best = _choose(state.beds, _rolled(state.dice), rain, hail, _aim_order(state.dice))
    return None if best is None else BEDS[best]


def wanted(state: ShipState) -> list[str]:
    """The beds where one more raindrop would add a flower now, in board order."""
    assert state.dice is not None  # a flight follows a roll
    rain, hail = _at_rest(state.drops)
    return [BEDS[i] for i in _gains(state.beds, _rolled(state.dice), rain, hail, range(len(BEDS)))]


def _choose(
    flowers: Sequence[int], rolled: Sequence[int], rain: Sequence[int], hail: Sequence[int], order: Sequence[int]
) -> int | None:
    """`aim` on counts per bed: the bed (index) for the next raindrop, or None to land."""
    return next(_gains(flowers, rolled, rain, hail, order), None)


def _gains(
    flowers: Sequence[int], rolled: Sequence[int], rain: Sequence[int], hail: Sequence[int], order: Iterable[int]
) -> Iterator[int]:
    """The beds (indices, in `order`) where one more raindrop adds a flower, one by one."""
    beds = [_bed_after(flowers[i], rain[i], hail[i], rolled[i]) for i in range(len(BEDS))]
    held = wild = room = 0
    for bed_held, bed_wild, bed_room in beds:
        held += bed_held
        wild += bed_wild
        room += bed_room
    now = held + min(wild, room)
    if now == FLOWERS:
        return  # landing wins: do not risk the hail any more
    for i in order:
        if rain[i] >= hail[i] and rain[i] - hail[i] >= rolled[i]:
            continue  # no hailstone to cancel, no watering owed
        was, more = beds[i], _bed_after(flowers[i], rain[i] + 1, hail[i], rolled[i])
        if (held + more[0] - was[0]) + min(wild + more[1] - was[1], room + more[2] - was[2]) > now:
            yield i


def tip(state: ShipState, aimed: str, skill: float, rng: random.Random) -> tuple[str, str]:
    """(ball, bed) of the ball that comes to rest after a tip aimed at `aimed`: the raindrop in
    that bed with chance `skill`, else any ball aboard in one of the other beds."""
    ball, bed = _tip(
        BEDS.index(aimed), state.load[0] - state.dropped("rain"), state.load[1] - state.dropped("hail"), skill, rng
    )
    return ball, BEDS[bed]


# for each bed, the three others: where a tip that goes wrong puts its ball
_OTHERS = [[j for j in range(len(BEDS)) if j != i] for i in range(len(BEDS))]


def _tip(aimed: int, rain: int, hail: int, skill: float, rng: random.Random) -> tuple[str, int]:
    if rng.random() < skill:
        return "rain", aimed
    ball = "rain" if rng.randrange(rain + hail) < rain else "hail"
    return ball, rng.choice(_OTHERS[aimed])


def fly(state: ShipState, skill: float, rng: random.Random) -> ShipState:
    """One flight from wherever it stands (balls already told are in state.drops), landed."""
    apply = RULES.apply
    assert state.dice is not None  # a flight follows a roll
    flowers, rolled, order = state.beds, _rolled(state.dice), _aim_order(state.dice)
    rain, hail = _at_rest(state.drops)
    aboard = {"rain": state.load[0] - sum(rain), "hail": state.load[1] - sum(hail)}
    while aboard["rain"] and (aimed := _choose(flowers, rolled, rain, hail, order)) is not None:
        ball, bed = _tip(aimed, aboard["rain"], aboard["hail"], skill, rng)
        aboard[ball] -= 1
        (rain if ball == "rain" else hail)[bed] += 1
        state = apply(state, {"act": "drop", "ball": ball, "bed": BEDS[bed]})
    return apply(state, {"act": "land"})


def hidden_hail(state: ShipState, rng: random.Random) -> dict[int, bool]:
    """A face for every tile still face down with no known face (0-based space -> hail?),
    drawn uniformly among the layouts the mode allows that agree with the faces already seen:
    one hail tile per set of three in standard and partly cloudy, three among all nine tiles
    in tornado (docs/rulings.md, Cloudship, reading 7)."""
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
        known = sum(1 for i in group if (tile := state.tiles[i]) is not None and tile.hail)
        hail = set(rng.sample(hidden, max(0, min(len(hidden), per_group - known))))
        faces.update({i: i in hail for i in hidden})
    return faces


def play_rounds(state: ShipState, skill: float, rng: random.Random, limit: int = ROUND_LIMIT) -> ShipState:
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
            state = fly(state, skill, rng)
        elif phase == "plant":
            open_beds = state.open_beds()
            fullest = max(open_beds, key=state.bed)
            state = apply(state, {"act": "plant", "bed": fullest})
        else:  # reveal
            assert state.revealing is not None  # the reveal phase waits on a flipped tile
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


def simulate_cloudship(
    games: int, skill: float, seed: int = 0, jobs: int = 1, modes: Sequence[str] = tuple(MODE_SETUPS)
) -> dict:
    """The win rate per mode for a crew of the given skill (and the mean rounds of a win)."""
    if games < 1:
        raise ShipSimulationError("--games must be 1 or more")
    if not 0.0 <= skill <= 1.0:
        raise ShipSimulationError(f"--skill is a chance from 0 to 1, not {skill}")
    if jobs < 1:
        raise ShipSimulationError("--jobs must be 1 or more")
    tasks = [
        (mode, skill, seed, a, min(a + max(1, games // jobs), games))
        for mode in modes
        for a in range(0, games, max(1, games // jobs))
    ]
    if jobs == 1:
        parts = [_wins(*task) for task in tasks]
    else:
        # imported here: multiprocessing is megabytes the app's forecast (one process) never needs
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=jobs) as pool:
            parts = list(pool.map(_wins, *zip(*tasks)))
    totals = {mode: [0, 0] for mode in modes}
    for task, (won, rounds) in zip(tasks, parts):
        totals[task[0]][0] += won
        totals[task[0]][1] += rounds
    return {
        "game": "cloudship",
        "games": games,
        "skill": skill,
        "seed": seed,
        "win_rate": {mode: round(won / games, 4) for mode, (won, _) in totals.items()},
        "mean_rounds_of_a_win": {
            mode: round(rounds / won, 2) if won else None for mode, (won, rounds) in totals.items()
        },
    }
