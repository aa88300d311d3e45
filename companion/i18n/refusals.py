"""Refusals in the players' language.

The rules core writes each refusal as an English template with params (RulesError.template,
.params, see companion/rules/common.py) and imports nothing from here. `explain` looks the
template and the rule name up in the "rules" catalog and fills in the params: a player's name
as it is, a game word (Term) and each word of a Listing in the current language, a Listing
joined with this language's "and" / "or".

    reason, rule = explain(error)   # a RulesError, or anything with `reason` and `rule`
"""

from __future__ import annotations

from typing import Any

from ..rules.common import Listing, Term
from . import N_, SOURCE_LANGUAGE, current_language, translator

_ = translator("rules")

# the game words refusals carry as Term params: colours, die faces and cards of Cloud 9, beds and
# die faces of Cloudship (the phrases saying what a field holds are marked N_ in the rules core)
GAME_WORDS = (
    N_("red"),
    N_("yellow"),
    N_("green"),
    N_("purple"),
    N_("blank"),
    N_("wild"),
    N_("white"),
    N_("blue"),
    N_("storm"),
)

# rules that only the seat buttons cite (companion/devices/router.py); the rest are the rules core's
SEAT_RULES = (N_("1. Roll the dice"), N_("5. Water the flowerbeds"), N_("6. Plant and remove flowers"))


def explain(error: Any) -> tuple[str, str | None]:
    """(reason, rule) of a refusal in the current language.

    Falls back to the English reason when the template has no translation (or a translation
    does not fit its params), so a refusal is always shown, never lost.
    """
    english = getattr(error, "reason", None)
    if english is None:
        english = str(error)
    rule = getattr(error, "rule", None)
    return _reason(error, english), (_(rule) if rule else rule)


def _reason(error: Any, english: str) -> str:
    template = getattr(error, "template", None)
    if template is None or current_language() == SOURCE_LANGUAGE:
        return english
    translated = _(template)
    if translated == template:  # not in the catalog (yet)
        return english
    params = getattr(error, "params", None)
    if not params:  # like RulesError: a template without params is never formatted
        return translated
    try:
        return translated.format(**{name: _param(value) for name, value in params.items()})
    except (KeyError, IndexError, ValueError):
        return english


def _param(value: Any) -> Any:
    if isinstance(value, Listing):
        return _join([_param(item) for item in value.items], value.conjunction)
    if isinstance(value, Term):
        return _(str(value))
    return value  # a name, a number, or the junk a refused action carried: shown as it is


def _join(items: list[str], conjunction: str) -> str:
    if conjunction == "," or len(items) < 2:
        return ", ".join(items)
    both = _("{items} and {last}") if conjunction == "and" else _("{items} or {last}")
    return both.format(items=", ".join(items[:-1]), last=items[-1])
