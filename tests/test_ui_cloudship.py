"""The Cloudship screen on real pygame (dummy video and audio drivers), driven by taps: a whole
game, every phase at every listed size in every language, refusals, sounds, the dice roller,
the sensor's and the tilt's way in, and only legal actions offered."""

from __future__ import annotations

import random
import time
from collections import Counter

import pygame
import pytest
from hypothesis import given, settings, strategies as st

from companion import i18n
from companion.rules import Match
from companion.rules.cloudship import FACES, MODES, STORM
from companion.rules.simulate import random_actions
from companion.ui.boards.cloudship import CELEBRATE_S, FLIP_S, PASSED, PLANT_S, SLIDE_S
from companion.ui.kit.layout import SIZES
from companion.ui.loop.hardware import NoHardware
from companion.ui.screens.cloudship import CloudshipScreen, demo_game, random_roll
from companion.ui.screens.end import EndScreen
from companion.ui.tools.harness import Harness

SETUP, ACTIONS = demo_game()


def start(size=(800, 480), setup=SETUP, **kwargs) -> tuple[Harness, CloudshipScreen]:
    h = Harness(size, **kwargs)
    screen = h.start_game(setup)
    assert isinstance(screen, CloudshipScreen)
    return h, screen


def tap_action(h: Harness, action: dict) -> None:
    """Enter `action` the way the table does: by tapping the screen."""
    act = action["act"]
    if act == "roll":
        for face in action["dice"]:
            h.tap(f"face:{face}")
    elif act == "drop":
        h.tap(f"drop:{action['ball']}:{action['bed']}")
    elif act == "plant":
        h.tap(f"plant:{action['bed']}")
    elif act == "reveal":
        h.tap("reveal:hail" if action["hail"] else "reveal:blank")
    else:  # land, undo
        h.tap(act)


def view(h: Harness) -> dict:
    return h.app.controller.match.view


@pytest.fixture
def language():
    yield
    i18n.set_language("en")


# --- a whole game -----------------------------------------------------------------------------


def test_a_whole_game_tapped_through_ends_with_every_flower_planted():
    now = [100.0]
    h, screen = start(clock=lambda: now[0])
    for number, action in enumerate(ACTIONS):
        before = len(h.app.controller.match.actions())
        tap_action(h, action)
        assert len(h.app.controller.match.actions()) == before + 1, f"action {number} was not taken: {action}"
    v = view(h)
    assert v["over"] and v["result"] == "won" and v["phase"] == "over"
    assert v["beds"] == {"yellow": 3, "purple": 3, "white": 3, "blue": 3} and v["engine_room"] == 0
    assert v["winners"] == SETUP["players"] and v["scores"] == dict.fromkeys(SETUP["players"], 12)
    assert h.app.controller.match.actions() == ACTIONS
    expected = Match.start(SETUP)
    for action in ACTIONS:
        expected = expected.apply(action)
    assert h.app.controller.match.view == expected.view
    # the twelfth flower: the garden celebrates on the board, then the end screen
    assert h.screen is screen and screen.moment("celebrate", CELEBRATE_S) is not None
    now[0] += CELEBRATE_S
    h.app.pump()
    assert isinstance(h.screen, EndScreen)


def test_the_demo_game_shows_every_step_the_issue_names():
    phases, acts = Counter(), Counter()
    match = Match.start(SETUP)
    for action in ACTIONS:
        match = match.apply(action)
        phases[match.view["phase"]] += 1
        acts[action["act"]] += 1
    assert {"roll", "flight", "plant", "reveal", "over"} <= set(phases)
    assert acts["plant"] >= 1 and acts["reveal"] >= 3
    assert {"act": "roll", "dice": [STORM] * 3} in ACTIONS
    assert any(a.get("ball") == "hail" for a in ACTIONS)
    assert match.view["result"] == "won"


