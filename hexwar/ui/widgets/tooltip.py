"""Tooltips: a wrapped text box placed next to the pointer, inside given bounds (level 1)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from . import theme as T
from .geometry import Rect
from .text import wrap

if TYPE_CHECKING:
    from .painter import Painter

__all__ = ["place_tooltip", "paint_tooltip"]


def place_tooltip(
    w: float, h: float, pointer: tuple[float, float], bounds: Rect, offset: float = 16.0
) -> Rect:
    """Where a ``w`` x ``h`` point tooltip goes: below-right of the pointer by ``offset``
    points, flipped left / above when it would leave ``bounds``, then clamped into them (a box wider or higher than
    ``bounds`` keeps its left and top edges inside)."""
    mx, my = pointer
    x = mx + offset
    if x + w > bounds.x1:
        x = mx - offset - w
    y = my - offset - h
    if y < bounds.y:
        y = my + offset
    x = max(min(x, bounds.x1 - w), bounds.x)
    y = min(max(y, bounds.y), bounds.y1 - h)
    return Rect(x, y, w, h)


def paint_tooltip(
    p: Painter,
    measure: Any,
    text: str,
    pointer: tuple[float, float],
    bounds: Rect,
    width: float = 300.0,
    size: float = 12.0,
    z: int = 1,
) -> Rect:
    """Paint ``text`` wrapped to ``width`` points in a box next to ``pointer`` (see
    :func:`place_tooltip`); returns the box."""
    lines = wrap(measure, text, width - 20, size)
    longest = max(measure.measure(ln, size, "regular") for ln in lines)
    w = min(width, longest + 20)
    step = size + 4
    h = step * len(lines) + 12
    r = place_tooltip(w, h, pointer, bounds)
    p.rect(r.x + 3, r.y - 3, r.x1 + 3, r.y1 - 3, (0, 0, 0, 90), z)
    p.rect(*r.corners, (24, 26, 30, 240), z)
    p.frame(*r.corners, 1.0, (96, 100, 108, 255), z)
    y = r.y1 - 6 - step / 2
    for ln in lines:
        p.text(ln, r.x + 10, y, size, T.TEXT, z=z)
        y -= step
    return r
