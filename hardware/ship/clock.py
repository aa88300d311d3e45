"""The board's time since it started, in small integers (MicroPython and CPython).

On the Pico an integer above 2**30 is a long integer: every sum allocates, and
`time.ticks_diff` is only right within 2**29 ms (6.2 days). So the loop's clock runs in laps
of PERIOD ms (about 28 hours): `ms` is the time within the lap, `laps` how many have passed.
The lines' T is `laps * PERIOD + ms`, written digit by digit (messages.py), exact however long
the board runs. Deadlines compare with `due`, spans with `since`: right across a lap's end.
"""

PERIOD = 100000000  # ms: T's last eight digits
HALF = PERIOD // 2


def since(now, then):
    """ms from `then` to `now` (both within a lap's time), for spans shorter than PERIOD."""
    return (now - then) % PERIOD


def due(now, deadline):
    """`now` is at or past `deadline` (within half a lap of it)."""
    return (now - deadline) % PERIOD < HALF


def later(t, ms):
    """`ms` after `t`, in a lap's time."""
    return (t + ms) % PERIOD


class Clock:
    """Fed the ms that passed at each look at the Pico's clock (time.ticks_diff)."""

    def __init__(self):
        self.laps = 0
        self.ms = 0

    def advance(self, delta_ms):
        if delta_ms > 0:  # the Pico's clock never goes back; a negative step is no step
            self.ms += delta_ms
            while self.ms >= PERIOD:
                self.ms -= PERIOD
                self.laps += 1
