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
import tempfile
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from . import platforms

USER = "cloud-companion"
GROUPS = ("gpio", "dialout", "video", "render", "input", "audio")
# python3-lgpio: gpiozero's pin driver; espeak-ng: speech; libdrm2 libgbm1 libegl1 libgles2:
# what pygame-ce's SDL opens for kmsdrm (Pi OS Lite may lack them); libgl1-mesa-dri: the GPU
# driver GBM and EGL load (vc4/v3d on a Pi); polkitd: the power-off rule
PACKAGES = (
    "python3-venv",
    "python3-lgpio",
    "fonts-dejavu-core",
    "espeak-ng",
    "libdrm2",
    "libgbm1",
    "libegl1",
    "libgles2",
    "libgl1-mesa-dri",
    "polkitd",
)
# 32-bit Pi OS: the bundle's pygame-ce wheel, built against Debian's SDL 2, loads the system's
# SDL libraries and PortMidi (PyPI's aarch64 and x86_64 wheels bundle their own)
SDL_PACKAGES = ("libsdl2-2.0-0", "libsdl2-image-2.0-0", "libsdl2-mixer-2.0-0", "libsdl2-ttf-2.0-0", "libportmidi0")


def packages(machine: str | None = None, bits: int | None = None) -> tuple[str, ...]:
    """The Debian packages the app needs on this processor."""
    return PACKAGES + (SDL_PACKAGES if platforms.is_32bit_arm(machine, bits) else ())


PREFIX = Path("/opt/cloud-companion")
CONFIG_DIR = Path("/etc/cloud-companion")
STATE_DIR = Path("/var/lib/cloud-companion")
UNIT_NAME = "cloud-companion.service"
# the live page for the TV and phones: its own sandboxed unit, listening nowhere until the
# Settings screen switches it on; switched off at boot it does not run at all, and its path
# unit starts it when the settings change
LIVE_UNIT_NAME = "cloud-companion-live.service"
LIVE_PATH_NAME = "cloud-companion-live.path"
POLKIT_NAME = "50-cloud-companion-poweroff.rules"
UDEV_NAME = "90-cloud-companion-usb.rules"
COMMAND = Path("/usr/local/bin/cloud-companion")
MAN_PAGE = Path("/usr/local/share/man/man1/cloud-companion.1")  # where `man cloud-companion` looks
HARDWARE_WATCHDOG = Path("/etc/systemd/system.conf.d/cloud-companion-watchdog.conf")
FIRMWARE = Path("/boot/firmware")  # Bookworm and Trixie; before them /boot held config.txt
BOOT_CONFIGS = (FIRMWARE / "config.txt", Path("/boot/config.txt"))
# Bookworm leaves a /boot/config.txt that only says the file has moved: never ours to edit
MOVED_MARK = "/boot/firmware/config.txt"
BEGIN, END = "# --- cloud-companion: begin ---", "# --- cloud-companion: end ---"

# display -> (config.txt lines it needs, settings the app needs: size). Raspberry Pi OS's own
# config.txt already has both lines below, and then our block adds nothing: only a card whose
# config.txt lost one gets it back. display_auto_detect finds the original 7" display and both
# sizes of Touch Display 2 (5" and 7", on either DSI connector), so no panel overlay is forced.
KMS = "dtoverlay=vc4-kms-v3d"
DISPLAYS: dict[str, tuple[list[str], dict[str, object]]] = {
    "official7": ([KMS, "display_auto_detect=1"], {"size": "auto"}),
    "touch2": ([KMS, "display_auto_detect=1"], {"size": "auto"}),
    "hdmi": ([KMS], {"size": "auto"}),
}


@dataclass
class Step:
    what: str
    run: Callable[[], None]
    done: Callable[[], bool] = lambda: False
    commands: list[str] = field(default_factory=list)  # what it runs, for the dry run


def sh(*words: str) -> Callable[[], None]:
    def run() -> None:
        subprocess.run(list(words), check=True)

    return run


