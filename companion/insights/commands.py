"""The insights' subcommands: `odds` and `simulate`."""

from __future__ import annotations

import argparse
import json
import os

from .. import i18n
from ..console import fail, say
from .forecast import DEFAULT_RUNS, MAX_RUNS, NEUTRAL_SKILL, forecast, journal_skill
from .odds import OddsError, rise_chance
from .shipsim import ShipSimulationError, simulate_cloudship
from .simulate import SimulationError, simulate_cloud9


def register(sub: argparse._SubParsersAction) -> None:
    odds = sub.add_parser("odds", help="exact odds: can the Cloud 9 pilot rise? will the Cloudship beat the storm?")
    games = odds.add_subparsers(dest="game", required=True)
    c9 = games.add_parser("cloud9", help='the chance the pilot can make the balloon rise, as {"rise": p}')
    c9.add_argument("--roll", required=True, help="the dice, comma-separated: red,green,blank")
    c9.add_argument("--hand", required=True, help="how many cards the pilot holds")
    c9.add_argument("--played", default="", help="cards seen face up since the last reshuffle: red=3,wild=1,...")
    c9.set_defaults(func=cmd_odds_cloud9)
    ship = games.add_parser("cloudship", help="the storm forecast: the chance of winning, when the storm is due")
    ship.add_argument(
        "--state",
        required=True,
        metavar="FILE.jsonl",
        help="the game so far in the replay format (- for standard input)",
    )
    ship.add_argument(
        "--skill",
        type=float,
        default=None,
        help="the chance a tip of the ship puts the raindrop aimed in its bed, 0 to 1 "
        "(default: learned from the journal's past flights)",
    )
    ship.add_argument("--db", metavar="PATH", default=None, help="the journal to learn the skill from")
    ship.add_argument(
        "--runs", type=int, default=DEFAULT_RUNS, help=f"simulated games, 1 to {MAX_RUNS} (default {DEFAULT_RUNS})"
    )
    ship.add_argument("--seed", type=int, default=0, help="the simulation's seed (default 0)")
    ship.set_defaults(func=cmd_odds_cloudship)

    simulate = sub.add_parser("simulate", help="play many games between bots and print the figures as JSON")
    sims = simulate.add_subparsers(dest="game", required=True)
    s9 = sims.add_parser("cloud9", help="Cloud 9 between bots: win rates, game and trip length")
    s9.add_argument("--games", type=int, default=1000, help="how many games (default 1000)")
    s9.add_argument(
        "--bots",
        default="cautious,bold,odds",
        help="one bot per seat, 3 to 6 of cautious, bold, odds (default cautious,bold,odds)",
    )
    s9.add_argument("--seed", type=int, default=0, help="the run's seed (default 0)")
    s9.add_argument("--jobs", type=int, default=1, help="processes to play on (the figures do not change)")
    s9.set_defaults(func=cmd_simulate_cloud9)
    ship = sims.add_parser("cloudship", help="Cloudship: the win rate per mode for a crew of a given skill")
    ship.add_argument("--games", type=int, default=1000, help="games per mode (default 1000)")
    ship.add_argument(
        "--skill", type=float, default=0.6, help="the chance a ball lands where it is aimed, 0 to 1 (default 0.6)"
    )
    ship.add_argument("--seed", type=int, default=0, help="the run's seed (default 0)")
    ship.add_argument("--jobs", type=int, default=1, help="processes to play on (the figures do not change)")
    ship.set_defaults(func=cmd_simulate_cloudship)

    # the journal's own commands, extended when they are there (its module registers first)
    for name, extend in (("history", _extend_history), ("export", _extend_export)):
        if name in sub.choices:
            try:
                extend(sub.choices[name])
            except argparse.ArgumentError:  # the command grew an option of the same name
                pass


