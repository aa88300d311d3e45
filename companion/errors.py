"""The one root of the companion's errors: `except CompanionError` catches every refusal and
failure the app explains in words (a rules refusal, a journal that cannot be used, a missing
serial port, a bad setting), and nothing it did not mean to raise.

Every exception class in the package derives from it and keeps its builtin base too
(`class NoPort(CompanionError, OSError)`). Three stay outside: `ship.protocol.ProtocolError`,
because that module also runs on the ship's MicroPython board and imports nothing, the
board's own firmware errors, and `settings_file.NotSettings`, an OSError that never leaves
the package (the settings turn it into a sentence): its module is all the live page loads while
it waits switched off, and this root would bring the rules core along.
"""

from __future__ import annotations

from .rules.common import CompanionError

__all__ = ["CompanionError"]
