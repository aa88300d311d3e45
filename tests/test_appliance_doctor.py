"""`cloud-companion doctor`: seat and bed pins on gpiozero's MockFactory (a shorted wire, a pin
the app holds), the ship on a real pseudo-terminal speaking HELLO/BEAT lines, broken journals
and settings files, the machine's devices from /proc-style files, and the command's output."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
import tty
from pathlib import Path

import pytest
from gpiozero import Button
from gpiozero.pins.mock import MockFactory, MockPin

from companion import config as settings
from companion.appliance import doctor
from companion.appliance.doctor import FAIL, OK, SKIP, WARN, Check, Machine
from companion.ship.protocol import encode
from journaling import journal_of_games


class ShortedToGround(MockPin):
    """A wire touching ground: the pin reads low whatever its pull-up says."""

    def _set_pull(self, value):
        self._pull = value
        self.drive_low()


def by_name(checks: list[Check], name: str) -> list[Check]:
    return [c for c in checks if c.name == name]


# --- pins -------------------------------------------------------------------------------------


def test_every_seat_and_bed_pin_is_read_and_reported():
    checks = doctor.check_gpio(settings.Config(), Machine(), factory=MockFactory())
    assert checks[0].name == "gpio" and checks[0].status == WARN and "simulated" in checks[0].detail
    assert [c.name for c in checks[1:]] == [f"seat {n}" for n in range(1, 9)] + [
        "bed yellow",
        "bed purple",
        "bed white",
        "bed blue",
    ]
    assert all(c.status == OK for c in checks[1:])
    assert by_name(checks, "seat 1")[0].detail == "jump GPIO 4, stay GPIO 17 (simulated)"


def test_a_shorted_button_and_a_shorted_detector_show_as_stuck():
    factory = MockFactory()
    factory.pin(17, pin_class=ShortedToGround)  # seat 1 stay
    factory.pin(14, pin_class=ShortedToGround)  # the white bed
    checks = doctor.check_gpio(settings.Config(), Machine(), factory=factory)
    stuck = [c for c in checks if c.status == WARN and c.name != "gpio"]
    assert [(c.name, c.detail) for c in stuck] == [
        ("seat 1", "stay (GPIO 17) reads pressed all the time: stuck or shorted"),
        ("bed white", "detector (GPIO 14) reads pressed all the time: stuck or shorted"),
    ]
    assert all("WIRING.md" in c.fix for c in stuck)
    assert by_name(checks, "seat 2")[0].status == OK


def test_a_pin_the_app_holds_is_in_use_not_broken():
    factory = MockFactory()
    held = Button(22, pull_up=True, pin_factory=factory)  # as the running app holds seat 2's jump
    try:
        checks = doctor.check_gpio(settings.Config(), Machine(), factory=factory)
    finally:
        held.close()
    seat2 = by_name(checks, "seat 2")
    assert len(seat2) == 1 and seat2[0].status == WARN and "systemctl stop" in seat2[0].fix


def test_on_a_pi_without_a_pin_library_gpio_fails(tmp_path):
    (tmp_path / "device-tree").mkdir()
    (tmp_path / "device-tree" / "model").write_text("Raspberry Pi 4 Model B Rev 1.5\0")
    checks = doctor.check_gpio(settings.Config(), Machine(proc=tmp_path), factory=MockFactory())
    assert checks[0].status == FAIL and "python3-lgpio" in checks[0].fix


def test_the_pin_factory_chosen_says_why_gpiozero_passed_over_the_others(monkeypatch):
    """With no Pi here every real factory fails to load: gpiozero's own reasons are kept."""
    from gpiozero import Device

    from companion.devices import pins

    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    monkeypatch.setattr(Device, "pin_factory", None)
    choice = pins.choose_pin_factory()
    try:
        assert choice.simulated and choice.name == "MockFactory"
        tried = [reason.split(":")[0] for reason in choice.passed_over]
        assert tried[:2] == ["lgpio", "rpigpio"] and tried[-1] == "native", choice.passed_over
        checks = doctor.check_gpio(settings.Config(), Machine())
        assert checks[0].status == WARN and "gpiozero passed over lgpio: " in checks[0].detail
        assert "; native: " in checks[0].detail
    finally:
        choice.factory.close()


