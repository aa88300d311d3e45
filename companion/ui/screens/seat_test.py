"""Settings -> seat test: press any seat button and see which seat and button it is; the seat
LEDs light one after the other; a stuck button is shown as held down.

Open it with `app.show(SeatTestScreen(app))`. The seat code (companion.devices.table) does the
work in its "test" mode; this screen only draws its SeatTestModel.
"""

from __future__ import annotations

import pygame

from ...devices.router import button_name
from ...devices.seats import STUCK_AFTER_S
from ...i18n import translator
from ..kit import theme as th
from ..kit.layout import GAP, cols, grid, inset, rows
from ..kit.widgets import Label, Panel, Widget
from .base import Screen

_ = translator("seats")

LIT = (255, 190, 20)  # a lit LED: amber, drawn filled with rays
UNLIT = (150, 160, 172)  # a dark LED: drawn as a ring only


class LedLamp(Widget):
    """A seat LED as the screen shows it: a filled, rayed disc when lit, an empty ring when dark
    (the shape tells them apart without colour)."""

    def __init__(self, rect, lit: bool, key: str | None = None):
        super().__init__(rect, key)
        self.lit = lit

    def draw(self, surface, ctx):
        r = min(self.rect.w, self.rect.h) // 2 - ctx.theme.px(2)
        c = self.rect.center
        if self.lit:
            for i in range(8):
                ray = pygame.math.Vector2(0, 1).rotate(i * 45)
                pygame.draw.line(surface, LIT, c + ray * r * 0.75, c + ray * r, max(2, ctx.theme.px(3)))
            pygame.draw.circle(surface, LIT, c, round(r * 0.6))
            pygame.draw.circle(surface, th.INK, c, round(r * 0.6), max(1, ctx.theme.px(1.5)))
        else:
            pygame.draw.circle(surface, UNLIT, c, round(r * 0.6), max(2, ctx.theme.px(3)))


class SeatTestScreen(Screen):
    domain = "seats"

    def title(self) -> str:
        return _("Seat test")

    def seat_mode(self) -> str:
        return "test"

    def model(self):
        return self.app.hardware.seat_test()

    def on_enter(self) -> None:
        self._tick()

    def _tick(self) -> None:
        # the LEDs move on every step: redraw with them while this screen is shown
        model = self.model()
        if self.app.screen is self and model is not None:
            self.refresh()
            self.app.after(model.step_s / 2, self._tick)

    def on_seat_outcome(self, outcome) -> bool:
        self.refresh()
        return True

    def build(self, f, t):
        c = f.content
        model = self.model()
        if model is None:
            return [Panel(c), Label(inset(c, f.u(24)), _("No seat buttons are attached."), "prompt", wrap=True)]
        gap = f.u(GAP)
        prompt, seats_area, foot = rows(c, [1, 3.4, 0.7], gap)
        out: list[Widget] = [
            Panel(prompt, key="prompt-card"),
            Label(inset(prompt, f.u(8)), self.prompt(model), "prompt", key="prompt"),
        ]
        columns = 2 if f.portrait else 4
        lit = model.lit_seat()
        last = model.last
        for seat, cell in enumerate(grid(seats_area, model.seat_count, columns, gap), start=1):
            out += self.seat_card(f, cell, seat, lit == seat, last, model.stuck)
        out.append(Label(foot, self.footnote(), "small", colour=th.INK_SOFT, wrap=True, key="footnote"))
        return out

    def prompt(self, model) -> str:
        if model.stuck:
            seat, button = sorted(model.stuck)[0]
            return _("Seat {seat} {button} is held down").format(seat=seat, button=button_name(button))
        if model.last is None:
            return _("Press any seat button")
        return _("Seat {seat}: {button}").format(seat=model.last.seat, button=button_name(model.last.button))

    def seat_card(self, f, cell, seat, lit, last, stuck) -> list[Widget]:
        pressed_here = last is not None and last.seat == seat
        out: list[Widget] = [Panel(cell, highlight=th.PRIMARY if pressed_here else None, key=f"seat:{seat}")]
        # narrow side margins: four cards abreast at 800x480 leave each button little width,
        # and the longest word ("beragadt") needs all of it
        inner = cell.inflate(-2 * f.u(4), -2 * f.u(8))
        head, buttons = rows(inner, [1, 1.4], f.u(4))
        name, lamp = cols(head.inflate(-2 * f.u(4), 0), [2.2, 1], f.u(4))
        out.append(Label(name, _("Seat {seat}").format(seat=seat), "body", align="left"))
        out.append(LedLamp(lamp, lit, key=f"led:{seat}"))
        for button, box in zip(("jump", "stay"), cols(buttons, 2, f.u(4))):
            held = (seat, button) in stuck
            just = pressed_here and last.button == button
            colour = th.DANGER if held else th.PRIMARY if just else th.SECONDARY
            ink = (255, 255, 255) if held or just else th.INK
            out.append(Panel(box, colour=colour, key=f"button:{seat}:{button}"))
            text = _("held") if held else button_name(button)
            out.append(Label(box.inflate(0, -2 * f.u(2)), text, "small", colour=ink))
        return out

    def footnote(self) -> str:
        keyboard = getattr(self.app.hardware, "keyboard", None)
        if keyboard is not None:
            legend = keyboard.legend()
            return _(
                "Simulated buttons: keys {jump_first}-{jump_last} press JUMP, {stay_first}-{stay_last} press STAY"
            ).format(jump_first=legend[0][1], jump_last=legend[-1][1], stay_first=legend[0][2], stay_last=legend[-1][2])
        return _(
            "The LEDs light one after the other; a button held down for {seconds} seconds is ignored until released."
        ).format(seconds=round(STUCK_AFTER_S))
