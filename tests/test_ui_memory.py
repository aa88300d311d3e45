"""What the app keeps stays within its bounds however long the evening: each cache of pictures
filled past its budget, the labels' placements holding no images, the recap packed without a
second copy of its pixels."""

from __future__ import annotations

import io
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame  # noqa: E402
import pytest  # noqa: E402
from hypothesis import given, settings, strategies as st  # noqa: E402

from companion.ui.boards import cloud9, cloudmine, cloudship, help_pictures, recap, ship_icons  # noqa: E402
from companion.ui.kit import ribbon, widgets  # noqa: E402
from companion.ui.kit.caches import Pictures, pictures, surface_bytes  # noqa: E402
from companion.ui.kit.theme import Theme  # noqa: E402

pygame.display.init()
pygame.display.set_mode((8, 8))


def _kept_bytes(store: Pictures) -> int:
    return sum(surface_bytes(s) for s in store._kept.values())


@given(
    st.lists(st.tuples(st.integers(0, 30), st.integers(1, 300), st.integers(1, 300)), max_size=60),
    st.integers(1, 400_000),
    st.integers(1, 20),
)
@settings(max_examples=60, deadline=None)
def test_pictures_stay_within_their_bytes_and_count(puts, max_bytes, max_items):
    store = Pictures(max_bytes, max_items)
    for key, w, h in puts:
        surface = pygame.Surface((w, h))
        store.put(key, surface)
        assert store.get(key) is surface  # the newest is always kept
        assert store.bytes == _kept_bytes(store)
        assert len(store) <= max_items
        assert store.bytes <= max_bytes or len(store) == 1


def test_the_oldest_picture_goes_first():
    store = Pictures(3 * 100 * 4, 10)
    for key in "abc":
        store.put(key, pygame.Surface((10, 10), pygame.SRCALPHA))
    store.get("a")  # used again: "b" is now the oldest
    store.put("d", pygame.Surface((10, 10), pygame.SRCALPHA))
    assert store.get("b") is None and all(store.get(k) is not None for k in "acd")


# every cache of pictures the boards draw, with arguments that make a new picture each time
BOARD_CACHES = [
    (cloud9._pawn_image, lambda i: (40 + i, 60, "red", "A", 1.0)),
    (cloud9._cloud_image, lambda i: (100 + i, 60, (255, 255, 255), (0, 0, 0), 2)),
    (cloud9._cube, lambda i: (20 + i, 20, 1)),
    (cloudmine.table_surface, lambda i: (300 + i, 300)),
    (cloudmine.card_back, lambda i: (40 + i, 60)),
    (cloudmine.pile_surface, lambda i: (40 + i, 60, 3)),
    (cloudmine.role_surface, lambda i: ("dreamer", 20 + i)),
    (help_pictures.picture, lambda i: ("c9-roll", 120 + i)),
    (cloudship.weather_layer, lambda i: ((400 + i, 60), 8, 2)),
    (cloudship.bed_layer, lambda i: ((120 + i, 90), "red", 2, 2)),
    (cloudship.engine_layer, lambda i: ((300 + i, 80), ((False, None),) * 8, None)),
    (ship_icons.icon, lambda i: ("flower", 30 + i)),
    (ribbon.ribbon_image, lambda i: ((400 + i, 20), "bottom", "red", 1.0)),
]


@pytest.mark.parametrize("make, args", BOARD_CACHES, ids=[make.__name__ for make, _ in BOARD_CACHES])
def test_each_board_cache_filled_stays_within_its_budget(make, args):
    make.cache_clear()
    store = make.store
    for i in range(store.max_items + 40):
        picture = make(*args(i))
        assert make(*args(i)) is picture  # kept: the next frame blits it
    info = make.cache_info()
    assert info.currsize <= info.maxsize
    assert info.bytes == _kept_bytes(store)
    assert info.bytes <= info.max_bytes or info.currsize == 1  # the newest, larger than it all
    assert info.misses == store.max_items + 40  # filled past its count
    make.cache_clear()


def test_a_picture_larger_than_its_budget_is_still_kept_once():
    @pictures(100)
    def big(w):
        return pygame.Surface((w, w))

    first = big(50)
    assert big(50) is first and big.cache_info().currsize == 1


