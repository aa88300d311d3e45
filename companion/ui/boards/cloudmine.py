"""The Cloud Mine drawn: the table with the players round it, each with their role piece
(Dreamer, Chooser, Observer), the guessing order on the ring, the deck in the middle, each
player's pile of collected cards, and the cards flying to whoever takes them.

Pure drawing functions of a rect (and, for the flights, the time); everything still is drawn
once per size into a cached Surface and blitted, so an animation frame only draws what moves.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import pygame

from ..kit import theme as th
from ..kit.caches import pictures

WOOD = (176, 122, 74)
WOOD_DARK = (122, 80, 44)
FELT = (64, 132, 112)
FELT_LINE = (98, 164, 142)
CARD_BACK = (72, 120, 196)
CARD_EDGE = (255, 255, 255)
MOON = (247, 190, 40)
STAR = (247, 190, 40)

FLIGHT_S = 0.7  # a settlement's cards fly to whoever takes them in this long, then stillness
FLIGHT_STAGGER = 0.06  # each card leaves a little after the one before
MOST_FLYING = 8  # cards drawn in flight per taker at most (a pile of 8 reads as "many")

ROLES = ("dreamer", "chooser", "observer", "guessed")


# --- the still parts, drawn once per size --------------------------------------------------------


@pictures(1 << 20, 4)
def table_surface(w: int, h: int) -> pygame.Surface:
    """The round table: a wooden rim round a green felt, with the clockwise arrows of play."""
    surface = pygame.Surface((max(1, w), max(1, h)), pygame.SRCALPHA)
    rim = max(3, min(w, h) // 18)
    box = pygame.Rect(0, 0, w, h)
    pygame.draw.ellipse(surface, WOOD_DARK, box)
    pygame.draw.ellipse(surface, WOOD, box.inflate(-rim // 2, -rim // 2))
    felt = box.inflate(-2 * rim, -2 * rim)
    if felt.w > 4 and felt.h > 4:
        pygame.draw.ellipse(surface, FELT, felt)
        track = felt.inflate(-2 * rim, -2 * rim)
        if track.w > 8 and track.h > 8:
            pygame.draw.ellipse(surface, FELT_LINE, track, max(2, rim // 3))
            # arrowheads on the track: play goes clockwise round the table
            for k in range(4):
                angle = math.pi / 4 + k * math.pi / 2
                _arrowhead(surface, track, angle, max(5, rim))
    return surface


def _arrowhead(surface: pygame.Surface, ellipse: pygame.Rect, angle: float, size: float) -> None:
    rx, ry = ellipse.w / 2, ellipse.h / 2
    cx, cy = ellipse.center
    x, y = cx + rx * math.cos(angle), cy + ry * math.sin(angle)
    # the clockwise tangent (screen y points down)
    tx, ty = -rx * math.sin(angle), ry * math.cos(angle)
    n = math.hypot(tx, ty) or 1.0
    tx, ty = tx / n, ty / n
    px, py = -ty, tx
    tip = (x + tx * size, y + ty * size)
    left = (x - tx * size * 0.4 + px * size * 0.7, y - ty * size * 0.4 + py * size * 0.7)
    right = (x - tx * size * 0.4 - px * size * 0.7, y - ty * size * 0.4 - py * size * 0.7)
    pygame.draw.polygon(surface, FELT_LINE, [tip, left, right])


def paint_table(surface: pygame.Surface, rect: pygame.Rect) -> None:
    surface.blit(table_surface(rect.w, rect.h), rect.topleft)


@pictures(128 << 10, 64)
def card_back(w: int, h: int) -> pygame.Surface:
    """One cloud card face down: blue with a white border and a white cloud."""
    w, h = max(6, w), max(8, h)
    surface = pygame.Surface((w, h), pygame.SRCALPHA)
    radius = max(2, min(w, h) // 8)
    pygame.draw.rect(surface, th.INK, surface.get_rect(), border_radius=radius)
    pygame.draw.rect(surface, CARD_EDGE, surface.get_rect().inflate(-2, -2), border_radius=radius)
    inner = surface.get_rect().inflate(-max(4, w // 6), -max(4, w // 6))
    pygame.draw.rect(surface, CARD_BACK, inner, border_radius=max(1, radius - 1))
    draw_cloud(surface, inner.center, inner.w * 0.36, (255, 255, 255))
    return surface


def draw_cloud(surface: pygame.Surface, center, r: float, colour) -> None:
    cx, cy = center
    for dx, dy, k in ((-0.55, 0.15, 0.5), (0.0, -0.15, 0.65), (0.55, 0.15, 0.5)):
        pygame.draw.circle(surface, colour, (cx + dx * r, cy + dy * r), max(1, k * r))
    pygame.draw.rect(
        surface,
        colour,
        pygame.Rect(cx - 0.8 * r, cy + 0.05 * r, 1.6 * r, 0.55 * r),
        border_radius=max(1, round(0.25 * r)),
    )


def card_size(height: int) -> tuple[int, int]:
    """A card's width and height for a picture `height` high (cards are 2:3)."""
    h = max(8, height)
    return max(6, round(h * 2 / 3)), h


