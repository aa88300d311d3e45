"""The drop judge: ship lines, bed impacts, the port and the flight in; Cloudship actions,
notices and link reports out (section 2 of hardware/PROTOCOL.md).

Pure: no clock, no I/O. Each event comes with the Pi's time in milliseconds; each call returns
what that event (and the deadlines it passed) produced, as the contract's JSON objects. The
live app calls ``tick(now)`` between events so deadlines fire on time; the ``judge`` command
calls ``finish()`` at the end of a recording for the run-on.

Each line costs the same however many balls are in the air (a flickering beam sends a flood of
BALL lines): falling balls wait in opening order, which is also the order they land in and the
order their deadlines come, so only the first is ever looked at; settling balls are only those
that struck a bed in the last SETTLE. The ship holds at most SHIP_HOLDS balls: a BALL line
beyond that is still judged as the contract says, and the board's fault is reported once as
``{"x_board": "too_many_balls", "in_air": N}`` (counted in ``counts`` for every such line).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, replace
from itertools import chain
from typing import Any

from .protocol import SEQ_MODULO, VERSION, ProtocolError, decode

BEDS = ("yellow", "purple", "white", "blue")
INFINITY = float("inf")
Record = dict[str, Any]  # one line of the judge's output (hardware/PROTOCOL.md)
SHIP_HOLDS = 6  # balls aboard at most: more in the air at once is a fault of the ball sensor


@dataclass(frozen=True)
class Timings:
    """The contract's named defaults, in ms (motions in milli-g, samples in TILT lines)."""

    min_fall: int = 30
    max_fall: int = 800
    settle: int = 300
    bounce_min: int = 40
    move_motion: int = 30
    lift_samples: int = 20
    rest_motion: int = 10
    rest_time: int = 2000
    silent: int = 3000

    def with_changes(self, **changes: int) -> Timings:
        return replace(self, **changes)


class Ball:
    """A ball that came through the hole: falling (bed None) or settling in a bed."""

    __slots__ = ("order", "kind", "opened", "bed", "last")

    def __init__(self, order: int, kind: str, opened: int):
        self.order = order  # BALL lines in the order they came: "opened earlier"
        self.kind = kind
        self.opened = opened
        self.bed: str | None = None
        self.last = opened  # the time of its last impact once it settles

    def deadline(self, timings: Timings) -> int:
        return self.opened + timings.max_fall if self.bed is None else self.last + timings.settle


