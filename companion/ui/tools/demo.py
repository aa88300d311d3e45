"""`cloud-companion demo --out DIR`: every screen and every state change of a scripted game of
each title, saved as PNG, headless, at 800x480 and in portrait at 720x1280 (or at the sizes
asked for), and the key frames of each animation: its first frame, its middle and its last
(`...-frame-0`, `-frame-half`, `-frame-end`, beside the settled picture).

Each game screen module offers `demo_game() -> (setup, [actions])`; add it to DEMO_GAMES. With
a player count, each title is played instead as a random legal game of that many players (the
title's own limits kept) with the longest names the screens must fit.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Iterator
from importlib import import_module
from pathlib import Path
from typing import Any

from ... import i18n

DEMO_GAMES: dict[str, str] = {
    "cloudmine": "companion.ui.screens.cloudmine:demo_game",
    "cloud9": "companion.ui.screens.cloud9:demo_game",
    "cloudship": "companion.ui.screens.cloudship:demo_game",
}
DEMO_SIZES = {"landscape": (800, 480), "portrait": (720, 1280)}


def demo_script(game: str) -> Callable | None:
    module, _, name = DEMO_GAMES[game].partition(":")
    try:
        return getattr(import_module(module), name)
    except (ModuleNotFoundError, AttributeError):
        return None


# long names in the three languages, the longest first: what every screen must fit
LONG_NAMES = (
    "Maximilian-Alexander",
    "Szentgyörgyi Boglárka",
    "Annemarie-Josephine",
    "Weißenböck Jürgen",
    "Christopher-Benedict",
    "Hajdúszoboszlói Ödön",
    "Friederike-Luise",
    "Bartholomew-James",
)


def sized(sizes: list[tuple[int, int]] | None) -> dict[str, tuple[int, int]]:
    """The folders and sizes to record: the usual two, or "WxH" folders for the sizes given."""
    return dict(DEMO_SIZES) if not sizes else {f"{w}x{h}": (w, h) for w, h in dict.fromkeys(sizes)}


def players_game(game: str, players: int, seed: int = 1) -> tuple[dict, list[dict]]:
    """A random legal game of `game` for `players` players (held to the title's own limits)
    with the longest names; the setup and its actions."""
    from ...rules import rules_by_name
    from ...rules.simulate import random_game

    rules = rules_by_name(game)
    count = max(rules.min_players, min(rules.max_players, players))
    setup = {"game": game, "players": list(LONG_NAMES[:count])}
    return setup, random_game(setup, seed=seed)


def record(
    out: Path,
    language: str = "en",
    sizes: dict[str, tuple[int, int]] = DEMO_SIZES,
    games: list[str] | None = None,
    log: Callable[[str], None] = lambda line: None,
    players: int | None = None,
) -> list[Path]:
    """Play the demo and save the screenshots under `out/<size name>/`; returns the files."""
    from ...journal import Journal
    from .harness import Harness

    saved: list[Path] = []
    games = games or [g for g in DEMO_GAMES if demo_script(g) is not None]
    for size_name, size in sizes.items():
        folder = out / size_name
        with tempfile.TemporaryDirectory() as scratch:
            journal = Journal.open(Path(scratch) / "demo.sqlite3")
            from ...controller import GameController

            # the demo's own clock: after each action it jumps past the short transitions, so
            # every picture shows the settled screen rather than a frame of an animation
            clock = _StepClock()
            h = Harness(size, controller=GameController(journal), journal=journal, clock=clock)
            h.app.change_config(language=language)
            counter = iter(range(1, 100000))

            def shot(name: str) -> None:
                path = h.save(folder / f"{next(counter):04d}-{name}.png")
                saved.append(path)

            def key_frames(name: str) -> None:
                """An animation that just started: its first frame, its middle and its last."""
                start, until = clock.seconds, h.app._animate_until
                if until <= start:
                    return
                for moment, at in (("0", start), ("half", (start + until) / 2), ("end", until - 1e-6)):
                    clock.seconds = at
                    shot(f"{name}-frame-{moment}")
                clock.seconds = start

            shot("home")
            for game in games:
                if players is None:
                    script = demo_script(game)
                    assert script is not None  # the games played are those with a demo
                    setup, actions = script()
                else:
                    setup, actions = players_game(game, players)
                h.app.home()
                h.app.pump()
                h.tap(f"game:{game}")
                shot(f"{game}-players")
                screen = h.start_game(setup)
                shot(f"{game}-start")
                screen.submit(refused(game, setup))  # an illegal tap: the toast says why, covering no button
                h.app.pump()
                shot(f"{game}-refusal")
                h.app.toast_text = h.app.toast_detail = None
                for number, action in enumerate(actions, start=1):
                    game_screen = h.app.game_screen
                    assert game_screen is not None  # started above
                    if not game_screen.submit(action):
                        raise RuntimeError(f"the {game} demo's action {number} was refused: {action}")
                    h.app.pump()
                    name = f"{game}-{number:03d}-{action['act']}{moment_words(h, skip=action['act'])}"
                    key_frames(name)
                    clock.advance(1.0)
                    h.app.pump()
                    shot(name)
                for name, (extra_setup, extra_actions) in EXTRA_ENDS.get(game, {}).items():
                    extra = h.start_game(extra_setup)
                    for action in extra_actions:
                        extra.submit(action)
                    h.app.pump()
                    shot(f"{game}-{name}{moment_words(h)}")
                log(f"{size_name}: {game} played, {len(actions)} actions")
            for name in other_screens(h):
                shot(name)
            h.app.refuse(_refusal_example())
            shot("refusal")
            journal.close()
    i18n.set_language("en")
    return saved


MOST_PLAYERS = {"cloud9": 6, "cloudmine": 8, "cloudship": 4}


def other_screens(h) -> Iterator[str]:
    """Every screen besides a game's own, each shown on `h` in turn: its name is yielded while
    it shows. The Players screen of each title with three and with the most players, all with
    the longest names, while seats are claimed, the keyboard, every tab of History (a game's
    scores and each title's records), How to play of each title, both pages of Settings, the
    seat test and where the seats sit, the live page's code, and each game's menu."""
    from ..kit.roster import Player
    from ..screens.help import HelpScreen
    from ..screens.history import HistoryScreen
    from ..screens.live_code import LiveCodeScreen
    from ..screens.players import PlayersScreen, colours_for
    from ..screens.records import TITLES
    from ..screens.settings import SettingsScreen

    def show(screen) -> None:
        h.app.close_dialog()
        h.app.show(screen)
        h.app.pump()

    for game, most in MOST_PLAYERS.items():
        for count in (3, most):
            players = [Player(name, colour, None) for name, colour in zip(LONG_NAMES[:count], colours_for(game))]
            show(PlayersScreen(h.app, game, players=players))
            yield f"players-{game}-{count}"
    h.tap("claim")
    h.tap("seat-button:3")
    yield "players-claiming-seats"
    h.tap("name:0")
    yield "keyboard"
    while h.app.screen.text:  # the name wiped: the names played before, offered in portrait
        h.tap("delete")
    h.app.pump()
    yield "keyboard-names-played-before"
    show(HistoryScreen(h.app))
    yield "history-games"
    rows = [w.key for w in h.widgets() if (w.key or "").startswith("game-row:")]
    if rows:
        h.tap(rows[0])
        yield "history-scores"
        show(HistoryScreen(h.app))
    h.tap("tab:players")
    yield "history-players"
    h.tap("tab:records")
    for title in TITLES:
        h.tap(f"records:{title}")
        yield f"history-records-{title}"
    for game in MOST_PLAYERS:
        show(HelpScreen(h.app, game))
        yield f"help-{game}"
    show(SettingsScreen(h.app))
    h.tap("settings:basics")
    yield "settings-basics"
    h.tap("seat-test")
    yield "settings-seat-test"
    show(SettingsScreen(h.app))
    h.tap("seat-edges")
    yield "settings-seat-edges"
    show(SettingsScreen(h.app))
    h.tap("settings:more")
    yield "settings-more"
    live = h.app.config.live
    h.app.change_config(live=True)
    show(LiveCodeScreen(h.app))
    yield "live-code"
    h.app.change_config(live=live)
    for game, most in MOST_PLAYERS.items():
        h.start_game({"game": game, "players": list(LONG_NAMES[:most])})
        h.app.game_screen.open_menu()
        h.app.pump()
        yield f"{game}-menu"
    h.app.close_dialog()
    h.app.home()
    h.app.pump()


# an illegal first action per game, for the refusal's picture
REFUSED: dict[str, dict[str, Any]] = {
    "cloud9": {"act": "fall"},
    "cloudship": {"act": "land"},
    "cloudmine": {"act": "guess", "player": "András", "correct": True},
}


def refused(game: str, setup: dict) -> dict:
    """REFUSED[game], naming a player of this setup where it names one."""
    action = dict(REFUSED[game])
    if "player" in action and action["player"] not in setup["players"]:
        action["player"] = setup["players"][-1]
    return action


def _example(name: str) -> tuple[dict, list[dict]]:
    import json

    lines = (Path(__file__).resolve().parents[2] / "examples" / name).read_text(encoding="utf-8").splitlines()
    rows = [json.loads(line) for line in lines if line.strip()]
    return rows[0], rows[1:]


# more ways a game ends than the demo game shows: (setup, actions) per picture name
EXTRA_ENDS = {"cloudship": {"lost": _example("cloudship-lost.jsonl")}}


def moment_words(h, skip: str = "") -> str:
    """The big moment the picture shows, for its file name: "-fall", "-top", "-settle",
    "-storm", "-hail", and "-end" on the end screen (after the moment that ended it)."""
    from ..screens.end import EndScreen

    words = []
    moment = getattr(h.app.screen, "card", None)
    if isinstance(h.app.screen, EndScreen):
        last = h.app.screen.last_moment()
        if last is not None:
            words.append(last.kind)
        words.append("end")
    elif moment is not None:
        words.append(moment.kind)
    return "".join(f"-{word}" for word in words if word != skip)  # "fall", not "fall-fall"


class _StepClock:
    """Monotonic seconds that move only when told to."""

    def __init__(self) -> None:
        self.seconds = 0.0

    def __call__(self) -> float:
        return self.seconds

    def advance(self, seconds: float) -> None:
        self.seconds += seconds


def _refusal_example():
    """A real refusal from the rules core (so it is shown translated like any other)."""
    from ...rules import Match, RulesError

    match = Match.start({"game": "cloudmine", "players": ["András", "Edit", "Tamás", "Zsolt"]})
    try:
        match.apply({"act": "guess", "player": "Tamás", "correct": True})
    except RulesError as refusal:
        return refusal
    raise AssertionError("the example guess was accepted")
