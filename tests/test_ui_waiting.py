"""The idle loop sleeps in select() and wakes at once for a device thread, and for input on
the descriptors SDL reads (the X connection under x11, /dev/input nodes under kmsdrm)."""

import os
import shutil
import subprocess
import sys
import threading
import time

import pygame
import pytest

from companion.ui.loop import app as app_module, waiting
from companion.ui.loop.waiting import InputWatch, Waker, sleep_until
from companion.ui.tools.harness import Harness


def run_for(h: Harness, seconds: float) -> int:
    """Run the real loop for `seconds` of idle time; how many passes it made."""
    passes = [0]
    pump = h.app.pump

    def counting_pump():
        passes[0] += 1
        pump()

    h.app.pump = counting_pump
    timer = threading.Timer(seconds, lambda: h.app.post(pygame.QUIT))
    timer.start()
    h.app.run()
    timer.join()
    return passes[0]


def test_the_dummy_driver_has_no_input_to_watch_so_an_idle_loop_hardly_wakes():
    h = Harness((800, 480))
    assert h.app.input.fds() == []
    h.app.pump()
    # polling every 40 ms would be ~37 passes; sleeping until a timer or a post is a handful
    assert run_for(h, 1.5) <= 8


def test_a_device_thread_wakes_the_sleeping_loop_at_once(monkeypatch):
    monkeypatch.setattr(app_module, "WATCHED_IDLE_S", 120.0)  # only a wake-up can end the sleep
    h = Harness((800, 480))
    h.app.pump()
    ran = []

    def device_thread():
        time.sleep(0.3)
        h.app.call_soon(lambda: (ran.append(True), h.app.post(pygame.QUIT)))

    threading.Thread(target=device_thread, daemon=True).start()
    started = time.monotonic()
    h.app.run()
    assert ran == [True] and time.monotonic() - started < 60


def test_a_wake_from_the_seat_code_ends_the_sleep(monkeypatch):
    monkeypatch.setattr(app_module, "WATCHED_IDLE_S", 120.0)
    h = Harness((800, 480))
    h.app.pump()
    threading.Timer(0.2, h.app.wake).start()
    started = time.monotonic()
    h.app.wait()
    assert time.monotonic() - started < 60


def test_the_waker_is_a_readable_pipe_until_cleared():
    waker = Waker()
    assert sleep_until(waker, [], 0) == [] and not ready(waker.fileno())
    waker.set()
    waker.set()
    assert ready(waker.fileno())
    waker.clear()
    assert not ready(waker.fileno())


def ready(fd: int) -> bool:
    import select

    return bool(select.select([fd], [], [], 0)[0])


def test_kmsdrm_watches_every_input_node_and_reads_away_what_woke_it(tmp_path, monkeypatch):
    # FIFOs stand in for /dev/input/event*: readable when something is written, like a node
    nodes = [tmp_path / "event0", tmp_path / "event1"]
    for node in nodes:
        os.mkfifo(node)
    monkeypatch.setattr(waiting, "INPUT_NODES", str(tmp_path / "event*"))
    writers = [os.open(node, os.O_RDWR) for node in nodes]
    watch = InputWatch("kmsdrm")
    try:
        fds = watch.fds()
        assert fds is not None and len(fds) == 2
        os.write(writers[1], b"\0" * 24)  # one input_event's worth
        woke = sleep_until(Waker(), fds, 5.0)
        assert len(woke) == 1
        watch.drain(woke)
        assert sleep_until(Waker(), fds, 0) == []
        # a node plugged in later is watched from the next look
        os.mkfifo(tmp_path / "event2")
        writers.append(os.open(tmp_path / "event2", os.O_RDWR))
        watch.rescan()
        assert len(watch.fds()) == 3
    finally:
        for fd in writers:
            os.close(fd)


def test_kmsdrm_without_any_input_node_sleeps_until_one_appears(tmp_path, monkeypatch):
    monkeypatch.setattr(waiting, "INPUT_NODES", str(tmp_path / "event*"))
    watch = InputWatch("kmsdrm")
    assert watch.fds() == []  # the seat buttons wake the loop themselves
    os.mkfifo(tmp_path / "event0")
    writer = os.open(tmp_path / "event0", os.O_RDWR)
    try:
        watch.rescan()
        assert len(watch.fds()) == 1
    finally:
        os.close(writer)


def test_kmsdrm_polls_when_a_node_cannot_be_opened(tmp_path, monkeypatch):
    (tmp_path / "event0").symlink_to(tmp_path / "gone")
    monkeypatch.setattr(waiting, "INPUT_NODES", str(tmp_path / "event*"))
    assert InputWatch("kmsdrm").fds() is None
    assert InputWatch("wayland").fds() is None  # its descriptor is not looked up: poll


X11_CHECK = """
import os, select
os.environ["PYGAME_HIDE_SUPPORT_PROMPT"] = "1"
import pygame
from companion.ui.loop.waiting import InputWatch
pygame.display.init()
pygame.display.set_mode((300, 200))
pygame.event.get()
watch = InputWatch.for_display()
fds = watch.fds()
assert pygame.display.get_driver() == "x11" and fds and len(fds) == 1, fds
import stat
assert stat.S_ISSOCK(os.fstat(fds[0]).st_mode)
pygame.display.set_mode((400, 300))  # the server answers with events on that connection
pygame.display.flip()
print("readable" if select.select(fds, [], [], 5)[0] or pygame.event.peek() else "silent")
"""


