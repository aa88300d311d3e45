"""Backups of the journal: a consistent copy while the app runs (SQLite's online backup API),
and putting one back (the current file kept aside first; nothing is ever deleted).

A backup is one self-contained SQLite file (no -wal beside it), written under a temporary name,
synced and renamed, so a stick pulled half-way never holds something that looks like a backup.
"""

from __future__ import annotations

import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from ..journal import schema
from ..journal.journal import SIDE_FILES
from ..journal.lock import WriterLock
from ..journal.store import damage


class BackupError(Exception):
    """One sentence for the user: what went wrong and what to do."""


@dataclass(frozen=True)
class Copied:
    path: Path
    games: int


def _open_readonly(path: Path) -> sqlite3.Connection:
    uri = f"file:{quote(str(path))}?mode=ro"
    if not Path(f"{path}-wal").exists() and not os.access(path.parent, os.W_OK):
        uri += "&immutable=1"  # nothing is writing it, and SQLite could not make its -shm here
    conn = sqlite3.connect(uri, uri=True, timeout=10)
    conn.execute("PRAGMA schema_version")  # opens the file for real
    return conn


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


def _copy(source_path: Path, target: Path) -> None:
    """The online backup of `source_path` into `target` (a temporary name), as one file, synced."""
    source = _open_readonly(source_path)
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
    """Copy the journal into `folder` as journal-YYYYMMDD-HHMMSS.sqlite3."""
    if not journal.is_file():
        raise BackupError(f"there is no journal at {journal} to back up")
    if not folder.is_dir():
        raise BackupError(f"{folder} is not a folder (is the USB stick mounted?)")
    name = time.strftime("journal-%Y%m%d-%H%M%S", clock())
    final = folder / f"{name}.sqlite3"
    n = 1
    while final.exists():
        n += 1
        final = folder / f"{name}-{n}.sqlite3"
    partial = final.with_name(final.name + ".partial")
    try:
        _copy(journal, partial)
        games = verify(partial)
        os.replace(partial, final)
        _sync_dir(folder)
    except BackupError:
        partial.unlink(missing_ok=True)
        raise
    except (sqlite3.Error, OSError) as exc:
        partial.unlink(missing_ok=True)
        why = getattr(exc, "strerror", None) or str(exc)
        raise BackupError(f"the backup to {folder} failed: {why}") from None
    return Copied(final, games)


def restore(backup_file: Path, journal: Path) -> tuple[Copied, Path | None]:
    """Put a backup in place of the journal; the current journal (with its -wal and -shm) is
    renamed journal.sqlite3.before-restore-YYYYMMDD-HHMMSS first. Refused while the app runs."""
    if not backup_file.is_file():
        raise BackupError(f"there is no backup file at {backup_file}")
    games = verify(backup_file)
    journal.parent.mkdir(parents=True, exist_ok=True)
    lock = WriterLock(journal)
    lock.acquire()  # JournalBusy while the app (or any writer) has the journal
    try:
        partial = journal.with_name(journal.name + ".restoring")
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
        journal.with_name(journal.name + ".restoring").unlink(missing_ok=True)
        raise BackupError(f"the restore failed: {getattr(exc, 'strerror', None) or exc}") from None
    finally:
        lock.release()
    return Copied(journal, games), kept
