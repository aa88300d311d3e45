"""Cloudship: the rulebook's worked example, each reading, the modes, and every refusal."""

from itertools import product
from pathlib import Path

import pytest

from companion import cli
from companion.replay import replay_lines
from companion.rules import Match, RulesError, SetupError
from companion.rules.cloudship import (
    FACE_WEIGHTS,
    RULES,
    STORM_END,
    bed_outcome,
    return_space,
    roll_outcomes,
)

CREW = ["Emma", "Milan", "Aaron", "Olivia"]
EXAMPLES = Path(__file__).resolve().parent.parent / "companion" / "examples"


def start(mode="standard", players=CREW, **extra):
    return Match.start({"game": "cloudship", "players": players, "mode": mode, **extra})


def roll(m, *dice):
    return m.apply({"act": "roll", "dice": list(dice)})


def drop(m, ball, bed):
    return m.apply({"act": "drop", "ball": ball, "bed": bed})


def rains(m, *beds):
    for bed in beds:
        m = drop(m, "rain", bed)
    return m


def land(m):
    return m.apply({"act": "land"})


def reveal(m, hail):
    return m.apply({"act": "reveal", "hail": hail})


def plant(m, bed):
    return m.apply({"act": "plant", "bed": bed})


def fill(m, bed, rounds=1):
    """Rounds that each plant three flowers in `bed` (rolling three of its colour)."""
    for _ in range(rounds):
        m = land(rains(roll(m, bed, bed, bed), bed, bed, bed))
    return m


def calm_round(m):
    """A round that changes nothing but the commander: roll, land without dropping."""
    return land(roll(m, "yellow", "purple", "white"))


def storm_to(m, squares):
    """Rounds of two storms (and one colour, left unwatered) until the storm is on `squares`."""
    while m.view["storm"] + 2 <= squares:
        m = land(roll(m, "storm", "storm", "blue"))
    if m.view["storm"] < squares:
        m = land(roll(m, "storm", "blue", "blue"))
    return m


def tiles(m):
    return [space["tile"] for space in m.view["engine"]]


def flowers(m):
    return [space["flower"] for space in m.view["engine"]]


# --- the rulebook's worked example ---------------------------------------------------------


def test_rulebook_example_first_round_step_by_step():
    m = start(first_commander="Emma")
    assert m.view["commander"] == "Emma" and m.view["phase"] == "roll"
    # Emma rolls yellow, purple and a storm symbol; Milan moves the storm marker to 1
    m = roll(m, "yellow", "purple", "storm")
    v = m.view
    assert v["storm"] == 1 and v["phase"] == "flight"
    # Aaron loads 2 raindrops and, with no hail uncovered yet, no hailstones
    assert v["load"] == {"rain": 2, "hail": 0}
    # the crew waters yellow and purple
    m = rains(m, "yellow", "purple")
    m = land(m)
    # Olivia plants: the first flower from the red arrow, the tile beneath is flipped: blank
    v = m.view
    assert v["phase"] == "reveal" and v["reveal_space"] == 1
    assert v["beds"] == {"yellow": 1, "purple": 0, "white": 0, "blue": 0} and v["engine_room"] == 11
    m = reveal(m, False)
    # the next flower follows the pipe; its tile shows hail
    assert m.view["phase"] == "reveal" and m.view["reveal_space"] == 2
    m = reveal(m, True)
    v = m.view
    assert v["beds"] == {"yellow": 1, "purple": 1, "white": 0, "blue": 0}
    assert v["engine_room"] == 10 and v["hail_visible"] == 1
    assert tiles(m)[:3] == ["blank", "hail", "face_down"]
    assert v["phase"] == "roll" and v["commander"] == "Milan" and v["load"] == {"rain": 0, "hail": 0}
    assert v["scores"] == dict.fromkeys(CREW, 2)
    # from now on the crew loads one hailstone every round
    m = roll(m, "white", "blue", "storm")
    assert m.view["load"] == {"rain": 2, "hail": 1}
    m = land(m)
    m = roll(m, "white", "white", "white")
    assert m.view["load"] == {"rain": 3, "hail": 1}