class Judge:
    def __init__(self, timings: Timings | None = None, extras: bool = False):
        """``extras`` adds ``x_`` records for the screen: a ball opened (``x_ball``) and where it
        struck (``x_impact``). The live tilt is `tilt`, read when the screen wants it."""
        self.timings = timings or Timings()
        self.extras = extras
        self._out: list[Record] = []
        self._started = False
        self._clock = 0  # when the silence clock last started
        self._silence = False
        self._lost = False
        self._count: int | None = None  # the last counted SEQ
        self.ignoring = False  # a HELLO with another protocol version came
        self._falling: deque[Ball] = deque()  # in opening order: landing and deadline order too
        self._settling: list[Ball] = []  # struck a bed within the last SETTLE
        self._too_many = False  # a report of more balls than the ship holds stands
        self._opened = 0
        self.in_flight = False
        self._moving = 0
        self.flown = False
        self._rest_since: int | None = None
        self._land_due: int | None = None
        self.tilt: tuple[int, int, int] | None = None  # the last PITCH, ROLL, MOTION
        self.counts: dict[str, int] = {}  # link faults, for the screen: "checksum": 3, "gap": 1

    @property
    def balls(self) -> list[Ball]:
        """The balls in the air (falling or settling), in opening order."""
        return sorted(chain(self._falling, self._settling), key=lambda b: b.order)

    @property
    def in_air(self) -> int:
        return len(self._falling) + len(self._settling)

    # -- events ------------------------------------------------------------------------------

    def ship(self, t: int, line: str) -> list[Record]:
        """A line from the ship, as read, without its ``\\n``."""
        self._begin(t)
        try:
            kind, seq, _board_t, fields = decode(line)
        except ProtocolError as exc:
            return self._reject(t, exc.why)
        if kind != "HELLO" and seq == self._count:
            return self._reject(t, "repeat")
        if self._silence:
            self._silence = False
            self._emit({"t": t, "link": "heard"})
        self._clock = t
        if kind == "HELLO":
            self._count = seq
            self.ignoring = fields[0] != VERSION
            if self.ignoring:
                self._fault("version")
                self._emit({"t": t, "link": "version", "proto": fields[0]})
            return self._flush()
        if self.ignoring:
            return self._flush()
        if self._count is not None and seq != (self._count + 1) % SEQ_MODULO:
            missing = (seq - self._count - 1) % SEQ_MODULO
            self._fault("gap")
            self._emit({"t": t, "link": "gap", "missing": missing})
        self._count = seq
        if kind == "TILT":
            self._tilt(t, fields[0], fields[1], fields[2])
        elif kind == "BALL":
            if self.in_air >= SHIP_HOLDS:
                self._fault("too_many_balls")
                if not self._too_many:  # once, until the air is clear enough again
                    self._too_many = True
                    self._emit({"t": t, "x_board": "too_many_balls", "in_air": self.in_air + 1})
            self._falling.append(Ball(self._opened, fields[0], t))
            self._opened += 1
            if self.extras:
                self._emit({"t": t, "x_ball": fields[0]})
        elif kind == "ERR":
            self._fault("board")
            self._emit({"t": t, "link": "board", "code": fields[0], "text": fields[1]})
        return self._flush()

    def bed(self, t: int, bed: str) -> list[Record]:
        """An impact in one of the four beds."""
        self._begin(t)
        tm = self.timings
        # every falling ball is at most MAX_FALL old here (older ones were judged before this
        # event), so the earliest opened is the one to land if it has fallen MIN_FALL
        landing = self._falling[0] if self._falling and t - self._falling[0].opened >= tm.min_fall else None
        if landing is not None and t - landing.opened <= tm.max_fall:
            self._falling.popleft()
            landing.bed, landing.last = bed, t
            self._settling.append(landing)
            self._impact(t, landing)
            return self._flush()
        recent = [b for b in self._settling if t - b.last <= tm.settle]
        if not recent:
            self._emit({"t": t, "notice": "no_hole", "bed": bed})
            return self._flush()
        if any(b.bed == bed for b in recent):
            return self._flush()  # one ball rang this detector twice
        latest = max(recent, key=lambda b: (b.last, b.order))
        if t - latest.last >= tm.bounce_min:  # sooner, the detectors rang together
            latest.bed, latest.last = bed, t
            self._impact(t, latest)
        return self._flush()

    def port(self, t: int, state: str) -> list[Record]:
        """The serial port vanished (``lost``) or was opened again (``back``)."""
        self._begin(t)
        self._emit({"t": t, "link": state})
        if state == "lost":
            self._fault("lost")
            self._lost = True
            self._rest_since = None
        else:
            self._lost = False
            self._count = None
            self._silence = False
            self._clock = t
        return self._flush()

    def flight(self, t: int, state: str) -> list[Record]:
        """The game entered (``start``) or left (``end``) its flight phase."""
        self._begin(t)
        self._rest_since = None
        self._land_due = None
        self.in_flight = state == "start"
        self._moving = 0
        self.flown = False
        return self._flush()

    def tick(self, now: int) -> list[Record]:
        """Fire the deadlines earlier than ``now`` (the live app's clock moving on)."""
        if self._started:
            self._advance(now, run_on=False)
        return self._flush()

    def next_deadline(self) -> float:
        """The time (ms) after which `tick` has something to fire: a ball's deadline or the
        silence (INFINITY: nothing is due). A caller asleep until then misses nothing."""
        if not self._started:
            return INFINITY
        tm = self.timings
        when = min((ball.deadline(tm) for ball in self._settling), default=INFINITY)
        if self._falling:
            when = min(when, self._falling[0].deadline(tm))
        if not (self._lost or self._silence):
            when = min(when, self._clock + tm.silent)
        return when

    def finish(self) -> list[Record]:
        """The run-on at the end of a recording: every ball is judged, no ``silent``."""
        self._advance(INFINITY, run_on=True)
        return self._flush()

    # -- inside ------------------------------------------------------------------------------

    def _begin(self, t: int) -> None:
        if not self._started:
            self._started = True
            self._clock = t
        else:
            self._advance(t, run_on=False)

    def _advance(self, limit: float, run_on: bool) -> None:
        """Fire every deadline earlier than ``limit``, in time order: at one time the balls
        first, in the order their BALL lines came, then ``silent``."""
        tm = self.timings
        while True:
            first: Ball | None = None
            first_due = 0  # the first ball's deadline, a time in ms like every time the judge gives
            when: float = INFINITY  # first_due, or INFINITY while no ball is due
            candidates = self._settling if not self._falling else [self._falling[0], *self._settling]
            for ball in candidates:
                due = ball.deadline(tm)
                if due < when or (first is not None and due == when and ball.order < first.order):
                    first, first_due, when = ball, due, due  # a tie: the ball opened earlier first
            if not (run_on or self._lost or self._silence):
                quiet = self._clock + tm.silent
                if quiet < limit and quiet < when:
                    self._silence = True
                    self._rest_since = None
                    self._fault("silent")
                    self._emit({"t": quiet, "link": "silent"})
                    continue
            if first is None or when >= limit:
                return
            if first.bed is None:
                self._falling.popleft()
            else:
                self._settling.remove(first)
            if self.in_air < SHIP_HOLDS:
                self._too_many = False
            if first.bed is None:
                self._emit({"t": first_due, "notice": "outside", "ball": first.kind})
            else:
                self._emit({"t": first_due, "act": "drop", "ball": first.kind, "bed": first.bed})
            self._give_land(first_due)

    def _tilt(self, t: int, pitch: int, roll: int, motion: int) -> None:
        self.tilt = (pitch, roll, motion)
        if not self.in_flight:
            return
        tm = self.timings
        if motion >= tm.move_motion:
            self._moving += 1
            self.flown = self.flown or self._moving >= tm.lift_samples
            self._land_due = None
        if motion >= tm.rest_motion:
            self._rest_since = None
            return
        if self._rest_since is None:
            self._rest_since = t
        if t - self._rest_since >= tm.rest_time:
            self._rest_since = None
            if self.flown:
                self._land_due = t
                self._give_land(t)

    def _give_land(self, now: int) -> None:
        if self._land_due is not None and not self._falling and not self._settling:
            self._emit({"t": max(self._land_due, now), "act": "land"})
            self._land_due = None
            self.in_flight = False

    def _impact(self, t: int, ball: Ball) -> None:
        if self.extras:
            self._emit({"t": t, "x_impact": ball.bed, "ball": ball.kind})

    def _reject(self, t: int, why: str) -> list[Record]:
        self._fault(why)
        self._emit({"t": t, "link": "rejected", "why": why})
        return self._flush()

    def _fault(self, name: str) -> None:
        self.counts[name] = self.counts.get(name, 0) + 1

    def _emit(self, record: Record) -> None:
        self._out.append(record)

    def _flush(self) -> list[Record]:
        out, self._out = self._out, []
        return out
