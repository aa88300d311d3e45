"""An on-screen keyboard for names in the players' language, shaped like a real one: English
QWERTY, German QWERTZ with ä ö ü ß, Hungarian QWERTZ with á é í ó ö ő ú ü ű; rows staggered
as on a keyboard, at every size (in portrait the keys are narrower, never fewer to a row).

A physical keyboard types into it too (text input, Backspace, Enter, Escape).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

import pygame

from ... import i18n
from ..kit import theme as th
from ..kit.layout import GAP, MIN_TARGET, cols, grid, rows
from ..kit.siblings import one_size
from ..kit.widgets import Button, Label, Panel, Widget
from .base import Screen

_ = i18n.translator("app")

MAX_NAME = 16
# (offset in keys, letters) per row, top to bottom, as the language's own keyboard has them
LAYOUTS: dict[str, tuple[tuple[float, str], ...]] = {
    "en": ((0, "qwertyuiop"), (0.25, "asdfghjkl'"), (0.75, "zxcvbnm-")),
    "de": ((0, "qwertzuiopü"), (0.25, "asdfghjklöä"), (0.75, "yxcvbnmß-'")),
    "hu": ((9.25, "öüó"), (0, "qwertzuiopőú"), (0.25, "asdfghjkléáű"), (0, "íyxcvbnm-'")),
}
# the letters of other languages' names (an "András" at an English table), a tap away
ACCENTS: tuple[tuple[float, str], ...] = ((0, "áéíóöőúüű"), (0.25, "äßàèêëïñç"), (0.75, "åøæâôûœ"))
KEY_MIN_W = 32  # design px: a key as narrow as a phone's, but each as tall as any target


def layout(language: str) -> tuple[tuple[float, str], ...]:
    return LAYOUTS.get(language, LAYOUTS["en"])


class KeyButton(Button):
    """A letter key: full height (48 design px at least), narrower where a row needs it, like
    every phone's keyboard (the keys touch, so the whole pitch is the target)."""

    def too_small(self, theme) -> bool:
        return self.rect.h < theme.px(MIN_TARGET) - 1 or self.rect.w < theme.px(KEY_MIN_W) - 1


