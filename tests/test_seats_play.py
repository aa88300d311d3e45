"""From a pin edge to the rules state: SeatTable with real gpiozero devices on MockFactory pins,
the real controller and the real rules. Time is an injected clock moved by hand.
"""

import random

import pytest
from gpiozero.pins.mock import MockFactory
from hypothesis import given, settings, strategies as st

from companion.config import DEFAULT_SEATS
from companion.controller import GameController
from companion.devices.events import JUMP, STAY, LedMode
from companion.devices.router import ACT, CLAIM, IGNORE, NOTE, REFUSE, SeatMap, led_plan
from companion.devices.seats import SeatInput
from companion.devices.table import TOGETHER_S, SeatTable
from companion.rules import Match, RulesError
from timekeeping import ManualClock

FOUR = ["Ann", "Ben", "Cat", "Dan"]
NAMES = FOUR + ["Eve", "Fay", "Gus", "Hal"]


class Table:
    """A SeatTable on mock pins, with helpers that press the pins as a player would."""

    def __init__(self, seats=6):
        self.clock = ManualClock(50.0)
        self.input = SeatInput(DEFAULT_SEATS[:seats], pin_factory=MockFactory(), clock=self.clock, blink_s=10)
        self.table = SeatTable(self.input)
        self.controller = GameController()

    def start(self, setup, seats=None):
        self.controller.new_game(setup)
        self.table.play(self.controller, seats)
        return self.controller.match

    def press(self, seat, button, held=0.05):
        pin = self.input.pin(seat, button)
        pin.drive_low()
        self.clock.advance(held)
        pin.drive_high()
        self.clock.advance(0.05)  # quiet longer than the debounce window

    def poll(self):
        return self.table.poll()

    def leds(self):
        return {
            seat: self.input.led_mode(seat)
            for seat in range(1, self.input.seat_count + 1)
            if self.input.led_mode(seat) != LedMode.OFF
        }

    def lit(self, seat):
        self.input.flush_leds()
        return self.input.pin(seat, "led").state

    def close(self):
        self.table.close()


@pytest.fixture
def t():
    table = Table()
    yield table
    table.close()


def kinds(outcomes):
    return [(o.press.seat, o.decision.kind) for o in outcomes]


# --- Cloud 9 -----------------------------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 100_000), players=st.integers(3, 6))
def test_whole_cloud9_trips_decided_by_pin_presses(seed, players):
    """The screen enters rolls and rises; every decision is a press on the decider's pin;
    now and then someone else presses too. The game must be exactly the one the decisions
    describe, and the LEDs must follow the turn all along."""
    rng = random.Random(seed)
    names = NAMES[:players]
    setup = {"game": "cloud9", "players": names}
    seat_order = list(range(1, players + 1))
    rng.shuffle(seat_order)  # players need not sit in seat order
    seats = SeatMap(tuple(sorted(zip(seat_order, names))))
    t = Table(players)
    try:
        t.start(setup, seats)
        expected = Match.start(setup)
        for _step in range(160):
            view = t.controller.match.view
            assert view == expected.view
            assert t.leds() == led_plan(view, seats)
            if view["over"]:
                break
            if rng.random() < 0.3:  # a stray press: refused (one flicker) or ignored
                seat = rng.randrange(1, players + 1)
                t.press(seat, rng.choice([JUMP, STAY]))
                outcome = t.poll()
                if not outcome:  # held back for the "at once" window, then refused
                    t.clock.advance(TOGETHER_S)
                    outcome = t.poll()
                    assert outcome[0].decision.kind == REFUSE
                assert len(outcome) == 1
                decision = outcome[0].decision
                if decision.kind == REFUSE:
                    assert t.input.is_flickering(seat)
                    t.clock.advance(0.2)
                    t.poll()
                elif decision.kind == ACT:  # the decider's own press, or the solo pilot's jump
                    expected = expected.apply(decision.action)
                    continue
                else:
                    assert decision.kind in (IGNORE, NOTE)
                assert t.controller.match.view == expected.view
            view = t.controller.match.view
            legal = expected.legal_actions()
            legal = [a for a in legal if a["act"] not in ("undo", "redo")]
            action = rng.choice(legal)
            if action["act"] in (JUMP, STAY):
                player = action["player"]
                assert t.leds()[seats.seat_of(player)] == LedMode.BLINK
                t.press(seats.seat_of(player), action["act"])
                [outcome] = t.poll()
                assert outcome.decision.kind == ACT and outcome.decision.action == action
            else:
                t.controller.submit(action)  # the screen
                assert t.poll() == []  # the next frame
            expected = expected.apply(action)
        assert t.controller.match.actions() == expected.actions()
    finally:
        t.close()


