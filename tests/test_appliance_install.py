"""`sudo make install-pi`: the dry run prints the whole plan and changes nothing; each step knows
when it is done (running twice is harmless); the boot config and first settings are right."""

from __future__ import annotations

import os
import pwd
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from companion import config as settings
from companion.appliance import install

ROOT = Path(__file__).parent.parent


def user_exists() -> bool:
    try:
        pwd.getpwnam(install.USER)
        return True
    except KeyError:
        return False


def dry_run(*make_args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["make", "--no-print-directory", "-C", str(ROOT), *make_args, "DRY_RUN=1"],
                          capture_output=True, text=True, timeout=120)


def test_the_install_dry_run_prints_every_step_and_changes_nothing():
    watched = [install.PREFIX, install.CONFIG_DIR, Path("/etc/systemd/system") / install.UNIT_NAME,
               Path("/etc/polkit-1/rules.d") / install.POLKIT_NAME]
    before = [p.exists() for p in watched], user_exists()
    result = dry_run("install-pi", "PI_DISPLAY=touch2", "PI_ROTATE=90")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "apt-get install -y " + " ".join(install.PACKAGES) in out
    for package in ("python3-lgpio", "espeak-ng", "libdrm2", "libgbm1", "libegl1", "libgles2", "fonts-dejavu-core"):
        assert package in install.PACKAGES
    assert "useradd --system --user-group --home-dir /var/lib/cloud-companion --no-create-home " \
           "--shell /usr/sbin/nologin cloud-companion" in out or "service user cloud-companion" in out
    assert "usermod --groups gpio,dialout,video,render,input,audio cloud-companion" in out \
        or "exactly the groups gpio, dialout, video, render, input, audio: done already" in out
    assert "-m venv --system-site-packages /opt/cloud-companion/venv" in out
    assert "write /etc/systemd/system/cloud-companion.service" in out
    assert "write /etc/polkit-1/rules.d/50-cloud-companion-poweroff.rules" in out
    assert "write /etc/udev/rules.d/90-cloud-companion-usb.rules" in out
    assert "systemctl enable cloud-companion.service" in out and "touch2 display" in out
    assert out.rstrip().endswith("dry run: nothing was changed")
    assert ([p.exists() for p in watched], user_exists()) == before


def test_update_and_uninstall_dry_runs_keep_the_history_unless_asked():
    update = dry_run("update-pi")
    assert update.returncode == 0 and "systemctl restart cloud-companion.service" in update.stdout
    keep = dry_run("uninstall-pi")
    assert keep.returncode == 0 and "/var/lib/cloud-companion" not in keep.stdout
    purge = dry_run("uninstall-pi", "PURGE=1")
    assert "DELETE the game history and settings (/var/lib/cloud-companion" in purge.stdout


