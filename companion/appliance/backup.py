"""Backups of the journal: a consistent copy while the app runs (SQLite's online backup API),
and putting one back (the current file kept aside first; nothing is ever deleted).

A backup is one self-contained SQLite file (no -wal beside it), written under a temporary name,
synced and renamed, so a stick pulled half-way never holds something that looks like a backup.
The settings file in use goes beside it under the same name (journal-....config.toml); a restore
puts the journal back always, and the settings when the backup holds them.
"""

from __future__ import annotations

import errno
import os
import sqlite3
import tempfile
import time
import tomllib
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from ..config import default_path as settings_default_path
from ..errors import CompanionError
from ..journal import schema
from ..journal.errors import JournalBusy, JournalError
from ..journal.journal import SIDE_FILES, default_path
from ..journal.lock import WriterLock, one_name, real_file
from ..journal.store import damage, is_sqlite_file
from ..whose import cannot_write, denied


class BackupError(CompanionError):
    """One sentence for the user: what went wrong and what to do."""


@dataclass(frozen=True)
class Copied:
    path: Path
    games: int
    settings: Path | None = None  # the settings copied (backup) or put back (restore), if any
    settings_kept: Path | None = None  # restore: the settings file it replaced, kept aside


SETTINGS_SUFFIX = ".config.toml"
MAX_SETTINGS_BYTES = 1 << 20  # a settings file is a few kB; anything larger is not one


def settings_beside(backup_file: Path) -> Path:
    """Where a backup's settings are: journal-X.sqlite3 -> journal-X.config.toml."""
    return backup_file.with_name(backup_file.name.removesuffix(".sqlite3") + SETTINGS_SUFFIX)


def _read_settings(path: Path) -> bytes:
    with open(path, "rb") as f:
        data = f.read(MAX_SETTINGS_BYTES + 1)
    if len(data) > MAX_SETTINGS_BYTES:
        raise BackupError(f"{path} is too large to be a settings file")
    try:
        tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise BackupError(f"{path} is not a settings file ({exc})") from None
    return data


def _write_synced(path: Path, data: bytes, mode: int = 0o644) -> None:
    partial = path.with_name(path.name + ".partial")
    try:
        with open(partial, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(partial, mode)
        os.replace(partial, path)
    except OSError:
        _remove(partial)
        raise


def _open_readonly(path: Path, lock: WriterLock | None = None) -> sqlite3.Connection:
    """A look that changes nothing beside the file: with no -wal there, nothing writes it
    (the writers' lock taken for the moment, when there is one to take), so SQLite is told it
    cannot change and makes no -wal and -shm of its own."""
    uri = f"file:{quote(str(path))}?mode=ro"
    idle = not Path(f"{real_file(path)}-wal").exists()
    if idle and (lock is None or lock.hold_if_free() or not lock.path.exists() or not os.access(path.parent, os.W_OK)):
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
            raise BackupError(f"cannot write {what} in {folder}: {cannot_write(folder, made=False)}") from None
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


def backup(journal: Path, folder: Path, clock=time.localtime, settings: Path | None = None) -> Copied:
    """Copy the journal into `folder` as journal-YYYYMMDD-HHMMSS.sqlite3 (and the settings file
    `settings`, when there is one, as journal-YYYYMMDD-HHMMSS.config.toml); nothing is left
    beside the journal, and nothing but the copies in `folder`."""
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
    while final.exists() or settings_beside(final).exists():
        n += 1
        final = folder / f"{name}-{n}.sqlite3"
    settings_data = None
    if settings is not None and settings.is_file():
        try:
            settings_data = _read_settings(settings)
        except OSError as exc:
            raise BackupError(f"cannot read the settings {settings}: {_why(exc)}") from None
    partial = final.with_name(final.name + ".partial")
    lock = WriterLock(journal)  # held only if free, for the moment of the copy (see _open_readonly)
    try:
        _copy(journal, partial, lock)
        lock.release()
        games = verify(partial)
        if settings_data is not None:  # first: a journal copy in place is a whole backup
            _write_synced(settings_beside(final), settings_data)
        os.replace(partial, final)
        _sync_dir(folder)
    except BackupError:
        _remove(partial)
        raise
    except (sqlite3.Error, OSError) as exc:
        _remove(partial)
        _remove(settings_beside(final))
        if isinstance(exc, sqlite3.DatabaseError) and not isinstance(exc, sqlite3.OperationalError):
            raise BackupError(f"{journal} cannot be read as a journal ({exc})") from None
        raise BackupError(f"the backup to {folder} failed: {_why(exc)}") from None
    finally:
        lock.release()
    return Copied(final, games, settings_beside(final) if settings_data is not None else None)


def _remove(path: Path) -> None:
    with suppress(OSError):  # a read-only or vanished stick: nothing there to remove anyway
        path.unlink(missing_ok=True)


def restore(backup_file: Path, journal: Path, settings: Path | None = None) -> tuple[Copied, Path | None]:
    """Put a backup in place of the journal; the current journal (with its -wal and -shm) is
    renamed journal.sqlite3.before-restore-YYYYMMDD-HHMMSS first. Refused while the app runs,
    onto a folder, or into a folder that is not there (only the default journal's own folder
    is made: a fresh machine has none yet). With `settings`, the backup's settings (if it holds
    any) go there too, the current file kept aside the same way."""
    if not backup_file.is_file():
        raise BackupError(f"there is no backup file at {backup_file}")
    games = verify(backup_file)
    saved = settings_beside(backup_file)
    settings_data = None
    if settings is not None and saved.is_file():
        try:
            settings_data = _read_settings(saved)  # checked before anything changes
        except OSError as exc:
            raise BackupError(f"cannot read the settings {saved}: {_why(exc)}") from None
        if settings.is_dir():
            raise BackupError(f"{settings} is a folder, not a settings file")
        if not settings.parent.is_dir():
            if settings != settings_default_path():  # a fresh machine has no settings folder yet
                raise BackupError(f"there is no folder {settings.parent} to put the settings back into")
            try:
                settings.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise BackupError(f"cannot make the folder {settings.parent}: {_why(exc)}") from None
        _writable(settings.parent, "the settings")
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
    if settings_data is None:
        return Copied(journal, games), kept
    assert settings is not None  # the backup's settings are read only when there is somewhere to put them
    try:
        settings_kept = None
        if settings.exists():
            settings_kept = settings.with_name(f"{settings.name}.before-restore-{time.strftime('%Y%m%d-%H%M%S')}")
            os.replace(settings, settings_kept)
        before = settings_kept.stat() if settings_kept else None
        _write_synced(settings, settings_data, mode=before.st_mode & 0o777 if before else 0o644)
        if before is not None and os.geteuid() == 0:  # restored by root: the app still owns its settings
            os.chown(settings, before.st_uid, before.st_gid)
        _sync_dir(settings.parent)
    except OSError as exc:
        raise BackupError(f"the games are restored, but not the settings: {_why(exc)}") from None
    return Copied(journal, games, settings, settings_kept), kept
