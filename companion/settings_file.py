"""The settings file's bytes and TOML, with the standard library alone.

Shared by the settings (config.py) and the live page's wait while it is switched off, which
reads its one switch before it loads anything else (see companion/live/switch.py).
"""

from __future__ import annotations

import os
import stat
import tomllib
from pathlib import Path
from typing import Any

# the settings are a few dozen lines (config.example.toml is under 4 kB): a bigger file is no
# settings file, and reading it must not cost the start
MAX_BYTES = 64 * 1024


def read_small_file(path: Path) -> bytes:
    """The bytes of a regular file of at most MAX_BYTES. Opened without waiting (a pipe with no
    writer, a device) and looked at before anything is read. A path that holds no settings
    file raises ValueError saying what it is instead, as the rest of a sentence; one that
    cannot be opened, OSError."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | getattr(os, "O_CLOEXEC", 0))
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise ValueError("is a directory, not a file")
        if not stat.S_ISREG(info.st_mode):
            raise ValueError("is not a regular file (a device or a pipe)")
        if info.st_size > MAX_BYTES:
            raise ValueError(f"is {info.st_size:,} bytes, more than a settings file can be ({MAX_BYTES // 1024} KiB)")
        with os.fdopen(fd, "rb", closefd=False) as file:
            raw = file.read(MAX_BYTES + 1)  # it may have grown since fstat
        if len(raw) > MAX_BYTES:
            raise ValueError(f"is more than a settings file can be ({MAX_BYTES // 1024} KiB)")
        return raw
    finally:
        os.close(fd)


def parse(raw: bytes) -> dict[str, Any]:
    """The TOML of a settings file; raises UnicodeDecodeError or tomllib.TOMLDecodeError."""
    return tomllib.loads(raw.decode("utf-8"))
