"""The twin on a simulated clock (companion.ship.twin.virtual): its board fed ahead of the clock
by a copy of the model gives the run it would give fed as the clock goes, and a copy that could
part from the model is caught, never a different run."""

import pytest
from hypothesis import given, settings, strategies as st

from companion.ship.board import RECORD, Board
from companion.ship.twin.calibrate import CalibrationRun
from companion.ship.twin.core import TwinCore
from companion.ship.twin.pilot import Pilot
from companion.ship.twin.runner import catch_up
from companion.ship.twin.virtual import AheadError, VirtualTwin

pytestmark = pytest.mark.skipif(Board.available("micropython") is not None, reason="no MicroPython here")


def fly(cuts):
    """A short flight in board time, its samples taken at each of `cuts` (board ms): lift at
    1000 ms, three balls handed in at 1500 ms, 9 s in all."""
    core = TwinCore(7)
    pilot, next_tick, samples = Pilot(core.model), 0, []
    stops = sorted({*cuts, 1000, 1500, 9000})
    for now in stops:
        made, next_tick = catch_up(core, pilot, next_tick, now)
        samples += made
        if now == 1000:
            core.model.lift()
        if now == 1500:
            for kind, bed in (("rain", "purple"), ("hail", "white"), ("rain", "blue")):
                pilot.hand_in(kind, bed)
    return b"".join(s.record() for s in samples), core.model.truth


@settings(max_examples=8, deadline=None)
@given(st.lists(st.integers(1, 8999), max_size=40))
def test_the_same_samples_come_out_however_the_time_is_cut(cuts):
    """What the copy ahead of the clock rests on: moved to any times on the way, the model
    makes the same samples and flies the same flight as moved in 20 ms steps."""
    assert fly(cuts) == fly(range(20, 9000, 20))


class Packed:
    def __init__(self, data):
        self.data = data

    def record(self):
        return self.data


def resting_samples():
    """A ship resting, then lifting: its samples one record each."""
    core = TwinCore(3)
    samples = core.samples_to(40)
    core.model.lift()
    data = b"".join(s.record() for s in samples + core.samples_to(1500))
    return [Packed(data[i : i + RECORD.size]) for i in range(0, len(data), RECORD.size)]


def test_the_board_marks_each_sample_so_the_lines_of_any_number_of_them_can_be_taken():
    samples = resting_samples()
    cuts = [0, 7, 60, 61, 150, len(samples)]
    with Board("micropython", readers=False) as once_a_wake:
        by_wake = []
        for start, end in zip(cuts, cuts[1:]):
            once_a_wake.feed(*samples[start:end], sync=True)
            by_wake.append(once_a_wake.synced_lines(1))
    with Board("micropython", readers=False) as each:
        assert each.feed_marked(*samples) == len(samples)
        by_sample = [each.synced_lines(end - start) for start, end in zip(cuts, cuts[1:])]
    assert by_sample == by_wake
    assert sum(len(lines) for lines in by_wake) > 20  # the HELLO, TILT and BEAT lines of 1.5 s


def test_a_run_fed_ahead_of_the_clock_is_the_run_fed_as_the_clock_goes():
    ahead = CalibrationRun(5, seed=4, virtual=True).fly()
    in_step = CalibrationRun(5, seed=4, virtual=True, ahead=False).fly()
    assert ahead == in_step
    assert ahead["summary"]["judged_right"] == 5


@pytest.fixture
def twin():
    twin = VirtualTwin(seed=2, compiled=True).start()
    twin.fly()
    yield twin
    twin.close()


def test_a_crew_action_where_the_copy_ahead_has_gone_past_is_refused(twin):
    twin.step(ahead_to=twin.now + 1000)  # the run said no crew action comes before then
    twin.advance_to(twin.now + 20)
    with pytest.raises(AheadError):
        twin.act(lambda _core, pilot: pilot.hand_in("rain", "purple"))
    with pytest.raises(AheadError):
        twin.set_down()


def test_a_crew_action_where_the_copy_has_not_gone_past_is_done_on_both(twin):
    twin.step(ahead_to=twin.now + 100)
    twin.advance_to(twin.now + 200)
    twin.act(lambda _core, pilot: pilot.hand_in("rain", "purple"))
    while not twin.struck and twin.now < 20_000:  # the ball through the beam and on its bed
        twin.advance_to(twin.step(ahead_to=twin.now + 1000))
    assert [s["bed"] for s in twin.model.truth] == ["purple"]
    assert [ball for _t, ball in twin.beams] == [twin.model.truth[0]["id"]]  # its BALL line, from the board


def test_a_model_changed_behind_the_copys_back_is_caught_at_its_next_samples(twin):
    twin.step()
    with twin.lock:
        twin.model.flicker_rate = 200.0  # glints a millisecond apart: samples each millisecond
    twin.advance_to(twin.now + 20)
    with pytest.raises(AheadError):
        twin.step()
