"""Cloud 9: balloon trips, passengers' decisions, scores and public hand sizes (3 to 6 players).

Rulebook: Cloud 9's English and German editions;
board data and readings: docs/rulings.md, "Cloud 9".

A turn goes roll -> decide (each passenger jumps or stays, in seat order from the pilot's
left) -> resolve (the pilot makes the balloon rise with cards, or it falls). Hands are only
counted, never seen: the companion trusts the pilot's "fall" (ruling 4).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations_with_replacement
from math import factorial, prod
from typing import Any

from .common import (
    N_,
    Action,
    Listing,
    Outcome,
    RulesError,
    Term,
    best,
    canonical_action,
    evolve,
    next_seat,
    player_field,
    setup_player_choice,
    setup_players,
    string_list,
    string_tuple,
)

# --- board data (docs/rulings.md, "Board data": printed on the board, not in the rulebook) --

# points for jumping out on each cloud; reaching the top cloud scores TOP_POINTS for all aboard
POINTS = {1: 1, 2: 2, 3: 4, 4: 6, 5: 9, 6: 12, 7: 15, 8: 20}
TOP_CLOUD = 9
TOP_POINTS = 25
# dice the pilot rolls on each cloud
DICE = {1: 2, 2: 2, 3: 2, 4: 3, 5: 3, 6: 3, 7: 4, 8: 4}

COLOURS = ("red", "yellow", "green", "purple")
BLANK = "blank"
FACES = COLOURS + (BLANK,)
WILD = "wild"
CARDS = COLOURS + (WILD,)
# each die: one face per colour and two blank faces
FACE_WEIGHTS = {**dict.fromkeys(COLOURS, 1), BLANK: 2}
DIE_SIDES = sum(FACE_WEIGHTS.values())

# ruling 5: 72 balloon cards and 4 wild cards; 6 dealt to each player
DECK_SIZE = 18 * len(COLOURS) + 4
HAND_SIZE = 6

# "Winning the Game": the game ends after a fall once someone has this many points
WINNING_SCORE = 50

# the rules a refusal names (rulebook sections and docs/rulings.md readings)
RULE_STEP_1 = "playing the game, step 1"
RULE_STEP_2 = "playing the game, step 2"
RULE_STEP_3 = "playing the game, step 3"
RULE_SOLO = "flying solo"
RULE_WINNING = "winning the game"
RULE_BLANK_ROLL = "ruling 3"
RULE_HAND = "ruling 4"
RULE_CONTRACT = "replay contract"

# the fields each action has (others are ignored), and the multisets among them
ACTION_FIELDS = {"roll": ("dice",), "jump": ("player",), "stay": ("player",), "rise": ("cards",), "fall": ()}
MULTISETS = {"dice": FACES, "cards": CARDS}


def cards_needed(dice: tuple[str, ...]) -> list[str]:
    """Ruling 3: one card of the die's colour per non-blank die (blank dice need nothing)."""
    return sorted(f for f in dice if f != BLANK)


@lru_cache(maxsize=1024)
def _needed(dice: tuple[str, ...]) -> list[str]:
    # cards_needed once per roll (a few hundred exist); the list is only compared, never handed out
    return cards_needed(dice)


def rise_cost(dice: tuple[str, ...], cards: list[str]) -> int:
    """How many cards a rise with `cards` spends, or RulesError if they do not match the roll.

    Ruling 3: the matching colours (any order) or a single wild card instead; an all-blank
    roll needs no card at all.
    """
    needed = _needed(dice)
    if not needed:
        if cards:
            raise RulesError("every die is blank: the balloon rises without any card", RULE_BLANK_ROLL)
        return 0
    if cards == [WILD] or sorted(cards) == needed:
        return len(cards)
    raise _cards_refused(needed)


def may_fall(dice: tuple[str, ...]) -> bool:
    """Ruling 3: a roll of only blank faces needs no card, so the pilot must rise."""
    return bool(_needed(tuple(dice)))


