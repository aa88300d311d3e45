"""The journal's figures: commit latency per action, and how long a long game takes to resume.

Measured on the disk that holds the user's data (a scratch folder in the user's cache
directory, removed afterwards), because an fsync costs what that disk makes it cost.
"""

from __future__ import annotations

import random
import shutil
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any, Iterator

import platformdirs

from ..config import APP_NAME
from ..rules import GAME_MODULES, Match
from ..rules.bench import SETUPS
from .journal import Journal

RESUME_ACTIONS = 2000


def long_game(setup: dict[str, Any], length: int, seed: int = 0) -> Iterator[tuple[dict, Match]]:
    """(action, match after) for a game of exactly `length` actions that never ends.

    Random legal play with undo and redo mixed in; an action that would end the game is taken
    back at once, so the game can go on as long as asked (a long evening of second thoughts).
    """
    rng = random.Random(seed)
    match = Match.start(setup)
    for _ in range(length):
        roll = rng.random()
        if match.can_redo and roll < 0.1:
            action = {"act": "redo"}
        elif match.can_undo and (roll > 0.85 or match.view["over"]):
            action = {"act": "undo"}
        else:
            action = rng.choice(match.rules.legal_actions(match.state))
        match = match.apply(action)
        yield action, match


def _scratch() -> Path:
    cache = Path(platformdirs.user_cache_dir(APP_NAME))
    cache.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix="journal-bench-", dir=cache))


def bench(actions: int = RESUME_ACTIONS) -> dict[str, float]:
    """Commit latency over every action of one long game per game, and its resume time."""
    figures: dict[str, float] = {}
    folder = _scratch()
    try:
        latencies: list[float] = []
        for name in GAME_MODULES:
            path = folder / f"{name}.sqlite3"
            with Journal.open(path) as journal:
                ref = journal.begin(Match.start(SETUPS[name]))
                for action, after in long_game(SETUPS[name], actions):
                    start = time.perf_counter()
                    journal.append(ref, action, after)
                    latencies.append(time.perf_counter() - start)
            figures[f"journal.{name}.resume_{actions}_actions_ms"] = round(
                1000 * min(_resume_seconds(path, actions) for _ in range(3)), 1)
        latencies.sort()
        figures["journal.commit_median_ms"] = round(1000 * statistics.median(latencies), 2)
        figures["journal.commit_p99_ms"] = round(1000 * latencies[int(0.99 * len(latencies))], 2)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return figures


def _resume_seconds(path: Path, actions: int) -> float:
    """From nothing to the game rebuilt: open the file (with its checks), read, replay."""
    start = time.perf_counter()
    journal = Journal.open(path)
    resumed = journal.resume()
    elapsed = time.perf_counter() - start
    journal.close()
    if resumed is None or resumed.ref.saved != actions:
        raise RuntimeError("the benchmark game did not come back whole")
    return elapsed
