"""`cloud-companion backup` and `restore`: a consistent copy while games are being written, one
self-contained file, checked; a restore keeps the current journal aside and is refused while
the app has the journal; bad input gets one line."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import pytest

from companion.appliance.backup import BackupError, backup, restore, verify
from companion.journal import Journal, JournalBusy
from companion.rules.simulate import random_game
from journaling import MINE, journal_of_games, play


def cli(*args):
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True, text=True, timeout=120)


@pytest.fixture
def journal_path(tmp_path):
    path = tmp_path / "data" / "journal.sqlite3"
    path.parent.mkdir()
    journal_of_games(path, 3)
    return path


def test_a_backup_taken_while_a_game_is_written_is_whole_and_consistent(tmp_path, journal_path):
    stick = tmp_path / "stick"
    stick.mkdir()
    journal = Journal.open(journal_path)  # the app, writing
    stop = threading.Event()

    def keep_playing():
        seed = 100
        while not stop.is_set():
            play(journal, random_game(MINE, seed=seed))
            seed += 1

    writer = threading.Thread(target=keep_playing)
    writer.start()
    try:
        copies = [backup(journal_path, stick) for _ in range(4)]
    finally:
        stop.set()
        writer.join()
        journal.close()
    for copy in copies:
        assert copy.path.parent == stick and copy.path.name.startswith("journal-")
        assert not os.path.exists(f"{copy.path}-wal")  # one self-contained file
        assert sqlite3.connect(copy.path).execute("PRAGMA journal_mode").fetchone()[0] == "delete"
        with Journal.read(copy.path) as saved:
            games = saved.games()
            assert len(games) == copy.games >= 3
            for game in games:  # every game in it rebuilds: no half-written action
                assert saved.rebuild(game.id).view["scores"] == game.scores
    assert len({c.path for c in copies}) == 4  # never one over another
    assert not list(stick.glob("*.partial"))


def test_restore_keeps_the_current_journal_aside(tmp_path, journal_path):
    copy = backup(journal_path, tmp_path)
    with Journal.open(journal_path) as journal:  # more games after the backup
        play(journal, random_game(MINE, seed=9))
    restored, kept = restore(copy.path, journal_path)
    assert restored.games == 3 and kept.name.startswith("journal.sqlite3.before-restore-")
    assert verify(kept) == 4  # nothing lost: the replaced journal is all there
    with Journal.open(journal_path) as journal:
        assert journal.count_games() == 3


def test_restore_is_refused_while_the_app_has_the_journal(tmp_path, journal_path):
    copy = backup(journal_path, tmp_path)
    with Journal.open(journal_path):
        with pytest.raises(JournalBusy):
            restore(copy.path, journal_path)
        result = cli("restore", str(copy.path), "--db", str(journal_path))
    assert result.returncode == 4 and "systemctl stop cloud-companion" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert not list(journal_path.parent.glob("*.before-restore-*"))
    assert verify(journal_path) == 3


@pytest.mark.parametrize(
    "content,words",
    [
        (b"not a database at all" * 100, "cannot be read as a journal"),
        (None, "an empty database"),
    ],
)
def test_a_file_that_is_no_journal_is_never_restored(tmp_path, journal_path, content, words):
    bad = tmp_path / "bad.sqlite3"
    if content is None:
        sqlite3.connect(bad).execute("PRAGMA user_version = 0").close()
        bad.touch()
    else:
        bad.write_bytes(content)
    with pytest.raises(BackupError, match=words):
        restore(bad, journal_path)
    assert verify(journal_path) == 3 and not list(journal_path.parent.glob("*.before-restore-*"))


def test_the_commands_answer_in_one_line(tmp_path, journal_path):
    done = cli("backup", str(tmp_path), "--db", str(journal_path))
    assert done.returncode == 0 and done.stdout.startswith("backed up 3 games to ")
    missing = cli("backup", str(tmp_path / "no-stick"), "--db", str(journal_path))
    assert missing.returncode == 1 and "is not a folder (is the USB stick mounted?)" in missing.stderr
    nothing = cli("backup", str(tmp_path), "--db", str(tmp_path / "none.sqlite3"))
    assert nothing.returncode == 1 and "there is no journal at" in nothing.stderr
    gone = cli("restore", str(tmp_path / "none.sqlite3"), "--db", str(journal_path))
    assert gone.returncode == 1 and "there is no backup file" in gone.stderr
    for result in (missing, nothing, gone):
        assert "Traceback" not in result.stderr and len(result.stderr.strip().splitlines()) == 1
    copy = next(tmp_path.glob("journal-*.sqlite3"))
    back = cli("restore", str(copy), "--db", str(journal_path))
    assert back.returncode == 0 and "restored 3 games" in back.stdout and "before-restore" in back.stdout


def test_a_restore_into_a_place_with_no_journal_yet(tmp_path, journal_path):
    copy = backup(journal_path, tmp_path)
    fresh = tmp_path / "new"
    fresh.mkdir()
    restored, kept = restore(copy.path, fresh / "journal.sqlite3")
    assert kept is None and verify(fresh / "journal.sqlite3") == 3


def test_a_restore_onto_a_fresh_machine_makes_the_default_journal_folder(tmp_path, journal_path):
    copy = backup(journal_path, tmp_path)
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "xdg")}
    run = subprocess.run(
        [sys.executable, "-m", "companion", "restore", str(copy.path)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert verify(tmp_path / "xdg" / "cloud-companion" / "journal.sqlite3") == 3


def test_a_restore_onto_a_folder_or_into_a_missing_folder_is_refused_and_changes_nothing(tmp_path, journal_path):
    copy = backup(journal_path, tmp_path / "data")
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "keep.txt").write_text("mine")
    onto_folder = cli("restore", str(copy.path), "--db", str(folder))
    assert onto_folder.returncode == 1 and "is a folder" in onto_folder.stderr
    assert [p.name for p in folder.iterdir()] == ["keep.txt"] and not list(tmp_path.glob("games.*"))
    missing = tmp_path / "missing" / "dir" / "j.sqlite3"
    into_missing = cli("restore", str(copy.path), "--db", str(missing))
    assert into_missing.returncode == 1 and "there is no folder" in into_missing.stderr
    assert not (tmp_path / "missing").exists()
    for run in (onto_folder, into_missing):
        assert run.stderr.startswith("cloud-companion: ") and run.stderr.count("\n") == 1


def unwritable_folder(tmp_path):
    """A folder no file can be made in: read-only for a user; root writes anywhere but /sys."""
    if os.geteuid() == 0:
        return "/sys"
    folder = tempfile.mkdtemp(prefix="read-only-", dir=tmp_path)  # a new one each call
    os.chmod(folder, 0o555)
    return folder


def test_backup_and_restore_onto_places_that_cannot_be_written_answer_in_one_line(tmp_path, journal_path):
    copy = backup(journal_path, tmp_path)
    runs = {
        "backup read-only": cli("backup", unwritable_folder(tmp_path), "--db", str(journal_path)),
        "backup proc": cli("backup", "/proc", "--db", str(journal_path)),
        "restore read-only": cli("restore", str(copy.path), "--db", unwritable_folder(tmp_path) + "/j.sqlite3"),
        "restore proc": cli("restore", str(copy.path), "--db", "/proc/journal.sqlite3"),
    }
    for what, run in runs.items():
        assert run.returncode == 1, (what, run.stderr)
        assert run.stderr.startswith("cloud-companion: cannot write") and run.stderr.count("\n") == 1, (
            what,
            run.stderr,
        )
        assert "No such file" not in run.stderr


def test_backup_of_a_file_that_is_not_a_journal_says_so_like_every_command(tmp_path):
    text = tmp_path / "notajournal.txt"
    text.write_text("shopping list\n" * 100)
    run = cli("backup", str(tmp_path), "--db", str(text))
    assert (
        run.returncode == 1
        and run.stderr == f"cloud-companion: {text} is not a journal (it is not an SQLite database)\n"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notajournal.txt"]


def test_backup_leaves_nothing_beside_an_idle_journal(tmp_path, journal_path):
    before = sorted(p.name for p in journal_path.parent.iterdir())
    run = cli("backup", str(tmp_path), "--db", str(journal_path))
    assert run.returncode == 0, run.stderr
    assert sorted(p.name for p in journal_path.parent.iterdir()) == before  # no -wal, no -shm


def as_nobody(*args, cwd=None):
    """The command run by a real unprivileged user, as the Pi's wrapper runs it as the service user."""
    return subprocess.run(
        [
            "setpriv",
            "--reuid",
            "nobody",
            "--regid",
            "nogroup",
            "--clear-groups",
            sys.executable,
            "-m",
            "companion",
            *args,
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=cwd,
        env={**os.environ, "HOME": "/nonexistent"},
    )


@pytest.fixture
def open_to_all(tmp_path):
    """A journal every user can read, in a folder only root can write."""
    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        pytest.skip("needs root and setpriv to run the command as another user")
    folder = Path(tempfile.mkdtemp(prefix="cc-shared-"))
    folder.chmod(0o755)
    journal_of_games(folder / "journal.sqlite3", 2)
    (folder / "journal.sqlite3").chmod(0o644)
    yield folder
    shutil.rmtree(folder)


def test_a_folder_the_running_user_cannot_write_is_named_with_the_user_in_one_line(open_to_all):
    journal = str(open_to_all / "journal.sqlite3")
    closed = open_to_all / "root-only"
    closed.mkdir(mode=0o755)
    runs = {
        "backup": as_nobody("backup", str(closed), "--db", journal),
        "export": as_nobody("export", "--all", "--out", "backup/", "--db", journal, cwd=closed),
        "export deeper": as_nobody("export", "--all", "--out", str(closed / "a" / "b"), "--db", journal),
    }
    for what, run in runs.items():
        assert run.returncode == 1, (what, run.stdout, run.stderr)
        assert run.stderr.startswith("cloud-companion: cannot write") and run.stderr.count("\n") == 1, (
            what,
            run.stderr,
        )
        assert "the user nobody cannot write in" in run.stderr, (what, run.stderr)
        assert "unable to open database" not in run.stderr and "Traceback" not in run.stderr
    assert list(closed.iterdir()) == []


def test_a_home_folder_closed_to_the_user_is_named_too(open_to_all):
    home = open_to_all / "home-pi"
    home.mkdir(mode=0o700)  # Bookworm's home folders: the service user cannot even look in
    run = as_nobody("export", "--all", "--out", "backup/", "--db", str(open_to_all / "journal.sqlite3"), cwd=home)
    assert run.returncode == 1 and run.stderr.count("\n") == 1, run.stderr
    assert "the user nobody cannot write in" in run.stderr and "Traceback" not in run.stderr


def test_the_service_user_is_told_of_a_folder_it_can_write():
    from companion.whose import cannot_write

    line = cannot_write(Path("/home/pi"), name="cloud-companion", home="/var/lib/cloud-companion")
    assert "the service user cloud-companion" in line and "/var/lib/cloud-companion/exports" in line
    assert "the user alice cannot write in /srv" in cannot_write(Path("/srv"), name="alice")
    # backup makes no folder (a stick not mounted must not be written onto the SD card): offer one there
    line = cannot_write(Path("/root"), name="cloud-companion", home="/var/lib/cloud-companion", made=False)
    assert line.endswith("a USB stick under /media or /var/lib/cloud-companion")


def test_a_backup_holds_the_settings_and_a_restore_puts_them_back_the_old_kept(tmp_path, journal_path):
    config = tmp_path / "etc" / "config.toml"
    config.parent.mkdir()
    config.write_text('language = "de"\n')
    stick = tmp_path / "stick"
    stick.mkdir()
    run = cli("backup", str(stick), "--db", str(journal_path), "--config", str(config))
    assert run.returncode == 0, run.stderr
    [saved] = stick.glob("journal-*.config.toml")
    [copy] = stick.glob("journal-*.sqlite3")
    assert saved.read_text() == 'language = "de"\n' and saved.name == copy.name.replace(".sqlite3", ".config.toml")
    assert f"and the settings to {saved}" in run.stdout
    config.write_text('language = "hu"\n')  # changed since
    run = cli("restore", str(copy), "--db", str(journal_path), "--config", str(config))
    assert run.returncode == 0, run.stderr
    assert config.read_text() == 'language = "de"\n'
    [kept] = config.parent.glob("config.toml.before-restore-*")
    assert kept.read_text() == 'language = "hu"\n'
    assert f"and the settings into {config}" in run.stdout


def test_a_backup_without_settings_restores_the_games_and_leaves_the_settings(tmp_path, journal_path):
    config = tmp_path / "config.toml"
    stick = tmp_path / "stick"
    stick.mkdir()
    copied = backup(journal_path, stick, settings=config)  # no settings file yet: none copied
    assert copied.settings is None and list(stick.iterdir()) == [copied.path]
    config.write_text('language = "hu"\n')
    run = cli("restore", str(copied.path), "--db", str(journal_path), "--config", str(config))
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip().endswith("the backup holds no settings: the current settings stay")
    assert config.read_text() == 'language = "hu"\n' and list(tmp_path.glob("config.toml.*")) == []


def test_settings_in_a_backup_that_are_no_settings_stop_the_restore_before_anything_changes(tmp_path, journal_path):
    config = tmp_path / "config.toml"
    config.write_text('language = "hu"\n')
    stick = tmp_path / "stick"
    stick.mkdir()
    copied = backup(journal_path, stick, settings=config)
    copied.settings.write_bytes(b"\xff not toml [")
    before = journal_path.read_bytes()
    with pytest.raises(BackupError, match="is not a settings file"):
        restore(copied.path, journal_path, settings=config)
    assert journal_path.read_bytes() == before and config.read_text() == 'language = "hu"\n'


def test_a_restore_onto_a_fresh_machine_makes_the_default_settings_folder(tmp_path, journal_path, monkeypatch):
    from companion import config as settings

    config = tmp_path / "config.toml"
    config.write_text('language = "de"\n')
    copied = backup(journal_path, tmp_path, settings=config)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "fresh"))
    target = settings.default_path()
    assert not target.parent.exists()
    restored, _ = restore(copied.path, journal_path, settings=target)
    assert restored.settings == target and target.read_text() == 'language = "de"\n'
    with pytest.raises(BackupError, match="there is no folder"):  # any other missing folder: refused
        restore(copied.path, journal_path, settings=tmp_path / "missing" / "config.toml")
