"""A seat press's frame: painted over the last frame where the two differ (the board compared
part by part), drawn ahead, or painted whole, it shows what drawing the same state afresh
shows, in all three games, landscape and portrait."""

from __future__ import annotations

import random

import pygame
import pytest

from companion.devices.events import JUMP, STAY, SeatPress
from companion.devices.router import ACT, SeatMap, route
from companion.ui.loop import repaint
from companion.ui.tools.harness import Harness
from test_ui_kept_frames import Clock, fresh, shown

PLAYERS = {"cloud9": ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"], "cloudmine": ["Ann", "Ben", "Cat", "Dan", "Eve"]}
PLAYERS["cloudship"] = ["Ann", "Ben", "Cat"]


def seat_press(h: Harness, players: list[str], rng: random.Random) -> dict | None:
    """A seat button someone may press now that the game takes, as the router turns it into an
    action; None when the next move is the screen's."""
    view = h.app.controller.match.view
    seats = SeatMap.in_order(players)
    for seat in range(1, len(players) + 1):
        for button in rng.sample([JUMP, STAY], 2):
            decision = route(SeatPress(seat, button, 0.0), view, seats)
            if decision.kind == ACT and decision.action is not None:
                return decision.action
    return None


def settle(h: Harness, clock: Clock) -> None:
    """The press's moment over (a jump's flight, the dice, the flowers dropping)."""
    for _ in range(10):
        clock.t += 3.0
        h.app.pump()
        if not h.app.animating and not h.app._dirty:
            return


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
@pytest.mark.parametrize("game", ["cloud9", "cloudmine", "cloudship"])
def test_frames_after_seat_presses_show_what_drawing_the_state_afresh_shows(game, size):
    clock = Clock()
    h = Harness(size, clock=clock)
    players = PLAYERS[game]
    h.start_game({"game": game, "players": players})
    rng = random.Random(3)
    presses = 0
    for step in range(90):
        controller = h.app.controller
        if controller.match.view["over"]:
            break
        action = seat_press(h, players, rng)
        if action is None:  # the screen's move: a roll, a rise, a drop
            legal = [a for a in controller.legal_actions() if a.get("act") not in ("undo", "redo")]
            action = rng.choice(legal)
        else:
            presses += 1
            if presses % 2:  # every other press drawn ahead first, as while the table thinks
                while h.app.rehearse_step():
                    pass
        controller.submit(action)
        h.app.pump()
        settle(h, clock)
        assert shown(h) == fresh(h), f"step {step}: {action}"
    assert presses >= 8


def test_a_cloud9_passenger_s_decision_paints_again_only_what_it_changed():
    """The board is compared part by part: a stay moves the highlight to the next passenger's
    row and changes the step's words; the rest of the board is not painted again."""
    clock = Clock()
    h = Harness((800, 480), clock=clock)
    players = PLAYERS["cloud9"]
    h.start_game({"game": "cloud9", "players": players, "first_pilot": "Ann"})
    controller = h.app.controller
    controller.submit({"act": "roll", "dice": ["red", "yellow"]})
    h.app.pump()
    settle(h, clock)
    view = controller.match.view
    assert view["phase"] == "decide" and len(view["decide_order"]) >= 2
    painted: list[float] = []
    real = repaint.repaint

    def counted(surface, areas, parts, bounds, ctx):
        painted.append(sum(a.w * a.h for a in areas) / (surface.get_width() * surface.get_height()))
        real(surface, areas, parts, bounds, ctx)

    before = h.app.frames_painted_in_part
    repaint.repaint = counted
    try:
        controller.submit({"act": "stay", "player": view["to_decide"]})  # not drawn ahead
        h.app.pump()
    finally:
        repaint.repaint = real
    assert h.app.frames_painted_in_part == before + 1
    assert len(painted) == 1 and painted[0] < 0.4
    settle(h, clock)
    assert shown(h) == fresh(h)


def test_a_picture_of_parts_is_compared_and_painted_piece_by_piece_within_its_box():
    from companion.ui.kit.theme import Theme
    from companion.ui.kit.widgets import DrawContext, Label, Panel, Widget
    from companion.ui.screens.cloud9 import Snapshot

    row = Panel(pygame.Rect(0, 0, 100, 40), key="row")
    words = Label(pygame.Rect(10, 30, 80, 30), "Ann", key="name")  # reaches out of the picture
    picture = Snapshot(pygame.Rect(0, 0, 100, 50), [row, Widget((0, 0, 1, 1)), words])
    ctx = DrawContext(Theme(1.0))
    parts = repaint.parts([Panel(pygame.Rect(0, 0, 800, 480), key="under"), picture], ctx)
    assert [(w.key, clip) for w, clip in parts] == [("under", None), ("row", picture.rect), ("name", picture.rect)]
    # where a piece may paint stays within the picture's box
    assert all(picture.rect.contains(box) for box in repaint.part_bounds(parts[1:], ctx.theme))


def land_until_flowers_fall(h: Harness, clock: Clock, seed: int, each_landing=None) -> None:
    """Play Cloudship's rounds (three balls dropped each) until a landing plants flowers, and
    stop while they fall; `each_landing(app)` runs after every landing's press."""
    controller, app = h.app.controller, h.app
    rng = random.Random(seed)
    for _ in range(6):  # rounds until a landing plants flowers
        while controller.match.view["phase"] != "flight":
            legal = [a for a in controller.legal_actions() if a.get("act") not in ("undo", "redo")]
            controller.submit(rng.choice(legal))
            h.app.pump()
            settle(h, clock)
            assert not controller.match.view["over"], "the game ended before a landing planted a flower"
        for drop in [a for a in controller.legal_actions() if a["act"] == "drop"][:3]:
            controller.submit(drop)
            h.app.pump()
            settle(h, clock)
        while app.rehearse_step():
            pass
        controller.submit({"act": "land"})
        h.app.pump()
        if each_landing is not None:
            each_landing(app)
        if app.screen.moment("plant", 0.5) is not None:
            return
        settle(h, clock)
    raise AssertionError("no landing planted a flower")


def test_a_cloudship_landing_drawn_ahead_goes_up_as_drawn_and_its_flowers_fall_over_a_kept_frame():
    from companion.ui.kit.widgets import DrawContext
    from companion.ui.loop.app import still_key

    clock = Clock()
    h = Harness((800, 480), clock=clock)
    h.start_game({"game": "cloudship", "players": PLAYERS["cloudship"]})
    landings = []

    def drawn_ahead(app):
        landings.append(app.foreseen_shown)
        assert app.foreseen_wrong == 0
        assert [b - a for a, b in zip(landings, landings[1:])] == [1] * (len(landings) - 1)

    land_until_flowers_fall(h, clock, 5, drawn_ahead)
    app = h.app
    # flowers falling: the frame below them is kept
    ctx = DrawContext(app.theme, None, None, app.now())
    assert still_key(app.widgets, ctx, app.viewport.canvas.get_size()) is not None
    settle(h, clock)
    assert shown(h) == fresh(h)


def test_flowers_falling_into_a_bed_under_a_result_card_fall_behind_it():
    from companion.ui.kit.widgets import DrawContext, Panel

    clock = Clock()
    h = Harness((800, 480), clock=clock)
    h.start_game({"game": "cloudship", "players": PLAYERS["cloudship"]})
    land_until_flowers_fall(h, clock, 5)
    app = h.app
    clock.t += 0.25  # halfway down
    under = pygame.Surface(app.viewport.canvas.get_size())
    under.fill((0, 0, 0))

    def falling(card: pygame.Rect | None) -> pygame.Surface:
        kept = app.widgets
        if card is not None:
            app.widgets = [*kept, Panel(card, key="story-card")]
        try:
            surface = under.copy()
            app.screen.draw_above(surface, DrawContext(app.theme, None, None, app.now()))
        finally:
            app.widgets = kept
        return surface

    def drawn(surface: pygame.Surface) -> pygame.mask.Mask:
        """Where anything was drawn over the black."""
        mask = pygame.mask.from_threshold(surface, (0, 0, 0), (1, 1, 1, 255))
        mask.invert()
        return mask

    free = drawn(falling(None))
    (flowers,) = free.get_bounding_rects()  # the one flower, halfway down
    # a card over the flower's upper half
    card = pygame.Rect(flowers.x - 10, flowers.y - 10, flowers.w + 20, flowers.h // 2 + 10)
    covered = drawn(falling(card))
    card_mask = pygame.mask.Mask(free.get_size())
    card_mask.draw(pygame.mask.Mask(card.size, fill=True), card.topleft)
    assert free.overlap_area(card_mask, (0, 0)) > 0, "no flower falls where the card goes"
    assert covered.overlap_area(card_mask, (0, 0)) == 0, "a flower fell over the card"
    assert covered.count() == free.count() - free.overlap_area(card_mask, (0, 0)) > 0, "beside it they fall as before"


def test_a_new_frame_is_painted_on_a_kept_frame_let_go_not_on_fresh_memory():
    from companion.ui.loop.app import STILL_FRAMES

    clock = Clock()
    h = Harness((800, 480), clock=clock)
    h.start_game({"game": "cloudmine", "players": PLAYERS["cloudmine"]})
    controller, app = h.app.controller, h.app
    seen: list[pygame.Surface] = []  # held, so that no surface's id is taken by a later one
    for _ in range(12):
        view = controller.match.view
        controller.submit({"act": "guess", "player": view["to_guess"], "correct": False})
        h.app.pump()
        settle(h, clock)
        seen += [frame for frame in app._stills.values() if all(frame is not s for s in seen)]
        assert shown(h) == fresh(h)
    assert len(seen) <= STILL_FRAMES + 1
