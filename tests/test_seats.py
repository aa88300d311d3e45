"""The seat panel on gpiozero's MockFactory: real Buttons and LEDs on mock pins.

Time is an injected clock (a list we move by hand) wherever our code reads it; only gpiozero's
own hold timer and blink thread run on real time, with short times set for the test.
"""

import logging
import threading
import time

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPin
from hypothesis import given, settings, strategies as st

from companion import config
from companion.config import DEFAULT_SEATS, ConfigError, SeatPins
from companion.devices import pins
from companion.devices.debounce import DEBOUNCE_S, Debouncer
from companion.devices.events import JUMP, STAY, LedMode, SeatPress
from companion.devices.keyboard import KeyboardSeats, NotSimulated
from companion.devices.seats import SeatInput
from timekeeping import ManualClock


@pytest.fixture
def clock():
    return ManualClock(100.0)


@pytest.fixture
def panel(clock):
    seat_input = SeatInput(DEFAULT_SEATS[:4], pin_factory=MockFactory(), clock=clock)
    yield seat_input
    seat_input.close()


def tap(seat_input, seat, button, clock=None, hold=0.1):
    pin = seat_input.pin(seat, button)
    pin.drive_low()
    if clock:
        clock.advance(hold)
    pin.drive_high()
    if clock:
        clock.advance(hold)


