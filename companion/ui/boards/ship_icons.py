"""The Cloudship pictures: flower, raindrop, hailstone, the engine room's tiles and the game
colours' tokens, each drawn once per size and cached, then blitted (the screen, the practice
flight, the ship's falling balls and the end screen all draw them)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import pygame

from ..kit import theme as th
from ..kit.caches import pictures
from ..kit.shapes import draw_token
from ..kit.widgets import Picture

PETAL = (236, 96, 146)
HEART = (250, 204, 21)
RAIN = th.COLOURS["blue"].rgb
ICE = (120, 150, 190)
HAIL_ALERT = (178, 34, 52)
HAIL_TILE = (255, 226, 226)
TILE_DOWN = (150, 162, 180)
TILE_BLANK = (236, 240, 245)
PIPE = (168, 180, 196)
SOIL = (233, 221, 204)
HULL = (176, 122, 74)
SKY_SQUARE = (226, 238, 250)
PASSED_SQUARE = (120, 128, 150)
STORM_SQUARE = th.COLOURS["storm"].rgb


def _flower(surface: pygame.Surface, r: float, c: tuple[float, float]) -> None:
    petals = [
        (c[0] + r * 0.5 * math.cos(math.radians(-90 + i * 72)), c[1] + r * 0.5 * math.sin(math.radians(-90 + i * 72)))
        for i in range(5)
    ]
    line = max(1.5, r / 9)
    for p in petals:  # the ink first, a little larger: one clean outline round the whole flower
        pygame.draw.circle(surface, th.INK, p, r * 0.45 + line)
    for p in petals:
        pygame.draw.circle(surface, PETAL, p, r * 0.45)
    pygame.draw.circle(surface, th.INK, c, r * 0.3 + line)
    pygame.draw.circle(surface, HEART, c, r * 0.3)


def _raindrop(surface: pygame.Surface, r: float, c: tuple[float, float]) -> None:
    """A teardrop (its shape tells it from the round hailstone without colour)."""
    centre = (c[0], c[1] + r * 0.28)
    radius, apex = r * 0.62, (c[0], c[1] - r * 0.95)
    reach = apex[1] - centre[1]
    half = math.acos(radius / abs(reach))
    points = [apex]
    for step in range(25):  # the round bottom from one tangent point to the other
        a = -math.pi / 2 + half + step * (2 * math.pi - 2 * half) / 24
        points.append((centre[0] + radius * math.cos(a), centre[1] + radius * math.sin(a)))
    pygame.draw.polygon(surface, RAIN, points)
    pygame.draw.polygon(surface, th.INK, points, max(2, round(r / 8)))
    pygame.draw.circle(surface, (210, 230, 250), (centre[0] - radius * 0.35, centre[1] - radius * 0.2), radius * 0.2)


def _hailstone(surface: pygame.Surface, r: float, c: tuple[float, float]) -> None:
    """A white ball with an ice crystal on it."""
    radius = r * 0.8
    pygame.draw.circle(surface, (255, 255, 255), c, radius)
    pygame.draw.circle(surface, th.INK, c, radius, max(2, round(r / 8)))
    width = max(2, round(r / 7))
    for i in range(3):
        a = math.radians(90 + i * 60)
        dx, dy = radius * 0.6 * math.cos(a), radius * 0.6 * math.sin(a)
        pygame.draw.line(surface, ICE, (c[0] - dx, c[1] - dy), (c[0] + dx, c[1] + dy), width)


def _tile(face: str) -> Callable[[pygame.Surface, float, tuple[float, float]], None]:
    def paint(surface, r, c):
        box = pygame.Rect(0, 0, r * 1.8, r * 1.8)
        box.center = (round(c[0]), round(c[1]))
        fill = {"face_down": TILE_DOWN, "blank": TILE_BLANK, "hail": HAIL_TILE}[face]
        pygame.draw.rect(surface, fill, box, border_radius=max(2, round(r / 4)))
        pygame.draw.rect(
            surface,
            HAIL_ALERT if face == "hail" else th.INK_SOFT,
            box,
            max(2, round(r / (5 if face == "hail" else 10))),
            border_radius=max(2, round(r / 4)),
        )
        if face == "hail":
            _hailstone(surface, r * 0.75, c)
        elif face == "face_down":
            mark = th.font(max(8, round(r * 1.3))).render("?", True, (255, 255, 255))
            surface.blit(mark, mark.get_rect(center=(round(c[0]), round(c[1]))))

    return paint


def _die(face: str) -> Callable[[pygame.Surface, float, tuple[float, float]], None]:
    """A Cloudship die showing `face`: a white cube face with the colour's shape (or the storm)."""

    def paint(surface, r, c):
        box = pygame.Rect(0, 0, r * 1.8, r * 1.8)
        box.center = (round(c[0]), round(c[1]))
        pygame.draw.rect(surface, (255, 255, 255), box, border_radius=max(2, round(r / 3)))
        pygame.draw.rect(surface, th.INK, box, max(2, round(r / 9)), border_radius=max(2, round(r / 3)))
        draw_token(surface, face, c, r * 0.62)

    return paint


