"""The app's figures for `cloud-companion bench`: render time of the busiest screen, the CPU an
idle game screen costs, the time from start to the first frame, and the app's peak memory."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

EIGHT = ["Ann", "Ben", "Csilla", "Dóra", "Előd", "Ferenc", "Gábor", "Hannelore"]
IDLE_S = 10.0

# a whole Cloud Mine game and every shared screen in a fresh process, for its peak memory
PEAK_SCRIPT = """
import resource
from companion.ui.harness import Harness
from companion.ui.screens.history import HistoryScreen
from companion.ui.screens.settings import SettingsScreen
for size in ((800, 480), (1920, 1080)):
    h = Harness(size)
    h.tap("game:cloudmine")
    for _ in range(5):
        h.tap("more")
    h.tap("start")
    while not h.app.controller.match.view["over"]:
        h.tap("wrong")
        h.tap("right")
    h.app.show(HistoryScreen(h.app)); h.app.pump()
    h.app.show(SettingsScreen(h.app)); h.app.pump()
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def busiest_screens():
    """(name, harness) for the screens with the most widgets at 800x480: every game screen
    with a demo game (half way through it), The Cloud Mine with 8 players, 8 players set up."""
    from .demo import DEMO_GAMES, demo_script
    from .harness import Harness

    h = Harness((800, 480))
    h.start_game({"game": "cloudmine", "players": EIGHT})
    h.tap("wrong")
    yield "cloudmine", h
    for game in DEMO_GAMES:
        script = demo_script(game)
        if script is None:
            continue
        setup, actions = script()
        g = Harness((800, 480))
        g.start_game(setup)
        for action in actions[:len(actions) // 2]:
            g.app.controller.submit(action)
        g.app.pump()
        yield game, g
    p = Harness((800, 480))
    p.tap("game:cloudmine")
    for _ in range(5):
        p.tap("more")
    yield "players", p


def render_ms(rounds: int = 200) -> tuple[float, float]:
    """Median ms to redraw the busiest screen: as it is, and rebuilt after a state change."""
    redraw, rebuild = [], []
    for _name, h in busiest_screens():
        app = h.app
        times, times_built = [], []
        for _ in range(rounds):
            start = time.perf_counter()
            app.draw()
            times.append(time.perf_counter() - start)
            app.refresh()
            start = time.perf_counter()
            app.draw()
            times_built.append(time.perf_counter() - start)
        redraw.append(statistics.median(times) * 1000)
        rebuild.append(statistics.median(times_built) * 1000)
    return max(redraw), max(rebuild)


def idle_cpu_percent(seconds: float = IDLE_S) -> float:
    """CPU used by the real loop (`App.run`) on an idle game screen, in % of one core."""
    import pygame

    from .harness import Harness

    h = Harness((800, 480))
    h.start_game({"game": "cloudmine", "players": EIGHT})
    timer = threading.Timer(seconds, lambda: h.app.post(pygame.QUIT))
    cpu, wall = time.process_time(), time.monotonic()
    timer.start()
    h.app.run()
    cpu, wall = time.process_time() - cpu, time.monotonic() - wall
    return 100 * cpu / wall


def first_frame_s(runs: int = 3) -> float:
    """Seconds from starting the `cloud-companion` process to its first frame (median)."""
    results = []
    with tempfile.TemporaryDirectory() as scratch:
        for _ in range(runs):
            command = [sys.executable, "-m", "companion", "run", "--windowed", "--first-frame-exit",
                       "--db", str(Path(scratch) / "j.sqlite3"), "--config", str(Path(scratch) / "c.toml")]
            start = time.perf_counter()
            child = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
            child.stdout.readline()  # "first frame after ..." is printed right after the first flip
            results.append(time.perf_counter() - start)
            child.communicate(timeout=60)
    return statistics.median(results)


def peak_memory_mib() -> float:
    out = subprocess.run([sys.executable, "-c", PEAK_SCRIPT], capture_output=True, text=True, check=True)
    return int(out.stdout.split()[-1]) / 1024  # ru_maxrss is in KiB on Linux


def bench() -> dict[str, float]:
    redraw, rebuild = render_ms()
    return {
        "ui.busiest_screen_redraw_800x480_ms": round(redraw, 3),
        "ui.busiest_screen_rebuild_and_redraw_800x480_ms": round(rebuild, 3),
        "ui.idle_game_screen_cpu_percent_of_core": round(idle_cpu_percent(), 3),
        "ui.start_to_first_frame_s": round(first_frame_s(), 3),
        "ui.peak_memory_mib": round(peak_memory_mib(), 1),
    }


if __name__ == "__main__":
    for name, value in bench().items():
        print(f"{name:52s} {value}")
