"""The Cloud Mine: the ring of players with their roles, the cards to draw, whose guess it is,
right / wrong for the Dreamer, cards per player and the deck (docs/reference/screens.md, "Game screens")."""

from __future__ import annotations

from functools import lru_cache

import pygame

from ...i18n import translator
from ..boards import cloudmine as board
from ..kit import theme as th
from ..kit.layout import GAP, cols, free_band, grid, inset, rows
from ..kit.widgets import Label, Panel, Picture, PlayerToken, Widget
from .base import GameScreen, clear_boxes

_ = translator("cloudmine")

# the edge of a 3x3 grid read clockwise from the top left
PERIMETER = ((0, 0), (0, 1), (0, 2), (1, 2), (2, 2), (2, 1), (2, 0), (1, 0))


# round the table on a 3x3 grid with the deck in the middle cell: how many places the top row,
# each side and the bottom row hold (a row of two sits at 0.3 and 0.7 of the width, evenly round)
RING_ROWS = {3: (1, 0, 2), 4: (1, 1, 1), 5: (1, 1, 2), 6: (2, 1, 2), 7: (3, 1, 2), 8: (3, 1, 3)}
ROW_SPOTS = {1: (0.5,), 2: (0.3, 0.7), 3: (1 / 6, 0.5, 5 / 6)}


def ring_cells(area: pygame.Rect, count: int, gap: int) -> list[pygame.Rect]:
    """`count` equal places round the table in `area`, clockwise from the top (the order round
    the table), each a cell of a 3x3 grid (the deck takes the middle one): no two touch and
    the ring has no hole."""
    return [pygame.Rect(cell) for cell in _ring_cells(tuple(area), count, gap)]


@lru_cache(maxsize=32)
def _ring_cells(area_box: tuple[int, int, int, int], count: int, gap: int) -> tuple[tuple[int, int, int, int], ...]:
    """ring_cells, found once per board size and player count (each build asks again)."""
    area = pygame.Rect(area_box)
    top, sides, bottom = RING_ROWS[max(3, min(8, count))]
    cells = grid(area, 9, 3, gap)
    w, h = cells[0].size

    def at(fraction: float, row: int) -> pygame.Rect:
        cell = pygame.Rect(0, 0, w, h)
        cell.center = (round(area.x + area.w * fraction), cells[row * 3].centery)
        return cell.clamp(area)

    ring = [at(x, 0) for x in ROW_SPOTS[top]]
    ring += [pygame.Rect(cells[5])] * sides  # the right side, going down
    ring += [at(x, 2) for x in reversed(ROW_SPOTS[bottom])]  # the bottom row, right to left
    ring += [pygame.Rect(cells[3])] * sides  # the left side, going up
    return tuple((cell.x, cell.y, cell.w, cell.h) for cell in ring)


