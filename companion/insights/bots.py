"""Cloud 9 bots: who jumps out and who stays in, as small policies over the legal actions.

A passenger's only choice is the one the rules core offers after each roll: jump out now
(and score this cloud's points) or stay in. A solo pilot makes the same choice before each
roll. What the pilot plays is not a choice: ruling 4 says a pilot holding the cards must rise,
so `pilot_action` plays the matching colours if held, else a wild card, else falls.

Every policy sees only what the table sees: the public state and the cards played face up
since the last reshuffle (`played`). `jump(state, played)` answers for the passenger whose
turn it is (or for the solo pilot before the roll) with True to jump out.
"""

from __future__ import annotations

from collections import Counter
from typing import Callable, Mapping

from ..rules.cloud9 import (
    POINTS, TOP_CLOUD, TOP_POINTS, WILD, Cloud9Rules, Cloud9State, cards_needed,
)
from .odds import rise_chance_trusted as rise_chance

Policy = Callable[[Cloud9State, Mapping[str, int]], bool]


def _points_next(cloud: int) -> int:
    """What staying in is worth if the balloon rises: the next cloud's points, 25 at the top."""
    return TOP_POINTS if cloud + 1 == TOP_CLOUD else POINTS[cloud + 1]


def cautious(state: Cloud9State, played: Mapping[str, int]) -> bool:
    """Jumps out as soon as the rise looks at all doubtful: when the roll needs two or more
    cards, or the pilot holds fewer than three. A solo pilot takes the points at once."""
    if state.dice is None:
        return True
    need = len(cards_needed(state.dice))
    return need >= 2 or (need == 1 and state.hand(state.pilot) < 3)


def bold(state: Cloud9State, played: Mapping[str, int]) -> bool:
    """Stays in for the big clouds: jumps out only from cloud 7 (15 points) up, or when the
    pilot plainly cannot pay (holds no cards at all and the roll needs one)."""
    if state.cloud >= 7:
        return True
    if state.dice is None:
        return False
    held = state.hand(state.pilot)
    return held == 0 and bool(cards_needed(state.dice))


def by_odds(state: Cloud9State, played: Mapping[str, int]) -> bool:
    """Weighs the points at stake with the exact chance of a rise: jumps out when this cloud's
    points are at least the chance of rising times what the next cloud pays (one step ahead).
    Before a solo roll the chance is averaged over every roll the dice can make."""
    here = POINTS[state.cloud]
    held = state.hand(state.pilot)
    if state.dice is None:
        chance = sum(o.probability * rise_chance(o.action["dice"], held, played)
                     for o in _rolls(state.cloud))
    else:
        chance = rise_chance(state.dice, held, played)
    return here >= chance * _points_next(state.cloud)


def _rolls(cloud: int):
    """The roll outcomes on a cloud (the rules core's own list, cached per cloud)."""
    if cloud not in _ROLLS:
        probe = Cloud9State(players=("a",), scores=(0,), hands=(0,), draw_pile=0, discards=0,
                            trip=1, cloud=cloud, pilot="a", basket=("a",), deciders=(), dice=None,
                            solo=False)
        _ROLLS[cloud] = Cloud9Rules().roll_outcomes(probe)
    return _ROLLS[cloud]


_ROLLS: dict[int, list] = {}

POLICIES: dict[str, Policy] = {"cautious": cautious, "bold": bold, "odds": by_odds}


def pilot_action(dice: tuple[str, ...], hand: Counter) -> dict:
    """Ruling 3 and 4: the matching colours if held (the wild card is kept for later), else a
    wild card, else the balloon falls. An all-blank roll rises with no card."""
    need = cards_needed(dice)
    if not need:
        return {"act": "rise", "cards": []}
    wanted = Counter(need)
    if all(hand[c] >= k for c, k in wanted.items()):
        return {"act": "rise", "cards": need}
    if hand[WILD]:
        return {"act": "rise", "cards": [WILD]}
    return {"act": "fall"}

