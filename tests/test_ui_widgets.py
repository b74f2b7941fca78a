"""The widget toolkit (hexwar.ui.widgets), headless: layout, wrapping and ellipsis, scrolling,
focus order, dialog modality, text field editing, card faces from the card data. Events are
dispatched through Screen exactly as the windows do; no GL context is needed."""

from __future__ import annotations

import subprocess
import sys

import pytest

from hexwar.render.mesh import TexMesh
from hexwar.ui.widgets import (
    FLEX,
    Box,
    Button,
    CardView,
    Dialog,
    Element,
    Flex,
    Label,
    MonoMeasure,
    Painter,
    Rect,
    Screen,
    ScrollList,
    TextBlock,
    TextField,
    card_facts,
    columns,
    ellipsize,
    grid,
    keys,
    place_tooltip,
    rows,
    snap,
    top_hit,
    wrap,
)

M = MonoMeasure(0.5)  # every character is size / 2 points wide


class FakeAtlas(MonoMeasure):
    """Measures like MonoMeasure and draws nothing (the painter's GL-free contract)."""

    def text(self, *a, **k):
        return TexMesh.empty()


def screen(root: Element, w: float = 400, h: float = 300) -> Screen:
    s = Screen(root, M)
    s.layout(w, h)
    return s


def paint(s: Screen) -> Painter:
    p = Painter(FakeAtlas(0.5))
    s.paint(p)
    return p


# -- layout ------------------------------------------------------------------------------------
def test_rows_stack_fixed_then_share_the_rest_by_weight_top_down():
    r = rows(Rect(0, 0, 100, 100), [20, FLEX, Flex(3)], gap=4)
    # 100 - 20 - 2*4 = 72 free: 18 and 54
    assert r == [Rect(0, 80, 100, 20), Rect(0, 58, 100, 18), Rect(0, 0, 100, 54)]


def test_columns_with_padding_keep_the_padding_free_on_every_edge():
    c = columns(Rect(10, 10, 110, 50), [FLEX, FLEX], gap=10, pad=5)
    assert c == [Rect(15, 15, 45, 40), Rect(70, 15, 45, 40)]


def test_grid_fills_rows_from_the_top_left():
    g = grid(Rect(0, 0, 100, 100), 5, 2, 20, gap=10)
    assert g[0] == Rect(0, 80, 45, 20) and g[1] == Rect(55, 80, 45, 20) and g[2] == Rect(0, 50, 45, 20)
    assert g[4].y == 20
    with pytest.raises(ValueError):
        grid(Rect(0, 0, 1, 1), 1, 0, 1)


def test_snap_rounds_to_whole_framebuffer_pixels_at_hidpi_ratios():
    assert snap(10.3, 2.0) == 10.5
    assert snap(10.3, 1.25) == 10.4  # 12.875 px -> 13 px = 10.4 pt
    assert Rect(0.3, 0.3, 10.0, 10.0).snapped(1.0) == Rect(0, 0, 10, 10)
    with pytest.raises(ValueError, match="pixel_ratio"):
        snap(1.0, 0)


def test_box_lays_out_children_in_rows_and_rejects_a_size_count_mismatch():
    a, b = Element(), Element()
    box = Box([a, b], sizes=[30, FLEX], gap=10)
    box.layout(Rect(0, 0, 200, 100))
    assert a.rect == Rect(0, 70, 200, 30) and b.rect == Rect(0, 0, 200, 60)
    with pytest.raises(ValueError, match="2 children but 1 sizes"):
        Box([Element(), Element()], sizes=[1])


# -- text --------------------------------------------------------------------------------------
def test_wrap_breaks_between_words_at_the_width():
    # size 10: 5 points per character; 40 points = 8 characters
    assert wrap(M, "the quick brown fox", 40, 10) == ["the", "quick", "brown", "fox"]
    assert wrap(M, "ab cd ef gh", 40, 10) == ["ab cd ef", "gh"]
    assert wrap(M, "one\ntwo", 400, 10) == ["one", "two"]
    assert wrap(M, "supercalifragilistic", 40, 10) == ["supercalifragilistic"]  # a long word stands alone


