"""Replay speed of the rules core: how fast a resumed game is rebuilt."""

from __future__ import annotations

import time
from typing import Any

from .match import Match
from .simulate import random_game

SETUPS: dict[str, dict[str, Any]] = {
    "cloud9": {"game": "cloud9", "players": ["Ann", "Ben", "Cat", "Dan", "Eve"]},
    "cloudship": {"game": "cloudship", "players": ["Ann", "Ben", "Cat"], "mode": "standard"},
    "cloudmine": {"game": "cloudmine", "players": ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]},
}


def bench() -> dict[str, float]:
    figures: dict[str, float] = {}
    for name, setup in SETUPS.items():
        games: list[list[dict[str, Any]]] = []
        seed = 0
        while sum(map(len, games)) < 2000:  # several games back to back: one long evening
            games.append(random_game(setup, seed))
            seed += 1
        best = min(_replay_seconds(setup, games) for _ in range(3))
        total = sum(map(len, games))
        figures[f"rules.{name}.replay_actions_per_s"] = round(total / best)
        figures[f"rules.{name}.mean_actions_per_game"] = round(total / len(games), 1)
    return figures


def _replay_seconds(setup: dict[str, Any], games: list[list[dict[str, Any]]]) -> float:
    start = time.perf_counter()
    for actions in games:
        match = Match.start(setup)
        for action in actions:
            match = match.apply(action)
    return time.perf_counter() - start
