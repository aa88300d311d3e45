"""Scaling from the 800x480 design grid to any screen, and rotation inside the app.

A `Frame` describes the canvas a screen lays itself out on: its size in screen pixels and the
scale from design pixels (docs/reference/screens.md numbers) to screen pixels. Landscape canvases are scaled so
that 800x480 fits; portrait ones so that 480x800 fits, then the layout stretches to fill the
rest (1024x600 is 819x480 design pixels, 720x1280 is 480x853).

A `Viewport` owns the rotation: screens always draw on an upright canvas; for --rotate 90/180/270
the canvas is turned onto the display when presented, and taps are turned back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import pygame

DESIGN = (800, 480)
SIZES = ((800, 480), (1024, 600), (1280, 720), (1920, 1080), (720, 1280))  # the listed displays
MARGIN = 16
GAP = 8
TOP_BAR = 56
MIN_TARGET = 48
MAIN_TARGET = 64


@dataclass(frozen=True)
class Frame:
    width: int
    height: int

    @property
    def portrait(self) -> bool:
        return self.height > self.width

    @cached_property  # asked thousands of times a frame (every u())
    def scale(self) -> float:
        long_side, short_side = DESIGN
        if self.portrait:
            return min(self.width / short_side, self.height / long_side)
        return min(self.width / long_side, self.height / short_side)

    def u(self, design: float) -> int:
        """Design pixels to screen pixels."""
        return round(design * self.scale)

    @property
    def rect(self) -> pygame.Rect:
        return pygame.Rect(0, 0, self.width, self.height)

    @property
    def bar(self) -> pygame.Rect:
        return pygame.Rect(0, 0, self.width, self.u(TOP_BAR))

    @property
    def content(self) -> pygame.Rect:
        """Everything below the top bar, inside the outer margin."""
        m = self.u(MARGIN)
        top = self.u(TOP_BAR) + self.u(GAP)
        return pygame.Rect(m, top, self.width - 2 * m, self.height - top - m)

    def board_and_step(self, step_share: float | None = None) -> tuple[pygame.Rect, pygame.Rect]:
        """Game screens: board state and the current step (docs/reference/screens.md: the step on the right
        third in landscape, at the bottom in portrait)."""
        c, gap = self.content, self.u(GAP * 2)
        if self.portrait:
            share = step_share or 0.42
            step_h = round(c.h * share)
            return (pygame.Rect(c.x, c.y, c.w, c.h - step_h - gap), pygame.Rect(c.x, c.bottom - step_h, c.w, step_h))
        share = step_share or 1 / 3
        step_w = round(c.w * share)
        return (pygame.Rect(c.x, c.y, c.w - step_w - gap, c.h), pygame.Rect(c.right - step_w, c.y, step_w, c.h))


def free_band(area: pygame.Rect, taken: list[pygame.Rect], gap: int = 0) -> pygame.Rect:
    """The tallest full-width band of `area` that no rect in `taken` reaches into (with `gap`
    to spare): where a card or a notice can go without covering a button."""
    edges = sorted((max(area.top, r.top - gap), min(area.bottom, r.bottom + gap)) for r in taken if r.colliderect(area))
    best, top = pygame.Rect(area.x, area.y, area.w, 0), area.top
    for start, end in edges + [(area.bottom, area.bottom)]:
        if start - top > best.h:
            best = pygame.Rect(area.x, top, area.w, start - top)
        top = max(top, end)
    return best


def outside(area: pygame.Rect, hole: pygame.Rect) -> list[pygame.Rect]:
    """`area` less `hole`, as up to four rects (above, below, left and right of it): the clips
    that draw over `area` without touching `hole`."""
    hole = hole.clip(area)
    if not hole:
        return [area]
    pieces = [
        pygame.Rect(area.x, area.y, area.w, hole.y - area.y),
        pygame.Rect(area.x, hole.bottom, area.w, area.bottom - hole.bottom),
        pygame.Rect(area.x, hole.y, hole.x - area.x, hole.h),
        pygame.Rect(hole.right, hole.y, area.right - hole.right, hole.h),
    ]
    return [piece for piece in pieces if piece.w > 0 and piece.h > 0]


def inset(rect: pygame.Rect, by: int) -> pygame.Rect:
    return rect.inflate(-2 * by, -2 * by)


def _split(start: int, length: int, weights: int | Sequence[float], gap: int) -> list[tuple[int, int]]:
    """(start, length) of each part; the last part takes what rounding left, so they fill exactly."""
    weights = [1.0] * weights if isinstance(weights, int) else list(weights)
    free = length - gap * (len(weights) - 1)
    out, at, total = [], start, sum(weights)
    for i, w in enumerate(weights):
        size = start + length - at if i == len(weights) - 1 else round(free * w / total)
        out.append((at, size))
        at += size + gap
    return out


def rows(rect: pygame.Rect, weights: int | Sequence[float], gap: int = 0) -> list[pygame.Rect]:
    """Split `rect` top to bottom into rows of the given relative heights (or n equal rows)."""
    return [pygame.Rect(rect.x, y, rect.w, h) for y, h in _split(rect.y, rect.h, weights, gap)]


def cols(rect: pygame.Rect, weights: int | Sequence[float], gap: int = 0) -> list[pygame.Rect]:
    """Split `rect` left to right into columns of the given relative widths (or n equal ones)."""
    return [pygame.Rect(x, rect.y, w, rect.h) for x, w in _split(rect.x, rect.w, weights, gap)]


def grid(rect: pygame.Rect, count: int, columns: int, gap: int = 0) -> list[pygame.Rect]:
    """`count` equal cells, filled row by row, `columns` per row."""
    n_rows = max(1, -(-count // columns))
    cells = []
    for row in rows(rect, n_rows, gap):
        cells.extend(cols(row, columns, gap))
    return cells[:count]


# the rows of the canvas turned onto the display at a time (see Viewport.present): under glibc's
# threshold for mapped blocks, so each band's copy reuses the heap's room
PRESENT_BAND_BYTES = 96 << 10


class Viewport:
    """The display and the upright canvas screens draw on, `rotate` degrees clockwise apart."""

    def __init__(self, display: pygame.Surface, rotate: int = 0):
        if rotate not in (0, 90, 180, 270):
            raise ValueError(f"rotate must be 0, 90, 180 or 270, not {rotate!r}")
        self.display = display
        self.rotate = rotate
        w, h = display.get_size()
        self.canvas = display if rotate == 0 else pygame.Surface((h, w) if rotate in (90, 270) else (w, h))

    @property
    def frame(self) -> Frame:
        return Frame(*self.canvas.get_size())

    def present(self) -> None:
        """The canvas turned onto the display, a band of rows at a time: a turned copy of the
        whole canvas would be another screenful of pixels beside the canvas and the display
        (1.5 MB at 800x480, 8 MB at full HD) at every frame."""
        if not self.rotate:
            return
        cw, ch = self.canvas.get_size()
        band = max(1, PRESENT_BAND_BYTES // max(1, cw * self.canvas.get_bytesize()))
        for top in range(0, ch, band):
            rows = min(band, ch - top)
            # pygame rotates counter-clockwise for positive angles
            turned = pygame.transform.rotate(self.canvas.subsurface((0, top, cw, rows)), -self.rotate)
            if self.rotate == 90:  # the canvas's rows become the display's columns, right to left
                at = (ch - top - rows, 0)
            elif self.rotate == 270:  # ... left to right
                at = (top, 0)
            else:  # 180: rows, bottom to top
                at = (0, ch - top - rows)
            self.display.blit(turned, at)

    def to_canvas(self, pos: tuple[int, int]) -> tuple[int, int]:
        """A display position (a tap) as a canvas position."""
        x, y = pos
        cw, ch = self.canvas.get_size()
        if self.rotate == 90:
            return y, ch - 1 - x
        if self.rotate == 180:
            return cw - 1 - x, ch - 1 - y
        if self.rotate == 270:
            return cw - 1 - y, x
        return x, y

    def to_display(self, pos: tuple[int, int]) -> tuple[int, int]:
        """The inverse of to_canvas (tests use it to tap where a widget appears)."""
        cx, cy = pos
        cw, ch = self.canvas.get_size()
        if self.rotate == 90:
            return ch - 1 - cy, cx
        if self.rotate == 180:
            return cw - 1 - cx, ch - 1 - cy
        if self.rotate == 270:
            return cy, cw - 1 - cx
        return cx, cy
