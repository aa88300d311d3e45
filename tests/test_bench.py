"""`cloud-companion bench` and its parts run and report figures with their units.

Only that they run and report sensible numbers: speed itself is measured, never asserted.
"""

import json
import subprocess
import sys

from companion.bench import BENCH_MODULES
from companion.rules.bench import bench as rules_bench
from companion.ui.bench import idle_cpu_from_outside, render_ms


def test_every_area_is_in_the_bench():
    assert set(BENCH_MODULES) == {"companion.rules.bench", "companion.journal.bench",
                                  "companion.devices.bench", "companion.ui.bench"}


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
    figures = idle_cpu_from_outside(games=("cloudmine",), seconds=0.5, settle=1.5)
    assert set(figures) == {"home", "cloudmine"}
    assert all(0 <= value < 100 for value in figures.values())


def test_bench_command_lists_its_figures():
    # the command itself, with only the rules core's figures (the rest are tested above)
    code = ("import json, companion.bench as b; b.BENCH_MODULES = ('companion.rules.bench',); "
            "from companion.cli import main; main(['bench', '--json'])")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert set(json.loads(run.stdout)) >= {"rules.cloud9.replay_actions_per_s"}
