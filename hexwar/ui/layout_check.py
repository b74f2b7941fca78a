"""Checks of a laid-out screen (issue 36): no two text boxes overlap, nothing is cut at the
window's edge, no text is smaller than 10 points (after any squeezing to fit).

A screen is checked through what its :class:`~hexwar.ui.widgets.Painter` recorded:
``text_boxes`` (each string's measured box, in points) and ``text_sizes`` (the size each was
drawn at). Boxes on different levels (panels, pop-ups, modal dialogs) are not compared: a modal
dialog covers what is under it.

The every-window layout test (``tests/test_layout_all.py``) lays out every window and panel of
:data:`hexwar.ui.window_base.WINDOW_KINDS` at :data:`SIZES` and a HiDPI ratio of 2 and asserts
that :func:`layout_problems` finds nothing.

>>> class P:  # a painter's record of two texts that overlap and one that is cut
...     text_boxes = [(0, 0, 50, 9, "a", 0), (40, 2, 90, 11, "b", 0), (790, 5, 820, 14, "c", 0)]
...     text_sizes = [12.0, 12.0, 9.0]
>>> for msg in layout_problems(P(), 800, 600):
...     print(msg)
800x600: 'a' and 'b' overlap (10.0 x 7.0 points)
800x600: 'c' is cut at the window's edge (790-820 x 5-14 in 800 x 600)
800x600: 'c' is drawn at 9.0 points (under 10)
"""

from __future__ import annotations

from typing import Any

__all__ = ["MIN_TEXT_PT", "SIZES", "layout_problems"]

#: The window sizes every window is laid out at (points).
SIZES: tuple[tuple[int, int], ...] = ((800, 600), (1000, 700), (1400, 900), (2560, 1440))
#: No text under this size (points; 10 pixels at a pixel ratio of 1).
MIN_TEXT_PT = 10.0
#: Boxes overlapping by less than this in either direction are touching, not overlapping.
_SLACK = 1.0


def layout_problems(
    p: Any, width: float, height: float, name: str = "", min_size: float = MIN_TEXT_PT
) -> list[str]:
    """Every layout problem of painter ``p``'s record for a ``width`` x ``height`` screen.

    Args:
        p: anything with ``text_boxes`` ``[(x0, y0, x1, y1, text, z)]`` and ``text_sizes``.
        name: put before each message (the window and panel), e.g. ``"table setup"``.
        min_size: the smallest allowed text size in points.

    Returns:
        one readable line per problem (``"<name> WxH: ..."``), empty when the layout holds.
    """
    head = f"{name + ' ' if name else ''}{width:g}x{height:g}"
    boxes = list(p.text_boxes)
    sizes = list(getattr(p, "text_sizes", [])) or [min_size] * len(boxes)
    out: list[str] = []
    by_z: dict[int, list[tuple[float, float, float, float, str]]] = {}
    for x0, y0, x1, y1, s, z in boxes:
        if s.strip():
            by_z.setdefault(z, []).append((x0, y0, x1, y1, s))
    for items in by_z.values():
        items.sort(key=lambda b: b[0])
        for i, a in enumerate(items):
            for b in items[i + 1 :]:
                if b[0] >= a[2] - _SLACK:
                    break  # sorted by x0: nothing further right can overlap a
                ox = min(a[2], b[2]) - max(a[0], b[0])
                oy = min(a[3], b[3]) - max(a[1], b[1])
                if ox > _SLACK and oy > _SLACK:
                    out.append(f"{head}: {a[4]!r} and {b[4]!r} overlap ({ox:.1f} x {oy:.1f} points)")
    for (x0, y0, x1, y1, s, _), size in zip(boxes, sizes, strict=False):
        if not s.strip():
            continue
        if x0 < -_SLACK or y0 < -_SLACK or x1 > width + _SLACK or y1 > height + _SLACK:
            out.append(
                f"{head}: {s!r} is cut at the window's edge ({x0:g}-{x1:g} x {y0:g}-{y1:g} in {width:g} x {height:g})"
            )
        if size < min_size - 1e-6:
            out.append(f"{head}: {s!r} is drawn at {size:.1f} points (under {min_size:g})")
    return out
