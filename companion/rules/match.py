"""A game in progress: the rules, the setup, and every state since, for undo and redo.

Undo and redo are handled here once for all three games: `{"act": "undo"}` takes back the
last action that was not itself undone; `{"act": "redo"}` (a project extension) puts back the
last action undone, as long as nothing new was played since. A Match is immutable; the
history is a linked list so that each step costs O(1) however long the game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .common import Action, GameRules, RulesError, SetupError, View


@dataclass(frozen=True)
class _Step:
    state: Any
    action: Action | None  # the action that led here (None for the setup)
    before: _Step | None


@dataclass(frozen=True)
class Match:
    rules: GameRules
    setup: Mapping[str, Any]
    current: _Step
    undone: tuple[_Step, ...] = ()  # redo stack: most recently undone last

    @classmethod
    def start(cls, setup: Mapping[str, Any]) -> Match:
        from . import rules_for  # late import: the registry imports the game modules

        rules = rules_for(setup)
        return cls(rules, dict(setup), _Step(rules.setup(setup), None, None))

    @property
    def state(self) -> Any:
        return self.current.state

    @property
    def view(self) -> View:
        return self.rules.view(self.current.state)

    @property
    def can_undo(self) -> bool:
        return self.current.before is not None

    @property
    def can_redo(self) -> bool:
        return bool(self.undone)

    def actions(self) -> list[Action]:
        """The actions that lead from the setup to the current state (undone ones left out)."""
        out, step = [], self.current
        while step.before is not None:
            out.append(step.action)
            step = step.before
        return out[::-1]

    def legal_actions(self) -> list[dict[str, Any]]:
        extra = [{"act": "undo"}] if self.can_undo else []
        if self.can_redo:
            extra.append({"act": "redo"})
        return self.rules.legal_actions(self.current.state) + extra

    def apply(self, action: Action) -> Match:
        """The match after `action`, or RulesError; `self` is never changed."""
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
        new_state = self.rules.apply(self.current.state, action)
        return Match(self.rules, self.setup, _Step(new_state, dict(action), self.current))


__all__ = ["Match", "RulesError", "SetupError"]