def seats_after(players: tuple[str, ...], name: str) -> tuple[str, ...]:
    """Every seat going left from `name` (ruling 1: clockwise), `name` itself last."""
    i = players.index(name) + 1
    return players[i:] + players[:i]


def next_pilot(state: Cloud9State) -> str:
    """Step 3: after a rise the pilot's role moves left, skipping those no longer aboard
    (back to the pilot when nobody else is left)."""
    return (passengers_in_order(state) or (state.pilot,))[0]


def next_trip_pilot(players: tuple[str, ...], last_pilot: str) -> str:
    """Ruling 6 / step 4: the player to the left of the pilot of the turn the trip ended in."""
    return next_seat(players, last_pilot)


def game_ends(fell: bool, scores: tuple[int, ...]) -> bool:
    """Ruling 7: only a trip that ended in a fall (a solo jump-out included) can end the game."""
    return fell and max(scores) >= WINNING_SCORE


def _cards_refused(needed: list[str]) -> RulesError:
    """The cards a roll needs, said in full ("1 red and 2 green cards"): one sentence per
    number of colours, so that each language can phrase the whole list its own way."""
    counts = Counter(needed)
    colours = [c for c in COLOURS if counts[c]]
    params: dict[str, int | Term] = {}
    for i, colour in enumerate(colours, start=1):
        params[f"count{i}"], params[f"colour{i}"] = counts[colour], Term(colour)
    rule = RULE_STEP_1
    if len(needed) == 1:
        return RulesError("the roll needs {count1} {colour1} card, or one wild card", rule, **params)
    if len(colours) == 1:
        return RulesError("the roll needs {count1} {colour1} cards, or one wild card", rule, **params)
    if len(colours) == 2:
        return RulesError(
            "the roll needs {count1} {colour1} and {count2} {colour2} cards, or one wild card", rule, **params
        )
    if len(colours) == 3:
        return RulesError(
            "the roll needs {count1} {colour1}, {count2} {colour2} and {count3} {colour3} cards, or one wild card",
            rule,
            **params,
        )
    return RulesError(
        "the roll needs {count1} {colour1}, {count2} {colour2}, {count3} {colour3} and "
        "{count4} {colour4} cards, or one wild card",
        rule,
        **params,
    )


@dataclass(frozen=True)
class Cloud9State:
    players: tuple[str, ...]
    scores: tuple[int, ...]  # points, in seat order
    hands: tuple[int, ...]  # cards held, in seat order (ruling 5)
    draw_pile: int
    discards: int
    trip: int
    cloud: int
    pilot: str
    basket: tuple[str, ...]  # names aboard, in seat order
    deciders: tuple[str, ...]  # passengers still to decide this turn, head first
    dice: tuple[str, ...] | None  # the roll being resolved; None before the roll
    solo: bool  # the pilot flies alone after a rise (ruling 8)
    over: bool = False

    @property
    def phase(self) -> str:
        if self.over:
            return "over"
        if self.dice is None:
            return "roll"
        return "decide" if self.deciders else "resolve"

    def score(self, name: str) -> int:
        return self.scores[self.players.index(name)]

    def hand(self, name: str) -> int:
        return self.hands[self.players.index(name)]


def passengers_in_order(state: Cloud9State) -> tuple[str, ...]:
    """Ruling 2: everyone aboard but the pilot, starting left of the pilot and going round."""
    return _passengers(state.players, state.pilot, state.basket)


@lru_cache(maxsize=4096)
def _passengers(players: tuple[str, ...], pilot: str, basket: tuple[str, ...]) -> tuple[str, ...]:
    # a table meets the same few baskets again and again: each is worked out once
    return tuple(p for p in seats_after(players, pilot)[:-1] if p in basket)


