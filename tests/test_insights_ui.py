"""The risk meter on the Cloud 9 screen, the storm forecast on the Cloudship screen and the
Settings switch, on real pygame (dummy drivers), in every language at every listed size."""

import pygame
import pytest

from companion import config as cfg, i18n
from companion.insights.odds import pilot_rise_chance
from companion.ui.boards.risk_meter import GREEN, RED, RiskMeter, draw_face
from companion.ui.kit.layout import SIZES
from companion.ui.screens.settings import SettingsScreen
from companion.ui.tools.harness import Harness
from shots import shots

SHOTS = shots("insights-shots")
PLAYERS = ["Anna", "Benedikt", "Cleo", "Dávid"]


def harness(size=(800, 480), language="en", **config) -> Harness:
    h = Harness(size, config=cfg.Config(language=language, **config))
    return h


def deciding(h: Harness, dice=("red", "green")):
    h.start_game({"game": "cloud9", "players": PLAYERS})
    h.app.screen.submit({"act": "roll", "dice": list(dice)})
    h.app.pump()


def keyed(h: Harness, key: str):
    return [w for w in h.widgets() if w.key == key]


def test_the_meter_shows_the_exact_chance_while_passengers_decide():
    h = harness()
    deciding(h)
    [meter] = keyed(h, "risk-meter")
    expected = pilot_rise_chance(h.app.controller.match)
    assert meter.chance == expected
    assert f"Rise: {round(expected * 100)}%" in h.texts()
    # the next passenger sees it too; the pilot's rise step does not
    h.tap("Stay in")
    assert keyed(h, "risk-meter")
    h.tap("Stay in")
    h.tap("Stay in")
    assert not keyed(h, "risk-meter")


def test_the_meter_follows_the_cards_played():
    h = harness()
    deciding(h, ("red", "blank"))
    before = keyed(h, "risk-meter")[0].chance
    for _ in range(3):
        h.tap("Stay in")
    h.app.screen.submit({"act": "rise", "cards": ["red"]})  # a red card is now seen
    h.app.screen.submit({"act": "roll", "dice": ["red", "blank"]})
    h.app.pump()
    assert keyed(h, "risk-meter")[0].chance < before


def test_settings_switch_the_odds_off_and_on(tmp_path):
    path = tmp_path / "config.toml"
    h = Harness((800, 480), config_path=path)
    h.app.show(SettingsScreen(h.app))
    h.app.pump()
    h.tap("settings:more")  # the odds are on Settings' second page
    h.tap("odds:off")
    assert h.app.config.show_odds is False
    assert cfg.load(path)[0].show_odds is False  # saved
    deciding(h)
    assert not keyed(h, "risk-meter")
    h.app.change_config(show_odds=True)
    h.app.pump()
    assert keyed(h, "risk-meter")


def test_settings_switch_the_forecast_on_and_off(tmp_path):
    path = tmp_path / "config.toml"
    h = Harness((800, 480), config_path=path)
    assert h.app.config.show_forecast is False
    h.start_game({"game": "cloudship", "players": ["Anna", "Benedikt"]})
    assert not keyed(h, "forecast-win")
    h.app.show(SettingsScreen(h.app))
    h.app.pump()
    h.tap("settings:more")
    h.tap("forecast:on")
    assert h.app.config.show_forecast is True and cfg.load(path)[0].show_forecast is True  # saved
    forecast_on_screen(h)
    assert keyed(h, "forecast-win")
    h.app.change_config(show_forecast=False)
    h.app.pump()
    assert not keyed(h, "forecast-win")


def test_a_bad_show_odds_setting_is_refused(tmp_path):
    config, problems = cfg.from_dict({"show_odds": "yes"})
    assert config.show_odds is True and problems == ["show_odds: must be true or false, not 'yes'; using the default"]
    path = tmp_path / "config.toml"
    path.write_text('show_odds = "maybe"\n')
    config, problems = cfg.load(path)
    assert config.show_odds is True and problems


def face_pixels(chance: float) -> pygame.Surface:
    surface = pygame.Surface((100, 100))
    surface.fill((255, 255, 255))
    draw_face(surface, (50, 50), 45, chance)
    return surface


def test_the_face_smiles_when_likely_and_frowns_when_not():
    ink = (27, 42, 65)
    smile, frown = face_pixels(0.9), face_pixels(0.1)
    assert smile.get_at((50, 50))[:3] == GREEN and frown.get_at((50, 50))[:3] == RED
    maybe = face_pixels(0.5)

    def ink_height(face, x):
        """The mean height of the mouth's ink in one column (below the eyes, inside the rim)."""
        ys = [y for y in range(58, 86) if face.get_at((x, y))[:3] == ink]
        return sum(ys) / len(ys)

    # a smile is lower in the middle than near its corners; a frown higher; unsure is level
    assert ink_height(smile, 50) > ink_height(smile, 36) + 2
    assert ink_height(frown, 50) < ink_height(frown, 36) - 2
    assert ink_height(maybe, 50) == ink_height(maybe, 40)


def test_the_bar_fills_as_far_as_the_chance():
    h = harness()
    surface = pygame.Surface((300, 40))
    widths = {}
    for chance in (0.25, 0.75):
        surface.fill((255, 255, 255))
        meter = RiskMeter(pygame.Rect(0, 0, 300, 40), chance)
        meter.draw(surface, type("Ctx", (), {"theme": h.app.theme})())
        colour = RED if chance < 0.5 else GREEN
        widths[chance] = sum(surface.get_at((x, 20))[:3] == colour for x in range(300))
    assert widths[0.75] > 2 * widths[0.25]


def forecast_on_screen(h: Harness, mode="sunny"):
    h.start_game({"game": "cloudship", "players": ["Anna", "Benedikt"], "mode": mode})
    h.app.screen._forecaster.wait()
    h.app.pump()


def test_the_forecast_appears_without_making_the_table_wait():
    h = harness(show_forecast=True)
    forecast_on_screen(h)
    [win] = keyed(h, "forecast-win")
    assert win.text.endswith("% win")
    assert keyed(h, "forecast-storm")[0].text == "~14 rounds"  # storm_rounds(0) = 14.35


def test_no_forecast_unless_it_is_switched_on():
    h = harness()  # the forecast's percentages are for grown-ups: off by default
    h.start_game({"game": "cloudship", "players": ["Anna", "Benedikt"], "mode": "sunny"})
    assert not keyed(h, "forecast-win") and getattr(h.app.screen, "_forecaster", None) is None


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_meter_forecast_and_settings_fit_at_every_size_in_every_language(size):
    for language in i18n.LANGUAGES:
        h = harness(size, language, show_forecast=True)
        deciding(h)
        assert keyed(h, "risk-meter") and h.overflows() == [] and h.off_canvas() == []
        h.save(SHOTS / f"cloud9-{size[0]}x{size[1]}-{language}.png")
        forecast_on_screen(h)
        assert keyed(h, "forecast-win") and h.overflows() == [] and h.off_canvas() == []
        h.save(SHOTS / f"cloudship-{size[0]}x{size[1]}-{language}.png")
        h.app.show(SettingsScreen(h.app))
        h.app.pump()
        assert h.overflows() == [] and h.small_targets() == []
