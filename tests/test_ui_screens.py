"""Every screen (shared ones, each game's with 3 and with the most players, the result cards of
the big moments, each end screen) at every listed size, in every language: no text cut off,
no tap target under 48 design pixels, nothing outside the canvas, nothing silently dropped."""

from __future__ import annotations

import pytest

from companion import i18n
from companion.journal import GameSummary, PlayerTotal
from companion.ui.harness import Harness
from companion.ui.layout import SIZES
from companion.ui.screens.history import HistoryScreen, ListedGames
from companion.ui.screens.settings import SettingsScreen

EIGHT = ["Ann", "Ben", "Csilla", "Dóra", "Előd", "Ferenc", "Gábor", "Hannelore"]


def summary(i: int, status: str = "over") -> GameSummary:
    players = EIGHT[:3 + i % 5]
    scores = {p: 10 + n for n, p in enumerate(players)}
    return GameSummary(i, "cloudmine", "The Cloud Mine", {"game": "cloudmine", "players": players}, players,
                       f"2026-05-{1 + i:02d}T18:00:00+00:00", "2026-05-01T19:00:00+00:00",
                       "2026-05-01T19:00:00+00:00" if status == "over" else None, status,
                       "over" if status == "over" else "guess", [players[-1]] if status == "over" else [],
                       scores, 40)


def shared_win() -> GameSummary:
    """Eight long names and a shared win: the row that used to clip ("Gewonnen von András, Zsol")."""
    return GameSummary(99, "cloudmine", "The Cloud Mine", {"game": "cloudmine", "players": EIGHT}, EIGHT,
                       "2026-06-01T18:00:00+00:00", "2026-06-01T19:00:00+00:00", "2026-06-01T19:00:00+00:00",
                       "over", "over", ["Hannelore", "Csilla", "Ferenc"], {p: 15 for p in EIGHT}, 40)


HISTORY = ListedGames([summary(i, "over" if i % 3 else "abandoned") for i in range(7)],
                      [PlayerTotal(p, "cloudmine", "The Cloud Mine", 4, 1, 50, 17) for p in EIGHT])


def screens(h: Harness):
    """(name, how to get there) for every screen the app has, shared and Cloud Mine."""
    yield "home", lambda: None
    yield "players-8", lambda: (h.tap("game:cloudmine"), [h.tap("more") for _ in range(5)])
    yield "keyboard", lambda: (h.tap("game:cloudmine"), h.tap("name:0"))
    yield "claim", lambda: (h.tap("game:cloudmine"), [h.tap("more") for _ in range(5)], h.tap("claim"))
    yield "settings", lambda: h.app.show(SettingsScreen(h.app))
    yield "seat-test", lambda: (h.app.show(SettingsScreen(h.app)), h.tap("seat-test"))
    yield "history", lambda: h.app.show(HistoryScreen(h.app, ListedGames([shared_win()] + HISTORY.games())))
    yield "totals", lambda: (h.app.show(HistoryScreen(h.app, HISTORY)), h.tap("tab:players"))
    yield "history-empty", lambda: h.app.show(HistoryScreen(h.app, ListedGames()))
    yield "cloudmine-3", lambda: h.start_game({"game": "cloudmine", "players": EIGHT[:3]})
    yield "cloudmine-8", lambda: (h.start_game({"game": "cloudmine", "players": EIGHT}), h.tap("wrong"))
    yield "menu", lambda: (h.start_game({"game": "cloudmine", "players": EIGHT[:5]}), h.tap("menu"))
    yield "confirm-end", lambda: (h.start_game({"game": "cloudmine", "players": EIGHT[:5]}), h.tap("menu"),
                                  h.tap("dialog:" + h.app.dialog.buttons[-1].text))
    yield "end-8", lambda: (h.start_game({"game": "cloudmine", "players": EIGHT}), play_out(h))
    yield "refusal", lambda: (h.start_game({"game": "cloudmine", "players": EIGHT[:4]}),
                              h.app.game_screen.submit({"act": "guess", "player": "Ann", "correct": True}))


    # the other two games, with their fewest-but-three and most players, and their big moments
    yield "cloud9-3", lambda: h.start_game({"game": "cloud9", "players": EIGHT[:3]})
    yield "cloud9-6", lambda: (h.start_game({"game": "cloud9", "players": EIGHT[:6]}),
                               h.app.game_screen.submit({"act": "roll", "dice": ["red", "green"]}))
    yield "cloud9-6-rise", lambda: (h.start_game({"game": "cloud9", "players": EIGHT[:6]}),
                                    h.app.game_screen.submit({"act": "roll", "dice": ["red", "green"]}),
                                    [h.app.game_screen.submit({"act": "stay", "player": p}) for p in EIGHT[1:6]])
    yield "cloudship-3", lambda: h.start_game({"game": "cloudship", "players": EIGHT[:3]})
    yield "cloudship-4-flight", lambda: (h.start_game({"game": "cloudship", "players": EIGHT[:4]}),
                                         h.app.game_screen.submit({"act": "roll", "dice": ["yellow", "blue", "white"]}))
    for game, kind in (("cloud9", "top"), ("cloud9", "fall"), ("cloudmine", "settle"), ("cloudship", "storm"),
                       ("cloudship", "hail")):
        yield f"{game}-card-{kind}", lambda game=game, kind=kind: play_demo(h, game, until=kind)
    for game in ("cloud9", "cloudship"):
        yield f"{game}-end", lambda game=game: play_demo(h, game)
    yield "cloudship-lost", lambda: play_example(h, "cloudship-lost.jsonl")
    for game in ("cloud9", "cloudship", "cloudmine"):
        yield f"{game}-help", lambda game=game: (h.start_game({"game": game, "players": EIGHT[:3]}),
                                                 h.tap("menu"), h.tap("dialog:" + h.app.dialog.buttons[1].text))
    yield "cloud9-tie-break", lambda: play_example(h, "cloud9-four-players-tie-break.jsonl")
    yield "cloud9-end-6", lambda: play_random(h, {"game": "cloud9", "players": EIGHT[:6]})


