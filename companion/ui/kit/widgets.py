"""Widgets: plain objects with a screen-pixel rect that draw themselves and know if their text fits.

Screens rebuild their widget list whenever something changes (see screens/base.py), so widgets
hold no state of their own beyond what they were built with; focus and the pressed button live
in the app and reach `draw` through the DrawContext.
"""

from __future__ import annotations

import weakref
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Protocol

import pygame

from . import theme as th
from .layout import GAP, MIN_TARGET
from .shapes import draw_token, draw_undo_arrow
from .theme import Theme

Colour = tuple[int, int, int]


class Painter(Protocol):
    """What a Picture draws with, called with (surface, rect); what it returns goes unused. A
    lambda's further parameters hold the plain values it draws from, as defaults (painter_key)."""

    def __call__(self, surface: pygame.Surface, rect: pygame.Rect, /) -> object: ...


@dataclass
class DrawContext:
    theme: Theme
    focused: Widget | None = None
    pressed: Widget | None = None
    now: float = 0.0


@dataclass(frozen=True)
class Fitted:
    px: int
    lines: tuple[str, ...]
    overflow: bool


def _words(paragraph: str) -> list[str]:
    """The paragraph's words, a number kept with the name before it ("Cloud 9", "Zsolt 15"):
    a line never starts with a bare number that belongs to the previous line. After a colon
    or a comma the line may break ("Rise:" / "77%")."""
    words: list[str] = []
    for word in paragraph.split(" "):
        if words and words[-1][-1:].isalpha() and word.strip("+-–:,.·/()%").isdigit():
            words[-1] = f"{words[-1]} {word}"
        else:
            words.append(word)
    return words


def _hyphen_parts(word: str, font, width: int) -> list[str]:
    """A word wider than `width` broken after its hyphens ("Annemarie-" / "Josephine"), else
    the word: a long double name in a narrow card goes onto two lines rather than out of it.
    (Its parts never join again on one line: together they are wider than the word.)"""
    if "-" not in word.strip("-") or font.size(word)[0] <= width:
        return [word]
    parts = [part + "-" for part in word.split("-")]
    parts[-1] = parts[-1][:-1]
    return [part for part in parts if part not in ("", "-")] if all(p.strip("-") for p in parts) else [word]


def _greedy(words: list[str], font, width: int) -> list[str]:
    lines: list[str] = []
    line = ""
    for word in words:
        trial = f"{line} {word}" if line else word
        if font.size(trial)[0] <= width or not line:
            line = trial
        else:
            lines.append(line)
            line = word
    return lines + [line]


def _lone(lines: list[str]) -> int:
    return sum(" " not in line for line in lines)


# what a line costs in `_settled` (lower is better): one word alone on it, more if it is the
# paragraph's last, more if the word is a short one ("den", "1": a long word alone, a name's
# half, reads well)
LONE, LONE_LAST, SHORT_LONE, SHORT = 1000, 500, 30, 4


def _blemish(line: str, last: bool) -> int:
    if " " in line:
        return 0
    return LONE + (LONE_LAST if last else 0) + SHORT_LONE * max(0, SHORT - len(line))


PHRASE_ENDS = (":", ";", ",", ".", "!", "?")
PHRASE_WEIGHT = 1000  # more lines than any paragraph has


