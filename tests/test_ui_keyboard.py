"""The on-screen keyboard: each language's own layout, shaped like a keyboard at every size
(rows staggered, never wrapped), and every letter of the three languages a tap or two away."""

from __future__ import annotations

import pytest

from companion import i18n
from companion.ui.kit.layout import SIZES
from companion.ui.screens.keyboard import ACCENTS, LAYOUTS
from companion.ui.tools.harness import Harness


def open_keyboard(size, language) -> Harness:
    h = Harness(size)
    h.app.change_config(language=language)
    h.tap("game:cloudmine")
    h.tap("name:0")
    return h


def key_rows(h: Harness) -> list[list]:
    """The letter keys grouped by their row on screen, top to bottom, each left to right."""
    keys = [w for w in h.widgets() if (w.key or "").startswith("key:")]
    by_row: dict[int, list] = {}
    for key in keys:
        by_row.setdefault(key.rect.y, []).append(key)
    return [sorted(row, key=lambda k: k.rect.x) for _, row in sorted(by_row.items())]


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_each_language_has_its_own_keyboard_in_one_shape_at_every_size(size, language):
    h = open_keyboard(size, language)
    rows = key_rows(h)
    expected = [letters for _offset, letters in LAYOUTS[language]]
    assert ["".join(k.key[4:] for k in row) for row in rows] == expected  # whole rows, never wrapped
    widths = {k.rect.w for row in rows for k in row}
    assert max(widths) - min(widths) <= 2  # keys of one size
    # staggered like a keyboard: the second letter row starts to the right of the first
    first, second = rows[-3], rows[-2]
    assert second[0].rect.x > first[0].rect.x
    assert h.overflows() == [] and h.small_targets() == [] and h.off_canvas() == []


def test_the_first_letters_say_which_layout_it_is():
    for language, top in (("en", "qwerty"), ("de", "qwertz"), ("hu", "qwertz")):
        letters = [letters for _offset, letters in LAYOUTS[language]]
        assert any(row.startswith(top) for row in letters), language
    assert set("äöüß") <= set("".join(r for _o, r in LAYOUTS["de"]))
    assert set("áéíóöőúüű") <= set("".join(r for _o, r in LAYOUTS["hu"]))


def test_an_accented_name_can_be_typed_in_english_too():
    h = open_keyboard((720, 1280), "en")
    h.tap("key:a")  # shift is on for the first letter: "A"
    for letter in "ndr":
        h.tap(f"key:{letter}")
    h.tap("accents")
    assert set("áéíóöőúüű") <= {k.key[4:] for row in key_rows(h) for k in row}
    h.tap("key:á")
    assert not h.find("accents").selected  # back to the letters after one
    h.tap("key:s")
    assert h.screen.text == "András"
    assert all(len(letters) <= 12 for _offset, letters in ACCENTS)
