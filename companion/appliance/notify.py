"""sd_notify: tell systemd the app is up (READY), alive (WATCHDOG) and going (STOPPING).

The protocol is one datagram of text to the AF_UNIX socket named in $NOTIFY_SOCKET (a leading
"@" means the abstract namespace). Outside systemd the variable is unset and every call does
nothing, so the app runs the same on a desktop.
"""

from __future__ import annotations

import os
import socket


class Notifier:
    def __init__(self, environ: dict[str, str] | None = None):
        env = os.environ if environ is None else environ
        address = env.get("NOTIFY_SOCKET", "")
        if address.startswith("@"):
            address = "\0" + address[1:]
        self.address = address or None
        self.watchdog_s = _watchdog_seconds(env)

    @property
    def active(self) -> bool:
        return self.address is not None

    def send(self, message: str) -> bool:
        """One notification; False when there is no systemd to tell (or it cannot be told)."""
        if self.address is None:
            return False
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
                sock.connect(self.address)
                sock.sendall(message.encode())
            return True
        except OSError:
            return False  # systemd went away (shutdown): the app goes on

    def ready(self, status: str = "") -> bool:
        return self.send("READY=1" + (f"\nSTATUS={status}" if status else ""))

    def watchdog(self) -> bool:
        return self.send("WATCHDOG=1")

    def stopping(self) -> bool:
        return self.send("STOPPING=1")

    def status(self, text: str) -> bool:
        return self.send(f"STATUS={text}")


def _watchdog_seconds(env) -> float | None:
    """WatchdogSec= of the unit, when it is meant for this process."""
    try:
        usec = int(env.get("WATCHDOG_USEC", ""))
    except ValueError:
        return None
    pid = env.get("WATCHDOG_PID")
    if pid and pid != str(os.getpid()):
        return None
    return usec / 1_000_000 if usec > 0 else None