def test_ellipsize_keeps_the_longest_prefix_that_fits_with_the_ellipsis():
    assert ellipsize(M, "short", 100, 10) == "short"
    # 30 points = 6 characters: 5 of the text + the ellipsis
    assert ellipsize(M, "Panzer IV", 30, 10) == "Panze…"
    assert ellipsize(M, "ab cdef", 20, 10) == "ab…"  # a trailing blank is dropped
    assert ellipsize(M, "xyz", 4, 10) == "…"


def test_text_block_cuts_to_the_lines_that_fit_and_marks_the_cut_with_an_ellipsis():
    tb = TextBlock("aa bb cc dd ee ff", size=10, line_gap=0)
    s = screen(tb)
    tb.layout(Rect(0, 0, 25, 20))  # 5 characters per line, 2 lines
    assert tb.lines() == ["aa bb", "cc d…"]
    tb.layout(Rect(0, 0, 25, 40))
    assert tb.lines() == ["aa bb", "cc dd", "ee ff"]
    tb.max_lines = 1
    assert tb.lines() == ["aa b…"]
    assert s.root is tb


def test_label_draws_its_text_ellipsized_to_its_width():
    lab = Label("Soviet infantry", size=10)
    s = screen(lab)
    lab.layout(Rect(0, 0, 40, 20))
    p = paint(s)
    assert p.texts == ["Soviet…"]  # 40 points = 8 characters at size 10: "Soviet" + "…" (blank dropped)


# -- buttons, hit testing, focus ---------------------------------------------------------------
def test_click_runs_the_button_under_the_pointer_and_disabled_buttons_do_nothing():
    hits = []
    a, b = Button("A", lambda: hits.append("a")), Button("B", lambda: hits.append("b"))
    root = Box([a, b], vertical=False)
    s = screen(root, 200, 40)
    assert s.mouse_press(50, 20) and s.mouse_press(150, 20)
    b.enabled = False
    s.mouse_press(150, 20)
    assert hits == ["a", "b"]
    assert s.focus is b  # a click focuses; a disabled button does not take the focus away


def test_tab_cycles_focus_in_tree_order_shift_tab_backwards_and_tab_index_first():
    a, b, c = Button("A"), Button("B"), Button("C")
    c.tab_index = 0
    s = screen(Box([a, b, c]))
    assert [e.tip for e in s.tab_order()] == ["C", "A", "B"]
    s.key_press(keys.TAB)
    assert s.focus is c
    s.key_press(keys.TAB)
    s.key_press(keys.TAB)
    assert s.focus is b
    s.key_press(keys.TAB)
    assert s.focus is c  # wraps around
    s.key_press(keys.TAB, keys.MOD_SHIFT)
    assert s.focus is b


def test_enter_on_the_focused_button_runs_it_and_the_focus_ring_is_drawn_around_it():
    hits = []
    a = Button("A", lambda: hits.append(1))
    s = screen(Box([a, Button("B")]))
    s.set_focus(a)
    assert s.key_press(keys.ENTER) and hits == [1]
    p = paint(s)
    assert {w.tip for w in p.widgets} == {"A", "B"}


def test_top_hit_prefers_the_higher_level_then_the_last_drawn():
    p = Painter(FakeAtlas())
    p.widget(0, 0, 10, 10, None, "panel", 0)
    p.widget(0, 0, 10, 10, None, "modal", 2)
    p.widget(0, 0, 10, 10, None, "popup", 1)
    hit = top_hit(p.widgets, 5, 5)
    assert hit is not None and hit.tip == "modal"
    assert top_hit(p.widgets, 50, 5) is None


