"""Home says, in the players' language, when the journal is on an overlay or in memory (raspi-config's
read-only mode): every game would be lost at the next reboot. The detection is doctor's own, read
from /proc/mounts; the app is the real one on SDL's dummy driver."""

from __future__ import annotations

import argparse
import functools
import os
from pathlib import Path

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

from companion.appliance import storage  # noqa: E402
from companion.config import Config  # noqa: E402
from companion.ui.tools.commands import attach_the_rest  # noqa: E402
from companion.ui.tools.harness import Harness  # noqa: E402

SHOTS = os.environ.get("STORAGE_SCREENSHOTS")  # a folder to keep the screenshots in, to look at
NOTICE = {
    "en": "This Pi forgets every game when it is switched off: its card is read-only (raspi-config's overlay file system)",
    "de": "Dieser Pi vergisst beim Ausschalten jedes Spiel: seine Karte ist schreibgeschützt (Overlay-Dateisystem in raspi-config)",
    "hu": "Ez a Pi kikapcsoláskor minden játékot elfelejt: a kártyája csak olvasható (a raspi-config overlay fájlrendszere)",
}


def proc_with(tmp_path: Path, mounts: str) -> Path:
    proc = tmp_path / "proc"
    proc.mkdir(exist_ok=True)
    (proc / "mounts").write_text(mounts)
    return proc


def started(tmp_path, monkeypatch, mounts: str, language="en", size=(800, 480)):
    proc = proc_with(tmp_path, mounts)
    monkeypatch.setattr(storage, "lost_at_reboot", functools.partial(storage.lost_at_reboot, proc=proc))
    config = Config(language=language)
    h = Harness(size, config=config)
    journal = attach_the_rest(h.app, argparse.Namespace(db=tmp_path / "data" / "j.sqlite3"), config, [])
    h.app.pump()
    return h, journal


def closed(h, journal):
    h.app.stick_watcher.close()
    h.app.hardware.close()
    journal.close()


OVERLAY = "overlay / overlay rw,lowerdir=/media/root-ro 0 0\nproc /proc proc rw 0 0\n"


@pytest.mark.parametrize("language", ["en", "de", "hu"])
@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_home_warns_when_the_journal_is_on_an_overlay(tmp_path, monkeypatch, language, size):
    (tmp_path / "data").mkdir()
    h, journal = started(tmp_path, monkeypatch, OVERLAY, language, size)
    try:
        assert h.app.storage_warning == ("/", "overlay")
        notice = h.find("storage-notice")
        assert notice.text == NOTICE[language]
        assert h.overflows() == [] and h.covered() == [] and h.off_canvas() == []
        h.save(Path(SHOTS or tmp_path) / f"home-overlay-{language}-{size[0]}x{size[1]}.png")
        h.tap("game:cloud9")  # only Home says it: a game's screens stay as they are
        assert not h.shows("storage-notice")
    finally:
        closed(h, journal)


def test_home_says_nothing_when_the_journal_has_a_real_disk(tmp_path, monkeypatch):
    (tmp_path / "data").mkdir()
    h, journal = started(tmp_path, monkeypatch, f"overlay / overlay rw 0 0\n/dev/sda2 {tmp_path} ext4 rw 0 0\n")
    try:
        assert h.app.storage_warning is None and not h.shows("storage-notice")
        assert all(text not in h.texts() for text in NOTICE.values())
    finally:
        closed(h, journal)


def test_a_tmpfs_counts_and_unreadable_mounts_claim_nothing(tmp_path):
    folder = tmp_path / "j"
    assert storage.lost_at_reboot(folder, proc_with(tmp_path, f"tmpfs {tmp_path} tmpfs rw 0 0\n")) == (
        str(tmp_path),
        "tmpfs",
    )
    assert storage.lost_at_reboot(folder, tmp_path / "no-proc") is None
