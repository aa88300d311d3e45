#!/usr/bin/env python3
"""Synthesize the app's sound effects as 16-bit mono WAV files.

Standard library only: every sample is computed here and nothing is downloaded. The output is
deterministic (noise comes from seeded generators), so running the script again must give the
very same bytes; the tests check that against the shipped files.

    python sounds/synthesize.py             # writes sounds/*.wav and companion/sounds_data/*.wav
    python sounds/synthesize.py --out DIR   # writes into DIR instead (may be given twice)
    python sounds/synthesize.py --check     # exit 1 if a shipped file differs from a fresh one
"""

from __future__ import annotations

import argparse
import io
import math
import random
import sys
import wave
from array import array
from collections.abc import Callable
from pathlib import Path

RATE = 22050  # Hz; plenty for short effects on a small speaker, and half the size of 44.1 kHz
# Levels: a sustained buzz at the same peak as a tick sounds far louder, so each effect is scaled
# to a common loudness (RMS of its loudest 50 ms) unless that would push its peak past PEAK.
PEAK = 0.7
LOUDNESS = 0.22
LOUDNESS_WINDOW = 0.05  # seconds
EDGE = 0.004  # seconds of fade at both ends: no click when a sound starts or stops

HERE = Path(__file__).resolve().parent
DEFAULT_OUTPUTS = (HERE, HERE.parent / "companion" / "sounds_data")

Samples = list[float]
Partials = tuple[tuple[float, float], ...]  # (multiple of the fundamental, amplitude)

PURE: Partials = ((1, 1.0),)
SOFT: Partials = ((1, 1.0), (2, 0.25), (3, 0.08))
BRASS: Partials = ((1, 1.0), (2, 0.55), (3, 0.35), (4, 0.2), (5, 0.1), (6, 0.05))
REED: Partials = ((1, 1.0), (2, 0.3), (3, 0.12))


# --- building blocks -------------------------------------------------------------------------


def frames(seconds: float) -> int:
    return int(round(seconds * RATE))


def midi(note: int) -> float:
    """Frequency of a MIDI note number (69 = A4 = 440 Hz)."""
    return 440.0 * 2.0 ** ((note - 69) / 12)


def pluck(attack: float, decay: float) -> Callable[[float], float]:
    """A quick rise, then an exponential fade with time constant `decay`."""
    return lambda t: t / attack if t < attack else math.exp(-(t - attack) / decay)


def held(attack: float, release: float, seconds: float) -> Callable[[float], float]:
    """Rise, hold at full level, fall away over the last `release` seconds."""

    def level(t: float) -> float:
        return min(1.0, t / attack, max(0.0, (seconds - t) / release))

    return level


def tone(
    seconds: float,
    pitch: float | Callable[[float], float],
    envelope: Callable[[float], float],
    partials: Partials = PURE,
    vibrato: tuple[float, float] = (0.0, 0.0),
) -> Samples:
    """A tone built from sine partials. `pitch` is a frequency or a function of time; the phase
    is accumulated sample by sample, so gliding pitches stay smooth. `vibrato` is (rate in Hz,
    depth as a fraction of the pitch)."""
    rate, depth = vibrato
    phase = 0.0
    out: Samples = []
    n = frames(seconds)
    for i in range(n):
        t = i / RATE
        f = pitch(t) if callable(pitch) else pitch
        f *= 1.0 + depth * math.sin(2 * math.pi * rate * t)
        phase += 2 * math.pi * f / RATE
        # partials above the Nyquist frequency would fold back as harsh noise
        value = sum(a * math.sin(k * phase) for k, a in partials if k * f < RATE / 2)
        # a note cut off mid-ring would click, so every note ends with a tiny fade
        out.append(value * envelope(t) * min(1.0, (n - 1 - i) / frames(EDGE)))
    return out


def glide(start: float, end: float, seconds: float) -> Callable[[float], float]:
    """An exponential pitch slide (even steps in musical terms)."""
    return lambda t: start * (end / start) ** min(1.0, t / seconds)


