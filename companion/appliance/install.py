"""Install, update and uninstall the companion on Raspberry Pi OS (Bookworm): `sudo make install-pi`.

    python3 -m companion.appliance.install install [--display official7|touch2|hdmi] [--rotate N] [--dry-run]
    python3 -m companion.appliance.install update [--dry-run]
    python3 -m companion.appliance.install uninstall [--purge] [--dry-run]

Runs with the system's python3 before any venv exists, so it uses the standard library only.
Each step knows whether it is already done, so running it twice is harmless; `--dry-run` prints
every step (and whether it would run) and changes nothing.

Layout on the Pi: the app in a venv at /opt/cloud-companion/venv (with the system's site
packages, for python3-lgpio), settings in /etc/cloud-companion/config.toml, the journal in
/var/lib/cloud-companion (the unit's StateDirectory), the unit and a polkit rule that lets the
service user power off and nothing else.
"""

from __future__ import annotations

import argparse
import grp
import os
import pwd
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

USER = "cloud-companion"
GROUPS = ("gpio", "dialout", "video", "render", "input", "audio")
# python3-lgpio: gpiozero's pin driver; espeak-ng: speech; libdrm2 libgbm1 libegl1 libgles2:
# what pygame-ce's SDL opens for kmsdrm (Pi OS Lite may lack them); polkitd: the power-off rule
PACKAGES = ("python3-venv", "python3-lgpio", "fonts-dejavu-core", "espeak-ng", "libdrm2", "libgbm1",
            "libegl1", "libgles2", "polkitd")
PREFIX = Path("/opt/cloud-companion")
CONFIG_DIR = Path("/etc/cloud-companion")
STATE_DIR = Path("/var/lib/cloud-companion")
UNIT_NAME = "cloud-companion.service"
POLKIT_NAME = "50-cloud-companion-poweroff.rules"
UDEV_NAME = "90-cloud-companion-usb.rules"
COMMAND = Path("/usr/local/bin/cloud-companion")
BOOT_CONFIGS = (Path("/boot/firmware/config.txt"), Path("/boot/config.txt"))  # Bookworm, older
BEGIN, END = "# --- cloud-companion: begin ---", "# --- cloud-companion: end ---"

# display -> (config.txt lines, settings the app needs: rotate, size)
DISPLAYS: dict[str, tuple[list[str], dict[str, object]]] = {
    # the original 7" touch display (800x480, landscape): found by display_auto_detect
    "official7": (["dtoverlay=vc4-kms-v3d", "display_auto_detect=1"], {"size": "auto"}),
    # Touch Display 2 (720x1280, a portrait panel): its own overlay; the app lays out portrait
    "touch2": (["dtoverlay=vc4-kms-v3d", "dtoverlay=vc4-kms-dsi-ili9881-7inch"], {"size": "auto"}),
    "hdmi": (["dtoverlay=vc4-kms-v3d"], {"size": "auto"}),
}


@dataclass
class Step:
    what: str
    run: Callable[[], None]
    done: Callable[[], bool] = lambda: False
    commands: list[str] = field(default_factory=list)  # what it runs, for the dry run


def sh(*words: str) -> Callable[[], None]:
    return lambda: subprocess.run(list(words), check=True)


def command_step(what: str, *words: str, done: Callable[[], bool] = lambda: False) -> Step:
    return Step(what, sh(*words), done, [" ".join(words)])


def write_step(what: str, path: Path, text: str, mode: int = 0o644, keep: bool = False) -> Step:
    """Write `path` (unless it already holds `text`; or, with `keep`, unless it exists at all)."""
    def run():
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(text)
        tmp.chmod(mode)
        os.replace(tmp, path)

    def done():
        return path.exists() if keep else path.is_file() and path.read_text() == text
    return Step(what, run, done, [f"write {path}"])


# --- pieces that are plain functions of text (tested on their own) ----------------------------