def test_doctor_names_the_processor_the_python_and_the_pygame_flavour(tmp_path):
    import platform

    import pygame

    (tmp_path / "device-tree").mkdir()
    (tmp_path / "device-tree" / "model").write_text("Raspberry Pi 3 Model B Plus Rev 1.3\0")
    machine_, python, flavour = doctor.check_platform(Machine(proc=tmp_path))
    assert machine_.name == "machine" and machine_.detail.startswith(f"{platform.machine()} (64-bit)")
    assert "Raspberry Pi 3 Model B Plus Rev 1.3," in machine_.detail and "-bit" in machine_.detail
    assert python.detail.startswith(f"CPython {platform.python_version()} (")
    assert flavour.status == OK and flavour.detail.startswith(f"pygame-ce {pygame.version.ver}, SDL ")
    assert ".".join(map(str, pygame.get_sdl_version())) in flavour.detail
    assert "its wheel's own" in flavour.detail  # PyPI's wheel bundles its SDL
    elsewhere = doctor.check_platform(Machine(proc=tmp_path / "none"))[0]
    assert "not a Raspberry Pi" in elsewhere.detail


def test_the_processor_is_the_programs_not_the_kernels():
    """32-bit Pi OS on a Pi 4 runs a 64-bit kernel: its wheels are armv7l all the same."""
    from companion.appliance import platforms

    assert platforms.userland("aarch64", 32) == "armv7l" and platforms.is_32bit_arm("aarch64", 32)
    assert platforms.describe("aarch64", 32) == "armv7l (32-bit, kernel aarch64)"
    assert platforms.userland("armv7l", 32) == "armv7l" and platforms.describe("armv7l", 32) == "armv7l (32-bit)"
    assert platforms.userland("aarch64", 64) == "aarch64" and not platforms.is_32bit_arm("aarch64", 64)
    assert platforms.userland("armv6l", 32) == "armv6l" and not platforms.is_32bit_arm("armv6l", 32)
    assert platforms.userland("x86_64", 32) == "i686"


def test_doctor_names_the_blits_simd_path_and_fails_sse2neon_on_32bit_arm():
    """pygame-ce built with sse2neon on ARMv7 dies of a bus error in its first alpha blit at an odd
    pixel; the armv7l wheel the bundle carries is built without it, and doctor tells them apart."""
    here = doctor.check_platform(Machine())[2]
    assert f", blits {'plain C' if doctor.blits() == 'GENERIC' else doctor.blits()}" in here.detail
    faulting = doctor.pygame_check("2.5.8", "2.26.5", "the system's", "NEON", arm32=True)
    assert faulting.status == FAIL and "bus error" in faulting.detail and "update-pi" in faulting.fix
    plain = doctor.pygame_check("2.5.8", "2.26.5", "the system's", "GENERIC", arm32=True)
    assert plain.status == OK and plain.detail.endswith("blits plain C")
    assert doctor.pygame_check("2.5.8", "2.28.4", "its wheel's own", "NEON", arm32=False).status == OK  # aarch64


def test_doctor_fails_on_pygame_that_is_not_pygame_ce(monkeypatch):
    import pygame

    monkeypatch.setattr(pygame, "IS_CE", False)
    flavour = doctor.check_platform(Machine())[2]
    assert flavour.status == FAIL and "not pygame-ce" in flavour.detail and "update-pi" in flavour.fix


# --- the ship on a real pseudo-terminal -----------------------------------------------------------


@pytest.fixture
def ship(tmp_path):
    """A pty whose far end the test writes ship lines into; its name is linked as dev/ttyACM0."""
    master, slave = os.openpty()
    dev = tmp_path / "dev"
    dev.mkdir()
    (dev / "ttyACM0").symlink_to(os.ttyname(slave))
    stop = threading.Event()

    def speak(lines: list[str], every: float = 0.05):
        def run():
            while not stop.is_set():
                for line in lines:
                    os.write(master, (line + "\r\n").encode("latin-1"))
                    if stop.wait(every):
                        return

        threading.Thread(target=run, daemon=True).start()

    yield dev, speak
    stop.set()
    time.sleep(0.1)
    os.close(master)
    os.close(slave)


