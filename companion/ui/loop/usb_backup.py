"""The app offers a backup when a USB stick appears (companion.appliance.usb notices it); the
copy runs on its own thread, so play goes on meanwhile."""

from __future__ import annotations

import threading
from pathlib import Path

from ... import i18n
from ...appliance.backup import BackupError, backup
from ...appliance.usb import StickWatcher
from ..kit.widgets import Dialog, DialogButton

_ = i18n.translator("app")
RETRY_S = 2.0  # another question is open: ask once it is answered


def watch_for_sticks(app, journal_path: Path, known: set[Path] | None = None, **options) -> StickWatcher:
    """Offer a backup onto each stick mounted from now on, or since `known` was read."""
    return StickWatcher(lambda mount: app.call_soon(lambda: offer_backup(app, mount, journal_path)), **options).start(
        known
    )


def offer_backup(app, mount: Path, journal_path: Path) -> None:
    if app.dialog is not None:
        app.after(RETRY_S, lambda: offer_backup(app, mount, journal_path))
        return

    def go():
        app.close_dialog()
        app.toast(_("Backing up every game to {name} ...").format(name=mount.name), seconds=60)
        threading.Thread(target=copy, daemon=True, name="backup").start()

    def copy():
        try:
            done = backup(journal_path, mount, settings=getattr(app, "config_path", None))
            text = _("Backed up {count} games to {name}. You can take the stick out.").format(
                count=done.games, name=mount.name
            )
        except BackupError as exc:
            text = _("The backup did not work: {error}").format(error=exc)
        app.call_soon(lambda: app.toast(text, seconds=10))

    app.ask(
        Dialog(
            _("USB stick found"),
            _("Copy every game onto it ({name})? Play can go on meanwhile.").format(name=mount.name),
            [DialogButton(_("Not now"), app.close_dialog, "secondary"), DialogButton(_("Back up"), go, "primary")],
        )
    )
