"""Every screen (shared ones, each game's with 3 and with the most players, the result cards of
the big moments, each end screen) at every listed size, in every language: no text cut off,
no tap target under 48 design pixels, nothing outside the canvas, nothing silently dropped."""

from __future__ import annotations

import pytest

from companion import i18n
from companion.journal import GameSummary, PlayerTotal
from companion.ui.kit.layout import SIZES
from companion.ui.screens.history import HistoryScreen, ListedGames
from companion.ui.screens.settings import SettingsScreen
from companion.ui.tools.harness import Harness

EIGHT = ["Ann", "Ben", "Csilla", "Dóra", "Előd", "Ferenc", "Gábor", "Hannelore"]
# long names (as long as a family's names get), for the most players each game takes
LONG = ["Bartholomäus", "Szilveszter", "Maximiliane", "Friederike", "Konstantin", "Gwendolyn", "Hannelore", "Erzsébet"]
MOST = {"cloud9": 6, "cloudship": 4, "cloudmine": 8}


def summary(i: int, status: str = "over") -> GameSummary:
    players = EIGHT[: 3 + i % 5]
    scores = {p: 10 + n for n, p in enumerate(players)}
    return GameSummary(
        i,
        "cloudmine",
        "The Cloud Mine",
        {"game": "cloudmine", "players": players},
        players,
        f"2026-05-{1 + i:02d}T18:00:00+00:00",
        "2026-05-01T19:00:00+00:00",
        "2026-05-01T19:00:00+00:00" if status == "over" else None,
        status,
        "over" if status == "over" else "guess",
        [players[-1]] if status == "over" else [],
        scores,
        40,
    )


def shared_win() -> GameSummary:
    """Eight long names and a shared win: the row that used to clip ("Gewonnen von András, Zsol")."""
    return GameSummary(
        99,
        "cloudmine",
        "The Cloud Mine",
        {"game": "cloudmine", "players": EIGHT},
        EIGHT,
        "2026-06-01T18:00:00+00:00",
        "2026-06-01T19:00:00+00:00",
        "2026-06-01T19:00:00+00:00",
        "over",
        "over",
        ["Hannelore", "Csilla", "Ferenc"],
        dict.fromkeys(EIGHT, 15),
        40,
    )


HISTORY = ListedGames(
    [summary(i, "over" if i % 3 else "abandoned") for i in range(7)],
    [PlayerTotal(p, "cloudmine", "The Cloud Mine", 4, 1, 50, 17) for p in EIGHT],
)


