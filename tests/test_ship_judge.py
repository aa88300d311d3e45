"""The drop judge, rule by rule, as section 2 of the ship contract writes them."""

from hypothesis import given, settings, strategies as st

from companion.ship.judge import Judge, Timings
from companion.ship.records import judge_records
from tests.shipstreams import Board, acts, bed, flight, judged, port, ship, tilts

B = Board()
BALL_RAIN = B.ball("rain")


def drop(t, ball, where):
    return {"t": t, "act": "drop", "ball": ball, "bed": where}


# -- balls ---------------------------------------------------------------------------------------


def test_a_ball_lands_and_is_judged_when_it_has_settled():
    b = Board()
    assert acts([ship(1000, b.ball("rain")), bed(1180, "yellow")]) == [drop(1480, "rain", "yellow")]


def test_fall_time_limits_are_inclusive():
    for fall, expected in ((29, "no_hole"), (30, "drop"), (800, "drop"), (801, "no_hole")):
        b = Board()
        out = acts([ship(1000, b.ball("hail")), bed(1000 + fall, "blue")])
        kinds = [r.get("act") or r.get("notice") for r in out]
        assert expected in kinds, (fall, out)
        if expected == "no_hole":
            assert {"t": 1800, "notice": "outside", "ball": "hail"} in out


def test_a_ball_that_never_lands_fell_outside():
    b = Board()
    assert acts([ship(1000, b.ball("hail"))]) == [{"t": 1800, "notice": "outside", "ball": "hail"}]


def test_an_impact_with_no_ball_did_not_come_through_the_hole():
    assert acts([bed(500, "purple")]) == [{"t": 500, "notice": "no_hole", "bed": "purple"}]


def test_the_same_bed_ringing_twice_is_one_ball_and_keeps_its_first_impact():
    b = Board()
    out = acts([ship(1000, b.ball()), bed(1200, "white"), bed(1210, "white"), bed(1450, "white")])
    assert out == [drop(1500, "rain", "white")]


def test_a_bounce_moves_the_ball_to_where_it_ends():
    b = Board()
    out = acts([ship(1000, b.ball()), bed(1200, "yellow"), bed(1300, "purple"), bed(1550, "blue")])
    assert out == [drop(1850, "rain", "blue")]


def test_detectors_ringing_together_are_not_a_bounce():
    b = Board()
    out = acts([ship(1000, b.ball()), bed(1200, "yellow"), bed(1239, "purple")])
    assert out == [drop(1500, "rain", "yellow")]
    b = Board()
    out = acts([ship(1000, b.ball()), bed(1200, "yellow"), bed(1240, "purple")])
    assert out == [drop(1540, "rain", "purple")]


def test_an_impact_after_the_settle_time_is_no_hole():
    b = Board()
    out = acts([ship(1000, b.ball()), bed(1200, "yellow"), bed(1500, "purple")])
    assert out == [drop(1800, "rain", "purple")]  # at exactly SETTLE it is still a bounce
    b = Board()
    out = acts([ship(1000, b.ball()), bed(1200, "yellow"), bed(1501, "purple")])
    assert out == [drop(1500, "rain", "yellow"), {"t": 1501, "notice": "no_hole", "bed": "purple"}]


def test_two_balls_in_quick_succession_land_in_order():
    b = Board()
    out = acts([ship(1000, b.ball("rain")), ship(1050, b.ball("hail")), bed(1200, "yellow"), bed(1260, "white")])
    assert out == [drop(1500, "rain", "yellow"), drop(1560, "hail", "white")]


def test_a_falling_ball_comes_before_a_bounce():
    b = Board()
    out = acts([ship(1000, b.ball("rain")), bed(1200, "yellow"), ship(1250, b.ball("hail")), bed(1300, "purple")])
    assert out == [drop(1500, "rain", "yellow"), drop(1600, "hail", "purple")]


def test_the_bounce_goes_to_the_latest_impact_and_on_a_tie_the_ball_opened_last():
    b = Board()
    out = acts(
        [
            ship(1000, b.ball("rain")),
            ship(1000, b.ball("hail")),
            bed(1100, "yellow"),
            bed(1100, "white"),
            bed(1200, "blue"),
        ]
    )
    # both settle at 1100; the hail (opened last) bounces to blue
    assert out == [drop(1400, "rain", "yellow"), drop(1500, "hail", "blue")]
    b = Board()
    out = acts(
        [
            ship(1000, b.ball("rain")),
            ship(1000, b.ball("hail")),
            bed(1100, "yellow"),
            bed(1150, "white"),
            bed(1200, "yellow"),
        ]
    )
    # a recent ball is in yellow already: nothing changes
    assert out == [drop(1400, "rain", "yellow"), drop(1450, "hail", "white")]


