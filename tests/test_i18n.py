"""The catalogs: every string in the source is translated into German and Hungarian, keeps its
placeholders, can be drawn with the app's font, and the committed .mo files match the .po."""

from __future__ import annotations

import gettext
import os
import string

import polib
import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
import pygame.freetype  # noqa: E402

from companion import i18n  # noqa: E402
from companion.i18n.extract import extract  # noqa: E402
from companion.ui.kit.theme import FONT_PATH  # noqa: E402

SOURCE = extract()
TRANSLATED = [lang for lang in i18n.LANGUAGES if lang != i18n.SOURCE_LANGUAGE]
CASES = [(domain, lang) for domain in sorted(SOURCE) for lang in TRANSLATED]


def po_file(domain: str, lang: str) -> polib.POFile:
    path = i18n.po_path(domain, lang)
    if not path.exists():
        pytest.skip(f"{path} is missing (test_every_string_is_translated reports it)")
    return polib.pofile(str(path))


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def test_the_app_and_the_cloud_mine_have_catalogs():
    assert {"app", "cloudmine"} <= set(SOURCE)
    assert len(SOURCE["app"]) > 20


def test_the_rules_catalog_holds_the_refusals_of_the_rules_core_and_the_controller():
    rules = SOURCE["rules"]
    assert "rules" in i18n.domains()
    assert {
        "{player} cannot jump out yet: {who} decides first",  # a RulesError(...) literal
        "playing the game, step 2",  # its rule
        "Wild Colors",  # a RULE_... constant
        "the yellow bed is full: plant the wild flower in a bed that is not full ({open})",  # N_ table
        "a player's name",  # an N_ phrase for a Term
        "no game is in progress",
        "controller",  # the controller's
        "purple",
        "{items} and {last}",  # the app's game words, joins
    } <= set(rules)
    assert all(plural is None for plural in rules.values())


@pytest.mark.parametrize("domain,lang", CASES)
def test_every_string_is_translated(domain, lang):
    path = i18n.po_path(domain, lang)
    assert path.exists(), f"{path} is missing: run python -m companion.i18n.extract {domain}"
    po = polib.pofile(str(path))
    entries = {e.msgid: e for e in po if not e.obsolete}
    missing = [m for m in SOURCE[domain] if m not in entries]
    assert not missing, f"{lang}/{domain}.po lacks {missing}"
    empty = [
        e.msgid
        for e in entries.values()
        if "fuzzy" in e.flags or not (e.msgstr or all(e.msgstr_plural.values()) and e.msgstr_plural)
    ]
    assert not empty, f"{lang}/{domain}.po leaves these untranslated: {empty}"
    unused = [m for m in entries if m not in SOURCE[domain]]
    assert not unused, f"{lang}/{domain}.po has strings the source no longer uses: {unused}"


@pytest.mark.parametrize("domain,lang", CASES)
def test_translations_keep_their_placeholders(domain, lang):
    for e in po_file(domain, lang):
        targets = [e.msgstr] if not e.msgid_plural else list(e.msgstr_plural.values())
        for target in targets:
            assert placeholders(target) == placeholders(e.msgid), (e.msgid, target)


@pytest.mark.parametrize("domain,lang", CASES)
def test_the_compiled_catalog_matches_the_po(domain, lang):
    po = po_file(domain, lang)
    mo_path = i18n.po_path(domain, lang).with_suffix(".mo")
    assert mo_path.exists(), f"{mo_path} is missing: run python -m companion.i18n"
    with open(mo_path, "rb") as f:
        compiled = gettext.GNUTranslations(f)
    for e in po:
        if e.msgid_plural:
            assert compiled.ngettext(e.msgid, e.msgid_plural, 1) == e.msgstr_plural[0]
            assert compiled.ngettext(e.msgid, e.msgid_plural, 2) == e.msgstr_plural[1]
        else:
            assert compiled.gettext(e.msgid) == e.msgstr, f"{mo_path} is stale: run python -m companion.i18n"


@pytest.mark.parametrize("domain,lang", CASES)
def test_the_font_has_every_letter(domain, lang):
    pygame.freetype.init()
    font = pygame.freetype.Font(FONT_PATH, 20)
    letters = set()
    for e in po_file(domain, lang):
        letters |= set(e.msgstr) | {c for v in e.msgstr_plural.values() for c in v}
    lacking = sorted(c for c in letters - {"\n"} if font.get_metrics(c)[0] is None)
    assert not lacking, f"the font cannot draw {lacking}"


def test_the_language_switches_at_run_time():
    _ = i18n.translator("app")
    try:
        i18n.set_language("de")
        assert _("Settings") == "Einstellungen"
        i18n.set_language("hu")
        assert _("Settings") == "Beállítások"
        i18n.set_language("en")
        assert _("Settings") == "Settings"
    finally:
        i18n.set_language("en")


def test_an_unknown_language_is_refused():
    with pytest.raises(ValueError, match="de, hu"):
        i18n.set_language("fr")


def test_the_extractor_finds_strings_by_domain(tmp_path):
    (tmp_path / "mod.py").write_text(
        'from companion.i18n import N_, translator\n_ = translator("demo")\n'
        'A = N_("Marked")\ndef f(n):\n    return _("Hello {name}"), _.ngettext("one card", "{n} cards", n)\n'
        "def g(x):\n    return _(x)\n",
        encoding="utf-8",
    )
    (tmp_path / "other.py").write_text('def _(s):\n    return s\nX = _("Not a catalog string")\n', encoding="utf-8")
    assert extract(tmp_path) == {"demo": {"Marked": None, "Hello {name}": None, "one card": "{n} cards"}}


def test_the_extractor_collects_refusals_of_the_rules_core(tmp_path):
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "game.py").write_text(
        'from .common import N_, RulesError\nRULE_FLY = "4. Fly"\nOTHER = "not a rule"\n'
        'TABLE = {1: N_("one {x} left")}\n'
        "def f(a, b):\n"
        '    raise RulesError("{a} may not {b}", "step 2", a=a, b=b)\n'
        "def g(a):\n"
        '    raise RulesError("nothing to undo", rule="undo")\n'
        "def h(a):\n"
        '    return RulesError(f"{a} built by code", RULE_FLY)\n',
        encoding="utf-8",
    )
    (tmp_path / "controller.py").write_text(
        'from .rules import RulesError\ndef submit():\n    raise RulesError("no game", "controller")\n',
        encoding="utf-8",
    )
    (tmp_path / "replay.py").write_text(  # not shown by the app: not in the catalog
        'from .rules import RulesError\nE = RulesError("not JSON", "replay contract")\n', encoding="utf-8"
    )
    assert extract(tmp_path) == {
        "rules": dict.fromkeys(
            ["no game", "controller", "4. Fly", "{a} may not {b}", "step 2", "nothing to undo", "undo", "one {x} left"]
        )
    }
