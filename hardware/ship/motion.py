"""MOTION for a TILT line: the RMS deviation of the acceleration from 1 g over the last 50 ms,
in milli-g (MicroPython and CPython). A ship at rest reads a few mg of noise; one swinging on
its strings reads tens to hundreds."""

import math

WINDOW_MS = 50


class MotionMeter:
    def __init__(self, window_ms=WINDOW_MS):
        self.window_ms = window_ms
        self._samples = []  # (t_ms, deviation in g, squared)

    def add(self, t_ms, ax, ay, az):
        deviation = math.sqrt(ax * ax + ay * ay + az * az) - 1.0
        self._samples.append((t_ms, deviation * deviation))
        oldest = t_ms - self.window_ms
        while self._samples and self._samples[0][0] <= oldest:
            self._samples.pop(0)

    def milli_g(self):
        if not self._samples:
            return 0
        mean = sum(s for _t, s in self._samples) / len(self._samples)
        return int(round(math.sqrt(mean) * 1000))
