"""Cloudship: the weather bar with the storm marker, the four beds with their flowers, the engine
room's pipe of 12 spaces with flowers and revealed hail, and the step of the round: enter the
roll, load and fly (tap the bed where each ball lands), land, then the wild flower and tile
questions the resolution asks (ui-guide, "Game screens, at a glance").

The flight is entered by taps now; the ship's sensor will submit the same `drop` actions through
the controller (the screen shows them like taps), and `ship_tilt()` draws the ship at the angle
the hardware reports once it reports one.
"""

from __future__ import annotations

import math
import random
from collections import Counter

import pygame

from ...i18n import translator
from ...rules.cloudship import BED_CAPACITY, BEDS, DICE, ENGINE_SPACES, FACE_WEIGHTS, FACES, SECTION_SIZE, STORM
from ..boards import forecast_view, ship_flight
from ..kit import theme as th
from ..kit.layout import GAP, cols, grid, inset, rows
from ..kit.widgets import Button, Label, Panel, Picture, PlayerToken, Widget, fit_text
from ..boards.ship_icons import (
    HAIL_ALERT, HULL, PASSED_SQUARE, PIPE, SKY_SQUARE, SOIL, STORM_SQUARE, blit_icon, icon_painter, icons_in_row, token,
)
from .base import GameScreen
from .practice import _ as ship_

_ = translator("cloudship")

GROW_S = 0.3  # a new flower or ball grows to full size in this long


def random_roll(rng: random.Random) -> list[str]:
    """Three dice with their true weights: each colour on one face, the storm on two."""
    return rng.choices(FACES, weights=[FACE_WEIGHTS[face] for face in FACES], k=DICE)


# --- the screen -------------------------------------------------------------------------------

