"""The table's story: what an action just did, as moments a screen shows and speech can say.

Pure functions of the contract's public views (plain dicts), no pygame, no rules internals:

    moments(before_view, after_view, action) -> [Moment, ...]
    recent(match, count) -> the last `count` moments of a Match's history, oldest first

A Moment is `big` when it deserves a result card that stays until the next action (a Cloud 9
fall or top-cloud trip end, a Cloud Mine round settlement, a Cloudship storm step or hail
tile turning up, the end of a game); the others fill the strip of recent events. Speech
(companion/ui/story/spoken.py) says the text of the moments `worth_saying` before the step's prompt.

Texts are translated when read (`moment.headline`, `moment.text`, `moment.details`), in the
language current at that moment, so a strip built before a language change reads right after
it. `moment.text` is one plain sentence, for the card and for speech: it says small counts in
words ("three squares left", German "ein Feld", Hungarian "két jégdarab"), because espeak-ng
reads a digit in its counting form ("eins", "kettő") where the language wants the form before
a noun, and a word reads as well as a digit on a card.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ...i18n import N_, translator

_ = translator("story")

View = Mapping[str, Any]

# kinds of moment that get a result card
BIG_KINDS = ("fall", "top", "settle", "storm", "hail", "end")
# kinds speech says too: what a child who cannot read needs and the next prompt does not say
SAID_KINDS = BIG_KINDS + ("reroll", "land", "reveal")

COLOUR_WORDS = {
    "red": N_("red"),
    "yellow": N_("yellow"),
    "green": N_("green"),
    "purple": N_("purple"),
    "white": N_("white"),
    "blue": N_("blue"),
    "blank": N_("blank"),
    "storm": N_("storm"),
    "wild": N_("wild card"),
}


# a count as it stands before a noun (index = the count)
COUNT_WORDS = (
    None,
    N_("one"),
    N_("two"),
    N_("three"),
    N_("four"),
    N_("five"),
    N_("six"),
    N_("seven"),
    N_("eight"),
    N_("nine"),
    N_("ten"),
    N_("eleven"),
    N_("twelve"),
)


def count_word(count: int) -> str:
    """A small count in words, in the current language; larger ones as digits."""
    word = COUNT_WORDS[count] if 0 < count < len(COUNT_WORDS) else None
    return _(word) if word is not None else str(count)


def colour_word(colour: str) -> str:
    return _(COLOUR_WORDS[colour]) if colour in COLOUR_WORDS else colour


def names_text(names: list[str] | tuple[str, ...]) -> str:
    """Names as a list a person would say: "Ann", "Ann and Ben", "Ann, Ben and Cat"."""
    names = list(names)
    if not names:
        return ""
    if len(names) == 1:
        return names[0]
    return _("{names} and {last}").format(names=", ".join(names[:-1]), last=names[-1])


@dataclass(frozen=True)
class Moment:
    kind: str
    players: tuple[str, ...] = ()  # whom it concerns, in the order shown
    _headline: Callable[[], str] = field(default=lambda: "", repr=False, compare=False)
    _text: Callable[[], str] = field(default=lambda: "", repr=False, compare=False)
    _details: Callable[[], list[tuple[str | None, str]]] = field(default=list, repr=False, compare=False)
    _lead: Callable[[], str] = field(default=lambda: "", repr=False, compare=False)
    faces: tuple[str, ...] = ()  # the dice a roll showed (the strip draws them)
    _card: Callable[[], str] | None = field(default=None, repr=False, compare=False)

    @property
    def big(self) -> bool:
        return self.kind in BIG_KINDS

    @property
    def worth_saying(self) -> bool:
        return self.kind in SAID_KINDS

    @property
    def headline(self) -> str:
        """A few words for the card's title and the strip."""
        return self._headline()

    @property
    def text(self) -> str:
        """One plain sentence saying what happened (the card's body, and what speech says)."""
        return self._text()

    @property
    def card_text(self) -> str:
        """The card's line under the headline: its own sentence where it has one (said once
        for everyone it names), else the sentence, unless the details say it all."""
        if self._card is not None:
            return self._card()
        return "" if self.details else self.text

    @property
    def lead(self) -> str:
        """What the details share, said once above them ("No points this trip"), so that each
        detail row needs only what is its own (the name, a total)."""
        return self._lead()

    @property
    def details(self) -> list[tuple[str | None, str]]:
        """(player or None, line) rows for the result card: who got or lost what."""
        return self._details()


