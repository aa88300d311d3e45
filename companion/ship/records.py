"""The judge's input format (section 3 of the ship contract): JSON Lines, one event a line.

    {"t": 1000, "ship": "$BALL,12,53021,rain*0D"}   {"t": 1180, "bed": "yellow"}
    {"t": 5000, "port": "lost"}                      {"t": 900, "flight": "start"}

The flight log writes this format and ``cloud-companion judge`` reads it, so a disputed flight
replays exactly as it was judged.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator

from ..errors import CompanionError
from .judge import BEDS, Judge, Record

VALUES = {"bed": BEDS, "port": ("lost", "back"), "flight": ("start", "end")}
# the link passes on at most 200 characters a line, written as JSON in the flight log: a record
# many times longer is no record, and is refused before it is parsed
MAX_RECORD_CHARS = 64 * 1024


class BadRecord(CompanionError, ValueError):
    """A line that is not a record; the message says why in a few words."""


def _no_repeats(pairs: list[tuple[str, object]]) -> dict[str, object]:
    record: dict[str, object] = {}
    for key, value in pairs:
        if key in record:
            raise BadRecord(f"the key {key!r} appears twice")
        record[key] = value
    return record


def _no_constants(name: str) -> None:
    raise BadRecord(f"{name} is not JSON")


def parse_record(text: str) -> tuple[int, str, str]:
    """``(t, key, value)`` for one line of text (without its line end)."""
    try:
        record = json.loads(text, object_pairs_hook=_no_repeats, parse_constant=_no_constants)
    except json.JSONDecodeError as exc:
        raise BadRecord(f"not JSON ({exc.msg})") from None
    except RecursionError:
        raise BadRecord("not JSON (nested too deeply)") from None
    if not isinstance(record, dict):
        raise BadRecord("not a JSON object")
    if "t" not in record:
        raise BadRecord('no "t"')
    t = record["t"]
    if type(t) is not int or t < 0:
        raise BadRecord('"t" must be a whole number of milliseconds, 0 or more')
    keys = [key for key in record if key != "t"]
    if len(keys) != 1:
        raise BadRecord('a record has "t" and exactly one of "ship", "bed", "port", "flight"')
    key = keys[0]
    value = record[key]
    if key == "ship":
        if not isinstance(value, str):
            raise BadRecord('"ship" must be a string')
    elif key in VALUES:
        if value not in VALUES[key] or not isinstance(value, str):
            raise BadRecord(f'"{key}" must be one of {", ".join(VALUES[key])}')
    else:
        raise BadRecord(f"unknown key {key!r}")
    return t, key, value


def read_records(data: bytes) -> list[tuple[int, str, str]]:
    """Every record of a whole input, checked before any is judged; BadRecord names the line."""
    if data.startswith(b"\xef\xbb\xbf"):
        raise BadRecord("the input starts with a byte-order mark; it must be plain UTF-8")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        where = data[: exc.start].count(b"\n") + 1
        raise BadRecord(f"line {where}: the bytes are not UTF-8") from None
    records = []
    last = 0
    lines = text.split("\n")
    for number, line in enumerate(lines, start=1):
        if line.endswith("\r"):
            line = line[:-1]
        if len(line) > MAX_RECORD_CHARS:
            raise BadRecord(f"line {number}: longer than {MAX_RECORD_CHARS:,} characters, no record")
        if not line.strip(" \t"):
            continue
        try:
            record = parse_record(line)
        except BadRecord as exc:
            raise BadRecord(f"line {number}: {exc}") from None
        if record[0] < last:
            raise BadRecord(f"line {number}: time goes back ({record[0]} after {last})")
        last = record[0]
        records.append(record)
    return records


def format_record(t: int, key: str, value: str) -> str:
    return json.dumps({"t": t, key: value}, ensure_ascii=False)


def judge_records(records: Iterable[tuple[int, str, str]], judge: Judge | None = None) -> Iterator[Record]:
    """Everything the judge says about a recording, run-on included, in order."""
    judge = judge or Judge()
    handlers = {"ship": judge.ship, "bed": judge.bed, "port": judge.port, "flight": judge.flight}
    for t, key, value in records:
        yield from handlers[key](t, value)
    yield from judge.finish()
