"""Cloud 9 drawn ahead: while the app is idle it draws what the next press most likely shows (a
passenger's jump or stay at the seat, a solo pilot's jump, the pilot's rise or fall on the
screen), so that the frame after the press is found among the kept frames. What is shown must
be exactly what drawing it afresh shows: the moment the press starts (a fall hides the
balloon, a rise floats it up), the roll entry, the card, the end screen."""

from __future__ import annotations

import random

import pygame
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from companion.devices.events import JUMP, STAY, SeatPress
from companion.devices.router import SeatMap, route
from companion.ui.kit.widgets import DrawContext
from companion.ui.loop.app import still_key
from companion.ui.screens.cloud9 import Cloud9Screen
from companion.ui.screens.end import EndScreen
from companion.ui.tools.harness import Harness
from test_ui_kept_frames import Clock, pixels, rehearse, shown

THREE = ["Ann", "Ben", "Cat"]
SIX = [
    "Maximilian-Alexander",
    "Szentgyörgyi Boglárka",
    "Annemarie-Josephine",
    "Weißenböck Jürgen",
    "Christopher-Benedict",
    "Hajdúszoboszlói Ödön",
]
DRAWN_AHEAD = ("jump", "stay", "rise", "fall")


def fresh(h: Harness) -> bytes:
    """The same state drawn from nothing: built anew, no kept frame used or made."""
    app = h.app
    app.still_frames, app._still_memo = False, None
    app.refresh()
    app.draw()
    out = pixels(h)
    app.still_frames = True
    app.refresh()
    return out


def kept_key(h: Harness):
    """The key the frame on screen is kept by (None: not to be kept)."""
    app = h.app
    app._build_if_needed()
    return still_key(
        app.widgets, DrawContext(app.theme, app.focused(), app.pressed, app.clock()), app.viewport.canvas.get_size()
    )


def press(h: Harness, action: dict) -> None:
    """The action as a player gives it: a jump or stay at the seat, anything else on the screen."""
    app, names = h.app, h.app.controller.match.view["players"]
    act = action["act"]
    if act in ("jump", "stay"):
        seat = SeatPress(names.index(action["player"]) + 1, JUMP if act == "jump" else STAY, 0.0)
        decision = route(seat, app.controller.match.view, SeatMap.in_order(names))
        assert decision.kind == "act" and decision.action == action, decision
        app.controller.submit(decision.action)
    elif act == "rise":
        h.tap("rise-wild" if action["cards"] == ["wild"] else "rise")
    elif act == "fall":
        h.tap("fall")
    else:
        assert app.screen.submit(action), action


def choose(match, rng: random.Random) -> dict:
    """A plausible next action: passengers mostly stay low and jump high, pilots mostly rise."""
    v, legal = match.view, [a for a in match.legal_actions() if a["act"] not in ("undo", "redo")]
    if v["phase"] == "roll":
        if v["solo"] and rng.random() < v["cloud"] / 8:
            return {"act": "jump", "player": v["pilot"]}
        outcomes = match.rules.roll_outcomes(match.state)
        return rng.choices(outcomes, weights=[o.probability for o in outcomes])[0].action
    if v["phase"] == "decide":
        stays = rng.random() > v["cloud"] / 9
        return {"act": "stay" if stays else "jump", "player": v["to_decide"]}
    rises = [a for a in legal if a["act"] == "rise"]
    return rng.choice(rises) if rises and rng.random() < 0.8 else rng.choice(legal)


def play(h: Harness, clock: Clock, rng: random.Random, presses: int) -> dict[str, int]:
    """Press by press: the drawing ahead run to its end, then the press; every press drawn
    ahead is found among the kept frames and shows what drawing it afresh shows."""
    found = dict.fromkeys(DRAWN_AHEAD, 0)
    for _ in range(presses):
        screen = h.app.screen
        if not isinstance(screen, Cloud9Screen):
            break
        action = choose(screen.match, rng)
        rehearse(h)
        went_up = h.app.foreseen_shown
        press(h, action)
        if action["act"] != "roll":  # a roll cannot be foreseen: everything else is drawn ahead
            key = kept_key(h)
            assert key is not None and key in h.app._stills, (action, type(h.app.screen).__name__)
            found[action["act"]] += 1
        assert shown(h) == fresh(h), action  # the press's frame, its moment at its start
        # the frame drawn ahead went up first, with the fall or the jump starting over it (a
        # rise moves the rebuilt basket: that frame is drawn whole)
        assert h.app.foreseen_shown - went_up == (action["act"] in ("jump", "stay", "fall")), action
        clock.t += 0.2
        assert shown(h) == fresh(h), action  # mid-moment: the balloon falling, floating up, a piece flying
        clock.t += 2.0
        assert shown(h) == fresh(h), action
    assert h.app.foreseen_wrong == 0
    return found


