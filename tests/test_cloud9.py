"""Cloud 9: the rulebook's examples, every reading in docs/rulings.md, and the contract's fixed details."""

import itertools
import json
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest

from companion import cli
from companion.rules import Match, RulesError, SetupError
from companion.rules.cloud9 import DICE, POINTS, RULES

FOUR = ["Ann", "Ben", "Cat", "Dan"]
SIX = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]
EXAMPLES = sorted((Path(cli.__file__).parent / "examples").glob("cloud9-*.jsonl"))


# --- helpers: short ways to play whole turns --------------------------------------------------


def start(players=FOUR, **extra):
    return Match.start({"game": "cloud9", "players": list(players), **extra})


def play(match, *actions):
    for action in actions:
        match = match.apply(action)
    return match


def roll(match, *faces):
    return match.apply({"act": "roll", "dice": list(faces)})


def rise(match, *cards):
    return match.apply({"act": "rise", "cards": list(cards)})


def fall(match):
    return match.apply({"act": "fall"})


def decide(match, *, jump=()):
    """Every passenger decides in turn: those named in `jump` jump out, the others stay."""
    while match.view["phase"] == "decide":
        who = match.view["to_decide"]
        match = match.apply({"act": "jump" if who in jump else "stay", "player": who})
    return match


def blank_rise(match, jump=()):
    """One turn in which every die shows blank: the balloon rises for free."""
    match = roll(match, *["blank"] * match.view["dice_here"])
    return rise(decide(match, jump=jump))


def climb(match, cloud):
    """Free rises (all-blank rolls, nobody jumps) until the basket is on `cloud`; climbing
    to 9 plays the trip out to the top (which starts the next trip)."""
    trip = match.view["trip"]
    while match.view["trip"] == trip and match.view["cloud"] < cloud:
        match = blank_rise(match)
    assert cloud == 9 or match.view["cloud"] == cloud
    return match


def falling_trip(match, jump=()):
    """A trip that falls at once on cloud 1 (after the passengers in `jump` jumped out)."""
    match = roll(match, "red", "red")
    return fall(decide(match, jump=jump))


def refused(match, action, *words):
    """The action is refused with a reason containing every word, and nothing changes."""
    before = match.view
    with pytest.raises(RulesError) as caught:
        match.apply(action)
    assert caught.value.reason and caught.value.rule
    for word in words:
        assert word in caught.value.reason, caught.value.reason
    assert match.view == before
    return caught.value


# --- setup -------------------------------------------------------------------------------------


def test_setup_deals_six_cards_each_and_everyone_boards():
    v = start(FOUR).view
    assert v["game"] == "cloud9" and v["players"] == FOUR
    assert (v["over"], v["phase"], v["winners"]) == (False, "roll", [])
    assert v["scores"] == dict.fromkeys(FOUR, 0)
    assert v["hands"] == dict.fromkeys(FOUR, 6)
    assert (v["draw_pile"], v["discards"]) == (76 - 24, 0)
    assert (v["trip"], v["cloud"], v["pilot"]) == (1, 1, "Ann")
    assert v["basket"] == FOUR
    assert (v["to_decide"], v["dice"], v["solo"]) == (None, None, False)


@pytest.mark.parametrize("count", [3, 4, 5, 6])
def test_draw_pile_is_what_the_deal_leaves(count):
    assert start(SIX[:count]).view["draw_pile"] == 76 - 6 * count


def test_first_pilot_can_be_chosen():
    m = start(FOUR, first_pilot="Cat")
    assert m.view["pilot"] == "Cat"
    m = roll(m, "red", "blank")
    assert m.view["to_decide"] == "Dan"


@pytest.mark.parametrize(
    "setup",
    [
        {"players": ["Ann", "Ben"]},
        {"players": SIX + ["Gus"]},
        {"players": ["Ann", "Ben", "Ann"]},
        {"players": ["Ann", "Ben", ""]},
        {"players": "Ann Ben Cat"},
        {"players": FOUR, "first_pilot": "Zoe"},
        {"players": FOUR, "first_pilot": 1},
    ],
)
def test_bad_setups_are_refused(setup):
    with pytest.raises(SetupError):
        Match.start({"game": "cloud9", **setup})


