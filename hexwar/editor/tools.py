"""Editor geometry: brushes, lines, flood regions, selections, the clipboard and its 60-degree
rotations and flips, and map resizing that keeps the odd-q staggering right.

Pure functions of hexes and maps (no pyglet, no state). The mouse-driven tools that use them
live in :mod:`hexwar.editor.session`.

Resizing and the odd-q parity (R2.2)
------------------------------------
In odd-q offset layout the odd columns (B, D, ...) sit half a hex lower. Adding or trimming
an *even* number of columns on the left shifts every column by an even amount, so each keeps
its parity and its look. An *odd* shift would turn low columns into high ones: copying the
offset grid cell by cell would break every road and hill (each hex's neighbours would change).
hexwar keeps the map exactly as it looks instead: the content is moved by a true grid
translation ``T = (left, top - left // 2)`` in axial coordinates (see
:func:`resize_translation`), so every hex keeps its six neighbours. With an odd ``left`` the
content then straddles half a hex more vertically, so the map gains one row (half a hex of
new ``fill`` ground along the top of the even columns and the bottom of the odd ones). Nothing
is ever lost by adding; trimming drops exactly the hexes that fall outside the new frame.

>>> resize_translation(2, 0), resize_translation(1, 0), resize_translation(-1, 0)
(Hex(q=2, r=-1), Hex(q=1, r=0), Hex(q=-1, r=1))
>>> len(brush_hexes(Hex(3, 3), 2))
19
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

import numpy as np

from ..model.hexgrid import Hex, hex_line
from ..model.maps import MAX_MAP_SIDE, BattleMap, MapError
from .hexstate import HexState

__all__ = [
    "BRUSH_RADII",
    "Clipboard",
    "brush_hexes",
    "flood_region",
    "line_hexes",
    "rect_hexes",
    "resize_translation",
    "resized_map",
    "stroke_path",
]

#: Brush radii in hexes and the hex count each covers (1, 7, 19): 1 + 3 r (r + 1).
BRUSH_RADII = (0, 1, 2)


def brush_hexes(center: Hex, radius: int, m: BattleMap | None = None) -> list[Hex]:
    """The hexes a brush of ``radius`` (0, 1, 2 hexes) covers at ``center``, spiral order.

    Args:
        m: when given, hexes off this map are left out.

    Raises:
        ValueError: for a radius other than 0, 1 or 2.
    """
    if radius not in BRUSH_RADII:
        raise ValueError(f"brush radius must be one of {BRUSH_RADII} hexes, got {radius!r}")
    hs = center.spiral(radius)
    return [h for h in hs if m is None or m.in_bounds(h)]


def line_hexes(a: Hex, b: Hex) -> list[Hex]:
    """The hexes of a straight hex line from ``a`` to ``b`` inclusive (distance + 1 hexes)."""
    return hex_line(a, b)


def stroke_path(prev: Hex | None, cur: Hex) -> list[Hex]:
    """Hexes to paint when a drag moves from ``prev`` to ``cur`` (no gaps on fast drags)."""
    if prev is None or prev == cur:
        return [cur]
    return line_hexes(prev, cur)[1:]


def flood_region(m: BattleMap, start: Hex, same_level: bool = False) -> list[Hex]:
    """The connected region of hexes with ``start``'s terrain (and level, if ``same_level``).

    Used by flood fill and the magic wand. Breadth-first over the six neighbours (R2.3).

    Raises:
        MapError: when ``start`` is off the map.
    """
    idx = m.index(start)
    t = m.terrain[idx]
    lv = m.level[idx]
    seen = {start}
    out = [start]
    q: deque[Hex] = deque([start])
    while q:
        h = q.popleft()
        for n in h.neighbors():
            if n in seen or not m.in_bounds(n):
                continue
            col, row = n.offset
            if m.terrain[row, col] != t or (same_level and m.level[row, col] != lv):
                continue
            seen.add(n)
            out.append(n)
            q.append(n)
    return out


def rect_hexes(a: Hex, b: Hex, m: BattleMap | None = None) -> list[Hex]:
    """All hexes of the offset rectangle with corners ``a`` and ``b`` (columns and rows inclusive).

    Args:
        m: when given, clipped to this map.
    """
    (c0, r0), (c1, r1) = a.offset, b.offset
    cs = range(min(c0, c1), max(c0, c1) + 1)
    rs = range(min(r0, r1), max(r0, r1) + 1)
    out = [Hex.from_offset(c, r) for c in cs for r in rs]
    return [h for h in out if m is None or m.in_bounds(h)]


# ---------------------------------------------------------------------------------------------
# Clipboard
# ---------------------------------------------------------------------------------------------


def _flip_lr(h: Hex) -> Hex:
    # mirror x -> -x of a flat-topped layout: (q, r, s) -> (-q, -s, -r)
    return Hex(-h.q, -h.s)


def _flip_tb(h: Hex) -> Hex:
    # mirror y -> -y: (q, r, s) -> (q, s, r)
    return Hex(h.q, h.s)


@dataclass(frozen=True)
class Clipboard:
    """Copied hexes, relative to an anchor hex, ready to rotate, flip and paste.

    Attributes:
        cells: ``(relative hex, HexState)`` pairs; relative = hex - anchor in axial
            coordinates, so a paste is an exact grid translation wherever it lands (no
            odd-q stagger artefacts).
    """

    cells: tuple[tuple[Hex, HexState], ...]

    @classmethod
    def copy(cls, m: BattleMap, hexes: Iterable[Hex]) -> Clipboard:
        """Copy ``hexes`` of ``m``; the anchor is the copied hex nearest their centre.

        Raises:
            MapError: nothing to copy, or a hex off the map.
        """
        hs = list(dict.fromkeys(hexes))
        if not hs:
            raise MapError("nothing selected to copy")
        cq = sum(h.q for h in hs) / len(hs)
        cr = sum(h.r for h in hs) / len(hs)
        anchor = min(hs, key=lambda h: ((h.q - cq) ** 2 + (h.r - cr) ** 2 + (h.q - cq) * (h.r - cr), h))
        return cls(tuple((h - anchor, HexState.read(m, h)) for h in hs))

    def __len__(self) -> int:
        return len(self.cells)

    def rotated(self, steps: int) -> Clipboard:
        """Rotated ``steps`` x 60 degrees about the anchor: positive = clockwise."""
        out = []
        k = steps % 6
        for rel, st in self.cells:
            h = rel
            for _ in range(k):
                h = h.rotate_right()
            out.append((h, st))
        return Clipboard(tuple(out))

    def flipped(self, axis: str) -> Clipboard:
        """Mirrored left-right (``axis="lr"``) or top-bottom (``"tb"``) through the anchor.

        Raises:
            ValueError: for another axis.
        """
        if axis not in ("lr", "tb"):
            raise ValueError(f"flip axis must be 'lr' or 'tb', got {axis!r}")
        f = _flip_lr if axis == "lr" else _flip_tb
        return Clipboard(tuple((f(rel), st) for rel, st in self.cells))

    def placed(self, at: Hex, m: BattleMap | None = None) -> tuple[dict[Hex, HexState], int]:
        """Absolute ``hex -> state`` with the anchor at ``at``, and how many fell off map ``m``."""
        out: dict[Hex, HexState] = {}
        dropped = 0
        for rel, st in self.cells:
            h = at + rel
            if m is not None and not m.in_bounds(h):
                dropped += 1
                continue
            out[h] = st
        return out, dropped


# ---------------------------------------------------------------------------------------------
# Resize
# ---------------------------------------------------------------------------------------------


def resize_translation(left: int, top: int = 0) -> Hex:
    """The axial translation that moves old content when ``left`` columns and ``top`` rows are
    added (negative: trimmed) on the left and top: ``Hex(left, top - left // 2)``.

    A true grid translation keeps each hex's neighbours (see the module notes on parity).
    """
    return Hex(left, top - left // 2)


def resized_size(m: BattleMap, left: int, right: int, top: int, bottom: int) -> tuple[int, int]:
    """``(width, height)`` after a resize; odd ``left`` adds one row (module notes).

    Raises:
        MapError: when a side would leave 1..500 hexes.
    """
    w = m.width + left + right
    h = m.height + top + bottom + (left & 1)
    if not (1 <= w <= MAX_MAP_SIDE and 1 <= h <= MAX_MAP_SIDE):
        raise MapError(f"resize to {w}x{h}: each side must be 1..{MAX_MAP_SIDE} hexes")
    return w, h


def resized_map(
    m: BattleMap, left: int = 0, right: int = 0, top: int = 0, bottom: int = 0, fill: str = "clear"
) -> tuple[BattleMap, Hex]:
    """A new map with columns/rows added (positive) or trimmed (negative) on each side.

    Old content moves by :func:`resize_translation` (exact grid translation); new hexes get
    ``fill`` terrain at level 0. Wrecks, roads, rubble, fire and the artillery marker move with
    their hexes; whatever falls outside is dropped.

    Returns:
        ``(new_map, translation)``; map a scenario hex with ``h + translation``.

    Raises:
        MapError: a side outside 1..500 hexes, or an unknown ``fill`` terrain.
    """
    w, h = resized_size(m, left, right, top, bottom)
    T = resize_translation(left, top)
    new = BattleMap.new(w, h, fill=fill, name=m.name, rules=m.rules)
    new.description = m.description
    arrays = ("terrain", "level", "road", "rubble", "fire", "fire_turns")
    for c in range(m.width):
        nc = c + left
        if not 0 <= nc < w:
            continue
        # row shift for this column under the translation (depends on the column's parity)
        d = (Hex.from_offset(c, 0) + T).offset[1]
        r0 = max(0, -d)
        r1 = min(m.height, h - d)
        if r0 >= r1:
            continue
        for a in arrays:
            getattr(new, a)[r0 + d : r1 + d, nc] = getattr(m, a)[r0:r1, c]
    for hx, stack in m.wrecks.items():
        nh = hx + T
        if new.in_bounds(nh):
            new.wrecks[nh] = list(stack)
    if m.artillery_marker is not None and new.in_bounds(m.artillery_marker + T):
        new.artillery_marker = m.artillery_marker + T
    # the map's deploy-zone and objective markers (map schema 2) move with their hexes too
    new.deploy = {s: tuple(z) for s, hs in m.deploy.items() if (z := translate_hexes(hs, T, new))}
    new.objectives = tuple(replace(o, hex=o.hex + T) for o in m.objectives if new.in_bounds(o.hex + T))
    new.version = m.version + 1
    return new, T


def translate_hexes(hexes: Iterable[Hex], t: Hex, m: BattleMap) -> list[Hex]:
    """``hexes`` moved by ``t``, keeping only those on ``m``."""
    return [h + t for h in hexes if m.in_bounds(h + t)]


def mask_of(m: BattleMap, hexes: Iterable[Hex]) -> np.ndarray:
    """``bool [height, width]`` marking ``hexes`` (off-map ones ignored), for overlays."""
    out = np.zeros((m.height, m.width), dtype=bool)
    for h in hexes:
        if m.in_bounds(h):
            c, r = h.offset
            out[r, c] = True
    return out


def states_equal(a: Mapping[Hex, HexState], b: Mapping[Hex, HexState]) -> bool:
    """True when two hex-state maps hold the same hexes with equal states."""
    return dict(a) == dict(b)