def _settled(words: list[str], font, width: int, count: int) -> list[str] | None:
    """The wrap into `count` lines within `width` whose lone words cost least (`_blemish`; a
    word wider than `width` stands alone), of those the one with the most lines that end a
    phrase (at a colon, a comma...), and of those the one whose first lines are fullest, as the
    greedy wrap's are; None when there is none."""
    n = len(words)
    reached: dict[int, int] = {}
    fewest_from: dict[int, int] = {n: 0}

    def reach(i: int) -> int:
        """The line from word i takes words[i:reach(i)] at most."""
        if i not in reached:
            j = i + 1
            while j < n and font.size(" ".join(words[i : j + 1]))[0] <= width:
                j += 1
            reached[i] = j
        return reached[i]

    def fewest(i: int) -> int:
        """The fewest lines words[i:] go into (the greedy wrap's)."""
        if i not in fewest_from:
            fewest_from[i] = 1 + fewest(reach(i))
        return fewest_from[i]

    # a line's cost: its blemish (only a line of one word has one), PHRASE_WEIGHT times (two
    # blemishes differ by 30 at least, so no count of phrase ends can outweigh that), less one
    # if it ends a phrase
    ends = [1 if word.endswith(PHRASE_ENDS) else 0 for word in words]
    least: dict[tuple[int, int], tuple[int, int] | None] = {}  # (i, lines) -> (cost, where the next line starts)

    def cost(i: int, left: int) -> int | None:
        """The least cost of words[i:] in `left` lines (None: they do not go into so many)."""
        found: tuple[int, int] | None
        if (i, left) in least:
            known = least[(i, left)]
            return None if known is None else known[0]
        if left == 1:
            if reach(i) < n:
                return None
            least[(i, left)] = found = (_blemish(words[i], True) * PHRASE_WEIGHT if n == i + 1 else 0, n)
            return found[0]
        found = None
        for j in range(i + 1, min(reach(i), n - left + 1) + 1):
            if fewest(j) > left - 1:
                continue
            rest = cost(j, left - 1)
            if rest is None:
                continue
            here = (_blemish(words[i], False) * PHRASE_WEIGHT if j == i + 1 else 0) - ends[j - 1] + rest
            if found is None or here <= found[0]:  # ties: the longer line
                found = (here, j)
        least[(i, left)] = found
        return None if found is None else found[0]

    if cost(0, count) is None:
        return None
    wrapped, i = [], 0
    for left in range(count, 0, -1):
        step = least[(i, left)]
        assert step is not None  # cost(0, count) found a way, through these steps
        j = step[1]
        wrapped.append(" ".join(words[i:j]))
        i = j
    return wrapped


def _blemishes(lines: list[str]) -> int:
    return sum(_blemish(line, k == len(lines) - 1) for k, line in enumerate(lines))


def wrap_lines(text: str, px: int, width: int, weight: str = "bold") -> list[str]:
    """Greedy word wrap; a single word wider than `width` stays whole (and will not fit). Where
    the greedy wrap leaves a word alone on a line, the paragraph is wrapped again into as many
    lines with the fewest lone words, the last line never a lone word when the lines above can
    spare one, and a short word alone least of all ("Jürgen ließ" / "den" / "Ballon sinken"
    becomes "Jürgen" / "ließ den" / "Ballon sinken"; "1 rossz" / "lapot" becomes "1" /
    "rossz lapot"), its lines ending where phrases do where they can (`_settled`)."""
    font = th.font(px, weight)
    lines: list[str] = []
    for paragraph in text.split("\n"):
        words = [part for word in _words(paragraph) for part in _hyphen_parts(word, font, width)]
        mine = _greedy(words, font, width)
        if len(mine) >= 2 and _lone(mine):
            settled = _settled(words, font, width, len(mine))
            if settled is not None and _blemishes(settled) < _blemishes(mine):
                mine = settled
        lines += mine
    return lines


