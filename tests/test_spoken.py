"""What the app says (companion/ui/story/spoken.py): each big moment, as the story tells it
(companion/ui/story/moments.py), then the step's prompt, in English, German and Hungarian, from real games
of the rules core."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from companion import i18n
from companion.i18n import extract
from companion.rules import Match
from companion.ui.story import moments as story, spoken


def said(match: Match, action: dict, language: str = "en") -> tuple[Match, str | None]:
    i18n.set_language(language)
    after = match.apply(action)
    return after, spoken.prompt(after.view, match.view, action)


def test_cloud9_prompts_and_a_jump():
    m = Match.start({"game": "cloud9", "players": ["Ann", "Ben", "Cat"]})
    assert spoken.prompt(m.view) == "Ann, roll the dice."
    m, text = said(m, {"act": "roll", "dice": ["red", "red"]})
    assert text == "Ben: jump or stay?"
    m, text = said(m, {"act": "jump", "player": "Ben"})
    assert text == "Cat: jump or stay?"  # a jump is on the strip; the table saw it happen
    m, text = said(m, {"act": "stay", "player": "Cat"}, "hu")
    assert text == "Ann, emelkedik vagy zuhan a ballon?"


def test_cloud9_fall_says_who_scores_nothing():
    m = Match.start({"game": "cloud9", "players": ["Ann", "Ben", "Cat"]})
    m = m.apply({"act": "roll", "dice": ["red", "green"]})
    m = m.apply({"act": "stay", "player": "Ben"}).apply({"act": "jump", "player": "Cat"})
    m, text = said(m, {"act": "fall"})
    assert text == "The balloon fell from cloud 1: Ann and Ben score nothing this trip. Ben, roll the dice."
    _, text = said(m.apply({"act": "undo"}), {"act": "fall"}, "de")
    assert text.startswith("Der Ballon ist von Wolke 1 gesunken: Ann und Ben bekommen auf dieser Fahrt nichts.")


def test_cloud9_the_top_cloud_is_a_moment():
    m = Match.start({"game": "cloud9", "players": ["Ann", "Ben", "Cat"]})
    while True:  # every die blank: the balloon must rise, up to the top cloud
        m = m.apply({"act": "roll", "dice": ["blank"] * m.view["dice_here"]})
        while m.view["phase"] == "decide":
            m = m.apply({"act": "stay", "player": m.view["to_decide"]})
        if m.view["cloud"] == 8:
            break
        m = m.apply({"act": "rise", "cards": []})
    m, text = said(m, {"act": "rise", "cards": []})
    assert text == "Cloud 9 reached: Ann, Ben and Cat score 25 points each. Cat, roll the dice."


def test_cloudship_load_storm_and_hail_in_three_languages():
    m = Match.start({"game": "cloudship", "players": ["Emma", "Milan", "Aaron", "Olivia"]})
    assert spoken.prompt(m.view) == "Emma: roll the dice!"
    m, text = said(m, {"act": "roll", "dice": ["yellow", "purple", "storm"]})
    assert text == "The storm moves on: twelve squares left. Load two raindrops, and fly!"
    m, text = said(m, {"act": "drop", "ball": "rain", "bed": "yellow"})
    assert text is None  # a ball is falling: the crew is busy
    m, text = said(m, {"act": "drop", "ball": "rain", "bed": "purple"})
    assert text == "Every ball is down: land."
    m, text = said(m, {"act": "land"}, "de")
    assert text == "Gelandet: eine Blume gepflanzt. Dreht das Plättchen unter der neuen Blume um: Ist da Hagel?"
    m, text = said(m, {"act": "reveal", "hail": True}, "hu")
    assert text == (
        "Jégeső-lapka fordult fel: mostantól egy jégdarab repül a hajóval. "
        "Fordítsátok meg a lapkát az új virág alatt: van rajta jég?"
    )
    m, text = said(m, {"act": "reveal", "hail": False})
    assert text == "No hail under the flower. Milan: roll the dice!"


@pytest.mark.parametrize(
    "language,expected",
    [
        ("en", "Load two raindrops and one hailstone, and fly!"),
        ("de", "Ladet ein: zwei Regentropfen und ein Hagelkorn. Und los!"),
        ("hu", "Rakjatok be: két esőcsepp és egy jégdarab. Repüljetek!"),  # két, not kettő, before a noun
    ],
)
def test_the_load_is_spoken_with_number_words(language, expected):
    i18n.set_language(language)
    m = Match.start({"game": "cloudship", "players": ["Emma", "Milan"]})
    view = dict(m.view, phase="flight", drops=[], load={"rain": 2, "hail": 1})
    assert spoken.prompt(view) == expected


@pytest.mark.parametrize(
    "language,expected",
    [
        ("en", "The storm moves on: three squares left."),
        ("de", "Der Sturm zieht weiter: noch drei Felder."),
        ("hu", "A vihar továbblép: még három mező van hátra."),
    ],
)
def test_the_storm_step(language, expected):
    i18n.set_language(language)
    m = Match.start({"game": "cloudship", "players": ["Emma", "Milan"]})
    before = dict(m.view, storm=9)
    after = dict(m.view, storm=10, phase="flight", drops=[], load={"rain": 1, "hail": 0})
    assert spoken.prompt(after, before, {"act": "roll", "dice": ["storm", "yellow", "white"]}).startswith(expected)


def test_german_feminine_one():
    i18n.set_language("de")
    m = Match.start({"game": "cloudship", "players": ["Emma", "Milan"]})
    before = dict(m.view, phase="flight")
    after = dict(m.view, phase="roll", planted=["yellow"], removed=["white"])
    assert (
        spoken.prompt(after, before, {"act": "land"})
        == "Gelandet: eine Blume gepflanzt (Hagel hat eine zerstört). Emma, du würfelst!"
    )


def test_cloud_mine_round_settlement_and_the_end():
    players = ["András", "Edit", "Tamás", "Gabriella", "Zsolt", "Robi"]
    m = Match.start({"game": "cloudmine", "players": players})
    assert spoken.prompt(m.view) == "Edit, your guess."
    for guesser in ("Edit", "Tamás", "Gabriella"):  # the rulebook's example round
        m, text = said(m, {"act": "guess", "player": guesser, "correct": False})
    assert text == "Zsolt, your guess."
    m, text = said(m, {"act": "guess", "player": "Zsolt", "correct": True}, "hu")
    assert text == (
        "Zsolt megtalálta a lapot: András (Álmodozó): három lapot kap; Zsolt: három lapot kap. András, te találgatsz!"
    )  # két/három before a noun, the names as written
    while not m.view["over"]:  # nobody finds it, round after round, until the deck runs short
        before = m
        m = m.apply({"act": "guess", "player": m.view["to_guess"], "correct": False})
    i18n.set_language("en")
    text = spoken.prompt(m.view, before.view, {"act": "guess", "player": "x", "correct": False})
    assert text.startswith("Nobody found the card: ") and "(Chooser) takes" in text
    assert text.endswith((" win.", " wins."))  # the story's end moment, said once


LANGUAGES = st.sampled_from(i18n.LANGUAGES)


@settings(max_examples=25, deadline=None)
@given(
    game=st.sampled_from(["cloud9", "cloudship", "cloudmine"]),
    language=LANGUAGES,
    players=st.integers(3, 4),
    choices=st.lists(st.integers(0, 10_000), min_size=1, max_size=60),
)
def test_every_step_of_a_random_game_has_something_to_say(game, language, players, choices):
    """Whatever happens, prompt() answers without an error, never speaks a placeholder, has
    something to say whenever the table must act (except while balls are falling), and says
    every big moment in the very words of the story (the result card's sentence)."""
    i18n.set_language(language)
    m = Match.start({"game": game, "players": ["Ann", "Ben", "Zsolt", "Dan"][:players]})
    for choice in choices:
        actions = m.legal_actions()
        if not actions:
            break
        action = actions[choice % len(actions)]
        before, m = m, m.apply(action)
        text = spoken.prompt(m.view, before.view, action)
        said = [
            spoken.sentence(moment.text) for moment in story.moments(before.view, m.view, action) if moment.worth_saying
        ]
        if text is None:
            assert m.view["phase"] == "flight" and m.view["drops"] and not said
            continue
        assert "{" not in text and "}" not in text
        assert text.strip() == text and text
        assert text.startswith(" ".join(said))
        if m.view["over"]:
            assert said and said[-1] == spoken.sentence(story.moments(before.view, m.view, action)[-1].text)


def test_prompts_said_in_the_screens_words_are_still_the_screens():
    """spoken.py reads some prompts from a game screen's catalog: each must still be a string
    that screen uses (else it would be said untranslated)."""
    strings = extract.extract()
    for domain, msgid in spoken.SHOWN_PROMPTS.values():
        assert msgid in strings[domain], (domain, msgid)
    for domain, one, many in spoken.SHOWN_COUNTS.values():
        assert strings[domain].get(one) == many, (domain, one)
