"""Fixtures every test module shares."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion import i18n


@pytest.fixture(autouse=True)
def english_afterwards():
    """A test may switch the language; the next one starts in English again."""
    yield
    if i18n.current_language() != "en":  # the app's language listeners run only on a change
        i18n.set_language("en")


SLOW = {
    line
    for line in Path(__file__).with_name("slow_tests.txt").read_text(encoding="utf-8").splitlines()
    if line and not line.startswith("#")
}


# modules whose tests run a chain on the wall clock (the ship's twin flying balls through the real
# firmware, link and judge; the seats' hold timers and blinking): on a core shared with another
# test worker they miss their timings, so `make test` runs them after the rest, one at a time
REALTIME = {"tests/test_ship_twin.py", "tests/test_ship_game.py", "tests/test_ship_wake.py", "tests/test_ship_view.py"}


def pytest_collection_modifyitems(config, items):
    """Mark the tests named in slow_tests.txt slow, for `make check` to leave out, and those of
    the real-time modules realtime."""
    for item in items:
        function = item.nodeid.split("[")[0]
        if function in SLOW:
            item.add_marker(pytest.mark.slow)
        if function.split("::")[0] in REALTIME:
            item.add_marker(pytest.mark.realtime)
