"""How to play, in pictures: one small drawing per step of each game (the dice, the basket, a
falling balloon; the ship over its beds; the Dreamer's cards and the Observers' eyes), each
drawn once per size into a cached Surface. Only shapes, no words: the line under it says it."""

from __future__ import annotations

import math
from collections.abc import Callable

import pygame

from ..kit import theme as th
from ..kit.caches import pictures
from ..kit.shapes import draw_cross, draw_crown, draw_tick, draw_token
from ..kit.widgets import draw_player_token
from . import cloudmine as mine
from .cloud9 import draw_balloon
from .ship_icons import blit_icon

Painter = Callable[[pygame.Surface, float], None]  # draws in a square `side` px, from (0, 0)

SKY = (214, 234, 250)
CLOUD = (255, 255, 255)
BASKET = (176, 122, 74)
SOIL = (233, 221, 204)
ARROW = th.INK


def _die(s: pygame.Surface, c, size: float, colour: str | None) -> None:
    box = pygame.Rect(0, 0, round(size), round(size))
    box.center = (round(c[0]), round(c[1]))
    pygame.draw.rect(s, th.INK, box, border_radius=max(2, box.w // 6))
    pygame.draw.rect(
        s,
        (255, 255, 255),
        box.inflate(-max(2, box.w // 10) * 2, -max(2, box.w // 10) * 2),
        border_radius=max(2, box.w // 7),
    )
    if colour:
        draw_token(s, colour, box.center, size * 0.3)


def _arrow(s: pygame.Surface, start, end, width: float, colour=ARROW) -> None:
    (x0, y0), (x1, y1) = start, end
    angle = math.atan2(y1 - y0, x1 - x0)
    head = width * 2.6
    base = (x1 - head * math.cos(angle), y1 - head * math.sin(angle))
    pygame.draw.line(s, colour, start, base, max(2, round(width)))
    left = (base[0] + head * 0.6 * math.sin(angle), base[1] - head * 0.6 * math.cos(angle))
    right = (base[0] - head * 0.6 * math.sin(angle), base[1] + head * 0.6 * math.cos(angle))
    pygame.draw.polygon(s, colour, [end, left, right])


def _balloon(s: pygame.Surface, c, r: float, tokens: tuple[str, ...] = ()) -> None:
    """The board's hot-air balloon (envelope, ropes, basket), its passengers' heads at the rim."""
    rect = pygame.Rect(0, 0, round(r * 2.4), round(r * 3.2))
    rect.midtop = (round(c[0]), round(c[1] - r))
    basket = draw_balloon(s, rect, r / 60, envelope_share=0.7, basket_w=0.5)
    for k, colour in enumerate(tokens):
        x = basket.x + basket.w * (k + 0.5) / len(tokens)
        draw_player_token(s, " ", colour, (x, basket.top), basket.h * 0.36)


def _card(s: pygame.Surface, rect: pygame.Rect, colour: str) -> None:
    pygame.draw.rect(s, th.INK, rect, border_radius=max(2, rect.w // 8))
    pygame.draw.rect(s, (255, 255, 255), rect.inflate(-4, -4), border_radius=max(2, rect.w // 9))
    draw_token(s, colour, rect.center, rect.w * 0.3)


# --- Cloud 9 -------------------------------------------------------------------------------------


def c9_roll(s, side):
    mine.draw_cloud(s, (side * 0.5, side * 0.74), side * 0.4, CLOUD)
    for k, colour in enumerate(("red", None, "green")):
        _die(s, (side * (0.24 + 0.26 * k), side * 0.36 - (k % 2) * side * 0.08), side * 0.24, colour)


def c9_decide(s, side):
    _balloon(s, (side * 0.42, side * 0.3), side * 0.22, ("red", "blue"))
    draw_player_token(s, " ", "green", (side * 0.82, side * 0.78), side * 0.1)
    _arrow(s, (side * 0.62, side * 0.55), (side * 0.76, side * 0.68), side * 0.03)
    draw_tick(s, pygame.Rect(side * 0.68, side * 0.02, side * 0.28, side * 0.28), th.GOOD)


def c9_rise(s, side):
    _balloon(s, (side * 0.66, side * 0.26), side * 0.18, ("red",))
    _arrow(s, (side * 0.66, side * 0.92), (side * 0.66, side * 0.72), side * 0.035, th.GOOD)
    for k, colour in enumerate(("red", "green")):
        _card(s, pygame.Rect(side * (0.06 + 0.2 * k), side * (0.48 + 0.04 * k), side * 0.22, side * 0.32), colour)


def c9_fall(s, side):
    _balloon(s, (side * 0.42, side * 0.3), side * 0.2, ("red", "blue"))
    _arrow(s, (side * 0.8, side * 0.2), (side * 0.8, side * 0.6), side * 0.035, th.DANGER)
    mine.draw_cloud(s, (side * 0.5, side * 0.9), side * 0.3, CLOUD)
    draw_cross(s, pygame.Rect(side * 0.64, side * 0.64, side * 0.3, side * 0.3), th.DANGER)


# --- Cloudship -----------------------------------------------------------------------------------


def cs_roll(s, side):
    for k, colour in enumerate(("yellow", "storm", "blue")):
        _die(s, (side * (0.22 + 0.28 * k), side * 0.3), side * 0.24, colour)
    squares = 6
    w = side * 0.9 / squares
    for k in range(squares):
        box = pygame.Rect(side * 0.05 + k * w, side * 0.66, w - 3, side * 0.16)
        pygame.draw.rect(s, (74, 78, 105) if k == 1 else (226, 238, 250), box, border_radius=3)
        pygame.draw.rect(s, th.INK, box, 2, border_radius=3)
    _arrow(s, (side * 0.05 + w * 1.5, side * 0.93), (side * 0.05 + w * 2.6, side * 0.93), side * 0.025)


def cs_load(s, side):
    for k in range(2):
        blit_icon(s, "rain", (side * (0.25 + 0.22 * k), side * 0.3), round(side * 0.26))
    blit_icon(s, "hail", (side * 0.74, side * 0.3), round(side * 0.26))
    hull = [(side * 0.1, side * 0.6), (side * 0.9, side * 0.6), (side * 0.75, side * 0.88), (side * 0.25, side * 0.88)]
    pygame.draw.polygon(s, BASKET, hull)
    pygame.draw.polygon(s, th.INK, hull, 2)
    _arrow(s, (side * 0.5, side * 0.44), (side * 0.5, side * 0.58), side * 0.03)


def _beds(s, side, top: float) -> list[pygame.Rect]:
    beds = []
    w = side * 0.9 / 4
    for k, colour in enumerate(("yellow", "purple", "white", "blue")):
        box = pygame.Rect(side * 0.05 + k * w, side * top, w - 4, side * 0.2)
        pygame.draw.rect(s, SOIL, box, border_radius=4)
        pygame.draw.rect(s, th.COLOURS[colour].rgb, box, 4, border_radius=4)
        draw_token(s, colour, box.center, box.w * 0.26)
        beds.append(box)
    return beds


def cs_fly(s, side):
    hull = [(side * 0.3, side * 0.3), (side * 0.7, side * 0.3), (side * 0.62, side * 0.44), (side * 0.38, side * 0.44)]
    pygame.draw.circle(s, th.INK, (side * 0.5, side * 0.14), side * 0.13)
    pygame.draw.circle(s, (236, 240, 245), (side * 0.5, side * 0.14), side * 0.12)
    pygame.draw.polygon(s, BASKET, hull)
    pygame.draw.polygon(s, th.INK, hull, 2)
    beds = _beds(s, side, 0.76)
    blit_icon(s, "rain", (beds[1].centerx, side * 0.58), round(side * 0.14))
    blit_icon(s, "hail", (beds[2].centerx, side * 0.6), round(side * 0.13))


def cs_grow(s, side):
    beds = _beds(s, side, 0.7)
    blit_icon(s, "flower", (beds[0].centerx, side * 0.42), round(side * 0.24))
    blit_icon(s, "rain", (beds[0].centerx, side * 0.14), round(side * 0.16))
    blit_icon(s, "hail", (beds[3].centerx, side * 0.14), round(side * 0.16))
    draw_cross(s, pygame.Rect(beds[3].centerx - side * 0.1, side * 0.34, side * 0.2, side * 0.2), th.DANGER)


# --- The Cloud Mine ------------------------------------------------------------------------------


def _piece(s, role: str, c, px: float) -> None:
    image = mine.role_surface(role, round(px))
    s.blit(image, image.get_rect(center=(round(c[0]), round(c[1]))))


def _fan(s, c, count: int, h: float, chosen: int | None = None) -> None:
    w, hh = mine.card_size(round(h))
    image = mine.card_back(w, hh)
    for k in range(count):
        x = c[0] + (k - (count - 1) / 2) * w * 0.7
        y = c[1] - (h * 0.2 if k == chosen else 0)
        s.blit(image, image.get_rect(center=(round(x), round(y))))
    if chosen is not None:
        x = c[0] + (chosen - (count - 1) / 2) * w * 0.7
        mine.draw_star(s, (x, c[1] - h * 0.2 - h * 0.62), w * 0.3, mine.STAR)


def cm_draw(s, side):
    _piece(s, "dreamer", (side * 0.2, side * 0.2), side * 0.3)
    _piece(s, "chooser", (side * 0.8, side * 0.2), side * 0.3)
    _arrow(s, (side * 0.38, side * 0.2), (side * 0.62, side * 0.2), side * 0.03)
    _fan(s, (side * 0.5, side * 0.7), 5, side * 0.34, chosen=2)


def cm_describe(s, side):
    _piece(s, "dreamer", (side * 0.22, side * 0.74), side * 0.34)
    bubble = pygame.Rect(side * 0.34, side * 0.06, side * 0.6, side * 0.46)
    pygame.draw.ellipse(s, th.INK, bubble)
    pygame.draw.ellipse(s, (255, 255, 255), bubble.inflate(-6, -6))
    pygame.draw.polygon(s, th.INK, [(side * 0.42, side * 0.44), (side * 0.5, side * 0.5), (side * 0.3, side * 0.6)])
    for k in range(5):  # five words at most: five little dashes
        x = bubble.x + bubble.w * (0.2 + 0.15 * k)
        pygame.draw.line(
            s, th.INK, (x, bubble.centery), (x + bubble.w * 0.09, bubble.centery), max(3, round(side / 30))
        )


def cm_guess(s, side):
    _fan(s, (side * 0.5, side * 0.5), 4, side * 0.26)
    for k, (x, y) in enumerate(((0.16, 0.16), (0.84, 0.16), (0.84, 0.84))):
        _piece(s, "observer", (side * x, side * y), side * 0.22)
        disc = pygame.Rect(0, 0, round(side * 0.13), round(side * 0.13))
        disc.center = (round(side * x + side * 0.12), round(side * y + side * 0.1))
        mine.paint_order_disc(s, disc, k == 0)
        digit = th.font(max(8, round(side * 0.1))).render(str(k + 1), True, th.INK)
        s.blit(digit, digit.get_rect(center=disc.center))
    _arrow(s, (side * 0.3, side * 0.1), (side * 0.66, side * 0.1), side * 0.022, th.INK_SOFT)


def cm_settle(s, side):
    _fan(s, (side * 0.3, side * 0.36), 2, side * 0.28)
    draw_player_token(s, " ", "green", (side * 0.78, side * 0.72), side * 0.13)
    _arrow(s, (side * 0.44, side * 0.5), (side * 0.66, side * 0.66), side * 0.03, th.GOOD)
    draw_tick(s, pygame.Rect(side * 0.66, side * 0.06, side * 0.28, side * 0.28), th.GOOD)
    draw_crown(s, pygame.Rect(side * 0.08, side * 0.74, side * 0.24, side * 0.18))


PICTURES: dict[str, Painter] = {
    "c9-roll": c9_roll,
    "c9-decide": c9_decide,
    "c9-rise": c9_rise,
    "c9-fall": c9_fall,
    "cs-roll": cs_roll,
    "cs-load": cs_load,
    "cs-fly": cs_fly,
    "cs-grow": cs_grow,
    "cm-draw": cm_draw,
    "cm-describe": cm_describe,
    "cm-guess": cm_guess,
    "cm-settle": cm_settle,
}


@pictures(512 << 10, 64)
def picture(kind: str, side: int) -> pygame.Surface:
    """The step picture `kind` on a round sky tile `side` px square (cached per size)."""
    side = max(16, side)
    surface = pygame.Surface((side, side), pygame.SRCALPHA)
    pygame.draw.rect(surface, SKY, surface.get_rect(), border_radius=side // 8)
    inner = pygame.Surface((side, side), pygame.SRCALPHA)
    PICTURES[kind](inner, side)
    surface.blit(inner, (0, 0))
    return surface


def paint(kind: str) -> Callable[[pygame.Surface, pygame.Rect], None]:
    """A Picture painter: the step's picture in the largest square of its rect, centred."""

    def draw(surface: pygame.Surface, rect: pygame.Rect) -> None:
        image = picture(kind, min(rect.w, rect.h))
        surface.blit(image, image.get_rect(center=rect.center))

    return draw
