"""How every `cloud-companion` command talks on the terminal: one-line messages that start with
the program's name, and a reader that goes away treated the way standard Unix tools treat it."""

from __future__ import annotations

import os
import sys

PROG = "cloud-companion"
EXIT_CLOSED_PIPE = 141  # 128 + SIGPIPE: what the shell reports for `yes | head -1`'s yes


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
