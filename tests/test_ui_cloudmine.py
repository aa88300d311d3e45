"""The Cloud Mine played on the touchscreen, headless: every step by simulated touch, checked
against the rules core; undo, refusals, the end of the game, resume, and seats claimed with real
gpiozero pins (MockFactory)."""

from __future__ import annotations

import threading
import time

import pygame
import pytest
from hypothesis import given, settings, strategies as st

from companion.controller import GameController
from companion.rules import Match
from companion.ui.screens.cloudmine import CloudMineScreen, ring_cells
from companion.ui.screens.end import EndScreen
from companion.ui.tools.harness import Harness

RULEBOOK = ["András", "Edit", "Tamás", "Gabriella", "Zsolt", "Robi"]


def type_name(h: Harness, index: int, name: str) -> None:
    """Rename player `index` with the on-screen keyboard, letter by letter."""
    h.tap(f"name:{index}")
    for letter in name:
        if letter.isupper():
            if not h.find("shift").selected:
                h.tap("shift")
            letter = letter.lower()
        if not h.shows(f"key:{letter}"):  # an accented letter: on the accents keys
            h.tap("accents")
        h.tap(f"key:{letter}")
    h.tap("done")


def test_a_whole_game_by_touch_from_the_home_screen():
    h = Harness((800, 480))
    h.tap("game:cloudmine")
    for _ in range(3):
        h.tap("more")
    for index, name in enumerate(RULEBOOK):
        type_name(h, index, name)
    assert [e.name for e in h.screen.entries] == RULEBOOK
    h.tap("start")
    assert isinstance(h.screen, CloudMineScreen)
    view = h.app.controller.match.view
    assert view["dreamer"] == "András" and view["chooser"] == "Robi" and view["to_guess"] == "Edit"
    assert "András draws 6 cards for Robi" in h.texts()

    # the rulebook's round: Edit, Tamás, Gabriella wrong, Zsolt right
    for guesser in ("Edit", "Tamás", "Gabriella"):
        assert f"{guesser} guesses" in h.texts()
        h.tap("wrong")
    assert "András holds 3 wrong guesses" in h.texts()
    h.tap("right")
    view = h.app.controller.match.view
    assert view["scores"] == {"András": 3, "Edit": 0, "Tamás": 0, "Gabriella": 0, "Zsolt": 3, "Robi": 0}
    assert view["dreamer"] == "Robi" and view["chooser"] == "Zsolt"
    assert h.find("score:Zsolt").text == "3" and h.find("role:Robi").text == "Dreamer"

    # play on by touch; the rules core replaying the same actions must agree at the end
    taps = 0
    while not h.app.controller.match.view["over"]:
        h.tap("right" if taps % 3 == 2 else "wrong")
        taps += 1
    assert isinstance(h.screen, EndScreen)
    played = h.app.controller.match
    replayed = Match.start(played.setup)
    for action in played.actions():
        replayed = replayed.apply(action)
    assert replayed.view == played.view
    assert played.view["deck"] < 6 and sum(played.view["scores"].values()) == 80 - played.view["deck"]
    for name in played.view["winners"]:
        assert name in h.find("headline").text
    for name, score in played.view["scores"].items():
        assert h.find(f"final:{name}").text == str(score)


def test_each_tap_is_one_guess_and_plays_its_sound():
    h = Harness()
    h.start_game({"game": "cloudmine", "players": ["Ann", "Ben", "Cat", "Dan", "Eve"]})
    h.tap("wrong")
    h.tap("right")
    match = h.app.controller.match
    assert [a["correct"] for a in match.actions()] == [False, True]
    assert h.app.sounds.played == ["wrong", "right"]


def test_undo_is_one_tap_away_and_not_offered_at_the_start():
    h = Harness()
    h.start_game({"game": "cloudmine", "players": ["Ann", "Ben", "Cat"]})
    assert not h.find("undo").enabled
    h.tap_at(h.find("undo").rect.center)  # a disabled undo does nothing at all
    assert h.app.controller.match.actions() == [] and h.app.toast_text is None
    h.tap("wrong")
    before = h.app.controller.match.view
    h.tap("wrong")
    h.tap("undo")
    assert h.app.controller.match.view == before
    h.key(pygame.K_z, pygame.KMOD_CTRL)
    assert h.app.controller.match.actions() == []


def test_only_the_current_observers_guess_is_offered_and_a_refusal_names_the_rule():
    h = Harness()
    h.start_game({"game": "cloudmine", "players": ["Ann", "Ben", "Cat", "Dan"]})
    screen = h.app.game_screen
    assert screen.legal == [
        {"act": "guess", "player": "Ben", "correct": True},
        {"act": "guess", "player": "Ben", "correct": False},
    ]
    assert not screen.submit({"act": "guess", "player": "Ann", "correct": True})
    assert h.app.toast_text == "Not allowed: Ann is the Dreamer and does not guess; Ben guesses now"
    assert h.app.toast_detail == "Rule: a round, step 4"
    assert h.app.controller.match.actions() == []


