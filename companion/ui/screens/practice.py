"""Cloudship → practice flight: the ship's deck seen from above, its balls rolling as the ship
is tilted, before the first real round. Nothing is scored here.

Three ways it moves, whatever is attached:
- the twin on a desktop (companion.ship.twin): the deck shows the twin's own balls; the arrow
  pads (a tap or a mouse click) and the keys tilt the twin's hull, whose firmware reports the
  tilt like the real ship;
- the real ship: the deck is this screen's own model (companion.ship.twin.physics), tilted as
  the ship reports it: the children tilt the real ship and watch the balls roll;
- no ship: the same model, tilted by the arrow pads.

A ball that falls through the hole comes back onto the deck a moment later. While this screen
shows, the ship's judge scores nothing (ShipPanel.pump gives it no game).

Open it with `app.show(PracticeScreen(app))` (the Cloudship game menu, Home's Cloudship card).
"""

from __future__ import annotations

import math
import random

import pygame

from ...i18n import translator
from ...ship.twin.physics import DECK_U, DECK_V, HOLE_R, ShipModel
from ..kit import theme as th
from ..kit.layout import GAP, cols, inset, rows
from ..kit.widgets import Button, Label, Panel, Widget
from .base import Screen

_ = translator("ship")

FRAME_S = 1 / 30
BACK_AFTER_S = 1.2  # a ball through the hole is put back on the deck after this long
PAD_TILT = 6.0  # degrees a pad tilts the deck
# pad -> (pitch, roll): seen from above with the bow to the right, the deck tips so the balls
# roll towards the pad
PADS = {
    "nw": (6.0, -6.0),
    "n": (0.0, -6.0),
    "ne": (-6.0, -6.0),
    "w": (6.0, 0.0),
    "level": (0.0, 0.0),
    "e": (-6.0, 0.0),
    "sw": (6.0, 6.0),
    "s": (0.0, 6.0),
    "se": (-6.0, 6.0),
}
PAD_GRID = (("nw", "n", "ne"), ("w", "level", "e"), ("sw", "s", "se"))
DECK = (235, 214, 178)
RIM = (120, 84, 52)


class LocalDeck:
    """The screen's own deck: a model whose hull is tilted as told (the real ship's tilt, or
    the pads)."""

    live = False  # the tilt comes from the pads

    def __init__(self, seed: int = 0):
        self.model = ShipModel(seed)
        self.t = 0

    def advance(self, seconds: float) -> list[str]:
        """Move on; the kinds of the balls that fell through the hole meanwhile."""
        before = len(self.model.truth)
        self.t += round(seconds * 1000)
        self.model.advance(self.t)
        return [s["ball"] for s in self.model.truth[before:] if s["through"] == "hole"]

    def tilt_to(self, pitch: float, roll: float) -> None:
        self.model.hold(pitch=pitch, roll=roll)

    def follow(self, pitch: float, roll: float) -> None:
        """The real ship's tilt, as it reports it."""
        self.model.pitch.pos = self.model.pitch.target = pitch
        self.model.roll.pos = self.model.roll.target = roll
        self.model._unsettle()

    def tilt(self) -> tuple[float, float]:
        return self.model.pitch.pos, self.model.roll.pos

    def balls(self) -> list[tuple[str, float, float]]:
        return [(b.kind, b.u, b.v) for b in self.model.balls if b.state == "aboard"]

    def add(self, kind: str, u: float, v: float) -> None:
        self.model.load(kind, u, v)


class TwinDeck(LocalDeck):
    """The twin's own deck: its balls, its hull tilted by the pads (the twin's firmware reports
    the tilt)."""

    live = True

    def __init__(self, twin):
        self.twin = twin
        self.seen = len(twin.model.truth)

    def advance(self, seconds: float) -> list[str]:
        with self.twin.lock:
            truth = self.twin.model.truth
            fell = [s["ball"] for s in truth[self.seen :] if s["through"] == "hole"]
            self.seen = len(truth)
        return fell

    def tilt_to(self, pitch: float, roll: float) -> None:
        self.twin.hold(pitch=pitch, roll=roll)

    def follow(self, pitch: float, roll: float) -> None:
        pass  # the twin's hull is the truth; the reported tilt is drawn beside it

    def tilt(self) -> tuple[float, float]:
        hull = self.twin.hull()
        return hull["pitch"][0], hull["roll"][0]

    def balls(self) -> list[tuple[str, float, float]]:
        return [(kind, u, v) for kind, u, v, state in self.twin.balls() if state == "aboard"]

    def add(self, kind: str, u: float, v: float) -> None:
        self.twin.load(kind, u, v)