@pytest.mark.skipif(shutil.which("xvfb-run") is None, reason="needs Xvfb")
def test_under_x11_the_loop_watches_the_x_server_connection():
    env = dict(os.environ, SDL_VIDEODRIVER="x11")
    env.pop("DISPLAY", None)
    out = subprocess.run(
        ["xvfb-run", "-a", sys.executable, "-c", X11_CHECK], capture_output=True, text=True, timeout=120, env=env
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.split()[-1] == "readable"


def test_a_device_thread_and_the_loop_waking_first_at_once_share_one_waker():
    # two wakers would leave one side's wake-up in a pipe nobody watches (a press shown late)
    h = Harness((800, 480))
    for _ in range(100):
        h.app._waker = None
        start = threading.Barrier(6)
        seen = []

        def first_use(start=start, seen=seen):
            start.wait()
            seen.append(h.app.waker)

        threads = [threading.Thread(target=first_use) for _ in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert all(waker is seen[0] for waker in seen)


def test_right_after_input_sdl_is_looked_at_often_then_the_loop_sleeps_again():
    h = Harness((800, 480))
    h.app.pump()
    h.tap("settings")  # someone is using the screen
    h.app.back()
    h.app.pump()
    busy = run_for(h, 0.5)
    assert busy >= 10  # every 10 ms while the input may still be arriving
    h.app.running = True
    h.app._last_input -= 10  # and long after it
    assert run_for(h, 1.2) <= 8


def test_an_idle_loop_opens_the_type_at_every_size_ahead_and_a_wake_up_stops_it_at_once():
    # a seat press's frame must not be the one that opens a font size or loads a screen's
    # module: the loop does that while idle, and gives way the moment something arrives
    from companion.ui.kit import theme as th

    h = Harness((800, 480))
    app = h.app
    app._timers.clear()
    app._warming = [None, *th.warm_steps(app.frame.scale)]
    steps = len(app._warming)
    assert steps > 20
    app.wake()  # something is waiting already: one step at most, then back to the loop
    app.wait()
    assert len(app._warming) >= steps - 1
    app.waker.clear()
    app.wait()  # idle: every first-time cost paid, no pass of the loop spent on it
    assert app._warming == []
    th.font.cache_clear()
    app._warming = list(th.warm_steps(app.frame.scale))
    app.warm_up()
    assert th.font.cache_info().currsize == len(th.warm_steps(app.frame.scale))


def test_warming_a_size_of_type_lays_its_letters_out_a_few_at_a_step(monkeypatch):
    # a whole size takes 8-16 ms here: a press that comes meanwhile waits for a few letters only
    from companion.ui.kit import theme as th
    from companion.ui.loop.app import WARM_LETTERS

    h = Harness((800, 480))
    app = h.app
    laid_out = []
    monkeypatch.setattr(th, "warm", lambda px, weight, letters: laid_out.append((px, weight, letters)))
    app._warming = [(30, "bold"), (12, "bold", th.TOKEN_LETTERS)]
    steps = 0
    while app.warm_step():
        steps += 1
    assert all(len(letters) <= WARM_LETTERS for _px, _w, letters in laid_out)
    assert "".join(letters for px, _w, letters in laid_out if px == 30) == th.COMMON_LETTERS
    assert "".join(letters for px, _w, letters in laid_out if px == 12) == th.TOKEN_LETTERS
    assert steps + 1 == len(laid_out) > len(th.COMMON_LETTERS) // WARM_LETTERS


def test_a_device_thread_gets_the_interpreter_while_the_loop_draws_ahead(monkeypatch):
    # drawing ahead is short steps of Python with a look at the waker between them; a seat
    # press arrives on gpiozero's thread, which needs the interpreter to say so. A look that
    # let it go for no time at all starved that thread until all the steps were done
    h = Harness((800, 480))
    app = h.app
    app.pump()
    app._timers.clear()
    app._warming = []
    steps, total = [0], 2000  # about a second of work in all
    first_step = threading.Event()

    def rehearse_step() -> bool:
        steps[0] += 1
        first_step.set()
        until = time.thread_time() + 0.0005
        while time.thread_time() < until:
            pass
        return steps[0] < total

    monkeypatch.setattr(app, "rehearse_step", rehearse_step)
    pressed_at_step = []

    def seat_thread():
        first_step.wait()
        time.sleep(0.002)  # the press comes while the loop is drawing ahead
        pressed_at_step.append(steps[0])
        app.wake()

    thread = threading.Thread(target=seat_thread, daemon=True)
    thread.start()
    app.wait()
    thread.join(5)
    assert pressed_at_step, "the seat thread never ran"
    assert steps[0] < total  # the loop stopped drawing ahead for the press
    assert pressed_at_step[0] < total // 10  # and the press was not kept waiting for most of it
