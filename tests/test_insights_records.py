"""The table's records from a journal on disk, the pictures, and `history --records/--plot`."""

import json
import shutil
import sqlite3
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pygame
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from companion.insights.records import (
    cache_path,
    cloud9_scores_by_trip,
    cloudmine_cards_by_role,
    cloudship_storm_and_flowers,
    journal_games,
    journal_records,
    records_json,
    table_records,
)
from companion.journal import Journal, JournalError
from companion.journal.bench import build_history
from companion.rules import Match
from companion.rules.simulate import random_game
from journaling import play
from shots import shots

EXAMPLES = Path("companion/examples")


def example(name: str) -> tuple[dict, list[dict]]:
    lines = [json.loads(line) for line in (EXAMPLES / name).read_text(encoding="utf-8").splitlines() if line.strip()]
    return lines[0], lines[1:]


def played(name: str) -> Match:
    setup, actions = example(name)
    match = Match.start(setup)
    for action in actions:
        match = match.apply(action)
    return match


@pytest.fixture(scope="module")
def journal_path(tmp_path_factory):
    """A journal on disk holding every example game, in a fixed order (written once: the
    tests only read it)."""
    path = tmp_path_factory.mktemp("records") / "journal.db"
    journal = Journal.open(path)
    for name in [
        "cloudship-won.jsonl",
        "cloudship-lost.jsonl",
        "cloudship-reveals.jsonl",
        "cloud9-five-players-to-cloud-nine.jsonl",
        "cloud9-four-players-tie-break.jsonl",
        "cloudmine-six-players.jsonl",
    ]:
        setup, actions = example(name)
        play(journal, actions, setup)
    journal.close()
    return path


def test_cloud9_scores_by_trip_end_on_the_final_scores():
    match = played("cloud9-five-players-to-cloud-nine.jsonl")
    series = cloud9_scores_by_trip(match)
    assert {p: s[-1] for p, s in series.items()} == match.view["scores"]
    assert all(len(s) == match.view["trip"] + 1 for s in series.values())
    assert all(a <= b for s in series.values() for a, b in zip(s, s[1:]))  # points never go down


def test_cloudship_series_follow_the_storm_and_the_flowers():
    match = played("cloudship-lost.jsonl")
    points = cloudship_storm_and_flowers(match)
    view = match.view
    assert points[0] == (1, 0, 0)
    assert points[-1][1:] == (view["storm"], sum(view["beds"].values()))
    assert [r for r, _, _ in points[1:]] == list(range(1, view["round"] + 1))


@given(st.integers(0, 10_000))
@settings(max_examples=25, deadline=None)
def test_cloud_mine_cards_per_role_add_up_to_each_players_cards(seed):
    setup = {"game": "cloudmine", "players": ["Ann", "Ben", "Cat", "Dan", "Eve"]}
    match = Match.start(setup)
    for action in random_game(setup, seed):
        match = match.apply(action)
    roles = cloudmine_cards_by_role(match)
    for name, score in match.view["scores"].items():
        assert sum(roles[r].get(name, 0) for r in roles) == score


def test_records_from_a_journal_on_disk(journal_path):
    with Journal.read(journal_path) as journal:
        records = table_records(journal_games(journal))
    c9 = records["cloud9"]
    assert c9.played == 2
    assert c9.best_score == (74, "Ann", 4)  # Ann's 74 in the five-player game (game 4)
    assert c9.best_trip[0] >= 25  # someone reached cloud 9
    ship = records["cloudship"]
    assert ship.played == 3
    assert sum(ship.wins_per_mode.values()) == 2 and sum(ship.played_per_mode.values()) == 3
    won = played("cloudship-won.jsonl").view["round"]
    assert ship.fewest_rounds[0] <= won
    mine = records["cloudmine"]
    final = played("cloudmine-six-players.jsonl").view["scores"]
    assert {n: sum(mine.cards_per_role[r].get(n, 0) for r in mine.cards_per_role) for n in final} == final


# --- the records of a journal, fast: the results table and the cache of replay-only extras -----


