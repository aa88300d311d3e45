"""An on-screen keyboard for names, with the German and Hungarian letters (ä ö ü ß á é í ó ú ő ű).

A physical keyboard types into it too (text input, Backspace, Enter, Escape).
"""

from __future__ import annotations

from typing import Callable

import pygame

from ... import i18n
from ..layout import GAP, cols, rows
from ..widgets import Button, Label, Panel, Widget
from .base import Screen

_ = i18n.translator("app")

MAX_NAME = 16
PORTRAIT_KEYS = 8
LETTER_ROWS = (
    "1234567890",
    "qwertzuiop",
    "asdfghjkl-",
    "yxcvbnm.'",
    "äöüßáéíóőúű",
)


class KeyboardScreen(Screen):
    def __init__(self, app, title: str, text: str, on_done: Callable[[str], None]):
        super().__init__(app)
        self.heading, self.text, self.on_done = title, text, on_done
        self.shift = not text  # a name starts with a capital

    def title(self) -> str:
        return self.heading

    def build(self, f, t):
        c = f.content
        gap = f.u(GAP)
        letter_rows = LETTER_ROWS
        if f.portrait:  # too narrow for 10 keys of 48 px: 8 to a row, keys at the bottom
            letters = "".join(LETTER_ROWS)
            letter_rows = tuple(letters[i:i + PORTRAIT_KEYS] for i in range(0, len(letters), PORTRAIT_KEYS))
            keys = pygame.Rect(c.x, c.bottom - f.u(60) * (len(letter_rows) + 2), c.w, f.u(60) * (len(letter_rows) + 2))
            field_rect = pygame.Rect(c.x, keys.y - f.u(80), c.w, f.u(64))
        else:
            field_rect, keys = rows(c, [1, 6], gap)
        shown = self.text + "|"
        out: list[Widget] = [Panel(field_rect, key="field"),
                             Label(field_rect.inflate(-f.u(24), 0), shown, "prompt", align="left", key="typed")]
        if f.portrait:
            gap = f.u(4)
        key_rows = rows(keys, len(letter_rows) + (2 if f.portrait else 1), gap)
        per_row = max(len(r) for r in letter_rows[:-1] or letter_rows)
        for row_rect, letters in zip(key_rows, letter_rows):
            for cell, letter in zip(cols(row_rect, max(per_row, len(letters)), gap), letters):
                shown_letter = letter.upper() if self.shift and letter != "ß" else letter
                out.append(Button(cell, shown_letter, lambda ch=shown_letter: self.add(ch), kind="choice",
                                  key=f"key:{letter}", size="title", wrap=False))
        if f.portrait:  # the command keys on two rows
            shift, space, delete = cols(key_rows[-2], [1.3, 2, 1.3], gap)
            cancel, done = cols(key_rows[-1], 2, gap)
        else:
            shift, space, delete, cancel, done = cols(key_rows[-1], [1.4, 3, 1.4, 1.6, 1.6], gap)
        out += [
            Button(shift, _("Shift"), self.toggle_shift, kind="secondary", selected=self.shift, key="shift", wrap=False),
            Button(space, _("Space"), lambda: self.add(" "), kind="choice", key="space", wrap=False),
            Button(delete, _("Delete"), self.delete, kind="secondary", key="delete", wrap=False),
            Button(cancel, _("Cancel"), self.app.back, kind="secondary", key="cancel", wrap=False),
            Button(done, _("Done"), self.done, enabled=bool(self.text.strip()), key="done", wrap=False),
        ]
        return out

    def add(self, letters: str) -> None:
        if len(self.text) + len(letters) <= MAX_NAME:
            self.text += letters
        self.shift = False
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
