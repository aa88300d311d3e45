"""The controller: rules first, journal second, and only then the screen hears of it."""

import pytest

from companion.controller import GameController
from companion.journal import Journal
from companion.rules import RulesError, SetupError
from companion.rules.simulate import random_game

MINE = {"game": "cloudmine", "players": ["Ann", "Ben", "Cat", "Dan", "Eve"]}


@pytest.fixture
def path(tmp_path):
    return tmp_path / "journal.sqlite3"


def test_an_action_is_durable_before_any_listener_hears_of_it(path):
    journal = Journal.open(path)
    controller = GameController(journal)
    controller.new_game(MINE)
    heard = []

    def listener(before, after, action):
        # another connection, as another process would see the file: the action is there
        reader = Journal.read(path)
        _, stored = reader.stored(controller.game_id.id)
        heard.append((stored[-1], action, after.view == reader.rebuild(controller.game_id.id).view))
        reader.close()

    controller.subscribe(listener)
    actions = random_game(MINE, seed=2)[:6]
    for action in actions:
        controller.submit(action)
    assert heard == [(a, a, True) for a in actions]
    journal.close()


def test_an_illegal_action_changes_nothing_journal_included(path):
    journal = Journal.open(path)
    controller = GameController(journal)
    controller.new_game(MINE)
    controller.submit({"act": "guess", "player": "Ben", "correct": False})
    calls = []
    controller.subscribe(lambda *args: calls.append(args))
    before = controller.match
    with pytest.raises(RulesError, match="Eve is the Chooser"):
        controller.submit({"act": "guess", "player": "Eve", "correct": True})
    assert controller.match is before and calls == []
    assert journal.game(controller.game_id.id).actions == 1
    journal.close()


def test_a_bad_setup_starts_nothing(path):
    journal = Journal.open(path)
    controller = GameController(journal)
    with pytest.raises(SetupError):
        controller.new_game({"game": "cloudmine", "players": ["Ann"]})
    assert controller.match is None and journal.games() == []
    journal.close()


def test_a_new_game_is_journaled_before_it_becomes_current():
    class RefusingLog:
        def begin(self, match):
            raise RuntimeError("the journal refused")

    controller = GameController(RefusingLog())
    with pytest.raises(RuntimeError):
        controller.new_game(MINE)
    assert controller.match is None


def test_undo_redo_and_resume_through_the_controller(path):
    with Journal.open(path) as journal:
        controller = GameController(journal)
        controller.new_game(MINE)
        for action in random_game(MINE, seed=3)[:5]:
            controller.submit(action)
        controller.undo()
        controller.undo()
        controller.redo()
        expected = controller.match.view
        assert controller.legal_actions() == controller.match.legal_actions()
    with Journal.open(path) as journal:
        again = GameController(journal)
        assert again.resume().view == expected
        assert journal.stored(again.game_id.id)[1][-3:] == [{"act": "undo"}, {"act": "undo"}, {"act": "redo"}]
        again.redo()  # the redo stack came back with the replay too
        assert journal.game(again.game_id.id).actions == 9


def test_resume_without_an_unfinished_game_returns_none(path):
    with Journal.open(path) as journal:
        controller = GameController(journal)
        assert controller.resume() is None and controller.match is None


def test_without_a_journal_the_game_still_runs():
    controller = GameController()
    controller.new_game(MINE)
    controller.submit({"act": "guess", "player": "Ben", "correct": True})
    assert controller.match.view["scores"]["Ben"] == 5
    assert controller.save_problem is None and controller.retry_save()


def test_no_game_in_progress_is_a_clear_refusal():
    with pytest.raises(RulesError, match="no game is in progress"):
        GameController().submit({"act": "undo"})
    assert GameController().legal_actions() == []