def test_board_data_from_the_rulings():
    assert [POINTS[c] for c in range(1, 9)] == [1, 2, 4, 6, 9, 12, 15, 20]
    assert [DICE[c] for c in range(1, 9)] == [2, 2, 2, 3, 3, 3, 4, 4]


def test_each_cloud_rolls_its_number_of_dice_and_pays_its_points():
    m = start(FOUR)
    for cloud in range(1, 9):
        v = m.view
        assert (v["cloud"], v["dice_here"], v["points_here"]) == (cloud, DICE[cloud], POINTS[cloud])
        refused(m, {"act": "roll", "dice": ["blank"] * (DICE[cloud] - 1)}, f"{DICE[cloud]} dice")
        refused(m, {"act": "roll", "dice": ["blank"] * (DICE[cloud] + 1)}, f"{DICE[cloud]} dice")
        if cloud < 8:
            m = blank_rise(m)


# --- the rulebook's dice examples (Playing the Game, step 1) ----------------------------------


def on_cloud_4_after(*faces):
    """Cloud 4 rolls three dice; Dan pilots there (Ann, Ben, Cat piloted clouds 1 to 3)."""
    m = climb(start(FOUR), 4)
    assert m.view["pilot"] == "Dan"
    return decide(roll(m, *faces))


def test_example_one_red_two_green_needs_red_green_green():
    m = on_cloud_4_after("green", "red", "green")
    for order in itertools.permutations(["red", "green", "green"]):
        after = rise(m, *order)
        assert after.view["hands"]["Dan"] == 3 and after.view["discards"] == 3
        assert after.view["cloud"] == 5


def test_example_one_red_two_green_or_a_single_wild_card():
    after = rise(on_cloud_4_after("green", "red", "green"), "wild")
    assert after.view["hands"]["Dan"] == 5 and after.view["discards"] == 1 and after.view["cloud"] == 5


@pytest.mark.parametrize(
    "cards",
    [
        ["red", "green"],
        ["red", "green", "green", "green"],
        ["red", "red", "green"],
        ["red", "green", "wild"],
        ["wild", "wild"],
        ["yellow", "purple", "red"],
        [],
    ],
)
def test_example_one_red_two_green_refuses_anything_else(cards):
    m = on_cloud_4_after("green", "red", "green")
    refused(m, {"act": "rise", "cards": cards}, "the roll needs 1 red and 2 green cards, or one wild card")


def test_example_one_green_one_blank_needs_one_green_or_a_wild():
    m = decide(roll(start(FOUR), "green", "blank"))
    for cards in (["green"], ["wild"]):
        after = rise(m, *cards)
        assert after.view["hands"]["Ann"] == 5 and after.view["discards"] == 1
    for cards in (["green", "green"], ["red"], ["green", "wild"], []):
        refused(m, {"act": "rise", "cards": cards}, "1 green card, or one wild card")
    refused(m, {"act": "rise", "cards": ["green", "blank"]}, "'blank' is not one of")


def test_four_colour_message_lists_every_colour():
    m = climb(start(FOUR), 7)
    m = decide(roll(m, "purple", "red", "yellow", "red"))
    refused(m, {"act": "rise", "cards": ["red"]}, "2 red, 1 yellow and 1 purple cards, or one wild card")


# --- reading 1: seating is clockwise, "to the left" is the next in the list ------------------


def test_reading_1_pilot_passes_to_the_left_after_each_rise():
    m = start(FOUR, first_pilot="Cat")
    pilots = []
    for _ in range(6):
        pilots.append(m.view["pilot"])
        m = blank_rise(m)
    assert pilots == ["Cat", "Dan", "Ann", "Ben", "Cat", "Dan"]


# --- reading 2: passengers decide in turn from the pilot's left ------------------------------


def test_reading_2_passengers_decide_from_the_pilots_left_and_wrap_round():
    m = roll(start(FOUR, first_pilot="Cat"), "red", "blank")
    order = []
    while m.view["phase"] == "decide":
        order.append(m.view["to_decide"])
        m = m.apply({"act": "stay", "player": m.view["to_decide"]})
    assert order == ["Dan", "Ann", "Ben"]
    assert m.view["phase"] == "resolve" and m.view["to_decide"] is None


