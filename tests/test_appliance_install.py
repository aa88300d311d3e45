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
    return subprocess.run(
        ["make", "--no-print-directory", "-C", str(ROOT), *make_args, "DRY_RUN=1"],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_install_dry_run_prints_every_step_and_changes_nothing():
    watched = [
        install.PREFIX,
        install.CONFIG_DIR,
        Path("/etc/systemd/system") / install.UNIT_NAME,
        Path("/etc/polkit-1/rules.d") / install.POLKIT_NAME,
    ]
    before = [install.present(p) for p in watched], user_exists()
    result = dry_run("install-pi", "PI_DISPLAY=touch2", "PI_ROTATE=90")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "apt-get install -y " + " ".join(install.PACKAGES) in out
    for package in ("python3-lgpio", "espeak-ng", "libdrm2", "libgbm1", "libegl1", "libgles2", "fonts-dejavu-core"):
        assert package in install.PACKAGES
    assert (
        "useradd --system --user-group --home-dir /var/lib/cloud-companion --no-create-home "
        "--shell /usr/sbin/nologin cloud-companion"
        in out
        or "service user cloud-companion" in out
    )
    assert (
        "usermod --groups gpio,dialout,video,render,input,audio cloud-companion" in out
        or "exactly the groups gpio, dialout, video, render, input, audio: done already" in out
    )
    assert "-m venv --system-site-packages /opt/cloud-companion/venv" in out
    assert "write /etc/systemd/system/cloud-companion.service" in out
    assert "write /etc/polkit-1/rules.d/50-cloud-companion-poweroff.rules" in out
    assert "write /etc/udev/rules.d/90-cloud-companion-usb.rules" in out
    assert "write /usr/local/share/man/man1/cloud-companion.1" in out  # where man looks
    assert "systemctl enable cloud-companion.service" in out and "touch2 display" in out
    assert out.rstrip().endswith("dry run: nothing was changed")
    assert ([install.present(p) for p in watched], user_exists()) == before


def test_update_and_uninstall_dry_runs_keep_the_history_unless_asked():
    update = dry_run("update-pi")
    assert update.returncode == 0 and "systemctl restart cloud-companion.service" in update.stdout
    keep = dry_run("uninstall-pi")
    assert keep.returncode == 0 and "/var/lib/cloud-companion" not in keep.stdout
    assert "its command and manual page" in keep.stdout
    purge = dry_run("uninstall-pi", "PURGE=1")
    assert "DELETE the game history and settings (/var/lib/cloud-companion" in purge.stdout


def test_without_root_and_without_dry_run_it_refuses():
    if os.geteuid() == 0:
        pytest.skip("running as root")
    result = subprocess.run(
        ["python3", "-m", "companion.appliance.install", "install"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 1 and "sudo make install-pi" in result.stderr


def test_steps_that_are_done_are_skipped_so_a_second_run_is_harmless(tmp_path):
    ran = []
    target = tmp_path / "etc" / "thing.conf"
    steps = [
        install.write_step("a file", target, "x = 1\n"),
        install.Step("a command", lambda: ran.append("command"), lambda: "command" in ran),
    ]
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
    install.carry_out(
        [install.write_step("a file", target, "x"), install.Step("boom", lambda: 1 / 0)], dry_run=True, out=lines.append
    )
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

    assert set(KMSDRM_LIBRARIES.values()) <= set(install.packages())


def test_the_usb_rule_mounts_sticks_where_the_app_looks_writable_by_the_service_only():
    from companion.appliance.usb import ROOTS

    rule = (ROOT / "systemd" / install.UDEV_NAME).read_text()
    mount = next(line for line in rule.splitlines() if "systemd-mount" in line)
    where = Path(mount.rsplit(" ", 1)[1].rstrip('"'))
    assert where.parent in ROOTS and "$env{CLOUD_COMPANION_MOUNT}" in mount
    options = dict(re.findall(r'ENV\{ID_FS_TYPE\}=="(\w+)", ENV\{CLOUD_COMPANION_MOUNT\}="([^"]+)"', rule))
    assert set(options) == {"vfat", "exfat"}
    for given in options.values():
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
    code = (
        "from companion.journal.journal import default_path as j; from companion.config import default_path as c; "
        "print(j()); print(c())"
    )
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    assert out.split() == ["/var/lib/cloud-companion/journal.sqlite3", "/etc/cloud-companion/config.toml"]
    unit = (ROOT / "systemd" / install.UNIT_NAME).read_text()
    assert "--config /etc/cloud-companion/config.toml --db /var/lib/cloud-companion/journal.sqlite3" in unit
    assert "-u cloud-companion" in script.read_text()


def test_a_purge_keeps_a_last_backup_before_it_deletes_the_history(tmp_path, monkeypatch):
    from companion.appliance.backup import verify
    from journaling import journal_of_games

    state, prefix, kept = tmp_path / "state", tmp_path / "opt", tmp_path / "backups"
    state.mkdir()
    journal_of_games(state / "journal.sqlite3", 2)
    (prefix / "venv" / "bin").mkdir(parents=True)
    (prefix / "venv" / "bin" / "cloud-companion").symlink_to(Path(sys.executable).with_name("cloud-companion"))
    monkeypatch.setattr(install, "STATE_DIR", state)
    monkeypatch.setattr(install, "PREFIX", prefix)
    monkeypatch.setattr(install, "LAST_BACKUP_DIR", kept)
    monkeypatch.setattr(install, "CONFIG_DIR", tmp_path / "etc")
    (tmp_path / "etc").mkdir()
    (tmp_path / "etc" / "config.toml").write_text('language = "hu"\n')
    plan = [step.what for step in install.uninstall_plan(purge=True)]
    delete = next(i for i, what in enumerate(plan) if what.startswith("DELETE"))
    backup_step = next(i for i, what in enumerate(plan) if what.startswith("keep a last backup"))
    remove_app = next(i for i, what in enumerate(plan) if what.startswith("remove the app"))
    assert backup_step < remove_app < delete  # the app makes the copy, so it goes first
    install.carry_out(install.last_backup_steps(), dry_run=False, out=lambda line: None)
    copies = list(kept.glob("journal-*.sqlite3"))
    assert len(copies) == 1 and verify(copies[0]) == 2
    assert [p.read_text() for p in kept.glob("journal-*.config.toml")] == ['language = "hu"\n']
    assert not any(
        what.startswith("keep a last backup") for what in (step.what for step in install.uninstall_plan(purge=False))
    )


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


def test_installing_again_with_another_rotation_turns_the_picture_and_keeps_the_rest():
    first = install.settings_text(settings.EXAMPLE.read_text(), "official7", 0)
    changed = first.replace("volume = 0.8", "volume = 0.3")  # chosen on the Settings screen since
    again = install.settings_text(changed, "touch2", 90)
    loaded, problems = settings.from_dict(tomllib.loads(again))
    assert problems == [] and loaded.rotate == 90 and loaded.volume == 0.3
    # the file the Settings screen writes (no comments, maybe no rotate line at all)
    saved = (
        settings.to_toml(settings.Config(volume=0.3))
        if hasattr(settings, "to_toml")
        else 'volume = 0.3\n\n[ship]\nport = "auto"\n'
    )
    saved = "\n".join(line for line in saved.splitlines() if not line.startswith("rotate")) + "\n"
    turned = install.settings_text(saved, "hdmi", 180)
    loaded, problems = settings.from_dict(tomllib.loads(turned))
    assert problems == [] and loaded.rotate == 180 and loaded.volume == 0.3


def test_preflight_names_what_is_missing_before_anything_changes(tmp_path, monkeypatch):
    monkeypatch.setattr(install, "BOOT_CONFIGS", (tmp_path / "firmware" / "config.txt", tmp_path / "config.txt"))
    monkeypatch.setattr(install, "FIRMWARE", tmp_path / "firmware")
    everything = {"which": lambda tool: f"/usr/bin/{tool}", "missing": list, "reachable": lambda: True}
    problems, notices = install.preflight("install", ROOT, **everything)
    assert problems == [] and notices == [
        f"no {tmp_path / 'firmware' / 'config.txt'}: not a Raspberry Pi, so the display step is left out"
    ]
    (tmp_path / "firmware").mkdir()  # there, but empty: the boot partition is not mounted
    problems, _ = install.preflight("install", ROOT, **everything)
    assert len(problems) == 1 and "not mounted" in problems[0] and "sudo mount -a" in problems[0]
    (tmp_path / "firmware" / "config.txt").write_text("dtoverlay=vc4-kms-v3d\n")
    no_tools = {**everything, "which": lambda tool: None if tool in ("systemctl", "udevadm") else tool}
    problems, _ = install.preflight("install", ROOT, **no_tools)
    assert [p.split()[0] for p in problems] == ["systemctl", "udevadm"]
    off_pi = {**everything, "missing": lambda: ["python3-lgpio"], "candidate": lambda package: False}
    problems, _ = install.preflight("install", ROOT, **off_pi)
    assert len(problems) == 1 and "Raspberry Pi archive" in problems[0]
    offline = {**everything, "reachable": lambda: False}
    problems, _ = install.preflight("install", ROOT, **offline)  # this checkout has no wheels/: pip needs network
    assert len(problems) == 1 and problems[0].startswith("no network: pip") and "release bundle" in problems[0]


def test_offline_a_package_apt_has_on_this_machine_needs_no_network(tmp_path, monkeypatch):
    monkeypatch.setattr(install, "FIRMWARE", tmp_path)
    (tmp_path / "config.txt").write_text("dtoverlay=vc4-kms-v3d\n")
    monkeypatch.setattr(install, "BOOT_CONFIGS", (tmp_path / "config.txt",))
    bundle = tmp_path / "bundle"
    wheels = bundle / "wheels" / f"cp{sys.version_info.major}{sys.version_info.minor}"
    wheels.mkdir(parents=True)
    (wheels / "cloud_companion-1.0-py3-none-any.whl").write_bytes(b"")  # the app's wheels: pip needs nothing
    offline = {"which": lambda tool: f"/usr/bin/{tool}", "missing": lambda: ["espeak-ng"], "reachable": lambda: False}
    asked: list[list[str]] = []
    problems, _ = install.preflight("update", bundle, **offline, here=lambda lacking: asked.append(lacking) or True)
    assert problems == [] and asked == [["espeak-ng"]]  # an archive on the stick, say
    problems, _ = install.preflight("update", bundle, **offline, here=lambda lacking: False)
    assert len(problems) == 1 and problems[0].startswith("no network: apt (packages: espeak-ng)")


def test_apt_sources_all_on_this_machine_need_no_network_even_before_apt_has_read_them(tmp_path, monkeypatch):
    (tmp_path / "sources.list.d").mkdir()
    (tmp_path / "sources.list.d" / "stick.list").write_text(
        "# the bundle's archive\ndeb [trusted=yes] file:/media/stick/debs ./\n"
    )
    ran: list[object] = []
    monkeypatch.setattr(
        install.subprocess, "run", lambda *a, **k: ran.append(a) or subprocess.CompletedProcess(a, 100, "", "")
    )
    assert install.apt_source_uris(tmp_path) == ["file:/media/stick/debs"]
    assert install.apt_here(["espeak-ng"], tmp_path) and ran == []  # apt's lists not even asked
    (tmp_path / "sources.list.d" / "debian.sources").write_text(
        "Types: deb\nURIs: http://deb.debian.org/debian\nSuites: bookworm\nComponents: main\n"
    )
    assert install.apt_source_uris(tmp_path) == ["http://deb.debian.org/debian", "file:/media/stick/debs"]
    assert not install.apt_here(["espeak-ng"], tmp_path)  # apt's lists say nothing local: the network


def test_apt_here_reads_where_apt_would_fetch_from(monkeypatch):
    def apt_says(stdout: str, code: int = 0):
        monkeypatch.setattr(install.subprocess, "run", lambda *a, **k: subprocess.CompletedProcess(a, code, stdout, ""))

    local = "'file:/media/stick/debs/./espeak-ng_1.51_arm64.deb' espeak-ng_1.51_arm64.deb 1234 SHA256:ab\n"
    remote = "'http://deb.debian.org/debian/pool/main/e/espeak-ng/libespeak-ng1_1.51_arm64.deb' x 1 SHA256:cd\n"
    monkeypatch.setattr(install, "apt_source_uris", lambda apt: ["http://deb.debian.org/debian", "file:/media/stick"])
    apt_says(local)
    assert install.apt_here(["espeak-ng"])
    apt_says(local + remote)
    assert not install.apt_here(["espeak-ng"])
    apt_says("", code=100)  # apt cannot install it at all
    assert not install.apt_here(["espeak-ng"])


def test_on_32bit_pi_os_the_install_needs_a_bundle_with_pygame_ce_or_refuses_in_one_line(tmp_path, monkeypatch):
    """PyPI has no armv7l pygame-ce: without the bundle's own wheel the installer stops before
    anything changes, naming the 64-bit OS and the bundle, instead of compiling for minutes."""
    from companion.appliance import platforms

    monkeypatch.setattr(install, "FIRMWARE", tmp_path)
    monkeypatch.setattr(platforms.platform, "machine", lambda: "aarch64")  # a Pi 4's 64-bit kernel ...
    monkeypatch.setattr(platforms.sys, "maxsize", 2**31 - 1)  # ... under 32-bit Pi OS
    everything = {"which": lambda tool: f"/usr/bin/{tool}", "missing": list, "reachable": lambda: True}
    problems, _ = install.preflight("install", tmp_path, **everything)
    assert len(problems) == 1 and "32-bit Raspberry Pi OS" in problems[0]
    assert "(64-bit)" in problems[0] and "make bundle ARCH=armhf" in problems[0]
    wheels = tmp_path / "wheels" / f"cp{sys.version_info.major}{sys.version_info.minor}"
    wheels.mkdir(parents=True)
    (wheels / "cloud_companion-0.1.0-py3-none-any.whl").write_text("")
    assert len(install.preflight("install", tmp_path, **everything)[0]) == 1  # a bundle without it: still no
    (wheels / "pygame_ce-2.5.8-cp313-cp313-linux_armv7l.whl").write_text("")
    assert install.preflight("install", tmp_path, **everything)[0] == []
    assert set(install.SDL_PACKAGES) <= set(install.packages())  # the wheel's SDL comes from Debian
    assert not set(install.SDL_PACKAGES) & set(install.packages("aarch64", 64))


def test_a_pi_1_or_zero_w_is_refused_in_one_line(tmp_path, monkeypatch):
    from companion.appliance import platforms

    monkeypatch.setattr(platforms.platform, "machine", lambda: "armv6l")
    monkeypatch.setattr(platforms.sys, "maxsize", 2**31 - 1)
    problems, _ = install.preflight("install", tmp_path, which=lambda tool: tool, missing=list, reachable=lambda: True)
    assert len(problems) == 1 and "Pi 1 or Zero W" in problems[0] and "Zero 2 W works" in problems[0]


def test_a_real_run_that_cannot_start_changes_nothing_and_says_why(tmp_path):
    if os.geteuid() != 0:
        pytest.skip("the real run needs root")
    env = {**os.environ, "PATH": str(tmp_path)}  # no systemctl, no apt-get, no udevadm
    (tmp_path / "python3").symlink_to(sys.executable)
    result = subprocess.run(
        [sys.executable, "-m", "companion.appliance.install", "install"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "install-pi: systemctl is missing" in result.stderr and "nothing was changed" in result.stderr
    assert result.stdout == ""  # not one step ran


def test_the_bundles_wheels_are_used_for_the_systems_python(tmp_path):
    assert install.bundled_wheels(tmp_path) is None
    version = f"cp{sys.version_info.major}{sys.version_info.minor}"
    (tmp_path / "wheels" / version).mkdir(parents=True)
    (tmp_path / "wheels" / version / "cloud_companion-0.1.0-py3-none-any.whl").write_text("")
    assert install.bundled_wheels(tmp_path) == tmp_path / "wheels" / version
    step = install.app_steps(ROOT)[1]
    assert "scratch folder" in step.commands[0]  # without a bundle: built from a copy, not in place


def test_the_app_is_built_from_a_copy_so_the_checkout_stays_clean_and_deleted_files_go(tmp_path, monkeypatch):
    from companion.appliance import bundle

    checkout = tmp_path / "checkout"
    subprocess.run(["git", "init", "-q", str(checkout)], check=True)
    (checkout / "companion").mkdir()
    (checkout / "companion" / "kept.py").write_text("")
    (checkout / "companion" / "deleted.py").write_text("")
    subprocess.run(["git", "-C", str(checkout), "add", "."], check=True)
    (checkout / "companion" / "deleted.py").unlink()  # deleted, not yet committed
    (checkout / "build" / "lib" / "companion").mkdir(parents=True)  # left over from an old in-place build
    (checkout / "build" / "lib" / "companion" / "stale.py").write_text("")
    copy = bundle.copy_source(checkout, tmp_path / "copy")
    assert sorted(p.relative_to(copy).as_posix() for p in copy.rglob("*") if p.is_file()) == ["companion/kept.py"]
    ran, real_run = [], subprocess.run

    def pip(words, **kw):  # git runs for real; pip's calls are recorded, its wheel made empty
        if words[0] == "git":
            return real_run(words, **kw)
        ran.append(words)
        if "wheel" in words:
            out = Path(words[words.index("--wheel-dir") + 1])
            out.mkdir(parents=True, exist_ok=True)
            (out / "cloud_companion-0.1.0-py3-none-any.whl").write_text("")

    monkeypatch.setattr(install.subprocess, "run", pip)
    install.install_app(checkout, tmp_path / "venv")
    built_in = Path(ran[0][-1])
    assert not built_in.is_relative_to(checkout) and not (checkout / "companion.egg-info").exists()
    assert ran[-1][-3:-1] == ["--no-deps", "--force-reinstall"]  # the same version number still gets new files


def test_the_install_turns_the_hardware_watchdog_on():
    steps = install.install_plan(ROOT, "hdmi", 0)
    [watchdog] = [step for step in steps if "hardware watchdog" in step.what]
    assert watchdog.commands == [f"write {install.HARDWARE_WATCHDOG}"]
    assert install.HARDWARE_WATCHDOG.parent == Path("/etc/systemd/system.conf.d")


def test_flight_logs_of_an_older_install_move_where_the_unit_looks_without_overwriting(tmp_path):
    old = install.old_flight_folder(tmp_path)
    old.mkdir(parents=True)
    (old / "flight-1.log").write_text("old one")
    (old / "flight-2.log").write_text("old two")
    new = tmp_path / "flights"
    new.mkdir()
    (new / "flight-2.log").write_text("newer two")
    step = install.flight_logs_step(tmp_path)
    assert not step.done() and str(old) in step.commands[0]
    lines: list[str] = []
    install.carry_out([step], dry_run=True, out=lines.append)
    assert "flight logs of an older install moved" in lines[0] and "would run" in lines[0]
    assert (old / "flight-1.log").exists() and not (new / "flight-1.log").exists()
    install.carry_out([step], dry_run=False, out=lines.append)
    assert (new / "flight-1.log").read_text() == "old one"
    assert (new / "flight-2.log").read_text() == "newer two"  # never overwritten
    assert (old / "flight-2.log").read_text() == "old two"  # and the old one kept
    assert step.done()


def test_the_flight_log_step_is_in_install_and_update_and_done_when_there_is_nothing_old(tmp_path):
    assert install.flight_logs_step(tmp_path).done()
    for plan in (install.install_plan(Path("."), "official7", 0), install.update_plan(Path("."))):
        assert any(s.what.startswith("flight logs of an older install") for s in plan)
    old = install.old_flight_folder(tmp_path)
    old.mkdir(parents=True)
    (old / "a.log").write_text("x")
    install.move_old_flight_logs(tmp_path)
    assert not old.exists() and (tmp_path / "flights" / "a.log").exists()
