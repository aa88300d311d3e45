"""The app framework on real pygame (dummy video driver): taps, keys, rotation, scaling,
text fitting, dialogs, redraw only on change, and the colour shapes."""

from __future__ import annotations

import itertools

import pygame
import pygame.freetype
import pytest
from hypothesis import given, settings, strategies as st

from companion.ui.kit.layout import SIZES, Frame, Viewport, cols, rows
from companion.ui.kit.shapes import SHAPES, draw_shape
from companion.ui.kit.theme import COLOURS, Theme
from companion.ui.kit.widgets import Button, Label, fit_text
from companion.ui.screens.base import Screen
from companion.ui.tools.harness import Harness


class CounterScreen(Screen):
    """Two buttons that count their taps."""

    def __init__(self, app):
        super().__init__(app)
        self.counts = {"left": 0, "right": 0}

    def title(self):
        return "Counter"

    def build(self, f, t):
        left, right = cols(f.content, 2, f.u(8))
        return [
            Button(left, "Left", lambda: self.bump("left"), key="left"),
            Button(right, "Right", lambda: self.bump("right"), key="right"),
        ]

    def bump(self, which):
        self.counts[which] += 1
        self.refresh()


def counter(size=(800, 480), rotate=0) -> tuple[Harness, CounterScreen]:
    h = Harness(size, rotate)
    screen = CounterScreen(h.app)
    h.app.show(screen)
    h.app.pump()
    return h, screen


def test_a_touch_tap_counts_once_although_sdl_sends_finger_and_mouse_events():
    h, screen = counter()
    h.tap("left")
    assert screen.counts == {"left": 1, "right": 0}


def test_a_desktop_mouse_click_works_too():
    h, screen = counter()
    pos = h.find("right").rect.center
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=1, touch=False))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1, touch=False))
    h.app.pump()
    assert screen.counts["right"] == 1


def test_a_press_that_slides_off_the_button_does_nothing():
    h, screen = counter()
    down, up = h.find("left").rect.center, h.find("right").rect.center
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=down, button=1, touch=True))
    pygame.event.post(pygame.event.Event(pygame.MOUSEBUTTONUP, pos=up, button=1, touch=True))
    h.app.pump()
    assert screen.counts == {"left": 0, "right": 0}


@pytest.mark.parametrize("rotate", [0, 90, 180, 270])
def test_taps_land_on_the_right_widget_when_rotated(rotate):
    h, screen = counter((800, 480), rotate)
    frame = h.app.frame
    assert frame.portrait == (rotate in (90, 270))
    h.tap("right")
    h.tap("right")
    h.tap("left")
    assert screen.counts == {"left": 1, "right": 2}


@pytest.mark.parametrize("rotate", [90, 180, 270])
def test_rotation_turns_the_picture_and_maps_points_back(rotate):
    pygame.display.init()
    display = pygame.display.set_mode((800, 480))
    view = Viewport(display, rotate)
    view.canvas.fill((0, 0, 0))
    marks = [(5, 7), (view.canvas.get_width() - 3, 11), (20, view.canvas.get_height() - 2)]
    for x, y in marks:
        view.canvas.set_at((x, y), (255, 0, 0))
    view.present()
    for mark in marks:
        on_display = view.to_display(mark)
        assert display.get_at(on_display)[:3] == (255, 0, 0)
        assert view.to_canvas(on_display) == mark


def test_keyboard_moves_the_focus_and_activates():
    h, screen = counter()
    h.key(pygame.K_TAB)
    top_bar_back = h.app.focused()
    assert top_bar_back is not None
    # Tab until "right" has the focus, then Enter
    for _ in range(5):
        if h.app.focused().key == "right":
            break
        h.key(pygame.K_TAB)
    assert h.app.focused().key == "right"
    h.key(pygame.K_RETURN)
    h.key(pygame.K_SPACE)
    assert screen.counts["right"] == 2
    h.key(pygame.K_TAB, pygame.KMOD_SHIFT)
    assert h.app.focused().key == "left"


def test_escape_goes_back():
    h, screen = counter()
    h.key(pygame.K_ESCAPE)
    assert type(h.screen).__name__ == "HomeScreen"


def test_a_dialog_takes_every_tap_until_answered():
    h, screen = counter()
    answers = []
    h.app.confirm("End?", "Really?", "Yes", lambda: answers.append("yes"))
    h.app.pump()
    h.tap_at(h.find("left").rect.topleft)  # under the scrim, outside the dialog
    assert screen.counts["left"] == 0 and h.app.dialog is not None
    h.tap("Cancel")
    assert h.app.dialog is None and answers == []
    h.app.confirm("End?", "Really?", "Yes", lambda: answers.append("yes"))
    h.tap("Yes")
    assert answers == ["yes"] and h.app.dialog is None


