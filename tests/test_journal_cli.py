"""The journal's command line, through real subprocesses: replay --db/--follow, resume, export,
history."""

import json
import os
import subprocess
import sys
import threading

import pytest

from companion.journal import Journal
from companion.rules.simulate import random_game

MINE = {"game": "cloudmine", "players": ["Ann", "Ben", "Cat", "Dan", "Eve"]}


def cli(*args, stdin=None):
    return subprocess.run(
        [sys.executable, "-m", "companion", *map(str, args)], input=stdin, capture_output=True, text=True, timeout=120
    )


def jsonl(setup, actions):
    return "".join(json.dumps(x) + "\n" for x in [setup, *actions])


@pytest.fixture
def db(tmp_path):
    return tmp_path / "journal.sqlite3"


def test_replay_with_db_prints_what_replay_prints_and_journals_the_game(db):
    game = jsonl(MINE, random_game(MINE, seed=1))
    plain, journaled = cli("replay", "-", stdin=game), cli("replay", "-", "--db", db, stdin=game)
    assert journaled.returncode == plain.returncode == 0
    assert journaled.stdout == plain.stdout and journaled.stderr == ""
    [game_row] = Journal.read(db).games()
    assert game_row.status == "over" and game_row.actions == len(random_game(MINE, seed=1))


def test_replay_with_db_keeps_the_contract_on_an_illegal_line(db):
    actions = random_game(MINE, seed=2)[:4]
    game = (
        jsonl(MINE, actions)
        + '{"act": "guess", "player": "Nobody", "correct": true}\n'
        + json.dumps(random_game(MINE, seed=2)[4])
        + "\n"
    )
    plain, journaled = cli("replay", "-", stdin=game), cli("replay", "-", "--db", db, stdin=game)
    assert journaled.returncode == plain.returncode == 2
    assert journaled.stdout == plain.stdout and journaled.stderr == plain.stderr
    assert Journal.read(db).stored(1)[1] == actions  # the prefix, nothing after the bad line


def test_replay_with_db_refuses_a_bad_setup_and_journals_nothing(db):
    run = cli("replay", "-", "--db", db, stdin='{"game": "chess", "players": ["A", "B"]}\n')
    assert run.returncode == 1 and run.stdout == "" and "unknown game" in run.stderr
    assert list(db.parent.iterdir()) == []  # refused before any journal (or its lock) was made


def test_follow_acknowledges_each_action_as_soon_as_it_is_saved(db):
    """One line in, one {"ok": N} out, before the next line is even written."""
    actions = random_game(MINE, seed=3)[:8]
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "replay", "-", "--db", str(db), "--follow"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    timer = threading.Timer(60, proc.kill)  # a hang fails the test instead of blocking the suite
    timer.start()
    try:
        proc.stdin.write(json.dumps(MINE) + "\n")
        proc.stdin.flush()
        for n, action in enumerate(actions, start=1):
            proc.stdin.write(json.dumps(action) + "\n")
            proc.stdin.flush()
            assert json.loads(proc.stdout.readline()) == {"ok": n}
            # acknowledged means stored: another reader sees it now
            assert Journal.read(db).stored(1)[1] == actions[:n]
        proc.stdin.close()
        assert proc.stdout.read() == ""  # a follower's stdout holds only the acknowledgements
        assert proc.wait() == 0
    finally:
        timer.cancel()
    assert json.loads(cli("resume", "--db", db).stdout) == json.loads(
        cli("replay", "-", stdin=jsonl(MINE, actions)).stdout
    )


def test_follow_reports_and_skips_illegal_lines(db):
    actions = random_game(MINE, seed=4)[:5]
    lines = [
        json.dumps(MINE),
        json.dumps(actions[0]),
        "not json",
        "",
        json.dumps(actions[1]),
        '{"act": "undo"}',
        json.dumps({"act": "guess", "player": "Zed", "correct": True}),
        json.dumps(actions[1]),
    ]
    run = cli("replay", "-", "--db", db, "--follow", stdin="\n".join(lines) + "\n")
    out = [json.loads(line) for line in run.stdout.splitlines()]
    assert out == [{"ok": 1}, {"ok": 2}, {"ok": 3}, {"ok": 4}]
    assert run.returncode == 2
    errors = run.stderr.splitlines()
    assert len(errors) == 2 and errors[0].startswith("line 3: not JSON")
    assert errors[1] == "line 7: there is no player called 'Zed'"
    stored = Journal.read(db).stored(1)[1]
    assert stored == [actions[0], actions[1], {"act": "undo"}, actions[1]]