def command_step(what: str, *words: str, done: Callable[[], bool] = lambda: False) -> Step:
    return Step(what, sh(*words), done, [" ".join(words)])


def present(path: Path) -> bool:
    """Whether `path` exists; one in a folder that only root may look into (polkit's rules, to a
    user's dry run) may, so it counts as there."""
    try:
        return path.exists()
    except PermissionError:
        return True


def write_step(what: str, path: Path, text: str, mode: int = 0o644, keep: bool = False) -> Step:
    """Write `path` (unless it already holds `text`; or, with `keep`, unless it exists at all)."""

    def run():
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(text)
        tmp.chmod(mode)
        os.replace(tmp, path)

    def done():
        try:
            return path.exists() if keep else path.is_file() and path.read_text() == text
        except PermissionError:  # a folder only root may look into (polkit's rules): a user's dry run
            return False  # not known to be written: the plan says it would write it

    return Step(what, run, done, [f"write {path}"])


# --- pieces that are plain functions of text (tested on their own) ----------------------------


def active_lines(text: str) -> set[str]:
    """The settings config.txt applies to every board: outside any [filter] but [all]."""
    found, applies = set(), True
    for raw in text.splitlines():
        line = raw.split("#", 1)[0].strip()
        if line.startswith("[") and line.endswith("]"):
            applies = line == "[all]"
        elif line and applies:
            found.add(line)
    return found


def with_block(text: str, lines: list[str]) -> str:
    """config.txt with our block holding only the lines it lacks (replaced if there, else
    appended under [all]); with nothing lacking, no block at all."""
    rest = without_block(text) if BEGIN in text else text
    missing = [line for line in lines if line not in active_lines(rest)]
    if not missing:
        return rest
    block = "\n".join([BEGIN, "[all]", *missing, END])
    return (rest.rstrip("\n") + "\n\n" if rest.strip() else "") + block + "\n"


def without_block(text: str) -> str:
    pattern = re.compile(r"\n*" + re.escape(BEGIN) + r".*?" + re.escape(END) + r"\n?", re.S)
    return pattern.sub("\n", text).rstrip("\n") + "\n" if text.strip() else text


def _literally(text: str) -> Callable[[re.Match[str]], str]:
    """re.sub's replacement that puts `text` in as it is (a string would have its backslashes read)."""
    return lambda _: text


def settings_text(example: str, display: str, rotate: int) -> str:
    """The settings file with the display's values filled in: the commented example the first
    time; on a later install the file as it is, every other setting kept (a line it lacks goes
    above the first [section], where top-level keys belong)."""
    values = {**DISPLAYS[display][1], "rotate": rotate}
    for key, value in values.items():
        shown = f'"{value}"' if isinstance(value, str) else str(value)
        line = re.compile(rf"^{key} = [^#\n]*?(?=\s*(#|$))", re.M)
        if line.search(example):
            example = line.sub(_literally(f"{key} = {shown}"), example, count=1)
        else:
            section = re.search(r"^\[", example, re.M)
            if section:
                example = example[: section.start()] + f"{key} = {shown}\n\n" + example[section.start() :]
            else:
                example = example.rstrip("\n") + ("\n" if example.strip() else "") + f"{key} = {shown}\n"
    return example


# --- the plans ----------------------------------------------------------------------------------


def missing_packages() -> list[str]:
    query = subprocess.run(
        ["dpkg-query", "-W", "-f=${Package} ${db:Status-Status}\n", *packages()], capture_output=True, text=True
    )
    installed = {line.split()[0] for line in query.stdout.splitlines() if line.endswith(" installed")}
    return [p for p in packages() if p not in installed]


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
    """The config.txt the firmware reads: /boot/firmware's, or an older Pi OS's /boot/config.txt
    (never Bookworm's placeholder there, which only says the file has moved)."""
    if BOOT_CONFIGS[0].is_file():
        return BOOT_CONFIGS[0]
    old = BOOT_CONFIGS[1]
    if old.is_file() and MOVED_MARK not in old.read_text(errors="replace"):
        return old
    return None


