"""Records: the table's records per title (reached from the History screen), with the picture
of the latest finished game where a picture says more than a table (companion.ui.boards.plots).

The records are read once per visit: those the journal keeps as games end, one row, when they
are up to date. When they are not (thousands of games restored or imported at once, a journal of
an older version) they are worked out off the loop (records_work, which the app starts
as soon as it attaches such a journal): the screen shows what the journal's tables already tell
(every game's players and results) within a second, says that the rest is being worked out, and
the loop goes on; then the whole records show and the app's journal keeps them, so the next visit
reads them at once. A title's picture rebuilds just that one game, the first time its tab is
shown.
"""

from __future__ import annotations

import pygame

from ...i18n import N_, translator
from ...insights.records import JournalRecords, TitleRecords, journal_records, kept_records
from ...journal import JournalError
from ..boards.cloudmine import paint_role
from ..boards.plots import plot_game
from ..kit import theme as th
from ..kit.layout import GAP, cols, rows
from ..kit.shapes import draw_crown, draw_game_icon, draw_token
from ..kit.widgets import Button, Label, Panel, Picture, Widget, wrap_lines
from .base import Screen, game_title
from .records_work import RecordsWork, records_work

_ = translator("insights")

TITLES = ("cloud9", "cloudship", "cloudmine")
MODE_NAMES = {
    "standard": N_("Standard"),
    "sunny": N_("Sunny"),
    "partly_cloudy": N_("Partly cloudy"),
    "overcast": N_("Overcast"),
    "dreary": N_("Dreary"),
    "stormy": N_("Stormy"),
    "tornado": N_("Tornado"),
}
ROLE_NAMES = {"dreamer": N_("Dreamer"), "chooser": N_("Chooser"), "observer": N_("Observer")}
MAX_LINES = 6


class Plot(Widget):
    """A game's picture, drawn into its box."""

    def __init__(self, rect, match, key: str | None = "plot"):
        super().__init__(rect, key)
        self.match = match

    def draw(self, surface, ctx):
        plot_game(surface, self.rect, self.match, ctx.theme)


def record_lines(records: TitleRecords) -> list[str]:
    """The records of one title, most telling first, as sentences for the screen."""
    return [line for _mark, line in record_entries(records)]


def record_entries(records: TitleRecords) -> list[tuple[str, str]]:
    """(mark, sentence) for each record of one title, most telling first: the mark is the
    picture beside it ("game", "crown", "storm", a Cloud Mine role, or "" for a player's line)."""
    lines = [("game", _("Games played: {count}").format(count=records.played))]
    if records.game == "cloud9":
        if records.best_score:
            points, name, _game = records.best_score
            lines.append(("crown", _("Highest score: {points} ({name})").format(points=points, name=name)))
        if records.best_trip:
            points, name, _game = records.best_trip
            lines.append(("crown", _("Best trip: {points} points ({name})").format(points=points, name=name)))
    elif records.game == "cloudship":
        if records.fewest_rounds:
            lines.append(("crown", _("Fewest rounds to win: {rounds}").format(rounds=records.fewest_rounds[0])))
        for mode, played in records.played_per_mode.items():
            won = records.wins_per_mode.get(mode, 0)
            sentence = _("{mode}: {won} of {played} won").format(
                mode=_(MODE_NAMES.get(mode, mode)), won=won, played=played
            )
            lines.append(("storm", sentence))
    else:
        for role, cards in records.cards_per_role.items():
            if cards and max(cards.values()) > 0:  # no one's record of none (no card as Chooser yet)
                name = max(cards, key=cards.__getitem__)
                lines.append(
                    (
                        role,
                        _("Most cards as {role}: {name} ({count})").format(
                            role=_(ROLE_NAMES[role]), name=name, count=cards[name]
                        ),
                    )
                )
    return (lines + [("", line) for line in player_lines(records)])[:MAX_LINES]


def player_lines(records: TitleRecords) -> list[str]:
    """Each player's wins and best streak at one title, the most wins first."""
    leaders = sorted(records.players.values(), key=lambda p: (-p.won, -p.best_streak, p.name))
    return [
        _("{name}: {won}/{played} won, streak {streak}").format(
            name=player.name, won=player.won, played=player.played, streak=player.best_streak
        )
        for player in leaders
    ]


