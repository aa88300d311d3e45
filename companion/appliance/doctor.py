"""`cloud-companion doctor`: is everything the companion needs here, and if not, what to do.

Each check returns one `Check`: ok, warn (works, but something is missing or odd), fail
(something the app needs is missing: doctor exits 1) or skip (not used with these settings).
Every warn and fail says what to do. Doctor only looks: it changes no file and moves nothing,
and a device the running app holds is reported as in use, not as broken.
"""

from __future__ import annotations

import ctypes
import glob
import os
import re
import shutil
import sqlite3
import subprocess
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from .. import config as settings
from ..ship import protocol
from .storage import lost_at_reboot

OK, WARN, FAIL, SKIP = "ok", "warn", "fail", "skip"
UNIT = "cloud-companion.service"
# what pygame-ce's bundled SDL opens at run time for its kmsdrm driver (not bundled in the wheel)
KMSDRM_LIBRARIES = {
    "libdrm.so.2": "libdrm2",
    "libgbm.so.1": "libgbm1",
    "libEGL.so.1": "libegl1",
    "libGLESv2.so.2": "libgles2",
}
# the GPU drivers GBM and EGL load (vc4/v3d on a Pi, Mesa's software one elsewhere): libgl1-mesa-dri
DRI_DRIVERS = ("/usr/lib/*/dri/*_dri.so", "/usr/lib/dri/*_dri.so")
DRAW_TIMEOUT_S = 60
SANDBOX_MARK = "CLOUD_COMPANION_SANDBOX"  # set by `cloud-companion doctor` on the Pi (appliance.sandbox)
UNIT_FILE = Path("/etc/systemd/system") / UNIT
NETWORK_PORTS = ("socket://", "rfc2217://")
LOW_BATTERY_MV = 3500  # a single Li-ion cell near empty
LOW_DISK_BYTES = 200 * 1024 * 1024
STUCK_SAMPLES = 5  # a pin must read "pressed" this many times in a row to count as stuck
ABS_MT_POSITION_X, ABS_X = 0x35, 0x00


@dataclass(frozen=True)
class Check:
    name: str
    status: str
    detail: str
    fix: str = ""

    def to_json(self) -> dict:
        return asdict(self)


@dataclass
class Machine:
    """Where doctor looks; tests point the paths elsewhere."""

    dev: Path = Path("/dev")
    sys: Path = Path("/sys")
    proc: Path = Path("/proc")
    systemctl: str | None = shutil.which("systemctl")
    dri_drivers: tuple[str, ...] = DRI_DRIVERS
    draw: Callable[[], tuple[int, dict]] | None = None  # the drawing probe (tests give their own)
    unit_file: Path = UNIT_FILE

    def service_active(self) -> bool:
        if self.systemctl is None:
            return False
        return subprocess.run([self.systemctl, "is-active", "--quiet", UNIT], timeout=10).returncode == 0

    @property
    def in_sandbox(self) -> bool:
        return os.environ.get(SANDBOX_MARK) == "1"

    @property
    def without_network(self) -> bool:
        """Doctor (or the service it stands for) has no network: the unit allows no Internet
        socket (RestrictAddressFamilies= without AF_INET and AF_INET6), or PrivateNetwork=yes."""
        try:
            text = self.unit_file.read_text()
        except OSError:
            return False
        if re.search(r"^PrivateNetwork=(yes|true|1)\s*$", text, re.M):
            return True
        families = re.findall(r"^RestrictAddressFamilies=(.*)$", text, re.M)
        allowed = families[-1].split() if families else []
        if not allowed or allowed[0].startswith("~"):  # none named, or a deny list: open
            return False
        return not {"AF_INET", "AF_INET6"} & set(allowed)  # an allow list ("none": nothing)

    @property
    def model(self) -> str:
        """The board's name from the device tree ("Raspberry Pi 4 Model B Rev 1.4"), else ""."""
        try:
            return (self.proc / "device-tree" / "model").read_text(errors="replace").strip("\0\n ")
        except OSError:
            return ""

    @property
    def is_pi(self) -> bool:
        return "Raspberry Pi" in self.model