def test_reading_2_those_who_jumped_are_skipped_and_the_pilot_never_decides():
    m = roll(start(FOUR), "red", "blank")  # Ann pilots
    m = decide(m, jump={"Cat"})
    m = rise(m, "red")  # Ben pilots now
    assert m.view["basket"] == ["Ann", "Ben", "Dan"]
    m = roll(m, "yellow", "blank")
    assert m.view["to_decide"] == "Dan"
    m = m.apply({"act": "stay", "player": "Dan"})
    assert m.view["to_decide"] == "Ann"
    m = m.apply({"act": "stay", "player": "Ann"})
    assert m.view["phase"] == "resolve"


def test_reading_2_out_of_turn_decisions_are_refused():
    m = roll(start(FOUR), "red", "blank")
    refused(m, {"act": "jump", "player": "Cat"}, "Cat cannot jump out yet: Ben decides first")
    refused(m, {"act": "stay", "player": "Dan"}, "Dan cannot stay in yet: Ben decides first")
    refused(m, {"act": "jump", "player": "Ann"}, "Ann is the pilot and cannot jump out unless flying solo")
    refused(m, {"act": "stay", "player": "Ann"}, "Ann is the pilot")
    m = m.apply({"act": "jump", "player": "Ben"})
    refused(m, {"act": "stay", "player": "Ben"}, "Ben has already jumped out")
    refused(start(FOUR), {"act": "stay", "player": "Ben"}, "Ben cannot stay in yet: Ann rolls the dice first")
    resolving = decide(m)
    refused(resolving, {"act": "jump", "player": "Cat"}, "every passenger has decided")


def test_jumping_scores_the_cloud_the_basket_is_on():
    m = climb(start(FOUR), 5)  # Ann pilots cloud 5
    m = decide(roll(m, "red", "blank", "blank"), jump={"Ben", "Dan"})
    assert m.view["scores"] == {"Ann": 0, "Ben": 9, "Cat": 0, "Dan": 9}
    assert m.view["basket"] == ["Ann", "Cat"]


# --- reading 3: one card per coloured die, or one wild; all blank needs nothing ----------------


def test_reading_3_all_blank_roll_accepts_only_a_rise_with_no_cards():
    m = decide(roll(start(FOUR), "blank", "blank"))
    assert RULES.legal_actions(m.state) == [{"act": "rise", "cards": []}]
    refused(m, {"act": "fall"}, "every die is blank")
    refused(m, {"act": "rise", "cards": ["wild"]}, "every die is blank")
    refused(m, {"act": "rise", "cards": ["red"]}, "every die is blank")
    after = rise(m)
    assert after.view["hands"]["Ann"] == 6 and after.view["discards"] == 0 and after.view["cloud"] == 2


def solo_with_empty_hand():
    """Ann flies solo from cloud 2 and spends all six cards on clouds 1 to 3."""
    m = start(["Ann", "Ben", "Cat"])
    m = rise(decide(roll(m, "red", "yellow"), jump={"Ben", "Cat"}), "yellow", "red")
    m = rise(roll(m, "green", "yellow"), "green", "yellow")
    m = rise(roll(m, "purple", "purple"), "purple", "purple")
    assert (m.view["cloud"], m.view["pilot"], m.view["hands"]["Ann"]) == (4, "Ann", 0)
    return m


def test_reading_3_a_pilot_with_no_cards_still_rises_on_all_blank():
    m = roll(solo_with_empty_hand(), "blank", "blank", "blank")
    assert RULES.legal_actions(m.state) == [{"act": "rise", "cards": []}]
    assert rise(m).view["cloud"] == 5


# --- reading 4: the pilot's fall is trusted, an unaffordable rise is not ----------------------


def test_reading_4_fall_is_trusted_even_with_a_full_hand():
    m = fall(decide(roll(start(FOUR), "red", "red")))
    assert m.view["trip"] == 2 and m.view["pilot"] == "Ben"


def test_reading_4_a_rise_needing_more_cards_than_the_pilot_holds_is_refused():
    m = start(["Ann", "Ben", "Cat"])
    m = rise(decide(roll(m, "red", "yellow")), "red", "yellow")  # Ann 4
    m = climb(m, 4)  # Ann pilots cloud 4
    m = rise(decide(roll(m, "green", "green", "purple")), "green", "green", "purple")  # Ann 1
    m = climb(m, 7)
    m = decide(roll(m, "red", "red", "blank", "blank"))
    assert m.view["hands"]["Ann"] == 1
    refused(m, {"act": "rise", "cards": ["red", "red"]}, "Ann holds 1 card and cannot play 2")
    assert {"act": "rise", "cards": ["red", "red"]} not in RULES.legal_actions(m.state)
    assert rise(m, "wild").view["hands"]["Ann"] == 0


