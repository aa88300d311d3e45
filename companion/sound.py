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
"""

from __future__ import annotations

import contextlib
import logging
import os
import sys
import tempfile
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402  (after the environment setting above)

SOUND_NAMES: tuple[str, ...] = (
    "roll",       # a die is rolled
    "jump",       # a player jumps out of the basket
    "rise",       # the balloon rises a cloud
    "fall",       # the balloon falls
    "top_cloud",  # the balloon reaches the top cloud
    "raindrop",
    "hail",
    "storm",
    "flower",     # a flower is planted
    "won",
    "lost",
    "right",      # a right guess
    "wrong",      # a wrong guess
    # whose turn it is: each seat's own chime
    "seat1", "seat2", "seat3", "seat4", "seat5", "seat6", "seat7", "seat8",
)

# The files are 22050 Hz 16-bit mono, so a mixer opened like this loads them without
# resampling; the small buffer keeps a sound within a frame or two of the tap that caused it.
MIXER_SETTINGS = {"frequency": 22050, "size": -16, "channels": 1, "buffer": 512}

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
    ) -> None:
        self._volume = _checked_volume(volume)
        self._muted = _checked_muted(muted)
        self._sounds: dict[str, pygame.mixer.Sound] = {}
        self._opened_mixer = False
        self._unavailable_reason: str | None = None
        folder = directory if directory is not None else resources.files("companion.sounds_data")
        try:
            if not pygame.mixer.get_init():  # someone may have opened it already; share it
                with alsa_lines_dropped():
                    pygame.mixer.init(**MIXER_SETTINGS)
                self._opened_mixer = True
        except (pygame.error, NotImplementedError) as error:
            self._go_silent(f"no audio: {error}")
            return
        try:
            self._sounds = {name: self._load(folder, name) for name in SOUND_NAMES}
        except (pygame.error, OSError) as error:
            self._go_silent(f"cannot load the sound effects: {error}")
            return
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
        if self._muted or not self._sounds:
            return None
        try:
            # with every channel busy, take over the one that has played longest:
            # the newest event's sound is the one that matters
            channel = pygame.mixer.find_channel(True)
            channel.play(self._sounds[name])
        except pygame.error as error:  # e.g. the mixer was shut down under us at exit
            self._go_silent(f"the mixer stopped: {error}")
            return None
        return channel

    def chime(self, seat: int) -> pygame.mixer.Channel | None:
        """Seat `seat`'s turn chime (seat1 ... seat8); silent when muted, as every effect."""
        return self.play(f"seat{seat}")

    def set_volume(self, volume: float) -> None:
        """0.0 (silent) to 1.0 (full); takes effect at once, also on sounds still playing."""
        self._volume = _checked_volume(volume)
        for sound in self._sounds.values():
            sound.set_volume(self._volume)

    def set_muted(self, muted: bool) -> None:
        """Muting also cuts off whatever is playing, so the room is quiet at once."""
        self._muted = _checked_muted(muted)
        if muted:
            for sound in self._sounds.values():
                sound.stop()

    def close(self) -> None:
        """Stop playing; close the mixer if this object opened it."""
        for sound in self._sounds.values():
            sound.stop()
        self._sounds = {}
        if self._opened_mixer:
            pygame.mixer.quit()
            self._opened_mixer = False
        if self._unavailable_reason is None:
            self._unavailable_reason = "closed"
