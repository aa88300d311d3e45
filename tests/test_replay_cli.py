"""`cloud-companion replay` through a real subprocess: output, exit codes and messages."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parent.parent / "companion" / "examples"
MINE = '{"game": "cloudmine", "players": ["Ann", "Ben", "Cat", "Dan", "Eve"]}'


def replay(*args, stdin=None):
    return subprocess.run(
        [sys.executable, "-m", "companion", "replay", *args], input=stdin, capture_output=True, text=True, timeout=60
    )


def test_every_bundled_example_replays_to_its_end():
    examples = sorted(EXAMPLES.glob("*.jsonl"))
    assert {p.name.split("-")[0] for p in examples} == {"cloud9", "cloudship", "cloudmine"}
    for path in examples:
        run = replay(str(path))
        assert run.returncode == 0, (path.name, run.stderr)
        state = json.loads(run.stdout)
        assert state["over"], path.name
        # every game has winners, except a Cloudship crew that lost to the storm
        assert state["winners"] or state.get("result") == "lost", path.name
        assert run.stderr == ""


def test_standard_input_and_blank_lines():
    game = MINE + "\n\n" + '{"act": "guess", "player": "Ben", "correct": true}\n\n'
    run = replay("-", stdin=game)
    assert run.returncode == 0, run.stderr
    state = json.loads(run.stdout)
    assert state["scores"]["Ben"] == 5 and state["round"] == 2


def test_blank_lines_before_the_setup_are_skipped_and_lines_still_counted():
    game = "\n\n" + MINE + "\n" + '{"act": "guess", "player": "Cat", "correct": true}\n'
    run = replay("-", stdin=game)
    assert run.returncode == 2
    assert json.loads(run.stdout)["error"]["line"] == 4  # physical lines, blank ones included


def test_a_byte_order_mark_and_a_null_first_player_are_read_as_meant(tmp_path):
    path = tmp_path / "game.jsonl"
    path.write_text(
        '{"game": "cloudmine", "players": ["Ann", "Ben", "Cat"], "first_dreamer": null}\n', encoding="utf-8-sig"
    )
    run = replay(str(path))
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["dreamer"] == "Ann"


def test_illegal_line_exits_2_with_the_state_before_it():
    game = "\n".join(
        [
            MINE,
            "",
            '{"act": "guess", "player": "Ben", "correct": false}',
            '{"act": "guess", "player": "Ben", "correct": true}',
            '{"act": "guess", "player": "Cat", "correct": true}',
        ]
    )
    run = replay("-", stdin=game)
    assert run.returncode == 2
    state = json.loads(run.stdout)
    assert state["error"]["line"] == 4
    assert "Ben cannot guess yet" in state["error"]["reason"]
    assert state["to_guess"] == "Cat" and state["dreamer_pile"] == 1  # line 3 applied, not 4/5
    assert run.stderr.strip() == f"line 4: {state['error']['reason']}"


@pytest.mark.parametrize(
    "line",
    ["not json", "[1, 2]", '"guess"', '{"player": "Ben"}', '{"act": "guess", "player": "Ben"}', '{"act": "undo"}'],
)
def test_unreadable_or_incomplete_action_is_exit_2(line):
    run = replay("-", stdin=MINE + "\n" + line + "\n")
    assert run.returncode == 2
    assert json.loads(run.stdout)["error"]["line"] == 2
    assert run.stderr.startswith("line 2: ") and "Traceback" not in run.stderr


@pytest.mark.parametrize(
    "setup,words",
    [
        ("", "empty"),
        ("\n\n", "empty"),
        ("\n{not json", "line 2: the setup is not JSON"),
        ("{not json", "not JSON"),
        ("[]", "object"),
        ('{"game": "chess", "players": ["A", "B"]}', "unknown game"),
        ('{"game": "cloudmine", "players": ["A", "B"]}', "3 to 8 players"),
        ('{"game": "cloudmine", "players": ["A", "A", "B"]}', "unique"),
    ],
)
def test_not_a_game_is_exit_1_with_one_line_and_no_stdout(setup, words):
    run = replay("-", stdin=setup)
    assert run.returncode == 1
    assert run.stdout == ""
    assert words in run.stderr and len(run.stderr.strip().splitlines()) == 1
    assert "Traceback" not in run.stderr


def test_missing_file_and_binary_file_are_exit_1(tmp_path):
    run = replay(str(tmp_path / "nope.jsonl"))
    assert run.returncode == 1 and "cannot read" in run.stderr and run.stdout == ""
    junk = tmp_path / "junk.jsonl"
    junk.write_bytes(b"\xff\xfe\x00garbage")
    run = replay(str(junk))
    assert run.returncode == 1 and run.stdout == "" and "Traceback" not in run.stderr
