"""How the live page hears of a change, and how it tells the viewers.

Watch: one inotify watch on each folder that matters (the journal's, the settings'), read by the
event loop when the kernel says there is something to read: no polling, and the app is never
waited for (it writes; the kernel tells us). Bursts (a commit writes the -wal file several
times) are folded into one call, DEBOUNCE_S after the first event.

Viewers: each open page has a short queue of its own. A viewer that does not keep up (a phone
that went to sleep, a client that never reads) finds its queue full and is dropped; its
browser reconnects when it can. Memory per viewer stays bounded whatever the client does.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from pathlib import Path

from inotify_simple import INotify, flags

DEBOUNCE_S = 0.05
QUEUE_SIZE = 4  # messages a viewer may fall behind before it is dropped
# MODIFY, not CLOSE_WRITE: a reader's SQLite opens the -wal file read-write and closes it again
# (this page's own reads would wake it); only a writer modifies it
WATCHED = (
    flags.MODIFY | flags.CREATE | flags.DELETE | flags.MOVED_TO | flags.MOVED_FROM | flags.DELETE_SELF | flags.MOVE_SELF
)


class FolderWatch:
    """Calls `changed()` (on the loop, debounced) when one of `files` (or its -wal) changes in
    its folder. A folder that does not exist yet is waited for from its nearest existing parent."""

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        files: Iterable[Path],
        changed: Callable[[], None],
        debounce: float = DEBOUNCE_S,
    ):
        self.loop, self.changed, self.debounce = loop, changed, debounce
        self.files = [Path(f).absolute() for f in files]
        self.inotify = INotify()
        self._watches: dict[int, Path] = {}
        self._pending: asyncio.TimerHandle | None = None
        self._arm()
        loop.add_reader(self.inotify.fileno(), self._readable)

    def _arm(self) -> None:
        for wd in list(self._watches):
            try:
                self.inotify.rm_watch(wd)
            except OSError:
                pass  # the folder went: its watch went with it
        self._watches.clear()
        for folder in {f.parent for f in self.files}:
            while not folder.is_dir() and folder != folder.parent:
                folder = folder.parent
            try:
                self._watches[self.inotify.add_watch(folder, WATCHED)] = folder
            except OSError:
                continue  # a folder we may not look into: nothing to hear from it

    def _readable(self) -> None:
        # the files themselves and a journal's write-ahead log (a commit appends to it); never
        # its -shm index, which every reader (this page included) writes: that would loop
        names = {f.name for f in self.files} | {f"{f.name}-wal" for f in self.files}
        relevant = rearm = False
        for event in self.inotify.read(timeout=0):
            folder = self._watches.get(event.wd)
            if event.mask & (flags.IGNORED | flags.DELETE_SELF | flags.MOVE_SELF):
                rearm = True
                continue
            if folder is not None and event.mask & flags.ISDIR:
                rearm = True  # a folder on the way to a missing one was made
            if event.name in names:
                relevant = True
        if rearm:
            self._arm()
            relevant = True
        if relevant and self._pending is None:
            self._pending = self.loop.call_later(self.debounce, self._fire)

    def _fire(self) -> None:
        self._pending = None
        self.changed()

    def close(self) -> None:
        if self._pending is not None:
            self._pending.cancel()
        self.loop.remove_reader(self.inotify.fileno())
        self.inotify.close()


class Viewer:
    """One open page's stream: a bounded queue; `dropped` once it fell too far behind."""

    def __init__(self, size: int = QUEUE_SIZE):
        self.queue: asyncio.Queue[bytes] = asyncio.Queue(maxsize=size)
        self.dropped = asyncio.Event()
        self.on_drop: Callable[[], None] | None = None  # cuts its connection (a write may hang)


class Hub:
    """Every viewer, and the cap on how many there may be."""

    def __init__(self, cap: int):
        self.cap = cap
        self.viewers: set[Viewer] = set()
        self.dropped_count = 0

    def join(self) -> Viewer | None:
        if len(self.viewers) >= self.cap:
            return None
        viewer = Viewer()
        self.viewers.add(viewer)
        return viewer

    def leave(self, viewer: Viewer) -> None:
        self.viewers.discard(viewer)

    def publish(self, message: bytes) -> None:
        for viewer in list(self.viewers):
            try:
                viewer.queue.put_nowait(message)
            except asyncio.QueueFull:
                self.drop(viewer)

    def drop(self, viewer: Viewer) -> None:
        if viewer in self.viewers:
            self.dropped_count += 1
        self.viewers.discard(viewer)
        viewer.dropped.set()
        try:
            viewer.queue.put_nowait(b"")  # wakes its stream, which then ends (a full queue wakes it anyway)
        except asyncio.QueueFull:
            pass
        if viewer.on_drop is not None:
            viewer.on_drop()

    def drop_all(self) -> None:
        for viewer in list(self.viewers):
            self.drop(viewer)
