"""Exact line of sight on shapely geometry: the reference the fast path is tested against (R3.6).

This module shares nothing with the fast path in :mod:`hexwar.model.los` but the result type. It
decides every rule straight from the words of R3:

* R3.2: a hex is intervening when the DE-9IM relation of its polygon and the centre-to-centre
  segment has a 1-dimensional interior/interior intersection; a hex the segment only touches at
  a vertex has a 0-dimensional boundary/interior intersection and is not intervening.
* R3.3: a hex whose boundary meets the segment's interior in a line (dimension 1) while the
  interiors stay apart lies along a hexside; the two such hexes on one side form a spine pair.
* R3.4: the LOS height at a hex is the linear interpolation of the two eye heights at the
  point of the segment nearest the hex's centre (``shapely.line_locate_point`` in the true
  Euclidean layout, ``Layout(size=1)``); the hex blocks when its top is ``>=`` that height.
* R3.5: tops are read from the map through its own query methods (``terrain_at``,
  ``building_at``, ``has_fire``, ``wrecks_at``), not from :func:`hexwar.model.los.height_arrays`.

The topology (which hexes, which spine pairs, their order) is computed in an affine image of
the plane (``X = 2x``, ``Y = 2y / sqrt(3)``) where every hex corner has small integer
coordinates, so shapely works on exactly represented inputs and its robust predicates give
exact answers; an affine map keeps lines, incidence and ratios along a line. Nearest points are
metric and use the true layout. The height comparison allows ``1e-9`` of float error, far below
the smallest non-zero gap on maps of the shipped sizes.

It is slow (a few hundred microseconds a query) and meant for tests and benchmarks.

>>> from hexwar.model.maps import BattleMap
>>> from hexwar.model.hexgrid import Hex
>>> m = BattleMap.new(6, 6)
>>> m.set_terrain(Hex.from_label("C03"), "woods")
>>> line_of_sight_exact(m, Hex.from_label("A03"), Hex.from_label("E03")).status
'blocked'
"""

from __future__ import annotations

import math
import weakref
from typing import Any

import numpy as np
import shapely
from shapely.geometry import LineString, Point, Polygon

from .hexgrid import Hex, Layout
from .los import WRECK_LOS_HEIGHT, LosResult
from .maps import BattleMap, MapError

__all__ = ["line_of_sight_exact", "visibility_exact", "hex_polygon_scaled"]

_TOL = 1e-9
_LAYOUT = Layout(size=1.0, origin=(0.0, 0.0), y_down=True)
_RING = 2  # off-map hexes considered around the board (spine partners on the edge)


def hex_polygon_scaled(h: Hex) -> Polygon:
    """The polygon of ``h`` in the affine image ``(X, Y) = (2x, 2y / sqrt(3))`` of a size-1 layout.

    The centre is ``(3q, 2r + q)``; corners are the centre + ``(+-2, 0)`` and ``(+-1, +-1)``.

    >>> list(hex_polygon_scaled(Hex(0, 0)).exterior.coords)[:3]
    [(2.0, 0.0), (1.0, 1.0), (-1.0, 1.0)]
    """
    cx, cy = 3 * h.q, 2 * h.r + h.q
    return Polygon(
        [(cx + 2, cy), (cx + 1, cy + 1), (cx - 1, cy + 1), (cx - 2, cy), (cx - 1, cy - 1), (cx + 1, cy - 1)]
    )


class _Board:
    """Polygons and an STRtree of the map plus a ring of off-map hexes."""

    def __init__(self, m: BattleMap) -> None:
        self.shape = (m.height, m.width)
        self.hexes = [
            Hex.from_offset(col, row)
            for col in range(-_RING, m.width + _RING)
            for row in range(-_RING, m.height + _RING)
        ]
        self.polys = np.array([hex_polygon_scaled(h) for h in self.hexes], dtype=object)
        self.tree = shapely.STRtree(self.polys)
        self.qr = [(h.q, h.r) for h in self.hexes]
        self.centres = np.array([_LAYOUT.hex_to_pixel(h) for h in self.hexes])  # true layout
        self.geometry: dict[tuple[tuple[int, int], tuple[int, int]], Any] = {}  # per segment


_BOARDS: weakref.WeakKeyDictionary[BattleMap, _Board] = weakref.WeakKeyDictionary()


