"""A press's frame drawn ahead goes on the screen before the screen is rebuilt; the rebuilt
screen is checked against it after, and a frame that was not the screen's is drawn again at
once. What goes up first is exactly the press's frame drawn afresh (the cards' flight over it
starts with the next frame)."""

from __future__ import annotations

import random

import pygame
import pytest
from hypothesis import given, settings, strategies as st

from companion.ui.kit.widgets import Label
from companion.ui.screens.cloudmine import CloudMineScreen
from companion.ui.screens.end import EndScreen
from companion.ui.tools.harness import Harness
from test_ui_kept_frames import EIGHT, SIX, Clock, fresh, pixels, rehearse


class Flips(list):
    """Each flip of `app`: whether its screen was still to be rebuilt then, and the picture."""

    app = None


@pytest.fixture
def flips(monkeypatch):
    seen = Flips()
    real = pygame.display.flip

    def flip():
        if seen.app is not None:
            seen.append((seen.app._needs_build, pygame.image.tobytes(seen.app.viewport.canvas, "RGB")))
        real()

    monkeypatch.setattr(pygame.display, "flip", flip)
    return seen


def press(h: Harness, correct: bool) -> None:
    """The Dreamer's answer as a seat press gives it, and the loop's pass that shows it."""
    v = h.app.controller.match.view
    h.app.controller.submit({"act": "guess", "player": v["to_guess"], "correct": correct})
    h.app.pump()


def settled(h: Harness, clock: Clock) -> bytes:
    """The press's frame once its flight is over, drawn from nothing."""
    clock.t += 1.0
    return fresh(h)


def test_a_press_s_frame_drawn_ahead_goes_up_before_the_screen_is_rebuilt(flips):
    clock = Clock()
    h = Harness((800, 480), clock=clock)
    flips.app = h.app
    h.start_game({"game": "cloudmine", "players": SIX})
    h.app.draw()
    rng = random.Random(11)
    presses = 0
    while not isinstance(h.app.screen, EndScreen):
        rehearse(h)
        flips.clear()
        press(h, rng.random() < 0.4)
        presses += 1
        (waiting, first), *_ = flips
        assert waiting  # on the screen before the screen was rebuilt
        assert not h.app._needs_build  # and rebuilt in the same pass, for the next tap
        assert first == settled(h, clock)  # the end screen's too
    assert h.app.foreseen_shown == presses and h.app.foreseen_wrong == 0


def test_a_frame_drawn_ahead_that_is_not_the_screen_s_is_drawn_again_at_once(monkeypatch, flips):
    clock = Clock()
    h = Harness((800, 480), clock=clock)
    flips.app = h.app
    h.start_game({"game": "cloudmine", "players": SIX})
    h.app.draw()
    rehearse(h)
    # the screen builds something the drawing ahead could not know of
    step_panel = CloudMineScreen.step_panel
    monkeypatch.setattr(
        CloudMineScreen,
        "step_panel",
        lambda self, f, step: step_panel(self, f, step) + [Label(step.inflate(-40, -40), "Surprise")],
    )
    flips.clear()
    press(h, True)
    assert h.app.foreseen_wrong == 1 and len(flips) == 2  # shown, found wrong, drawn again
    assert "Surprise" in [w.text for w in h.app.widgets if isinstance(w, Label)]
    assert flips[-1][1] == pixels(h) == fresh(h)


def test_a_change_on_the_screen_since_drawing_ahead_is_drawn_afresh():
    clock = Clock()
    h = Harness((800, 480), clock=clock)
    h.start_game({"game": "cloudmine", "players": SIX})
    screen = h.app.screen
    while screen.card is None:  # wrong guesses until the round is settled: its card on the board
        rehearse(h)
        press(h, False)
        clock.t += 1.0
    h.app.draw()
    rehearse(h)
    screen.dismiss_card()  # after the drawing ahead: the card is closed
    h.app.pump()
    shown = h.app.foreseen_shown
    press(h, True)
    assert h.app.foreseen_shown == shown  # what was drawn ahead with the card is not shown
    assert pixels(h) == fresh(h)
    clock.t += 1.0
    rehearse(h)  # drawn ahead again, from the screen as it is now
    press(h, False)
    assert h.app.foreseen_shown == shown + 1 and h.app.foreseen_wrong == 0


@settings(max_examples=8, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    players=st.integers(3, 8),
    language=st.sampled_from(["en", "de", "hu"]),
    size=st.sampled_from([(800, 480), (1024, 600), (1280, 800)]),
    rotate=st.sampled_from([0, 90]),
)
def test_every_press_of_a_cloud_mine_game_goes_up_as_drawn_ahead(seed, players, language, size, rotate):
    clock = Clock()
    h = Harness(size, rotate=rotate, clock=clock)
    h.app.change_config(language=language)
    h.start_game({"game": "cloudmine", "players": (EIGHT if seed % 2 else SIX + EIGHT)[:players]})
    rng = random.Random(seed)
    presses = 0
    while not isinstance(h.app.screen, EndScreen):
        rehearse(h)
        press(h, rng.random() < 0.4)
        presses += 1
        clock.t += rng.choice([0.1, 1.0])  # the next press mid-flight or after
    assert h.app.foreseen_shown == presses and h.app.foreseen_wrong == 0
