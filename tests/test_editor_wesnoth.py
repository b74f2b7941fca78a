"""The editor against Wesnoth's (issue 17): minimap, Resize dialog with typed size and anchor,
searchable palettes with tooltips, scrolling lists, the New map dialog, and the editor bugs of
item 9 (status texts, help glyphs, Esc after a paste, the Event list). A headless window is
driven by dispatched events only; the asserts read the document, the screen's texts and hit
boxes, and rendered pixels where they matter."""

from __future__ import annotations

import numpy as np
import pytest

from hexwar.render import backend

pytestmark = pytest.mark.ui

try:
    backend.configure(True)
    from pyglet.window import key, mouse

    from hexwar.editor.window import EditorWindow
except Exception as exc:  # pragma: no cover - no EGL on this machine
    pytest.skip(f"headless pyglet unavailable: {exc}", allow_module_level=True)

from hexwar.editor.model import EditorDocument  # noqa: E402
from hexwar.editor.panels import STATUS_H, TOP_H  # noqa: E402
from hexwar.editor.scenario_draft import ObjectiveDraft  # noqa: E402
from hexwar.model.hexgrid import Hex  # noqa: E402
from hexwar.ui.widgets import Painter  # noqa: E402

H = Hex.from_label
UNITS = {
    "german": [
        ("de_a", "Alpha grenadiers", None),
        ("de_b", "Bravo panzer", None),
        ("de_c", "Charlie gun", None),
    ],
    "soviet": [("su_a", "Red rifles", None)],
}
SKIRMISH = "scenarios/skirmish.toml"


