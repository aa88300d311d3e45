"""What a higher layer adds to the journal's writes, passed in rather than imported.

The journal keeps the records (companion.insights.records) up to date in the very commit that
ends a game, but it sits below them: the records keeper installs itself here with
`keep_records_with` (importing companion.insights.records does it; the command line imports
it at start). Without a keeper the journal writes exactly the same games and actions; the
records then go stale, and their next visit works them out from the games.
"""

from __future__ import annotations

from typing import Any, Protocol

from ..rules import Match


class RecordsKeeper(Protocol):
    def extras(self, game: str, match: Match) -> Any:
        """What only a replay of the finished `match` tells the records (plain JSON values)."""

    def after_end(self, store: Any, game_id: int, ended: bool, changes_before: int | None) -> None:
        """In the commit where a game became over (`ended`) or stopped being over: bring the
        kept records up to date in `store` (a journal.store.Store), or leave them stale."""


_keeper: RecordsKeeper | None = None


def keep_records_with(keeper: RecordsKeeper | None) -> None:
    """Install the records keeper the journal calls as games end (None: none)."""
    global _keeper
    _keeper = keeper


def records_keeper() -> RecordsKeeper | None:
    return _keeper
