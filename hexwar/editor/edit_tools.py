"""The editor's tools as objects: one class per tool, what it does with a press, a drag, a
release, a hover and (stroke tools) one brush dab. The editor session (``hexwar.editor.session``)
holds the state they work on (document, brush, terrain, previews) and sends each mouse event
to the current tool's object (:data:`TOOL_OBJECTS`); a new tool is a new class here, not a new
branch in the session.

A tool sees the session as a :class:`~hexwar.editor.tool_host.ToolHost` (a Protocol both
modules import), so this module never imports the session.

No pyglet: buttons and modifiers are the session's ``LEFT``/``RIGHT`` and ``MOD_*`` values.
"""

from __future__ import annotations

from ..model.hexgrid import Hex
from . import commands as C
from .tool_host import LEFT, RIGHT, ToolHost
from .tools import brush_hexes, flood_region, rect_hexes, stroke_path

__all__ = [
    "Tool", "StrokeTool", "BrushTool", "LineTool", "FillTool", "ElevationTool", "RoadTool", "WreckTool",
    "RubbleTool", "FireTool", "SelectTool", "WandTool", "LosTool", "ArtilleryTool", "SpreadTool",
    "DeployTool", "ObjectiveTool", "UnitTool", "PasteTool", "TOOL_OBJECTS",
]  # fmt: skip


class Tool:
    """A tool: what it does with the mouse. The default does nothing.

    Attributes:
        id: the tool id (a key of :data:`hexwar.editor.session.TOOL_BY_ID`, or ``"paste"``).
        paints_terrain: picking a terrain keeps this tool (brush, line, fill) instead of
            switching to the brush.
    """

    id = ""
    paints_terrain = False

    def press(self, s: ToolHost, h: Hex, button: int, modifiers: int) -> None:
        """A button went down over ``h`` (in bounds)."""

    def drag(self, s: ToolHost, h: Hex, modifiers: int) -> None:
        """The pointer moved to ``h`` with the button held (no stroke running)."""

    def release(self, s: ToolHost, start: Hex, button: int) -> None:
        """The button went up after a press at ``start`` (no stroke running)."""

    def move(self, s: ToolHost, h: Hex | None) -> None:
        """Hover over ``h`` with no button held."""

    def dab(self, s: ToolHost, h: Hex, left: bool) -> C.MapOp | None:
        """One brush application at ``h`` during a stroke (stroke tools only)."""
        return None


class StrokeTool(Tool):
    """A tool that paints a stroke (one undo step per drag): press begins it, every hex the
    pointer crosses gets a :meth:`dab`.

    Attributes:
        names: the undo names of a left and a right stroke.
        radius_zero: the stroke ignores the brush size (roads are one hex wide).
    """

    names = ("", "")
    radius_zero = False

    def stroke_name(self, s: ToolHost, left: bool) -> str:
        """The undo step's name."""
        return self.names[0] if left else self.names[1]

    def press(self, s: ToolHost, h: Hex, button: int, modifiers: int) -> None:
        """Begin the stroke and dab at ``h``."""
        s.doc.begin_stroke(self.stroke_name(s, button == LEFT))
        s._dab(h)

    def area(self, s: ToolHost, h: Hex) -> list[Hex]:
        """The hexes one dab at ``h`` covers that the stroke has not covered yet."""
        r = 0 if self.radius_zero else s.brush
        return [x for x in brush_hexes(h, r, s.doc.map) if x not in s._stroke_done]


class BrushTool(StrokeTool):
    """Paint the picked terrain (R2.5); right click picks the terrain under the pointer."""

    id, paints_terrain = "brush", True

    def press(self, s: ToolHost, h: Hex, button: int, modifiers: int) -> None:
        """Left: begin a paint stroke; right: pick the terrain at ``h``."""
        if button == LEFT:
            s.doc.begin_stroke(f"Paint {s.doc.map.rules.by_key(s.terrain).name}")
            s._dab(h)
        elif button == RIGHT:
            s.set_terrain(s.doc.map.terrain_at(h).key)

    def dab(self, s: ToolHost, h: Hex, left: bool) -> C.MapOp | None:
        """Repaint the covered hexes not already of the picked terrain."""
        m = s.doc.map
        tidx = m.rules.index_of_key(s.terrain)
        todo = [x for x in self.area(s, h) if int(m.terrain[m.index(x)]) != tidx]
        return C.terrain_op(todo, s.terrain) if todo else None


