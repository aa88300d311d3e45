"""Tilt from the MPU-6050: a complementary filter (MicroPython and CPython).

The gyro is smooth but drifts; the accelerometer knows where down is but shakes with every
swing of the strings. Each step trusts the integrated gyro for `ALPHA` of the angle and the
accelerometer's angle for the rest, so the tilt follows quick turns and never drifts away.
"""

import math

ALPHA = 0.98


class TiltFilter:
    def __init__(self, alpha=ALPHA):
        self.alpha = alpha
        self.pitch = 0.0  # degrees, nose up positive
        self.roll = 0.0   # degrees, right side down positive
        self.zero_pitch = 0.0  # the ship level on the table (calibration)
        self.zero_roll = 0.0
        self._started = False

    def update(self, ax, ay, az, gx, gy, dt):
        """Accelerations in g, rotation rates in degrees a second, dt in seconds."""
        acc_pitch = math.degrees(math.atan2(-ax, math.sqrt(ay * ay + az * az)))
        acc_roll = math.degrees(math.atan2(ay, az))
        if not self._started:  # start where the accelerometer says, not at 0
            self.pitch, self.roll, self._started = acc_pitch, acc_roll, True
        else:
            a = self.alpha
            self.pitch = a * (self.pitch + gy * dt) + (1 - a) * acc_pitch
            self.roll = a * (self.roll + gx * dt) + (1 - a) * acc_roll
        return self.tenths()

    def tenths(self):
        """PITCH and ROLL for a TILT line: tenths of a degree from the taught level."""
        return (int(round((self.pitch - self.zero_pitch) * 10)),
                int(round((self.roll - self.zero_roll) * 10)))

    def set_level(self):
        """The ship stands level now (calibration: zero the tilt)."""
        self.zero_pitch, self.zero_roll = self.pitch, self.roll