def test_rulebook_note_two_raindrops_in_purple_with_one_purple_die_grow_one_flower():
    m = start("sunny")
    m = land(rains(roll(m, "yellow", "purple", "storm"), "purple", "purple"))
    assert m.view["beds"] == {"yellow": 0, "purple": 1, "white": 0, "blue": 0}


def test_rulebook_later_round_raindrop_and_hailstone_cancel_in_purple():
    m = start("overcast", first_commander="Emma")
    m = fill(m, "yellow")  # spaces 1-3 emptied: the hail on space 3 is visible
    assert m.view["hail_visible"] == 1
    m = roll(m, "purple", "storm", "storm")
    assert m.view["load"] == {"rain": 1, "hail": 1}
    m = land(drop(drop(m, "rain", "purple"), "hail", "purple"))
    v = m.view
    assert v["beds"] == {"yellow": 3, "purple": 0, "white": 0, "blue": 0}
    assert v["engine_room"] == 9 and v["planted"] == [] and v["removed"] == []


def test_cancelling_also_saves_a_flower_in_a_bed_whose_colour_was_not_rolled():
    m = start("overcast")
    m = fill(m, "yellow")
    m = land(drop(drop(roll(m, "purple", "storm", "storm"), "rain", "yellow"), "hail", "yellow"))
    assert m.view["beds"]["yellow"] == 3 and m.view["removed"] == []


def test_rulebook_wild_purple_bed_the_crew_plants_in_white():
    m = start("sunny")
    m = fill(m, "purple")
    m = roll(m, "purple", "yellow", "storm")
    m = land(rains(m, "purple", "yellow"))
    # the yellow flower is planted first, then the crew is asked where the wild one goes
    v = m.view
    assert v["phase"] == "plant" and v["wild_pending"] == 1
    assert v["beds"] == {"yellow": 1, "purple": 3, "white": 0, "blue": 0}
    assert {a["bed"] for a in RULES.legal_actions(m.state)} == {"yellow", "white", "blue"}
    m = plant(m, "white")
    v = m.view
    assert v["beds"] == {"yellow": 1, "purple": 3, "white": 1, "blue": 0}
    assert v["planted"] == ["yellow", "white"] and v["phase"] == "roll"


def test_full_bed_is_refused_for_the_wild_flower():
    m = fill(start("sunny"), "purple")
    m = land(rains(roll(m, "purple", "storm", "storm"), "purple"))
    with pytest.raises(RulesError, match="the purple bed is full: plant the wild flower in a bed that is not full"):
        plant(m, "purple")


def test_hail_on_a_full_bed_makes_it_no_longer_wild():
    m = start("overcast")
    m = fill(m, "purple")  # the hail on space 3 is now visible
    m = land(drop(roll(m, "white", "storm", "storm"), "hail", "purple"))
    assert m.view["beds"]["purple"] == 2 and m.view["removed"] == ["purple"]
    # watering purple now grows a flower in purple itself: nobody is asked
    m = land(drop(roll(m, "purple", "storm", "storm"), "rain", "purple"))
    assert m.view["beds"]["purple"] == 3 and m.view["phase"] == "roll"


def test_faq_cancelled_raindrop_then_a_second_raindrop_in_blue_plants_a_flower():
    m = start("overcast")
    m = fill(m, "yellow")
    m = roll(m, "blue", "white", "storm")
    m = drop(drop(drop(m, "rain", "blue"), "hail", "blue"), "rain", "blue")
    m = land(m)
    assert m.view["beds"]["blue"] == 1


# --- readings, one by one ------------------------------------------------------------------


def test_reading_1_storm_moves_at_once_and_the_end_square_loses_before_the_flight():
    m = start("sunny", first_commander="Milan")
    m = roll(m, "storm", "storm", "yellow")
    assert m.view["storm"] == 2 and m.view["phase"] == "flight"
    m = land(m)
    m = storm_to(m, STORM_END - 1)
    commander = m.view["commander"]
    m = roll(m, "storm", "storm", "yellow")  # two storms from 12: it stops on the end square
    v = m.view
    assert v["storm"] == STORM_END == v["storm_end"] == 13
    assert v["over"] and v["phase"] == "over" and v["result"] == "lost" and v["winners"] == []
    assert v["load"] == {"rain": 0, "hail": 0}
    assert v["commander"] == commander  # no rotation after the end