def test_deadlines_at_one_time_go_in_the_order_the_balls_came():
    b = Board()
    out = acts([ship(1000, b.ball("hail")), ship(1050, b.ball("rain")), bed(1100, "yellow"), bed(1100, "white")])
    assert out == [drop(1400, "hail", "yellow"), drop(1400, "rain", "white")]
    b = Board()
    out = acts([ship(1000, b.ball("rain")), ship(1050, b.ball("hail")), bed(1100, "yellow"), bed(1100, "white")])
    assert out == [drop(1400, "rain", "yellow"), drop(1400, "hail", "white")]
    # a drop and an outside at one time (a long settle time makes it possible)
    b = Board()
    out = acts([ship(850, b.ball("rain")), bed(900, "blue"), ship(1000, b.ball("hail"))], Timings(settle=900))
    assert out == [drop(1800, "rain", "blue"), {"t": 1800, "notice": "outside", "ball": "hail"}]


def test_records_at_a_deadline_come_before_it():
    b = Board()
    # the impact at 1800 is exactly MAX_FALL after the opening: it still lands
    out = acts([ship(1000, b.ball()), bed(1800, "yellow")])
    assert out == [drop(2100, "rain", "yellow")]


def test_balls_are_judged_outside_a_flight_and_in_ignore_mode_beds_still_count():
    b = Board()
    assert acts([ship(0, b.ball()), bed(100, "blue"), flight(150, "end")]) == [drop(400, "rain", "blue")]


def test_custom_timings():
    b = Board()
    t = Timings(min_fall=10, max_fall=100, settle=50)
    assert acts([ship(0, b.ball()), bed(20, "blue")], t) == [drop(70, "rain", "blue")]


# -- flight and landing ---------------------------------------------------------------------------


def flown_then_rest(b, start=1000):
    """A flight: 25 moving samples, then calm samples for over two seconds."""
    return [flight(start, "start")] + tilts(b, start + 50, start + 1250, 50) + tilts(b, start + 1300, start + 3400, 2)


def test_a_flight_that_rests_for_two_seconds_lands():
    b = Board()
    out = acts(flown_then_rest(b))
    assert out == [{"t": 1000 + 3300, "act": "land"}]  # the rest began at 2300


def test_loading_by_hand_is_not_a_flight():
    b = Board()
    records = [flight(1000, "start")] + tilts(b, 1050, 1950, 50)[:19] + tilts(b, 2000, 5000, 2)
    assert acts(records) == []  # 19 moving samples: not flown


def test_moving_samples_count_in_all_since_the_flight_started():
    b = Board()
    records = [flight(0, "start")]
    t = 50
    for _ in range(20):  # moving samples one at a time between calm ones
        records += [ship(t, b.tilt(40)), ship(t + 50, b.tilt(15))]
        t += 100
    records += tilts(b, t, t + 2000, 0)
    assert acts(records) == [{"t": t + 2000, "act": "land"}]


def test_a_land_waits_for_the_balls_in_the_air():
    b = Board()
    records = flown_then_rest(b)
    records += [ship(4200, b.ball()), bed(4400, "purple")]
    # land due at 4300 while the ball settles; judged at 4700, land right after it
    assert acts(records) == [drop(4700, "rain", "purple"), {"t": 4700, "act": "land"}]


def test_a_moving_sample_cancels_a_due_land():
    b = Board()
    records = flown_then_rest(b) + [ship(4200, b.ball()), ship(4350, b.tilt(50)), bed(4400, "white")]
    assert acts(records) == [drop(4700, "rain", "white")]


def test_a_flight_end_or_restart_cancels_a_due_land_and_the_rest():
    for state in ("end", "start"):
        b = Board()
        records = flown_then_rest(b) + [ship(4200, b.ball()), flight(4350, state), bed(4400, "white")]
        assert acts(records) == [drop(4700, "rain", "white")], state


