"""Cloud 9 invariants over long random legal games, and fuzzed illegal actions from every phase."""

from hypothesis import HealthCheck, given, settings, strategies as st

from companion.rules import Match, RulesError
from companion.rules.cloud9 import CARDS, DECK_SIZE, FACES, RULES, WINNING_SCORE
from companion.rules.simulate import random_actions

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]

setups = st.builds(
    lambda n, first: {"game": "cloud9", "players": NAMES[:n], "first_pilot": NAMES[first % n]},
    st.integers(3, 6),
    st.integers(0, 5),
)
LONG = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check_view(v):
    """What must hold in every state, whatever was played."""
    assert sum(v["hands"].values()) + v["draw_pile"] + v["discards"] == DECK_SIZE
    assert min(v["hands"].values()) >= 0 and v["draw_pile"] >= 0 and v["discards"] >= 0
    assert (v["winners"] != []) == v["over"] == (v["phase"] == "over")
    assert (v["to_decide"] is not None) == (v["phase"] == "decide")
    assert (v["dice"] is not None) == (v["phase"] in ("decide", "resolve"))
    if v["over"]:
        top = max(v["scores"].values())
        assert top >= WINNING_SCORE
        assert all(v["scores"][w] == top for w in v["winners"])
        assert v["winners"] == [p for p in v["players"] if p in v["winners"]]
        return
    assert 1 <= v["cloud"] <= 8
    assert v["pilot"] in v["basket"]
    assert v["basket"] == [p for p in v["players"] if p in v["basket"]]
    assert not v["solo"] or v["basket"] == [v["pilot"]]
    if v["to_decide"] is not None:
        assert v["to_decide"] in v["basket"] and v["to_decide"] != v["pilot"]


@LONG
@given(setups, st.integers(0, 2**32))
def test_random_games_keep_every_invariant(setup, seed):
    last = None
    for match, action in random_actions(setup, seed):  # noqa: B007 - the last action ends the game below
        v = match.view
        check_view(v)
        if last is not None:
            assert all(v["scores"][p] >= last["scores"][p] for p in v["players"])
            assert v["trip"] >= last["trip"]
        last = v
    final = match.apply(action).view
    check_view(final)
    assert final["over"], "a random legal game ends"


@LONG
@given(setups, st.integers(0, 2**32))
def test_undo_after_any_action_returns_exactly_the_earlier_view(setup, seed):
    for match, action in random_actions(setup, seed, undo_rate=0.1):
        if action["act"] == "undo":
            continue
        after = match.apply(action)
        assert after.apply({"act": "undo"}).view == match.view


anything = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-2, 9),
    st.text(max_size=5),
    st.sampled_from(NAMES + ["Zoe"] + list(FACES) + list(CARDS)),
)
actions = st.fixed_dictionaries(
    {"act": st.sampled_from(["roll", "jump", "stay", "rise", "fall", "fly", ""])},
    optional={
        "dice": st.one_of(st.lists(st.sampled_from(FACES + ("wild", "orange")), max_size=5), anything),
        "cards": st.one_of(st.lists(st.sampled_from(CARDS + ("blank",)), max_size=5), anything),
        "player": st.one_of(st.sampled_from(NAMES + ["Zoe"]), anything),
    },
)


@settings(max_examples=150, deadline=None)
@given(setups, st.integers(0, 2**32), st.integers(0, 400), st.lists(actions, min_size=1, max_size=8))
def test_fuzzed_actions_are_refused_unless_legal_and_refusals_change_nothing(setup, seed, steps, tries):
    match = Match.start(setup)
    for match, _ in random_actions(setup, seed, limit=steps):  # noqa: B007 - the last match is the one wanted
        pass
    for action in tries:
        legal = match.is_legal(action)  # the rules core's own canonical reckoning
        before, state = match.view, match.state
        try:
            after = match.apply(action)
        except RulesError as refusal:
            assert refusal.reason and refusal.rule
            assert match.view == before and match.state == state
            assert not legal, (action, before["phase"])
        else:
            assert legal, (action, before["phase"])
            match = after


@settings(max_examples=40, deadline=None)
@given(setups, st.integers(0, 2**32), st.integers(0, 400))
def test_every_listed_action_is_accepted_and_roll_outcomes_add_up(setup, seed, steps):
    match = Match.start(setup)
    for match, _ in random_actions(setup, seed, limit=steps):  # noqa: B007 - the last match is the one wanted
        pass
    for action in RULES.legal_actions(match.state):
        match.apply(action)
    outcomes = RULES.roll_outcomes(match.state)
    if match.view["phase"] == "roll":
        assert abs(sum(o.probability for o in outcomes) - 1) < 1e-9
        rolls = [a for a in RULES.legal_actions(match.state) if a["act"] == "roll"]
        assert [o.action for o in outcomes] == rolls
    else:
        assert outcomes == []
