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

from ..board import Sample
from .physics import ShipModel

IMU_MS = 5  # the firmware reads its IMU every 5 ms (hardware/ship/ship.py)
BATTERY_MV = 3900


class TwinCore:
    def __init__(self, seed: int | None = 0, *, model: ShipModel | None = None, start_ms: int = 0,
                 **model_options):
        self.model = model or ShipModel(seed, **model_options)
        self.model.t = start_ms
        self.t = start_ms - 1  # the board is given its first sample at start_ms
        self.strikes: list[tuple[int, str]] = []  # bed impacts not yet taken (board ms, bed)
        self.beam_clears = 0  # beam breaks that ended (a BALL line follows each)
        self._broken = False

    def samples_to(self, t: int) -> list[Sample]:
        """Samples up to board time `t` (the model moved there)."""
        model = self.model
        out = []
        while self.t < t:
            if self.t < model.t:  # the first sample
                nxt = model.t
            elif self._beam_near(self.t + 1):
                nxt = self.t + 1
            else:  # a ball that drops now breaks the beam tens of ms later: a tick sees it first
                nxt = min(t, (self.t // IMU_MS + 1) * IMU_MS)
            model.advance(nxt)
            self.t = nxt
            broken = model.beam()
            accel_gyro = model.imu()
            out.append(Sample(nxt, accel=accel_gyro[:3], gyro=accel_gyro[3:], beam=broken,
                              rgbc=model.colour(), battery_mv=BATTERY_MV))
            if self._broken and not broken:
                self.beam_clears += 1
            self._broken = broken
        for when, what, detail in model.events:
            if what == "strike":
                self.strikes.append((when, detail))
        model.events.clear()
        return out

    def _beam_near(self, t: int) -> bool:
        model = self.model
        if model.flicker_rate:
            return True
        return any(start - 2 <= t <= clear + 2 for start, clear, _b in model._beam)

    def beam_due(self) -> int | None:
        """When the beam next clears after a ball (its BALL line is written then), if one is on
        its way: the runner wakes for it."""
        clears = [clear for _s, clear, _b in self.model._beam]
        return min(clears) + 1 if clears else None
