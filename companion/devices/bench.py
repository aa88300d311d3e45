"""Latency from a seat button's pin edge to the frame that shows its effect.

The whole path runs for real: a MockFactory pin driven low from another thread (as gpiozero's
callback thread would), the input device's handler putting the edge on the queue and waking the app,
the app's own loop (`App.wait` / `App.pump`) polling the SeatTable (debounce, router,
controller.submit through the rules core), the LEDs following the new state, and the game's
screen redrawn and flipped on SDL's dummy video driver: The Cloud Mine's Dreamer's answer,
Cloud 9's jump or stay, Cloudship's commander landing the ship.
"""

from __future__ import annotations

import random
import statistics
import threading
import time
from dataclasses import dataclass

from ..config import DEFAULT_SEATS
from .events import JUMP, STAY
from .seats import SeatInput
from .table import SeatTable

PLAYERS = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]
GAMES = ("cloudmine", "cloud9", "cloudship")
CREW = 4  # Cloudship's most players
# a press comes this long after the screen it answers went up (after a touch move, once that
# move's moment is over): longer than the debounce window, as two real presses are, and
# quicker than anyone answers a screen
GAP_S = 0.035
DEADLINE_S = 300  # the whole run; a lost press must not hang the bench


def bench(presses: int = 250, seed: int = 1, journal=None, games: tuple[str, ...] = GAMES) -> dict[str, float]:
    """`journal`: each press saved there too, as the app does (the live page's bench watches it).
    The Cloud Mine's figures are `seats.*`, Cloud 9's `seats.cloud9_*` (and each kind of its
    presses' loop CPU: `seats.cloud9_jump_*`, `..._stay_*`, `..._solo_jump_*`), Cloudship's
    `seats.cloudship_*`."""
    figures: dict[str, float] = {}
    for game in games:
        timed = _presses(game, presses, seed, journal)
        ms = sorted(press.ms for press in timed)
        cpu_ms = sorted(press.cpu_ms for press in timed)
        prefix = "seats." if game == "cloudmine" else f"seats.{game}_"
        figures.update(
            {
                f"{prefix}press_to_frame_median_ms": round(statistics.median(ms), 3),
                f"{prefix}press_to_frame_p99_ms": round(_p99(ms), 3),
                f"{prefix}press_to_frame_max_ms": round(ms[-1], 3),
                # the same passes in the loop's own CPU time, to the flip: what the scheduler of a
                # busy machine adds to the wall-clock figures above is not in it
                f"{prefix}press_to_frame_loop_cpu_median_ms": round(statistics.median(cpu_ms), 3),
                f"{prefix}press_to_frame_loop_cpu_p99_ms": round(_p99(cpu_ms), 3),
                f"{prefix}presses_measured": len(ms),
                # the presses whose frame was drawn ahead while the table thought (the rest were
                # built and painted in the press's pass: a slower machine draws less ahead)
                f"{prefix}presses_drawn_ahead": sum(press.drawn_ahead for press in timed),
            }
        )
        kinds = sorted({press.kind for press in timed})
        for kind in kinds if len(kinds) > 1 else ():
            mine = sorted(press.cpu_ms for press in timed if press.kind == kind)
            figures[f"{prefix}{kind}_press_to_frame_loop_cpu_median_ms"] = round(statistics.median(mine), 3)
            figures[f"{prefix}{kind}_press_to_frame_loop_cpu_p99_ms"] = round(_p99(mine), 3)
            figures[f"{prefix}{kind}_presses_measured"] = len(mine)
    return figures


def _p99(sorted_ms: list[float]) -> float:
    # the quantiles' p99 (extrapolated from the two largest), or the one press there is
    return statistics.quantiles(sorted_ms, n=100)[98] if len(sorted_ms) > 1 else sorted_ms[0]


