"""The journal's subcommands: resume, export, history (and `replay --db/--follow`).

The looking commands open the journal read-only, so they work beside a running app.
"""

from __future__ import annotations

import argparse
import errno
import json
import os
import sys
from datetime import datetime
from itertools import groupby
from pathlib import Path

from ..console import cannot_write_output, fail as _fail, say
from ..replay import NotAGame, input_name
from ..whose import cannot_write, denied
from .errors import JournalBusy, JournalError
from .follow import EXIT_BUSY, EXIT_NONE, OutputFailed, record_replay, start
from .history import GameSummary, PlayerTotal
from .journal import Journal, default_path


def _db_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--db", metavar="PATH", type=Path, default=None, help=f"the journal file (default: {default_path()})"
    )


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    resume = sub.add_parser("resume", help="print the unfinished game's state (exit 3 if none)")
    _db_option(resume)
    resume.set_defaults(func=cmd_resume)

    export = sub.add_parser("export", help="write games in the replay format (JSON Lines)")
    _db_option(export)
    which = export.add_mutually_exclusive_group()
    which.add_argument("--game", type=int, metavar="ID", help="the game's number (default: the latest)")
    which.add_argument("--all", action="store_true", help="every game, one after the other")
    export.add_argument(
        "--compact", action="store_true", help="only the actions that stand (no undo, redo or what they took back)"
    )
    export.add_argument("--out", type=Path, metavar="DIR", help="write one file per game into DIR instead of printing")
    export.set_defaults(func=cmd_export)

    history = sub.add_parser("history", help="list every game played")
    _db_option(history)
    history.add_argument("--json", action="store_true", help="print JSON")
    history.add_argument("--totals", action="store_true", help="each player's totals instead")
    history.set_defaults(func=cmd_history)


# --- replay --db / --follow (called by cli.cmd_replay) ------------------------------------------


def cmd_replay_journal(args: argparse.Namespace) -> int:
    name = input_name(args.file)
    try:
        stream = sys.stdin.buffer if args.file == "-" else open(args.file, "rb")
    except OSError as exc:
        return _fail(f"cannot read {name}: {exc.strerror}")
    with stream:
        try:
            started = start(stream, name)  # input refused: no journal is made or touched
        except NotAGame as exc:
            return _fail(str(exc))
        except OSError as exc:
            return _fail(f"cannot read {name}: {exc.strerror}")
        try:
            journal = Journal.open(args.db)
        except JournalError as exc:
            return _fail(str(exc), EXIT_BUSY if isinstance(exc, JournalBusy) else 1)
        for message in journal.messages:
            say(message)
        try:
            return record_replay(stream, journal, sys.stdout, sys.stderr, follow=args.follow, started=started)
        except BrokenPipeError:
            raise  # stdout's reader went away: cli.main stops quietly
        except OutputFailed as exc:
            return cannot_write_output(exc.args[0])
        except OSError as exc:
            return _fail(f"cannot read {name}: {exc.strerror}")
        finally:
            journal.close()


# --- resume ---------------------------------------------------------------------------------


def cmd_resume(args: argparse.Namespace) -> int:
    try:
        with Journal.read(args.db) as journal:
            resumed = journal.resume()
    except JournalError as exc:
        return _fail(str(exc))
    if resumed is None:
        return _fail(f"there is no unfinished game in {journal.path}", EXIT_NONE)
    print(json.dumps(resumed.match.view, ensure_ascii=False), flush=True)
    return 0


# --- export ---------------------------------------------------------------------------------


def cmd_export(args: argparse.Namespace) -> int:
    damaged: list[str] = []
    try:
        with Journal.read(args.db) as journal:
            if args.all:
                games = list(reversed(journal.games()))  # oldest first, as they were played
            else:
                game = journal.game(args.game) if args.game is not None else journal.latest()
                if game is None:
                    what = f"no game {args.game}" if args.game is not None else "no game yet"
                    return _fail(f"there is {what} in {journal.path}")
                games = [game]
            texts = []
            for g in games:  # a damaged game: as far as it reads, and said; the others whole
                text, damage = journal.export_readable(g.id, compact=args.compact)
                if damage:
                    damaged.append(
                        f"game {g.id} is damaged ({damage}): "
                        + ("exported as far as it reads" if text else "nothing of it could be exported")
                    )
                if text:
                    texts.append((g, text))
    except JournalError as exc:
        return _fail(str(exc))
    if args.out is None:
        sys.stdout.write("".join(text for _, text in texts))
        sys.stdout.flush()
    else:
        problem = writable_folder(args.out)
        if problem:
            return _fail(problem)
        try:
            args.out.mkdir(parents=True, exist_ok=True)
            for game, text in texts:
                (args.out / f"game-{game.id}-{game.game}.jsonl").write_text(text, encoding="utf-8")
        except OSError as exc:
            if denied(exc):  # a folder that cannot even be looked into (a home of mode 0700)
                return _fail(f"cannot write to {args.out}: {cannot_write(Path(exc.filename or args.out))}")
            return _fail(f"cannot write to {args.out}: {why_not_written(exc)}")
        say(f"{len(texts)} game(s) written to {args.out}")
    for line in damaged:
        say(line)
    return 1 if damaged else 0


