"""BattleMap model and the hexwar-map file format (R2.4, R2.5): round trips and clear errors."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

from hexwar.cli import main
from hexwar.errors import ValidationError
from hexwar.model.hexgrid import Hex
from hexwar.model.maps import BattleMap, MapError
from hexwar.model.terrain import default_terrain


def small_map() -> BattleMap:
    m = BattleMap.new(6, 5, name="Test village")
    m.set_terrain(Hex.from_label("B02"), "wood_building")
    m.set_terrain(Hex.from_label("C02"), "stone_building")
    m.set_terrain(Hex.from_label("D03"), "reinforced_building")
    m.set_terrain(Hex.from_label("E04"), "woods")
    m.set_level(Hex.from_label("F05"), 2)
    m.set_road(Hex.from_label("A01"))
    m.set_fire(Hex.from_label("B02"))
    m.set_rubble(Hex.from_label("C02"))
    m.add_wreck(Hex.from_label("A03"), "su-1")
    m.add_wreck(Hex.from_label("A03"), "de-3")
    return m


def write(tmp_path, data, name="m.json"):
    p = tmp_path / name
    p.write_text(json.dumps(data) if not isinstance(data, str) else data)
    return p


def test_terrain_table_has_required_types_and_building_drs():
    # R2.4/R2.5: wood 13, stone 14, reinforced 15; water impassable to all.
    t = default_terrain()
    keys = {x.key for x in t.types}
    assert {"clear", "road", "woods", "brush", "orchard", "wheat", "marsh", "water"} <= keys
    assert t.by_key("wood_building").dr == 13
    assert t.by_key("stone_building").dr == 14
    assert t.by_key("reinforced_building").dr == 15
    assert all(np.isinf(t.by_key("water").move_cost(m)) for m in ("foot", "tracked", "wheeled"))
    assert t.by_key("woods").los == "blocking" and t.by_key("wheat").los == "hindrance"


def test_load_save_load_is_identical(tmp_path):
    m = small_map()
    p = tmp_path / "village.json"
    m.save(p)
    m2 = BattleMap.load(p)
    p2 = tmp_path / "again.json"
    m2.save(p2)
    assert p.read_text() == p2.read_text()
    for a in ("terrain", "level", "road", "rubble", "fire", "fire_turns"):
        assert np.array_equal(getattr(m, a), getattr(m2, a)), a
    assert m2.wrecks == {Hex.from_label("A03"): ["su-1", "de-3"]}
    assert m2.content_hash() == m.content_hash()


def test_rubble_puts_out_fire_and_fire_needs_intact_building():
    m = small_map()
    h = Hex.from_label("B02")
    assert m.has_fire(h)
    m.set_rubble(h)  # R8.3: rubble puts out the fire
    assert not m.has_fire(h) and m.building_at(h) is None
    with pytest.raises(MapError, match="B02"):
        m.set_fire(h)
    with pytest.raises(MapError, match="E04"):
        m.set_fire(Hex.from_label("E04"))


def test_dr_array_counts_only_intact_buildings():
    m = small_map()
    dr = m.dr_array()
    assert dr[m.index(Hex.from_label("B02"))] == 13
    assert dr[m.index(Hex.from_label("C02"))] == 0  # rubble
    assert dr[m.index(Hex.from_label("D03"))] == 15


def test_version_bumps_on_every_change():
    m = BattleMap.new(3, 3)
    v = m.version
    m.add_wreck(Hex(0, 0), "de-1")
    m.remove_wreck(Hex(0, 0))
    assert m.version == v + 2


def test_off_map_and_bad_values_name_the_hex():
    m = BattleMap.new(4, 4)
    with pytest.raises(MapError, match="E01"):
        m.set_terrain(Hex.from_label("E01"), "woods")
    with pytest.raises(MapError, match="lava"):
        m.set_terrain(Hex(0, 0), "lava")
    with pytest.raises(MapError, match="0..9"):
        m.set_level(Hex(0, 0), 12)
    with pytest.raises(MapError, match="zz-9"):
        m.add_wreck(Hex(0, 0), "zz-9")
    with pytest.raises(MapError, match="off the map"):
        m.hex_at("Z99")


def _problems(tmp_path, data, name="m.json"):
    p = write(tmp_path, data, name)
    with pytest.raises(ValidationError) as exc:
        BattleMap.load(p)
    return exc.value.problems, p


def good_json():
    return small_map().to_json()


def test_bad_json_names_file_and_line(tmp_path):
    probs, p = _problems(tmp_path, '{"format": "hexwar-map",\n "width": 3,,}')
    assert len(probs) == 1 and probs[0].file == str(p)
    assert "line 2" in probs[0].where and "bad JSON" in probs[0].message


def test_wrong_row_length_names_the_row(tmp_path):
    d = good_json()
    d["terrain"][2] = d["terrain"][2][:-1]
    probs, _ = _problems(tmp_path, d)
    assert [(x.where, x.message) for x in probs] == [
        ("terrain[2]", "row 3 has 5 characters, expected 6 (width)")
    ]


def test_unknown_terrain_code_names_the_hex(tmp_path):
    d = good_json()
    d["terrain"][0] = "..X..."
    probs, _ = _problems(tmp_path, d)
    assert probs[0].where == "terrain[0] C01" and "'X'" in probs[0].message


def test_bad_label_and_wrong_schema_version_are_all_reported(tmp_path):
    d = good_json()
    d["schema_version"] = 99
    d["features"]["Q7Q"] = {"road": True}
    d["features"]["Z01"] = {"road": True}
    d["levels"] = ["00000x"] * 5
    probs, _ = _problems(tmp_path, d)
    wheres = [x.where for x in probs]
    assert "schema_version" in wheres
    assert "features.Q7Q" in wheres and "features.Z01" in wheres
    assert sum(w.startswith("levels[") for w in wheres) == 5
    assert len(probs) == 8


def test_huge_sizes_are_rejected(tmp_path):
    d = good_json()
    d["width"] = 10**9
    probs, _ = _problems(tmp_path, d)
    assert probs[0].where == "width" and "1..500" in probs[0].message
    big = tmp_path / "big.json"
    with open(big, "wb") as fh:
        fh.truncate(9 * 1024 * 1024)
    with pytest.raises(ValidationError, match="bytes"):
        BattleMap.load(big)


def test_not_an_object_and_missing_file(tmp_path):
    probs, _ = _problems(tmp_path, "[1, 2, 3]")
    assert "JSON object" in probs[0].message
    with pytest.raises(ValidationError, match="file not found"):
        BattleMap.load(tmp_path / "nope.json")


def test_feature_rules_rubble_and_fire_need_buildings(tmp_path):
    d = good_json()
    d["features"]["E04"] = {"fire": True, "rubble": True, "wrecks": ["xx"], "smoke": 1}
    probs, _ = _problems(tmp_path, d)
    msgs = " | ".join(f"{x.where}: {x.message}" for x in probs)
    assert "features.E04.smoke" in msgs and "features.E04.rubble" in msgs
    assert "features.E04.fire" in msgs and "unknown wreck 'xx'" in msgs


def test_save_is_atomic_and_a_failed_save_keeps_the_old_file(tmp_path, monkeypatch):
    p = tmp_path / "keep.json"
    small_map().save(p)
    before = p.read_text()

    def boom(*a, **k):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", boom)
    from hexwar.errors import HexwarError

    with pytest.raises(HexwarError, match="No space left"):
        BattleMap.new(2, 2).save(p)
    assert p.read_text() == before
    assert [x.name for x in tmp_path.iterdir()] == ["keep.json"]  # no temp file left behind


def test_cli_validate_reports_every_problem_and_exit_status(tmp_path, capsys):
    good = tmp_path / "good.json"
    small_map().save(good)
    d = good_json()
    d["terrain"][0] = "..X..."
    d["width"] = 6
    d["features"]["A09"] = {}
    bad = write(tmp_path, d, "bad.json")
    assert main(["validate", str(good)]) == 0
    assert main(["validate", str(good), str(bad)]) == 1
    out = capsys.readouterr().out
    assert "ok   " in out and "FAIL " in out and "C01" in out and "A09" in out


def test_cli_info_json_has_width_and_height(tmp_path, capsys):
    p = tmp_path / "v.json"
    small_map().save(p)
    assert main(["info", str(p), "--json"]) == 0
    info = json.loads(capsys.readouterr().out)
    assert (info["width"], info["height"]) == (6, 5)
    assert info["buildings"] == {"13": 1, "15": 1}
    assert info["wrecks"] == 2


def test_cli_missing_map_is_one_clear_sentence(capsys):
    assert main(["info", "no-such-map"]) == 2
    err = capsys.readouterr().err
    assert "'no-such-map' is neither a map or scenario file" in err and "Traceback" not in err


def test_cli_info_and_los_take_a_scenario_for_its_map(capsys):
    # A scenario name stands for its own map (kharkov's scenario map has fires the bare map lacks).
    assert main(["info", "skirmish", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["name"].startswith("Steppe village")
    assert main(["info", "scenarios/kharkov.toml", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["fires"] > 0


def test_cli_info_refuses_a_save_by_name(tmp_path, capsys):
    save = tmp_path / "game.json"
    save.write_text(json.dumps({"format": "hexwar-save", "schema_version": 1}))
    assert main(["info", str(save)]) == 2
    assert "a hexwar-save file; give a map or a scenario" in capsys.readouterr().err


def test_describe_lists_what_stands_in_a_hex():
    m = small_map()
    assert m.describe(Hex.from_label("B02")) == ["Wood building (DR 13)", "level 0", "fire"]
    assert m.describe(Hex.from_label("C02")) == ["Stone building (DR 14)", "level 0", "rubble"]
    assert m.describe(Hex.from_label("A03")) == ["Clear", "level 0", "wrecks su-1, de-3"]
    assert m.describe(Hex.from_label("F05")) == ["Clear", "level 2"]
    with pytest.raises(MapError, match="G01"):
        m.describe(Hex.from_label("G01"))


def test_empty_file_says_it_is_empty(tmp_path, capsys):
    p = tmp_path / "empty.json"
    p.write_text("  \n")
    with pytest.raises(ValidationError, match="file is empty; expected a JSON document"):
        BattleMap.load(p)
    assert main(["validate", str(p)]) == 1
    assert "file is empty" in capsys.readouterr().out


def test_a_road_flag_on_water_is_refused_because_a_bridge_is_road_terrain(tmp_path):
    # docs/rules.md: a bridge is a road hex across the river (road terrain), so a road flag on a
    # water hex would be two things at once; the loader names the hex and what to write instead.
    m = BattleMap.new(5, 5)
    m.set_terrain(Hex.from_label("B02"), "water")
    data = m.to_json()
    data["features"] = {"B02": {"road": True}}
    with pytest.raises(ValidationError) as ei:
        BattleMap.from_json(data, "river.json")
    (p,) = ei.value.problems
    assert p.where == "features.B02.road" and "bridge is road terrain" in p.message and "'='" in p.message
    with pytest.raises(MapError, match="B02: a road flag on water is ambiguous"):
        m.set_road(Hex.from_label("B02"))
    # painting water over a road washes the road flag away; a road terrain hex is the bridge
    m.set_road(Hex.from_label("C03"))
    m.set_terrain(Hex.from_label("C03"), "water")
    assert not m.road[m.index(Hex.from_label("C03"))]
    m.set_terrain(Hex.from_label("B02"), "road")
    assert m.terrain_at(Hex.from_label("B02")).move["wheeled"] == 1


def test_the_map_format_doc_lists_every_terrain_code_as_the_data_has_it():
    import importlib.util
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    spec = importlib.util.spec_from_file_location("maps_format_docs", root / "tools" / "maps_format_docs.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    assert tool.main(["--check"]) == 0, "docs/maps-format.md is stale: run python tools/maps_format_docs.py"
    text = (root / "docs" / "maps-format.md").read_text()
    for t in default_terrain().types:
        assert f"| `{t.code}` | `{t.key}` |" in text