def _their_turn(state: Cloud9State, action: Action) -> bool:
    """The usual decision, recognised first: from the passenger whose turn it is (deciders are
    set only by a roll and never hold the pilot), so nothing else needs checking."""
    return bool(state.deciders) and action.get("player") == state.deciders[0]


def _with(values: tuple[int, ...], players: tuple[str, ...], names: Iterable[str], delta: int) -> tuple[int, ...]:
    out = list(values)
    for name in names:
        out[players.index(name)] += delta
    return tuple(out)


def _with_one(values: tuple[int, ...], seat: int, delta: int) -> tuple[int, ...]:
    """`values` with one seat's changed by `delta` (a jump's points, a rise's cards)."""
    return values[:seat] + (values[seat] + delta,) + values[seat + 1 :]


@lru_cache(maxsize=4096)
def _without(basket: tuple[str, ...], name: str) -> tuple[str, ...]:
    # the basket after a jump: a table meets the same few baskets again and again
    return tuple(p for p in basket if p != name)


# the usual roll and rise are recognised by these (anything else takes the checks that explain
# what is wrong); a list's items are hashable strings there, so a set answers at once
_FACE_SET = frozenset(FACES)
_COLOUR_SET = frozenset(COLOURS)


def _usual_cost(dice: tuple[str, ...], cards: Any) -> int | None:
    """The cards a usual rise spends (a list of the roll's colours, a single wild card, or
    nothing for an all-blank roll), or None for anything else: the full checks then say why."""
    if type(cards) is not list:
        return None
    needed = _needed(dice)
    if not needed:
        return 0 if not cards else None
    if cards == [WILD]:
        return 1
    if len(cards) == len(needed):
        try:
            if _COLOUR_SET.issuperset(cards) and sorted(cards) == needed:
                return len(cards)
        except TypeError:  # an unhashable item: not a card
            return None
    return None


def _deal_one_each(hands: tuple[int, ...], pile: int, discards: int, start: int) -> tuple[tuple[int, ...], int, int]:
    """Ruling 5: everyone draws one card, clockwise from seat `start`; an empty draw pile is
    refilled from the discards first, and when both are empty the rest draw nothing.
    (hands, draw pile, discards) after the deal."""
    n = len(hands)
    if pile >= n:  # the usual deal: the pile holds a card for everyone
        return tuple([h + 1 for h in hands]), pile - n, discards
    dealt = list(hands)
    for i in range(n):
        if pile == 0:
            pile, discards = discards, 0
        if pile == 0:
            break
        dealt[(start + i) % n] += 1
        pile -= 1
    return tuple(dealt), pile, discards


def _end_trip(state: Cloud9State, fell: bool) -> Cloud9State:
    """The trip is over (ruling 6): the game ends, or step 4 sets up the next trip."""
    if game_ends(fell, state.scores):
        return evolve(state, over=True, dice=None, deciders=(), solo=False)
    players = state.players
    pilot = next_trip_pilot(players, state.pilot)
    hands, pile, discards = _deal_one_each(state.hands, state.draw_pile, state.discards, players.index(pilot))
    return evolve(
        state,
        trip=state.trip + 1,
        cloud=1,
        pilot=pilot,
        basket=players,
        deciders=(),
        dice=None,
        solo=False,
        hands=hands,
        draw_pile=pile,
        discards=discards,
    )


