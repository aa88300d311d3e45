"""The Cloud Mine: roles, guessing order and card counts (3 to 8 players, 80 cards).

Rulebook: The Cloud Mine's Hungarian edition;
readings: docs/rulings.md, "The Cloud Mine".
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .common import (
    N_,
    Action,
    Outcome,
    RulesError,
    best,
    canonical_action,
    evolve,
    field,
    next_seat,
    player_field,
    setup_player_choice,
    setup_players,
)

DECK_SIZE = 80


def cards_per_round(player_count: int) -> int:
    """Ruling 3: one card per player; 4 with 3 players; 6 with 4 players."""
    return {3: 4, 4: 6}.get(player_count, player_count)


def attempts_per_observer(player_count: int) -> int:
    """Ruling 4: with 3 or 4 players each Observer gets two attempts, alternating."""
    return 2 if player_count <= 4 else 1


def role_shift(players: tuple[str, ...], name: str) -> str:
    """Ruling 5: roles move one seat to the right, the previous player in the clockwise list."""
    return next_seat(players, name, -1)


@dataclass(frozen=True)
class MineState:
    players: tuple[str, ...]
    scores: tuple[int, ...]  # cards collected, in seat order
    deck: int
    round: int
    dreamer: str
    guessers: tuple[str, ...]  # this round's guessing order still to come (head guesses)
    table: int  # cards still face up in the middle
    dreamer_pile: int  # cards the Dreamer holds for now this round
    over: bool = False

    @property
    def chooser(self) -> str:
        # the Dreamer hands the cards to the neighbour on their right
        return role_shift(self.players, self.dreamer)

    def score(self, name: str) -> int:
        return self.scores[self.players.index(name)]


def observers(players: tuple[str, ...], dreamer: str) -> tuple[str, ...]:
    """The Observers in guessing order: from the Dreamer's left, clockwise, without the Chooser."""
    chooser = role_shift(players, dreamer)
    order = [next_seat(players, dreamer, i) for i in range(1, len(players))]
    return tuple(p for p in order if p != chooser)


def _start_round(state: MineState, dreamer: str, number: int) -> MineState:
    need = cards_per_round(len(state.players))
    if state.deck < need:  # ruling 6: the deck cannot supply another round
        return evolve(state, over=True, guessers=(), table=0, dreamer_pile=0)
    order = observers(state.players, dreamer) * attempts_per_observer(len(state.players))
    return evolve(
        state, deck=state.deck - need, round=number, dreamer=dreamer, guessers=order, table=need, dreamer_pile=0
    )


def _give(scores: tuple[int, ...], players: tuple[str, ...], gains: dict[str, int]) -> tuple[int, ...]:
    out = list(scores)
    for name, cards in gains.items():
        out[players.index(name)] += cards
    return tuple(out)


def _end_round(state: MineState, scores: tuple[int, ...]) -> MineState:
    ended = evolve(state, scores=scores, table=0, dreamer_pile=0, guessers=())
    return _start_round(ended, role_shift(state.players, state.dreamer), state.round + 1)


class CloudMineRules:
    """The Cloud Mine's rules (common.GameRules). `setup` raises SetupError for a setup that cannot
    start a game; `apply` raises RulesError, with the reason and the rule, for any action the
    rules do not allow now; the other methods never raise for a state the rules made."""

    name = "cloudmine"
    title = "The Cloud Mine"
    min_players = 3
    max_players = 8

    def setup(self, config: Mapping[str, Any]) -> MineState:
        players = setup_players(config, self.min_players, self.max_players, self.title)
        dreamer = setup_player_choice(config, "first_dreamer", players)
        blank = MineState(players, (0,) * len(players), DECK_SIZE, 0, dreamer, (), 0, 0)
        return _start_round(blank, dreamer, 1)

    def legal_actions(self, state: MineState) -> list[dict[str, Any]]:
        if state.over:
            return []
        who = state.guessers[0]
        return [{"act": "guess", "player": who, "correct": c} for c in (True, False)]

    def roll_outcomes(self, state: MineState) -> list[Outcome]:
        """The Cloud Mine has no dice: never a roll."""
        return []

    def canonical(self, action: Action) -> dict[str, Any]:
        """The action's one spelling: a guess's player and answer, nothing else it carries."""
        return canonical_action(action, {"guess": ("player", "correct")}, {})

    def apply(self, state: MineState, action: Action) -> MineState:
        act = action.get("act")
        if state.over:
            raise RulesError("the game is over: the deck cannot supply another round", "end of the game")
        if act != "guess":
            raise RulesError("{act!r} is not an action in The Cloud Mine (only guess)", "a round", act=act)
        player = player_field(action, state.players)
        correct = field(action, "correct", bool, N_("true or false"))
        who = state.guessers[0]
        if player != who:
            if player == state.dreamer:
                raise RulesError(
                    "{player} is the Dreamer and does not guess; {who} guesses now",
                    "a round, step 4",
                    player=player,
                    who=who,
                )
            if player == state.chooser:
                raise RulesError(
                    "{player} is the Chooser and does not guess; {who} guesses now",
                    "a round, step 4",
                    player=player,
                    who=who,
                )
            raise RulesError("{player} cannot guess yet: it is {who}'s turn", "a round, step 4", player=player, who=who)
        if correct:
            # ruling 1: the finder takes the chosen card and the rest of the table;
            # the Dreamer keeps the cards taken for wrong guesses
            gains = {player: state.table}
            gains[state.dreamer] = gains.get(state.dreamer, 0) + state.dreamer_pile
            return _end_round(state, _give(state.scores, state.players, gains))
        rest = state.guessers[1:]
        if rest:
            return evolve(state, guessers=rest, table=state.table - 1, dreamer_pile=state.dreamer_pile + 1)
        # ruling 2: nobody found it, the Chooser takes every card of the round
        everything = state.table + state.dreamer_pile
        return _end_round(state, _give(state.scores, state.players, {state.chooser: everything}))

    def view(self, state: MineState) -> dict[str, Any]:
        return {
            "game": self.name,
            "players": list(state.players),
            "over": state.over,
            "phase": "over" if state.over else "guess",
            "winners": best(state.players, state.score) if state.over else [],
            "scores": dict(zip(state.players, state.scores)),
            "round": state.round,
            "deck": state.deck,
            "dreamer": state.dreamer,
            "chooser": state.chooser,
            "to_guess": None if state.over else state.guessers[0],
            "table": state.table,
            "dreamer_pile": state.dreamer_pile,
            # project extras: who guesses after the current Observer, and the round's size
            "guess_order": list(state.guessers),
            "cards_per_round": cards_per_round(len(state.players)),
        }


RULES = CloudMineRules()
