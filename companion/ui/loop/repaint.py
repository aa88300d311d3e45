"""A new frame painted over a kept one where only some widgets changed.

A frame's widgets each say what their pixels depend on (`Widget.signature`). Between the frame
kept and the one to draw, the widgets whose signatures are in both, in the same order, draw the
same pixels; what differs lies in the boxes of the widgets that went and of those that came.
Those areas alone are painted again (the sky, then every widget that reaches into them, in
order, clipped to them): the same pixels as painting the whole frame, for a fraction of the
work (a Cloud 9 press moves a piece or two and the step's words; the board stays).

It rests on one promise: a widget paints only inside its box grown by `REACH` points (the
tests play each game and compare every frame painted so with one painted whole from nothing).
A widget that only draws others (`Widget.pieces`: Cloud 9's board, its balloon) is compared
and painted again piece by piece, each within its clip.
"""

from __future__ import annotations

from collections import Counter

import pygame

from ..kit import theme as th

REACH = 4  # points a widget may paint outside its rect (an outline, a highlight's edge)
WHOLE_SHARE = 0.25  # a change over more of the frame than this is painted whole (as quick there)


Part = tuple  # (widget, the box its drawing is clipped to, or None)


def parts(widgets, ctx) -> list[Part]:
    """What a frame of `widgets` paints, in order: each widget, or where it only draws others
    (`Widget.pieces`: a board's picture of its parts), those, each with its clip. Two frames
    are compared part by part, so a changed score row is painted again, not the whole board."""
    out: list[Part] = []
    for widget in widgets:
        _add_parts(out, widget, None, ctx)
    return out


def _add_parts(out: list[Part], widget, clip: pygame.Rect | None, ctx) -> None:
    pieces = widget.pieces(ctx)
    if pieces is None:
        out.append((widget, clip))
        return
    for piece, within in pieces:
        inner = clip if within is None else within if clip is None else within.clip(clip)
        _add_parts(out, piece, inner, ctx)


def part_bounds(painted: list[Part], theme: th.Theme) -> list[pygame.Rect]:
    """Where each part may paint: its box grown by REACH, within its clip."""
    grow = 2 * max(2, theme.px(REACH))
    return [
        widget.rect.inflate(grow, grow) if clip is None else widget.rect.inflate(grow, grow).clip(clip)
        for widget, clip in painted
    ]


def changed_areas(
    old: tuple, old_bounds: list[pygame.Rect], new: tuple, new_bounds: list[pygame.Rect], size: tuple[int, int]
) -> list[pygame.Rect] | None:
    """The areas to paint again to turn a frame of the signatures `old` into one of `new`
    (disjoint rects within the frame), or None where painting the whole frame is as quick, or
    the widgets both show come in another order (one may cover another otherwise)."""
    common = Counter(old) & Counter(new)
    dirty: list[pygame.Rect] = []
    still: list[list] = []
    for signatures, bounds in ((old, old_bounds), (new, new_bounds)):
        left, kept = common.copy(), []
        for signature, box in zip(signatures, bounds):
            if left[signature] > 0:
                left[signature] -= 1
                kept.append(signature)
            else:
                dirty.append(box)
        still.append(kept)
    if still[0] != still[1]:
        return None
    frame = pygame.Rect((0, 0), size)
    areas = merged([box.clip(frame) for box in dirty if box.colliderect(frame)])
    if sum(area.w * area.h for area in areas) > WHOLE_SHARE * frame.w * frame.h:
        return None
    return areas


def merged(rects: list[pygame.Rect]) -> list[pygame.Rect]:
    """`rects` joined where they overlap, until none does (each painted once)."""
    out: list[pygame.Rect] = []
    for rect in rects:
        rect = pygame.Rect(rect)
        while (hit := rect.collidelist(out)) >= 0:
            rect.union_ip(out.pop(hit))
        out.append(rect)
    return out


def repaint(
    surface: pygame.Surface, areas: list[pygame.Rect], painted: list[Part], bounds: list[pygame.Rect], ctx
) -> None:
    """Paint `areas` of `surface` as the whole frame of the parts `painted` would be painted there."""
    for area in areas:
        surface.set_clip(area)
        th.paint_sky(surface, area)
        for (widget, clip), box in zip(painted, bounds):
            if box.colliderect(area):
                surface.set_clip(area if clip is None else area.clip(clip))
                widget.draw(surface, ctx)
    surface.set_clip(None)
