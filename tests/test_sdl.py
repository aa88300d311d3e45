"""The SDL the app runs on must be able to draw on the Pi's console (KMSDRM, no desktop)."""

import os
import subprocess
import sys

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame  # noqa: E402

from companion.ui.loop.sdl import has_video_driver, sdl_library_path, video_drivers  # noqa: E402


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