def test_a_mistaken_face_is_taken_back_by_tapping_its_die():
    h, screen = start()
    h.tap("face:yellow")
    h.tap("face:storm")
    h.tap("die:1")  # the storm was a mistake
    assert screen.picked == ["yellow"] and view(h)["phase"] == "roll"
    h.tap("face:blue")
    h.tap("face:blue")
    assert view(h)["phase"] == "flight" and view(h)["dice"] == ["yellow", "blue", "blue"]
    assert screen.picked == []


def test_undo_in_the_top_bar_takes_back_a_ball():
    h, screen = start()
    tap_action(h, {"act": "roll", "dice": ["yellow", "purple", "storm"]})
    h.tap("drop:rain:white")
    assert view(h)["drops"] == [{"ball": "rain", "bed": "white"}]
    h.tap("undo")
    assert view(h)["drops"] == [] and view(h)["phase"] == "flight"
    assert h.app.sounds.played[-1] == "fall"


def test_three_storms_do_not_count_and_the_screen_says_roll_again():
    h, screen = start()
    tap_action(h, {"act": "roll", "dice": [STORM] * 3})
    assert view(h)["phase"] == "roll" and view(h)["storm"] == 0
    assert "Three storms do not count: roll again." in h.texts()
    tap_action(h, {"act": "roll", "dice": ["white", STORM, STORM]})
    assert view(h)["storm"] == 2 and view(h)["load"] == {"rain": 1, "hail": 0}


# --- what the screen shows ----------------------------------------------------------------------


def test_the_flight_says_exactly_what_to_load_and_offers_hail_only_when_it_flies():
    h, screen = start()
    tap_action(h, {"act": "roll", "dice": ["yellow", "purple", "storm"]})
    assert "Load 2 raindrops" in h.texts()
    assert not h.shows("drop:hail:yellow")  # no hail loaded: no hail buttons at all
    assert h.shows("target:yellow") and not h.shows("target:white")  # a die for each of its colour
    # on to a round with hail in the engine room
    for action in ACTIONS[1:8]:
        tap_action(h, action)
    assert view(h)["load"] == {"rain": 3, "hail": 1}
    assert "Load 3 raindrops, 1 hailstone" in h.texts()
    assert h.find("drop:hail:blue").enabled


def test_the_resolution_shows_what_grew_and_what_the_hail_took():
    h, screen = start()
    match = Match.start(SETUP)
    for action in ACTIONS[:21]:  # up to the round where hail takes the purple flower
        screen.submit(action)
        match = match.apply(action)
    h.app.pump()
    v = view(h)
    assert v["planted"] == ["yellow", "yellow"] and v["removed"] == ["purple"]
    assert "Grew:" in h.texts() and "Hail took:" in h.texts()
    purple, yellow = h.find("bed:purple"), h.find("bed:yellow")
    assert (purple.lost, yellow.new) == (1, 2)  # drawn: a cross in the emptied hole, rings round the new
    # a full bed's next flower is wild: the wild card's rainbow in the bed, a picture, no words
    assert yellow.flowers == 3 and yellow.texts() == []


def test_the_reveal_question_names_the_space_and_both_answers_work():
    h, screen = start()
    for action in ACTIONS[:4]:
        tap_action(h, action)
    assert view(h)["phase"] == "reveal" and view(h)["reveal_space"] == 1
    assert "Turn over the tile on space 1: hail?" in h.texts()
    h.tap("reveal:hail")
    assert view(h)["reveal_space"] == 2 and view(h)["hail_visible"] == 1
    assert h.app.sounds.played[-1] == "hail"
    h.tap("reveal:blank")
    assert view(h)["phase"] == "roll" and view(h)["hail_visible"] == 1
    assert h.shows("hail-visible") and h.find("hail-visible").texts() == []  # a hailstone, no words


