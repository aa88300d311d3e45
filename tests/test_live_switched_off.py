"""Switched off, the live page's service holds almost nothing: at boot it starts beside the
app's first frame, so it loads its server (aiohttp, the journal, the drawing) and no pygame
until the settings' switch is turned on. Run the way its unit runs it (`python -m companion.live`)."""

from __future__ import annotations

import os
import shlex
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

    def __init__(self, tmp_path: Path):
        self.config, self.port = tmp_path / "config.toml", free_port()
        self.config.write_text("live = false\n")
        words = shlex.split(settings(UNIT.read_text())["ExecStart"][0])
        words = [sys.executable, *words[1:]]
        words[words.index("--config") + 1] = str(self.config)
        words[words.index("--db") + 1] = str(tmp_path / "journal.sqlite3")
        self.log = tmp_path / "live.log"
        env = dict(os.environ, CLOUD_COMPANION_LIVE_URL_FILE=str(tmp_path / "live-url"))
        with open(self.log, "wb") as out:
            self.process = subprocess.Popen(
                [*words, "--host", HOST, "--port", str(self.port)],
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
        heavy = [name for name in live.libraries() if "aiohttp" in name or "pygame" in name]
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
    finally:
        live.stop()


def test_switched_off_it_ends_cleanly_when_told_to(tmp_path):
    live = UnitCommand(tmp_path)
    live.wait_for("switched off")
    assert live.stop() == 0
    assert "Traceback" not in live.logged(), live.logged()
    with socket.socket() as probe:  # it never listened
        assert probe.connect_ex((HOST, live.port)) != 0
