"""The look: sky, cards, type sizes, and every game colour with its own shape (docs/reference/screens.md).

All sizes here are in design pixels at 800x480; `Theme(scale)` turns them into screen pixels.
Rendered text is cached, so redrawing an unchanged screen costs blits, not font rendering.
"""

from __future__ import annotations

import weakref
from collections import OrderedDict
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import pygame
import pygame.freetype

# One family in two weights, drawn for legibility (distinct I l 1, open shapes; made for low
# vision, so it suits children and a 7" screen at arm's length), covering German and Hungarian
# (ä ö ü ß ő ű): Atkinson Hyperlegible (SIL Open Font License, fonts/OFL.txt), its zero drawn
# open (fonts/open_zero.py: a slashed 0 in a score reads as "no"). Headlines, prompts, numbers
# and buttons are bold; details and fine print regular.
FONTS_DIR = Path(__file__).resolve().parent / "fonts"
FONT_PATHS = {
    "bold": str(FONTS_DIR / "AtkinsonHyperlegible-Bold.ttf"),
    "regular": str(FONTS_DIR / "AtkinsonHyperlegible-Regular.ttf"),
}
FONT_PATH = FONT_PATHS["bold"]

# type sizes in design pixels (docs/reference/screens.md: display 48-72, prompt 32-40, body 22-24, never under 18;
# "min" is the floor a label may shrink to, secondary text asks for "small" and gets it where it fits)
SIZES = {"display": 64, "big": 48, "prompt": 36, "title": 28, "body": 24, "small": 20, "min": 18}
MIN_TEXT = SIZES["min"]
# the weight of each role: what to read first is bold, what explains it regular
WEIGHTS = {
    "display": "bold",
    "big": "bold",
    "prompt": "bold",
    "title": "bold",
    "body": "regular",
    "small": "regular",
    "min": "regular",
}


def weight_of(role: str | float) -> str:
    """A role's weight; a size given in pixels is bold (a number or a headline)."""
    return WEIGHTS.get(role, "bold") if isinstance(role, str) else "bold"


INK = (27, 42, 65)  # text on cards: 13:1 on white
INK_SOFT = (70, 84, 104)  # secondary text: still above 7:1 on white
CARD = (255, 255, 255)
CARD_LINE = (196, 214, 232)
SKY_TOP = (120, 176, 226)
SKY_BOTTOM = (222, 239, 251)
PRIMARY = (22, 94, 168)  # white text on it: 6.6:1
PRIMARY_DOWN = (14, 66, 120)
SECONDARY = (234, 242, 250)
DANGER = (178, 34, 52)  # white text on it: 6.4:1
GOOD = (28, 122, 62)  # white text on it: 5.6:1
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


# docs/reference/screens.md "Colours and their shapes": every colour always comes with its shape
COLOURS: dict[str, GameColour] = {
    c.name: c
    for c in (
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
    )
}

# player colours in the order new players get them: Cloud 9's six token colours first,
# then two more for The Cloud Mine's seventh and eighth player
PLAYER_COLOURS = ("red", "blue", "green", "yellow", "black", "orange", "purple", "white")
CLOUD9_TOKEN_COLOURS = ("black", "blue", "green", "orange", "red", "yellow")


@lru_cache(maxsize=256)
def luminance(rgb: tuple[int, int, int]) -> float:
    """Relative luminance (WCAG 2)."""

    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(rgb[0]) + 0.7152 * channel(rgb[1]) + 0.0722 * channel(rgb[2])


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    """The WCAG contrast ratio of two colours, 1 to 21."""
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


WHITE = (255, 255, 255)
READABLE = 4.5  # WCAG AA for text


@lru_cache(maxsize=256)
def text_on(rgb: tuple[int, int, int]) -> tuple[int, int, int]:
    """Ink or white, whichever reads better on `rgb`."""
    return INK if contrast(INK, rgb) >= contrast(WHITE, rgb) else WHITE