def systemctl_says(*words: str) -> str:
    if shutil.which("systemctl") is None:
        return ""
    return subprocess.run(["systemctl", *words], capture_output=True, text=True).stdout.strip()


# the system's Python: its site packages hold Debian's python3-lgpio
SYSTEM_PYTHON = "/usr/bin/python3" if Path("/usr/bin/python3").exists() else sys.executable


def bundled_wheels(source: Path) -> Path | None:
    """A release bundle's wheels for the system's Python (wheels/cp311 on Bookworm, cp313 on Trixie)."""
    found = source / "wheels" / f"cp{sys.version_info.major}{sys.version_info.minor}"
    return found if any(found.glob("cloud_companion-*.whl")) else None


def bundled_arm32_pygame(source: Path) -> bool:
    """Whether the bundle has the pygame-ce wheel 32-bit Pi OS needs (PyPI has none)."""
    wheels = bundled_wheels(source)
    return wheels is not None and any(wheels.glob("pygame_ce-*-linux_armv7l.whl"))


def install_app(source: Path, venv: Path) -> None:
    """The app into the venv: from the bundle's wheels (no network), else built from a copy of
    the checkout in a scratch folder, so the checkout gets no root-owned build/ or egg-info and
    a file deleted from the project does not stay installed."""
    pip = [str(venv / "bin" / "pip"), "install", "--quiet", "--upgrade"]
    wheels = bundled_wheels(source)
    with tempfile.TemporaryDirectory(prefix="cloud-companion-build-") as scratch:
        if wheels is not None:
            built, index = sorted(wheels.glob("cloud_companion-*.whl"))[-1], ["--no-index", "--find-links", str(wheels)]
        else:
            from .bundle import copy_source

            staged = copy_source(source, Path(scratch) / "src")
            subprocess.run(
                [
                    str(venv / "bin" / "pip"),
                    "wheel",
                    "--quiet",
                    "--no-deps",
                    "--wheel-dir",
                    str(Path(scratch) / "wheel"),
                    str(staged),
                ],
                check=True,
            )
            built, index = next((Path(scratch) / "wheel").glob("cloud_companion-*.whl")), []
        subprocess.run([*pip, *index, str(built)], check=True)
        # our own wheel once more, by force: a release with the same version number still gets its files
        subprocess.run([*pip, *index, "--no-deps", "--force-reinstall", str(built)], check=True)


def app_steps(source: Path) -> list[Step]:
    venv = PREFIX / "venv"
    wheels = bundled_wheels(source)
    how = (
        f"pip install --no-index --find-links {wheels} cloud-companion"
        if wheels is not None
        else f"pip wheel (from a copy of {source} in a scratch folder), then pip install it"
    )
    return [
        command_step(
            "a virtual environment that sees the system's python3-lgpio",
            SYSTEM_PYTHON,
            "-m",
            "venv",
            "--system-site-packages",
            str(venv),
            done=lambda: (venv / "bin" / "python").exists(),
        ),
        Step(
            "the app "
            + ("from the bundle's wheels (no network needed)" if wheels is not None else "from this checkout, into it"),
            lambda: install_app(source, venv),
            commands=[how],
        ),
        write_step(
            "the README beside it (the unit's documentation)", PREFIX / "README.md", (source / "README.md").read_text()
        ),
        write_step(
            "the cloud-companion command (run as the service, on its journal and settings)",
            COMMAND,
            (source / "systemd" / "cloud-companion-cli").read_text(),
            mode=0o755,
        ),
        write_step(
            "its manual page (man cloud-companion)",
            MAN_PAGE,
            (source / "docs" / "man" / "cloud-companion.1").read_text(),
        ),
    ]