def moments(before: View, after: View, action: Mapping[str, Any]) -> list[Moment]:
    """What `action` did, going from the view `before` to the view `after`, in order."""
    act = action.get("act")
    if act in ("undo", "redo"):
        return []
    game = after.get("game", "")
    found = {"cloud9": _cloud9, "cloudship": _cloudship, "cloudmine": _cloudmine}.get(game, lambda *a: [])(
        before, after, action
    )
    if after.get("over") and not before.get("over"):
        found.append(_end(after))
    return found


def recent(match, count: int) -> list[Moment]:
    """The last `count` moments that led to `match`'s current state (undone steps left out),
    oldest first."""
    out: list[Moment] = []
    step, after_view = match.current, None
    while step.before is not None and len(out) < count:
        after_view = after_view if after_view is not None else match.rules.view(step.state)
        before_view = match.rules.view(step.before.state)
        out[:0] = moments(before_view, after_view, step.action)
        step, after_view = step.before, before_view
    return out[-count:] if count else []


def big_moment(found: list[Moment]) -> Moment | None:
    """The moment a result card shows: the last big one that is not the end (the end screen
    says that), else None."""
    cards = [m for m in found if m.big and m.kind != "end"]
    return cards[-1] if cards else None


def gains(before: View, after: View) -> dict[str, int]:
    """How each player's score changed, for those whose score changed, in seat order."""
    return {
        name: after["scores"][name] - before["scores"][name]
        for name in after["players"]
        if after["scores"][name] != before["scores"][name]
    }


# --- Cloud 9 -----------------------------------------------------------------------------------


def _cloud9(before: View, after: View, action) -> list[Moment]:
    act = action.get("act")
    if act == "roll":
        pilot, dice = before["pilot"], list(action.get("dice") or [])
        return [
            Moment(
                "roll",
                (pilot,),
                lambda: _("{name} rolled").format(name=pilot),
                lambda: _("{name} rolled: {faces}").format(name=pilot, faces=", ".join(map(colour_word, dice))),
                faces=tuple(dice),
            )
        ]
    if act == "jump":
        name, points = action.get("player"), before["points_here"]
        return [
            Moment(
                "jump",
                (name,),
                lambda: _("{name} jumped out").format(name=name),
                lambda: _("{name} jumped out: +{points} points").format(name=name, points=points),
            )
        ]
    if act == "stay":
        name = action.get("player")
        return [
            Moment(
                "stay",
                (name,),
                lambda: _("{name} stays in").format(name=name),
                lambda: _("{name} stays in").format(name=name),
            )
        ]
    if act == "fall":
        aboard, cloud, points = tuple(before["basket"]), before["cloud"], before["points_here"]
        pilot = before["pilot"]
        others = tuple(name for name in aboard if name != pilot)
        # the card says it once, naming everyone aboard, the pilot who let it fall once too
        return [
            Moment(
                "fall",
                aboard,
                lambda: _("The balloon fell from cloud {cloud}").format(cloud=cloud),
                lambda: _.ngettext(
                    "The balloon fell from cloud {cloud}: {names} scores nothing this trip",
                    "The balloon fell from cloud {cloud}: {names} score nothing this trip",
                    len(aboard),
                ).format(cloud=cloud, names=names_text(aboard)),
                _card=lambda: (
                    _("{pilot} let it fall and scores nothing this trip (jumping out paid {points})").format(
                        pilot=pilot, points=points
                    )
                    if not others
                    else _.ngettext(
                        "{pilot} let it fall and, like {names}, scores nothing this trip (jumping out paid {points})",
                        "{pilot} let it fall and, like {names}, scores nothing this trip (jumping out paid {points})",
                        len(others),
                    ).format(pilot=pilot, names=names_text(others), points=points)
                ),
            )
        ]
    if act == "rise":
        pilot, cards = before["pilot"], list(action.get("cards") or [])
        if after["trip"] > before["trip"] or (after["over"] and not before["over"]):
            won = gains(before, after)
            aboard = tuple(won)
            return [
                Moment(
                    "top",
                    aboard,
                    lambda: _("Cloud 9 reached!"),
                    lambda: _.ngettext(
                        "Cloud 9 reached: {names} scores {points} points",
                        "Cloud 9 reached: {names} score {points} points each",
                        len(aboard),
                    ).format(names=names_text(aboard), points=next(iter(won.values()), 0)),
                    # a row each where they fit; more (six aboard, long names) and the sentence names them once
                    lambda: (
                        [
                            (name, _("{name}: now {total}").format(name=name, total=after["scores"][name]))
                            for name in aboard
                        ]
                        if len(aboard) <= 3
                        else []
                    ),
                    lambda: _.ngettext("+{points} points", "+{points} points each", len(aboard)).format(
                        points=next(iter(won.values()), 0)
                    ),
                )
            ]
        cloud = after["cloud"]
        if not cards:
            return [
                Moment(
                    "rise",
                    (pilot,),
                    lambda: _("Up to cloud {cloud}").format(cloud=cloud),
                    lambda: _("{name} rose to cloud {cloud} without a card").format(name=pilot, cloud=cloud),
                )
            ]
        return [
            Moment(
                "rise",
                (pilot,),
                lambda: _("Up to cloud {cloud}").format(cloud=cloud),
                lambda: _("{name} rose to cloud {cloud} with {cards}").format(
                    name=pilot, cloud=cloud, cards=", ".join(map(colour_word, cards))
                ),
            )
        ]
    return []


