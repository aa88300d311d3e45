"""Screens, and how to write a game screen.

HOW A GAME SCREEN IS WRITTEN (Cloud 9 and Cloudship follow screens/cloudmine.py)

1. A module `companion/ui/screens/<game>.py` with a subclass of `GameScreen`:

       from companion.i18n import N_, translator
       from companion.ui.screens.base import GameScreen
       from companion.ui.kit.widgets import Button, Label, Panel, Token
       from companion.ui.kit.layout import GAP, MARGIN, rows, cols, grid, inset

       _ = translator("cloud9")          # your own gettext domain (module level, exactly so)

       class Cloud9Screen(GameScreen):
           game = "cloud9"               # the contract's game name
           domain = "cloud9"

           def build(self, f, t):        # f: Frame, t: Theme -> list of widgets
               board, step = f.board_and_step()   # left 2/3 and right 1/3 (portrait: top/bottom)
               v = self.view                       # the contract's public state (a dict)
               ...
               return widgets

           def sounds_for(self, before, after, action):   # names from companion.sound.SOUND_NAMES
               return ["roll"] if action["act"] == "roll" else []

   The entries for "cloud9" and "cloudship" are already in `GAME_SCREENS`
   (companion/ui/screens/__init__.py): a module `companion/ui/screens/cloud9.py` with a class
   `Cloud9Screen` (`cloudship.py` / `CloudshipScreen`) is found as soon as it exists.

   The Players screen builds the setup: "players" (clockwise), who starts ("first_pilot",
   "first_commander", "first_dreamer") and, as project extras, "colours" {name: colour} and
   "seats" {name: seat}. Your game's own setup fields are class attributes of your screen,
   offered as buttons that cycle through their options:

       from companion.ui.screens.players import SetupChoice
       setup_choices = (SetupChoice("mode", N_("Mode: {value}"),
                                    (("standard", N_("Standard")), ("sunny", N_("Sunny"))),
                                    domain="cloudship"),)

2. What it receives. `GameScreen(app)`: `self.app` (the App), `self.controller`
   (companion.controller.GameController, holding the game in progress), `self.match` (the
   companion.rules.Match), `self.view` (the contract's JSON state: "players", "phase", "scores",
   plus the game's own keys), `self.legal` (the legal actions now, a list of action dicts, cached
   per state), `self.players` (the players with `.name`, `.colour` (a theme.COLOURS key), `.seat`
   (1-8 or None)) and `self.player(name)`.
   `build(f, t)` is called again after every change (a new state, language, size, rotation), so
   a screen keeps no widget state: read everything from `self.view`. Sizes: `f.u(n)` turns design
   pixels (800x480 grid, docs/reference/screens.md) into screen pixels; `f.portrait` tells the orientation; text
   sizes are roles: "display" 64, "big" 48, "prompt" 36, "title" 28, "body" 24, "small" 20,
   "min" 18 (Label shrinks text to fit, never below `min_size`; tests fail when text overflows).
   Keep buttons at least `f.u(48)` on each side (`f.u(64)` for the main actions).

3. Only legal actions are offered. Build every action button with
   `self.action_button(rect, text, action, **button_kwargs)`: it is enabled only when
   `action` is in `self.legal` (`self.is_legal(action)` to check yourself). A tap on an enabled
   one submits it; a tap on a disabled one also submits it, so the rules core refuses it and the
   screen shows its reason and rule (a toast): "an illegal attempt explains the rule". Do not
   offer buttons for actions that make no sense now at all (leave them out instead). A button
   that draws more than text is a Button subclass: `widget=MyButton` (its own keyword arguments
   pass through).
   To submit from anything else (a multi-step choice, the seat buttons): `self.submit(action)`
   returns True when accepted; on a RulesError nothing changed and the refusal is shown.
   Undo is in the top bar (and Ctrl+Z) on every game screen; do not add another.

4. After an accepted action the app calls `self.on_game_change(before, after, action)` (before
   and after are Matches): the base class plays `self.sounds_for(before, after, action)` (a list
   of sound names) and, when the game has just ended, goes to the end-of-game screen. For a short
   transition call `self.app.animate(seconds)` (<= 0.3 s) and draw it from `self.app.now()` in
   `draw_above(surface, ctx)`; frames are drawn only while it runs, then one still frame.

5. Seat buttons need nothing from a game screen: companion/devices/router.py turns a press into
   the game's action and submits it through the same controller, so the screen refreshes as for
   a tap, and a refused press shows its reason as a toast. The seat LEDs follow the state.

6. Strings: every visible string goes through your domain's `_()`, with `{name}` placeholders
   and `.format(...)` (translators reorder words). Strings defined at import time use `N_()`
   and are translated at draw time with `_()`. Then `python -m companion.i18n.extract` adds
   them to companion/i18n/{de,hu}/LC_MESSAGES/<domain>.po, you translate them, and
   `python -m companion.i18n` compiles the .mo files; tests/test_i18n.py fails on any missing or
   empty translation, a changed placeholder, a glyph the font lacks, or a stale .mo.

7. Tests (tests/test_ui_<game>.py) use companion.ui.tools.harness:

       from companion.ui.tools.harness import Harness
       h = Harness((800, 480))                       # headless, real pygame on the dummy driver
       screen = h.start_game({"game": "cloud9", "players": ["Ann", "Ben", "Cat"]})
       h.tap("Ann: jump")                            # taps the widget showing that text (or key)
       h.tap_key("undo")                             # or by widget key
       assert h.app.controller.match.view["phase"] == "decide"
       h.save("/tmp/shot.png"); h.overflows() == []  # screenshot; text that does not fit
   Taps go through real SDL events (an emulated-mouse press and release plus the finger events
   a touchscreen also sends), so they exercise the same path as the Pi.

8. Demo: add `"<game>": "companion.ui.screens.<game>:demo_game"` to DEMO_GAMES in
   companion/ui/tools/demo.py; `demo_game()` returns (setup, [actions]) of a short complete game.
"""