def test_cloud9_a_trip_by_pins_from_the_rulebook_flow(t):
    t.start({"game": "cloud9", "players": FOUR})
    assert t.leds() == {1: LedMode.ON} and t.lit(1)  # Ann pilots and rolls
    t.controller.submit({"act": "roll", "dice": ["red", "green"]})
    t.poll()
    assert t.leds() == {2: LedMode.BLINK}  # Ben decides first
    t.press(2, STAY)
    t.press(3, JUMP)  # Cat's turn comes next: taken once Ben has decided (same moment)
    outcomes = t.poll()
    assert [o.decision.action for o in outcomes] == [{"act": "stay", "player": "Ben"}, {"act": "jump", "player": "Cat"}]
    assert t.leds() == {4: LedMode.BLINK}
    t.press(4, STAY)
    t.poll()
    view = t.controller.match.view
    assert view["phase"] == "resolve" and view["scores"]["Cat"] == 1 and view["basket"] == ["Ann", "Ben", "Dan"]
    assert t.leds() == {1: LedMode.ON}
    t.controller.submit({"act": "rise", "cards": ["wild"]})
    t.poll()
    assert t.leds() == {2: LedMode.ON}  # Ben pilots from cloud 2
    t.press(3, STAY)  # Cat jumped out: ignored
    t.clock.advance(TOGETHER_S)
    assert kinds(t.poll()) == [(3, IGNORE)]
    assert not t.input.is_flickering(3)


def test_two_seats_pressed_at_once_are_both_taken_in_the_rules_order(t):
    t.start({"game": "cloud9", "players": FOUR})
    t.controller.submit({"act": "roll", "dice": ["blank", "blank"]})
    dan, ben, cat = (t.input.pin(s, JUMP) for s in (4, 2, 3))
    for pin in (dan, cat, ben):  # pressed together, the last in the rules' order first
        pin.drive_low()
        t.clock.advance(0.002)
    outcomes = t.poll()
    assert [o.decision.action["player"] for o in outcomes] == ["Ben", "Cat", "Dan"]
    assert not any(t.input.is_flickering(s) for s in (2, 3, 4))


def test_at_once_across_two_frames_too(t):
    t.start({"game": "cloud9", "players": FOUR})
    t.controller.submit({"act": "roll", "dice": ["blank", "blank"]})
    t.press(3, STAY)
    assert t.poll() == []  # Cat is early: held back, no flicker yet
    assert not t.input.is_flickering(3)
    t.press(2, JUMP)  # Ben, within the window
    outcomes = t.poll()
    assert [o.decision.action for o in outcomes] == [{"act": "jump", "player": "Ben"}, {"act": "stay", "player": "Cat"}]


def test_a_press_out_of_turn_changes_nothing_and_flickers_once(t):
    t.start({"game": "cloud9", "players": FOUR})
    t.controller.submit({"act": "roll", "dice": ["blank", "blank"]})
    before = t.controller.match
    t.press(4, JUMP)
    t.clock.advance(TOGETHER_S)
    [outcome] = t.poll()
    assert outcome.decision.kind == REFUSE and "Ben decides now" in outcome.decision.reason
    assert t.controller.match is before
    assert t.input.is_flickering(4) and t.lit(4)
    t.clock.advance(0.2)
    t.poll()
    assert not t.input.is_flickering(4) and not t.lit(4)
    t.press(2, JUMP)  # and Ben's own press, later, is simply his
    assert [o.decision.kind for o in t.poll()] == [ACT]


def test_a_change_on_the_screen_ends_the_window(t):
    t.start({"game": "cloud9", "players": FOUR})
    t.press(2, STAY)  # Ben presses before the dice are entered
    assert t.poll() == []
    t.controller.submit({"act": "roll", "dice": ["blank", "blank"]})  # now the screen
    [outcome] = t.poll()
    assert outcome.decision.kind == REFUSE and "rolls the dice first" in outcome.decision.reason
    assert t.controller.match.view["to_decide"] == "Ben"  # his early press decided nothing


