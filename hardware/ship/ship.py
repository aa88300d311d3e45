"""The board's loop, without the hardware (MicroPython and CPython).

`Ship.step(now_ms)` is called as often as the board can (about once a millisecond). The
sensors come in as objects: `imu.read()` -> (ax, ay, az in g, gx, gy, gz in degrees a second),
`beam()` -> True while a ball breaks the beam, `colour()` -> (r, g, b, clear), `battery_mv()`.
main.py wires the real ones; the tests give scripted ones. A sensor that fails raises OSError:
the board says so once (ERR) and carries on with what still works.
"""

from balls import BallDetector
from motion import MotionMeter
from tilt import TiltFilter
import calibration

TILT_MS = 50    # 20 TILT lines a second
BEAT_MS = 1000  # a BEAT a second
IMU_MS = 5      # the IMU is read at 200 Hz for the filter and the motion window
LOW_BATTERY_MV = 3500


class Ship:
    def __init__(self, outbox, imu, beam, colour, battery_mv, calib=None):
        self.out = outbox
        self.imu, self.beam, self.colour, self.battery_mv = imu, beam, colour, battery_mv
        self.calib = calib or dict(calibration.DEFAULTS)
        self.tilt = TiltFilter()
        self.tilt.zero_pitch = self.calib["zero_pitch"]
        self.tilt.zero_roll = self.calib["zero_roll"]
        self.motion = MotionMeter()
        self.balls = BallDetector(lambda reading: calibration.classify(self.calib, reading))
        self._next_tilt = self._next_beat = self._next_imu = 0
        self._last_imu = None
        self._reported = {}  # error code -> True while it lasts (said once)

    def start(self, now_ms):
        self.out.hello(now_ms)
        self._next_tilt = now_ms + TILT_MS
        self._next_beat = now_ms
        self._next_imu = now_ms

    def step(self, now_ms):
        self._watch_ball(now_ms)
        if now_ms >= self._next_imu:
            self._read_imu(now_ms)
            self._next_imu = now_ms + IMU_MS
        if now_ms >= self._next_tilt:
            if not self._reported.get("imu"):
                pitch, roll = self.tilt.tenths()
                self.out.tilt(now_ms, pitch, roll, self.motion.milli_g())
            self._next_tilt += TILT_MS
            if self._next_tilt <= now_ms:  # fell behind (a slow write): no burst to catch up
                self._next_tilt = now_ms + TILT_MS
        if now_ms >= self._next_beat:
            self._beat(now_ms)
            self._next_beat = now_ms + BEAT_MS

    def _watch_ball(self, now_ms):
        try:
            broken = self.beam()
        except OSError:
            return
        seen = self.balls.poll(now_ms, broken, self.colour)
        if seen is None:
            return
        what, kind = seen
        if what == "ball":
            self.out.ball(now_ms, kind)
            self._reported.pop("ball_sensor", None)
        elif what == "stuck":
            self._error(now_ms, "ball_sensor", "beam blocked")
        elif what == "colour_failed":
            self._error(now_ms, "ball_sensor", "colour sensor did not answer")

    def _read_imu(self, now_ms):
        try:
            ax, ay, az, gx, gy, _gz = self.imu.read()
        except OSError:
            self._error(now_ms, "imu", "no answer")
            return
        if self._reported.pop("imu", None):
            self._last_imu = None
        dt = (now_ms - self._last_imu) / 1000 if self._last_imu is not None else 0.0
        self._last_imu = now_ms
        self.tilt.update(ax, ay, az, gx, gy, dt)
        self.motion.add(now_ms, ax, ay, az)

    def _beat(self, now_ms):
        try:
            mv = self.battery_mv()
        except OSError:
            mv = 0
        self.out.beat(now_ms, mv)
        if 0 < mv < LOW_BATTERY_MV:
            self._error(now_ms, "battery", "low: charge the ship")
        elif mv >= LOW_BATTERY_MV:
            self._reported.pop("battery", None)

    def _error(self, now_ms, code, text):
        if not self._reported.get(code):
            self._reported[code] = True
            self.out.err(now_ms, code, text)
