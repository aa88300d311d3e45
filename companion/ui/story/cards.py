"""The story on a game screen: the result card of a big moment (it stays until the next action
or a tap) and the strip of recent events under the board. The moments come from
companion/ui/story/moments.py; this module only lays them out."""

from __future__ import annotations

from collections.abc import Callable

import pygame

from ...i18n import translator
from ..kit import theme as th
from ..kit.layout import GAP, Frame, cols, grid, inset, rows
from ..kit.shapes import draw_token
from ..kit.widgets import Button, Label, Painter, Panel, Picture, PlayerToken, Widget, wrap_lines
from .moments import Moment

_ = translator("story")

STRIP_H = 40  # design pixels: the strip of recent events under the board (a line of text)
RECENT = 3  # events in the strip at most (fewer where it is narrow)
COMPACT_H = 200  # below this height the card puts its headline beside its text

# the card's header band: the moment's colour (text on it is white or ink, whichever reads)
CARD_COLOURS = {
    "fall": th.DANGER,
    "top": (247, 190, 40),
    "settle": th.PRIMARY,
    "storm": (74, 78, 105),
    "hail": (98, 140, 190),
}


def split_board(f: Frame, board: pygame.Rect) -> tuple[pygame.Rect, pygame.Rect]:
    """The board without the strip, and the strip below it."""
    strip_h = f.u(STRIP_H)
    strip = pygame.Rect(board.x, board.bottom - strip_h, board.w, strip_h)
    return pygame.Rect(board.x, board.y, board.w, board.h - strip_h - f.u(GAP)), strip


def strip_widgets(f: Frame, rect: pygame.Rect, recent: list[Moment]) -> list[Widget]:
    """The last few events, oldest on the left, the newest in full ink."""
    out: list[Widget] = [Panel(rect, colour=th.SECONDARY, border=th.CARD_LINE, key="story-strip")]
    if not recent:
        return out + [
            Label(
                inset(rect, f.u(6)),
                _("The story of the game appears here"),
                "small",
                colour=th.INK_SOFT,
                key="story:none",
            )
        ]
    inner = pygame.Rect(rect.x + f.u(10), rect.y + f.u(2), rect.w - f.u(20), rect.h - f.u(4))
    # as many of the newest as fit whole in one line each (never a clipped one): a shorter strip
    # on purpose where the screen is narrow or the words are long
    for count in range(min(RECENT, len(recent)), 0, -1):
        shown = recent[-count:]
        cells = cols(inner, count, f.u(GAP))
        if count == 1 or all(fits(text_part(cell, m, f), m.headline, f) for cell, m in zip(cells, shown)):
            break
    for index, (cell, moment) in enumerate(zip(cells, shown)):
        newest = index == len(shown) - 1
        text = text_part(cell, moment, f)
        out.append(
            Label(
                text,
                moment.headline,
                "small",
                colour=th.INK if newest else th.INK_SOFT,
                wrap=count == 1,
                min_size="min",
                key=f"story:{index}",
            )
        )
        if moment.faces:  # what was rolled, as the dice show it
            out.append(
                Faces(
                    pygame.Rect(text.right + f.u(4), cell.y, cell.right - text.right - f.u(4), cell.h),
                    moment.faces,
                    key=f"story-faces:{index}",
                )
            )
    return out


