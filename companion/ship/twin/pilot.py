"""A crew for the twin: flies the ship over a bed and tips one ball into the hole, as children
do when they watch the ball and lean the ship towards the hole (pure, on the model; called every
`TICK_MS` of board time).

    pilot = Pilot(model)
    pilot.drop(model.load("rain", 0.05, 0.0), "purple")   # queued; done one after another
    pilot.tick()                                           # every TICK_MS

A ball steered to the hole falls there unless the crew's wobble pushes it past; the pilot then
catches it on the other side and tries again.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .physics import BED_CENTRES, Ball, ShipModel

TICK_MS = 20
MAX_TILT = 8.0  # degrees: a crew tips the ship gently
GAIN = 300.0  # degrees per metre from the hole
DAMPING = 100.0  # degrees per metre a second
HAND_IN = (0.045, 0.0)  # where a ball handed in is put: towards the bow, 4.5 cm from the hole
CARRY_SPEED = 0.15  # m/s: the hands carry the ship from bed to bed no faster (the balls stay put)
OVER_BED = 0.012  # the ship is over its bed when this near the point and slow


@dataclass
class Drop:
    ball: Ball | None  # None: a ball of `kind` is handed onto the deck when its turn comes
    bed: str | None  # None: wherever the ship is
    at: tuple[float, float] | None = None  # a point of the table instead of a bed's centre
    kind: str = "rain"
    z: float | None = None  # the height to fly at for it


class Pilot:
    def __init__(
        self,
        model: ShipModel,
        *,
        gain: float = GAIN,
        damping: float = DAMPING,
        max_tilt: float = MAX_TILT,
        carry_speed: float = CARRY_SPEED,
    ):
        self.model = model
        self.gain, self.damping, self.max_tilt = gain, damping, max_tilt
        self.carry_speed = carry_speed
        self.queue: list[Drop] = []
        self.goal: tuple[float, float] | None = None  # where the hands carry the ship
        self.swinging: tuple[float, float, float, int] | None = None  # metres, degrees, Hz, since

    def swing(self, metres: float, degrees: float, hz: float = 1.0) -> None:
        """Swing the ship about over the box and tilt it hard (a wild crew, a test); `stop_swing`
        ends it, level over the middle."""
        self.swinging = (metres, degrees, hz, self.model.t)

    def stop_swing(self) -> None:
        self.swinging = None
        self.model.hold(x=0.0, y=0.0, pitch=0.0, roll=0.0)

    def carry(self, point: tuple[float, float]) -> None:
        """Carry the ship over `point` of the table, no faster than CARRY_SPEED."""
        self.goal = point

    def drop(self, ball: Ball, bed: str | None = None, at: tuple[float, float] | None = None) -> None:
        """Tip `ball` (on the deck already) into the hole over `bed`."""
        self.queue.append(Drop(ball, bed, at))

    def hand_in(
        self, kind: str, bed: str | None = None, at: tuple[float, float] | None = None, z: float | None = None
    ) -> None:
        """A ball of `kind` onto the deck once the drops before it are done, then into the hole
        over `bed` (or the point `at`, `z` above the beds): one ball at a time, so each falls
        where it is meant to."""
        self.queue.append(Drop(None, bed, at, kind, z))

    @property
    def busy(self) -> bool:
        return bool(self.queue) or self.goal is not None or self.swinging is not None

    def tick(self) -> None:
        model = self.model
        while self.queue and self.queue[0].ball is not None and self.queue[0].ball.state != "aboard":
            self.queue.pop(0)
            model.hold(pitch=0.0, roll=0.0)
        if not model.flying:
            self.goal = self.swinging = None
            return
        if self.swinging is not None:
            metres, degrees, hz, since = self.swinging
            w = 2 * math.pi * hz * (model.t - since) / 1000
            model.hold(
                x=metres * math.sin(w),
                y=metres * math.sin(1.37 * w + 1.0),
                pitch=degrees * math.sin(0.71 * w + 0.5),
                roll=degrees * math.sin(1.13 * w + 2.0),
            )
            return
        task = self.queue[0] if self.queue else None
        if task is not None:
            if task.at:
                self.goal = task.at
            elif task.bed:
                self.goal = BED_CENTRES[task.bed]
        if task is not None and task.z is not None:
            model.hold(z=task.z)
        if self.goal is not None:
            self._carry_step()
        if task is None:
            return
        point = self.goal
        if point is not None:
            h = model.hull()
            if (
                math.hypot(h["x"][0] - point[0], h["y"][0] - point[1]) > OVER_BED
                or math.hypot(h["x"][1], h["y"][1]) > 0.05
            ):
                model.hold(pitch=0.0, roll=0.0)  # level while on the way: nothing rolls out
                return
        if task.ball is None:
            task.ball = model.load(task.kind, *HAND_IN)
        ball = task.ball
        limit = self.max_tilt
        pitch = max(-limit, min(limit, self.gain * ball.u + self.damping * ball.du))
        roll = max(-limit, min(limit, self.gain * ball.v + self.damping * ball.dv))
        model.hold(pitch=pitch, roll=roll)

    def _carry_step(self) -> None:
        model, goal = self.model, self.goal
        assert goal is not None  # tick carries only towards a goal
        x, y = model.x.target, model.y.target
        step = self.carry_speed * TICK_MS / 1000
        far = math.hypot(goal[0] - x, goal[1] - y)
        if far > step:
            model.hold(x=x + (goal[0] - x) * step / far, y=y + (goal[1] - y) * step / far)
        else:
            model.hold(x=goal[0], y=goal[1])
            if not self.queue:
                self.goal = None