# --- Cloudship ---------------------------------------------------------------------------------

# one sentence per bed (German declines the colour before the noun: "gelbes Beet", "lila Beet")
BED_WORDS = {
    ("rain", "yellow"): N_("Raindrop: yellow bed"),
    ("rain", "purple"): N_("Raindrop: purple bed"),
    ("rain", "white"): N_("Raindrop: white bed"),
    ("rain", "blue"): N_("Raindrop: blue bed"),
    ("hail", "yellow"): N_("Hailstone: yellow bed"),
    ("hail", "purple"): N_("Hailstone: purple bed"),
    ("hail", "white"): N_("Hailstone: white bed"),
    ("hail", "blue"): N_("Hailstone: blue bed"),
    ("wild", "yellow"): N_("Wild flower: yellow bed"),
    ("wild", "purple"): N_("Wild flower: purple bed"),
    ("wild", "white"): N_("Wild flower: white bed"),
    ("wild", "blue"): N_("Wild flower: blue bed"),
}


def bed_words(kind: str, bed: str) -> str:
    return _(BED_WORDS[kind, bed]) if (kind, bed) in BED_WORDS else colour_word(bed)


def _hail_tiles(view: View) -> int:
    return sum(1 for space in view.get("engine", ()) if space.get("tile") == "hail")


