"""The live page's systemd unit: sandboxed as tightly as a home-network server allows (the real
systemd-analyze rates it), valid, read-only on the journal, and the app's unit still offline."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
from pathlib import Path

from hypothesis import given, settings as examples, strategies as st

from companion import config as settings_module
from companion.appliance import install
from companion.cli import build_parser
from companion.live.switch import switched_on
from unitfile import exposure, needs_systemd, settings

UNITS = Path(__file__).parent.parent / "systemd"
LIVE = UNITS / "cloud-companion-live.service"
LIVE_PATH = UNITS / "cloud-companion-live.path"
SETTINGS = "/etc/cloud-companion/config.toml"
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
def test_the_unit_and_its_path_unit_verify_clean(tmp_path):
    command = Path(shutil.which("cloud-companion") or Path(__import__("sys").executable).with_name("cloud-companion"))
    unit = tmp_path / LIVE.name
    unit.write_text(
        LIVE.read_text().replace(EXEC_PYTHON, str(Path(__import__("sys").executable))).replace(EXEC, str(command))
    )
    (tmp_path / LIVE_PATH.name).write_text(LIVE_PATH.read_text())
    for name in (LIVE.name, LIVE_PATH.name):
        result = subprocess.run(
            ["systemd-analyze", "verify", str(tmp_path / name)], capture_output=True, text=True, timeout=60
        )
        assert result.returncode == 0 and result.stderr == "" and result.stdout == "", (name, result.stderr)


def condition_passes(config: Path) -> bool:
    """The unit's ExecCondition= run for real on `config` (grep: 0 starts the page, 1 or 2 skips it)."""
    words = shlex.split(settings(LIVE.read_text())["ExecCondition"][0].removeprefix("+"))
    assert words.count(SETTINGS) == 1
    result = subprocess.run([str(config) if w == SETTINGS else w for w in words], capture_output=True, timeout=30)
    assert result.returncode in (0, 1, 2) and result.stderr == b"", result
    return result.returncode == 0


def test_switched_off_the_page_does_not_start_at_all(tmp_path):
    config = tmp_path / "config.toml"
    assert not condition_passes(config)  # no settings yet: the default, off
    config.write_text(settings_module.EXAMPLE.read_text())  # what the installer writes: off
    assert not condition_passes(config)
    settings_module.save(settings_module.Config(live=False, volume=0.3), config)  # the Settings screen's file
    assert not condition_passes(config)
    for text in ("# live = true\n", "live = false  # true\n", "lives = 3\n"):
        config.write_text(text)
        assert not condition_passes(config), text


def test_switched_on_in_the_settings_screen_or_the_example_the_page_starts(tmp_path):
    config = tmp_path / "config.toml"
    settings_module.save(settings_module.Config(live=True), config)
    assert switched_on(config) and condition_passes(config)
    config.write_text(settings_module.EXAMPLE.read_text().replace("live = false", "live = true", 1))
    assert switched_on(config) and condition_passes(config)


SPACE = st.sampled_from(["", " ", "  ", "\t"])
LINES = st.sampled_from(settings_module.EXAMPLE.read_text().replace("live = false", "").splitlines())


@examples(deadline=None)  # each example runs grep in a process of its own: slow on a busy machine
@given(
    before=st.lists(LINES, max_size=6),
    after=st.lists(LINES, max_size=6),
    key=st.sampled_from(["live", '"live"', "'live'"]),
    spaces=st.tuples(SPACE, SPACE, SPACE),
    comment=st.sampled_from(["", "# the TV", " # on"]),
    value=st.sampled_from(["true", "false", '"true"', "1"]),
)
def test_the_condition_never_keeps_off_a_page_the_settings_switch_on(before, after, key, spaces, comment, value):
    # the grep may start a page that then finds itself off (it waits, as when switched off later);
    # it must never skip one whose settings say `live = true`
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        config = Path(folder) / "config.toml"
        line = f"{spaces[0]}{key}{spaces[1]}={spaces[2]}{value}{comment}"
        config.write_text("\n".join([*before, line, *after]) + "\n")
        if switched_on(config):
            assert condition_passes(config), config.read_text()


def test_the_path_unit_starts_the_page_when_its_settings_change():
    path = settings(LIVE_PATH.read_text())
    unit = settings(LIVE.read_text())
    assert path["PathChanged"] == [SETTINGS] and path["Unit"] == [LIVE.name]
    assert f"--config {SETTINGS}" in unit["ExecStart"][0]
    assert path["WantedBy"] == ["paths.target"] and unit["WantedBy"] == ["multi-user.target"]


def test_install_and_update_turn_the_path_unit_on_and_uninstall_removes_it():
    enable = f"systemctl enable --now {install.LIVE_PATH_NAME}"
    for plan in (install.install_plan(UNITS.parent, "hdmi", 0), install.update_plan(UNITS.parent)):
        commands = [c for step in plan for c in step.commands]
        assert f"write /etc/systemd/system/{install.LIVE_PATH_NAME}" in commands
        assert commands.index(enable) < commands.index(f"systemctl restart {install.LIVE_UNIT_NAME}")
    steps = install.uninstall_plan(purge=False)
    commands = [c for step in steps for c in step.commands]
    assert f"systemctl disable --now {install.LIVE_PATH_NAME}" in commands
    assert f"systemctl disable --now {install.LIVE_UNIT_NAME}" in commands
    # an install from before the path unit: its step is done already (systemctl would refuse it)
    [path_step] = [s for s in steps if s.commands == [f"systemctl disable --now {install.LIVE_PATH_NAME}"]]
    assert path_step.done() is not Path("/etc/systemd/system", install.LIVE_PATH_NAME).exists()
    assert any(c.startswith("rm ") and f"/etc/systemd/system/{install.LIVE_PATH_NAME}" in c for c in commands)


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
    assert "AF_INET" not in app["RestrictAddressFamilies"][0] and app["IPAddressDeny"] == ["any"]


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
    # and so its start may wait that long: no timeout fails it (at 90 s, the default, a busy
    # boot under emulation failed it twice)
    assert unit["TimeoutStartSec"] == ["infinity"]
    # ordered after the app, its start would wait through the app's automatic restarts (a
    # display switched on later); bound to it, it would stop with the app
    for key in ("After", "Requires", "Requisite", "BindsTo", "PartOf", "Wants", "Upholds"):
        assert "cloud-companion.service" not in " ".join(unit.get(key, [])).split(), key
