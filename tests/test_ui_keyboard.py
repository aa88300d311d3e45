"""The on-screen keyboard: each language's own layout, shaped like a keyboard at every size
(rows staggered, never wrapped), and every letter of the three languages a tap or two away."""

from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from companion import i18n
from companion.ui.kit.layout import SIZES
from companion.ui.screens.keyboard import ACCENTS, LAYOUTS
from companion.ui.tools.harness import Harness


def open_keyboard(size, language) -> Harness:
    h = Harness(size)
    h.app.change_config(language=language)
    h.tap("game:cloudmine")
    h.tap("name:0")
    return h


def key_rows(h: Harness) -> list[list]:
    """The letter keys grouped by their row on screen, top to bottom, each left to right."""
    keys = [w for w in h.widgets() if (w.key or "").startswith("key:")]
    by_row: dict[int, list] = {}
    for key in keys:
        by_row.setdefault(key.rect.y, []).append(key)
    return [sorted(row, key=lambda k: k.rect.x) for _, row in sorted(by_row.items())]


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_each_language_has_its_own_keyboard_in_one_shape_at_every_size(size, language):
    h = open_keyboard(size, language)
    rows = key_rows(h)
    expected = [letters for _offset, letters in LAYOUTS[language]]
    assert ["".join(k.key[4:] for k in row) for row in rows] == expected  # whole rows, never wrapped
    widths = {k.rect.w for row in rows for k in row}
    assert max(widths) - min(widths) <= 2  # keys of one size
    # staggered like a keyboard: the second letter row starts to the right of the first
    first, second = rows[-3], rows[-2]
    assert second[0].rect.x > first[0].rect.x
    assert h.overflows() == [] and h.small_targets() == [] and h.off_canvas() == []


def test_the_first_letters_say_which_layout_it_is():
    for language, top in (("en", "qwerty"), ("de", "qwertz"), ("hu", "qwertz")):
        letters = [letters for _offset, letters in LAYOUTS[language]]
        assert any(row.startswith(top) for row in letters), language
    assert set("äöüß") <= set("".join(r for _o, r in LAYOUTS["de"]))
    assert set("áéíóöőúüű") <= set("".join(r for _o, r in LAYOUTS["hu"]))


def test_an_accented_name_can_be_typed_in_english_too():
    h = open_keyboard((720, 1280), "en")
    h.tap("key:a")  # shift is on for the first letter: "A"
    for letter in "ndr":
        h.tap(f"key:{letter}")
    h.tap("accents")
    assert set("áéíóöőúüű") <= {k.key[4:] for row in key_rows(h) for k in row}
    h.tap("key:á")
    assert not h.find("accents").selected  # back to the letters after one
    h.tap("key:s")
    assert h.screen.text == "András"
    assert all(len(letters) <= 12 for _offset, letters in ACCENTS)


# --- the names played before, offered above the keys in portrait --------------------------------
def summary(id, players, started):
    from companion.journal.history import GameSummary

    return GameSummary(id, "cloudmine", "The Cloud Mine", {}, players, started, started, None, "playing", "", [], {}, 0)


def test_recent_names_come_newest_game_first_each_once_without_the_tables():
    from companion.journal.history import recent_names

    games = [summary(2, ["Cleo", "anna", "Dóra"], "2026-12-02"), summary(1, ["Anna", "Bálint", "Cleo"], "2026-12-01")]
    assert recent_names(games) == ["Cleo", "anna", "Dóra", "Bálint"]
    assert recent_names(games, taken=["CLEO", "Dóra"]) == ["anna", "Bálint"]


@given(
    st.lists(
        st.lists(st.sampled_from(["Anna", "anna", "Ben", "Cleo", "Dóra", "Éva"]), min_size=1, max_size=5), max_size=6
    ),
    st.lists(st.sampled_from(["ANNA", "Ben", "Zsolt"]), max_size=3),
)
def test_recent_names_never_repeat_a_name_or_offer_a_taken_one(tables, taken):
    from companion.journal.history import recent_names

    names = recent_names([summary(i, players, f"2026-12-{i + 1:02}") for i, players in enumerate(tables)], taken)
    folded = [name.casefold() for name in names]
    assert len(folded) == len(set(folded))
    assert not set(folded) & {name.casefold() for name in taken}
    assert set(folded) == {name.casefold() for players in tables for name in players} - {t.casefold() for t in taken}


@pytest.fixture
def played_journal(tmp_path):
    from companion.controller import GameController
    from companion.journal import Journal
    from companion.ui.tools.demo import players_game

    journal = Journal.open(tmp_path / "journal.sqlite3")
    setup, _actions = players_game("cloudmine", 3)
    GameController(journal).new_game({**setup, "players": ["Bálint", "Cleo", "Dóra"]})
    yield journal
    journal.close()


def test_a_name_played_before_is_a_tap_in_portrait_and_narrows_as_letters_are_typed(played_journal):
    h = Harness((720, 1280), journal=played_journal)
    h.tap("game:cloudmine")
    h.tap("name:0")
    while h.screen.text:
        h.tap("delete")
    # the table's other players are not offered: only those of the three not at it
    others = {name.casefold() for name in h.app.stack[-1].names()[1:]}
    offered = {w.key for w in h.widgets() if (w.key or "").startswith("known:")}
    assert offered == {f"known:{name}" for name in ("Bálint", "Cleo", "Dóra") if name.casefold() not in others}
    h.tap("key:c")
    assert {w.key for w in h.widgets() if (w.key or "").startswith("known:")} <= {"known:Cleo"}
    h.tap("known:Cleo")
    assert type(h.app.screen).__name__ == "PlayersScreen"
    assert h.app.screen.names()[0] == "Cleo"
    assert not h.overflows() and not h.uneven()


def test_an_unreadable_history_offers_no_names_and_typing_still_works(played_journal, monkeypatch):
    from companion.journal.errors import JournalError

    h = Harness((720, 1280), journal=played_journal)

    def unreadable(*args, **kwargs):
        raise JournalError("the games cannot be read")

    monkeypatch.setattr(played_journal, "games", unreadable)
    h.tap("game:cloudmine")
    h.tap("name:0")
    assert h.app.screen.suggestions == []
    while h.screen.text:
        h.tap("delete")
    for letter in "eva":
        h.tap(f"key:{letter}")
    h.tap("done")
    assert h.app.screen.names()[0] == "Eva"


@pytest.mark.parametrize("language", i18n.LANGUAGES)
def test_in_portrait_without_names_to_offer_the_keys_and_the_name_use_the_height(language):
    h = open_keyboard((720, 1280), language)
    for letter in "zsofia":
        h.tap(f"key:{letter}")
    content = h.app.frame.content
    field = next(w for w in h.widgets() if w.key == "field").rect
    assert field.y - content.y <= 0.2 * content.h  # not the top 40% left empty
    theme = h.app.theme
    typed = next(w for w in h.widgets() if w.key == "typed")
    assert typed.fitted(theme).px >= theme.size("display") * 0.9  # the name in large type
    commands = [w for w in h.widgets() if w.key in ("shift", "accents", "space", "delete", "cancel", "done")]
    assert len({w.label.fitted(theme).px for w in commands}) == 1  # the command keys at one size
    assert h.overflows() == [] and h.small_targets() == [] and h.off_canvas() == []
