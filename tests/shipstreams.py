"""Helpers to write ship recordings in tests: signed lines with counted SEQ, TILT trains."""

from __future__ import annotations

from companion.ship.judge import Judge, Timings
from companion.ship.protocol import encode
from companion.ship.records import judge_records


class Board:
    """Writes what a board would send, counting SEQ from its HELLO."""

    def __init__(self, seq: int = 0):
        self.seq = seq

    def line(self, kind: str, *fields) -> str:
        text = encode(kind, self.seq, 0, list(fields))
        self.seq = (self.seq + 1) % 65536
        return text

    def hello(self, proto: str = "1") -> str:
        self.seq = 0
        return self.line("HELLO", proto, "CS-TEST", "0.3.1")

    def tilt(self, motion: int, pitch: int = 0, roll: int = 0) -> str:
        return self.line("TILT", pitch, roll, motion)

    def ball(self, kind: str = "rain") -> str:
        return self.line("BALL", kind)


def ship(t: int, line: str) -> tuple[int, str, str]:
    return (t, "ship", line)


def bed(t: int, name: str) -> tuple[int, str, str]:
    return (t, "bed", name)


def port(t: int, state: str) -> tuple[int, str, str]:
    return (t, "port", state)


def flight(t: int, state: str) -> tuple[int, str, str]:
    return (t, "flight", state)


def tilts(board: Board, start: int, end: int, motion: int, every: int = 50) -> list:
    """TILT lines every 50 ms from start up to and including end."""
    return [ship(t, board.tilt(motion)) for t in range(start, end + 1, every)]


def judged(records, timings: Timings | None = None, kinds=("act", "notice", "link")) -> list[dict]:
    out = list(judge_records(sorted(records, key=lambda r: r[0]), Judge(timings)))
    return [r for r in out if any(k in r for k in kinds)]


def acts(records, timings: Timings | None = None) -> list[dict]:
    return judged(records, timings, kinds=("act", "notice"))