def screens(h: Harness):
    """(name, how to get there) for every screen the app has, shared and Cloud Mine."""
    yield "home", lambda: None
    yield "players-8", lambda: (h.tap("game:cloudmine"), [h.tap("more") for _ in range(5)])
    yield "keyboard", lambda: (h.tap("game:cloudmine"), h.tap("name:0"))
    yield "claim", lambda: (h.tap("game:cloudmine"), [h.tap("more") for _ in range(5)], h.tap("claim"))
    yield "settings", lambda: h.app.show(SettingsScreen(h.app))
    yield "settings-more", lambda: (h.app.show(SettingsScreen(h.app)), h.tap("settings:more"))
    yield "seat-test", lambda: (h.app.show(SettingsScreen(h.app)), h.tap("seat-test"))
    yield "history", lambda: h.app.show(HistoryScreen(h.app, ListedGames([shared_win()] + HISTORY.games())))
    yield "totals", lambda: (h.app.show(HistoryScreen(h.app, HISTORY)), h.tap("tab:players"))
    yield "history-empty", lambda: h.app.show(HistoryScreen(h.app, ListedGames()))
    yield "cloudmine-3", lambda: h.start_game({"game": "cloudmine", "players": EIGHT[:3]})
    yield "cloudmine-8", lambda: (h.start_game({"game": "cloudmine", "players": EIGHT}), h.tap("wrong"))
    yield "menu", lambda: (h.start_game({"game": "cloudmine", "players": EIGHT[:5]}), h.tap("menu"))
    yield (
        "confirm-end",
        lambda: (
            h.start_game({"game": "cloudmine", "players": EIGHT[:5]}),
            h.tap("menu"),
            h.tap("dialog:" + h.app.dialog.buttons[-1].text),
        ),
    )
    yield "end-8", lambda: (h.start_game({"game": "cloudmine", "players": EIGHT}), play_out(h))
    yield (
        "refusal",
        lambda: (
            h.start_game({"game": "cloudmine", "players": EIGHT[:4]}),
            h.app.game_screen.submit({"act": "guess", "player": "Ann", "correct": True}),
        ),
    )

    # the other two games, with their fewest-but-three and most players, and their big moments
    yield "cloud9-3", lambda: h.start_game({"game": "cloud9", "players": EIGHT[:3]})
    yield (
        "cloud9-6",
        lambda: (
            h.start_game({"game": "cloud9", "players": EIGHT[:6]}),
            h.app.game_screen.submit({"act": "roll", "dice": ["red", "green"]}),
        ),
    )
    yield (
        "cloud9-6-rise",
        lambda: (
            h.start_game({"game": "cloud9", "players": EIGHT[:6]}),
            h.app.game_screen.submit({"act": "roll", "dice": ["red", "green"]}),
            [h.app.game_screen.submit({"act": "stay", "player": p}) for p in EIGHT[1:6]],
        ),
    )
    yield "cloudship-3", lambda: h.start_game({"game": "cloudship", "players": EIGHT[:3]})
    yield (
        "cloudship-4-flight",
        lambda: (
            h.start_game({"game": "cloudship", "players": EIGHT[:4]}),
            h.app.game_screen.submit({"act": "roll", "dice": ["yellow", "blue", "white"]}),
        ),
    )
    for game, kind in (
        ("cloud9", "top"),
        ("cloud9", "fall"),
        ("cloudmine", "settle"),
        ("cloudship", "storm"),
        ("cloudship", "hail"),
    ):
        yield f"{game}-card-{kind}", lambda game=game, kind=kind: play_demo(h, game, until=kind)
    for game in ("cloud9", "cloudship"):
        yield f"{game}-end", lambda game=game: play_demo(h, game)
    yield "cloudship-lost", lambda: play_example(h, "cloudship-lost.jsonl")
    for game in ("cloud9", "cloudship", "cloudmine"):
        yield (
            f"{game}-help",
            lambda game=game: (
                h.start_game({"game": game, "players": EIGHT[:3]}),
                h.tap("menu"),
                h.tap("dialog:" + h.app.dialog.buttons[1].text),
            ),
        )
    # every card and moment with the most players and the longest names
    for game, kind, prefer in (
        ("cloud9", "fall", STAY),
        ("cloud9", "top", CLIMB),
        ("cloud9", "roll", STAY),
        ("cloud9", "decide", STAY),
        ("cloudmine", "settle", WRONG),
        ("cloudmine", "guess", WRONG),
        ("cloudship", "storm", ANY),
        ("cloudship", "hail", ANY),
        ("cloudship", "drop", ANY),
    ):
        yield (
            f"{game}-{MOST[game]}-long-{kind}",
            lambda game=game, kind=kind, prefer=prefer: play_until(
                h, {"game": game, "players": LONG[: MOST[game]]}, kind, prefer
            ),
        )
    yield "cloud9-tie-break", lambda: play_example(h, "cloud9-four-players-tie-break.jsonl")
    yield "cloud9-end-6", lambda: play_random(h, {"game": "cloud9", "players": EIGHT[:6]})
    # the end screens' story and awards with the longest names, at the most players
    for game in ("cloud9", "cloudmine"):
        yield (
            f"{game}-end-{MOST[game]}-long",
            lambda game=game: play_random(h, {"game": game, "players": LONG[: MOST[game]]}),
        )


def play_demo(h: Harness, game: str, until: str | None = None) -> None:
    """The game's demo until the result card of a `until` moment shows (or to its end)."""
    from importlib import import_module

    setup, actions = import_module(f"companion.ui.screens.{game}").demo_game()
    screen = h.start_game(setup)
    for action in actions:
        screen.submit(action)
        if until is not None and screen.card is not None and screen.card.kind == until:
            return
    assert until is None, f"the {game} demo shows no {until}"


def STAY(action, view) -> bool:  # everyone stays in; the balloon falls from cloud 5: all aboard
    return (
        action["act"] in ("stay", "roll")
        or (action["act"] == "rise" and view["cloud"] < 5)
        or (action["act"] == "fall" and view["cloud"] >= 5)
    )


