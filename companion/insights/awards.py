"""A game's story and its small awards, from the rebuilt Match and the actions that stand.

Pure functions, plain data, no pygame: the end screen and the recap picture draw them.

- Cloud 9, trip by trip: who piloted first, the highest cloud reached, how it ended (a fall, the
  top cloud, or everyone jumping out), each player's points in the trip and their hand after it
  (the hand breaks a tie on points).
- Cloudship, round by round: the commander, how far the storm moved, the flowers planted, the
  flowers hail took back.
- The Cloud Mine, round by round: the Dreamer, the Chooser, who found the card (or nobody), the
  cards each player took in each role; and whether the deck ran out.
- Awards: Cloud 9 "boldest stay" (the highest cloud a passenger stayed on), "best trip" (the
  most points in one trip), "highest flight" (who was aboard at the highest cloud of a trip
  that fell); Cloudship "best commander" (most flowers planted in their rounds); The Cloud
  Mine "sharpest guesser" (most right guesses) and "richest Dreamer" (most cards as Dreamer).
  Every award names players of the game; a tie names each of them.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ..rules import Match
from ..rules.cloud9 import TOP_CLOUD
from ..rules.cloudmine import cards_per_round


def steps(match: Match) -> Iterator[tuple[Any, dict, Any]]:
    """(state before, action, state after) for every action that stands, in order."""
    out, step = [], match.current
    while step.before is not None:
        out.append((step.before.state, step.action, step.state))
        step = step.before
    return reversed(out)


# --- Cloud 9 ---------------------------------------------------------------------------------


@dataclass
class Trip:
    number: int
    pilot: str  # the trip's first pilot
    highest: int  # the highest cloud the basket reached
    ending: str  # "fall", "top", "jumped" (a solo pilot jumped out) or "playing"
    points: dict[str, int]  # points each player scored in the trip
    hands: dict[str, int]  # cards each player held after it
    aboard_at_highest: tuple[str, ...] = ()


def cloud9_trips(match: Match) -> list[Trip]:
    trips: list[Trip] = []
    start = None
    highest = 0  # with `start`, set from the first step
    aboard: tuple[str, ...] = ()
    for before, action, after in steps(match):
        if start is None:
            start, highest, aboard = before, before.cloud, before.basket
        players = before.players
        if after.trip == before.trip and not after.over and after.cloud > highest:
            highest, aboard = after.cloud, after.basket  # as the basket arrived there
        if after.trip != before.trip or after.over:
            act = action.get("act")
            if act == "rise":  # the top cloud: everyone aboard scores
                highest, aboard, ending = TOP_CLOUD, before.basket, "top"
            else:
                ending = "fall" if act == "fall" else "jumped"
            trips.append(
                Trip(
                    before.trip,
                    start.pilot,
                    highest,
                    ending,
                    {p: a - b for p, a, b in zip(players, after.scores, start.scores)},
                    dict(zip(players, after.hands)),
                    tuple(aboard),
                )
            )
            start, highest, aboard = after, after.cloud, after.basket
    last = match.state
    if start is not None and not last.over and last is not start:
        trips.append(
            Trip(
                last.trip,
                start.pilot,
                highest,
                "playing",
                {p: a - b for p, a, b in zip(last.players, last.scores, start.scores)},
                dict(zip(last.players, last.hands)),
                tuple(aboard),
            )
        )
    return trips


# --- Cloudship -------------------------------------------------------------------------------


@dataclass
class ShipRound:
    number: int
    commander: str
    storm_moved: int  # squares the storm came closer this round
    storm: int  # where the storm stands after the round
    planted: int  # flowers planted this round
    hail_took: int  # flowers hail sent back to the engine room
    result: str | None = None  # "won" or "lost" when the game ended in this round


def cloudship_rounds(match: Match) -> list[ShipRound]:
    rounds: list[ShipRound] = []
    start = None
    for before, _action, after in steps(match):
        if start is None:
            start = before
        if after.round != before.round or (after.result and not before.result):
            rounds.append(
                ShipRound(
                    before.round,
                    before.commander,
                    after.storm - start.storm,
                    after.storm,
                    len(after.planted),
                    len(after.removed),
                    after.result,
                )
            )
            start = after
    return rounds


# --- The Cloud Mine --------------------------------------------------------------------------


@dataclass
class MineRound:
    number: int
    dreamer: str
    chooser: str
    finder: str | None  # who found the chosen card; None: the Chooser took them all
    wrong: int  # wrong guesses before the round was settled
    cards: dict[str, int]  # cards each player took this round
    roles: dict[str, str] = field(default_factory=dict)  # name -> dreamer, chooser or observer
    deck: int = 0  # cards left in the deck after the round


@dataclass
class DeckRanOut:
    left: int  # cards left in the deck
    needed: int  # cards a round needs


def cloudmine_rounds(match: Match) -> list[MineRound]:
    rounds: list[MineRound] = []
    wrong = 0
    for before, action, after in steps(match):
        if not action.get("correct"):
            wrong += 1
        if after.round != before.round or (after.over and not before.over):
            players = before.players
            roles = {
                p: "dreamer" if p == before.dreamer else "chooser" if p == before.chooser else "observer"
                for p in players
            }
            finder = action["player"] if action.get("correct") else None
            rounds.append(
                MineRound(
                    before.round,
                    before.dreamer,
                    before.chooser,
                    finder,
                    wrong,
                    {p: a - b for p, a, b in zip(players, after.scores, before.scores)},
                    roles,
                    after.deck,
                )
            )
            wrong = 0
    return rounds


def deck_ran_out(match: Match) -> DeckRanOut | None:
    """The Cloud Mine ends when the deck cannot supply another round: how it stood then."""
    state = match.state
    if match.rules.name != "cloudmine" or not state.over:
        return None
    return DeckRanOut(state.deck, cards_per_round(len(state.players)))


# --- awards ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Award:
    kind: str  # boldest_stay, best_trip, highest_flight, best_commander, ...
    players: tuple[str, ...]  # who earned it (seat order; several on a tie)
    value: int  # the cloud, the points, the flowers, the guesses, the cards
    round: int | None = None  # the trip or round it happened in, where it is one


def _best(scores: dict[str, int], players: tuple[str, ...]) -> tuple[tuple[str, ...], int] | None:
    positive = {p: v for p, v in scores.items() if v > 0}
    if not positive:
        return None
    top = max(positive.values())
    return tuple(p for p in players if positive.get(p) == top), top


def awards(match: Match) -> list[Award]:
    name = match.rules.name
    players = tuple(match.state.players)
    if name == "cloud9":
        return _cloud9_awards(match, players)
    if name == "cloudship":
        return _cloudship_awards(match, players)
    if name == "cloudmine":
        return _cloudmine_awards(match, players)
    return []


def _cloud9_awards(match: Match, players: tuple[str, ...]) -> list[Award]:
    out: list[Award] = []
    stays: dict[str, int] = {}
    for before, action, _after in steps(match):
        if action.get("act") == "stay":
            who = action["player"]
            stays[who] = max(stays.get(who, 0), before.cloud)
    found = _best(stays, players)
    if found:
        out.append(Award("boldest_stay", *found))
    trips = cloud9_trips(match)
    best_points = {p: max((t.points[p] for t in trips), default=0) for p in players}
    found = _best(best_points, players)
    if found:
        who, points = found
        trip = next(t.number for t in trips if t.points[who[0]] == points)
        out.append(Award("best_trip", who, points, trip))
    fallen = [t for t in trips if t.ending != "playing" and t.aboard_at_highest]
    if fallen:
        longest = max(fallen, key=lambda t: (t.highest, -t.number))
        aboard = tuple(p for p in players if p in longest.aboard_at_highest)
        out.append(Award("highest_flight", aboard, longest.highest, longest.number))
    return out


def _cloudship_awards(match: Match, players: tuple[str, ...]) -> list[Award]:
    planted: dict[str, int] = {}
    for r in cloudship_rounds(match):
        planted[r.commander] = planted.get(r.commander, 0) + r.planted
    found = _best(planted, players)
    return [Award("best_commander", *found)] if found else []


def _cloudmine_awards(match: Match, players: tuple[str, ...]) -> list[Award]:
    out: list[Award] = []
    right: dict[str, int] = {}
    for _before, action, _after in steps(match):
        if action.get("correct"):
            right[action["player"]] = right.get(action["player"], 0) + 1
    found = _best(right, players)
    if found:
        out.append(Award("sharpest_guesser", *found))
    dreamt: dict[str, int] = {}
    for r in cloudmine_rounds(match):
        dreamt[r.dreamer] = dreamt.get(r.dreamer, 0) + r.cards.get(r.dreamer, 0)
    found = _best(dreamt, players)
    if found:
        out.append(Award("richest_dreamer", *found))
    return out
