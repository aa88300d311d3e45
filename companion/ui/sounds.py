"""The app's sounds: companion.sound.Sounds when it can be loaded, silence otherwise."""

from __future__ import annotations

import logging

log = logging.getLogger(__name__)


class Silence:
    """Stands in for Sounds when the effects cannot be loaded at all."""

    unavailable_reason = "no sound module"

    def __init__(self, volume: float = 0.8, muted: bool = False):
        self.volume, self.muted = volume, muted
        self.played: list[str] = []

    def play(self, name: str) -> None:
        self.played.append(name)

    def set_volume(self, volume: float) -> None:
        self.volume = volume

    def set_muted(self, muted: bool) -> None:
        self.muted = muted


def make_sounds(volume: float, muted: bool):
    try:
        from ..sound import Sounds
    except ImportError as exc:  # the effects are optional: a game never waits for a sound
        log.warning("sounds unavailable: %s", exc)
        return Silence(volume, muted)
    return Sounds(volume=volume, muted=muted)
