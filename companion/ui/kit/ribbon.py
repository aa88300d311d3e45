"""The turn ribbon: a band in a player's colour along the edge of the screen where their seat
sits, with their shape along it (colour-blind safe), so whose turn it is can be seen from
across the table.

Seats sit at edges of the display as it is mounted (`config.seat_edges`); the screens draw on
an upright canvas turned `rotate` degrees clockwise onto the display, so an edge of the display
is a different edge of the canvas once the picture is turned (`canvas_edge`).
"""

from __future__ import annotations

import pygame

from . import theme as th
from .caches import pictures
from .shapes import draw_shape

EDGES = ("top", "right", "bottom", "left")  # clockwise
THICKNESS = 8  # design px: inside the outer margin, and the gap under the top bar
SHAPE_EVERY = 40  # design px between the shapes along the band


def canvas_edge(display_edge: str, rotate: int) -> str:
    """The canvas edge shown at `display_edge` when the canvas is turned `rotate` degrees
    clockwise onto the display (canvas top shows at the display's right at 90)."""
    return EDGES[(EDGES.index(display_edge) - rotate // 90) % 4]


def display_edge(canvas: str, rotate: int) -> str:
    """The display edge a canvas edge shows at (the inverse of `canvas_edge`)."""
    return EDGES[(EDGES.index(canvas) + rotate // 90) % 4]


def band(area: pygame.Rect, edge: str, thickness: int) -> pygame.Rect:
    """The strip of `area` along `edge`."""
    if edge == "top":
        return pygame.Rect(area.left, area.top, area.width, thickness)
    if edge == "bottom":
        return pygame.Rect(area.left, area.bottom - thickness, area.width, thickness)
    if edge == "left":
        return pygame.Rect(area.left, area.top, thickness, area.height)
    return pygame.Rect(area.right - thickness, area.top, thickness, area.height)


def draw_ribbon(surface: pygame.Surface, area: pygame.Rect, edge: str, colour: str, scale: float) -> pygame.Rect:
    """The ribbon of a player of `colour` (a theme.COLOURS key) along `edge` of `area`; the
    band it covers. Drawn once per size and kept: every frame of a game shows it, a seat
    press's frame included."""
    thickness = max(4, round(THICKNESS * scale))
    strip = band(area, edge, thickness)
    surface.blit(ribbon_image(strip.size, edge, colour, scale), strip)
    return strip


@pictures(256 << 10, 32)
def ribbon_image(size: tuple[int, int], edge: str, colour: str, scale: float) -> pygame.Surface:
    image = pygame.Surface(size)
    _paint(image, image.get_rect(), edge, colour, scale)
    return image


def _paint(surface: pygame.Surface, strip: pygame.Rect, edge: str, colour: str, scale: float) -> None:
    game = th.COLOURS[colour]
    pygame.draw.rect(surface, game.rgb, strip)
    # an ink line on the inner side: a white or yellow ribbon on a light sky still shows
    inner = {"top": strip.bottom - 1, "bottom": strip.top, "left": strip.right - 1, "right": strip.left}[edge]
    line = max(1, round(2 * scale))
    if edge in ("top", "bottom"):
        pygame.draw.line(surface, th.INK, (strip.left, inner), (strip.right, inner), line)
    else:
        pygame.draw.line(surface, th.INK, (inner, strip.top), (inner, strip.bottom), line)
    radius = min(strip.width, strip.height) * 0.5
    ink = th.text_on(game.rgb)  # the shape in ink or white, whichever shows on the colour
    length = strip.width if edge in ("top", "bottom") else strip.height
    step = max(1, round(SHAPE_EVERY * scale))
    for offset in range(step // 2, length, step):
        centre = (
            (strip.left + offset, strip.centery) if edge in ("top", "bottom") else (strip.centerx, strip.top + offset)
        )
        draw_shape(surface, game.shape, centre, radius, ink, outline=None)
