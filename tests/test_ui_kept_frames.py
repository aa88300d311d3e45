"""Frames kept and shown again: a frame of still widgets is drawn once and blitted after (every
animation frame over it, and the frame a seat press leads to, drawn ahead while idle). What is
shown must be exactly what drawing it afresh shows, whatever changed in between: the state,
the language, the size, the players, a widget that moves with the clock."""

from __future__ import annotations

import random

import pygame
import pytest

from companion.ui.kit.layout import Viewport
from companion.ui.kit.widgets import Button, DrawContext, Label, Panel, Picture, painter_key
from companion.ui.screens.base import Screen
from companion.ui.screens.cloudmine import CloudMineScreen
from companion.ui.screens.end import EndScreen
from companion.ui.tools.harness import Harness

SIX = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]
EIGHT = [
    "Maximilian-Alexander",
    "Szentgyörgyi Boglárka",
    "Annemarie-Josephine",
    "Weißenböck Jürgen",
    "Christopher-Benedict",
    "Hajdúszoboszlói Ödön",
    "Friederike-Luise",
    "Bartholomew-James",
]


class Clock:
    def __init__(self):
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def pixels(h: Harness) -> bytes:
    return pygame.image.tobytes(h.app.viewport.canvas, "RGB")


def fresh(h: Harness) -> bytes:
    """The frame drawn from nothing: no kept frame used or made, the screen built anew without
    the parts it remembers from earlier builds (the players' places, the top bar)."""
    app = h.app
    app.still_frames, app._still_memo = False, None
    screen = app.screen
    remembered = {name: screen.__dict__.pop(name) for name in ("_places", "_bar_built") if name in screen.__dict__}
    if "_places" in remembered:
        screen._places = {}
    app.refresh()
    app.draw()
    out = pixels(h)
    screen.__dict__.update(remembered)
    app.still_frames = True
    app.refresh()
    return out


def shown(h: Harness) -> bytes:
    h.app.redraw()
    h.app.draw()
    return pixels(h)


def rehearse(h: Harness) -> int:
    steps = 0
    while h.app.rehearse_step():
        steps += 1
    return steps


def guess(h: Harness, correct: bool) -> None:
    v = h.app.controller.match.view
    h.app.controller.submit({"act": "guess", "player": v["to_guess"], "correct": correct})


def kept_key(h: Harness):
    from companion.ui.loop.app import still_key

    app = h.app
    app._build_if_needed()
    return still_key(app.widgets, DrawContext(app.theme, app.focused(), app.pressed, 0), app.viewport.canvas.get_size())


@pytest.mark.parametrize(
    "size, language, players", [((800, 480), "en", SIX), ((720, 1280), "hu", EIGHT), ((800, 480), "de", EIGHT[:3])]
)
def test_a_cloud_mine_game_drawn_ahead_and_kept_shows_what_drawing_it_afresh_shows(size, language, players):
    clock = Clock()
    h = Harness(size, clock=clock)
    h.app.change_config(language=language)
    h.start_game({"game": "cloudmine", "players": players})
    rng = random.Random(3)
    found_ahead = foreseen = ends = 0
    while ends < 1:
        assert rehearse(h) > 0  # the two answers the Dreamer may give, drawn ahead
        guess(h, rng.random() < 0.3)
        found_ahead += kept_key(h) in h.app._stills
        shown_before = h.app.foreseen_shown
        first = shown(h)  # drawn ahead: the still widgets; the cards' flight starts with the next frame
        assert shown(h) == fresh(h)  # the cards leaving the deck
        clock.t += 0.35
        assert shown(h) == fresh(h)  # mid-flight: the still widgets kept, the cards drawn over
        clock.t += 1.0
        settled = shown(h)
        assert settled == fresh(h)
        if h.app.foreseen_shown > shown_before:
            foreseen += 1
            assert first == settled
        if isinstance(h.app.screen, EndScreen):
            ends += 1
    assert found_ahead > 10  # nearly every press's frame was drawn ahead
    assert foreseen > 10 and h.app.foreseen_wrong == 0  # and went up first, always the screen's own


