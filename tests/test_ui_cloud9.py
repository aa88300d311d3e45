"""The Cloud 9 screen on real pygame (dummy drivers): whole games tapped through, the
rulebook's examples on the rise buttons, refusals that name the rule, the app's own roll, the
solo choice, sounds, and every phase laid out at every listed size in every language."""

from __future__ import annotations

import random

import pygame
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from companion import i18n
from companion.devices.events import STAY, SeatPress
from companion.devices.router import SeatMap, route
from companion.devices.table import SeatOutcome
from companion.rules import Match
from companion.rules.cloud9 import BLANK, DICE, POINTS, TOP_POINTS
from companion.ui.kit.layout import SIZES
from companion.ui.screens.cloud9 import LIFT_S, CardsButton, Cloud9Screen, demo_game
from companion.ui.screens.end import EndScreen
from companion.ui.tools.harness import Harness
from shots import shots

SHOTS = shots("cloud9-shots")
THREE = ["Ann", "Ben", "Cat"]
SIX = ["Anna", "Benedikt", "Cleo", "Dávid", "Erzsébet", "Gabriella"]


def start(players=THREE, size=(800, 480), **setup) -> tuple[Harness, Cloud9Screen]:
    h = Harness(size)
    screen = h.start_game({"game": "cloud9", "players": list(players), **setup})
    return h, screen


def view(h: Harness) -> dict:
    return h.app.controller.match.view


def everything(h: Harness) -> list:
    """Every widget on the screen, the board's (drawn as one picture) included."""
    out = []
    for w in h.widgets():
        out += [w] + list(getattr(w, "children", []))
    return out


def widget(h: Harness, key: str):
    return next(w for w in everything(h) if w.key == key)


def has(h: Harness, key: str) -> bool:
    return any(w.key == key for w in everything(h))


def toast(h: Harness) -> str:
    return f"{h.app.toast_text or ''} {h.app.toast_detail or ''}"


def tap_action(h: Harness, action: dict) -> None:
    """Play one contract action the way a player does: by tapping the screen."""
    act = action["act"]
    if act == "roll":
        if h.shows("stay") and view(h)["solo"]:
            h.tap("stay")  # the solo pilot stays in, then enters the roll
        for face in action["dice"]:
            h.tap(f"face:{face}")
        h.tap("done")
    elif act in ("jump", "stay"):
        h.tap(act)
    elif act == "rise":
        h.tap("rise-wild" if action["cards"] == ["wild"] else "rise")
    elif act == "fall":
        h.tap("fall")
    else:
        raise AssertionError(f"no way to tap {action}")


def submit_all(screen: Cloud9Screen, actions: list[dict]) -> None:
    for action in actions:
        assert screen.submit(action), action


# --- a whole game, by touch ---------------------------------------------------------------


def test_the_demo_game_tapped_through_ends_as_the_rules_say():
    setup, actions = demo_game()
    h = Harness((800, 480))
    h.start_game(setup)
    for action in actions:
        tap_action(h, action)
    match = h.app.controller.match
    expected = Match.start(setup)
    for action in actions:
        expected = expected.apply(action)
    # journaled in the rules' one spelling, whatever order the demo lists its dice and cards in
    assert match.actions() == [expected.canonical(a) for a in actions]
    assert match.view == expected.view
    assert match.view["over"] and match.view["winners"]
    assert max(match.view["scores"].values()) >= 50
    assert isinstance(h.app.screen, EndScreen)


def test_a_short_game_to_fifty_by_taps_in_portrait():
    # two trips to the top cloud for everyone aboard, then a fall ends the game
    h = Harness((720, 1280))
    h.start_game({"game": "cloud9", "players": THREE})
    for _trip in range(2):
        for cloud in range(1, 9):
            pilot = view(h)["pilot"]
            tap_action(h, {"act": "roll", "dice": [BLANK] * DICE[cloud]})
            for name in view(h)["decide_order"]:
                assert h.find("prompt").text == f"{name}: jump or stay?"
                h.tap("stay")
            assert view(h)["pilot"] == pilot and view(h)["phase"] == "resolve"
            h.tap("rise")
    assert view(h)["scores"] == dict.fromkeys(THREE, 2 * TOP_POINTS)
    assert view(h)["trip"] == 3 and not view(h)["over"]
    tap_action(h, {"act": "roll", "dice": ["red", "yellow"]})
    first, second = view(h)["decide_order"]
    h.tap("jump")
    h.tap("stay")
    h.tap("fall")
    final = view(h)
    assert final["over"]
    assert final["scores"] == {name: 2 * TOP_POINTS + (POINTS[1] if name == first else 0) for name in THREE}
    assert final["winners"] == [first]


