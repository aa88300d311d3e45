"""The app's own screen, drawn headless for the live page, and every text of the ui it shows.

This is the one module of the live page that uses the app's ui (pygame on SDL's dummy driver):
the game screen is the app's real one, driven as the app drives it, so the page shows exactly
what the Pi's screen shows. A Painter is used from one thread only (the server's drawing
thread): pygame and the current language (gettext) are that thread's alone.

Each action is drawn once per size and language asked for, then shared by every viewer.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from typing import Any

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pygame  # noqa: E402

from .. import i18n  # noqa: E402
from ..config import Config  # noqa: E402
from ..controller import GameController  # noqa: E402
from ..journal.history import GameSummary  # noqa: E402
from ..journal.journal import rebuild  # noqa: E402
from ..rules import RulesError  # noqa: E402
from ..ui.boards.recap import pixels_of, png_bytes  # noqa: E402
from ..ui.kit.layout import Viewport  # noqa: E402
from ..ui.kit.roster import players_from_setup  # noqa: E402
from ..ui.kit.widgets import Label, flat  # noqa: E402
from ..ui.loop.app import App  # noqa: E402
from ..ui.loop.hardware import NoHardware  # noqa: E402
from ..ui.screens.base import game_title  # noqa: E402
from ..ui.screens.end import EndScreen, standings  # noqa: E402
from ..ui.screens.records import record_lines  # noqa: E402
from ..ui.story import moments as story  # noqa: E402
from ..ui.story.sounds import Silence  # noqa: E402
from .reader import Look  # noqa: E402

# the sizes drawn: a TV (1080p) and a phone held upright
SIZES = {"landscape": (1920, 1080), "portrait": (1080, 1920)}
RESTING = (1, 1)  # the frame between drawings (see Painter.rest)
# the ui's caches of drawn pictures (boards, clouds, layers, ribbons): sized for the Pi's one
# screen, they would hold a hundred megabytes of both 1080p shapes; the page forgets them at
# each new state (it draws each state once, in two shapes)
PICTURE_CACHES = ("companion.ui.boards.", "companion.ui.kit.ribbon")
SETTLE_S = 5.0  # past every short transition: the picture shows the settled screen
STORY_LINES = 6


class _Table(NoHardware):
    """No hardware, and no "simulated" badge: the page shows the table's own screen."""

    simulated = False

    def status_line(self):
        return None


class _TableApp(App):
    """The app as the page draws it: without the buttons that only a finger on the Pi's own
    screen can use (Undo, the menu, back): nobody can tap them on a TV or a picture."""

    UNTAPPABLE = frozenset({"undo", "menu", "back"})
    overlay_start: int  # App sets it with the widgets it builds

    def make(self, name: str, *args, **kwargs):
        """The end screen, made here: the only screen a game opens by itself (the others are
        opened by taps, which a picture never gets). The app's table of screens would load
        every screen, the seat test's with its GPIO library: 4 MiB the page has no use for."""
        if name == "end":
            return EndScreen(self, *args, **kwargs)
        return super().make(name, *args, **kwargs)

    def _build_if_needed(self) -> None:
        building = self._needs_build and self.screen is not None
        super()._build_if_needed()
        if building:
            start = self.overlay_start
            own = [w for w in self.widgets[:start] if w.key not in self.UNTAPPABLE]
            self.widgets = own + [w for w in self.widgets[start:] if w.key not in self.UNTAPPABLE]
            self.overlay_start = len(own)


class _Silent:
    """A voice that says nothing (the page is looked at, never heard)."""

    on = False
    unavailable_reason = None

    def __getattr__(self, name):
        return lambda *args, **kwargs: None


class _StepClock:
    def __init__(self) -> None:
        self.seconds = 0.0

    def __call__(self) -> float:
        return self.seconds


@dataclass
class Player:
    name: str
    score: int
    colour: str  # CSS rgb()
    mark: str  # the initial the token shows
    turn: bool  # it is this player's turn
    winner: bool


