"""Latency from a seat button's pin edge to the frame that shows its effect.

The whole path runs for real: a MockFactory pin driven low from another thread (as gpiozero's
callback thread would), the input device's handler putting the edge on the queue and waking the app,
the app's own loop (`App.wait` / `App.pump`) polling the SeatTable (debounce, router,
controller.submit through the rules core), the LEDs following the new state, and The Cloud
Mine's or Cloud 9's game screen redrawn and flipped on SDL's dummy video driver.
"""

from __future__ import annotations

import random
import statistics
import threading
import time

from ..config import DEFAULT_SEATS
from .events import JUMP, STAY
from .seats import SeatInput
from .table import SeatTable

PLAYERS = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]
GAMES = ("cloudmine", "cloud9")
# a press comes this long after the screen it answers went up (after a touch move, once that
# move's moment is over): longer than the debounce window, as two real presses are, and
# quicker than anyone answers a screen
GAP_S = 0.035
DEADLINE_S = 300  # the whole run; a lost press must not hang the bench


def bench(presses: int = 250, seed: int = 1, journal=None, games: tuple[str, ...] = GAMES) -> dict[str, float]:
    """`journal`: each press saved there too, as the app does (the live page's bench watches it).
    The Cloud Mine's figures are `seats.*`, Cloud 9's `seats.cloud9_*`."""
    figures: dict[str, float] = {}
    for game in games:
        ms, cpu_ms = _presses(game, presses, seed, journal)
        prefix = "seats." if game == "cloudmine" else f"seats.{game}_"
        figures.update(
            {
                f"{prefix}press_to_frame_median_ms": round(statistics.median(ms), 3),
                f"{prefix}press_to_frame_p99_ms": round(statistics.quantiles(ms, n=100)[98], 3),
                f"{prefix}press_to_frame_max_ms": round(ms[-1], 3),
                # the same passes in the loop's own CPU time, to the flip: what the scheduler of a
                # busy machine adds to the wall-clock figures above is not in it
                f"{prefix}press_to_frame_loop_cpu_median_ms": round(statistics.median(cpu_ms), 3),
                f"{prefix}press_to_frame_loop_cpu_p99_ms": round(statistics.quantiles(cpu_ms, n=100)[98], 3),
                f"{prefix}presses_measured": len(ms),
            }
        )
    return figures


def _presses(game: str, presses: int, seed: int, journal) -> tuple[list[float], list[float]]:
    """Each press's ms from its pin's edge to its frame's flip, and the loop's CPU ms in that
    pass, sorted. The Cloud Mine: every press is the Dreamer's answer. Cloud 9: every press is a
    passenger's jump or stay; the pilot's roll, rise or fall come from the touchscreen between
    presses, as at a table (not timed)."""
    from gpiozero.pins.mock import MockFactory

    from ..controller import GameController
    from ..ui.loop.hardware import SeatHardware
    from ..ui.tools.harness import Harness  # sets SDL's dummy drivers before pygame starts

    setup = {"game": game, "players": PLAYERS}
    harness = (
        Harness((800, 480))
        if journal is None
        else Harness((800, 480), controller=GameController(journal), journal=journal)
    )
    app = harness.app
    app.warm_up()  # as the app does while idle, long before a game's first press
    seat_input = SeatInput(DEFAULT_SEATS[: len(PLAYERS)], pin_factory=MockFactory(), wake=app.wake)
    table = SeatTable(seat_input)
    app.hardware = SeatHardware(table, simulated=True)
    rng = random.Random(seed)

    target: list = [None]  # the pin the presser presses next (set by the main loop)
    pressed_at = [0.0]
    aimed_at = [0.0]  # when the screen the next press answers went up
    released_at = [0.0]
    ready, shown, stop = threading.Event(), threading.Event(), threading.Event()
    latencies: list[float] = []
    loop_cpu: list[float] = []  # the loop thread's CPU time in the pass that showed each press

    def presser_of(view) -> str | None:
        """Whose seat button the next press is, or None: the touchscreen's turn."""
        if game == "cloudmine":
            return view["dreamer"]
        return view["to_decide"] if view["phase"] == "decide" else None

    def touch() -> dict:
        """The pilot's move on the screen: a roll, mostly a rise, sometimes a fall."""
        legal = [a for a in app.controller.legal_actions() if a["act"] not in (JUMP, STAY)]
        rises = [a for a in legal if a["act"] == "rise"]
        return rises[0] if rises and rng.random() < 0.8 else rng.choice(legal)

    def aim() -> None:
        moved = 0.0  # after the pilot's move, the passengers answer what it shows: once it is still
        while True:
            match = app.controller.match
            assert match is not None  # a game was started before the first aim
            view = match.view
            if view["over"]:
                harness.start_game(setup)
                continue
            who = presser_of(view)
            if who is not None:
                break
            app.controller.submit(touch())
            app.pump()
            moved = app.animation_left_s  # the dice tumbling, the balloon rising to its cloud
        seat = table.seats.seat_of(who)
        assert seat is not None  # the table seats every player of the game
        target[0] = seat_input.pin(seat, rng.choice([JUMP, STAY]))
        aimed_at[0] = time.perf_counter() + moved
        ready.set()

    def presser() -> None:
        while not stop.is_set():
            if not ready.wait(1.0):
                continue
            ready.clear()
            # GAP_S after the screen went up, and after the last press was let go (a press
            # sooner than that after a release would be a bounce)
            time.sleep(max(0.0, max(aimed_at[0], released_at[0]) + GAP_S - time.perf_counter()))
            pin = target[0]
            pressed_at[0] = time.perf_counter()
            pin.drive_low()
            shown.wait(5.0)
            shown.clear()
            pin.drive_high()
            released_at[0] = time.perf_counter()

    thread = threading.Thread(target=presser, daemon=True)
    deadline = time.monotonic() + DEADLINE_S
    try:
        harness.start_game(setup)
        thread.start()
        aim()
        while len(latencies) < presses:
            if time.monotonic() > deadline:
                raise RuntimeError(f"only {len(latencies)} of {presses} presses arrived in {DEADLINE_S} s")
            app.wait()
            before, frames = app.controller.match, app.frames_drawn
            cpu = time.thread_time()
            app.pump()
            if app.controller.match is before:
                continue  # a release, a timer, an idle pass
            if app.frames_drawn == frames:
                raise RuntimeError("a seat press changed the game but no frame was drawn")
            # to the frame's flip (the pass may go on after it: the rebuilt screen checked)
            flipped_at, flipped_cpu = app.flipped
            latencies.append(flipped_at - pressed_at[0])
            loop_cpu.append(flipped_cpu - cpu)
            shown.set()
            aim()
    finally:
        stop.set()
        shown.set()
        thread.join(5.0)
        table.close()
    return sorted(x * 1000 for x in latencies), sorted(x * 1000 for x in loop_cpu)


if __name__ == "__main__":
    for name, value in bench().items():
        print(f"{name:40s} {value}")
