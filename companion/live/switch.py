"""The live page switched off: its unit's wait, before anything else is loaded.

At boot the page's unit starts beside the app's first frame, on a Pi whose core runs Python
many times slower than a desktop's, and the page is off unless the family switched it on. So
the wait for `live = true` uses the standard library alone: the settings' bytes through
tomllib, and one inotify watch on their folder through ctypes (the C library is already
loaded, so nothing is searched for; inotify_simple's search runs `ldconfig -p`). No asyncio,
logging or settings module: together they cost that start several times as much.
"""

from __future__ import annotations

import ctypes
import os
import select
import signal
import sys
from pathlib import Path

from ..settings_file import parse, read_small_file

LOOK_EVERY_S = 60  # a look at the settings even without a word from the kernel
# inotify(7): what a write, an atomic rename or a folder made or removed on the way sends
IN_MODIFY, IN_CLOSE_WRITE, IN_MOVED_FROM, IN_MOVED_TO = 0x2, 0x8, 0x40, 0x80
IN_CREATE, IN_DELETE, IN_DELETE_SELF, IN_MOVE_SELF = 0x100, 0x200, 0x400, 0x800
WATCHED = (
    IN_MODIFY | IN_CLOSE_WRITE | IN_MOVED_FROM | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_DELETE_SELF | IN_MOVE_SELF
)
SWITCHED_OFF = "the live page is switched off in the settings: it starts when it is switched on"


def switched_on(config: Path) -> bool:
    """The settings' `live` as `config.load` reads it: on only in a settings file whose `live`
    is true; a missing, unreadable or broken file, or any other value, is the default (off)."""
    try:
        return parse(read_small_file(config)).get("live") is True
    except (OSError, ValueError):  # unreadable, no settings file, not UTF-8, not TOML
        return False


def _stop(signum: int, frame: object) -> None:
    # poll() is retried after a handler that returns (PEP 475): raising is what ends the wait
    raise InterruptedError(f"signal {signum} came while waiting")


class _FolderWatch:
    """One inotify watch on the settings' folder, or on its nearest existing parent while it
    is not there yet. Made anew after every wake, so a folder made or moved is followed."""

    def __init__(self, config: Path):
        self._libc = ctypes.CDLL(None, use_errno=True)
        self.fd = self._libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
        if self.fd < 0:
            raise OSError(ctypes.get_errno(), "cannot watch the settings' folder")
        folder = config.parent
        while not folder.is_dir() and folder != folder.parent:
            folder = folder.parent
        # a folder that may not be looked into gives no word: the look each minute still comes
        self._libc.inotify_add_watch(self.fd, os.fsencode(folder), WATCHED)

    def wait(self, timeout: float) -> None:
        """Until something changed in the folder (or the timeout); what changed is re-read, not told."""
        poller = select.poll()
        poller.register(self.fd, select.POLLIN)
        if poller.poll(timeout * 1000):
            try:
                while os.read(self.fd, 4096):
                    pass
            except BlockingIOError:
                pass

    def close(self) -> None:
        os.close(self.fd)


def until_switched_on(config: Path, say: bool = True) -> bool:
    """Wait, holding nothing but an inotify watch, until the settings' switch is on (True), or
    SIGTERM or SIGINT came (False). `say`: a line on stderr that it waits, once it can be stopped."""
    before = {signum: signal.signal(signum, _stop) for signum in (signal.SIGTERM, signal.SIGINT)}
    watch = None
    try:
        # said only now: a SIGTERM from here on ends the wait cleanly (the tests and systemd rely on it)
        if say:
            print(f"cloud-companion: {SWITCHED_OFF}", file=sys.stderr, flush=True)
        while True:
            watch = _FolderWatch(config)  # watching before looking: no change falls between
            if switched_on(config):
                return True
            watch.wait(LOOK_EVERY_S)
            watch.close()
            watch = None
    except InterruptedError:  # SIGTERM or SIGINT
        return False
    finally:
        for signum, handler in before.items():
            signal.signal(signum, handler)
        if watch is not None:
            watch.close()
