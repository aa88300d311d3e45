"""Power cut, for real: `replay --db --follow` killed with SIGKILL at random moments.

After each kill, `resume` must show a state that holds every action acknowledged with ok and
that equals replaying exactly the journaled prefix: nothing torn, nothing half-applied.
"""

import json
import random
import signal
import subprocess
import sys
import threading
import time

import pytest

from companion.cli import main
from companion.journal import Journal, UnusableFile
from companion.journal.errors import NotUpgraded
from companion.replay import replay_lines
from companion.rules import GAME_MODULES
from companion.rules.simulate import random_actions

SETUPS = {
    "cloud9": {"game": "cloud9", "players": ["Ann", "Ben", "Cat", "Dan"]},
    "cloudship": {"game": "cloudship", "players": ["Ann", "Ben", "Cat"]},
    "cloudmine": {"game": "cloudmine", "players": ["Ann", "Ben", "Cat", "Dan", "Eve"]},
}
TRIALS = 20  # per game: 60 kills in all
LONGEST = 150


def unfinished_game(setup, seed):
    """Random legal actions (some undos) that stop before the game is over."""
    actions = []
    for match, action in random_actions(setup, seed, limit=LONGEST, undo_rate=0.08):
        if match.apply(action).view["over"]:
            break
        actions.append(action)
    return actions


def run_and_kill(db, setup, actions, rng):
    """Feed the game, kill the process at a random moment; the acknowledged numbers."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "replay", "-", "--db", str(db), "--follow"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
    )
    target = rng.randint(0, len(actions))
    acked: list[int] = []
    reached = threading.Event()

    def read_acks():
        for line in proc.stdout:
            message = json.loads(line)
            if "ok" in message:
                acked.append(message["ok"])
                if len(acked) >= target:
                    reached.set()
        reached.set()  # the process ended

    def feed():
        try:
            proc.stdin.write("".join(json.dumps(x) + "\n" for x in [setup, *actions]).encode())
            proc.stdin.flush()  # and keep stdin open: the process must not end by itself
        except BrokenPipeError:
            pass

    reader = threading.Thread(target=read_acks)
    writer = threading.Thread(target=feed)
    reader.start()
    writer.start()
    if target == 0:
        time.sleep(rng.uniform(0, 0.3))  # anywhere from start-up to the first commits
    else:
        assert reached.wait(60), "the process stopped acknowledging"
        time.sleep(rng.uniform(0, 0.004))  # a commit takes a few milliseconds: land inside one
    proc.send_signal(signal.SIGKILL)
    proc.wait(30)
    writer.join(30)
    reader.join(30)
    proc.stdin.close()
    assert proc.returncode == -signal.SIGKILL
    assert acked == list(range(1, len(acked) + 1))  # in order, none missing
    return acked


@pytest.mark.parametrize("trial", range(TRIALS))
@pytest.mark.parametrize("game", sorted(GAME_MODULES))
def test_a_killed_follow_loses_nothing_acknowledged_and_tears_nothing(game, trial, tmp_path, capsys):
    rng = random.Random(f"{game}-{trial}")
    setup = SETUPS[game]
    actions = unfinished_game(setup, seed=trial)
    db = tmp_path / "journal.sqlite3"
    acked = run_and_kill(db, setup, actions, rng)

    try:
        games = Journal.read(db).games() if db.exists() else []
    except (NotUpgraded, UnusableFile):
        # killed while its first start was still making the file (its tables, or their
        # versions, half-way): nothing was acknowledged, and the app's next start makes it whole
        assert acked == []
        with Journal.open(db) as journal:
            assert journal.games() == []
        return
    if not games:  # killed before the setup was committed: nothing may have been acknowledged
        assert acked == []
        return
    [summary] = games
    stored = Journal.read(db).stored(summary.id)[1]
    assert len(stored) >= len(acked)
    assert stored == actions[: len(stored)]  # exactly a prefix of what was sent

    capsys.readouterr()
    assert main(["resume", "--db", str(db)]) == 0
    resumed = json.loads(capsys.readouterr().out)
    prefix = [json.dumps(x) for x in [setup, *actions[: len(stored)]]]
    assert resumed == replay_lines(prefix).output()
    assert summary.scores == resumed["scores"] and summary.phase == resumed["phase"]

    with Journal.open(db) as journal:  # the app's next start knows it was a crash
        offer = journal.offer()
        assert offer.automatic and offer.game.id == summary.id