class CloudMineScreen(GameScreen):
    game = "cloudmine"
    domain = "cloudmine"
    # a guess's (view before, view after, action), until the rebuild sends its cards flying
    _pending: tuple[dict, dict, dict] | None

    def __init__(self, app, controller=None, players=None):
        super().__init__(app, controller, players)
        self._seats: dict[str, dict[str, pygame.Rect]] = {}  # where each seat's parts are (for the flights)
        self._middle: pygame.Rect | None = None  # the deck and the cards on the table
        self._flights: list[board.Flight] = []
        self._flights_from = 0.0
        self._card_h = 0
        # each player's place as last built, by everything it shows: most of the ring is the
        # same after a guess (shared with the stand-ins a rehearsal builds)
        self._places: dict[tuple, tuple[list[Widget], dict[str, pygame.Rect]]] = {}

    def subtitle(self) -> str:
        return _("Round {number}").format(number=self.view["round"])

    def build(self, f, t):
        board_rect, step = self.board_and_step(f, 0.4 if f.portrait else 0.37)
        self._step_rect = step
        out = self.ring(f, board_rect) + self.step_panel(f, step)
        self._take_off()
        return names_at_one_size(self.under_the_banner(t, out), t)

    # --- the board: the table, who sits where with which role, how many cards each has -------
    def role_key(self, name: str) -> str:
        v = self.view
        if name == v["dreamer"]:
            return "dreamer"
        if name == v["chooser"]:
            return "chooser"
        return "observer" if name in v["guess_order"] else "guessed"

    def role_of(self, name: str) -> str:
        v = self.view
        if name == v["dreamer"]:
            return _("Dreamer")
        if name == v["chooser"]:
            return _("Chooser")
        # the queue by what it means (not a number that changes after every guess)
        order = v["guess_order"]
        if name in order:
            place = order.index(name)
            return _("Guesses now") if place == 0 else _("Guesses next") if place == 1 else _("Observer")
        return _("Has guessed")

    def ring(self, f, area: pygame.Rect) -> list[Widget]:
        v = self.view
        gap = f.u(GAP)
        cells = ring_cells(area, len(v["players"]), gap)
        # the table under the ring: its rim runs through the middle of the players' places
        w, h = cells[0].size
        table = area.inflate(-w, -h).inflate(f.u(24), f.u(24)).clip(area)
        out: list[Widget] = [Picture(table, board.paint_table, key="table", still=True)]
        self._seats = {}
        for name, cell in zip(v["players"], cells):
            out += self.player_card(f, cell, name)
        middle = centre_clear_of(inset(grid(area, 9, 3, gap)[4], f.u(4)), cells, gap + f.u(4))
        self._middle = middle
        self._card_h = max(f.u(24), min(f.u(44), middle.h // 3))
        top, caption = rows(middle, [1.4, 1])
        pile, number = cols(top, [1, 1.3], f.u(4))
        # numbers in large type, below the prompt's (landscape has little room for both)
        out += [
            Panel(middle.inflate(f.u(4), f.u(4)), colour=th.CARD, key="middle"),
            Picture(pile, lambda s, r, n=v["deck"]: board.paint_pile(s, r, n), key="deck-pile", still=True),
            Label(number, str(v["deck"]), "prompt" if f.portrait else "title", key="deck"),
            Label(caption, _("cards in the deck"), "small", wrap=True, colour=th.INK, key="deck-caption"),
        ]
        return out

    def player_card(self, f, cell: pygame.Rect, name: str) -> list[Widget]:
        v = self.view
        order = v["guess_order"]
        key = (
            tuple(cell),
            f.width,
            f.height,
            name,
            self.player(name).colour,
            self.mark(name),
            v["to_guess"] == name,
            self.role_key(name),
            self.role_of(name),
            order.index(name) if name in order else -1,
            v["scores"][name],
        )
        known = self._places.get(key)
        if known is None:
            if len(self._places) > 256:
                self._places.clear()
            known = self._places[key] = (self.place_widgets(f, cell, name), self._seats[name])
        self._seats[name] = known[1]
        return list(known[0])

    def place_widgets(self, f, cell: pygame.Rect, name: str) -> list[Widget]:
        """A player's place at the table: their card, name, token, role, order and pile."""
        v = self.view
        player = self.player(name)
        guessing = name == v["to_guess"]
        card = Panel(
            cell, stripe=th.COLOURS[player.colour].rgb, highlight=th.FOCUS if guessing else None, key=f"player:{name}"
        )
        inner = pygame.Rect(cell.x + f.u(12), cell.y + f.u(4), cell.w - f.u(16), cell.h - f.u(8))
        top, middle, bottom = rows(inner, [1.5, 1.25, 0.75])
        side = min(middle.h, f.u(44), middle.w // 4)
        token = pygame.Rect(middle.x, middle.centery - side // 2, side, side)
        piece = side * 7 // 8
        role = pygame.Rect(token.right + f.u(3), token.centery - piece // 2, piece, piece)
        # the name may use the card's width between its stripe and the guesser's ring
        named = pygame.Rect(cell.x + f.u(10), top.y, cell.w - f.u(14), top.h)
        parts = [
            card,
            Label(named, breakable(name, named.w, f), "body", wrap=True, key=f"name:{name}"),
            PlayerToken(token, name, player.colour, mark=self.mark(name)),
            Picture(
                role,
                lambda s, r, k=self.role_key(name): board.paint_role(s, r, k),  # noqa: B008 - the role now
                key=f"piece:{name}",
                still=True,
            ),
        ]
        x = role.right + f.u(3)
        order = v["guess_order"]
        if name in order:  # the guessing order on the ring: 1 guesses now, 2 next...
            d = max(f.u(22), side * 5 // 8)
            disc = pygame.Rect(x, token.centery - d // 2, d, d)
            parts += [
                Picture(
                    disc, lambda s, r, now=guessing: board.paint_order_disc(s, r, now), key=f"disc:{name}", still=True
                ),
                Label(disc.inflate(-f.u(4), -f.u(4)), str(order.index(name) + 1), "small", key=f"order:{name}"),
            ]
            x = disc.right + f.u(3)
        # the cards this player has collected: the big number, and their pile where there is room
        room = middle.right - x
        pile_w = side * 2 // 3 if room >= side * 2 else 0
        pile = pygame.Rect(middle.right - pile_w, middle.y, pile_w, middle.h)
        score_rect = pygame.Rect(x, middle.y, pile.x - x - f.u(2) * bool(pile_w), middle.h)
        parts += [
            Picture(pile, lambda s, r, n=v["scores"][name]: board.paint_pile(s, r, n), key=f"pile:{name}", still=True),
            Label(score_rect, str(v["scores"][name]), "prompt" if f.portrait else "title", key=f"score:{name}"),
            # the role ("Kiválasztó") may use the card's whole width, its stripe aside
            Label(
                pygame.Rect(cell.x + f.u(10), bottom.y, cell.w - f.u(12), bottom.h),
                self.role_of(name),
                "small",
                colour=th.PRIMARY if guessing else th.INK_SOFT,
                key=f"role:{name}",
            ),
        ]
        self._seats[name] = {"card": cell, "token": token, "pile": pile}
        return parts

    # --- the settlement: the cards go to whoever takes them ----------------------------------
    def on_game_change(self, before, after, action) -> None:
        before_view = self._view if self._view_for is before else before.view
        super().on_game_change(before, after, action)
        if action.get("act") == "guess" and self.app.screen is self:
            # the flights end where the next build puts each pile (a role can move it)
            self._pending = (before_view, after.view, action)
            self._flights_from = self.app.now()
            self.app.animate(board.FLIGHT_S)

    def _take_off(self) -> None:
        pending, self._pending = getattr(self, "_pending", None), None
        if pending is not None and self._seats and self._middle is not None:
            before, after, action = pending
            self._flights = flights(before, after, action, self._seats, self._middle.center)

    def draw_above(self, surface, ctx) -> None:
        if self._flights:
            board.paint_flights(surface, self._flights, ctx.now - self._flights_from, self._card_h)

    def draw_first_above(self, surface, ctx) -> bool:
        # the cards' flight is worked out by the rebuild (where each pile is): it starts with the
        # frame after, and the first frame shows the cards where they land
        return True

    def card_keeps_clear(self, moment):
        # a settlement's card leaves in sight everyone it gives cards to, the new Dreamer and
        # Chooser, and the deck the next round draws from
        if moment.kind != "settle":
            return ()
        v = self.view
        named = dict.fromkeys([*moment.players, v["dreamer"], v["chooser"]])
        return (*(f"player:{name}" for name in named), "deck", "deck-pile", "deck-caption")

    def card_area(self, f, board_rect, below, moment):
        area = super().card_area(f, board_rect, below, moment)
        step = getattr(self, "_step_rect", None)
        keys = self.card_keeps_clear(moment)
        if step is None or not keys:
            return area
        gap = f.u(GAP)
        taken = [w.rect for w in below if w.accepts_tap()]
        # where the card may go, the first where all its words fit: on the board clear of what
        # it keeps in sight (a band across it, else the largest box between them), else over
        # the step's words, above its buttons; where no such place holds its words, clear of
        # the players it gives cards to only
        takers = {f"player:{name}" for name in moment.players}
        for clear in (set(keys), takers):
            about = [w.rect for w in below if w.key in clear]
            places = [area] if not any(area.colliderect(r) for r in about) else []
            places += clear_boxes(board_rect, taken, about, gap, f.u(64))
            places.append(free_band(step, [r for r in taken if r.colliderect(step)], gap))
            found = next((p for p in places if self.card_fits(f, p, moment)), None)
            if found is not None:
                return found
        return places[0]

    # --- the step: what happens now --------------------------------------------------------
    def step_panel(self, f, step: pygame.Rect) -> list[Widget]:
        v = self.view
        out: list[Widget] = [Panel(step, key="step")]
        inner = inset(step, f.u(12))
        if v["over"]:
            return out + [
                Label(inner, _("The deck cannot supply another round: the game is over."), "prompt", wrap=True)
            ]
        who = v["to_guess"]
        fresh = v["table"] == v["cards_per_round"] and v["dreamer_pile"] == 0
        if fresh:
            draw_text = _("{dreamer} draws {count} cards for {chooser}").format(
                dreamer=v["dreamer"], count=v["cards_per_round"], chooser=v["chooser"]
            )
        else:
            draw_text = _.ngettext(
                "{dreamer} holds {count} wrong guess", "{dreamer} holds {count} wrong guesses", v["dreamer_pile"]
            ).format(dreamer=v["dreamer"], count=v["dreamer_pile"])
        # the answers at least 64 px high (landscape stacks them); a draw line of two long names
        # takes its third line from the prompt's room
        heights = [0.8, 1.9, 0.45, 2.2] if not f.portrait else [0.9, 1.9, 0.6, 1.4]
        for _more in range(4):
            draw_rect, prompt_rect, table_rect, buttons = rows(inner, heights, f.u(GAP))
            draw = Label(draw_rect, draw_text, "body", wrap=True, key="draw")
            if not (draw.overflow(self.app.theme) or draw.clipped(self.app.theme)):
                break
            heights = [heights[0] + 0.15, heights[1] - 0.15, *heights[2:]]
        out.append(draw)
        out += self.prompt_card(f, prompt_rect, who, _("{name} guesses").format(name=who))
        out.append(
            Label(
                table_rect,
                _.ngettext("{count} card on the table", "{count} cards on the table", v["table"]).format(
                    count=v["table"]
                ),
                "body",
                key="table",
            )
        )
        right, wrong = (
            rows(buttons, 2, f.u(GAP))
            if not f.portrait
            else (
                pygame.Rect(buttons.x, buttons.y, buttons.w // 2 - f.u(4), buttons.h),
                pygame.Rect(buttons.centerx + f.u(4), buttons.y, buttons.w // 2 - f.u(4), buttons.h),
            )
        )
        out.append(
            self.action_button(
                right,
                _("Right card"),
                {"act": "guess", "player": who, "correct": True},
                kind="good",
                key="right",
                size="title",
                icon=tick_icon,
            )
        )
        out.append(
            self.action_button(
                wrong,
                _("Wrong card"),
                {"act": "guess", "player": who, "correct": False},
                kind="danger",
                key="wrong",
                size="title",
                icon=cross_icon,
            )
        )
        return out

    def rehearsal_actions(self):
        # the Dreamer's next press: right or wrong, for whoever guesses now
        v = self.view
        if v["over"]:
            return []
        return [{"act": "guess", "player": v["to_guess"], "correct": correct} for correct in (True, False)]

    def sounds_for(self, before, after, action):
        if action.get("act") != "guess":
            return []
        if after.view["over"]:
            return ["won"]
        return ["right" if action["correct"] else "wrong"]


def centre_clear_of(middle: pygame.Rect, cells: list[pygame.Rect], gap: int) -> pygame.Rect:
    """The middle of the table (the deck) shrunk about its centre until no player's place
    reaches into it (a ring of three or five leaves less room in the middle than eight)."""
    box = pygame.Rect(middle)
    while box.w > 8 and box.h > 8 and any(box.colliderect(c.inflate(gap, gap)) for c in cells):
        box = box.inflate(-max(2, box.w // 20), -max(2, box.h // 20))
    return box


def names_at_one_size(widgets: list[Widget], t) -> list[Widget]:
    """The players' names around the table all at the size the most crowded fits (one list:
    a long name set smaller than the others read as a different kind of label). After the
    banner's cap, which sets every label back to its own size first."""
    names = [w for w in widgets if isinstance(w, Label) and (w.key or "").startswith("name:")]
    if names:
        px = min(label.fitted(t).px for label in names)
        for label in names:
            label.at_most(px, t)
    return widgets


def breakable(name: str, width: int, f) -> str:
    """A name as its label shows it: a long double name may break after its hyphen
    ("Maximilian-" / "Alexander"), where it would not fit on one line (a name with a space
    wraps there instead)."""
    head, dash, tail = name.partition("-")
    if not dash or " " in name or th.font(f.u(th.SIZES["min"])).size(name)[0] <= width:
        return name
    return f"{head}-\n{tail}"


def flights(before: dict, after: dict, action: dict, seats: dict, middle: tuple[int, int]) -> list[board.Flight]:
    """The cards a guess moves: a wrong guess, one card from the table to the Dreamer; a
    settlement, the table's cards to whoever takes them (the finder, or the Chooser), and the
    Dreamer's wrong guesses from the Dreamer to their pile (or on to the Chooser)."""
    from ..story.moments import gains

    dreamer = before["dreamer"]
    if after["round"] == before["round"] and not after["over"]:  # a wrong guess, the round goes on
        return [board.Flight(middle, seats[dreamer]["token"].center, 1)] if dreamer in seats else []
    out = []
    held = before["dreamer_pile"]
    for who, cards in gains(before, after).items():
        if who not in seats:
            continue
        end = seats[who]["pile"].center
        from_dreamer = min(cards, held) if who in (dreamer, before["chooser"]) else 0
        if from_dreamer and dreamer in seats:
            out.append(board.Flight(seats[dreamer]["token"].center, end, from_dreamer))
        if cards - from_dreamer:
            out.append(board.Flight(middle, end, cards - from_dreamer))
    return out


def demo_game() -> tuple[dict, list[dict]]:
    """A short scripted game for `cloud-companion demo`: the rulebook's first round, then play
    on with a steady pattern until the deck runs out."""
    from ...rules import Match

    setup = {"game": "cloudmine", "players": ["András", "Edit", "Tamás", "Gabriella", "Zsolt", "Robi"]}
    match, actions = Match.start(setup), []
    turn = 0
    while not match.view["over"]:
        who = match.view["to_guess"]
        # the rulebook round: three wrong, the fourth right; later rounds vary
        correct = len(match.view["guess_order"]) == 1 or (turn % 4 == 3)
        action = {"act": "guess", "player": who, "correct": correct}
        match = match.apply(action)
        actions.append(action)
        turn = 0 if correct else turn + 1
    return setup, actions


def tick_icon(surface, rect, colour) -> None:
    from ..kit.shapes import draw_tick

    draw_tick(surface, rect, colour)


def cross_icon(surface, rect, colour) -> None:
    from ..kit.shapes import draw_cross

    draw_cross(surface, rect, colour)
