"""Whole games of Cloud 9 between bots, through the real rules core.

The rules core counts cards but never sees them (ruling 4), so the simulation keeps the
cards themselves: a shuffled virtual deck of 72 + 4 wild, real hands, a draw pile and a
discard pile that it deals exactly as ruling 5 says (one card each, clockwise from the new
pilot, the discards shuffled in when the pile runs out). The dice are rolled with the die's
real faces. Each game has its own seed, derived from the run's seed and the game's number, so
a run gives the same figures whatever number of processes plays it.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..errors import CompanionError
from ..rules.cloud9 import COLOURS, DICE, HAND_SIZE, RULES, Cloud9State
from .bots import POLICIES, pilot_action
from .odds import FULL_DECK

# a die's six faces: one per colour and two blank (docs/rulings.md, Cloud 9 board data)
DIE = COLOURS + ("blank", "blank")
# a range per cloud, as many as its dice
DICE_RANGES = {cloud: range(n) for cloud, n in DICE.items()}
# no real game comes near this; a policy that never ends a game would stop here
ACTION_LIMIT = 20_000


class SimulationError(CompanionError, ValueError):
    """A simulation that cannot be run as asked (one line, for the CLI)."""


def seat_names(bots: Sequence[str]) -> list[str]:
    """Seat names from the bots' names: 'odds', 'odds 2', ... when a bot plays twice."""
    seen: Counter = Counter()
    names = []
    for bot in bots:
        if bot not in POLICIES:
            raise SimulationError(f"unknown bot {bot!r}: expected {', '.join(POLICIES)}")
        seen[bot] += 1
        names.append(bot if seen[bot] == 1 else f"{bot} {seen[bot]}")
    if not 3 <= len(names) <= 6:
        raise SimulationError(f"Cloud 9 is for 3 to 6 players: give 3 to 6 bots, not {len(names)}")
    return names


@dataclass
class GameResult:
    winners: list[str]
    trips: int
    rolls: int
    trip_rolls: list[int] = field(default_factory=list)


class VirtualDeck:
    """The cards behind the rules core's counts (ruling 5)."""

    def __init__(self, players: Sequence[str], rng: random.Random):
        self.rng = rng
        self.pile = [kind for kind, n in FULL_DECK.items() for _ in range(n)]
        rng.shuffle(self.pile)
        self.discards: list[str] = []
        self.seen: Counter = Counter()  # the discard pile, counted
        # every kind counted from zero: a plain dict, no missing-key lookups on the hot path
        self.hands = {p: dict.fromkeys(FULL_DECK, 0) for p in players}
        for p in players:
            for _ in range(HAND_SIZE):
                self.hands[p][self.pile.pop()] += 1

    def play(self, player: str, cards: list[str]) -> None:
        for card in cards:
            self.hands[player][card] -= 1
            self.seen[card] += 1
        self.discards.extend(cards)

    def deal_one_each(self, players: Sequence[str], first: str) -> None:
        start = players.index(first)
        pile, hands = self.pile, self.hands
        if len(pile) >= len(players):  # the usual deal: no reshuffle on the way
            for i in range(start, start + len(players)):
                hands[players[i % len(players)]][pile.pop()] += 1
            return
        for i in range(len(players)):
            if not self.pile:
                self.pile, self.discards, self.seen = self.discards, [], Counter()
                self.rng.shuffle(self.pile)
            if not self.pile:
                return
            self.hands[players[(start + i) % len(players)]][self.pile.pop()] += 1

    def played(self) -> Counter:
        """What the table has seen since the last reshuffle: the discard pile."""
        return self.seen