def _token(colour: str) -> Callable[[pygame.Surface, float, tuple[float, float]], None]:
    return lambda surface, r, c: draw_token(surface, colour, c, r * 0.92)


PAINTERS: dict[str, Callable[[pygame.Surface, float, tuple[float, float]], None]] = {
    "flower": _flower,
    "rain": _raindrop,
    "hail": _hailstone,
    **{f"tile:{face}": _tile(face) for face in ("face_down", "blank", "hail")},
    **{f"token:{colour}": _token(colour) for colour in th.COLOURS},
    **{f"die:{face}": _die(face) for face in ("yellow", "purple", "white", "blue", "storm")},
}


@pictures(384 << 10, 256)
def icon(kind: str, px: int) -> pygame.Surface:
    """The picture `kind` in a px x px square (cached: a frame blits, it does not draw)."""
    px = max(4, px)
    surface = pygame.Surface((px, px), pygame.SRCALPHA)
    PAINTERS[kind](surface, px / 2 * 0.94, (px / 2, px / 2))
    return surface


def blit_icon(surface: pygame.Surface, kind: str, center: tuple[float, float], px: float, scale: float = 1.0) -> None:
    image = icon(kind, round(px))
    if scale < 1.0:  # a short transition: shrink the cached picture instead of caching every size
        side = max(1, round(image.get_width() * scale))
        image = pygame.transform.smoothscale(image, (side, side))
    surface.blit(image, image.get_rect(center=(round(center[0]), round(center[1]))))


def icon_painter(kind: str) -> Callable[[pygame.Surface, pygame.Rect, tuple], None]:
    """A Button icon drawing the cached picture."""
    return lambda surface, box, ink: blit_icon(surface, kind, box.center, min(box.w, box.h))


def token(rect: pygame.Rect, colour: str, key: str | None = None) -> Picture:
    """A game colour as its shape (the theme's Token, from the picture cache)."""
    return Picture(rect, lambda surface, r: blit_icon(surface, f"token:{colour}", r.center, min(r.w, r.h)), key)


def icons_in_row(
    kinds: Sequence[str], max_px: int, align: str = "center", growing: Callable[[], tuple[int, float]] | None = None
):
    """Paint `kinds` side by side, as large as fits (at most `max_px`); `growing()` says how many
    of the last ones are still growing in, and how far. Without `growing` the painter holds only
    plain values: a Picture of it with `still=True` may be kept (widgets.painter_key)."""
    kinds = tuple(kinds)

    def paint(surface: pygame.Surface, rect: pygame.Rect) -> None:
        if not kinds:
            return
        px = min(max_px, rect.h, rect.w // len(kinds))
        x = rect.x if align == "left" else rect.centerx - px * len(kinds) / 2
        count, scale = growing() if growing is not None else (0, 1.0)
        for i, kind in enumerate(kinds):
            blit_icon(
                surface, kind, (x + px * (i + 0.5), rect.centery), px * 0.9, scale if i >= len(kinds) - count else 1.0
            )

    return paint
