"""The end screens with the most players and the longest names, at every listed size and in the
three languages: every line whole, the table's names whole and of one size, the Cloudship
rounds chart readable."""

from __future__ import annotations

import pytest

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