class CloudshipScreen(GameScreen):
    game = "cloudship"
    domain = "cloudship"

    def __init__(self, app, controller=None, players=None):
        super().__init__(app, controller, players)
        self.picked: list[str] = []      # die faces tapped so far for the roll being entered
        self.rng = random.Random()       # "roll for me"
        self._growing: dict[str, int] = {}  # what the last action added, growing in for GROW_S
        self._grown_at = 0.0

    def menu_extras(self):
        return [(ship_("Practice flight"), lambda: self.app.show(self.app.make("practice")))]

    def subtitle(self) -> str:
        return self.subtitle_forms()[0]

    def subtitle_forms(self) -> list[str]:
        """The round and its commander; where the bar is narrow (portrait, long names, long
        words) the word "commands" goes first, then the round: never the commander."""
        v = self.view
        return [_("Round {number} · {name} commands").format(number=v["round"], name=v["commander"]),
                _("Round {number} · {name}").format(number=v["round"], name=v["commander"]),
                v["commander"]]

    def must_show(self) -> list[str]:
        return [self.view["commander"]]  # the crew plays as one: the commander is the person named

    def ship_tilt(self) -> float | None:
        """The ship's tilt in degrees when the hardware measures it (a later sensor), else None."""
        tilt = getattr(self.app.hardware, "ship_tilt", None)
        return tilt() if callable(tilt) else None

    def build(self, f, t):
        board, step = self.board_and_step(f, 0.38 if f.portrait else None)
        return self.board(f, board) + self.step_panel(f, step)

    def draw_above(self, surface: pygame.Surface, ctx) -> None:
        ship_flight.draw_above(self, surface, ctx)  # balls falling and striking the beds

    def card_keeps_clear(self, moment):
        # the storm card leaves the weather bar and the beds in sight, the hail card the engine room
        beds = tuple(f"bed:{colour}" for colour in BEDS)
        return {"storm": ("weather",) + beds, "hail": ("engine",)}.get(moment.kind, ())

    # --- the board --------------------------------------------------------------------------
    def board(self, f, area: pygame.Rect) -> list[Widget]:
        flying = self.view["phase"] == "flight"  # the beds take the balls: they get the room
        if f.portrait:
            weights = [1.0, 2.7, 1.3] if flying else [0.9, 2.35, 1.6]
        else:
            weights = [1.0, 2.7, 1.15] if flying else [1.0, 2.4, 1.05]
        weather, beds, engine = rows(area, weights, f.u(GAP))
        return self.weather_bar(f, weather) + self.beds(f, beds) + self.engine_room(f, engine)

    def weather_bar(self, f, card: pygame.Rect) -> list[Widget]:
        v = self.view
        left = v["storm_end"] - v["storm"]
        inner = inset(card, f.u(8))
        number_w = f.u(72)
        words = _.ngettext("square left before the storm", "squares left before the storm", left)
        # the words as narrow as they fit the card's height: the bar (and the forecast) get the rest
        for caption_w in (f.u(w) for w in (100, 115, 130, 150, 170, 190)):
            if not fit_text(words, caption_w, inner.h, self.app.theme.size("small"),
                            self.app.theme.size("min"), True, th.weight_of("small")).overflow:
                break
        number = pygame.Rect(inner.x, inner.y, number_w, inner.h)
        caption = pygame.Rect(number.right, inner.y, caption_w, inner.h)
        bar = pygame.Rect(caption.right + f.u(GAP), inner.y, inner.right - caption.right - f.u(GAP), inner.h)
        danger = left <= 3
        ahead = []  # the storm forecast, under the bar when the odds are shown
        if forecast_view.shown(self.app):
            bar, below = rows(bar, [1, 0.85], f.u(2))
            ahead = forecast_view.widgets(below, forecast_view.forecaster_for(self), f)
        return [Panel(card, key="weather"),
                Label(number, str(left), "display", colour=th.DANGER if danger else th.INK, key="storm-left"),
                Label(caption, words, "small", wrap=True, align="left", colour=th.DANGER if danger else th.INK_SOFT),
                Picture(bar, self.paint_weather, key="weather-bar")] + ahead

    def paint_weather(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        v = self.view
        squares = v["storm_end"] + 1  # the start square, then 1 to the end square
        step = rect.w / squares
        side, tall = step - max(2, step / 10), rect.h * 0.6
        y = rect.centery - tall / 2
        for i in range(squares):
            box = pygame.Rect(round(rect.x + i * step + (step - side) / 2), round(y), round(side), round(tall))
            fill = STORM_SQUARE if i == squares - 1 else PASSED_SQUARE if i < v["storm"] else SKY_SQUARE
            pygame.draw.rect(surface, fill, box, border_radius=max(2, round(side / 6)))
            pygame.draw.rect(surface, th.INK_SOFT, box, 1, border_radius=max(2, round(side / 6)))
            if i == squares - 1:
                blit_icon(surface, "token:storm", box.center, side * 0.8)
        marker = (rect.x + (v["storm"] + 0.5) * step, rect.centery)
        radius = min(step * 0.75, rect.h / 2)
        pygame.draw.circle(surface, th.CARD, marker, radius)
        pygame.draw.circle(surface, th.FOCUS, marker, radius, max(2, round(radius / 6)))
        blit_icon(surface, "token:storm", marker, radius * 1.5)

    def beds(self, f, area: pygame.Rect) -> list[Widget]:
        out: list[Widget] = []
        for colour, cell in zip(BEDS, cols(area, len(BEDS), f.u(GAP))):
            out += self.bed_card(f, cell, colour)
        return out

    def bed_card(self, f, cell: pygame.Rect, colour: str) -> list[Widget]:
        v = self.view
        flying = v["phase"] == "flight"
        dice = Counter(v["dice"] or [])
        target = flying and dice[colour] > 0
        flowers = v["beds"][colour]
        out: list[Widget] = [Panel(cell, highlight=th.FOCUS if target else None, key=f"bed:{colour}")]
        inner = inset(cell, f.u(6))
        if flying:  # the drop buttons first: at least 48 px each, whatever is left above them
            kinds = 2 if v["load"]["hail"] else 1
            # rain and hail side by side where the bed is wide enough, else one above the other
            stacked = kinds if inner.w < 2 * f.u(48) + f.u(GAP) else 1
            buttons_h = min(round(inner.h * 0.6), stacked * f.u(56) + (stacked - 1) * f.u(GAP))
            buttons = pygame.Rect(inner.x, inner.bottom - buttons_h, inner.w, buttons_h)
            top = pygame.Rect(inner.x, inner.y, inner.w, inner.h - buttons_h - f.u(4))
            head, plants, landed = rows(top, [1.0, 0.8, 1.2], f.u(2))
        else:
            head, plants, landed = rows(inner, [1.0, 2.6, 0.8], f.u(4))
            buttons = None
        token_side = min(head.h, f.u(44))
        out.append(token(pygame.Rect(head.x, head.y, token_side, head.h), colour, key=f"bed-token:{colour}"))
        note = pygame.Rect(head.x + token_side + f.u(4), head.y, head.w - token_side - f.u(4), head.h)
        # the flower count always; during the flight the dice of this colour beside the balls
        out.append(Label(note, "{count}/{most}".format(count=flowers, most=BED_CAPACITY), "title",
                         key=f"flowers:{colour}"))
        new = v["planted"].count(colour) if not flying else 0
        lost = min(v["removed"].count(colour), BED_CAPACITY - flowers) if not flying else 0
        out.append(Picture(plants, self.paint_bed(colour, flowers, new, lost), key=f"plants:{colour}"))
        if flying:
            balls = [d["ball"] for d in v["drops"] if d["bed"] == colour]
            if target:
                mark_w = min(landed.w // 3, f.u(40))
                out.append(Label(pygame.Rect(landed.x, landed.y, mark_w, landed.h), "×{count}".format(
                    count=dice[colour]), "body", colour=th.PRIMARY, key=f"target:{colour}"))
                landed = pygame.Rect(landed.x + mark_w, landed.y, landed.w - mark_w, landed.h)
            out.append(Picture(landed, icons_in_row(balls, f.u(44), growing=lambda: self.growth(f"drop:{colour}")),
                               key=f"landed:{colour}"))
            out += self.drop_buttons(f, buttons, colour)
        elif flowers == BED_CAPACITY:
            # a full bed: its next flower is a wild one, drawn as the wild card's rainbow
            out.append(Picture(landed, icons_in_row(["token:wild"], f.u(40)), key=f"full:{colour}"))
        elif new or lost:
            parts = []
            if new:
                parts.append("+{n}".format(n=new))
            if lost:
                parts.append("–{n}".format(n=lost))
            out.append(Label(landed, " ".join(parts), "body", colour=th.GOOD if not lost else th.DANGER,
                             key=f"change:{colour}"))
        return out

    def paint_bed(self, colour: str, flowers: int, new: int, lost: int):
        def slots(rect: pygame.Rect) -> tuple[float, list[tuple[float, float]]]:
            """A row of three, or (given the height) two with one above, like a little bed."""
            row = min(rect.w / BED_CAPACITY, rect.h)
            mound = min(rect.w / 2, rect.h / 1.9)
            if mound > row * 1.15:
                cx, cy = rect.centerx, rect.centery
                return mound, [(cx - mound / 2, cy + mound * 0.45), (cx + mound / 2, cy + mound * 0.45),
                               (cx, cy - mound * 0.45)]
            x = rect.centerx - row * BED_CAPACITY / 2
            return row, [(x + row * (slot + 0.5), rect.centery) for slot in range(BED_CAPACITY)]

        def paint(surface: pygame.Surface, rect: pygame.Rect) -> None:
            side, centres = slots(rect)
            growing, scale = self.growth(colour)
            for slot, centre in enumerate(centres):
                pygame.draw.circle(surface, SOIL, centre, side * 0.46)
                if slot < flowers:
                    if slot >= flowers - new:  # grown this round
                        pygame.draw.circle(surface, th.GOOD, centre, side * 0.46, max(2, round(side / 14)))
                    blit_icon(surface, "flower", centre, side * 0.86, scale if slot >= flowers - growing else 1.0)
                elif slot < flowers + lost:  # taken by hail this round
                    (x, y), d, width = centre, side * 0.2, max(2, round(side / 12))
                    pygame.draw.line(surface, HAIL_ALERT, (x - d, y - d), (x + d, y + d), width)
                    pygame.draw.line(surface, HAIL_ALERT, (x - d, y + d), (x + d, y - d), width)
        return paint

    def drop_buttons(self, f, area: pygame.Rect, colour: str) -> list[Widget]:
        """A raindrop and (when hail flies) a hailstone to tap when one comes to rest in this bed;
        the pictures say which (a teardrop, a ball with an ice crystal), words would not fit."""
        v = self.view
        balls = ["rain"] + (["hail"] if v["load"]["hail"] else [])
        side_by_side = area.w >= len(balls) * f.u(48) + f.u(GAP) * (len(balls) - 1)
        cells = cols(area, len(balls), f.u(GAP)) if side_by_side else rows(area, len(balls), f.u(GAP))
        return [self.action_button(rect, "", {"act": "drop", "ball": ball, "bed": colour}, kind="choice",
                                   icon=icon_painter(ball), key=f"drop:{ball}:{colour}")
                for rect, ball in zip(cells, balls)]

    def engine_room(self, f, card: pygame.Rect) -> list[Widget]:
        v = self.view
        inner = inset(card, f.u(8))
        # the words need one line of small type whatever the card's height; the pipe the rest
        head_h = max(f.u(24), round(inner.h * (0.55 if f.portrait else 0.8) / 2.4))
        head = pygame.Rect(inner.x, inner.y, inner.w, head_h)
        pipe = pygame.Rect(inner.x, head.bottom + f.u(2), inner.w, inner.h - head_h - f.u(2))
        title, hail = cols(head, [1.5, 1], f.u(GAP))
        hail_text = _("Hail visible: {count}").format(count=v["hail_visible"])
        return [Panel(card, key="engine"),
                Label(title, _.ngettext("Engine room: {count} flower", "Engine room: {count} flowers",
                                        v["engine_room"]).format(count=v["engine_room"]), "small",
                      align="left", key="engine-flowers"),
                Label(hail, hail_text, "small", align="right",
                      colour=HAIL_ALERT if v["hail_visible"] else th.INK_SOFT, key="hail-visible"),
                Picture(pipe, self.paint_pipe, key="pipe")]

    @staticmethod
    def pipe_spaces(rect: pygame.Rect) -> list[tuple[float, float, float]]:
        """(x, y, radius) of each engine space: four sections of three along one pipe, in one
        row, or where the card is tall enough in two (the pipe turns back at the right)."""
        arrow = min(rect.h * 0.35, rect.w * 0.05)
        sections = ENGINE_SPACES // SECTION_SIZE
        lines = 2 if rect.h >= rect.w * 0.18 else 1
        per_line = ENGINE_SPACES // lines
        gap = rect.w * 0.025
        step = (rect.w - arrow - gap * (sections // lines - 1)) / per_line
        line_h = rect.h / lines
        radius = min(step * 0.46, line_h * 0.42)
        out = []
        for i in range(ENGINE_SPACES):
            line, place = divmod(i, per_line)
            if line % 2:  # the way back runs right to left
                place = per_line - 1 - place
            x = rect.x + arrow + (place // SECTION_SIZE) * gap + step * (place + 0.5)
            out.append((x, rect.y + line_h * (line + 0.5), radius))
        return out

    def paint_pipe(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        v = self.view
        spaces = self.pipe_spaces(rect)
        first = spaces[0]
        width = max(3, round(first[2] * 0.5))
        path = [(rect.x, first[1])] + [(x, y) for x, y, _ in spaces]
        pygame.draw.lines(surface, PIPE, False, path, width)
        half = first[2] * 0.6
        tip = first[0] - first[2] - 2
        pygame.draw.polygon(surface, HAIL_ALERT, [(tip - half * 1.2, first[1] - half), (tip, first[1]),
                                                  (tip - half * 1.2, first[1] + half)])
        reveal = v["reveal_space"]
        for (x, y, radius), space in zip(spaces, v["engine"]):
            centre = (x, y)
            pygame.draw.circle(surface, th.CARD, centre, radius)
            pygame.draw.circle(surface, th.INK_SOFT, centre, radius, max(1, round(radius / 10)))
            tile = space["tile"]
            if space["flower"]:
                if tile is not None:  # a tile lies beneath: its corner peeks out
                    blit_icon(surface, f"tile:{tile}", (x + radius * 0.45, y + radius * 0.45), radius * 0.9)
                blit_icon(surface, "flower", centre, radius * 1.7)
            elif tile is not None:
                blit_icon(surface, f"tile:{tile}", centre, radius * 2.1)
            if space["space"] == reveal:
                pygame.draw.circle(surface, th.FOCUS, centre, radius + max(2, radius / 5), max(3, round(radius / 4)))

    # --- the step ---------------------------------------------------------------------------
    def step_panel(self, f, step: pygame.Rect) -> list[Widget]:
        phase = self.view["phase"]
        out: list[Widget] = [Panel(step, key="step")]
        inner = inset(step, f.u(12))
        builder = {"roll": self.roll_step, "flight": self.flight_step, "plant": self.plant_step,
                   "reveal": self.reveal_step}.get(phase, self.over_step)
        return out + builder(f, inner)

    def prompt(self, f, rect: pygame.Rect, text: str, who: str | None = None, key: str = "prompt") -> list[Widget]:
        """The next thing to do, in the largest type on the screen (with the commander's shape)."""
        out: list[Widget] = []
        if who is not None:
            side = min(rect.h, f.u(48))
            box = pygame.Rect(rect.x, rect.y + (rect.h - side) // 2, side, side)
            out.append(PlayerToken(box, who, self.player(who).colour, key="commander", mark=self.mark(who)))
            rect = pygame.Rect(box.right + f.u(6), rect.y, rect.right - box.right - f.u(6), rect.h)
        return out + [Label(rect, text, "prompt", wrap=True, key=key)]

    def roll_step(self, f, inner: pygame.Rect) -> list[Widget]:
        v = self.view
        notice = self.three_storms()
        summary = [] if notice else self.resolution_lines()
        out: list[Widget] = []
        if f.portrait:  # the slots and "roll for me" side by side, the faces in one row
            prompt, info, slots, faces = rows(inner, [1.0, 0.75, 1.0, 1.35], f.u(GAP))
            slot_area, helper = cols(slots, [1.4, 1], f.u(GAP))
            out += self.face_buttons(f, faces, len(FACES))
        else:
            prompt, info, slot_area, faces, helper = rows(inner, [1.1, 0.82, 0.95, 2.2, 0.95], f.u(GAP))
            out += self.face_buttons(f, faces, 3)
        out += self.prompt(f, prompt, _("{name}: roll the dice!").format(name=v["commander"]), v["commander"])
        if summary:
            out += self.resolution(f, info, summary)
        else:
            out.append(Label(info, notice or _("Tap the faces the three dice show."), "small", wrap=True,
                             colour=th.DANGER if notice else th.INK_SOFT, key="roll-info"))
        out += self.die_slots(f, slot_area)
        out.append(Button(helper, _("Roll for me"), self.roll_for_me, kind="secondary", key="roll-for-me"))
        return out

    def die_slots(self, f, area: pygame.Rect) -> list[Widget]:
        out: list[Widget] = []
        side = min(area.h, (area.w - 2 * f.u(GAP)) // DICE)
        total = side * DICE + f.u(GAP) * (DICE - 1)
        x = area.centerx - total // 2
        for i in range(DICE):
            rect = pygame.Rect(x + i * (side + f.u(GAP)), area.y + (area.h - side) // 2, side, side)
            if i < len(self.picked):
                out.append(Button(rect, "", lambda i=i: self.unpick(i), kind="choice",
                                  icon=icon_painter(f"token:{self.picked[i]}"), key=f"die:{i}"))
            else:
                out.append(Panel(rect, colour=th.SECONDARY, key=f"die:{i}"))
        return out

    def face_buttons(self, f, area: pygame.Rect, columns: int) -> list[Widget]:
        out: list[Widget] = []
        for face, cell in zip(FACES, grid(area, len(FACES), columns, f.u(GAP))):
            out.append(Button(cell, "", lambda face=face: self.pick(face), kind="choice",
                              icon=icon_painter(f"token:{face}"), key=f"face:{face}"))
        return out

    def pick(self, face: str) -> None:
        self.picked.append(face)
        if len(self.picked) == DICE:
            dice, self.picked = self.picked, []
            self.submit({"act": "roll", "dice": dice})
        self.refresh()

    def unpick(self, index: int) -> None:
        del self.picked[index]
        self.refresh()

    def roll_for_me(self) -> None:
        self.picked = []
        self.submit({"act": "roll", "dice": random_roll(self.rng)})
        self.refresh()

    def three_storms(self) -> str | None:
        """The last roll showed three storms: it does not count (the rulebook's reroll)."""
        last = self.match.current.action
        if last and last.get("act") == "roll" and self.view["phase"] == "roll" and \
                list(last.get("dice", [])) == [STORM] * DICE:
            return _("Three storms do not count: roll again.")
        return None

    def flight_step(self, f, inner: pygame.Rect) -> list[Widget]:
        v = self.view
        rain, hail = v["load"]["rain"], v["load"]["hail"]
        dropped = Counter(d["ball"] for d in v["drops"])
        # the headline is what to load ("2 raindrops, 1 hailstone"), how to catch them below it
        heights = [0.75, 1.3, 1.0, 0.95, 1.25] if not f.portrait else [0.55, 0.85, 0.7, 0.55, 1.15]
        dice_row, load_row, hint_row, ship_row, land_row = rows(inner, heights, f.u(GAP))
        storms = v["dice"].count(STORM)
        dice_kinds = [f"token:{face}" for face in v["dice"]]
        dice_area, storm_area = cols(dice_row, [1.3, 1], f.u(GAP))
        out: list[Widget] = [Picture(dice_area, icons_in_row(dice_kinds, f.u(44)), key="rolled"),
                             Label(storm_area, _("storm +{count}").format(count=storms)
                                   if storms else _("no storm"), "small", wrap=True,
                                   colour=th.DANGER if storms else th.GOOD, key="storm-moved")]
        load = _.ngettext("{count} raindrop", "{count} raindrops", rain).format(count=rain)
        if hail:
            load = _("{rain}, {hail}").format(
                rain=load, hail=_.ngettext("{count} hailstone", "{count} hailstones", hail).format(count=hail))
        out += self.prompt(f, load_row, _("Load {balls}").format(balls=load), key="load")
        aboard = ["rain"] * (rain - dropped["rain"]) + ["hail"] * (hail - dropped["hail"])
        out.append(Picture(ship_row, self.paint_ship(aboard), key="ship"))
        hint = _("Fly! Tap the ball on the bed where it lands.") if aboard else _("Every ball is down: land.")
        hint = (ship_flight.flight_hint(self) if aboard else None) or hint  # the ship judges the drops
        out.append(Label(hint_row, hint, "body", wrap=True, colour=th.INK_SOFT, key="fly-hint"))
        out.append(self.action_button(land_row, _("We have landed"), {"act": "land"}, kind="primary",
                                      key="land", size="title"))
        return out

    def paint_ship(self, aboard: list[str]):
        """The ship with the balls still aboard, level or at the measured tilt (read when the
        screen is built: a tilt sensor refreshes the screen when the angle changes)."""
        tilt = self.ship_tilt()

        def paint(surface: pygame.Surface, rect: pygame.Rect) -> None:
            w = min(rect.w * 0.9, rect.h * 3.2)
            h = min(rect.h * 0.9, w / 3)
            cx, cy = rect.centerx, rect.centery
            hull = [(-0.5, -0.1), (0.5, -0.1), (0.38, 0.5), (-0.38, 0.5)]
            angle = math.radians(tilt or 0.0)

            def at(x: float, y: float) -> tuple[float, float]:
                px, py = x * w, y * h
                cos, sin = math.cos(angle), math.sin(angle)
                return cx + px * cos - py * sin, cy + px * sin + py * cos
            points = [at(x, y) for x, y in hull]
            pygame.draw.polygon(surface, HULL, points)
            pygame.draw.polygon(surface, th.INK, points, max(2, round(h / 14)))
            pygame.draw.line(surface, th.INK, at(-0.55, -0.5), at(-0.45, -0.1), max(2, round(h / 16)))
            pygame.draw.line(surface, th.INK, at(0.55, -0.5), at(0.45, -0.1), max(2, round(h / 16)))
            if aboard:
                px = min(h * 0.75, w * 0.8 / len(aboard))
                for i, ball in enumerate(aboard):
                    blit_icon(surface, ball, at((i + 0.5) / len(aboard) * 0.8 - 0.4, -0.1), px)
        return paint

    def resolution_lines(self) -> list[tuple[str, list[str], tuple[int, int, int]]]:
        """What the round just resolved did: (caption, bed colours) for what grew and what hail took."""
        v = self.view
        lines = []
        if v["planted"]:
            lines.append((_("Grew:"), v["planted"], th.GOOD))
        if v["removed"]:
            lines.append((_("Hail took:"), v["removed"], HAIL_ALERT))
        if not lines and v["round"] > 1 and not self.three_storms():
            lines.append((_("Nothing grew last round."), [], th.INK_SOFT))
        return lines

    def resolution(self, f, area: pygame.Rect, lines) -> list[Widget]:
        """What grew and what the hail took, as the beds' shapes after a caption."""
        out: list[Widget] = []
        if not lines:
            return out
        # the captions as wide as the longest needs (the shapes after them shrink to fit), so
        # that both lines' shapes start in one column
        t = self.app.theme
        widest = max((t.measure(caption, t.size("small"))[0] for caption, colours, _ink in lines if colours), default=0)
        text_w = min(round(area.w * 0.6), widest + f.u(6))
        for row, (caption, colours, ink) in zip(rows(area, len(lines), f.u(2)), lines):
            if not colours:
                out.append(Label(row, caption, "small", wrap=True, colour=ink, key="resolution"))
                continue
            out.append(Label(pygame.Rect(row.x, row.y, text_w, row.h), caption, "small", align="left",
                             colour=ink, key="resolution"))
            out.append(Picture(pygame.Rect(row.x + text_w, row.y, row.w - text_w, row.h),
                               icons_in_row([f"token:{c}" for c in colours], f.u(40), align="left")))
        return out

    def plant_step(self, f, inner: pygame.Rect) -> list[Widget]:
        heights = [1.3, 0.7, 3.0, 0.9] if not f.portrait else [1.0, 0.5, 1.6, 0.8]
        prompt, hint, choice, summary = rows(inner, heights, f.u(GAP))
        out = self.prompt(f, prompt, _("A wild flower! Which bed gets it?"))  # one at a time
        out.append(Label(hint, _("Any bed that is not full."), "small", wrap=True, colour=th.INK_SOFT,
                         key="plant-hint"))
        for colour, cell in zip(BEDS, grid(choice, len(BEDS), 2 if not f.portrait else 4, f.u(GAP))):
            # the bed's shape and colour are its name here, as on the board
            out.append(self.action_button(cell, "", {"act": "plant", "bed": colour}, kind="choice",
                                          icon=icon_painter(f"token:{colour}"), key=f"plant:{colour}"))
        return out + self.resolution(f, summary, self.resolution_lines())

    def reveal_step(self, f, inner: pygame.Rect) -> list[Widget]:
        v = self.view
        heights = [1.5, 0.8, 2.4, 0.9] if not f.portrait else [1.0, 0.5, 1.4, 0.8]
        prompt, hint, buttons, summary = rows(inner, heights, f.u(GAP))
        out = self.prompt(f, prompt, _("Turn over the tile on space {space}: hail?").format(space=v["reveal_space"]))
        out.append(Label(hint, _("It lay under the flower just planted."), "small", wrap=True, colour=th.INK_SOFT,
                         key="reveal-hint"))
        hail_rect, blank_rect = rows(buttons, 2, f.u(GAP)) if not f.portrait else cols(buttons, 2, f.u(GAP))
        out.append(self.action_button(hail_rect, _("Hail"), {"act": "reveal", "hail": True}, kind="danger",
                                      icon=icon_painter("tile:hail"), key="reveal:hail", size="title"))
        out.append(self.action_button(blank_rect, _("Blank"), {"act": "reveal", "hail": False}, kind="good",
                                      icon=icon_painter("tile:blank"), key="reveal:blank", size="title"))
        return out + self.resolution(f, summary, self.resolution_lines())

    def over_step(self, f, inner: pygame.Rect) -> list[Widget]:
        v = self.view
        won = v["result"] == "won"
        text = _("All 12 flowers grew: the crew wins!") if won else _("The storm has arrived: the crew loses.")
        top, bottom = rows(inner, [1, 1], f.u(GAP))
        return [Picture(top, icons_in_row(["flower"] * 3 if won else ["token:storm"], f.u(72))),
                Label(bottom, text, "prompt", wrap=True, colour=th.GOOD if won else th.DANGER, key="result")]

    # --- feedback -------------------------------------------------------------------------
    def on_game_change(self, before, after, action) -> None:
        self.picked = []
        self._growing = self.grown_by(before.view, after.view, action)
        if self._growing:  # new flowers and a ball that just landed grow in (ui-guide: <= 300 ms)
            self._grown_at = self.app.now()
            self.app.animate(GROW_S)
        super().on_game_change(before, after, action)

    @staticmethod
    def grown_by(before: dict, after: dict, action) -> dict[str, int]:
        """What an action added that the board should show growing: flowers per bed, or
        "drop:<bed>" for a ball that came to rest there. Undo shrinks nothing: it just shows."""
        act = action.get("act")
        if act == "drop":
            return {f"drop:{action['bed']}": 1}
        if act in ("land", "plant", "reveal"):
            return {c: after["beds"][c] - before["beds"][c] for c in BEDS if after["beds"][c] > before["beds"][c]}
        return {}

    def growth(self, key: str) -> tuple[int, float]:
        """How many of the newest pictures of `key` are still growing in, and their size (0-1)."""
        count = self._growing.get(key, 0)
        if not count:
            return 0, 1.0
        t = (self.app.now() - self._grown_at) / GROW_S
        if t >= 1.0:
            return 0, 1.0
        return count, 0.45 + 0.55 * (1 - (1 - max(0.0, t)) ** 2)  # ease out

    def sounds_for(self, before, after, action):
        act = action.get("act")
        b, a = before.view, after.view
        if act == "roll":
            return ["roll", "storm"] if a["storm"] > b["storm"] else ["roll"]
        if act == "drop":
            return ["raindrop" if action["ball"] == "rain" else "hail"]
        if act == "land":
            if a["planted"]:
                return ["flower"]
            return ["hail"] if a["removed"] else ["fall"]
        if act == "plant":
            return ["flower"]
        if act == "reveal":
            return ["hail"] if action["hail"] else ["right"]
        if act in ("undo", "redo"):
            return ["fall"]
        return []


def demo_game() -> tuple[dict, list[dict]]:
    """A short complete game for `cloud-companion demo` (and the tests): the rulebook's first
    round, a roll of three storms, hail that is cancelled and hail that takes a flower, a wild
    flower, tiles turned over, then on to all 12 flowers."""
    from ...rules import Match

    setup = {"game": "cloudship", "players": ["Emma", "Milan", "Aaron", "Olivia"], "first_commander": "Emma"}
    hail_spaces = {2, 6, 7}  # what the tiles show when turned over: one hail tile per section

    def roll(*dice):
        return [{"act": "roll", "dice": list(dice)}]

    def drops(*pairs):
        return [{"act": "drop", "ball": ball, "bed": bed} for ball, bed in pairs]

    land = [{"act": "land"}]
    script = (
        roll("yellow", "purple", "storm") + drops(("rain", "yellow"), ("rain", "purple")) + land
        + roll(STORM, STORM, STORM)
        + roll("white", "blue", "blue") + drops(("rain", "white"), ("hail", "white"), ("rain", "blue"),
                                                ("rain", "white")) + land
        + roll("yellow", "yellow", "purple") + drops(("rain", "yellow"), ("hail", "purple"), ("rain", "yellow"),
                                                     ("rain", "blue")) + land
        + roll("purple", "purple", "white") + drops(("rain", "purple"), ("rain", "purple"), ("rain", "white")) + land
        + roll("yellow", "blue", "storm") + drops(("rain", "yellow"), ("rain", "blue")) + land
        + roll("yellow", "blue", "white") + drops(("rain", "yellow"), ("rain", "blue"), ("rain", "white")) + land
        + roll("white", "purple", "storm") + drops(("rain", "white"), ("rain", "purple")) + land
    )
    match, actions = Match.start(setup), []

    def play(action):
        nonlocal match
        match = match.apply(action)
        actions.append(action)

    for action in script:
        play(action)
        while match.view["phase"] in ("reveal", "plant"):  # answer what the resolution asks
            if match.view["phase"] == "reveal":
                play({"act": "reveal", "hail": match.view["reveal_space"] in hail_spaces})
            else:
                open_beds = [c for c in BEDS if match.view["beds"][c] < BED_CAPACITY]
                play({"act": "plant", "bed": min(open_beds, key=lambda c: match.view["beds"][c])})
        if match.view["over"]:
            break
    return setup, actions