def copy_of(journal_path, tmp_path, kept: bool = False):
    """A journal of its own (the module's one is only read); unless `kept`, as a version
    that did not keep the records in the journal left it (no extras, no kept records)."""
    path = tmp_path / "journal.db"
    shutil.copy(journal_path, path)
    if not kept:
        with sqlite3.connect(path) as db:
            db.execute("DELETE FROM extras")
            db.execute("DELETE FROM meta WHERE key = 'records'")
        db.close()
    return path


def as_json(records):
    return records_json(records)


def test_journal_records_equal_replaying_every_game_and_come_from_the_cache(journal_path, tmp_path):
    path = copy_of(journal_path, tmp_path)
    with Journal.read(path) as journal:
        replayed_all = as_json(table_records(journal_games(journal)))
        first = journal_records(journal)
        finished = sum(g.status == "over" for g in journal.games())
        assert first.replayed == finished
        assert as_json(first.records) == replayed_all
        second = journal_records(journal)
        assert second.replayed == 0  # every finished game known: no action read
        assert as_json(second.records) == replayed_all
        assert second.latest == {"cloudship": 3, "cloud9": 5, "cloudmine": 6}
    assert cache_path(path).exists()


def test_a_game_finished_since_is_not_replayed(journal_path, tmp_path):
    path = copy_of(journal_path, tmp_path)
    with Journal.read(path) as journal:
        before = journal_records(journal).records["cloud9"].played
    setup, actions = example("cloud9-four-players-tie-break.jsonl")
    journal = Journal.open(path)
    try:
        play(journal, actions, setup)
        found = journal_records(journal)
        assert found.replayed == 0  # its extras were journaled as it ended
        assert found.records["cloud9"].played == before + 1
        assert as_json(found.records) == as_json(table_records(journal_games(journal)))
    finally:
        journal.close()


def test_records_worked_out_off_the_loop_while_it_keeps_answering(journal_path, tmp_path, monkeypatch, reset_language):
    """Games that arrived without their records (an older version's journal, a restore): the
    screen shows at once what the journal's tables tell (who played and won, the highest
    score) and says that the rest is being worked out, and the loop answers taps meanwhile;
    then it shows them all, the app's journal keeps them, and the next visit reads them at once."""
    import threading

    from companion.ui.screens import records_work as work

    path = copy_of(journal_path, tmp_path)  # no extras, no records kept
    release, calls = threading.Event(), []

    def slow(where, missing):  # the replay held until the test lets it go (here, not in processes)
        calls.append(threading.current_thread().name)
        assert release.wait(30)
        return work.worked_out_records(where)

    monkeypatch.setattr(work, "replay_elsewhere", slow)
    journal = Journal.open(path)
    try:
        h = records_screen(journal)
        pump_until(h, lambda: "Highest score: 74 (Ann)" in h.texts())  # from the results table
        assert h.shows("record:1") and "The other records are still being worked out…" in h.texts()
        assert not any(t.startswith("Best trip") for t in h.texts())  # a replay tells it
        h.tap("records:cloudship")  # the loop answers while the rest is worked out
        assert h.screen.tab == "cloudship" and not any(t.startswith("Fewest rounds") for t in h.texts())
        assert "The other records are still being worked out…" in h.texts()
        release.set()
        h.screen.working.thread.join(30)
        h.app.pump()  # the worker's records reach the loop
        assert "The other records are still being worked out…" not in h.texts()
        assert any(t.startswith("Fewest rounds") for t in h.texts())
        assert calls == ["records"]  # worked out once, on a thread of its own
        assert kept_is_fresh(path)
        h.app.show(HistoryScreen(h.app))
        h.app.pump()
        h.tap("tab:records")  # the next visit: the kept records at once, no worker
        assert h.screen.working is None and "Highest score: 74 (Ann)" in h.texts()
        assert calls == ["records"]
    finally:
        journal.close()


