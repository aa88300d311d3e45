"""The ship's figures for `cloud-companion bench`:

- ship.lines_per_s: lines read from a real pty (the link's PortReader), parsed and judged on
  the reader's thread (the session's inlet, as in the app), as fast as a writer can push them.
- ship.cpu_percent_at_link_rate: CPU of this process (reader thread and judge) while another
  process writes into a pty what the real firmware writes on its USB port for a resting ship,
  when it writes it: the firmware's loop (hardware/ship, run under CPython ahead of time, a step
  a millisecond, 8 bytes a step as main.py hands them over) holds the TILT lines back and lets a
  second of them go with its BEAT, and the writer replays each step's bytes at its millisecond.
  In % of a core. As in the app, the judge runs on the reader's thread and the main thread is
  woken only for the judge's word. ship.reads_per_s_at_rest: how often the reader woke for them.
- ship.reads_per_line_at_pico_pace: how many times the link's reader wakes and reads for each
  line when the lines come as the Pico's USB port hands them over (the firmware writes 8 bytes
  a millisecond, so a line arrives in pieces), at the board's 21 lines a second.
- ship.line_to_frame_p99_ms: from a BALL line written into the pty to the flip of the first
  frame that shows the ball falling (the app's own loop, dummy video driver);
  ship.line_to_frame_cpu_p99_ms: the CPU time of that work (the reader thread's read and
  judgement, the loop's pass to the flip), which a busy neighbour cannot lengthen.
- ship.judge_ball_flood_lines_per_s: the judge alone (parse and judge) on a flood of BALL lines
  a millisecond apart, as a flickering beam sends them: hundreds of balls in the air at once,
  which must cost no more per line than one ball does.
- ship.twin_beam_to_frame_p99_ms: the whole chain as on the table, with the ship's twin: from
  the moment a ball's body clears the beam (the firmware, on the board host, writes its BALL
  line then) through the board host, the pty, the link and the judge to the first frame that
  shows the ball falling.
- ship.twin_beam_to_judged_drop_p50/p99_ms: from the beam to the controller taking the ball's
  judged drop: the fall, then the contract's `settle` (300 ms) after the last impact, waiting
  for a bounce, then the chain; ship.twin_drop_after_settle_p50/p99_ms is the chain's share
  (from the drop falling due to the controller having it).
- ship.twin_virtual_drops_per_s: the calibration run on the simulated clock (`twin --virtual`,
  300 balls): balls flown a second; ship.twin_virtual_cpu_ms_per_drop, the CPU time of a ball in
  this process and the board host's (what a busy neighbour cannot lengthen);
  ship.twin_virtual_judged_right_share, the share of the balls the judge got right.
- ship.firmware_*: the board's own loop (hardware/ship, compiled as flashed) under MicroPython's
  unix port here, through 10 s at rest and 10 s of flight: a step's mean, median and 99th
  percentile in microseconds; on a Pico (at PICO_SLOWER, an estimate) the share of its time the loop's
  work takes and what a p99 step leaves of the 3 ms of the shortest ball (negative: a ball that
  short could pass between two looks); the bytes a second it allocates at rest. The step figures
  take each step at its least time in five runs over the same samples (steps are timed by the
  wall clock: a pause the kernel gave a neighbour only adds). Left out where MicroPython is not installed.
"""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Mapping
from typing import Any

from .judge import Judge
from .link import ShipLink, clock_ms
from .protocol import encode
from .session import Inlet, Records, ShipSession

LINES = 200_000
IDLE_S = 10.0  # a few hundred lines: on a busy machine a shorter window mostly measures the neighbours
IDLE_LOOK_S = 2.0  # the app's look at SDL while nothing happens (ui.loop.waiting.WATCHED_IDLE_S)
BALLS = 200  # enough that the p99 is not simply the slowest one
BALL_GAP_S = 0.03
FLOOD_BALLS = 8000


def _pty() -> tuple[int, int, str]:
    import tty

    master, slave = os.openpty()
    tty.setraw(slave)
    return master, slave, os.ttyname(slave)