def test_reading_2_load_is_coloured_dice_and_visible_hail():
    m = start("stormy")  # hail on spaces 1, 4, 7, face up under their flowers
    assert m.view["hail_visible"] == 0
    m = fill(m, "yellow")  # spaces 1-3 emptied
    assert m.view["hail_visible"] == 1
    m = roll(m, "blue", "storm", "storm")
    assert m.view["load"] == {"rain": 1, "hail": 1}
    m = land(rains(m, "blue"))  # space 4 emptied: second hail
    m = roll(m, "blue", "white", "yellow")
    assert m.view["load"] == {"rain": 3, "hail": 2}


def test_reading_2_load_holds_through_the_round():
    m = start("overcast")
    m = fill(m, "yellow")
    m = roll(m, "purple", "white", "storm")
    m = drop(drop(m, "rain", "purple"), "hail", "blue")
    assert m.view["load"] == {"rain": 2, "hail": 1}


def test_reading_3_rain_plants_at_most_as_many_flowers_as_dice_show_the_colour():
    assert bed_outcome(rain=3, hail=0, rolled=2) == (0, 2)
    assert bed_outcome(rain=2, hail=1, rolled=1) == (0, 1)
    assert bed_outcome(rain=1, hail=2, rolled=3) == (1, 0)
    assert bed_outcome(rain=2, hail=2, rolled=2) == (0, 0)
    m = land(rains(roll(start("sunny"), "blue", "blue", "white"), "blue", "blue", "blue"))
    assert m.view["beds"] == {"yellow": 0, "purple": 0, "white": 0, "blue": 2}


def test_reading_3_raindrop_in_a_colour_not_rolled_grows_nothing():
    m = land(rains(roll(start("sunny"), "yellow", "storm", "storm"), "white"))
    assert m.view["beds"]["white"] == 0 and m.view["engine_room"] == 12


def test_reading_3_hail_on_an_empty_bed_does_nothing():
    m = fill(start("overcast"), "yellow")
    m = land(drop(roll(m, "white", "storm", "storm"), "hail", "blue"))
    assert m.view["beds"] == {"yellow": 3, "purple": 0, "white": 0, "blue": 0}
    assert m.view["engine_room"] == 9


def test_reading_4_hail_first_then_plantings_in_bed_order():
    # hail: spaces 3 and 6 become visible after two fills
    m = start("overcast")
    m = fill(m, "blue")
    m = fill(m, "white")
    assert m.view["hail_visible"] == 2 and m.view["engine_room"] == 6
    m = roll(m, "purple", "yellow", "storm")
    m = drop(drop(m, "hail", "white"), "hail", "blue")
    m = rains(m, "purple", "yellow")
    m = land(m)
    v = m.view
    assert v["removed"] == ["white", "blue"]
    # the two removed flowers went back on spaces 6 and 5 and were planted again from there,
    # yellow before purple
    assert v["planted"] == ["yellow", "purple"]
    assert v["beds"] == {"yellow": 1, "purple": 1, "white": 2, "blue": 2}
    assert flowers(m) == [False] * 6 + [True] * 6 and v["hail_visible"] == 2


def test_reading_4_wild_flower_goes_to_the_only_open_bed_without_asking():
    m = start("sunny")
    for bed in ("yellow", "purple", "white"):
        m = fill(m, bed)
    m = land(rains(roll(m, "yellow", "storm", "storm"), "yellow"))
    v = m.view
    assert v["phase"] == "roll" and v["beds"]["blue"] == 1 and v["planted"] == ["blue"]


def test_reading_4_regular_plantings_fill_a_bed_before_it_turns_wild():
    m = start("sunny")
    m = land(rains(roll(m, "white", "white", "storm"), "white", "white"))
    assert m.view["beds"]["white"] == 2
    m = land(rains(roll(m, "white", "white", "blue"), "white", "white", "blue"))
    v = m.view
    # one more white fills the bed; the second white watering is wild, after blue's flower
    assert v["phase"] == "plant" and v["planted"] == ["white", "blue"]
    m = plant(m, "blue")
    assert m.view["beds"] == {"yellow": 0, "purple": 0, "white": 3, "blue": 2}


