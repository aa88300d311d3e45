"""The journal: games stored and rebuilt, undo kept in the history, resume, history and totals."""

import json
import os
import sqlite3
import subprocess
import sys
import threading
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from companion.journal import Journal, JournalBusy, JournalError, player_totals
from companion.replay import replay_lines
from companion.rules import Match
from companion.rules.simulate import random_actions, random_game
from journaling import journal_then_die, play

MINE = {"game": "cloudmine", "players": ["Ann", "Ben", "Cat", "Dan"]}


class Clock:
    """Minutes ticking by, one per call, from a fixed start."""

    def __init__(self):
        self.t = datetime(2026, 3, 1, 18, 0, tzinfo=UTC)

    def __call__(self):
        self.t += timedelta(minutes=1)
        return self.t.isoformat(timespec="milliseconds")


def replayed(setup, actions):
    lines = [json.dumps(x) for x in [setup, *actions]]
    return replay_lines(lines).match


@pytest.fixture
def journal(tmp_path):
    j = Journal.open(tmp_path / "journal.sqlite3", clock=Clock())
    yield j
    j.close()


def test_every_action_is_stored_in_order_and_the_game_is_rebuilt(journal):
    actions = random_game(MINE, seed=5)[:-1]
    ref, match = play(journal, actions)
    assert ref.accepted == ref.saved == len(actions) > 10
    summary, stored = journal.stored(ref.id)
    assert stored == actions and summary.actions == len(actions)
    assert journal.rebuild(ref.id).view == match.view


def test_undo_and_redo_are_recorded_not_erased(journal):
    match = Match.start(MINE)
    ref = journal.begin(match)
    taken = [
        {"act": "guess", "player": "Ben", "correct": False},
        {"act": "guess", "player": "Cat", "correct": True},
        {"act": "undo"},
        {"act": "undo"},
        {"act": "redo"},
        {"act": "guess", "player": "Cat", "correct": False},
    ]
    for action in taken:
        match = match.apply(action)
        journal.append(ref, action, match)
    _, stored = journal.stored(ref.id)
    assert stored == taken  # what was taken back is still there, and the undos themselves
    assert journal.rebuild(ref.id).view == match.view
    assert journal.rebuild(ref.id).actions() == [taken[0], taken[5]]  # what stands
    assert journal.export(ref.id, compact=True).count("\n") == 3


def test_summary_follows_the_latest_state_even_when_the_end_is_undone(journal):
    actions = random_game(MINE, seed=8)
    ref, match = play(journal, actions)
    assert match.view["over"]
    over = journal.game(ref.id)
    assert over.status == "over" and over.winners == match.view["winners"]
    assert over.scores == match.view["scores"] and over.ended_at == over.updated_at

    back = match.apply({"act": "undo"})
    journal.append(ref, {"act": "undo"}, back)
    undone = journal.game(ref.id)
    assert (undone.status, undone.ended_at, undone.winners) == ("playing", None, [])
    assert undone.scores == back.view["scores"]
    assert journal.offer().game.id == ref.id  # unfinished again: it is offered at the next start

    again = back.apply({"act": "redo"})
    journal.append(ref, {"act": "redo"}, again)
    redone = journal.game(ref.id)
    assert redone.status == "over" and redone.winners == match.view["winners"]
    assert redone.ended_at > over.ended_at  # it ended (again) at the redo


def test_history_lists_every_game_with_times_players_and_results(journal):
    first, m1 = play(journal, random_game(MINE, seed=1))
    five = {"game": "cloudmine", "players": ["Eve", "Ann", "Fay", "Gus", "Hal"]}
    second, m2 = play(journal, random_game(five, seed=2), five)
    third, _ = play(journal, random_game(MINE, seed=3)[:4])
    games = journal.games()
    assert [g.id for g in games] == [third.id, second.id, first.id]  # newest first
    g1 = journal.game(first.id)
    assert g1.title == "The Cloud Mine" and g1.players == MINE["players"] and g1.setup == MINE
    assert g1.started_at < g1.ended_at and g1.winners == m1.view["winners"]
    assert journal.game(second.id).scores == m2.view["scores"]
    assert journal.game(third.id).status == "playing" and journal.game(third.id).ended_at is None


