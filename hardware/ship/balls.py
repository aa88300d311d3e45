"""Ball detection at the hole: the break-beam sees a ball pass, the colour sensor tells which
(MicroPython and CPython).

The state machine, polled about once a millisecond:

    CLEAR --beam broken--> PASSING --beam clear again--> CLEAR, and the ball is reported
                              |
                              +--broken longer than STUCK_MS--> BLOCKED (ERR ball_sensor)
                                                                   |
                                         beam clear again <--------+

While the beam is broken the colour sensor is read and the brightest reading is kept: the
moment the ball sits square in front of it. The kind is the nearest taught colour
(calibration.classify). A break is a ball only when it lasts MIN_MS and its brightest reading
is a ball's colour: a shorter break, or one the sensor saw only the wall through (a string, a
finger, two glints close together), is a flicker and gives nothing.
"""

from clock import since

CLEAR, PASSING, BLOCKED = "clear", "passing", "blocked"
MIN_MS = 3
STUCK_MS = 400


class BallDetector:
    def __init__(self, classify, min_ms=MIN_MS, stuck_ms=STUCK_MS):
        self.classify = classify  # (r, g, b, clear) -> "rain" | "hail" | None (no ball's colour)
        self.min_ms = min_ms
        self.stuck_ms = stuck_ms
        self.state = CLEAR
        self._since = 0
        self._best = None

    def poll(self, t_ms, beam_broken, read_colour):
        """One look at the beam; `read_colour()` gives (r, g, b, clear) or raises OSError.

        Returns ("ball", kind), ("stuck", None), ("colour_failed", None) or None.
        """
        if self.state == CLEAR:
            if beam_broken:
                self.state, self._since, self._best = PASSING, t_ms, None
                return self._look(read_colour)
            return None
        if self.state == PASSING:
            if beam_broken:
                if since(t_ms, self._since) > self.stuck_ms:
                    self.state = BLOCKED
                    return ("stuck", None)
                return self._look(read_colour)
            self.state = CLEAR
            if since(t_ms, self._since) < self.min_ms:
                return None  # a flicker
            if self._best is None:
                return ("colour_failed", None)
            kind = self.classify(self._best)
            if kind is None:
                return None  # the wall's colour: something broke the beam, no ball passed
            return ("ball", kind)
        if not beam_broken:  # BLOCKED: wait for the beam to clear
            self.state = CLEAR
        return None

    def _look(self, read_colour):
        try:
            reading = read_colour()
        except OSError:
            return None
        if self._best is None or reading[3] > self._best[3]:
            self._best = reading
        return None
