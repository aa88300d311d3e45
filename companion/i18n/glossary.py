"""The rulebooks' game words per language (glossary.toml), and a check of a catalog against them.

    from companion.i18n import glossary
    glossary.violations("de", "cloud9", "{name}: jump or stay?", ["{name}: abspringen?"])
    # -> ['jump-out: "abspring" is forbidden in de', ...]

A term applies to a message when its English pattern finds the word in the msgid; then every
translated form must use the language's word. Forbidden variants are wrong anywhere.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

GLOSSARY_PATH = Path(__file__).resolve().parent / "glossary.toml"
_PLACEHOLDER = re.compile(r"\{[^{}]*\}")


@dataclass(frozen=True)
class Term:
    id: str
    en: re.Pattern
    words: dict[str, re.Pattern]  # language -> the rulebook's word
    forbid: dict[str, tuple[re.Pattern, ...]]  # language -> variants never to use
    domains: frozenset[str] | None = None
    skip: frozenset[str] = field(default_factory=frozenset)

    def applies_to(self, domain: str, msgid: str) -> bool:
        return (
            (self.domains is None or domain in self.domains)
            and msgid not in self.skip
            and bool(self.en.search(without_placeholders(msgid)))
        )


def _compile(pattern: str) -> re.Pattern:
    return re.compile(pattern, re.IGNORECASE)


def without_placeholders(text: str) -> str:
    """'{commander} rolls' -> ' rolls': a placeholder's name is not a word of the sentence."""
    return _PLACEHOLDER.sub(" ", text)


@cache
def load(path: Path = GLOSSARY_PATH) -> tuple[tuple[Term, ...], dict[str, tuple[re.Pattern, ...]]]:
    """(terms, forbidden wording per language) from the TOML file."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    terms = []
    for raw in data.get("term", []):
        languages = [lang for lang in raw if lang not in ("id", "note", "en", "forbid", "domains", "skip")]
        terms.append(
            Term(
                id=raw["id"],
                en=_compile(raw["en"]),
                words={lang: _compile(raw[lang]) for lang in languages},
                forbid={lang: tuple(map(_compile, patterns)) for lang, patterns in raw.get("forbid", {}).items()},
                domains=frozenset(raw["domains"]) if "domains" in raw else None,
                skip=frozenset(raw.get("skip", ())),
            )
        )
    forbidden = {lang: tuple(map(_compile, patterns)) for lang, patterns in data.get("forbidden", {}).items()}
    return tuple(terms), forbidden


def violations(language: str, domain: str, msgid: str, translations: list[str]) -> list[str]:
    """Every way the translations of one message break the glossary, as readable lines."""
    terms, forbidden = load()
    found = []
    for text in translations:
        words = without_placeholders(text)
        for term in terms:
            word = term.words.get(language)
            if word is not None and term.applies_to(domain, msgid) and not word.search(words):
                found.append(f"{term.id}: {text!r} should say /{word.pattern}/ for {msgid!r}")
            for pattern in term.forbid.get(language, ()):
                if pattern.search(text):
                    found.append(f"{term.id}: {text!r} uses the forbidden /{pattern.pattern}/")
        for pattern in forbidden.get(language, ()):
            if pattern.search(text):
                found.append(f"{text!r} uses the forbidden /{pattern.pattern}/")
    return found
