"""A game's story in words and in a picture the family can keep.

- The words: each award as a title and a line, the Cloud Mine's empty deck, shared by the end
  screen and the picture (`award_title`, `award_line`, `deck_line`).
- The picture: a PNG drawn off screen with the game's title and date, the players in their
  colours (and their marks), the final standings, the story in small multiples (Cloud 9: each
  player's points trip by trip; Cloudship: storm, flowers and hail round by round; The Cloud
  Mine: each player's cards round by round, by role) and the awards (`render_recap`,
  `save_recap`). The app saves one beside the journal's exports when a game ends
  (`recap_path`); `cloud-companion history --recap ID --out FILE` draws one of any game.
"""

from __future__ import annotations

import os
import struct
import tempfile
import zlib
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path

import pygame

from ... import i18n
from ...insights import awards as told
from ...rules import Match
from ...rules.cloudship import FLOWERS
from ..kit import theme as th
from ..kit.names import shared_px
from ..kit.roster import players_from_setup
from ..kit.shapes import draw_crown, draw_game_icon
from ..kit.widgets import draw_player_token, token_marks, wrap_lines
from . import plots
from .ship_icons import icons_in_row

_ = i18n.translator("app")

SIZE = (1200, 1600)  # the picture: portrait, as a phone or a printed page shows it
PNG_BAND_ROWS = 64  # rows packed in one call (about 230 KB at that width)
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
GOLD = (247, 190, 40)
ROLE_COLOURS = {"dreamer": (123, 63, 160), "chooser": (240, 127, 19), "observer": (31, 111, 209)}
# each role's bars and swatch also carry a pattern, so the roles tell apart without their colours
ROLE_PATTERNS = {"dreamer": "solid", "chooser": "stripes", "observer": "dots"}
TITLES = {"cloud9": i18n.N_("Cloud 9"), "cloudship": i18n.N_("Cloudship"), "cloudmine": i18n.N_("The Cloud Mine")}


# --- the words ---------------------------------------------------------------------------------


def names(players: Iterable[str]) -> str:
    return ", ".join(players)


def award_title(award: told.Award) -> str:
    return {
        "boldest_stay": _("Boldest stay"),
        "best_trip": _("Best trip"),
        "highest_flight": _("Highest flight"),
        "best_commander": _("Best commander"),
        "sharpest_guesser": _("Sharpest guesser"),
        "richest_dreamer": _("Richest Dreamer"),
    }.get(award.kind, award.kind)


def award_line(award: told.Award) -> str:
    who, n = names(award.players), award.value
    many = len(award.players)  # "Ben stayed", "Ben, Dan stayed": one verb or several in other languages
    if award.kind == "boldest_stay":
        return _.ngettext(
            "{names} stayed aboard on cloud {cloud}", "{names} stayed aboard on cloud {cloud}", many
        ).format(names=who, cloud=n)
    if award.kind == "best_trip":
        return _("{names}: {points} points in trip {trip}").format(names=who, points=n, trip=award.round)
    if award.kind == "highest_flight":
        return _.ngettext(
            "{names} rode up to cloud {cloud} in trip {trip}", "{names} rode up to cloud {cloud} in trip {trip}", many
        ).format(names=who, cloud=n, trip=award.round)
    if award.kind == "best_commander":
        return _.ngettext(
            "{names}: {count} flower planted in their rounds", "{names}: {count} flowers planted in their rounds", n
        ).format(names=who, count=n)
    if award.kind == "sharpest_guesser":
        return _.ngettext("{names}: {count} right guess", "{names}: {count} right guesses", n).format(
            names=who, count=n
        )
    if award.kind == "richest_dreamer":
        return _.ngettext("{names}: {count} card as Dreamer", "{names}: {count} cards as Dreamer", n).format(
            names=who, count=n
        )
    return who


def award_short(award: told.Award, few: bool = False) -> str:
    """The award's line for a narrow place: the names and the number (`few`: the first name
    and how many more, "Anna +1")."""
    who, n = names(award.players), award.value
    if few and len(award.players) > 1:
        who = f"{award.players[0]} +{len(award.players) - 1}"
    if award.kind in ("boldest_stay", "highest_flight"):
        return _("{names}: cloud {cloud}").format(names=who, cloud=n)
    if award.kind == "best_trip":
        return _("{names}: {points} points").format(names=who, points=n)
    if award.kind == "best_commander":
        return _.ngettext("{names}: {count} flower", "{names}: {count} flowers", n).format(names=who, count=n)
    if award.kind == "sharpest_guesser":
        return _.ngettext("{names}: {count} right", "{names}: {count} right", n).format(names=who, count=n)
    return _.ngettext("{names}: {count} card", "{names}: {count} cards", n).format(names=who, count=n)


