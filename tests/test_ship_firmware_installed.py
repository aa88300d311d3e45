"""An installed app carries the ship's firmware, so the twin of the ship it flies (on a desktop,
or a Pi with no ship yet) finds it outside a checkout too."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from companion.ship import board

PROJECT = Path(__file__).resolve().parents[1]
SHARE = "share/cloud-companion/ship-firmware"


@pytest.mark.slow  # a wheel built: a minute or more
def test_the_wheel_carries_every_firmware_file_the_twin_runs_and_every_sound_font_and_catalog(tmp_path):
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp_path), str(PROJECT)],
        check=True,
        capture_output=True,
        timeout=600,
    )
    wheel = next(tmp_path.glob("cloud_companion-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    carried = {Path(n).name for n in names if f".data/data/{SHARE}/" in n}
    wanted = {p.name for p in (PROJECT / "hardware" / "ship").glob("*.py")} | {"flash.sh"}
    assert "main.py" in wanted and wanted <= carried
    assert "companion/ship/protocol.py" in names  # the firmware's protocol module, from the package
    package = PROJECT / "companion"
    data = [
        p
        for pattern in ("sounds_data/*.wav", "ui/kit/fonts/*", "i18n/*/LC_MESSAGES/*.mo")
        for p in package.glob(pattern)
    ]
    assert len([p for p in data if p.suffix == ".wav"]) >= 20
    assert {f"companion/{p.relative_to(package)}" for p in data} <= set(names)


def test_outside_a_checkout_the_firmware_is_looked_for_where_the_wheel_put_it(tmp_path):
    assert board.firmware_folder(PROJECT) == PROJECT / "hardware" / "ship"
    installed = board.firmware_folder(tmp_path)  # a site-packages with no hardware/ beside it
    assert installed.parts[-3:] == ("share", "cloud-companion", "ship-firmware")
    assert Path(sys.prefix) in installed.parents or installed.is_relative_to(Path(sys.base_prefix))
