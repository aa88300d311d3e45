"""Sound effects: short WAVs (companion/sounds_data/, made by sounds/synthesize.py) played
through pygame.mixer.

Sounds are a view, like the screen: they follow what already happened and can never stop a
game. Where no audio device exists the app stays silent: Sounds says why once (the
`unavailable_reason` property and one log warning) and every later call quietly does nothing.
Only a call that makes no sense (an unknown name, a volume out of range) raises, because that is
a mistake in the code, not in the machine.

alsa-lib writes its own complaints straight to file descriptor 2 while SDL opens the device (eight
`ALSA lib ...` lines on a machine without a sound card): the mixer is opened with descriptor 2
caught, those lines are dropped (the one warning says why the app is silent), and anything else
that arrived meanwhile is passed on to stderr as it was.

The device rests. SDL's audio thread runs while the device is open, paused or not: it wakes
for every buffer (43 times a second at 512 samples and 22050 Hz) and writes silence, about
0.15% of a core all evening. So the device is closed after `QUIET_S` with nothing playing and
nobody at the table, on a thread of its own (closing waits for SDL's audio thread: 50-100 ms
here, a stall the loop must not take). It opens again, with the sounds loaded before, on the
first input after the rest (the loop's `tend` after that frame, so the tap's own frame does not
wait and its sound finds the device open), when a sentence is coming (`wanted`), or at the
latest by the sound itself, which always plays. This object is the mixer's only owner: the
voice plays its sentences through `speak`.
"""

from __future__ import annotations

import contextlib
import io
import logging
import os
import sys
import tempfile
import threading
import time
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import TypedDict

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402  (after the environment setting above)

SOUND_NAMES: tuple[str, ...] = (
    "roll",  # a die is rolled
    "jump",  # a player jumps out of the basket
    "rise",  # the balloon rises a cloud
    "fall",  # the balloon falls
    "top_cloud",  # the balloon reaches the top cloud
    "raindrop",
    "hail",
    "storm",
    "flower",  # a flower is planted
    "won",
    "lost",
    "right",  # a right guess
    "wrong",  # a wrong guess
    # whose turn it is: each seat's own chime
    "seat1",
    "seat2",
    "seat3",
    "seat4",
    "seat5",
    "seat6",
    "seat7",
    "seat8",
)


class MixerSettings(TypedDict):
    """pygame.mixer.init's keyword arguments."""

    frequency: int
    size: int
    channels: int
    buffer: int


# The files are 22050 Hz 16-bit mono, so a mixer opened like this loads them without
# resampling; the small buffer keeps a sound within a frame or two of the tap that caused it.
MIXER_SETTINGS: MixerSettings = {"frequency": 22050, "size": -16, "channels": 1, "buffer": 512}

# The device rests after this long with nothing playing and no input. During a game something
# plays or someone taps every few seconds, so it stays open (and never clicks open and shut
# between moves); a table that has gone quiet this long is thinking, talking or away, and the
# first tap after it opens the device again ahead of its sound.
QUIET_S = 25.0

VOICE_CHANNEL = 0  # reserved for speech: find_channel() gives the effects every other channel

log = logging.getLogger(__name__)

ALSA_PREFIX = b"ALSA lib "


@contextlib.contextmanager
def alsa_lines_dropped():
    """Run the block with file descriptor 2 going to a temporary file; afterwards every line
    in it but alsa-lib's own goes to the real stderr (a C library's prints included)."""
    try:
        sys.stderr.flush()
        saved = os.dup(2)
    except (OSError, ValueError):  # no descriptor 2 at all: nothing to keep clean
        yield
        return
    with tempfile.TemporaryFile() as caught:
        os.dup2(caught.fileno(), 2)
        try:
            yield
        finally:
            with contextlib.suppress(OSError, ValueError):
                sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)
            caught.seek(0)
            kept = [line for line in caught.read().splitlines(keepends=True) if not line.startswith(ALSA_PREFIX)]
            if kept:
                with contextlib.suppress(OSError):
                    os.write(2, b"".join(kept))


