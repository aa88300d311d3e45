"""The table's records: per title and per player, from the journal's games.

Everything here reads rebuilt games (rules Matches) and returns plain data: the History
screen draws it, the command line prints it, and the plots (companion/ui/boards/plots.py) draw the
series. A game counts once it is over; an unfinished or abandoned game adds nothing.

- per title and player: games, wins (a shared win counts for each), the current streak of
  wins and the longest one (in the order the games were played);
- Cloud 9: the best trip (most points one player scored in one trip) and the highest score;
- Cloudship: wins per mode and the fewest rounds of a won game (the crew plays as one);
- The Cloud Mine: cards taken per role (Dreamer, Chooser, Observer).
"""

from __future__ import annotations

import copy
import json
import os
import sqlite3
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from itertools import groupby
from operator import itemgetter
from pathlib import Path
from typing import Any

from ..journal.hooks import keep_records_with
from ..rules import Match


@dataclass
class PlayerRecord:
    name: str
    game: str
    played: int = 0
    won: int = 0
    streak: int = 0  # wins in a row, up to the latest game
    best_streak: int = 0


@dataclass
class TitleRecords:
    game: str
    played: int = 0
    players: dict[str, PlayerRecord] = field(default_factory=dict)
    # Cloud 9
    best_trip: tuple[int, str, int] | None = None  # (points, player, game id)
    best_score: tuple[int, str, int] | None = None  # (points, player, game id)
    # Cloudship
    wins_per_mode: dict[str, int] = field(default_factory=dict)
    played_per_mode: dict[str, int] = field(default_factory=dict)
    fewest_rounds: tuple[int, int] | None = None  # (rounds, game id)
    # The Cloud Mine: role -> player -> cards
    cards_per_role: dict[str, dict[str, int]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "game": self.game,
            "played": self.played,
            "players": [vars(p) for p in sorted(self.players.values(), key=lambda p: (-p.won, p.name))],
        }
        if self.game == "cloud9":
            out["best_trip"] = _named(self.best_trip)
            out["best_score"] = _named(self.best_score)
        elif self.game == "cloudship":
            out["wins_per_mode"] = dict(self.wins_per_mode)
            out["played_per_mode"] = dict(self.played_per_mode)
            out["fewest_rounds"] = (
                None
                if self.fewest_rounds is None
                else {"rounds": self.fewest_rounds[0], "game_id": self.fewest_rounds[1]}
            )
        elif self.game == "cloudmine":
            out["cards_per_role"] = {role: dict(cards) for role, cards in self.cards_per_role.items()}
        return out


def _named(record: tuple[int, str, int] | None) -> dict[str, Any] | None:
    if record is None:
        return None
    points, player, game_id = record
    return {"points": points, "player": player, "game_id": game_id}


# --- the series the pictures draw -----------------------------------------------------------------


def states_of(match: Match) -> list[Any]:
    """Every state from the setup to now (undone actions left out)."""
    out = []
    step: Any = match.current  # the match's own steps, from the current one back to the setup
    while step is not None:
        out.append(step.state)
        step = step.before
    return out[::-1]


def cloud9_scores_by_trip(match: Match) -> dict[str, list[int]]:
    """Each player's score at the start and after every trip (the last one as it stands)."""
    states = states_of(match)
    players = states[0].players
    series = {p: [0] for p in players}
    for before, after in zip(states, states[1:]):
        if after.trip != before.trip or (after.over and not before.over):
            for p, score in zip(players, after.scores):
                series[p].append(score)
    last = states[-1]
    if not last.over and last.scores != tuple(series[p][-1] for p in players):
        for p, score in zip(players, last.scores):
            series[p].append(score)
    return series


def cloudship_storm_and_flowers(match: Match) -> list[tuple[int, int, int]]:
    """(round, storm square, flowers planted) at the start and at the end of every round."""
    states = states_of(match)
    out = [(1, states[0].storm, sum(states[0].beds))]
    for before, after in zip(states, states[1:]):
        if after.round != before.round or (after.phase == "over" and before.phase != "over"):
            out.append((before.round, after.storm, sum(after.beds)))
    return out


