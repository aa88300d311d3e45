"""The live page in a real browser (Debian's chromium, driven by selenium through chromium-driver):
it loads and shows the game, follows actions replayed into the journal by itself, comes back after
the server restarts, and is saved at phone and TV sizes for a person to look at."""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from pathlib import Path

import pytest

from livepage import Live, Writer, example

CHROMIUM, DRIVER = shutil.which("chromium"), shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(CHROMIUM is None or DRIVER is None,
                                reason="chromium and chromium-driver are not installed (.ci/run installs them)")
C9 = example("cloud9-four-players-tie-break.jsonl")
PHONE, TV = (390, 844), (1920, 1080)
# where the screenshots are kept for a person to look at (a fresh temporary folder unless given)
SHOTS = Path(os.environ.get("LIVE_SCREENSHOTS") or tempfile.mkdtemp(prefix="live-shots-"))


def browser(profile: Path, size: tuple[int, int]):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", f"--user-data-dir={profile}", f"--window-size={size[0]},{size[1]}"):
        options.add_argument(flag)
    if size[0] < size[1]:  # a phone: its screen's size and pixel density, as the page sees them
        options.add_experimental_option("mobileEmulation", {"deviceMetrics": {
            "width": size[0], "height": size[1], "pixelRatio": 3.0}})
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    driver.set_page_load_timeout(60)
    return driver


def wait_for(driver, check, timeout: float = 30, what: str = ""):
    from selenium.webdriver.support.ui import WebDriverWait

    return WebDriverWait(driver, timeout, poll_frequency=0.1).until(lambda d: check(d), what)


def version(driver) -> str:
    return driver.execute_script("var p = document.getElementById('live'); return p ? p.dataset.version : ''")


def picture_loaded(driver) -> bool:
    return driver.execute_script("var i = document.querySelector('#live img');"
                                 "return !!i && i.complete && i.naturalWidth > 0")


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
            wait_for(driver, lambda d: version(d) != shown, what="the page following the action")
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
        wait_for(driver, lambda d: d.execute_script("return document.body.dataset.link") == "off",
                 what="the page saying it is reconnecting")
        writer.send(C9[8])  # a move made meanwhile
        again = Live(live.db, live.config, port=live.port)
        try:
            wait_for(driver, lambda d: version(d) not in ("", before), timeout=60,
                     what="the page back, by itself, on the new server")
            assert driver.execute_script("return document.body.dataset.link") == "on"
            wait_for(driver, picture_loaded)
            assert "Punkte" in driver.page_source
            driver.save_screenshot(str(SHOTS / "phone-after-restart-de.png"))
        finally:
            again.stop()
    finally:
        driver.quit()


@pytest.mark.parametrize("name,size,language", [("phone", PHONE, "en"), ("phone", PHONE, "hu"),
                                                ("tv", TV, "de")])
def test_it_fits_a_phone_upright_and_a_tv_across(table, tmp_path, name, size, language):
    live, _writer = table
    driver = browser(tmp_path / "profile", size)
    try:
        driver.get(f"{live.url}/?lang={language}")
        wait_for(driver, picture_loaded)
        width = driver.execute_script("return document.documentElement.clientWidth")
        # nothing wider than the screen (no sideways scrolling on a phone)
        assert driver.execute_script("return document.documentElement.scrollWidth") <= width
        box = driver.execute_script("var r = document.querySelector('#live img').getBoundingClientRect();"
                                    "return [r.width, r.height]")
        natural = driver.execute_script("var i = document.querySelector('#live img'); return [i.naturalWidth, i.naturalHeight]")
        if name == "phone":
            assert natural == [1080, 1920] and box[0] >= width * 0.9  # the upright picture, the full width
        else:
            assert natural == [1920, 1080] and box[0] >= width * 0.6  # the landscape one, most of the TV
        for page in ("/", "/history", "/records"):
            driver.get(f"{live.url}{page}?lang={language}")
            if page == "/":
                wait_for(driver, picture_loaded)
            # nothing wider than the page's own width (a scroll bar, where it has one, takes its share)
            assert driver.execute_script("return document.documentElement.scrollWidth "
                                         "<= document.documentElement.clientWidth")
            driver.save_screenshot(str(SHOTS / f"{name}-{language}-{page.strip('/') or 'game'}.png"))
    finally:
        driver.quit()
