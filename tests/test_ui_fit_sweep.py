"""Every moment of every game, checked for text that does not fit: the example games and a game
of each title with the most players, all with the longest names, played on the app's screens
in English, German and Hungarian, landscape and portrait; after each action the screen, its
card and its strip must show every line whole (no text shrunk past its floor, no line cut
through by its box, covered by what is drawn after it, or run over a card's edge or off the
screen).

The quick sweep checks each moment once, in one of the six languages and orientations in turn
(so every moment and every language and orientation is seen); the full sweep, marked slow
(`pytest -m slow tests/test_ui_fit_sweep.py`), checks every moment in all six and at the other
listed sizes too.
"""

from __future__ import annotations

import json
import os
from collections import defaultdict
from pathlib import Path

import pygame
import pytest

from companion import i18n
from companion.ui.tools.demo import LONG_NAMES, MOST_PLAYERS, other_screens, players_game
from companion.ui.tools.harness import Harness

EXAMPLES = Path(__file__).resolve().parents[1] / "companion" / "examples"
LANGUAGES = ("en", "de", "hu")
QUICK_SIZES = ((800, 480), (720, 1280))
FULL_SIZES = ((800, 480), (1024, 600), (1280, 800), (1920, 1080), (720, 1280))
MOST_ACTIONS = 150
CHECKS = ("overflows", "clipped", "covered", "spilled", "off_canvas", "uneven", "cramped", "under_floor")

# who draws what: the screens' owners are told of what the sweep finds on their screens
OWNERS = {"Cloud9Screen": "cloud9", "CloudMineScreen": "cloudmine", "CloudshipScreen": "cloudship", "EndScreen": "end"}


def renamed(value, names: dict[str, str]):
    """`value` (a setup or an action) with every player's name replaced, wherever it is."""
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, list):
        return [renamed(v, names) for v in value]
    if isinstance(value, dict):
        return {names.get(k, k): renamed(v, names) for k, v in value.items()}
    return value


def example_games() -> list[tuple[str, dict, list[dict]]]:
    """The example games with the longest names, and each title with its most players."""
    games = []
    for path in sorted(EXAMPLES.glob("*.jsonl")):
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
        setup, actions = rows[0], rows[1:]
        names = dict(zip(setup["players"], LONG_NAMES))
        games.append((path.stem, renamed(setup, names), renamed(actions, names)))
    for game, most in MOST_PLAYERS.items():
        setup, actions = players_game(game, most)
        # a random game of Cloud 9 runs to hundreds of actions: its first trips show every kind
        games.append((f"{game}-{most}-players", setup, actions[:MOST_ACTIONS]))
    return games


def sweep(combos: list[tuple[str, tuple[int, int]]], every: bool) -> dict[str, dict[tuple, set]]:
    """Play every game on a harness per (language, size); after action i check the screen on
    every harness (`every`) or on harness i mod len(combos). Findings by the screen's owner:
    (game, screen, check, moment, language, size) -> the lines."""
    found: dict[str, dict[tuple, set]] = defaultdict(lambda: defaultdict(set))
    try:
        for name, setup, actions in example_games():
            for index, (language, size) in enumerate(combos):
                h = Harness(size)
                h.app.change_config(language=language)
                h.start_game(setup)
                moments = [(0, None)] + list(enumerate(actions, start=1))
                for number, action in moments:
                    if action is not None:
                        assert h.app.game_screen.submit(action), (name, number, action)
                    if not every and number % len(combos) != index:
                        continue  # not drawn: only the moments looked at are
                    h.app.pump()
                    screen = type(h.app.screen).__name__
                    card = getattr(h.app.screen, "card", None)
                    moment = card.kind if card is not None else "-"
                    for check in CHECKS:
                        for line in getattr(h, check)():
                            found[OWNERS.get(screen, "the app")][name, screen, check, moment, language, size].add(line)
    finally:
        i18n.set_language("en")
    return found


def report(findings: dict[tuple, set]) -> str:
    lines = []
    for (game, screen, check, moment, language, size), texts in sorted(findings.items()):
        lines.append(
            f"{game} {screen} {check} at moment {moment}, {language} {size[0]}x{size[1]}: "
            + "; ".join(sorted(texts)[:3])
        )
    return "\n".join(lines)


