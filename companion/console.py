"""How every `cloud-companion` command talks on the terminal: one-line messages that start with
the program's name, and a reader that goes away treated the way standard Unix tools treat it."""

from __future__ import annotations

import argparse
import errno
import os
import sys

PROG = "cloud-companion"
EXIT_CLOSED_PIPE = 141  # 128 + SIGPIPE: what the shell reports for `yes | head -1`'s yes
# a write that failed for want of room or a working disk, not for a mistake in the command
WRITE_FAILURES = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO}


def command() -> str:
    """How a person calls this program again: its name where the PATH finds it, else the path
    it was started by (`.venv/bin/cloud-companion` in a checkout whose venv is not on the PATH)."""
    import shutil

    started = sys.argv[0] if sys.argv and os.path.basename(sys.argv[0]) == PROG else PROG
    if shutil.which(PROG) or os.sep not in started:
        return PROG
    return started


def say(message: str) -> None:
    """One line on stderr, naming the program (the system log shows whose line it is)."""
    print(f"{PROG}: {message}", file=sys.stderr, flush=True)


def fail(message: str, code: int = 1) -> int:
    say(message)
    return code


def closed_pipe() -> int:
    """The reader of stdout went away (`cloud-companion history | head -1`): stop quietly.

    Like a standard tool stopped by SIGPIPE: no message, exit 141. stdout is pointed at
    /dev/null so that Python's last flush at exit does not complain either.
    """
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # stdout has no descriptor (captured in tests)
        pass
    return EXIT_CLOSED_PIPE


def _discard_stdout() -> None:
    """Point stdout at /dev/null, so what is still buffered goes nowhere at exit, quietly."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # stdout has no descriptor (captured in tests)
        pass


def stdout_failure() -> OSError | None:
    """The error that writing stdout's buffered output gives (a full disk), or None if it went out."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        return exc
    except ValueError:  # stdout was closed
        return None
    return None


def is_write_failure(exc: OSError) -> bool:
    return exc.errno in WRITE_FAILURES


def cannot_write_output(exc: OSError) -> int:
    """The output cannot be written (`> /dev/full`): one line, exit 1, nothing more at exit."""
    _discard_stdout()
    where = f" {exc.filename}" if exc.filename else " the output"
    return fail(f"cannot write{where}: {exc.strerror or exc}")


class OneLineParser(argparse.ArgumentParser):
    """argparse reporting a wrong command line in one line of our own instead of its usage block:
    `cloud-companion: odds cloudship: the following arguments are required: --state (see
    cloud-companion odds cloudship --help)`. Subcommands' parsers are made of this class too."""

    def error(self, message: str):
        command = self.prog.removeprefix(PROG).strip()
        where = f"{command}: " if command else ""
        self.exit(2, f"{PROG}: {where}{message} (see {self.prog} --help)\n")

    def _print_message(self, message: str, file=None) -> None:
        # argparse's own ignores a failed write; --help into a full disk must say so
        if not message:
            return
        file = file or sys.stderr
        try:
            file.write(message)
            file.flush()
        except BrokenPipeError:  # `--help | true`: the reader has gone, as argparse lets it go
            if file is sys.stdout:
                _discard_stdout()
