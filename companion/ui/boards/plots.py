"""Pictures of one game, where a picture says more than a table, drawn with pygame.

- Cloud 9: each player's score over the trips, one line per player in their colour with their
  shape at the end (so the lines are told apart without colour), the 50 the game ends at, and
  under it a key of whose shape is whose, every name whole.
- Cloudship: the storm against the flowers over the rounds, the storm toward its end square
  and the flowers toward twelve, on one scale of "how far along".

The same drawing goes on the History screen and into a PNG (`cloud-companion history --plot`).

- Cloudship round by round, for its end screen (`draw_rounds`): the flowers planted rise above a
  line, the storm's squares and the flowers hail took hang below it, each one a block to count.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pygame

from ...errors import CompanionError
from ...i18n import translator
from ...insights.records import cloud9_scores_by_trip, cloudship_storm_and_flowers
from ...rules import Match
from ...rules.cloud9 import WINNING_SCORE
from ...rules.cloudship import FLOWERS, STORM_END
from ..kit import theme as th
from ..kit.roster import players_from_setup
from ..kit.shapes import draw_token
from .ship_icons import blit_icon

_ = translator("insights")

STORM_LINE = th.COLOURS["storm"].rgb
FLOWER_LINE = (214, 62, 120)
GRID = (214, 224, 236)


class NoPicture(CompanionError, ValueError):
    """A game with no picture (The Cloud Mine): one line for the command line."""


def plot_game(surface: pygame.Surface, rect: pygame.Rect, match: Match, theme: th.Theme) -> None:
    """Draw the game's picture into `rect` (NoPicture for a game that has none)."""
    name = match.rules.name
    if name == "cloud9":
        _cloud9(surface, rect, match, theme)
    elif name == "cloudship":
        _cloudship(surface, rect, match, theme)
    else:
        raise NoPicture(f"{match.rules.title} has no picture: its records are cards per role")


