"""Scores are digits: the zero is drawn open, without the slash the font first had (at a game
table a slashed 0 in a score reads as a "no" sign), and still narrower than the letter O."""

import pygame
import pygame.freetype
import pytest

from companion.ui.kit import theme


def ink(text: str, weight: str) -> pygame.Surface:
    pygame.freetype.init()
    face = pygame.freetype.Font(theme.FONT_PATHS[weight], 120)
    surface, _ = face.render(text, (0, 0, 0), (255, 255, 255))
    return surface


def dark(surface: pygame.Surface, x: int, y: int) -> bool:
    return surface.get_at((x, y)).r < 128


def strokes(line: list[bool]) -> int:
    """How many separate runs of ink a line of pixels crosses."""
    return sum(1 for i, inked in enumerate(line) if inked and (i == 0 or not line[i - 1]))


@pytest.mark.parametrize("weight", ["bold", "regular"])
def test_the_zero_has_an_open_counter_through_its_middle(weight):
    zero = ink("0", weight)
    w, h = zero.get_size()
    # across the middle and down the middle: the outline twice, nothing between (a slash
    # would be a third stroke in both)
    assert strokes([dark(zero, x, h // 2) for x in range(w)]) == 2
    assert strokes([dark(zero, w // 2, y) for y in range(h)]) == 2


@pytest.mark.parametrize("weight", ["bold", "regular"])
def test_the_zero_still_differs_from_the_letter_o(weight):
    assert ink("0", weight).get_width() < ink("O", weight).get_width()