def unit_steps(source: Path) -> list[Step]:
    return [
        write_step(
            "the systemd unit", Path("/etc/systemd/system") / UNIT_NAME, (source / "systemd" / UNIT_NAME).read_text()
        ),
        write_step(
            "the live page's systemd unit (read-only, home network only, off until switched on)",
            Path("/etc/systemd/system") / LIVE_UNIT_NAME,
            (source / "systemd" / LIVE_UNIT_NAME).read_text(),
        ),
        write_step(
            "the live page's path unit (it starts the page when the settings change)",
            Path("/etc/systemd/system") / LIVE_PATH_NAME,
            (source / "systemd" / LIVE_PATH_NAME).read_text(),
        ),
        write_step(
            "the polkit rule: the service user may power off, nothing else",
            Path("/etc/polkit-1/rules.d") / POLKIT_NAME,
            (source / "systemd" / POLKIT_NAME).read_text(),
        ),
        write_step(
            "the udev rule that mounts a USB stick for backups",
            Path("/etc/udev/rules.d") / UDEV_NAME,
            (source / "systemd" / UDEV_NAME).read_text(),
        ),
        command_step("udev reads the rule", "udevadm", "control", "--reload"),
        command_step("systemd reads the unit", "systemctl", "daemon-reload"),
    ]


def packages_step() -> Step:
    wanted = packages()
    return Step(
        "Debian packages: " + " ".join(wanted),
        lambda: (
            (
                subprocess.run(["apt-get", "update"], check=True),
                subprocess.run(["apt-get", "install", "-y", *wanted], check=True),
            )
            and None
        ),
        lambda: not missing_packages(),
        ["apt-get update", "apt-get install -y " + " ".join(wanted)],
    )


def settings_step(source: Path, display: str, rotate: int) -> Step:
    """The settings file: the example the first time; later the same file with this display's
    values (a second install with another rotation turns the picture, every other setting kept)."""
    path = CONFIG_DIR / "config.toml"
    first = not path.exists()
    current = (source / "companion" / "config.example.toml").read_text() if first else path.read_text()
    what = (
        f"the first settings file for the {display} display"
        if first
        else f"the settings file: the {display} display, turned {rotate} degrees (other settings kept)"
    )
    return write_step(what, path, settings_text(current, display, rotate), mode=0o644)


def install_plan(source: Path, display: str, rotate: int) -> list[Step]:
    steps = [packages_step()]
    for name in GROUPS:  # Pi OS has them all; elsewhere gpio may be missing and the unit needs it
        steps.append(command_step(f"the group {name}", "groupadd", "--system", name, done=partial(group_exists, name)))
    steps += [
        command_step(
            f"the service user {USER} (no login, no home but its state directory)",
            "useradd",
            "--system",
            "--user-group",
            "--home-dir",
            str(STATE_DIR),
            "--no-create-home",
            "--shell",
            "/usr/sbin/nologin",
            USER,
            done=user_exists,
        ),
        command_step(
            f"{USER} in exactly the groups {', '.join(GROUPS)}",
            "usermod",
            "--groups",
            ",".join(GROUPS),
            USER,
            done=groups_right,
        ),
        *app_steps(source),
        command_step(
            "the settings directory, writable by the app (Settings saves there)",
            "install",
            "-d",
            "-o",
            USER,
            "-g",
            USER,
            "-m",
            "0755",
            str(CONFIG_DIR),
            done=lambda: CONFIG_DIR.is_dir() and CONFIG_DIR.stat().st_uid == _uid(),
        ),
        settings_step(source, display, rotate),
        command_step(
            "the settings file belongs to the app",
            "chown",
            f"{USER}:{USER}",
            str(CONFIG_DIR / "config.toml"),
            done=lambda: (CONFIG_DIR / "config.toml").exists() and (CONFIG_DIR / "config.toml").stat().st_uid == _uid(),
        ),
        *unit_steps(source),
        flight_logs_step(),
    ]
    config_txt = boot_config()
    if config_txt is not None:
        text = config_txt.read_text()
        steps.append(
            write_step(
                f"the {display} display in {config_txt} (a reboot applies it)",
                config_txt,
                with_block(text, DISPLAYS[display][0]),
            )
        )
    steps += [
        # the unit's watchdog restarts a hung app; this one (the Pi's own, bcm2835_wdt) reboots a
        # hung system, so a family never has to pull the plug. Active from the next boot.
        write_step(
            "the hardware watchdog reboots a hung Pi (RuntimeWatchdogSec=15, from the next boot)",
            HARDWARE_WATCHDOG,
            "[Manager]\nRuntimeWatchdogSec=15\n",
        ),
        # a desktop would hold the display: the app draws straight to it from the console
        command_step(
            "boot to the console, not a desktop",
            "systemctl",
            "set-default",
            "multi-user.target",
            done=lambda: systemctl_says("get-default") in ("multi-user.target", ""),
        ),
        command_step(
            "start the app at boot",
            "systemctl",
            "enable",
            UNIT_NAME,
            done=lambda: systemctl_says("is-enabled", UNIT_NAME) == "enabled",
        ),
        command_step("start (or restart) it now", "systemctl", "restart", UNIT_NAME),
        *live_start_steps(),
        command_step("start (or restart) the live page's service now", "systemctl", "restart", LIVE_UNIT_NAME),
    ]
    return steps


