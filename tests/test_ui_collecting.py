"""Python's cycle collector runs while the loop waits, not in the pass that shows a press: the
loop collects the young objects drawing ahead leaves behind before it sleeps, and an idle loop
collects nothing."""

from __future__ import annotations

import gc

from companion.ui.loop import collecting
from companion.ui.tools.harness import Harness

SIX = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]


class Collections:
    """How many collections ran (Python's own and ours) while in the `with` block."""

    def __enter__(self):
        self.count = 0
        gc.callbacks.append(self._seen)
        return self

    def _seen(self, phase, info):
        self.count += phase == "start"

    def __exit__(self, *exc):
        gc.callbacks.remove(self._seen)


def ready_for_a_press() -> Harness:
    h = Harness((800, 480))
    h.start_game({"game": "cloudmine", "players": SIX})
    h.app.warm_up()
    h.app.pump()
    h.app._timers.clear()  # the turn's cue and the like: this wait is the loop's idle time
    return h


def test_the_press_after_the_loop_waited_collects_nothing_in_its_pass():
    h = ready_for_a_press()
    # young objects, as many as drawing ahead leaves behind (Python collects at 700)
    young = [[] for _ in range(gc.get_threshold()[0] - 50)]
    h.app.wait()  # draws the Dreamer's two answers ahead, then collects before it sleeps
    assert gc.get_count()[0] < collecting.YOUNG
    with Collections() as seen:
        view = h.app.controller.match.view
        h.app.controller.submit({"act": "guess", "player": view["to_guess"], "correct": False})
        h.app.pump()
    assert h.app.frames_drawn and seen.count == 0
    assert len(young) > 600  # alive all along: collected, not freed


def test_an_idle_loop_collects_nothing():
    h = ready_for_a_press()
    h.app.wait()  # the rehearsal and its garbage
    with Collections() as seen:
        for _ in range(3):
            h.app.wait()
            h.app.pump()
    assert seen.count == 0


def test_tidy_collects_what_was_made_and_then_nothing():
    collecting.tidy()
    made = [[] for _ in range(collecting.YOUNG * 2)]
    with Collections() as seen:
        assert collecting.tidy()
        assert not collecting.tidy()
    assert seen.count == 1 and len(made) == collecting.YOUNG * 2


def test_what_lives_as_long_as_the_app_is_frozen_once_warmed_up():
    h = Harness((800, 480))
    h.app.warm_up()
    assert gc.get_freeze_count() > 0


def generations_collected(fn) -> list[int]:
    seen = []

    def note(phase, info):
        if phase == "start":
            seen.append(info["generation"])

    gc.callbacks.append(note)
    try:
        fn()
    finally:
        gc.callbacks.remove(note)
    return seen


def test_the_oldest_generation_waits_for_a_moment_at_rest_unless_long_overdue():
    due = gc.get_threshold()[2]

    def young_and_middle(turns: int):
        gc.collect()  # the oldest generation's turn counted from nothing
        for _ in range(turns):
            gc.collect(1)
        return [[] for _ in range(collecting.YOUNG * 2)]

    made = young_and_middle(due)
    assert generations_collected(lambda: collecting.tidy(at_rest=False)) == [1]  # someone is at it
    made += young_and_middle(due)
    assert generations_collected(lambda: collecting.tidy(at_rest=True)) == [2]
    made += young_and_middle(due * collecting.OLDEST_OVERDUE)
    assert generations_collected(lambda: collecting.tidy(at_rest=False)) == [2]  # overdue
    assert made
