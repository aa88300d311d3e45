"""The Cloud 9 board as drawn: the path of clouds with numbers and points, the basket on its
cloud with one wooden piece per passenger, the moments that move them (a rise, a fall, a jump)
ending in a still frame, result cards that leave the path in sight, and six players with the
longest names in every language at the sizes families use, checked with the fit checks."""

from __future__ import annotations

import pygame
import pytest

from companion import i18n
from companion.rules.cloud9 import BLANK, DICE, POINTS, TOP_CLOUD, TOP_POINTS
from companion.ui.boards import cloud9 as board
from companion.ui.boards.risk_meter import RiskMeter
from companion.ui.screens.cloud9 import FALL_S, JUMP_S, LIFT_S, CardsButton
from companion.ui.tools.harness import Harness, _labels, _painted, flat
from shots import shots

SHOTS = shots("cloud9-board-shots")
LONGEST = ["Maximilian-Alexander", "Szentgyörgyi Boglárka", "Sebastian", "Anna", "Bartholomäus", "Kovács Zsófia"]
THREE = ["Sebastian", "Anna", "Maximilian-Alexander"]


def game(size=(800, 480), players=LONGEST, pilot=None):
    now = [100.0]
    h = Harness(size, clock=lambda: now[0])
    screen = h.start_game({"game": "cloud9", "players": list(players), "first_pilot": pilot or players[2]})
    return h, screen, now


def rest(h, now):
    """Past any moment: the screen at rest."""
    now[0] += 2.0
    h.app.pump()


def every(h):
    return flat(h.widgets())


def keyed(h, key):
    return next(w for w in every(h) if w.key == key)


def climb(screen, to_cloud):
    """Everyone stays and every roll is blank, up to `to_cloud`."""
    for cloud in range(screen.view["cloud"], to_cloud):
        screen.submit({"act": "roll", "dice": [BLANK] * DICE[cloud]})
        for name in screen.view["decide_order"]:
            screen.submit({"act": "stay", "player": name})
        screen.submit({"act": "rise", "cards": []})


def aboard_pieces(h):
    return [w for w in every(h) if isinstance(w, board.Pawn) and (w.key or "").startswith("aboard:")]


# --- what is drawn where -------------------------------------------------------------------


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_the_basket_sits_on_its_cloud_with_one_piece_per_passenger(size):
    h, screen, now = game(size)
    for cloud in (1, 4, 6):
        climb(screen, cloud)
        rest(h, now)
        v = screen.view
        assert v["cloud"] == cloud
        here = keyed(h, "basket-cloud").rect
        basket = keyed(h, "basket").rect
        assert here.contains(basket)
        # the basket's cloud is where cloud `cloud` is on the path: between its neighbours
        if cloud > 1:
            assert keyed(h, f"cloud:{cloud - 1}").rect.top > here.bottom
        assert keyed(h, f"cloud:{cloud + 1}").rect.bottom < here.top
        pieces = aboard_pieces(h)
        assert sorted(p.name for p in pieces) == sorted(v["basket"])
        assert all(basket.contains(p.rect) for p in pieces)
        assert keyed(h, "pilot-mark").rect.contains(keyed(h, f"aboard:{v['pilot']}").rect)
    # a passenger jumps: one piece fewer aboard
    screen.submit({"act": "roll", "dice": ["red", "green", BLANK]})
    jumper = screen.view["to_decide"]
    screen.submit({"act": "jump", "player": jumper})
    rest(h, now)
    assert sorted(p.name for p in aboard_pieces(h)) == sorted(screen.view["basket"])
    assert jumper not in {p.name for p in aboard_pieces(h)}


