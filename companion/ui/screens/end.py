"""End of game: who won and how it ended, every player's rank (a crown for the winners, a shape
and not only a colour), the tie-break where it decided, Cloudship's board outcome, the game's
story (Cloud 9 trip by trip with each hand, The Cloud Mine round by round by role, Cloudship's
rounds: storm, flowers, hail) and its awards, and the ways on: play again with the same players
(first), undo the last step, home. A finished game's recap picture is saved
as soon as the screen is shown."""

from __future__ import annotations

import json
import logging
import math
import threading
from collections import OrderedDict

import pygame

from ... import i18n
from ...insights import awards as told
from ..boards import plots, recap
from ..kit import theme as th
from ..kit.layout import GAP, cols, grid, inset, rows
from ..kit.names import NameLabel, name_lines, shared_px
from ..kit.shapes import draw_crown
from ..kit.widgets import Button, Label, Panel, Picture, PlayerToken, Widget, wrap_lines
from ..story import moments as story
from .base import Screen, game_title

_ = i18n.translator("app")
log = logging.getLogger(__name__)

GOLD = (247, 190, 40)
FLOWERS = 12  # Cloudship: the four beds of three
BARS_LEAST = 56  # design pixels: the narrowest a player's row of bars still tells its story (three bars)
CELEBRATION_S = 0.8  # petals over a full garden, then stillness
PETALS = [(214, 62, 120), (244, 194, 13), (123, 63, 160), (31, 111, 209), (250, 250, 250), (46, 158, 79)]


def draw_petals(surface: pygame.Surface, garden: pygame.Rect, progress: float, theme) -> None:
    """Petals thrown up from across the garden, falling back as they fade; `progress` 0..1."""
    count = 24
    radius = theme.px(7)
    for i in range(count):
        x0 = garden.x + garden.w * (i + 0.5) / count
        lift = garden.h * 2.2 * (0.6 + 0.4 * ((i * 7) % 5) / 4)
        drift = theme.px(40) * math.sin(i * 2.4)
        x = x0 + drift * progress
        y = garden.centery - lift * 4 * progress * (1 - progress)
        size = max(2, round(radius * (1 - 0.5 * progress)))
        pygame.draw.circle(surface, PETALS[i % len(PETALS)], (round(x), round(y)), size)
        pygame.draw.circle(surface, th.INK, (round(x), round(y)), size, 1)


class Crown(Widget):
    def signature(self, ctx):
        return (type(self), tuple(self.rect)) if type(self).draw is Crown.draw else None

    def draw(self, surface, ctx):
        draw_crown(surface, self.rect, GOLD)


class Bars(Widget):
    """One player's story as small bars: `values` holds a stack of (value, colour) per trip or
    round, all drawn to the scale of `top`."""

    def __init__(self, rect, values, top: int, key: str | None = None):
        super().__init__(rect, key)
        self.values, self.top = values, top

    def signature(self, ctx):
        if type(self).draw is not Bars.draw:
            return None
        return (type(self), tuple(self.rect), tuple(tuple(stack) for stack in self.values), self.top)

    def totals(self) -> list[int]:
        return [sum(value for value, *_colour in stack) for stack in self.values]

    def draw(self, surface, ctx):
        recap.draw_bars(surface, self.rect, self.values, self.top, ctx.theme)


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


class _Told:
    """The insights' story of a game (its awards, trips, rounds), worked out once for a state:
    the stand-in that drew the end screen ahead and the game's own match after that press are
    two objects for one state (the same step before, the same action), so the end screen of
    the press that ends a game finds its story told. The last few states are remembered."""

    KEPT = 8

    def __init__(self):
        self._known: OrderedDict[tuple, tuple] = OrderedDict()

    def __call__(self, fn, match):
        step = match.current
        try:
            key = (fn, id(step.before), json.dumps(step.action, sort_keys=True))
        except (TypeError, ValueError):
            return fn(match)
        known = self._known.get(key)
        if known is not None and known[0] is step.before:  # the step itself held: its id is its own
            self._known.move_to_end(key)
            return known[1]
        value = fn(match)
        self._known[key] = (step.before, value)
        while len(self._known) > self.KEPT:
            self._known.popitem(last=False)
        return value


