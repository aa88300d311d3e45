"""`cloud-companion bench` and its parts run and report figures with their units.

Only that they run and report sensible numbers: speed itself is measured, never asserted.
"""

import json
import subprocess
import sys

from companion.bench import BENCH_MODULES
from companion.rules.bench import bench as rules_bench
from companion.ui.tools.bench import idle_cpu_from_outside, render_ms


def test_every_area_is_in_the_bench():
    assert set(BENCH_MODULES) == {
        "companion.rules.bench",
        "companion.journal.bench",
        "companion.devices.bench",
        "companion.ui.tools.bench",
        "companion.speech_bench",
        "companion.insights.bench",
        "companion.appliance.bench",
        "companion.ship.bench",
        "companion.live.bench",
    }


def test_rules_bench_reports_replay_speed_for_every_game():
    figures = rules_bench()
    for game in ("cloud9", "cloudship", "cloudmine"):
        assert figures[f"rules.{game}.replay_actions_per_s"] > 0
        assert figures[f"rules.{game}.mean_actions_per_game"] > 1


def test_ui_render_and_idle_figures_are_measured():
    redraw, rebuild = render_ms(rounds=3)
    assert 0 < redraw and 0 < rebuild


def test_idle_cpu_is_read_from_outside_on_home_and_on_a_resumed_game_screen():
    # the game screen is checked to be the one shown (the app notes it in its journal)
    # settle: a busy 2-core machine can take over 2 s to start the app and put the game back
    figures = idle_cpu_from_outside(games=("cloudmine",), seconds=0.5, settle=5.0)
    assert set(figures) == {"home", "cloudmine"}
    assert all(0 <= value < 100 for value in figures.values())


def bench_command(*args):
    # the command itself, with only the rules core's figures (the rest are tested above)
    code = (
        "import sys, companion.bench as b; b.BENCH_MODULES = ('companion.rules.bench',); "
        f"from companion.cli import main; sys.exit(main(['bench', *{list(args)!r}]))"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    return run.stdout


def test_bench_command_lists_its_figures_with_their_aims_in_json():
    figures = json.loads(bench_command("--json"))
    assert set(figures) >= {"rules.cloud9.replay_actions_per_s"}
    speed = figures["rules.cloud9.replay_actions_per_s"]
    assert speed["value"] > 0 and speed["aim"] == ">= 20000" and speed["met"] == (speed["value"] >= 20000)
    assert figures["rules.cloud9.mean_actions_per_game"]["aim"] is None  # a count has no aim


def test_bench_command_prints_each_figure_beside_its_aim():
    lines = bench_command().splitlines()
    speed = next(line for line in lines if line.startswith("rules.cloud9.replay_actions_per_s "))
    assert "aim >= 20000" in speed and speed.split()[-1] in ("ok", "MISSED")


def test_every_figure_with_a_unit_of_time_memory_or_speed_has_an_aim():
    from companion.bench import aim_for

    names = [
        "rules.cloudship.replay_actions_per_s",
        "journal.cloud9.resume_2000_actions_ms",
        "journal.commit_median_ms",
        "journal.commit_p99_ms",
        "seats.press_to_frame_p99_ms",
        "ui.busiest_screen_redraw_800x480_ms",
        "ui.busiest_screen_rebuild_and_redraw_800x480_ms",
        "ui.idle_home_cpu_percent_of_core",
        "ui.idle_cloudship_cpu_percent_of_core",
        "ui.start_to_first_frame_s",
        "ui.peak_memory_mib",
        "ui.evening_peak_memory_mib",
        "seats.press_to_frame_loop_cpu_p99_ms",
        "ui.cloudmine_settlement_frame_ms",
        "ui.cloudmine_settlement_frame_unrehearsed_ms",
        "ship.line_to_frame_p99_ms",
        "ship.line_to_frame_cpu_p99_ms",
    ]
    assert all(aim_for(name) is not None for name in names)
    assert aim_for("ui.idle_cloud9_cpu_percent_of_core").met(0.09)
    assert not aim_for("ui.idle_cloud9_cpu_percent_of_core").met(0.15)
    assert aim_for("ui.evening_peak_memory_mib").met(64) and not aim_for("ui.evening_peak_memory_mib").met(65)


def test_the_live_pages_figures_are_measured_from_outside():
    from companion.bench import aim_for
    from companion.live.bench import bench as live_bench

    figures = live_bench(actions=4, idle=0.5, presses=20, crowd=3, games=2)
    for name in (
        "live.action_to_update_p99_ms",
        "live.rss_mb_1_viewer",
        "live.rss_mb_50_viewers",
        "live.rss_mb_evening_game_10",
        "live.rss_mb_evening_end",
        "live.idle_cpu_percent",
        "live.start_s",
        "live.press_to_frame_p99_ms_50_viewers",
    ):
        assert figures[name] > 0 or name == "live.idle_cpu_percent", name
    assert 10 < figures["live.rss_mb_1_viewer"] < 1000
    assert figures["live.rss_growth_mb_evening"] == round(
        figures["live.rss_mb_evening_end"] - figures["live.rss_mb_evening_game_10"], 1
    )
    assert aim_for("live.rss_mb_evening_end").most == 64 and aim_for("live.rss_growth_mb_evening").most == 2


def test_the_settlement_figure_times_every_settling_guess_of_an_eight_player_game():
    from companion.ui.tools.bench import cloudmine_settlement_frame_ms

    assert cloudmine_settlement_frame_ms(rounds=1) > 0
    assert cloudmine_settlement_frame_ms(rounds=1, rehearsed=False) > 0


def test_app_starts_are_timed_from_bytecode_written_outside_the_tree(tmp_path, monkeypatch):
    from pathlib import Path

    from companion.bench import app_starts

    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")  # as in a shell that never writes it
    tree = Path(__file__).resolve().parents[1] / "companion"
    before = set(tree.rglob("__pycache__"))
    starts = app_starts(tmp_path / "j.sqlite3", tmp_path / "c.toml", runs=2)
    assert len(starts) == 2  # the uncounted first start is not among them
    assert all(0 < frame <= ready for frame, ready in starts)
    assert set(tree.rglob("__pycache__")) == before  # the checkout is left as it was
    assert (tmp_path / "j.sqlite3").is_file()  # the app really started and attached its journal


def test_the_evening_plays_every_title_in_every_language_both_ways_round():
    from companion.ui.tools.evening import GAMES, TURNS, evening

    lines: list[str] = []
    assert evening(1, log=lines.append) == len(GAMES) * len(TURNS)
    assert [line.split(":")[0] for line in lines] == ["en 0", "de 90", "hu 0"]


def test_a_memory_peak_is_the_measured_process_own_not_the_one_that_started_it():
    """The bench starts its memory runs from a process that has grown over the other figures;
    the peak each run reports is its own (getrusage's ru_maxrss kept the parent's on Linux)."""
    import subprocess
    import sys

    big = bytearray(200 << 20)
    big[::4096] = b"\1" * len(big[::4096])  # every page touched: 200 MiB resident here
    script = "from companion.ui.tools.evening import peak_rss_kib; print(peak_rss_kib())"
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert int(out.stdout) < 100 << 10, int(out.stdout) >> 10
    del big
