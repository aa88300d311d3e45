"""Scripted sensor samples for the board host (companion.ship.board)."""

import math

from companion.ship.board import Sample

RAIN = (200, 300, 480, 900)
HAIL = (800, 820, 790, 2400)
AMBIENT = (40, 40, 40, 120)


def tilted(pitch_deg=0.0, roll_deg=0.0):
    """The accelerometer of a ship at rest, nose up `pitch_deg`, right side down `roll_deg`,
    mounted as hardware/SHIP.md says (X to the bow, Y to port, Z up)."""
    p, r = math.radians(pitch_deg), math.radians(roll_deg)
    return (math.sin(p), math.cos(p) * math.sin(r), math.cos(p) * math.cos(r))


def busy_flight(start=0, ms=4000):
    """A second at rest, a tilt and a shake, two balls, a failing IMU, a low battery."""
    samples = []
    for i in range(ms):
        t = start + i
        accel = tilted(5.0 * min(1.0, max(0.0, (i - 1000) / 500)), -3.0 if i > 1200 else 0.0)
        gyro = (0.0, 0.0, 0.0)
        if 1800 <= i < 2100:  # a shake on the strings
            wobble = 0.1 * math.sin(i / 3.0)
            accel = (accel[0], accel[1], accel[2] + wobble)
            gyro = (12.0 * math.sin(i / 5.0), -8.0, 1.0)
        beam = 500 <= i < 507 or 2500 <= i < 2506
        rgbc = (RAIN if i < 1000 else HAIL) if beam else AMBIENT
        samples.append(
            Sample(
                t,
                accel=accel,
                gyro=gyro,
                beam=beam,
                rgbc=rgbc,
                battery_mv=3400 if i >= 3500 else 3900,
                imu=not 3000 <= i < 3200,
            )
        )
    return samples


def at_rest(start=0, ms=2000, measure=None, step=1):
    """A level ship standing still with the sensor's noise (a fixed pattern, a few milli-g)."""
    samples = []
    for i in range(0, ms, step):
        n = (i * 7919) % 13 - 6
        mark = None
        if measure and i == measure[0]:
            mark = "start"
        elif measure and i == measure[1]:
            mark = "end"
        samples.append(
            Sample(
                start + i,
                accel=(n * 0.0004, -n * 0.0003, 1.0 + n * 0.0005),
                gyro=(n * 0.05, n * 0.03, 0.0),
                measure=mark,
            )
        )
    return samples