@pytest.fixture(scope="module")
def quick():
    return sweep([(language, size) for language in LANGUAGES for size in QUICK_SIZES], every=False)


# every owner's screens are checked, each on its own (a finding names the screen it is on)
OWNED = ["the app", *dict.fromkeys(OWNERS.values())]


@pytest.mark.parametrize("owner", OWNED)
def test_every_moment_of_every_game_fits_in_every_language_and_orientation(quick, owner):
    findings = quick.get(owner, {})
    assert not findings, "\n" + report(findings)


@pytest.mark.slow
@pytest.mark.skipif(
    not os.environ.get("CLOUD_FIT_FULL_SWEEP"), reason="the full sweep (minutes): set CLOUD_FIT_FULL_SWEEP=1 to run it"
)
@pytest.mark.parametrize("owner", OWNED)
def test_every_moment_fits_at_every_size_in_every_language(owner):
    findings = sweep([(language, size) for language in LANGUAGES for size in FULL_SIZES], every=True)
    assert not findings.get(owner), "\n" + report(findings.get(owner, {}))


def test_the_sweep_sees_a_line_cut_through_by_a_card_and_the_longest_names():
    # the sweep's own checks catch what the pictures showed: a sentence run over its card's edge
    from companion.ui.kit.widgets import Label, Panel
    from companion.ui.screens.base import Screen

    class Spilled(Screen):
        def build(self, f, t):
            card = f.content.inflate(-f.u(200), -f.u(200))
            return [
                Panel(card, key="card"),
                Label(
                    pygame.Rect(card.x, card.bottom - f.u(20), card.w, f.u(40)),
                    "Szentgyörgyi Boglárka fell",
                    "body",
                    key="line",
                ),
            ]

    h = Harness((800, 480))
    h.app.show(Spilled(h.app))
    h.app.pump()
    assert h.spilled() == ["'Szentgyörgyi Boglárka fell' over a card's edge"]
    assert all(setup["players"][0] == LONG_NAMES[0] for _name, setup, _actions in example_games())
    assert max(len(setup["players"]) for _n, setup, _a in example_games() if setup["game"] == "cloudmine") == 8


# --- History: a journal of finished games, every tab ------------------------------------------
@pytest.fixture(scope="module")
def finished_journal(tmp_path_factory):
    """A journal on disk holding a finished game of each title at its most players and at three,
    with the longest names."""
    from journaling import demo_games_journal

    journal = demo_games_journal(tmp_path_factory.mktemp("history") / "journal.sqlite3", (3, *MOST_PLAYERS.values()))
    yield journal
    journal.close()


def history_findings(journal, combos) -> dict[tuple, set]:
    """Every page of the History screen's games and players, each game's scores and the records
    of each title, checked as the game moments are (a row may shorten what it lists, never cut
    a line or leave out a winner); findings as in `sweep`, the page in the moment's place."""
    from companion.ui.screens.history import HistoryScreen
    from companion.ui.screens.records import TITLES

    found: dict[tuple, set] = defaultdict(set)

    def check(h, moment, language, size):
        h.app.pump()
        for name in (*CHECKS, "dropped"):
            for line in getattr(h, name)():
                found["history", type(h.app.screen).__name__, name, moment, language, size].add(line)

    try:
        for language, size in combos:
            h = Harness(size, journal=journal)
            h.app.change_config(language=language)
            for tab in ("games", "players"):
                h.app.show(HistoryScreen(h.app))
                h.tap(f"tab:{tab}")
                for page in range(1, 99):
                    check(h, f"{tab} page {page}", language, size)
                    rows = [w.key for w in h.widgets() if (w.key or "").startswith("game-row:")]
                    for row in rows:  # a game's every score, a tap away
                        h.tap(row)
                        check(h, f"scores of {row}", language, size)
                        h.app.back()
                    if not h.find("older").enabled:
                        break
                    h.tap("older")
            h.app.show(HistoryScreen(h.app))
            h.tap("tab:records")
            for title in TITLES:
                h.tap(f"records:{title}")
                check(h, f"records of {title}", language, size)
    finally:
        i18n.set_language("en")
    return found


