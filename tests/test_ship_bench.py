"""The ship's bench figures run and report sensible numbers (speed is measured in
`cloud-companion bench`, never asserted here)."""

from companion.ship import bench
from companion.ship.protocol import decode


def test_lines_through_a_pty_are_counted():
    assert bench.lines_per_s(count=2000) > 0


def test_cpu_at_link_rate_is_measured_at_the_real_firmwares_pace():
    figures = bench.link_at_firmware_pace(seconds=2.5)
    assert 0 <= figures["cpu_percent"] < 100 and figures["reads_per_s"] > 0


def test_the_replayed_usb_bytes_are_the_firmwares_own_a_second_at_a_time():
    steps = bench.firmware_usb_at_rest(3.2)
    data = b"".join(chunk for _ms, chunk in steps)
    lines = data.decode().split("\r\n")[:-1]
    assert [decode(line)[1] for line in lines] == list(range(len(lines)))  # every line, in order
    assert all(len(chunk) <= bench.USB_STEP_BYTES for _ms, chunk in steps)  # as main.py hands them over
    # the HELLO and the first lines at once, then a resting ship's second of lines with each BEAT
    # (written from the step after the one that made the BEAT)
    pauses = [b for (a, _), (b, _) in zip(steps, steps[1:]) if b - a > 100]
    assert [p - 1000 * k for k, p in enumerate(pauses, 1)] == [1, 1, 1]


def test_reads_per_line_at_the_picos_pace_are_counted():
    assert 1 <= bench.reads_per_line_at_pico_pace(seconds=0.5) <= 6


def test_line_to_frame_is_measured_for_every_ball():
    figures = bench.line_to_frame(balls=3)
    assert 0 < figures["p99"] < 10_000
    # the two threads' CPU for a ball is part of its wall time, and not nothing
    assert 0 < figures["cpu_p99"] < 10_000


def test_a_flood_of_balls_is_judged_and_counted():
    assert bench.judge_ball_flood_lines_per_s(count=500, rounds=1) > 0


def test_the_twins_beam_to_frame_and_to_judged_drop_are_measured_for_every_ball():
    figures = bench.twin_latencies(balls=2)
    frame, drop, after = figures["frame"], figures["drop"], figures["after_settle"]
    assert 0 < frame[0] <= frame[1] < 10_000
    # the judged drop waits for the fall and the contract's settle after the last impact
    assert 300 < drop[0] <= drop[1] < 10_000 and drop[0] > frame[1]
    assert after[0] <= after[1] < 10_000


def test_the_calibration_run_on_the_simulated_clock_is_measured():
    figures = bench.twin_virtual(drops=2)
    assert figures["ship.twin_virtual_drops_per_s"] > 0 and figures["ship.twin_virtual_cpu_ms_per_drop"] > 0
    assert figures["ship.twin_virtual_judged_right_share"] == 1.0  # two balls into their beds, judged


def test_the_benchs_idle_look_is_the_apps():
    from companion.ui.loop.waiting import WATCHED_IDLE_S

    assert bench.IDLE_LOOK_S == WATCHED_IDLE_S  # the figure stands for the app's own sleep