def stack_layers(count: int) -> int:
    """How many card edges a pile of `count` cards shows: more cards, a taller pile."""
    return 0 if count <= 0 else min(8, 1 + (count - 1) // 10)


@pictures(256 << 10, 64)
def pile_surface(w: int, h: int, layers: int) -> pygame.Surface:
    """A face-down pile `layers` edges high that fits w x h, standing on its bottom edge."""
    surface = pygame.Surface((max(1, w), max(1, h)), pygame.SRCALPHA)
    if layers <= 0:
        return surface
    step = max(1, h // 28)
    cw, ch = card_size(min(h - step * (layers - 1), round(w * 3 / 2)))
    image = card_back(cw, ch)
    x = (w - cw) // 2
    for k in range(layers):
        surface.blit(image, (x, h - ch - k * step))
    return surface


def paint_pile(surface: pygame.Surface, rect: pygame.Rect, count: int) -> None:
    """The deck (or a player's collected cards) as a pile whose height follows its count."""
    image = pile_surface(rect.w, rect.h, stack_layers(count))
    surface.blit(image, rect.topleft)


@pictures(64 << 10, 64)
def role_surface(role: str, px: int) -> pygame.Surface:
    """The role piece in a px x px square: the Dreamer a moon on a cloud, the Chooser a card
    with a star (the card they pick), an Observer an open eye, one who has guessed a shut eye."""
    px = max(8, px)
    s = pygame.Surface((px, px), pygame.SRCALPHA)
    c, r = (px / 2, px / 2), px / 2 * 0.94
    line = max(2, round(px / 14))
    pygame.draw.circle(s, th.INK, c, r)
    pygame.draw.circle(s, (255, 255, 255), c, r - line)
    if role == "dreamer":
        moon_c = (c[0] - r * 0.12, c[1] - r * 0.12)
        pygame.draw.circle(s, MOON, moon_c, r * 0.52)
        pygame.draw.circle(s, (255, 255, 255), (moon_c[0] + r * 0.26, moon_c[1] - r * 0.16), r * 0.44)
        draw_cloud(s, (c[0] + r * 0.1, c[1] + r * 0.32), r * 0.42, th.INK_SOFT)
    elif role == "chooser":
        card = pygame.Rect(0, 0, round(r * 0.95), round(r * 1.35))
        card.center = (round(c[0]), round(c[1]))
        pygame.draw.rect(s, th.INK, card, border_radius=max(2, px // 16))
        pygame.draw.rect(s, CARD_BACK, card.inflate(-line * 2, -line * 2), border_radius=max(1, px // 20))
        draw_star(s, card.center, card.w * 0.36, STAR)
    else:
        eye = pygame.Rect(0, 0, round(r * 1.5), round(r * 0.9))
        eye.center = (round(c[0]), round(c[1]))
        if role == "observer":
            pygame.draw.ellipse(s, th.INK, eye)
            pygame.draw.ellipse(s, (255, 255, 255), eye.inflate(-line * 2, -line * 2))
            pygame.draw.circle(s, CARD_BACK, eye.center, eye.h * 0.34)
            pygame.draw.circle(s, th.INK, eye.center, eye.h * 0.16)
        else:  # has guessed: the eye shut, a curve with lashes
            pygame.draw.arc(s, th.INK_SOFT, eye, math.pi, 2 * math.pi, line)
            for k in (-0.6, 0.0, 0.6):
                x = eye.centerx + k * eye.w * 0.4
                y = eye.centery + eye.h * 0.5 * math.sqrt(max(0.0, 1 - (k * 0.8) ** 2))
                pygame.draw.line(s, th.INK_SOFT, (x, y), (x + k * line, y + eye.h * 0.3), line)
    return s


def draw_star(surface: pygame.Surface, center, r: float, colour) -> None:
    points = [
        (
            center[0] + (r if k % 2 == 0 else r * 0.45) * math.cos(-math.pi / 2 + k * math.pi / 5),
            center[1] + (r if k % 2 == 0 else r * 0.45) * math.sin(-math.pi / 2 + k * math.pi / 5),
        )
        for k in range(10)
    ]
    pygame.draw.polygon(surface, colour, points)
    pygame.draw.polygon(surface, th.INK, points, 1)


def paint_role(surface: pygame.Surface, rect: pygame.Rect, role: str) -> None:
    side = min(rect.w, rect.h)
    image = role_surface(role, side)
    surface.blit(image, image.get_rect(center=rect.center))


def paint_order_disc(surface: pygame.Surface, rect: pygame.Rect, now: bool) -> None:
    """The disc under a guessing-order number: orange for who guesses now, else light."""
    r = min(rect.w, rect.h) / 2
    pygame.draw.circle(surface, th.INK, rect.center, r)
    pygame.draw.circle(surface, th.FOCUS if now else th.SECONDARY, rect.center, max(1, r - max(2, r / 8)))


# --- the cards on the move -----------------------------------------------------------------------


@dataclass(frozen=True)
class Flight:
    """`count` cards going from one point to another (a settlement: the table to its finder)."""

    start: tuple[int, int]
    end: tuple[int, int]
    count: int


def ease(t: float) -> float:
    """Quick to leave, gentle to land (ease-out cubic), clamped to 0..1."""
    t = min(1.0, max(0.0, t))
    return 1 - (1 - t) ** 3


def flight_points(flight: Flight, elapsed: float) -> list[tuple[float, float]]:
    """Where each flying card of `flight` is `elapsed` seconds after the start (the last one
    leaves FLIGHT_STAGGER after the one before, and all have landed at FLIGHT_S)."""
    shown = min(flight.count, MOST_FLYING)
    travel = FLIGHT_S - FLIGHT_STAGGER * (shown - 1)
    (x0, y0), (x1, y1) = flight.start, flight.end
    out = []
    for k in range(shown):
        t = ease((elapsed - k * FLIGHT_STAGGER) / travel)
        lift = math.sin(math.pi * t) * 0.18 * math.hypot(x1 - x0, y1 - y0)  # a small arc
        out.append((x0 + (x1 - x0) * t, y0 + (y1 - y0) * t - lift))
    return out


def paint_flights(surface: pygame.Surface, flights: list[Flight], elapsed: float, card_h: int) -> None:
    """The cards in flight, `elapsed` seconds in: nothing once they have all landed."""
    if elapsed >= FLIGHT_S:
        return
    w, h = card_size(card_h)
    image = card_back(w, h)
    for flight in flights:
        for x, y in flight_points(flight, elapsed):
            surface.blit(image, image.get_rect(center=(round(x), round(y))))
