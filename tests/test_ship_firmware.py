"""The ship's firmware logic under CPython: the Pico's `machine` and the sensors replaced by
scripted objects, the protocol module the companion's own (the very file flashed to the board)."""

import ast
import math
import struct
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

import companion.ship.protocol as companion_protocol
from companion.ship.judge import Judge

FIRMWARE = Path(__file__).resolve().parent.parent / "hardware" / "ship"
sys.modules.setdefault("protocol", companion_protocol)  # what flash.sh puts on the board
sys.path.append(str(FIRMWARE))

import balls  # noqa: E402
import calibration  # noqa: E402
import clock  # noqa: E402
import messages  # noqa: E402
import motion  # noqa: E402
import mpu6050  # noqa: E402
import ship  # noqa: E402
import tcs34725  # noqa: E402
import tilt  # noqa: E402

LOGIC = [
    "clock.py",
    "tilt.py",
    "motion.py",
    "balls.py",
    "calibration.py",
    "messages.py",
    "ship.py",
    "mpu6050.py",
    "tcs34725.py",
    "main.py",
    "calibrate.py",
]


def test_the_firmware_uses_the_companions_protocol_file_not_a_copy():
    assert not (FIRMWARE / "protocol.py").exists()
    assert messages.protocol is companion_protocol
    assert "companion/ship/protocol.py" in (FIRMWARE / "flash.sh").read_text()
    assert "import protocol" in (FIRMWARE / "messages.py").read_text()


@pytest.mark.parametrize("name", LOGIC)
def test_micropython_can_run_it(name):
    tree = ast.parse((FIRMWARE / name).read_text())
    for node in ast.walk(tree):
        assert not isinstance(node, (ast.AnnAssign, ast.JoinedStr, ast.NamedExpr)), (name, ast.dump(node)[:60])
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            modules = [a.name for a in node.names] if isinstance(node, ast.Import) else [node.module]
            for module in modules:
                assert module in {
                    "math",
                    "json",
                    "os",
                    "struct",
                    "sys",
                    "time",
                    "machine",
                    "protocol",
                    "select",
                    "clock",
                    "balls",
                    "motion",
                    "tilt",
                    "calibration",
                    "messages",
                    "ship",
                    "mpu6050",
                    "tcs34725",
                }, (name, module)


# -- tilt and motion ------------------------------------------------------------------------------

G = mpu6050.ACCEL_LSB_PER_G
DPS = mpu6050.GYRO_LSB_PER_DPS


def counts(accel, gyro=(0.0, 0.0)):
    return tuple(int(round(a * G)) for a in accel) + tuple(int(round(g * DPS)) for g in gyro)


def test_the_filter_finds_a_steady_tilt_and_does_not_drift():
    f = tilt.TiltFilter()
    angle = math.radians(10)
    for _ in range(400):  # roll 10 degrees, a gyro with a bias of 1 degree a second
        f.update(*counts((0.0, math.sin(angle), math.cos(angle)), (1.0, 0.0)), 5)
    assert f.roll / tilt.UNIT == pytest.approx(10.0, abs=0.3)
    assert f.pitch / tilt.UNIT == pytest.approx(0.0, abs=0.1)
    f.set_level()
    assert f.tenths() == (0, 0)


def test_the_filter_takes_off_the_gyros_offset_it_was_taught():
    angle = math.radians(10)
    errors = []
    for zero in (False, True):
        f = tilt.TiltFilter()
        if zero:  # what calibrate.level() learned: 3 and -4 degrees a second standing still
            f.gyro_zero_x, f.gyro_zero_y = 3 * DPS, -4 * DPS
        for _ in range(400):
            f.update(*counts((0.0, math.sin(angle), math.cos(angle)), (3.0, -4.0)), 5)
        errors.append((abs(f.pitch / tilt.UNIT), abs(f.roll / tilt.UNIT - 10.0)))
    assert errors[0][0] == pytest.approx(0.98, abs=0.05) and errors[0][1] == pytest.approx(0.73, abs=0.05)
    assert max(errors[1]) < 0.02


@pytest.mark.parametrize(
    "stored",
    [
        {},
        {"gyro_zero": "fast"},
        {"gyro_zero": [1.0, 2.0]},
        {"gyro_zero": [1.0, None, 2.0]},
        {"gyro_zero": [True, 0, 0]},
    ],
)
def test_a_calibration_without_a_sound_gyro_offset_takes_none_off(tmp_path, stored):
    import json

    path = tmp_path / "calibration.json"
    path.write_text(json.dumps({"zero_pitch": 1.5, **stored}))
    data = calibration.load(str(path))
    assert data["gyro_zero"] == [0.0, 0.0, 0.0] and data["zero_pitch"] == 1.5
    assert calibration.gyro_zero_counts(data, DPS) == [0, 0, 0]


