"""`cloud-companion ship-sim`: a timed script through the real command, read over its pty by the
real link, and scripts that cannot be read."""

import queue
import subprocess
import sys
import time

import pytest

from companion.cli import main
from companion.ship.judge import Judge
from companion.ship.link import ShipLink
from companion.ship.sim import ScriptError, parse_script


def test_a_timed_script_flies_the_twin_over_the_real_pty(tmp_path):
    """The script lifts the twin, carries it over a bed and hands a raindrop in; its firmware
    sees the ball pass the beam and writes BALL; a loose IMU wire is the firmware's own ERR."""
    script = tmp_path / "flight.txt"
    script.write_text("# a short flight\n0 fly\n0 over purple\n100 rain\n200 junk noise\n300 err imu\n")
    link_path = tmp_path / "ship"
    sim = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "companion",
            "ship-sim",
            "--script",
            str(script),
            "--link",
            str(link_path),
            "--linger",
            "5",
            "--seed",
            "1",
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert sim.stdout.readline().startswith("simulated ship on /dev/pts/")
        events: queue.Queue = queue.Queue()
        link = ShipLink(str(link_path), events, retry_s=0.02)
        link.start()
        records = []
        end = time.monotonic() + 15
        while time.monotonic() < end and not any(r[1:] == ("port", "lost") for r in records):
            try:
                records += events.get(timeout=0.05)
            except queue.Empty:
                pass
        link.stop()
    finally:
        sim.wait(15)
    judge = Judge()
    out = [o for t, key, value in records for o in getattr(judge, key)(t, value)]
    kinds = [o.get("link") for o in out]
    assert (
        "board" in kinds
        and {"t": out[kinds.index("board")]["t"], "link": "board", "code": "imu", "text": "no answer"} in out
    )
    balls = [v for _t, k, v in records if k == "ship" and v.startswith("$BALL")]
    assert len(balls) == 1 and ",rain*" in balls[0]
    assert kinds.count("rejected") == 1  # the junk
    assert sim.returncode == 0 and not link_path.exists()


@pytest.mark.parametrize(
    "text,why",
    [
        ("fly\n", "starts with the time"),
        ("0 jump\n", "unknown command"),
        ("0 tilt 1\n", "takes 2 to 2"),
        ("0 rain green\n", "not a bed"),
        ("0 tilt 1 nan\n", "needs numbers"),
        ("10 fly\n5 down\n", "time goes back"),
    ],
)
def test_scripts_that_cannot_be_read(tmp_path, capsys, text, why):
    with pytest.raises(ScriptError, match=why):
        parse_script(text)
    path = tmp_path / "bad.txt"
    path.write_text(text)
    assert main(["ship-sim", "--script", str(path)]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and why in err


@pytest.mark.parametrize("linger", ["1e308", "-1", "nan", "inf"])
def test_a_linger_that_is_no_time_is_refused(tmp_path, capsys, linger):
    script = tmp_path / "flight.txt"
    script.write_text("0 fly\n")
    assert main(["ship-sim", "--script", str(script), f"--linger={linger}"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith("cloud-companion: ship-sim: --linger")


@pytest.mark.parametrize("text", ["12345678901234567890123 fly\n", "0 silent 12345678901234567890123\n"])
def test_a_script_time_of_23_digits_is_refused(tmp_path, capsys, text):
    with pytest.raises(ScriptError, match="at most"):
        parse_script(text)
    path = tmp_path / "far.txt"
    path.write_text(text)
    assert main(["ship-sim", "--script", str(path)]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "at most" in err


def test_a_script_that_is_not_text_says_so(tmp_path, capsys):
    path = tmp_path / "junk.bin"
    path.write_bytes(bytes(range(128, 256)) * 4)
    assert main(["ship-sim", "--script", str(path)]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1
    assert "is not text" in err and "codec" not in err and "decode" not in err
