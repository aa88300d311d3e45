"""`cloud-companion judge FILE`: section 3 of the ship contract."""

import json
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from companion.cli import main
from tests.shipstreams import Board


def run(tmp_path, data: bytes, capsys):
    path = tmp_path / "stream.jsonl"
    path.write_bytes(data)
    code = main(["judge", str(path)])
    out, err = capsys.readouterr()
    return code, out, err


def lines(*records) -> bytes:
    return "".join(json.dumps(r) + "\n" for r in records).encode()


def test_a_recorded_flight(tmp_path, capsys):
    b = Board()
    data = lines(
        {"t": 900, "flight": "start"},
        {"t": 1000, "ship": b.ball("rain")},
        {"t": 1180, "bed": "yellow"},
        {"t": 5000, "port": "lost"},
        {"t": 6000, "port": "back"},
    )
    code, out, err = run(tmp_path, data, capsys)
    assert code == 0 and err == ""
    assert [json.loads(x) for x in out.splitlines()] == [
        {"t": 1480, "act": "drop", "ball": "rain", "bed": "yellow"},
        {"t": 4000, "link": "silent"},
        {"t": 5000, "link": "lost"},
        {"t": 6000, "link": "back"},
    ]


def test_the_contract_example_line_is_read_as_written(tmp_path, capsys):
    # the contract's example record: a raindrop that never reaches a bed
    code, out, _ = run(tmp_path, lines({"t": 1000, "ship": "$BALL,12,53021,rain*0D"}), capsys)
    assert code == 0
    assert json.loads(out) == {"t": 1800, "notice": "outside", "ball": "rain"}
    code, out, _ = run(tmp_path, lines({"t": 1000, "ship": "$BALL,12,53021,hail*0D"}), capsys)
    assert json.loads(out) == {"t": 1000, "link": "rejected", "why": "checksum"}


def test_line_ends_blank_lines_and_an_empty_file(tmp_path, capsys):
    b = Board()
    data = b' \t\r\n{"t": 0, "bed": "blue"}\r\n\n\t\n{"t": 1, "ship": "' + b.ball().encode() + b'"}'
    code, out, err = run(tmp_path, data, capsys)
    assert code == 0, err
    assert [json.loads(x)["t"] for x in out.splitlines()] == [0, 801]
    assert run(tmp_path, b"", capsys)[:2] == (0, "")


@pytest.mark.parametrize(
    "data",
    [
        b"\xef\xbb\xbf" + lines({"t": 0, "bed": "blue"}),  # a byte-order mark
        b'{"t": 0, "ship": "\xff"}\n',  # not UTF-8
        b"[1]\n",
        b"1\n",
        b'"x"\n',
        b"{\n",
        b"nonsense\n",  # not an object
        b'{"t": 0, "bed": "blue", "bed": "blue"}\n',  # a repeated key
        b'{"t": 0, "t": 0, "bed": "blue"}\n',
        b'{"t": 0, "bed": "blue", "x_note": 1}\n',  # another key
        b'{"t": 0}\n',
        b'{"bed": "blue"}\n',
        b'{"t": 0, "colour": "blue"}\n',
        b'{"t": 0, "bed": "green"}\n',
        b'{"t": 0, "bed": 1}\n',  # bad values
        b'{"t": 0, "port": "gone"}\n',
        b'{"t": 0, "flight": "START"}\n',
        b'{"t": 0, "ship": 5}\n',
        b'{"t": 0, "ship": null}\n',
        b'{"t": -1, "bed": "blue"}\n',
        b'{"t": 1.0, "bed": "blue"}\n',
        b'{"t": true, "bed": "blue"}\n',
        b'{"t": "1", "bed": "blue"}\n',
        b'{"t": NaN, "bed": "blue"}\n',
        b'{"t": 1e3, "bed": "blue"}\n',
        b'{"t": 5, "bed": "blue"}\n{"t": 4, "bed": "blue"}\n',  # time going back
        b'{"t": 0, "bed": "blue"}\n\x0c\n',  # a form feed is not blank
        lines({"t": 0, "bed": "blue"}) * 3 + b"{}\n",  # bad at the end: nothing printed
    ],
)
def test_bad_input_exits_1_with_one_line_and_nothing_on_stdout(tmp_path, capsys, data):
    code, out, err = run(tmp_path, data, capsys)
    assert code == 1
    assert out == ""
    assert err.count("\n") == 1 and err.strip()


def test_a_file_that_cannot_be_read(tmp_path, capsys):
    assert main(["judge", str(tmp_path / "missing.jsonl")]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert main(["judge", str(tmp_path)]) == 1  # a folder


def test_standard_input_through_the_real_command():
    b = Board()
    data = lines({"t": 0, "ship": b.ball("hail")}, {"t": 100, "bed": "white"})
    done = subprocess.run(
        [sys.executable, "-m", "companion", "judge", "-"], input=data, capture_output=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {"t": 400, "act": "drop", "ball": "hail", "bed": "white"}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.binary(max_size=200) | st.lists(st.text(max_size=30)).map(lambda x: "\n".join(x).encode()))
def test_junk_never_tracebacks(tmp_path, capsys, data):
    code, out, err = run(tmp_path, data, capsys)
    assert code in (0, 1)
    assert "Traceback" not in err
    if code == 1:
        assert out == "" and err.count("\n") == 1


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(
        st.tuples(st.integers(0, 500), st.sampled_from(["ship", "bed", "port", "flight"]), st.text(max_size=25)),
        max_size=20,
    )
)
def test_records_with_any_ship_text_are_judged(tmp_path, capsys, items):
    t = 0
    records = []
    for step, key, text in items:
        t += step
        value = {"ship": text, "bed": "blue", "port": "lost", "flight": "start"}[key]
        records.append({"t": t, key: value})
    code, out, err = run(tmp_path, lines(*records), capsys)
    assert code == 0, err
    times = [json.loads(x)["t"] for x in out.splitlines()]
    assert times == sorted(times)


def test_an_endless_input_is_refused_at_once(tmp_path):
    # /dev/zero never ends and has no line end: bounded, refused in one line
    run = subprocess.run(
        [sys.executable, "-m", "companion", "judge", "/dev/zero"], capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 1 and run.stdout == ""
    assert run.stderr.splitlines() == [
        "cloud-companion: judge: /dev/zero: more than 16 MiB, too long for a recording (a flight log is at most 1 MB)"
    ]


def test_a_line_far_longer_than_any_record_is_refused(tmp_path, capsys):
    data = lines({"t": 0, "port": "back"}) + b'{"t": 1, "ship": "' + b"x" * 70_000 + b'"}\n'
    code, out, err = run(tmp_path, data, capsys)
    assert code == 1 and out == ""
    assert (
        err
        == "cloud-companion: judge: "
        + str(tmp_path / "stream.jsonl")
        + ": line 2: longer than 65,536 characters, no record\n"
    )
