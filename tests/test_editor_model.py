"""Editor model (issue 8): commands, undo/redo, strokes, selections, resize, scenario drafts.

Pure Python: no pyglet here. Window tests are in tests/test_editor_ui.py.
"""

from __future__ import annotations

import tomllib

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hexwar.editor import commands as C
from hexwar.editor.hexstate import HexState, MapTransaction
from hexwar.editor.model import EditorDocument
from hexwar.editor.scenario_draft import ObjectiveDraft, ScenarioDraft, UnitPlacement, zone_specs
from hexwar.editor.tools import (
    Clipboard,
    brush_hexes,
    flood_region,
    rect_hexes,
    resize_translation,
    resized_map,
)
from hexwar.game.scenario_file import ScenarioFile
from hexwar.model.hexgrid import Hex
from hexwar.model.maps import BattleMap, MapError

H = Hex.from_label


def random_map(seed: int, w: int = 9, h: int = 7) -> BattleMap:
    """A map with every kind of feature, from a fixed seed."""
    rng = np.random.default_rng(seed)
    m = BattleMap.new(w, h)
    keys = [t.key for t in m.rules.types]
    for hx in m.hexes():
        m.set_terrain(hx, keys[int(rng.integers(len(keys)))])
        m.set_level(hx, int(rng.integers(0, 4)))
        if rng.random() < 0.2 and m.terrain_at(hx).key != "water":  # a bridge is road terrain
            m.set_road(hx, True)
        if rng.random() < 0.1:
            m.add_wreck(hx, sorted(m.rules.wrecks)[int(rng.integers(len(m.rules.wrecks)))])
        if m.terrain_at(hx).is_building:
            r = rng.random()
            if r < 0.2:
                m.set_rubble(hx, True)
            elif r < 0.4:
                m.set_fire(hx, True)
    return m


# -- brushes, lines, regions ---------------------------------------------------------------
def test_brush_sizes_cover_1_7_19_hexes():
    assert [len(brush_hexes(H("E05"), r)) for r in (0, 1, 2)] == [1, 7, 19]
    m = BattleMap.new(5, 5)
    # in the corner A01 a radius-1 brush keeps A01, its S neighbour A02 and SE neighbour B01
    assert sorted(h.label for h in brush_hexes(H("A01"), 1, m)) == ["A01", "A02", "B01"]
    with pytest.raises(ValueError):
        brush_hexes(H("A01"), 3)


def test_flood_region_stops_at_other_terrain():
    m = BattleMap.new(6, 4)
    wall = [H(x) for x in ("C01", "C02", "C03", "C04")]
    for h in wall:
        m.set_terrain(h, "woods")
    region = flood_region(m, H("A01"))
    assert len(region) == 8  # columns A and B, 4 rows each
    assert all(h.offset[0] < 2 for h in region)
    assert sorted(h.label for h in flood_region(m, H("C02"))) == sorted(h.label for h in wall)


def test_rect_hexes_spans_offset_columns_and_rows():
    assert sorted(h.label for h in rect_hexes(H("C03"), H("B02"))) == ["B02", "B03", "C02", "C03"]


# -- commands --------------------------------------------------------------------------------
def test_paint_undo_redo_restores_exact_text():
    doc = EditorDocument(random_map(1))
    start = doc.map.to_text()
    doc.execute(C.paint_terrain(brush_hexes(H("D04"), 2, doc.map), "woods"))
    painted = doc.map.to_text()
    assert painted != start
    assert all(doc.map.terrain_at(h).key == "woods" for h in brush_hexes(H("D04"), 2))
    doc.undo()
    assert doc.map.to_text() == start
    doc.redo()
    assert doc.map.to_text() == painted


