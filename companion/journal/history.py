"""Every game played, and each player's totals: what the history screen and the stats read."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True)
class GameSummary:
    """One game of the journal, as of its latest stored action."""

    id: int
    game: str  # the contract's name: cloud9, cloudship, cloudmine
    title: str
    setup: dict[str, Any]
    players: list[str]  # seat order
    started_at: str  # ISO 8601, UTC
    updated_at: str
    ended_at: str | None  # when the game became over; None while it is not
    status: str  # playing, over or abandoned (a new game was started instead)
    phase: str
    winners: list[str]
    scores: dict[str, int]
    actions: int  # stored actions, undo and redo included
    damaged: str | None = None  # why the stored game cannot be read whole; None when it can

    @property
    def over(self) -> bool:
        return self.status == "over"

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        if out["damaged"] is None:
            del out["damaged"]  # only a damaged game says so
        return out


@dataclass(frozen=True)
class PlayerTotal:
    """One player's record in one game (scores of different games do not add up)."""

    name: str
    game: str
    title: str
    played: int  # finished games
    won: int
    total_score: int
    best_score: int

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def player_totals(games: Iterable[GameSummary]) -> list[PlayerTotal]:
    """Totals over the finished games, per game and player: most wins first, then by name."""
    table: dict[tuple[str, str], dict[str, Any]] = {}
    for g in games:
        if not g.over:
            continue
        for name in g.players:
            row = table.setdefault(
                (g.game, name), {"title": g.title, "played": 0, "won": 0, "total_score": 0, "best_score": None}
            )
            score = g.scores.get(name, 0)
            row["played"] += 1
            row["won"] += name in g.winners
            row["total_score"] += score
            row["best_score"] = score if row["best_score"] is None else max(row["best_score"], score)
    totals = [PlayerTotal(name, game, **row) for (game, name), row in table.items()]
    return sorted(totals, key=lambda t: (t.game, -t.won, -t.total_score, t.name))


def recent_names(games: Iterable[GameSummary], taken: Iterable[str] = ()) -> list[str]:
    """The names played under, the most recent game's first (as `games` come, newest first),
    each once whatever its case, leaving out `taken` (the names already at the table)."""
    seen = {name.casefold() for name in taken}
    out = []
    for g in games:
        for name in g.players:
            if name.casefold() not in seen:
                seen.add(name.casefold())
                out.append(name)
    return out