def live_start_steps() -> list[Step]:
    """The live page at boot when switched on, and whenever the settings change (an update
    from a version without the path unit gets it too)."""
    return [
        command_step(
            "the live page's service at boot (it runs only when switched on in Settings)",
            "systemctl",
            "enable",
            LIVE_UNIT_NAME,
            done=lambda: systemctl_says("is-enabled", LIVE_UNIT_NAME) == "enabled",
        ),
        command_step(
            "the live page started when the settings change (its path unit)",
            "systemctl",
            "enable",
            "--now",
            LIVE_PATH_NAME,
            done=lambda: (
                systemctl_says("is-enabled", LIVE_PATH_NAME) == "enabled"
                and systemctl_says("is-active", LIVE_PATH_NAME) == "active"
            ),
        ),
    ]


def move_old_flight_logs(state_dir: Path = STATE_DIR) -> None:
    """Each flight log of an older install into the folder the unit and the command use now;
    one already there of the same name is kept, and so is the old copy."""
    old, new = old_flight_folder(state_dir), state_dir / "flights"
    new.mkdir(parents=True, exist_ok=True)
    if old.stat().st_uid != new.stat().st_uid or old.stat().st_gid != new.stat().st_gid:
        os.chown(new, old.stat().st_uid, old.stat().st_gid)
    for log in sorted(old.iterdir()):
        if log.is_file() and not (new / log.name).exists():
            os.replace(log, new / log.name)
    with suppress(OSError):  # empty now: gone; a name kept for both: the old folder stays
        old.rmdir()


def old_flight_folder(state_dir: Path = STATE_DIR) -> Path:
    # before the unit set XDG_DATA_HOME, the app's data folder was under its home directory
    return state_dir / ".local" / "share" / "cloud-companion" / "flights"


def flight_logs_step(state_dir: Path = STATE_DIR) -> Step:
    old, new = old_flight_folder(state_dir), state_dir / "flights"
    return Step(
        f"flight logs of an older install moved to {new} (none overwritten)",
        lambda: move_old_flight_logs(state_dir),
        lambda: not old.is_dir() or not any(p.is_file() and not (new / p.name).exists() for p in old.iterdir()),
        [f"mv -n {old}/* {new}/"],
    )


def update_plan(source: Path) -> list[Step]:
    return [
        packages_step(),
        *app_steps(source),
        *unit_steps(source),
        flight_logs_step(),
        *live_start_steps(),
        command_step("restart the app (the journal resumes any game)", "systemctl", "restart", UNIT_NAME),
        command_step("restart the live page's service", "systemctl", "restart", LIVE_UNIT_NAME),
    ]