# -- scrolling list ----------------------------------------------------------------------------
def test_scroll_list_scrolls_by_wheel_and_keys_and_keeps_the_selection_in_view():
    picked = []
    lst = ScrollList([f"line {i}" for i in range(20)], row_h=20, on_pick=picked.append)
    s = screen(lst, 200, 100)  # 5 rows visible
    assert lst.visible_rows == 5 and lst.max_offset == 15
    s.mouse_scroll(50, 50, -1)  # towards the user: later rows
    assert lst.offset == 3
    s.mouse_scroll(50, 50, 10)
    assert lst.offset == 0  # clamped
    s.set_focus(lst)
    s.key_press(keys.END)
    assert lst.selected == 19 and lst.offset == 15
    s.key_press(keys.PAGEUP)
    assert lst.selected == 15 and lst.offset == 15
    s.key_press(keys.HOME)
    assert (lst.selected, lst.offset) == (0, 0)
    s.mouse_press(10, 100 - 45)  # the third row from the top
    assert picked == [2] and lst.selected == 2
    lst.set_items(["a", "b"])
    assert lst.offset == 0 and lst.selected == 1


def test_scroll_list_draws_only_the_visible_rows():
    lst = ScrollList([f"row {i}" for i in range(10)], row_h=25)
    s = screen(lst, 200, 100)
    lst.scroll_to(4)
    assert paint(s).texts == ["row 4", "row 5", "row 6", "row 7"]


# -- text field --------------------------------------------------------------------------------
def test_text_field_inserts_at_the_caret_moves_and_erases():
    entered = []
    tf = TextField("map", on_enter=entered.append)
    s = screen(Box([tf]))
    s.set_focus(tf)
    s.text(".json")
    assert tf.text == "map.json" and tf.caret == 8
    s.text_motion(keys.HOME)
    s.text("my_")
    assert tf.text == "my_map.json" and tf.caret == 3
    s.text_motion(keys.BACKSPACE)
    s.text_motion(keys.DELETE)
    assert tf.text == "myap.json" and tf.caret == 2  # Backspace took "_", Delete the "m" after the caret
    s.key_press(keys.BACKSPACE)  # erasing is a text motion, never a key press too
    assert tf.text == "myap.json"
    s.text_motion(keys.END)
    s.text_motion(keys.LEFT)
    s.text("\x08\r")  # control characters are never inserted
    assert tf.text == "myap.json" and tf.caret == 8
    s.key_press(keys.ENTER)
    assert entered == ["myap.json"]


def test_text_field_respects_max_length_and_the_character_filter():
    tf = TextField("", max_length=3, allowed=str.isdigit)
    s = screen(Box([tf]))
    s.set_focus(tf)
    s.text("1a2b345")
    assert tf.text == "123"
    s.text("x")
    assert s.text("") and tf.text == "123"


def test_keys_typed_into_a_focused_field_are_not_shortcuts_but_tab_and_ctrl_pass():
    tf = TextField("")
    s = screen(Box([tf, Button("next")]))
    s.set_focus(tf)
    assert s.key_press(ord("h"))  # used: the window must not open its help
    assert not s.key_press(ord("s"), keys.MOD_CTRL)  # Ctrl+S stays the window's
    s.key_press(keys.TAB)
    assert s.focus is not tf


def test_text_input_goes_nowhere_without_focus():
    tf = TextField("x")
    s = screen(Box([tf]))
    assert not s.text("abc") and tf.text == "x"


# -- dialogs -----------------------------------------------------------------------------------
def test_a_modal_dialog_eats_clicks_outside_it_and_its_buttons_close_it():
    hits = []
    under = Button("under", lambda: hits.append("under"))
    s = screen(Box([under]), 800, 600)
    d = Dialog(
        "Unsaved changes", "Save before quitting?", [("Save", lambda: hits.append("save")), ("Cancel", None)]
    )
    s.open(d)
    assert s.mouse_press(5, 5)  # used, but does nothing: the button below never sees it
    assert hits == [] and s.dialogs == [d]
    assert s.focus is d.buttons[0]  # the focus moves into the dialog
    s.key_press(keys.TAB)
    assert s.focus is d.buttons[1]
    s.key_press(keys.TAB)
    assert s.focus is d.buttons[0]  # Tab stays inside the dialog
    x, y = d.buttons[0].rect.centre
    s.mouse_press(x, y)
    assert hits == ["save"] and s.dialogs == []


