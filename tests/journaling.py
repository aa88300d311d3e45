"""Games written into a journal by the tests: in this process, or in a child process that
then dies without closing the journal, as when the plug is pulled."""

import subprocess
import sys

from companion.rules import Match

MINE = {"game": "cloudmine", "players": ["Ann", "Ben", "Cat", "Dan"]}


def play(journal, actions, setup=MINE):
    """Journal a game of `actions`; returns (the journal's game ref, the match at the end)."""
    match = Match.start(setup)
    ref = journal.begin(match)
    for action in actions:
        match = match.apply(action)
        assert journal.append(ref, action, match)
    return ref, match


def journal_of_games(path, games: int, setup=MINE) -> None:
    """A journal file at `path` holding `games` finished random games (seeds 0, 1, ...)."""
    from companion.journal import Journal
    from companion.rules.simulate import random_game

    with Journal.open(path) as journal:
        for seed in range(games):
            play(journal, random_game(setup, seed=seed), setup)


SCRIPT = """
import os, sqlite3, sys
from companion.journal import Journal
from companion.rules import Match
from companion.rules.simulate import random_game
setup = {{"game": "cloudmine", "players": ["Ann", "Ben", "Cat", "Dan"]}}
journal = Journal.open(sys.argv[1])
match = Match.start(setup)
ref = journal.begin(match)
for action in random_game(setup, seed={seed})[:{actions}]:
    match = match.apply(action)
    journal.append(ref, action, match)
{before_death}
os._exit(0)  # no close (exit 0 tells the test the script itself ran to the end)
"""


def demo_games_journal(path, player_counts):
    """A journal at `path` holding a finished game of each title (demo's, with the longest
    names) for each count in `player_counts`, played through the app's controller."""
    from companion.controller import GameController
    from companion.journal import Journal
    from companion.ui.tools.demo import MOST_PLAYERS, players_game

    journal = Journal.open(path)
    for players in player_counts:
        for game in MOST_PLAYERS:
            setup, actions = players_game(game, players)
            controller = GameController(journal)
            controller.new_game(setup)
            for action in actions:
                controller.submit(action)
    return journal


def journal_then_die(path, seed: int, actions: int, before_death: str = "") -> None:
    """Journal `actions` actions of a random Cloud Mine game into `path`, run `before_death`
    (Python, with `journal`, `ref` and `sqlite3` in scope), then die."""
    script = SCRIPT.format(seed=seed, actions=actions, before_death=before_death)
    subprocess.run([sys.executable, "-c", script, str(path)], check=True, timeout=60)