# --- the settings -----------------------------------------------------------------------------


def check_config(path: Path) -> tuple[settings.Config, list[Check]]:
    config, problems = settings.load(path, move_aside=False)
    if not problems:
        where = f"{path}" if path.is_file() else f"no file at {path}: every setting at its default"
        return config, [Check("config", OK, where)]
    return config, [
        Check(
            "config",
            WARN,
            problem,
            f"edit {path} (every setting and its default: "
            "companion/config.example.toml); the app uses the defaults meanwhile",
        )
        for problem in problems
    ]


# --- the machine: processor, OS, Python, pygame and its SDL ----------------------------------------


def os_name(etc: Path = Path("/etc")) -> str:
    try:
        found = re.search(r'^PRETTY_NAME="?([^"\n]*)', (etc / "os-release").read_text(), re.M)
    except OSError:
        return "an unknown system"
    return found.group(1) if found else "an unknown system"


def check_platform(machine: Machine) -> list[Check]:
    """What this machine is: what a bug report needs first, and what picks the app's wheels."""
    import platform
    import sys

    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    from ..ui.loop.sdl import sdl_library_path
    from .platforms import describe

    out = [Check("machine", OK, f"{describe()}, {machine.model or 'not a Raspberry Pi'}, {os_name()}")]
    out.append(
        Check("python", OK, f"{platform.python_implementation()} {platform.python_version()} ({sys.executable})")
    )
    library = sdl_library_path() or "?"
    sdl = ".".join(map(str, pygame.get_sdl_version()))
    bundled = "pygame" in Path(library).parent.name  # pygame_ce.libs: the wheel's own SDL
    whose = "its wheel's own" if bundled else f"the system's, {library}"
    if getattr(pygame, "IS_CE", False):
        out.append(pygame_check(pygame.version.ver, sdl, whose, blits()))
    else:
        out.append(
            Check(
                "pygame",
                FAIL,
                f"pygame {pygame.version.ver} (not pygame-ce), SDL {sdl}",
                "reinstall the app (sudo make update-pi): it runs on pygame-ce",
            )
        )
    return out


def blits() -> str:
    """Which SIMD path pygame-ce's blits were built with: 'SSE2', 'NEON' or 'GENERIC' (plain C).

    Its smoothscale and its alpha blitters are compiled in or out together, so smoothscale's
    backend names the blitters' too."""
    import pygame.transform

    return str(pygame.transform.get_smoothscale_backend())


def pygame_check(version: str, sdl: str, whose: str, simd: str, arm32: bool | None = None) -> Check:
    from .platforms import is_32bit_arm

    detail = f"pygame-ce {version}, SDL {sdl} ({whose}), blits {'plain C' if simd == 'GENERIC' else simd}"
    if simd == "NEON" and (is_32bit_arm() if arm32 is None else arm32):
        # sse2neon's 64-bit stores carry an alignment hint a 4-byte-aligned pixel breaks: a bus error
        return Check(
            "pygame",
            FAIL,
            detail + ": these blits crash 32-bit ARM (a bus error) on the first picture they draw",
            "install the app again from a bundle made by this version (sudo make update-pi): "
            "its pygame-ce wheel is built without them",
        )
    return Check("pygame", OK, detail)


# --- display, touch, sound, speech --------------------------------------------------------------


