"""The story on the game screens, on real pygame (dummy driver): the result card of a big
moment stays until the next action or a tap and never covers a button; the strip shows the
recent events; a refusal never covers a button either, in landscape and portrait."""

from __future__ import annotations

import pytest

from companion.ui.screens.cloudmine import demo_game as cloudmine_demo
from companion.ui.tools.harness import Harness

SIZES = [(800, 480), (720, 1280)]


def tappable(h: Harness):
    return [w for w in h.app.live_widgets() if w.accepts_tap() and not (w.key or "").startswith("story-card")]


def covers_a_button(h: Harness, key: str) -> list[str]:
    box = h.find(key).rect
    return [w.key or "?" for w in tappable(h) if w.rect.colliderect(box)]


@pytest.mark.parametrize("size", SIZES)
def test_a_cloud_mine_settlement_card_stays_until_tapped_and_covers_no_button(size):
    h = Harness(size)
    screen = h.start_game({"game": "cloudmine", "players": ["Ann", "Ben", "Cat", "Dan"]})
    finder = screen.view["to_guess"]
    h.tap("right")  # the first guess is right: the round is settled
    assert h.find("story-headline").texts() == [f"{finder} found the card"]
    assert covers_a_button(h, "story-card") == []
    # still there after a redraw and a refusal
    screen.submit({"act": "guess", "player": "Ann", "correct": True})
    assert h.shows("story-card")
    h.tap("story-card")
    assert not h.shows("story-card")
    # the strip keeps it
    assert f"{finder} found the card" in h.texts()


def test_the_next_action_replaces_the_card_and_undo_takes_it_away():
    h = Harness((800, 480))
    h.start_game({"game": "cloudmine", "players": ["Ann", "Ben", "Cat", "Dan"]})
    h.tap("right")
    assert h.shows("story-card")
    h.tap("wrong")  # the next action: a wrong guess is no big moment, the card goes
    assert not h.shows("story-card")
    assert h.find("story:0").texts()  # the strip shows the events
    h.tap("undo")
    h.tap("undo")
    assert not h.shows("story-card")
    assert h.shows("story:none")  # nothing has happened yet


@pytest.mark.parametrize("size", SIZES)
def test_a_refusal_never_covers_an_action_and_says_the_rule_smaller(size):
    h = Harness(size)
    screen = h.start_game({"game": "cloudmine", "players": ["Ann", "Ben", "Cat", "Dan"]})
    assert not screen.submit({"act": "guess", "player": "Ann", "correct": True})
    assert covers_a_button(h, "toast") == []
    text, rule = h.find("toast-text"), h.find("toast-rule")
    assert text.rect.bottom <= rule.rect.top  # reason first, rule second
    theme = h.app.theme
    assert text.fitted(theme).px > rule.fitted(theme).px  # and smaller
    assert h.overflows() == []


def cards_of_a_game(h: Harness, setup: dict, actions: list[dict]) -> list[str]:
    """Play `actions` on `h`; every result card on the way must fit and cover no button. The
    kinds of the cards shown, in order."""
    screen = h.start_game(setup)
    shown = []
    for action in actions:
        screen.submit(action)
        h.app.pump()
        if h.app.screen is not screen:
            break
        if screen.card is not None:
            shown.append(screen.card.kind)
            assert covers_a_button(h, "story-card") == [], screen.card.kind
            assert h.overflows() == [] and h.off_canvas() == [], screen.card.kind
    return shown


@pytest.mark.parametrize("size", SIZES)
def test_every_card_of_a_whole_cloud_mine_game_fits_and_covers_no_button(size):
    assert len(cards_of_a_game(Harness(size), *cloudmine_demo())) >= 3


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("language", ["de", "hu"])
def test_cloud9_and_cloudship_cards_fit_in_every_language(size, language):
    from companion.ui.screens.cloud9 import demo_game as cloud9_demo
    from companion.ui.screens.cloudship import demo_game as cloudship_demo

    seen = set()
    for demo in (cloud9_demo, cloudship_demo):
        h = Harness(size)
        h.app.change_config(language=language)
        seen |= set(cards_of_a_game(h, *demo()))
    assert {"top", "fall", "storm", "hail"} <= seen or {"top", "storm", "hail"} <= seen


