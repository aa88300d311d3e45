"""The journal as the live page sees it: read-only, never in the app's way.

Each look opens the file afresh with SQLite's `mode=ro` (a file the app set aside and replaced
is simply the new one) and closes it again, so that no read transaction is left holding back the
app's checkpoints. The writer's lock is never taken. A missing file is "no games yet"; a damaged
or unreadable one, or a damaged game, is a sentence on the page, never a crash.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..journal.errors import JournalError, NotUpgraded
from ..journal.history import GameSummary
from ..journal.journal import rebuild
from ..journal.store import Store, connect, is_damage
from ..rules import Match


@dataclass(frozen=True)
class Look:
    """What the journal held at one moment: the latest game and how it stands."""

    game: GameSummary | None = None
    setup: dict[str, Any] = field(default_factory=dict)
    actions: tuple[dict[str, Any], ...] = ()
    problem: str | None = None  # why the game (or the journal) cannot be shown

    @property
    def key(self) -> tuple:
        """Equal for two looks that show the same thing (no new event when nothing changed)."""
        g = self.game
        return (g.id, g.status, g.actions, g.updated_at) if g else (None,), len(self.actions), self.problem

    def match(self) -> Match | None:
        """The game rebuilt through the rules, or None when it cannot be."""
        if self.game is None or self.problem:
            return None
        try:
            return rebuild(self.setup, list(self.actions), self.game.id)
        except JournalError:
            return None


class ReadOnlyJournal:
    """The calls the records (companion.insights.records) make of a journal, read-only."""

    def __init__(self, path: Path):
        self.path = Path(path)

    def _open(self) -> Store:
        return Store.open(self.path, writable=False, connect=connect, full_check=False)

    def _with(self, fn):
        if not self.path.exists() or self.path.stat().st_size == 0:
            return None
        try:
            store = self._open()
        except JournalError:
            raise
        except (sqlite3.Error, OSError) as exc:
            raise JournalError(f"the journal cannot be read: {exc}") from None
        try:
            return fn(store)
        except sqlite3.DatabaseError as exc:
            what = "it is damaged" if is_damage(exc) else str(exc)
            raise JournalError(f"the journal cannot be read: {what}") from None
        finally:
            store.close()

    def look(self) -> Look:
        """The latest game (the one being played, else the last one started)."""

        def read(store: Store) -> Look:
            summary = store.unfinished() or store.latest()
            if summary is None:
                return Look()
            stored = store.game(summary.id)
            if stored is None:
                return Look()
            if stored.damaged:
                return Look(stored.summary, problem=f"game {summary.id} is damaged ({stored.damaged})")
            return Look(stored.summary, dict(stored.summary.setup), tuple(stored.actions))

        try:
            found = self._with(read)
        except NotUpgraded:  # a journal being made (its tables not all there yet), or one the app upgrades at its start
            return Look()
        except JournalError as exc:
            return Look(problem=str(exc))
        found = found or Look()
        if found.game is not None and found.problem is None and found.match() is None:
            return Look(found.game, problem=f"game {found.game.id} cannot be rebuilt")
        return found

    def results_state(self) -> tuple | None:
        """What the records depend on, cheaply: the file and how often its results changed
        (None: a journal without that count, or none)."""

        def read(store: Store) -> tuple | None:
            changes = store.changes()
            return None if changes is None else (self.path.stat().st_ino, changes)

        return self._with(read)

    def games(self, limit: int = 50) -> list[GameSummary]:
        return self._with(lambda store: store.summaries(limit, 0)) or []

    def results(self) -> list[tuple]:
        return self._with(lambda store: store.results()) or []

    def stored(self, game_id: int) -> tuple[GameSummary, list[dict[str, Any]]]:
        found = self._with(lambda store: store.game(game_id))
        if found is None:
            raise JournalError(f"there is no game {game_id}")
        if found.damaged:
            raise JournalError(f"game {game_id} is damaged: {found.damaged}")
        return found.summary, found.actions

    def rebuild(self, game_id: int) -> Match:
        summary, actions = self.stored(game_id)
        return rebuild(summary.setup, actions, game_id)
