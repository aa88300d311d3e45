"""The main thread's side of the ship: the judge between the devices and the game.

    session = ShipSession(events, clock=clock_ms, beds_present=True)
    for news in session.poll(controller): ...   # once per main-loop pass

The link's and the beds' threads only put records on `events`. Here, on the main thread, each
record goes (in arrival order, times never going back) into the flight log and the judge; what
the judge gives out is acted on: a judged `drop` or `land` is submitted to the controller like
a tap (journaled first; a refusal by the rules becomes news for a notice, never a crash), the
link reports set `link` for the top bar. The game's phase tells the judge when a flight starts
and ends.

Without bed detectors the judge cannot know where a ball ended: each ball that leaves the hole
is put in `asking` and the screen asks "where did it land?"; the crew's tap on the ball in its
bed (a drop entered by touch) answers it. No pygame here.
"""

from __future__ import annotations

import queue
from typing import Any, Callable

from ..rules import RulesError
from .flightlog import FlightLog
from .judge import Judge, Timings

# the flight log keeps going this long after a flight ends, for the balls still in the air
LOG_TAIL_MS = 1500


def in_flight(controller) -> bool:
    match = controller.match if controller is not None else None
    return match is not None and match.setup.get("game") == "cloudship" \
        and getattr(match.state, "phase", None) == "flight"


def is_cloudship(controller) -> bool:
    match = controller.match if controller is not None else None
    return match is not None and match.setup.get("game") == "cloudship"


class ShipSession:
    def __init__(self, events: queue.Queue, *, clock: Callable[[], int], timings: Timings | None = None,
                 beds_present: bool = True, flight_log: FlightLog | None = None):
        self.events = events
        self.clock = clock
        self.judge = Judge(timings, extras=True)
        self.beds_present = beds_present
        self.flight_log = flight_log
        self.link = "waiting"  # waiting, connected, lost, silent, version (another protocol)
        self.asking: list[str] = []  # no bed detectors: balls that left the hole, to place by touch
        self.lines = 0  # ship lines read
        self._floor = 0  # times never go back, whatever order threads put their records in
        self._flying = False  # the game's flight phase as the judge was last told
        self._log_until: int | None = None
        self._submitting = False
        self.controller = None
        self._news: list[dict[str, Any]] = []  # produced between polls (a change by touch)

    @property
    def tilt(self) -> tuple[float, float] | None:
        """The ship's last pitch and roll in degrees."""
        tilt = self.judge.tilt
        return None if tilt is None else (tilt[0] / 10, tilt[1] / 10)

    def falling(self) -> list[tuple[str, int]]:
        """Balls in the air: (kind, ms since they left the hole)."""
        now = self.clock()
        return [(b.kind, now - b.opened) for b in self.judge.balls if b.bed is None]

    def settling(self) -> list[tuple[str, str]]:
        """Balls that struck a bed and are not judged yet: (kind, bed)."""
        return [(b.kind, b.bed) for b in self.judge.balls if b.bed is not None]

    # -- once per main-loop pass -------------------------------------------------------------

    def poll(self, controller) -> list[dict[str, Any]]:
        """Feed what arrived to the judge, act on its word; the news for the screen."""
        self.controller = controller
        news, self._news = self._news, []
        self._drain(controller, news)
        now = max(self._floor, self.clock())
        self._follow_game(controller, now, news)
        self._act(self.judge.tick(now), controller, news)
        self._floor = now
        if self._log_until is not None and now > self._log_until:
            self._log_until = None
            if self.flight_log is not None:
                self.flight_log.close()
        return news

    def _drain(self, controller, news: list) -> None:
        while True:
            try:
                records = self.events.get_nowait()
            except queue.Empty:
                return
            for t, key, value in records:
                self.feed(max(t, self._floor), key, value, controller, news)

    def feed(self, t: int, key: str, value: str, controller, news: list) -> None:
        self._floor = t
        if key == "ship":
            self.lines += 1
        if self.flight_log is not None:
            self.flight_log.record(t, key, value)
        handler = getattr(self.judge, key)
        self._act(handler(t, value), controller, news)

    # -- inside ------------------------------------------------------------------------------

    def _follow_game(self, controller, t: int, news: list) -> None:
        """Tell the judge when the game enters or leaves its flight phase."""
        flying = in_flight(controller)
        if flying == self._flying:
            return
        self._flying = flying
        if flying:
            self.asking.clear()
            if self.flight_log is not None:
                self.flight_log.start()
            self._log_until = None
        else:
            self._log_until = t + LOG_TAIL_MS
        self.feed(t, "flight", "start" if flying else "end", controller, news)

    def _act(self, records: list[dict], controller, news: list) -> None:
        for record in records:
            if "act" in record:
                if record["act"] == "land" or self.beds_present:
                    action = {k: v for k, v in record.items() if k != "t"}
                    self._submit(action, controller, news)
                continue
            if "x_ball" in record:
                if not self.beds_present and self._flying:
                    self.asking.append(record["x_ball"])
                news.append(record)
            elif "x_impact" in record:
                news.append(record)
            elif "notice" in record:
                if record["notice"] == "outside" and not self.beds_present:
                    continue  # no detectors to see it land: the crew says where, by touch
                news.append(record)
            elif "link" in record:
                state = {"lost": "lost", "back": "connected", "heard": "connected", "silent": "silent",
                         "version": "version"}.get(record["link"])
                if state is not None:
                    self.link = state
                elif self.link == "waiting":
                    self.link = "connected"
                if record["link"] in ("board", "lost", "back", "silent", "heard", "version"):
                    news.append(record)

    def _submit(self, action: dict, controller, news: list) -> None:
        """Offer a judged action to the rules like a tap; a refusal is news, never a crash."""
        if not is_cloudship(controller):
            return
        self._submitting = True
        try:
            controller.submit(action)
        except RulesError as exc:
            news.append({"refused": exc, "action": action})
            return
        finally:
            self._submitting = False
        news.append({"done": action})
        self._follow_game(controller, self._floor, news)

    def on_game_change(self, before, after, action) -> None:
        """A change by touch (or seat button): what arrived before it is judged first, then the
        judge hears of a flight starting or ending at once. A drop entered by touch answers the
        question about a ball of its kind."""
        if self._submitting:
            return  # our own action: _submit follows the game itself
        if action.get("act") == "drop" and action.get("ball") in self.asking:
            self.asking.remove(action["ball"])
        if self.controller is not None:
            self._drain(self.controller, self._news)
            self._follow_game(self.controller, max(self._floor, self.clock()), self._news)

    def attach(self, controller) -> None:
        """Follow `controller`'s game as it changes (by touch too), not only once per poll."""
        self.controller = controller
        controller.subscribe(self.on_game_change)
