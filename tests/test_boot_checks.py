"""The boot test's own checks, on pictures drawn here: each must fail on the screen it exists to
catch, or a booted appliance that lost the feature would still pass."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "appliance"))
run = pytest.importorskip("run")


def test_the_full_cards_notice_is_seen_only_when_the_screen_shows_it(monkeypatch):
    from companion.ui.tools.harness import Harness

    h = Harness(run.SIZE)
    for key in [*run.TAPS, *run.MORE[:1]]:
        h.tap(key)
    plain = h.render().copy()  # the boot test's expected screen: the game, nothing wrong
    monkeypatch.setattr(type(h.app.controller), "save_problem", property(lambda self: "cannot save: disk full"))
    h.app.pump()
    warned = h.render().copy()
    assert "Not saved yet" in h.texts()
    assert run.notice_pixels(warned) > run.notice_pixels(plain) + 2000
    # the same game without the notice (a build that lost it) fails the check
    monkeypatch.undo()
    h.app.pump()
    assert run.notice_pixels(h.render()) <= run.notice_pixels(plain) + 2000


def test_a_viewer_reads_each_change_the_live_page_tells():
    import web

    from companion.live.server import event

    lines = event("a1b2c3-7", "de").splitlines()
    assert [web.told(line) for line in lines] == [None, "a1b2c3-7", None]