def test_with_three_players_each_observer_guesses_twice_in_turn():
    h = Harness()
    h.start_game({"game": "cloudmine", "players": ["Ann", "Ben", "Cat"]})
    # Ann dreams, Cat chooses, Ben is the only Observer: two attempts
    assert h.find("role:Ben").text == "Guesses now" and h.find("role:Cat").text == "Chooser"
    assert "Ann draws 4 cards for Cat" in h.texts()
    h.tap("wrong")
    assert "Ben guesses" in h.texts() and "3 cards on the table" in h.texts()
    h.tap("wrong")
    assert h.app.controller.match.view["scores"]["Cat"] == 4  # nobody found it: the Chooser takes all


def test_the_end_screen_can_take_back_the_last_guess():
    h = Harness()
    h.start_game({"game": "cloudmine", "players": ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"]})
    while not h.app.controller.match.view["over"]:
        h.tap("right")
    assert isinstance(h.screen, EndScreen)
    h.tap("undo")
    assert isinstance(h.screen, CloudMineScreen) and not h.app.controller.match.view["over"]


def test_ending_a_game_asks_first_and_is_kept_in_the_journal(tmp_path):
    from companion.journal import Journal

    journal = Journal.open(tmp_path / "journal.sqlite3")
    h = Harness(controller=GameController(journal), journal=journal)
    h.start_game({"game": "cloudmine", "players": ["Ann", "Ben", "Cat"]})
    h.tap("wrong")
    h.tap("menu")
    h.tap("dialog:End game")
    assert h.app.dialog.title == "End the game?"
    h.tap("dialog:Cancel")
    assert isinstance(h.screen, CloudMineScreen)
    h.tap("menu")
    h.tap("dialog:End game")
    h.tap("dialog:End game")
    assert isinstance(h.screen, EndScreen) and h.screen.ended_early
    assert [g.status for g in journal.games()] == ["abandoned"]
    journal.close()


def test_an_ended_game_stays_ended_on_home_in_the_history_and_for_resume(tmp_path):
    from companion.journal import Journal
    from companion.journal.commands import _game_line
    from companion.rules import RulesError

    journal = Journal.open(tmp_path / "journal.sqlite3")
    h = Harness(controller=GameController(journal), journal=journal)
    h.start_game({"game": "cloudmine", "players": ["Ann", "Ben", "Cat"]})
    h.tap("wrong")
    h.tap("menu")
    h.tap("dialog:End game")
    h.tap("dialog:End game")
    h.tap("home")
    assert not h.shows("continue")  # nothing to continue: the game was ended
    with pytest.raises(RulesError):  # a late input (a ball the ship saw) does not revive it
        h.app.controller.submit(h.app.controller.match.legal_actions()[0])
    (game,) = journal.games()
    assert game.status == "abandoned" and "not finished" in _game_line(game)
    assert journal.unfinished() is None and journal.offer() is None
    journal.close()


def test_a_resumed_game_comes_back_with_its_colours_and_state(tmp_path):
    from companion.journal import Journal

    path = tmp_path / "journal.sqlite3"
    journal = Journal.open(path)
    h = Harness(controller=GameController(journal), journal=journal)
    h.tap("game:cloudmine")
    h.tap("colour:0")  # red -> the next free colour
    h.tap("start")
    h.tap("wrong")
    view, colours = h.app.controller.match.view, [p.colour for p in h.app.game_screen.players]
    journal.close()

    again = Journal.open(path)
    h2 = Harness(controller=GameController(again), journal=again)
    assert h2.app.controller.resume() is not None
    screen = h2.app.show_game()
    h2.app.pump()
    assert screen.view == view and [p.colour for p in screen.players] == colours
    assert "Blue guesses" in h2.texts() or f"{view['to_guess']} guesses" in h2.texts()
    again.close()


@pytest.mark.parametrize("area", [pygame.Rect(16, 72, 496, 340), pygame.Rect(16, 100, 688, 640)])
def test_the_ring_goes_clockwise_round_the_board_with_no_holes(area):
    import math

    for n in range(3, 9):
        cells = ring_cells(area, n, 8)
        assert all(area.contains(c) for c in cells)
        assert not any(a.colliderect(b) for i, a in enumerate(cells) for b in cells[i + 1 :])  # none touch
        # clockwise from the top: the angle round the middle grows with the seat
        angles = [math.atan2(c.centery - area.centery, c.centerx - area.centerx) for c in cells]
        turned = [(a - angles[0]) % (2 * math.pi) for a in angles]
        assert turned == sorted(turned)
        # evenly spread: no gap between neighbours round the ring twice another (no hole)
        steps = [math.dist(cells[i].center, cells[(i + 1) % n].center) for i in range(n)]
        assert max(steps) < 2 * min(steps), (n, steps)


def test_names_can_be_typed_on_a_real_keyboard_too():
    h = Harness()
    h.tap("game:cloudmine")
    h.tap("name:1")
    for text in "Győző":
        h.type(text)
    h.key(pygame.K_BACKSPACE)
    h.type("ű")
    h.key(pygame.K_RETURN)
    assert h.screen.entries[1].name == "Győzű"


def test_seats_are_claimed_with_the_seat_buttons_on_real_gpiozero_pins():
    from gpiozero.pins.mock import MockFactory

    from companion.config import Config
    from companion.devices.seats import SeatInput
    from companion.devices.table import SeatTable
    from companion.ui.loop.hardware import SeatHardware

    woken = threading.Event()
    seat_input = SeatInput(Config().seats, pin_factory=MockFactory(), simulated=True, wake=woken.set)
    hardware = SeatHardware(SeatTable(seat_input), simulated=True)
    h = Harness(hardware=hardware)
    try:
        h.tap("game:cloudmine")
        h.tap("claim")
        assert hardware.mode == "claim"
        for seat in (5, 2, 7):  # Red, Blue, Green press the JUMP button at their seats
            pin = seat_input.pin(seat, "jump")
            pin.drive_low()
            deadline = time.monotonic() + 2
            waiting = len(h.screen.waiting())
            while len(h.screen.waiting()) == waiting and time.monotonic() < deadline:
                woken.wait(0.05)
                woken.clear()
                h.app.pump()
            pin.drive_high()
            time.sleep(0.05)  # longer than the debounce window before the next press
            h.app.pump()
        assert [(e.name, e.seat) for e in h.screen.entries] == [("Blue", 2), ("Red", 5), ("Green", 7)]
        h.tap("start")
        assert h.app.controller.match.setup["seats"] == {"Blue": 2, "Red": 5, "Green": 7}
        assert hardware.mode == "play"
    finally:
        hardware.close()


def test_a_seat_claimed_by_touch_is_lit_and_cannot_be_claimed_again_by_button():
    from gpiozero.pins.mock import MockFactory

    from companion.config import Config
    from companion.devices.events import LedMode
    from companion.devices.seats import SeatInput
    from companion.devices.table import SeatTable
    from companion.ui.loop.hardware import SeatHardware

    seat_input = SeatInput(Config().seats, pin_factory=MockFactory(), simulated=True)
    hardware = SeatHardware(SeatTable(seat_input), simulated=True)
    h = Harness(hardware=hardware)
    try:
        h.tap("game:cloudmine")
        h.tap("claim")
        assert h.screen.claim_seat(4)  # the first player taps seat 4 on the screen
        h.app.pump()
        seat_input.flush_leds()
        assert seat_input.led_mode(4) is not LedMode.OFF
        pin = seat_input.pin(4, "jump")  # the next player presses at the taken seat
        pin.drive_low()
        time.sleep(0.05)
        h.app.pump()
        pin.drive_high()
        h.app.pump()
        assert h.screen.claimed() == [(4, h.screen.entries[0].name)]
    finally:
        hardware.close()


@settings(max_examples=30, deadline=None)
@given(players=st.integers(3, 8), taps=st.lists(st.sampled_from(["right", "wrong", "undo"]), max_size=40))
def test_the_screen_always_shows_the_rules_state(players, taps):
    h = Harness()
    h.start_game({"game": "cloudmine", "players": [f"P{i}" for i in range(players)]})
    for tap in taps:
        if h.app.controller.match.view["over"]:
            break
        widget = h.find(tap)
        if widget.enabled:
            h.tap(tap)
        view = h.app.controller.match.view
        if view["over"]:
            assert isinstance(h.screen, EndScreen)
            break
        assert h.find("deck").text == str(view["deck"])
        assert f"{view['to_guess']} guesses" in h.texts()
        for name in view["players"]:
            assert h.find(f"score:{name}").text == str(view["scores"][name])
        assert h.find(f"role:{view['dreamer']}").text == "Dreamer"
        assert h.find(f"role:{view['chooser']}").text == "Chooser"
        assert h.find("undo").enabled == h.app.controller.match.can_undo


@settings(max_examples=60, deadline=None)
@given(
    text=st.text(st.sampled_from("abcdefgh ÄÖÜßőű WMiI"), min_size=1, max_size=40),
    width=st.integers(20, 600),
    height=st.integers(10, 200),
    wrap=st.booleans(),
)
def test_fitted_text_is_inside_its_box_unless_it_says_it_overflows(text, width, height, wrap):
    from companion.ui.kit import theme as th
    from companion.ui.kit.widgets import fit_text

    pygame.font.init()
    fitted = fit_text(text, width, height, 36, 18, wrap)
    assert 18 <= fitted.px <= 36
    font = th.font(fitted.px)
    # fitting means the letters, placed as a Label places them, stay inside the box
    fits = all(font.size(line)[0] <= width for line in fitted.lines) and font.fits_height(fitted.lines, height)
    assert fits != fitted.overflow
    if not fitted.overflow:
        from companion.ui.kit.theme import Theme
        from companion.ui.kit.widgets import Label

        assert Label((0, 0, width, height), text, 36, min_size=18, wrap=wrap).clipped(Theme(1.0)) == []
    if wrap:
        assert " ".join(" ".join(fitted.lines).split()) == " ".join(text.split())