def uninstall_plan(purge: bool) -> list[Step]:
    unit, rule = Path("/etc/systemd/system") / UNIT_NAME, Path("/etc/polkit-1/rules.d") / POLKIT_NAME
    udev = Path("/etc/udev/rules.d") / UDEV_NAME
    live = Path("/etc/systemd/system") / LIVE_UNIT_NAME
    live_path = Path("/etc/systemd/system") / LIVE_PATH_NAME
    files = (unit, live, live_path, rule, udev)

    def remove_units() -> None:
        for path in files:
            path.unlink(missing_ok=True)

    def remove_app() -> None:
        shutil.rmtree(PREFIX, ignore_errors=True)
        COMMAND.unlink(missing_ok=True)
        MAN_PAGE.unlink(missing_ok=True)

    def remove_history() -> None:
        for folder in (STATE_DIR, CONFIG_DIR):
            shutil.rmtree(folder, ignore_errors=True)

    steps = [
        command_step(
            "stop the app and no longer start it at boot",
            "systemctl",
            "disable",
            "--now",
            UNIT_NAME,
            done=lambda: not unit.exists(),
        ),
        command_step(  # an install before the path unit has none: systemctl would refuse to disable it
            "no longer start the live page when the settings change",
            "systemctl",
            "disable",
            "--now",
            LIVE_PATH_NAME,
            done=lambda: not live_path.exists(),
        ),
        command_step(
            "stop the live page and no longer start it at boot",
            "systemctl",
            "disable",
            "--now",
            LIVE_UNIT_NAME,
            done=lambda: not live.exists(),
        ),
        Step(
            "remove " + ", ".join(str(p) for p in files[:-1]) + f" and {udev}",
            remove_units,
            lambda: not any(present(p) for p in files),
            ["rm " + " ".join(str(p) for p in files)],
        ),
        command_step("systemd forgets the unit", "systemctl", "daemon-reload"),
        Step(
            f"remove the app ({PREFIX}), its command and manual page",
            remove_app,
            lambda: not PREFIX.exists() and not COMMAND.exists() and not MAN_PAGE.exists(),
            [f"rm -r {PREFIX} {COMMAND} {MAN_PAGE}"],
        ),
    ]
    config_txt = boot_config()
    if config_txt is not None:
        steps.append(write_step(f"our lines out of {config_txt}", config_txt, without_block(config_txt.read_text())))
    if purge:
        steps[:0] = last_backup_steps()  # first, while the app (which makes the copy) is still there
        steps += [
            Step(
                f"DELETE the game history and settings ({STATE_DIR}, {CONFIG_DIR})",
                remove_history,
                lambda: not STATE_DIR.exists() and not CONFIG_DIR.exists(),
                [f"rm -r {STATE_DIR} {CONFIG_DIR}"],
            ),
            command_step(f"remove the user {USER}", "userdel", USER, done=lambda: not user_exists()),
        ]
    return steps


LAST_BACKUP_DIR = Path("/var/backups/cloud-companion")


def last_backup_steps() -> list[Step]:
    """Before the history is deleted, the app's own backup copies it where the purge leaves it
    (a failed copy stops the uninstall, so nothing is deleted without one)."""
    journal = STATE_DIR / "journal.sqlite3"
    return [
        command_step(
            f"a folder for the last backup ({LAST_BACKUP_DIR})",
            "install",
            "-d",
            "-m",
            "0700",
            str(LAST_BACKUP_DIR),
            done=lambda: LAST_BACKUP_DIR.is_dir() or not journal.exists(),
        ),
        command_step(
            f"keep a last backup of the game history and settings in {LAST_BACKUP_DIR}",
            str(PREFIX / "venv" / "bin" / "cloud-companion"),
            "backup",
            str(LAST_BACKUP_DIR),
            "--db",
            str(journal),
            "--config",
            str(CONFIG_DIR / "config.toml"),
            done=lambda: not journal.exists(),
        ),
    ]


