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
MAX_TILT = 10.0  # degrees: a crew tips the ship gently
GAIN = 400.0     # degrees per metre from the hole
DAMPING = 120.0  # degrees per metre a second
CARRY_SPEED = 0.15  # m/s: the hands carry the ship from bed to bed no faster (the balls stay put)
OVER_BED = 0.012  # the ship is over its bed when this near the point and slow


@dataclass
class Drop:
    ball: Ball
    bed: str | None  # None: wherever the ship is
    at: tuple[float, float] | None = None  # a point of the table instead of a bed's centre


class Pilot:
    def __init__(self, model: ShipModel, *, gain: float = GAIN, damping: float = DAMPING, max_tilt: float = MAX_TILT):
        self.model = model
        self.gain, self.damping, self.max_tilt = gain, damping, max_tilt
        self.queue: list[Drop] = []

    def drop(self, ball: Ball, bed: str | None = None, at: tuple[float, float] | None = None) -> None:
        self.queue.append(Drop(ball, bed, at))

    @property
    def busy(self) -> bool:
        return bool(self.queue)

    def tick(self) -> None:
        model = self.model
        while self.queue and self.queue[0].ball.state != "aboard":
            self.queue.pop(0)
            model.hold(pitch=0.0, roll=0.0)
        if not self.queue or not model.flying:
            return
        task = self.queue[0]
        point = task.at or (BED_CENTRES[task.bed] if task.bed else None)
        if point is not None:
            x, y = model.x.target, model.y.target
            step = CARRY_SPEED * TICK_MS / 1000
            far = math.hypot(point[0] - x, point[1] - y)
            if far > step:
                x, y = x + (point[0] - x) * step / far, y + (point[1] - y) * step / far
            else:
                x, y = point
            model.hold(x=x, y=y)
            h = model.hull()
            if math.hypot(h["x"][0] - point[0], h["y"][0] - point[1]) > OVER_BED or \
                    math.hypot(h["x"][1], h["y"][1]) > 0.05:
                model.hold(pitch=0.0, roll=0.0)  # level while on the way: nothing rolls out
                return
        ball = task.ball
        limit = self.max_tilt
        pitch = max(-limit, min(limit, self.gain * ball.u + self.damping * ball.du))
        roll = max(-limit, min(limit, self.gain * ball.v + self.damping * ball.dv))
        model.hold(pitch=pitch, roll=roll)