def test_a_taught_gyro_offset_is_kept_as_counts(tmp_path):
    path = str(tmp_path / "calibration.json")
    data = calibration.load(path)
    data["gyro_zero"] = [3.0, -4.0, 0.25]
    calibration.save(data, path)
    assert calibration.gyro_zero_counts(calibration.load(path), DPS) == [393, -524, 33]


def test_the_filter_follows_a_quick_turn_with_the_gyro():
    f = tilt.TiltFilter()
    f.update(*counts((0.0, 0.0, 1.0)), 0)
    for _ in range(20):  # 100 ms turning at 100 degrees a second; the accelerometer still says level
        f.update(*counts((0.0, 0.0, 1.0), (100.0, 0.0)), 5)
    assert f.roll / tilt.UNIT > 7.0


@settings(max_examples=300, deadline=None)
@given(st.floats(-89.0, 89.0), st.floats(-179.0, 179.0), st.floats(0.3, 1.9))
def test_the_integer_angles_are_the_accelerometers_angles(pitch, roll, g):
    p, r = math.radians(pitch), math.radians(roll)
    ax, ay, az = g * math.sin(p), g * math.cos(p) * math.sin(r), g * math.cos(p) * math.cos(r)
    f = tilt.TiltFilter()
    f.update(*counts((ax, ay, az)), 0)  # the first update takes the accelerometer's angles
    raw = counts((ax, ay, az))
    want_pitch = math.degrees(math.atan2(raw[0], math.hypot(raw[1], raw[2])))
    assert f.pitch / tilt.UNIT == pytest.approx(want_pitch, abs=0.02)
    if abs(pitch) < 85:  # near straight up the roll is ill-defined
        want_roll = math.degrees(math.atan2(raw[1], raw[2]))
        assert f.roll / tilt.UNIT == pytest.approx(want_roll, abs=0.02)


@given(st.integers(0, 3 * 16384**2), st.integers(1, 40000))
def test_the_integer_square_root(n, guess):
    assert motion.isqrt(n, guess) == math.isqrt(n)


def test_motion_is_the_rms_deviation_from_one_g_over_50_ms():
    m = motion.MotionMeter()
    for t in range(0, 100, 5):
        m.add(t, *counts((0.0, 0.0, 1.0))[:3])
    assert m.milli_g() == 0
    for t in range(100, 200, 5):
        m.add(t, *counts((0.0, 0.0, 1.1 if t % 10 else 0.9))[:3])
    assert m.milli_g() == 100
    m.add(300, *counts((0.0, 0.0, 1.0))[:3])  # the others are older than 50 ms
    assert m.milli_g() == 0


def test_the_clock_runs_in_laps_and_compares_across_them():
    c = clock.Clock()
    c.advance(clock.PERIOD - 10)
    c.advance(25)
    assert (c.laps, c.ms) == (1, 15)
    c.advance(-5)  # never back
    assert (c.laps, c.ms) == (1, 15)
    assert clock.since(15, clock.PERIOD - 10) == 25
    assert clock.due(15, clock.PERIOD - 10) and not clock.due(clock.PERIOD - 10, 15)
    assert clock.later(clock.PERIOD - 10, 50) == 40


# -- balls ------------------------------------------------------------------------------------------

RAIN = (200, 300, 480, 900)
HAIL = (800, 820, 790, 2400)


def detector():
    return balls.BallDetector(lambda reading: calibration.classify(calibration.DEFAULTS, reading))


def test_a_ball_passing_is_reported_with_its_kind():
    d = detector()
    seen = [d.poll(t, 10 <= t < 16, lambda: HAIL) for t in range(30)]
    assert [s for s in seen if s] == [("ball", "hail")]
    seen = [d.poll(t, 40 <= t < 46, lambda: RAIN) for t in range(30, 60)]
    assert [s for s in seen if s] == [("ball", "rain")]


