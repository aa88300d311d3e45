"""The Cloud Mine: the ring of players with their roles, the cards to draw, whose guess it is,
right / wrong for the Dreamer, cards per player and the deck (ui-guide, "Game screens")."""

from __future__ import annotations

import math
from functools import lru_cache

import pygame

from ...i18n import translator
from ..kit import theme as th
from ..kit.layout import GAP, grid, inset, rows
from ..kit.widgets import Label, Panel, PlayerToken, Widget
from .base import GameScreen

_ = translator("cloudmine")

# the edge of a 3x3 grid read clockwise from the top left
PERIMETER = ((0, 0), (0, 1), (0, 2), (1, 2), (2, 2), (2, 1), (2, 0), (1, 0))


def ring_cells(area: pygame.Rect, count: int, gap: int) -> list[pygame.Rect]:
    """`count` equal cards evenly round an ellipse in `area`, clockwise from the top (the order
    round the table), as large as they can be without touching: a ring with no holes."""
    return [pygame.Rect(cell) for cell in _ring_cells(tuple(area), count, gap)]


@lru_cache(maxsize=32)
def _ring_cells(area_box: tuple[int, int, int, int], count: int, gap: int) -> tuple[tuple[int, int, int, int], ...]:
    """ring_cells, found once per board size and player count (each build asks again)."""
    return tuple(tuple(cell) for cell in _find_ring(pygame.Rect(area_box), count, gap))


def _find_ring(area: pygame.Rect, count: int, gap: int) -> list[pygame.Rect]:
    if count >= len(PERIMETER):  # eight: every cell round the edge of a 3x3 grid, the deck inside
        cells = grid(area, 9, 3, gap)
        return [cells[row * 3 + col] for row, col in PERIMETER][:count]
    # lower cards first (the words need the width), then narrower ones, until none touch
    for w_share in (1 / 3, 0.31, 0.29, 0.27, 0.25, 0.23, 0.21):
        for h_share in (1 / 3, 0.3, 0.27, 0.24, 0.21):
            for turn in (0.0, 0.5):  # the first card at the top, or half a step on (top left)
                cells = _ellipse(area, count, round(area.w * w_share) - gap, round(area.h * h_share) - gap, turn)
                if all(not a.inflate(gap, gap).colliderect(b) for i, a in enumerate(cells) for b in cells[i + 1:]):
                    return cells
    return cells


def _ellipse(area: pygame.Rect, count: int, w: int, h: int, turn: float) -> list[pygame.Rect]:
    rx, ry = (area.w - w) / 2, (area.h - h) / 2
    cells = []
    for i in range(count):
        angle = -math.pi / 2 + 2 * math.pi * (i - turn) / count
        cell = pygame.Rect(0, 0, w, h)
        cell.center = (round(area.centerx + rx * math.cos(angle)), round(area.centery + ry * math.sin(angle)))
        cells.append(cell.clamp(area))  # rounding never pushes a card off the board
    return cells


