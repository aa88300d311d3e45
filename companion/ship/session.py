"""The ship's judge between the devices and the game.

    session = ShipSession(events, clock=clock_ms, beds_present=True)
    link = ShipLink(port, session.inlet(wake), ...)  # the devices hand their records over
    for news in session.poll(controller): ...        # once per main-loop pass

The link's and the beds' threads hand their records to `inlet(wake)`: each record is judged at
once, on that thread, under the session's lock (in arrival order, times never going back) and
written to the flight log; only what the judge gives out waits for the main thread. So the main
loop is woken only when there is something for it: an action, a notice, a link report, or, while
`watch_tilt` is on (the Cloudship screen shows the ship in flight), a tilt that moved visibly
(`TILT_WAKE` tenths of a degree, at most every `TILT_WAKE_MS`). A resting ship's 21 lines a
second wake nobody but the reader. Records put on `events` (tests, benches) are judged in `poll`.

On the main thread `poll` acts on the judge's word: a judged `drop` or `land` is submitted to
the controller like a tap (journaled first; a refusal by the rules becomes news for a notice,
never a crash), the link reports set `link` for the top bar. The game's phase tells the judge
when a flight starts and ends; `tick` fires its deadlines (a ball that never lands, silence).

Without bed detectors the judge cannot know where a ball ended: each ball that leaves the hole
is put in `asking` and the screen asks "where did it land?"; the crew's tap on the ball in its
bed (a drop entered by touch) answers it. No pygame here.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable, Mapping
from typing import Any, Protocol

from ..rules import RulesError
from .flightlog import FlightLog
from .judge import Judge, Record, Timings

# the flight log keeps going this long after a flight ends, for the balls still in the air
LOG_TAIL_MS = 1500
TILT_WAKE = 10  # tenths of a degree: the tilt drawn on screen moves visibly (ShipPanel redraws at 1)
TILT_WAKE_MS = 100  # ... and is shown at most ten times a second

Records = list[tuple[int, str, str]]  # (time, what, value) from a device, as the link gives them
News = list[dict[str, Any]]  # what the screen hears of


class Game(Protocol):
    """The game in progress as the session looks at it (companion.rules.Match)."""

    @property
    def setup(self) -> Mapping[str, Any]: ...

    @property
    def state(self) -> Any: ...


class Controller(Protocol):
    """The game controller as the session drives it (companion.controller.GameController)."""

    @property
    def match(self) -> Game | None: ...

    def submit(self, action: Mapping[str, Any]) -> object: ...

    def subscribe(self, listener: Callable[[Any, Any, Mapping[str, Any]], None]) -> None: ...


def in_flight(controller: Controller | None) -> bool:
    match = controller.match if controller is not None else None
    return (
        match is not None and match.setup.get("game") == "cloudship" and getattr(match.state, "phase", None) == "flight"
    )


def is_cloudship(controller: Controller | None) -> bool:
    match = controller.match if controller is not None else None
    return match is not None and match.setup.get("game") == "cloudship"


class Inlet:
    """Where the device threads put their lists of records (in place of a queue): judged at
    once on their thread; the main loop woken only when the session says it must be."""

    def __init__(self, session: ShipSession, wake: Callable[[], None]):
        self.session = session
        self.wake = wake

    def put(self, records: Records) -> bool:
        """Judge `records`; True when the main loop was woken for them."""
        if self.session.take(records):
            self.wake()
            return True
        return False


class ShipSession:
    def __init__(
        self,
        events: queue.Queue[Records],
        *,
        clock: Callable[[], int],
        timings: Timings | None = None,
        beds_present: bool = True,
        flight_log: FlightLog | None = None,
    ):
        self.events = events
        self.clock = clock
        self.judge = Judge(timings, extras=True)
        self.beds_present = beds_present
        self.flight_log = flight_log
        self.link = "waiting"  # waiting, connected, lost, silent, version (another protocol)
        self.asking: list[str] = []  # no bed detectors: balls that left the hole, to place by touch
        self.lines = 0  # ship lines read
        self.watch_tilt = False  # set by the main thread: a visible tilt change wakes it
        self.woken = 0  # how often the devices' records woke the main loop
        # the judge, the flight log and everything below are shared with the device threads
        self._lock = threading.Lock()
        self._outbox: list[Record] = []  # the judge's output, not yet acted on by the main thread
        self._woke_tilt: tuple[int, int] | None = None
        self._woke_tilt_at = 0
        self._floor = 0  # times never go back, whatever order threads put their records in
        self._flying = False  # the game's flight phase as the judge was last told
        self._log_until: int | None = None
        self._submitting = False
        self.controller: Controller | None = None
        self._news: News = []  # produced between polls (a change by touch)

    @property
    def tilt(self) -> tuple[float, float] | None:
        """The ship's last pitch and roll in degrees."""
        tilt = self.judge.tilt
        return None if tilt is None else (tilt[0] / 10, tilt[1] / 10)

    def falling(self) -> list[tuple[str, int]]:
        """Balls in the air: (kind, ms since they left the hole)."""
        now = self.clock()
        with self._lock:
            return [(b.kind, now - b.opened) for b in self.judge.balls if b.bed is None]

    def settling(self) -> list[tuple[str, str]]:
        """Balls that struck a bed and are not judged yet: (kind, bed)."""
        with self._lock:
            return [(b.kind, b.bed) for b in self.judge.balls if b.bed is not None]

    # -- on the device threads ---------------------------------------------------------------

    def inlet(self, wake: Callable[[], None]) -> Inlet:
        return Inlet(self, wake)

    def take(self, records: Records) -> bool:
        """Judge records from a device (any thread); True when the main loop must hear of it:
        the judge said something, or the tilt on screen would move visibly."""
        with self._lock:
            before = len(self._outbox)
            for t, key, value in records:
                self._judge(t, key, value)
            wake = len(self._outbox) > before or self._tilt_moved()
            if wake:
                self.woken += 1
            return wake

    def _tilt_moved(self) -> bool:
        tilt = self.judge.tilt
        if not self.watch_tilt or tilt is None:
            return False
        shown = self._woke_tilt
        if shown is not None and max(abs(tilt[0] - shown[0]), abs(tilt[1] - shown[1])) < TILT_WAKE:
            return False
        if self._floor - self._woke_tilt_at < TILT_WAKE_MS:
            return False  # the next line, a moment later, wakes it if the ship still leans so
        self._woke_tilt, self._woke_tilt_at = tilt[:2], self._floor
        return True

    def _judge(self, t: int, key: str, value: str) -> None:
        """One record into the flight log and the judge (the lock held)."""
        t = max(t, self._floor)
        self._floor = t
        if key == "ship":
            self.lines += 1
        if self.flight_log is not None:
            self.flight_log.record(t, key, value)
        self._outbox.extend(getattr(self.judge, key)(t, value))

    # -- once per main-loop pass -------------------------------------------------------------

    def due_in_ms(self) -> float:
        """How long the main loop may sleep before `poll` has a deadline to fire (a ball that
        never lands, the board's silence); INFINITY when nothing is due."""
        with self._lock:
            due = self.judge.next_deadline()
        # a deadline fires once the clock is past it (`tick` fires those earlier than now)
        return max(0.0, due + 1 - max(self._floor, self.clock()))

    def poll(self, controller: Controller | None) -> News:
        """Act on the judge's word since the last poll; the news for the screen."""
        self.controller = controller
        news, self._news = self._news, []
        self._drain(controller, news)
        self._follow_game(controller, self.clock(), news)
        with self._lock:
            now = max(self._floor, self.clock())
            self._outbox.extend(self.judge.tick(now))
            self._floor = now
            if self._log_until is not None and now > self._log_until:
                self._log_until = None
                if self.flight_log is not None:
                    self.flight_log.close()
        self._drain(controller, news)
        return news

    def _drain(self, controller: Controller | None, news: News) -> None:
        """Records put on `events` are judged here; then the judge's output is acted on."""
        while True:
            try:
                records = self.events.get_nowait()
            except queue.Empty:
                break
            self.take(records)
        with self._lock:
            out, self._outbox = self._outbox, []
        self._act(out, controller, news)

    # -- inside ------------------------------------------------------------------------------

    def _follow_game(self, controller: Controller | None, t: int, news: News) -> None:
        """Tell the judge when the game enters or leaves its flight phase."""
        flying = in_flight(controller)
        if flying == self._flying:
            return
        self._flying = flying
        if flying:
            self.asking.clear()
        with self._lock:
            t = max(t, self._floor)
            if flying:
                if self.flight_log is not None:
                    self.flight_log.start()
                self._log_until = None
            else:
                self._log_until = t + LOG_TAIL_MS
            self._judge(t, "flight", "start" if flying else "end")
        self._drain(controller, news)

    def _act(self, records: list[Record], controller: Controller | None, news: News) -> None:
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
            elif record.get("x_board") == "too_many_balls":  # shown as the board's own fault report
                news.append(
                    {
                        "t": record["t"],
                        "link": "board",
                        "code": "ball_sensor",
                        "text": f"{record['in_air']} balls at once, more than the ship holds",
                    }
                )
            elif "notice" in record:
                if record["notice"] == "outside" and not self.beds_present:
                    continue  # no detectors to see it land: the crew says where, by touch
                news.append(record)
            elif "link" in record:
                state = {
                    "lost": "lost",
                    "back": "connected",
                    "heard": "connected",
                    "silent": "silent",
                    "version": "version",
                }.get(record["link"])
                if state is not None:
                    self.link = state
                elif self.link == "waiting":
                    self.link = "connected"
                if record["link"] in ("board", "lost", "back", "silent", "heard", "version"):
                    news.append(record)

    def _submit(self, action: dict[str, Any], controller: Controller | None, news: News) -> None:
        """Offer a judged action to the rules like a tap; a refusal is news, never a crash."""
        if controller is None or not is_cloudship(controller):
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

    def on_game_change(self, before: object, after: object, action: Mapping[str, Any]) -> None:
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

    def attach(self, controller: Controller) -> None:
        """Follow `controller`'s game as it changes (by touch too), not only once per poll."""
        self.controller = controller
        controller.subscribe(self.on_game_change)