def test_placed_labels_hold_no_pictures():
    """The shared placements know lines and boxes; the images stay the theme's, within its
    byte budget, however many labels were placed."""
    theme = Theme(1.0)
    widgets._PLACED.clear()
    for i in range(widgets.PLACED_CACHE + 50):
        label = widgets.Label((0, 0, 300, 40), f"Player {i} jumps", "body")
        drawn = label.placed(theme)
        assert drawn and all(isinstance(image, pygame.Surface) for image, _box in drawn)
    assert len(widgets._PLACED) == widgets.PLACED_CACHE
    held = [part for _px, lines in widgets._PLACED.values() for line in lines for part in line]
    assert not any(isinstance(part, pygame.Surface) for part in held)
    assert theme._text_bytes <= Theme.TEXT_CACHE_BYTES


def test_a_label_placed_again_draws_the_same_pixels_after_its_image_left_the_theme():
    theme = Theme(1.0)
    label = widgets.Label((0, 0, 200, 60), "Weißenböck Jürgen lands", "body", wrap=True)
    first = pygame.Surface((200, 60))
    for image, box in label.placed(theme):
        first.blit(image, box)
    theme._text.clear()  # as when the evening pushed it out
    again = widgets.Label((0, 0, 200, 60), "Weißenböck Jürgen lands", "body", wrap=True)
    second = pygame.Surface((200, 60))
    for image, box in again.placed(theme):
        second.blit(image, box)
    assert pygame.image.tobytes(first, "RGB") == pygame.image.tobytes(second, "RGB")


@pytest.mark.parametrize("height", [1, 63, 64, 65, 200])
def test_the_recap_png_is_packed_band_by_band_with_the_same_pixels(height):
    width = 37
    surface = pygame.Surface((width, height))
    for y in range(height):
        surface.fill(((y * 7) % 256, (y * 13) % 256, (y * 29) % 256), (0, y, width, 1))
    surface.fill((250, 10, 10), (3, 0, 5, height))
    pixels = recap.pixels_of(surface)
    back = pygame.image.load(io.BytesIO(recap.png_bytes(pixels)), "x.png")
    assert back.get_size() == (width, height)
    assert pygame.image.tobytes(back, "RGB") == pixels[2]


def _striped(width: int, height: int) -> pygame.Surface:
    surface = pygame.Surface((width, height), 0, 24, recap.RGB_MASKS)
    for y in range(height):
        surface.fill(((y * 7) % 256, (y * 13) % 256, (y * 29) % 256), (0, y, width, 1))
    surface.fill((250, 10, 10), (3, 0, 5, height))
    return surface


def test_a_recap_is_packed_from_its_own_pixels_not_a_copy():
    surface = _striped(40, 30)
    width, height, data = recap.pixels_of(surface)
    assert isinstance(data, memoryview) and surface.get_locked()  # the surface's memory, held
    assert bytes(data) == pygame.image.tobytes(surface, "RGB")
    back = pygame.image.load(io.BytesIO(recap.png_bytes((width, height, data))), "x.png")
    assert pygame.image.tobytes(back, "RGB") == bytes(data)


def test_a_recap_is_drawn_on_three_bytes_a_pixel_in_a_pngs_order():
    from companion.rules import Match
    from companion.ui.tools.demo import players_game

    setup, actions = players_game("cloud9", 3, seed=2)
    match = Match.start(setup)
    for action in actions:
        match = match.apply(action)
    surface = recap.render_recap(match, "2026-12-01T18:00:00+00:00")
    assert surface.get_bytesize() == 3 and isinstance(recap.pixels_of(surface)[2], memoryview)


