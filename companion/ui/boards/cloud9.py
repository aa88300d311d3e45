"""Cloud 9, drawn like the printed board: the path of nine clouds from the ground up, each with
its number and the points for jumping out there, the balloon's basket on its cloud with the
passengers aboard as wooden pieces, and the moments that move them (the basket rising, falling
with its passengers tumbling out, a piece jumping out to its player's score).

Pure drawing: functions and widgets of the contract's view, a rect and a time. The still parts
are drawn once per size and blitted (`_cloud_image`, `_pawn_image`); a moment draws only what
moves, over them.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

import pygame

from ...rules.cloud9 import DICE, POINTS, TOP_CLOUD, TOP_POINTS
from ..kit import theme as th
from ..kit.caches import pictures
from ..kit.layout import Frame, inset, rows
from ..kit.shapes import draw_shape, draw_token
from ..kit.widgets import Label, PlayerToken, Widget, fit_text

BASKET = (222, 178, 112)  # wicker, behind the pieces aboard
BASKET_DARK = (150, 104, 52)  # its weave and rim
CLOUD = (255, 255, 255)
CLOUD_LINE = (58, 96, 150)  # the cloud's edge, darker than the sky behind it
PASSED_CLOUD = (230, 237, 246)  # clouds below the basket: already flown past
# the path's own sky, deeper than the screen's so that white clouds stand out from it
# (white on its palest blue is still 3:1; on the screen's sky it was 1.3:1 low down)
PATH_SKY_TOP = (34, 84, 150)
PATH_SKY_BOTTOM = (70, 130, 196)
HERE_GLOW = (255, 214, 120)  # a warm halo round the basket's cloud
SKY_MARGIN = 4  # px (at 800x480) of sky round the path: no cloud or number touches the panel's edge
ROPE_ON_SKY = (240, 230, 210)  # the balloon's ropes, pale against the deep sky
SHEEN = (255, 236, 196)  # the light on the envelope's crown
TOP_CLOUD_FILL = (255, 242, 196)
NUMBER_DISC = (40, 70, 120)  # the cloud's number, white on dark blue as on the board
PATH_LINE = (255, 255, 255)
GOLD = (247, 190, 40)
GORES = (th.COLOURS["red"].rgb, th.COLOURS["yellow"].rgb)  # the envelope's stripes, outside in

RISE_S = 0.45  # a rise: the basket floats up from the cloud it left
FALL_S = 0.8  # a fall: the basket drops, its passengers tumble out
JUMP_S = 0.6  # a jump: the piece leaves the basket for its player's score


# --- the pieces ------------------------------------------------------------------------------


def _own_draw(widget: Widget, cls: type[Widget]) -> bool:
    """The widget draws as `cls` does (a subclass drawing otherwise says its own signature)."""
    return type(widget).draw is cls.draw


def pawn_polygon(rect: pygame.Rect) -> list[tuple[float, float]]:
    """A wooden piece's body: a bell from the shoulders to a wide foot."""
    x, y, w, h = rect.x, rect.y, rect.w, rect.h
    top = y + h * 0.36
    return [
        (x + w * 0.30, top),
        (x + w * 0.70, top),
        (x + w * 0.86, y + h * 0.80),
        (x + w * 0.97, y + h * 0.90),
        (x + w * 0.97, y + h),
        (x + w * 0.03, y + h),
        (x + w * 0.03, y + h * 0.90),
        (x + w * 0.14, y + h * 0.80),
    ]


def mark_px(rect: pygame.Rect, mark: str) -> int:
    """The size of the letters on a piece's body: as large as its body holds."""
    body_h = rect.h * 0.64
    return max(8, round(min(body_h * 0.78, rect.w * (0.78 if len(mark) == 1 else 0.58))))


def draw_pawn(surface: pygame.Surface, rect: pygame.Rect, colour: str, mark: str, theme: th.Theme) -> None:
    """A wooden piece in the player's colour: its head is the colour's shape (colour-blind
    safe: black a hexagon, orange a pentagon...), its body carries the player's letters."""
    game = th.COLOURS[colour] if colour in th.COLOURS else th.COLOURS["white"]
    line = max(1, round(rect.h / 22))
    body = pawn_polygon(rect)
    pygame.draw.polygon(surface, game.rgb, body)
    pygame.draw.polygon(surface, th.INK, body, line + 1)
    head_r = min(rect.w * 0.27, rect.h * 0.19)
    draw_shape(surface, game.shape, (rect.centerx, rect.y + head_r * 1.05), head_r, game.rgb, th.INK)
    px = mark_px(rect, mark)
    image = theme.text(mark, px, th.text_on(game.rgb))
    centre = (rect.centerx, rect.y + rect.h * 0.68)
    surface.blit(image, image.get_rect(center=centre))