def test_the_weather_bar_counts_down_the_squares_and_darkens_the_passed_ones():
    h, screen = start()

    def passed_pixels() -> int:
        bar = h.find("weather-bar").rect
        surface = h.render()
        return sum(
            1
            for x in range(bar.left, bar.right)
            for y in range(bar.top, bar.bottom, 2)
            if surface.get_at((x, y))[:3] == PASSED
        )

    assert h.find("storm-left").texts() == ["13"] and passed_pixels() == 0
    tap_action(h, {"act": "roll", "dice": ["yellow", STORM, STORM]})
    time.sleep(SLIDE_S)  # the cloud's slide ends
    # the storm step's result card stays over the weather bar until it is tapped away
    assert h.find("story-headline").texts() == ["The storm moves 2 squares"]
    assert h.find("story-text").texts() == ["11 squares left"]  # in digits, as its headline (words are spoken)
    h.tap("story-card")
    assert not h.shows("story-card")
    assert h.find("storm-left").texts() == ["11"] and passed_pixels() > 0


# --- refusals and legality ----------------------------------------------------------------------


def test_a_refused_tap_shows_the_reason_and_the_rule_and_changes_nothing():
    h, screen = start()
    tap_action(h, {"act": "roll", "dice": ["yellow", "purple", "storm"]})
    h.tap("drop:rain:yellow")
    h.tap("drop:rain:purple")
    before = h.app.controller.match
    button = h.find("drop:rain:white")
    assert not button.enabled
    h.tap("drop:rain:white")
    assert h.app.controller.match is before
    assert "all of them have come down" in h.app.toast_text and "3. Load the Cloud Ship" in h.app.toast_detail


def test_a_full_bed_cannot_take_the_wild_flower_and_says_why():
    h, screen = start()
    for action in ACTIONS:
        if view(h)["phase"] == "plant":
            break
        screen.submit(action)
    h.app.pump()
    assert view(h)["phase"] == "plant" and view(h)["beds"]["yellow"] == 3
    assert not h.find("plant:yellow").enabled
    h.tap("plant:yellow")
    assert view(h)["phase"] == "plant"
    assert "the yellow bed is full" in h.app.toast_text and "Wild Colors" in h.app.toast_detail
    h.tap("plant:white")
    assert view(h)["beds"]["white"] == 3 and view(h)["phase"] == "roll"


def button_action(key: str) -> dict | None:
    """The action an action button's key stands for."""
    parts = key.split(":")
    if parts[0] == "drop":
        return {"act": "drop", "ball": parts[1], "bed": parts[2]}
    if parts[0] == "plant":
        return {"act": "plant", "bed": parts[1]}
    if parts[0] == "reveal":
        return {"act": "reveal", "hail": parts[1] == "hail"}
    if parts[0] == "land":
        return {"act": "land"}
    return None


@pytest.fixture(scope="module")
def shared_harness():
    return Harness((800, 480))


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 80), mode=st.sampled_from(MODES))
def test_every_legal_action_is_offered_and_only_legal_ones_are_enabled(shared_harness, seed, steps, mode):
    setup = {"game": "cloudship", "players": ["Ann", "Ben", "Cili"], "mode": mode}
    if mode == "partly_cloudy":
        setup["removed_sets"] = [1 + seed % 3]
    h = shared_harness
    screen = h.start_game(setup)
    for _, action in random_actions(setup, seed, limit=steps):
        screen.submit(action)
    if h.app.screen is not screen:  # the game ended: look at the game screen itself
        h.app.replace(screen)
    h.app.pump()
    legal = [a for a in screen.legal if a["act"] not in ("undo", "redo")]
    offered = {}
    for button in h.buttons():
        action = button_action(button.key or "")
        if action is not None:
            assert button.enabled == (action in legal), (button.key, view(h)["phase"])
            offered[button.key] = action
    if view(h)["phase"] == "roll":
        assert {b.key for b in h.buttons()} >= {f"face:{face}" for face in FACES} | {"roll-for-me"}
    else:
        assert all(a in offered.values() for a in legal), (legal, offered)
    assert h.overflows() == [] and h.small_targets() == [] and h.off_canvas() == []


# --- every phase, every size, every language ----------------------------------------------------

LOST = (
    {"game": "cloudship", "players": ["Noah", "Ida"], "mode": "stormy"},
    [a for _ in range(7) for a in ({"act": "roll", "dice": [STORM, STORM, "blue"]}, {"act": "land"})][:-1],
)


