#!/usr/bin/env python3
"""Build hexwar's shipped battle maps (``maps/*.json``) from hand-authored layouts.

The shipped maps are generated, never edited by hand: each map is a function below that draws
its place through the :class:`~hexwar.maps.BattleMap` API (``set_terrain``, ``set_level``,
``set_road``, ``set_rubble``) with a small drawing kit (:class:`MapBuilder`): smooth curves
through hex labels for rivers and roads, bands of a given width, rectangles, polygons,
ellipses, street blocks, villages strung along a road, and a ground-level field with hills,
ramps and carved valleys. Everything is deterministic: the only "randomness" is a hash of the
hex's offset and a text salt (:func:`noise`), so the same source always gives byte-identical
files.

Usage::

    python tools/build_maps.py             # rebuild every map in maps/ (atomic writes)
    python tools/build_maps.py kharkov     # rebuild one map
    python tools/build_maps.py --check     # exit 1 and name the stale files if maps/ differs
    python tools/build_maps.py --out DIR   # write (or --check) another folder

Conventions (R2): odd-q flat-topped hexes, columns ``A..``, rows ``01..``; points are given as
CoH labels (``"D07"``) or 0-based offset tuples ``(col, row)``. Internally positions are hex
centres in "hex units": neighbouring centres lie 1.0 apart, ``x = 0.866 * col``,
``y = row + 0.5`` on odd columns. Map decisions (R2.4): every ``'='`` road hex carries the road
flag and every road-flag hex has road terrain; a bridge is a road hex drawn across a river
(the water hex becomes road terrain), so movement needs no special bridge rule.
"""

from __future__ import annotations

import argparse
import hashlib
import math
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import numpy as np

from hexwar.errors import HexwarError
from hexwar.hexgrid import Hex, hex_line
from hexwar.maps import BattleMap

__all__ = ["MAPS", "MapBuilder", "build", "check", "main", "noise", "write"]

ROOT = Path(__file__).resolve().parent.parent
MAPS_DIR = ROOT / "maps"

Point = str | tuple[int, int]

_SQRT3_2 = math.sqrt(3.0) / 2.0  # x distance between neighbouring columns, in hex units

BUILDINGS = "hsR"  # wood DR13, stone DR14, reinforced DR15 (R2.4, R8.2)