def solo(t):
    """Ann pilots; everyone else jumps out by pins; the balloon rises: Ann flies solo."""
    t.start({"game": "cloud9", "players": FOUR})
    t.controller.submit({"act": "roll", "dice": ["blank", "blank"]})
    for seat in (2, 3, 4):
        t.press(seat, JUMP)
    assert [o.decision.kind for o in t.poll()] == [ACT, ACT, ACT]
    t.controller.submit({"act": "rise", "cards": []})
    t.poll()


def test_a_solo_pilot_stays_in_or_jumps_out_with_the_same_buttons(t):
    solo(t)
    assert t.leds() == {1: LedMode.BLINK}
    before = t.controller.match
    t.press(1, STAY)
    [outcome] = t.poll()
    assert outcome.decision.kind == NOTE and "roll the dice" in outcome.decision.reason
    assert t.controller.match is before
    t.press(1, JUMP)
    [outcome] = t.poll()
    assert outcome.decision.action == {"act": "jump", "player": "Ann"}
    view = t.controller.match.view
    assert view["trip"] == 2 and view["scores"]["Ann"] == 2 and view["pilot"] == "Ben"
    assert t.leds() == {2: LedMode.ON}


def test_undo_on_the_screen_and_the_leds_follow(t):
    t.start({"game": "cloud9", "players": FOUR})
    t.controller.submit({"act": "roll", "dice": ["blank", "blank"]})
    t.press(2, STAY)
    t.poll()
    assert t.leds() == {3: LedMode.BLINK}
    t.controller.undo()
    t.poll()
    assert t.leds() == {2: LedMode.BLINK}


def test_a_refusal_by_the_rules_core_is_shown_and_flickers(t, monkeypatch):
    t.start({"game": "cloud9", "players": FOUR})
    t.controller.submit({"act": "roll", "dice": ["blank", "blank"]})

    def refuse(action):
        raise RulesError("not now", "house rule")

    monkeypatch.setattr(t.controller, "submit", refuse)
    t.press(2, JUMP)
    [outcome] = t.poll()
    assert (outcome.decision.kind, outcome.decision.reason, outcome.decision.rule) == (REFUSE, "not now", "house rule")
    assert t.input.is_flickering(2)


# --- The Cloud Mine ----------------------------------------------------------------------------


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 100_000), players=st.integers(3, 6))
def test_the_cloud_mine_guesses_by_pins(seed, players):
    rng = random.Random(seed)
    names = NAMES[:players]
    t = Table(players)
    try:
        t.start({"game": "cloudmine", "players": names})
        seats = SeatMap.in_order(names)
        expected = Match.start({"game": "cloudmine", "players": names})
        while not t.controller.match.view["over"]:
            view = t.controller.match.view
            dreamer, guesser = seats.seat_of(view["dreamer"]), seats.seat_of(view["to_guess"])
            assert t.leds() == {dreamer: LedMode.ON, guesser: LedMode.BLINK}
            if rng.random() < 0.2:  # the Observer points and presses too: not theirs to say
                t.press(guesser, JUMP)
                t.clock.advance(TOGETHER_S)
                assert kinds(t.poll()) == [(guesser, REFUSE)]
                t.clock.advance(0.2)
                t.poll()
            correct = rng.random() < 0.4
            t.press(dreamer, JUMP if correct else STAY)
            [outcome] = t.poll()
            expected = expected.apply({"act": "guess", "player": view["to_guess"], "correct": correct})
            assert outcome.decision.kind == ACT
            assert t.controller.match.view == expected.view
        winners = {seats.seat_of(w) for w in t.controller.match.view["winners"]}
        assert t.leds() == dict.fromkeys(winners, LedMode.ON)
    finally:
        t.close()


# --- Cloudship ---------------------------------------------------------------------------------


def test_cloudship_the_commanders_jump_button_lands_the_ship(t):
    t.start({"game": "cloudship", "players": ["Ann", "Ben", "Cat"], "mode": "sunny"})
    assert t.leds() == {1: LedMode.ON}
    t.controller.submit({"act": "roll", "dice": ["yellow", "white", "storm"]})
    t.controller.submit({"act": "drop", "ball": "rain", "bed": "yellow"})
    t.press(2, JUMP)  # not the commander
    t.clock.advance(TOGETHER_S)
    assert kinds(t.poll()) == [(2, REFUSE)]
    t.press(1, JUMP)
    [outcome] = t.poll()
    assert outcome.decision.action == {"act": "land"}
    view = t.controller.match.view
    assert view["beds"]["yellow"] == 1 and view["commander"] == "Ben"
    assert t.leds() == {2: LedMode.ON}