# --- the roll ------------------------------------------------------------------------------


def test_the_roll_is_entered_face_by_face_and_can_be_corrected():
    h, screen = start()
    assert not h.find("done").enabled
    h.tap("face:green")
    h.tap("face:purple")
    assert not h.find("face:red").enabled  # two dice on cloud 1: no third face
    h.tap("slot:0")  # the green die was a mistake
    h.tap("face:red")
    assert [w.face for w in h.widgets() if w.key and w.key.startswith("slot:") and hasattr(w, "face")] == [
        "purple",
        "red",
    ]
    h.tap("done")
    assert view(h)["dice"] == ["red", "purple"]
    assert view(h)["phase"] == "decide"
    assert h.app.sounds.played[-1] == "roll"


def test_an_unfinished_roll_is_refused_with_the_rule():
    h, screen = start()
    h.tap("face:yellow")
    h.tap("done")
    assert view(h)["phase"] == "roll"
    assert "rolls 2 dice on cloud 1, not 1" in toast(h)
    assert "playing the game, step 1" in toast(h)
    assert h.find("slot:0").face == "yellow"  # nothing entered is lost


def test_the_entry_starts_afresh_after_any_change_of_the_game():
    h, screen = start()
    h.tap("face:red")
    h.tap("face:red")
    h.tap("done")
    h.tap("undo")
    assert view(h)["phase"] == "roll"
    assert not any(w.key == "slot:0" and hasattr(w, "face") for w in h.widgets())


def test_roll_for_me_undone_comes_back_the_same_by_touch():
    # undo is not a re-roll: a pilot cannot undo the app's dice until they like them
    # (their true face weights: tests/test_app_roll.py)
    h, screen = start()
    h.tap("app-roll")
    first = view(h)["dice"]
    for _ in range(5):
        assert screen.submit({"act": "undo"}) and view(h)["phase"] == "roll"
        h.tap("app-roll")
        assert view(h)["dice"] == first


def test_roll_for_me_by_touch_tumbles_briefly_then_stands_still():
    now = [100.0]
    h = Harness((800, 480), clock=lambda: now[0])
    screen = h.start_game({"game": "cloud9", "players": THREE})
    screen.rng = random.Random(7)
    h.tap("app-roll")
    assert view(h)["phase"] == "decide" and len(view(h)["dice"]) == 2
    assert h.app.sounds.played[-1] == "roll"
    assert h.app.animating
    now[0] += 0.1
    drawn = h.app.frames_drawn
    h.app.pump()
    assert h.app.frames_drawn == drawn + 1  # a tumbling frame
    now[0] += 0.25
    h.app.pump()  # the last, still frame
    assert not h.app.animating
    still = h.app.viewport.canvas.copy()
    drawn = h.app.frames_drawn
    h.app.pump()
    assert h.app.frames_drawn == drawn  # then nothing is drawn until something changes
    h.render()
    dice = widget(h, "roll").rect
    assert pygame.image.tobytes(still.subsurface(dice), "RGB") == pygame.image.tobytes(
        h.app.viewport.canvas.subsurface(dice), "RGB"
    )


# --- decisions -----------------------------------------------------------------------------