def cloudmine_cards_by_role(match: Match) -> dict[str, dict[str, int]]:
    """Cards each player took as Dreamer, as Chooser and as Observer, round by round."""
    states = states_of(match)
    roles: dict[str, dict[str, int]] = {"dreamer": {}, "chooser": {}, "observer": {}}
    start = states[0]
    for before, after in zip(states, states[1:]):
        if after.round != before.round or (after.over and not before.over):
            for p, old, new in zip(start.players, start.scores, after.scores):
                role = "dreamer" if p == start.dreamer else "chooser" if p == start.chooser else "observer"
                roles[role][p] = roles[role].get(p, 0) + new - old
            start = after
    return roles


# --- the records ---------------------------------------------------------------------------------

# A game's part in the records is what its summary says (players, winners, final scores: the
# journal's results table holds them) plus what only a replay tells (`game_extras`): the best
# trip, the Cloudship's mode, result and rounds, the cards per role. The replay is the slow
# part, so `journal_records` keeps the extras of every finished game in a cache file beside
# the journal and replays only the games it has not seen yet.

Standing = tuple[str, bool, int]  # (name, won, final score), in seat order


def game_extras(game: str, match: Match) -> dict[str, Any]:
    """What only a replay of a finished game tells the records (plain JSON values)."""
    if game == "cloud9":
        return {
            "best_trips": {
                name: max((b - a for a, b in zip(series, series[1:])), default=0)
                for name, series in cloud9_scores_by_trip(match).items()
            }
        }
    if game == "cloudship":
        state = match.state
        return {"mode": state.mode, "won": state.result == "won", "rounds": state.round}
    if game == "cloudmine":
        return {"cards": cloudmine_cards_by_role(match)}
    return {}


def table_records(games: Iterable[tuple[Any, Match]]) -> dict[str, TitleRecords]:
    """Records per title from (summary, match) pairs; summaries need .id, .game, .status
    and .started_at (the journal's GameSummary)."""
    records: dict[str, TitleRecords] = {}
    for summary, match in sorted(games, key=lambda g: (g[0].started_at, g[0].id)):
        if summary.status != "over":
            continue
        view = match.view
        scores = view.get("scores", {})
        standings = [(name, name in view["winners"], scores.get(name, 0)) for name in view["players"]]
        add_game(records, summary.game, summary.id, standings, game_extras(summary.game, match))
    return records


def add_game(
    records: dict[str, TitleRecords],
    game: str,
    game_id: int,
    standings: Sequence[Standing],
    extras: dict[str, Any] | None,
) -> None:
    """Count one finished game (the next in the order played) into the records. `extras`
    is None for a game that no longer replays: it still counts as played and won."""
    # looked up before made: a journal of years passes here tens of thousands of times
    title = records.get(game) or records.setdefault(game, TitleRecords(game))
    title.played += 1
    players = title.players
    for name, won, score in standings:
        player = players.get(name) or players.setdefault(name, PlayerRecord(name, game))
        player.played += 1
        if won:
            player.won += 1
            player.streak += 1
            player.best_streak = max(player.best_streak, player.streak)
        else:
            player.streak = 0
        if game == "cloud9" and (title.best_score is None or score > title.best_score[0]):
            title.best_score = (score, name, game_id)
    if extras is not None:
        _GAME_RECORDS[game](title, game_id, extras)


def _cloud9(title: TitleRecords, game_id: int, extras: dict[str, Any]) -> None:
    for name, trip_best in extras["best_trips"].items():
        if title.best_trip is None or trip_best > title.best_trip[0]:
            title.best_trip = (trip_best, name, game_id)


def _cloudship(title: TitleRecords, game_id: int, extras: dict[str, Any]) -> None:
    mode = extras["mode"]
    title.played_per_mode[mode] = title.played_per_mode.get(mode, 0) + 1
    if extras["won"]:
        title.wins_per_mode[mode] = title.wins_per_mode.get(mode, 0) + 1
        if title.fewest_rounds is None or extras["rounds"] < title.fewest_rounds[0]:
            title.fewest_rounds = (extras["rounds"], game_id)


def _cloudmine(title: TitleRecords, game_id: int, extras: dict[str, Any]) -> None:
    for role, cards in extras["cards"].items():
        mine = title.cards_per_role.setdefault(role, {})
        for name, count in cards.items():
            mine[name] = mine.get(name, 0) + count


