"""One writer per journal: an exclusive flock on a file beside the database.

The lock belongs to the database file itself, not to the name it was reached by: it sits
beside the file that symlinks lead to, and a journal file with a second name (a hard link) is
refused, since two names would give SQLite two write-ahead logs for one file and a second
writer its own lock (games were lost that way). The database file itself is never opened here:
closing another descriptor of it would drop SQLite's own locks on it.

The kernel drops the lock when its holder dies (crash, SIGKILL, power cut), so a stale lock can
never keep the app out. The file itself is left in place: deleting it would let a second
process lock a fresh file while a first still holds the old one.
"""

from __future__ import annotations

import fcntl
import os
import time
import weakref
from pathlib import Path

from .errors import JournalBusy, JournalError


class SharedFile(JournalError):
    """The journal file has more than one name (hard links): refused, for every name."""


def real_file(db_path: Path) -> Path:
    """The file a journal path stands for: every symlink followed."""
    return Path(os.path.realpath(db_path))


def one_name(db_path: Path) -> None:
    """SharedFile when the journal file has more than one hard link."""
    try:
        links = os.stat(db_path).st_nlink
    except OSError:
        return  # not there (yet): nothing shares it
    if links > 1:
        raise SharedFile(
            f"the journal {db_path} has {links} names (hard links), and two names would "
            f"let two writers lose each other's games; remove the other names (keep one "
            f"copy with cp) and start again"
        )


READER_GRACE_TRIES = 20  # 10 ms apart: a reader's look is over long before


class WriterLock:
    def __init__(self, db_path: Path):
        self.db_path = db_path
        self._fd: int | None = None
        self._closer: weakref.finalize[[int], WriterLock] | None = None  # a reader's hold ends with it, if not before

    @property
    def path(self) -> Path:
        """The lock file: beside the real database file, whatever name reached it."""
        real = real_file(self.db_path)
        return real.with_name(real.name + ".lock")

    def acquire(self) -> None:
        """Take the lock, or JournalBusy (SharedFile for a file with two names); OSError when
        the directory cannot be written."""
        if self._fd is not None:
            return
        one_name(self.db_path)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            for _ in range(READER_GRACE_TRIES):  # a command may hold it for the moment it reads
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except BlockingIOError:
                    time.sleep(0.01)
            else:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
            os.close(fd)
            who = f" (process {holder})" if holder.isdigit() else ""
            raise JournalBusy(
                f"another Cloud Companion{who} is already using the journal {self.db_path}; close it first"
            ) from None
        except BaseException:
            os.close(fd)
            raise
        try:
            one_name(self.db_path)  # a second name made while we waited
        except SharedFile:
            os.close(fd)
            raise
        # the holder's process id, only so that the refusal can name it
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        self._fd = fd

    def hold_if_free(self) -> bool:
        """Take the lock if it exists and nobody holds it, without creating anything (a reader
        keeping writers out for the moment it reads a file that has no write-ahead log)."""
        if self._fd is not None:
            return True
        try:
            fd = os.open(self.path, os.O_RDONLY)
        except OSError:
            return False
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            return False
        self._fd = fd
        self._closer = weakref.finalize(self, os.close, fd)  # a reader forgotten unclosed
        return True

    def release(self) -> None:
        if self._fd is not None:
            if self._closer is not None and self._closer.alive:
                self._closer()  # closes it, once
            else:
                os.close(self._fd)  # closing drops the flock
            self._fd, self._closer = None, None
