"""A second, independent reading of the judge's trickiest part, to cross-check it: balls,
bounces, deadlines at one time and silence, simulated millisecond by millisecond (records at a
millisecond first, then that millisecond's deadlines: the balls in the order their BALL lines
came, then `silent`) instead of firing deadlines before each event as judge.py does."""

from hypothesis import given, settings, strategies as st

from companion.ship.judge import Judge, Timings
from companion.ship.records import judge_records
from tests.shipstreams import Board

T = Timings()


def reference(records):
    """What the contract says, the slow and obvious way (no flight, no ignore mode)."""
    out = []
    balls = []  # dicts in opening order
    clock, lost, silence = (records[0][0] if records else 0), False, False
    by_time = {}
    for record in records:
        by_time.setdefault(record[0], []).append(record)
    last_record = records[-1][0] if records else 0
    t = records[0][0] if records else 0
    while t <= last_record or balls:
        for _t, key, value in by_time.get(t, []):
            if key == "good":  # a good ship line: BALL opens a ball, anything else is heard only
                if silence:
                    out.append({"t": t, "link": "heard"})
                silence, clock = False, t
                if value in ("rain", "hail"):
                    balls.append({"kind": value, "opened": t, "bed": None, "last": None})
            elif key == "port":
                out.append({"t": t, "link": value})
                if value == "lost":
                    lost = True
                else:
                    lost, silence, clock = False, False, t
            elif key == "bed":
                falling = [b for b in balls if b["bed"] is None and T.min_fall <= t - b["opened"] <= T.max_fall]
                recent = [b for b in balls if b["bed"] is not None and t - b["last"] <= T.settle]
                if falling:
                    falling[0]["bed"], falling[0]["last"] = value, t
                elif recent:
                    if not any(b["bed"] == value for b in recent):
                        latest = max(recent, key=lambda b: (b["last"], balls.index(b)))
                        if t - latest["last"] >= T.bounce_min:
                            latest["bed"], latest["last"] = value, t
                else:
                    out.append({"t": t, "notice": "no_hole", "bed": value})
        for ball in list(balls):
            if ball["bed"] is None and t == ball["opened"] + T.max_fall:
                balls.remove(ball)
                out.append({"t": t, "notice": "outside", "ball": ball["kind"]})
            elif ball["bed"] is not None and t == ball["last"] + T.settle:
                balls.remove(ball)
                out.append({"t": t, "act": "drop", "ball": ball["kind"], "bed": ball["bed"]})
        if t < last_record and not lost and not silence and t == clock + T.silent:
            silence = True
            out.append({"t": t, "link": "silent"})
        t += 1
    return out


EVENT = st.one_of(
    st.tuples(st.just("good"), st.sampled_from(["rain", "hail", "tilt"])),
    st.tuples(st.just("bed"), st.sampled_from(["yellow", "purple", "white", "blue"])),
    st.tuples(st.just("port"), st.sampled_from(["lost", "back"])),
)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from([0, 0, 1, 10, 29, 30, 40, 41, 120, 200, 260, 299, 300, 301, 799, 800, 801, 1500, 3000]),
            EVENT,
        ),
        max_size=25,
    )
)
def test_the_judge_agrees_with_the_millisecond_reading(steps):
    t = 0
    plain = []
    for step, (key, value) in steps:
        t += step
        plain.append((t, key, value))
    board = Board()
    recorded = []
    for t, key, value in plain:
        if key == "good":
            line = board.ball(value) if value != "tilt" else board.tilt(0)
            recorded.append((t, "ship", line))
        else:
            recorded.append((t, key, value))
    got = [r for r in judge_records(recorded, Judge()) if "x_" not in "".join(r)]
    assert got == reference(plain)
