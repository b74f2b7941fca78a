"""Region overlays shared by the play screen and the editor (renderer's overlay protocol):
deploy zones / selections (:class:`ZoneOverlay`) and objective markers (:class:`ObjectiveOverlay`,
R10.2). Pure numpy meshes (no GL): the map view uploads them.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from ..model.hexgrid import Hex
from .layers import Layer
from .looks import RGBA, mix, with_alpha
from .mesh import Mesh, MeshBuilder, TexMesh, hex_corner_offsets
from .overlays import Overlay, OverlayContext

__all__ = [
    "ObjectiveOverlay",
    "TargetOverlay",
    "ZoneOverlay",
    "SIDE_ZONE_COLOURS",
    "area_colour",
    "fill_hex",
    "ring_hex",
    "outline_region",
]

_SQRT3 = math.sqrt(3.0)


def fill_hex(b: MeshBuilder, cx: float, cy: float, size: float, colour: RGBA, inset: float = 0.0) -> None:
    """A filled hex of circumradius ``size`` (world units) at ``(cx, cy)``, shrunk by the
    fraction ``inset``."""
    b.polygon(hex_corner_offsets(size * (1.0 - inset)) + (cx, cy), colour)


def ring_hex(
    b: MeshBuilder, cx: float, cy: float, size: float, width: float, colour: RGBA, inset: float = 0.0
) -> None:
    """A hex outline ``width`` world units wide inside a hex of circumradius ``size``."""
    outer = hex_corner_offsets(size * (1.0 - inset)) + (cx, cy)
    inner = hex_corner_offsets(size * (1.0 - inset) - width / (_SQRT3 / 2)) + (cx, cy)
    for i in range(6):
        j = (i + 1) % 6
        b.polygon([outer[i], outer[j], inner[j], inner[i]], colour)


def outline_region(b: MeshBuilder, ctx: OverlayContext, hexes: set[Hex], width: float, colour: RGBA) -> None:
    """Draw only the hexsides on the region's border (between a member and a non-member)."""
    s = ctx.layout.size
    corners = hex_corner_offsets(s)
    # corner i -> i+1 of a flat-topped hex faces: 0-1 SE(3)... map each edge to its neighbour direction
    # edges in counter-clockwise screen order from east, y up: (0,1) NE, (1,2) N, (2,3) NW, (3,4) SW, (4,5) S, (5,0) SE
    edge_dir = {0: 2, 1: 1, 2: 6, 3: 5, 4: 4, 5: 3}
    for h in hexes:
        cx, cy = ctx.layout.hex_to_pixel(h)
        for i in range(6):
            if h.neighbor(edge_dir[i]) in hexes:
                continue
            x0, y0 = corners[i][0] + cx, corners[i][1] + cy
            x1, y1 = corners[(i + 1) % 6][0] + cx, corners[(i + 1) % 6][1] + cy
            b.line(x0, y0, x1, y1, width, colour, cap=True)


@dataclass
class ZoneOverlay(Overlay):
    """A region (deploy zone, selection, drag preview): translucent fill and a border line.

    Attributes:
        hexes: the region.
        colour: fill and border colour.
        alpha: fill opacity 0..1.
        border: border width in hex sizes (0: none).
        layer: fills go under counters (UNDERLAY) or above everything (OVERLAY).
    """

    hexes: Iterable[Hex]
    colour: RGBA
    alpha: float = 0.35
    border: float = 0.07
    on_top: bool = False

    def build(self, ctx: OverlayContext) -> dict[int, Mesh | TexMesh]:
        """Fill mesh (and border lines) in world units, by layer."""
        hs = {h for h in self.hexes if ctx.bmap.in_bounds(h)}
        s = ctx.layout.size
        under = MeshBuilder()
        over = MeshBuilder()
        for h in hs:
            cx, cy = ctx.layout.hex_to_pixel(h)
            fill_hex(under, cx, cy, s, with_alpha(self.colour, self.alpha))
        if self.border > 0:
            outline_region(over, ctx, hs, self.border * s, with_alpha(self.colour, 1.0))
        lay = int(Layer.OVERLAY) if self.on_top else int(Layer.UNDERLAY)
        return {lay: Mesh.concat([under.build(), over.build()])}