def test_every_cloud_shows_its_number_and_its_points_on_the_path():
    h, screen, now = game()
    climb(screen, 6)
    rest(h, now)
    for cloud in range(1, TOP_CLOUD + 1):
        place = keyed(h, "basket-cloud" if cloud == 6 else f"cloud:{cloud}").rect
        number = keyed(h, f"cloud-no:{cloud}")
        points = keyed(h, "points-here" if cloud == 6 else f"points:{cloud}")
        assert number.text == str(cloud) and place.contains(number.rect)
        assert points.text == str(TOP_POINTS if cloud == TOP_CLOUD else POINTS[cloud]) and place.contains(points.rect)
        assert number.fitted(h.app.theme).px >= h.app.theme.size("min")
    # cloud 1 at the bottom of the path, cloud 9 at the top
    assert keyed(h, "cloud:1").rect.y > keyed(h, "cloud:9").rect.y


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_six_pieces_in_the_basket_show_their_letters_large_enough_to_read(size):
    h, screen, now = game(size)
    rest(h, now)
    theme = h.app.theme
    pieces = aboard_pieces(h)
    assert len(pieces) == 6
    for piece in pieces:
        # never the 12 px of a token squeezed into a row: a piece, its letters at 15 px or more
        assert piece.rect.h >= theme.px(30)
        assert board.mark_px(piece.rect, piece.mark) >= theme.px(15), (piece.name, piece.mark)
    assert len({piece.rect.topleft for piece in pieces}) == 6  # none over another


def test_a_piece_is_the_players_colour_with_its_shape_for_a_head():
    theme = pygame.Rect(0, 0, 60, 72)
    surface = pygame.Surface((60, 72), pygame.SRCALPHA)
    from companion.ui.kit.theme import COLOURS, Theme

    board.draw_pawn(surface, theme, "orange", "K", Theme(1.0))
    # the body is the player's colour (orange); the head is drawn (colour-blind: its shape)
    assert surface.get_at((6, 64))[:3] == COLOURS["orange"].rgb
    assert surface.get_at((30, 8))[3] > 0


def test_the_scores_fill_toward_fifty_however_many_players():
    h, screen, now = game()
    screen.submit({"act": "roll", "dice": ["red", "green"]})
    jumper = screen.view["to_decide"]
    screen.submit({"act": "jump", "player": jumper})
    rest(h, now)
    for name in LONGEST:
        bar = keyed(h, f"bar:{name}")
        row = keyed(h, f"player:{name}").rect
        assert row.contains(bar.rect) and bar.rect.h >= h.app.theme.px(30)
        assert bar.filled.w == round(bar.rect.w * screen.view["scores"][name] / 50)
    assert keyed(h, f"bar:{jumper}").filled.w > 0


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("players", [LONGEST, THREE], ids=["six", "three"])
def test_hands_of_ten_cards_and_more_show_their_count_whole_beside_the_longest_role(size, players):
    # every fall deals each player a card: a long game's hands reach two digits (three players
    # twenty each, "20" the widest; six players as many as the draw pile holds)
    h, screen, now = game(size, players)
    h.app.change_config(language="de")
    while min(screen.view["hands"].values()) < 20 and screen.view["draw_pile"] > 0:
        screen.submit({"act": "roll", "dice": ["red"] + [BLANK] * (DICE[1] - 1)})
        for name in screen.view["decide_order"]:
            screen.submit({"act": "stay", "player": name})
        screen.submit({"act": "fall"})
    screen.submit({"act": "roll", "dice": ["red"] + [BLANK] * (DICE[1] - 1)})
    screen.submit({"act": "jump", "player": screen.view["decide_order"][0]})  # "Ausgestiegen"
    rest(h, now)
    counts = [keyed(h, f"hand:{name}") for name in players]
    assert all(len(label.text) == 2 for label in counts)
    assert len(players) > 3 or {label.text for label in counts} == {"20"}
    assert h.overflows() == [] and h.clipped() == [] and h.covered() == []


# --- the moments -----------------------------------------------------------------------------


def test_a_fall_drops_the_basket_names_the_pilot_then_stands_still():
    h, screen, now = game()
    climb(screen, 5)
    screen.submit({"act": "roll", "dice": ["red", "green", "yellow"]})
    for name in screen.view["decide_order"]:
        screen.submit({"act": "stay", "player": name})
    rest(h, now)
    pilot = screen.view["pilot"]
    high = keyed(h, "basket").rect
    h.tap("fall")
    assert h.app.animating and isinstance(screen._moment, board.Fall)
    fall = screen._moment
    assert fall.basket == high and len(fall.pieces) == 6  # it falls from where it was, all aboard
    assert [line.get_width() for line in fall.caption]  # "Sebastian let it fall", drawn once
    assert screen.balloon_offset(now[0], 0) is None  # the new trip's basket waits for the fall
    frames = []
    for step in (0.2, 0.2, 0.2):
        now[0] += step
        h.app.pump()
        frames.append(pygame.image.tobytes(h.app.viewport.canvas.subsurface(screen._ladder), "RGB"))
    assert len(set(frames)) == 3  # it moves
    now[0] += FALL_S
    h.app.pump()
    assert not h.app.animating and screen._moment is None
    drawn = h.app.frames_drawn
    h.app.pump()
    assert h.app.frames_drawn == drawn  # then still: no frame is asked for
    assert screen.view["cloud"] == 1 and screen.balloon_offset(now[0], 0) == 0
    assert f"{pilot} let it fall" in h.find("story-text").text


