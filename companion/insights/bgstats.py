"""The table's finished games as a BG Stats play file (`.bgsplay`), for the family's own log.

BG Stats (the "Board Game Stats" app) opens a JSON file with these lists, each entry with a
numeric `id` that the others refer to and a `uuid` it uses to recognise an entry it has seen:

- `players`: id, uuid, name, isAnonymous, modificationDate, bggUsername
- `locations`: id, uuid, name, modificationDate
- `games`: id, uuid, name, modificationDate, cooperative, highestWins, noPoints, usesTeams,
  bggId, bggYear (0 when not given)
- `plays`: uuid, gameRefId, locationRefId, playDate, entryDate, modificationDate, durationMin,
  ignored, manualWinner, rounds, usesTeams, scoringSetting, rating, board, playerScores:
  one entry per seat with playerRefId, score (a string), winner, newPlayer, startPlayer, rank,
  seatOrder, role
- `userInfo`: meRefId (whose log it is); and an `about` sentence for people who open it.

Dates are local "YYYY-MM-DD HH:MM:SS" strings. Every uuid is derived from the journal (the
game's number and start, a player's name, a title), so exporting the same games again does
not add them twice. Cloudship is cooperative: the whole crew wins or loses together, and
its score is the flowers planted. Only finished games are written.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

from ..rules import Match

ABOUT = (
    "This is a Play file that can be read by Board Game Stats. If you see this text, try to use a "
    "share, export or open-in function to open it with Board Game Stats."
)
NAMESPACE = uuid.uuid5(uuid.NAMESPACE_DNS, "cloud-companion.invalid")
LOCATION_ID = 1

# title -> (name in the log, cooperative, highest score wins)
TITLES = {
    "cloud9": ("Cloud 9", False, True),
    "cloudship": ("Cloudship", True, True),
    "cloudmine": ("The Cloud Mine", False, True),
}
# who starts, per title: the setup's first pilot, commander or Dreamer
STARTER = {"cloud9": "pilot", "cloudship": "commander", "cloudmine": "dreamer"}


def local_stamp(iso: str | None) -> str:
    """An ISO 8601 moment as BG Stats' local "YYYY-MM-DD HH:MM:SS"."""
    if not iso:
        return ""
    moment = datetime.fromisoformat(iso)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone().strftime("%Y-%m-%d %H:%M:%S")


def _minutes(start: str | None, end: str | None) -> int:
    if not start or not end:
        return 0
    return max(0, round((datetime.fromisoformat(end) - datetime.fromisoformat(start)).total_seconds() / 60))


def _uuid(*parts: Any) -> str:
    return str(uuid.uuid5(NAMESPACE, "/".join(map(str, parts))))


def _rounds(match: Match) -> int:
    view = match.view
    return view.get("trip") or view.get("round") or 0


def _starter(match: Match) -> str:
    first = match.rules.setup(match.setup)
    return getattr(first, STARTER[match.rules.name])


def _score(match: Match, name: str) -> int:
    view = match.view
    if match.rules.name == "cloudship":
        return sum(view["beds"].values())
    return view["scores"][name]


def play_file(
    games: Iterable[tuple[Any, Match]], location: str = "Home", me: str | None = None, now: str | None = None
) -> dict[str, Any]:
    """The play file for the finished games among (summary, match) pairs, oldest first.

    `me` names the player whose log it is (default: the one in most plays); `now` is the
    modification date written for players, games and the location (default: now).
    """
    stamp = now or datetime.now().strftime("%Y-%m-%d %H:%M:%S")
    finished = sorted(((s, m) for s, m in games if s.status == "over"), key=lambda g: (g[0].started_at, g[0].id))
    player_ids: dict[str, int] = {}
    game_ids: dict[str, int] = {}
    played_before: dict[str, set[str]] = {}
    plays: list[dict[str, Any]] = []
    for summary, match in finished:
        game = match.rules.name
        game_ids.setdefault(game, len(game_ids) + 1)
        view = match.view
        starter = _starter(match)
        scores = []
        for seat, name in enumerate(view["players"], start=1):
            if name not in player_ids:
                player_ids[name] = len(player_ids) + 1
            new = name not in played_before.setdefault(game, set())  # their first play of it
            played_before[game].add(name)
            scores.append(
                {
                    "playerRefId": player_ids[name],
                    "score": str(_score(match, name)),
                    "winner": name in view["winners"],
                    "newPlayer": new,
                    "startPlayer": name == starter,
                    "rank": 0,
                    "seatOrder": seat,
                    "role": "",
                }
            )
        plays.append(
            {
                "uuid": _uuid("play", summary.id, summary.started_at),
                "gameRefId": game_ids[game],
                "locationRefId": LOCATION_ID,
                "playDate": local_stamp(summary.started_at),
                "entryDate": local_stamp(summary.ended_at or summary.updated_at),
                "modificationDate": local_stamp(summary.updated_at),
                "durationMin": _minutes(summary.started_at, summary.ended_at),
                "ignored": False,
                "manualWinner": False,
                "rounds": _rounds(match),
                "usesTeams": False,
                "scoringSetting": 0,
                "rating": 0,
                "board": match.state.mode if game == "cloudship" else "",
                "playerScores": scores,
            }
        )
    counts = {
        name: sum(1 for p in plays for s in p["playerScores"] if s["playerRefId"] == pid)
        for name, pid in player_ids.items()
    }
    me_name = me if me in player_ids else max(counts, key=lambda n: (counts[n], -player_ids[n]), default=None)
    return {
        "about": ABOUT,
        "players": [
            {
                "id": pid,
                "uuid": _uuid("player", name),
                "name": name,
                "isAnonymous": False,
                "modificationDate": stamp,
                "bggUsername": "",
            }
            for name, pid in player_ids.items()
        ],
        "locations": [
            {"id": LOCATION_ID, "uuid": _uuid("location", location), "name": location, "modificationDate": stamp}
        ],
        "games": [
            {
                "id": gid,
                "uuid": _uuid("game", game),
                "name": TITLES[game][0],
                "modificationDate": stamp,
                "cooperative": TITLES[game][1],
                "highestWins": TITLES[game][2],
                "noPoints": False,
                "usesTeams": False,
                "bggId": 0,
                "bggYear": 0,
            }
            for game, gid in game_ids.items()
        ],
        "plays": plays,
        "userInfo": {"meRefId": player_ids.get(me_name, 0) if me_name else 0},
    }


def write_play_file(path, content: dict[str, Any]) -> None:
    """Write the file whole or not at all (a temporary file renamed over the target, and
    removed if that fails); OSError with the reason in its strerror."""
    import errno
    import os
    import tempfile
    from pathlib import Path

    path = Path(path)
    if path.is_dir():
        raise IsADirectoryError(errno.EISDIR, f"it is a folder: give a file's name, like {path / 'plays.bgsplay'}")
    handle, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(json.dumps(content, ensure_ascii=False, indent=1))
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
