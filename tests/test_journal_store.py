"""The journal file: schema versions and migrations, and files that cannot be used as they are."""

import json
import os
import sqlite3
from pathlib import Path

import pytest

from companion.journal import Journal, JournalBusy, UnusableFile, schema
from companion.journal.errors import NotAJournal
from companion.journal.journal import default_path
from companion.journal.store import Store, connect
from companion.rules import Match
from companion.rules.simulate import random_game
from journaling import journal_then_die, play

SETUP = {"game": "cloudmine", "players": ["Ann", "Ben", "Cat", "Dan"]}


def journal_with_a_game(path, n=20):
    with Journal.open(path) as journal:
        ref, match = play(journal, random_game(SETUP, seed=3)[:n])
    return ref.id, match


def kept_files(folder, name="journal.sqlite3", sides=False):
    """The files kept aside (with their -wal and -shm companions only when `sides`)."""
    return sorted(
        p.name
        for p in folder.iterdir()
        if p.name.startswith(f"{name}.broken-") and (sides or not p.name.endswith(("-wal", "-shm")))
    )


def test_a_new_file_gets_the_current_schema_in_wal_mode(tmp_path):
    path = tmp_path / "journal.sqlite3"
    Journal.open(path).close()
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == schema.SCHEMA_VERSION
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert schema.TABLES <= schema.tables(conn)


def test_the_writer_syncs_every_commit(tmp_path):
    store = Store.open(tmp_path / "j.sqlite3", writable=True)
    # 2 = FULL: the WAL is fsynced at each commit (NORMAL, 1, could lose the last actions)
    assert store.conn.execute("PRAGMA synchronous").fetchone()[0] == 2
    store.close()


def test_a_stored_game_survives_reopening(tmp_path):
    path = tmp_path / "journal.sqlite3"
    game_id, match = journal_with_a_game(path)
    with Journal.open(path) as journal:
        resumed = journal.resume()
        assert resumed.ref.id == game_id and resumed.match.view == match.view


def test_append_out_of_order_is_refused_by_the_file(tmp_path):
    store = Store.open(tmp_path / "j.sqlite3", writable=True)
    match = Match.start(SETUP)
    gid = store.begin(SETUP, "The Cloud Mine", match.view, "2026-01-01T00:00:00+00:00")
    action = match.legal_actions()[0]
    with pytest.raises(sqlite3.IntegrityError, match="no action 1"):
        store.append(gid, 2, action, match.apply(action).view, "2026-01-01T00:00:01+00:00")
    assert store.game(gid)[1] == []  # the transaction was rolled back whole
    store.close()


# --- migrations -------------------------------------------------------------------------------

NEXT = schema.SCHEMA_VERSION + 1  # a version after this one, as a future upgrade adds it
V2 = {**schema.MIGRATIONS, NEXT: "ALTER TABLE games ADD COLUMN place TEXT NOT NULL DEFAULT 'kitchen';"}


def test_an_older_file_is_migrated_with_its_games_intact(tmp_path):
    path = tmp_path / "journal.sqlite3"
    game_id, match = journal_with_a_game(path)
    store = Store.open(path, writable=True, migrations=V2)
    assert schema.version(store.conn) == NEXT
    assert store.conn.execute("SELECT place FROM games").fetchall() == [("kitchen",)]
    summary, actions, damaged = store.game(game_id)
    assert damaged is None
    assert summary.scores == match.view["scores"] and len(actions) == 20
    store.close()


def test_a_failed_migration_leaves_the_previous_version(tmp_path):
    path = tmp_path / "journal.sqlite3"
    journal_with_a_game(path)
    broken = {**schema.MIGRATIONS, NEXT: "ALTER TABLE games ADD COLUMN x TEXT; ALTER TABLE nowhere ADD y;"}
    with pytest.raises(sqlite3.OperationalError, match="nowhere"):
        Store.open(path, writable=True, migrations=broken)
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == schema.SCHEMA_VERSION
    columns = [row[1] for row in conn.execute("PRAGMA table_info(games)")]
    assert "x" not in columns  # the first half of the step was rolled back too


def test_a_reader_does_not_upgrade_and_says_so(tmp_path):
    path = tmp_path / "journal.sqlite3"
    journal_with_a_game(path)
    with pytest.raises(UnusableFile, match="start the app once to upgrade it"):
        Store.open(path, writable=False, migrations=V2)


# --- files that cannot be used: kept aside, a new journal started ---------------------------


def test_a_file_that_is_not_a_database_is_kept_aside_at_the_default_place(tmp_path, monkeypatch):
    # the app's own file: whatever damaged it, the app must start
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    path = default_path()
    tmp_path = path.parent
    tmp_path.mkdir(parents=True)
    garbage = b"these are not the pages you are looking for\n" * 200
    path.write_bytes(garbage)
    with Journal.open() as journal:
        assert journal.games() == []
        [message] = journal.messages
        [kept] = kept_files(tmp_path)
        assert str(path) in message and "damaged" in message and kept in message
        play(journal, random_game(SETUP, seed=1)[:3])
    assert (tmp_path / kept).read_bytes() == garbage  # nothing lost
    assert len(Journal.read(path).games()) == 1


