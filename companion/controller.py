"""The controller owns the game in progress.

Every input (touch, seat button, ship sensor, command line) ends here as a rules action.
An action is checked by the rules core first, then committed to the journal, and only then
does the new state become current and the listeners (screen, sounds, LEDs) hear of it.
An illegal action raises RulesError and changes nothing, journal included.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Protocol

from .rules import Match, RulesError

Listener = Callable[[Match, Match, Mapping[str, Any]], None]  # (before, after, action)


class ActionLog(Protocol):
    """What the controller needs from the journal (companion.journal implements it)."""

    def begin(self, setup: Mapping[str, Any]) -> Any: ...           # returns a game id
    def append(self, game_id: Any, action: Mapping[str, Any]) -> None: ...  # durable on return
    def finish(self, game_id: Any, view: Mapping[str, Any]) -> None: ...


class GameController:
    def __init__(self, log: ActionLog | None = None):
        self.log = log
        self.match: Match | None = None
        self.game_id: Any = None
        self._listeners: list[Listener] = []

    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def new_game(self, setup: Mapping[str, Any]) -> Match:
        """Start a game (SetupError for a bad setup); journaled before it becomes current."""
        match = Match.start(setup)
        self.game_id = self.log.begin(match.setup) if self.log else None
        self.match = match
        return match

    def adopt(self, match: Match, game_id: Any) -> None:
        """Continue a game rebuilt elsewhere (a resumed journal game)."""
        self.match, self.game_id = match, game_id

    def submit(self, action: Mapping[str, Any]) -> Match:
        if self.match is None:
            raise RulesError("no game is in progress", "controller")
        before = self.match
        after = before.apply(action)  # RulesError here: nothing journaled, nothing changed
        if self.log:
            self.log.append(self.game_id, action)
            if after.view["over"] and not before.view["over"]:
                self.log.finish(self.game_id, after.view)
        self.match = after
        for listener in self._listeners:
            listener(before, after, action)
        return after

    def undo(self) -> Match:
        return self.submit({"act": "undo"})

    def redo(self) -> Match:
        return self.submit({"act": "redo"})

    def legal_actions(self) -> list[dict[str, Any]]:
        return self.match.legal_actions() if self.match else []
