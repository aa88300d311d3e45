"""The seat panel: a JUMP button, a STAY button and an LED at each seat (gpiozero).

gpiozero calls the button handlers on its own thread (the pin's callback thread). Those
handlers only stamp the edge with the clock and put it on a `queue.Queue`, then call `wake`
(for the app: post a pygame event, which is thread-safe) so the main loop notices at once.
Everything else happens on the main thread in `poll()`: debouncing, stuck buttons, turning
edges into SeatPress values, deciding what each LED shows.

The LED changes themselves run on one worker thread of our own: in gpiozero, starting or
stopping a blink starts or joins a thread, which can take milliseconds, and the main thread has
a frame to draw. The same worker calls `wake` when a timer is due.

A button held down longer than `stuck_after_s` is stuck: reported by `stuck` and ignored until
it is released; one already held when the panel opens counts as stuck at once. The hold is
timed on the injected clock from the edges' own times, not by gpiozero's hold thread: that
keeps it testable without waiting, and gpiozero's thread would hold up `close()` for the whole
hold time while a button is down.
"""

from __future__ import annotations

import heapq
import logging
import queue
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from ..config import Config, SeatPins
from .debounce import DEBOUNCE_S, Debouncer
from .events import BUTTONS, JUMP, STAY, LedMode, SeatPress

# gpiozero (2 to 3 MiB with what it imports) is imported once seats are made: the settings
# screens that only name a seat's limits (STUCK_AFTER_S) do without it
if TYPE_CHECKING:
    from gpiozero import LED, DigitalInputDevice
    from gpiozero.pins import Factory

log = logging.getLogger(__name__)

STUCK_AFTER_S = 10.0  # the limit: a button held longer than this is stuck
BLINK_S = 0.4  # on and off times of a blinking LED: calm, but plainly not steady
FLICKER_S = 0.15  # a refused press: the LED shows the opposite for this long

Clock = Callable[[], float]
SeatKey = tuple[int, str]  # (seat, JUMP or STAY)


@dataclass(frozen=True)
class _Edge:
    seat: int
    button: str
    kind: str  # "press" or "release"
    time: float


class _Worker(threading.Thread):
    """Runs LED jobs in order, and calls `wake` at the times asked for (never busy: it sleeps
    on its job queue until the next job or the next wake-up)."""

    _STOP = object()

    def __init__(self, wake: Callable[[], None] | None):
        super().__init__(name="seat-leds", daemon=True)
        self.jobs: queue.Queue = queue.Queue()
        self.wake = wake
        self._wake_at: list[float] = []  # a heap of time.monotonic() deadlines

    def run(self) -> None:
        while True:
            timeout = max(0.0, self._wake_at[0] - time.monotonic()) if self._wake_at else None
            try:
                job = self.jobs.get(timeout=timeout)
            except queue.Empty:
                job = None
            if job is self._STOP:
                self.jobs.task_done()
                return
            if job is not None:
                try:
                    job()
                except Exception:  # a failing LED must not stop the others, nor the wake-ups
                    log.exception("seat LED job failed")
                finally:
                    self.jobs.task_done()
            now = time.monotonic()
            while self._wake_at and self._wake_at[0] <= now:
                heapq.heappop(self._wake_at)
                if self.wake:
                    self.wake()

    def wake_after(self, seconds: float) -> None:
        self.jobs.put(self.timer(seconds))

    def timer(self, seconds: float) -> Callable[[], None]:
        """The job that has `wake` called `seconds` after it runs."""
        return lambda: heapq.heappush(self._wake_at, time.monotonic() + seconds)

    def stop(self) -> None:
        self.jobs.put(self._STOP)
        self.join(5.0)


