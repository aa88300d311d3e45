"""Takes the slash out of Atkinson Hyperlegible's zero, in both weights, in place.

The font slashes its zero to tell it from the letter O; at a game table a slashed 0 in a score
reads as a "no" sign, and scores are never letters. The zero keeps its outline, and its two
half counters become one: the O's counter, scaled into the box the halves took, so the stroke
stays as thick as the font drew it. `zero.tf` (tabular figures) is built from `zero` and follows.
The license (OFL.txt) allows the change and names no reserved font name.

    pip install fonttools && python companion/ui/kit/fonts/open_zero.py

Run once; running it again finds no slash and changes nothing.
"""

from __future__ import annotations

from pathlib import Path

from fontTools.pens.recordingPen import RecordingPen
from fontTools.pens.transformPen import TransformPen
from fontTools.pens.ttGlyphPen import TTGlyphPen
from fontTools.ttLib import TTFont

FONTS = Path(__file__).parent
WEIGHTS = ("AtkinsonHyperlegible-Bold.ttf", "AtkinsonHyperlegible-Regular.ttf")
MARK = "zero without its slash"


def contours(glyph_set, name: str) -> list[list[tuple[str, tuple]]]:
    """The glyph's outline as one list of pen operations per contour."""
    recorded = RecordingPen()
    glyph_set[name].draw(recorded)
    out: list[list[tuple[str, tuple]]] = [[]]
    for operation in recorded.value:
        out[-1].append(operation)
        if operation[0] in ("closePath", "endPath"):
            out.append([])
    return [contour for contour in out if contour]


def box(contour) -> tuple[float, float, float, float]:
    points = [point for _, args in contour for point in args]
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    return min(xs), min(ys), max(xs), max(ys)


def area(contour) -> float:
    x0, y0, x1, y1 = box(contour)
    return (x1 - x0) * (y1 - y0)


def open_zero(path: Path) -> bool:
    """True when the zero had its slash and now has none."""
    font = TTFont(path)
    glyph_set = font.getGlyphSet()
    zero = sorted(contours(glyph_set, "zero"), key=area, reverse=True)
    if len(zero) != 3:  # the outline and the two halves the slash leaves
        return False
    outline, halves = zero[0], zero[1:]
    x0 = min(box(c)[0] for c in halves)
    y0 = min(box(c)[1] for c in halves)
    x1 = max(box(c)[2] for c in halves)
    y1 = max(box(c)[3] for c in halves)
    counter = min(contours(glyph_set, "O"), key=area)
    cx0, cy0, cx1, cy1 = box(counter)
    sx, sy = (x1 - x0) / (cx1 - cx0), (y1 - y0) / (cy1 - cy0)
    pen = TTGlyphPen(glyph_set)
    for operation, args in outline:
        getattr(pen, operation)(*args)
    scaled = TransformPen(pen, (sx, 0, 0, sy, x0 - cx0 * sx, y0 - cy0 * sy))
    for operation, args in counter:
        getattr(scaled, operation)(*args)
    glyph = pen.glyph()
    glyph.recalcBounds(font["glyf"])
    font["glyf"]["zero"] = glyph
    for record in font["name"].names:
        if record.nameID == 5 and MARK not in record.toUnicode():  # the version string says so
            record.string = f"{record.toUnicode()}; {MARK}"
    font.save(path)
    return True


if __name__ == "__main__":
    for weight in WEIGHTS:
        print(weight, "opened" if open_zero(FONTS / weight) else "has no slash to take out")
