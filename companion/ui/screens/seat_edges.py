"""Where each seat sits around the screen, and the turn cues that follow from it.

Settings asks once: a picture of the screen with its four edges; pick a seat, tap the edge it
sits at (the next seat is picked for you). The edges are stored as edges of the display as
mounted (`config.seat_edges`), so turning the picture keeps each seat where it is.

During a game the player whose move it is (the seat whose LED blinks, else the one lit: the
same choice as the seat LEDs, companion.devices.router) gets a ribbon in their colour, with
their shape, along their seat's edge, and their seat's own chime when their turn comes.
"""

from __future__ import annotations

import pygame

from ... import i18n
from ...config import EDGES as CONFIG_EDGES
from ...devices.router import GAME_SEATS, LedMode
from ..kit import theme as th
from ..kit.layout import GAP, Frame, cols, rows
from ..kit.ribbon import BAR_PAD, canvas_edge, display_edge, draw_ribbon
from ..kit.widgets import Button, Label, Panel, Widget
from .base import GameScreen, Screen

_ = i18n.translator("app")

SEATS = len(CONFIG_EDGES) * 2  # 8


def to_move(view) -> list[str]:
    """Whose move it is: those whose seat LED blinks (a decision), else those lit (a turn)."""
    if view.get("over") or view.get("game") not in GAME_SEATS:
        return []
    plan = GAME_SEATS[view["game"]].leds(view)
    blinking = [name for name, mode in plan.items() if mode == LedMode.BLINK and name is not None]
    return blinking or [name for name, mode in plan.items() if mode == LedMode.ON and name is not None]


def seat_of(screen: GameScreen, name: str) -> int | None:
    """A player's seat: the one claimed, else their place in the seating order."""
    names = [p.name for p in screen.players]
    if name not in names:
        return None
    player = screen.players[names.index(name)]
    return player.seat or names.index(name) + 1


def ribbons(screen, config, rotate: int) -> list[tuple[str, str, int]]:
    """(canvas edge, colour, seat) of each player to move on a game screen."""
    if not isinstance(screen, GameScreen) or screen.controller is None or screen.controller.match is None:
        return []
    out = []
    for name in to_move(screen.view):
        seat = seat_of(screen, name)
        if seat is not None and 1 <= seat <= len(config.seat_edges):
            colour = screen.player(name).colour
            out.append((canvas_edge(config.seat_edges[seat - 1], rotate), colour, seat))
    return out


def ribbon_area(f: Frame) -> pygame.Rect:
    """Where the ribbons run: the whole screen under the top bar's buttons, so that a ribbon
    covers neither the title nor Undo, and a top one fills the gap above the content."""
    top = f.bar.bottom - f.u(BAR_PAD)
    return pygame.Rect(0, top, f.width, f.height - top)


class TurnCues:
    """Draws the ribbons over each frame of a game screen; chimes when the turn passes."""

    def __init__(self):
        self._last: tuple[int, tuple[int, ...]] | None = None  # (screen, seats) last cued

    def draw(self, app, surface: pygame.Surface) -> None:
        shown = ribbons(app.screen, app.config, app.viewport.rotate)
        area = ribbon_area(app.frame)
        for edge, colour, _seat in shown:
            draw_ribbon(surface, area, edge, colour, app.frame.scale)
        if not isinstance(app.screen, GameScreen):
            return
        seats = tuple(seat for _edge, _colour, seat in shown)
        now = (id(app.screen), seats)
        if now != self._last:
            if seats and (self._last is None or self._last[1] != seats):
                app.sounds.chime(seats[0])  # Sounds stays silent when muted
            self._last = now


class SeatEdgesScreen(Screen):
    """Settings > Seats around the screen."""

    def __init__(self, app):
        super().__init__(app)
        self.chosen = 1

    def title(self) -> str:
        return _("Seats around the screen")

    def seats_shown(self) -> int:
        return min(SEATS, len(self.app.config.seats))

    def build(self, f, t):
        c = f.content
        gap = f.u(GAP)
        rotate = self.app.viewport.rotate
        edges = self.app.config.seat_edges
        head, picker, picture = rows(c, [0.8, 1.6, 4.2] if f.portrait else [0.7, 1, 3], gap)
        out: list[Widget] = [
            Label(
                head,
                _("Pick a seat, then tap the edge of the screen it sits at."),
                "body",
                wrap=True,
                key="seat-edges-prompt",
            )
        ]
        count = self.seats_shown()
        lines = 2 if f.portrait and count > 4 else 1  # a narrow screen: two rows of seats
        per_line = -(-count // lines)
        boxes = [box for line in rows(picker, lines, gap) for box in cols(line, per_line, gap)]
        for rect, seat in zip(boxes, range(1, count + 1)):
            out.append(
                Button(
                    rect,
                    str(seat),
                    lambda s=seat: self.choose(s),
                    kind="choice",
                    selected=seat == self.chosen,
                    key=f"seat:{seat}",
                    size="title",
                )
            )
        # the screen drawn in the middle, an edge button along each of its sides
        bar = f.u(72)
        screen_box = picture.inflate(-2 * bar - 2 * gap, -2 * bar - 2 * gap)
        out.append(Panel(screen_box, colour=th.SECONDARY, key="seat-edges-screen"))
        out.append(
            Label(
                screen_box.inflate(-f.u(16), -f.u(16)),
                _("the screen"),
                "small",
                colour=th.INK_SOFT,
                key="seat-edges-screen-name",
            )
        )
        sides = {
            "top": pygame.Rect(screen_box.left, picture.top, screen_box.width, bar),
            "bottom": pygame.Rect(screen_box.left, picture.bottom - bar, screen_box.width, bar),
            "left": pygame.Rect(picture.left, screen_box.top, bar, screen_box.height),
            "right": pygame.Rect(picture.right - bar, screen_box.top, bar, screen_box.height),
        }
        for edge, rect in sides.items():
            mounted = display_edge(edge, rotate)
            here = [str(s) for s in range(1, count + 1) if edges[s - 1] == mounted]
            text = " ".join(here) if here else "+"
            out.append(
                Button(rect, text, lambda e=mounted: self.place(e), kind="secondary", key=f"edge:{edge}", size="title")
            )
        return out

    def choose(self, seat: int) -> None:
        self.chosen = seat
        self.app.refresh()

    def place(self, mounted_edge: str) -> None:
        """The chosen seat sits at `mounted_edge` (an edge of the display as mounted)."""
        edges = list(self.app.config.seat_edges)
        edges[self.chosen - 1] = mounted_edge
        self.app.change_config(seat_edges=tuple(edges))
        self.chosen = self.chosen % self.seats_shown() + 1  # on to the next seat
        self.app.refresh()
