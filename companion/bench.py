"""`cloud-companion bench`: every area's speed figures in one place.

Each module in BENCH_MODULES has a `bench() -> dict[str, number]`; names say their unit.
"""

from __future__ import annotations

from importlib import import_module

BENCH_MODULES: tuple[str, ...] = ("companion.rules.bench", "companion.devices.bench",
                                  "companion.journal.bench", "companion.ui.bench",
                                  "companion.speech_bench", "companion.insights.bench",
                                  "companion.appliance.bench", "companion.ship.bench")


def run_all() -> dict[str, float]:
    figures: dict[str, float] = {}
    for module in BENCH_MODULES:
        figures.update(import_module(module).bench())
    return figures