def _uid() -> int:
    try:
        return pwd.getpwnam(USER).pw_uid
    except KeyError:
        return -1


# --- before anything changes: what the install needs -----------------------------------------

TOOLS = {
    "install": ("apt-get", "dpkg-query", "systemctl", "udevadm", "useradd", "usermod", "groupadd"),
    "update": ("apt-get", "dpkg-query", "systemctl", "udevadm"),
    "uninstall": ("systemctl",),
}


def apt_candidate(package: str) -> bool:
    """Whether apt can install `package` from its sources (or has it already)."""
    shown = subprocess.run(["apt-cache", "policy", package], capture_output=True, text=True).stdout
    found = re.search(r"Candidate: (\S+)", shown)
    return found is not None and found.group(1) != "(none)"


LOCAL_URIS = ("file:", "cdrom:")  # apt sources on this machine: a USB stick's archive, a local mirror


def apt_source_uris(apt: Path = Path("/etc/apt")) -> list[str]:
    """Every archive apt's sources name, in either format (one-line .list, deb822 .sources)."""
    uris: list[str] = []
    for path in [apt / "sources.list", *sorted((apt / "sources.list.d").glob("*"))]:
        try:
            text = path.read_text(errors="replace")
        except OSError:  # not there, or a folder
            continue
        for line in text.splitlines():
            words = re.sub(r"\[[^]]*\]", "", line.split("#", 1)[0]).split()  # options in [...] left out
            if path.suffix == ".sources" and words[:1] == ["URIs:"]:
                uris += words[1:]
            elif path.suffix != ".sources" and words[:1] in (["deb"], ["deb-src"]) and len(words) > 1:
                uris.append(words[1])
    return uris


def apt_here(packages: list[str], apt: Path = Path("/etc/apt")) -> bool:
    """Whether apt would take every one of `packages` from this machine, so they need no
    network: every source apt has is local, or apt's lists already say it would fetch each
    from a local one."""
    uris = apt_source_uris(apt)
    if uris and all(uri.startswith(LOCAL_URIS) for uri in uris):
        return True
    shown = subprocess.run(
        ["apt-get", "install", "--print-uris", "-qq", "-y", *packages], capture_output=True, text=True
    )
    fetched = [line.split()[0].strip("'") for line in shown.stdout.splitlines() if line.startswith("'")]
    return shown.returncode == 0 and all(uri.startswith(LOCAL_URIS) for uri in fetched)


def online(host: str = "pypi.org", port: int = 443, timeout: float = 5) -> bool:
    import socket

    try:
        socket.create_connection((host, port), timeout=timeout).close()
        return True
    except OSError:
        return False


