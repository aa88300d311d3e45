"""The durable game journal (SQLite): every game, every action, safe from power cuts.

journal = Journal.open()            # the app: one writer, in the user's data directory
offer = journal.offer()             # an unfinished game to resume, if any
ref, match = journal.resume()       # rebuilt by replaying its actions through the rules
ref = journal.begin(match)          # a new game
journal.append(ref, action, after)  # durable before it returns (or kept in memory, see problem)
journal.games(), journal.totals()   # the history and per-player totals
"""

from .errors import CannotRebuild, JournalBusy, JournalError, UnusableFile
from .history import GameSummary, PlayerTotal, player_totals
from .journal import GameRef, Journal, Resumed, ResumeOffer, default_path, rebuild

__all__ = [
    "CannotRebuild",
    "GameRef",
    "GameSummary",
    "Journal",
    "JournalBusy",
    "JournalError",
    "PlayerTotal",
    "ResumeOffer",
    "Resumed",
    "UnusableFile",
    "default_path",
    "player_totals",
    "rebuild",
]
