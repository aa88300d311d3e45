"""`cloud-companion judge FILE` (replay a recorded ship stream through the drop judge) and
`cloud-companion ship-sim` (a simulated ship on a pseudo-terminal)."""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from ..console import say

if TYPE_CHECKING:
    from .sim import ShipSimulator
    from .twin.runner import TwinShip
from .records import BadRecord, judge_records, read_records

# a flight log stops at 1 MB: a recording many times that size is no flight (or /dev/zero)
MAX_INPUT_BYTES = 16 * 1024 * 1024


def cmd_judge(args: argparse.Namespace) -> int:
    try:
        if args.file == "-":
            data = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
        else:
            with open(args.file, "rb") as f:
                data = f.read(MAX_INPUT_BYTES + 1)
    except OSError as exc:
        say(f"judge: cannot read {args.file}: {exc.strerror or exc}")
        return 1
    if len(data) > MAX_INPUT_BYTES:
        say(
            f"judge: {args.file}: more than {MAX_INPUT_BYTES // (1024 * 1024)} MiB, too long for a "
            "recording (a flight log is at most 1 MB)"
        )
        return 1
    try:
        records = read_records(data)
    except BadRecord as exc:
        say(f"judge: {args.file}: {exc}")
        return 1
    out = sys.stdout
    try:
        for record in judge_records(records):
            out.write(json.dumps(record) + "\n")
        out.flush()
    except BrokenPipeError:  # `judge FILE | head`: the reader has what it wanted
        sys.stdout = open(os.devnull, "w")
    return 0


MAX_LINGER_S = 3600  # an hour: longer is a typing slip, and time.sleep cannot wait 1e308 s


KEYS_HELP = (
    "keys: f fly, s set down, v b n m over the yellow, purple, white, blue bed, "
    "w a z d tilt the deck (up, left, down, right), j raindrop, k hailstone, x quit"
)
KEY_COMMANDS = {
    "f": ("fly", []),
    "s": ("down", []),
    "j": ("rain", []),
    "k": ("hail", []),
    **{key: ("over", [bed]) for key, bed in zip("vbnm", ("yellow", "purple", "white", "blue"))},
}
# seen from above, the bow to the right: the deck tips so the balls roll that way
KEY_TILTS = {"a": (3.0, 0.0), "d": (-3.0, 0.0), "w": (0.0, -3.0), "z": (0.0, 3.0)}


def cmd_ship_sim(args: argparse.Namespace) -> int:
    from .sim import ScriptError, parse_script, read_script
    from .twin.runner import TwinShip

    if not (math.isfinite(args.linger) and 0 <= args.linger <= MAX_LINGER_S):
        say(f"ship-sim: --linger is seconds from 0 to {MAX_LINGER_S}, not {args.linger}")
        return 1
    script = None
    if args.script:
        try:
            script = read_script(args.script)
            parse_script(script)
        except OSError as exc:
            say(f"ship-sim: cannot read {args.script}: {exc.strerror or exc}")
            return 1
        except ScriptError as exc:
            say(f"ship-sim: {args.script}: {exc}")
            return 1
    sim = TwinShip(seed=args.seed)
    try:
        if args.link:
            try:
                sim.link_at(args.link)
            except OSError as exc:
                say(f"ship-sim: cannot make the link {args.link}: {exc.strerror or exc}")
                return 1
        print(
            f"simulated ship on {sim.path}"
            + (f" (also {args.link})" if args.link else "")
            + f": the twin, its firmware on {sim.interpreter}",
            flush=True,
        )
        sim.start()
        if script is not None:
            sim.run_script(script)
            threading.Event().wait(args.linger)
            return 0
        print(
            KEYS_HELP
            if sys.stdin.isatty()
            else "commands, one a line: "
            + ", ".join(
                [
                    "fly",
                    "down",
                    "over BED",
                    "tilt P R",
                    "rain [BED]",
                    "hail [BED]",
                    "err imu|ball_sensor",
                    "junk TEXT",
                    "silent MS",
                    "hello",
                ]
            ),
            flush=True,
        )
        return _keys(sim) if sys.stdin.isatty() else _commands(sim)
    finally:
        sim.close()
        if args.link and os.path.islink(args.link):
            os.unlink(args.link)