def test_reading_4_several_wild_flowers_asked_one_at_a_time():
    m = fill(start("sunny"), "purple")
    m = land(rains(roll(m, "purple", "purple", "purple"), "purple", "purple", "purple"))
    for bed in ("yellow", "yellow", "blue"):
        assert m.view["phase"] == "plant"
        m = plant(m, bed)
    v = m.view
    assert v["phase"] == "roll" and v["beds"] == {"yellow": 2, "purple": 3, "white": 0, "blue": 1}


def test_reading_5_flowers_follow_the_pipe_and_reveal_the_tile_beneath():
    m = start("tornado")
    m = land(rains(roll(m, "blue", "storm", "storm"), "blue"))
    assert m.view["phase"] == "reveal" and m.view["reveal_space"] == 1
    assert flowers(m)[:2] == [False, True]
    m = reveal(m, True)
    assert m.view["hail_visible"] == 1 and tiles(m)[0] == "hail"


def test_reading_6_return_space_is_the_highest_numbered_empty_space():
    assert return_space([False, False, True] + [True] * 9) == 1
    assert return_space([False, True, False] + [True] * 9) == 2
    assert return_space([True] * 11 + [False]) == 11


def test_reading_6_removed_flower_covers_revealed_hail_until_planted_again():
    m = start("overcast")
    m = fill(m, "blue")  # space 3 (hail) emptied
    assert m.view["hail_visible"] == 1
    m = land(drop(roll(m, "white", "storm", "storm"), "hail", "blue"))
    assert flowers(m)[2] and m.view["hail_visible"] == 0
    m = roll(m, "white", "storm", "storm")
    assert m.view["load"] == {"rain": 1, "hail": 0}
    m = land(rains(m, "white"))
    assert not flowers(m)[2] and m.view["hail_visible"] == 1


def test_reading_9_a_ball_outside_the_beds_is_refused_and_goes_back_into_the_ship():
    m = roll(start("sunny"), "blue", "white", "storm")
    with pytest.raises(RulesError, match="not a bed"):
        drop(m, "rain", "table")
    m = rains(m, "blue", "white")  # both raindrops are still in the ship
    assert len(m.view["drops"]) == 2


def test_a_tile_flipped_once_stays_face_up_and_is_never_asked_again():
    m = start("standard", first_commander="Emma")
    m = land(rains(roll(m, "blue", "storm", "storm"), "blue"))
    m = reveal(m, True)  # space 1 shows hail
    m = roll(m, "white", "storm", "storm")
    assert m.view["load"]["hail"] == 1
    m = land(drop(m, "hail", "blue"))  # the flower goes back on space 1
    assert flowers(m)[0] and tiles(m)[0] == "hail" and m.view["hail_visible"] == 0
    m = land(rains(roll(m, "white", "storm", "storm"), "white"))
    assert m.view["phase"] == "roll" and m.view["hail_visible"] == 1


def test_reveal_pauses_the_remaining_plantings_until_answered():
    m = roll(start("standard"), "yellow", "purple", "white")
    m = land(rains(m, "yellow", "purple", "white"))
    v = m.view
    assert v["phase"] == "reveal" and v["planted"] == ["yellow"] and v["load"] == {"rain": 3, "hail": 0}
    for wrong in (
        {"act": "roll", "dice": ["blue"] * 3},
        {"act": "land"},
        {"act": "plant", "bed": "blue"},
        {"act": "drop", "ball": "rain", "bed": "blue"},
    ):
        with pytest.raises(RulesError, match="engine space 1 was just flipped"):
            m.apply(wrong)
    m = reveal(reveal(m, False), False)
    assert m.view["phase"] == "reveal" and m.view["reveal_space"] == 3
    m = reveal(m, True)
    assert m.view["beds"] == {"yellow": 1, "purple": 1, "white": 1, "blue": 0} and m.view["phase"] == "roll"


