"""The recap picture of every finished game is kept, without the press that ended the game
waiting for it: drawn after that press's frame while the loop waits, before the app closes if
it closes first, and at the next start if the app was stopped before either."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pygame
import pytest

from companion.controller import GameController
from companion.journal import Journal
from companion.ui.boards import recap
from companion.ui.screens.end import EndScreen, keep_latest_recap
from companion.ui.tools.harness import Harness
from test_ui_end_story import example

ROOT = Path(__file__).resolve().parent.parent


def last_press_left(h: Harness, name: str):
    """The game of `name` played up to its last action, which is returned."""
    setup, actions = example(name)
    screen = h.start_game(setup)
    for action in actions[:-1]:
        assert screen.submit(action), action
    h.app.pump()
    return screen, actions[-1]


@pytest.fixture
def drawn(monkeypatch):
    """Each recap drawn, in order (the real drawing all the same)."""
    calls = []
    real = recap.render_recap

    def render(match, *args, **kwargs):
        calls.append(match)
        return real(match, *args, **kwargs)

    monkeypatch.setattr(recap, "render_recap", render)
    return calls


def saved(journal) -> Path:
    (game,) = journal.games()
    return recap.recap_path(journal.path, game.id, game.game)


def test_the_last_press_shows_its_frame_first_and_the_recap_is_drawn_while_the_loop_waits(tmp_path, drawn):
    journal = Journal.open(tmp_path / "journal.sqlite3")
    h = Harness(controller=GameController(journal), journal=journal)
    screen, last = last_press_left(h, "cloudmine-six-players.jsonl")
    frames = h.app.frames_drawn
    assert screen.submit(last)
    h.app.pump()  # the pass of the press that ended the game
    assert isinstance(h.screen, EndScreen) and h.app.frames_drawn == frames + 1
    assert drawn == [] and not saved(journal).exists()
    deadline = time.monotonic() + 10
    while not drawn and time.monotonic() < deadline:  # the last flights end first
        h.app.wait()
        h.app.pump()
    assert len(drawn) == 1 and drawn[0].view["over"]
    h.screen.recap_saving.join(10)
    assert pygame.image.load(str(saved(journal))).get_size() == recap.SIZE
    h.app.wait()
    assert len(drawn) == 1  # once
    journal.close()


def test_an_app_that_closes_right_after_the_last_press_saves_the_recap_before_it_exits(tmp_path):
    script = textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(ROOT / "tests")!r})
        from companion.controller import GameController
        from companion.journal import Journal
        from companion.ui.tools.harness import Harness
        from test_ui_end_story import example

        journal = Journal.open({str(tmp_path / "journal.sqlite3")!r})
        h = Harness(controller=GameController(journal), journal=journal)
        setup, actions = example("cloud9-four-players-tie-break.jsonl")
        screen = h.start_game(setup)
        for action in actions:
            assert screen.submit(action)
        h.app.pump()
        h.app.finish_idle_work()  # as the app does as it closes
        journal.close()
    """)
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    journal = Journal.open(tmp_path / "journal.sqlite3")
    assert pygame.image.load(str(saved(journal))).get_size() == recap.SIZE
    journal.close()


def test_a_recap_the_app_had_no_time_for_is_saved_at_the_next_start(tmp_path, drawn):
    journal = Journal.open(tmp_path / "journal.sqlite3")
    h = Harness(controller=GameController(journal), journal=journal)
    screen, last = last_press_left(h, "cloudship-lost.jsonl")
    assert screen.submit(last)
    h.app.pump()
    journal.close()  # stopped before the loop waited once: nothing drawn
    assert drawn == []
    journal = Journal.open(tmp_path / "journal.sqlite3")
    keep_latest_recap(journal).join(10)
    assert len(drawn) == 1 and pygame.image.load(str(saved(journal))).get_size() == recap.SIZE
    assert keep_latest_recap(journal) is None and len(drawn) == 1  # there already
    journal.close()


def test_the_next_start_draws_no_recap_for_a_game_stopped_early_or_still_going(tmp_path, drawn):
    journal = Journal.open(tmp_path / "journal.sqlite3")
    h = Harness(controller=GameController(journal), journal=journal)
    h.start_game({"game": "cloudmine", "players": ["Ann", "Ben", "Cat"]})
    h.tap("wrong")
    assert keep_latest_recap(journal) is None  # still going
    h.tap("menu")
    h.tap("dialog:End game")
    h.tap("dialog:End game")
    h.app.finish_idle_work()
    assert keep_latest_recap(journal) is None and drawn == []
    assert not (tmp_path / "exports").exists()
    journal.close()


def test_work_left_for_idle_time_waits_for_the_frame_and_a_failure_is_only_logged(caplog):
    h = Harness()
    done = []
    h.app.when_idle(lambda: 1 / 0)
    h.app.when_idle(lambda: done.append(h.app.frames_drawn))
    h.app.redraw()
    h.app.wait()  # a frame to draw first: nothing done before it
    assert done == []
    h.app.pump()
    h.app.finish_idle_work()
    assert done == [h.app.frames_drawn] and "idle time failed" in caplog.text