def noise(col: int, row: int, salt: str = "") -> float:
    """A deterministic pseudo-random number in ``[0, 1)`` for hex ``(col, row)`` and ``salt``.

    A hash (BLAKE2b) rather than a random generator, so every platform and numpy version
    builds byte-identical maps; different salts give independent values.

    >>> noise(3, 4, "a") == noise(3, 4, "a"), noise(3, 4, "a") != noise(3, 4, "b")
    (True, True)
    """
    d = hashlib.blake2b(f"{salt}:{col}:{row}".encode(), digest_size=8).digest()
    return int.from_bytes(d, "big") / 2.0**64


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

    def __init__(self, width: int, height: int, name: str, description: str,
                 fill: str = ".", base_level: float = 0.0) -> None:
        self.map = BattleMap.new(width, height, "clear", name=name)
        self.map.description = description
        self._key = {t.code: t.key for t in self.map.rules.types}
        self.width, self.height = width, height
        cols, rows = np.meshgrid(np.arange(width), np.arange(height))
        self.cx = cols * _SQRT3_2  # [row, col] centre x in hex units
        self.cy = rows + 0.5 * (cols & 1)  # [row, col] centre y in hex units
        self.z = np.full((height, width), float(base_level))
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
        return [Hex.from_offset(int(c), int(r)) for r, c in zip(rows, cols)]

    # -- shapes ------------------------------------------------------------------------
    def spline(self, points: Sequence[Point], smooth: bool = True, step: float = 0.05) -> np.ndarray:
        """Sample a curve through ``points`` (Catmull-Rom when ``smooth``, else straight legs).

        Returns ``float [M, 3]``: x, y in hex units and the curve parameter ``t`` in 0..len-1
        (control point index), sampled about every ``step`` hex units.
        """
        pts = np.array([self.xy(p) for p in points], dtype=float)
        if len(pts) == 1:
            return np.array([[pts[0, 0], pts[0, 1], 0.0]])
        ext = np.vstack([2 * pts[0] - pts[1], pts, 2 * pts[-1] - pts[-2]])
        out = []
        for i in range(len(pts) - 1):
            p0, p1, p2, p3 = ext[i], ext[i + 1], ext[i + 2], ext[i + 3]
            n = max(2, int(math.ceil(float(np.hypot(*(p2 - p1))) / step)))
            t = np.arange(n) / n
            if smooth:
                t2, t3 = t * t, t * t * t
                seg = 0.5 * (np.outer(np.full_like(t, 2.0), p1) + np.outer(t, p2 - p0)
                             + np.outer(t2, 2 * p0 - 5 * p1 + 4 * p2 - p3)
                             + np.outer(t3, -p0 + 3 * p1 - 3 * p2 + p3))
            else:
                seg = np.outer(1 - t, p1) + np.outer(t, p2)
            out.append(np.column_stack([seg, i + t]))
        out.append(np.array([[pts[-1, 0], pts[-1, 1], len(pts) - 1.0]]))
        return np.vstack(out)

    def _hex_at_xy(self, x: float, y: float) -> Hex:
        # hex units -> Layout(size=1/sqrt3) pixel maths: q = x / (1.5 size), etc.
        size = 1.0 / math.sqrt(3.0)
        fq = (2.0 / 3.0) * x / size
        fr = (-1.0 / 3.0) * x / size + (math.sqrt(3.0) / 3.0) * y / size
        fs = -fq - fr
        q, r, s = round(fq), round(fr), round(fs)
        dq, dr, ds = abs(q - fq), abs(r - fr), abs(s - fs)
        if dq > dr and dq > ds:
            q = -r - s
        elif dr > ds:
            r = -q - s
        return Hex(int(q), int(r))

    def path(self, points: Sequence[Point], smooth: bool = True) -> list[Hex]:
        """A connected chain of hexes (each next to the last) along a curve through ``points``.

        Off-map hexes are dropped, so a path may run off one edge and on again.
        """
        chain: list[Hex] = []
        for x, y, _ in self.spline(points, smooth):
            h = self._hex_at_xy(float(x), float(y))
            if chain and h == chain[-1]:
                continue
            if chain and chain[-1].distance(h) > 1:
                chain.extend(hex_line(chain[-1], h)[1:])
            else:
                chain.append(h)
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
        dx = self.cx[..., None] - s[:, 0]
        dy = self.cy[..., None] - s[:, 1]
        d2 = dx * dx + dy * dy
        k = d2.argmin(axis=-1)
        return np.sqrt(np.take_along_axis(d2, k[..., None], -1)[..., 0]), s[k, 2]

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
        return [Hex.from_offset(c, r) for r in range(max(0, r0), min(self.height - 1, r1) + 1)
                for c in range(max(0, c0), min(self.width - 1, c1) + 1)]

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

    def ellipse(self, center: Point, rx: float, ry: float | None = None, rough: float = 0.0,
                salt: str = "") -> list[Hex]:
        """Hexes inside an ellipse of radii ``rx``, ``ry`` hex units around ``center``.

        ``rough`` (0..1) frays the edge: each hex's threshold moves by up to ``rough / 2``
        by :func:`noise` with ``salt``, for natural woods and field outlines.
        """
        ry = rx if ry is None else ry
        x0, y0 = self.xy(center)
        f = ((self.cx - x0) / rx) ** 2 + ((self.cy - y0) / ry) ** 2
        if rough:
            jitter = np.array([[noise(c, r, salt) for c in range(self.width)] for r in range(self.height)])
            f = f + rough * (jitter - 0.5)
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
    def paint(self, hexes: Iterable[Hex], code: str, over: str | None = None, keep: str = "",
              chance: float = 1.0, salt: str = "") -> list[Hex]:
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
            if cur in keep or (code != "=" and self.map.road[self.map.index(h)]):
                continue
            if chance < 1.0 and noise(*h.offset, salt) >= chance:
                continue
            self.map.set_terrain(h, key)
            done.append(h)
        return done

    def road(self, points: Sequence[Point], smooth: bool = True, hexes: Sequence[Hex] | None = None) -> list[Hex]:
        """Lay a road along a curve through ``points`` (or along ``hexes``): road terrain + flag.

        A road drawn across water is a bridge (the hex becomes road terrain, R2.4 map
        convention above). Returns the road hexes in order.
        """
        chain = list(hexes) if hexes is not None else self.path(points, smooth)
        for h in chain:
            if self.code(h) != "=":
                self.map.set_terrain(h, "road")
            self.map.set_road(h, True)
        return chain

    def street_grid(self, cols: Iterable[int], rows: Iterable[int], within: Iterable[Hex],
                    over: str = ".") -> list[Hex]:
        """Streets on offset columns ``cols`` and rows ``rows``, only on the hexes ``within``.

        Streets only replace terrain in ``over`` (so rivers, parks and squares survive).
        A column street is a straight north-south line; a row street zig-zags east-west.
        """
        area = set(within)
        cols, rows = set(cols), set(rows)
        out = [h for h in sorted(area) if (h.offset[0] in cols or h.offset[1] in rows)
               and self.on(h) and self.code(h) in over]
        return self.road((), hexes=out)

    def block(self, hexes: Iterable[Hex], stone: float = 0.3, density: float = 0.9, salt: str = "",
              over: str = ".", yard: str | None = None) -> list[Hex]:
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

    def city_blocks(self, hexes: Iterable[Hex], stone_share: Sequence[float] = (0.15, 0.5, 0.85),
                    courtyard: float = 0.35, salt: str = "", over: str = ".") -> list[list[Hex]]:
        """Build up city blocks: the connected groups of buildable hexes among ``hexes``.

        Each block draws one material profile from ``stone_share`` (chance a house is stone,
        DR14, else wood, DR13), so blocks read as wholes; hexes inside a block (no street
        next to them) stay open courtyards with chance ``courtyard``. Streets must be laid
        first: they separate the blocks. Returns the blocks, each a list of hexes.
        """
        todo = {h for h in hexes if self.on(h) and self.code(h) in over and not self.map.road[self.map.index(h)]}
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

    def village(self, street: Sequence[Hex], density: float = 0.75, stone: float = 0.0,
                garden: str | None = "o", garden_chance: float = 0.6, salt: str = "",
                over: str = ".w,") -> list[Hex]:
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
    def hill(self, center: Point, peak: float, radius: float, ry: float | None = None,
             base: float | None = None) -> None:
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

    def carve(self, points: Sequence[Point], floor: float, half_width: float, slope: float,
              smooth: bool = True) -> None:
        """Cut a valley along a curve: ``floor`` within ``half_width``, rising ``slope`` per hex.

        The field keeps the lower of old and new (rivers and balkas cut into hills).
        """
        d, _ = self.distance_to(points, smooth)
        self.z = np.minimum(self.z, floor + np.maximum(0.0, d - half_width) * slope)

    def set_z(self, hexes: Iterable[Hex], value: float, mode: str = "set") -> None:
        """Set the field on ``hexes`` to ``value`` (``mode`` ``"set"``, ``"max"``, ``"min"``, ``"add"``)."""
        for h in hexes:
            if not self.on(h):
                continue
            c, r = h.offset
            old = self.z[r, c]
            self.z[r, c] = {"set": value, "max": max(old, value), "min": min(old, value),
                            "add": old + value}[mode]

    def level(self, h: Hex) -> int:
        """The ground level :meth:`finish` will give ``h`` (the rounded field)."""
        c, r = h.offset
        return int(np.clip(np.floor(self.z[r, c] + 0.5), 0, 9))

    def finish(self) -> BattleMap:
        """Round the ground field into levels 0..9 through ``set_level`` and return the map."""
        for h in self.all():
            self.map.set_level(h, self.level(h))
        return self.map


