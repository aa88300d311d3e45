"""Types and helpers shared by the three games' rules.

Actions are plain JSON objects (dicts) exactly as in the replay contract
(`docs/reference/replay-contract.md`); states are immutable values private to each game
module, and `view()` turns a state into the contract's public JSON object.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

Action = Mapping[str, Any]
View = dict[str, Any]
S = TypeVar("S")  # a game's state type


class CompanionError(Exception):
    """The root of every error the companion raises on purpose, one sentence for a person.

    Each error also keeps the builtin it resembles (a RulesError is a ValueError, a missing
    serial port an OSError), so code that catches those goes on working. It lives here, at the
    bottom of the package, because the rules core imports nothing outside itself;
    `companion.errors` is its public name.
    """


class RulesError(CompanionError, ValueError):
    """An action that the rules do not allow in this state.

    `reason` is one sentence a player understands; `rule` names the rule it comes from
    (a rulebook section or a ruling in docs/rulings.md), so a screen can show both.

    The sentence is written as a `template` with {placeholders} and the `params` that fill
    them, so that the app can show it in the players' language (companion.i18n.explain):

        RulesError("{player} cannot jump out yet: {who} decides first",
                   "playing the game, step 2", player=player, who=who)

    Only a template with params is formatted: a name may contain braces.
    """

    def __init__(self, template: str, rule: str | None = None, **params: Any) -> None:
        reason = template.format(**params) if params else template
        super().__init__(reason)
        self.reason = reason
        self.rule = rule
        self.template = template
        self.params = params


class Term(str):
    """A game word or phrase inside a refusal's params (a colour, a die face, what a field
    holds): reads as the English word; the app shows it in the players' language."""

    __slots__ = ()


class Listing(str):
    """Several values said as one param: "Ann and Ben", "yellow or purple", "red, yellow".

    Reads as the English list (items joined by ", ", " and " or " or "); the app joins the
    items (each Term translated) the way the players' language does.
    """

    JOINERS = {",": ", ", "and": " and ", "or": " or "}
    items: tuple[str, ...]
    conjunction: str

    def __new__(cls, items: Sequence[str], conjunction: str = ",") -> Listing:
        listing = super().__new__(cls, cls.JOINERS[conjunction].join(items))
        listing.items = tuple(items)
        listing.conjunction = conjunction
        return listing


def terms(words: Sequence[str], conjunction: str = ",") -> Listing:
    """Game words as one Listing param, each word translatable."""
    return Listing([Term(w) for w in words], conjunction)


def N_(text: str) -> str:
    """Mark refusal text written outside a RulesError(...) call (a template picked from a table,
    a phrase passed on as a Term) so that the app's "rules" catalog collects it."""
    return text


class SetupError(CompanionError, ValueError):
    """A setup object that cannot start a game (wrong player count, unknown mode, ...)."""


class GameRules(Protocol):
    """What each game module offers (see cloud9.RULES, cloudship.RULES, cloudmine.RULES)."""

    name: str  # the contract's "game" value
    title: str
    min_players: int
    max_players: int

    def setup(self, config: Mapping[str, Any]) -> Any: ...
    def apply(self, state: Any, action: Action) -> Any: ...
    def legal_actions(self, state: Any) -> list[dict[str, Any]]: ...
    def view(self, state: Any) -> View: ...
    # chance: every roll due now with its probability ([] when no roll is due, or never)
    def roll_outcomes(self, state: Any) -> list[Outcome]: ...
    # the one spelling of an action, for comparing actions (see canonical_action)
    def canonical(self, action: Action) -> dict[str, Any]: ...


# --- validation helpers, so that every game refuses malformed input the same way ---------


def field(action: Action, name: str, kind: type | tuple[type, ...], what: str) -> Any:
    """The action's field `name`, which must be of `kind`; a RulesError names what is wrong.

    `what` says what the field holds, in words for the refusal: mark it with N_().
    """
    if name not in action:
        raise RulesError(
            '"{act}" needs a "{name}" field ({what})',
            "replay contract",
            act=action.get("act"),
            name=name,
            what=Term(what),
        )
    value = action[name]
    if type(value) is kind:  # the usual case, checked first: exactly the type asked for
        return value
    # bool is an int in Python: never let True stand for a number or a number for a bool
    if (isinstance(value, bool) and bool not in _as_tuple(kind)) or not isinstance(value, kind):
        raise RulesError(
            '"{name}" must be {what}, not {value!r}', "replay contract", name=name, what=Term(what), value=value
        )
    return value


def player_field(action: Action, players: Sequence[str]) -> str:
    name: str = field(action, "player", str, N_("a player's name"))
    if name not in players:
        raise RulesError("there is no player called {name!r}", "replay contract", name=name)
    return name


