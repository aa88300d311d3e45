"""End of game: the winners, every score, and the ways on (undo the last step, play again, home)."""

from __future__ import annotations

import pygame

from ... import i18n
from .. import theme as th
from ..layout import GAP, cols, inset, rows
from ..widgets import Button, Label, Panel, Token, Widget
from .base import Screen, game_title

_ = i18n.translator("app")


class EndScreen(Screen):
    def __init__(self, app, game_screen, ended_early: bool = False):
        super().__init__(app)
        self.game_screen = game_screen
        self.ended_early = ended_early

    @property
    def view(self):
        return self.game_screen.view

    def title(self) -> str:
        return game_title(self.game_screen.game)

    def subtitle(self) -> str:
        return _("Game ended early") if self.ended_early else _("Game over")

    def can_go_back(self) -> bool:
        return False

    def on_enter(self) -> None:
        if not self.ended_early:
            self.app.sounds.play("won" if self.view.get("result") != "lost" else "lost")

    def headline(self) -> str:
        v = self.view
        if self.ended_early:
            return _("The game was stopped.")
        if v.get("result") == "lost":  # Cloudship: the crew loses together
            return _("The storm won. Everyone loses together.")
        winners = v["winners"]
        if v.get("result") == "won":
            return _("Everyone wins together!")
        if len(winners) == 1:
            return _("{name} wins!").format(name=winners[0])
        return _("Shared win: {names}").format(names=", ".join(winners))

    def build(self, f, t):
        c = f.content
        gap = f.u(GAP * 2)
        head, table, buttons = rows(c, [1, 3, 1] if not f.portrait else [1, 5, 1.2], gap)
        out: list[Widget] = [Label(head, self.headline(), "big", wrap=True, key="headline")]
        out += self.scores(f, table)
        actions = []
        if not self.ended_early and self.game_screen.match.can_undo:
            actions.append((_("Undo last step"), self.undo, "secondary", "undo"))
        actions.append((_("Play again"), self.play_again, "secondary", "again"))
        actions.append((_("Home"), self.app.home, "primary", "home"))
        for rect, (text, fn, kind, key) in zip(cols(buttons, len(actions), gap), actions):
            out.append(Button(rect, text, fn, kind=kind, key=key, size="title"))
        return out

    def scores(self, f, area: pygame.Rect) -> list[Widget]:
        v = self.view
        ranked = sorted(v["players"], key=lambda n: -v["scores"][n])
        out: list[Widget] = [Panel(area, key="scores")]
        columns = 1 if f.portrait or len(ranked) <= 4 else 2
        per_column = -(-len(ranked) // columns)
        inner = inset(area, f.u(8))
        for index, name in enumerate(ranked):
            column = cols(inner, columns, f.u(GAP))[index // per_column]
            row = rows(column, per_column, f.u(4))[index % per_column]
            player = self.game_screen.player(name)
            token = pygame.Rect(row.x, row.y, min(row.h, f.u(48)), row.h)
            won = name in v["winners"]
            out += [Token(token.inflate(-f.u(6), -f.u(6)), player.colour),
                    Label(pygame.Rect(token.right + f.u(8), row.y, row.w * 0.6, row.h), name, "title", align="left",
                          colour=th.GOOD if won else th.INK),
                    Label(pygame.Rect(row.right - row.w * 0.3, row.y, row.w * 0.3, row.h), str(v["scores"][name]),
                          "big", align="right", key=f"final:{name}")]
        return out

    def undo(self) -> None:
        if self.game_screen.submit({"act": "undo"}):
            self.app.replace(self.game_screen)

    def play_again(self) -> None:
        from .players import PlayersScreen

        setup = self.game_screen.match.setup
        self.app.home()
        self.app.show(PlayersScreen(self.app, self.game_screen.game, previous=setup,
                                    players=self.game_screen.players))
