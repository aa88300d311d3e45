"""The practice flight (real pygame, dummy video): reached from the Cloudship game menu and from
Home's Cloudship card; the deck's balls roll as the ship is tilted (the twin's own hull and
balls on a desktop, the screen's own model without a ship); nothing is scored; every language
at 800x480 and 720x1280 with nothing cut off."""

import time

import pytest
from gpiozero.pins.mock import MockFactory

from companion.config import Config
from companion.ui.loop.ship_view import ShipPanel
from companion.ui.screens.cloudship import demo_game
from companion.ui.screens.practice import LocalDeck, PracticeScreen, TwinDeck
from companion.ui.tools.harness import Harness

SETUP, _ = demo_game()
SIZES = [(800, 480), (720, 1280)]
LANGUAGES = ["en", "de", "hu"]


class Clock:
    """The app's clock, moved by the test: the practice deck advances with it."""

    def __init__(self):
        self.t = 100.0

    def __call__(self):
        return self.t


def run_for(h, clock, seconds, step=1 / 30):
    for _ in range(round(seconds / step)):
        clock.t += step
        h.app.pump()


def positions(screen):
    return [(round(u, 4), round(v, 4)) for _k, u, v in screen.deck.balls()]


def test_from_homes_cloudship_card_the_deck_tips_where_tapped_and_its_balls_roll():
    clock = Clock()
    h = Harness((800, 480), clock=clock)
    h.tap("game:cloudship")
    h.tap("practice")
    screen = h.app.screen
    assert isinstance(screen, PracticeScreen) and isinstance(screen.deck, LocalDeck)
    assert len(screen.deck.balls()) == 3
    before = positions(screen)
    run_for(h, clock, 1.0)
    assert positions(screen) == before  # level: nothing rolls
    h.tap("tilt:e")  # tip the bow down: the balls roll to the bow (right on screen)
    run_for(h, clock, 1.5)
    after = screen.deck.balls()
    assert all(u > u0 for (_k, u, _v), (u0, _v0) in zip(after, before))
    h.tap("tilt:w")
    run_for(h, clock, 6.0)
    assert screen.falls >= 1 and h.shows("Splash! Through the hole.")  # one rolled over the hole
    run_for(h, clock, 2.0)
    assert len(screen.deck.balls()) == 3  # ... and was put back on the deck


def test_from_the_game_menu_the_twin_is_tilted_and_nothing_is_scored():
    h = Harness((800, 480))
    panel = ShipPanel.open(
        Config(ship_port="sim"), h.app.wake, True, pin_factory=MockFactory(), flight_log=None, sim_options={"seed": 2}
    )
    h.app.hardware.ship = panel
    try:
        panel.session.attach(h.app.controller)
        h.start_game(SETUP)
        h.app.controller.submit({"act": "roll", "dice": ["yellow", "purple", "storm"]})
        h.app.pump()
        h.tap("menu")
        h.tap("Practice flight")
        screen = h.app.screen
        assert isinstance(screen, PracticeScreen) and isinstance(screen.deck, TwinDeck)
        end = time.monotonic() + 5
        while panel.session.link != "connected" and time.monotonic() < end:
            h.app.pump()
            time.sleep(0.01)
        before = {round(u, 3): v for _k, u, v in screen.deck.balls()}
        h.tap("tilt:n")  # port side down: the balls roll to port (up on the screen)
        end = time.monotonic() + 5
        while time.monotonic() < end and not (panel.session.tilt and panel.session.tilt[1] < -4):
            h.app.pump()
            time.sleep(0.01)
        assert panel.session.tilt[1] < -4  # the twin's firmware reports the tilt the pad asked for
        end = time.monotonic() + 1.5
        while time.monotonic() < end:
            h.app.pump()
            time.sleep(0.01)
        after = screen.deck.balls()
        assert after and all(v > max(before.values()) for _k, _u, v in after)  # all at the port rim
        assert any(text.startswith("The ship reports: bow") for text in h.texts())
        assert h.app.controller.match.view["drops"] == []  # practice balls are no drops
        h.tap("back")
        assert h.app.screen is not screen
    finally:
        panel.close()


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("language", LANGUAGES)
def test_the_practice_flight_in_every_language_and_orientation(tmp_path, size, language):
    clock = Clock()
    h = Harness(size, config=Config(language=language), clock=clock)
    h.app.show(PracticeScreen(h.app))
    h.app.pump()
    h.tap("tilt:ne")
    run_for(h, clock, 0.8)
    assert h.overflows() == []
    assert h.off_canvas() == []
    h.save(tmp_path / f"practice-{language}-{size[0]}x{size[1]}.png")