def phase_stops():
    """(name, setup, actions) reaching each phase and look of the screen."""
    yield "roll-first", SETUP, []
    yield "one-face-picked", SETUP, []
    yield "flight-rain", SETUP, ACTIONS[:1]
    yield "flight-landed", SETUP, ACTIONS[:3]
    yield "reveal", SETUP, ACTIONS[:4]
    yield "roll-grew", SETUP, ACTIONS[:6]
    yield "three-storms", SETUP, ACTIONS[:7]
    yield "flight-hail", SETUP, ACTIONS[:10]
    yield "reveal-hail-took", SETUP, ACTIONS[:21]
    yield "roll-hail-took", SETUP, ACTIONS[:22]
    wild = next(i for i, a in enumerate(ACTIONS) if a["act"] == "plant")
    yield "plant", SETUP, ACTIONS[:wild]
    yield "flight-late", SETUP, ACTIONS[: wild + 3]
    yield "won", SETUP, ACTIONS
    yield "lost", *LOST
    yield (
        "long-names",
        {
            "game": "cloudship",
            "players": ["Bartholomew-Max", "Hannelore Weiß", "Gabriella", "Előd"],
            "first_commander": "Bartholomew-Max",
        },
        [],
    )


# every listed display, and the 7" display turned on its side with --rotate 90 (480x800 upright)
LAYOUTS = [(size, 0) for size in SIZES] + [((800, 480), 90)]


@pytest.mark.parametrize("size,rotate", LAYOUTS, ids=[f"{w}x{h}-{r}" for (w, h), r in LAYOUTS])
@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_every_phase_fits_at_every_size_in_every_language(size, rotate, lang, language):
    h = Harness(size, rotate=rotate)
    h.app.change_config(language=lang)
    problems = []
    for name, setup, actions in phase_stops():
        screen = h.start_game(setup)
        for action in actions:
            assert screen.submit(action), (name, action)
        if name == "one-face-picked":
            h.tap("face:purple")
        if h.app.screen is not screen:
            h.app.replace(screen)
        h.app.pump()
        h.render()
        problems += [f"{name}: text does not fit: {text!r}" for text in h.overflows()]
        problems += [f"{name}: tap target under 48 px: {key}" for key in h.small_targets()]
        problems += [f"{name}: outside the screen: {key}" for key in h.off_canvas()]
        if name == "lost":
            assert view(h)["result"] == "lost"
    assert not problems, "\n".join(problems)


def test_the_main_actions_are_at_least_64_px():
    h, screen = start()
    for action in ACTIONS[:3]:
        tap_action(h, action)
    land = h.find("land")
    assert min(land.rect.size) >= h.app.theme.px(64)
    for action in ACTIONS[3:4]:
        tap_action(h, action)
    assert min(h.find("reveal:hail").rect.size) >= h.app.theme.px(64)


