"""Headless UI tests of the editor window (issue 8): mouse and key events dispatched to a
pyglet window over EGL; the saved file must validate and load to exactly the map the edits
describe (the expected map is built independently with BattleMap's own methods)."""

from __future__ import annotations

import pytest

from hexwar.render import backend

pytestmark = pytest.mark.ui

try:
    backend.configure(True)
    from pyglet.window import key, mouse

    from hexwar.editor.window import EditorWindow
except Exception as exc:  # pragma: no cover - no EGL on this machine
    pytest.skip(f"headless pyglet unavailable: {exc}", allow_module_level=True)

from hexwar.editor.hexstate import HexState  # noqa: E402
from hexwar.editor.model import EditorDocument  # noqa: E402
from hexwar.editor.tools import resize_translation  # noqa: E402
from hexwar.model.hexgrid import Hex  # noqa: E402
from hexwar.model.maps import BattleMap  # noqa: E402
from hexwar.validate import validate_file  # noqa: E402

H = Hex.from_label
UNITS = {"german": [("de_test", "Test unit", None)], "soviet": [("su_test", "Test unit", None)]}


@pytest.fixture
def make_window(tmp_path):
    made = []

    def make(doc: EditorDocument, **kw) -> EditorWindow:
        win = EditorWindow(
            doc,
            width=1100,
            height=760,
            visible=False,
            schedule=False,
            recovery_folder=tmp_path / "recovery",
            units=UNITS,
            **kw,
        )
        made.append(win)
        win.on_draw()
        return win

    yield make
    for w in made:
        try:
            w.close()
        except Exception:
            pass


class Driver:
    """Clicks and keys at hex centres, as a user would."""

    def __init__(self, win: EditorWindow) -> None:
        self.win = win

    def at(self, label: str) -> tuple[float, float]:
        return self.win.screen_point(H(label))

    def key(self, sym: int, mods: int = 0) -> None:
        self.win.dispatch_event("on_key_press", sym, mods)
        self.win.on_draw()

    def click(self, label: str, button: int = mouse.LEFT, mods: int = 0) -> None:
        x, y = self.at(label)
        self.win.dispatch_event("on_mouse_motion", x, y, 0, 0)
        self.win.dispatch_event("on_mouse_press", x, y, button, mods)
        self.win.dispatch_event("on_mouse_release", x, y, button, mods)
        self.win.on_draw()

    def resize(self, width: int, height: int, anchor: str) -> None:
        """Resize through the Resize dialog (Ctrl+R): type the size, click the anchor, Enter."""
        self.key(key.R, key.MOD_CTRL)
        for field, v in (("resize width", width), ("resize height", height)):
            e = self.win.ui_screen.top.find(field)
            self.win.dispatch_event("on_mouse_press", e.rect.x + 5, e.rect.y + 5, mouse.LEFT, 0)
            for _ in range(4):
                self.win.dispatch_event("on_text_motion", key.MOTION_BACKSPACE)
            self.win.dispatch_event("on_text", str(v))
        a = self.win.ui_screen.top.find(f"anchor {anchor}")
        self.win.dispatch_event("on_mouse_press", a.rect.x + 5, a.rect.y + 5, mouse.LEFT, 0)
        self.key(key.ENTER)
        assert self.win.modal is None, self.win.session.status

    def drag(self, labels: list[str], button: int = mouse.LEFT, mods: int = 0) -> None:
        x, y = self.at(labels[0])
        self.win.dispatch_event("on_mouse_press", x, y, button, mods)
        px, py = x, y
        for lab in labels[1:]:
            x, y = self.at(lab)
            self.win.dispatch_event("on_mouse_drag", x, y, x - px, y - py, button, mods)
            px, py = x, y
        self.win.dispatch_event("on_mouse_release", x, y, button, mods)
        self.win.on_draw()

    def widget(self, tip: str) -> None:
        x, y = self.win.widget_at(tip)
        self.win.dispatch_event("on_mouse_motion", x, y, 0, 0)
        self.win.dispatch_event("on_mouse_press", x, y, mouse.LEFT, 0)
        self.win.dispatch_event("on_mouse_release", x, y, mouse.LEFT, 0)
        self.win.on_draw()


def test_clicks_at_hex_centres_pick_those_hexes(make_window):
    win = make_window(EditorDocument.new(14, 10))
    for lab in ("A01", "B01", "N10", "G05", "H06"):
        x, y = win.screen_point(H(lab))
        assert win.hex_at(x, y) == H(lab)
    # the panels are not the map
    assert win.hex_at(5, 300) is None