def test_reading_4_a_pilot_with_no_cards_can_only_fall_on_a_coloured_roll():
    m = roll(solo_with_empty_hand(), "red", "blank", "blank")
    assert RULES.legal_actions(m.state) == [{"act": "fall"}]
    refused(m, {"act": "rise", "cards": ["wild"]}, "Ann holds 0 cards and cannot play 1")
    refused(m, {"act": "rise", "cards": ["red"]}, "Ann holds 0 cards and cannot play 1")
    assert fall(m).view["trip"] == 2


# --- reading 5: hands, discards and the draw ---------------------------------------------------


def test_reading_5_cards_played_go_to_the_discards_and_everyone_draws_after_a_trip():
    m = start(FOUR)
    m = rise(decide(roll(m, "red", "green")), "green", "red")  # Ann 4
    m = rise(decide(roll(m, "purple", "purple")), "wild")  # Ben 5
    assert m.view["discards"] == 3
    m = fall(decide(roll(m, "yellow", "blank")))  # Cat lets it fall
    v = m.view
    assert v["hands"] == {"Ann": 5, "Ben": 6, "Cat": 7, "Dan": 7}
    assert (v["draw_pile"], v["discards"]) == (52 - 4, 3)
    assert sum(v["hands"].values()) + v["draw_pile"] + v["discards"] == 76


def test_reading_5_an_empty_draw_pile_is_refilled_from_the_discards_mid_draw():
    m = start(SIX)
    m = rise(decide(roll(m, "red", "green")), "green", "red")  # Ann pilots, 2 discarded
    m = rise(decide(roll(m, "yellow", "yellow")), "wild")  # Ben, 1 discarded
    m = fall(decide(roll(m, "purple", "blank")))  # Cat; trip 1 ends, pile 40 -> 34
    assert (m.view["draw_pile"], m.view["discards"]) == (34, 3)
    for _ in range(5):  # trips 2 to 6: pile 34 -> 4
        m = falling_trip(m)
    assert (m.view["trip"], m.view["draw_pile"], m.view["discards"]) == (7, 4, 3)
    assert m.view["pilot"] == "Cat"
    before = m.view["hands"]
    m = falling_trip(m)
    v = m.view
    # Dan (the new pilot), Eve, Fay, Ann take the last 4; the 3 discards become the pile;
    # Ben and Cat draw from it
    assert v["pilot"] == "Dan"
    assert {p: v["hands"][p] - before[p] for p in SIX} == dict.fromkeys(SIX, 1)
    assert (v["draw_pile"], v["discards"]) == (1, 0)


def test_reading_5_when_both_piles_are_empty_the_rest_draw_nothing():
    m = start(SIX)
    for _ in range(6):  # pile 40 -> 4
        m = falling_trip(m)
    assert (m.view["draw_pile"], m.view["discards"], m.view["pilot"]) == (4, 0, "Ann")
    before = m.view["hands"]
    m = falling_trip(m)  # Ann falls; Ben pilots next
    v = m.view
    gained = {p: v["hands"][p] - before[p] for p in SIX}
    assert gained == {"Ben": 1, "Cat": 1, "Dan": 1, "Eve": 1, "Fay": 0, "Ann": 0}
    assert (v["draw_pile"], v["discards"]) == (0, 0)
    m = falling_trip(m)  # nothing left to draw at all
    assert m.view["hands"] == v["hands"]
    assert sum(m.view["hands"].values()) == 76


def test_reading_5_ties_on_points_go_to_the_larger_hand():
    m = start(["Ann", "Ben", "Cat"])
    m = rise(decide(roll(m, "red", "blank")), "red")  # Ann spends one card
    m = climb(m, 9)  # trip 1: 25 each
    m = climb(m, 9)  # trip 2: 50 each, not over
    assert m.view["scores"] == dict.fromkeys(["Ann", "Ben", "Cat"], 50) and not m.view["over"]
    m = falling_trip(m)
    v = m.view
    assert v["over"] and v["winners"] == ["Ben", "Cat"]
    assert v["hands"] == {"Ann": 7, "Ben": 8, "Cat": 8}


