"""Just enough of the ship's serial protocol (ship-contract.md section 1) for `doctor`: is the
line well formed, is the checksum right, and what HELLO and BEAT say. The full reader and the
judge live in companion.ship; once it is there this module can use its protocol parser instead
(it is the one place doctor reads ship lines).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

LINE = re.compile(r"^\$([\x20-\x7e]+)\*([0-9A-Fa-f]{2})$")
FIELDS = {"HELLO": 3, "TILT": 3, "BALL": 1, "BEAT": 1, "ERR": 2}


@dataclass(frozen=True)
class ShipLine:
    type: str
    seq: int
    t: int
    fields: tuple[str, ...]


def checksum(body: str) -> str:
    value = 0
    for byte in body.encode("ascii"):
        value ^= byte
    return f"{value:02X}"


def parse(line: str) -> ShipLine | None:
    """A good line, or None for anything else (bad format, bad checksum, unknown type)."""
    line = line[:-1] if line.endswith("\r") else line
    match = LINE.match(line)
    if not match or len(line) > 80:
        return None
    body, cs = match.groups()
    if "$" in body or "*" in body or checksum(body) != cs.upper():
        return None
    parts = body.split(",")
    if len(parts) < 3 or parts[0] not in FIELDS or len(parts) - 3 != FIELDS[parts[0]]:
        return None
    if not (parts[1].isdigit() and int(parts[1]) <= 65535 and parts[2].isdigit()):
        return None
    if parts[0] == "BEAT" and not parts[3].isdigit():
        return None
    return ShipLine(parts[0], int(parts[1]), int(parts[2]), tuple(parts[3:]))


def encode(type_: str, seq: int, t: int, *fields: object) -> str:
    """A line as the board writes it (for tests and the simulated ship)."""
    body = ",".join([type_, str(seq), str(t), *map(str, fields)])
    return f"${body}*{checksum(body)}"
