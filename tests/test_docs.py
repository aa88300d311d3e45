"""What the README, the manual (docs/) and the man page say is true of the code beside them."""

import argparse
import importlib
import json
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from companion import config
from companion.cli import build_parser

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
README = (ROOT / "README.md").read_text(encoding="utf-8")
PAGES = sorted(DOCS.rglob("*.md"))
MAN_PAGE = DOCS / "man" / "cloud-companion.1"
GAMES = {"Cloud 9": "cloud9", "Cloudship": "cloudship", "The Cloud Mine": "cloudmine"}
# what the code, the tests and the pages may point to must be in this repository
SCANNED = ("companion", "tests", "hardware", "docs")
OUTSIDE = re.compile(r"(\.\./)+shared|\bshared/(design|rules)\b|\bui-guide\b|[\w-]*rulebook[\w-]*\.txt")
NAMED_PAGE = re.compile(r"(?<![\w./-])((?:[\w-]+/)*[\w-]+\.md)\b")


def page(name: str) -> str:
    return (DOCS / name).read_text(encoding="utf-8")


def sentence_with(text: str, word: str) -> str:
    at = text.index(word)
    start = text.rfind(".\n", 0, at) + 1 if text.rfind(".\n", 0, at) >= 0 else 0
    return text[start : text.index(".", at + len(word)) + 1]


def subcommands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def scanned_files():
    for folder in SCANNED:
        for path in sorted((ROOT / folder).rglob("*")):
            if (
                path.suffix in (".py", ".md", ".toml", ".sh")
                and path != Path(__file__).resolve()
                and "__pycache__" not in path.parts
            ):
                yield path


def test_every_roll_outcomes_the_manual_names_exists():
    sentence = sentence_with(page("reference/rules-core.md"), "roll_outcomes")
    games = [module for title, module in GAMES.items() if title in sentence]
    assert games
    for spelled in re.findall(r"`([\w.]*roll_outcomes)[(`]", sentence):
        owner = spelled.rsplit(".", 1)[0] if "." in spelled else ""
        for game in games:
            module = importlib.import_module(f"companion.rules.{game}")
            if owner == "RULES":
                assert callable(module.RULES.roll_outcomes), game
            elif owner in GAMES.values():
                assert callable(importlib.import_module(f"companion.rules.{owner}").roll_outcomes)
            else:  # a bare name: at module level in every game the sentence names
                assert hasattr(module, "roll_outcomes"), f"companion.rules.{game} has no roll_outcomes"


def test_the_docs_link_only_to_files_in_the_repository():
    for doc in [ROOT / "README.md", *sorted((ROOT / "hardware").glob("*.md")), *PAGES]:
        text = doc.read_text(encoding="utf-8")
        for link in re.findall(r"\]\(([^)#<]+)(?:#[^)]*)?\)", text):
            if not link.startswith("http"):
                assert (doc.parent / link).exists(), f"{doc.relative_to(ROOT)} links to {link}"
        for included in re.findall(r"```\{(?:include|literalinclude)\} (\S+)", text):
            assert (doc.parent / included).is_file(), f"{doc.relative_to(ROOT)} includes {included}"


def test_nothing_points_outside_the_repository():
    held = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True).stdout.split()
    if not held:  # a copy of the checkout without its .git: the files it holds
        held = [str(p) for p in ROOT.rglob("*") if p.is_file() and not {".venv", ".git"} & set(p.parts)]
    names = {Path(name).name for name in held} | {path.name for path in DOCS.rglob("*.md")}
    for path in scanned_files():
        text = path.read_text(encoding="utf-8")
        where = path.relative_to(ROOT)
        found = OUTSIDE.search(text)
        assert not found, f"{where} points outside the repository: {found.group(0)!r}"
        for named in NAMED_PAGE.findall(text):
            if "/" in named:  # a path from the repository's root, or from the file's own folder
                assert (ROOT / named).exists() or (path.parent / named).exists(), f"{where} names {named}"
            else:
                assert named in names, f"{where} names {named}, which the repository does not hold"


