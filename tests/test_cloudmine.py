"""The Cloud Mine: the rulebook's worked example, every ruling, and the card invariant."""

import pytest
from hypothesis import given, settings, strategies as st

from companion.rules import Match, RulesError, SetupError
from companion.rules.cloudmine import DECK_SIZE, cards_per_round
from companion.rules.simulate import random_actions

SIX = ["András", "Edit", "Tamás", "Gabriella", "Zsolt", "Robi"]


def start(players, **extra):
    return Match.start({"game": "cloudmine", "players": players, **extra})


def guess(match, player, correct):
    return match.apply({"act": "guess", "player": player, "correct": correct})


def test_rulebook_example_round_and_role_hand_over():
    m = start(SIX)
    v = m.view
    assert (v["dreamer"], v["chooser"], v["to_guess"]) == ("András", "Robi", "Edit")
    assert v["table"] == 6 and v["deck"] == 74 and v["phase"] == "guess"
    m = guess(m, "Edit", False)
    assert (m.view["table"], m.view["dreamer_pile"], m.view["to_guess"]) == (5, 1, "Tamás")
    m = guess(m, "Tamás", False)
    m = guess(m, "Gabriella", False)
    assert m.view["dreamer_pile"] == 3 and m.view["table"] == 3
    m = guess(m, "Zsolt", True)
    v = m.view
    # András keeps his 3 cards, Zsolt takes the chosen card and the 2 left, Robi gets nothing
    assert v["scores"] == {"András": 3, "Edit": 0, "Tamás": 0, "Gabriella": 0, "Zsolt": 3, "Robi": 0}
    # Robi hands the Chooser role to Zsolt, András the Dreamer role to Robi
    assert (v["round"], v["dreamer"], v["chooser"]) == (2, "Robi", "Zsolt")
    assert v["to_guess"] == "András" and v["table"] == 6 and v["deck"] == 68


def test_rulebook_example_had_zsolt_been_wrong_robi_gets_all_six():
    m = start(SIX)
    for p in ["Edit", "Tamás", "Gabriella", "Zsolt"]:
        m = guess(m, p, False)
    assert m.view["scores"]["Robi"] == 6
    assert m.view["scores"]["András"] == 0  # ruling 2: the Dreamer's pile goes too


@pytest.mark.parametrize("count,cards", [(3, 4), (4, 6), (5, 5), (6, 6), (7, 7), (8, 8)])
def test_cards_per_round(count, cards):
    assert cards_per_round(count) == cards
    assert start(SIX[:count] + ["Hana", "Ida"][: max(0, count - 6)]).view["table"] == cards


def test_three_players_observer_gets_two_attempts():
    m = start(["Ann", "Ben", "Cat"])
    # Dreamer Ann, Chooser Cat (her right), the only Observer Ben guesses twice
    assert (m.view["dreamer"], m.view["chooser"]) == ("Ann", "Cat")
    assert m.view["guess_order"] == ["Ben", "Ben"]
    m = guess(m, "Ben", False)
    assert m.view["to_guess"] == "Ben" and m.view["dreamer_pile"] == 1
    m = guess(m, "Ben", True)
    assert m.view["scores"] == {"Ann": 1, "Ben": 3, "Cat": 0}


def test_four_players_attempts_alternate():
    m = start(["Ann", "Ben", "Cat", "Dan"])
    assert m.view["chooser"] == "Dan"
    assert m.view["guess_order"] == ["Ben", "Cat", "Ben", "Cat"]
    for p in ["Ben", "Cat", "Ben", "Cat"]:
        m = guess(m, p, False)
    assert m.view["scores"]["Dan"] == 6  # nobody found it: the Chooser takes all 6


def test_observer_out_of_turn_is_refused_with_a_reason():
    m = start(SIX)
    with pytest.raises(RulesError, match="Tamás cannot guess yet: it is Edit's turn"):
        guess(m, "Tamás", True)
    with pytest.raises(RulesError, match="Dreamer"):
        guess(m, "András", True)
    with pytest.raises(RulesError, match="Chooser"):
        guess(m, "Robi", True)