def test_a_line_that_is_not_utf8_is_an_illegal_line_not_the_end_of_the_input(db, tmp_path):
    actions = random_game(MINE, seed=5)[:2]
    game = (jsonl(MINE, actions[:1]) + "\n").encode() + b'{"act": "\xff"}\n' + (json.dumps(actions[1]) + "\n").encode()
    run = subprocess.run(
        [sys.executable, "-m", "companion", "replay", "-", "--db", str(db), "--follow"],
        input=game,
        capture_output=True,
        timeout=120,
    )
    assert [json.loads(line) for line in run.stdout.splitlines()] == [{"ok": 1}, {"ok": 2}]
    assert run.stderr.decode().splitlines() == ["line 4: the line is not UTF-8 text"]  # line 3 blank
    assert run.returncode == 2 and Journal.read(db).stored(1)[1] == actions
    once = subprocess.run(
        [sys.executable, "-m", "companion", "replay", "-", "--db", str(tmp_path / "b.sqlite3")],
        input=game,
        capture_output=True,
        timeout=120,
    )
    assert once.returncode == 2
    assert json.loads(once.stdout)["error"] == {"line": 4, "reason": "the line is not UTF-8 text"}


def test_follow_reads_a_named_pipe(db, tmp_path):
    fifo = tmp_path / "table.pipe"
    os.mkfifo(fifo)
    actions = random_game(MINE, seed=5)[:3]
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "replay", str(fifo), "--db", str(db), "--follow"],
        stdout=subprocess.PIPE,
        text=True,
    )
    with open(fifo, "w") as pipe:
        pipe.write(jsonl(MINE, actions))
    out, _ = proc.communicate(timeout=60)
    assert [json.loads(x) for x in out.splitlines()[:3]] == [{"ok": 1}, {"ok": 2}, {"ok": 3}]


def test_resume_prints_exactly_what_replay_prints(db):
    actions = random_game(MINE, seed=6)[:9]
    cli("replay", "-", "--db", db, stdin=jsonl(MINE, actions))
    run = cli("resume", "--db", db)
    assert run.returncode == 0 and run.stderr == ""
    assert run.stdout == cli("replay", "-", stdin=jsonl(MINE, actions)).stdout


def test_resume_without_an_unfinished_game_exits_3(db):
    db.touch()  # an empty file: a new journal, with no games yet
    run = cli("resume", "--db", db)
    assert run.returncode == 3 and run.stdout == "" and "no unfinished game" in run.stderr
    cli("replay", "-", "--db", db, stdin=jsonl(MINE, random_game(MINE, seed=7)))  # a finished game
    assert cli("resume", "--db", db).returncode == 3


def test_export_gives_back_games_that_replay_to_the_same_state(db, tmp_path):
    first = random_game(MINE, seed=8)
    second = random_game(MINE, seed=9)[:6] + [{"act": "undo"}, {"act": "undo"}, {"act": "redo"}]
    cli("replay", "-", "--db", db, stdin=jsonl(MINE, first))
    cli("replay", "-", "--db", db, stdin=jsonl(MINE, second))

    latest = cli("export", "--db", db)
    assert latest.returncode == 0 and latest.stdout == jsonl(MINE, second)  # undo and redo kept
    assert cli("replay", "-", stdin=latest.stdout).stdout == cli("resume", "--db", db).stdout
    assert cli("export", "--db", db, "--game", 1).stdout == jsonl(MINE, first)

    compact = cli("export", "--db", db, "--compact").stdout
    assert compact == jsonl(MINE, second[:5])
    assert cli("replay", "-", stdin=compact).stdout == cli("resume", "--db", db).stdout

    both = cli("export", "--db", db, "--all").stdout
    assert both == jsonl(MINE, first) + jsonl(MINE, second)

    out = tmp_path / "exported"
    run = cli("export", "--db", db, "--all", "--out", out)
    assert run.returncode == 0 and "2 game(s)" in run.stderr
    assert (out / "game-2-cloudmine.jsonl").read_text() == jsonl(MINE, second)


def test_export_of_a_missing_game_is_a_clear_error(db):
    db.touch()
    run = cli("export", "--db", db, "--game", 5)
    assert run.returncode == 1 and "there is no game 5" in run.stderr and run.stdout == ""
    assert "no game yet" in cli("export", "--db", db).stderr


def test_history_lists_games_and_totals(db):
    finished = random_game(MINE, seed=10)
    cli("replay", "-", "--db", db, stdin=jsonl(MINE, finished))
    cli("replay", "-", "--db", db, stdin=jsonl(MINE, random_game(MINE, seed=11)[:3]))
    games = json.loads(cli("history", "--db", db, "--json").stdout)
    assert [g["id"] for g in games] == [2, 1]
    assert games[1]["status"] == "over" and games[0]["status"] == "playing"
    assert games[1]["winners"] and games[1]["ended_at"] and games[1]["title"] == "The Cloud Mine"

    text = cli("history", "--db", db).stdout.splitlines()
    assert text[0].startswith("#2") and "in progress" in text[0]
    assert text[1].startswith("#1") and f"won by {', '.join(games[1]['winners'])}" in text[1]

    totals = json.loads(cli("history", "--db", db, "--totals", "--json").stdout)
    assert {t["name"] for t in totals} == set(MINE["players"])
    assert all(t["played"] == 1 for t in totals)
    assert sum(t["won"] for t in totals) == len(games[1]["winners"])
    assert cli("history", "--db", db, "--totals").stdout.startswith("The Cloud Mine\n")


