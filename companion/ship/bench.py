"""The ship's figures for `cloud-companion bench`:

- ship.lines_per_s: lines read from a real pty (the link's PortReader), parsed and judged on
  the reader's thread (the session's inlet, as in the app), as fast as a writer can push them.
- ship.cpu_percent_at_link_rate: CPU of this process (reader thread and judge) while
  `cloud-companion ship-sim` streams at the real board's pace (20 TILT + 1 BEAT a second, one
  line at a time), in % of a core. As in the app, the judge runs on the reader's thread and the
  main thread is woken only for the judge's word.
- ship.line_to_frame_p99_ms: from a BALL line written into the pty to the first frame that
  shows the ball falling (the app's own loop, dummy video driver).
- ship.twin_beam_to_frame_p99_ms: the whole chain as on the table, with the ship's twin: from
  the moment a ball's body clears the beam (the firmware, on the board host, writes its BALL
  line then) through the board host, the pty, the link and the judge to the first frame that
  shows the ball falling.
"""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from .link import ShipLink, clock_ms
from .protocol import encode
from .session import ShipSession

LINES = 200_000
IDLE_S = 10.0  # a few hundred lines: on a busy machine a shorter window mostly measures the neighbours
BALLS = 200  # enough that the p99 is not simply the slowest one
BALL_GAP_S = 0.03


def _pty():
    import tty

    master, slave = os.openpty()
    tty.setraw(slave)
    return master, slave, os.ttyname(slave)


def lines_per_s(count: int = LINES) -> float:
    master, slave, path = _pty()
    session = ShipSession(queue.Queue(), clock=clock_ms)
    link = ShipLink(path, session.inlet(lambda: None), retry_s=0.01)  # judged on its thread
    link.start()
    opening = time.perf_counter() + 10
    while link.state != "open" and time.perf_counter() < opening:
        time.sleep(0.001)
    lines = [encode("TILT", seq, seq * 50, [seq % 300 - 150, 12, 40 + seq % 7]) + "\r\n"
             for seq in range(count)]
    data = "".join(lines).encode("ascii")

    def write():
        view = memoryview(data)
        while view:
            written = os.write(master, view[:65536])
            view = view[written:]

    writer = threading.Thread(target=write, daemon=True)
    started = time.perf_counter()
    writer.start()
    deadline = time.perf_counter() + 60
    while session.lines < count and time.perf_counter() < deadline:
        time.sleep(0.001)  # the app's path: the reader's thread judges each read as it arrives
    elapsed = time.perf_counter() - started
    assert not session.judge.counts, session.judge.counts  # every line judged good
    link.stop()
    writer.join(5)
    os.close(master)
    os.close(slave)
    return round(session.lines / elapsed)


