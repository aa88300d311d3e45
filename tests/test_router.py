"""The seat router: what a JUMP or STAY press means in each game, and what each LED shows.

Pure logic against the real rules core: every state comes from Match, and every action the
router produces is checked against the rules.
"""

import pytest
from hypothesis import given, settings, strategies as st

from companion.devices.events import JUMP, STAY, LedMode, SeatPress
from companion.devices.router import (
    ACT,
    CLAIM,
    IGNORE,
    NOTE,
    REFUSE,
    SeatMap,
    claim,
    claim_led_plan,
    led_plan,
    route,
)
from companion.rules import Match, RulesError
from companion.rules.cloud9 import POINTS
from companion.rules.simulate import random_actions

FOUR = ["Ann", "Ben", "Cat", "Dan"]
SEATS = SeatMap.in_order(FOUR)  # Ann at seat 1 ... Dan at seat 4


def press(seat, button=JUMP, time=0.0):
    return SeatPress(seat, button, time)


def play(match, *actions):
    for action in actions:
        match = match.apply(action)
    return match


def cloud9(players=FOUR, **extra):
    return Match.start({"game": "cloud9", "players": list(players), **extra})


def roll_blank(match):
    return match.apply({"act": "roll", "dice": ["blank"] * match.view["dice_here"]})


# --- Cloud 9 ---------------------------------------------------------------------------------


def test_cloud9_the_passenger_whose_turn_it_is_decides_with_either_button():
    match = roll_blank(cloud9())  # Ann pilots; Ben decides first
    assert match.view["to_decide"] == "Ben"
    jump = route(press(2, JUMP), match.view, SEATS)
    stay = route(press(2, STAY), match.view, SEATS)
    assert (jump.kind, jump.action) == (ACT, {"act": "jump", "player": "Ben"})
    assert (stay.kind, stay.action) == (ACT, {"act": "stay", "player": "Ben"})
    assert match.apply(jump.action).view["basket"] == ["Ann", "Cat", "Dan"]
    assert match.apply(stay.action).view["to_decide"] == "Cat"


@pytest.mark.parametrize("seat", [1, 3, 4])  # the pilot, and passengers whose turn is later
def test_cloud9_a_press_by_anyone_else_is_refused_naming_who_decides(seat):
    match = roll_blank(cloud9())
    decision = route(press(seat, STAY), match.view, SEATS)
    assert decision.kind == REFUSE and decision.action is None
    assert "Ben decides now" in decision.reason
    assert decision.rule == "playing the game, step 2"


def test_cloud9_a_press_for_a_player_who_jumped_out_is_ignored():
    match = roll_blank(cloud9())
    match = match.apply({"act": "jump", "player": "Ben"})
    for button in (JUMP, STAY):
        decision = route(press(2, button), match.view, SEATS)
        assert decision.kind == IGNORE and decision.player == "Ben"
    # still out for the rest of the trip, after the balloon rose
    match = play(
        match, {"act": "stay", "player": "Cat"}, {"act": "stay", "player": "Dan"}, {"act": "rise", "cards": []}
    )
    assert route(press(2), match.view, SEATS).kind == IGNORE


def test_cloud9_before_the_roll_and_while_the_pilot_resolves_nobody_decides():
    match = cloud9()
    before = route(press(2), match.view, SEATS)
    assert before.kind == REFUSE and "Ann rolls the dice first" in before.reason
    assert route(press(1), match.view, SEATS).kind == REFUSE  # the pilot too: not solo
    match = match.apply({"act": "roll", "dice": ["red", "blank"]})
    match = play(match, *({"act": "stay", "player": p} for p in ("Ben", "Cat", "Dan")))
    resolving = route(press(3), match.view, SEATS)
    assert resolving.kind == REFUSE and "Ann makes the balloon rise or fall" in resolving.reason


def solo_match():
    """Ann pilots; everyone else jumps out; the balloon rises; Ann now flies solo."""
    match = roll_blank(cloud9())
    match = play(match, *({"act": "jump", "player": p} for p in ("Ben", "Cat", "Dan")), {"act": "rise", "cards": []})
    assert match.view["solo"] and match.view["pilot"] == "Ann" and match.view["phase"] == "roll"
    return match


def test_cloud9_a_solo_pilot_jumps_out_with_jump_before_rolling():
    match = solo_match()
    decision = route(press(1, JUMP), match.view, SEATS)
    assert (decision.kind, decision.action) == (ACT, {"act": "jump", "player": "Ann"})
    after = match.apply(decision.action)
    assert after.view["scores"]["Ann"] == POINTS[2]  # the points of the cloud the basket is on
    assert after.view["trip"] == 2