_GAME_RECORDS = {"cloud9": _cloud9, "cloudship": _cloudship, "cloudmine": _cloudmine}


def journal_games(journal) -> list[tuple[Any, Match]]:
    """Every game of a journal, rebuilt: (summary, match). Slow on a long history (every
    action of every game replayed): the records use `journal_records`."""
    from ..journal.journal import rebuild

    out = []
    for summary in journal.games():
        stored, actions = journal.stored(summary.id)
        out.append((stored, rebuild(stored.setup, actions, stored.id)))
    return out


# --- the records of a journal, fast ---------------------------------------------------------------

CACHE_VERSION = 1


@dataclass
class JournalRecords:
    records: dict[str, TitleRecords]
    latest: dict[str, int]  # title -> the id of its most recently played finished game
    replayed: int  # games replayed this time (not found in the cache)
    changes: int | None = None  # the journal's count of changes they describe (None: unknown)
    last: list | None = None  # [start, id] of the last game counted
    pending: int = 0  # finished games counted without their extras, still to be replayed
    missing: list[int] = field(default_factory=list)  # those games' ids


def cache_path(journal_path: Path) -> Path:
    """The records' cache beside the journal (it goes with the journal it describes)."""
    return journal_path.with_name(journal_path.name + ".records.json")


# --- the records kept in the journal as games end -------------------------------------------------
#
# The journal's meta row 'records' holds the records as they stand (every counter, the streaks
# included), the count of changes of the results and extras they describe ('results_changes',
# bumped by the journal's triggers), the last game they counted and the records before it. A
# game that ends after the last one counted is added to them in the commit of the action that
# ended it; the end of that last game undone gives back the records before it; anything else
# (a game of long ago resumed and ended, a journal written by an older version) leaves them
# stale, and the next visit works them out from the tables and keeps them again.

KEPT_KEY = "records"
KEPT_VERSION = 1


def _title_state(title: TitleRecords) -> dict[str, Any]:
    out = dict(vars(title))
    out["players"] = {name: vars(p) for name, p in title.players.items()}
    return out


def _title_from(state: dict[str, Any]) -> TitleRecords:
    state = copy.deepcopy(state)  # its own counters: the state may be kept as the records before
    players = {name: PlayerRecord(**p) for name, p in state.pop("players").items()}
    for key in ("best_trip", "best_score", "fewest_rounds"):
        if state.get(key) is not None:
            state[key] = tuple(state[key])
    return TitleRecords(players=players, **state)


def kept_state(
    records: dict[str, TitleRecords], latest: dict[str, int], changes: int, last: list | None, prev: dict | None = None
) -> dict[str, Any]:
    return {
        "version": KEPT_VERSION,
        "changes": changes,
        "last": last,
        "prev": prev,
        "records": {g: _title_state(t) for g, t in records.items()},
        "latest": latest,
    }


def _kept_from(state: Any) -> tuple[dict[str, TitleRecords], dict[str, int]] | None:
    """The records and latest games of a kept state, or None if it is not one we wrote."""
    try:
        records = {g: _title_from(t) for g, t in state.get("records", {}).items()}
        latest = {g: int(i) for g, i in state.get("latest", {}).items()}
    except (AttributeError, TypeError, ValueError):
        return None
    return records, latest


def _read_kept(store) -> dict[str, Any] | None:
    raw = store.meta(KEPT_KEY)
    try:
        state = json.loads(raw) if raw else None
    except (ValueError, RecursionError):
        return None
    if isinstance(state, dict) and state.get("version") == KEPT_VERSION and isinstance(state.get("changes"), int):
        return state
    return None


def _write_kept(store, state: dict[str, Any]) -> None:
    store.conn.execute(
        "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        (KEPT_KEY, json.dumps(state, ensure_ascii=False)),
    )


