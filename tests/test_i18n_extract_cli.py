"""`python -m companion.i18n.extract` explains itself and refuses a domain it does not know,
touching no catalog either way."""

import subprocess
import sys
from pathlib import Path

I18N = Path(__file__).resolve().parent.parent / "companion" / "i18n"


def catalogs():
    return {p: p.stat().st_mtime_ns for p in I18N.rglob("*.po")}


def extract(*args):
    return subprocess.run(
        [sys.executable, "-m", "companion.i18n.extract", *args], capture_output=True, text=True, timeout=120
    )


def test_help_says_what_it_does_and_changes_nothing():
    before = catalogs()
    run = extract("--help")
    assert run.returncode == 0 and "DOMAIN" in run.stdout and "python -m companion.i18n" in run.stdout
    assert all(domain in run.stdout for domain in ("app", "cloud9", "cloudmine", "cloudship", "rules", "seats"))
    assert catalogs() == before


def test_an_unknown_domain_is_refused_in_one_line_naming_the_domains():
    before = catalogs()
    run = extract("apps")
    assert run.returncode == 2 and run.stdout == ""
    last = run.stderr.strip().splitlines()[-1]
    assert "'apps'" in last and "app, cloud9" in last
    assert catalogs() == before
