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


def pytest_collection_modifyitems(config, items):
    """Mark the tests named in slow_tests.txt slow, for `make check` to leave out."""
    for item in items:
        function = item.nodeid.split("[")[0]
        if function in SLOW:
            item.add_marker(pytest.mark.slow)