def sdl_video_drivers() -> list[str]:
    """The video drivers built into the SDL that pygame runs on (asked of SDL itself)."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame  # noqa: F401  (loads its bundled SDL into this process)

    maps = Path("/proc/self/maps").read_text()
    found = re.search(r"(/\S*libSDL2[^/\s]*\.so[^\s]*)", maps)
    sdl = ctypes.CDLL(found.group(1) if found else "libSDL2-2.0.so.0")
    sdl.SDL_GetVideoDriver.restype = ctypes.c_char_p
    # SDL 2.32 names it "KMSDRM", older ones "kmsdrm"
    return [sdl.SDL_GetVideoDriver(i).decode().lower() for i in range(sdl.SDL_GetNumVideoDrivers())]


def check_display(machine: Machine) -> list[Check]:
    out: list[Check] = []
    drivers = sdl_video_drivers()
    if "kmsdrm" in drivers:
        out.append(Check("sdl", OK, "pygame's SDL has the kmsdrm driver (a display without a desktop)"))
    else:
        out.append(
            Check(
                "sdl",
                FAIL,
                f"pygame's SDL lacks kmsdrm (it has {', '.join(drivers)})",
                "reinstall the app (make update-pi): it needs pygame-ce, not pygame",
            )
        )
    missing = []
    for library, package in KMSDRM_LIBRARIES.items():
        try:
            ctypes.CDLL(library)
        except OSError:
            missing.append(package)
    if not any(glob.glob(pattern) for pattern in machine.dri_drivers):
        missing.append("libgl1-mesa-dri")
    if missing:
        out.append(
            Check(
                "libraries",
                FAIL,
                f"SDL's kmsdrm cannot load {', '.join(missing)}",
                f"sudo apt install {' '.join(missing)}",
            )
        )
    else:
        out.append(Check("libraries", OK, "libdrm, libgbm, libEGL, libGLESv2 and the GPU driver load"))
    cards = sorted(glob.glob(str(machine.dev / "dri" / "card*")))
    if not cards:
        out.append(
            Check(
                "display",
                FAIL,
                "no display device (/dev/dri/card*)",
                "on a Pi: dtoverlay=vc4-kms-v3d in /boot/firmware/config.txt, then reboot",
            )
        )
        return out
    connected = [
        Path(status).parent.name
        for status in glob.glob(str(machine.sys / "class" / "drm" / "card*-*" / "status"))
        if Path(status).read_text().strip() == "connected"
    ]
    usable = [card for card in cards if os.access(card, os.R_OK | os.W_OK)]
    if not connected:
        out.append(
            Check(
                "display",
                WARN,
                f"{', '.join(cards)} but no screen connected",
                "check the display's ribbon or HDMI cable, then reboot",
            )
        )
    elif not usable:
        out.append(
            Check(
                "display",
                WARN,
                f"{', '.join(connected)} connected; this user may not open {cards[0]}",
                "the service user is in the video and render groups; a person runs doctor with sudo",
            )
        )
    else:
        out.append(Check("display", OK, f"{', '.join(connected)} connected"))
        out.append(check_drawing(machine))
    return out


def draw_probe(timeout: float = DRAW_TIMEOUT_S) -> tuple[int, dict]:
    """Run the drawing probe in a child process (a display SDL cannot open may hang or crash it)."""
    import json
    import sys

    from ..ui.loop.sdl import choose_console_renderer

    env = {**os.environ, "SDL_VIDEODRIVER": "kmsdrm", "SDL_AUDIODRIVER": "dummy"}
    choose_console_renderer(env)  # the app's own choice
    try:
        run = subprocess.run(
            [sys.executable, "-m", "companion.appliance.drawprobe"],
            capture_output=True,
            text=True,
            timeout=timeout,
            env=env,
        )
    except subprocess.TimeoutExpired:
        return -1, {"error": f"no answer in {timeout:.0f} s"}
    lines = [line for line in run.stdout.splitlines() if line.startswith("{")]
    if not lines:
        return run.returncode, {"error": (run.stderr.strip().splitlines() or [f"exit {run.returncode}"])[-1]}
    return run.returncode, json.loads(lines[-1])


def check_drawing(machine: Machine) -> Check:
    """Open the display as the app does, draw, and read the drawing back: a running app on a
    black screen is told from one that shows."""
    code, result = (machine.draw or draw_probe)()
    renderer = result.get("renderer", "?")
    if code == 0 and result.get("shown"):
        size = "x".join(str(n) for n in result.get("size", [])) or "?"
        driver = result.get("driver", "?")
        return Check("picture", OK, f"drawn and read back ({size}, SDL's {driver} video driver, {renderer} renderer)")
    if code == 1:
        return Check(
            "picture",
            FAIL,
            f"the app would run, but the screen stays black: SDL's {renderer} renderer "
            f"draws nothing (read back {result.get('read_back', result.get('error', '?'))})",
            "without libGL.so.1 SDL takes libGLESv2 for desktop OpenGL: set SDL_RENDER_DRIVER=opengles2 and "
            "SDL_FRAMEBUFFER_ACCELERATION=opengles2 (the unit does), and sudo apt install libgl1-mesa-dri",
        )
    why = result.get("error", "?")
    if machine.service_active():
        return Check(
            "picture",
            WARN,
            f"the display is in use by the app (it runs), so doctor cannot draw: {why}",
            "to test the picture: sudo systemctl stop cloud-companion, run doctor, then start it again",
        )
    return Check(
        "picture",
        FAIL,
        f"the display cannot be opened: {why}",
        "journalctl -u cloud-companion -b shows what the app met; check the cable, then reboot",
    )


def touch_devices(machine: Machine) -> list[str]:
    """Names of input devices that report absolute positions (a touchscreen)."""
    try:
        text = (machine.proc / "bus" / "input" / "devices").read_text(errors="replace")
    except OSError:
        return []
    names = []
    for block in text.split("\n\n"):
        name = re.search(r'^N: Name="(.*)"', block, re.M)
        absolute = re.search(r"^B: ABS=([0-9a-f ]+)$", block, re.M)
        if name and absolute:
            words = absolute.group(1).split()
            bits = int("".join(word.rjust(16, "0") for word in words), 16)
            if bits >> ABS_MT_POSITION_X & 1 or bits >> ABS_X & 1:
                names.append(name.group(1))
    return names


def check_touch(machine: Machine) -> list[Check]:
    names = touch_devices(machine)
    if names:
        return [Check("touch", OK, ", ".join(names))]
    return [
        Check(
            "touch",
            WARN,
            "no touchscreen found (a mouse works too)",
            "check the display's touch cable (the official displays: the 4-pin or DSI cable); "
            "the Touch Display 2 needs dtoverlay=vc4-kms-dsi-ili9881-7inch",
        )
    ]


def check_audio(machine: Machine) -> list[Check]:
    try:
        cards = (machine.proc / "asound" / "cards").read_text()
    except OSError:
        cards = ""
    found = re.findall(r"^\s*\d+ \[[^\]]*\]: (.*)$", cards, re.M)
    if found:
        return [Check("audio", OK, "; ".join(found))]
    return [
        Check(
            "audio",
            WARN,
            "no sound card: the games stay silent",
            "plug in a USB speaker or headphones; on a Pi 4: dtparam=audio=on in /boot/firmware/config.txt",
        )
    ]


def check_speech(config: settings.Config) -> list[Check]:
    espeak = shutil.which("espeak-ng")
    if espeak is None:
        if config.speech:
            return [Check("speech", FAIL, "speech is on, but espeak-ng is not installed", "sudo apt install espeak-ng")]
        return [Check("speech", SKIP, "off in the settings (espeak-ng is not installed)")]
    try:
        run = subprocess.run([espeak, "--version"], capture_output=True, text=True, timeout=10)
        version = run.stdout.strip().split("  Data at")[0] if run.stdout.strip() else "espeak-ng"
    except (OSError, subprocess.TimeoutExpired) as exc:
        return [
            Check(
                "speech",
                FAIL if config.speech else WARN,
                f"espeak-ng does not run: {exc}",
                "sudo apt install --reinstall espeak-ng",
            )
        ]
    return [
        Check(
            "speech",
            OK if config.speech else SKIP,
            f"{version}" + ("" if config.speech else " (speech is off in the settings)"),
        )
    ]


# --- GPIO: the pin factory, each seat's buttons and each bed's detector -------------------------


def check_gpio(config: settings.Config, machine: Machine, factory=None) -> list[Check]:
    from gpiozero import DigitalInputDevice

    if factory is None:
        from ..devices.pins import NoPinFactory, choose_pin_factory

        try:
            choice = choose_pin_factory()
        except NoPinFactory as exc:
            return [Check("gpio", FAIL, str(exc), "unset GPIOZERO_PIN_FACTORY, or install that pin library")]
        factory, simulated, name, why = choice.factory, choice.simulated, choice.name, choice.why
    else:
        name = type(factory).__name__
        simulated, why = name == "MockFactory", "given to doctor"
    out = []
    if simulated:
        on_pi = machine.is_pi
        out.append(
            Check(
                "gpio",
                FAIL if on_pi else WARN,
                f"no GPIO: the pins are simulated (gpiozero {name}: {why})",
                "sudo apt install python3-lgpio (the app's venv uses the system's packages)"
                if on_pi
                else "the seat buttons and bed detectors work on a Raspberry Pi only",
            )
        )
    else:
        out.append(Check("gpio", OK, f"gpiozero {name} ({why})"))
    inputs = [
        (f"seat {n}", role, getattr(seat, role)) for n, seat in enumerate(config.seats, 1) for role in ("jump", "stay")
    ]
    inputs += [(f"bed {colour}", "detector", getattr(config.beds, colour)) for colour in settings.BED_COLOURS]
    by_owner: dict[str, list[str]] = {}
    problems: dict[str, list[Check]] = {}
    for owner, role, pin in inputs:
        try:
            device = DigitalInputDevice(pin, pull_up=True, pin_factory=factory)
        except Exception as exc:  # gpiozero: GPIOPinInUse, PinUnsupported, lgpio's "GPIO busy" ...
            in_use = "busy" in str(exc).lower() or "in use" in str(exc).lower()
            problems.setdefault(owner, []).append(
                Check(
                    owner,
                    WARN if in_use else FAIL,
                    f"{role} (GPIO {pin}) cannot be read: {exc}",
                    "stop the app first: sudo systemctl stop cloud-companion"
                    if in_use
                    else "check [[seats]] / [beds] in the settings file",
                )
            )
            continue
        try:
            stuck = True
            for _ in range(STUCK_SAMPLES):
                if not device.is_active:
                    stuck = False
                    break
                time.sleep(0.002)  # reads spread a little: one press now is no stuck pin
        finally:
            device.close()
        by_owner.setdefault(owner, []).append(f"{role} GPIO {pin}")
        if stuck:
            problems.setdefault(owner, []).append(
                Check(
                    owner,
                    WARN,
                    f"{role} (GPIO {pin}) reads pressed all the time: stuck or shorted",
                    "free the button (or detector), or look for a wire touching ground; see hardware/WIRING.md",
                )
            )
    owners = dict.fromkeys(owner for owner, _, _ in inputs)
    for owner in owners:
        if owner in problems:
            out += problems[owner]
        else:
            out.append(Check(owner, OK, ", ".join(by_owner.get(owner, [])) + (" (simulated)" if simulated else "")))
    return out


# --- the ship ---------------------------------------------------------------------------------


def ship_ports(machine: Machine) -> list[str]:
    """Serial ports that could be the ship (a hint when `auto` finds no Pico by its vendor id)."""
    patterns = ("ttyACM*", "rfcomm*", "ttyUSB*")
    return sorted(port for pattern in patterns for port in glob.glob(str(machine.dev / pattern)))


def check_ship(
    config: settings.Config, machine: Machine, listen_s: float = 2.5, find_port: Callable[[], str] | None = None
) -> list[Check]:
    """The ship's port as the app would open it (`auto`: the link's own search for the Pico),
    then a moment of listening to it."""
    from ..ship import link

    spec = config.ship_port
    if spec.startswith(NETWORK_PORTS) and machine.without_network:
        return [
            Check(
                "ship",
                FAIL,
                f"{spec}: the service has no network (its unit allows no Internet socket), so it can never "
                "reach a ship at a network address",
                'connect the ship by its USB cable or by Bluetooth (rfcomm): [ship] port = "auto" or "/dev/rfcomm0"',
            )
        ]
    if spec == "off":
        return [Check("ship", SKIP, "off in the settings ([ship] port)")]
    if spec == "sim":
        return [Check("ship", SKIP, 'the simulated ship ([ship] port = "sim")')]
    if spec != "auto":
        return [listen(spec, listen_s, required=True)]
    try:
        port = (find_port or link.find_pico)()
    except link.NoPort as exc:
        others = ship_ports(machine)
        fix = "plug the ship's USB cable in; without it Cloudship is kept by touch"
        if others:
            fix += f"; if the ship is on {', '.join(others)} (Bluetooth: rfcomm), name that port in [ship] port"
        return [Check("ship", WARN, f"{exc}", fix)]
    return [listen(port, listen_s, required=False)]


def listen(port: str, seconds: float, required: bool = False) -> Check:
    """Open the port as the app does (115200 8N1, locked) and read lines for a moment."""
    from ..ship.link import LineSplitter, NoPort, open_port  # pyserial: only when a port is checked

    try:
        serial_port = open_port(port)
    except NoPort as exc:
        busy = "busy" in str(exc).lower() or "lock" in str(exc).lower()
        return Check(
            "ship",
            WARN if busy or not required else FAIL,
            f"{port} cannot be opened: {exc}",
            "the app holds it while it runs (sudo systemctl stop cloud-companion)"
            if busy
            else "check [ship] port in the settings and the cable",
        )
    good: dict[str, list[Any]] = {}  # the last good message of each type
    bad: dict[str, int] = {}  # unreadable lines by the protocol's reason

    def heard(records: list[tuple[int, str, str]]) -> None:
        for _arrived, _key, line in records:
            try:
                kind, _seq, _board_ms, fields = protocol.decode(line)
            except protocol.ProtocolError as exc:
                bad[exc.why] = bad.get(exc.why, 0) + 1
            else:
                good[kind] = fields

    splitter = LineSplitter(heard, clock=lambda: 0)
    deadline = time.monotonic() + seconds
    failed = None  # why the port stopped working while doctor listened (the cable came out)
    with serial_port:
        serial_port.timeout = 0.1
        while time.monotonic() < deadline and not ("HELLO" in good and "BEAT" in good):
            try:
                data = serial_port.read(256)
            except (OSError, ValueError) as exc:  # SerialException is an OSError
                failed = str(exc) or type(exc).__name__
                break
            splitter.data_received(data)
    return judge_lines(port, good, bad, failed)


def judge_lines(
    port: str, good: Mapping[str, Sequence[Any]], bad: Mapping[str, int], failed: str | None = None
) -> Check:
    """What the lines heard say: the board, its protocol version, its battery."""
    hello, beat = good.get("HELLO"), good.get("BEAT")
    unreadable = sum(bad.values())
    why = ", ".join(f"{reason} {count}" for reason, count in sorted(bad.items()))
    if failed is not None:
        return Check(
            "ship",
            WARN,
            f"{port} stopped working while doctor listened: {failed}",
            "check the cable (or the Bluetooth link) and that nothing else opened the port",
        )
    if not good:
        if unreadable:
            return Check(
                "ship",
                FAIL,
                f"{port}: {unreadable} unreadable lines, none good ({why})",
                "the wrong device, or a bad cable: the ship speaks 115200 baud, $TYPE,...*CS lines",
            )
        return Check("ship", WARN, f"{port}: silent", "switch the ship on (it sends a BEAT every second)")
    parts = [port]
    if hello:
        proto, device, firmware = hello
        if proto != protocol.VERSION:
            return Check(
                "ship",
                FAIL,
                f"{port}: {device} speaks protocol version {proto!r}; this app speaks {protocol.VERSION}",
                "update the ship's firmware, or the app (make update-pi)",
            )
        parts.append(f"{device or 'ship'} firmware {firmware or '?'}, protocol {protocol.VERSION}")
    else:
        parts.append("alive (no HELLO heard: it says hello when switched on)")
    if beat:
        parts.append(f"battery {beat[0] / 1000:.2f} V")
    if unreadable:
        parts.append(f"{unreadable} unreadable lines ({why})")
    if beat and beat[0] < LOW_BATTERY_MV:
        return Check("ship", WARN, ", ".join(parts) + ": low", "charge the ship's battery")
    return Check("ship", WARN if unreadable else OK, ", ".join(parts), "check the cable" if unreadable else "")


# --- the journal ------------------------------------------------------------------------------


def check_storage(path: Path, proc: Path = Path("/proc")) -> list[Check]:
    """A journal on an overlay or in memory (raspi-config's read-only mode) is gone at reboot."""
    found = lost_at_reboot(path.parent, proc)
    if found is not None:
        point, kind = found
        return [
            Check(
                "storage",
                WARN,
                f"{path.parent} is on {kind} ({point}), which lives in memory: every game "
                "played is forgotten at the next reboot or power cut",
                "switch off raspi-config's overlay file system (Performance Options > Overlay File System: "
                "no), or keep the games on a partition of their own (the manual's page The appliance, The overlay file system)",
            )
        ]
    return []


def check_journal(path: Path, proc: Path = Path("/proc")) -> list[Check]:
    from ..journal import schema

    fix_broken = (
        f"the app moves a damaged journal aside and starts a new one; to get the games back: "
        f"cloud-companion restore BACKUP --db {path}"
    )
    if not path.exists():
        return [
            Check(
                "journal",
                WARN,
                f"no journal at {path} yet: the app makes one when it starts",
                "if games were played, check --db (the Pi's service uses /var/lib/cloud-companion)",
            )
        ]
    if not path.is_file():
        return [Check("journal", FAIL, f"{path} is not a file", "point --db at the journal file")]
    size = sum(p.stat().st_size for p in (path, Path(f"{path}-wal")) if p.exists())
    try:
        # read-only; with no write-ahead log beside it (the app is not running) also immutable,
        # as SQLite would otherwise create the -wal and -shm files even to read
        running = Path(f"{path}-wal").exists() or Path(f"{path}-shm").exists()
        mode = "mode=ro" if running else "mode=ro&immutable=1"
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?{mode}", uri=True, timeout=5)
        try:
            found = schema.check(conn)
            verdict = conn.execute("PRAGMA quick_check").fetchone()[0]
            games = conn.execute("SELECT count(*) FROM games").fetchone()[0] if found else 0
        finally:
            conn.close()
    except schema.SchemaProblem as exc:
        return [Check("journal", FAIL, f"{path} cannot be used: {exc}", fix_broken)]
    except sqlite3.Error as exc:
        if "unable to open" in str(exc):
            return [Check("journal", WARN, f"{path} cannot be opened by this user ({exc})", "run doctor with sudo")]
        return [Check("journal", FAIL, f"{path} is damaged ({exc})", fix_broken)]
    out = []
    if verdict != "ok":
        out.append(Check("journal", FAIL, f"{path} fails SQLite's check: {verdict}", fix_broken))
    else:
        out.append(Check("journal", OK, f"{path}: {games} games, {size / 1e6:.1f} MB, intact"))
    out += check_storage(path, proc)
    free = shutil.disk_usage(path.parent).free
    out.append(
        Check(
            "disk",
            OK if free >= LOW_DISK_BYTES else WARN,
            f"{free / 1e9:.1f} GB free",
            "" if free >= LOW_DISK_BYTES else "free some space: a full disk stops saving",
        )
    )
    return out


# --- the service ------------------------------------------------------------------------------


def check_sandbox(machine: Machine) -> list[Check]:
    if machine.in_sandbox:
        return [Check("sandbox", OK, f"run as {_user()} inside the service's own sandbox (its unit's settings)")]
    if machine.unit_file.is_file():
        return [
            Check(
                "sandbox",
                WARN,
                f"run as {_user()} outside the service's sandbox: what only the sandbox hides is not seen",
                "on the Pi run it as: cloud-companion doctor (it uses the sandbox)",
            )
        ]
    return [Check("sandbox", SKIP, "the service is not installed here")]


def _user() -> str:
    import pwd

    try:
        return pwd.getpwuid(os.geteuid()).pw_name
    except KeyError:
        return str(os.geteuid())


def check_service(machine: Machine) -> list[Check]:
    systemctl = machine.systemctl
    if systemctl is None or not Path("/run/systemd/system").is_dir():
        return [Check("service", SKIP, "no systemd here")]

    def ask(*words: str) -> str:
        result = subprocess.run([systemctl, *words, UNIT], capture_output=True, text=True, timeout=10)
        return result.stdout.strip()

    enabled, active = ask("is-enabled"), ask("is-active")
    if enabled in ("", "not-found"):
        return [Check("service", SKIP, "not installed (sudo make install-pi sets it up)")]
    detail = f"{UNIT} {enabled}, {active}"
    if active == "failed":
        return [
            Check(
                "service",
                FAIL,
                detail,
                "journalctl -u cloud-companion -b shows why; sudo systemctl restart cloud-companion",
            )
        ]
    if enabled != "enabled":
        return [Check("service", WARN, detail, "sudo systemctl enable cloud-companion (starts it at boot)")]
    return [Check("service", OK, detail)]


# --- all of it --------------------------------------------------------------------------------


def run_checks(
    config_path: Path, db_path: Path, machine: Machine | None = None, *, pin_factory=None, listen_s: float = 2.5
) -> list[Check]:
    machine = machine or Machine()
    config, out = check_config(config_path)
    try:
        out = check_platform(machine) + out
    except Exception as exc:  # a broken pygame must not hide the other checks
        out = [
            Check("pygame", FAIL, f"pygame cannot be loaded: {exc!r}", "reinstall the app (sudo make update-pi)")
        ] + out
    steps: Iterable[Callable[[], list[Check]]] = (
        lambda: check_display(machine),
        lambda: check_touch(machine),
        lambda: check_audio(machine),
        lambda: check_speech(config),
        lambda: check_gpio(config, machine, pin_factory),
        lambda: check_ship(config, machine, listen_s),
        lambda: check_journal(db_path),
        lambda: check_service(machine),
        lambda: check_sandbox(machine),
    )
    for step in steps:
        try:
            out += step()
        except Exception as exc:  # one check that breaks must not hide the others
            out.append(
                Check(
                    getattr(step, "__name__", "check"),
                    FAIL,
                    f"the check itself failed: {exc!r}",
                    "please report this with the output of cloud-companion doctor",
                )
            )
    return out


SYMBOL = {OK: "ok  ", WARN: "WARN", FAIL: "FAIL", SKIP: "--  "}


def as_text(checks: list[Check]) -> str:
    width = max(len(c.name) for c in checks)
    lines = []
    for c in checks:
        lines.append(f"{SYMBOL[c.status]}  {c.name:{width}}  {c.detail}")
        if c.fix and c.status in (WARN, FAIL):
            lines.append(f"{'':4}  {'':{width}}  -> {c.fix}")
    failed = sum(c.status == FAIL for c in checks)
    warned = sum(c.status == WARN for c in checks)
    lines.append(
        f"{failed} problem(s) the app cannot work with, {warned} warning(s)"
        if failed or warned
        else "everything the companion needs is here"
    )
    return "\n".join(lines)