from __future__ import annotations

import copy
from collections import OrderedDict
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any

import pygame

from ... import i18n
from ...rules import RulesError
from ..kit import theme as th
from ..kit.layout import GAP, MARGIN, Frame, free_band, rows
from ..kit.ribbon import TOP_RIBBON_ROOM
from ..kit.roster import Player, players_from_setup
from ..kit.theme import Theme
from ..kit.widgets import (
    Badge,
    Button,
    DrawContext,
    Label,
    Panel,
    PlayerToken,
    Widget,
    badge_widgets,
    chevron_left,
    fit_text,
    flat,
    menu_icon,
    undo_icon,
)
from ..story import moments as story

_ = i18n.translator("app")


def clear_boxes(
    board: pygame.Rect, taken: list[pygame.Rect], about: list[pygame.Rect], gap: int, least: int
) -> list[pygame.Rect]:
    """The boxes on `board` clear of `taken` and `about` (a band across each stretch between
    the edges of what is `about`), at least `least` each way, the largest first."""
    edges = sorted({board.left, board.right, *(r.right + gap for r in about), *(r.left - gap for r in about)})
    edges = [x for x in edges if board.left <= x <= board.right]
    boxes = [
        free_band(pygame.Rect(x0, board.y, x1 - x0, board.h), taken + about, gap)
        for i, x0 in enumerate(edges)
        for x1 in edges[i + 1 :]
    ]
    return sorted((b for b in boxes if b.w >= least and b.h >= least), key=lambda b: -b.w * b.h)


# whether a result card's words fit a box (GameScreen.card_fits), by the words and the box
CARD_FITS_KEPT = 512
_CARD_FITS: OrderedDict[tuple, bool] = OrderedDict()


