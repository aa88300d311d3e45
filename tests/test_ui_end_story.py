"""After the game: the end screens tell its story, the recap picture is kept beside the
journal's exports, History shows it, and `history --recap` draws one for any game."""

import json
import subprocess
import sys
import time
from pathlib import Path

import pygame
import pytest

from companion import i18n
from companion.controller import GameController
from companion.journal import Journal
from companion.rules import Match
from companion.ui.boards import recap
from companion.ui.boards.cloudship import CELEBRATE_S
from companion.ui.kit import theme as th
from companion.ui.kit.roster import players_from_setup
from companion.ui.screens.end import EndScreen
from companion.ui.screens.history import HistoryScreen, RecapScreen
from companion.ui.tools.harness import Harness

EXAMPLES = Path(__file__).resolve().parent.parent / "companion" / "examples"


def example(name: str) -> tuple[dict, list[dict]]:
    rows = [json.loads(line) for line in (EXAMPLES / name).read_text(encoding="utf-8").splitlines() if line.strip()]
    return rows[0], rows[1:]


def play(h: Harness, name: str):
    setup, actions = example(name)
    screen = h.start_game(setup)
    for action in actions:
        assert screen.submit(action), action
    h.app.pump()
    # a won Cloudship game celebrates on its board first: the end screen follows within a second
    over = h.app.controller.match.view["over"]
    if over and not isinstance(h.screen, EndScreen) and hasattr(h.app.clock, "advance"):
        h.app.clock.advance(CELEBRATE_S)  # a stepped clock: step past the celebration
        h.app.pump()
    deadline = time.monotonic() + CELEBRATE_S + 5
    while over and not isinstance(h.screen, EndScreen) and time.monotonic() < deadline:
        time.sleep(0.05)
        h.app.pump()
    return screen


def finish_saving(h: Harness) -> None:
    h.app.finish_idle_work()
    thread = getattr(h.app.screen, "recap_saving", None)
    if thread is not None:
        thread.join(10)


