"""Years of games: a journal of 10,000 finished games (built here, in the user's cache
directory, then removed), and how the app copes with it: its start, the history screen's first
page and the player totals."""

from __future__ import annotations

import shutil
import statistics
import time
from pathlib import Path

from ..bench import app_starts
from ..journal import Journal
from ..journal.bench import HISTORY_GAMES, _scratch, build_history

FIRST_PAGE = 4  # the history screen's rows on its first page (portrait; landscape shows 3)


def first_call_ms(path: Path, fn) -> float:
    with Journal.read(path) as journal:
        start = time.perf_counter()
        fn(journal)
        return 1000 * (time.perf_counter() - start)


def start_times(db: Path, config: Path, runs: int = 3) -> tuple[float, float]:
    """Seconds from starting the process to its first frame, and to the journal attached
    (the game to resume offered: the app fully usable), medians."""
    starts = app_starts(db, config, runs)
    return statistics.median(f for f, _ in starts), statistics.median(r for _, r in starts)


def bench(games: int = HISTORY_GAMES) -> dict[str, float]:
    folder = _scratch()
    try:
        path = folder / "journal.sqlite3"
        build_history(path, games)
        with Journal.open(path) as journal:
            if journal.check_thread is not None:  # none when the journal could not be opened for writing
                journal.check_thread.join()  # the app's whole-file check, let finish before timing
        # each on a journal just opened (its connection's cache cold), as on the screen's first visit
        first_page = statistics.median(
            first_call_ms(path, lambda j: (j.count_games(), j.games(limit=FIRST_PAGE))) for _ in range(5)
        )
        totals = statistics.median(first_call_ms(path, lambda j: j.totals()) for _ in range(5))
        frame, ready = start_times(path, folder / "config.toml")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    k = f"{games // 1000}k" if games % 1000 == 0 else str(games)
    return {
        f"journal.history_first_page_{k}_ms": round(first_page, 2),
        f"journal.totals_{k}_ms": round(totals, 2),
        f"ui.start_to_first_frame_{k}_s": round(frame, 3),
        f"ui.start_to_journal_ready_{k}_s": round(ready, 3),
    }


if __name__ == "__main__":
    for name, value in bench().items():
        print(f"{name:52s} {value}")
