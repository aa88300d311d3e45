"""Cloud 9: the ladder of nine clouds with the basket and who is aboard, the scoreboard toward
50 with hand sizes, and the step: enter the roll, each passenger's jump or stay, then the
pilot's rise (which cards) or fall (ui-guide, "Game screens").

The roll is entered in several taps (one per die), so the faces tapped so far are kept on the
screen object, for the current state only: any change of the game (an action, an undo) starts
the entry afresh. The same holds for a solo pilot's "stay in", which is no action of its own
(staying is rolling, replay contract) but opens the roll entry.
"""

from __future__ import annotations

import math
import random
from functools import lru_cache
from typing import Any

import pygame

from ...i18n import translator
from ...rules.cloud9 import BLANK, DICE, FACES, POINTS, TOP_CLOUD, TOP_POINTS, WILD, WINNING_SCORE
from ..boards import risk_meter
from ..kit import theme as th
from ..kit.layout import GAP, cols, inset, rows
from ..kit.shapes import draw_shape, draw_token
from ..kit.widgets import Button, Label, Panel, PlayerToken, Widget, chevron_left
from ..story.moments import colour_word
from .base import GameScreen

_ = translator("cloud9")

TUMBLE_S = 0.3           # the app's own roll: the dice tumble this long before they settle
LIFT_S = 0.3             # a rise: the basket glides up from the cloud it left
BASKET = (236, 205, 158)  # wicker, behind the tokens aboard
BASKET_LINE = (150, 104, 52)
TOP_CLOUD_FILL = (255, 246, 214)
PASSED_CLOUD = (238, 244, 250)
GOLD = (247, 190, 40)


# --- drawing dice and cards ------------------------------------------------------------------

