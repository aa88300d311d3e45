"""`python -m companion.live [--db PATH] [--config PATH] [...]`: what the live page's unit runs.

The same command as `cloud-companion live`, without the whole command line's parser: that one
registers every command and with them loads pygame and the app, memory and a boot's seconds
that a page switched off (at boot, beside the app's first frame) has no use for.
"""

from __future__ import annotations

import argparse
import sys

from .commands import register


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="cloud-companion")
    register(parser.add_subparsers(dest="command", required=True), name_default=False)
    args = parser.parse_args(["live", *(sys.argv[1:] if argv is None else argv)])
    return args.func(args)


if __name__ == "__main__":
    sys.exit(main())
