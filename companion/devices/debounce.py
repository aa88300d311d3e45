"""Contact bounce: a burst of edges within a few milliseconds is one press.

gpiozero's MockPin does not simulate `bounce_time`, and the kernel's debounce on a real Pi would
delay every press by the whole window; so the debouncing is done here, on edge times handed in
(the seat devices stamp each edge with an injectable clock), where the tests can reach it.

The rule: a press edge counts when the button has been quiet (no edge of either kind) for at
least the window. The leading edge of a press is taken at once, so debouncing adds no latency;
the chatter after it, and the chatter of the release, fall inside the window and are dropped.
"""

from __future__ import annotations

from collections.abc import Hashable

# Switch bounce lasts up to a few milliseconds; two deliberate presses are >100 ms apart.
DEBOUNCE_S = 0.03


class Debouncer:
    def __init__(self, window_s: float = DEBOUNCE_S):
        if window_s < 0:
            raise ValueError("the debounce window cannot be negative")
        self.window_s = window_s
        self._last_edge: dict[Hashable, float] = {}

    def edge(self, key: Hashable, pressed: bool, time: float) -> bool:
        """Record an edge of button `key` at `time`; True if it is a new press."""
        last = self._last_edge.get(key)
        self._last_edge[key] = time
        return pressed and (last is None or time - last >= self.window_s)