# --- the players screen, the seat test, the status line, idle ------------------------------------


def test_players_claim_seats_with_either_button_then_play_there(t):
    waiting = ["Ann", "Ben", "Cat"]
    t.table.claim_seats(lambda: [p for p in waiting if t.table.seats.seat_of(p) is None])
    t.press(5, STAY)
    t.press(2, JUMP)
    t.press(5, JUMP)  # taken already: refused, flickers
    t.press(6, JUMP)
    outcomes = t.poll()
    assert [(o.press.seat, o.decision.kind, o.decision.player) for o in outcomes] == [
        (5, CLAIM, "Ann"),
        (2, CLAIM, "Ben"),
        (5, REFUSE, "Ann"),
        (6, CLAIM, "Cat"),
    ]
    assert t.table.seats.pairs == ((2, "Ben"), (5, "Ann"), (6, "Cat"))
    assert t.leds() == {2: LedMode.ON, 5: LedMode.ON, 6: LedMode.ON}
    t.press(1, JUMP)  # everyone has a seat
    assert kinds(t.poll()) == [(1, REFUSE)]
    t.start({"game": "cloudmine", "players": waiting}, t.table.seats)
    assert t.leds() == {5: LedMode.ON, 2: LedMode.BLINK}  # Ann dreams at seat 5, Ben guesses
    t.press(5, STAY)
    assert kinds(t.poll()) == [(5, ACT)]


def test_the_seat_test_names_each_press_and_lights_the_leds_in_turn(t):
    model = t.table.seat_test()
    t.poll()
    assert t.leds() == {1: LedMode.ON}
    t.press(4, STAY)
    [outcome] = t.poll()
    assert outcome.decision.reason == "seat 4 STAY" and model.last.seat == 4
    t.clock.advance(model.step_s)
    t.poll()
    assert t.leds() == {2: LedMode.ON}
    t.clock.advance(model.step_s * 5)  # 6 seats: back to the first
    t.poll()
    assert t.leds() == {1: LedMode.ON}


def test_a_stuck_button_is_reported_in_the_status_line_until_released(t):
    t.start({"game": "cloud9", "players": FOUR})
    assert t.table.status() is None
    t.input.pin(3, JUMP).drive_low()
    t.poll()
    t.clock.advance(10.5)
    t.poll()
    assert t.table.status() == "held down, ignored until released: seat 3 JUMP"
    t.input.pin(3, JUMP).drive_high()
    t.poll()
    assert t.table.status() is None


def test_screens_without_seat_input_ignore_presses_and_keep_the_leds_dark(t):
    t.start({"game": "cloud9", "players": FOUR})
    t.poll()
    assert t.leds()
    t.table.idle()
    t.press(1, JUMP)
    assert kinds(t.poll()) == [(1, IGNORE)]
    assert t.leds() == {}


def test_the_latency_bench_runs_the_whole_path_to_a_frame():
    from companion.devices.bench import bench

    figures = bench(presses=6)
    # The Cloud Mine's answers, Cloud 9's jumps and stays, Cloudship's landings
    for game in ("seats.", "seats.cloud9_", "seats.cloudship_"):
        assert figures[f"{game}presses_measured"] == 6
        assert 0 < figures[f"{game}press_to_frame_median_ms"] <= figures[f"{game}press_to_frame_max_ms"]
        # the loop's CPU time in each pass is part of that pass's wall-clock time, press by press
        assert 0 < figures[f"{game}press_to_frame_loop_cpu_median_ms"] <= figures[f"{game}press_to_frame_median_ms"]
        # (not so the p99s of six presses: each is extrapolated past its largest from the two
        # largest, so a CPU time far below the one above it can give the larger p99)
        assert figures[f"{game}press_to_frame_loop_cpu_median_ms"] <= figures[f"{game}press_to_frame_loop_cpu_p99_ms"]
        assert 0 <= figures[f"{game}presses_drawn_ahead"] <= 6
    # Cloud 9's presses by their kind (a jump, a stay, a solo pilot's jump), together all of them
    by_kind = [
        count
        for name, count in figures.items()
        if name.startswith("seats.cloud9_")
        and name.endswith("_presses_measured")
        and name != "seats.cloud9_presses_measured"
    ]
    assert not by_kind or sum(by_kind) == 6  # (six presses of one kind give no figures by kind)