def play_demo(h: Harness, game: str, until: str | None = None) -> None:
    """The game's demo until the result card of a `until` moment shows (or to its end)."""
    from importlib import import_module

    setup, actions = import_module(f"companion.ui.screens.{game}").demo_game()
    screen = h.start_game(setup)
    for action in actions:
        screen.submit(action)
        if until is not None and screen.card is not None and screen.card.kind == until:
            return
    assert until is None, f"the {game} demo shows no {until}"


def play_random(h: Harness, setup: dict) -> None:
    """A random game to its end (the most players, long names)."""
    from companion.rules.simulate import random_game

    screen = h.start_game(setup)
    for action in random_game(setup, seed=2):
        screen.submit(action)
    assert h.app.controller.match.view["over"]


def play_example(h: Harness, name: str) -> None:
    import json
    from pathlib import Path

    lines = (Path(__file__).resolve().parent.parent / "companion" / "examples" / name).read_text().splitlines()
    rows = [json.loads(line) for line in lines if line.strip()]
    screen = h.start_game(rows[0])
    for action in rows[1:]:
        screen.submit(action)


def play_out(h: Harness) -> None:
    while not h.app.controller.match.view["over"]:
        h.tap("right")


SCREEN_NAMES = [name for name, _ in screens(None)]


@pytest.fixture(params=i18n.LANGUAGES)
def language(request):
    yield request.param
    i18n.set_language("en")


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_every_screen_fits_at_every_size_in_every_language(size, language, tmp_path):
    problems = []
    for name in SCREEN_NAMES:
        h = Harness(size)
        h.app.change_config(language=language)
        dict(screens(h))[name]()
        h.app.pump()
        h.render()
        for text in h.overflows():
            problems.append(f"{name}: text does not fit: {text!r}")
        for key in h.small_targets():
            problems.append(f"{name}: tap target under 48 px: {key}")
        for key in h.off_canvas():
            problems.append(f"{name}: outside the screen: {key}")
        for text in h.dropped():
            problems.append(f"{name}: shortened without a shorter form: {text!r}")
    assert not problems, "\n".join(problems)


def test_screenshots_are_really_drawn(tmp_path):
    h = Harness((800, 480))
    h.start_game({"game": "cloudmine", "players": EIGHT[:4]})
    path = h.save(tmp_path / "shot.png")
    import pygame

    image = pygame.image.load(str(path))
    assert image.get_size() == (800, 480)
    # the Right card button is green where the harness says it is
    right = h.find("right").rect
    assert image.get_at(right.move(6, 6).topleft)[:3] == (28, 122, 62)


