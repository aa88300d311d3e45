"""What a seat press means: pure logic, one small table per game.

    route(press, view, seats) -> Decision     # an action for the controller, or why not
    led_plan(view, seats)     -> {seat: LedMode}
    claim(press, seats, waiting) -> (Decision, SeatMap)   # the players screen

`view` is the replay contract's public state (`Match.view`); `seats` says who sits where.
Nothing here touches pins, screens or the clock, so every case is a plain test.

Decision kinds:
- "act":    submit `action` (the rules core still has the last word)
- "note":   accepted, but nothing for the rules (a solo pilot staying in: they roll next)
- "refuse": this player may not decide now; nothing changes and their LED flickers once
- "ignore": nothing at all, not even a flicker (an empty seat, a player who jumped out)
- "claim":  the players screen gave the seat to `player`
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..i18n import N_, translator
from .events import JUMP, STAY, LedMode, SeatPress

_ = translator("seats")

ACT, NOTE, REFUSE, IGNORE, CLAIM = "act", "note", "refuse", "ignore", "claim"
View = Mapping[str, Any]

BUTTON_NAMES = {JUMP: N_("JUMP"), STAY: N_("STAY")}


def button_name(button: str) -> str:
    """The button's name on screen, in the current language."""
    return _(BUTTON_NAMES[button])


def describe_button(seat: int, button: str) -> str:
    """'seat 3 JUMP': a button as the seat test and the status line name it."""
    return _("seat {seat} {button}").format(seat=seat, button=button_name(button))


@dataclass(frozen=True)
class Decision:
    kind: str
    player: str | None = None
    action: dict[str, Any] | None = None
    reason: str = ""  # one line for the screen
    rule: str | None = None  # the rulebook section it comes from, as RulesError names it


@dataclass(frozen=True)
class SeatMap:
    """Who sits at which seat (seat numbers from 1). Immutable: changes return a new map."""

    pairs: tuple[tuple[int, str], ...] = ()

    @classmethod
    def in_order(cls, players: Iterable[str]) -> SeatMap:
        """The first player at seat 1, the next at seat 2, ... (clockwise round the table)."""
        return cls(tuple(enumerate(players, start=1)))

    @classmethod
    def from_json(cls, data: Mapping[str, str]) -> SeatMap:
        return cls(tuple(sorted((int(seat), name) for seat, name in data.items())))

    def to_json(self) -> dict[str, str]:
        return {str(seat): name for seat, name in self.pairs}

    def player_at(self, seat: int) -> str | None:
        return next((name for s, name in self.pairs if s == seat), None)

    def seat_of(self, player: str) -> int | None:
        return next((s for s, name in self.pairs if name == player), None)

    def with_seat(self, seat: int, player: str) -> SeatMap:
        """`player` at `seat` (leaving any seat they had before; whoever sat there stands up)."""
        kept = [(s, n) for s, n in self.pairs if s != seat and n != player]
        return SeatMap(tuple(sorted(kept + [(seat, player)])))

    def without(self, player: str) -> SeatMap:
        return SeatMap(tuple((s, n) for s, n in self.pairs if n != player))


# --- one table per game: (view, player, button) -> Decision, and view -> {player: LedMode} ---


def _cloud9_press(view: View, player: str, button: str) -> Decision:
    phase, pilot, who = view["phase"], view["pilot"], view.get("to_decide")
    if player not in view["basket"]:
        return Decision(IGNORE, player, reason=_("{player} has jumped out of this trip").format(player=player))
    if phase == "decide":
        if player == who:
            return Decision(
                ACT,
                player,
                {"act": button, "player": player},
                _("{player} jumps out").format(player=player)
                if button == JUMP
                else _("{player} stays in").format(player=player),
            )
        return Decision(
            REFUSE,
            player,
            reason=_("{who} decides now: jump out or stay in").format(who=who),
            rule="playing the game, step 2",
        )
    if phase == "roll":
        if player == pilot and _flies_solo(view):
            if button == JUMP:
                return Decision(
                    ACT,
                    player,
                    {"act": JUMP, "player": player},
                    _("{player} jumps out").format(player=player),
                    "flying solo",
                )
            return Decision(
                NOTE, player, reason=_("{player} stays in: roll the dice").format(player=player), rule="flying solo"
            )
        return Decision(
            REFUSE,
            player,
            reason=_("{pilot} rolls the dice first").format(pilot=pilot),
            rule="playing the game, step 1",
        )
    return Decision(
        REFUSE,
        player,
        reason=_("{pilot} makes the balloon rise or fall").format(pilot=pilot),
        rule="playing the game, step 3",
    )


def _flies_solo(view: View) -> bool:
    # "solo" is a project extra; without it: before a roll, a basket of one is always a solo
    # flight (a trip starts with everyone aboard, so only a rise can leave the pilot alone)
    if "solo" in view:
        return bool(view["solo"])
    return view["phase"] == "roll" and list(view["basket"]) == [view["pilot"]]


