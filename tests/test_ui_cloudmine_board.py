"""The Cloud Mine's drawn table: the ring of players with their role pieces and guessing order,
the deck in the middle with its count, the cards flying to whoever takes them (then stillness),
the settlement card clear of its takers; and How to play in pictures. Real pygame, headless."""

from __future__ import annotations

import math

import pygame
import pytest
from hypothesis import given, settings, strategies as st

from companion import i18n
from companion.ui.boards import cloudmine as board, help_pictures
from companion.ui.screens.cloudmine import breakable, flights
from companion.ui.tools.demo import _StepClock
from companion.ui.tools.harness import Harness

LONGEST = [
    "Maximilian-Alexander",
    "Szentgyörgyi Boglárka",
    "Bartholomäus",
    "Friederike",
    "Konstantin",
    "Gwendolyn",
    "Hannelore",
    "Erzsébet",
]
SIZES = [(800, 480), (720, 1280), (1920, 1080)]


def fit_problems(h: Harness) -> list[str]:
    return h.overflows() + h.clipped() + h.covered() + h.small_targets() + h.off_canvas() + h.dropped()


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
@pytest.mark.parametrize("count", [3, 8])
def test_the_longest_names_fit_round_the_table_in_every_language(size, count):
    problems = []
    for language in i18n.LANGUAGES:
        h = Harness(size)
        h.app.change_config(language=language)
        h.start_game({"game": "cloudmine", "players": LONGEST[:count]})
        h.tap("wrong")
        problems += [f"{language}: {p}" for p in fit_problems(h)]
    i18n.set_language("en")
    assert not problems, problems


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)], ids=["landscape", "portrait"])
def test_each_player_s_piece_is_on_the_board_clockwise_in_seat_order(size):
    for count in range(3, 9):
        h = Harness(size)
        screen = h.start_game({"game": "cloudmine", "players": LONGEST[:count]})
        board_rect = screen._board_rect
        names = h.app.controller.match.view["players"]
        pieces = [h.find(f"piece:{name}").rect for name in names]
        assert all(board_rect.contains(piece) for piece in pieces)
        # clockwise round the deck, in the order the players sit
        deck = h.find("deck-pile").rect.center
        angles = [math.atan2(p.centery - deck[1], p.centerx - deck[0]) for p in pieces]
        turned = [(a - angles[0]) % (2 * math.pi) for a in angles]
        assert turned == sorted(turned), (count, turned)


def test_the_role_pieces_and_the_guessing_order_show_on_the_ring():
    h = Harness()
    h.start_game({"game": "cloudmine", "players": ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]})
    screen = h.app.game_screen
    view = h.app.controller.match.view
    assert screen.role_key(view["dreamer"]) == "dreamer" and screen.role_key(view["chooser"]) == "chooser"
    assert [h.find(f"order:{name}").text for name in view["guess_order"]] == [
        str(n) for n in range(1, len(view["guess_order"]) + 1)
    ]
    assert not h.shows(f"order:{view['dreamer']}") and not h.shows(f"order:{view['chooser']}")
    h.tap("wrong")
    assert screen.role_key("Ben") == "guessed" and not h.shows("order:Ben")
    assert h.find(f"order:{h.app.controller.match.view['to_guess']}").text == "1"
    # four pieces that differ in grey as well as in colour
    images = [pygame.image.tobytes(board.role_surface(role, 40), "RGBA") for role in board.ROLES]
    assert len(set(images)) == 4


def test_the_deck_drawn_has_the_view_s_count_and_a_pile_that_shrinks():
    h = Harness()
    h.start_game({"game": "cloudmine", "players": ["Ann", "Ben", "Cat", "Dan", "Eve"]})
    for _ in range(6):
        view = h.app.controller.match.view
        assert h.find("deck").text == str(view["deck"])
        h.tap("right")
    assert board.stack_layers(80) > board.stack_layers(30) > board.stack_layers(1) > board.stack_layers(0) == 0
    # the pile is drawn: card-back blue in the deck's picture
    image = h.render()
    pile = h.find("deck-pile").rect
    blue = sum(
        1
        for x in range(pile.x, pile.right, 2)
        for y in range(pile.y, pile.bottom, 2)
        if image.get_at((x, y))[:3] == board.CARD_BACK
    )
    assert blue > 20