def test_the_app_works_out_stale_records_as_soon_as_the_journal_comes(
    journal_path, tmp_path, monkeypatch, reset_language
):
    """A journal whose records are stale (restored, imported, an older version's) has them
    worked out while the app idles after attaching it, before anyone opens Records, the replay
    in a process of its own; a journal whose kept records are up to date starts no work."""
    import multiprocessing

    from companion.ui.screens import records_work

    processes = []
    spawn = multiprocessing.get_context("spawn")
    monkeypatch.setattr(multiprocessing, "get_context", lambda method: processes.append(method) or spawn)
    path = copy_of(journal_path, tmp_path)
    journal = Journal.open(path)
    try:
        h = Harness((800, 480), config=Config(), journal=journal)
        work = records_work.work_out_stale_records(h.app, journal)
        assert work is not None and h.app.records_work is work
        work.thread.join(30)
        h.app.pump()
        assert work.done and h.app.records_work is None and kept_is_fresh(path)
        assert processes == ["spawn"] and cache_path(path).exists()  # the replay's process wrote it
        assert records_work.work_out_stale_records(h.app, journal) is None  # kept now: nothing to do
        h.app.show(HistoryScreen(h.app))
        h.app.pump()
        h.tap("tab:records")
        assert h.screen.working is None and "Highest score: 74 (Ann)" in h.texts()
    finally:
        journal.close()


def pump_until(h, done, timeout: float = 30.0) -> None:
    import time

    end = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < end, "the records never reached the screen"
        h.app.pump()
        time.sleep(0.005)


@pytest.mark.parametrize(
    "damage",
    [
        "not json at all",
        '{"version": 99, "games": {}}',
        '{"version": 1, "games": []}',
        # JSON of the right version whose entries are not what the cache writes
        '{"version": 1, "games": {"1": 5, "2": ["x"], "4": [null, null, {"best_trips": 3}]}}',
    ],
)
def test_a_damaged_or_foreign_cache_costs_time_never_a_record(journal_path, tmp_path, damage):
    path = copy_of(journal_path, tmp_path)
    with Journal.read(path) as journal:
        good = as_json(journal_records(journal).records)
        cache_path(path).write_text(damage, encoding="utf-8")
        again = journal_records(journal)
        assert again.replayed > 0 and as_json(again.records) == good
        assert journal_records(journal).replayed == 0  # and the cache is whole again


def test_cached_extras_of_the_wrong_shape_are_replayed_not_trusted(journal_path, tmp_path):
    path = copy_of(journal_path, tmp_path)
    with Journal.read(path) as journal:
        good = as_json(journal_records(journal).records)
        cache = json.loads(cache_path(path).read_text(encoding="utf-8"))
        cache["games"]["4"][2] = {"best_trips": 3}  # Cloud 9
        cache["games"]["1"][2] = {"mode": "standard"}  # Cloudship
        cache["games"]["6"][2] = {"cards": {"dreamer": 2}}  # The Cloud Mine
        cache_path(path).write_text(json.dumps(cache), encoding="utf-8")
        again = journal_records(journal)
        assert again.replayed == 3 and as_json(again.records) == good


def test_a_cache_that_cannot_be_written_is_left_out(journal_path, tmp_path):
    path = copy_of(journal_path, tmp_path)
    nowhere = tmp_path / "no such folder" / "records.json"
    with Journal.read(path) as journal:
        found = journal_records(journal, cache=nowhere)
        assert found.records["cloud9"].best_score == (74, "Ann", 4)
    assert not nowhere.parent.exists()


def test_a_game_that_no_longer_replays_still_counts_as_played_and_won(journal_path, tmp_path):
    path = copy_of(journal_path, tmp_path)
    with sqlite3.connect(path) as db:  # game 4's first action becomes one the rules refuse
        db.execute("""UPDATE actions SET action = '{"act": "fly"}' WHERE game_id = 4 AND seq = 1""")
    db.close()
    with Journal.read(path) as journal:
        c9 = journal_records(journal).records["cloud9"]
    assert c9.played == 2 and c9.best_score == (74, "Ann", 4)  # from the results table
    assert c9.best_trip is not None and c9.best_trip[2] == 5  # only game 5's trips are known


def test_a_results_table_that_cannot_be_read_is_one_journal_error(tmp_path):
    class Damaged:
        path = tmp_path / "journal.db"

        def results(self):
            raise sqlite3.DatabaseError("database disk image is malformed")

    with pytest.raises(JournalError, match="the records cannot be read from .*malformed"):
        journal_records(Damaged())


