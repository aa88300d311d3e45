"""The C heap told to hand large blocks back to the system once they are freed.

glibc serves a block over 128 KiB from a mapping of its own, given back when freed, until the
first such block is freed: then it raises that threshold to the freed block's size (up to
32 MiB), and every later block of a picture's size (a kept frame, a recap's pixels, a board's
layer) comes from the heap, where a small object left after it keeps the memory from going
back. Over an evening that was a third of the app's memory. Each thread's own heap (an arena)
holds memory the same way: two arenas serve the loop and its few threads.
"""

from __future__ import annotations

import ctypes
from collections.abc import Callable
from functools import cache

M_MMAP_THRESHOLD = -3  # glibc's mallopt parameters (malloc.h)
M_ARENA_MAX = -8
LARGE = 128 << 10  # glibc's own first threshold, kept
ARENAS = 2


@cache
def _glibc(name: str, *argtypes) -> Callable[..., int] | None:
    """glibc's function `name`, looked up once (the live page trims after every drawing job);
    None where the C library is not glibc."""
    try:
        function = getattr(ctypes.CDLL(None), name)
    except (OSError, AttributeError):
        return None
    function.argtypes, function.restype = argtypes, ctypes.c_int
    return function


def give_back_large_blocks(arenas: int = ARENAS) -> bool:
    """Fix the threshold (no raising it) and the arenas; False where the C library is not
    glibc (nothing changed: the app runs as before). The live page asks for one arena: its
    threads take turns at the drawing, and each arena would keep its own share of the pictures."""
    mallopt = _glibc("mallopt", ctypes.c_int, ctypes.c_int)
    return mallopt is not None and bool(mallopt(M_MMAP_THRESHOLD, LARGE)) and bool(mallopt(M_ARENA_MAX, arenas))


def trim() -> bool:
    """Hand the heap's free pages back to the system now (glibc's malloc_trim: also the free
    pages between blocks still in use, which the heap's own trimming of its top leaves). A
    process that draws a burst of pictures and then waits (the live page) would otherwise keep
    the high-water mark of its bursts for good. False where the C library is not glibc."""
    malloc_trim = _glibc("malloc_trim", ctypes.c_size_t)
    if malloc_trim is None:
        return False
    malloc_trim(0)
    return True


def status_kib(field: str, pid: int | None = None) -> int | None:
    """A memory figure of /proc's status for a process (this one by default), in KiB:
    "VmRSS" resident now, "VmHWM" the most it has been since it started; None without /proc."""
    try:
        with open(f"/proc/{pid or 'self'}/status") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None
