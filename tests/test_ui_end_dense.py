"""The end screens with the most players and the longest names, at every listed size and in the
three languages: every line whole, the table's names whole and of one size, the Cloudship
rounds chart readable."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from companion.ui.screens.end import EndScreen, NameLabel
from companion.ui.tools.demo import players_game
from companion.ui.tools.harness import Harness, flat

SIZES = ((800, 480), (720, 1280), (1024, 600), (1280, 800), (1920, 1080))
GAMES = (("cloud9", 6), ("cloud9", 3), ("cloudmine", 8), ("cloudmine", 3), ("cloudship", 4), ("cloudship", 3))
CHECKS = ("overflows", "clipped", "covered", "spilled", "off_canvas", "small_targets", "dropped")


def ended(game: str, players: int, size: tuple[int, int], language: str = "en") -> Harness:
    setup, actions = players_game(game, players)
    h = Harness(size)
    h.app.change_config(language=language)
    screen = h.start_game(setup)
    for action in actions:
        assert screen.submit(action), action
    h.app.pump()
    assert isinstance(h.screen, EndScreen)
    return h


def findings(h: Harness) -> dict[str, list[str]]:
    return {check: found for check in CHECKS if (found := getattr(h, check)())}


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("game, players", GAMES, ids=[f"{g}-{n}" for g, n in GAMES])
def test_an_end_screen_with_the_longest_names_shows_every_line_whole(game, players, size):
    h = ended(game, players, size)
    for language in ("en", "de", "hu"):
        h.app.change_config(language=language)
        h.app.pump()
        assert findings(h) == {}, language


@pytest.mark.parametrize("game, players", [("cloud9", 6), ("cloudmine", 8)])
def test_the_ranked_table_writes_every_name_on_one_line_in_one_size(game, players):
    h = ended(game, players, (800, 480))
    theme = h.app.theme
    names = [w for w in flat(h.widgets()) if isinstance(w, NameLabel)]
    fitted = [w.fitted(theme) for w in names]
    assert len(names) == players
    assert all(len(f.lines) == 1 for f in fitted), [f.lines for f in fitted]
    assert len({f.px for f in fitted}) == 1, [f.px for f in fitted]


def storm_column_heights(h: Harness) -> list[int]:
    """Per pixel column of the rounds chart, how many of its pixels have the storm's colour."""
    from companion.ui.kit import theme as th

    surface = h.render()
    rect = h.find("rounds").rect
    storm = tuple(th.COLOURS["storm"].rgb)
    return [
        sum(1 for y in range(rect.top, rect.bottom) if tuple(surface.get_at((x, y)))[:3] == storm)
        for x in range(rect.left, rect.right)
    ]


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)], ids=["landscape", "portrait"])
def test_the_cloudship_rounds_chart_has_bars_a_table_can_read(size):
    """Four long names and a long game: the storm's biggest round stands at least 24 pixels
    high at 800x480 (three squares of 8), not a row of specks."""
    h = ended("cloudship", 4, size)
    rounds = h.screen.rounds_told
    assert len(rounds) > 20 and max(r.storm_moved for r in rounds) >= 2
    assert max(storm_column_heights(h)) >= 24 * h.app.theme.scale


def test_the_cloudship_rounds_chart_keeps_its_key_and_numbers_apart():
    from companion.ui.boards.plots import rounds_geometry

    h = ended("cloudship", 4, (800, 480), "de")
    theme, rect = h.app.theme, h.find("rounds").rect
    g = rounds_geometry(rect, h.screen.rounds_told, theme)
    assert rect.contains(g["chart"]) and g["chart"].x >= rect.x + g["key_w"]
    assert all(theme.measure(word, theme.size("min"), "regular")[0] + g["swatch"] <= g["key_w"] for word in g["words"])
    widest = theme.measure("27", theme.size("min"), "regular")[0]
    numbers = g["numbers"]
    steps = {b - a for a, b in zip(numbers, numbers[1:])}
    assert len(numbers) > 2 and len(steps) == 1 and all(n % min(steps) == 0 for n in numbers)  # evenly spaced
    assert all((b - a) * g["slot"] / g["per"] >= widest + theme.px(8) for a, b in zip(numbers, numbers[1:]))


