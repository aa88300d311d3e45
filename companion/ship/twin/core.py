"""The model sampled for the board: `TwinCore.samples_to(t)` moves the model to board time `t`
and gives the board host's samples (companion.ship.board.Sample) of what the sensors read
meanwhile, and the bed impacts that happened, each at its board time. Pure and deterministic
(no clock, no threads, no process): the real-time runner feeds the samples to the real firmware.

The board's loop steps once a millisecond on the Pico; it is given a sample where something can
change for it: every `IMU_MS` (the IMU is read there, and TILT and BEAT fall due on those same
ticks) and every millisecond while a ball (or a flicker) is near the beam, so the ball detector
sees the beam and the colour as the Pico would.
"""

from __future__ import annotations

from typing import Any

from ..board import ACCEL_LSB_PER_G as ACCEL_LSB, BEAM, GYRO_LSB_PER_DPS as GYRO_LSB, NO_COLOUR, NO_IMU, RECORD, Sample
from .physics import Ball, Reading, ShipModel

IMU_MS = 5  # the firmware reads its IMU every 5 ms (hardware/ship/ship.py)
LINE_MS = 5  # a BALL line of up to 40 bytes goes out on USB 8 bytes a loop step (hardware/ship/main.py)
BATTERY_MV = 3900
STILL: Reading = (0.0, 0.0, 1.0, 0.0, 0.0, 0.0)  # the IMU's reading in samples made without one


def _counts(value: float) -> int:
    # as Sample.record rounds and clips: int(round(x)) within int16
    value = int(round(value))
    return value if -32768 <= value <= 32767 else (32767 if value > 0 else -32768)


class TwinSample:
    """One sample for the board host, packed as `Sample.record` packs it (the same rounding and
    clipping), without building a Sample: the twin makes 200 a second all evening."""

    __slots__ = ("t_ms", "imu", "rgbc", "flags")

    def __init__(self, t_ms: int, imu: Reading, rgbc: tuple[int, int, int, int], flags: int):
        self.t_ms, self.imu, self.rgbc, self.flags = t_ms, imu, rgbc, flags

    @property
    def beam(self) -> bool:
        return bool(self.flags & BEAM)

    def sample(self) -> Sample:
        ax, ay, az, gx, gy, gz = self.imu
        return Sample(
            self.t_ms,
            accel=(ax, ay, az),
            gyro=(gx, gy, gz),
            beam=self.beam,
            rgbc=self.rgbc,
            battery_mv=BATTERY_MV,
            imu=not self.flags & NO_IMU,
            colour_sensor=not self.flags & NO_COLOUR,
        )

    def record(self) -> bytes:
        ax, ay, az, gx, gy, gz = self.imu
        r, g, b, c = self.rgbc
        return RECORD.pack(
            self.t_ms,
            _counts(ax * ACCEL_LSB),
            _counts(ay * ACCEL_LSB),
            _counts(az * ACCEL_LSB),
            _counts(gx * GYRO_LSB),
            _counts(gy * GYRO_LSB),
            _counts(gz * GYRO_LSB),
            r,
            g,
            b,
            c,
            BATTERY_MV,
            self.flags,
        )


class RestingRun:
    """Samples of the ship at rest, already packed one after another (their noise from a bank
    made once per pose): one object for the board host's feed, whatever their number."""

    __slots__ = ("t_ms", "count", "data")
    beam = False

    def __init__(self, t_ms: int, count: int, data: bytes):
        self.t_ms, self.count, self.data = t_ms, count, data

    def record(self) -> bytes:
        return self.data


REST_BANK = 1000  # packed samples of a resting ship, read in turn (5 s before they repeat)