def test_without_root_and_without_dry_run_it_refuses():
    if os.geteuid() == 0:
        pytest.skip("running as root")
    result = subprocess.run(["python3", "-m", "companion.appliance.install", "install"], cwd=ROOT,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 1 and "sudo make install-pi" in result.stderr


def test_steps_that_are_done_are_skipped_so_a_second_run_is_harmless(tmp_path):
    ran = []
    target = tmp_path / "etc" / "thing.conf"
    steps = [install.write_step("a file", target, "x = 1\n"),
             install.Step("a command", lambda: ran.append("command"), lambda: "command" in ran)]
    lines: list[str] = []
    install.carry_out(steps, dry_run=False, out=lines.append)
    assert target.read_text() == "x = 1\n" and ran == ["command"]
    lines.clear()
    install.carry_out(steps, dry_run=False, out=lines.append)
    assert ran == ["command"] and all(line.endswith("done already") for line in lines)
    kept = install.write_step("first settings", target, "new\n", keep=True)
    assert kept.done()  # a settings file that exists is never overwritten


def test_a_dry_run_runs_nothing(tmp_path):
    target = tmp_path / "f"
    lines: list[str] = []
    install.carry_out([install.write_step("a file", target, "x"),
                       install.Step("boom", lambda: 1 / 0)], dry_run=True, out=lines.append)
    assert not target.exists() and lines[-1] == "dry run: nothing was changed"


BOOKWORM_CONFIG = """# For more options and information see
# http://rpf.io/configtxt
dtparam=audio=on
camera_auto_detect=1
display_auto_detect=1
auto_initramfs=1
dtoverlay=vc4-kms-v3d
max_framebuffers=2

[cm4]
otg_mode=1

[all]
"""


def test_the_boot_config_block_is_added_once_replaced_and_removed_cleanly():
    lines = install.DISPLAYS["touch2"][0]
    once = install.with_block(BOOKWORM_CONFIG, lines)
    assert install.with_block(once, lines) == once  # idempotent
    assert once.count(install.BEGIN) == 1 and "dtoverlay=vc4-kms-dsi-ili9881-7inch" in once
    assert once.split(install.BEGIN)[1].startswith("\n[all]\n")  # not inside the [cm4] section
    switched = install.with_block(once, install.DISPLAYS["hdmi"][0])
    assert "ili9881" not in switched and switched.count(install.BEGIN) == 1
    assert install.without_block(switched) == BOOKWORM_CONFIG


@pytest.mark.parametrize("display,rotate", [("official7", 0), ("touch2", 0), ("official7", 180), ("hdmi", 90)])
def test_the_first_settings_file_is_the_example_with_the_display_filled_in(display, rotate):
    text = install.settings_text(settings.EXAMPLE.read_text(), display, rotate)
    loaded, problems = settings.from_dict(tomllib.loads(text))
    assert problems == [] and loaded == settings.Config(rotate=rotate)
    assert text.count("\n#") == settings.EXAMPLE.read_text().count("\n#")  # the comments stay


def test_the_packages_cover_what_sdl_kmsdrm_loads():
    from companion.appliance.doctor import KMSDRM_LIBRARIES

    assert set(KMSDRM_LIBRARIES.values()) <= set(install.PACKAGES)


def test_the_usb_rule_mounts_sticks_where_the_app_looks_writable_by_the_service_only():
    from companion.appliance.usb import ROOTS

    rule = (ROOT / "systemd" / install.UDEV_NAME).read_text()
    mount = next(line for line in rule.splitlines() if line.startswith('ACTION=="add"'))
    where = Path(mount.rsplit(" ", 1)[1].rstrip('"'))
    assert where.parent in ROOTS and "uid=cloud-companion" in mount and "umask=0077" in mount
    unit = (ROOT / "systemd" / install.UNIT_NAME).read_text()
    assert "ReadWritePaths=-/media -/run/media" in unit  # the service may write the backup there


def test_the_pi_command_runs_as_the_service_on_the_service_files(tmp_path):
    script = ROOT / "systemd" / "cloud-companion-cli"
    assert subprocess.run(["sh", "-n", str(script)]).returncode == 0
    assert os.access(script, os.X_OK)
    # with the script's environment, the app's own defaults are the service's paths
    env = {**os.environ, "XDG_DATA_HOME": "/var/lib", "XDG_CONFIG_HOME": "/etc"}
    code = ("from companion.journal.journal import default_path as j; from companion.config import default_path as c; "
            "print(j()); print(c())")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    assert out.split() == ["/var/lib/cloud-companion/journal.sqlite3", "/etc/cloud-companion/config.toml"]
    unit = (ROOT / "systemd" / install.UNIT_NAME).read_text()
    assert "--config /etc/cloud-companion/config.toml --db /var/lib/cloud-companion/journal.sqlite3" in unit
    assert "-u cloud-companion" in script.read_text()


def test_a_purge_keeps_a_last_backup_before_it_deletes_the_history(tmp_path, monkeypatch):
    from journaling import journal_of_games
    from companion.appliance.backup import verify

    state, prefix, kept = tmp_path / "state", tmp_path / "opt", tmp_path / "backups"
    state.mkdir()
    journal_of_games(state / "journal.sqlite3", 2)
    (prefix / "venv" / "bin").mkdir(parents=True)
    (prefix / "venv" / "bin" / "cloud-companion").symlink_to(Path(sys.executable).with_name("cloud-companion"))
    monkeypatch.setattr(install, "STATE_DIR", state)
    monkeypatch.setattr(install, "PREFIX", prefix)
    monkeypatch.setattr(install, "LAST_BACKUP_DIR", kept)
    plan = [step.what for step in install.uninstall_plan(purge=True)]
    delete = next(i for i, what in enumerate(plan) if what.startswith("DELETE"))
    backup_step = next(i for i, what in enumerate(plan) if what.startswith("keep a last backup"))
    remove_app = next(i for i, what in enumerate(plan) if what.startswith("remove the app"))
    assert backup_step < remove_app < delete  # the app makes the copy, so it goes first
    install.carry_out(install.last_backup_steps(), dry_run=False, out=lambda line: None)
    copies = list(kept.glob("journal-*.sqlite3"))
    assert len(copies) == 1 and verify(copies[0]) == 2
    assert not any(what.startswith("keep a last backup") for what in
                   (step.what for step in install.uninstall_plan(purge=False)))


def test_a_failed_last_backup_stops_the_purge_before_anything_is_deleted(tmp_path, monkeypatch):
    state = tmp_path / "state"
    state.mkdir()
    (state / "journal.sqlite3").write_bytes(b"SQLite format 3\0" + bytes(100))
    monkeypatch.setattr(install, "STATE_DIR", state)
    monkeypatch.setattr(install, "PREFIX", tmp_path / "no-app")  # the app is gone: no copy can be made
    monkeypatch.setattr(install, "LAST_BACKUP_DIR", tmp_path / "backups")
    deleted = []
    steps = install.uninstall_plan(purge=True)
    steps = [step for step in steps if step.what.startswith(("a folder", "keep a last", "DELETE"))]
    steps[-1] = install.Step(steps[-1].what, lambda: deleted.append(True))
    with pytest.raises(OSError):
        install.carry_out(steps, dry_run=False, out=lambda line: None)
    assert not deleted and (state / "journal.sqlite3").exists()
