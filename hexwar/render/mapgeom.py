"""Map layer geometry as numpy meshes: ground, patterns, contours, roads, buildings, grid, labels.

Pure numpy (no GL): each function turns a :class:`~hexwar.model.maps.BattleMap` and the
:class:`~hexwar.render.looks.Looks` into one :class:`~hexwar.render.mesh.Mesh` per layer,
vectorized over hexes, so a 100x100 map builds in a fraction of a second. Text layers take a
glyph atlas object (anything with ``texts``/``text`` like
:class:`~hexwar.render.text.GlyphAtlas`).

Decorations never cover the exact hex centre with anything but the colour
:meth:`Looks.centre_colour` names, which the pixel tests rely on.

Cosmetic variety (tree placement, building angles) comes from a fixed hash of the hex
coordinates, never from a random generator, so the same map always looks the same.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import numpy as np

from ..model.hexgrid import DIRECTIONS, Hex, Layout
from ..model.maps import BattleMap
from .looks import RGBA, Looks, mix, shade
from .mesh import Mesh, MeshBuilder, TexMesh, hex_corner_offsets

__all__ = [
    "EDGE_CORNERS",
    "DIRECTION_ANGLES",
    "axial_arrays",
    "bridge_mask",
    "build_buildings",
    "build_contours",
    "build_details",
    "build_features",
    "build_grid",
    "build_ground",
    "build_labels",
    "build_roads",
    "ground_colours",
    "hex_centres",
    "hex_hash",
    "linear_index",
    "road_links",
    "road_mask",
    "water_mask",
]

_SQRT3 = math.sqrt(3.0)
#: d6 direction (R2.3) -> the two corner numbers (0 = east, counter-clockwise, y up) of the
#: hexside facing that neighbour.
EDGE_CORNERS: dict[int, tuple[int, int]] = {1: (1, 2), 2: (0, 1), 3: (5, 0), 4: (4, 5), 5: (3, 4), 6: (2, 3)}
#: d6 direction -> screen angle (radians, y up) from a hex centre to that neighbour's centre.
DIRECTION_ANGLES: dict[int, float] = {
    1: math.pi / 2,
    2: math.pi / 6,
    3: -math.pi / 6,
    4: -math.pi / 2,
    5: -5 * math.pi / 6,
    6: 5 * math.pi / 6,
}


# -- coordinates ------------------------------------------------------------------------------
def axial_arrays(width: int, height: int) -> tuple[np.ndarray, np.ndarray]:
    """``(q, r)`` int64 ``[height, width]`` arrays of the map's hexes in odd-q layout (R2.2)."""
    col = np.broadcast_to(np.arange(width, dtype=np.int64)[None, :], (height, width))
    row = np.broadcast_to(np.arange(height, dtype=np.int64)[:, None], (height, width))
    q = col.copy()
    r = row - (col - (col & 1)) // 2
    return q, r


def hex_centres(width: int, height: int, layout: Layout) -> tuple[np.ndarray, np.ndarray]:
    """World ``(x, y)`` float64 ``[height, width]`` of every hex centre (same maths as Layout)."""
    q, r = axial_arrays(width, height)
    s = layout.size
    x = layout.origin[0] + s * 1.5 * q
    y = s * _SQRT3 * (r + q / 2.0)
    y = layout.origin[1] + (y if layout.y_down else -y)
    return x, y