def play_cloud9(bots: Sequence[str], seed: int, watch=None) -> GameResult:
    """One whole game; the first pilot's seat turns with the seed so no bot always starts.
    `watch(state, deck)`, if given, sees every state after its deal."""
    rng = random.Random(seed)
    players = seat_names(bots)
    policy = {name: POLICIES[bot] for name, bot in zip(players, bots)}
    state: Cloud9State = RULES.setup({"players": players, "first_pilot": players[seed % len(players)]})
    deck = VirtualDeck(players, rng)
    hands = deck.hands
    apply = RULES.apply
    random_share = rng.random
    faces = len(DIE)
    rolls, trip_rolls, this_trip = 0, [], 0
    action: dict[str, Any]
    for _ in range(ACTION_LIMIT):
        dice = state.dice
        if dice is None:  # the roll, or the game is over (an end leaves no dice)
            if state.over:
                break
            if state.solo and policy[state.pilot](state, deck.seen):
                action = {"act": "jump", "player": state.pilot}
            else:
                # what rng.choices(DIE, k=n) draws, the same numbers, without its call's overhead
                action = {"act": "roll", "dice": [DIE[int(random_share() * faces)] for _ in DICE_RANGES[state.cloud]]}
                rolls += 1
                this_trip += 1
        elif state.deciders:
            who = state.deciders[0]
            action = {"act": "jump" if policy[who](state, deck.seen) else "stay", "player": who}
        else:
            pilot = state.pilot
            action = pilot_action(dice, hands[pilot])
            if action["act"] == "rise":
                deck.play(pilot, action["cards"])
        trip = state.trip
        state = apply(state, action)
        if state.trip != trip:  # step 4: a new trip, everyone draws one
            deck.deal_one_each(players, state.pilot)
            trip_rolls.append(this_trip)
            this_trip = 0
        elif state.over:
            trip_rolls.append(this_trip)
        if watch is not None:
            watch(state, deck)
    else:
        raise SimulationError(f"game {seed} did not end within {ACTION_LIMIT} actions")
    return GameResult(RULES._winners(state), state.trip, rolls, trip_rolls)


def _play_range(bots: tuple[str, ...], seed: int, start: int, stop: int) -> dict:
    """The totals of games start..stop-1 (integers and exact fractions: order-free sums)."""
    wins: dict[str, Fraction] = {}
    trips = rolls = trip_count = 0
    for i in range(start, stop):
        result = play_cloud9(bots, game_seed(seed, i))
        share = Fraction(1, len(result.winners))
        for w in result.winners:
            wins[w] = wins.get(w, 0) + share
        trips += result.trips
        rolls += result.rolls
        trip_count += len(result.trip_rolls)
    return {"wins": wins, "trips": trips, "rolls": rolls, "trip_count": trip_count}


def game_seed(seed: int, game: int) -> int:
    """Game `game`'s own seed: the same whoever plays it and in whatever order."""
    return seed * 1_000_003 + game


def simulate_cloud9(bots: Sequence[str], games: int, seed: int = 0, jobs: int = 1) -> dict:
    """Win rates (a shared win split evenly), mean game length in trips and rolls, mean trip
    length in rolls, over `games` games."""
    bots = tuple(bots)
    names = seat_names(bots)
    if games < 1:
        raise SimulationError("--games must be 1 or more")
    if jobs < 1:
        raise SimulationError("--jobs must be 1 or more")
    chunks = _chunks(games, jobs)
    if jobs == 1 or len(chunks) == 1:
        parts = [_play_range(bots, seed, a, b) for a, b in chunks]
    else:
        from concurrent.futures import ProcessPoolExecutor  # multiprocessing: only for several cores

        with ProcessPoolExecutor(max_workers=jobs) as pool:
            parts = list(pool.map(_play_range, *zip(*[(bots, seed, a, b) for a, b in chunks])))
    wins: dict[str, Fraction] = {n: Fraction(0) for n in names}
    trips = rolls = trip_count = 0
    for part in parts:
        for name, w in part["wins"].items():
            wins[name] += w
        trips += part["trips"]
        rolls += part["rolls"]
        trip_count += part["trip_count"]
    return {
        "game": "cloud9",
        "games": games,
        "seed": seed,
        "bots": list(names),
        "win_rate": {n: round(float(w / games), 6) for n, w in wins.items()},
        "mean_trips_per_game": round(trips / games, 4),
        "mean_rolls_per_game": round(rolls / games, 4),
        "mean_rolls_per_trip": round(rolls / trip_count, 4),
    }


def _chunks(games: int, jobs: int) -> list[tuple[int, int]]:
    size = max(1, -(-games // (jobs * 16)))  # many small chunks: no process waits long for the last
    return [(a, min(a + size, games)) for a in range(0, games, size)]
