"""A drawing kit for hex battle maps: curves, bands, shapes, villages and a ground-level field.

:class:`MapBuilder` draws a place on a fresh :class:`~hexwar.model.maps.BattleMap` through its
methods (``set_terrain``, ``set_level``, ``set_road``, ``set_rubble``): smooth curves through hex
labels for rivers and roads, bands of a given width, rectangles, polygons, ellipses, street
blocks, villages strung along a road, and a ground-level field with hills, ramps and carved
valleys. Everything is deterministic: the only "randomness" is a hash of the hex's offset and a
text salt (:func:`noise`), so the same calls always give byte-identical maps. The shipped maps
(``tools/build_maps.py``) and the map generator (:mod:`hexwar.mapgen`) both draw with it.

Conventions (R2): odd-q flat-topped hexes, columns ``A..``, rows ``01..``; points are given as
CoH labels (``"D07"``) or 0-based offset tuples ``(col, row)``. Internally positions are hex
centres in "hex units": neighbouring centres lie 1.0 apart, ``x = 0.866 * col``,
``y = row + 0.5`` on odd columns. Map decisions (R2.4): every ``'='`` road hex carries the road
flag and every road-flag hex has road terrain; a bridge is a road hex drawn across a river
(the water hex becomes road terrain), so movement needs no special bridge rule.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Sequence

import numpy as np

from .model.hexgrid import Hex, Layout, hex_line
from .model.maps import BattleMap

__all__ = ["MapBuilder", "Point", "noise", "nearest_sample"]

_UNIT_LAYOUT = Layout(1.0 / math.sqrt(3.0))

Point = str | tuple[int, int]

_SQRT3_2 = math.sqrt(3.0) / 2.0  # x distance between neighbouring columns, in hex units


def noise(col: int, row: int, salt: str = "") -> float:
    """A deterministic pseudo-random number in ``[0, 1)`` for hex ``(col, row)`` and ``salt``.

    A hash (BLAKE2b) rather than a random generator, so every platform and numpy version
    builds byte-identical maps; different salts give independent values.

    >>> noise(3, 4, "a") == noise(3, 4, "a"), noise(3, 4, "a") != noise(3, 4, "b")
    (True, True)
    """
    d = hashlib.blake2b(f"{salt}:{col}:{row}".encode(), digest_size=8).digest()
    return int.from_bytes(d, "big") / 2.0**64


_BRUTE_CELLS = 1 << 22  # cells x samples per brute-force block (32 MB of float64)


def _nearest_brute(px: np.ndarray, py: np.ndarray, s: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The reference of :func:`nearest_sample`: every sample for every point, in blocks of
    points so no array exceeds :data:`_BRUTE_CELLS` entries."""
    n = px.size
    best = np.empty(n)
    k = np.empty(n, dtype=np.int64)
    step = max(1, _BRUTE_CELLS // max(1, len(s)))
    for a in range(0, n, step):
        dx = px[a : a + step, None] - s[:, 0]
        dy = py[a : a + step, None] - s[:, 1]
        d2 = dx * dx + dy * dy
        kk = d2.argmin(axis=-1)
        k[a : a + step] = kk
        best[a : a + step] = np.take_along_axis(d2, kk[:, None], -1)[:, 0]
    return np.sqrt(best), k


def nearest_sample(
    px: np.ndarray, py: np.ndarray, s: np.ndarray, block: int = 32, tile: int = 8
) -> tuple[np.ndarray, np.ndarray]:
    """Distance from every point of a grid to its nearest sample, and that sample's index.

    Exactly what comparing every sample with every point gives (``sqrt`` of the least
    ``dx * dx + dy * dy``, the first sample of equal ones; :func:`_nearest_brute`), without
    comparing them all (issue 35: the full comparison of a 500x500 map with a river's 13,000
    samples is 3.3 billion entries). The samples are cut into runs of ``block`` in their
    order and the grid into ``tile`` x ``tile`` tiles, each bounded by a circle. A tile is
    compared with a run only when the circles' distance is not clearly more than the
    distance from the tile's circle to the farthest of the nearest run's first sample: every
    sample of a run left out is strictly farther from every point of the tile than that
    sample, so it is neither the least nor equal to it. A tile's runs are compared together,
    in sample order, so ``argmin`` picks the first of equal samples.

    Args:
        px, py: ``float [h, w]`` point coordinates (hex units).
        s: ``float [m, 2]`` sample coordinates, ``m >= 1``.
        block: samples a run.
        tile: points a tile side.

    Returns:
        ``(distance float [h, w], index int64 [h, w])``.
    """
    m = len(s)
    h, w = px.shape
    if px.size == 0 or m <= 2 * block:
        d, k = _nearest_brute(px.ravel(), py.ravel(), s)
        return d.reshape(h, w), k.reshape(h, w)
    nb = (m + block - 1) // block
    starts = np.arange(nb) * block
    pad = nb * block - m  # the last run padded with copies of the last sample (never nearer)
    sp = np.vstack([s, np.repeat(s[-1:], pad, axis=0)]).reshape(nb, block, 2)
    centre = sp.mean(axis=1)
    radius = np.sqrt(((sp - centre[:, None, :]) ** 2).sum(axis=2)).max(axis=1) * (1.0 + 1e-9) + 1e-9
    best = np.empty((h, w))
    k = np.empty((h, w), dtype=np.int64)
    for r0 in range(0, h, tile):
        for c0 in range(0, w, tile):
            tx, ty = px[r0 : r0 + tile, c0 : c0 + tile], py[r0 : r0 + tile, c0 : c0 + tile]
            xm, ym = 0.5 * (tx.min() + tx.max()), 0.5 * (ty.min() + ty.max())
            rt = float(np.sqrt(((tx - xm) ** 2 + (ty - ym) ** 2).max())) * (1.0 + 1e-9) + 1e-9
            upper = float(np.hypot(xm - s[starts, 0], ym - s[starts, 1]).min()) + rt
            lower = np.hypot(xm - centre[:, 0], ym - centre[:, 1]) - radius - rt
            runs = np.flatnonzero(lower <= upper * (1.0 + 1e-9) + 1e-9)
            idx = (starts[runs][:, None] + np.arange(block)).ravel()
            idx = idx[idx < m]
            dx = tx.reshape(-1, 1) - s[idx, 0]
            dy = ty.reshape(-1, 1) - s[idx, 1]
            d2 = dx * dx + dy * dy
            kk = d2.argmin(axis=1)
            best[r0 : r0 + tile, c0 : c0 + tile] = np.take_along_axis(d2, kk[:, None], 1)[:, 0].reshape(
                tx.shape
            )
            k[r0 : r0 + tile, c0 : c0 + tile] = idx[kk].reshape(tx.shape)
    return np.sqrt(best), k


class MapBuilder:
    """A drawing kit over a fresh :class:`BattleMap` of ``width`` x ``height`` hexes.

    Shape methods (:meth:`path`, :meth:`band`, :meth:`rect`, :meth:`polygon`, :meth:`ellipse`,
    :meth:`blob`) return lists of on-map hexes without changing anything; :meth:`paint`,
    :meth:`road` and the building helpers change terrain; :meth:`hill`, :meth:`ramp`,
    :meth:`carve` and :meth:`set_z` shape the float ground field ``z`` that :meth:`finish`
    rounds into ground levels 0..9 (R2.4, R3.4).

    Args:
        width, height: map size in hexes.
        name, description: the map's display name and player-facing description.
        fill: terrain code everywhere at the start (default clear ``'.'``).
        base_level: starting ground field value in levels.

    Raises:
        MapError: (from BattleMap) for an impossible size or an unknown code.
    """

    def __init__(
        self, width: int, height: int, name: str, description: str, fill: str = ".", base_level: float = 0.0
    ) -> None:
        self.map = BattleMap.new(width, height, "clear", name=name)
        self.map.description = description
        self._key = {t.code: t.key for t in self.map.rules.types}
        self.width, self.height = width, height
        cols, rows = np.meshgrid(np.arange(width), np.arange(height))
        self.cx = cols * _SQRT3_2  # [row, col] centre x in hex units
        self.cy = rows + 0.5 * (cols & 1)  # [row, col] centre y in hex units
        self.z = np.full((height, width), float(base_level))
        self.reserved: set[Hex] = set()  # open squares: only roads may be drawn on them
        if fill != ".":
            self.paint(self.all(), fill)

    # -- coordinates -----------------------------------------------------------------
    def hex(self, p: Point) -> Hex:
        """The hex of a label (``"D07"``) or an offset tuple ``(col, row)`` (may be off-map)."""
        if isinstance(p, str):
            return Hex.from_label(p)
        return Hex.from_offset(int(p[0]), int(p[1]))

    def xy(self, p: Point) -> tuple[float, float]:
        """Centre of point ``p`` in hex units (neighbouring centres 1.0 apart)."""
        col, row = self.hex(p).offset
        return col * _SQRT3_2, row + 0.5 * (col & 1)

    def on(self, h: Hex) -> bool:
        """True when ``h`` lies on the map."""
        return self.map.in_bounds(h)

    def all(self) -> list[Hex]:
        """Every hex of the map, row by row."""
        return [Hex.from_offset(c, r) for r in range(self.height) for c in range(self.width)]

    def code(self, h: Hex) -> str:
        """The terrain code of ``h``."""
        return self.map.terrain_at(h).code

    def _mask_hexes(self, mask: np.ndarray) -> list[Hex]:
        rows, cols = np.nonzero(mask)
        return [Hex.from_offset(int(c), int(r)) for r, c in zip(rows, cols, strict=True)]

    # -- shapes ------------------------------------------------------------------------
    def spline(self, points: Sequence[Point], smooth: bool = True, step: float = 0.05) -> np.ndarray:
        """Sample a curve through ``points`` (Catmull-Rom when ``smooth``, else straight legs).

        Returns ``float [M, 3]``: x, y in hex units and the curve parameter ``t`` in 0..len-1
        (control point index), sampled about every ``step`` hex units.
        """
        xy = [self.xy(p) for p in points]
        xy = [p for i, p in enumerate(xy) if i == 0 or p != xy[i - 1]]  # drop repeated points
        pts = np.array(xy, dtype=float)
        if len(pts) == 1:
            return np.array([[pts[0, 0], pts[0, 1], 0.0]])
        ext = np.vstack([2 * pts[0] - pts[1], pts, 2 * pts[-1] - pts[-2]])
        out = []
        for i in range(len(pts) - 1):
            p0, p1, p2, p3 = ext[i], ext[i + 1], ext[i + 2], ext[i + 3]
            # the curve is no longer than its Bezier control polygon: sample that finely
            b1, b2 = p1 + (p2 - p0) / 6.0, p2 - (p3 - p1) / 6.0
            bound = float(np.hypot(*(b1 - p1)) + np.hypot(*(b2 - b1)) + np.hypot(*(p2 - b2)))
            n = max(2, int(math.ceil((bound if smooth else float(np.hypot(*(p2 - p1)))) / step)))
            t = np.arange(n) / n
            if smooth:
                t2, t3 = t * t, t * t * t
                seg = 0.5 * (
                    np.outer(np.full_like(t, 2.0), p1)
                    + np.outer(t, p2 - p0)
                    + np.outer(t2, 2 * p0 - 5 * p1 + 4 * p2 - p3)
                    + np.outer(t3, -p0 + 3 * p1 - 3 * p2 + p3)
                )
            else:
                seg = np.outer(1 - t, p1) + np.outer(t, p2)
            out.append(np.column_stack([seg, i + t]))
        out.append(np.array([[pts[-1, 0], pts[-1, 1], len(pts) - 1.0]]))
        return np.vstack(out)

    def _hex_at_xy(self, x: float, y: float) -> Hex:
        # hex units: a Layout of size 1/sqrt(3) puts neighbouring centres 1 unit apart.
        return _UNIT_LAYOUT.pixel_to_hex(x, y)

    def path(self, points: Sequence[Point], smooth: bool = True) -> list[Hex]:
        """A connected chain of hexes (each next to the last) along a curve through ``points``.

        The chain is thin: where the curve clips the corner of a hex between two hexes that
        touch, that hex is left out, so roads and streams never run two hexes abreast (and
        draw as clean lines). Off-map hexes are dropped, so a path may run off one edge and
        on again.
        """
        chain: list[Hex] = []
        # the ends and the sharp bends (90 degrees or more) are never cut
        xy = np.array([self.xy(p) for p in points], dtype=float)
        sharp = {0, len(xy) - 1}
        for i in range(1, len(xy) - 1):
            a, c = xy[i] - xy[i - 1], xy[i + 1] - xy[i]
            if float(a @ c) <= 0.0:
                sharp.add(i)
        pinned = {self._hex_at_xy(*xy[i]) for i in sharp}
        for x, y, _ in self.spline(points, smooth):
            h = self._hex_at_xy(float(x), float(y))
            steps = hex_line(chain[-1], h)[1:] if chain and chain[-1].distance(h) > 1 else [h]
            for k in steps:
                if chain and k == chain[-1]:
                    continue
                while len(chain) >= 2 and chain[-1] not in pinned and chain[-2].distance(k) == 1:
                    chain.pop()  # cut the corner
                chain.append(k)  # (a path that doubles back revisits hexes; kept once below)
        seen: set[Hex] = set()
        out = []
        for h in chain:
            if h not in seen and self.on(h):
                seen.add(h)
                out.append(h)
        return out

    def distance_to(self, points: Sequence[Point], smooth: bool = True) -> tuple[np.ndarray, np.ndarray]:
        """Distance (hex units) of every hex centre to the curve, and the curve parameter there.

        Returns two ``float [height, width]`` arrays: distance and ``t`` of the nearest sample.
        """
        s = self.spline(points, smooth)
        d, k = nearest_sample(self.cx, self.cy, s[:, :2])
        return d, s[k, 2]

    def band(self, points: Sequence[Point], width: float | Sequence[float], smooth: bool = True) -> list[Hex]:
        """Hexes whose centres lie within ``width / 2`` hex units of a curve through ``points``.

        ``width`` may be one number or one per control point (interpolated along the curve),
        for rivers that widen downstream. A width of 1.2 or more gives a continuous band.
        """
        d, t = self.distance_to(points, smooth)
        if isinstance(width, (int, float)):
            w = np.full_like(d, float(width))
        else:
            w = np.interp(t, np.arange(len(width)), np.asarray(width, dtype=float))
        return self._mask_hexes(d <= w / 2.0)

    def rect(self, c0: int, r0: int, c1: int, r1: int) -> list[Hex]:
        """Hexes with offset column ``c0..c1`` and row ``r0..r1`` (inclusive, clipped)."""
        return [
            Hex.from_offset(c, r)
            for r in range(max(0, r0), min(self.height - 1, r1) + 1)
            for c in range(max(0, c0), min(self.width - 1, c1) + 1)
        ]

    def polygon(self, points: Sequence[Point]) -> list[Hex]:
        """Hexes whose centres lie inside the polygon through ``points`` (even-odd rule)."""
        poly = [self.xy(p) for p in points]
        inside = np.zeros(self.cx.shape, dtype=bool)
        n = len(poly)
        for i in range(n):
            (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % n]
            if y1 == y2:
                continue
            cond = (self.cy < y1) != (self.cy < y2)
            xint = x1 + (self.cy - y1) * (x2 - x1) / (y2 - y1)
            inside ^= cond & (self.cx < xint)
        return self._mask_hexes(inside)

    def ellipse(
        self, center: Point, rx: float, ry: float | None = None, rough: float = 0.0, salt: str = ""
    ) -> list[Hex]:
        """Hexes inside an ellipse of radii ``rx``, ``ry`` hex units around ``center``.

        ``rough`` (0..1) frays the edge: each hex's threshold moves by up to ``rough / 2``
        by :func:`noise` with ``salt``, for natural woods and field outlines.
        """
        ry = rx if ry is None else ry
        x0, y0 = self.xy(center)
        f = ((self.cx - x0) / rx) ** 2 + ((self.cy - y0) / ry) ** 2
        if rough:
            # the jitter moves the threshold by less than rough / 2: only hexes that close to
            # the edge need their noise (issue 35: 250,000 hashes an ellipse on 500x500)
            half = rough / 2.0 + 1e-9
            inside = f <= 1.0 - half
            rows, cols = np.nonzero((f > 1.0 - half) & (f <= 1.0 + half))
            jitter = np.array([noise(c, r, salt) for c, r in zip(cols.tolist(), rows.tolist(), strict=True)])
            if jitter.size:
                inside[rows, cols] = f[rows, cols] + rough * (jitter - 0.5) <= 1.0
            return self._mask_hexes(inside)
        return self._mask_hexes(f <= 1.0)

    def blob(self, center: Point, radius: int, rough: float = 0.5, salt: str = "") -> list[Hex]:
        """The hex spiral of ``radius`` around ``center``; outer-ring hexes kept when noise >= rough."""
        c = self.hex(center)
        out = []
        for h in c.spiral(radius):
            if not self.on(h):
                continue
            if c.distance(h) == radius and radius > 0 and noise(*h.offset, salt) < rough:
                continue
            out.append(h)
        return out

    def ring_of(self, hexes: Iterable[Hex]) -> list[Hex]:
        """On-map hexes next to ``hexes`` but not in them (the outline outside a shape)."""
        inner = set(hexes)
        out: list[Hex] = []
        seen: set[Hex] = set()
        for h in sorted(inner):
            for n in h.neighbors():
                if n not in inner and n not in seen and self.on(n):
                    seen.add(n)
                    out.append(n)
        return out

    # -- terrain ------------------------------------------------------------------------
    def paint(
        self,
        hexes: Iterable[Hex],
        code: str,
        over: str | None = None,
        keep: str = "",
        chance: float = 1.0,
        salt: str = "",
    ) -> list[Hex]:
        """Set terrain ``code`` on ``hexes``; returns the hexes changed.

        Args:
            hexes: hexes to paint (off-map ones are skipped).
            code: terrain code (``'T'`` woods, ``'h'`` wood building ...).
            over: when given, only hexes whose code is in this string are painted.
            keep: codes never painted over; road hexes (road flag) are always kept unless
                ``code`` is road.
            chance: paint only hexes whose :func:`noise` (``salt``) is below this.
        """
        key = self._key[code]
        done = []
        for h in hexes:
            if not self.on(h):
                continue
            cur = self.code(h)
            if over is not None and cur not in over:
                continue
            if cur in keep or (code != "=" and (self.map.road[self.map.index(h)] or h in self.reserved)):
                continue
            if chance < 1.0 and noise(*h.offset, salt) >= chance:
                continue
            self.map.set_terrain(h, key)
            done.append(h)
        return done

    def square(self, hexes: Iterable[Hex]) -> list[Hex]:
        """Make ``hexes`` an open square: clear ground that later painting leaves alone.

        Only roads may still be drawn across it (the streets that meet there). Returns the
        square's on-map hexes.
        """
        sq = [h for h in hexes if self.on(h)]
        self.paint(sq, ".")
        self.reserved.update(sq)
        return sq

    def road(
        self,
        points: Sequence[Point],
        smooth: bool = True,
        hexes: Sequence[Hex] | None = None,
        bridges: int = 0,
    ) -> list[Hex]:
        """Lay a road along a curve through ``points`` (or along ``hexes``): road terrain + flag.

        A road drawn across water is a bridge (the hex becomes road terrain, R2.4 map
        convention above). ``bridges`` is the number of water hexes the road is meant to
        span; any other number means a river moved under the road, and the build stops.
        Returns the road hexes in order.

        Raises:
            ValueError: naming the water hexes when their number is not ``bridges``.
        """
        chain = list(hexes) if hexes is not None else self.path(points, smooth)
        wet = [h for h in chain if self.code(h) == "~"]
        if len(wet) != bridges:
            raise ValueError(
                f"{self.map.name}: road through {list(points)[:2]}... spans water at "
                f"{[self.map.label(h) for h in wet]}, expected {bridges} bridge hex(es)"
            )
        for h in chain:
            if self.code(h) != "=":
                self.map.set_terrain(h, "road")
            self.map.set_road(h, True)
        return chain

    def street_grid(
        self, cols: Iterable[int], rows: Iterable[int], within: Iterable[Hex], over: str = "."
    ) -> list[Hex]:
        """Streets on offset columns ``cols`` and rows ``rows``, only on the hexes ``within``.

        Streets only replace terrain in ``over`` (so rivers, parks and squares survive).
        A column street is a straight north-south line; a row street zig-zags east-west.
        """
        area = set(within)
        cols, rows = set(cols), set(rows)
        out = [
            h
            for h in sorted(area)
            if (h.offset[0] in cols or h.offset[1] in rows) and self.on(h) and self.code(h) in over
        ]
        return self.road((), hexes=out)

    def block(
        self,
        hexes: Iterable[Hex],
        stone: float = 0.3,
        density: float = 0.9,
        salt: str = "",
        over: str = ".",
        yard: str | None = None,
    ) -> list[Hex]:
        """Fill a city block with buildings: stone (DR14) with chance ``stone``, else wood (DR13).

        Hexes with :func:`noise` at or above ``density`` stay as they are (courtyards) or get
        ``yard`` terrain. Only terrain in ``over`` is built on; roads are never built on.
        """
        built = []
        for h in hexes:
            if not self.on(h) or self.code(h) not in over or self.map.road[self.map.index(h)]:
                continue
            c, r = h.offset
            if noise(c, r, salt + "d") >= density:
                if yard:
                    self.paint([h], yard)
                continue
            self.paint([h], "s" if noise(c, r, salt + "s") < stone else "h")
            built.append(h)
        return built

    def city_blocks(
        self,
        hexes: Iterable[Hex],
        stone_share: Sequence[float] = (0.15, 0.5, 0.85),
        courtyard: float = 0.35,
        salt: str = "",
        over: str = ".",
    ) -> list[list[Hex]]:
        """Build up city blocks: the connected groups of buildable hexes among ``hexes``.

        Each block draws one material profile from ``stone_share`` (chance a house is stone,
        DR14, else wood, DR13), so blocks read as wholes; hexes inside a block (no street
        next to them) stay open courtyards with chance ``courtyard``. Streets must be laid
        first: they separate the blocks. Returns the blocks, each a list of hexes.
        """
        todo = {
            h for h in hexes if self.on(h) and self.code(h) in over and not self.map.road[self.map.index(h)]
        }
        blocks = []
        for start in sorted(todo, key=lambda h: (h.offset[1], h.offset[0])):
            if start not in todo:
                continue
            comp, stack = [], [start]
            todo.discard(start)
            while stack:
                h = stack.pop()
                comp.append(h)
                for n in h.neighbors():
                    if n in todo:
                        todo.discard(n)
                        stack.append(n)
            comp.sort(key=lambda h: (h.offset[1], h.offset[0]))
            c0, r0 = comp[0].offset
            share = stone_share[int(noise(c0, r0, salt + "blk") * len(stone_share))]
            for h in comp:
                c, r = h.offset
                on_street = any(self.on(n) and self.map.road[self.map.index(n)] for n in h.neighbors())
                if not on_street and len(comp) > 4 and noise(c, r, salt + "yard") < courtyard:
                    continue
                self.paint([h], "s" if noise(c, r, salt + "mat") < share else "h")
            blocks.append(comp)
        return blocks

    def village(
        self,
        street: Sequence[Hex],
        density: float = 0.75,
        stone: float = 0.0,
        garden: str | None = "o",
        garden_chance: float = 0.6,
        salt: str = "",
        over: str = ".w,",
    ) -> list[Hex]:
        """Houses along both sides of a street, gardens behind them: a Russian village.

        Args:
            street: the street's hexes (usually the return of :meth:`road`).
            density: chance a hex next to the street gets a house.
            stone: chance a house is stone (DR14) rather than wood (DR13).
            garden: terrain behind the houses (orchard ``'o'`` by default, ``None`` for none).
            garden_chance: chance each hex behind a house becomes garden.
            over: terrain codes that may be built on.

        Returns:
            The house hexes.
        """
        houses = []
        for h in self.ring_of(street):
            if self.code(h) in over and not self.map.road[self.map.index(h)]:
                c, r = h.offset
                if noise(c, r, salt + "v") < density:
                    self.paint([h], "s" if noise(c, r, salt + "vs") < stone else "h")
                    houses.append(h)
        if garden:
            for h in self.ring_of(set(houses) | set(street)):
                if self.code(h) in over and noise(*h.offset, salt + "g") < garden_chance:
                    self.paint([h], garden)
        return houses

    def rubble(self, hexes: Iterable[Hex]) -> None:
        """Reduce the buildings among ``hexes`` to rubble (R8.3); other hexes are skipped."""
        for h in hexes:
            if self.on(h) and self.map.terrain_at(h).is_building:
                self.map.set_rubble(h, True)

    # -- ground levels -------------------------------------------------------------------
    def hill(
        self, center: Point, peak: float, radius: float, ry: float | None = None, base: float | None = None
    ) -> None:
        """Raise a rounded hill: ``peak`` levels at ``center`` falling to ``base`` at ``radius``.

        The profile is a smooth dome (cosine); the field keeps the higher of old and new, so
        hills merge. ``ry`` makes it elliptical (radii in hex units); ``base`` defaults to 0.
        """
        ry = radius if ry is None else ry
        x0, y0 = self.xy(center)
        d = np.sqrt(((self.cx - x0) / radius) ** 2 + ((self.cy - y0) / ry) ** 2)
        b = 0.0 if base is None else base
        prof = np.where(d < 1.0, b + (peak - b) * 0.5 * (1.0 + np.cos(np.pi * np.minimum(d, 1.0))), -1e9)
        self.z = np.maximum(self.z, prof)

    def ramp(self, p0: Point, p1: Point, z0: float, z1: float) -> None:
        """Set the field to a linear slope from ``z0`` at ``p0`` to ``z1`` at ``p1`` (clamped beyond)."""
        (x0, y0), (x1, y1) = self.xy(p0), self.xy(p1)
        vx, vy = x1 - x0, y1 - y0
        t = np.clip(((self.cx - x0) * vx + (self.cy - y0) * vy) / (vx * vx + vy * vy), 0.0, 1.0)
        self.z = z0 + (z1 - z0) * t

    def carve(
        self,
        points: Sequence[Point],
        floor: float | Sequence[float],
        half_width: float,
        slope: float,
        smooth: bool = True,
    ) -> None:
        """Cut a valley along a curve: ``floor`` within ``half_width``, rising ``slope`` per hex.

        ``floor`` may be one level or one per control point (interpolated along the curve),
        for ravines that fall from a plateau to a river. The field keeps the lower of old and
        new (rivers and balkas cut into hills).
        """
        d, t = self.distance_to(points, smooth)
        if isinstance(floor, (int, float)):
            f = np.full_like(d, float(floor))
        else:
            f = np.interp(t, np.arange(len(floor)), np.asarray(floor, dtype=float))
        self.z = np.minimum(self.z, f + np.maximum(0.0, d - half_width) * slope)

    def set_z(self, hexes: Iterable[Hex], value: float, mode: str = "set") -> None:
        """Set the field on ``hexes`` to ``value`` (``mode`` ``"set"``, ``"max"``, ``"min"``, ``"add"``)."""
        for h in hexes:
            if not self.on(h):
                continue
            c, r = h.offset
            old = self.z[r, c]
            self.z[r, c] = {"set": value, "max": max(old, value), "min": min(old, value), "add": old + value}[
                mode
            ]

    def level(self, h: Hex) -> int:
        """The ground level :meth:`finish` will give ``h`` (the rounded field)."""
        c, r = h.offset
        return int(np.clip(np.floor(self.z[r, c] + 0.5), 0, 9))

    def finish(self) -> BattleMap:
        """Round the ground field into levels 0..9 through ``set_level`` and return the map."""
        # every hex at once (issue 35: 250,000 set_level calls on 500x500); the version moves
        # on as set_level's would, once a hex
        self.map.level[...] = np.clip(np.floor(self.z + 0.5), 0, 9).astype(self.map.level.dtype)
        self.map.version += self.map.width * self.map.height
        return self.map
