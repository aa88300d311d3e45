"""The live page's inotify watch: it hears the app's commits and the settings being saved, folds a
burst into one call, waits for a folder that does not exist yet, and never hears its own reads."""

from __future__ import annotations

import asyncio

from companion.journal import Journal
from companion.live.events import FolderWatch, Hub
from companion.live.reader import ReadOnlyJournal
from companion.rules import Match

MINE = {"game": "cloudmine", "players": ["Ann", "Ben", "Cat", "Dan"]}


def run(scenario):
    return asyncio.run(scenario())


def test_a_commit_is_heard_once_and_reading_is_never_heard(tmp_path):
    db = tmp_path / "journal.sqlite3"
    journal = Journal.open(db)
    match = Match.start(MINE)
    ref = journal.begin(match)
    reader = ReadOnlyJournal(db)

    async def scenario():
        calls = []
        watch = FolderWatch(asyncio.get_running_loop(), [db], lambda: (calls.append(1), reader.look()), debounce=0.02)
        try:
            await asyncio.sleep(0.2)
            assert calls == []
            action = {"act": "guess", "player": "Ben", "correct": True}
            after = match.apply(action)
            journal.append(ref, action, after)  # one commit: several writes to the -wal file
            await asyncio.sleep(0.5)
            assert len(calls) == 1  # one call for the commit, none for the look it made (-shm)
            for _ in range(5):
                reader.look()
            await asyncio.sleep(0.3)
            assert len(calls) == 1
        finally:
            watch.close()

    run(scenario)
    journal.close()


def test_the_settings_saved_by_rename_are_heard_and_other_files_are_not(tmp_path):
    config = tmp_path / "config.toml"

    async def scenario():
        calls = []
        watch = FolderWatch(asyncio.get_running_loop(), [config], lambda: calls.append(1), debounce=0.02)
        try:
            (tmp_path / "unrelated.txt").write_text("x")
            await asyncio.sleep(0.2)
            assert calls == []
            tmp = tmp_path / "config.toml.tmp"
            tmp.write_text("live = true\n")
            tmp.rename(config)  # as config.save writes it
            await asyncio.sleep(0.3)
            assert calls == [1]
        finally:
            watch.close()

    run(scenario)


def test_a_folder_made_later_is_watched_once_it_exists(tmp_path):
    db = tmp_path / "data" / "cloud-companion" / "journal.sqlite3"

    async def scenario():
        calls = []
        watch = FolderWatch(asyncio.get_running_loop(), [db], lambda: calls.append(1), debounce=0.02)
        try:
            db.parent.mkdir(parents=True)
            await asyncio.sleep(0.2)
            calls.clear()
            with Journal.open(db) as journal:
                journal.begin(Match.start(MINE))
            await asyncio.sleep(0.3)
            assert calls  # the journal's first game, heard in a folder that did not exist at the start
        finally:
            watch.close()

    run(scenario)


def test_a_viewer_that_falls_behind_is_dropped_and_the_others_keep_every_message():
    async def scenario():
        hub = Hub(cap=3)
        slow, quick = hub.join(), hub.join()
        cut = []
        slow.on_drop = lambda: cut.append("slow")
        for n in range(10):
            hub.publish(b"%d" % n)
            while not quick.queue.empty():
                await quick.queue.get()
        assert slow.dropped.is_set() and cut == ["slow"] and slow not in hub.viewers
        assert quick in hub.viewers and hub.dropped_count == 1
        assert hub.join() is not None and hub.join() is not None and hub.join() is None  # the cap

    run(scenario)


def test_a_commit_heard_before_it_can_be_read_is_read_again_shortly(tmp_path, monkeypatch):
    """The writer held up between its -wal and its index: the first read after the change still
    sees the old game. The page reads once more a little later, and shows the action then."""
    import socket

    from companion.live import server as live

    db = tmp_path / "journal.sqlite3"
    journal = Journal.open(db)
    match = Match.start(MINE)
    ref = journal.begin(match)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]

    async def scenario():
        server = live.LiveServer(live.Options(db=db, config=None, host="127.0.0.1", port=port, always=True))
        published: list[bytes] = []
        publish = server.hub.publish
        monkeypatch.setattr(server.hub, "publish", lambda message: (published.append(message), publish(message)))
        await server.start()
        try:
            await asyncio.sleep(0.3)
            started = len(published)
            stale = server.journal.look()  # what a read that comes too early still sees
            look = server.journal.look
            calls = []

            def early_then_true():
                calls.append(1)
                return stale if len(calls) == 1 else look()

            monkeypatch.setattr(server.journal, "look", early_then_true)
            action = {"act": "guess", "player": "Ben", "correct": True}
            journal.append(ref, action, match.apply(action))
            await asyncio.sleep(live.LATE_S + 0.6)
            assert len(calls) == 2 and len(published) == started + 1  # read again once, shown once
            await asyncio.sleep(live.LATE_S + 0.3)
            assert len(calls) == 2  # a read that showed something asks for no other
        finally:
            await server.close()

    run(scenario)
    journal.close()
