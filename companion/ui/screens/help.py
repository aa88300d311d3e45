"""How to play: a short help page per game (the goal, a turn, the end, and what the screen and
the seat buttons do), opened from the game's menu. The rulebook is the full reference."""

from __future__ import annotations

import pygame

from ... import i18n
from ..kit import theme as th
from ..kit.layout import GAP, rows
from ..kit.widgets import Label, Panel, Widget
from .base import Screen, game_title

_ = i18n.translator("app")
N_ = i18n.N_

# (heading, text) per game: the steps in the rulebooks' words, short enough to read at the table
HELP: dict[str, tuple[tuple[str, str], ...]] = {
    "cloud9": (
        (N_("Goal"), N_("Collect 50 points or more: jump out of the balloon at the right moment.")),
        (N_("A trip"), N_("The pilot rolls the dice of the cloud. Each passenger decides: jump out (and score "
                          "the cloud's points) or stay in.")),
        (N_("Rise or fall"), N_("The pilot plays the rolled colours (or a wild card) to rise. Without them "
                                "the balloon falls and everyone aboard scores nothing this trip.")),
        (N_("On the screen"), N_("Tap the rolled faces, then each decision; a seat's JUMP and STAY buttons "
                                 "work too. A card shows who got or lost what.")),
    ),
    "cloudship": (
        (N_("Goal"), N_("Together, plant all 12 flowers from the engine room before the storm arrives.")),
        (N_("A round"), N_("The commander rolls: every storm moves the storm on; each colour is a raindrop to "
                           "load, visible hail flies along.")),
        (N_("The flight"), N_("Fly the ship over the beds and let the balls fall. Raindrops on a rolled "
                              "colour grow flowers; hail takes them away.")),
        (N_("On the screen"), N_("Tap each ball on the bed where it landed, then 'We have landed'. The "
                                 "screen plants and counts for you.")),
    ),
    "cloudmine": (
        (N_("Goal"), N_("Collect the most cloud cards. The game ends when the deck cannot supply another "
                        "round.")),
        (N_("How a round goes"), N_("The Dreamer draws cards for the Chooser, who secretly picks one. The Dreamer "
                                    "describes it in at most five words.")),
        (N_("Guessing"), N_("The Observers point at a card in turn. Wrong: the Dreamer takes it. Right: the "
                            "finder takes the rest. Nobody: the Chooser takes all.")),
        (N_("On the screen"), N_("The Dreamer taps Right card or Wrong card for each guess; the screen keeps "
                                 "the count and the roles.")),
    ),
}


class HelpScreen(Screen):
    def __init__(self, app, game: str):
        super().__init__(app)
        self.game = game

    def title(self) -> str:
        return _("How to play")

    def subtitle(self) -> str:
        return game_title(self.game)

    def build(self, f, t) -> list[Widget]:
        sections = HELP.get(self.game, ())
        out: list[Widget] = []
        for rect, (heading, text) in zip(rows(f.content, len(sections), f.u(GAP)), sections):
            out.append(Panel(rect, key=f"help:{heading}"))
            inner = rect.inflate(-f.u(24), -f.u(8))
            side = f.u(180) if not f.portrait else inner.w
            if f.portrait:
                head, body = rows(inner, [1, 2.4])
            else:
                head = pygame.Rect(inner.x, inner.y, side, inner.h)
                body = pygame.Rect(head.right + f.u(12), inner.y, inner.w - side - f.u(12), inner.h)
            out += [Label(head, _(heading), "title", align="left", wrap=True, colour=th.PRIMARY),
                    Label(body, _(text), "body", align="left", wrap=True)]
        return out