@given(count=st.integers(1, 200), slot=st.floats(2, 120), widest=st.integers(6, 40))
def test_round_numbers_never_touch_and_are_evenly_spaced(count, slot, widest):
    from companion.ui.boards.plots import round_labels

    shown = round_labels(list(range(1, count + 1)), slot, widest, 8)
    assert shown and shown == sorted(set(shown)) and set(shown) <= set(range(1, count + 1))
    assert len({b - a for a, b in zip(shown, shown[1:])}) <= 1
    assert all((b - a) * slot >= widest + 8 for a, b in zip(shown, shown[1:]))


def test_eight_players_tokens_on_the_end_table_are_as_tall_as_their_rows_allow():
    """Eight rows of one line at 800x480: each token fills its row's height (18 px here), so its
    letter can still be read; the name beside it is no taller."""
    from companion.ui.kit.widgets import PlayerToken

    h = ended("cloudmine", 8, (800, 480))
    theme = h.app.theme
    tokens = [w for w in flat(h.widgets()) if isinstance(w, PlayerToken)]
    names = {w.key: w for w in flat(h.widgets()) if isinstance(w, NameLabel)}
    assert len(tokens) == 8
    for token in tokens:
        assert token.rect.h >= theme.size("min"), (token.key, token.rect)
        assert token.rect.h >= names[f"name:{token.name}"].fitted(theme).px


def grey(surface, rect) -> list[int]:
    """The swatch as a colour-blind eye sees brightness: one grey level per pixel."""
    return [
        sum(surface.get_at((x, y))[:3]) // 3 for y in range(rect.top, rect.bottom) for x in range(rect.left, rect.right)
    ]


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)], ids=["800x480", "720x1280"])
def test_the_cloud_mine_roles_differ_by_pattern_not_only_by_colour(size):
    h = ended("cloudmine", 8, size)
    canvas = h.render()
    swatches = {role: h.find(f"legend:{role}").rect for role in ("dreamer", "chooser", "observer")}
    spreads = {role: max(grey(canvas, rect)) - min(grey(canvas, rect)) for role, rect in swatches.items()}
    assert spreads["dreamer"] < 10  # solid
    assert spreads["chooser"] > 60 and spreads["observer"] > 60  # white stripes and dots on colour
    # the two patterns themselves differ: where the white falls, not only the colour under it
    chooser, observer = ([level > 200 for level in grey(canvas, swatches[r])] for r in ("chooser", "observer"))
    assert any(chooser) and any(observer) and chooser != observer


def test_a_patterned_bar_keeps_its_pattern_inside_its_own_rect():
    import pygame

    from companion.ui.boards.recap import fill_pattern

    surface = pygame.Surface((60, 60))
    surface.fill((0, 0, 0))
    bar = pygame.Rect(20, 10, 12, 40)
    fill_pattern(surface, bar, (240, 127, 19), "stripes")
    outside = [surface.get_at((x, y))[:3] for x in range(60) for y in range(60) if not bar.collidepoint(x, y)]
    assert set(outside) == {(0, 0, 0)}
    assert surface.get_clip() == surface.get_rect()


@pytest.mark.parametrize(
    "game, players", [("cloud9", 6), ("cloudmine", 8), ("cloudship", 4)], ids=["cloud9-6", "cloudmine-8", "cloudship-4"]
)
def test_the_recap_picture_draws_no_text_over_other_text(game, players, monkeypatch):
    """The kept picture with the longest names: no line drawn over another, and the standings'
    names in one size."""
    from companion.ui.boards import recap

    drawn: list[tuple[str, object, int]] = []
    images: list = []
    text, image_of = recap._Recap.text, recap.th.Theme.text

    def kept(self, *args, **kwargs):
        images.append(image_of(self, *args, **kwargs))
        return images[-1]

    def noted(self, words, role, pos, *args, **kwargs):
        rect = text(self, words, role, pos, *args, **kwargs)
        if words:  # where the letters' ink is, not their line box
            drawn.append((words, images[-1].get_bounding_rect().move(rect.topleft), rect.h))
        return rect

    monkeypatch.setattr(recap.th.Theme, "text", kept)
    monkeypatch.setattr(recap._Recap, "text", noted)
    h = ended(game, players, (800, 480))
    recap.render_recap(h.app.controller.match)
    overlapping = [(a[0], b[0]) for i, a in enumerate(drawn) for b in drawn[i + 1 :] if a[1].colliderect(b[1])]
    assert overlapping == []
    names = set(h.app.controller.match.view["players"])
    first: dict[str, int] = {}  # the standings come first, then the story's rows
    for words, _rect, height in drawn:
        if words in names:
            first.setdefault(words, height)
    assert len(first) == len(names) and len(set(first.values())) == 1
