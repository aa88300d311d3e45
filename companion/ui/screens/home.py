"""Home: the three games, history and settings (and the game in progress, if any)."""

from __future__ import annotations

import pygame

from ... import i18n
from ...rules import rules_by_name
from ..boards.cloud9 import balloon_icon
from ..kit import theme as th
from ..kit.layout import GAP, cols, rows
from ..kit.shapes import draw_game_icon
from ..kit.widgets import Button, Label, Widget
from . import game_screen_class
from .base import Screen, game_title

_ = i18n.translator("app")

GAMES = ("cloud9", "cloudship", "cloudmine")


class GameIcon(Widget):
    """A picture of the game (its balloon, its ship, its cloud cards): shapes.draw_game_icon."""

    def __init__(self, rect, game: str, key: str | None = None):
        super().__init__(rect, key)
        self.game = game

    def draw(self, surface, ctx):
        if self.game == "cloud9":  # the board's own balloon, as in the help
            image = balloon_icon(min(self.rect.w, self.rect.h))
            surface.blit(image, image.get_rect(center=self.rect.center))
            return
        draw_game_icon(surface, self.game, self.rect)


class HomeScreen(Screen):
    def title(self) -> str:
        return _("Cloud Companion")

    def can_go_back(self) -> bool:
        return False

    # --- quitting: on a desktop only (the Pi's appliance is shut down another way) ------------
    def extra_bar_buttons(self, f, t, area):
        if not self.app.desktop:
            return []
        text = _("Quit")
        w = max(f.u(96), t.measure(text, t.size("small"))[0] + f.u(32))
        return [
            Button(
                pygame.Rect(area.right - w, area.y, w, area.h),
                text,
                self.app.quit,
                kind="secondary",
                key="quit",
                size="small",
            )
        ]

    def on_back(self) -> None:
        """Escape on Home: going back from here means leaving, so ask first."""
        if self.app.desktop:
            self.app.confirm(
                _("Quit now?"),
                _("Everything is saved: a game in progress can be continued at the next start."),
                _("Quit"),
                self.app.quit,
                danger=False,
            )

    def build(self, f, t):
        c = f.content
        gap = f.u(GAP * 2)
        resumable = self.resumable_screen()
        widgets: list[Widget] = []
        if self.app.storage_warning is not None:  # read-only mode: every game goes at the reboot
            high = f.u(90 if f.portrait else 44)  # room for two lines, three on a narrow portrait screen
            notice = pygame.Rect(c.x, c.bottom - high, c.w, high)
            c = pygame.Rect(c.x, c.y, c.w, notice.y - gap // 2 - c.y)
            widgets.append(
                Label(
                    notice,
                    _(
                        "This Pi forgets every game when it is switched off: its card is "
                        "read-only (raspi-config's overlay file system)"
                    ),
                    "small",
                    colour=th.DANGER,
                    wrap=True,
                    key="storage-notice",
                )
            )
        games_area, more = rows(c, [2.6, 1], gap) if not f.portrait else rows(c, [4, 1.2], gap)
        game_cells = cols(games_area, 3, gap) if not f.portrait else rows(games_area, 3, gap)
        for cell, game in zip(game_cells, GAMES):
            widgets.extend(self.game_card(f, cell, game))
        extra = [(_("History"), self.open_history, "history"), (_("Settings"), self.open_settings, "settings")]
        if resumable is not None:
            # which game it is, so nobody wonders what "continue" would bring back
            extra.insert(
                0,
                (
                    _("Continue {game}").format(game=game_title(resumable.game)),
                    lambda: self.app.show(resumable),
                    "continue",
                ),
            )
        for cell, (text, fn, key) in zip(cols(more, len(extra), gap), extra):
            widgets.append(
                Button(cell, text, fn, kind="primary" if key == "continue" else "secondary", key=key, size="title")
            )
        return widgets

    def game_card(self, f, cell: pygame.Rect, game: str) -> list[Widget]:
        rules = rules_by_name(game)
        players = _("{low} to {high} players").format(low=rules.min_players, high=rules.max_players)
        button = Button(cell, "", lambda: self.open_game(game), kind="choice", key=f"game:{game}")
        if f.portrait:  # icon on the left, text beside it
            icon = pygame.Rect(cell.x + f.u(16), cell.y, min(cell.h, f.u(140)), cell.h).inflate(0, -f.u(40))
            text_area = pygame.Rect(icon.right + f.u(16), cell.y, cell.right - icon.right - f.u(32), cell.h)
        else:  # icon on top
            icon = pygame.Rect(cell.x, cell.y + f.u(12), cell.w, cell.h * 0.42)
            text_area = pygame.Rect(cell.x + f.u(8), icon.bottom, cell.w - f.u(16), cell.bottom - icon.bottom - f.u(8))
        title_rect, sub_rect = rows(text_area, [1.3, 1])
        out: list[Widget] = [button, GameIcon(icon, game, key=f"icon:{game}")]
        out += [
            Label(title_rect, game_title(game), "title", wrap=True),
            Label(sub_rect, players, "small", colour=th.INK_SOFT),
        ]
        return out

    def open_game(self, game: str) -> None:
        if game_screen_class(game) is None:
            self.app.toast(_("{game} is not available yet").format(game=game_title(game)))
            return
        from .players import PlayersScreen

        self.app.show(PlayersScreen(self.app, game))

    def open_history(self) -> None:
        from .history import HistoryScreen

        self.app.show(HistoryScreen(self.app))

    def open_settings(self) -> None:
        from .settings import SettingsScreen

        self.app.show(SettingsScreen(self.app))

    def resumable_screen(self):
        """The screen of a game still in progress in this session, to continue it."""
        return self.app.game_screen if self.app.controller.in_progress else None
