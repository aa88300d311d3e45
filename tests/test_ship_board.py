"""The board host: the firmware's own main.py on MicroPython's unix port and on CPython, the
sensors faked at the bus, the clock driven by the samples."""

import pytest

from companion.ship.board import Board, Sample, make_flash, firmware_modules
from companion.ship.judge import Judge
import companion.ship.protocol as protocol

from boardscripts import busy_flight

MICROPYTHON = Board.available("micropython")
needs_micropython = pytest.mark.skipif(MICROPYTHON is not None, reason=MICROPYTHON or "")


def judged(lines):
    judge = Judge()
    return [o for i, line in enumerate(lines) for o in judge.ship(i * 10, line)]


@needs_micropython
def test_micropython_and_cpython_give_the_same_bytes_for_the_same_samples():
    samples = busy_flight()
    mp = Board.run(samples, "micropython")
    cp = Board.run(samples, "cpython")
    assert mp.usb and mp.usb == cp.usb, (mp.stderr, cp.stderr)
    assert mp.uart == cp.uart == mp.usb  # the Bluetooth module is given every line too
    kinds = [protocol.decode(line)[0] for line in mp.usb]
    assert kinds[0] == "HELLO" and kinds.count("BALL") == 2 and "ERR" in kinds
    assert mp.report["steps"] > 3900 and mp.report["samples"] == len(samples)


def test_the_board_host_runs_the_firmware_under_cpython():
    run = Board.run([Sample(t) for t in range(1100)], "cpython")
    msgs = [protocol.decode(line) for line in run.usb]
    assert msgs[0][0] == "HELLO" and msgs[0][3][0] == protocol.VERSION
    assert [m[0] for m in msgs].count("TILT") >= 20
    assert judged(run.usb) == []


def test_a_sensor_that_does_not_answer_at_start_is_reported():
    samples = [Sample(t, imu=False) for t in range(300)]
    run = Board.run(samples, "cpython")
    errors = [protocol.decode(line)[3] for line in run.usb if line.startswith("$ERR")]
    assert errors == [["imu", "no answer"]]


def test_the_flash_holds_main_py_and_the_modules(tmp_path):
    flash = make_flash(tmp_path / "flash")
    names = {p.name for p in flash.iterdir()}
    assert "main.py" in names and "protocol.py" in names
    assert names == {"main.py"} | {p.name for p in firmware_modules()}