def test_switching_the_language_translates_the_screen_at_once():
    h = Harness()
    h.app.show(SettingsScreen(h.app))
    h.app.pump()
    h.tap("lang:de")
    assert "Einstellungen" in h.texts() and i18n.current_language() == "de"
    h.tap("lang:hu")
    assert "Beállítások" in h.texts()
    h.tap("lang:en")
    assert "Settings" in h.texts()


def test_settings_change_volume_mute_and_rotation_and_are_saved(tmp_path):
    from companion import config as settings

    path = tmp_path / "config.toml"
    h = Harness(config_path=path)
    h.app.show(SettingsScreen(h.app))
    h.app.pump()
    h.tap("quieter")
    h.tap("mute")
    h.tap("rotate:90")
    saved, problems = settings.load(path)
    assert problems == [] and saved.volume == pytest.approx(0.7) and saved.muted and saved.rotate == 90
    assert h.app.sounds.volume == pytest.approx(0.7) and h.app.sounds.muted
    assert h.app.frame.portrait  # the canvas turned
    h.tap("rotate:0")  # taps still land after the turn
    assert not h.app.frame.portrait and settings.load(path)[0].rotate == 0


def test_settings_say_when_there_is_no_sound_device():
    h = Harness()
    h.app.show(SettingsScreen(h.app))
    h.app.pump()
    # the state is the selected one of the pair; the other changes it
    assert h.find("unmute").selected and not h.find("mute").selected
    h.tap("mute")
    assert h.find("mute").selected and not h.find("unmute").selected and h.app.config.muted
    h.app.sounds.available = False  # as companion.sound.Sounds reports without an audio device
    h.app.refresh()
    h.app.pump()
    assert h.find("mute").text == "No sound device"


def test_history_pages_through_the_games_newest_first():
    h = Harness()
    h.app.show(HistoryScreen(h.app, HISTORY))
    h.app.pump()
    first_page = [w.key for w in h.widgets() if (w.key or "").startswith("game-row:")]
    assert first_page == ["game-row:6", "game-row:5", "game-row:4"]
    h.tap("older")
    h.tap("older")
    assert [w.key for w in h.widgets() if (w.key or "").startswith("game-row:")] == ["game-row:0"]
    assert not h.find("older").enabled
    h.tap("tab:players")
    assert "Ann" in h.texts() and "Hannelore" not in h.texts()
    h.tap("older")
    h.tap("older")
    assert "Hannelore" in h.texts() and "Page 3 of 3" in h.texts()


class CountingHistory(ListedGames):
    """HISTORY, recording what the screen asks of it."""

    def __init__(self):
        super().__init__(HISTORY.games(), HISTORY.totals())
        self.reads: list = []

    def games(self, limit=None, offset=0):
        self.reads.append(("games", limit, offset))
        return super().games(limit, offset)

    def count_games(self):
        self.reads.append("count")
        return super().count_games()

    def totals(self):
        self.reads.append("totals")
        return super().totals()


def test_history_reads_only_the_pages_shown_each_once_per_visit():
    h = Harness()
    source = CountingHistory()
    screen = HistoryScreen(h.app, source)
    h.app.show(screen)
    h.app.pump()
    h.tap("older")
    h.tap("older")
    h.tap("newer")
    # never the whole history (years of games): a page at a time, each read once, and the count
    assert source.reads == ["count", ("games", 3, 0), ("games", 3, 3), ("games", 3, 6)]
    h.tap("tab:players")
    h.tap("older")
    h.tap("tab:games")
    assert source.reads[4:] == ["totals"]  # back on the games tab: its pages are still at hand
    before = len(source.reads)
    h.app.show(HistoryScreen(h.app, ListedGames()))
    h.app.back()  # a new visit: what was played meanwhile shows
    assert "game-row:6" in [w.key for w in h.widgets()] and source.reads[before:][0] == "count"


def test_the_menu_opens_a_short_help_for_the_game_and_back_returns_to_it():
    from companion.ui.screens.help import HELP, HelpScreen

    h = Harness()
    screen = h.start_game({"game": "cloud9", "players": EIGHT[:3]})
    h.tap("menu")
    h.tap("dialog:How to play")
    assert isinstance(h.screen, HelpScreen) and h.find("subtitle").texts() == ["Cloud 9"]
    assert [heading for heading, _text in HELP["cloud9"]] == ["Goal", "A trip", "Rise or fall", "On the screen"]
    assert all(text in h.texts() for _heading, text in HELP["cloud9"])
    h.tap("back")
    assert h.screen is screen