def ship_config(**changes):
    return settings.Config(**changes)


def line(kind: str, seq: int, t: int, *fields) -> str:
    return encode(kind, seq, t, list(fields))


def test_a_ship_saying_hello_and_beat_is_found_with_its_version_and_battery(ship):
    dev, speak = ship
    speak([line("HELLO", 0, 5, "1", "CS-4F2A", "0.3.1"), line("TILT", 1, 55, 12, -3, 4), line("BEAT", 2, 1005, 3900)])
    port = f"{dev}/ttyACM0"
    checks = doctor.check_ship(ship_config(ship_port=port), Machine(dev=dev), listen_s=5)
    assert [(c.status, c.detail) for c in checks] == [
        (OK, f"{port}, CS-4F2A firmware 0.3.1, protocol 1, battery 3.90 V")
    ]


def test_auto_listens_where_the_link_finds_the_board(ship):
    dev, speak = ship
    speak([line("HELLO", 0, 5, "1", "CS-4F2A", "0.3.1"), line("BEAT", 2, 1005, 3900)])
    port = f"{dev}/ttyACM0"
    (check,) = doctor.check_ship(ship_config(), Machine(dev=dev), listen_s=5, find_port=lambda: port)
    assert (check.status, check.detail) == (OK, f"{port}, CS-4F2A firmware 0.3.1, protocol 1, battery 3.90 V")


def test_a_port_the_app_holds_is_busy_not_broken(ship):
    from companion.ship.link import open_port

    dev, speak = ship
    speak([line("BEAT", 2, 1005, 3900)])
    port = f"{dev}/ttyACM0"
    with open_port(port):  # the running app's link
        (check,) = doctor.check_ship(ship_config(ship_port=port), Machine(dev=dev), listen_s=1)
    assert check.status == WARN and "systemctl stop" in check.fix


def test_a_ship_on_another_protocol_version_fails(ship):
    dev, speak = ship
    speak([line("HELLO", 0, 5, "2", "CS-4F2A", "1.0.0"), line("BEAT", 1, 1005, 3900)])
    (check,) = doctor.check_ship(ship_config(ship_port=f"{dev}/ttyACM0"), Machine(dev=dev), listen_s=3)
    assert check.status == FAIL and "protocol version '2'" in check.detail and "firmware" in check.fix


def test_a_ship_without_hello_is_alive_and_a_low_battery_warns(ship):
    dev, speak = ship
    speak([line("BEAT", 7, 9005, 3300)])
    (check,) = doctor.check_ship(ship_config(ship_port=str(dev / "ttyACM0")), Machine(dev=dev), listen_s=1)
    assert check.status == WARN and "no HELLO heard" in check.detail and "battery 3.30 V: low" in check.detail
    assert check.fix == "charge the ship's battery"


def test_garbage_on_the_line_fails_and_silence_warns(ship, tmp_path):
    dev, speak = ship
    speak(["$BEAT,1,2,3900*00", "\x00\xff noise"])
    (check,) = doctor.check_ship(ship_config(ship_port=f"{dev}/ttyACM0"), Machine(dev=dev), listen_s=0.5)
    assert check.status == FAIL and "unreadable lines, none good" in check.detail and "115200" in check.fix
    assert "checksum" in check.detail and "format" in check.detail  # the protocol's own reasons
    quiet_master, quiet_slave = os.openpty()
    try:
        (check,) = doctor.check_ship(ship_config(ship_port=os.ttyname(quiet_slave)), Machine(dev=dev), listen_s=0.3)
        assert check.status == WARN and check.detail.endswith("silent")
    finally:
        os.close(quiet_master)
        os.close(quiet_slave)


def test_a_ship_unplugged_while_doctor_listens_is_a_warning_not_a_crash():
    master, slave = os.openpty()
    tty.setraw(slave)
    port = os.ttyname(slave)
    os.write(master, (line("BEAT", 1, 5, 3900) + "\r\n").encode())
    threading.Timer(0.3, os.close, (master,)).start()  # the cable comes out
    try:
        (check,) = doctor.check_ship(ship_config(ship_port=port), Machine(), listen_s=5)
    finally:
        os.close(slave)
    assert check.status == WARN and "stopped working" in check.detail and "cable" in check.fix


