"""`cloud-companion doctor`, `report`, `backup` and `restore`."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..console import say


def register(sub: argparse._SubParsersAction) -> None:
    doctor = sub.add_parser(
        "doctor",
        help="check the display, touch, sound, pins, ship, journal and service",
        description="Check everything the companion needs and say what to do about "
        "each problem. Exit 1 when something it needs is missing.",
    )
    doctor.add_argument("--json", action="store_true", help="print JSON")
    doctor.add_argument("--db", type=Path, metavar="PATH", help="the journal file (default: the user's)")
    doctor.add_argument("--config", type=Path, metavar="PATH", help="the settings file (default: the user's)")
    doctor.set_defaults(func=cmd_doctor)
    report = sub.add_parser(
        "report",
        help="write doctor's findings and the recent log into one file, for a bug report",
        description="Write one text file with the version, doctor's findings and the app's "
        "log since boot (journalctl -u cloud-companion -b), to attach to a bug report.",
    )
    report.add_argument("--out", type=Path, metavar="FILE", help="the file (default: cloud-companion-report-TIME.txt)")
    report.add_argument("--db", type=Path, metavar="PATH", help="the journal file (default: the user's)")
    report.add_argument("--config", type=Path, metavar="PATH", help="the settings file (default: the user's)")
    report.set_defaults(func=cmd_report)
    backup = sub.add_parser(
        "backup",
        help="copy the journal into a folder (a USB stick), even while the app runs",
        description="Copy every game into DIR as journal-YYYYMMDD-HHMMSS.sqlite3 "
        "(SQLite's online backup: consistent while a game goes on).",
    )
    backup.add_argument("dir", type=Path, help="the folder to put the copy in")
    backup.add_argument("--db", type=Path, metavar="PATH", help="the journal file (default: the user's)")
    backup.add_argument(
        "--config", type=Path, metavar="PATH", help="the settings file copied beside it (default: the user's)"
    )
    backup.set_defaults(func=cmd_backup)
    restore = sub.add_parser(
        "restore",
        help="put a backup back in place of the journal (the current one is kept)",
        description="Replace the journal with a backup. The current journal is "
        "renamed journal.sqlite3.before-restore-... first. Quit the app first.",
    )
    restore.add_argument("file", type=Path, help="the backup file (journal-....sqlite3)")
    restore.add_argument("--db", type=Path, metavar="PATH", help="the journal file (default: the user's)")
    restore.add_argument(
        "--config",
        type=Path,
        metavar="PATH",
        help="where the backup's settings go, if it holds any (default: the user's)",
    )
    restore.set_defaults(func=cmd_restore)


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


LOG_LINES = 400


def recent_log(lines: int = LOG_LINES) -> str:
    """The app's log since boot from systemd's journal, or why there is none."""
    import shutil
    import subprocess

    journalctl = shutil.which("journalctl")
    if journalctl is None:
        return "(no journalctl here)"
    try:
        run = subprocess.run(
            [journalctl, "-u", "cloud-companion", "-b", "--no-pager", "-o", "short-iso", "-n", str(lines)],
            capture_output=True,
            text=True,
            timeout=60,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"(journalctl failed: {exc})"
    return run.stdout.strip() or run.stderr.strip() or "(no entries)"


def report_text(checks, log: str) -> str:
    import platform

    from ..cli import version
    from .doctor import as_text

    return (
        f"Cloud Companion {version()}\n{platform.platform()}, Python {platform.python_version()}\n\n"
        f"== cloud-companion doctor ==\n{as_text(checks)}\n\n"
        f"== journalctl -u cloud-companion -b (the last {LOG_LINES} lines) ==\n{log}\n"
    )


def cmd_report(args: argparse.Namespace) -> int:
    import time

    from .. import config as settings
    from ..journal.journal import default_path as default_journal
    from .doctor import run_checks

    checks = run_checks(args.config or settings.default_path(), args.db or default_journal())
    out = args.out or Path(time.strftime("cloud-companion-report-%Y%m%d-%H%M%S.txt"))
    try:
        out.write_text(report_text(checks, recent_log()))
    except OSError as exc:
        say(f"cannot write the report to {out}: {exc.strerror or exc} (give a folder you may write to: --out FILE)")
        return 1
    print(f"report written to {out}: attach it to your bug report")
    return 0


def cmd_backup(args: argparse.Namespace) -> int:
    from .. import config as settings
    from ..journal.journal import default_path
    from .backup import BackupError, backup

    try:
        copied = backup(args.db or default_path(), args.dir, settings=args.config or settings.default_path())
    except BackupError as exc:
        say(str(exc))
        return 1
    with_settings = (
        f" and the settings to {copied.settings}" if copied.settings else " (there is no settings file to copy)"
    )
    print(f"backed up {copied.games} games to {copied.path}{with_settings}")
    return 0


def cmd_restore(args: argparse.Namespace) -> int:
    from .. import config as settings
    from ..journal import JournalBusy
    from ..journal.follow import EXIT_BUSY
    from ..journal.journal import default_path
    from .backup import BackupError, restore

    try:
        copied, kept = restore(args.file, args.db or default_path(), settings=args.config or settings.default_path())
    except JournalBusy as exc:
        say(f"{exc} (on the Pi: sudo systemctl stop cloud-companion)")
        return EXIT_BUSY
    except BackupError as exc:
        say(str(exc))
        return 1
    aside = f"; the journal it replaced is kept as {kept}" if kept else ""
    print(f"restored {copied.games} games from {args.file} into {copied.path}{aside}")
    if copied.settings is not None:
        kept_settings = f" (the file it replaced is kept as {copied.settings_kept})" if copied.settings_kept else ""
        print(f"and the settings into {copied.settings}{kept_settings}: restart the app to use them")
    else:
        print("the backup holds no settings: the current settings stay")
    return 0