def test_the_app_redraws_only_when_something_changed():
    h, screen = counter()
    drawn = h.app.frames_drawn
    for _ in range(5):
        h.app.pump()
    assert h.app.frames_drawn == drawn
    h.tap("left")
    assert h.app.frames_drawn > drawn
    drawn = h.app.frames_drawn
    h.app.pump()
    assert h.app.frames_drawn == drawn


def test_a_toast_disappears_by_itself():
    now = [100.0]
    h = Harness(clock=lambda: now[0])
    h.app.toast("Hello there")
    h.app.pump()
    assert "Hello there" in h.texts()
    now[0] += 10
    h.app.pump()
    assert "Hello there" not in h.texts()


def test_a_transition_draws_every_pass_while_it_runs_then_one_still_frame():
    now = [100.0]
    h = Harness(clock=lambda: now[0])
    h.app.pump()
    h.app.animate(0.3)
    for step in (0.1, 0.1):
        now[0] += step
        drawn = h.app.frames_drawn
        h.app.pump()
        assert h.app.frames_drawn == drawn + 1 and h.app.animating
    now[0] += 0.15
    drawn = h.app.frames_drawn
    h.app.pump()  # the transition is over: the settled picture, once
    assert h.app.frames_drawn == drawn + 1 and not h.app.animating
    for _ in range(3):
        h.app.pump()
    assert h.app.frames_drawn == drawn + 1


@settings(max_examples=100, deadline=None)
@given(
    x=st.integers(-100, 1000),
    y=st.integers(-100, 1000),
    w=st.integers(0, 2000),
    h=st.integers(0, 2000),
    weights=st.one_of(st.integers(1, 9), st.lists(st.floats(0.1, 5.0), min_size=1, max_size=8)),
    gap=st.integers(0, 20),
)
def test_rows_and_columns_fill_their_rect_in_proportion(x, y, w, h, weights, gap):
    rect = pygame.Rect(x, y, w, h)
    shares = [1.0] * weights if isinstance(weights, int) else weights
    for parts, start, length, pos, size in (
        (rows(rect, weights, gap), y, h, "y", "h"),
        (cols(rect, weights, gap), x, w, "x", "w"),
    ):
        assert len(parts) == len(shares)
        # each part starts a gap after the one before, and the last ends on the rect's edge
        assert getattr(parts[0], pos) == start
        for before, after in zip(parts, parts[1:]):
            assert getattr(after, pos) == getattr(before, pos) + getattr(before, size) + gap
        assert getattr(parts[-1], pos) + getattr(parts[-1], size) == start + length
        free = length - gap * (len(shares) - 1)
        for part, share in zip(parts[:-1], shares):
            assert abs(getattr(part, size) - free * share / sum(shares)) <= 0.5
        # across the split, every part keeps the rect's other side
        other_pos, other_size = ("x", "w") if pos == "y" else ("y", "h")
        assert all(
            (getattr(p, other_pos), getattr(p, other_size)) == (getattr(rect, other_pos), getattr(rect, other_size))
            for p in parts
        )


@pytest.mark.parametrize("size", SIZES)
def test_the_design_grid_scales_to_every_listed_display(size):
    frame = Frame(*size)
    short, long = sorted(size)
    assert frame.portrait == (size[1] > size[0])
    # 800x480 (or 480x800) fits, and one side is filled exactly
    assert frame.u(480) <= short and frame.u(800) <= long
    assert frame.u(480) == short or frame.u(800) == long
    board, step = frame.board_and_step()
    assert frame.rect.contains(board) and frame.rect.contains(step) and not board.colliderect(step)


def test_text_shrinks_to_fit_and_reports_when_it_cannot():
    pygame.font.init()
    fitted = fit_text("A rather long line of text", 330, 40, 36, 18, wrap=False)
    assert not fitted.overflow and fitted.px < 36
    assert fit_text("Short", 200, 40, 36, 18, wrap=False).px == 36
    too_long = fit_text("This sentence can never fit in a box this small", 60, 20, 36, 18, wrap=False)
    assert too_long.overflow and too_long.px == 18
    wrapped = fit_text("Several words that wrap onto more lines", 160, 200, 24, 18, wrap=True)
    assert len(wrapped.lines) > 1 and not wrapped.overflow
    label = Label(pygame.Rect(0, 0, 50, 20), "Far too much text for this", "body")
    assert label.overflow(Theme(1.0)) == ["Far too much text for this"]


