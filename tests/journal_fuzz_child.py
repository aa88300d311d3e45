"""Run every command that reads a journal against one (damaged) journal, in this one process,
then start the app to its first frame; write what each did as JSON to argv[2].

    python journal_fuzz_child.py JOURNAL REPORT.json WORKDIR

A command that raises out of `cli.main` (a traceback for the user) is recorded with its
traceback; the parent test asserts there is none.
"""

import contextlib
import io
import json
import os
import sys
import traceback

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from companion.cli import main  # noqa: E402


def run(argv):
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
        crash = None
    except SystemExit as exc:
        code, crash = exc.code, None
    except BaseException:  # noqa: BLE001 - exactly what the user would see as a traceback
        code, crash = None, traceback.format_exc()
    return {"argv": argv, "code": code, "stdout": out.getvalue(), "stderr": err.getvalue(), "crash": crash}


def main_child(journal, report, work):
    db = ["--db", journal]
    commands = [
        ["history"],
        ["history", "--json"],
        ["history", "--totals"],
        ["history", "--records"],
        ["export", "--all"],
        ["export", "--all", "--compact"],
        ["export", "--all", "--out", f"{work}/out"],
        ["export", "--bgstats", f"{work}/plays.bgsplay"],
        ["resume"],
        ["export"],
        ["history", "--plot", "1", "--out", f"{work}/plot.png"],
    ]
    results = [run([*argv, *db]) for argv in commands]
    os.makedirs(f"{work}/stick", exist_ok=True)
    results.append(run(["backup", f"{work}/stick", *db]))
    # the app last: it owns the display and the log from here on
    results.append(run(["run", "--windowed", "--first-frame-exit", "--config", f"{work}/settings.toml", *db]))
    with open(report, "w", encoding="utf-8") as f:
        json.dump(results, f)


if __name__ == "__main__":
    main_child(*sys.argv[1:4])
