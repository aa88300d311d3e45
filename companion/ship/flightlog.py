"""The flight log: everything the judge received during each flight, kept so that
`cloud-companion judge FILE` replays a flight a table disputes.

One file per flight in the judge's input format (JSON Lines), named by the time it started, in
the user's data folder (`flights/`). Bounded: each file stops growing at `max_bytes`, and only
the newest `keep` flights are kept (1 MB x 100 by default; a flight is about 1.3 kB a second).
The log must never cost a game: a disk error stops this flight's log and nothing else.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path
from typing import TextIO

import platformdirs

from .records import format_record

log = logging.getLogger(__name__)

MAX_BYTES = 1_000_000
KEEP = 100


def default_folder() -> Path:
    return Path(platformdirs.user_data_dir("cloud-companion")) / "flights"


class FlightLog:
    def __init__(self, folder: Path | None = None, keep: int = KEEP, max_bytes: int = MAX_BYTES):
        self.folder = folder or default_folder()
        self.keep = keep
        self.max_bytes = max_bytes
        self.path: Path | None = None
        self._file: TextIO | None = None
        self._size = 0
        self.problem: str | None = None

    @property
    def recording(self) -> bool:
        return self._file is not None

    def start(self) -> Path | None:
        """A new file for a new flight (the one before is closed)."""
        self.close()
        if self.keep <= 0:
            return None
        stamp = time.strftime("%Y%m%d-%H%M%S")
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            path = self.folder / f"flight-{stamp}.jsonl"
            n = 1
            while path.exists():
                n += 1
                path = self.folder / f"flight-{stamp}-{n}.jsonl"
            self._file = open(path, "w", encoding="utf-8")
        except OSError as exc:
            self._fail(exc)
            return None
        self.path, self._size = path, 0
        self._prune()
        return path

    def record(self, t: int, key: str, value: str) -> None:
        if self._file is None:
            return
        line = format_record(t, key, value) + "\n"
        size = len(line.encode("utf-8"))  # the cap is on the file, which is UTF-8
        if self._size + size > self.max_bytes:
            self.close()  # full: the rest of this flight is not kept
            return
        try:
            self._file.write(line)
        except OSError as exc:
            self._fail(exc)
            return
        self._size += size

    def close(self) -> None:
        if self._file is not None:
            try:
                self._file.close()
            except OSError as exc:
                self.problem = str(exc)
            self._file = None

    def flights(self) -> list[Path]:
        """The kept flights, oldest first."""
        try:
            return sorted(self.folder.glob("flight-*.jsonl"), key=lambda p: (p.stat().st_mtime, p.name))
        except OSError:
            return []

    def _prune(self) -> None:
        for old in self.flights()[: -self.keep]:
            try:
                old.unlink()
            except OSError:
                pass

    def _fail(self, exc: OSError) -> None:
        self.problem = f"the flight log cannot be written: {exc.strerror or exc}"
        log.warning("%s", self.problem)
        if self._file is not None:
            try:
                self._file.close()
            except OSError:
                pass
        self._file = None