def _checked_volume(volume: float) -> float:
    if isinstance(volume, bool) or not isinstance(volume, (int, float)):
        raise TypeError(f"volume must be a number from 0.0 to 1.0, not {volume!r}")
    if not 0.0 <= volume <= 1.0:
        raise ValueError(f"volume must be from 0.0 to 1.0, not {volume!r}")
    return float(volume)


def _checked_muted(muted: bool) -> bool:
    if not isinstance(muted, bool):
        raise TypeError(f"muted must be True or False, not {muted!r}")
    return muted


class Sounds:
    """Plays the named effects. Loads every file once, here, at start."""

    def __init__(
        self,
        volume: float = 0.8,
        muted: bool = False,
        *,
        directory: Path | Traversable | None = None,
        clock=time.monotonic,
        quiet_s: float = QUIET_S,
    ) -> None:
        self._volume = _checked_volume(volume)
        self._muted = _checked_muted(muted)
        self._sounds: dict[str, pygame.mixer.Sound] = {}
        self._opened_mixer = False
        self._unavailable_reason: str | None = None
        self._clock = clock
        self._quiet_s = quiet_s
        self._last_heard = clock()  # the last moment something played, was asked for, or input came
        self._resting = False  # our mixer is closed (or closing) until a sound or input needs it
        self._rested_at = 0.0
        self._closing: threading.Thread | None = None
        self._wanted = False
        self._voice: pygame.mixer.Channel | None = None
        # the mixer's (frequency, size, channels) the sounds were loaded for
        self._format: tuple[int, int, int] | None = None
        self._folder = directory if directory is not None else resources.files("companion.sounds_data")
        try:
            if not pygame.mixer.get_init():  # someone may have opened it already; share it
                with alsa_lines_dropped():
                    pygame.mixer.init(**MIXER_SETTINGS)
                self._opened_mixer = True
        except (pygame.error, NotImplementedError) as error:
            self._go_silent(f"no audio: {error}")
            return
        self._load_all()

    def _load_all(self) -> None:
        try:
            self._sounds = {name: self._load(self._folder, name) for name in SOUND_NAMES}
        except (pygame.error, OSError) as error:
            self._go_silent(f"cannot load the sound effects: {error}")
            return
        self._format = pygame.mixer.get_init()
        self.set_volume(self._volume)

    @staticmethod
    def _load(folder: Path | Traversable, name: str) -> pygame.mixer.Sound:
        # through a file object, so the data is found inside a zipped install too
        with folder.joinpath(f"{name}.wav").open("rb") as file:
            try:
                return pygame.mixer.Sound(file=file)
            except pygame.error as error:
                raise pygame.error(f"{name}.wav: {error}") from error

    def _go_silent(self, reason: str) -> None:
        """From now on play nothing, and say why exactly once."""
        if self._unavailable_reason is not None:
            return
        self._unavailable_reason = reason
        self._sounds = {}
        log.warning("sounds are off: %s", reason)
        self.close()

    @property
    def unavailable_reason(self) -> str | None:
        """Why the app is silent, or None while sounds can play."""
        return self._unavailable_reason

    @property
    def available(self) -> bool:
        return self._unavailable_reason is None

    @property
    def volume(self) -> float:
        return self._volume

    @property
    def muted(self) -> bool:
        return self._muted

    def play(self, name: str) -> pygame.mixer.Channel | None:
        """Start the effect `name`; returns the channel it plays on, or None when silent."""
        if name not in SOUND_NAMES:
            raise ValueError(f"unknown sound {name!r}; the sounds are: {', '.join(SOUND_NAMES)}")
        if self._muted or not self._awake():
            return None
        try:
            # with every channel busy, take over the one that has played longest:
            # the newest event's sound is the one that matters
            channel = pygame.mixer.find_channel(True)
            channel.play(self._sounds[name])
        except pygame.error as error:  # e.g. the mixer was shut down under us at exit
            self._go_silent(f"the mixer stopped: {error}")
            return None
        self._last_heard = self._clock()
        return channel

    def speak(self, wav: bytes) -> pygame.mixer.Channel | None:
        """Play a spoken sentence (a WAV file's bytes) on the voice's own channel, cutting off
        the one before it; None when silent. Decoding here is a copy: the speech is made at the
        mixer's rate."""
        if self._muted or not self._awake():
            return None
        try:
            sound = pygame.mixer.Sound(file=io.BytesIO(wav))
            sound.set_volume(self._volume)
            if self._voice is None:
                pygame.mixer.set_reserved(VOICE_CHANNEL + 1)
                self._voice = pygame.mixer.Channel(VOICE_CHANNEL)
            self._voice.play(sound)
        except pygame.error as error:  # a damaged WAV, or the mixer shut down at exit
            log.warning("cannot speak: %s", error)
            return None
        self._last_heard = self._clock()
        return self._voice

    def stop_speaking(self) -> None:
        if self._voice is not None and not self._resting:
            self._voice.stop()

    # --- resting ----------------------------------------------------------------------------
    @property
    def resting(self) -> bool:
        """The audio device is closed for now (it opens again for the next sound)."""
        return self._resting

    def wanted(self) -> None:
        """A sound is coming soon (a sentence being made): open the device after this frame,
        and count the quiet spell from now."""
        self._wanted = True
        self._last_heard = self._clock()

    def tend(self, last_input: float = float("-inf")) -> None:
        """The loop calls this after each frame, with the time of the last input: the device
        rests once nothing has played and nobody has touched the table for the quiet spell,
        and opens again on the first input or `wanted` after a rest."""
        if not self._opened_mixer or not self._sounds:
            return  # silent, or somebody else's mixer: not ours to close
        if self._resting:
            if not self._muted and (self._wanted or last_input >= self._rested_at):
                self._awake()
            return
        self._wanted = False
        now = self._clock()
        try:
            if pygame.mixer.get_busy():  # effects and speech alike keep it open while they play
                self._last_heard = now
                return
        except pygame.error:
            return
        if now - max(self._last_heard, last_input) >= self._quiet_s:
            self._rest(now)

    def _rest(self, now: float) -> None:
        self._resting, self._rested_at, self._voice = True, now, None
        # pygame lets go of the GIL while SDL closes the device, so the loop runs on meanwhile;
        # nothing here touches the mixer again before this thread is joined (_awake, close)
        self._closing = threading.Thread(target=pygame.mixer.quit, name="audio-rest", daemon=True)
        self._closing.start()

    def _finish_closing(self) -> None:
        if self._closing is not None:
            self._closing.join()
            self._closing = None

    def _awake(self) -> bool:
        """The device is open and the sounds are loaded; False when the app is silent."""
        if not self._sounds:
            return False
        if not self._resting:
            return True
        self._finish_closing()
        self._resting, self._wanted = False, False
        try:
            with alsa_lines_dropped():
                pygame.mixer.init(**MIXER_SETTINGS)
        except (pygame.error, NotImplementedError) as error:  # the device went away meanwhile
            self._go_silent(f"no audio: {error}")
            return False
        self._last_heard = self._clock()
        if pygame.mixer.get_init() != self._format:  # it came back otherwise: load for it
            self._load_all()
            return bool(self._sounds)
        self.set_volume(self._volume)
        return True

    def chime(self, seat: int) -> pygame.mixer.Channel | None:
        """Seat `seat`'s turn chime (seat1 ... seat8); silent when muted, as every effect."""
        return self.play(f"seat{seat}")

    def set_volume(self, volume: float) -> None:
        """0.0 (silent) to 1.0 (full); takes effect at once, also on sounds still playing."""
        self._volume = _checked_volume(volume)
        if self._resting:
            return  # applied as the device opens again
        for sound in self._sounds.values():
            sound.set_volume(self._volume)

    def set_muted(self, muted: bool) -> None:
        """Muting also cuts off whatever is playing, so the room is quiet at once."""
        self._muted = _checked_muted(muted)
        if muted and not self._resting:
            for sound in self._sounds.values():
                sound.stop()
            self.stop_speaking()

    def close(self) -> None:
        """Stop playing; close the mixer if this object opened it."""
        self._finish_closing()
        if not self._resting:
            for sound in self._sounds.values():
                sound.stop()
        self._sounds, self._voice = {}, None
        if self._opened_mixer:
            pygame.mixer.quit()
            self._opened_mixer = False
        if self._unavailable_reason is None:
            self._unavailable_reason = "closed"