def test_brush_stroke_undo_redo_resize_paste_rotated_wreck_and_save(make_window, tmp_path):
    path = tmp_path / "edited.json"
    BattleMap.new(14, 10, name="UI test").save(path)
    doc = EditorDocument.open(path)
    win = make_window(doc)
    d = Driver(win)
    start = doc.map.to_text()
    expect = BattleMap.load(path)

    # 1. a brush stroke of radius 1 painting woods along C03 -> E04 -> F04: one undo step
    d.widget("palette terrain woods")
    d.key(key.BRACKETRIGHT)
    assert win.session.brush == 1
    d.drag(["C03", "D04", "E04", "F04"])
    stroke = set()
    for c in ("C03", "D04", "E04", "F04"):
        stroke |= set(H(c).spiral(1))
    for h in stroke:
        if expect.in_bounds(h):
            expect.set_terrain(h, "woods")
    assert doc.map.to_text() == expect.to_text()
    assert len(doc.stack.done) == 1 and doc.dirty

    # 2. undo (Ctrl+Z) and redo (Ctrl+Y)
    d.key(key.Z, key.MOD_CTRL)
    assert doc.map.to_text() == start and not doc.dirty
    d.key(key.Y, key.MOD_CTRL)
    assert doc.map.to_text() == expect.to_text()

    # 3. resize in the Resize dialog: 16 wide anchored right (two columns added on the left,
    # an even shift: every hex keeps its row)
    d.resize(16, 10, "right")
    assert (doc.map.width, doc.map.height) == (16, 10)
    t = resize_translation(2, 0)
    moved = BattleMap.new(16, 10, name="UI test")
    for h in expect.hexes():
        HexState.read(expect, h).write(moved, h + t)
    expect = moved
    assert doc.map.to_text() == expect.to_text()

    # 4. select a rectangle, copy, paste rotated 60 degrees clockwise at J06
    d.key(key.M)
    d.drag(["C04", "E05"])
    sel = set(win.session.selection)
    assert len(sel) == 6
    d.key(key.C, key.MOD_CTRL)
    clip = win.session.clipboard
    d.key(key.V, key.MOD_CTRL)
    d.key(key.PERIOD)  # rotate right
    d.click("J06")
    for rel, st in clip.cells:
        h = H("J06") + rel.rotate_right()
        if expect.in_bounds(h):
            st.write(expect, h)
    assert doc.map.to_text() == expect.to_text()
    d.key(key.ESCAPE)

    # 5. a wreck: choose counter su-3 in the palette, place it in H08; right-click removes the top one
    d.widget("palette features")  # the Wrecks palette
    d.widget("palette features su-3")
    assert win.session.tool == "wreck"
    d.click("H08")
    d.click("H08")
    d.click("H08", mouse.RIGHT)
    expect.add_wreck(H("H08"), "su-3")
    assert doc.map.wrecks_at(H("H08")) == ["su-3"]
    assert doc.map.to_text() == expect.to_text()

    # 6. save with Ctrl+S: the file validates and loads to exactly the expected map
    d.key(key.S, key.MOD_CTRL)
    assert not doc.dirty, win.session.status
    assert validate_file(str(path)) == "hexwar-map"
    assert BattleMap.load(path).to_text() == expect.to_text()
    win.screenshot(tmp_path / "editor.png")
    assert (tmp_path / "editor.png").stat().st_size > 10_000


def test_levels_roads_rubble_fire_tools(make_window):
    doc = EditorDocument.new(10, 8)
    win = make_window(doc)
    d = Driver(win)
    d.key(key._0)  # palette hotkey 0: stone building (DR 14)
    assert win.session.terrain == "stone_building"
    d.click("D04")
    d.key(key.I)
    d.click("D04")  # fire on the building (R8.4)
    d.click("E04")  # clear hex: refused, nothing changes, message in red
    assert doc.map.has_fire(H("D04")) and win.session.status_error
    d.key(key.U)
    d.click("D04")  # rubble puts the fire out (R8.3)
    assert doc.map.has_rubble(H("D04")) and not doc.map.has_fire(H("D04"))
    d.key(key.E)
    d.click("B02")
    d.click("B02")
    d.click("B03", mouse.RIGHT)  # level 0 cannot go lower: refused
    assert doc.map.level_at(H("B02")) == 2 and doc.map.level_at(H("B03")) == 0
    d.key(key.R)
    d.drag(["A05", "D06"])
    assert all(doc.map.road[doc.map.index(h)] for h in (H("A05"), H("D06")))
    n = len(doc.stack.done)
    for _ in range(n):
        d.key(key.Z, key.MOD_CTRL)
    assert doc.map.to_text() == BattleMap.new(10, 8).to_text()