def test_a_flicker_is_not_a_ball_and_a_blocked_beam_is_reported_once():
    d = detector()
    assert [s for s in (d.poll(t, t in (3, 4), lambda: RAIN) for t in range(10)) if s] == []
    seen = [d.poll(t, t >= 10, lambda: RAIN) for t in range(10, 1500)]
    assert [s for s in seen if s] == [("stuck", None)]
    assert d.poll(1500, False, lambda: RAIN) is None and d.state == balls.CLEAR


WALL = (20, 20, 20, 60)  # the sensor looking across an empty hole


def test_a_break_the_sensor_saw_only_the_wall_through_is_no_ball():
    d = detector()
    # a string across the hole for 30 ms, then two glints with a gap too short for a look
    seen = [d.poll(t, 10 <= t < 40 or t in (50, 51, 52, 53), lambda: WALL) for t in range(70)]
    assert [s for s in seen if s] == []
    seen = [d.poll(t, 80 <= t < 86, lambda: RAIN) for t in range(70, 100)]
    assert [s for s in seen if s] == [("ball", "rain")]  # a ball after it is seen as ever


def test_a_ball_is_a_reading_as_bright_as_a_share_of_the_dimmer_taught_ball():
    dim = min(calibration.DEFAULTS["rain"][3], calibration.DEFAULTS["hail"][3])
    threshold = calibration.BALL_LIGHT * dim
    assert (
        calibration.classify(
            calibration.DEFAULTS, (0.22 * threshold, 0.32 * threshold, 0.46 * threshold, int(threshold) + 1)
        )
        == "rain"
    )
    assert calibration.classify(calibration.DEFAULTS, (30, 30, 30, int(threshold) - 1)) is None
    assert calibration.classify(calibration.DEFAULTS, WALL) is None


def test_motion_is_measured_from_the_accelerometers_own_one_g():
    # a chip that reads gravity 4 % high: at rest it would read 40 mg of MOTION against 1 g
    raw = motion.MotionMeter()
    own = motion.MotionMeter(one_g=round(1.04 * motion.ONE_G))
    for t in range(0, 100, 5):
        raw.add(t, *counts((0.0, 0.0, 1.04))[:3])
        own.add(t, *counts((0.0, 0.0, 1.04))[:3])
    assert raw.milli_g() == 40 and own.milli_g() == 0


def test_a_colour_sensor_that_fails_during_a_pass():
    def broken():
        raise OSError("no answer")

    d = detector()
    seen = [d.poll(t, 10 <= t < 16, broken) for t in range(30)]
    assert [s for s in seen if s] == [("colour_failed", None)]


def test_taught_colours_are_kept_and_used(tmp_path):
    path = str(tmp_path / "calibration.json")
    assert calibration.load(path) == calibration.DEFAULTS
    data = calibration.teach_colour(calibration.load(path), "rain", [(100, 400, 300, 700)] * 3)
    data = calibration.teach_colour(data, "hail", [(500, 500, 500, 3000)] * 3)
    calibration.save(data, path)
    again = calibration.load(path)
    assert again == data
    assert calibration.classify(again, (110, 390, 310, 750)) == "rain"
    assert calibration.classify(again, (490, 510, 500, 2800)) == "hail"
    (tmp_path / "broken.json").write_text("{nope")
    assert calibration.load(str(tmp_path / "broken.json")) == calibration.DEFAULTS


# -- the board's loop --------------------------------------------------------------------------------


class ListPort:
    """A port that takes every line (the sensors' tests do not test the ports)."""

    def __init__(self):
        self.lines = []

    def put(self, line, n):
        self.lines.append(bytes(line[:n]).decode("ascii"))
        return True

    def pump(self):
        pass

    def pending(self):
        return 0

    def free(self):
        return messages.QUEUE_BYTES


class ScriptedIMU:
    def __init__(self):
        self.failing = False
        self.shaking = False
        self.t = 0
        self.ax = self.ay = self.az = self.gx = self.gy = self.gz = 0

    def sample(self):
        if self.failing:
            raise OSError("no answer")
        self.t += 1
        z = 1.0 + (0.08 if self.t % 2 else -0.08) if self.shaking else 1.0
        self.ax, self.ay, self.az, self.gx, self.gy, self.gz = counts((0.0, 0.0, z), (0.0, 0.0)) + (0,)


def run_board(ms, script=lambda board, t: None, step=1, laps=0):
    port = ListPort()
    imu = ScriptedIMU()
    state = {"beam": False, "mv": 3900}
    out = messages.Outbox("CS-TEST", [port])
    out.laps = laps
    board = ship.Ship(out, imu, lambda: state["beam"], lambda: HAIL, lambda: state["mv"])
    board.start(0)
    for t in range(0, ms, step):
        script((imu, state), t)
        board.step(t)
    return [line.rstrip("\r\n") for line in port.lines]