def test_each_passenger_decides_in_turn_from_the_pilots_left():
    h, screen = start(first_pilot="Ben")
    tap_action(h, {"act": "roll", "dice": ["red", "blank"]})
    assert h.find("prompt").text == "Cat: jump or stay?"
    assert widget(h, "role:Cat").text == "Decides now"
    assert widget(h, "player:Cat").highlight is not None
    assert [w.key for w in h.widgets() if (w.key or "").startswith("then:")] == ["then:Ann"]
    h.tap("jump")
    assert view(h)["scores"]["Cat"] == POINTS[1]
    assert h.app.sounds.played[-1] == "jump"
    assert h.find("prompt").text == "Ann: jump or stay?"
    h.tap("stay")
    assert h.app.sounds.played[-1] == "right"
    assert view(h)["phase"] == "resolve"
    assert widget(h, "role:Cat").text == "Jumped out"
    assert not has(h, "aboard:Cat") and has(h, "aboard:Ann")


def test_a_refused_decision_shows_the_reason():
    h, screen = start()
    tap_action(h, {"act": "roll", "dice": ["red", "blank"]})
    assert not screen.submit({"act": "stay", "player": "Cat"})  # Ben decides first
    assert "Ben decides first" in toast(h) and "playing the game, step 2" in toast(h)
    assert view(h)["to_decide"] == "Ben"


# --- rise or fall: the rulebook's examples ---------------------------------------------------


def climb_to_cloud_4(screen):
    """Everyone stays in and every pilot pays one red card, up to the first three-dice cloud."""
    for cloud in (1, 2, 3):
        submit_all(screen, [{"act": "roll", "dice": ["red"] + [BLANK] * (DICE[cloud] - 1)}])
        submit_all(screen, [{"act": "stay", "player": p} for p in screen.view["decide_order"]])
        submit_all(screen, [{"act": "rise", "cards": ["red"]}])


def test_rulebook_example_one_red_two_green_needs_those_cards_or_one_wild():
    h, screen = start()
    climb_to_cloud_4(screen)
    assert view(h)["cloud"] == 4
    tap_action(h, {"act": "roll", "dice": ["green", "red", "green"]})
    for _ in view(h)["decide_order"]:
        h.tap("stay")
    colours, wild = h.find("rise"), h.find("rise-wild")
    assert isinstance(colours, CardsButton) and colours.cards == ["red", "green", "green"]
    assert wild.cards == ["wild"] and colours.enabled and wild.enabled
    assert h.find("fall").enabled
    pilot = view(h)["pilot"]
    held = view(h)["hands"][pilot]
    h.tap("rise")
    assert view(h)["cloud"] == 5 and view(h)["hands"][pilot] == held - 3
    assert h.app.sounds.played[-1] == "rise"


def test_rulebook_example_one_green_one_blank_needs_one_green_or_one_wild():
    h, screen = start()
    tap_action(h, {"act": "roll", "dice": ["blank", "green"]})
    h.tap("stay")
    h.tap("stay")
    assert h.find("rise").cards == ["green"] and h.find("rise-wild").cards == ["wild"]
    assert widget(h, "roll").faces == ["green", BLANK]
    h.tap("rise-wild")
    assert view(h)["hands"]["Ann"] == 5 and view(h)["discards"] == 1


def test_an_all_blank_roll_only_rises_and_needs_no_card():
    h, screen = start()
    tap_action(h, {"act": "roll", "dice": [BLANK, BLANK]})
    h.tap("stay")
    h.tap("stay")
    assert h.find("prompt").text == "Ann: rise, no card needed"
    assert not h.shows("fall") and not h.shows("rise-wild")
    h.tap("rise")
    assert view(h)["cloud"] == 2 and view(h)["hands"]["Ann"] == 6


def test_a_rise_the_pilot_cannot_pay_is_offered_disabled_and_explains_ruling_4():
    h, screen = start()
    short_of_cards(screen)
    assert view(h)["hands"]["Ann"] == 1 and view(h)["phase"] == "resolve"
    assert not h.find("rise").enabled and h.find("rise-wild").enabled
    h.tap("rise")
    assert "Ann holds 1 card and cannot play 4" in toast(h) and "ruling 4" in toast(h)
    assert view(h)["cloud"] == 7
    h.tap("fall")
    assert view(h)["trip"] == 2 and view(h)["cloud"] == 1
    assert h.app.sounds.played[-1] == "fall"


