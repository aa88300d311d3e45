"""The table's story (companion/ui/story/moments.py): each big moment derived from the views before and
after an action, without pygame; the rulebook situations are the examples."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given, settings, strategies as st

from companion import i18n
from companion.rules import Match
from companion.rules.simulate import random_actions
from companion.ui.story import moments as story

EXAMPLES = Path(__file__).resolve().parent.parent / "companion" / "examples"


def play(setup: dict, actions: list[dict]) -> Match:
    match = Match.start(setup)
    for action in actions:
        match = match.apply(action)
    return match


def step(match: Match, action: dict) -> tuple[Match, list[story.Moment]]:
    after = match.apply(action)
    return after, story.moments(match.view, after.view, action)


def kinds(found):
    return [m.kind for m in found]


# --- Cloud 9 -----------------------------------------------------------------------------------

C9 = {"game": "cloud9", "players": ["Ann", "Ben", "Cat"], "first_pilot": "Ann"}


def test_cloud9_fall_names_everyone_aboard_and_what_they_missed():
    # trip 1: up to cloud 2, Ben jumps out there, Cat stays; then the balloon falls
    match = play(
        C9,
        [
            {"act": "roll", "dice": ["blank", "blank"]},
            {"act": "stay", "player": "Ben"},
            {"act": "stay", "player": "Cat"},
            {"act": "rise", "cards": []},
            {"act": "roll", "dice": ["red", "green"]},
            {"act": "jump", "player": "Cat"},
            {"act": "stay", "player": "Ann"},
        ],
    )
    after, found = step(match, {"act": "fall"})
    assert kinds(found) == ["fall"]
    fall = found[0]
    assert fall.big and set(fall.players) == {"Ann", "Ben"}
    assert fall.headline == "The balloon fell from cloud 2"
    assert (
        fall.text == "The balloon fell from cloud 2: Ben and Ann score nothing this trip"
        or fall.text == "The balloon fell from cloud 2: Ann and Ben score nothing this trip"
    )
    # the card says it once: the pilot who let it fall (named once), everyone else aboard, what
    # jumping out paid
    assert fall.details == []
    assert fall.card_text == "Ben let it fall and, like Ann, scores nothing this trip (jumping out paid 2)"
    assert fall.card_text.count("Ben") == 1
    assert after.view["trip"] == 2


def test_cloud9_fall_names_a_pilot_alone_once():
    match = play(
        C9,
        [
            {"act": "roll", "dice": ["blank", "blank"]},
            {"act": "stay", "player": "Ben"},
            {"act": "stay", "player": "Cat"},
            {"act": "rise", "cards": []},
            {"act": "roll", "dice": ["red", "green"]},
            {"act": "jump", "player": "Cat"},
            {"act": "jump", "player": "Ann"},
        ],
    )
    _after, found = step(match, {"act": "fall"})
    assert found[0].players == ("Ben",)
    assert found[0].card_text == "Ben let it fall and scores nothing this trip (jumping out paid 2)"


def test_cloud9_top_cloud_scores_everyone_aboard():
    # a solo pilot rising to cloud 9 with blank rolls (the rules let a blank roll rise free)
    match = Match.start(C9)
    for cloud in range(1, 9):
        view = match.view
        if view["phase"] == "roll":
            match = match.apply({"act": "roll", "dice": ["blank"] * view["dice_here"]})
        while match.view["phase"] == "decide":
            who = match.view["to_decide"]
            match = match.apply({"act": "jump" if cloud == 1 else "stay", "player": who})
        if cloud < 8:
            match = match.apply({"act": "rise", "cards": []})
    before = match
    after, found = step(match, {"act": "rise", "cards": []})
    assert kinds(found) == ["top"]
    top = found[0]
    assert top.players == ("Ann",)
    assert top.text == "Cloud 9 reached: Ann scores 25 points"
    assert top.lead == "+25 points" and top.details == [("Ann", "Ann: now 25")]
    assert after.view["trip"] == before.view["trip"] + 1


def test_cloud9_small_steps_fill_the_strip_not_a_card():
    match = Match.start(C9)
    match, found = step(match, {"act": "roll", "dice": ["red", "blank"]})
    assert kinds(found) == ["roll"] and not found[0].big
    assert found[0].text == "Ann rolled: red, blank"
    match, found = step(match, {"act": "jump", "player": "Ben"})
    assert found[0].text == "Ben jumped out: +1 points"
    match, found = step(match, {"act": "stay", "player": "Cat"})
    match, found = step(match, {"act": "rise", "cards": ["red"]})
    assert found[0].text == "Ann rose to cloud 2 with red"
    assert story.big_moment(found) is None


def test_cloud9_game_end_is_the_last_moment():
    lines = (EXAMPLES / "cloud9-four-players-tie-break.jsonl").read_text().splitlines()
    setup, actions = json.loads(lines[0]), [json.loads(line) for line in lines[1:] if line.strip()]
    match = play(setup, actions[:-1])
    after, found = step(match, actions[-1])
    assert found[-1].kind == "end"
    assert found[-1].text == "Game over: Cat wins"
    assert story.big_moment(found) is found[-2]  # the card shows how the trip ended, not the end


# --- The Cloud Mine ----------------------------------------------------------------------------

CM = {"game": "cloudmine", "players": ["Ann", "Ben", "Cat", "Dan"]}


def test_cloudmine_found_card_settles_the_round():
    # Ben wrong (Ann the Dreamer keeps 1), Cat right (takes the 3 left)
    match = Match.start(CM)
    assert match.view["dreamer"] == "Ann"
    match, found = step(match, {"act": "guess", "player": match.view["to_guess"], "correct": False})
    wrong_guesser = found[0].players[0]
    assert kinds(found) == ["guess"] and found[0].text == f"{wrong_guesser} guessed wrong"
    finder = match.view["to_guess"]
    after, found = step(match, {"act": "guess", "player": finder, "correct": True})
    assert kinds(found) == ["settle"]
    settle = found[0]
    gained = {n: after.view["scores"][n] - match.view["scores"][n] for n in after.view["players"]}
    assert settle.headline == f"{finder} found the card"
    assert dict(settle.details) == {
        finder: f"{finder} takes {story.count_word(gained[finder])} cards",
        "Ann": "Ann (Dreamer) takes one card",
    }
    assert settle.text.startswith(f"{finder} found the card: ")


def test_cloudmine_nobody_finds_it_the_chooser_takes_all():
    match = Match.start(CM)
    chooser, cards = match.view["chooser"], match.view["cards_per_round"]
    found = []
    while not found or found[-1].kind == "guess":
        match, found = step(match, {"act": "guess", "player": match.view["to_guess"], "correct": False})
    settle = found[-1]
    assert settle.headline == "Nobody found the card"
    assert settle.details == [(chooser, f"{chooser} (Chooser) takes {story.count_word(cards)} cards")]


# --- Cloudship ---------------------------------------------------------------------------------


def ship_example(name: str) -> tuple[dict, list[dict]]:
    lines = (EXAMPLES / name).read_text().splitlines()
    return json.loads(lines[0]), [json.loads(line) for line in lines[1:] if line.strip()]


def test_cloudship_storm_step_says_how_far_is_left():
    setup, actions = ship_example("cloudship-reveals.jsonl")
    match = Match.start(setup)
    after, found = step(match, actions[0])  # yellow, purple, storm
    assert kinds(found) == ["storm"]
    left = after.view["storm_end"] - after.view["storm"]
    assert found[0].headline == "The storm moves 1 square"
    assert found[0].text == f"The storm moves on: {story.count_word(left)} squares left"
    assert left == 12 and story.count_word(left) == "twelve"  # a count in words, for speech
    assert found[0].card_text == "12 squares left"  # the card in digits, as its headline
    assert found[0].big and found[0].players == ("Emma",)


def test_cloudship_hail_tile_turning_up_is_a_moment():
    setup, actions = ship_example("cloudship-reveals.jsonl")
    match = play(setup, actions[:5])  # ... land, reveal no hail
    assert match.view["phase"] == "reveal"
    after, found = step(match, actions[5])  # {"act": "reveal", "hail": true}
    assert "hail" in kinds(found)
    hail = next(m for m in found if m.kind == "hail")
    assert hail.big and f"{story.count_word(after.view['hail_visible'])} hailstone" in hail.text
    # the card's line does not say again what its headline says, in any language
    try:
        for language in i18n.LANGUAGES:
            i18n.set_language(language)
            assert hail.headline and hail.headline not in hail.card_text, language
            assert story.count_word(after.view["hail_visible"]) in hail.card_text, language
    finally:
        i18n.set_language("en")


def test_cloudship_every_example_ends_with_its_result():
    for name, text in (
        ("cloudship-won.jsonl", "the crew wins together"),
        ("cloudship-lost.jsonl", "the crew loses together"),
    ):
        setup, actions = ship_example(name)
        match = play(setup, actions[:-1])
        _after, found = step(match, actions[-1])
        assert found[-1].kind == "end" and text in found[-1].text


# --- every game: recent(), undo, languages ------------------------------------------------------


def test_recent_follows_undo():
    match = Match.start(C9)
    match = match.apply({"act": "roll", "dice": ["red", "blank"]}).apply({"act": "jump", "player": "Ben"})
    assert [m.kind for m in story.recent(match, 5)] == ["roll", "jump"]
    match = match.apply({"act": "undo"})
    assert [m.kind for m in story.recent(match, 5)] == ["roll"]
    assert story.moments(match.view, match.view, {"act": "undo"}) == []


def test_texts_follow_the_language_when_read():
    match = Match.start(CM)
    _after, found = step(match, {"act": "guess", "player": match.view["to_guess"], "correct": True})
    try:
        texts = {}
        for language in i18n.LANGUAGES:
            i18n.set_language(language)
            texts[language] = (found[0].headline, found[0].text)
        assert len(set(texts.values())) == 3
    finally:
        i18n.set_language("en")


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(["cloud9", "cloudship", "cloudmine"]), st.integers(0, 10**6), st.integers(1, 200))
def test_every_action_of_a_random_game_tells_something_in_every_language(game, seed, length):
    """Property: every accepted action (but undo/redo) yields at least one moment, each with a
    non-empty headline and text, and a game's last action yields the end."""
    players = {"cloud9": ["Ann", "Ben", "Cat"], "cloudship": ["Ann", "Ben"], "cloudmine": ["Ann", "Ben", "Cat"]}[game]
    for before, action in random_actions({"game": game, "players": players}, seed, length):
        after = before.apply(action)
        found = story.moments(before.view, after.view, action)
        assert found, action
        try:
            for moment in found:
                for language in i18n.LANGUAGES:
                    i18n.set_language(language)
                    assert moment.headline and moment.text
        finally:
            i18n.set_language("en")
        if after.view["over"]:
            assert found[-1].kind == "end"


def test_a_ball_s_bed_reads_as_german_says_it():
    """German declines the colour before the bed ("gelbes Beet", "lila Beet"), not "Beet gelb"."""
    from companion import i18n

    view = {"game": "cloudship", "commander": "Ann", "players": ["Ann", "Ben"], "over": False}
    i18n.set_language("de")
    try:
        texts = [
            story._cloudship(view, view, {"act": "drop", "ball": "rain", "bed": bed})[0].text
            for bed in ("yellow", "purple", "white", "blue")
        ]
    finally:
        i18n.set_language("en")
    assert texts == [
        "Regentropfen: gelbes Beet",
        "Regentropfen: lila Beet",
        "Regentropfen: weißes Beet",
        "Regentropfen: blaues Beet",
    ]
