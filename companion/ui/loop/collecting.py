"""Python's cycle collector, run while the loop waits rather than in the middle of a press.

Python collects when enough objects were made since its last collection, wherever that falls.
Drawing the next states ahead leaves thousands of young objects behind (widgets, stand-in
screens, fitted words), so the collection a press's pass happened to trigger looked at all of
them: 1 to 4 ms of a pass that otherwise takes 1.5. So the loop, each time it is about to sleep,
collects the young generations itself when objects were made since (`tidy`): a press's pass
starts with them empty and makes too few objects of its own to trigger one; the oldest
generation, which takes longer, when no one is at it. Nothing is made while nothing happens,
so an idle loop collects nothing.

What lives as long as the app (modules, the type, caches filled while warming up) is frozen
once after warming up (`settle`): a full collection, now and then in `tidy`, looks only at what
came after.
"""

from __future__ import annotations

import gc

# objects made since the last collection that make one worth its time while waiting (Python
# itself waits for 700; a press's pass makes a few hundred)
YOUNG = 100
OLDEST_OVERDUE = 10  # while someone plays on and on, the oldest generation's turns it may wait


def tidy(at_rest: bool = True) -> bool:
    """Collect now what Python would collect soon (True when it did). The oldest generation
    (a few ms: everything made since warming up) waits for a moment `at_rest` (no one at the
    table for a while, nothing moving), or for ten times its turn when there is none."""
    made, young_collections, middle_collections = gc.get_count()
    if made < YOUNG and young_collections == 0:
        return False
    due = gc.get_threshold()[2]
    full = middle_collections >= (due if at_rest else OLDEST_OVERDUE * due)
    gc.collect(2 if full else 1)
    return True


_settled = False


def settle() -> None:
    """Collect everything and freeze what is left, the app's lifelong objects (once: what an
    app makes later comes and goes, and a frozen object's cycles are never collected)."""
    global _settled
    if _settled:
        return
    _settled = True
    gc.collect()
    gc.freeze()