_told = _Told()


def _write_quietly(picture: recap.Pixels, path) -> None:
    try:
        recap.write_pixels(picture, path)
    except OSError as exc:  # a full or read-only disk: the game itself is safe
        log.warning("the recap picture could not be saved in %s: %s", path, exc)


def keep_recap(journal, game_id: int, match) -> threading.Thread | None:
    """Draw a finished game's recap picture and write it beside the journal's exports, unless it
    is there already: drawn here (fonts are not for other threads), packed and written on a
    thread of its own (returned), which the interpreter waits for before it exits."""
    path = recap.recap_path(journal.path, game_id, match.view["game"])
    if path.exists():
        return None
    try:
        summary = journal.game(game_id)
    except Exception:  # a journal that cannot be read now: the picture waits for `history --recap`
        summary = None
    picture = recap.pixels_of(recap.render_recap(match, getattr(summary, "started_at", None)))
    thread = threading.Thread(target=_write_quietly, args=(picture, path), name="recap-png")
    thread.start()
    return thread


def keep_latest_recap(journal) -> threading.Thread | None:
    """The latest game's recap, where it ended and none was saved (the app stopped too soon
    after its last press): kept now, at the next start."""
    try:
        latest = journal.latest()
        if latest is None or not latest.over or recap.recap_path(journal.path, latest.id, latest.game).exists():
            return None
        match = journal.rebuild(latest.id)
    except Exception:  # a damaged journal: `history --recap` can still try
        log.warning("the latest game's recap could not be drawn", exc_info=True)
        return None
    return keep_recap(journal, latest.id, match) if match.view["over"] else None