def short_of_cards(screen):
    """Three players; Ann pilots clouds 1, 4 and 7, paying 2 then 3 cards, and then rolls 4."""
    rolls = {1: ["red", "green"], 4: ["red", "green", "yellow"], 7: ["red", "yellow", "green", "purple"]}
    for cloud in range(1, 8):
        dice = rolls.get(cloud, [BLANK] * DICE[cloud])
        submit_all(screen, [{"act": "roll", "dice": dice}])
        submit_all(screen, [{"act": "stay", "player": p} for p in screen.view["decide_order"]])
        if cloud < 7:
            submit_all(screen, [{"act": "rise", "cards": sorted(d for d in dice if d != BLANK)}])


def test_reaching_the_top_cloud_scores_everyone_aboard_and_plays_the_fanfare():
    h, screen = start()
    for cloud in range(1, 9):
        submit_all(screen, [{"act": "roll", "dice": [BLANK] * DICE[cloud]}])
        submit_all(screen, [{"act": "stay", "player": p} for p in screen.view["decide_order"]])
        if cloud < 8:
            submit_all(screen, [{"act": "rise", "cards": []}])
    h.tap("rise")
    assert view(h)["scores"] == dict.fromkeys(THREE, TOP_POINTS)
    assert h.app.sounds.played[-1] == "top_cloud"
    assert h.find("subtitle").text == "Trip 2"


# --- flying solo ----------------------------------------------------------------------------


def go_solo(screen):
    """Ann pilots; both passengers jump on cloud 1; Ann rises alone and flies solo."""
    submit_all(
        screen,
        [
            {"act": "roll", "dice": ["red", BLANK]},
            {"act": "jump", "player": "Ben"},
            {"act": "jump", "player": "Cat"},
            {"act": "rise", "cards": ["red"]},
        ],
    )


def test_the_solo_pilot_chooses_before_rolling():
    h, screen = start()
    go_solo(screen)
    assert view(h)["solo"] and view(h)["phase"] == "roll"
    assert h.find("prompt").text == "Ann flies solo: jump or stay?"
    assert not h.shows("face:red")
    h.tap("stay")  # staying is rolling: the roll entry opens
    assert h.shows("face:red") and view(h)["phase"] == "roll"
    h.tap("solo-back")  # changed her mind
    assert h.find("prompt").text == "Ann flies solo: jump or stay?"
    h.tap("jump")
    assert view(h)["scores"]["Ann"] == POINTS[2]
    assert view(h)["trip"] == 2 and view(h)["pilot"] == "Ben"
    assert h.app.sounds.played[-1] == "jump"


def test_a_solo_pilots_stay_press_at_the_seat_opens_the_roll_entry():
    h, screen = start()
    go_solo(screen)
    seats = SeatMap.in_order(THREE)
    decision = route(SeatPress(1, STAY, 0.0), view(h), seats)
    assert decision.kind == "note"
    assert screen.on_seat_outcome(SeatOutcome(SeatPress(1, STAY, 0.0), decision))
    h.app.pump()
    assert h.shows("face:red") and h.shows("solo-back")


# --- only legal actions, and every legal action, are offered ---------------------------------


def offered(h: Harness) -> list[dict]:
    """The game actions the screen's enabled buttons would submit (rolls are entered)."""
    screen = h.app.screen
    out = []
    for button in h.buttons():
        if not button.enabled or not isinstance(screen, Cloud9Screen):
            continue
        v = screen.view
        key = button.key
        if key in ("jump", "stay") and not (key == "stay" and v["phase"] == "roll"):
            out.append({"act": key, "player": v["to_decide"] or v["pilot"]})
        elif key in ("rise", "rise-wild"):
            cards = ["wild"] if key == "rise-wild" else v["cards_needed"]
            out.append(screen.match.canonical({"act": "rise", "cards": cards}))
        elif key == "fall":
            out.append({"act": "fall"})
    return out