def test_reading_5_a_tie_on_points_and_hands_is_a_shared_win_in_seat_order():
    m = start(["Ann", "Ben", "Cat"], first_pilot="Cat")
    m = climb(climb(m, 9), 9)
    m = falling_trip(m)
    assert m.view["winners"] == ["Ann", "Ben", "Cat"]


def test_reading_5_most_points_wins_whatever_the_hands():
    m = start(["Ann", "Ben", "Cat"])
    m = climb(climb(m, 9), 9)  # 50 each; Ben pilots trip 3
    m = fall(decide(roll(m, "red", "red"), jump={"Ann"}))  # Ann +1
    v = m.view
    assert v["over"] and v["winners"] == ["Ann"]
    assert v["scores"] == {"Ann": 51, "Ben": 50, "Cat": 50}


# --- reading 6: the three ways a trip ends -------------------------------------------------------


def test_reading_6_a_fall_ends_the_trip_and_step_4_sets_up_the_next():
    m = climb(start(FOUR), 3)  # Cat pilots cloud 3
    m = fall(decide(roll(m, "red", "red"), jump={"Dan"}))
    v = m.view
    assert (v["trip"], v["cloud"], v["pilot"], v["phase"]) == (2, 1, "Dan", "roll")
    assert v["basket"] == FOUR and v["dice"] is None and v["solo"] is False
    assert v["scores"] == {"Ann": 0, "Ben": 0, "Cat": 0, "Dan": 4}  # those who stayed got nothing


def test_reading_6_reaching_cloud_9_scores_25_for_everyone_aboard_and_ends_the_trip():
    m = climb(start(FOUR), 8)  # Dan pilots cloud 8
    m = decide(roll(m, "red", "blank", "blank", "blank"), jump={"Ann"})
    m = rise(m, "wild")
    v = m.view
    assert v["scores"] == {"Ann": 20, "Ben": 25, "Cat": 25, "Dan": 25}
    # a new trip: left of Dan, the pilot who reached the top
    assert (v["trip"], v["cloud"], v["pilot"], v["basket"]) == (2, 1, "Ann", FOUR)
    assert v["hands"] == {"Ann": 7, "Ben": 7, "Cat": 7, "Dan": 6}
    assert v["discards"] == 1


def test_reading_6_a_solo_jump_out_ends_the_trip():
    m = start(["Ann", "Ben", "Cat"])
    m = blank_rise(m, jump={"Ben", "Cat"})  # Ann alone on cloud 2
    m = m.apply({"act": "jump", "player": "Ann"})
    v = m.view
    assert v["scores"] == {"Ann": 2, "Ben": 1, "Cat": 1}
    assert (v["trip"], v["cloud"], v["pilot"], v["basket"]) == (2, 1, "Ben", ["Ann", "Ben", "Cat"])
    assert v["hands"] == dict.fromkeys(["Ann", "Ben", "Cat"], 7)


# --- reading 7: only a falling trip can end the game --------------------------------------------


def test_reading_7_cloud_9_never_ends_the_game():
    m = start(["Ann", "Ben", "Cat"])
    m = climb(climb(climb(m, 9), 9), 9)
    v = m.view
    assert v["scores"] == dict.fromkeys(["Ann", "Ben", "Cat"], 75)
    assert not v["over"] and v["phase"] == "roll" and v["trip"] == 4


def test_reading_7_the_trip_in_progress_is_played_out():
    m = start(["Ann", "Ben", "Cat"])
    m = climb(climb(m, 9), 9)  # 50 each; Ben pilots trip 3
    m = decide(roll(m, "blank", "blank"), jump={"Ann"})  # Ann 51 in mid-trip
    assert not m.view["over"]
    m = rise(m)  # Cat pilots cloud 2 with Ben
    assert m.view["pilot"] == "Cat"
    assert not m.view["over"] and m.view["cloud"] == 2
    m = fall(decide(roll(m, "red", "red")))
    assert m.view["over"] and m.view["winners"] == ["Ann"]


