"""The table's records: per title and per player, from the journal's games.

Everything here reads rebuilt games (rules Matches) and returns plain data: the History
screen draws it, the command line prints it, and the plots (companion/ui/plots.py) draw the
series. A game counts once it is over; an unfinished or abandoned game adds nothing.

- per title and player: games, wins (a shared win counts for each), the current streak of
  wins and the longest one (in the order the games were played);
- Cloud 9: the best trip (most points one player scored in one trip) and the highest score;
- Cloudship: wins per mode and the fewest rounds of a won game (the crew plays as one);
- The Cloud Mine: cards taken per role (Dreamer, Chooser, Observer).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

from ..rules import Match


@dataclass
class PlayerRecord:
    name: str
    game: str
    played: int = 0
    won: int = 0
    streak: int = 0          # wins in a row, up to the latest game
    best_streak: int = 0


@dataclass
class TitleRecords:
    game: str
    played: int = 0
    players: dict[str, PlayerRecord] = field(default_factory=dict)
    # Cloud 9
    best_trip: tuple[int, str, int] | None = None      # (points, player, game id)
    best_score: tuple[int, str, int] | None = None     # (points, player, game id)
    # Cloudship
    wins_per_mode: dict[str, int] = field(default_factory=dict)
    played_per_mode: dict[str, int] = field(default_factory=dict)
    fewest_rounds: tuple[int, int] | None = None        # (rounds, game id)
    # The Cloud Mine: role -> player -> cards
    cards_per_role: dict[str, dict[str, int]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"game": self.game, "played": self.played,
                               "players": [vars(p) for p in sorted(self.players.values(),
                                                                    key=lambda p: (-p.won, p.name))]}
        if self.game == "cloud9":
            out["best_trip"] = _named(self.best_trip)
            out["best_score"] = _named(self.best_score)
        elif self.game == "cloudship":
            out["wins_per_mode"] = dict(self.wins_per_mode)
            out["played_per_mode"] = dict(self.played_per_mode)
            out["fewest_rounds"] = (None if self.fewest_rounds is None
                                    else {"rounds": self.fewest_rounds[0], "game_id": self.fewest_rounds[1]})
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
    out, step = [], match.current
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


# --- the records -----------------------------------------------------------------------------------

def table_records(games: Iterable[tuple[Any, Match]]) -> dict[str, TitleRecords]:
    """Records per title from (summary, match) pairs; summaries need .id, .game, .status,
    .winners and .started_at (the journal's GameSummary)."""
    records: dict[str, TitleRecords] = {}
    for summary, match in sorted(games, key=lambda g: (g[0].started_at, g[0].id)):
        if summary.status != "over":
            continue
        title = records.setdefault(summary.game, TitleRecords(summary.game))
        title.played += 1
        view = match.view
        for name in view["players"]:
            player = title.players.setdefault(name, PlayerRecord(name, summary.game))
            player.played += 1
            if name in view["winners"]:
                player.won += 1
                player.streak += 1
                player.best_streak = max(player.best_streak, player.streak)
            else:
                player.streak = 0
        _GAME_RECORDS[summary.game](title, summary.id, match)
    return records


def _cloud9(title: TitleRecords, game_id: int, match: Match) -> None:
    for name, series in cloud9_scores_by_trip(match).items():
        trip_best = max((b - a for a, b in zip(series, series[1:])), default=0)
        if title.best_trip is None or trip_best > title.best_trip[0]:
            title.best_trip = (trip_best, name, game_id)
        if title.best_score is None or series[-1] > title.best_score[0]:
            title.best_score = (series[-1], name, game_id)


def _cloudship(title: TitleRecords, game_id: int, match: Match) -> None:
    state = match.state
    title.played_per_mode[state.mode] = title.played_per_mode.get(state.mode, 0) + 1
    if state.result == "won":
        title.wins_per_mode[state.mode] = title.wins_per_mode.get(state.mode, 0) + 1
        if title.fewest_rounds is None or state.round < title.fewest_rounds[0]:
            title.fewest_rounds = (state.round, game_id)


def _cloudmine(title: TitleRecords, game_id: int, match: Match) -> None:
    for role, cards in cloudmine_cards_by_role(match).items():
        mine = title.cards_per_role.setdefault(role, {})
        for name, count in cards.items():
            mine[name] = mine.get(name, 0) + count


_GAME_RECORDS = {"cloud9": _cloud9, "cloudship": _cloudship, "cloudmine": _cloudmine}


def journal_games(journal) -> list[tuple[Any, Match]]:
    """Every game of a journal, rebuilt: (summary, match)."""
    from ..journal.journal import rebuild

    out = []
    for summary in journal.games():
        stored, actions = journal.stored(summary.id)
        out.append((stored, rebuild(stored.setup, actions, stored.id)))
    return out


def records_json(records: dict[str, TitleRecords], order: Sequence[str] = ("cloud9", "cloudship", "cloudmine")) -> list:
    return [records[g].to_json() for g in order if g in records]
