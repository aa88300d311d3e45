"""Cloud 9 rise odds: exact against enumeration, close to sampling, and the CLI."""

import json
import random
import subprocess
import sys
from collections import Counter
from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given, settings, strategies as st

from companion.insights import odds
from companion.insights.odds import (
    FULL_DECK,
    OddsError,
    match_played,
    played_since_reshuffle,
    rise_chance,
    rise_chance_exact,
)
from companion.rules import Match
from companion.rules.cloud9 import COLOURS, WILD, cards_needed
from companion.rules.simulate import random_actions


def can_rise(hand: list[str], roll: tuple[str, ...]) -> bool:
    """Ruling 3, said directly: a wild card, or every needed colour in the hand."""
    need = Counter(cards_needed(roll))
    have = Counter(hand)
    return not need or have[WILD] > 0 or all(have[c] >= k for c, k in need.items())


def enumerated(roll, hand_size, deck) -> Fraction:
    cards = [kind for kind, n in deck.items() for _ in range(n)]
    hands = list(combinations(range(len(cards)), hand_size))
    good = sum(can_rise([cards[i] for i in hand], roll) for hand in hands)
    return Fraction(good, len(hands))


SMALL_DECK = {"red": 3, "yellow": 3, "green": 2, "purple": 2, "wild": 1}
ROLLS = [
    ("red", "green"),
    ("red", "red"),
    ("blank", "blank"),
    ("red", "yellow", "green", "purple"),
    ("purple", "purple", "blank"),
    ("yellow", "yellow", "yellow", "blank"),
]


@pytest.mark.parametrize("roll", ROLLS)
@pytest.mark.parametrize("hand", [0, 1, 2, 3, 5, 8])
def test_exact_matches_enumerating_every_hand_of_a_small_deck(roll, hand):
    assert rise_chance_exact(roll, hand, deck=SMALL_DECK) == enumerated(roll, hand, SMALL_DECK)


def test_played_cards_leave_the_unseen_pool():
    played = {"red": 2, "wild": 1}
    rest = {k: SMALL_DECK[k] - played.get(k, 0) for k in SMALL_DECK}
    for roll in ROLLS:
        assert rise_chance_exact(roll, 3, played, deck=SMALL_DECK) == enumerated(roll, 3, rest)


@given(
    st.lists(st.sampled_from(COLOURS + ("blank",)), min_size=2, max_size=4),
    st.integers(0, 6),
    st.fixed_dictionaries({c: st.integers(0, 2) for c in SMALL_DECK}),
)
@settings(max_examples=60, deadline=None)
def test_exact_matches_enumeration_for_any_roll_and_played_cards(roll, hand, played):
    played = {k: min(v, SMALL_DECK[k]) for k, v in played.items()}
    rest = {k: SMALL_DECK[k] - played[k] for k in SMALL_DECK}
    hand = min(hand, sum(rest.values()))
    assert rise_chance_exact(roll, hand, played, deck=SMALL_DECK) == enumerated(tuple(roll), hand, rest)


def test_real_deck_agrees_with_sampling():
    rng = random.Random(9)
    deck = [kind for kind, n in FULL_DECK.items() for _ in range(n)]
    played = {"red": 5, "green": 2, "wild": 1}
    pool = list(deck)
    for kind, n in played.items():
        for _ in range(n):
            pool.remove(kind)
    for roll, hand in [(("red", "green", "blank"), 6), (("red", "red", "purple", "yellow"), 4), (("green",) * 4, 9)]:
        p = rise_chance(roll, hand, played)
        trials = 20_000
        hits = sum(can_rise(rng.sample(pool, hand), roll) for _ in range(trials))
        sigma = (p * (1 - p) / trials) ** 0.5
        assert abs(hits / trials - p) < 5 * sigma + 1e-9


def test_a_wild_card_left_in_a_hand_of_all_unseen_wilds_always_rises():
    # every colour played out: only the 4 wild cards are unseen, and any hand holds one
    played = dict.fromkeys(COLOURS, 18)
    assert rise_chance(("red", "red", "red", "red"), 1, played) == 1.0
    # no wild cards unseen and no red left: nothing can pay for a red die
    assert rise_chance(("red",), 6, {"red": 18, "wild": 4}) == 0.0


def test_all_blank_always_rises_and_an_empty_hand_never_pays():
    assert rise_chance(("blank", "blank"), 0) == 1.0
    assert rise_chance(("red", "blank"), 0) == 0.0


def test_one_card_needed_is_the_plain_hypergeometric():
    # P(no red and no wild in 6 cards of 76, 22 of them red or wild)
    from math import comb

    expected = 1 - comb(76 - 22, 6) / comb(76, 6)
    assert rise_chance(("red", "blank"), 6) == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize(
    "args, message",
    [
        ((("red", "gren"), 6, {}), "'gren' is not a die face"),
        ((("red",), 6, {"red": 19}), "only 18 red"),
        ((("red",), 6, {"joker": 1}), "'joker' is not a card"),
        ((("red",), 80, {}), "only 76 cards are unseen"),
        ((("red",), -1, {}), "0 or more"),
    ],
)
def test_impossible_moments_are_refused_in_one_line(args, message):
    with pytest.raises(OddsError, match=message):
        rise_chance(*args)


