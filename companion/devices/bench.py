"""Latency from a seat button's pin edge to the frame that shows its effect.

The whole path runs for real: a MockFactory pin driven low from another thread (as gpiozero's
callback thread would), the Button's handler putting the edge on the queue and waking the main
loop, the main loop polling the SeatTable (debounce, router, controller.submit with the rules),
the LEDs following the new state, and a pygame frame drawn and flipped on SDL's dummy driver.
The game is The Cloud Mine: every press of the Dreamer's button is one guess.
"""

from __future__ import annotations

import os
import random
import statistics
import threading
import time

from ..config import DEFAULT_SEATS
from ..controller import GameController
from .events import JUMP, STAY
from .router import ACT
from .seats import SeatInput
from .table import SeatTable

PLAYERS = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]
GAP_S = 0.04  # between presses: longer than the debounce window, as two real presses are


def bench(presses: int = 250, seed: int = 1) -> dict[str, float]:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame
    from gpiozero.pins.mock import MockFactory

    pygame.display.init()
    pygame.font.init()
    screen = pygame.display.set_mode((800, 480))
    font = pygame.font.Font(None, 40)
    rng = random.Random(seed)

    wake = threading.Event()
    seat_input = SeatInput(DEFAULT_SEATS[:len(PLAYERS)], pin_factory=MockFactory(), wake=wake.set)
    table = SeatTable(seat_input)
    controller = GameController()

    target: list = [None]          # the pin the presser presses next (set by the main loop)
    pressed_at: list[float] = [0.0]
    ready, shown = threading.Event(), threading.Event()
    latencies: list[float] = []

    def new_game() -> None:
        controller.new_game({"game": "cloudmine", "players": PLAYERS})
        table.play(controller)

    def aim() -> None:
        dreamer_seat = table.seats.seat_of(controller.match.view["dreamer"])
        target[0] = seat_input.pin(dreamer_seat, rng.choice([JUMP, STAY]))
        ready.set()

    def presser() -> None:
        for _ in range(presses):
            ready.wait()
            ready.clear()
            pin = target[0]
            pressed_at[0] = time.perf_counter()
            pin.drive_low()
            shown.wait()
            shown.clear()
            pin.drive_high()
            time.sleep(GAP_S)

    def draw() -> None:
        view = controller.match.view
        screen.fill((222, 239, 251))
        lines = [f"{view['to_guess']} guesses; {view['dreamer']} dreams", f"deck {view['deck']}"]
        lines += [f"{name}: {score}" for name, score in view["scores"].items()]
        for row, text in enumerate(lines):
            screen.blit(font.render(text, True, (27, 42, 65)), (24, 24 + row * 44))
        pygame.display.flip()

    new_game()
    thread = threading.Thread(target=presser, daemon=True)
    try:
        thread.start()
        aim()
        while len(latencies) < presses:
            if not wake.wait(5.0):
                raise RuntimeError("no press arrived within 5 s")
            wake.clear()
            pygame.event.pump()
            if not any(o.decision.kind == ACT for o in table.poll()):
                continue  # a release, or a wake-up timer
            draw()
            latencies.append(time.perf_counter() - pressed_at[0])
            if controller.match.view["over"]:
                new_game()
            shown.set()
            aim()
        thread.join(5.0)
    finally:
        table.close()
        pygame.display.quit()
    ms = sorted(x * 1000 for x in latencies)
    return {
        "seat_press_to_frame_median_ms": round(statistics.median(ms), 3),
        "seat_press_to_frame_p99_ms": round(statistics.quantiles(ms, n=100)[98], 3),
        "seat_press_to_frame_max_ms": round(ms[-1], 3),
        "seat_presses_measured": len(ms),
    }


if __name__ == "__main__":
    for name, value in bench().items():
        print(f"{name:40s} {value}")
