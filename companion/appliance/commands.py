"""`cloud-companion doctor`, `backup` and `restore`."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def register(sub: argparse._SubParsersAction) -> None:
    doctor = sub.add_parser("doctor", help="check the display, touch, sound, pins, ship, journal and service",
                            description="Check everything the companion needs and say what to do about "
                                        "each problem. Exit 1 when something it needs is missing.")
    doctor.add_argument("--json", action="store_true", help="print JSON")
    doctor.add_argument("--db", type=Path, metavar="PATH", help="the journal file (default: the user's)")
    doctor.add_argument("--config", type=Path, metavar="PATH", help="the settings file (default: the user's)")
    doctor.set_defaults(func=cmd_doctor)


def cmd_doctor(args: argparse.Namespace) -> int:
    from .. import config as settings
    from ..journal.journal import default_path as default_journal
    from .doctor import FAIL, as_text, run_checks

    checks = run_checks(args.config or settings.default_path(), args.db or default_journal())
    failed = any(c.status == FAIL for c in checks)
    if args.json:
        print(json.dumps({"ok": not failed, "checks": [c.to_json() for c in checks]}, ensure_ascii=False, indent=2))
    else:
        print(as_text(checks))
    sys.stdout.flush()
    return 1 if failed else 0
