"""The lines the board sends (MicroPython and CPython), and the ports they go out on.

A line is written byte by byte into a buffer kept for it: the same bytes as the protocol
module's `encode` (the companion's own file, copied onto the board as `protocol.py` when it is
flashed), without making a string per line. Each port keeps a queue of its own and takes from
it only what it can take at once; the loop never waits for a port. A line that does not fit a
port's queue is dropped there and counted: the Pi sees the gap in SEQ.

A resting ship's TILT lines may wait (`tilt(..., may_wait=True)`): the outbox holds them in the
queues, each with its own SEQ and T, and lets them go together, so the Pi's reader wakes about
once a second instead of at every line. They go the moment a line comes that may not wait
(a TILT of a moving ship, BALL, BEAT, ERR, HELLO: the waiting ones first, so SEQ stays in
order), when the first of them has waited HOLD_MS, or when a queue keeps less than HOLD_ROOM
free (a BALL and a BEAT always find room behind them: holding never drops a line).

A step that makes a line writes nothing (making it is that step's work, the longest a step
does); its bytes go from the next step on. A BALL line's go in its own step.
"""

import protocol
from clock import since

DEVICE_PREFIX = "CS-"
FIRMWARE = "0.6.0"
LINE_BYTES = protocol.MAX_LINE + 2  # with "\r\n"
QUEUE_BYTES = 1024  # a port's queue: a resting ship's second of lines (about 500 bytes), and more
STEP_BYTES = 128  # at most this much to a port in one loop step (two lines)
HEX = b"0123456789ABCDEF"
HOLD_MS = 1000  # a resting ship's TILT lines wait at most this long (its BEAT sends them sooner)
HOLD_ROOM = 2 * LINE_BYTES  # what a held batch leaves free in a queue
NAMES = {"HELLO": b"HELLO", "TILT": b"TILT", "BALL": b"BALL", "BEAT": b"BEAT", "ERR": b"ERR"}


def _bytes(line, n, data):
    """Put `data` (bytes) into line at n; where it ends."""
    for b in data:
        line[n] = b
        n += 1
    return n


def _digits(line, n, value, width):
    """Put the decimal digits of an int into line at n, at least `width` of them; where they end."""
    if value < 0:
        line[n] = 45  # "-"
        n += 1
        value = -value
    digits, rest = 1, value
    while rest >= 10:
        rest //= 10
        digits += 1
    while digits < width:
        line[n] = 48
        n += 1
        width -= 1
    i = n + digits - 1
    while i >= n:
        line[i] = 48 + value % 10
        value //= 10
        i -= 1
    return n + digits


class Port:
    """A serial port the loop never waits for. `room()` is how many bytes the port takes now
    without waiting (0: none); `write(buf, offset, n)` writes n bytes of buf from offset (a
    MicroPython stream's write takes these, and nothing is allocated for a slice). At most
    `step_bytes` go out in one loop step, so that a step stays short."""

    def __init__(self, room, write, step_bytes=STEP_BYTES, size=QUEUE_BYTES):
        self.room, self.write = room, write
        self.step_bytes = step_bytes
        self._queue = bytearray(size)
        self._start = self._end = 0
        self.dropped = 0  # lines that did not fit
        self.sent = 0  # lines queued

    def put(self, line, n):
        """Queue the first n bytes of `line`, or drop the line when the queue has no room."""
        q = self._queue
        if self._start == self._end:
            self._start = self._end = 0
        elif self._end + n > len(q):  # move what waits to the front
            waiting = self._end - self._start
            if waiting + n > len(q):
                self.dropped += 1
                return False
            for i in range(waiting):
                q[i] = q[self._start + i]
            self._start, self._end = 0, waiting
        end = self._end
        for i in range(n):
            q[end + i] = line[i]
        self._end = end + n
        self.sent += 1
        return True

    def pending(self):
        return self._end - self._start

    def free(self):
        return len(self._queue) - self._end + self._start

    def pump(self):
        """Write what the port takes now, up to step_bytes."""
        budget = self.step_bytes
        while budget > 0 and self._start < self._end:
            room = self.room()
            if room <= 0:
                return
            n = self._end - self._start
            if n > room:
                n = room
            if n > budget:
                n = budget
            self.write(self._queue, self._start, n)
            self._start += n
            budget -= n