def test_invalid_edit_changes_nothing_and_is_not_recorded():
    m = BattleMap.new(5, 5)
    m.set_terrain(H("B02"), "stone_building")
    doc = EditorDocument(m)
    start = doc.map.to_text()
    # fire on B02 is fine, on C03 (clear) the map refuses: the whole edit must roll back (R8.4)
    with pytest.raises(MapError, match="C03"):
        doc.execute(C.set_fire([H("B02"), H("C03")]))
    assert doc.map.to_text() == start
    assert not doc.stack.can_undo() and not doc.dirty
    with pytest.raises(MapError, match="0..9"):
        doc.execute(C.change_level([H("A01"), H("A02")], -1))
    with pytest.raises(MapError, match="off the"):
        doc.execute(C.paint_terrain([H("A01"), H("Z40")], "woods"))
    with pytest.raises(MapError, match="unknown wreck"):
        doc.execute(C.place_wreck(H("A01"), "xx-9"))
    with pytest.raises(C.NothingToDo):
        doc.execute(C.paint_terrain([H("A01")], "clear"))
    assert doc.map.to_text() == start and not doc.stack.can_undo()


def test_stroke_of_many_hexes_is_one_undo_step_and_skips_refused_dabs():
    doc = EditorDocument(BattleMap.new(8, 6))
    start = doc.map.to_text()
    doc.begin_stroke("Paint woods")
    for label in ("B02", "C02", "D03", "E03"):
        assert doc.stroke_add(C.terrain_op(brush_hexes(H(label), 1, doc.map), "woods")) is None
    err = doc.stroke_add(C.fire_op([H("F04")], True))  # no building: refused, changes nothing
    assert isinstance(err, MapError)
    doc.end_stroke()
    assert len(doc.stack.done) == 1 and doc.undo_name == "Paint woods"
    woods = doc.map.rules.index_of_key("woods")
    assert int((doc.map.terrain == woods).sum()) > 7
    doc.undo()
    assert doc.map.to_text() == start


def test_wrecks_rubble_fire_commands_follow_the_map_rules():
    m = BattleMap.new(5, 5)
    doc = EditorDocument(m)
    doc.execute(C.paint_terrain([H("C03")], "wood_building"))
    doc.execute(C.set_fire([H("C03")]))
    assert doc.map.has_fire(H("C03"))
    doc.execute(C.set_rubble([H("C03")]))  # R8.3: rubble puts the fire out
    assert doc.map.has_rubble(H("C03")) and not doc.map.has_fire(H("C03"))
    doc.execute(C.place_wreck(H("B02"), "su-1"))
    doc.execute(C.place_wreck(H("B02"), "de-3"))
    assert doc.map.wrecks_at(H("B02")) == ["su-1", "de-3"]
    doc.execute(C.remove_wreck(H("B02")))
    assert doc.map.wrecks_at(H("B02")) == ["su-1"]
    while doc.undo():
        pass
    assert doc.map.to_text() == BattleMap.new(5, 5).to_text()


def test_transaction_rollback_to_savepoint():
    m = random_map(3)
    tx = MapTransaction(m)
    start = m.to_text()
    tx.touch(H("A01"))
    m.set_terrain(H("A01"), "marsh")
    mark = tx.savepoint()
    mid = m.to_text()
    tx.touch(H("B01"))
    m.set_level(H("B01"), 9)
    tx.touch(H("A01"))
    m.set_terrain(H("A01"), "water")
    tx.rollback_to(mark)
    assert m.to_text() == mid
    tx.rollback()
    assert m.to_text() == start


# -- clipboard -------------------------------------------------------------------------------
def test_clipboard_rotation_six_times_is_identity_and_flip_twice_is_identity():
    m = random_map(4)
    clip = Clipboard.copy(m, rect_hexes(H("B02"), H("D04")))
    assert clip.rotated(6) == clip
    assert clip.rotated(2).rotated(-2) == clip
    assert clip.flipped("lr").flipped("lr") == clip
    assert clip.flipped("tb").flipped("tb") == clip
    # a flip left-right then top-bottom is a 180 degree rotation
    assert sorted(clip.flipped("lr").flipped("tb").cells) == sorted(clip.rotated(3).cells)