def why_not_written(exc: OSError) -> str:
    """The reason a file could not be written, as a person needs it: /proc's "No such file"
    for a file the folder cannot hold says nothing."""
    if exc.errno == errno.ENOENT and exc.filename and Path(exc.filename).parent.is_dir():
        return "no file can be made there (it is not a folder for files)"
    if exc.errno == errno.EROFS:
        return "it is read-only"
    return exc.strerror or str(exc)


def writable_folder(folder: Path) -> str | None:
    """Why files cannot be written into `folder` (made if missing), or None: the real reason,
    not the errno of the first step that happens to fail."""
    try:
        return _why_not_writable(folder)
    except OSError as exc:  # a folder that cannot even be looked into (a home of mode 0700)
        if denied(exc):
            return f"cannot write to {folder}: {cannot_write(Path(exc.filename or folder).absolute())}"
        return f"cannot write to {folder}: {why_not_written(exc)}"


def _why_not_writable(folder: Path) -> str | None:
    existing = folder
    while not existing.exists() and existing != existing.parent:
        existing = existing.parent
    if existing.exists() and not existing.is_dir():
        return f"cannot write to {folder}: {existing} is not a folder"
    if existing.is_dir() and not os.access(existing, os.W_OK):
        if _read_only_mount(existing):
            return f"cannot write to {folder}: {existing} is read-only"
        return f"cannot write to {folder}: {cannot_write(existing)}"
    return None


def _read_only_mount(folder: Path) -> bool:
    try:
        return bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except OSError:
        return False


# --- history --------------------------------------------------------------------------------


def cmd_history(args: argparse.Namespace) -> int:
    try:
        with Journal.read(args.db) as journal:
            games = journal.checked_games()
            totals = journal.totals() if args.totals else []
    except JournalError as exc:
        return _fail(str(exc))
    if args.json:
        rows = totals if args.totals else games
        print(json.dumps([row.to_json() for row in rows], ensure_ascii=False, indent=2))
    elif args.totals:
        print(_totals_text(totals) if totals else "no finished games yet")
    else:
        print("\n".join(_game_line(g) for g in games) if games else "no games yet")
    return 0


def _local(stamp: str | None) -> str:
    if not stamp:
        return "-"
    try:
        return datetime.fromisoformat(stamp).astimezone().strftime("%Y-%m-%d %H:%M")
    except (ValueError, OverflowError):  # a date at the calendar's very end: shown as stored
        return stamp[:16]


def _game_line(g: GameSummary) -> str:
    if g.damaged:  # set aside: what could be read, and what is wrong
        return f"#{g.id:<4} {g.title:15} {_local(g.started_at)}  damaged: {g.damaged}"
    scores = ", ".join(f"{name} {g.scores.get(name, 0)}" for name in g.players)
    if g.over:
        result = f"won by {', '.join(g.winners)}" if g.winners else "nobody won"
    else:
        result = "in progress" if g.status == "playing" else "not finished"
    return (
        f"#{g.id:<4} {g.title:15} {_local(g.started_at)} to {_local(g.ended_at):16} "
        f"{g.actions:5} actions  {result}: {scores}"
    )


def _totals_text(totals: list[PlayerTotal]) -> str:
    lines: list[str] = []
    for title, rows in groupby(totals, key=lambda t: t.title):  # sorted by game already
        lines.append(title)
        lines.extend(
            f"  {t.name:16} played {t.played:3}  won {t.won:3}  total {t.total_score:5}  best {t.best_score:4}"
            for t in rows
        )
    return "\n".join(lines)