def _neighbour(width: int, height: int, d: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For direction ``d``: neighbour (row, col) index arrays ``[H, W]`` and an in-bounds mask."""
    q, r = axial_arrays(width, height)
    dq, dr = DIRECTIONS[d]
    nq, nr = q + dq, r + dr
    ncol = nq
    nrow = nr + (nq - (nq & 1)) // 2
    inb = (ncol >= 0) & (ncol < width) & (nrow >= 0) & (nrow < height)
    return np.clip(nrow, 0, height - 1), np.clip(ncol, 0, width - 1), inb


def linear_index(width: int, height: int) -> np.ndarray:
    """``int64 [H, W]``: each hex's index ``row * width + col`` (the owner id of culled meshes)."""
    return np.arange(width * height, dtype=np.int64).reshape(height, width)


def hex_hash(q: np.ndarray, r: np.ndarray, salt: int = 0) -> np.ndarray:
    """A fixed pseudo-random ``uint32`` per hex (cosmetic only; no RNG state involved)."""
    h = (q.astype(np.uint64) * np.uint64(0x9E3779B1)) ^ (r.astype(np.uint64) * np.uint64(0x85EBCA77))
    h ^= np.uint64(salt * 0x27D4EB2F + 0x165667B1)
    h ^= h >> np.uint64(15)
    h *= np.uint64(0x2C1B3C6D)
    h ^= h >> np.uint64(12)
    return (h & np.uint64(0xFFFFFFFF)).astype(np.uint32)


def _unit(h: np.ndarray) -> np.ndarray:
    return h.astype(np.float64) / 4294967296.0


def road_mask(bmap: BattleMap, looks: Looks) -> np.ndarray:
    """``bool [H, W]``: hexes drawn with a road (the road flag or a road terrain type, R2.4)."""
    is_road_t = np.array([looks.terrain_look(t.key).road for t in bmap.rules.types], dtype=bool)
    return bmap.road | is_road_t[bmap.terrain]


def water_mask(bmap: BattleMap, looks: Looks) -> np.ndarray:
    """``bool [H, W]``: hexes of a terrain type drawn as water (looks pattern ``water``)."""
    is_water_t = np.array(
        [looks.terrain_look(t.key).pattern == "water" for t in bmap.rules.types], dtype=bool
    )
    return is_water_t[bmap.terrain]


def bridge_mask(bmap: BattleMap, looks: Looks, links: dict[int, np.ndarray] | None = None) -> np.ndarray:
    """``bool [H, W]``: road hexes drawn as bridges (the R2.4 bridge convention).

    A bridge is a road hex (:func:`road_mask`) with water on both sides of its road: two
    water neighbours that the hex's road links (:func:`road_links`) separate, i.e. each way
    round the hex from one to the other crosses a hexside the road uses. A road running
    along a river bank has its water on one side only and stays a road. A road hex with
    one link is treated as running straight on through the hex; one with none as running
    north-south (as :func:`build_roads` draws them). Hexes off the map are not water.

    Args:
        bmap: the map.
        looks: which terrain types are water (pattern ``water``) or roads.
        links: ``{direction: bool [H, W]}`` from :func:`road_links`, if already computed.
    """
    roads = road_mask(bmap, looks)
    if not roads.any():
        return np.zeros(roads.shape, dtype=bool)
    link = road_links(roads) if links is None else links
    water = water_mask(bmap, looks)
    count = sum(link[d].astype(np.int64) for d in range(1, 7))
    used = {}
    for d in range(1, 7):
        opp = (d + 2) % 6 + 1
        used[d] = link[d] | ((count == 1) & link[opp]) | ((count == 0) & (d in (1, 4)))
    wet = {}
    for d in range(1, 7):
        nrow, ncol, inb = _neighbour(bmap.width, bmap.height, d)
        wet[d] = inb & water[nrow, ncol] & ~used[d]
    out = np.zeros(roads.shape, dtype=bool)
    for a in range(1, 7):
        for b in range(a + 1, 7):
            one_way = np.zeros(roads.shape, dtype=bool)
            for d in range(a + 1, b):
                one_way |= used[d]
            other_way = np.zeros(roads.shape, dtype=bool)
            for d in [*range(b + 1, 7), *range(1, a)]:
                other_way |= used[d]
            out |= wet[a] & wet[b] & one_way & other_way
    return out & roads


def _check_layout(layout: Layout) -> None:
    if layout.y_down:
        raise ValueError(
            "the map renderer draws in a y-up world (Layout(y_down=False)), e.g. camera.WORLD_LAYOUT"
        )


# -- ground -----------------------------------------------------------------------------------
def _colour_lut(bmap: BattleMap, looks: Looks) -> tuple[np.ndarray, np.ndarray]:
    n = len(bmap.rules.types)
    centre = np.zeros((n, 10, 4), dtype=np.uint8)
    corner = np.zeros((n, 10, 4), dtype=np.uint8)
    for i, t in enumerate(bmap.rules.types):
        for lv in range(10):
            c = looks.ground_colour(t.key, lv)
            centre[i, lv] = c
            corner[i, lv] = shade(c, looks.corner_shade)
    return centre, corner


def ground_colours(bmap: BattleMap, looks: Looks) -> np.ndarray:
    """``uint8 [H*W*7, 4]``: per-vertex colours of :func:`build_ground` (centre then 6 corners).

    The centre vertex carries :meth:`Looks.ground_colour` exactly; corners are darkened by
    ``corner_shade`` for a soft relief.
    """
    centre, corner = _colour_lut(bmap, looks)
    t = bmap.terrain.reshape(-1).astype(np.int64)
    lv = np.clip(bmap.level.reshape(-1).astype(np.int64), 0, 9)
    out = np.empty((t.size, 7, 4), dtype=np.uint8)
    out[:, 0] = centre[t, lv]
    out[:, 1:] = corner[t, lv][:, None, :]
    return out.reshape(-1, 4)


def build_ground(bmap: BattleMap, looks: Looks, layout: Layout) -> Mesh:
    """All hex fills in one mesh: 7 vertices (centre + corners) and 6 triangles per hex.

    Hex ``(row, col)`` owns vertices ``7 * (row * W + col)`` .. ``+6``, so colours can be
    rewritten in place when terrain or levels change (the editor's paint strokes).
    """
    x, y = hex_centres(bmap.width, bmap.height, layout)
    c = np.stack([x.reshape(-1), y.reshape(-1)], axis=1)
    n = c.shape[0]
    _check_layout(layout)
    corners = hex_corner_offsets(layout.size * 1.0015)  # a hair larger: no cracks between hexes
    pos = np.empty((n, 7, 2), dtype=np.float64)
    pos[:, 0] = c
    pos[:, 1:] = c[:, None, :] + corners[None, :, :]
    tri = np.array([[0, 1 + i, 1 + (i + 1) % 6] for i in range(6)], dtype=np.int64).reshape(-1)
    idx = (tri[None, :] + (np.arange(n, dtype=np.int64) * 7)[:, None]).reshape(-1)
    return Mesh(
        pos.reshape(-1, 2).astype(np.float32),
        ground_colours(bmap, looks),
        idx.astype(np.uint32),
        np.repeat(np.arange(n, dtype=np.int64), 7),
    )


# -- pattern templates (unit hex size, y up) ---------------------------------------------------
def _chord(y: float, margin: float = 0.9) -> float:
    """Half-width of a unit flat-topped hex at height ``y`` (times ``margin``)."""
    return max(0.0, (1.0 - abs(y) / _SQRT3) * margin)


@lru_cache(maxsize=64)
def _pattern_template(pattern: str, fill: RGBA, detail: RGBA) -> Mesh:
    b = MeshBuilder()
    dark = shade(detail, 0.82)
    light = mix(fill, (255, 255, 255, 255), 0.18)
    if pattern == "trees":
        # ring of crowns, then one central crown whose body is the fill colour
        crowns = [
            (0.50, 0.52, 0.23),
            (0.53, 1.55, 0.21),
            (0.50, 2.62, 0.24),
            (0.52, 3.66, 0.21),
            (0.50, 4.70, 0.23),
            (0.53, 5.72, 0.2),
        ]
        for rad, ang, cr in crowns:
            cx, cy = rad * math.cos(ang), rad * math.sin(ang)
            b.circle(cx + 0.035, cy - 0.045, cr, (*dark[:3], 120), segments=9)
            b.circle(cx, cy, cr, detail, segments=10)
            b.circle(cx - 0.05, cy + 0.05, cr * 0.55, mix(detail, fill, 0.55), segments=7)
        b.circle(0.03, -0.04, 0.27, (*dark[:3], 120), segments=14)
        b.circle(0.0, 0.0, 0.27, detail, segments=14)
        b.circle(0.0, 0.0, 0.21, fill, segments=14)
    elif pattern == "scrub":
        for ang, rad in (
            (0.3, 0.55),
            (1.3, 0.42),
            (2.2, 0.6),
            (3.1, 0.45),
            (4.0, 0.58),
            (5.0, 0.42),
            (5.8, 0.6),
        ):
            cx, cy = rad * math.cos(ang), rad * math.sin(ang)
            for dx, dy, rr in ((-0.05, 0.0, 0.055), (0.05, 0.01, 0.05), (0.0, 0.05, 0.05)):
                b.circle(cx + dx, cy + dy, rr, detail, segments=8)
    elif pattern == "orchard":
        for i in range(6):
            ang = math.pi / 6 + i * math.pi / 3
            cx, cy = 0.52 * math.cos(ang), 0.52 * math.sin(ang)
            b.circle(cx + 0.03, cy - 0.04, 0.13, (*dark[:3], 110), segments=10)
            b.circle(cx, cy, 0.13, detail, segments=10)
            b.circle(cx - 0.03, cy + 0.03, 0.06, mix(detail, fill, 0.5), segments=8)
        for ang in (0.0, math.pi):
            cx, cy = 0.5 * math.cos(ang), 0.0
            b.circle(cx, cy, 0.1, detail, segments=10)
    elif pattern == "wheat":
        for yy in (-0.62, -0.37, -0.12, 0.12, 0.37, 0.62):
            hw = _chord(yy, 0.86)
            b.line(-hw, yy, hw, yy, 0.05, detail)
    elif pattern == "marsh":
        for cx, cy in ((-0.45, 0.35), (0.15, 0.5), (0.5, 0.2), (-0.55, -0.2), (0.35, -0.4), (-0.1, -0.55)):
            b.line(cx - 0.14, cy, cx + 0.14, cy, 0.035, (*light[:3], 200))
            for dx, ang in ((-0.05, 1.9), (0.0, 1.57), (0.05, 1.25)):
                b.line(
                    cx + dx,
                    cy + 0.01,
                    cx + dx + 0.14 * math.cos(ang),
                    cy + 0.01 + 0.14 * math.sin(ang),
                    0.025,
                    detail,
                )
    elif pattern == "water":
        for cx, cy in ((-0.4, 0.4), (0.3, 0.48), (0.5, -0.1), (-0.5, -0.25), (0.05, -0.55), (-0.1, 0.22)):
            pts = [(cx - 0.14 + 0.07 * i, cy + 0.025 * math.sin(i * math.pi / 2)) for i in range(5)]
            b.polyline(pts, 0.03, detail, round_joins=False)
    return b.build()


def build_details(bmap: BattleMap, looks: Looks, layout: Layout) -> Mesh:
    """Terrain patterns (trees, scrub, orchards, furrows, reeds, ripples), shaded by level."""
    x, y = hex_centres(bmap.width, bmap.height, layout)
    q, r = axial_arrays(bmap.width, bmap.height)
    lin = linear_index(bmap.width, bmap.height)
    parts = []
    for ti, t in enumerate(bmap.rules.types):
        look = looks.terrain_look(t.key)
        if look.pattern in ("none", "building"):
            continue
        mask = bmap.terrain == ti
        if not mask.any():
            continue
        tpl = _pattern_template(look.pattern, look.fill, look.detail)
        if not tpl.vertex_count:
            continue
        hh = hex_hash(q[mask], r[mask], salt=ti)
        if look.pattern in ("trees", "scrub", "marsh", "water"):
            rot = _unit(hh) * 2 * math.pi
        else:  # rows keep to one of the three hex axes
            rot = (hh % 3).astype(np.float64) * (math.pi / 3)
        offs = np.stack([x[mask], y[mask]], axis=1)
        lv = np.clip(bmap.level[mask].astype(np.int64), 0, 9)
        # the template's colours shaded for each of the 10 levels, then looked up per hex (the
        # same numbers as shading every hex's copy, without a float64 array per vertex)
        blend = np.array([looks.level_blend(i) for i in range(10)])
        tint = np.asarray(looks.level_tint, dtype=np.float64)
        cols = tpl.colors.astype(np.float64)[None, :, :]
        shaded = np.repeat(cols, len(blend), axis=0)
        shaded[..., :3] = cols[..., :3] * (1 - blend[:, None, None]) + tint[:3] * blend[:, None, None]
        lut = np.round(shaded).astype(np.uint8)
        m = tpl.instanced(
            offs,
            rotations=rot,
            scales=np.full(len(offs), layout.size),
            colors=lut[lv],
            owners=lin[mask],
        )
        parts.append(m)
    return Mesh.concat(parts)


# -- contours, roads, grid --------------------------------------------------------------------
def _edge_quads(
    cx: np.ndarray,
    cy: np.ndarray,
    d: int,
    size: float,
    width: float,
    inset: float,
    colour: RGBA,
    extend: float = 0.0,
    owners: np.ndarray | None = None,
) -> Mesh:
    """Quads along the hexside in direction ``d`` of hexes centred at ``(cx, cy)``."""
    n = cx.size
    if n == 0:
        return Mesh.empty()
    a, b = EDGE_CORNERS[d]
    corners = hex_corner_offsets(size)
    pa, pb = corners[a], corners[b]
    ang = DIRECTION_ANGLES[d]
    nrm = np.array([math.cos(ang), math.sin(ang)])
    along = (pb - pa) / np.linalg.norm(pb - pa)
    pa = pa - along * extend - nrm * inset
    pb = pb + along * extend - nrm * inset
    hw = nrm * width / 2
    tpl = np.array([pa + hw, pa - hw, pb - hw, pb + hw])
    pos = tpl[None, :, :] + np.stack([cx, cy], axis=1)[:, None, :]
    idx = (np.array([0, 1, 2, 0, 2, 3])[None, :] + (np.arange(n) * 4)[:, None]).reshape(-1)
    col = np.broadcast_to(np.asarray(colour, dtype=np.uint8), (n * 4, 4)).copy()
    own = None if owners is None else np.repeat(np.asarray(owners, dtype=np.int64), 4)
    return Mesh(pos.reshape(-1, 2).astype(np.float32), col, idx.astype(np.uint32), own)


def build_contours(bmap: BattleMap, looks: Looks, layout: Layout) -> Mesh:
    """Contour lines on every hexside between different ground levels, on the higher side."""
    x, y = hex_centres(bmap.width, bmap.height, layout)
    lin = linear_index(bmap.width, bmap.height)
    s = layout.size
    w = looks.contour_width * s
    parts = []
    for d in range(1, 7):
        nrow, ncol, inb = _neighbour(bmap.width, bmap.height, d)
        higher = inb & (bmap.level > bmap.level[nrow, ncol])
        if higher.any():
            parts.append(
                _edge_quads(
                    x[higher], y[higher], d, s, w, w / 2, looks.contour, extend=w * 0.3, owners=lin[higher]
                )
            )
    return Mesh.concat(parts)


def build_grid(bmap: BattleMap, looks: Looks, layout: Layout) -> Mesh:
    """Hex grid lines (each hexside once) and a heavier border round the map."""
    x, y = hex_centres(bmap.width, bmap.height, layout)
    lin = linear_index(bmap.width, bmap.height)
    s = layout.size
    w = looks.grid_width * s
    inner, border = [], []
    for d in range(1, 7):
        _, _, inb = _neighbour(bmap.width, bmap.height, d)
        if d in (1, 2, 3):
            m = inb
            inner.append(
                _edge_quads(x[m], y[m], d, s, w, 0.0, looks.map["grid"], extend=w / 2, owners=lin[m])
            )
        off = ~inb
        bw = max(w * 2.2, 0.06 * s)
        border.append(
            _edge_quads(x[off], y[off], d, s, bw, bw / 2, looks.map["edge"], extend=bw / 2, owners=lin[off])
        )
    return Mesh.concat(inner + border)


def road_links(roads: np.ndarray) -> dict[int, np.ndarray]:
    """Which road hexes connect, as ``{direction: bool [H, W]}`` (both ends marked, R2.4).

    Neighbouring road hexes connect, except that no three mutually adjacent road hexes are
    all joined: a triangle's last link is left out, so wide streets and town squares read
    as roads rather than a web. Links between plain road hexes (at most two road
    neighbours) are kept first, then north-south links, then the rest, so ordinary roads
    never lose a segment.
    """
    height, width = roads.shape
    deg = np.zeros(roads.shape, dtype=np.int64)
    nbr = {}
    for d in range(1, 7):
        nrow, ncol, inb = _neighbour(width, height, d)
        m = roads & inb & roads[nrow, ncol]
        nbr[d] = (nrow, ncol, m)
        deg += m
    edges: list[tuple[int, int, int, int, int, int]] = []  # (priority, row, col, d, nrow, ncol)
    for d in (1, 2, 3):
        nrow, ncol, m = nbr[d]
        rr, cc = np.nonzero(m)
        for r0, c0 in zip(rr.tolist(), cc.tolist(), strict=True):
            r1, c1 = int(nrow[r0, c0]), int(ncol[r0, c0])
            simple = deg[r0, c0] <= 2 and deg[r1, c1] <= 2
            pri = 0 if simple else (1 if d == 1 else 2)
            edges.append((pri, r0, c0, d, r1, c1))
    edges.sort()
    adj: dict[tuple[int, int], set[tuple[int, int]]] = {}
    out = {d: np.zeros(roads.shape, dtype=bool) for d in range(1, 7)}
    for _, r0, c0, d, r1, c1 in edges:
        a, b = (r0, c0), (r1, c1)
        if adj.get(a, set()) & adj.get(b, set()):
            continue  # would close a triangle
        adj.setdefault(a, set()).add(b)
        adj.setdefault(b, set()).add(a)
        out[d][r0, c0] = True
        out[(d + 2) % 6 + 1][r1, c1] = True
    return out


def build_roads(bmap: BattleMap, looks: Looks, layout: Layout) -> tuple[Mesh, Mesh]:
    """Roads as lines from each road hex's centre to the hexsides it shares with linked roads.

    Links come from :func:`road_links`. A road hex on the map edge with one link continues
    off the board opposite it; an isolated road hex shows a short stub. Bridges
    (:func:`bridge_mask`, R2.4) are drawn over water: the hex filled with the water colour
    and ripples, a deck ``bridge_width`` wide in the road colour and a ``bridge_parapet``
    line along each edge of the deck.

    Returns:
        ``(edges, surface)``: the darker road edges, drawn first (one layer), then the
        road surface over them (the next layer), so junctions read as one road.
    """
    roads = road_mask(bmap, looks)
    if not roads.any():
        return Mesh.empty(), Mesh.empty()
    x, y = hex_centres(bmap.width, bmap.height, layout)
    lin = linear_index(bmap.width, bmap.height)
    s = layout.size
    half = s * _SQRT3 / 2
    segs: list[tuple[np.ndarray, int, float]] = []  # (hex mask, direction, length)
    link = road_links(roads)
    count = sum(link.values())
    offmap = {d: ~_neighbour(bmap.width, bmap.height, d)[2] for d in range(1, 7)}
    for d in range(1, 7):
        m = link[d].copy()
        opp = (d + 2) % 6 + 1
        # dead end on the board edge: run off the map, away from its one neighbour
        m |= roads & (count == 1) & link[opp] & offmap[d]
        if m.any():
            segs.append((m, d, half * 1.02))
    lonely = roads & (count == 0)
    if lonely.any():
        segs.append((lonely, 1, half * 0.55))
        segs.append((lonely, 4, half * 0.55))
    bridge = bridge_mask(bmap, looks, link)
    if bridge.any():
        # a bridge whose road stops in it still reaches the far bank (never out over water)
        water = water_mask(bmap, looks)
        for d in range(1, 7):
            opp = (d + 2) % 6 + 1
            nrow, ncol, inb = _neighbour(bmap.width, bmap.height, d)
            m = bridge & (count == 1) & link[opp] & inb & ~water[nrow, ncol]
            if m.any():
                segs.append((m, d, half * 1.02))
    rw = looks.road_width * s
    ew = rw + 2 * looks.road_edge_width * s
    bw = max(looks.bridge_width * s, ew)
    pw = bw + 2 * looks.bridge_parapet_width * s

    def pass_(width: float, colour: RGBA, mask: np.ndarray, plain: bool) -> Mesh:
        parts = []
        for sm, d, ln in segs:
            m = sm & mask
            if not m.any():
                continue
            ang = DIRECTION_ANGLES[d]
            b = MeshBuilder()
            b.line(0.0, 0.0, ln * math.cos(ang), ln * math.sin(ang), width, colour)
            parts.append(b.build().instanced(np.stack([x[m], y[m]], axis=1), owners=lin[m]))
        m = roads & mask
        if m.any():
            disc = MeshBuilder()
            disc.circle(0.0, 0.0, width / 2, colour, segments=14 if plain else 24)
            parts.append(disc.build().instanced(np.stack([x[m], y[m]], axis=1), owners=lin[m]))
        return Mesh.concat(parts)

    edges = [pass_(ew, looks.road_edge, ~bridge, True)]
    surface = [pass_(rw, looks.road, ~bridge, True)]
    if bridge.any():
        # R2.4 bridge: water under the hex, parapets over the neighbours' road edges, then
        # the deck (road colour, so the hex centre still reads as road) over everything
        edges.insert(0, _bridge_water(bmap, looks, layout, bridge, x, y, lin))
        edges.append(pass_(pw, looks.bridge_parapet, bridge, False))
        surface.append(pass_(bw, looks.road, bridge, False))
    return Mesh.concat(edges), Mesh.concat(surface)


def _bridge_water(
    bmap: BattleMap,
    looks: Looks,
    layout: Layout,
    bridge: np.ndarray,
    x: np.ndarray,
    y: np.ndarray,
    lin: np.ndarray,
) -> Mesh:
    """The water a bridge spans: each bridge hex filled like its water neighbours, with ripples."""
    keys = [t.key for t in bmap.rules.types if looks.terrain_look(t.key).pattern == "water"]
    look = looks.terrain_look(keys[0])
    fill = looks.ground_colour(look.key, 0)
    corners = hex_corner_offsets(layout.size * 1.0015)
    pos = np.concatenate([np.zeros((1, 2)), corners], axis=0)
    cols = np.array([fill] + [shade(fill, looks.corner_shade)] * 6, dtype=np.uint8)
    tri = np.array([[0, 1 + i, 1 + (i + 1) % 6] for i in range(6)], dtype=np.uint32).reshape(-1)
    hexm = Mesh(pos.astype(np.float32), cols, tri)
    offs = np.stack([x[bridge], y[bridge]], axis=1)
    parts = [hexm.instanced(offs, owners=lin[bridge])]
    tpl = _pattern_template("water", look.fill, look.detail)
    q, r = axial_arrays(bmap.width, bmap.height)
    rot = _unit(hex_hash(q[bridge], r[bridge], salt=3)) * 2 * math.pi
    parts.append(
        tpl.instanced(offs, rotations=rot, scales=np.full(len(offs), layout.size), owners=lin[bridge])
    )
    return Mesh.concat(parts)


# -- buildings and rubble ---------------------------------------------------------------------
@lru_cache(maxsize=16)
def _building_template(style: str, roof: RGBA, outline: RGBA) -> Mesh:
    b = MeshBuilder()
    shadow = (0, 0, 0, 70)
    if style == "wood":
        hw, hh, ow = 0.46, 0.31, 0.05
        b.rect(-hw + 0.06, -hh - 0.07, hw + 0.06, hh - 0.07, shadow)
        b.rect(-hw, -hh, hw, hh, outline)
        b.rect(-hw + ow, -hh + ow, hw - ow, hh - ow, roof)
        plank = shade(roof, 0.84)
        for yy in (-0.17, -0.09, 0.09, 0.17):
            b.line(-hw + ow, yy, hw - ow, yy, 0.018, plank)
    elif style == "stone":
        hw, hh, ow = 0.5, 0.35, 0.075
        b.rect(-hw + 0.07, -hh - 0.08, hw + 0.07, hh - 0.08, shadow)
        b.rect(-hw, -hh, hw, hh, outline)
        b.rect(-hw + ow, -hh + ow, hw - ow, hh - ow, roof)
        hip = shade(roof, 0.8)
        ix, iy = 0.2, 0.07
        for sx in (-1, 1):
            for sy in (-1, 1):
                b.line(sx * (hw - ow), sy * (hh - ow), sx * ix, sy * iy, 0.025, hip)
        b.line(-ix, iy, ix, iy, 0.025, hip)
        b.line(-ix, -iy, ix, -iy, 0.025, hip)
        b.line(-ix, -iy, -ix, iy, 0.025, hip)
        b.line(ix, -iy, ix, iy, 0.025, hip)
    else:  # reinforced: a squat concrete bunker with a heavy double wall and firing slits
        hw, ow = 0.4, 0.11
        b.rect(-hw + 0.07, -hw - 0.08, hw + 0.07, hw - 0.08, shadow)
        b.rect(-hw, -hw, hw, hw, outline)
        b.rect(-hw + ow, -hw + ow, hw - ow, hw - ow, roof)
        b.frame(-0.2, -0.2, 0.2, 0.2, 0.035, shade(outline, 1.6))
        slit = (20, 20, 18, 255)
        for px, py, vert in (
            (0.0, hw - ow / 2, False),
            (0.0, -hw + ow / 2, False),
            (hw - ow / 2, 0.0, True),
            (-hw + ow / 2, 0.0, True),
        ):
            if vert:
                b.rect(px - 0.025, py - 0.12, px + 0.025, py + 0.12, slit)
            else:
                b.rect(px - 0.12, py - 0.025, px + 0.12, py + 0.025, slit)
    return b.build()


@lru_cache(maxsize=4)
def _rubble_template(light: RGBA, dark: RGBA) -> Mesh:
    b = MeshBuilder()
    radii = [0.44, 0.36, 0.46, 0.38, 0.43, 0.34, 0.45, 0.37, 0.42, 0.35]
    pts = [
        (rr * math.cos(i * 2 * math.pi / len(radii)), rr * 0.8 * math.sin(i * 2 * math.pi / len(radii)))
        for i, rr in enumerate(radii)
    ]
    b.polygon([(px + 0.05, py - 0.06) for px, py in pts], (0, 0, 0, 60))
    b.polygon(pts, light)
    # broken wall stubs of the old building
    for x0, y0, x1, y1 in (
        (-0.42, 0.26, -0.12, 0.3),
        (0.08, 0.3, 0.3, 0.27),
        (0.4, 0.1, 0.43, -0.12),
        (-0.44, -0.05, -0.41, -0.22),
        (-0.2, -0.31, 0.1, -0.3),
    ):
        b.line(x0, y0, x1, y1, 0.06, dark)
    for cx, cy, sz, ang in (
        (0.22, 0.12, 0.07, 0.3),
        (-0.25, 0.05, 0.06, 1.0),
        (0.05, -0.2, 0.065, 0.6),
        (-0.1, 0.2, 0.05, 1.4),
        (0.28, -0.16, 0.05, 0.2),
        (-0.3, -0.15, 0.055, 0.9),
    ):
        c, s = math.cos(ang) * sz, math.sin(ang) * sz
        b.polygon([(cx + c, cy + s), (cx - s, cy + c), (cx - c, cy - s), (cx + s, cy - c)], dark)
    return b.build()


def build_buildings(bmap: BattleMap, looks: Looks, layout: Layout) -> Mesh:
    """Buildings by DR (wood, stone, reinforced looks) and rubble where they were destroyed."""
    x, y = hex_centres(bmap.width, bmap.height, layout)
    q, r = axial_arrays(bmap.width, bmap.height)
    lin = linear_index(bmap.width, bmap.height)
    parts = []
    angles = np.radians(np.array([0.0, 8.0, -10.0, 0.0, 15.0, -5.0, 0.0, 60.0, -60.0, 30.0]))
    for ti, t in enumerate(bmap.rules.types):
        look = looks.terrain_look(t.key)
        if look.pattern != "building":
            continue
        mask = (bmap.terrain == ti) & ~bmap.rubble
        if mask.any():
            assert look.roof is not None and look.outline is not None and look.style is not None
            tpl = _building_template(look.style, look.roof, look.outline)
            rot = angles[hex_hash(q[mask], r[mask], 7) % len(angles)]
            parts.append(
                tpl.instanced(
                    np.stack([x[mask], y[mask]], 1),
                    rotations=rot,
                    scales=np.full(int(mask.sum()), layout.size),
                    owners=lin[mask],
                )
            )
    rub = bmap.rubble & bmap.building_mask()
    if rub.any():
        tpl = _rubble_template(looks.features["rubble"], looks.features["rubble_dark"])
        rot = _unit(hex_hash(q[rub], r[rub], 11)) * 2 * math.pi
        parts.append(
            tpl.instanced(
                np.stack([x[rub], y[rub]], 1),
                rotations=rot,
                scales=np.full(int(rub.sum()), layout.size),
                owners=lin[rub],
            )
        )
    return Mesh.concat(parts)


# -- labels -----------------------------------------------------------------------------------
def build_labels(bmap: BattleMap, looks: Looks, layout: Layout, atlas: Any) -> TexMesh:
    """Hex labels (``D07``, R2.2) at the top of every hex, one text mesh for the whole map."""
    x, y = hex_centres(bmap.width, bmap.height, layout)
    s = layout.size
    texts = [
        Hex.from_offset(c, rr).to_label(bmap.row_digits)
        for rr in range(bmap.height)
        for c in range(bmap.width)
    ]
    ys = y.reshape(-1) + s * _SQRT3 / 2 - 0.07 * s
    return atlas.texts(
        texts,
        x.reshape(-1),
        ys,
        looks.label_height * s,
        looks.map["label"],
        anchor_y="top",
        owners=np.arange(len(texts), dtype=np.int64),
    )


# -- battlefield features: wrecks, fire, artillery marker (R8.1, R8.4, R9.2) ------------------
def _flame(b: MeshBuilder, cx: float, cy: float, h: float, outer: RGBA, inner: RGBA) -> None:
    w = h * 0.42
    pts = (
        [(cx, cy + h), (cx + w * 0.55, cy + h * 0.35)]
        + [(cx + w * math.cos(a), cy + w * math.sin(a)) for a in np.linspace(0.2, -math.pi - 0.2, 10)]
        + [(cx - w * 0.55, cy + h * 0.35)]
    )
    b.polygon(pts, outer)
    ih = h * 0.55
    iw = w * 0.55
    ipts = [(cx, cy + ih)] + [
        (cx + iw * math.cos(a), cy - w * 0.25 + iw * math.sin(a)) for a in np.linspace(0.3, -math.pi - 0.3, 8)
    ]
    b.polygon(ipts, inner)


def build_features(bmap: BattleMap, looks: Looks, layout: Layout, atlas: Any) -> tuple[Mesh, TexMesh]:
    """Wreck counters (R8.1), fires (R8.4) and the artillery marker (R9.2).

    Wrecks sit at the lower left of their hex as small counters stacked bottom first; the
    top one shows its Defense modifier (white: all units, red: soft units only) and "LOS"
    when it blocks line of sight. Fires show flames and smoke at the upper right of the
    building. The artillery marker is a red target ring with a north tick.
    """
    _check_layout(layout)
    s = layout.size
    sign = 1.0
    f = looks.features
    b = MeshBuilder()
    texts: list[TexMesh] = []
    for h, stack in sorted(bmap.wrecks.items()):
        if not stack or not bmap.in_bounds(h):
            continue
        cx, cy = layout.hex_to_pixel(h)
        bx, by = cx - 0.42 * s, cy + sign * -0.36 * s
        half = 0.3 * s
        for k, wid in enumerate(stack):
            ox, oy = bx + k * 0.06 * s, by + sign * k * 0.06 * s
            b.rect(
                ox - half + 0.04 * s,
                oy - half - 0.05 * s,
                ox + half + 0.04 * s,
                oy + half - 0.05 * s,
                (0, 0, 0, 80),
            )
            b.rect(ox - half, oy - half, ox + half, oy + half, f["wreck_edge"])
            b.rect(
                ox - half + 0.03 * s,
                oy - half + 0.03 * s,
                ox + half - 0.03 * s,
                oy + half - 0.03 * s,
                f["wreck"],
            )
            # burnt-out hull: body, turret, skewed barrel
            hull = shade(f["wreck"], 1.6)
            b.rect(ox - 0.19 * s, oy - 0.04 * s, ox + 0.19 * s, oy + 0.07 * s, hull)
            b.rect(ox - 0.08 * s, oy + 0.07 * s, ox + 0.08 * s, oy + 0.14 * s, hull)
            b.line(ox + 0.06 * s, oy + 0.115 * s, ox + 0.24 * s, oy + 0.2 * s, 0.03 * s, hull)
            if k == len(stack) - 1:
                wc = bmap.rules.wrecks.get(wid)
                if wc is not None:
                    if wc.modifier:
                        col = f["wreck_red"] if wc.applies == "soft" else f["wreck_text"]
                        texts.append(
                            atlas.text(
                                f"{wc.modifier:+d}",
                                ox + 0.14 * s,
                                oy - 0.17 * s,
                                0.19 * s,
                                col,
                                anchor_x="center",
                                anchor_y="center",
                                style="bold",
                            )
                        )
                    if wc.los:
                        texts.append(
                            atlas.text(
                                "LOS",
                                ox - 0.12 * s,
                                oy - 0.17 * s,
                                0.15 * s,
                                f["wreck_text"],
                                anchor_x="center",
                                anchor_y="center",
                                style="condensed",
                            )
                        )
    fr, fc = np.nonzero(bmap.fire)
    for rr, cc in zip(fr.tolist(), fc.tolist(), strict=True):
        cx, cy = layout.hex_to_pixel(Hex.from_offset(cc, rr))
        fx, fy = cx + 0.4 * s, cy + sign * 0.08 * s
        b.circle(fx + 0.06 * s, fy + sign * 0.5 * s, 0.16 * s, f["smoke"], segments=14)
        b.circle(fx + 0.2 * s, fy + sign * 0.62 * s, 0.12 * s, f["smoke"], segments=14)
        _flame(b, fx - 0.14 * s, fy - 0.02 * s, 0.34 * s * sign, f["fire"], f["fire_core"])
        _flame(b, fx + 0.14 * s, fy, 0.4 * s * sign, f["fire"], f["fire_core"])
        _flame(b, fx, fy - 0.08 * s, 0.54 * s * sign, f["fire"], f["fire_core"])
    if bmap.artillery_marker is not None and bmap.in_bounds(bmap.artillery_marker):
        cx, cy = layout.hex_to_pixel(bmap.artillery_marker)
        b.ring(cx, cy, 0.60 * s, 0.70 * s, (*f["artillery_fill"][:3], 150), segments=36)
        b.ring(cx, cy, 0.62 * s, 0.68 * s, f["artillery"], segments=36)
        for ang in (0.0, math.pi / 2, math.pi, 3 * math.pi / 2):
            c, sn = math.cos(ang), math.sin(ang)
            b.line(
                cx + c * 0.5 * s,
                cy + sn * 0.5 * s,
                cx + c * 0.8 * s,
                cy + sn * 0.8 * s,
                0.06 * s,
                f["artillery"],
            )
        # facing north (R9.2): a small arrow head on the north tick
        ny = cy + sign * 0.82 * s
        b.polygon([(cx, ny + sign * 0.14 * s), (cx - 0.09 * s, ny), (cx + 0.09 * s, ny)], f["artillery"])
    return b.build(), TexMesh.concat(texts)