PROPERTY_HARNESS: list[Harness] = []


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(players=st.integers(3, 6), first=st.integers(0, 5), seed=st.integers(0, 2**32 - 1), steps=st.integers(5, 45))
def test_random_play_by_touch_offers_exactly_the_legal_moves(players, first, seed, steps):
    if not PROPERTY_HARNESS:
        PROPERTY_HARNESS.append(Harness((800, 480)))
    h = PROPERTY_HARNESS[0]
    names = SIX[:players]
    h.start_game({"game": "cloud9", "players": names, "first_pilot": names[first % players]})
    rng = random.Random(seed)
    for _ in range(steps):
        match = h.app.controller.match
        if match.view["over"]:
            break
        legal = [a for a in match.legal_actions() if a["act"] not in ("undo", "redo")]
        shown = offered(h)
        assert all(a in legal for a in shown), (shown, legal)
        assert all(a in shown for a in legal if a["act"] != "roll"), (shown, legal)
        assert h.overflows() == [] and h.small_targets() == []
        action = rng.choice(legal)
        if action["act"] == "roll":
            action = {"act": "roll", "dice": rng.sample(action["dice"], len(action["dice"]))}
        tap_action(h, action)
        assert h.app.controller.match.actions()[-1] == match.canonical(action)


# --- sound and redraw -----------------------------------------------------------------------


def test_the_screen_redraws_only_when_something_changed():
    h, screen = start()
    drawn = h.app.frames_drawn
    h.app.pump()
    assert h.app.frames_drawn == drawn
    h.tap("face:red")
    assert h.app.frames_drawn == drawn + 1
    h.app.pump()
    assert h.app.frames_drawn == drawn + 1


def test_the_game_end_plays_the_win_and_shows_the_standings():
    h, screen = start()
    for _trip in range(2):
        for cloud in range(1, 9):
            submit_all(screen, [{"act": "roll", "dice": [BLANK] * DICE[cloud]}])
            submit_all(screen, [{"act": "stay", "player": p} for p in screen.view["decide_order"]])
            submit_all(screen, [{"act": "rise", "cards": []}])
    submit_all(screen, [{"act": "roll", "dice": ["red", BLANK]}])
    submit_all(screen, [{"act": "stay", "player": p} for p in screen.view["decide_order"]])
    h.tap("fall")
    assert "won" in h.app.sounds.played[-2:]
    assert isinstance(h.app.screen, EndScreen)
    # 50 each and the same hands (every rise was free): a shared win, which the game screen
    # itself also says, should it be drawn
    assert view(h)["winners"] == THREE
    widgets = screen.build(h.app.frame, h.app.theme)
    prompt = next(w for w in widgets if w.key == "prompt")
    assert prompt.text == "Game over: Ann, Ben, Cat won"
    assert not [t for w in widgets for t in w.overflow(h.app.theme)]


# --- layout: every phase, every size, every language -----------------------------------------


def phases(screen) -> dict[str, callable]:
    """Each step the screen can show, reached from a fresh six-player game."""

    def roll_draft():
        screen.add_face("purple")

    def roll_full():
        screen.add_face("yellow")
        screen.add_face(BLANK)

    def decide():
        submit_all(screen, [{"act": "roll", "dice": ["red", "green"]}])

    def resolve():
        decide()
        submit_all(screen, [{"act": "stay", "player": p} for p in screen.view["decide_order"]])

    def resolve_blank():
        submit_all(screen, [{"act": "roll", "dice": [BLANK, BLANK]}])
        submit_all(screen, [{"act": "stay", "player": p} for p in screen.view["decide_order"]])

    def solo():
        submit_all(screen, [{"act": "roll", "dice": ["red", BLANK]}])
        submit_all(screen, [{"act": "jump", "player": p} for p in screen.view["decide_order"]])
        submit_all(screen, [{"act": "rise", "cards": ["red"]}])

    def solo_roll():
        solo()
        screen.stay_solo()

    def high_cloud():
        for cloud in range(1, 8):
            submit_all(screen, [{"act": "roll", "dice": [BLANK] * DICE[cloud]}])
            submit_all(screen, [{"act": "stay", "player": p} for p in screen.view["decide_order"]])
            submit_all(screen, [{"act": "rise", "cards": []}])
        for face in ("red", "yellow", "green", "purple"):
            screen.add_face(face)

    def high_resolve():
        high_cloud()
        submit_all(screen, [screen.roll_action()])
        submit_all(screen, [{"act": "stay", "player": p} for p in screen.view["decide_order"]])

    def late_game():
        # a trip to the top cloud for everyone, then falls: two-digit scores and hands
        for cloud in range(1, 9):
            submit_all(screen, [{"act": "roll", "dice": [BLANK] * DICE[cloud]}])
            submit_all(screen, [{"act": "stay", "player": p} for p in screen.view["decide_order"]])
            submit_all(screen, [{"act": "rise", "cards": []}])
        for _trip in range(6):
            submit_all(screen, [{"act": "roll", "dice": ["red", "green"]}])
            submit_all(screen, [{"act": "stay", "player": p} for p in screen.view["decide_order"]])
            submit_all(screen, [{"act": "fall"}])
        assert min(screen.view["hands"].values()) >= 12 and min(screen.view["scores"].values()) >= 25
        decide()

    return {
        "late-game": late_game,
        "roll": lambda: None,
        "roll-draft": roll_draft,
        "roll-full": roll_full,
        "decide": decide,
        "resolve": resolve,
        "resolve-blank": resolve_blank,
        "solo": solo,
        "solo-roll": solo_roll,
        "cloud8-roll": high_cloud,
        "cloud8-resolve": high_resolve,
    }