def test_paste_rotated_selection_lands_each_hex_where_rotation_sends_it():
    m = BattleMap.new(10, 10)
    # an L of three hexes: E05 woods, its N neighbour E04 water, its NE neighbour F04 marsh
    m.set_terrain(H("E05"), "woods")
    m.set_terrain(H("E04"), "water")
    m.set_terrain(H("F04"), "marsh")  # E05's direction-2 (NE) neighbour
    assert H("E05").neighbor(2) == H("F04")
    doc = EditorDocument(m)
    clip = Clipboard.copy(doc.map, [H("E05"), H("E04"), H("F04")])
    anchor_rel = {state: rel for rel, state in clip.cells}
    # rotate 60 degrees clockwise and paste with the anchor on H05
    rot = clip.rotated(1)
    states, dropped = rot.placed(H("H05"), doc.map)
    doc.execute(C.paste_states(states))
    assert dropped == 0
    for rel, state in clip.cells:
        assert HexState.read(doc.map, H("H05") + rel.rotate_right()) == state
    assert anchor_rel  # the test reads the copied states back


# -- resize ---------------------------------------------------------------------------------
@pytest.mark.parametrize("left", [-3, -2, -1, 0, 1, 2, 3])
@pytest.mark.parametrize("top", [-1, 0, 2])
def test_resize_keeps_every_kept_hex_and_its_neighbours(left, top):
    m = random_map(5, 7, 6)
    new, t = resized_map(m, left=left, right=1, top=top, bottom=0)
    assert t == resize_translation(left, top)
    assert new.width == m.width + left + 1
    assert new.height == m.height + top + (left & 1)
    kept = [h for h in m.hexes() if new.in_bounds(h + t)]
    for h in kept:
        assert HexState.read(new, h + t) == HexState.read(m, h)
        for n in m.neighbors(h):  # the translation keeps every neighbour relation (R2.3)
            if new.in_bounds(n + t):
                assert (n + t).distance(h + t) == 1 and (h + t).direction_to(n + t) == h.direction_to(n)
    if left >= 0 and top >= 0:
        assert len(kept) == m.width * m.height  # adding never loses a hex
    BattleMap.from_json(new.to_json())  # the result is a valid map file


def test_add_one_column_left_keeps_look_and_adds_a_row():
    m = BattleMap.new(4, 3)
    m.set_terrain(H("A01"), "woods")
    m.set_terrain(H("B01"), "water")  # A01's SE neighbour (direction 3)
    doc = EditorDocument(m)
    doc.execute(C.resize(doc, left=1))
    assert (doc.map.width, doc.map.height) == (5, 4)
    woods = [h for h in doc.map.hexes() if doc.map.terrain_at(h).key == "woods"]
    water = [h for h in doc.map.hexes() if doc.map.terrain_at(h).key == "water"]
    assert len(woods) == 1 and len(water) == 1
    assert woods[0].neighbor(3) == water[0]  # still SE of the woods
    assert woods[0].label == "B01" and water[0].label == "C02"
    doc.undo()
    assert (doc.map.width, doc.map.height) == (4, 3) and doc.map.terrain_at(H("B01")).key == "water"


def test_resize_moves_scenario_hexes_and_undo_brings_dropped_ones_back():
    doc = EditorDocument.new(6, 5, scenario=True)
    sc = doc.scenario.with_deploy("german", [H("A01"), H("B03")]).with_objectives(
        [ObjectiveDraft(H("F05"), points=5)]
    )
    doc.execute(C.ScenarioEdit("setup", sc))
    doc.execute(C.resize(doc, left=-1, right=0, top=0, bottom=0))
    t = resize_translation(-1, 0)
    assert doc.scenario.deploy_of("german") == frozenset({H("B03") + t})
    assert [o.hex for o in doc.scenario.objectives] == [H("F05") + t]
    doc.undo()
    assert doc.scenario == sc