class KeyboardScreen(Screen):
    def __init__(self, app, title: str, text: str, on_done: Callable[[str], None], suggestions: Sequence[str] = ()):
        super().__init__(app)
        self.heading, self.text, self.on_done = title, text, on_done
        self.suggestions = list(suggestions)  # names played before, the most recent first
        self.shift = not text  # a name starts with a capital
        self.accents = False  # the accented letters instead of the language's own rows

    def title(self) -> str:
        return self.heading

    def build(self, f, t):
        c = f.content
        gap = f.u(GAP)
        key_rows = ACCENTS if self.accents else layout(i18n.current_language())
        name_size = "prompt"
        if f.portrait:  # the keys at the bottom, where thumbs reach; the name just above them
            # large keys: portrait has height. Without names played before to offer above the
            # name, the room they would take goes to larger keys and the name in large type
            # (one layout for the whole typing: the keys never move under a finger)
            offers = bool(self.suggestions)
            lines_n = len(key_rows) + 2
            row_h = min(f.u(80 if offers else 96), (c.h - f.u(200)) // lines_n)
            keys = pygame.Rect(c.x, c.bottom - row_h * lines_n, c.w, row_h * lines_n)
            field_h = f.u(64) if offers else max(f.u(64), min(f.u(150), keys.y - c.y - 2 * gap))
            field_rect = pygame.Rect(c.x, keys.y - field_h - f.u(16), c.w, field_h)
            above = pygame.Rect(c.x, c.y, c.w, field_rect.y - gap - c.y)
            name_size = "prompt" if offers or field_h < f.u(120) else "display"
        else:
            field_rect, keys = rows(c, [1, 6], gap)
            above = None
        shown = self.text + "|"
        out: list[Widget] = [
            Panel(field_rect, key="field"),
            Label(field_rect.inflate(-f.u(24), 0), shown, name_size, align="left", key="typed"),
        ]
        if above is not None:
            out += self.suggestion_widgets(f, above)
        key_gap = f.u(3)
        lines = rows(keys, len(key_rows) + (2 if f.portrait else 1), key_gap)
        units = max(offset + len(letters) for offset, letters in key_rows)
        pitch = (keys.w + key_gap) / units
        for line, (offset, letters) in zip(lines, key_rows):
            for i, letter in enumerate(letters):
                x = keys.x + round((offset + i) * pitch)
                cell = pygame.Rect(x, line.y, round((offset + i + 1) * pitch) - (x - keys.x) - key_gap, line.h)
                shown_letter = letter.upper() if self.shift and letter != "ß" else letter
                out.append(
                    KeyButton(
                        cell,
                        shown_letter,
                        lambda ch=shown_letter: self.add(ch),
                        kind="choice",
                        key=f"key:{letter}",
                        size="title",
                        wrap=False,
                    )
                )
        if f.portrait:  # the command keys on two rows
            shift, accents, space, delete = cols(lines[-2], [1.5, 0.9, 1.8, 1.3], gap)
            cancel, done = cols(lines[-1], 2, gap)
        else:
            shift, accents, space, delete, cancel, done = cols(lines[-1], [1.4, 1, 2.6, 1.4, 1.6, 1.6], gap)
        out += [
            Button(
                accents,
                "abc" if self.accents else "áé",
                self.toggle_accents,
                kind="secondary",
                selected=self.accents,
                key="accents",
                wrap=False,
            ),
            Button(
                shift, _("Shift"), self.toggle_shift, kind="secondary", selected=self.shift, key="shift", wrap=False
            ),
            Button(space, _("Space"), lambda: self.add(" "), kind="choice", key="space", wrap=False),
            Button(delete, _("Delete"), self.delete, kind="secondary", key="delete", wrap=False),
            Button(cancel, _("Cancel"), self.app.back, kind="secondary", key="cancel", wrap=False),
            Button(done, _("Done"), self.done, enabled=bool(self.text.strip()), key="done", wrap=False),
        ]
        # the command keys, of several widths, at one size (the size their most crowded one fits)
        one_size([key for key in out[-6:] if isinstance(key, Button)], t)
        return out

    def matching(self) -> list[str]:
        """The names played before that begin with what is typed (all of them before a letter)."""
        typed = " ".join(self.text.split()).casefold()
        return [name for name in self.suggestions if name.casefold().startswith(typed) and name.casefold() != typed]

    def suggestion_widgets(self, f, area: pygame.Rect) -> list[Widget]:
        """Portrait's room above the name: the names played before as buttons, a tap for the
        whole name, as many rows of two as fit under their caption."""
        names = self.matching()
        gap = f.u(GAP)
        caption_h, row_h = f.u(40), f.u(64)
        fit = max(0, (area.h - caption_h - gap) // (row_h + gap))
        if not names or fit == 0:
            return []
        names = names[: fit * 2]
        used = -(-len(names) // 2)
        block = pygame.Rect(area.x, area.bottom - caption_h - gap - used * (row_h + gap), area.w, 0)
        block.h = area.bottom - block.y
        caption = pygame.Rect(block.x, block.y, block.w, caption_h)
        grid_rect = pygame.Rect(block.x, caption.bottom + gap, block.w, used * (row_h + gap) - gap)
        out: list[Widget] = [Label(caption, _("Played before"), "small", align="left", colour=th.INK_SOFT)]
        for rect, name in zip(grid(grid_rect, len(names), 2, gap), names):
            out.append(Button(rect, name, partial(self.choose, name), kind="choice", key=f"known:{name}"))
        return out

    def choose(self, name: str) -> None:
        self.text = name
        self.done()

    def add(self, letters: str) -> None:
        if len(self.text) + len(letters) <= MAX_NAME:
            self.text += letters
        self.shift = self.accents = False  # one accented letter, then back to the letters
        self.refresh()

    def toggle_accents(self) -> None:
        self.accents = not self.accents
        self.refresh()

    def delete(self) -> None:
        self.text = self.text[:-1]
        self.shift = not self.text
        self.refresh()

    def toggle_shift(self) -> None:
        self.shift = not self.shift
        self.refresh()

    def done(self) -> None:
        name = " ".join(self.text.split())
        if name:
            self.app.back()
            self.on_done(name)

    def on_text(self, text: str) -> bool:
        self.add(text)
        return True

    def on_key(self, event) -> bool:
        if event.key == pygame.K_BACKSPACE:
            self.delete()
            return True
        if event.key in (pygame.K_RETURN, pygame.K_KP_ENTER) and self.app.focused() is None:
            self.done()
            return True
        # a printable key arrives again as text input (on_text); keep it from moving focus
        return bool(event.unicode and event.unicode.isprintable())

    def wants_text(self) -> bool:
        return True
