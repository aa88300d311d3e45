"""The app as a systemd service: sd_notify over a real datagram socket, the watchdog beat from
the running loop, logging at the configured level, and a crash report with the last actions."""

from __future__ import annotations

import io
import logging
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

import pytest

from companion.appliance.notify import Notifier
from companion.appliance.service import Service, setup_logging


@pytest.fixture
def notify_socket():
    """A bound datagram socket like systemd's (in a short directory: AF_UNIX paths are short)."""
    folder = tempfile.mkdtemp(prefix="notify-")
    path = os.path.join(folder, "sock")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(10)
    yield sock, path
    sock.close()
    shutil.rmtree(folder)


def received(sock, until: str, timeout: float = 20) -> list[str]:
    messages: list[str] = []
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            messages.append(sock.recv(4096).decode())
        except TimeoutError:
            break
        if until in messages[-1]:
            break
    return messages


def test_notifications_reach_the_socket(notify_socket):
    sock, path = notify_socket
    notifier = Notifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "3000000"})
    assert notifier.active and notifier.watchdog_s == 3.0
    assert notifier.ready("showing the app") and notifier.watchdog() and notifier.stopping()
    assert [sock.recv(100) for _ in range(3)] == [b"READY=1\nSTATUS=showing the app", b"WATCHDOG=1", b"STOPPING=1"]


def test_the_abstract_namespace_is_understood():
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    name = f"cloud-companion-test-{os.getpid()}"
    sock.bind("\0" + name)
    try:
        assert Notifier({"NOTIFY_SOCKET": "@" + name}).watchdog()
        assert sock.recv(100) == b"WATCHDOG=1"
    finally:
        sock.close()


def test_outside_systemd_nothing_is_sent_and_nothing_breaks(tmp_path):
    assert not Notifier({}).active and Notifier({}).ready() is False
    assert Notifier({"NOTIFY_SOCKET": str(tmp_path / "gone")}).ready() is False  # systemd went away
    assert Notifier({"WATCHDOG_USEC": "5000000", "WATCHDOG_PID": "1"}).watchdog_s is None  # not ours


def test_the_running_app_says_ready_beats_and_stops_on_sigterm(notify_socket, tmp_path):
    sock, path = notify_socket
    env = {
        **os.environ,
        "SDL_VIDEODRIVER": "dummy",
        "SDL_AUDIODRIVER": "dummy",
        "NOTIFY_SOCKET": path,
        "WATCHDOG_USEC": "300000",
    }
    app = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "companion",
            "run",
            "--windowed",
            "--db",
            str(tmp_path / "j.sqlite3"),
            "--config",
            str(tmp_path / "c.toml"),
        ],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        first = received(sock, "READY=1")
        assert first and first[-1].startswith("READY=1")
        beats = received(sock, "never", timeout=0.8)
        assert beats.count("WATCHDOG=1") >= 3  # every 0.1 s while the loop runs
        app.send_signal(signal.SIGTERM)  # what `systemctl stop` does
        assert "STOPPING=1" in received(sock, "STOPPING=1")
        assert app.wait(20) == 0
    finally:
        app.kill()
        log = app.communicate()[1]
    # the log says what the start cost, in the app's processor time
    assert re.search(r"started: ready after \d+\.\d s of processor time, \d+\.\d s waiting for one", log), log


def test_a_crash_logs_the_traceback_and_the_last_actions():
    from companion.controller import GameController

    class App:  # the two things Service uses of the app
        controller = GameController()

        def after(self, seconds, fn):
            pass

    stream = io.StringIO()
    setup_logging("info", stream)
    service = Service(Notifier({}))
    app = App()
    service.started(app)
    app.controller.new_game({"game": "cloudmine", "players": ["Ann", "Ben", "Cat", "Dan"]})
    app.controller.submit({"act": "guess", "player": "Ben", "correct": False})
    try:
        raise ZeroDivisionError("a bug in a screen")
    except ZeroDivisionError:
        service.crashed()
    log = stream.getvalue()
    assert "critical: crashed: Traceback" in log and "ZeroDivisionError: a bug in a screen" in log
    assert '{"act": "guess", "player": "Ben", "correct": false}' in log.split("last actions")[1]


def test_the_log_level_comes_from_the_config_and_journald_gets_priorities(monkeypatch):
    stream = io.StringIO()
    setup_logging("warning", stream)
    logging.getLogger("cloud-companion").info("hidden")
    logging.getLogger("cloud-companion").warning("shown")
    assert stream.getvalue() == "cloud-companion: warning: shown\n"
    monkeypatch.setenv("JOURNAL_STREAM", "8:1234")
    stream = io.StringIO()
    setup_logging("debug", stream)
    logging.getLogger("cloud-companion").debug("two\nlines")
    assert stream.getvalue() == "<7>two\n<7>lines\n"
    setup_logging("info")


def first_frame(tmp_path, config) -> subprocess.CompletedProcess:
    """The app run headless to its first frame with `config`, its output kept."""
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "companion",
            "run",
            "--windowed",
            "--first-frame-exit",
            "--db",
            str(tmp_path / "j.sqlite3"),
            "--config",
            str(config),
        ],
        env={**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_run_with_a_config_directory_keeps_it_and_says_so_on_stderr(tmp_path):
    folder = tmp_path / "settings"
    (folder / "mine.txt").parent.mkdir()
    (folder / "mine.txt").write_text("keep me")
    result = first_frame(tmp_path, folder)
    assert result.returncode == 0, result.stderr
    assert f"warning: the settings file {folder} is a directory" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith("j.")) == ["settings"]
    assert (folder / "mine.txt").read_text() == "keep me"


def test_run_names_a_bad_value_on_stderr_and_starts(tmp_path):
    path = tmp_path / "c.toml"
    path.write_text('language = "de"\nvolume = 7\n')
    result = first_frame(tmp_path, path)
    assert result.returncode == 0
    assert f"warning: {path}: volume: must be a number from 0.0 to 1.0, not 7; using the default" in result.stderr
    assert path.read_text() == 'language = "de"\nvolume = 7\n'


def test_settings_problems_show_on_screen_short_and_counted(tmp_path):
    import argparse

    from companion import config as settings
    from companion.ui.tools.commands import attach_the_rest, settings_notices
    from companion.ui.tools.harness import Harness

    path = tmp_path / "c.toml"
    path.write_text("volume = 7\ncolour = 1\n")
    config, problems = settings.load(path)
    on_screen = settings_notices(problems, path)
    for size in ((800, 480), (720, 1280)):
        h = Harness(size, config=config)
        journal = attach_the_rest(
            h.app, argparse.Namespace(db=tmp_path / f"j{size[0]}.sqlite3"), config, list(on_screen)
        )
        try:
            h.app.pump()
            assert h.app.toast_text == (
                "Settings: volume: must be a number from 0.0 to 1.0, not 7; using the default (and 1 more in the log)"
            )
            assert h.overflows() == []
        finally:
            h.app.stick_watcher.close()
            h.app.hardware.close()
            journal.close()
