"""The touchscreen app (pygame), in rooms; each imports only the rooms above it in this list:

- kit/      theme, type (fonts/), widgets, layout, shapes, the players' colours and seats
- story/    what each action did (moments), its cards and strip, its words spoken, its sounds
- boards/   the drawn game: each game's board and pictures, the odds and the forecast, plots
- screens/  the screens (screens/base.py says how a game screen is written; routes.py opens
            one screen from another by name)
- loop/     the app: its loop and its waiting, SDL, the seat buttons and the ship as it sees them
- tools/    the commands `run` and `demo`, the headless harness, the benchmarks

Nothing outside this package imports pygame for drawing.
"""

import os
import sys

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

if "pygame" not in sys.modules and "pkg_resources" not in sys.modules:
    # `import pygame` imports pkg_resources only to find pygame's own bundled files, which
    # costs about 0.3 s, most of the app's start; without it pygame looks for them beside
    # itself, where they are. pkg_resources stays importable for anyone else afterwards.
    sys.modules["pkg_resources"] = None  # type: ignore[assignment]
    try:
        import pygame  # noqa: F401
    finally:
        del sys.modules["pkg_resources"]
