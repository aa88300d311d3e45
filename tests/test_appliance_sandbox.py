"""`cloud-companion doctor` on the Pi runs inside the service's own sandbox: the unit's [Service]
settings become systemd-run properties, but nothing that would touch the running service."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from companion.appliance import sandbox

UNIT = Path(__file__).parent.parent / "systemd" / "cloud-companion.service"


def test_the_units_sandbox_is_carried_over_whole():
    properties = sandbox.service_properties(UNIT.read_text())
    keys = [p.split("=", 1)[0] for p in properties]
    for needed in (
        "User",
        "Group",
        "SupplementaryGroups",
        "ProtectSystem",
        "DevicePolicy",
        "DeviceAllow",
        "SystemCallFilter",
        "RestrictAddressFamilies",
        "MemoryDenyWriteExecute",
        "ReadWritePaths",
        "Environment",
        "StateDirectory",
        "CacheDirectory",
    ):
        assert needed in keys, needed
    assert "User=cloud-companion" in properties and "RestrictAddressFamilies=AF_UNIX AF_NETLINK" in properties
    assert keys.count("DeviceAllow") == UNIT.read_text().count("\nDeviceAllow=")  # every line, in order
    # the transient unit must not remove the app's runtime directory or its IPC objects on exit
    assert not {"RuntimeDirectory", "RemoveIPC", "ExecStart", "Type", "WatchdogSec", "Restart"} & set(keys)


def test_drop_ins_and_continued_lines_and_other_sections():
    text = (
        "[Unit]\nUser=nobody\n[Service]\nEnvironment=A=1 \\\n  B=2\n# User=root\nUser=cloud-companion\n"
        "[Service]\nEnvironment=GALLIUM_DRIVER=softpipe\n[Install]\nWantedBy=multi-user.target\n"
    )
    assert sandbox.service_properties(text) == [
        "Environment=A=1 B=2",
        "User=cloud-companion",
        "Environment=GALLIUM_DRIVER=softpipe",
    ]


def test_the_command_marks_the_sandbox_and_gives_the_app_a_private_runtime_dir():
    words = sandbox.command(["doctor", "--json"], UNIT.read_text())
    assert words[0] == "systemd-run" and "--wait" in words and "--pipe" in words
    assert words[-3:] == [sandbox.APP, "doctor", "--json"]
    props = [words[i + 1] for i, w in enumerate(words) if w == "--property"]
    assert f"Environment={sandbox.MARK}=1" in props and "Environment=XDG_RUNTIME_DIR=/tmp" in props


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="systemd-analyze is not installed")
def test_systemd_takes_every_property(tmp_path):
    """Each property as a unit of its own, checked by systemd's own parser."""
    unit = tmp_path / "probe.service"
    lines = sandbox.service_properties(UNIT.read_text())
    unit.write_text("[Service]\nExecStart=/bin/true\n" + "\n".join(lines) + "\n")
    result = subprocess.run(
        ["systemd-analyze", "verify", "--man=no", str(unit)], capture_output=True, text=True, timeout=60
    )
    unknown = [line for line in result.stderr.splitlines() if "Unknown key" in line or "Failed to parse" in line]
    assert unknown == []
