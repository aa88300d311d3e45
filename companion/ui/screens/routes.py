"""The screens a screen opens by name (`app.make("end", game_screen)`), so the base screen never
imports the screens built on it."""

from __future__ import annotations

from .end import EndScreen
from .help import HelpScreen
from .practice import PracticeScreen
from .settings import SettingsScreen

ROUTES = {"end": EndScreen, "help": HelpScreen, "practice": PracticeScreen, "settings": SettingsScreen}
