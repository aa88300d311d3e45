"""A disk that will not write: a clear message, the game goes on in memory, and everything is
saved as soon as writing works again.

The failures are real: SQLite's own refusals (a query-only connection answers "attempt to
write a readonly database", max_page_count answers "database or disk is full"), and, where the
machine lets the tests mount, a tiny tmpfs that runs out of space and a read-only bind mount.
"""

import io
import json
import sqlite3
import subprocess

import pytest

from companion.controller import GameController
from companion.journal import Journal, store
from companion.journal.bench import long_game
from companion.journal.follow import EXIT_UNSAVED, record_replay
from companion.rules.simulate import random_game

MINE = {"game": "cloudmine", "players": ["Ann", "Ben", "Cat", "Dan", "Eve"]}
UNLIMITED_PAGES = 1_073_741_823


class Disk:
    """Every connection the journal opens, and the switches a failing disk would flip."""

    def __init__(self):
        self.read_only = False
        self.full = False
        self.conns: list[sqlite3.Connection] = []

    def connect(self, path, readonly):
        conn = store.connect(path, readonly)
        self.conns.append(conn)
        self._apply(conn)
        return conn

    def set(self, *, read_only=None, full=None):
        self.read_only = self.read_only if read_only is None else read_only
        self.full = self.full if full is None else full
        for conn in self.conns:
            self._apply(conn)

    def _apply(self, conn):
        try:
            conn.execute(f"PRAGMA query_only = {int(self.read_only)}")
            pages = conn.execute("PRAGMA page_count").fetchone()[0]
            conn.execute(f"PRAGMA max_page_count = {pages if self.full else UNLIMITED_PAGES}")
        except sqlite3.ProgrammingError:
            pass  # a connection the journal has closed


def start(tmp_path, disk, actions_before=3):
    journal = Journal.open(tmp_path / "journal.sqlite3", connect=disk.connect)
    controller = GameController(journal)
    controller.new_game(MINE)
    for action in random_game(MINE, seed=1)[:actions_before]:
        controller.submit(action)
    return journal, controller


def test_a_read_only_disk_mid_game_keeps_the_game_going_and_saves_later(tmp_path):
    disk = Disk()
    journal, controller = start(tmp_path, disk)
    heard = []
    controller.subscribe(lambda before, after, action: heard.append(action))
    disk.set(read_only=True)
    more = random_game(MINE, seed=1)[3:9]
    for action in more:
        controller.submit(action)  # no exception: the table plays on
    assert heard == more  # and sees every action
    assert journal.unsaved == 6 and "read-only" in controller.save_problem
    assert str(tmp_path) in controller.save_problem and "saved as soon as" in controller.save_problem
    assert journal.game(controller.game_id.id).actions == 3  # the history still reads
    assert not controller.retry_save()  # still read-only

    disk.set(read_only=False)
    assert controller.retry_save()
    assert journal.unsaved == 0 and controller.save_problem is None
    journal.close()
    with Journal.open(tmp_path / "journal.sqlite3") as again:
        assert again.resume().match.view == controller.match.view
        assert again.stored(controller.game_id.id)[1] == random_game(MINE, seed=1)[:9]


def test_a_full_disk_keeps_the_actions_in_order_until_there_is_room(tmp_path):
    disk = Disk()
    journal, controller = start(tmp_path, disk, actions_before=0)
    disk.set(full=True)
    actions = [action for action, _ in long_game(MINE, 300, seed=2)]  # more than a page holds
    for action in actions:
        controller.submit(action)
    assert journal.unsaved > 0 and "the disk is full" in journal.problem
    saved_while_full = controller.game_id.saved
    assert saved_while_full < len(actions)
    disk.set(full=False)
    # writing works again: the next action takes everything waiting along with it
    controller.undo()
    assert journal.unsaved == 0 and journal.problem is None
    assert journal.stored(controller.game_id.id)[1] == actions + [{"act": "undo"}]
    assert journal.rebuild(controller.game_id.id).view == controller.match.view
    journal.close()


def test_a_journal_that_cannot_be_written_from_the_start_still_resumes(tmp_path):
    path = tmp_path / "journal.sqlite3"
    with Journal.open(path) as journal:
        controller = GameController(journal)
        controller.new_game(MINE)
        for action in random_game(MINE, seed=3)[:4]:
            controller.submit(action)
    disk = Disk()
    disk.set(read_only=True)
    journal = Journal.open(path, connect=disk.connect)
    assert "read-only" in journal.problem
    controller = GameController(journal)
    assert controller.resume().view == journal.rebuild(1).view  # read from a read-only look
    controller.submit(random_game(MINE, seed=3)[4])
    controller.new_game(MINE)  # even a new game waits in memory, setup first
    controller.submit(random_game(MINE, seed=4)[0])
    assert journal.unsaved == 3 and controller.game_id.id is None
    disk.set(read_only=False)
    assert journal.retry()
    assert controller.game_id.id == 2
    assert journal.stored(1)[1] == random_game(MINE, seed=3)[:5]
    assert journal.stored(2)[1] == random_game(MINE, seed=4)[:1]
    assert journal.game(1).status == "abandoned" and journal.offer().game.id == 2
    journal.close()


