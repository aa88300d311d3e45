"""Translations: gettext catalogs, one domain per area, switchable while the app runs.

Source strings are English. Each area owns a domain (the app's shared screens "app", The Cloud
Mine screen "cloudmine", the Cloud 9 and Cloudship screens "cloud9" and "cloudship", the rules
core's refusals "rules"), so that people adding strings never edit the same catalog. Catalogs live in
`companion/i18n/<lang>/LC_MESSAGES/<domain>.po`; the compiled `.mo` beside each is committed
(a fresh `pip install` needs no msgfmt) and `python -m companion.i18n` rebuilds them with polib;
tests/test_i18n.py fails when a `.mo` no longer matches its `.po`.

    from companion.i18n import translator
    _ = translator("cloudmine")
    _("{name} guesses").format(name=...)   # looked up in the current language at call time

Strings marked with `N_("...")` are collected for the catalogs but translated later with `_()`.
A refusal of the rules core (RulesError) is shown with `explain(error) -> (reason, rule)`.
"""

from __future__ import annotations

import gettext
from collections.abc import Callable
from functools import cache
from pathlib import Path

LOCALE_DIR = Path(__file__).resolve().parent
LANGUAGES = ("en", "de", "hu")
SOURCE_LANGUAGE = "en"
# each language's own name, shown as is in every language (a German speaker looks for "Deutsch")
LANGUAGE_NAMES = {"en": "English", "de": "Deutsch", "hu": "Magyar"}

_current = [SOURCE_LANGUAGE]
_listeners: list[Callable[[str], None]] = []


def set_language(language: str) -> None:
    if language not in LANGUAGES:
        raise ValueError(f"language must be one of {', '.join(LANGUAGES)}, not {language!r}")
    _current[0] = language
    for listener in list(_listeners):
        listener(language)


def current_language() -> str:
    return _current[0]


def on_language_change(listener: Callable[[str], None]) -> None:
    _listeners.append(listener)


@cache
def catalog(domain: str, language: str) -> gettext.NullTranslations:
    """The compiled catalog, or the identity for English and for a domain without one."""
    if language == SOURCE_LANGUAGE:
        return gettext.NullTranslations()
    return gettext.translation(domain, LOCALE_DIR, languages=[language], fallback=True)


class Translator:
    """`_` for one domain: translates into whatever language is current when it is called."""

    def __init__(self, domain: str):
        self.domain = domain

    def __call__(self, message: str) -> str:
        return catalog(self.domain, _current[0]).gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return catalog(self.domain, _current[0]).ngettext(singular, plural, n)


def translator(domain: str) -> Translator:
    return Translator(domain)


def N_(message: str) -> str:
    """Mark a string for the catalogs without translating it yet."""
    return message


def po_path(domain: str, language: str) -> Path:
    return LOCALE_DIR / language / "LC_MESSAGES" / f"{domain}.po"


def domains() -> list[str]:
    """Every domain that has a catalog in any language."""
    return sorted({p.stem for p in LOCALE_DIR.glob("*/LC_MESSAGES/*.po")})


from .refusals import explain as explain  # noqa: E402  (it uses the translators above)
