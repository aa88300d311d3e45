"""The table's records worked out off the loop, once per journal that needs it.

When the records the journal keeps are stale (thousands of games restored or imported at once,
a journal of an older version), a thread of its own works them out through a connection of its
own: first what the journal's tables already tell (every game's players and results, the
extras journaled or cached: well under a second), then every finished game whose extras are
missing, replayed (a minute or two on a Pi for 10,000 of them) in a process of its own, so that
the replay never holds the interpreter's lock the loop needs. Each step reaches the loop through
`app.call_soon`; the final records are kept by the app's journal, so the next visit reads them
at once. The app starts it when the journal is attached, so that the records are ready before
anyone asks; the Records screen shows what is known meanwhile.
"""

from __future__ import annotations

import threading
from typing import Any

from ...insights.records import JournalRecords, keep_worked_out, kept_records, known_records_at, worked_out_records


class RecordsWork:
    """The records of `journal` being worked out on a thread ("records")."""

    def __init__(self, app: Any, journal: Any):
        self.app = app
        self.journal = journal
        self.found: JournalRecords | None = None  # the latest known: `pending` > 0 until done
        self.done = False
        self.thread = threading.Thread(target=self._run, args=(journal.path,), name="records", daemon=True)
        self.thread.start()

    def _run(self, path) -> None:
        found: JournalRecords | None
        try:
            found = known_records_at(path)
            if found.pending:  # shown at once, the replay of the rest to follow
                known = found
                self._tell(lambda: self._arrived(known, done=False))
                found = replay_elsewhere(path)
        except Exception:  # unreadable, or damaged meanwhile: no records rather than a failure
            found = None
        self._tell(lambda: self._arrived(found, done=True))

    def _tell(self, fn) -> None:
        try:
            self.app.call_soon(fn)
        except Exception:  # the app closed meanwhile: nobody is left to tell
            pass

    def _arrived(self, found: JournalRecords | None, done: bool) -> None:
        """On the loop: the records known so far, kept by the app's journal once whole."""
        self.found = found
        if done:
            self.done = True
            if found is not None:
                keep_worked_out(self.journal, found)
            if getattr(self.app, "records_work", None) is self:
                self.app.records_work = None
        self.app.refresh()


def replay_elsewhere(path) -> JournalRecords:
    """worked_out_records in a process of its own (started afresh: nothing of the app's is
    copied into it); in this thread when no process can be started."""
    import multiprocessing  # only here: the app's start does without it
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    try:
        with ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn")) as pool:
            return pool.submit(worked_out_records, path).result()
    except (OSError, BrokenProcessPool):  # no process to be had (a sandbox, no memory left)
        return worked_out_records(path)


def records_work(app: Any, journal: Any) -> RecordsWork:
    """The app's work on the records of `journal`: the one under way, else a new one."""
    work = getattr(app, "records_work", None)
    if work is None or work.journal is not journal or work.done:
        work = RecordsWork(app, journal)
        app.records_work = work
    return work


def work_out_stale_records(app: Any, journal: Any) -> RecordsWork | None:
    """Start working out the records if the journal's kept ones are stale (one row read): a
    restore or an import has just landed, or an older version wrote the journal."""
    if not getattr(app, "running", True) or getattr(journal, "path", None) is None:
        return None  # the app is closing (its idle work done on the way out), or no file
    if kept_records(journal) is not None:
        return None
    return records_work(app, journal)