def test_player_tokens_show_initials_and_never_the_same_mark_twice():
    from companion.ui.kit.widgets import token_marks

    assert token_marks(["Ann", "Ben", "Cat"]) == {"Ann": "A", "Ben": "B", "Cat": "C"}
    assert token_marks(["Black", "Blue", "Green"]) == {"Black": "B1", "Blue": "B2", "Green": "G"}
    assert token_marks(["Bea", "Bob", "Ádám", "Anna"]) == {"Bea": "Be", "Bob": "Bo", "Ádám": "Á", "Anna": "A"}
    h = Harness((800, 480))
    h.start_game({"game": "cloud9", "players": ["Bea", "Bob", "Cat"]})
    from companion.ui.kit.widgets import PlayerToken

    def flat(widgets):
        for w in widgets:
            yield w
            yield from flat(getattr(w, "children", []))

    marks = {w.name: w.mark for w in flat(h.widgets()) if isinstance(w, PlayerToken)}
    assert marks == {"Bea": "Be", "Bob": "Bo", "Cat": "C"}


@pytest.mark.parametrize("game", ["cloud9", "cloudship", "cloudmine"])
def test_the_strip_kept_step_by_step_is_the_story_replayed(game):
    """The strip grows with each action instead of replaying the history; with undos and redos
    in between it still says exactly what story.recent says."""
    from companion.rules.simulate import random_actions
    from companion.ui.story import moments as story
    from companion.ui.story.cards import RECENT

    h = Harness((800, 480))
    screen = h.start_game({"game": game, "players": ["Ann", "Ben", "Cat"]})
    for _before, action in random_actions({"game": game, "players": ["Ann", "Ben", "Cat"]}, 5, 60, undo_rate=0.2):
        if not screen.submit(action):
            continue
        h.app.pump()
        if h.app.screen is not screen:
            break
        shown = [(m.kind, m.text) for m in screen.recent()]
        assert shown == [(m.kind, m.text) for m in story.recent(screen.match, RECENT)]


def test_a_card_breaks_a_double_name_after_its_hyphen_only_where_it_is_too_wide():
    from companion.ui.story.cards import hyphenated
    from companion.ui.tools.harness import Harness

    f = Harness().app.frame
    assert (
        hyphenated("Christopher-Benedict found the card", 120, f, "prompt") == "Christopher-\nBenedict found the card"
    )
    assert hyphenated("Christopher-Benedict found the card", 400, f, "prompt") == "Christopher-Benedict found the card"
    assert hyphenated("Szentgyörgyi Boglárka takes six cards", 60, f, "body") == "Szentgyörgyi Boglárka takes six cards"


@pytest.mark.parametrize("size", SIZES)
def test_the_strip_beside_a_card_leaves_out_what_the_card_says(size):
    """The hail card's headline stands on the card: the strip under it goes on with the events
    before, not a second "A hail tile turned up"."""
    from companion.ui.screens.cloudship import demo_game as cloudship_demo

    h = Harness(size)
    setup, actions = cloudship_demo()
    screen = h.start_game(setup)
    cards = 0
    for action in actions:
        screen.submit(action)
        h.app.pump()
        if h.app.screen is not screen:
            break
        if screen.card is not None and h.shows("story-strip") and h.shows("story-headline"):
            cards += 1
            strip = [text for w in h.widgets() if (w.key or "").startswith("story:") for text in w.texts()]
            assert strip, screen.card.kind
            assert screen.card.headline not in strip, (screen.card.kind, strip)
    assert cards >= 1


@pytest.mark.parametrize("size", SIZES)
def test_the_hail_card_shows_the_hailstones_that_fly_along_beside_its_words(size, monkeypatch):
    """The hail card was words on a plain card: it shows as many hailstones as the ship now
    loads, at the left of its words, and still fits."""
    import pygame

    from companion.ui.boards import ship_icons
    from companion.ui.screens.cloudship import demo_game as cloudship_demo

    h = Harness(size)
    setup, actions = cloudship_demo()
    screen = h.start_game(setup)
    seen = 0
    drawn: list[str] = []  # the pictures the card's painter draws, by kind
    blit = ship_icons.blit_icon
    monkeypatch.setattr(ship_icons, "blit_icon", lambda s, kind, *a: drawn.append(kind) or blit(s, kind, *a))
    for action in actions:
        screen.submit(action)
        h.app.pump()
        if h.app.screen is not screen:
            break
        if screen.card is None or screen.card.kind != "hail" or not h.shows("story-text"):
            continue
        seen += 1
        picture, words = h.find("story-picture"), h.find("story-text")
        assert picture.rect.right <= words.rect.left and h.find("story-card").rect.contains(picture.rect)
        drawn.clear()
        picture.paint(pygame.Surface(size), picture.rect)
        assert drawn == ["hail"] * screen.view["hail_visible"]
        assert h.overflows() == [] and h.under_floor() == []
    assert seen >= 1