def test_a_path_given_that_is_not_a_database_is_refused_and_left_alone(tmp_path):
    path = tmp_path / "game.jsonl"
    path.write_text('{"game": "cloudmine", "players": ["Ann", "Ben", "Cat"]}\n')
    with pytest.raises(NotAJournal, match="not an SQLite database"):
        Journal.open(path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.jsonl"]


def test_an_empty_file_is_a_new_empty_journal(tmp_path):
    path = tmp_path / "journal.sqlite3"
    path.touch()
    assert Journal.read(path).games() == [] and Journal.read(path).resume() is None
    with Journal.open(path) as journal:
        assert journal.messages == [] and journal.problem is None
        play(journal, random_game(SETUP, seed=2)[:2])
    assert len(Journal.read(path).games()) == 1


def test_a_truncated_file_is_kept_aside(tmp_path):
    path = tmp_path / "journal.sqlite3"
    for seed in range(4):
        with Journal.open(path) as journal:
            play(journal, random_game(SETUP, seed=seed))
    size = path.stat().st_size
    assert not os.path.exists(f"{path}-wal")  # closed cleanly: everything is in the main file
    os.truncate(path, size // 2 + 100)
    with pytest.raises(UnusableFile, match="damaged"):
        Journal.read(path)
    with Journal.open(path) as journal:
        assert "damaged" in journal.messages[0]
        assert journal.games() == []
    [kept] = kept_files(tmp_path)
    assert (tmp_path / kept).stat().st_size == size // 2 + 100


def test_a_newer_schema_is_kept_aside_by_the_app_and_left_alone_by_readers(tmp_path):
    path = tmp_path / "journal.sqlite3"
    journal_with_a_game(path)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 7")
    conn.close()
    with pytest.raises(UnusableFile, match="newer Cloud Companion .schema version 7"):
        Journal.read(path)
    assert kept_files(tmp_path) == []
    with Journal.open(path) as journal:
        assert "newer Cloud Companion" in journal.messages[0]
        assert journal.games() == []
    [kept] = kept_files(tmp_path)
    old = sqlite3.connect(tmp_path / kept)
    assert old.execute("PRAGMA user_version").fetchone()[0] == 7
    assert old.execute("SELECT count(*) FROM actions").fetchone()[0] == 20


def test_someone_elses_database_is_kept_aside(tmp_path):
    path = tmp_path / "journal.sqlite3"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE recipes (name TEXT)")
    conn.commit()
    conn.close()
    with Journal.open(path) as journal:
        assert "something else (tables: recipes)" in journal.messages[0]
    assert len(kept_files(tmp_path)) == 1


def test_a_file_kept_aside_takes_its_wal_along(tmp_path):
    path = tmp_path / "journal.sqlite3"
    # the other connection writes as a newer version would; all of it is in the -wal file only
    journal_then_die(
        path,
        seed=2,
        actions=5,
        before_death=('other = sqlite3.connect(sys.argv[1]); other.execute("PRAGMA user_version = 7"); other.commit()'),
    )
    assert Path(f"{path}-wal").stat().st_size > 0
    with Journal.open(path) as journal:
        assert journal.games() == [] and "newer" in journal.messages[0]
    kept = kept_files(tmp_path, sides=True)
    base = min(kept, key=len)
    assert f"{base}-wal" in kept  # the file and its -wal, under one name
    old = sqlite3.connect(tmp_path / base)  # read together with its -wal, as SQLite does
    assert old.execute("PRAGMA user_version").fetchone()[0] == 7
    assert old.execute("SELECT count(*) FROM actions").fetchone()[0] == 5


def test_connect_read_only_never_writes(tmp_path):
    path = tmp_path / "journal.sqlite3"
    journal_with_a_game(path)
    conn = connect(path, readonly=True)
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        conn.execute("DELETE FROM actions")
    assert json.loads(conn.execute("SELECT setup FROM games").fetchone()[0]) == SETUP


def test_a_look_keeps_writers_out_only_while_it_lasts(tmp_path):
    path = tmp_path / "journal.sqlite3"
    with Journal.open(path) as journal:
        play(journal, random_game(SETUP, seed=3)[:2])
    assert not os.path.exists(f"{path}-wal")  # closed: no write-ahead log, the look holds the lock
    look = Journal.read(path)
    assert len(look.games()) == 1
    with pytest.raises(JournalBusy):
        Journal.open(path)
    look.close()
    Journal.open(path).close()
    Journal.read(path).games()  # a look never closed lets go when it is gone
    import gc

    gc.collect()
    Journal.open(path).close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["journal.sqlite3", "journal.sqlite3.lock"]
