"""Draw order of the renderer's layers (pure Python, no GL).

Lower numbers draw first. Every layer is one group under the world (camera) or screen (HUD)
parent group, so draw order never depends on the order things were created in.

Everything up to :attr:`Layer.FEATURE_TEXT` is the static map (cached between frames, see
:mod:`hexwar.render.impostor`); underlays (heatmaps, reachable hexes) tint it from above
but stay under the unit counters.
"""

from __future__ import annotations

from enum import IntEnum

__all__ = ["MAX_STACK", "Layer", "counter_layers"]

#: Stack positions with their own counter groups; deeper counters share the last one.
MAX_STACK = 12


class Layer(IntEnum):
    """Draw order of the map's layers (lower first). Overlays and counters sit on top.

    Unit counters use two groups per stack position ``k`` (body ``COUNTER + 2k``, text
    ``COUNTER + 2k + 1``, ``k < MAX_STACK``) so a counter's name is covered by the counter
    stacked on it, exactly as cardboard counters would be.
    """

    GROUND = 0  # hex fills, ground levels shaded
    DETAIL = 1  # trees, furrows, reeds, ripples
    CONTOUR = 2  # contour lines between ground levels
    ROAD_EDGE = 3  # road edges, under the road surface
    ROAD = 4
    BUILDING = 5  # buildings by DR, rubble
    GRID = 6
    LABEL = 7  # hex labels
    FEATURE = 8  # wreck, fire and artillery marker counters
    FEATURE_TEXT = 9
    UNDERLAY = 10  # heatmap, reachable hexes, hindrance/blocking fills (under counters)
    UNDERLAY_TEXT = 11  # heatmap values
    COUNTER = 12  # unit counters: 12 + 2k body, 13 + 2k text for stack position k (k < 12)
    OVERLAY = 40  # LOS lines, arrows, target rings, selection
    OVERLAY_TEXT = 41  # movement numbers, LOS reasons
    HUD = 50  # screen-space (view = identity): legends
    HUD_TEXT = 51


#: Layers whose meshes are text (drawn with the glyph atlas).
TEXT_LAYERS = frozenset(
    {Layer.UNDERLAY_TEXT, Layer.LABEL, Layer.FEATURE_TEXT, Layer.OVERLAY_TEXT, Layer.HUD_TEXT}
)


def counter_layers(k: int) -> tuple[int, int]:
    """Group orders ``(body, text)`` of stack position ``k`` (0 = bottom)."""
    k = min(max(0, k), MAX_STACK - 1)
    return (int(Layer.COUNTER) + 2 * k, int(Layer.COUNTER) + 2 * k + 1)