def paint_mark(surface: pygame.Surface, rect: pygame.Rect, mark: str, game: str) -> None:
    """The picture beside a record: the title's own, a crown for a best, the storm the crew
    plays against, a Cloud Mine role's piece."""
    side = min(rect.w, rect.h)
    box = pygame.Rect(0, 0, side, side)
    box.center = rect.center
    if mark == "game":
        draw_game_icon(surface, game, box)
    elif mark == "crown":
        draw_crown(surface, box.inflate(0, -side // 4))
    elif mark == "storm":
        draw_token(surface, "storm", box.center, side * 0.42)
    elif mark in ROLE_NAMES:
        paint_role(surface, box, mark)


# the sizes (design px) of the count of games and of the records below it, largest first: a
# card takes the largest at which every line fits, so a tall portrait card reads from the table
SIZE_STEPS = ((32, 28), (28, 24), (26, 22), (24, 20))


def row_heights(lines: list[str], width: int, sizes: tuple[float, float], t) -> list[int]:
    """How tall each line is at `sizes` (the count, then the records), wrapped to `width`."""
    out = []
    for i, line in enumerate(lines):
        px = t.px(sizes[1] if i else sizes[0])
        out.append(th.font(px, "regular").block_height(len(wrap_lines(line, px, width, "regular"))))
    return out


def row_gap(t, sizes: tuple[float, float]) -> int:
    """The gap between two records: half a line, so that a record on two lines reads as one."""
    return th.font(t.px(sizes[1]), "regular").block_height(1) // 2


def record_sizes(t, area: pygame.Rect, lines: list[str]) -> tuple[float, float]:
    """The largest sizes at which every line fits `area`, half a line apart (else the smallest)."""
    for sizes in SIZE_STEPS:
        if sum(row_heights(lines, area.w, sizes, t)) + row_gap(t, sizes) * (len(lines) - 1) <= area.h:
            return sizes
    return SIZE_STEPS[-1]


def record_rows(
    t, area: pygame.Rect, lines: list[str], gap: int, sizes: tuple[float, float] = SIZE_STEPS[-1]
) -> list[tuple[pygame.Rect, str]]:
    """Each record line with the box it needs at `sizes` (a long name wraps it onto two lines
    unless a little smaller type keeps it on one), from the top of `area`, evenly apart: half
    a line where there is the room, else `gap` (a list, not lines scattered down the card);
    the least telling lines that no longer fit are left out rather than cut."""
    needed = row_heights(lines, area.w, sizes, t)
    if len(needed) > 1:
        spare = (area.h - sum(needed)) // (len(needed) - 1)
        gap = max(gap, min(spare, row_gap(t, sizes)))
    out, y = [], area.y
    for line, height in zip(lines, needed):
        if y + height > area.bottom:
            break
        out.append((pygame.Rect(area.x, y, area.w, height), line))
        y += height + gap
    return out


def one_size(widgets: list[Widget], t) -> list[Widget]:
    """The rows' labels of one part (every title, every result, every score line...) all in the
    size the part's most crowded row fits: rows of one list at one size."""
    parts: dict[str, list[Label]] = {}
    for widget in widgets:
        if isinstance(widget, Label) and widget.key and ":" in widget.key:
            parts.setdefault(widget.key.split(":")[0], []).append(widget)
    for labels in parts.values():
        px = min(label.fitted(t).px for label in labels)
        for label in labels:
            label.size, label._fitted = px / t.scale, None
    return widgets


class RecordsScreen(Screen):
    domain = "insights"

    def __init__(self, app, source=None):
        super().__init__(app)
        self.source = source if source is not None else app.journal
        self.tab = "cloud9"
        self._records: dict[str, TitleRecords] | None = None
        self._latest: dict[str, int] = {}  # title -> its latest finished game's id
        self._pictures: dict[str, object] = {}  # title -> that game, rebuilt
        self._pending = 0  # games shown without their extras, still being worked out
        self._shown: JournalRecords | None = None
        self.working: RecordsWork | None = None  # the records being worked out, off the loop

    def title(self) -> str:
        return _("Records")

    def on_enter(self) -> None:
        self._records = None  # read afresh on each visit

    def load(self) -> dict[str, TitleRecords] | None:
        """The records to show (those known so far while the rest is worked out); None while
        nothing is known yet."""
        if self._records is None and self.working is None:
            try:
                found = self._read()
            except JournalError:  # unreadable: the tab shows no records rather than failing
                found = None
            if self.working is None:
                self._show(found)
        work = self.working
        if work is not None and (work.found is not None or work.done):
            if work.done:
                self.working = None
            if work.found is not self._shown:
                self._show(work.found)
        return self._records

    def _read(self) -> JournalRecords | None:
        """The records at once where they are kept, else None and the worker on its way."""
        source = self.source
        if not hasattr(source, "results"):
            return None
        path = getattr(source, "path", None)
        if path is None or not hasattr(source, "store"):
            return journal_records(source)
        found = kept_records(source)
        if found is None:  # the app's work on them (started when the journal came), or a new one
            self.working = records_work(self.app, source)
        return found

    def _show(self, found: JournalRecords | None) -> None:
        self._shown = found
        self._records = found.records if found else {}
        self._latest = found.latest if found else {}
        self._pending = found.pending if found else 0
        self._pictures = {}

    def picture(self, game: str):
        """The latest finished game of a title, rebuilt once (None if it no longer replays)."""
        if game not in self._pictures and game in self._latest:
            try:
                self._pictures[game] = self.source.rebuild(self._latest[game])
            except JournalError:
                self._pictures[game] = None
        return self._pictures.get(game)

    def build(self, f, t):
        c = f.content
        gap = f.u(GAP)
        records = self.load()
        tabs, body = rows(c, [1, 6 if not f.portrait else 12], gap)
        out: list[Widget] = [
            Button(
                rect,
                game_title(game),
                lambda g=game: self.show_tab(g),
                kind="choice",
                selected=self.tab == game,
                key=f"records:{game}",
            )
            for rect, game in zip(cols(tabs, len(TITLES), gap), TITLES)
        ]
        if records is None:
            return out + [
                Label(body, _("Working out the records of every game…"), "prompt", wrap=True, key="records-working")
            ]
        mine = records.get(self.tab)
        if mine is None:
            return out + [
                Label(body, _("No finished games of this title yet."), "prompt", wrap=True, key="records-empty")
            ]
        picture = self.picture(self.tab) if self.tab != "cloudmine" else None
        lines = record_lines(mine)
        if self._pending:  # the players' results shown; what only a replay tells still to come
            lines.insert(1, _("The other records are still being worked out…"))
        marks = [mark for mark, _line in record_entries(mine)]
        if self._pending:
            marks.insert(1, "")
        shown = lines[:MAX_LINES]
        title_records = next((i for i, mark in enumerate(marks) if i and not mark), len(shown))
        return out + self.records_card(f, t, body, shown, picture, title_records, marks[: len(shown)])

    def records_card(
        self, f, t, body: pygame.Rect, lines: list[str], picture, title_records: int, marks: list[str]
    ) -> list[Widget]:
        """The records on their card, in the largest type they all fit at, each beside its
        picture (`marks`), and the picture of the latest game beside them (landscape) or under
        them (portrait, taking what they leave): the title's own records (the first
        `title_records` lines) in ink, the players' softer."""
        gap, pad = f.u(GAP), (f.u(10), f.u(6))
        text, chart = body.copy(), body.copy()
        if picture is not None:
            text, chart = rows(body, [1.4, 1], gap) if f.portrait else cols(body, [1, 1.25], gap)
        inner = text.inflate(-2 * pad[0], -2 * pad[1])
        # a column for the pictures, as wide as a line of the records is tall
        mark_w = th.font(t.px(SIZE_STEPS[0][1]), "regular").get_linesize()
        words = pygame.Rect(inner.x + mark_w + gap, inner.y, inner.w - mark_w - gap, inner.h)
        sizes = record_sizes(t, words, lines)
        placed = record_rows(t, words, lines, f.u(6), sizes)
        if placed and (picture is None or f.portrait):  # the card as tall as its rows, no taller
            text.h = placed[-1][0].bottom + pad[1] - text.y
            chart = pygame.Rect(body.x, text.bottom + gap, body.w, body.bottom - text.bottom - gap)
        out: list[Widget] = []
        if picture is not None:
            out += [Panel(chart, key="plot-card"), Plot(chart.inflate(-f.u(12), -f.u(12)), picture)]
        out.append(Panel(text, key="records-card"))
        labels: list[Widget] = [
            Label(
                rect,
                line,
                sizes[1] if i else sizes[0],
                align="left",
                wrap=True,
                colour=th.INK if i < title_records else th.INK_SOFT,
                key=f"record:{i}" if i else "played:0",
                weight="regular",
            )
            for i, (rect, line) in enumerate(placed)
        ]
        for i, (rect, _line) in enumerate(placed):
            if marks[i]:
                line_h = th.font(t.px(sizes[1] if i else sizes[0]), "regular").get_linesize()
                side = min(mark_w, line_h + f.u(4))
                box = pygame.Rect(inner.x + (mark_w - side) // 2, rect.y + (line_h - side) // 2, side, side)
                out.append(
                    Picture(box, lambda s, r, m=marks[i], g=self.tab: paint_mark(s, r, m, g), key=f"record-mark:{i}")
                )
        return out + one_size(labels, t)  # the records below the count of games all in one size

    def show_tab(self, game: str) -> None:
        self.tab = game
        self.app.refresh()


def records_button(rect: pygame.Rect, app, source) -> Button:
    """The History screen's way in: a tab-like button that opens the records."""
    return Button(rect, _("Records"), lambda: app.show(RecordsScreen(app, source)), kind="choice", key="tab:records")
