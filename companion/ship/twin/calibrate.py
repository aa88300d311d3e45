"""The calibration run (`cloud-companion twin --drops N`): the twin flies N balls through the
whole chain and each judged drop is set beside what the twin's ball really did.

The chain is the app's own: the twin (the real firmware on the board host) writes into a pty,
the real link reads it into the session's inlet (the judge on the reader's thread, with the
settings' timings), the balls strike the bed detectors (gpiozero on mock pins), and the judged
actions go to a controller. The controller here is a stand-in for a Cloudship game that stays in
its flight phase (so every drop is taken), noting when each action came.

The crew hands the balls in one after another, each to a bed (with a little aim), some near a
divider (they may bounce into the next bed), some beside the box (they land outside), from
heights between 10 and 35 cm. Before the flight and after it the ship rests on the table, so
the run also sees the judge's rest and landing.

Each of the twin's balls is paired with what the judge said by time: a drop comes `settle`
after its ball's last impact, an `outside` notice `max_fall` after its BALL line; the pairing
window is `PAIR_MS`. A judged drop whose ball did not end in that bed through the hole is a
phantom (or wrong, when a ball did end there but of another kind or bed); a ball through the
hole into a bed with no drop for it is missed.
"""

from __future__ import annotations

import math
import queue
import random
import threading
import time
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict
from types import SimpleNamespace
from typing import TYPE_CHECKING, Any

from ...config import Config
from ..judge import Record, Timings
from ..link import LineSplitter, ShipLink, clock_ms
from ..protocol import ProtocolError, decode
from ..session import Controller, News, ShipSession
from .core import TwinCore
from .physics import BED_CENTRES, BEDS, BOX
from .pilot import Pilot
from .runner import Beds, TwinShip, pulse
from .virtual import VirtualTwin

if TYPE_CHECKING:
    from gpiozero.pins import Factory

PAIR_MS = 40
AHEAD_MS = 1000  # the board fed this far ahead of the clock (less than any wait before a crew action)
REST_S = 2.5  # on the table before and after the flight
DROP_TIMEOUT_S = 12.0  # per ball: a ball the crew cannot get into the hole is given up

Until = Callable[[Callable[[], bool], float], bool]  # until(done, seconds): the app's loop until done
Progress = Callable[[int, int], None]  # progress(balls ended, balls planned)
Flight = Callable[[TwinShip, Until, Progress | None], None]  # flight(twin, until, progress)


class JudgedSession(ShipSession):
    """The app's session, noting each judged action with the judge's own time (the pairing
    with the twin's balls goes by it; the controller's time is when the app had it)."""

    def __init__(self, *args: Any, **kwargs: Any):  # the session's own
        super().__init__(*args, **kwargs)
        self.judged: list[Record] = []
        self.arrivals: list[int] = []  # when each ship line reached the judge (the Pi's ms)

    def _judge(self, t: int, key: str, value: str) -> None:
        if key == "ship":
            self.arrivals.append(t)
        super()._judge(t, key, value)

    def _act(self, records: list[Record], controller: Controller | None, news: News) -> None:
        self.judged += [dict(r) for r in records if r.get("act") == "drop"]
        super()._act(records, controller, news)


class FlightStandIn:
    """The game controller as the session sees it: a Cloudship game in its flight phase that
    takes every judged action, noting when it came."""

    def __init__(self, clock: Callable[[], int] = clock_ms):
        self.match = SimpleNamespace(setup={"game": "cloudship"}, state=SimpleNamespace(phase="flight"), actions=list)
        self.actions: list[tuple[int, dict[str, Any]]] = []
        self.clock = clock

    def submit(self, action: Mapping[str, Any]) -> None:
        self.actions.append((self.clock(), dict(action)))

    def subscribe(self, _listener: Callable[[Any, Any, Mapping[str, Any]], None]) -> None:
        pass


def plan(count: int, rng: random.Random) -> list[dict[str, Any]]:
    """Where each ball is to go: a bed (with a little aim), near a divider, or beside the box."""
    out = []
    for _ in range(count):
        kind = "hail" if rng.random() < 0.25 else "rain"
        roll = rng.random()
        if roll < 0.8:
            bed = rng.choice(BEDS)
            cx, cy = BED_CENTRES[bed]
            at = (cx + rng.uniform(-0.025, 0.025), cy + rng.uniform(-0.025, 0.025))
        elif roll < 0.93:
            along = rng.uniform(-0.11, 0.11)
            off = rng.choice((-1, 1)) * rng.uniform(0.004, 0.02)
            at = (off, along) if rng.random() < 0.5 else (along, off)
        else:
            at = (rng.choice((-1, 1)) * (BOX + rng.uniform(0.03, 0.06)), rng.uniform(-0.1, 0.1))
        out.append({"ball": kind, "at": at, "z": rng.uniform(0.10, 0.35)})
    return out