class DeckView(Widget):
    """The deck from above, the bow to the right: rim, hole, the balls, and an arrow downhill."""

    def __init__(self, rect, screen: PracticeScreen, key: str = "deck"):
        super().__init__(rect, key)
        self.screen = screen

    def geometry(self) -> tuple[float, float, float, float]:
        scale = min(self.rect.w * 0.92 / (2 * DECK_U), self.rect.h * 0.88 / (2 * DECK_V))
        return self.rect.centerx, self.rect.centery, scale, scale

    def draw(self, surface, ctx):
        from ..boards.ship_icons import blit_icon

        cx, cy, sx, sy = self.geometry()
        rim = ctx.theme.px(6)
        outer = pygame.Rect(0, 0, 2 * DECK_U * sx + 2 * rim, 2 * DECK_V * sy + 2 * rim)
        outer.center = (round(cx), round(cy))
        pygame.draw.ellipse(surface, RIM, outer)
        pygame.draw.ellipse(surface, DECK, outer.inflate(-2 * rim, -2 * rim))
        pygame.draw.circle(surface, th.INK, (round(cx), round(cy)), max(4, round(HOLE_R * sx)))
        pitch, roll = self.screen.deck.tilt()
        # downhill: the balls roll towards -pitch along the bow, -roll to port (up on screen)
        down = pygame.math.Vector2(-math.sin(math.radians(pitch)), math.sin(math.radians(roll)))
        if down.length() > 0.02:
            length = min(1.0, down.length() / math.sin(math.radians(12))) * DECK_V * sy * 0.9
            tip = pygame.math.Vector2(cx, cy) + down.normalize() * length
            pygame.draw.line(surface, th.PRIMARY, (cx, cy), tip, max(3, ctx.theme.px(5)))
            pygame.draw.circle(surface, th.PRIMARY, tip, max(4, ctx.theme.px(8)))
        px = max(12, round(2 * 0.007 * sx * 1.1))
        for kind, u, v in self.screen.deck.balls():
            blit_icon(surface, kind, (cx + u * sx, cy - v * sy), px)


