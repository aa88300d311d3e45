"""When the ship's stream wakes the app's main loop: the judge runs on the link's thread, and
only its word (a ball, a notice, a link report) or a visible tilt on the Cloudship screen in
flight wakes the main loop. Real parts: the simulated ship on a pty, the link's reader thread,
the app's own loop with the dummy video driver."""

import os
import queue
import threading
import time

from gpiozero.pins.mock import MockFactory
from hypothesis import given, settings, strategies as st

from companion.config import Config
from companion.ship.judge import Judge
from companion.ship.link import ShipLink, clock_ms
from companion.ship.protocol import decode, encode
from companion.ship.session import ShipSession
from companion.ship.sim import ShipSimulator
from companion.ui.loop.ship_view import TILT_REDRAW_DEG, ShipPanel
from companion.ui.screens.cloudship import demo_game
from companion.ui.tools.harness import Harness

SETUP, _ = demo_game()


class Wakes:
    """Counts the wake-ups the devices ask for (and passes them on)."""

    def __init__(self, then=lambda: None):
        self.count = 0
        self.then = then
        self._lock = threading.Lock()

    def __call__(self):
        with self._lock:
            self.count += 1
        self.then()


def words_since_poll(session):
    """What the judge said that nobody polled yet: a word (a gap when a loaded machine made the
    board drop a line, say) rightly wakes the loop, so only wakes beyond these are the tilt's."""
    with session._lock:
        return list(session._outbox)


def until(done, seconds=5.0, step=None):
    end = time.monotonic() + seconds
    while not done() and time.monotonic() < end:
        if step is not None:
            step()
        time.sleep(0.005)
    return done()


def test_a_resting_ships_lines_are_judged_without_waking_the_main_loop_and_a_ball_wakes_it():
    wakes = Wakes()
    session = ShipSession(queue.Queue(), clock=clock_ms)
    sim = ShipSimulator(seed=1, tilt_s=0.01).start()  # one line at a time, as a real board
    link = ShipLink(sim.path, session.inlet(wakes), wake=wakes)
    link.start()
    try:
        assert until(lambda: session.lines >= 5)
        session.poll(None)
        woken, lines = wakes.count, session.lines
        assert until(lambda: session.lines >= lines + 50)
        # fifty TILT lines (and a BEAT) judged, nobody woken
        assert wakes.count - woken <= len(words_since_poll(session))
        assert session.judge.tilt is not None and not session.judge.counts  # every line judged good
        sim.release("rain")
        assert until(lambda: wakes.count > woken, seconds=2)
        assert {"x_ball": "rain"} in [{k: v for k, v in n.items() if k != "t"} for n in session.poll(None)]
    finally:
        link.stop()
        sim.close()


def flight_on_the_cloudship_screen(wakes):
    h = Harness((800, 480))
    wakes.then = h.app.wake
    panel = ShipPanel.open(
        Config(ship_port="sim"), wakes, True, pin_factory=MockFactory(), flight_log=None, sim_options={"seed": 2}
    )
    h.app.hardware.ship = panel
    panel.session.attach(h.app.controller)
    return h, panel


def test_a_visible_tilt_in_flight_on_the_cloudship_screen_wakes_the_loop_and_is_drawn():
    wakes = Wakes()
    h, panel = flight_on_the_cloudship_screen(wakes)
    session = panel.session
    try:
        h.start_game(SETUP)
        h.app.controller.submit({"act": "roll", "dice": ["yellow", "purple", "storm"]})
        assert until(lambda: session.link == "connected", step=h.app.pump)
        h.app.pump()
        assert session.watch_tilt  # the Cloudship screen shows the ship in flight
        lines = session.lines
        assert until(lambda: session.lines >= lines + 40, seconds=10, step=h.app.pump)  # ship drawn level
        woken = wakes.count
        assert until(lambda: session.lines >= lines + 80, seconds=10)
        # a ship at rest (a tenth of a degree of wobble) wakes nobody
        assert wakes.count - woken <= len(words_since_poll(session))
        panel.simulator.tilt_by(0, 10)
        assert until(lambda: wakes.count > woken, seconds=5)
        # the hull follows the hands, the board's filter follows the hull: within a second
        assert until(lambda: abs(panel.tilt_degrees() - 10) < 0.5, step=h.app.pump)
        h.app.pump()
        # the screen was rebuilt at the new angle (within the degree it redraws at)
        assert abs(panel._drawn_tilt[1] - panel.tilt_degrees()) < TILT_REDRAW_DEG + 0.5
        assert panel._drawn_tilt[1] > 8
    finally:
        panel.close()