def _board(m: BattleMap) -> _Board:
    b = _BOARDS.get(m)
    if b is None or b.shape != (m.height, m.width):
        b = _Board(m)
        _BOARDS[m] = b
    return b


def _obstacles(m: BattleMap, h: Hex) -> tuple[float, str, float, int] | None:
    """(block top, reason, hindrance top, ground) of ``h`` in levels; ``None`` off the map."""
    if not m.in_bounds(h):
        return None
    ground = m.level_at(h)
    t = m.terrain_at(h)
    intact = not t.is_building or m.building_at(h) is not None  # R8.3: rubble removes it
    height: int | None = None
    reason = "higher ground"
    if t.los == "blocking" and intact:
        height, reason = t.height, ("building" if t.is_building else "terrain")
    if any(m.rules.wrecks[w].los for w in m.wrecks_at(h)) and (height is None or WRECK_LOS_HEIGHT > height):
        height, reason = WRECK_LOS_HEIGHT, "wreck"  # R3.5, R8.1
    top: float = ground + (height or 0)
    if m.has_fire(h):
        top, reason = math.inf, "fire"  # R8.4: blocks at every level
    hinder = ground + t.height if (t.los == "hindrance" and intact) else -math.inf
    return top, reason, hinder, ground


def _segment_geometry(
    board: _Board, pa: tuple[int, int], pb: tuple[int, int], ends: set[tuple[int, int]]
) -> Any:
    """Crossed hexes and spine sides of the segment ``pa``-``pb`` (scaled coordinates), with
    their normalized positions along it from ``pa`` (R3.2, R3.3)."""
    seg = LineString([pa, pb])
    idx = board.tree.query(seg)  # envelopes that meet the segment's envelope
    # A hex the segment meets has its centre within 1 (the circumradius, true units) of it.
    c = board.centres[idx]
    ra = np.array([pa[0] / 2.0, pa[1] * np.sqrt(3) / 2.0])
    rb = np.array([pb[0] / 2.0, pb[1] * np.sqrt(3) / 2.0])
    d = rb - ra
    t = np.clip(((c - ra) @ d) / (d @ d), 0.0, 1.0)
    near = np.hypot(*(c - ra - t[:, None] * d).T) < 1.0 + 1e-6
    idx = np.array([i for i in idx[near].tolist() if board.qr[i] not in ends], dtype=np.intp)
    rel = shapely.relate(board.polys[idx], seg).tolist()
    crossed = idx[np.array([x[0] == "1" for x in rel], dtype=bool)]  # interiors meet in a line
    along = idx[np.array([x[0] == "F" and x[3] == "1" for x in rel], dtype=bool)]  # on a side
    crossed_at: list[tuple[float, Hex]] = []
    if crossed.size:
        mids = shapely.centroid(shapely.intersection(board.polys[crossed], seg))
        pos = shapely.line_locate_point(seg, mids, normalized=True)
        crossed_at = [(float(p), board.hexes[i]) for p, i in zip(pos.tolist(), crossed.tolist(), strict=True)]
    sides: dict[tuple[float, float], list[Hex]] = {}
    side_pos: dict[tuple[float, float], float] = {}
    if along.size:
        mids = shapely.centroid(shapely.intersection(shapely.get_exterior_ring(board.polys[along]), seg))
        pos = shapely.line_locate_point(seg, mids, normalized=True)
        for i, mid, p in zip(along.tolist(), mids.tolist(), pos.tolist(), strict=True):
            key = (mid.x, mid.y)  # the midpoint of the shared side: half-integers, exact
            sides.setdefault(key, []).append(board.hexes[i])
            side_pos[key] = float(p)
    return crossed_at, sides, side_pos