def test_reveal_accepts_either_face_even_against_the_sets():
    m = start("standard")
    for _ in range(3):
        m = land(rains(roll(m, "yellow", "storm", "storm"), "yellow"))
        m = reveal(m, True)
    assert m.view["hail_visible"] == 3 and tiles(m)[:3] == ["hail"] * 3


def test_with_the_hail_list_given_no_reveal_is_ever_asked():
    hail = [False, True, False, True, False, False, False, False, True, False, False, False]
    m = start("standard", hail=hail)
    m = fill(m, "yellow")
    v = m.view
    assert v["phase"] == "roll" and v["hail_visible"] == 1
    assert tiles(m)[:4] == ["blank", "hail", "blank", "face_down"]  # the rest stays unseen


def test_the_crew_wins_with_all_twelve_flowers_and_the_commander_stays():
    m = start("sunny", first_commander="Aaron")
    for bed in ("yellow", "purple", "white"):
        m = fill(m, bed)
    commander = m.view["commander"]
    m = land(rains(roll(m, "blue", "blue", "blue"), "blue", "blue", "blue"))
    v = m.view
    assert v["over"] and v["result"] == "won" and v["phase"] == "over"
    assert v["winners"] == CREW and v["scores"] == dict.fromkeys(CREW, 12)
    assert v["engine_room"] == 0 and v["commander"] == commander
    assert v["load"] == {"rain": 0, "hail": 0}  # the ship is empty once the game is over
    with pytest.raises(RulesError, match="the game is over, the crew won"):
        roll(m, "blue", "blue", "blue")
    # undo after the end is legal and takes back the winning landing
    assert m.apply({"act": "undo"}).view["phase"] == "flight"


def test_a_win_in_the_middle_of_the_plantings_ends_everything():
    m = start("sunny")
    for bed in ("yellow", "purple", "white"):
        m = fill(m, bed)
    m = land(rains(roll(m, "blue", "blue", "storm"), "blue", "blue"))
    assert m.view["engine_room"] == 1
    # blue's flower is the twelfth: the two wild yellow flowers owed after it are never asked
    m = land(rains(roll(m, "blue", "yellow", "yellow"), "blue", "yellow", "yellow"))
    v = m.view
    assert v["result"] == "won" and v["planted"] == ["blue"] and v["wild_pending"] == 0


def test_commander_passes_to_the_left_after_every_round():
    m = start("sunny", players=["Ann", "Ben", "Cat"], first_commander="Ben")
    seen = []
    for _ in range(4):
        seen.append(m.view["commander"])
        m = calm_round(m)
    assert seen == ["Ben", "Cat", "Ann", "Ben"] and m.view["round"] == 5


def test_commander_does_not_rotate_after_a_loss():
    m = storm_to(start("sunny", first_commander="Emma"), 12)
    who = m.view["commander"]
    m = roll(m, "storm", "yellow", "yellow")
    assert m.view["result"] == "lost" and m.view["commander"] == who


def test_three_storms_change_nothing_and_the_commander_rolls_again():
    m = roll(start("standard"), "storm", "storm", "storm")
    assert m.view == start("standard").view
    m = calm_round(m)
    before = m.view
    assert roll(m, "storm", "storm", "storm").view == before


def test_default_first_commander_is_the_first_player():
    assert start("sunny").view["commander"] == "Emma"


# --- modes and setup -----------------------------------------------------------------------

FACE_DOWN_1_TO_9 = ["face_down"] * 9 + [None] * 3


@pytest.mark.parametrize(
    "mode,extra,layout",
    [
        ("standard", {}, FACE_DOWN_1_TO_9),
        ("tornado", {}, FACE_DOWN_1_TO_9),
        ("sunny", {}, [None] * 12),
        ("partly_cloudy", {"removed_sets": [2]}, ["face_down"] * 3 + [None] * 3 + ["face_down"] * 3 + [None] * 3),
        ("partly_cloudy", {"removed_sets": [1, 3]}, [None] * 3 + ["face_down"] * 3 + [None] * 6),
        ("overcast", {}, ["blank", "blank", "hail"] * 3 + [None] * 3),
        ("dreary", {}, ["blank", "hail", "blank"] * 3 + [None] * 3),
        ("stormy", {}, ["hail", "blank", "blank"] * 3 + [None] * 3),
    ],
)
def test_each_mode_lays_out_its_tiles(mode, extra, layout):
    m = start(mode, **extra)
    assert tiles(m) == layout and m.view["mode"] == mode
    assert m.view["hail_visible"] == 0 and m.view["engine_room"] == 12


