"""The insights' subcommands: `odds` and `simulate`."""

from __future__ import annotations

import argparse
import json
import sys

from .odds import OddsError, rise_chance
from .shipsim import ShipSimulationError, simulate_cloudship
from .simulate import SimulationError, simulate_cloud9


def register(sub: argparse._SubParsersAction) -> None:
    odds = sub.add_parser("odds", help="exact odds: can the Cloud 9 pilot rise? will the Cloudship beat the storm?")
    games = odds.add_subparsers(dest="game", required=True)
    c9 = games.add_parser("cloud9", help='the chance the pilot can make the balloon rise, as {"rise": p}')
    c9.add_argument("--roll", required=True, help="the dice, comma-separated: red,green,blank")
    c9.add_argument("--hand", required=True, help="how many cards the pilot holds")
    c9.add_argument("--played", default="",
                    help="cards seen face up since the last reshuffle: red=3,wild=1,...")
    c9.set_defaults(func=cmd_odds_cloud9)

    simulate = sub.add_parser("simulate", help="play many games between bots and print the figures as JSON")
    sims = simulate.add_subparsers(dest="game", required=True)
    s9 = sims.add_parser("cloud9", help="Cloud 9 between bots: win rates, game and trip length")
    s9.add_argument("--games", type=int, default=1000, help="how many games (default 1000)")
    s9.add_argument("--bots", default="cautious,bold,odds",
                    help="one bot per seat, 3 to 6 of cautious, bold, odds (default cautious,bold,odds)")
    s9.add_argument("--seed", type=int, default=0, help="the run's seed (default 0)")
    s9.add_argument("--jobs", type=int, default=1, help="processes to play on (the figures do not change)")
    s9.set_defaults(func=cmd_simulate_cloud9)
    ship = sims.add_parser("cloudship", help="Cloudship: the win rate per mode for a crew of a given skill")
    ship.add_argument("--games", type=int, default=1000, help="games per mode (default 1000)")
    ship.add_argument("--skill", type=float, default=0.6,
                      help="the chance a ball lands where it is aimed, 0 to 1 (default 0.6)")
    ship.add_argument("--seed", type=int, default=0, help="the run's seed (default 0)")
    ship.add_argument("--jobs", type=int, default=1, help="processes to play on (the figures do not change)")
    ship.set_defaults(func=cmd_simulate_cloudship)


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


def cmd_simulate_cloud9(args: argparse.Namespace) -> int:
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    try:
        result = simulate_cloud9(bots, args.games, args.seed, args.jobs)
    except SimulationError as exc:
        return _fail(str(exc))
    print(json.dumps(result))
    return 0


def cmd_simulate_cloudship(args: argparse.Namespace) -> int:
    try:
        result = simulate_cloudship(args.games, args.skill, args.seed, args.jobs)
    except ShipSimulationError as exc:
        return _fail(str(exc))
    print(json.dumps(result))
    return 0
