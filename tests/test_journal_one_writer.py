"""One writer per journal file, whatever name reaches it: a second `replay --follow` writer
through a hard link or a symlink is refused, and every action the first acknowledged stays."""

import json
import os
import subprocess
import sys
import threading

import pytest

from companion.journal import Journal, JournalError
from companion.rules.simulate import random_game

MINE = {"game": "cloudmine", "players": ["Ann", "Ben", "Cat", "Dan", "Eve"]}
OTHER = {"game": "cloudmine", "players": ["Zoe", "Yan", "Xia"]}


def follower(db):
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "replay", "-", "--db", str(db), "--follow"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    timer = threading.Timer(60, proc.kill)  # a hang fails the test instead of blocking the suite
    timer.start()
    proc.timer = timer
    return proc


def feed(proc, rows, first_ack):
    for n, row in enumerate(rows, start=first_ack):
        proc.stdin.write(json.dumps(row) + "\n")
        proc.stdin.flush()
        if n:
            assert json.loads(proc.stdout.readline()) == {"ok": n}


def finish(proc):
    proc.stdin.close()
    proc.timer.cancel()
    return proc.wait(), proc.stderr.read()


@pytest.mark.parametrize("kind", ["hard link", "symlink"])
def test_a_second_writer_through_another_name_is_refused_and_nothing_acknowledged_is_lost(tmp_path, kind):
    db = tmp_path / "journal.sqlite3"
    actions = random_game(MINE, seed=7)
    first = follower(db)
    try:
        feed(first, [MINE], 0)
        feed(first, actions[:10], 1)
        other_name = tmp_path / "other-name.sqlite3"
        (os.link if kind == "hard link" else os.symlink)(db, other_name)
        second = subprocess.run(
            [sys.executable, "-m", "companion", "replay", "-", "--db", str(other_name), "--follow"],
            input="".join(json.dumps(r) + "\n" for r in [OTHER, *random_game(OTHER, seed=1)]),
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert second.stdout == ""  # not one action acknowledged
        assert second.returncode != 0 and second.stderr.startswith("cloud-companion: ")
        assert len(second.stderr.splitlines()) == 1
        if kind == "hard link":
            assert "hard link" in second.stderr
            os.unlink(other_name)  # the table takes the advice; the first writer never noticed
        else:
            assert "already using the journal" in second.stderr and second.returncode == 4
        feed(first, actions[10:], 11)
    finally:
        code, err = finish(first)
    assert code == 0, err
    with Journal.read(db) as journal:
        [game] = journal.games()  # the other table's game never got in
        assert game.players == MINE["players"] and game.status == "over"
        assert journal.stored(game.id)[1] == actions  # every acknowledged action


def test_a_journal_file_with_two_names_is_refused_for_writing_and_reading(tmp_path):
    db = tmp_path / "journal.sqlite3"
    Journal.open(db).close()
    os.link(db, tmp_path / "copy.sqlite3")
    for opener in (Journal.open, Journal.read):
        with pytest.raises(JournalError, match="2 names"):
            opener(db)
    run = subprocess.run(
        [sys.executable, "-m", "companion", "history", "--db", str(db)], capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 1 and run.stderr.count("\n") == 1 and "hard links" in run.stderr


def test_the_lock_and_write_ahead_log_sit_beside_the_file_a_symlink_leads_to(tmp_path):
    real = tmp_path / "data" / "journal.sqlite3"
    real.parent.mkdir()
    link = tmp_path / "journal.sqlite3"
    link.symlink_to(real)
    journal = Journal.open(link)
    try:
        assert (real.parent / "journal.sqlite3.lock").exists()
        assert not (tmp_path / "journal.sqlite3.lock").exists()
        with pytest.raises(JournalError, match="already using"):
            Journal.open(real)  # the same file by its own name: the same lock
    finally:
        journal.close()


def test_a_damaged_journal_reached_through_a_symlink_is_kept_aside_beside_the_real_file(tmp_path):
    real = tmp_path / "data" / "journal.sqlite3"
    real.parent.mkdir()
    real.write_bytes(b"SQLite format 3\x00" + b"\xff" * 4080)  # damaged beyond use
    link = tmp_path / "journal.sqlite3"
    link.symlink_to(real)
    journal = Journal.open(link)
    try:
        assert journal.messages and "kept as" in journal.messages[0]
    finally:
        journal.close()
    assert link.is_symlink() and list(real.parent.glob("journal.sqlite3.broken-*"))
    assert Journal.read(link).games() == []  # the new journal, where the symlink leads
