"""Journal files damaged at random, as a failing SD card damages them: bytes in pages, bytes
in the text of a stored game, a file cut short, a write-ahead log lost or garbled. Every
command that reads a journal, and the app's start, run against each one (seeded: the same
cases every run). None may show a traceback; the app reaches its first frame every time;
every game the damage did not touch still reads exactly as it was acknowledged; a game it did
touch is said to be damaged, never read back changed; and nothing is lost that was there:
a file the app cannot use is kept aside byte for byte."""

import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from companion.journal import Journal, JournalError
from companion.rules.simulate import random_game
from journaling import journal_then_die, play

HERE = Path(__file__).parent
NINE = {"game": "cloud9", "players": ["Ann", "Ben", "Cat"]}
MINE = {"game": "cloudmine", "players": ["Ann", "Ben", "Cat", "Dan"]}
SHIP = {"game": "cloudship", "players": ["Ann", "Ben"], "mode": "sunny"}
COLUMNS = ("setup", "players", "winners", "scores", "action")
# (kind, how many seeded cases of it)
CASES = [("page", 4), ("text", 5), ("truncate", 3), ("lost wal", 1), ("wal bytes", 2)]


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    """A journal of finished games in its main file, and a game in progress only in its -wal
    (the power went): (folder, path, every game as acknowledged)."""
    folder = tmp_path_factory.mktemp("fuzz-base")
    path = folder / "journal.sqlite3"
    with Journal.open(path) as journal:
        for seed, setup in enumerate([NINE, MINE, SHIP, MINE, NINE]):
            play(journal, random_game(setup, seed=seed), setup)
    journal_then_die(path, seed=9, actions=7)
    assert Path(f"{path}-wal").exists()
    with Journal.read(path) as journal:
        acknowledged = {g.id: journal.export(g.id) for g in journal.games()}
    assert len(acknowledged) == 6
    return folder, path, acknowledged


def checkpointed(path):
    """The same journal with its -wal folded in and gone (a clean close)."""
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()
    assert not Path(f"{path}-wal").exists()


def text_spots(path):
    """(game id, where in the file) of each stored JSON text: setup, players, winners,
    scores of every game and every action."""
    data = path.read_bytes()
    conn = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True)
    spots = []
    for gid, *texts in conn.execute("SELECT id, setup, players, winners, scores FROM games"):
        spots += [(gid, text) for text in texts]
    spots += list(conn.execute("SELECT game_id, action FROM actions"))
    conn.close()
    found = []
    for gid, text in spots:
        raw = text.encode()
        at = data.find(raw)
        if at >= 0 and data.find(raw, at + 1) < 0 and len(raw) > 2:  # only where it is unambiguous
            found.append((gid, at, len(raw)))
    return found


def damage(kind, rng, path):
    """Damage the journal at `path` in place; returns the ids of the games surely hit
    (None: any game may be)."""
    if kind in ("lost wal", "wal bytes"):
        wal = Path(f"{path}-wal")
        if kind == "lost wal":
            wal.unlink()
            return None
        data = bytearray(wal.read_bytes())
        for _ in range(rng.randint(1, 4)):
            at = rng.randrange(32, len(data))
            data[at : at + 8] = bytes(rng.choice([0x00, 0xFF]) for _ in range(8))
        wal.write_bytes(bytes(data[: len(wal.read_bytes())]))
        return None
    checkpointed(path)
    data = bytearray(path.read_bytes())
    if kind == "truncate":
        path.write_bytes(bytes(data[: rng.choice([rng.randrange(1, 16), rng.randrange(16, len(data))])]))
        return None
    if kind == "page":
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(0, len(data))
            data[at : at + rng.randint(1, 24)] = bytes([rng.choice([0x00, 0xFF])]) * rng.randint(1, 24)
        path.write_bytes(bytes(data[: len(path.read_bytes())]))
        return None
    gid, at, length = rng.choice(text_spots(path))  # kind == "text": inside one game's JSON
    spot = at + rng.randrange(length)
    data[spot] = rng.choice([0xFF, 0x00, 0x80])  # never text: a change to other text nothing could see
    path.write_bytes(bytes(data))
    return {gid}


def readable(path, ids):
    """What a reader gets of each game: its export, or None when refused (damaged, unusable)."""
    out = {}
    try:
        journal = Journal.read(path)
    except JournalError:
        return dict.fromkeys(ids)
    with journal:
        for gid in ids:
            try:
                out[gid] = journal.export(gid)
            except JournalError:
                out[gid] = None
    return out


@pytest.mark.parametrize("kind,seed", [(kind, seed) for kind, count in CASES for seed in range(count)])
def test_a_damaged_journal_never_gives_a_traceback_or_keeps_the_app_from_starting(base, tmp_path, kind, seed):
    folder, source, acknowledged = base
    for item in folder.iterdir():
        shutil.copy(item, tmp_path / item.name)
    path = tmp_path / source.name
    hit = damage(kind, random.Random(f"{kind}/{seed}"), path)
    damaged_bytes = path.read_bytes() if path.exists() else b""

    before = readable(path, acknowledged)
    for gid, text in before.items():
        # never read back changed: a game reads as acknowledged or is refused as damaged
        # (a lost or garbled -wal takes back what only it held: SQLite cannot know of it)
        if text is not None and kind not in ("lost wal", "wal bytes"):
            assert text == acknowledged[gid], f"game {gid} reads back changed"
    if hit is not None:  # damage inside one game's text: every other game reads whole
        assert all(before[gid] == acknowledged[gid] for gid in acknowledged if gid not in hit)

    work = tmp_path / "work"
    work.mkdir()
    report = tmp_path / "report.json"
    child = subprocess.run(
        [sys.executable, str(HERE / "journal_fuzz_child.py"), str(path), str(report), str(work)],
        capture_output=True,
        text=True,
        timeout=180,
        env={**os.environ, "SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "dummy"},
    )
    assert child.returncode == 0, child.stderr
    results = json.loads(report.read_text())
    for result in results:
        assert result["crash"] is None, f"{result['argv']}:\n{result['crash']}"
        assert all(line.startswith("cloud-companion: ") for line in result["stderr"].splitlines()), result
    app = results[-1]
    assert app["stdout"].startswith("first frame after "), app
    # a --db file that does not even begin as a database any more is refused, left as it is
    assert app["code"] == 0 or (app["code"] == 1 and "is not a journal" in app["stderr"]), app

    # nothing that was there is lost: what the app could not use it kept aside as it was
    kept = sorted(tmp_path.glob(f"{path.name}.broken-*"))
    kept_main = [k for k in kept if not k.name.endswith(("-wal", "-shm"))]
    if kept_main:
        assert kept_main[0].read_bytes() == damaged_bytes
    else:
        after = readable(path, acknowledged)
        assert all(after[gid] == text for gid, text in before.items() if text is not None)
