"""What the app says aloud: the big moments of the table's story, then what to do now.

Pure: views in, a sentence out (no pygame, no sound). What an action did comes from the story
(companion/ui/story/moments.py, the same moments the screens show as result cards and in the strip):
speech says the `text` of each moment worth saying. The prompt of the step is the screen's own
where the screen asks in the words a voice would use ("Ben: jump or stay?", read from the game
screen's catalog, so screen and voice cannot disagree: SHOWN_PROMPTS); elsewhere it is this
module's, in its gettext domain "speech": where it speaks to the player ("Zsolt, your guess")
and the screen shows a label ("Zsolt guesses"), or where it says a count as a word.

Small counts are spoken as words (story.count_word: "two raindrops", Hungarian "két esőcsepp").
Names go in exactly as the players typed them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ... import i18n
from . import moments as story

_ = i18n.translator("speech")

View = Mapping[str, Any]

# prompts said in the words (and the translation) the game's screen shows; tests/test_spoken.py
# checks that each is still in that screen's catalog
SHOWN_PROMPTS = {
    "solo": ("cloud9", "{name} flies solo: jump or stay?"),
    "jump or stay": ("cloud9", "{name}: jump or stay?"),
    "rise or fall": ("cloud9", "{name}: rise or fall?"),
    "roll": ("cloudship", "{name}: roll the dice!"),
    "wild flower": ("cloudship", "A wild flower! Which bed gets it?"),
    "landed": ("cloudship", "Every ball is down: land."),
}
# counts of things the screen shows in the same words, said with the count as a word
SHOWN_COUNTS = {
    "raindrops": ("cloudship", "{count} raindrop", "{count} raindrops"),
    "hailstones": ("cloudship", "{count} hailstone", "{count} hailstones"),
}
_SCREENS = {entry[0]: i18n.translator(entry[0]) for entry in (*SHOWN_PROMPTS.values(), *SHOWN_COUNTS.values())}


def shown(prompt_name: str, **values: str) -> str:
    """The prompt `prompt_name` as the screen shows it, in the current language."""
    domain, msgid = SHOWN_PROMPTS[prompt_name]
    return _SCREENS[domain](msgid).format(**values)


def shown_count(things: str, count: int) -> str:
    """ "two raindrops": `count` of `things` in the screen's words, the count as a word."""
    domain, one, many = SHOWN_COUNTS[things]
    return _SCREENS[domain].ngettext(one, many, count).format(count=story.count_word(count))


ENDS_A_SENTENCE = (".", "!", "?")


def sentence(text: str) -> str:
    """`text` as a sentence to speak: a capital first, a full stop last."""
    text = text[:1].upper() + text[1:]
    return text if text.endswith(ENDS_A_SENTENCE) else text + "."


def prompt(view: View, before: View | None = None, action: Mapping[str, Any] | None = None) -> str | None:
    """The sentence to speak now: what `action` did (from `before` to `view`), then the prompt."""
    found = story.moments(before, view, action) if before is not None and action is not None else []
    return say(found, view)


def say(found: list[story.Moment], view: View) -> str | None:
    """The moments of `found` worth saying, then the prompt of `view`'s step, or None."""
    step = _STEPS[view["game"]](view) if view.get("game") in _STEPS else None
    parts = [sentence(m.text) for m in found if m.worth_saying] + [step]
    return " ".join(part for part in parts if part) or None


# --- Cloud 9 -------------------------------------------------------------------------------


def _cloud9_step(view: View) -> str | None:
    if view["over"]:
        return None  # the story's end moment says who won
    pilot = view["pilot"]
    if view["phase"] == "roll":
        if view["solo"]:
            return shown("solo", name=pilot)
        return _("{name}, roll the dice.").format(name=pilot)
    if view["phase"] == "decide":
        return shown("jump or stay", name=view["to_decide"])
    if view["phase"] == "resolve":
        if not view["cards_needed"]:
            return _("Every die is blank: {name}, the balloon rises.").format(name=pilot)
        return shown("rise or fall", name=pilot)
    return None


# --- Cloudship -----------------------------------------------------------------------------


def _balls(rain: int, hail: int) -> str:
    raindrops = shown_count("raindrops", rain)
    if not hail:
        return raindrops
    hailstones = shown_count("hailstones", hail)
    if not rain:
        return hailstones
    return story.names_text([raindrops, hailstones])


def _cloudship_step(view: View) -> str | None:
    if view["over"]:
        return None  # the story's end moment says how it ended
    phase = view["phase"]
    if phase == "roll":
        return shown("roll", name=view["commander"])
    if phase == "flight":
        load = view["load"]
        if len(view["drops"]) == 0:
            return _("Load {balls}, and fly!").format(balls=_balls(load["rain"], load["hail"]))
        if len(view["drops"]) >= load["rain"] + load["hail"]:
            return shown("landed")
        return None  # balls are falling: the table is busy, nothing new to say
    if phase == "plant":
        return shown("wild flower")
    if phase == "reveal":
        return _("Turn over the tile under the new flower: is there hail?")
    return None


# --- The Cloud Mine ------------------------------------------------------------------------


def _cloudmine_step(view: View) -> str | None:
    if view["over"]:
        return None  # the story's end moment says who won
    return _("{name}, your guess.").format(name=view["to_guess"])


_STEPS = {"cloud9": _cloud9_step, "cloudship": _cloudship_step, "cloudmine": _cloudmine_step}
