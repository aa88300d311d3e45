"""What the board learns at the table, kept in `calibration.json` on the board's flash
(MicroPython and CPython): the colour of each kind of ball as the sensor sees it at the hole,
and the ship standing level: its tilt, the accelerometer's own reading of 1 g (an MPU-6050
reads gravity up to a few per cent off; MOTION measures from what it reads at rest), and what
the gyro reads standing still, in degrees a second about X, Y, Z (its zero-rate offset, a few
degrees a second: the tilt filter takes it off)."""

import json

FILE = "calibration.json"
# a sensible start before teaching: a white hailstone is bright and grey, a raindrop blue
DEFAULTS = {
    "rain": [0.22, 0.32, 0.46, 900],
    "hail": [0.33, 0.34, 0.33, 2400],
    "zero_pitch": 0.0,
    "zero_roll": 0.0,
    "one_g": 1.0,
    "gyro_zero": [0.0, 0.0, 0.0],
}
# a reading is a ball's only when at least this bright, as a share of the dimmer taught ball:
# the wall across an empty hole (a string, a finger, a glint that broke the beam) is far darker
BALL_LIGHT = 0.4


def load(path=FILE):
    data = dict(DEFAULTS)
    try:
        with open(path) as f:
            stored = json.load(f)
        for key in DEFAULTS:
            if key in stored:
                data[key] = stored[key]
    except (OSError, ValueError):
        pass  # never taught, or a broken file: the defaults
    if not _rates(data["gyro_zero"]):  # a file from before the gyro was levelled, or a broken one
        data["gyro_zero"] = list(DEFAULTS["gyro_zero"])
    return data


def _rates(value):
    if not isinstance(value, list) or len(value) != 3:
        return False
    for v in value:
        if not isinstance(v, (int, float)) or isinstance(v, bool):
            return False
    return True


def gyro_zero_counts(data, lsb_per_dps):
    """The gyro's offset standing still as raw counts (X, Y, Z) at `lsb_per_dps`."""
    return [int(round(v * lsb_per_dps)) for v in data["gyro_zero"]]


def save(data, path=FILE):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(data, f)
    try:
        import os

        os.rename(tmp, path)
    except OSError:
        pass


def chroma(reading):
    """(r, g, b, clear) as shares of r+g+b and the clear brightness: light-level independent."""
    r, g, b, c = reading
    total = (r + g + b) or 1
    return [r / total, g / total, b / total, c]


def classify(data, reading):
    """The taught kind nearest to a reading (colour first, brightness a little), or None when
    it is no ball's colour: darker than BALL_LIGHT of the dimmer taught ball."""
    seen = chroma(reading)
    if seen[3] < BALL_LIGHT * min(data["rain"][3], data["hail"][3]):
        return None
    best, best_d = None, None
    for kind in ("rain", "hail"):
        ref = data[kind]
        d = 0.0
        for i in range(3):
            d += (seen[i] - ref[i]) ** 2
        bright = (seen[3] - ref[3]) / (max(ref[3], 1) * 10)
        d += bright * bright
        if best_d is None or d < best_d:
            best, best_d = kind, d
    return best


def teach_colour(data, kind, readings):
    """The average of readings of one kind held at the hole."""
    shares = [chroma(r) for r in readings]
    n = len(shares)
    data[kind] = [sum(s[i] for s in shares) / n for i in range(4)]
    return data