def test_history_of_an_empty_journal_file(db):
    # the power went during the very first start: the file is there, and empty
    db.touch()
    for command in ("history", "resume", "export"):
        run = cli(command, "--db", db)
        assert run.returncode in (0, 1, 3) and "Traceback" not in run.stderr
    assert cli("history", "--db", db).stdout.strip() == "no games yet"
    assert cli("resume", "--db", db).returncode == 3
    assert [p.name for p in db.parent.iterdir()] == [db.name] and db.stat().st_size == 0  # looking creates nothing


def test_the_default_journal_missing_is_a_fresh_machine(tmp_path):
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")}
    run = subprocess.run(
        [sys.executable, "-m", "companion", "history"], capture_output=True, text=True, timeout=120, env=env
    )
    assert run.returncode == 0 and run.stdout.strip() == "no games yet"
    assert not (tmp_path / "data").exists()


@pytest.mark.parametrize("command", ["history", "resume", "export"])
def test_a_db_path_that_is_not_a_journal_is_said_in_one_line(tmp_path, command):
    folder = tmp_path / "folder"
    folder.mkdir()
    game = tmp_path / "game.jsonl"
    game.write_text(jsonl(MINE, random_game(MINE, seed=3)[:2]))
    for path, says in (
        (tmp_path / "typo" / "path", "there is no journal at"),
        (folder, "is a folder, not a journal file"),
        (game, "is not a journal (it is not an SQLite database)"),
    ):
        run = cli(command, "--db", path)
        assert run.returncode == 1 and run.stdout == ""
        assert run.stderr.startswith("cloud-companion: ") and says in run.stderr
        assert len(run.stderr.splitlines()) == 1
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder", "game.jsonl"]
    assert list(folder.iterdir()) == [] and game.read_text() == jsonl(MINE, random_game(MINE, seed=3)[:2])


def test_replay_into_a_mistyped_db_leaves_that_file_alone(tmp_path):
    game = tmp_path / "game.jsonl"
    text = jsonl(MINE, random_game(MINE, seed=4)[:3])
    game.write_text(text)
    folder = tmp_path / "folder"
    folder.mkdir()
    for path in (game, folder):
        run = cli("replay", game, "--db", path)
        assert run.returncode == 1 and run.stdout == "" and len(run.stderr.splitlines()) == 1
        assert run.stderr.startswith("cloud-companion: ") and "Traceback" not in run.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["folder", "game.jsonl"]  # nothing moved aside
    assert game.read_text() == text and list(folder.iterdir()) == []


def test_looking_at_a_journal_creates_no_file_beside_it(db):
    cli("replay", "-", "--db", db, stdin=jsonl(MINE, random_game(MINE, seed=5)[:4]))
    before = sorted((p.name, p.stat().st_mtime_ns, p.stat().st_size) for p in db.parent.iterdir())
    for command in (("history",), ("history", "--totals"), ("resume",), ("export", "--all")):
        assert cli(*command, "--db", db).returncode == 0
    assert sorted((p.name, p.stat().st_mtime_ns, p.stat().st_size) for p in db.parent.iterdir()) == before


def test_looking_at_a_damaged_file_is_a_clear_error_and_leaves_it_alone(db):
    db.write_bytes(b"\x00garbage" * 1000)
    for command in ("history", "resume", "export"):
        run = cli(command, "--db", db)
        assert run.returncode == 1 and "damaged" in run.stderr and "Traceback" not in run.stderr
    assert db.read_bytes() == b"\x00garbage" * 1000


def test_writing_to_a_damaged_file_keeps_it_aside_and_says_so(db):
    damaged = b"SQLite format 3\x00" + b"\x00garbage" * 1000  # a journal whose pages are gone
    db.write_bytes(damaged)
    run = cli("replay", "-", "--db", db, "--follow", stdin=jsonl(MINE, random_game(MINE, seed=12)[:2]))
    assert run.returncode == 0
    assert "could not be used" in run.stderr and "kept as journal.sqlite3.broken-" in run.stderr
    assert [json.loads(x) for x in run.stdout.splitlines()[:2]] == [{"ok": 1}, {"ok": 2}]
    kept = [p for p in db.parent.iterdir() if p.name.startswith("journal.sqlite3.broken-")]
    assert [p.read_bytes() for p in kept if not p.name.endswith(("-wal", "-shm"))] == [damaged]
