"""The shape of every game colour, drawn (docs/reference/screens.md): colour-blind players and grey photos
still tell red (circle) from green (square).

`draw_token(surface, colour_name, center, radius)` draws the colour's shape filled with the
colour and outlined in ink, so that white and yellow also show on a white card.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable

import pygame

from .theme import COLOURS, INK

Point = tuple[float, float]


def _regular(center: Point, r: float, sides: int, start_deg: float = -90) -> list[Point]:
    cx, cy = center
    return [
        (
            cx + r * math.cos(math.radians(start_deg + i * 360 / sides)),
            cy + r * math.sin(math.radians(start_deg + i * 360 / sides)),
        )
        for i in range(sides)
    ]


def _star(center: Point, r: float) -> list[Point]:
    cx, cy = center
    points = []
    for i in range(10):
        radius = r if i % 2 == 0 else r * 0.45
        angle = math.radians(-90 + i * 36)
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return points


def _wave(center: Point, r: float) -> list[Point]:
    """A thick band with a sine top and bottom edge."""
    cx, cy = center
    top, bottom, n = [], [], 16
    for i in range(n + 1):
        x = cx - r + 2 * r * i / n
        y = cy + r * 0.32 * math.sin(i / n * 2 * math.pi)
        top.append((x, y - r * 0.38))
        bottom.append((x, y + r * 0.38))
    return top + bottom[::-1]


def _lightning(center: Point, r: float) -> list[Point]:
    cx, cy = center
    shape = [(0.15, -1.0), (-0.55, 0.12), (-0.05, 0.12), (-0.25, 1.0), (0.6, -0.2), (0.08, -0.2), (0.4, -1.0)]
    return [(cx + x * r, cy + y * r) for x, y in shape]


POLYGONS: dict[str, Callable[[Point, float], list[Point]]] = {
    "triangle": lambda c, r: _regular((c[0], c[1] + r * 0.15), r * 1.1, 3),
    "square": lambda c, r: _regular(c, r * 1.2, 4, -45),
    "diamond": lambda c, r: _regular(c, r * 1.08, 4, -90),
    "pentagon": lambda c, r: _regular(c, r * 1.02, 5),
    "hexagon": lambda c, r: _regular(c, r, 6, 0),
    "star": lambda c, r: _star(c, r * 1.1),
    "wave": _wave,
    "lightning": _lightning,
}
SHAPES = ("circle", *POLYGONS, "rainbow")

RAINBOW = ("red", "yellow", "green", "purple")


@functools.cache
def shape_extent(shape: str) -> tuple[float, float, float, float]:
    """How far a shape of radius 1 reaches from its centre: (left, top, right, bottom), so that
    a shape can be sized to fill a box whole (a wave is wider than it is tall)."""
    if shape == "circle":
        return (-0.95, -0.95, 0.95, 0.95)
    if shape == "rainbow":
        return (-1.05, -0.6, 1.05, 0.45)
    if shape not in POLYGONS:
        raise ValueError(f"unknown shape {shape!r}: expected one of {', '.join(SHAPES)}")
    points = POLYGONS[shape]((0.0, 0.0), 1.0)
    xs, ys = [x for x, _ in points], [y for _, y in points]
    return (min(xs), min(ys), max(xs), max(ys))


def draw_shape(
    surface: pygame.Surface,
    shape: str,
    center: Point,
    radius: float,
    fill: tuple[int, int, int],
    outline: tuple[int, int, int] | None = INK,
) -> None:
    width = max(2, round(radius / 8))
    if shape == "circle":
        pygame.draw.circle(surface, fill, center, radius * 0.95)
        if outline:
            pygame.draw.circle(surface, outline, center, radius * 0.95, width)
    elif shape == "rainbow":
        _draw_rainbow(surface, center, radius, outline, width)
    elif shape in POLYGONS:
        points = POLYGONS[shape](center, radius)
        pygame.draw.polygon(surface, fill, points)
        if outline:
            pygame.draw.polygon(surface, outline, points, width)
    else:
        raise ValueError(f"unknown shape {shape!r}: expected one of {', '.join(SHAPES)}")


def _draw_rainbow(surface, center, radius, outline, width) -> None:
    """Four bands in the four card colours: the wild card is every colour at once."""
    cx, cy = center[0], center[1] + radius * 0.45
    band = radius / 4.6
    for i, name in enumerate(RAINBOW):
        outer, inner = radius * 1.05 - i * band, radius * 1.05 - (i + 1) * band
        arc = [
            (cx + outer * math.cos(math.radians(a)), cy - outer * math.sin(math.radians(a))) for a in range(0, 181, 10)
        ]
        arc += [
            (cx + inner * math.cos(math.radians(a)), cy - inner * math.sin(math.radians(a)))
            for a in range(180, -1, -10)
        ]
        pygame.draw.polygon(surface, COLOURS[name].rgb, arc)
    if outline:
        outer = radius * 1.05
        pygame.draw.arc(surface, outline, (cx - outer, cy - outer, 2 * outer, 2 * outer), 0, math.pi, width)
        pygame.draw.line(surface, outline, (cx - outer, cy), (cx + outer, cy), width)


def draw_token(surface: pygame.Surface, colour: str, center: Point, radius: float) -> None:
    """A game colour as its shape, filled with the colour (docs/reference/screens.md's table)."""
    c = COLOURS[colour]
    draw_shape(surface, c.shape, center, radius, c.rgb)


def draw_undo_arrow(surface: pygame.Surface, rect: pygame.Rect, colour) -> None:
    """A curved arrow pointing back (the font has no arrow glyphs)."""
    r = min(rect.w, rect.h) * 0.32
    cx, cy = rect.centerx, rect.centery + r * 0.15
    width = max(2, round(r / 3.5))
    pygame.draw.arc(surface, colour, (cx - r, cy - r, 2 * r, 2 * r), -math.pi / 2, math.pi * 0.95, width)
    tip = (cx - r, cy - r * 0.05)
    head = r * 0.55
    pygame.draw.polygon(
        surface,
        colour,
        [
            (tip[0] - head, tip[1] - head * 0.2),
            (tip[0] + head * 0.8, tip[1] - head * 0.2),
            (tip[0], tip[1] + head * 0.8),
        ],
    )


def draw_crown(surface: pygame.Surface, rect: pygame.Rect, fill=(247, 190, 40), outline=INK) -> None:
    """A crown (the winner's mark: a shape, not only a colour): a band with three points."""
    x, y, w, h = rect.x, rect.y, rect.w, rect.h
    points = [
        (x, y + h * 0.25),
        (x + w * 0.25, y + h * 0.55),
        (x + w * 0.5, y),
        (x + w * 0.75, y + h * 0.55),
        (x + w, y + h * 0.25),
        (x + w * 0.9, y + h),
        (x + w * 0.1, y + h),
    ]
    pygame.draw.polygon(surface, fill, points)
    pygame.draw.polygon(surface, outline, points, max(2, round(h / 12)))


def draw_game_icon(surface: pygame.Surface, game: str, rect: pygame.Rect) -> None:
    """A small picture of each game: Cloud 9's balloon, the Cloudship under its balloon, and The
    Cloud Mine's cloud cards. Drawn in the rect's largest centred square."""
    side = min(rect.w, rect.h)
    box = pygame.Rect(0, 0, side, side)
    box.center = rect.center
    x, y, s = box.x, box.y, side
    line = max(2, round(s / 40))
    sky_white = (255, 255, 255)

    def cloud(cx: float, cy: float, r: float) -> None:
        for dx, dy, k in ((-0.55, 0.1, 0.55), (0.0, -0.15, 0.75), (0.55, 0.1, 0.55)):
            pygame.draw.circle(surface, sky_white, (cx + dx * r, cy + dy * r), k * r)
        for dx, dy, k in ((-0.55, 0.1, 0.55), (0.0, -0.15, 0.75), (0.55, 0.1, 0.55)):
            pygame.draw.circle(surface, INK, (cx + dx * r, cy + dy * r), k * r, line)
        for dx, dy, k in ((-0.55, 0.1, 0.55), (0.0, -0.15, 0.75), (0.55, 0.1, 0.55)):
            pygame.draw.circle(surface, sky_white, (cx + dx * r, cy + dy * r), k * r - line)

    if game == "cloud9":  # a striped hot-air balloon with its basket, over a cloud
        cloud(x + s * 0.5, y + s * 0.86, s * 0.3)
        env = pygame.Rect(x + s * 0.22, y + s * 0.02, s * 0.56, s * 0.58)
        stripes = [COLOURS[c].rgb for c in ("red", "yellow", "green", "purple")]
        for i, colour in enumerate(stripes):
            part = pygame.Rect(env.x + env.w * i / 4, env.y, env.w / 4 + 1, env.h)
            clip = surface.get_clip()
            surface.set_clip(part.clip(clip) if clip else part)
            pygame.draw.ellipse(surface, colour, env)
            surface.set_clip(clip)
        pygame.draw.ellipse(surface, INK, env, line)
        basket = pygame.Rect(x + s * 0.4, y + s * 0.66, s * 0.2, s * 0.14)
        for bx in (basket.x + line, basket.right - line):
            pygame.draw.line(
                surface, INK, (bx, basket.y), (env.centerx + (bx - env.centerx) * 1.6, env.bottom - s * 0.06), line
            )
        pygame.draw.rect(surface, (180, 126, 70), basket)
        pygame.draw.rect(surface, INK, basket, line)
    elif game == "cloudship":  # a little ship hanging under a long balloon
        env = pygame.Rect(x + s * 0.08, y + s * 0.08, s * 0.84, s * 0.36)
        pygame.draw.ellipse(surface, COLOURS["blue"].rgb, env)
        pygame.draw.ellipse(surface, INK, env, line)
        hull = [
            (x + s * 0.18, y + s * 0.62),
            (x + s * 0.82, y + s * 0.62),
            (x + s * 0.7, y + s * 0.84),
            (x + s * 0.3, y + s * 0.84),
        ]
        for fx in (0.28, 0.72):
            pygame.draw.line(surface, INK, (x + s * fx, env.bottom - s * 0.03), (x + s * fx, y + s * 0.62), line)
        pygame.draw.polygon(surface, (180, 126, 70), hull)
        pygame.draw.polygon(surface, INK, hull, line)
        for i, bed in enumerate(("yellow", "purple", "white", "blue")):  # the four beds below
            draw_token(surface, bed, (x + s * (0.2 + 0.2 * i), y + s * 0.94), s * 0.055)
    else:  # The Cloud Mine: three cloud cards fanned out
        for angle, dx in ((-16, -0.2), (0, 0.0), (16, 0.2)):
            card = pygame.Surface((round(s * 0.42), round(s * 0.6)), pygame.SRCALPHA)
            inner = card.get_rect()
            pygame.draw.rect(card, (214, 232, 250), inner, border_radius=round(s / 20))
            pygame.draw.rect(card, INK, inner, line, border_radius=round(s / 20))
            turned = pygame.transform.rotate(card, -angle)
            surface.blit(turned, turned.get_rect(center=(x + s * (0.5 + dx), y + s * 0.52)))
        cloud(x + s * 0.5, y + s * 0.5, s * 0.16)


def draw_tick(surface: pygame.Surface, rect: pygame.Rect, colour) -> None:
    """A check mark: "right" without relying on green."""
    w = max(3, round(rect.w / 7))
    x, y, s = rect.x, rect.y, rect.w
    pygame.draw.lines(
        surface,
        colour,
        False,
        [(x + s * 0.18, y + s * 0.52), (x + s * 0.42, y + s * 0.76), (x + s * 0.84, y + s * 0.26)],
        w,
    )


def draw_cross(surface: pygame.Surface, rect: pygame.Rect, colour) -> None:
    """An X: "wrong" without relying on red."""
    w = max(3, round(rect.w / 7))
    a, b = rect.w * 0.24, rect.w * 0.76
    pygame.draw.line(surface, colour, (rect.x + a, rect.y + a), (rect.x + b, rect.y + b), w)
    pygame.draw.line(surface, colour, (rect.x + b, rect.y + a), (rect.x + a, rect.y + b), w)
