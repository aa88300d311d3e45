"""Switched off, the live page's service holds almost nothing: at boot it starts beside the
app's first frame, so it loads its server (asyncio, the journal, the drawing) and no pygame
until the settings' switch is turned on. Run the way its unit runs it (`python -m companion.live`)."""

from __future__ import annotations

import os
import shlex
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

from livepage import HOST, end, free_port, get
from unitfile import settings

ROOT = Path(__file__).resolve().parent.parent
UNIT = ROOT / "systemd" / "cloud-companion-live.service"


class UnitCommand:
    """The unit's ExecStart (its venv's python replaced by this one), on a loopback port."""

    def __init__(self, tmp_path: Path, python_flags: tuple[str, ...] = (), extra: tuple[str, ...] = ()):
        self.config, self.port = tmp_path / "config.toml", free_port()
        self.config.write_text("live = false\n")
        words = shlex.split(settings(UNIT.read_text())["ExecStart"][0])
        words = [sys.executable, *python_flags, *words[1:]]
        words[words.index("--config") + 1] = str(self.config)
        words[words.index("--db") + 1] = str(tmp_path / "journal.sqlite3")
        self.log = tmp_path / "live.log"
        env = dict(os.environ, CLOUD_COMPANION_LIVE_URL_FILE=str(tmp_path / "live-url"))
        with open(self.log, "wb") as out:
            self.process = subprocess.Popen(
                [*words, "--host", HOST, "--port", str(self.port), *extra],
                cwd=ROOT,
                stdout=out,
                stderr=subprocess.STDOUT,
                env=env,
            )

    def logged(self) -> str:
        return self.log.read_text(errors="replace")

    def wait_for(self, text: str, timeout: float = 30) -> None:
        deadline = time.monotonic() + timeout
        while text not in self.logged():
            assert self.process.poll() is None, self.logged()
            assert time.monotonic() < deadline, self.logged()
            time.sleep(0.1)

    def libraries(self) -> set[str]:
        with open(f"/proc/{self.process.pid}/maps") as maps:
            return {line.split()[-1] for line in maps if ".so" in line}

    def stop(self) -> int:
        return end(self.process)


def test_switched_off_it_loads_no_server_and_no_pygame_and_serves_once_switched_on(tmp_path):
    live = UnitCommand(tmp_path)
    try:
        live.wait_for("switched off")
        time.sleep(0.5)
        heavy = [name for name in live.libraries() if "_asyncio" in name or "pygame" in name]
        assert not heavy, heavy
        live.config.write_text("live = true\n")  # what the Settings screen does (it writes the file)
        deadline = time.monotonic() + 30
        while True:
            try:
                socket.create_connection((HOST, live.port), timeout=1).close()
                break
            except OSError:
                assert time.monotonic() < deadline and live.process.poll() is None, live.logged()
                time.sleep(0.1)
        assert get(f"http://{HOST}:{live.port}", "/")[0] == 200
        # plain HTTP: OpenSSL's libraries (4.5 MiB) are never loaded
        assert not [name for name in live.libraries() if "libssl" in name or "libcrypto" in name]
    finally:
        live.stop()


def test_switched_off_it_ends_cleanly_when_told_to(tmp_path):
    live = UnitCommand(tmp_path)
    live.wait_for("switched off")
    assert live.stop() == 0
    assert "Traceback" not in live.logged(), live.logged()
    with socket.socket() as probe:  # it never listened
        assert probe.connect_ex((HOST, live.port)) != 0


def test_switched_off_it_waits_with_the_standard_library_alone(tmp_path):
    """On a Pi's core every module is many times dearer: the wait loads no asyncio, no logging,
    and none of the settings', the rules' or the journal's code (the server loads them once on)."""
    live = UnitCommand(tmp_path, python_flags=("-X", "importtime"))
    try:
        live.wait_for("switched off")
        before = live.logged().split("switched off")[0]
        loaded = {line.split("|")[-1].strip() for line in before.splitlines() if line.startswith("import time:")}
        assert "companion.live.switch" in loaded  # the import log is read
        heavy = {"asyncio", "logging", "companion.config", "companion.rules", "companion.journal", "sqlite3"}
        assert loaded & heavy == set()
    finally:
        live.stop()


def test_the_wait_follows_a_settings_folder_made_after_it_began(tmp_path, monkeypatch):
    """The first boot's settings folder may not exist yet: the watch sits on the nearest parent,
    and the switch written into a folder made later wakes it (not the look each minute)."""
    import threading

    from companion.live import switch

    monkeypatch.setattr(switch, "LOOK_EVERY_S", 3600)
    config = tmp_path / "etc" / "cloud-companion" / "config.toml"

    def settings_screen():
        time.sleep(0.3)
        config.parent.mkdir(parents=True)
        time.sleep(0.3)
        config.write_text("live = false\n")
        time.sleep(0.3)
        config.with_suffix(".new").write_text("language = 'de'\nlive = true\n")
        config.with_suffix(".new").replace(config)  # the atomic rename the app's save does

    stop = threading.Timer(60, os.kill, (os.getpid(), signal.SIGTERM))  # ends a wait that missed it
    stop.start()
    threading.Thread(target=settings_screen, daemon=True).start()
    try:
        assert switch.until_switched_on(config) is True
    finally:
        stop.cancel()


def test_only_a_true_switch_counts_as_on(tmp_path):
    from companion.live.switch import switched_on

    config = tmp_path / "config.toml"
    assert not switched_on(config)  # no file
    for text, on in [("live = true", True), ("live = 'yes'", False), ("live = 1", False), ("live = [", False)]:
        config.write_text(text + "\n")
        assert switched_on(config) is on, text
    config.write_bytes(b"live = true\n\xff")
    assert not switched_on(config)  # not UTF-8: the settings' defaults, off


def test_quiet_it_says_nothing_while_switched_off_and_serves_once_on(tmp_path):
    live = UnitCommand(tmp_path, extra=("--quiet",))
    try:
        deadline = time.monotonic() + 30
        while not any("inotify" in target for target in _fd_targets(live)):  # its watch is set
            assert time.monotonic() < deadline and live.process.poll() is None, live.logged()
            time.sleep(0.05)
        assert live.logged() == ""  # waiting, and silent
        live.config.write_text("live = true\n")
        deadline = time.monotonic() + 30
        while socket.socket().connect_ex((HOST, live.port)) != 0:
            assert time.monotonic() < deadline and live.process.poll() is None, live.logged()
            time.sleep(0.1)
        assert "switched off" not in live.logged()
    finally:
        live.stop()


def _fd_targets(live: UnitCommand) -> list[str]:
    folder = f"/proc/{live.process.pid}/fd"
    targets = []
    for fd in os.listdir(folder):
        try:
            targets.append(os.readlink(f"{folder}/{fd}"))
        except OSError:
            pass
    return targets