def banner(rgb: tuple[int, int, int]) -> tuple[int, int, int]:
    """`rgb` as the fill of a band of text: itself where ink or white reads on it at 4.5:1,
    else the same hue darkened until white does (green and orange players' banners)."""
    fill = rgb
    while contrast(text_on(fill), fill) < READABLE:
        r, g, b = fill
        fill = (max(0, round(r * 0.92)), max(0, round(g * 0.92)), max(0, round(b * 0.92)))
    return fill


# letters that reach highest above the line and lowest below it, in the languages shown
TALL_LETTERS = "ÁÉÍÓÖŐÚÜŰÄÅbdfhklt"
DEEP_LETTERS = "gjpqyÇ,;"


# spaces that keep their neighbours on one line ("Noah 4"), drawn as a plain space where the
# font has no glyph of their own (it would show a missing-glyph box)
NO_BREAK_SPACES = "\u00a0\u202f\u2007"


class _Measures:
    """What every Font remembers of the texts it measured, within one budget for them all: each
    size keeping its own thousands (up to 256 sizes, each with new names, numbers and another
    language's words) held tens of MB by the end of an evening. Past the budget every size
    forgets at once, and the next builds measure again (a few microseconds a text)."""

    def __init__(self, most: int):
        self.most, self.count = most, 0
        self.fonts: weakref.WeakSet[Font] = weakref.WeakSet()

    def one_more(self) -> None:
        if self.count >= self.most:
            for font in list(self.fonts):
                font._sizes.clear()
                font._inks.clear()
            self.count = 0
        self.count += 1


MEASURED = 8192  # texts measured and remembered, every size together (about 1.5 MiB; 16,384 held 3)
_MEASURES = _Measures(MEASURED)


class Font:
    """The type at one size, drawn with pygame.freetype.

    pygame.font (SDL_ttf 2.24 with HarfBuzz) spaces this font's letter pairs wrongly ("hard ver",
    "fortgesetz t"); FreeType's own layout of the same file does not. The methods are the
    pygame.font.Font ones the screens use.

    Every line is drawn on its baseline: each image has room above the baseline for the
    tallest letters (an accented capital) and below it for the deepest, whatever the line
    holds, so a line with "Ő" in it sits exactly where one without it does (FreeType alone
    makes the image as tall as the line's own letters, moving the baseline line by line).
    `accent_room` is how far that room reaches above the line's slot (`get_linesize` apart)."""

    def __init__(self, px: int, path: str | None = None):
        self.path = path or FONT_PATH
        self.px = px
        self._face = face = _face(self.path)
        self.ascent = face.get_sized_ascender(px)
        self.above = max(self.ascent, face.get_rect(TALL_LETTERS, size=px).y)
        deep = face.get_rect(DEEP_LETTERS, size=px)
        self.below = max(-face.get_sized_descender(px), deep.height - deep.y)
        self.linesize = max(face.get_sized_height(px), self.ascent + self.below)
        self.accent_room = self.above - self.ascent
        missing = [c for c, m in zip(NO_BREAK_SPACES, face.get_metrics(NO_BREAK_SPACES, size=px)) if m is None]
        self._spaces = str.maketrans(dict.fromkeys(missing, " "))
        self._sizes: dict[str, tuple[int, int]] = {}
        self._inks: dict[str, tuple[int, int]] = {}
        _MEASURES.fonts.add(self)

    def _drawable(self, text: str) -> str:
        return text.translate(self._spaces)

    def render(self, text: str, antialias: bool, colour) -> pygame.Surface:
        text = self._drawable(text)
        box = self._face.get_rect(text, size=self.px) if text else pygame.Rect(0, 0, 0, 0)
        image = pygame.Surface((box.width, self.above + self.below), pygame.SRCALPHA)
        if text:  # FreeType refuses to draw nothing
            # drawn straight onto the line's image from its baseline (the letters' box starts
            # at box.x from the pen): a fifth of the time of rendering a surface and blitting it
            self._face.origin = True
            try:
                self._face.render_to(image, (-box.x, self.above), text, colour, size=self.px)
            finally:
                self._face.origin = False
        return image

    def size(self, text: str) -> tuple[int, int]:
        # remembered: every build measures the same words again (titles, wrapping, fitting)
        known = self._sizes.get(text)
        if known is None:
            _MEASURES.one_more()
            rect = self._face.get_rect(self._drawable(text) or " ", size=self.px)
            known = self._sizes[text] = (rect.width if text else 0, self.linesize)
        return known

    def block_height(self, lines: int) -> int:
        """How tall `lines` lines are from the top of the highest accent to the lowest descender."""
        return self.accent_room + (lines - 1) * self.linesize + self.ascent + self.below if lines else 0

    def ink(self, text: str) -> tuple[int, int]:
        """How far `text`'s letters reach above and below its baseline (remembered: fitting
        a label asks it of every line at every size it tries)."""
        known = self._inks.get(text)
        if known is None:
            _MEASURES.one_more()
            self._face.pad = False
            try:
                box = self._face.get_rect(self._drawable(text), size=self.px)
            finally:
                self._face.pad = True
            known = self._inks[text] = (box.y, box.height - box.y)
        return known

    def first_baseline(self, lines: int, height: int) -> int:
        """Where a Label of `height` puts its first line's baseline (the block centred)."""
        return height // 2 - self.block_height(lines) // 2 + self.above

    def fits_height(self, lines: list[str] | tuple[str, ...], height: int) -> bool:
        """Whether the letters of `lines`, placed as a Label places them, stay in `height`."""
        baseline = self.first_baseline(len(lines), height)
        for line in lines:
            if line.strip():
                up, down = self.ink(line)
                if baseline - up < 0 or baseline + down > height:
                    return False
            baseline += self.linesize
        return True

    def get_linesize(self) -> int:
        return self.linesize

    def get_height(self) -> int:
        return self.linesize


