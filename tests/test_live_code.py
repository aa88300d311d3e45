"""The live page's switch on the Settings screen and its QR code (Settings and the game menu)."""

from __future__ import annotations

import pytest
import segno

from companion import config as settings
from companion.live import address
from companion.ui.screens.live_code import LiveCodeScreen, QRCode
from companion.ui.screens.settings import SettingsScreen
from companion.ui.tools.harness import Harness

SIZES = [(800, 480), (720, 1280), (1024, 600)]


@pytest.fixture
def url_file(tmp_path, monkeypatch):
    path = tmp_path / "live-url"
    monkeypatch.setenv(address.URL_FILE_ENV, str(path))
    monkeypatch.setattr(address, "AVAHI_SOCKET", tmp_path / "no-avahi")  # none, unless a test makes it
    return path


def no_code(h) -> bool:
    return not any(isinstance(w, QRCode) for w in h.widgets())


def test_switching_it_on_is_saved_and_offers_the_code(tmp_path, url_file):
    path = tmp_path / "config.toml"
    h = Harness((800, 480), config_path=path)
    h.app.show(SettingsScreen(h.app))
    h.app.pump()
    h.tap("settings:more")  # the live page is on Settings' second page
    assert not h.shows("live:code")  # off by default: nothing to scan
    h.tap("live:on")
    assert settings.load(path)[0].live is True  # the file the live page's service reads
    h.tap("live:code")
    assert isinstance(h.screen, LiveCodeScreen)
    h.app.back()
    h.tap("live:off")
    assert settings.load(path)[0].live is False and not h.shows("live:code")


def test_the_code_is_the_address_the_live_page_published(url_file):
    address.publish("http://192.168.1.20:8019/", url_file)
    h = Harness((800, 480))
    h.app.change_config(live=True)
    h.app.show(LiveCodeScreen(h.app))
    h.app.pump()
    assert h.shows("http://192.168.1.20:8019/")
    code = next(w for w in h.widgets() if isinstance(w, QRCode))
    picture = h.render()
    matrix = segno.make("http://192.168.1.20:8019/", error="m").matrix
    count = len(matrix) + 8
    module = min(code.rect.w, code.rect.h) // count
    left = code.rect.centerx - module * count // 2
    top = code.rect.centery - module * count // 2
    # every module drawn as the code has it: dark where it is dark, white in the quiet zone
    for y in range(count):
        for x in range(count):
            inside = 4 <= x < count - 4 and 4 <= y < count - 4
            dark = inside and matrix[y - 4][x - 4]
            pixel = picture.get_at((left + x * module + module // 2, top + y * module + module // 2))[:3]
            assert pixel == ((0, 0, 0) if dark else (255, 255, 255)), (x, y)


def test_without_a_published_address_it_shows_the_machines_name_while_avahi_announces_it(url_file, monkeypatch):
    avahi = url_file.with_name("avahi-socket")
    avahi.touch()
    monkeypatch.setattr(address, "AVAHI_SOCKET", avahi)
    h = Harness((800, 480))
    h.app.change_config(live=True, live_port=8123)
    h.app.show(LiveCodeScreen(h.app))
    h.app.pump()
    assert any(text.startswith("http://") and text.endswith(".local:8123/") for text in h.texts())


@pytest.mark.parametrize(
    "published,words",
    [
        ("http://127.0.0.1:8765/", "listens on this machine alone"),  # loopback: no home network
        (None, "no Avahi"),  # nothing said, no name announced
    ],
)
def test_no_code_that_leads_nowhere_it_says_why_instead(url_file, published, words):
    if published:
        address.publish(published, url_file)
    h = Harness((800, 480))
    h.app.change_config(live=True)
    h.app.show(LiveCodeScreen(h.app))
    h.app.pump()
    assert no_code(h) and h.shows("No address a phone can open")
    assert any(words in text for text in h.texts())
    assert not any(text.startswith("http://") for text in h.texts())


def test_the_game_menu_offers_the_code_only_while_it_is_on(url_file):
    h = Harness((800, 480))
    h.start_game({"game": "cloudmine", "players": ["Ann", "Ben", "Cat", "Dan"]})
    h.app.game_screen.open_menu()
    h.app.pump()
    assert not h.shows("Live page")
    h.app.close_dialog()
    h.app.change_config(live=True)
    h.app.game_screen.open_menu()
    h.app.pump()
    h.tap("Live page")
    assert isinstance(h.screen, LiveCodeScreen)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("language", ["en", "de", "hu"])
@pytest.mark.parametrize("published", ["http://192.168.178.100:8019/", "http://127.0.0.1:8019/", None])
def test_the_switch_and_the_code_fit_every_screen_and_language(size, language, url_file, published):
    if published:
        address.publish(published, url_file)
    h = Harness(size)
    h.app.change_config(language=language, live=True)
    more = SettingsScreen(h.app)
    more.page = 1  # the live page's row is on Settings' second page
    for screen in (SettingsScreen(h.app), more, LiveCodeScreen(h.app)):
        h.app.show(screen)
        h.app.pump()
        assert h.overflows() == [] and h.clipped() == [] and h.covered() == [] and h.off_canvas() == []
        assert h.small_targets() == []
