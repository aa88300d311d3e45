"""Silence: what the app plays through until the sound effects are loaded (the first frame comes
first), and in tests, which read back what would have been played."""

from __future__ import annotations


class Silence:
    """Has the interface of companion.sound.Sounds; plays nothing, remembers the names."""

    available = True  # stands in for working sounds: the screens behave as with a device
    unavailable_reason = None

    def __init__(self, volume: float = 0.8, muted: bool = False):
        self.volume, self.muted = volume, muted
        self.played: list[str] = []
        self.chimes: list[str] = []
        self.spoken = 0  # sentences handed over to be played

    def play(self, name: str) -> None:
        self.played.append(name)

    def chime(self, seat: int) -> None:
        """A seat's turn chime: remembered apart from the game's effects."""
        self.chimes.append(f"seat{seat}")

    def set_volume(self, volume: float) -> None:
        self.volume = volume

    def set_muted(self, muted: bool) -> None:
        self.muted = muted

    def speak(self, wav: bytes) -> None:
        self.spoken += 1

    def stop_speaking(self) -> None:
        pass

    def wanted(self) -> None:
        pass

    def tend(self, last_input: float = float("-inf")) -> None:
        """Nothing to rest: no device is open."""

    def close(self) -> None:
        pass