def test_resize_refuses_absurd_sizes():
    doc = EditorDocument.new(3, 3)
    with pytest.raises(MapError, match="1..500"):
        doc.execute(C.resize(doc, right=-3))
    with pytest.raises(MapError, match="1..500"):
        doc.execute(C.resize(doc, bottom=600))
    assert (doc.map.width, doc.map.height) == (3, 3) and not doc.stack.can_undo()


# -- dirty tracking ---------------------------------------------------------------------------
def test_dirty_follows_undo_back_to_the_saved_point(tmp_path):
    doc = EditorDocument.new(4, 4)
    doc.execute(C.paint_terrain([H("A01")], "woods"))
    doc.save(tmp_path / "m.json")
    assert not doc.dirty
    doc.execute(C.paint_terrain([H("A02")], "woods"))
    assert doc.dirty
    doc.undo()
    assert not doc.dirty
    doc.undo()
    assert doc.dirty
    doc.redo()
    assert not doc.dirty
    doc.undo()
    doc.execute(C.paint_terrain([H("B02")], "marsh"))  # the saved state is now unreachable
    doc.undo()
    doc.redo()
    assert doc.dirty
    assert BattleMap.load(tmp_path / "m.json").terrain_at(H("A01")).key == "woods"


def test_history_limit_drops_oldest_steps():
    doc = EditorDocument(BattleMap.new(5, 5), history_limit=3)
    for lab in ("A01", "A02", "A03", "A04", "A05"):
        doc.execute(C.paint_terrain([H(lab)], "woods"))
    n = 0
    while doc.undo():
        n += 1
    assert n == 3 and doc.map.terrain_at(H("A02")).key == "woods" and doc.dirty


# -- scenario drafts ---------------------------------------------------------------------------
def test_scenario_edit_refuses_hex_off_map_and_overlapping_zones():
    doc = EditorDocument.new(5, 5, scenario=True)
    with pytest.raises(MapError, match="off the"):
        doc.execute(C.ScenarioEdit("deploy", doc.scenario.with_deploy("german", [H("H09")])))
    sc = doc.scenario.with_deploy("german", [H("A01")]).with_deploy("soviet", [H("A01")])
    with pytest.raises(MapError, match="overlap"):
        doc.execute(C.ScenarioEdit("deploy", sc))
    too_many = doc.scenario.with_units([UnitPlacement("german", "x", H("B02"))] * 4)
    with pytest.raises(MapError, match="stacking"):
        doc.execute(C.ScenarioEdit("units", too_many))
    with pytest.raises(MapError):
        doc.execute(C.ScenarioEdit("turns", doc.scenario.with_settings(turns=-1)))
    assert not doc.stack.can_undo()
    doc2 = EditorDocument.new(3, 3)
    with pytest.raises(MapError, match="not a scenario"):
        doc2.execute(C.ScenarioEdit("x", ScenarioDraft.empty()))


def test_zone_specs_round_trip_through_the_game_parser():
    from hexwar.game.scenario import parse_zone

    rng = np.random.default_rng(7)
    hexes = {Hex.from_offset(int(c), int(r)) for c, r in rng.integers(0, 12, size=(40, 2))}
    specs = zone_specs(hexes)
    back = set()
    for s in specs:
        back.update(parse_zone(s))
    assert back == hexes
    assert len(specs) < len(hexes)