def CLIMB(action, view) -> bool:  # everyone stays in as the balloon climbs: all aboard at the top
    return action["act"] in ("stay", "roll", "rise")


def WRONG(action, view) -> bool:  # wrong guesses: the settlement shares the cards among many
    return action.get("correct") is False


def ANY(action, view) -> bool:
    return True


def play_until(h: Harness, setup: dict, kind: str, prefer) -> None:
    """Play (seeded, preferring the actions `prefer` picks) until a moment of `kind` has just
    happened ("decide": until a passenger decides on cloud 4 or higher)."""
    import random

    rng = random.Random(3)
    screen = h.start_game(setup)
    for _ in range(3000):
        view = screen.view
        if kind == "decide" and view["phase"] == "decide" and view["cloud"] >= 4:
            return
        legal = screen.legal
        assert legal, f"the game ended before a {kind}"
        chosen = [a for a in legal if prefer(a, view)] or legal
        screen.submit(rng.choice(chosen))
        if any(m.kind == kind for m in screen.moments):
            return
    raise AssertionError(f"no {kind} came up")


def play_random(h: Harness, setup: dict) -> None:
    """A random game to its end (the most players, long names)."""
    from companion.rules.simulate import random_game

    screen = h.start_game(setup)
    for action in random_game(setup, seed=2):
        screen.submit(action)
    assert h.app.controller.match.view["over"]


def play_example(h: Harness, name: str) -> None:
    import json
    from pathlib import Path

    lines = (Path(__file__).resolve().parent.parent / "companion" / "examples" / name).read_text().splitlines()
    rows = [json.loads(line) for line in lines if line.strip()]
    screen = h.start_game(rows[0])
    for action in rows[1:]:
        screen.submit(action)


def play_out(h: Harness) -> None:
    while not h.app.controller.match.view["over"]:
        h.tap("right")


SCREEN_NAMES = [name for name, _ in screens(None)]


@pytest.fixture(params=i18n.LANGUAGES)
def language(request):
    yield request.param
    i18n.set_language("en")


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_every_screen_fits_at_every_size_in_every_language(size, language, tmp_path):
    problems = []
    for name in SCREEN_NAMES:
        h = Harness(size)
        h.app.change_config(language=language)
        dict(screens(h))[name]()
        h.app.pump()
        h.render()
        for text in h.overflows():
            problems.append(f"{name}: text does not fit: {text!r}")
        for text in h.clipped():
            problems.append(f"{name}: line cut by its box: {text!r}")
        for text in h.covered():
            problems.append(f"{name}: text painted over: {text}")
        for key in h.small_targets():
            problems.append(f"{name}: tap target under 48 px: {key}")
        for key in h.off_canvas():
            problems.append(f"{name}: outside the screen: {key}")
        for text in h.dropped():
            problems.append(f"{name}: shortened without a shorter form: {text!r}")
    assert not problems, "\n".join(problems)


def test_screenshots_are_really_drawn(tmp_path):
    h = Harness((800, 480))
    h.start_game({"game": "cloudmine", "players": EIGHT[:4]})
    path = h.save(tmp_path / "shot.png")
    import pygame

    image = pygame.image.load(str(path))
    assert image.get_size() == (800, 480)
    # the Right card button is green where the harness says it is
    right = h.find("right").rect
    assert image.get_at(right.move(6, 6).topleft)[:3] == (28, 122, 62)


def test_switching_the_language_translates_the_screen_at_once():
    h = Harness()
    h.app.show(SettingsScreen(h.app))
    h.app.pump()
    h.tap("lang:de")
    assert "Einstellungen" in h.texts() and i18n.current_language() == "de"
    h.tap("lang:hu")
    assert "Beállítások" in h.texts()
    h.tap("lang:en")
    assert "Settings" in h.texts()


def test_settings_change_volume_mute_and_rotation_and_are_saved(tmp_path):
    from companion import config as settings

    path = tmp_path / "config.toml"
    h = Harness(config_path=path)
    h.app.show(SettingsScreen(h.app))
    h.app.pump()
    h.tap("quieter")
    h.tap("mute")
    h.tap("rotate:90")
    saved, problems = settings.load(path)
    assert problems == [] and saved.volume == pytest.approx(0.7) and saved.muted and saved.rotate == 90
    assert h.app.sounds.volume == pytest.approx(0.7) and h.app.sounds.muted
    assert h.app.frame.portrait  # the canvas turned
    h.tap("rotate:0")  # taps still land after the turn
    assert not h.app.frame.portrait and settings.load(path)[0].rotate == 0