def test_a_settlement_s_cards_fly_to_who_takes_them_then_all_is_still():
    clock = _StepClock()
    h = Harness(clock=clock)
    screen = h.start_game({"game": "cloudmine", "players": ["Ann", "Ben", "Cat", "Dan", "Eve"]})
    h.render()
    h.tap("wrong")  # Ann dreams; Ben's wrong guess goes to Ann
    assert h.app.animating and screen._flights == [
        board.Flight(screen._middle.center, screen._seats["Ann"]["token"].center, 1)
    ]
    clock.advance(board.FLIGHT_S + 0.01)
    h.app.pump()
    h.tap("right")  # Cat finds it: the table's four cards to Cat, Ann keeps her one
    ends = {f.end: f.count for f in screen._flights}
    assert ends == {screen._seats["Cat"]["pile"].center: 4, screen._seats["Ann"]["pile"].center: 1}
    assert h.app.animating
    clock.advance(board.FLIGHT_S / 2)
    middle = pygame.image.tobytes(h.render(), "RGB")
    clock.advance(board.FLIGHT_S / 2 + 0.01)
    h.app.pump()
    assert not h.app.animating
    still = pygame.image.tobytes(h.render(), "RGB")
    assert middle != still
    clock.advance(1.0)
    assert pygame.image.tobytes(h.render(), "RGB") == still  # nothing moves while nothing happens


def test_nobody_finding_it_sends_every_card_to_the_chooser():
    seats = {
        name: {"token": pygame.Rect(i * 100, 0, 10, 10), "pile": pygame.Rect(i * 100, 50, 10, 10)}
        for i, name in enumerate(["Ann", "Ben", "Cat"])
    }
    before = {
        "dreamer": "Ann",
        "chooser": "Cat",
        "dreamer_pile": 1,
        "round": 1,
        "over": False,
        "scores": {"Ann": 0, "Ben": 0, "Cat": 0},
        "players": ["Ann", "Ben", "Cat"],
    }
    after = dict(before, round=2, dreamer="Cat", scores={"Ann": 0, "Ben": 0, "Cat": 4})
    out = flights(before, after, {"act": "guess", "player": "Ben", "correct": False}, seats, (500, 500))
    assert {(f.start, f.end, f.count) for f in out} == {
        (seats["Ann"]["token"].center, seats["Cat"]["pile"].center, 1),
        ((500, 500), seats["Cat"]["pile"].center, 3),
    }


@given(st.integers(1, 30), st.floats(0, 2))
@settings(max_examples=60, deadline=None)
def test_flying_cards_go_from_their_start_to_their_end(count, elapsed):
    flight = board.Flight((10, 400), (300, 20), count)
    points = board.flight_points(flight, elapsed)
    assert len(points) == min(count, board.MOST_FLYING)
    if elapsed >= board.FLIGHT_S:
        assert all(math.dist(p, flight.end) < 1e-6 for p in points)
    if elapsed == 0:
        assert all(math.dist(p, flight.start) < 1e-6 for p in points)


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)], ids=["landscape", "portrait"])
def test_the_settlement_card_never_covers_the_players_it_gives_cards_to(size):
    names = [
        "Bartholomäus",
        "Szilveszter",
        "Maximiliane",
        "Friederike",
        "Konstantin",
        "Gwendolyn",
        "Hannelore",
        "Erzsébet",
    ]
    for count in (3, 5, 8):
        for rounds in range(4):
            h = Harness(size)
            screen = h.start_game({"game": "cloudmine", "players": names[:count]})
            for _ in range(rounds):
                h.tap("right")
            h.tap("wrong")
            h.tap("right")
            assert screen.card is not None and screen.card.kind == "settle"
            card = h.find("story-card").rect
            for name in screen.card.players:
                assert not card.colliderect(h.find(f"player:{name}").rect), (count, rounds, name)
            assert not fit_problems(h), fit_problems(h)


def test_a_double_name_breaks_after_its_hyphen_only_where_it_must():
    h = Harness()
    f = h.app.frame
    assert breakable("Maximilian-Alexander", 100, f) == "Maximilian-\nAlexander"
    assert breakable("Anna-Lena", 400, f) == "Anna-Lena"
    assert breakable("Szentgyörgyi Boglárka", 100, f) == "Szentgyörgyi Boglárka"  # a space wraps anyway


@pytest.mark.parametrize("size", [(800, 480), (720, 1280), (1920, 1080)], ids=["800x480", "720x1280", "1920x1080"])
def test_how_to_play_is_pictures_with_one_short_line_each_and_fits(size):
    from companion.ui.screens.help import HELP

    problems = []
    for language in i18n.LANGUAGES:
        for game, (_goal, steps) in HELP.items():
            h = Harness(size)
            h.app.change_config(language=language)
            h.app.show(h.app.make("help", game))
            h.app.pump()
            image = h.render()
            for number, (kind, _line) in enumerate(steps, start=1):
                picture = h.find(f"help-picture:{kind}").rect
                pixels = [
                    image.get_at((x, y))[:3]
                    for x in range(picture.x, picture.right, 3)
                    for y in range(picture.y, picture.bottom, 3)
                ]
                drawn = [p for p in pixels if p != help_pictures.SKY]
                # a drawing in several colours, not an empty tile
                assert len(set(pixels)) >= 4 and len(drawn) > len(pixels) * 0.1, (game, kind)
                assert picture.w >= h.app.theme.px(96)
                line = h.find(f"help-line:{number}")
                # readable across a table: no smaller than body text
                assert line.fitted(h.app.theme).px >= h.app.theme.size("body")
            problems += [f"{language} {game}: {p}" for p in h.overflows() + h.clipped() + h.covered() + h.off_canvas()]
    i18n.set_language("en")
    assert not problems, problems
    assert len(set(help_pictures.PICTURES)) == sum(len(steps) for _goal, steps in HELP.values())


