"""The app's own dice: an undone "Roll for me" comes back the same, so undo is never a re-roll.

The roll is drawn from the game's seed (kept in the journal) and how far the game stands; a
resumed game rolls the same dice, and rolls still come with their true probabilities.
"""

from collections import Counter

import pytest
from hypothesis import given, settings, strategies as st

from companion.controller import GameController
from companion.journal import Journal
from companion.rules import Match, RulesError
from companion.rules.simulate import random_actions

CLOUD9 = {"game": "cloud9", "players": ["Ann", "Ben", "Cat", "Dan"]}
CLOUDSHIP = {"game": "cloudship", "players": ["Ann", "Ben", "Cat"]}


def roll_states(setup, seeds=3):
    """Matches waiting for a roll, from a few random games."""
    return [
        m for seed in range(seeds) for m, _ in random_actions(setup, seed, limit=300) if m.rules.roll_outcomes(m.state)
    ]


@settings(max_examples=60, deadline=None)
@given(data=st.data(), seed=st.text(max_size=12))
@pytest.mark.parametrize("setup", [CLOUD9, CLOUDSHIP], ids=["cloud9", "cloudship"])
def test_an_undone_app_roll_comes_back_the_same(setup, data, seed):
    match = data.draw(st.sampled_from(_POOL.setdefault(setup["game"], roll_states(setup))))
    first = match.app_roll(seed)
    assert first is not None and match.is_legal(first)
    rolled = match.apply(first)
    back = rolled.apply({"act": "undo"})
    assert back.app_roll(seed) == first
    # a hand roll in between, undone too, changes nothing either
    other = next(a for a in back.legal_actions() if a["act"] == "roll" and a != first)
    assert back.apply(other).apply({"act": "undo"}).app_roll(seed) == first


def test_the_controller_rolls_the_same_dice_after_undo_and_after_a_restart(tmp_path):
    path = tmp_path / "journal.sqlite3"
    with Journal.open(path) as journal:
        controller = GameController(journal)
        controller.new_game(CLOUD9)
        first = controller.roll_for_me().view["dice"]
        controller.undo()
        assert controller.roll_for_me().view["dice"] == first
        controller.undo()
    with Journal.open(path) as journal:
        controller = GameController(journal)
        controller.resume()
        assert controller.match.view["phase"] == "roll"
        assert controller.roll_for_me().view["dice"] == first


def test_no_roll_due_is_a_refusal():
    controller = GameController()
    with pytest.raises(RulesError):
        controller.roll_for_me()
    controller.new_game({"game": "cloudmine", "players": ["Ann", "Ben", "Cat"]})
    with pytest.raises(RulesError, match="no roll"):
        controller.roll_for_me()


def test_games_and_points_of_a_game_roll_differently():
    # the dice depend on the seed and on how far the game stands, not on the setup alone
    match = Match.start(CLOUD9)
    firsts = {str(match.app_roll(f"game {n}")["dice"]) for n in range(40)}
    assert len(firsts) > 5
    later = [m.app_roll("one game")["dice"] for m in roll_states(CLOUD9, seeds=1)[:40]]
    assert len({str(d) for d in later}) > 5


def test_app_rolls_keep_their_true_probabilities():
    # two dice on cloud 1: both blank is (2/6)^2 = 1/9 of all rolls
    match = Match.start(CLOUD9)
    rolls = Counter(tuple(match.app_roll(str(n))["dice"]) for n in range(9000))
    assert abs(rolls[("blank", "blank")] / 9000 - 1 / 9) < 0.015


_POOL: dict = {}
