"""Where an absolute pointer really tapped, on an SDL that does not scale it (before 2.30).

Some touch panels present themselves as a mouse with absolute axes (ABS_X/ABS_Y and a left
button, no touch button), and so does QEMU's virtio tablet. SDL's console (kmsdrm) input before
2.30 passes such a device's raw values (0..32767, say) as pixels, so every tap lands clamped at
the screen's bottom-right corner; it also sends the button before the position read in the same
report, so a press lands where the previous one was. The loop already opens the same evdev
nodes to watch them; this reads what arrives there (SDL reads its own copies) and keeps, for
each press and release of the left button, where it happened as a fraction of the device's
range, so the loop can put the tap where it was.
"""

from __future__ import annotations

import fcntl
import struct
from collections import deque
from dataclasses import dataclass

EV_SYN, EV_KEY, EV_REL, EV_ABS = 0x00, 0x01, 0x02, 0x03
SYN_REPORT, SYN_DROPPED = 0, 3
REL_X, REL_Y = 0x00, 0x01
ABS_X, ABS_Y = 0x00, 0x01
BTN_LEFT, BTN_TOOL_PEN, BTN_TOOL_FINGER, BTN_TOUCH, BTN_STYLUS = 0x110, 0x140, 0x145, 0x14A, 0x14B
KEY_MAX, ABS_MAX, REL_MAX = 0x2FF, 0x3F, 0x0F

# struct input_event: a timeval of two longs, type, code, value (24 bytes on 64-bit, 16 on armhf)
EVENT = struct.Struct("llHHi")
ABSINFO = struct.Struct("6i")  # value, minimum, maximum, fuzz, flat, resolution
FIXED_SINCE = (2, 30, 0)  # SDL "Added support for absolute mice with evdev"
PENDING_MAX = 64  # presses and releases not yet matched: a bound, should SDL and we disagree


def _ioc_read(nr: int, size: int) -> int:
    return (2 << 30) | (size << 16) | (ord("E") << 8) | nr


def _bits(fd: int, ev: int, top: int) -> int:
    """EVIOCGBIT: the codes a device has of one event type, as an int's bits."""
    buf = bytearray(top // 8 + 1)
    fcntl.ioctl(fd, _ioc_read(0x20 + ev, len(buf)), buf)
    return int.from_bytes(buf, "little")


def _absinfo(fd: int, axis: int) -> tuple[int, int, int]:
    """EVIOCGABS: the axis's current value, minimum and maximum."""
    buf = bytearray(ABSINFO.size)
    fcntl.ioctl(fd, _ioc_read(0x40 + axis, len(buf)), buf)
    value, low, high = ABSINFO.unpack(buf)[:3]
    return value, low, high


def misplaced_by_sdl(events: int, keys: int, rels: int, axes: int) -> bool:
    """True for a device SDL's evdev code takes as a mouse with absolute axes: what its device
    classing (and udev's) calls a mouse, with ABS_X and ABS_Y and no REL_X/REL_Y."""

    def has(bits: int, code: int) -> bool:
        return bool(bits >> code & 1)

    if not (has(events, EV_ABS) and has(axes, ABS_X) and has(axes, ABS_Y)):
        return False
    if has(events, EV_REL) and has(rels, REL_X) and has(rels, REL_Y):
        return False  # a relative mouse: SDL moves it by its deltas
    if has(keys, BTN_STYLUS) or has(keys, BTN_TOOL_PEN) or has(keys, BTN_TOOL_FINGER):
        return False  # a tablet or a touchpad
    return has(keys, BTN_LEFT)  # with a mouse button it is a mouse (a touch button alone: SDL's touch path)


@dataclass(frozen=True)
class Tap:
    pressed: bool
    fx: float  # 0..1 across the device's range
    fy: float


class AbsoluteTracker:
    """One absolute pointer's node: the position, and the left button's presses and releases
    with where each happened (the position at the end of its report)."""

    def __init__(self, x_range: tuple[int, int, int], y_range: tuple[int, int, int]):
        (self.x, self.x_low, self.x_high), (self.y, self.y_low, self.y_high) = x_range, y_range
        self._report: list[bool] = []  # button changes in the report being read
        self.pending: deque[Tap] = deque(maxlen=PENDING_MAX)
        self._partial = b""

    @classmethod
    def for_node(cls, fd: int) -> AbsoluteTracker | None:
        """A tracker when the node is an absolute pointer SDL misplaces; None otherwise (or
        when the node cannot be asked)."""
        try:
            events = _bits(fd, 0, 0x1F)
            keys, rels, axes = _bits(fd, EV_KEY, KEY_MAX), _bits(fd, EV_REL, REL_MAX), _bits(fd, EV_ABS, ABS_MAX)
            if not misplaced_by_sdl(events, keys, rels, axes):
                return None
            return cls(_absinfo(fd, ABS_X), _absinfo(fd, ABS_Y))
        except OSError:
            return None

    def fraction(self) -> tuple[float, float]:
        def share(value: int, low: int, high: int) -> float:
            return min(1.0, max(0.0, (value - low) / (high - low))) if high > low else 0.0

        return share(self.x, self.x_low, self.x_high), share(self.y, self.y_low, self.y_high)

    def feed(self, data: bytes) -> None:
        """Read what arrived on the node (any number of whole or partial events)."""
        data = self._partial + data
        whole = len(data) - len(data) % EVENT.size
        self._partial = data[whole:]
        for _sec, _usec, kind, code, value in EVENT.iter_unpack(data[:whole]):
            if kind == EV_ABS and code == ABS_X:
                self.x = value
            elif kind == EV_ABS and code == ABS_Y:
                self.y = value
            elif kind == EV_KEY and code == BTN_LEFT and value in (0, 1):
                self._report.append(bool(value))
            elif kind == EV_SYN and code == SYN_REPORT:
                fx, fy = self.fraction()
                self.pending.extend(Tap(pressed, fx, fy) for pressed in self._report)
                self._report.clear()
            elif kind == EV_SYN and code == SYN_DROPPED:  # the kernel dropped events: start over
                self._report.clear()
                self.pending.clear()

    def take(self, pressed: bool) -> Tap | None:
        """The oldest press (or release) not yet placed, with the ones before it that did not
        match (SDL lost them) dropped; None when there is none."""
        while self.pending:
            tap = self.pending.popleft()
            if tap.pressed == pressed:
                return tap
        return None


def place(tap: Tap, size: tuple[int, int]) -> tuple[int, int]:
    """The pixel a tap's fractions fall on, on a display of `size`."""
    width, height = size
    return round(tap.fx * (width - 1)), round(tap.fy * (height - 1))