def faces_width(moment: Moment, cell: pygame.Rect, f: Frame) -> int:
    """Room for a roll's dice at the right of its cell (at most half the cell)."""
    if not moment.faces:
        return 0
    side = cell.h - f.u(8)
    return min(cell.w // 2, len(moment.faces) * (side + f.u(3)) + f.u(4))


def text_part(cell: pygame.Rect, moment: Moment, f: Frame) -> pygame.Rect:
    dice = faces_width(moment, cell, f)
    return pygame.Rect(cell.x, cell.y, cell.w - dice, cell.h)


class Faces(Widget):
    """Small dice showing a roll's faces (each colour as its shape; blank is an empty die)."""

    def __init__(self, rect, faces, key: str | None = None):
        super().__init__(rect, key)
        self.faces = tuple(faces)

    def signature(self, ctx):
        return (type(self), tuple(self.rect), self.faces) if type(self).draw is Faces.draw else None

    def draw(self, surface, ctx):
        gap = ctx.theme.px(3)
        side = min(
            self.rect.h - ctx.theme.px(8), (self.rect.w - gap * (len(self.faces) - 1)) // max(1, len(self.faces))
        )
        x = self.rect.x
        for face in self.faces:
            box = pygame.Rect(x, self.rect.centery - side // 2, side, side)
            pygame.draw.rect(surface, th.CARD, box, border_radius=max(2, side // 5))
            pygame.draw.rect(surface, th.INK, box, max(1, ctx.theme.px(1.5)), border_radius=max(2, side // 5))
            if face in th.COLOURS:
                draw_token(surface, face, box.center, side * 0.34)
            x += side + gap


def fits(rect: pygame.Rect, text: str, f: Frame) -> bool:
    px = f.u(th.SIZES["min"])
    return th.font(px).size(text)[0] <= rect.w


def hyphenated(text: str, width: int, f: Frame, size: str) -> str:
    """`text` with each double name too wide for `width` even at the floor broken after its
    hyphen ("Christopher-" / "Benedict"), so that it wraps instead of running over."""
    face = th.font(f.u(th.SIZES["min"]), th.weight_of(size))
    out = []
    for word in text.split(" "):
        head, dash, tail = word.partition("-")
        out.append(f"{head}-\n{tail}" if dash and head and tail and face.size(word)[0] > width else word)
    return " ".join(out).replace("\n ", "\n")


# a low card's headline cell beside its words: 0.4 of the card, wider where the headline would
# take more than two lines ("Der Sturm zieht 2 Felder weiter" took four in German portrait)
HEAD_SHARES = ((1, 1.5), (1, 1), (1.5, 1))


def low_card(f: Frame, theme: th.Theme | None, box: pygame.Rect, headline: str, body: str, band_colour) -> list[Widget]:
    """The headline in its band beside its words: the narrowest share that sets the headline on
    at most two lines, no smaller than the words, while they keep the size they have at the
    first share; else the first share."""
    first: list[Widget] | None = None
    first_px = 0  # the words' size at the first share
    for weights in HEAD_SHARES:
        head, text = cols(box, list(weights), f.u(GAP))
        title = Label(
            inset(head, f.u(6)),
            hyphenated(headline, inset(head, f.u(6)).w, f, "title"),
            "title",
            colour=th.text_on(band_colour),
            wrap=True,
            key="story-headline",
        )
        words = Label(
            inset(text, f.u(4)), hyphenated(body, inset(text, f.u(4)).w, f, "body"), "body", wrap=True, key="story-text"
        )
        widgets: list[Widget] = [Panel(head, colour=band_colour, border=None, key="story-band"), title, words]
        if first is None:
            if theme is None or len(title.fitted(theme).lines) <= 2:
                return widgets
            first, first_px = widgets, words.fitted(theme).px
            continue
        assert theme is not None
        fitted, px = title.fitted(theme), words.fitted(theme).px
        if len(fitted.lines) <= 2 and fitted.px >= px == first_px:
            return widgets
    assert first is not None
    return first


def card_widgets(
    f: Frame,
    area: pygame.Rect,
    moment: Moment,
    colour_of: Callable[[str], str],
    dismiss: Callable[[], None],
    mark_of: Callable[[str], str] = lambda name: name,
    theme: th.Theme | None = None,
    picture: Painter | None = None,
) -> list[Widget]:
    """The result card over the board: what happened, in large type, and who got or lost what.
    `theme` fits a low card's headline (without it, its cell keeps the first share); `picture`
    draws what the words tell (a hail tile's hailstones) at their left, on a card tall enough."""
    box = inset(area, f.u(4))
    out: list[Widget] = [Button(box, "", dismiss, kind="choice", key="story-card")]
    band_colour = CARD_COLOURS.get(moment.kind, th.PRIMARY)
    if box.h < f.u(COMPACT_H):
        # a low band (Cloudship: above the beds that take the balls): headline beside the text
        body = moment.card_text or "; ".join(line for _who, line in moment.details)
        return out + low_card(f, theme, inset(box, f.u(4)), moment.headline, body, band_colour)
    details = moment.details
    n = len(details)
    columns = 2 if n > 3 and box.w > f.u(420) else 1
    detail_rows = -(-n // columns) if n else 0
    body = moment.card_text or moment.lead
    # a long sentence (six names) takes the room from the headline, in the lighter weight
    long_body = len(body) > 90 and not n
    # a detail that wraps to more than three lines at the floor (long names, a narrow card) gets
    # the height of its lines
    line_w = (box.w - f.u(16)) // columns - f.u(52)
    most = (
        max(
            (
                len(wrap_lines(hyphenated(line, line_w, f, "body"), f.u(th.SIZES["min"]), line_w, "regular"))
                for _who, line in details
            ),
            default=0,
        )
        if line_w > 0
        else 0
    )
    row_weight = 0.3 * most if most > 3 else 1.05 if most > 1 else 0.9
    weights = (
        [0.9 if long_body else 1.2]
        + ([2.6 if long_body else 1.6 if moment.card_text else 1.2 if columns > 1 else 1.5] if body else [])
        + ([min(row_weight * detail_rows, 3.4)] if n else [])
        + [0.45 if long_body or most > 1 else 0.55]
    )
    parts = rows(inset(box, f.u(4)), weights, f.u(GAP))
    head, hint = parts[0], parts[-1]
    out += [
        Panel(head, colour=band_colour, border=None, key="story-band"),
        Label(
            inset(head, f.u(8)),
            hyphenated(moment.headline, inset(head, f.u(8)).w, f, "prompt"),
            "prompt",
            colour=th.text_on(band_colour),
            wrap=True,
            key="story-headline",
        ),
    ]
    if body:
        words = inset(parts[1], f.u(8))
        if picture is not None:
            seen, words = cols(words, [1, 2], f.u(GAP))
            out.append(Picture(seen, picture, key="story-picture"))
        out.append(Label(words, body, "body" if long_body else "title", wrap=True, key="story-text"))
    if n:
        cells = grid(inset(parts[-2], f.u(4)), n, columns, f.u(4))
        for cell, (who, line) in zip(cells, details):
            text_rect = cell
            if who is not None:
                side = min(cell.h, f.u(44))
                token = pygame.Rect(cell.x, cell.centery - side // 2, side, side)
                out.append(PlayerToken(token, who, colour_of(who), key=f"story-token:{who}", mark=mark_of(who)))
                text_rect = pygame.Rect(token.right + f.u(8), cell.y, cell.right - token.right - f.u(8), cell.h)
            out.append(
                Label(
                    text_rect,
                    hyphenated(line, text_rect.w, f, "body"),
                    "body",
                    align="left",
                    wrap=True,
                    key="story-line",
                )
            )
    out.append(Label(hint, _("Tap to close"), "small", colour=th.INK_SOFT, key="story-hint"))
    return out
