"""The one root of the companion's errors: `except CompanionError` catches every refusal and
failure the app explains in words (a rules refusal, a journal that cannot be used, a missing
serial port, a bad setting), and nothing it did not mean to raise.

Every exception class in the package derives from it and keeps its builtin base too
(`class NoPort(CompanionError, OSError)`). Two stay outside: `ship.protocol.ProtocolError`,
because that module also runs on the ship's MicroPython board and imports nothing, and the
board's own firmware errors.
"""

from __future__ import annotations

from .rules.common import CompanionError

__all__ = ["CompanionError"]