class Outbox:
    def __init__(self, device, ports):
        self.device = device
        self.ports = ports
        self.seq = 0
        self.laps = 0  # the clock's laps: T = laps * clock.PERIOD + t_ms
        self._line = bytearray(LINE_BYTES + 16)
        self._fields3 = [0, 0, 0]  # a TILT's and a BEAT's fields, filled in place
        self._fields1 = [0]
        self.holding = False  # resting TILT lines wait in the queues
        self._fresh = False  # a line was made in this step: its bytes go from the next one
        self.held_since = 0  # the time of the first of them

    # -- writing a line into self._line: local variables and plain loops (a call a byte is
    # what costs most on the Pico) -------------------------------------------------------------

    def send(self, kind, t_ms, fields):
        line = self._line
        line[0] = 36  # "$"
        n = _bytes(line, 1, NAMES[kind])
        line[n] = 44  # ","
        n = _digits(line, n + 1, self.seq, 1)
        line[n] = 44
        if self.laps:
            n = _digits(line, n + 1, self.laps, 1)
            n = _digits(line, n, t_ms, 8)
        else:
            n = _digits(line, n + 1, t_ms, 1)
        for value in fields:
            line[n] = 44
            if isinstance(value, int):
                n = _digits(line, n + 1, value, 1)
            else:
                n = _bytes(line, n + 1, value.encode())
        cs = 0
        for i in range(1, n):
            cs ^= line[i]
        line[n] = 42  # "*"
        line[n + 1] = HEX[cs >> 4]
        line[n + 2] = HEX[cs & 15]
        line[n + 3] = 13
        line[n + 4] = 10
        n += 5
        for port in self.ports:
            port.put(line, n)
        self.seq = (self.seq + 1) % protocol.SEQ_MODULO
        self._fresh = True

    def pump(self):
        if self.holding:
            return
        if self._fresh:  # making a line is a step's work: writing it waits a millisecond
            self._fresh = False
            return
        for port in self.ports:
            port.pump()

    def release(self):
        """The held lines go out from this step's pump on."""
        self.holding = False

    def _empty(self):
        for port in self.ports:
            if port.pending():
                return False
        return True

    def _crowded(self):
        for port in self.ports:
            if port.free() < HOLD_ROOM:
                return True
        return False

    def hello(self, t_ms):
        self.seq = 0
        self.send("HELLO", t_ms, (protocol.VERSION, self.device, FIRMWARE))
        self.holding = False

    def tilt(self, t_ms, pitch, roll, motion, may_wait=False):
        if not may_wait:
            self.holding = False
        elif not self.holding and self._empty():  # a batch starts behind nothing still going out
            self.holding, self.held_since = True, t_ms
        line = self._fields3
        line[0], line[1], line[2] = pitch, roll, motion
        self.send("TILT", t_ms, line)
        if self.holding and (since(t_ms, self.held_since) >= HOLD_MS or self._crowded()):
            self.holding = False

    def ball(self, t_ms, kind):
        self.send("BALL", t_ms, (kind,))
        self.holding = self._fresh = False  # a ball's line goes out in its own step

    def beat(self, t_ms, battery_mv):
        line = self._fields1
        line[0] = battery_mv
        self.send("BEAT", t_ms, line)
        self.holding = False

    def err(self, t_ms, code, text):
        # the protocol's text fields cannot hold "$", "*" or ","
        clean = "".join(ch for ch in text if ch not in "$*," and " " <= ch <= "~")
        self.send("ERR", t_ms, (code, clean[:40]))
        self.holding = False
