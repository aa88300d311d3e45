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
from collections.abc import Iterator
from datetime import UTC
from pathlib import Path
from typing import Any

import platformdirs

from .. import APP_NAME
from ..rules import GAME_MODULES, Match
from ..rules.bench import SETUPS
from .journal import Journal

RESUME_ACTIONS = 2000


def long_game(setup: dict[str, Any], length: int, seed: int = 0) -> Iterator[tuple[dict[str, Any], Match]]:
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
                1000 * min(_resume_seconds(path, actions) for _ in range(3)), 1
            )
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


# --- years of games -------------------------------------------------------------------------

HISTORY_GAMES = 10_000
FAMILY = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]


def build_history(path: Path, games: int = HISTORY_GAMES, seed: int = 0) -> None:
    """A journal of `games` finished games, as years of family evenings leave it.

    Real games (random legal play to the end, through the rules core) of each title, their
    actions and summaries written as the journal writes them, but in one transaction: journaling
    them one commit at a time would take an hour of fsyncs.
    """
    from datetime import datetime, timedelta

    from ..rules.simulate import random_game
    from .store import Store, _dump

    rng = random.Random(seed)
    samples = []  # a few dozen real games to vary from
    for number in range(36):
        name = list(SETUPS)[number % 3]
        setup = dict(SETUPS[name])
        actions = random_game(setup, seed=number)
        match = Match.start(setup)
        for action in actions:
            match = match.apply(action)
        samples.append((setup, match.rules.title, actions, match.view, _extras(setup["game"], match)))
    with Journal.open(path):
        pass  # creates the file with the current schema
    store = Store.open(path, writable=True)
    start = datetime(2026, 1, 1, 18, tzinfo=UTC) - timedelta(days=games // 3)
    try:
        with store._transaction() as db:
            for number in range(games):
                setup, title, actions, view, extras = samples[rng.randrange(len(samples))]
                players = rng.sample(FAMILY, len(setup["players"]))
                rename = dict(zip(setup["players"], players))
                at = (start + timedelta(hours=8 * number)).isoformat(timespec="milliseconds")
                winners = [rename[w] for w in view["winners"]]
                scores = {rename[k]: v for k, v in view["scores"].items()}
                cur = db.execute(
                    "INSERT INTO games (game, title, setup, players, started_at, updated_at, ended_at, status, "
                    "phase, winners, scores, actions) VALUES (?, ?, ?, ?, ?, ?, ?, 'over', ?, ?, ?, ?)",
                    (
                        setup["game"],
                        title,
                        _dump({**setup, "players": players}),
                        _dump(players),
                        at,
                        at,
                        at,
                        view["phase"],
                        _dump(winners),
                        _dump(scores),
                        len(actions),
                    ),
                )
                # the actions name the players too: renamed alike, so that every game rebuilds
                db.executemany(
                    "INSERT INTO actions (game_id, seq, action, at) VALUES (?, ?, ?, ?)",
                    [
                        (cur.lastrowid, seq, _dump(_renamed(action, rename)), at)
                        for seq, action in enumerate(actions, 1)
                    ],
                )
                # what only a replay tells the records, journaled as the game ended
                db.execute(
                    "INSERT INTO extras (game_id, actions, data) VALUES (?, ?, ?)",
                    (cur.lastrowid, len(actions), _dump(_renamed_names(extras, rename))),
                )
    finally:
        store.close()
    with Journal.open(path) as journal:  # the records as the writer keeps them, game by game
        from ..insights.records import journal_records

        journal_records(journal)


def _extras(game: str, match: Match) -> Any:
    from ..insights.records import game_extras  # a benchmark: the top of the package

    return game_extras(game, match)


def _renamed_names(value: Any, rename: dict[str, str]) -> Any:
    """`value` with the players' names renamed where they are keys (the extras' tables)."""
    if isinstance(value, dict):
        return {rename.get(k, k): _renamed_names(v, rename) for k, v in value.items()}
    return value


def _renamed(action: dict[str, Any], rename: dict[str, str]) -> dict[str, Any]:
    return {**action, "player": rename[action["player"]]} if "player" in action else action
