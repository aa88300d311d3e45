"""Cloudship: the weather bar with the storm marker, the four beds with their flowers, the engine
room's pipe of 12 spaces with flowers and revealed hail, and the step of the round: enter the
roll, load and fly (tap the bed where each ball lands), land, then the wild flower and tile
questions the resolution asks (docs/reference/screens.md, "Game screens, at a glance").

The flight is entered by taps now; the ship's sensor will submit the same `drop` actions through
the controller (the screen shows them like taps), and `ship_tilt()` draws the ship at the angle
the hardware reports once it reports one.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from functools import partial
from typing import Any

import pygame

from ...i18n import translator
from ...rules.cloudship import BED_CAPACITY, BEDS, DICE, FACE_WEIGHTS, FACES, STORM
from ..boards import cloudship as drawn, forecast_view, ship_flight
from ..boards.ship_icons import HAIL_ALERT, HULL, blit_icon, icon_painter, icons_in_row
from ..kit import theme as th
from ..kit.layout import GAP, cols, grid, inset, outside, rows
from ..kit.widgets import Button, Label, Panel, Picture, PlayerToken, Widget
from .base import GameScreen
from .practice import _ as ship_

_ = translator("cloudship")

GROW_S = 0.3  # a ball that came to rest grows to full size in this long
ROLL_ICONS = ("die:yellow", "die:storm", "die:blue")  # "roll the three dice", as a picture


def random_roll(rng: random.Random) -> list[str]:
    """Three dice with their true weights: each colour on one face, the storm on two."""
    return rng.choices(FACES, weights=[FACE_WEIGHTS[face] for face in FACES], k=DICE)


class Flowerbed(Widget):
    """One flowerbed drawn as in the box (boards/cloudship.py); flowers just planted drop in."""

    def __init__(
        self,
        rect,
        screen,
        colour: str,
        flowers: int,
        new: int,
        lost: int,
        *,
        target: bool = False,
        bed: pygame.Rect | None = None,
        pad: tuple[int, int, int] = (0, 0, 0),
        key: str | None = None,
    ):
        super().__init__(rect, key)
        self.screen, self.colour, self.flowers, self.new, self.lost = screen, colour, flowers, new, lost
        self.target = target
        self.bed = bed or rect  # the coloured bed; the rest of the rect is plain soil
        self.pad = pad  # room kept free round the shape and holes (the flight's marks)

    def dropping(self) -> tuple[int, float]:
        """How many of its flowers are falling into their holes now, and how far they are (0-1)."""
        planting = self.screen.moment("plant", drawn.PLANT_S)
        if planting is None:
            return 0, 1.0
        return min(planting[1].get(self.colour, 0), self.flowers), planting[0]

    def draw(self, surface, ctx):
        # the bed with the holes its falling flowers go to; the flowers fall over the frame (the
        # screen's draw_above), so that the frame stays the same while they fall
        if self.bed != self.rect:
            drawn.paint_ground(surface, self.rect)
        dropping = self.dropping()[0]
        drawn.paint_bed_waiting(surface, self.bed, self.colour, self.flowers, dropping, self.new, self.lost, self.pad)
        if self.target:  # a bed the dice name: the balls should land here
            pygame.draw.rect(
                surface,
                th.FOCUS,
                self.rect,
                max(3, ctx.theme.px(4)),
                border_radius=max(4, min(self.rect.w, self.rect.h) // 10),
            )

    def draw_dropping(self, surface: pygame.Surface) -> None:
        """The flowers falling into their holes now (none once they are in)."""
        dropping, t = self.dropping()
        drawn.paint_dropping(surface, self.bed, self.flowers, dropping, t, self.pad)

    def signature(self, ctx):
        if type(self).draw is not Flowerbed.draw:
            return None
        return (
            type(self),
            tuple(self.rect),
            self.colour,
            self.flowers,
            self.dropping()[0],
            self.new,
            self.lost,
            self.target,
            tuple(self.bed),
            self.pad,
        )

    def flowers_drawn(self) -> int:
        return len(drawn.flowers_drawn(self.bed, self.flowers, self.pad))


# --- the screen -------------------------------------------------------------------------------


class CloudshipScreen(GameScreen):
    game = "cloudship"
    domain = "cloudship"

    def __init__(self, app, controller=None, players=None):
        super().__init__(app, controller, players)
        self.picked: list[str] = []  # die faces tapped so far for the roll being entered
        self.rng = random.Random()  # "roll for me"
        self._growing: dict[str, int] = {}  # what the last action added, growing in for GROW_S
        self._grown_at = 0.0
        # kind -> (when it started, what it carries: the square slid or flipped from, the flowers)
        self._moments: dict[str, tuple[float, Any]] = {}  # see moment()
        self._cloud_rect: pygame.Rect | None = None
        self._pipe_rect: pygame.Rect | None = None
        self._drawn_at: float | None = None  # a stand-in: the time its frame shows (the press's)

    def menu_extras(self):
        return [(ship_("Practice flight"), lambda: self.app.show(self.app.make("practice")))]

    def subtitle(self) -> str:
        return self.subtitle_forms()[0]

    def subtitle_forms(self) -> list[str]:
        """The round and its commander; where the bar is narrow (portrait, long names, long
        words) the word "commands" goes first, then the round: never the commander."""
        v = self.view
        return [
            _("Round {number} · {name} commands").format(number=v["round"], name=v["commander"]),
            _("Round {number} · {name}").format(number=v["round"], name=v["commander"]),
            v["commander"],
        ]

    def must_show(self) -> list[str]:
        return [self.view["commander"]]  # the crew plays as one: the commander is the person named

    def ship_tilt(self) -> float | None:
        """The ship's tilt in degrees when the hardware measures it (a later sensor), else None."""
        tilt = getattr(self.app.hardware, "ship_tilt", None)
        return tilt() if callable(tilt) else None

    def build(self, f, t):
        # landscape: the step as wide as the beds leave it (each bed keeps rain and hail side by side)
        board, step = self.board_and_step(f, 0.38 if f.portrait else 0.36)
        return self.under_the_banner(t, self.board(f, board) + self.step_panel(f, step))

    def draw_above(self, surface: pygame.Surface, ctx) -> None:
        flowerbeds = [widget for widget in self.app.widgets if isinstance(widget, Flowerbed)]
        if any(bed.dropping()[0] for bed in flowerbeds):  # flowers just planted, falling into their beds
            card = next((w.rect for w in self.app.widgets if w.key == "story-card"), None)
            kept = surface.get_clip()
            # a result card over a bed stays whole: its flowers fall behind it
            for clip in [kept] if card is None else outside(kept, card):
                surface.set_clip(clip)
                for bed in flowerbeds:
                    bed.draw_dropping(surface)
            surface.set_clip(kept)
        ship_flight.draw_above(self, surface, ctx)  # balls falling and striking the beds
        party = self.moment("celebrate", drawn.CELEBRATE_S)
        if party is not None:
            beds = [w.rect for w in self.app.widgets if isinstance(w, Flowerbed)]
            if beds:
                drawn.paint_celebration(surface, beds[0].unionall(beds[1:]), party[0])

    def draw_first_above(self, surface: pygame.Surface, ctx) -> bool:
        # the flowers a landing plants start falling with the next frame, into the rebuilt beds;
        # balls in the air or the celebration need the rebuilt screen (the frame is drawn whole)
        if self.moment("celebrate", drawn.CELEBRATE_S) is not None:
            return False
        panel = ship_flight.panel_of(self)
        return panel is None or not panel.session.judge.balls

    # --- drawing ahead: the commander's landing --------------------------------------------
    def rehearsal_actions(self):
        return [{"act": "land"}] if self.view["phase"] == "flight" else []

    def stand_in(self, after, action):
        # the moments the press starts, as on_game_change starts them, drawn at its first frame
        now = self.app.now()
        twin = super().stand_in(after, action)
        grown = self.grown_by(self.view, after.view, action)
        flowers = {key: n for key, n in grown.items() if not key.startswith("drop:")}
        twin.picked, twin._growing = [], {}
        twin._moments = {"plant": (now, flowers)} if flowers else {}
        twin._drawn_at = now
        return twin

    def card_keeps_clear(self, moment):
        # the storm card leaves the weather bar and the beds in sight, the hail card the engine room
        beds = tuple(f"bed:{colour}" for colour in BEDS)
        return {"storm": ("weather",) + beds, "hail": ("engine",)}.get(moment.kind, ())

    def card_picture(self, moment):
        # the hail card: the hailstones that fly along from now on, as the engine room loads them
        if moment.kind == "hail":
            return icons_in_row(["hail"] * max(1, self.view["hail_visible"]), self.app.frame.u(72))
        return None

    # --- the board --------------------------------------------------------------------------
    def board(self, f, area: pygame.Rect) -> list[Widget]:
        flying = self.view["phase"] == "flight"  # the beds take the balls: they get the room
        if f.portrait:
            weights = [0.8, 2.7, 1.2] if flying else [0.8, 2.35, 1.4]
        else:
            weights = [0.85, 2.5, 1.15] if flying else [0.85, 2.3, 1.05]
        weather, beds, engine = rows(area, weights, f.u(GAP))
        return self.weather_bar(f, weather) + self.beds(f, beds) + self.engine_room(f, engine)

    # the moments drawn where they happen: (kind, when it began, what it needs)
    def moment(self, kind: str, seconds: float) -> tuple[float, Any] | None:
        """How far the moment `kind` has got (0-1) and its data, while it runs; else None."""
        found = self._moments.get(kind)
        if found is None:
            return None
        started, data = found
        now = self._drawn_at if self._drawn_at is not None else self.app.now()
        t = (now - started) / seconds
        return (t, data) if t < 1.0 else None

    def weather_bar(self, f, card: pygame.Rect) -> list[Widget]:
        """The storm cloud on its square and the ship on the end square: the distance between
        them is the squares left (drawn; the number beside it for the grown-ups)."""
        v = self.view
        left = v["storm_end"] - v["storm"]
        inner = inset(card, f.u(6))
        number_w = min(f.u(64), inner.w // 6)
        number = pygame.Rect(inner.right - number_w, inner.y, number_w, inner.h)
        bar = pygame.Rect(inner.x, inner.y, inner.w - number_w - f.u(GAP), inner.h)
        ahead = []  # the storm forecast under the bar, for grown-ups who switched it on
        if forecast_view.shown(self.app):
            bar, below = rows(bar, [1, 0.85], f.u(2))
            ahead = forecast_view.widgets(below, forecast_view.forecaster_for(self), f)
        return [
            Panel(card, key="weather"),
            self.weather_picture(bar),
            Label(number, str(left), "title", colour=th.DANGER if left <= 3 else th.INK_SOFT, key="storm-left"),
        ] + ahead

    def weather_picture(self, bar: pygame.Rect) -> Picture:
        if self.moment("slide", drawn.SLIDE_S) is not None:  # the cloud slides: drawn every frame
            return Picture(bar, self.paint_weather, key="weather-bar")
        end, storm = self.view["storm_end"], self.view["storm"]
        self._cloud_rect = drawn.storm_cloud_rect(bar, end, float(storm))  # where it stands
        return Picture(
            bar, lambda surface, rect: drawn.paint_weather(surface, rect, end, storm), key="weather-bar", still=True
        )

    def paint_weather(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        v = self.view
        sliding = self.moment("slide", drawn.SLIDE_S)
        came_from, t = (sliding[1], sliding[0]) if sliding else (None, 1.0)
        self._cloud_rect = drawn.paint_weather(surface, rect, v["storm_end"], v["storm"], came_from, t)

    def beds(self, f, area: pygame.Rect) -> list[Widget]:
        out: list[Widget] = []
        for colour, cell in zip(BEDS, cols(area, len(BEDS), f.u(GAP))):
            out += self.bed_card(f, cell, colour)
        return out

    def bed_card(self, f, cell: pygame.Rect, colour: str) -> list[Widget]:
        """The flowerbed itself (its colour, its shape in the soil, the flowers in their holes);
        during the flight the dice of its colour, the balls that came to rest in it and the
        buttons to say where a ball landed sit on it."""
        v = self.view
        flying = v["phase"] == "flight"
        dice = Counter(v["dice"] or [])
        target = flying and dice[colour] > 0
        flowers = v["beds"][colour]
        new = v["planted"].count(colour) if not flying else 0
        lost = min(v["removed"].count(colour), BED_CAPACITY - flowers) if not flying else 0
        if not flying:
            return [Flowerbed(cell, self, colour, flowers, new, lost, key=f"bed:{colour}")]
        inner = inset(cell, f.u(4))
        kinds = 2 if v["load"]["hail"] else 1
        # rain and hail side by side where the bed is wide enough, else one above the other
        stacked = kinds if inner.w < 2 * f.u(48) + f.u(GAP) else 1
        buttons_h = min(round(inner.h * 0.55), stacked * f.u(56) + (stacked - 1) * f.u(GAP))
        buttons = pygame.Rect(inner.x, inner.bottom - buttons_h, inner.w, buttons_h)
        bed = pygame.Rect(cell.x, cell.y, cell.w, buttons.y - f.u(4) - cell.y)
        bed_inner = inset(bed, max(3, min(cell.w, cell.h) // 14))
        mark_h = max(f.u(18), min(f.u(32), bed_inner.h // 4))
        out: list[Widget] = [
            Flowerbed(
                cell,
                self,
                colour,
                flowers,
                0,
                0,
                target=target,
                bed=bed,
                pad=(0, mark_h // 2 + 1, 0),
                key=f"bed:{colour}",
            )
        ]
        if target:  # the dice of this colour: one die each
            out.append(
                Picture(
                    pygame.Rect(bed_inner.x, bed_inner.y, bed_inner.w, mark_h),
                    icons_in_row([f"die:{colour}"] * dice[colour], mark_h, align="left"),
                    key=f"target:{colour}",
                    still=True,
                )
            )
        balls = [d["ball"] for d in v["drops"] if d["bed"] == colour]
        landed = pygame.Rect(bed_inner.x, bed_inner.bottom - mark_h, bed_inner.w, mark_h)
        growing = (lambda: self.growth(f"drop:{colour}")) if self.growth(f"drop:{colour}")[0] else None
        out.append(Picture(landed, icons_in_row(balls, mark_h, growing=growing), key=f"landed:{colour}", still=True))
        return out + self.drop_buttons(f, buttons, colour)

    def drop_buttons(self, f, area: pygame.Rect, colour: str) -> list[Widget]:
        """A raindrop and (when hail flies) a hailstone to tap when one comes to rest in this bed;
        the pictures say which (a teardrop, a ball with an ice crystal), words would not fit."""
        v = self.view
        balls = ["rain"] + (["hail"] if v["load"]["hail"] else [])
        side_by_side = area.w >= len(balls) * f.u(48) + f.u(GAP) * (len(balls) - 1)
        cells = cols(area, len(balls), f.u(GAP)) if side_by_side else rows(area, len(balls), f.u(GAP))
        return [
            self.action_button(
                rect,
                "",
                {"act": "drop", "ball": ball, "bed": colour},
                kind="choice",
                icon=icon_painter(ball),
                key=f"drop:{ball}:{colour}",
            )
            for rect, ball in zip(cells, balls)
        ]

    def engine_room(self, f, card: pygame.Rect) -> list[Widget]:
        """The pipe of twelve spaces as in the box; at its end the hail the crew must load, as
        hailstones (no words)."""
        v = self.view
        inner = inset(card, f.u(6))
        hail = v["hail_visible"]
        out: list[Widget] = [Panel(card, key="engine")]
        if hail:
            side = min(inner.h, f.u(40))
            across = hail if inner.w > inner.h * 6 else 1
            count_w = side * across if across > 1 else side
            box = pygame.Rect(inner.right - count_w, inner.y, count_w, inner.h)
            kinds = ["hail"] * hail
            out.append(
                Picture(
                    box,
                    icons_in_row(kinds, side) if across > 1 else self.paint_hail_column(hail),
                    key="hail-visible",
                    still=True,
                )
            )
            inner = pygame.Rect(inner.x, inner.y, box.x - f.u(GAP) - inner.x, inner.h)
        self._pipe_rect = inner
        if self.moment("flip", drawn.FLIP_S) is not None:  # a tile turns over: drawn every frame
            return out + [Picture(inner, self.paint_pipe, key="pipe")]
        engine, reveal = drawn.engine_key(v), v["reveal_space"]
        return out + [
            Picture(
                inner, lambda surface, rect: drawn.paint_engine(surface, rect, engine, reveal), key="pipe", still=True
            )
        ]

    @staticmethod
    def paint_hail_column(count: int):
        def paint(surface: pygame.Surface, rect: pygame.Rect) -> None:
            px = min(rect.w, rect.h / count)
            top = rect.centery - px * count / 2
            for i in range(count):
                blit_icon(surface, "hail", (rect.centerx, top + px * (i + 0.5)), px * 0.9)

        return paint

    pipe_spaces = staticmethod(drawn.pipe_spaces)

    def paint_pipe(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        v = self.view
        flipping = self.moment("flip", drawn.FLIP_S)
        space, t = (flipping[1], flipping[0]) if flipping else (None, 1.0)
        load = next((w.rect.center for w in self.app.widgets if w.key == "hail-visible"), None)
        drawn.paint_engine(surface, rect, drawn.engine_key(v), v["reveal_space"], space, t, load)

    # --- the step ---------------------------------------------------------------------------
    def step_panel(self, f, step: pygame.Rect) -> list[Widget]:
        phase = self.view["phase"]
        out: list[Widget] = [Panel(step, key="step")]
        inner = inset(step, f.u(12))
        builder = {
            "roll": self.roll_step,
            "flight": self.flight_step,
            "plant": self.plant_step,
            "reveal": self.reveal_step,
        }.get(phase, self.over_step)
        return out + builder(f, inner)

    def prompt(
        self, f, rect: pygame.Rect, text: str, who: str | None = None, key: str = "prompt", icons: tuple[str, ...] = ()
    ) -> list[Widget]:
        """The next thing to do, on the decision banner (in the commander's colour, where the
        step is theirs); above it, where given, the same as a picture for those who cannot
        read yet (the commander's disc and three dice: "roll!")."""
        out: list[Widget] = []
        if icons:
            pictures, rect = rows(rect, [0.55, 1.45] if f.portrait else [0.6, 1.4], f.u(2))
            side = min(pictures.h, f.u(48))
            row = pygame.Rect(0, 0, min(pictures.w, side * (len(icons) + (1.2 if who else 0))), side)
            row.center = pictures.center
            if who is not None:
                box = pygame.Rect(row.x, row.y, side, side)
                out.append(PlayerToken(box, who, self.player(who).colour, key="commander", mark=self.mark(who)))
                row = pygame.Rect(box.right + side // 5, row.y, row.right - box.right - side // 5, side)
            out.append(Picture(row, icons_in_row(list(icons), side), key=f"{key}-picture", still=True))
        return out + self.prompt_card(f, rect, who, text, key=key)

    def roll_step(self, f, inner: pygame.Rect) -> list[Widget]:
        v = self.view
        notice = self.three_storms()
        summary = [] if notice else self.resolution_lines()
        out: list[Widget] = []
        if f.portrait:  # the slots and "roll for me" side by side, the faces in one row
            # the slots, the faces and the line between at the heights their targets and words
            # need; the banner gets the rest (its words on two lines, not one shrunk to fit)
            gap = f.u(GAP)
            needs = [f.u(40), f.u(52), f.u(68)]  # info, slots, faces
            banner_h = inner.h - sum(needs) - 3 * gap
            if banner_h >= inner.h * 1.3 / 4.4:
                prompt, info, slots, faces = rows(inner, [banner_h, *needs], gap)
            else:  # a short step: in proportion
                prompt, info, slots, faces = rows(inner, [1.3, 0.85, 0.95, 1.3], gap)
            slot_area, helper = cols(slots, [1.4, 1], f.u(GAP))
            out += self.face_buttons(f, faces, len(FACES))
        else:
            prompt, info, slot_area, faces, helper = rows(inner, [1.0, 0.45, 0.49, 1.05, 0.48], f.u(GAP))
            out += self.face_buttons(f, faces, 3)
        out += self.prompt(
            f, prompt, _("{name}: roll the dice!").format(name=v["commander"]), v["commander"], icons=ROLL_ICONS
        )
        if summary:
            out += self.resolution(f, info, summary)
        else:
            out.append(
                Label(
                    info,
                    notice or _("Tap the faces the three dice show."),
                    "small",
                    wrap=True,
                    colour=th.DANGER if notice else th.INK_SOFT,
                    key="roll-info",
                )
            )
        out += self.die_slots(f, slot_area)
        out.append(
            Button(helper, _("Roll for me"), self.roll_for_me, kind="secondary", key="roll-for-me", size="small")
        )  # under the banner's size
        return out

    def die_slots(self, f, area: pygame.Rect) -> list[Widget]:
        out: list[Widget] = []
        side = min(area.h, (area.w - 2 * f.u(GAP)) // DICE)
        total = side * DICE + f.u(GAP) * (DICE - 1)
        x = area.centerx - total // 2
        for i in range(DICE):
            rect = pygame.Rect(x + i * (side + f.u(GAP)), area.y + (area.h - side) // 2, side, side)
            if i < len(self.picked):
                out.append(
                    Button(
                        rect,
                        "",
                        partial(self.unpick, i),
                        kind="choice",
                        icon=icon_painter(f"token:{self.picked[i]}"),
                        key=f"die:{i}",
                    )
                )
            else:
                out.append(Panel(rect, colour=th.SECONDARY, key=f"die:{i}"))
        return out

    def face_buttons(self, f, area: pygame.Rect, columns: int) -> list[Widget]:
        out: list[Widget] = []
        for face, cell in zip(FACES, grid(area, len(FACES), columns, f.u(GAP))):
            out.append(
                Button(
                    cell,
                    "",
                    partial(self.pick, face),
                    kind="choice",
                    icon=icon_painter(f"token:{face}"),
                    key=f"face:{face}",
                )
            )
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
        if (
            last
            and last.get("act") == "roll"
            and self.view["phase"] == "roll"
            and list(last.get("dice", [])) == [STORM] * DICE
        ):
            return _("Three storms do not count: roll again.")
        return None

    def flight_step(self, f, inner: pygame.Rect) -> list[Widget]:
        v = self.view
        rain, hail = v["load"]["rain"], v["load"]["hail"]
        dropped = Counter(d["ball"] for d in v["drops"])
        # the headline is what to load ("2 raindrops, 1 hailstone"), the balls aboard the ship
        # drawn large under it, how to catch them below
        heights = [0.5, 1.85, 0.75, 1.0, 1.0] if not f.portrait else [0.45, 1.35, 0.6, 0.65, 0.9]
        dice_row, load_row, ship_row, hint_row, land_row = rows(inner, heights, f.u(GAP))
        storms = v["dice"].count(STORM)
        dice_kinds = [f"die:{face}" for face in v["dice"]]
        dice_area, storm_area = cols(dice_row, [1.3, 1], f.u(GAP))
        out: list[Widget] = [
            Picture(dice_area, icons_in_row(dice_kinds, f.u(44)), key="rolled", still=True),
            Label(
                storm_area,
                _("storm +{count}").format(count=storms) if storms else _("no storm"),
                "small",
                wrap=True,
                colour=th.DANGER if storms else th.GOOD,
                key="storm-moved",
            ),
        ]
        load = _.ngettext("{count} raindrop", "{count} raindrops", rain).format(count=rain)
        if hail:
            load = _("{rain}, {hail}").format(
                rain=load, hail=_.ngettext("{count} hailstone", "{count} hailstones", hail).format(count=hail)
            )
        out += self.prompt(f, load_row, _("Load {balls}").format(balls=load), key="load")
        aboard = ["rain"] * (rain - dropped["rain"]) + ["hail"] * (hail - dropped["hail"])
        out.append(Picture(ship_row, self.paint_ship(aboard), key="ship", still=True))
        hint = _("Fly! Tap the ball on the bed where it lands.") if aboard else _("Every ball is down: land.")
        hint = (ship_flight.flight_hint(self) if aboard else None) or hint  # the ship judges the drops
        out.append(Label(hint_row, hint, "small", wrap=True, colour=th.INK_SOFT, key="fly-hint"))
        out.append(
            self.action_button(land_row, _("We have landed"), {"act": "land"}, kind="primary", key="land", size="title")
        )
        return out

    def paint_ship(self, aboard: Sequence[str]):
        """The ship with the balls still aboard, level or at the measured tilt (read when the
        screen is built: a tilt sensor refreshes the screen when the angle changes)."""
        tilt, aboard = self.ship_tilt(), tuple(aboard)  # plain values: the picture may be kept

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
            out.append(
                Label(
                    pygame.Rect(row.x, row.y, text_w, row.h),
                    caption,
                    "small",
                    align="left",
                    colour=ink,
                    key="resolution",
                )
            )
            out.append(
                Picture(
                    pygame.Rect(row.x + text_w, row.y, row.w - text_w, row.h),
                    icons_in_row([f"token:{c}" for c in colours], f.u(40), align="left"),
                    still=True,
                )
            )
        return out

    def plant_step(self, f, inner: pygame.Rect) -> list[Widget]:
        heights = [2.0, 0.75, 2.2, 0.8] if not f.portrait else [1.3, 0.5, 1.5, 0.75]
        prompt, hint, choice, summary = rows(inner, heights, f.u(GAP))
        out = self.prompt(
            f,
            prompt,
            _("A wild flower! Which bed gets it?"),  # one at a time
            icons=("token:wild", "flower"),
        )
        out.append(
            Label(hint, _("Any bed that is not full."), "small", wrap=True, colour=th.INK_SOFT, key="plant-hint")
        )
        for colour, cell in zip(BEDS, grid(choice, len(BEDS), 2 if not f.portrait else 4, f.u(GAP))):
            # the bed's shape and colour are its name here, as on the board
            out.append(
                self.action_button(
                    cell,
                    "",
                    {"act": "plant", "bed": colour},
                    kind="choice",
                    icon=icon_painter(f"token:{colour}"),
                    key=f"plant:{colour}",
                )
            )
        return out + self.resolution(f, summary, self.resolution_lines())

    def reveal_step(self, f, inner: pygame.Rect) -> list[Widget]:
        v = self.view
        heights = [2.5, 0.88, 2.72, 0.94] if not f.portrait else [1.3, 0.45, 1.3, 0.75]
        prompt, hint, buttons, summary = rows(inner, heights, f.u(GAP))
        out = self.prompt(
            f,
            prompt,
            _("Turn over the tile on space {space}: hail?").format(space=v["reveal_space"]),
            icons=("tile:face_down",),
        )
        out.append(
            Label(
                hint,
                _("It lay under the flower just planted."),
                "small",
                wrap=True,
                colour=th.INK_SOFT,
                key="reveal-hint",
            )
        )
        hail_rect, blank_rect = rows(buttons, 2, f.u(GAP)) if not f.portrait else cols(buttons, 2, f.u(GAP))
        out.append(
            self.action_button(
                hail_rect,
                _("Hail"),
                {"act": "reveal", "hail": True},
                kind="danger",
                icon=icon_painter("tile:hail"),
                key="reveal:hail",
                size="title",
            )
        )
        out.append(
            self.action_button(
                blank_rect,
                _("Blank"),
                {"act": "reveal", "hail": False},
                kind="good",
                icon=icon_painter("tile:blank"),
                key="reveal:blank",
                size="title",
            )
        )
        return out + self.resolution(f, summary, self.resolution_lines())

    def over_step(self, f, inner: pygame.Rect) -> list[Widget]:
        v = self.view
        won = v["result"] == "won"
        text = _("All 12 flowers grew: the crew wins!") if won else _("The storm has arrived: the crew loses.")
        top, bottom = rows(inner, [1, 1], f.u(GAP))
        return [
            Picture(top, icons_in_row(["flower"] * 3 if won else ["token:storm"], f.u(72)), still=True),
            Label(bottom, text, "prompt", wrap=True, colour=th.GOOD if won else th.DANGER, key="result"),
        ]

    # --- feedback -------------------------------------------------------------------------
    def on_game_change(self, before, after, action) -> None:
        self.picked = []
        b, a, act = before.view, after.view, action.get("act")
        now = self.app.now()
        grown = self.grown_by(b, a, action)
        self._growing = {key: n for key, n in grown.items() if key.startswith("drop:")}
        if self._growing:  # a ball that just landed grows in
            self._grown_at = now
            self.app.animate(GROW_S)
        self._moments = {}
        flowers = {key: n for key, n in grown.items() if not key.startswith("drop:")}
        if flowers:  # each new flower drops into its bed
            self.start_moment("plant", flowers, drawn.PLANT_S)
        if act == "roll" and a["storm"] > b["storm"]:  # the storm cloud slides on
            self.start_moment("slide", b["storm"], drawn.SLIDE_S)
        if act == "reveal" and action.get("hail"):  # the tile flips, its hailstone joins the load
            self.start_moment("flip", b["reveal_space"], drawn.FLIP_S)
        if a["over"] and not b["over"] and a["result"] == "won":  # the twelfth flower
            self.start_moment("celebrate", None, drawn.CELEBRATE_S)
        super().on_game_change(before, after, action)

    def start_moment(self, kind: str, data, seconds: float) -> None:
        self._moments[kind] = (self.app.now(), data)
        self.app.animate(seconds)

    def show_end(self) -> None:
        """A won game celebrates on the board first, then shows its end screen."""
        if "celebrate" not in self._moments:
            super().show_end()
            return

        def then():
            if self.app.screen is self and self.match.view["over"]:
                super(CloudshipScreen, self).show_end()

        self.app.after(drawn.CELEBRATE_S, then)

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
        roll("yellow", "purple", "storm")
        + drops(("rain", "yellow"), ("rain", "purple"))
        + land
        + roll(STORM, STORM, STORM)
        + roll("white", "blue", "blue")
        + drops(("rain", "white"), ("hail", "white"), ("rain", "blue"), ("rain", "white"))
        + land
        + roll("yellow", "yellow", "purple")
        + drops(("rain", "yellow"), ("hail", "purple"), ("rain", "yellow"), ("rain", "blue"))
        + land
        + roll("purple", "purple", "white")
        + drops(("rain", "purple"), ("rain", "purple"), ("rain", "white"))
        + land
        + roll("yellow", "blue", "storm")
        + drops(("rain", "yellow"), ("rain", "blue"))
        + land
        + roll("yellow", "blue", "white")
        + drops(("rain", "yellow"), ("rain", "blue"), ("rain", "white"))
        + land
        + roll("white", "purple", "storm")
        + drops(("rain", "white"), ("rain", "purple"))
        + land
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