def with_block(text: str, lines: list[str]) -> str:
    """config.txt with our block (replaced if there, else appended under [all])."""
    block = "\n".join([BEGIN, "[all]", *lines, END])
    pattern = re.compile(re.escape(BEGIN) + r".*?" + re.escape(END), re.S)
    if pattern.search(text):
        return pattern.sub(lambda _: block, text)
    return (text.rstrip("\n") + "\n\n" if text.strip() else "") + block + "\n"


def without_block(text: str) -> str:
    pattern = re.compile(r"\n*" + re.escape(BEGIN) + r".*?" + re.escape(END) + r"\n?", re.S)
    return pattern.sub("\n", text).rstrip("\n") + "\n" if text.strip() else text


def settings_text(example: str, display: str, rotate: int) -> str:
    """The first settings file: the commented example with the display's values filled in."""
    values = {**DISPLAYS[display][1], "rotate": rotate}
    for key, value in values.items():
        shown = f'"{value}"' if isinstance(value, str) else str(value)
        example = re.sub(rf"^{key} = \S+", f"{key} = {shown}", example, count=1, flags=re.M)
    return example


# --- the plans ----------------------------------------------------------------------------------

def missing_packages() -> list[str]:
    query = subprocess.run(["dpkg-query", "-W", "-f=${Package} ${db:Status-Status}\n", *PACKAGES],
                           capture_output=True, text=True)
    installed = {line.split()[0] for line in query.stdout.splitlines() if line.endswith(" installed")}
    return [p for p in PACKAGES if p not in installed]


def user_exists() -> bool:
    try:
        pwd.getpwnam(USER)
        return True
    except KeyError:
        return False


def group_exists(name: str) -> bool:
    try:
        grp.getgrnam(name)
        return True
    except KeyError:
        return False


def groups_right() -> bool:
    if not user_exists():
        return False
    member_of = {g.gr_name for g in grp.getgrall() if USER in g.gr_mem}
    return member_of == set(GROUPS)


def boot_config() -> Path | None:
    return next((p for p in BOOT_CONFIGS if p.is_file()), None)


def systemctl_says(*words: str) -> str:
    if shutil.which("systemctl") is None:
        return ""
    return subprocess.run(["systemctl", *words], capture_output=True, text=True).stdout.strip()


# the system's Python: its site packages hold Debian's python3-lgpio
SYSTEM_PYTHON = "/usr/bin/python3" if Path("/usr/bin/python3").exists() else sys.executable


def app_steps(source: Path) -> list[Step]:
    venv = PREFIX / "venv"
    return [
        command_step("a virtual environment that sees the system's python3-lgpio",
                     SYSTEM_PYTHON, "-m", "venv", "--system-site-packages", str(venv),
                     done=lambda: (venv / "bin" / "python").exists()),
        command_step("the app, from this checkout, into it", str(venv / "bin" / "pip"), "install", "--quiet",
                     "--upgrade", str(source)),
        write_step("the README beside it (the unit's documentation)", PREFIX / "README.md",
                   (source / "README.md").read_text()),
        write_step("the cloud-companion command (run as the service, on its journal and settings)",
                   COMMAND, (source / "systemd" / "cloud-companion-cli").read_text(),
                   mode=0o755),
    ]


def unit_steps(source: Path) -> list[Step]:
    return [
        write_step("the systemd unit", Path("/etc/systemd/system") / UNIT_NAME,
                   (source / "systemd" / UNIT_NAME).read_text()),
        write_step("the polkit rule: the service user may power off, nothing else",
                   Path("/etc/polkit-1/rules.d") / POLKIT_NAME, (source / "systemd" / POLKIT_NAME).read_text()),
        write_step("the udev rule that mounts a USB stick for backups", Path("/etc/udev/rules.d") / UDEV_NAME,
                   (source / "systemd" / UDEV_NAME).read_text()),
        command_step("udev reads the rule", "udevadm", "control", "--reload"),
        command_step("systemd reads the unit", "systemctl", "daemon-reload"),
    ]