def _cloud9_leds(view: View) -> dict[str, LedMode]:
    if view["phase"] == "decide":
        return {view["to_decide"]: LedMode.BLINK}
    if view["phase"] == "roll" and _flies_solo(view):
        return {view["pilot"]: LedMode.BLINK}  # the solo pilot decides before rolling
    return {view["pilot"]: LedMode.ON}  # the pilot rolls, then rises or falls


def _cloudmine_press(view: View, player: str, button: str) -> Decision:
    dreamer, guesser = view["dreamer"], view["to_guess"]
    if player != dreamer:
        return Decision(
            REFUSE,
            player,
            reason=_("{dreamer}, the Dreamer, says right (JUMP) or wrong (STAY)").format(dreamer=dreamer),
            rule="a round, step 4",
        )
    correct = button == JUMP
    reason = (_("{guesser} found the chosen card") if correct else _("{guesser} pointed at a wrong card")).format(
        guesser=guesser
    )
    return Decision(ACT, player, {"act": "guess", "player": guesser, "correct": correct}, reason)


def _cloudmine_leds(view: View) -> dict[str, LedMode]:
    return {view["dreamer"]: LedMode.ON, view["to_guess"]: LedMode.BLINK}


def _cloudship_press(view: View, player: str, button: str) -> Decision:
    commander, phase = view["commander"], view["phase"]
    if player != commander:
        return Decision(
            REFUSE,
            player,
            reason=_("{commander} is in command: their JUMP button lands the ship").format(commander=commander),
            rule="4. Fly",
        )
    if button == STAY:
        return Decision(REFUSE, player, reason=_("the commander's JUMP button lands the ship"), rule="4. Fly")
    if phase == "flight":
        return Decision(ACT, player, {"act": "land"}, _("the ship has landed"), "5. Water the flowerbeds")
    if phase == "roll":
        return Decision(
            REFUSE, player, reason=_("roll the dice first: the ship has not taken off"), rule="1. Roll the dice"
        )
    return Decision(
        REFUSE, player, reason=_("the ship has landed: finish the planting first"), rule="6. Plant and remove flowers"
    )


def _cloudship_leds(view: View) -> dict[str, LedMode]:
    return {view["commander"]: LedMode.ON}


@dataclass(frozen=True)
class GameSeats:
    press: Callable[[View, str, str], Decision]
    leds: Callable[[View], dict[str, LedMode]]


GAME_SEATS: dict[str, GameSeats] = {
    "cloud9": GameSeats(_cloud9_press, _cloud9_leds),
    "cloudmine": GameSeats(_cloudmine_press, _cloudmine_leds),
    "cloudship": GameSeats(_cloudship_press, _cloudship_leds),
}


# --- the public functions ----------------------------------------------------------------


def route(press: SeatPress, view: View, seats: SeatMap) -> Decision:
    """What `press` means in the game whose public state is `view`."""
    player = seats.player_at(press.seat)
    if player is None or player not in view["players"]:
        return Decision(IGNORE, reason=_("nobody sits at seat {seat}").format(seat=press.seat))
    if view["over"]:
        return Decision(REFUSE, player, reason=_("the game is over"), rule="end of the game")
    return GAME_SEATS[view["game"]].press(view, player, press.button)


def led_plan(view: View, seats: SeatMap) -> dict[int, LedMode]:
    """Each seat's LED for this state: whose decision it is blinks, whose turn it is is lit;
    when the game is over the winners' LEDs are lit."""
    if view["over"]:
        by_player = dict.fromkeys(view["winners"], LedMode.ON)
    else:
        by_player = GAME_SEATS[view["game"]].leds(view)
    plan = {}
    for name, mode in by_player.items():
        seat = seats.seat_of(name) if name is not None else None
        if seat is not None:
            plan[seat] = mode
    return plan


def claim(press: SeatPress, seats: SeatMap, waiting: Sequence[str]) -> tuple[Decision, SeatMap]:
    """The players screen: a press at a free seat gives it to the first player still waiting."""
    taken = seats.player_at(press.seat)
    if taken is not None:
        return Decision(
            REFUSE, taken, reason=_("seat {seat} is {player}'s").format(seat=press.seat, player=taken)
        ), seats
    if not waiting:
        return Decision(REFUSE, reason=_("every player has a seat")), seats
    player = waiting[0]
    return (
        Decision(CLAIM, player, reason=_("{player} sits at seat {seat}").format(player=player, seat=press.seat)),
        seats.with_seat(press.seat, player),
    )


def claim_led_plan(seats: SeatMap) -> dict[int, LedMode]:
    """On the players screen a taken seat is lit."""
    return {seat: LedMode.ON for seat, _name in seats.pairs}