def test_a_jump_flies_the_piece_from_the_basket_to_its_players_score():
    h, screen, now = game()
    screen.submit({"act": "roll", "dice": ["red", "green"]})
    rest(h, now)
    jumper = screen.view["to_decide"]
    start = keyed(h, f"aboard:{jumper}").rect.copy()
    h.tap("jump")
    jump = screen._moment
    assert isinstance(jump, board.Jump) and jump.start == start and h.app.animating
    now[0] += JUMP_S / 2
    h.app.pump()
    end = keyed(h, f"token:{jumper}").rect
    assert jump.end == end
    middle = jump.where(now[0])
    assert middle is not None and start.x < middle.centerx < end.right
    now[0] += JUMP_S
    h.app.pump()
    assert not h.app.animating and screen._moment is None


def test_a_rise_floats_the_basket_up_from_the_cloud_it_left():
    h, screen, now = game()
    screen.submit({"act": "roll", "dice": ["red", BLANK]})
    for name in screen.view["decide_order"]:
        screen.submit({"act": "stay", "player": name})
    rest(h, now)
    low = keyed(h, "basket").rect.y
    h.tap("rise")
    high = keyed(h, "basket").rect.y
    assert high < low and isinstance(screen._moment, board.Rise)
    now[0] += LIFT_S / 2
    shift = screen.balloon_offset(now[0], high)
    assert 0 < shift < low - high
    now[0] += LIFT_S
    h.app.pump()
    assert not h.app.animating and screen.balloon_offset(now[0], high) == 0


# --- cards, the prompt, the buttons, the strip -----------------------------------------------


@pytest.mark.parametrize("size", [(800, 480), (720, 1280), (1920, 1080)])
def test_no_result_card_covers_the_path_of_clouds(size):
    for kind in ("fall", "top"):
        h, screen, now = game(size)
        if kind == "top":
            climb(screen, 9)
        else:
            climb(screen, 6)
            screen.submit({"act": "roll", "dice": ["red", "green", BLANK]})
            for name in screen.view["decide_order"]:
                screen.submit({"act": "stay", "player": name})
            screen.submit({"act": "fall"})
        rest(h, now)
        card = keyed(h, "story-card").rect
        assert not card.colliderect(screen._ladder), (kind, card, screen._ladder)


def test_the_fall_card_says_it_once_naming_everyone_and_the_pilot():
    h, screen, now = game()
    climb(screen, 6)
    screen.submit({"act": "roll", "dice": ["red", "green", BLANK]})
    for name in screen.view["decide_order"]:
        screen.submit({"act": "stay", "player": name})
    aboard, pilot = list(screen.view["basket"]), screen.view["pilot"]
    screen.submit({"act": "fall"})
    rest(h, now)
    texts = [w.text for w in _labels(h.widgets()) if (w.key or "").startswith("story")]
    words = " ".join(texts)
    assert words.count("nothing this trip") == 1  # one sentence, not one per player
    assert (
        all(name in words for name in aboard)
        and words.startswith("The balloon fell from cloud 6")
        and f"{pilot} let it fall" in words
    )


