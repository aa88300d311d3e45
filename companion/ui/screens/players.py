"""Players: how many, their names (on-screen keyboard), colours with shapes, who starts, the
game's own choices, and the seats (each player presses the button at their seat, or taps it).

Seats are numbered clockwise round the table, so once every player has a seat the players are
put in seat order, which is the clockwise order the rules need.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from functools import partial
from typing import Any

import pygame

from ... import i18n
from ...journal.errors import JournalError
from ...journal.history import recent_names
from ...rules import SetupError, rules_by_name
from ..kit import theme as th
from ..kit.layout import GAP, cols, grid, inset, rows
from ..kit.names import NameLabel, fit_name, shared_px
from ..kit.roster import Player
from ..kit.widgets import Button, Label, Panel, Widget, player_icon, token_marks
from . import game_screen_class
from .base import Screen, game_title

_ = i18n.translator("app")

COLOUR_NAMES = {
    "red": i18n.N_("Red"),
    "blue": i18n.N_("Blue"),
    "green": i18n.N_("Green"),
    "yellow": i18n.N_("Yellow"),
    "black": i18n.N_("Black"),
    "orange": i18n.N_("Orange"),
    "purple": i18n.N_("Purple"),
    "white": i18n.N_("White"),
}
# the setup field naming who starts, per game, and how the button says it
FIRST_PLAYER = {
    "cloud9": ("first_pilot", i18n.N_("First pilot: {name}")),
    "cloudship": ("first_commander", i18n.N_("First commander: {name}")),
    "cloudmine": ("first_dreamer", i18n.N_("First Dreamer: {name}")),
}
SEATS = 8
KNOWN_FROM_GAMES = 50  # the keyboard offers the names of this many latest games


def colours_for(game: str) -> tuple[str, ...]:
    """Cloud 9 has six token colours; the other games use any of the eight player colours."""
    return th.CLOUD9_TOKEN_COLOURS if game == "cloud9" else th.PLAYER_COLOURS


@dataclass
class Entry:
    colour: str
    typed: str | None = None  # None: the name is the colour's name, in the current language
    seat: int | None = None

    @property
    def name(self) -> str:
        return self.typed or _(COLOUR_NAMES[self.colour])


def seat_of(entry: Entry) -> int:
    assert entry.seat is not None  # asked once nobody is waiting: every player has a seat
    return entry.seat


@dataclass
class SetupChoice:
    """A game's own setup field (e.g. Cloudship's mode), offered as a button that cycles."""

    key: str
    label: str  # "Mode: {value}", in `domain`
    options: tuple[tuple[Any, str], ...]  # (setup value, label in `domain`)
    domain: str = "app"
    default_index: int = 0


# the colour buttons' side, from the widest to the smallest touch target (48 px): narrower
# where a name would otherwise not fit whole at the smallest type
TOKEN_SIDES = (72, 64, 56, 48)


def fits_whole(button: Button, theme) -> bool:
    """The button's name fits its label's box at the smallest type, without being shortened."""
    return not fit_name(
        button.text,
        theme.size("min"),
        theme.size("min"),
        button.label.rect.w,
        button.label.rect.h,
        th.weight_of("title"),
    ).overflow


class PlayersScreen(Screen):
    def __init__(self, app, game: str, previous: dict | None = None, players: list[Player] | None = None):
        super().__init__(app)
        self.game = game
        self.rules = rules_by_name(game)
        palette = colours_for(game)
        if players:
            self.entries = [
                Entry(p.colour if p.colour in palette else palette[i % len(palette)], p.name, p.seat)
                for i, p in enumerate(players)
            ]
        else:
            self.entries = [Entry(palette[i]) for i in range(self.rules.min_players)]
        self.first = 0
        screen_class = game_screen_class(game)
        self.choices: list[SetupChoice] = list(getattr(screen_class, "setup_choices", ()))
        self.choice_index = {c.key: c.default_index for c in self.choices}
        if previous:
            for c in self.choices:
                values = [v for v, _label in c.options]
                if previous.get(c.key) in values:
                    self.choice_index[c.key] = values.index(previous[c.key])
        self.claiming = False

    def title(self) -> str:
        return _("Players")

    def subtitle(self) -> str:
        return game_title(self.game)

    # --- the model ---------------------------------------------------------------------------
    def names(self) -> list[str]:
        return [e.name for e in self.entries]

    def add_player(self) -> None:
        if len(self.entries) < self.rules.max_players:
            used = {e.colour for e in self.entries}
            colour = next(c for c in colours_for(self.game) if c not in used)
            self.entries.append(Entry(colour))
            self.refresh()

    def remove_player(self) -> None:
        if len(self.entries) > self.rules.min_players:
            self.entries.pop()
            self.first = min(self.first, len(self.entries) - 1)
            self.refresh()

    def next_colour(self, index: int) -> None:
        """The next colour nobody else has (a name that was the colour's name follows it)."""
        palette = colours_for(self.game)
        used = {e.colour for i, e in enumerate(self.entries) if i != index}
        entry = self.entries[index]
        start = palette.index(entry.colour)
        for step in range(1, len(palette) + 1):
            candidate = palette[(start + step) % len(palette)]
            if candidate not in used:
                entry.colour = candidate
                break
        self.refresh()

    def rename(self, index: int, name: str) -> None:
        self.entries[index].typed = name
        self.refresh()

    def edit_name(self, index: int) -> None:
        from .keyboard import KeyboardScreen

        self.app.show(
            KeyboardScreen(
                self.app,
                _("Name of player {number}").format(number=index + 1),
                self.entries[index].typed or "",
                lambda name: self.rename(index, name),
                suggestions=self.known_names(index),
            )
        )

    def known_names(self, index: int) -> list[str]:
        """The names played under in the latest games, less those of the table's other players."""
        others = [name for i, name in enumerate(self.names()) if i != index]
        if self.app.journal is None:  # a table without a journal (a test's, a demo's) has no history
            return []
        try:
            return recent_names(self.app.journal.games(limit=KNOWN_FROM_GAMES), others)
        except (JournalError, sqlite3.Error):  # a history that cannot be read offers no names; typing still works
            return []

    def next_first(self) -> None:
        self.first = (self.first + 1) % len(self.entries)
        self.refresh()

    def next_choice(self, key: str) -> None:
        choice = next(c for c in self.choices if c.key == key)
        self.choice_index[key] = (self.choice_index[key] + 1) % len(choice.options)
        self.refresh()

    # seats: each player in turn presses the button at their seat (or taps its number)
    def waiting(self) -> list[str]:
        """The players still without a seat, in order (the seat-button code asks this)."""
        return [e.name for e in self.entries if e.seat is None] if self.claiming else []

    def claimed(self) -> list[tuple[int, str]]:
        """(seat, name) of every seat taken so far, by button or by touch."""
        return sorted((e.seat, e.name) for e in self.entries if e.seat)

    def start_claiming(self) -> None:
        for e in self.entries:
            e.seat = None
        self.claiming = True
        self.app.hardware.enter(self)
        self.refresh()

    def claim_seat(self, seat: int, name: str | None = None) -> bool:
        """Give `seat` to `name` (default: the next player waiting). The hook the seat buttons
        call; False when the seat is taken or nobody is waiting."""
        waiting = self.waiting()
        name = name or (waiting[0] if waiting else None)
        if name is None or any(e.seat == seat for e in self.entries):
            return False
        entry = next(e for e in self.entries if e.name == name)
        entry.seat = seat
        if not self.waiting():
            # seats are numbered clockwise: seat order is the clockwise order of play
            first_name = self.entries[self.first].name
            self.entries.sort(key=seat_of)
            self.first = self.names().index(first_name)
            self.claiming = False
            self.app.hardware.enter(self)
        self.refresh()
        return True

    def stop_claiming(self) -> None:
        self.claiming = False
        for e in self.entries:
            e.seat = None
        self.app.hardware.enter(self)
        self.refresh()

    def seat_mode(self) -> str:
        return "claim" if self.claiming else "idle"

    def on_seat_outcome(self, outcome) -> bool:
        if self.claiming and getattr(outcome.decision, "kind", "") != "refuse":
            return self.claim_seat(outcome.press.seat)
        return False

    def setup(self) -> dict[str, Any]:
        key, _label = FIRST_PLAYER[self.game]
        setup: dict[str, Any] = {"game": self.game, "players": self.names(), key: self.names()[self.first]}
        for c in self.choices:
            setup[c.key] = c.options[self.choice_index[c.key]][0]
        # project extras, kept by the journal so that a resumed game shows the same table
        setup["colours"] = {e.name: e.colour for e in self.entries}
        if all(e.seat for e in self.entries):
            setup["seats"] = {e.name: e.seat for e in self.entries}
        return setup

    def start(self) -> None:
        try:
            self.app.start_game(self.setup(), [Player(e.name, e.colour, e.seat) for e in self.entries])
        except SetupError as exc:
            self.app.toast(_("Cannot start: {reason}").format(reason=exc))

    # --- the look ----------------------------------------------------------------------------
    def build(self, f, t):
        share = 0.36 if not f.portrait or len(self.entries) > 6 else 0.45
        left, right = f.board_and_step(share)
        return self.player_list(f, t, left) + (
            self.seat_panel(f, right) if self.claiming else self.options_panel(f, right)
        )

    def player_list(self, f, t, area: pygame.Rect) -> list[Widget]:
        """A row per player: the colour, the name (every name at one size, on up to two lines)
        and, once seats are being claimed, the seat under or beside it. Where a name does not
        fit whole even at the smallest type, the colour buttons give up width (down to the
        smallest touch target) before any name is shortened at its end."""
        for token in TOKEN_SIDES:
            out, names = self.player_rows(f, area, f.u(token))
            if token == TOKEN_SIDES[-1] or all(fits_whole(b, t) for b in names):
                break
        self.share_name_size(names, t)
        return out

    def player_rows(self, f, area: pygame.Rect, token: int) -> tuple[list[Widget], list[Button]]:
        count = len(self.entries)
        columns = 2 if count > 4 and not f.portrait else 1
        per_column = max(4 if not f.portrait else 6, -(-count // columns))  # portrait: rows 64 high at least
        gap = f.u(GAP)
        column_rects = cols(area, columns, gap * 2)
        seated = self.claiming or any(e.seat for e in self.entries)
        out: list[Widget] = []
        names: list[Button] = []
        marks = token_marks([e.name for e in self.entries])
        for index, entry in enumerate(self.entries):
            row = rows(column_rects[index // per_column], per_column, gap)[index % per_column]
            side = min(row.h, token)
            colour_rect = pygame.Rect(row.x, row.centery - side // 2, side, side)
            rest = pygame.Rect(colour_rect.right + gap, row.y, row.right - colour_rect.right - gap, row.h)
            if not seated:
                name_rect, seat_rect = rest, None
            elif rest.w > f.u(300):  # room for the seat beside the name
                name_rect, seat_rect = cols(rest, [2.2, 1], gap)
            else:  # the seat under the name
                name_rect, seat_rect = rows(rest, [1.9, 1], f.u(2)) if row.h >= f.u(48 + 24) else (rest, None)
            out.append(
                Button(
                    colour_rect,
                    "",
                    partial(self.next_colour, index),
                    kind="choice",
                    icon=player_icon(marks[entry.name], entry.colour),
                    key=f"colour:{index}",
                )
            )
            names.append(
                Button(
                    name_rect,
                    entry.name,
                    partial(self.edit_name, index),
                    kind="choice",
                    key=f"name:{index}",
                    size="title",
                )
            )
            out.append(names[-1])
            if seat_rect is not None:
                seat_text = _("Seat {number}").format(number=entry.seat) if entry.seat else _("No seat")
                out.append(Label(seat_rect, seat_text, "min", colour=th.INK_SOFT, key=f"seat:{index}"))
        return out, names

    @staticmethod
    def share_name_size(buttons: list[Button], theme) -> None:
        """Every name button's label at the one size at which all the names fit (`shared_px`)."""
        weight = th.weight_of("title")
        px = shared_px(
            {b.text: b.label.rect.w for b in buttons},
            theme.size("title"),
            theme.size("min"),
            min(b.label.rect.h for b in buttons),
            weight,
        )
        for b in buttons:
            b.label = NameLabel(b.label.rect, b.text, px / theme.scale, weight=weight, shorten=True)

    def extra_bar_buttons(self, f, t, area):
        """Cloudship: a practice flight before the first round (the ship and its balls, no score)."""
        if self.game != "cloudship":
            return []
        from .practice import _ as ship_

        text = ship_("Practice flight")
        w = max(f.u(96), t.measure(text, t.size("small"))[0] + f.u(32))
        return [
            Button(
                pygame.Rect(area.right - w, area.y, w, area.h),
                text,
                self.practice,
                kind="secondary",
                key="practice",
                size="small",
            )
        ]

    def practice(self) -> None:
        from .practice import PracticeScreen

        self.app.show(PracticeScreen(self.app))

    def options_panel(self, f, area: pygame.Rect) -> list[Widget]:
        gap = f.u(GAP)
        n_choices = len(self.choices)
        weights = [1, 1] + [1] * n_choices + [1, 1.4]
        parts = rows(area, weights, gap)
        count_row, first_row, choice_rows, seats_row, start_row = (
            parts[0],
            parts[1],
            parts[2 : 2 + n_choices],
            parts[-2],
            parts[-1],
        )
        minus, label, plus = cols(count_row, [1, 1.6, 1], gap)
        out: list[Widget] = [
            Button(
                minus,
                "-",
                self.remove_player,
                kind="secondary",
                enabled=len(self.entries) > self.rules.min_players,
                key="fewer",
                size="prompt",
            ),
            Label(
                label,
                _.ngettext("{count} player", "{count} players", len(self.entries)).format(count=len(self.entries)),
                "body",
                wrap=True,
                key="count",
            ),
            Button(
                plus,
                "+",
                self.add_player,
                kind="secondary",
                enabled=len(self.entries) < self.rules.max_players,
                key="more",
                size="prompt",
            ),
        ]
        _key, first_label = FIRST_PLAYER[self.game]
        out.append(
            Button(
                first_row,
                _(first_label).format(name=self.names()[self.first]),
                self.next_first,
                kind="choice",
                key="first",
            )
        )
        for rect, choice in zip(choice_rows, self.choices):
            tr = i18n.translator(choice.domain)
            value = tr(choice.options[self.choice_index[choice.key]][1])
            out.append(
                Button(
                    rect,
                    tr(choice.label).format(value=value),
                    partial(self.next_choice, choice.key),
                    kind="choice",
                    key=f"choice:{choice.key}",
                )
            )
        out.append(Button(seats_row, _("Claim seats"), self.start_claiming, kind="secondary", key="claim"))
        out.append(Button(start_row, _("Start"), self.start, kind="good", key="start", size="prompt"))
        return out

    def seat_panel(self, f, area: pygame.Rect) -> list[Widget]:
        gap = f.u(GAP)
        prompt, seats, stop = rows(area, [1.2, 2.2, 1], gap)
        waiting = self.waiting()
        out: list[Widget] = [
            Panel(prompt, key="claim-panel"),
            Label(
                inset(prompt, f.u(8)),
                _("{name}: press the button at your seat, or tap its number").format(name=waiting[0]),
                "body",
                wrap=True,
                key="claim-prompt",
            ),
        ]
        taken = {e.seat for e in self.entries if e.seat}
        for number, cell in enumerate(grid(seats, SEATS, 4, gap), start=1):
            out.append(
                Button(
                    cell,
                    str(number),
                    partial(self.claim_seat, number),
                    kind="choice",
                    enabled=number not in taken,
                    key=f"seat-button:{number}",
                    size="title",
                )
            )
        out.append(Button(stop, _("No seats"), self.stop_claiming, kind="secondary", key="no-seats"))
        return out