# FreeType's table of drawn glyphs per face: each slot keeps at most two (its default, 64,
# holds one size's letters at most). 512 holds a screen's letters at all its sizes; 2048 held
# about 6 MiB more over an evening and drew no faster.
GLYPH_CACHE = 512


_FACES: dict[str, pygame.freetype.Font] = {}


def _face(path: str) -> pygame.freetype.Font:
    """One FreeType face per file, drawing at every size. pygame's FreeType keeps two faces
    open at a time: a face of its own for each size (forty of them) made nearly every
    measurement of a new text open the font file again (60-300 us instead of 3-10 us)."""
    if not pygame.freetype.get_init():  # first use, or FreeType was shut down since
        _FACES.clear()
        pygame.freetype.init(cache_size=GLYPH_CACHE)
    face = _FACES.get(path)
    if face is None:
        face = _FACES[path] = pygame.freetype.Font(path, SIZES["body"])
        face.pad = True
        face.antialiased = True
    return face


@lru_cache(maxsize=256)  # every size warm_steps opens, at the largest scale
def font(px: int, weight: str = "bold") -> Font:
    return Font(max(1, px), FONT_PATHS[weight])


# the letters the screens write (three languages, digits, punctuation): loaded ahead by `warm`
COMMON_LETTERS = (
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789áéíóöőúüűäßÁÉÍÓÖŐÚÜŰÄ .,:;!?'\"()/+-–—…%×·‘’“”„"
)