@pytest.mark.parametrize("language", ["en", "de", "hu"])
def test_the_prompt_is_the_largest_text_on_the_screen(language):
    h, screen, now = game()
    h.app.change_config(language=language)
    theme = h.app.theme
    for _ in LONGEST:  # each player in turn decides: every name in the prompt
        if screen.view["phase"] != "decide":
            screen.submit({"act": "undo"})
            screen.submit({"act": "roll", "dice": ["red", "green"]})
        rest(h, now)
        labels = _labels(h.widgets())
        prompt = next(label for label in labels if label.key == "prompt")
        px = prompt.fitted(theme).px
        assert px >= theme.px(26), (prompt.text, px)
        # every text of the game (the top bar's "Cloud 9" is the app's, not the game's)
        others = [
            (label.text, label.fitted(theme).px)
            for label in labels
            if label is not prompt and label.text and label.key not in ("title", "subtitle")
        ]
        assert all(other <= px for _text, other in others), (prompt.text, px, max(others, key=lambda o: o[1]))
        screen.submit({"act": "stay", "player": screen.view["to_decide"]})


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)])
def test_jump_stay_and_fall_are_main_buttons_with_symbols(size):
    h, screen, now = game(size)
    screen.submit({"act": "roll", "dice": ["red", "green"]})
    rest(h, now)
    for key in ("jump", "stay"):
        button = h.find(key)
        assert min(button.rect.w, button.rect.h) >= h.app.theme.px(64) and button.icon is not None
    for name in screen.view["decide_order"]:
        screen.submit({"act": "stay", "player": name})
    rest(h, now)
    fall = h.find("fall")
    assert min(fall.rect.w, fall.rect.h) >= h.app.theme.px(64) and fall.icon is not None


def test_the_risk_meter_is_a_bar_not_a_blob_in_landscape():
    h, screen, now = game()
    screen.submit({"act": "roll", "dice": ["red", "green"]})
    rest(h, now)
    meter = next(w for w in every(h) if isinstance(w, RiskMeter))
    bar_w = meter.rect.w - meter.rect.h
    assert bar_w >= h.app.theme.px(80)


def test_the_strip_shows_what_was_rolled():
    h, screen, now = game()
    screen.submit({"act": "roll", "dice": ["red", BLANK]})
    rest(h, now)
    faces = [w for w in every(h) if (w.key or "").startswith("story-faces:")]
    assert [w.faces for w in faces] == [("red", BLANK)]
    assert faces[0].rect.w >= 2 * h.app.theme.px(16)


def test_a_drawn_part_that_declares_its_box_counts_for_the_covered_check():
    from companion.ui.kit.theme import Theme
    from companion.ui.screens.cloud9 import Hand

    hand = Hand(pygame.Rect(10, 10, 20, 20))
    assert _painted(hand, Theme(1.0)) == [hand.rect]


# --- six players, the longest names, every language, the sizes families use ------------------


def reach(screen, state):
    if state == "decide":
        climb(screen, 6)
        screen.submit({"act": "roll", "dice": ["red", "green", BLANK]})
        screen.submit({"act": "jump", "player": screen.view["decide_order"][0]})
    elif state == "resolve":
        reach(screen, "decide")
        for name in screen.view["decide_order"]:
            screen.submit({"act": "stay", "player": name})
    elif state == "fall":
        reach(screen, "resolve")
        screen.submit({"act": "fall"})
    elif state == "top":
        climb(screen, 9)


