"""MOTION for a TILT line: the RMS deviation of the acceleration from 1 g over the last 50 ms,
in milli-g (MicroPython and CPython). A ship at rest reads a few mg of noise; one swinging on
its strings reads tens to hundreds. Small integers only, in a fixed ring of samples: nothing is
allocated per sample."""

from clock import since

WINDOW_MS = 50
SLOTS = 16  # samples kept: 50 ms at 200 Hz is 10, with room for a faster loop
ONE_G = 8192  # the MPU-6050's counts at ±2 g, halved: every square stays a small integer


def isqrt(n, guess):
    """The integer square root of n >= 0, by Newton's steps from any guess > 0."""
    if n <= 0:
        return 0
    x = (guess + n // guess) // 2  # from here on, x is never below the root
    while True:
        y = (x + n // x) // 2
        if y >= x:
            return x
        x = y


class MotionMeter:
    def __init__(self, window_ms=WINDOW_MS, one_g=ONE_G):
        """`one_g`: what this accelerometer reads for 1 g at rest (calibration), in ONE_G's units."""
        self.window_ms = window_ms
        self.one_g = one_g
        self._t = [0] * SLOTS
        self._square = [0] * SLOTS
        self._next = 0
        self._count = 0
        self._root = ONE_G
        self._last = 0

    def add(self, t_ms, ax, ay, az):
        """The MPU-6050's raw counts (16384 a g)."""
        ax, ay, az = ax >> 1, ay >> 1, az >> 1
        self._root = isqrt(ax * ax + ay * ay + az * az, self._root or ONE_G)
        deviation = self._root - self.one_g
        i = self._next
        self._t[i] = t_ms
        self._square[i] = deviation * deviation
        self._next = (i + 1) % SLOTS
        if self._count < SLOTS:
            self._count += 1
        self._last = t_ms

    def milli_g(self):
        total = n = 0
        i = self._next
        for _ in range(self._count):
            i = (i - 1) % SLOTS
            if since(self._last, self._t[i]) >= self.window_ms:
                break
            total += self._square[i]
            n += 1
        if not n:
            return 0
        return (isqrt(total // n, ONE_G) * 1000 + ONE_G // 2) // ONE_G
