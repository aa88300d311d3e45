"""Backups of the journal: a consistent copy while the app runs (SQLite's online backup API),
and putting one back (the current file kept aside first; nothing is ever deleted).

A backup is one self-contained SQLite file (no -wal beside it), written under a temporary name,
synced and renamed, so a stick pulled half-way never holds something that looks like a backup.
"""

from __future__ import annotations

import errno
import os
import sqlite3
import tempfile
import time
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from ..journal import schema
from ..journal.errors import JournalBusy, JournalError
from ..journal.journal import SIDE_FILES, default_path
from ..journal.lock import WriterLock, one_name, real_file
from ..journal.store import damage, is_sqlite_file
from ..whose import cannot_write, denied


class BackupError(Exception):
    """One sentence for the user: what went wrong and what to do."""


@dataclass(frozen=True)
class Copied:
    path: Path
    games: int


def _open_readonly(path: Path, lock: WriterLock | None = None) -> sqlite3.Connection:
    """A look that changes nothing beside the file: with no -wal there, nothing writes it
    (the writers' lock taken for the moment, when there is one to take), so SQLite is told it
    cannot change and makes no -wal and -shm of its own."""
    uri = f"file:{quote(str(path))}?mode=ro"
    idle = not Path(f"{real_file(path)}-wal").exists()
    if idle and (lock is None or lock.hold_if_free() or not lock.path.exists()
                 or not os.access(path.parent, os.W_OK)):
        uri += "&immutable=1"
    conn = sqlite3.connect(uri, uri=True, timeout=10)
    conn.execute("PRAGMA schema_version")  # opens the file for real
    return conn


def _why(exc: BaseException) -> str:
    """An OSError or SQLite error as the reason a person needs (not "No such file" for /proc)."""
    code = getattr(exc, "errno", None)
    if code == errno.EROFS:
        return "it is read-only"
    if code in (errno.EACCES, errno.EPERM):
        return "permission denied"
    if code == errno.ENOSPC:
        return "the disk is full"
    if code == errno.ENOENT:
        return "no file can be made there"
    return getattr(exc, "strerror", None) or str(exc)


def _writable(folder: Path, what: str) -> None:
    """BackupError unless files can be made in `folder` (tried, since a read-only stick or
    /proc says so only when asked)."""
    try:
        handle, probe = tempfile.mkstemp(dir=folder, prefix=".cloud-companion-", suffix=".probe")
    except OSError as exc:
        if denied(exc):  # on the Pi: the service user, not the person who typed the command
            raise BackupError(f"cannot write {what} in {folder}: {cannot_write(folder)}") from None
        raise BackupError(f"cannot write {what} in {folder}: {_why(exc)}") from None
    os.close(handle)
    with suppress(OSError):
        os.unlink(probe)


def _is_journal_file(path: Path) -> None:
    if not is_sqlite_file(path):
        raise BackupError(f"{path} is not a journal (it is not an SQLite database)")
    try:
        one_name(path)
    except JournalError as exc:
        raise BackupError(str(exc)) from None


def verify(path: Path) -> int:
    """The number of games in an intact journal file; BackupError if it is not one."""
    try:
        conn = _open_readonly(path)
        try:
            problem = damage(conn)
            if problem:
                raise BackupError(f"{path} is damaged ({problem})")
            found = schema.check(conn)
            if found == 0:
                raise BackupError(f"{path} is an empty database, not a journal")
            return conn.execute("SELECT count(*) FROM games").fetchone()[0]
        finally:
            conn.close()
    except schema.SchemaProblem as exc:
        raise BackupError(f"{path} is not a journal this version can use: {exc}") from None
    except sqlite3.Error as exc:
        raise BackupError(f"{path} cannot be read as a journal ({exc})") from None


def _copy(source_path: Path, target: Path, lock: WriterLock | None = None) -> None:
    """The online backup of `source_path` into `target` (a temporary name), as one file, synced."""
    source = _open_readonly(source_path, lock)
    try:
        dest = sqlite3.connect(target)
        try:
            source.backup(dest)  # one step: a single read snapshot, consistent while the app writes
            dest.execute("PRAGMA journal_mode = DELETE")  # a single file: readable from a stick as it is
            dest.commit()
        finally:
            dest.close()
    finally:
        source.close()
    with open(target, "rb") as f:
        os.fsync(f.fileno())


