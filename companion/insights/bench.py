"""Speed of the insights: an odds query (uncached, as on a fresh roll), simulated games."""

from __future__ import annotations

import time

from . import odds
from .simulate import simulate_cloud9

BOTS = ("cautious", "bold", "odds")

# rolls a pilot meets high up, where the most colours are needed, and a mid-game discard pile
QUERIES = [(("red", "green", "purple", "yellow"), 6), (("red", "red", "green", "blank"), 9),
           (("yellow", "purple", "blank"), 4), (("green", "green", "green", "green"), 12)]
PLAYED = {"red": 4, "green": 2, "purple": 1, "wild": 1}


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


def bench() -> dict[str, float]:
    return {
        "odds.cloud9_query_ms": round(odds_query_ms(), 4),
        "simulate.cloud9_games_per_s": round(games_per_s(jobs=2)),
        "simulate.cloud9_games_per_s_one_process": round(games_per_s(jobs=1)),
    }
