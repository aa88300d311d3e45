"""Damage SQLite cannot see: cut JSON and bytes that are not UTF-8 inside a stored setup,
action or player list (a failing SD card's kind, which quick_check passes). The damaged game
is set aside (named in the history, exported as far as it reads); every other game stays
usable; no command shows a traceback and the app reaches its first frame."""

import json
import os
import sqlite3
import subprocess
import sys

import pytest

from companion.journal import Journal
from companion.rules.simulate import random_game
from journaling import MINE, play

CUTS = {
    "setup": "UPDATE games SET setup = substr(setup, 1, 17) WHERE id = 2",
    "players": "UPDATE games SET players = CAST(x'5b22416e6e222c2242ff6e225d' AS TEXT) WHERE id = 2",
    "action": "UPDATE actions SET action = substr(action, 1, 12) WHERE game_id = 2 AND seq = 3",
    "action bytes": "UPDATE actions SET action = CAST(x'7b22616374223a22ff227d' AS TEXT) WHERE game_id = 2 AND seq = 3",
    "scores": b'{"Ann":',  # bytes flipped in the file itself: the results table never hears of it
    "nesting": "UPDATE actions SET action = '" + "[" * 100_000 + "' WHERE game_id = 2 AND seq = 2",
}


def three_games(path, unfinished_damaged=False):
    """Game 1 finished, game 2 finished (the one damaged), game 3 in progress."""
    with Journal.open(path) as journal:
        play(journal, random_game(MINE, seed=1))
        play(journal, random_game(MINE, seed=2))
        play(journal, random_game(MINE, seed=3)[:5])
    return path


def damage(path, sql):
    if isinstance(sql, bytes):  # the first such bytes in the file's last games row, overwritten
        data = path.read_bytes()
        at = data.rfind(sql, 0, data.rfind(b'"game":"cloudmine"'))
        path.write_bytes(data[:at] + b"\xff" * len(sql) + data[at + len(sql) :])
        sql = "SELECT 1"
    conn = sqlite3.connect(path)
    conn.execute(sql)
    conn.commit()
    conn.close()
    assert sqlite3.connect(path).execute("PRAGMA quick_check").fetchone() == ("ok",)  # SQLite sees nothing


def cli(*args, env=None):
    return subprocess.run(
        [sys.executable, "-m", "companion", *map(str, args)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **(env or {})},
    )


def no_traceback(run):
    assert "Traceback" not in run.stderr, run.stderr
    assert all(line.startswith("cloud-companion: ") for line in run.stderr.splitlines()), run.stderr


@pytest.mark.parametrize("what", sorted(CUTS))
def test_a_damaged_game_is_set_aside_and_every_other_game_stays_usable(tmp_path, what):
    path = three_games(tmp_path / "journal.sqlite3")
    intact = {gid: Journal.read(path).export(gid) for gid in (1, 3)}
    damage(path, CUTS[what])

    history = cli("history", "--db", path)
    no_traceback(history)
    assert history.returncode == 0
    lines = history.stdout.splitlines()
    named = 0 if what == "action bytes" else 1  # bytes that are not UTF-8 show when the game is read
    assert len(lines) == 3 and sum("damaged" in line for line in lines) == named, lines
    assert "in progress" in next(line for line in lines if line.startswith("#3"))

    listed = json.loads(cli("history", "--json", "--db", path).stdout)
    assert [bool(g.get("damaged")) for g in listed] == [False, bool(named), False]

    records = cli("history", "--records", "--db", path)
    no_traceback(records)
    assert records.returncode == 0 and json.loads(records.stdout)[0]["played"] == 2

    exported = cli("export", "--all", "--out", tmp_path / "out", "--db", path)
    no_traceback(exported)
    assert exported.returncode == 1 and "game 2 is damaged" in exported.stderr
    for gid, text in intact.items():  # every intact game, whole
        assert (tmp_path / "out" / f"game-{gid}-cloudmine.jsonl").read_text() == text

    resume = cli("resume", "--db", path)
    no_traceback(resume)
    assert resume.returncode == 0 and json.loads(resume.stdout)["game"] == "cloudmine"


@pytest.mark.parametrize("what", ["setup", "action", "players"])
def test_a_damaged_unfinished_game_is_not_offered_and_the_app_reaches_its_first_frame(tmp_path, what):
    path = three_games(tmp_path / "journal.sqlite3")
    damage(path, CUTS[what].replace("id = 2", "id = 3"))
    resume = cli("resume", "--db", path)
    no_traceback(resume)
    assert resume.returncode in (1, 3)
    run = cli(
        "run",
        "--windowed",
        "--first-frame-exit",
        "--db",
        path,
        "--config",
        tmp_path / "c.toml",
        env={"SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"},
    )
    assert run.returncode == 0, run.stderr
    assert "Traceback" not in run.stderr and run.stdout.startswith("first frame after ")
    with Journal.open(path) as journal:
        assert journal.offer() is None  # never offered: it cannot be continued
        assert journal.rebuild(1).view["over"]  # the others as they were


def test_an_action_damaged_is_exported_as_far_as_it_reads(tmp_path):
    path = three_games(tmp_path / "journal.sqlite3")
    damage(path, CUTS["action"])
    run = cli("export", "--game", 2, "--db", path)
    no_traceback(run)
    assert run.returncode == 1
    rows = [json.loads(line) for line in run.stdout.splitlines()]
    assert rows == [MINE, *random_game(MINE, seed=2)[:2]]  # the setup and the two actions before


def test_a_lost_write_ahead_log_is_said_one_way_and_the_app_keeps_the_file_aside(tmp_path):
    from journaling import journal_then_die

    path = tmp_path / "journal.sqlite3"
    journal_then_die(path, seed=1, actions=6)  # the power went: every game is in the -wal
    os.unlink(f"{path}-wal")  # and the card lost it
    for command in ("history", "resume"):
        run = cli(command, "--db", path)
        no_traceback(run)
        assert run.returncode == 1 and run.stderr.count("\n") == 1
        assert "write-ahead log journal.sqlite3-wal is missing" in run.stderr
        assert "upgrade" not in run.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "journal.sqlite3",
        "journal.sqlite3-shm",
        "journal.sqlite3.lock",
    ]  # looking changed nothing
    run = cli(
        "run",
        "--windowed",
        "--first-frame-exit",
        "--db",
        path,
        "--config",
        tmp_path / "c.toml",
        env={"SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"},
    )
    assert run.returncode == 0, run.stderr
    kept = sorted(tmp_path.glob("journal.sqlite3.broken-*"))
    assert kept and "write-ahead log" in run.stderr and kept[0].name in run.stderr
    assert kept[0].read_bytes()[:16] == b"SQLite format 3\x00"  # the file as it was, for an expert
