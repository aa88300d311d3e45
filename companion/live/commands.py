"""`cloud-companion live`: the live page for the TV and phones, in the foreground (what its
systemd unit runs)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def _port(text: str) -> int:
    try:
        port = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"the port must be a whole number, not {text!r}") from None
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"the port must be from 1 to 65535, not {port}")
    return port


def register(sub: argparse._SubParsersAction, name_default: bool = True) -> None:
    """`name_default`: say the journal's default path in the help (that loads the journal's
    code, which the unit's `python -m companion.live` leaves until it is switched on)."""
    if name_default:
        from ..journal.journal import default_path

        where = str(default_path())
    else:
        where = "the app's own"
    live = sub.add_parser("live", help="serve the live page of the game for the TV and phones on the home network")
    live.add_argument("--db", type=Path, default=None, help=f"the journal file, read-only (default: {where})")
    live.add_argument(
        "--config",
        type=Path,
        default=None,
        help="the settings file: its live switch turns the page on and off (default: the user's)",
    )
    live.add_argument("--host", help="the address to listen on (default: loopback and the home network's)")
    live.add_argument("--port", type=_port, help="the port (default: the settings' live_port, 8019)")
    live.add_argument("--always", action="store_true", help="serve even while the settings' live switch is off")
    live.add_argument(
        "--quiet", action="store_true", help="say nothing while switched off (beside the app in a terminal: make run)"
    )
    # shorter limits, for the tests of slow and silent clients
    live.add_argument("--head-timeout", type=float, help=argparse.SUPPRESS)
    live.add_argument("--write-timeout", type=float, help=argparse.SUPPRESS)
    live.set_defaults(func=cmd_live)


def _default_journal() -> Path:
    # imported only without --db: the unit names its journal, and a page switched off at boot
    # has no use for the journal's code
    from ..journal.journal import default_path

    return default_path()


def _default_config() -> Path:
    from ..config import default_path

    return default_path()


def cmd_live(args: argparse.Namespace) -> int:
    # what a page switched off waits with is light (switch.py); the rest is loaded once it is on
    from ..console import fail
    from .switch import switched_on, until_switched_on

    db = (args.db or _default_journal()).absolute()
    if db.is_dir():
        return fail(f"{db} is a folder, not a journal file")
    config = (args.config or _default_config()).absolute()
    if not args.always and not switched_on(config) and not until_switched_on(config, say=not args.quiet):
        return 0

    # the page serves plain HTTP on the home network: asyncio loads OpenSSL (libssl and libcrypto,
    # 4.5 MiB of the process) only in case a connection wants TLS, and takes its absence in its stride
    sys.modules.setdefault("ssl", None)  # type: ignore[arg-type]
    import asyncio
    import logging

    from .server import CannotListen, Options, serve

    logging.basicConfig(level=logging.WARNING, format="cloud-companion: %(message)s")

    options = Options(db=db, config=config, host=args.host, port=args.port, always=args.always)
    if args.head_timeout:
        options.head_timeout = args.head_timeout
    if args.write_timeout:
        options.write_timeout = args.write_timeout

    try:
        asyncio.run(serve(options))
    except CannotListen as exc:
        return fail(str(exc))
    return 0