def test_player_totals_count_finished_games_per_game(journal):
    results = [play(journal, random_game(MINE, seed=s))[1] for s in range(4)]
    play(journal, random_game(MINE, seed=9)[:3])  # unfinished: not counted
    totals = {t.name: t for t in journal.totals() if t.game == "cloudmine"}
    for name in MINE["players"]:
        scores = [m.view["scores"][name] for m in results]
        assert totals[name].played == 4
        assert totals[name].won == sum(name in m.view["winners"] for m in results)
        assert totals[name].total_score == sum(scores) and totals[name].best_score == max(scores)
    assert journal.totals() == player_totals(journal.games())


def test_a_new_game_leaves_the_unfinished_one_abandoned_and_it_can_be_taken_up_again(journal):
    old, old_match = play(journal, random_game(MINE, seed=4)[:6])
    new, _ = play(journal, random_game(MINE, seed=5)[:2])
    assert journal.game(old.id).status == "abandoned"
    assert journal.offer().game.id == new.id
    ref, match = journal.resume(old.id)
    assert match.view == old_match.view and ref.saved == 6
    assert journal.game(old.id).status == "playing" and journal.game(new.id).status == "abandoned"
    action = match.legal_actions()[0]
    assert journal.append(ref, action, match.apply(action))
    assert journal.stored(old.id)[1][-1] == action


def test_abandon_by_id_leaves_nothing_to_offer(journal):
    ref, _ = play(journal, random_game(MINE, seed=4)[:6])
    journal.abandon(ref.id)
    assert journal.offer() is None and journal.resume() is None
    assert journal.game(ref.id).status == "abandoned" and journal.game(ref.id).actions == 6


def test_an_unknown_game_is_a_clear_error(journal):
    with pytest.raises(JournalError, match="there is no game 42"):
        journal.resume(42)


def test_a_clean_close_offers_the_game_without_resuming_it_by_itself(tmp_path):
    path = tmp_path / "journal.sqlite3"
    with Journal.open(path) as journal:
        ref, match = play(journal, random_game(MINE, seed=6)[:7])
        journal.note_screen("game")
    with Journal.open(path) as journal:
        offer = journal.offer()
        assert offer.game.id == ref.id and not offer.automatic and offer.screen == "game"
        assert journal.resume().match.view == match.view


def test_after_a_crash_the_game_is_resumed_straight_away(tmp_path):
    path = tmp_path / "journal.sqlite3"
    journal_then_die(path, seed=6, actions=7, before_death='journal.note_screen("scores")')
    with Journal.open(path) as journal:
        offer = journal.offer()
        assert offer.automatic and offer.screen == "scores"
        ref, match = journal.resume()
        assert match.view == replayed(MINE, random_game(MINE, seed=6)[:7]).view
    with Journal.open(path) as journal:  # that run closed cleanly
        assert not journal.offer().automatic