def test_fixed_modes_never_ask_a_reveal():
    for mode in ("overcast", "dreary", "stormy", "sunny"):
        m = start(mode)
        for bed in ("yellow", "purple", "white"):
            m = fill(m, bed)
            assert m.view["phase"] == "roll"
        assert m.view["hail_visible"] == (0 if mode == "sunny" else 3)


def test_partly_cloudy_asks_reveals_only_where_tiles_lie():
    m = start("partly_cloudy", removed_sets=[1])
    m = fill(m, "yellow")  # spaces 1-3 have no tiles
    assert m.view["phase"] == "roll"
    m = land(rains(roll(m, "blue", "storm", "storm"), "blue"))
    assert m.view["phase"] == "reveal" and m.view["reveal_space"] == 4


def H(*spaces):
    return [space in spaces for space in range(1, 13)]


@pytest.mark.parametrize(
    "mode,extra,hail",
    [
        ("standard", {}, H(1, 5, 9)),
        ("standard", {}, H(3, 4, 7)),
        ("tornado", {}, H(1, 2, 3)),
        ("tornado", {}, H(4, 8, 9)),
        ("sunny", {}, H()),
        ("partly_cloudy", {"removed_sets": [3]}, H(2, 6)),
        ("partly_cloudy", {"removed_sets": [1, 2]}, H(8)),
        ("overcast", {}, H(3, 6, 9)),
        ("dreary", {}, H(2, 5, 8)),
        ("stormy", {}, H(1, 4, 7)),
    ],
)
def test_hail_lists_that_fit_the_mode(mode, extra, hail):
    assert start(mode, hail=hail, **extra).view["phase"] == "roll"


@pytest.mark.parametrize(
    "mode,extra,hail,reason",
    [
        ("standard", {}, H(1, 2, 9), "section 1 .* has 2"),
        ("standard", {}, H(1, 4, 7, 8), "section 3 .* has 2"),
        ("standard", {}, H(1, 4, 7, 10), "space 10 has no hail tile"),
        ("tornado", {}, H(1, 2), "3 hail tiles among spaces 1-9, not 2"),
        ("tornado", {}, H(1, 2, 3, 4), "not 4"),
        ("sunny", {}, H(5), "space 5 has no hail tile in sunny mode"),
        ("partly_cloudy", {"removed_sets": [3]}, H(2, 6, 8), "space 8 has no hail tile"),
        ("partly_cloudy", {"removed_sets": [3]}, H(2), "section 2 .* has 0"),
        ("overcast", {}, H(2, 5, 8), "spaces 3, 6, 9"),
        ("dreary", {}, H(3, 6, 9), "spaces 2, 5, 8"),
        ("stormy", {}, H(1, 4), "spaces 1, 4, 7"),
    ],
)
def test_hail_lists_that_do_not_fit_the_mode_are_refused(mode, extra, hail, reason):
    with pytest.raises(SetupError, match=reason):
        start(mode, hail=hail, **extra)


@pytest.mark.parametrize("hail", [[True] * 11, "yes", [0] * 12, [None] * 12])
def test_malformed_hail_list_is_refused(hail):
    with pytest.raises(SetupError, match="12 true/false values"):
        start("standard", hail=hail)


@pytest.mark.parametrize("removed", [[], [1, 2, 3], [0], [4], [2, 2], [True], "1", 1])
def test_bad_removed_sets_are_refused(removed):
    with pytest.raises(SetupError, match="one or two different sections"):
        start("partly_cloudy", removed_sets=removed)


def test_partly_cloudy_needs_removed_sets_and_other_modes_refuse_them():
    with pytest.raises(SetupError, match="partly_cloudy mode needs"):
        start("partly_cloudy")
    for mode in ("standard", "sunny", "tornado", "overcast"):
        with pytest.raises(SetupError, match="only for partly_cloudy"):
            start(mode, removed_sets=[1])