@dataclass
class ObjectiveOverlay(Overlay):
    """Objective hexes (R10.2): a gold star on a dark disc with the points below it."""

    objectives: Iterable[tuple[Hex, int]]

    def build(self, ctx: OverlayContext) -> dict[int, Mesh | TexMesh]:
        """Star markers and point plates (world units), above counters."""
        s = ctx.layout.size
        b = MeshBuilder()
        texts: list[TexMesh] = []
        gold = (236, 190, 60, 255)
        dark = (40, 36, 28, 230)
        for h, pts in self.objectives:
            if not ctx.bmap.in_bounds(h):
                continue
            cx, cy = ctx.layout.hex_to_pixel(h)
            cy_star = cy + 0.28 * s
            b.circle(cx, cy_star, 0.3 * s, dark, segments=20)
            b.ring(cx, cy_star, 0.26 * s, 0.3 * s, gold, segments=20)
            pts_xy = []
            for k in range(10):
                r = (0.22 if k % 2 == 0 else 0.09) * s
                a = math.pi / 2 + k * math.pi / 5
                pts_xy.append((cx + r * math.cos(a), cy_star + r * math.sin(a)))
            for k in range(10):  # star as a fan of triangles from the centre
                b.polygon([(cx, cy_star), pts_xy[k], pts_xy[(k + 1) % 10]], gold)
            label = f"{pts} VP" if pts else "OBJ"
            w = ctx.atlas.measure(label, 0.2 * s, "bold")
            b.rect(cx - w / 2 - 0.06 * s, cy - 0.27 * s, cx + w / 2 + 0.06 * s, cy - 0.02 * s, dark)
            texts.append(
                ctx.atlas.text(
                    label, cx, cy - 0.145 * s, 0.2 * s, mix(gold, (255, 255, 255, 255), 0.3), style="bold"
                )
            )
        return {int(Layer.OVERLAY): b.build(), int(Layer.OVERLAY_TEXT): TexMesh.concat(texts)}


#: deploy-zone colours per side (the editor's and ``hexwar render``'s), RGBA
SIDE_ZONE_COLOURS: dict[str, RGBA] = {"german": (64, 104, 176, 255), "soviet": (196, 64, 56, 255)}


def area_colour(name: str) -> RGBA:
    """A steady colour per named area (a BLAKE2b hash of the name, never a generator)."""
    import hashlib

    d = hashlib.blake2b(name.encode(), digest_size=3).digest()
    return (90 + d[0] % 150, 90 + d[1] % 150, 90 + d[2] % 150, 255)


@dataclass
class TargetOverlay(Overlay):
    """Artillery target hexes (R9.3): a red crosshair ring on each, above counters."""

    hexes: Iterable[Hex]
    colour: RGBA = (226, 52, 40, 255)

    def build(self, ctx: OverlayContext) -> dict[int, Mesh | TexMesh]:
        """A ring and four ticks per target hex (world units)."""
        s = ctx.layout.size
        b = MeshBuilder()
        for h in self.hexes:
            if not ctx.bmap.in_bounds(h):
                continue
            cx, cy = ctx.layout.hex_to_pixel(h)
            ring_hex(b, cx, cy, s, 0.09 * s, self.colour, inset=0.18)
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                b.line(
                    cx + dx * 0.15 * s,
                    cy + dy * 0.15 * s,
                    cx + dx * 0.55 * s,
                    cy + dy * 0.55 * s,
                    0.07 * s,
                    self.colour,
                    cap=True,
                )
        return {int(Layer.OVERLAY): b.build()}
