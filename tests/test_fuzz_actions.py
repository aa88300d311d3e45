"""Junk actions thrown at every phase of every game: a RulesError or a legal move, nothing else.

Whatever a loose wire, a buggy screen or a hand-edited file sends, the rules core answers with
a reason (never another exception) and a refused action changes nothing.
"""

import json

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from companion.rules import GAME_MODULES, Match, RulesError
from companion.rules.simulate import random_actions

SETUPS = {
    "cloud9": {"game": "cloud9", "players": ["Ann", "Ben", "Cat", "Dan"]},
    "cloudship": {"game": "cloudship", "players": ["Ann", "Ben", "Cat"]},
    "cloudmine": {"game": "cloudmine", "players": ["Ann", "Ben", "Cat", "Dan"]},
}
ACTS = ["roll", "jump", "stay", "rise", "fall", "drop", "land", "plant", "reveal", "guess", "undo", "redo", "pass", ""]
WORDS = [
    "Ann",
    "Ben",
    "Zed",
    "red",
    "yellow",
    "green",
    "purple",
    "blue",
    "white",
    "wild",
    "blank",
    "storm",
    "rain",
    "hail",
    "",
]
json_leaf = st.one_of(st.none(), st.booleans(), st.integers(-3, 20), st.floats(allow_nan=False), st.sampled_from(WORDS))
json_value = st.recursive(
    json_leaf,
    lambda inner: st.one_of(st.lists(inner, max_size=5), st.dictionaries(st.sampled_from(WORDS), inner, max_size=3)),
    max_leaves=8,
)
junk_action = st.fixed_dictionaries(
    {"act": st.sampled_from(ACTS)},
    optional=dict.fromkeys(["player", "dice", "cards", "ball", "bed", "hail", "correct"], json_value),
)


def states(game, seeds=3):
    """Matches at every step of a few random games (every phase gets visited)."""
    out = []
    for seed in range(seeds):
        out.extend(before for before, _ in random_actions(SETUPS[game], seed, limit=400))
    return out


@pytest.mark.parametrize("game", sorted(GAME_MODULES))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_junk_is_refused_with_a_reason_or_is_a_legal_move(game, data):
    pool = _POOL.setdefault(game, states(game))
    match = data.draw(st.sampled_from(pool))
    action = data.draw(junk_action)
    before = json.dumps(match.view, sort_keys=True)
    legal = match.is_legal(action)
    try:
        after = match.apply(action)
    except RulesError as exc:
        assert exc.reason and isinstance(exc.reason, str)
        assert json.dumps(match.view, sort_keys=True) == before
        assert not legal, "is_legal said yes to an action the rules refuse"
    else:
        # accepted: then it is legal in the rules core's own reckoning (undo and redo included;
        # the order of dice and cards and fields the game does not read make no difference)
        assert legal, "the rules accepted an action is_legal refuses"
        assert after is not match


@pytest.mark.parametrize("game", sorted(GAME_MODULES))
@settings(max_examples=100, deadline=None)
@given(data=st.data())
def test_a_legal_action_is_legal_in_any_order_and_with_extra_fields(game, data):
    match = data.draw(st.sampled_from(_POOL.setdefault(game, states(game))))
    move = dict(data.draw(st.sampled_from(match.legal_actions())))
    for key in ("dice", "cards"):
        if key in move:
            move[key] = data.draw(st.permutations(move[key]))
    move["note"] = data.draw(json_value)  # the contract: extra fields are ignored
    assert match.is_legal(move)
    match.apply(move)  # and the rules accept it so


def test_is_legal_never_raises_on_what_is_not_an_action():
    match = Match.start(SETUPS["cloud9"])
    assert not any(match.is_legal(junk) for junk in ([], "roll", None, 3, {"act": 1}, {}))


_POOL: dict = {}


@pytest.mark.parametrize("game", sorted(GAME_MODULES))
def test_the_rules_list_every_legal_action_in_its_one_spelling(game):
    """So a screen offering what the rules list submits canonical actions, and the journal keeps
    one spelling of each move (a rise's cards in card order, as a roll's dice in face order)."""
    for match in _POOL.setdefault(game, states(game)):
        for action in match.legal_actions():
            assert match.canonical(action) == action, action
