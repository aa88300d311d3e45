"""Settings > Shut down on the Pi: offered only under systemd, asks first, says when to unplug,
leaves the loop so the journal is closed, and only then powers off."""

from __future__ import annotations

import os

import pytest

from companion import i18n
from companion.appliance import power
from companion.config import Config
from companion.ui.screens.settings import SettingsScreen
from companion.ui.tools.harness import Harness

SIZES = [(800, 480), (720, 1280)]


@pytest.fixture
def under_systemd(monkeypatch, tmp_path):
    """As the service: systemd's INVOCATION_ID, and a systemctl first on the PATH. It is a
    stand-in that refuses, so a machine without systemd runs these tests too, and no test can
    switch off the machine it runs on."""
    monkeypatch.setenv("INVOCATION_ID", "0123456789abcdef")
    tools = tmp_path / "tools"
    tools.mkdir()
    systemctl = tools / "systemctl"
    systemctl.write_text("#!/bin/sh\necho 'a stand-in: the tests never power off' >&2\nexit 1\n")
    systemctl.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tools}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setattr(power, "_requested", False)
    yield
    i18n.set_language("en")


def settings_screen(size=(800, 480), language="en") -> Harness:
    h = Harness(size, config=Config(language=language))
    h.app.show(SettingsScreen(h.app))
    h.app.pump()
    h.tap("settings:more")  # the power is on Settings' second page
    return h


def test_a_desktop_gets_no_shut_down(monkeypatch):
    monkeypatch.delenv("INVOCATION_ID", raising=False)
    assert not settings_screen().shows("shut-down")


def test_shut_down_asks_then_says_when_to_unplug_and_leaves_the_loop(under_systemd):
    h = settings_screen()
    h.tap("shut-down")
    assert h.app.dialog is not None and h.app.dialog.title == "Shut down?" and h.app.running
    h.tap("Cancel")
    assert h.app.dialog is None and not power.requested()
    h.tap("shut-down")
    h.tap("dialog:Shut down")
    assert power.requested() and h.app.dialog.title == "Shutting down"
    assert "green light" in h.app.dialog.message and h.app.running  # the message is drawn first
    h.app.after(0.5, lambda: None)
    for _ in range(100):
        if not h.app.running:
            break
        h.app.wait()
        h.app.pump()
    assert not h.app.running  # cmd_run then closes the journal and calls power.power_off()


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("language", ["en", "de", "hu"])
def test_the_settings_with_shut_down_fit(under_systemd, size, language, tmp_path):
    h = settings_screen(size, language)
    assert h.overflows() == [] and h.small_targets() == [] and h.off_canvas() == []
    h.save(tmp_path / f"settings-{language}-{size[0]}x{size[1]}.png")
    h.tap("shut-down")
    assert h.overflows() == []


def test_power_off_reports_a_refusal_and_succeeds_when_allowed(caplog):
    assert power.power_off(("true",)) is True
    assert power.power_off(("sh", "-c", "echo 'Access denied' >&2; exit 1")) is False
    assert "could not power off: Access denied (is the polkit rule installed?" in caplog.text
    assert power.power_off(("/nonexistent/systemctl",)) is False
