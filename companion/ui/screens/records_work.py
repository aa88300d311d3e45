"""The table's records worked out off the loop, once per journal that needs it.

When the records the journal keeps are stale (thousands of games restored or imported at once,
a journal of an older version), a thread of its own works them out through a connection of its
own: first what the journal's tables already tell (every game's players and results, the
extras journaled or cached: well under a second), then every finished game whose extras are
missing, replayed in processes of their own (all the cores but one, up to three: a minute or
so on a Pi for 10,000 games), so that the replay never holds the interpreter's lock the loop
needs, and the records put together from their shares. Each step reaches the loop through
`app.call_soon`; the final records are kept by the app's journal, so the next visit reads them
at once. The app starts it when the journal is attached, so that the records are ready before
anyone asks; the Records screen shows what is known meanwhile.
"""

from __future__ import annotations

import os
import threading
from typing import Any

from ...insights.records import (
    JournalRecords,
    keep_worked_out,
    kept_records,
    known_records_at,
    replayed_extras,
    worked_out_records,
)


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
                found = replay_elsewhere(path, found.missing)
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


# the app keeps a core; more processes than this would only share the SD card's reads
MAX_PROCESSES = 3


def replay_elsewhere(path, missing: list[int]) -> JournalRecords:
    """The records with the `missing` games replayed in processes of their own (started
    afresh: nothing of the app's is copied into them), each a share of the games; then put
    together here from the tables, the cache and those shares. Whatever no process replayed
    (none could be started) is replayed in this thread."""
    import multiprocessing  # only here: the app's start does without it
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    count = max(1, min((os.cpu_count() or 1) - 1, MAX_PROCESSES, len(missing)))
    shares = [missing[i::count] for i in range(count)]  # dealt round: long and short games mixed
    replayed: dict[int, tuple[int, Any]] = {}
    try:
        with ProcessPoolExecutor(max_workers=count, mp_context=multiprocessing.get_context("spawn")) as pool:
            for found in pool.map(replayed_extras, [path] * count, shares):
                replayed.update(found)
    except (OSError, BrokenProcessPool):  # no process to be had (a sandbox, no memory left)
        pass
    return worked_out_records(path, replayed)


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
