"""What the README and the wiring guide say is true of the code beside them."""

import importlib
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
GAMES = {"Cloud 9": "cloud9", "Cloudship": "cloudship", "The Cloud Mine": "cloudmine"}


def sentence_with(text: str, word: str) -> str:
    at = text.index(word)
    start = text.rfind(".\n", 0, at) + 1 if text.rfind(".\n", 0, at) >= 0 else 0
    return text[start:text.index(".", at + len(word)) + 1]


def test_every_roll_outcomes_the_readme_names_exists():
    sentence = sentence_with(README, "roll_outcomes")
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


def test_the_docs_point_only_to_files_in_the_repository():
    for doc in [ROOT / "README.md", *sorted((ROOT / "hardware").glob("*.md"))]:
        text = doc.read_text(encoding="utf-8")
        for guide in re.findall(r"\b([\w-]*guide)\b", text, flags=re.IGNORECASE):
            if guide.lower() in ("ui-guide", "ui_guide"):
                assert list(ROOT.rglob(f"{guide}*")), f"{doc.name} points to {guide}, which is not in the repository"
        for link in re.findall(r"\]\(([^)#]+)\)", text):
            if not link.startswith("http"):
                assert (doc.parent / link).exists(), f"{doc.name} links to {link}"


def test_replay_follow_answers_as_the_readme_says(tmp_path):
    assert 'Its stdout carries\nonly these `{"ok": N}` lines' in README
    assert "exits 2 if any line was skipped" in README
    from companion.rules.simulate import random_game

    setup = {"game": "cloudmine", "players": ["Ann", "Ben", "Cat"]}
    first, second = random_game(setup, seed=1)[:2]
    lines = [setup, first, {"act": "fly"}, second]
    run = subprocess.run([sys.executable, "-m", "companion", "replay", "-", "--follow", "--db",
                          str(tmp_path / "j.sqlite3")], input="".join(json.dumps(x) + "\n" for x in lines),
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 2
    assert [json.loads(x) for x in run.stdout.splitlines()] == [{"ok": 1}, {"ok": 2}]
    assert run.stderr.startswith("line 3: ")
