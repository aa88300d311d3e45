"""What the app says aloud: the prompt of each step and each big moment, in the current language.

Pure: views in, a sentence out (no pygame, no sound). `prompt(view, before, action)` is called
after each change of the game with the views before and after it and the action between them;
it returns the moment that just happened (a fall, a top-cloud trip end, a round settlement, a
storm step, a hail tile) followed by what to do now, or None when there is nothing to say.

Small counts are spoken as words from the catalog ("two raindrops", Hungarian "két esőcsepp"),
because espeak-ng reads a digit in its counting form ("kettő") where the language wants the form
before a noun. Names go in exactly as the players typed them.
"""

from __future__ import annotations

from typing import Any, Mapping

from .. import i18n
from ..i18n import N_

_ = i18n.translator("speech")

View = Mapping[str, Any]

# the form a number takes before a noun, as espeak-ng cannot know it (index = the number)
NUMBER_WORDS = (None, N_("one"), N_("two"), N_("three"), N_("four"), N_("five"), N_("six"), N_("seven"),
                N_("eight"), N_("nine"), N_("ten"), N_("eleven"), N_("twelve"))


def number(n: int) -> str:
    return _(NUMBER_WORDS[n]) if 0 < n < len(NUMBER_WORDS) else str(n)


def sentence(text: str) -> str:
    """A sentence that begins with a number word begins with a capital."""
    return text[:1].upper() + text[1:]


def names(people: list[str]) -> str:
    if len(people) < 2:
        return "".join(people)
    return _("{names} and {last}").format(names=", ".join(people[:-1]), last=people[-1])


def prompt(view: View, before: View | None = None, action: Mapping[str, Any] | None = None) -> str | None:
    """The sentence to speak now: the moment `action` made (if any), then the current prompt."""
    game = view.get("game")
    if game not in _GAMES:
        return None
    moment_of, step_of = _GAMES[game]
    moment = moment_of(view, before, action) if before is not None and action is not None \
        and action.get("act") not in ("undo", "redo") else None
    step = step_of(view)
    spoken = " ".join(part for part in (moment, step) if part)
    return spoken or None


# --- Cloud 9 -------------------------------------------------------------------------------

def _cloud9_moment(view: View, before: View, action: Mapping[str, Any]) -> str | None:
    act = action.get("act")
    if act == "jump":
        player = action.get("player", "")
        points = view["scores"].get(player, 0) - before["scores"].get(player, 0)
        return _.ngettext("{name} jumps out: {count} point.", "{name} jumps out: {count} points.",
                          points).format(name=player, count=number(points))
    if act == "fall":
        aboard = list(before["basket"])
        return _("The balloon falls! No points this trip for {names}.").format(names=names(aboard))
    if act == "rise" and view["trip"] != before["trip"]:
        aboard = list(before["basket"])
        return _("The top cloud! Twenty-five points for {names}.").format(names=names(aboard))
    if act == "rise":
        return _("The balloon rises.")
    return None


def _cloud9_step(view: View) -> str | None:
    if view["over"]:
        return _("Game over: {names} won!").format(names=names(list(view["winners"])))
    pilot = view["pilot"]
    if view["phase"] == "roll":
        if view["solo"]:
            return _("{name}, you fly solo: jump or stay?").format(name=pilot)
        return _("{name}, roll the dice.").format(name=pilot)
    if view["phase"] == "decide":
        return _("{name}: jump or stay?").format(name=view["to_decide"])
    if view["phase"] == "resolve":
        if not view["cards_needed"]:
            return _("Every die is blank: {name}, the balloon rises.").format(name=pilot)
        return _("{name}: rise or fall?").format(name=pilot)
    return None


# --- Cloudship -----------------------------------------------------------------------------

def _balls(rain: int, hail: int) -> str:
    raindrops = _.ngettext("{count} raindrop", "{count} raindrops", rain).format(count=number(rain))
    if not hail:
        return raindrops
    hailstones = _.ngettext("{count} hailstone", "{count} hailstones", hail).format(count=number(hail))
    if not rain:
        return hailstones
    return _("{names} and {last}").format(names=raindrops, last=hailstones)


def _cloudship_moment(view: View, before: View, action: Mapping[str, Any]) -> str | None:
    act = action.get("act")
    said = []
    if act == "roll" and view["phase"] == "roll" and not view["over"]:  # the rulebook's reroll
        said.append(_("Three storms do not count."))
    elif act == "roll" and view["storm"] > before["storm"]:
        left = view["storm_end"] - view["storm"]
        if left > 0:
            said.append(_.ngettext("The storm moves on: {count} square left.",
                                   "The storm moves on: {count} squares left.", left).format(count=number(left)))
    if act == "land" and view["removed"]:  # hail has done its damage as the ship lands
        lost = len(view["removed"])
        said.append(_.ngettext("Hail destroyed {count} flower.", "Hail destroyed {count} flowers.",
                               lost).format(count=number(lost)))
    if act == "reveal":
        if action.get("hail"):
            count = view["hail_visible"]
            said.append(_.ngettext("Hail! From now on you load {count} hailstone.",
                                   "Hail! From now on you load {count} hailstones.", count).format(count=number(count)))
        else:
            said.append(_("No hail, phew!"))
    if act in ("land", "plant", "reveal") and view["phase"] == "roll":  # the round is over
        grew = len(view["planted"])
        said.append(sentence(_.ngettext("{count} flower grew.", "{count} flowers grew.", grew).format(
            count=number(grew))) if grew else _("Nothing grew this time."))
    return " ".join(said) or None


def _cloudship_step(view: View) -> str | None:
    if view["over"]:
        return _("All twelve flowers grew: the crew wins!") if view["result"] == "won" \
            else _("The storm has arrived: the crew loses.")
    phase = view["phase"]
    if phase == "roll":
        return _("{name}, roll the dice!").format(name=view["commander"])
    if phase == "flight":
        load = view["load"]
        if len(view["drops"]) == 0:
            return _("Load {balls}, and fly!").format(balls=_balls(load["rain"], load["hail"]))
        if len(view["drops"]) >= load["rain"] + load["hail"]:
            return _("Every ball is down: land now.")
        return None  # balls are falling: the table is busy, nothing new to say
    if phase == "plant":
        return _("A wild flower! Which bed gets it?")
    if phase == "reveal":
        return _("Turn over the tile under the new flower: is there hail?")
    return None


# --- The Cloud Mine ------------------------------------------------------------------------

def _cloudmine_moment(view: View, before: View, action: Mapping[str, Any]) -> str | None:
    if action.get("act") != "guess":
        return None
    player = action.get("player", "")
    settled = view["round"] != before["round"] or view["over"]
    if action.get("correct"):
        found = _("{name} found the card!").format(name=player)
        kept = before["dreamer_pile"]
        if kept:
            found += " " + _.ngettext("{name} keeps {count} card.", "{name} keeps {count} cards.",
                                      kept).format(name=before["dreamer"], count=number(kept))
        return found
    if settled:  # the last wrong guess: the Chooser takes every card of the round
        return _("Nobody found the card: {name} takes all of them.").format(name=before["chooser"])
    return _("{name}: wrong card.").format(name=player)


def _cloudmine_step(view: View) -> str | None:
    if view["over"]:
        return _("The deck cannot supply another round: {names} won!").format(names=names(list(view["winners"])))
    return _("{name}, your guess.").format(name=view["to_guess"])


_GAMES = {
    "cloud9": (_cloud9_moment, _cloud9_step),
    "cloudship": (_cloudship_moment, _cloudship_step),
    "cloudmine": (_cloudmine_moment, _cloudmine_step),
}
