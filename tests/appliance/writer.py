"""Runs inside the booted appliance for the power-cut trials: plays random Cloud 9 games through
the app's own controller and journal, and prints "ack N" (N: the journal's actions so far) on
the console each time a submit returns, that is, each time the app would have shown the action.

`writer.py JOURNAL` as the app writes; `writer.py JOURNAL careless` with the journal's fsync
turned off (synchronous=OFF), the broken build the trials must catch; `writer.py JOURNAL games N`
plays N whole games and stops (a history with no game open, for the USB sticks' backups);
`writer.py JOURNAL games N open` then starts one more and leaves it open after a few actions.
"""

import itertools
import sqlite3
import sys

from companion.controller import GameController
from companion.journal import Journal, store
from companion.rules.simulate import random_game

SETUP = {"game": "cloud9", "players": ["Ann", "Ben", "Cat"]}


class Careless(sqlite3.Connection):
    def execute(self, sql, *args):
        return super().execute(sql.replace("synchronous = FULL", "synchronous = OFF"), *args)


OPEN_ACTIONS = 6  # the open game's actions: a trip under way


def main(path: str, careless: bool, games: int | None = None, open_game: bool = False) -> None:
    if careless:
        connect = store.sqlite3.connect
        store.sqlite3 = type(sys)("careless_sqlite3")
        store.sqlite3.__dict__.update(vars(sqlite3))
        store.sqlite3.connect = lambda *a, **k: connect(*a, factory=Careless, **k)
    journal = Journal.open(path)
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as look:
        count = look.execute("select count(*) from actions").fetchone()[0]
    print(f"start {count}", flush=True)
    controller = GameController(journal)
    for seed in itertools.count(count) if games is None else range(count, count + games):
        controller.new_game(SETUP)
        for action in random_game(SETUP, seed=seed):
            controller.submit(action)  # durable when it returns: the screen would show it now
            count += 1
            print(f"ack {count}", flush=True)
    if open_game:
        controller.new_game(SETUP)
        for action in random_game(SETUP, seed=count)[:OPEN_ACTIONS]:
            controller.submit(action)
            count += 1
            print(f"ack {count}", flush=True)


if __name__ == "__main__":
    main(
        sys.argv[1],
        sys.argv[2:] == ["careless"],
        int(sys.argv[3]) if sys.argv[2:3] == ["games"] else None,
        sys.argv[4:] == ["open"],
    )