# =====================================================================================
# The maps. Each function draws one place; MAPS lists them by file name.
# =====================================================================================

def kharkov() -> BattleMap:
    """Kharkov, March 1943: the city centre between the Lopan and the Kharkov rivers.

    North is up. Dzerzhinsky Square with the reinforced Gosprom complex and the Party
    buildings at the top; Sumskaya street runs south through the stone centre to Tevelev
    Square; the Shevchenko Garden (woods) lies south-west of the square. The Lopan (west)
    and Kharkov (east) rivers meet at the bottom, with three bridges. Wooden suburbs on the
    Kholodnaya Gora heights (west), the factory quarter across the Kharkov river (east) and
    the South Station (south-west). Ground rises from the confluence (level 0) to the square
    (level 2-3).
    """
    b = MapBuilder(
        32, 22, "Kharkov, March 1943",
        "Central Kharkov, 11-14 March 1943: the SS Panzer Corps fights down Sumskaya street to "
        "Dzerzhinsky Square while the Soviet garrison holds the stone blocks of the centre. "
        "Streets are the only fast lanes; every block of wood (DR13) and stone (DR14) buildings "
        "blocks LOS, so fire lanes run along the streets and across the squares. The reinforced "
        "Gosprom, Party and factory buildings (DR15) are the strongpoints. The Lopan and Kharkov "
        "rivers can be crossed only at the bridges. The centre stands on a rise (levels 2-3) "
        "that overlooks the river valleys; rubble from earlier fighting dots the blocks.",
    )
    lopan = ["D01", "E06", "G11", "J15", "M18", "P19"]
    kharkiv = ["AC01", "AB05", "Y10", "W14", "T17", "P19"]
    below = ["P19", "Q21", "Q24"]
    # ground: the plateau rises to the north; the rivers cut valleys; Kholodnaya Gora in the west
    b.ramp("P22", "P01", 0.8, 2.6)
    b.hill("A12", 2.7, 8.0, 11.0)
    b.hill("P02", 3.2, 6.0, 3.5)
    for river in (lopan, kharkiv, below):
        b.carve(river, 0.0, 0.8, 0.5)
    # the rivers: one hex wide and continuous, wider below the confluence
    b.paint(b.path(lopan), "~")
    b.paint(b.path(kharkiv), "~")
    b.paint(b.band(below, 1.6), "~")
    # squares and the park before the streets, so streets leave them whole
    b.road((), hexes=b.rect(12, 1, 19, 3))  # Dzerzhinsky Square
    b.road((), hexes=b.rect(14, 14, 16, 15))  # Tevelev Square
    park = b.polygon(["K05", "O06", "O10", "L11", "K08"])
    b.paint(park, "T")
    b.paint(b.ring_of(park), ",", over=".", chance=0.35, salt="park")
    b.road(["M06", "N08", "N10"])  # the garden's central alley
    # streets of the centre, then the avenues, bridges and suburban streets
    water = b.map.terrain == b.map.rules.index_of_code("~")
    west_bank = {r: max(c for c in range(16) if water[r, c]) for r in range(19)}
    east_bank = {r: min(c for c in range(14, 32) if water[r, c]) for r in range(19)}
    between = [h for h in b.rect(0, 4, 31, 18) if west_bank[h.offset[1]] < h.offset[0] < east_bank[h.offset[1]]]
    b.street_grid(cols=(7, 11, 19, 23), rows=(5, 9, 13, 17), within=between)
    b.road(["P01", "P16"], smooth=False)  # Sumskaya street
    b.road(["P16", "T18", "Y19", "AF20"])  # Moskovsky prospekt over the Kharkov river bridge
    b.road(["O15", "K15", "E14", "A14"])  # Poltava road over the Lopan bridge
    b.road(["H09", "E08", "A08"])  # upper Lopan bridge to Kholodnaya Gora
    b.road(["T04", "Y02", (27, -1)])  # Pushkinskaya street north-east
    b.road(["L01", (11, -1)], smooth=False)  # Klochkovskaya street north
    b.road(["E14", "G18", "H22"])  # down to the South Station
    b.road(["X05", "AB06", "AF08"])  # bridge east to the tractor plant road
    b.road(["AB06", "AB16", "Y19"], smooth=False)  # factory street along the east bank
    b.road(["B08", "B21"], smooth=False)  # Kholodnaya Gora main street
    b.road(["B04", "B08"], smooth=False)
    b.road(["K19", "K22"], smooth=False)  # south bank lane
    # the seats of power around the square (reinforced) and the stone centre
    gosprom = [h for h in b.rect(8, 0, 11, 3) if h.offset not in ((11, 2), (8, 0), (8, 3))]
    b.paint(gosprom, "R", keep="~=")
    b.paint(b.rect(13, 0, 18, 0), "s", keep="=")  # university and hotels on the north side
    b.paint([b.hex("N05"), b.hex("O05")], "R")  # Party headquarters
    b.paint([b.hex("R05"), b.hex("S05")], "R", over=".")  # NKVD building
    b.paint(b.rect(12, 4, 18, 4), "s", over=".")  # south side of the square
    b.paint([b.hex("U01"), b.hex("U02"), b.hex("U03")], "s", over=".")
    b.city_blocks(between, stone_share=(0.35, 0.6, 0.85, 0.95), salt="centre")
    b.paint([b.hex("T10"), b.hex("M14")], "R")  # the State Bank and the telephone exchange
    # east bank: the factory quarter (reinforced workshops), workers' houses
    b.paint(b.rect(25, 9, 30, 9), "R", over=".")
    b.paint(b.rect(25, 11, 26, 13) + b.rect(29, 11, 30, 13), "s", over=".")
    b.paint(b.rect(27, 12, 28, 12), "R", over=".")
    b.paint(b.rect(25, 15, 29, 15), "R", over=".")
    b.road(["AF12", "AB12"], smooth=False)  # factory yard lane
    east = [h for h in b.rect(24, 0, 31, 21) if h.offset[1] < 8 or h.offset[1] > 16]
    b.village([h for h in east if b.map.road[b.map.index(h)]], density=0.8, stone=0.1, salt="east")
    # west bank: Kholodnaya Gora's wooden streets; the South Station
    b.paint(b.rect(5, 18, 7, 19), "s", over=".")
    b.paint([b.hex("G19")], "R", over=".")  # station water tower and signal box
    west = [h for h in b.rect(0, 0, 6, 21) if b.map.road[b.map.index(h)]]
    b.village(west, density=0.85, stone=0.05, salt="west")
    south = [h for h in b.rect(8, 16, 31, 21) if b.map.road[b.map.index(h)]]
    b.village(south, density=0.8, stone=0.15, salt="south")
    b.city_blocks(b.rect(0, 0, 31, 21), stone_share=(0.05, 0.2), courtyard=0.6, salt="rest")
    # trees along the banks
    banks = b.ring_of([h for h in b.all() if b.code(h) == "~"])
    b.paint(banks, ",", over=".o", chance=0.4, salt="bank")
    b.rubble(h for h in b.rect(7, 4, 24, 17) if b.code(h) in "hs" and noise(*h.offset, "rubble") < 0.15)
    return b.finish()