def string_tuple(action: Action, name: str, allowed: Sequence[str], what: str) -> tuple[str, ...]:
    """The action's field `name`: a list whose every item is one of `allowed`, as a tuple."""
    values = field(action, name, list, what)
    for v in values:
        if not isinstance(v, str) or v not in allowed:
            raise RulesError("{value!r} is not one of {allowed}", "replay contract", value=v, allowed=terms(allowed))
    return tuple(values)


def string_list(action: Action, name: str, allowed: Sequence[str], what: str) -> list[str]:
    """string_tuple as a list of its own."""
    return list(string_tuple(action, name, allowed, what))


def _as_tuple(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)


def setup_players(config: Mapping[str, Any], low: int, high: int, title: str) -> tuple[str, ...]:
    """The setup's player list, checked: `low`..`high` unique non-empty names."""
    players = config.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise SetupError('"players" must be a list of names')
    if any(not p.strip() for p in players):
        raise SetupError("player names must not be empty")
    if len(set(players)) != len(players):
        dupes = sorted({p for p in players if players.count(p) > 1})
        raise SetupError(f"player names must be unique: {', '.join(dupes)} appears twice")
    if not low <= len(players) <= high:
        raise SetupError(f"{title} is for {low} to {high} players, not {len(players)}")
    return tuple(players)


def setup_player_choice(config: Mapping[str, Any], key: str, players: Sequence[str]) -> str:
    """An optional setup field naming one of the players (default, also for null: the first)."""
    name = config.get(key)
    if name is None:
        return players[0]
    if name not in players:
        raise SetupError(f'"{key}" must be one of the players, not {name!r}')
    return str(name)


def next_seat(players: Sequence[str], name: str, step: int = 1) -> str:
    """The player `step` seats to the left (clockwise, the next in the list; ruling 1)."""
    return players[(players.index(name) + step) % len(players)]


def best(players: Sequence[str], key: Callable[[str], Any]) -> list[str]:
    """Every player whose key is the highest, in seat order (shared wins)."""
    top = max(key(p) for p in players)
    return [p for p in players if key(p) == top]


def evolve(state: S, **changes: Any) -> S:
    """A copy of a frozen dataclass with some fields changed.

    Does what dataclasses.replace does, about five times faster (no __init__ per copy): a
    resumed game replays every action, so this is on the path that must feel instant on a Pi.
    """
    new = _new_object(type(state))
    # the fields in one new dict, set past the frozen dataclass's __setattr__
    _set_attribute(new, "__dict__", state.__dict__ | changes)
    return new


# looked up once, not on every copy
_new_object = object.__new__
_set_attribute = object.__setattr__


def made(cls: type[S], **fields: Any) -> S:
    """A frozen dataclass made from every one of its fields, as evolve copies one: without the
    generated __init__'s setattr per field (no defaults, no __post_init__). A match's history
    makes one step per action, and a long journal replays hundreds of thousands of them."""
    new = _new_object(cls)
    _set_attribute(new, "__dict__", fields)
    return new


@dataclass(frozen=True)
class Outcome:
    """One possible roll and its probability (for simulations and the app's own roller)."""

    action: dict[str, Any]
    probability: float


def canonical_action(
    action: Action, fields: Mapping[str, Sequence[str]], orders: Mapping[str, Sequence[str]]
) -> dict[str, Any]:
    """An action in its one spelling: the "act" and the fields the game reads for it (extra
    fields are ignored, as the replay contract says), each list field that holds a multiset
    (dice, cards) in the order of `orders[field]`, anything else in it after them.

    Two actions that the rules treat alike have equal canonical forms: a roll listed in any
    order, the cards of a rise in any order. An act the game does not know is kept whole.
    """
    act = action.get("act")
    read = fields.get(act) if isinstance(act, str) else None
    if read is None:
        return dict(action)
    out: dict[str, Any] = {"act": act}
    for name in read:
        if name not in action:
            continue
        value = action[name]
        order = orders.get(name)
        if order is not None and isinstance(value, list):
            rank = {item: i for i, item in enumerate(order)}
            # junk may hold any JSON values: those sort after the known ones, by their JSON
            value = sorted(
                value,
                key=lambda v: (
                    rank.get(v, len(rank)) if isinstance(v, str) else len(rank),
                    json.dumps(v, sort_keys=True),
                ),
            )
        out[name] = value
    return out


def action_key(action: Action) -> str:
    """A canonical action as one hashable string (JSON with sorted keys): bool and number,
    1 and 1.0 stay apart, as the rules keep them apart."""
    return json.dumps(action, sort_keys=True)
