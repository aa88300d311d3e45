"""Every German and Hungarian catalog uses the rulebooks' game words (companion/i18n/glossary.toml)
and none of their forbidden variants."""

from __future__ import annotations

import polib
import pytest

from companion import i18n
from companion.i18n import glossary

TRANSLATED = [lang for lang in i18n.LANGUAGES if lang != i18n.SOURCE_LANGUAGE]
CASES = [(domain, lang) for domain in i18n.domains() for lang in TRANSLATED]


def translations(entry: polib.POEntry) -> list[str]:
    return [entry.msgstr] if not entry.msgid_plural else list(entry.msgstr_plural.values())


@pytest.mark.parametrize("domain,lang", CASES)
def test_the_catalog_uses_the_rulebooks_game_words(domain, lang):
    po = polib.pofile(str(i18n.po_path(domain, lang)))
    problems = [
        line for e in po if not e.obsolete for line in glossary.violations(lang, domain, e.msgid, translations(e))
    ]
    assert not problems, "\n".join(problems)


def test_every_term_has_a_word_in_each_language_and_finds_something():
    terms, forbidden = glossary.load()
    assert len(terms) >= 20
    assert set(forbidden) == set(TRANSLATED)
    msgids = [(domain, e.msgid) for domain in i18n.domains() for e in polib.pofile(str(i18n.po_path(domain, "de")))]
    for term in terms:
        assert set(TRANSLATED) <= set(term.words), term.id
        # a term no English string uses is a typo in its pattern
        assert any(term.applies_to(domain, msgid) for domain, msgid in msgids), term.id


@pytest.mark.parametrize(
    "lang,domain,msgid,wrong",
    [
        ("de", "cloud9", "Jumped out", "Abgesprungen"),
        ("de", "seats", "{player} jumps out", "{player} springt ab"),
        ("de", "app", "First commander: {name}", "Erstes Kommando: {name}"),
        ("de", "seats", "{pilot} makes the balloon rise or fall", "{pilot} lässt den Ballon steigen oder fallen"),
        ("de", "app", "Ship sensor", "Schiffsensor"),
        ("de", "cloudship", "Roll for me", "App würfelt"),
        ("de", "app", "Ship sensor", "Sensor Ihres Schiffs"),
        ("hu", "app", "First commander: {name}", "Első parancsnok: {name}"),
        ("hu", "cloud9", "Trip {number}", "{number}. út"),
        ("hu", "cloudmine", "{name} guesses", "{name} tippel"),
        ("hu", "cloudmine", "Observer {place}", "Megfigyelő {place}"),
        ("hu", "app", "The Cloud Mine", "A Felhőbánya"),
        ("hu", "cloudmine", "Round {number}", "{number}. kör"),
        ("hu", "cloud9", "{name}: rise or fall?", "{name}: emelkedik vagy zuhan?"),
        (
            "hu",
            "cloudship",
            "Fly! Tap the ball on the bed where it lands.",
            "Repüljetek! Koppints a golyóra ott, ahová esett.",
        ),
        ("hu", "app", "The Cloud Mine", "The Cloud Mine"),
        (
            "hu",
            "rules",
            "{act!r} is not an action in The Cloud Mine (only guess)",
            "{act!r} nem lépés a The Cloud Mine játékban (csak guess)",
        ),
        ("hu", "app", "No seat", "Nincs hely"),
        ("de", "cloudmine", "Chooser", "Wähler"),
        ("de", "story", "{name} (Chooser)", "{name} (Wähler)"),
        ("de", "cloud9", "Draw pile: {pile} · discards: {discards}", "Stoß: {pile} · abgelegt: {discards}"),
    ],
)
def test_the_review_s_findings_are_caught(lang, domain, msgid, wrong):
    assert glossary.violations(lang, domain, msgid, [wrong])


@pytest.mark.parametrize(
    "lang,domain,msgid,right",
    [
        (
            "de",
            "cloudship",
            "{commander} rolls the dice first",
            "zuerst würfelt {commander}",
        ),  # a placeholder is no word
        ("de", "cloudship", "A wild flower! Which bed gets it?", "Eine Joker-Blume! Welches Beet bekommt sie?"),
        ("hu", "cloudship", "Round {number}", "{number}. kör"),
        (
            "hu",
            "rules",
            "{act!r} is not an action in The Cloud Mine (only guess)",
            "{act!r} nem lépés a Cloud Mine játékban (csak guess)",
        ),
        ("hu", "app", "The Cloud Mine", "A Cloud Mine"),
        ("de", "cloudmine", "Chooser", "Wolkenspäher"),
        ("de", "cloud9", "Draw pile: {pile} · discards: {discards}", "Nachziehstapel: {pile} · Ablage: {discards}"),
    ],
)
def test_right_wording_passes(lang, domain, msgid, right):
    assert glossary.violations(lang, domain, msgid, [right]) == []
