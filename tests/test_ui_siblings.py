"""Buttons that stand together share one size, and one line count where their words allow."""

from __future__ import annotations

import pygame
import pytest
from hypothesis import given, settings, strategies as st

from companion import i18n
from companion.ui.kit.layout import cols, rows
from companion.ui.kit.siblings import even_siblings, siblings, uneven
from companion.ui.kit.theme import Theme
from companion.ui.kit.widgets import Button, Dialog, DialogButton, Label, Panel
from companion.ui.tools.harness import Harness


@pytest.fixture(scope="module")
def theme():
    pygame.font.init()
    return Theme(1.0)


def row(texts, width=768, height=64, size="title"):
    return [
        Button(r, text, None, size=size)
        for r, text in zip(cols(pygame.Rect(16, 400, width, height), len(texts), 16), texts)
    ]


def shown(button, theme):
    fitted = button.label.fitted(theme)
    return fitted.px, len(fitted.lines)


def test_a_row_whose_middle_words_wrap_goes_onto_one_line_together(theme):
    buttons = row(["Nochmal spielen", "Letzten Schritt zurück", "Startseite"])
    assert uneven(buttons, theme)  # as made: the middle one on two lines
    even_siblings(buttons, theme)
    assert {shown(b, theme) for b in buttons} == {(shown(buttons[0], theme)[0], 1)}
    assert not any(b.label.fitted(theme).overflow for b in buttons)
    assert not uneven(buttons, theme)


def test_words_that_cannot_share_one_line_keep_their_lines_at_one_size(theme):
    # two lines of big words beside a word alone: one line would shrink them by more than a quarter
    buttons = row(["Rise, play the wild card with red", "Fall"], width=400, height=96)
    even_siblings(buttons, theme)
    sizes = {shown(b, theme)[0] for b in buttons}
    assert len(sizes) == 1
    lines = [shown(b, theme)[1] for b in buttons]
    assert lines[0] > 1 and lines[1] == 1
    assert not uneven(buttons, theme)


def test_one_size_for_a_row_whose_words_fit_at_different_sizes(theme):
    buttons = row(["Newer", "Considerably older"], width=300, height=64)
    assert len({shown(b, theme)[0] for b in buttons}) == 2
    even_siblings(buttons, theme)
    assert len({shown(b, theme)[0] for b in buttons}) == 1


def test_a_column_of_one_shape_is_one_group_and_other_shapes_are_not(theme):
    column = [Button(r, t, None) for r, t in zip(rows(pygame.Rect(500, 100, 260, 160), 2, 8), ["Right card", "Wrong"])]
    wider = Button(pygame.Rect(16, 100, 400, 76), "Elsewhere", None)
    alone = Button(pygame.Rect(16, 300, 100, 48), "", None)  # an icon: no words to even out
    groups = siblings([Panel(pygame.Rect(0, 0, 10, 10)), *column, wider, alone])
    assert groups == [column]


@settings(max_examples=60, deadline=None)
@given(
    texts=st.lists(
        st.lists(
            st.sampled_from(["Play", "again", "Undo", "the", "last", "step", "Home", "Szívesen", "zurück"]),
            min_size=1,
            max_size=4,
        ).map(" ".join),
        min_size=2,
        max_size=4,
    ),
    width=st.integers(min_value=240, max_value=1200),
    height=st.integers(min_value=48, max_value=140),
)
def test_evened_rows_share_one_size_and_still_fit(theme, texts, width, height):
    buttons = row(texts, width=width, height=height)
    before = [b.label.fitted(theme) for b in buttons]
    even_siblings(buttons, theme)
    after = [b.label.fitted(theme) for b in buttons]
    assert len({f.px for f in after}) == 1
    assert max(f.px for f in after) <= min(f.px for f in before)  # evened by shrinking, never by growing
    assert all(not f.overflow for f, was in zip(after, before) if not was.overflow)
    assert not uneven(buttons, theme)


def test_a_dialogs_buttons_are_evened_on_the_app():
    h = Harness((800, 480))
    try:
        h.app.change_config(language="de")
        h.app.ask(
            Dialog(
                "Spiel beenden?",
                "",
                [
                    DialogButton("Weiterspielen", lambda: None, "secondary"),
                    DialogButton("Zur Startseite gehen", lambda: None, "danger"),
                ],
            )
        )
        h.app.pump()
        buttons = [w for w in h.app.layers()[-1] if isinstance(w, Button)]
        assert len(buttons) == 2
        assert {shown(b, h.app.theme)[1] for b in buttons} == {1}  # as made, the second is on two lines
        assert len({shown(b, h.app.theme) for b in buttons}) == 1
        assert h.uneven() == []
    finally:
        i18n.set_language("en")


def test_the_label_of_a_tall_button_keeps_clear_of_its_edges():
    button = Button(pygame.Rect(0, 0, 240, 140), "Words", None)
    inner = button.label.rect
    assert inner.left - button.rect.left >= 140 // 8
    assert inner.top - button.rect.top >= 140 // 14
    assert isinstance(button.label, Label)


@pytest.mark.parametrize("live", [False, True])
@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_the_live_page_switch_has_the_shape_of_the_other_switches_on_its_settings_page(size, live):
    from companion.ui.screens.settings import SettingsScreen

    for language in i18n.LANGUAGES:
        h = Harness(size)
        h.app.change_config(language=language, live=live)
        h.app.show(SettingsScreen(h.app))
        h.tap("settings:more")
        assert not (h.overflows() or h.uneven() or h.small_targets() or h.off_canvas()), language
        switches = [
            h.find(key) for key in ("odds:on", "odds:off", "forecast:on", "forecast:off", "live:on", "live:off")
        ]
        assert {b.rect.size for b in switches[4:]} <= {b.rect.size for b in switches[:4]}, language
        # the odds' and the forecast's pairs say the same words, at one size (not "Show the odds"
        # squeezed smaller beside a "Show")
        assert [b.text for b in switches[:2]] == [b.text for b in switches[2:4]], language
        assert len({b.label.fitted(h.app.theme).px for b in switches[:4]}) == 1, language
        if size[1] > size[0]:  # stacked in one column: one sibling group at one size
            group = next(g for g in siblings(h.app.widgets) if switches[4] in g)
            assert all(b in group for b in switches), language
        assert h.shows("live:code") == live
    i18n.set_language("en")