def _extend_export(export: argparse.ArgumentParser) -> None:
    """`export --bgstats FILE`, added to the journal's own `export` command."""
    export.add_argument(
        "--bgstats", metavar="FILE", help="write the finished games (or --game ID) as a BG Stats play file"
    )
    export.add_argument("--location", default="Home", help="where the plays were, for --bgstats (default Home)")
    replay_format = export.get_default("func")

    def cmd_export(args: argparse.Namespace) -> int:
        return cmd_export_bgstats(args) if args.bgstats else replay_format(args)

    export.set_defaults(func=cmd_export)


def _extend_history(history: argparse.ArgumentParser) -> None:
    """`history --records` and `history --plot GAME_ID --out FILE`, added to the journal's own
    `history` command (registered before this module) without touching its code."""
    history.add_argument("--records", action="store_true", help="the table's records per title and player, as JSON")
    history.add_argument("--plot", type=int, metavar="GAME_ID", help="save a picture of that game (with --out)")
    history.add_argument(
        "--recap",
        type=int,
        metavar="GAME_ID",
        help="save that game's recap picture: standings, story, awards (with --out)",
    )
    history.add_argument("--out", metavar="FILE", help="where --plot or --recap writes its PNG")
    history.add_argument(
        "--language", choices=i18n.LANGUAGES, help="the language --recap draws its words in: en (the default), de or hu"
    )
    listing = history.get_default("func")

    def cmd_history(args: argparse.Namespace) -> int:
        if args.plot is not None:
            return cmd_history_plot(args)
        if args.recap is not None:
            return cmd_history_recap(args)
        if args.records:
            return cmd_history_records(args)
        if args.out is not None:
            return fail("--out goes with --plot GAME_ID")
        if args.language is not None:
            return fail("--language goes with --recap GAME_ID")
        return listing(args)

    history.set_defaults(func=cmd_history)