def test_buttons_smaller_than_48_design_pixels_are_reported():
    theme = Theme(1.0)
    assert Button(pygame.Rect(0, 0, 40, 60), "x", None).too_small(theme)
    assert not Button(pygame.Rect(0, 0, 48, 48), "x", None).too_small(theme)
    assert Button(pygame.Rect(0, 0, 60, 60), "x", None).too_small(Theme(1.5))


def test_every_game_colour_has_its_own_shape_and_the_shapes_differ_in_grey():
    colours = list(COLOURS.values())
    assert len({c.shape for c in colours}) == len(colours)
    masks = {}
    for shape in SHAPES:
        surface = pygame.Surface((64, 64))
        surface.fill((0, 0, 0))
        draw_shape(surface, shape, (32, 32), 26, (255, 255, 255), outline=(255, 255, 255))
        masks[shape] = pygame.mask.from_threshold(surface, (255, 255, 255), (60, 60, 60, 255))
        assert masks[shape].count() > 300, f"{shape} is barely drawn"
    for a, b in itertools.combinations(SHAPES, 2):
        overlap = masks[a].overlap_area(masks[b], (0, 0))
        differing = masks[a].count() + masks[b].count() - 2 * overlap
        assert differing > 150, f"{a} and {b} look alike"


def test_a_line_is_drawn_the_same_whatever_size_was_drawn_before_it():
    # one face draws every size: what it measured and drew at another size in between (and
    # the glyphs it dropped to make room) must not change a line's pixels or its box
    from companion.ui.kit import theme as th

    Harness((800, 480))
    texts = ["Ádám guessed right", "Szentgyörgyi Boglárka 12", "gjpq ÁÉŐ"]
    first = {
        (px, text): pygame.image.tobytes(th.font(px, "bold").render(text, True, th.INK), "RGBA")
        for px in (18, 24, 48)
        for text in texts
    }
    sizes = {(px, text): th.font(px, "bold").size(text) for px in (18, 24, 48) for text in texts}
    for px in range(8, 90):  # every other size, a few thousand glyphs through the cache
        th.font(px, "bold").render(th.COMMON_LETTERS, True, th.INK)
        th.font(px, "regular").size(th.COMMON_LETTERS + str(px))
    for (px, text), pixels in first.items():
        face = th.font(px, "bold")
        face._sizes.clear()  # measured again, not remembered
        assert face.size(text) == sizes[px, text]
        assert pygame.image.tobytes(face.render(text, True, th.INK), "RGBA") == pixels, (px, text)


@pytest.mark.parametrize("weight", ["bold", "regular"])
@pytest.mark.parametrize("px", [9, 18, 37, 64])
def test_a_line_is_drawn_exactly_as_freetype_renders_it_on_its_baseline(px, weight):
    # the line's image is drawn straight onto it (render_to); it must be the very pixels of
    # FreeType's own rendering placed on the baseline, letters reaching left of the pen included
    from companion.ui.kit import theme as th

    Harness((800, 480))  # pygame and its dummy video started
    face = th.font(px, weight)
    # FreeType's own face of this one size (the app draws every size with one face per file)
    own = pygame.freetype.Font(th.FONT_PATHS[weight], px)
    own.pad, own.antialiased = True, True
    for text in ["Anna guessed right", "jÓ Őrs, Ťyp", "j", "fjord ‘q’ ő", "Szentgyörgyi Boglárka"]:
        line, box = own.render(text, (20, 30, 40))
        expected = pygame.Surface((own.get_rect(text).width, face.above + face.below), pygame.SRCALPHA)
        expected.blit(line, (0, face.above - box.y))
        drawn = face.render(text, True, (20, 30, 40))
        assert drawn.get_size() == expected.get_size()
        assert pygame.image.tobytes(drawn, "RGBA") == pygame.image.tobytes(expected, "RGBA"), text


def test_a_double_name_too_wide_for_its_line_breaks_after_its_hyphen_and_only_then():
    from companion.ui.kit.widgets import wrap_lines

    pygame.font.init()
    from companion.ui.kit import theme as th

    face = th.font(27, "bold")
    narrow = face.size("Annemarie-Josephine")[0] - 4
    lines = wrap_lines("Annemarie-Josephine let it fall", 27, narrow)
    assert lines[0] == "Annemarie-" and lines[1].startswith("Josephine")
    assert all(face.size(line)[0] <= narrow for line in lines)
    wide = face.size("Annemarie-Josephine let it fall")[0]
    assert wrap_lines("Annemarie-Josephine let it fall", 27, wide) == ["Annemarie-Josephine let it fall"]