def test_the_benchs_years_of_games_all_replay(tmp_path):
    # the journal the records' figure is measured on: every game must rebuild (its actions name
    # the renamed players), or the figure would count games without their replay
    build_history(tmp_path / "years.db", games=24)
    with Journal.read(tmp_path / "years.db") as journal:
        games = journal.games()
        assert len(games) == 24
        for summary in games:
            assert journal.rebuild(summary.id).view["over"]


@dataclass
class Summary:
    id: int
    game: str
    status: str
    started_at: str


@dataclass
class ShipEnd:
    """A finished Cloudship game as records read it (the view's players and winners, the state)."""

    players: list
    result: str
    mode: str = "sunny"
    round: int = 9

    @property
    def view(self):
        return {"players": self.players, "winners": self.players if self.result == "won" else []}

    @property
    def state(self):
        return self


def test_streaks_count_wins_in_a_row_in_the_order_played():
    crew = ["Noah", "Ida"]
    outcomes = ["won", "won", "lost", "won"]
    games = [
        (Summary(i + 1, "cloudship", "over", f"2026-01-0{i + 1}T10:00:00"), ShipEnd(crew, outcome, round=9 - i))
        for i, outcome in enumerate(outcomes)
    ]
    games.append((Summary(9, "cloudship", "abandoned", "2026-01-09T10:00:00"), ShipEnd(crew, "won", round=1)))
    records = table_records(reversed(games))["cloudship"]  # given newest first, counted in played order
    record = records.players["Noah"]
    assert (record.played, record.won, record.streak, record.best_streak) == (4, 3, 1, 2)
    assert records.fewest_rounds == (6, 4)  # the abandoned game's 1 round does not count
    assert records.wins_per_mode == {"sunny": 3}


def run(*args):
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True, text=True, timeout=60)


def test_history_records_prints_json(journal_path):
    out = run("history", "--db", str(journal_path), "--records")
    assert out.returncode == 0, out.stderr
    titles = {r["game"]: r for r in json.loads(out.stdout)}
    assert titles["cloud9"]["best_score"] == {"points": 74, "player": "Ann", "game_id": 4}
    assert run("history", "--db", str(journal_path)).stdout.count("\n") == 6  # the list still works


def test_history_plot_saves_the_pictures(journal_path, tmp_path):
    for game_id in (4, 1):
        png = tmp_path / f"game{game_id}.png"
        out = run("history", "--db", str(journal_path), "--plot", str(game_id), "--out", str(png))
        assert out.returncode == 0, out.stderr
        picture = pygame.image.load(str(png))
        assert picture.get_size() == (800, 480)
        # more than the white page: lines were drawn
        colours = {tuple(picture.get_at((x, y)))[:3] for x in range(0, 800, 7) for y in range(0, 480, 7)}
        assert len(colours) > 5


@pytest.mark.parametrize(
    "args, message",
    [
        (["--plot", "6", "--out", "x.png"], "no picture"),
        (["--plot", "99", "--out", "x.png"], "no game 99"),
        (["--plot", "4"], "needs --out"),
        (["--out", "x.png"], "goes with --plot"),
    ],
)
def test_history_plot_refuses_in_one_line(journal_path, args, message):
    out = run("history", "--db", str(journal_path), *args)
    assert out.returncode == 1 and message in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1


# --- the Records screen, reached from History -------------------------------------------------

from companion import i18n  # noqa: E402
from companion.config import Config  # noqa: E402
from companion.ui.kit.layout import SIZES  # noqa: E402
from companion.ui.screens.history import HistoryScreen  # noqa: E402
from companion.ui.screens.records import Plot  # noqa: E402
from companion.ui.tools.harness import Harness  # noqa: E402


@pytest.fixture
def reset_language():
    yield
    i18n.set_language("en")


def records_screen(journal, size=(800, 480), language="en") -> Harness:
    h = Harness(size, config=Config(language=language), journal=journal)
    h.app.show(HistoryScreen(h.app))
    h.app.pump()
    h.tap("tab:records")
    return h