def test_a_given_land_ends_the_flight():
    b = Board()
    records = flown_then_rest(b) + tilts(b, 4400, 8000, 0)
    assert acts(records) == [{"t": 4300, "act": "land"}]


def test_any_tilt_over_the_rest_motion_ends_a_rest():
    b = Board()
    records = (
        [flight(0, "start")]
        + tilts(b, 50, 1250, 50)
        + tilts(b, 1300, 2500, 2)
        + [ship(2550, b.tilt(10))]
        + tilts(b, 2600, 4700, 2)
    )
    assert acts(records) == [{"t": 4600, "act": "land"}]


def test_tilts_outside_a_flight_do_nothing():
    b = Board()
    records = tilts(b, 0, 1250, 50) + [flight(1260, "start")] + tilts(b, 1300, 4000, 0)
    assert acts(records) == []


def test_lost_and_silent_end_a_rest():
    b = Board()
    records = (
        [flight(0, "start")]
        + tilts(b, 50, 1250, 50)
        + tilts(b, 1300, 2000, 0)
        + [port(2100, "lost"), port(2150, "back")]
        + tilts(b, 2200, 4300, 0)
    )
    # the rest restarts at 2200 (the SEQ count was cleared by back: no gap)
    assert acts(records) == [{"t": 4200, "act": "land"}]


# -- the link ---------------------------------------------------------------------------------------


def test_rejections_in_the_contract_order():
    out = judged(
        [ship(1, "$BALL,1,2,rain*00"), ship(2, "garbage"), ship(3, "$" + "A" * 85), ship(4, "$BALL,1,2,rain*0\x01")]
    )
    assert [r["why"] for r in out] == ["checksum", "format", "too_long", "format"]
    assert all(r["link"] == "rejected" for r in out)


def test_a_repeat_and_a_gap():
    b = Board(5)
    a = b.tilt(0)
    b.seq = 9
    c = b.tilt(0)
    out = judged([ship(1, a), ship(2, a), ship(3, c)])
    assert out == [{"t": 2, "link": "rejected", "why": "repeat"}, {"t": 3, "link": "gap", "missing": 3}]


def test_seq_wraps_from_65535_to_0():
    b = Board(65534)
    lines = [b.tilt(0) for _ in range(4)]
    assert judged([ship(i, line) for i, line in enumerate(lines)]) == []
    b = Board(65535)
    first = b.tilt(0)
    b.seq = 2
    assert judged([ship(0, first), ship(1, b.tilt(0))]) == [{"t": 1, "link": "gap", "missing": 2}]


def test_a_hello_sets_the_count_and_is_never_a_gap_or_repeat():
    b = Board(40)
    records = [ship(0, b.tilt(0)), ship(1, b.hello()), ship(2, b.tilt(0)), ship(3, Board(0).hello())]
    assert judged(records) == []


def test_a_ball_line_is_rejected_when_repeated_so_no_second_ball():
    b = Board()
    line = b.ball()
    out = acts([ship(1000, line), ship(1001, line), bed(1100, "blue"), bed(1300, "yellow")])
    assert out == [drop(1600, "rain", "yellow")]


def test_another_protocol_version_is_ignored_until_a_hello_1():
    b = Board()
    records = [
        ship(0, b.hello("2")),
        ship(10, b.ball()),
        ship(20, b.line("ERR", "imu", "x")),
        bed(100, "blue"),
        ship(200, Board(3).hello("01")),
        ship(300, b.hello("1")),
        ship(400, b.ball("hail")),
        bed(500, "white"),
    ]
    assert judged(records) == [
        {"t": 0, "link": "version", "proto": "2"},
        {"t": 100, "notice": "no_hole", "bed": "blue"},
        {"t": 200, "link": "version", "proto": "01"},
        drop(800, "hail", "white"),
    ]


def test_ignore_mode_still_rejects_and_checks_repeats():
    b = Board()
    hello = b.hello("2")
    records = [ship(0, hello), ship(1, "$X*00"), ship(2, Board(0).tilt(0))]
    assert judged(records) == [
        {"t": 0, "link": "version", "proto": "2"},
        {"t": 1, "link": "rejected", "why": "checksum"},
        {"t": 2, "link": "rejected", "why": "repeat"},
    ]


