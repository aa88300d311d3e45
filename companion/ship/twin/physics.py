"""The cloud ship as a physical model: the hull as hands hold it, the balls on its deck, their
fall through the hole (and the beam) into the beds, and what its sensors read.

Pure and deterministic: no clock, no threads, no I/O; all chance comes from one seeded
`random.Random`. Time is the board's, in whole milliseconds: `advance(t)` moves everything to
`t`, and what happened meanwhile is in `events` (balls through the beam, impacts on the beds,
balls over the rim) and `truth` (each ball's story, for the calibration run).

The table (metres, x east along the ship's bow, y north, z up): the box's bottom half centred at
the origin, `BOX` from the centre to each wall, split into four beds by its crossed dividers
(yellow north-west, purple north-east, white south-west, blue south-east). The ship stands on
the table east of the box (`PARKED`) and flies `FLIGHT_Z` above the beds.

The hull: pitch (nose up positive) and roll (right side down positive) in degrees, and its
position, each following where the crew's hands hold it (a critically damped spring: fingers in
string loops), plus the crew's wobble while it flies (a few slow sines per axis, their size set
by `steadiness`). The deck is an ellipse with a low rim and the hole in its middle; a ball rolls
on it under gravity and the hull's own acceleration (5/7 g sin of the slope, a solid ball that
rolls without slipping), slowed by rolling friction, held by static friction on a slight slope,
bouncing off the rim and off each other, and going over the rim when it strikes it too fast.
A ball whose centre comes over the hole drops: it breaks the beam just below the rim while its
body passes it, then falls freely to the beds (it keeps the hull's horizontal speed). Where it
lands it may bounce into the neighbouring bed when it lands near a divider; a piezo detector
sometimes rings twice.

The sensors (as mounted in hardware/SHIP.md: the MPU-6050 flat, X to the bow, Z up):
`imu(t)` gives what an MPU-6050 reads (specific force in g, rotation in degrees a second, with
noise and a fixed bias per twin), `beam()` whether a ball breaks the beam, `colour()` the
TCS34725's (r, g, b, clear) counts.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from typing import Any

G = 9.81
BOX = 0.15  # from the box's centre to its walls
FLIGHT_Z = 0.20  # the hull's floor above the beds in flight
PARKED = (0.30, 0.0)  # the ship on the table beside the box
DECK_U, DECK_V = 0.075, 0.042  # the ellipse the balls' centres keep within (bow-stern, side-side)
HOLE_R = 0.011  # the hole's radius; a ball drops once its centre is nearer than CAPTURE_R
BALL_R = 0.007
CAPTURE_R = HOLE_R - 0.5 * BALL_R
BEAM_DEPTH = 0.004  # the beam below the deck's surface
HULL_DEPTH = 0.012  # the deck's surface above the hull's floor (the hole's length)
ROLL_FACTOR = 5 / 7  # a solid ball rolling: the share of a force along the deck that accelerates it
ROLLING_FRICTION = 0.012  # decelerations in g
STATIC_FRICTION = 0.02
RIM_RESTITUTION = 0.3
OVER_RIM_SPEED = 0.45  # m/s into the rim: the ball jumps the low rim
DIVIDER_BOUNCE = 0.025  # landing this near a divider with speed towards it: it bounces over
RING_TWICE = 0.3  # chance a detector rings a second time
STRIKE_MS = 12  # a detector's pulse
FLICKER_GAP_MS = 5  # a flicker of the beam (a string, a glint) is over before the next begins

AXES = ("x", "y", "z", "pitch", "roll")  # the hull's, as ShipModel._axes holds them
BEDS = ("yellow", "purple", "white", "blue")
BED_CENTRES = {
    "yellow": (-BOX / 2, BOX / 2),
    "purple": (BOX / 2, BOX / 2),
    "white": (-BOX / 2, -BOX / 2),
    "blue": (BOX / 2, -BOX / 2),
}

# the TCS34725 at the hole (2.4 ms, gain 16x, its LED on), at a ball's brightest moment: shares
# of r, g, b and the clear count, as calibration.DEFAULTS has them (a blue raindrop, a white
# hailstone); the wall across the hole when no ball is there
COLOURS = {"rain": (0.22, 0.32, 0.46, 900), "hail": (0.33, 0.34, 0.33, 2400)}
WALL = (0.34, 0.33, 0.33, 60)

# the MPU-6050 at ±2 g, ±250 °/s, its 44 Hz filter: noise per sample (the datasheet's 400 µg/√Hz
# over the filter's noise bandwidth, 44 Hz × π/2: 3.3 mg), and its zero-g offset drawn once a
# twin (the datasheet's factory tolerance is ±50 mg on X and Y, ±80 mg on Z: these are its 2σ)
ACCEL_NOISE_G = 0.0033
GYRO_NOISE_DPS = 0.05
ACCEL_BIAS_G = (0.025, 0.025, 0.04)
GYRO_BIAS_DPS = 3.0  # a real MPU-6050 reads a few degrees a second standing still
NOISE_TABLE = 7919  # standard normal draws made once per twin (prime: each sample a new six)

Hull = dict[str, tuple[float, float, float]]  # each axis of the hull: (position, rate, acceleration)
Reading = tuple[float, float, float, float, float, float]  # the IMU's (ax, ay, az, gx, gy, gz)


def bed_at(x: float, y: float) -> str | None:
    """The bed under a point of the table, None outside the box (a divider counts to a side)."""
    if abs(x) >= BOX or abs(y) >= BOX:
        return None
    return ("white", "blue")[x >= 0] if y < 0 else ("yellow", "purple")[x >= 0]


class Follow:
    """One axis of the hull following the hands: a critically damped spring."""

    __slots__ = ("pos", "vel", "acc", "target", "omega")

    def __init__(self, pos: float, omega: float):
        self.pos, self.vel, self.acc, self.target, self.omega = pos, 0.0, 0.0, pos, omega

    def step(self, dt: float) -> None:
        w = self.omega
        self.acc = w * w * (self.target - self.pos) - 2 * w * self.vel
        self.vel += self.acc * dt
        self.pos += self.vel * dt
        # (ShipModel._step does the same for its five axes inline: a call each is half its cost)

    def still(self) -> bool:
        return abs(self.target - self.pos) < 1e-6 and abs(self.vel) < 1e-6


class Wobble:
    """The crew's unsteady hands on one axis: a sum of slow sines, with its rate and
    acceleration known exactly (for the gyro and the accelerometer)."""

    def __init__(self, rng: random.Random, size: float, freqs: tuple[float, ...] = (0.6, 1.4, 3.1)):
        self.parts = [
            (
                size * rng.uniform(0.6, 1.0) / (i + 1),
                2 * math.pi * f * rng.uniform(0.8, 1.25),
                rng.uniform(0, 2 * math.pi),
            )
            for i, f in enumerate(freqs)
        ]
        # each sine's amplitude, rate and phase with the products the rate and acceleration
        # take, a * w and a * w * w, worked out once (the same floats as on every call)
        self._terms = [(a, w, phase, a * w, a * w * w) for a, w, phase in self.parts]

    def at(self, t: float, scale: float) -> tuple[float, float, float]:
        pos = vel = acc = 0.0
        sin, cos = math.sin, math.cos
        for a, w, phase, aw, aww in self._terms:
            x = w * t + phase
            s = sin(x)
            pos += a * s
            vel += aw * cos(x)
            acc -= aww * s
        return pos * scale, vel * scale, acc * scale


@dataclass
class Ball:
    id: int
    kind: str
    u: float
    v: float
    du: float = 0.0
    dv: float = 0.0
    state: str = "aboard"  # aboard, falling (through the hole), over (the rim), landed
    story: dict[str, Any] = field(default_factory=dict)


class ShipModel:
    def __init__(
        self,
        seed: int | None = 0,
        *,
        steadiness: float = 1.0,
        accel_bias_g: float | tuple[float, float, float] = ACCEL_BIAS_G,  # one spread, or one an axis
        gyro_bias_dps: float = GYRO_BIAS_DPS,
        light: float | None = None,
    ):
        self.rng = rng = random.Random(seed)
        self.t = 0  # ms
        self.x, self.y = Follow(PARKED[0], 4.0), Follow(PARKED[1], 4.0)
        self.z = Follow(0.0, 5.0)
        self.pitch, self.roll = Follow(0.0, 8.0), Follow(0.0, 8.0)
        self.steadiness = steadiness  # 1 a calm crew; more shakes more
        self.flying = False
        self._lift = 0.0  # 0 on the table .. 1 flying: how much wobble the hands add
        # slow sway of the arms, and the quick tremor of the fingers and strings (felt up and
        # down: the accelerometer's MOTION is mostly the vertical part)
        self._wobble = {
            axis: Wobble(rng, size, freqs)
            for axis, size, freqs in (
                ("pitch", 1.2, (0.6, 1.4, 3.1)),
                ("roll", 1.2, (0.6, 1.4, 3.1)),
                ("x", 0.004, (0.6, 1.4, 3.1)),
                ("y", 0.004, (0.6, 1.4, 3.1)),
                ("z", 0.0009, (0.8, 2.5, 7.0)),
            )
        }
        self._hull_at = -1
        self._hull: Hull = {}
        self._axes = (self.x, self.y, self.z, self.pitch, self.roll)
        spreads = accel_bias_g if isinstance(accel_bias_g, tuple) else (accel_bias_g,) * 3
        self.accel_bias = [rng.gauss(0, spread) for spread in spreads]
        self.gyro_bias = [rng.gauss(0, gyro_bias_dps) for _ in range(3)]
        self.light = light if light is not None else rng.uniform(0.85, 1.15)  # the room's lamp
        self.balls: list[Ball] = []
        # (t, what, detail), taken by the runner: a ball, or (bed, ball) for a strike
        self.events: list[tuple[int, str, Ball | tuple[str, Ball]]] = []
        self.truth: list[dict[str, Any]] = []  # each ball's story once it ended (landed somewhere)
        self._next_id = 0
        self._beam: list[tuple[int, int, Ball]] = []  # (broken from, clear at, ball)
        self._strikes: list[tuple[int, int, str]] = []  # (from, until, bed): detectors pulled low
        self.cleared: list[int] = []  # the balls whose body has passed the beam, in order
        self._flicker_until = -1
        self.flicker_rate = 0.0  # beam flickers a second (sunlight, a swinging string)
        self._settled = True
        self._still_imu: Reading | None = None  # the noiseless reading while the hull rests
        # the sensors' noise, read in turn: 40 s of samples before a six repeats
        self._noise = [rng.gauss(0, 1) for _ in range(NOISE_TABLE + 6)]
        self._noise_at = 0
        self._wall: tuple[int, int, int, int] | None = None

    # -- the crew's hands ----------------------------------------------------------------------

    def lift(self) -> None:
        self.flying = True
        self.z.target = FLIGHT_Z
        self._unsettle()

    def set_down(self) -> None:
        """Land beside the box and let go: the hull comes to rest, level."""
        self.flying = False
        self.z.target = 0.0
        self.x.target, self.y.target = PARKED
        self.pitch.target = self.roll.target = 0.0
        self._unsettle()

    def hold(
        self,
        pitch: float | None = None,
        roll: float | None = None,
        x: float | None = None,
        y: float | None = None,
        z: float | None = None,
    ) -> None:
        """Where the hands hold the hull now (degrees, metres); unnamed parts stay."""
        for follow, value, most in (
            (self.pitch, pitch, 40.0),
            (self.roll, roll, 40.0),
            (self.x, x, 1.0),
            (self.y, y, 1.0),
            (self.z, z, 0.5),
        ):
            if value is not None:
                follow.target = max(-most, min(most, float(value)))
        self._unsettle()

    def over(self, bed: str, z: float | None = None) -> None:
        self.hold(x=BED_CENTRES[bed][0], y=BED_CENTRES[bed][1], z=z)

    def load(self, kind: str, u: float = 0.0, v: float = 0.0) -> Ball:
        """A ball put on the deck at (u, v) (metres from the hole, u to the bow, v to port)."""
        k = math.hypot(u / DECK_U, v / DECK_V)
        if k > 1:
            u, v = u / k, v / k
        ball = Ball(self._next_id, kind, u, v, story={"id": self._next_id, "ball": kind, "loaded": self.t})
        self._next_id += 1
        self.balls.append(ball)
        self._unsettle()
        return ball

    def _unsettle(self) -> None:
        """Something will move: what was kept of the hull at rest is stale."""
        self._settled = False
        self._still_imu = None
        self._hull_at = -1

    # -- time ----------------------------------------------------------------------------------

    def quiet(self) -> bool:
        """Nothing moves and nothing is on its way: the hull rests and no ball moves or falls."""
        return self._settled and not self._beam and not self._strikes

    def advance(self, t: int) -> None:
        """Move the model to board time `t` (ms), a millisecond at a time while anything moves."""
        while self.t < t:
            if self._settled and not self._beam and not self._strikes:
                self.t = t  # everything at rest: nothing to integrate
                return
            self.t += 1
            self._step(0.001)

    def _step(self, dt: float) -> None:
        for axis in self._axes:  # Follow.step, inline
            w = axis.omega
            acc = axis.acc = w * w * (axis.target - axis.pos) - 2 * w * axis.vel
            vel = axis.vel = axis.vel + acc * dt
            axis.pos += vel * dt
        goal = 1.0 if self.flying else 0.0
        if self._lift != goal:  # max(-2 dt, min(2 dt, goal - lift)), without the calls
            most, change = dt * 2, goal - self._lift
            self._lift += most if change > most else -most if change < -most else change
        moving = self._roll_balls(dt)
        if self._beam and self._beam[0][1] < self.t:
            self.cleared += [b[2].id for b in self._beam if b[1] < self.t]
            self._beam = [b for b in self._beam if b[1] >= self.t]
        if self._strikes:
            self._strikes = [s for s in self._strikes if s[1] >= self.t]
        self._settled = (
            not self.flying
            and self._lift == 0.0
            and not moving
            and all(a.still() for a in (self.x, self.y, self.z, self.pitch, self.roll))
        )
        if self._settled:  # snap: the hull at rest is exactly where it was put
            for a in (self.x, self.y, self.z, self.pitch, self.roll):
                a.pos, a.vel, a.acc = a.target, 0.0, 0.0

    def hull(self) -> Hull:
        """Each axis of the hull as (position, rate, acceleration): hands and wobble."""
        # within one millisecond the hull moves only when a step runs, and a step moves the
        # clock on; what else changes the hands' aim (_unsettle) forgets it too
        if self._hull_at == self.t:
            return self._hull
        self._hull_at = self.t
        self._hull = self._hull_now()
        return self._hull

    def _hull_now(self) -> Hull:
        if self._lift <= 0:
            return {name: (a.pos, a.vel, a.acc) for name, a in zip(AXES, self._axes)}
        seconds = self.t / 1000
        scale = self._lift * self.steadiness
        wobble = self._wobble
        sin, cos = math.sin, math.cos
        out: Hull = {}
        for name, a in zip(AXES, self._axes):
            terms = wobble[name]._terms
            if len(terms) != 3:
                wp, wv, wa = wobble[name].at(seconds, scale)
                out[name] = (a.pos + wp, a.vel + wv, a.acc + wa)
                continue
            # Wobble.at for three sines, spelled out: the same sums in the same order (a call
            # and a loop an axis were a third of a flying millisecond)
            (a1, w1, p1, aw1, aww1), (a2, w2, p2, aw2, aww2), (a3, w3, p3, aw3, aww3) = terms
            x1, x2, x3 = w1 * seconds + p1, w2 * seconds + p2, w3 * seconds + p3
            s1, s2, s3 = sin(x1), sin(x2), sin(x3)
            out[name] = (
                a.pos + (0.0 + a1 * s1 + a2 * s2 + a3 * s3) * scale,
                a.vel + (0.0 + aw1 * cos(x1) + aw2 * cos(x2) + aw3 * cos(x3)) * scale,
                a.acc + (0.0 - aww1 * s1 - aww2 * s2 - aww3 * s3) * scale,
            )
        return out

    def tilt(self) -> tuple[float, float]:
        h = self.hull()
        return h["pitch"][0], h["roll"][0]

    # -- the balls -----------------------------------------------------------------------------

    def _roll_balls(self, dt: float) -> bool:
        aboard = [b for b in self.balls if b.state == "aboard"]
        if not aboard:
            return False
        pitch_deg, roll_deg, x_acc, y_acc = self._deck_pull()
        pitch, roll = math.radians(pitch_deg), math.radians(roll_deg)
        # along the deck: gravity down the slope, and the hull's acceleration felt backwards
        au = -ROLL_FACTOR * (G * math.sin(pitch) + x_acc * math.cos(pitch))
        av = -ROLL_FACTOR * (G * math.sin(roll) * math.cos(pitch) + y_acc * math.cos(roll))
        drive = math.hypot(au, av)
        moving = False
        for ball in aboard:
            speed = math.hypot(ball.du, ball.dv)
            if speed < 1e-3 and drive < STATIC_FRICTION * G:
                ball.du = ball.dv = 0.0
                continue
            moving = True
            fu, fv = au, av
            if speed > 1e-9:
                fu -= ROLLING_FRICTION * G * ball.du / speed
                fv -= ROLLING_FRICTION * G * ball.dv / speed
            ball.du += fu * dt
            ball.dv += fv * dt
            ball.u += ball.du * dt
            ball.v += ball.dv * dt
            if math.hypot(ball.u, ball.v) < CAPTURE_R:
                self._drop_through_hole(ball, self.hull())
            else:
                self._rim(ball)
        if len(aboard) > 1:
            self._collide([b for b in aboard if b.state == "aboard"])
        return moving

    def _deck_pull(self) -> tuple[float, float, float, float]:
        """The hull's pitch and roll (degrees) and its acceleration along x and y now: what
        rolls the balls. hull()'s own values, without working out the rest of it (the other
        eleven, and the cosines, are wanted only on the sensors' ticks)."""
        if self._hull_at == self.t or self._lift <= 0:
            h = self.hull()
            return h["pitch"][0], h["roll"][0], h["x"][2], h["y"][2]
        seconds = self.t / 1000
        scale = self._lift * self.steadiness
        wobble, sin = self._wobble, math.sin
        out = []
        for name, axis, want_acc in (
            ("pitch", self.pitch, False),
            ("roll", self.roll, False),
            ("x", self.x, True),
            ("y", self.y, True),
        ):
            terms = wobble[name]._terms
            if len(terms) != 3:
                h = self.hull()
                return h["pitch"][0], h["roll"][0], h["x"][2], h["y"][2]
            (a1, w1, p1, _aw1, aww1), (a2, w2, p2, _aw2, aww2), (a3, w3, p3, _aw3, aww3) = terms
            s1, s2, s3 = sin(w1 * seconds + p1), sin(w2 * seconds + p2), sin(w3 * seconds + p3)
            if want_acc:  # as _hull_now works them out
                out.append(axis.acc + (0.0 - aww1 * s1 - aww2 * s2 - aww3 * s3) * scale)
            else:
                out.append(axis.pos + (0.0 + a1 * s1 + a2 * s2 + a3 * s3) * scale)
        return out[0], out[1], out[2], out[3]

    def _rim(self, ball: Ball) -> None:
        k = (ball.u / DECK_U) ** 2 + (ball.v / DECK_V) ** 2
        if k <= 1:
            return
        s = 1 / math.sqrt(k)
        ball.u, ball.v = ball.u * s, ball.v * s
        nu, nv = ball.u / DECK_U**2, ball.v / DECK_V**2
        norm = math.hypot(nu, nv)
        nu, nv = nu / norm, nv / norm
        into = ball.du * nu + ball.dv * nv
        if into > OVER_RIM_SPEED:
            self._over_rim(ball, self.hull())
        elif into > 0:
            ball.du -= (1 + RIM_RESTITUTION) * into * nu
            ball.dv -= (1 + RIM_RESTITUTION) * into * nv

    def _collide(self, balls: list[Ball]) -> None:
        for i, a in enumerate(balls):
            for b in balls[i + 1 :]:
                du, dv = b.u - a.u, b.v - a.v
                d = math.hypot(du, dv)
                if d >= 2 * BALL_R or d < 1e-9:
                    continue
                nu, nv = du / d, dv / d
                push = (2 * BALL_R - d) / 2
                a.u, a.v, b.u, b.v = a.u - nu * push, a.v - nv * push, b.u + nu * push, b.v + nv * push
                closing = (a.du - b.du) * nu + (a.dv - b.dv) * nv
                if closing > 0:  # equal masses: swap the speeds along the line of centres
                    a.du, a.dv = a.du - closing * nu, a.dv - closing * nv
                    b.du, b.dv = b.du + closing * nu, b.dv + closing * nv

    def _world(self, h: Hull, u: float, v: float) -> tuple[float, float]:
        pitch, roll = math.radians(h["pitch"][0]), math.radians(h["roll"][0])
        return h["x"][0] + u * math.cos(pitch), h["y"][0] + v * math.cos(roll)

    def _drop_through_hole(self, ball: Ball, h: Hull) -> None:
        """The ball leaves the deck: its body passes the beam, then it falls to the beds."""
        ball.state = "falling"
        t0 = self.t
        broken = t0 + math.sqrt(2 * BEAM_DEPTH / G) * 1000
        clear = t0 + math.sqrt(2 * (BEAM_DEPTH + 2 * BALL_R) / G) * 1000
        height = max(0.0, h["z"][0]) + HULL_DEPTH
        fall_s = math.sqrt(2 * height / G)
        self._beam.append((round(broken), round(clear), ball))
        ball.story.update(through="hole", beam=round(broken), beam_clear=round(clear), height=round(height, 3))
        hx, hy = self._world(h, 0.0, 0.0)
        vx, vy = h["x"][1] + ball.du * 0.3, h["y"][1] + ball.dv * 0.3  # most of its roll is stopped by the hole
        self._land(ball, t0 + fall_s * 1000, hx + vx * fall_s, hy + vy * fall_s, vx, vy)

    def _over_rim(self, ball: Ball, h: Hull) -> None:
        """Too fast into the low rim: the ball flies over it and falls beside the hole's path."""
        ball.state = "over"
        hx, hy = self._world(h, ball.u, ball.v)
        vx, vy = h["x"][1] + ball.du, h["y"][1] + ball.dv
        height = max(0.0, h["z"][0]) + HULL_DEPTH
        fall_s = math.sqrt(2 * height / G)
        ball.story.update(through="rim")
        self.events.append((self.t, "over_rim", ball))
        self._land(ball, self.t + fall_s * 1000, hx + vx * fall_s, hy + vy * fall_s, vx, vy)

    def _land(self, ball: Ball, at: float, x: float, y: float, vx: float, vy: float) -> None:
        at = round(at)
        bed = bed_at(x, y)
        impacts = []
        if bed is not None:
            impacts.append((at, bed))
            # near a divider with speed towards it: over the divider into the next bed
            for axis, pos, speed in ((0, x, vx), (1, y, vy)):
                if abs(pos) < DIVIDER_BOUNCE and pos * speed < 0 and abs(speed) > 0.15:
                    other = (-x, y) if axis == 0 else (x, -y)
                    bounce_bed = bed_at(*other)
                    if bounce_bed is not None:
                        at2 = at + round(self.rng.uniform(60, 180))
                        impacts.append((at2, bounce_bed))
                        bed = bounce_bed
                    break
        ball.story.update(
            landed=at, first_bed=impacts[0][1] if impacts else None, bed=bed, where=[round(x, 3), round(y, 3)]
        )
        for when, which in impacts:
            self._strikes.append((when, when + STRIKE_MS, which))
            self.events.append((when, "strike", (which, ball)))
            if self.rng.random() < RING_TWICE:
                again = when + STRIKE_MS + round(self.rng.uniform(4, 15))
                self._strikes.append((again, again + STRIKE_MS // 2, which))
                self.events.append((again, "strike", (which, ball)))
        self.events.append((at, "landed", ball))
        self.truth.append(ball.story)
        self.balls.remove(ball)

    # -- the sensors ---------------------------------------------------------------------------

    def imu(self) -> Reading:
        """(ax, ay, az) in g and (gx, gy, gz) in degrees a second, as the MPU-6050 reads now."""
        if not (self._settled and self._still_imu is not None):
            self._still_imu = self._imu_now() if self._settled else None
        bx, by, bz, gx, gy, gz = self._still_imu or self._imu_now()
        i = self._noise_at
        self._noise_at = (i + 6) % NOISE_TABLE
        z = self._noise
        g, d = ACCEL_NOISE_G, GYRO_NOISE_DPS
        return (
            bx + g * z[i],
            by + g * z[i + 1],
            bz + g * z[i + 2],
            gx + d * z[i + 3],
            gy + d * z[i + 4],
            gz + d * z[i + 5],
        )

    def _imu_now(self) -> Reading:
        """The sensor's reading without its noise (its bias in)."""
        h = self.hull()
        theta, phi = math.radians(h["pitch"][0]), math.radians(h["roll"][0])
        st, ct, sp, cp = math.sin(theta), math.cos(theta), math.sin(phi), math.cos(phi)
        # specific force (what an accelerometer feels): the hull's acceleration plus 1 g up
        fx, fy, fz = h["x"][2] / G, h["y"][2] / G, h["z"][2] / G + 1.0
        # into the hull's axes: X to the bow (pitched up by theta), Y to port, Z up (rolled by phi)
        bx = ct * fx + st * fz
        by = -st * sp * fx + cp * fy + ct * sp * fz
        bz = -st * cp * fx - sp * fy + ct * cp * fz
        rate_pitch, rate_roll = h["pitch"][1], h["roll"][1]
        gx = rate_roll
        gy = -rate_pitch * cp  # about Y (port): positive turns the nose down
        gz = rate_pitch * sp
        ab, gb = self.accel_bias, self.gyro_bias
        return bx + ab[0], by + ab[1], bz + ab[2], gx + gb[0], gy + gb[1], gz + gb[2]

    def standing_level(self, i: int) -> Reading:
        """The IMU's `i`-th reading of this ship standing level and still on the table (its
        offsets in, the noise of the sensor's own table): what `calibrate.level()` is shown."""
        ab, gb, z = self.accel_bias, self.gyro_bias, self._noise
        j = (6 * i) % NOISE_TABLE
        g, d = ACCEL_NOISE_G, GYRO_NOISE_DPS
        return (
            ab[0] + g * z[j],
            ab[1] + g * z[j + 1],
            1.0 + ab[2] + g * z[j + 2],
            gb[0] + d * z[j + 3],
            gb[1] + d * z[j + 4],
            gb[2] + d * z[j + 5],
        )

    def beam(self) -> bool:
        """True while a ball's body (or a flicker) breaks the beam."""
        t = self.t
        if t <= self._flicker_until:
            return True
        if (
            self.flicker_rate
            and t > self._flicker_until + FLICKER_GAP_MS
            and self.rng.random() < self.flicker_rate / 1000
        ):
            self._flicker_until = t + self.rng.choice((0, 1))  # 1 or 2 ms: shorter than a ball
            return True
        return any(start <= t < clear for start, clear, _b in self._beam)

    def colour(self) -> tuple[int, int, int, int]:
        """The colour sensor's counts: the ball in front of it (brightest when centred), else
        the wall across the hole."""
        t = self.t
        for start, clear, ball in self._beam:
            if start <= t < clear:
                share = (t - start + 0.5) / max(1, clear - start)
                bright = 0.35 + 0.65 * math.sin(math.pi * share)
                r, g, b, c = COLOURS[ball.kind]
                return self._counts(r, g, b, c * bright * self.light)
        if self._wall is None:  # nobody reads it with the beam clear: one reading will do
            r, g, b, c = WALL
            self._wall = self._counts(r, g, b, c * self.light)
        return self._wall

    def _counts(self, r: float, g: float, b: float, clear: float) -> tuple[int, int, int, int]:
        n = self.rng.gauss
        total = clear * 1.05
        out = [max(0, min(65535, round(total * share * (1 + n(0, 0.02))))) for share in (r, g, b)]
        return out[0], out[1], out[2], max(0, min(65535, round(clear * (1 + n(0, 0.01)))))

    def struck(self) -> set[str]:
        """The beds whose detectors are pulled low now."""
        return {bed for start, until, bed in self._strikes if start <= self.t < until}