def cpu_percent_at_link_rate(seconds: float = IDLE_S) -> float:
    with tempfile.TemporaryDirectory() as folder:
        link_path = str(Path(folder) / "ship")
        sim = subprocess.Popen([sys.executable, "-m", "companion", "ship-sim", "--link", link_path],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        try:
            sim.stdout.readline()  # "simulated ship on ..."
            woken = threading.Event()
            session = ShipSession(queue.Queue(), clock=clock_ms)
            link = ShipLink(link_path, session.inlet(woken.set), wake=woken.set)
            link.start()
            time.sleep(0.5)
            session.poll(None)
            cpu0, wall0, lines0 = time.process_time(), time.perf_counter(), session.lines
            while time.perf_counter() - wall0 < seconds:
                woken.wait(0.5)  # the app's idle look at its devices, or the judge's word
                woken.clear()
                session.poll(None)
            cpu = time.process_time() - cpu0
            wall = time.perf_counter() - wall0
            link.stop()
            assert session.lines - lines0 >= 10 * seconds, "the simulator did not stream"
        finally:
            sim.stdin.close()
            sim.wait(10)
    return round(cpu / wall * 100, 3)


def line_to_frame_p99_ms(balls: int = BALLS) -> float:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from ..ui.harness import Harness
    from ..ui.screens.cloudship import demo_game
    from ..ui.ship_view import ShipPanel

    master, slave, path = _pty()
    h = Harness((800, 480))
    app = h.app
    session = ShipSession(queue.Queue(), clock=clock_ms)
    link = ShipLink(path, session.inlet(app.wake), wake=app.wake)
    link.start()
    app.hardware.ship = ShipPanel(session, link=link)
    session.attach(app.controller)
    setup, _ = demo_game()
    h.start_game(setup)
    app.controller.submit({"act": "roll", "dice": ["yellow", "purple", "white"]})
    written: list[float] = []
    shown: dict[int, float] = {}
    draw = app.draw

    def draw_and_note():
        draw()
        now = time.perf_counter()
        for ball in session.judge.balls:
            if ball.bed is None and ball.order not in shown:
                shown[ball.order] = now
    app.draw = draw_and_note

    def write_balls():
        time.sleep(0.3)
        for seq in range(balls):
            line = (encode("BALL", seq, seq, ["rain"]) + "\r\n").encode("ascii")
            written.append(time.perf_counter())
            os.write(master, line)
            time.sleep(BALL_GAP_S)
    writer = threading.Thread(target=write_balls, daemon=True)
    writer.start()
    end = time.perf_counter() + 30
    while (len(shown) < balls) and time.perf_counter() < end:
        app.pump()
        app.wait()
    writer.join(5)
    link.stop()
    os.close(master)
    os.close(slave)
    delays = sorted((shown[i] - written[i]) * 1000 for i in range(min(len(written), len(shown))))
    if len(delays) < balls:
        return float("inf")
    return round(delays[min(len(delays) - 1, int(len(delays) * 0.99))], 2)


TWIN_BALLS = 30


def twin_beam_to_frame_ms(balls: int = TWIN_BALLS) -> tuple[float, float]:
    """p50 and p99 of the twin's beam-to-frame delay, in ms."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from gpiozero.pins.mock import MockFactory

    from ..config import Config
    from ..ui.harness import Harness
    from ..ui.screens.cloudship import demo_game
    from ..ui.ship_view import ShipPanel

    h = Harness((800, 480))
    app = h.app
    panel = ShipPanel.open(Config(ship_port="sim"), app.wake, True, pin_factory=MockFactory(), flight_log=None,
                           sim_options={"seed": 9})
    app.hardware.ship = panel
    twin, session = panel.simulator, panel.session
    session.attach(app.controller)
    setup, _ = demo_game()
    h.start_game(setup)
    app.controller.submit({"act": "roll", "dice": ["yellow", "purple", "white"]})
    shown: dict[int, float] = {}  # judge's ball order -> when a frame first showed it falling
    draw = app.draw

    def draw_and_note():
        draw()
        now = time.monotonic()
        for ball in session.judge.balls:
            if ball.bed is None and ball.order not in shown:
                shown[ball.order] = now
    app.draw = draw_and_note
    try:
        twin.over("yellow")
        for _ in range(balls):
            twin.release("rain", "yellow")
        end = time.monotonic() + 8 * balls
        while len(shown) < balls and time.monotonic() < end:
            app.pump()
            app.wait()
        with twin.lock:
            clears = sorted(s["beam_clear"] for s in twin.model.truth if s["through"] == "hole")
    finally:
        panel.close()
    beams = [twin._started + ms / 1000 for ms in clears]
    orders = sorted(shown)
    delays = sorted((shown[o] - b) * 1000 for o, b in zip(orders, beams))
    if len(delays) < balls:
        return float("inf"), float("inf")
    return round(delays[len(delays) // 2], 2), round(delays[min(len(delays) - 1, int(len(delays) * 0.99))], 2)


def bench() -> dict[str, float]:
    return {"ship.lines_per_s": lines_per_s(),
            "ship.cpu_percent_at_link_rate": cpu_percent_at_link_rate(),
            "ship.line_to_frame_p99_ms": line_to_frame_p99_ms(),
            **dict(zip(("ship.twin_beam_to_frame_p50_ms", "ship.twin_beam_to_frame_p99_ms"), twin_beam_to_frame_ms()))}