def test_err_reports_board_and_beat_nothing():
    b = Board()
    assert judged([ship(5, b.line("ERR", "imu", "no answer")), ship(6, b.line("BEAT", 3900))]) == [
        {"t": 5, "link": "board", "code": "imu", "text": "no answer"}
    ]


def test_silence_and_heard():
    b = Board()
    out = judged([ship(1000, b.tilt(0)), ship(4000, b.tilt(0)), ship(8000, b.tilt(0)), ship(8100, b.tilt(0))])
    assert out == [{"t": 7000, "link": "silent"}, {"t": 8000, "link": "heard"}]


def test_the_silence_clock_starts_at_the_first_record_and_rejected_lines_do_not_restart_it():
    out = judged([bed(0, "blue"), ship(2000, "junk"), bed(3500, "blue")])
    assert out == [
        {"t": 0, "notice": "no_hole", "bed": "blue"},
        {"t": 2000, "link": "rejected", "why": "format"},
        {"t": 3000, "link": "silent"},
        {"t": 3500, "notice": "no_hole", "bed": "blue"},
    ]


def test_a_deadline_at_the_last_records_time_is_the_run_on_so_no_silent():
    assert judged([flight(0, "start"), flight(3000, "end")]) == []
    assert judged([flight(0, "start"), flight(3001, "end")]) == [{"t": 3000, "link": "silent"}]


def test_no_silence_while_the_port_is_lost_and_back_restarts_the_clock():
    b = Board()
    out = judged(
        [ship(0, b.tilt(0)), port(1000, "lost"), port(9000, "back"), ship(11000, b.tilt(0)), ship(15000, b.tilt(0))]
    )
    assert out == [
        {"t": 1000, "link": "lost"},
        {"t": 9000, "link": "back"},
        {"t": 14000, "link": "silent"},
        {"t": 15000, "link": "heard"},
    ]


def test_back_ends_a_silence_without_heard_and_clears_the_count():
    b = Board(100)
    first = b.tilt(0)
    b.seq = 500
    out = judged([ship(0, first), port(4000, "back"), ship(4100, b.tilt(0))])
    assert out == [{"t": 3000, "link": "silent"}, {"t": 4000, "link": "back"}]


def test_lines_while_lost_are_read_and_back_without_lost_is_reported():
    b = Board()
    out = judged([port(0, "lost"), ship(10, b.ball()), bed(200, "blue"), port(300, "back"), port(400, "back")])
    assert out == [
        {"t": 0, "link": "lost"},
        {"t": 300, "link": "back"},
        {"t": 400, "link": "back"},
        drop(500, "rain", "blue"),
    ]


def test_a_good_line_reports_heard_then_gap_then_its_own():
    b = Board()
    first = b.tilt(0)
    b.seq = 10
    out = judged([ship(0, first), ship(5000, b.line("ERR", "battery", "low"))])
    assert out == [
        {"t": 3000, "link": "silent"},
        {"t": 5000, "link": "heard"},
        {"t": 5000, "link": "gap", "missing": 9},
        {"t": 5000, "link": "board", "code": "battery", "text": "low"},
    ]


def test_silent_comes_after_balls_at_the_same_time():
    b = Board()
    out = judged([ship(0, b.ball()), bed(2700, "blue"), bed(3200, "blue")])
    # the ball fell outside at 800; 2700 is no_hole; 3000 silent
    assert [r.get("link") or r.get("notice") for r in out] == ["outside", "no_hole", "silent", "no_hole"]
    b = Board()
    out = judged([ship(0, b.tilt(0)), ship(2200, b.ball()), bed(2700, "blue"), bed(3100, "blue")])
    # the ball is judged at 3000 (2700 + SETTLE), silent at 5200 never (run-on)
    assert out[0] == drop(3000, "rain", "blue")


def test_a_land_right_after_the_last_ball_comes_before_silent():
    b = Board()
    records = (
        [flight(0, "start")]
        + tilts(b, 50, 1250, 50)
        + tilts(b, 1300, 3150, 2)
        + [ship(3200, b.ball())]
        + tilts(b, 3250, 3300, 2)
    )
    # land due at 3300; the ball is outside at 4000; silence would be at 6300
    records += [bed(6500, "yellow")]
    out = judged(records)
    assert out[:2] == [{"t": 4000, "notice": "outside", "ball": "rain"}, {"t": 4000, "act": "land"}]


# -- properties -------------------------------------------------------------------------------------

