"""Cloudship: the storm forecast on the weather card (issue 12, "the storm forecast").

The chance of planting all twelve flowers before the storm, and when the storm is due
(companion.insights.forecast). A forecast takes a few hundred simulated games, so it is worked
out on a thread of its own once per round (when the commander is about to roll) and the screen
shows the last one meanwhile: the table never waits for it. The crew's skill is learned from
the journal's past flights, read through a connection of the worker's own.
"""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pygame

from ...i18n import translator
from ...insights.forecast import NEUTRAL_SKILL, Forecast, forecast, journal_skill
from ..kit import theme as th
from ..kit.layout import cols
from ..kit.shapes import draw_token
from ..kit.widgets import Button, Label, Widget
from .risk_meter import draw_face

_ = translator("insights")

UI_RUNS = 500  # a forecast in well under a second on a Pi; two points of error at most


class Forecaster:
    """One forecast per round, worked out on a worker thread; `latest` is what to show."""

    def __init__(self, app):
        self.app = app
        self.latest: Forecast | None = None
        self._asked = None  # the state last asked about
        self._skill: float | None = None
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="forecast")
        self._lock = threading.Lock()

    def ask(self, state) -> None:
        """Forecast `state` if it begins a round (or ends the game) and is new."""
        if state.phase not in ("roll", "over") or state is self._asked:
            return
        self._asked = state
        self._pool.submit(self._work, state)

    def _work(self, state) -> None:
        if state is not self._asked:
            return  # a newer state was asked about while this one waited: skip it
        try:
            if self._skill is None:
                self._skill = self._learn_skill()
            result = forecast(state, self._skill, UI_RUNS, seed=state.round)
        except Exception:  # a forecast is a nicety: never let it take the screen down
            return
        with self._lock:
            if state is not self._asked:
                return  # the game moved on (an undo, a new round): a newer forecast is coming
            self.latest = result
        self.app.call_soon(self.app.refresh)

    def _learn_skill(self) -> float:
        path = getattr(self.app.journal, "path", None)
        if path is None:
            return NEUTRAL_SKILL
        from ...journal.journal import Journal

        journal = Journal.read(path)
        try:
            return journal_skill(journal)
        finally:
            journal.close()

    def wait(self, timeout: float = 30) -> None:
        """Until the forecasts asked for are done (for tests and the demo)."""
        self._pool.submit(lambda: None).result(timeout)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


class Chance(Widget):
    """The crew's chance as the same face the Cloud 9 meter uses."""

    def __init__(self, rect, chance: float, key: str | None = "forecast-face"):
        super().__init__(rect, key)
        self.chance = chance

    def draw(self, surface, ctx):
        r = min(self.rect.w, self.rect.h) / 2
        draw_face(surface, self.rect.center, r * 0.95, self.chance)


class Storm(Widget):
    """The storm symbol of the dice and the weather bar."""

    def draw(self, surface, ctx):
        draw_token(surface, "storm", self.rect.center, min(self.rect.w, self.rect.h) / 2 * 0.9)


def widgets(rect: pygame.Rect, forecaster: Forecaster, f) -> list[Widget]:
    """The face with the chance of winning, then the storm symbol and when it is due."""
    result = forecaster.latest
    if result is None or result.over:
        return []
    side = round(rect.h * 0.85)
    face = pygame.Rect(rect.x, rect.centery - side // 2, side, side)
    words = pygame.Rect(face.right + f.u(4), rect.y, rect.right - face.right - f.u(4), rect.h)
    win, storm = cols(words, [1, 1.5], f.u(4))
    bolt = pygame.Rect(storm.x, storm.centery - side // 2, side, side)
    when = pygame.Rect(bolt.right + f.u(2), storm.y, storm.right - bolt.right - f.u(2), storm.h)
    rounds = result.storm_in_about
    assert rounds is not None  # a forecast of a game going on (not over, above)
    return [
        Chance(face, result.win),
        Label(
            win,
            _("{percent}% win").format(percent=round(result.win * 100)),
            "min",
            align="left",
            wrap=True,
            key="forecast-win",
        ),
        Storm(bolt, key="forecast-storm-symbol"),
        Label(
            when, storm_text(when, rounds, f), "min", align="left", colour=th.INK_SOFT, wrap=True, key="forecast-storm"
        ),
    ]


def storm_text(rect: pygame.Rect, rounds: int, f) -> str:
    """ "~14 rounds" beside the storm symbol, or just "~14" where a narrow screen has no room."""
    text = _.ngettext("~{count} round", "~{count} rounds", rounds).format(count=rounds)
    return text if th.font(f.u(th.SIZES["min"])).size(text)[0] <= rect.w else f"~{rounds}"


def shown(app) -> bool:
    """The forecast's percentages are for grown-ups: off unless Settings switch them on."""
    return getattr(app.config, "show_forecast", False)


def settings_buttons(body: pygame.Rect, app, gap: int) -> list[Widget]:
    """The Settings controls that show and hide the storm forecast."""
    on = shown(app)
    show, hide = cols(body, 2, gap)
    return [
        Button(
            show,
            _("Show"),
            lambda: app.change_config(show_forecast=True),
            kind="choice",
            selected=on,
            key="forecast:on",
        ),
        Button(
            hide,
            _("Hide"),
            lambda: app.change_config(show_forecast=False),
            kind="choice",
            selected=not on,
            key="forecast:off",
        ),
    ]


def settings_caption() -> str:
    return _("Forecast")


def forecaster_for(screen) -> Forecaster:
    """The screen's own forecaster (made on first use), asked about the state it shows."""
    forecaster = getattr(screen, "_forecaster", None)
    if forecaster is None:
        forecaster = screen._forecaster = Forecaster(screen.app)
    forecaster.ask(screen.match.state)
    return forecaster


__all__ = ["Forecaster", "forecaster_for", "widgets", "shown"]