def test_records_screen_shows_each_titles_records_and_picture(journal_path, reset_language):
    journal = Journal.open(journal_path)
    try:
        h = records_screen(journal)
        assert "Highest score: 74 (Ann)" in h.texts()
        assert any(isinstance(w, Plot) and w.match.rules.name == "cloud9" for w in h.widgets())
        h.tap("records:cloudship")
        assert "Fewest rounds to win: 7" in h.texts() or any(t.startswith("Fewest rounds") for t in h.texts())
        assert any(isinstance(w, Plot) and w.match.rules.name == "cloudship" for w in h.widgets())
        h.tap("records:cloudmine")
        assert not any(isinstance(w, Plot) for w in h.widgets())
        assert any(t.startswith("Most cards as Chooser") for t in h.texts())
    finally:
        journal.close()


def test_records_screen_without_games_says_so(tmp_path, reset_language):
    journal = Journal.open(tmp_path / "empty.db")
    try:
        h = records_screen(journal)
        assert "No finished games of this title yet." in h.texts()
    finally:
        journal.close()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_records_fit_at_every_size_in_every_language(journal_path, size, reset_language):
    journal = Journal.open(journal_path)
    try:
        for language in i18n.LANGUAGES:
            h = records_screen(journal, size, language)
            for title in ("cloud9", "cloudship", "cloudmine"):
                h.tap(f"records:{title}")
                assert h.overflows() == [] and h.off_canvas() == [] and h.small_targets() == []
                h.save(shots("insights-shots") / f"records-{title}-{size[0]}x{size[1]}-{language}.png")
    finally:
        journal.close()


