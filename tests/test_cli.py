"""The `cloud-companion` command as a whole: --version, help for every subcommand, a reader
that goes away, and messages that name the program."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import build_parser
from companion.console import EXIT_CLOSED_PIPE

EXAMPLES = Path(__file__).resolve().parent.parent / "companion" / "examples"
GAME = EXAMPLES / "cloudmine-six-players.jsonl"


def cli(*args, stdin=None, env=None):
    return subprocess.run(
        [sys.executable, "-m", "companion", *map(str, args)],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **(env or {})},
    )


def test_version():
    run = cli("--version")
    assert run.returncode == 0 and run.stdout.startswith("cloud-companion 0.")


def test_every_subcommand_says_what_it_does_in_its_help():
    parser = build_parser()
    commands = parser._subparsers._group_actions[0].choices
    assert {"run", "demo", "replay", "bench", "resume", "export", "history"} <= set(commands)
    for name, command in commands.items():
        text = " ".join(command.format_help().split())  # help wraps long descriptions
        assert command.description and " ".join(command.description.split()) in text, name
    run = cli("history", "--help")
    assert run.returncode == 0 and "List every game played." in run.stdout


def journal_with_a_game(tmp_path):
    db = tmp_path / "journal.sqlite3"
    unfinished = "".join(GAME.read_text().splitlines(keepends=True)[:6])
    assert cli("replay", "-", "--db", db, stdin=unfinished).returncode == 0
    return db


def closed_reader(args):
    """Run with stdout a pipe whose reader has already gone, as in `cloud-companion ... | true`."""
    read, write = os.pipe()
    os.close(read)
    try:
        return subprocess.run(
            [sys.executable, "-m", "companion", *map(str, args)],
            stdout=write,
            stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
            timeout=120,
        )
    finally:
        os.close(write)


@pytest.mark.parametrize(
    "command",
    [
        ["replay", GAME],
        ["resume"],
        ["history"],
        ["history", "--totals"],
        ["history", "--json"],
        ["export"],
        ["export", "--all"],
        ["replay", GAME, "--follow"],
    ],
)
def test_a_reader_that_goes_away_ends_the_command_quietly(tmp_path, command):
    db = journal_with_a_game(tmp_path)
    args = (
        [*command, "--db", db]
        if command[0] in ("resume", "history", "export")
        else [*command, "--db", tmp_path / "other.sqlite3"]
        if "--follow" in command
        else command
    )
    run = closed_reader(args)
    assert run.stderr == b""  # no traceback, no "Exception ignored"
    assert run.returncode == EXIT_CLOSED_PIPE


def test_help_and_version_to_a_reader_that_went_away_stay_quiet():
    for args in (["--version"], ["history", "--help"], ["--help"]):
        run = closed_reader(args)
        assert run.stderr == b"" and run.returncode == 0  # argparse lets these go by itself


def test_messages_name_the_program(tmp_path):
    missing = tmp_path / "missing.jsonl"
    for args in (
        ["replay", missing],
        ["history", "--db", missing],
        ["resume", "--db", missing],
        ["export", "--db", missing],
        ["judge", missing],
        ["odds", "cloudship", "--state", missing],
        ["odds", "cloud9", "--roll", "red,blue", "--hand", "6"],
        ["restore", missing],
        ["simulate", "cloud9", "--games", "1", "--bots", "nobody"],
    ):
        run = cli(*args)
        assert run.returncode == 1 and run.stderr.startswith("cloud-companion: "), args
    bad = tmp_path / "bad.jsonl"
    bad.write_text("not json\n")
    assert cli("replay", bad).stderr.startswith("cloud-companion: ")
    db = journal_with_a_game(tmp_path)
    out = tmp_path / "exported"
    run = cli("export", "--all", "--db", db, "--out", out)
    assert run.returncode == 0 and run.stderr.startswith("cloud-companion: 1 game(s) written")
    # the replay contract's own line stays exactly as the contract words it
    lines = GAME.read_text().splitlines()
    illegal = "\n".join(lines[:3] + ['{"act": "fly"}']) + "\n"
    run = cli("replay", "-", stdin=illegal)
    assert run.returncode == 2 and run.stderr.startswith("line 4: ")
    assert json.loads(run.stdout)["error"]["line"] == 4


def test_the_app_logs_each_line_once(tmp_path):
    run = cli(
        "run",
        "--windowed",
        "--first-frame-exit",
        "--db",
        tmp_path / "j.sqlite3",
        "--config",
        tmp_path / "c.toml",
        env={"SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"},
    )
    assert run.returncode == 0, run.stderr
    ours = [line for line in run.stderr.splitlines() if line.startswith("cloud-companion:")]
    assert any("simulated" in line for line in ours)  # no GPIO here: it says so...
    texts = [line.split(": ")[-1] for line in ours]
    assert len(texts) == len(set(texts)), ours  # ... once, not once per log handler


@pytest.mark.parametrize(
    "args",
    [
        ["bogus"],
        ["odds"],
        ["odds", "cloudship"],
        ["simulate", "cloud9", "--games", "many"],
        ["history", "--no-such-option"],
        ["judge"],
        ["replay", "a", "b"],
        ["--no-such-option-either"],
    ],
)
def test_a_wrong_command_line_is_one_line_naming_the_program(args):
    run = cli(*args)
    assert run.returncode == 2 and run.stdout == ""
    lines = run.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("cloud-companion: ") and "--help" in lines[0], run.stderr


def into_a_full_disk(args, unbuffered: bool):
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    if unbuffered:
        env["PYTHONUNBUFFERED"] = "1"
    with open("/dev/full", "w") as full:
        return subprocess.run(
            [sys.executable, "-m", "companion", *map(str, args)],
            stdout=full,
            stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
            text=True,
            timeout=120,
            env=env,
        )


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
@pytest.mark.parametrize("unbuffered", [False, True])
@pytest.mark.parametrize(
    "command",
    [
        ["--version"],
        ["--help"],
        ["history", "--help"],
        ["replay", GAME],
        ["history"],
        ["history", "--json"],
        ["export", "--all"],
        ["resume"],
        ["judge", "RECORDING"],
        ["odds", "cloud9", "--roll", "red,green", "--hand", "3"],
        ["simulate", "cloud9", "--games", "20"],
        ["doctor", "--json"],
    ],
)
def test_output_into_a_full_disk_is_one_line_and_no_traceback(tmp_path, command, unbuffered):
    db = journal_with_a_game(tmp_path)
    recording = tmp_path / "flight.jsonl"
    recording.write_text('{"t": 0, "port": "lost"}\n{"t": 10, "port": "back"}\n')
    args = (
        [*command, "--db", db]
        if command[0] in ("resume", "history", "export") and "--help" not in command
        else [recording if arg == "RECORDING" else arg for arg in command]
    )
    run = into_a_full_disk(args, unbuffered)
    assert run.returncode == 1, run.stderr
    assert run.stderr.splitlines() == ["cloud-companion: cannot write the output: No space left on device"]


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full (Linux)")
def test_a_follower_writing_into_a_full_disk_says_the_output_not_the_input(tmp_path):
    with open("/dev/full", "w") as full, open(GAME, "rb") as game:
        run = subprocess.run(
            [sys.executable, "-m", "companion", "replay", "-", "--follow", "--db", str(tmp_path / "j.sqlite3")],
            stdin=game,
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
        )
    assert run.returncode == 1, run.stderr
    assert run.stderr.splitlines() == ["cloud-companion: cannot write the output: No space left on device"]
