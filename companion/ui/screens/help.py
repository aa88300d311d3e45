"""How to play: a few steps per game, each a small picture with one short line, readable from
across the table, under the game's goal; opened from the game's menu. The rulebook is the full
reference."""

from __future__ import annotations

import pygame

from ... import i18n
from ..boards import help_pictures
from ..kit import theme as th
from ..kit.layout import GAP, grid, rows
from ..kit.widgets import Label, Panel, Picture, Widget
from .base import Screen, game_title

_ = i18n.translator("app")
N_ = i18n.N_

# per game: the goal, then (picture, line) for each step, in the rulebooks' words
HELP: dict[str, tuple[str, tuple[tuple[str, str], ...]]] = {
    "cloud9": (
        N_("Goal: 50 points or more"),
        (
            ("c9-roll", N_("The pilot rolls the dice shown on the balloon's cloud.")),
            ("c9-decide", N_("Each passenger jumps out and scores, or stays in.")),
            ("c9-rise", N_("The pilot plays the rolled colours: the balloon rises.")),
            ("c9-fall", N_("Without them it falls: all aboard score nothing.")),
        ),
    ),
    "cloudship": (
        N_("Goal: all 12 flowers before the storm arrives"),
        (
            ("cs-roll", N_("Each round the commander rolls: each storm face moves the storm a square.")),
            ("cs-load", N_("Load a raindrop per colour, a hailstone per hail tile.")),
            ("cs-fly", N_("Fly the ship over the beds and let the balls fall.")),
            ("cs-grow", N_("Rain on a rolled colour grows a flower; hail takes one.")),
        ),
    ),
    "cloudmine": (
        N_("Goal: the most cloud cards when the deck runs out"),
        (
            ("cm-draw", N_("Each round the Dreamer draws cards; the Chooser secretly picks one.")),
            ("cm-describe", N_("The Dreamer describes it in five words or fewer.")),
            ("cm-guess", N_("The Observers point at a card in turn, clockwise.")),
            ("cm-settle", N_("Right: the finder takes the rest. Nobody: the Chooser takes all.")),
        ),
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
        if self.game not in HELP:
            return []
        goal, steps = HELP[self.game]
        head, body = rows(f.content, [0.6 if f.portrait else 0.9, 8], f.u(GAP))
        out: list[Widget] = [Label(head, _(goal), "prompt", wrap=True, colour=th.PRIMARY, key="goal")]
        # landscape: two by two; portrait: one under another, the picture beside its line
        cells = grid(body, len(steps), 1 if f.portrait else 2, f.u(GAP))
        for number, (cell, (kind, line)) in enumerate(zip(cells, steps), start=1):
            out.append(Panel(cell, key=f"help-step:{number}"))
            inner = cell.inflate(-f.u(16), -f.u(12))
            side = min(inner.h, inner.w * 9 // 25)
            picture = pygame.Rect(inner.x, inner.centery - side // 2, side, side)
            text = pygame.Rect(picture.right + f.u(12), inner.y, inner.right - picture.right - f.u(12), inner.h)
            out += [
                Picture(picture, help_pictures.paint(kind), key=f"help-picture:{kind}"),
                Label(text, _(line), "title", align="left", wrap=True, min_size="body", key=f"help-line:{number}"),
            ]
        return out