def test_scenario_draft_toml_round_trip_keeps_unmodelled_fields():
    data = {
        "format": "hexwar-scenario",
        "schema_version": 1,
        "scenario": {
            "id": "t",
            "name": "T",
            "map": "kharkov",
            "seed": 5,
            "turns": 8,
            "victory_points": 40,
            "rules": ["burnout"],
            "events": [],
            "overrun": False,
        },
        "sides": {
            "german": {
                "deploy": ["A01:B03"],
                "reserves": ["a", "b"],
                "units": [{"card": "c", "hex": "B02", "crew": "d"}],
                "artillery": {
                    "missions": 2,
                    "hit_on": 3,
                    "weapon": {"name": "w", "damage_index": 5, "attack": {"infantry": 10}},
                },
            },
            "soviet": {"deploy": ["H01"], "budget": 90},
        },
        "objectives": [{"hex": "E05", "name": "Church", "points": 10, "holder": "soviet"}],
        "victory": {"hold": {"side": "soviet", "turn": 8}},
    }
    d = ScenarioDraft.from_data(data)
    assert d.turns == 8 and d.variants == ("burnout",) and d.artillery_of("german").missions == 2
    assert d.units_at(H("B02")) == [UnitPlacement("german", "c", H("B02"), "d")]
    back = tomllib.loads(d.to_toml())
    assert back["scenario"]["overrun"] is False and back["sides"]["german"]["reserves"] == ["a", "b"]
    assert back["victory"] == data["victory"] and back["objectives"] == data["objectives"]
    assert back["sides"]["german"]["artillery"] == data["sides"]["german"]["artillery"]
    assert ScenarioDraft.from_data(back) == d


def test_scenario_writer_quotes_odd_keys_and_escapes_text():
    d = {"a b": 'x "q" \\ \n é', "n": {"m": [1, 2], "t": [{"k": {"z": 1}}]}}
    assert tomllib.loads(ScenarioFile.from_dict(d).to_text()) == d


# -- hypothesis: undo of N random edits returns the exact starting map ------------------------
TERRAIN = [t.key for t in BattleMap.new(1, 1).rules.types]
WRECKS = sorted(BattleMap.new(1, 1).rules.wrecks)

hex_st = st.builds(Hex.from_offset, st.integers(-1, 9), st.integers(-1, 7))  # a few off-map ones
edit_st = st.one_of(
    st.tuples(st.just("paint"), hex_st, st.sampled_from((0, 1, 2)), st.sampled_from(TERRAIN)),
    st.tuples(st.just("level"), hex_st, st.sampled_from((0, 1, 2)), st.sampled_from((-1, 1))),
    st.tuples(st.just("road"), hex_st, st.sampled_from((0, 1)), st.booleans()),
    st.tuples(st.just("wreck"), hex_st, st.sampled_from(WRECKS), st.booleans()),
    st.tuples(st.just("rubble"), hex_st, st.sampled_from((0, 1)), st.booleans()),
    st.tuples(st.just("fire"), hex_st, st.sampled_from((0, 1)), st.booleans()),
    st.tuples(st.just("fill"), hex_st, st.sampled_from(TERRAIN), st.just(0)),
    st.tuples(
        st.just("paste"),
        st.tuples(hex_st, hex_st, hex_st),
        st.integers(0, 5),
        st.sampled_from(("", "lr", "tb")),
    ),
    st.tuples(st.just("resize"), st.tuples(*[st.integers(-2, 2)] * 4), st.just(0), st.just(0)),
    st.tuples(
        st.just("deploy"), st.lists(hex_st, max_size=6), st.sampled_from(("german", "soviet")), st.just(0)
    ),
    st.tuples(st.just("objective"), hex_st, st.integers(0, 20), st.just(0)),
)


