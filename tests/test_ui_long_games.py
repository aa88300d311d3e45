"""Long games on the end screens, the History rows of games the table plays together, and the
recap drawn for the screen it is shown on and in the language asked for."""

from __future__ import annotations

import pygame
import pytest

from companion import i18n
from companion.journal import GameSummary
from companion.ui.kit import theme as th
from companion.ui.screens.end import EndScreen
from companion.ui.screens.history import HistoryScreen, ListedGames, RecapScreen
from companion.ui.tools.demo import players_game
from companion.ui.tools.harness import Harness

SIZES = ((800, 480), (1024, 600), (720, 1280))
IDS = [f"{w}x{h}" for w, h in SIZES]


def ended(game: str, players: int, size, journal=None) -> Harness:
    setup, actions = players_game(game, players)
    if journal is None:
        h = Harness(size)
    else:
        from companion.controller import GameController

        h = Harness(size, controller=GameController(journal), journal=journal)
    screen = h.start_game(setup)
    for action in actions:
        assert screen.submit(action), action
    h.app.pump()
    assert isinstance(h.screen, EndScreen)
    return h


@pytest.mark.parametrize("size", SIZES, ids=IDS)
@pytest.mark.parametrize("game, players", [("cloud9", 6), ("cloudmine", 8)])
def test_a_long_game_s_bars_are_never_narrower_than_a_table_can_read(game, players, size):
    """45 trips of Cloud 9 (or a Cloud Mine of eight): each bar at least 16 px wide at
    800x480, a few trips or rounds together, and every point still counted."""
    from companion.insights import awards as told

    h = ended(game, players, size)
    match = h.screen.game_screen.match
    count = len(told.cloud9_trips(match) if game == "cloud9" else told.cloudmine_rounds(match))
    assert game != "cloud9" or count >= 45
    theme = h.app.theme
    for name in match.view["players"]:
        bars = h.find(f"story:{name}")
        assert bars.rect.w / len(bars.values) * 0.7 >= theme.px(16), (name, bars.rect, len(bars.values))
        if game == "cloud9":
            assert sum(bars.totals()) == sum(trip.points[name] for trip in told.cloud9_trips(match))
        else:
            assert sum(bars.totals()) == match.view["scores"][name]


@pytest.mark.parametrize("size", SIZES, ids=IDS)
def test_a_long_cloudship_game_s_columns_and_icons_keep_their_size(size):
    from companion.ui.boards.plots import pictures_drawn, rounds_geometry

    h = ended("cloudship", 4, size)
    theme, rounds = h.app.theme, h.screen.rounds_told
    assert len(rounds) > 20
    g = rounds_geometry(h.find("rounds").rect, rounds, theme)
    assert min(int(g["slot"] * 0.8), theme.px(48)) >= theme.px(16)
    if pictures_drawn(g, theme):
        assert min(g["slot"] * 0.8, g["unit"]) >= theme.px(16)


@pytest.mark.parametrize("size", [(800, 480), (1024, 600)], ids=["800x480", "1024x600"])
def test_eight_players_ranks_and_scores_keep_a_gap_from_row_to_row(size):
    h = ended("cloudmine", 8, size)
    theme = h.app.theme
    for kind in ("final", "rank"):
        labels = sorted((h.find(f"{kind}:{name}") for name in h.screen.view["players"]), key=lambda w: w.rect.y)
        inks = [label.ink(theme) for label in labels]
        for above, below in zip(inks, inks[1:]):
            assert min(r.top for r in below) - max(r.bottom for r in above) >= theme.px(8), kind


def coop(game_id: int, won: bool) -> GameSummary:
    players = ["Emma", "Milan", "Aaron", "Olivia"]
    planted = 12 if won else 5
    return GameSummary(
        game_id,
        "cloudship",
        "Cloudship",
        {"game": "cloudship", "players": players},
        players,
        f"2026-06-0{game_id}T18:00:00+00:00",
        "2026-06-01T19:00:00+00:00",
        "2026-06-01T19:00:00+00:00",
        "over",
        "over",
        players if won else [],
        dict.fromkeys(players, planted),
        40,
    )


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_a_game_the_table_plays_together_is_won_or_lost_by_the_table(language):
    h = Harness((800, 480))
    h.app.change_config(language=language)
    h.app.show(HistoryScreen(h.app, ListedGames([coop(1, False), coop(2, True)])))
    h.app.pump()
    h.render()
    _ = i18n.translator("app")
    lost, won = h.find("result:1"), h.find("result:2")
    assert lost.text == _("The table lost") and lost.colour != th.GOOD and lost.colour == th.DANGER
    assert won.text == _("The table won") and won.colour == th.GOOD
    for game_id in (1, 2):  # the crew, not four equal scores
        scores = h.find(f"scores:{game_id}").text.replace("\u00a0", " ")
        assert "Emma" in scores and "Emma 5" not in scores and "Emma 12" not in scores
    assert h.shows("outcome:1") and h.shows("icon:1") and h.overflows() == []