def test_screenshots(tmp_path):
    """Portrait, German and Hungarian screenshots of several phases are really drawn."""
    for size, lang, stop in [
        ((800, 480), "en", 10),
        ((720, 1280), "en", 21),
        ((800, 480), "de", 4),
        ((800, 480), "hu", 35),
    ]:
        h, screen = start(size)
        h.app.change_config(language=lang)
        for action in ACTIONS[:stop]:
            screen.submit(action)
        path = h.save(tmp_path / f"{size[0]}x{size[1]}-{lang}-{stop}.png")
        image = pygame.image.load(str(path))
        assert image.get_size() == size
        # the step panel's main button is drawn where the harness says it is
        main = next(b for b in h.buttons() if b.key in ("land", "reveal:hail", "plant:purple", "face:yellow"))
        assert image.get_at(main.rect.move(4, main.rect.h // 2).topleft)[:3] != (0, 0, 0)
    i18n.set_language("en")


# --- sounds, the roller, the sensor and the tilt ------------------------------------------------


def test_every_accepted_action_plays_a_sound():
    now = [100.0]
    h, screen = start(clock=lambda: now[0])
    names = []
    for action in ACTIONS:
        played = len(h.app.sounds.played)
        tap_action(h, action)
        now[0] += CELEBRATE_S
        h.app.pump()  # the moments end (the win's celebration, then its end screen)
        new = h.app.sounds.played[played:]
        assert new, f"{action} played no sound"
        names += new
    assert {"roll", "storm", "raindrop", "hail", "flower", "right", "won"} <= set(names)


def test_the_app_rolls_with_the_true_weights():
    rng = random.Random(7)
    faces = Counter(face for _ in range(4000) for face in random_roll(rng))
    total = sum(faces.values())
    assert total == 12000
    assert faces[STORM] / total == pytest.approx(2 / 6, abs=0.02)
    for colour in ("yellow", "purple", "white", "blue"):
        assert faces[colour] / total == pytest.approx(1 / 6, abs=0.015)


def test_roll_for_me_enters_a_roll():
    h, screen = start()
    screen.rng = random.Random(3)
    expected = random_roll(random.Random(3))
    h.tap("roll-for-me")
    assert h.app.controller.match.actions() == [{"act": "roll", "dice": expected}]
    assert h.app.sounds.played[0] == "roll"


def test_a_drop_from_the_ship_sensor_shows_like_a_tap():
    h, screen = start()
    tap_action(h, {"act": "roll", "dice": ["yellow", "white", "storm"]})
    h.app.controller.submit({"act": "drop", "ball": "rain", "bed": "yellow"})  # as the sensor will
    h.app.controller.submit({"act": "drop", "ball": "rain", "bed": "white"})
    h.app.pump()
    assert not h.find("drop:rain:blue").enabled
    assert "Every ball is down: land." in h.texts()
    assert h.app.sounds.played[-2:] == ["raindrop", "raindrop"]


class TiltingShip(NoHardware):
    def __init__(self):
        super().__init__()
        self.tilt = 0.0

    def ship_tilt(self):
        return self.tilt


def test_the_ship_is_drawn_at_the_tilt_the_hardware_reports():
    hardware = TiltingShip()
    h, screen = start(hardware=hardware)
    tap_action(h, {"act": "roll", "dice": ["yellow", "white", "blue"]})
    ship = h.find("ship").rect
    level = h.render().subsurface(ship).copy()
    hardware.tilt = 15.0
    h.app.refresh()
    h.app.pump()
    assert screen.ship_tilt() == 15.0
    tilted = h.render().subsurface(ship)
    assert any(level.get_at((x, y)) != tilted.get_at((x, y)) for x in range(0, ship.w, 3) for y in range(0, ship.h, 3))


def test_a_new_flower_drops_into_its_bed_for_a_moment_then_the_screen_is_still():
    now = [100.0]
    h, screen = start(clock=lambda: now[0])
    for action in ACTIONS[:4]:  # the first round: land plants yellow and purple
        tap_action(h, action)
    t, beds = screen.moment("plant", PLANT_S)
    assert t == 0 and beds == {"yellow": 1} and h.app.animating
    frames = h.app.frames_drawn
    now[0] += PLANT_S / 2
    h.app.pump()
    assert h.app.frames_drawn == frames + 1 and screen.moment("plant", PLANT_S)[0] == 0.5
    now[0] += SLIDE_S  # (the first roll's storm slide, begun before, is over by then too)
    h.app.pump()  # the last frame, still
    assert screen.moment("plant", PLANT_S) is None and not h.app.animating
    frames = h.app.frames_drawn
    h.app.pump()
    assert h.app.frames_drawn == frames
    h.tap("reveal:blank")
    assert screen.moment("plant", PLANT_S)[1] == {"purple": 1}  # the next flower of the same landing


def test_an_idle_screen_draws_nothing_more():
    from companion.ui.boards.forecast_view import forecaster_for

    h, screen = start()
    tap_action(h, {"act": "roll", "dice": ["yellow", "white", "blue"]})
    forecaster_for(h.app.game_screen).wait()  # the storm forecast, worked out off the main thread,
    h.app.pump()  # may still bring its one redraw: let it land first
    frames = h.app.frames_drawn
    for _ in range(5):
        h.app.pump()
    assert h.app.frames_drawn == frames


@pytest.mark.parametrize("language", ["de", "hu"])
def test_long_random_games_never_overflow_in_german_or_hungarian(language):
    from companion.rules.simulate import random_actions

    setup = {"game": "cloudship", "players": ["Ann", "Ben", "Cat"]}
    h = Harness((800, 480))
    h.app.change_config(language=language)
    try:
        for seed in range(3):
            h.start_game(setup)
            for _before, action in random_actions(setup, seed, limit=120):
                assert h.app.game_screen.submit(action)
                h.app.pump()
                assert h.overflows() == [], (seed, action, h.app.controller.match.view["phase"])
    finally:
        h.app.change_config(language="en")


# --- the board drawn like the box, and its moments ---------------------------------------------


def stepped(size=(800, 480), rotate=0):
    now = [100.0]
    h = Harness(size, rotate=rotate, clock=lambda: now[0])
    return h, h.start_game(SETUP), now


def test_the_storm_cloud_slides_one_square_per_storm_then_stands_still():
    h, screen, now = stepped()
    for action in ACTIONS[:6]:  # round 2: the storm one square on
        screen.submit(action)
    now[0] += 1
    h.render()
    assert view(h)["storm"] == 1
    bar = h.find("weather-bar").rect
    square = bar.w / (view(h)["storm_end"] + 1)
    start = screen._cloud_rect.centerx
    tap_action(h, {"act": "roll", "dice": ["yellow", "purple", STORM]})
    assert screen.moment("slide", SLIDE_S) is not None and h.app.animating
    now[0] += SLIDE_S / 2
    h.app.pump()
    assert start < screen._cloud_rect.centerx < start + square  # on its way
    now[0] += SLIDE_S / 2
    h.app.pump()  # the last frame: the cloud on its new square
    assert abs(screen._cloud_rect.centerx - (start + square)) <= 1 and not h.app.animating
    frames = h.app.frames_drawn
    h.app.pump()
    assert h.app.frames_drawn == frames  # nothing moves while nothing happens


def test_a_hail_tile_flips_on_its_space_and_its_stone_joins_the_load():
    h, screen, now = stepped()
    for action in ACTIONS[:4]:
        tap_action(h, action)
    assert view(h)["reveal_space"] == 1 and not h.shows("hail-visible")
    tap_action(h, {"act": "reveal", "hail": True})
    assert screen.moment("flip", FLIP_S)[1] == 1 and h.shows("hail-visible")
    frames = h.app.frames_drawn
    for step in range(4):
        now[0] += FLIP_S / 4 + (0.01 if step == 3 else 0)
        h.app.pump()
    assert h.app.frames_drawn == frames + 4 and screen.moment("flip", FLIP_S) is None
    assert not h.app.animating
    h.app.pump()
    assert h.app.frames_drawn == frames + 4


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 120))
def test_the_garden_draws_exactly_the_flowers_planted(shared_harness, seed, steps):
    from companion.ui.screens.cloudship import Flowerbed

    setup = {"game": "cloudship", "players": ["Ann", "Ben"]}
    h = shared_harness
    screen = h.start_game(setup)
    for _, action in random_actions(setup, seed, limit=steps):
        screen.submit(action)
    if h.app.screen is not screen:
        h.app.replace(screen)
    h.app.pump()
    beds = [w for w in h.widgets() if isinstance(w, Flowerbed)]
    assert sorted(w.colour for w in beds) == sorted(view(h)["beds"])
    assert sum(w.flowers_drawn() for w in beds) == sum(view(h)["beds"].values())
    assert all(w.flowers_drawn() == view(h)["beds"][w.colour] for w in beds)