def run_edit(doc: EditorDocument, e: tuple) -> None:
    kind, a, b, c = e
    m = doc.map
    if kind == "paint":
        doc.execute(C.paint_terrain(brush_hexes(a, b, m) or [a], c))
    elif kind == "level":
        doc.execute(C.change_level(brush_hexes(a, b, m) or [a], c))
    elif kind == "road":
        doc.execute(C.set_road(brush_hexes(a, b, m) or [a], c))
    elif kind == "wreck":
        doc.execute(C.remove_wreck(a) if c else C.place_wreck(a, b))
    elif kind == "rubble":
        doc.execute(C.set_rubble(brush_hexes(a, b, m) or [a], c))
    elif kind == "fire":
        doc.execute(C.set_fire(brush_hexes(a, b, m) or [a], c))
    elif kind == "fill":
        doc.execute(C.flood_fill(flood_region(m, a), b))
    elif kind == "paste":
        src0, src1, at = a
        clip = Clipboard.copy(m, rect_hexes(src0, src1, m))
        clip = clip.rotated(b)
        if c:
            clip = clip.flipped(c)
        states, _ = clip.placed(at, m)
        doc.execute(C.paste_states(states))
    elif kind == "resize":
        doc.execute(C.resize(doc, *a))
    elif kind == "deploy":
        other = "soviet" if b == "german" else "german"
        sc = doc.scenario.with_deploy(b, a).with_deploy(other, doc.scenario.deploy_of(other) - set(a))
        doc.execute(C.ScenarioEdit("deploy", sc))
    elif kind == "objective":
        objs = [o for o in doc.scenario.objectives if o.hex != a] + [ObjectiveDraft(a, points=b)]
        doc.execute(C.ScenarioEdit("objective", doc.scenario.with_objectives(objs)))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), edits=st.lists(edit_st, min_size=1, max_size=12))
def test_undo_of_random_edits_returns_exact_start_and_redo_reapplies_exactly(seed, edits):
    doc = EditorDocument(random_map(seed), scenario=ScenarioDraft.empty("Random"))

    def state() -> tuple[str, ScenarioDraft]:
        return doc.map.to_text(), doc.scenario

    texts = [state()]
    for e in edits:
        before = state()
        try:
            run_edit(doc, e)
        except MapError:
            assert state() == before, f"refused edit {e} changed the document (seed {seed})"
            continue
        texts.append(state())
    assert len(doc.stack.done) == len(texts) - 1
    for expect in reversed(texts[:-1]):
        doc.undo()
        assert state() == expect
    assert state() == texts[0] and not doc.dirty
    for expect in texts[1:]:
        doc.redo()
        assert state() == expect


# -- scenario files ----------------------------------------------------------------------------
def _cards_or_skip():
    from hexwar.editor.session import unit_catalogue

    cat = unit_catalogue()
    if not cat["german"] or not cat["soviet"]:
        pytest.skip("card data not loadable")
    return cat


def test_new_scenario_has_no_silent_budget_and_is_refused_until_each_side_has_one(tmp_path):
    from hexwar.errors import ValidationError

    doc = EditorDocument.new(12, 9, scenario=True, name="Bare")
    assert doc.scenario.rest_value("sides", "german", "budget") is None
    sc = (
        doc.scenario.with_deploy("german", [H("A01")])
        .with_deploy("soviet", [H("L08")])
        .with_settings(turns=3)
    )
    doc.execute(C.ScenarioEdit("setup", sc))
    with pytest.raises(ValidationError, match="budget"):
        doc.save(tmp_path / "bare.toml")
    assert not (tmp_path / "bare.toml").exists()


def test_new_scenario_saves_map_beside_it_and_validates_and_reopens(tmp_path):
    from hexwar.validate import validate_file

    cat = _cards_or_skip()
    doc = EditorDocument.new(12, 9, scenario=True, name="Editor test")
    doc.execute(C.paint_terrain([H("F05")], "stone_building"))
    ger = next(c for c in cat["german"] if c[2] is None or "crew" in (c[2] or ""))
    sc = (
        doc.scenario.with_deploy("german", [H("A01"), H("A02"), H("B01")])
        .with_deploy("soviet", [H("L08")])
        .with_units([UnitPlacement("german", ger[0], H("A02"), ger[2])])
        .with_objectives([ObjectiveDraft(H("F05"), "Factory", 10)])
        .with_settings(turns=8, variants=["burnout"])
        .with_rest(("sides", "german", "budget"), 90)
        .with_rest(("sides", "soviet", "budget"), 85)
    )
    doc.execute(C.ScenarioEdit("setup", sc))
    target = tmp_path / "editor_test.toml"
    doc.save(target)
    assert not doc.dirty and doc.scenario.map_ref == "editor_test.map.json"
    assert validate_file(str(target)) == "hexwar-scenario"
    from hexwar.game.scenario import load_scenario

    loaded = load_scenario(target)
    assert loaded.turns == 8 and loaded.variants == ("burnout",)
    assert [o.hex for o in loaded.objectives] == [H("F05")]
    assert set(loaded.sides["german"].deploy) == {H("A01"), H("A02"), H("B01")}
    assert loaded.battlemap.to_text() == doc.map.to_text()
    again = EditorDocument.open(target)
    assert again.scenario == doc.scenario and again.map.to_text() == doc.map.to_text()


