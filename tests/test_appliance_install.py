"""`sudo make install-pi`: the dry run prints the whole plan and changes nothing; each step knows
when it is done (running twice is harmless); the boot config and first settings are right."""

from __future__ import annotations

import os
import pwd
import re
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


def test_the_boot_config_block_adds_only_what_pi_os_lacks_and_is_removed_cleanly():
    for display in install.DISPLAYS:  # Pi OS's own config.txt has every line a display needs
        assert install.with_block(BOOKWORM_CONFIG, install.DISPLAYS[display][0]) == BOOKWORM_CONFIG
    # no panel overlay is forced: display_auto_detect finds both sizes of Touch Display 2
    assert not any("ili9881" in line or "dsi" in line for lines, _ in install.DISPLAYS.values() for line in lines)
    lost = BOOKWORM_CONFIG.replace("display_auto_detect=1\n", "")
    once = install.with_block(lost, install.DISPLAYS["touch2"][0])
    assert install.with_block(once, install.DISPLAYS["touch2"][0]) == once  # idempotent
    assert once.count(install.BEGIN) == 1
    assert once.split(install.BEGIN)[1] == "\n[all]\ndisplay_auto_detect=1\n" + install.END + "\n"
    # a line only under [cm4] does not count for the other boards
    only_cm4 = lost.replace("dtoverlay=vc4-kms-v3d\n", "").replace("otg_mode=1", "otg_mode=1\ndtoverlay=vc4-kms-v3d")
    assert "dtoverlay=vc4-kms-v3d" in install.with_block(only_cm4, install.DISPLAYS["hdmi"][0]).split(install.BEGIN)[1]
    switched = install.with_block(once, install.DISPLAYS["hdmi"][0])
    assert switched == lost and install.without_block(once) == lost


def test_bookworms_moved_placeholder_is_never_taken_for_config_txt(tmp_path, monkeypatch):
    firmware, old = tmp_path / "firmware" / "config.txt", tmp_path / "config.txt"
    monkeypatch.setattr(install, "BOOT_CONFIGS", (firmware, old))
    old.write_text("DO NOT EDIT THIS FILE\n\nThe file you are looking for has moved to /boot/firmware/config.txt\n")
    assert install.boot_config() is None
    old.write_text("dtparam=audio=on\n")  # an older Pi OS, before /boot/firmware
    assert install.boot_config() == old
    firmware.parent.mkdir()
    firmware.write_text(BOOKWORM_CONFIG)
    assert install.boot_config() == firmware


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
    mount = next(line for line in rule.splitlines() if "systemd-mount" in line)
    where = Path(mount.rsplit(" ", 1)[1].rstrip('"'))
    assert where.parent in ROOTS and "$env{CLOUD_COMPANION_MOUNT}" in mount
    options = dict(re.findall(r'ENV\{ID_FS_TYPE\}=="(\w+)", ENV\{CLOUD_COMPANION_MOUNT\}="([^"]+)"', rule))
    assert set(options) == {"vfat", "exfat"}
    for fs, given in options.items():
        assert "uid=cloud-companion" in given and "umask=0077" in given
    # the kernel's exFAT refuses "flush" and with it the whole mount; FAT takes it
    assert "flush" in options["vfat"].split(",") and "flush" not in options["exfat"].split(",")
    lines = rule.splitlines()
    skips = [line for line in lines if line.endswith('GOTO="cloud_companion_end"')]
    # the system's own disk: a partition mounted already, or with Pi OS's own labels, is skipped first
    assert any("findmnt" in line and "$devnode" in line for line in skips)
    assert any('ENV{ID_FS_LABEL}=="bootfs|rootfs"' in line for line in skips)
    assert lines.index(mount) > max(lines.index(line) for line in skips if "remove" not in line)
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