def test_the_readme_stays_short_and_names_the_prerequisites_and_the_manual():
    assert len(README.splitlines()) <= 200
    for needed in ("git", "make", "python3", "python3-venv", "make run", "make test", "make docs", "docs/"):
        assert needed in README, needed
    assert re.search(r"\d+ minutes", README), "the README says how long the suite takes"


def test_every_page_is_in_the_table_of_contents():
    index = page("index.md")
    listed = set(re.findall(r"^([\w/-]+)$", index, flags=re.MULTILINE))
    for doc in PAGES:
        name = doc.relative_to(DOCS).with_suffix("").as_posix()
        if name != "index":
            assert name in listed, f"docs/{name}.md is in no table of contents"


def test_the_command_line_page_is_read_from_the_parsers():
    cli = page("cli.md")
    assert re.search(r"```\{argparse\}\n:module: companion\.cli\n:func: build_parser\n", cli)
    summary = cli.split("```sh\n", 1)[1].split("```", 1)[0]
    for command in subcommands():
        assert re.search(rf"cloud-companion (\[)?{re.escape(command)}\b|/ {re.escape(command)}\b", summary), (
            f"the command summary leaves out {command}"
        )


def test_the_man_page_names_every_command_and_option():
    man = MAN_PAGE.read_text(encoding="utf-8").replace("\\-", "-")
    assert man.startswith('.\\"') and '.TH "CLOUD-COMPANION" "1"' in man
    for command, parser in subcommands().items():
        assert re.search(rf"^\.SS {re.escape(command)}$", man, flags=re.MULTILINE), f"no section for {command}"
        section = man.split(f".SS {command}\n", 1)[1].split("\n.SS ", 1)[0]
        for action in parser._actions:
            if action.help == argparse.SUPPRESS:
                continue
            for option in action.option_strings:
                if option.startswith("--") and option != "--help":
                    assert option in section, f"the man page's {command} leaves out {option}"


def test_the_package_installs_the_man_page():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    data = project["tool"]["setuptools"]["data-files"]
    assert data["share/man/man1"] == ["docs/man/cloud-companion.1"]
    assert "sphinx-argparse" in " ".join(project["project"]["optional-dependencies"]["docs"])


def test_the_settings_sample_is_safe_to_copy(tmp_path):
    samples = re.findall(r"```toml\n(.*?)```", page("settings.md"), re.S)
    assert samples
    for sample in samples:
        path = tmp_path / "config.toml"
        path.write_text(sample)
        loaded, problems = config.load(path)
        assert problems == []
        assert loaded.seats == config.DEFAULT_SEATS  # copying it never cuts the table to fewer seats


@pytest.mark.parametrize("name", ["play/cloud9.md", "play/cloudship.md", "play/cloudmine.md", "setup.md"])
def test_each_page_about_the_table_shows_a_screen(name):
    pictures = re.findall(r"!\[[^]]+\]\(([^)]+\.(?:png|svg))\)", page(name))
    assert pictures, f"{name} shows no picture"
    for picture in pictures:
        path = (DOCS / name).parent / picture
        assert path.stat().st_size < 64_000, f"{picture} is over 64 kB"


def test_replay_follow_answers_as_the_manual_says(tmp_path):
    data = page("data.md")
    assert 'Its stdout carries\nonly these `{"ok": N}` lines' in data
    assert "exits 2 if any line was skipped" in data
    from companion.rules.simulate import random_game

    setup = {"game": "cloudmine", "players": ["Ann", "Ben", "Cat"]}
    first, second = random_game(setup, seed=1)[:2]
    lines = [setup, first, {"act": "fly"}, second]
    run = subprocess.run(
        [sys.executable, "-m", "companion", "replay", "-", "--follow", "--db", str(tmp_path / "j.sqlite3")],
        input="".join(json.dumps(x) + "\n" for x in lines),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 2
    assert [json.loads(x) for x in run.stdout.splitlines()] == [{"ok": 1}, {"ok": 2}]
    assert run.stderr.startswith("line 3: ")
