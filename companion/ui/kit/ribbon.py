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
from .layout import GAP
from .shapes import draw_shape, shape_extent

EDGES = ("top", "right", "bottom", "left")  # clockwise
THICKNESS = 15  # design px: inside the 16 px outer margin, a pixel of sky left before the cards
BAR_PAD = 4  # design px: the top bar's room under its buttons (screens/base.py, top_bar)
# design px a game screen's board starts lower than the content of other screens: a ribbon
# along the top, from under the bar's buttons, as deep as at the other edges, its ink line on
# the board's edge (the step's card keeps its room: the band runs over its top edge)
TOP_RIBBON_ROOM = THICKNESS - BAR_PAD - GAP
LINE = 1  # design px: the ink line along the band's inner side
SHAPE_EVERY = 40  # design px between the shapes along the band
SPARE = 1  # screen px of the band's colour each side of a shape, so that it shows whole


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


def draw_ribbon(
    surface: pygame.Surface, area: pygame.Rect, edge: str, colour: str, scale: float, thickness: float = THICKNESS
) -> pygame.Rect:
    """The ribbon of a player of `colour` (a theme.COLOURS key) along `edge` of `area`,
    `thickness` design px deep; the band it covers. Drawn once per size and kept: every frame
    of a game shows it, a seat press's frame included."""
    strip = band(area, edge, max(4, round(thickness * scale)))
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
    line = max(1, round(LINE * scale))
    inner = {"top": strip.bottom - line, "bottom": strip.top, "left": strip.right - line, "right": strip.left}[edge]
    if edge in ("top", "bottom"):
        pygame.draw.rect(surface, th.INK, (strip.left, inner, strip.width, line))
    else:
        pygame.draw.rect(surface, th.INK, (inner, strip.top, line, strip.height))
    colour_part = _colour_part(strip, edge, line)
    along = edge in ("top", "bottom")
    depth = (colour_part.height if along else colour_part.width) - 2 * SPARE
    step = max(1, round(SHAPE_EVERY * scale))
    # the shape in ink or white, whichever shows on the colour
    mark = shape_mark(game.shape, th.text_on(game.rgb), depth, along, step * 0.6)
    length = strip.width if along else strip.height
    for offset in range(step // 2, length - step // 4, step):
        centre = (strip.left + offset, colour_part.centery) if along else (colour_part.centerx, strip.top + offset)
        surface.blit(mark, mark.get_rect(center=centre))


def shape_mark(shape: str, ink: tuple[int, int, int], depth: int, along: bool, longest: float) -> pygame.Surface:
    """A shape as large as fits `depth` px across the band (and `longest` px along it), cut to
    the pixels it covers: each shape by its own extent (a wave is wider than tall, a triangle
    sits low), so that it is whole and centred in the band as drawn, not as computed."""
    left, top, right, bottom = shape_extent(shape)
    radius = min(
        depth / ((bottom - top) if along else (right - left)), longest / ((right - left) if along else (bottom - top))
    )
    radius += 1  # from a little above the estimate: the largest whose pixels fit
    while radius > 1:
        side = int(3 * radius) + 4
        for nudge in (0.0, 0.5):  # a pixel's grid can make a shape one pixel larger or smaller
            image = pygame.Surface((side, side), pygame.SRCALPHA)
            draw_shape(image, shape, (side / 2 + nudge, side / 2 + nudge), radius, ink, outline=None)
            drawn = image.get_bounding_rect()
            if (drawn.h if along else drawn.w) <= depth:
                return image.subsurface(drawn).copy()
        radius -= 0.25
    return pygame.Surface((1, 1), pygame.SRCALPHA)


def _colour_part(strip: pygame.Rect, edge: str, line: int) -> pygame.Rect:
    """The band without its ink line: where the shapes sit, clear of the line and the edge."""
    if edge == "top":
        return pygame.Rect(strip.left, strip.top, strip.width, strip.height - line)
    if edge == "bottom":
        return pygame.Rect(strip.left, strip.top + line, strip.width, strip.height - line)
    if edge == "left":
        return pygame.Rect(strip.left, strip.top, strip.width - line, strip.height)
    return pygame.Rect(strip.left + line, strip.top, strip.width - line, strip.height)