def _cloudship(before: View, after: View, action) -> list[Moment]:
    act = action.get("act")
    out: list[Moment] = []
    commander = before["commander"]
    if act == "roll":
        dice = list(action.get("dice") or [])
        moved = after["storm"] - before["storm"]
        if moved > 0:
            left = max(0, after["storm_end"] - after["storm"])
            out.append(
                Moment(
                    "storm",
                    (commander,),
                    lambda: _.ngettext(
                        "The storm moves {count} square", "The storm moves {count} squares", moved
                    ).format(count=moved),
                    lambda: _.ngettext(
                        "The storm moves on: {count} square left", "The storm moves on: {count} squares left", left
                    ).format(count=count_word(left)),
                    # the card's line under "The storm moves 1 square": in digits as the headline's
                    # (the count in words is for speech)
                    _card=lambda: _.ngettext("{count} square left", "{count} squares left", left).format(count=left),
                )
            )
        elif dice.count("storm") == len(dice):  # the roll does not count
            text = lambda: _("Three storms do not count: roll again")  # noqa: E731
            out.append(Moment("reroll", (commander,), text, text))
        else:
            out.append(
                Moment(
                    "roll",
                    (commander,),
                    lambda: _("{name} rolled").format(name=commander),
                    lambda: _("{name} rolled: {faces}").format(name=commander, faces=", ".join(map(colour_word, dice))),
                    faces=tuple(dice),
                )
            )
    elif act == "drop":
        ball, bed = action.get("ball"), action.get("bed")
        text = lambda: bed_words(ball, bed)  # noqa: E731
        out.append(Moment("drop", (), text, text))
    elif act == "land":
        planted, removed = len(after["planted"]), len(after["removed"])
        out.append(
            Moment(
                "land",
                (commander,),
                lambda: _("Landed"),
                lambda: (
                    _.ngettext("Landed: {count} flower planted", "Landed: {count} flowers planted", planted).format(
                        count=count_word(planted)
                    )
                    + (
                        ""
                        if not removed
                        else " "
                        + _.ngettext("(hail took {count})", "(hail took {count})", removed).format(
                            count=count_word(removed)
                        )
                    )
                ),
            )
        )
    elif act == "plant":
        bed = action.get("bed")
        text = lambda: bed_words("wild", bed)  # noqa: E731
        out.append(Moment("plant", (), text, text))
    elif act == "reveal" and not action.get("hail"):
        text = lambda: _("No hail under the flower")  # noqa: E731
        out.append(Moment("reveal", (), text, text))
    turned = _hail_tiles(after) - _hail_tiles(before)
    if turned > 0:
        load = after["hail_visible"]
        out.append(
            Moment(
                "hail",
                (),
                lambda: _("A hail tile turned up"),
                lambda: _.ngettext(
                    "A hail tile turned up: from now on {count} hailstone flies along",
                    "A hail tile turned up: from now on {count} hailstones fly along",
                    load,
                ).format(count=count_word(load)),
                # under the card's headline, which already says the tile turned up
                _card=lambda: _.ngettext(
                    "From now on {count} hailstone flies along",
                    "From now on {count} hailstones fly along",
                    load,
                ).format(count=count_word(load)),
            )
        )
    return out


# --- The Cloud Mine ----------------------------------------------------------------------------


def _cloudmine(before: View, after: View, action) -> list[Moment]:
    if action.get("act") != "guess":
        return []
    name = action.get("player")
    if after["round"] == before["round"] and not (after["over"] and not before["over"]):
        return [
            Moment(
                "guess",
                (name,),
                lambda: _("{name} guessed wrong").format(name=name),
                lambda: _("{name} guessed wrong").format(name=name),
            )
        ]
    taken = gains(before, after)
    dreamer, chooser = before["dreamer"], before["chooser"]

    def role(who: str) -> str:
        if who == dreamer:
            return _("{name} (Dreamer)").format(name=who)
        if who == chooser:
            return _("{name} (Chooser)").format(name=who)
        return who

    def lines() -> list[tuple[str | None, str]]:
        return [
            (
                who,
                _.ngettext("{name} takes {count} card", "{name} takes {count} cards", cards).format(
                    name=role(who), count=count_word(cards)
                ),
            )
            for who, cards in taken.items()
        ]

    if action.get("correct"):
        headline = lambda: _("{name} found the card").format(name=name)  # noqa: E731
    else:
        headline = lambda: _("Nobody found the card")  # noqa: E731

    def text() -> str:
        return headline() + ": " + "; ".join(line for _who, line in lines())

    return [Moment("settle", tuple(taken), headline, text, lines)]


# --- the end -------------------------------------------------------------------------------------


def _end(after: View) -> Moment:
    winners = tuple(after.get("winners") or ())
    result = after.get("result")
    if result == "won":
        text = lambda: _("All the flowers are planted: the crew wins together!")  # noqa: E731
    elif result == "lost":
        text = lambda: _("The storm has arrived: the crew loses together")  # noqa: E731
    else:
        text = lambda: _.ngettext(  # noqa: E731
            "Game over: {names} wins",
            "Game over: {names} win",
            len(winners),
        ).format(names=names_text(winners))
    return Moment("end", winners, lambda: _("Game over"), text)
