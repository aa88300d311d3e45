"""`cloud-companion judge FILE` (replay a recorded ship stream through the drop judge)."""

from __future__ import annotations

import argparse
import json
import sys

from .records import BadRecord, judge_records, read_records


def cmd_judge(args: argparse.Namespace) -> int:
    try:
        if args.file == "-":
            data = sys.stdin.buffer.read()
        else:
            with open(args.file, "rb") as f:
                data = f.read()
    except OSError as exc:
        print(f"judge: cannot read {args.file}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    try:
        records = read_records(data)
    except BadRecord as exc:
        print(f"judge: {args.file}: {exc}", file=sys.stderr)
        return 1
    out = sys.stdout
    for record in judge_records(records):
        out.write(json.dumps(record) + "\n")
    out.flush()
    return 0


def register(sub: argparse._SubParsersAction) -> None:
    judge = sub.add_parser("judge", help="judge a recorded cloud ship stream (JSON Lines) and print "
                                         "the drops, landings, notices and link reports")
    judge.add_argument("file", help="the recording, or - for standard input")
    judge.set_defaults(func=cmd_judge)