def test_invalid_scenario_is_not_saved_and_old_files_stay(tmp_path):
    from hexwar.errors import ValidationError

    _cards_or_skip()
    doc = EditorDocument.new(6, 6, scenario=True)
    doc.execute(C.ScenarioEdit("z", doc.scenario.with_deploy("german", [H("A01")])))  # no soviet zone
    with pytest.raises(ValidationError, match="deploy"):
        doc.save(tmp_path / "s.toml")
    assert list(tmp_path.iterdir()) == [] and doc.dirty


def test_editor_model_modules_never_import_pyglet():
    import subprocess
    import sys

    mods = [
        "hexwar.editor.model",
        "hexwar.editor.commands",
        "hexwar.editor.tools",
        "hexwar.editor.hexstate",
        "hexwar.editor.recovery",
        "hexwar.editor.session",
        "hexwar.editor.scenario_draft",
        "hexwar.editor.palette",
        "hexwar.editor.help_overlay",
        "hexwar.cli.edit",
    ]
    code = (
        "import importlib, sys\n"
        f"for m in {mods!r}:\n    importlib.import_module(m)\n"
        "print(any(k == 'pyglet' or k.startswith('pyglet.') for k in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"


def test_resize_keeps_an_aircraft_aloft_and_moves_ground_units():
    # An aircraft aloft has no hex (R5.2); a map resize used to crash on it (mypy found h + t with None).
    from dataclasses import replace

    from hexwar.editor.scenario_draft import ScenarioDraft, UnitPlacement
    from hexwar.model.hexgrid import Hex
    from hexwar.model.maps import BattleMap

    m = BattleMap.new(8, 6)
    tank = UnitPlacement("german", "de_pz_iv_g", Hex.from_label("B02"))
    plane = UnitPlacement("german", "de_ju87g", None)
    gone = UnitPlacement("soviet", "su_t34_76", Hex.from_label("H06"))
    draft = replace(ScenarioDraft.empty(), units=(tank, plane, gone))
    moved = draft.translated(Hex(0, -1), m)  # one row up: H06 -> H05 stays, B02 -> B01
    assert [(u.card, u.hex) for u in moved.units] == [
        ("de_pz_iv_g", Hex.from_label("B01")),
        ("de_ju87g", None),
        ("su_t34_76", Hex.from_label("H05")),
    ]
    dropped = draft.translated(Hex(0, -2), m)  # B02 -> off the top
    assert [u.card for u in dropped.units] == ["de_ju87g", "su_t34_76"]


def test_a_road_drawn_across_a_river_builds_a_bridge():
    from hexwar.editor import commands as C
    from hexwar.editor.model import EditorDocument

    m = BattleMap.new(6, 4)
    for lab in ("C01", "C02", "C03", "C04"):
        m.set_terrain(H(lab), "water")
    doc = EditorDocument(m)
    doc.execute(C.set_road([H("B02"), H("C02"), H("D02")]))
    assert doc.map.terrain_at(H("C02")).key == "road"  # the bridge (docs/rules.md)
    assert doc.map.road[doc.map.index(H("B02"))] and doc.map.road[doc.map.index(H("D02"))]
    BattleMap.from_json(doc.map.to_json())  # and the map stays valid
    doc.undo()
    assert doc.map.terrain_at(H("C02")).key == "water"