class ElevationTool(StrokeTool):
    """Raise (left) or lower (right) the ground level, within 0..9 (R2.4)."""

    id, names = "elevation", ("Raise ground", "Lower ground")

    def dab(self, s: ToolHost, h: Hex, left: bool) -> C.MapOp | None:
        """Change the level of the covered hexes that stay within 0..9."""
        m = s.doc.map
        delta = 1 if left else -1
        todo = [x for x in self.area(s, h) if 0 <= m.level_at(x) + delta <= 9]
        if not todo and h not in s._stroke_done:
            s.say(f"{m.label(h)}: ground level already {m.level_at(h)} (levels run 0..9)", error=True)
        s._stroke_done.update(todo)
        return C.level_op(todo, delta=delta) if todo else None


class RoadTool(StrokeTool):
    """Draw (left) or erase (right) roads, one hex wide."""

    id, names, radius_zero = "road", ("Road", "Remove road"), True

    def dab(self, s: ToolHost, h: Hex, left: bool) -> C.MapOp | None:
        """Set or clear the road flag where it differs."""
        m = s.doc.map
        todo = [x for x in self.area(s, h) if bool(m.road[m.index(x)]) != left]
        return C.road_op(todo, left) if todo else None


class RubbleTool(StrokeTool):
    """Rubble (left) or restore (right) buildings (R8.3)."""

    id, names = "rubble", ("Rubble", "Restore building")

    def dab(self, s: ToolHost, h: Hex, left: bool) -> C.MapOp | None:
        """Change the building hexes whose rubble differs; say why a non-building is refused."""
        m = s.doc.map
        todo = [x for x in self.area(s, h) if m.terrain_at(x).is_building and m.has_rubble(x) != left]
        if not todo and left and not m.terrain_at(h).is_building:
            s.say(f"{m.label(h)}: rubble needs a building hex (R8.3)", error=True)
        return C.rubble_op(todo, left) if todo else None


class FireTool(StrokeTool):
    """Set intact buildings alight (left) or put fires out (right) (R8.4)."""

    id, names = "fire", ("Fire", "Put out fire")

    def dab(self, s: ToolHost, h: Hex, left: bool) -> C.MapOp | None:
        """Light the covered intact buildings, or put out the covered fires."""
        m = s.doc.map
        area = self.area(s, h)
        if left:
            todo = [x for x in area if m.building_at(x) is not None and not m.has_fire(x)]
            if not todo and m.building_at(h) is None and not m.has_fire(h):
                s.say(f"{m.label(h)}: fire needs an intact building (R8.4)", error=True)
        else:
            todo = [x for x in area if m.has_fire(x)]
        return C.fire_op(todo, left) if todo else None


class LineTool(Tool):
    """Drag a straight line of the picked terrain (brush-wide)."""

    id, paints_terrain = "line", True

    def press(self, s: ToolHost, h: Hex, button: int, modifiers: int) -> None:
        """Start the line preview at ``h``."""
        if button == LEFT:
            s.preview = s._line_preview(h, h)

    def drag(self, s: ToolHost, h: Hex, modifiers: int) -> None:
        """Stretch the preview to ``h``."""
        assert s._drag_start is not None
        s.preview = s._line_preview(s._drag_start, h)

    def release(self, s: ToolHost, start: Hex, button: int) -> None:
        """Paint the previewed line (one undo step)."""
        if button == LEFT and s.preview:
            hexes, key = sorted(s.preview), s.terrain
            s.preview = set()
            s._run(lambda: C.paint_terrain(hexes, key, f"Line of {s.doc.map.rules.by_key(key).name}"))


class FillTool(Tool):
    """Flood-fill the connected same-terrain region with the picked terrain."""

    id, paints_terrain = "fill", True

    def press(self, s: ToolHost, h: Hex, button: int, modifiers: int) -> None:
        """Fill the region of ``h``."""
        if button == LEFT:
            key = s.terrain
            region = flood_region(s.doc.map, h)
            s._run(lambda: C.flood_fill(region, key))


class WreckTool(Tool):
    """Place the picked wreck counter (left) or remove the wrecks of a hex (right) (R8.1)."""

    id = "wreck"

    def press(self, s: ToolHost, h: Hex, button: int, modifiers: int) -> None:
        """Place or remove; removing from an empty hex is refused with a message."""
        if button == LEFT:
            wid = s.wreck
            s._run(lambda: C.place_wreck(h, wid))
        elif s.doc.map.wrecks_at(h):
            s._run(lambda: C.remove_wreck(h))
        else:
            s.say(f"{s.doc.map.label(h)} holds no wreck", error=True)