def test_cloud9_a_solo_pilot_stays_in_with_stay_which_is_rolling_next():
    match = solo_match()
    decision = route(press(1, STAY), match.view, SEATS)
    assert decision.kind == NOTE and decision.action is None
    assert "Ann stays in: roll the dice" in decision.reason
    with pytest.raises(RulesError):  # the rules agree: staying is not an action, rolling is
        match.apply({"act": "stay", "player": "Ann"})
    assert route(press(2), match.view, SEATS).kind == IGNORE  # Ben jumped out


def test_cloud9_solo_without_the_project_extra_is_read_from_the_basket():
    view = dict(solo_match().view)
    del view["solo"]
    assert route(press(1, JUMP), view, SEATS).kind == ACT
    assert led_plan(view, SEATS) == {1: LedMode.BLINK}


def test_cloud9_leds_follow_the_turn():
    match = cloud9()
    assert led_plan(match.view, SEATS) == {1: LedMode.ON}  # the pilot rolls
    match = roll_blank(match)
    assert led_plan(match.view, SEATS) == {2: LedMode.BLINK}  # Ben decides
    match = match.apply({"act": "stay", "player": "Ben"})
    assert led_plan(match.view, SEATS) == {3: LedMode.BLINK}  # then Cat
    match = play(match, {"act": "stay", "player": "Cat"}, {"act": "stay", "player": "Dan"})
    assert led_plan(match.view, SEATS) == {1: LedMode.ON}  # the pilot rises or falls
    match = match.apply({"act": "rise", "cards": []})
    assert led_plan(match.view, SEATS) == {2: LedMode.ON}  # Ben pilots now
    assert led_plan(solo_match().view, SEATS) == {1: LedMode.BLINK}


def test_a_player_without_a_seat_has_no_led_and_an_empty_seat_is_ignored():
    match = roll_blank(cloud9())
    partial = SeatMap(((1, "Ann"), (5, "Cat")))
    assert led_plan(match.view, partial) == {}  # Ben decides, but has no seat
    assert route(press(2), match.view, partial).kind == IGNORE  # nobody at seat 2
    stranger = SeatMap(((2, "Zoe"),))
    assert route(press(2), match.view, stranger).kind == IGNORE  # not a player of this game


def test_game_over_refuses_every_press_and_lights_the_winners():
    match = Match.start({"game": "cloudmine", "players": ["Ann", "Ben", "Cat"]})
    while not match.view["over"]:
        match = match.apply({"act": "guess", "player": match.view["to_guess"], "correct": True})
    seats = SeatMap.in_order(["Ann", "Ben", "Cat"])
    decision = route(press(1), match.view, seats)
    assert decision.kind == REFUSE and "over" in decision.reason
    winners = match.view["winners"]
    assert led_plan(match.view, seats) == {seats.seat_of(w): LedMode.ON for w in winners}


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(3, 6), steps=st.integers(0, 120))
def test_cloud9_the_router_agrees_with_the_rules_in_every_reachable_state(seed, players, steps):
    names = FOUR + ["Eve", "Fay"]
    setup = {"game": "cloud9", "players": names[:players]}
    seats = SeatMap.in_order(names[:players])
    match = _after(setup, seed, steps)
    view = match.view
    blinking = [seat for seat, mode in led_plan(view, seats).items() if mode == LedMode.BLINK]
    for seat in range(1, players + 1):
        player = seats.player_at(seat)
        for button in (JUMP, STAY):
            decision = route(press(seat, button), view, seats)
            direct = {"act": button, "player": player}
            if decision.kind == ACT:
                assert decision.action == direct
                match.apply(decision.action)  # legal: raises otherwise
            else:
                with pytest.raises(RulesError):
                    match.apply(direct)
            if decision.kind == IGNORE:
                assert player not in view["basket"]
        # the LED blinks exactly for whoever may jump now
        may_jump = route(press(seat, JUMP), view, seats).kind == ACT
        assert (seat in blinking) == may_jump


def _after(setup, seed, steps):
    """The match after `steps` random legal actions (or at the end of the game)."""
    match = Match.start(setup)
    for count, (before, action) in enumerate(random_actions(setup, seed)):
        if count == steps:
            break
        match = before.apply(action)
    return match


# --- The Cloud Mine ----------------------------------------------------------------------------


def test_cloudmine_the_dreamer_confirms_jump_right_stay_wrong():
    match = Match.start({"game": "cloudmine", "players": FOUR})  # Ann dreams, Dan chooses
    assert (match.view["dreamer"], match.view["to_guess"]) == ("Ann", "Ben")
    right = route(press(1, JUMP), match.view, SEATS)
    wrong = route(press(1, STAY), match.view, SEATS)
    assert right.action == {"act": "guess", "player": "Ben", "correct": True}
    assert wrong.action == {"act": "guess", "player": "Ben", "correct": False}
    assert match.apply(wrong.action).view["to_guess"] == "Cat"
    assert match.apply(right.action).view["scores"]["Ben"] == 6