def test_every_row_of_the_list_shows_its_result_in_one_size():
    from companion.ui.tools.demo import LONG_NAMES

    def finished(game_id, players, scores, winners):
        return GameSummary(
            game_id,
            "cloudmine",
            "The Cloud Mine",
            {"game": "cloudmine", "players": players},
            players,
            f"2026-06-0{game_id}T18:00:00+00:00",
            "2026-06-01T19:00:00+00:00",
            "2026-06-01T19:00:00+00:00",
            "over",
            "over",
            winners,
            scores,
            40,
        )

    games = [
        finished(1, list(LONG_NAMES[:2]), {LONG_NAMES[0]: 3, LONG_NAMES[1]: 1}, [LONG_NAMES[0]]),
        finished(2, ["Ann", "Bo"], {"Ann": 3, "Bo": 1}, ["Ann"]),
        coop(3, False),
    ]
    h = Harness((800, 480))
    h.app.show(HistoryScreen(h.app, ListedGames(games)))
    h.app.pump()
    theme = h.app.theme
    for part in ("result", "scores", "title"):
        assert len({h.find(f"{part}:{g.id}").fitted(theme).px for g in games}) == 1, part


@pytest.mark.parametrize("size", [(800, 480), (1024, 600)], ids=["800x480", "1024x600"])
def test_the_recap_in_landscape_is_drawn_for_the_screen_in_readable_type(tmp_path, size):
    from companion.journal import Journal

    journal = Journal.open(tmp_path / "journal.sqlite3")
    h = ended("cloud9", 6, size, journal)
    h.app.finish_idle_work()
    saving = getattr(h.screen, "recap_saving", None)
    if saving is not None:
        saving.join()
    h.app.show(HistoryScreen(h.app))
    h.app.pump()
    game_id = journal.latest().id
    h.tap(f"recap:{game_id}")
    assert isinstance(h.screen, RecapScreen)
    content = h.find("recap").rect
    picture = h.screen.drawn(content.size)
    assert picture.get_size() == content.size  # drawn at the screen's shape, not a page scaled down
    from companion.ui.boards.recap import recap_theme

    assert recap_theme(content.size).size("min") >= 14
    journal.close()


def test_history_recap_draws_in_the_language_asked_for(tmp_path, capsys):
    from companion.cli import main
    from companion.journal import Journal

    journal = Journal.open(tmp_path / "journal.sqlite3")
    ended("cloudship", 4, (800, 480), journal)
    game_id = journal.latest().id
    journal.close()
    drawn = {}
    for language in ("en", "de"):
        out = tmp_path / f"recap-{language}.png"
        assert (
            main(
                [
                    "history",
                    "--db",
                    str(tmp_path / "journal.sqlite3"),
                    "--recap",
                    str(game_id),
                    "--out",
                    str(out),
                    "--language",
                    language,
                ]
            )
            == 0
        )
        drawn[language] = pygame.image.tobytes(pygame.image.load(str(out)), "RGB")
    assert drawn["en"] != drawn["de"] and i18n.current_language() == "en"
    # the German words are those drawn: the recap drawn here in German is the file's picture
    from companion.ui.boards.recap import render_recap

    with Journal.read(tmp_path / "journal.sqlite3") as reading:
        match, started = reading.rebuild(game_id), reading.game(game_id).started_at
    i18n.set_language("de")
    try:
        german = pygame.image.tobytes(render_recap(match, started), "RGB")
    finally:
        i18n.set_language("en")
    assert german == drawn["de"]


def test_the_cloudship_recap_in_landscape_gives_the_crew_s_column_the_game_s_figures(monkeypatch):
    """The crew's card no taller than its names, the garden and the three figures of the end
    screen under it (the column stood 40% empty)."""
    from companion.ui.boards import recap

    h = ended("cloudship", 4, (800, 480))
    match = h.screen.game_screen.match
    v = match.view
    written = []
    text = th.Theme.text
    monkeypatch.setattr(
        th.Theme, "text", lambda self, words, *a, **k: written.append(words) or text(self, words, *a, **k)
    )
    recap.render_recap(match, None, (800, 480))
    planted = sum(v["beds"].values())
    for words in (f"{planted}/12", "flowers planted", "storm squares left", "rounds flown", str(v["round"])):
        assert words in written, words


def test_a_hailstone_in_the_rounds_chart_is_as_large_as_a_flower(monkeypatch):
    """Each block of the round-by-round chart drawn as its picture: the hailstone's ball about
    as wide as the flower beside it (it was three quarters of it)."""
    from companion.ui.boards import plots
    from companion.ui.boards.ship_icons import icon

    h = ended("cloudship", 4, (720, 1280))
    rounds = h.screen.rounds_told
    drawn: dict[str, list[int]] = {}
    blit = plots.blit_icon
    monkeypatch.setattr(
        plots,
        "blit_icon",
        lambda s, kind, c, px, *a: drawn.setdefault(kind, []).append(round(px)) or blit(s, kind, c, px, *a),
    )
    theme = th.Theme(1.0)
    plots.draw_rounds(pygame.Surface((680, 300)), pygame.Rect(0, 0, 680, 300), rounds, theme)
    assert drawn.get("hail") and drawn.get("flower")

    def width(kind: str) -> int:
        return icon(kind, max(drawn[kind])).get_bounding_rect().w

    assert width("hail") >= 0.9 * width("flower"), (width("hail"), width("flower"))
