"""The app's figures for `cloud-companion bench`: render time of the busiest screen, the CPU the
running app uses while nothing happens (measured from outside, on Home and on each game screen,
with the default settings: on a desktop the simulated ship streams into the link; and on Home
with the link switched off), the time from start to the first frame, and the app's peak memory
(one game, and a whole evening)."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ...rules import Match

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
from ...sound import QUIET_S  # noqa: E402  (after the drivers are chosen)

EIGHT = ["Ann", "Ben", "Csilla", "Dóra", "Előd", "Ferenc", "Gábor", "Hannelore"]
IDLE_S = 8.0  # measured for this long ...
# ... once the app has started and loaded everything, and its audio device has rested after the
# quiet spell, as it does all evening while nothing happens
SETTLE_S = QUIET_S + 2.5
SHIP_OFF = '[ship]\nport = "off"\n'

# a game half way through, left as a pulled plug leaves it: the app goes straight back into it
CRASHED_GAME_SCRIPT = """
import os, sys
from companion.controller import GameController
from companion.journal import Journal
from companion.ui.tools.demo import demo_script
setup, actions = demo_script(sys.argv[2])()
controller = GameController(Journal.open(sys.argv[1]))
controller.new_game(setup)
for action in actions[:len(actions) // 2]:
    controller.submit(action)
os._exit(0)
"""

# one app at one size in its own process, as on a table: an eight-player Cloud Mine game
# played to its end, then the history and the settings
PEAK_SCRIPT = """
import sys
from companion.ui.loop.heap import give_back_large_blocks
give_back_large_blocks()  # as `cloud-companion run` does first
from companion.ui.tools.harness import Harness
from companion.ui.screens.history import HistoryScreen
from companion.ui.screens.settings import SettingsScreen
h = Harness((int(sys.argv[1]), int(sys.argv[2])))
h.tap("game:cloudmine")
for _ in range(5):
    h.tap("more")
h.tap("start")
while not h.app.controller.match.view["over"]:
    h.tap("wrong")
    h.tap("right")
h.app.show(HistoryScreen(h.app)); h.app.pump()
h.app.show(SettingsScreen(h.app)); h.app.pump()
from companion.ui.tools.evening import peak_rss_kib
print(peak_rss_kib())
"""
PEAK_SIZES = ((800, 480), (1920, 1080))


def playing(app) -> Match:
    """The game the app's controller plays (one was started)."""
    match = app.controller.match
    assert match is not None
    return match


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
        for action in actions[: len(actions) // 2]:
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
        app.still_frames = False  # every widget drawn, as for a frame not drawn before
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


def median_frame_ms(h, rounds: int) -> float:
    """Median ms of `rounds` frames drawn as they stand (the screen built already, nothing rebuilt)."""
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        h.app.draw()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def animation_frame_ms(rounds: int = 200) -> float:
    """Median ms of one frame of the short transitions at 800x480 (Cloud 9's tumbling dice,
    its basket rising to the next cloud, falling with its passengers tumbling out, a piece
    jumping out to its score; six players), the slowest of them: each frame is drawn whole
    while the transition runs, with nothing rebuilt."""
    from ..screens.cloud9 import FALL_S, JUMP_S, LIFT_S, TUMBLE_S
    from .demo import _StepClock
    from .harness import Harness

    worst = 0.0
    for kind in ("tumble", "lift", "fall", "jump"):
        clock = _StepClock()
        h = Harness((800, 480), clock=clock)
        screen = h.start_game({"game": "cloud9", "players": EIGHT[:6], "first_pilot": EIGHT[0]})
        if kind == "tumble":
            screen.roll_for_me()
            seconds = TUMBLE_S
        elif kind == "lift":
            screen.submit({"act": "roll", "dice": ["blank", "blank"]})
            for name in EIGHT[1:6]:
                screen.submit({"act": "stay", "player": name})
            h.app.pump()
            screen.submit({"act": "rise", "cards": []})
            seconds = LIFT_S
        elif kind == "fall":
            screen.submit({"act": "roll", "dice": ["red", "green"]})
            for name in EIGHT[1:6]:
                screen.submit({"act": "stay", "player": name})
            h.app.pump()
            screen.submit({"act": "fall"})
            seconds = FALL_S
        else:
            screen.submit({"act": "roll", "dice": ["red", "green"]})
            h.app.pump()
            screen.submit({"act": "jump", "player": EIGHT[1]})
            seconds = JUMP_S
        h.app.pump()  # the first frame builds the screen; the ones after only draw
        clock.advance(seconds / 2)
        frame_ms = median_frame_ms(h, rounds)
        assert h.app.animating, f"the {kind} ended before it was measured"
        worst = max(worst, frame_ms)
    return max(worst, cloudmine_flight_frame_ms(rounds))


def cloudmine_flight_frame_ms(rounds: int = 200) -> float:
    """Median ms of one frame of The Cloud Mine's settlement at 800x480 (eight players, the
    table's cards flying to the finder and the Dreamer's to their pile), halfway through."""
    from ..boards.cloudmine import FLIGHT_S
    from .demo import _StepClock
    from .harness import Harness

    clock = _StepClock()
    h = Harness((800, 480), clock=clock)
    screen = h.start_game({"game": "cloudmine", "players": EIGHT})
    for correct in (False, False, True):
        screen.submit({"act": "guess", "player": playing(h.app).view["to_guess"], "correct": correct})
    h.app.pump()
    clock.advance(FLIGHT_S / 2)
    frame_ms = median_frame_ms(h, rounds)
    assert h.app.animating and screen._flights, "the settlement ended before it was measured"
    return frame_ms


def cloudmine_settlement_frame_ms(rounds: int = 5, rehearsed: bool = True) -> float:
    """Ms from a settling guess to its frame's flip at 800x480 (eight players: the rules core,
    the story, the frame drawn ahead, or the rebuilt screen with its result card placed clear
    of the takers and its frame), the slowest settlement of a whole game (the median of
    `rounds` games). `rehearsed`: as the app runs, the states the next press may lead to
    drawn ahead while idle; else as when a press follows another at once (nothing drawn
    ahead, no frame kept)."""
    import random

    from .harness import Harness

    times: dict[int, list[float]] = {}
    for _round in range(rounds):
        h = Harness((800, 480))
        app = h.app
        app.still_frames = rehearsed
        h.start_game({"game": "cloudmine", "players": EIGHT})
        app.draw()
        rng, settled = random.Random(8), 0
        while not playing(app).view["over"]:
            while rehearsed and app.rehearse_step():
                pass
            v = playing(app).view
            action = {"act": "guess", "player": v["to_guess"], "correct": rng.random() < 0.3}
            settles = v["guess_order"][1:] == [] or action["correct"]
            start = time.perf_counter()
            app.controller.submit(action)
            app.draw()
            took = app.flipped[0] - start  # to the frame's flip (the rebuilt screen is checked after)
            if settles:
                times.setdefault(settled, []).append(took)
                settled += 1
    return max(statistics.median(t) for t in times.values()) * 1000


def cloudship_animation_frame_ms(rounds: int = 200) -> float:
    """Median ms of one frame of Cloudship's moments at 800x480 (the storm cloud sliding, a
    hail tile flipping, a flower dropping into its bed, the won garden's celebration), the
    slowest: each frame is drawn whole, with nothing rebuilt."""
    from ..boards.cloudship import CELEBRATE_S, FLIP_S, PLANT_S, SLIDE_S
    from ..screens.cloudship import demo_game
    from .demo import _StepClock
    from .harness import Harness

    setup, actions = demo_game()
    hail = next(i for i, a in enumerate(actions) if a == {"act": "reveal", "hail": True})
    stops = {
        "slide": (actions[:6] + [{"act": "roll", "dice": ["white", "storm", "storm"]}], SLIDE_S),
        "flip": (actions[: hail + 1], FLIP_S),
        "plant": (actions[:4], PLANT_S),
        "celebrate": (actions, CELEBRATE_S),
    }
    worst = 0.0
    for kind, (played, seconds) in stops.items():
        clock = _StepClock()
        h = Harness((800, 480), clock=clock)
        screen = h.start_game(setup)
        for action in played:
            screen.submit(action)
        h.app.pump()  # the first frame builds the screen; the ones after only draw
        clock.advance(seconds / 2)
        frame_ms = median_frame_ms(h, rounds)
        assert screen.moment(kind, seconds) is not None, f"the {kind} ended before it was measured"
        worst = max(worst, frame_ms)
    return worst


def cpu_seconds(pid: int) -> float:
    """CPU time a process has used so far, every thread counted: the sum of its threads'
    /proc/PID/task/TID/schedstat (nanoseconds; /proc/PID/stat counts in 10 ms ticks, too
    coarse for an idle app over 8 s). A thread that ends between two readings is lost: the idle
    app starts none."""
    total = 0
    for tid in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{tid}/schedstat") as f:
                total += int(f.read().split()[0])
        except (OSError, ValueError):  # ended while we looked
            pass
    return total / 1e9


def shown_screen(db: Path) -> str | None:
    """The screen the app noted in its journal last (journal.note_screen)."""
    import sqlite3

    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        row = conn.execute("SELECT value FROM meta WHERE key = 'screen'").fetchone()
    finally:
        conn.close()
    return row[0] if row else None


def _shows(db: Path, screen: str) -> bool:
    """The app has opened its journal and (for a game) gone back into that game."""
    import sqlite3

    try:
        on = shown_screen(db) if db.exists() else None
    except sqlite3.Error:  # not made yet, or being made
        return False
    return db.exists() and (screen == "home" or (on or "").lower().startswith(screen))


def idle_cpu_from_outside(
    games: tuple[str, ...] = ("cloud9", "cloudship", "cloudmine"),
    seconds: float = IDLE_S,
    settle: float = SETTLE_S,
    driver: str = "dummy",
    settings: str = "",
) -> dict[str, float]:
    """% of one core the running `cloud-companion run` uses while nothing happens, read from
    /proc like `top` would, on Home and on each game screen (all measured at once).

    `settings` is the settings file's text: empty, the defaults a family starts with, so on
    this desktop (no GPIO) the ship link is on with the simulated ship streaming into it."""
    from .demo import demo_script

    env = dict(os.environ, SDL_VIDEODRIVER=driver, SDL_AUDIODRIVER="dummy")
    results: dict[str, float] = {}
    with tempfile.TemporaryDirectory() as scratch:
        settings_file = Path(scratch) / "settings.toml"
        if settings:
            settings_file.write_text(settings)
        children = {}
        for screen in ("home", *games):
            db = Path(scratch) / f"{screen}.sqlite3"
            if screen != "home":
                if demo_script(screen) is None:
                    continue
                subprocess.run(
                    [sys.executable, "-c", CRASHED_GAME_SCRIPT, str(db), screen], env=env, check=True, timeout=120
                )
            command = [
                sys.executable,
                "-m",
                "companion",
                "run",
                "--windowed",
                "--db",
                str(db),
                "--config",
                str(settings_file),
            ]
            children[screen] = (db, subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL))
        try:
            # every app up and showing its screen first (a loaded machine starts them slowly)
            up_by = time.monotonic() + 60
            while time.monotonic() < up_by and not all(_shows(db, screen) for screen, (db, _c) in children.items()):
                time.sleep(0.2)
            time.sleep(settle)
            start = {screen: cpu_seconds(child.pid) for screen, (_db, child) in children.items()}
            began = time.monotonic()
            time.sleep(seconds)
            wall = time.monotonic() - began
            for screen, (db, child) in children.items():
                used = cpu_seconds(child.pid) - start[screen]
                on = shown_screen(db) or ""
                if screen != "home" and not on.lower().startswith(screen):
                    raise RuntimeError(f"the app showed {on or 'nothing'}, not the {screen} game")
                results[screen] = 100 * used / wall
        finally:
            for _db, child in children.values():
                child.terminate()
                child.wait(timeout=30)
    return results


def first_frame_s(runs: int = 3) -> float:
    """Seconds from starting the `cloud-companion` process to its first frame (median)."""
    from ...bench import app_starts

    with tempfile.TemporaryDirectory() as scratch:
        starts = app_starts(Path(scratch) / "j.sqlite3", Path(scratch) / "c.toml", runs)
    return statistics.median(frame for frame, _ready in starts)


def peak_memory_mib() -> float:
    """The most memory an app uses, at the smallest and the largest screen: each in a process
    of its own (two apps in one process would count the first one's frozen leftovers too)."""
    peaks = []
    for width, height in PEAK_SIZES:
        out = subprocess.run(
            [sys.executable, "-c", PEAK_SCRIPT, str(width), str(height)], capture_output=True, text=True, check=True
        )
        peaks.append(int(out.stdout.split()[-1]) / 1024)  # KiB
    return max(peaks)


def evening_peak_memory_mib(games: int = 20, size: tuple[int, int] = (800, 480)) -> float:
    """The most memory the app uses over a whole evening (tools/evening.py: every title played
    `games` times, every screen, both orientations, the three languages), in a process of its own."""
    out = subprocess.run(
        [sys.executable, "-m", "companion.ui.tools.evening", str(games), *map(str, size)],
        capture_output=True,
        text=True,
        check=True,
        timeout=1800,
    )
    return int(out.stdout.split()[-1]) / 1024  # KiB


def recap_png_ms(rounds: int = 5) -> tuple[float, float]:
    """Median ms to draw a recap picture (1200x1600, the tie-break example: 23 trips) and take
    its pixels, the part on the app's loop; and all of it with the PNG packed and written,
    which the app does on a thread."""
    import json
    import tempfile

    from ...rules import Match
    from ..boards.recap import pixels_of, render_recap, write_pixels

    example = Path(__file__).resolve().parents[2] / "examples" / "cloud9-four-players-tie-break.jsonl"
    rows = [json.loads(line) for line in example.read_text().splitlines() if line.strip()]
    match = Match.start(rows[0])
    for action in rows[1:]:
        match = match.apply(action)
    draw, write = [], []
    with tempfile.TemporaryDirectory() as folder:
        for i in range(rounds):
            start = time.perf_counter()
            picture = pixels_of(render_recap(match, "2026-12-01T18:00:00+00:00"))
            drawn = time.perf_counter()
            write_pixels(picture, Path(folder) / f"recap-{i}.png")
            draw.append((drawn - start) * 1000)
            write.append((time.perf_counter() - drawn) * 1000)
    return statistics.median(draw), statistics.median([d + w for d, w in zip(draw, write)])


def bench() -> dict[str, float]:
    redraw, rebuild = render_ms()
    return {
        "ui.busiest_screen_redraw_800x480_ms": round(redraw, 3),
        "ui.busiest_screen_rebuild_and_redraw_800x480_ms": round(rebuild, 3),
        "ui.animation_frame_800x480_ms": round(max(animation_frame_ms(), cloudship_animation_frame_ms()), 3),
        "ui.cloudmine_settlement_frame_ms": round(cloudmine_settlement_frame_ms(), 3),
        "ui.cloudmine_settlement_frame_unrehearsed_ms": round(cloudmine_settlement_frame_ms(rehearsed=False), 3),
        **dict(zip(("ui.recap_draw_ms", "ui.recap_png_ms"), (round(v, 1) for v in recap_png_ms()))),
        # as a family runs it: default settings, so here (no GPIO) the simulated ship streams
        **{
            f"ui.idle_{screen}_cpu_percent_of_core": round(value, 3)
            for screen, value in idle_cpu_from_outside().items()
        },
        # what the ship's link adds: Home again with the link switched off
        "ui.idle_home_ship_off_cpu_percent_of_core": round(
            idle_cpu_from_outside(games=(), settings=SHIP_OFF)["home"], 3
        ),
        "ui.start_to_first_frame_s": round(first_frame_s(), 3),
        "ui.peak_memory_mib": round(peak_memory_mib(), 1),
        "ui.evening_peak_memory_mib": round(evening_peak_memory_mib(), 1),
    }


if __name__ == "__main__":
    for name, value in bench().items():
        print(f"{name:52s} {value}")
