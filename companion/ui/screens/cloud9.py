"""Cloud 9: the board's path of nine clouds with the basket and the pieces aboard (drawn by
boards/cloud9.py), the scoreboard toward 50 with hand sizes, and the step: enter the roll,
each passenger's jump or stay, then the pilot's rise (which cards) or fall (docs/reference/screens.md, "Game
screens"). This module lays them out and takes the input; the moments (a rise, a fall, a
jump) are started here and drawn by the board.

The roll is entered in several taps (one per die), so the faces tapped so far are kept on the
screen object, for the current state only: any change of the game (an action, an undo) starts
the entry afresh. The same holds for a solo pilot's "stay in", which is no action of its own
(staying is rolling, replay contract) but opens the roll entry.
"""

from __future__ import annotations

import random
from typing import Any, NamedTuple

import pygame

from ...i18n import translator
from ...rules.cloud9 import FACES, WILD, WINNING_SCORE
from ..boards import cloud9 as board, risk_meter
from ..boards.cloud9 import Pawn, draw_die
from ..kit import theme as th
from ..kit.layout import GAP, cols, inset, rows
from ..kit.names import NameLabel, fit_name, shared_px
from ..kit.shapes import draw_token
from ..kit.siblings import one_size
from ..kit.widgets import Button, Label, Panel, Widget, chevron_left
from ..story.moments import colour_word
from .base import GameScreen

_ = translator("cloud9")

TUMBLE_S = 0.3  # the app's own roll: the dice tumble this long before they settle
LIFT_S = board.RISE_S  # a rise: the basket floats up from the cloud it left
FALL_S = board.FALL_S  # a fall: the basket drops, its passengers tumble out
JUMP_S = board.JUMP_S  # a jump: the piece flies from the basket to its player's score

# --- drawing dice and cards (the dice themselves are the board's: boards/cloud9.py) -----------


def draw_hand(surface: pygame.Surface, box: pygame.Rect, theme: th.Theme) -> None:
    board.hand_icon(surface, box, theme)


