"""Pictures kept by what they show, bounded by the bytes of their pixels as well as their count.

`functools.lru_cache` counts entries: the same count of a board's layers is a few hundred KB on
the 7" screen and tens of MB at full HD, and an evening fills every cache to its count (three
titles, both orientations, three languages). `pictures(max_bytes)` keeps the most recently used
pictures within `max_bytes` (and `max_items`), the oldest going first; the newest is kept
whatever its size (a full-HD table larger than the budget is still drawn once, not every frame).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from functools import wraps
from typing import NamedTuple

import pygame


class Info(NamedTuple):
    hits: int
    misses: int
    maxsize: int
    currsize: int
    bytes: int
    max_bytes: int


def surface_bytes(surface: pygame.Surface) -> int:
    return surface.get_width() * surface.get_height() * surface.get_bytesize()


class Pictures:
    """A least-recently-used store of surfaces within a byte budget."""

    def __init__(self, max_bytes: int, max_items: int = 256):
        self.max_bytes, self.max_items = max_bytes, max_items
        self._kept: OrderedDict[object, pygame.Surface] = OrderedDict()
        self.bytes = self.hits = self.misses = 0

    def __len__(self) -> int:
        return len(self._kept)

    def get(self, key) -> pygame.Surface | None:
        surface = self._kept.get(key)
        if surface is None:
            self.misses += 1
        else:
            self.hits += 1
            self._kept.move_to_end(key)
        return surface

    def put(self, key, surface: pygame.Surface) -> None:
        size = surface_bytes(surface)
        old = self._kept.pop(key, None)
        if old is not None:
            self.bytes -= surface_bytes(old)
        self._kept[key] = surface
        self.bytes += size
        while len(self._kept) > 1 and (self.bytes > self.max_bytes or len(self._kept) > self.max_items):
            _key, oldest = self._kept.popitem(last=False)
            self.bytes -= surface_bytes(oldest)

    def clear(self) -> None:
        self._kept.clear()
        self.bytes = self.hits = self.misses = 0

    def info(self) -> Info:
        return Info(self.hits, self.misses, self.max_items, len(self._kept), self.bytes, self.max_bytes)


def pictures(max_bytes: int, max_items: int = 256) -> Callable:
    """Like `functools.lru_cache` for a function of plain values that returns a new surface
    (never drawn on afterwards), bounded by bytes; `cache_info()` and `cache_clear()` as there."""

    def decorate(make: Callable[..., pygame.Surface]) -> Callable[..., pygame.Surface]:
        store = Pictures(max_bytes, max_items)

        @wraps(make)
        def kept(*args, **kwargs):
            key = (args, tuple(sorted(kwargs.items()))) if kwargs else args
            surface = store.get(key)
            if surface is None:
                surface = make(*args, **kwargs)
                store.put(key, surface)
            return surface

        # lru_cache's interface, set in the function's own namespace (so it keeps its __module__,
        # which forgetting cached pictures goes by)
        vars(kept).update(cache_info=store.info, cache_clear=store.clear, store=store)
        return kept

    return decorate
