"""`export --bgstats`: BG Stats' play file, field by field against a published example.

The example below follows the play file BG Stats itself exported and a user published
(https://pastebin.com/iDbHyBui: its players, locations and games, names masked there and
made up here), with the plays as the app writes them (the fields public importers and
converters read: playerScores with playerRefId, score as a string, winner, startPlayer, ...).
The test holds our file to it: every field the example has, with the same JSON type, and
the same date format.
"""

import json
import re
import subprocess
import sys
import uuid
from datetime import UTC, datetime, timedelta
from itertools import count
from pathlib import Path

import pytest

from companion.insights.bgstats import play_file
from companion.insights.records import journal_games
from companion.journal import Journal
from journaling import play

PUBLISHED_EXAMPLE = json.loads("""
{
 "about": "This is a Play file that can be read by Board Game Stats. If you see this text, try to use a share, export or open-in function to open it with Board Game Stats.",
 "players": [{"uuid": "539921be-d68b-4aa3-96f3-b3b609be7c35", "id": 49, "name": "Alex", "isAnonymous": false,
              "modificationDate": "2019-03-19 14:21:28", "bggUsername": ""}],
 "locations": [{"uuid": "d0bf78b0-44da-4574-8e7b-0c10a06f4d75", "id": 17, "name": "Home",
                "modificationDate": "2019-03-21 22:03:28"}],
 "games": [{"uuid": "1bce2ebf-5a30-4e58-8998-b9b871bf17bf", "id": 43, "name": "A game",
            "modificationDate": "2019-03-21 22:02:33", "cooperative": false, "highestWins": true,
            "noPoints": false, "usesTeams": false, "bggId": 0, "bggYear": 0}],
 "plays": [{"uuid": "0b9b6b0e-4f0c-4bd8-9a43-0c5f5a3f1d11", "modificationDate": "2019-03-21 22:05:10",
            "entryDate": "2019-03-21 22:05:10", "playDate": "2019-03-21 20:30:00", "usesTeams": false,
            "durationMin": 95, "ignored": false, "manualWinner": false, "rounds": 0, "locationRefId": 17,
            "gameRefId": 43, "rating": 0, "scoringSetting": 0, "board": "",
            "playerScores": [{"score": "42", "winner": true, "newPlayer": false, "startPlayer": true,
                              "playerRefId": 49, "rank": 0, "seatOrder": 1, "role": ""}]}],
 "userInfo": {"meRefId": 49}
}
""")
STAMP = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$")
EXAMPLES = Path("companion/examples")


def example(name):
    lines = [json.loads(line) for line in (EXAMPLES / name).read_text(encoding="utf-8").splitlines() if line.strip()]
    return lines[0], lines[1:]


@pytest.fixture(scope="module")
def journal_path(tmp_path_factory):
    """Games journaled one minute per action from a fixed moment (so durations are known)."""
    path = tmp_path_factory.mktemp("bgstats") / "journal.db"
    ticks = count()
    start = datetime(2026, 3, 1, 18, 0, tzinfo=UTC)
    journal = Journal.open(path, clock=lambda: (start + timedelta(minutes=next(ticks))).isoformat())
    for name in [
        "cloud9-four-players-tie-break.jsonl",
        "cloudship-won.jsonl",
        "cloudship-lost.jsonl",
        "cloudmine-six-players.jsonl",
    ]:
        setup, actions = example(name)
        play(journal, actions, setup)
    # an unfinished game is not a play yet
    setup, actions = example("cloudship-won.jsonl")
    play(journal, actions[:5], setup)
    journal.close()
    return path


@pytest.fixture(scope="module")
def exported(journal_path):
    with Journal.read(journal_path) as journal:
        return play_file(journal_games(journal), now="2026-03-02 10:00:00"), journal.games()


def same_shape(ours: dict, theirs: dict, where: str) -> None:
    for key, value in theirs.items():
        assert key in ours, f"{where}: no {key!r}"
        if isinstance(value, bool):
            assert isinstance(ours[key], bool), f"{where}.{key} should be true/false"
        elif isinstance(value, (int, str, list, dict)):
            assert type(ours[key]) is type(value), f"{where}.{key} should be {type(value).__name__}"
        if isinstance(value, str) and STAMP.match(value):
            assert STAMP.match(ours[key]), f"{where}.{key} should read YYYY-MM-DD HH:MM:SS"


def test_every_field_of_the_published_example_is_there_with_its_type(exported):
    ours, _ = exported
    assert set(ours) == set(PUBLISHED_EXAMPLE)
    assert ours["about"] == PUBLISHED_EXAMPLE["about"]
    for section in ("players", "locations", "games", "plays"):
        assert ours[section], section
        for entry in ours[section]:
            same_shape(entry, PUBLISHED_EXAMPLE[section][0], section)
    for entry in ours["plays"]:
        for seat in entry["playerScores"]:
            same_shape(seat, PUBLISHED_EXAMPLE["plays"][0]["playerScores"][0], "playerScores")
    same_shape(ours["userInfo"], PUBLISHED_EXAMPLE["userInfo"], "userInfo")


