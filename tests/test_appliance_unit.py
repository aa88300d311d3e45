"""The systemd unit: hardened (systemd-analyze security), valid (systemd-analyze verify), and
every setting the app relies on present. Both checks run the real systemd-analyze."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
from pathlib import Path

from companion.cli import build_parser
from unitfile import exposure, needs_systemd, settings

UNIT = Path(__file__).parent.parent / "systemd" / "cloud-companion.service"
POLKIT = UNIT.with_name("50-cloud-companion-poweroff.rules")
EXEC = "/opt/cloud-companion/venv/bin/cloud-companion"
EXPOSURE = 1.0  # what systemd-analyze says of it today (and the unit and the README): it must not get looser


@needs_systemd
def test_exposure_stays_at_most_its_figure_and_each_remaining_item_is_explained():
    score, report = exposure(UNIT)
    assert score <= EXPOSURE, report
    comments = "\n".join(line for line in UNIT.read_text().splitlines() if line.startswith("#"))
    assert f"rates this unit {EXPOSURE}" in comments
    project = UNIT.parents[1]  # what the README and the manual say of it
    said = " ".join(p.read_text() for p in [project / "README.md", *sorted(project.glob("docs/**/*.md"))])
    said = " ".join(said.split())
    assert f"rates it {EXPOSURE}" in said and f"the app's unit: {EXPOSURE}" in said
    remaining = re.findall(r"^✗ (\S+?)=", report, re.M)
    assert remaining  # a unit for real hardware cannot close everything
    for name in remaining:
        assert any(part in comments for part in name.split("/")), f"{name} is not explained in the unit"


@needs_systemd
def test_the_unit_verifies_clean(tmp_path):
    # the real unit, with ExecStart pointing at this checkout's command instead of the Pi's venv
    venv_command = Path(
        shutil.which("cloud-companion") or Path(__import__("sys").executable).with_name("cloud-companion")
    )
    unit = tmp_path / UNIT.name
    unit.write_text(UNIT.read_text().replace(EXEC, str(venv_command)))
    result = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and result.stderr == "" and result.stdout == "", result.stderr


def test_the_unit_starts_the_app_the_way_the_watchdog_needs():
    unit = settings(UNIT.read_text())
    assert unit["Type"] == ["notify"] and unit["Restart"] == ["on-failure"]
    assert int(unit["WatchdogSec"][0]) >= 10  # far above the loop's longest pause
    command = shlex.split(unit["ExecStart"][0])
    assert command[0] == EXEC
    args = build_parser().parse_args(command[1:])
    assert args.func.__name__ == "cmd_run" and str(args.config).startswith("/etc/cloud-companion/")
    assert str(args.db).startswith("/var/lib/cloud-companion/")  # the StateDirectory
    assert unit["StateDirectory"] == ["cloud-companion"] and "-/etc/cloud-companion" in unit["ReadWritePaths"]


def test_every_device_the_app_uses_is_allowed_and_nothing_else():
    unit = settings(UNIT.read_text())
    assert unit["DevicePolicy"] == ["closed"]
    # no Internet socket at all, but the host's network namespace: udev's device events (a
    # touchscreen plugged in, one udev finishes after the app started) are netlink messages that
    # a namespace of its own would never receive
    assert unit["RestrictAddressFamilies"] == ["AF_UNIX AF_NETLINK"] and unit["IPAddressDeny"] == ["any"]
    assert "PrivateNetwork" not in unit
    allowed = {entry.split()[0] for entry in unit["DeviceAllow"]}
    assert allowed == {
        "char-gpiochip",
        "char-ttyACM",
        "char-ttyUSB",
        "char-ttyAMA",
        "char-ttyS",
        "char-rfcomm",
        "char-drm",
        "char-input",
        "char-alsa",
    }
    assert set(unit["SupplementaryGroups"][0].split()) == {"video", "render", "input", "audio", "gpio", "dialout"}
    assert unit["ProtectSystem"] == ["strict"] and unit["SystemCallFilter"][0] == "@system-service"


def test_the_unit_does_not_wait_for_the_deprecated_udev_settle():
    text = UNIT.read_text()
    for key in ("After", "Wants", "Requires"):
        for value in settings(text).get(key, []):
            assert "systemd-udev-settle" not in value


def test_the_polkit_rule_allows_the_service_user_only_to_power_off():
    rule = POLKIT.read_text()
    assert re.findall(r'action\.id == "([^"]+)"', rule) == [
        "org.freedesktop.login1.power-off",
        "org.freedesktop.login1.power-off-multiple-sessions",
    ]
    assert 'subject.user == "cloud-companion"' in rule and rule.count("Result.YES") == 1


def test_a_display_that_comes_late_is_waited_for_not_given_up_on():
    text = UNIT.read_text()
    assert re.search(r"^StartLimitIntervalSec=0$", text, re.M)  # never the start-limit's final "failed"
    assert "StartLimitBurst" not in text
    delay = float(re.search(r"^RestartSec=(\d+)", text, re.M).group(1))
    assert 1 <= delay <= 10  # spaced tries, and the app is there within seconds of the display


def test_sdls_renderer_is_chosen_so_a_missing_libgl_does_not_make_a_black_screen():
    text = UNIT.read_text()
    assert re.search(r"^Environment=SDL_RENDER_DRIVER=opengles2$", text, re.M)
    assert re.search(r"^Environment=SDL_FRAMEBUFFER_ACCELERATION=opengles2$", text, re.M)  # SDL 2.26's name


def test_the_unit_and_the_pi_command_use_the_same_data_config_and_cache_places():
    text = UNIT.read_text()
    wrapper = (UNIT.parent / "cloud-companion-cli").read_text()
    exported = re.search(r"^export (XDG_DATA_HOME=\S+ XDG_CONFIG_HOME=\S+ XDG_CACHE_HOME=\S+)$", wrapper, re.M).group(1)
    assert f"Environment={exported}" in text
    cache = dict(part.split("=") for part in exported.split())["XDG_CACHE_HOME"]
    assert re.search(r"^CacheDirectory=cloud-companion$", text, re.M) and cache == "/var/cache"
    # Mesa writes its shader cache into the unit's own (writable) cache directory
    assert "Environment=MESA_SHADER_CACHE_DIR=/var/cache/cloud-companion/" in text
    assert "install-pi.sh" not in text
