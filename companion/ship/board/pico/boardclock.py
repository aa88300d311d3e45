"""The board host's clock: a stand-in for MicroPython's `time` module that the host advances
sample by sample (runs under MicroPython's unix port and under CPython alike).

The host writes one 32-byte record a sample to the board's standard input (little-endian):

    t_ms int64 | ax ay az gx gy gz int16 (the MPU-6050's raw counts) |
    r g b clear uint16 (the TCS34725's raw counts) | battery_mv uint16 | flags uint16

The record is the board's world from `t_ms` on: `ticks_ms()` is `t_ms` as the Pico counts it
(wrapping at 2**30), and the sensors read from it. `sleep_ms(n)` takes records until one is at
least `n` ms later: sleeping is where the board's time passes. At the end of the input the
board stops and a report goes to standard error (see REPORT).

A record flagged SYNC asks the board to say when it has done every step up to it: before it
waits for the next record it writes one SYNC_MARK byte on the USB port (standard output), a
byte no line of the firmware holds, so a host on a simulated clock knows which of the port's
bytes the steps up to that record wrote.
"""

import sys
import time as _real

try:
    import gc
except ImportError:  # pragma: no cover
    gc = None

# SAMPLE's places
T, ACCEL, GYRO, COLOUR, BATTERY, FLAGS = 0, 1, 4, 7, 11, 12
# flags
BEAM, NO_IMU, NO_COLOUR, MEASURE_START, MEASURE_END, SYNC = 1, 2, 4, 8, 16, 32
SYNC_MARK = b"\x00"
RECORD = 32
TICKS_PERIOD = 1 << 30  # the Pico's: ticks_diff is right within half of it
# STATS' places: loop steps timed, their total in microseconds, bytes allocated while measured,
# the measured span in ms, UART writes that would have waited for room
STEPS, STEP_US, ALLOCATED, MEASURED_MS, UART_WAITS, SAMPLES = 0, 1, 2, 3, 4, 5

SAMPLE = [0, 0, 0, 16384, 0, 0, 0, 0, 0, 0, 0, 3900, 0]
BUCKET_US, BUCKETS = 2, 400  # the steps' times, for the percentiles (the last: 0.8 ms and more)
HISTOGRAM = [0] * BUCKETS
STATS = [0, 0, -1, 0, 0, 0]
_buf = bytearray(RECORD)
_input = sys.stdin.buffer
# real microseconds when the last sleep ended, allocation mark, its t_ms, the host's own time
# in this step (the fake chips' work, which the Pico's hardware does)
_state = [0, 0, 0, 0]
_uart = [None]
_usb = [None]  # standard output, opened for the first SYNC mark
_sync = [False]  # the last record read was flagged SYNC: mark its steps done before reading on
# each step's time, when the host asks (steps_log): 2 bytes a step (us, up to 65535), kept in a
# buffer made at start (nothing allocated while the board runs), written out at the end
_steps = [None, None]  # the buffer, the file's path

if hasattr(_real, "ticks_us"):

    def _real_us():
        return _real.ticks_us()

    def _real_since(then):
        return _real.ticks_diff(_real.ticks_us(), then)
else:

    def _real_us():
        return _real.perf_counter_ns() // 1000

    def _real_since(then):
        return _real.perf_counter_ns() // 1000 - then


class Finished(Exception):
    """The host's samples have run out: the board stops."""


def log_steps(path, count):
    _steps[0], _steps[1] = bytearray(2 * count), path


