"""Tilt from the MPU-6050: a complementary filter in integers (MicroPython and CPython).

The gyro is smooth but drifts; the accelerometer knows where down is but shakes with every
swing of the strings. Each step trusts the integrated gyro for GYRO_SHARE / SHARES of the angle
and the accelerometer's angle for the rest, so the tilt follows quick turns and never drifts.
A real MPU-6050's gyro reads a few degrees a second while standing still (its zero-rate
offset); left in, the filter settles that much times GYRO_SHARE / (SHARES - GYRO_SHARE) steps
away from the truth (a constant error: 3 degrees a second at 5 ms steps is 0.7 degrees). The
offset the board learned standing level (calibrate.level) is taken off each rate first.

The sensor is mounted as hardware/SHIP.md says: X to the bow, Y to port, Z up. Nose up is
positive pitch (the X axis reads +g as the bow rises; the gyro's Y rate is negative then), right
side down is positive roll. Angles are kept in UNIT (1/100000 of a degree) and worked out by
CORDIC, in small integers: on the Pico a float is an object, and a float filter at 200 Hz
allocated most of the board's memory churn.
"""

UNIT = 100000  # of a degree
SHARES = 50
GYRO_SHARE = 49  # 0.98 of the angle from the gyro
GYRO_LSB_PER_DPS = 131
MAX_DT_MS = 100  # a longer gap (a stall) integrates no more than this
# atan(2**-i) in UNIT, for the CORDIC steps; and its gain, as 1647 / 1000
# (14 steps: within 0.01 degree, a tenth of what a TILT line shows)
ATANS = (4500000, 2656505, 1403624, 712502, 357633, 178991, 89517, 44761, 22381, 11191, 5595, 2798, 1399, 699)
STEPS = len(ATANS)
GAIN_NUM, GAIN_DEN = 1647, 1000


class TiltFilter:
    def __init__(self, gyro_share=GYRO_SHARE):
        self.gyro_share = gyro_share
        self.pitch = 0  # UNIT, nose up positive
        self.roll = 0  # UNIT, right side down positive
        self.zero_pitch = 0  # the ship level on the table (calibration), UNIT
        self.zero_roll = 0
        self.gyro_zero_x = 0  # the gyro's raw counts standing still (calibration)
        self.gyro_zero_y = 0
        self._started = False
        self._angle = 0  # the last atan2's results
        self._length = 0

    def _atan2(self, y, x):
        """CORDIC vectoring: self._angle = atan2(y, x) in UNIT, self._length = |(x, y)| * 1.647."""
        angle = 0
        if x < 0:  # turn into the right half-plane first
            if y >= 0:
                x, y, angle = y, -x, 9000000
            else:
                x, y, angle = -y, x, -9000000
        for i in range(STEPS):
            if y > 0:
                x, y, angle = x + (y >> i), y - (x >> i), angle + ATANS[i]
            else:
                x, y, angle = x - (y >> i), y + (x >> i), angle - ATANS[i]
        self._angle = angle
        self._length = x

    def update(self, ax, ay, az, gx, gy, dt_ms):
        """The MPU-6050's raw counts (any scale for the accelerometer, 131 a degree a second for
        the gyro) and the ms since the last update."""
        # more bits for the steps (a short vector, the ship swung light, keeps its roll within
        # 0.01 degree); still small integers
        self._atan2(ay << 6, az << 6)
        acc_roll = self._angle
        # the same scale as the length of (ay, az), which carries the CORDIC gain (at 4 bits:
        # ax times the gain must stay a small integer)
        self._atan2((ax << 4) * GAIN_NUM // GAIN_DEN, self._length >> 2)
        acc_pitch = self._angle
        if not self._started:  # start where the accelerometer says, not at 0
            self.pitch, self.roll, self._started = acc_pitch, acc_roll, True
            return
        if dt_ms > MAX_DT_MS:
            dt_ms = MAX_DT_MS
        g, a = self.gyro_share, SHARES - self.gyro_share
        turn = UNIT // 1000 * dt_ms  # UNIT per degree a second over dt
        pitch = self.pitch - (gy - self.gyro_zero_y) * turn // GYRO_LSB_PER_DPS
        roll = self.roll + (gx - self.gyro_zero_x) * turn // GYRO_LSB_PER_DPS
        self.pitch = (g * pitch + a * acc_pitch + SHARES // 2) // SHARES
        self.roll = (g * roll + a * acc_roll + SHARES // 2) // SHARES

    def pitch_tenths(self):
        """PITCH for a TILT line: tenths of a degree from the taught level."""
        return (self.pitch - self.zero_pitch + UNIT // 20) // (UNIT // 10)

    def roll_tenths(self):
        return (self.roll - self.zero_roll + UNIT // 20) // (UNIT // 10)

    def tenths(self):
        return (self.pitch_tenths(), self.roll_tenths())

    def set_level(self):
        """The ship stands level now (calibration: zero the tilt)."""
        self.zero_pitch, self.zero_roll = self.pitch, self.roll