class SeatInput:
    """Every seat's buttons and LED. Create, `poll()` once per frame, `close()` at the end."""

    def __init__(
        self,
        seats: Sequence[SeatPins],
        *,
        pin_factory: Factory | None = None,
        simulated: bool | None = None,
        clock: Clock = time.monotonic,
        wake: Callable[[], None] | None = None,
        debounce_s: float = DEBOUNCE_S,
        stuck_after_s: float = STUCK_AFTER_S,
        blink_s: float = BLINK_S,
        flicker_s: float = FLICKER_S,
    ):
        # the same checks as the settings file: a pin used twice or out of range is a ConfigError
        # before any pin is touched
        seats = Config().with_changes(seats=tuple(seats)).seats
        self.seat_pins = seats
        self.clock = clock
        self.wake = wake
        self.blink_s = blink_s
        self.stuck_after_s = stuck_after_s
        self.flicker_s = flicker_s
        self._edges: queue.Queue[_Edge] = queue.Queue()
        self._debouncer = Debouncer(debounce_s)
        self._stuck: set[SeatKey] = set()
        self._down_since: dict[SeatKey, float] = {}  # buttons held now, from their last press edge
        self._buttons: dict[SeatKey, DigitalInputDevice] = {}
        self._leds: dict[int, LED] = {}
        self._modes: dict[int, LedMode] = {}
        self._flicker_until: dict[int, float] = {}
        self._worker = _Worker(wake)
        self._worker.start()
        # LED changes asked for during a main-loop pass wait for `release_leds` (the app calls
        # it once the pass's frame is on the screen): the worker's gpiozero calls would
        # otherwise take the interpreter from the main thread while it draws that frame
        self._held: list[Callable[[], None]] = []
        self._holding = False
        self.hold_leds_for_frame = False  # the app's loop sets it: it calls release_leds
        from gpiozero import LED

        try:
            for seat, pins in enumerate(seats, start=1):
                for button in BUTTONS:
                    self._buttons[seat, button] = self._make_button(seat, button, getattr(pins, button), pin_factory)
                self._leds[seat] = LED(pins.led, pin_factory=pin_factory)
                self._modes[seat] = LedMode.OFF
        except Exception:
            self.close()
            raise
        if simulated is None:  # the factory gpiozero actually gave the devices
            from gpiozero.pins.mock import MockFactory

            simulated = isinstance(next(iter(self._leds.values())).pin_factory, MockFactory)
        self.simulated = simulated
        for key, device in self._buttons.items():
            if device.is_active:  # held before we started: no edge will ever tell us
                self._stuck.add(key)
                self._down_since[key] = clock()
                log.warning("seat %d %s is held down at start: ignored until released", *key)

    @classmethod
    def open(cls, config: Config, **options) -> SeatInput:
        """The seats of the settings file on gpiozero's pin factory (MockFactory without GPIO)."""
        from .pins import choose_pin_factory

        choice = choose_pin_factory()
        return cls(config.seats, pin_factory=choice.factory, simulated=choice.simulated, **options)

    def _make_button(self, seat: int, button: str, pin: int, factory: Factory | None) -> DigitalInputDevice:
        # buttons switch to ground; the internal pull-up holds the line high when open (active
        # = pressed). Not gpiozero's Button: its hold thread wakes every 0.1 s per button, 160
        # wake-ups a second for 16 buttons doing nothing; holds are timed here (see above).
        from gpiozero import DigitalInputDevice

        device = DigitalInputDevice(pin, pull_up=True, pin_factory=factory)
        device.when_activated = lambda: self._edge(seat, button, "press")
        device.when_deactivated = lambda: self._edge(seat, button, "release")
        return device

    # --- gpiozero's threads ---------------------------------------------------------------

    def _edge(self, seat: int, button: str, kind: str) -> None:
        self._edges.put(_Edge(seat, button, kind, self.clock()))
        if self.wake:
            self.wake()

    # --- the main thread ------------------------------------------------------------------

    @property
    def seat_count(self) -> int:
        return len(self.seat_pins)

    @property
    def stuck(self) -> frozenset[SeatKey]:
        """Buttons held too long, ignored until released: (seat, JUMP or STAY)."""
        return frozenset(self._stuck)

    def poll(self) -> list[SeatPress]:
        """The presses since the last call, in the order they happened; never blocks. LED
        changes from here on wait for `release_leds` (or `flush_leds`) where the app's loop
        asked for that (`hold_leds_for_frame`)."""
        self._holding = self.hold_leds_for_frame
        presses = []
        while True:
            try:
                edge = self._edges.get_nowait()
            except queue.Empty:
                break
            key = (edge.seat, edge.button)
            pressed = edge.kind == "press"
            counts = self._debouncer.edge(key, pressed, edge.time)
            if pressed:
                self._down_since.setdefault(key, edge.time)
            else:
                self._down_since.pop(key, None)
                if key in self._stuck:
                    self._stuck.discard(key)
                    log.info("seat %d %s released: it counts again", *key)
            if counts and key not in self._stuck:
                presses.append(SeatPress(edge.seat, edge.button, edge.time))
                self.wake_after(self.stuck_after_s)  # to notice if it is never let go
        self._find_stuck(self.clock())
        self._end_flickers()
        return presses

    def _find_stuck(self, now: float) -> None:
        for key, since in self._down_since.items():
            if key not in self._stuck and now - since >= self.stuck_after_s:
                self._stuck.add(key)
                log.warning("seat %d %s held for over %.0f s: ignored until released", *key, self.stuck_after_s)

    def led_mode(self, seat: int) -> LedMode:
        """What the LED shows when it is not flickering."""
        return self._modes[seat]

    def set_leds(self, plan: Mapping[int, LedMode]) -> None:
        """Show `plan` (seat -> mode); seats left out go dark. Unchanged LEDs are left alone."""
        for seat in self._leds:
            mode = plan.get(seat, LedMode.OFF)
            if mode != self._modes[seat]:
                self._modes[seat] = mode
                if seat not in self._flicker_until:
                    self._show(seat, mode)

    def flicker(self, seat: int) -> None:
        """One short flash of the opposite: "that press changed nothing"."""
        if seat not in self._leds:
            return
        led = self._leds[seat]
        self._led_job(led.on if self._modes[seat] == LedMode.OFF else led.off)
        self._flicker_until[seat] = self.clock() + self.flicker_s
        self.wake_after(self.flicker_s)  # to end the flicker even if no input comes

    def wake_after(self, seconds: float) -> None:
        """Call `wake` after `seconds`: the main loop may sleep until its next input. Held with
        the LED changes until the frame is drawn, where the loop asked for that: handing the
        worker a job wakes its thread, which then takes the interpreter from the drawing one."""
        if self.wake:
            self._led_job(self._worker.timer(seconds))

    def _led_job(self, job: Callable[[], None]) -> None:
        if self._holding:
            self._held.append(job)
        else:
            self._worker.jobs.put(job)

    def release_leds(self) -> None:
        """Hand the LED changes held since `poll` to the worker (the frame is drawn)."""
        self._holding = False
        held, self._held = self._held, []
        for job in held:
            self._worker.jobs.put(job)

    def flush_leds(self) -> None:
        """Wait until every LED change asked for so far is on the pins (tests, closing)."""
        self.release_leds()
        if self._worker.is_alive():
            self._worker.jobs.join()

    def is_flickering(self, seat: int) -> bool:
        return seat in self._flicker_until

    def _end_flickers(self) -> None:
        now = self.clock()
        for seat, until in list(self._flicker_until.items()):
            if now >= until:
                del self._flicker_until[seat]
                self._show(seat, self._modes[seat])

    def _show(self, seat: int, mode: LedMode) -> None:
        led = self._leds[seat]
        if mode == LedMode.BLINK:
            job = partial(led.blink, on_time=self.blink_s, off_time=self.blink_s, background=True)
        else:
            job = led.on if mode == LedMode.ON else led.off
        self._led_job(job)

    def pin(self, seat: int, part: str):
        """The gpiozero pin of a seat's JUMP, STAY or LED (the keyboard drives mock pins)."""
        if part == "led":
            return self._leds[seat].pin
        return self._buttons[seat, part].pin

    def close(self) -> None:
        self.release_leds()
        self._worker.stop()  # after the LED jobs already asked for
        for led in self._leds.values():
            led.off()  # stops a blink; a dark seat when the app has ended
            led.close()
        for device in self._buttons.values():
            device.close()
        self._leds.clear()
        self._buttons.clear()

    def __enter__(self) -> SeatInput:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


__all__ = ["JUMP", "STAY", "SeatInput", "SeatPress", "LedMode", "STUCK_AFTER_S"]