def lines_per_s(count: int = LINES) -> float:
    master, slave, path = _pty()
    session = ShipSession(queue.Queue(), clock=clock_ms)
    link = ShipLink(path, session.inlet(lambda: None), retry_s=0.01)  # judged on its thread
    link.start()
    opening = time.perf_counter() + 10
    while link.state != "open" and time.perf_counter() < opening:
        time.sleep(0.001)
    lines = [encode("TILT", seq, seq * 50, [seq % 300 - 150, 12, 40 + seq % 7]) + "\r\n" for seq in range(count)]
    data = "".join(lines).encode("ascii")

    def write() -> None:
        view = memoryview(data)
        while view:
            written = os.write(master, view[:65536])
            view = view[written:]

    writer = threading.Thread(target=write, daemon=True)
    started = time.perf_counter()
    writer.start()
    deadline = time.perf_counter() + 60
    while session.lines < count and time.perf_counter() < deadline:
        time.sleep(0.001)  # the app's path: the reader's thread judges each read as it arrives
    elapsed = time.perf_counter() - started
    assert not session.judge.counts, session.judge.counts  # every line judged good
    link.stop()
    writer.join(5)
    os.close(master)
    os.close(slave)
    return round(session.lines / elapsed)


def cpu_percent_at_link_rate(seconds: float = IDLE_S) -> float:
    return link_at_firmware_pace(seconds)["cpu_percent"]


