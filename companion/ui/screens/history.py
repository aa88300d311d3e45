"""History: every game from the journal (its title's picture, title, when, what became of it with
a glyph: a crown for a win, a flower or the storm's bolt for a game the table wins or loses
together, the scores from the best down or the crew), a page at a time, and each player's
totals; every row's parts in one size. A row names as many players as it has room for and
counts the rest ("+2 more"), the winner always named; a tap on it shows the game's every score.
A game with a recap picture shows it small on its row; a tap on the picture shows it whole."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pygame

from ... import i18n
from ..boards import recap
from ..boards.ship_icons import blit_icon
from ..kit import theme as th
from ..kit.layout import GAP, cols, rows
from ..kit.roster import players_from_setup
from ..kit.shapes import draw_crown, draw_game_icon, draw_token
from ..kit.widgets import Button, Label, Panel, Picture, PlayerToken, Widget, fit_text, token_marks
from . import records as records_view
from .base import Screen, game_title

_ = i18n.translator("app")

PAGE = 3  # rows per page in landscape; portrait shows twice as many


class ListedGames:
    """A history source made from a list (anything with the journal's `games(limit, offset)`,
    `count_games()` and `totals()` will do)."""

    def __init__(self, games=(), totals=()):
        self._games, self._totals = list(games), list(totals)

    def games(self, limit=None, offset=0):
        newest = sorted(self._games, key=lambda g: g.started_at, reverse=True)
        return newest[offset : None if limit is None else offset + limit]

    def count_games(self):
        return len(self._games)

    def totals(self):
        return self._totals


def when(iso: str | None) -> str:
    if not iso:
        return ""
    try:
        moment = datetime.fromisoformat(iso).astimezone()
    except ValueError:
        return iso
    return moment.strftime("%Y-%m-%d %H:%M")


def ranking(game) -> list[str]:
    """The players, the winners first, then from the highest score down (seat order among
    equals: a Cloud 9 tie is broken by the hands, which the winners already say)."""
    seat = {name: i for i, name in enumerate(game.players)}
    return sorted(game.players, key=lambda p: (p not in game.winners, -game.scores.get(p, 0), seat[p]))


def ranked_scores(game) -> list[str]:
    """Each player with their score, in `ranking` order; a name and its score never part at a
    line break (no-break spaces)."""
    return [f"{p} {game.scores.get(p, 0)}".replace(" ", "\u00a0") for p in ranking(game)]


def listed(entries: list[str], shown: int) -> str:
    """The first `shown` entries, the rest counted ("+2 more", kept on one line)."""
    text = ", ".join(entries[:shown])
    rest = len(entries) - shown
    if rest:
        more = _.ngettext("+{count} more", "+{count} more", rest).format(count=rest).replace(" ", "\u00a0")
        text = f"{text}, {more}" if text else more
    return text


SHARED = ("cloudship",)  # the games the whole table wins or loses together


def outcome(game) -> str:
    """won, lost (a game the table plays together), over (someone won), stopped or playing."""
    if game.status != "over":
        return "stopped" if game.status == "abandoned" else "playing"
    if game.game in SHARED:
        return "won" if game.winners else "lost"
    return "over"


def result_text(game, shown: int) -> str:
    """What became of the game, naming the first `shown` winners (a shared game: the table)."""
    kind = outcome(game)
    if kind == "won":
        return _("The table won")
    if kind == "lost":
        return _("The table lost")
    if kind == "over":
        return _("Won by {names}").format(names=listed(list(game.winners), shown)) if game.winners else _("Game over")
    return _("Stopped") if kind == "stopped" else _("In progress")


def result_colour(game):
    """A win in green, a shared loss in red, a game not over in grey."""
    kind = outcome(game)
    return th.GOOD if kind in ("won", "over") else th.DANGER if kind == "lost" else th.INK_SOFT


def detail_text(game, shown: int) -> str:
    """The row's second line, naming the first `shown`: every score from the best down, or, for
    a game played together, what the table reached and the crew."""
    if game.game not in SHARED:
        return listed(ranked_scores(game), shown)
    together = reached(game).replace(" ", "\u00a0")  # never parted at a line break
    return f"{together} · {listed(list(game.players), shown)}"


def reached(game) -> str:
    """What the table reached in a game it plays together: the flowers planted."""
    return _("{planted} of 12 flowers").format(planted=max(game.scores.values(), default=0))


def draw_outcome(surface: pygame.Surface, rect: pygame.Rect, kind: str) -> None:
    """The result's glyph: a crown for a win, a flower for a shared win, the storm's bolt for a
    shared loss (so a result reads without its colour or its words)."""
    side = min(rect.w, rect.h)
    box = pygame.Rect(0, 0, side, side)
    box.center = rect.center
    if kind == "over":
        draw_crown(surface, box.inflate(0, -side // 4), recap.GOLD)
    elif kind == "won":
        blit_icon(surface, "flower", box.center, side)
    elif kind == "lost":
        draw_token(surface, "storm", box.center, side / 2)


def fitted(t, text: str, rect: pygame.Rect, size: str):
    """`text` as a wrapped Label of `size` fits it in `rect` (widgets.Fitted)."""
    return fit_text(text, rect.w, rect.h, t.size(size), t.size("min"), True, th.weight_of(size))


def fits(t, text: str, rect: pygame.Rect, size: str) -> bool:
    """Whether a wrapped Label of `size` shows `text` whole in `rect`."""
    return not fitted(t, text, rect, size).overflow


def needed_height(t, text: str, rect: pygame.Rect, size: str) -> int:
    """How tall the lines of `text` are as a wrapped Label of `size` in `rect` sets them."""
    fit = fitted(t, text, rect, size)
    return th.font(fit.px, th.weight_of(size)).block_height(len(fit.lines))


def named(entries: list, text_of, t, rect: pygame.Rect, size: str) -> str:
    """`text_of(shown)` for the most entries that fit the box, never fewer than the first."""
    for shown in range(len(entries), 1, -1):
        text = text_of(shown)
        if fits(t, text, rect, size):
            return text
    return text_of(min(1, len(entries)))


class HistoryScreen(Screen):
    def __init__(self, app, source=None):
        super().__init__(app)
        self.source = source or app.journal or ListedGames()
        self.page = 0
        self.tab = "games"
        self._rows: dict[str, list] = {}

    def title(self) -> str:
        return _("History")

    def must_show(self) -> list[str]:
        """Every game's winner (the first, where several share the win), whatever else a row
        shortens."""
        return [game.winners[0] for game in getattr(self, "_shown", ()) if game.status == "over" and game.winners]

    def on_enter(self) -> None:
        self._rows = {}  # read afresh on each visit, then kept: turning back reads no journal

    def rows_shown(self, per_page: int) -> tuple[list, int]:
        """This page's rows and how many there are in all. Games are read a page at a time (years
        of them stay quick: the journal pages with an index); totals are a few dozen rows."""
        if self.tab == "players":
            if "players" not in self._rows:
                self._rows["players"] = list(self.source.totals())
            shown = self._rows["players"]
            self.page = max(0, min(self.page, -(-len(shown) // per_page) - 1))
            return shown[self.page * per_page : (self.page + 1) * per_page], len(shown)
        if "count" not in self._rows:
            self._rows["count"] = [self.source.count_games()]
        count = self._rows["count"][0]
        self.page = max(0, min(self.page, -(-count // per_page) - 1))
        key = f"games:{self.page}:{per_page}"
        if key not in self._rows:
            self._rows[key] = self.source.games(limit=per_page, offset=self.page * per_page)
        return self._rows[key], count

    def build(self, f, t):
        c = f.content
        gap = f.u(GAP)
        tabs, body, pager = rows(c, [1, 5.2 if not f.portrait else 9, 1], gap)
        per_page = PAGE if not f.portrait else PAGE + 1
        shown, count = self.rows_shown(per_page)
        self._shown = shown if self.tab == "games" else []
        pages = max(1, -(-count // per_page))
        games_tab, players_tab, records_tab = cols(tabs, 3, gap)
        out: list[Widget] = [
            Button(
                games_tab,
                _("Games"),
                lambda: self.show_tab("games"),
                kind="choice",
                selected=self.tab == "games",
                key="tab:games",
            ),
            Button(
                players_tab,
                _("Players"),
                lambda: self.show_tab("players"),
                kind="choice",
                selected=self.tab == "players",
                key="tab:players",
            ),
            records_view.records_button(records_tab, self.app, self.source),  # companion/ui/screens/records.py
        ]
        if not shown:
            out.append(
                Label(
                    body,
                    _("No games yet.") if self.tab == "games" else _("No finished games yet."),
                    "prompt",
                    key="empty",
                )
            )
        listed_rows: list[Widget] = []
        for rect, item in zip(rows(body, per_page, gap), shown):
            listed_rows += self.game_row(f, t, rect, item) if self.tab == "games" else self.player_row(f, rect, item)
        out += records_view.one_size(listed_rows, t)
        back, page_label, forward = cols(pager, [1, 1.4, 1], gap)
        out += [
            Button(back, _("Newer"), lambda: self.turn(-1), kind="secondary", enabled=self.page > 0, key="newer"),
            Label(page_label, _("Page {page} of {pages}").format(page=self.page + 1, pages=pages), "small"),
            Button(
                forward, _("Older"), lambda: self.turn(1), kind="secondary", enabled=self.page < pages - 1, key="older"
            ),
        ]
        return out

    def recap_path(self, game) -> Path | None:
        folder = getattr(self.source, "path", None)
        return None if folder is None else recap.recap_path(folder, game.id, game.game)

    def recap_of(self, game) -> pygame.Surface | None:
        """A small copy of the game's recap picture, if the journal's exports hold one (read
        once per visit): a page of whole pictures held 7 MB each; a tap reads it whole again."""
        path = self.recap_path(game)
        if path is None:
            return None
        key = f"recap:{game.id}"
        if key not in self._rows:
            self._rows[key] = [_thumbnail(path)]
        return self._rows[key][0]

    def open_recap(self, game) -> None:
        """The game's recap, drawn for this screen's shape where the game replays (else its
        saved picture, scaled to fit)."""
        rebuild = getattr(self.source, "rebuild", None)
        if rebuild is not None:
            try:
                match = rebuild(game.id)
            except Exception:  # a game that no longer replays: its saved picture still shows
                match = None
            if match is not None:
                self.app.show(RecapScreen(self.app, match=match, started_at=game.started_at))
                return
        try:
            picture = pygame.image.load(str(self.recap_path(game)))
        except (OSError, pygame.error):  # removed or cut short since the row was drawn: gone from it
            self._rows[f"recap:{game.id}"] = [None]
            self.app.refresh()
            return
        self.app.show(RecapScreen(self.app, picture))

    def game_row(self, f, t, rect: pygame.Rect, game) -> list[Widget]:
        """A game's card: its title's picture, title and date, what became of it (with its
        glyph) and the scores (a shared game: the crew), its recap picture at the right."""
        inner = pygame.Rect(rect.x + f.u(12), rect.y + f.u(4), rect.w - f.u(24), rect.h - f.u(8))
        icon_side = min(inner.h, f.u(48 if f.portrait else 56))
        icon = pygame.Rect(inner.x, inner.centery - icon_side // 2, icon_side, icon_side)
        inner = pygame.Rect(icon.right + f.u(GAP), inner.y, inner.right - icon.right - f.u(GAP), inner.h)
        picture = self.recap_of(game)
        thumb: list[Widget] = []
        if picture is not None:
            side = max(f.u(56), min(inner.h * 3 // 4, f.u(72)))  # the picture's 3:4, a tap target
            box = pygame.Rect(inner.right - side, inner.y, side, inner.h)
            inner.w -= side + f.u(GAP)
            thumb = [Thumbnail(box, picture, lambda game=game: self.open_recap(game), key=f"recap:{game.id}")]
        title = Label((0, 0, 0, 0), game_title(game.game), "body", align="left", key=f"title:{game.id}")
        date = Label(
            (0, 0, 0, 0), when(game.started_at), "small", align="left", colour=th.INK_SOFT, key=f"date:{game.id}"
        )
        one_line = t.font(t.size("body"), th.weight_of("body")).block_height(1)
        if f.portrait:  # the title and the date on a line (or one above the other), the rest under them
            widths = [t.measure(label.text, t.size(label.size), label.weight)[0] + 1 for label in (title, date)]
            if sum(widths) + f.u(GAP) <= inner.w:
                head = pygame.Rect(inner.x, inner.y, inner.w, one_line)
                title.rect, date.rect = cols(head, widths, f.u(GAP))
                date.rect.right, date.align = inner.right, "right"
            else:
                date_h = t.font(t.size("small"), th.weight_of("small")).block_height(1)
                title.rect = pygame.Rect(inner.x, inner.y, inner.w, one_line)
                date.rect = head = pygame.Rect(inner.x, title.rect.bottom, inner.w, date_h)
            text = pygame.Rect(inner.x, head.bottom + f.u(4), inner.w, inner.bottom - head.bottom - f.u(4))
        else:
            head, text = cols(inner, [1, 2.1] if not thumb else [1, 1.9], f.u(GAP))
            title.rect, date.rect = rows(head, 2)
        kind = outcome(game)
        glyph_w = one_line if kind in ("over", "won", "lost") else 0
        glyph = pygame.Rect(text.x, text.y, glyph_w, one_line)
        result_rect = pygame.Rect(
            text.x + glyph_w + (f.u(6) if glyph_w else 0),
            text.y,
            text.w - glyph_w - (f.u(6) if glyph_w else 0),
            one_line,
        )
        if f.portrait and not fits(t, result_text(game, len(game.winners)), result_rect, "body"):
            result_rect.h = t.font(t.size("body"), th.weight_of("body")).block_height(2)
        result = named(game.winners, lambda shown: result_text(game, shown), t, result_rect, "body")
        score_rect = pygame.Rect(text.x, result_rect.bottom, text.w, text.bottom - result_rect.bottom)
        scores = named(list(game.players), lambda shown: detail_text(game, shown), t, score_rect, "small")
        score_rect.h = min(score_rect.h, needed_height(t, scores, score_rect, "small"))  # right under the result
        out: list[Widget] = [
            GameRow(rect, lambda: self.app.show(ScoresScreen(self.app, game)), key=f"game-row:{game.id}"),
            Picture(
                icon,
                lambda surface, box, name=game.game: draw_game_icon(surface, name, box),
                key=f"icon:{game.id}",
                still=True,
            ),
            title,
            date,
            Label(
                result_rect,
                result,
                "body",
                align="left",
                wrap=True,
                colour=result_colour(game),
                key=f"result:{game.id}",
            ),
            Label(score_rect, scores, "small", align="left", wrap=True, key=f"scores:{game.id}"),
        ]
        if glyph_w:
            out.append(
                Picture(
                    glyph,
                    lambda surface, box, kind=kind: draw_outcome(surface, box, kind),
                    key=f"outcome:{game.id}",
                    still=True,
                )
            )
        return out + thumb

    def player_row(self, f, rect: pygame.Rect, total) -> list[Widget]:
        """A player's card for one title: the title's picture, the name, the title and the record."""
        inner = pygame.Rect(rect.x + f.u(12), rect.y + f.u(4), rect.w - f.u(24), rect.h - f.u(8))
        icon_side = min(inner.h, f.u(56))
        icon = pygame.Rect(inner.x, inner.centery - icon_side // 2, icon_side, icon_side)
        inner = pygame.Rect(icon.right + f.u(GAP), inner.y, inner.right - icon.right - f.u(GAP), inner.h)
        if f.portrait:  # the name, the title and the record one above the other, each full width
            name, game, record = rows(inner, 3)
        else:
            head, record = cols(inner, [1, 1.3], f.u(GAP))
            name, game = rows(head, 2)
        which = f"{total.game}:{total.name}"
        return [
            Panel(rect, key=f"total:{which}"),
            Picture(
                icon,
                lambda surface, box, name=total.game: draw_game_icon(surface, name, box),
                key=f"total-icon:{which}",
                still=True,
            ),
            Label(name, total.name, "body", align="left", key=f"total-name:{which}"),
            Label(game, game_title(total.game), "small", align="left", colour=th.INK_SOFT, key=f"total-title:{which}"),
            Label(
                record,
                _("{won} of {played} won, best {best}").format(
                    won=total.won, played=total.played, best=total.best_score
                ),
                "small",
                wrap=True,
                align="left" if f.portrait else "center",
                key=f"total-record:{which}",
            ),
        ]

    def show_tab(self, tab: str) -> None:
        self.tab, self.page = tab, 0
        self.refresh()

    def turn(self, step: int) -> None:
        self.page += step
        self.refresh()


class GameRow(Panel):
    """A game's card on the list, a tap target: a tap shows the game's every score."""

    focusable = True

    def __init__(self, rect, on_tap, key: str):
        super().__init__(rect, key=key)
        self.on_tap = on_tap

    def accepts_tap(self) -> bool:
        return True

    def activate(self) -> None:
        self.on_tap()

    def signature(self, ctx):
        return (type(self), tuple(self.rect), ctx.pressed is self, ctx.focused is self)

    def draw(self, surface, ctx):
        super().draw(surface, ctx)
        # pressed or focused, the card's edge shows it (its text stays ink on white)
        edge = th.PRIMARY if ctx.pressed is self else th.FOCUS if ctx.focused is self else None
        if edge:
            pygame.draw.rect(surface, edge, self.rect, ctx.theme.px(4), border_radius=ctx.theme.px(self.radius))


class ScoresScreen(Screen):
    """One game of the history whole: what became of it, when, and every player's score from
    the best down, the winners first (what a row of the list may count rather than name); for a
    game the table plays together, the one result the table reached and the crew."""

    def __init__(self, app, game):
        super().__init__(app)
        self.game = game

    def title(self) -> str:
        return game_title(self.game.game)

    def can_go_back(self) -> bool:
        return True

    def must_show(self) -> list[str]:
        return list(self.game.players)

    def build(self, f, t):
        game, c, gap = self.game, f.content, f.u(GAP)
        one_line = t.font(t.size("title"), th.weight_of("title")).block_height(1)
        head = pygame.Rect(c.x, c.y, c.w, one_line + f.u(GAP) + t.font(t.size("small"), "regular").block_height(1))
        result_rect, date_rect = rows(head, [one_line, head.h - one_line - f.u(GAP)], f.u(GAP))
        colour = result_colour(game)
        result = named(game.winners, lambda shown: result_text(game, shown), t, result_rect, "title")
        out: list[Widget] = [
            Label(result_rect, result, "title", align="left", wrap=True, colour=colour, key="result"),
            Label(date_rect, when(game.started_at), "small", align="left", colour=th.INK_SOFT, key="date"),
        ]
        body = pygame.Rect(c.x, head.bottom + gap, c.w, c.bottom - head.bottom - gap)
        names = ranking(game)
        shared = game.game in SHARED
        if shared:  # one result for the whole table, then the crew who reached it, without scores
            result_row, body = rows(body, [one_line + f.u(24), body.h - one_line - f.u(24) - gap], gap)
            stripe = colour if outcome(game) in ("won", "lost") else None
            out += [
                Panel(result_row, key="table-result", stripe=stripe),
                Label(result_row.inflate(-f.u(24), -f.u(4)), reached(game), "title", align="left", key="reached"),
            ]
        columns = 2 if not f.portrait and len(names) > 4 else 1
        cells = rows(body, max(4, -(-len(names) // columns)), gap)  # as tall as four rows at most
        cells = [cell for row in cells for cell in cols(row, columns, f.u(GAP * 2))]
        # each player's token in the colour they played in, as on the game's own screens
        colours = {p.name: p.colour for p in players_from_setup({**game.setup, "players": game.players})}
        marks = token_marks(list(game.players))
        for cell, name in zip(cells, names):
            inner = cell.inflate(-f.u(24), -f.u(4))
            side = min(inner.h - f.u(4), f.u(40))
            token = pygame.Rect(inner.x, inner.centery - side // 2, side, side)
            inner = pygame.Rect(token.right + f.u(GAP), inner.y, inner.right - token.right - f.u(GAP), inner.h)
            piece = PlayerToken(token, name, colours.get(name, "white"), key=f"token:{name}", mark=marks.get(name))
            if shared:
                out += [
                    Panel(cell, key=f"crew-card:{name}"),
                    piece,
                    Label(inner, name, "body", align="left", key=f"name:{name}"),
                ]
                continue
            name_rect, score_rect = cols(inner, [4, 1], f.u(GAP))
            won = game.status == "over" and name in game.winners
            out += [
                Panel(cell, key=f"score-card:{name}", stripe=th.GOOD if won else None),
                piece,
                Label(name_rect, name, "body", align="left", key=f"name:{name}"),
                Label(score_rect, str(game.scores.get(name, 0)), "title", align="right", key=f"score:{name}"),
            ]
        return out


THUMBNAIL_PX = 240  # the small copy's height: a row's picture is at most a third of it at full HD


def _thumbnail(path: Path) -> pygame.Surface | None:
    if not path.is_file():
        return None
    try:
        small = recap.small_copy(path, THUMBNAIL_PX)  # the app's own recaps, a few rows at a time
        if small is not None:
            return small
        picture = pygame.image.load(str(path))  # a PNG written otherwise: whole
    except (OSError, ValueError, pygame.error):  # cut short or unreadable: the row goes without it
        return None
    w, h = picture.get_size()
    if h <= THUMBNAIL_PX:
        return picture
    return pygame.transform.smoothscale(picture, (max(1, round(w * THUMBNAIL_PX / h)), THUMBNAIL_PX))


class Thumbnail(Button):
    """A button that is a small copy of a picture (scaled once per size)."""

    def __init__(self, rect, picture: pygame.Surface, on_tap, key: str):
        super().__init__(rect, "", on_tap, kind="choice", key=key)
        self.picture = picture
        self._small: pygame.Surface | None = None

    def draw(self, surface, ctx):
        super().draw(surface, ctx)
        box = self.rect.inflate(-ctx.theme.px(8), -ctx.theme.px(8))
        w, h = self.picture.get_size()
        scale = min(box.w / w, box.h / h)
        size = (max(1, round(w * scale)), max(1, round(h * scale)))
        if self._small is None or self._small.get_size() != size:
            self._small = pygame.transform.smoothscale(self.picture, size)
        surface.blit(self._small, self._small.get_rect(center=box.center))


class RecapScreen(Screen):
    """A game's recap: drawn for the screen's own shape from the game itself (`match`), or a
    saved recap picture, whole, as large as the screen allows."""

    def __init__(self, app, picture: pygame.Surface | None = None, *, match=None, started_at: str | None = None):
        super().__init__(app)
        self.picture, self.match, self.started_at = picture, match, started_at
        self._scaled: pygame.Surface | None = None
        self._fits: tuple[int, int] | None = None  # the box the saved picture was scaled for

    def title(self) -> str:
        return _("Recap")

    def can_go_back(self) -> bool:
        return True

    def build(self, f, t):
        return [Picture(f.content, self.paint, key="recap")]

    def drawn(self, size: tuple[int, int]) -> pygame.Surface:
        """The picture at `size`: the game's recap drawn for it, or the saved one scaled to fit."""
        if self._scaled is not None and (self._scaled.get_size() == size or self.match is None and self._fits == size):
            return self._scaled
        self._fits = size
        if self.match is not None:
            self._scaled = recap.render_recap(self.match, self.started_at, size)
        else:
            assert self.picture is not None  # made from a saved picture where not from the game
            w, h = self.picture.get_size()
            scale = min(size[0] / w, size[1] / h)
            self._scaled = pygame.transform.smoothscale(
                self.picture, (max(1, round(w * scale)), max(1, round(h * scale)))
            )
        return self._scaled

    def paint(self, surface: pygame.Surface, rect: pygame.Rect) -> None:
        picture = self.drawn(rect.size)
        surface.blit(picture, picture.get_rect(center=rect.center))