def test_a_kept_frame_is_not_shown_after_the_language_the_size_or_the_players_changed():
    clock = Clock()
    h = Harness((800, 480), clock=clock)
    h.start_game({"game": "cloudmine", "players": SIX})
    rehearse(h)
    guess(h, False)
    clock.t += 1.0  # the cards' flight over
    english = shown(h)
    assert english == fresh(h)
    h.app.change_config(language="de")
    german = shown(h)
    assert german == fresh(h) and german != english
    display = pygame.display.set_mode((720, 1280))
    h.app.set_viewport(Viewport(display, 0))
    h.app.refresh()
    assert shown(h) == fresh(h)
    h.app.change_config(language="en")
    h.start_game({"game": "cloudmine", "players": EIGHT})
    rehearse(h)
    guess(h, True)
    clock.t += 1.0
    assert shown(h) == fresh(h)


def test_drawing_ahead_leaves_the_game_the_screen_and_the_picture_as_they_are():
    h = Harness((800, 480), clock=Clock())
    screen = h.start_game({"game": "cloudmine", "players": SIX})
    for _ in range(5):  # the round's last wrong guesses: the next press settles it
        guess(h, False)
    h.app.draw()
    match, card, moments = h.app.controller.match, screen.card, list(screen.moments)
    before, frames, played = pixels(h), h.app.frames_drawn, list(h.app.sounds.played)
    assert rehearse(h) > 0
    assert h.app.controller.match is match and h.app.screen is screen and isinstance(screen, CloudMineScreen)
    assert screen.card is card and screen.moments == moments
    assert h.app.frames_drawn == frames and pixels(h) == before and h.app.sounds.played == played
    assert rehearse(h) == 0  # once per state


def test_drawing_ahead_gives_way_at_once_to_a_press():
    h = Harness((800, 480))
    h.start_game({"game": "cloudmine", "players": SIX})
    h.app.warm_up()
    h.app.draw()
    h.app._timers.clear()
    h.app.wake()  # a press arrived: no step of the rehearsal before the loop handles it
    h.app.wait()
    assert h.app.rehearse_step()  # all of it still to do
    h.app.waker.clear()


class Clockwork(Screen):
    """A screen with a hand that moves with the clock, drawn by a widget with no signature."""

    def build(self, f, t):
        def hand(surface, rect):
            x = rect.x + round((self.app.now() % 1.0) * (rect.w - 10))
            pygame.draw.rect(surface, (200, 0, 0), (x, rect.y, 10, rect.h))

        return [
            Panel(f.content, key="face"),
            Picture(f.content.inflate(-40, -40), hand, key="hand"),
            Label(f.content.inflate(-40, -300), "tick", key="words"),
        ]


def test_a_widget_that_moves_with_the_clock_is_drawn_every_frame():
    clock = Clock()
    h = Harness((800, 480), clock=clock)
    h.app.replace(Clockwork(h.app))
    first = shown(h)
    clock.t += 0.5
    later = shown(h)
    assert later != first and later == fresh(h)
    assert h.app._stills == {} or kept_key(h) is None


def test_what_a_drawing_function_holds_decides_whether_its_frame_may_be_kept():
    screen = object()
    same = [lambda s, r, n=n: None for n in (3, 3, 4)]
    assert painter_key(same[0]) == painter_key(same[1]) != painter_key(same[2])
    assert painter_key(lambda s, r: screen) is None  # holds an object whose state may change

    def holder(thing):
        return lambda s, r: thing

    assert painter_key(holder([1, 2])) is None
    assert painter_key(lambda s, r, rgb=[1, 2, 3]: None) is None
    assert painter_key(holder(("red", 3))) is not None
    ctx = DrawContext(None)
    assert Picture((0, 0, 4, 4), lambda s, r, n=1: None).signature(ctx) is None  # not said to be still
    assert Picture((0, 0, 4, 4), lambda s, r, n=1: None, still=True).signature(ctx) is not None
    button = Button((0, 0, 80, 80), "Go", None)
    assert button.signature(ctx) != button.signature(DrawContext(None, pressed=button))