def test_scenario_deploy_zone_objective_unit_and_settings_undo(make_window):
    doc = EditorDocument.new(12, 9, scenario=True)
    win = make_window(doc)
    d = Driver(win)
    d.key(key.D)
    assert win.session.tool == "deploy"
    d.drag(["A01", "A04"])
    assert doc.scenario.deploy_of("german") == frozenset(H(x) for x in ("A01", "A02", "A03", "A04"))
    d.key(key.TAB)
    d.key(key.BRACKETRIGHT)
    d.click("K05")
    assert doc.scenario.deploy_of("soviet") == frozenset(H("K05").spiral(1))
    d.key(key.G)
    d.click("F05")
    d.click("F05")
    assert doc.scenario.objective_at(H("F05")).points == 5
    d.key(key.N)
    d.click("K05")
    assert [u.card for u in doc.scenario.units_at(H("K05"))] == ["su_test"]
    win.tab = "scenario"
    win.on_draw()
    win.session.adjust_setting("turns", 3)
    win.session.toggle_variant("burnout")
    assert doc.scenario.turns == 3 and doc.scenario.variants == ("burnout",)
    steps = len(doc.stack.done)
    assert steps == 7
    for _ in range(steps):
        d.key(key.Z, key.MOD_CTRL)
    assert doc.scenario == EditorDocument.new(12, 9, scenario=True).scenario or not doc.stack.can_undo()
    assert not doc.scenario.deploy_of("german") and not doc.scenario.objectives and doc.scenario.turns == 0


def test_los_tool_shows_result_and_reason(make_window):
    m = BattleMap.new(10, 6)
    m.set_terrain(H("C03"), "woods")
    win = make_window(EditorDocument(m))
    d = Driver(win)
    d.key(key.O)
    d.click("A03")
    d.click("E03")
    a, b, res = win.session.los
    assert (a, b, res.status, res.blocking) == (H("A03"), H("E03"), "blocked", H("C03"))
    assert "blocked at C03" in win.session.status and "terrain" in win.session.status
    assert "los" in win.mapview.overlays


def test_artillery_and_fire_spread_previews_use_the_rule_probabilities(make_window):
    from fractions import Fraction

    m = BattleMap.new(10, 10)
    m.set_terrain(H("E06"), "stone_building")  # E05's S neighbour
    m.set_terrain(H("F05"), "wood_building")  # E05's SE neighbour
    win = make_window(EditorDocument(m))
    d = Driver(win)
    d.key(key.A)
    d.click("E05")
    target, side, dist = win.session.artillery
    assert side == "german" and dist[H("E05")] == Fraction(2, 3)  # R9.3: hits on 3-6
    assert dist[H("E03")] == Fraction(1, 36)  # miss with a 2, drift 2 north
    assert sum(dist.values()) == 1
    d.key(key.TAB)
    assert win.session.artillery[2][H("E05")] == Fraction(1, 2)  # Soviets hit on 4-6
    d.key(key.S)
    d.click("E05")
    src, chances = win.session.spread
    assert chances == {H("E06"): Fraction(5, 12), H("F05"): Fraction(7, 12)}  # R8.4: DR 14, DR 13


def test_quit_with_unsaved_changes_asks_and_clean_quit_removes_recovery(make_window, tmp_path):
    doc = EditorDocument.new(6, 6)
    clock = [0.0]
    win = make_window(doc, clock=lambda: clock[0])
    d = Driver(win)
    d.click("C03")
    clock[0] += 61
    win.tick()
    rec = win.autosaver.written
    assert rec is not None and rec.exists()
    win.dispatch_event("on_close")
    assert win.modal == "quit" and not win.quit_requested
    d.key(key.ESCAPE)
    assert win.modal is None and not win.quit_requested
    win.dispatch_event("on_close")
    d.key(key.D)  # discard
    assert win.quit_requested and not rec.exists()