def decoded(lines):
    return [companion_protocol.decode(line) for line in lines]


def test_hello_then_20_tilts_and_a_beat_a_second_that_the_judge_takes():
    lines = run_board(2000)
    msgs = decoded(lines)
    assert msgs[0][0] == "HELLO" and msgs[0][3] == ["1", "CS-TEST", messages.FIRMWARE]
    kinds = [m[0] for m in msgs]
    assert kinds.count("TILT") == 39  # at 50, 100, ... 1950 ms
    assert kinds.count("BEAT") == 2
    assert [m[1] for m in msgs] == list(range(len(msgs)))
    judge = Judge()
    out = [o for i, line in enumerate(lines) for o in judge.ship(i, line)]
    assert out == []  # nothing rejected, no gap


def test_a_ball_a_shake_and_a_failing_imu_as_lines():
    def script(sensors, t):
        imu, state = sensors
        state["beam"] = 500 <= t < 506
        imu.shaking = 600 <= t < 900
        imu.failing = 1000 <= t < 1200
        state["mv"] = 3400 if t >= 1500 else 3900

    msgs = decoded(run_board(2100, script))
    balls_seen = [m for m in msgs if m[0] == "BALL"]
    assert balls_seen == [("BALL", balls_seen[0][1], 506, ["hail"])]
    motions = {m[2]: m[3][2] for m in msgs if m[0] == "TILT"}
    assert motions[550] == 0 and motions[700] == 80 and motions[950] == 0
    assert not any(1000 <= t < 1200 for t in motions)  # no tilt while the IMU is silent
    assert 1250 in motions
    errors = [(m[2], m[3]) for m in msgs if m[0] == "ERR"]
    assert errors == [(1000, ["imu", "no answer"]), (2000, ["battery", "low: charge the ship"])]


def test_beats_keep_to_the_second_when_the_loop_is_slow():
    msgs = decoded(run_board(30000, step=7))  # a step every 7 ms
    beats = [m[2] for m in msgs if m[0] == "BEAT"]
    assert len(beats) == 30
    assert all(0 <= t - 1000 * k < 7 for k, t in enumerate(beats)), beats


def test_t_adds_the_clocks_laps():
    msgs = decoded(run_board(120, laps=6))
    assert [m[2] for m in msgs if m[0] == "TILT"] == [600000050, 600000100]


def test_err_text_is_made_safe_for_the_protocol():
    port = ListPort()
    out = messages.Outbox("CS-TEST", [port])
    out.err(5, "imu", "bad $ value, * here\x01")
    assert companion_protocol.decode(port.lines[0].rstrip()) == ("ERR", 0, 5, ["imu", "bad  value  here"])


text = st.text(st.characters(min_codepoint=32, max_codepoint=126, exclude_characters="$*,"), max_size=12)


@given(st.sampled_from(sorted(companion_protocol.LAYOUTS)), st.integers(0, 65535), st.integers(0, 10**12), st.data())
def test_the_boards_lines_are_the_protocols_bytes(kind, seq, t, data):
    fields = [
        data.draw(
            {
                "s": st.integers(-99999, 99999),
                "u": st.integers(0, 99999),
                "t": text,
                "k": st.sampled_from(companion_protocol.KINDS),
            }[how]
        )
        for how in companion_protocol.LAYOUTS[kind]
    ]
    port = ListPort()
    out = messages.Outbox("CS-TEST", [port])
    out.seq = seq
    out.laps, ms = divmod(t, clock.PERIOD)
    out.send(kind, ms, fields)
    assert port.lines == [companion_protocol.encode(kind, seq, t, fields) + "\r\n"]


# -- the ports ----------------------------------------------------------------------------------------


class SlowPort:
    def __init__(self):
        self.room = 0
        self.written = bytearray()

    def take(self):
        return self.room

    def write(self, buf, offset, n):
        assert 0 < n <= self.room
        self.written += buf[offset : offset + n]