def test_settings_say_when_there_is_no_sound_device():
    h = Harness()
    h.app.show(SettingsScreen(h.app))
    h.app.pump()
    # the state is the selected one of the pair; the other changes it
    assert h.find("unmute").selected and not h.find("mute").selected
    h.tap("mute")
    assert h.find("mute").selected and not h.find("unmute").selected and h.app.config.muted
    h.app.sounds.available = False  # as companion.sound.Sounds reports without an audio device
    h.app.refresh()
    h.app.pump()
    assert h.find("mute").text == "No sound device"


def test_history_pages_through_the_games_newest_first():
    h = Harness()
    h.app.show(HistoryScreen(h.app, HISTORY))
    h.app.pump()
    first_page = [w.key for w in h.widgets() if (w.key or "").startswith("game-row:")]
    assert first_page == ["game-row:6", "game-row:5", "game-row:4"]
    h.tap("older")
    h.tap("older")
    assert [w.key for w in h.widgets() if (w.key or "").startswith("game-row:")] == ["game-row:0"]
    assert not h.find("older").enabled
    h.tap("tab:players")
    assert "Ann" in h.texts() and "Hannelore" not in h.texts()
    h.tap("older")
    h.tap("older")
    assert "Hannelore" in h.texts() and "Page 3 of 3" in h.texts()


class CountingHistory(ListedGames):
    """HISTORY, recording what the screen asks of it."""

    def __init__(self):
        super().__init__(HISTORY.games(), HISTORY.totals())
        self.reads: list = []

    def games(self, limit=None, offset=0):
        self.reads.append(("games", limit, offset))
        return super().games(limit, offset)

    def count_games(self):
        self.reads.append("count")
        return super().count_games()

    def totals(self):
        self.reads.append("totals")
        return super().totals()


def test_history_reads_only_the_pages_shown_each_once_per_visit():
    h = Harness()
    source = CountingHistory()
    screen = HistoryScreen(h.app, source)
    h.app.show(screen)
    h.app.pump()
    h.tap("older")
    h.tap("older")
    h.tap("newer")
    # never the whole history (years of games): a page at a time, each read once, and the count
    assert source.reads == ["count", ("games", 3, 0), ("games", 3, 3), ("games", 3, 6)]
    h.tap("tab:players")
    h.tap("older")
    h.tap("tab:games")
    assert source.reads[4:] == ["totals"]  # back on the games tab: its pages are still at hand
    before = len(source.reads)
    h.app.show(HistoryScreen(h.app, ListedGames()))
    h.app.back()  # a new visit: what was played meanwhile shows
    assert "game-row:6" in [w.key for w in h.widgets()] and source.reads[before:][0] == "count"


def test_the_menu_opens_a_short_help_for_the_game_and_back_returns_to_it():
    from companion.ui.screens.help import HELP, HelpScreen

    h = Harness()
    screen = h.start_game({"game": "cloud9", "players": EIGHT[:3]})
    h.tap("menu")
    h.tap("dialog:How to play")
    assert isinstance(h.screen, HelpScreen) and h.find("subtitle").texts() == ["Cloud 9"]
    goal, steps = HELP["cloud9"]
    assert goal in h.texts() and all(line in h.texts() for _picture, line in steps)
    assert [w.key for w in h.widgets() if (w.key or "").startswith("help-picture:")] == [
        f"help-picture:{picture}" for picture, _line in steps
    ]
    h.tap("back")
    assert h.screen is screen


MAIN_ACTIONS = ("right", "wrong", "jump", "stay", "done", "fall", "rise", "rise-wild")


@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_the_main_buttons_are_at_least_64_design_pixels(size):
    """Right/Wrong, Jump/Stay and the pilot's rise, fall and roll: a child's finger from across the
    table (docs/reference/screens.md: 64 px for the main actions)."""
    problems = []
    for name in ("cloudmine-3", "cloudmine-8", "cloud9-6", "cloud9-6-long-decide", "cloud9-6-rise", "cloud9-3"):
        h = Harness(size)
        dict(screens(h))[name]()
        h.render()
        least = h.app.theme.px(64) - 1
        problems += [
            f"{name}: {b.key} is {b.rect.w}x{b.rect.h}"
            for b in h.buttons()
            if b.key in MAIN_ACTIONS and min(b.rect.w, b.rect.h) < least
        ]
    assert not problems, "\n".join(problems)