def deck_line(match: Match) -> str | None:
    """The Cloud Mine: how the deck ended the game ("2 cards left, a round needs 6")."""
    out = told.deck_ran_out(match)
    if out is None:
        return None
    return _.ngettext(
        "The deck ran out: {left} card left, a round needs {needed}.",
        "The deck ran out: {left} cards left, a round needs {needed}.",
        out.left,
    ).format(left=out.left, needed=out.needed)


def trips_caption(trips: int, per: int) -> str:
    """Cloud 9's story's caption: points trip by trip, or per few trips in a long game."""
    if per == 1:
        return _.ngettext("Points trip by trip ({count} trip)", "Points trip by trip ({count} trips)", trips).format(
            count=trips
        )
    return _("Points per {size} trips ({count} trips)").format(size=per, count=trips)


def title_of(game: str) -> str:
    return _(TITLES[game]) if game in TITLES else game


def day_of(started_at: str | None) -> str:
    if not started_at:
        return ""
    try:
        return datetime.fromisoformat(started_at).astimezone().strftime("%Y-%m-%d %H:%M")
    except (ValueError, OverflowError):
        return started_at[:16]


def ranked(match: Match) -> list[tuple[int, str]]:
    """(rank, name) best first; equal results share a rank (Cloud 9: points, then the hand)."""
    v = match.view

    def key(name: str) -> tuple[int, ...]:
        return (v["scores"][name], v["hands"][name]) if v["game"] == "cloud9" else (v["scores"][name],)

    ordered = sorted(v["players"], key=key, reverse=True)
    return [(1 + sum(1 for other in ordered if key(other) > key(name)), name) for name in ordered]


# --- the picture -------------------------------------------------------------------------------


def recap_path(journal_path: str | Path, game_id: int, game: str) -> Path:
    """Where the app keeps a game's recap: the journal's exports folder, beside `export`'s files
    (game-12-cloud9.jsonl and game-12-cloud9.png)."""
    return Path(journal_path).parent / "exports" / f"game-{game_id}-{game}.png"


def render_recap(match: Match, started_at: str | None = None, size: tuple[int, int] = SIZE) -> pygame.Surface:
    """The whole recap, drawn off screen (no display needed)."""
    if not pygame.font.get_init():
        pygame.font.init()
    surface = pygame.Surface(size, 0, 24, RGB_MASKS)
    th.paint_sky(surface)
    _Recap(surface, recap_theme(size), match, started_at).draw()
    return surface


def recap_theme(size: tuple[int, int]) -> th.Theme:
    """The type and spacing for a recap of `size`: a portrait page scales from 800x1066, a
    landscape screen from 800x480 (the app's own screen: its text as large as the app's)."""
    w, h = size
    return th.Theme(min(w / 800, h / 1066) if h > w else min(w / 800, h / 480), th.PICTURE_TEXT_BYTES)


def save_recap(match: Match, path: str | Path, started_at: str | None = None, size: tuple[int, int] = SIZE) -> Path:
    return write_png(render_recap(match, started_at, size), path)


def write_png(surface: pygame.Surface, path: str | Path) -> Path:
    return write_pixels(pixels_of(surface), path)


Pixels = tuple[int, int, bytes | memoryview]  # width, height, RGB rows top to bottom

# A recap is drawn on three bytes a pixel in a PNG's own order (red, green, blue), so its writer
# packs the surface's own memory: no second copy of the picture (5.8 MB at 1200x1600) beside it
# while it is written. Drawn so, its pixels differ from a four-byte surface's by at most one
# level of a colour, where antialiased letters are blended.
RGB_MASKS = (0xFF, 0xFF00, 0xFF0000, 0)


def pixels_of(surface: pygame.Surface) -> Pixels:
    """The picture's RGB rows: the surface's own memory where it keeps them so (a recap; the
    surface is locked while they are held, and must not be drawn on), else a copy (a few
    milliseconds on the loop)."""
    width, height = surface.get_size()
    if surface.get_bytesize() == 3 and surface.get_masks()[:3] == RGB_MASKS[:3] and surface.get_pitch() == 3 * width:
        # pygame-ce's stubs give BufferProxy the buffer protocol only from Python 3.12; it has it in C
        return width, height, memoryview(surface.get_buffer()).cast("B")  # type: ignore[arg-type]
    return width, height, pygame.image.tobytes(surface, "RGB")


