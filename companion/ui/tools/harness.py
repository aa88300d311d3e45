"""Drive the app headless, for tests and the demo: real pygame on SDL's dummy drivers.

    h = Harness((800, 480), rotate=0)
    h.tap("Settings")                  # by visible text or widget key
    h.save("home.png")
    assert h.overflows() == []

Taps are posted as the SDL events a touchscreen produces (finger events plus the emulated
mouse press and release), then the app handles them exactly as in `run`.
"""

from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from collections.abc import Mapping  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any

import pygame  # noqa: E402

from ...config import Config  # noqa: E402
from ...errors import CompanionError  # noqa: E402
from ..kit.layout import Viewport  # noqa: E402
from ..kit.siblings import siblings, uneven  # noqa: E402
from ..kit.widgets import Button, Label, Panel, PlayerToken, Token, Widget, flat  # noqa: E402
from ..loop.app import App  # noqa: E402
from ..loop.hardware import NoHardware  # noqa: E402
from ..story.sounds import Silence  # noqa: E402

MARGIN_IN = 4  # design px: the least room between a button's (or the banner's) words and its edge
BANNERS = ("prompt", "load")  # the decision banner's words, on the card "prompt-card"


def _labels(widgets: list[Widget]) -> list[Label]:
    """The labels among `widgets`, a button's own label included."""
    out = []
    for widget in flat(widgets):
        if isinstance(widget, Label):
            out.append(widget)
        elif isinstance(widget, Button) and widget.text:
            out.append(widget.label)
    return out


