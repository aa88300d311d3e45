"""Pictures of one game, where a picture says more than a table, drawn with pygame.

- Cloud 9: each player's score over the trips, one line per player in their colour with their
  shape at the end (so the lines are told apart without colour), and the 50 the game ends at.
- Cloudship: the storm against the flowers over the rounds, the storm toward its end square
  and the flowers toward twelve, on one scale of "how far along".

The same drawing goes on the History screen and into a PNG (`cloud-companion history --plot`).
"""

from __future__ import annotations

import os
from pathlib import Path

import pygame

from ...i18n import translator
from ...insights.records import cloud9_scores_by_trip, cloudship_storm_and_flowers
from ...rules import Match
from ...rules.cloud9 import WINNING_SCORE
from ...rules.cloudship import FLOWERS, STORM_END
from ..kit import theme as th
from ..kit.roster import players_from_setup
from ..kit.shapes import draw_token

_ = translator("insights")

STORM_LINE = th.COLOURS["storm"].rgb
FLOWER_LINE = (214, 62, 120)
GRID = (214, 224, 236)


class NoPicture(ValueError):
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
    area = pygame.Rect(rect.x + left, rect.y + px + theme.px(10), rect.w - left - right,
                       rect.h - 2 * px - theme.px(16))
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
    area = _axes(surface, rect, theme, max(1, trips), top, _("Trip"), _("Points"), range(0, top + 1, 10))
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


# --- Cloudship ----------------------------------------------------------------------------------

def _cloudship(surface, rect, match, theme) -> None:
    points = cloudship_storm_and_flowers(match)
    rounds = max(1, points[-1][0])
    top = max(STORM_END, FLOWERS)
    area = _axes(surface, rect, theme, rounds, top, _("Round"), _("Storm and flowers"),
                 sorted({*range(0, top + 1, 2), STORM_END, FLOWERS}))
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
    _legend(surface, area, theme, [(_("Storm"), STORM_LINE), (_("Flowers"), FLOWER_LINE)])


def _legend(surface, area, theme, entries) -> None:
    font = theme.font(theme.size("min"))
    x = area.x + theme.px(10)
    y = area.y + theme.px(6)
    for text, colour in entries:
        pygame.draw.line(surface, colour, (x, y + theme.px(9)), (x + theme.px(24), y + theme.px(9)), theme.px(4))
        label = font.render(text, True, th.INK)
        surface.blit(label, (x + theme.px(30), y))
        y += label.get_height() + theme.px(2)
