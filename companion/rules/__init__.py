"""The shared rules core: pure Python, no I/O. One module per game, one registry here."""

from __future__ import annotations

from collections.abc import Mapping
from importlib import import_module
from typing import Any

from .common import GameRules, RulesError, SetupError
from .match import Match

# contract name -> module; each module has a RULES object (see common.GameRules)
GAME_MODULES = {"cloud9": "cloud9", "cloudship": "cloudship", "cloudmine": "cloudmine"}


def rules_by_name(name: str) -> GameRules:
    if name not in GAME_MODULES:
        raise SetupError(f"unknown game {name!r}: expected one of {', '.join(GAME_MODULES)}")
    rules: GameRules = import_module(f".{GAME_MODULES[name]}", __name__).RULES
    return rules


def rules_for(setup: Mapping[str, Any]) -> GameRules:
    if not isinstance(setup, Mapping):
        raise SetupError("the setup must be a JSON object")
    name = setup.get("game")
    if not isinstance(name, str):
        raise SetupError('the setup needs a "game" field: cloud9, cloudship or cloudmine')
    return rules_by_name(name)


__all__ = ["GAME_MODULES", "Match", "RulesError", "SetupError", "rules_by_name", "rules_for"]
