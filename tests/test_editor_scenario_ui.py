"""The whole scenario in the editor (issue 23): a headless window driven by dispatched key and
mouse events only builds a scenario on an empty map - name, briefing, turn limit, Event cards,
variant, each side's deploy zone, a fixed Reserves deck with a starting hand from the
searchable card picker, a budget typed in, artillery from the weapon profiles with missions,
per turn and hit number, an objective with name, points and starting holder, an area - and
the file it saves validates (``hexwar validate``) and plays (``hexwar play --headless``)."""

from __future__ import annotations

import subprocess
import sys
import tomllib

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
from hexwar.editor.scenario_fields import card_entries, parse_field  # noqa: E402
from hexwar.model.hexgrid import Hex  # noqa: E402

H = Hex.from_label


class User:
    """Clicks panel widgets and hexes, types and presses keys, as a person would."""

    def __init__(self, win: EditorWindow) -> None:
        self.win = win

    def widget(self, tip: str) -> None:
        x, y = self.win.widget_at(tip)
        self.win.dispatch_event("on_mouse_motion", x, y, 0, 0)
        self.win.dispatch_event("on_mouse_press", x, y, mouse.LEFT, 0)
        self.win.dispatch_event("on_mouse_release", x, y, mouse.LEFT, 0)
        self.win.on_draw()

    def key(self, sym: int, mods: int = 0) -> None:
        self.win.dispatch_event("on_key_press", sym, mods)
        self.win.on_draw()

    def type(self, text: str, clear: bool = True) -> None:
        if clear:
            self.win.dispatch_event("on_text_motion", key.MOTION_END_OF_LINE)
            for _ in range(200):
                self.win.dispatch_event("on_text_motion", key.MOTION_BACKSPACE)
        self.win.dispatch_event("on_text", text)
        self.win.on_draw()

    def enter(self) -> None:
        self.key(key.ENTER)

    def drag(self, labels: list[str]) -> None:
        pts = [self.win.screen_point(H(x)) for x in labels]
        self.win.dispatch_event("on_mouse_motion", *pts[0], 0, 0)
        self.win.dispatch_event("on_mouse_press", *pts[0], mouse.LEFT, 0)
        for (x0, y0), (x, y) in zip(pts, pts[1:], strict=False):
            self.win.dispatch_event("on_mouse_drag", x, y, x - x0, y - y0, mouse.LEFT, 0)
        self.win.dispatch_event("on_mouse_release", *pts[-1], mouse.LEFT, 0)
        self.win.on_draw()

    def click(self, label: str) -> None:
        self.drag([label])


def test_typed_scenario_fields_name_what_was_expected():
    assert parse_field("budget", "") is None  # a fixed Reserves deck instead
    assert parse_field("objective_points", "15") == 15
    for field, text, said in (
        ("budget", "79", "80..100"),
        ("hand_size", "8", "0..7"),
        ("weapon", "Battery; 9/30/10; DI 8", "vehicle attack expected 2..25"),
        ("area_name", "", "area name"),
        ("id", "a b", "letters, digits"),
    ):
        with pytest.raises(ValueError, match=said):
            parse_field(field, text)


def test_card_picker_lists_a_sides_cards_in_hexwar_cards_order_with_their_full_text():
    from hexwar.rules.cards import default_cards

    cs = default_cards()
    rows = card_entries("german")
    assert [r[0] for r in rows] == [
        u.id for u in cs.side_units("german", crews=True) if u.unit_type != "aircraft"
    ]
    tiger = next(r for r in rows if r[0] == "de_tiger_i")
    assert cs.units["de_tiger_i"].help_text(cs) in tiger[2]