class Sign(Screen):
    """A screen whose words, count and button change one at a time (nothing else moves)."""

    words, count, enabled = "Ann guesses", 3, True

    def build(self, f, t):
        c = f.content
        return [
            Panel(c, key="card"),
            Label(c.inflate(-40, -300), self.words, "prompt", key="words"),
            Picture(
                pygame.Rect(c.x + 20, c.y + 20, 60, 60),
                lambda s, r, n=self.count: pygame.draw.rect(s, (0, 0, 0), (r.x, r.y, 6 * n, 6)),
                still=True,
            ),
            Button(pygame.Rect(c.right - 220, c.bottom - 90, 200, 80), "Right card", None, enabled=self.enabled),
        ]


@pytest.mark.parametrize("change", [("words", "Ben guesses"), ("count", 7), ("enabled", False)])
def test_one_word_one_number_or_one_button_changed_is_a_frame_of_its_own(change):
    h = Harness((800, 480))
    screen = Sign(h.app)
    h.app.replace(screen)
    before = shown(h)
    assert shown(h) == before  # the kept frame, shown again
    setattr(screen, *change)
    h.app.refresh()
    after = shown(h)
    assert after != before and after == fresh(h)
    setattr(screen, change[0], getattr(Sign, change[0]))
    h.app.refresh()
    assert shown(h) == before