@pytest.mark.parametrize("size", [(800, 480), (720, 1280), (1920, 1080)], ids=["landscape", "portrait", "full-hd"])
def test_a_tied_cloud9_end_screen_shows_every_trip_and_every_hand(size):
    h = Harness(size)
    play(h, "cloud9-four-players-tie-break.jsonl")
    assert isinstance(h.screen, EndScreen)
    match = Match.start(example("cloud9-four-players-tie-break.jsonl")[0])
    for action in example("cloud9-four-players-tie-break.jsonl")[1]:
        match = match.apply(action)
    # each trip's points, per player, as the story bars draw them (worked out by hand from the
    # game: Dan's trips end 0, 4, 15; every player's trips add up to the final score)
    view = match.view
    for name in view["players"]:
        bars = h.find(f"story:{name}")
        shown = len(bars.totals())  # a bar a trip, or (where 23 would be hairlines) a few trips a bar
        per = -(-23 // shown)
        assert view["trip"] == 23 and -(-23 // per) == shown and (per == 1 or per * 0.75 * bars.rect.w / 23 >= 16)
        assert sum(bars.totals()) == view["scores"][name]
    if len(h.find("story:Dan").totals()) == 23:
        assert h.find("story:Dan").totals()[-3:] == [0, 4, 15]
    # the hands are shown for everyone, and they broke the tie: Cat 13 cards, Ann 5
    assert h.find("hand:Cat").texts() == ["13 cards"] and h.find("hand:Ann").texts() == ["5 cards"]
    assert h.find("hand:Dan").texts() == ["17 cards"] and h.find("hand:Ben").texts() == ["13 cards"]
    assert "more cards in hand" in h.find("how-it-ended").texts()[0]
    # the bars are really drawn in the player's colour
    image = h.render()
    bars = h.find("story:Dan").rect
    colours = {tuple(image.get_at((x, y)))[:3] for x in range(bars.x, bars.right) for y in range(bars.y, bars.bottom)}
    assert th.COLOURS[h.app.game_screen.player("Dan").colour].rgb in colours
    assert not (h.overflows() or h.clipped() or h.covered() or h.off_canvas() or h.small_targets())


def test_a_cloud9_end_screen_shows_the_hands_when_they_decided_nothing():
    h = Harness()
    play(h, "cloud9-five-players-to-cloud-nine.jsonl")
    for name in h.app.controller.match.view["players"]:
        hand = h.app.controller.match.view["hands"][name]
        assert h.find(f"hand:{name}").texts() == [
            i18n.translator("app").ngettext("{count} card", "{count} cards", hand).format(count=hand)
        ]


def test_the_cloud_mine_end_screen_says_the_deck_ran_out_and_tells_the_cards_by_role():
    h = Harness((720, 1280))
    play(h, "cloudmine-six-players.jsonl")
    view = h.app.controller.match.view
    assert h.find("how-it-ended").texts() == [f"The deck ran out: {view['deck']} cards left, a round needs 6."]
    for name in view["players"]:
        bars = h.find(f"story:{name}")
        assert sum(bars.totals()) == view["scores"][name]
        assert {colour for stack in bars.values for _v, colour, *_pattern in stack} <= set(recap.ROLE_COLOURS.values())
    assert h.find("legend-word:dreamer").texts() == ["Dreamer"]
    assert h.find("award-title:sharpest_guesser").texts() == ["Sharpest guesser"]
    assert h.find("award-line:sharpest_guesser").texts() == ["Zsolt: 3 right guesses"]


def test_a_cloud_mine_stopped_early_does_not_say_the_deck_ran_out():
    h = Harness()
    h.start_game({"game": "cloudmine", "players": ["Ann", "Ben", "Cat"]})
    h.tap("wrong")
    h.tap("menu")
    h.tap("dialog:End game")
    h.tap("dialog:End game")
    assert not any("deck ran out" in text for text in h.texts())


def test_a_finished_game_leaves_its_recap_beside_the_journal_s_exports(tmp_path):
    journal = Journal.open(tmp_path / "journal.sqlite3")
    h = Harness(controller=GameController(journal), journal=journal)
    play(h, "cloud9-four-players-tie-break.jsonl")
    while h.app.rehearse_step():  # the end screen's frame kept, and others drawn ahead, as when idle
        pass
    finish_saving(h)
    # the picture is drawn in the room of the game's frames kept for states that will not come
    assert len(h.app._stills) == 1
    h.render()  # and the end screen is still shown from its kept frame
    (game,) = journal.games()
    path = tmp_path / "exports" / f"game-{game.id}-cloud9.png"
    assert recap.recap_path(journal.path, game.id, "cloud9") == path and path.is_file()
    assert not [p for p in path.parent.iterdir() if p.name.startswith(".")]  # no temporary file left
    picture = pygame.image.load(str(path))
    assert picture.get_size() == recap.SIZE == (1200, 1600)
    colours = {tuple(picture.get_at((x, y)))[:3] for x in range(0, 1200, 2) for y in range(0, 1600, 2)}
    for player in players_from_setup(h.app.controller.match.setup):
        assert th.COLOURS[player.colour].rgb in colours, player

    # History shows it on the game's row; a tap shows it whole
    h.app.home()
    h.app.show(HistoryScreen(h.app))
    h.app.pump()
    h.tap(f"recap:{game.id}")
    assert isinstance(h.screen, RecapScreen)  # drawn again for the screen's shape from the game itself
    assert h.screen.match is not None and h.screen.drawn((760, 400)).get_size() == (760, 400)
    h.render()
    journal.close()


def test_a_game_stopped_early_keeps_no_recap(tmp_path):
    journal = Journal.open(tmp_path / "journal.sqlite3")
    h = Harness(controller=GameController(journal), journal=journal)
    h.start_game({"game": "cloudmine", "players": ["Ann", "Ben", "Cat"]})
    h.tap("wrong")
    h.tap("menu")
    h.tap("dialog:End game")
    h.tap("dialog:End game")
    finish_saving(h)
    assert not (tmp_path / "exports").exists()
    h.app.home()
    h.app.show(HistoryScreen(h.app))
    h.app.pump()
    assert not h.shows(f"recap:{journal.games()[0].id}")
    journal.close()


def test_a_recap_that_cannot_be_written_leaves_the_game_alone(tmp_path):
    (tmp_path / "exports").write_text("a file where the folder would be")
    journal = Journal.open(tmp_path / "journal.sqlite3")
    h = Harness(controller=GameController(journal), journal=journal)
    play(h, "cloudship-won.jsonl")
    finish_saving(h)
    assert isinstance(h.screen, EndScreen)
    assert [g.status for g in journal.games()] == ["over"]
    journal.close()


def test_the_png_reads_back_as_the_picture_drawn():
    surface = pygame.Surface((7, 3))
    surface.fill((10, 20, 30))
    surface.set_at((6, 2), (250, 1, 128))
    width, height, data = recap.pixels_of(surface)
    import io

    back = pygame.image.load(io.BytesIO(recap.png_bytes((width, height, data))), "x.png")
    assert back.get_size() == (7, 3)
    assert tuple(back.get_at((0, 0)))[:3] == (10, 20, 30) and tuple(back.get_at((6, 2)))[:3] == (250, 1, 128)


# --- history --recap ------------------------------------------------------------------------


def run(*args):
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True, text=True, timeout=60)


@pytest.fixture(scope="module")
def journal_path(tmp_path_factory):
    from journaling import play as journal_game

    path = tmp_path_factory.mktemp("recap") / "journal.sqlite3"
    journal = Journal.open(path)
    for name in ("cloudmine-six-players.jsonl", "cloudship-lost.jsonl"):
        setup, actions = example(name)
        journal_game(journal, actions, setup)
    journal.close()
    return path


def test_history_recap_draws_any_game(journal_path, tmp_path):
    out = tmp_path / "mine.png"
    done = run("history", "--db", str(journal_path), "--recap", "1", "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert done.stderr.startswith("cloud-companion:") and str(out) in done.stderr
    picture = pygame.image.load(str(out))
    assert picture.get_size() == (1200, 1600)


@pytest.mark.parametrize(
    "args, message",
    [
        (["--recap", "9", "--out", "x.png"], "there is no game 9"),
        (["--recap", "1"], "needs --out"),
        (["--recap", "1", "--out", "."], "is a folder"),
        (["--recap", "1", "--out", "/proc/x.png"], "cannot write /proc/x.png"),
    ],
)
def test_history_recap_refuses_in_one_line(journal_path, args, message):
    done = run("history", "--db", str(journal_path), *args)
    assert done.returncode == 1 and message in done.stderr, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("cloud-companion:")


def test_a_cloudship_win_is_celebrated_for_a_moment_then_still():
    from companion.ui.tools.demo import _StepClock

    clock = _StepClock()
    h = Harness(clock=clock)
    play(h, "cloudship-won.jsonl")
    assert h.find("celebration").texts() == ["All 12 flowers planted!"]
    assert h.find("outcome").highlight == th.GOOD
    assert h.app.animating  # petals fly up from the full garden ...
    clock.advance(1.0)
    h.app.pump()
    assert not h.app.animating  # ... and then nothing moves


def test_a_lost_cloudship_game_is_not_celebrated_and_tells_its_rounds():
    h = Harness((720, 1280))
    play(h, "cloudship-lost.jsonl")
    assert not h.shows("celebration") and getattr(h.screen, "celebrated_at", None) is None
    rounds = h.screen.rounds_told
    assert [r.number for r in rounds] == list(range(1, 9)) and rounds[-1].result == "lost"
    assert h.shows("rounds")


def test_a_long_name_breaks_after_its_hyphen_or_between_its_words_never_inside_a_word():
    from companion.ui.kit.names import name_lines

    px = th.SIZES["min"]
    assert name_lines("Maximilian-Alexander", px, 130, "regular") == ("Maximilian-", "Alexander")
    assert name_lines("Szentgyörgyi Boglárka", px, 130, "regular") == ("Szentgyörgyi", "Boglárka")
    assert name_lines("Maximilian-Alexander", px, 1000, "regular") == ("Maximilian-Alexander",)
    assert name_lines("Zsófi", px, 10, "regular") == ("Zsófi",)
