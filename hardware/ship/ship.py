"""The board's loop, without the hardware (MicroPython and CPython).

`Ship.step(now_ms)` is called as often as the board can (about once a millisecond), with the
time since start within the clock's lap (clock.py; T on the lines adds the laps). The sensors
come in as objects: `imu.sample()` leaves the raw counts in imu.ax .. imu.gz (mpu6050.py),
`beam()` -> True while a ball breaks the beam, `colour()` -> (r, g, b, clear), `battery_mv()`.
main.py wires the real ones; the tests give scripted ones. A sensor that fails raises OSError:
the board says so once (ERR) and carries on with what still works. Each step ends by handing
the ports what they take (messages.Port): no write waits.

A resting ship's TILT lines may wait to go out together (messages.Outbox): MOTION below
REST_MOTION_MG, no ball in the beam and none that may still be falling or settling on a bed
(BALL_WATCH_MS since its BALL line), and not the first such line after the ship moved (that one
goes at once: the Pi times a rest from when it hears it), nor the one REST_TIME_MS later (the
one that completes the rest on the Pi, so a landing is heard when it is due).
"""

import calibration
from balls import CLEAR, BallDetector
from clock import due, later, since
from motion import ONE_G, MotionMeter
from tilt import GYRO_LSB_PER_DPS, UNIT, TiltFilter

TILT_MS = 50  # 20 TILT lines a second
BEAT_MS = 1000  # a BEAT a second
IMU_MS = 5  # the IMU is read at 200 Hz for the filter and the motion window
LOW_BATTERY_MV = 3500
REST_MOTION_MG = 10  # the judge's REST_MOTION: below it the ship stands still
BALL_WATCH_MS = 1100  # the judge's MAX_FALL and SETTLE: a ball may still be falling or settling
REST_TIME_MS = 2000  # the judge's REST_TIME: a rest this long completes (a landing)


class Ship:
    def __init__(self, outbox, imu, beam, colour, battery_mv, calib=None):
        self.out = outbox
        self.imu, self.beam, self.colour, self.battery_mv = imu, beam, colour, battery_mv
        self.calib = calib or dict(calibration.DEFAULTS)
        self.tilt = TiltFilter()
        self.tilt.zero_pitch = int(round(self.calib["zero_pitch"] * UNIT))
        self.tilt.zero_roll = int(round(self.calib["zero_roll"] * UNIT))
        gyro_zero = calibration.gyro_zero_counts(self.calib, GYRO_LSB_PER_DPS)
        self.tilt.gyro_zero_x, self.tilt.gyro_zero_y = gyro_zero[0], gyro_zero[1]
        self.motion = MotionMeter(one_g=int(round(self.calib["one_g"] * ONE_G)))
        self.balls = BallDetector(lambda reading: calibration.classify(self.calib, reading))
        self._next_tilt = self._next_beat = self._next_imu = 0
        self._last_imu = -1
        self._rested = False  # the last TILT line was a resting ship's
        self._rest_from = 0  # when the rest began
        self._rest_told = False  # its REST_TIME_MS line went out
        self._ball_at = 0  # when the last BALL line went out
        self._ball_seen = False
        self._reported = {}  # error code -> True while it lasts (said once)

    def start(self, now_ms):
        self.out.hello(now_ms)
        self._next_tilt = later(now_ms, TILT_MS)
        self._next_beat = now_ms
        self._next_imu = now_ms

    def step(self, now_ms):
        self._watch_ball(now_ms)
        if due(now_ms, self._next_imu):
            self._read_imu(now_ms)
            self._next_imu = later(now_ms, IMU_MS)
        if due(now_ms, self._next_tilt):
            if not self._reported.get("imu"):
                motion = self.motion.milli_g()
                resting = motion < REST_MOTION_MG and not self._ball_near(now_ms)
                may_wait = resting and self._rested
                if resting and not self._rested:
                    self._rest_from, self._rest_told = now_ms, False
                elif may_wait and not self._rest_told and since(now_ms, self._rest_from) >= REST_TIME_MS:
                    may_wait, self._rest_told = False, True
                self.out.tilt(now_ms, self.tilt.pitch_tenths(), self.tilt.roll_tenths(), motion, may_wait)
                self._rested = resting
            self._next_tilt = self._next(self._next_tilt, TILT_MS, now_ms)
        if due(now_ms, self._next_beat):
            self._beat(now_ms)
            self._next_beat = self._next(self._next_beat, BEAT_MS, now_ms)
        self.out.pump()

    @staticmethod
    def _next(deadline, period, now_ms):
        """The next deadline on the grid from the last one (no drift), or a period from now
        when the loop fell behind (a stall): no burst to catch up."""
        deadline = later(deadline, period)
        if due(now_ms, deadline):
            deadline = later(now_ms, period)
        return deadline

    def _ball_near(self, now_ms):
        """A ball in the beam, or one whose BALL line may still be judged on the Pi."""
        if self.balls.state != CLEAR:
            return True
        if self._ball_seen and since(now_ms, self._ball_at) < BALL_WATCH_MS:
            return True
        self._ball_seen = False
        return False

    def _watch_ball(self, now_ms):
        try:
            broken = self.beam()
        except OSError:
            return
        seen = self.balls.poll(now_ms, broken, self.colour)
        if broken and self.out.holding:
            self.out.release()  # a ball in the hole: what waits goes now, ahead of its BALL line
        if seen is None:
            return
        what, kind = seen
        if what == "ball":
            self.out.ball(now_ms, kind)
            self._ball_at, self._ball_seen = now_ms, True
            self._reported.pop("ball_sensor", None)
        elif what == "stuck":
            self._error(now_ms, "ball_sensor", "beam blocked")
        elif what == "colour_failed":
            self._error(now_ms, "ball_sensor", "colour sensor did not answer")

    def _read_imu(self, now_ms):
        imu = self.imu
        try:
            imu.sample()
        except OSError:
            self._error(now_ms, "imu", "no answer")
            return
        if self._reported.pop("imu", None):
            self._last_imu = -1
        dt = since(now_ms, self._last_imu) if self._last_imu >= 0 else 0
        self._last_imu = now_ms
        self.tilt.update(imu.ax, imu.ay, imu.az, imu.gx, imu.gy, dt)
        self.motion.add(now_ms, imu.ax, imu.ay, imu.az)

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