class PracticeScreen(Screen):
    domain = "ship"

    def __init__(self, app):
        super().__init__(app)
        panel = getattr(app.hardware, "ship", None)
        twin = getattr(panel, "simulator", None) if panel is not None else None
        self.panel = panel
        self.deck = TwinDeck(twin) if twin is not None and hasattr(twin, "hull") else LocalDeck()
        self.rng = random.Random(1)
        self.message: str | None = None
        self.falls = 0
        self._ticking = False
        self._back: list[tuple[float, str]] = []
        self._shown: tuple[int, int] | None = None

    def title(self) -> str:
        return _("Practice flight")

    def can_go_back(self) -> bool:
        return True

    def practising(self) -> bool:
        return True

    def reported_tilt(self) -> tuple[float, float] | None:
        session = getattr(self.panel, "session", None)
        if session is None or session.link != "connected":
            return None
        return session.tilt

    def on_enter(self) -> None:
        if not self.deck.balls():
            for kind, u, v in (("rain", 0.05, 0.02), ("rain", -0.05, -0.015), ("hail", 0.0, 0.03)):
                self.deck.add(kind, u, v)
        if not self._ticking:
            self._ticking = True
            self.app.after(FRAME_S, self._tick)

    def on_leave(self) -> None:
        self._ticking = False

    def _tick(self) -> None:
        if self.app.screen is not self:
            self._ticking = False
            return
        reported = self.reported_tilt()
        if reported is not None and not self.deck.live:
            self.deck.follow(*reported)
        shown = None if reported is None else (round(reported[0]), round(reported[1]))
        if shown != self._shown:  # the status line says the ship's tilt in whole degrees
            self._shown = shown
            self.refresh()
        fell = self.deck.advance(FRAME_S)
        now = self.app.now()
        for kind in fell:
            self._back.append((now + BACK_AFTER_S, kind))
            self.falls += 1
            self.message = _("Splash! Through the hole.")
            self.refresh()
        due = [b for b in self._back if b[0] <= now]
        if due:
            self._back = [b for b in self._back if b[0] > now]
            for _at, kind in due:
                angle = self.rng.uniform(0, 2 * math.pi)
                self.deck.add(kind, 0.8 * DECK_U * math.cos(angle), 0.8 * DECK_V * math.sin(angle))
        self.app.redraw()
        self.app.after(FRAME_S, self._tick)

    def tilt(self, pad: str) -> None:
        self.deck.tilt_to(*PADS[pad])

    def add(self, kind: str) -> None:
        angle = self.rng.uniform(0, 2 * math.pi)
        self.deck.add(kind, 0.7 * DECK_U * math.cos(angle), 0.7 * DECK_V * math.sin(angle))

    def build(self, f, t) -> list[Widget]:
        gap = f.u(GAP)
        c = f.content
        if f.portrait:
            deck_card, side = rows(c, [1.25, 1], gap)
        else:
            deck_card, side = cols(c, [1.7, 1], gap)
        out: list[Widget] = [Panel(deck_card, key="deck-card")]
        area = inset(deck_card, f.u(8))
        out.append(DeckView(area, self))
        if not self.drives_real_ship():
            out += self.pads(f, area)
        out.append(Panel(side, key="side-card"))
        inner = inset(side, f.u(12))
        text, status, buttons = rows(inner, [1.5, 0.8, 2.2], gap)
        out.append(Label(text, self.prompt(), "body", wrap=True, key="prompt"))
        out.append(Label(status, self.message or self.status(), "small", colour=th.INK_SOFT, wrap=True, key="status"))
        if f.portrait:
            top, bottom = rows(buttons, 2, gap)
            rain, hail = cols(top, 2, gap)
        else:  # a narrow column: one button a row, so each name fits whole
            rain, hail, bottom = rows(buttons, 3, gap)
        out.append(
            Button(rain, _("Add a raindrop"), lambda: self.add("rain"), kind="secondary", size="small", key="add:rain")
        )
        out.append(
            Button(hail, _("Add a hailstone"), lambda: self.add("hail"), kind="secondary", size="small", key="add:hail")
        )
        out.append(
            Button(bottom, _("Level the ship"), lambda: self.tilt("level"), kind="secondary", size="small", key="level")
        )
        return out

    def drives_real_ship(self) -> bool:
        """A real ship is connected: the children tilt it; the pads would only contradict it."""
        return not self.deck.live and self.reported_tilt() is not None

    def pads(self, f, area: pygame.Rect) -> list[Widget]:
        """Nine tap targets over the deck: tap a side and the deck tips that way."""
        side = max(f.u(48), min(area.w, area.h) // 5)
        out: list[Widget] = []
        for r, row in enumerate(PAD_GRID):
            for c, pad in enumerate(row):
                if pad == "level":
                    continue
                x = (area.x, area.centerx - side // 2, area.right - side)[c]
                y = (area.y, area.centery - side // 2, area.bottom - side)[r]
                out.append(PadButton(pygame.Rect(x, y, side, side), pad, lambda p=pad: self.tilt(p)))
        return out

    def prompt(self) -> str:
        if self.drives_real_ship():
            return _(
                "Lift the ship and tilt it: the balls roll to the low side. Steer them into the hole! "
                "Nothing counts here."
            )
        return _(
            "Tap a side of the ship to tip it: the balls roll that way. Steer them into the hole! Nothing counts here."
        )

    def status(self) -> str:
        reported = self.reported_tilt()
        if reported is None:
            return _("No ship is connected: the arrows tip the ship on the screen.")
        pitch, roll = reported
        return _("The ship reports: bow {pitch}°, side {roll}°").format(pitch=f"{pitch:+.0f}", roll=f"{roll:+.0f}")


class PadButton(Button):
    """A see-through tap target over the deck's edge with a small arrow towards that side."""

    def __init__(self, rect, pad: str, on_tap):
        super().__init__(rect, "", on_tap, kind="secondary", key=f"tilt:{pad}")
        self.pad = pad

    def draw(self, surface, ctx):
        dx = {"w": -1, "e": 1}.get(self.pad[-1], 0) if self.pad not in ("n", "s") else 0
        dy = -1 if self.pad.startswith("n") else 1 if self.pad.startswith("s") else 0
        c = pygame.math.Vector2(self.rect.center)
        r = min(self.rect.w, self.rect.h) * 0.36
        d = pygame.math.Vector2(dx, dy)
        if d.length() == 0:
            return
        d = d.normalize()
        normal = pygame.math.Vector2(-d.y, d.x)
        tip = c + d * r
        points = [tip, c - d * r * 0.5 + normal * r * 0.55, c - d * r * 0.5 - normal * r * 0.55]
        colour = th.PRIMARY if ctx.pressed is self else th.INK_SOFT
        pygame.draw.polygon(surface, colour, points)