MAPS: dict[str, Callable[[], BattleMap]] = {
    "kharkov": kharkov,
}


# =====================================================================================
# Command line
# =====================================================================================

def build(name: str) -> BattleMap:
    """Build the shipped map ``name`` (a key of :data:`MAPS`).

    Raises:
        KeyError: for an unknown name.
    """
    return MAPS[name]()


def write(names: Iterable[str], out_dir: Path) -> list[Path]:
    """Build ``names`` and save them atomically as ``out_dir/<name>.json``; returns the paths."""
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for name in names:
        p = out_dir / f"{name}.json"
        build(name).save(p)
        paths.append(p)
    return paths


def check(names: Iterable[str], out_dir: Path) -> list[str]:
    """Names whose file in ``out_dir`` is missing or differs from what the tool builds."""
    stale = []
    for name in names:
        p = out_dir / f"{name}.json"
        try:
            text = p.read_text(encoding="utf-8")
        except OSError:
            stale.append(name)
            continue
        if text != build(name).to_text():
            stale.append(name)
    return stale


def main(argv: Sequence[str] | None = None) -> int:
    """Command-line entry: build (default) or ``--check`` the shipped maps; returns exit status."""
    ap = argparse.ArgumentParser(description="Build hexwar's shipped maps from hand-authored layouts.")
    ap.add_argument("names", nargs="*", help=f"maps to build (default all: {', '.join(MAPS)})")
    ap.add_argument("--check", action="store_true", help="verify the files are up to date; write nothing")
    ap.add_argument("--out", type=Path, default=MAPS_DIR, help="folder of the map files (default maps/)")
    args = ap.parse_args(argv)
    unknown = [n for n in args.names if n not in MAPS]
    if unknown:
        print(f"build_maps: unknown map(s) {unknown}; expected some of {list(MAPS)}", file=sys.stderr)
        return 2
    names = args.names or list(MAPS)
    try:
        if args.check:
            stale = check(names, args.out)
            for n in stale:
                print(f"stale: {args.out / (n + '.json')} differs from what tools/build_maps.py builds")
            if stale:
                print("run: python tools/build_maps.py", file=sys.stderr)
                return 1
            print(f"ok: {len(names)} map(s) up to date")
            return 0
        for p in write(names, args.out):
            print(f"wrote {p}")
    except HexwarError as exc:
        print(f"build_maps: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
