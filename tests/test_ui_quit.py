"""A desktop user can quit from Home (a Quit button, or Escape and a confirmation); the Pi's
full-screen appliance shows neither (it is shut down another way)."""

import os

import pygame
import pytest

from companion import i18n
from companion.config import Config
from companion.ui.tools.harness import Harness

SHOTS = os.environ.get("QUIT_SCREENSHOTS")


def desktop_home(size=(800, 480), language="en"):
    h = Harness(size, config=Config(language=language))
    h.app.desktop = True
    h.app.home()
    h.app.pump()
    return h


def escape(h):
    pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_ESCAPE, mod=0, unicode="\x1b", scancode=41))
    h.app.pump()


def test_quit_on_home_ends_the_loop():
    h = desktop_home()
    h.tap("quit")
    assert not h.app.running
    h.app.run()  # returns at once: the app closes, the journal is closed by `run`'s caller


def test_escape_on_home_asks_before_quitting():
    h = desktop_home()
    escape(h)
    assert h.shows("Quit now?") and h.app.running
    escape(h)  # Escape again: the question goes away, nothing else happens
    assert not h.shows("Quit now?") and h.app.running
    escape(h)
    h.tap("dialog:Quit")
    assert not h.app.running


def test_the_appliance_has_no_quit_and_escape_on_home_does_nothing():
    h = Harness((800, 480))
    assert not h.app.desktop and not h.shows("quit")
    escape(h)
    assert h.app.running and h.app.dialog is None


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
@pytest.mark.parametrize("language", ["en", "de", "hu"])
def test_quit_and_its_question_fit_in_every_language(size, language, tmp_path):
    h = desktop_home(size, language)
    try:
        assert h.find("quit").rect.h >= h.app.theme.px(48)
        assert h.overflows() == [] and h.off_canvas() == [] and h.small_targets() == []
        h.save(os.path.join(SHOTS or tmp_path, f"home-{language}-{size[0]}x{size[1]}.png"))
        escape(h)
        assert h.overflows() == [] and h.off_canvas() == []
        h.save(os.path.join(SHOTS or tmp_path, f"quit-{language}-{size[0]}x{size[1]}.png"))
    finally:
        i18n.set_language("en")