def test_right_and_wrong_differ_by_more_than_red_and_green():
    h = Harness()
    h.start_game({"game": "cloudmine", "players": EIGHT[:4]})
    right, wrong = h.find("right"), h.find("wrong")
    assert right.icon is not None and wrong.icon is not None and right.icon is not wrong.icon
    # in grey the two symbols are still two different pictures
    import pygame

    def grey_symbol(button):
        image = h.render().subsurface(button.rect.inflate(-8, -8)).copy()
        side = min(button.rect.h, button.rect.w)
        box = pygame.Rect(0, 0, round(side * 0.7), round(side * 0.7))
        return pygame.transform.grayscale(image.subsurface(box))

    a, b = grey_symbol(right), grey_symbol(wrong)
    differing = sum(
        1
        for x in range(a.get_width())
        for y in range(a.get_height())
        if abs(a.get_at((x, y))[0] - b.get_at((x, y))[0]) > 60
    )
    assert differing > a.get_width() * a.get_height() * 0.05


def test_the_turn_banner_reads_at_4_5_to_1_in_every_player_colour():
    from companion.ui.kit import theme as th

    for colour in th.PLAYER_COLOURS:
        fill = th.banner(th.COLOURS[colour].rgb)
        assert th.contrast(th.text_on(fill), fill) >= 4.5, colour
    # and on the screen: each Cloud 9 player's prompt, in their own colour
    for colour in th.CLOUD9_TOKEN_COLOURS:
        h = Harness()
        h.start_game(
            {
                "game": "cloud9",
                "players": ["Ann", "Ben", "Cat"],
                "first_pilot": "Ann",
                "colours": {
                    "Ann": colour,
                    "Ben": "red" if colour != "red" else "blue",
                    "Cat": "yellow" if colour != "yellow" else "green",
                },
            }
        )
        card = next(w for w in h.widgets() if w.key == "prompt-card")
        prompt = next(w for w in h.widgets() if w.key == "prompt")
        assert th.contrast(prompt.colour, card.colour) >= 4.5, colour


def test_the_contrast_ratio_is_wcag_s():
    from companion.ui.kit import theme as th

    assert th.contrast((255, 255, 255), (0, 0, 0)) == pytest.approx(21)
    assert th.contrast((255, 255, 255), (240, 127, 19)) == pytest.approx(2.71, abs=0.01)  # white on orange


@pytest.mark.parametrize("size", [(800, 480), (1024, 600), (720, 1280)], ids=["small", "landscape", "portrait"])
def test_the_thing_to_decide_is_the_biggest_text_on_every_game_screen(size):
    """The decision banner ("Konstantin: jump or stay?", "Bartholomäus: roll the dice!", "Load 3
    raindrops") outsizes every other text under the top bar, at every step of every game: the
    answers on the buttons, the scores, the storm's count; with the most players and long names,
    in every language."""
    import random

    from companion.ui.kit.widgets import Button, Label
    from companion.ui.tools.harness import flat

    problems, seen = [], set()
    for game in ("cloud9", "cloudship", "cloudmine"):
        for language in i18n.LANGUAGES:
            h = Harness(size)
            h.app.change_config(language=language)
            rng = random.Random(5)
            screen = h.start_game({"game": game, "players": LONG[: MOST[game]]})
            for _ in range(80):
                if not screen.legal or screen.view["over"]:
                    break
                screen.card = None
                h.app.refresh()
                h.render()
                theme, phase = h.app.theme, screen.view["phase"]
                shown = [w for w in flat(h.app.layers()[0]) if w.rect.top >= h.app.frame.content.top]
                labels = [w.label if isinstance(w, Button) else w for w in shown]
                labels = [label for label in labels if isinstance(label, Label) and label.text]
                banner = next((label for label in labels if label.key in ("prompt", "load")), None)
                assert banner is not None, f"{game} {phase}: no decision banner"
                seen.add((game, phase))
                for label in labels:
                    if label is not banner and label.fitted(theme).px >= banner.fitted(theme).px:
                        problems.append(
                            f"{game} {phase} {language}: {label.text!r} at {label.fitted(theme).px} px, "
                            f"the banner {banner.text!r} at {banner.fitted(theme).px} px"
                        )
                screen.submit(rng.choice(screen.legal))
    i18n.set_language("en")
    assert {("cloud9", "resolve"), ("cloudship", "reveal"), ("cloudship", "flight")} <= seen
    assert not problems, "\n".join(sorted(set(problems))[:20])


