"""An absolute pointer (a touch panel that says it is a mouse, QEMU's virtio tablet) taps where
it was touched on an SDL before 2.30, which passes its raw values as pixels and lands every
tap at the bottom-right corner."""

import os
import struct

import pygame
import pytest
from hypothesis import given, strategies as st

from companion.ui.loop import pointer, waiting
from companion.ui.loop.pointer import (
    ABS_X,
    ABS_Y,
    BTN_LEFT,
    BTN_TOOL_FINGER,
    BTN_TOUCH,
    EV_ABS,
    EV_KEY,
    EV_REL,
    EV_SYN,
)
from companion.ui.loop.waiting import InputWatch
from companion.ui.tools.harness import Harness

BIT = lambda *codes: sum(1 << code for code in codes)  # noqa: E731
EVENT = struct.Struct("llHHi")
TABLET_RANGE = (0, 0, 32767)


def events(*triples) -> bytes:
    return b"".join(EVENT.pack(0, 0, kind, code, value) for kind, code, value in triples)


def report(*triples) -> bytes:
    return events(*triples, (EV_SYN, 0, 0))


def virtio_tablet(monkeypatch):
    """The capabilities QEMU's virtio tablet reports: ABS_X/ABS_Y 0..32767, three mouse
    buttons, a wheel (REL_WHEEL) but no relative motion."""
    caps = {
        0: BIT(EV_SYN, EV_KEY, EV_REL, EV_ABS),
        EV_KEY: BIT(BTN_LEFT, BTN_LEFT + 1, BTN_LEFT + 2),
        EV_REL: BIT(0x08),
        EV_ABS: BIT(ABS_X, ABS_Y),
    }
    monkeypatch.setattr(pointer, "_bits", lambda fd, ev, top: caps[ev])
    monkeypatch.setattr(pointer, "_absinfo", lambda fd, axis: TABLET_RANGE)


def test_the_ioctl_numbers_are_the_kernels():
    assert pointer._ioc_read(0x40 + ABS_X, pointer.ABSINFO.size) == 0x80184540  # EVIOCGABS(ABS_X)
    assert pointer._ioc_read(0x20, 4) == 0x80044520  # EVIOCGBIT(0, 4)


@pytest.mark.parametrize(
    "keys, rels, expected",
    [
        (BIT(BTN_LEFT), 0, True),  # the virtio tablet, a touch panel that says it is a mouse
        (BIT(BTN_LEFT, BTN_TOUCH), 0, True),  # a mouse button wins over touch, as in SDL's classing
        (BIT(BTN_TOUCH), 0, False),  # a touchscreen: SDL's touch path scales it
        (BIT(BTN_LEFT, BTN_TOOL_FINGER), 0, False),  # a touchpad
        (BIT(BTN_LEFT), BIT(0, 1), False),  # a relative mouse with absolute extras
        (0, 0, False),  # an accelerometer
    ],
)
def test_only_what_sdl_takes_for_an_absolute_mouse_is_placed_by_the_app(keys, rels, expected):
    kinds = BIT(EV_KEY, EV_ABS) | (BIT(EV_REL) if rels else 0)
    assert pointer.misplaced_by_sdl(kinds, keys, rels, BIT(ABS_X, ABS_Y)) is expected
    assert not pointer.misplaced_by_sdl(BIT(EV_KEY), keys, rels, 0)  # no absolute axes at all


