"""Speed of the insights: an odds query (uncached, as on a fresh roll), simulated games."""

from __future__ import annotations

import time

from . import odds

# rolls a pilot meets high up, where the most colours are needed, and a mid-game discard pile
QUERIES = [(("red", "green", "purple", "yellow"), 6), (("red", "red", "green", "blank"), 9),
           (("yellow", "purple", "blank"), 4), (("green", "green", "green", "green"), 12)]
PLAYED = {"red": 4, "green": 2, "purple": 1, "wild": 1}


def odds_query_ms(rounds: int = 200) -> float:
    """Milliseconds per uncached rise-chance query (the median over several rounds)."""
    times = []
    for _ in range(rounds):
        for roll, hand in QUERIES:
            odds._chance.cache_clear()
            start = time.perf_counter()
            odds.rise_chance(roll, hand, PLAYED)
            times.append(time.perf_counter() - start)
    times.sort()
    return times[len(times) // 2] * 1000


def bench() -> dict[str, float]:
    return {"odds.cloud9_query_ms": round(odds_query_ms(), 4)}
