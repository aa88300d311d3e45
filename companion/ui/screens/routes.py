"""The screens a screen opens by name (`app.make("end", game_screen)`), so the base screen never
imports the screens built on it."""

from __future__ import annotations

from collections.abc import Callable

from .end import EndScreen
from .help import HelpScreen
from .live_code import LiveCodeScreen, caption
from .practice import PracticeScreen
from .settings import SettingsScreen

ROUTES = {
    "end": EndScreen,
    "help": HelpScreen,
    "live_code": LiveCodeScreen,
    "practice": PracticeScreen,
    "settings": SettingsScreen,
}


def menu_entries(app) -> list[tuple[str, Callable[[], None]]]:
    """The entries every game's menu carries after the game's own: the live page's code, while
    the page is on (its QR code one tap away)."""
    return [(caption(), lambda: app.show(LiveCodeScreen(app)))] if app.config.live else []
