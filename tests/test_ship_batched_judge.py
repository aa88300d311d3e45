"""The judge on the lines as the firmware really lets them go: a resting ship's TILT lines held
back and sent together (hardware/ship/messages.py), each line stamped with the Pi's clock when
it arrived. Against the same lines each arriving at its own T (a board that sent every line at
once): a flight lands as soon, a ball is judged at the same time, a board that stops is still
reported silent, and a resting one never is."""

from companion.ship.judge import Judge, Timings
from companion.ship.protocol import decode
from companion.ship.records import judge_records
from test_ship_firmware import paced_lines

LINK_MS = 1  # from the board's USB port to the judge


def arrivals(lines, batched):
    """(Pi ms, line): when the line's last byte went out (batched), or at its own T."""
    return [(sent + LINK_MS if batched else decode(line)[2] + LINK_MS, line) for sent, line in lines]


def judged(lines, batched, others=(), timings=None):
    records = [(t, "ship", line) for t, line in arrivals(lines, batched)] + list(others)
    records.sort(key=lambda r: r[0])
    return list(judge_records(records, Judge(timings)))


def shaken_then_set_down(sensors, t):
    sensors[0].shaking = 1000 <= t < 3470  # flown about, then set down on the table (mid-second)


def test_a_flight_lands_as_soon_as_when_every_line_goes_at_once():
    lines = paced_lines(9000, shaken_then_set_down)
    assert max(sent - decode(line)[2] for sent, line in lines) > 500  # lines did wait
    flight = [(500, "flight", "start")]
    lands = {
        batched: [o["t"] for o in judged(lines, batched, flight) if o.get("act") == "land"] for batched in (True, False)
    }
    assert len(lands[False]) == 1 and len(lands[True]) == 1
    # the line that completes the rest goes at once, behind what waited (at 8 bytes a ms)
    assert 0 <= lands[True][0] - lands[False][0] <= 100


def test_a_ball_in_a_resting_ship_is_judged_at_the_same_time_and_its_line_is_not_held():
    def ball_at_rest(sensors, t):
        sensors[1]["beam"] = 4730 <= t < 4736

    lines = paced_lines(7000, ball_at_rest)
    sent, ball_line = next((s, line) for s, line in lines if line.startswith("$BALL"))
    assert decode(ball_line)[2] == 4736
    impact = [(4736 + 180, "bed", "yellow")]
    out = {batched: judged(lines, batched, impact) for batched in (True, False)}
    drops = {b: [o for o in out[b] if o.get("act") == "drop"] for b in out}
    assert (
        drops[True] == drops[False] == [{"t": 4916 + Timings().settle, "act": "drop", "ball": "hail", "bed": "yellow"}]
    )
    assert sent - 4736 <= 100  # behind at most a second's waiting lines, never held itself
    assert not [o for o in out[True] if "notice" in o]


def test_a_resting_ship_is_never_silent_and_one_that_stops_is():
    lines = paced_lines(20000)
    last = max(sent for sent, _line in lines) + LINK_MS
    stopped = [(last + 10000, "flight", "end")]  # a record long after: the silence clock runs to it
    out = judged(lines, True, stopped)
    silent = [o for o in out if o.get("link") == "silent"]
    assert silent == [{"t": last + Timings().silent, "link": "silent"}]
    gaps = [b - a for (a, _), (b, _) in zip(arrivals(lines, True), arrivals(lines, True)[1:])]
    assert max(gaps) < Timings().silent / 2  # lines keep coming at rest, held or not
    assert not [o for o in out if o.get("link") in ("gap", "rejected")]
