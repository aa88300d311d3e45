"""Players' names in a box: the largest size at which a name fits, on one line or broken onto
two between its words or after a hyphen (never inside a word), and the one size a column of
names shares (a table whose names all have one size reads as a table)."""

from __future__ import annotations

from collections.abc import Mapping

from . import theme as th
from .widgets import Fitted


def name_lines(name: str, px: int, width: int, weight: str, most: int = 2) -> tuple[str, ...]:
    """A name on one line where it fits, else (when `most` allows two) broken between its words
    or after a hyphen ("Maximilian-" / "Alexander"), where the wider of the two lines is
    narrowest."""
    face = th.font(px, weight)
    if most < 2 or face.size(name)[0] <= width:
        return (name,)
    splits = [(name[:i], name[i + 1:]) for i, ch in enumerate(name) if ch == " "]
    splits += [(name[:i + 1], name[i + 1:]) for i, ch in enumerate(name) if ch == "-" and 0 < i < len(name) - 1]
    splits = [(a.strip(), b.strip()) for a, b in splits if a.strip() and b.strip()]
    if not splits:
        return (name,)
    return min(splits, key=lambda lines: max(face.size(line)[0] for line in lines))


def fit_name(name: str, px: int, floor: int, width: int, height: int | None, weight: str,
             most: int = 2) -> Fitted:
    """The largest size from `px` down to `floor` at which `name` fits `width` (and `height`,
    when given) on at most `most` lines (`name_lines`)."""
    while True:
        lines = name_lines(name, px, width, weight, most)
        face = th.font(px, weight)
        fits = (all(face.size(line)[0] <= width for line in lines)
                and (height is None or face.fits_height(lines, height)))
        if fits or px <= floor:
            return Fitted(px, lines, not fits)
        px = max(floor, px - max(1, px // 12))


def shared_px(widths: Mapping[str, int], px: int, floor: int, height: int | None, weight: str,
              most: int = 2) -> int:
    """The one size, from `px` down to `floor`, at which every name fits its own width."""
    return min(fit_name(name, px, floor, width, height, weight, most).px for name, width in widths.items())
