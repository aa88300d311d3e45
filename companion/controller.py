"""The controller owns the game in progress.

Every input (touch, seat button, ship sensor, command line) ends here as a rules action.
An action is checked by the rules core first, then committed to the journal, and only then
does the new state become current and the listeners (screen, sounds, LEDs) hear of it.
An illegal action raises RulesError and changes nothing, journal included.

When the disk cannot be written the game goes on: the journal keeps the unsaved actions in
memory and writes them as soon as it can; `save_problem` says why meanwhile, for the screen.

The app's own dice (`roll_for_me`) come from a seed kept with the game (the journal's, or one
of the controller's own without a journal): an undone app roll comes back the same.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from .rules import Match, RulesError


def _new_seed() -> str:
    """16 hex digits from the system's randomness (what secrets.token_hex(8) gives, without
    the secrets module: it loads OpenSSL, 3 MiB of the app's memory for this one call)."""
    return os.urandom(8).hex()


Listener = Callable[[Match, Match, Mapping[str, Any]], None]  # (before, after, action)


class ResumedGame(Protocol):
    """A game the journal rebuilt: its handle and the match (companion.journal.Resumed)."""

    @property
    def ref(self) -> Any: ...
    @property
    def match(self) -> Match: ...


class ActionLog(Protocol):
    """What the controller needs from the journal (companion.journal.Journal implements it)."""

    def begin(self, match: Match) -> Any: ...  # returns the journal's handle for the game
    def append(self, game_id: Any, action: Mapping[str, Any], after: Match) -> bool: ...
    def resume(self, game_id: int | None = None) -> ResumedGame | None: ...
    def abandon(self, game_id: Any) -> bool: ...  # the table stopped this game for good
    def retry(self) -> bool: ...  # save what waits; True when nothing waits any more
    def seed(self, game_id: Any) -> str: ...  # the game's seed for the app's dice, kept with it

    problem: str | None  # why recent actions are not on the disk yet


class GameController:
    """The game in progress and the one door every input goes through (`submit`).

    Raises RulesError (no game, an ended game, an action the rules refuse) and SetupError (a
    setup that cannot start a game), both ValueErrors and CompanionErrors; a refused action
    changes nothing, in memory or in the journal.
    """

    def __init__(self, log: ActionLog | None = None) -> None:
        self.log = log
        self.match: Match | None = None
        self.game_id: Any = None  # the journal's handle for the game (a journal.GameRef)
        self.ended = False  # the table ended the game early: it stays shown, nothing more is played
        self._listeners: list[Listener] = []
        self._own_seed = _new_seed()  # the app's dice without a journal, new each game

    def subscribe(self, listener: Listener) -> None:
        """Call `listener(before, after, action)` after every accepted action."""
        self._listeners.append(listener)

    def new_game(self, setup: Mapping[str, Any]) -> Match:
        """Start a game (SetupError for a bad setup); journaled before it becomes current."""
        match = Match.start(setup)
        self.game_id = self.log.begin(match) if self.log else None
        self.match, self.ended = match, False
        self._own_seed = _new_seed()
        return match

    def adopt(self, match: Match, game_id: Any) -> None:
        """Continue a game rebuilt elsewhere (a resumed journal game)."""
        self.match, self.game_id, self.ended = match, game_id, False

    def end(self) -> None:
        """The table ends the game early, for good: the journal marks it stopped, and no later
        input (a tap, a ball the ship reports) brings it back into play."""
        if self.log is not None and self.game_id is not None and not self.ended:
            self.log.abandon(self.game_id)
        self.ended = True

    @property
    def in_progress(self) -> bool:
        """A game that can be continued: there is one, it is not over, and it was not ended."""
        return self.match is not None and not self.ended and not self.match.view["over"]

    def resume(self, game_id: int | None = None) -> Match | None:
        """Carry on with a journal game (by default the unfinished one); None if there is none.

        The game is rebuilt by replaying its stored actions through the rules core.
        """
        resumed = self.log.resume(game_id) if self.log is not None else None
        if resumed is None:
            return None
        self.adopt(resumed.match, resumed.ref)
        return resumed.match

    def submit(self, action: Mapping[str, Any]) -> Match:
        """Play `action`: checked by the rules, journaled, then current; the listeners hear it.

        Returns the match after it. Raises RulesError when no game is in progress, the game
        was ended, or the rules refuse the action: then nothing is journaled and nothing
        changes. A disk that cannot be written raises nothing: the journal keeps the action
        and `save_problem` says why.
        """
        if self.match is None:
            raise RulesError("no game is in progress", "controller")
        if self.ended:
            raise RulesError("this game was ended", "controller")
        before = self.match
        after = before.apply(action)  # RulesError here: nothing journaled, nothing changed
        if self.log is not None:
            self.log.append(self.game_id, action, after)  # durable (or kept) before it is shown
        self.match = after
        for listener in self._listeners:
            listener(before, after, action)
        return after

    def undo(self) -> Match:
        """Take back the last step (RulesError when there is nothing to undo)."""
        return self.submit({"act": "undo"})

    def redo(self) -> Match:
        """Put back the last step undone (RulesError when there is nothing to redo)."""
        return self.submit({"act": "redo"})

    def roll_for_me(self) -> Match:
        """The app rolls the dice for the table, each roll with its true probability.

        The dice depend only on the game's seed and on how far the game stands, so undoing
        them and asking again gives the same dice: undo is not a re-roll. Raises RulesError
        when no game is in progress or no roll is due now.
        """
        if self.match is None:
            raise RulesError("no game is in progress", "controller")
        action = self.app_roll()
        if action is None:
            raise RulesError("no roll is due now", "controller")
        return self.submit(action)

    def app_roll(self) -> dict[str, Any] | None:
        """The roll `roll_for_me` would submit now (None without a game or a roll due), for a
        screen that submits it its own way."""
        if self.match is None:
            return None
        seed = self.log.seed(self.game_id) if self.log is not None else self._own_seed
        return self.match.app_roll(seed)

    def legal_actions(self) -> list[dict[str, Any]]:
        """The legal actions now ([] without a game)."""
        return self.match.legal_actions() if self.match else []

    def is_legal(self, action: Mapping[str, Any]) -> bool:
        """Whether `submit(action)` would be accepted now (dice and cards in any order)."""
        return self.match is not None and not self.ended and self.match.is_legal(action)

    @property
    def save_problem(self) -> str | None:
        """Why recent actions are not on the disk yet (None when everything is saved)."""
        return self.log.problem if self.log is not None else None

    def retry_save(self) -> bool:
        """Try again to save what waits (the next action tries anyway); True when nothing waits."""
        return self.log.retry() if self.log is not None else True
