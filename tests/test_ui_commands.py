"""`cloud-companion run` and `cloud-companion demo` as a user starts them."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pygame
import pytest

from companion.cli import build_parser


def run_cli(*args: str, env: dict | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    environment = {**os.environ, "SDL_AUDIODRIVER": "dummy", **(env or {})}
    environment = {name: value for name, value in environment.items() if value is not None}
    return subprocess.run(
        [sys.executable, "-m", "companion", *args], capture_output=True, text=True, timeout=timeout, env=environment
    )


def test_without_a_display_it_says_so_in_one_line_and_points_to_demo(tmp_path):
    # plain `cloud-companion` (no subcommand) starts the app
    result = run_cli(
        "--db",
        str(tmp_path / "j.sqlite3"),
        "--config",
        str(tmp_path / "c.toml"),
        env={"SDL_VIDEODRIVER": "nonexistent"},
    )
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "no display" in lines[0] and "cloud-companion demo --out DIR" in lines[0]
    assert "Traceback" not in result.stderr and result.stdout == ""


NO_DESKTOP = {"DISPLAY": None, "WAYLAND_DISPLAY": None, "SDL_VIDEODRIVER": None}


def free_x_display() -> str:
    return next(f":{n}" for n in range(93, 200) if not os.path.exists(f"/tmp/.X11-unix/X{n}"))


@pytest.mark.parametrize("desktop", [{}, {"DISPLAY": "stale"}], ids=["no-display", "stale-display"])
def test_a_window_with_no_desktop_to_show_it_says_so_and_leaves_the_journal_alone(tmp_path, desktop):
    env = {**NO_DESKTOP, **{name: free_x_display() for name in desktop}}
    db = tmp_path / "j.sqlite3"
    result = run_cli("run", "--windowed", "--db", str(db), "--config", str(tmp_path / "c.toml"), env=env, timeout=60)
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("cloud-companion: no display") and "demo --out DIR" in lines[0]
    assert list(tmp_path.iterdir()) == []  # no journal, no lock: the next real start is not refused
    started = run_cli(
        "run",
        "--windowed",
        "--first-frame-exit",
        "--db",
        str(db),
        "--config",
        str(tmp_path / "c.toml"),
        env={**env, "SDL_VIDEODRIVER": "dummy"},
    )
    assert started.returncode == 0, started.stderr


def test_a_driver_chosen_on_purpose_is_used_without_a_desktop(tmp_path):
    result = run_cli(
        "run",
        "--windowed",
        "--first-frame-exit",
        "--db",
        str(tmp_path / "j.sqlite3"),
        "--config",
        str(tmp_path / "c.toml"),
        env={**NO_DESKTOP, "SDL_VIDEODRIVER": "offscreen"},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("first frame after ")


def test_the_app_starts_and_draws_its_first_frame(tmp_path):
    result = run_cli(
        "run",
        "--windowed",
        "--size",
        "1024x600",
        "--rotate",
        "90",
        "--first-frame-exit",
        "--db",
        str(tmp_path / "j.sqlite3"),
        "--config",
        str(tmp_path / "c.toml"),
        env={"SDL_VIDEODRIVER": "dummy"},
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("first frame after ")


def test_a_second_app_on_the_same_journal_is_refused_politely(tmp_path):
    from companion.journal import Journal

    db = tmp_path / "j.sqlite3"
    first = Journal.open(db)  # the app already running at the table
    try:
        result = run_cli(
            "run", "--windowed", "--db", str(db), "--config", str(tmp_path / "c.toml"), env={"SDL_VIDEODRIVER": "dummy"}
        )
    finally:
        first.close()
    assert result.returncode == 4
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("cloud-companion: ") and "Traceback" not in result.stderr


def test_a_bad_size_is_refused_clearly():
    with pytest.raises(SystemExit):
        build_parser().parse_args(["run", "--size", "big"])


def test_the_demo_saves_every_screen_and_every_state_change(tmp_path):
    from companion.rules import Match
    from companion.ui.screens.cloudmine import demo_game
    from companion.ui.tools.demo import record

    files = record(tmp_path, sizes={"landscape": (800, 480), "portrait": (720, 1280)}, games=["cloudmine"])
    setup, actions = demo_game()
    match = Match.start(setup)
    for action in actions:
        match = match.apply(action)
    assert match.view["over"]
    for folder, size in (("landscape", (800, 480)), ("portrait", (720, 1280))):
        names = sorted(p.name for p in (tmp_path / folder).iterdir())
        steps = [n for n in names if n.split("-", 1)[1].startswith("cloudmine-0") and "-frame-" not in n]
        assert len(steps) == len(actions)  # one picture per state change (and an animation's key frames)
        for screen in (
            "home",
            "cloudmine-players",
            "cloudmine-start",
            "keyboard",
            "players-claiming-seats",
            "history-games",
            "settings-basics",
            "refusal",
        ):
            assert any(n.endswith(f"-{screen}.png") for n in names), screen
        image = pygame.image.load(str(tmp_path / folder / names[0]))
        assert image.get_size() == size
    assert len(files) == len(list(tmp_path.rglob("*.png")))


@pytest.mark.parametrize("where", ["a file", "a place nobody may write"])
def test_demo_into_a_place_it_cannot_write_says_so_in_one_line(tmp_path, where):
    if where == "a file":
        out = tmp_path / "pictures"
        out.write_text("not a folder")
    else:
        out = "/proc"  # there, and not writable even for root
        if not os.path.isdir(out):
            pytest.skip("no /proc here")
    result = run_cli("demo", "--out", str(out), timeout=300)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("cloud-companion: cannot ") and str(out) in lines[0]


def test_run_with_a_db_that_is_not_a_journal_says_so_and_leaves_it_alone(tmp_path):
    game = tmp_path / "game.jsonl"
    game.write_text('{"game": "cloudmine", "players": ["Ann", "Ben", "Cat"]}\n')
    result = run_cli(
        "run", "--windowed", "--db", str(game), "--config", str(tmp_path / "c.toml"), env={"SDL_VIDEODRIVER": "dummy"}
    )
    assert result.returncode == 1
    lines = result.stderr.strip().splitlines()
    assert lines[-1].startswith("cloud-companion: ") and "not a journal" in lines[-1]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["game.jsonl"]


def test_an_empty_journal_file_starts_the_app_normally_and_every_message_names_the_program(tmp_path):
    db = tmp_path / "j.sqlite3"
    db.touch()  # the power went during the very first start
    result = run_cli(
        "run",
        "--windowed",
        "--first-frame-exit",
        "--db",
        str(db),
        "--config",
        str(tmp_path / "c.toml"),
        env={"SDL_VIDEODRIVER": "dummy", "SDL_AUDIODRIVER": "nonexistent"},
    )
    assert result.returncode == 0, result.stderr
    lines = result.stderr.strip().splitlines()
    assert any("sounds are off" in line for line in lines)
    assert all(line.startswith("cloud-companion: ") for line in lines), lines
    assert db.stat().st_size > 0  # now a journal


def test_the_demo_plays_any_player_count_at_any_size_and_keeps_the_key_frames(tmp_path, monkeypatch):
    from companion.ui.tools import demo

    played = []

    def short_game(game, players, seed=1):  # the first actions of the random game: enough to animate
        setup, actions = real(game, players, seed)
        played.append(setup)
        return setup, actions[:14]

    real = demo.players_game
    monkeypatch.setattr(demo, "players_game", short_game)
    files = demo.record(
        tmp_path, sizes=demo.sized([(1024, 600), (1024, 600), (600, 1000)]), games=["cloud9"], players=8
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["1024x600", "600x1000"]
    assert played[0]["players"] == list(demo.LONG_NAMES[:6])  # Cloud 9 seats six at most
    for folder, size in (("1024x600", (1024, 600)), ("600x1000", (600, 1000))):
        names = sorted(p.name for p in (tmp_path / folder).iterdir())
        frames = [n for n in names if "-frame-" in n]
        assert frames, "no animation's key frames saved"
        for start in (n for n in frames if n.endswith("-frame-0.png")):
            base = start[5 : -len("-frame-0.png")]  # after the running number
            assert any(n.endswith(f"{base}-frame-half.png") for n in frames)
            assert any(n.endswith(f"{base}-frame-end.png") for n in frames)
            assert any(n.endswith(f"{base}.png") for n in names)  # and the settled picture
        half = next(n for n in frames if n.endswith("-frame-half.png"))
        start = half.replace("-frame-half", "-frame-0")
        first = pygame.image.load(str(tmp_path / folder / next(n for n in frames if n.endswith(start[5:]))))
        middle = pygame.image.load(str(tmp_path / folder / half))
        assert middle.get_size() == size
        assert pygame.image.tobytes(first, "RGB") != pygame.image.tobytes(middle, "RGB")  # it moved
    assert len(files) == len(list(tmp_path.rglob("*.png")))


@pytest.mark.parametrize(
    "args, message",
    [
        (["--size", "10x10"], "out of range"),
        (["--size", "big"], "800x480"),
        (["--players", "2"], "3 to 8"),
        (["--players", "many"], "whole number"),
    ],
)
def test_demo_refuses_a_size_or_player_count_it_cannot_play_in_one_line(tmp_path, args, message):
    result = run_cli("demo", "--out", str(tmp_path), *args)
    assert result.returncode == 2 and "Traceback" not in result.stderr and message in result.stderr
    assert not list(tmp_path.iterdir())


def test_started_by_its_path_from_a_checkout_it_points_to_that_path(tmp_path):
    """`make run` starts `.venv/bin/cloud-companion`, which is on no PATH: the hint names the
    command a person can type there, not one the shell would not find."""
    script = shutil.which("cloud-companion", path=os.path.dirname(sys.executable))
    if script is None:
        pytest.skip("the console script is not installed beside this Python")
    relative = os.path.relpath(script, tmp_path)
    env = {**os.environ, "SDL_AUDIODRIVER": "dummy", "SDL_VIDEODRIVER": "nonexistent", "PATH": "/usr/bin:/bin"}
    args = ["--db", str(tmp_path / "j.sqlite3"), "--config", str(tmp_path / "c.toml")]
    result = subprocess.run([relative, *args], capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path)
    assert result.returncode == 1
    (line,) = result.stderr.strip().splitlines()
    assert f"run: {relative} demo --out DIR" in line
    on_path = subprocess.run(
        [relative, *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**env, "PATH": os.path.dirname(script) + ":/usr/bin:/bin"},
        cwd=tmp_path,
    )
    assert "run: cloud-companion demo --out DIR" in on_path.stderr