def noise(seconds: float, seed: int) -> Samples:
    rng = random.Random(seed)
    return [rng.uniform(-1.0, 1.0) for _ in range(frames(seconds))]


def lowpass(samples: Samples, cutoff: float) -> Samples:
    """One-pole low-pass filter."""
    a = 1.0 - math.exp(-2 * math.pi * cutoff / RATE)
    y = 0.0
    out: Samples = []
    for x in samples:
        y += a * (x - y)
        out.append(y)
    return out


def highpass(samples: Samples, cutoff: float) -> Samples:
    return [x - y for x, y in zip(samples, lowpass(samples, cutoff))]


def shaped(samples: Samples, envelope: Callable[[float], float]) -> Samples:
    return [x * envelope(i / RATE) for i, x in enumerate(samples)]


def mix(seconds: float, *parts: tuple[float, Samples]) -> Samples:
    """Lay (start time, samples) parts over each other in a buffer `seconds` long."""
    out = [0.0] * frames(seconds)
    for start, samples in parts:
        offset = frames(start)
        for i, x in enumerate(samples[: len(out) - offset]):
            out[offset + i] += x
    return out


def melody(notes: list[tuple[int, float]], make: Callable[[float, float], Samples]) -> Samples:
    """Play (MIDI note, length) pairs one after another; `make(freq, length)` gives one note."""
    parts = []
    start = 0.0
    for note, length in notes:
        parts.append((start, make(midi(note), length)))
        start += length
    # a note may ring on past its length; leave room for that
    return mix(max(t + len(x) / RATE for t, x in parts), *parts)


def clicks(seconds: float, seed: int, times: list[float], make: Callable[[random.Random], Samples]) -> Samples:
    """Short percussive events at the given times, each one a little different."""
    rng = random.Random(seed)
    return mix(seconds, *((t, make(rng)) for t in times))


# --- the effects -----------------------------------------------------------------------------


def roll() -> Samples:
    """Dice rattling in a cup and settling: wooden knocks, closer together, then apart."""
    times, t, gap = [], 0.01, 0.025
    while t < 0.55:
        times.append(t)
        t += gap
        gap *= 1.18  # the dice slow down and settle

    def knock(rng: random.Random) -> Samples:
        body = tone(0.03, rng.uniform(1300, 2400), pluck(0.0005, 0.006), SOFT)
        grit = shaped(highpass(noise(0.01, rng.randrange(1 << 30)), 1500), pluck(0.0003, 0.002))
        level = rng.uniform(0.6, 1.0)
        return [level * (b + 0.5 * g) for b, g in zip(body, grit + [0.0] * len(body))]

    return clicks(0.62, seed=1, times=times, make=knock)


def jump() -> Samples:
    """An upward boing: a springy pitch that shoots up and wobbles."""

    def spring(t: float) -> float:
        wobble = 1.0 + 0.06 * math.exp(-t / 0.12) * math.sin(2 * math.pi * 16 * t)
        return glide(170, 520, 0.22)(t) * wobble

    return tone(0.4, spring, pluck(0.005, 0.14), SOFT)


def rise() -> Samples:
    """A rising arpeggio, C E G C, each note ringing into the next."""
    notes = (72, 76, 79, 84)
    return mix(0.56, *((0.085 * i, tone(0.3, midi(n), pluck(0.004, 0.1), SOFT)) for i, n in enumerate(notes)))


def fall() -> Samples:
    """A descending slide whistle."""
    return tone(0.62, glide(1000, 240, 0.55), held(0.02, 0.16, 0.62), ((1, 1.0), (2, 0.12)), vibrato=(6.0, 0.015))


