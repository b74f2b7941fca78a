"""The editor's interaction state and tools, without any window: what a click, a drag or a key
does to the document.

:class:`EditorSession` holds the document, the current tool, brush radius, terrain, wreck
counter, side and unit card, the selection and clipboard, the LOS check, and the artillery and
fire previews. The pyglet window (:mod:`hexwar.editor.window`) only turns mouse positions into
hexes and keys into the calls below, so everything here is testable headless, and every
change goes through the document's commands (undoable, validated by the map).

Tools and their letters (also listed in the help overlay, :data:`TOOLS`):

=====  ===============  ====================================================================
key    tool             left button / right button
=====  ===============  ====================================================================
B      brush            paint the palette terrain (radius 0/1/2) / pick the terrain under it
L      line             drag a straight hex line of the palette terrain (with the brush)
F      fill             flood-fill the connected same-terrain region
E      elevation        raise ground one level / lower it (R2.4, R3.4)
R      road             draw a road / erase it
X      wreck            put the chosen wreck counter on the stack (R8.1) / remove the top one
U      rubble           reduce buildings to rubble (R8.3) / restore them
I      fire             set buildings on fire (R8.4) / put fires out
M      select           drag a rectangle (Shift adds, Ctrl removes)
W      wand             select the connected same-terrain region (Shift adds)
O      LOS              click two hexes: LOS result and why (R3)
A      artillery        drift-zone preview of a strike on the hex (R9.3, exact odds)
S      spread           fire spread chances from the hex into adjacent buildings (R8.4)
D      deploy           paint the current side's deploy zone (R5.2) / erase it
G      objective        add an objective or +5 points / -5 points, removing at 0 (R10.2)
N      unit             place the chosen starting unit (R10.2) / remove the top one
=====  ===============  ====================================================================
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..errors import HexwarError
from ..model.hexgrid import Hex
from ..model.maps import MapError
from . import commands as C
from .edit_tools import TOOL_OBJECTS, Tool
from .model import EditorDocument
from .scenario_draft import SIDES
from .session_scenario import ScenarioEditsMixin
from .tool_host import LEFT, MIDDLE, MOD_CTRL, MOD_SHIFT, RIGHT
from .tools import BRUSH_RADII, Clipboard, brush_hexes, line_hexes, stroke_path

__all__ = ["LEFT", "MIDDLE", "RIGHT", "MOD_SHIFT", "MOD_CTRL", "TOOLS", "ToolInfo", "EditorSession"]


@dataclass(frozen=True)
class ToolInfo:
    """A tool's id, keyboard letter, short label and what the buttons do (help overlay)."""

    id: str
    key: str
    label: str
    help: str
    scenario_only: bool = False


TOOLS: tuple[ToolInfo, ...] = (
    ToolInfo("brush", "B", "Brush", "paint terrain / right: pick terrain"),
    ToolInfo("line", "L", "Line", "drag a straight line of terrain"),
    ToolInfo("fill", "F", "Fill", "flood-fill a same-terrain region"),
    ToolInfo("elevation", "E", "Ground", "raise ground / right: lower"),
    ToolInfo("road", "R", "Road", "draw road / right: erase"),
    ToolInfo("wreck", "X", "Wreck", "place wreck counter / right: remove"),
    ToolInfo("rubble", "U", "Rubble", "rubble a building / right: restore"),
    ToolInfo("fire", "I", "Fire", "set a building alight / right: put out"),
    ToolInfo("select", "M", "Select", "rectangle (Shift adds, Ctrl removes)"),
    ToolInfo("wand", "W", "Wand", "select same-terrain region"),
    ToolInfo("los", "O", "LOS", "click two hexes: line of sight"),
    ToolInfo("artillery", "A", "Drift", "artillery drift-zone preview"),
    ToolInfo("spread", "S", "Spread", "fire spread chances from a hex"),
    ToolInfo("deploy", "D", "Deploy", "deploy zone of the side / right: erase", True),
    ToolInfo("objective", "G", "Objective", "objective, +5 pts / right: -5 pts", True),
    ToolInfo("unit", "N", "Unit", "place starting unit / right: remove", True),
)
TOOL_BY_ID = {t.id: t for t in TOOLS}
TOOL_BY_KEY = {t.key: t for t in TOOLS}