def line_of_sight_exact(battlemap: BattleMap, a: Hex, b: Hex) -> LosResult:
    """R3 line of sight from ``a`` to ``b`` decided on shapely geometry (the reference).

    Same contract as :func:`hexwar.model.los.line_of_sight`.

    Raises:
        MapError: naming the hex when ``a`` or ``b`` is off the map.
    """
    m = battlemap
    m.index(a)
    m.index(b)
    rd = m.row_digits
    if a.distance(b) <= 1:
        return LosResult(a, b, "clear", (), (), None, None, 0, rd)
    board = _board(m)
    pa = (3 * a.q, 2 * a.r + a.q)
    pb = (3 * b.q, 2 * b.r + b.q)
    # The same segment serves both directions: positions are kept from its lower end.
    key = (min(pa, pb), max(pa, pb))
    geo = board.geometry.get(key)
    if geo is None:
        if len(board.geometry) > 4096:
            board.geometry.clear()
        geo = board.geometry[key] = _segment_geometry(board, key[0], key[1], {(a.q, a.r), (b.q, b.r)})
    flip = pa != key[0]
    crossed_at, sides, side_pos = geo
    inter = [(1.0 - p if flip else p, h) for p, h in crossed_at]
    inter.sort(key=lambda x: x[0])
    pairs: list[tuple[float, tuple[Hex, Hex]]] = []
    bx, by = pb[0] - pa[0], pb[1] - pa[1]
    for mid, hs in sides.items():
        if len(hs) != 2:
            raise AssertionError(f"spine side without a partner at {mid}: {hs}")  # pragma: no cover
        p, q = sorted(hs, key=lambda h: -(bx * (2 * h.r + h.q - pa[1]) - by * (3 * h.q - pa[0])))
        pairs.append((1.0 - side_pos[mid] if flip else side_pos[mid], (p, q)))
    pairs.sort(key=lambda x: x[0])

    # R3.4 heights on the true Euclidean layout.
    ra, rb = _LAYOUT.hex_to_pixel(a), _LAYOUT.hex_to_pixel(b)
    real = LineString([ra, rb])
    ea = m.level_at(a) + 0.5
    eb = m.level_at(b) + 0.5

    def los_height(h: Hex) -> float:
        t = shapely.line_locate_point(real, Point(_LAYOUT.hex_to_pixel(h)), normalized=True)
        return ea + t * (eb - ea)

    def judge(h: Hex, z: float) -> tuple[bool, bool, str]:
        ob = _obstacles(m, h)
        if ob is None:
            return False, False, ""
        top, reason, hinder, ground = ob
        if ground >= z - _TOL:
            reason = "higher ground"
        return top >= z - _TOL, hinder >= z - _TOL, reason

    steps: list[tuple[float, int, Any]] = [(p, 0, h) for p, h in inter] + [(p, 1, pr) for p, pr in pairs]
    steps.sort(key=lambda x: x[0])
    hind = 0
    for _, kind, item in steps:
        if kind == 0:
            z = los_height(item)
            blocks, hinders, why = judge(item, z)
            if blocks:
                return _result(a, b, "blocked", inter, pairs, item, why, 0, rd)
            hind += hinders
        else:
            p, q = item
            z = los_height(p)
            b1, h1, why = judge(p, z)
            b2, h2, _ = judge(q, z)
            if b1 and b2:  # R3.3: a spine pair blocks only if both hexes block
                return _result(a, b, "blocked", inter, pairs, p, why, 0, rd)
            if (b1 or h1) and (b2 or h2):
                hind += 1
    return _result(a, b, "hindered" if hind else "clear", inter, pairs, None, None, hind, rd)


def _result(
    a: Hex,
    b: Hex,
    status: str,
    inter: list[tuple[float, Hex]],
    pairs: list[tuple[float, tuple[Hex, Hex]]],
    blocking: Hex | None,
    reason: str | None,
    hind: int,
    rd: int,
) -> LosResult:
    return LosResult(
        a, b, status, tuple(h for _, h in inter), tuple(p for _, p in pairs), blocking, reason, hind, rd
    )


def visibility_exact(battlemap: BattleMap, viewer: Hex) -> np.ndarray:
    """Reference one-to-all status map (``int8 [height, width]``, 0 clear / 1 hindered / 2 blocked).

    Raises:
        MapError: when ``viewer`` is off the map.
    """
    if not battlemap.in_bounds(viewer):
        raise MapError(f"viewer hex {battlemap.label(viewer)} is off the map")
    codes = {"clear": 0, "hindered": 1, "blocked": 2}
    out = np.zeros((battlemap.height, battlemap.width), dtype=np.int8)
    for row in range(battlemap.height):
        for col in range(battlemap.width):
            out[row, col] = codes[line_of_sight_exact(battlemap, viewer, Hex.from_offset(col, row)).status]
    return out