def top_cloud() -> Samples:
    """A fanfare for reaching the top cloud: three quick notes up, then a bright held chord."""

    def horn(freq: float, seconds: float) -> Samples:
        return tone(seconds, freq, held(0.015, 0.05, seconds), BRASS)

    lead = melody([(67, 0.1), (72, 0.1), (76, 0.1)], horn)
    chord = [(0.3, tone(0.82, midi(n), held(0.02, 0.35, 0.82), BRASS, vibrato=(5.5, 0.004))) for n in (72, 76, 79, 84)]
    return mix(1.12, (0.0, lead), *chord)


def raindrop() -> Samples:
    """A plink: a bright note whose pitch jumps up as it dies away, like a drop in a puddle."""
    return tone(0.25, lambda t: 950 * (1 + 0.9 * (1 - math.exp(-t / 0.018))), pluck(0.002, 0.05))


def hail() -> Samples:
    """Hailstones: sharp, bright, irregular ticks."""
    rng = random.Random(7)
    times, t = [], 0.01
    while t < 0.5:
        times.append(t)
        t += rng.uniform(0.03, 0.085)

    def tick(rng: random.Random) -> Samples:
        crack = shaped(highpass(noise(0.006, rng.randrange(1 << 30)), 3500), pluck(0.0002, 0.001))
        ping = tone(0.02, rng.uniform(3800, 5200), pluck(0.0002, 0.003))
        level = rng.uniform(0.5, 1.0)
        return [level * (c + 0.4 * p) for c, p in zip(crack + [0.0] * len(ping), ping)]

    return clicks(0.56, seed=8, times=times, make=tick)


def storm() -> Samples:
    """A low rumble of thunder: filtered noise that swells, rolls and fades."""
    seconds = 1.2
    deep = lowpass(lowpass(noise(seconds, 11), 180), 180)
    growl = lowpass(lowpass(highpass(noise(seconds, 12), 250), 500), 500)

    def rolling(t: float) -> float:
        swell = held(0.25, 0.6, seconds)(t)
        # two slow, unrelated waves multiplied: a roll that never quite repeats
        roll_a, roll_b = math.sin(2 * math.pi * 3.1 * t), math.sin(2 * math.pi * 1.3 * t)
        return swell * (0.75 + 0.25 * roll_a * roll_b)

    # the growl is what a small speaker can still play when the deep part is lost on it
    return shaped([d + 0.3 * g for d, g in zip(deep, growl)], rolling)


def flower() -> Samples:
    """A soft chime: two gentle bell notes, a fifth apart."""

    def bell(note: int) -> Samples:
        return tone(0.75, midi(note), pluck(0.008, 0.22), ((1, 1.0), (2.01, 0.2), (3.0, 0.05)))

    return mix(0.9, (0.0, bell(81)), (0.14, bell(88)))


def won() -> Samples:
    """A happy little tune ending on a high held note over its chord."""

    def note(freq: float, seconds: float) -> Samples:
        return tone(seconds + 0.05, freq, pluck(0.006, 0.12 if seconds < 0.2 else 0.2), REED)

    tune = melody([(72, 0.09), (76, 0.09), (79, 0.09), (84, 0.16), (79, 0.09), (84, 0.6)], note)
    harmony = tone(0.6, midi(76), pluck(0.01, 0.2), REED)
    return mix(1.2, (0.0, tune), (0.52, [0.5 * x for x in harmony]))


def lost() -> Samples:
    """A sad, sliding-down 'wah wah wah waaah'."""

    def wah(freq: float, seconds: float) -> Samples:
        last = seconds > 0.3
        return tone(
            seconds,
            freq,
            held(0.04, 0.08 if not last else 0.3, seconds),
            REED,
            vibrato=(5.0, 0.012) if last else (0.0, 0.0),
        )

    return melody([(67, 0.21), (66, 0.21), (65, 0.21), (64, 0.52)], wah)


def right() -> Samples:
    """Two rising tones: ding-ding."""

    def ding(note: int) -> Samples:
        return tone(0.28, midi(note), pluck(0.003, 0.08), SOFT)

    return mix(0.4, (0.0, ding(76)), (0.12, ding(83)))


