"""Triangle meshes built with numpy, before they go to the GPU (no GL here).

Every map layer is one :class:`Mesh` (positions, per-vertex colours, triangle indices) that
becomes one indexed vertex list. Shapes are added with :class:`MeshBuilder`; repeated shapes
(trees on every woods hex, counters) are stamped with :meth:`Mesh.instanced`, vectorized.

>>> b = MeshBuilder()
>>> b.rect(0, 0, 2, 1, (255, 0, 0, 255))
>>> m = b.build()
>>> m.positions.shape, m.indices.tolist()
((4, 2), [0, 1, 2, 0, 2, 3])
>>> m2 = m.instanced(np.array([[0.0, 0.0], [10.0, 0.0]]))
>>> m2.positions.shape, int(m2.indices.max())
((8, 2), 7)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

__all__ = ["TILE", "Mesh", "MeshBuilder", "TexMesh", "TileIndex", "hex_corner_offsets", "tile_sort"]

#: Static map layers are sorted into square tiles of this many hexes a side for culling.
TILE = 8

Colour = Sequence[int]


def hex_corner_offsets(size: float) -> np.ndarray:
    """``float64 [6, 2]``: corner offsets of a flat-topped hex of ``size`` (corner 0 east, CCW).

    The same corners as :meth:`hexwar.model.hexgrid.Layout.corner_offset` with ``y_down=False``.
    """
    a = np.arange(6) * (math.pi / 3.0)
    return np.stack([np.cos(a) * size, np.sin(a) * size], axis=1)


@dataclass
class Mesh:
    """An indexed triangle mesh with per-vertex colours.

    Attributes:
        positions: ``float32 [n, 2]`` world units.
        colors: ``uint8 [n, 4]`` RGBA.
        indices: ``uint32 [3 t]`` triangle vertex indices.
        owner: optional ``int64 [n]``: the map hex (``row * width + col``) each vertex
            belongs to, so static layers can be sorted into tiles and culled.
    """

    positions: np.ndarray
    colors: np.ndarray
    indices: np.ndarray
    owner: np.ndarray | None = None

    @staticmethod
    def empty() -> Mesh:
        """A mesh with no vertices."""
        return Mesh(
            np.zeros((0, 2), np.float32),
            np.zeros((0, 4), np.uint8),
            np.zeros(0, np.uint32),
            np.zeros(0, np.int64),
        )

    @property
    def vertex_count(self) -> int:
        """Number of vertices."""
        return int(self.positions.shape[0])

    def __len__(self) -> int:
        return self.vertex_count

    @staticmethod
    def concat(meshes: Sequence[Mesh]) -> Mesh:
        """All ``meshes`` in one, drawn in list order (later ones on top)."""
        meshes = [m for m in meshes if m.vertex_count]
        if not meshes:
            return Mesh.empty()
        if len(meshes) == 1:
            return meshes[0]
        offs = np.cumsum([0] + [m.vertex_count for m in meshes[:-1]])
        owners = [m.owner for m in meshes]
        return Mesh(
            np.concatenate([m.positions for m in meshes]).astype(np.float32, copy=False),
            np.concatenate([m.colors for m in meshes]).astype(np.uint8, copy=False),
            np.concatenate(
                [m.indices.astype(np.int64) + o for m, o in zip(meshes, offs, strict=True)]
            ).astype(np.uint32),
            np.concatenate([o for o in owners if o is not None]).astype(np.int64)
            if all(o is not None for o in owners)
            else None,
        )

    def instanced(
        self,
        offsets: np.ndarray,
        rotations: np.ndarray | None = None,
        scales: np.ndarray | None = None,
        colors: np.ndarray | None = None,
        owners: np.ndarray | None = None,
    ) -> Mesh:
        """Stamp this mesh once per row of ``offsets``, vectorized.

        Args:
            offsets: ``[k, 2]`` world translation of each copy.
            rotations: optional ``[k]`` rotation of each copy in radians (counter-clockwise).
            scales: optional ``[k]`` uniform scale of each copy.
            colors: optional ``[k, n, 4]`` or ``[k, 4]`` colours replacing the template's
                (per copy per vertex, or one colour per copy).
            owners: optional ``[k]`` map hex index (``row * width + col``) of each copy.

        Returns:
            A mesh of ``k * n`` vertices; copy ``i`` is drawn after copy ``i - 1``.
        """
        offsets = np.asarray(offsets, dtype=np.float64).reshape(-1, 2)
        k, n = offsets.shape[0], self.vertex_count
        if k == 0 or n == 0:
            return Mesh.empty()
        p = np.broadcast_to(self.positions.astype(np.float64), (k, n, 2)).copy()
        if scales is not None:
            p *= np.asarray(scales, dtype=np.float64).reshape(k, 1, 1)
        if rotations is not None:
            rot = np.asarray(rotations, dtype=np.float64).reshape(k, 1)
            c, s = np.cos(rot), np.sin(rot)
            x, y = p[..., 0].copy(), p[..., 1].copy()
            p[..., 0] = x * c - y * s
            p[..., 1] = x * s + y * c
        p += offsets[:, None, :]
        if colors is None:
            col = np.broadcast_to(self.colors, (k, n, 4))
        else:
            col = np.asarray(colors, dtype=np.uint8)
            col = np.broadcast_to(col[:, None, :] if col.ndim == 2 else col, (k, n, 4))
        idx = self.indices.astype(np.int64)[None, :] + (np.arange(k, dtype=np.int64) * n)[:, None]
        own = None if owners is None else np.repeat(np.asarray(owners, dtype=np.int64).reshape(k), n)
        return Mesh(
            p.reshape(-1, 2).astype(np.float32),
            np.ascontiguousarray(col).reshape(-1, 4),
            idx.reshape(-1).astype(np.uint32),
            own,
        )

    def recolored(self, colour: Colour) -> Mesh:
        """The same shape in one colour."""
        c = np.empty_like(self.colors)
        c[:] = np.asarray(colour, dtype=np.uint8)
        return Mesh(self.positions, c, self.indices, self.owner)


@dataclass
class TexMesh:
    """An indexed textured triangle mesh (text glyph quads).

    Attributes:
        positions: ``float32 [n, 2]`` world (or screen) units.
        uvs: ``float32 [n, 2]`` texture coordinates.
        colors: ``uint8 [n, 4]`` RGBA tint (glyph coverage multiplies alpha).
        indices: ``uint32 [3 t]``.
        owner: optional ``int64 [n]`` map hex index per vertex (see :class:`Mesh`).
    """

    positions: np.ndarray
    uvs: np.ndarray
    colors: np.ndarray
    indices: np.ndarray
    owner: np.ndarray | None = None

    @staticmethod
    def empty() -> TexMesh:
        """A mesh with no vertices."""
        return TexMesh(
            np.zeros((0, 2), np.float32),
            np.zeros((0, 2), np.float32),
            np.zeros((0, 4), np.uint8),
            np.zeros(0, np.uint32),
            np.zeros(0, np.int64),
        )

    @property
    def vertex_count(self) -> int:
        """Number of vertices."""
        return int(self.positions.shape[0])

    @staticmethod
    def concat(meshes: Sequence[TexMesh]) -> TexMesh:
        """All ``meshes`` in one, in list order."""
        meshes = [m for m in meshes if m.vertex_count]
        if not meshes:
            return TexMesh.empty()
        if len(meshes) == 1:
            return meshes[0]
        offs = np.cumsum([0] + [m.vertex_count for m in meshes[:-1]])
        owners = [m.owner for m in meshes]
        return TexMesh(
            np.concatenate([m.positions for m in meshes]).astype(np.float32, copy=False),
            np.concatenate([m.uvs for m in meshes]).astype(np.float32, copy=False),
            np.concatenate([m.colors for m in meshes]).astype(np.uint8, copy=False),
            np.concatenate(
                [m.indices.astype(np.int64) + o for m, o in zip(meshes, offs, strict=True)]
            ).astype(np.uint32),
            np.concatenate([o for o in owners if o is not None]).astype(np.int64)
            if all(o is not None for o in owners)
            else None,
        )


class MeshBuilder:
    """Accumulates simple shapes into one :class:`Mesh`; later shapes draw on top.

    Coordinates are world units (or whatever unit the caller uses consistently); colours
    are RGBA 0-255 sequences. Polygons must be convex (drawn as triangle fans).
    """

    def __init__(self) -> None:
        self._pos: list[np.ndarray] = []
        self._col: list[np.ndarray] = []
        self._idx: list[np.ndarray] = []
        self._n = 0

    def _add(self, pts: np.ndarray, colours: np.ndarray, idx: np.ndarray) -> None:
        self._pos.append(pts)
        self._col.append(colours)
        self._idx.append(idx + self._n)
        self._n += pts.shape[0]

    def polygon(
        self,
        points: Sequence[Sequence[float]] | np.ndarray,
        colour: Colour,
        colours: Sequence[Colour] | None = None,
    ) -> None:
        """A filled convex polygon (triangle fan from the first point).

        Args:
            points: ``[k, 2]`` corners in order (k >= 3).
            colour: fill colour; or ``colours`` gives one per corner.
        """
        pts = np.asarray(points, dtype=np.float64).reshape(-1, 2)
        k = pts.shape[0]
        if k < 3:
            return
        cols = (
            np.asarray(colours, dtype=np.uint8).reshape(k, 4)
            if colours is not None
            else np.tile(np.asarray(colour, dtype=np.uint8), (k, 1))
        )
        j = np.arange(1, k - 1)
        idx = np.stack([np.zeros_like(j), j, j + 1], axis=1).reshape(-1)
        self._add(pts, cols, idx)

    def rect(self, x0: float, y0: float, x1: float, y1: float, colour: Colour) -> None:
        """An axis-aligned filled rectangle."""
        self.polygon([(x0, y0), (x1, y0), (x1, y1), (x0, y1)], colour)

    def frame(self, x0: float, y0: float, x1: float, y1: float, width: float, colour: Colour) -> None:
        """The outline of a rectangle, ``width`` thick, drawn inside the rectangle."""
        w = width
        self.rect(x0, y0, x1, y0 + w, colour)
        self.rect(x0, y1 - w, x1, y1, colour)
        self.rect(x0, y0 + w, x0 + w, y1 - w, colour)
        self.rect(x1 - w, y0 + w, x1, y1 - w, colour)

    def circle(
        self, cx: float, cy: float, r: float, colour: Colour, segments: int = 16, rx: float | None = None
    ) -> None:
        """A filled circle (or an ellipse with horizontal radius ``rx``)."""
        a = np.arange(segments) * (2 * math.pi / segments)
        rxx = r if rx is None else rx
        self.polygon(np.stack([cx + np.cos(a) * rxx, cy + np.sin(a) * r], axis=1), colour)

    def ring(
        self,
        cx: float,
        cy: float,
        r_in: float,
        r_out: float,
        colour: Colour,
        segments: int = 24,
        rx_scale: float = 1.0,
    ) -> None:
        """An annulus between radii ``r_in`` and ``r_out`` (x radii scaled by ``rx_scale``)."""
        a = np.arange(segments) * (2 * math.pi / segments)
        c, s = np.cos(a), np.sin(a)
        inner = np.stack([cx + c * r_in * rx_scale, cy + s * r_in], axis=1)
        outer = np.stack([cx + c * r_out * rx_scale, cy + s * r_out], axis=1)
        pts = np.concatenate([inner, outer])
        i = np.arange(segments)
        j = (i + 1) % segments
        idx = np.stack([i, j, segments + j, i, segments + j, segments + i], axis=1).reshape(-1)
        self._add(pts, np.tile(np.asarray(colour, dtype=np.uint8), (2 * segments, 1)), idx)

    def line(
        self, x0: float, y0: float, x1: float, y1: float, width: float, colour: Colour, cap: bool = False
    ) -> None:
        """A straight segment ``width`` thick (a quad); ``cap`` extends both ends by width/2."""
        dx, dy = x1 - x0, y1 - y0
        ln = math.hypot(dx, dy)
        if ln == 0:
            return
        ux, uy = dx / ln, dy / ln
        if cap:
            e = width * 0.5
            x0, y0, x1, y1 = x0 - ux * e, y0 - uy * e, x1 + ux * e, y1 + uy * e
        nx, ny = -uy * width * 0.5, ux * width * 0.5
        self.polygon([(x0 + nx, y0 + ny), (x0 - nx, y0 - ny), (x1 - nx, y1 - ny), (x1 + nx, y1 + ny)], colour)

    def polyline(
        self,
        points: Sequence[Sequence[float]],
        width: float,
        colour: Colour,
        closed: bool = False,
        round_joins: bool = True,
    ) -> None:
        """Connected segments ``width`` thick, with round joins so corners have no gaps."""
        pts = [tuple(p) for p in points]
        if closed and len(pts) > 2:
            pts.append(pts[0])
        for a, b in zip(pts, pts[1:], strict=False):
            self.line(a[0], a[1], b[0], b[1], width, colour)
        if round_joins:
            for p in pts[1:-1] if not closed else pts[:-1]:
                self.circle(p[0], p[1], width * 0.5, colour, segments=10)

    def dashed(
        self,
        x0: float,
        y0: float,
        x1: float,
        y1: float,
        width: float,
        colour: Colour,
        dash: float,
        gap: float,
    ) -> None:
        """A dashed segment: dashes of ``dash`` length separated by ``gap`` (world units)."""
        ln = math.hypot(x1 - x0, y1 - y0)
        if ln == 0:
            return
        ux, uy = (x1 - x0) / ln, (y1 - y0) / ln
        t = 0.0
        while t < ln:
            e = min(ln, t + dash)
            self.line(x0 + ux * t, y0 + uy * t, x0 + ux * e, y0 + uy * e, width, colour)
            t = e + gap

    def arrow(
        self,
        x0: float,
        y0: float,
        x1: float,
        y1: float,
        width: float,
        colour: Colour,
        head: float | None = None,
    ) -> None:
        """A shaft from ``(x0, y0)`` with a triangular head ending at ``(x1, y1)``."""
        ln = math.hypot(x1 - x0, y1 - y0)
        if ln == 0:
            return
        hl = head if head is not None else width * 3.2
        hl = min(hl, ln * 0.6)
        ux, uy = (x1 - x0) / ln, (y1 - y0) / ln
        bx, by = x1 - ux * hl, y1 - uy * hl
        self.line(x0, y0, bx, by, width, colour)
        nx, ny = -uy * hl * 0.55, ux * hl * 0.55
        self.polygon([(x1, y1), (bx + nx, by + ny), (bx - nx, by - ny)], colour)

    def mesh(self, m: Mesh) -> None:
        """Append an existing mesh."""
        if m.vertex_count:
            self._add(m.positions.astype(np.float64), m.colors, m.indices.astype(np.int64))

    def build(self) -> Mesh:
        """The accumulated shapes as one :class:`Mesh`."""
        if not self._pos:
            return Mesh.empty()
        return Mesh(
            np.concatenate(self._pos).astype(np.float32),
            np.concatenate(self._col).astype(np.uint8),
            np.concatenate(self._idx).astype(np.uint32),
        )


@dataclass(frozen=True)
class TileIndex:
    """Where each map tile's triangles sit in a tile-sorted index array (see :func:`tile_sort`).

    Attributes:
        starts: ``int64 [tiles + 1]``: first triangle of each tile (row-major tiles), and
            the total at the end.
        tile_rows, tile_cols: the tile grid.
        tile: hexes per tile side.
    """

    starts: np.ndarray
    tile_rows: int
    tile_cols: int
    tile: int

    def ranges(self, r0: int, r1: int, c0: int, c1: int) -> list[tuple[int, int]]:
        """Index ranges ``(first index, index count)`` covering hex rows r0..r1, cols c0..c1.

        Whole tile rows that follow each other merge into one range.
        """
        t = self.tile
        tr0, tr1 = max(0, r0 // t), min(self.tile_rows - 1, max(0, r1) // t)
        tc0, tc1 = max(0, c0 // t), min(self.tile_cols - 1, max(0, c1) // t)
        if r1 < 0 or c1 < 0 or tr0 > tr1 or tc0 > tc1:
            return []
        out: list[tuple[int, int]] = []
        for tr in range(tr0, tr1 + 1):
            s = int(self.starts[tr * self.tile_cols + tc0])
            e = int(self.starts[tr * self.tile_cols + tc1 + 1])
            if e <= s:
                continue
            if out and out[-1][0] + out[-1][1] == 3 * s:
                out[-1] = (out[-1][0], out[-1][1] + 3 * (e - s))
            else:
                out.append((3 * s, 3 * (e - s)))
        return out


def tile_sort(
    indices: np.ndarray, owner: np.ndarray, width: int, height: int, tile: int = TILE
) -> tuple[np.ndarray, TileIndex]:
    """Reorder triangles by map tile (stable: each hex keeps its own drawing order).

    Args:
        indices: ``[3 t]`` triangle indices.
        owner: ``[n]`` map hex index (``row * width + col``) of every vertex.
        width, height: the map size in hexes.
        tile: hexes per tile side.

    Returns:
        The reordered indices and the :class:`TileIndex` to cull with.

    >>> idx = np.array([0, 1, 2, 3, 4, 5], dtype=np.uint32)
    >>> own = np.array([9, 9, 9, 0, 0, 0])   # second triangle belongs to hex 0 (tile 0)
    >>> sorted_idx, ti = tile_sort(idx, own, 10, 1, tile=8)
    >>> sorted_idx.tolist(), ti.starts.tolist()
    ([3, 4, 5, 0, 1, 2], [0, 1, 2])
    """
    tri = np.asarray(indices, dtype=np.int64).reshape(-1, 3)
    tri_owner = np.asarray(owner, dtype=np.int64)[tri[:, 0]]
    row, col = tri_owner // width, tri_owner % width
    ntr, ntc = -(-height // tile), -(-width // tile)
    tid = (row // tile) * ntc + col // tile
    order = np.argsort(tid, kind="stable")
    starts = np.searchsorted(tid[order], np.arange(ntr * ntc + 1))
    return tri[order].reshape(-1).astype(np.uint32), TileIndex(starts.astype(np.int64), ntr, ntc, tile)