def _keys(sim: ShipSimulator | TwinShip) -> int:
    import termios
    import tty

    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    try:
        tty.setcbreak(fd)
        while True:
            key = sys.stdin.read(1)
            if key in ("x", "", "\x04"):
                return 0
            if key in KEY_TILTS:
                sim.tilt_by(*KEY_TILTS[key])
            elif key in KEY_COMMANDS:
                sim.do(*KEY_COMMANDS[key])
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)


def _commands(sim: ShipSimulator | TwinShip) -> int:
    from .sim import ScriptError, parse_script

    for line in sys.stdin:
        try:
            steps = parse_script("0 " + line if line.split() else "")
        except ScriptError as exc:
            say(f"ship-sim: {str(exc).split(': ', 1)[-1]}")
            continue
        for _at, command, words in steps:
            sim.do(command, words)
    return 0


MAX_DROPS = 10_000


def cmd_twin(args: argparse.Namespace) -> int:
    from .. import config as settings
    from .twin.calibrate import CalibrationRun, row_line, summary_line

    if not 1 <= args.drops <= MAX_DROPS:
        say(f"twin: --drops is 1 to {MAX_DROPS}, not {args.drops}")
        return 1
    config, problems = settings.load(args.config, move_aside=False)
    for problem in problems:
        say(f"twin: {problem}")
    run = CalibrationRun(args.drops, seed=args.seed, config=config, virtual=args.virtual)
    out = sys.stdout
    try:
        if not args.json:
            print(
                f"flying {args.drops} balls through the twin, the link and the judge"
                f"{' on a simulated clock' if args.virtual else ''} "
                f"(judge timings: {', '.join(f'{k} {v}' for k, v in vars(config.judge).items())})",
                flush=True,
            )
        report = run.fly()
        for row in report["drops"]:
            out.write((json.dumps(row) if args.json else row_line(row)) + "\n")
        summary = report["summary"]
        out.write(
            (
                json.dumps({"summary": summary})
                if args.json
                else summary_line(summary) + "\nmargins: " + json.dumps(summary["margins"])
            )
            + "\n"
        )
        out.flush()
    except BrokenPipeError:
        from ..console import closed_pipe

        return closed_pipe()
    except OSError as exc:
        say(f"twin: cannot write the report: {exc.strerror or exc}")
        return 1
    return 0


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    judge = sub.add_parser(
        "judge",
        help="judge a recorded cloud ship stream (JSON Lines) and print the drops, landings, notices and link reports",
    )
    judge.add_argument("file", help="the recording, or - for standard input")
    judge.set_defaults(func=cmd_judge)
    sim = sub.add_parser(
        "ship-sim",
        help="the cloud ship's twin on a pseudo-terminal: the real firmware on a "
        "physical model, flown by keys or by a timed script (set the "
        "ship port to the path it prints)",
    )
    sim.add_argument("--script", metavar="FILE", help="a timed script: one 'MS COMMAND [ARGS]' a line")
    sim.add_argument("--link", metavar="PATH", help="also make PATH a symbolic link to the pty")
    sim.add_argument(
        "--linger", type=float, default=2.0, metavar="S", help="after a script, keep sending this long (default 2 s)"
    )
    sim.add_argument("--seed", type=int, help="seed for the twin (its sensors' noise and bias, the crew's wobble)")
    sim.set_defaults(func=cmd_ship_sim)
    twin = sub.add_parser(
        "twin",
        help="a calibration run: the ship's twin flies N balls through the link and "
        "the judge (with the settings' judge timings); each judged drop beside "
        "what the ball really did, then a summary",
    )
    twin.add_argument("--drops", type=int, default=50, metavar="N", help="how many balls (default 50)")
    twin.add_argument(
        "--seed",
        type=int,
        default=0,
        help="the twin's seed: its sensors' noise and bias, the crew's wobble, where each ball is aimed",
    )
    twin.add_argument("--json", action="store_true", help="one JSON object a drop, the summary last")
    twin.add_argument(
        "--virtual",
        action="store_true",
        help="on a simulated clock: the same twin, firmware and judge, as fast as they run "
        "(thousands of drops in minutes) instead of in real time",
    )
    twin.add_argument("--config", type=Path, help="the settings file whose [judge] timings to try (default: the app's)")
    twin.set_defaults(func=cmd_twin)
