"""The ship's bench figures run and report sensible numbers (speed is measured in
`cloud-companion bench`, never asserted here)."""

from companion.ship import bench


def test_lines_through_a_pty_are_counted():
    assert bench.lines_per_s(count=2000) > 0


def test_cpu_at_link_rate_is_measured_against_the_real_simulator():
    assert 0 <= bench.cpu_percent_at_link_rate(seconds=1.0) < 100


def test_reads_per_line_at_the_picos_pace_are_counted():
    assert 1 <= bench.reads_per_line_at_pico_pace(seconds=0.5) <= 6


def test_line_to_frame_is_measured_for_every_ball():
    assert 0 < bench.line_to_frame_p99_ms(balls=3) < 10_000


def test_a_flood_of_balls_is_judged_and_counted():
    assert bench.judge_ball_flood_lines_per_s(count=500, rounds=1) > 0


def test_the_twins_beam_to_frame_and_to_judged_drop_are_measured_for_every_ball():
    figures = bench.twin_latencies(balls=2)
    frame, drop, after = figures["frame"], figures["drop"], figures["after_settle"]
    assert 0 < frame[0] <= frame[1] < 10_000
    # the judged drop waits for the fall and the contract's settle after the last impact
    assert 300 < drop[0] <= drop[1] < 10_000 and drop[0] > frame[1]
    assert after[0] <= after[1] < 10_000