class TwinCore:
    def __init__(
        self, seed: int | None = 0, *, model: ShipModel | None = None, start_ms: int = 0, **model_options: Any
    ):
        self.model = model or ShipModel(seed, **model_options)
        self.model.t = start_ms
        self.t = start_ms - 1  # the board is given its first sample at start_ms
        self.strikes: list[tuple[int, str, Ball]] = []  # bed impacts not yet taken (board ms, bed, ball)
        self.beam_clears = 0  # beam breaks that ended (a BALL line follows each)
        self._broken = False
        self._line_until = -1  # board ms until which the firmware may be writing a BALL line
        self.failing: dict[str, int] = {}  # "imu" / "colour" -> board ms until it answers again
        # the ship at rest gives the same reading but for its noise: a bank of packed samples
        # for its pose, so a resting evening costs a few operations a sample
        self._bank: list[bytes] = []
        self._bank_pose: Reading | None = None
        self._bank_at = 0
        # False: the samples carry no IMU reading (STILL), for a model whose samples are only
        # counted (virtual.VirtualTwin's own, the board fed by its copy): the IMU's noise is
        # drawn from a table of its own, so nothing else the model does changes
        self.sensing = True

    def samples_to(self, t: int) -> list[TwinSample | RestingRun]:
        """Samples up to board time `t` (the model moved to the last of them): on each IMU tick,
        and each millisecond near the beam."""
        model = self.model
        out: list[TwinSample | RestingRun] = []
        while True:
            if self._resting() and self.t >= model.t:
                run = self._rest_to(t)
                if run is not None:
                    out.append(run)
                break
            if self.t < model.t:  # the first sample
                nxt = model.t
            elif self._beam_near(self.t + 1):
                nxt = self.t + 1
            else:  # a ball that drops now breaks the beam tens of ms later: a tick sees it first
                nxt = (self.t // IMU_MS + 1) * IMU_MS
            if nxt > t:
                break
            model.advance(nxt)
            self.t = nxt
            broken = model.beam()
            accel_gyro = model.imu() if self.sensing else STILL
            flags = (
                (BEAM if broken else 0)
                | (0 if self.failing.get("imu", -1) < nxt else NO_IMU)
                | (0 if self.failing.get("colour", -1) < nxt else NO_COLOUR)
            )
            out.append(TwinSample(nxt, accel_gyro, model.colour(), flags))
            if self._broken and not broken:
                self.beam_clears += 1
                self._line_until = nxt + LINE_MS
            self._broken = broken
        self._expire()
        for when, what, detail in model.events:
            if what == "strike":
                assert isinstance(detail, tuple)  # a strike's detail is (bed, ball)
                bed, ball = detail
                self.strikes.append((when, bed, ball))
        model.events.clear()
        return out

    def _resting(self) -> bool:
        model = self.model
        return model.quiet() and not model.flicker_rate and not self.failing and not self._broken

    def _rest_to(self, t: int) -> RestingRun | None:
        """The resting ship's samples on every IMU tick up to `t`, packed in one go."""
        pose = self.model._still_imu
        if not self.sensing:
            self.model.colour()  # as a bank's first reading would: the wall's colour, drawn once
        elif pose is None or pose != self._bank_pose:
            self._bank = [
                TwinSample(0, self.model.imu(), self.model.colour(), 0).record()[8:] for _ in range(REST_BANK)
            ]
            self._bank_pose = self.model._still_imu
            self._bank_at = 0
        first = (self.t // IMU_MS + 1) * IMU_MS
        ticks = range(first, t + 1, IMU_MS)
        if not ticks:
            return None
        if not self.sensing:  # counted only: no bytes
            self.model.advance(ticks[-1])
            self.t = ticks[-1]
            return RestingRun(first, len(ticks), b"")
        bank, at = self._bank, self._bank_at
        parts = []
        for tick in ticks:
            parts.append(tick.to_bytes(8, "little", signed=True))
            parts.append(bank[at])
            at = at + 1 if at + 1 < REST_BANK else 0
        self._bank_at = at
        self.model.advance(ticks[-1])
        self.t = ticks[-1]
        return RestingRun(first, len(ticks), b"".join(parts))

    def fail(self, part: str, ms: int) -> None:
        """The IMU or the colour sensor stops answering for `ms` (a loose wire)."""
        self.failing[part] = self.t + ms

    def _expire(self) -> None:
        self.failing = {part: until for part, until in self.failing.items() if until >= self.t}

    def _beam_near(self, t: int) -> bool:
        model = self.model
        if model.flicker_rate:
            return True
        # and after a break while the firmware writes its BALL line, 8 bytes a millisecond
        return t <= self._line_until or any(start - 2 <= t <= clear + 2 for start, clear, _b in model._beam)

    def beam_due(self) -> int | None:
        """When the beam next clears after a ball (its BALL line is written then), if one is on
        its way: the runner wakes for it."""
        clears = [clear for _s, clear, _b in self.model._beam]
        return min(clears) + 1 if clears else None