@pytest.fixture
def make_window(tmp_path):
    made = []

    def make(doc: EditorDocument, width: int = 1100, height: int = 760, **kw) -> EditorWindow:
        win = EditorWindow(
            doc,
            width=width,
            height=height,
            visible=False,
            schedule=False,
            recovery_folder=tmp_path / "recovery",
            units=kw.pop("units", UNITS),
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


class User:
    """Keys, typing and clicks on panel widgets, dialog elements and hexes."""

    def __init__(self, win: EditorWindow) -> None:
        self.win = win

    def key(self, sym: int, mods: int = 0) -> None:
        self.win.dispatch_event("on_key_press", sym, mods)
        self.win.on_draw()

    def type(self, text: str) -> None:
        self.win.dispatch_event("on_text", text)
        self.win.on_draw()

    def erase(self, n: int) -> None:
        self.win.dispatch_event("on_text_motion", key.MOTION_END_OF_LINE)
        for _ in range(n):
            self.win.dispatch_event("on_text_motion", key.MOTION_BACKSPACE)
        self.win.on_draw()

    def point(self, x: float, y: float, button: int = mouse.LEFT) -> None:
        self.win.dispatch_event("on_mouse_motion", x, y, 0, 0)
        self.win.on_draw()
        self.win.dispatch_event("on_mouse_press", x, y, button, 0)
        self.win.dispatch_event("on_mouse_release", x, y, button, 0)
        self.win.on_draw()

    def widget(self, tip: str) -> None:
        self.point(*self.win.widget_at(tip))

    def dialog(self, tip: str) -> None:
        e = self.win.ui_screen.top.find(tip)
        assert e is not None, f"no dialog element {tip!r}"
        self.point(e.rect.x + e.rect.w / 2, e.rect.y + e.rect.h / 2)

    def hover(self, tip: str) -> None:
        x, y = self.win.widget_at(tip)
        self.win.dispatch_event("on_mouse_motion", x, y, 0, 0)
        self.win.on_draw()

    def tips(self) -> list[str]:
        return [w.tip for w in self.win._widgets_now() if w.z == 0]


def _recorded_texts(win: EditorWindow, monkeypatch) -> list[tuple[str, float, float, float, float]]:
    """Repaint the panels once, recording ``(text, x0, x1, y, size)`` of every string drawn."""
    out: list[tuple[str, float, float, float, float]] = []
    orig = Painter.text

    def text(
        self,
        s,
        x,
        y,
        size=13.0,
        colour=(0, 0, 0, 255),
        ax="left",
        ay="center",
        style="regular",
        max_width=None,
        z=0,
    ):
        w = orig(self, s, x, y, size, colour, ax, ay, style, max_width, z)
        x0 = {"left": x, "center": x - w / 2, "right": x - w}[ax]
        out.append((s, x0, x0 + w, y, size))
        return w

    monkeypatch.setattr(Painter, "text", text)
    win._ui_key = None
    win.on_draw()
    monkeypatch.setattr(Painter, "text", orig)
    return out


def _pixel(img, x: float, y: float) -> tuple[int, int, int]:
    data = img.get_data("RGBA", img.width * 4)
    i = (int(y) * img.width + int(x)) * 4
    return (data[i], data[i + 1], data[i + 2])


# -- minimap --------------------------------------------------------------------------------
def test_minimap_is_drawn_from_the_terrain_colours_follows_edits_and_a_click_jumps_there(make_window):
    doc = EditorDocument.new(24, 18)
    win = make_window(doc)
    u = User(win)
    mm = win.minimap_now()
    far = H("W17")
    wx, wy = win.mapview.layout.hex_to_pixel(far)
    sx, sy = mm.to_screen(wx, wy)
    clear = win.looks.centre_colour("clear")[:3]
    assert max(abs(a - b) for a, b in zip(_pixel(win.screenshot(), sx, sy), clear, strict=True)) <= 3
    # an edit (water brushed on W17) shows on the minimap at once
    win.session.set_terrain("water")
    u.key(key.BRACKETRIGHT)
    u.point(*win.screen_point(far))
    assert doc.map.terrain_at(far).key == "water"
    water = win.looks.centre_colour("water")[:3]
    assert max(abs(a - b) for a, b in zip(_pixel(win.screenshot(), sx, sy), water, strict=True)) <= 3
    # zoom in at the map's middle, then a click on the minimap puts W17 in the middle of the map area
    for _ in range(5):
        u.key(key.PLUS)
    x0, y0, x1, y1 = win.map_area()
    assert win.hex_at((x0 + x1) / 2, (y0 + y1) / 2) != far
    u.point(sx, sy)
    mid = win.hex_at((x0 + x1) / 2, (y0 + y1) / 2)
    assert mid is not None and mid.distance(far) <= 1
    assert "Minimap" in win.session.status
    # dragging on the minimap keeps jumping: released over C04, the view is centred there
    tx, ty = mm.to_screen(*win.mapview.layout.hex_to_pixel(H("C04")))
    win.dispatch_event("on_mouse_press", sx, sy, mouse.LEFT, 0)
    win.dispatch_event("on_mouse_drag", (sx + tx) / 2, (sy + ty) / 2, 1, 1, mouse.LEFT, 0)
    win.dispatch_event("on_mouse_drag", tx, ty, 1, 1, mouse.LEFT, 0)
    win.dispatch_event("on_mouse_release", tx, ty, mouse.LEFT, 0)
    mid = win.hex_at((x0 + x1) / 2, (y0 + y1) / 2)
    assert mid is not None and mid.distance(H("C04")) <= 1
    assert doc.map.terrain_at(H("C04")).key == "clear"  # the drag painted nothing


# -- Resize dialog --------------------------------------------------------------------------
def _scenario_doc() -> EditorDocument:
    doc = EditorDocument.new(10, 8, scenario=True)
    doc.map.set_terrain(H("C03"), "woods")
    sc = doc.scenario.with_objectives([ObjectiveDraft(H("H05"), "Hill", 10)])
    sc = sc.with_deploy("german", {H("A01"), H("A02")}).with_rest(("areas", "wood"), ["C03", "D03"])
    doc.scenario = sc
    return doc


def test_resize_dialog_types_the_size_and_anchors_the_content_moving_scenario_hexes(make_window):
    doc = _scenario_doc()
    win = make_window(doc)
    u = User(win)
    u.key(key.R, key.MOD_CTRL)
    assert win.modal == "resize"
    u.dialog("resize width")
    u.erase(5)
    u.type("14")
    u.dialog("anchor right")
    text = win.ui_screen.top.text_block.text
    assert text.startswith("✓ 10 × 8 → 14 × 8 anchored right: adds 4 columns on the left"), text
    u.key(key.ENTER)
    m = doc.map
    assert (m.width, m.height, win.modal) == (14, 8, None)
    # an even shift of 4 columns: every hex keeps its row, 4 columns to the right (R2.2)
    moved = Hex.from_offset(2 + 4, 2)
    assert m.terrain_at(moved).key == "woods" and m.terrain_at(H("C03")).key == "clear"
    sc = doc.scenario
    assert [o.hex for o in sc.objectives] == [Hex.from_offset(7 + 4, 4)]
    assert sc.deploy_of("german") == frozenset({Hex.from_offset(4, 0), Hex.from_offset(4, 1)})
    assert sc.areas()["wood"] == ["G03..H03"]
    # undo puts map and scenario back in one step
    u.key(key.Z, key.MOD_CTRL)
    assert (doc.map.width, doc.scenario.objectives[0].hex) == (10, H("H05"))


def test_resize_that_would_drop_an_objective_is_refused_and_says_which(make_window):
    doc = _scenario_doc()
    win = make_window(doc)
    u = User(win)
    u.widget("resize map")
    u.dialog("resize width")
    u.erase(5)
    u.type("6")
    u.dialog("anchor top-left")
    msg = win.ui_screen.top.text_block.text
    assert msg.startswith("✗") and "objective H05" in msg and "fall off" in msg, msg
    u.key(key.ENTER)
    assert (doc.map.width, win.modal) == (10, "resize")  # nothing changed, the dialog stays
    assert win.session.status_error and "objective H05" in win.session.status
    # anchored on the right, the objective (column H) stays on the map; the deploy zone in
    # column A would fall off instead, and is named
    u.dialog("anchor right")
    assert "german deploy zone A01, A02" in win.ui_screen.top.text_block.text
    u.key(key.ESCAPE)
    assert win.modal is None and doc.map.width == 10


# -- New map dialog -------------------------------------------------------------------------
def test_new_map_dialog_checks_each_field_as_typed_and_opens_the_map_in_the_window(make_window):
    doc = EditorDocument.new(10, 8)
    win = make_window(doc)
    u = User(win)
    u.key(key.N, key.MOD_CTRL)
    assert win.modal == "newmap"
    u.dialog("new name")
    u.erase(20)
    u.type("Steppe crossing")
    u.dialog("new width")
    u.erase(5)
    u.type("x0")  # letters are not taken: only the 0
    assert win._form["width"] == "0"
    assert "width: expected 1..500 hexes, got 0" in win.ui_screen.top.text_block.text
    u.erase(5)
    u.type("36")
    u.dialog("new terrain")
    u.erase(20)
    u.type("lava")
    assert "base terrain: expected one of clear" in win.ui_screen.top.text_block.text
    u.erase(20)
    u.type("Wheat field")
    assert win.ui_screen.top.text_block.text == "✓ Steppe crossing: 36 × 20 hexes of Wheat field"
    u.key(key.ENTER)
    m = win.doc.map
    assert (win.modal, m.width, m.height, m.name) == (None, 36, 20, "Steppe crossing")
    assert {m.terrain_at(h).key for h in m.hexes()} == {"wheat"}
    assert win.doc is not doc and not win.doc.dirty and "New map" in win.session.status


# -- searchable palettes with tooltips --------------------------------------------------------
def test_terrain_palette_search_filters_and_enter_picks_and_rows_have_tooltips(make_window):
    win = make_window(EditorDocument.new(10, 8))
    u = User(win)
    u.key(key.F, key.MOD_CTRL)
    u.type("dr")  # typing goes to the search field, not to the D(eploy)/R(oad) tool letters
    assert win.session.tool == "brush"
    rows = [t for t in u.tips() if t.startswith("palette terrain ") and t != "palette terrain search"]
    assert rows == [
        "palette terrain wood_building",
        "palette terrain stone_building",
        "palette terrain reinforced_building",
    ]
    u.key(key.DOWN)
    u.key(key.ENTER)
    assert win.session.terrain == "stone_building"
    u.key(key.ESCAPE)
    assert win.focused_list() is None
    u.hover("palette terrain stone_building")
    tip = next(t for t in win.screen_texts() if t.startswith("Stone building ("))
    assert "building DR 14" in " ".join(win.screen_texts())
    assert tip  # the tooltip's first line


def test_wreck_and_unit_palettes_follow_the_tool_search_and_pick(make_window):
    win = make_window(EditorDocument.open(SKIRMISH))
    u = User(win)
    u.key(key.X)
    assert win.palette_kind == "features"
    u.widget("palette features search")
    u.type("su los")
    rows = [t[len("palette features ") :] for t in u.tips() if t.startswith("palette features s")]
    los_soviet = [w.id for w in win.wrecks if w.nationality == "soviet" and w.los]
    assert rows == ["search"] + los_soviet
    u.widget(f"palette features {los_soviet[-1]}")
    assert (win.session.tool, win.session.wreck) == ("wreck", los_soviet[-1])
    # the unit tool shows the side's unit cards: no spinner, a searchable list
    u.key(key.N)
    assert (win.palette_kind, win.tab) == ("units", "map")
    u.widget("palette units search")
    u.type("panzer")
    assert [t for t in u.tips() if t.startswith("palette units de")] == ["palette units de_b"]
    u.widget("palette units de_b")
    assert win.session.current_unit()[0] == "de_b" and win.session.tool == "unit"


# -- scrolling lists, the Event list ----------------------------------------------------------
def test_event_list_shows_every_event_under_its_header_and_scrolls_to_the_skirmishs_own(
    make_window, monkeypatch
):
    win = make_window(EditorDocument.open(SKIRMISH), width=1024, height=640)
    u = User(win)
    win.tab = "scenario"
    win.on_draw()
    from hexwar.editor.panels import _event_ids

    evs = _event_ids()
    assert len(evs) == 14 and "ev_steppe_dust" in win.doc.scenario.events
    shown = [t for t in u.tips() if t.startswith("event ev_")]
    assert 0 < len(shown) < 14 and "event ev_steppe_dust" not in shown  # it does not all fit at 640
    # the header sits above the first row, not over it
    texts = _recorded_texts(win, monkeypatch)
    head = next(t for t in texts if t[0].startswith("EVENT CARDS"))
    first = next(w for w in win._widgets_now() if w.tip == shown[0])
    assert head[3] - head[4] / 2 >= first.y + first.h
    # the wheel over the list brings every event into view, the skirmish's own included
    seen = set(shown)
    x, y = first.centre
    for _ in range(6):
        win.dispatch_event("on_mouse_scroll", x, y, 0, -1)
        win.on_draw()
        seen |= {t for t in u.tips() if t.startswith("event ev_")}
    assert seen == {f"event {e}" for e in evs}
    u.widget("event ev_steppe_dust")
    assert "ev_steppe_dust" not in win.doc.scenario.events


# -- item 9: Esc after a paste, status bar, help glyphs ---------------------------------------
def test_esc_during_a_paste_cancels_it_and_keeps_the_tool_in_use_before(make_window):
    doc = EditorDocument.new(12, 10)
    doc.map.set_terrain(H("C03"), "woods")
    win = make_window(doc)
    u = User(win)
    u.key(key.M)
    u.key(key.A, key.MOD_CTRL)
    u.key(key.C, key.MOD_CTRL)
    u.key(key.O)  # the LOS tool, then paste
    u.key(key.V, key.MOD_CTRL)
    assert win.session.tool == "paste"
    version = doc.map.version
    u.key(key.ESCAPE)
    assert win.session.tool == "los"
    assert win.session.status == "Paste cancelled: back to the LOS tool"
    assert doc.map.version == version and not doc.stack.can_undo()


@pytest.mark.parametrize("size", [(800, 600), (1024, 640)])
def test_status_bar_texts_never_run_together_and_a_long_message_is_not_cut(make_window, monkeypatch, size):
    win = make_window(EditorDocument.open(SKIRMISH), *size)
    u = User(win)
    win.dispatch_event("on_mouse_motion", *win.screen_point(H("O12")), 0, 0)
    msg = (
        "Resize to 31x25: an odd column shift adds a row to keep the hex stagger, and this message goes on "
        "long enough to need a second line of the status bar at this window width"
    )
    win.session.say(msg)
    texts = [t for t in _recorded_texts(win, monkeypatch) if t[3] < STATUS_H]
    W = size[0]
    for a in texts:
        assert 0 <= a[1] and a[2] <= W, a
        for b in texts:
            if a is not b and abs(a[3] - b[3]) < (a[4] + b[4]) / 2:
                assert a[2] <= b[1] or b[2] <= a[1], (a, b)  # same row: side by side, never overlapping
    words = " ".join(t[0] for t in texts if t[3] > 20)
    assert words.replace("…", "") == msg or "status message" in u.tips()
    assert any(t[0].startswith("O12") for t in texts)


def test_small_glyphs_keep_their_minus_and_comma_tail(make_window):
    """The glyph path (hexwar.render.text): from 7 to 10 points a minus alone leaves ink and a
    comma differs from a period by its tail (before the fix a 7-point minus drew nothing: its
    quad was thinner than a pixel and covered no pixel centre)."""
    import pyglet

    win = make_window(EditorDocument.new(4, 4), 400, 300)
    atlas = win.mapview.atlas

    def draw(s: str, size: float) -> np.ndarray:
        p = Painter(atlas)
        p.rect(0, 0, 400, 300, (30, 30, 30, 255))
        p.text(s, 200, 20, size, (255, 255, 255, 255))
        win.ui.show(p)
        win.switch_to()
        win.clear()
        win.mapview.draw()
        img = pyglet.image.get_buffer_manager().get_color_buffer().get_image_data()
        px = np.frombuffer(img.get_data("RGBA", img.width * 4), np.uint8).reshape(img.height, img.width, 4)
        return px[:, :, :3].astype(np.int64).sum(axis=2)

    bg = draw("", 10.0)
    sizes = [pt * 96 / 72 for pt in np.arange(7.0, 10.01, 0.5)]
    minus = [int(np.abs(draw("-", sz) - bg).sum()) for sz in sizes]
    comma = [int(np.abs(draw(",", sz) - draw(".", sz)).sum()) for sz in sizes]
    assert min(minus) > 400, minus
    assert min(comma) > 400, comma
    win._ui_key = None


# -- layouts from 800 x 600 up ----------------------------------------------------------------
@pytest.mark.parametrize("size", [(800, 600), (1024, 640)])
def test_editor_panels_lay_out_without_overlaps_from_800x600_up(make_window, size):
    win = make_window(EditorDocument.open(SKIRMISH), *size)
    W, Hh = size
    for tab in ("map", "setup", "sides", "places"):
        if tab != "map":
            win.tab, win.sub_tab = "scenario", tab
        win.on_draw()
        boxes = [b for b in win._widgets_now() if b.z == 0]
        for b in boxes:
            assert 0 <= b.x and b.x + b.w <= W + 0.5 and b.y >= 0 and b.y + b.h <= Hh + 0.5, (tab, b)
            if b.y + b.h > STATUS_H + 0.5 and b.y < Hh - TOP_H:
                assert b.y >= STATUS_H - 0.5, (tab, b)  # panel controls stay above the status bar
        for i, a in enumerate(boxes):
            for b in boxes[i + 1 :]:
                ox = min(a.x + a.w, b.x + b.w) - max(a.x, b.x)
                oy = min(a.y + a.h, b.y + b.h) - max(a.y, b.y)
                assert ox <= 0.5 or oy <= 0.5, (tab, a, b)
        # the map keeps at least half the window's width
        x0, _, x1, _ = win.map_area()
        assert x1 - x0 >= W / 2


def test_los_status_names_the_block_once():
    """The LOS tool's status line: "blocked at C03 (terrain)", never "blocked, blocked at" (R3.6)."""
    from hexwar.editor.session import describe_los
    from hexwar.model.los import line_of_sight
    from hexwar.model.maps import BattleMap

    m = BattleMap.new(10, 10)
    m.set_terrain(H("C03"), "woods")
    a, b = H("A03"), H("E03")
    text = describe_los(m, a, b, line_of_sight(m, a, b))
    assert text.startswith("LOS A03 -> E03: blocked at C03 (terrain);"), text


def test_labels_button_is_not_lit_while_the_zoom_hides_the_labels(make_window):
    win = make_window(EditorDocument.open("maps/prokhorovka.json"), 800, 600)
    u = User(win)
    assert win.labels_too_small()  # the whole 44 x 32 map fitted into 800 x 600: labels too small
    texts = win.screen_texts()
    assert "Labels: zoom in" in texts and "Labels" not in texts
    box = next(w for w in win._widgets_now() if w.tip == "Labels")
    u.point(*box.centre)  # off, then on again: the status says why nothing shows
    u.point(*win.widget_at("Labels"))
    assert win.session.status == "Hex labels on (too small to read at this zoom: zoom in to see them)"
    for _ in range(8):
        u.key(key.PLUS)
    assert not win.labels_too_small() and "Labels" in win.screen_texts()
