"""The journal file itself: one SQLite database, checked on open, written in small transactions.

This layer knows SQL and nothing about failures' consequences: it raises, and journal.py decides
what the table sees (a message, the game going on in memory, a file moved aside).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any, NamedTuple
from urllib.parse import quote

from . import rows, schema
from .errors import NotUpgraded, UnusableFile
from .history import GameSummary, PlayerTotal
from .hooks import records_keeper

# SQLite's primary result codes that mean "this file's content is not a usable database"
DAMAGE_CODES = {sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB}


Connect = Callable[[Path, bool], sqlite3.Connection]


class StoredGame(NamedTuple):
    summary: GameSummary
    actions: list[dict[str, Any]]  # every stored action; for a damaged game, those that read
    damaged: str | None  # what is wrong with it, or None


def connect(path: Path, readonly: bool) -> sqlite3.Connection:
    """A connection in autocommit mode (transactions are explicit); mode=ro never writes."""
    if not readonly:
        # timeout: a reader can briefly hold the file during a checkpoint; wait rather than fail
        return sqlite3.connect(path, timeout=5.0, isolation_level=None)
    uri = f"file:{quote(str(path))}?mode=ro"
    conn = sqlite3.connect(uri, uri=True, timeout=5.0, isolation_level=None)
    try:
        conn.execute("PRAGMA schema_version")  # opens the file for real
    except sqlite3.OperationalError as exc:
        conn.close()
        cannot_open = exc.sqlite_errorcode & 0xFF == sqlite3.SQLITE_CANTOPEN
        if not cannot_open or not Path(path).exists() or Path(f"{path}-wal").exists():
            raise
        # a read-only folder: SQLite cannot create the -shm index a WAL file needs, but with
        # no -wal file everything is in the main file, and nothing here can change it
        conn = sqlite3.connect(uri + "&immutable=1", uri=True, isolation_level=None)
    return conn


SQLITE_HEADER = b"SQLite format 3\x00"


def is_sqlite_file(path: Path) -> bool:
    """True when the file starts as every SQLite database does (damaged ones included)."""
    try:
        with open(path, "rb") as f:
            return f.read(len(SQLITE_HEADER)) == SQLITE_HEADER
    except OSError:
        return False


def connect_unchanging(path: Path, readonly: bool = True) -> sqlite3.Connection:
    """A read-only look at a file nothing writes to meanwhile (no writer, no -wal file): SQLite
    then creates no -wal or -shm file beside it."""
    uri = f"file:{quote(str(path))}?mode=ro&immutable=1"
    return sqlite3.connect(uri, uri=True, isolation_level=None)


def is_damage(exc: BaseException) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    return isinstance(exc, sqlite3.DatabaseError) and code is not None and code & 0xFF in DAMAGE_CODES


@contextmanager
def _damage_is_unusable() -> Iterator[None]:
    try:
        yield
    except sqlite3.DatabaseError as exc:
        if is_damage(exc):
            raise UnusableFile(f"it is damaged ({exc})") from None
        raise


# The tables every start reads (the history's summaries, the totals, the resume hint): checked
# on every open. The actions table grows with every move of every game ever played; checking it
# is `full_check` (journal.py runs that in the background, off the app's way).
SMALL_TABLES = ("games", "meta", "results", "extras")


def damage(conn: sqlite3.Connection, tables: tuple[str, ...] | None = None) -> str | None:
    """SQLite's quick check, of the whole file or of `tables` (with their indexes): None when
    intact, else its first complaint. Raises sqlite3.DatabaseError if it cannot even look."""
    present = schema.tables(conn)
    for table in [None] if tables is None else [t for t in tables if t in present]:
        pragma = "PRAGMA quick_check" if table is None else f"PRAGMA quick_check({table})"
        problems = conn.execute(pragma).fetchall()
        if problems != [("ok",)]:
            return str(problems[0][0]).splitlines()[-1]
    return None


def _inspect(
    conn: sqlite3.Connection,
    migrations: dict[int, str],
    writable: bool,
    full_check: bool = True,
    path: Path | None = None,
) -> None:
    """UnusableFile unless the file is an intact journal this version can use (or, for a
    writer, an empty file to make one of)."""
    with _damage_is_unusable():
        problem = damage(conn, None if full_check else SMALL_TABLES)
        if problem:
            raise UnusableFile(f"it is damaged ({problem})")
        try:
            found = schema.check(conn, migrations)
        except schema.SchemaProblem as exc:
            raise UnusableFile(str(exc)) from None
    if found == 0 and path is not None and path.stat().st_size > 0:
        # a database with no tables at all: what a journal whose write-ahead log was lost
        # looks like (everything it held was in the -wal); never silently reused as empty
        raise UnusableFile(lost_log(path))
    if not writable and found != max(migrations):
        raise NotUpgraded("it was written by an older Cloud Companion: start the app once to upgrade it")


def lost_log(path: Path) -> str:
    wal = Path(f"{path}-wal").name
    if Path(f"{path}-shm").exists():  # SQLite removes both together; one left means one lost
        return f"it holds no games and no tables: its write-ahead log {wal} is missing, and with it every game it held"
    return (
        f"it holds no games and no tables (an empty database; if games were in it, its write-ahead log {wal} was lost)"
    )


_COLUMNS = "id, game, title, setup, players, started_at, updated_at, ended_at, status, phase, winners, scores, actions"


STATUSES = ("playing", "over", "abandoned")


def _status(value: Any) -> str:
    if value not in STATUSES:
        raise rows.Damaged("its status is unknown")
    return str(value)


def _summary(row: tuple[Any, ...]) -> GameSummary:
    """A games row as a summary; a row whose values are not what the journal writes (damage
    SQLite cannot see) is a summary marked `damaged`, with what could be read of it."""
    (gid, game, title, setup, players, started, updated, ended, status, phase, winners, scores, actions) = row
    problems: list[str] = []

    def read(check: Callable[[], Any], fallback: Any) -> Any:
        try:
            return check()
        except rows.Damaged as exc:
            problems.append(str(exc))
            return fallback

    game_id = gid if isinstance(gid, int) else -1
    setup_value = read(lambda: rows.loads(setup, "setup"), {})
    if not isinstance(setup_value, dict):
        problems.append("its setup is not an object")
        setup_value = {}
    summary = GameSummary(
        game_id,
        read(lambda: rows.text(game, "game"), "?"),
        read(lambda: rows.text(title, "title"), "?"),
        setup_value,
        read(lambda: rows.names(rows.loads(players, "player list"), "player list"), []),
        read(lambda: rows.moment(started, "start"), None),
        read(lambda: rows.moment(updated, "last change"), None),
        read(lambda: rows.moment(ended, "end", optional=True), None),
        read(lambda: _status(status), "abandoned"),
        read(lambda: rows.text(phase, "phase"), "?"),
        read(lambda: rows.names(rows.loads(winners, "winners"), "winners"), []),
        read(lambda: rows.scores(rows.loads(scores, "scores")), {}),
        read(lambda: rows.whole(actions, "action count"), 0),
    )
    if problems:
        return replace(summary, damaged="; ".join(problems))
    return summary


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class Store:
    def __init__(self, conn: sqlite3.Connection, path: Path, writable: bool):
        self.conn, self.path, self.writable = conn, path, writable
        conn.text_factory = rows.text_factory  # one value that is not UTF-8 cannot stop a fetch

    @classmethod
    def open(
        cls,
        path: Path,
        *,
        writable: bool,
        connect: Connect = connect,
        migrations: dict[int, str] = schema.MIGRATIONS,
        full_check: bool = True,
    ) -> Store:
        """Open and check the file; UnusableFile if its content cannot be used.

        Failures to reach the file at all (permissions, read-only or full disk) come out as
        sqlite3.OperationalError or OSError.
        """
        if not writable or path.exists():
            # look read-only first: such a connection never checkpoints, so a file that has to
            # be kept aside is kept exactly as found (its -wal file included)
            with _damage_is_unusable():
                look = connect(path, True)
            try:
                _inspect(look, migrations, writable, full_check, path)
            except BaseException:
                look.close()
                raise
            if not writable:
                return cls(look, path, False)
            look.close()
        conn = connect(path, False)
        try:
            # WAL: a commit is one append to the -wal file, readers never block the writer,
            # and a commit cut short by a crash is simply not there on the next open.
            # synchronous=FULL: the -wal file is fsynced at every commit, so an action is on
            # the disk, not in a cache, before we return; NORMAL would only sync at
            # checkpoints and a power cut could take back actions the table already saw.
            mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
            if mode != "wal":
                raise sqlite3.OperationalError(f"the journal cannot use write-ahead logging ({mode})")
            conn.execute("PRAGMA synchronous = FULL")
            conn.execute("PRAGMA foreign_keys = ON")
            schema.migrate(conn, migrations)
        except BaseException:
            conn.close()
            raise
        return cls(conn, path, True)

    def close(self) -> None:
        self.conn.close()

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        # IMMEDIATE takes the write lock up front: no surprise "busy" half-way through
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield self.conn
            self.conn.execute("COMMIT")
        except BaseException:
            if self.conn.in_transaction:
                try:
                    self.conn.execute("ROLLBACK")
                except sqlite3.Error:
                    pass  # the connection is closed by the caller after a failure anyway
            raise

    # --- writing ---------------------------------------------------------------------------

    def begin(self, setup: Mapping[str, Any], title: str, view: Mapping[str, Any], at: str) -> int:
        """A new game; any other unfinished game is abandoned (one game at a table at a time)."""
        with self._transaction() as db:
            db.execute("UPDATE games SET status = 'abandoned' WHERE status = 'playing'")
            cur = db.execute(
                "INSERT INTO games (game, title, setup, players, started_at, updated_at, status, "
                "phase, winners, scores) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    setup["game"],
                    title,
                    _dump(setup),
                    _dump(view["players"]),
                    at,
                    at,
                    "over" if view["over"] else "playing",
                    view["phase"],
                    _dump(view["winners"]),
                    _dump(view["scores"]),
                ),
            )
            if cur.lastrowid is None:  # never after an INSERT; said rather than stored as NULL
                raise sqlite3.IntegrityError("the new game got no id")
            return cur.lastrowid

    def append(
        self, game_id: int, seq: int, action: Mapping[str, Any], view: Mapping[str, Any], at: str, extras: Any = None
    ) -> None:
        """Action number `seq` of a game and the game's summary after it, in one commit;
        `extras` (what only a replay tells the records) with the action that ends a game,
        and the kept records brought up to date in the same commit."""
        over = bool(view["over"])
        with self._transaction() as db:
            was_over = db.execute("SELECT status = 'over' FROM games WHERE id = ?", (game_id,)).fetchone()
            changes = self.changes()
            db.execute(
                "INSERT INTO actions (game_id, seq, action, at) VALUES (?, ?, ?, ?)", (game_id, seq, _dump(action), at)
            )
            if not over:  # the game being played is the one that gets actions
                db.execute("UPDATE games SET status = 'abandoned' WHERE status = 'playing' AND id <> ?", (game_id,))
            cur = db.execute(
                "UPDATE games SET actions = ?, updated_at = ?, status = ?, phase = ?, winners = ?, "
                "scores = ?, ended_at = CASE WHEN ? THEN coalesce(ended_at, ?) END "
                "WHERE id = ? AND actions = ?",
                (
                    seq,
                    at,
                    "over" if over else "playing",
                    view["phase"],
                    _dump(view["winners"]),
                    _dump(view["scores"]),
                    over,
                    at,
                    game_id,
                    seq - 1,
                ),
            )
            if cur.rowcount != 1:
                raise sqlite3.IntegrityError(f"game {game_id} has no action {seq - 1} to follow")
            if over and extras is not None:
                db.execute(
                    "INSERT OR REPLACE INTO extras (game_id, actions, data) VALUES (?, ?, ?)",
                    (game_id, seq, json.dumps(extras, ensure_ascii=False)),
                )
            keeper = records_keeper()
            if over != bool(was_over and was_over[0]) and keeper is not None:
                keeper.after_end(self, game_id, over, changes)  # the records follow the results

    def changes(self) -> int | None:
        """How often the results or extras have changed (None: a journal without the count)."""
        row = self.conn.execute("SELECT value FROM meta WHERE key = 'results_changes'").fetchone()
        try:
            return int(row[0]) if row else None
        except (TypeError, ValueError):
            return None

    def set_status(self, game_id: int, status: str) -> None:
        with self._transaction() as db:
            if status == "playing":
                db.execute("UPDATE games SET status = 'abandoned' WHERE status = 'playing' AND id <> ?", (game_id,))
            db.execute("UPDATE games SET status = ? WHERE id = ? AND status <> 'over'", (status, game_id))

    def set_meta(self, key: str, value: str) -> None:
        with self._transaction() as db:
            db.execute(
                "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                (key, value),
            )

    # --- reading ---------------------------------------------------------------------------

    def meta(self, key: str) -> str | None:
        row = self.conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return rows.plain(row[0]) if row else None

    def summary(self, game_id: int) -> GameSummary | None:
        row = self.conn.execute(f"SELECT {_COLUMNS} FROM games WHERE id = ?", (game_id,)).fetchone()
        return _summary(row) if row else None

    def summaries(self, limit: int = -1, offset: int = 0) -> list[GameSummary]:
        """Every game (or a page of them), the most recently started first (an index's order)."""
        found = self.conn.execute(
            f"SELECT {_COLUMNS} FROM games ORDER BY started_at DESC, id DESC LIMIT ? OFFSET ?", (limit, offset)
        )
        return [_summary(row) for row in found]

    def count(self) -> int:
        return int(self.conn.execute("SELECT count(*) FROM games").fetchone()[0])

    def totals(self) -> list[PlayerTotal]:
        """Each player's record per game, from the results table (as history.player_totals)."""
        found = self.conn.execute(
            "SELECT name, game, max(title), count(*), sum(won), sum(score), max(score) FROM results "
            "GROUP BY game, name ORDER BY game, sum(won) DESC, sum(score) DESC, name"
        )
        return [PlayerTotal(*map(rows.plain, row)) for row in found]

    def results(self) -> list[tuple[int, str, str, int, str, int, int]]:
        """Each player of each finished game, the games in the order they were played and the
        players in seat order: (game id, game, started_at, actions, name, won, score). From
        the results table and an index: no JSON to read."""
        found = self.conn.execute(
            "SELECT r.game_id, r.game, g.started_at, g.actions, r.name, r.won, r.score "
            "FROM results AS r JOIN games AS g ON g.id = r.game_id "
            "ORDER BY g.started_at, g.id, r.rowid"
        )
        return [tuple(map(rows.plain, row)) for row in found]  # damaged text shown, never a fault

    def damaged_actions(self) -> set[int]:
        """The games with a stored action that is not a JSON object (cut, garbled, nested
        too deep), found by SQLite's own JSON check in one pass over the actions."""
        found = self.conn.execute(
            "SELECT DISTINCT game_id FROM actions WHERE "
            "CASE WHEN json_valid(action) THEN json_type(action) <> 'object' ELSE 1 END"
        )
        return {game_id for (game_id,) in found}

    def unfinished(self) -> GameSummary | None:
        """The game left in progress (the most recently played, if ever there were two)."""
        found = self.conn.execute(
            f"SELECT {_COLUMNS} FROM games WHERE status = 'playing' ORDER BY updated_at DESC, id DESC"
        )
        for row in found:  # a damaged one is set aside: it cannot be continued
            summary = _summary(row)
            if summary.damaged is None:
                return summary
        return None

    def latest(self) -> GameSummary | None:
        row = self.conn.execute(f"SELECT {_COLUMNS} FROM games ORDER BY id DESC LIMIT 1").fetchone()
        return _summary(row) if row else None

    def game(self, game_id: int) -> StoredGame | None:
        """A game's summary and every stored action, read in one snapshot; for a damaged
        game, the actions up to the first that cannot be read, and what is wrong."""
        with self._snapshot():
            summary = self.summary(game_id)
            if summary is None:
                return None
            found = self.conn.execute(
                "SELECT seq, action FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
            ).fetchall()
        actions: list[dict[str, Any]] = []
        problem = summary.damaged
        for number, (seq, text) in enumerate(found, start=1):
            try:
                if seq != number:
                    raise rows.Damaged(f"its action {number} is missing")
                actions.append(rows.action(text, number))
            except rows.Damaged as exc:
                problem = f"{problem}; {exc}" if problem else str(exc)
                break
        if problem is None and len(actions) != summary.actions:
            problem = f"it should have {summary.actions} actions but {len(actions)} are stored"
        return StoredGame(summary, actions, problem)

    @contextmanager
    def _snapshot(self) -> Iterator[None]:
        # a read transaction: a concurrent writer's commit lands wholly before or after it
        self.conn.execute("BEGIN")
        try:
            yield
        finally:
            self.conn.execute("COMMIT")