def wrong() -> Samples:
    """A low, soft-edged buzz in two steps down: bzz-bzzz."""
    buzz: Partials = tuple((k, 1.0 / k) for k in range(1, 16, 2))

    def part(note: int, seconds: float) -> Samples:
        return lowpass(tone(seconds, midi(note), held(0.01, 0.04, seconds), buzz), 1200)

    return mix(0.45, (0.0, part(50, 0.16)), (0.2, part(45, 0.25)))


# each seat's turn chime: two or three short bell notes of its own, so whose turn it is can be
# heard across the table (a different tune and register per seat, none like the game's effects)
SEAT_TUNES: tuple[tuple[int, ...], ...] = (
    (72, 79),
    (74, 69),
    (76, 79, 84),
    (67, 72, 67),
    (79, 76),
    (81, 84, 88),
    (69, 74, 78),
    (84, 79, 72),
)


def seat_chime(seat: int) -> Callable[[], Samples]:
    def chime() -> Samples:
        notes = SEAT_TUNES[seat - 1]

        def bell(note: int) -> Samples:
            return tone(0.3, midi(note), pluck(0.004, 0.09), ((1, 1.0), (2.76, 0.12), (5.4, 0.03)))

        return mix(0.12 * len(notes) + 0.22, *[(0.12 * i, bell(n)) for i, n in enumerate(notes)])

    chime.__doc__ = f"Seat {seat}'s turn: {len(SEAT_TUNES[seat - 1])} bell notes."
    return chime


EFFECTS: dict[str, Callable[[], Samples]] = {
    "roll": roll,
    "jump": jump,
    "rise": rise,
    "fall": fall,
    "top_cloud": top_cloud,
    "raindrop": raindrop,
    "hail": hail,
    "storm": storm,
    "flower": flower,
    "won": won,
    "lost": lost,
    "right": right,
    "wrong": wrong,
    **{f"seat{seat}": seat_chime(seat) for seat in range(1, 9)},
}


# --- output ----------------------------------------------------------------------------------


def loudness(samples: Samples) -> float:
    """RMS of the loudest window: a rough measure of how loud an effect sounds."""
    width = frames(LOUDNESS_WINDOW)
    return max(
        math.sqrt(sum(x * x for x in samples[start : start + width]) / width)
        for start in range(0, max(1, len(samples) - width + 1), width // 2)
    )


def finish(samples: Samples) -> array:
    """Fade the edges, scale to the common loudness and quantize to 16-bit little-endian."""
    edge = frames(EDGE)
    n = len(samples)
    faded = [x * min(1.0, i / edge, (n - 1 - i) / edge) for i, x in enumerate(samples)]
    scale = min(PEAK / max(abs(x) for x in faded), LOUDNESS / loudness(faded))
    pcm = array("h", (max(-32767, min(32767, round(x * scale * 32767))) for x in faded))
    if sys.byteorder == "big":  # WAV data is little-endian
        pcm.byteswap()
    return pcm


def render(name: str) -> bytes:
    """The complete WAV file for one effect."""
    buffer = io.BytesIO()
    with wave.open(buffer, "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(finish(EFFECTS[name]()).tobytes())
    return buffer.getvalue()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--out",
        type=Path,
        action="append",
        help="directory to write into (default: sounds/ and companion/sounds_data/)",
    )
    parser.add_argument(
        "--check", action="store_true", help="write nothing; exit 1 if a file differs from what would be written"
    )
    args = parser.parse_args(argv)
    outputs = args.out or list(DEFAULT_OUTPUTS)

    stale = []
    for name in EFFECTS:
        data = render(name)
        for directory in outputs:
            path = directory / f"{name}.wav"
            if args.check:
                if not path.is_file() or path.read_bytes() != data:
                    stale.append(path)
            else:
                directory.mkdir(parents=True, exist_ok=True)
                path.write_bytes(data)
    for path in stale:
        print(f"out of date: {path}", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    raise SystemExit(main())