def test_escape_cancels_a_dialog_only_when_it_allows_and_the_focus_returns():
    cancelled = []
    first = Button("first")
    s = screen(Box([first]), 800, 600)
    s.set_focus(first)
    d = Dialog("Busy", buttons=[("OK", None)])
    s.open(d)
    assert s.key_press(keys.ESCAPE) and s.dialogs == [d]  # no on_cancel: Escape does nothing
    s.close(d)
    assert s.focus is first
    d2 = Dialog("Save as", body=[TextField("x.json", tip="name")], on_cancel=lambda: cancelled.append(1))
    s.open(d2)
    assert s.focus is d2.body[0]  # the field takes the focus first
    s.text("!")
    assert d2.body[0].text == "x.json!"
    s.key_press(keys.ESCAPE)
    assert cancelled == [1] and s.dialogs == [] and s.focus is first


def test_dialog_paints_on_the_modal_level_with_a_full_screen_hit_box():
    s = screen(Box([Button("under")]), 800, 600)
    s.open(Dialog("Recover unsaved work?", "An autosave can be restored.", [("Restore", None)]))
    p = paint(s)
    modal = [w for w in p.widgets if w.tip == "modal"]
    assert modal and (modal[0].w, modal[0].h, modal[0].z) == (800, 600, 2)
    assert "Recover unsaved work?" in p.texts and "Restore" in p.texts


# -- tooltip -----------------------------------------------------------------------------------
def test_tooltip_flips_left_and_up_at_the_bounds_and_is_clamped_inside():
    b = Rect(0, 0, 400, 300)
    assert place_tooltip(100, 50, (50, 200), b) == Rect(66, 134, 100, 50)
    assert place_tooltip(100, 50, (380, 200), b) == Rect(264, 134, 100, 50)  # flipped left
    assert place_tooltip(100, 50, (50, 20), b) == Rect(66, 36, 100, 50)  # flipped above
    assert place_tooltip(500, 50, (50, 200), b).x == 0  # wider than the bounds: its left edge stays in


def test_hovering_a_button_with_show_tip_paints_its_tooltip():
    s = screen(Box([Button("Fit", tip="fit the map to the window", show_tip=True)]), 400, 100)
    s.mouse_motion(100, 50)
    assert "fit the map to the window" in paint(s).texts


# -- cards -------------------------------------------------------------------------------------
def test_card_facts_are_generated_from_the_unit_card_data():
    from hexwar.rules.cards import default_cards

    cards = default_cards()
    u = next(c for c in cards.units.values() if c.weapons and c.mobility and not c.is_crew)
    f = card_facts(u, cards.rules)
    assert f.kind == "unit" and f.title == u.name and f.side == u.side
    assert f.stats == (
        f"Defense {u.defense}",
        f"Endurance {u.endurance_full} / Half {u.endurance_half}",
        f"cost {u.cost}",
    )
    assert f"1. {u.weapons[0].describe()}" in f.body
    assert f.subtitle.startswith(u.unit_type.replace("_", " "))


def test_card_facts_for_command_and_damage_cards_come_from_their_typed_effects():
    from hexwar.rules.cards import default_cards

    cards = default_cards()
    cc = next(iter(cards.command.values()))
    f = card_facts(cc, cards.rules)
    assert f.kind == "command" and f.title == cc.title
    assert f.body[: len(cc.effects)] == tuple(e.describe(cards.rules) for e in cc.effects)
    dc = next(iter(cards.damage.values()))
    fd = card_facts(dc, cards.rules)
    assert fd.kind == "damage" and len(fd.body) == len(dc.sides)
    with pytest.raises(TypeError, match="not a card"):
        card_facts(object())


def test_card_view_draws_the_full_face_and_runs_its_action_on_click():
    from hexwar.render.looks import default_looks
    from hexwar.rules.cards import default_cards

    cards = default_cards()
    u = next(c for c in cards.units.values() if c.weapons and not c.is_crew)
    hits = []
    cv = CardView(u, looks=default_looks(), action=lambda: hits.append(u.id), full=True)
    s = screen(Box([cv]), 200, 300)
    p = paint(s)
    assert u.name in p.texts and f"Defense {u.defense}" in p.texts
    assert any(w.tip == f"card {u.id}" for w in p.widgets)
    s.mouse_press(100, 150)
    assert hits == [u.id]