def test_history_fits_every_finished_game_in_every_language_and_orientation(finished_journal):
    findings = history_findings(finished_journal, [(language, size) for language in LANGUAGES for size in QUICK_SIZES])
    assert not findings, "\n" + report(findings)


@pytest.mark.slow
@pytest.mark.skipif(
    not os.environ.get("CLOUD_FIT_FULL_SWEEP"), reason="the full sweep (minutes): set CLOUD_FIT_FULL_SWEEP=1 to run it"
)
def test_history_fits_at_every_size_in_every_language(finished_journal):
    findings = history_findings(finished_journal, [(language, size) for language in LANGUAGES for size in FULL_SIZES])
    assert not findings, "\n" + report(findings)


# --- every other screen: Players with the longest names, History, Help, Settings, the menus ----
def other_findings(journal, combos) -> dict[tuple, set]:
    """Every screen `other_screens` shows (those the demo saves besides the games' own), checked
    as the game moments are; findings as in `sweep`, the screen's name in the moment's place."""
    found: dict[tuple, set] = defaultdict(set)
    try:
        for language, size in combos:
            h = Harness(size, journal=journal)
            h.app.change_config(language=language)
            for name in other_screens(h):
                h.app.pump()
                for check in (*CHECKS, "small_targets"):
                    for line in getattr(h, check)():
                        found["-", type(h.app.screen).__name__, check, name, language, size].add(line)
    finally:
        i18n.set_language("en")
    return found


def test_every_other_screen_fits_in_every_language_and_orientation(finished_journal):
    findings = other_findings(
        finished_journal, [(language, size) for language in LANGUAGES for size in (*QUICK_SIZES, (1024, 600))]
    )
    assert not findings, "\n" + report(findings)


@pytest.mark.parametrize("size", [(800, 480), (1024, 600), (720, 1280)])
@pytest.mark.parametrize("count", [3, 6, 8])
def test_the_players_names_share_one_size_and_show_whole(size, count):
    from companion.ui.kit.roster import Player
    from companion.ui.screens.players import PlayersScreen

    h = Harness(size)
    colours = ("red", "blue", "green", "yellow", "black", "orange", "purple", "white")
    h.app.show(
        PlayersScreen(h.app, "cloudmine", players=[Player(n, c, None) for n, c in zip(LONG_NAMES[:count], colours)])
    )
    h.app.pump()
    theme = h.app.theme
    labels = [h.find(f"name:{i}").label for i in range(count)]
    assert len({label.fitted(theme).px for label in labels}) == 1
    assert labels[0].fitted(theme).px >= theme.size("min")
    for label, name in zip(labels, LONG_NAMES):
        # the whole name, broken between words or after a hyphen: the colour buttons gave up
        # width for it
        lines = label.fitted(theme).lines
        assert " ".join(lines).replace("- ", "-") == name, lines
        assert label.clipped(theme) == [] and label.overflow(theme) == []
    assert all(min(h.find(f"colour:{i}").rect.size) >= 48 for i in range(count))  # the smallest touch target


def test_the_sweep_sees_words_that_touch_their_buttons_edge():
    # "Startseite" filling its button to the edge reads as cut from it: a margin is kept
    from companion.ui.kit.widgets import Button
    from companion.ui.screens.base import Screen

    class Tight(Screen):
        def build(self, f, t):
            home = Button(pygame.Rect(f.u(100), f.u(200), f.u(120), f.u(64)), "Startseite", None, key="home")
            home.label.rect = home.rect.inflate(-2, -2)  # its words laid out up to the edge
            roomy = Button(pygame.Rect(f.u(400), f.u(200), f.u(200), f.u(64)), "Home", None, key="roomy")
            return [home, roomy]

    h = Harness((800, 480))
    h.app.show(Tight(h.app))
    h.app.pump()
    assert h.cramped() == ["'Startseite' within 4 px of its edge"]
