"""Random legal games, for property tests, benchmarks and demos (seeded, so repeatable)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from .match import Match


def random_actions(
    setup: dict[str, Any], seed: int, limit: int = 10_000, undo_rate: float = 0.0
) -> Iterator[tuple[Match, dict[str, Any]]]:
    """(match before, action) pairs of one random legal game, until it ends or `limit`.

    With `undo_rate` > 0 an undo is sometimes played where one is possible.
    """
    rng = random.Random(seed)
    match = Match.start(setup)
    for _ in range(limit):
        legal = match.rules.legal_actions(match.state)
        if not legal:
            return
        if match.can_undo and rng.random() < undo_rate:
            action = {"act": "undo"}
        else:
            action = rng.choice(legal)
        yield match, action
        match = match.apply(action)


def random_game(setup: dict[str, Any], seed: int, limit: int = 10_000) -> list[dict[str, Any]]:
    """The actions of one random legal game."""
    return [action for _, action in random_actions(setup, seed, limit)]