def test_references_resolve_and_uuids_are_uuids(exported):
    ours, _ = exported
    players = {p["id"] for p in ours["players"]}
    games = {g["id"] for g in ours["games"]}
    locations = {loc["id"] for loc in ours["locations"]}
    for entry in ours["players"] + ours["games"] + ours["locations"] + ours["plays"]:
        uuid.UUID(entry["uuid"])
    assert len({p["uuid"] for p in ours["plays"]}) == len(ours["plays"])
    for entry in ours["plays"]:
        assert entry["gameRefId"] in games and entry["locationRefId"] in locations
        assert {s["playerRefId"] for s in entry["playerScores"]} <= players
    assert ours["userInfo"]["meRefId"] in players


def test_the_plays_say_what_the_journal_says(exported):
    ours, summaries = exported
    finished = sorted((g for g in summaries if g.over), key=lambda g: g.started_at)
    assert len(ours["plays"]) == len(finished) == 4  # the unfinished game is left out
    names = {p["id"]: p["name"] for p in ours["players"]}
    titles = {g["id"]: g for g in ours["games"]}
    for entry, summary in zip(ours["plays"], finished):
        game = titles[entry["gameRefId"]]
        seats = {names[s["playerRefId"]]: s for s in entry["playerScores"]}
        assert list(seats) == summary.players
        assert {n for n, s in seats.items() if s["winner"]} == set(summary.winners)
        assert [s["seatOrder"] for s in entry["playerScores"]] == list(range(1, len(seats) + 1))
        assert sum(s["startPlayer"] for s in entry["playerScores"]) == 1
        assert entry["durationMin"] == summary.actions  # one minute per journaled action
        if game["name"] == "Cloudship":
            assert game["cooperative"] is True
            assert len({s["score"] for s in seats.values()}) == 1  # the crew's flowers
            assert entry["board"] in ("standard", "sunny", "overcast", "dreary", "stormy", "tornado", "partly_cloudy")
        else:
            assert game["cooperative"] is False
            assert {n: int(s["score"]) for n, s in seats.items()} == summary.scores


def test_the_start_player_is_the_setups_first_pilot():
    setup, actions = example("cloud9-four-players-tie-break.jsonl")
    from companion.rules import Match

    match = Match.start(setup)
    for a in actions:
        match = match.apply(a)

    class Summary:
        id, status, started_at, ended_at, updated_at = 1, "over", "2026-03-01T18:00:00+00:00", None, None

    content = play_file([(Summary, match)])
    starter = setup.get("first_pilot") or setup["players"][0]
    names = {p["id"]: p["name"] for p in content["players"]}
    [first] = [names[s["playerRefId"]] for s in content["plays"][0]["playerScores"] if s["startPlayer"]]
    assert first == starter


def test_exporting_twice_gives_the_same_uuids(journal_path):
    with Journal.read(journal_path) as journal:
        one = play_file(journal_games(journal), now="2026-03-02 10:00:00")
        two = play_file(journal_games(journal), now="2026-03-05 10:00:00")
    assert [p["uuid"] for p in one["plays"]] == [p["uuid"] for p in two["plays"]]
    assert [p["uuid"] for p in one["players"]] == [p["uuid"] for p in two["players"]]


def run(*args):
    return subprocess.run(
        [sys.executable, "-m", "companion", "export", *args], capture_output=True, text=True, timeout=60
    )


def test_cli_writes_the_file(journal_path, tmp_path):
    target = tmp_path / "plays.bgsplay"
    out = run("--db", str(journal_path), "--bgstats", str(target), "--location", "Grandma's")
    assert out.returncode == 0, out.stderr
    content = json.loads(target.read_text(encoding="utf-8"))
    assert len(content["plays"]) == 4 and content["locations"][0]["name"] == "Grandma's"
    one = tmp_path / "one.bgsplay"
    assert run("--db", str(journal_path), "--bgstats", str(one), "--game", "2").returncode == 0
    assert len(json.loads(one.read_text(encoding="utf-8"))["plays"]) == 1
    # the replay-format export still works
    assert run("--db", str(journal_path), "--game", "1").stdout.startswith('{"game": "cloud9"')


@pytest.mark.parametrize(
    "args, message",
    [
        (["--game", "5"], "game 5 is not finished"),
        (["--game", "42"], "no game 42"),
        (["--compact"], "leave out --compact"),
    ],
)
def test_cli_refuses_in_one_line(journal_path, tmp_path, args, message):
    out = run("--db", str(journal_path), "--bgstats", str(tmp_path / "x.bgsplay"), *args)
    assert out.returncode == 1 and message in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "x.bgsplay").exists()
