"""Hostile input to `replay`: lines without end, values nested without end, bytes that are
not text. Every read is bounded, every refusal one line, and a follower skips the bad line
and goes on journaling."""

import json
import os
import subprocess
import sys

import pytest
from hypothesis import given, settings, strategies as st

from companion.journal import Journal
from companion.replay import MAX_DEPTH, MAX_LINE_BYTES, depth, nested_too_deeply
from companion.rules.simulate import random_game

MINE = {"game": "cloudmine", "players": ["Ann", "Ben", "Cat", "Dan", "Eve"]}
DEEP = "[" * 100_000 + "]" * 100_000
MEMORY = 200 * 1024 * 1024  # far more than any bounded read needs, far less than /dev/zero gives


def cli(*args, stdin=None, stdin_file=None):
    """The command with its address space capped: an unbounded read dies of MemoryError."""

    def cap():
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (MEMORY * 4, MEMORY * 4))

    with open(stdin_file, "rb") if stdin_file else open(os.devnull, "rb") as source:
        return subprocess.run(
            [sys.executable, "-m", "companion", *map(str, args)],
            input=stdin.encode() if stdin is not None else None,
            stdin=None if stdin is not None else source,
            capture_output=True,
            timeout=120,
            preexec_fn=cap,
        )


def one_line(run):
    err = run.stderr.decode()
    assert "Traceback" not in err and "Error" not in err.split(":")[0], err
    assert err.startswith("cloud-companion: ") and err.count("\n") == 1, err
    return err


def lines(*rows):
    return "".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows)


@pytest.mark.parametrize("how", ["file", "stdin"])
def test_replay_of_dev_zero_is_refused_in_one_line(how):
    run = cli("replay", "/dev/zero") if how == "file" else cli("replay", "-", stdin_file="/dev/zero")
    assert run.returncode == 1 and run.stdout == b""
    assert f"longer than {MAX_LINE_BYTES // 1024 // 1024} MB" in one_line(run)


def test_follow_of_dev_zero_is_refused_and_makes_no_journal(tmp_path):
    db = tmp_path / "new.sqlite3"
    run = cli("replay", "-", "--db", db, "--follow", stdin_file="/dev/zero")
    assert run.returncode == 1 and "longer than" in one_line(run)
    assert list(tmp_path.iterdir()) == []


def test_junk_input_makes_no_journal_and_no_lock(tmp_path):
    junk = tmp_path / "junk.bin"
    junk.write_bytes(bytes(range(256)) * 8)
    run = cli("replay", junk, "--db", tmp_path / "NEW.sqlite3", "--follow")
    assert run.returncode == 1 and "setup" in one_line(run)
    assert [p.name for p in tmp_path.iterdir()] == ["junk.bin"]


def test_a_setup_nested_without_end_is_exit_1_in_one_line(tmp_path):
    for args in (["replay", "-"], ["replay", "-", "--db", tmp_path / "j.sqlite3"]):
        run = cli(*args, stdin=DEEP + "\n")
        assert run.returncode == 1 and "nests too deeply" in one_line(run)


def test_an_action_nested_without_end_is_an_illegal_line(tmp_path):
    actions = random_game(MINE, seed=1)[:3]
    game = lines(MINE, actions[0], DEEP, actions[1])
    for args in (["replay", "-"], ["replay", "-", "--db", tmp_path / "j.sqlite3"]):
        run = cli(*args, stdin=game)
        assert run.returncode == 2
        assert run.stderr.decode() == "line 3: the line nests too deeply\n"
        assert json.loads(run.stdout)["error"] == {"line": 3, "reason": "the line nests too deeply"}


def test_the_follower_skips_a_line_nested_or_long_without_end_and_journals_every_later_action(tmp_path):
    db = tmp_path / "j.sqlite3"
    actions = random_game(MINE, seed=2)[:4]
    game = lines(MINE, actions[0], DEEP, actions[1], "x" * (MAX_LINE_BYTES * 3), actions[2], actions[3])
    run = cli("replay", "-", "--db", db, "--follow", stdin=game)
    assert [json.loads(x) for x in run.stdout.splitlines()] == [{"ok": n} for n in range(1, 5)]
    assert run.stderr.decode().splitlines() == [
        "line 3: the line nests too deeply",
        f"line 5: the line is longer than {MAX_LINE_BYTES // 1024 // 1024} MB",
    ]
    assert run.returncode == 2
    assert Journal.read(db).stored(1)[1] == actions


def test_odds_cloudship_on_a_state_nested_without_end_is_one_line(tmp_path):
    state = tmp_path / "state.jsonl"
    state.write_text(lines({"game": "cloudship", "players": ["A", "B"]}, DEEP))
    run = cli("odds", "cloudship", "--state", state, "--db", tmp_path / "none.sqlite3")
    assert run.returncode == 1 and "nests too deeply" in one_line(run)
    state.write_text(DEEP + "\n")
    run = cli("odds", "cloudship", "--state", state, "--db", tmp_path / "none.sqlite3")
    assert run.returncode == 1 and "nests too deeply" in one_line(run)


def test_replay_of_standard_input_names_it(tmp_path):
    bad = subprocess.run(
        [sys.executable, "-m", "companion", "replay", "-"], input=b"\xff\xfe\n", capture_output=True, timeout=120
    )
    assert bad.returncode == 1
    assert bad.stderr.decode() == "cloud-companion: cannot read standard input: it is not UTF-8 text\n"
    closed = subprocess.run(
        [sys.executable, "-m", "companion", "replay", "-"], stdin=subprocess.DEVNULL, capture_output=True, timeout=120
    )
    assert closed.returncode == 1 and "cannot read -" not in closed.stderr.decode()


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(alphabet='ab[]{}"\\'),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(alphabet="ab[]{", max_size=3), inner, max_size=3)
    ),
    max_leaves=60,
)


@settings(max_examples=300)
@given(value=json_values, spaces=st.booleans())
def test_counting_brackets_answers_the_nesting_as_walking_the_value_does(value, spaces):
    """A text's brackets bound its value's nesting (brackets inside strings only count more):
    the shortcut never lets a value through that nests too deeply."""
    text = json.dumps(value, indent=1 if spaces else None)
    assert nested_too_deeply(text, value) == (depth(value) > MAX_DEPTH)


def test_a_deep_value_with_few_brackets_cannot_exist_but_a_deep_one_is_still_refused():
    deep = json.loads("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))
    assert nested_too_deeply(json.dumps(deep), deep)
    assert not nested_too_deeply('{"act": "roll", "dice": ["[", "{"]}', {"act": "roll", "dice": ["[", "{"]})