def test_no_ship_port_warns_and_off_and_sim_skip(tmp_path):
    (nothing,) = doctor.check_ship(ship_config(), Machine(dev=tmp_path))  # no Pico on this machine
    assert nothing.status == WARN and "2E8A" in nothing.detail and "[ship] port" not in nothing.fix
    (tmp_path / "rfcomm0").touch()
    (hinted,) = doctor.check_ship(ship_config(), Machine(dev=tmp_path))
    assert hinted.status == WARN and f"{tmp_path}/rfcomm0" in hinted.fix and "[ship] port" in hinted.fix
    assert doctor.check_ship(ship_config(ship_port="off"), Machine(dev=tmp_path))[0].status == SKIP
    assert doctor.check_ship(ship_config(ship_port="sim"), Machine(dev=tmp_path))[0].status == SKIP
    (missing,) = doctor.check_ship(ship_config(ship_port=str(tmp_path / "rfcomm1")), Machine(dev=tmp_path))
    assert missing.status == FAIL and "[ship] port" in missing.fix


# --- the journal ------------------------------------------------------------------------------


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}


def test_a_good_journal_is_counted_and_left_as_it_was(tmp_path):
    path = tmp_path / "journal.sqlite3"
    journal_of_games(path, 3)
    before = snapshot(tmp_path)
    checks = doctor.check_journal(path)
    assert checks[0].status == OK and "3 games" in checks[0].detail and "intact" in checks[0].detail
    # a "storage" warning comes first where /tmp is in memory
    assert [c.name for c in checks[1:]][-1] == "disk" and "GB free" in checks[-1].detail
    assert snapshot(tmp_path) == before


@pytest.mark.parametrize(
    "make,words",
    [
        (lambda p: p.write_bytes(b"this is a game file, not a journal\n" * 50), "damaged"),
        (
            lambda p: sqlite3.connect(p).executescript("CREATE TABLE photos (x); PRAGMA user_version = 0;"),
            "a SQLite file of something else",
        ),
        (
            lambda p: sqlite3.connect(p).executescript("CREATE TABLE games (x); PRAGMA user_version = 99;"),
            "newer Cloud Companion",
        ),
    ],
)
def test_a_broken_journal_fails_with_what_to_do_and_is_not_moved(tmp_path, make, words):
    path = tmp_path / "journal.sqlite3"
    make(path)
    before = snapshot(tmp_path)
    (check,) = doctor.check_journal(path)
    assert check.status == FAIL and words in check.detail and "cloud-companion restore" in check.fix
    assert snapshot(tmp_path) == before


def test_a_journal_with_a_damaged_page_fails_the_integrity_check(tmp_path):
    path = tmp_path / "journal.sqlite3"
    journal_of_games(path, 40)
    data = bytearray(path.read_bytes())
    page = 4096
    assert len(data) > 6 * page
    data[2 * page : 2 * page + 8] = b"\xff" * 8  # the header of page 3: no valid b-tree page
    path.write_bytes(bytes(data))
    checks = doctor.check_journal(path)
    assert checks[0].status == FAIL


def test_no_journal_yet_warns_and_a_directory_fails(tmp_path):
    assert doctor.check_journal(tmp_path / "none.sqlite3")[0].status == WARN
    assert doctor.check_journal(tmp_path)[0].status == FAIL


# --- settings, devices of the machine, the service ------------------------------------------------


