"""The SDL library under pygame, asked directly what it was built with.

pygame reports the SDL version but not which video drivers that SDL contains; the Pi's console
needs KMSDRM, which some wheels leave out (pygame 2.6's SDL 2.28 has only x11, wayland,
offscreen, dummy and evdev). SDL_GetNumVideoDrivers / SDL_GetVideoDriver list the drivers
compiled in, whether or not a display is present.
"""

from __future__ import annotations

import ctypes
import glob
import os
from pathlib import Path


def sdl_library_path() -> str | None:
    """The libSDL2 file pygame has loaded (after `import pygame`), else the one its wheel bundles."""
    import pygame  # noqa: F401  (loads its SDL)

    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as maps:
            for line in maps:
                path = line.split()[-1]
                if os.path.basename(path).startswith(("libSDL2-2", "libSDL2.so")):
                    return path
    except OSError:  # not Linux: look beside the package
        pass
    site = Path(pygame.__file__).resolve().parent.parent
    found = sorted(glob.glob(str(site / "pygame*.libs" / "libSDL2-*")) + glob.glob(str(site / "pygame" / "*SDL2*")))
    return found[0] if found else None


def video_drivers() -> list[str]:
    """The video drivers of the SDL pygame runs on, as SDL names them ("KMSDRM", "x11", ...)."""
    path = sdl_library_path()
    if path is None:
        return []
    sdl = ctypes.CDLL(path)
    sdl.SDL_GetVideoDriver.restype = ctypes.c_char_p
    sdl.SDL_GetVideoDriver.argtypes = [ctypes.c_int]
    return [sdl.SDL_GetVideoDriver(i).decode() for i in range(sdl.SDL_GetNumVideoDrivers())]


def has_video_driver(name: str) -> bool:
    return name.lower() in (driver.lower() for driver in video_drivers())


if __name__ == "__main__":  # python -m companion.ui.loop.sdl
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    print(sdl_library_path())
    print(" ".join(video_drivers()))


# The Pi's GPU drivers and Mesa's software one all speak OpenGL ES 2. Left to itself SDL would
# try desktop OpenGL first, and on a root without libGL.so.1 load libGLESv2 for it and draw
# nothing: a black screen on a running app. SDL up to 2.26 (Bookworm's own) picks the window's
# renderer by SDL_FRAMEBUFFER_ACCELERATION only; later ones also by SDL_RENDER_DRIVER.
CONSOLE_RENDERER = "opengles2"


def choose_console_renderer(env: dict[str, str] | os._Environ[str]) -> None:
    """Ask SDL for the console's renderer, by both names it has had; one already chosen stays."""
    env.setdefault("SDL_RENDER_DRIVER", CONSOLE_RENDERER)
    env.setdefault("SDL_FRAMEBUFFER_ACCELERATION", env["SDL_RENDER_DRIVER"])