def test_a_port_that_takes_nothing_drops_lines_and_counts_them_and_the_other_goes_on():
    stuck, fine = SlowPort(), SlowPort()
    fine.room = 1000
    ports = [messages.Port(stuck.take, stuck.write), messages.Port(fine.take, fine.write)]
    out = messages.Outbox("CS-TEST", ports)
    for t in range(80):
        out.beat(t, 3900)
        out.pump()  # the step that made the line writes nothing more
        out.pump()  # the next one writes it
    assert stuck.written == b"" and ports[0].dropped > 0
    assert ports[0].sent + ports[0].dropped == 80
    assert fine.written.count(b"\r\n") == 80 and ports[1].dropped == 0
    stuck.room = 1  # the host reads again: the queued lines go out whole, then the rest
    for t in range(80, 160):
        out.beat(t, 3900)
        for _ in range(100):
            out.pump()
    seqs = [companion_protocol.decode(line)[1] for line in stuck.written.decode().split("\r\n") if line]
    assert seqs[: ports[0].sent - 80] == list(range(len(seqs[: ports[0].sent - 80])))
    assert max(seqs) == 159 and len(seqs) == 160 - ports[0].dropped


def test_a_step_that_makes_a_line_writes_nothing_and_a_balls_line_goes_at_once():
    port = SlowPort()
    port.room = 1000
    out = messages.Outbox("CS-TEST", [messages.Port(port.take, port.write)])
    out.tilt(50, 1, 2, 30)
    out.pump()
    assert port.written == b""  # encoding the line was this step's work
    out.pump()
    assert port.written.startswith(b"$TILT,0,50,")
    out.ball(60, "rain")
    out.pump()
    assert port.written.endswith(b",rain*" + companion_protocol.encode("BALL", 1, 60, ["rain"])[-2:].encode() + b"\r\n")


# -- a resting ship's lines go out together ----------------------------------------------------------


class PacedPort:
    """The USB port as main.py drives it: a byte a poll, 8 a step; notes when each line's last
    byte went out."""

    def __init__(self):
        self.now = 0
        self.bytes = bytearray()
        self.out = []  # (step ms its last byte went out, line)

    def write(self, buf, offset, n):
        for b in buf[offset : offset + n]:
            self.bytes.append(b)
            if b == 10:
                self.out.append((self.now, self.bytes.decode("ascii").rstrip("\r\n")))
                self.bytes = bytearray()


def paced_board(ms, script=lambda sensors, t: None):
    return [(sent, companion_protocol.decode(line)) for sent, line in paced_lines(ms, script)]


def paced_lines(ms, script=lambda sensors, t: None):
    """(step ms its last byte went out, line) of each line the loop wrote in `ms` steps."""
    port = PacedPort()
    usb = messages.Port(lambda: 1, port.write, 8)
    imu = ScriptedIMU()
    state = {"beam": False, "mv": 3900}
    board = ship.Ship(messages.Outbox("CS-TEST", [usb]), imu, lambda: state["beam"], lambda: HAIL, lambda: state["mv"])
    board.start(0)
    for t in range(ms):
        port.now = t
        script((imu, state), t)
        board.step(t)
    assert usb.dropped == 0  # holding lines back never drops one
    return port.out


def bursts(sent_times, apart_ms=20):
    """How many times the port started writing after a pause."""
    return sum(1 for a, b in zip([-apart_ms - 1] + sent_times, sent_times) if b - a > apart_ms)


def test_a_resting_ships_lines_go_out_together_each_with_its_own_seq_and_time():
    out = paced_board(10000)
    msgs = [m for _sent, m in out]
    assert [m[1] for m in msgs] == list(range(len(msgs)))
    tilts = [m[2] for m in msgs if m[0] == "TILT"]
    assert tilts == list(range(50, tilts[-1] + 1, 50)) and tilts[-1] >= 9000  # 20 a second
    waits = [sent - m[2] for sent, m in out]
    assert max(waits) <= messages.HOLD_MS + 100  # a second at most, and the bytes' way out
    assert bursts([sent for sent, _m in out]) <= 12  # once a second, with its BEAT
    beats = [sent for sent, m in out if m[0] == "BEAT"]
    assert all(sent - t < 120 for sent, (_k, _s, t, _f) in zip(beats, [m for m in msgs if m[0] == "BEAT"]))


def test_a_moving_ships_lines_go_out_as_they_are_written():
    def shaking(sensors, t):
        sensors[0].shaking = 2000 <= t < 6000

    out = paced_board(8000, shaking)
    moving = [(sent, m) for sent, m in out if m[0] == "TILT" and m[3][2] >= ship.REST_MOTION_MG]
    assert len(moving) >= 70
    # the first moving line lets the waiting ones go, in front of it; from then on each goes alone
    assert moving[0][0] - moving[0][1][2] <= messages.QUEUE_BYTES // 8
    assert all(sent - m[2] <= 10 for sent, m in moving[2:])  # a line's 30-odd bytes at 8 a ms
    # the first resting line after the shake goes at once: the Pi times the rest from it
    first_rest = next((sent, m) for sent, m in out if m[0] == "TILT" and m[2] > 6000 and m[3][2] < 10)
    assert first_rest[0] - first_rest[1][2] <= 10


