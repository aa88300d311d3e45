"""A game in progress: the rules, the setup, and every state since, for undo and redo.

Undo and redo are handled here once for all three games: `{"act": "undo"}` takes back the
last action that was not itself undone; `{"act": "redo"}` (a project extension) puts back the
last action undone, as long as nothing new was played since. A Match is immutable; the
history is a linked list so that each step costs O(1) however long the game.

The app's own dice (`app_roll`) are a function of the game's seed and of how many steps
stand: undoing a roll the app made and asking it again gives the same dice, so undo is never
a re-roll.

>>> m = Match.start({"game": "cloud9", "players": ["Ann", "Ben", "Cat"]})
>>> m.view["phase"], m.can_undo
('roll', False)
>>> m.is_legal({"act": "roll", "dice": ["blank", "red"]})  # any order of the dice
True
>>> m = m.apply({"act": "roll", "dice": ["blank", "red"]})
>>> m.view["to_decide"]
'Ben'
>>> m.apply({"act": "rise", "cards": ["red"]})
Traceback (most recent call last):
...
companion.rules.common.RulesError: Ben must decide first: jump out or stay in
>>> m.apply({"act": "undo"}).view["phase"]  # the refusal changed nothing; undo goes back
'roll'
>>> m.apply({"act": "undo"}).app_roll("seed") == m.apply({"act": "undo"}).app_roll("seed")
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .common import Action, GameRules, RulesError, SetupError, View, action_key, made

_NO_KEYS: frozenset[str] = frozenset()


@dataclass(frozen=True)
class _Step:
    state: Any
    action: Action | None  # the action that led here (None for the setup)
    before: _Step | None
    depth: int = 0  # how many actions lead here from the setup


@dataclass(frozen=True)
class Match:
    rules: GameRules
    setup: Mapping[str, Any]
    current: _Step
    undone: tuple[_Step, ...] = ()  # redo stack: most recently undone last
    # the canonical keys of the legal actions, worked out on the first is_legal
    _legal_keys: frozenset[str] = field(default=frozenset(), init=False, repr=False, compare=False)

    @classmethod
    def start(cls, setup: Mapping[str, Any]) -> Match:
        """A new game from its setup (the replay contract's first line).

        Raises SetupError (a ValueError) when the setup cannot start a game: an unknown game,
        a wrong number of players, names that repeat, an unknown mode.
        """
        from . import rules_for  # late import: the registry imports the game modules

        rules = rules_for(setup)
        return cls(rules, dict(setup), _Step(rules.setup(setup), None, None))

    @property
    def state(self) -> Any:
        """The game's private state (each game's own immutable dataclass)."""
        return self.current.state

    @property
    def view(self) -> View:
        """The replay contract's public state of the game now."""
        return self.rules.view(self.current.state)

    @property
    def can_undo(self) -> bool:
        return self.current.before is not None

    @property
    def can_redo(self) -> bool:
        return bool(self.undone)

    def actions(self) -> list[Action]:
        """The actions that lead from the setup to the current state (undone ones left out)."""
        out: list[Action] = []
        step = self.current
        while step.before is not None:
            assert step.action is not None  # only the setup's step has no action
            out.append(step.action)
            step = step.before
        return out[::-1]

    def legal_actions(self) -> list[dict[str, Any]]:
        """Every action the rules allow now, undo and redo included where they apply."""
        extra = [{"act": "undo"}] if self.can_undo else []
        if self.can_redo:
            extra.append({"act": "redo"})
        return self.rules.legal_actions(self.current.state) + extra

    def canonical(self, action: Action) -> dict[str, Any]:
        """`action` in the game's one spelling (dice and cards in a fixed order, fields the
        game does not read left out): two actions the rules treat alike are equal so."""
        if action.get("act") in ("undo", "redo"):
            return {"act": action["act"]}
        return self.rules.canonical(action)

    def is_legal(self, action: Action) -> bool:
        """Whether `apply(action)` would be accepted, whatever the order of its dice or cards.

        Never raises: anything that is not a legal action, junk included, is simply False.
        """
        if not isinstance(action, Mapping):
            return False
        if not self._legal_keys:
            keys = frozenset(action_key(self.canonical(a)) for a in self.legal_actions())
            object.__setattr__(self, "_legal_keys", keys)  # a cache: the Match itself is unchanged
        return action_key(self.canonical(action)) in self._legal_keys

    def app_roll(self, seed: str) -> dict[str, Any] | None:
        """The roll the app makes for the table now ("Roll for me"), None when no roll is due.

        Drawn with each roll's true probability, by a generator seeded with the game's `seed`
        and the number of steps that stand: the same point of the game always gives the same
        dice, so undoing the app's roll and asking again cannot re-roll it.
        """
        outcomes = self.rules.roll_outcomes(self.current.state)
        if not outcomes:
            return None
        rng = random.Random(f"{seed}/{self.current.depth}")  # a str seed: the same on every run
        chosen = rng.choices(outcomes, weights=[o.probability for o in outcomes])[0]
        return dict(chosen.action)

    def apply(self, action: Action) -> Match:
        """The match after `action`; `self` is never changed.

        Raises RulesError (a ValueError) when the rules refuse the action, with a `reason` a
        player understands and the `rule` it comes from: not a JSON object, no "act", nothing to
        undo or redo, or anything the game's rules do not allow now. Nothing changes then.
        """
        # a dict, as every parsed action is, is a Mapping: the abstract check only for the rest
        if type(action) is not dict and not isinstance(action, Mapping):
            raise RulesError("an action must be a JSON object", "replay contract")
        act = action.get("act")
        if not isinstance(act, str):
            raise RulesError('an action needs an "act" field', "replay contract")
        if act == "undo":
            if self.current.before is None:
                raise RulesError("there is nothing to undo: the game has just been set up", "undo")
            return Match(self.rules, self.setup, self.current.before, self.undone + (self.current,))
        if act == "redo":
            if not self.undone:
                raise RulesError("there is nothing to redo", "undo")
            return Match(self.rules, self.setup, self.undone[-1], self.undone[:-1])
        current = self.current
        new_state = self.rules.apply(current.state, action)
        # made as the dataclasses' __init__ would make them, at a fraction of the cost
        step = made(_Step, state=new_state, action=dict(action), before=current, depth=current.depth + 1)
        return made(Match, rules=self.rules, setup=self.setup, current=step, undone=(), _legal_keys=_NO_KEYS)


__all__ = ["Match", "RulesError", "SetupError"]
