"""`cloud-companion bench`: every area's speed figures in one place, each beside its aim.

Each module in BENCH_MODULES has a `bench() -> dict[str, number]`; names say their unit. The
aims are for the machine the bench runs on when that is a desktop: the Pi Zero 2 is several
times slower (up to ten times for single-threaded Python), and the aims are set so that it
still feels instant there (a frame is 16.7 ms; under 100 ms reads as at once).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from fnmatch import fnmatch
from importlib import import_module
from pathlib import Path

BENCH_MODULES: tuple[str, ...] = (
    "companion.rules.bench",
    "companion.devices.bench",
    "companion.journal.bench",
    "companion.ui.tools.bench",
    "companion.speech_bench",
    "companion.insights.bench",
    "companion.appliance.bench",
    "companion.ship.bench",
    "companion.live.bench",
)


def app_starts(db: Path, config: Path, runs: int) -> list[tuple[float, float]]:
    """Start the app `runs` times (no window, no sound) and time each: seconds to its first
    frame, and to its exit once the journal is attached (the app fully usable).

    As installed, the app starts from compiled bytecode (pip writes it at install): a first,
    uncounted start writes it to a scratch folder, so a checkout without it (or a shell with
    PYTHONDONTWRITEBYTECODE) does not time Python compiling the sources."""
    times = []
    with tempfile.TemporaryDirectory() as scratch:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env.update(
            PYTHONPYCACHEPREFIX=str(Path(scratch) / "bytecode"), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy"
        )
        command = [
            sys.executable,
            "-m",
            "companion",
            "run",
            "--windowed",
            "--first-frame-exit",
            "--db",
            str(db),
            "--config",
            str(config),
        ]
        for run in range(runs + 1):
            start = time.perf_counter()
            child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
            assert child.stdout is not None  # stdout=PIPE
            child.stdout.readline()  # "first frame after ..." is printed right after the first flip
            frame = time.perf_counter() - start
            child.communicate(timeout=120)  # then it attaches the journal and exits
            if run:
                times.append((frame, time.perf_counter() - start))
    return times


@dataclass(frozen=True)
class Aim:
    most: float | None = None  # the figure should be at most this
    least: float | None = None  # ... or at least this
    why: str = ""

    def met(self, value: float) -> bool:
        return (self.most is None or value <= self.most) and (self.least is None or value >= self.least)

    def __str__(self) -> str:
        return f"<= {self.most:g}" if self.most is not None else f">= {self.least:g}"


# figure names (fnmatch patterns) -> aim; a figure without one (a count) is shown as it is
AIMS: dict[str, Aim] = {
    "rules.*.replay_actions_per_s": Aim(least=20_000, why="an evening of 2,000 actions rebuilt in 0.1 s"),
    "journal.*.resume_*_actions_ms": Aim(most=300, why="a long game back on the screen at once after a power cut"),
    "journal.commit_median_ms": Aim(most=8, why="an action is on the disk before the screen shows it"),
    "journal.commit_p99_ms": Aim(most=16.7, why="... within one frame nearly always"),
    "seats.press_to_frame_median_ms": Aim(most=8, why="a seat button shows its effect within a frame"),
    "seats.press_to_frame_p99_ms": Aim(
        most=3, why="a visible change within a frame, with room for a Pi several times slower"
    ),
    "seats.press_to_frame_max_ms": Aim(most=50),
    "seats.press_to_frame_loop_cpu_p99_ms": Aim(
        most=1.5, why="the press's own work: within one 60 Hz frame on a Pi 3, 8 to 10 times slower"
    ),
    "seats.cloud9_press_to_frame_median_ms": Aim(most=8),
    "seats.cloud9_press_to_frame_p99_ms": Aim(most=3, why="a jump or a stay as quick as The Cloud Mine's answer"),
    "seats.cloud9_press_to_frame_max_ms": Aim(most=50),
    "seats.cloud9_press_to_frame_loop_cpu_p99_ms": Aim(most=1.5),
    "seats.cloudship_press_to_frame_median_ms": Aim(most=8),
    "seats.cloudship_press_to_frame_p99_ms": Aim(most=3, why="the commander's landing as quick as any press"),
    "seats.cloudship_press_to_frame_max_ms": Aim(most=50),
    "seats.cloudship_press_to_frame_loop_cpu_p99_ms": Aim(most=1.5),
    # each kind of Cloud 9's presses (a jump, a stay, a solo pilot's jump) on its own
    "seats.cloud9_*_press_to_frame_loop_cpu_p99_ms": Aim(most=1.5),
    "ui.busiest_screen_redraw_800x480_ms": Aim(most=4, why="redrawing is cheap even on a Pi Zero 2"),
    "ui.busiest_screen_rebuild_and_redraw_800x480_ms": Aim(most=8, why="a move shows at once on a Pi Zero 2"),
    "ui.animation_frame_800x480_ms": Aim(most=4, why="a short transition runs smoothly on a Pi"),
    "ui.cloudmine_settlement_frame_ms": Aim(most=3, why="eight players' settling guess shows at once on a Pi"),
    "ui.cloudmine_settlement_frame_unrehearsed_ms": Aim(most=8, why="... even a press right after another"),
    "ui.recap_draw_ms": Aim(most=60, why="drawn on the loop once as a game ends (the PNG is written off it)"),
    "ui.idle_*_cpu_percent_of_core": Aim(most=0.1, why="doing nothing costs next to nothing, all evening"),
    "ui.start_to_first_frame_s": Aim(most=0.3, why="the screen answers right after the Pi boots"),
    "ui.peak_memory_mib": Aim(most=64, why="a Pi Zero 2 has 512 MiB for everything, the GPU's share included"),
    "ui.evening_peak_memory_mib": Aim(most=64, why="memory that stays put all evening on a Pi Zero 2's 512 MiB"),
    "journal.history_first_page_10k_ms": Aim(most=100, why="years of games: the history opens at once"),
    "journal.totals_10k_ms": Aim(most=100, why="years of games: each player's totals at once"),
    "ui.start_to_first_frame_10k_s": Aim(most=0.5, why="years of games do not slow the start"),
    "ship.lines_per_s": Aim(least=100_000, why="a 115200-baud link carries about 360 lines a second"),
    "ship.cpu_percent_at_link_rate": Aim(most=0.5, why="watching the ship costs next to nothing"),
    "ship.line_to_frame_p99_ms": Aim(
        most=3, why="a ball leaving the hole shows at once, with room for a Pi several times slower"
    ),
    "ship.line_to_frame_cpu_p99_ms": Aim(
        most=1, why="the ball's own work, with no neighbour's pause in it: a Pi 3's frame"
    ),
    "ship.judge_ball_flood_lines_per_s": Aim(
        least=20_000, why="a flickering beam at 115200 baud (460 BALL lines a second) costs a few % of a Pi's core"
    ),
    "ship.twin_beam_to_frame_p50_ms": Aim(most=16.7, why="a ball through the beam shows within a frame"),
    "ship.twin_beam_to_frame_p99_ms": Aim(
        most=33.4, why="a ball through the beam shows within two frames, board, link and judge included"
    ),
    "ship.twin_drop_after_settle_p99_ms": Aim(
        most=33.4, why="a judged drop is on the screen within two frames of the contract's settle"
    ),
    "ship.twin_virtual_drops_per_s": Aim(least=16.7, why="a calibration run of 10,000 balls in 10 minutes"),
    "ship.twin_virtual_judged_right_share": Aim(least=0.999, why="the judge gets all but one ball in 1,000 right"),
    "ship.reads_per_line_at_pico_pace": Aim(
        most=2, why="a line the Pico hands over in pieces wakes the reader once and once more for its rest"
    ),
    "speech.say_us": Aim(most=100, why="asking for a prompt never delays a frame"),
    "speech.prompt_us": Aim(most=100, why="making the sentence never delays a frame"),
    "odds.cloud9_query_ms": Aim(most=2, why="the risk meter is recomputed within a frame"),
    "simulate.cloud9_games_per_s": Aim(least=2_500, why="thousands of games in a few seconds, on a Pi too"),
    "simulate.cloud9_games_per_s_one_process": Aim(
        least=1_250, why="a single-core Pi Zero plays a thousand games in seconds"
    ),
    "insights.records_10k_ms": Aim(most=200, why="years of games: the table's records at once"),
    "insights.records_10k_first_visit_s": Aim(
        most=2, why="years of games restored at once: Records shows the results while the rest is replayed"
    ),
    "live.action_to_update_p99_ms": Aim(most=1000, why="the TV and the phones follow within a second"),
    "live.rss_mb_*_viewer*": Aim(most=120, why="the page beside the app on a Pi Zero 2's 512 MiB"),
    "live.rss_mb_evening_*": Aim(most=64, why="fifty games watched by fifty devices fit a Pi 3 beside the app"),
    "live.rss_growth_mb_evening": Aim(most=2, why="an evening's games leave nothing behind: every cache has a bound"),
    "live.idle_cpu_percent": Aim(most=0.5, why="a page left open all evening costs next to nothing"),
    "live.start_s": Aim(most=2, why="the page is there soon after the Pi boots"),
    "live.press_to_frame_p99_ms_*": Aim(most=16.7, why="fifty viewers never slow the table's own screen"),
    "insights.records_visit_*_games_ms": Aim(most=100, why="every visit to Records, the records kept as games end"),
}


def aim_for(name: str) -> Aim | None:
    return next((aim for pattern, aim in AIMS.items() if fnmatch(name, pattern)), None)


def area(module: str) -> str:
    """A bench module's area, as `bench --only` names it: "devices" for companion.devices.bench."""
    return module.removeprefix("companion.").removesuffix("_bench").split(".")[0]


AREAS = tuple(area(m) for m in BENCH_MODULES)


def run_all(only: list[str] | None = None) -> dict[str, float]:
    """Every figure, or those of the areas in `only` (a shared machine: one figure, run often)."""
    figures: dict[str, float] = {}
    for module in BENCH_MODULES:
        if not only or area(module) in only:
            figures.update(import_module(module).bench())
    return figures


def with_aims(figures: dict[str, float]) -> dict[str, dict]:
    """For --json: {name: {"value": v, "aim": "<= 8" or None, "met": true/false/None}}."""
    out = {}
    for name, value in figures.items():
        aim = aim_for(name)
        out[name] = {"value": value, "aim": str(aim) if aim else None, "met": aim.met(value) if aim else None}
    return out


def text_lines(figures: dict[str, float]) -> list[str]:
    """One line a figure: name, value, aim, and whether it is met."""
    lines = []
    for name, value in figures.items():
        aim = aim_for(name)
        verdict = f"aim {str(aim):10s} {'ok' if aim.met(value) else 'MISSED'}" if aim else ""
        lines.append(f"{name:52s} {value:>12}   {verdict}".rstrip())
    return lines