def test_follow_acknowledges_only_what_is_on_the_disk(tmp_path):
    disk = Disk()
    journal = Journal.open(tmp_path / "journal.sqlite3", connect=disk.connect)
    actions = random_game(MINE, seed=5)[:6]
    lines = [json.dumps(x) + "\n" for x in [MINE, *actions]]

    class Stream(io.BytesIO):
        """The input as it arrives: the disk turns read-only after line 3, back after line 5."""

        count = 0

        def readline(self, *args):
            self.count += 1
            disk.set(read_only=3 <= self.count < 5)
            return super().readline(*args)

    out, err = io.StringIO(), io.StringIO()
    code = record_replay(Stream("".join(lines).encode()), journal, out, err, follow=True)
    printed = [json.loads(x) for x in out.getvalue().splitlines()]
    assert code == 0
    assert printed == [{"ok": n} for n in range(1, 7)]
    assert "read-only" in err.getvalue() and "saving works again" in err.getvalue()
    assert journal.stored(1)[1] == actions
    journal.close()


def test_follow_that_ends_unsaved_says_so_and_exits_5(tmp_path):
    disk = Disk()
    journal = Journal.open(tmp_path / "journal.sqlite3", connect=disk.connect)
    disk.set(full=True, read_only=True)
    game = "".join(json.dumps(x) + "\n" for x in [MINE, *random_game(MINE, seed=6)[:2]])
    out, err = io.StringIO(), io.StringIO()
    assert record_replay(io.BytesIO(game.encode()), journal, out, err, follow=True) == EXIT_UNSAVED
    assert out.getvalue() == ""  # no ok at all
    lines = err.getvalue().splitlines()
    assert all(line.startswith("cloud-companion: ") for line in lines)
    assert sum("goes on" in line for line in lines) == 1  # said once, when saving stopped
    assert lines[-1].endswith("this game was not saved (its setup and 2 action(s))")


def test_a_replay_that_cannot_save_says_so_once_counting_actions_only(tmp_path):
    disk = Disk()
    journal = Journal.open(tmp_path / "journal.sqlite3", connect=disk.connect)
    game = "".join(json.dumps(x) + "\n" for x in [MINE, *random_game(MINE, seed=6)[:3]])
    GameController(journal).new_game(MINE)  # an earlier game is on the disk
    disk.set(read_only=True)
    out, err = io.StringIO(), io.StringIO()
    assert record_replay(io.BytesIO(game.encode()), journal, out, err, follow=False) == EXIT_UNSAVED
    assert json.loads(out.getvalue())["game"] == "cloudmine"
    [line] = err.getvalue().splitlines()  # it exits: no "the game goes on"
    assert line.startswith("cloud-companion: cannot save to ") and "read-only" in line
    assert line.endswith("this game was not saved (its setup and 3 action(s))")
    journal.close()


# --- real filesystems (needs the right to mount, as on the Pi's root or in CI containers) ------


def mount(*args):
    return subprocess.run(["mount", *map(str, args)], capture_output=True, text=True)


@pytest.fixture
def small_disk(tmp_path):
    folder = tmp_path / "small"
    folder.mkdir()
    done = mount("-t", "tmpfs", "-o", "size=1m", "tmpfs", folder)
    if done.returncode:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    yield folder
    subprocess.run(["umount", "-l", str(folder)])


@pytest.fixture
def read_only_view(tmp_path):
    """(a folder, the same folder seen through a read-only bind mount)."""
    source, view = tmp_path / "data", tmp_path / "view"
    source.mkdir()
    view.mkdir()
    done = mount("--bind", source, view)
    if done.returncode:
        pytest.skip(f"cannot bind-mount here: {done.stderr.strip()}")
    if mount("-o", "remount,ro,bind", view).returncode:
        subprocess.run(["umount", "-l", str(view)])
        pytest.skip("cannot make a bind mount read-only here")
    yield source, view
    subprocess.run(["umount", "-l", str(view)])


def fill(folder):
    """Take every free byte of the filesystem; the file that does it."""
    filler = folder / "filler"
    with open(filler, "wb", buffering=0) as f:
        try:
            while True:
                f.write(b"\0" * 4096)
        except OSError:
            pass
    return filler


def test_a_really_full_disk(small_disk):
    journal = Journal.open(small_disk / "journal.sqlite3")
    controller = GameController(journal)
    controller.new_game(MINE)
    filler = fill(small_disk)
    actions = random_game(MINE, seed=7)
    for action in actions:
        controller.submit(action)
    assert journal.unsaved > 0 and journal.problem
    assert controller.match.view["over"]  # the game went on to its end
    filler.unlink()
    assert journal.retry()
    assert journal.stored(1)[1] == actions and journal.game(1).status == "over"
    journal.close()


def test_a_really_read_only_directory(read_only_view):
    source, view = read_only_view
    with Journal.open(source / "journal.sqlite3") as journal:
        GameController(journal).new_game(MINE)
    journal = Journal.open(view / "journal.sqlite3")
    assert "read-only" in journal.problem and str(view) in journal.problem
    controller = GameController(journal)
    controller.resume()
    actions = random_game(MINE, seed=8)[:5]
    for action in actions:
        controller.submit(action)
    assert journal.unsaved == 5
    assert mount("-o", "remount,rw,bind", view).returncode == 0
    assert journal.retry()
    journal.close()
    assert Journal.read(source / "journal.sqlite3").stored(1)[1] == actions
