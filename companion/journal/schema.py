"""The journal's tables and their migrations, versioned with `PRAGMA user_version`.

A new version appends one entry to MIGRATIONS; opening an older file runs the missing steps in
order, each in its own transaction together with the version bump, so a power cut during an
upgrade leaves the file at the previous version, never half-way.
"""

from __future__ import annotations

import sqlite3

from ..errors import CompanionError

# version -> SQL that brings a file from version - 1 to version
MIGRATIONS: dict[int, str] = {
    1: """
    CREATE TABLE games (
        id          INTEGER PRIMARY KEY,
        game        TEXT NOT NULL,              -- the contract's "game" value
        title       TEXT NOT NULL,
        setup       TEXT NOT NULL,              -- JSON: line 1 of the replay format
        players     TEXT NOT NULL,              -- JSON list, in seat order
        started_at  TEXT NOT NULL,              -- ISO 8601, UTC
        updated_at  TEXT NOT NULL,
        ended_at    TEXT,                       -- when the game (last) became over, else NULL
        status      TEXT NOT NULL CHECK (status IN ('playing', 'over', 'abandoned')),
        phase       TEXT NOT NULL,
        winners     TEXT NOT NULL DEFAULT '[]', -- JSON list, seat order
        scores      TEXT NOT NULL,              -- JSON object name -> int
        actions     INTEGER NOT NULL DEFAULT 0  -- how many actions are stored
    );
    CREATE INDEX games_by_status ON games (status);  -- not updated_at: no index write per action
    -- every accepted action in order, undo and redo included: the history stays true
    CREATE TABLE actions (
        game_id INTEGER NOT NULL REFERENCES games (id),
        seq     INTEGER NOT NULL,               -- 1 is the first action after the setup
        action  TEXT NOT NULL,                  -- JSON, exactly as in the replay contract
        at      TEXT NOT NULL,
        PRIMARY KEY (game_id, seq)
    ) WITHOUT ROWID;
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    """,
    # Years of games: the history's pages come from an index, and each player's totals from
    # a results table (one row per player of each finished game) that triggers keep true
    # whatever changes a game (its end, an undo of its end, a stop), so no writer can forget it.
    2: """
    CREATE INDEX games_by_start ON games (started_at DESC, id DESC);
    CREATE TABLE results (
        game_id INTEGER NOT NULL REFERENCES games (id),
        game    TEXT NOT NULL,
        title   TEXT NOT NULL,
        name    TEXT NOT NULL,
        won     INTEGER NOT NULL,
        score   INTEGER NOT NULL
    );
    CREATE INDEX results_by_game_id ON results (game_id);
    -- covering: the totals are one pass over this index, never the table
    CREATE INDEX results_by_player ON results (game, name, won, score, title);
    CREATE TRIGGER results_on_insert AFTER INSERT ON games WHEN NEW.status = 'over' BEGIN
        INSERT INTO results SELECT NEW.id, NEW.game, NEW.title, p.value,
            p.value IN (SELECT w.value FROM json_each(NEW.winners) AS w),
            coalesce((SELECT s.value FROM json_each(NEW.scores) AS s WHERE s.key = p.value), 0)
        FROM json_each(NEW.players) AS p;
    END;
    CREATE TRIGGER results_on_update AFTER UPDATE OF status, winners, scores, players ON games
    WHEN OLD.status = 'over' OR NEW.status = 'over' BEGIN
        DELETE FROM results WHERE game_id = NEW.id;
        INSERT INTO results SELECT NEW.id, NEW.game, NEW.title, p.value,
            p.value IN (SELECT w.value FROM json_each(NEW.winners) AS w),
            coalesce((SELECT s.value FROM json_each(NEW.scores) AS s WHERE s.key = p.value), 0)
        FROM json_each(NEW.players) AS p WHERE NEW.status = 'over';
    END;
    INSERT INTO results SELECT g.id, g.game, g.title, p.value,
        p.value IN (SELECT w.value FROM json_each(g.winners) AS w),
        coalesce((SELECT s.value FROM json_each(g.scores) AS s WHERE s.key = p.value), 0)
    FROM games AS g, json_each(g.players) AS p WHERE g.status = 'over';
    """,
    # The records kept as games end: what only a replay tells of each finished game (its
    # extras, written with the action that ended it), and the records themselves under the
    # meta key 'records', valid while 'results_changes' (bumped by triggers on every change
    # of the results or the extras, whoever writes) still says what it said then. A count that
    # is not a number stays so (never valid) until a visit writes the records and the count anew.
    3: """
    CREATE TABLE extras (
        game_id INTEGER PRIMARY KEY REFERENCES games (id),
        actions INTEGER NOT NULL,                 -- the game's actions when they were worked out
        data    TEXT                              -- JSON; NULL: the game no longer replays
    );
    INSERT OR IGNORE INTO meta (key, value) VALUES ('results_changes', '0');
    -- a journal without a finished game starts with its records kept (empty); an older one
    -- with games gets them on the first visit to Records
    INSERT OR IGNORE INTO meta (key, value) SELECT 'records', '{"version": 1, "changes": 0}'
        WHERE NOT EXISTS (SELECT 1 FROM results);
    CREATE TRIGGER results_changed_on_insert AFTER INSERT ON results BEGIN
        UPDATE meta SET value = value + 1 WHERE key = 'results_changes' AND value GLOB '[0-9]*';
    END;
    CREATE TRIGGER results_changed_on_delete AFTER DELETE ON results BEGIN
        UPDATE meta SET value = value + 1 WHERE key = 'results_changes' AND value GLOB '[0-9]*';
    END;
    CREATE TRIGGER extras_changed_on_insert AFTER INSERT ON extras BEGIN
        UPDATE meta SET value = value + 1 WHERE key = 'results_changes' AND value GLOB '[0-9]*';
    END;
    CREATE TRIGGER extras_changed_on_update AFTER UPDATE ON extras BEGIN
        UPDATE meta SET value = value + 1 WHERE key = 'results_changes' AND value GLOB '[0-9]*';
    END;
    CREATE TRIGGER extras_changed_on_delete AFTER DELETE ON extras BEGIN
        UPDATE meta SET value = value + 1 WHERE key = 'results_changes' AND value GLOB '[0-9]*';
    END;
    """,
}

