"""Editor tools without a window (issue 8): what clicks and drags do to the document."""

from __future__ import annotations

from hexwar.editor.model import EditorDocument
from hexwar.editor.session import MOD_CTRL, MOD_SHIFT, RIGHT, EditorSession
from hexwar.model.hexgrid import Hex, hex_line
from hexwar.model.maps import BattleMap

H = Hex.from_label
UNITS = {"german": [("de_a", "A", None), ("de_b", "B", "de_crew")], "soviet": [("su_a", "A", None)]}


def session(w: int = 12, h: int = 9, scenario: bool = False) -> EditorSession:
    return EditorSession(EditorDocument.new(w, h, scenario=scenario), units=UNITS)


def keys_of(s: EditorSession, key: str) -> set[Hex]:
    m = s.doc.map
    return {h for h in m.hexes() if m.terrain_at(h).key == key}


def test_line_tool_paints_the_hex_line_once_on_release():
    s = session()
    s.set_terrain("marsh")
    s.set_tool("line")
    s.press(H("B02"))
    s.drag(H("E05"))
    s.drag(H("H04"))
    assert keys_of(s, "marsh") == set()  # only a preview while dragging
    assert s.preview == set(hex_line(H("B02"), H("H04")))
    s.release(H("H04"))
    assert keys_of(s, "marsh") == set(hex_line(H("B02"), H("H04")))
    assert len(s.doc.stack.done) == 1


def test_fill_and_wand_follow_connected_terrain():
    s = session()
    s.set_terrain("water")
    s.set_tool("brush")
    for lab in ("D01", "D02", "D03", "D04", "D05", "D06", "D07", "D08", "D09"):
        s.press(H(lab))
        s.release(H(lab))
    assert len(s.doc.stack.done) == 9
    s.set_terrain("wheat")
    s.set_tool("fill")
    s.press(H("A01"))
    assert keys_of(s, "wheat") == {Hex.from_offset(c, r) for c in range(3) for r in range(9)}
    s.set_tool("wand")
    s.press(H("D05"))
    assert s.selection == keys_of(s, "water")
    s.press(H("A01"), modifiers=MOD_SHIFT)
    assert s.selection == keys_of(s, "water") | keys_of(s, "wheat")
    s.set_tool("select")
    s.press(H("A01"), modifiers=MOD_CTRL)  # Ctrl at the press: remove the rectangle
    s.drag(H("B02"))
    s.release(H("B02"))
    assert H("A01") not in s.selection and H("C01") in s.selection


def test_brush_right_click_picks_terrain_and_brackets_size():
    s = session()
    s.doc.map.set_terrain(H("C03"), "orchard")
    s.set_tool("brush")
    s.press(H("C03"), RIGHT)
    assert s.terrain == "orchard"
    s.set_brush(5)
    assert s.brush == 2
    s.set_brush(-1)
    assert s.brush == 0


def test_cut_and_delete_clear_the_selection_in_one_step_each():
    m = BattleMap.new(8, 6)
    for h in (H("B02"), H("C02")):
        m.set_terrain(h, "woods")
        m.set_level(h, 3)
    s = EditorSession(EditorDocument(m), units=UNITS)
    s.selection = {H("B02"), H("C02")}
    s.cut()
    assert s.clipboard is not None and len(s.clipboard) == 2
    assert keys_of(s, "woods") == set() and s.doc.map.level_at(H("B02")) == 0
    s.undo()
    assert keys_of(s, "woods") == {H("B02"), H("C02")}
    s.delete_selection()
    assert keys_of(s, "woods") == set()