def test_a_press_is_placed_where_its_own_report_put_the_pointer():
    tracker = pointer.AbsoluteTracker((0, 0, 32767), (0, 0, 32767))
    # QEMU moves first, then presses in a later report; a panel may send both in one report
    tracker.feed(report((EV_ABS, ABS_X, 32767 // 4), (EV_ABS, ABS_Y, 32767 // 2)))
    tracker.feed(report((EV_KEY, BTN_LEFT, 1)))
    tracker.feed(report((EV_ABS, ABS_X, 32767), (EV_KEY, BTN_LEFT, 0), (EV_ABS, ABS_Y, 0)))
    down, up = tracker.take(True), tracker.take(False)
    assert pointer.place(down, (800, 480)) == (200, 239)  # a quarter across, half way down
    assert pointer.place(up, (800, 480)) == (799, 0)
    assert tracker.take(True) is None


def test_events_split_across_reads_and_a_drop_by_the_kernel_are_survived():
    tracker = pointer.AbsoluteTracker((0, 0, 100), (0, 0, 100))
    data = report((EV_ABS, ABS_X, 50), (EV_ABS, ABS_Y, 25), (EV_KEY, BTN_LEFT, 1))
    tracker.feed(data[:7])
    tracker.feed(data[7:30])
    tracker.feed(data[30:])
    assert tracker.pending[0] == pointer.Tap(True, 0.5, 0.25)
    tracker.feed(events((EV_KEY, BTN_LEFT, 0), (EV_SYN, 3, 0)))  # SYN_DROPPED: what was read is void
    assert not tracker.pending
    tracker.feed(report((EV_KEY, BTN_LEFT, 1)))
    assert tracker.take(False) is None  # a release SDL reported but we never saw: no guess


@given(st.integers(-50, 40000), st.integers(-50, 40000), st.integers(1, 4000), st.integers(1, 4000))
def test_a_placed_tap_is_always_on_the_display(x, y, width, height):
    tracker = pointer.AbsoluteTracker((0, 0, 32767), (0, 0, 32767))
    tracker.feed(report((EV_ABS, ABS_X, x), (EV_ABS, ABS_Y, y), (EV_KEY, BTN_LEFT, 1)))
    px, py = pointer.place(tracker.take(True), (width, height))
    assert 0 <= px < width and 0 <= py < height


@pytest.fixture
def tablet_node(tmp_path, monkeypatch):
    """A FIFO standing in for the tablet's /dev/input node, and the end QEMU writes to."""
    virtio_tablet(monkeypatch)
    node = tmp_path / "event0"
    os.mkfifo(node)
    monkeypatch.setattr(waiting, "INPUT_NODES", str(tmp_path / "event*"))
    writer = os.open(node, os.O_RDWR)
    yield writer
    os.close(writer)


def test_on_sdl_2_30_and_later_sdl_places_the_tap_itself(tablet_node):
    watch = InputWatch("kmsdrm", sdl_version=(2, 30, 0))
    os.write(tablet_node, report((EV_ABS, ABS_X, 0), (EV_ABS, ABS_Y, 0), (EV_KEY, BTN_LEFT, 1)))
    assert watch.placed(True, (800, 480)) is None
    assert InputWatch("x11", sdl_version=(2, 26, 5)).placed(True, (800, 480)) is None


def test_a_tap_on_the_tablet_presses_the_button_under_it_not_the_corner(tablet_node):
    h = Harness((800, 480))
    h.app.input = InputWatch("kmsdrm", sdl_version=(2, 26, 5))  # Bookworm's SDL
    target = h.find(h.buttons()[0].key)
    x, y = h.app.viewport.to_display(target.rect.center)
    corner = (799, 479)  # where SDL 2.26 puts the raw 0..32767 values, clamped
    assert h.app.widget_at(h.app.viewport.to_canvas(corner)) is not target
    os.write(tablet_node, report((EV_ABS, ABS_X, round(x / 799 * 32767)), (EV_ABS, ABS_Y, round(y / 479 * 32767))))
    os.write(tablet_node, report((EV_KEY, BTN_LEFT, 1)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=corner, button=1, touch=False))
    h.app.pump()
    assert h.app.pressed is target
    os.write(tablet_node, report((EV_KEY, BTN_LEFT, 0)))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=corner, button=1, touch=False))
    activated = []
    target.activate = lambda: activated.append(target)
    h.app.pump()
    assert activated == [target]