def test_reading_7_a_fall_below_50_does_not_end_the_game():
    m = start(["Ann", "Ben", "Cat"])
    m = climb(m, 8)  # Ben pilots cloud 8
    m = fall(decide(roll(m, "red", "red", "red", "red"), jump={"Cat", "Ann"}))
    assert m.view["scores"] == {"Ann": 20, "Ben": 0, "Cat": 20}
    assert not m.view["over"]


def test_reading_7_a_solo_jump_out_can_end_the_game():
    m = start(["Ann", "Ben", "Cat"])
    m = climb(climb(m, 9), 9)  # 50 each; Ben pilots trip 3
    m = blank_rise(m, jump={"Ann", "Cat"})  # Ben alone on cloud 2
    assert m.view["solo"] and m.view["pilot"] == "Ben"
    m = m.apply({"act": "jump", "player": "Ben"})
    v = m.view
    assert v["over"] and v["scores"] == {"Ann": 51, "Ben": 52, "Cat": 51}
    assert v["winners"] == ["Ben"] and v["trip"] == 3


# --- reading 8 and the contract: flying solo -----------------------------------------------------


def test_reading_8_solo_flight_decides_before_each_roll():
    m = start(["Ann", "Ben", "Cat"])
    m = blank_rise(m, jump={"Ben", "Cat"})
    v = m.view
    assert (v["pilot"], v["basket"], v["solo"]) == ("Ann", ["Ann"], True)
    assert (v["phase"], v["to_decide"]) == ("roll", None)
    assert {"act": "jump", "player": "Ann"} in RULES.legal_actions(m.state)
    refused(m, {"act": "stay", "player": "Ann"}, "staying in is simply rolling")
    refused(m, {"act": "jump", "player": "Ben"}, "Ben has already jumped out")
    # staying is rolling; nobody is left to decide, so the pilot resolves at once
    m = roll(m, "green", "blank")
    assert (m.view["phase"], m.view["to_decide"]) == ("resolve", None)
    refused(m, {"act": "jump", "player": "Ann"}, "before rolling")
    m = rise(m, "green")
    assert (m.view["cloud"], m.view["pilot"], m.view["solo"], m.view["phase"]) == (3, "Ann", True, "roll")
    m = climb(m, 6)
    m = m.apply({"act": "jump", "player": "Ann"})
    assert m.view["scores"] == {"Ann": 12, "Ben": 1, "Cat": 1}
    assert m.view["trip"] == 2 and m.view["pilot"] == "Ben"


def test_solo_pilot_can_reach_cloud_9():
    m = start(["Ann", "Ben", "Cat"])
    m = blank_rise(m, jump={"Ben", "Cat"})
    m = climb(m, 9)
    assert m.view["scores"] == {"Ann": 25, "Ben": 1, "Cat": 1}
    assert (m.view["trip"], m.view["pilot"]) == (2, "Ben")


def test_a_solo_fall_scores_nothing():
    m = start(["Ann", "Ben", "Cat"])
    m = blank_rise(m, jump={"Ben", "Cat"})
    m = fall(roll(m, "red", "red"))
    assert m.view["scores"] == {"Ann": 0, "Ben": 1, "Cat": 1}
    assert (m.view["trip"], m.view["solo"]) == (2, False)


def test_pilot_left_alone_by_the_passengers_is_not_solo_until_the_balloon_rises():
    m = decide(roll(start(FOUR), "red", "blank"), jump={"Ben", "Cat", "Dan"})
    v = m.view
    assert (v["basket"], v["phase"], v["solo"]) == (["Ann"], "resolve", False)
    refused(m, {"act": "jump", "player": "Ann"}, "Ann is the pilot and cannot jump out unless flying solo")
    assert rise(m, "red").view["solo"] is True
    assert fall(m).view["trip"] == 2


def test_a_pilot_is_not_solo_while_others_are_aboard():
    m = blank_rise(start(FOUR), jump={"Ben", "Cat"})
    assert m.view["basket"] == ["Ann", "Dan"] and m.view["pilot"] == "Dan"
    assert m.view["solo"] is False
    refused(m, {"act": "jump", "player": "Dan"}, "Dan is the pilot and cannot jump out unless flying solo")


# --- contract details: basket order, game over, undo ---------------------------------------------


def test_basket_stays_in_seat_order():
    m = blank_rise(start(FOUR, first_pilot="Dan"), jump={"Ann"})
    assert m.view["basket"] == ["Ben", "Cat", "Dan"]


