"""The History screen with many players and long names: every row shows its text whole, lists
the scores by rank with the winner first, and counts the players it has no room to name
("+2 more", in the table's language); the Records lines wrap rather than run out of their card."""

from __future__ import annotations

import re

import pygame
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from companion import i18n
from companion.journal import GameSummary
from companion.ui.kit.layout import SIZES
from companion.ui.screens.history import HistoryScreen, ListedGames, listed, ranked_scores
from companion.ui.tools.demo import LONG_NAMES
from companion.ui.tools.harness import Harness

NBSP = "\u00a0"
QUICK_SIZES = ((800, 480), (720, 1280))
MORE_WORD = {"en": "more", "de": "weitere", "hu": "további"}
CHECKS = ("overflows", "clipped", "covered", "spilled", "off_canvas", "dropped")


def finished(
    game_id: int, players: list[str], scores: dict[str, int], winners: list[str], game: str = "cloudmine"
) -> GameSummary:
    return GameSummary(
        game_id,
        game,
        game,
        {"game": game, "players": players},
        players,
        f"2026-06-{1 + game_id % 28:02d}T18:00:00+00:00",
        "2026-06-01T19:00:00+00:00",
        "2026-06-01T19:00:00+00:00",
        "over",
        "over",
        winners,
        scores,
        40,
    )


def shown_row(h: Harness, game_id: int) -> tuple[str, str]:
    """The row's result line and its scores, as the screen shows them (plain spaces)."""
    return (h.find(f"result:{game_id}").text.replace(NBSP, " "), h.find(f"scores:{game_id}").text.replace(NBSP, " "))


def problems(h: Harness) -> list[str]:
    return [f"{check}: {line}" for check in CHECKS for line in getattr(h, check)()]


def named_and_counted(text: str, players: list[str]) -> tuple[list[str], int]:
    """The players a scores line names, in its order, and how many it counts as "+N more"."""
    named = sorted((p for p in players if p in text), key=text.index)
    more = re.search(r"\+(\d+)", text)
    return named, int(more.group(1)) if more else 0


def show(h: Harness, *games: GameSummary, source=None) -> None:
    h.app.show(HistoryScreen(h.app, source or ListedGames(games)))
    h.app.pump()
    h.render()


def test_scores_are_ranked_the_winners_first_and_each_name_keeps_its_score():
    # a Cloud 9 tie broken by the hand: the winner leads though another has as many points
    game = finished(
        1,
        ["Ann", "Szentgyörgyi Boglárka", "Cat", "Dan"],
        {"Ann": 30, "Szentgyörgyi Boglárka": 52, "Cat": 52, "Dan": 30},
        ["Cat"],
        "cloud9",
    )
    assert [e.replace(NBSP, " ") for e in ranked_scores(game)] == [
        "Cat 52",
        "Szentgyörgyi Boglárka 52",
        "Ann 30",
        "Dan 30",
    ]  # seat order among equals
    assert all(" " not in entry for entry in ranked_scores(game))  # never parted at a line break


@pytest.mark.parametrize(
    "language,more", [("en", "+1 more"), ("de", "+1 weiterer"), ("de", "+3 weitere"), ("hu", "+3 további")]
)
def test_what_a_row_leaves_out_is_counted_in_the_table_s_language(language, more):
    i18n.set_language(language)
    rest = int(more[1])
    text = listed(["A 1", "B 2", "C 3", "D 4"], 4 - rest)
    assert text.endswith(more.replace(" ", NBSP)) and text.count(",") == 4 - rest