def _painted(widget: Widget, theme) -> list[pygame.Rect]:
    """Where a widget paints (its letters, for a text; its box, for a card, button or token)."""
    if isinstance(widget, Label):
        return widget.ink(theme)
    if isinstance(widget, (Panel, Button, PlayerToken, Token)) and widget.rect.w and widget.rect.h:
        if isinstance(widget, (PlayerToken, Token)):  # round: the square inside the circle
            side = round(min(widget.rect.w, widget.rect.h) * 0.7)
            return [
                pygame.Rect(0, 0, side, side).move(widget.rect.centerx - side // 2, widget.rect.centery - side // 2)
            ]
        return [widget.rect]
    if getattr(widget, "paints", False) and widget.rect.w and widget.rect.h:  # a drawn part that declares its box
        return [widget.rect]
    return []


class NotOnScreen(CompanionError, LookupError):
    """What a test asked the harness to tap or read is not on the screen."""


class Harness:
    def __init__(
        self,
        size: tuple[int, int] = (800, 480),
        rotate: int = 0,
        config: Config | None = None,
        *,
        controller=None,
        hardware=None,
        journal=None,
        sounds=None,
        clock=None,
        config_path=None,
    ):
        pygame.display.init()
        pygame.font.init()
        display = pygame.display.set_mode(size)
        config = (config or Config()).with_changes(rotate=rotate)
        kwargs = {"clock": clock} if clock else {}
        self.app = App(
            Viewport(display, rotate),
            config,
            controller,
            sounds=sounds or Silence(),
            hardware=hardware or NoHardware(),
            journal=journal,
            config_path=config_path,
            **kwargs,
        )
        self.app.home()
        self.app.pump()

    # --- looking ------------------------------------------------------------------------------
    @property
    def screen(self):
        return self.app.screen

    def widgets(self) -> list[Widget]:
        return self.app.all_widgets()

    def texts(self) -> list[str]:
        return [text for w in self.widgets() for text in w.texts()]

    def find(self, target: str) -> Widget:
        """The tappable widget whose key or text is `target` (exact), else any widget showing it."""
        live = self.app.live_widgets()
        for widget in reversed(live):
            if widget.accepts_tap() and (widget.key == target or target in widget.texts()):
                return widget
        for widget in reversed(self.widgets()):
            if widget.key == target or target in widget.texts():
                return widget
        raise NotOnScreen(f"{target!r} is not on the screen; it shows: {self.texts()}")

    def shows(self, target: str) -> bool:
        try:
            self.find(target)
            return True
        except NotOnScreen:
            return False

    def buttons(self) -> list[Button]:
        return [w for w in self.app.live_widgets() if isinstance(w, Button)]

    def render(self) -> pygame.Surface:
        self.app.draw()
        return self.app.viewport.display

    def save(self, path: str | Path) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        pygame.image.save(self.render(), str(path))
        return path

    def overflows(self) -> list[str]:
        """Texts that do not fit their box (must be empty on every screen at every size)."""
        theme = self.app.theme
        return [text for w in self.widgets() for text in w.overflow(theme)]

    def clipped(self) -> list[str]:
        """Lines of text whose letters reach out of their box, so that drawing cuts them
        (above, below or at the side): the box is too low or too narrow for what it shows."""
        theme = self.app.theme
        return [line for label in _labels(self.widgets()) for line in label.clipped(theme)]

    def covered(self) -> list[str]:
        """Texts that something drawn after them, in the same layer, paints over (a line cut
        through by a panel, a token or another text)."""
        theme = self.app.theme
        out = []
        for layer in map(flat, self.app.layers()):
            for i, widget in enumerate(layer):
                for label in _labels([widget]):
                    inks = [ink for ink in label.ink(theme) if ink.w and ink.h]
                    for later in layer[i + 1 :]:
                        hit = next(
                            (
                                ink
                                for ink in inks
                                for area in _painted(later, theme)
                                if ink.clip(area).w > 1 and ink.clip(area).h > 1
                            ),
                            None,
                        )
                        if hit is not None:
                            out.append(f"{label.text!r} under {later.key or type(later).__name__}")
                            break
        return out

    def spilled(self) -> list[str]:
        """Lines of text that start on a card and run over its edge (cut through where the card
        ends: a sentence half on the card, half on the sky), or run off the canvas."""
        theme = self.app.theme
        bounds = self.app.viewport.canvas.get_rect()
        out = []
        for layer in map(flat, self.app.layers()):
            panels = [w.rect for w in layer if isinstance(w, Panel) and w.rect.w and w.rect.h]
            for label in _labels(layer):
                lines = label.fitted(theme).lines if label.text else ()
                for line, ink in zip(lines, label.ink(theme)):
                    if not (ink.w and ink.h):
                        continue
                    if not bounds.contains(ink):
                        out.append(f"{line!r} off the screen")
                        continue
                    holders = [p for p in panels if p.colliderect(ink)]
                    if holders and not any(p.contains(ink) for p in holders):
                        out.append(f"{line!r} over a card's edge")
        return out

    def under_floor(self) -> list[str]:
        """Texts drawn smaller than the smallest type ("min", 18 design px): a label capped
        under a banner that had itself shrunk to the floor, say."""
        theme = self.app.theme
        floor = theme.size("min") - 1  # a pixel for the scale's rounding
        return [
            f"{label.text!r} at {label.fitted(theme).px} px"
            for label in _labels(self.widgets())
            if label.text and label.fitted(theme).px < floor
        ]

    def cramped(self) -> list[str]:
        """Words on a button, or on the decision banner, that come nearer its edge than the
        margin (`MARGIN_IN` design px): "Startseite" touching its sides, a banner's line at
        its top. Text needs the room around it to read as text on a button, not cut from it."""
        theme = self.app.theme
        margin = max(1, theme.px(MARGIN_IN))
        out = []
        for layer in map(flat, self.app.layers()):
            holders = [(w.rect, w.label) for w in layer if isinstance(w, Button) and w.text]
            banners = [w for w in layer if isinstance(w, Label) and w.key in BANNERS]
            cards = [w.rect for w in layer if w.key == "prompt-card"]
            holders += [(card, label) for label in banners for card in cards if card.contains(label.rect)]
            for box, label in holders:
                room = box.inflate(-2 * margin, -2 * margin)
                lines = label.fitted(theme).lines if label.text else ()
                for line, ink in zip(lines, label.ink(theme)):
                    if ink.w and ink.h and not room.contains(ink):
                        out.append(f"{line!r} within {margin} px of its edge")
        return out

    def uneven(self) -> list[str]:
        """Buttons that stand together (a row, or a column) whose words differ in size or in
        their count of lines."""
        theme = self.app.theme
        out = []
        for layer in self.app.layers():
            for group in siblings(layer):
                if uneven(group, theme):
                    shown = [(b.text, b.label.fitted(theme)) for b in group]
                    out.append(", ".join(f"{text!r} {f.px} px on {len(f.lines)}" for text, f in shown))
        return out

    def small_targets(self) -> list[str]:
        theme = self.app.theme
        return [w.key or "?" for w in self.app.live_widgets() if isinstance(w, Button) and w.too_small(theme)]

    def off_canvas(self) -> list[str]:
        """Widgets that stick out of the canvas."""
        bounds = self.app.viewport.canvas.get_rect()
        return [
            w.key or ",".join(w.texts()) or type(w).__name__
            for w in self.widgets()
            if not bounds.contains(w.rect) and w.rect.w > 0
        ]

    def dropped(self) -> list[str]:
        """What the screen must show (`Screen.must_show()`: player names, say) but nowhere does,
        neither in a text nor on a player's token: information a layout dropped."""
        from ..kit.widgets import PlayerToken

        shown = self.texts()
        tokens = {w.name for w in self.widgets() if isinstance(w, PlayerToken)}
        return [
            item for item in self.screen.must_show() if item not in tokens and not any(item in text for text in shown)
        ]

    # --- doing --------------------------------------------------------------------------------
    def tap(self, target: str) -> Widget:
        widget = self.find(target)
        if not widget.accepts_tap():
            raise NotOnScreen(f"{target!r} is on the screen but cannot be tapped")
        self.tap_at(self.app.viewport.to_display(widget.rect.center))
        return widget

    def tap_at(self, pos: tuple[int, int]) -> None:
        """One finger tap at a display position, as SDL reports it from a touchscreen."""
        w, h = self.app.viewport.display.get_size()
        fx, fy = pos[0] / w, pos[1] / h
        for event in (
            pygame.event.Event(pygame.FINGERDOWN, touch_id=1, finger_id=0, x=fx, y=fy, dx=0.0, dy=0.0, pressure=1.0),
            pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1, touch=True),
            pygame.event.Event(pygame.FINGERUP, touch_id=1, finger_id=0, x=fx, y=fy, dx=0.0, dy=0.0, pressure=0.0),
            pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1, touch=True),
        ):
            pygame.event.post(event)
        self.app.pump()

    def key(self, key: int, mod: int = 0, unicode: str = "") -> None:
        pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode=unicode, scancode=0))
        self.app.pump()

    def type(self, text: str) -> None:
        pygame.event.post(pygame.event.Event(pygame.TEXTINPUT, text=text))
        self.app.pump()

    def start_game(self, setup: Mapping[str, Any], players=None):
        """Start a game straight on its screen (skipping the players screen)."""
        screen = self.app.start_game(dict(setup), players)
        self.app.pump()
        return screen
