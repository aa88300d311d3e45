"""End of game: who won and how it ended, every player's rank (a crown for the winners, a shape
and not only a colour), the tie-break where it decided, Cloudship's board outcome, and the ways
on: play again with the same players (first), undo the last step, home."""

from __future__ import annotations

import pygame

from ... import i18n
from ..story import moments as story
from ..kit import theme as th
from ..kit.layout import GAP, cols, grid, inset, rows
from ..kit.shapes import draw_crown
from ..kit.widgets import Button, Label, Panel, PlayerToken, Widget
from .base import Screen, game_title

_ = i18n.translator("app")

GOLD = (247, 190, 40)
FLOWERS = 12  # Cloudship: the four beds of three


class Crown(Widget):
    def draw(self, surface, ctx):
        draw_crown(surface, self.rect, GOLD)


def standings(view) -> list[tuple[int, str]]:
    """(rank, name) best first; equal results share a rank. Cloud 9 breaks a tie on points by
    the larger hand (its rules' tie-break), so its ranks follow both."""
    def key(name: str) -> tuple[int, ...]:
        if view.get("game") == "cloud9":
            return (view["scores"][name], view["hands"][name])
        return (view["scores"][name],)

    ordered = sorted(view["players"], key=key, reverse=True)
    return [(1 + sum(1 for other in ordered if key(other) > key(name)), name) for name in ordered]


