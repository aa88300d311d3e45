"""Shut the Pi down from the screen: the app closes the journal first, then asks logind to power
off (systemctl poweroff; the polkit rule in systemd/ lets the service user do that one thing).

Offered only when the app runs as the systemd service: on a desktop, "Shut down" would switch
off somebody's computer.
"""

from __future__ import annotations

import logging
import os
import shutil
import subprocess

log = logging.getLogger("cloud-companion")
POWER_OFF = ("systemctl", "poweroff", "--no-ask-password")
_requested = False


def available(environ=None) -> bool:
    """True under systemd as a service (it sets INVOCATION_ID) with systemctl at hand."""
    env = os.environ if environ is None else environ
    return bool(env.get("INVOCATION_ID")) and shutil.which(POWER_OFF[0]) is not None


def request() -> None:
    """The screen asked: power off once the app has closed the journal."""
    global _requested
    _requested = True


def requested() -> bool:
    return _requested


def power_off(command: tuple[str, ...] = POWER_OFF) -> bool:
    """Ask for the power-off (after the journal is closed). False, logged, when it was refused:
    the app then exits with an error, and systemd starts it again."""
    try:
        result = subprocess.run(list(command), capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired) as exc:
        log.error("could not power off: %s", exc)
        return False
    if result.returncode != 0:
        log.error(
            "could not power off: %s (is the polkit rule installed? sudo make install-pi)",
            result.stderr.strip() or f"exit {result.returncode}",
        )
        return False
    log.info("powering off")
    return True