def card_stops():
    """(kind, what it must leave in sight, actions) for each result card of the board."""
    yield (
        "storm",
        ("weather", "bed:yellow", "bed:purple", "bed:white", "bed:blue"),
        [{"act": "roll", "dice": ["white", STORM, STORM]}],
    )  # a flight with the storm card up
    yield "storm", ("weather",), ACTIONS[:6] + [{"act": "roll", "dice": [STORM, STORM, "blue"]}]
    hail_at = next(i for i, a in enumerate(ACTIONS) if a == {"act": "reveal", "hail": True})
    yield "hail", ("engine",), ACTIONS[: hail_at + 1]


@pytest.mark.parametrize("size,rotate", LAYOUTS, ids=[f"{w}x{h}-{r}" for (w, h), r in LAYOUTS])
def test_no_result_card_covers_what_it_is_about(size, rotate):
    for kind, about, actions in card_stops():
        h, screen, now = stepped(size, rotate)
        for action in actions:
            assert screen.submit(action)
        h.app.pump()
        assert screen.card is not None and screen.card.kind == kind
        card = h.find("story-card").rect
        for key in about:
            part = next(w for w in h.widgets() if w.key == key)
            assert not card.colliderect(part.rect), (kind, key, card, part.rect)


def test_the_forecast_is_for_grown_ups_off_by_default():
    from companion.config import Config

    h, screen = start()
    assert not h.shows("forecast-win") and getattr(screen, "_forecaster", None) is None
    h, screen = start(config=Config(show_forecast=True))
    screen._forecaster.wait()
    h.app.pump()
    assert h.shows("forecast-win")