@pictures(256 << 10, 64)
def _pawn_image(w: int, h: int, colour: str, mark: str, scale: float) -> pygame.Surface:
    image = pygame.Surface((w, h), pygame.SRCALPHA)
    draw_pawn(image, pygame.Rect(0, 0, w, h), colour, mark, th.Theme(scale))
    return image


def pawn_image(rect: pygame.Rect, colour: str, mark: str, theme: th.Theme) -> pygame.Surface:
    """The piece drawn once per size and kept (the basket, the scores and the moments blit it)."""
    return _pawn_image(rect.w, rect.h, colour, mark, theme.scale)


class Pawn(PlayerToken):
    """A player's wooden piece (a token for the fit checks: its name counts as shown)."""

    def signature(self, ctx):
        return (type(self), tuple(self.rect), self.name, self.colour, self.mark) if _own_draw(self, Pawn) else None

    def draw(self, surface, ctx):
        surface.blit(pawn_image(self.rect, self.colour, self.mark or self.name, ctx.theme), self.rect)


def pawn_box(slot: pygame.Rect) -> pygame.Rect:
    """A piece standing in a square-ish slot: a little taller than wide."""
    h = slot.h
    w = min(slot.w, round(h * 0.82))
    return pygame.Rect(slot.centerx - w // 2, slot.bottom - h, w, h)


# --- clouds ----------------------------------------------------------------------------------


def cloud_parts(rect: pygame.Rect) -> tuple[pygame.Rect, list[pygame.Rect]]:
    """A cloud in `rect`: a flat-bottomed pill along the lower part and a few broad round
    mounds of several heights on its top (ellipses: a long, low cloud still has the outline of
    a few big puffs rather than a wavy strip), the highest reaching the rect's top."""
    h = rect.h
    base = pygame.Rect(rect.x, rect.y + round(h * 0.45), rect.w, h - round(h * 0.45))
    centre_y = base.y + h * 0.12  # the mounds stand on the pill's top
    highest = centre_y - rect.y
    count = max(2, min(4, round(rect.w / (h * 2.6))))
    heights = (0.78, 1.0, 0.86, 0.95)
    span = (rect.w - base.h) / count  # inside the pill's round ends
    mounds = []
    for i in range(count):
        rx, ry = span * 0.54, highest * heights[i % len(heights)]
        cx = rect.x + base.h / 2 + span * (i + 0.5)
        mounds.append(pygame.Rect(round(cx - rx), round(centre_y - ry), round(2 * rx), round(2 * ry)))
    return base, mounds


def draw_cloud(surface: pygame.Surface, rect: pygame.Rect, fill, line, width: int, glow=None) -> None:
    """A cloud in `rect` with an outline `width` wide outside it (and a halo as wide again
    outside that in `glow`, if given: the basket's cloud)."""
    base, mounds = cloud_parts(rect)
    # the outline first, a little larger, then the fill over it: one outline round the union
    rings = ((glow, 2 * width), (line, width)) if glow else ((line, width),)
    for colour, grow in rings:
        pygame.draw.rect(surface, colour, base.inflate(grow * 2, grow * 2), border_radius=base.h // 2 + grow)
        for mound in mounds:
            pygame.draw.ellipse(surface, colour, mound.inflate(grow * 2, grow * 2))
    pygame.draw.rect(surface, fill, base, border_radius=base.h // 2)
    for mound in mounds:
        pygame.draw.ellipse(surface, fill, mound)
    # a shaded underside gives the cloud its body (kept low, under the words)
    high = max(2, base.h // 4)
    shade = pygame.Rect(base.x + base.h // 3, base.bottom - high - base.h // 10, base.w - 2 * (base.h // 3), high)
    under = tuple(round(c * 0.93) for c in fill)
    pygame.draw.rect(surface, under, shade, border_radius=shade.h // 2)


@pictures(768 << 10, 32)
def _cloud_image(w: int, h: int, fill, line, width: int, glow=None) -> pygame.Surface:
    """The cloud with its outline (and halo) inside `w` x `h` (nothing drawn outside its rect)."""
    image = pygame.Surface((w, h), pygame.SRCALPHA)
    edge = 2 * width if glow else width
    draw_cloud(image, pygame.Rect(edge, edge, w - 2 * edge, h - 2 * edge), fill, line, width, glow)
    return image


@pictures(2 << 20, 8)
def _path_sky(w: int, h: int, radius: int) -> pygame.Surface:
    """The path's sky: a rounded panel in a deep gradient, drawn once per size and kept."""
    image = pygame.Surface((w, h), pygame.SRCALPHA)
    band = pygame.Surface((w, h))
    for y in range(h):
        t = y / max(1, h - 1)
        colour = [round(a + (b - a) * t) for a, b in zip(PATH_SKY_TOP, PATH_SKY_BOTTOM)]
        pygame.draw.line(band, colour, (0, y), (w - 1, y))
    mask = pygame.Surface((w, h), pygame.SRCALPHA)
    pygame.draw.rect(mask, (255, 255, 255, 255), (0, 0, w, h), border_radius=radius)
    image.blit(band, (0, 0))
    image.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)
    return image


class PathSky(Widget):
    """The sky the path climbs through, behind the clouds (a bare mark for the layout's
    "ladder" as well: the result cards keep it in sight)."""

    paints = False  # a background: the clouds and their marks are read over it

    def signature(self, ctx):
        return (type(self), tuple(self.rect)) if _own_draw(self, PathSky) else None

    def draw(self, surface, ctx):
        surface.blit(_path_sky(self.rect.w, self.rect.h, ctx.theme.px(14)), self.rect)


class Cloud(Widget):
    """One cloud of the path, drawn as a cloud."""

    paints = True

    def __init__(self, rect, fill=CLOUD, line=CLOUD_LINE, key: str | None = None, body_h: int | None = None):
        super().__init__(rect, key)
        self.fill, self.line = fill, line
        self.body_h = body_h  # drawn along the bottom this high (the balloon's cloud), else all of it

    def signature(self, ctx):
        if not _own_draw(self, Cloud):
            return None
        return (type(self), tuple(self.rect), self.fill, self.line, self.body_h)

    def draw(self, surface, ctx):
        marked = self.line != CLOUD_LINE  # the basket's cloud: a thick edge in a warm halo
        width = max(2, ctx.theme.px(4 if marked else 2))
        h = min(self.rect.h, self.body_h or self.rect.h)
        image = _cloud_image(self.rect.w, h, self.fill, self.line, width, HERE_GLOW if marked else None)
        surface.blit(image, (self.rect.x, self.rect.bottom - h))


class PathLine(Widget):
    """The dotted way up from cloud to cloud, behind them."""

    def __init__(self, points: list[tuple[int, int]], key: str | None = None):
        xs, ys = [p[0] for p in points], [p[1] for p in points]
        super().__init__(pygame.Rect(min(xs), min(ys), max(xs) - min(xs) + 1, max(ys) - min(ys) + 1), key)
        self.points = points

    def signature(self, ctx):
        return (type(self), tuple(map(tuple, self.points))) if _own_draw(self, PathLine) else None

    def draw(self, surface, ctx):
        r = max(2, ctx.theme.px(3))
        step = ctx.theme.px(11)
        for (x0, y0), (x1, y1) in zip(self.points, self.points[1:]):
            length = math.hypot(x1 - x0, y1 - y0)
            for i in range(int(length // step) + 1):
                t = i * step / length if length else 0
                pygame.draw.circle(surface, PATH_LINE, (x0 + (x1 - x0) * t, y0 + (y1 - y0) * t), r)


class Disc(Widget):
    """The cloud's number sits in a dark disc, as printed on the board."""

    paints = True

    def __init__(self, rect, fill=NUMBER_DISC, key: str | None = None):
        super().__init__(rect, key)
        self.fill = fill

    def signature(self, ctx):
        return (type(self), tuple(self.rect), self.fill) if _own_draw(self, Disc) else None

    def draw(self, surface, ctx):
        pygame.draw.circle(surface, self.fill, self.rect.center, min(self.rect.w, self.rect.h) / 2)


class Cubes(Widget):
    """How many dice the pilot rolls on this cloud: small cubes (never read as a roll)."""

    def __init__(self, rect, count: int, align: str = "right", key: str | None = None):
        super().__init__(rect, key)
        self.count, self.align = count, align
        self.faces = [None] * count

    def signature(self, ctx):
        return (type(self), tuple(self.rect), self.count, self.align) if _own_draw(self, Cubes) else None

    def side(self, theme: th.Theme) -> int:
        """Each cube's size: as large as the row holds."""
        gap = theme.px(3)
        return int(min(self.rect.h, (self.rect.w - gap * (self.count - 1)) / max(1, self.count)))

    def draw(self, surface, ctx):
        gap = ctx.theme.px(3)
        side = self.side(ctx.theme)
        total = self.count * side + gap * (self.count - 1)
        x = self.rect.right - total if self.align == "right" else self.rect.x
        for i in range(self.count):
            box = pygame.Rect(x + i * (side + gap), self.rect.centery - side // 2, side, side)
            surface.blit(_cube(side, side, max(1, ctx.theme.px(1.2))), box)


@pictures(64 << 10, 16)
def _cube(width: int, height: int, line: int) -> pygame.Surface:
    """A small die seen from above and aside: front, top and side faces in greys."""
    image = pygame.Surface((width, height), pygame.SRCALPHA)
    d = width * 0.28
    x, y, w, h = 0, d, width - d - 1, height - d - 1
    front = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
    top = [(x, y), (x + d, y - d), (x + w + d, y - d), (x + w, y)]
    side = [(x + w, y), (x + w + d, y - d), (x + w + d, y + h - d), (x + w, y + h)]
    for face, fill in ((front, th.CARD), (top, (226, 232, 240)), (side, (196, 204, 216))):
        pygame.draw.polygon(image, fill, face)
        pygame.draw.polygon(image, th.INK, face, line)
    return image


class Star(Widget):
    """Cloud 9, the top: a gold star."""

    def signature(self, ctx):
        return (type(self), tuple(self.rect)) if _own_draw(self, Star) else None

    def draw(self, surface, ctx):
        draw_shape(surface, "star", self.rect.center, min(self.rect.w, self.rect.h) / 2 * 0.88, GOLD)


def draw_basket(surface: pygame.Surface, rect: pygame.Rect, scale: float) -> None:
    """The balloon's wicker basket: a woven body under a rim (`scale`: pixels per design px)."""
    line = max(1, round(1.5 * scale))
    rim_h = max(3, rect.h // 9)
    body = pygame.Rect(rect.x, rect.y + rim_h // 2, rect.w, rect.h - rim_h // 2)
    pygame.draw.rect(surface, BASKET, body, border_radius=max(3, rect.h // 10))
    step = max(4, round(7 * scale))
    for y in range(body.y + step, body.bottom - 2, step):
        pygame.draw.line(surface, BASKET_DARK, (body.x + line, y), (body.right - line - 1, y), max(1, line // 2 + 1))
    pygame.draw.rect(surface, BASKET_DARK, body, line + 1, border_radius=max(3, rect.h // 10))
    pygame.draw.rect(surface, BASKET_DARK, (rect.x - line, rect.y, rect.w + 2 * line, rim_h), border_radius=rim_h // 2)


def envelope_points(rect: pygame.Rect, squeeze: float = 1.0) -> list[tuple[float, float]]:
    """A hot-air balloon's envelope in `rect`: a round crown tapering to a narrow mouth
    (`squeeze` narrows it about its middle: the stripes of its gores)."""
    cx, rx, ry = rect.centerx, rect.w / 2 * squeeze, rect.h * 0.42
    cy = rect.y + ry
    crown = [(cx + rx * math.cos(math.radians(a)), cy - ry * math.sin(math.radians(a))) for a in range(-40, 221, 10)]
    mouth = rect.w * 0.13 * squeeze
    return [*crown, (cx - mouth, rect.bottom), (cx + mouth, rect.bottom)]


def balloon_parts(
    rect: pygame.Rect, envelope_share: float = 0.5, basket_w: float = 1.0
) -> tuple[pygame.Rect, pygame.Rect]:
    """Where a balloon drawn in `rect` has its envelope (on top) and its basket (at the
    bottom, `basket_w` of the width), with room for the ropes between them. The envelope's
    size follows the width, so a taller balloon has the taller basket (two rows of pieces)."""
    env_h = min(round(rect.h * envelope_share), round(rect.w * 0.42 / basket_w))
    ropes = max(2, round(env_h * 0.1))
    env_w = min(rect.w, round(env_h * 1.2))
    envelope = pygame.Rect(rect.centerx - env_w // 2, rect.y, env_w, env_h)
    w = round(rect.w * basket_w)
    basket = pygame.Rect(rect.centerx - w // 2, envelope.bottom + ropes, w, rect.bottom - envelope.bottom - ropes)
    return envelope, basket


def draw_balloon(
    surface: pygame.Surface,
    rect: pygame.Rect,
    scale: float,
    envelope_share: float = 0.5,
    basket_w: float = 1.0,
    rope=th.INK,
) -> pygame.Rect:
    """A hot-air balloon in `rect`: a striped envelope, its ropes and the wicker basket (the
    board's, Home's and the help's are this one drawing). Returns where the basket is."""
    envelope, basket = balloon_parts(rect, envelope_share, basket_w)
    line = max(1, round(1.5 * scale))
    edge = envelope_points(envelope)
    for side in (0, -1):  # the ropes, from the envelope's widest low sides to the basket's rim
        corner = basket.x + line if side == 0 else basket.right - line - 1
        pygame.draw.line(surface, rope, edge[side], (corner, basket.y), line + 1)
    for squeeze, colour in zip((1.0, 0.64, 0.28), (*GORES, GORES[0])):
        pygame.draw.polygon(surface, colour, envelope_points(envelope, squeeze))
    # a sheen high on the crown: the envelope reads as round, not as a flat badge
    sheen = pygame.Rect(0, 0, max(2, round(envelope.w * 0.14)), max(3, round(envelope.h * 0.26)))
    sheen.center = (round(envelope.x + envelope.w * 0.27), round(envelope.y + envelope.h * 0.27))
    pygame.draw.ellipse(surface, SHEEN, sheen)
    pygame.draw.polygon(surface, th.INK, edge, line + 1)
    mouth = pygame.Rect(0, 0, round(envelope.w * 0.3), max(2, round(envelope.h * 0.07)))
    mouth.midtop = (envelope.centerx, envelope.bottom - 1)
    pygame.draw.rect(surface, BASKET_DARK, mouth, border_radius=max(1, mouth.h // 3))
    draw_basket(surface, basket, scale)
    return basket


class Basket(Widget):
    """The balloon on its cloud: the envelope above, the basket the pieces stand in below."""

    paints = True

    def signature(self, ctx):
        return (type(self), tuple(self.rect)) if _own_draw(self, Basket) else None

    def draw(self, surface, ctx):
        draw_balloon(surface, self.rect, ctx.theme.scale, rope=ROPE_ON_SKY)


@pictures(512 << 10, 16)
def balloon_icon(side: int) -> pygame.Surface:
    """Cloud 9's picture: the board's balloon standing on a cloud (Home, the help), drawn once
    per size."""
    image = pygame.Surface((side, side), pygame.SRCALPHA)
    scale = side / 160
    cloud = pygame.Rect(round(side * 0.08), round(side * 0.70), round(side * 0.84), round(side * 0.26))
    line = max(2, round(2 * scale))
    draw_cloud(image, cloud, CLOUD, CLOUD_LINE, line)
    balloon = pygame.Rect(round(side * 0.16), round(side * 0.02), round(side * 0.68), round(side * 0.80))
    draw_balloon(image, balloon, scale, envelope_share=0.72, basket_w=0.36)
    return image


# --- the board laid out ------------------------------------------------------------------------


def basket_slots(rect: pygame.Rect, count: int, gap: int) -> list[pygame.Rect]:
    """Places for `count` pieces standing in the basket: in one row, or in two (three to a
    row at six) when that makes them larger."""
    if count <= 0:
        return []
    best: list[pygame.Rect] = []
    for lines in (1, 2):
        per = -(-count // lines)
        h = min((rect.h - gap * (lines - 1)) / lines, (rect.w - gap * (per - 1)) / per / 0.82)
        w = h * 0.82
        slots = []
        for index in range(count):
            line, at = divmod(index, per)
            in_line = min(per, count - line * per)
            x = rect.centerx - (in_line * w + (in_line - 1) * gap) / 2 + at * (w + gap)
            y = rect.centery - (lines * h + (lines - 1) * gap) / 2 + line * (h + gap)
            slots.append(pygame.Rect(int(x), int(y), int(w), int(h)))
        if not best or slots[0].h > best[0].h:
            best = slots
    return best


def path_rects(area: pygame.Rect, basket_cloud: int | None, gap: int, weight: float) -> dict[int, pygame.Rect]:
    """Where each cloud is: a winding path from cloud 1 at the bottom to cloud 9 at the top,
    the basket's cloud the whole width and tall enough for the balloon standing on it."""
    clouds = list(range(TOP_CLOUD, 0, -1))
    heights = rows(area, [weight if c == basket_cloud else 1 for c in clouds], gap)
    out = {}
    for cloud, row in zip(clouds, heights):
        if cloud == basket_cloud:
            out[cloud] = row
            continue
        # the path winds left and right, each cloud still most of the width (its dice large)
        w = round(area.w * 0.92)
        x = area.x if cloud % 2 else area.right - w
        out[cloud] = pygame.Rect(x, row.y, w, row.h)
    return out


def balloon_weight(portrait: bool, aboard: int) -> float:
    """How many clouds' height the basket's cloud takes: the balloon's envelope above, the
    basket below it with the pieces (six stand in two rows)."""
    if aboard > 3:
        return 7.2 if portrait else 7.8
    return 5.8 if portrait else 5.6


def path_widgets(
    f: Frame, area: pygame.Rect, view, colour_of: Callable[[str], str], mark_of: Callable[[str], str]
) -> tuple[list[Widget], list[Widget]]:
    """The path (still: drawn into the board's picture) and the balloon on it (the balloon,
    the pieces aboard, the pilot's mark: moved by the moments)."""
    over = view["over"]
    here = None if over else view["cloud"]
    aboard = [] if over else list(view["basket"])
    # the clouds inside the sky's rounded panel, clear of its edges (the lowest one sat on them)
    inside = area.inflate(-2 * f.u(SKY_MARGIN), -2 * f.u(SKY_MARGIN))
    rects = path_rects(inside, here, f.u(3), balloon_weight(f.portrait, len(aboard)) if here else 1)
    still: list[Widget] = [
        PathSky(area, key="ladder"),
        PathLine([rects[c].center for c in range(1, TOP_CLOUD + 1)], key="path-line"),
    ]
    balloon: list[Widget] = []
    cloud_h = min(rects[c].h for c in rects if c != here)
    for cloud in range(TOP_CLOUD, 0, -1):
        rect = rects[cloud]
        passed = here is not None and cloud < here
        if cloud == here:
            parts, balloon = basket_cloud(f, rect, cloud_h, view, aboard, colour_of, mark_of)
            still += parts
        else:
            still += cloud_widgets(f, rect, cloud, passed)
    return still, balloon


def cloud_marks(f: Frame, rect: pygame.Rect, cloud: int, passed: bool, here: bool = False) -> list[Widget]:
    """What a cloud shows, left to right: its number in a disc, the points for jumping out
    there, the dice the pilot rolls there (the top cloud: a star)."""
    top = cloud == TOP_CLOUD
    pad = round(rect.w * 0.04)
    # the number's disc as tall as the cloud allows (its digit at least the smallest type)
    side = min(rect.h - f.u(2), f.u(30))
    disc = pygame.Rect(rect.x + pad, rect.centery - side // 2, side, side)
    points_w = f.u(34)  # two digits of the points, as large as the cloud holds
    points = pygame.Rect(disc.right + f.u(5), rect.y, points_w, rect.h)
    extra = pygame.Rect(points.right + f.u(4), rect.y, rect.right - pad - points.right - f.u(4), rect.h)
    out: list[Widget] = [
        Disc(disc, key=f"cloud-number:{cloud}"),
        Label(disc, str(cloud), "min", colour=(255, 255, 255), key=f"cloud-no:{cloud}"),
        Label(
            points,
            str(TOP_POINTS if top else POINTS[cloud]),
            34,
            align="left",
            colour=th.INK,  # as readable on a cloud flown past
            key="points-here" if here else f"points:{cloud}",
        ),
    ]
    if top:
        side = min(extra.h, extra.w)
        out.append(Star(pygame.Rect(extra.right - side, extra.centery - side // 2, side, side), key="top-cloud"))
    else:
        # the dice as large as the cloud holds, yet never larger than its number
        high = min(extra.h - max(2, extra.h // 8), f.u(22))
        dice = pygame.Rect(extra.x, extra.centery - high // 2, extra.w, high)
        out.append(Cubes(dice, DICE[cloud], key="dice-here" if here else f"dice:{cloud}"))
    return out


def cloud_widgets(f: Frame, rect: pygame.Rect, cloud: int, passed: bool) -> list[Widget]:
    """A cloud of the path with its marks."""
    fill = TOP_CLOUD_FILL if cloud == TOP_CLOUD else PASSED_CLOUD if passed else CLOUD
    return [Cloud(rect, fill, key=f"cloud:{cloud}"), *cloud_marks(f, rect, cloud, passed)]


def basket_cloud(
    f: Frame, rect: pygame.Rect, cloud_h: int, view, aboard: list[str], colour_of, mark_of
) -> tuple[list[Widget], list[Widget]]:
    """The basket's cloud: a cloud like the others along the bottom of its place, marked in
    the focus colour, and the balloon standing on it with the pieces in its basket."""
    cloud = view["cloud"]
    body_h = max(cloud_h, f.u(28))
    body = pygame.Rect(rect.x, rect.bottom - body_h, rect.w, body_h)
    fill = TOP_CLOUD_FILL if cloud == TOP_CLOUD else CLOUD
    out: list[Widget] = [Cloud(rect, fill, th.FOCUS, key="basket-cloud", body_h=body_h)]
    out += cloud_marks(f, body.inflate(0, -f.u(2)), cloud, False, here=True)
    # the balloon stands on the cloud's puffs, wide enough for three pieces a row
    # (no wider than its height allows: a wider envelope would take the pieces' room)
    width = min(round(rect.w * 0.70), f.u(150), round((body.y - rect.y) * 0.85))
    place = pygame.Rect(rect.centerx - width // 2, rect.y, width, body.y - rect.y)
    balloon: list[Widget] = [Basket(place, key="basket")]
    _, basket = balloon_parts(place)
    gap = f.u(4)
    for name, slot in zip(aboard, basket_slots(inset(basket, f.u(4)), len(aboard), gap)):
        box = pawn_box(slot)
        if name == view["pilot"]:  # the pilot's piece stands on a white plate
            balloon.append(PilotMark(box.inflate(f.u(4), f.u(2)), key="pilot-mark"))
        balloon.append(Pawn(box, name, colour_of(name), key=f"aboard:{name}", mark=mark_of(name)))
    return out, balloon


class PilotMark(Widget):
    paints = True

    def signature(self, ctx):
        return (type(self), tuple(self.rect)) if _own_draw(self, PilotMark) else None

    def draw(self, surface, ctx):
        pygame.draw.rect(surface, th.CARD, self.rect, border_radius=ctx.theme.px(6))
        pygame.draw.rect(surface, th.INK, self.rect, max(1, ctx.theme.px(2)), border_radius=ctx.theme.px(6))


# --- the moments -------------------------------------------------------------------------------


def ease_out(t: float) -> float:
    return 1 - (1 - t) ** 2


def progress(now: float, started: float, seconds: float) -> float | None:
    """How far a moment is (0..1), None once it is over."""
    t = (now - started) / seconds
    return t if 0 <= t < 1 else None


class Moment:
    """A moment being drawn: what moved, from where, since when. `draw` paints one frame."""

    seconds = 0.5

    def __init__(self, started: float):
        self.started = started

    def t(self, now: float) -> float | None:
        return progress(now, self.started, self.seconds)

    def hides_balloon(self) -> bool:
        return True


class Rise(Moment):
    """The basket (with everyone aboard) floats up from the cloud it left to its new cloud."""

    seconds = RISE_S

    def __init__(self, started: float, from_y: int):
        super().__init__(started)
        self.from_y = from_y  # where the basket's top was, on the cloud it left

    def hides_balloon(self) -> bool:
        return False

    def offset(self, now: float, to_y: int) -> int:
        """How far below its new place the basket is drawn now."""
        t = self.t(now)
        return 0 if t is None else round((self.from_y - to_y) * (1 - ease_out(t)))


class Fall(Moment):
    """The basket drops from its cloud out of the bottom of the path; its passengers tumble
    out, turning, and the pilot who let it fall is named above where it was."""

    seconds = FALL_S

    def __init__(
        self,
        started: float,
        area: pygame.Rect,
        basket: pygame.Rect,
        pieces: list[tuple[pygame.Rect, str, str]],
        caption: list[pygame.Surface],
        seed: int = 9,
    ):
        super().__init__(started)
        self.area, self.basket, self.pieces, self.caption = area, basket, pieces, caption
        rng = random.Random(seed)
        # each piece: its push sideways and up, and its spin
        self.throws = [
            (rng.uniform(-1, 1), rng.uniform(0.6, 1.2), rng.choice((-1, 1)) * rng.uniform(200, 420)) for _ in pieces
        ]

    def draw(self, surface: pygame.Surface, theme: th.Theme, now: float) -> None:
        t = self.t(now)
        if t is None:
            return
        clip = surface.get_clip()
        surface.set_clip(self.area)
        drop = (self.area.bottom - self.basket.y + self.basket.h) * t * t
        draw_balloon(surface, self.basket.move(0, round(drop)), theme.scale, rope=ROPE_ON_SKY)
        height = self.area.h
        for (rect, colour, mark), (side, up, spin) in zip(self.pieces, self.throws):
            dx = side * rect.w * 2.2 * t
            dy = -up * rect.h * 1.6 * t + height * 1.3 * t * t
            image = pygame.transform.rotate(pawn_image(rect, colour, mark, theme), spin * t)
            surface.blit(image, image.get_rect(center=(rect.centerx + dx, rect.centery + dy)))
        surface.set_clip(clip)
        # the pilot's name, where the basket was, for the whole moment
        pad = theme.px(6)
        high = sum(image.get_height() for image in self.caption)
        wide = max(image.get_width() for image in self.caption)
        plate = pygame.Rect(0, 0, wide + 2 * pad, high + pad)
        plate.midbottom = (self.basket.centerx, self.basket.y)
        plate.clamp_ip(self.area)
        pygame.draw.rect(surface, th.DANGER, plate, border_radius=theme.px(8))
        y = plate.y + pad // 2
        for image in self.caption:
            surface.blit(image, image.get_rect(midtop=(plate.centerx, y)))
            y += image.get_height()


class Jump(Moment):
    """A piece leaves the basket in an arc and lands on its player's row of the scores."""

    seconds = JUMP_S

    def __init__(self, started: float, start: pygame.Rect, colour: str, mark: str, name: str):
        super().__init__(started)
        self.start, self.colour, self.mark, self.name = start, colour, mark, name
        self.end = start  # the piece's place on the scores, once the screen has laid them out

    def hides_balloon(self) -> bool:
        return False

    def where(self, now: float) -> pygame.Rect | None:
        t = self.t(now)
        if t is None:
            return None
        e = ease_out(t)
        w = round(self.start.w + (self.end.w - self.start.w) * e)
        h = round(self.start.h + (self.end.h - self.start.h) * e)
        x = self.start.centerx + (self.end.centerx - self.start.centerx) * e
        y = (
            self.start.centery
            + (self.end.centery - self.start.centery) * e
            - math.sin(math.pi * t) * self.start.h * 1.2
        )
        return pygame.Rect(round(x - w / 2), round(y - h / 2), w, h)

    def draw(self, surface: pygame.Surface, theme: th.Theme, now: float) -> None:
        box = self.where(now)
        if box is not None:
            surface.blit(pawn_image(box, self.colour, self.mark, theme), box)


def caption_lines(text: str, width: int, theme: th.Theme) -> list[pygame.Surface]:
    """A moment's words in white, as large as fit `width` (wrapped if need be), drawn once."""
    fit = fit_text(text, width, theme.px(120), theme.size("body"), theme.size("min"), True)
    return [theme.text(line, fit.px, (255, 255, 255)) for line in fit.lines]


def hand_icon(surface: pygame.Surface, box: pygame.Rect, theme: th.Theme) -> None:
    """A hand of cards: two card backs fanned out (reads as "cards", not as a digit)."""
    w, h = box.w * 0.62, box.h * 0.86
    line = max(1, theme.px(1.5))
    for angle, dx in ((14, box.w * 0.16), (-10, -box.w * 0.12)):
        cx, cy = box.centerx + dx, box.centery
        turn = math.radians(angle)
        corners = [
            (cx + x * math.cos(turn) - y * math.sin(turn), cy + x * math.sin(turn) + y * math.cos(turn))
            for x, y in ((-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2))
        ]
        pygame.draw.polygon(surface, th.PRIMARY, corners)
        pygame.draw.polygon(surface, th.INK, corners, line)


# --- the symbols on the main buttons -----------------------------------------------------------


def jump_icon(surface: pygame.Surface, rect: pygame.Rect, colour) -> None:
    """Jump out: an arrow leaving the basket, up and away."""
    w = max(2, rect.w // 10)
    x, y, s = rect.x, rect.y, rect.w
    pygame.draw.lines(
        surface,
        colour,
        False,
        [
            (x + s * 0.06, y + s * 0.55),
            (x + s * 0.14, y + s * 0.92),
            (x + s * 0.58, y + s * 0.92),
            (x + s * 0.66, y + s * 0.55),
        ],
        w,
    )
    start, tip = (x + s * 0.36, y + s * 0.72), (x + s * 0.90, y + s * 0.14)
    pygame.draw.line(surface, colour, start, (x + s * 0.80, y + s * 0.25), max(3, rect.w // 8))
    pygame.draw.polygon(surface, colour, [tip, (x + s * 0.56, y + s * 0.20), (x + s * 0.86, y + s * 0.48)])


def stay_icon(surface: pygame.Surface, rect: pygame.Rect, colour) -> None:
    """Stay in: a piece inside the basket."""
    w = max(2, rect.w // 10)
    x, y, s = rect.x, rect.y, rect.w
    pygame.draw.circle(surface, colour, (x + s * 0.5, y + s * 0.26), s * 0.13)
    pygame.draw.polygon(
        surface,
        colour,
        [
            (x + s * 0.38, y + s * 0.40),
            (x + s * 0.62, y + s * 0.40),
            (x + s * 0.70, y + s * 0.70),
            (x + s * 0.30, y + s * 0.70),
        ],
    )
    pygame.draw.lines(
        surface,
        colour,
        False,
        [
            (x + s * 0.12, y + s * 0.55),
            (x + s * 0.2, y + s * 0.92),
            (x + s * 0.8, y + s * 0.92),
            (x + s * 0.88, y + s * 0.55),
        ],
        w,
    )


def fall_icon(surface: pygame.Surface, rect: pygame.Rect, colour) -> None:
    w = max(3, rect.w // 8)
    cx = rect.centerx
    pygame.draw.line(surface, colour, (cx, rect.y + rect.h * 0.15), (cx, rect.y + rect.h * 0.7), w)
    pygame.draw.polygon(
        surface,
        colour,
        [
            (cx - rect.w * 0.3, rect.y + rect.h * 0.58),
            (cx + rect.w * 0.3, rect.y + rect.h * 0.58),
            (cx, rect.y + rect.h * 0.9),
        ],
    )


def draw_die(surface: pygame.Surface, box: pygame.Rect, face: str | None, theme: th.Theme) -> None:
    """A white die showing `face` as its colour's shape; blank shows nothing; None is a cube
    with no face up (the path's "dice rolled here": never read as a roll of one)."""
    if face is None:
        surface.blit(_cube(box.w, box.h, max(1, theme.px(1.5))), box)
        return
    radius = max(2, box.w // 5)
    pygame.draw.rect(surface, th.CARD, box, border_radius=radius)
    pygame.draw.rect(surface, th.INK, box, max(1, theme.px(2) if box.w > theme.px(24) else 1), border_radius=radius)
    if face != "blank":
        draw_token(surface, face, box.center, box.w * 0.32)