def fitting_sizes(px: int, min_px: int) -> list[int]:
    """The sizes a label tries, from `px` down to `min_px` (the steps of widgets.fit_text)."""
    sizes = [px]
    while sizes[-1] > min_px:
        size = sizes[-1]
        sizes.append(max(min_px, size - max(1, size // 12)))
    return sizes


# what a player's token shows (an initial, a place number): loaded ahead at every size a token
# may draw, since a token's type follows its size rather than a role
TOKEN_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZÁÉÍÓÖŐÚÜŰÄ0123456789"
TOKEN_SMALLEST = 8


def warm_steps(scale: float) -> list[tuple]:
    """Every (size, weight) the type roles may be drawn at on a screen of `scale`, then the
    sizes only tokens use, as (size, weight, letters)."""
    theme = Theme(scale)
    steps: dict[tuple[int, str], tuple] = {}
    for role in SIZES:
        for px in fitting_sizes(theme.size(role), theme.size("min")):
            for weight in ("bold", "regular"):
                steps[px, weight] = (px, weight)
    for px in range(TOKEN_SMALLEST, theme.size("display") + 1):
        steps.setdefault((px, "bold"), (px, "bold", TOKEN_LETTERS))
    return list(steps.values())


def warm(px: int, weight: str, letters: str = COMMON_LETTERS) -> None:
    """Open the type at one size and lay out its `letters` once: the first frame that needs
    that size (a seat press showing a card) then finds it open and its letters drawn, instead
    of loading them while someone waits."""
    face = font(px, weight)
    face.size(letters)
    face.ink(letters)
    face.render(letters, True, INK)


# the line images a theme for one picture (a recap) keeps: each line is drawn once, and the
# screen's full budget (up to 2 MiB of a recap's lines) stood beside the picture as it was drawn
PICTURE_TEXT_BYTES = 256 << 10


class Theme:
    """Sizes and cached text for one scale (screen pixels per design pixel)."""

    TEXT_CACHE = 768
    # ... and at most this many bytes of pixels: on a large display a few lines of big type
    # (result cards, end screens) would otherwise hold tens of megabytes
    TEXT_CACHE_BYTES = 4 << 20

    def __init__(self, scale: float, text_bytes: int = TEXT_CACHE_BYTES):
        """`text_bytes`: the budget of the line images kept (a picture drawn once, whose
        lines are drawn once each, keeps far fewer: PICTURE_TEXT_BYTES)."""
        self.scale = scale
        self.text_bytes = text_bytes
        self._text: OrderedDict[tuple, pygame.Surface] = OrderedDict()
        self._text_bytes = 0

    def px(self, design: float) -> int:
        return max(1, round(design * self.scale))

    def size(self, role: str | float) -> int:
        """Screen pixels for a type role ("body", "prompt", ...) or a design size."""
        return self.px(SIZES[role] if isinstance(role, str) else role)

    def font(self, px: int, weight: str = "bold") -> Font:
        return font(px, weight)

    def text(self, text: str, px: int, colour: tuple[int, int, int] = INK, weight: str = "bold") -> pygame.Surface:
        key = (text, px, colour, weight)
        surface = self._text.get(key)
        if surface is None:
            surface = font(px, weight).render(text, True, colour)
            self._text[key] = surface
            self._text_bytes += _bytes(surface)
            while len(self._text) > 1 and (len(self._text) > self.TEXT_CACHE or self._text_bytes > self.text_bytes):
                _key, oldest = self._text.popitem(last=False)
                self._text_bytes -= _bytes(oldest)
        else:
            self._text.move_to_end(key)
        return surface

    def measure(self, text: str, px: int, weight: str = "bold") -> tuple[int, int]:
        return font(px, weight).size(text)


def _bytes(surface: pygame.Surface) -> int:
    return surface.get_width() * surface.get_height() * surface.get_bytesize()


@lru_cache(maxsize=8)
def sky_bands(height: int) -> tuple[tuple[tuple[int, int, int], int, int], ...]:
    """The sky's vertical gradient as bands of one colour: (colour, top, rows) (a few hundred)."""
    bands: list[list] = []
    for y in range(height):
        t = y / max(1, height - 1)
        colour = tuple(round(a + (b - a) * t) for a, b in zip(SKY_TOP, SKY_BOTTOM))
        if bands and bands[-1][0] == colour:
            bands[-1][2] += 1
        else:
            bands.append([colour, y, 1])
    return tuple((colour, top, rows) for colour, top, rows in bands)


def paint_sky(surface: pygame.Surface, area: pygame.Rect | None = None) -> None:
    """A calm vertical gradient over the whole of `surface` (or its `area` alone), filled band
    by band: as quick as blitting a picture of it, and no screen-sized picture kept (8 MB at
    full HD)."""
    width = surface.get_width()
    if area is None:
        for colour, top, rows in sky_bands(surface.get_height()):
            surface.fill(colour, (0, top, width, rows))
        return
    for colour, top, rows in sky_bands(surface.get_height()):
        if top + rows > area.top and top < area.bottom:
            surface.fill(colour, pygame.Rect(area.x, top, area.w, rows).clip(area))