def wait_until(predicate, timeout=5.0, step=0.005):
    """For gpiozero's own threads (hold timer, blink): poll with a deadline, never forever."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            return False
        time.sleep(step)
    return True


# --- presses ----------------------------------------------------------------------------------


def test_a_press_on_a_seat_pin_comes_out_as_that_seat_and_button(panel, clock):
    pin = panel.pin(3, STAY)
    assert pin.info.name == f"GPIO{DEFAULT_SEATS[2].stay}"  # the config's pin map, on the real Button
    pin.drive_low()
    assert panel.poll() == [SeatPress(3, STAY, 100.0)]
    clock.advance(0.2)
    pin.drive_high()
    assert panel.poll() == []  # a release is not a press
    assert panel.poll() == []  # and a poll never repeats


def test_presses_come_out_in_the_order_they_happened(panel, clock):
    for seat, button in [(2, JUMP), (1, STAY), (4, JUMP), (2, STAY)]:
        tap(panel, seat, button, clock)
    assert [(p.seat, p.button) for p in panel.poll()] == [(2, JUMP), (1, STAY), (4, JUMP), (2, STAY)]


def test_a_press_from_gpiozeros_own_thread_reaches_the_main_thread_and_wakes_it(clock):
    woken = threading.Event()
    with SeatInput(DEFAULT_SEATS[:2], pin_factory=MockFactory(), clock=clock, wake=woken.set) as panel:
        presser = threading.Thread(target=panel.pin(2, JUMP).drive_low)
        presser.start()
        presser.join()
        assert woken.wait(5)
        assert panel.poll() == [SeatPress(2, JUMP, 100.0)]


# --- contact bounce ------------------------------------------------------------------------------


def test_a_burst_of_edges_within_a_few_milliseconds_is_one_press(panel, clock):
    pin = panel.pin(1, JUMP)
    for _ in range(6):  # the contact chatters for 3 ms
        pin.drive_low()
        clock.advance(0.0003)
        pin.drive_high()
        clock.advance(0.0002)
    pin.drive_low()
    clock.advance(0.3)
    for _ in range(4):  # and again on release
        pin.drive_high()
        clock.advance(0.0004)
        pin.drive_low()
        clock.advance(0.0004)
    pin.drive_high()
    assert panel.poll() == [SeatPress(1, JUMP, 100.0)]
    clock.advance(0.2)
    tap(panel, 1, JUMP, clock)  # a second, deliberate press counts again
    assert len(panel.poll()) == 1


def test_bounce_on_one_button_does_not_hide_a_press_on_another(panel, clock):
    jump, stay = panel.pin(2, JUMP), panel.pin(2, STAY)
    jump.drive_low()
    clock.advance(0.001)
    stay.drive_low()  # the other button, 1 ms later: a different contact, a real press
    jump.drive_high()
    jump.drive_low()
    assert [(p.seat, p.button) for p in panel.poll()] == [(2, JUMP), (2, STAY)]


@settings(max_examples=40, deadline=None)
@given(
    presses=st.lists(
        st.tuples(
            st.integers(1, 4),
            st.sampled_from([JUMP, STAY]),
            st.lists(st.floats(0.00005, 0.002), max_size=8),  # bounce edges after the press, seconds apart
            st.floats(0.05, 2.0),
        ),  # how long it is held
        min_size=1,
        max_size=12,
    )
)
def test_any_bounce_burst_gives_exactly_one_press_per_real_press(presses):
    clock = ManualClock(100.0)
    with SeatInput(DEFAULT_SEATS[:4], pin_factory=MockFactory(), clock=clock) as panel:
        for seat, button, chatter, held in presses:
            pin = panel.pin(seat, button)
            pin.drive_low()
            for gap in chatter:  # a burst well inside the debounce window
                clock.advance(gap)
                pin.drive_high() if pin.state else pin.drive_low()
            pin.drive_low()
            clock.advance(held)
            pin.drive_high()
            for gap in chatter:  # the release chatters too
                clock.advance(gap)
                pin.drive_low() if pin.state else pin.drive_high()
            pin.drive_high()
            clock.advance(DEBOUNCE_S + 0.05)
        assert [(p.seat, p.button) for p in panel.poll()] == [(s, b) for s, b, _c, _h in presses]


def test_the_debouncer_on_its_own():
    debouncer = Debouncer(0.03)
    assert debouncer.edge("a", True, 1.000)
    assert not debouncer.edge("a", False, 1.002)
    assert not debouncer.edge("a", True, 1.004)  # chatter
    assert not debouncer.edge("a", False, 1.500)  # release
    assert debouncer.edge("a", True, 1.531)  # quiet for 31 ms: a new press
    assert debouncer.edge("b", True, 1.532)  # every button on its own
    with pytest.raises(ValueError):
        Debouncer(-1)


# --- stuck buttons -------------------------------------------------------------------------------


def test_a_button_held_too_long_is_stuck_until_released(panel, clock):
    pin = panel.pin(2, STAY)
    pin.drive_low()
    assert [p.button for p in panel.poll()] == [STAY]  # a press is a press at once
    clock.advance(9.9)
    assert panel.poll() == [] and panel.stuck == frozenset()
    clock.advance(0.2)  # held for over 10 s
    assert panel.poll() == [] and panel.stuck == {(2, STAY)}
    tap(panel, 2, JUMP, clock)  # the seat's other button still works
    assert [p.button for p in panel.poll()] == [JUMP]
    clock.advance(60)
    assert panel.stuck == {(2, STAY)}
    pin.drive_high()  # released: it counts again
    assert panel.poll() == [] and panel.stuck == frozenset()
    clock.advance(1)
    tap(panel, 2, STAY, clock)
    assert [p.button for p in panel.poll()] == [STAY]


def test_a_stuck_button_that_chatters_makes_no_presses_and_stays_stuck_while_held(panel, clock):
    pin = panel.pin(1, JUMP)
    pin.drive_low()
    panel.poll()
    clock.advance(11)
    panel.poll()
    assert panel.stuck == {(1, JUMP)}
    for _ in range(5):  # a worn contact chatters for a moment and stays down
        clock.advance(0.0004)
        pin.drive_high()
        clock.advance(0.0004)
        pin.drive_low()
    assert panel.poll() == []
    clock.advance(10.1)
    assert panel.poll() == [] and panel.stuck == {(1, JUMP)}


def test_a_press_wakes_the_main_loop_again_when_it_could_have_become_stuck(clock):
    woken = threading.Event()
    with SeatInput(
        DEFAULT_SEATS[:1], pin_factory=MockFactory(), clock=clock, stuck_after_s=0.05, wake=woken.set
    ) as panel:
        panel.pin(1, STAY).drive_low()
        assert woken.wait(5)
        woken.clear()
        assert len(panel.poll()) == 1
        assert woken.wait(5)  # the timer: poll now and the stuck button is found
        clock.advance(1)
        assert panel.poll() == [] and panel.stuck == {(1, STAY)}


def test_a_press_s_timer_waits_with_the_led_changes_until_the_frame_is_drawn(clock):
    """Handing the LED worker a job wakes its thread, which takes the interpreter from the loop
    drawing the press's frame: the stuck button's timer is handed over after that frame."""
    woken = threading.Event()
    with SeatInput(
        DEFAULT_SEATS[:1], pin_factory=MockFactory(), clock=clock, stuck_after_s=0.05, wake=woken.set
    ) as panel:
        panel.hold_leds_for_frame = True
        panel.pin(1, STAY).drive_low()
        assert woken.wait(5)
        woken.clear()
        assert len(panel.poll()) == 1
        assert panel._worker.jobs.unfinished_tasks == 0  # the frame is being drawn: nothing handed over
        panel.release_leds()  # the frame is up
        assert woken.wait(5)  # the timer, from then on: poll now and the stuck button is found
        clock.advance(1)
        assert panel.poll() == [] and panel.stuck == {(1, STAY)}


class ShortedPin(MockPin):
    """A button shorted to ground: the pull-up cannot raise the line."""

    def _set_pull(self, value):
        self._pull = value
        self.drive_low()


def test_a_button_already_held_when_the_panel_opens_counts_as_stuck(clock, caplog):
    factory = MockFactory()
    factory.pin(DEFAULT_SEATS[0].jump, pin_class=ShortedPin)
    with caplog.at_level(logging.WARNING):
        with SeatInput(DEFAULT_SEATS[:2], pin_factory=factory, clock=clock) as panel:
            assert panel.stuck == {(1, JUMP)}
            assert "seat 1 jump is held down at start" in caplog.text
            panel.pin(1, JUMP).drive_high()
            assert panel.poll() == [] and panel.stuck == frozenset()


# --- LEDs ----------------------------------------------------------------------------------------


def test_leds_on_off_and_blink_on_their_pins(clock):
    with SeatInput(DEFAULT_SEATS[:3], pin_factory=MockFactory(), clock=clock, blink_s=0.01) as panel:
        leds = {seat: panel.pin(seat, "led") for seat in (1, 2, 3)}
        assert leds[1].info.name == f"GPIO{DEFAULT_SEATS[0].led}"
        panel.set_leds({1: LedMode.ON, 3: LedMode.BLINK})
        panel.flush_leds()
        assert leds[1].state and not leds[2].state
        assert wait_until(lambda: len(leds[3].states) >= 6)  # on, off, on, off ...
        panel.set_leds({2: LedMode.ON})  # seats left out go dark
        panel.flush_leds()
        assert not leds[1].state and leds[2].state
        settled = len(leds[3].states)
        time.sleep(0.05)
        assert not leds[3].state and len(leds[3].states) == settled  # the blink has stopped


def test_an_unchanged_plan_leaves_a_blinking_led_alone(clock):
    with SeatInput(DEFAULT_SEATS[:1], pin_factory=MockFactory(), clock=clock, blink_s=0.5) as panel:
        led = panel.pin(1, "led")
        panel.set_leds({1: LedMode.BLINK})
        assert wait_until(lambda: led.state)  # a blink starts lit
        for _ in range(5):
            panel.set_leds({1: LedMode.BLINK})  # every frame asks again: no restart, no glitch
        panel.flush_leds()
        assert len(led.states) == 2  # the initial off, then on once


@pytest.mark.parametrize("steady,during", [(LedMode.OFF, True), (LedMode.ON, False), (LedMode.BLINK, False)])
def test_a_flicker_shows_the_opposite_briefly_then_the_steady_mode(clock, steady, during):
    with SeatInput(DEFAULT_SEATS[:1], pin_factory=MockFactory(), clock=clock, blink_s=5) as panel:
        led = panel.pin(1, "led")
        panel.set_leds({1: steady})
        panel.flicker(1)
        panel.flush_leds()
        assert led.state is during and panel.is_flickering(1)
        panel.set_leds({1: steady})  # a frame during the flicker does not cut it short
        panel.flush_leds()
        assert led.state is during
        clock.advance(0.1)
        panel.poll()
        panel.flush_leds()
        assert led.state is during
        clock.advance(0.1)
        panel.poll()
        assert not panel.is_flickering(1)
        assert wait_until(lambda: led.state is (steady != LedMode.OFF))  # a blink restarts lit
        assert panel.led_mode(1) == steady


def test_closing_switches_every_led_off_and_frees_the_pins(clock):
    factory = MockFactory()
    panel = SeatInput(DEFAULT_SEATS, pin_factory=factory, clock=clock)
    panel.set_leds(dict.fromkeys(range(1, 9), LedMode.ON))
    pins_used = [factory.pin(p.led) for p in DEFAULT_SEATS]
    panel.close()
    assert not any(pin.state for pin in pins_used)
    with SeatInput(DEFAULT_SEATS, pin_factory=factory, clock=clock):
        pass  # the same pins can be opened again


# --- the pin map from the settings --------------------------------------------------------------


@pytest.mark.parametrize(
    "seats,message",
    [
        ((SeatPins(4, 5, 6), SeatPins(7, 8, 6)), "seat 2 led: GPIO 6 is already used by seat 1 led"),
        ((SeatPins(4, 5, 30),), "seat 1 led: GPIO 30 is out of range"),
        ((SeatPins(4, 15, 6),), "seat 1 stay: GPIO 15 is kept free for UART RX"),
        ((SeatPins(3, 5, 6),), "seat 1 jump: GPIO 3 is kept free for I2C SCL"),
        (DEFAULT_SEATS + (SeatPins(0, 1, 2),), "1 to 8 seats"),
    ],
)
def test_a_bad_pin_map_is_refused_before_any_pin_is_touched(seats, message):
    factory = MockFactory()
    with pytest.raises(ConfigError, match=message):
        SeatInput(seats, pin_factory=factory)
    assert factory.pins == {}


def test_a_settings_file_with_a_pin_used_twice_falls_back_to_the_default_seats(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text("[[seats]]\njump = 4\nstay = 17\nled = 4\n", encoding="utf-8")
    loaded, problems = config.load(path)
    assert loaded.seats == DEFAULT_SEATS
    assert "seat 1 led: GPIO 4 is already used by seat 1 jump" in problems[0]
    with SeatInput(loaded.seats, pin_factory=MockFactory()) as panel:
        assert panel.seat_count == 8


def test_seats_from_a_settings_file_drive_those_pins(tmp_path, clock):
    path = tmp_path / "config.toml"
    path.write_text(
        "[[seats]]\njump = 20\nstay = 21\nled = 16\n[[seats]]\njump = 5\nstay = 6\nled = 12\n", encoding="utf-8"
    )
    loaded, problems = config.load(path)
    assert problems == []
    factory = MockFactory()
    with SeatInput(loaded.seats, pin_factory=factory, clock=clock) as panel:
        factory.pin(6).drive_low()
        assert panel.poll() == [SeatPress(2, STAY, 100.0)]
        panel.set_leds({1: LedMode.ON})
        panel.flush_leds()
        assert factory.pin(16).state


# --- the pin factory -----------------------------------------------------------------------------


@pytest.fixture
def no_pin_factory(monkeypatch):
    saved = Device.pin_factory
    Device.pin_factory = None
    monkeypatch.delenv(pins.ENV_OVERRIDE, raising=False)
    yield
    if Device.pin_factory is not None and Device.pin_factory is not saved:
        Device.pin_factory.close()
    Device.pin_factory = saved


def test_without_gpio_the_mock_factory_is_chosen_and_logged_as_simulated(no_pin_factory, caplog):
    with caplog.at_level(logging.INFO, logger="companion.devices.pins"):
        choice = pins.choose_pin_factory()
    assert isinstance(choice.factory, MockFactory) and choice.simulated
    assert Device.pin_factory is choice.factory  # shared with every other gpiozero device
    assert "simulated" in caplog.text
    with SeatInput.open(config.Config()) as panel:
        assert panel.simulated
        KeyboardSeats(panel).key_down("1")
        assert [(p.seat, p.button) for p in panel.poll()] == [(1, JUMP)]


def test_simulated_pins_keep_only_their_last_changes(no_pin_factory):
    """An evening of blinking LEDs and presses on simulated pins: gpiozero's mock pin would keep
    every change it ever made."""
    choice = pins.choose_pin_factory()
    pin = choice.factory.pin(16)
    pin.function = "output"
    for n in range(1000):
        pin.state = n % 2
    assert len(pin.states) == pins.SimulatedPin.HISTORY
    assert [s.state for s in list(pin.states)[-2:]] == [False, True]  # the latest, in order


def test_the_environment_override_is_gpiozeros(no_pin_factory, monkeypatch):
    monkeypatch.setenv(pins.ENV_OVERRIDE, "mock")
    assert pins.choose_pin_factory().simulated
    Device.pin_factory.close()
    Device.pin_factory = None
    monkeypatch.setenv(pins.ENV_OVERRIDE, "no-such-factory")
    with pytest.raises(pins.NoPinFactory, match="GPIOZERO_PIN_FACTORY=no-such-factory"):
        pins.choose_pin_factory()


# --- the keyboard on a desktop --------------------------------------------------------------------


def test_the_keyboard_presses_the_mock_pins(panel, clock):
    keys = KeyboardSeats(panel)
    assert keys.key_down("3")
    assert not panel.pin(3, JUMP).state  # the pin itself is driven low, as a button would
    clock.advance(0.2)
    assert keys.key_up("3")
    assert keys.key_down("E") and keys.key_up("e")  # seat 3 STAY, either case
    assert not keys.key_down("5")  # only 4 seats here
    assert not keys.key_down("space")
    assert [(p.seat, p.button) for p in panel.poll()] == [(3, JUMP), (3, STAY)]
    assert keys.legend() == [(1, "1", "Q"), (2, "2", "W"), (3, "3", "E"), (4, "4", "R")]


def test_the_keyboard_does_not_drive_real_pins(clock):
    with SeatInput(DEFAULT_SEATS[:1], pin_factory=MockFactory(), simulated=False) as panel:
        with pytest.raises(NotSimulated):
            KeyboardSeats(panel)