@dataclass
class GameText:
    """Everything the page says about the game, in one language."""

    title: str = ""
    subtitle: str = ""
    prompt: str = ""
    players: list[Player] = field(default_factory=list)
    story: list[str] = field(default_factory=list)  # oldest first
    over: bool = False
    headline: str = ""  # the end screen's, once over
    note: str = ""
    ranking: list[tuple[int, str, int]] = field(default_factory=list)  # (place, name, score)


def _css(rgb: tuple[int, int, int]) -> str:
    return "rgb({}, {}, {})".format(*rgb)


def _turn(view: dict[str, Any]) -> str | None:
    """The player whose turn it is, as each game's view names them."""
    for key in ("to_decide", "to_guess", "pilot", "commander", "dreamer"):
        if view.get(key):
            return view[key]
    return None


def forget_pictures() -> None:
    """Empty every cache of drawn pictures the ui's boards keep (PICTURE_CACHES)."""
    for name, module in list(sys.modules.items()):
        if name.startswith(PICTURE_CACHES):
            for value in list(vars(module).values()):
                if callable(getattr(value, "cache_clear", None)) and getattr(value, "__module__", None) == name:
                    value.cache_clear()


class Painter:
    def __init__(self) -> None:
        pygame.display.init()
        pygame.font.init()
        if pygame.display.get_surface() is None:
            pygame.display.set_mode((1, 1))  # App.draw flips the display; ours draws off screen
        self.clock = _StepClock()
        self.controller = GameController()
        self.app = _TableApp(
            Viewport(pygame.Surface(SIZES["landscape"])),
            Config(),
            self.controller,
            sounds=Silence(),
            hardware=_Table(),
            clock=self.clock,
            voice=_Silent(),
        )
        # each picture is drawn once and shared: a kept copy of a whole frame (8 MiB at 1080p)
        # would only be memory
        self.app.still_frames = False
        self.app.home()
        self.resting_from = "landscape"
        self.shown: Look | None = None
        self.orientation: str | None = "landscape"  # None: resting (no frame)
        self.language = "en"

    # --- the game shown ----------------------------------------------------------------------
    def show(self, look: Look) -> None:
        """Bring the screen to `look`: the new actions only when it continues the game shown
        (so the last one's card shows as on the Pi), else the game rebuilt."""
        before, self.shown = self.shown, look
        forget_pictures()
        self._awake()
        if look.game is None or look.problem:
            self.app.home()
            return
        same_game = (
            before is not None
            and before.game is not None
            and before.problem is None
            and before.game.id == look.game.id
            and self.controller.match is not None
            and before.actions == look.actions[: len(before.actions)]
        )
        new = look.actions[len(before.actions) :] if same_game and before is not None else ()
        if not same_game or len(new) > 1:  # a burst (the page was behind): only the last one played
            # all but the last action rebuilt, the last one played: its moment shows
            start = list(look.actions[:-1])
            self.controller.adopt(rebuild(look.setup, start, look.game.id), None)
            self.app.show_game()
            new = look.actions[-1:]
        for action in new:
            try:
                self.controller.submit(action)
            except RulesError:  # cannot happen for a stored game; shown as it stands
                break
            self._settle()
        match = self.controller.match
        assert match is not None  # adopted above, or the game shown already
        if look.game.status == "abandoned" and not isinstance(self.app.screen, EndScreen):
            self.app.show(EndScreen(self.app, self.app.game_screen, ended_early=True))
        elif match.view["over"] and not isinstance(self.app.screen, EndScreen):
            self.app.show(EndScreen(self.app, self.app.game_screen))
        self._settle()

    def _settle(self) -> None:
        self.app.pump()
        self.clock.seconds += SETTLE_S
        self.app.pump()

    def follow(self, config: Config) -> None:
        """What the table's settings change on its screen, as they are now (the odds, the
        forecast); the language is each page's own (see _language)."""
        wanted = {"show_odds": config.show_odds, "show_forecast": config.show_forecast}
        if any(getattr(self.app.config, name) != value for name, value in wanted.items()):
            self.app.config = self.app.config.with_changes(**wanted)
            self.app.refresh()

    def _language(self, language: str) -> None:
        i18n.set_language(language)  # the pages (page.py) set it too, on this same thread
        if self.language != language:
            self.language = language
            self.app.config = self.app.config.with_changes(language=language)
            self.app.refresh()

    def _orient(self, orientation: str) -> None:
        if self.orientation != orientation:
            self.orientation = orientation
            self.app.set_viewport(Viewport(pygame.Surface(SIZES[orientation])))
            self.app.refresh()  # the screen laid out again for its new shape

    def _awake(self) -> None:
        """A frame to draw on again, after a rest (laid out for the shape drawn last)."""
        if self.orientation is None:
            self._orient(self.resting_from)

    def rest(self) -> None:
        """Let go of the frame (8 MiB at 1080p) and the boards' pictures while nothing is
        asked: the page waits far longer than it draws. The next drawing lays the screen out
        again, as a change of shape does."""
        if self.orientation is None:
            return
        self.resting_from, self.orientation = self.orientation, None
        forget_pictures()
        self.app.set_viewport(Viewport(pygame.Surface(RESTING)))
        self.app.refresh()

    # --- what the page gets --------------------------------------------------------------------
    def png(self, language: str, orientation: str) -> bytes:
        self._language(language)
        self._orient(orientation)
        self.app.draw()
        # packed by the recap's own encoder, not pygame.image.save: pygame-ce 2.5 keeps five
        # references for every picture it saves to a file object (the page's slow growth over
        # an evening), and holds the interpreter while it packs
        return png_bytes(pixels_of(self.app.viewport.display))

    def text(self, language: str) -> GameText:
        self._language(language)
        self._awake()
        look = self.shown
        match = self.controller.match
        if look is None or look.game is None or look.problem or match is None:
            return GameText()
        view = match.view
        screen = self.app.screen
        game_screen = self.app.game_screen
        assert game_screen is not None  # `show` made the screen of the game it shows
        players = players_from_setup(match.setup)
        turn = None if view["over"] else _turn(view)
        out = GameText(title=game_title(view["game"]), subtitle=game_screen.subtitle(), over=bool(view["over"]))
        for p in players:
            out.players.append(
                Player(
                    p.name,
                    view["scores"].get(p.name, 0),
                    _css(game_screen.colour_of(p.name)),
                    game_screen.mark(p.name),
                    p.name == turn,
                    p.name in view["winners"],
                )
            )
        self.app.draw()  # its widgets are built for the language now current
        out.prompt = next(
            (w.text for w in flat(self.app.all_widgets()) if isinstance(w, Label) and w.key == "prompt"), ""
        )
        out.story = [m.headline for m in story.recent(match, STORY_LINES) if m.headline]
        if isinstance(screen, EndScreen):
            out.over = True
            out.headline, out.note = screen.headline(), screen.note()
            out.ranking = [(place, name, view["scores"].get(name, 0)) for place, name in standings(view)]
        return out

    def history(self, language: str, games: list[GameSummary]) -> list[dict[str, Any]]:
        self._language(language)
        return [
            {
                "id": g.id,
                "title": game_title(g.game) if g.game in ("cloud9", "cloudship", "cloudmine") else g.title,
                "started": g.started_at,
                "status": g.status,
                "players": list(g.players),
                "scores": dict(g.scores),
                "winners": list(g.winners),
                "damaged": g.damaged,
            }
            for g in games
        ]

    def records(self, language: str, records: dict) -> list[tuple[str, list[str]]]:
        self._language(language)
        return [
            (game_title(game), record_lines(records[game]))
            for game in ("cloud9", "cloudship", "cloudmine")
            if game in records
        ]

    def titles(self, language: str) -> dict[str, str]:
        self._language(language)
        return {game: game_title(game) for game in ("cloud9", "cloudship", "cloudmine")}
