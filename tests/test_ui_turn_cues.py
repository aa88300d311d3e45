"""Turn cues by seat position: where each seat sits (Settings), the ribbon on that edge in the
player's colour and shape, the seat's LED, and the seat's own chime."""

from __future__ import annotations

import time
from collections import Counter

import pygame
import pytest

from companion import config as settings
from companion.config import DEFAULT_SEATS, Config
from companion.devices.events import JUMP
from companion.devices.seats import LedMode, SeatInput
from companion.devices.table import SeatTable
from companion.ui.kit import theme as th
from companion.ui.kit.layout import Viewport
from companion.ui.kit.ribbon import EDGES, band, canvas_edge, display_edge
from companion.ui.loop.hardware import SeatHardware
from companion.ui.screens.seat_edges import SeatEdgesScreen, ribbons, to_move
from companion.ui.tools.harness import Harness


@pytest.fixture
def reset_language():
    yield
    from companion import i18n

    i18n.set_language("en")


MINE = {"game": "cloudmine", "players": ["Ann", "Ben", "Cat", "Dan", "Eve"]}


@pytest.mark.parametrize("rotate", [0, 90, 180, 270])
@pytest.mark.parametrize("edge", EDGES)
def test_a_band_on_the_canvas_edge_shows_on_the_display_edge_it_is_for(edge, rotate):
    # the real viewport turns the canvas onto the display: the canvas edge chosen for a
    # display edge must light that display edge and no other
    Harness((800, 480))
    display = pygame.Surface((800, 480))
    viewport = Viewport(display, rotate)
    viewport.canvas.fill((0, 0, 0))
    canvas = viewport.canvas
    pygame.draw.rect(canvas, (255, 0, 0), band(canvas.get_rect(), canvas_edge(edge, rotate), 6))
    viewport.present()
    w, h = display.get_size()
    middle = {"top": (w // 2, 2), "bottom": (w // 2, h - 3), "left": (2, h // 2), "right": (w - 3, h // 2)}
    lit = {e for e, pos in middle.items() if display.get_at(pos)[:3] == (255, 0, 0)}
    assert lit == {edge}
    assert display_edge(canvas_edge(edge, rotate), rotate) == edge


def test_the_default_seats_sit_two_at_each_edge_and_bad_edges_fall_back():
    assert Config().seat_edges == ("bottom", "bottom", "right", "right", "top", "top", "left", "left")
    loaded, problems = settings.from_dict({"seat_edges": ["up"] * 8})
    assert loaded.seat_edges == Config().seat_edges and problems[0].startswith("seat_edges: ")
    loaded, problems = settings.from_dict({"seat_edges": ["left"] * 8})
    assert loaded.seat_edges == ("left",) * 8 and problems == []


def active_ribbon_colour(h: Harness, edge: str) -> tuple[int, int, int]:
    """The colour most of a line along the edge shows (the shapes on a ribbon are the rest)."""
    h.render()
    canvas = h.app.viewport.canvas
    w, hh = canvas.get_size()
    top = h.app.frame.bar.bottom + 2
    points = {
        "top": [(x, top) for x in range(w // 3, 2 * w // 3)],
        "bottom": [(x, hh - 3) for x in range(w // 3, 2 * w // 3)],
        "left": [(2, y) for y in range(hh // 3, 2 * hh // 3)],
        "right": [(w - 3, y) for y in range(hh // 3, 2 * hh // 3)],
    }[edge]
    return Counter(tuple(canvas.get_at(p)[:3]) for p in points).most_common(1)[0][0]


@pytest.mark.parametrize("rotate", [0, 90])
def test_the_player_to_move_gets_a_ribbon_in_their_colour_on_their_seats_edge(rotate):
    config = Config().with_changes(seat_edges=("left", "top", "right", "bottom", "top", "top", "left", "left"))
    h = Harness((800, 480), rotate=rotate, config=config)
    screen = h.start_game(MINE)
    guesser = to_move(screen.view)
    assert guesser == [screen.view["to_guess"]]  # the seat whose LED blinks
    seat = [p.name for p in screen.players].index(guesser[0]) + 1  # no seats claimed: seating order
    shown = ribbons(screen, h.app.config, rotate)
    assert [(s, colour) for _e, colour, s in shown] == [(seat, screen.player(guesser[0]).colour)]
    edge = canvas_edge(config.seat_edges[seat - 1], rotate)
    assert shown[0][0] == edge
    assert active_ribbon_colour(h, edge) == th.COLOURS[screen.player(guesser[0]).colour].rgb
    others = [e for e in EDGES if e != edge]
    assert all(active_ribbon_colour(h, e) != th.COLOURS[screen.player(guesser[0]).colour].rgb for e in others)


def test_each_seat_chimes_its_own_chime_when_its_turn_comes_and_only_then():
    h = Harness((800, 480))
    screen = h.start_game(MINE)
    first = ribbons(screen, h.app.config, 0)[0][2]
    assert h.app.sounds.chimes == [f"seat{first}"]
    count = len(h.app.sounds.chimes)
    h.app.redraw()
    h.app.pump()
    assert len(h.app.sounds.chimes) == count  # a redraw of the same turn is quiet
    h.tap("right")  # the guess: the next player guesses
    after = ribbons(screen, h.app.config, 0)[0][2]
    assert after != first and h.app.sounds.chimes[count:] == [f"seat{after}"]
    assert h.app.sounds.played == ["right"]  # the game's own effects as before


def test_the_seat_chimes_are_eight_different_short_sounds():
    import wave
    from pathlib import Path

    data = set()
    for seat in range(1, 9):
        with wave.open(str(Path("companion/sounds_data") / f"seat{seat}.wav")) as f:
            assert f.getnframes() / f.getframerate() <= 0.7  # short: a cue, not a tune
            data.add(f.readframes(f.getnframes()))
    assert len(data) == 8


def test_settings_ask_where_each_seat_sits_and_store_it(tmp_path):
    path = tmp_path / "config.toml"
    h = Harness((800, 480), config_path=path)
    h.app.show(h.app.make("settings"))
    h.app.pump()
    h.tap("seat-edges")
    assert isinstance(h.screen, SeatEdgesScreen)
    assert not (h.overflows() or h.clipped() or h.covered() or h.small_targets() or h.off_canvas())
    h.tap("seat:3")
    h.tap("edge:left")
    assert h.app.config.seat_edges[2] == "left"
    assert h.find("seat:4").selected  # on to the next seat
    h.tap("edge:top")
    assert settings.load(path)[0].seat_edges[:4] == ("bottom", "bottom", "left", "top")


def test_the_edges_picked_on_a_turned_picture_are_the_display_edges():
    h = Harness((800, 480), rotate=90)
    h.app.show(SeatEdgesScreen(h.app))
    h.app.pump()
    h.tap("seat:1")
    h.tap("edge:top")  # the picture's top is the display's right edge at 90°
    assert h.app.config.seat_edges[0] == "right"


def test_the_ribbons_seat_is_the_one_whose_led_blinks_on_gpiozero_pins():
    from gpiozero.pins.mock import MockFactory

    h = Harness((800, 480))
    app = h.app
    seat_input = SeatInput(DEFAULT_SEATS[:5], pin_factory=MockFactory(), wake=app.wake)
    table = SeatTable(seat_input)
    app.hardware = SeatHardware(table, simulated=True)
    try:
        screen = h.start_game(MINE)
        app.hardware.enter(screen)
        app.pump()
        seat_input.flush_leds()
        seat = ribbons(screen, app.config, 0)[0][2]
        assert seat_input.led_mode(seat) == LedMode.BLINK
        assert all(seat_input.led_mode(s) != LedMode.BLINK for s in range(1, 6) if s != seat)
        # gpiozero's own blink: the pin goes on and off by itself
        pin = seat_input.pin(seat, "led")
        states = set()
        deadline = time.monotonic() + 10  # a busy machine may hold the blink thread back a while
        while len(states) < 2 and time.monotonic() < deadline:
            states.add(bool(pin.state))
            time.sleep(0.02)
        assert states == {False, True}
        assert table.seats.seat_of(screen.view["to_guess"]) == seat  # the seat code's own seating
        # the Dreamer's press judges the guess: the turn passes, the ribbon and the blink together
        dreamer = table.seats.seat_of(screen.view["dreamer"])
        seat_input.pin(dreamer, JUMP).drive_low()
        for _ in range(50):
            app.pump()
            if ribbons(screen, app.config, 0)[0][2] != seat:
                break
            pygame.time.wait(10)
        seat_input.pin(dreamer, JUMP).drive_high()
        moved = ribbons(screen, app.config, 0)[0][2]
        assert moved != seat
        app.pump()
        seat_input.flush_leds()
        assert seat_input.led_mode(moved) == LedMode.BLINK
    finally:
        table.close()


@pytest.mark.parametrize("language", ["en", "de", "hu"])
@pytest.mark.parametrize("size", [(800, 480), (720, 1280), (1920, 1080)])
def test_the_seats_picture_and_settings_fit_in_every_language(size, language, reset_language):
    h = Harness(size)
    h.app.change_config(language=language)
    for screen in (h.app.make("settings"), SeatEdgesScreen(h.app)):
        h.app.show(screen)
        h.app.pump()
        assert not (h.overflows() or h.clipped() or h.covered() or h.small_targets() or h.off_canvas()), (
            type(screen).__name__,
            h.overflows(),
            h.clipped(),
            h.covered(),
            h.small_targets(),
        )


def test_a_seat_chime_plays_on_the_mixer_and_not_when_the_sound_is_off():
    from companion.sound import Sounds

    sounds = Sounds()
    if not sounds.available:
        pytest.skip(f"no audio: {sounds.unavailable_reason}")
    try:
        assert sounds.chime(3) is not None
        sounds.set_muted(True)
        assert sounds.chime(3) is None
    finally:
        sounds.close()


def shape_boxes(surface: pygame.Surface, strip: pygame.Rect, edge: str, rgb) -> list[pygame.Rect]:
    """The boxes of the shapes on a ribbon: what is not its colour, off its ink line (a row, or
    a column, of ink all along the band), in runs along the band."""
    along = edge in ("top", "bottom")
    length = strip.w if along else strip.h
    across = range(strip.top, strip.bottom) if along else range(strip.left, strip.right)

    def at(i: int, j: int) -> tuple:
        return tuple(surface.get_at((strip.left + i, j) if along else (j, strip.top + i)))[:3]

    line = {j for j in across if all(at(i, j) == th.INK for i in range(length))}
    boxes, run = [], []
    for i in range(length):
        points = [(strip.left + i, j) if along else (j, strip.top + i) for j in across if j not in line]
        marked = [p for p in points if surface.get_at(p)[:3] != rgb]
        if marked:
            run += marked
        elif run:
            xs, ys = [p[0] for p in run], [p[1] for p in run]
            boxes.append(pygame.Rect(min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1))
            run = []
    return boxes


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
@pytest.mark.parametrize("edge", EDGES)
def test_a_ribbon_shows_whole_shapes_of_a_readable_size_beside_the_game_not_on_it(size, edge):
    from companion.ui.kit.layout import Frame
    from companion.ui.kit.ribbon import draw_ribbon
    from companion.ui.screens.base import below_a_top_ribbon
    from companion.ui.screens.seat_edges import ribbon_area

    Harness(size)
    f = Frame(*size)
    game = below_a_top_ribbon(f.content, f)  # where a game screen's board is
    for colour in ("red", "yellow", "green", "purple", "blue", "black", "orange", "white"):
        surface = pygame.Surface(size)
        surface.fill((1, 2, 3))
        strip = draw_ribbon(surface, ribbon_area(f), edge, colour, f.scale)
        assert surface.get_rect().contains(strip) and not strip.colliderect(game)
        assert strip.top >= f.bar.bottom - f.u(4)  # under the top bar's buttons, never over them
        boxes = shape_boxes(surface, strip, edge, th.COLOURS[colour].rgb)
        assert len(boxes) >= 8, colour
        for box in boxes:  # whole, in the band, the band's colour between it and the screen's edge
            assert strip.contains(box) and surface.get_rect().inflate(-2, -2).contains(box), (colour, box, strip)
            across = box.h if edge in ("top", "bottom") else box.w
            # readable from the table, at the top as at the other edges
            assert across >= f.u(12), (colour, box)