@pytest.mark.parametrize(
    "damage", [b"[" * 100_000, b"\xff\xfe" * 1000, b'{"version": 1, "games": ' + b"9" * 5000 + b"}"]
)
def test_history_records_ignores_a_cache_damaged_without_end_and_changes_no_file(journal_path, tmp_path, damage):
    import subprocess
    import sys

    path = copy_of(journal_path, tmp_path)
    with Journal.read(path) as journal:
        good = as_json(journal_records(journal, keep=False).records)
    cache_path(path).write_bytes(damage)
    before = {p.name: p.stat().st_mtime_ns for p in tmp_path.iterdir()}
    run = subprocess.run(
        [sys.executable, "-m", "companion", "history", "--records", "--db", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0 and "Traceback" not in run.stderr, run.stderr
    assert json.loads(run.stdout) == good
    assert {p.name: p.stat().st_mtime_ns for p in tmp_path.iterdir()} == before  # read-only: nothing written


def test_history_records_writes_no_cache_beside_the_journal(journal_path, tmp_path):
    import subprocess
    import sys

    path = copy_of(journal_path, tmp_path)
    run = subprocess.run(
        [sys.executable, "-m", "companion", "history", "--records", "--db", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["journal.db"]


# --- the records kept as games end --------------------------------------------------------------

KEPT_GAMES = [
    example(name)
    for name in [
        "cloudship-won.jsonl",
        "cloud9-four-players-tie-break.jsonl",
        "cloudmine-six-players.jsonl",
        "cloudship-lost.jsonl",
    ]
]
UNDO = {"act": "undo"}
REDO = {"act": "redo"}

step = st.one_of(
    st.tuples(st.just("end"), st.integers(0, len(KEPT_GAMES) - 1)),  # a new game played to its end
    st.tuples(st.just("stop"), st.integers(0, len(KEPT_GAMES) - 1)),  # one stopped half-way
    st.tuples(st.just("undo"), st.integers(0, 5)),  # a game's end undone
    st.tuples(st.just("redo"), st.integers(0, 5)),  # ... and put back
    st.tuples(st.just("visit"), st.just(0)),
    st.tuples(st.just("garble"), st.sampled_from(["kept", "extras", "count"])),
)


def kept_is_fresh(path) -> bool:
    with sqlite3.connect(path) as db:
        state = db.execute("SELECT value FROM meta WHERE key = 'records'").fetchone()
        count = db.execute("SELECT value FROM meta WHERE key = 'results_changes'").fetchone()
    db.close()
    try:
        return state is not None and json.loads(state[0])["changes"] == int(count[0])
    except (ValueError, KeyError, TypeError):
        return False


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(step, min_size=1, max_size=7))
def test_records_kept_as_games_end_are_the_records_worked_out_from_scratch(steps, tmp_path_factory):
    path = tmp_path_factory.mktemp("kept") / "journal.db"
    journal = Journal.open(path)
    games: list = []  # [ref, match] of every game begun
    try:
        for kind, arg in steps:
            fresh_before = kept_is_fresh(path)
            if kind in ("end", "stop"):
                setup, actions = KEPT_GAMES[arg]
                ref, match = play(journal, actions if kind == "end" else actions[: len(actions) // 2], setup)
                games.append([ref, match])
                if kind == "end" and fresh_before:
                    assert kept_is_fresh(path)  # the newest game's end is added as it ends
            elif kind in ("undo", "redo") and games:
                game = games[arg % len(games)]
                ref, match = game
                action = UNDO if kind == "undo" else REDO
                if match.can_undo if kind == "undo" else match.can_redo:
                    game[1] = match.apply(action)
                    assert journal.append(ref, action, game[1])
            elif kind == "visit":
                journal_records(journal)
                assert kept_is_fresh(path)  # a visit by the writer keeps what it worked out
            elif kind == "garble":
                with sqlite3.connect(path) as db:
                    if arg == "kept":
                        db.execute(
                            'UPDATE meta SET value = \'{"version": 1, "changes": 0, "records": 7}\' '
                            "WHERE key = 'records'"
                        )
                    elif arg == "extras":
                        db.execute("UPDATE extras SET data = '{\"best_trips\": 3}'")
                    else:
                        db.execute("UPDATE meta SET value = 'many' WHERE key = 'results_changes'")
                db.close()
            found = journal_records(journal)
            assert as_json(found.records) == as_json(table_records(journal_games(journal)))
    finally:
        journal.close()


def test_what_the_tables_tell_is_known_at_once_and_the_rest_is_left_pending(journal_path, tmp_path):
    """Without extras (an older version's journal, a restore): every finished game counts with
    its players' results, nothing is replayed or written, and what only a replay tells waits."""
    from companion.insights.records import known_records_at, worked_out_records

    path = copy_of(journal_path, tmp_path)
    known = known_records_at(path)
    assert known.replayed == 0 and known.pending == 6
    assert not cache_path(path).exists() and not kept_is_fresh(path)
    whole = worked_out_records(path)
    assert whole.pending == 0 and whole.replayed == 6
    for game, title in whole.records.items():
        mine = known.records[game]
        assert mine.played == title.played and mine.best_score == title.best_score
        assert {n: vars(p) for n, p in mine.players.items()} == {n: vars(p) for n, p in title.players.items()}
    assert whole.records["cloud9"].best_trip is not None and known.records["cloud9"].best_trip is None
    assert known_records_at(path).pending == 0  # the cache beside the journal knows them now


def test_games_replayed_elsewhere_make_the_same_records_without_a_replay_here(journal_path, tmp_path, monkeypatch):
    """The shares of a replay done in other processes: put together, the same records as a
    replay here; a share whose game has since changed (another number of actions) is replayed
    again rather than trusted."""
    from companion.insights.records import known_records_at, replayed_extras, worked_out_records
    from companion.journal.journal import Journal as Reader

    path = copy_of(journal_path, tmp_path)
    missing = known_records_at(path).missing
    assert len(missing) == 6
    shares = replayed_extras(path, missing[::2]) | replayed_extras(path, missing[1::2])
    stale = missing[0]
    shares[stale] = (shares[stale][0] + 1, shares[stale][1])  # as if its game had changed since
    rebuilt = []
    real = Reader.rebuild
    monkeypatch.setattr(Reader, "rebuild", lambda self, game_id: rebuilt.append(game_id) or real(self, game_id))
    found = worked_out_records(path, shares)
    assert rebuilt == [stale] and found.replayed == 6 and found.pending == 0
    cache_path(path).unlink()
    assert as_json(found.records) == as_json(worked_out_records(path).records)
