"""The live page's systemd unit: sandboxed as tightly as a home-network server allows (the real
systemd-analyze rates it), valid, read-only on the journal, and the app's unit still offline."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
from pathlib import Path

from companion.cli import build_parser
from unitfile import exposure, needs_systemd, settings

UNITS = Path(__file__).parent.parent / "systemd"
LIVE = UNITS / "cloud-companion-live.service"
APP = UNITS / "cloud-companion.service"
EXEC = "/opt/cloud-companion/venv/bin/cloud-companion"
EXEC_PYTHON = "/opt/cloud-companion/venv/bin/python"
EXPOSURE = 1.2  # what systemd-analyze says of it today: it must not get looser


@needs_systemd
def test_exposure_stays_at_most_its_figure_and_each_remaining_item_is_explained():
    score, report = exposure(LIVE)
    assert score <= EXPOSURE, report
    comments = "\n".join(line for line in LIVE.read_text().splitlines() if line.startswith("#"))
    assert f"rates this unit {EXPOSURE}" in comments
    for name in re.findall(r"^✗ (\S+?)=", report, re.M):
        assert any(part in comments for part in name.split("/")), f"{name} is not explained in the unit"


@needs_systemd
def test_the_unit_verifies_clean(tmp_path):
    command = Path(shutil.which("cloud-companion") or Path(__import__("sys").executable).with_name("cloud-companion"))
    unit = tmp_path / LIVE.name
    unit.write_text(
        LIVE.read_text().replace(EXEC_PYTHON, str(Path(__import__("sys").executable))).replace(EXEC, str(command))
    )
    result = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and result.stderr == "" and result.stdout == "", result.stderr


def test_it_runs_the_live_command_on_the_apps_journal_and_settings_read_only():
    unit = settings(LIVE.read_text())
    app = settings(APP.read_text())
    words = shlex.split(unit["ExecStart"][0])
    assert words[:3] == ["/opt/cloud-companion/venv/bin/python", "-m", "companion.live"]
    args = build_parser().parse_args(["live", *words[3:]])  # the same options as `cloud-companion live`
    assert args.func.__name__ == "cmd_live"
    assert str(args.db) == shlex.split(app["ExecStart"][0])[shlex.split(app["ExecStart"][0]).index("--db") + 1]
    assert str(args.config) == "/etc/cloud-companion/config.toml" and args.host is None and not args.always
    assert unit["ProtectSystem"] == ["strict"]
    assert set(unit["ReadOnlyPaths"][0].split()) == {"/var/lib/cloud-companion", "/etc/cloud-companion"}
    assert "ReadWritePaths" not in unit and "StateDirectory" not in unit
    assert unit["User"] == app["User"]  # the journal's files are that user's, mode 0600


def test_it_reaches_the_home_network_only_and_the_app_no_network_at_all():
    unit = settings(LIVE.read_text())
    assert unit["IPAddressDeny"] == ["any"]
    allowed = set(unit["IPAddressAllow"][0].split())
    assert allowed == {"localhost", "link-local", "10.0.0.0/8", "172.16.0.0/12", "192.168.0.0/16", "fc00::/7"}
    assert set(unit["RestrictAddressFamilies"][0].split()) == {"AF_INET", "AF_INET6", "AF_UNIX"}
    assert unit["SystemCallFilter"][0] == "@system-service" and unit["NoNewPrivileges"] == ["yes"]
    assert unit["CapabilityBoundingSet"] == [""] and unit["MemoryMax"]
    app = settings(APP.read_text())
    assert app["PrivateNetwork"] == ["yes"] and "AF_INET" not in app["RestrictAddressFamilies"][0]


def test_the_app_and_the_page_agree_on_where_the_address_is_written():
    unit = settings(LIVE.read_text())
    written = dict(v.split("=", 1) for line in unit["Environment"] for v in line.split() if "=" in v)
    path = written["CLOUD_COMPANION_LIVE_URL_FILE"]
    assert path.startswith(f"/run/{unit['RuntimeDirectory'][0]}/")
    app = settings(APP.read_text())
    assert f"Environment=CLOUD_COMPANION_LIVE_URL_FILE={path}" in APP.read_text()
    assert app["ProtectSystem"] == ["strict"]  # /run stays readable to it


def test_the_app_comes_first_for_the_processor_and_the_card_and_the_page_never_waits_for_it():
    unit = settings(LIVE.read_text())
    app = settings(APP.read_text())
    # control groups share by weight (default 100); Nice= would count only inside one
    assert int(unit["CPUWeight"][0]) * 5 <= int(app.get("CPUWeight", ["100"])[0])
    assert int(unit["IOWeight"][0]) * 5 <= int(app.get("IOWeight", ["100"])[0])
    # while the Pi boots, it runs only where every other unit leaves a processor idle
    assert unit["StartupCPUWeight"] == ["idle"] and "StartupCPUWeight" not in app
    # ordered after the app, its start would wait through the app's automatic restarts (a
    # display switched on later); bound to it, it would stop with the app
    for key in ("After", "Requires", "Requisite", "BindsTo", "PartOf", "Wants", "Upholds"):
        assert "cloud-companion.service" not in " ".join(unit.get(key, [])).split(), key