def keep_after_end(store, game_id: int, ended: bool, changes_before: int | None) -> None:
    """The journal's writer, in the commit where a game became over (`ended`) or stopped
    being over (its end undone): bring the kept records up to date, or leave them stale."""
    state = _read_kept(store)
    if state is None or changes_before is None or state["changes"] != changes_before:
        return  # already stale: the next visit works them out
    changes = store.changes()
    row = store.conn.execute("SELECT game, started_at FROM games WHERE id = ?", (game_id,)).fetchone()
    key = [row[1], game_id]
    if not ended:
        prev = state.get("prev")
        if state.get("last") == key and isinstance(prev, dict):
            _write_kept(store, {**prev, "changes": changes, "prev": None})
        return
    last = state.get("last")
    if last is not None and tuple(key) <= tuple(last):
        return  # an older game ended now: its place in the streaks is not at the end
    kept = _kept_from(state)
    extras_row = store.conn.execute(
        "SELECT data FROM extras AS e JOIN games AS g ON g.id = e.game_id "
        "WHERE e.game_id = ? AND e.actions = g.actions",
        (game_id,),
    ).fetchone()
    if kept is None or extras_row is None:
        return
    records, latest = kept
    extras = json.loads(extras_row[0]) if extras_row[0] is not None else None
    standings = store.conn.execute(
        "SELECT name, won, score FROM results WHERE game_id = ? ORDER BY rowid", (game_id,)
    ).fetchall()
    add_game(records, row[0], game_id, [(n, bool(w), s) for n, w, s in standings], extras)
    latest[row[0]] = game_id
    before = {k: v for k, v in state.items() if k != "prev"}
    _write_kept(store, kept_state(records, latest, changes, key, prev=before))


def journal_records(journal, cache: Path | None = None, keep: bool = True) -> JournalRecords:
    """The table's records: those the journal keeps as games end when they are up to date
    (one row read), else worked out by `replayed_records` and kept again where the journal
    is its writer's."""
    found = kept_records(journal)
    return found if found is not None else replayed_records(journal, cache, keep)


def kept_records(journal) -> JournalRecords | None:
    """The records the journal keeps, if they are up to date (one row read), else None."""
    store = journal.store() if hasattr(journal, "store") else None
    if store is None:
        return None
    try:
        changes = store.changes()
        state = _read_kept(store)
    except sqlite3.DatabaseError:
        return None
    if state is not None and changes is not None and state["changes"] == changes:
        kept = _kept_from(state)
        if kept is not None:
            return JournalRecords(kept[0], kept[1], 0, changes, state.get("last"))
    return None


def known_records_at(path: Path) -> JournalRecords:
    """The records as far as the journal's tables and the cache beside it tell them, nothing
    replayed and nothing written (a worker's connection of its own, as `worked_out_records`):
    every finished game counted with its players' results, those whose extras are not known
    yet without them (`pending` says how many). A few hundred milliseconds on 10,000 games,
    where replaying what is missing may take a minute on a Pi."""
    from ..journal.journal import Journal

    with Journal.read(path) as reader:
        return replayed_records(reader, keep=False, replay=False)


def worked_out_records(path: Path, replayed: Mapping[int, tuple[int, Any]] | None = None) -> JournalRecords:
    """The records worked out from scratch on a journal's file, through a connection of this
    thread's own that writes nothing in it (a worker's, while the app holds the writer): the
    cache beside it is written, the records are for the writer to keep (`keep_worked_out`).
    `replayed` holds extras already replayed elsewhere (`replayed_extras`)."""
    from ..journal.journal import Journal

    with Journal.read(path) as reader:
        return replayed_records(reader, keep=True, replayed=replayed)


def replayed_extras(path: Path, game_ids: Sequence[int]) -> dict[int, tuple[int, Any]]:
    """Each game's number of actions and what only its replay tells (`game_extras`), through
    a connection of its own: one process's share of a long replay. A game that no longer
    replays is left out (the records count it without its extras)."""
    from ..journal.errors import JournalError
    from ..journal.journal import Journal, rebuild

    found: dict[int, tuple[int, Any]] = {}
    with Journal.read(path) as reader:
        for game_id in game_ids:
            try:
                summary, actions = reader.stored(game_id)
                found[game_id] = (len(actions), game_extras(summary.game, rebuild(summary.setup, actions, game_id)))
            except JournalError:
                pass
    return found