def test_game_over_view():
    m = start(["Ann", "Ben", "Cat"])
    m = climb(climb(m, 9), 9)
    before_end = decide(roll(m, "red", "yellow"))
    m = fall(before_end)
    v = m.view
    assert (v["over"], v["phase"], v["to_decide"], v["dice"]) == (True, "over", None, None)
    assert v["trip"] == 3
    # nobody draws at the end: hands and piles as the final trip left them
    assert v["hands"] == before_end.view["hands"]
    assert (v["draw_pile"], v["discards"]) == (before_end.view["draw_pile"], before_end.view["discards"])
    assert RULES.legal_actions(m.state) == []


@pytest.mark.parametrize(
    "action",
    [
        {"act": "roll", "dice": ["red", "red"]},
        {"act": "fall"},
        {"act": "rise", "cards": []},
        {"act": "jump", "player": "Ann"},
        {"act": "stay", "player": "Ben"},
        {"act": "redo"},
    ],
)
def test_nothing_but_undo_after_game_over(action):
    m = falling_trip(climb(climb(start(["Ann", "Ben", "Cat"]), 9), 9))
    assert m.view["over"]
    refused(m, action)
    back = m.apply({"act": "undo"})
    assert back.view["phase"] == "resolve" and not back.view["over"]


def test_undo_at_setup_is_refused_and_undo_takes_back_one_action():
    m = start(FOUR)
    refused(m, {"act": "undo"}, "nothing to undo")
    rolled = roll(m, "red", "blank")
    stayed = rolled.apply({"act": "stay", "player": "Ben"})
    assert stayed.apply({"act": "undo"}).view == rolled.view
    assert stayed.apply({"act": "undo"}).apply({"act": "undo"}).view == m.view


def test_winners_are_in_seat_order_not_pilot_order():
    m = climb(climb(start(["Ann", "Ben", "Cat"]), 9), 9)  # 50 each; Ben pilots trip 3
    assert m.view["pilot"] == "Ben"
    m = roll(m, "red", "red")
    m = m.apply({"act": "jump", "player": "Cat"})  # Cat decides before Ann
    m = m.apply({"act": "jump", "player": "Ann"})
    m = fall(m)
    assert m.view["winners"] == ["Ann", "Cat"]


# --- malformed and misplaced actions ----------------------------------------------------------------


@pytest.mark.parametrize(
    "action,words",
    [
        ({"act": "fly"}, ["'fly' is not an action in Cloud 9"]),
        ({"act": "roll"}, ['"roll" needs a "dice" field']),
        ({"act": "roll", "dice": "red red"}, ['"dice" must be']),
        ({"act": "roll", "dice": ["red", "orange"]}, ["'orange' is not one of"]),
        ({"act": "roll", "dice": ["red", 1]}, ["1 is not one of"]),
        ({"act": "roll", "dice": [True, "red"]}, ["True is not one of"]),
        ({"act": "roll", "dice": ["red", "wild"]}, ["'wild' is not one of"]),
        ({"act": "roll", "dice": None}, ['"dice" must be']),
        ({"act": "rise", "cards": []}, ["Ann must roll the dice first"]),
        ({"act": "fall"}, ["Ann must roll the dice first"]),
        ({"act": "jump"}, ['"jump" needs a "player" field']),
        ({"act": "jump", "player": 3}, ['"player" must be']),
        ({"act": "jump", "player": "Zoe"}, ["no player called 'Zoe'"]),
        ({"act": "stay", "player": ["Ben"]}, ['"player" must be']),
    ],
)
def test_malformed_or_misplaced_actions_before_the_roll(action, words):
    refused(start(FOUR), action, *words)


@pytest.mark.parametrize(
    "action,words",
    [
        ({"act": "roll", "dice": ["red", "red"]}, ["Ben must decide first"]),
        ({"act": "rise", "cards": ["red"]}, ["Ben must decide first"]),
        ({"act": "fall"}, ["Ben must decide first"]),
    ],
)
def test_misplaced_actions_while_passengers_decide(action, words):
    refused(roll(start(FOUR), "red", "blank"), action, *words)