@pytest.mark.parametrize("size", [(800, 480), (720, 1280), (1920, 1080), (7, 3)])
def test_the_sky_filled_band_by_band_is_the_gradient_row_by_row(size):
    from companion.ui.kit import theme as th

    surface = pygame.Surface(size)
    th.paint_sky(surface)
    w, h = size
    for y in range(h):
        t = y / max(1, h - 1)
        row = tuple(round(a + (b - a) * t) for a, b in zip(th.SKY_TOP, th.SKY_BOTTOM))
        assert {tuple(surface.get_at((x, y)))[:3] for x in range(0, w, max(1, w // 7))} | {
            tuple(surface.get_at((w - 1, y)))[:3]
        } == {row}, y


def test_a_cloud_mine_game_keeps_four_frames_at_most_and_finds_each_press_s_frame_among_them():
    from companion.ui.loop.app import STILL_FRAMES

    clock = Clock()
    h = Harness((1024, 600), clock=clock)
    h.start_game({"game": "cloudmine", "players": SIX})
    rng = random.Random(5)
    found = presses = 0
    while not isinstance(h.app.screen, EndScreen):
        rehearse(h)
        assert len(h.app._stills) <= STILL_FRAMES == 4
        guess(h, rng.random() < 0.3)
        presses += 1
        found += kept_key(h) in h.app._stills
        shown(h)
        clock.t += 1.0
    assert found == presses  # every press's frame, right, wrong or the end, was drawn ahead


def test_a_press_between_two_slices_of_drawing_ahead_shows_what_drawing_it_afresh_shows():
    clock = Clock()
    h = Harness((800, 480), clock=clock)
    h.start_game({"game": "cloudmine", "players": SIX})
    rng = random.Random(7)
    for press in range(12):
        for _ in range(press % 7):  # part of the way: built, partly drawn, one answer drawn, ...
            h.app.rehearse_step()
        guess(h, rng.random() < 0.5)
        # the press's own frame: drawn ahead when the steps got that far (the still widgets;
        # the cards' flight starts with the next frame), else drawn afresh
        shown(h)
        assert shown(h) == fresh(h)
        clock.t += 1.0
        assert shown(h) == fresh(h)
    assert rehearse(h) > 6  # a state's drawing ahead comes in many short steps


@pytest.mark.parametrize("slice_s", [0.0, 1e-5, 1.0])
def test_the_same_frames_however_much_each_step_of_drawing_ahead_gets_done(slice_s, monkeypatch):
    """A slow core gets a widget a step, a fast one the whole frame: the frames shown agree."""
    from companion.ui.loop import app as loop

    monkeypatch.setattr(loop, "REHEARSAL_SLICE_S", slice_s)
    clock = Clock()
    h = Harness((800, 480), clock=clock)
    h.start_game({"game": "cloudmine", "players": SIX})
    rng = random.Random(0)
    for press in range(8):
        for _ in range(press % 7):
            h.app.rehearse_step()
        guess(h, rng.random() < 0.5)
        shown(h)
        assert shown(h) == fresh(h), press
        clock.t += 1.0
        assert shown(h) == fresh(h), press


@pytest.mark.parametrize("size, language", [((800, 480), "en"), ((720, 1280), "hu")])
def test_a_cloudship_game_kept_frame_by_frame_shows_what_drawing_it_afresh_shows(size, language):
    from companion.ui.screens.cloudship import demo_game

    clock = Clock()
    h = Harness(size, clock=clock)
    h.app.change_config(language=language)
    setup, actions = demo_game()
    h.start_game(setup)
    kept = 0
    for action in actions:
        assert h.app.screen.submit(action), action
        for step in (0.0, 0.15, 0.3, 0.6, 2.0):  # the moments (slide, flip, drop, plant) and after
            clock.t += step
            assert shown(h) == fresh(h), (action, step)
            kept += kept_key(h) in h.app._stills
        if isinstance(h.app.screen, EndScreen):
            break
    assert kept > len(actions)  # the still frames between the moments were kept and shown again


def test_the_end_screen_drawn_ahead_tells_the_game_s_own_story_worked_out_once(monkeypatch):
    from companion.insights import awards as told

    worked_out = []
    real = told.cloudmine_rounds
    monkeypatch.setattr(told, "cloudmine_rounds", lambda match: worked_out.append(match) or real(match))
    clock = Clock()
    h = Harness((800, 480), clock=clock)
    h.start_game({"game": "cloudmine", "players": SIX})
    while not isinstance(h.app.screen, EndScreen):
        rehearse(h)
        guess(h, True)
        shown(h)
        clock.t += 1.0
    match = h.app.controller.match
    # the stand-in's story, worked out while drawing ahead, served the game's own match
    assert worked_out and all(m is not match for m in worked_out) and worked_out[-1] == match
    assert [w.totals() for w in (h.find(f"story:{name}") for name in SIX)] == [
        [r.cards[name] for r in real(match)] for name in SIX
    ]
    assert h.app.screen.awards() == told.awards(match)
    assert shown(h) == fresh(h)
    h.app.screen.undo()  # one step back: that state's own story
    h.app.pump()
    assert h.app.controller.match.view["over"] is False


@pytest.mark.parametrize("game, players", [("cloud9", SIX), ("cloudmine", SIX[:4]), ("cloudship", SIX[:3])])
def test_a_frame_painted_over_the_last_where_it_differs_shows_what_painting_it_whole_shows(game, players):
    clock = Clock()
    h = Harness((800, 480), clock=clock)
    h.start_game({"game": game, "players": players})
    rng = random.Random(1)
    for _ in range(60):
        legal = [a for a in h.app.controller.legal_actions() if a.get("act") not in ("undo", "redo")]
        if not legal or h.app.controller.match.view.get("over"):
            break
        h.app.controller.submit(rng.choice(legal))
        h.app.pump()
        clock.t += 3.0  # the move's moment over
        assert shown(h) == fresh(h)
    if game != "cloudmine":  # its answers change most of the frame: painted whole
        assert h.app.frames_painted_in_part >= 1


def test_the_areas_painted_again_are_those_of_the_widgets_that_changed():
    from companion.ui.loop.repaint import changed_areas

    a, b, c = pygame.Rect(0, 0, 10, 10), pygame.Rect(100, 100, 10, 10), pygame.Rect(5, 5, 10, 10)
    # b moved to c: both its places, joined with nothing else
    assert changed_areas(("A", "B"), [a, b], ("A", "C"), [a, c], (800, 480)) == [b, c]
    assert changed_areas(("A", "B"), [a, b], ("A", "B"), [a, b], (800, 480)) == []
    # the same widgets in another order may cover each other otherwise: painted whole
    assert changed_areas(("A", "B"), [a, b], ("B", "A"), [b, a], (800, 480)) is None
    # most of the frame changed: painted whole
    big = pygame.Rect(0, 0, 800, 400)
    assert changed_areas(("A",), [a], ("D",), [big], (800, 480)) is None