@pytest.mark.parametrize(
    "setup,reason",
    [
        ({"players": ["Ann"]}, "2 to 4 players, not 1"),
        ({"players": ["A", "B", "C", "D", "E"]}, "2 to 4 players, not 5"),
        ({"players": ["Ann", "Ann"]}, "unique"),
        ({"players": ["Ann", "Ben"], "mode": "foggy"}, 'unknown "mode"'),
        ({"players": ["Ann", "Ben"], "first_commander": "Zoe"}, "first_commander"),
    ],
)
def test_bad_setups_are_refused(setup, reason):
    with pytest.raises(SetupError, match=reason):
        Match.start({"game": "cloudship", **setup})


def test_a_bad_setup_exits_1_with_one_line_on_stderr(tmp_path, capsys):
    game = tmp_path / "game.jsonl"
    game.write_text(
        '{"game": "cloudship", "players": ["Ann", "Ben"], "mode": "overcast", '
        '"hail": [true, false, false, false, false, false, false, false, false, false, false, false]}\n'
    )
    assert cli.main(["replay", str(game)]) == 1
    out, err = capsys.readouterr()
    assert out == "" and "spaces 3, 6, 9" in err and len(err.strip().splitlines()) == 1


# --- refusals ------------------------------------------------------------------------------


def test_drops_beyond_the_load_are_refused_with_the_count():
    m = roll(start("sunny"), "blue", "white", "storm")
    m = rains(m, "blue", "white")
    with pytest.raises(RulesError, match="only 2 raindrops were loaded this round") as err:
        drop(m, "rain", "blue")
    assert err.value.rule == "3. Load the Cloud Ship"
    with pytest.raises(RulesError, match="no hailstones were loaded this round"):
        drop(m, "hail", "blue")
    m = roll(start("sunny"), "blue", "storm", "storm")
    m = drop(m, "rain", "blue")
    with pytest.raises(RulesError, match="only 1 raindrop was loaded this round"):
        drop(m, "rain", "blue")


@pytest.mark.parametrize(
    "action,reason",
    [
        ({"act": "roll"}, 'needs a "dice" field'),
        ({"act": "roll", "dice": "blue"}, '"dice" must be'),
        ({"act": "roll", "dice": ["blue", "blue"]}, "3 dice, not 2"),
        ({"act": "roll", "dice": ["blue", "blue", "blue", "blue"]}, "3 dice, not 4"),
        ({"act": "roll", "dice": ["blue", "red", "blue"]}, "'red' is not one of"),
        ({"act": "roll", "dice": ["blue", 1, "blue"]}, "1 is not one of"),
        ({"act": "fly"}, "'fly' is not an action in Cloudship"),
        ({"act": "land"}, "Emma rolls the dice first"),
        ({"act": "drop", "ball": "rain", "bed": "blue"}, "Emma rolls the dice first"),
        ({"act": "plant", "bed": "blue"}, "Emma rolls the dice first"),
        ({"act": "reveal", "hail": True}, "Emma rolls the dice first"),
    ],
)
def test_refusals_before_the_roll(action, reason):
    m = start("standard")
    with pytest.raises(RulesError, match=reason) as err:
        m.apply(action)
    assert err.value.rule


@pytest.mark.parametrize(
    "action,reason",
    [
        ({"act": "drop", "bed": "blue"}, 'needs a "ball" field'),
        ({"act": "drop", "ball": "rain"}, 'needs a "bed" field'),
        ({"act": "drop", "ball": "snow", "bed": "blue"}, "'snow' is not a ball"),
        ({"act": "drop", "ball": "rain", "bed": "green"}, "'green' is not a bed"),
        ({"act": "drop", "ball": "rain", "bed": 3}, '"bed" must be a bed colour'),
        ({"act": "roll", "dice": ["blue"] * 3}, "the ship is flying"),
        ({"act": "plant", "bed": "blue"}, "the ship is flying"),
        ({"act": "reveal", "hail": False}, "the ship is flying"),
    ],
)
def test_refusals_in_flight(action, reason):
    m = roll(start("standard"), "blue", "white", "storm")
    with pytest.raises(RulesError, match=reason):
        m.apply(action)


