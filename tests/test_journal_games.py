"""Undo and redo through the journal in every game: across a Cloud 9 trip end, a Cloudship
resolution, and the end of a game; what the table sees is what comes back after a restart."""

import json

import pytest

from companion.controller import GameController
from companion.journal import Journal
from companion.replay import replay_lines
from companion.rules import Match
from companion.rules.simulate import random_actions, random_game

CLOUD9 = {"game": "cloud9", "players": ["Ann", "Ben", "Cat", "Dan"]}
CLOUDSHIP = {"game": "cloudship", "players": ["Ann", "Ben", "Cat"]}
MINE = {"game": "cloudmine", "players": ["Ann", "Ben", "Cat"]}


def first_index(setup, seed, changed):
    """The index of the first action after which `changed(view before, view after)` holds."""
    match = Match.start(setup)
    for i, action in enumerate(random_game(setup, seed)):
        after = match.apply(action)
        if changed(match.view, after.view):
            return i
        match = after
    raise AssertionError("no such moment in this game")


def trip_ended(before, after):
    return after["trip"] > before["trip"] or after["over"]


def round_resolved(before, after):
    return before["phase"] == "flight" and after["phase"] != "flight"


def resumed_view(path):
    with Journal.open(path) as journal:
        resumed = journal.resume()
        exported = journal.export(resumed.ref.id)
    assert replay_lines(exported.splitlines()).match.view == resumed.match.view
    return resumed.match.view


def resumed_view_reader(path):
    """The game as another process sees it right now (the app is still running)."""
    reader = Journal.read(path)
    view = reader.resume().match.view
    reader.close()
    return view


@pytest.mark.parametrize(
    "setup,changed",
    [(CLOUD9, trip_ended), (CLOUDSHIP, round_resolved)],
    ids=["cloud9-trip-end", "cloudship-resolution"],
)
def test_undo_and_redo_across_the_big_moment_survive_a_restart(tmp_path, setup, changed):
    path = tmp_path / "journal.sqlite3"
    actions = random_game(setup, seed=4)
    moment = first_index(setup, 4, changed)
    with Journal.open(path) as journal:
        controller = GameController(journal)
        controller.new_game(setup)
        for action in actions[:moment]:
            controller.submit(action)
        before = controller.match.view
        after = controller.submit(actions[moment]).view
        assert changed(before, after)

        assert controller.undo().view == before  # back across the trip end / resolution
        assert resumed_view_reader(path) == before
        assert controller.redo().view == after
        assert controller.undo().view == before
        assert controller.undo().view != before
        assert controller.redo().view == before
    # a restart here: the game comes back exactly as it was, redo stack included
    assert resumed_view(path) == before
    with Journal.open(path) as journal:
        controller = GameController(journal)
        controller.resume()
        assert controller.redo().view == after
        for action in actions[moment + 1 : moment + 6]:
            controller.submit(action)
        expected = controller.match.view
        _, stored = journal.stored(controller.game_id.id)
    undo, redo = {"act": "undo"}, {"act": "redo"}
    assert stored == actions[: moment + 1] + [undo, redo, undo, undo, redo, redo] + actions[moment + 1 : moment + 6]
    assert resumed_view(path) == expected


@pytest.mark.parametrize("setup", [CLOUD9, CLOUDSHIP, MINE], ids=lambda s: s["game"])
def test_undoing_the_end_of_a_game_reopens_it_in_the_history(tmp_path, setup):
    path = tmp_path / "journal.sqlite3"
    with Journal.open(path) as journal:
        controller = GameController(journal)
        controller.new_game(setup)
        for action in random_game(setup, seed=2):
            controller.submit(action)
        final = controller.match.view
        assert final["over"] and journal.game(controller.game_id.id).winners == final["winners"]
        reopened = controller.undo().view
        game = journal.game(controller.game_id.id)
        assert game.status == "playing" and game.ended_at is None and game.winners == []
    with Journal.open(path) as journal:
        assert journal.offer().game.id == game.id  # unfinished again: offered at the next start
    assert resumed_view(path) == reopened and not reopened["over"]


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("setup", [CLOUD9, CLOUDSHIP, MINE], ids=lambda s: s["game"])
def test_random_games_with_second_thoughts_come_back_whole(tmp_path, setup, seed):
    path = tmp_path / "journal.sqlite3"
    with Journal.open(path) as journal:
        controller = GameController(journal)
        controller.new_game(setup)
        for _, action in random_actions(setup, seed, limit=120, undo_rate=0.15):
            controller.submit(action)
        expected = controller.match.view
        game_id = controller.game_id.id
    with Journal.open(path) as journal:
        assert journal.rebuild(game_id).view == expected
        exported = journal.export(game_id)
    assert replay_lines(exported.splitlines()).output() == json.loads(json.dumps(expected))
