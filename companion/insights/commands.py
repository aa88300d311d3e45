"""The insights' subcommands: `odds` and `simulate`."""

from __future__ import annotations

import argparse
import json
import sys

from .odds import OddsError, rise_chance


def register(sub: argparse._SubParsersAction) -> None:
    odds = sub.add_parser("odds", help="exact odds: can the Cloud 9 pilot rise? will the Cloudship beat the storm?")
    games = odds.add_subparsers(dest="game", required=True)
    c9 = games.add_parser("cloud9", help='the chance the pilot can make the balloon rise, as {"rise": p}')
    c9.add_argument("--roll", required=True, help="the dice, comma-separated: red,green,blank")
    c9.add_argument("--hand", required=True, help="how many cards the pilot holds")
    c9.add_argument("--played", default="",
                    help="cards seen face up since the last reshuffle: red=3,wild=1,...")
    c9.set_defaults(func=cmd_odds_cloud9)


def _fail(message: str) -> int:
    print(message, file=sys.stderr)
    return 1


def _whole(text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise OddsError(f"{what} must be a whole number, not {text!r}") from None


def parse_played(text: str) -> dict[str, int]:
    """"red=3,wild=1" -> {"red": 3, "wild": 1}; a kind named twice adds up."""
    played: dict[str, int] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        kind, sep, count = item.partition("=")
        if not sep:
            raise OddsError(f"--played: {item!r} should read colour=count, like red=3")
        kind = kind.strip()
        played[kind] = played.get(kind, 0) + _whole(count.strip(), f"--played {kind}")
    return played


def cmd_odds_cloud9(args: argparse.Namespace) -> int:
    try:
        roll = [face.strip() for face in args.roll.split(",") if face.strip()]
        if not roll:
            raise OddsError("--roll needs the dice, like red,green,blank")
        hand = _whole(args.hand, "--hand")
        p = rise_chance(roll, hand, parse_played(args.played))
    except OddsError as exc:
        return _fail(str(exc))
    print(json.dumps({"rise": p}))
    return 0
