"""Reading the systemd units in systemd/: their settings, and what systemd-analyze rates them."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

needs_systemd = pytest.mark.skipif(
    shutil.which("systemd-analyze") is None, reason="systemd-analyze is missing: .ci/run installs the systemd package"
)


def settings(text: str) -> dict[str, list[str]]:
    """Each key of a unit file with every value it is given, in order."""
    out: dict[str, list[str]] = {}
    for line in text.splitlines():
        if "=" in line and not line.startswith(("#", "[")):
            key, _, value = line.partition("=")
            out.setdefault(key.strip(), []).append(value.strip())
    return out


def exposure(unit: Path) -> tuple[float, str]:
    """systemd-analyze's overall exposure of `unit`, and its whole report."""
    result = subprocess.run(
        ["systemd-analyze", "security", "--offline=true", "--no-pager", str(unit)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    return float(re.search(r"Overall exposure level for \S+: (\d+\.\d+)", result.stdout).group(1)), result.stdout