def test_a_whole_scenario_built_through_the_editor_ui_validates_and_plays(tmp_path):
    doc = EditorDocument.new(16, 12, name="Lipki", scenario=True)
    win = EditorWindow(
        doc, width=1280, height=860, visible=False, schedule=False, recovery_folder=tmp_path / "recovery"
    )
    try:
        win.on_draw()
        u = User(win)
        u.widget("Scenario")
        # nothing is defaulted silently: the new scenario says what it still needs
        texts = " ".join(win.screen_texts())
        assert "problems before it can be saved" in texts and "budget" not in str(doc.scenario.rest_json)

        # Setup page: name, id, briefing, turn limit, Event cards (the list scrolls), a variant
        u.widget("edit name")
        u.type("Lipki, October 1943")
        u.enter()
        u.widget("edit id")
        u.type("lipki")
        u.enter()
        u.widget("edit description")
        u.type("Hold the church of Lipki.")
        u.enter()
        for _ in range(5):
            u.widget("turns +")
        from hexwar.editor.panels import _event_ids

        evs = _event_ids()
        u.widget(f"event {evs[0]}")
        x, y = win.widget_at(f"event {evs[0]}")
        for _ in range(3):  # the wheel over the list scrolls it (issue 17)
            win.dispatch_event("on_mouse_scroll", x, y, 0, -1)
        win.on_draw()
        shown_last = [t for t in (w.tip for w in win._widgets_now()) if t == f"event {evs[-1]}"]
        assert shown_last, "scrolling shows the last Event card"
        u.widget(f"event {evs[-1]}")
        u.widget("variant burnout")

        # Sides page, German: deploy zone, a fixed Reserves deck and a hand from the picker
        u.widget("page sides")
        u.key(key.D)
        u.drag(["A01", "A02", "B03", "C04"])
        u.drag(["A05", "B06", "C07"])
        u.widget("add reserves")
        assert win.modal == "cards:reserves"
        u.type("panzergrenadier")
        for _ in range(8):
            u.enter()  # the first match, Panzergrenadier squad, 8 times
        u.type("pioneer")
        for _ in range(4):
            u.enter()
        u.type("grenadier squad")
        u.enter()
        u.key(key.ESCAPE)
        u.widget("add hand")
        u.type("pioneer")
        u.enter()
        u.key(key.ESCAPE)
        # artillery: a weapon profile from the list, missions, per turn, hit number
        u.widget("weapon next")
        for _ in range(3):
            u.widget("missions +")
        u.widget("per turn +")
        u.widget("hit on +")

        # Soviet: deploy zone and a typed budget
        u.widget("side soviet")
        u.key(key.D)
        u.drag(["P12", "O11", "N10"])
        u.drag(["P08", "O09"])
        u.widget("edit budget")
        u.type("95")
        u.enter()
        # a weapon typed in (checked as typed: a bad one is refused and the dialog stays open)
        u.widget("edit weapon")
        u.type("122 mm M-30 battery; 9/40/10; DI 9")
        u.enter()
        assert win.modal == "field:weapon" and "expected 2..25" in " ".join(win.screen_texts())
        u.type("122 mm M-30 battery; 9/12/10; DI 9")
        u.enter()
        assert win.modal is None
        u.widget("missions +")

        # Places page: an objective with a name, points and a starting holder; an area
        u.widget("page places")
        u.key(key.G)
        u.click("H06")
        u.widget("edit objective_name")
        u.type("Church")
        u.enter()
        u.widget("edit objective_points")
        u.type("20")
        u.enter()
        u.widget("objective holder")  # nobody -> german
        u.key(key.M)
        u.drag(["G05", "I07"])
        u.widget("add area")
        u.type("village")
        u.enter()

        assert "scenario valid" in " ".join(win.screen_texts()), win._problems()
        # save through Ctrl+S and the Save As prompt
        path = tmp_path / "lipki.toml"
        u.key(key.S, key.MOD_CTRL)
        assert win.modal == "saveas"
        u.type(str(path))
        u.enter()
        assert path.exists(), win.session.status
    finally:
        win.close()

    data = tomllib.loads(path.read_text(encoding="utf-8"))
    sc, de, su = data["scenario"], data["sides"]["german"], data["sides"]["soviet"]
    assert (sc["name"], sc["id"], sc["description"], sc["turns"]) == (
        "Lipki, October 1943",
        "lipki",
        "Hold the church of Lipki.",
        5,
    )
    assert sc["events"] == [evs[0], evs[-1]] and sc["rules"] == ["burnout"]
    assert de["reserves"].count("de_panzergrenadiers") == 8 and de["reserves"].count("de_pioniere") == 4
    assert de["hand"] == ["de_pioniere"] and "budget" not in de
    assert su["budget"] == 95 and "reserves" not in su
    assert (de["artillery"]["missions"], de["artillery"]["per_turn"]) == (3, 2)
    assert su["artillery"]["weapon"]["attack"] == {"infantry": 9, "vehicle": 12, "gun": 10}
    obj = data["objectives"][0]
    assert (obj["hex"], obj["name"], obj["points"], obj["holder"]) == ("H06", "Church", 20, "german")
    assert data["areas"]["village"] == ["G05..I07"]

    cmd = [sys.executable, "-m", "hexwar.cli"]
    v = subprocess.run([*cmd, "validate", str(path)], capture_output=True, text=True, timeout=120)
    assert v.returncode == 0, v.stdout + v.stderr
    p = subprocess.run(
        [*cmd, "play", str(path), "--headless", "--ai", "german,soviet", "--turns", "1"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert p.returncode == 0, p.stdout + p.stderr