class SelectTool(Tool):
    """Rectangle selection (Shift adds, Ctrl removes)."""

    id = "select"

    def press(self, s: ToolHost, h: Hex, button: int, modifiers: int) -> None:
        """Start the rectangle at ``h``."""
        s.preview = set(rect_hexes(h, h, s.doc.map))

    def drag(self, s: ToolHost, h: Hex, modifiers: int) -> None:
        """Stretch the rectangle to ``h``."""
        assert s._drag_start is not None
        s.preview = set(rect_hexes(s._drag_start, h, s.doc.map))

    def release(self, s: ToolHost, start: Hex, button: int) -> None:
        """Apply the rectangle to the selection."""
        region, s.preview = s.preview, set()
        s._apply_selection(region, s._drag_mods)


class WandTool(Tool):
    """Select the connected same-terrain region."""

    id = "wand"

    def press(self, s: ToolHost, h: Hex, button: int, modifiers: int) -> None:
        """Apply the region of ``h`` to the selection."""
        s._apply_selection(set(flood_region(s.doc.map, h)), modifiers)


class LosTool(Tool):
    """Two clicks: the line of sight between the hexes (R3), live while the pointer moves."""

    id = "los"

    def press(self, s: ToolHost, h: Hex, button: int, modifiers: int) -> None:
        """First click: the viewer; second click: the target (the result is computed)."""
        if button != LEFT:
            return
        if s.los is None or s.los[1] is not None:
            s.los = (h, None, None)
            s.say(f"LOS from {s.doc.map.label(h)}: click the second hex")
        else:
            s._compute_los(s.los[0], h)

    def move(self, s: ToolHost, h: Hex | None) -> None:
        """After the first click, the LOS to the hex under the pointer."""
        if s.los is not None and s.los[1] is None and h is not None and s.doc.map.in_bounds(h):
            s._live_los = s._los_result(s.los[0], h)


class ArtilleryTool(Tool):
    """Artillery drift-zone preview of the side (R9.3)."""

    id = "artillery"

    def press(self, s: ToolHost, h: Hex, button: int, modifiers: int) -> None:
        """Preview a strike called on ``h``."""
        if button == LEFT:
            s.preview_artillery(h, s.side)


class SpreadTool(Tool):
    """Fire spread chances from a hex (R8.4)."""

    id = "spread"

    def press(self, s: ToolHost, h: Hex, button: int, modifiers: int) -> None:
        """Preview the spread from ``h``."""
        if button == LEFT:
            s.preview_spread(h)


class DeployTool(Tool):
    """Paint (left) or erase (right) the side's deploy zone with the brush (R5.2)."""

    id = "deploy"

    def press(self, s: ToolHost, h: Hex, button: int, modifiers: int) -> None:
        """Start the zone preview."""
        s.preview = set(brush_hexes(h, s.brush, s.doc.map))
        s._last = h

    def drag(self, s: ToolHost, h: Hex, modifiers: int) -> None:
        """Grow the preview along the path."""
        for x in stroke_path(s._last, h):
            s.preview |= set(brush_hexes(x, s.brush, s.doc.map))
        s._last = h

    def release(self, s: ToolHost, start: Hex, button: int) -> None:
        """Add or erase the previewed hexes (one undo step)."""
        region, s.preview = s.preview, set()
        s._deploy_paint(region, add=button == LEFT)


class ObjectiveTool(Tool):
    """Objective hexes: +5 points (left), -5 (right) (R10.2)."""

    id = "objective"

    def press(self, s: ToolHost, h: Hex, button: int, modifiers: int) -> None:
        """Adjust the objective at ``h``."""
        s._objective_click(h, button)


class UnitTool(Tool):
    """Place (left) or remove (right) a starting unit."""

    id = "unit"

    def press(self, s: ToolHost, h: Hex, button: int, modifiers: int) -> None:
        """Place or remove at ``h``."""
        s._unit_click(h, button)


class PasteTool(Tool):
    """The floating clipboard: left pastes it, any other button cancels."""

    id = "paste"

    def press(self, s: ToolHost, h: Hex, button: int, modifiers: int) -> None:
        """Paste at ``h`` or cancel."""
        if button == LEFT:
            s.paste_at(h)
        else:
            s.cancel()


#: Tool id -> its object (every tool of :data:`hexwar.editor.session.TOOLS`, plus paste).
TOOL_OBJECTS: dict[str, Tool] = {
    t.id: t
    for t in (
        BrushTool(),
        LineTool(),
        FillTool(),
        ElevationTool(),
        RoadTool(),
        WreckTool(),
        RubbleTool(),
        FireTool(),
        SelectTool(),
        WandTool(),
        LosTool(),
        ArtilleryTool(),
        SpreadTool(),
        DeployTool(),
        ObjectiveTool(),
        UnitTool(),
        PasteTool(),
    )  # fmt: skip
}