def png_bytes(pixels: Pixels) -> bytes:
    """A PNG (8-bit RGB, no row filter) of `pixels`. pygame's own encoder holds the
    interpreter's lock for the whole picture (50 ms here, several times that on a Pi), which
    would stop the app's loop even from another thread; zlib lets go of it while it packs."""
    width, height, data = pixels
    stride = 3 * width
    rows = memoryview(data)
    packer = zlib.compressobj(6)
    packed = []
    # packed a band of rows at a time (each row after its filter byte): never a second copy of
    # the whole picture (5.5 MB at 1200x1600, and the slices it is joined from), and few enough
    # calls that the thread asks for the interpreter back only a few dozen times
    for top in range(0, height, PNG_BAND_ROWS):
        band = range(top, min(height, top + PNG_BAND_ROWS))
        packed.append(packer.compress(b"".join(b"\x00" + rows[row * stride : (row + 1) * stride] for row in band)))
    packed.append(packer.flush())

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return PNG_SIGNATURE + chunk(b"IHDR", header) + chunk(b"IDAT", b"".join(packed)) + chunk(b"IEND", b"")


def small_copy(path: str | Path, height: int) -> pygame.Surface | None:
    """A copy of a recap PNG `height` pixels high, read a few rows at a time: each row of the
    copy is the band of the picture's rows it covers, smooth-scaled. Loading the picture whole
    would hold it twice over while it shrinks (about 14 MB at 1200x1600). Only what
    `png_bytes` writes is read so (8-bit RGB, rows without a filter); for any other PNG, None
    (the caller may load it whole); a file cut short or damaged raises ValueError."""
    data = Path(path).read_bytes()
    if not data.startswith(PNG_SIGNATURE):
        return None
    width = rows = 0
    packed: list[bytes] = []
    at = len(PNG_SIGNATURE)
    while at + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[at : at + 8])
        body = data[at + 8 : at + 8 + length]
        if len(body) != length:
            raise ValueError(f"{path}: cut short")
        if kind == b"IHDR":
            width, rows, depth, colour, _packing, _filter, interlace = struct.unpack(">IIBBBBB", body)
            if (depth, colour, interlace) != (8, 2, 0):
                return None
        elif kind == b"IDAT":
            packed.append(body)
        elif kind == b"IEND":
            break
        at += 12 + length
    if not width or not rows or not packed:
        raise ValueError(f"{path}: no picture in it")
    out_h = min(height, rows)
    out_w = max(1, round(width * out_h / rows))
    stride = 1 + 3 * width
    unpacker = zlib.decompressobj()
    chunks = iter(packed)
    pending = b""
    small = pygame.Surface((out_w, out_h), 0, 24, RGB_MASKS)

    def take(count: int) -> bytes | None:
        """The next `count` rows, each without its filter byte; None where a row has a filter
        (not a picture `png_bytes` wrote)."""
        nonlocal pending
        want = count * stride
        while len(pending) < want:
            source = unpacker.unconsumed_tail or next(chunks, b"")
            more = unpacker.decompress(source, want - len(pending))
            if not more and not source:  # nothing more to unpack
                raise ValueError(f"{path}: cut short")
            pending += more
        band, pending = pending[:want], pending[want:]
        lines = [band[i * stride : (i + 1) * stride] for i in range(count)]
        if any(line[0] for line in lines):
            return None
        return b"".join(line[1:] for line in lines)

    try:
        top = 0
        for y in range(out_h):
            bottom = (y + 1) * rows // out_h
            rgb = take(bottom - top)
            if rgb is None:
                return None
            band = pygame.image.frombuffer(rgb, (width, bottom - top), "RGB")
            small.blit(pygame.transform.smoothscale(band, (out_w, 1)), (0, y))
            top = bottom
    except zlib.error as exc:
        raise ValueError(f"{path}: {exc}") from None
    return small


