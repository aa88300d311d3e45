# The types of protocol.py, kept apart: that module also runs on the ship's MicroPython board,
# so it carries no annotations itself.
from collections.abc import Sequence
from typing import Any

VERSION: str
MAX_LINE: int
SEQ_MODULO: int
KINDS: tuple[str, ...]
LAYOUTS: dict[str, str]

class ProtocolError(ValueError):
    why: str
    def __init__(self, why: str) -> None: ...

def checksum(body: str) -> int: ...
def encode(kind: str, seq: int, t: int, fields: Sequence[int | str]) -> str: ...
def _integer(text: str, signed: bool) -> int | None: ...

# the fields are ints and strs as the message type's LAYOUTS entry says: the caller knows which
def decode(line: str) -> tuple[str, int, int, list[Any]]: ...
