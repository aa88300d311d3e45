"""The ship's flight on the Cloudship screen: balls falling over the beds and striking them until
judged, and what the crew is told while flying (from the ship's panel on the app's hardware)."""

from __future__ import annotations

import math

import pygame

from ... import i18n
from ...config import BED_COLOURS
from .ship_icons import blit_icon

_ = i18n.translator("ship")

FALL_DRAW_MS = 450  # a falling ball crosses the beds' height in this long on screen
ASKING = {
    "rain": i18n.N_("Where did the raindrop land? Tap it on its bed."),
    "hail": i18n.N_("Where did the hailstone land? Tap it on its bed."),
}


def panel_of(screen):
    """The ship's panel (companion.ui.loop.ship_view.ShipPanel), or None without a ship."""
    return getattr(screen.app.hardware, "ship", None)


def flight_hint(screen) -> str | None:
    """What the crew is told while flying with the ship attached (None: the screen's own)."""
    panel = panel_of(screen)
    if panel is None:
        return None
    session = panel.session
    if session.asking:
        return _(ASKING[session.asking[0]])
    if session.link not in ("connected",):
        return None  # no word from the ship: taps as without it
    if panel.simulator is not None:
        return _("Simulated ship: f flies, v b n m to a bed, j k drop balls, s lands.")
    if session.beds_present:
        return _("Fly! The ship judges each ball.")
    return _("Fly! Tap where each ball lands.")


def draw_above(screen, surface: pygame.Surface, ctx) -> None:
    """Balls in the air falling over the beds, and balls that struck a bed, until judged."""
    panel = panel_of(screen)
    if panel is None or not panel.session.judge.balls:
        return
    cards = {w.key[4:]: w.rect for w in screen.app.widgets if isinstance(w.key, str) and w.key.startswith("bed:")}
    if not cards:
        return
    area = cards[BED_COLOURS[0]].unionall([cards[c] for c in BED_COLOURS if c in cards])
    px = max(16, round(area.h * 0.16))
    falling = panel.session.falling()
    for i, (kind, age) in enumerate(falling):
        progress = (age % FALL_DRAW_MS) / FALL_DRAW_MS
        x = area.centerx + (i - (len(falling) - 1) / 2) * px * 1.2
        y = area.y + px / 2 + progress * (area.h * 0.55)
        blit_icon(surface, kind, (x, y), px)
    for kind, bed in panel.session.settling():
        rect = cards.get(bed)
        if rect is None:
            continue
        pulse = 0.5 + 0.5 * math.sin(ctx.now * 12)
        centre = (rect.centerx, rect.y + rect.h * 0.45)
        pygame.draw.circle(surface, (250, 204, 21), centre, px * (0.75 + 0.15 * pulse), max(2, px // 8))
        blit_icon(surface, kind, centre, px)
