"""A whole evening at the table, headless, for the bench's memory figure: every title played
`games` times (random legal games of 2 to 8 players, the longest names), every screen visited,
in landscape and in portrait, in each of the three languages; the app as `cloud-companion run`
makes it (a journal on disk, the sounds, the seat buttons and the ship's link as the settings
say: on a desktop the simulated ship streams into the link), and idle between presses as at a
table (the type warmed, the next states drawn ahead, the animations run to their end).

    python -m companion.ui.tools.evening [GAMES] [WIDTH HEIGHT]   # prints the peak RSS in KiB
"""

from __future__ import annotations

import os
import resource
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

GAMES = ("cloud9", "cloudship", "cloudmine")
# the evening's turns of the screen and changes of language: most games in the first
TURNS = (("en", 0), ("de", 90), ("hu", 0))
STEP_S = 0.25  # the demo clock's step between frames of an animation


def peak_rss_kib() -> int:
    """This process's peak resident memory, in KiB: its own since it started (VmHWM). Not
    `ru_maxrss`: on Linux that keeps the peak of the process it was started from (Python's
    subprocess forks with vfork, and exec records the parent's high-water mark), so a bench
    started from a process of 137 MiB read 137 MiB for an app that used 59."""
    from ..loop.heap import status_kib

    peak = status_kib("VmHWM")
    return peak if peak is not None else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux


def evening(games: int = 20, size: tuple[int, int] = (800, 480), log=lambda line: None) -> int:
    """Play the evening; returns the games played."""
    from ... import config as settings
    from ...controller import GameController
    from ...journal import Journal
    from ...rules import rules_by_name
    from ...sound import Sounds
    from ..loop import collecting
    from ..loop.hardware import SeatHardware
    from ..loop.heap import give_back_large_blocks
    from ..loop.ship_view import attach_ship
    from ..screens.help import HelpScreen
    from ..screens.history import HistoryScreen
    from ..screens.practice import PracticeScreen
    from ..screens.records import RecordsScreen
    from ..screens.seat_test import SeatTestScreen
    from ..screens.settings import SettingsScreen
    from .demo import _StepClock, players_game
    from .harness import Harness

    give_back_large_blocks()  # as `cloud-companion run` does first
    played = 0
    with tempfile.TemporaryDirectory() as scratch:
        config, _problems = settings.load(Path(scratch) / "settings.toml")  # the defaults
        journal = Journal.open(Path(scratch) / "journal.sqlite3")
        clock = _StepClock()
        h = Harness(size, config=config, controller=GameController(journal), journal=journal, clock=clock)
        app = h.app
        app.controller.log = journal
        app.sounds = Sounds(config.volume, config.muted)
        app.hardware = SeatHardware.open(config, wake=app.wake)
        attach_ship(app, config, [])

        def idle(at_rest: bool = False) -> None:
            """What the loop does while nobody presses (App.wait): first-time costs, drawing
            ahead, the garbage collected (the oldest generation only `at_rest`, or when overdue)."""
            while app.warm_step():
                pass
            while app.rehearse_step():
                pass
            app.finish_idle_work()
            collecting.tidy(at_rest)

        def settle() -> None:
            """The frames of the animation now running, to its end."""
            app.pump()
            while app.animating:
                clock.advance(STEP_S)
                app.pump()
            clock.advance(STEP_S)
            app.pump()

        def visit(screen) -> None:
            app.show(screen)
            settle()
            idle(at_rest=True)

        try:
            for turn, (language, rotate) in enumerate(TURNS):
                app.change_config(language=language, rotate=rotate)
                app.pump()
                for number in range(games if turn == 0 else max(1, games // 10)):
                    for game in GAMES:
                        rules = rules_by_name(game)
                        players = rules.min_players + number % (rules.max_players - rules.min_players + 1)
                        setup, actions = players_game(game, players, seed=number + 1)
                        app.home()
                        app.pump()
                        h.tap(f"game:{game}")  # the players screen
                        idle()
                        h.start_game(setup)
                        for action in actions:
                            idle()
                            game_screen = app.game_screen
                            assert game_screen is not None  # started above
                            if not game_screen.submit(action):
                                raise RuntimeError(f"{game} refused {action}")
                            settle()
                        idle(at_rest=True)  # the end screen, its recap saved
                        played += 1
                for screen in (
                    HistoryScreen(app),
                    RecordsScreen(app),
                    SettingsScreen(app),
                    PracticeScreen(app),
                    SeatTestScreen(app),
                    *(HelpScreen(app, game) for game in GAMES),
                ):
                    visit(screen)
                log(f"{language} {rotate}: {played} games, peak {peak_rss_kib() / 1024:.1f} MiB")
        finally:
            app.hardware.close()
            app.sounds.close()
            journal.close()
    return played


if __name__ == "__main__":
    numbers = [int(arg) for arg in sys.argv[1:]]
    if len(numbers) == 2:  # a width without its height
        sys.exit("usage: python -m companion.ui.tools.evening [GAMES] [WIDTH HEIGHT]")
    evening(
        numbers[0] if numbers else 20,
        size=(numbers[1], numbers[2]) if len(numbers) > 2 else (800, 480),
        log=lambda line: print(line, file=sys.stderr, flush=True),
    )
    print(peak_rss_kib())