def draw_die(surface: pygame.Surface, box: pygame.Rect, face: str | None, theme: th.Theme) -> None:
    """A white die showing `face` as its colour's shape; blank shows nothing; None is a die seen
    from above and aside, a cube with no face up (the ladder's "dice rolled here": never read
    as a roll of one)."""
    if face is None:
        draw_cube(surface, box, theme)
        return
    radius = max(2, box.w // 5)
    pygame.draw.rect(surface, th.CARD, box, border_radius=radius)
    pygame.draw.rect(surface, th.INK, box, max(1, theme.px(2) if box.w > theme.px(24) else 1), border_radius=radius)
    if face != BLANK:
        draw_token(surface, face, box.center, box.w * 0.32)


def draw_cube(surface: pygame.Surface, box: pygame.Rect, theme: th.Theme) -> None:
    """A small die drawn as a cube: front, top and side faces in greys, outlined."""
    surface.blit(_cube(box.w, box.h, max(1, theme.px(1.5))), box)


@lru_cache(maxsize=16)
def _cube(width: int, height: int, line: int) -> pygame.Surface:
    """The cube's picture, made once per size (the ladder shows some twenty of them)."""
    image = pygame.Surface((width, height), pygame.SRCALPHA)
    d = width * 0.28  # depth of the top and side faces
    x, y, w, h = 0, d, width - d - 1, height - d - 1
    front = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
    top = [(x, y), (x + d, y - d), (x + w + d, y - d), (x + w, y)]
    side = [(x + w, y), (x + w + d, y - d), (x + w + d, y + h - d), (x + w, y + h)]
    for face, fill in ((front, th.CARD), (top, (226, 232, 240)), (side, (196, 204, 216))):
        pygame.draw.polygon(image, fill, face)
        pygame.draw.polygon(image, th.INK, face, line)
    return image


def draw_card(surface: pygame.Surface, box: pygame.Rect, card: str, theme: th.Theme) -> None:
    """A balloon card: white with its colour's shape (wild: the rainbow)."""
    pygame.draw.rect(surface, th.CARD, box, border_radius=max(2, box.w // 6))
    pygame.draw.rect(surface, th.INK, box, max(1, theme.px(1.5)), border_radius=max(2, box.w // 6))
    draw_token(surface, card, box.center, box.w * 0.36)


def draw_hand(surface: pygame.Surface, box: pygame.Rect, theme: th.Theme) -> None:
    """A hand of cards: two card backs fanned out (reads as "cards", not as a digit)."""
    w, h = box.w * 0.62, box.h * 0.86
    line = max(1, theme.px(1.5))
    for angle, dx in ((14, box.w * 0.16), (-10, -box.w * 0.12)):
        cx, cy = box.centerx + dx, box.centery
        turn = math.radians(angle)
        corners = [(cx + x * math.cos(turn) - y * math.sin(turn), cy + x * math.sin(turn) + y * math.cos(turn))
                   for x, y in ((-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2))]
        pygame.draw.polygon(surface, th.PRIMARY, corners)
        pygame.draw.polygon(surface, th.INK, corners, line)


def _strip(rect: pygame.Rect, count: int, aspect: float, gap: int, align: str = "center") -> list[pygame.Rect]:
    """`count` boxes of width/height `aspect` side by side in `rect`, as large as fit."""
    if count <= 0:
        return []
    h = min(rect.h, (rect.w - gap * (count - 1)) / (count * aspect))
    w = h * aspect
    total = count * w + gap * (count - 1)
    x = rect.x if align == "left" else rect.right - total if align == "right" else rect.centerx - total / 2
    w, h = int(w), int(h)  # whole pixels, rounded down, so that every box stays inside `rect`
    y = rect.y + (rect.h - h) // 2
    return [pygame.Rect(int(x + i * (w + gap)), y, w, h) for i in range(count)]


def token_slots(rect: pygame.Rect, count: int, gap: int) -> list[pygame.Rect]:
    """Square places for `count` tokens in one row, or in two when that makes them larger."""
    if count <= 0:
        return []
    one = _strip(rect, count, 1.0, gap)
    top_count = -(-count // 2)
    top, bottom = rows(rect, 2, gap)
    two = _strip(top, top_count, 1.0, gap) + _strip(bottom, count - top_count, 1.0, gap)
    return two if count > 1 and two[0].w > one[0].w * 1.15 else one


class Snapshot(Widget):
    """Still parts of the screen (the board), drawn once per build and blitted after that.

    A screen is rebuilt after every change, so between builds the board cannot change: the
    redraws in between (a pressed button, a toast, a short transition) cost one blit. The
    first draw paints the children straight onto the canvas (over the sky, which never
    changes) and keeps a copy of that area. Texts and overflows are the children's.
    """

    def __init__(self, rect, children: list[Widget], key: str | None = None):
        super().__init__(rect, key)
        self.children = children
        self._image: pygame.Surface | None = None

    def texts(self):
        return [text for child in self.children for text in child.texts()]

    def overflow(self, theme):
        return [text for child in self.children for text in child.overflow(theme)]

    def draw(self, surface, ctx):
        if self._image is not None:
            surface.blit(self._image, self.rect)
            return
        for child in self.children:
            child.draw(surface, ctx)
        self._image = surface.subsurface(self.rect).copy()


class DiceRow(Widget):
    """Dice side by side (faces, or None for plain dice)."""

    def __init__(self, rect, faces: list[str | None], align: str = "center", key: str | None = None):
        super().__init__(rect, key)
        self.faces, self.align = list(faces), align

    def draw(self, surface, ctx):
        for box, face in zip(_strip(self.rect, len(self.faces), 1.0, ctx.theme.px(6), self.align), self.faces):
            draw_die(surface, box, face, ctx.theme)


class Hand(Widget):
    """The cards-in-hand sign next to a hand size."""

    def draw(self, surface, ctx):
        draw_hand(surface, self.rect, ctx.theme)


class Star(Widget):
    """Cloud 9, the top of the ladder."""

    def draw(self, surface, ctx):
        draw_shape(surface, "star", self.rect.center, min(self.rect.w, self.rect.h) / 2, GOLD)


class Bar(Widget):
    """Points toward 50: a track filled in the player's colour, outlined so yellow shows too."""

    def __init__(self, rect, value: int, total: int, colour: tuple[int, int, int], key: str | None = None):
        super().__init__(rect, key)
        self.value, self.total, self.colour = value, total, colour

    def draw(self, surface, ctx):
        radius = self.rect.h // 2
        pygame.draw.rect(surface, th.SECONDARY, self.rect, border_radius=radius)
        share = min(1.0, self.value / self.total)
        if share > 0:
            filled = pygame.Rect(self.rect.x, self.rect.y, max(self.rect.h, round(self.rect.w * share)), self.rect.h)
            pygame.draw.rect(surface, self.colour, filled, border_radius=radius)
        pygame.draw.rect(surface, th.INK_SOFT, self.rect, max(1, ctx.theme.px(1)), border_radius=radius)


class FaceButton(Button):
    """A die face to tap while entering the roll."""

    def __init__(self, rect, face: str, on_tap, enabled: bool = True, key: str | None = None):
        self.face = face
        super().__init__(rect, "", on_tap, kind="choice", enabled=enabled, key=key)

    def draw(self, surface, ctx):
        super().draw(surface, ctx)
        side = round(min(self.rect.w, self.rect.h) * 0.72)
        box = pygame.Rect(0, 0, side, side)
        box.center = self.rect.center
        draw_die(surface, box, self.face, ctx.theme)


class CardsButton(Button):
    """A rise option: its word, then the cards it plays."""

    def __init__(self, rect, text: str, on_tap, cards: list[str], **kwargs):
        self.cards = list(cards)
        super().__init__(rect, text, on_tap, **kwargs)

    def _cards_rect(self) -> pygame.Rect:
        h = round(self.rect.h * 0.7)
        # four cards at most 45% of the button: the word beside them needs the rest in German and Hungarian
        w = min(round(self.rect.w * 0.45), round(len(self.cards) * (h * 0.72 + 6)))
        return pygame.Rect(self.rect.right - w - 10, self.rect.centery - h // 2, w, h)

    def _label_rect(self) -> pygame.Rect:
        if not self.cards:
            return super()._label_rect()
        cards = self._cards_rect()
        return pygame.Rect(self.rect.x + 8, self.rect.y + 3, cards.x - self.rect.x - 14, self.rect.h - 6)

    def draw(self, surface, ctx):
        super().draw(surface, ctx)
        for box, card in zip(_strip(self._cards_rect(), len(self.cards), 0.72, ctx.theme.px(4), "right"), self.cards):
            draw_card(surface, box, card, ctx.theme)


# --- the screen --------------------------------------------------------------------------------

class Cloud9Screen(GameScreen):
    game = "cloud9"
    domain = "cloud9"

    def __init__(self, app, controller=None, players=None):
        super().__init__(app, controller, players)
        self.rng = random.Random()
        self._draft_for: Any = None      # the match the roll entry belongs to
        self._draft_dice: list[str] = []
        self._solo_stays = False
        self._dice_rect: pygame.Rect | None = None  # where the roll is shown (for the tumble)
        self._tumble: tuple[float, int] | None = None
        self._basket: list[Widget] = []  # the basket and the tokens aboard, as last laid out
        self._lift: tuple[float, int] | None = None  # (start, the basket's height on screen before)

    def subtitle(self) -> str:
        return _("Trip {number}").format(number=self.view["trip"])

    def card_keeps_clear(self, moment):
        # a fall or a trip to the top is about the balloon: its card leaves the ladder in sight
        return ("ladder",) if moment.kind in ("fall", "top") else ()

    # --- the roll being entered (for the current state only) ----------------------------------
    def _draft(self) -> list[str]:
        if self._draft_for is not self.match:
            self._draft_for, self._draft_dice, self._solo_stays = self.match, [], False
        return self._draft_dice

    def add_face(self, face: str) -> None:
        dice = self._draft()
        if len(dice) < self.view["dice_here"]:
            dice.append(face)
            self.refresh()

    def remove_die(self, index: int) -> None:
        dice = self._draft()
        if index < len(dice):
            del dice[index]
            self.refresh()

    def stay_solo(self, stays: bool = True) -> None:
        self._draft()
        self._solo_stays = stays
        self.refresh()

    def roll_action(self) -> dict[str, Any]:
        # the rules list rolls in face order, so a roll in that order is found among them
        return {"act": "roll", "dice": sorted(self._draft(), key=FACES.index)}

    def roll_for_me(self) -> None:
        """The app rolls: a roll drawn with its true probability from the rules."""
        outcomes = self.match.rules.roll_outcomes(self.match.state)
        if not outcomes:
            return
        chosen = self.rng.choices(outcomes, weights=[o.probability for o in outcomes])[0]
        if self.submit(chosen.action):
            self._tumble = (self.app.now(), self.rng.randrange(1 << 16))
            self.app.animate(TUMBLE_S)

    def on_game_change(self, before, after, action):
        super().on_game_change(before, after, action)
        risen = action.get("act") == "rise" and after.view["trip"] == before.view["trip"]
        if risen and self._basket:
            self._lift = (self.app.now(), self._basket[0].rect.y)
            self.app.animate(LIFT_S)

    def on_seat_outcome(self, outcome) -> bool:
        # a solo pilot's "stay" press is a note for the screen: open the roll entry
        decision = outcome.decision
        view = self.view
        if decision.kind == "note" and view["phase"] == "roll" and view["solo"] and decision.player == view["pilot"]:
            self.stay_solo()
            return True
        return False

    # --- layout ------------------------------------------------------------------------------
    def build(self, f, t):
        v = self.view
        # portrait: the board needs the height more than the step does
        board, step = self.board_and_step(f, 0.44 if f.portrait else 0.36)
        ladder, scores = cols(board, [1, 2.4 if f.portrait else 2.0], f.u(GAP * 2))
        self._dice_rect, self._basket = None, []
        board_widgets = self.ladder(f, ladder, v) + self.scoreboard(f, scores, v)
        return [Snapshot(board, board_widgets, key="board")] + self.step_panel(f, step, v)

    # the ladder: cloud 9 on top, the basket's cloud drawn larger with the tokens aboard
    def ladder(self, f, area: pygame.Rect, v) -> list[Widget]:
        basket_cloud = None if v["over"] else v["cloud"]
        clouds = list(range(TOP_CLOUD, 0, -1))
        weights = [6 if c == basket_cloud else 1 for c in clouds]
        out: list[Widget] = [Widget(area, key="ladder")]  # where it is (a result card leaves it be)
        for cloud, rect in zip(clouds, rows(area, weights, f.u(4))):
            if cloud == basket_cloud:
                out += self.basket_cloud(f, rect, v)
            else:
                out += self.cloud_row(f, rect, cloud, passed=basket_cloud is not None and cloud < basket_cloud)
        return out

    def cloud_row(self, f, rect: pygame.Rect, cloud: int, passed: bool) -> list[Widget]:
        top = cloud == TOP_CLOUD
        fill = TOP_CLOUD_FILL if top else PASSED_CLOUD if passed else th.CARD
        out: list[Widget] = [Panel(rect, colour=fill, radius=rect.h / 2 / max(f.scale, 0.01), key=f"cloud:{cloud}")]
        inner = pygame.Rect(rect.x + f.u(6), rect.y, rect.w - f.u(16), rect.h)
        number, inner = self.cloud_number(f, inner, cloud, passed)
        out += number
        points, rest = cols(inner, [1, 2.0])
        out.append(Label(points.inflate(0, -f.u(2)), str(TOP_POINTS if top else POINTS[cloud]), 26,
                         align="left", colour=th.INK_SOFT if passed else th.INK, key=f"points:{cloud}"))
        if top:  # the goal: a gold star
            out.append(Star(pygame.Rect(rest.right - rest.h, rest.y, rest.h, rest.h).inflate(-f.u(6), -f.u(6)),
                            key="top-cloud"))
        else:
            out.append(DiceRow(rest.inflate(0, -f.u(10)), [None] * DICE[cloud], align="right", key=f"dice:{cloud}"))
        return out

    def cloud_number(self, f, row: pygame.Rect, cloud: int, passed: bool = False,
                     px: str = "min") -> tuple[list[Widget], pygame.Rect]:
        """The cloud's number (the cards and the story name clouds by it) in a small grey disc at
        the row's left, and what is left of the row."""
        side = min(row.h - f.u(4), f.u(30))
        disc = pygame.Rect(row.x, row.centery - side // 2, side, side)
        widgets = [Panel(disc, colour=th.SECONDARY if passed else (214, 228, 242), border=None,
                         radius=side / 2 / max(f.scale, 0.01), key=f"cloud-number:{cloud}"),
                   Label(disc, str(cloud), px, colour=th.INK_SOFT if passed else th.INK, key=f"cloud-no:{cloud}")]
        rest = pygame.Rect(disc.right + f.u(6), row.y, row.right - disc.right - f.u(6), row.h)
        return widgets, rest

    def basket_cloud(self, f, rect: pygame.Rect, v) -> list[Widget]:
        cloud = v["cloud"]
        out: list[Widget] = [Panel(rect, highlight=th.FOCUS, key="basket-cloud")]
        inner = pygame.Rect(rect.x + f.u(10), rect.y + f.u(6), rect.w - f.u(18), rect.h - f.u(12))
        head, basket = rows(inner, [1, 2.2], f.u(4))
        number, head = self.cloud_number(f, head, cloud, px="small")
        out += number
        points, dice = cols(head, [1.3, 2], f.u(4))
        out += [Label(points, str(POINTS[cloud]), "title", align="left", key="points-here"),
                DiceRow(dice.inflate(0, -f.u(10)), [None] * DICE[cloud], align="right", key="dice-here")]
        self._basket = [Panel(basket, colour=BASKET, border=BASKET_LINE, radius=8, key="basket")]
        aboard = v["basket"]
        slots = token_slots(inset(basket, f.u(4)), len(aboard), f.u(4))
        for name, slot in zip(aboard, slots):
            if name == v["pilot"]:
                self._basket.append(Panel(slot, colour=th.CARD, border=th.INK, radius=6, key="pilot-mark"))
            self._basket.append(PlayerToken(slot.inflate(-f.u(4), -f.u(4)), name, self.player(name).colour,
                                            key=f"aboard:{name}", mark=self.mark(name)))
        return out + self._basket

    # the scoreboard: points toward 50, cards in hand, and each player's part in this trip
    def role(self, name: str, v) -> str:
        if v["over"]:
            return _("Winner") if name in v["winners"] else ""
        if name == v["pilot"]:
            return _("Solo pilot") if v["solo"] else _("Pilot")
        if name == v["to_decide"]:
            return _("Decides now")
        if name in v["basket"]:
            return _("Aboard")
        return _("Jumped out")

    def acting(self, v) -> str | None:
        """Whose move it is: the passenger deciding, else the pilot."""
        if v["over"]:
            return None
        return v["to_decide"] or v["pilot"]

    def scoreboard(self, f, area: pygame.Rect, v) -> list[Widget]:
        names = v["players"]
        gap = f.u(6)
        deck_h = f.u(26)
        cap = f.u(120 if f.portrait else 100)

        def row_height(room: int) -> int:
            return min(cap, (room - gap * (len(names) - 1)) // len(names))

        # the piles are worth a line only when the players' rows keep room enough
        show_deck = row_height(area.h - deck_h - gap) >= f.u(64)
        row_h = row_height(area.h - deck_h - gap if show_deck else area.h)
        out: list[Widget] = []
        for index, name in enumerate(names):
            row = pygame.Rect(area.x, area.y + index * (row_h + gap), area.w, row_h)
            out += self.score_row(f, row, name, v)
        if show_deck:
            deck = pygame.Rect(area.x, area.y + len(names) * (row_h + gap), area.w, deck_h)
            out.append(Label(deck, _("Draw pile: {pile} · discards: {discards}").format(
                pile=v["draw_pile"], discards=v["discards"]), "small", colour=th.INK, key="deck"))
        return out

    def score_row(self, f, row: pygame.Rect, name: str, v) -> list[Widget]:
        player = self.player(name)
        rgb = th.COLOURS[player.colour].rgb
        acting = name == self.acting(v)
        aboard = name in v["basket"] or v["over"]
        out: list[Widget] = [Panel(row, stripe=rgb, highlight=th.FOCUS if acting else None, key=f"player:{name}")]
        inner = pygame.Rect(row.x + f.u(16), row.y + f.u(3), row.w - f.u(24), row.h - f.u(6))
        # a short row (many players, little height) leaves out the track: the number says it
        track_h = f.u(12) if row.h >= f.u(60) else 0
        body = pygame.Rect(inner.x, inner.y, inner.w, inner.h - track_h - (f.u(2) if track_h else 0))
        track = pygame.Rect(inner.x, inner.bottom - track_h, inner.w, track_h)
        token_side = min(body.h, f.u(40))
        token = pygame.Rect(body.x, body.centery - token_side // 2, token_side, token_side)
        rest = pygame.Rect(token.right + f.u(8), body.y, body.right - token.right - f.u(8), body.h)
        points_w, hand_w = f.u(52), f.u(54)
        words = pygame.Rect(rest.x, rest.y, rest.w - points_w - f.u(6), rest.h)
        points = pygame.Rect(rest.right - points_w, rest.y, points_w, rest.h)
        # the name has its line to itself (long names); the hand shares the role's line
        name_rect, role_line = rows(words, [1.2, 1])
        hand = pygame.Rect(role_line.right - hand_w, role_line.y, hand_w, role_line.h)
        role_rect = pygame.Rect(role_line.x, role_line.y, hand.x - role_line.x - f.u(4), role_line.h)
        card_h = min(hand.h - f.u(2), f.u(30))
        card = pygame.Rect(hand.x, hand.centery - card_h // 2, card_h, card_h)
        # the goal's number beside the bar, where the row has the height for it
        goal_w = f.u(26) if row.h >= f.u(72) else 0
        bar = pygame.Rect(track.x, track.centery - f.u(4), track.w - goal_w - (f.u(4) if goal_w else 0), f.u(8))
        goal = pygame.Rect(bar.right + f.u(4), track.centery - f.u(11), goal_w, f.u(22))
        out += [PlayerToken(token, name, player.colour, key=f"token:{name}", mark=self.mark(name)),
                Label(name_rect, name, "body", align="left", colour=th.INK if aboard else th.INK_SOFT,
                      key=f"name:{name}"),
                Label(role_rect, self.role(name, v), "small", align="left",
                      colour=th.PRIMARY if acting else th.INK_SOFT, key=f"role:{name}"),
                Hand(card),
                Label(pygame.Rect(card.right + f.u(4), hand.y, hand.right - card.right - f.u(4), hand.h),
                      str(v["hands"][name]), "body", align="left", key=f"hand:{name}"),
                Label(points, str(v["scores"][name]), "title", align="right", key=f"score:{name}")]
        if track_h:
            out.append(Bar(bar, v["scores"][name], WINNING_SCORE, rgb, key=f"bar:{name}"))
        if goal_w and track_h:
            out.append(Label(goal, str(WINNING_SCORE), "min", colour=th.INK_SOFT, align="right"))
        return out

    # --- the step: what happens now ----------------------------------------------------------
    def step_panel(self, f, step: pygame.Rect, v) -> list[Widget]:
        out: list[Widget] = [Panel(step, key="step")]
        inner = inset(step, f.u(12))
        phase = v["phase"]
        if phase == "over":
            winners = ", ".join(v["winners"])
            return out + [Label(inner, _("Game over: {names} won").format(names=winners), "prompt", wrap=True,
                                key="prompt")]
        self._draft()  # forget a roll entry begun in an earlier state
        if phase == "roll" and v["solo"] and not self._solo_stays:
            return out + self.solo_choice(f, inner, v)
        if phase == "roll":
            return out + self.roll_entry(f, inner, v)
        if phase == "decide":
            return out + self.decision(f, inner, v)
        return out + self.rise_or_fall(f, inner, v)

    def prompt_card(self, f, rect: pygame.Rect, name: str, text: str) -> list[Widget]:
        """The next thing to do, big, on the acting player's colour with their token."""
        colour = self.player(name).colour
        rgb = th.banner(th.COLOURS[colour].rgb)  # the player's colour, dark enough for its text
        out: list[Widget] = [Panel(rect, colour=rgb, border=th.CARD_LINE, key="prompt-card")]
        if rect.w >= f.u(320):  # the player's token beside the words, where the width allows
            side = min(rect.h - f.u(12), f.u(56))
            badge = pygame.Rect(rect.x + f.u(6), rect.centery - side // 2, side, side)
            out += [Panel(badge, border=None, radius=10),
                    PlayerToken(badge.inflate(-f.u(6), -f.u(6)), name, colour, mark=self.mark(name))]
            left = badge.right + f.u(8)
        else:  # a narrow step (landscape): the words take it all, in the player's colour
            left = rect.x + f.u(8)
        text_rect = pygame.Rect(left, rect.y + f.u(2), rect.right - left - f.u(8), rect.h - f.u(4))
        return out + [Label(text_rect, text, "big", colour=th.text_on(rgb), wrap=True, key="prompt")]

    def roll_line(self, f, rect: pygame.Rect, v) -> list[Widget]:
        """The roll being resolved, and how many cards the pilot holds."""
        wide = rect.w >= f.u(360)
        # the roll everyone decides on: dice as large as the row allows, the hand in small type
        dice_rect, hand_rect = cols(rect, [1.3, 1] if wide else [2.3, 1], f.u(GAP))
        self._dice_rect = dice_rect
        pilot = v["pilot"]
        dice = DiceRow(dice_rect, sorted(v["dice"], key=FACES.index), align="left", key="roll")
        # the pilot's hand: the cards sign and the count (the scoreboard names the pilot)
        side = min(hand_rect.h, f.u(36))
        card = pygame.Rect(hand_rect.x, hand_rect.centery - side // 2, side, side)
        return [dice, Hand(card, key="pilot-hand-sign"),
                Label(pygame.Rect(card.right + f.u(4), hand_rect.y, hand_rect.right - card.right - f.u(4),
                                  hand_rect.h), str(v["hands"][pilot]), "body", align="left", key="pilot-hand")]

    def solo_choice(self, f, inner: pygame.Rect, v) -> list[Widget]:
        pilot = v["pilot"]
        prompt, note, jump, stay = rows(inner, [1.5, 0.7, 1.15, 1.15], f.u(GAP))
        return (self.prompt_card(f, prompt, pilot, _("{name} flies solo: jump or stay?").format(name=pilot))
                + [Label(note, _("Jump out now: +{points} points").format(points=v["points_here"]), "small",
                         wrap=True, key="note"),
                   self.action_button(jump, _("Jump out"), {"act": "jump", "player": pilot}, key="jump", size="title"),
                   Button(stay, _("Stay in and roll"), self.stay_solo, kind="good", key="stay", size="title")])

    def roll_entry(self, f, inner: pygame.Rect, v) -> list[Widget]:
        pilot, count, solo = v["pilot"], v["dice_here"], v["solo"]
        dice = self._draft()
        wide = inner.w >= f.u(5 * 64)  # portrait: one row of faces, the hint beside the slots
        columns = 5 if wide else 3
        face_rows = -(-len(FACES) // columns)
        weights = [1.6, 0.9] + ([] if wide else [1 if solo else 0.5]) + [1] * face_rows + [1.3]
        parts = rows(inner, weights, f.u(GAP))
        prompt, slots, faces, buttons = parts[0], parts[1], parts[-1 - face_rows:-1], parts[-1]
        if wide:
            slots, hint = cols(slots, [1, 1], f.u(GAP))
        else:
            hint = parts[2]
        text = _.ngettext("{name}: roll {count} die", "{name}: roll {count} dice", count)
        out = self.prompt_card(f, prompt, pilot, text.format(name=pilot, count=count))
        side = min(slots.h, f.u(64))
        for i, box in enumerate(_strip(slots, count, 1.0, f.u(GAP))):
            box = pygame.Rect(box.centerx - side // 2, box.centery - side // 2, side, side)
            if i < len(dice):
                out.append(FaceButton(box, dice[i], lambda i=i: self.remove_die(i), key=f"slot:{i}"))
            else:
                out += [Panel(box, colour=th.SECONDARY, border=th.INK_SOFT, radius=10, key=f"slot:{i}"),
                        Label(box, "?", "title", colour=th.INK_SOFT)]
        if solo:
            # a solo pilot who tapped "stay in" by mistake goes back to the choice
            back = pygame.Rect(hint.x, hint.y, hint.h, hint.h)
            out.append(Button(back, "", lambda: self.stay_solo(False), kind="secondary", icon=chevron_left,
                              key="solo-back"))
            hint = pygame.Rect(back.right + f.u(GAP), hint.y, hint.right - back.right - f.u(GAP), hint.h)
        hint_text = _("Tap each die's face") if len(dice) < count else _("Tap a die to take it back")
        out.append(Label(hint, hint_text, "small", colour=th.INK_SOFT, wrap=True, key="hint"))
        full = len(dice) >= count
        cells = [c for row in faces for c in cols(row, columns, f.u(GAP))]
        for face, cell in zip(FACES, cells):
            out.append(FaceButton(cell, face, lambda face=face: self.add_face(face), enabled=not full,
                                  key=f"face:{face}"))
        app_roll, done = cols(buttons, [1, 1], f.u(GAP))
        out += [Button(app_roll, _("Roll for me"), self.roll_for_me, kind="secondary", key="app-roll", size="body"),
                self.action_button(done, _("Done"), self.roll_action(), key="done", size="title")]
        return out

    def decision(self, f, inner: pygame.Rect, v) -> list[Widget]:
        who = v["to_decide"]
        later = v["decide_order"][1:]
        meter = risk_meter.shown(self.app)  # the risk meter takes a row of its own when on
        # the question is the biggest thing on the screen; the answers at least 64 px high
        if f.portrait:  # the answers side by side: the roll gets the height
            weights = [1.6, 1.2, 0.6, 2.0, 0.4] if meter else [1.7, 1.4, 2.0, 0.4]
        else:
            weights = [2.1, 0.8, 0.6, 2.75, 0.4] if meter else [2.2, 1.0, 2.6, 0.4]
        parts = rows(inner, weights, f.u(GAP))
        prompt, roll, choices, after = parts[:2] + parts[-2:]
        jump = {"act": "jump", "player": who}
        stay = {"act": "stay", "player": who}
        out = self.prompt_card(f, prompt, who, _("{name}: jump or stay?").format(name=who))
        out += self.roll_line(f, roll, v)
        out += risk_meter.widgets(parts[2], self.match, f) if meter else []
        jump_rect, stay_rect = rows(choices, 2, f.u(GAP)) if not f.portrait else cols(choices, 2, f.u(GAP))
        out += [self.action_button(jump_rect, _("Jump out: +{points}").format(points=v["points_here"]), jump,
                                   key="jump", size="title"),
                self.action_button(stay_rect, _("Stay in"), stay, kind="good", key="stay", size="title")]
        if later:  # who decides after: their tokens, as names would not fit six players
            word = pygame.Rect(after.x, after.y, min(after.w // 3, f.u(80)), after.h)
            out.append(Label(word, _("Then:"), "min", colour=th.INK_SOFT, align="right", key="then"))
            tokens = pygame.Rect(word.right + f.u(6), after.y, after.right - word.right - f.u(6), after.h)
            for name, box in zip(later, _strip(tokens, len(later), 1.0, f.u(6), "left")):
                out.append(PlayerToken(box, name, self.player(name).colour, key=f"then:{name}", mark=self.mark(name)))
        return out

    def rise_or_fall(self, f, inner: pygame.Rect, v) -> list[Widget]:
        pilot, needed = v["pilot"], v["cards_needed"]
        prompt, roll, choices = rows(inner, [1.5, 1.3, 2.8] if f.portrait else [1.6, 0.9, 3.4], f.u(GAP))
        if not needed:
            out = self.prompt_card(f, prompt, pilot, _("{name}: rise, no card needed").format(name=pilot))
            out += self.roll_line(f, roll, v)
            button = pygame.Rect(choices.x, choices.y, choices.w, min(choices.h, f.u(80)))
            return out + [self.rise_button(button, _("Rise"), [])]
        out = self.prompt_card(f, prompt, pilot, _("{name}: rise or fall?").format(name=pilot))
        out += self.roll_line(f, roll, v)
        if f.portrait:
            top, fall = rows(choices, [1, 0.8], f.u(GAP))
            with_colours, with_wild = cols(top, [1.4, 1], f.u(GAP))
        else:
            with_colours, with_wild, fall = rows(choices, 3, f.u(GAP))
        # the cards in the order of the dice shown above them
        in_dice_order = sorted(needed, key=FACES.index)
        # each rise says what it spends: these colours (three or four: how many, the cards are
        # pictured beside the words), or the wild card
        if len(needed) <= 2:
            spend = _("Rise, play {cards}").format(cards=" + ".join(colour_word(card) for card in in_dice_order))
        else:
            spend = _("Rise: {count} cards").format(count=len(needed))
        return out + [self.rise_button(with_colours, spend, needed, key="rise", shown=in_dice_order),
                      self.rise_button(with_wild, _("Rise, play the wild card"), [WILD], key="rise-wild"),
                      self.action_button(fall, _("Fall"), {"act": "fall"}, kind="danger", key="fall", size="title")]

    def rise_button(self, rect: pygame.Rect, text: str, cards: list[str], key: str = "rise",
                    shown: list[str] | None = None) -> Button:
        return self.action_button(rect, text, {"act": "rise", "cards": list(cards)}, widget=CardsButton,
                                  cards=cards if shown is None else shown, kind="good", key=key, size="title")

    # --- short transitions: the app's roll tumbles, a rising basket glides up ----------------
    def draw_above(self, surface, ctx):
        self._draw_tumble(surface, ctx)
        self._draw_lift(surface, ctx)

    def _draw_tumble(self, surface, ctx):
        if self._tumble is None or self._dice_rect is None:
            return
        started, seed = self._tumble
        elapsed = ctx.now - started
        if not 0 <= elapsed < TUMBLE_S:
            self._tumble = None
            return
        # new faces every 60 ms, the same ones for the same moment (no flicker between redraws)
        rng = random.Random(seed * 100 + int(elapsed / 0.06))
        count = len(self.view["dice"] or [])
        cover = self._dice_rect
        pygame.draw.rect(surface, th.CARD, cover)
        jitter = ctx.theme.px(3)
        for box in _strip(cover.inflate(-jitter * 2, -jitter * 2), count, 1.0, ctx.theme.px(6), "left"):
            box = box.move(rng.randint(-jitter, jitter), rng.randint(-jitter, jitter))
            draw_die(surface, box, rng.choice(FACES), ctx.theme)

    def _draw_lift(self, surface, ctx):
        if self._lift is None or not self._basket or self.card is not None:  # not over a result card
            return
        started, source_y = self._lift
        elapsed = ctx.now - started
        if not 0 <= elapsed < LIFT_S:
            self._lift = None
            return
        # the basket is drawn on its way up from where it was: its place in the new cloud is
        # left empty, and the basket itself (with the tokens aboard) drawn lower, easing in
        left = (1 - elapsed / LIFT_S) ** 2
        basket = self._basket[0].rect
        pygame.draw.rect(surface, th.CARD, basket)
        shift = round((source_y - basket.y) * left)
        for part in self._basket:
            part.rect.move_ip(0, shift)
            try:
                part.draw(surface, ctx)
            finally:
                part.rect.move_ip(0, -shift)

    # --- sounds --------------------------------------------------------------------------------
    def sounds_for(self, before, after, action):
        act = action.get("act")
        if after.view["over"] and not before.view["over"]:
            return ["won"]
        if act == "roll":
            return ["roll"]
        if act == "jump":
            return ["jump"]
        if act == "stay":
            return ["right"]
        if act == "rise":
            return ["top_cloud"] if after.view["trip"] > before.view["trip"] else ["rise"]
        if act == "fall":
            return ["fall"]
        return []


def demo_game() -> tuple[dict, list[dict]]:
    """A scripted game for `cloud-companion demo`. The first trip shows every kind of step (the
    rulebook's example roll, an all-blank roll, a wild card, jumps, a solo flight to the top
    cloud); then the game plays on with a fixed seed until someone has 50 and the balloon falls."""
    from ...rules import Match

    def roll(*dice):
        return {"act": "roll", "dice": list(dice)}

    def stay(name):
        return {"act": "stay", "player": name}

    def jump(name):
        return {"act": "jump", "player": name}

    def rise(*cards):
        return {"act": "rise", "cards": list(cards)}

    setup = {"game": "cloud9", "players": ["Anna", "Ben", "Cleo"], "first_pilot": "Anna"}
    actions = [
        roll("red", "blank"), stay("Ben"), stay("Cleo"), rise("red"),
        roll("yellow", "green"), stay("Cleo"), jump("Anna"), rise("green", "yellow"),
        roll("blank", "blank"), stay("Ben"), rise(),
        roll("red", "green", "green"), stay("Cleo"), rise(WILD),
        roll("yellow", "purple", "blank"), jump("Ben"), rise("purple", "yellow"),
        roll("green", "blank", "blank"), rise("green"),
        roll("red", "blank", "blank", "blank"), rise("red"),
        roll("purple", "yellow", "blank", "blank"), rise(WILD),
    ]
    match = Match.start(setup)
    for action in actions:
        match = match.apply(action)
    rng = random.Random(56)
    dared = False  # the pilot lets it fall once, high up, so that the demo shows a fall
    while not match.view["over"]:
        view = match.view
        if view["phase"] == "roll" and view["solo"] and view["cloud"] >= 5:
            action = jump(view["pilot"])
        elif view["phase"] == "roll":
            outcomes = match.rules.roll_outcomes(match.state)
            action = rng.choices(outcomes, weights=[o.probability for o in outcomes])[0].action
        elif view["phase"] == "decide":
            brave = view["cloud"] < rng.choice((5, 6, 7, 8))
            action = (stay if brave else jump)(view["to_decide"])
        else:
            legal = match.legal_actions()
            rises = [a for a in legal if a["act"] == "rise"]
            dares = not dared and {"act": "fall"} in legal and view["cloud"] >= 5
            dared = dared or dares
            action = rises[0] if rises and not dares else {"act": "fall"}
        match = match.apply(action)
        actions.append(action)
    return setup, actions
