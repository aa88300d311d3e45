"""The live page in a real browser (Debian's chromium, driven by selenium through chromium-driver):
it loads and shows the game, follows actions replayed into the journal by itself, comes back after
the server restarts, and is saved at phone and TV sizes for a person to look at."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

from livepage import HOST, Live, Writer, example, get

CHROMIUM, DRIVER = shutil.which("chromium"), shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(
    CHROMIUM is None or DRIVER is None, reason="chromium and chromium-driver are not installed (.ci/run installs them)"
)
C9 = example("cloud9-four-players-tie-break.jsonl")
PHONE, TV = (390, 844), (1920, 1080)
# where the screenshots are kept for a person to look at (a fresh temporary folder unless given)
SHOTS = Path(os.environ.get("LIVE_SCREENSHOTS") or tempfile.mkdtemp(prefix="live-shots-"))


def browser(profile: Path, size: tuple[int, int], flags: tuple[str, ...] = ()):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        f"--user-data-dir={profile}",
        f"--window-size={size[0]},{size[1]}",
        *flags,
    ):
        options.add_argument(flag)
    if size[0] < size[1]:  # a phone: its screen's size and pixel density, as the page sees them
        options.add_experimental_option(
            "mobileEmulation", {"deviceMetrics": {"width": size[0], "height": size[1], "pixelRatio": 3.0}}
        )
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    driver.set_page_load_timeout(60)
    return driver


def wait_for(driver, check, timeout: float = 30, what: str = ""):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout, poll_frequency=0.1).until(lambda d: check(d), what)


def version(driver) -> str:
    return driver.execute_script("var p = document.getElementById('live'); return p ? p.dataset.version : ''")


def picture_loaded(driver) -> bool:
    return driver.execute_script(
        "var i = document.querySelector('#live img');return !!i && i.complete && i.naturalWidth > 0"
    )


@pytest.fixture
def table(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text("live = true\n")
    db = tmp_path / "journal.sqlite3"
    writer = Writer(db, C9[0])
    for line in C9[1:8]:
        writer.send(line)
    live = Live(db, config)
    yield live, writer
    writer.close()
    live.stop()


def test_the_page_shows_the_game_and_follows_each_action_by_itself(table, tmp_path):
    from selenium.webdriver.common.by import By

    live, writer = table
    driver = browser(tmp_path / "profile", TV)
    try:
        driver.get(live.url + "/")
        wait_for(driver, picture_loaded, what="the picture of the screen")
        names = [e.text for e in driver.find_elements(By.CSS_SELECTOR, ".player .name")]
        assert names == ["Ann", "Ben", "Cat", "Dan"]
        assert driver.find_element(By.CSS_SELECTOR, ".prompt").text
        first = version(driver)
        for line in C9[8:12]:  # the real writer journals them; the page is never reloaded
            shown = version(driver)
            writer.send(line)
            wait_for(driver, lambda d, shown=shown: version(d) != shown, what="the page following the action")
        assert version(driver) != first
        wait_for(driver, picture_loaded, what="the new picture")
        assert driver.execute_script("return performance.getEntriesByType('navigation').length") == 1
        driver.save_screenshot(str(SHOTS / "tv-1920x1080.png"))
    finally:
        driver.quit()


def test_the_page_comes_back_after_the_server_restarts(table, tmp_path):
    live, writer = table
    driver = browser(tmp_path / "profile", PHONE)
    try:
        driver.get(live.url + "/?lang=de")
        wait_for(driver, picture_loaded)
        before = version(driver)
        live.stop()  # the Pi's service restarts, or the Wi-Fi drops
        wait_for(
            driver,
            lambda d: d.execute_script("return document.body.dataset.link") == "off",
            what="the page saying it is reconnecting",
        )
        writer.send(C9[8])  # a move made meanwhile
        again = Live(live.db, live.config, port=live.port)
        try:
            wait_for(
                driver,
                lambda d: version(d) not in ("", before),
                timeout=60,
                what="the page back, by itself, on the new server",
            )
            assert driver.execute_script("return document.body.dataset.link") == "on"
            wait_for(driver, picture_loaded)
            assert "Punkte" in driver.page_source
            driver.save_screenshot(str(SHOTS / "phone-after-restart-de.png"))
        finally:
            again.stop()
    finally:
        driver.quit()


@pytest.mark.parametrize("name,size,language", [("phone", PHONE, "en"), ("phone", PHONE, "hu"), ("tv", TV, "de")])
def test_it_fits_a_phone_upright_and_a_tv_across(table, tmp_path, name, size, language):
    live, _writer = table
    driver = browser(tmp_path / "profile", size)
    try:
        driver.get(f"{live.url}/?lang={language}")
        wait_for(driver, picture_loaded)
        width = driver.execute_script("return document.documentElement.clientWidth")
        # nothing wider than the screen (no sideways scrolling on a phone)
        assert driver.execute_script("return document.documentElement.scrollWidth") <= width
        box = driver.execute_script(
            "var r = document.querySelector('#live img').getBoundingClientRect();return [r.width, r.height]"
        )
        natural = driver.execute_script(
            "var i = document.querySelector('#live img'); return [i.naturalWidth, i.naturalHeight]"
        )
        if name == "phone":
            assert natural == [1080, 1920] and box[0] >= width * 0.9  # the upright picture, the full width
        else:
            assert natural == [1920, 1080] and box[0] >= width * 0.6  # the landscape one, most of the TV
        for page in ("/", "/history", "/records"):
            driver.get(f"{live.url}{page}?lang={language}")
            if page == "/":
                wait_for(driver, picture_loaded)
            # nothing wider than the page's own width (a scroll bar, where it has one, takes its share)
            assert driver.execute_script(
                "return document.documentElement.scrollWidth <= document.documentElement.clientWidth"
            )
            driver.save_screenshot(str(SHOTS / f"{name}-{language}-{page.strip('/') or 'game'}.png"))
    finally:
        driver.quit()


def shown_picture(driver) -> str:
    """The address of the picture the browser chose for its screen (portrait or landscape)."""
    return driver.execute_script("return document.querySelector('#live img').currentSrc")


def test_a_phone_watching_beside_a_tv_gets_its_own_upright_picture(table, tmp_path):
    import io

    import pygame

    live, _writer = table
    tv, phone = browser(tmp_path / "tv", TV), browser(tmp_path / "phone", PHONE)
    try:
        tv.get(live.url + "/")  # the TV first: the landscape picture is drawn
        wait_for(tv, picture_loaded)
        assert shown_picture(tv).split("?")[0].endswith("/landscape.png")
        phone.get(live.url + "/")  # then the phone, in the same language
        wait_for(phone, picture_loaded)
        src = shown_picture(phone)
        assert src.split("?")[0].endswith("/portrait.png")
        status, _headers, png = get(src, "")
        upright = pygame.image.load(io.BytesIO(png), "p.png")
        w, h = upright.get_size()
        lower = [upright.get_at((x, y))[:3] for x in range(0, w, 24) for y in range(h // 2, h, 24)]
        assert status == 200 and lower.count((0, 0, 0)) / len(lower) < 0.02
        phone.save_screenshot(str(SHOTS / "phone-beside-a-tv-en.png"))
    finally:
        tv.quit()
        phone.quit()


def test_a_tv_arriving_while_the_room_is_full_comes_in_by_itself_and_follows(tmp_path):
    import socket

    from companion.live.server import MAX_CONNECTIONS

    config = tmp_path / "config.toml"
    config.write_text("live = true\n")
    db = tmp_path / "journal.sqlite3"
    writer = Writer(db, C9[0])
    for line in C9[1:8]:
        writer.send(line)
    live = Live(db, config, extra=("--head-timeout", "120"))
    flood = []
    driver = browser(tmp_path / "profile", TV)
    try:
        for _ in range(MAX_CONNECTIONS):  # every place taken by connections that say nothing
            s = socket.create_connection((HOST, live.port), timeout=10)
            s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            flood.append(s)
        driver.get(live.url + "/")
        assert "tries again by itself" in driver.page_source and version(driver) == ""
        driver.save_screenshot(str(SHOTS / "tv-busy.png"))
        for s in flood:  # the flood ends; nobody touches the TV
            s.close()
        wait_for(driver, lambda d: version(d) != "", timeout=30, what="the page loaded by itself")
        wait_for(driver, picture_loaded)
        shown = version(driver)
        writer.send(C9[8])
        wait_for(driver, lambda d: version(d) != shown, what="the TV following the next action")
    finally:
        driver.quit()
        for s in flood:
            s.close()
        writer.close()
        live.stop()


def test_a_page_that_rebinds_its_name_to_the_pi_cannot_read_the_game(table, tmp_path):
    live, _writer = table
    # the browser resolves a stranger's name to the Pi, as a DNS-rebinding page makes it do
    driver = browser(tmp_path / "profile", TV, ("--host-resolver-rules=MAP evil.example.com 127.0.0.1",))
    try:
        driver.get(f"http://evil.example.com:{live.port}/")
        text = driver.find_element("tag name", "body").text
        assert "own names" in text and "Ann" not in text
        driver.get(f"http://localhost:{live.port}/")  # its own names still work
        wait_for(driver, picture_loaded)
    finally:
        driver.quit()


@pytest.mark.parametrize("language", ["en", "de", "hu"])
def test_on_a_tv_the_picture_is_the_screen_on_a_phone_the_words_come_first(table, tmp_path, language):
    live, _writer = table
    tv, phone = browser(tmp_path / "tv", TV), browser(tmp_path / "phone", PHONE)
    try:
        tv.get(f"{live.url}/?lang={language}")
        wait_for(tv, picture_loaded)
        box = tv.execute_script(
            "var r = document.querySelector('#live img').getBoundingClientRect();"
            "return [r.left, r.top, r.width, r.height, document.documentElement.clientWidth, innerHeight]"
        )
        left, top, width, height, screen_w, screen_h = box
        assert top == 0 and left == 0 and width >= screen_w - 1 and height >= screen_h - 1  # the whole screen
        # the app's own typeface, and an icon
        assert tv.execute_script("return document.fonts.check('bold 20px \"Atkinson Hyperlegible\"')")
        assert tv.execute_script("return getComputedStyle(document.body).fontFamily").startswith(
            '"Atkinson Hyperlegible"'
        )
        icon = tv.execute_script("return document.querySelector('link[rel=icon]').href")
        assert get(icon, "")[0] == 200
        tv.save_screenshot(str(SHOTS / f"tv-{language}.png"))
        phone.get(f"{live.url}/?lang={language}")
        wait_for(phone, picture_loaded)
        tops = phone.execute_script(
            "function t(q) { return document.querySelector(q).getBoundingClientRect().top; }"
            "return [t('.prompt'), t('.players'), t('#live img'), innerHeight]"
        )
        prompt, scores, picture, screen = tops
        assert prompt < scores < picture and scores < screen  # the prompt and the scores first, in sight
        phone.save_screenshot(str(SHOTS / f"phone-{language}.png"))
    finally:
        tv.quit()
        phone.quit()


def test_the_page_follows_the_tables_language_unless_the_viewer_chose_one(table, tmp_path):
    live, _writer = table
    follows, chose = browser(tmp_path / "a", PHONE), browser(tmp_path / "b", PHONE)
    try:
        follows.get(live.url + "/")
        chose.get(live.url + "/?lang=hu")
        for driver in (follows, chose):
            wait_for(driver, picture_loaded)
        assert follows.execute_script("return document.documentElement.lang") == "en"
        live.config.write_text('live = true\nlanguage = "de"\n')  # the Settings screen's choice
        wait_for(
            follows,
            lambda d: d.execute_script("return document.documentElement.lang") == "de",
            what="the page in the table's new language, by itself",
        )
        wait_for(follows, picture_loaded)
        assert "Punkte" in follows.page_source and "lang=de" in shown_picture(follows)
        assert chose.execute_script("return document.documentElement.lang") == "hu"  # a choice stays
        assert "Pontok" in chose.page_source
        follows.save_screenshot(str(SHOTS / "phone-followed-de.png"))
    finally:
        follows.quit()
        chose.quit()