SCREENSHOTS = {
    ((800, 480), "en"),
    ((720, 1280), "en"),
    ((800, 480), "de"),
    ((800, 480), "hu"),
    ((720, 1280), "hu"),
    ((1920, 1080), "de"),
}


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_phase_fits_at_every_size_in_every_language(size):
    now = [0.0]
    h = Harness(size, clock=lambda: now[0])
    problems = []
    for language in i18n.LANGUAGES:
        h.app.change_config(language=language)
        for players in (SIX, THREE):
            names = list(players)
            for name, reach in phases_for(h, names).items():
                reach()
                now[0] += 1.0  # past any transition: the pictures show the screen at rest
                h.app.pump()
                found = {"overflow": h.overflows(), "small": h.small_targets(), "off": h.off_canvas()}
                if any(found.values()):
                    problems.append((language, len(names), name, found))
                if (size, language) in SCREENSHOTS and len(names) == 6:
                    h.save(SHOTS / f"{language}-{size[0]}x{size[1]}-{name}.png")
    assert problems == []


def phases_for(h: Harness, names: list[str]) -> dict:
    out = {}
    for name in phases(None):

        def reach(name=name):
            screen = h.start_game({"game": "cloud9", "players": names})
            phases(screen)[name]()

        out[name] = reach
    return out


def test_the_short_of_cards_and_over_states_fit_too():
    for size in ((800, 480), (720, 1280)):
        h, screen = start(size=size)
        short_of_cards(screen)
        assert h.overflows() == [] and h.small_targets() == []
        h.save(SHOTS / f"en-{size[0]}x{size[1]}-short-of-cards.png")


def test_the_board_shows_the_ladder_basket_pilot_scores_and_hands():
    h, screen = start(players=SIX, first_pilot="Cleo")
    assert widget(h, "points-here").text == str(POINTS[1])
    assert widget(h, "dice-here").faces == [None] * DICE[1]
    assert [widget(h, f"points:{c}").text for c in range(2, 10)] == [str(POINTS[c]) for c in range(2, 9)] + ["25"]
    assert [w.key for w in everything(h) if (w.key or "").startswith("aboard:")] == [f"aboard:{n}" for n in SIX]
    pilot_mark = widget(h, "pilot-mark").rect
    assert pilot_mark.contains(widget(h, "aboard:Cleo").rect)
    assert widget(h, "role:Cleo").text == "Pilot"
    assert all(widget(h, f"hand:{n}").text == "6" for n in SIX)
    assert not has(h, "deck")  # six rows leave no room for the piles' line at 800x480
    h, screen = start(players=THREE)
    assert widget(h, "deck").text == f"Draw pile: {76 - 18} · discards: 0"
    assert h.find("subtitle").text == "Trip 1"
    assert h.find("prompt").text == "Ann: roll 2 dice"


