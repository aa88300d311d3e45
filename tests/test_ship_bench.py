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


def test_the_twins_beam_to_frame_is_measured_for_every_ball():
    p50, p99 = bench.twin_beam_to_frame_ms(balls=2)
    assert 0 < p50 <= p99 < 10_000