class CloudMineScreen(GameScreen):
    game = "cloudmine"
    domain = "cloudmine"

    def subtitle(self) -> str:
        return _("Round {number}").format(number=self.view["round"])

    def build(self, f, t):
        board, step = self.board_and_step(f, 0.4 if f.portrait else 0.38)
        return self.ring(f, board) + self.step_panel(f, step)

    # --- the board: who is who, and how many cards each has ----------------------------------
    def role_of(self, name: str) -> str:
        v = self.view
        if name == v["dreamer"]:
            return _("Dreamer")
        if name == v["chooser"]:
            return _("Chooser")
        # the queue by what it means (not a number that changes after every guess)
        order = v["guess_order"]
        if name in order:
            place = order.index(name)
            return _("Guesses now") if place == 0 else _("Guesses next") if place == 1 else _("Observer")
        return _("Has guessed")

    def ring(self, f, board: pygame.Rect) -> list[Widget]:
        v = self.view
        gap = f.u(GAP)
        out: list[Widget] = []
        for name, cell in zip(v["players"], ring_cells(board, len(v["players"]), gap)):
            out += self.player_card(f, cell, name)
        middle = inset(grid(board, 9, 3, gap)[4], f.u(4))
        number, caption = rows(middle, [1.4, 1])
        # numbers in large type, below the prompt's (landscape has little room for both)
        out += [Label(number, str(v["deck"]), "prompt" if f.portrait else "title", key="deck"),
                Label(caption, _("cards in the deck"), "small", wrap=True, colour=th.INK_SOFT)]
        return out

    def player_card(self, f, cell: pygame.Rect, name: str) -> list[Widget]:
        v = self.view
        player = self.player(name)
        guessing = name == v["to_guess"]
        card = Panel(cell, stripe=th.COLOURS[player.colour].rgb, highlight=th.FOCUS if guessing else None,
                     key=f"player:{name}")
        inner = pygame.Rect(cell.x + f.u(14), cell.y + f.u(4), cell.w - f.u(18), cell.h - f.u(8))
        top, middle, bottom = rows(inner, [1, 1.3, 0.9])
        side = min(middle.h, f.u(44))
        token = pygame.Rect(middle.x, middle.centery - side // 2, side, side)
        # the cards this player has collected: the big number beside their token
        score_rect = pygame.Rect(token.right, middle.y, middle.right - token.right - token.w, middle.h)
        return [card, Label(top, name, "body", key=f"name:{name}"), PlayerToken(token, name, player.colour, mark=self.mark(name)),
                Label(score_rect, str(v["scores"][name]), "prompt" if f.portrait else "title", key=f"score:{name}"),
                # the role ("Wolkenspäher") may use the card's whole width, its stripe aside
                Label(pygame.Rect(cell.x + f.u(10), bottom.y, cell.w - f.u(12), bottom.h), self.role_of(name),
                      "small", colour=th.PRIMARY if guessing else th.INK_SOFT,
                      key=f"role:{name}")]

    # --- the step: what happens now --------------------------------------------------------
    def step_panel(self, f, step: pygame.Rect) -> list[Widget]:
        v = self.view
        out: list[Widget] = [Panel(step, key="step")]
        inner = inset(step, f.u(12))
        if v["over"]:
            return out + [Label(inner, _("The deck cannot supply another round: the game is over."), "prompt",
                                wrap=True)]
        who = v["to_guess"]
        fresh = v["table"] == v["cards_per_round"] and v["dreamer_pile"] == 0
        # the answers at least 64 px high (landscape stacks them)
        heights = [0.9, 1.6, 0.6, 2.2] if not f.portrait else [1, 1.6, 0.7, 1.4]
        draw_rect, prompt_rect, table_rect, buttons = rows(inner, heights, f.u(GAP))
        if fresh:
            draw_text = _("{dreamer} draws {count} cards for {chooser}").format(
                dreamer=v["dreamer"], count=v["cards_per_round"], chooser=v["chooser"])
        else:
            draw_text = _.ngettext("{dreamer} holds {count} wrong guess", "{dreamer} holds {count} wrong guesses",
                                    v["dreamer_pile"]).format(dreamer=v["dreamer"], count=v["dreamer_pile"])
        out.append(Label(draw_rect, draw_text, "body", wrap=True, key="draw"))
        # the guesser's token beside the words where the step is wide (the ring marks them too)
        token = pygame.Rect(prompt_rect.x, prompt_rect.y, min(prompt_rect.h, f.u(56)) if f.portrait else 0,
                            prompt_rect.h)
        if token.w:
            out.append(PlayerToken(token.inflate(-f.u(6), -f.u(6)), who, self.player(who).colour, key="guesser",
                                   mark=self.mark(who)))
        out.append(Label(pygame.Rect(token.right + f.u(6) * bool(token.w), prompt_rect.y,
                                     prompt_rect.right - token.right - f.u(6) * bool(token.w), prompt_rect.h),
                         _("{name} guesses").format(name=who), "big", wrap=True, colour=th.INK, key="prompt"))
        out.append(Label(table_rect, _.ngettext("{count} card on the table", "{count} cards on the table",
                                                v["table"]).format(count=v["table"]), "body", key="table"))
        right, wrong = rows(buttons, 2, f.u(GAP)) if not f.portrait else \
            (pygame.Rect(buttons.x, buttons.y, buttons.w // 2 - f.u(4), buttons.h),
             pygame.Rect(buttons.centerx + f.u(4), buttons.y, buttons.w // 2 - f.u(4), buttons.h))
        out.append(self.action_button(right, _("Right card"), {"act": "guess", "player": who, "correct": True},
                                      kind="good", key="right", size="title", icon=tick_icon))
        out.append(self.action_button(wrong, _("Wrong card"), {"act": "guess", "player": who, "correct": False},
                                      kind="danger", key="wrong", size="title", icon=cross_icon))
        return out

    def sounds_for(self, before, after, action):
        if action.get("act") != "guess":
            return []
        if after.view["over"]:
            return ["won"]
        return ["right" if action["correct"] else "wrong"]


def demo_game() -> tuple[dict, list[dict]]:
    """A short scripted game for `cloud-companion demo`: the rulebook's first round, then play
    on with a steady pattern until the deck runs out."""
    from ...rules import Match

    setup = {"game": "cloudmine", "players": ["András", "Edit", "Tamás", "Gabriella", "Zsolt", "Robi"]}
    match, actions = Match.start(setup), []
    turn = 0
    while not match.view["over"]:
        who = match.view["to_guess"]
        # the rulebook round: three wrong, the fourth right; later rounds vary
        correct = len(match.view["guess_order"]) == 1 or (turn % 4 == 3)
        action = {"act": "guess", "player": who, "correct": correct}
        match = match.apply(action)
        actions.append(action)
        turn = 0 if correct else turn + 1
    return setup, actions


def tick_icon(surface, rect, colour) -> None:
    from ..kit.shapes import draw_tick
    draw_tick(surface, rect, colour)


def cross_icon(surface, rect, colour) -> None:
    from ..kit.shapes import draw_cross
    draw_cross(surface, rect, colour)