def test_played_cards_follow_the_discard_pile_through_reshuffles():
    # long random games pass through reshuffles; what was seen always equals the discard pile
    setup = {"game": "cloud9", "players": ["Ann", "Ben", "Cat"]}
    reshuffles = 0
    for seed in range(30):
        last = None
        for match, _ in random_actions(setup, seed, limit=3000):
            seen = match_played(match)
            assert sum(seen.values()) == match.state.discards
            if last is not None and match.state.discards < last:
                reshuffles += 1
            last = match.state.discards
    assert reshuffles > 0


def test_match_played_counts_the_rises_cards():
    m = Match.start({"game": "cloud9", "players": ["Ann", "Ben", "Cat"]})
    for action in [
        {"act": "roll", "dice": ["red", "green"]},
        {"act": "stay", "player": "Ben"},
        {"act": "stay", "player": "Cat"},
        {"act": "rise", "cards": ["green", "red"]},
        {"act": "roll", "dice": ["purple", "blank"]},
        {"act": "stay", "player": "Cat"},
        {"act": "stay", "player": "Ann"},
        {"act": "rise", "cards": ["wild"]},
    ]:
        m = m.apply(action)
    assert match_played(m) == Counter({"red": 1, "green": 1, "wild": 1})


def run_cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "companion", "odds", "cloud9", *args], capture_output=True, text=True, timeout=60
    )


def test_cli_prints_the_exact_chance_as_json():
    run = run_cli("--roll", "red,green,blank", "--hand", "6", "--played", "red=3,wild=1")
    assert run.returncode == 0, run.stderr
    p = json.loads(run.stdout)["rise"]
    assert p == pytest.approx(float(rise_chance_exact(("red", "green", "blank"), 6, {"red": 3, "wild": 1})), abs=1e-12)


@pytest.mark.parametrize(
    "args",
    [
        ["--roll", "red,green", "--hand", "six"],
        ["--roll", "red", "--hand", "6", "--played", "red3"],
        ["--roll", "red", "--hand", "6", "--played", "wild=9"],
    ],
)
def test_cli_refuses_bad_input_in_one_line(args):
    run = run_cli(*args)
    assert run.returncode == 1
    assert run.stdout == ""
    assert len(run.stderr.strip().splitlines()) == 1 and "Traceback" not in run.stderr


def test_a_record_no_real_deck_could_give_shows_no_odds_instead_of_failing():
    # the rules core trusts the table's word on cards (it cannot see them), so a fifth wild card
    # can be entered by mistake; the meter then has nothing true to show, and must not fail
    from companion.insights.odds import match_played, pilot_rise_chance
    from companion.rules import Match

    m = Match.start({"game": "cloud9", "players": ["Ann", "Ben", "Cat"]})
    while match_played(m)["wild"] <= 4:
        m = m.apply(
            {"act": "roll", "dice": ["red"] + ["blank"] * (m.view["dice_here"] - 1)}
            if m.view["phase"] == "roll"
            else {"act": "stay", "player": m.view["to_decide"]}
            if m.view["phase"] == "decide"
            else {"act": "rise", "cards": ["wild"]}
        )
    m = m.apply({"act": "roll", "dice": ["red"] + ["blank"] * (m.view["dice_here"] - 1)})
    assert m.view["dice"] and pilot_rise_chance(m) is None


def _played_walked_whole(match) -> Counter:
    states, actions, step = [], [], match.current
    while step is not None:
        states.append(step.state)
        if step.action is not None:
            actions.append(step.action)
        step = step.before
    return played_since_reshuffle(reversed(states), reversed(actions))


def test_played_cards_kept_by_step_agree_with_the_whole_history_through_undo_and_redo():
    setup = {"game": "cloud9", "players": ["Ann", "Ben", "Cat"]}
    rng = random.Random(7)
    for seed in range(4):
        for match, _ in random_actions(setup, seed, limit=800):
            probe = match
            for _ in range(rng.randrange(3)):  # take some back and put them again
                if probe.can_undo:
                    probe = probe.apply({"act": "undo"})
            for candidate in (match, probe):
                assert match_played(candidate) == _played_walked_whole(candidate)


def test_played_cards_kept_for_a_bounded_number_of_steps(monkeypatch):
    monkeypatch.setattr(odds, "PLAYED_STEPS", 20)
    odds._played_at.clear()
    for match, _ in random_actions({"game": "cloud9", "players": ["Ann", "Ben", "Cat"]}, 3, limit=300):
        match_played(match)
        assert len(odds._played_at) <= 20
    assert len(odds._played_at) == 20
