"""Rectangles and the row/column layout helper of the widget toolkit (screen points, y up).

Everything here is plain arithmetic: no pyglet, no GL, so layouts are tested headless.
Coordinates are *points* (what pyglet calls window coordinates); the framebuffer has
``pixel_ratio`` pixels per point on HiDPI screens, and :func:`snap` rounds an edge to a whole
framebuffer pixel so 1-point frames stay crisp at 1.25x and 2x.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Rect", "Flex", "FLEX", "Size", "rows", "columns", "grid", "snap"]


def snap(v: float, pixel_ratio: float = 1.0) -> float:
    """``v`` points rounded to the nearest whole framebuffer pixel.

    Args:
        v: a coordinate in points.
        pixel_ratio: framebuffer pixels per point (1, 1.25, 2, ...); must be > 0.

    Raises:
        ValueError: ``pixel_ratio`` is not positive.
    """
    if pixel_ratio <= 0:
        raise ValueError(f"pixel_ratio must be > 0, got {pixel_ratio}")
    return round(v * pixel_ratio) / pixel_ratio


@dataclass(frozen=True)
class Rect:
    """An axis-aligned rectangle in points, origin bottom-left (pyglet's convention).

    Attributes:
        x, y: the bottom-left corner (points).
        w, h: width and height (points, never negative).
    """

    x: float
    y: float
    w: float
    h: float

    @staticmethod
    def from_corners(x0: float, y0: float, x1: float, y1: float) -> Rect:
        """The rectangle spanning ``(x0, y0)``-``(x1, y1)`` (any order)."""
        return Rect(min(x0, x1), min(y0, y1), abs(x1 - x0), abs(y1 - y0))

    @property
    def x1(self) -> float:
        """The right edge."""
        return self.x + self.w

    @property
    def y1(self) -> float:
        """The top edge."""
        return self.y + self.h

    @property
    def corners(self) -> tuple[float, float, float, float]:
        """``(x0, y0, x1, y1)``, the form :class:`~hexwar.ui.widgets.painter.Painter` takes."""
        return (self.x, self.y, self.x + self.w, self.y + self.h)

    @property
    def centre(self) -> tuple[float, float]:
        """The centre point."""
        return (self.x + self.w / 2, self.y + self.h / 2)

    def contains(self, px: float, py: float) -> bool:
        """True when ``(px, py)`` lies inside (left/bottom edges in, right/top edges out)."""
        return self.x <= px < self.x + self.w and self.y <= py < self.y + self.h

    def inset(self, dx: float, dy: float | None = None) -> Rect:
        """The rectangle shrunk by ``dx`` left and right and ``dy`` (default ``dx``) top and
        bottom; never below zero size (it collapses onto its centre)."""
        dy = dx if dy is None else dy
        w, h = max(0.0, self.w - 2 * dx), max(0.0, self.h - 2 * dy)
        cx, cy = self.centre
        return Rect(cx - w / 2, cy - h / 2, w, h)

    def moved(self, dx: float, dy: float) -> Rect:
        """The rectangle translated by ``(dx, dy)`` points."""
        return Rect(self.x + dx, self.y + dy, self.w, self.h)

    def top(self, h: float) -> Rect:
        """The top strip ``h`` points high (clamped to the rectangle)."""
        h = min(max(0.0, h), self.h)
        return Rect(self.x, self.y + self.h - h, self.w, h)

    def bottom(self, h: float) -> Rect:
        """The bottom strip ``h`` points high (clamped)."""
        return Rect(self.x, self.y, self.w, min(max(0.0, h), self.h))

    def left(self, w: float) -> Rect:
        """The left strip ``w`` points wide (clamped)."""
        return Rect(self.x, self.y, min(max(0.0, w), self.w), self.h)

    def right(self, w: float) -> Rect:
        """The right strip ``w`` points wide (clamped)."""
        w = min(max(0.0, w), self.w)
        return Rect(self.x + self.w - w, self.y, w, self.h)

    def snapped(self, pixel_ratio: float) -> Rect:
        """Edges rounded to whole framebuffer pixels (see :func:`snap`)."""
        x0, y0 = snap(self.x, pixel_ratio), snap(self.y, pixel_ratio)
        x1, y1 = snap(self.x + self.w, pixel_ratio), snap(self.y + self.h, pixel_ratio)
        return Rect(x0, y0, x1 - x0, y1 - y0)


@dataclass(frozen=True)
class Flex:
    """A flexible size: a share (``weight``) of the space the fixed sizes leave."""

    weight: float = 1.0


#: One share of the space left over.
FLEX = Flex(1.0)

#: A size along a row or column: points (a number) or a :class:`Flex` share.
Size = float | int | Flex


def _split(total: float, sizes: Sequence[Size], gap: float) -> list[float]:
    fixed = sum(float(s) for s in sizes if not isinstance(s, Flex))
    weights = sum(s.weight for s in sizes if isinstance(s, Flex))
    free = max(0.0, total - fixed - gap * max(0, len(sizes) - 1))
    return [free * s.weight / weights if isinstance(s, Flex) else float(s) for s in sizes]


def rows(area: Rect, sizes: Sequence[Size], gap: float = 0.0, pad: float = 0.0) -> list[Rect]:
    """Stack rows top to bottom inside ``area``.

    Args:
        area: the rectangle to fill (points).
        sizes: each row's height: points, or :class:`Flex` for a share of what is left.
        gap: points between rows.
        pad: points kept free inside every edge of ``area``.

    Returns:
        One :class:`Rect` per size, the first at the top. Fixed rows that do not fit run out
        of the bottom of ``area`` (the caller decides what to drop); flexible rows get 0.
    """
    inner = area.inset(pad)
    out: list[Rect] = []
    y = inner.y1
    for h in _split(inner.h, sizes, gap):
        out.append(Rect(inner.x, y - h, inner.w, h))
        y -= h + gap
    return out


def columns(area: Rect, sizes: Sequence[Size], gap: float = 0.0, pad: float = 0.0) -> list[Rect]:
    """Place columns left to right inside ``area`` (same rules as :func:`rows`)."""
    inner = area.inset(pad)
    out: list[Rect] = []
    x = inner.x
    for w in _split(inner.w, sizes, gap):
        out.append(Rect(x, inner.y, w, inner.h))
        x += w + gap
    return out


def grid(area: Rect, n: int, cols: int, cell_h: float, gap: float = 0.0) -> list[Rect]:
    """``n`` equal cells, ``cols`` per row, ``cell_h`` points high, filled row by row from the
    top-left (palettes, card rows).

    Raises:
        ValueError: ``cols`` < 1.
    """
    if cols < 1:
        raise ValueError(f"cols must be >= 1, got {cols}")
    cw = (area.w - gap * (cols - 1)) / cols
    return [
        Rect(
            area.x + (i % cols) * (cw + gap),
            area.y1 - (i // cols + 1) * cell_h - (i // cols) * gap,
            cw,
            cell_h,
        )
        for i in range(n)
    ]
