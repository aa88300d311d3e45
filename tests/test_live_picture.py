"""The live page's pictures, drawn in this process as its drawing thread draws them: each
language and shape comes out as if drawn first whatever was drawn before it, without the buttons
only the Pi's own screen can use, and memory that stays put however many pictures are drawn."""

from __future__ import annotations

import gc
import io
import itertools
import tracemalloc

import pygame
import pytest

from companion.journal.history import GameSummary
from companion.live import picture
from companion.live.picture import Painter
from companion.live.reader import Look
from companion.rules.simulate import random_game
from companion.ui.kit import widgets

SHAPES = [(language, orientation) for language in ("en", "de", "hu") for orientation in ("landscape", "portrait")]
C9 = {"game": "cloud9", "players": ["Ann", "Ben", "Cat", "Dan"]}
SHIP = {"game": "cloudship", "players": ["Ann", "Ben", "Cat"]}


def look(setup: dict, actions: list, game_id: int = 1) -> Look:
    n = len(actions)
    summary = GameSummary(
        game_id,
        setup["game"],
        setup["game"],
        setup,
        setup["players"],
        "2026-01-01T00:00:00+00:00",
        f"2026-01-01T00:00:{n % 60:02d}+00:00",
        None,
        "playing",
        "",
        [],
        {},
        n,
    )
    return Look(summary, dict(setup), tuple(actions))


@pytest.fixture(scope="module")
def halfway():
    return look(C9, random_game(C9, seed=1)[:10])


@pytest.fixture(scope="module")
def first_drawn(halfway):
    """Each language and shape drawn by a painter that drew nothing before it."""
    out = {}
    for shape in SHAPES:
        painter = Painter()
        painter.show(halfway)
        out[shape] = painter.png(*shape)
    return out


def test_every_picture_is_as_if_drawn_first_whatever_came_before(halfway, first_drawn):
    painter = Painter()
    painter.show(halfway)
    for before, after in itertools.permutations(SHAPES, 2):  # every shape after every other one
        painter.png(*before)
        assert painter.png(*after) == first_drawn[after], (before, after)