@pytest.mark.parametrize(
    "players, rotate, language",
    [(THREE, 0, "en"), (SIX, 90, "de"), (SIX, 0, "hu"), (THREE, 90, "hu"), (SIX, 0, "en"), (THREE, 0, "de")],
)
def test_every_jump_stay_rise_and_fall_is_drawn_ahead_and_shows_what_drawing_it_afresh_shows(players, rotate, language):
    clock = Clock()
    h = Harness((800, 480), rotate=rotate, clock=clock)
    h.app.change_config(language=language)
    h.start_game({"game": "cloud9", "players": players, "first_pilot": players[0]})
    found = play(h, clock, random.Random(len(players) + rotate), 70)
    assert all(found[act] for act in ("jump", "stay", "rise")), found


def test_a_game_played_to_its_end_finds_the_end_screen_drawn_ahead():
    clock = Clock()
    h = Harness((800, 480), clock=clock)
    h.start_game({"game": "cloud9", "players": THREE, "first_pilot": "Ann"})
    found = play(h, clock, random.Random(11), 1000)
    assert isinstance(h.app.screen, EndScreen) and found["fall"] > 0 and found["jump"] > 0


def test_a_solo_pilot_s_jump_is_drawn_ahead_and_a_stay_press_still_opens_the_roll_entry():
    clock = Clock()
    h = Harness((800, 480), clock=clock)
    screen = h.start_game({"game": "cloud9", "players": THREE, "first_pilot": "Ann"})
    for action in (
        {"act": "roll", "dice": ["red", "blank"]},
        {"act": "jump", "player": "Ben"},
        {"act": "jump", "player": "Cat"},
        {"act": "rise", "cards": ["red"]},
    ):
        rehearse(h)
        press(h, action)
        clock.t += 2.0
    assert screen.view["solo"] and screen.rehearsal_actions() == [{"act": "jump", "player": "Ann"}]
    rehearse(h)
    screen.stay_solo()  # the seat's stay press: the roll entry, the jump still drawn ahead
    assert shown(h) == fresh(h) and h.shows("face:red")
    press(h, {"act": "jump", "player": "Ann"})
    assert kept_key(h) in h.app._stills and shown(h) == fresh(h)


def test_drawing_ahead_leaves_the_screen_its_roll_entry_and_its_moment_as_they_are():
    clock = Clock()
    h = Harness((800, 480), clock=clock)
    screen = h.start_game({"game": "cloud9", "players": THREE, "first_pilot": "Ann"})
    screen.submit({"act": "roll", "dice": ["red", "blank"]})
    screen.submit({"act": "jump", "player": "Ben"})
    h.app.draw()
    match, moment, card, before = screen.match, screen._moment, screen.card, pixels(h)
    played, frames = list(h.app.sounds.played), h.app.frames_drawn
    assert screen.rehearsal_actions() == [{"act": "jump", "player": "Cat"}, {"act": "stay", "player": "Cat"}]
    assert rehearse(h) > 0
    assert screen.match is match and screen._moment is moment and screen.card is card
    assert screen._drawn_at is None and h.app.screen is screen
    assert h.app.sounds.played == played and h.app.frames_drawn == frames and pixels(h) == before
    assert rehearse(h) == 0  # once per state