def install_plan(source: Path, display: str, rotate: int) -> list[Step]:
    steps = [
        Step("Debian packages: " + " ".join(PACKAGES),
             lambda: (subprocess.run(["apt-get", "update"], check=True),
                      subprocess.run(["apt-get", "install", "-y", *PACKAGES], check=True)) and None,
             lambda: not missing_packages(), ["apt-get update", "apt-get install -y " + " ".join(PACKAGES)]),
    ]
    for name in GROUPS:  # Pi OS has them all; elsewhere gpio may be missing and the unit needs it
        steps.append(command_step(f"the group {name}", "groupadd", "--system", name,
                                  done=lambda name=name: group_exists(name)))
    steps += [
        command_step(f"the service user {USER} (no login, no home but its state directory)",
                     "useradd", "--system", "--user-group", "--home-dir", str(STATE_DIR), "--no-create-home",
                     "--shell", "/usr/sbin/nologin", USER, done=user_exists),
        command_step(f"{USER} in exactly the groups {', '.join(GROUPS)}", "usermod", "--groups", ",".join(GROUPS),
                     USER, done=groups_right),
        *app_steps(source),
        command_step("the settings directory, writable by the app (Settings saves there)",
                     "install", "-d", "-o", USER, "-g", USER, "-m", "0755", str(CONFIG_DIR),
                     done=lambda: CONFIG_DIR.is_dir() and CONFIG_DIR.stat().st_uid == _uid()),
        write_step(f"the first settings file for the {display} display (kept if there)", CONFIG_DIR / "config.toml",
                   settings_text((source / "companion" / "config.example.toml").read_text(), display, rotate),
                   keep=True),
        command_step("the settings file belongs to the app", "chown", f"{USER}:{USER}", str(CONFIG_DIR / "config.toml"),
                     done=lambda: (CONFIG_DIR / "config.toml").exists()
                     and (CONFIG_DIR / "config.toml").stat().st_uid == _uid()),
        *unit_steps(source),
    ]
    config_txt = boot_config()
    if config_txt is not None:
        text = config_txt.read_text()
        steps.append(write_step(f"the {display} display in {config_txt} (a reboot applies it)", config_txt,
                                with_block(text, DISPLAYS[display][0])))
    steps += [
        # a desktop would hold the display: the app draws straight to it from the console
        command_step("boot to the console, not a desktop", "systemctl", "set-default", "multi-user.target",
                     done=lambda: systemctl_says("get-default") in ("multi-user.target", "")),
        command_step("start the app at boot", "systemctl", "enable", UNIT_NAME,
                     done=lambda: systemctl_says("is-enabled", UNIT_NAME) == "enabled"),
        command_step("start (or restart) it now", "systemctl", "restart", UNIT_NAME),
    ]
    return steps


def update_plan(source: Path) -> list[Step]:
    return [*app_steps(source), *unit_steps(source),
            command_step("restart the app (the journal resumes any game)", "systemctl", "restart", UNIT_NAME)]


