"""A USB stick appearing: noticed from the kernel's mount-table event (a real tmpfs mount when
the machine allows mounting), without polling; the app offers a backup and makes it while play
goes on."""

from __future__ import annotations

import subprocess
import threading
import time
from pathlib import Path

import pytest

from companion.appliance.usb import StickWatcher, stick_mounts
from companion.ui.loop.usb_backup import offer_backup
from companion.ui.tools.harness import Harness
from journaling import journal_of_games

MOUNTS = """/dev/mmcblk0p2 / ext4 rw,noatime 0 0
/dev/sda1 /media/pi/FAMILY\\040STICK vfat rw,nosuid,nodev,relatime,uid=1000 0 0
/dev/sdb1 /media/cloud-companion-sdb1 exfat rw,relatime 0 0
/dev/sdc1 /run/media/ann/OLD vfat ro,relatime 0 0
/dev/sdd1 /mnt/elsewhere vfat rw 0 0
tmpfs /media tmpfs rw 0 0
"""


def test_writable_sticks_below_the_media_folders_are_found():
    assert stick_mounts(MOUNTS) == {Path("/media/pi/FAMILY STICK"), Path("/media/cloud-companion-sdb1")}


def mount_tmpfs(where: Path) -> bool:
    where.mkdir(parents=True, exist_ok=True)
    return (
        subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "stick", str(where)], capture_output=True).returncode
        == 0
    )


def test_a_stick_mounted_later_is_reported_and_the_wait_costs_nothing(tmp_path):
    media = tmp_path / "media"
    stick = media / "STICK"
    seen: list[Path] = []
    arrived = threading.Event()
    watcher = StickWatcher(lambda p: (seen.append(p), arrived.set()), roots=[media]).start()
    try:
        cpu = time.process_time()
        time.sleep(0.5)
        assert time.process_time() - cpu < 0.05  # asleep in poll(), not looping
        if not mount_tmpfs(stick):
            pytest.skip("this machine does not allow mounting")
        try:
            assert arrived.wait(10) and seen == [stick]
        finally:
            subprocess.run(["umount", str(stick)], check=True)
    finally:
        watcher.close()


def test_the_app_offers_a_backup_and_makes_it_while_play_goes_on(tmp_path):
    journal_path = tmp_path / "journal.sqlite3"
    journal_of_games(journal_path, 2)
    stick = tmp_path / "STICK"
    stick.mkdir()
    h = Harness()
    h.app.config_path = tmp_path / "config.toml"
    h.app.config_path.write_text('language = "de"\n')
    offer_backup(h.app, stick, journal_path)
    assert h.app.dialog.title == "USB stick found" and "STICK" in h.app.dialog.message
    h.tap("dialog:Back up")
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and not (h.app.toast_text or "").startswith("Backed up"):
        h.app.wait()
        h.app.pump()
    assert h.app.toast_text == "Backed up 2 games to STICK. You can take the stick out."
    assert len(list(stick.glob("journal-*.sqlite3"))) == 1
    [settings] = stick.glob("journal-*.config.toml")  # the settings in use go with the games
    assert settings.read_text() == 'language = "de"\n'


def test_a_stick_that_fails_says_why_and_not_now_does_nothing(tmp_path):
    h = Harness()
    offer_backup(h.app, tmp_path / "gone", tmp_path / "journal.sqlite3")
    h.tap("dialog:Not now")
    assert h.app.dialog is None and h.app.toast_text is None
    offer_backup(h.app, tmp_path / "gone", tmp_path / "journal.sqlite3")
    h.tap("dialog:Back up")
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline and not (h.app.toast_text or "").startswith("The backup"):
        h.app.wait()
        h.app.pump()
    assert h.app.toast_text.startswith("The backup did not work: there is no journal at")


def test_a_stick_put_in_between_the_apps_first_frame_and_its_watch_is_offered_and_one_from_before_not(tmp_path):
    # the app reads the sticks in as its first frame is up, then starts the rest (the journal, the
    # sounds, the buttons: seconds on a slow Pi) and only then watches: a stick put in meanwhile
    # is offered all the same
    from companion.appliance.usb import sticks_now

    media = tmp_path / "media"
    table = tmp_path / "mounts"
    before, meanwhile = media / "OLD", media / "NEW"
    table.write_text(f"/dev/sda1 {before} vfat rw 0 0\n")
    known = sticks_now([media], table)
    assert known == {before}
    table.write_text(f"/dev/sda1 {before} vfat rw 0 0\n/dev/sdb1 {meanwhile} exfat rw 0 0\n")
    seen: list[Path] = []
    arrived = threading.Event()
    watcher = StickWatcher(lambda p: (seen.append(p), arrived.set()), roots=[media], mounts=table).start(known)
    try:
        assert arrived.wait(10) and seen == [meanwhile]
    finally:
        watcher.close()
    # started without what was read before, it offers only what comes after it
    quiet = StickWatcher(seen.append, roots=[media], mounts=table).start()
    time.sleep(0.3)
    quiet.close()
    assert seen == [meanwhile]
    assert sticks_now([media], tmp_path / "no-such-table") == set()
