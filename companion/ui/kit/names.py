"""Players' names in a box: the largest size at which a name fits, on one line or broken onto
two between its words or after a hyphen (never inside a word), and the one size a column of
names shares (a table whose names all have one size reads as a table). A name too long for its
box even at the floor is shortened at its end ("Szentgyörgyi Bo…"), never cut by the box."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from . import theme as th
from .widgets import Fitted, Label

ELLIPSIS = "…"


def name_lines(name: str, px: int, width: int, weight: str, most: int = 2) -> tuple[str, ...]:
    """A name on one line where it fits, else (when `most` allows two) broken between its words
    or after a hyphen ("Maximilian-" / "Alexander"), where the wider of the two lines is
    narrowest."""
    face = th.font(px, weight)
    if most < 2 or face.size(name)[0] <= width:
        return (name,)
    splits = [(name[:i], name[i + 1 :]) for i, ch in enumerate(name) if ch == " "]
    splits += [(name[: i + 1], name[i + 1 :]) for i, ch in enumerate(name) if ch == "-" and 0 < i < len(name) - 1]
    splits = [(a.strip(), b.strip()) for a, b in splits if a.strip() and b.strip()]
    if not splits:
        return (name,)
    return min(splits, key=lambda lines: max(face.size(line)[0] for line in lines))


def shortened(line: str, px: int, width: int, weight: str) -> str:
    """`line` as it fits `width`: whole, or cut at its end with an ellipsis."""
    face = th.font(px, weight)
    if face.size(line)[0] <= width:
        return line
    for end in range(len(line) - 1, 0, -1):
        trial = line[:end].rstrip(" -") + ELLIPSIS
        if face.size(trial)[0] <= width:
            return trial
    return ELLIPSIS


@lru_cache(maxsize=1024)  # the scoreboards measure every name on every rebuild, mostly alike
def fit_name(
    name: str, px: int, floor: int, width: int, height: int | None, weight: str, most: int = 2, shorten: bool = False
) -> Fitted:
    """The largest size from `px` down to `floor` at which `name` fits `width` (and `height`,
    when given) on at most `most` lines (`name_lines`). With `shorten`, a name that does not
    fit at the floor is shortened: on the lines the box holds, the last one cut at its end."""
    while True:
        lines = name_lines(name, px, width, weight, most)
        face = th.font(px, weight)
        fits = all(face.size(line)[0] <= width for line in lines) and (
            height is None or face.fits_height(lines, height)
        )
        if fits or px <= floor:
            break
        px = max(floor, px - max(1, px // 12))
    if fits or not shorten:
        return Fitted(px, lines, not fits)
    if height is not None and not face.fits_height(lines, height):
        lines = (lines[0] + (" " if lines[0][-1:] != "-" else "") + " ".join(lines[1:]),)  # one line, shortened
        if not face.fits_height(lines, height):
            return Fitted(px, lines, True)
    lines = tuple(shortened(line, px, width, weight) for line in lines)
    return Fitted(px, lines, False)


def shared_px(widths: Mapping[str, int], px: int, floor: int, height: int | None, weight: str, most: int = 2) -> int:
    """The one size, from `px` down to `floor`, at which every name fits its own width."""
    return min(fit_name(name, px, floor, width, height, weight, most).px for name, width in widths.items())


class NameLabel(Label):
    """A player's name: the largest size down to its floor at which it fits its box on one
    line, or on two broken between words or after a hyphen (never inside a word); with
    `shorten`, shortened at its end where even the floor is too big (`fit_name`)."""

    def __init__(self, *args, shorten: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.shorten = shorten

    def fitted(self, theme) -> Fitted:
        if self._fitted is None or self._fitted[0] != theme.scale:
            self._fitted = (
                theme.scale,
                fit_name(
                    self.text,
                    theme.size(self.size),
                    theme.size(self.min_size),
                    self.rect.w,
                    self.rect.h,
                    self.weight,
                    shorten=self.shorten,
                ),
            )
        return self._fitted[1]

    def signature(self, ctx):
        plain = super().signature(ctx)
        return None if plain is None else (*plain, self.shorten)

    def placed(self, theme):
        # not the labels' shared cache: that knows the lines by the plain label's wrapping
        key = (theme.scale, self.colour)
        if getattr(self, "_placed", None) is None or self._placed[0] != key:
            self._placed = (key, self._imaged(theme, self._place(theme)))
        return self._placed[1]