@pytest.mark.parametrize(
    "action",
    [
        {"act": "guess", "player": "Edit"},
        {"act": "guess", "player": "Edit", "correct": 1},
        {"act": "guess", "player": "Edit", "correct": "yes"},
        {"act": "guess", "correct": True},
        {"act": "guess", "player": "Nobody", "correct": True},
        {"act": "guess", "player": ["Edit"], "correct": True},
        {"act": "roll", "dice": []},
        {"act": "undo"},
    ],
)
def test_malformed_actions_are_refused_and_change_nothing(action):
    m = start(SIX)
    with pytest.raises(RulesError):
        m.apply(action)
    assert m.view == start(SIX).view


@pytest.mark.parametrize(
    "setup,message",
    [
        ({"players": ["A", "B"]}, "3 to 8 players"),
        ({"players": list("ABCDEFGHI")}, "3 to 8 players"),
        ({"players": ["A", "B", "A"]}, "unique"),
        ({"players": ["A", "B", ""]}, "empty"),
        ({"players": "ABC"}, "list"),
        ({"players": ["A", "B", "C"], "first_dreamer": "Z"}, "first_dreamer"),
    ],
)
def test_bad_setups(setup, message):
    with pytest.raises(SetupError, match=message):
        Match.start({"game": "cloudmine", **setup})


def play_out(match, correct_every=3):
    n = 0
    while not match.view["over"]:
        n += 1
        match = guess(match, match.view["to_guess"], n % correct_every == 0)
    return match


@pytest.mark.parametrize("count,rounds,left", [(3, 20, 0), (4, 13, 2), (5, 16, 0), (6, 13, 2), (7, 11, 3), (8, 10, 0)])
def test_game_ends_when_the_deck_cannot_supply_a_round(count, rounds, left):
    names = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"][:count]
    v = play_out(start(names)).view
    assert v["over"] and v["phase"] == "over"
    assert v["round"] == rounds and v["deck"] == left
    assert v["to_guess"] is None and v["table"] == 0 and v["dreamer_pile"] == 0
    assert sum(v["scores"].values()) == DECK_SIZE - left
    top = max(v["scores"].values())
    assert v["winners"] == [p for p in names if v["scores"][p] == top]


def test_roles_rotate_to_the_right_each_round():
    m = start(["Ann", "Ben", "Cat", "Dan", "Eve"], first_dreamer="Cat")
    seen = []
    for _ in range(5):
        seen.append((m.view["dreamer"], m.view["chooser"]))
        m = guess(m, m.view["to_guess"], True)
    assert seen == [("Cat", "Ben"), ("Ben", "Ann"), ("Ann", "Eve"), ("Eve", "Dan"), ("Dan", "Cat")]


def test_shared_win_and_actions_after_the_end():
    m = start(["Ann", "Ben", "Cat"])
    # every round the only Observer finds it at once and takes all 4 cards; the Observer
    # cycles Ben, Ann, Cat over 20 rounds: Ben and Ann 7 rounds each, Cat 6
    m = play_out(m, correct_every=1)
    v = m.view
    assert v["scores"] == {"Ann": 28, "Ben": 28, "Cat": 24}
    assert v["winners"] == ["Ann", "Ben"]  # a shared win, in seat order
    with pytest.raises(RulesError, match="over"):
        m.apply({"act": "guess", "player": "Ann", "correct": True})
    back = m.apply({"act": "undo"})  # undo after the end takes back the ending action
    assert not back.view["over"] and back.view["round"] == 20


@settings(max_examples=40, deadline=None)
@given(count=st.integers(3, 8), seed=st.integers(0, 10_000))
def test_cards_always_add_up_to_80_and_undo_restores(count, seed):
    names = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus", "Hal"][:count]
    for before, action in random_actions({"game": "cloudmine", "players": names}, seed, undo_rate=0.1):
        v = before.view
        assert v["deck"] + sum(v["scores"].values()) + v["table"] + v["dreamer_pile"] == DECK_SIZE
        after = before.apply(action)
        if action["act"] != "undo":
            assert after.apply({"act": "undo"}).view == v
