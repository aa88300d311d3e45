"""The durable game journal: every accepted action is on the disk before the table sees it.

Games are stored as their setup and every action in order (undo and redo included), and are
rebuilt by replaying those actions through the rules core. When the disk cannot be written
(read-only, full, failing) the game goes on: the unsaved steps wait here, in order, and are
written as soon as writing works again; `problem` says why meanwhile.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NamedTuple

import platformdirs

from .. import APP_NAME
from ..replay import jsonl, to_jsonl
from ..rules import Match, RulesError, SetupError
from . import store as sqlite_store
from .errors import CannotRebuild, JournalError, NotAJournal, NotUpgraded, UnusableFile
from .history import GameSummary, PlayerTotal
from .hooks import records_keeper
from .lock import WriterLock, one_name, real_file
from .store import Store, StoredGame

FILE_NAME = "journal.sqlite3"
SIDE_FILES = ("", "-wal", "-shm")  # SQLite keeps a WAL database in up to three files


def default_path() -> Path:
    return Path(platformdirs.user_data_dir(APP_NAME)) / FILE_NAME


def utc_now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


@dataclass
class GameRef:
    """A game the journal writes to: its id once stored, and how far it is stored."""

    id: int | None = None
    accepted: int = 0  # actions handed to the journal
    saved: int = 0  # of those, durable on the disk (1..saved)
    started: str = ""  # when the game began, as stored: the seed of the app's dice


@dataclass(frozen=True)
class ResumeOffer:
    game: GameSummary
    automatic: bool  # the last run ended in a crash or power cut: resume without asking
    screen: str | None  # the screen that run last showed (see Journal.note_screen)


class Resumed(NamedTuple):
    ref: GameRef
    match: Match


def rebuild(setup: Mapping[str, Any], actions: Sequence[Mapping[str, Any]], game_id: Any = "?") -> Match:
    """A stored game replayed through the rules core."""
    try:
        match = Match.start(setup)
    except SetupError as exc:
        raise CannotRebuild(f"game {game_id} cannot be rebuilt: its setup is refused ({exc})") from None
    for number, action in enumerate(actions, start=1):
        try:
            match = match.apply(action)
        except RulesError as exc:
            raise CannotRebuild(
                f"game {game_id} cannot be rebuilt: action {number} no longer applies ({exc.reason})"
            ) from None
    return match


def _storable(game_id: int) -> bool:
    """Whether a number can be a game's id at all (SQLite's integers are 64-bit): a longer one
    names no game, rather than overflowing."""
    return isinstance(game_id, int) and -(2**63) <= game_id < 2**63


# --- writes, kept in order until the disk takes them -----------------------------------------


@dataclass
class _Begin:
    ref: GameRef
    setup: dict[str, Any]
    title: str
    view: dict[str, Any]
    at: str

    def run(self, db: Store) -> None:
        self.ref.id = db.begin(self.setup, self.title, self.view, self.at)


@dataclass
class _Append:
    ref: GameRef
    seq: int
    action: dict[str, Any]
    view: dict[str, Any]
    at: str
    extras: Any = None

    def run(self, db: Store) -> None:
        assert self.ref.id is not None  # its game's _Begin ran first: the steps wait in order
        db.append(self.ref.id, self.seq, self.action, self.view, self.at, self.extras)
        self.ref.saved = self.seq


@dataclass
class _Status:
    ref: GameRef
    status: str

    def run(self, db: Store) -> None:
        assert self.ref.id is not None  # its game's _Begin ran first: the steps wait in order
        db.set_status(self.ref.id, self.status)


def _why(exc: BaseException) -> str:
    code = getattr(exc, "sqlite_errorcode", None)
    primary = code & 0xFF if code is not None else None
    if primary == sqlite3.SQLITE_READONLY:
        return "the disk or the file is read-only"
    if primary == sqlite3.SQLITE_FULL:
        return "the disk is full"
    if primary == sqlite3.SQLITE_CANTOPEN:
        return "the file cannot be opened or created"
    if primary == sqlite3.SQLITE_IOERR:
        return "the disk reported an error"
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror.lower()
    return str(exc)


class Journal:
    """Open with Journal.open (the app, one writer) or Journal.read (commands that only look).

    What it raises, all JournalErrors (and so CompanionErrors), each one sentence for a person:
    JournalBusy when another instance writes to the file; NotAJournal for a path that is a
    folder, missing (reading) or another kind of file; UnusableFile (NotUpgraded among them)
    for a damaged, foreign or newer journal, which opening for writing sets aside and replaces
    instead (said in `messages`); CannotRebuild for a stored game the rules no longer replay;
    JournalError for a write through a journal opened for reading. A disk that cannot be
    written raises nothing: the steps wait in memory and `problem` says why.
    """

    def __init__(
        self,
        path: Path,
        *,
        clock: Callable[[], str] = utc_now,
        connect: sqlite_store.Connect = sqlite_store.connect,
        writer: bool = True,
    ):
        self.path = Path(path)
        self.clock = clock
        self.writer = writer
        self._connect = connect
        self._lock = WriterLock(self.path)
        self._db: Store | None = None  # the writable connection, when writing works
        self._reader: Store | None = None  # a read-only one, for looking while it does not
        self._pending: list[_Begin | _Append | _Status] = []
        self._marked = False
        self.messages: list[str] = []  # what opening had to do (a file set aside)
        self.problem: str | None = None  # why recent steps are not saved yet, while they are not
        self.problem_cause: str | None = None  # the same without what happens meanwhile
        self.crashed = False  # the previous writer did not close: crash or power cut
        # the whole-file check runs in the background (it grows with the history); what it found
        self.damage: str | None = None
        self.on_damage: Callable[[str], None] | None = None  # called from the checking thread
        self.check_thread: threading.Thread | None = None
        self._check_conn: sqlite3.Connection | None = None  # the check's own, while it reads

    @classmethod
    def open(cls, path: Path | str | None = None, **options: Any) -> Journal:
        """The app's journal; JournalBusy when another instance writes to it.

        Never fails for the disk's sake: when it cannot be written, `problem` says so and the
        journal keeps the game in memory until it can. A path given (rather than the default)
        must be a journal or nothing yet: a folder or another kind of file is NotAJournal,
        and left as it is; only a damaged journal is kept aside.
        """
        journal = cls(Path(path) if path else default_path(), writer=True, **options)
        if path is not None:
            journal._check_given_path(must_exist=False)
        journal._open_writer(first=True)
        if journal._db is None:
            journal._note_crash_from(journal._reading())
        elif not journal._flag.exists():
            journal.check_thread = threading.Thread(target=journal._check_whole_file, daemon=True, name="journal-check")
            journal.check_thread.start()
        return journal

    @property
    def _flag(self) -> Path:
        """Left by a background check that found damage: the next open checks the whole file
        first, and sets it aside if the damage is still there."""
        return self.path.with_name(self.path.name + ".damaged")

    def _check_whole_file(self) -> None:
        """The full integrity check, on its own read-only connection, off the app's thread
        (SQLite lets go of Python's lock while it reads, so the screen never waits for it)."""
        try:
            conn = self._check_conn = self._connect(self.path, True)
            try:
                problem = sqlite_store.damage(conn)
            finally:
                self._check_conn = None
                conn.close()
        except sqlite3.DatabaseError as exc:
            problem = str(exc) if sqlite_store.is_damage(exc) else None
        except (sqlite3.Error, OSError):
            problem = None  # could not look (the file moved, the disk went): nothing learnt
        if problem is None:
            return
        self.damage = (
            f"The journal {self.path} is damaged ({problem}). Back it up now; at the next "
            f"start it is kept aside and a new journal is started."
        )
        try:
            self._flag.write_text(problem + "\n")
        except OSError:
            pass
        if self.on_damage is not None:
            self.on_damage(self.damage)

    @classmethod
    def read(cls, path: Path | str | None = None, **options: Any) -> Journal:
        """A look at the journal that writes nothing, beside a running app if need be: it
        creates, moves and changes no file.

        UnusableFile when the file cannot be read as a journal; NotAJournal for a path given
        that is not one (missing included). At the default path, a missing or empty file is a
        journal with no games yet (a fresh machine; the power went during the first start).
        """
        journal = cls(Path(path) if path else default_path(), writer=False, **options)
        if path is not None:
            journal._check_given_path(must_exist=True)
        elif journal.path.is_dir():
            raise NotAJournal(f"{journal.path} is a folder, not a journal file")
        if not journal.path.exists() or journal.path.stat().st_size == 0:
            return journal
        one_name(journal.path)  # SharedFile: two names, two write-ahead logs; which is true?
        connect = journal._connect
        real = real_file(journal.path)  # SQLite keeps the -wal beside the file symlinks lead to
        if connect is sqlite_store.connect and not Path(f"{real}-wal").exists():
            # no write-ahead log: no writer is at work. Keep writers out while we look (a
            # starting app waits for that, see lock.py) and read the file as it is: SQLite
            # then makes no -wal and -shm files. Without a lock file no app wrote here.
            lock_file_there = journal._lock.path.exists()
            if journal._lock.hold_if_free() or not lock_file_there:
                connect = sqlite_store.connect_unchanging
        try:
            journal._reader = Store.open(journal.path, writable=False, connect=connect, full_check=False)
        except NotUpgraded as exc:
            journal._lock.release()
            raise NotUpgraded(f"the journal {journal.path} cannot be read yet: {exc}") from None
        except UnusableFile as exc:
            journal._lock.release()
            raise UnusableFile(
                f"the journal {journal.path} cannot be read: {exc}. At its next start "
                f"the app keeps this file aside, as it is, and starts a new journal."
            ) from None
        except (sqlite3.Error, OSError) as exc:
            journal._lock.release()
            raise JournalError(f"the journal {journal.path} cannot be read: {_why(exc)}") from None
        return journal

    def _check_given_path(self, must_exist: bool) -> None:
        """NotAJournal unless the path given is a journal file, or (for a writer) nothing yet
        or an empty file (both become a new journal)."""
        path = self.path
        if path.is_dir():
            raise NotAJournal(f"{path} is a folder, not a journal file")
        if not path.exists():
            if must_exist:
                raise NotAJournal(f"there is no journal at {path}")
            return
        if path.stat().st_size and not sqlite_store.is_sqlite_file(path):
            raise NotAJournal(f"{path} is not a journal (it is not an SQLite database); it was left as it is")

    # --- opening ------------------------------------------------------------------------------

    def _open_writer(self, first: bool = False) -> bool:
        """Lock, check and open the file for writing; False (and `problem`) when it cannot be.

        JournalBusy only on the first try: later, another instance that started while this one
        could not write is one more reason to wait.
        """
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._lock.acquire()
            self._db = self._open_checked()
            if not self._marked:
                self._note_crash_from(self._db)
                # "running" stays 1 until close(): finding it set means the last run was cut off
                self._db.set_meta("running", "1")
                self._marked = True
        except JournalError as exc:  # busy, or the file has a second name
            self._drop_writer()
            self._lock.release()
            if first:
                raise
            self.problem_cause = f"cannot save: {exc}"
            self.problem = f"{self.problem_cause}. The game goes on and is saved as soon as it can be."
            return False
        except (sqlite3.Error, OSError) as exc:
            self._drop_writer()
            self.problem = self._cannot_save(exc)
            return False
        if self._reader:
            self._reader.close()
            self._reader = None
        return True

    def _open_checked(self) -> Store:
        flagged = self._flag.exists()
        try:
            store = Store.open(self.path, writable=True, connect=self._connect, full_check=flagged)
            if flagged:  # checked whole and found intact after all
                self._flag.unlink(missing_ok=True)
            return store
        except UnusableFile as exc:
            self._flag.unlink(missing_ok=True)
            kept = self._set_aside()
            self.messages.append(
                f"The journal {self.path} could not be used: {exc}. It was kept "
                f"as {kept.name} and a new journal was started."
            )
            return Store.open(self.path, writable=True, connect=self._connect)

    def _set_aside(self) -> Path:
        """Rename the file (with its -wal and -shm) aside with a timestamp; nothing is deleted.
        Through a symlink, the file it leads to goes aside and the symlink stays."""
        real = real_file(self.path)
        stamp = time.strftime("%Y%m%d-%H%M%S")
        base = real.with_name(f"{real.name}.broken-{stamp}")
        n = 1
        while any(Path(f"{base}{side}").exists() for side in SIDE_FILES):
            n += 1
            base = real.with_name(f"{real.name}.broken-{stamp}-{n}")
        for side in SIDE_FILES:
            source = Path(f"{real}{side}")
            if source.exists():
                os.replace(source, Path(f"{base}{side}"))
        return base

    def _note_crash_from(self, db: Store | None) -> None:
        if db is not None and not self._marked:
            try:
                self.crashed = db.meta("running") == "1"
            except sqlite3.Error:
                pass

    def _cannot_save(self, exc: BaseException) -> str:
        self.problem_cause = f"cannot save to {self.path}: {_why(exc)}"
        return f"{self.problem_cause}. The game goes on and is saved as soon as writing works again."

    def _drop_writer(self) -> None:
        if self._db is not None:
            try:
                self._db.close()
            except sqlite3.Error:
                pass
            self._db = None

    def _reading(self) -> Store | None:
        """The store to read from: the writer, or a read-only look when writing fails."""
        if self._db is not None:
            return self._db
        if self._reader is None and self.path.exists():
            try:
                self._reader = Store.open(self.path, writable=False, connect=self._connect)
            except (sqlite3.Error, OSError, JournalError):
                return None
        return self._reader

    # --- writing ------------------------------------------------------------------------------

    @property
    def unsaved(self) -> int:
        """Steps accepted but not yet on the disk."""
        return len(self._pending)

    @property
    def unsaved_actions(self) -> int:
        """Actions accepted but not yet on the disk (a game's setup is not one)."""
        return sum(isinstance(step, _Append) for step in self._pending)

    @property
    def unsaved_setup(self) -> bool:
        """A game's start itself is not on the disk yet."""
        return any(isinstance(step, _Begin) for step in self._pending)

    def begin(self, match: Match) -> GameRef:
        """Record a new game (its setup); any unfinished game is left as abandoned."""
        ref = GameRef(started=self.clock())
        self._write(_Begin(ref, dict(match.setup), match.rules.title, match.view, ref.started))
        return ref

    def seed(self, ref: GameRef) -> str:
        """The seed of the app's dice for this game: its start as the journal keeps it, so a
        resumed game rolls the same dice at the same point as before the restart."""
        return ref.started

    def append(self, ref: GameRef, action: Mapping[str, Any], after: Match) -> bool:
        """Record an accepted action and the game as it stands after it.

        True when it (and everything before it) is durable on return; False when it waits in
        memory because the disk cannot be written (see `problem`).
        """
        ref.accepted += 1
        extras = None
        keeper = records_keeper()
        if after.view["over"] and keeper is not None:  # worked out once, as the game ends
            try:
                extras = keeper.extras(after.setup["game"], after)
            except Exception:  # never a reason not to save the action: a replay works it out
                extras = None
        return self._write(_Append(ref, ref.accepted, dict(action), after.view, self.clock(), extras))

    def abandon(self, game: GameRef | int) -> bool:
        """The table stopped this game for good, or chose not to resume it.

        It stays in the history, unfinished; a finished game is left as it is.
        """
        ref = game if isinstance(game, GameRef) else GameRef(game)
        return self._write(_Status(ref, "abandoned"))

    def retry(self) -> bool:
        """Try again to save what waits; True when nothing waits any more."""
        return self._flush()

    def _write(self, step: _Begin | _Append | _Status) -> bool:
        if not self.writer:
            raise JournalError("this journal was opened for reading only")
        self._pending.append(step)
        return self._flush()

    def _flush(self) -> bool:
        if not self.writer:
            return True
        if self._db is None and not self._open_writer():
            return False
        db = self._db
        assert db is not None  # _open_writer sets it when it succeeds
        try:
            while self._pending:
                self._pending[0].run(db)
                self._pending.pop(0)
        except (sqlite3.Error, OSError) as exc:
            # reopened on the next try: a fresh connection recovers from whatever this was
            self._drop_writer()
            self.problem = self._cannot_save(exc)
            return False
        self.problem = None
        return True

    def note_screen(self, name: str) -> None:
        """Remember which screen is showing, so a crash can bring the table straight back."""
        if self._db is None:
            return
        try:
            self._db.set_meta("screen", name)
        except sqlite3.Error:
            pass  # a hint only: never worth a message

    def close(self) -> bool:
        """Save what waits and let go of the file; False if some steps could not be saved."""
        self._stop_check()
        saved = self._flush()
        if self._db is not None and saved:
            try:
                self._db.set_meta("running", "0")
            except sqlite3.Error:
                pass
        self._drop_writer()
        if self._reader:
            self._reader.close()
            self._reader = None
        self._lock.release()
        return saved

    def _stop_check(self) -> None:
        """Cut a whole-file check short: closing must not wait for it, and the writer's
        connection must close last (SQLite then removes the write-ahead log)."""
        thread, conn = self.check_thread, self._check_conn
        if thread is None or not thread.is_alive():
            return
        if conn is not None:
            conn.interrupt()  # the check then ends with "interrupted": nothing learnt
        thread.join(timeout=5)

    def __enter__(self) -> Journal:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- reading ------------------------------------------------------------------------------

    def games(self, limit: int | None = None, offset: int = 0) -> list[GameSummary]:
        """Every game, the most recently started first; or `limit` of them from `offset` (a page)."""
        db = self._reading()
        return db.summaries(-1 if limit is None else limit, offset) if db else []

    def checked_games(self) -> list[GameSummary]:
        """Every game (as `games`), each whose stored actions are not all JSON objects
        marked damaged too: what the history command lists."""
        db = self._reading()
        if db is None:
            return []
        try:
            bad = db.damaged_actions()
        except sqlite3.DatabaseError as exc:
            raise JournalError(f"the games cannot be read from {self.path}: {_why(exc)}") from None
        return [
            replace(g, damaged="an action is cut or garbled") if g.id in bad and not g.damaged else g
            for g in db.summaries()
        ]

    def count_games(self) -> int:
        db = self._reading()
        return db.count() if db else 0

    def game(self, game_id: int) -> GameSummary | None:
        db = self._reading()
        return db.summary(game_id) if db and _storable(game_id) else None

    def latest(self) -> GameSummary | None:
        db = self._reading()
        return db.latest() if db else None

    def unfinished(self) -> GameSummary | None:
        db = self._reading()
        return db.unfinished() if db else None

    def totals(self) -> list[PlayerTotal]:
        """Each player's totals per game over the finished games (history.player_totals)."""
        db = self._reading()
        return db.totals() if db else []

    def store(self, writing: bool = False) -> Store | None:
        """The store underneath (the records read and keep their own tables through it):
        with `writing`, only the writer's, else None."""
        if writing:
            return self._db if self.writer else None
        return self._reading()

    def results(self) -> list[tuple[int, str, str, int, str, int, int]]:
        """Each player of each finished game, in the order played (Store.results)."""
        db = self._reading()
        return db.results() if db else []

    def offer(self) -> ResumeOffer | None:
        """The unfinished game to offer at start, or None (a damaged one is never offered)."""
        db = self._reading()
        game = db.unfinished() if db is not None else None
        if db is None or game is None:
            return None
        try:
            self.rebuild(game.id)  # what resuming will do: a game that cannot come back is not offered
        except JournalError:
            return None
        return ResumeOffer(game, self.crashed, db.meta("screen"))

    def readable(self, game_id: int) -> StoredGame:
        """A game as far as it reads: its summary, the actions up to the first damaged one,
        and what is damaged (None when the game is whole)."""
        db = self._reading()
        try:
            found = db.game(game_id) if db and _storable(game_id) else None
        except sqlite3.DatabaseError as exc:  # a damaged page among the actions
            raise JournalError(f"game {game_id} cannot be read from {self.path}: {_why(exc)}") from None
        if found is None:
            raise JournalError(f"there is no game {game_id} in {self.path}")
        return found

    def stored(self, game_id: int) -> tuple[GameSummary, list[dict[str, Any]]]:
        """A game's summary and every stored action (undo and redo included); JournalError
        when the game is damaged."""
        summary, actions, damaged = self.readable(game_id)
        if damaged:
            raise JournalError(f"game {game_id} in {self.path} is damaged: {damaged}")
        return summary, actions

    def rebuild(self, game_id: int) -> Match:
        summary, actions = self.stored(game_id)
        return rebuild(summary.setup, actions, game_id)

    def resume(self, game_id: int | None = None) -> Resumed | None:
        """Rebuild a game to carry on with it: by default the unfinished one (None if none)."""
        if game_id is None:
            game = self.unfinished()
            if game is None:
                return None
            game_id = game.id
        summary, actions = self.stored(game_id)
        match = rebuild(summary.setup, actions, game_id)
        ref = GameRef(summary.id, accepted=len(actions), saved=len(actions), started=summary.started_at)
        if self.writer and summary.status == "abandoned":
            self._write(_Status(ref, "playing"))
        return Resumed(ref, match)

    def export(self, game_id: int, compact: bool = False) -> str:
        """A game in the replay format: the setup and every stored action, one per line.

        `compact` keeps only the actions that stand (no undo, redo or what they took back).
        """
        summary, actions = self.stored(game_id)
        if compact:
            return to_jsonl(rebuild(summary.setup, actions, game_id))
        return jsonl(summary.setup, actions)

    def export_readable(self, game_id: int, compact: bool = False) -> tuple[str, str | None]:
        """(text, damage): `export` of a game as far as it reads. A damaged game gives its
        setup and the actions before the first damaged one (text "" when even its setup is
        unreadable), and what is damaged; JournalError when nothing of it can be read."""
        summary, actions, damaged = self.readable(game_id)
        if damaged is None:
            return self.export(game_id, compact), None
        if not summary.setup.get("game"):  # the setup itself is unreadable: nothing to replay
            return "", damaged
        if compact:
            try:
                return to_jsonl(rebuild(summary.setup, actions, game_id)), damaged
            except CannotRebuild as exc:
                return "", f"{damaged}; {exc}"
        return jsonl(summary.setup, actions), damaged
