"""The Cloud 9 path read as a sky, measured from the drawn pixels: the clouds stand out from
the sky behind them, the basket's cloud is marked apart from the rest, and the sky is drawn
once per size."""

from __future__ import annotations

from collections import Counter

import pygame
import pytest

from companion.ui.boards import cloud9 as board
from companion.ui.kit import theme as th
from test_ui_cloud9_board import climb, every, game, keyed, rest

SIZES = [(800, 480), (1024, 600), (1280, 800), (720, 1280)]


def most_common(canvas, rect) -> tuple[int, int, int]:
    """The colour most of `rect` is painted in."""
    counts = Counter(canvas.get_at((x, y))[:3] for x in range(rect.x, rect.right) for y in range(rect.y, rect.bottom))
    return counts.most_common(1)[0][0]


def drawn_at(size, cloud):
    """A game at `size` whose balloon has climbed to `cloud`, at rest, and its frame."""
    h, screen, now = game(size)
    climb(screen, cloud)
    rest(h, now)
    return h, screen, h.render()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_cloud_stands_out_from_the_sky_beside_it(size):
    h, screen, canvas = drawn_at(size, 5)
    ladder = screen._ladder
    for cloud in (1, 2, 3, 4, 6, 7, 8):
        rect = keyed(h, f"cloud:{cloud}").rect
        # the path winds: the sky shows on the side of the row the cloud leaves free
        if rect.x - ladder.x > ladder.right - rect.right:
            beside = (ladder.x + 2, rect.centery - 1, rect.x - ladder.x - 4, 3)
        else:
            beside = (rect.right + 2, rect.centery - 1, ladder.right - rect.right - 4, 3)
        sky = most_common(canvas, pygame.Rect(beside))
        fill = most_common(canvas, rect)
        assert th.contrast(fill, sky) >= 3.0, (cloud, fill, sky)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_basket_cloud_is_edged_thick_and_warm_the_others_not(size):
    h, screen, canvas = drawn_at(size, 4)

    def warm_edge(rect) -> int:
        """How many rows up from the cloud's flat bottom are a warm edge or halo (the most
        along its middle half: the balloon's pieces may stand in front of some of it)."""

        def rows(x: int) -> int:
            count = 0
            for y in range(rect.bottom - 1, rect.y, -1):
                r, g, b = canvas.get_at((x, y))[:3]
                if not (r > 200 and b < 170):
                    break
                count += 1
            return count

        return max(rows(x) for x in range(rect.x + rect.w // 4, rect.right - rect.w // 4))

    here = keyed(h, "basket-cloud").rect
    assert warm_edge(here) >= h.app.theme.px(6)
    assert all(warm_edge(keyed(h, f"cloud:{cloud}").rect) == 0 for cloud in (2, 3, 5, 8))


def test_the_path_sky_is_drawn_once_per_size_and_kept():
    h, screen, now = game((800, 480))
    rest(h, now)
    made = board._path_sky.cache_info().misses
    climb(screen, 3)
    rest(h, now)
    h.render()
    assert board._path_sky.cache_info().misses == made


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("at", [1, 5, 9])
def test_every_cloud_and_its_number_stand_inside_the_sky_clear_of_its_edge(size, at):
    h, screen, _canvas = drawn_at(size, at)
    inside = screen._ladder.inflate(-2 * h.app.theme.px(4), -2 * h.app.theme.px(4))
    parts = [w for w in every(h) if (w.key or "").startswith(("cloud:", "cloud-number:", "basket-cloud"))]
    assert len(parts) >= 9
    for part in parts:
        assert inside.contains(part.rect), (part.key, part.rect, screen._ladder)
