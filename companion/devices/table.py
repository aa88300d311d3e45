"""The main thread's side of the seats: presses become actions, states become LEDs.

    table = SeatTable(SeatInput.open(config, wake=...))
    table.play(controller, seats)          # a game screen is shown
    table.claim_seats(lambda: waiting)     # the players screen is shown
    table.seat_test()                      # settings -> seat test
    for outcome in table.poll(): ...       # once per main-loop pass

Presses at once: two players pressing together are both taken, in the rules' order. A press
the rules refuse now is held back for `together_s`; if a press in that window is accepted and
makes it acceptable (the passenger before them decided), it is taken too. Only when the window
has passed is it refused (its LED flickers and the screen gets the reason). A change that did
not come from the seats (a touch on the screen, undo) ends the window at once, so a press made
before the dice were entered never becomes a decision about them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..config import Config
from ..controller import GameController
from ..i18n import explain, translator
from ..rules import Match, RulesError
from .events import LedMode, SeatPress
from .router import (
    ACT,
    IGNORE,
    NOTE,
    REFUSE,
    Decision,
    SeatMap,
    claim,
    claim_led_plan,
    describe_button,
    led_plan,
    route,
)
from .seat_test import SeatTestModel
from .seats import SeatInput

_ = translator("seats")

TOGETHER_S = 0.2  # presses this close count as "at once"


@dataclass(frozen=True)
class SeatOutcome:
    press: SeatPress
    decision: Decision


class SeatTable:
    def __init__(self, seat_input: SeatInput, *, together_s: float = TOGETHER_S):
        self.input = seat_input
        self.clock = seat_input.clock
        self.together_s = together_s
        self.seats = SeatMap()
        self.test: SeatTestModel | None = None
        self._mode = "idle"
        self._controller: GameController | None = None
        self._waiting: Callable[[], Sequence[str]] = lambda: ()
        self._current_claims: Callable[[], SeatMap] | None = None
        self._pending: list[tuple[SeatPress, Decision]] = []
        self._seen: Match | None = None  # the match as the last poll left it
        self._leds_for: Match | None = None  # the match the LEDs show

    @classmethod
    def open(cls, config: Config, wake: Callable[[], None] | None = None) -> SeatTable:
        return cls(SeatInput.open(config, wake=wake))

    # --- what the screens switch to ------------------------------------------------------

    def play(self, controller: GameController, seats: SeatMap | None = None) -> None:
        """Seat presses act on `controller`'s game; `seats` defaults to the players in order."""
        self._switch("play")
        self._controller = controller
        if seats is None and controller.match is not None:
            seats = SeatMap.in_order(controller.match.view["players"])
        self.seats = seats or SeatMap()
        self._seen = controller.match
        if controller.match is not None:
            self._show_game()

    def claim_seats(
        self,
        waiting: Callable[[], Sequence[str]],
        seats: SeatMap | None = None,
        current: Callable[[], SeatMap] | None = None,
    ) -> None:
        """A press at a free seat gives it to `waiting()[0]` (the players screen's next name).

        `seats`: the claims to start from (default none). `current`, when given, is asked for
        the screen's own claims before every press, so seats taken or freed by touch count too;
        without it, a claim whose player is waiting again is dropped.
        """
        self._switch("claim")
        self._waiting = waiting
        self._current_claims = current
        self.seats = seats or SeatMap()

    def seat_test(self) -> SeatTestModel:
        self._switch("test")
        self.test = SeatTestModel(self.input.seat_count, self.clock, self.clock(), stuck=self.input.stuck)
        return self.test

    def idle(self) -> None:
        """Screens without seat input: presses are ignored and the LEDs are dark."""
        self._switch("idle")

    def _switch(self, mode: str) -> None:
        self._mode = mode
        self._pending.clear()
        self._leds_for = None
        self.test = None

    # --- once per main-loop pass ---------------------------------------------------------

    def poll(self) -> list[SeatOutcome]:
        presses = self.input.poll()
        handler = {"play": self._play, "claim": self._claim, "test": self._test}.get(self._mode)
        if handler is None:
            self.input.set_leds({})
            return [SeatOutcome(p, Decision(IGNORE)) for p in presses]
        return handler(presses)

    def status(self) -> str | None:
        """One line for the status bar while a button is stuck, else None."""
        stuck = sorted(self.input.stuck)
        if not stuck:
            return None
        names = ", ".join(describe_button(seat, button) for seat, button in stuck)
        return _("held down, ignored until released: {buttons}").format(buttons=names)

    def close(self) -> None:
        self.input.close()

    # --- a game ---------------------------------------------------------------------------

    def _play(self, presses: list[SeatPress]) -> list[SeatOutcome]:
        out: list[SeatOutcome] = []
        controller = self._controller
        if controller is None or controller.match is None:
            self.input.set_leds({})
            return [SeatOutcome(p, Decision(IGNORE)) for p in presses]
        if controller.match is not self._seen:
            self._refuse_pending(out, lambda press: True)  # the game moved on without the seats
        for press in presses:
            decision = self._decide(press)
            if decision.kind == REFUSE and decision.action is None and self.together_s > 0:
                self._pending.append((press, decision))
                self.input.wake_after(self.together_s)
                continue
            self._settle(out, press, decision)
            if decision.kind == ACT:
                self._retry_pending(out, press)
        now = self.clock()
        self._refuse_pending(out, lambda press: now - press.time >= self.together_s)
        self._seen = controller.match
        self._show_game()
        return out

    def _decide(self, press: SeatPress) -> Decision:
        """Route the press; an action goes to the controller at once (RulesError: refused)."""
        controller = self._controller
        assert controller is not None and controller.match is not None  # `_play` checked both
        decision = route(press, controller.match.view, self.seats)
        if decision.kind != ACT:
            return decision
        assert decision.action is not None  # the router's ACT always carries its action
        try:
            controller.submit(decision.action)
        except RulesError as exc:
            # the rules core has the last word; keep the action so the refusal is final
            # the reason in the players' language, like the router's own; the rule stays as named
            return Decision(REFUSE, decision.player, decision.action, explain(exc)[0], exc.rule)
        return decision

    def _retry_pending(self, out: list[SeatOutcome], by: SeatPress) -> None:
        """After an accepted press, take any held-back press it made acceptable, in rules' order."""
        progress = True
        while progress:
            progress = False
            for item in list(self._pending):
                press = item[0]
                if abs(by.time - press.time) > self.together_s:
                    continue
                decision = self._decide(press)
                if decision.kind == REFUSE:
                    continue
                self._pending.remove(item)
                self._settle(out, press, decision)
                if decision.kind == ACT:
                    by, progress = press, True
                    break

    def _refuse_pending(self, out: list[SeatOutcome], due: Callable[[SeatPress], bool]) -> None:
        for item in [i for i in self._pending if due(i[0])]:
            self._pending.remove(item)
            self._settle(out, *item)

    def _settle(self, out: list[SeatOutcome], press: SeatPress, decision: Decision) -> None:
        if decision.kind == REFUSE:
            self.input.flicker(press.seat)
        out.append(SeatOutcome(press, decision))

    def _show_game(self) -> None:
        assert self._controller is not None
        match = self._controller.match
        assert match is not None  # shown only while a game is played
        if match is not self._leds_for:
            self.input.set_leds(led_plan(match.view, self.seats))
            self._leds_for = match

    # --- the players screen and the seat test --------------------------------------------

    def _claim(self, presses: list[SeatPress]) -> list[SeatOutcome]:
        out: list[SeatOutcome] = []
        for press in presses:
            waiting = list(self._waiting())
            self._sync_claims(waiting)
            decision, self.seats = claim(press, self.seats, waiting)
            self._settle(out, press, decision)
        self._sync_claims(list(self._waiting()))
        self.input.set_leds(claim_led_plan(self.seats))
        return out

    def _sync_claims(self, waiting: list[str]) -> None:
        if self._current_claims is not None:
            self.seats = self._current_claims()
            return
        for name in waiting:  # freed on the screen since: the seat is free again
            self.seats = self.seats.without(name)

    def _test(self, presses: list[SeatPress]) -> list[SeatOutcome]:
        test = self.test
        assert test is not None  # `seat_test` made it when it switched to this mode
        out: list[SeatOutcome] = []
        for press in presses:
            test.record(press)
            out.append(SeatOutcome(press, Decision(NOTE, reason=describe_button(press.seat, press.button))))
        test.stuck = self.input.stuck
        self.input.set_leds(test.led_plan())
        return out


__all__ = ["SeatOutcome", "SeatTable", "TOGETHER_S", "LedMode"]
