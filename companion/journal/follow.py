"""`replay FILE --db PATH [--follow]`: a game read line by line and journaled as it goes.

Each action goes the app's own way (GameController): checked by the rules, committed to the
journal, and only then applied. With --follow, `{"ok": N}` is printed (and flushed) as soon as
action N is durable, N counting the actions journaled (1 is the first after the setup); an
illegal line is reported on stderr and skipped, nothing journaled for it; stdout carries
only the `{"ok": N}` lines (`resume` shows the state). Without --follow the input is
read the same way but the contract's replay rules hold: the first illegal line ends it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any, BinaryIO, NamedTuple, TextIO

from ..console import PROG
from ..controller import GameController
from ..errors import CompanionError
from ..replay import NotAGame, bounded_lines, is_blank, line_text, parse_action, parse_setup, setup_text
from ..rules import Match, RulesError
from .journal import Journal

# exit codes beyond the replay contract's 0, 1 and 2
EXIT_NONE = 3  # resume: there is no unfinished game
EXIT_BUSY = 4  # another instance writes to this journal
EXIT_UNSAVED = 5  # some actions could not be saved (the disk refused)


class OutputFailed(CompanionError):
    """The output refused a line (a full disk): its OSError is args[0]. Kept apart from the
    input's read errors, which are OSErrors too."""


def _emit(stream: TextIO, obj: dict[str, Any]) -> None:
    try:
        stream.write(json.dumps(obj, ensure_ascii=False) + "\n")
        stream.flush()
    except BrokenPipeError:
        raise  # the reader went away: cli.main stops quietly
    except OSError as exc:
        raise OutputFailed(exc) from exc


class _Acks:
    """Prints {"ok": N} for every action that has become durable since the last call."""

    def __init__(self, out: TextIO, enabled: bool):
        self.out, self.enabled, self.done = out, enabled, 0

    def catch_up(self, saved: int) -> None:
        while self.enabled and self.done < saved:
            self.done += 1
            _emit(self.out, {"ok": self.done})


class Started(NamedTuple):
    """The input once its setup is read and accepted: nothing is journaled before that."""

    lines: Iterator[tuple[int, bytes]]  # (physical line number, line) for the rest
    match: Match


def start(stream: BinaryIO, name: str = "the input") -> Started:
    """Read up to the setup and check it; NotAGame (CannotRead when it is not text)."""
    lines = enumerate(bounded_lines(stream), start=1)
    for number, raw in lines:  # blank lines before the setup are skipped too
        if not is_blank(raw):
            return Started(lines, parse_setup(setup_text(raw, number, name), number))
    raise NotAGame(f"{name} holds no game: it is empty, and line 1 must be the setup")


def record_replay(
    stream: BinaryIO, journal: Journal, out: TextIO, err: TextIO, follow: bool, started: Started | None = None
) -> int:
    """Replay `stream` (bytes, one JSON value a line) into `journal`; returns the exit code.
    `started`: the stream's setup, already read by `start`."""
    lines, match = started or start(stream)

    controller = GameController(journal)
    controller.new_game(match.setup)
    acks = _Acks(out, follow)
    # a follower goes on while the disk refuses, and says so when it starts and when it ends;
    # a plain replay only says at the end what it could not save
    problem = _report_problem(journal, None, err) if follow else None
    skipped, error = 0, None
    # bounded_lines reads with readline: each line is handled as soon as it arrives on a pipe
    for number, raw in lines:
        try:
            if is_blank(raw):
                continue  # skipped, but counted: line numbers are physical lines
            controller.submit(parse_action(line_text(raw)))
        except RulesError as exc:
            if not follow:
                error = {"line": number, "reason": exc.reason}
                break
            skipped += 1
            err.write(f"line {number}: {exc.reason}\n")
            err.flush()
            continue
        acks.catch_up(controller.game_id.saved)
        if follow:
            problem = _report_problem(journal, problem, err)

    journal.retry()
    acks.catch_up(controller.game_id.saved)
    if not follow:  # replay's own answer; a follower's stdout carries only {"ok": N} lines
        assert controller.match is not None  # new_game above set it
        state = controller.match.view
        if error:
            state["error"] = error
        _emit(out, state)
    if error:
        err.write(f"line {error['line']}: {error['reason']}\n")
    if journal.unsaved:
        actions = journal.unsaved_actions
        lost = (
            f"this game was not saved (its setup and {actions} action(s))"
            if journal.unsaved_setup
            else f"{actions} action(s) of this game were not saved"
        )
        err.write(f"{PROG}: {journal.problem_cause}: {lost}\n")
        return EXIT_UNSAVED
    return 2 if error or skipped else 0


def _report_problem(journal: Journal, shown: str | None, err: TextIO) -> str | None:
    """Say once when saving starts failing, and once when it works again."""
    now = journal.problem
    if now != shown:
        err.write(f"{PROG}: " + (now or "saving works again: every action so far is saved") + "\n")
        err.flush()
    return now