def keep_worked_out(journal, found: JournalRecords) -> bool:
    """The writer keeps records a worker worked out, if the journal has not changed since (one
    row written); False when it has (or cannot keep them): the next visit works them out again."""
    store = journal.store(writing=True) if hasattr(journal, "store") else None
    if store is None or found.changes is None:
        return False
    try:
        with store._transaction():
            if store.changes() != found.changes:
                return False
            _write_kept(store, kept_state(found.records, found.latest, found.changes, found.last))
    except sqlite3.Error:  # a full or read-only disk: the records are right, only slower next time
        return False
    return True


def _journaled_extras(journal) -> dict[int, Any]:
    """The extras the journal holds for its finished games, as they stand (game id -> extras)."""
    store = journal.store() if hasattr(journal, "store") else None
    if store is None:
        return {}
    try:
        rows = store.conn.execute(
            "SELECT e.game_id, e.data FROM extras AS e JOIN games AS g ON g.id = e.game_id "
            "WHERE e.actions = g.actions AND g.status = 'over'"
        ).fetchall()
    except sqlite3.OperationalError:  # no such table: a journal older than the kept records
        return {}
    found = {}
    for game_id, data in rows:
        try:
            found[game_id] = json.loads(data) if data is not None else None
        except (TypeError, ValueError, RecursionError):
            pass
    return found


def _keep_in_journal(journal, records, latest, last, replayed_extras: dict[int, Any]) -> None:
    """The writer keeps what a visit worked out: the extras it replayed, then the records."""
    store = journal.store(writing=True) if hasattr(journal, "store") else None
    if store is None:
        return
    try:
        with store._transaction() as db:
            if store.changes() is None:  # a damaged count starts again, with the records kept now
                db.execute(
                    "INSERT INTO meta (key, value) VALUES ('results_changes', '0') "
                    "ON CONFLICT (key) DO UPDATE SET value = excluded.value"
                )
            for game_id, (actions, extras) in replayed_extras.items():
                db.execute(
                    "INSERT OR REPLACE INTO extras (game_id, actions, data) VALUES (?, ?, ?)",
                    (game_id, actions, None if extras is None else json.dumps(extras)),
                )
            _write_kept(store, kept_state(records, latest, store.changes(), last))
    except sqlite3.Error:  # a full or read-only disk: the records are right, only slower next time
        pass


def replayed_records(
    journal,
    cache: Path | None = None,
    keep: bool = True,
    replay: bool = True,
    replayed: Mapping[int, tuple[int, Any]] | None = None,
) -> JournalRecords:
    """The table's records from a journal: the players' results from the journal's results
    table (no action read), the replay-only extras from the cache, and a replay of just the
    finished games the cache does not know yet (a game is known by its id, start and number
    of actions: a game that changed is replayed again). The cache is only an accelerator: a
    missing, damaged or unwritable one costs time, never a record. `keep=False` (a command
    that only looks) reads the cache but never writes it: the journal's folder stays as it is.
    `replay=False` replays nothing: a game whose extras are not known counts without them
    (`pending`, `missing`), and nothing is kept (the records are not whole). `replayed` holds
    (number of actions, extras) of games replayed elsewhere: used for a game that still has
    that many actions, instead of replaying it here."""
    from ..journal.errors import JournalError

    store = journal.store() if hasattr(journal, "store") else None
    try:
        changes = store.changes() if store is not None else None  # read before the results they describe
        results = journal.results()
    except sqlite3.DatabaseError as exc:  # a damaged page: one line, never a traceback
        raise JournalError(f"the records cannot be read from {journal.path}: {exc}") from None
    cache = cache if cache is not None else cache_path(Path(journal.path))
    known = _read_cache(cache)
    try:
        journaled = _journaled_extras(journal)
    except sqlite3.DatabaseError:
        journaled = {}
    fresh: dict[str, list] = {}
    records: dict[str, TitleRecords] = {}
    latest: dict[str, int] = {}
    worked_out: dict[int, tuple[int, Any]] = {}
    last = None
    count = 0  # games replayed, here or elsewhere
    missing: list[int] = []
    keep = keep and replay
    for (game_id, game, started, actions), rows in groupby(results, key=itemgetter(0, 1, 2, 3)):
        key = str(game_id)
        last = [started, game_id]
        entry = known.get(key)
        if game_id in journaled and _well_formed(game, journaled[game_id]):
            entry = [started, actions, journaled[game_id]]
        elif not (
            isinstance(entry, list)
            and len(entry) == 3
            and entry[:2] == [started, actions]
            and _well_formed(game, entry[2])
        ):
            if not replay:  # counted now, its extras to come
                missing.append(game_id)
                _count_game(records, latest, game, game_id, rows, None)
                continue
            elsewhere = replayed.get(game_id) if replayed else None
            if elsewhere is not None and elsewhere[0] == actions:
                extras = elsewhere[1]
            else:
                try:
                    extras = game_extras(game, journal.rebuild(game_id))
                except JournalError:
                    extras = None  # no longer replays (or unreadable): counted without its extras
            entry = [started, actions, extras]
            count += 1
        if game_id not in journaled:
            worked_out[game_id] = (actions, entry[2])
        fresh[key] = entry
        _count_game(records, latest, game, game_id, rows, entry[2])
    if keep and (count or len(fresh) != len(known)):
        _write_cache(cache, fresh)
    if keep:
        _keep_in_journal(journal, records, latest, last, worked_out)
    return JournalRecords(records, latest, count, changes, last, len(missing), missing)