def test_a_tilt_wakes_nobody_where_the_ship_is_not_drawn():
    wakes = Wakes()
    h, panel = flight_on_the_cloudship_screen(wakes)
    session = panel.session
    try:
        h.start_game({"game": "cloudmine", "players": ["Ann", "Ben", "Csilla", "Dóra"]})
        assert until(lambda: session.link == "connected", step=h.app.pump)
        h.app.pump()
        assert not session.watch_tilt
        woken, lines = wakes.count, session.lines
        panel.simulator.tilt_by(0, 20)
        assert until(lambda: session.lines >= lines + 30)
        assert session.tilt[1] > 15  # judged all the same ...
        # ... without waking the loop of a screen that does not show it
        assert wakes.count - woken <= len(words_since_poll(session))
    finally:
        panel.close()


def read_lines(sim, count, seconds=3.0):
    out = b""
    end = time.monotonic() + seconds
    while out.count(b"\n") < count and time.monotonic() < end:
        try:
            out += os.read(sim.slave, 4096)
        except BlockingIOError:
            time.sleep(0.002)
    return [decode(line.rstrip("\r")) for line in out.decode().splitlines()]


def test_a_resting_twins_lines_go_out_in_batches_each_with_its_own_board_time_and_order():
    from companion.ship.twin.runner import TwinShip

    sim = TwinShip(seed=4)
    os.set_blocking(sim.slave, False)
    sim.start()
    try:
        messages = read_lines(sim, 45)
        seqs = [m[1] for m in messages]
        times = [m[2] for m in messages]
        assert seqs == list(range(seqs[0], seqs[0] + len(seqs)))
        assert times == sorted(times)
        tilts = [t for m, t in zip(messages, times) if m[0] == "TILT"]
        assert len(set(tilts)) == len(tilts)  # each stamped by the board when it sampled
        assert sim.written <= 2 + len(messages) / 5  # half a second of lines in each write
        # the twin passes on the firmware's own batches: a resting ship's lines go with its BEAT
        assert [m[0] for m in messages].count("BEAT") >= 2
        sim.fly()  # a flying ship: its lines go out as the board writes them
        time.sleep(0.3)
        read_lines(sim, 1000, seconds=0.05)  # what was written at rest
        written, lines = sim.written, len(read_lines(sim, 20))
        assert sim.written - written >= lines / 2 - 1
    finally:
        sim.close()


RECORDS = st.lists(
    st.one_of(
        st.tuples(st.just("TILT"), st.integers(-450, 450), st.integers(-450, 450), st.integers(0, 200)),
        st.tuples(st.just("BALL"), st.sampled_from(["rain", "hail"])),
        st.tuples(st.just("BEAT"), st.just(3900)),
        st.tuples(st.just("bed"), st.sampled_from(["yellow", "purple", "white", "blue"])),
    ),
    max_size=60,
)


@settings(max_examples=60, deadline=None)
@given(RECORDS, st.lists(st.integers(1, 7), min_size=1, max_size=10), st.booleans())
def test_judging_on_arrival_in_any_chunks_gives_the_pure_judges_word(items, chunks, watching):
    """Whatever the chunks the devices hand over, and whether the tilt is watched, the session
    acts on exactly what the pure judge says for the same records."""
    records, seq, t = [], 0, 1000
    for item in items:
        t += 37
        if item[0] == "bed":
            records.append((t, "bed", item[1]))
        else:
            records.append((t, "ship", encode(item[0], seq, t, item[1:])))
            seq += 1
    judge = Judge(extras=True)
    expected = [out for t, key, value in records for out in getattr(judge, key)(t, value)]
    session = ShipSession(queue.Queue(), clock=lambda: 0)
    session.watch_tilt = watching
    i, n = 0, 0
    while i < len(records):
        size = chunks[n % len(chunks)]
        session.take(records[i : i + size])
        i, n = i + size, n + 1
    with session._lock:
        got = session._outbox
    assert got == expected