def _fits(theme, text: str, rect: pygame.Rect, lines: int) -> bool:
    """Does `text` fit `rect` in at most `lines` lines of the smallest type?"""
    px = theme.size("min")
    wrapped = wrap_lines(text, px, rect.w, "regular")
    return len(wrapped) <= lines and theme.font(px, "regular").fits_height(wrapped, rect.h)


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
            self.keep_recap()
            if self.view.get("result") == "won" and not hasattr(self, "celebrated_at"):
                # the twelfth flower: petals fly up from the garden, once
                self.celebrated_at = self.app.now()
                self.app.animate(CELEBRATION_S)

    def draw_first_above(self, surface, ctx) -> bool:
        return getattr(self, "celebrated_at", None) is None  # the petals fly from the rebuilt garden

    def draw_above(self, surface, ctx) -> None:
        start, garden = getattr(self, "celebrated_at", None), getattr(self, "garden_rect", None)
        if start is None or garden is None:
            return
        progress = (self.app.now() - start) / CELEBRATION_S
        if not 0 <= progress < 1:
            return
        draw_petals(surface, garden, progress, ctx.theme)

    def keep_recap(self) -> None:
        """Save the finished game's recap picture beside the journal's exports, once: drawn
        after this screen's first frame, while the loop waits (10 to 25 ms here, too long for
        the press that ended the game to wait for), and before the app closes all the same."""
        journal, ref = self.app.journal, getattr(self.app.controller, "game_id", None)
        game_id = getattr(ref, "id", None)
        if journal is None or game_id is None or not self.view["over"] or hasattr(self, "recap_saving"):
            return
        self.recap_saving = None  # the thread that writes it, once drawn
        match = self.game_screen.match

        def draw_and_save() -> None:
            # the game's frames kept for the states a press could lead to: it is over, and the
            # picture (5.5 MiB) is drawn in their room rather than beside them
            self.app.forget_other_frames()
            self.recap_saving = keep_recap(journal, game_id, match)

        self.app.when_idle(draw_and_save)

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
                points=points, name=winner, cards=" : ".join(str(v["hands"][n]) for n in level)
            )
        if self.game_screen.game == "cloudmine" and v["over"] and not self.ended_early:
            # how a Cloud Mine game ends: the deck cannot supply another round
            return recap.deck_line(self.game_screen.match) or ""
        moment = self.last_moment()
        return moment.text if moment is not None else ""

    def build(self, f, t):
        c = f.content
        gap = f.u(GAP)
        note = self.note()
        found = self.awards()
        note_lines = len(wrap_lines(note, t.size("small"), c.w, th.weight_of("small"))) if note else 0
        heights = [f.u(60 if f.portrait else 52)] + ([f.u(8) + note_lines * f.u(26)] if note else [])
        # the awards: under the story in portrait, and for Cloudship's one award; else beside it
        beside = bool(found) and not f.portrait and self.game_screen.game != "cloudship"
        awards_h = len(found) * f.u(64 if f.portrait else 56) + (len(found) - 1) * gap if found and not beside else 0
        buttons_h = f.u(88 if f.portrait else 64)
        body_h = c.h - sum(heights) - awards_h - buttons_h - gap * (len(heights) + (1 if awards_h else 0))
        parts = rows(c, heights + [body_h] + ([awards_h] if awards_h else []) + [buttons_h], gap)
        head, body, buttons = parts[0], parts[len(heights)], parts[-1]
        out: list[Widget] = [Label(head, self.headline(), "big", wrap=True, key="headline")]
        if note:
            out.append(Label(parts[1], note, "small", wrap=True, colour=th.INK_SOFT, key="how-it-ended"))
        chips = parts[-2] if awards_h else None
        if beside:  # the awards' column widens (up to the table's need) until every line fits
            for share in (1.25, 1.5, 1.8):
                table, chips = cols(body, [2.7, share], gap)
                if self.awards_fit(f, chips, found) or table.w - f.u(8) <= self.table_need(f):
                    break
            body = table
        out += self.outcome(f, body) if self.game_screen.game == "cloudship" else self.scores(f, body)
        if found:
            out += self.award_chips(f, chips, found)
        # play again with the same players first: the table usually wants another round
        actions = [(_("Play again"), self.play_again, "primary", "again")]
        if not self.ended_early and self.game_screen.match.can_undo:
            actions.append((_("Undo last step"), self.undo, "secondary", "undo"))
        actions.append((_("Home"), self.app.home, "secondary", "home"))
        for rect, (text, fn, kind, key) in zip(cols(buttons, len(actions), gap * 2), actions):
            out.append(Button(rect, text, fn, kind=kind, key=key, size="title"))
        return out

    def awards(self) -> list[told.Award]:
        match = self.game_screen.match
        if getattr(self, "_awards_for", None) is not match:
            self._awards_for, self._awards = match, _told(told.awards, match)
        return self._awards

    def award_cells(self, f, area: pygame.Rect, found: list[told.Award]):
        """Each award's chip, its crown, title and line boxes, and the longest of its words
        that fit the line (the last, shortest, may not)."""
        theme = self.app.theme
        gap, lines = f.u(4), 1 if f.portrait else 3
        # chips of at most 96 design pixels each, from the top; each as tall as its words need
        # (a one-line award gives its room to a two-line one) where they all fit so
        tall = min(f.u(96), (area.h - (len(found) - 1) * gap) // max(1, len(found)))
        px = theme.size("min")
        face = theme.font(px, "regular")
        options = []  # per award: the height each of its words needs, longest words first
        for award in found:
            heights = []
            for words in (recap.award_line(award), recap.award_short(award), recap.award_short(award, few=True)):
                shown = wrap_lines(words, px, area.w - f.u(16), "regular")
                if len(shown) > lines:
                    continue
                low = face.get_linesize() * len(shown)  # the least height its letters need
                while low > 1 and face.fits_height(shown, low - 1):
                    low -= 1
                heights.append(f.u(26) + low + f.u(4))
            options.append(heights or [tall])
        choice = [0] * len(found)
        room = area.h - (len(found) - 1) * gap
        # too tall together: the tallest chip that has shorter words takes them, until they fit
        while sum(o[c] for o, c in zip(options, choice)) > room:
            shorter = [i for i, (o, c) in enumerate(zip(options, choice)) if c + 1 < len(o) and o[c + 1] < o[c]]
            if not shorter:
                break
            i = max(shorter, key=lambda i: options[i][choice[i]])
            choice[i] += 1
        needs = [o[c] for o, c in zip(options, choice)]
        spare = area.h - (len(found) - 1) * gap - sum(needs)
        heights = (
            [min(f.u(96), need + spare // len(found)) for need in needs]
            if spare >= 0 and found
            else [tall] * len(found)
        )
        tops = [area.y + sum(heights[:i]) + i * gap for i in range(len(found))]
        cells = [pygame.Rect(area.x, top, area.w, height) for top, height in zip(tops, heights)]
        for cell, award in zip(cells, found):
            side = f.u(26)  # the crown leads the title; the line below has the chip's width
            crown = pygame.Rect(cell.x + f.u(8), cell.y + f.u(6), side, side * 3 // 4)
            title = pygame.Rect(crown.right + f.u(8), cell.y + f.u(2), cell.right - crown.right - f.u(16), f.u(24))
            line = pygame.Rect(cell.x + f.u(8), title.bottom, cell.w - f.u(16), cell.bottom - title.bottom - f.u(2))
            words = recap.award_line(award)
            for short in (recap.award_short(award), recap.award_short(award, few=True)):
                if _fits(theme, words, line, 1 if f.portrait else 3):
                    break
                words = short
            yield cell, crown, title, line, award, words

    def awards_fit(self, f, area: pygame.Rect, found: list[told.Award]) -> bool:
        theme = self.app.theme
        return all(
            _fits(theme, words, line, 1 if f.portrait else 3)
            for _cell, _crown, _title, line, _award, words in self.award_cells(f, area, found)
        )

    def award_chips(self, f, area: pygame.Rect, found: list[told.Award]) -> list[Widget]:
        out: list[Widget] = []
        for cell, crown, title, line, award, words in self.award_cells(f, area, found):
            out.append(Panel(cell, key=f"award:{award.kind}"))
            out.append(Crown(crown, key=f"award-crown:{award.kind}"))
            out += [
                Label(title, recap.award_title(award), "small", align="left", key=f"award-title:{award.kind}"),
                Label(
                    line,
                    words,
                    "min",
                    align="left",
                    weight="regular",
                    colour=th.INK_SOFT,
                    wrap=True,
                    key=f"award-line:{award.kind}",
                ),
            ]
        return out

    def scores(self, f, area: pygame.Rect) -> list[Widget]:
        """Everyone ranked, one row each: the crown, the token, the name, the game's story as small
        bars (Cloud 9: points per trip; The Cloud Mine: cards per round in the role's colour),
        Cloud 9's hand (which breaks a tie on points) and the final score."""
        v = self.view
        game = self.game_screen.game
        ranked = standings(v)
        match = self.game_screen.match
        theme = self.app.theme
        series: dict[str, list[list[tuple]]]  # per player, per bar: (value, colour[, pattern]) pieces
        if game == "cloud9":
            trips = _told(told.cloud9_trips, match)
            series = {p: [[(trip.points[p], self.game_screen.colour_of(p))] for trip in trips] for p in v["players"]}
        else:
            rounds = _told(told.cloudmine_rounds, match)
            series = {p: [[recap.role_bar(r.cards[p], r.roles[p])] for r in rounds] for p in v["players"]}
        header_h = f.u(60 if game == "cloudmine" and f.portrait else 30)
        row_h = min(f.u(96 if f.portrait else 84), (area.h - f.u(16) - header_h) // max(1, len(ranked)))
        height = min(area.h, row_h * len(ranked) + f.u(16) + header_h)
        area = pygame.Rect(area.x, area.y + (area.h - height) // 2 if f.portrait else area.y, area.w, height)
        out: list[Widget] = [Panel(area, key="scores")]
        inner = inset(area, f.u(8))
        stacked = game == "cloudmine" and f.portrait  # the legend on a line of its own under the caption
        header = pygame.Rect(inner.x, inner.y, inner.w, f.u(60 if stacked else 30))
        score_w = f.u(72 if row_h >= f.u(48) else 52)
        hands = (
            {
                name: _.ngettext("{count} card", "{count} cards", v["hands"][name]).format(count=v["hands"][name])
                for name in v["players"]
            }
            if game == "cloud9"
            else {}
        )
        hand_w = self.hand_width(hands) + f.u(8) if hands else 0
        # rows of a line each (seven or eight players): the token and crown take the row's height
        tight = row_h < f.u(26)
        side = min(row_h - (0 if tight else f.u(4)), f.u(48 if f.portrait else 36))
        shrink = 0 if tight else f.u(4)
        lead = f.u(44) + side + f.u(4) + side  # rank, crown, token
        two_lines = f.portrait  # portrait: the name above its bars, which get the row's width
        longest = max(theme.measure(name, theme.size("min"))[0] for name in v["players"]) + f.u(8)
        room = inner.w - lead - f.u(8) - score_w
        # a landscape row too low for a name on two lines: every name whole on one line, the
        # hand as its number under "Hand" where the words would leave the bars no room
        low = not two_lines and row_h < 2 * theme.font(theme.size("min")).get_linesize() + f.u(2)
        if low and hands and room - hand_w - longest < f.u(BARS_LEAST):
            hands = {name: str(v["hands"][name]) for name in v["players"]}
            hand_w = self.hand_width(hands) + f.u(8)
        name_w = (
            room
            if two_lines
            else min(longest, room - hand_w - f.u(BARS_LEAST))
            if low
            else max(f.u(120), min(longest, (room + f.u(8) - hand_w) * 7 // 10, room - hand_w - f.u(BARS_LEAST)))
        )
        bars_x = inner.x + lead + f.u(8) + (0 if two_lines else name_w)
        bars_w = inner.right - score_w - hand_w - f.u(8) - bars_x
        # a long game: each bar a few trips or rounds together, so that no bar is a hairline
        per = recap.per_bar(len(trips if game == "cloud9" else rounds), bars_w, theme)
        series = {name: recap.grouped(stacks, per) for name, stacks in series.items()}
        top = max([1] + [sum(value for value, *_c in stack) for stacks in series.values() for stack in stacks])
        caption = (
            recap.trips_caption(len(trips), per)
            if game == "cloud9"
            else _("Cards per round")
            if per == 1
            else _("Cards per {size} rounds").format(size=per)
        )
        caption_w = (
            bars_x + bars_w - inner.x
            if game == "cloud9"
            else inner.w
            if stacked
            else inner.w - self.legend_width(f) - f.u(8)
        )
        caption_rect = pygame.Rect(inner.x, header.y, caption_w, header.h // (2 if stacked else 1))
        if game == "cloudmine" and not _fits(theme, caption, caption_rect, 1):
            caption = _("Cards")  # the legend beside it says the rest
        elif game == "cloud9" and per > 1 and not _fits(theme, caption, caption_rect, 1):
            caption = _("Points per {size} trips").format(size=per)
        out.append(
            Label(
                caption_rect, caption, "small", align="left", colour=th.INK_SOFT, key="caption:story", weight="regular"
            )
        )
        if game == "cloud9":
            caption_hand = pygame.Rect(bars_x + bars_w + f.u(4), header.y, hand_w, header.h)
            if theme.measure(_("Hand"), theme.size("small"), "regular")[0] > hand_w:
                caption_hand.w = inner.right - caption_hand.x  # over the scores too
            out.append(
                Label(
                    caption_hand,
                    _("Hand"),
                    "small",
                    colour=th.INK_SOFT,
                    key="caption:hand",
                    weight="regular",
                    align="center" if caption_hand.w == hand_w else "left",
                )
            )
        else:
            out += self.role_legend(
                f,
                pygame.Rect(inner.x, caption_rect.bottom, min(inner.w, self.legend_width(f)), header.h - caption_rect.h)
                if stacked
                else pygame.Rect(inner.x + caption_w + f.u(8), header.y, inner.w - caption_w - f.u(8), header.h),
            )
        name_h = max(row_h * 4 // 10, theme.font(theme.size("min")).get_linesize() + f.u(2)) if two_lines else row_h
        # every name in one design size: a table whose names all have one size reads as a table
        name_size = (
            shared_px(dict.fromkeys(v["players"], name_w), theme.size("title"), theme.size("min"), name_h, "bold")
            / theme.scale
        )
        # the scores' digits with a clear gap to the next row's (eight rows of a line each)
        score_size = (
            "big"
            if row_h >= f.u(56)
            else "title"
            if row_h >= f.u(40)
            else max(th.MIN_TEXT, (row_h - f.u(10)) / theme.scale * 1.25)
        )
        for index, (rank, name) in enumerate(ranked):
            row = pygame.Rect(inner.x, header.bottom + index * row_h, inner.w, row_h)
            won = name in v["winners"]
            rank_rect = pygame.Rect(row.x, row.y, f.u(44), row.h)
            crown = pygame.Rect(rank_rect.right, row.centery - side // 2, side, side)
            token = pygame.Rect(crown.right + f.u(4), row.centery - side // 2, side, side)
            if two_lines:
                name_rect = pygame.Rect(token.right + f.u(8), row.y, name_w, name_h)
                bars = pygame.Rect(bars_x, name_rect.bottom, bars_w, row.bottom - name_rect.bottom - f.u(6))
            else:
                name_rect = pygame.Rect(token.right + f.u(8), row.y, name_w, row.h)
                bars = pygame.Rect(bars_x, row.y + f.u(4), bars_w, row.h - f.u(8))
            out += [
                Label(rank_rect, _("{rank}.").format(rank=rank), score_size, align="left", key=f"rank:{name}"),
                PlayerToken(
                    token.inflate(-shrink, -shrink),
                    name,
                    self.game_screen.player(name).colour,
                    key=f"token:{name}",
                    mark=self.game_screen.mark(name),
                ),
                NameLabel(name_rect, name, name_size, align="left", key=f"name:{name}"),
                Bars(bars, series[name], top, key=f"story:{name}"),
                Label(
                    pygame.Rect(row.right - score_w, row.y, score_w, row.h),
                    str(v["scores"][name]),
                    score_size,
                    align="right",
                    key=f"final:{name}",
                ),
            ]
            if won:
                out.append(Crown(crown.inflate(-shrink - f.u(2), -shrink - f.u(6)), key=f"crown:{name}"))
            if game == "cloud9":
                line = theme.font(theme.size("min")).get_linesize() + f.u(4)
                hand_rect = (
                    pygame.Rect(bars.right + f.u(4), row.bottom - max(bars.h, line), hand_w, max(bars.h, line))
                    if two_lines
                    else pygame.Rect(bars.right + f.u(4), row.y, hand_w, row.h)
                )
                out.append(Label(hand_rect, hands[name], "small", colour=th.INK_SOFT, key=f"hand:{name}"))
        return out

    def hand_width(self, hands: dict[str, str]) -> int:
        """Cloud 9: the hand column's width, its widest count (its caption may reach over the
        scores, which have none)."""
        theme = self.app.theme
        return max(theme.measure(text, theme.size("small"), th.weight_of("small"))[0] for text in hands.values())

    def table_need(self, f) -> int:
        """Landscape: the least width of the ranked table with every name whole on one line
        (rank, crown, token, name, a few bars, the hand's number, the score)."""
        theme = self.app.theme
        longest = max(theme.measure(name, theme.size("min"))[0] for name in self.view["players"])
        hand = f.u(48) if self.game_screen.game == "cloud9" else 0
        return f.u(44 + 36 + 4 + 36 + 8 + 8 + BARS_LEAST + 72) + longest + hand

    def legend_words(self) -> tuple[tuple[str, str], ...]:
        return (("dreamer", _("Dreamer")), ("chooser", _("Chooser")), ("observer", _("Observer")))

    def legend_width(self, f) -> int:
        theme = self.app.theme
        return sum(theme.measure(word, theme.size("min"), "regular")[0] + f.u(30) for _r, word in self.legend_words())

    def role_legend(self, f, area: pygame.Rect) -> list[Widget]:
        """The Cloud Mine: which colour and pattern is which role (not only a colour)."""
        out: list[Widget] = []
        words = self.legend_words()
        theme = self.app.theme
        widths = [theme.measure(word, theme.size("min"), "regular")[0] + f.u(30) for _role, word in words]
        for cell, (role, word) in zip(cols(area, widths, f.u(4)), words):
            swatch = pygame.Rect(cell.x, cell.centery - f.u(7), f.u(14), f.u(14))
            out += [
                Picture(
                    swatch,
                    lambda surface, rect, role=role: recap.fill_pattern(
                        surface, rect, recap.ROLE_COLOURS[role], recap.ROLE_PATTERNS[role]
                    ),
                    key=f"legend:{role}",
                    still=True,
                ),
                Label(
                    pygame.Rect(swatch.right + f.u(4), cell.y, cell.right - swatch.right - f.u(4), cell.h),
                    word,
                    "min",
                    align="left",
                    weight="regular",
                    key=f"legend-word:{role}",
                ),
            ]
        return out

    def outcome(self, f, area: pygame.Rect) -> list[Widget]:
        """Cloudship: the garden (a win: all twelve, celebrated), the board's outcome in three
        numbers, the game round by round (storm, flowers, hail) and the crew."""
        v = self.view
        planted = sum(v["beds"].values())
        left = max(0, v["storm_end"] - v["storm"])
        won, lost = v.get("result") == "won", v.get("result") == "lost"
        out: list[Widget] = [Panel(area, key="outcome", highlight=th.GOOD if won else None)]
        names = v["players"]
        crew_columns = 2 if len(names) > 2 and (f.portrait or not self.crew_fits_a_row(f, area.w)) else len(names)
        crew_rows = -(-len(names) // crew_columns)
        # a landscape crew on two rows: closer rows, so the rounds' story keeps its room
        tight = crew_rows > 1 and not f.portrait
        gap = f.u(4) if tight else f.u(GAP)
        inner = inset(area, f.u(8 if tight else 12))
        crew_h = self.crew_height(f, inner.w, crew_columns, crew_rows, gap)
        from ..boards.ship_icons import icons_in_row

        # the garden: a flower for each one planted, an empty spot for each one missing
        spots = ["flower"] * planted + ["tile:blank"] * (FLOWERS - planted)
        figures_told = (
            (f"{planted}/{FLOWERS}", _("flowers planted"), "planted"),
            (str(left), _("storm squares left"), "storm-left"),
            (str(v["round"]), _("rounds flown"), "rounds"),
        )

        def ink(key: str):
            return th.GOOD if won and key == "planted" else th.DANGER if lost and key == "storm-left" else th.INK

        if f.portrait:
            weights = [1.5, 1.6, 2.4, 0.45 * crew_rows + 0.3]
            heights = [part.h for part in rows(inner, weights, gap)]
            if heights[3] < crew_h:  # every name whole: the room comes from the garden and the story
                extra = crew_h - heights[3]
                from_garden = extra * heights[0] // (heights[0] + heights[2])
                heights = [heights[0] - from_garden, heights[1], heights[2] - (extra - from_garden), crew_h]
            garden, figures, story_rect, crew = rows(inner, heights, gap)
            if won:  # the twelfth flower: the garden is the headline, with its words under it
                flowers, words = rows(garden, [1.6, 1], f.u(4))
                self.garden_rect = flowers
                out += [
                    Picture(flowers, icons_in_row(spots, f.u(64)), key="garden"),
                    Label(words, _("All 12 flowers planted!"), "title", colour=th.GOOD, wrap=True, key="celebration"),
                ]
            else:
                out.append(Picture(garden, icons_in_row(spots, f.u(56)), key="garden"))
            # three figures side by side, each number above its words
            for cell, (number, caption, key) in zip(cols(figures, 3, f.u(GAP * 2)), figures_told):
                top, bottom = rows(cell, [1, 1])
                out += [
                    Label(top, number, "display", colour=ink(key), key=f"outcome:{key}"),
                    Label(bottom, caption, "small", wrap=True, colour=th.INK_SOFT, key=f"caption:{key}"),
                ]
        else:
            # landscape: the garden and the three figures in a column at the left, the rounds'
            # story beside them with the panel's height, the crew along the bottom
            top, crew = rows(inner, [inner.h - crew_h - gap, crew_h], gap)
            theme = self.app.theme
            number_w = max(theme.measure(number, theme.size("title"))[0] for number, _c, _k in figures_told) + f.u(8)
            # the column as wide as its longest caption on one line (a third of the panel at most)
            side_w = min(
                top.w * 2 // 5,
                number_w
                + f.u(6)
                + max(
                    theme.measure(caption, theme.size("small"), th.weight_of("small"))[0]
                    for _n, caption, _k in figures_told
                ),
            )
            side_w = max(side_w, top.w // 4)
            side, story_rect = cols(top, [side_w, top.w - side_w - f.u(GAP * 2)], f.u(GAP * 2))
            garden_h = min(f.u(56 if won else 28), side.h // 3)
            garden, figures = rows(side, [garden_h, side.h - garden_h - gap], gap)
            if won:  # the twelfth flower: its words under the garden
                flowers, words = rows(garden, [1, 1])
                self.garden_rect = flowers
                out += [
                    Picture(flowers, icons_in_row(spots, f.u(44)), key="garden"),
                    Label(words, _("All 12 flowers planted!"), "small", colour=th.GOOD, key="celebration"),
                ]
            else:
                out.append(Picture(garden, icons_in_row(spots, f.u(28)), key="garden"))
            # three figures, one under the other, each number beside its words
            for cell, (number, caption, key) in zip(rows(figures, 3, f.u(4)), figures_told):
                value, words = (
                    pygame.Rect(cell.x, cell.y, number_w, cell.h),
                    pygame.Rect(cell.x + number_w + f.u(6), cell.y, cell.w - number_w - f.u(6), cell.h),
                )
                out += [
                    Label(value, number, "title", colour=ink(key), align="right", key=f"outcome:{key}"),
                    Label(words, caption, "small", wrap=True, align="left", colour=th.INK_SOFT, key=f"caption:{key}"),
                ]
        rounds = told.cloudship_rounds(self.game_screen.match)
        theme = self.app.theme
        out.append(
            Picture(story_rect, lambda surface, rect: plots.draw_rounds(surface, rect, rounds, theme), key="rounds")
        )
        self.rounds_told = rounds
        for cell, name in zip(grid(crew, len(names), crew_columns, gap), names):
            side = min(cell.h, f.u(44))
            token = pygame.Rect(cell.x, cell.centery - side // 2, side, side)
            out += [
                PlayerToken(
                    token,
                    name,
                    self.game_screen.player(name).colour,
                    key=f"token:{name}",
                    mark=self.game_screen.mark(name),
                ),
                NameLabel(
                    pygame.Rect(token.right + f.u(6), cell.y, cell.right - token.right - f.u(6), cell.h),
                    name,
                    "body",
                    align="left",
                    key=f"name:{name}",
                ),
            ]
        return out

    def crew_room(self, f, width: int, columns: int, gap: int) -> int:
        """Cloudship: the width beside its token that a crew member's name has."""
        cell = (width - (columns - 1) * gap) // max(1, columns)
        return cell - min(cell, f.u(44)) - f.u(6)

    def crew_fits_a_row(self, f, width: int) -> bool:
        """Cloudship, landscape: does every name fit on one line of the smallest type when the
        whole crew shares a row?"""
        names = self.view["players"]
        theme = self.app.theme
        room = self.crew_room(f, width - 2 * f.u(12), len(names), f.u(GAP))
        return all(theme.measure(name, theme.size("min"), "regular")[0] <= room for name in names)

    def crew_height(self, f, width: int, columns: int, crew_rows: int, gap: int) -> int:
        """Cloudship: the least height of the crew's rows in which every name, on one line or
        broken onto two, fits at the smallest type."""
        theme = self.app.theme
        px = theme.size("min")
        room = self.crew_room(f, width, columns, gap)
        lines = max(len(name_lines(name, px, room, "regular")) for name in self.view["players"])
        return crew_rows * (lines * theme.font(px, "regular").get_linesize() + f.u(2)) + (crew_rows - 1) * gap

    def undo(self) -> None:
        if self.game_screen.submit({"act": "undo"}):
            self.app.replace(self.game_screen)

    def play_again(self) -> None:
        from .players import PlayersScreen

        setup = self.game_screen.match.setup
        self.app.home()
        self.app.show(PlayersScreen(self.app, self.game_screen.game, previous=setup, players=self.game_screen.players))
