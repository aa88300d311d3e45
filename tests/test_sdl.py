"""The SDL the app runs on must be able to draw on the Pi's console (KMSDRM, no desktop)."""

import json
import os
import shutil
import subprocess
import sys

import pytest

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402

from companion.ui.loop.sdl import (  # noqa: E402
    choose_console_renderer,
    has_video_driver,
    sdl_library_path,
    video_drivers,
)


def test_the_sdl_the_app_runs_on_has_the_kmsdrm_driver():
    drivers = video_drivers()
    assert "KMSDRM" in drivers, f"{sdl_library_path()} has only {drivers}: the Pi's console needs KMSDRM"
    assert has_video_driver("kmsdrm") and has_video_driver("dummy")


def test_the_drivers_are_read_from_the_sdl_pygame_loaded():
    path = sdl_library_path()
    major, minor, _patch = pygame.get_sdl_version()
    assert path is not None and os.path.exists(path)
    assert f".so.0.{minor}" in path or "libSDL2.so" in path or "libSDL2-2.0.so" in path
    assert major == 2 and getattr(pygame, "IS_CE", False)  # pygame-ce, not pygame


def test_the_module_names_the_drivers_from_a_fresh_process():
    out = subprocess.run(
        [sys.executable, "-m", "companion.ui.loop.sdl"], capture_output=True, text=True, check=True, timeout=60
    ).stdout.split("\n")
    assert "KMSDRM" in out[1].split()


def test_the_console_renderer_is_asked_for_by_both_names_sdl_has_had():
    env: dict[str, str] = {}
    choose_console_renderer(env)
    assert env == {"SDL_RENDER_DRIVER": "opengles2", "SDL_FRAMEBUFFER_ACCELERATION": "opengles2"}
    chosen = {"SDL_RENDER_DRIVER": "opengl"}  # a person trying another renderer keeps it, by both names
    choose_console_renderer(chosen)
    assert chosen == {"SDL_RENDER_DRIVER": "opengl", "SDL_FRAMEBUFFER_ACCELERATION": "opengl"}


@pytest.mark.skipif(shutil.which("xvfb-run") is None, reason="needs Xvfb")
def test_the_name_older_sdl_reads_alone_gives_the_window_the_console_renderer():
    """SDL up to 2.26 (Bookworm's) picks the window's renderer by SDL_FRAMEBUFFER_ACCELERATION
    only: with that name alone, real SDL draws the window through OpenGL ES 2 (desktop OpenGL,
    its first choice, is black on a root without libGL.so.1)."""
    hints: dict[str, str] = {}
    choose_console_renderer(hints)
    env = {k: v for k, v in os.environ.items() if not k.startswith("SDL_") and k != "DISPLAY"}
    env.update(SDL_VIDEODRIVER="x11", SDL_FRAMEBUFFER_ACCELERATION=hints["SDL_FRAMEBUFFER_ACCELERATION"])
    out = subprocess.run(
        ["xvfb-run", "-a", sys.executable, "-m", "companion.appliance.drawprobe"],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    result = json.loads(out.stdout.splitlines()[-1])
    assert result["renderer"] == "opengles2" and result["shown"], (result, out.stderr[-400:])