def write_pixels(pixels: Pixels, path: str | Path) -> Path:
    """The PNG whole or not at all: written under a temporary name beside it, synced, renamed."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.stem}-", suffix=".png", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(png_bytes(pixels))
            out.flush()
            os.fsync(out.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return path


class _Recap:
    def __init__(self, surface: pygame.Surface, theme: th.Theme, match: Match, started_at: str | None):
        self.s, self.t, self.m = surface, theme, match
        self.v = match.view
        self.game = match.rules.name
        self.players = {p.name: p for p in players_from_setup(match.setup)}
        self.marks = token_marks(list(self.v["players"]))
        self.started_at = started_at
        self.margin = theme.px(24)

    def u(self, n: float) -> int:
        return self.t.px(n)

    def text(
        self,
        text: str,
        role: str | float,
        pos,
        colour=th.INK,
        weight: str | None = None,
        width: int | None = None,
        anchor: str = "topleft",
        px: int | None = None,
    ) -> pygame.Rect:
        px = px or self.t.size(role)
        weight = weight or th.weight_of(role)
        while width is not None and px > self.t.size("min") and self.t.measure(text, px, weight)[0] > width:
            px -= 1
        image = self.t.text(text, px, colour, weight)
        rect = image.get_rect(**{anchor: pos})
        self.s.blit(image, rect)
        return rect

    def colour(self, name: str) -> tuple[int, int, int]:
        return th.COLOURS[self.players[name].colour].rgb

    def token(self, name: str, center, radius: float) -> None:
        draw_player_token(self.s, self.marks.get(name, name), self.players[name].colour, center, radius, self.t)

    def card(self, rect: pygame.Rect) -> None:
        pygame.draw.rect(self.s, th.CARD, rect, border_radius=self.u(16))
        pygame.draw.rect(self.s, th.CARD_LINE, rect, 2, border_radius=self.u(16))

    def draw(self) -> None:
        w, h = self.s.get_size()
        if w > h:
            self.draw_landscape()
            return
        m = self.margin
        y = self.header(pygame.Rect(m, m, w - 2 * m, self.u(110)))
        n = len(self.v["players"])
        standings = pygame.Rect(m, y + m // 2, w - 2 * m, self.u(28) + self.u(46) * ((n + 1) // 2))
        self.standings(standings)
        found = told.awards(self.m)
        awards_h = self.u(48) + self.u(66) * max(1, len(found)) if found else 0
        story = pygame.Rect(
            m,
            standings.bottom + m // 2,
            w - 2 * m,
            h - standings.bottom - m - (awards_h + m // 2 if found else 0) - m // 2,
        )
        self.story(story)
        if found:
            self.awards(pygame.Rect(m, story.bottom + m // 2, w - 2 * m, awards_h), found)

    def draw_landscape(self) -> None:
        """A screen's shape: the header along the top, the standings in a column at the left,
        the story and the awards beside them."""
        w, h = self.s.get_size()
        m = self.margin = self.u(12)
        head_h = sum(self.t.font(self.t.size(role), th.weight_of(role)).get_linesize() for role in ("prompt", "body"))
        y = self.header(pygame.Rect(m, m, w - 2 * m, head_h), "prompt", "body")
        body = pygame.Rect(m, y + m // 2, w - 2 * m, h - y - m - m // 2)
        # the standings as wide as the longest name needs beside its rank, crown, token and score
        longest = max(self.t.measure(name, self.t.size("min"), th.weight_of("title"))[0] for name in self.v["players"])
        score_w = 0 if self.game == "cloudship" else self.t.measure("888", self.t.size("title"), "bold")[0]
        left_w = min(body.w // 2, max(body.w // 3, self.u(24 + 114 + 34) + longest + score_w))
        if self.game == "cloudship":  # the crew's card as tall as its names, the game's figures under it
            crew_h = min(body.h, self.u(16) + self.u(46) * len(self.v["players"]))
            self.standings(pygame.Rect(body.x, body.y, left_w, crew_h), columns=1)
            figures = pygame.Rect(body.x, body.y + crew_h + m // 2, left_w, body.bottom - crew_h - m // 2 - body.y)
            if figures.h >= self.u(FIGURES_LEAST):
                self.figures(figures)
        else:
            self.standings(pygame.Rect(body.x, body.y, left_w, body.h), columns=1)
        right = pygame.Rect(body.x + left_w + m, body.y, body.w - left_w - m, body.h)
        # the awards under the story where it keeps room for a row of bars per player
        found = told.awards(self.m) if len(self.v["players"]) <= 5 else []
        awards_h = min(right.h // 3, self.u(40) + self.u(48) * len(found)) if found else 0
        self.story(pygame.Rect(right.x, right.y, right.w, right.h - (awards_h + m // 2 if found else 0)))
        if found:
            self.awards(pygame.Rect(right.x, right.bottom - awards_h, right.w, awards_h), found)

    @property
    def landscape(self) -> bool:
        w, h = self.s.get_size()
        return w > h

    def header(self, rect: pygame.Rect, title_role: str = "display", line_role: str = "title") -> int:
        icon = pygame.Rect(rect.x, rect.y, rect.h, rect.h)
        draw_game_icon(self.s, self.game, icon)
        x = icon.right + self.u(16)
        title = self.text(title_of(self.game), title_role, (x, rect.y), width=rect.right - x)
        line = day_of(self.started_at)
        outcome = self.outcome()
        self.text(
            " · ".join(part for part in (line, outcome) if part),
            line_role,
            (x, max(title.bottom, rect.bottom - self.t.font(self.t.size(line_role)).get_linesize())),
            colour=th.INK,
            width=rect.right - x,
        )
        return rect.bottom

    def outcome(self) -> str:
        v = self.v
        if v.get("result") == "won":
            return _("Everyone wins together!")
        if v.get("result") == "lost":
            return _("The storm won. Everyone loses together.")
        if not v["over"]:
            return _("Game ended early")
        if len(v["winners"]) == 1:
            return _("{name} wins!").format(name=v["winners"][0])
        return _("Shared win: {names}").format(names=names(v["winners"]))

    def standings(self, rect: pygame.Rect, columns: int | None = None) -> None:
        self.card(rect)
        inner = rect.inflate(-self.u(24), -self.u(16))
        v = self.v
        order = ranked(self.m) if self.game != "cloudship" else [(1, p) for p in v["players"]]
        columns = columns or (2 if len(order) > 1 else 1)
        per = -(-len(order) // columns)
        col_w = inner.w // columns
        row_h = min(self.u(46), inner.h // max(1, per))
        scores = {name: "" if self.game == "cloudship" else str(v["scores"][name]) for _rank, name in order}
        # rank, crown, token: a crew (Cloudship) has no ranks, and a crown only when it won
        rank_w = 0 if self.game == "cloudship" else self.u(36)
        crown_w = self.u(30) if self.game != "cloudship" or v["winners"] else 0
        name_from = rank_w + crown_w + self.u(48)

        def room_beside(score_role: str) -> dict[str, int]:
            px, weight = self.t.size(score_role), th.weight_of(score_role)
            return {
                name: max(
                    self.u(40),
                    col_w
                    - self.u(16)
                    - name_from
                    - self.u(18)
                    - (self.t.measure(score, px, weight)[0] if score else 0),
                )
                for name, score in scores.items()
            }

        def fits(room: dict[str, int], px: int) -> bool:
            return all(self.t.measure(name, px, th.weight_of("title"))[0] <= room[name] for name in room)

        # the scores in smaller type only where the longest names would not fit beside them
        score_role = "prompt"
        room = room_beside(score_role)
        if not fits(room, self.t.size("min")):
            score_role, room = "title", room_beside("title")
        name_px = shared_px(room, self.t.size("title"), self.t.size("min"), None, th.weight_of("title"), most=1)
        for i, (rank, name) in enumerate(order):
            x = inner.x + (i // per) * col_w
            y = inner.y + (i % per) * row_h
            cy = y + row_h // 2
            if self.game != "cloudship":
                self.text(f"{rank}.", "title", (x, cy), anchor="midleft")
            crown = pygame.Rect(x + rank_w, cy - self.u(14), crown_w, self.u(24))
            if name in v["winners"] and crown_w:
                draw_crown(self.s, crown, GOLD)
            self.token(name, (crown.right + self.u(24), cy), self.u(18))
            if scores[name]:
                self.text(scores[name], score_role, (x + col_w - self.u(16), cy), anchor="midright")
            self.text(name, "title", (x + name_from, cy), anchor="midleft", width=room[name], px=name_px)

    def figures(self, rect: pygame.Rect) -> None:
        """Cloudship: the garden (a flower for each planted, an empty spot for each missing) and
        the board's outcome in three numbers, each beside its words, as on the end screen."""
        self.card(rect)
        inner = rect.inflate(-self.u(24), -self.u(16))
        v = self.v
        planted = sum(v["beds"].values())
        left = max(0, v["storm_end"] - v["storm"])
        told_here = (
            (f"{planted}/{FLOWERS}", _("flowers planted"), th.GOOD if v.get("result") == "won" else th.INK),
            (str(left), _("storm squares left"), th.DANGER if v.get("result") == "lost" else th.INK),
            (str(v["round"]), _("rounds flown"), th.INK),
        )
        garden_h = min(self.u(32), inner.h // 4)
        spots = ["flower"] * planted + ["tile:blank"] * (FLOWERS - planted)
        icons_in_row(spots, garden_h, align="left")(self.s, pygame.Rect(inner.x, inner.y, inner.w, garden_h))
        number_w = max(self.t.measure(number, self.t.size("title"))[0] for number, _w, _c in told_here)
        rest = pygame.Rect(inner.x, inner.y + garden_h, inner.w, inner.h - garden_h)
        row_h = rest.h // len(told_here)
        for i, (number, words, colour) in enumerate(told_here):
            cy = rest.y + i * row_h + row_h // 2
            self.text(number, "title", (inner.x + number_w, cy), colour=colour, anchor="midright")
            x = inner.x + number_w + self.u(10)
            self.text(words, "small", (x, cy), colour=th.INK_SOFT, anchor="midleft", width=inner.right - x)

    # the story: small multiples ----------------------------------------------------------------
    def story(self, rect: pygame.Rect) -> None:
        self.card(rect)
        inner = rect.inflate(-self.u(24), -self.u(24))
        if self.game == "cloud9":
            self.cloud9(inner)
        elif self.game == "cloudship":
            self.cloudship(inner)
        else:
            self.cloudmine(inner)

    def note(self, text: str, area: pygame.Rect) -> int:
        """A line along the bottom of `area` (two where one would not fit); the height it takes."""
        px = self.t.size("small")
        lines = wrap_lines(text, px, area.w, "regular")
        if len(lines) > 1 and self.t.measure(text, self.t.size("min"), "regular")[0] <= area.w:
            lines, px = [text], self.t.size("min")
        step = self.t.font(px, "regular").get_linesize()
        for i, words in enumerate(lines):
            self.text(
                words,
                "small",
                (area.x, area.bottom - (len(lines) - 1 - i) * step),
                anchor="bottomleft",
                weight="regular",
                px=px,
            )
        return step * len(lines) + self.u(6)

    def caption(self, rect: pygame.Rect, text: str) -> pygame.Rect:
        """The story's caption along the top of `rect` (none yet for ""); the room under it."""
        if text:
            self.text(text, "title", rect.topleft, width=rect.w)
        return pygame.Rect(rect.x, rect.y + self.u(40), rect.w, rect.h - self.u(40))

    def bars(self, rect: pygame.Rect, values, top: int, labels: bool = True) -> None:
        draw_bars(self.s, rect, values, top, self.t, labels)

    def player_rows(self, rect: pygame.Rect, series: dict[str, list[list[tuple]]], right_text) -> int:
        """A row of bars per player (in landscape a token leads it: the standings beside it name
        everyone); a long game's bars each a few trips or rounds together. Returns how many."""
        names_ = list(self.v["players"])
        row_h = rect.h // max(1, len(names_))
        # the names' column as wide as the widest name needs (up to two fifths), all in one size
        most = int(rect.w * 0.4) - self.u(44)
        name_px = shared_px(
            dict.fromkeys(names_, most), self.t.size("small"), self.t.size("min"), None, th.weight_of("small"), most=1
        )
        widest = max(self.t.measure(name, name_px, th.weight_of("small"))[0] for name in names_)
        name_w = self.u(44) if self.landscape else max(self.u(190), min(most, widest) + self.u(52))
        tail_w = max(self.t.measure(right_text(name), self.t.size("small"), "regular")[0] for name in names_)
        tail_w = min(self.u(100), tail_w + self.u(4))
        chart_w = rect.w - name_w - tail_w - self.u(8)
        per = per_bar(max(len(stacks) for stacks in series.values()), chart_w, self.t)
        series = {name: grouped(stacks, per) for name, stacks in series.items()}
        top = max([1] + [sum(value for value, *_c in stack) for stacks in series.values() for stack in stacks])
        for i, name in enumerate(names_):
            row = pygame.Rect(rect.x, rect.y + i * row_h, rect.w, row_h - self.u(6))
            self.token(name, (row.x + self.u(18), row.centery), min(self.u(16), row.h / 2))
            if not self.landscape:
                self.text(
                    name,
                    "small",
                    (row.x + self.u(40), row.centery),
                    anchor="midleft",
                    width=name_w - self.u(44),
                    px=name_px,
                )
            self.text(
                right_text(name),
                "small",
                (row.right, row.centery),
                anchor="midright",
                weight="regular",
                colour=th.INK_SOFT,
                width=tail_w,
            )
            chart = pygame.Rect(row.x + name_w, row.y, chart_w, row.h)
            self.bars(chart, series[name], top)
        return per

    def cloud9(self, rect: pygame.Rect) -> None:
        trips = told.cloud9_trips(self.m)
        area = self.caption(rect, "")
        series = {p: [[(t.points[p], self.colour(p))] for t in trips] for p in self.v["players"]}
        hands = self.v["hands"]
        per = self.player_rows(
            area, series, lambda p: _.ngettext("{count} card", "{count} cards", hands[p]).format(count=hands[p])
        )
        self.caption(rect, trips_caption(len(trips), per))

    def cloudship(self, rect: pygame.Rect) -> None:
        area = self.caption(rect, _("Round by round: storm, flowers, hail"))
        planted = sum(self.v["beds"].values())
        left = max(0, self.v["storm_end"] - self.v["storm"])
        summary = (
            _("{planted} of 12 flowers planted, the storm at the end of its track").format(planted=planted)
            if left == 0
            else _.ngettext(
                "{planted} of 12 flowers planted, the storm {left} square away",
                "{planted} of 12 flowers planted, the storm {left} squares away",
                left,
            ).format(planted=planted, left=left)
        )
        below = self.note(summary, area)
        rounds = told.cloudship_rounds(self.m)
        room = pygame.Rect(area.x, area.y, area.w, area.h - below - self.u(8))
        # the blocks as large as they get, and the room they leave: the storm and the flowers
        # toward their ends, round by round
        chart = pygame.Rect(room.x, room.y, room.w, min(room.h, plots.needed_height(room, rounds, self.t)))
        plots.draw_rounds(self.s, chart, rounds, self.t)
        rest = pygame.Rect(room.x, chart.bottom + self.u(12), room.w, room.bottom - chart.bottom - self.u(12))
        if rest.h >= self.u(160):
            pygame.draw.line(self.s, th.CARD_LINE, (rest.x, rest.y - self.u(6)), (rest.right, rest.y - self.u(6)), 1)
            plots.plot_game(self.s, rest, self.m, self.t)

    def cloudmine(self, rect: pygame.Rect) -> None:
        rounds = told.cloudmine_rounds(self.m)
        area = self.caption(rect, "")
        legend = pygame.Rect(area.x, area.y, area.w, self.u(32))
        x = legend.x
        for role, label in (("dreamer", _("Dreamer")), ("chooser", _("Chooser")), ("observer", _("Observer"))):
            fill_pattern(
                self.s,
                pygame.Rect(x, legend.centery - self.u(8), self.u(16), self.u(16)),
                ROLE_COLOURS[role],
                ROLE_PATTERNS[role],
            )
            x = self.text(label, "small", (x + self.u(22), legend.centery), anchor="midleft", weight="regular").right
            x += self.u(20)
        line = deck_line(self.m)
        bottom = self.note(line, area) if line else 0
        body = pygame.Rect(area.x, legend.bottom + self.u(8), area.w, area.h - legend.h - self.u(8) - bottom)
        series = {p: [[role_bar(r.cards[p], r.roles[p])] for r in rounds] for p in self.v["players"]}
        scores = self.v["scores"]
        per = self.player_rows(
            body, series, lambda p: _.ngettext("{count} card", "{count} cards", scores[p]).format(count=scores[p])
        )
        self.caption(
            rect,
            _("Cards round by round, by role") if per == 1 else _("Cards per {size} rounds, by role").format(size=per),
        )

    def awards(self, rect: pygame.Rect, found: list[told.Award]) -> None:
        self.card(rect)
        inner = rect.inflate(-self.u(24), -self.u(16))
        self.text(_("Awards"), "title", inner.topleft)
        y = inner.y + self.u(34)
        step = max(self.u(46), min(self.u(66), (inner.bottom - y) // max(1, len(found))))
        found = found[: max(1, (inner.bottom - y) // step)]  # those the box has room for, the first first
        for award in found:
            star = pygame.Rect(inner.x, y + self.u(6), self.u(30), self.u(26))
            draw_crown(self.s, star, GOLD)
            x = star.right + self.u(12)
            title = self.text(award_title(award), "body", (x, y + self.u(4)))
            for j, name in enumerate(award.players[:4]):
                self.token(name, (title.right + self.u(22) + j * self.u(34), title.centery), self.u(14))
            words = next(
                (
                    w
                    for w in (award_line(award), award_short(award), award_short(award, few=True))
                    if self.t.measure(w, self.t.size("min"), "regular")[0] <= inner.right - x
                ),
                award_short(award, few=True),
            )
            self.text(words, "small", (x, title.bottom), weight="regular", colour=th.INK_SOFT, width=inner.right - x)
            y += step


def role_bar(value: int, role: str) -> tuple[int, tuple[int, int, int], str]:
    """A Cloud Mine bar's piece: the cards, in the role's colour and pattern."""
    return value, ROLE_COLOURS[role], ROLE_PATTERNS[role]


def fill_pattern(surface: pygame.Surface, rect: pygame.Rect, colour, pattern: str = "solid") -> None:
    """`rect` filled with `colour`, and over it white stripes or dots for the patterned roles."""
    pygame.draw.rect(surface, colour, rect)
    if pattern == "solid" or rect.w < 4 or rect.h < 4:
        return
    clip = surface.get_clip()
    surface.set_clip(rect.clip(clip) if clip else rect)
    step = max(5, min(rect.w, 12) // 2)
    if pattern == "stripes":
        for x in range(rect.x - rect.h, rect.right, step):
            pygame.draw.line(surface, th.WHITE, (x, rect.bottom), (x + rect.h, rect.y), 2)
    else:
        radius = max(1, step // 4)
        for row, y in enumerate(range(rect.y + step // 2, rect.bottom, step)):
            for x in range(rect.x + step // 2 + (row % 2) * step // 2, rect.right, step):
                pygame.draw.circle(surface, th.WHITE, (x, y), radius)
    surface.set_clip(clip)


FIGURES_LEAST = 120  # design px: the Cloudship figures' card, else the crew's card alone
BAR_LEAST = 16  # design pixels: the narrowest bar a table still reads (a column of several trips, else)
BAR_SHARE = 0.75  # of its slot: the gap between bars is the rest
PIECE_LEAST = 6  # design pixels: the lowest piece of a bar that is not empty (a Dreamer's one card)
PER_BAR = (1, 2, 3, 4, 5, 6, 8, 10, 15, 20, 25, 50, 100)


def per_bar(count: int, width: int, theme: th.Theme) -> int:
    """How many trips or rounds one bar stands for, so that `count` of them in `width` pixels
    come out as bars at least BAR_LEAST wide: one each while they fit, else a few together."""
    least = theme.px(BAR_LEAST) / BAR_SHARE
    return next((k for k in PER_BAR if -(-count // k) * least <= max(1, width)), PER_BAR[-1])


def grouped(values: list[list[tuple]], per: int) -> list[list[tuple]]:
    """`values` (a stack of (value, colour[, pattern]) per trip or round) with every `per`
    consecutive stacks added into one: the pieces of one colour and pattern summed, in the
    order they first appear (nothing is lost: the totals stay the same)."""
    if per <= 1:
        return values
    out = []
    for start in range(0, len(values), per):
        pieces: dict[tuple, int] = {}
        for stack in values[start : start + per]:
            for value, *look in stack:
                pieces[tuple(look)] = pieces.get(tuple(look), 0) + value
        out.append([(value, *look) for look, value in pieces.items()])
    return out


def bar_boxes(
    rect: pygame.Rect, values: list[list[tuple]], top: int, theme: th.Theme, labels: bool = True
) -> list[list[pygame.Rect]]:
    """Where `draw_bars` puts each piece of each bar (an empty piece has no box): each bar
    BAR_SHARE of its slot, each piece not empty at least PIECE_LEAST high (never above the box)."""
    slot = rect.w / max(1, len(values))
    width = max(2, int(slot * BAR_SHARE))
    px = theme.size("min")
    room = rect.h - (px + theme.px(2) if labels and rect.h > 2.5 * px else 0)
    least = min(theme.px(PIECE_LEAST), max(2, room // 3))
    out = []
    for i, stack in enumerate(values):
        x = int(rect.x + i * slot + (slot - width) / 2)
        y, boxes = rect.bottom, []
        for value, *_look in stack:
            if value <= 0:
                continue
            height = min(max(least, round(room * value / max(1, top))), y - rect.y)
            boxes.append(pygame.Rect(x, y - height, width, height))
            y -= height
        out.append(boxes)
    return out


def draw_bars(
    surface: pygame.Surface,
    rect: pygame.Rect,
    values: list[list[tuple]],
    top: int,
    theme: th.Theme,
    labels: bool = True,
) -> None:
    """Bars side by side, each a stack of (value, colour) or (value, colour, pattern) from the
    bottom, on a light baseline; each bar's total above it where it can be read (at least the
    smallest type size)."""
    slot = rect.w / max(1, len(values))
    base = rect.bottom
    pygame.draw.line(surface, th.CARD_LINE, (rect.x, base), (rect.right, base), max(1, theme.px(1.5)))
    px = theme.size("min")
    readable = labels and rect.h > 2.5 * px and theme.measure("88", px, "regular")[0] <= slot
    for stack, boxes in zip(values, bar_boxes(rect, values, top, theme, labels)):
        pieces = [piece for piece in stack if piece[0] > 0]
        for (_value, colour, *pattern), box in zip(pieces, boxes):
            fill_pattern(surface, box, colour, *pattern)
            if box.w >= theme.px(6):  # an outline on thin bars would hide their colour
                pygame.draw.rect(surface, th.INK, box, 1)
        total = sum(value for value, *_look in pieces)
        if readable and total and boxes:
            image = theme.text(str(total), px, th.INK_SOFT, "regular")
            surface.blit(image, image.get_rect(midbottom=(boxes[-1].centerx, boxes[-1].top - theme.px(1))))