def save_plot(match: Match, path: str | Path, size: tuple[int, int] = (800, 480)) -> Path:
    """The game's picture as a PNG file, drawn off screen."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    pygame.font.init()
    surface = pygame.Surface(size)
    surface.fill(th.CARD)
    theme = th.Theme(min(size[0] / 800, size[1] / 480))
    plot_game(surface, surface.get_rect().inflate(-theme.px(16), -theme.px(16)), match, theme)
    path = Path(path)
    pygame.image.save(surface, str(path))
    return path


# --- the frame both pictures share ------------------------------------------------------------


def _axes(surface, rect, theme, x_max: int, y_max: int, x_label: str, y_label: str, y_ticks) -> pygame.Rect:
    """Axes with labels and a light grid; the plotting area inside them."""
    px = theme.size("min")
    font = theme.font(px)
    left = font.size(str(y_max))[0] + theme.px(10)
    right = font.size(x_label)[0] + theme.px(12)  # the x label sits past the axis' end
    area = pygame.Rect(rect.x + left, rect.y + px + theme.px(10), rect.w - left - right, rect.h - 2 * px - theme.px(16))
    for value in y_ticks:
        y = _y(area, value, y_max)
        pygame.draw.line(surface, GRID, (area.x, y), (area.right, y), 1)
        label = font.render(str(value), True, th.INK_SOFT)
        surface.blit(label, (area.x - label.get_width() - theme.px(4), y - label.get_height() // 2))
    step = max(1, -(-x_max // 12))
    for value in range(0, x_max + 1, step):
        x = _x(area, value, x_max)
        label = font.render(str(value), True, th.INK_SOFT)
        surface.blit(label, (x - label.get_width() // 2, area.bottom + theme.px(3)))
    pygame.draw.line(surface, th.INK, area.bottomleft, area.bottomright, theme.px(2))
    pygame.draw.line(surface, th.INK, area.bottomleft, area.topleft, theme.px(2))
    surface.blit(font.render(y_label, True, th.INK), (rect.x, rect.y))
    x_text = font.render(x_label, True, th.INK)
    surface.blit(x_text, (area.right + theme.px(10), area.bottom - x_text.get_height() // 2))
    return area


def _x(area: pygame.Rect, value: float, top: int) -> int:
    return round(area.x + area.w * value / max(1, top))


def _y(area: pygame.Rect, value: float, top: int) -> int:
    return round(area.bottom - area.h * value / max(1, top))


# --- Cloud 9 -----------------------------------------------------------------------------------


def _cloud9(surface, rect, match, theme) -> None:
    series = cloud9_scores_by_trip(match)
    players = players_from_setup(match.setup)
    trips = max(len(s) for s in series.values()) - 1
    top = max(WINNING_SCORE, max(max(s) for s in series.values()))
    top = -(-top // 10) * 10
    ordered = sorted(players, key=lambda p: -series[p.name][-1])  # the leader first
    entries = players_key(rect, [(p.colour, p.name) for p in ordered], theme)
    plot = rect.copy()
    if entries:
        plot.h = min(box.top for _centre, box, _name in entries) - theme.px(KEY_GAP) - rect.y
    area = _axes(surface, plot, theme, max(1, trips), top, _("Trip"), _("Points"), range(0, top + 1, 10))
    goal = _y(area, WINNING_SCORE, top)
    for x in range(area.x, area.right, theme.px(10)):  # the 50 the game ends at, dashed
        pygame.draw.line(surface, th.DANGER, (x, goal), (min(x + theme.px(5), area.right), goal), theme.px(2))
    for player in players:
        points = [(_x(area, i, max(1, trips)), _y(area, score, top)) for i, score in enumerate(series[player.name])]
        rgb = th.COLOURS[player.colour].rgb
        if len(points) > 1:
            pygame.draw.lines(surface, th.INK, False, points, theme.px(5))  # an outline: yellow shows
            pygame.draw.lines(surface, rgb, False, points, theme.px(3))
        draw_token(surface, player.colour, points[-1], theme.px(9))
    font = theme.font(theme.size("min"), "regular")
    for (colour, _name), (centre, box, shown) in zip([(p.colour, p.name) for p in ordered], entries):
        draw_token(surface, colour, centre, theme.px(KEY_TOKEN))
        surface.blit(font.render(shown, True, th.INK), box)


KEY_TOKEN = 8  # design px: a shape's radius in the key, as at a line's end
KEY_GAP = 6  # design px: between the plot's round labels and the key under it


def players_key(
    rect: pygame.Rect, players: list[tuple[str, str]], theme
) -> list[tuple[tuple[int, int], pygame.Rect, str]]:
    """Which line is whose, under the plot at the bottom of `rect`: (the shape's centre, the
    name's box, the name) for each of `players` ((colour, name), in reading order), in as many
    columns as hold every name whole, so that the key covers no line and cuts no name (only a
    name wider than `rect` itself is shortened)."""
    if not players:
        return []
    font = theme.font(theme.size("min"), "regular")
    line, lead, between = font.get_linesize(), theme.px(KEY_TOKEN * 2 + 6), theme.px(10)
    widths = [lead + font.size(name)[0] for _colour, name in players]

    def column_widths(n: int) -> list[int]:
        return [max(widths[c::n]) for c in range(n)]

    columns = next((n for n in (3, 2) if n <= len(players) and sum(column_widths(n)) + between * (n - 1) <= rect.w), 1)
    sized = column_widths(columns)
    spare = (rect.w - sum(sized)) // columns if columns > 1 else 0  # the columns spread evenly
    lefts = [rect.x + sum(sized[:c]) + spare * c for c in range(columns)]
    top = rect.bottom - -(-len(players) // columns) * line
    out = []
    for i, (_colour, name) in enumerate(players):
        x, y = lefts[i % columns], top + (i // columns) * line
        shown = name
        while lead + font.size(shown)[0] > rect.w and len(shown) > 2:
            shown = shown[:-2] + "…"
        box = pygame.Rect(x + lead, y, font.size(shown)[0], line)
        out.append(((x + theme.px(KEY_TOKEN + 2), y + line // 2), box, shown))
    return out


# --- Cloudship ----------------------------------------------------------------------------------


def _cloudship(surface, rect, match, theme) -> None:
    points = cloudship_storm_and_flowers(match)
    rounds = max(1, points[-1][0])
    top = max(STORM_END, FLOWERS)
    key_h = theme.font(theme.size("min")).get_linesize()
    plot = pygame.Rect(rect.x, rect.y, rect.w, rect.h - key_h - theme.px(KEY_GAP))  # the key under it
    area = _axes(
        surface,
        plot,
        theme,
        rounds,
        top,
        _("Round"),
        _("Storm and flowers"),
        sorted({*range(0, top + 1, 2), STORM_END, FLOWERS}),
    )
    storm = [(_x(area, i, rounds), _y(area, s, top)) for i, (_r, s, _f) in enumerate(points)]
    flowers = [(_x(area, i, rounds), _y(area, f, top)) for i, (_r, _s, f) in enumerate(points)]
    end, full = _y(area, STORM_END, top), _y(area, FLOWERS, top)
    pygame.draw.line(surface, STORM_LINE, (area.x, end), (area.right, end), 1)
    pygame.draw.line(surface, FLOWER_LINE, (area.x, full), (area.right, full), 1)
    for line, colour in ((storm, STORM_LINE), (flowers, FLOWER_LINE)):
        if len(line) > 1:
            pygame.draw.lines(surface, colour, False, line, theme.px(4))
        for point in line:
            pygame.draw.circle(surface, colour, point, theme.px(4))
    draw_token(surface, "storm", storm[-1], theme.px(10))
    _legend(
        surface,
        pygame.Rect(area.x, rect.bottom - key_h, area.w, key_h),
        theme,
        [(_("Storm"), STORM_LINE), (_("Flowers"), FLOWER_LINE)],
    )


def _legend(surface, row: pygame.Rect, theme, entries) -> None:
    """Each line's colour and word side by side along `row` (under the plot, clear of its lines)."""
    font = theme.font(theme.size("min"))
    x = row.x
    for text, colour in entries:
        pygame.draw.line(surface, colour, (x, row.centery), (x + theme.px(24), row.centery), theme.px(4))
        label = font.render(text, True, th.INK)
        surface.blit(label, label.get_rect(midleft=(x + theme.px(30), row.centery)))
        x += theme.px(30) + label.get_width() + theme.px(24)


# --- Cloudship, round by round ------------------------------------------------------------------

HAIL_BLOCK = (120, 150, 190)
ROUND_STEPS = (1, 2, 5, 10, 20, 50, 100)
ICON_LEAST = 16  # design pixels: a flower or a hailstone smaller than this is drawn as a plain block
COLUMN_SHARE = 0.8  # of its slot: a column's width
HAIL_BALL = 0.8  # of its picture: a hailstone's ball, drawn that much larger to fill its block as a flower does


@dataclass(frozen=True)
class Column:
    """One column of the round-by-round chart: a round, or a few rounds together in a long game."""

    first: int
    last: int
    planted: int
    storm_moved: int
    hail_took: int


def columns_of(rounds, per: int) -> list[Column]:
    """The rounds `per` to a column, their flowers, storm squares and hail added up."""
    out = []
    for start in range(0, len(rounds), per):
        part = rounds[start : start + per]
        out.append(
            Column(
                part[0].number,
                part[-1].number,
                sum(r.planted for r in part),
                sum(r.storm_moved for r in part),
                sum(r.hail_took for r in part),
            )
        )
    return out


def round_labels(numbers: list[int], slot: float, widest: int, room: int) -> list[int]:
    """The round numbers to write under the chart: every one where they have room, else every
    step-th (2, 4, 6, ... or 5, 10, 15, ...), so that the labels are evenly spaced and no two
    touch. `slot` is the width one round takes."""
    step = next((s for s in ROUND_STEPS if s * slot >= widest + room), ROUND_STEPS[-1])
    shown = [n for n in numbers if n % step == 0] if step > 1 else list(numbers)
    return shown or numbers[-1:]  # a game shorter than a step: its last round


def rounds_geometry(rect: pygame.Rect, rounds, theme) -> dict:
    """Where `draw_rounds` puts its parts: the key's column, the chart, its line, the columns
    (a long game's rounds a few to a column, so that a column is never a hairline), one
    block's height and the round numbers written (also read by the tests)."""
    px = theme.size("min")
    face = theme.font(px, "regular")
    line = face.get_linesize()
    words = [_("flowers planted"), _("storm squares"), _("flowers hail took")]
    swatch = px + theme.px(6)
    # a flat box: the key in a column at the left, each word beside its half (the short words
    # where the long ones would take more than a quarter of it); else a legend above
    beside = rect.h < rect.w * 0.45
    if beside and max(face.size(w)[0] + swatch for w in words) > rect.w // 4:
        words = [_("Flowers"), _("Storm"), _("Hail")]
    widths = [face.size(w)[0] + swatch for w in words]
    key_w = max(widths) if beside else 0
    legend: list[tuple[int, int]] = []  # (x, y) of each word's swatch, above the chart
    x, y = rect.x, rect.y
    for width in widths:
        if not beside:
            if x > rect.x and x + width > rect.right:
                x, y = rect.x, y + line
            legend.append((x, y))
            x += width + theme.px(16)
    top = rect.y if beside else y + line + theme.px(6)
    chart = pygame.Rect(
        rect.x + (key_w + theme.px(10) if beside else 0),
        top,
        rect.w - (key_w + theme.px(10) if beside else 0),
        rect.bottom - top - line - theme.px(2),
    )
    least = theme.px(ICON_LEAST) / COLUMN_SHARE
    per = next((k for k in range(1, len(rounds) + 1) if -(-len(rounds) // k) * least <= chart.w), max(1, len(rounds)))
    columns = columns_of(list(rounds), per)
    up = max([1] + [c.planted for c in columns])
    down = max([1] + [c.storm_moved + c.hail_took for c in columns])
    slot = chart.w / max(1, len(columns))
    unit = max(1, min(chart.h / (up + down), theme.px(28)))
    base = round(chart.y + (chart.h - unit * (up + down)) / 2 + unit * up)
    widest = face.size(str(max([1] + [r.number for r in rounds])))[0]
    numbers = round_labels([r.number for r in rounds], slot / per, widest, theme.px(8))
    width = max(2, min(int(slot * COLUMN_SHARE), theme.px(48)))
    return {
        "px": px,
        "line": line,
        "words": words,
        "key_w": key_w,
        "swatch": swatch,
        "chart": chart,
        "legend": legend,
        "slot": slot,
        "unit": unit,
        "base": base,
        "up": up,
        "down": down,
        "numbers": numbers,
        "per": per,
        "columns": columns,
        "width": width,
        "first": rounds[0].number if rounds else 1,
    }


def needed_height(rect: pygame.Rect, rounds, theme) -> int:
    """The least height of `rect` at which the chart's blocks are as large as they get: a
    taller box would only be empty above and below them."""
    g = rounds_geometry(rect, rounds, theme)
    return rect.h - g["chart"].h + round(theme.px(28) * (g["up"] + g["down"])) + theme.px(4)


def pictures_drawn(g: dict, theme) -> bool:
    """Are the blocks big enough to be drawn as flowers and hailstones (else plain blocks)?"""
    return min(g["width"], g["unit"]) >= theme.px(ICON_LEAST)


def draw_rounds(surface: pygame.Surface, rect: pygame.Rect, rounds, theme: th.Theme) -> None:
    """Cloudship round by round: above a line the flowers planted (a pink block each), below it
    the storm's squares (dark squares) and under them the flowers hail took (pale hailstones),
    the key at the left beside its half, every round's column, and the round numbers spaced so
    they never touch. Shape and side tell the three apart without their colours."""
    g = rounds_geometry(rect, rounds, theme)
    chart, slot, unit, base, width = g["chart"], g["slot"], g["unit"], g["base"], g["width"]
    storm = th.COLOURS["storm"].rgb
    gap = 1 if unit < 6 else 2
    pictures = pictures_drawn(g, theme)  # room for the flower and the hailstone themselves
    for i, column in enumerate(g["columns"]):
        x = round(chart.x + i * slot + (slot - width) / 2)
        for k in range(column.planted):
            block = pygame.Rect(x, round(base - (k + 1) * unit) + gap, width, max(1, round(unit) - gap))
            if pictures:
                blit_icon(surface, "flower", block.center, min(block.w, block.h) + gap)
            else:
                pygame.draw.rect(surface, FLOWER_LINE, block, border_radius=max(0, round(unit) // 4))
        for k in range(column.storm_moved):
            pygame.draw.rect(surface, storm, (x, round(base + k * unit) + gap, width, max(1, round(unit) - gap)))
        for k in range(column.storm_moved, column.storm_moved + column.hail_took):  # under the storm's squares
            block = pygame.Rect(x, round(base + k * unit) + gap, width, max(1, round(unit) - gap))
            if pictures:
                blit_icon(surface, "hail", block.center, (min(block.w, block.h) + gap) / HAIL_BALL)
            else:
                pygame.draw.rect(surface, HAIL_BLOCK, block, border_radius=max(0, round(unit) // 4))
                pygame.draw.rect(surface, th.INK, block, 1, border_radius=max(0, round(unit) // 4))
    pygame.draw.line(surface, th.INK, (chart.x, base), (chart.right, base), max(1, theme.px(2)))
    px, line = g["px"], g["line"]
    for number in g["numbers"]:  # under its own round, within its column
        image = theme.text(str(number), px, th.INK_SOFT, "regular")
        x = chart.x + (number - g["first"] + 0.5) * slot / g["per"]
        surface.blit(image, image.get_rect(midtop=(round(x), chart.bottom + theme.px(2))))
    # the key: each word beside its own half, with the shape its blocks have
    swatch, side = g["swatch"], max(4, px * 2 // 3)
    above = pygame.Rect(rect.x, chart.y, g["key_w"], base - chart.y)
    below = pygame.Rect(rect.x, base, g["key_w"], chart.bottom - base)
    flowers, squares, hail = g["words"]
    if g["legend"]:
        places = [
            (x, y, word, kind) for (x, y), word, kind in zip(g["legend"], g["words"], ("flower", "storm", "hail"))
        ]
    else:
        low = min(below.y + theme.px(2), rect.bottom - 2 * line)
        places = [
            (rect.x, max(rect.y, min(above.centery - line // 2, base - line)), flowers, "flower"),
            (rect.x, low, squares, "storm"),
            (rect.x, low + line, hail, "hail"),
        ]
    for x, y, word, kind in places:
        centre = (x + side // 2, y + line // 2)
        if kind == "flower":
            blit_icon(surface, "flower", centre, px)
        elif kind == "storm":
            pygame.draw.rect(surface, storm, pygame.Rect(0, 0, side, side).move(x, y + (line - side) // 2))
        elif pictures_drawn(g, theme):
            blit_icon(surface, "hail", centre, px / HAIL_BALL)
        else:
            block = pygame.Rect(0, 0, side, side).move(x, y + (line - side) // 2)
            pygame.draw.rect(surface, HAIL_BLOCK, block)
            pygame.draw.rect(surface, th.INK, block, 1)
        surface.blit(theme.text(word, px, th.INK, "regular"), (x + swatch, y))
