"""Cloudship's board, drawn like the box: the weather bar as a storm cloud drifting toward the
crew's ship, the four flowerbeds (each bed's colour filling it and its shape pressed into the
soil, three planting holes), the engine room's pipe of twelve spaces in four sections with the
flowers and the tiles beneath them, and the celebration of a full garden.

Pure drawing: each function takes what it shows (plain values from the contract's view), a
rect and, for a moment that moves, how far it has got (0 to 1). What does not move is drawn
once per state and size into a layer (cached) and blitted; only the moving part is drawn over it.
"""

from __future__ import annotations

import math

import pygame

from ...rules.cloudship import BED_CAPACITY, ENGINE_SPACES, SECTION_SIZE
from ..kit import theme as th
from ..kit.caches import pictures
from ..kit.shapes import draw_shape
from .ship_icons import HAIL_ALERT, HULL, PIPE, blit_icon

# the moments, each well under a second and then still
SLIDE_S = 0.6  # the storm cloud slides to its new square
FLIP_S = 0.7  # a hail tile flips on its space, then its hailstone flies to the load
PLANT_S = 0.5  # a flower drops into its bed
CELEBRATE_S = 0.8  # the twelfth flower: the garden bursts into petals

SKY = (222, 236, 250)
SKY_LINE = (150, 176, 206)
PASSED = (120, 128, 150)  # squares the storm has already crossed
CLOSE = (250, 214, 214)  # the last squares before the ship
CLOUD = (92, 98, 124)
CLOUD_LIGHT = (128, 134, 160)
SOIL = (122, 84, 52)
SOIL_DARK = (86, 58, 36)
HOLE = (70, 46, 28)
PLATE = (214, 222, 232)  # an engine section's plate
PLATE_LINE = (150, 162, 180)
GOLD = (250, 204, 21)

# a few states of each part at one size, in at most LAYER_BYTES each (a bed at 800x480 is
# about 75 KB, at 1920x1080 under 0.5 MB)
LAYER_CACHE = 24
LAYER_BYTES = 768 << 10


def ease(t: float) -> float:
    """Ease out: fast, then settling."""
    t = min(1.0, max(0.0, t))
    return 1 - (1 - t) ** 3


def _tint(rgb, towards, amount: float) -> tuple[int, int, int]:
    return tuple(round(a + (b - a) * amount) for a, b in zip(rgb, towards))


def _layer(size: tuple[int, int]) -> pygame.Surface:
    return pygame.Surface((max(1, size[0]), max(1, size[1])), pygame.SRCALPHA)


# --- the weather bar ---------------------------------------------------------------------------


def weather_squares(rect: pygame.Rect, end: int) -> list[pygame.Rect]:
    """The start square and squares 1 to `end` (the end square, where the ship waits), left to
    right, across the middle of `rect`."""
    count = end + 1
    step = rect.w / count
    side = max(4.0, min(step * 0.86, rect.h * 0.6))
    y = rect.centery - side / 2
    return [
        pygame.Rect(round(rect.x + i * step + (step - side) / 2), round(y), round(side), round(side))
        for i in range(count)
    ]


def storm_cloud_rect(rect: pygame.Rect, end: int, position: float) -> pygame.Rect:
    """Where the storm cloud is drawn when it stands on square `position` (fractions while it
    slides): on its square, a little wider than it, inside `rect`."""
    step = rect.w / (end + 1)
    h = rect.h
    w = min(step * 1.6, h * 1.45)
    box = pygame.Rect(0, 0, round(w), round(h))
    box.center = (round(rect.x + step * (position + 0.5)), rect.centery)
    return box.clamp(rect)