def test_a_second_writer_is_refused_politely(tmp_path):
    path = tmp_path / "journal.sqlite3"
    with Journal.open(path):
        with pytest.raises(JournalBusy, match=f"process {os.getpid()}.*already using the journal"):
            Journal.open(path)
        run = subprocess.run(
            [sys.executable, "-m", "companion", "replay", "-", "--db", str(path), "--follow"],
            input='{"game": "cloudmine", "players": ["A", "B", "C"]}\n',
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert run.returncode == 4 and run.stdout == ""
        assert "already using the journal" in run.stderr and "Traceback" not in run.stderr
    Journal.open(path).close()  # free again once the first one closed


def test_a_reader_opens_beside_the_writer_and_writes_nothing(tmp_path):
    path = tmp_path / "journal.sqlite3"
    with Journal.open(path) as journal:
        ref, match = play(journal, random_game(MINE, seed=7)[:5])
        reader = Journal.read(path)
        assert reader.resume().match.view == match.view
        with pytest.raises(JournalError, match="reading only"):
            reader.begin(match)
        reader.close()
        assert journal.append(ref, match.legal_actions()[0], match.apply(match.legal_actions()[0]))


def test_concurrent_readers_see_whole_actions_only(tmp_path):
    """While the app writes, another process's reads always land between two commits."""
    path = tmp_path / "journal.sqlite3"
    actions = random_game(MINE, seed=11)
    seen, errors = [], []
    done = threading.Event()
    read = threading.Condition()  # the writer waits on it for a read of the game part-played

    def read_while_writing():
        reader = Journal.read(path)
        while not done.is_set():
            try:
                summary, stored = reader.stored(1)
                match = replayed(MINE, stored)
                assert summary.scores == match.view["scores"] and summary.actions == len(stored)
                assert stored == actions[: len(stored)]
                seen.append(len(stored))
            except Exception as exc:  # noqa: BLE001 - reported below, with the test's failure
                errors.append(exc)
                return
            finally:
                with read:
                    read.notify_all()
        reader.close()

    def let_the_reader_see(count):
        """However the threads are scheduled, a read lands after this commit: the reads then
        see more than one length of the game."""
        with read:
            read.wait_for(lambda: errors or (seen and seen[-1] >= count), timeout=30)

    with Journal.open(path) as journal:
        match = Match.start(MINE)
        ref = journal.begin(match)
        thread = threading.Thread(target=read_while_writing)
        thread.start()
        for count, action in enumerate(actions, start=1):
            match = match.apply(action)
            journal.append(ref, action, match)
            if count in (1, len(actions) // 2):
                let_the_reader_see(count)
        done.set()
        thread.join(30)
    assert not errors, errors
    assert len(set(seen)) > 1 and seen == sorted(seen)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), cut=st.integers(0, 200), players=st.integers(3, 8))
def test_reopened_journal_rebuilds_exactly_the_stored_prefix(tmp_path_factory, seed, cut, players):
    """Property: whatever was played (undo, redo, the end and back), reopening gives it back."""
    setup = {"game": "cloudmine", "players": [f"P{i}" for i in range(players)]}
    steps = list(random_actions(setup, seed, limit=cut, undo_rate=0.2))
    path = tmp_path_factory.mktemp("prop") / "journal.sqlite3"
    with Journal.open(path) as journal:
        ref, match = play(journal, [a for _, a in steps], setup)
    with Journal.open(path) as journal:
        summary, stored = journal.stored(ref.id)
        rebuilt = journal.rebuild(ref.id)
    assert stored == [a for _, a in steps]
    assert rebuilt.view == match.view
    assert summary.status == ("over" if match.view["over"] else "playing")
    assert (summary.winners, summary.scores, summary.phase) == (
        match.view["winners"],
        match.view["scores"],
        match.view["phase"],
    )
    assert (summary.ended_at is None) == (not match.view["over"])


def test_the_readme_backup_recipe_copies_a_journal_in_use(tmp_path):
    """docs/data.md, "Back up": SQLite's online backup, while the app is writing."""
    path, copy = tmp_path / "journal.sqlite3", tmp_path / "journal-backup.sqlite3"
    with Journal.open(path) as journal:
        ref, match = play(journal, random_game(MINE, seed=12)[:9])
        source, target = sqlite3.connect(path), sqlite3.connect(copy)
        source.backup(target)
        target.close()
        source.close()
        assert journal.append(ref, match.legal_actions()[0], match.apply(match.legal_actions()[0]))
    backup = Journal.read(copy)
    assert backup.resume().match.view == match.view  # the game as it was at the backup


def test_bench_reports_commit_latency_and_resume_time():
    from companion.bench import BENCH_MODULES
    from companion.journal.bench import bench

    assert "companion.journal.bench" in BENCH_MODULES
    figures = bench(actions=30)
    assert set(figures) == {"journal.commit_median_ms", "journal.commit_p99_ms"} | {
        f"journal.{g}.resume_30_actions_ms" for g in ("cloud9", "cloudship", "cloudmine")
    }
    assert all(value > 0 for value in figures.values())
    assert figures["journal.commit_p99_ms"] >= figures["journal.commit_median_ms"]