def _sync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def backup(journal: Path, folder: Path, clock=time.localtime) -> Copied:
    """Copy the journal into `folder` as journal-YYYYMMDD-HHMMSS.sqlite3; nothing is left
    beside the journal, and nothing but the copy in `folder`."""
    if journal.is_dir():
        raise BackupError(f"{journal} is a folder, not a journal file")
    if not journal.is_file():
        raise BackupError(f"there is no journal at {journal} to back up")
    _is_journal_file(journal)
    if not folder.is_dir():
        raise BackupError(f"{folder} is not a folder (is the USB stick mounted?)")
    _writable(folder, "the backup")
    name = time.strftime("journal-%Y%m%d-%H%M%S", clock())
    final = folder / f"{name}.sqlite3"
    n = 1
    while final.exists():
        n += 1
        final = folder / f"{name}-{n}.sqlite3"
    partial = final.with_name(final.name + ".partial")
    lock = WriterLock(journal)  # held only if free, for the moment of the copy (see _open_readonly)
    try:
        _copy(journal, partial, lock)
        lock.release()
        games = verify(partial)
        os.replace(partial, final)
        _sync_dir(folder)
    except BackupError:
        _remove(partial)
        raise
    except (sqlite3.Error, OSError) as exc:
        _remove(partial)
        if isinstance(exc, sqlite3.DatabaseError) and not isinstance(exc, sqlite3.OperationalError):
            raise BackupError(f"{journal} cannot be read as a journal ({exc})") from None
        raise BackupError(f"the backup to {folder} failed: {_why(exc)}") from None
    finally:
        lock.release()
    return Copied(final, games)


def _remove(path: Path) -> None:
    with suppress(OSError):  # a read-only or vanished stick: nothing there to remove anyway
        path.unlink(missing_ok=True)


def restore(backup_file: Path, journal: Path) -> tuple[Copied, Path | None]:
    """Put a backup in place of the journal; the current journal (with its -wal and -shm) is
    renamed journal.sqlite3.before-restore-YYYYMMDD-HHMMSS first. Refused while the app runs,
    onto a folder, or into a folder that is not there (only the default journal's own folder
    is made: a fresh machine has none yet)."""
    if not backup_file.is_file():
        raise BackupError(f"there is no backup file at {backup_file}")
    games = verify(backup_file)
    if journal.is_dir():
        raise BackupError(f"{journal} is a folder, not a journal file: give the journal file's path")
    try:
        one_name(journal)  # what it is otherwise does not matter: it is kept aside, never deleted
    except JournalError as exc:
        raise BackupError(str(exc)) from None
    if not journal.parent.is_dir():
        if journal != default_path():
            raise BackupError(f"there is no folder {journal.parent} to restore into")
        try:
            journal.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise BackupError(f"cannot make the folder {journal.parent}: {_why(exc)}") from None
    _writable(journal.parent, "the journal")
    lock = WriterLock(journal)
    try:
        lock.acquire()  # JournalBusy while the app (or any writer) has the journal
    except JournalBusy:
        raise
    except JournalError as exc:
        raise BackupError(str(exc)) from None
    except OSError as exc:
        raise BackupError(f"cannot restore into {journal.parent}: {_why(exc)}") from None
    partial = journal.with_name(journal.name + ".restoring")
    try:
        _copy(backup_file, partial)
        kept = None
        if journal.exists():
            kept = journal.with_name(f"{journal.name}.before-restore-{time.strftime('%Y%m%d-%H%M%S')}")
            for side in SIDE_FILES:
                if Path(f"{journal}{side}").exists():
                    os.replace(f"{journal}{side}", f"{kept}{side}")
        os.replace(partial, journal)
        _sync_dir(journal.parent)
    except (sqlite3.Error, OSError) as exc:
        _remove(partial)
        raise BackupError(f"the restore failed: {_why(exc)}") from None
    finally:
        lock.release()
    return Copied(journal, games), kept
