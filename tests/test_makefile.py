"""`make` brings an older .venv (made while the app used pygame) onto pygame-ce."""

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="needs make")


def planned(venv: Path) -> list[str]:
    """The commands `make test` would run with this venv (make -n runs nothing)."""
    out = subprocess.run(["make", "-n", "-C", str(ROOT), "test", f"VENV={venv}"],
                         capture_output=True, text=True, check=True, timeout=60).stdout
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