def _cloud(surface: pygame.Surface, box: pygame.Rect, fill=CLOUD) -> None:
    """A storm cloud: three puffs on a flat base, ink outline, a lightning bolt below."""
    w, h = box.w, box.h
    puffs = [(0.3, 0.6, 0.28), (0.55, 0.42, 0.34), (0.76, 0.62, 0.24)]
    line = max(2, round(h / 14))
    for x, y, r in puffs:
        pygame.draw.circle(surface, th.INK, (box.x + x * w, box.y + y * h), r * w + line)
    base = pygame.Rect(box.x + w * 0.12, box.y + h * 0.55, w * 0.76, h * 0.33)
    pygame.draw.rect(surface, th.INK, base.inflate(2 * line, 2 * line), border_radius=round(base.h / 2 + line))
    for x, y, r in puffs:
        pygame.draw.circle(surface, fill, (box.x + x * w, box.y + y * h), r * w)
    pygame.draw.rect(surface, fill, base, border_radius=round(base.h / 2))
    pygame.draw.circle(surface, CLOUD_LIGHT, (box.x + 0.5 * w, box.y + 0.36 * h), 0.14 * w)
    draw_shape(surface, "lightning", (box.x + w * 0.5, box.y + h * 0.74), h * 0.26, GOLD)


def _ship(surface: pygame.Surface, box: pygame.Rect) -> None:
    """The crew's little cloud ship: a hull under a white cloud balloon, strings between."""
    w, h = box.w, box.h
    line = max(2, round(h / 16))
    balloon = [(0.32, 0.28, 0.2), (0.55, 0.2, 0.24), (0.72, 0.32, 0.17)]
    for x, y, r in balloon:
        pygame.draw.circle(surface, th.INK, (box.x + x * w, box.y + y * h), r * w + line)
    for x, y, r in balloon:
        pygame.draw.circle(surface, (255, 255, 255), (box.x + x * w, box.y + y * h), r * w)
    for x0, x1 in ((0.3, 0.22), (0.7, 0.78)):
        pygame.draw.line(surface, th.INK, (box.x + x0 * w, box.y + 0.45 * h), (box.x + x1 * w, box.y + 0.68 * h), line)
    hull = [(0.08, 0.66), (0.92, 0.66), (0.78, 0.95), (0.22, 0.95)]
    points = [(box.x + x * w, box.y + y * h) for x, y in hull]
    pygame.draw.polygon(surface, HULL, points)
    pygame.draw.polygon(surface, th.INK, points, line)