def test_a_ball_sends_what_waits_at_once_and_its_own_line_right_behind():
    def ball(sensors, t):
        sensors[1]["beam"] = 2730 <= t < 2736  # most of a second's lines are waiting

    out = paced_board(4000, ball)
    balls = [(sent, m) for sent, m in out if m[0] == "BALL"]
    assert [m[2] for _sent, m in balls] == [2736]
    sent, m = balls[0]
    ahead = sum(len(companion_protocol.encode(k, q, t, f)) + 2 for _s, (k, q, t, f) in out if q < m[1])
    queued_at_break = ahead - sum(
        len(companion_protocol.encode(k, q, t, f)) + 2 for s, (k, q, t, f) in out if q < m[1] and s < 2730
    )
    assert queued_at_break > 300  # the beam found a batch waiting
    assert sent - m[2] <= queued_at_break // 8 + 6  # nothing waited for the batch to end
    # lines of a ship whose ball may still be falling or settling are not held back
    after = [(sent, m) for sent, m in out if m[0] == "TILT" and 2800 <= m[2] < 2736 + ship.BALL_WATCH_MS]
    assert after and all(sent - m[2] <= 10 for sent, m in after)


@settings(max_examples=15, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["shake", "ball", "still"]), st.integers(1, 1500)), max_size=6))
def test_whatever_the_ship_does_every_line_goes_out_in_order_and_none_waits_long(script):
    spans, t = [], 0
    for what, ms in script:
        spans.append((what, t, t + ms))
        t += ms

    def play(sensors, now):
        imu, state = sensors
        doing = next((what for what, a, b in spans if a <= now < b), "still")
        imu.shaking = doing == "shake"
        state["beam"] = doing == "ball" and now % 400 < 6

    out = paced_board(t + 3000, play)
    msgs = [m for _sent, m in out]
    assert [m[1] for m in msgs] == list(range(len(msgs)))
    assert all(sent - m[2] <= messages.HOLD_MS + messages.QUEUE_BYTES // 8 for sent, m in out)
    assert all(sent - m[2] <= messages.QUEUE_BYTES // 8 for sent, m in out if m[0] != "TILT")  # never held


# -- the drivers, on a register map of our own -------------------------------------------------------


class RegisterBus:
    def __init__(self, registers):
        self.registers = registers
        self.written = []

    def readfrom_mem(self, address, register, n):
        data = self.registers[(address, register)]
        return data[:n]

    def readfrom_mem_into(self, address, register, buf):
        buf[:] = self.registers[(address, register)][: len(buf)]

    def writeto_mem(self, address, register, data):
        self.written.append((address, register, bytes(data)))


def test_mpu6050_scales_its_axes():
    raw = struct.pack(">hhhhhhh", 0, 8192, 16384, 0, 131, -262, 0)
    bus = RegisterBus({(0x68, 0x75): b"\x68", (0x68, 0x3B): raw})
    imu = mpu6050.MPU6050(bus)
    imu.sample()
    assert (imu.ax, imu.ay, imu.az, imu.gx, imu.gy, imu.gz) == (0, 8192, 16384, 131, -262, 0)
    imu = mpu6050.MPU6050(bus)
    assert imu.read() == (0.0, 0.5, 1.0, 1.0, -2.0, 0.0)
    assert (0x68, 0x6B, b"\x01") in bus.written
    with pytest.raises(OSError):
        mpu6050.MPU6050(RegisterBus({(0x68, 0x75): b"\x00"}))


def test_tcs34725_reads_rgb_and_clear():
    bus = RegisterBus({(0x29, 0xA0 | 0x12): b"\x44", (0x29, 0xA0 | 0x14): struct.pack("<HHHH", 900, 200, 300, 480)})
    assert tcs34725.TCS34725(bus).read() == (200, 300, 480, 900)


def test_these_are_the_firmwares_own_modules():
    for module in (balls, calibration, clock, messages, motion, mpu6050, ship, tcs34725, tilt):
        assert Path(module.__file__).parent == FIRMWARE
