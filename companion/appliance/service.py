"""The running app as a service: logs to stderr (the systemd journal) at the configured level,
tells systemd when it is ready, alive and stopping, and on a crash logs the traceback with the
last things that happened, so the log explains the restart.
"""

from __future__ import annotations

import collections
import json
import logging
import os
import sys
import time
import traceback
from typing import Any

from .notify import Notifier

LOG = logging.getLogger("cloud-companion")
LAST_ACTIONS = 20  # how many recent actions a crash report shows
# Python's levels as syslog priorities: journald reads a "<N>" prefix on each stderr line
SYSLOG_PRIORITY = {logging.DEBUG: 7, logging.INFO: 6, logging.WARNING: 4, logging.ERROR: 3, logging.CRITICAL: 2}


class JournalFormatter(logging.Formatter):
    """Under systemd (JOURNAL_STREAM set) each line carries its priority; elsewhere a plain
    'cloud-companion: LEVEL: message'."""

    def __init__(self, under_systemd: bool):
        super().__init__()
        self.under_systemd = under_systemd

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        if self.under_systemd:
            prefix = f"<{SYSLOG_PRIORITY.get(record.levelno, 6)}>"
            return "\n".join(prefix + line for line in text.splitlines())
        return f"cloud-companion: {record.levelname.lower()}: {text}"


def setup_logging(level: str = "info", stream=None) -> logging.Logger:
    """Log to stderr at `level` (the config's log_level); calling it again replaces the handler."""
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JournalFormatter(bool(os.environ.get("JOURNAL_STREAM"))))
    root = logging.getLogger()
    for old in [h for h in root.handlers if getattr(h, "_cloud_companion", False)]:
        root.removeHandler(old)
    handler._cloud_companion = True  # type: ignore[attr-defined]
    root.addHandler(handler)
    root.setLevel(getattr(logging, level.upper(), logging.INFO))
    return LOG


def _waited_for_processor() -> float:
    """Seconds the main thread was ready to run but waited on the run queue (0 where the
    kernel does not say: /proc/self/schedstat is Linux's)."""
    try:
        return int(open("/proc/self/schedstat").read().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return 0.0


class Service:
    """What the unit needs from the app: notifications, the watchdog beat, a crash report."""

    def __init__(self, notifier: Notifier | None = None):
        self.notifier = notifier or Notifier()
        self.recent: collections.deque[str] = collections.deque(maxlen=LAST_ACTIONS)

    def started(self, app) -> None:
        """After the first frame: READY, then a WATCHDOG beat from the loop's own timers (a hung
        loop stops beating and systemd restarts it)."""
        app.controller.subscribe(self._remember)
        self.notifier.ready("showing the app")
        if self.notifier.watchdog_s:
            interval = self.notifier.watchdog_s / 3

            def beat():
                self.notifier.watchdog()
                app.after(interval, beat)

            beat()
        # the system log marks each start and stop; a terminal needs no such chatter
        self._level = logging.INFO if self.notifier.active else logging.DEBUG
        # what the start cost (the first frame, then the journal and devices attached), and how
        # long the app stood ready while other work had the processor (the kernel's run-queue
        # wait): what a unit started beside it took from it
        LOG.log(
            self._level,
            "started: ready after %.1f s of processor time, %.1f s waiting for one",
            time.process_time(),
            _waited_for_processor(),
        )

    def stopping(self) -> None:
        self.notifier.stopping()
        LOG.log(getattr(self, "_level", logging.INFO), "stopping")

    def crashed(self) -> None:
        """Call inside `except`: the traceback and the last actions, at critical level."""
        LOG.critical(
            "crashed: %s\nlast actions (oldest first):\n%s",
            traceback.format_exc().rstrip(),
            "\n".join(self.recent) or "  (none)",
        )

    def _remember(self, before: Any, after: Any, action: Any) -> None:
        self.recent.append("  " + json.dumps(action, ensure_ascii=False, default=str))
        LOG.debug("action %s", self.recent[-1].strip())
