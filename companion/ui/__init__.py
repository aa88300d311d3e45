"""The touchscreen app (pygame): app loop, layout, theme, widgets and screens.

Nothing outside this package imports pygame for drawing; see screens/base.py for how a game
screen is written.
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