def write_steps():
    if _steps[0] is not None:
        with open(_steps[1], "wb") as f:
            f.write(memoryview(_steps[0])[: 2 * min(STATS[STEPS], len(_steps[0]) // 2)])


def open_uart(fd):
    _uart[0] = open("/dev/fd/%d" % fd, "wb", 0)


def uart_stream():
    return _uart[0]


def _mark_synced():
    if _usb[0] is None:
        _usb[0] = sys.stdout.buffer
    _usb[0].write(SYNC_MARK)
    _sync[0] = False


def next_sample():
    """Take the next record; False at the end of the input."""
    if _sync[0]:
        _mark_synced()
    n = _input.readinto(_buf)
    if not n:
        return False
    while n < RECORD:  # a pipe may hand over a record in parts
        more = _input.read(RECORD - n)
        if not more:
            return False
        for i in range(len(more)):
            _buf[n + i] = more[i]
        n += len(more)
    # unpacked by hand, every field spelled out: no loop, no call, nothing allocated (a few
    # times faster under MicroPython than a loop over the bytes)
    b, s = _buf, SAMPLE
    s[0] = b[0] | (b[1] << 8) | (b[2] << 16) | (b[3] << 24) | (b[4] << 32) | (b[5] << 40) | (b[6] << 48) | (b[7] << 56)
    v = b[8] | (b[9] << 8)
    s[1] = v - 65536 if v >= 32768 else v
    v = b[10] | (b[11] << 8)
    s[2] = v - 65536 if v >= 32768 else v
    v = b[12] | (b[13] << 8)
    s[3] = v - 65536 if v >= 32768 else v
    v = b[14] | (b[15] << 8)
    s[4] = v - 65536 if v >= 32768 else v
    v = b[16] | (b[17] << 8)
    s[5] = v - 65536 if v >= 32768 else v
    v = b[18] | (b[19] << 8)
    s[6] = v - 65536 if v >= 32768 else v
    s[7] = b[20] | (b[21] << 8)
    s[8] = b[22] | (b[23] << 8)
    s[9] = b[24] | (b[25] << 8)
    s[10] = b[26] | (b[27] << 8)
    s[11] = b[28] | (b[29] << 8)
    flags = b[30] | (b[31] << 8)
    t = s[0]
    SAMPLE[FLAGS] = flags
    if flags & SYNC:
        _sync[0] = True
    STATS[SAMPLES] += 1
    if flags & MEASURE_START and gc is not None and hasattr(gc, "mem_alloc"):
        gc.collect()
        gc.disable()  # no collection while measuring: mem_alloc only grows
        _state[1] = gc.mem_alloc()
        _state[2] = t
    if flags & MEASURE_END and gc is not None and hasattr(gc, "mem_alloc") and _state[2]:
        STATS[ALLOCATED] = gc.mem_alloc() - _state[1]
        STATS[MEASURED_MS] = t - _state[2]
        gc.enable()
    return True


def now_us():
    return SAMPLE[T] * 1000


# -- MicroPython's time module, as the firmware uses it -------------------------------------------


def ticks_ms():
    return SAMPLE[T] % TICKS_PERIOD


def ticks_us():
    return (SAMPLE[T] * 1000) % TICKS_PERIOD


def ticks_cpu():
    return ticks_us()


def ticks_add(ticks, delta):
    return (ticks + delta) % TICKS_PERIOD


def ticks_diff(end, start):
    half = TICKS_PERIOD // 2
    return ((end - start + half) % TICKS_PERIOD) - half


def host_started():
    """A fake chip starts its work (its time is not the firmware's)."""
    return _real_us()


def host_done(started):
    _state[3] += _real_since(started)


def sleep_ms(ms):
    took = _real_since(_state[0]) - _state[3]
    _state[3] = 0
    log = _steps[0]
    if log is not None and 2 * STATS[STEPS] + 1 < len(log):
        at = 2 * STATS[STEPS]
        kept = took if took < 65535 else 65535
        log[at] = kept & 255
        log[at + 1] = kept >> 8
    STATS[STEPS] += 1
    STATS[STEP_US] += took
    HISTOGRAM[min(BUCKETS - 1, took // BUCKET_US)] += 1
    target = SAMPLE[T] + ms
    while True:
        if not next_sample():
            raise Finished()
        if SAMPLE[T] >= target:
            break
    _state[0] = _real_us()
    _state[3] = 0


def sleep_us(us):
    sleep_ms((us + 999) // 1000)


def sleep(seconds):
    sleep_ms(int(seconds * 1000))


def time():
    return SAMPLE[T] // 1000


def time_ns():
    return SAMPLE[T] * 1000000


def mark_step():
    """The loop's work starts now (the host's clock for the step timing)."""
    _state[0] = _real_us()
    _state[3] = 0


def report():
    """One line for the host: what the board measured about itself."""
    names = ("steps", "step_us", "allocated", "measured_ms", "uart_waits", "samples")
    parts = []
    for i in range(len(names)):
        parts.append("%s=%d" % (names[i], STATS[i]))
    for share in (50, 99):
        seen = 0
        for i in range(BUCKETS):
            seen += HISTOGRAM[i]
            if seen * 100 >= STATS[STEPS] * share:
                break
        parts.append("step_p%d_us=%d" % (share, (i + 1) * BUCKET_US))
    return "board-report " + " ".join(parts)
