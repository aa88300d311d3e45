"""The app's voice: spoken prompts (companion/ui/story/spoken.py) through companion.speech, played on
a mixer channel of their own so an effect never cuts a sentence and a newer sentence does.
The app's Sounds owns the mixer (it rests the audio device in quiet spells): a sentence asked
for wakes it ahead, and the finished one is played through `Sounds.speak`.

Speech follows the settings: `speech = true` switches it on, mute and volume apply to it as to
the effects. Synthesis runs on the speech worker, which checks the WAV; the finished sentence
is played on the main thread (through `App.call_soon`), where everything that touches pygame
runs.
"""

from __future__ import annotations

import io
import wave
from collections.abc import Callable
from typing import Any

from ... import i18n
from ...speech import Speech
from . import moments as story, spoken


def checked_wav(wav: bytes) -> bytes:
    """On the speech worker: a WAV the mixer can play (wave.Error names what is wrong)."""
    with wave.open(io.BytesIO(wav)) as file:
        if file.getnframes() == 0:
            raise wave.Error("no samples")
    return wav


class Voice:
    def __init__(self, app, speech: Speech | None = None):
        self.app = app
        self.speech = speech if speech is not None else Speech(self._deliver, prepare=checked_wav)
        self.said: list[str] = []  # what was asked to be said, newest last (a short memory, for tests)

    @property
    def unavailable_reason(self) -> str | None:
        """Why the app cannot speak (espeak-ng missing, no audio device), or None."""
        if self.speech.unavailable_reason:
            return self.speech.unavailable_reason
        if not self.app.sounds.available:
            return self.app.sounds.unavailable_reason or "no audio device"
        return None

    @property
    def on(self) -> bool:
        config = self.app.config
        return bool(getattr(config, "speech", False)) and not config.muted

    def game_changed(self, before, after, action, moments: list[story.Moment] | None = None) -> None:
        """After each change of the game: say the big moments and the new prompt. `moments` are
        the ones the game screen found for this change (its result card), when it is showing."""
        if not self.on:  # with speech off, not even the sentence is made
            return
        if moments is None:
            moments = story.moments(before.view, after.view, action)
        self.say(spoken.say(moments, after.view))

    def entered(self, match) -> None:
        """A game screen is shown: say what to do now."""
        if match is not None and self.on:
            self.say(spoken.prompt(match.view))

    def say(self, text: str | None) -> None:
        if not text or not self.on:
            return
        self.said = (self.said + [text])[-20:]
        self.app.sounds.wanted()  # the device opens while the sentence is made
        self.speech.say(i18n.current_language(), text)

    def stop(self) -> None:
        self.speech.stop()
        self.app.sounds.stop_speaking()

    def close(self) -> None:
        self.speech.close()

    # --- playing (main thread) -------------------------------------------------------------
    def _deliver(self, sound: Any) -> None:
        """Called on the speech worker: hand over to the main thread, which plays it."""
        call_soon: Callable = self.app.call_soon
        call_soon(lambda: self._play(sound))

    def _play(self, wav: bytes) -> None:
        if self.on:
            self.app.sounds.speak(wav)  # cuts off a sentence still playing: the newest one counts
