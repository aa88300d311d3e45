"""The `cloud-companion` command: the app, replay, bench and the tools around the journal.

Each area registers its own subcommands (a `register(subparsers)` function in the modules
listed in COMMAND_MODULES), so this file stays a thin dispatcher.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from importlib import import_module, metadata

from .console import PROG, OneLineParser, cannot_write_output, closed_pipe, fail, is_write_failure, stdout_failure
from .insights import records as _records  # noqa: F401 (installs the journal's records keeper)
from .replay import NotAGame, replay_file

# modules with a register(subparsers) function, each adding its own subcommands
COMMAND_MODULES: tuple[str, ...] = (
    "companion.journal.commands",
    "companion.ui.tools.commands",
    "companion.appliance.commands",
    "companion.insights.commands",
    "companion.ship.commands",
    "companion.live.commands",
)


def cmd_replay(args: argparse.Namespace) -> int:
    if args.db is not None or args.follow:  # journal each action as it is read
        from .journal.commands import cmd_replay_journal

        return cmd_replay_journal(args)
    try:
        result = replay_file(args.file)
    except NotAGame as exc:
        return fail(str(exc))
    print(json.dumps(result.output(), ensure_ascii=False), flush=True)
    if result.error_line is not None:
        # exactly as the replay contract words it (scripts read it)
        print(f"line {result.error_line}: {result.reason}", file=sys.stderr)
        return 2
    return 0


def cmd_bench(args: argparse.Namespace) -> int:
    from .bench import run_all, text_lines, with_aims

    figures = run_all(args.only)
    if args.json:
        print(json.dumps(with_aims(figures), indent=2))
    else:
        print("\n".join(text_lines(figures)))
    return 0


def version() -> str:
    try:
        return metadata.version("cloud-companion")
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown version (not installed)"


def build_parser() -> argparse.ArgumentParser:
    parser = OneLineParser(
        prog=PROG,
        description="Cloud Companion keeps the books for Cloud 9, "
        "Cloudship and The Cloud Mine. Without a command it starts the app.",
    )
    parser.add_argument("--version", action="version", version=f"{PROG} {version()}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    replay = sub.add_parser("replay", help="replay a game written as JSON Lines")
    replay.add_argument("file", help="the game file, or - for standard input")
    replay.add_argument("--db", metavar="PATH", help="journal every action into this journal file")
    replay.add_argument(
        "--follow",
        action="store_true",
        help='journal each line as it arrives and print {"ok": N} once action N is '
        "saved (the default journal unless --db)",
    )
    replay.set_defaults(func=cmd_replay)
    bench = sub.add_parser("bench", help="measure speed and latency")
    bench.add_argument(
        "--json", action="store_true", help='print JSON: {"name": {"value": v, "aim": "<= 8", "met": true}, ...}'
    )
    from .bench import AREAS

    bench.add_argument(
        "--only",
        action="append",
        choices=AREAS,
        metavar="AREA",
        help=f"only this area's figures (again for more): {', '.join(AREAS)}",
    )
    bench.set_defaults(func=cmd_bench)
    for module in COMMAND_MODULES:
        import_module(module).register(sub)
    # `cloud-companion COMMAND --help` opens with what the command does, as the list says it
    for choice in sub._choices_actions:
        command = sub.choices[choice.dest]
        if command.description is None and choice.help:
            command.description = choice.help[0].upper() + choice.help[1:] + "."
    return parser


def main(argv: list[str] | None = None) -> int:
    """Runs a command; its output failing to reach stdout (a full disk, a reader gone) ends it
    in one line or quietly, never in a traceback."""
    try:
        code = _run(argv)
        failure = stdout_failure()  # what is still buffered must reach the disk too
        return cannot_write_output(failure) if failure else code
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return closed_pipe()
    except OSError as exc:
        if not is_write_failure(exc):  # not a write that found no room: a fault to see in full
            raise
        return cannot_write_output(exc)


def _run(argv: list[str] | None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser()
    commands = next(a.choices for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    # plain `cloud-companion [--options]` starts the app
    if "run" in commands and (not argv or (argv[0].startswith("-") and argv[0] not in ("-h", "--help", "--version"))):
        argv = ["run", *argv]
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit:  # --help, --version or a wrong command line
        return exit.code if isinstance(exit.code, int) else 0 if exit.code is None else 2
    # what the app's modules log (sounds off, seat buttons unavailable) names the program too
    logging.basicConfig(level=logging.WARNING, format=f"{PROG}: %(message)s")
    for handler in logging.getLogger().handlers:  # `run` puts its own in their place (one line each)
        handler._cloud_companion = True  # type: ignore[attr-defined]
    if not hasattr(args, "func"):
        parser.print_help()
        return 0
    return args.func(args)
