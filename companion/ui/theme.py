"""The look: sky, cards, type sizes, and every game colour with its own shape (ui-guide).

All sizes here are in design pixels at 800x480; `Theme(scale)` turns them into screen pixels.
Rendered text is cached, so redrawing an unchanged screen costs blits, not font rendering.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import pygame
import pygame.freetype

# One bold sans-serif covering German and Hungarian (ä ö ü ß ő ű): pygame's bundled FreeSans Bold.
FONT_PATH = str(Path(pygame.__file__).resolve().parent / "freesansbold.ttf")

# type sizes in design pixels (ui-guide: display 48-72, prompt 32-40, body 22-24, never under 18;
# "min" is the floor a label may shrink to, secondary text asks for "small" and gets it where it fits)
SIZES = {"display": 64, "big": 48, "prompt": 36, "title": 28, "body": 24, "small": 20, "min": 18}
MIN_TEXT = SIZES["min"]

INK = (27, 42, 65)            # text on cards: 13:1 on white
INK_SOFT = (70, 84, 104)      # secondary text: still above 7:1 on white
CARD = (255, 255, 255)
CARD_LINE = (196, 214, 232)
SKY_TOP = (120, 176, 226)
SKY_BOTTOM = (222, 239, 251)
PRIMARY = (22, 94, 168)       # white text on it: 6.6:1
PRIMARY_DOWN = (14, 66, 120)
SECONDARY = (234, 242, 250)
DANGER = (178, 34, 52)        # white text on it: 6.4:1
GOOD = (28, 122, 62)          # white text on it: 5.6:1
DISABLED = (214, 220, 228)
DISABLED_INK = (110, 120, 134)  # 4.6:1 on DISABLED
FOCUS = (255, 166, 0)
SCRIM = (10, 20, 35, 150)
TOAST = (44, 32, 36)


@dataclass(frozen=True)
class GameColour:
    name: str
    rgb: tuple[int, int, int]
    shape: str


# ui-guide "Colours and their shapes": every colour always comes with its shape
COLOURS: dict[str, GameColour] = {c.name: c for c in (
    GameColour("red", (215, 38, 61), "circle"),
    GameColour("yellow", (244, 194, 13), "triangle"),
    GameColour("green", (46, 158, 79), "square"),
    GameColour("purple", (123, 63, 160), "diamond"),
    GameColour("blue", (31, 111, 209), "wave"),
    GameColour("white", (250, 250, 250), "star"),
    GameColour("black", (34, 34, 40), "hexagon"),
    GameColour("orange", (240, 127, 19), "pentagon"),
    GameColour("storm", (74, 78, 105), "lightning"),
    GameColour("wild", (255, 255, 255), "rainbow"),
)}

# player colours in the order new players get them: Cloud 9's six token colours first,
# then two more for The Cloud Mine's seventh and eighth player
PLAYER_COLOURS = ("red", "blue", "green", "yellow", "black", "orange", "purple", "white")
CLOUD9_TOKEN_COLOURS = ("black", "blue", "green", "orange", "red", "yellow")


def text_on(rgb: tuple[int, int, int]) -> tuple[int, int, int]:
    """Ink or white, whichever reads better on `rgb` (relative luminance, WCAG)."""
    def channel(c: int) -> float:
        c = c / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    lum = 0.2126 * channel(rgb[0]) + 0.7152 * channel(rgb[1]) + 0.0722 * channel(rgb[2])
    return INK if lum > 0.35 else (255, 255, 255)


class Font:
    """The type at one size, drawn with pygame.freetype.

    pygame.font (SDL_ttf 2.24 with HarfBuzz) spaces this font's letter pairs wrongly ("hard ver",
    "fortgesetz t"); FreeType's own layout of the same file does not. The methods are the
    pygame.font.Font ones the screens use, with the same metrics (line height padded as SDL_ttf
    pads it), so widgets measure and draw exactly what they will show."""

    def __init__(self, px: int):
        self._face = pygame.freetype.Font(FONT_PATH, px)
        self._face.pad = True            # every line the full height, like SDL_ttf
        self._face.antialiased = True

    def render(self, text: str, antialias: bool, colour) -> pygame.Surface:
        if not text:  # FreeType refuses to draw nothing; SDL_ttf gives an empty line
            return pygame.Surface((0, self.get_linesize()), pygame.SRCALPHA)
        return self._face.render(text, colour)[0]

    def size(self, text: str) -> tuple[int, int]:
        rect = self._face.get_rect(text or " ")
        return (rect.width if text else 0, rect.height)

    def get_linesize(self) -> int:
        return self._face.get_sized_height()

    def get_height(self) -> int:
        return self._face.get_sized_height()


@lru_cache(maxsize=64)
def font(px: int) -> Font:
    if not pygame.freetype.get_init():
        pygame.freetype.init()
    return Font(max(1, px))


class Theme:
    """Sizes and cached text for one scale (screen pixels per design pixel)."""

    TEXT_CACHE = 768
    # ... and at most this many bytes of pixels: on a large display a few lines of big type
    # (result cards, end screens) would otherwise hold tens of megabytes
    TEXT_CACHE_BYTES = 4 << 20

    def __init__(self, scale: float):
        self.scale = scale
        self._text: OrderedDict[tuple, pygame.Surface] = OrderedDict()
        self._text_bytes = 0

    def px(self, design: float) -> int:
        return max(1, round(design * self.scale))

    def size(self, role: str | float) -> int:
        """Screen pixels for a type role ("body", "prompt", ...) or a design size."""
        return self.px(SIZES[role] if isinstance(role, str) else role)

    def font(self, px: int) -> Font:
        return font(px)

    def text(self, text: str, px: int, colour: tuple[int, int, int] = INK) -> pygame.Surface:
        key = (text, px, colour)
        surface = self._text.get(key)
        if surface is None:
            surface = font(px).render(text, True, colour)
            self._text[key] = surface
            self._text_bytes += _bytes(surface)
            while len(self._text) > 1 and (len(self._text) > self.TEXT_CACHE
                                           or self._text_bytes > self.TEXT_CACHE_BYTES):
                _key, oldest = self._text.popitem(last=False)
                self._text_bytes -= _bytes(oldest)
        else:
            self._text.move_to_end(key)
        return surface

    def measure(self, text: str, px: int) -> tuple[int, int]:
        return font(px).size(text)


def _bytes(surface: pygame.Surface) -> int:
    return surface.get_width() * surface.get_height() * surface.get_bytesize()


@lru_cache(maxsize=8)
def sky(size: tuple[int, int]) -> pygame.Surface:
    """A calm vertical gradient, made once per size (a 1-pixel column stretched across)."""
    w, h = size
    column = pygame.Surface((1, h))
    for y in range(h):
        t = y / max(1, h - 1)
        column.set_at((0, y), tuple(round(a + (b - a) * t) for a, b in zip(SKY_TOP, SKY_BOTTOM)))
    return pygame.transform.scale(column, (w, h)).convert() if pygame.display.get_surface() else \
        pygame.transform.scale(column, (w, h))
