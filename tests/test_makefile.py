"""`make` brings an older .venv (made while the app used pygame) onto pygame-ce."""

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="needs make")


def planned(venv: Path, target: str = "test") -> list[str]:
    """The commands `make test` (or another target) would run with this venv (make -n runs nothing)."""
    out = subprocess.run(
        ["make", "-n", "-C", str(ROOT), target, f"VENV={venv}"], capture_output=True, text=True, check=True, timeout=60
    ).stdout
    return out.splitlines()


def test_a_venv_that_still_has_pygame_loses_it_before_pygame_ce_is_installed(tmp_path):
    venv = tmp_path / ".venv"
    (venv / "lib" / "python3.11" / "site-packages" / "pygame-2.6.1.dist-info").mkdir(parents=True)
    (venv / "bin").mkdir()
    (venv / "bin" / "cloud-companion").touch()  # installed, and newer than pyproject.toml
    steps = planned(venv)
    uninstall = next(i for i, line in enumerate(steps) if "uninstall" in line)
    install = next(i for i, line in enumerate(steps) if "pip install -q -e" in line)
    assert "pygame pygame-ce" in steps[uninstall] and uninstall < install


def test_a_venv_on_pygame_ce_is_left_alone(tmp_path):
    venv = tmp_path / ".venv"
    (venv / "lib" / "python3.11" / "site-packages" / "pygame_ce-2.5.8.dist-info").mkdir(parents=True)
    (venv / "bin").mkdir()
    (venv / "bin" / "cloud-companion").touch()
    assert not any("pip" in line for line in planned(venv))


def test_make_test_runs_every_test_on_every_core_but_the_realtime_ones_alone_after(tmp_path):
    venv = tmp_path / ".venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "cloud-companion").touch()
    spread, alone = (line for line in planned(venv) if "-m pytest" in line)
    (check,) = (line for line in planned(venv, "check") if "-m pytest" in line)
    assert "-n auto" in spread and '-m "not realtime"' in spread
    assert "-p no:xdist" in alone and "-m realtime" in alone  # together: every test, none twice
    assert "-n auto" in check and '-m "not slow"' in check


def test_the_realtime_modules_exist_and_are_marked(pytestconfig):
    from conftest import REALTIME

    root = Path(pytestconfig.rootpath)
    assert REALTIME and all((root / module).is_file() for module in REALTIME)
    assert "realtime" in " ".join(pytestconfig.getini("markers"))


def uninstall_command(*settings: str) -> subprocess.CompletedProcess:
    """What `make uninstall-pi SETTINGS` would run (make -n runs nothing)."""
    return subprocess.run(
        ["make", "-n", "--no-print-directory", "-C", str(ROOT), "uninstall-pi", *settings],
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize("value", ["0", "no", "false", "NO", ""])
def test_purge_and_dry_run_set_to_no_mean_no(value):
    planned_command = uninstall_command(f"PURGE={value}", f"DRY_RUN={value}")
    assert planned_command.returncode == 0, planned_command.stderr
    assert "--purge" not in planned_command.stdout and "--dry-run" not in planned_command.stdout


@pytest.mark.parametrize("value", ["1", "yes", "true", "YES"])
def test_purge_and_dry_run_set_to_yes_mean_yes(value):
    planned_command = uninstall_command(f"PURGE={value}", f"DRY_RUN={value}")
    assert "--purge" in planned_command.stdout and "--dry-run" in planned_command.stdout


@pytest.mark.parametrize("setting", ["PURGE=maybe", "DRY_RUN=off-please"])
def test_a_value_that_is_neither_yes_nor_no_stops_make(setting):
    planned_command = uninstall_command(setting)
    assert planned_command.returncode != 0 and "neither yes nor no" in planned_command.stderr
    assert "companion.appliance.install" not in planned_command.stdout


def test_every_test_named_slow_still_exists():
    """slow_tests.txt names test functions: one renamed or removed would leave `make check` slow again."""
    from conftest import SLOW

    missing = [
        name
        for name in sorted(SLOW)
        if f"def {name.split('::')[-1]}(" not in (ROOT / name.split("::")[0]).read_text(encoding="utf-8")
    ]
    assert len(SLOW) > 100 and not missing, missing