def test_a_no_break_space_is_drawn_as_a_space_not_a_missing_glyph_box():
    """History keeps a name with its score ("Noah 4") by a no-break space the font lacks."""
    import pygame

    from companion.ui.kit import theme as th

    Harness()
    font = th.font(24)
    kept = font.render("Noah\u00a04", True, th.INK)
    plain = font.render("Noah 4", True, th.INK)
    assert kept.get_size() == plain.get_size()
    assert pygame.image.tobytes(kept, "RGBA") == pygame.image.tobytes(plain, "RGBA")
    # and the History row still keeps the name and its score together when it wraps
    from companion.ui.kit.widgets import wrap_lines

    assert all("Noah" not in line or "4" in line for line in wrap_lines("Anna\u00a012, Noah\u00a04", 24, 90))


def test_the_cloud_mine_s_help_names_its_round_as_its_rulebook_does():
    """Hungarian: The Cloud Mine plays fordulók (its rulebook), Cloudship körök; one screen never
    calls the same round both."""
    import re

    from companion.ui.screens.help import HelpScreen

    for game, word, other in (("cloudmine", "forduló", r"\bkör"), ("cloudship", "kör", r"\bforduló")):
        h = Harness()
        h.app.change_config(language="hu")
        h.app.show(HelpScreen(h.app, game))
        h.app.pump()
        text = " ".join(h.texts())
        assert word in text and not re.search(other, text), game
    i18n.set_language("en")


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)], ids=["landscape", "portrait"])
def test_a_refusal_never_covers_the_player_it_names(size):
    """ "Ann is the Dreamer, she does not guess": the notice goes where Ann's place stays seen."""
    for language in i18n.LANGUAGES:
        h = Harness(size)
        h.app.change_config(language=language)
        h.start_game({"game": "cloudmine", "players": EIGHT[:4]})
        h.app.game_screen.submit({"act": "guess", "player": "Ann", "correct": True})
        h.app.pump()
        toast = next(w for w in h.widgets() if w.key == "toast")
        ann = next(w for w in h.widgets() if w.key == "player:Ann")
        assert not toast.rect.colliderect(ann.rect), language
    i18n.set_language("en")


def test_the_cloud_mine_end_screen_says_the_deck_ended_it():
    h = Harness()
    h.start_game({"game": "cloudmine", "players": EIGHT[:4]})
    play_out(h)
    h.app.pump()
    left = h.app.controller.match.view["deck"]
    assert h.find("how-it-ended").texts() == [f"The deck ran out: {left} cards left, a round needs 6."]


def test_cloudship_s_win_is_a_full_garden_in_colour():
    from companion.ui.boards.cloudship import CELEBRATE_S
    from companion.ui.kit import theme as th

    now = [100.0]
    h = Harness(clock=lambda: now[0])
    play_demo(h, "cloudship")
    now[0] += CELEBRATE_S  # the garden's celebration on the board, then the end screen
    h.app.pump()
    assert h.app.controller.match.view["result"] == "won"
    assert h.shows("garden")
    planted = h.find("outcome:planted")
    assert planted.texts() == ["12/12"] and planted.colour == th.GOOD


def test_a_portrait_end_screen_keeps_three_players_together():
    h = Harness((720, 1280))
    h.start_game({"game": "cloudmine", "players": EIGHT[:3]})
    play_out(h)
    h.app.pump()
    panel = h.find("scores")
    # three rows of a name over its story bars, under the story's caption and legend: together
    assert panel.rect.h <= h.app.theme.px(3 * 96 + 60 + 16)
    for name in EIGHT[:3]:
        assert h.find(f"story:{name}").rect.colliderect(panel.rect)