def test_refusals_while_a_wild_flower_waits():
    m = fill(start("sunny"), "purple")
    m = land(rains(roll(m, "purple", "storm", "storm"), "purple"))
    for action, reason in [
        ({"act": "plant"}, 'needs a "bed" field'),
        ({"act": "plant", "bed": "pink"}, "'pink' is not a bed"),
        ({"act": "land"}, "plant it in yellow or white or blue"),
        ({"act": "reveal", "hail": True}, "a wild flower waits"),
    ]:
        with pytest.raises(RulesError, match=reason):
            m.apply(action)


def test_reveal_needs_a_boolean():
    m = land(rains(roll(start("standard"), "blue", "storm", "storm"), "blue"))
    for value in (1, "true", None):
        with pytest.raises(RulesError, match='"hail" must be true or false'):
            reveal(m, value)
    with pytest.raises(RulesError, match='needs a "hail" field'):
        m.apply({"act": "reveal"})


def test_every_action_after_a_loss_is_refused():
    m = roll(storm_to(start("sunny"), 12), "storm", "blue", "blue")
    for action in RULES.legal_actions(start("sunny").state) + [{"act": "land"}, {"act": "reveal", "hail": True}]:
        with pytest.raises(RulesError, match="the game is over, the crew lost"):
            m.apply(action)
    assert RULES.legal_actions(m.state) == []


# --- legal actions and roll probabilities --------------------------------------------------


def test_legal_actions_in_each_phase():
    m = start("overcast")
    rolls = RULES.legal_actions(m.state)
    assert len(rolls) == 35 and {"act": "roll", "dice": ["storm"] * 3} in rolls
    m = fill(m, "yellow")
    m = roll(m, "blue", "storm", "storm")
    legal = RULES.legal_actions(m.state)
    assert len(legal) == 9 and legal[-1] == {"act": "land"}
    m = drop(m, "rain", "white")
    assert {a.get("ball") for a in RULES.legal_actions(m.state)} == {"hail", None}
    assert RULES.legal_actions(
        land(
            roll(start("standard"), "blue", "storm", "storm").apply({"act": "drop", "ball": "rain", "bed": "blue"})
        ).state
    ) == [{"act": "reveal", "hail": False}, {"act": "reveal", "hail": True}]


def test_roll_outcomes_are_the_true_probabilities():
    state = start("sunny").state
    outcomes = roll_outcomes(state)
    by_dice = {tuple(o.action["dice"]): o.probability for o in outcomes}
    # count every one of the 6 x 6 x 6 ways three dice can fall (storm on two faces)
    sides = [face for face, n in FACE_WEIGHTS.items() for _ in range(n)]
    counts = {}
    for fall in product(sides, repeat=3):
        key = tuple(sorted(fall, key=list(FACE_WEIGHTS).index))
        counts[key] = counts.get(key, 0) + 1
    assert by_dice.keys() == counts.keys()
    for dice, n in counts.items():
        assert by_dice[dice] == pytest.approx(n / 216)
    assert by_dice[("storm",) * 3] == pytest.approx(1 / 27)
    assert sum(by_dice.values()) == pytest.approx(1)
    assert [o.action for o in outcomes] == RULES.legal_actions(state)
    assert roll_outcomes(roll(start("sunny"), "blue", "blue", "blue").state) == []


# --- the example games ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "name,result",
    [
        ("cloudship-won.jsonl", "won"),
        ("cloudship-lost.jsonl", "lost"),
        ("cloudship-reveals.jsonl", "won"),
    ],
)
def test_example_games_replay_cleanly(name, result, capsys):
    path = EXAMPLES / name
    with path.open(encoding="utf-8") as lines:
        replayed = replay_lines(lines)
    assert replayed.error_line is None
    assert replayed.match.view["result"] == result
    assert cli.main(["replay", str(path)]) == 0
    capsys.readouterr()


def test_reveal_example_asks_and_answers_reveals():
    text = (EXAMPLES / "cloudship-reveals.jsonl").read_text(encoding="utf-8")
    assert '"reveal"' in text and '"hail":' not in text.splitlines()[0]
