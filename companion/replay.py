"""Replaying a game written as JSON Lines (shared/design/replay-contract.md).

Line 1 is the setup, every later non-blank line one action. This module parses and applies;
the command line (cli.py) only prints what it returns.
"""

from __future__ import annotations

import io
import json
import sys
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from .rules import Match, RulesError, SetupError


class NotAGame(Exception):
    """The input cannot be read as a game at all (exit 1 in the contract)."""


class CannotRead(NotAGame):
    """The file itself cannot be read (missing, unreadable, not UTF-8); the message names it."""


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
        setup = json.loads(line)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise NotAGame(f"line {number}: the setup is not JSON ({exc.msg})") from None
    if not isinstance(setup, dict):
        raise NotAGame(f"line {number}: the setup must be a JSON object")
    try:
        return Match.start(setup)
    except SetupError as exc:
        raise NotAGame(f"line {number}: {exc}") from None


def parse_action(line: str) -> dict[str, Any]:
    """One action line as an object, or RulesError (an illegal action in the contract)."""
    try:
        action = json.loads(line)
    except json.JSONDecodeError as exc:
        raise RulesError(f"not JSON ({exc.msg})", "replay contract") from None
    if not isinstance(action, dict):
        raise RulesError("an action must be a JSON object", "replay contract")
    if not isinstance(action.get("act"), str):
        raise RulesError('an action needs an "act" field', "replay contract")
    return action


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


def replay_file(name: str) -> ReplayResult:
    """replay_lines over a file by name, or standard input for "-"; CannotRead or NotAGame."""
    try:
        if name == "-":
            # utf-8-sig: a file saved by an editor that writes a byte-order mark still reads
            return replay_lines(io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8-sig"))
        with open(name, encoding="utf-8-sig") as f:
            return replay_lines(f)
    except OSError as exc:
        raise CannotRead(f"cannot read {name}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise CannotRead(f"cannot read {name}: it is not UTF-8 text") from None