def test_the_upright_picture_after_a_tv_one_fills_its_frame(halfway):
    painter = Painter()
    painter.show(halfway)
    painter.png("en", "landscape")
    upright = pygame.image.load(io.BytesIO(painter.png("en", "portrait")), "p.png")
    w, h = upright.get_size()
    lower = [upright.get_at((x, y))[:3] for x in range(0, w, 24) for y in range(h // 2, h, 24)]
    assert lower.count((0, 0, 0)) / len(lower) < 0.02  # not the landscape layout in a tall frame


def test_the_buttons_only_a_finger_on_the_pi_can_use_are_not_drawn(halfway):
    painter = Painter()
    painter.show(halfway)
    for shape in SHAPES[:2]:
        painter.png(*shape)
        keys = {w.key for w in painter.app.all_widgets()}
        assert not keys & {"undo", "menu", "back"}
        assert "title" in keys  # the rest of the bar is there


def test_pictures_drawn_keep_no_memory():
    painter = Painter()
    painter.show(look(C9, random_game(C9, seed=2)[:6]))
    painter.png("en", "landscape")
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for _ in range(30):
            painter.png("en", "landscape")
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert grown < 256 * 1024, grown  # thirty pictures of 100-300 KiB each, none of them kept


LEFT_BEHIND_CHILD = """
import gc, os
from collections import Counter
os.environ["SDL_VIDEODRIVER"] = "dummy"
from companion.live.picture import Painter
from companion.live.reader import Look
from companion.journal.history import GameSummary
from companion.rules.simulate import random_game
setup = {"game": "cloud9", "players": ["Ann", "Ben", "Cat"]}
actions = random_game(setup, seed=2)[:6]
game = GameSummary(1, "cloud9", "cloud9", setup, setup["players"], "2026-01-01T00:00:00+00:00",
                   "2026-01-01T00:00:06+00:00", None, "playing", "", [], {}, len(actions))
painter = Painter()
painter.show(Look(game, dict(setup), tuple(actions)))
painter.png("en", "landscape")
def kinds():
    gc.collect()
    return Counter(type(o).__name__ for o in gc.get_objects())
before = kinds()
for _ in range(30):
    assert painter.png("en", "landscape").startswith(b"\\x89PNG")
print({kind: n for kind, n in (kinds() - before).items() if n >= 30})
"""


def test_pictures_drawn_leave_no_objects_behind():
    """pygame-ce 2.5's image.save kept five references for every picture saved to a file
    object: an evening's pictures were thousands of them (in a process of its own: what other
    tests left behind is not counted)."""
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", LEFT_BEHIND_CHILD], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "{}", out.stdout  # a kind of object kept for each picture


def test_the_boards_pictures_are_forgotten_at_each_new_state():
    from companion.ui.boards import cloudship

    painter = Painter()
    actions = random_game(SHIP, seed=3)
    held = []
    for n in range(4, 16):  # a dozen states, each drawn in both shapes
        painter.show(look(SHIP, actions[:n]))
        held.append(cloudship.bed_layer.cache_info().currsize + cloudship.engine_layer.cache_info().currsize)
        for shape in SHAPES[:2]:
            painter.png(*shape)
    # what the state on screen needs, never what all the states before it needed
    assert max(held) <= held[0] + 2 and max(held) < cloudship.LAYER_CACHE, held
    assert all(name.startswith("companion.ui.") for name in picture.PICTURE_CACHES)


def test_placed_labels_hold_no_pictures_and_their_lines_stay_within_the_themes_bytes(monkeypatch):
    from companion.ui.kit import theme as th

    monkeypatch.setattr(widgets, "_PLACED", type(widgets._PLACED)())
    pygame.font.init()
    theme = th.Theme(2.25)  # a 1080p screen's scale: big lines
    for n in range(300):  # each label a new one, as many pages of new text would be
        label = widgets.Label(pygame.Rect(0, 0, 1800, 200), f"A long line of text, number {n}", "title")
        label.placed(theme)
    # what places a label keeps its lines' words and boxes; the images are the theme's
    kept = [item for _px, lines in widgets._PLACED.values() for line in lines for item in line]
    assert kept and not any(isinstance(item, pygame.Surface) for item in kept)
    held = sum(image.get_width() * image.get_height() * image.get_bytesize() for image in theme._text.values())
    assert held == theme._text_bytes <= theme.TEXT_CACHE_BYTES
    assert 1 < len(theme._text) < 300  # the oldest went first


def test_a_drawing_job_leaves_no_pictures_in_garbage_cycles(tmp_path):
    """A drawn screen's widgets hold their pictures in cycles, which Python's own schedule frees
    only after many games: the page collects them, and hands the heap's free pages back, after
    each drawing job."""
    import asyncio
    import weakref

    from companion.live.server import LiveServer, Options

    class Widget:
        pass

    def draw(_painter):
        widget = Widget()
        widget.me, widget.picture = widget, pygame.Surface((64, 64))
        return weakref.ref(widget)

    async def run():
        server = LiveServer(Options(db=tmp_path / "journal.sqlite3", config=None))
        try:
            return await server._draw(draw)
        finally:
            server.pool.shutdown()
            server.reads.shutdown()

    left = asyncio.run(run())
    assert left() is None


def test_a_resting_painter_holds_no_frame_and_draws_as_before(halfway, first_drawn):
    """Between drawings the 1080p frame (8 MiB) is let go; the next picture, of either shape,
    is the one a painter that never rested draws."""
    painter = Painter()
    painter.show(halfway)
    painter.png("en", "landscape")
    painter.rest()
    assert painter.app.viewport.display.get_size() == picture.RESTING
    for shape in (("de", "portrait"), ("en", "landscape")):
        assert painter.png(*shape) == first_drawn[shape]
        painter.rest()
    assert painter.text("hu").prompt  # the words are read from the screen laid out again
    assert painter.app.viewport.display.get_size() == picture.SIZES["landscape"]


END_WITHOUT_OTHER_SCREENS_CHILD = """
import os, sys
os.environ["SDL_VIDEODRIVER"] = "dummy"
from companion.live.picture import Painter
from companion.live.reader import Look
from companion.journal.history import GameSummary
from companion.rules.simulate import random_game
from companion.ui.screens.end import EndScreen
setup = {"game": "cloud9", "players": ["Ann", "Ben", "Cat"]}
actions = random_game(setup, seed=2)
game = GameSummary(1, "cloud9", "cloud9", setup, setup["players"], "2026-01-01T00:00:00+00:00",
                   "2026-01-01T00:00:06+00:00", None, "finished", "", [], {}, len(actions))
painter = Painter()
painter.show(Look(game, dict(setup), tuple(actions[:-1])))
painter.show(Look(game, dict(setup), tuple(actions)))  # the last action ends it: the game opens its end
assert isinstance(painter.app.screen, EndScreen)
assert painter.png("en", "portrait").startswith(b"\\x89PNG")
print(sorted(name for name in ("companion.ui.screens.routes", "companion.devices.seats", "gpiozero") if name in sys.modules))
"""


def test_a_game_ends_on_the_page_without_loading_the_apps_other_screens():
    """The end screen is the one screen a game opens by itself: made without the app's table
    of screens, which loads every screen and the seat test's GPIO library (in a process of its
    own: this one has loaded them already)."""
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", END_WITHOUT_OTHER_SCREENS_CHILD], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