EVENTS = st.one_of(
    st.tuples(st.just("ball"), st.sampled_from(["rain", "hail"])),
    st.tuples(st.just("bed"), st.sampled_from(["yellow", "purple", "white", "blue"])),
    st.tuples(st.just("tilt"), st.integers(0, 60)),
    st.tuples(st.just("port"), st.sampled_from(["lost", "back"])),
    st.tuples(st.just("flight"), st.sampled_from(["start", "end"])),
    st.tuples(st.just("junk"), st.text(max_size=20)),
)


@st.composite
def streams(draw):
    b = Board()
    t = 0
    records = []
    for kind, value in draw(st.lists(st.tuples(st.integers(0, 900), EVENTS), max_size=60)):
        step, (kind, value) = kind, value
        t += step
        if kind == "ball":
            records.append(ship(t, b.ball(value)))
        elif kind == "tilt":
            records.append(ship(t, b.tilt(value)))
        elif kind == "junk":
            records.append(ship(t, value))
        else:
            records.append((t, kind, value))
    return records


@settings(max_examples=300, deadline=None)
@given(streams())
def test_never_a_phantom_drop_and_always_in_time_order(records):
    out = list(judge_records(records, Judge()))
    times = [r["t"] for r in out]
    assert times == sorted(times)
    balls = [value for t, key, value in records if key == "ship" and ",BALL," in "," + value[1:]]
    drops = [r for r in out if r.get("act") == "drop"]
    outside = [r for r in out if r.get("notice") == "outside"]
    # every ball is judged once, a drop or outside, and nothing else becomes a drop
    assert len(drops) + len(outside) == len(balls)
    for d in drops:
        opened = [t for t, key, value in records if key == "ship" and "BALL" in value and t < d["t"]]
        assert opened, d
    lands = [r for r in out if r.get("act") == "land"]
    assert len(lands) <= sum(1 for r in records if r[1:] == ("flight", "start"))


def test_a_drop_and_silent_at_the_same_time_the_drop_first():
    b = Board()
    records = [ship(0, b.ball())]  # the last good line: silent is due at 3000
    beds = ["yellow", "purple"]
    for i, t in enumerate(range(100, 2701, 200)):  # bouncing between two beds until 2700
        records.append(bed(t, beds[i % 2]))
    records.append(bed(3100, "blue"))
    out = judged(records)
    assert out[-3:] == [
        drop(3000, "rain", "purple"),
        {"t": 3000, "link": "silent"},
        {"t": 3100, "notice": "no_hole", "bed": "blue"},
    ]


def test_a_rest_goes_on_through_ignore_mode():
    b = Board()
    records = [flight(0, "start")] + tilts(b, 50, 1250, 50) + [ship(1300, b.tilt(0))]  # rest from 1300
    records += [ship(1400, b.hello("2")), ship(1500, b.tilt(90)), ship(2000, b.tilt(90))]  # ignored
    b2 = Board()
    records += [ship(3000, b2.hello("1")), ship(3400, b2.tilt(0))]  # 2100 after the rest began
    assert acts(records) == [{"t": 3400, "act": "land"}]


def test_lost_does_not_cancel_a_due_land():
    b = Board()
    records = flown_then_rest(b) + [ship(4200, b.ball()), bed(4300, "yellow")]
    # the rest completes at 4300 while the ball settles: land is due
    records = [r for r in records if r[0] <= 4300]
    records += [port(4400, "lost")]
    assert acts(records) == [drop(4600, "rain", "yellow"), {"t": 4600, "act": "land"}]


def test_a_start_inside_a_flight_begins_afresh_and_an_end_outside_is_allowed():
    b = Board()
    records = (
        [flight(0, "end"), flight(10, "start")]
        + tilts(b, 50, 1250, 50)
        + [flight(1260, "start")]
        + tilts(b, 1300, 3500, 0)
    )
    assert acts(records) == []  # the second start forgot the moving samples


def test_a_hello_changes_nothing_else():
    b = Board()
    records = [ship(0, b.ball("hail")), ship(50, Board(0).hello()), bed(100, "blue")]
    assert judged(records) == [drop(400, "hail", "blue")]


def test_a_rejected_line_does_not_end_a_silence():
    b = Board()
    out = judged([ship(0, b.tilt(0)), ship(3500, "$junk*00"), ship(3600, b.tilt(0))])
    assert out == [
        {"t": 3000, "link": "silent"},
        {"t": 3500, "link": "rejected", "why": "checksum"},
        {"t": 3600, "link": "heard"},
    ]