def unit_catalogue() -> dict[str, list[tuple[str, str, str | None]]]:
    """Unit cards per side for the unit tool: ``side -> [(card id, name, crew card id | None)]``.

    Crews ride with their unit (R5.2): a card that needs one gets the regular crew card.
    Empty lists when the card data cannot be loaded.
    """
    out: dict[str, list[tuple[str, str, str | None]]] = {s: [] for s in SIDES}
    try:
        from ..rules.cards import default_cards

        cards = default_cards()
    except (HexwarError, ImportError, OSError):
        return out
    for side in SIDES:
        for u in cards.side_units(side, crews=False):
            if u.unit_type == "aircraft":
                continue
            crew = None
            if u.needs_crew and u.crew not in ("infantry", "none"):
                try:
                    crew = cards.crew_card(side, u.crew, "regular").id
                except HexwarError:
                    crew = None
            out[side].append((u.id, u.name, crew))
    return out


class EditorSession(ScenarioEditsMixin):
    """Interaction state over an :class:`EditorDocument` (see the module table of tools).

    Args:
        doc: the document.
        units: the unit catalogue (default :func:`unit_catalogue`), injectable for tests.

    Attributes:
        tool: current tool id (a key of :data:`TOOL_BY_ID`, or ``"paste"``).
        brush: brush radius in hexes (0, 1, 2 = 1, 7, 19 hexes).
        terrain: palette terrain key.
        wreck: chosen wreck counter id (R8.1).
        side: the side scenario tools act for.
        unit_index: index of the chosen unit card in the side's catalogue.
        selection: selected hexes.
        clipboard: copied hexes, or ``None``.
        floating: the clipboard as it will be pasted (rotated / flipped), in paste mode.
        hover: the hex under the cursor (``None`` off the map).
        show_labels: hex labels shown.
        status: the status-bar message; ``status_error`` marks a refusal.
        los: ``(a, b, result)`` of the LOS tool; ``b``/``result`` may be ``None``.
        artillery: ``(target, side, {hex | None: probability})`` of the drift preview.
        spread: ``(hex, {neighbour: probability})`` of the fire spread preview.
        preview: hexes the current drag would change (line, rectangle, deploy paint).
    """

    def __init__(
        self, doc: EditorDocument, units: dict[str, list[tuple[str, str, str | None]]] | None = None
    ) -> None:
        self.doc = doc
        self.tool = "brush"
        self.brush = 0
        rules = doc.map.rules
        self.terrain = "woods" if "woods" in {t.key for t in rules.types} else rules.types[0].key
        self.wreck = sorted(rules.wrecks)[0] if rules.wrecks else ""
        self.side = SIDES[0]
        self.units = units if units is not None else unit_catalogue()
        self.unit_index = 0
        self.selection: set[Hex] = set()
        self.clipboard: Clipboard | None = None
        self.floating: Clipboard | None = None
        self.hover: Hex | None = None
        self.show_labels = True
        self.status = "Ready"
        self.status_error = False
        self.los: tuple[Hex, Hex | None, Any] | None = None
        self.artillery: tuple[Hex, str, dict[Hex | None, Fraction]] | None = None
        self.spread: tuple[Hex, dict[Hex, Fraction]] | None = None
        self.preview: set[Hex] = set()
        self.objective: Hex | None = None  # the objective the scenario panel edits
        self._drag_button = 0
        self._drag_start: Hex | None = None
        self._last: Hex | None = None
        self._stroke_done: set[Hex] = set()
        self._drag_mods = 0
        self.on_change: Callable[[], None] | None = None
        self._tool_before_paste = "brush"

    # -- messages --------------------------------------------------------------------
    def say(self, text: str, error: bool = False) -> None:
        """Show ``text`` in the status bar (``error``: a refusal, drawn in red)."""
        self.status = text
        self.status_error = error

    def _run(self, make: Callable[[], C.Command]) -> bool:
        """Execute a command; report refusals in the status bar. True when something changed."""
        try:
            cmd = make()
            self.doc.execute(cmd)
        except C.NothingToDo as exc:
            self.say(str(exc))
            return False
        except MapError as exc:
            self.say(str(exc), error=True)
            return False
        self.say(cmd.name)
        self._invalidate_previews()
        return True

    def _invalidate_previews(self) -> None:
        # previews depend on the map: recompute them, keeping the status message
        keep = (self.status, self.status_error)
        self._refresh_previews()
        self.status, self.status_error = keep

    def _refresh_previews(self) -> None:
        if self.los is not None and self.los[1] is not None:
            self._compute_los(self.los[0], self.los[1])
        if self.artillery is not None:
            self.preview_artillery(self.artillery[0], self.artillery[1])
        if self.spread is not None:
            self.preview_spread(self.spread[0])

    # -- tool settings -----------------------------------------------------------------
    @property
    def tool_object(self) -> Tool:
        """The current tool's object (:mod:`hexwar.editor.edit_tools`), which handles the mouse."""
        return TOOL_OBJECTS[self.tool]

    def set_tool(self, tool: str) -> None:
        """Switch tool by id; scenario tools need a scenario document.

        Raises:
            HexwarError: for an unknown tool id.
        """
        info = TOOL_BY_ID.get(tool)
        if info is None:
            raise HexwarError(f"unknown tool {tool!r}; expected one of {sorted(TOOL_BY_ID)}")
        if info.scenario_only and self.doc.scenario is None:
            self.say(f"{info.label}: open a scenario to place deploy zones, objectives and units", error=True)
            return
        self._end_drag()
        if tool != self.tool:  # a check tool's result belongs to that tool
            self.los = self.artillery = self.spread = None
            self._live_los = None
        self.tool = tool
        self.floating = None
        self.preview = set()
        self.say(f"{info.label}: {info.help}")

    def tool_by_key(self, letter: str) -> bool:
        """Switch to the tool of keyboard ``letter``; False when no tool has it."""
        info = TOOL_BY_KEY.get(letter.upper())
        if info is None:
            return False
        self.set_tool(info.id)
        return True

    def set_brush(self, radius: int) -> None:
        """Set the brush radius (0, 1, 2; clamped)."""
        self.brush = max(BRUSH_RADII[0], min(BRUSH_RADII[-1], int(radius)))
        self.say(f"Brush radius {self.brush} ({len(brush_hexes(Hex(0, 0), self.brush))} hexes)")

    def set_terrain(self, key: str) -> None:
        """Choose the palette terrain ``key`` (and switch to a terrain tool if needed).

        Raises:
            HexwarError: for a key not in the terrain table.
        """
        if key not in {t.key for t in self.doc.map.rules.types}:
            raise HexwarError(f"unknown terrain {key!r}")
        self.terrain = key
        if not self.tool_object.paints_terrain:
            self.set_tool("brush")
        t = self.doc.map.rules.by_key(key)
        self.say(f"Terrain: {t.name}" + (f" (building DR {t.dr})" if t.dr else ""))

    def set_wreck(self, wreck_id: str) -> None:
        """Choose the wreck counter the wreck tool places (R8.1)."""
        if wreck_id not in self.doc.map.rules.wrecks:
            raise HexwarError(f"unknown wreck counter {wreck_id!r}")
        self.wreck = wreck_id
        if self.tool != "wreck":
            self.set_tool("wreck")
        w = self.doc.map.rules.wrecks[wreck_id]
        self.say(
            f"Wreck {w.id}: {w.nationality}, {'LOS symbol, ' if w.los else ''}"
            f"modifier {w.modifier:+d} ({'all units' if w.applies == 'all' else 'soft units'})"
        )

    def cycle_side(self) -> None:
        """Switch the side scenario tools and previews act for (german <-> soviet)."""
        self.side = SIDES[(SIDES.index(self.side) + 1) % len(SIDES)]
        self.unit_index = 0
        if self.artillery is not None:
            self.preview_artillery(self.artillery[0], self.side)
        self.say(f"Side: {self.side}")

    def current_unit(self) -> tuple[str, str, str | None] | None:
        """The chosen unit card of the current side, or ``None`` when there are none."""
        lst = self.units.get(self.side, [])
        if not lst:
            return None
        return lst[self.unit_index % len(lst)]

    def cycle_unit(self, step: int = 1) -> None:
        """Choose the next (or previous) unit card of the side."""
        lst = self.units.get(self.side, [])
        if lst:
            self.unit_index = (self.unit_index + step) % len(lst)
            self.say(f"Unit: {lst[self.unit_index][1]}")

    # -- mouse -----------------------------------------------------------------------------
    def press(self, h: Hex | None, button: int = LEFT, modifiers: int = 0) -> None:
        """A mouse button went down over hex ``h`` (``None``: off the map)."""
        self.hover = h
        if h is None or not self.doc.map.in_bounds(h):
            return
        self._drag_button = button
        self._drag_start = h
        self._last = None
        self._drag_mods = modifiers
        self._stroke_done = set()
        self.tool_object.press(self, h, button, modifiers)

    def drag(self, h: Hex | None, modifiers: int = 0) -> None:
        """The mouse moved with a button held, now over ``h``."""
        self.hover = h
        if h is None or not self.doc.map.in_bounds(h) or self._drag_start is None:
            return
        if self.doc.stroke is not None:
            for x in stroke_path(self._last, h):
                if self.doc.map.in_bounds(x):
                    self._dab(x)
            return
        self.tool_object.drag(self, h, modifiers)

    def release(self, h: Hex | None = None, modifiers: int = 0) -> None:
        """The mouse button went up (over ``h``, possibly ``None``)."""
        if h is not None:
            self.hover = h
        start, button = self._drag_start, self._drag_button
        self._drag_start = None
        if self.doc.stroke is not None:
            self._end_drag()
            return
        if start is None:
            return
        self.tool_object.release(self, start, button)

    def move(self, h: Hex | None) -> None:
        """The mouse moved with no button held (hover; live LOS after the first LOS click)."""
        self.hover = h
        self.tool_object.move(self, h)

    def _end_drag(self) -> None:
        if self.doc.stroke is not None:
            ch = self.doc.end_stroke()
            if ch is not None:
                self.say(self.doc.undo_name)
                self._invalidate_previews()
        self._drag_start = None

    def _line_preview(self, a: Hex, b: Hex) -> set[Hex]:
        out: set[Hex] = set()
        for x in line_hexes(a, b):
            out.update(brush_hexes(x, self.brush, self.doc.map))
        return out

    def _dab(self, h: Hex) -> None:
        """One brush application of the stroke tools at ``h``."""
        self._last = h
        op = self.tool_object.dab(self, h, self._drag_button == LEFT)
        if op is not None:
            err = self.doc.stroke_add(op)
            if err is not None:
                self.say(str(err), error=True)

    # -- selection, clipboard ------------------------------------------------------------
    def _apply_selection(self, region: set[Hex], modifiers: int) -> None:
        if modifiers & MOD_CTRL:
            self.selection -= region
        elif modifiers & MOD_SHIFT:
            self.selection |= region
        else:
            self.selection = set(region)
        self.say(f"{len(self.selection)} hexes selected")

    def select_all(self) -> None:
        """Select every hex of the map."""
        self.selection = set(self.doc.map.hexes())
        self.say(f"{len(self.selection)} hexes selected")

    def copy(self) -> bool:
        """Copy the selection to the clipboard (False, with a message, when nothing is selected)."""
        if not self.selection:
            self.say("Select hexes first (M rectangle, W wand)", error=True)
            return False
        self.clipboard = Clipboard.copy(self.doc.map, sorted(self.selection))
        self.say(f"Copied {len(self.clipboard)} hexes")
        return True

    def cut(self) -> None:
        """Copy the selection, then clear it to bare ground (one undo step)."""
        if self.copy():
            hexes = sorted(self.selection)
            self._run(lambda: C.clear_hexes(hexes))

    def delete_selection(self) -> None:
        """Reset the selected hexes to clear ground at level 0 (one undo step)."""
        if not self.selection:
            self.say("Nothing selected", error=True)
            return
        hexes = sorted(self.selection)
        self._run(lambda: C.clear_hexes(hexes))

    def begin_paste(self) -> None:
        """Enter paste mode: the clipboard follows the cursor; click to paste, Esc to stop."""
        if self.clipboard is None:
            self.say("The clipboard is empty: select hexes and press Ctrl+C", error=True)
            return
        self._end_drag()
        if self.tool != "paste":
            self._tool_before_paste = self.tool
        self.tool = "paste"
        self.floating = self.clipboard
        self.say("Paste: click to place; , and . rotate 60 degrees, / and \\ flip; Esc cancels")

    def rotate(self, steps: int) -> None:
        """Rotate the floating paste (or, outside paste mode, the clipboard) by ``steps`` x 60
        degrees, clockwise positive."""
        if self.floating is not None:
            self.floating = self.floating.rotated(steps)
        elif self.clipboard is not None:
            self.clipboard = self.clipboard.rotated(steps)
        else:
            self.say("Nothing to rotate: copy a selection first", error=True)
            return
        self.say(f"Rotated {60 * steps:+d} degrees")

    def flip(self, axis: str) -> None:
        """Mirror the floating paste (or clipboard) left-right (``"lr"``) or top-bottom (``"tb"``)."""
        if self.floating is not None:
            self.floating = self.floating.flipped(axis)
        elif self.clipboard is not None:
            self.clipboard = self.clipboard.flipped(axis)
        else:
            self.say("Nothing to flip: copy a selection first", error=True)
            return
        self.say("Flipped " + ("left-right" if axis == "lr" else "top-bottom"))

    def paste_preview(self) -> dict[Hex, Any]:
        """Where the floating clipboard would land at the hover hex (``hex -> state``)."""
        if self.floating is None or self.hover is None:
            return {}
        states, _ = self.floating.placed(self.hover, self.doc.map)
        return states

    def paste_at(self, h: Hex) -> None:
        """Paste the floating clipboard with its anchor on ``h`` (one undo step)."""
        clip = self.floating or self.clipboard
        if clip is None:
            self.say("The clipboard is empty", error=True)
            return
        states, dropped = clip.placed(h, self.doc.map)
        if not states:
            self.say("Nothing of the paste would land on the map", error=True)
            return
        if self._run(lambda: C.paste_states(states)):
            self.selection = set(states)
            if dropped:
                self.say(f"Pasted {len(states)} hexes ({dropped} fell off the map)")

    def cancel(self) -> None:
        """Esc: leave paste mode, cancel a drag, drop the LOS check and previews, else deselect."""
        if self.doc.stroke is not None:
            self.doc.cancel_stroke()
            self._drag_start = None
            self.say("Stroke cancelled")
            return
        if self.tool == "paste":  # back to the tool in use before Ctrl+V, never silently to Brush
            back = self._tool_before_paste if self._tool_before_paste in TOOL_BY_ID else "brush"
            self.tool = back
            self.floating = None
            self.say(f"Paste cancelled: back to the {TOOL_BY_ID[back].label} tool")
            return
        if self.preview or self._drag_start is not None:
            self.preview = set()
            self._drag_start = None
            return
        if self.los is not None or self.artillery is not None or self.spread is not None:
            self.los = self.artillery = self.spread = None
            return
        self.selection = set()
        self.say("Selection cleared")

    # -- undo ------------------------------------------------------------------------------
    def undo(self) -> None:
        """Undo the last edit (Ctrl+Z)."""
        self._end_drag()
        name = self.doc.undo_name
        if self.doc.undo() is None:
            self.say("Nothing to undo")
        else:
            self.say(f"Undid {name}")
            self._invalidate_previews()

    def redo(self) -> None:
        """Redo the last undone edit (Ctrl+Y, Ctrl+Shift+Z)."""
        self._end_drag()
        name = self.doc.redo_name
        if self.doc.redo() is None:
            self.say("Nothing to redo")
        else:
            self.say(f"Redid {name}")
            self._invalidate_previews()

    def new_scenario_on_map(self) -> bool:
        """ "New scenario on this map": a scenario draft from the map's deploy and objective
        markers (R5.2, R10.2; :meth:`hexwar.editor.model.EditorDocument.new_scenario_on_map`),
        one undo step; what the map is missing goes to the status bar. True when started."""
        self._end_drag()
        try:
            notes = self.doc.new_scenario_on_map()
        except HexwarError as exc:
            self.say(str(exc), error=True)
            return False
        where = self.doc.path.name if self.doc.path is not None else "a new file (Save As)"
        missing = [n for n in notes if n.startswith("the map has no") and "deploy" in n]
        self.say(
            f"New scenario on this map, saved as {where}: " + "; ".join(missing or notes), error=bool(missing)
        )
        self._invalidate_previews()
        return True

    # -- map size ------------------------------------------------------------------------
    def resize(self, left: int = 0, right: int = 0, top: int = 0, bottom: int = 0) -> bool:
        """Add (positive) or trim (negative) columns/rows on each side (one undo step)."""
        self._end_drag()
        self.selection = set()
        ok = self._run(lambda: C.resize(self.doc, left, right, top, bottom))
        if ok and left % 2:
            self.say(f"{self.doc.undo_name}: an odd column shift adds a row to keep the hex stagger")
        return ok

    def resize_to(self, width: int, height: int, anchor: str = "top-left") -> str | None:
        """Resize to ``width`` x ``height`` hexes with the content at ``anchor`` (one of
        :data:`hexwar.editor.resize.ANCHORS`), one undo step. Deploy zones, objectives, units
        and areas move with their hexes (R5.2, R10.2).

        Returns: ``None`` when done, else why it was refused (also in the status bar): a size
        outside 1..500, or scenario hexes that would fall off the map (named).
        """
        from .resize import moved_scenario, resize_plan
        from .tools import resized_map

        try:
            plan = resize_plan(self.doc.map, self.doc.scenario, width, height, anchor)
        except MapError as exc:
            return self._refuse(str(exc))
        if not plan.ok:
            return self._refuse(
                "Not resized: " + "; ".join(plan.lost) + " would fall off the map "
                "(pick another anchor or move them first)"
            )
        if (width, height) == (self.doc.map.width, self.doc.map.height) and not any(plan.margins):
            self.say(f"The map is {width} × {height} already")
            return None
        self._end_drag()
        self.selection = set()
        old = self.doc.map
        new, t = resized_map(old, *plan.margins)
        sc = moved_scenario(self.doc.scenario, old, new, t) if self.doc.scenario is not None else None
        if not self._run(lambda: C.ReplaceMap(f"Resize to {width}x{height} ({anchor})", new, sc)):
            return self.status
        self.say(f"Resized: {plan.summary}")
        return None

    # -- LOS, previews -------------------------------------------------------------------
    _live_los: Any = None

    def _los_result(self, a: Hex, b: Hex) -> Any:
        from ..model.los import line_of_sight

        return line_of_sight(self.doc.map, a, b)

    def _compute_los(self, a: Hex, b: Hex) -> None:
        try:
            res = self._los_result(a, b)
        except HexwarError as exc:
            self.say(str(exc), error=True)
            return
        self.los = (a, b, res)
        self._live_los = None
        self.say(describe_los(self.doc.map, a, b, res))

    def preview_artillery(self, target: Hex, side: str) -> None:
        """Exact landing distribution of one strike of ``side`` at ``target`` (R9.3), using the
        rule code's :func:`hexwar.rules.artillery.exact_landing_distribution`; the scenario's
        hit number for the side when it gives one."""
        from ..rules.artillery import exact_landing_distribution
        from ..rules.terrain_effects import default_effects

        hit_on = default_effects().side_hit_on(side)
        sc = self.doc.scenario
        if sc is not None:
            art = sc.artillery_of(side)  # type: ignore[attr-defined]
            if art is not None and art.hit_on is not None:
                hit_on = art.hit_on
        m = self.doc.map
        dist = exact_landing_distribution(target, hit_on, 0, m.width, m.height)
        self.artillery = (target, side, dist)
        off = dist.get(None, Fraction(0))
        self.say(
            f"Artillery ({side}, hits on {hit_on}+) at {m.label(target)}: "
            f"lands there {float(dist.get(target, 0)):.0%}, drifts off the map {float(off):.0%}"
        )

    def preview_spread(self, h: Hex) -> None:
        """One-turn spread chance from a fire in ``h`` into each adjacent intact, unburning
        building (R8.4: 2d6 + 6 >= DR), from :func:`hexwar.rules.fire.spread_probability`."""
        from ..rules.fire import spread_probability

        m = self.doc.map
        chances: dict[Hex, Fraction] = {}
        for n in m.neighbors(h):
            b = m.building_at(n)
            if b is not None and not m.has_fire(n) and b.dr is not None:
                chances[n] = spread_probability(b.dr)
        self.spread = (h, chances)
        if chances:
            parts = ", ".join(
                f"{m.label(n)} {float(p):.0%}" for n, p in sorted(chances.items(), key=lambda x: x[0].offset)
            )
            self.say(f"Fire in {m.label(h)} spreads next turn into: {parts}")
        else:
            self.say(f"A fire in {m.label(h)} has no adjacent intact building to spread into")


def describe_los(m: Any, a: Hex, b: Hex, res: Any) -> str:
    """One line for the status bar: result, hindrances, the first blocking hex and why (R3.6)."""
    status = str(getattr(res, "status", res))
    status = getattr(getattr(res, "status", None), "value", status)
    text = f"LOS {m.label(a)} -> {m.label(b)}: {status}"
    hind = getattr(res, "hindrances", 0)
    if hind:
        text += f", {hind} hindrance{'s' if hind != 1 else ''} (+{hind} to the attack value needed)"
    blk = getattr(res, "blocking", None)
    if blk is not None:  # "blocked at J11", not "blocked, blocked at J11" (issue 17)
        text = (
            text.removesuffix(": blocked") + ": blocked" if status == "blocked" else text + ","
        ) + f" at {m.label(blk)}"
        reason = getattr(res, "reason", "")
        if reason:
            text += f" ({reason})"
    n = len(getattr(res, "intervening", ()) or ())
    text += f"; {n} intervening hex{'es' if n != 1 else ''}"
    return text
