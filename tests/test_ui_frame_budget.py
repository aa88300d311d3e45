"""The frames the loop keeps stay within their budget of bytes while a new one is drawn: the
oldest go before the new frame is made, and where the budget holds one frame (a full-HD
screen) the frame is painted over in place, never copied. Drawing ahead still finds each
press's frame, and what is shown is what drawing it afresh shows."""

from __future__ import annotations

import random
import weakref

import pytest

from companion.ui.loop import app as loop
from companion.ui.screens.end import EndScreen
from companion.ui.tools.harness import Harness
from tests.test_ui_kept_frames import SIX, Clock, fresh, guess, kept_key, rehearse, shown


class FramesAlive:
    """Every frame the app keeps, watched (weakly) from the moment it is kept: the most that
    were alive at once, the newest included."""

    def __init__(self, app, monkeypatch):
        self.frames: list[weakref.ref] = []
        self.most = 0
        keep = app._keep

        def watched(key, frame, bounds=None):
            if not any(ref() is frame for ref in self.frames):
                self.frames.append(weakref.ref(frame))
            self.frames = [ref for ref in self.frames if ref() is not None]
            self.most = max(self.most, len(self.frames))
            keep(key, frame, bounds)

        monkeypatch.setattr(app, "_keep", watched)


def play_cloud_mine(h: Harness, clock: Clock, seed: int) -> tuple[int, int]:
    """A six-player game, drawn ahead before each press: (presses, presses whose frame was
    drawn ahead); every frame shown checked against one drawn afresh."""
    rng = random.Random(seed)
    presses = found = 0
    while not isinstance(h.app.screen, EndScreen):
        rehearse(h)
        guess(h, rng.random() < 0.4)
        presses += 1
        found += kept_key(h) in h.app._stills
        shown(h)  # the press's own frame (the cards' flight starts with the next)
        assert shown(h) == fresh(h), presses
        clock.t += 1.0
        assert shown(h) == fresh(h), presses
    return presses, found


@pytest.mark.parametrize("frames", [1, 2, 4])
def test_kept_frames_and_the_one_drawn_never_exceed_the_budget(frames, monkeypatch):
    frame_bytes = 800 * 480 * 4
    monkeypatch.setattr(loop, "STILL_BYTES", frames * frame_bytes)
    clock = Clock()
    h = Harness((800, 480), clock=clock)
    assert h.app.viewport.canvas.get_bytesize() == 4
    alive = FramesAlive(h.app, monkeypatch)
    h.start_game({"game": "cloudmine", "players": SIX})
    presses, found = play_cloud_mine(h, clock, seed=frames)
    assert 1 <= alive.most <= frames
    assert len(h.app._stills) <= frames
    if frames > 1:  # room for the press's frame beside the one shown
        assert found == presses


def test_a_budget_of_one_frame_paints_the_frame_over_in_place(monkeypatch):
    """Moves that change a few widgets, on a screen whose budget holds one frame: the kept
    frame itself is painted over where they differ (the same surface, never a copy of it)."""
    monkeypatch.setattr(loop, "STILL_BYTES", 800 * 480 * 4)
    clock = Clock()
    h = Harness((800, 480), clock=clock)
    app, rng = h.app, random.Random(1)
    painted_over = []
    paint_over = app._painted_over_kept

    def watched(*args):
        base = next(reversed(app._stills.values()), None)
        frame = paint_over(*args)
        if frame is not None:
            painted_over.append(frame is base)
        return frame

    monkeypatch.setattr(app, "_painted_over_kept", watched)
    h.start_game({"game": "cloud9", "players": SIX})
    for _ in range(40):
        legal = [a for a in app.controller.legal_actions() if a.get("act") not in ("undo", "redo")]
        if not legal or app.controller.match.view.get("over"):
            break
        app.controller.submit(rng.choice(legal))
        app.pump()
        clock.t += 3.0  # the move's moment over
        assert shown(h) == fresh(h)
        assert len(app._stills) == 1
    assert painted_over and all(painted_over)


def test_a_full_hd_screen_keeps_one_frame_and_shows_what_drawing_afresh_shows(monkeypatch):
    clock = Clock()
    h = Harness((1920, 1080), clock=clock)
    alive = FramesAlive(h.app, monkeypatch)
    h.start_game({"game": "cloudmine", "players": SIX[:3]})
    for press in range(4):
        rehearse(h)
        guess(h, press % 2 == 0)
        shown(h)
        assert shown(h) == fresh(h), press
        clock.t += 1.0
    assert alive.most == 1 and len(h.app._stills) == 1