def test_the_contracts_section_3_examples_in_time_order():
    records = [
        flight(900, "start"),
        ship(1000, "$BALL,12,53021,rain*0D"),
        bed(1180, "yellow"),
        port(5000, "lost"),
        port(6000, "back"),
        flight(9000, "end"),
    ]
    assert judged(records) == [
        drop(1480, "rain", "yellow"),
        {"t": 4000, "link": "silent"},
        {"t": 5000, "link": "lost"},
        {"t": 6000, "link": "back"},
    ]


# -- more balls than the ship holds ----------------------------------------------------------------


def test_more_balls_than_the_ship_holds_is_a_board_fault_reported_once_and_every_ball_is_still_judged():
    from companion.ship.judge import SHIP_HOLDS

    b = Board()
    records = [ship(1000 + n, b.ball("rain")) for n in range(SHIP_HOLDS + 3)]
    judge = Judge()
    out = list(judge_records(records, judge))
    reports = [r for r in out if "x_board" in r]
    assert reports == [{"t": 1000 + SHIP_HOLDS, "x_board": "too_many_balls", "in_air": SHIP_HOLDS + 1}]
    assert judge.counts == {"too_many_balls": 3}
    # the contract's judgement is untouched: each ball that reached no bed fell outside
    assert [r for r in out if "notice" in r] == [
        {"t": 1800 + n, "notice": "outside", "ball": "rain"} for n in range(SHIP_HOLDS + 3)
    ]
    # once the air has cleared, a new flood is a new report
    later = [ship(5000 + n, b.ball("hail")) for n in range(SHIP_HOLDS + 1)]
    assert [r for r in judge_records(later, judge) if "x_board" in r] == [
        {"t": 5000 + SHIP_HOLDS, "x_board": "too_many_balls", "in_air": SHIP_HOLDS + 1}
    ]


def test_six_balls_in_the_air_are_no_fault():
    b = Board()
    judge = Judge()
    out = list(judge_records([ship(1000 + n, b.ball()) for n in range(6)] + [bed(1100, "blue")], judge))
    assert not [r for r in out if "x_board" in r] and judge.counts == {}


def test_the_work_per_line_stays_flat_in_a_flood_of_balls(monkeypatch):
    # not a timing: the number of balls the judge looks at for each line does not grow with the
    # number in the air (a flickering beam sends thousands)
    from companion.ship import judge as judge_module

    looked_at = 0
    deadline = judge_module.Ball.deadline

    def counted(self, timings):
        nonlocal looked_at
        looked_at += 1
        return deadline(self, timings)

    monkeypatch.setattr(judge_module.Ball, "deadline", counted)
    b = Board()
    judge = Judge()
    for count in (100, 2000):
        looked_at = 0
        start = judge._clock + 10_000
        for _ in range(count):
            judge.ship(start, b.ball("rain"))
            judge.bed(start, "yellow")  # too soon to land: every ball stays in the air
        assert looked_at / count < 10, (count, looked_at)
        judge.tick(start + 100_000)


@settings(max_examples=200, deadline=None)
@given(streams())
def test_next_deadline_is_when_tick_first_has_something_to_fire(records):
    """A loop asleep until `next_deadline` misses nothing, and is not woken for nothing."""
    import copy
    import math

    judge = Judge()
    assert judge.next_deadline() == math.inf  # nothing heard: nothing can fall due
    for t, key, value in records:
        getattr(judge, key)(t, value)
        due = judge.next_deadline()
        if due == math.inf:
            assert copy.deepcopy(judge).tick(t + 10**9) == []
            continue
        assert due >= t
        assert copy.deepcopy(judge).tick(due) == []  # fires only what is earlier than now
        assert copy.deepcopy(judge).tick(due + 1) != []


def test_the_silence_falls_due_silent_ms_after_the_last_line_and_not_again():
    b, judge = Board(), Judge(Timings(silent=3000))
    judge.ship(1000, b.hello())
    judge.ship(1500, b.tilt(0))
    assert judge.next_deadline() == 4500
    assert judge.tick(4501) == [{"t": 4500, "link": "silent"}]
    assert judge.next_deadline() == float("inf")  # silent already: nothing more is due