def link_at_firmware_pace(seconds: float = IDLE_S) -> dict[str, float]:
    """The link and the judge in this process, as in the app, while another process writes
    into a pty what the firmware writes on its USB port for a resting ship, when it writes it
    (`firmware_usb_at_rest`): CPU in % of a core, and the reader's reads a second."""
    replayer = subprocess.Popen(
        [sys.executable, "-c", REPLAY, str(seconds + 2.0)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert replayer.stdin is not None and replayer.stdout is not None  # both piped
    try:
        link_path = replayer.stdout.readline().strip()
        woken = threading.Event()
        session = ShipSession(queue.Queue(), clock=clock_ms)
        link = ShipLink(link_path, session.inlet(woken.set), wake=woken.set)
        link.start()
        time.sleep(0.5)
        session.poll(None)
        reader = link._reader
        cpu0, wall0, lines0 = time.process_time(), time.perf_counter(), session.lines
        reads0 = reader.reads if reader is not None else 0
        while time.perf_counter() - wall0 < seconds:
            # as the app sleeps: until its idle look, the judge's next deadline, or its word
            woken.wait(min(IDLE_LOOK_S, session.due_in_ms() / 1000))
            woken.clear()
            session.poll(None)
        cpu = time.process_time() - cpu0
        wall = time.perf_counter() - wall0
        reads = (link._reader.reads if link._reader is not None else 0) - reads0
        link.stop()
        assert session.lines - lines0 >= 10 * seconds, "the firmware's lines did not come"
        assert not session.judge.counts, session.judge.counts  # every line good, none missing
    finally:
        replayer.stdin.close()
        replayer.wait(10)
    return {"cpu_percent": round(cpu / wall * 100, 3), "reads_per_s": round(reads / wall, 1)}


def firmware_usb_at_rest(seconds: float) -> list[tuple[int, bytes]]:
    """What the firmware's loop (hardware/ship, here under CPython) hands its USB port for a
    ship standing still, step by step as main.py drives it (a step a millisecond, a byte a
    poll, USB_STEP_BYTES a step): (board ms, the bytes of that step)."""
    from . import protocol
    from .board import FIRMWARE

    sys.modules.setdefault("protocol", protocol)  # what flash.sh puts on the board
    if str(FIRMWARE) not in sys.path:
        sys.path.append(str(FIRMWARE))
    # the firmware's own modules, on sys.path from here on only (MicroPython code, not annotated)
    import messages  # type: ignore[import-not-found]
    import ship  # type: ignore[import-not-found]

    class StandingIMU:  # a level ship with the sensor's noise, a few milli-g
        ax = ay = az = gx = gy = gz = 0
        n = 0

        def sample(self) -> None:
            self.n += 1
            wobble = (self.n * 7919) % 13 - 6
            self.ax, self.ay, self.az = 6 * wobble, -5 * wobble, 16384 + 8 * wobble
            self.gx, self.gy = 6 * wobble, 4 * wobble

    steps: list[tuple[int, bytes]] = []
    now = [0]

    def write(buf: bytearray, offset: int, n: int) -> None:
        if steps and steps[-1][0] == now[0]:
            steps[-1] = (now[0], steps[-1][1] + bytes(buf[offset : offset + n]))
        else:
            steps.append((now[0], bytes(buf[offset : offset + n])))

    out = messages.Outbox("CS-BENCH", [messages.Port(lambda: 1, write, USB_STEP_BYTES)])
    board = ship.Ship(out, StandingIMU(), lambda: False, lambda: (40, 40, 40, 120), lambda: 3900)
    board.start(0)
    for t in range(int(seconds * 1000)):
        now[0] = t
        board.step(t)
    return steps


USB_STEP_BYTES = 8  # hardware/ship/main.py: what the firmware hands its USB port in a loop step

# the writer, in a process of its own (its wake-ups a millisecond apart are not the link's)
REPLAY = """
import os, sys, time, tty
from companion.ship.bench import firmware_usb_at_rest
from companion.ship.sim import write_or_drop
steps = firmware_usb_at_rest(float(sys.argv[1]))
master, slave = os.openpty()
tty.setraw(slave)
os.set_blocking(master, False)
print(os.ttyname(slave), flush=True)
start = time.monotonic() + 0.3
for ms, data in steps:
    delay = start + ms / 1000 - time.monotonic()
    if delay > 0:
        time.sleep(delay)
    write_or_drop(master, data)
sys.stdin.read()
"""


PICO_PIECE = 8  # bytes the firmware hands its USB port per loop step (hardware/ship/main.py)


def reads_per_line_at_pico_pace(seconds: float = 5.0) -> float:
    master, slave, path = _pty()
    session = ShipSession(queue.Queue(), clock=clock_ms)
    link = ShipLink(path, session.inlet(lambda: None), retry_s=0.01)
    link.start()
    opening = time.perf_counter() + 10
    while link._reader is None or not link._reader.alive:
        if time.perf_counter() > opening:
            raise RuntimeError("the link did not open its pty")
        time.sleep(0.01)
    reader = link._reader
    count = int(seconds * 20)
    for seq in range(count):
        line = (encode("TILT", seq, seq * 50, [seq % 300 - 150, 12, 4]) + "\r\n").encode("ascii")
        for at in range(0, len(line), PICO_PIECE):
            os.write(master, line[at : at + PICO_PIECE])
            time.sleep(0.001)
        time.sleep(0.05 - 0.001 * (len(line) // PICO_PIECE + 1))
    time.sleep(0.2)
    reads, lines = reader.reads, session.lines
    link.stop()
    os.close(master)
    os.close(slave)
    assert lines == count, (lines, count)
    return round(reads / lines, 2)


class _TimedInlet:
    """The session's inlet, with the reader thread's CPU time for each ball's line kept by the
    ball's order (the bench's own wrapper: the app puts straight into the session's)."""

    def __init__(self, inlet: Inlet, session: ShipSession):
        self.inlet, self.session = inlet, session
        self.cpu: dict[int, float] = {}

    def put(self, records: Records) -> bool:
        started = time.thread_time()
        woke = self.inlet.put(records)
        spent = time.thread_time() - started
        for ball in self.session.judge.balls:
            self.cpu.setdefault(ball.order, spent)
        return woke


def line_to_frame(balls: int = BALLS) -> dict[str, float]:
    """From each BALL line written into the pty to the flip of the first frame that shows the
    ball falling, in ms: its p99 (`p99`), and the CPU time of the two threads' work for it at
    the p99 (`cpu_p99`: the reader's read, parse and judgement, and the loop's pass to the flip),
    which is what the scheduler of a shared machine cannot add to."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from ..ui.loop.ship_view import ShipPanel
    from ..ui.screens.cloudship import demo_game
    from ..ui.tools.harness import Harness

    master, slave, path = _pty()
    h = Harness((800, 480))
    app = h.app
    app.warm_up()  # as the app does while idle, long before a game's first ball
    session = ShipSession(queue.Queue(), clock=clock_ms)
    inlet = _TimedInlet(session.inlet(app.wake), session)
    link = ShipLink(path, inlet, wake=app.wake)
    link.start()
    app.hardware.ship = ShipPanel(session, link=link)  # type: ignore[no-untyped-call]  # ShipPanel.__init__ has no annotations
    session.attach(app.controller)
    setup, _ = demo_game()
    h.start_game(setup)
    app.controller.submit({"act": "roll", "dice": ["yellow", "purple", "white"]})
    written: list[float] = []
    shown: dict[int, tuple[float, float]] = {}  # ball order -> flip time, the pass's CPU to it
    pump = app.pump

    def pump_and_note() -> None:
        pass_cpu = time.thread_time()
        pump()
        flipped_at, flipped_cpu = app.flipped
        if flipped_cpu < pass_cpu:
            return  # no frame this pass
        for ball in session.judge.balls:
            if ball.bed is None and ball.order not in shown:
                shown[ball.order] = (flipped_at, flipped_cpu - pass_cpu)

    def write_balls() -> None:
        time.sleep(0.3)
        for seq in range(balls):
            line = (encode("BALL", seq, seq, ["rain"]) + "\r\n").encode("ascii")
            written.append(time.perf_counter())
            os.write(master, line)
            time.sleep(BALL_GAP_S)

    writer = threading.Thread(target=write_balls, daemon=True)
    writer.start()
    end = time.perf_counter() + 30
    while (len(shown) < balls) and time.perf_counter() < end:
        pump_and_note()
        app.wait()
    writer.join(5)
    link.stop()
    os.close(master)
    os.close(slave)
    count = min(len(written), len(shown))
    if count < balls:
        return {"p99": float("inf"), "cpu_p99": float("inf")}
    delays = [(shown[i][0] - written[i]) * 1000 for i in range(count)]
    cpu = [(shown[i][1] + inlet.cpu.get(i, 0.0)) * 1000 for i in range(count)]
    return {"p99": percentiles(delays)[1], "cpu_p99": percentiles(cpu)[1]}


def judge_ball_flood_lines_per_s(count: int = FLOOD_BALLS, rounds: int = 3) -> float:
    lines = [encode("BALL", seq % 65536, seq, ["rain" if seq % 3 else "hail"]) for seq in range(count)]
    best = float("inf")
    for _ in range(rounds):
        judge = Judge()
        started = time.perf_counter()
        for t, line in enumerate(lines):
            judge.ship(t, line)
        judge.finish()
        best = min(best, time.perf_counter() - started)
    assert judge.counts.get("too_many_balls"), "the flood was not more than the ship holds"
    return round(count / best)


TWIN_BALLS = 30


def percentiles(values: list[float]) -> tuple[float, float]:
    ordered = sorted(values)
    return (round(ordered[len(ordered) // 2], 2), round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))], 2))


def twin_latencies(balls: int = TWIN_BALLS) -> dict[str, tuple[float, float]]:
    """p50 and p99 (ms) of the twin's balls, each through the whole chain into one bed:

    - "frame": from its beam clearing to the first frame that shows it falling;
    - "drop": from its beam clearing to the controller taking its judged drop (the fall, the
      contract's `settle` after its last impact waiting for a bounce, then the chain);
    - "after_settle": from the moment the contract has the drop due (last impact + settle) to
      the controller taking it: the chain's own share of "drop".
    """
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    from gpiozero.pins.mock import MockFactory

    from ..config import Config
    from ..ui.loop.ship_view import ShipPanel
    from ..ui.screens.cloudship import demo_game
    from ..ui.tools.harness import Harness

    h = Harness((800, 480))
    app = h.app
    panel = ShipPanel.open(
        Config(ship_port="sim"), app.wake, True, pin_factory=MockFactory(), flight_log=None, sim_options={"seed": 9}
    )
    assert panel is not None  # "sim" is never off
    app.hardware.ship = panel
    twin, session = panel.simulator, panel.session
    session.attach(app.controller)
    setup, _ = demo_game()
    h.start_game(setup)
    app.controller.submit({"act": "roll", "dice": ["yellow", "purple", "white"]})
    shown: dict[int, float] = {}  # judge's ball order (its BALL line's) -> first frame showing it
    dropped: list[float] = []  # when the controller took each judged drop
    draw, submit = app.draw, app.controller.submit

    def draw_and_note() -> None:
        draw()
        now = time.monotonic()
        for ball in session.judge.balls:
            if ball.bed is None and ball.order not in shown:
                shown[ball.order] = now

    def submit_and_note(action: Mapping[str, Any], *args: Any, **kwargs: Any) -> Any:
        if action.get("act") == "drop":
            dropped.append(time.monotonic())
        return submit(action, *args, **kwargs)

    # timed on this one controller: each call, as the app makes it
    app.draw, app.controller.submit = draw_and_note, submit_and_note  # type: ignore[method-assign]
    try:
        twin.over("yellow")
        for _ in range(balls):
            twin.release("rain", "yellow")
        end = time.monotonic() + 8 * balls
        while (len(shown) < balls or len(dropped) < balls) and time.monotonic() < end:
            app.pump()
            app.wait()
        with twin.lock:
            stories = {s["id"]: s for s in twin.model.truth if s["through"] == "hole"}
            lines = [ball_id for _t, ball_id in twin.beams]  # the BALL lines in the order written
            struck = list(twin.struck)
    finally:
        panel.close()
    board_s = twin._started  # board ms 0, on the monotonic clock
    frame, drop, after = [], [], []
    for order, ball_id in enumerate(lines):
        story = stories.get(ball_id)
        if story is None or order not in shown:
            continue
        beam = board_s + story["beam_clear"] / 1000
        frame.append((shown[order] - beam) * 1000)
        if order < len(dropped):  # one bed, one ball at a time: drops in the order of the lines
            drop.append((dropped[order] - beam) * 1000)
            impacts = [t for t, _bed, b in struck if b == ball_id]
            if impacts:  # struck is stamped on the Pi's clock (ms of time.monotonic)
                after.append(dropped[order] * 1000 - (max(impacts) + session.judge.timings.settle))
    if len(frame) < balls or len(drop) < balls:
        return {"frame": (float("inf"),) * 2, "drop": (float("inf"),) * 2, "after_settle": (float("inf"),) * 2}
    return {"frame": percentiles(frame), "drop": percentiles(drop), "after_settle": percentiles(after)}


def twin_beam_to_frame_ms(balls: int = TWIN_BALLS) -> tuple[float, float]:
    """p50 and p99 of the twin's beam-to-frame delay, in ms."""
    return twin_latencies(balls)["frame"]


TWIN_VIRTUAL_DROPS = 300


def twin_virtual(drops: int = TWIN_VIRTUAL_DROPS, seed: int = 0) -> dict[str, float]:
    """The calibration run on the simulated clock (`twin --virtual`, the settings' default
    timings): balls flown a second of the wall clock, the CPU time a ball takes in this process
    and the board's (its flash compiled and levelled included: a run's fixed cost), and the
    share of the balls judged right."""
    import resource

    from .twin.calibrate import CalibrationRun

    before = resource.getrusage(resource.RUSAGE_CHILDREN)  # the board host, once it has stopped
    cpu, wall = time.process_time(), time.perf_counter()
    summary = CalibrationRun(drops, seed=seed, virtual=True).fly()["summary"]
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    board = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    flown = max(1, summary["drops"])
    return {
        "ship.twin_virtual_drops_per_s": round(flown / wall, 1),
        "ship.twin_virtual_cpu_ms_per_drop": round((cpu + board) * 1000 / flown, 1),
        "ship.twin_virtual_judged_right_share": round(summary["judged_right"] / flown, 4),
    }


def bench() -> dict[str, float]:
    return {
        "ship.lines_per_s": lines_per_s(),
        **{f"ship.{name}": value for name, value in _at_rest().items()},
        "ship.reads_per_line_at_pico_pace": reads_per_line_at_pico_pace(),
        **_line_to_frame(),
        "ship.judge_ball_flood_lines_per_s": judge_ball_flood_lines_per_s(),
        **twin_figures(),
        **twin_virtual(),
        **firmware_figures(),
    }


def _line_to_frame() -> dict[str, float]:
    figures = line_to_frame()
    return {"ship.line_to_frame_p99_ms": figures["p99"], "ship.line_to_frame_cpu_p99_ms": figures["cpu_p99"]}


def _at_rest() -> dict[str, float]:
    figures = link_at_firmware_pace()
    return {"cpu_percent_at_link_rate": figures["cpu_percent"], "reads_per_s_at_rest": figures["reads_per_s"]}


def twin_figures() -> dict[str, float]:
    figures = {}
    for name, (p50, p99) in twin_latencies().items():
        stem = {"frame": "beam_to_frame", "drop": "beam_to_judged_drop", "after_settle": "drop_after_settle"}[name]
        figures[f"ship.twin_{stem}_p50_ms"] = p50
        figures[f"ship.twin_{stem}_p99_ms"] = p99
    return figures


# -- the firmware's loop, on MicroPython ----------------------------------------------------------

# How much slower the Pico runs MicroPython than this machine's unix port: an RP2040 at 125 MHz
# (a Cortex-M0+, about a microsecond a bytecode) against one desktop core (tens of nanoseconds)
# is taken as 60 times. The Pico figures are estimates from that factor, not measured on a
# Pico; pessimistic ones, as the steps here include the board host's pipes (a system call per
# USB write, where the Pico copies into its USB buffer) on a machine shared with others.
PICO_SLOWER = 60
PICO_STEP_US = 1000  # the loop sleeps a millisecond between two steps
PICO_STEP_BUDGET_US = 3000  # balls.MIN_MS: a step must stay shorter than the shortest ball


FIRMWARE_RUNS = 5  # each step's least time of these runs: a neighbour's burst only adds


def firmware_figures(seconds: int = 20, runs: int = FIRMWARE_RUNS) -> dict[str, float]:
    """The real firmware (compiled as flashed) under MicroPython here, through a flight: each
    loop step's time, what it allocates at rest, and what that leaves of a Pico's millisecond.

    A step is timed by the wall clock (MicroPython's unix port has no CPU clock), so on a shared
    machine a step the kernel paused reads long: the run is made `runs` times over the same
    samples (the same steps, doing the same work) and each step counts with its least time."""
    from .board import Board, Sample

    if Board.available("micropython") is not None:
        return {}
    ms = seconds * 1000
    samples = []
    for t in range(ms):
        flying = ms // 2 <= t  # the second half: tilting and shaking, a ball every second
        wobble = ((t * 7919) % 13 - 6) * (0.01 if flying else 0.0005)
        beam = flying and t % 1000 < 6
        mark = "start" if t == ms // 10 else "end" if t == ms // 2 - 1 else None
        samples.append(
            Sample(
                t,
                accel=(0.1 * flying + wobble, -wobble, 1.0 + wobble),
                gyro=(30 * wobble, -20 * wobble, 0.0),
                beam=beam,
                rgbc=(200, 300, 480, 900) if beam else (40, 40, 40, 120),
                measure=mark,
            )
        )
    reports, steps = [], []
    for _ in range(max(1, runs)):
        run = Board.run(samples, "micropython", compiled=True, steps_log=len(samples))
        if run.returncode != 0 or not run.report.get("steps") or not run.steps:
            return {}
        reports.append(run.report)
        steps.append(run.steps)
    report = reports[0]
    # the same samples give the same steps in each run: each step's least time is its own
    least = sorted(min(times) for times in zip(*steps))
    mean = sum(least) / len(least)
    p50 = least[len(least) // 2]
    p99 = least[min(len(least) - 1, int(len(least) * 0.99))]
    return {
        "ship.firmware_step_mean_us": round(mean, 2),
        "ship.firmware_step_median_us": p50,
        "ship.firmware_step_p99_us": p99,
        # the Pico's share of its time in the loop's work (the rest: the 1 ms sleeps), from
        # the median step (a shared machine's pauses make the mean the neighbours' figure)
        "ship.firmware_pico_busy_percent": round(p50 * PICO_SLOWER / (PICO_STEP_US + p50 * PICO_SLOWER) * 100, 1),
        # what a p99 step leaves of the shortest ball's time on a Pico
        "ship.firmware_pico_p99_step_left_of_3ms_us": round(PICO_STEP_BUDGET_US - p99 * PICO_SLOWER),
        "ship.firmware_alloc_at_rest_bytes_per_s": round(report["allocated"] * 1000 / report["measured_ms"]),
    }