@lru_cache(maxsize=2048)
def fit_text(text: str, width: int, height: int, px: int, min_px: int, wrap: bool, weight: str = "bold") -> Fitted:
    """The largest size from `px` down to `min_px` at which `text` fits the box (remembered:
    screens are rebuilt on every change, mostly with the same texts in the same boxes)."""
    size = px
    while True:
        font = th.font(size, weight)
        lines = wrap_lines(text, size, width, weight) if wrap else text.split("\n")
        fits = all(font.size(line)[0] <= width for line in lines) and font.fits_height(lines, height)
        if fits or size <= min_px:
            return Fitted(size, tuple(lines), not fits)
        size = max(min_px, size - max(1, size // 12))


def flat(widgets: list[Widget]) -> list[Widget]:
    """The widgets in drawing order, those a picture holds (a board's snapshot) in its place."""
    out: list[Widget] = []
    for widget in widgets:
        children = getattr(widget, "children", None)
        out += flat(children) if isinstance(children, list) else [widget]
    return out


class Widget:
    focusable = False

    def __init__(self, rect: pygame.Rect | tuple, key: str | None = None):
        self.rect = pygame.Rect(rect)
        self.key = key

    @property
    def enabled(self) -> bool:
        return True

    def draw(self, surface: pygame.Surface, ctx: DrawContext) -> None:
        pass

    def pieces(self, ctx: DrawContext) -> list[tuple[Widget, pygame.Rect | None]] | None:
        """Where drawing this widget is only drawing others (a picture of a board's parts): those
        widgets in their order, each with the box it is clipped to (None: not clipped), so that
        a frame is painted again only where one of them changed. None: it draws itself."""
        return None

    def signature(self, ctx: DrawContext) -> tuple | None:
        """Everything its pixels depend on, where they depend on nothing else (not the time, not
        a screen's state): two widgets with equal signatures draw the same pixels, so a frame
        of them may be kept and shown again (App.draw). None: not known, always drawn."""
        return None

    def overflow(self, theme: Theme) -> list[str]:
        """Texts that do not fit their box even at the smallest allowed size."""
        return []

    def texts(self) -> list[str]:
        return []

    def accepts_tap(self) -> bool:
        return False

    def activate(self) -> None:
        pass


class Panel(Widget):
    """A white card with rounded corners; `stripe` paints a player's colour down its left side."""

    def __init__(
        self,
        rect,
        colour: Colour = th.CARD,
        stripe: Colour | None = None,
        border: Colour | None = th.CARD_LINE,
        radius: float = 12,
        key: str | None = None,
        highlight: Colour | None = None,
    ):
        super().__init__(rect, key)
        self.colour, self.stripe, self.border, self.radius = colour, stripe, border, radius
        self.highlight = highlight

    def signature(self, ctx):
        if type(self).draw is not Panel.draw:
            return None
        return (type(self), tuple(self.rect), self.colour, self.stripe, self.border, self.radius, self.highlight)

    def draw(self, surface, ctx):
        r = ctx.theme.px(self.radius)
        pygame.draw.rect(surface, self.colour, self.rect, border_radius=r)
        if self.stripe:
            strip = pygame.Rect(self.rect.x, self.rect.y, ctx.theme.px(10), self.rect.h)
            pygame.draw.rect(surface, self.stripe, strip, border_top_left_radius=r, border_bottom_left_radius=r)
        if self.highlight:
            pygame.draw.rect(surface, self.highlight, self.rect, ctx.theme.px(4), border_radius=r)
        elif self.border:
            pygame.draw.rect(surface, self.border, self.rect, max(1, ctx.theme.px(1.5)), border_radius=r)


# where a line's image has letters, found once per image (fitting asks it at every rebuild)
_PAINTED: weakref.WeakKeyDictionary[pygame.Surface, pygame.Rect] = weakref.WeakKeyDictionary()


def _painted_box(image: pygame.Surface) -> pygame.Rect:
    box = _PAINTED.get(image)
    if box is None:
        box = _PAINTED[image] = image.get_bounding_rect()
    return pygame.Rect(box)


# where labels' lines went, by what places them: the lines and their boxes, not their images
# (those are the theme's, kept within its byte budget; held here, a thousand labels' images
# were 12 MiB after an evening)
PLACED_CACHE = 1024
_PLACED: OrderedDict[tuple, tuple] = OrderedDict()


class Label(Widget):
    """Text that shrinks to fit its box (never under `min_size`), optionally wrapped."""

    # (scale, colour) -> each line's image and box; unset until first placed
    _placed: tuple[tuple[float, Colour], list[tuple[pygame.Surface, pygame.Rect]]] | None

    def __init__(
        self,
        rect,
        text: str,
        size: str | float = "body",
        colour: Colour = th.INK,
        align: str = "center",
        wrap: bool = False,
        min_size: str | float = "min",
        key: str | None = None,
        weight: str | None = None,
    ):
        super().__init__(rect, key)
        self.text, self.size, self.colour, self.align = str(text), size, colour, align
        self.wrap, self.min_size = wrap, min_size
        self.weight = weight or th.weight_of(size)
        self._fitted: tuple[float, Fitted] | None = None
        self.made_sizes = (size, min_size)  # what at_most goes back to

    def fitted(self, theme: Theme) -> Fitted:
        if self._fitted is None or self._fitted[0] != theme.scale:
            self._fitted = (
                theme.scale,
                fit_text(
                    self.text,
                    self.rect.w,
                    self.rect.h,
                    theme.size(self.size),
                    theme.size(self.min_size),
                    self.wrap,
                    self.weight,
                ),
            )
        return self._fitted[1]

    def at_most(self, px: int | None, theme: Theme) -> None:
        """Set no larger than `px` screen pixels (under a larger heading; None: as made), a
        smaller box still shrinking it. A label kept from an earlier build is capped anew."""
        size, least = self.made_sizes
        if px is not None and theme.size(size) > px:
            size = px / theme.scale
            least = size if theme.size(least) > px else least
        if (size, least) != (self.size, self.min_size):
            self.size, self.min_size = size, least
            self._fitted = self._placed = None

    def signature(self, ctx):
        if type(self).draw is not Label.draw:
            return None
        return (
            type(self),
            tuple(self.rect),
            self.text,
            self.size,
            self.colour,
            self.align,
            self.wrap,
            self.min_size,
            self.weight,
        )

    def overflow(self, theme):
        return [self.text] if self.text and self.fitted(theme).overflow else []

    def texts(self):
        return [self.text]

    def placed(self, theme: Theme) -> list[tuple[pygame.Surface, pygame.Rect]]:
        """Each line's image and where it is drawn."""
        if not self.text:
            return []
        key = (theme.scale, self.colour)
        cached = getattr(self, "_placed", None)
        if cached is not None and cached[0] == key:
            return cached[1]
        # screens are rebuilt on every change, mostly with the same labels in the same places:
        # where a label like this one was placed last time is remembered across rebuilds
        shared = (
            self.text,
            tuple(self.rect),
            self.size,
            self.min_size,
            self.wrap,
            self.weight,
            self.align,
            self.colour,
            theme.scale,
        )
        layout = _PLACED.get(shared)
        if layout is None:
            layout = _PLACED[shared] = self._place(theme)
            if len(_PLACED) > PLACED_CACHE:
                _PLACED.popitem(last=False)
        else:
            _PLACED.move_to_end(shared)
        self._placed = (key, self._imaged(theme, layout))
        return self._placed[1]

    def _imaged(self, theme: Theme, layout: tuple) -> list[tuple[pygame.Surface, pygame.Rect]]:
        px, lines = layout
        return [(theme.text(line, px, self.colour, self.weight), box) for line, box in lines]

    def _place(self, theme: Theme) -> tuple[int, tuple[tuple[str, pygame.Rect], ...]]:
        """The size the lines are drawn at, and each line with the box its image goes in."""
        fit = self.fitted(theme)
        face = th.font(fit.px, self.weight)
        line_h = face.get_linesize()
        # the block from the highest accent to the lowest descender, centred in the box
        y = self.rect.y + face.first_baseline(len(fit.lines), self.rect.h) - face.above
        out = []
        for line in fit.lines:
            image = theme.text(line, fit.px, self.colour, self.weight)  # its size places it
            box = image.get_rect(top=y)
            if self.align == "left":
                box.left = self.rect.left
            elif self.align == "right":
                box.right = self.rect.right
            else:
                box.centerx = self.rect.centerx
            out.append((line, box))
            y += line_h
        return fit.px, tuple(out)

    def ink(self, theme: Theme) -> list[pygame.Rect]:
        """Where each line's letters are (their painted pixels), as drawn without clipping."""
        return [
            _painted_box(image).move(box.topleft)
            for image, box in self.placed(theme)
            if image.get_width() and image.get_height()
        ]

    def clipped(self, theme: Theme) -> list[str]:
        """Lines whose letters reach out of the box (drawing clips them: a line cut through)."""
        lines = self.fitted(theme).lines if self.text else ()
        return [line for line, ink in zip(lines, self.ink(theme)) if ink.w and not self.rect.contains(ink)]

    def draw(self, surface, ctx):
        if not self.text:
            return
        clip = surface.get_clip()
        surface.set_clip(self.rect.clip(clip) if clip else self.rect)
        for image, box in self.placed(ctx.theme):
            surface.blit(image, box)
        surface.set_clip(clip)


class Token(Widget):
    """A game colour as its shape (the table in docs/reference/screens.md)."""

    def __init__(self, rect, colour: str, key: str | None = None):
        super().__init__(rect, key)
        self.colour = colour

    def signature(self, ctx):
        return (type(self), tuple(self.rect), self.colour) if type(self).draw is Token.draw else None

    def draw(self, surface, ctx):
        draw_token(surface, self.colour, self.rect.center, min(self.rect.w, self.rect.h) / 2 * 0.9)


class PlayerToken(Widget):
    """A player: a disc in their colour with their initial, ringed in ink. Round with a letter,
    so it is never taken for a die face or a bed (those are the colour's shape)."""

    def __init__(self, rect, name: str, colour: str, key: str | None = None, mark: str | None = None):
        super().__init__(rect, key)
        self.name, self.colour, self.mark = name, colour, mark

    def signature(self, ctx):
        if type(self).draw is not PlayerToken.draw:
            return None
        return (type(self), tuple(self.rect), self.name, self.colour, self.mark)

    def draw(self, surface, ctx):
        draw_player_token(
            surface,
            self.mark or self.name,
            self.colour,
            self.rect.center,
            min(self.rect.w, self.rect.h) / 2 * 0.92,
            ctx.theme,
        )


def initial(name: str) -> str:
    """The letter a player's token shows (the first letter, as written: "Ádám" shows "Á")."""
    stripped = name.strip()
    return stripped[:1].upper() if stripped else "?"


def token_marks(names: list[str]) -> dict[str, str]:
    """What each player's token shows: the initial, or where two share it the first two letters
    ("Bl", "Br"), else the initial and the player's place ("B1", "B2")."""
    marks: dict[str, str] = {}
    for name in names:
        letters = name.strip() or "?"
        same = [other for other in names if initial(other) == initial(name)]
        if len(same) == 1:
            marks[name] = initial(name)
        elif len({(o.strip() or "?")[:2].lower() for o in same}) == len(same):
            marks[name] = letters[:1].upper() + letters[1:2].lower()
        else:
            marks[name] = f"{initial(name)}{same.index(name) + 1}"
    return marks


def draw_player_token(
    surface: pygame.Surface, name: str, colour: str, center, radius: float, theme: Theme | None = None
) -> None:
    rgb = th.COLOURS[colour].rgb if colour in th.COLOURS else th.INK_SOFT
    radius = max(4, int(radius))
    pygame.draw.circle(surface, th.INK, center, radius)
    pygame.draw.circle(surface, rgb, center, max(2, radius - max(2, radius // 7)))
    mark = name if len(name) <= 2 else initial(name)  # a mark from token_marks, or a name
    px = max(8, round(radius * (1.15 if len(mark) == 1 else 0.85)))
    image = (
        theme.text(mark, px, th.text_on(rgb)) if theme is not None else th.font(px).render(mark, True, th.text_on(rgb))
    )
    surface.blit(image, image.get_rect(center=(center[0], center[1] + px // 14)))


KINDS: dict[str, tuple[Colour, Colour]] = {  # background, text
    "primary": (th.PRIMARY, (255, 255, 255)),
    "secondary": (th.SECONDARY, th.INK),
    "danger": (th.DANGER, (255, 255, 255)),
    "good": (th.GOOD, (255, 255, 255)),
    "choice": (th.CARD, th.INK),
}


class Button(Widget):
    """A tap target of at least 48x48 design pixels.

    A disabled button with `on_refused` still reacts to a tap, by explaining why not (game
    screens use it to let the rules core name the rule); without it a disabled button is inert.
    """

    focusable = True

    def __init__(
        self,
        rect,
        text: str,
        on_tap: Callable[[], Any] | None,
        kind: str = "primary",
        enabled: bool = True,
        selected: bool = False,
        key: str | None = None,
        size: str | float = "body",
        icon: Callable[[pygame.Surface, pygame.Rect, Colour], None] | str | None = None,
        hotkey: int | None = None,
        on_refused: Callable[[], Any] | None = None,
        wrap: bool = True,
    ):
        super().__init__(rect, key or text)
        self.text, self.on_tap, self.kind = text, on_tap, kind
        self._enabled, self.selected, self.icon, self.hotkey = enabled, selected, icon, hotkey
        self.on_refused = on_refused
        self.label = Label(self._label_rect(), text, size=size, wrap=wrap, weight="bold")

    def _label_rect(self) -> pygame.Rect:
        if not self.icon:  # the words clear of the edges by a share of the button (a tall one's more)
            side = min(self.rect.h, self.rect.w)
            return self.rect.inflate(-2 * max(6, side // 8), -2 * max(3, side // 14))
        side = min(self.rect.h, self.rect.w)
        if not self.text:
            return pygame.Rect(self.rect.x, self.rect.y, 0, 0)
        pad_y = max(3, side // 14)  # the words clear of the top and the bottom, as without an icon
        return pygame.Rect(
            self.rect.x + side * 0.9, self.rect.y + pad_y, self.rect.w - side * 0.9 - 8, self.rect.h - 2 * pad_y
        )

    @property
    def enabled(self) -> bool:
        return self._enabled

    def accepts_tap(self) -> bool:
        return self._enabled or self.on_refused is not None

    def activate(self):
        if self._enabled:
            if self.on_tap:
                self.on_tap()
        elif self.on_refused:
            self.on_refused()

    def texts(self):
        return [self.text] if self.text else []

    def overflow(self, theme):
        return self.label.overflow(theme)

    def signature(self, ctx):
        icon = self.icon if isinstance(self.icon, str) or self.icon is None else painter_key(self.icon)
        if type(self).draw is not Button.draw or icon is None and self.icon is not None:
            return None
        return (
            type(self),
            tuple(self.rect),
            self.text,
            self.kind,
            self._enabled,
            self.selected,
            icon,
            self.label.size,
            self.label.wrap,
            ctx.pressed is self,
            ctx.focused is self,
        )

    def too_small(self, theme: Theme) -> bool:
        return min(self.rect.w, self.rect.h) < theme.px(MIN_TARGET) - 1

    def draw(self, surface, ctx):
        t = ctx.theme
        bg, ink = KINDS[self.kind]
        if self.selected:
            bg, ink = th.PRIMARY, (255, 255, 255)
        if not self._enabled:
            bg, ink = th.DISABLED, th.DISABLED_INK
        elif ctx.pressed is self:
            bg = (
                th.PRIMARY_DOWN
                if self.kind in ("primary", "choice", "secondary") or self.selected
                else tuple(max(0, c - 40) for c in bg)
            )
            ink = (255, 255, 255)
        radius = t.px(12)
        pygame.draw.rect(surface, bg, self.rect, border_radius=radius)
        if self.kind in ("choice", "secondary") and self._enabled and not self.selected:
            pygame.draw.rect(surface, th.CARD_LINE, self.rect, max(1, t.px(2)), border_radius=radius)
        if ctx.focused is self:
            pygame.draw.rect(
                surface, th.FOCUS, self.rect.inflate(t.px(6), t.px(6)), t.px(4), border_radius=radius + t.px(3)
            )
        if self.icon:
            side = min(self.rect.h, self.rect.w)
            box = pygame.Rect(0, 0, side * 0.8, side * 0.8)
            box.center = (self.rect.x + side / 2, self.rect.centery) if self.text else self.rect.center
            if isinstance(self.icon, str):
                draw_token(surface, self.icon, box.center, box.w / 2 * 0.85)
            else:
                self.icon(surface, box, ink)
        self.label.colour = ink
        self.label.draw(surface, ctx)


def undo_icon(surface: pygame.Surface, rect: pygame.Rect, colour: Colour) -> None:
    draw_undo_arrow(surface, rect, colour)


def chevron_left(surface: pygame.Surface, rect: pygame.Rect, colour: Colour) -> None:
    w = max(3, rect.w // 7)
    cx, cy, r = rect.centerx, rect.centery, rect.w * 0.28
    pygame.draw.lines(surface, colour, False, [(cx + r * 0.5, cy - r), (cx - r * 0.5, cy), (cx + r * 0.5, cy + r)], w)


def menu_icon(surface: pygame.Surface, rect: pygame.Rect, colour: Colour) -> None:
    w = max(3, rect.h // 9)
    for dy in (-0.25, 0, 0.25):
        y = rect.centery + rect.h * dy
        pygame.draw.line(surface, colour, (rect.x + rect.w * 0.2, y), (rect.right - rect.w * 0.2, y), w)


@dataclass
class Badge:
    """A small pill in the top bar (simulated hardware, sensor status)."""

    text: str
    colour: Colour = th.INK_SOFT
    short: str = ""  # used when the bar is too narrow for `text`
    urgent: bool = False  # a warning: shortened last

    def __post_init__(self):
        self.short = self.short or self.text


def badge_widgets(rect: pygame.Rect, badges: list[Badge], theme: Theme) -> list[Widget]:
    out: list[Widget] = []
    x = rect.x
    for badge in badges:
        px = theme.size("min")
        w = theme.measure(badge.text, px)[0] + theme.px(20)
        if x + w > rect.right:  # no room: a label that reports its overflow, so tests notice
            out.append(Label(pygame.Rect(x, rect.y, max(0, rect.right - x), rect.h), badge.text, "min"))
            break
        pill = pygame.Rect(x, rect.y, w, rect.h)
        out.append(Panel(pill, colour=badge.colour, border=None, radius=rect.h // 2 / max(theme.scale, 0.01)))
        out.append(Label(pill.inflate(-theme.px(8), 0), badge.text, size="min", colour=th.text_on(badge.colour)))
        x += w + theme.px(GAP)
    return out


@dataclass
class DialogButton:
    text: str
    on_tap: Callable[[], Any]
    kind: str = "primary"


@dataclass
class Dialog:
    """A modal question: nothing else takes taps until one of its buttons is chosen."""

    title: str
    message: str
    buttons: list[DialogButton] = field(default_factory=list)


def player_icon(name: str, colour: str) -> Callable[[pygame.Surface, pygame.Rect, Colour], None]:
    """A Button icon: the player's token (their initial on their colour)."""

    def paint(surface: pygame.Surface, rect: pygame.Rect, _ink: Colour) -> None:
        draw_player_token(surface, name, colour, rect.center, min(rect.w, rect.h) / 2 * 0.9)

    return paint


class Picture(Widget):
    """Something drawn by a function of (surface, rect): a board part without text."""

    def __init__(self, rect, paint: Painter, key: str | None = None, still: bool = False):
        super().__init__(rect, key)
        self.paint = paint
        self.still = still  # `paint` draws the same for the same values it holds (no clock, no state)

    def signature(self, ctx):
        paint = painter_key(self.paint) if self.still and type(self).draw is Picture.draw else None
        return None if paint is None else (type(self), tuple(self.rect), paint)

    def draw(self, surface, ctx):
        self.paint(surface, self.rect)


_SIMPLE = (str, int, float, bool, type(None))


def _plain(value: Any) -> bool:
    """A value that is only what it says: no object whose state could change behind it."""
    if type(value) in _SIMPLE:
        return True
    return type(value) is tuple and all(_plain(v) for v in value)


def painter_key(fn: Callable) -> tuple | None:
    """What a drawing function draws from: its code and the plain values it holds (a lambda's
    defaults, a closure's cells); None where it holds anything else (a screen, a list)."""
    code = getattr(fn, "__code__", None)
    if code is None:
        return None
    values = fn.__defaults__ or ()
    if fn.__kwdefaults__:
        values += tuple(fn.__kwdefaults__.items())
    if fn.__closure__:
        try:
            values += tuple(cell.cell_contents for cell in fn.__closure__)
        except ValueError:  # a cell not filled yet
            return None
    return (code, values) if _plain(values) else None
