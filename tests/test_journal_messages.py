"""Bad requests to the journal's commands: one line that names the real problem, no
traceback, and nothing left behind."""

import os
import subprocess
import sys

import pytest

from companion.whose import user_name
from journaling import journal_of_games

HUGE = "1" * 23  # more than SQLite's 64-bit integers hold


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    path = tmp_path_factory.mktemp("journal") / "journal.sqlite3"
    journal_of_games(path, 2)
    return path


def cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "companion", *map(str, args)], capture_output=True, text=True, timeout=120
    )


def one_line(run):
    assert run.returncode == 1, run.stderr
    assert "Traceback" not in run.stderr and run.stderr.startswith("cloud-companion: "), run.stderr
    assert run.stderr.count("\n") == 1, run.stderr
    return run.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["export", "--game", HUGE],
        ["history", "--plot", HUGE, "--out", "x.png"],
        ["export", "--game", HUGE, "--bgstats", "x.bgsplay"],
    ],
)
def test_an_id_too_long_for_any_game_is_no_such_game(db, args):
    assert f"there is no game {HUGE}" in one_line(cli(*args, "--db", db))


def test_export_bgstats_onto_a_folder_says_so_and_leaves_nothing(db, tmp_path):
    err = one_line(cli("export", "--bgstats", tmp_path, "--db", db))
    assert "it is a folder" in err
    assert list(tmp_path.iterdir()) == [] and not tmp_path.with_name(tmp_path.name + ".tmp").exists()


def test_export_into_proc_names_the_real_problem(db):
    """/proc holds no files: root, who may write anywhere, is told that; a user, that /proc is not
    theirs to write in."""
    err = one_line(cli("export", "--all", "--out", "/proc", "--db", db))
    assert "No such file" not in err
    if os.geteuid() == 0:
        assert "no file can be made there" in err
    else:
        assert f"the user {user_name()} cannot write in /proc" in err


def test_export_into_a_file_names_it(db, tmp_path):
    plain = tmp_path / "plain.txt"
    plain.write_text("x")
    err = one_line(cli("export", "--all", "--out", plain / "games", "--db", db))
    assert f"{plain} is not a folder" in err
