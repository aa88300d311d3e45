"""A result card leaves in sight what its moment changed: after a fall or a trip to the top of
Cloud 9 every player's score, after a Cloud Mine settlement the new Dreamer and Chooser and the
deck, with three and with the most players and the longest names, landscape and portrait."""

from __future__ import annotations

import pytest

from companion.ui.tools.demo import players_game
from companion.ui.tools.harness import Harness, flat


def first_card(h: Harness, game: str, players: int, kinds: tuple[str, ...]):
    setup, actions = players_game(game, players)
    screen = h.start_game(setup)
    for action in actions:
        screen.submit(action)
        if screen.card is not None and screen.card.kind in kinds:
            h.app.pump()
            return screen
    pytest.skip(f"no {kinds} in this game")


def hidden(h: Harness, keys: set[str]) -> list[str]:
    """The keys of `keys` the story's card paints over."""
    card = h.find("story-card").rect
    return [w.key for w in flat(h.app.layers()[0]) if w.key in keys and w.rect.colliderect(card)]


SIZES = [(800, 480), (1024, 600), (720, 1280)]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("players", [3, 6])
def test_the_fall_card_covers_no_score(size, players):
    h = Harness(size)
    screen = first_card(h, "cloud9", players, ("fall", "top"))
    assert hidden(h, {f"score:{name}" for name in screen.view["players"]}) == []


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("players", [3, 8])
def test_the_settle_card_covers_neither_the_new_roles_nor_the_deck(size, players):
    h = Harness(size)
    screen = first_card(h, "cloudmine", players, ("settle",))
    v = screen.view
    assert hidden(h, {f"player:{v['dreamer']}", f"player:{v['chooser']}", "deck", "deck-pile", "deck-caption"}) == []
    assert not (h.overflows() or h.clipped())
