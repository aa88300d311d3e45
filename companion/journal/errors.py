"""What can go wrong with the journal, as exceptions a screen or a command can show as is."""

from __future__ import annotations

from ..errors import CompanionError


class JournalError(CompanionError):
    """A journal problem, in one sentence for a person."""


class JournalBusy(JournalError):
    """Another running instance writes to this journal (there is never a second writer)."""


class UnusableFile(JournalError):
    """The file exists but cannot serve as this version's journal (damaged, foreign, newer)."""


class NotUpgraded(UnusableFile):
    """An older version's journal, looked at before the app has upgraded it."""


class NotAJournal(JournalError):
    """The path given is not a journal at all (a folder, a missing file, another kind of file):
    said, and the path left exactly as it is."""


class CannotRebuild(JournalError):
    """A stored game does not replay through the rules any more."""