def test_a_broken_settings_file_is_reported_and_not_moved(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text("language = [")
    config, checks = doctor.check_config(path)
    assert config == settings.Config() and checks[0].status == WARN and "not TOML" in checks[0].detail
    assert [p.name for p in tmp_path.iterdir()] == ["config.toml"]
    path.write_text("volume = 9\n[beds]\nwhite = 99\n")
    config, checks = doctor.check_config(path)
    assert [c.detail.split(": ")[1] for c in checks] == ["volume", "beds.white"]
    assert all("config.example.toml" in c.fix for c in checks)


# /proc/bus/input/devices of a Pi with the official 7" display (FT5406 touch) and a keyboard
INPUT_DEVICES = """I: Bus=0018 Vendor=0000 Product=0000 Version=0000
N: Name="generic ft5x06 (79)"
P: Phys=
S: Sysfs=/devices/platform/soc/soc:firmware/soc:firmware:touchscreen/input/input0
U: Uniq=
H: Handlers=mouse0 event0
B: PROP=2
B: EV=b
B: KEY=400 0 0 0 0 0 0 0 0 0 0
B: ABS=2608000 3

I: Bus=0003 Vendor=046d Product=c31c Version=0110
N: Name="Logitech USB Keyboard"
H: Handlers=sysrq kbd leds event1
B: EV=120013
B: KEY=1000000000007 ff9f207ac14057ff febeffdfffefffff fffffffffffffffe
"""


def test_a_touchscreen_and_a_sound_card_are_found_in_proc(tmp_path):
    (tmp_path / "bus" / "input").mkdir(parents=True)
    (tmp_path / "bus" / "input" / "devices").write_text(INPUT_DEVICES)
    (tmp_path / "asound").mkdir()
    (tmp_path / "asound" / "cards").write_text(
        " 0 [vc4hdmi        ]: vc4-hdmi - vc4-hdmi\n                      vc4-hdmi\n"
    )
    machine = Machine(proc=tmp_path)
    assert doctor.check_touch(machine) == [Check("touch", OK, "generic ft5x06 (79)")]
    assert doctor.check_audio(machine) == [Check("audio", OK, "vc4-hdmi - vc4-hdmi")]
    empty = Machine(proc=tmp_path / "none")
    assert doctor.check_touch(empty)[0].status == WARN and doctor.check_audio(empty)[0].status == WARN


def test_a_display_device_must_be_there_and_connected(tmp_path):
    dev, sys_ = tmp_path / "dev", tmp_path / "sys"
    (dev / "dri").mkdir(parents=True)
    missing = doctor.check_display(Machine(dev=dev, sys=sys_))
    assert by_name(missing, "display")[0].status == FAIL and "vc4-kms-v3d" in by_name(missing, "display")[0].fix
    (dev / "dri" / "card1").write_text("")
    (sys_ / "class" / "drm" / "card1-DSI-1").mkdir(parents=True)
    (sys_ / "class" / "drm" / "card1-DSI-1" / "status").write_text("connected\n")
    found = doctor.check_display(Machine(dev=dev, sys=sys_))
    assert by_name(found, "display") == [Check("display", OK, "card1-DSI-1 connected")]
    assert by_name(found, "sdl")[0].status == OK  # pygame-ce's SDL has kmsdrm


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed (apt install espeak-ng)")
def test_speech_that_is_on_with_espeak_ng_installed_is_ok():
    assert doctor.check_speech(settings.Config(speech=True))[0].status == OK


def connected_display(tmp_path) -> tuple[Path, Path]:
    dev, sys_ = tmp_path / "dev", tmp_path / "sys"
    (dev / "dri").mkdir(parents=True)
    (dev / "dri" / "card0").write_text("")
    (sys_ / "class" / "drm" / "card0-HDMI-A-1").mkdir(parents=True)
    (sys_ / "class" / "drm" / "card0-HDMI-A-1" / "status").write_text("connected\n")
    return dev, sys_


def test_a_screen_that_draws_is_told_from_a_running_app_on_a_black_screen(tmp_path):
    dev, sys_ = connected_display(tmp_path)
    shows = Machine(
        dev=dev,
        sys=sys_,
        systemctl=None,
        draw=lambda: (0, {"shown": True, "driver": "kmsdrm", "renderer": "opengles2", "size": [800, 480]}),
    )
    assert by_name(doctor.check_display(shows), "picture") == [
        Check("picture", OK, "drawn and read back (800x480, SDL's kmsdrm video driver, opengles2 renderer)")
    ]
    black = Machine(
        dev=dev,
        sys=sys_,
        systemctl=None,
        draw=lambda: (1, {"shown": False, "renderer": "opengl", "read_back": [0, 0, 0]}),
    )
    [picture] = by_name(doctor.check_display(black), "picture")
    assert picture.status == FAIL and "screen stays black" in picture.detail and "opengl renderer" in picture.detail
    assert "SDL_RENDER_DRIVER=opengles2" in picture.fix and "libgl1-mesa-dri" in picture.fix
    nothing = Machine(dev=dev, sys=sys_, systemctl=None, draw=lambda: (2, {"error": "Could not initialize EGL"}))
    [picture] = by_name(doctor.check_display(nothing), "picture")
    assert picture.status == FAIL and "Could not initialize EGL" in picture.detail


def test_the_drawing_probe_draws_and_reads_back_on_a_real_sdl(monkeypatch):
    """The probe itself, on SDL's offscreen driver (a renderer on EGL where Mesa has one)."""
    env = {**os.environ, "SDL_VIDEODRIVER": "dummy"}
    run = subprocess.run(
        [sys.executable, "-m", "companion.appliance.drawprobe"], capture_output=True, text=True, timeout=120, env=env
    )
    result = json.loads(run.stdout.splitlines()[-1])
    assert run.returncode == 0 and result["shown"] and result["driver"] == "dummy" and result["size"]


def test_without_the_gpu_driver_package_the_libraries_check_fails(tmp_path):
    dev, sys_ = connected_display(tmp_path)
    machine = Machine(
        dev=dev,
        sys=sys_,
        systemctl=None,
        dri_drivers=(str(tmp_path / "none" / "*_dri.so"),),
        draw=lambda: (0, {"shown": True}),
    )
    [libraries] = by_name(doctor.check_display(machine), "libraries")
    assert libraries.status == FAIL and "libgl1-mesa-dri" in libraries.detail
    assert libraries.fix.startswith("sudo apt install") and "libgl1-mesa-dri" in libraries.fix


@pytest.mark.parametrize(
    "closed",
    ["RestrictAddressFamilies=AF_UNIX AF_NETLINK", "PrivateNetwork=yes", "RestrictAddressFamilies=none"],
)
def test_a_network_ship_address_fails_where_the_service_has_no_network(tmp_path, closed):
    unit = tmp_path / "cloud-companion.service"
    unit.write_text(f"[Service]\n{closed}\n")
    config = settings.Config().with_changes(ship_port="socket://192.168.1.20:7000")
    [ship] = doctor.check_ship(config, Machine(unit_file=unit), listen_s=0.1)
    assert ship.status == FAIL and "no network" in ship.detail and "rfcomm" in ship.fix


@pytest.mark.parametrize(
    "open_",
    [
        "RestrictAddressFamilies=AF_UNIX AF_INET",
        "RestrictAddressFamilies=~AF_PACKET",
        "PrivateNetwork=no",
        "",  # a desktop, or a unit opened up on purpose
    ],
)
def test_a_network_ship_address_is_tried_where_the_service_has_a_network(tmp_path, open_):
    unit = tmp_path / "cloud-companion.service"
    unit.write_text(f"[Service]\n{open_}\n")
    config = settings.Config().with_changes(ship_port="socket://127.0.0.1:9")
    [ship] = doctor.check_ship(config, Machine(unit_file=unit), listen_s=0.1)
    assert "no network" not in ship.detail


def test_the_installed_unit_has_no_network_for_doctor():
    unit = Path(__file__).parent.parent / "systemd" / "cloud-companion.service"
    assert Machine(unit_file=unit).without_network


def test_doctor_says_whether_it_ran_inside_the_services_sandbox(tmp_path, monkeypatch):
    unit = tmp_path / "cloud-companion.service"
    monkeypatch.delenv(doctor.SANDBOX_MARK, raising=False)
    assert doctor.check_sandbox(Machine(unit_file=unit))[0].status == SKIP  # no service here
    unit.write_text("[Service]\n")
    outside = doctor.check_sandbox(Machine(unit_file=unit))[0]
    assert outside.status == WARN and "cloud-companion doctor" in outside.fix
    monkeypatch.setenv(doctor.SANDBOX_MARK, "1")
    inside = doctor.check_sandbox(Machine(unit_file=unit))[0]
    assert inside.status == OK and "sandbox" in inside.detail


def test_speech_is_needed_only_when_it_is_on(monkeypatch):
    monkeypatch.setenv("PATH", "/nonexistent")
    assert doctor.check_speech(settings.Config(speech=True))[0].status == FAIL
    assert doctor.check_speech(settings.Config())[0].status == SKIP


# --- the command --------------------------------------------------------------------------------


def test_doctor_json_and_text_and_exit_code(tmp_path):
    env = {**os.environ, "GPIOZERO_PIN_FACTORY": "mock"}
    config = tmp_path / "c.toml"
    config.write_text('[ship]\nport = "off"\n')
    base = [sys.executable, "-m", "companion", "doctor", "--db", str(tmp_path / "j.sqlite3"), "--config", str(config)]
    result = subprocess.run(base + ["--json"], capture_output=True, text=True, timeout=120, env=env)
    report = json.loads(result.stdout)
    failed = [c for c in report["checks"] if c["status"] == "fail"]
    assert report["ok"] == (not failed) and result.returncode == (1 if failed else 0)
    assert all(c["fix"] for c in report["checks"] if c["status"] in ("warn", "fail"))
    names = {c["name"] for c in report["checks"]}
    assert {
        "config",
        "sdl",
        "libraries",
        "display",
        "touch",
        "audio",
        "speech",
        "gpio",
        "seat 1",
        "bed blue",
        "ship",
        "journal",
        "service",
    } <= names
    text = subprocess.run(base, capture_output=True, text=True, timeout=120, env=env)
    assert text.returncode == result.returncode and "Traceback" not in text.stderr
    lines = text.stdout.splitlines()
    for number, line in enumerate(lines[:-1]):
        if line.startswith(("WARN", "FAIL")):
            assert "-> " in lines[number + 1]
    assert not (tmp_path / "j.sqlite3").exists()  # doctor creates nothing


def test_a_journal_on_an_overlay_root_is_warned_about_before_a_reboot_loses_it(tmp_path):
    proc = tmp_path / "proc"
    proc.mkdir()
    db = tmp_path / "var" / "journal.sqlite3"
    db.parent.mkdir()
    (proc / "mounts").write_text("overlay / overlay rw,lowerdir=/media/root-ro 0 0\nproc /proc proc rw 0 0\n")
    [storage] = doctor.check_storage(db, proc)
    assert storage.status == WARN and "forgotten at the next reboot" in storage.detail and "Overlay" in storage.fix
    (proc / "mounts").write_text(f"overlay / overlay rw 0 0\n/dev/sda2 {tmp_path / 'var'} ext4 rw 0 0\n")
    assert doctor.check_storage(db, proc) == []  # the journal's own disk is a real one


def test_report_bundles_doctor_and_the_log_into_one_file(tmp_path):
    env = {**os.environ, "GPIOZERO_PIN_FACTORY": "mock"}
    config = tmp_path / "c.toml"
    config.write_text('[ship]\nport = "off"\n')
    out = tmp_path / "report.txt"
    base = [sys.executable, "-m", "companion", "report", "--db", str(tmp_path / "j.sqlite3"), "--config", str(config)]
    result = subprocess.run(base + ["--out", str(out)], capture_output=True, text=True, timeout=120, env=env)
    assert result.returncode == 0 and f"report written to {out}" in result.stdout
    text = out.read_text()
    assert text.startswith("Cloud Companion ") and "== cloud-companion doctor ==" in text
    assert "journal" in text and "== journalctl -u cloud-companion -b" in text
    refused = subprocess.run(
        base + ["--out", str(tmp_path / "no" / "such" / "r.txt")], capture_output=True, text=True, timeout=120, env=env
    )
    assert refused.returncode == 1 and refused.stderr.startswith("cloud-companion: cannot write the report")
    assert "Traceback" not in refused.stderr


def test_pygames_word_about_its_missing_neon_blitters_is_not_printed_at_every_start():
    """The armv7l wheel is built without them on purpose; doctor says so, stderr does not."""
    import subprocess
    import sys

    said = (
        "import warnings, companion; warnings.warn('Your system is neon capable but pygame was not built "
        "with support for it. The performance of some of your blits could be adversely affected', RuntimeWarning)"
    )
    out = subprocess.run([sys.executable, "-W", "default", "-c", said], capture_output=True, text=True, check=True)
    assert out.stderr == ""
    other = said.replace("neon capable", "avx2 capable")  # only that one word is kept quiet
    assert "avx2 capable" in subprocess.run([sys.executable, "-c", other], capture_output=True, text=True).stderr
