"""The screens. Game screens are found through GAME_SCREENS ("module:Class"), so each game's
screen lives in its own module and a missing one never breaks the others."""

from __future__ import annotations

from importlib import import_module

GAME_SCREENS: dict[str, str] = {
    "cloudmine": "companion.ui.screens.cloudmine:CloudMineScreen",
    "cloud9": "companion.ui.screens.cloud9:Cloud9Screen",
    "cloudship": "companion.ui.screens.cloudship:CloudshipScreen",
}


def game_screen_class(game: str):
    """The screen class for `game`, or None while that screen is not written yet."""
    target = GAME_SCREENS.get(game)
    if target is None:
        return None
    module, _, name = target.partition(":")
    try:
        return getattr(import_module(module), name)
    except ModuleNotFoundError as exc:
        if exc.name == module:
            return None
        raise
