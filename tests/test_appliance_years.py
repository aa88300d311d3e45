"""Years of games: the history pages and the player totals come from an index and a results
table (schema 2, filled on upgrade, kept true by triggers), and the journal's whole-file check
runs off the app's thread; a damaged file found that way is set aside at the next start."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

from hypothesis import given, settings as hyp_settings, strategies as st

from companion.journal import Journal, player_totals, schema
from companion.journal.bench import build_history
from companion.journal.store import Store, connect
from companion.rules import Match
from companion.rules.simulate import random_game
from journaling import play

SETUPS = [
    {"game": "cloudmine", "players": ["Ann", "Ben", "Cat", "Dan"]},
    {"game": "cloud9", "players": ["Ann", "Ben", "Eve"]},
    {"game": "cloudship", "players": ["Cat", "Dan", "Eve"], "mode": "standard"},
]


def finished(setup, seed):
    return random_game(setup, seed=seed)


def test_an_older_journal_gets_its_totals_on_upgrade(tmp_path):
    path = tmp_path / "journal.sqlite3"
    v1 = {1: schema.MIGRATIONS[1]}
    store = Store.open(path, writable=True, migrations=v1)
    for seed, setup in enumerate(SETUPS * 2):
        match = Match.start(setup)
        game_id = store.begin(match.setup, match.rules.title, match.view, "2026-01-01T18:00:00")
        for seq, action in enumerate(finished(setup, seed), start=1):
            match = match.apply(action)
            store.append(game_id, seq, action, match.view, f"2026-01-0{1 + seed % 5}T19:00:00")
    store.close()
    with Journal.open(path) as journal:
        assert schema.version(journal._db.conn) == schema.SCHEMA_VERSION
        assert journal.totals() == player_totals(journal.games()) and len(journal.totals()) >= 5


# short games (The Cloud Mine, two tables of players; a Cloudship crew) keep the fsyncs few
QUICK = [SETUPS[0], {"game": "cloudmine", "players": ["Eve", "Ann", "Fay"]}, SETUPS[2]]


@hyp_settings(max_examples=10, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 2), st.integers(0, 50), st.sampled_from(["end", "undo-end", "stop"])),
        min_size=1,
        max_size=5,
    )
)
def test_totals_always_match_the_games(tmp_path_factory, plan):
    """Whatever happens to games (finished, an end taken back, stopped), the totals kept by the
    triggers are the totals computed from the games themselves."""
    path = tmp_path_factory.mktemp("years") / "journal.sqlite3"
    with Journal.open(path) as journal:
        for which, seed, fate in plan:
            setup = QUICK[which]
            actions = finished(setup, seed)
            if fate == "stop":
                actions = actions[: len(actions) // 2]
            ref, match = play(journal, actions, setup)
            if fate == "undo-end":
                undone = match.apply({"act": "undo"})
                assert journal.append(ref, {"act": "undo"}, undone)
            if fate == "stop":
                journal.abandon(ref)
        assert journal.totals() == player_totals(journal.games())


def test_the_history_pages_are_slices_of_the_whole(tmp_path):
    path = tmp_path / "journal.sqlite3"
    build_history(path, games=40)
    with Journal.open(path) as journal:
        everything = journal.games()
        assert journal.count_games() == 40 == len(everything)
        assert [g.started_at for g in everything] == sorted((g.started_at for g in everything), reverse=True)
        pages = [journal.games(limit=3, offset=n) for n in range(0, 42, 3)]
        assert [g for page in pages for g in page] == everything
        assert journal.totals() == player_totals(everything)


def test_pages_and_totals_are_read_from_indexes_not_by_sorting_the_history(tmp_path):
    path = tmp_path / "journal.sqlite3"
    build_history(path, games=30)
    conn = sqlite3.connect(path)
    page = " ".join(
        row[3]
        for row in conn.execute("EXPLAIN QUERY PLAN SELECT id FROM games ORDER BY started_at DESC, id DESC LIMIT 4")
    )
    assert "games_by_start" in page and "TEMP B-TREE" not in page
    totals = " ".join(
        row[3]
        for row in conn.execute(
            "EXPLAIN QUERY PLAN SELECT name, game, max(title), count(*), sum(won), sum(score), max(score) "
            "FROM results GROUP BY game, name"
        )
    )
    assert "COVERING INDEX results_by_player" in totals


def traced_connect(calls: list):
    def open_(path, readonly):
        conn = connect(path, readonly)
        conn.set_trace_callback(lambda sql: calls.append((threading.current_thread().name, sql)))
        return conn

    return open_


def test_the_whole_file_check_runs_off_the_app_thread(tmp_path):
    path = tmp_path / "journal.sqlite3"
    build_history(path, games=20)
    calls: list = []
    journal = Journal.open(path, connect=traced_connect(calls))
    journal.check_thread.join(30)
    journal.close()
    whole = [thread for thread, sql in calls if sql.strip() == "PRAGMA quick_check"]
    assert whole == ["journal-check"]  # once, and never on the thread that draws the screen
    on_main = [sql for thread, sql in calls if thread == threading.current_thread().name and "quick_check" in sql]
    assert on_main and all("quick_check(" in sql for sql in on_main)  # the small tables only


def damage_the_actions_table(path: Path) -> None:
    conn = sqlite3.connect(path)
    root = conn.execute("SELECT rootpage FROM sqlite_schema WHERE name = 'actions'").fetchone()[0]
    page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    conn.close()
    data = bytearray(path.read_bytes())
    data[(root - 1) * page_size : (root - 1) * page_size + 8] = b"\xff" * 8
    path.write_bytes(bytes(data))


def test_damage_found_in_the_background_is_told_and_set_aside_at_the_next_start(tmp_path):
    path = tmp_path / "journal.sqlite3"
    build_history(path, games=30)
    damage_the_actions_table(path)
    heard: list[str] = []
    journal = Journal.open(path)
    journal.on_damage = heard.append
    assert journal.messages == []  # the start was not held up: the small tables are fine
    journal.check_thread.join(30)
    assert journal.damage and "Back it up now" in journal.damage
    journal.close()
    assert path.with_name("journal.sqlite3.damaged").exists()
    again = Journal.open(path)  # the whole file is checked first now, and set aside
    try:
        assert again.messages and "could not be used" in again.messages[0]
        assert again.count_games() == 0 and list(tmp_path.glob("journal.sqlite3.broken-*"))
        assert not path.with_name("journal.sqlite3.damaged").exists()
    finally:
        again.close()


def test_the_years_bench_reports_its_figures():
    from companion.appliance.bench import bench

    figures = bench(games=30)  # the real bench builds 10,000: the same code, smaller
    assert set(figures) == {
        "journal.history_first_page_30_ms",
        "journal.totals_30_ms",
        "ui.start_to_first_frame_30_s",
        "ui.start_to_journal_ready_30_s",
    }
    assert all(value > 0 for value in figures.values())
    assert figures["ui.start_to_journal_ready_30_s"] >= figures["ui.start_to_first_frame_30_s"]