def test_help_overlay_toggles_and_lists_shortcuts(make_window):
    win = make_window(EditorDocument.new(6, 6))
    d = Driver(win)
    d.key(key.H)
    assert win.show_help
    texts = win.screen_texts()
    assert "Ctrl+Z" in texts and "Ctrl+S" in texts and "[ / ]" in texts
    d.key(key.F1)
    assert not win.show_help


def test_scenario_flow_stroke_resize_paste_wreck_deploy_then_save_as_validates(make_window, tmp_path):
    """The whole issue-8 flow in scenario mode, saved through the Save As prompt."""
    from hexwar.editor.session import unit_catalogue
    from hexwar.game.scenario import load_scenario

    if not unit_catalogue()["german"]:
        pytest.skip("card data not loadable")
    doc = EditorDocument.new(12, 9, scenario=True, name="Flow")
    win = make_window(doc)
    d = Driver(win)
    expect = BattleMap.new(12, 9, name="Flow")
    d.key(key._3)  # woods
    d.drag(["B02", "C02", "D03"])
    from hexwar.model.hexgrid import hex_line

    # a fast drag paints the straight hex line between successive mouse positions (no gaps)
    for h in set(hex_line(H("B02"), H("C02"))) | set(hex_line(H("C02"), H("D03"))):
        expect.set_terrain(h, "woods")
    d.key(key.Z, key.MOD_CTRL)
    d.key(key.Y, key.MOD_CTRL)
    d.resize(14, 10, "bottom-right")  # 2 columns on the left, 1 row on top
    t = resize_translation(2, 1)
    assert (doc.map.width, doc.map.height) == (14, 10)
    moved = BattleMap.new(14, 10, name="Flow")
    for h in expect.hexes():
        HexState.read(expect, h).write(moved, h + t)
    expect = moved
    assert doc.map.to_text() == expect.to_text()
    d.resize(16, 10, "right")
    d.key(key.Z, key.MOD_CTRL)
    assert (doc.map.width, doc.map.height) == (14, 10)
    d.key(key.Y, key.MOD_CTRL)
    assert (doc.map.width, doc.map.height) == (16, 10)
    d.key(key.Z, key.MOD_CTRL)
    d.key(key.W)
    d.click((H("B02") + t).label)  # the wand takes the connected woods
    assert len(win.session.selection) == 4
    d.key(key.C, key.MOD_CTRL)
    clip = win.session.clipboard
    d.key(key.V, key.MOD_CTRL)
    d.key(key.COMMA)  # rotate left
    d.click("J07")
    for rel, st in clip.cells:
        st.write(expect, H("J07") + rel.rotate_left())
    d.key(key.ESCAPE)
    d.key(key.X)
    d.widget("palette features de-1")
    d.click("G05")
    expect.add_wreck(H("G05"), "de-1")
    d.key(key.D)
    d.drag(["A02", "A05"])
    d.key(key.TAB)
    d.drag(["N03", "N06"])
    assert doc.map.to_text() == expect.to_text()
    # no budget is defaulted (issue 23): each side's is typed on the Scenario tab
    d.widget("Scenario")
    d.widget("page sides")
    for _side in ("soviet", "german"):
        d.widget("edit budget")
        win.dispatch_event("on_text", "90")
        d.key(key.ENTER)
        d.key(key.TAB)
    d.key(key.S, key.MOD_CTRL)  # no file yet: the Save As prompt opens
    assert win.modal == "saveas"
    target = tmp_path / "flow.toml"
    win.modal_text = ""
    for ch in str(target):
        win.dispatch_event("on_text", ch)
    d.key(key.ENTER)
    assert win.modal is None and not doc.dirty, win.session.status
    assert validate_file(str(target)) == "hexwar-scenario"
    sc = load_scenario(target)
    assert sc.battlemap.to_text() == expect.to_text()
    assert set(sc.sides["german"].deploy) == {H(x) for x in ("A02", "A03", "A04", "A05")}
    assert set(sc.sides["soviet"].deploy) == {H(x) for x in ("N03", "N04", "N05", "N06")}