@pytest.mark.parametrize("size,rotate", LAYOUTS, ids=[f"{w}x{h}-{r}" for (w, h), r in LAYOUTS])
@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_the_load_is_the_flight_s_headline(size, rotate, lang, language):
    """What to load is the biggest text of the step, never fine print; the engine room's spaces
    stay large enough to see the tiles (no specks)."""
    from companion.ui.kit.widgets import Label

    h = Harness(size, rotate=rotate)
    h.app.change_config(language=lang)
    screen = h.start_game(SETUP)
    for action in ACTIONS[:10]:  # a flight with rain and hail
        screen.submit(action)
    h.app.pump()
    theme = h.app.theme
    step = h.find("step").rect
    load = h.find("load")
    others = [w for w in h.widgets() if isinstance(w, Label) and step.contains(w.rect) and w is not load]
    assert load.fitted(theme).px >= max(w.fitted(theme).px for w in others)
    assert load.fitted(theme).px >= theme.px(28)
    radius = screen.pipe_spaces(h.find("pipe").rect)[0][2]
    assert radius >= theme.px(11), radius


@pytest.mark.parametrize("size", [(720, 1280), (800, 480)])
def test_the_storm_cards_headline_takes_two_lines_at_most_no_smaller_than_its_words(size, language):
    for lang in i18n.LANGUAGES:
        h = Harness(size)
        h.app.change_config(language=lang)
        screen = h.start_game(SETUP)
        assert screen.submit({"act": "roll", "dice": ["yellow", STORM, STORM]})  # "... 2 Felder weiter"
        h.app.pump()
        assert not (h.overflows() or h.clipped() or h.covered()), lang
        theme = h.app.theme
        headline, words = h.find("story-headline").fitted(theme), h.find("story-text").fitted(theme)
        assert len(headline.lines) <= 2 and headline.px >= words.px, (lang, headline)
        assert h.find("story-band").rect.contains(h.find("story-headline").rect)


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_in_portrait_the_roll_banner_has_room_for_two_lines_and_nothing_falls_under_the_floor(language):
    # a long commander's "Szentgyörgyi Boglárka, dobj a kockákkal!" once shrank to the floor on
    # one line, and "Roll for me" under it went below the smallest type
    from companion.ui.tools.demo import players_game

    setup, actions = players_game("cloudship", 4)
    h = Harness((720, 1280))
    h.app.change_config(language=language)
    screen = h.start_game(setup)
    theme = h.app.theme
    for action in actions[:12]:
        if screen.view["phase"] == "roll":
            h.app.pump()
            banner = next(w for w in h.widgets() if w.key == "prompt")
            assert banner.rect.h >= 2 * theme.size("body"), banner.rect
            assert h.under_floor() == [] and h.overflows() == [] and h.cramped() == []
        screen.submit(action)