class Screen:
    """One screen: it builds its widgets from the current state and reacts to input."""

    domain = "app"

    def __init__(self, app):
        self.app = app

    # what the top bar shows
    def title(self) -> str:
        return ""

    def subtitle(self) -> str:
        return ""

    def subtitle_forms(self) -> list[str]:
        """The subtitle from its longest to its shortest form: the top bar shows the first
        that fits (Cloudship: "Round 2 · Emma commands", "Round 2 · Emma", "Emma")."""
        return [self.subtitle()]

    def can_go_back(self) -> bool:
        return bool(self.app.stack)

    def must_show(self) -> list[str]:
        """Texts the screen must show at every size (tests check no layout drops them)."""
        return []

    def build(self, f: Frame, t: Theme) -> list[Widget]:
        return []

    def bar(self, f: Frame, t: Theme) -> list[Widget]:
        return top_bar(self, f, t)

    def extra_bar_buttons(self, f: Frame, t: Theme, area: pygame.Rect) -> list[Widget]:
        """Buttons at the right end of the top bar (game screens: undo and menu)."""
        return []

    def overlay(self, f: Frame, t: Theme, below: list[Widget]) -> list[Widget]:
        """Widgets over everything the screen built (`below`); game screens: the story."""
        return []

    def toast_area(self, f: Frame, widgets: list[Widget]) -> pygame.Rect:
        """Where a refusal or notice shows: the tallest band of the screen below the top bar
        that no button reaches into, at most two lines high; at the bottom if there is none."""
        height = f.u(88)
        band = free_band(f.content, [w.rect for w in widgets if w.accepts_tap()], f.u(4))
        if band.h >= f.u(64):
            return pygame.Rect(band.x, band.y, band.w, min(height, band.h))
        return pygame.Rect(f.u(MARGIN), f.height - f.u(MARGIN) - height, f.width - 2 * f.u(MARGIN), height)

    def draw_below(self, surface: pygame.Surface, ctx: DrawContext) -> None:
        """Custom drawing under the widgets (boards, pictures)."""

    def draw_above(self, surface: pygame.Surface, ctx: DrawContext) -> None:
        """Custom drawing over the widgets (short animations)."""

    def draw_first_above(self, surface: pygame.Surface, ctx: DrawContext) -> bool:
        """Draw over a frame drawn ahead what the first frame of a change shows over its widgets,
        before the screen is rebuilt for it (App.draw); False where that needs the rebuilt
        screen (the frame is then drawn whole). A screen that draws nothing above: nothing."""
        return type(self).draw_above is Screen.draw_above

    def on_enter(self) -> None:
        pass

    def on_leave(self) -> None:
        pass

    def on_key(self, event: pygame.event.Event) -> bool:
        return False

    def on_text(self, text: str) -> bool:
        return False

    def wants_text(self) -> bool:
        """True while typing: desktop keys then type instead of pressing simulated seat buttons."""
        return False

    def seat_mode(self) -> str:
        """What the seat buttons do here: "play" (game screens), "claim", "test" or "idle"."""
        return "idle"

    def on_seat_outcome(self, outcome) -> bool:
        """A seat press was handled by the seat code (companion.devices.table); True if this
        screen showed it itself (otherwise a refusal is shown as a toast)."""
        return False

    def on_back(self) -> None:
        self.app.back()

    def refresh(self) -> None:
        self.app.refresh()


# the decision banner's largest type (docs/reference/screens.md: 32-40); from 40 a label shrinks through 30 and
# 28, so a long name in a narrow step still stands above the 28 px of everything else
PROMPT_PX = 40


class PromptLabel(Label):
    """The prompt, which may also break a hyphenated name after its hyphen ("Maximilian-" /
    "Alexander: jump or stay?"), where that lets it stand larger."""

    def __init__(self, rect, text: str, *args, name: str = "", **kwargs):
        super().__init__(rect, text, *args, **kwargs)
        self.name = name

    def signature(self, ctx):
        plain = super().signature(ctx)
        return None if plain is None else plain + (self.name,)

    def fitted(self, theme):
        plain = super().fitted(theme)
        if "-" not in self.name or self.name not in self.text:
            return plain
        broken = fit_text(
            self.text.replace(self.name, self.name.replace("-", "-\n"), 1),
            self.rect.w,
            self.rect.h,
            theme.size(self.size),
            theme.size(self.min_size),
            self.wrap,
            self.weight,
        )
        return broken if broken.px > plain.px and not broken.overflow else plain