SCHEMA_VERSION = max(MIGRATIONS)
TABLES = {"games", "actions", "meta"}  # every version has these (results: from 2 on)


class SchemaProblem(CompanionError):
    """The file is a SQLite database, but not a journal this version can use."""


def version(conn: sqlite3.Connection) -> int:
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def tables(conn: sqlite3.Connection) -> set[str]:
    rows = conn.execute("SELECT name FROM sqlite_schema WHERE type = 'table'").fetchall()
    return {name for (name,) in rows}


def check(conn: sqlite3.Connection, migrations: dict[int, str] = MIGRATIONS) -> int:
    """The file's schema version, or SchemaProblem if it is not (or not yet) ours."""
    found, known = version(conn), max(migrations)
    if found > known:
        raise SchemaProblem(
            f"it was written by a newer Cloud Companion (schema version {found}; this one knows up to {known})"
        )
    present = tables(conn)
    if found == 0 and present:
        raise SchemaProblem(f"it is a SQLite file of something else (tables: {', '.join(sorted(present))})")
    if found > 0 and not TABLES <= present:
        raise SchemaProblem(
            f"it says schema version {found} but lacks the tables {', '.join(sorted(TABLES - present))}"
        )
    return found


def migrate(conn: sqlite3.Connection, migrations: dict[int, str] = MIGRATIONS) -> int:
    """Bring the file up to the newest version; returns the version it had before."""
    start = check(conn, migrations)
    for step in range(start + 1, max(migrations) + 1):
        # executescript runs outside Python's transaction handling: BEGIN/COMMIT are ours
        try:
            conn.executescript(f"BEGIN IMMEDIATE;\n{migrations[step]}\nPRAGMA user_version = {step};\nCOMMIT;")
        except sqlite3.Error:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
    return start
