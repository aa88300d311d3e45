"""Settings -> seat test, and seat presses reaching the app: real pygame (dummy video driver),
real gpiozero devices on MockFactory pins, keys driving those pins as on a desktop."""

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402
from gpiozero.pins.mock import MockFactory  # noqa: E402

from companion import i18n  # noqa: E402
from companion.config import DEFAULT_SEATS, Config  # noqa: E402
from companion.devices.events import JUMP, STAY  # noqa: E402
from companion.devices.keyboard import KeyboardSeats  # noqa: E402
from companion.devices.seats import SeatInput  # noqa: E402
from companion.devices.table import SeatTable  # noqa: E402
from companion.ui.loop.hardware import SeatHardware  # noqa: E402
from companion.ui.screens.seat_test import LedLamp, SeatTestScreen  # noqa: E402
from companion.ui.tools.harness import Harness  # noqa: E402
from timekeeping import ManualClock  # noqa: E402

SHOTS = os.environ.get("SEAT_SCREENSHOTS")  # a folder to keep the screenshots in, to look at


@pytest.fixture
def rig():
    clock = ManualClock(10.0)
    seat_input = SeatInput(DEFAULT_SEATS, pin_factory=MockFactory(), clock=clock)
    table = SeatTable(seat_input)
    hardware = SeatHardware(table, simulated=True, keyboard=KeyboardSeats(seat_input))
    yield clock, seat_input, hardware
    table.close()


def open_seat_test(hardware, size=(800, 480)):
    h = Harness(size, hardware=hardware)
    h.app.show(SeatTestScreen(h.app))
    h.app.pump()
    return h


def key(h, name, down=True):
    event = pygame.KEYDOWN if down else pygame.KEYUP
    pygame.event.post(pygame.event.Event(event, key=pygame.key.key_code(name), mod=0, unicode=name, scancode=0))
    h.app.pump()


def lamps(h):
    return {int(w.key.split(":")[1]): w.lit for w in h.widgets() if isinstance(w, LedLamp)}


def shot(h, name, tmp_path):
    folder = SHOTS or tmp_path
    return h.save(os.path.join(folder, name))


def test_the_seat_test_names_the_button_pressed_by_key_on_the_mock_pins(rig, tmp_path):
    clock, seat_input, hardware = rig
    h = open_seat_test(hardware)
    assert h.shows("Press any seat button")
    key(h, "e")  # seat 3 STAY on the desktop key map
    assert not seat_input.pin(3, STAY).state  # the mock pin itself went low
    assert h.shows("Seat 3: STAY")
    key(h, "e", down=False)
    clock.now += 0.2
    seat_input.pin(7, JUMP).drive_low()  # and a press on a pin directly
    h.app.pump()
    assert h.shows("Seat 7: JUMP")
    assert h.overflows() == [] and h.off_canvas() == []
    path = shot(h, "seat-test.png", tmp_path)
    assert path.exists()


def test_the_leds_light_in_turn_on_the_pins_and_on_the_screen(rig):
    clock, seat_input, hardware = rig
    h = open_seat_test(hardware)
    assert lamps(h) == {seat: seat == 1 for seat in range(1, 9)}
    seat_input.flush_leds()
    assert seat_input.pin(1, "led").state
    clock.now += 0.5
    h.app.refresh()
    h.app.pump()
    assert lamps(h)[2] and not lamps(h)[1]
    seat_input.flush_leds()
    assert seat_input.pin(2, "led").state and not seat_input.pin(1, "led").state


def test_a_stuck_button_shows_as_held_down_until_released(rig, tmp_path):
    clock, seat_input, hardware = rig
    h = open_seat_test(hardware)
    seat_input.pin(5, JUMP).drive_low()
    h.app.pump()
    clock.now += 10.5
    h.app.refresh()
    h.app.pump()
    assert h.shows("Seat 5 JUMP is held down") and h.shows("held")
    assert hardware.status_line() == "held down, ignored until released: seat 5 JUMP"
    shot(h, "seat-test-stuck.png", tmp_path)
    seat_input.pin(5, JUMP).drive_high()
    h.app.refresh()
    h.app.pump()
    assert not h.shows("Seat 5 JUMP is held down") and hardware.status_line() is None


@pytest.mark.parametrize("language", ["en", "de", "hu"])
@pytest.mark.parametrize("size", [(800, 480), (720, 1280), (1920, 1080)])
def test_the_seat_test_fits_every_listed_display_in_every_language(rig, size, language, tmp_path):
    clock, seat_input, hardware = rig
    h = Harness(size, config=Config(language=language), hardware=hardware)
    h.app.show(SeatTestScreen(h.app))
    try:
        key(h, "8")
        seat_input.pin(2, STAY).drive_low()
        clock.now += 11
        h.app.refresh()
        h.app.pump()
        assert h.overflows() == [] and h.off_canvas() == []
        shot(h, f"seat-test-{language}-{size[0]}x{size[1]}.png", tmp_path)
    finally:
        i18n.set_language("en")


def test_without_seat_buttons_the_screen_says_so():
    h = Harness((800, 480))
    h.app.show(SeatTestScreen(h.app))
    h.app.pump()
    assert h.shows("No seat buttons are attached.")


def test_a_refused_seat_press_in_a_game_is_shown_as_a_toast(rig):
    clock, seat_input, hardware = rig
    h = Harness((800, 480), hardware=hardware)
    h.start_game({"game": "cloudmine", "players": ["Ann", "Ben", "Cat"]})
    assert seat_input.led_mode(1).value == "on"  # Ann dreams
    key(h, "2")  # Ben presses: not his to say
    key(h, "2", down=False)
    clock.now += 0.5
    h.app.pump()
    assert any("the Dreamer, says right (JUMP) or wrong (STAY)" in text for text in h.texts())
    assert h.app.controller.match.view["dreamer_pile"] == 0  # nothing changed
    key(h, "q")  # Ann: wrong card
    view = h.app.controller.match.view
    assert view["dreamer_pile"] == 1 and view["table"] == 3
    assert seat_input.led_mode(2).value == "blink"  # Ben's second attempt (3 players: two each)


def test_a_seat_press_changes_the_leds_after_its_frame_is_drawn(rig):
    """The LED worker's gpiozero calls run only once the frame that shows the press is on the
    screen: drawing it never waits for them."""
    clock, seat_input, hardware = rig
    players = ["Ann", "Ben", "Cat", "Dan"]
    h = Harness((800, 480), hardware=hardware)
    h.start_game({"game": "cloudmine", "players": players, "seats": {p: i + 1 for i, p in enumerate(players)}})
    order = []
    draw, put = h.app.draw, seat_input._worker.jobs.put
    h.app.draw = lambda: (order.append("frame"), draw())
    seat_input._worker.jobs.put = lambda job, *a, **k: (order.append("led"), put(job, *a, **k))
    before = h.app.controller.match
    dreamer = before.view["dreamer"]
    pin = seat_input.pin(players.index(dreamer) + 1, JUMP)
    pin.drive_low()
    clock.advance(0.05)
    h.app.pump()
    assert h.app.controller.match is not before  # the press was a guess
    assert "led" in order and order.index("frame") < order.index("led")
    pin.drive_high()
