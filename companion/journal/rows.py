"""The journal's rows read defensively: damage that SQLite cannot see (a failing SD card's
flipped bits inside a text column pass `quick_check`) becomes a game marked damaged, never an
exception in the middle of a listing.

Text is read as bytes and decoded here (`text_factory`); a value that is not UTF-8 stays a `BadText`,
so one damaged row cannot stop SQLite's whole fetch. JSON columns are parsed with a bound on
their nesting and checked for the shape the journal writes.
"""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

from ..errors import CompanionError
from ..replay import nested_too_deeply  # the journal stores what the replay format allows


class BadText(bytes):
    """A text value that is not UTF-8 (damage): kept as the bytes found."""

    def __str__(self) -> str:
        return self.decode("utf-8", "replace")


def text_factory(raw: bytes) -> str | BadText:
    """sqlite3's text_factory: a str, or the bytes as BadText when they are not UTF-8."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return BadText(raw)


def plain(value: Any) -> Any:
    """A value to print or compare: BadText shown with replacement characters."""
    return str(value) if isinstance(value, BadText) else value


class Damaged(CompanionError, ValueError):
    """A stored value is not what the journal writes; the message says which and how."""


def loads(text: Any, what: str) -> Any:
    """A JSON column's value, or Damaged (not text, not UTF-8, not JSON, nested too deep)."""
    if isinstance(text, BadText):
        raise Damaged(f"its {what} is not UTF-8 text")
    if not isinstance(text, str):
        raise Damaged(f"its {what} is not text")
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise Damaged(f"its {what} is cut or garbled JSON ({exc.msg})") from None
    except RecursionError:
        raise Damaged(f"its {what} is nested too deeply") from None
    if nested_too_deeply(text, value):
        raise Damaged(f"its {what} is nested too deeply")
    return value


def names(value: Any, what: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(n, str) for n in value):
        raise Damaged(f"its {what} is not a list of names")
    return value


def scores(value: Any) -> dict[str, int]:
    if not isinstance(value, dict) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value.values()):
        raise Damaged("its scores are not a table of numbers")
    return value


def text(value: Any, what: str) -> str:
    if isinstance(value, BadText):
        raise Damaged(f"its {what} is not UTF-8 text")
    if not isinstance(value, str):
        raise Damaged(f"its {what} is not text")
    return value


def moment(value: Any, what: str, optional: bool = False) -> str | None:
    if value is None and optional:
        return None
    stamp = text(value, what)
    try:
        datetime.fromisoformat(stamp)
    except ValueError:
        raise Damaged(f"its {what} is not a date") from None
    return stamp


def whole(value: Any, what: str) -> int:
    if not isinstance(value, int):
        raise Damaged(f"its {what} is not a number")
    return value


# json.loads's own decoder, called without its wrapper: a replay reads every action of a game
_decode = json.JSONDecoder().decode


def action(value: Any, number: int) -> dict[str, Any]:
    if type(value) is str:  # the usual action, read without building a message for its damage
        try:
            found = _decode(value)
        except (ValueError, RecursionError):
            found = None
        if type(found) is dict and type(found.get("act")) is str and not nested_too_deeply(value, found):
            return found
    found = loads(value, f"action {number}")  # what is wrong with it, said
    if not isinstance(found, dict) or not isinstance(found.get("act"), str):
        raise Damaged(f"its action {number} is not an action")
    return found
