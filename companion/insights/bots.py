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
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

from ..rules.cloud9 import (
    POINTS,
    TOP_CLOUD,
    TOP_POINTS,
    WILD,
    WINNING_SCORE,
    Cloud9Rules,
    Cloud9State,
    cards_needed,
    passengers_in_order,
)
from .odds import rise_chance_trusted as rise_chance

Policy = Callable[[Cloud9State, Mapping[str, int]], bool]

# the share the odds bot counts of the estimated staying value above what a rise makes sure
# of: the best of 0.4 to 1.25 in simulations against cautious and bold (docs/insights.md, "Bots
# and simulation")
STAY_DISCOUNT = 0.6


def cautious(state: Cloud9State, played: Mapping[str, int]) -> bool:
    """Jumps out as soon as the rise looks at all doubtful: when the roll needs two or more
    cards, or the pilot holds fewer than three. A solo pilot takes the points at once."""
    dice = state.dice
    if dice is None:
        return True
    need = len(_needs(dice)[0])
    return need >= 2 or (need == 1 and state.hands[state.players.index(state.pilot)] < 3)


def bold(state: Cloud9State, played: Mapping[str, int]) -> bool:
    """Stays in for the big clouds: jumps out only from cloud 7 (15 points) up, or when the
    pilot plainly cannot pay (holds no cards at all and the roll needs one)."""
    if state.cloud >= 7:
        return True
    dice = state.dice
    if dice is None:
        return False
    return state.hands[state.players.index(state.pilot)] == 0 and bool(_needs(dice)[0])


def by_odds(state: Cloud9State, played: Mapping[str, int]) -> bool:
    """Weighs the points banked now against what staying is worth, and keeps an eye on the
    race to 50.

    Staying is worth the exact chance that this pilot rises (this roll, this hand, the cards
    seen) times the value of being aboard one cloud higher (`aboard_value`: 25 at the top;
    below it, what choosing well on every cloud still to come is worth, the turns this
    player must fly as pilot, unable to jump out, included). The higher clouds use the full
    deck's odds and the hand the players aboard hold on average: an estimate, cached, as the
    exact figure would need hands nobody can see. What a rise makes sure of (the top's 25,
    or the next cloud's points for a passenger who can jump out there) counts in full, the
    hoped-for rest only at STAY_DISCOUNT: points banked are safe, expected points are not,
    and the game is a race, not an average.

    The race comes first: jump out when these points lift this player to 50 or more and
    ahead of everyone (the next fall then ends the game in their favour); stay in when
    someone else already has 50 and these points would not overtake them (jumping out would
    only lose later). A solo pilot compares this cloud's points with the chance of rising
    (averaged over every roll) times the value of flying on alone.
    """
    dice = state.dice
    me = state.deciders[0] if dice is not None else state.pilot
    cloud = state.cloud
    here = POINTS[cloud]
    players, scores, hands = state.players, state.scores, state.hands
    seat = players.index(me)
    after_jump = scores[seat] + here
    rivals = max(scores[:seat] + scores[seat + 1 :])
    if after_jump >= WINNING_SCORE and after_jump > rivals:
        return True
    if rivals >= WINNING_SCORE and after_jump <= rivals:
        return False
    up = cloud + 1
    if dice is None:  # the solo pilot, before the roll: every roll the dice can make
        own = hands[seat]
        stake = aboard_value(up, own, 1, 0)
        # the chance is at most 1: no need to work it out when even a sure rise is worth less
        return here >= stake or here >= stake * sum(p * rise_chance(roll, own, played) for p, roll in _rolls(cloud))
    basket = state.basket
    aboard = len(basket)
    held = sum(hands) if aboard == len(players) else sum([hands[players.index(p)] for p in basket])
    typical = round(held / aboard)
    turn = passengers_in_order(state).index(me)
    value = aboard_value(up, typical, aboard, turn)
    # what a rise makes sure of: the top's 25, or the next cloud's points for a passenger
    sure = TOP_POINTS if up == TOP_CLOUD else POINTS[up] if turn else 0
    stake = sure + STAY_DISCOUNT * (value - sure)
    return here >= stake or here >= stake * rise_chance(dice, hands[players.index(state.pilot)], played)


@cache
def rise_prior(cloud: int, hand: int) -> tuple[tuple[float, float], ...]:
    """(probability of the roll, chance a pilot holding `hand` cards pays for it) for every
    roll on `cloud`, with no card seen."""
    return tuple((p, rise_chance(dice, hand, {})) for p, dice in _rolls(cloud))


@cache
def aboard_value(cloud: int, hand: int, aboard: int, turn: int) -> float:
    """Expected points of a player aboard on `cloud` before the roll, with `aboard` players in
    the basket, who is the pilot `turn` rises from now (0: now), while every pilot holds
    `hand` cards. A passenger takes the better of jumping out and staying after each roll;
    the pilot cannot jump out; a solo pilot decides before the roll (ruling 8)."""
    if cloud == TOP_CLOUD:
        return TOP_POINTS
    if aboard == 1:
        roll_on = aboard_value(cloud + 1, hand, 1, 0)
        return max(POINTS[cloud], sum(p * q * roll_on for p, q in rise_prior(cloud, hand)))
    if turn == 0:
        up = aboard_value(cloud + 1, hand, aboard, aboard - 1)
        return sum(p * q * up for p, q in rise_prior(cloud, hand))
    up = aboard_value(cloud + 1, hand, aboard, turn - 1)
    return sum(p * max(POINTS[cloud], q * up) for p, q in rise_prior(cloud, hand))


def _rolls(cloud: int) -> list[tuple[float, tuple[str, ...]]]:
    """(probability, dice) of every roll on a cloud (the rules core's own list, cached)."""
    if cloud not in _ROLLS:
        probe = Cloud9State(
            players=("a",),
            scores=(0,),
            hands=(0,),
            draw_pile=0,
            discards=0,
            trip=1,
            cloud=cloud,
            pilot="a",
            basket=("a",),
            deciders=(),
            dice=None,
            solo=False,
        )
        _ROLLS[cloud] = [(o.probability, tuple(o.action["dice"])) for o in Cloud9Rules().roll_outcomes(probe)]
    return _ROLLS[cloud]


_ROLLS: dict[int, list[tuple[float, tuple[str, ...]]]] = {}

POLICIES: dict[str, Policy] = {"cautious": cautious, "bold": bold, "odds": by_odds}


@cache
def _needs(dice: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[tuple[str, int], ...]]:
    """The cards a roll needs, as a list and counted per colour (a few hundred rolls exist)."""
    need = cards_needed(dice)
    return tuple(need), tuple(Counter(need).items())


def pilot_action(dice: tuple[str, ...], hand: Mapping[str, int]) -> dict[str, Any]:
    """Ruling 3 and 4: the matching colours if held (the wild card is kept for later), else a
    wild card, else the balloon falls. An all-blank roll rises with no card."""
    need, wanted = _needs(dice)
    if not need:
        return {"act": "rise", "cards": []}
    for colour, count in wanted:
        if hand[colour] < count:
            break
    else:  # every colour held
        return {"act": "rise", "cards": list(need)}
    if hand[WILD]:
        return {"act": "rise", "cards": [WILD]}
    return {"act": "fall"}