def preflight(
    action: str,
    source: Path,
    which=shutil.which,
    missing=None,
    candidate=apt_candidate,
    reachable=online,
    here=apt_here,
) -> tuple[list[str], list[str]]:
    """(problems that stop the install before it starts, notices), each one line that says what to do."""
    problems: list[str] = []
    notices: list[str] = []
    for tool in TOOLS[action]:
        if which(tool) is None:
            problems.append(f"{tool} is missing: this installer is for Raspberry Pi OS (Debian with systemd)")
    if problems or action == "uninstall":
        return problems, notices
    own = platforms.userland()
    if own in platforms.ARM_OLD:
        problems.append(
            f"this Pi's processor ({own}: a Pi 1 or Zero W) is older than the app's libraries are "
            "built for: use a Pi 2 or newer (a Zero 2 W works), with Raspberry Pi OS Lite (64-bit) "
            "where the Pi has it"
        )
        return problems, notices
    if platforms.is_32bit_arm() and not bundled_arm32_pygame(source):
        problems.append(
            "32-bit Raspberry Pi OS: pygame-ce, which draws the app, has no ready-made wheel for it "
            "(installing would compile it for a long time, or fail). Use Raspberry Pi OS Lite "
            "(64-bit), or install from a release bundle made for 32-bit on a PC: sudo make bundle "
            "ARCH=armhf (the manual's page The appliance, 32-bit Raspberry Pi OS)"
        )
        return problems, notices
    lacking = (missing or missing_packages)()
    if "python3-lgpio" in lacking and not candidate("python3-lgpio"):
        problems.append(
            "python3-lgpio is in no apt source here: it comes from the Raspberry Pi archive "
            "(archive.raspberrypi.com), which Raspberry Pi OS has. Use Raspberry Pi OS Lite "
            "(Bookworm or Trixie), or on another Debian: install python3-lgpio yourself"
        )
    wheels = bundled_wheels(source)
    fetched = lacking and not here(lacking)  # packages apt must fetch over the network
    if (fetched or wheels is None) and reachable is not None and not reachable():
        need = " and ".join(
            filter(
                None,
                [
                    "apt (packages: " + " ".join(lacking) + ")" if fetched else "",
                    "pip (the app's wheels)" if wheels is None else "",
                ],
            )
        )
        problems.append(
            f"no network: {need} need it. Connect the Pi (Wi-Fi: sudo raspi-config, "
            "System Options), or install from a release bundle on a USB stick (the manual's page The appliance, Without network)"
        )
    if action == "install" and boot_config() is None:
        if FIRMWARE.is_dir() and not any(FIRMWARE.iterdir()):
            problems.append(
                f"{FIRMWARE} is empty: the boot partition is not mounted (sudo mount -a), "
                "so the display cannot be set up"
            )
        else:
            notices.append(f"no {BOOT_CONFIGS[0]}: not a Raspberry Pi, so the display step is left out")
    return problems, notices


def say(text: str) -> None:
    print(text, flush=True)  # each step shows before its command's own output, not after


def carry_out(steps: list[Step], dry_run: bool, out=say) -> int:
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
    parser.add_argument(
        "--display",
        choices=sorted(DISPLAYS),
        default="official7",
        help='official7: the 7" touch display (800x480); touch2: Touch Display 2 '
        "(720x1280 portrait); hdmi: any HDMI screen",
    )
    parser.add_argument(
        "--rotate",
        type=int,
        choices=(0, 90, 180, 270),
        default=0,
        help="turn the picture (a display mounted upside down: 180)",
    )
    parser.add_argument("--purge", action="store_true", help="uninstall: also delete the game history and settings")
    parser.add_argument("--dry-run", action="store_true", help="print what would be done, change nothing")
    parser.add_argument(
        "--source",
        type=Path,
        default=Path(__file__).resolve().parents[2],
        help="the checkout to install from (default: this one)",
    )
    args = parser.parse_args(argv)
    if not args.dry_run and os.geteuid() != 0:
        print("install-pi: run it as root (sudo make install-pi), or add --dry-run", file=sys.stderr)
        return 1
    # a dry run checks no network and stops at nothing: it shows what a real run would meet
    problems, notices = preflight(args.action, args.source, reachable=None if args.dry_run else online)
    for notice in notices:
        print(f"install-pi: {notice}", flush=True)
    if problems and args.dry_run:
        for problem in problems:
            print(f"install-pi: a real run would stop here: {problem}", flush=True)
    elif problems:
        for problem in problems:
            print(f"install-pi: {problem}", file=sys.stderr)
        print("install-pi: nothing was changed", file=sys.stderr)
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
        words = exc.cmd if isinstance(exc, subprocess.CalledProcessError) else []
        hint = (
            " The app's own log says why: journalctl -u cloud-companion -b"
            if "systemctl" in words[:1] and UNIT_NAME in words
            else ""
        )
        print(
            f"install-pi: stopped: {str(exc).rstrip('.')}.{hint} Fix that and run it again (finished steps are skipped).",
            file=sys.stderr,
        )
        return 1


if __name__ == "__main__":
    sys.exit(main())