def tie_break(view) -> tuple[list[str], int] | None:
    """Cloud 9: (the players level on the most points, those points) when the hands decided."""
    if view.get("game") != "cloud9" or not view.get("winners"):
        return None
    best = max(view["scores"].values())
    level = [name for name in view["players"] if view["scores"][name] == best]
    if len(level) > 1 and len(view["winners"]) < len(level):
        return level, best
    return None


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

    def must_show(self) -> list[str]:
        return list(self.view["players"])

    def on_enter(self) -> None:
        if not self.ended_early:
            self.app.sounds.play("won" if self.view.get("result") != "lost" else "lost")

    def last_moment(self) -> story.Moment | None:
        """The big moment that ended the game (the last fall, top cloud, settlement, ...)."""
        if self.ended_early:
            return None
        # a lost Cloudship: the headline already says the storm arrived
        skip = ("end", "storm") if self.view.get("result") == "lost" else ("end",)
        found = [m for m in story.recent(self.game_screen.match, 3) if m.big and m.kind not in skip]
        return found[-1] if found else None

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

    def note(self) -> str:
        """The line under the headline: the tie-break where it decided, else how it ended."""
        v = self.view
        tied = tie_break(v)
        if tied is not None:
            level, points = tied
            winner = v["winners"][0]
            return _("Level on {points} points: {name} wins with more cards in hand ({cards})").format(
                points=points, name=winner, cards=" : ".join(str(v["hands"][n]) for n in level))
        if self.game_screen.game == "cloudmine" and v["over"] and not self.ended_early:
            # how a Cloud Mine game ends: the deck cannot supply another round
            return _("Too few cards left in the deck for another round.")
        moment = self.last_moment()
        return moment.text if moment is not None else ""

    def build(self, f, t):
        c = f.content
        gap = f.u(GAP * 2)
        note = self.note()
        weights = ([1, 0.7] if note else [1]) + ([3, 1] if not f.portrait else [5, 1.2])
        parts = rows(c, weights, gap)
        head, table, buttons = parts[0], parts[-2], parts[-1]
        out: list[Widget] = [Label(head, self.headline(), "big", wrap=True, key="headline")]
        if note:
            out.append(Label(parts[1], note, "small", wrap=True, colour=th.INK_SOFT, key="how-it-ended"))
        out += self.outcome(f, table) if self.game_screen.game == "cloudship" else self.scores(f, table)
        # play again with the same players first: the table usually wants another round
        actions = [(_("Play again"), self.play_again, "primary", "again")]
        if not self.ended_early and self.game_screen.match.can_undo:
            actions.append((_("Undo last step"), self.undo, "secondary", "undo"))
        actions.append((_("Home"), self.app.home, "secondary", "home"))
        for rect, (text, fn, kind, key) in zip(cols(buttons, len(actions), gap), actions):
            out.append(Button(rect, text, fn, kind=kind, key=key, size="title"))
        return out

    def scores(self, f, area: pygame.Rect) -> list[Widget]:
        v = self.view
        ranked = standings(v)
        out: list[Widget] = [Panel(area, key="scores")]
        columns = 1 if f.portrait or len(ranked) <= 4 else 2
        per_column = -(-len(ranked) // columns)
        inner = inset(area, f.u(8))
        show_hands = tie_break(v) is not None
        if f.portrait:  # rows of at most 72 px, the panel as tall as they are, in the middle
            height = min(area.h, per_column * f.u(76) + f.u(16))
            area = pygame.Rect(area.x, area.centery - height // 2, area.w, height)
            out = [Panel(area, key="scores")]
            inner = inset(area, f.u(8))
        for index, (rank, name) in enumerate(ranked):
            column = cols(inner, columns, f.u(GAP * 2))[index // per_column]
            row = rows(column, per_column, f.u(4))[index % per_column]
            row = pygame.Rect(row.x, row.y, row.w, min(row.h, f.u(72)))
            player = self.game_screen.player(name)
            won = name in v["winners"]
            side = min(row.h, f.u(48))
            rank_rect = pygame.Rect(row.x, row.y, f.u(44), row.h)
            crown = pygame.Rect(rank_rect.right, row.centery - side // 2, side, side)
            token = pygame.Rect(crown.right + f.u(4), row.centery - side // 2, side, side)
            score_w = f.u(64)
            hand_w = f.u(64) if show_hands else 0
            name_rect = pygame.Rect(token.right + f.u(8), row.y, row.right - token.right - f.u(8) - score_w - hand_w,
                                    row.h)
            out += [Label(rank_rect, _("{rank}.").format(rank=rank), "title", align="left", key=f"rank:{name}"),
                    PlayerToken(token.inflate(-f.u(4), -f.u(4)), name, player.colour, key=f"token:{name}",
                                mark=self.game_screen.mark(name)),
                    Label(name_rect, name, "title", align="left", key=f"name:{name}"),
                    Label(pygame.Rect(row.right - score_w, row.y, score_w, row.h), str(v["scores"][name]),
                          "big", align="right", key=f"final:{name}")]
            if won:
                out.append(Crown(crown.inflate(-f.u(6), -f.u(10)), key=f"crown:{name}"))
            if show_hands:
                out.append(Label(pygame.Rect(name_rect.right, row.y, hand_w, row.h),
                                 _.ngettext("{count} card", "{count} cards", v["hands"][name]).format(count=v["hands"][name]), "small", colour=th.INK_SOFT,
                                 wrap=True, key=f"hand:{name}"))
        return out

    def outcome(self, f, area: pygame.Rect) -> list[Widget]:
        """Cloudship: the board's outcome in three numbers, and the crew."""
        v = self.view
        planted = sum(v["beds"].values())
        left = max(0, v["storm_end"] - v["storm"])
        out: list[Widget] = [Panel(area, key="outcome")]
        inner = inset(area, f.u(12))
        names = v["players"]
        crew_columns = 2 if f.portrait and len(names) > 2 else len(names)
        crew_rows = -(-len(names) // crew_columns)
        garden, figures, crew = rows(inner, [1.1 if f.portrait else 0.9, 3 if f.portrait else 1.8,
                                             0.5 * crew_rows + 0.5], f.u(GAP))
        # the garden: a flower for each one planted, an empty spot for each one missing
        from ..boards.ship_icons import icons_in_row
        from ..kit.widgets import Picture

        out.append(Picture(garden, icons_in_row(["flower"] * planted + ["tile:blank"] * (FLOWERS - planted),
                                                f.u(56)), key="garden"))
        won, lost = v.get("result") == "won", v.get("result") == "lost"
        # three figures side by side (portrait: one under the other, the number beside its words)
        cells = rows(figures, 3, f.u(GAP)) if f.portrait else cols(figures, 3, f.u(GAP * 2))
        for cell, (number, caption, key) in zip(cells, (
                ("{planted}/{all}".format(planted=planted, all=FLOWERS), _("flowers planted"), "planted"),
                (str(left), _("storm squares left"), "storm-left"),
                (str(v["round"]), _("rounds flown"), "rounds"))):
            top, bottom = cols(cell, [1, 1.3], f.u(GAP)) if f.portrait else rows(cell, [1.4, 1])
            ink = th.GOOD if won and key == "planted" else th.DANGER if lost and key == "storm-left" else th.INK
            out += [Label(top, number, "display", colour=ink, key=f"outcome:{key}"),
                    Label(bottom, caption, "title", wrap=True, colour=th.INK_SOFT, align="left" if f.portrait
                          else "center", key=f"caption:{key}")]
        for cell, name in zip(grid(crew, len(names), crew_columns, f.u(GAP)), names):
            side = min(cell.h, f.u(44))
            token = pygame.Rect(cell.x, cell.centery - side // 2, side, side)
            out += [PlayerToken(token, name, self.game_screen.player(name).colour, key=f"token:{name}",
                                mark=self.game_screen.mark(name)),
                    Label(pygame.Rect(token.right + f.u(6), cell.y, cell.right - token.right - f.u(6), cell.h), name,
                          "body", align="left", key=f"name:{name}")]
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