def test_recovery_prompt_restores_the_autosave(make_window, tmp_path):
    import json
    import subprocess
    import sys

    from hexwar.editor import commands as C
    from hexwar.editor.recovery import Autosaver, find_recoveries

    path = tmp_path / "m.json"
    BattleMap.new(6, 5).save(path)
    crashed = EditorDocument.open(path)
    crashed.execute(C.paint_terrain([H("C03")], "marsh"))
    rec = tmp_path / "recovery"
    p = Autosaver(crashed, clock=lambda: 0.0, folder=rec).write_now()
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    data = json.loads(p.read_text())
    data["pid"] = dead.pid
    p.write_text(json.dumps(data))
    found = find_recoveries(path, rec)
    assert len(found) == 1
    win = make_window(EditorDocument.open(path), recoveries=found)
    assert win.modal == "recover"
    Driver(win).key(key.R)
    assert win.modal is None
    assert win.doc.dirty and win.doc.map.terrain_at(H("C03")).key == "marsh"
    import os

    assert json.loads(p.read_text())["pid"] == os.getpid()  # now this session's own autosave
    Driver(win).key(key.S, key.MOD_CTRL)
    assert BattleMap.load(path).terrain_at(H("C03")).key == "marsh" and not win.doc.dirty
    assert not p.exists()  # a clean save removes the recovery file


def test_save_as_prompt_is_a_toolkit_dialog_whose_field_edits_by_text_motions(make_window, tmp_path):
    from hexwar.ui.widgets import Dialog, TextField

    doc = EditorDocument.new(6, 6)
    win = make_window(doc)
    d = Driver(win)
    d.key(key.S, key.MOD_CTRL | key.MOD_SHIFT)
    assert win.modal == "saveas" and isinstance(win.ui_screen.dialogs[-1], Dialog)
    assert isinstance(win.ui_screen.focus, TextField)  # the field has the keyboard focus
    win.modal_text = str(tmp_path / "mapx.json")
    win.dispatch_event("on_text_motion", key.MOTION_LEFT)
    win.dispatch_event("on_text_motion", key.MOTION_LEFT)
    win.dispatch_event("on_text_motion", key.MOTION_LEFT)
    win.dispatch_event("on_text_motion", key.MOTION_LEFT)
    win.dispatch_event("on_text_motion", key.MOTION_LEFT)
    win.dispatch_event("on_text_motion", key.MOTION_BACKSPACE)  # the "x" before ".json"
    d.key(key.BACKSPACE)  # a key press alone never erases (pyglet sends the motion too)
    assert win.modal_text == str(tmp_path / "map.json")
    assert "Save as" in win.screen_texts()
    # a click outside the dialog does nothing; the map underneath is not painted
    x, y = win.screen_point(H("C03"))
    before = doc.map.to_text()
    win.dispatch_event("on_mouse_press", x, y, mouse.LEFT, 0)
    assert win.modal == "saveas" and doc.map.to_text() == before
    d.key(key.ENTER)
    assert win.modal is None and (tmp_path / "map.json").exists() and not doc.dirty


def test_panels_are_repainted_only_when_what_they_show_changes(make_window):
    win = make_window(EditorDocument.new(6, 6))
    x, y = win.widget_at("palette terrain woods")
    win.dispatch_event("on_mouse_motion", x, y, 0, 0)
    win.on_draw()
    first = win._painter
    win.on_draw()
    win.on_draw()
    assert win._painter is first  # hovering the same swatch: no repaint
    win.dispatch_event("on_mouse_motion", *win.widget_at("palette terrain clear"), 0, 0)
    win.on_draw()
    assert win._painter is not first  # the hover highlight moved


def test_ctrl_q_with_nothing_changed_quits_cleanly(make_window):
    """Issue 36: Ctrl+Q set the title after the window closed (a traceback and exit 1)."""
    win = make_window(EditorDocument.new(6, 6))
    assert not win.doc.dirty

    def caption(text: str, _orig=win.set_caption) -> None:  # X11's set_caption raises once closed
        if win.context is None:
            raise RuntimeError("title set on a closed window")
        _orig(text)

    win.set_caption = caption
    assert win.dispatch_event("on_key_press", key.Q, key.MOD_CTRL) is not False
    assert win.quit_requested and win.behaviour.closed


def test_ctrl_q_with_changes_asks_naming_the_recovery_file_and_esc_keeps_editing(make_window):
    win = make_window(EditorDocument.new(6, 6))
    Driver(win).click("C03")
    assert win.doc.dirty
    win.dispatch_event("on_key_press", key.Q, key.MOD_CTRL)
    assert win.modal == "quit" and not win.quit_requested
    assert any("recovery file" in t for t in win.screen_texts()), win.screen_texts()
    win.dispatch_event("on_key_press", key.ESCAPE, 0)
    assert win.modal is None and not win.quit_requested and win.context is not None