def draw_card(surface: pygame.Surface, box: pygame.Rect, card: str, theme: th.Theme) -> None:
    """A balloon card: white with its colour's shape (wild: the rainbow)."""
    pygame.draw.rect(surface, th.CARD, box, border_radius=max(2, box.w // 6))
    pygame.draw.rect(surface, th.INK, box, max(1, theme.px(1.5)), border_radius=max(2, box.w // 6))
    draw_token(surface, card, box.center, box.w * 0.36)


def _signatures(widgets: list[Widget], ctx) -> tuple | None:
    """The children's signatures, None where one has none (a bare Widget, a mark for the
    layout, draws nothing and says nothing)."""
    out = []
    for widget in widgets:
        if type(widget) is Widget:
            continue
        signature = widget.signature(ctx)
        if signature is None:
            return None
        out.append(signature)
    return tuple(out)


def _button_signature(button: Button, ctx, *drawn) -> tuple | None:
    """A button's signature (as Button.signature says it) and what else its subclass draws."""
    if button.icon is not None:
        return None
    return (
        type(button),
        tuple(button.rect),
        button.text,
        button.kind,
        button._enabled,
        button.selected,
        button.label.size,
        button.label.wrap,
        ctx.pressed is button,
        ctx.focused is button,
    ) + drawn


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

    def signature(self, ctx):
        children = _signatures(self.children, ctx)
        return None if children is None else (type(self), tuple(self.rect), children)

    def pieces(self, ctx):
        # its children within its box (a bare Widget, a mark for the layout, draws nothing)
        if type(self).draw is not Snapshot.draw:
            return None
        return [(child, self.rect) for child in self.children if type(child) is not Widget]

    def draw(self, surface, ctx):
        if self._image is not None:
            surface.blit(self._image, self.rect)
            return
        clip = surface.get_clip()
        surface.set_clip(self.rect.clip(clip))  # what the picture keeps is all that is drawn
        for child in self.children:
            child.draw(surface, ctx)
        surface.set_clip(clip)
        if surface.get_rect().contains(self.rect):  # not where it was drawn only for its caches
            self._image = surface.subsurface(self.rect).copy()


class DiceRow(Widget):
    """Dice side by side (faces, or None for plain dice)."""

    def __init__(self, rect, faces: list[str | None], align: str = "center", key: str | None = None):
        super().__init__(rect, key)
        self.faces, self.align = list(faces), align

    def signature(self, ctx):
        return (
            (type(self), tuple(self.rect), tuple(self.faces), self.align) if type(self).draw is DiceRow.draw else None
        )

    def draw(self, surface, ctx):
        for box, face in zip(_strip(self.rect, len(self.faces), 1.0, ctx.theme.px(6), self.align), self.faces):
            draw_die(surface, box, face, ctx.theme)


class RowPlan(NamedTuple):
    """Where a score row's parts go (`Cloud9Screen.row_plan`)."""

    pawn: pygame.Rect
    name: pygame.Rect
    role: pygame.Rect
    hand: pygame.Rect  # the cards sign and the count
    points: pygame.Rect
    large_points: bool  # a row with room for a larger score


class Hand(Widget):
    """The cards-in-hand sign next to a hand size."""

    paints = True  # the fit checks see a name that runs into it

    def signature(self, ctx):
        return (type(self), tuple(self.rect)) if type(self).draw is Hand.draw else None

    def draw(self, surface, ctx):
        draw_hand(surface, self.rect, ctx.theme)


class Bar(Widget):
    """Points toward 50, behind the player's row: the row fills in a pale shade of the player's
    colour up to their score, edged below in the colour itself, so that it never takes room
    from the words (six players, long names) and yellow and white still show."""

    paints = False  # a background: the words on it are meant to be read over it

    def __init__(self, rect, value: int, total: int, colour: tuple[int, int, int], key: str | None = None):
        super().__init__(rect, key)
        self.value, self.total, self.colour = value, total, colour

    def signature(self, ctx):
        return (
            (type(self), tuple(self.rect), self.value, self.total, self.colour) if type(self).draw is Bar.draw else None
        )

    @property
    def filled(self) -> pygame.Rect:
        share = max(0.0, min(1.0, self.value / self.total))
        return pygame.Rect(self.rect.x, self.rect.y, round(self.rect.w * share), self.rect.h)

    def draw(self, surface, ctx):
        filled = self.filled
        if filled.w <= 0:
            return
        pale = tuple(round(c + (255 - c) * 0.8) for c in self.colour)
        pygame.draw.rect(surface, pale, filled)
        edge = max(2, ctx.theme.px(4))
        pygame.draw.rect(surface, self.colour, (filled.x, filled.bottom - edge, filled.w, edge))
        pygame.draw.rect(surface, th.INK, (filled.x, filled.bottom - edge, filled.w, edge), 1)


class Balloon(Widget):
    """The basket on its cloud with the pieces aboard, drawn over the board's picture: a moment
    moves it (a rise) or hides it (a fall) without redrawing the board."""

    def __init__(self, rect, children: list[Widget], screen, key: str | None = None):
        super().__init__(rect, key)
        self.children, self.screen = children, screen

    def signature(self, ctx):
        if type(self).draw is not Balloon.draw:
            return None
        in_place = self.screen.balloon_in_place(ctx.now)
        children = _signatures(self.children, ctx) if in_place else ()
        return None if children is None else (type(self), tuple(self.rect), in_place, children)

    def pieces(self, ctx):
        if type(self).draw is not Balloon.draw:
            return None
        in_place = self.screen.balloon_in_place(ctx.now)
        return [(child, None) for child in self.children if type(child) is not Widget] if in_place else []

    def draw(self, surface, ctx):
        # in its place, or (while a moment hides it or floats it up) not here: draw_above
        # draws a rising balloon, so that the frame below it stays the same all the while
        if self.screen.balloon_in_place(ctx.now):
            draw_shifted(surface, ctx, self.children, 0)


def draw_shifted(surface: pygame.Surface, ctx, parts: list[Widget], shift: int) -> None:
    for part in parts:
        part.rect.move_ip(0, shift)
        try:
            part.draw(surface, ctx)
        finally:
            part.rect.move_ip(0, -shift)


class FaceButton(Button):
    """A die face to tap while entering the roll."""

    def __init__(self, rect, face: str, on_tap, enabled: bool = True, key: str | None = None):
        self.face = face
        super().__init__(rect, "", on_tap, kind="choice", enabled=enabled, key=key)

    def signature(self, ctx):
        return _button_signature(self, ctx, self.face) if type(self).draw is FaceButton.draw else None

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

    def signature(self, ctx):
        return _button_signature(self, ctx, tuple(self.cards)) if type(self).draw is CardsButton.draw else None

    def _cards_rect(self) -> pygame.Rect:
        h = round(self.rect.h * 0.7)
        # four cards at most 45% of the button: the word beside them needs the rest in German and Hungarian
        w = min(round(self.rect.w * 0.45), round(len(self.cards) * (h * 0.72 + 6)))
        return pygame.Rect(self.rect.right - w - 10, self.rect.centery - h // 2, w, h)

    def _label_rect(self) -> pygame.Rect:
        if not self.cards:
            return super()._label_rect()
        cards = self._cards_rect()
        # the words clear of the edges by a share of the button, as on every button
        side = min(self.rect.h, self.rect.w)
        pad_x, pad_y = max(8, side // 8), max(3, side // 14)
        return pygame.Rect(
            self.rect.x + pad_x, self.rect.y + pad_y, cards.x - self.rect.x - pad_x - 6, self.rect.h - 2 * pad_y
        )

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
        self._draft_for: Any = None  # the match the roll entry belongs to
        self._draft_dice: list[str] = []
        self._solo_stays = False
        self._dice_rect: pygame.Rect | None = None  # where the roll is shown (for the tumble)
        self._tumble: tuple[float, int] | None = None
        self._basket: list[Widget] = []  # the basket and the tokens aboard, as last laid out
        self._ladder: pygame.Rect | None = None  # the path of clouds, as last laid out
        self._ladder_only = False  # a result card placed clear of the ladder alone
        self._tokens: dict[str, pygame.Rect] = {}  # each player's piece on the scores
        self._moment: board.Moment | None = None  # the moment being drawn (a rise, a fall, a jump)
        self._drawn_at: float | None = None  # a stand-in: the time its frame shows (the press's)

    def subtitle(self) -> str:
        return _("Trip {number}").format(number=self.view["trip"])

    def card_keeps_clear(self, moment):
        # a fall or a trip to the top is about the balloon and the scores: its card leaves the
        # ladder and every score in sight (the ladder alone where the scores leave no room)
        if moment.kind not in ("fall", "top"):
            return ()
        if self._ladder_only:
            return ("ladder",)
        return ("ladder", *(f"score:{name}" for name in self.view["players"]))

    def card_area(self, f, board_rect, below, moment):
        area = super().card_area(f, board_rect, below, moment)
        if self._ladder is not None and area.colliderect(self._ladder) and self.card_keeps_clear(moment):
            self._ladder_only = True
            try:
                area = super().card_area(f, board_rect, below, moment)
            finally:
                self._ladder_only = False
        return area

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
        # in the rules' one spelling (the dice in face order), as the journal keeps it
        return self.match.canonical({"act": "roll", "dice": list(self._draft())})

    def roll_for_me(self) -> None:
        """The app rolls: a roll drawn with its true probability, the same again after an undo
        (the controller's rule: undo is not a re-roll)."""
        action = self.controller.app_roll()
        if action is None:
            return
        if self.submit(action):
            self._tumble = (self.app.now(), self.rng.randrange(1 << 16))
            self.app.animate(TUMBLE_S)

    def on_game_change(self, before, after, action):
        super().on_game_change(before, after, action)
        moment = self.moment_for(before, after, action, self.app.now())
        if moment is not None:
            self._moment = moment
            self.app.animate(moment.seconds)

    def moment_for(self, before, after, action, now: float) -> board.Moment | None:
        """The moment an action starts on the balloon as it stands now (a rise, a fall, a jump)."""
        act = action.get("act")
        was = {w.key: w for w in self._basket}  # the balloon as it stood before the action
        basket = was.get("basket")
        if basket is None or self._ladder is None:
            return None
        if act == "rise" and after.view["trip"] == before.view["trip"]:
            return board.Rise(now, basket.rect.y)
        if act == "fall":
            pieces = [(w.rect.copy(), w.colour, w.mark or w.name) for w in self._basket if isinstance(w, Pawn)]
            theme = self.app.theme
            caption = board.caption_lines(
                _("{name} let it fall").format(name=before.view["pilot"]), self._ladder.w - theme.px(12), theme
            )
            return board.Fall(now, self._ladder.copy(), basket.rect.copy(), pieces, caption)
        if act == "jump":
            name = action.get("player")
            piece = was.get(f"aboard:{name}")
            if isinstance(piece, Pawn):  # the jumper's piece in the basket (boards/cloud9.balloon)
                return board.Jump(now, piece.rect.copy(), piece.colour, piece.mark or name, name)
        return None

    # --- drawing ahead: what the next press most likely submits ------------------------------
    def rehearsal_actions(self):
        # a passenger's seat press (jump or stay), a solo pilot's jump (a roll cannot be
        # foreseen), the pilot's rise or fall on the screen (three at most)
        v = self.view
        phase = v["phase"]
        if phase == "decide":
            who = v["to_decide"]
            return [{"act": "jump", "player": who}, {"act": "stay", "player": who}]
        if phase == "roll" and v["solo"]:
            return [{"act": "jump", "player": v["pilot"]}]
        if phase == "resolve":
            return [a for a in self.match.legal_actions() if a["act"] in ("rise", "fall")]
        return []

    def stand_in(self, after, action):
        # the moment the press starts, as on_game_change starts it, and the stand-in drawn at
        # its first frame: the balloon hidden by a fall or floating up, as the press shows it
        now = self.app.now()
        moment = self.moment_for(self.match, after, action, now)
        twin = super().stand_in(after, action)
        if moment is not None:
            twin._moment = moment
        twin._drawn_at = now
        return twin

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
        area, step = self.board_and_step(f, 0.44 if f.portrait else 0.38)
        ladder, scores = cols(area, [1.0, 1.15] if f.portrait else [1.1, 1.75], f.u(GAP if f.portrait else GAP * 2))
        self._dice_rect, self._ladder = None, ladder
        still, self._basket = board.path_widgets(f, ladder, v, lambda name: self.player(name).colour, self.mark)
        self._tokens = {}
        board_widgets = still + self.scoreboard(f, scores, v)
        widgets = [
            Snapshot(area, board_widgets, key="board"),
            Balloon(ladder, self._basket, self, key="balloon"),
        ] + self.step_panel(f, step, v)
        widgets = self.under_the_banner(t, widgets)
        # the two rises side by side in portrait, of two widths: one size all the same
        one_size([w for w in widgets if isinstance(w, CardsButton)], t)
        return widgets

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

    @staticmethod
    def roles() -> tuple[str, ...]:
        """Every role a score row may show, in the language now (the room the rows keep)."""
        return (_("Winner"), _("Solo pilot"), _("Pilot"), _("Decides now"), _("Aboard"), _("Jumped out"))

    def acting(self, v) -> str | None:
        """Whose move it is: the passenger deciding, else the pilot."""
        if v["over"]:
            return None
        return v["to_decide"] or v["pilot"]

    def scoreboard(self, f, area: pygame.Rect, v) -> list[Widget]:
        names = v["players"]
        gap = f.u(6)
        piles = _("Draw pile: {pile} · discards: {discards}").format(pile=v["draw_pile"], discards=v["discards"])
        # the piles' line, on two where one is too wide at the smallest type (portrait, German)
        one_line = th.font(self.app.theme.size("min"), th.weight_of("small")).size(piles)[0] <= area.w
        deck_h = f.u(26 if one_line else 50)
        cap = f.u(120 if f.portrait else 100)

        def row_height(room: int) -> int:
            return min(cap, (room - gap * (len(names) - 1)) // len(names))

        # the piles are worth a line only when the players' rows keep room enough
        show_deck = row_height(area.h - deck_h - gap) >= f.u(64)
        row_h = row_height(area.h - deck_h - gap if show_deck else area.h)
        row_rects = [pygame.Rect(area.x, area.y + i * (row_h + gap), area.w, row_h) for i in range(len(names))]
        # the names at one size, as on the Players screen (on two lines where a tall row has
        # room): beside the piece where they all fit there, else (a narrow scoreboard: portrait,
        # long names) across the whole row, the piece going down to the role and the score
        theme = self.app.theme
        weight = th.weight_of("body")
        body, floor = theme.size("body"), theme.size("min")

        role_face = th.font(floor, th.weight_of("small"))
        role_w = max(role_face.size(role)[0] for role in self.roles())

        def fitting(plans: dict[str, RowPlan]) -> tuple[int, bool]:
            """The names' one size in these rows, and whether the names and every role fit."""
            boxes = {n: plan.name for n, plan in plans.items()}
            px = shared_px(
                {n: box.w for n, box in boxes.items()}, body, floor, min(b.h for b in boxes.values()), weight
            )
            names_fit = not any(fit_name(n, px, px, box.w, box.h, weight).overflow for n, box in boxes.items())
            return px, names_fit and all(plan.role.w >= role_w for plan in plans.values())

        plans = {name: self.row_plan(f, row, beside=True) for name, row in zip(names, row_rects)}
        px, fits = fitting(plans)
        if not fits:
            plans = {name: self.row_plan(f, row, beside=False) for name, row in zip(names, row_rects)}
            px, _fits = fitting(plans)
        out: list[Widget] = []
        for name, row in zip(names, row_rects):
            out += self.score_row(f, row, name, v, plans[name], px / theme.scale)
        if show_deck:
            deck = pygame.Rect(area.x, area.y + len(names) * (row_h + gap), area.w, deck_h)
            out.append(Label(deck, piles, "small", colour=th.INK, wrap=not one_line, key="deck"))
        return out

    @staticmethod
    def row_plan(f, row: pygame.Rect, beside: bool) -> RowPlan:
        """Where a score row's parts go: the piece beside both lines (`beside`), or the name
        across the whole top line and the piece at the start of the lower one."""
        inner = pygame.Rect(row.x + f.u(14), row.y + f.u(3), row.w - f.u(20), row.h - f.u(8))
        # the name has the whole top line (long names); role, hand and score share the lower one
        # (a tall row gives it the more room, for a larger score)
        tall = row.h >= f.u(72)
        if beside:
            pawn_h = min(inner.h, f.u(46))
            pawn = pygame.Rect(inner.x, inner.centery - pawn_h // 2, round(pawn_h * 0.82), pawn_h)
            rest = pygame.Rect(pawn.right + f.u(8), inner.y, inner.right - pawn.right - f.u(8), inner.h)
            name_rect, lower = rows(rest, [1, 1.25] if tall else [1.1, 1])
        else:
            name_rect, lower = rows(inner, [1, 1.25] if tall else [1.1, 1])
            pawn_h = min(lower.h + f.u(4), f.u(28))
            pawn = pygame.Rect(lower.x, lower.bottom - pawn_h, round(pawn_h * 0.82), pawn_h)
            lower = pygame.Rect(pawn.right + f.u(3), lower.y, lower.right - pawn.right - f.u(3), lower.h)
        large = tall and beside  # across, the role needs the room of a larger score
        points_w = f.u(58 if large and lower.w >= f.u(280) else 40 if beside else 30)
        points = pygame.Rect(lower.right - points_w, lower.y - f.u(2), points_w, lower.h + f.u(4))
        lower = pygame.Rect(lower.x, lower.y, lower.w - points_w, lower.h)
        # the cards sign and room for a two-digit count at the smallest type (hands grow past
        # nine over a long game), leaving the role its room
        hand_w = f.u(47 if beside else 38)
        hand = pygame.Rect(lower.right - hand_w - f.u(4), lower.y, hand_w, lower.h)
        role = pygame.Rect(lower.x, lower.y, hand.x - lower.x - f.u(3), lower.h)
        return RowPlan(pawn, name_rect, role, hand, points, large)

    def score_row(self, f, row: pygame.Rect, name: str, v, plan: RowPlan, name_size: float) -> list[Widget]:
        player = self.player(name)
        rgb = th.COLOURS[player.colour].rgb
        acting = name == self.acting(v)
        aboard = name in v["basket"] or v["over"]
        out: list[Widget] = [Panel(row, stripe=rgb, highlight=th.FOCUS if acting else None, key=f"player:{name}")]
        edge = f.u(4) if acting else f.u(2)  # inside the frame (the acting player's is thicker)
        fill = pygame.Rect(row.x + f.u(10), row.y + edge, row.w - f.u(10) - edge, row.h - 2 * edge)
        # points toward 50: the row itself fills up (never left out, however short the row)
        out.append(Bar(fill, v["scores"][name], WINNING_SCORE, rgb, key=f"bar:{name}"))
        pawn, name_rect, role_rect, hand, points, large = plan
        self._tokens[name] = pawn
        card_h = min(hand.h - f.u(2), f.u(20), hand.w - f.u(24))  # the count keeps two digits' room
        card = pygame.Rect(hand.x, hand.centery - card_h // 2, card_h, card_h)
        out += [
            Pawn(pawn, name, player.colour, key=f"token:{name}", mark=self.mark(name)),
            NameLabel(
                name_rect,
                name,
                name_size,
                align="left",
                colour=th.INK if aboard else th.INK_SOFT,
                key=f"name:{name}",
                weight=th.weight_of("body"),
                shorten=True,
            ),
            Label(
                role_rect,
                self.role(name, v),
                "small",
                align="left",
                colour=th.PRIMARY if acting else th.INK_SOFT,
                key=f"role:{name}",
            ),
            Hand(card),
            Label(
                pygame.Rect(card.right + f.u(2), hand.y, hand.right - card.right - f.u(2), hand.h),
                str(v["hands"][name]),
                "body",
                align="left",
                key=f"hand:{name}",
            ),
            Label(points, str(v["scores"][name]), "big" if large else 26, align="right", key=f"score:{name}"),
        ]
        return out

    # --- the step: what happens now ----------------------------------------------------------
    def step_panel(self, f, step: pygame.Rect, v) -> list[Widget]:
        out: list[Widget] = [Panel(step, key="step")]
        inner = inset(step, f.u(10))
        phase = v["phase"]
        if phase == "over":
            winners = ", ".join(v["winners"])
            return out + [
                Label(inner, _("Game over: {names} won").format(names=winners), "prompt", wrap=True, key="prompt")
            ]
        self._draft()  # forget a roll entry begun in an earlier state
        if phase == "roll" and v["solo"] and not self._solo_stays:
            return out + self.solo_choice(f, inner, v)
        if phase == "roll":
            return out + self.roll_entry(f, inner, v)
        if phase == "decide":
            return out + self.decision(f, inner, v)
        return out + self.rise_or_fall(f, inner, v)

    def prompt_piece(self, piece: pygame.Rect, name: str) -> Widget:
        # the player's own piece, as it stands in the basket
        piece = pygame.Rect(piece.centerx - round(piece.h * 0.41), piece.y, round(piece.h * 0.82), piece.h)
        return Pawn(piece, name, self.player(name).colour, key=f"prompt-piece:{name}", mark=self.mark(name))

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
        return [
            dice,
            Hand(card, key="pilot-hand-sign"),
            Label(
                pygame.Rect(card.right + f.u(4), hand_rect.y, hand_rect.right - card.right - f.u(4), hand_rect.h),
                str(v["hands"][pilot]),
                "body",
                align="left",
                key="pilot-hand",
            ),
        ]

    def solo_choice(self, f, inner: pygame.Rect, v) -> list[Widget]:
        pilot = v["pilot"]
        prompt, note, jump, stay = rows(inner, [1.5, 0.7, 1.15, 1.15], f.u(GAP))
        return self.prompt_card(f, prompt, pilot, _("{name} flies solo: jump or stay?").format(name=pilot)) + [
            Label(
                note,
                _("Jump out now: +{points} points").format(points=v["points_here"]),
                "small",
                wrap=True,
                key="note",
            ),
            self.action_button(
                jump, _("Jump out"), {"act": "jump", "player": pilot}, key="jump", size="title", icon=board.jump_icon
            ),
            Button(
                stay, _("Stay in and roll"), self.stay_solo, kind="good", key="stay", size="title", icon=board.stay_icon
            ),
        ]

    def roll_entry(self, f, inner: pygame.Rect, v) -> list[Widget]:
        pilot, count, solo = v["pilot"], v["dice_here"], v["solo"]
        dice = self._draft()
        wide = inner.w >= f.u(5 * 64)  # portrait: one row of faces, the hint beside the slots
        columns = 5 if wide else 3
        face_rows = -(-len(FACES) // columns)
        weights = [1.6, 0.9] + ([] if wide else [1 if solo else 0.5]) + [1] * face_rows + [1.3]
        parts = rows(inner, weights, f.u(GAP))
        prompt, slots, faces, buttons = parts[0], parts[1], parts[-1 - face_rows : -1], parts[-1]
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
                out += [
                    Panel(box, colour=th.SECONDARY, border=th.INK_SOFT, radius=10, key=f"slot:{i}"),
                    Label(box, "?", "title", colour=th.INK_SOFT),
                ]
        if solo:
            # a solo pilot who tapped "stay in" by mistake goes back to the choice
            back = pygame.Rect(hint.x, hint.y, hint.h, hint.h)
            out.append(
                Button(back, "", lambda: self.stay_solo(False), kind="secondary", icon=chevron_left, key="solo-back")
            )
            hint = pygame.Rect(back.right + f.u(GAP), hint.y, hint.right - back.right - f.u(GAP), hint.h)
        hint_text = _("Tap each die's face") if len(dice) < count else _("Tap a die to take it back")
        out.append(Label(hint, hint_text, "small", colour=th.INK_SOFT, wrap=True, key="hint"))
        full = len(dice) >= count
        cells = [c for row in faces for c in cols(row, columns, f.u(GAP))]
        for face, cell in zip(FACES, cells):
            out.append(
                FaceButton(cell, face, lambda face=face: self.add_face(face), enabled=not full, key=f"face:{face}")
            )
        app_roll, done = cols(buttons, [1, 1], f.u(GAP))
        out += [
            Button(app_roll, _("Roll for me"), self.roll_for_me, kind="secondary", key="app-roll", size="small"),
            self.action_button(done, _("Done"), self.roll_action(), key="done", size="small"),
        ]
        return out

    def decision(self, f, inner: pygame.Rect, v) -> list[Widget]:
        who = v["to_decide"]
        later = v["decide_order"][1:]
        meter = risk_meter.shown(self.app)  # the risk meter takes a row of its own when on
        # the question is the biggest thing on the screen; the answers at least 64 px high
        if f.portrait:  # the answers side by side: the roll gets the height
            weights = [1.6, 1.15, 0.6, 1.9, 0.55] if meter else [1.7, 1.35, 1.95, 0.55]
        else:
            weights = [2.6, 0.7, 0.85, 2.9, 0.42] if meter else [2.7, 0.9, 2.9, 0.42]
        parts = rows(inner, weights, f.u(GAP if f.portrait else 6))
        prompt, roll, choices, after = parts[:2] + parts[-2:]
        jump = {"act": "jump", "player": who}
        stay = {"act": "stay", "player": who}
        out = self.prompt_card(f, prompt, who, _("{name}: jump or stay?").format(name=who))
        answer_px = "title" if f.portrait else 26  # the answers never outgrow the question
        out += self.roll_line(f, roll, v)
        out += risk_meter.widgets(parts[2], self.match, f) if meter else []
        jump_rect, stay_rect = rows(choices, 2, f.u(GAP)) if not f.portrait else cols(choices, 2, f.u(GAP))
        out += [
            self.action_button(
                jump_rect,
                _("Jump out: +{points}").format(points=v["points_here"]),
                jump,
                key="jump",
                size=answer_px,
                icon=board.jump_icon,
            ),
            self.action_button(
                stay_rect, _("Stay in"), stay, kind="good", key="stay", size=answer_px, icon=board.stay_icon
            ),
        ]
        if later:  # who decides after: their tokens, as names would not fit six players
            word = pygame.Rect(after.x, after.y, min(after.w // 3, f.u(80)), after.h)
            out.append(Label(word, _("Then:"), "min", colour=th.INK_SOFT, align="right", key="then"))
            tokens = pygame.Rect(word.right + f.u(6), after.y, after.right - word.right - f.u(6), after.h)
            for name, box in zip(later, _strip(tokens, len(later), 0.82, f.u(6), "left")):
                out.append(Pawn(box, name, self.player(name).colour, key=f"then:{name}", mark=self.mark(name)))
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
        return out + [
            self.rise_button(with_colours, spend, needed, key="rise", shown=in_dice_order),
            self.rise_button(with_wild, _("Rise, play the wild card"), [WILD], key="rise-wild"),
            self.action_button(
                fall, _("Fall"), {"act": "fall"}, kind="danger", key="fall", size="title", icon=board.fall_icon
            ),
        ]

    def rise_button(
        self, rect: pygame.Rect, text: str, cards: list[str], key: str = "rise", shown: list[str] | None = None
    ) -> Button:
        return self.action_button(
            rect,
            text,
            self.match.canonical({"act": "rise", "cards": list(cards)}),  # as the rules list it
            widget=CardsButton,
            cards=cards if shown is None else shown,
            kind="good",
            key=key,
            size="title",
        )

    # --- short transitions: the app's roll tumbles, a rising basket glides up ----------------
    def draw_above(self, surface, ctx):
        self._draw_tumble(surface, ctx)
        self._draw_rising(surface, ctx)
        self._draw_moment(surface, ctx)

    def draw_first_above(self, surface, ctx) -> bool:
        # a fall and a jump start from where the balloon and the piece were (kept in the
        # moment); a rise moves the rebuilt basket, and the dice tumble in the rebuilt tray
        if self._tumble is not None or isinstance(self._moment, board.Rise):
            return False
        self._draw_moment(surface, ctx)
        return True

    def _draw_rising(self, surface, ctx):
        moment = self._moment
        if isinstance(moment, board.Rise) and moment.t(ctx.now) is not None and self._basket:
            draw_shifted(surface, ctx, self._basket, moment.offset(ctx.now, self._basket[0].rect.y))

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

    def _draw_moment(self, surface, ctx):
        moment = self._moment
        if moment is None:
            return
        if moment.t(ctx.now) is None:
            self._moment = None
            return
        if isinstance(moment, board.Fall):
            moment.draw(surface, ctx.theme, ctx.now)
        elif isinstance(moment, board.Jump):
            moment.end = self._tokens.get(moment.name, moment.start)
            moment.draw(surface, ctx.theme, ctx.now)

    def balloon_offset(self, now: float, to_y: int) -> int | None:
        """Where the balloon is drawn now: None while a fall hides it, else how far below its
        place (a rise floats it up from the cloud it left)."""
        moment = self._moment
        if moment is None or moment.t(now) is None:
            return 0
        if moment.hides_balloon():
            return None
        return moment.offset(now, to_y) if isinstance(moment, board.Rise) else 0

    def balloon_in_place(self, now: float) -> bool:
        """The balloon stands on its cloud now: no fall hides it, no rise floats it up (a
        stand-in answers for the first frame of its press)."""
        if self._drawn_at is not None:
            now = self._drawn_at
        moment = self._moment
        return moment is None or moment.t(now) is None or not (moment.hides_balloon() or isinstance(moment, board.Rise))

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
        roll("red", "blank"),
        stay("Ben"),
        stay("Cleo"),
        rise("red"),
        roll("yellow", "green"),
        stay("Cleo"),
        jump("Anna"),
        rise("green", "yellow"),
        roll("blank", "blank"),
        stay("Ben"),
        rise(),
        roll("red", "green", "green"),
        stay("Cleo"),
        rise(WILD),
        roll("yellow", "purple", "blank"),
        jump("Ben"),
        rise("purple", "yellow"),
        roll("green", "blank", "blank"),
        rise("green"),
        roll("red", "blank", "blank", "blank"),
        rise("red"),
        roll("purple", "yellow", "blank", "blank"),
        rise(WILD),
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
