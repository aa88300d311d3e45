"""Open the display the way the app does, draw on it, and read the drawing back from the GPU.

    python -m companion.appliance.drawprobe      (doctor runs it in a child process)

Prints one JSON line: the video driver, the renderer SDL chose for the window, the screen's size,
and whether a colour cleared through that renderer came back when read from its own buffer.
A renderer that draws nothing (SDL's `opengl` on a libGLESv2 loaded as desktop GL, when
libGL.so.1 is missing) reads back something else: the app would run on a black screen.
Exit 0 when the picture came back, 1 when it did not, 2 when no display could be opened.
"""

from __future__ import annotations

import ctypes
import json
import os
import sys

COLOUR = (200, 30, 160)


class RendererInfo(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char_p),
        ("flags", ctypes.c_uint32),
        ("num_texture_formats", ctypes.c_uint32),
        ("texture_formats", ctypes.c_uint32 * 16),
        ("max_texture_width", ctypes.c_int),
        ("max_texture_height", ctypes.c_int),
    ]


def sdl():
    from ..ui.loop.sdl import sdl_library_path

    lib = ctypes.CDLL(sdl_library_path())
    lib.SDL_GetWindowFromID.restype = ctypes.c_void_p
    lib.SDL_GetWindowFromID.argtypes = [ctypes.c_uint32]
    lib.SDL_GetRenderer.restype = ctypes.c_void_p
    lib.SDL_GetRenderer.argtypes = [ctypes.c_void_p]
    lib.SDL_GetRendererInfo.argtypes = [ctypes.c_void_p, ctypes.POINTER(RendererInfo)]
    lib.SDL_SetRenderDrawColor.argtypes = [ctypes.c_void_p] + [ctypes.c_uint8] * 4
    lib.SDL_RenderClear.argtypes = [ctypes.c_void_p]
    lib.SDL_RenderReadPixels.argtypes = [
        ctypes.c_void_p,
        ctypes.c_void_p,
        ctypes.c_uint32,
        ctypes.c_void_p,
        ctypes.c_int,
    ]
    lib.SDL_RenderPresent.argtypes = [ctypes.c_void_p]
    lib.SDL_GetError.restype = ctypes.c_char_p
    return lib


SDL_PIXELFORMAT_ABGR8888 = 0x16762004  # bytes R, G, B, A in memory


class Rect(ctypes.Structure):
    _fields_ = [("x", ctypes.c_int), ("y", ctypes.c_int), ("w", ctypes.c_int), ("h", ctypes.c_int)]


def probe() -> tuple[int, dict]:
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    os.environ.setdefault("SDL_VIDEODRIVER", "kmsdrm")
    import pygame

    result: dict = {"driver": os.environ["SDL_VIDEODRIVER"], "render_driver": os.environ.get("SDL_RENDER_DRIVER", "")}
    try:
        pygame.display.init()
        surface = pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
    except pygame.error as exc:
        result["error"] = str(exc) or "SDL found no video device"
        return 2, result
    result["size"] = list(surface.get_size())
    surface.fill(COLOUR)
    pygame.display.flip()  # the window's framebuffer, and with it SDL's renderer, now exist
    lib = sdl()
    renderer = lib.SDL_GetRenderer(lib.SDL_GetWindowFromID(1))
    if not renderer:
        result["renderer"] = "software (no renderer)"
        result["shown"] = True  # SDL's own framebuffer path: what it writes is scanned out
        return 0, result
    info = RendererInfo()
    lib.SDL_GetRendererInfo(renderer, ctypes.byref(info))
    result["renderer"] = info.name.decode() if info.name else "?"
    lib.SDL_SetRenderDrawColor(renderer, *COLOUR, 255)
    lib.SDL_RenderClear(renderer)
    pixel = (ctypes.c_uint8 * 4)()
    one = Rect(surface.get_width() // 2, surface.get_height() // 2, 1, 1)  # one pixel: the buffer holds 4 bytes
    if lib.SDL_RenderReadPixels(renderer, ctypes.byref(one), SDL_PIXELFORMAT_ABGR8888, pixel, 4) != 0:
        result["error"] = "reading back: " + lib.SDL_GetError().decode(errors="replace")
        result["shown"] = False
        return 1, result
    lib.SDL_RenderPresent(renderer)
    result["read_back"] = list(pixel)[:3]
    result["shown"] = all(abs(a - b) <= 8 for a, b in zip(pixel, COLOUR))
    pygame.display.quit()
    return (0 if result["shown"] else 1), result


def main() -> int:
    code, result = probe()
    print(json.dumps(result), flush=True)
    return code


if __name__ == "__main__":
    sys.exit(main())
