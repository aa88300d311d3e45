"""The decision banner: the next thing to do is the largest text with words under the top bar
(the numbers that matter may be larger), in every language and orientation, with three players
and with the most and the longest names, on every game screen: each kind of step of a whole
game once for each player whose move it is (Cloud 9's roll, decisions, rise and fall for every
pilot; Cloudship's roll, flight, landing, reveal and planting; the Cloud Mine's guesses)."""

from __future__ import annotations

import re

import pytest

from companion import i18n
from companion.ui.screens.seat_edges import to_move
from companion.ui.tools.demo import MOST_PLAYERS, players_game
from companion.ui.tools.harness import Harness, _labels

WORDS = re.compile(r"[^\W\d_]")  # a letter
# the steps each game's demo game goes through (Cloudship's plants a flower: a tile step)
PHASES = {
    "cloudmine": {"guess"},
    "cloud9": {"roll", "decide", "resolve"},
    "cloudship": {"roll", "flight", "reveal", "plant"},
}


def bar_bottom(h: Harness) -> int:
    """Where the top bar (the game's name, the round, undo and the menu) ends."""
    from companion.ui.kit.layout import TOP_BAR

    return h.app.theme.px(TOP_BAR)


@pytest.fixture(params=i18n.LANGUAGES)
def language(request):
    yield request.param
    i18n.set_language("en")


@pytest.mark.parametrize("size", [(800, 480), (1024, 600), (720, 1280)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("game", ["cloudmine", "cloud9", "cloudship"])
def test_the_decision_is_the_largest_words_on_the_screen(game, size, language):
    for players in (3, MOST_PLAYERS[game]):
        setup, actions = players_game(game, players)
        h = Harness(size)
        h.app.change_config(language=language)
        screen = h.start_game(setup)
        judged = set()
        for number, action in enumerate(actions):
            step = (screen.view["phase"], action["act"], tuple(to_move(screen.view)))
            if step not in judged:
                judged.add(step)
                screen.card = None  # the banner under a result card is judged once the card is closed
                screen.refresh()
                h.app.pump()
                theme = h.app.theme
                banner = next(w for w in h.widgets() if w.key in ("prompt", "load"))
                assert any(w.key == "prompt-card" and w.rect.contains(banner.rect) for w in h.widgets())
                others = [
                    label
                    for label in _labels(h.app.layers()[0])
                    if label is not banner and WORDS.search(label.text) and label.rect.top >= bar_bottom(h)
                ]
                largest = max(others, key=lambda label: label.fitted(theme).px)
                assert banner.fitted(theme).px >= largest.fitted(theme).px, (players, number, banner.text, largest.text)
            screen.submit(action)
        assert {phase for phase, _act, _who in judged} >= PHASES[game]
