"""Buttons that stand together read as one row only when their words share one size and one
line count: "Letzten Schritt zurück" on two lines beside a one-line "Startseite", or one answer
a size smaller than the other, reads as a mistake.

Siblings are text buttons of one shape (to a split's rounding) side by side on one line or
stacked in one column. `even_siblings` sets each group's labels alike: on one line where every
label fits one at no less than `ONE_LINE_SHRINK` of the group's size, else all at the size the
most crowded label fits.
"""

from __future__ import annotations

from collections.abc import Iterable

from .theme import Theme
from .widgets import Button, Label, Widget, fit_text, flat

# a row goes onto one line at no less than three quarters of its size: smaller, two lines read better
ONE_LINE_SHRINK = 0.75


def _near(a: int, b: int) -> bool:
    return abs(a - b) <= max(2, max(a, b) // 50)  # equal parts of a split differ by its rounding


def _together(a: Button, b: Button) -> bool:
    r, s = a.rect, b.rect
    same_shape = _near(r.w, s.w) and _near(r.h, s.h)
    return same_shape and (_near(r.y, s.y) or _near(r.x, s.x)) and a.label.made_sizes == b.label.made_sizes


def siblings(widgets: Iterable[Widget]) -> list[list[Button]]:
    """The groups of two or more buttons with words that stand together, in drawing order."""
    buttons = [w for w in flat(list(widgets)) if isinstance(w, Button) and w.text]
    group_of = list(range(len(buttons)))  # union-find over the few buttons of one screen

    def root(i: int) -> int:
        while group_of[i] != i:
            group_of[i] = i = group_of[group_of[i]]
        return i

    for i, a in enumerate(buttons):
        for j in range(i + 1, len(buttons)):
            if _together(a, buttons[j]):
                group_of[root(j)] = root(i)
    groups: dict[int, list[Button]] = {}
    for i, button in enumerate(buttons):
        groups.setdefault(root(i), []).append(button)
    return [group for group in groups.values() if len(group) > 1]


def _one_line_px(label: Label, theme: Theme) -> int | None:
    """The largest size (up to the label's own) at which its words fit its box on one line."""
    if "\n" in label.text:
        return None
    fitted = fit_text(
        label.text,
        label.rect.w,
        label.rect.h,
        label.fitted(theme).px,
        theme.size(label.min_size),
        False,
        label.weight,
    )
    return None if fitted.overflow else fitted.px


def _one_line(group: list[Button], theme: Theme) -> int | None:
    """The size at which every label of `group` goes on one line, where that is no less than
    ONE_LINE_SHRINK of the size they share (None: not without shrinking them more)."""
    labels = [b.label for b in group]
    shared = min(label.fitted(theme).px for label in labels)
    sizes = [_one_line_px(label, theme) for label in labels]
    floor = max(theme.size(labels[0].min_size), shared * ONE_LINE_SHRINK)
    least = min((px for px in sizes if px is not None), default=None)
    return least if None not in sizes and least is not None and least >= floor else None


def uneven(group: list[Button], theme: Theme) -> bool:
    """Whether the group's labels differ in size, or in their count of lines where they could
    all go on one line (a word alone beside two lines that cannot be one is as even as it gets)."""
    fitted = [b.label.fitted(theme) for b in group]
    if len({f.px for f in fitted}) > 1:
        return True
    return len({len(f.lines) for f in fitted}) > 1 and _one_line(group, theme) is not None


def even_siblings(widgets: list[Widget], theme: Theme) -> list[Widget]:
    """`widgets`, each group of sibling buttons' labels set to one size and, where they can go
    on one line at no less than ONE_LINE_SHRINK of it, one line each."""
    for group in siblings(widgets):
        if not uneven(group, theme):
            continue
        one_line = _one_line(group, theme)
        shared = one_line if one_line is not None else min(b.label.fitted(theme).px for b in group)
        for button in group:
            button.label.at_most(shared, theme)
    return widgets


def one_size(buttons: list[Button], theme: Theme) -> None:
    """A row of buttons of several widths (so not `siblings`) set to the one size the most
    crowded of them fits: the keyboard's command keys, Cloud 9's two rises in portrait."""
    worded = [b for b in buttons if b.text]
    if len(worded) < 2:
        return
    shared = min(b.label.fitted(theme).px for b in worded)
    for button in worded:
        button.label.at_most(shared, theme)