def _whole(text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise OddsError(f"{what} must be a whole number, not {text!r}") from None


def parse_played(text: str) -> dict[str, int]:
    """ "red=3,wild=1" -> {"red": 3, "wild": 1}; a kind named twice adds up."""
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
        return fail(str(exc))
    print(json.dumps({"rise": p}))
    return 0


def worker_count(jobs: int, games: int) -> int:
    """--jobs as asked, but no more processes than cores or games: more only cost memory and
    start-up (a value below 1 is passed on, for the simulation's own message)."""
    if jobs < 1:
        return jobs
    return max(1, min(jobs, os.cpu_count() or 1, games))


def cmd_simulate_cloud9(args: argparse.Namespace) -> int:
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    try:
        result = simulate_cloud9(bots, args.games, args.seed, worker_count(args.jobs, args.games))
    except SimulationError as exc:
        return fail(str(exc))
    print(json.dumps(result))
    return 0


def cmd_simulate_cloudship(args: argparse.Namespace) -> int:
    try:
        result = simulate_cloudship(args.games, args.skill, args.seed, worker_count(args.jobs, args.games))
    except ShipSimulationError as exc:
        return fail(str(exc))
    print(json.dumps(result))
    return 0


def cmd_odds_cloudship(args: argparse.Namespace) -> int:
    from ..replay import CannotRead, NotAGame, replay_file

    try:
        result = replay_file(args.state)
    except CannotRead as exc:
        return fail(str(exc))
    except NotAGame as exc:
        return fail(f"{args.state}: {exc}")
    if result.error_line is not None:
        return fail(f"{args.state}, line {result.error_line}: {result.reason}")
    if result.match.rules.name != "cloudship":
        return fail(f"{args.state} is a game of {result.match.rules.title}, not Cloudship")
    if not 1 <= args.runs <= MAX_RUNS:
        return fail(f"--runs must be 1 to {MAX_RUNS}, not {args.runs}")
    skill, learned = args.skill, "given"
    if skill is None:
        skill, learned = _learned_skill(args.db)
    elif not 0 <= skill <= 1:
        return fail(f"--skill is a chance from 0 to 1, not {skill}")
    out = forecast(result.match.state, skill, args.runs, args.seed).to_json()
    out["skill_from"] = learned
    print(json.dumps(out))
    return 0


def _learned_skill(db: str | None) -> tuple[float, str]:
    """The journal's estimate, or the neutral default when there is no journal to read."""
    from ..journal.errors import JournalError
    from ..journal.journal import Journal

    try:
        journal = Journal.read(db)
    except JournalError as exc:
        say(f"{exc} (using the neutral skill {NEUTRAL_SKILL})")
        return NEUTRAL_SKILL, "default"
    try:
        games = [g for g in journal.games() if g.game == "cloudship"]
        return journal_skill(journal), "journal" if games else "default"
    finally:
        journal.close()


def _read_journal(db):
    from ..journal.journal import Journal

    return Journal.read(db)


def cmd_history_plot(args: argparse.Namespace) -> int:
    from ..journal.errors import JournalError

    if not args.out:
        return fail("--plot needs --out FILE, the PNG to write")
    try:
        with _read_journal(args.db) as journal:
            match = journal.rebuild(args.plot)
    except JournalError as exc:
        return fail(str(exc))
    from ..ui.boards.plots import NoPicture, save_plot

    try:
        path = save_plot(match, args.out)
    except NoPicture as exc:
        return fail(str(exc))
    except Exception as exc:  # pygame.error and OSError: the file could not be written
        return fail(f"cannot write {args.out}: {exc}")
    say(f"game {args.plot} drawn in {path}")
    return 0


def cmd_history_recap(args: argparse.Namespace) -> int:
    from ..journal.errors import JournalError

    if not args.out:
        return fail("--recap needs --out FILE, the PNG to write")
    if os.path.isdir(args.out):
        return fail(f"cannot write {args.out}: it is a folder; give the PNG's file name")
    try:
        with _read_journal(args.db) as journal:
            summary = journal.game(args.recap)
            if summary is None:
                return fail(f"there is no game {args.recap} in {journal.path}")
            match = journal.rebuild(args.recap)
    except JournalError as exc:
        return fail(str(exc))
    from ..ui.boards.recap import save_recap

    was = i18n.current_language()
    try:
        i18n.set_language(args.language or "en")
        path = save_recap(match, args.out, summary.started_at)
    except Exception as exc:  # pygame.error and OSError: the file could not be written
        return fail(f"cannot write {args.out}: {getattr(exc, 'strerror', None) or exc}")
    finally:
        i18n.set_language(was)
    say(f"game {args.recap}'s recap saved in {path}")
    return 0


def cmd_history_records(args: argparse.Namespace) -> int:
    from ..journal.errors import JournalError
    from .records import journal_records, records_json

    try:
        with _read_journal(args.db) as journal:
            records = journal_records(journal, keep=False).records  # looks only: writes no cache
    except JournalError as exc:
        return fail(str(exc))
    print(json.dumps(records_json(records), ensure_ascii=False, indent=2))
    return 0


def cmd_export_bgstats(args: argparse.Namespace) -> int:
    from ..journal.errors import JournalError
    from .bgstats import play_file, write_play_file
    from .records import journal_games

    if args.compact or args.out is not None:
        return fail("--bgstats writes one file of its own: leave out --compact and --out")
    try:
        with _read_journal(args.db) as journal:
            if args.game is not None:
                if journal.game(args.game) is None:
                    return fail(f"there is no game {args.game} in {journal.path}")
                summary, actions = journal.stored(args.game)
                from ..journal.journal import rebuild

                games = [(summary, rebuild(summary.setup, actions, summary.id))]
            else:
                games = journal_games(journal)
    except JournalError as exc:
        return fail(str(exc))
    content = play_file(games, location=args.location)
    if not content["plays"]:
        return fail("no finished game to export" if args.game is None else f"game {args.game} is not finished")
    try:
        write_play_file(args.bgstats, content)
    except OSError as exc:
        return fail(f"cannot write {args.bgstats}: {exc.strerror}")
    say(f"{len(content['plays'])} play(s) written to {args.bgstats}")
    return 0