@pictures(LAYER_BYTES, LAYER_CACHE)
def weather_layer(size: tuple[int, int], end: int, storm: int) -> pygame.Surface:
    """The still weather bar: the squares (crossed ones dark, the last three before the ship
    pink) and the ship on the end square; the storm cloud is drawn over it."""
    layer = _layer(size)
    rect = layer.get_rect()
    squares = weather_squares(rect, end)
    radius = max(2, squares[0].w // 6)
    for i, box in enumerate(squares[:-1]):
        fill = PASSED if i < storm else CLOSE if i >= end - 3 else SKY
        pygame.draw.rect(layer, fill, box, border_radius=radius)
        pygame.draw.rect(layer, SKY_LINE, box, max(1, box.w // 14), border_radius=radius)
        if i < storm:  # rain still falling where the storm has passed
            for k in range(3):
                x = box.x + box.w * (0.25 + 0.25 * k)
                pygame.draw.line(
                    layer, SKY, (x, box.y + box.h * 0.3), (x - box.w * 0.1, box.y + box.h * 0.7), max(1, box.w // 12)
                )
    last = squares[-1]
    step = rect.w / (end + 1)
    ship = pygame.Rect(0, 0, round(min(step * 1.5, rect.h * 1.3)), rect.h)
    ship.center = last.center
    _ship(layer, ship.clamp(rect))
    return layer


def paint_weather(
    surface: pygame.Surface, rect: pygame.Rect, end: int, storm: int, came_from: int | None = None, t: float = 1.0
) -> pygame.Rect:
    """The weather bar with the storm cloud on square `storm`; while it slides (`came_from`,
    `t` < 1) the cloud is between the squares. Returns where the cloud was drawn."""
    position = float(storm)
    if came_from is not None and t < 1.0:
        position = came_from + (storm - came_from) * ease(t)
    shown = storm if came_from is None or t >= 1.0 else min(came_from, storm)
    surface.blit(weather_layer(rect.size, end, shown), rect)
    cloud = storm_cloud_rect(rect, end, position)
    _cloud(surface, cloud)
    return cloud


# --- the flowerbeds ----------------------------------------------------------------------------


def bed_parts(rect: pygame.Rect) -> tuple[tuple[float, float], float, list[tuple[float, float, float]]]:
    """Where a bed's shape is pressed in (centre, radius) and its three holes (x, y, radius):
    in a tall bed the shape above and the holes in a row below it, in a wide one the shape on
    the left and the holes to its right."""
    centre: tuple[float, float]
    if rect.h >= rect.w * 0.6:
        shape_r = min(rect.w * 0.34, rect.h * 0.22)
        centre = (rect.centerx, rect.y + rect.h * 0.3)
        r = min(rect.w / BED_CAPACITY * 0.4, rect.h * 0.16)
        y = rect.y + rect.h * 0.76
        holes = [(rect.x + rect.w * (i + 0.5) / BED_CAPACITY, y, r) for i in range(BED_CAPACITY)]
    else:
        shape_r = min(rect.h * 0.4, rect.w * 0.17)
        centre = (rect.x + shape_r * 1.25, rect.centery)
        left = rect.x + shape_r * 2.5
        room = rect.right - left
        r = min(room / BED_CAPACITY * 0.36, rect.h * 0.3)
        holes = [(left + room * (i + 0.5) / BED_CAPACITY, rect.centery, r) for i in range(BED_CAPACITY)]
    return centre, shape_r, holes


def bed_holes(rect: pygame.Rect) -> list[tuple[float, float, float]]:
    return bed_parts(rect)[2]


def bed_fill(colour: str) -> tuple[int, int, int]:
    rgb = th.COLOURS[colour].rgb
    return (238, 238, 232) if colour == "white" else _tint(rgb, (255, 255, 255), 0.18)


@pictures(LAYER_BYTES, LAYER_CACHE)
def bed_layer(
    size: tuple[int, int],
    colour: str,
    flowers: int,
    shown_flowers: int,
    new: int = 0,
    lost: int = 0,
    pad: tuple[int, int, int] = (0, 0, 0),
) -> pygame.Surface:
    """A still flowerbed: a soil frame, the bed's colour filling it, its shape pressed into
    the soil, three holes, `shown_flowers` of its `flowers` in them (the others drop in), a green
    ring round the `new` ones, a red cross in the holes of the `lost` ones, and a rainbow over a
    full bed (its colour is wild now). `pad` (x, y, dy) keeps the shape and holes off the edges
    (the flight's marks sit there)."""
    layer = _layer(size)
    rect = layer.get_rect()
    radius = max(4, min(rect.w, rect.h) // 8)
    pygame.draw.rect(layer, SOIL, rect, border_radius=radius)
    rim = max(3, min(rect.w, rect.h) // 14)
    inner = rect.inflate(-2 * rim, -2 * rim)
    fill = bed_fill(colour)
    pygame.draw.rect(layer, fill, inner, border_radius=max(2, radius - rim))
    # the shape pressed in: a shadow up-left, a light edge down-right, a darker floor
    shape = th.COLOURS[colour].shape
    c, r, holes = bed_parts(inner.inflate(-2 * pad[0], -2 * pad[1]).move(0, pad[2]))
    shade = _tint(fill, (0, 0, 0), 0.28)
    light = _tint(fill, (255, 255, 255), 0.5)
    floor = _tint(fill, (0, 0, 0), 0.12)
    off = max(1.5, r / 16)
    for centre, ink in (((c[0] - off, c[1] - off), shade), ((c[0] + off, c[1] + off), light)):
        draw_shape(layer, shape, centre, r, ink, None)
    draw_shape(layer, shape, c, r, floor, None)
    for x, y, hole in holes:
        pygame.draw.circle(layer, HOLE, (x, y), hole)
        pygame.draw.circle(layer, SOIL_DARK, (x, y), hole, max(1, round(hole / 6)))
    for slot, (x, y, hole) in enumerate(holes):
        if slot < shown_flowers:
            if slot >= flowers - new:  # grown this round
                pygame.draw.circle(layer, (120, 220, 140), (x, y), hole * 1.25)
                pygame.draw.circle(layer, th.GOOD, (x, y), hole * 1.25, max(2, round(hole / 5)))
            blit_icon(layer, "flower", (x, y), hole * 2.3)
        elif flowers <= slot < flowers + lost:  # taken by hail this round
            d, width = hole * 0.6, max(2, round(hole / 4))
            pygame.draw.line(layer, (255, 110, 110), (x - d, y - d), (x + d, y + d), width)
            pygame.draw.line(layer, (255, 110, 110), (x - d, y + d), (x + d, y - d), width)
    if flowers >= BED_CAPACITY:
        side = min(inner.w * 0.4, inner.h * 0.3)
        blit_icon(layer, "token:wild", (inner.right - side * 0.6, inner.y + side * 0.55), side)
    pygame.draw.rect(layer, SOIL_DARK, rect, max(1, rim // 2), border_radius=radius)
    return layer


def flowers_drawn(
    rect: pygame.Rect, flowers: int, pad: tuple[int, int, int] = (0, 0, 0)
) -> list[tuple[float, float, float]]:
    """Where a bed of `flowers` draws them (the garden's count is what is drawn)."""
    rim = max(3, min(rect.w, rect.h) // 14)
    inner = pygame.Rect(rim, rim, rect.w - 2 * rim, rect.h - 2 * rim)
    return [
        (x + rect.x, y + rect.y, r)
        for x, y, r in bed_holes(inner.inflate(-2 * pad[0], -2 * pad[1]).move(0, pad[2]))[: min(flowers, BED_CAPACITY)]
    ]


def paint_ground(surface: pygame.Surface, rect: pygame.Rect) -> None:
    """Plain soil (under a bed's buttons during the flight)."""
    radius = max(4, min(rect.w, rect.h) // 10)
    pygame.draw.rect(surface, SOIL, rect, border_radius=radius)
    pygame.draw.rect(surface, SOIL_DARK, rect, max(1, min(rect.w, rect.h) // 28), border_radius=radius)


def paint_bed(
    surface: pygame.Surface,
    rect: pygame.Rect,
    colour: str,
    flowers: int,
    dropping: int = 0,
    t: float = 1.0,
    new: int = 0,
    lost: int = 0,
    pad: tuple[int, int, int] = (0, 0, 0),
) -> None:
    """A flowerbed; while `t` < 1 its last `dropping` flowers fall into their holes."""
    dropping = min(dropping, flowers) if t < 1.0 else 0
    paint_bed_waiting(surface, rect, colour, flowers, dropping, new, lost, pad)
    paint_dropping(surface, rect, flowers, dropping, t, pad)


def paint_bed_waiting(
    surface: pygame.Surface,
    rect: pygame.Rect,
    colour: str,
    flowers: int,
    dropping: int = 0,
    new: int = 0,
    lost: int = 0,
    pad: tuple[int, int, int] = (0, 0, 0),
) -> None:
    """A flowerbed whose last `dropping` flowers are not in their holes yet (paint_dropping)."""
    surface.blit(bed_layer(rect.size, colour, flowers, max(0, flowers - dropping), new, lost, pad), rect)


def paint_dropping(
    surface: pygame.Surface, rect: pygame.Rect, flowers: int, dropping: int, t: float, pad: tuple[int, int, int]
) -> None:
    """The last `dropping` flowers of a bed falling into their holes, `t` of the way (0-1)."""
    if not dropping or t >= 1.0:
        return
    holes = flowers_drawn(rect, flowers, pad)
    k = ease(t)
    for x, y, r in holes[len(holes) - dropping :]:
        start = rect.y - r
        blit_icon(surface, "flower", (x, start + (y - start) * k), r * 2.3 * (1.4 - 0.4 * k))


# --- the engine room ---------------------------------------------------------------------------


def pipe_spaces(rect: pygame.Rect) -> list[tuple[float, float, float]]:
    """(x, y, radius) of the twelve spaces from the red arrow: four sections of three along one
    pipe, in one row, or where the room is tall enough in two (the pipe turns back)."""
    arrow = min(rect.h * 0.3, rect.w * 0.05)
    sections = ENGINE_SPACES // SECTION_SIZE
    lines = 2 if rect.h >= rect.w * 0.2 else 1
    per_line = ENGINE_SPACES // lines
    gap = rect.w * 0.03
    step = (rect.w - arrow - gap * (sections // lines - 1)) / per_line
    line_h = rect.h / lines
    radius = min(step * 0.44, line_h * 0.4)
    out = []
    for i in range(ENGINE_SPACES):
        line, place = divmod(i, per_line)
        if line % 2:  # the way back runs right to left
            place = per_line - 1 - place
        x = rect.x + arrow + (place // SECTION_SIZE) * gap + step * (place + 0.5)
        out.append((x, rect.y + line_h * (line + 0.5), radius))
    return out


def _gear(surface, centre, r, colour) -> None:
    """A tool part: the sections that take hail tiles carry one."""
    teeth = [
        (centre[0] + r * math.cos(math.radians(a)), centre[1] + r * math.sin(math.radians(a)))
        for a in range(0, 360, 45)
    ]
    for p in teeth:
        pygame.draw.circle(surface, colour, p, r * 0.32)
    pygame.draw.circle(surface, colour, centre, r * 0.8)
    pygame.draw.circle(surface, PLATE, centre, r * 0.35)


@pictures(LAYER_BYTES, LAYER_CACHE)
def engine_layer(
    size: tuple[int, int], engine: tuple[tuple[bool, str | None], ...], reveal: int | None, hidden: int | None = None
) -> pygame.Surface:
    """The still engine room: the sections' plates (the first three with a tool part), the pipe
    from the red arrow, each space with its flower, or the tile it uncovered; `hidden` leaves
    one space empty (its tile is flipping)."""
    layer = _layer(size)
    rect = layer.get_rect()
    spaces = pipe_spaces(rect)
    radius = spaces[0][2]
    for section in range(ENGINE_SPACES // SECTION_SIZE):
        group = spaces[section * SECTION_SIZE : (section + 1) * SECTION_SIZE]
        xs, ys = [x for x, _y, _r in group], [y for _x, y, _r in group]
        plate = pygame.Rect(0, 0, max(xs) - min(xs) + radius * 2.5, max(ys) - min(ys) + radius * 2.5)
        plate.center = ((max(xs) + min(xs)) / 2, (max(ys) + min(ys)) / 2)
        pygame.draw.rect(layer, PLATE, plate, border_radius=max(3, round(radius / 2)))
        pygame.draw.rect(layer, PLATE_LINE, plate, max(1, round(radius / 10)), border_radius=max(3, round(radius / 2)))
        if section < 3:
            _gear(layer, (plate.right - radius * 0.35, plate.y + radius * 0.35), radius * 0.28, PLATE_LINE)
    width = max(3, round(radius * 0.55))
    first = spaces[0]
    path = [(rect.x, first[1])] + [(x, y) for x, y, _r in spaces]
    pygame.draw.lines(layer, PIPE, False, path, width)
    half = radius * 0.6
    tip = first[0] - radius - 1
    pygame.draw.polygon(
        layer, HAIL_ALERT, [(tip - half * 1.2, first[1] - half), (tip, first[1]), (tip - half * 1.2, first[1] + half)]
    )
    for index, ((x, y, r), (flower, tile)) in enumerate(zip(spaces, engine)):
        pygame.draw.circle(layer, th.CARD, (x, y), r)
        pygame.draw.circle(layer, th.INK_SOFT, (x, y), r, max(1, round(r / 10)))
        if index == hidden:
            continue
        if flower:
            if tile is not None:  # a tile lies beneath: its corner peeks out
                blit_icon(layer, f"tile:{tile}", (x + r * 0.5, y + r * 0.5), r * 0.9)
            blit_icon(layer, "flower", (x, y), r * 1.75)
        elif tile is not None:
            blit_icon(layer, f"tile:{tile}", (x, y), r * 2.1)
        if index + 1 == reveal:
            pygame.draw.circle(layer, th.FOCUS, (x, y), r + max(2, r / 5), max(3, round(r / 4)))
    return layer


def engine_key(view) -> tuple[tuple[bool, str | None], ...]:
    return tuple((bool(space["flower"]), space["tile"]) for space in view["engine"])


def paint_engine(
    surface: pygame.Surface,
    rect: pygame.Rect,
    engine,
    reveal: int | None,
    flipping: int | None = None,
    t: float = 1.0,
    load_at: tuple[float, float] | None = None,
) -> None:
    """The engine room; while `t` < 1 the tile on space `flipping` (1-12) turns over to show
    its hail, then its hailstone flies off toward `load_at` (the load shown in the step)."""
    flipping = flipping if t < 1.0 else None
    surface.blit(engine_layer(rect.size, tuple(engine), reveal, None if flipping is None else flipping - 1), rect)
    if flipping is None:
        return
    x, y, r = pipe_spaces(rect)[flipping - 1]
    half = min(1.0, t / 0.55)  # the flip first, then the stone's flight
    width = abs(math.cos(half * math.pi))
    face = "tile:face_down" if half < 0.5 else "tile:hail"
    tile = blit_tile(face, r * 2.1, width)
    surface.blit(tile, tile.get_rect(center=(round(x), round(y))))
    if half >= 1.0 and load_at is not None:
        k = ease((t - 0.55) / 0.45)
        sx, sy = x + (load_at[0] - x) * k, y + (load_at[1] - y) * k - math.sin(k * math.pi) * r * 3
        blit_icon(surface, "hail", (sx, sy), r * 1.6)


def blit_tile(face: str, px: float, width: float) -> pygame.Surface:
    """A tile squeezed to `width` (0-1) of its size: the middle of a flip."""
    from .ship_icons import icon

    image = icon(face, round(px))
    return pygame.transform.smoothscale(image, (max(1, round(image.get_width() * width)), image.get_height()))


# --- the celebration ---------------------------------------------------------------------------

PETALS = 24


def paint_celebration(surface: pygame.Surface, rect: pygame.Rect, t: float) -> None:
    """Petals and flowers bursting up out of the garden and drifting down (`t` from 0 to 1)."""
    if t >= 1.0:
        return
    k = ease(t)
    fade = 1.0 - max(0.0, (t - 0.6) / 0.4)
    cx, cy = rect.centerx, rect.centery
    reach = min(rect.w, rect.h) * 0.6
    px = max(12, round(min(rect.w, rect.h) * 0.12))
    colours = [th.COLOURS[c].rgb for c in ("yellow", "purple", "blue")] + [(236, 96, 146), GOLD]
    for i in range(PETALS):
        angle = i * 2 * math.pi / PETALS + (i % 3) * 0.3
        dist = reach * (0.4 + 0.6 * ((i * 7) % 5) / 4) * k
        x = cx + math.cos(angle) * dist * 1.4
        y = cy + math.sin(angle) * dist + (t**2) * reach * 0.5
        if i % 4 == 0:
            blit_icon(surface, "flower", (x, y), px * (0.6 + 0.6 * fade))
        else:
            pygame.draw.circle(surface, colours[i % len(colours)], (x, y), max(2, px * 0.22 * (0.4 + fade)))


__all__ = [
    "paint_weather",
    "paint_bed",
    "paint_bed_waiting",
    "paint_dropping",
    "paint_engine",
    "paint_celebration",
    "pipe_spaces",
    "bed_holes",
    "storm_cloud_rect",
    "weather_squares",
    "flowers_drawn",
    "engine_key",
]