def test_a_wrap_does_not_trade_a_lone_last_word_for_a_lone_word_above_it():
    """ "Wer im Korb" / "ist," / "bekommt nichts.": the last word was given a partner by leaving
    another alone; a slightly narrower wrap ends on two words with no lone word at all."""
    from companion.ui.kit import theme as th
    from companion.ui.kit.widgets import wrap_lines

    Harness()
    text, px, width = "Ohne sie sinkt der Ballon: Wer im Korb ist, bekommt nichts.", 42, 395
    lines = wrap_lines(text, px, width)
    assert all(" " in line for line in lines), lines
    assert all(th.font(px).size(line)[0] <= width for line in lines)


@given(
    words=st.lists(
        st.sampled_from(["a", "Anna", "Bartholomäus", "lapot", "rossz", "ist,", "Würfel", "im"]),
        min_size=2,
        max_size=14,
    ),
    width=st.integers(60, 500),
)
@settings(max_examples=80, deadline=None)
def test_wrapping_keeps_every_word_and_the_width(words, width):
    from companion.ui.kit import theme as th
    from companion.ui.kit.widgets import wrap_lines

    pygame.font.init()
    text = " ".join(words)
    lines = wrap_lines(text, 20, width)
    assert " ".join(lines).split() == text.split()
    font = th.font(20)
    assert all(font.size(line)[0] <= width or " " not in line for line in lines)


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)], ids=["landscape", "portrait"])
def test_a_refusal_s_rule_follows_its_notice_at_one_spacing_however_long_the_notice(size):
    from companion.ui.loop.app import toast_widgets

    h = Harness(size)
    f, theme = h.app.frame, h.app.theme
    area = pygame.Rect(f.u(16), f.u(100), f.width - f.u(32), f.u(120))
    gaps = []
    for text in (
        "Nem szabályos: Ann az Álmodozó",
        "Nem szabályos: Maximilian-Alexander az Álmodozó, ő nem találgat; most Ben következik",
        "Nem szabályos: Maximilian-Alexander az Álmodozó, ő nem találgat; most Szentgyörgyi Boglárka "
        "következik, és utána Bartholomäus",
    ):
        widgets = {w.key: w for w in toast_widgets(text, f, "Szabály: A játék menete, 4. lépés", area)}
        notice, rule = widgets["toast-text"], widgets["toast-rule"]
        assert not notice.overflow(theme) and not notice.clipped(theme) and not rule.clipped(theme)
        gaps.append(rule.ink(theme)[0].top - notice.ink(theme)[-1].bottom)
    assert max(gaps) - min(gaps) <= f.u(6) and max(gaps) <= f.u(20), gaps


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)], ids=["landscape", "portrait"])
def test_eight_of_the_longest_names_fit_through_the_first_settlements_in_every_language(size):
    # the ring's cards ("Hajdúszoboszlói" in portrait), the step's "draws 8 cards for" line with
    # two long names, and the settlement card, wherever it finds room clear of its takers
    from companion.ui.tools.demo import players_game

    setup, actions = players_game("cloudmine", 8)
    problems = []
    for language in ("en", "de", "hu"):
        h = Harness(size)
        h.app.change_config(language=language)
        screen = h.start_game(setup)
        for number, action in enumerate([None, *actions[:12]]):
            if action is not None:
                assert screen.submit(action)
            h.app.pump()
            problems += [f"{language} after {number}: {p}" for p in fit_problems(h) + h.spilled()]
            if screen.card is not None and screen.card.kind == "settle":
                card = h.find("story-card").rect
                problems += [
                    f"{language} after {number}: card over {name}"
                    for name in screen.card.players
                    if card.colliderect(h.find(f"player:{name}").rect)
                ]
    i18n.set_language("en")
    assert not problems, problems


@pytest.mark.parametrize("size", [(800, 480), (720, 1280), (1024, 600)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_name_around_the_table_is_set_at_one_size(size):
    """Eight long names: one size for all of them (a name that did not break at a hyphen was
    set smaller than its neighbours, 27 px among 36 px ones in portrait), and each still whole."""
    from companion.ui.tools.demo import players_game

    setup, actions = players_game("cloudmine", 8)
    h = Harness(size)
    h.app.change_config(language="de")
    screen = h.start_game(setup)
    theme = h.app.theme
    for action in actions[:4]:
        screen.submit(action)
        h.app.pump()
        names = [h.find(f"name:{name}") for name in setup["players"]]
        sizes = {label.fitted(theme).px for label in names}
        assert len(sizes) == 1, sorted((label.fitted(theme).px, label.text) for label in names)
        assert h.overflows() == [] and h.under_floor() == [] and h.clipped() == []