def uninstall_plan(purge: bool) -> list[Step]:
    unit, rule = Path("/etc/systemd/system") / UNIT_NAME, Path("/etc/polkit-1/rules.d") / POLKIT_NAME
    udev = Path("/etc/udev/rules.d") / UDEV_NAME
    steps = [
        command_step("stop the app and no longer start it at boot", "systemctl", "disable", "--now", UNIT_NAME,
                     done=lambda: not unit.exists()),
        Step(f"remove {unit}, {rule} and {udev}",
             lambda: [p.unlink(missing_ok=True) for p in (unit, rule, udev)] and None,
             lambda: not unit.exists() and not rule.exists() and not udev.exists(), [f"rm {unit} {rule} {udev}"]),
        command_step("systemd forgets the unit", "systemctl", "daemon-reload"),
        Step(f"remove the app ({PREFIX}) and its command", lambda: (shutil.rmtree(PREFIX, ignore_errors=True),
                                                                   COMMAND.unlink(missing_ok=True)) and None,
             lambda: not PREFIX.exists() and not COMMAND.exists(), [f"rm -r {PREFIX} {COMMAND}"]),
    ]
    config_txt = boot_config()
    if config_txt is not None:
        steps.append(write_step(f"our lines out of {config_txt}", config_txt, without_block(config_txt.read_text())))
    if purge:
        steps[:0] = last_backup_steps()  # first, while the app (which makes the copy) is still there
        steps += [
            Step(f"DELETE the game history and settings ({STATE_DIR}, {CONFIG_DIR})",
                 lambda: [shutil.rmtree(p, ignore_errors=True) for p in (STATE_DIR, CONFIG_DIR)] and None,
                 lambda: not STATE_DIR.exists() and not CONFIG_DIR.exists(), [f"rm -r {STATE_DIR} {CONFIG_DIR}"]),
            command_step(f"remove the user {USER}", "userdel", USER, done=lambda: not user_exists()),
        ]
    return steps


LAST_BACKUP_DIR = Path("/var/backups/cloud-companion")


def last_backup_steps() -> list[Step]:
    """Before the history is deleted, the app's own backup copies it where the purge leaves it
    (a failed copy stops the uninstall, so nothing is deleted without one)."""
    journal = STATE_DIR / "journal.sqlite3"
    return [
        command_step(f"a folder for the last backup ({LAST_BACKUP_DIR})", "install", "-d", "-m", "0700",
                     str(LAST_BACKUP_DIR), done=lambda: LAST_BACKUP_DIR.is_dir() or not journal.exists()),
        command_step(f"keep a last backup of the game history in {LAST_BACKUP_DIR}",
                     str(PREFIX / "venv" / "bin" / "cloud-companion"), "backup", str(LAST_BACKUP_DIR),
                     "--db", str(journal), done=lambda: not journal.exists()),
    ]


def _uid() -> int:
    try:
        return pwd.getpwnam(USER).pw_uid
    except KeyError:
        return -1


def carry_out(steps: list[Step], dry_run: bool, out=print) -> int:
    for number, step in enumerate(steps, start=1):
        done = step.done()
        mark = "done already" if done else ("would run" if dry_run else "running")
        out(f"[{number}/{len(steps)}] {step.what}: {mark}")
        if not done:
            for command in step.commands:
                out(f"    {command}")
            if not dry_run:
                step.run()
    if dry_run:
        out("dry run: nothing was changed")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="install-pi", description=__doc__.splitlines()[0])
    parser.add_argument("action", choices=("install", "update", "uninstall"))
    parser.add_argument("--display", choices=sorted(DISPLAYS), default="official7",
                        help='official7: the 7" touch display (800x480); touch2: Touch Display 2 '
                             "(720x1280 portrait); hdmi: any HDMI screen")
    parser.add_argument("--rotate", type=int, choices=(0, 90, 180, 270), default=0,
                        help="turn the picture (a display mounted upside down: 180)")
    parser.add_argument("--purge", action="store_true", help="uninstall: also delete the game history and settings")
    parser.add_argument("--dry-run", action="store_true", help="print what would be done, change nothing")
    parser.add_argument("--source", type=Path, default=Path(__file__).resolve().parents[2],
                        help="the checkout to install from (default: this one)")
    args = parser.parse_args(argv)
    if not args.dry_run and os.geteuid() != 0:
        print("install-pi: run it as root (sudo make install-pi), or add --dry-run", file=sys.stderr)
        return 1
    if args.action == "install":
        steps = install_plan(args.source, args.display, args.rotate)
    elif args.action == "update":
        steps = update_plan(args.source)
    else:
        steps = uninstall_plan(args.purge)
    try:
        return carry_out(steps, args.dry_run)
    except (subprocess.CalledProcessError, OSError) as exc:
        print(f"install-pi: stopped: {exc}. Fix that and run it again (finished steps are skipped).",
              file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