@pytest.mark.parametrize(
    "action,words",
    [
        ({"act": "roll", "dice": ["red", "red"]}, ["Ann makes the balloon rise or fall"]),
        ({"act": "rise"}, ['"rise" needs a "cards" field']),
        ({"act": "rise", "cards": "red"}, ['"cards" must be']),
        ({"act": "rise", "cards": ["blank"]}, ["'blank' is not one of"]),
        ({"act": "rise", "cards": [{"colour": "red"}]}, ["is not one of"]),
    ],
)
def test_misplaced_or_malformed_actions_while_resolving(action, words):
    refused(decide(roll(start(FOUR), "red", "blank")), action, *words)


def test_solo_pilot_refusals_before_the_roll_say_what_to_do():
    m = blank_rise(start(["Ann", "Ben", "Cat"]), jump={"Ben", "Cat"})
    refused(m, {"act": "fall"}, "Ann flies solo and must jump out or roll the dice first")


# --- legal_actions and roll_outcomes ------------------------------------------------------------------


@pytest.mark.parametrize("cloud", [1, 4, 7])
def test_legal_rolls_are_the_distinct_multisets(cloud):
    m = climb(start(FOUR), cloud)
    rolls = [a for a in RULES.legal_actions(m.state) if a["act"] == "roll"]
    n = DICE[cloud]
    brute = {
        tuple(sorted(faces)) for faces in itertools.product(["red", "yellow", "green", "purple", "blank"], repeat=n)
    }
    assert len(rolls) == len(brute)
    assert {tuple(sorted(a["dice"])) for a in rolls} == brute
    for action in rolls:
        m.apply(action)  # every one is accepted


@pytest.mark.parametrize("cloud", [1, 4, 7])
def test_roll_outcomes_are_the_true_probabilities(cloud):
    m = climb(start(FOUR), cloud)
    n = DICE[cloud]
    die = ["red", "yellow", "green", "purple", "blank", "blank"]
    counted = Counter(tuple(sorted(faces)) for faces in itertools.product(die, repeat=n))
    expected = {faces: Fraction(k, 6**n) for faces, k in counted.items()}
    got = {tuple(sorted(o.action["dice"])): o.probability for o in RULES.roll_outcomes(m.state)}
    assert got.keys() == expected.keys()
    for faces, p in expected.items():
        assert got[faces] == pytest.approx(float(p))
    assert sum(got.values()) == pytest.approx(1.0)


def test_roll_outcomes_of_two_dice_examples():
    got = {tuple(o.action["dice"]): o.probability for o in RULES.roll_outcomes(start(FOUR).state)}
    assert got[("blank", "blank")] == pytest.approx(1 / 9)
    assert got[("red", "green")] == pytest.approx(2 / 36)
    assert got[("red", "red")] == pytest.approx(1 / 36)


def test_no_roll_outcomes_outside_the_roll_phase():
    assert RULES.roll_outcomes(roll(start(FOUR), "red", "blank").state) == []


def test_legal_actions_while_resolving_offer_rise_options_and_fall():
    m = on_cloud_4_after("green", "red", "green")
    legal = RULES.legal_actions(m.state)
    assert {"act": "fall"} in legal
    assert {"act": "rise", "cards": ["wild"]} in legal
    assert any(a["act"] == "rise" and sorted(a["cards"]) == ["green", "green", "red"] for a in legal)
    for action in legal:
        m.apply(action)


def test_legal_actions_while_deciding_are_the_deciders_two_choices():
    m = roll(start(FOUR), "red", "blank")
    assert RULES.legal_actions(m.state) == [{"act": "jump", "player": "Ben"}, {"act": "stay", "player": "Ben"}]


# --- the example games ----------------------------------------------------------------------------------


def test_there_are_example_games():
    assert EXAMPLES


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_game_replays_to_a_winner(path, capsys):
    assert cli.main(["replay", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["game"] == "cloud9" and out["over"] and out["winners"]
    assert max(out["scores"].values()) >= 50
    assert "error" not in out


def test_the_four_player_example_is_decided_by_hand_size(capsys):
    path = next(p for p in EXAMPLES if "tie-break" in p.name)
    assert cli.main(["replay", str(path)]) == 0
    out = json.loads(capsys.readouterr().out)
    top = max(out["scores"].values())
    tied = [p for p in out["players"] if out["scores"][p] == top]
    assert len(tied) == 2 and len(out["winners"]) == 1
    assert out["hands"][out["winners"][0]] > min(out["hands"][p] for p in tied)
