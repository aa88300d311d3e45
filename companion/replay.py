"""Replaying a game written as JSON Lines (docs/reference/replay-contract.md).

Line 1 is the setup, every later non-blank line one action. This module parses and applies;
the command line (cli.py) only prints what it returns.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, BinaryIO

from .errors import CompanionError
from .rules import Match, RulesError, SetupError


class NotAGame(CompanionError):
    """The input cannot be read as a game at all (exit 1 in the contract)."""


class CannotRead(NotAGame):
    """The file itself cannot be read (missing, unreadable, not UTF-8); the message names it."""


# Every read is bounded: a real line is a few hundred bytes, a setup at most a few thousand.
MAX_LINE_BYTES = 1024 * 1024
# The contract's values nest two or three levels; json would recurse without end on more.
MAX_DEPTH = 32
TOO_LONG = f"the line is longer than {MAX_LINE_BYTES // 1024 // 1024} MB"
TOO_DEEP = "the line nests too deeply"


class LongLine(bytes):
    """What `bounded_lines` gives for a line over the limit: its first bytes only."""


def bounded_lines(stream: BinaryIO, limit: int = MAX_LINE_BYTES) -> Iterator[bytes]:
    """The stream's lines, one read of at most `limit` bytes at a time: a longer line comes
    as a LongLine (its first bytes), and the rest of it is skipped, unkept, if reading goes
    on: no input can fill the memory."""
    while True:
        line = stream.readline(limit + 1)
        if not line:
            return
        if len(line) <= limit or line.endswith(b"\n"):
            yield line
            continue
        yield LongLine(line[:64])  # said at once: a reader that stops here reads no further
        while not line.endswith(b"\n"):  # the rest of it, skipped a bounded piece at a time
            line = stream.readline(limit)
            if not line:
                return


def depth(value: Any, limit: int = MAX_DEPTH) -> int:
    """How deeply lists and objects nest in a JSON value (no recursion; stops past `limit`)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, (list, dict)):
            deepest = max(deepest, level)
            if level > limit:
                break
            stack.extend((child, level + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def nested_too_deeply(text: str, value: Any) -> bool:
    """Whether `value`, parsed from the JSON `text`, nests lists and objects deeper than
    MAX_DEPTH. A value cannot nest deeper than its text has brackets: the usual action, with
    a handful, is answered by counting them, without walking the value."""
    if isinstance(text, (bytes, bytearray)):
        text = text.decode("utf-8", "replace")
    return text.count("[") + text.count("{") > MAX_DEPTH and depth(value) > MAX_DEPTH


def _load(line: str) -> Any:
    """json.loads with the nesting bounded; ValueError (with a reason) otherwise."""
    try:
        value = json.loads(line)
    except json.JSONDecodeError as exc:
        raise ValueError(f"not JSON ({exc.msg})") from None
    except RecursionError:
        raise ValueError(TOO_DEEP) from None
    if nested_too_deeply(line, value):
        raise ValueError(TOO_DEEP)
    return value


@dataclass
class ReplayResult:
    match: Match
    error_line: int | None = None
    reason: str | None = None

    def output(self) -> dict[str, Any]:
        out = self.match.view
        if self.error_line is not None:
            out["error"] = {"line": self.error_line, "reason": self.reason}
        return out


def parse_setup(line: str, number: int = 1) -> Match:
    """The game a setup line starts (`number`: its physical line, for the messages)."""
    try:
        setup = _load(line)
    except ValueError as exc:
        reason = str(exc)
        raise NotAGame(
            f"line {number}: the setup is " + (reason if reason.startswith("not") else f"not a game: {reason}")
        ) from None
    if not isinstance(setup, dict):
        raise NotAGame(f"line {number}: the setup must be a JSON object")
    try:
        return Match.start(setup)
    except SetupError as exc:
        raise NotAGame(f"line {number}: {exc}") from None
    except RecursionError:  # a value the rules walk through, nested deeply still
        raise NotAGame(f"line {number}: the setup is not a game: {TOO_DEEP}") from None


def parse_action(line: str) -> dict[str, Any]:
    """One action line as an object, or RulesError (an illegal action in the contract)."""
    try:
        action = _load(line)
    except ValueError as exc:
        raise RulesError(str(exc), "replay contract") from None
    if not isinstance(action, dict):
        raise RulesError("an action must be a JSON object", "replay contract")
    if not isinstance(action.get("act"), str):
        raise RulesError('an action needs an "act" field', "replay contract")
    return action


def line_text(raw: bytes) -> str:
    """An action line read by `bounded_lines` as text, or RulesError (an illegal line): over
    the limit, or not UTF-8."""
    if isinstance(raw, LongLine):
        raise RulesError(TOO_LONG, "replay contract")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise RulesError("the line is not UTF-8 text", "replay contract") from None


def setup_text(raw: bytes, number: int, name: str = "the input") -> str:
    """The setup line as text (a byte-order mark dropped), or NotAGame / CannotRead."""
    if isinstance(raw, LongLine):
        raise NotAGame(f"line {number}: the setup is not a game: {TOO_LONG}")
    try:
        return raw.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError:
        raise CannotRead(f"cannot read {name}: it is not UTF-8 text") from None


def is_blank(raw: bytes) -> bool:
    return not isinstance(raw, LongLine) and not raw.strip()


def replay_lines(lines: Iterable[str]) -> ReplayResult:
    """Apply a whole game; stops at the first illegal line (the contract's exit 2)."""
    rows = enumerate(lines, start=1)
    # blank lines are skipped everywhere, before the setup too (line numbers stay physical)
    for number, line in rows:
        if line.strip():
            match = parse_setup(line, number)
            break
    else:
        raise NotAGame("the file holds no game: it is empty, and line 1 must be the setup")
    for number, line in rows:
        if not line.strip():
            continue
        try:
            match = match.apply(parse_action(line))
        except RulesError as exc:
            return ReplayResult(match, number, exc.reason)
    return ReplayResult(match)


def jsonl(setup: Mapping[str, Any], actions: Iterable[Mapping[str, Any]]) -> str:
    """A game in the replay format: the setup line, then one action per line."""
    return "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in [setup, *actions])


def to_jsonl(match: Match) -> str:
    """A match written back as JSON Lines: its setup, then the actions that stand."""
    return jsonl(match.setup, match.actions())


def replay_stream(stream: BinaryIO, name: str = "the input") -> ReplayResult:
    """replay_lines over a byte stream, every line bounded: a setup that is not UTF-8 text
    is CannotRead, an action line that is not (or is too long) an illegal line."""
    rows = enumerate(bounded_lines(stream), start=1)
    for number, raw in rows:
        if not is_blank(raw):
            match = parse_setup(setup_text(raw, number, name), number)
            break
    else:
        raise NotAGame("the file holds no game: it is empty, and line 1 must be the setup")
    for number, raw in rows:
        if is_blank(raw):
            continue
        try:
            match = match.apply(parse_action(line_text(raw)))
        except RulesError as exc:
            return ReplayResult(match, number, exc.reason)
    return ReplayResult(match)


def input_name(name: str) -> str:
    return "standard input" if name == "-" else name


def replay_file(name: str) -> ReplayResult:
    """replay_lines over a file by name, or standard input for "-"; CannotRead or NotAGame."""
    try:
        if name == "-":
            return replay_stream(sys.stdin.buffer, input_name(name))
        with open(name, "rb") as f:
            return replay_stream(f, name)
    except OSError as exc:
        raise CannotRead(f"cannot read {input_name(name)}: {exc.strerror}") from None