def test_german_and_hungarian_strings_are_shown():
    h, screen = start()
    h.app.change_config(language="de")
    h.app.pump()
    assert h.find("prompt").text == "Ann: 2 Würfel werfen"
    assert h.find("done").text == "Fertig"
    h.app.change_config(language="hu")
    h.app.pump()
    assert h.find("prompt").text == "Ann, dobj 2 kockával!"
    assert h.find("subtitle").text == "1. repülés"


def test_a_rise_lifts_the_basket_for_a_moment_then_stands_still():
    now = [50.0]
    h = Harness((800, 480), clock=lambda: now[0])
    screen = h.start_game({"game": "cloud9", "players": THREE})
    low = widget(h, "basket-cloud").rect
    submit_all(
        screen,
        [{"act": "roll", "dice": ["red", BLANK]}, {"act": "stay", "player": "Ben"}, {"act": "stay", "player": "Cat"}],
    )
    h.app.pump()
    h.tap("rise")
    high = widget(h, "basket-cloud").rect
    assert high.bottom < low.bottom and h.app.animating
    now[0] += 0.1
    drawn = h.app.frames_drawn
    h.app.pump()
    assert h.app.frames_drawn == drawn + 1
    moving = h.app.viewport.canvas.copy()
    now[0] += LIFT_S
    h.app.pump()
    assert not h.app.animating and screen._moment is None
    still = h.app.viewport.canvas.copy()
    h.render()
    assert pygame.image.tobytes(still, "RGB") == pygame.image.tobytes(h.app.viewport.canvas, "RGB")
    assert pygame.image.tobytes(moving, "RGB") != pygame.image.tobytes(still, "RGB")


def test_the_board_picture_kept_between_builds_matches_a_fresh_drawing():
    now = [10.0]
    h = Harness((800, 480), clock=lambda: now[0])
    screen = h.start_game({"game": "cloud9", "players": SIX})
    submit_all(screen, [{"act": "roll", "dice": ["red", "green"]}, {"act": "jump", "player": "Benedikt"}])
    now[0] += 1.0  # past the jump: the board at rest
    h.app.refresh()
    first = pygame.image.tobytes(h.render(), "RGB")  # drawn widget by widget
    board = widget(h, "board")
    assert board._image is not None
    second = pygame.image.tobytes(h.render(), "RGB")  # the board blitted from its picture
    assert first == second
    h.tap("stay")  # a new state: a new board, drawn afresh
    assert widget(h, "board") is not board and widget(h, "role:Cleo").text == "Aboard"


# --- the story: what each choice spends, what just happened -----------------------------------


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_each_rise_says_what_it_spends_and_the_roll_is_drawn_large(size):
    h, screen = start(size=size)
    for action in (
        {"act": "roll", "dice": ["red", "green"]},
        {"act": "stay", "player": "Ben"},
        {"act": "stay", "player": "Cat"},
    ):
        tap_action(h, action)
    assert h.find("rise").texts() == ["Rise, play red + green"]
    assert h.find("rise-wild").texts() == ["Rise, play the wild card"]
    # the roll the table decides on: each die drawn at least 48 design pixels wide
    from companion.ui.screens.cloud9 import _strip

    roll = h.find("roll")
    dice = _strip(roll.rect, 2, 1.0, h.app.theme.px(6))
    assert min(box.w for box in dice) >= h.app.theme.px(48)


def test_a_fall_shows_who_lost_what_until_the_next_action():
    h, screen = start()
    for action in (
        {"act": "roll", "dice": ["red", "green"]},
        {"act": "stay", "player": "Ben"},
        {"act": "jump", "player": "Cat"},
    ):
        tap_action(h, action)
    h.tap("fall")
    assert h.find("story-headline").texts() == ["The balloon fell from cloud 1"]
    # said once, naming the pilot who let it fall once and everyone else aboard (no row per player)
    assert h.find("story-text").texts() == [
        "Ann let it fall and, like Ben, scores nothing this trip (jumping out paid 1)"
    ]
    assert not [w for w in h.widgets() if w.key == "story-line"]
    tap_action(h, {"act": "roll", "dice": ["red", "green"]})  # the next action takes it away
    assert not h.shows("story-card")