@pytest.mark.parametrize("size", [(800, 480), (720, 1280), (1920, 1080)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_six_players_with_the_longest_names_fit_in_every_language(size):
    problems = []
    now = [100.0]
    h = Harness(size, clock=lambda: now[0])
    for language in i18n.LANGUAGES:
        h.app.change_config(language=language)
        for players in (LONGEST, THREE):
            for state in ("roll", "decide", "resolve", "fall", "top"):
                screen = h.start_game({"game": "cloud9", "players": players, "first_pilot": players[2]})
                reach(screen, state)
                now[0] += 2.0
                h.app.pump()
                found = {
                    "overflows": h.overflows(),
                    "clipped": h.clipped(),
                    "covered": h.covered(),
                    "small": h.small_targets(),
                    "off": h.off_canvas(),
                    "dropped": h.dropped(),
                }
                found = {k: v for k, v in found.items() if v}
                if found:
                    problems.append((language, len(players), state, found))
                if len(players) == 6:
                    h.save(SHOTS / f"{language}-{size[0]}x{size[1]}-{state}.png")
    assert problems == []


@pytest.mark.parametrize("players", [THREE, LONGEST])
def test_the_dice_on_the_path_are_large_enough_to_count_at_800x480(players):
    h, screen, now = game((800, 480), players)
    climb(screen, 4)
    rest(h, now)
    cubes = [w for w in every(h) if isinstance(w, board.Cubes)]
    assert len(cubes) == TOP_CLOUD - 1  # every cloud but the top one shows its dice
    assert min(c.side(h.app.theme) for c in cubes) >= 16


def test_the_balloon_has_its_envelope_above_the_basket():
    side = 160
    image = board.balloon_icon(side)
    envelope, basket = board.balloon_parts(pygame.Rect(0, 0, 100, 140))
    assert envelope.bottom < basket.top and envelope.w >= basket.w * 0.5
    # the icon is painted in the envelope's red high above where its basket hangs
    red = board.GORES[0]
    top_half = [image.get_at((x, y))[:3] for x in range(side) for y in range(side // 2)]
    assert red in top_half


@pytest.mark.parametrize("language", ["de", "hu"])
@pytest.mark.parametrize("count", [3, 4, 6])
def test_in_portrait_the_path_takes_a_real_share_and_the_longest_names_still_fit(language, count):
    # the scoreboard gives the names its whole width where they do not fit beside the pieces
    from companion.ui.tools.demo import LONG_NAMES

    players = list(LONG_NAMES[:count])
    h, screen, now = game((720, 1280), players)
    h.app.change_config(language=language)
    for state in ("decide", "resolve"):
        reach(screen, state)
        rest(h, now)
        board_rect = next(w for w in h.widgets() if w.key == "board").rect
        assert screen._ladder.w >= 0.45 * board_rect.w, (screen._ladder.w, board_rect.w)
        names = [keyed(h, f"name:{name}") for name in players]
        assert len({label.fitted(h.app.theme).px for label in names}) == 1  # one size, as on Players
        assert h.overflows() == [] and h.clipped() == [] and h.covered() == []


def top_outline(image: pygame.Surface) -> list[int]:
    """For each column, how far down the cloud's first drawn pixel is."""
    w, h = image.get_size()
    return [next((y for y in range(h) if image.get_at((x, y)).a > 0), h) for x in range(w)]


@pytest.mark.parametrize("size", [(800, 480), (1024, 600), (720, 1280)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_cloud_of_the_path_has_the_outline_of_a_few_puffs_not_of_a_strip(size):
    # at 800x480 a cloud of the path is a long, low row: its top must still rise and dip in a
    # few broad mounds, none cut flat by its box
    h, screen, now = game(size)
    rest(h, now)
    cloud = keyed(h, "cloud:5")
    width = max(2, h.app.theme.px(2))
    outline = top_outline(board._cloud_image(cloud.rect.w, cloud.rect.h, board.CLOUD, board.CLOUD_LINE, width))
    inner = outline[cloud.rect.h : -cloud.rect.h]  # between the round ends
    highest = min(inner)
    tops = [x for x in range(1, len(inner) - 1) if inner[x] == highest]
    assert len(tops) < len(inner) * 0.2, "a flat top: the puffs are cut by the cloud's box"
    # mounds: where the outline comes within a pixel of its peak, in runs; the dips between
    # them go at least a sixth of the cloud's height down
    peaks, run = [], []
    for x, y in enumerate(inner):
        if y <= min(inner[max(0, x - 12) : x + 13]) and y <= highest + cloud.rect.h // 4:
            run.append(x)
        elif run:
            peaks.append(run)
            run = []
    peaks += [run] if run else []
    assert 2 <= len(peaks) <= 5, peaks
    for left, right in zip(peaks, peaks[1:]):
        dip = max(inner[left[-1] : right[0] + 1])
        assert dip - max(inner[left[-1]], inner[right[0]]) >= cloud.rect.h / 6, (left, right)


@pytest.mark.parametrize("language", i18n.LANGUAGES)
@pytest.mark.parametrize("size", [(800, 480), (1024, 600), (720, 1280)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_rise_buttons_words_are_one_size_and_keep_a_margin_from_their_edges(size, language):
    # three lines of "Steigen, / Joker / spielen" in portrait once touched the button's top
    h, screen, now = game(size)
    h.app.change_config(language=language)
    reach(screen, "resolve")
    rest(h, now)
    rises = [w for w in every(h) if isinstance(w, CardsButton)]
    assert len(rises) == 2
    # side by side in portrait at two widths, above each other in landscape: one size
    assert len({rise.label.fitted(h.app.theme).px for rise in rises}) == 1
    assert h.cramped() == [] and h.overflows() == []
