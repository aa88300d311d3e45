"""Cloud 9: the risk meter, shown while passengers decide (issue 12, "the risk meter").

The exact chance that the pilot can make the balloon rise (companion.insights.odds), drawn so
a child can read it without the number: a face that smiles, frowns or is unsure, and a
bar that fills from red through yellow to green. The percentage stands beside it for the
grown-ups. Settings can switch it off (`Config.show_odds`): some tables call it cheating.
"""

from __future__ import annotations

import math

import pygame

from ...i18n import translator
from ...insights.odds import pilot_rise_chance
from ..kit import theme as th
from ..kit.layout import cols
from ..kit.widgets import Button, Label, Widget

_ = translator("insights")

# chance bands: below LOW the face frowns, from HIGH on it smiles
LOW, HIGH = 1 / 3, 2 / 3
RED, YELLOW, GREEN = (206, 52, 52), (240, 190, 40), (40, 150, 80)


def shown(app) -> bool:
    return getattr(app.config, "show_odds", True)


def mood_colour(chance: float) -> tuple[int, int, int]:
    return RED if chance < LOW else YELLOW if chance < HIGH else GREEN


def draw_face(surface: pygame.Surface, centre: tuple[float, float], radius: float, chance: float) -> None:
    """A round face in the band's colour: a smile for likely, a straight mouth for maybe, a
    frown for unlikely (the shape tells it to a child who cannot tell red from green)."""
    pygame.draw.circle(surface, mood_colour(chance), centre, radius)
    pygame.draw.circle(surface, th.INK, centre, radius, max(1, round(radius / 9)))
    cx, cy = centre
    eye = max(1.5, radius / 7)
    for dx in (-radius * 0.35, radius * 0.35):
        pygame.draw.circle(surface, th.INK, (cx + dx, cy - radius * 0.22), eye)
    width = max(1, round(radius / 7))
    mouth = pygame.Rect(0, 0, radius * 1.0, radius * 0.7)
    if chance >= HIGH:  # smile: the lower half of an ellipse
        mouth.center = (cx, cy + radius * 0.05)
        pygame.draw.arc(surface, th.INK, mouth, math.pi * 1.1, math.pi * 1.9, width)
    elif chance < LOW:  # frown: the upper half, lower down
        mouth.center = (cx, cy + radius * 0.6)
        pygame.draw.arc(surface, th.INK, mouth, math.pi * 0.1, math.pi * 0.9, width)
    else:
        y = cy + radius * 0.38
        pygame.draw.line(surface, th.INK, (cx - radius * 0.35, y), (cx + radius * 0.35, y), width)


class RiskMeter(Widget):
    """The face and a bar filled to the chance, in the band's colour, over its three bands."""

    def __init__(self, rect, chance: float, key: str | None = "risk-meter"):
        super().__init__(rect, key)
        self.chance = chance

    def signature(self, ctx):
        return (type(self), tuple(self.rect), self.chance) if type(self).draw is RiskMeter.draw else None

    def draw(self, surface, ctx):
        r = self.rect
        face_r = r.h / 2
        draw_face(surface, (r.x + face_r, r.centery), face_r * 0.95, self.chance)
        bar = pygame.Rect(r.x + r.h + ctx.theme.px(6), r.centery - r.h * 0.22, r.w - r.h - ctx.theme.px(6), r.h * 0.44)
        radius = bar.h // 2
        # the three bands, pale, so the empty part still says where red ends and green begins
        for start, end, colour in ((0, LOW, RED), (LOW, HIGH, YELLOW), (HIGH, 1, GREEN)):
            band = pygame.Rect(bar.x + round(bar.w * start), bar.y, round(bar.w * (end - start)), bar.h)
            pale = tuple(round(c + (255 - c) * 0.72) for c in colour)
            pygame.draw.rect(surface, pale, band)
        filled = pygame.Rect(bar.x, bar.y, max(radius * 2, round(bar.w * self.chance)), bar.h)
        if self.chance > 0:
            pygame.draw.rect(surface, mood_colour(self.chance), filled, border_radius=radius)
        pygame.draw.rect(surface, th.INK_SOFT, bar, max(1, ctx.theme.px(1.5)), border_radius=radius)


_last: list = [None, None]  # (match, chance): a rebuild of the same state reads no history


def _chance_for(match) -> float | None:
    if _last[0] is not match:
        _last[:] = [match, pilot_rise_chance(match)]
    return _last[1]


def widgets(rect: pygame.Rect, match, f) -> list[Widget]:
    """The meter for the current roll (nothing when there is none), the words beside it."""
    chance = _chance_for(match)
    if chance is None:
        return []
    text = _("Rise: {percent}%").format(percent=round(chance * 100))
    # the words on one line where the meter keeps two fifths of the width; a wide step gives
    # the meter the rest, a narrow one (landscape) may still break the words after the colon
    gap = f.u(6)
    need = th.font(f.u(th.SIZES["small"]), "regular").size(_("Rise: {percent}%").format(percent=100))[0] + f.u(2)
    words_w = min(max(need, round((rect.w - gap) * 0.45)), round((rect.w - gap) * 0.6))
    meter, words = cols(rect, [rect.w - gap - words_w, words_w], gap)
    return [
        RiskMeter(meter, chance),
        Label(words, text, "small", align="left", colour=th.INK, wrap=True, key="risk-words"),
    ]


def settings_caption() -> str:
    return _("Odds on screen")


def settings_buttons(body: pygame.Rect, app, gap: int) -> list[Widget]:
    """The Settings controls that turn the risk meter and the storm forecast on and off."""
    on = shown(app)
    show, hide = cols(body, 2, gap)
    return [
        Button(
            show,
            _("Show"),  # the caption above says what: the forecast's pair says the same
            lambda: app.change_config(show_odds=True),
            kind="choice",
            selected=on,
            key="odds:on",
        ),
        Button(
            hide,
            _("Hide"),
            lambda: app.change_config(show_odds=False),
            kind="choice",
            selected=not on,
            key="odds:off",
        ),
    ]
