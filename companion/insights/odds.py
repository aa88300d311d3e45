"""Cloud 9: the exact chance that the pilot can make the balloon rise.

What the table knows is the roll, the pilot's hand size and every card played face up since
the last reshuffle (docs/rulings.md, ruling 5: those are exactly the cards in the discard pile).
Every other card, the pilot's hand among them, is unseen; the pilot's hand is then a uniform
draw of `hand` cards from the unseen ones, so the count of each colour in it follows the
multivariate hypergeometric distribution.

The balloon can rise when the roll is all blank (ruling 3), when the hand holds a wild card,
or when it holds the matching colours. So

    P(rise) = 1 - P(no wild and some needed colour short)
            = P(any wild) + P(no wild and every needed colour covered)

and the second term counts the hands without a wild card that hold enough of every needed
colour: colour by colour, those that cover the other colours less those among them short of
this one (`_covering_hands`). A roll needs at most four cards, so this is a handful of
binomials. All of it is integer arithmetic, divided once at the end: exact, and a few
microseconds.

The model treats the pilot's hand as random; it does not use what a "fall" revealed earlier
(a pilot who fell lacked the cards), which would need the pilot's own history of draws.
"""

from __future__ import annotations

import weakref
from collections import Counter, OrderedDict
from collections.abc import Iterable, Mapping
from fractions import Fraction
from functools import cache, lru_cache
from math import comb

from ..errors import CompanionError
from ..rules.cloud9 import BLANK, COLOURS, DECK_SIZE, FACES, WILD, Cloud9State

