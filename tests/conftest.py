"""Fixtures every test module shares."""

from __future__ import annotations

import pytest

from companion import i18n


@pytest.fixture(autouse=True)
def english_afterwards():
    """A test may switch the language; the next one starts in English again."""
    yield
    if i18n.current_language() != "en":  # the app's language listeners run only on a change
        i18n.set_language("en")