@pytest.mark.parametrize("size", QUICK_SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_eight_long_names_name_the_winner_first_and_count_the_rest(language, size):
    players = list(LONG_NAMES)
    scores = {p: 10 + 3 * n for n, p in enumerate(players)}
    winner = players[2]
    h = Harness(size)
    h.app.change_config(language=language)
    show(h, finished(7, players, scores, [winner]))
    assert problems(h) == []
    result, text = shown_row(h, 7)
    assert winner in result
    named, counted = named_and_counted(text, players)
    ranked = [e.replace(NBSP, " ").rsplit(" ", 1)[0] for e in ranked_scores(finished(7, players, scores, [winner]))]
    assert named == ranked[: len(named)] and named[0] == winner  # the best first, the winner leading
    assert counted == len(players) - len(named) > 0  # every player named or counted
    assert MORE_WORD[language] in text


def test_a_row_with_room_names_everyone_and_counts_no_one():
    players = ["Ann", "Ben", "Cat"]
    h = Harness((800, 480))
    show(h, finished(3, players, {"Ann": 4, "Ben": 9, "Cat": 6}, ["Ben"]))
    _result, text = shown_row(h, 3)
    assert text == "Ben 9, Cat 6, Ann 4" and "+" not in text


@pytest.mark.parametrize("size", QUICK_SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_win_shared_by_five_long_names_names_the_first_and_counts_the_others(size):
    players = list(LONG_NAMES)
    winners = players[3:8]
    h = Harness(size)
    h.app.change_config(language="de")
    show(h, finished(5, players, {p: 12 if p in winners else 4 for p in players}, winners))
    assert problems(h) == []  # `dropped` included: the first winner is always named
    result, _text = shown_row(h, 5)
    named, counted = named_and_counted(result, winners)
    assert named == winners[: len(named)] and len(named) + counted == len(winners)


class WithRecaps(ListedGames):
    """Games whose recap pictures lie in the exports folder beside `path`."""

    def __init__(self, folder, games):
        super().__init__(games)
        self.path = folder / "journal.sqlite3"


@pytest.mark.parametrize("size", [(800, 480), (720, 1280), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_row_with_its_recap_picture_still_fits_eight_long_names(tmp_path, size):
    from companion.ui.boards import recap

    players = list(LONG_NAMES)
    games = [finished(i, players, {p: n + i for n, p in enumerate(players)}, [players[i]]) for i in range(3)]
    h = Harness(size)
    h.app.change_config(language="hu")
    for game in games:
        path = recap.recap_path(tmp_path / "journal.sqlite3", game.id, game.game)
        path.parent.mkdir(exist_ok=True)
        pygame.image.save(pygame.Surface((30, 40)), str(path))
    show(h, source=WithRecaps(tmp_path, games))
    assert all(h.shows(f"recap:{game.id}") for game in games)
    assert problems(h) == []
    for game in games:
        _result, text = shown_row(h, game.id)
        named, counted = named_and_counted(text, players)
        assert named[0] == game.winners[0] and len(named) + counted == len(players)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_every_row_shows_its_text_whole_and_every_player_named_or_counted_or_a_tap_away(data):
    count = data.draw(st.integers(3, 8), label="players")
    players = data.draw(st.permutations(LONG_NAMES), label="order")[:count]
    scores = {p: data.draw(st.integers(0, 120), label=p) for p in players}
    winners = data.draw(st.lists(st.sampled_from(players), min_size=0, max_size=count, unique=True), label="winners")
    size = data.draw(st.sampled_from(SIZES + ((1280, 800),)), label="size")
    language = data.draw(st.sampled_from(i18n.LANGUAGES), label="language")
    h = Harness(size)
    h.app.change_config(language=language)
    show(h, finished(1, players, scores, winners))
    assert problems(h) == []
    _result, text = shown_row(h, 1)
    named, counted = named_and_counted(text, players)
    assert len(named) + counted == count and named
    h.tap("game-row:1")  # and the game's own screen names every player with their score
    assert problems(h) == [] and all(h.find(f"score:{p}").text == str(scores[p]) for p in players)


def test_records_lines_with_long_names_wrap_in_order_and_none_is_cut():
    from companion.ui.kit.theme import Theme
    from companion.ui.kit.widgets import Label
    from companion.ui.screens.records import record_rows

    theme = Theme(1.0)
    Harness()
    area = pygame.Rect(20, 40, 300, 260)
    lines = [f"{name}: 12/30 won, streak 4" for name in LONG_NAMES]
    placed = record_rows(theme, area, lines, 6)
    assert 3 <= len(placed) < len(lines)  # the least telling lines are left out, not squeezed
    assert [line for _rect, line in placed] == lines[: len(placed)]
    for (above, _), (below, _) in zip(placed, placed[1:]):
        assert above.bottom <= below.top
    for i, (rect, line) in enumerate(placed):
        label = Label(rect, line, "small" if i else "body", wrap=True)
        assert area.contains(rect) and label.overflow(theme) == [] and label.clipped(theme) == []
    # with room to spare the lines stay together as a list: half a line apart, not spread down the card
    short = record_rows(theme, area, ["Games played: 3", "Ann: 2/3 won, streak 2", "Bo: 1/3 won, streak 1"], 6)
    gaps = [below.top - above.bottom for (above, _), (below, _) in zip(short, short[1:])]
    assert gaps[0] == gaps[1] and 6 <= gaps[0] <= short[1][0].h // 2 + 1


@pytest.mark.parametrize("size", QUICK_SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_tap_on_a_row_shows_every_score_and_back_returns_to_its_page(size):
    from companion.ui.screens.history import ScoresScreen

    players = list(LONG_NAMES)
    games = [finished(i, players, {p: (n * 7 + i) % 30 for n, p in enumerate(players)}, [players[i]]) for i in range(7)]
    h = Harness(size)
    h.app.change_config(language="hu")
    show(h, *games)
    h.tap("older")
    page = next(text for text in h.texts() if "oldal" in text)
    row = next(w.key for w in h.widgets() if (w.key or "").startswith("game-row:"))
    game = games[int(row.split(":")[1])]
    h.tap(row)
    assert isinstance(h.screen, ScoresScreen) and problems(h) == []
    # in reading order (row by row, a row's left first): the winner, then from the best down
    shown = sorted(players, key=lambda p: (h.find(f"name:{p}").rect.top, h.find(f"name:{p}").rect.left))
    assert shown == [e.replace(NBSP, " ").rsplit(" ", 1)[0] for e in ranked_scores(game)]
    assert shown[0] == game.winners[0]
    assert [h.find(f"score:{p}").text for p in players] == [str(game.scores[p]) for p in players]
    assert game.winners[0] in h.find("result").text
    h.app.back()
    assert isinstance(h.screen, HistoryScreen) and page in h.texts()


def test_a_row_is_reached_and_opened_from_the_keyboard_too():
    from companion.ui.screens.history import ScoresScreen

    h = Harness((800, 480))
    show(h, finished(4, list(LONG_NAMES[:5]), dict.fromkeys(LONG_NAMES[:5], 5), [LONG_NAMES[1]]))
    for _ in range(10):
        h.key(pygame.K_TAB)
        if (h.app.focus_key or "").startswith("game-row:"):
            break
    assert h.app.focus_key == "game-row:4"
    focused = h.render().get_at(h.find("game-row:4").rect.midtop)[:3]
    assert focused == (255, 166, 0)  # the focus ring on the card's edge
    h.key(pygame.K_RETURN)
    assert isinstance(h.screen, ScoresScreen) and h.find("result").text.endswith(LONG_NAMES[1])


@pytest.mark.parametrize("size", QUICK_SIZES + ((1920, 1080),), ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_on_the_players_tab_a_long_name_is_never_smaller_than_its_record(language, size):
    from companion.journal import PlayerTotal

    totals = [PlayerTotal(name, "cloudmine", "The Cloud Mine", 120, 45, 900, 31) for name in LONG_NAMES]
    h = Harness(size)
    h.app.change_config(language=language)
    h.app.show(HistoryScreen(h.app, ListedGames((), totals)))
    h.tap("tab:players")
    h.render()
    assert problems(h) == []
    theme = h.app.theme
    for row in [w for w in h.widgets() if (w.key or "").startswith("total:")]:
        labels = [w for w in h.widgets() if hasattr(w, "fitted") and row.rect.contains(w.rect)]
        name, _title, record = labels
        assert name.text in LONG_NAMES and name.fitted(theme).px >= record.fitted(theme).px, (name.text, record.text)


@pytest.fixture(scope="module")
def records_journal(tmp_path_factory):
    """A journal with a finished game of each title (three players)."""
    from journaling import demo_games_journal

    journal = demo_games_journal(tmp_path_factory.mktemp("records") / "journal.sqlite3", (3,))
    yield journal
    journal.close()


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_records_in_portrait_use_large_type_in_a_list_not_scattered_down_the_card(records_journal, language):
    from companion.ui.screens.records import TITLES

    h = Harness((720, 1280), journal=records_journal)
    h.app.change_config(language=language)
    h.app.show(HistoryScreen(h.app))
    h.tap("tab:records")
    theme = h.app.theme
    for title in TITLES:
        h.tap(f"records:{title}")
        h.app.pump()
        assert problems(h) == [], title
        shown = [w for w in h.widgets() if (w.key or "").startswith(("played:", "record:"))]
        assert len(shown) >= 3, title
        records = [label.fitted(theme) for label in shown[1:]]
        assert min(f.px for f in records) >= theme.px(22), title  # larger than "small", as before
        inks = [label.ink(theme) for label in shown]
        gaps = [below[0].top - above[-1].bottom for above, below in zip(inks, inks[1:])]
        # one even list: no gap taller than a line of it (its type and the line's leading), the
        # gaps between the records alike to a descender's difference
        px = records[0].px
        assert max(gaps) <= px * 1.25 and max(gaps[1:]) - min(gaps[1:]) <= px // 3, (title, gaps)


@pytest.mark.parametrize("size", QUICK_SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("won", [True, False], ids=["won", "lost"])
def test_a_game_the_table_plays_together_shows_one_result_and_the_crew_without_scores(size, won):
    """Cloudship is won or lost by everyone: its own screen gives the flowers the table reached
    once, in the result's colour, and names the crew, not a score for each as if they competed."""
    from companion.ui.kit import theme as th
    from companion.ui.screens.history import ScoresScreen

    players = list(LONG_NAMES[:6])
    game = finished(3, players, dict.fromkeys(players, 12 if won else 4), players if won else [], "cloudship")
    h = Harness(size)
    h.app.change_config(language="de")
    show(h, game)
    h.tap("game-row:3")
    assert isinstance(h.screen, ScoresScreen) and problems(h) == []
    assert h.find("reached").text == ("12 von 12 Blumen" if won else "4 von 12 Blumen")
    assert h.find("result").text == ("Der Tisch hat gewonnen" if won else "Der Tisch hat verloren")
    assert h.find("table-result").stripe == (th.GOOD if won else th.DANGER)
    assert all(h.find(f"name:{p}") for p in players)
    assert not [w.key for w in h.widgets() if (w.key or "").startswith(("score:", "score-card:"))]


@pytest.mark.parametrize("size", QUICK_SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_records_cloud9_chart_names_every_line_whole_under_the_plot(size, monkeypatch):
    """Six long names: the key of whose line is whose gives each name whole (it read
    "Hajdúszoboszlói Ö…"), each under the plot's round labels, not over its lines."""
    from companion.rules import Match
    from companion.ui.boards import plots
    from companion.ui.kit import theme as th
    from companion.ui.tools.demo import players_game

    setup, actions = players_game("cloud9", 6)
    match = Match.start(setup)
    for action in actions:
        match = match.apply(action)
    h = Harness(size)
    theme = h.app.theme
    # the chart's box on the Records screen: its card's half (landscape) or lower part (portrait)
    body = h.app.frame.content
    rect = (
        pygame.Rect(body.x, body.y + body.h // 2, body.w, body.h // 2)
        if size[1] > size[0]
        else pygame.Rect(body.right - body.w * 5 // 9, body.y, body.w * 5 // 9, body.h)
    ).inflate(-theme.px(12), -theme.px(12))
    written, areas = [], []
    render = th.Font.render
    monkeypatch.setattr(th.Font, "render", lambda self, text, *a: written.append(text) or render(self, text, *a))
    axes = plots._axes
    monkeypatch.setattr(plots, "_axes", lambda *a: areas.append(axes(*a)) or areas[-1])
    surface = pygame.Surface(size)
    plots.plot_game(surface, rect, match, theme)
    assert set(setup["players"]) <= set(written)
    [area] = areas
    font = theme.font(theme.size("min"), "regular")
    labels_bottom = area.bottom + theme.px(3) + font.get_linesize()
    entries = plots.players_key(rect, [("red", name) for name in setup["players"]], theme)
    boxes = [box for _centre, box, _name in entries]
    assert all(rect.contains(box) and box.top >= labels_bottom for box in boxes)
    assert not any(a.colliderect(b) for i, a in enumerate(boxes) for b in boxes[i + 1 :])
    assert area.h >= theme.px(150)  # the plot itself keeps room for its lines


def test_a_cloud_mine_role_nobody_has_held_cards_in_is_no_record():
    """Nobody kept a card as Chooser: no "Most cards as Chooser: Ann (0)"."""
    from companion.insights.records import TitleRecords
    from companion.ui.screens.records import record_lines

    records = TitleRecords("cloudmine", played=1)
    records.cards_per_role = {"dreamer": {"Ann": 2, "Bo": 1}, "chooser": {"Ann": 0, "Bo": 0}, "observer": {"Bo": 5}}
    lines = record_lines(records)
    assert "Most cards as Dreamer: Ann (2)" in lines and "Most cards as Observer: Bo (5)" in lines
    assert not [line for line in lines if "Chooser" in line]


@pytest.mark.parametrize("title", ["cloud9", "cloudship", "cloudmine"])
def test_records_list_the_title_s_records_in_ink_and_every_player_s_line_alike(records_journal, title):
    """One list, two kinds of row: the title's own records in ink, each player's wins in the
    softer ink, whichever line the players' start on (the first player's line was in ink
    where a title had two records)."""
    from companion.ui.kit import theme as th

    h = Harness((800, 480), journal=records_journal)
    h.app.show(HistoryScreen(h.app))
    h.tap("tab:records")
    h.tap(f"records:{title}")
    h.app.pump()
    rows = [w for w in h.widgets() if (w.key or "").startswith(("played:", "record:"))]
    players = [w for w in rows if re.search(r": \d+/\d+ won, streak \d+$", w.text)]
    assert players and rows[0] not in players
    assert all(w.colour == th.INK_SOFT for w in players), [(w.text, w.colour) for w in players]
    assert all(w.colour == th.INK for w in rows if w not in players)


def test_the_cloudship_chart_s_key_sits_under_its_round_labels_not_on_its_lines(monkeypatch):
    """The Storm and Flowers key was drawn inside the plot, its words crossed by the line of
    twelve flowers."""
    from companion.rules import Match
    from companion.ui.boards import plots
    from companion.ui.tools.demo import players_game

    setup, actions = players_game("cloudship", 4)
    match = Match.start(setup)
    for action in actions:
        match = match.apply(action)
    Harness((800, 480))
    from companion.ui.kit.theme import Theme

    theme = Theme(1.0)
    areas, keys = [], []
    axes, legend = plots._axes, plots._legend
    monkeypatch.setattr(plots, "_axes", lambda *a: areas.append(axes(*a)) or areas[-1])
    monkeypatch.setattr(plots, "_legend", lambda s, box, *a: keys.append(box) or legend(s, box, *a))
    rect = pygame.Rect(8, 8, 400, 300)
    plots.plot_game(pygame.Surface((420, 320)), rect, match, theme)
    [area], [key] = areas, keys
    labels_bottom = area.bottom + theme.px(3) + theme.font(theme.size("min")).get_linesize()
    assert key.top >= labels_bottom and rect.contains(key)


@pytest.mark.parametrize("size", QUICK_SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_each_record_of_a_title_has_its_picture_beside_it(records_journal, size):
    """Records read as a list of pictures and words, not text alone: the count of games beside
    the title's own picture, a best beside a crown, a Cloud Mine role beside its piece, each
    picture at its line's left and height; a player's line is indented as far, without one."""
    h = Harness(size, journal=records_journal)
    h.app.change_config(language="hu")
    h.app.show(HistoryScreen(h.app))
    h.tap("tab:records")
    for title in ("cloud9", "cloudship", "cloudmine"):
        h.tap(f"records:{title}")
        h.app.pump()
        assert problems(h) == [], title
        rows = [w for w in h.widgets() if (w.key or "").startswith(("played:", "record:"))]
        players = [w for w in rows if re.search(r": \d+/\d+ győzelem, sorozat \d+$", w.text)]
        marks = {w.key: w for w in h.widgets() if (w.key or "").startswith("record-mark:")}
        for i, row in enumerate(rows):
            mark = marks.get(f"record-mark:{i}")
            if row in players:
                assert mark is None, row.text
                continue
            assert mark is not None, (title, row.text)
            first_line = row.ink(h.app.theme)[0]
            assert mark.rect.right <= row.rect.left and mark.rect.top <= first_line.centery <= mark.rect.bottom
        assert len({w.rect.left for w in rows}) == 1, title  # one column of words


@pytest.mark.parametrize("game_name", ["cloud9", "cloudship"])
def test_a_games_own_screen_shows_each_player_by_the_token_they_played_in(game_name):
    """As on the game's own screens: each card has the player's disc in the colour the Players
    screen stored for them (the palette's, by seat, where the setup has none)."""
    from dataclasses import replace

    from companion.ui.kit import theme as th
    from companion.ui.kit.widgets import PlayerToken
    from companion.ui.screens.history import ScoresScreen

    players = list(LONG_NAMES[:5])
    game = finished(2, players, {p: i for i, p in enumerate(players)}, [players[-1]], game_name)
    chosen = {players[0]: "purple", players[3]: "black"}
    game = replace(game, setup={**game.setup, "colours": chosen})
    h = Harness((800, 480))
    show(h, game)
    h.tap("game-row:2")
    assert isinstance(h.screen, ScoresScreen) and problems(h) == []
    for seat, name in enumerate(players):
        token = h.find(f"token:{name}")
        assert isinstance(token, PlayerToken) and token.name == name
        assert token.colour == chosen.get(name, th.PLAYER_COLOURS[seat % len(th.PLAYER_COLOURS)])
        card = h.find(f"{'crew' if game_name == 'cloudship' else 'score'}-card:{name}")
        label = h.find(f"name:{name}")
        assert card.rect.contains(token.rect) and not token.rect.colliderect(label.rect)
        assert min(token.rect.size) >= 24
