"""Editor-only map overlays, built on the renderer's overlay protocol
(:class:`hexwar.render.overlays.Overlay`): the floating paste and the brush cursor.

The region overlays the play screen shares (deploy zones, objectives) live in the renderer,
:mod:`hexwar.render.regions`, and are re-exported here. Pure numpy meshes (no GL).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from ..model.hexgrid import Hex
from ..render.layers import Layer
from ..render.looks import RGBA, with_alpha
from ..render.mesh import Mesh, MeshBuilder, TexMesh
from ..render.overlays import Overlay, OverlayContext
from ..render.regions import ObjectiveOverlay, ZoneOverlay, fill_hex, ring_hex
from .hexstate import HexState

__all__ = ["BrushCursorOverlay", "ObjectiveOverlay", "PasteOverlay", "ZoneOverlay"]


@dataclass
class BrushCursorOverlay(Overlay):
    """The hexes the brush would paint: thin rings in a contrasting colour."""

    hexes: Iterable[Hex]
    colour: RGBA = (255, 255, 255, 230)

    def build(self, ctx: OverlayContext) -> dict[int, Mesh | TexMesh]:
        """Two concentric rings per hex (dark casing, light line), above counters."""
        s = ctx.layout.size
        b = MeshBuilder()
        for h in self.hexes:
            if ctx.bmap.in_bounds(h):
                cx, cy = ctx.layout.hex_to_pixel(h)
                ring_hex(b, cx, cy, s, 0.09 * s, (20, 20, 20, 160), inset=0.02)
                ring_hex(b, cx, cy, s, 0.05 * s, self.colour, inset=0.04)
        return {int(Layer.OVERLAY): b.build()}


@dataclass
class PasteOverlay(Overlay):
    """The floating paste: each landing hex shows the copied terrain's colour and a ring."""

    states: Mapping[Hex, HexState]

    def build(self, ctx: OverlayContext) -> dict[int, Mesh | TexMesh]:
        """Each landing hex in its copied terrain colour, wreck and fire marks, a yellow ring."""
        s = ctx.layout.size
        b = MeshBuilder()
        types = ctx.bmap.rules.types
        for h, st in self.states.items():
            if not ctx.bmap.in_bounds(h):
                continue
            cx, cy = ctx.layout.hex_to_pixel(h)
            col = ctx.looks.centre_colour(types[st.terrain].key, st.level, st.road, st.rubble)
            fill_hex(b, cx, cy, s, with_alpha(col, 0.82), inset=0.05)
            if st.wrecks:
                b.rect(
                    cx - 0.25 * s, cy - 0.18 * s, cx + 0.25 * s, cy + 0.18 * s, ctx.looks.features["wreck"]
                )
            if st.fire:
                b.circle(cx, cy, 0.2 * s, ctx.looks.features["fire"], segments=12)
            ring_hex(b, cx, cy, s, 0.05 * s, (255, 226, 74, 235), inset=0.04)
        return {int(Layer.OVERLAY): b.build()}