class GameScreen(Screen):
    """A game in progress; see the module docstring for how to write one."""

    game = ""

    def __init__(self, app, controller=None, players: list[Player] | None = None):
        super().__init__(app)
        self.controller = controller or app.controller
        self.players = players or players_from_setup(self.match.setup)
        self._view_for: Any = None
        self._view: dict[str, Any] = {}
        self._legal_for: Any = None
        self._legal: list[dict[str, Any]] = []
        self.card: story.Moment | None = None  # the big moment on show until the next action
        self.moments: list[story.Moment] = []  # what the last action did
        self._recent_for: Any = None
        self._recent: list[story.Moment] = []
        self._board_rect: pygame.Rect | None = None  # set by board_and_step, for the story
        self._strip_rect: pygame.Rect | None = None

    @property
    def match(self):
        return self.controller.match

    @property
    def view(self) -> dict[str, Any]:
        # Match.view builds a fresh dict on every call; a build and the board's pictures read
        # it many times per state
        if self._view_for is not self.match:
            self._view_for, self._view = self.match, self.match.view
        return self._view

    @property
    def legal(self) -> list[dict[str, Any]]:
        if self._legal_for is not self.match:
            self._legal_for, self._legal = self.match, self.match.legal_actions()
        return self._legal

    def is_legal(self, action: Mapping[str, Any]) -> bool:
        """Legal whatever the order of its dice or cards: the rules list each action in its one
        spelling, and an action not found as it is written is looked up in that spelling."""
        action = dict(action)
        return action in self.legal or self.match.canonical(action) in self.legal

    def player(self, name: str) -> Player:
        return next(p for p in self.players if p.name == name)

    def player_at(self, seat: int) -> Player | None:
        return next((p for p in self.players if p.seat == seat), None)

    def mark(self, name: str) -> str:
        """What the player's token shows: their initial, or more where two share it."""
        from ..kit.widgets import token_marks

        if getattr(self, "_marks", None) is None:
            self._marks = token_marks([p.name for p in self.players])
        return self._marks.get(name, name)

    def colour_of(self, name: str) -> tuple[int, int, int]:
        return th.COLOURS[self.player(name).colour].rgb

    def submit(self, action: Mapping[str, Any]) -> bool:
        try:
            self.controller.submit(dict(action))
        except RulesError as error:
            self.app.refuse(error)
            return False
        return True

    def undo(self) -> None:
        self.submit({"act": "undo"})

    def action_button(
        self, rect, text: str, action: Mapping[str, Any], *, widget: type[Button] = Button, **kwargs
    ) -> Button:
        """A `widget` (a Button or a subclass) that submits `action`, enabled when it is legal."""
        action = dict(action)
        return widget(
            rect,
            text,
            lambda: self.submit(action),
            enabled=self.is_legal(action),
            on_refused=lambda: self.submit(action),
            **kwargs,
        )

    def sounds_for(self, before, after, action) -> list[str]:
        return []

    # --- the story: the strip of recent events and the result card of a big moment -----------
    def board_and_step(self, f: Frame, step_share: float | None = None) -> tuple[pygame.Rect, pygame.Rect]:
        """Like Frame.board_and_step, with the strip of recent events taken off the board, and
        the board's top a little lower: a seat ribbon along the top as deep as at the other
        edges (the gap under the top bar alone held shapes of 8 to 9 px, not 12)."""
        from ..story.cards import split_board

        board, step = f.board_and_step(step_share)
        board = below_a_top_ribbon(board, f)
        self._board_rect, self._strip_rect = board, None
        board, self._strip_rect = split_board(f, board)
        return board, step

    def recent(self) -> list[story.Moment]:
        if self._recent_for is not self.match:
            from ..story.cards import RECENT

            self._recent_for, self._recent = self.match, story.recent(self.match, RECENT)
        return self._recent

    def dismiss_card(self) -> None:
        self.card = None
        self.refresh()

    def overlay(self, f, t, below):
        from ..story.cards import card_widgets, strip_widgets

        out: list[Widget] = []
        card: list[Widget] = []
        self._free_rect = None
        if self._board_rect is not None:
            board = (
                self._board_rect
                if self._strip_rect is None
                else pygame.Rect(
                    self._board_rect.x,
                    self._board_rect.y,
                    self._board_rect.w,
                    self._strip_rect.y - self._board_rect.y - f.u(GAP),
                )
            )
            # the card and the notices go where no button is (Cloudship's beds take the balls)
            self._free_rect = free_band(board, [w.rect for w in below if w.accepts_tap()], f.u(GAP))
            if self.card is not None:
                card = card_widgets(
                    f,
                    self.card_area(f, self._board_rect, below, self.card),
                    self.card,
                    lambda name: self.player(name).colour,
                    self.dismiss_card,
                    self.mark,
                    t,
                    self.card_picture(self.card),
                )
        # the strip of recent events, unless the card is over it (the card says the same)
        if self._strip_rect is not None and not (card and card[0].rect.colliderect(self._strip_rect)):
            out += strip_widgets(f, self._strip_rect, beside_the_card(self.recent(), self.card if card else None))
        return out + card

    def under_the_banner(self, t: Theme, widgets: list[Widget]) -> list[Widget]:
        """Nothing on a game screen stands as large as the decision banner's words: an answer,
        a score or the storm's count whose type would is set a step (2 px) under them."""
        everything = flat(widgets)
        banner = next((w for w in everything if isinstance(w, PromptLabel)), None)
        most = None if banner is None else banner.fitted(t).px - t.px(2)
        for widget in everything:
            label = widget.label if isinstance(widget, Button) else widget
            if isinstance(label, Label) and label is not banner and label.text:
                label.at_most(most, t)
        return widgets

    def prompt_card(
        self, f: Frame, rect: pygame.Rect, name: str | None, text: str, key: str = "prompt"
    ) -> list[Widget]:
        """The decision banner: the next thing to do in the largest words on the screen, on the
        acting player's colour with their token (without a player, on the app's own blue)."""
        rgb = th.banner(th.COLOURS[self.player(name).colour].rgb) if name else th.PRIMARY
        out: list[Widget] = [Panel(rect, colour=rgb, border=th.CARD_LINE, key="prompt-card")]
        if name and rect.w >= f.u(320):  # the player's token beside the words, where the width allows
            side = min(rect.h - f.u(12), f.u(56))
            badge = pygame.Rect(rect.x + f.u(6), rect.centery - side // 2, side, side)
            out += [Panel(badge, border=None, radius=10), self.prompt_piece(badge.inflate(-f.u(6), -f.u(6)), name)]
            left = badge.right + f.u(8)
        else:  # a narrow step (landscape): the words take it all
            left = rect.x + f.u(8)
        margin = f.u(4)  # the words clear of the banner's top and bottom, and of its sides
        text_rect = pygame.Rect(left, rect.y + margin, rect.right - left - f.u(8), rect.h - 2 * margin)
        return out + [
            PromptLabel(text_rect, text, PROMPT_PX, colour=th.text_on(rgb), wrap=True, key=key, name=name or "")
        ]

    def prompt_piece(self, box: pygame.Rect, name: str) -> Widget:
        """The acting player's token on the banner."""
        return PlayerToken(box, name, self.player(name).colour, key=f"prompt-piece:{name}", mark=self.mark(name))

    def card_keeps_clear(self, moment: story.Moment) -> tuple[str, ...]:
        """Keys of the board's parts a result card must leave in sight: what the moment is
        about (Cloudship's storm card: the weather bar)."""
        return ()

    def card_area(self, f: Frame, board: pygame.Rect, below: list[Widget], moment: story.Moment) -> pygame.Rect:
        """Where the result card goes: clear of every button and, where the board has the room,
        clear of what the moment is about (above or below it, else beside it; over the strip of
        recent events if need be, which says the same)."""
        gap = f.u(GAP)
        taken = [w.rect for w in below if w.accepts_tap()]
        keys = set(self.card_keeps_clear(moment))
        about = [w.rect for w in flat(below) if w.key in keys] if keys else []
        least_h, least_w = f.u(96), f.u(260)
        if about:
            band = free_band(board, taken + about, gap)
            if band.h >= least_h:
                return band
            right, left = max(r.right for r in about) + gap, min(r.x for r in about) - gap
            beside = [
                pygame.Rect(right, board.y, board.right - right, board.h),
                pygame.Rect(board.x, board.y, left - board.x, board.h),
            ]
            for part in sorted(beside, key=lambda r: -r.w):
                if part.w >= least_w or (part.w >= f.u(64) and self.card_fits(f, part, moment)):
                    band = free_band(part, taken, gap)
                    if band.h >= least_h and (part.w >= least_w or self.card_fits(f, band, moment)):
                        return band
            # else the largest box between them where all the card's words fit
            for box in clear_boxes(board, taken, about, gap, f.u(64)):
                if self.card_fits(f, box, moment):
                    return box
        return self._free_rect

    def card_picture(self, moment: story.Moment):
        """What a result card draws beside its words (a painter of (surface, rect)), if anything."""
        return None

    def card_fits(self, f: Frame, area: pygame.Rect, moment: story.Moment) -> bool:
        """Whether the result card shows all its words whole in `area` (none under its floor).
        Remembered by the card's words and box: the search for a card's place tries many boxes,
        and the next builds try the same ones (a press's frame is built while the players wait)."""
        from ..story.cards import card_widgets

        theme = self.app.theme
        picture = self.card_picture(moment)  # its room beside the words changes what fits
        words = (moment.kind, moment.headline, moment.card_text, moment.lead, tuple(moment.details))
        key = (f, tuple(area), theme.scale, i18n.current_language(), words, type(self).__name__, picture is not None)
        known = _CARD_FITS.get(key)
        if known is None:
            widgets = card_widgets(
                f, area, moment, lambda name: self.player(name).colour, lambda: None, self.mark, theme, picture
            )
            known = not any(w.overflow(theme) or w.clipped(theme) for w in widgets if isinstance(w, Label))
            _CARD_FITS[key] = known
            if len(_CARD_FITS) > CARD_FITS_KEPT:
                _CARD_FITS.popitem(last=False)
        else:
            _CARD_FITS.move_to_end(key)
        return known

    def toast_area(self, f, widgets):
        # a refusal names a player ("Ann is the Dreamer"): it goes where it covers neither a
        # button nor that player's place, if the board has such a band
        text = self.app.toast_text or ""
        named = {f"player:{p.name}" for p in self.players if p.name in text}
        if named and self._board_rect is not None:
            avoid = [w.rect for w in widgets if w.accepts_tap() or w.key in named]
            for area in (self._board_rect, f.content):
                band = free_band(area, avoid, f.u(GAP))
                if band.h >= f.u(64):
                    return pygame.Rect(band.x, band.y, band.w, min(band.h, f.u(120)))
        free = getattr(self, "_free_rect", None)
        if free is not None and free.h >= f.u(64):
            return pygame.Rect(free.x, free.y, free.w, min(free.h, f.u(120)))
        return super().toast_area(f, widgets)

    def on_game_change(self, before, after, action) -> None:
        was_over = (self._view if self._view_for is before else before.view)["over"]
        self.note_change(before, after, action)
        for name in self.sounds_for(before, after, action):
            self.app.sounds.play(name)
        if (self.view if self.match is after else after.view)["over"] and not was_over and self.app.screen is self:
            self.show_end()

    def note_change(self, before, after, action) -> None:
        """The story of a change: its moments, its result card, the strip of recent events."""
        # the views: the one cached for the state before (if the screen showed it), the new one
        before_view = self._view if self._view_for is before else before.view
        found = story.moments(before_view, self.view if self.match is after else after.view, action)
        self.moments = found  # what the last action did (speech says each moment's text)
        self.card = story.big_moment(found)
        if self._recent_for is before and found:  # a step on: the strip grows without a replay
            from ..story.cards import RECENT

            self._recent_for, self._recent = after, (self._recent + found)[-RECENT:]

    # --- rehearsals: the next state drawn off screen while idle ----------------------------
    def rehearsal_actions(self) -> list[dict[str, Any]]:
        """The actions a seat press most likely submits next. While idle the app builds and
        draws off screen the state each leads to (`rehearse`), so that the frame showing it
        finds its words fitted and drawn already. None unless a game screen names them."""
        return []

    def stand_in(self, after, action) -> GameScreen:
        """A copy of this screen showing `after` (what `action` leads to), as it would after
        the change; this screen and the game are left as they are."""
        twin = copy.copy(self)
        twin.controller = _Showing(after)
        twin.note_change(self.match, after, action)
        return twin

    def rehearse(self):
        """Steps (a generator, one small step per `next`) that build and draw off screen each
        state `rehearsal_actions` leads to, and the end screen where one ends the game."""
        for action in self.rehearsal_actions():
            try:
                after = self.match.apply(action)
            except RulesError:
                continue
            yield
            twin = self.stand_in(after, action)
            key = yield from self.app.rehearse_screen(twin)
            ends = after.view["over"] and not self.view["over"]
            if ends:
                key = yield from self.app.rehearse_screen(self.app.make("end", twin))
            self.app.foresee(self, action, key, ends)

    def show_end(self) -> None:
        """The game has just ended: its end screen (a game may celebrate on its board first)."""
        self.app.replace(self.app.make("end", self))

    def seat_mode(self) -> str:
        return "play"

    def must_show(self) -> list[str]:
        return list(self.view["players"])

    # the top bar: game name, round, undo, menu
    def can_go_back(self) -> bool:
        return False

    def title(self) -> str:
        return game_title(self.game)

    def bar(self, f, t):
        if type(self).extra_bar_buttons is not GameScreen.extra_bar_buttons:
            return top_bar(self, f, t)
        # the bar as last built while nothing it shows changed (most moves change none of it)
        badges = tuple((b.text, b.colour, b.short, b.urgent) for b in app_badges(self.app))
        key = (
            f,
            t.scale,
            i18n.current_language(),
            self.can_go_back(),
            self.title(),
            tuple(self.subtitle_forms()),
            badges,
            self.match.can_undo,
        )
        known = self.__dict__.get("_bar_built")
        if known is None or known[0] != key:
            known = self._bar_built = (key, top_bar(self, f, t))
        return list(known[1])

    def extra_bar_buttons(self, f, t, area):
        undo_text = "" if f.portrait else _("Undo")
        menu_w = f.u(56)
        undo_w = (
            menu_w
            if f.portrait
            else min(f.u(210), max(f.u(120), t.measure(undo_text, t.size("small"))[0] + area.h + f.u(16)))
        )
        undo_rect = pygame.Rect(area.right - menu_w - f.u(GAP) - undo_w, area.y, undo_w, area.h)
        menu_rect = pygame.Rect(area.right - menu_w, area.y, menu_w, area.h)
        return [
            Button(
                undo_rect,
                undo_text,
                self.undo,
                kind="secondary",
                enabled=self.match.can_undo,
                icon=undo_icon,
                key="undo",
                size="small",
                wrap=False,
            ),
            Button(menu_rect, "", self.open_menu, kind="secondary", icon=menu_icon, key="menu"),
        ]

    def open_menu(self) -> None:
        from ..kit.widgets import Dialog, DialogButton

        app = self.app

        def settings():
            app.close_dialog()
            app.show(app.make("settings"))

        def end():
            app.close_dialog()
            app.confirm(
                _("End the game?"), _("The game stops here and cannot be continued."), _("End game"), self.end_game
            )

        def rules():
            app.close_dialog()
            app.show(app.make("help", self.game))

        def closed_then(open_: Callable[[], object]) -> None:
            app.close_dialog()
            open_()

        extra = [
            DialogButton(text, partial(closed_then, open_), "secondary")
            for text, open_ in [*self.menu_extras(), *app.menu_entries()]
        ]
        app.ask(
            Dialog(
                _("Menu"),
                self.title(),
                [
                    DialogButton(_("Back to the game"), app.close_dialog, "secondary"),
                    DialogButton(_("How to play"), rules, "secondary"),
                    *extra,
                    DialogButton(_("Settings"), settings, "secondary"),
                    DialogButton(_("End game"), end, "danger"),
                ],
            )
        )

    def menu_extras(self) -> list[tuple[str, Callable[[], None]]]:
        """This game's own entries in the menu, between How to play and Settings: (text, open)."""
        return []

    def end_game(self) -> None:
        """Stop the game for good (after the confirmation) and show the standings."""
        self.controller.end()  # stopped in the journal, and never offered to continue
        self.app.replace(self.app.make("end", self, ended_early=True))


class _Showing:
    """A stand-in's controller: the state it shows, and nothing to submit to."""

    def __init__(self, match):
        self.match = match


GAME_TITLES = {"cloud9": i18n.N_("Cloud 9"), "cloudship": i18n.N_("Cloudship"), "cloudmine": i18n.N_("The Cloud Mine")}


def game_title(game: str) -> str:
    return _(GAME_TITLES[game]) if game in GAME_TITLES else game


def below_a_top_ribbon(part: pygame.Rect, f: Frame) -> pygame.Rect:
    """`part` of a game screen without the room a seat ribbon along the top takes, where it
    starts at the content's top."""
    if part.top != f.content.top:
        return part
    drop = f.u(TOP_RIBBON_ROOM)
    return pygame.Rect(part.x, part.y + drop, part.w, part.h - drop)


def beside_the_card(recent: list[story.Moment], card: story.Moment | None) -> list[story.Moment]:
    """The strip's moments while `card` shows: those with the card's headline left out (it
    stands on the card), unless nothing else is left."""
    if card is None:
        return recent
    # by its words: two hail tiles in a row would read as the card said twice
    others = [moment for moment in recent if moment.headline != card.headline]
    return others or recent


def top_bar(screen: Screen, f: Frame, t: Theme) -> list[Widget]:
    """Back (when there is somewhere to go), title, subtitle, badges, the screen's buttons."""
    bar = f.bar
    pad = f.u(4)
    inner = pygame.Rect(f.u(MARGIN) // 2, bar.y + pad, bar.w - f.u(MARGIN), bar.h - 2 * pad)
    out: list[Widget] = [Panel(bar, colour=(255, 255, 255), border=None, radius=0, key="bar")]
    x = inner.x
    if screen.can_go_back():
        back = Button(
            pygame.Rect(x, inner.y, f.u(56), inner.h),
            "",
            screen.on_back,
            kind="secondary",
            icon=chevron_left,
            key="back",
        )
        out.append(back)
        x = back.rect.right + f.u(GAP)
    right = screen.extra_bar_buttons(f, t, inner)
    right_edge = min([w.rect.x for w in right], default=inner.right) - f.u(GAP)
    room = right_edge - x
    title = screen.title()
    title_px, small_px = t.size("title"), t.size("min")
    # the longest form of the subtitle that fits, else the shortest (a shorter form on purpose)
    forms = screen.subtitle_forms()
    limit = room if not app_badges(screen.app) else round(room * 0.6)
    subtitle = next((form for form in forms if t.measure(form, small_px)[0] + f.u(4) <= limit), forms[-1])

    def title_width(px: int) -> int:
        return max(t.measure(title, px)[0], t.measure(subtitle, small_px)[0] if subtitle else 0) + f.u(4)

    badges = app_badges(screen.app)
    text_w = min(title_width(title_px), room)
    if badges:
        badges, text_w = make_room_for_badges(
            badges, room - f.u(GAP), title_width(title_px), min(title_width(small_px), round(room * 0.6)), t
        )
    text = pygame.Rect(x, inner.y, text_w, inner.h)
    if subtitle:
        top, bottom = rows(text, [1.25, 1])
        out.append(Label(top, title, "title", align="left", key="title"))
        out.append(Label(bottom, subtitle, "small", colour=th.INK_SOFT, align="left", key="subtitle"))
    else:
        out.append(Label(text, title, "title", align="left", key="title"))
    if badges:
        area = pygame.Rect(
            text.right + f.u(GAP), inner.y + f.u(6), right_edge - text.right - f.u(GAP), inner.h - f.u(12)
        )
        out.extend(badge_widgets(area, badges, t))
    return out + right


def make_room_for_badges(
    badges: list[Badge], room: int, title_w: int, least_title_w: int, t: Theme
) -> tuple[list[Badge], int]:
    """The badges as they fit beside the title, and the title's width. Whole words come
    first: the title gives way (down to its smallest type) before a badge is shortened, and
    notices are shortened before warnings."""

    def width(shown: list[Badge]) -> int:
        return sum(t.measure(b.text, t.size("min"))[0] + t.px(20) for b in shown) + t.px(GAP) * (len(shown) - 1)

    shown = list(badges)
    order = [i for i, b in enumerate(badges) if not b.urgent] + [i for i, b in enumerate(badges) if b.urgent]
    for shorten in [None, *order]:
        if shorten is not None:
            shown[shorten] = Badge(
                badges[shorten].short, badges[shorten].colour, badges[shorten].short, badges[shorten].urgent
            )
        if width(shown) + least_title_w <= room:
            return shown, min(title_w, room - width(shown))
    return shown, least_title_w  # still too narrow: badge_widgets reports the overflow


def app_badges(app) -> list[Badge]:
    badges = []
    if app.hardware.simulated:
        badges.append(Badge(_("Simulated"), (96, 72, 150)))  # one word on every screen
    if app.controller.save_problem is not None:
        badges.append(Badge(_("Not saved yet"), th.DANGER, _("Not saved"), urgent=True))
    stuck = app.hardware.status_line()
    if stuck is not None:
        badges.append(Badge(stuck, th.DANGER, _("Button stuck"), urgent=True))
    sensor = app.hardware.sensor_status()
    if sensor is not None:
        badges.append(
            Badge(
                _("Sensor: {status}").format(status=sensor_text(sensor)),
                th.GOOD if sensor == "ok" else th.INK_SOFT,
                sensor_text(sensor),
            )
        )
    return badges


SENSOR_STATES = {"ok": i18n.N_("connected"), "simulated": i18n.N_("simulated"), "missing": i18n.N_("not found")}


def sensor_text(status: str) -> str:
    return _(SENSOR_STATES[status]) if status in SENSOR_STATES else status