HARNESSES: list[Harness] = []


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(3, 6), seed=st.integers(0, 2**32 - 1), presses=st.integers(5, 30))
def test_random_legal_plays_find_every_press_drawn_ahead(players, seed, presses):
    if not HARNESSES:
        HARNESSES.append(Harness((800, 480), clock=Clock()))
    h = HARNESSES[0]
    names = SIX[:players]
    h.start_game({"game": "cloud9", "players": names, "first_pilot": names[seed % players]})
    rng = random.Random(seed)
    for _ in range(presses):
        screen = h.app.screen
        if not isinstance(screen, Cloud9Screen):
            break
        legal = [a for a in screen.match.legal_actions() if a["act"] not in ("undo", "redo")]
        action = rng.choice(legal)
        if action["act"] == "roll":
            outcomes = screen.match.rules.roll_outcomes(screen.match.state)
            action = rng.choice(outcomes).action
        rehearse(h)
        press(h, action)
        if action["act"] != "roll":
            assert kept_key(h) in h.app._stills, action
        assert shown(h) == fresh(h), action
        h.app.clock.t += 2.0


def test_a_redraw_after_a_rise_shows_the_balloon_back_on_its_cloud():
    clock = Clock()
    h = Harness((800, 480), clock=clock)
    h.start_game({"game": "cloud9", "players": THREE, "first_pilot": "Ann"})
    for action in (
        {"act": "roll", "dice": ["red", "blank"]},
        {"act": "jump", "player": "Ben"},
        {"act": "jump", "player": "Cat"},
    ):
        press(h, action)
        clock.t += 2.0
    press(h, {"act": "rise", "cards": ["red"]})
    assert h.app.animating
    clock.t += 0.2
    shown(h)  # mid-rise: the balloon floats up over the kept frame, which has none
    clock.t += 2.0
    assert not h.app.animating
    assert shown(h) == fresh(h)  # the same widgets, redrawn: the balloon stands on its cloud


def test_the_presses_drawn_ahead_while_a_piece_flew_are_still_kept_when_it_lands():
    """The next passenger's jump and stay are drawn ahead while the last one's piece flies out
    of the basket, and found again once it has landed: those frames stay kept ahead of the
    frames shown since, and the press after the jump goes up drawn ahead."""
    clock = Clock()
    h = Harness((800, 480), clock=clock)
    h.start_game({"game": "cloud9", "players": SIX[:5], "first_pilot": SIX[0]})
    rng, app, firsts = random.Random(4), h.app, 0
    while firsts < 6 and not app.controller.match.view["over"]:
        action = choose(app.controller.match, rng)
        press(h, action)
        app.pump()
        if action["act"] != "jump" or app.controller.match.view["phase"] != "decide" or not app.animating:
            clock.t += 3.0
            app.pump()
            continue
        rehearse(h)  # drawn ahead between the frames of the flight, as the loop does
        while app.animating:
            clock.t += 0.1
            app.pump()
        rehearse(h)  # landed: the jump's frame found again, the stay's drawn anew
        went_up = app.foreseen_shown
        press(h, {"act": rng.choice(["jump", "stay"]), "player": app.controller.match.view["to_decide"]})
        app.pump()
        assert app.foreseen_shown == went_up + 1
        assert shown(h) == fresh(h)
        firsts += 1
        clock.t += 3.0
        app.pump()
    assert firsts == 6


def test_a_frame_drawn_ahead_and_found_again_is_kept_ahead_of_frames_shown_since():
    """Drawing ahead again (a moment ended) finds the press's frame kept from before: that
    frame counts as just used, so the frames shown meanwhile go first, not it."""
    clock = Clock()
    h = Harness((800, 480), clock=clock)
    h.start_game({"game": "cloud9", "players": THREE, "first_pilot": "Ann"})
    app = h.app
    press(h, {"act": "roll", "dice": ["red", "blank"]})
    app.pump()
    rehearse(h)
    jump = {"act": "jump", "player": app.controller.match.view["to_decide"]}
    [ahead] = [seen.key for seen in app._foreseen if seen.action == jump]
    for key in [k for k in app._stills if k != ahead]:  # shown since: the jump's frame the oldest
        app._stills.move_to_end(key)
    app._rehearsal_key = None  # drawn ahead again, as after a moment
    rehearse(h)
    for n in range(2):  # two frames more: they take the places of frames not wanted again
        app._keep(("other", n), pygame.Surface((8, 8)))
    went_up = app.foreseen_shown
    press(h, jump)
    app.pump()
    assert app.foreseen_shown == went_up + 1
    assert shown(h) == fresh(h)