@pytest.mark.parametrize(("width", "height", "small"), [(1200, 1600, 240), (37, 200, 64), (30, 50, 50), (20, 10, 240)])
def test_a_small_copy_is_read_a_band_at_a_time_with_the_pixels_of_a_whole_one(
    tmp_path, monkeypatch, width, height, small
):
    surface = pygame.Surface((width, height), 0, 24, recap.RGB_MASKS)  # a sky, a card, a bar
    for y in range(height):
        surface.fill((90 + 100 * y // height, 150, 230 - 60 * y // height), (0, y, width, 1))
    surface.fill((255, 255, 255), (width // 8, height // 5, width * 3 // 4, height // 2))
    surface.fill((31, 111, 209), (width // 4, height // 3, max(1, width // 10), height // 4))
    path = recap.write_png(surface, tmp_path / "recap.png")
    whole = pygame.image.load(str(path))
    monkeypatch.setattr(pygame.image, "load", lambda *a: pytest.fail("the picture was loaded whole"))
    copy = recap.small_copy(path, small)
    out_h = min(small, height)
    assert copy.get_size() == (max(1, round(width * out_h / height)), out_h)
    expected = pygame.image.tobytes(pygame.transform.smoothscale(whole, copy.get_size()), "RGB")
    got = pygame.image.tobytes(copy, "RGB")
    assert sum(abs(a - b) for a, b in zip(got, expected)) / len(got) < 1.5  # a band's edge may differ a little


def test_a_small_copy_leaves_other_pngs_to_be_loaded_whole_and_refuses_damaged_ones(tmp_path):
    surface = _striped(60, 80)
    pygame.image.save(surface, str(tmp_path / "filtered.png"))  # pygame's writer filters its rows
    assert recap.small_copy(tmp_path / "filtered.png", 20) is None
    (tmp_path / "text.png").write_text("not a picture")
    assert recap.small_copy(tmp_path / "text.png", 20) is None
    whole = recap.write_png(surface, tmp_path / "recap.png").read_bytes()
    for cut in (len(whole) // 2, 40, len(whole) - 20):
        (tmp_path / "cut.png").write_bytes(whole[:cut])
        with pytest.raises(ValueError):
            recap.small_copy(tmp_path / "cut.png", 20)


def test_screens_seldom_opened_leave_their_heavy_libraries_unloaded():
    """segno's writers bring in xml, urllib and ssl, a process pool multiprocessing: megabytes
    the app holds only once a QR code is shown or a simulation runs on several cores."""
    import subprocess
    import sys

    child = (
        "import sys, companion.ui.loop.app, companion.ui.screens.settings, companion.ui.screens.live_code, "
        "companion.insights.shipsim, companion.insights.simulate; "
        "print(sorted(m for m in ('segno', 'ssl', 'multiprocessing', 'urllib.request') if m in sys.modules))"
    )
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    out = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, check=True, env=env)
    assert out.stdout.strip() == "[]"


def test_a_game_on_screen_loads_neither_gpiozero_nor_openssl_until_seats_are_made():
    """gpiozero brings every device class and its package metadata (2 to 3 MiB beside the
    app), the secrets module OpenSSL's library (3 MiB): a game on the screen needs neither,
    and the seat buttons load gpiozero once they are made."""
    import subprocess
    import sys

    child = (
        "import sys\n"
        "from companion.ui.screens import end, routes\n"
        "from companion.ui.tools.harness import Harness\n"
        "import companion.devices.seats, companion.devices.table, companion.devices.keyboard\n"
        "h = Harness((800, 480))\n"
        "h.start_game({'game': 'cloud9', 'players': ['Ann', 'Ben', 'Cat'], 'first_pilot': 'Ann'})\n"
        "h.app.screen.roll_for_me()\n"
        "print(sorted(m for m in ('gpiozero', 'hashlib', '_hashlib', 'secrets') if m in sys.modules))\n"
        "from companion.config import Config\n"
        "from companion.devices.table import SeatTable\n"
        "SeatTable.open(Config(), wake=lambda: None).close()\n"
        "print('gpiozero' in sys.modules)\n"
    )
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy")
    out = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, check=True, env=env)
    assert out.stdout.split("\n")[:2] == ["[]", "True"]


HEAP_CHILD = """
import sys
from companion.ui.loop.heap import give_back_large_blocks
if sys.argv[1] == "fixed":
    assert give_back_large_blocks()
def rss():
    return int(open("/proc/self/status").read().split("VmRSS:")[1].split()[0])
big = bytearray(8 << 20)
del big                                  # glibc would now raise its threshold to 8 MiB
frames, keep = [], []
for _ in range(24):
    frames.append(bytearray(1536000))    # a frame at 800x480
    keep.append(bytearray(2000))         # and something small that stays after it (from the heap)
before = rss()
del frames
print(before - rss())
"""


def _freed_kib(child: str, *modes: str) -> dict[str, int]:
    """What `child` prints (the KiB it gave back) when run in a process of its own per mode."""
    import subprocess
    import sys

    return {
        mode: int(
            subprocess.run([sys.executable, "-c", child, mode], capture_output=True, text=True, check=True).stdout
        )
        for mode in modes
    }


def test_the_heap_gives_frames_back_once_freed():
    freed = _freed_kib(HEAP_CHILD, "default", "fixed")
    assert freed["fixed"] > 30 << 10  # KiB: the 24 frames' 36 MB went back
    assert freed["default"] < freed["fixed"] // 2  # the default heap holds most of them


TRIM_CHILD = """
import ctypes
import sys
from companion.ui.loop import heap
def rss():
    return int(open("/proc/self/status").read().split("VmRSS:")[1].split()[0])
blocks = [bytearray(60_000) for _ in range(600)]  # 36 MB of pieces under the mmap threshold
# kept above them, so the heap cannot shrink from its top: larger than all the free room a new
# process has below (a small one could land in a hole under the pieces, as it did where the
# environment's size moved the start's allocations), smaller than the mmap threshold
top = bytearray(120_000)
address = lambda b: ctypes.addressof(ctypes.c_char.from_buffer(b))
assert address(top) > max(map(address, blocks)), "the kept piece is not above the freed ones"
del blocks
before = rss()
if sys.argv[1] == "trim":
    assert heap.trim()
print(before - rss())
"""


def test_trimming_hands_the_free_pages_inside_the_heap_back():
    freed = _freed_kib(TRIM_CHILD, "keep", "trim")
    assert freed["trim"] > 25 << 10  # KiB
    assert freed["keep"] < freed["trim"] // 2


def test_every_size_s_measured_texts_share_one_budget(monkeypatch):
    from companion.ui.kit import theme

    budget = theme._Measures(300)
    monkeypatch.setattr(theme, "_MEASURES", budget)
    fonts = [theme.Font(px) for px in range(10, 40)]
    first = {(font.px, word): font.size(word) for font in fonts for word in ("Jégeső", "Hagelkorn")}
    for n in range(2000):
        font = fonts[n % len(fonts)]
        font.size(f"Maximilian-Alexander {n}")
        font.ink(f"Szentgyörgyi {n}")
        assert sum(len(f._sizes) + len(f._inks) for f in fonts) <= 300
    # forgotten and measured again, the same
    assert {(font.px, word): font.size(word) for font in fonts for word in ("Jégeső", "Hagelkorn")} == first


@pytest.mark.parametrize("size", [(800, 480), (333, 257), (1080, 1920)])
@pytest.mark.parametrize("rotate", [90, 180, 270])
def test_a_turned_screen_is_presented_a_band_at_a_time_with_the_pixels_of_a_whole_turn(size, rotate, monkeypatch):
    import random

    from companion.ui.kit import layout

    display = pygame.Surface(size)
    viewport = layout.Viewport(display, rotate)
    canvas, rng = viewport.canvas, random.Random(rotate)
    for _ in range(200):
        rect = (rng.randrange(canvas.get_width()), rng.randrange(canvas.get_height()), rng.randrange(1, 90), 40)
        canvas.fill((rng.randrange(256), rng.randrange(256), rng.randrange(256)), rect)
    whole = pygame.transform.rotate(canvas, -rotate)
    turned: list[int] = []
    rotate_surface = pygame.transform.rotate
    monkeypatch.setattr(
        pygame.transform, "rotate", lambda s, angle: turned.append(surface_bytes(s)) or rotate_surface(s, angle)
    )
    viewport.present()
    assert pygame.image.tobytes(display, "RGB") == pygame.image.tobytes(whole, "RGB")
    assert turned and max(turned) <= layout.PRESENT_BAND_BYTES


def test_a_recap_keeps_few_of_its_line_images_and_draws_the_same_pixels(monkeypatch):
    """Each of a recap's lines is drawn once: its theme keeps a small budget of them (the
    screen's whole budget stood beside the picture while it was drawn), with the same pixels."""
    from companion.rules import Match
    from companion.ui.kit import theme as th
    from companion.ui.tools.demo import players_game

    setup, actions = players_game("cloudmine", 8, seed=1)
    match = Match.start(setup)
    for action in actions:
        match = match.apply(action)
    themes: list[Theme] = []
    make_theme = recap.recap_theme
    monkeypatch.setattr(recap, "recap_theme", lambda size: themes.append(make_theme(size)) or themes[-1])
    small = pygame.image.tobytes(recap.render_recap(match, "2026-12-01T18:00:00+00:00"), "RGB")
    assert 0 < themes[-1]._text_bytes <= th.PICTURE_TEXT_BYTES < 1 << 20
    monkeypatch.setattr(th, "PICTURE_TEXT_BYTES", 64 << 20)
    monkeypatch.setattr(recap.th, "PICTURE_TEXT_BYTES", 64 << 20)
    whole = pygame.image.tobytes(recap.render_recap(match, "2026-12-01T18:00:00+00:00"), "RGB")
    assert themes[-1]._text_bytes > 1 << 20  # every line kept: the budget was what held them
    assert small == whole
