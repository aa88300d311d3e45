"""Every shared screen and the Cloud Mine screen, at every listed size, in every language:
no text cut off, no tap target under 48 design pixels, nothing outside the canvas."""

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
    yield "history", lambda: h.app.show(HistoryScreen(h.app, HISTORY))
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
    assert h.find("mute").text == "Sound on"
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