def test_paste_flip_lands_mirrored_and_partly_off_map_is_reported():
    s = session(8, 6)
    s.doc.map.set_terrain(H("B03"), "woods")
    s.doc.map.set_terrain(H("C03"), "water")  # B03's NE neighbour (odd column B sits lower)
    assert H("B03").direction_to(H("C03")) == 2
    s.selection = {H("B03"), H("C03")}
    s.copy()
    s.begin_paste()
    s.flip("lr")  # left-right mirror: NE becomes NW
    s.hover = H("F03")
    s.press(H("F03"))
    woods = keys_of(s, "woods") - {H("B03")}
    water = keys_of(s, "water") - {H("C03")}
    assert len(woods) == 1 and len(water) == 1
    (w,), (t,) = woods, water
    assert w.direction_to(t) == 6  # NW of the woods
    edge = next(h for h in s.doc.map.hexes() if s.floating.placed(h, s.doc.map)[1] == 1)
    s.hover = edge
    s.press(edge)  # half of it would land off the map: the rest is pasted, and the status says so
    assert "1 fell off the map" in s.status and not s.status_error


def test_escape_cancels_a_stroke_in_progress():
    s = session()
    start = s.doc.map.to_text()
    s.set_tool("brush")
    s.press(H("C03"))
    s.drag(H("F05"))
    s.cancel()
    assert s.doc.map.to_text() == start and not s.doc.stack.can_undo()


def test_scenario_tools_refuse_in_map_mode_and_units_stack_limit():
    s = session()
    s.set_tool("deploy")
    assert s.tool == "brush" and s.status_error
    s2 = session(scenario=True)
    s2.set_tool("unit")
    for _ in range(3):
        s2.press(H("C03"))
    s2.press(H("C03"))  # a fourth unit breaks the stacking limit (R5.2): refused
    assert len(s2.doc.scenario.units_at(H("C03"))) == 3 and s2.status_error
    s2.cycle_unit()
    s2.press(H("D03"))
    assert s2.doc.scenario.units_at(H("D03"))[0].crew == "de_crew"
    s2.press(H("D03"), RIGHT)
    assert not s2.doc.scenario.units_at(H("D03"))


def test_deploy_paint_moves_hexes_from_the_other_side():
    s = session(scenario=True)
    s.set_tool("deploy")
    s.press(H("C03"))
    s.release(H("C03"))
    s.cycle_side()
    s.press(H("C03"))
    s.release(H("C03"))
    assert s.doc.scenario.deploy_of("soviet") == {H("C03")} and not s.doc.scenario.deploy_of("german")
    s.press(H("C03"), RIGHT)
    s.release(H("C03"))
    assert not s.doc.scenario.deploy_of("soviet")


def test_objective_points_step_by_five_and_remove_at_zero():
    s = session(scenario=True)
    s.set_tool("objective")
    s.press(H("E05"))
    s.press(H("E05"))
    s.press(H("E05"))
    assert s.doc.scenario.objective_at(H("E05")).points == 10
    for _ in range(3):
        s.press(H("E05"), RIGHT)
    assert s.doc.scenario.objective_at(H("E05")) is None


def test_elevation_stroke_changes_each_hex_once():
    s = session()
    s.set_tool("elevation")
    s.set_brush(1)
    s.press(H("E05"))
    s.drag(H("E04"))
    s.drag(H("E05"))
    s.release(H("E05"))
    m = s.doc.map
    assert max(m.level_at(h) for h in m.hexes()) == 1
    assert len(s.doc.stack.done) == 1


def test_every_editor_tool_is_an_object_of_its_own_class():
    from hexwar.editor.edit_tools import TOOL_OBJECTS, StrokeTool
    from hexwar.editor.session import TOOLS

    assert set(TOOL_OBJECTS) == {t.id for t in TOOLS} | {"paste"}
    assert len({type(o) for o in TOOL_OBJECTS.values()}) == len(TOOL_OBJECTS)
    assert all(o.id == tid for tid, o in TOOL_OBJECTS.items())
    assert {t for t, o in TOOL_OBJECTS.items() if isinstance(o, StrokeTool)} == {
        "brush",
        "elevation",
        "road",
        "rubble",
        "fire",
    }
    assert {t for t, o in TOOL_OBJECTS.items() if o.paints_terrain} == {"brush", "line", "fill"}