@pytest.mark.parametrize("size", [(800, 480), (720, 1280)], ids=["landscape", "portrait"])
def test_a_result_card_leaves_what_it_is_about_in_sight(size):
    """The storm card leaves the weather bar (and the beds), the hail card the engine room, a
    six-player fall the ladder with the basket."""
    from companion.ui.tools.harness import flat

    for name, kind, about in (
        ("cloudship-card-storm", "storm", "weather"),
        ("cloudship-card-hail", "hail", "engine"),
        ("cloud9-6-long-fall", "fall", "ladder"),
    ):
        h = Harness(size)
        dict(screens(h))[name]()
        h.app.pump()
        assert h.app.screen.card is not None and h.app.screen.card.kind == kind
        card = h.find("story-card")
        part = next(w for w in flat(h.app.layers()[0]) if w.key == about)
        assert not card.rect.colliderect(part.rect), (name, card.rect, part.rect)


def test_a_short_word_is_not_left_alone_between_two_lines():
    """The fall's caption on the board, in German with a long name: giving "sinken" a partner
    left "den" on a line of its own; the name's two words take the lone lines instead."""
    from companion.ui.kit import theme as th
    from companion.ui.kit.widgets import wrap_lines

    Harness()
    lines = wrap_lines("Weißenböck Jürgen ließ den Ballon sinken", 22, 155)
    assert "den" not in lines and " " in lines[-1], lines
    assert len(lines) == 4 and all(th.font(22).size(line)[0] <= 155 for line in lines)
    # given the choice, a line ends where a phrase does; a name stays whole where it fits
    assert wrap_lines("A vihar továbblép: még tizenkét mező van hátra", 20, 205, "regular") == [
        "A vihar továbblép:",
        "még tizenkét mező",
        "van hátra",
    ]
    assert wrap_lines("Weißenböck Jürgen: steigen oder sinken?", 20, 190)[0] == "Weißenböck Jürgen:"


def test_a_rewrap_never_adds_a_line_or_a_lone_word():
    from hypothesis import given, settings, strategies as st

    from companion.ui.kit import theme as th
    from companion.ui.kit.widgets import _greedy, _hyphen_parts, _lone, _words, wrap_lines

    Harness()

    @settings(max_examples=80, deadline=None)
    @given(
        words=st.lists(
            st.sampled_from(
                ["a", "den", "Anna", "Weißenböck", "Jürgen", "lapot", "1", "Würfel,", "Christopher-Benedict"]
            ),
            min_size=1,
            max_size=14,
        ),
        width=st.integers(60, 400),
    )
    def check(words, width):
        text = " ".join(words)
        font = th.font(20)
        # a double name wider than the line breaks after its hyphen (`_hyphen_parts`)
        parts = [part for word in _words(text) for part in _hyphen_parts(word, font, width)]
        greedy = _greedy(parts, font, width)
        lines = wrap_lines(text, 20, width)
        assert " ".join(lines).replace("- ", "-").split() == text.split()
        assert len(lines) == len(greedy) and _lone(lines) <= _lone(greedy)
        assert all(font.size(line)[0] <= width for line in lines if len(_words(line)) > 1)

    check()


def test_a_wrapped_text_never_ends_on_a_lone_word_the_line_above_can_spare():
    from hypothesis import given, settings, strategies as st

    from companion.ui.kit import theme as th
    from companion.ui.kit.widgets import _words, wrap_lines

    Harness()
    assert wrap_lines("Bartholomäus magához vett 1 rossz lapot", 27, 560)[-1] != "lapot"

    @settings(max_examples=60, deadline=None)
    @given(
        words=st.lists(
            st.sampled_from(["a", "Anna", "Bartholomäus", "lapot", "rossz", "1", "Würfel"]), min_size=1, max_size=12
        ),
        width=st.integers(60, 500),
    )
    def check(words, width):
        text = " ".join(words)
        lines = wrap_lines(text, 20, width)
        assert " ".join(lines).split() == text.split()  # nothing lost, nothing added
        font = th.font(20)
        if len(lines) >= 2 and " " not in lines[-1] and len(_words(lines[-2])) >= 2:
            # a lone last word only where it could not share its line (a number stays with
            # the name before it: "Anna 1" is one word)
            moved = _words(lines[-2])[-1]
            assert font.size(f"{moved} {lines[-1]}")[0] > width

    check()
