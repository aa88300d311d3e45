"""How the app's loop sleeps while nothing happens, and what wakes it.

pygame cannot sleep until input arrives: `pygame.event.wait(timeout)` (pygame and pygame-ce
alike, on any SDL) is a loop that pumps SDL and sleeps 1 ms, about 1.5-2% of a core while
nothing happens. So the loop sleeps in `select()` on:

- a pipe that device threads write to (`Waker.set`, through `App.post` / `App.wake`);
- the file descriptors input arrives on, where the video driver's are known: the X server
  connection (x11), the touchscreen's and keyboard's /dev/input/event* nodes (kmsdrm, which
  reads them itself with its evdev code; we only watch them). The dummy and offscreen
  drivers have no input of their own at all.

With input watched, the loop wakes only for input, a device, a timer or an animation frame,
and once per `WATCHED_IDLE_S` in case SDL has something of its own (a hot-plugged device).
Where input cannot be watched (wayland, an input node we may not read) it polls as before.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import errno
import glob
import os
import select
import weakref

from .pointer import FIXED_SINCE, AbsoluteTracker, place

WATCHED_IDLE_S = 2.0  # input is watched: a look at SDL now and then all the same (a device plugged in)
INPUT_NODES = "/dev/input/event*"
NO_INPUT_DRIVERS = ("dummy", "offscreen")  # nothing to watch: posts and timers only


class Waker:
    """A thread-safe wake-up the loop can `select()` on together with input descriptors."""

    def __init__(self):
        self._read, self._write = os.pipe()
        os.set_blocking(self._read, False)
        os.set_blocking(self._write, False)
        weakref.finalize(self, _close_all, (self._read, self._write))

    def fileno(self) -> int:
        return self._read

    def set(self) -> None:
        try:
            os.write(self._write, b"!")
        except BlockingIOError:  # the pipe is full: the loop is awake anyway
            pass

    def clear(self) -> None:
        try:
            while os.read(self._read, 4096):
                pass
        except BlockingIOError:
            pass


def _close_all(fds) -> None:
    for fd in fds:
        try:
            os.close(fd)
        except OSError:
            pass


class InputWatch:
    """The descriptors SDL's input arrives on for the current video driver; `None` from
    `fds()` means they are not known and the loop must poll."""

    def __init__(
        self, driver: str | None, wm_info: dict | None = None, sdl_version: tuple[int, int, int] = FIXED_SINCE
    ):
        self.driver = (driver or "").lower()
        self._x11_fd: int | None = None
        self._evdev: dict[str, int] = {}
        self._nodes: list[str] = []
        # kmsdrm on an SDL that passes an absolute pointer's raw values as pixels: placed here
        self._place_absolute = self.driver == "kmsdrm" and tuple(sdl_version) < FIXED_SINCE
        self._pointers: dict[int, AbsoluteTracker] = {}
        if self.driver == "x11":
            self._x11_fd = x11_connection_fd(wm_info or {})
        elif self.driver == "kmsdrm":
            self.rescan()
        weakref.finalize(self, _close_all, self._evdev.values())

    @classmethod
    def for_display(cls) -> InputWatch:
        import pygame

        driver = pygame.display.get_driver() if pygame.display.get_init() else None
        try:
            info = pygame.display.get_wm_info() if driver == "x11" else {}
        except pygame.error:
            info = {}
        return cls(driver, info, pygame.get_sdl_version())

    @property
    def watched(self) -> bool:
        """True when every input is seen by `select()` on `fds()` (or there is none)."""
        return self.fds() is not None

    def fds(self) -> list[int] | None:
        if self.driver in NO_INPUT_DRIVERS:
            return []
        if self._x11_fd is not None:
            return [self._x11_fd]
        if self.driver == "kmsdrm" and len(self._evdev) == len(self._nodes):
            return list(self._evdev.values())  # none at all: only the seat buttons, for now
        return None

    def rescan(self) -> None:
        """kmsdrm: (re)open the input nodes when they change (a touchscreen plugged in later)."""
        if self.driver != "kmsdrm":
            return
        nodes = sorted(glob.glob(INPUT_NODES))
        if nodes == self._nodes:
            return
        self._nodes = nodes
        for path in list(self._evdev):
            if path not in nodes:
                self._forget(path)
        for path in nodes:
            if path not in self._evdev:
                try:
                    self._evdev[path] = fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
                except OSError:  # not in the `input` group: this node cannot be watched
                    continue
                tracker = AbsoluteTracker.for_node(fd) if self._place_absolute else None
                if tracker is not None:
                    self._pointers[fd] = tracker

    def _forget(self, path: str) -> None:
        fd = self._evdev.pop(path)
        self._pointers.pop(fd, None)
        _close_all([fd])

    def drain(self, ready: list[int]) -> None:
        """Read away what woke us on our own evdev descriptors (SDL reads its own copies); an
        absolute pointer's events are kept track of on the way."""
        for path, fd in list(self._evdev.items()):
            if fd not in ready and fd not in self._pointers:
                continue
            tracker = self._pointers.get(fd)
            try:
                while data := os.read(fd, 4096):
                    if tracker is not None:
                        tracker.feed(data)
            except BlockingIOError:
                pass
            except OSError as exc:  # unplugged: forget it until the next rescan
                if exc.errno in (errno.ENODEV, errno.EIO):
                    self._forget(path)
                    self._nodes = []

    def placed(self, pressed: bool, size: tuple[int, int]) -> tuple[int, int] | None:
        """Where the left button's press (or release) SDL just reported happened, on a display
        of `size`, when it came from an absolute pointer SDL misplaces; None otherwise."""
        if not self._pointers:
            return None
        self.drain([])  # SDL has read this press: our copy of it is here too
        for tracker in self._pointers.values():
            tap = tracker.take(pressed)
            if tap is not None:
                return place(tap, size)
        return None


def x11_connection_fd(wm_info: dict) -> int | None:
    """The X server connection's descriptor, from the Display* SDL reports (libX11's
    XConnectionNumber); None when it cannot be found."""
    display = wm_info.get("display")
    if display is None:
        return None
    try:
        get_pointer = ctypes.pythonapi.PyCapsule_GetPointer
        get_pointer.restype = ctypes.c_void_p
        get_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
        pointer = get_pointer(display, b"display")
        x11 = ctypes.CDLL(ctypes.util.find_library("X11") or "libX11.so.6")
        x11.XConnectionNumber.restype = ctypes.c_int
        x11.XConnectionNumber.argtypes = [ctypes.c_void_p]
        fd = x11.XConnectionNumber(pointer)
    except (OSError, ValueError, AttributeError, TypeError):
        return None
    return fd if fd >= 0 else None


def sleep_until(waker: Waker, fds: list[int], timeout: float | None) -> list[int]:
    """Sleep until the waker is set, a descriptor is readable, or `timeout` passes; the
    readable input descriptors."""
    try:
        ready, _, _ = select.select([waker.fileno(), *fds], [], [], timeout)
    except InterruptedError:
        return []
    return [fd for fd in ready if fd != waker.fileno()]