class Times:
    """Times of the judge's output in the order it came, for pairing: `first(low, high, taken)`
    is the first index not taken whose time is within low..high, found by bisection where the
    times never go back (as the judge gives them), else by looking at each."""

    def __init__(self, times: list[int]):
        self.times = times
        self.ordered = all(a <= b for a, b in zip(times, times[1:]))

    def first(self, low: float, high: float, taken: set[int]) -> int | None:
        times = self.times
        if not self.ordered:
            return next((i for i, t in enumerate(times) if i not in taken and low <= t <= high), None)
        for i in range(bisect_left(times, low), len(times)):
            if times[i] > high:
                return None
            if i not in taken:
                return i
        return None


def percentile(values: Sequence[float], share: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def strike_now(beds: Beds, bed: str) -> None:
    """A ball strikes a bed detector on a simulated clock: its pin's edge, at once."""
    pin = beds.pin(bed)
    pin.drive_low()
    pin.drive_high()


class CalibrationRun:
    def __init__(
        self,
        drops: int,
        seed: int = 0,
        timings: Timings | None = None,
        *,
        config: Config | None = None,
        crew: dict[str, float] | None = None,
        pin_factory: Factory | None = None,
        virtual: bool = False,
        ahead: bool = True,
    ):
        self.drops = drops
        self.seed = seed
        self.virtual = virtual  # on a simulated clock (virtual.VirtualTwin), not in real time
        self.ahead = ahead  # ... its board fed ahead of the clock where no crew action can come
        self.config = config or Config()
        self.timings = timings or self.config.judge
        self.crew = crew
        self.pin_factory = pin_factory
        self.news: News = []
        self.given_up = 0  # balls the crew could not get into the hole in DROP_TIMEOUT_S

    def fly(self, progress: Progress | None = None, flight: Flight | None = None) -> dict[str, Any]:
        """Fly every ball; the report: `drops` (one dict a ball) and `summary`. `flight(twin,
        until, progress)` flies instead of the planned drops (a test's wild crew); `until(done,
        seconds)` runs the app's loop meanwhile."""
        from gpiozero.pins.mock import MockFactory

        from ...devices.beds import BedDetectors

        woken = threading.Event()
        virtual = (
            # a flight of its own may act on the model directly: no copy of it runs ahead
            VirtualTwin(seed=self.seed, crew=self.crew, compiled=True, ahead=self.ahead and flight is None)
            if self.virtual
            else None
        )
        twin = virtual if virtual is not None else TwinShip(seed=self.seed, crew=self.crew, compiled=True)
        clock = virtual.pi_ms if virtual is not None else clock_ms
        session = JudgedSession(queue.Queue(), clock=clock, timings=self.timings, beds_present=True)
        inlet = session.inlet(woken.set)
        beds = BedDetectors(
            self.config.bed_pins(), inlet, clock, pin_factory=self.pin_factory or MockFactory(), wake=woken.set
        )
        twin.strike = (lambda bed: strike_now(beds, bed)) if virtual is not None else (lambda bed: pulse(beds, bed))
        twin.keep_lines = True
        controller = FlightStandIn(clock)
        until: Until
        until_then: Until  # no crew action comes in its span but at its end (or from the model)
        if virtual is not None:

            def until(done: Callable[[], bool], seconds: float) -> bool:
                return self._until_virtual(virtual, session, controller, done, seconds)

            def until_then(done: Callable[[], bool], seconds: float) -> bool:
                return self._until_virtual(virtual, session, controller, done, seconds, ahead=True)
        else:

            def until(done: Callable[[], bool], seconds: float) -> bool:
                return self._until(session, controller, woken, done, seconds)

            until_then = until

        link = None
        try:
            twin.start()
            if virtual is not None:  # the link's own line splitting, the port opened at once
                virtual.port = LineSplitter(inlet.put, clock).data_received
                inlet.put([(clock(), "port", "back")])
            else:
                assert twin.path is not None  # the real-time twin writes into a pty
                link = ShipLink(twin.path, inlet, wake=woken.set, retry_s=0.05)
                link.start()
            until(lambda: session.link == "connected", 10)
            until_then(lambda: False, REST_S)
            rest_until = twin.board_ms()
            twin.fly()
            lifted = twin.board_ms()
            until(lambda: session.judge.flown, 10)  # the crew hands the balls in the moment it is
            flown_ms = twin.board_ms() - lifted
            if flight is not None:
                flight(twin, until, progress)
            else:
                self._drops(twin, until_then, progress)
            # the last balls' judgement, then the landing and a rest on the table
            until_then(lambda: False, (self.timings.max_fall + self.timings.settle + 400) / 1000)
            landing = twin.board_ms()
            twin.set_down()
            until_then(
                lambda: any(a.get("act") == "land" for _t, a in controller.actions),
                REST_S + self.timings.rest_time / 1000 + 5,
            )
            landed_at = twin.board_ms()
            until_then(lambda: False, 0.3)
        finally:
            if link is not None:
                link.stop()
            twin.close()
            beds.close()
        return self._report(twin, controller, session, rest_until, flown_ms, landing, landed_at)

    def _drops(self, twin: TwinShip, until: Until, progress: Progress | None) -> None:
        """The planned drops, handed in one after another. `until` may look ahead to its end:
        the crew acts only when it runs out (a ball given up), and after the last ball not
        before the last balls' judgement is in."""
        planned = plan(self.drops, random.Random(self.seed))

        def hand_in(_core: TwinCore, pilot: Pilot) -> None:
            for item in planned:
                pilot.hand_in(item["ball"], at=item["at"], z=item["z"])

        def give_up(core: TwinCore, pilot: Pilot) -> bool:
            if not pilot.queue:
                return False
            stuck = pilot.queue.pop(0).ball
            if stuck is not None and stuck in core.model.balls:
                core.model.balls.remove(stuck)
            return True

        twin.act(hand_in)
        done = 0
        while True:
            ended = len(twin.model.truth)
            if progress is not None and ended != done:
                progress(ended, self.drops)
            done = ended
            if ended >= self.drops or not twin.pilot.busy:
                return

            def moved_on(ended: int = ended) -> bool:  # a ball ended, or the crew has nothing left to do
                return len(twin.model.truth) > ended or not twin.pilot.busy

            if not until(moved_on, DROP_TIMEOUT_S) and twin.act(give_up):
                self.given_up += 1  # this ball would not go in: the crew took it out and goes on

    def _until(
        self,
        session: ShipSession,
        controller: FlightStandIn,
        woken: threading.Event,
        done: Callable[[], bool],
        seconds: float,
    ) -> bool:
        """The app's main loop in short: poll the session when woken, often while balls are in
        the air (the app animates them), at least every half second."""
        end = time.monotonic() + seconds
        while not done():
            left = end - time.monotonic()
            if left <= 0:
                return False
            woken.wait(min(left, 0.01 if session.judge.balls else 0.5))
            woken.clear()
            self.news += session.poll(controller)
        return True

    def _until_virtual(
        self,
        twin: VirtualTwin,
        session: ShipSession,
        controller: FlightStandIn,
        done: Callable[[], bool],
        seconds: float,
        ahead: bool = False,
    ) -> bool:
        """`_until` on the simulated clock: the twin wakes as it would in real time, the session
        is polled after each wake and at each of the judge's deadlines. `ahead`: no crew action
        comes before the end but from the model, so the board may be fed up to a second ahead,
        to a wake before the end (a wake at most `flying_wake_s` apart in flight: the last one
        before the end, where the model stands if the crew acts when it runs out)."""
        end = twin.now + seconds * 1000
        short = math.ceil(twin.flying_wake_s * 1000) + 1
        while not done():
            if twin.now >= end:
                return False
            wake_at = twin.step(min(twin.now + AHEAD_MS, math.floor(end) - short) if ahead else 0)
            self.news += session.poll(controller)
            twin.advance_to(math.ceil(min(wake_at, end, max(twin.now + 1, twin.now + session.due_in_ms()))))
        return True

    # -- the report ---------------------------------------------------------------------------

    def _report(
        self,
        twin: TwinShip,
        controller: FlightStandIn,
        session: JudgedSession,
        rest_until: int,
        flown_ms: int,
        landing: int,
        landed_at: int,
    ) -> dict[str, Any]:
        tm = self.timings
        stories = sorted(twin.model.truth, key=lambda s: s.get("beam_clear", s["landed"]))
        written = {ball_id: t for t, ball_id in twin.beams}
        strikes: dict[int, list[tuple[int, str]]] = {}
        for t, bed, ball_id in twin.struck:
            strikes.setdefault(ball_id, []).append((t, bed))
        # each judged drop with the judge's time, and when the controller had it
        taken_at = [t for t, a in controller.actions if a.get("act") == "drop"]
        judged = [(record, taken_at[i] if i < len(taken_at) else None) for i, record in enumerate(session.judged)]
        outside = [n for n in self.news if n.get("notice") == "outside"]
        no_hole = [n for n in self.news if n.get("notice") == "no_hole"]
        taken_drops: set[int] = set()
        taken_outside: set[int] = set()
        drop_times = Times([record["t"] for record, _taken in judged])
        outside_times = Times([notice["t"] for notice in outside])
        rows: list[dict[str, Any]] = []
        for number, story in enumerate(stories, start=1):
            ball_id = story["id"]
            hits = strikes.get(ball_id, [])
            row: dict[str, Any] = {
                "drop": number,
                "twin": {
                    "ball": story["ball"],
                    "through": story["through"],
                    "bed": story["bed"],
                    "first_bed": story["first_bed"],
                    "height_m": story.get("height"),
                    "fall_ms": story["landed"] - story["beam_clear"] if story["through"] == "hole" else None,
                },
            }
            judged_as: dict[str, Any] | None = None
            if hits:
                # the judge's last impact: a detector ringing again in the same bed is not one
                last = [t for i, (t, bed) in enumerate(hits) if i == 0 or hits[i - 1][1] != bed][-1]
                # the judge gives a drop `settle` after the last impact it was told of
                i = drop_times.first(last + tm.settle - PAIR_MS, last + tm.settle + PAIR_MS, taken_drops)
                if i is not None:
                    record, taken = judged[i]
                    taken_drops.add(i)
                    judged_as = {"act": "drop", "ball": record["ball"], "bed": record["bed"]}
                    if ball_id in written and taken is not None:
                        row["latency_ms"] = taken - written[ball_id]
            if judged_as is None and ball_id in written:
                opened = written[ball_id] + tm.max_fall
                i = outside_times.first(opened - PAIR_MS, opened + PAIR_MS, taken_outside)
                if i is not None:
                    taken_outside.add(i)
                    judged_as = {"notice": "outside", "ball": outside[i]["ball"]}
            row["judged"] = judged_as
            truth_drop = story["through"] == "hole" and story["bed"] is not None
            if truth_drop:
                row["right"] = judged_as == {"act": "drop", "ball": story["ball"], "bed": story["bed"]}
            elif story["through"] == "hole":
                row["right"] = judged_as == {"notice": "outside", "ball": story["ball"]}
            else:
                row["right"] = judged_as is None  # over the rim: no drop for it
            if ball_id in written and hits:
                row["twin"]["seen_fall_ms"] = hits[0][0] - written[ball_id]
            rows.append(row)
        phantoms = len(judged) - len(taken_drops)  # drops no ball of the twin explains
        for row in rows:
            j, twin_row = row["judged"], row["twin"]
            if j and "act" in j and not (twin_row["through"] == "hole" and twin_row["bed"] is not None):
                phantoms += 1
        wrong = sum(
            1
            for r in rows
            if r["judged"]
            and "act" in r["judged"]
            and not r["right"]
            and r["twin"]["through"] == "hole"
            and r["twin"]["bed"] is not None
        )
        missed = sum(
            1
            for r in rows
            if r["twin"]["through"] == "hole"
            and r["twin"]["bed"] is not None
            and not (r["judged"] and "act" in r["judged"])
        )
        latencies = [r["latency_ms"] for r in rows if r.get("latency_ms") is not None]
        ambiguous = self._ambiguous(stories, strikes, written)
        summary = {
            "drops": len(rows),
            "through_hole": sum(1 for r in rows if r["twin"]["through"] == "hole"),
            "into_beds": sum(1 for r in rows if r["twin"]["through"] == "hole" and r["twin"]["bed"] is not None),
            "judged_right": sum(1 for r in rows if r["right"]),
            "judged_wrong": wrong,
            "phantoms": phantoms,
            "missed": missed,
            "no_hole": len(no_hole),
            "ambiguous": ambiguous,
            "given_up": self.given_up,
            "latency_p50_ms": percentile(latencies, 0.5),
            "latency_p99_ms": percentile(latencies, 0.99),
            "link_faults": dict(session.judge.counts),
            "margins": self._margins(
                twin, rows, strikes, written, rest_until, flown_ms, landing, landed_at, session.arrivals
            ),
            "seed": self.seed,
            "timings": asdict(self.timings),
            "firmware_on": twin.interpreter
            + (" (.mpy)" if twin.compiled and twin.interpreter == "micropython" else ""),
        }
        return {"drops": rows, "summary": summary}

    def _ambiguous(
        self, stories: list[dict[str, Any]], strikes: dict[int, list[tuple[int, str]]], written: dict[int, int]
    ) -> int:
        """Moments no judge of these sensors can tell apart, each of which may cost a phantom
        (and a miss): a ball over the rim striking another bed `bounce_min`..`settle` after a
        ball from the hole struck its own (the bounce rule takes it for that ball's bounce), a
        ball over the rim striking a bed while a ball from the hole is still falling (it is taken
        for that ball's landing), and a ball through the hole that lands outside while another
        ball from the hole is in the air (the earliest falling ball takes the first impact)."""
        tm = self.timings
        hole = [s for s in stories if s["through"] == "hole"]
        # the last impact of each ball from the hole, and when each one's BALL line went out, in
        # time order: each moment below looks only at those within its window
        lasts = sorted((strikes[s["id"]][-1][0], strikes[s["id"]][-1][1]) for s in hole if strikes.get(s["id"]))
        last_times = [t for t, _bed in lasts]
        opened = sorted((written[s["id"]], s["id"]) for s in hole if s["id"] in written)
        opened_times = [t for t, _id in opened]

        def within(times: list[int], low: int, high: int) -> range:
            return range(bisect_left(times, low), bisect_right(times, high))

        count = 0
        for story in stories:
            hits = strikes.get(story["id"], [])
            if story["through"] == "rim" and hits:
                t, bed = hits[0]
                if any(lasts[i][1] != bed for i in within(last_times, t - tm.settle, t - tm.bounce_min)):
                    count += 1
                elif any(
                    not any(hit <= t for hit, _b in strikes.get(opened[i][1], []))
                    for i in within(opened_times, t - tm.max_fall, t - tm.min_fall)
                ):
                    count += 1
            elif story["through"] == "hole" and story["bed"] is None and story["id"] in written:
                mine = written[story["id"]]
                if any(
                    opened[i][1] != story["id"] for i in within(opened_times, mine - tm.max_fall, mine + tm.max_fall)
                ):
                    count += 1
        return count

    def _margins(
        self,
        twin: TwinShip,
        rows: list[dict[str, Any]],
        strikes: dict[int, list[tuple[int, str]]],
        written: dict[int, int],
        rest_until: int,
        flown_ms: int,
        landing: int,
        landed_at: int,
        arrivals: list[int],
    ) -> dict[str, Any]:
        """How far the twin's flight stayed from each threshold of the judge (ms, milli-g); each
        `*_margin_*` is positive while the flight stayed on the right side of it."""
        tm = self.timings
        falls = [r["twin"]["seen_fall_ms"] for r in rows if r["twin"].get("seen_fall_ms") is not None]
        bounces: list[int] = []
        rings: list[int] = []
        for hits in strikes.values():
            for (t0, b0), (t1, b1) in zip(hits, hits[1:]):
                (rings if b0 == b1 else bounces).append(t1 - t0)
        resting: list[int] = []
        flying: list[int] = []
        still_ms = 0  # the longest stretch of the flight under rest_motion
        still_from: int | None = None
        for line in twin.lines:
            try:
                kind, _seq, t, fields = decode(line)
            except ProtocolError:
                continue
            if kind != "TILT":
                continue
            motion = int(fields[2])
            t += twin.firmware_started  # the firmware counts from its own start
            if t <= rest_until or t >= landed_at:
                resting.append(motion)
            elif rest_until + 1500 < t < landing:
                flying.append(motion)
                if motion < tm.rest_motion:
                    still_from = t if still_from is None else still_from
                    still_ms = max(still_ms, t - still_from)
                else:
                    still_from = None
        gaps = [b - a for a, b in zip(arrivals, arrivals[1:])]
        out = {
            "fall_ms": [min(falls), max(falls)] if falls else None,
            "fall_margin_ms": [min(falls) - tm.min_fall, tm.max_fall - max(falls)] if falls else None,
            "bounce_ms": [min(bounces), max(bounces)] if bounces else None,
            "bounce_margin_ms": [min(bounces) - tm.bounce_min, tm.settle - max(bounces)] if bounces else None,
            "ring_again_ms": [min(rings), max(rings)] if rings else None,
            # a detector ringing again in its bed must do so within settle, or it is a new impact
            "ring_again_margin_ms": tm.settle - max(rings) if rings else None,
            "rest_motion_max_mg": max(resting) if resting else None,
            "rest_motion_margin_mg": tm.rest_motion - max(resting) if resting else None,
            # a resting ship never counts as moving (a flying one need only lift_samples in all:
            # flight_moving_share says how many of its samples do)
            "move_motion_margin_mg": tm.move_motion - max(resting) if resting else None,
            "flight_motion_p10_mg": percentile(flying, 0.1),
            "flight_moving_share": round(sum(1 for m in flying if m >= tm.move_motion) / len(flying), 3)
            if flying
            else None,
            # the lift is seen after lift_samples moving samples: a second at 20 a second at best
            "lift_to_flown_ms": flown_ms,
            # no stretch of the flight is still for rest_time (a landing the crew did not make)
            "flight_still_max_ms": still_ms,
            "rest_time_margin_ms": tm.rest_time - still_ms,
            "landing_to_land_ms": landed_at - landing,
            # the longest wait between two lines at the judge, against silent
            "line_gap_max_ms": max(gaps) if gaps else None,
            "silent_margin_ms": tm.silent - max(gaps) if gaps else None,
        }
        return out


def compare(one: Sequence[dict[str, Any]], other: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Two calibration runs of the same seed side by side, drop by drop (the same plan: the
    same ball aimed at the same point from the same height, in the same order): `same_flight`,
    the drops whose ball did the same in both (its kind, through the hole or over the rim, into
    the same bed); `same_judgement`, those of them the judge said the same of; `same_verdict`,
    the drops judged right (or wrong) in both. Runs on another clock fly the same plan a little
    differently (in real time the crew acts when the wall clock says, so the hull's wobble is
    met at another phase): a ball near a divider may land in the next bed in one of them, and
    is then judged by what it did there. `differ`: the drop numbers whose judgement or verdict
    differs where the flight did not."""
    same_flight = same_judgement = same_verdict = 0
    differ = []
    for a, b in zip(one, other):
        flew_alike = all(a["twin"][key] == b["twin"][key] for key in ("ball", "through", "bed"))
        judged_alike = a["judged"] == b["judged"]
        same_flight += flew_alike
        same_judgement += flew_alike and judged_alike
        same_verdict += a["right"] == b["right"]
        if a["right"] != b["right"] or (flew_alike and not judged_alike):
            differ.append(a["drop"])
    return {
        "drops": min(len(one), len(other)),
        "unpaired": abs(len(one) - len(other)),
        "same_flight": same_flight,
        "same_judgement": same_judgement,
        "same_verdict": same_verdict,
        "differ": differ,
    }


def summary_line(summary: dict[str, Any]) -> str:
    keys = ("drops", "judged_right", "judged_wrong", "phantoms", "missed", "latency_p50_ms", "latency_p99_ms")
    return " ".join(f"{k}={summary[k]}" for k in keys)


def row_line(row: dict[str, Any]) -> str:
    twin, judged = row["twin"], row["judged"]
    did = f"{twin['ball']} {twin['through']} -> {twin['bed'] or 'outside'}"
    if twin["first_bed"] and twin["first_bed"] != twin["bed"]:
        did += f" (bounced from {twin['first_bed']})"
    if judged is None:
        said = "nothing"
    elif "act" in judged:
        said = f"drop {judged['ball']} {judged['bed']}"
    else:
        said = f"{judged['notice']} {judged['ball']}"
    mark = "ok" if row["right"] else "WRONG"
    latency = f"  {row['latency_ms']} ms" if row.get("latency_ms") is not None else ""
    return f"{row['drop']:4d}  twin: {did:40s} judge: {said:22s} {mark}{latency}"