def test_key_codes_equal_pyglets_and_the_toolkit_loads_no_pyglet():
    code = "import sys\nimport hexwar.ui.widgets as w\nprint('pyglet' in sys.modules)\n"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.stdout.strip() == "False", out.stderr
    from hexwar.render import backend

    try:
        backend.configure(True)
        from pyglet.window import key
    except Exception as exc:  # pragma: no cover - no EGL on this machine
        pytest.skip(f"headless pyglet unavailable: {exc}")

    for name in (
        "TAB",
        "ENTER",
        "ESCAPE",
        "BACKSPACE",
        "DELETE",
        "SPACE",
        "LEFT",
        "RIGHT",
        "UP",
        "DOWN",
        "HOME",
        "END",
        "PAGEUP",
        "PAGEDOWN",
        "MOD_SHIFT",
        "MOD_CTRL",
    ):
        assert getattr(keys, name) == getattr(key, name), name
    from pyglet.window import mouse

    assert (keys.MOUSE_LEFT, keys.MOUSE_RIGHT) == (mouse.LEFT, mouse.RIGHT)


def test_play_key_map_uses_pyglets_key_codes_and_ctrl_q_quits():
    from hexwar.render import backend
    from hexwar.ui.input_map import mouse_intent, play_intent

    try:
        backend.configure(True)
        from pyglet.window import key, mouse
    except Exception as exc:  # pragma: no cover - no EGL on this machine
        pytest.skip(f"headless pyglet unavailable: {exc}")
    expect = {
        key.SPACE: "end_phase",
        key.E: "end_phase",
        key.NUM_ENTER: "confirm",
        key.RETURN: "confirm",
        key._1: "weapon_1",
        key.NUM_2: "weapon_2",
        key.P: "play_card",
        key.BACKSPACE: "discard_card",
        key.F1: "help",
        key.EQUAL: "zoom_in",
        key.PLUS: "zoom_in",
        key.NUM_SUBTRACT: "zoom_out",
        key.PAGEUP: "log_older",
        key.HOME: "fit",
        key.TAB: "next_unit",
        key.Q: "quit_if_over",
    }
    assert {k: play_intent(k) for k in expect} == expect
    assert play_intent(key.Q, key.MOD_CTRL) == play_intent(key.Q, key.MOD_COMMAND) == "quit"
    assert play_intent(key.Z, key.MOD_CTRL) == "undo" and play_intent(key.Z) is None  # R12.3 undo before dice
    assert (mouse_intent(mouse.LEFT), mouse_intent(mouse.RIGHT), mouse_intent(mouse.MIDDLE)) == (
        "act",
        "select",
        "pan",
    )


def test_the_screen_example_in_architecture_md_runs_headless():
    import re
    from pathlib import Path
    from types import SimpleNamespace

    text = (Path(__file__).resolve().parent.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    section = text.split("## The widget toolkit", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    ns: dict = {}
    exec(compile(code, "architecture.md", "exec"), ns)  # the doc's own code, nothing read from outside

    shown = []
    ns["UiLayer"] = lambda window, batch, atlas: SimpleNamespace(show=shown.append)  # the one GL part
    started = []
    missions = [SimpleNamespace(title=f"Day {i}") for i in range(1, 30)]
    campaign = SimpleNamespace(name="Kursk 1943", missions=missions, start=started.append)
    scr = ns["CampaignScreen"](None, None, FakeAtlas(0.5), campaign)
    scr.on_resize(600, 400)
    assert "Kursk 1943" in shown[-1].texts and "Day 1" in shown[-1].texts
    x, y = scr.missions.rect.x + 10, scr.missions.rect.y1 - 5
    scr.on_mouse_press(x, y - 20, keys.MOUSE_LEFT, 0)  # the second row
    assert scr.chosen == 1 and scr.screen.focus is scr.missions
    assert scr.on_key_press(keys.DOWN, 0) and scr.on_key_press(keys.ENTER, 0) and scr.chosen == 2
    assert scr.on_key_press(keys.TAB, 0)  # focus: the list, then the Start button
    assert scr.on_key_press(keys.ENTER, 0) and started == [2]
