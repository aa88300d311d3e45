"""Notice a USB stick being mounted, without polling: the kernel wakes a poll() on
/proc/self/mounts whenever the mount table changes (POLLPRI), and only then is it read again.

Sticks are looked for under /media (Raspberry Pi OS's desktop, and the udev rule `sudo make install-pi`
adds for Lite) and /run/media (other desktops); only mounts that can be written count.
"""

from __future__ import annotations

import os
import select
import threading
from collections.abc import Callable, Iterable
from pathlib import Path

ROOTS = (Path("/media"), Path("/run/media"))
MOUNTS = Path("/proc/self/mounts")


def _unescape(field: str) -> str:
    """Mount points in /proc/mounts escape space, tab, newline and backslash as octal."""
    return field.replace("\\040", " ").replace("\\011", "\t").replace("\\012", "\n").replace("\\134", "\\")


def stick_mounts(text: str, roots: Iterable[Path] = ROOTS) -> set[Path]:
    """Writable mounts strictly below one of `roots`."""
    found = set()
    for line in text.splitlines():
        parts = line.split()
        if len(parts) < 4:
            continue
        where = Path(_unescape(parts[1]))
        writable = "rw" in parts[3].split(",")
        if writable and any(root in where.parents for root in roots):
            found.add(where)
    return found


def sticks_now(roots: Iterable[Path] = ROOTS, mounts: Path = MOUNTS) -> set[Path]:
    """The sticks mounted now (none where the mount table cannot be read)."""
    try:
        return stick_mounts(mounts.read_text(errors="replace"), roots)
    except OSError:
        return set()


class StickWatcher:
    """Calls `on_new(path)` (from its own thread) for each stick mounted after `start()`, or
    after the moment `known` was read (`sticks_now`), given: the app reads it as its first
    frame is up, so a stick put in while the rest of it starts is offered too."""

    def __init__(self, on_new: Callable[[Path], None], roots: Iterable[Path] = ROOTS, mounts: Path = MOUNTS):
        self.on_new = on_new
        self.roots = tuple(roots)
        self.mounts = mounts
        self._stop_r, self._stop_w = os.pipe()
        self._thread = threading.Thread(target=self._run, daemon=True, name="usb-sticks")

    def start(self, known: set[Path] | None = None) -> StickWatcher:
        self._fd = os.open(self.mounts, os.O_RDONLY)
        self._known = stick_mounts(self._read(), self.roots) if known is None else set(known)
        self._thread.start()
        return self

    def _read(self) -> str:
        os.lseek(self._fd, 0, os.SEEK_SET)
        chunks = []
        while chunk := os.read(self._fd, 65536):
            chunks.append(chunk)
        return b"".join(chunks).decode("utf-8", "replace")

    def _run(self) -> None:
        poller = select.poll()
        poller.register(self._fd, select.POLLPRI | select.POLLERR)
        poller.register(self._stop_r, select.POLLIN)
        try:
            self._look()  # what came since `known` was read, before the watching began
            while True:
                events = dict(poller.poll())  # sleeps until the mount table changes or close()
                if self._stop_r in events:
                    return
                self._look()
        finally:
            os.close(self._fd)

    def _look(self) -> None:
        now = stick_mounts(self._read(), self.roots)
        for path in sorted(now - self._known):
            self.on_new(path)
        self._known = now

    def close(self) -> None:
        os.write(self._stop_w, b"x")
        self._thread.join(5)
        os.close(self._stop_r)
        os.close(self._stop_w)
