"""Speed of the insights: an odds query (uncached, as on a fresh roll), simulated games, the
Cloudship storm forecast as the weather card asks for it, and the table's records from a
journal of 10,000 games."""

from __future__ import annotations

import json
import shutil
import sqlite3
import statistics
import time
from pathlib import Path

from ..journal import Journal
from ..journal.bench import HISTORY_GAMES, _scratch, build_history
from ..rules import Match
from ..rules.cloudship import RULES as CLOUDSHIP
from . import odds
from .forecast import forecast
from .records import cache_path, journal_records, known_records_at
from .simulate import simulate_cloud9

BOTS = ("cautious", "bold", "odds")

# rolls a pilot meets high up, where the most colours are needed, and a mid-game discard pile
QUERIES = [
    (("red", "green", "purple", "yellow"), 6),
    (("red", "red", "green", "blank"), 9),
    (("yellow", "purple", "blank"), 4),
    (("green", "green", "green", "green"), 12),
]
PLAYED = {"red": 4, "green": 2, "purple": 1, "wild": 1}

# as many flights as the weather card asks for a forecast (ui/forecast_view.UI_RUNS)
FORECAST_RUNS = 500
WON_GAME = Path(__file__).resolve().parent.parent / "examples" / "cloudship-won.jsonl"


def forecast_states() -> list:
    """The rounds the weather card forecasts at: a new standard game, a new stormy game (hail
    from the start), and the example game mid-way (rounds 4 and 7, hail showing) and at its
    last roll (one flower to go)."""
    lines = [json.loads(line) for line in WON_GAME.read_text(encoding="utf-8").splitlines() if line.strip()]
    states = [
        CLOUDSHIP.setup({"players": ["A", "B", "C"]}),
        CLOUDSHIP.setup({"players": ["A", "B", "C"], "mode": "stormy"}),
    ]
    match = Match.start(lines[0])
    for action in lines[1:]:
        match = match.apply(action)
        if match.state.phase == "roll" and match.state.round in (4, 7):
            states.append(match.state)
    return states


def forecast_ms(rounds: int = 3) -> float:
    """Milliseconds per forecast of a round about to be rolled, as the weather card asks for it
    (the median over the states of `forecast_states`, each `rounds` times)."""
    times = []
    for state in forecast_states():
        for seed in range(rounds):
            start = time.perf_counter()
            forecast(state, runs=FORECAST_RUNS, seed=seed)
            times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def odds_query_ms(rounds: int = 200) -> float:
    """Milliseconds per uncached rise-chance query (the median over several rounds)."""
    times = []
    for _ in range(rounds):
        for roll, hand in QUERIES:
            odds._hands_that_rise.cache_clear()
            start = time.perf_counter()
            odds.rise_chance(roll, hand, PLAYED)
            times.append(time.perf_counter() - start)
    times.sort()
    return times[len(times) // 2] * 1000


def games_per_s(jobs: int, games: int = 1000) -> float:
    """Cloud 9 games a second between the three bots (the pool's start-up included)."""
    start = time.perf_counter()
    simulate_cloud9(BOTS, games, seed=1, jobs=jobs)
    return games / (time.perf_counter() - start)


def records_ms(games: int = HISTORY_GAMES, visits: int = 5) -> dict[str, float]:
    """Visits to Records on a journal of `games` finished games, each on the journal the app
    holds (its writer) as the Records tab finds it, in milliseconds: `visit` the slowest of
    the visits after a game ended, after that end was undone and after it was put back (the
    records kept in the journal as it goes); `worked_out` a visit that finds the kept records
    stale (worked out again from the results and extras tables, nothing replayed); and, on a
    journal of an older version that journaled no extras (as a restore or an import may bring),
    `first_visit_s`, seconds until Records shows what the tables tell (every game's players and
    results; the rest being worked out behind it), and `replay_all_s`, seconds until the whole
    records are worked out (every game replayed once)."""
    from ..journal.journal import Journal as Writer
    from ..rules import Match
    from ..rules.simulate import random_game
    from .records import replayed_records

    folder = _scratch()
    try:
        path = folder / "journal.sqlite3"
        build_history(path, games)
        setup = {"game": "cloudmine", "players": ["Anna", "Ben", "Cat"]}
        actions = random_game(setup, seed=7)
        slowest = 0.0
        times = []
        with Writer.open(path) as journal:
            for _ in range(visits):
                match = Match.start(setup)
                ref = journal.begin(match)
                for action in actions:
                    match = match.apply(action)
                    journal.append(ref, action, match)
                for change in (None, {"act": "undo"}, {"act": "redo"}):
                    if change is not None:
                        match = match.apply(change)
                        journal.append(ref, change, match)
                    start = time.perf_counter()
                    found = journal_records(journal)
                    times.append(time.perf_counter() - start)
                    if found.replayed:
                        raise RuntimeError("a visit replayed games the journal keeps")
            slowest = max(times)
            start = time.perf_counter()
            replayed_records(journal, keep=False)
            worked_out = time.perf_counter() - start
        with sqlite3.connect(path) as db:  # as an older version left it: no extras journaled
            db.execute("DELETE FROM extras")
            db.execute("DELETE FROM meta WHERE key = 'records'")
        db.close()
        cache_path(path).unlink(missing_ok=True)
        start = time.perf_counter()
        known = known_records_at(path)  # what the Records screen shows first
        first = time.perf_counter() - start
        if known.pending != sum(title.played for title in known.records.values()):
            raise RuntimeError("the journal without extras knew some of them")
        with Journal.read(path) as journal:
            start = time.perf_counter()
            journal_records(journal, keep=False)
            replay_all = time.perf_counter() - start
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return {
        "visit": slowest * 1000,
        "visit_median": statistics.median(times) * 1000,
        "worked_out": worked_out * 1000,
        "first_visit_s": first,
        "replay_all_s": replay_all,
    }


def bench() -> dict[str, float]:
    visits = records_ms()
    k = f"{HISTORY_GAMES // 1000}k"
    return {
        "odds.cloud9_query_ms": round(odds_query_ms(), 4),
        "simulate.cloud9_games_per_s": round(games_per_s(jobs=2)),
        "simulate.cloud9_games_per_s_one_process": round(games_per_s(jobs=1)),
        "insights.cloudship_forecast_ms": round(forecast_ms(), 1),
        f"insights.records_visit_{HISTORY_GAMES}_games_ms": round(visits["visit"], 1),
        f"insights.records_{k}_ms": round(visits["visit_median"], 1),
        f"insights.records_{k}_worked_out_ms": round(visits["worked_out"], 1),
        f"insights.records_{k}_first_visit_s": round(visits["first_visit_s"], 2),
        f"insights.records_{k}_replay_all_s": round(visits["replay_all_s"], 1),
    }