CARD_KINDS = COLOURS + (WILD,)
# ruling 5: 18 balloon cards of each colour and 4 wild cards
WILD_CARDS = 4
FULL_DECK: Mapping[str, int] = {**{c: (DECK_SIZE - WILD_CARDS) // len(COLOURS) for c in COLOURS}, WILD: WILD_CARDS}


class OddsError(CompanionError, ValueError):
    """What the table told does not describe a possible Cloud 9 moment (one line, for the CLI)."""


def unseen_cards(played: Mapping[str, int], deck: Mapping[str, int] = FULL_DECK) -> dict[str, int]:
    """Each kind's cards not played face up since the last reshuffle."""
    for kind, count in played.items():
        if kind not in deck:
            raise OddsError(f"{kind!r} is not a card: {', '.join(deck)}")
        if not isinstance(count, int) or count < 0:
            raise OddsError(f"{kind}={count!r}: a count of cards must be a whole number, 0 or more")
        if count > deck[kind]:
            raise OddsError(f"{kind}={count}: the deck has only {deck[kind]} {kind} cards")
    return {kind: deck[kind] - played.get(kind, 0) for kind in deck}


def rise_chance_exact(
    roll: Iterable[str], hand: int, played: Mapping[str, int] | None = None, deck: Mapping[str, int] = FULL_DECK
) -> Fraction:
    """P(the pilot holding `hand` unseen cards can pay for `roll`), as an exact fraction."""
    roll = tuple(roll)
    for face in roll:
        if face not in FACES:
            raise OddsError(f"{face!r} is not a die face: {', '.join(FACES)}")
    unseen = unseen_cards(played or {}, deck)
    if not isinstance(hand, int) or hand < 0:
        raise OddsError(f"a hand of {hand!r} cards: the hand size is a whole number, 0 or more")
    total = sum(unseen.values())
    if hand > total:
        raise OddsError(f"a hand of {hand} cards, but only {total} cards are unseen")
    favourable, hands = _hands_that_rise(*_chance_key(roll, hand, unseen))
    return Fraction(favourable, hands)


def _chance_key(roll: tuple[str, ...], hand: int, unseen: Mapping[str, int]) -> tuple:
    """What the chance depends on, and nothing more, so that one cache entry serves many
    moments: for each needed colour (how many the roll needs, how many are unseen), sorted
    (which colour it is does not matter), then the unseen wild cards, all unseen cards and
    the hand size. An all-blank roll needs nothing."""
    covered = tuple(sorted([(k, unseen.get(colour, 0)) for colour, k in _needed(roll)]))
    return covered, unseen.get(WILD, 0), sum(unseen.values()), hand


@cache
def _needed(roll: tuple[str, ...]) -> tuple[tuple[str, int], ...]:
    """Each colour a roll needs and how many (a few hundred rolls exist)."""
    need = Counter(roll)
    need.pop(BLANK, None)
    return tuple(need.items())


def rise_chance_trusted(roll: tuple[str, ...], hand: int, played: Mapping[str, int]) -> float:
    """rise_chance for input already known to be possible (the simulation's own cards):
    the same number, without the checks a person's input needs."""
    seen = played.get
    covered = tuple(sorted([(k, FULL_DECK[colour] - seen(colour, 0)) for colour, k in _needed(roll)]))
    favourable, hands = _hands_that_rise(covered, WILD_CARDS - seen(WILD, 0), DECK_SIZE - sum(played.values()), hand)
    return favourable / hands  # int / int: the correctly rounded float


def rise_chance(
    roll: Iterable[str], hand: int, played: Mapping[str, int] | None = None, deck: Mapping[str, int] = FULL_DECK
) -> float:
    """The same chance as the nearest float."""
    return float(rise_chance_exact(roll, hand, played, deck))


@lru_cache(maxsize=65536)
def _hands_that_rise(covered: tuple[tuple[int, int], ...], wilds: int, total: int, hand: int) -> tuple[int, int]:
    """(hands that can pay, all possible hands) of `hand` cards from `total` unseen ones,
    `wilds` of them wild, where `covered` lists (needed, unseen) for each colour the roll
    needs."""
    if not covered:
        return 1, 1  # ruling 3: an all-blank roll rises without cards
    all_hands = comb(total, hand)
    no_wild = total - wilds
    return all_hands - comb(no_wild, hand) + _covering_hands(covered, no_wild, hand), all_hands


def _covering_hands(covered: tuple[tuple[int, int], ...], pool: int, hand: int) -> int:
    """Hands of `hand` cards from `pool` cards that hold at least `needed` of each colour in
    `covered`: those that cover the other colours, less those among them that hold fewer
    than needed of the first colour (x of its n cards, the rest from the other cards)."""
    if hand < 0:
        return 0
    if not covered:
        return comb(pool, hand)
    (needed, n), rest = covered[0], covered[1:]
    short = sum(comb(n, x) * _covering_hands(rest, pool - n, hand - x) for x in range(min(needed, n + 1)))
    return _covering_hands(rest, pool, hand) - short


def played_since_reshuffle(states: Iterable[Cloud9State], actions: Iterable[Mapping]) -> Counter:
    """The cards played face up since the last reshuffle, from a game's states and actions.

    `states` holds the state before each action and then the one after the last (one more
    than `actions`). Every rise puts its cards on the discard pile; when a deal refills the
    draw pile the discards are shuffled in and nothing is seen any more (ruling 5).
    """
    states = iter(states)
    before = next(states)
    played: Counter = Counter()
    for action, after in zip(actions, states):
        played = _played_after(played, before, action, after)
        before = after
    return played


def _played_after(played: Counter, before: Cloud9State, action: Mapping, after: Cloud9State) -> Counter:
    """The cards seen once `action` led from `before` to `after`, `played` seen before it."""
    spent = action.get("cards", []) if action.get("act") == "rise" else []
    if after.discards < before.discards + len(spent):  # the discards went back in
        return Counter()
    return played + Counter(spent) if spent else played


# what was seen at each step of the games on the table, by the step's identity: a new step
# adds its own action to its parent's (a rebuild after each press read the whole history)
PLAYED_STEPS = 512
_played_at: OrderedDict[int, tuple[weakref.ref, Counter]] = OrderedDict()


def match_played(match) -> Counter:
    """played_since_reshuffle over a rules Match's history (undone actions left out)."""
    path, step, played = [], match.current, None
    while step is not None:
        known = _played_at.get(id(step))
        if known is not None and known[0]() is step:
            played = known[1]
            break
        path.append(step)
        step = step.before
    for step in reversed(path):
        played = Counter() if played is None else _played_after(played, step.before.state, step.action, step.state)
        _played_at[id(step)] = (weakref.ref(step), played)
    _played_at.move_to_end(id(match.current))
    while len(_played_at) > PLAYED_STEPS:
        _played_at.popitem(last=False)
    return Counter(played)


def pilot_rise_chance(match) -> float | None:
    """The chance the current pilot can rise, or None when there is no roll to pay for."""
    state = match.state
    if getattr(state, "dice", None) is None or state.over:
        return None
    try:
        return rise_chance(state.dice, state.hand(state.pilot), match_played(match))
    except OddsError:
        # the rules core cannot see the cards, so a mistaken entry (a fifth wild card) is
        # accepted there; a record no real deck could give has no odds to show
        return None