@pytest.mark.parametrize("seat", [2, 3, 4])  # the Observer whose guess it is, the next, the Chooser
def test_cloudmine_nobody_but_the_dreamer_confirms(seat):
    match = Match.start({"game": "cloudmine", "players": FOUR})
    decision = route(press(seat, JUMP), match.view, SEATS)
    assert decision.kind == REFUSE and "Ann, the Dreamer, says right (JUMP) or wrong (STAY)" in decision.reason


def test_cloudmine_leds_the_observer_whose_guess_it_is_blinks_the_dreamer_is_lit():
    match = Match.start({"game": "cloudmine", "players": FOUR})
    assert led_plan(match.view, SEATS) == {1: LedMode.ON, 2: LedMode.BLINK}
    match = match.apply({"act": "guess", "player": "Ben", "correct": False})
    assert led_plan(match.view, SEATS) == {1: LedMode.ON, 3: LedMode.BLINK}


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(3, 8))
def test_cloudmine_a_whole_game_by_the_dreamers_buttons_is_always_legal(seed, players):
    names = [f"P{i}" for i in range(players)]
    seats = SeatMap.in_order(reversed(names))  # seat numbers need not follow the player list
    setup = {"game": "cloudmine", "players": names}
    match = Match.start(setup)
    for before, action in random_actions(setup, seed):
        dreamer_seat = seats.seat_of(before.view["dreamer"])
        decision = route(press(dreamer_seat, JUMP if action["correct"] else STAY), before.view, seats)
        assert decision.action == action
        match = match.apply(decision.action)
    assert match.view["over"]


# --- Cloudship ---------------------------------------------------------------------------------


def cloudship():
    return Match.start({"game": "cloudship", "players": ["Ann", "Ben", "Cat"], "mode": "sunny"})


def test_cloudship_the_commanders_jump_lands_the_ship_during_a_flight():
    seats = SeatMap.in_order(["Ann", "Ben", "Cat"])
    match = cloudship()
    assert route(press(1, JUMP), match.view, seats).kind == REFUSE  # not flying yet
    match = match.apply({"act": "roll", "dice": ["yellow", "purple", "storm"]})
    assert match.view["phase"] == "flight"
    land = route(press(1, JUMP), match.view, seats)
    assert (land.kind, land.action) == (ACT, {"act": "land"})
    assert match.apply(land.action).view["phase"] != "flight"
    assert route(press(1, STAY), match.view, seats).kind == REFUSE
    other = route(press(2, JUMP), match.view, seats)
    assert other.kind == REFUSE and "Ann is in command" in other.reason


def test_cloudship_the_commanders_led_is_lit():
    seats = SeatMap.in_order(["Ann", "Ben", "Cat"])
    match = cloudship()
    assert led_plan(match.view, seats) == {1: LedMode.ON}
    match = play(match, {"act": "roll", "dice": ["storm", "storm", "white"]}, {"act": "land"})
    assert match.view["commander"] == "Ben"
    assert led_plan(match.view, seats) == {2: LedMode.ON}


# --- the players screen and the seat map -------------------------------------------------------


def test_claim_a_free_seat_goes_to_the_next_player_waiting():
    seats = SeatMap()
    decision, seats = claim(press(5), seats, ["Ann", "Ben"])
    assert (decision.kind, decision.player) == (CLAIM, "Ann") and seats.seat_of("Ann") == 5
    decision, seats = claim(press(2, STAY), seats, ["Ben"])
    assert seats.pairs == ((2, "Ben"), (5, "Ann"))
    assert claim_led_plan(seats) == {2: LedMode.ON, 5: LedMode.ON}


def test_claim_a_taken_seat_or_with_nobody_waiting_is_refused_and_changes_nothing():
    seats = SeatMap(((3, "Ann"),))
    decision, after = claim(press(3), seats, ["Ben"])
    assert decision.kind == REFUSE and "seat 3 is Ann's" in decision.reason and after == seats
    decision, after = claim(press(4), seats, [])
    assert decision.kind == REFUSE and after == seats


def test_seat_map_moves_a_player_and_round_trips_through_json():
    seats = SeatMap.in_order(["Ann", "Ben"]).with_seat(7, "Ann")
    assert seats.seat_of("Ann") == 7 and seats.player_at(1) is None
    assert SeatMap.from_json(seats.to_json()) == seats
    assert seats.without("Ben").pairs == ((7, "Ann"),)
