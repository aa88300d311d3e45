"""Undo and redo, shared by every game through Match."""

import pytest

from companion.rules import Match, RulesError

SETUP = {"game": "cloudmine", "players": ["Ann", "Ben", "Cat", "Dan", "Eve"]}


def guess(m, who, correct=False):
    return m.apply({"act": "guess", "player": who, "correct": correct})


def test_undo_at_setup_is_illegal():
    with pytest.raises(RulesError, match="nothing to undo"):
        Match.start(SETUP).apply({"act": "undo"})


def test_undo_is_repeatable_back_to_the_setup():
    m0 = Match.start(SETUP)
    m1 = guess(m0, "Ben")
    m2 = guess(m1, "Cat")
    assert m2.apply({"act": "undo"}).view == m1.view
    assert m2.apply({"act": "undo"}).apply({"act": "undo"}).view == m0.view
    with pytest.raises(RulesError):
        m2.apply({"act": "undo"}).apply({"act": "undo"}).apply({"act": "undo"})


def test_redo_puts_back_what_undo_took_and_a_new_action_clears_it():
    m2 = guess(guess(Match.start(SETUP), "Ben"), "Cat")
    back = m2.apply({"act": "undo"}).apply({"act": "undo"})
    assert back.apply({"act": "redo"}).apply({"act": "redo"}).view == m2.view
    assert back.apply({"act": "redo"}).actions() == [{"act": "guess", "player": "Ben", "correct": False}]
    branched = back.apply({"act": "redo"}).apply({"act": "guess", "player": "Cat", "correct": True})
    with pytest.raises(RulesError, match="nothing to redo"):
        branched.apply({"act": "redo"})


def test_a_refused_action_leaves_the_match_unchanged():
    m = guess(Match.start(SETUP), "Ben")
    with pytest.raises(RulesError):
        guess(m, "Ann")
    assert m.actions() == [{"act": "guess", "player": "Ben", "correct": False}]


def test_legal_actions_offer_undo_and_redo_only_when_possible():
    m0 = Match.start(SETUP)
    assert {"act": "undo"} not in m0.legal_actions()
    m1 = guess(m0, "Ben")
    assert {"act": "undo"} in m1.legal_actions() and {"act": "redo"} not in m1.legal_actions()
    assert {"act": "redo"} in m1.apply({"act": "undo"}).legal_actions()


def test_a_match_and_its_steps_made_by_apply_are_what_their_dataclasses_make():
    """apply makes its match and step without the dataclasses' __init__: they must still hold
    every field (a field added later and left out would fail here), equal to those __init__ makes."""
    from dataclasses import fields

    from companion.rules.match import _Step

    match = Match.start({"game": "cloud9", "players": ["Ann", "Ben", "Cat"]}).apply(
        {"act": "roll", "dice": ["red", "blank"]}
    )
    step = match.current
    assert set(vars(match)) == {f.name for f in fields(Match)}
    assert set(vars(step)) == {f.name for f in fields(_Step)}
    assert step == _Step(step.state, step.action, step.before, step.depth)
    assert match == Match(match.rules, match.setup, step) and not match.undone
    assert (
        match.is_legal({"act": "stay", "player": "Ben"})
        and match.apply({"act": "undo"}).apply({"act": "redo"}) == match
    )