class Cloud9Rules:
    """Cloud 9's rules (common.GameRules). `setup` raises SetupError for a setup that cannot
    start a game; `apply` raises RulesError, with the reason and the rule, for any action the
    rules do not allow now; `legal_actions`, `roll_outcomes`, `canonical` and `view` never raise
    for a state the rules made."""

    name = "cloud9"
    title = "Cloud 9"
    min_players = 3
    max_players = 6

    def setup(self, config: Mapping[str, Any]) -> Cloud9State:
        """The first state: everyone aboard on cloud 1, six cards each (SetupError if not)."""
        players = setup_players(config, self.min_players, self.max_players, self.title)
        pilot = setup_player_choice(config, "first_pilot", players)
        n = len(players)
        return Cloud9State(
            players=players,
            scores=(0,) * n,
            hands=(HAND_SIZE,) * n,
            draw_pile=DECK_SIZE - HAND_SIZE * n,
            discards=0,
            trip=1,
            cloud=1,
            pilot=pilot,
            basket=players,
            deciders=(),
            dice=None,
            solo=False,
        )

    # --- what may be played ------------------------------------------------------------------

    def legal_actions(self, state: Cloud9State) -> list[dict[str, Any]]:
        """Every action allowed now: each distinct roll, a decision, or the ways to resolve."""
        phase = state.phase
        if phase == "over":
            return []
        if phase == "roll":
            rolls = [
                {"act": "roll", "dice": list(faces)}
                for faces in combinations_with_replacement(FACES, DICE[state.cloud])
            ]
            return rolls + ([{"act": "jump", "player": state.pilot}] if state.solo else [])
        if phase == "decide":
            who = state.deciders[0]
            return [{"act": "jump", "player": who}, {"act": "stay", "player": who}]
        assert state.dice is not None  # the resolve phase follows a roll
        needed = cards_needed(state.dice)
        if not needed:
            return [{"act": "rise", "cards": []}]
        held = state.hand(state.pilot)
        options = [sorted(needed, key=CARDS.index), [WILD]]  # in the one spelling `canonical` gives
        rises = [{"act": "rise", "cards": cards} for cards in options if len(cards) <= held]
        return rises + [{"act": "fall"}]

    def roll_outcomes(self, state: Cloud9State) -> list[Outcome]:
        """Every distinct roll on the current cloud with its true probability."""
        if state.phase != "roll":
            return []
        n = DICE[state.cloud]
        out = []
        for faces in combinations_with_replacement(FACES, n):
            counts = Counter(faces)
            # multinomial: orderings of this multiset times each face's chance
            orderings = factorial(n) // prod(factorial(k) for k in counts.values())
            chance = prod((FACE_WEIGHTS[f] / DIE_SIDES) ** k for f, k in counts.items())
            out.append(Outcome({"act": "roll", "dice": list(faces)}, orderings * chance))
        return out

    def canonical(self, action: Action) -> dict[str, Any]:
        """The action's one spelling: the dice of a roll and the cards of a rise in face order
        (the rules read them as multisets), fields Cloud 9 does not read left out."""
        return canonical_action(action, ACTION_FIELDS, MULTISETS)

    # --- playing -----------------------------------------------------------------------------

    def apply(self, state: Cloud9State, action: Action) -> Cloud9State:
        """The state after `action`; RulesError when the rules do not allow it now."""
        act = action.get("act")
        if state.over:
            raise RulesError(
                "the game is over: {winners} won", RULE_WINNING, winners=Listing(self._winners(state), "and")
            )
        handler = _HANDLERS.get(act) if isinstance(act, str) else None
        if handler is None:
            raise RulesError(
                "{act!r} is not an action in Cloud 9 (roll, jump, stay, rise or fall)", RULE_CONTRACT, act=act
            )
        return handler(self, state, action)

    def _roll(self, state: Cloud9State, action: Action) -> Cloud9State:
        if state.dice is not None:  # not the roll (apply has refused a game that is over)
            raise self._waiting_for(state, RULE_STEP_1)
        want = DICE[state.cloud]
        dice: Any = action.get("dice")
        try:  # the usual roll: a list of `want` die faces
            if type(dice) is list and len(dice) == want and _FACE_SET.issuperset(dice):
                return evolve(state, dice=tuple(dice), deciders=_passengers(state.players, state.pilot, state.basket))
        except TypeError:  # an unhashable item: not a face, refused by the checks below
            pass
        faces = string_tuple(action, "dice", FACES, N_("a list of die faces"))
        if len(faces) != want:
            raise RulesError(
                "the pilot rolls {want} dice on cloud {cloud}, not {count}",
                RULE_STEP_1,
                want=want,
                cloud=state.cloud,
                count=len(faces),
            )
        return evolve(state, dice=faces, deciders=passengers_in_order(state))

    def _jump(self, state: Cloud9State, action: Action) -> Cloud9State:
        if not _their_turn(state, action):
            player = player_field(action, state.players)
            if state.solo and player == state.pilot and state.phase == "roll":
                # ruling 8: the solo pilot jumps out before rolling; the balloon then falls
                scored = evolve(
                    state, scores=_with(state.scores, state.players, [player], POINTS[state.cloud]), basket=()
                )
                return _end_trip(scored, fell=True)
            self._check_decider(state, player, jumping=True)
        deciders = state.deciders
        player = deciders[0]
        return evolve(
            state,
            scores=_with_one(state.scores, state.players.index(player), POINTS[state.cloud]),
            basket=_without(state.basket, player),
            deciders=deciders[1:],
        )

    def _stay(self, state: Cloud9State, action: Action) -> Cloud9State:
        deciders = state.deciders
        if deciders and action.get("player") == deciders[0]:  # the usual stay (_their_turn)
            return evolve(state, deciders=deciders[1:])
        if not _their_turn(state, action):
            player = player_field(action, state.players)
            if state.solo and player == state.pilot and state.phase == "roll":
                raise RulesError("{player} flies solo: staying in is simply rolling the dice", RULE_SOLO, player=player)
            self._check_decider(state, player, jumping=False)
        return evolve(state, deciders=state.deciders[1:])

    def _check_decider(self, state: Cloud9State, player: str, jumping: bool) -> None:
        """Ruling 2: only the passenger whose turn it is decides, and only after the roll.

        Jumping out and staying in are refused in sentences of their own (not a verb put into
        one sentence), so that every language gets whole sentences to translate.
        """
        if player not in state.basket:
            raise RulesError("{player} has already jumped out of this trip", RULE_STEP_2, player=player)
        if player == state.pilot and state.solo:
            raise RulesError("{player} flies solo and decides before rolling, not after", RULE_SOLO, player=player)
        if player == state.pilot:
            if jumping:
                raise RulesError(
                    "{player} is the pilot and cannot jump out unless flying solo", RULE_STEP_2, player=player
                )
            raise RulesError("{player} is the pilot: only the passengers decide to stay in", RULE_STEP_2, player=player)
        if state.phase == "roll":
            if jumping:
                raise RulesError(
                    "{player} cannot jump out yet: {pilot} rolls the dice first",
                    RULE_STEP_2,
                    player=player,
                    pilot=state.pilot,
                )
            raise RulesError(
                "{player} cannot stay in yet: {pilot} rolls the dice first",
                RULE_STEP_2,
                player=player,
                pilot=state.pilot,
            )
        if state.phase == "resolve":
            raise RulesError(
                "every passenger has decided: {pilot} makes the balloon rise or fall", RULE_STEP_3, pilot=state.pilot
            )
        who = state.deciders[0]
        if player != who:
            if jumping:
                raise RulesError(
                    "{player} cannot jump out yet: {who} decides first", RULE_STEP_2, player=player, who=who
                )
            raise RulesError("{player} cannot stay in yet: {who} decides first", RULE_STEP_2, player=player, who=who)

    def _rise(self, state: Cloud9State, action: Action) -> Cloud9State:
        if state.dice is None or state.deciders:  # not the resolve (a game over is refused by apply)
            raise self._waiting_for(state, RULE_STEP_3)
        cost = _usual_cost(state.dice, action.get("cards"))
        if cost is None:  # not the usual rise: the checks say what is wrong with it
            cards = string_list(action, "cards", CARDS, N_("a list of balloon cards"))
            cost = rise_cost(state.dice, cards)
        seat = state.players.index(state.pilot)
        held = state.hands[seat]
        if cost > held:  # ruling 4
            if held == 1:
                raise RulesError(
                    "{pilot} holds {held} card and cannot play {cost}",
                    RULE_HAND,
                    pilot=state.pilot,
                    held=held,
                    cost=cost,
                )
            raise RulesError(
                "{pilot} holds {held} cards and cannot play {cost}", RULE_HAND, pilot=state.pilot, held=held, cost=cost
            )
        hands = _with_one(state.hands, seat, -cost)
        cloud = state.cloud + 1
        if cloud == TOP_CLOUD:
            # step 3: everyone aboard, the pilot too, scores 25 and a new trip begins
            scores = _with(state.scores, state.players, state.basket, TOP_POINTS)
            risen = evolve(
                state, hands=hands, discards=state.discards + cost, cloud=cloud, dice=None, deciders=(), scores=scores
            )
            return _end_trip(risen, fell=False)
        return evolve(
            state,
            hands=hands,
            discards=state.discards + cost,
            cloud=cloud,
            dice=None,
            deciders=(),
            pilot=next_pilot(state),
            solo=len(state.basket) == 1,
        )

    def _fall(self, state: Cloud9State, action: Action) -> Cloud9State:
        if state.dice is None or state.deciders:  # not the resolve (a game over is refused by apply)
            raise self._waiting_for(state, RULE_STEP_3)
        if not _needed(state.dice):  # may_fall
            raise RulesError("every die is blank: the balloon must rise (with no cards)", RULE_BLANK_ROLL)
        return _end_trip(state, fell=True)

    def _waiting_for(self, state: Cloud9State, rule: str) -> RulesError:
        """What the game waits for now, said as a refusal of anything else."""
        phase = state.phase
        if phase == "roll":
            if state.solo:
                return RulesError(
                    "{pilot} flies solo and must jump out or roll the dice first", rule, pilot=state.pilot
                )
            return RulesError("{pilot} must roll the dice first", rule, pilot=state.pilot)
        if phase == "decide":
            return RulesError("{who} must decide first: jump out or stay in", rule, who=state.deciders[0])
        return RulesError("the dice are rolled: {pilot} makes the balloon rise or fall", rule, pilot=state.pilot)

    # --- the public state ----------------------------------------------------------------------

    def _winners(self, state: Cloud9State) -> list[str]:
        # "Winning the game" and ruling 5: most points, then the larger hand; else shared
        top = best(state.players, state.score)
        return best(top, state.hand)

    def view(self, state: Cloud9State) -> dict[str, Any]:
        """The replay contract's public state (with the project's extra keys)."""
        return {
            "game": self.name,
            "players": list(state.players),
            "over": state.over,
            "phase": state.phase,
            "winners": self._winners(state) if state.over else [],
            "scores": dict(zip(state.players, state.scores)),
            "cloud": state.cloud,
            "pilot": state.pilot,
            "basket": list(state.basket),
            "to_decide": state.deciders[0] if state.phase == "decide" else None,
            "hands": dict(zip(state.players, state.hands)),
            "draw_pile": state.draw_pile,
            "discards": state.discards,
            "trip": state.trip,
            "dice": list(state.dice) if state.dice is not None else None,
            # project extras: the solo flight, what this cloud pays and rolls, who decides next
            "solo": state.solo,
            "points_here": POINTS[state.cloud],
            "dice_here": DICE[state.cloud],
            "decide_order": list(state.deciders),
            "cards_needed": cards_needed(state.dice) if state.dice is not None else None,
        }


# looked up once per action: a module global, not the class's attribute
_HANDLERS = {
    "roll": Cloud9Rules._roll,
    "jump": Cloud9Rules._jump,
    "stay": Cloud9Rules._stay,
    "rise": Cloud9Rules._rise,
    "fall": Cloud9Rules._fall,
}

RULES = Cloud9Rules()