def _count_game(
    records: dict[str, TitleRecords], latest: dict[str, int], game: str, game_id: int, rows, extras
) -> None:
    """One finished game's rows of the results table counted into the records."""
    add_game(
        records, game, game_id, [(name, bool(won), score) for name, won, score in (row[4:] for row in rows)], extras
    )
    latest[game] = game_id


def _well_formed(game: str, extras: Any) -> bool:
    """Whether a cached entry's extras have the shape `game_extras` gives (a cache file
    someone edited is replayed, not trusted)."""

    def counts(value: Any) -> bool:
        return isinstance(value, dict) and all(isinstance(n, int) for n in value.values())

    if extras is None:
        return True
    if not isinstance(extras, dict):
        return False
    if game == "cloud9":
        return counts(extras.get("best_trips"))
    if game == "cloudship":
        return (
            isinstance(extras.get("mode"), str)
            and isinstance(extras.get("won"), bool)
            and isinstance(extras.get("rounds"), int)
        )
    if game == "cloudmine":
        cards = extras.get("cards")
        return isinstance(cards, dict) and all(counts(c) for c in cards.values())
    return False


MAX_CACHE_BYTES = 64 * 1024 * 1024  # tens of thousands of games take a few MB


def _read_cache(path: Path) -> dict[str, list]:
    """The cache's games, or {} for one that is missing, damaged, foreign or absurd (too big,
    nested without end): it is only ever an accelerator."""
    try:
        with open(path, "rb") as f:
            raw = f.read(MAX_CACHE_BYTES + 1)
        if len(raw) > MAX_CACHE_BYTES:
            return {}
        data = json.loads(raw.decode("utf-8"))
        if isinstance(data, dict) and data.get("version") == CACHE_VERSION and isinstance(data.get("games"), dict):
            return data["games"]
    except (OSError, ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
        pass
    return {}


def _write_cache(path: Path, games: dict[str, list]) -> None:
    """Written whole to a temporary file, then renamed over the old one: a reader sees the
    old cache or the new one, never half of one."""
    text = json.dumps({"version": CACHE_VERSION, "games": games}, ensure_ascii=False, separators=(",", ":"))
    temporary = None
    try:
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(temporary, path)
    except OSError:  # a read-only or full disk: the records are right, only slower next time
        if temporary is not None:
            with suppress(OSError):
                os.unlink(temporary)


def records_json(records: dict[str, TitleRecords], order: Sequence[str] = ("cloud9", "cloudship", "cloudmine")) -> list:
    return [records[g].to_json() for g in order if g in records]


class _Keeper:
    """The journal's records keeper (journal.hooks.RecordsKeeper): these records."""

    def extras(self, game: str, match: Match) -> Any:
        return game_extras(game, match)

    def after_end(self, store: Any, game_id: int, ended: bool, changes_before: int | None) -> None:
        keep_after_end(store, game_id, ended, changes_before)


keep_records_with(_Keeper())