@dataclass(frozen=True)
class TimedPress:
    kind: str  # "answer" (The Cloud Mine), "jump", "stay", "solo_jump" (Cloud 9), "land" (Cloudship)
    ms: float  # from the pin's edge to the flip of the frame that shows it
    cpu_ms: float  # the loop's CPU time in that pass, to the flip
    drawn_ahead: bool  # its frame was drawn ahead and went up before the screen was rebuilt


def _presses(game: str, presses: int, seed: int, journal) -> list[TimedPress]:
    """Each press's ms from its pin's edge to its frame's flip, and the loop's CPU ms in that
    pass. The Cloud Mine: every press is the Dreamer's answer. Cloud 9: a passenger's jump or
    stay, or a solo pilot's jump before the roll (half the time: else the pilot rolls); the
    pilot's roll, rise or fall come from the touchscreen between presses, as at a table (not
    timed). Cloudship: the commander's JUMP landing the ship, after the roll and a few balls
    dropped on the screen."""
    from gpiozero.pins.mock import MockFactory

    from ..controller import GameController
    from ..ui.loop.hardware import SeatHardware
    from ..ui.tools.harness import Harness  # sets SDL's dummy drivers before pygame starts

    setup = {"game": game, "players": PLAYERS[:CREW] if game == "cloudship" else PLAYERS}
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
    timed: list[TimedPress] = []
    kind = [""]  # the kind of the press aimed at

    def presser_of(view) -> tuple[str, str, str] | None:
        """Whose seat button the next press is, which button and what kind of press it is, or
        None: the touchscreen's turn."""
        if game == "cloudmine":
            return view["dreamer"], rng.choice([JUMP, STAY]), "answer"
        if game == "cloudship":
            if view["phase"] != "flight":
                return None
            drops = any(a["act"] == "drop" for a in app.controller.legal_actions())
            return (view["commander"], JUMP, "land") if rng.random() < 0.4 or not drops else None
        if view["phase"] == "decide":
            button = rng.choice([JUMP, STAY])
            return view["to_decide"], button, "jump" if button == JUMP else "stay"
        if view["phase"] == "roll" and view["solo"] and rng.random() < 0.5:
            return view["pilot"], JUMP, "solo_jump"
        return None

    def touch() -> dict:
        """A move on the screen: Cloud 9's pilot rolls, mostly rises, sometimes falls; The Cloud
        Mine has none; Cloudship's crew rolls, drops a ball, plants, turns a tile."""
        legal = [a for a in app.controller.legal_actions() if a["act"] not in (JUMP, STAY, "land")]
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
            press = presser_of(view)
            if press is not None:
                break
            app.controller.submit(touch())
            app.pump()
            moved = app.animation_left_s  # the dice tumbling, the balloon rising to its cloud
        who, button, kind[0] = press
        seat = table.seats.seat_of(who)
        assert seat is not None  # the table seats every player of the game
        target[0] = seat_input.pin(seat, button)
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
        while len(timed) < presses:
            if time.monotonic() > deadline:
                raise RuntimeError(f"only {len(timed)} of {presses} presses arrived in {DEADLINE_S} s")
            app.wait()
            before, frames, ahead = app.controller.match, app.frames_drawn, app.foreseen_shown
            cpu = time.thread_time()
            app.pump()
            if app.controller.match is before:
                continue  # a release, a timer, an idle pass
            if app.frames_drawn == frames:
                raise RuntimeError("a seat press changed the game but no frame was drawn")
            # to the frame's flip (the pass may go on after it: the rebuilt screen checked)
            flipped_at, flipped_cpu = app.flipped
            ms, cpu_ms = (flipped_at - pressed_at[0]) * 1000, (flipped_cpu - cpu) * 1000
            timed.append(TimedPress(kind[0], ms, cpu_ms, app.foreseen_shown > ahead))
            shown.set()
            aim()
    finally:
        stop.set()
        shown.set()
        thread.join(5.0)
        table.close()
    return timed


if __name__ == "__main__":
    for name, value in bench().items():
        print(f"{name:40s} {value}")
