"""Wesnoth .map import (issue 19): border ring, legacy header, start positions, code table."""

from pathlib import Path

import pytest

from hexwar.cli import main
from hexwar.errors import ValidationError
from hexwar.formats.wesnoth import import_wesnoth, load_code_table
from hexwar.model.hexgrid import Hex
from hexwar.model.maps import BattleMap

DATA = Path(__file__).parent / "data" / "wesnoth"

# with_header.map, border removed: Kh keep, Ch castle, Gs^Fp forest, Hh hills (level 1),
# Mm mountains (level 2), Gg grass, Ww water, Gs^Vh village, Gg^Vhh stone village, Re road,
# Gg^Bw| bridge, Ss swamp, Wwf ford, Ke keep, Gd grass, Rb road, Dd sand, Hh^Fp forested
# hills, Cud castle.
TERRAIN = ["RsT..", "s.~hs", "==mmR", ".=.Ts"]
LEVELS = ["00012", "00000", "00000", "00010"]


@pytest.mark.parametrize("name", ["with_header.map", "no_header.map"])
def test_border_ring_is_removed_with_or_without_the_legacy_header(name):
    r = import_wesnoth(DATA / name)
    d = r.map.to_json()
    assert (d["width"], d["height"]) == (5, 4)
    assert d["terrain"] == TERRAIN
    assert d["levels"] == LEVELS
    assert {k for k, f in d["features"].items() if f.get("road")} == {"A03", "B03", "B04"}


def test_start_positions_become_deploy_zones_of_the_keep_and_its_castle():
    r = import_wesnoth(DATA / "with_header.map")
    assert r.starts == {1: Hex.from_label("A01"), 2: Hex.from_label("E03")}
    assert sorted(h.label for h in r.map.deploy["german"]) == ["A01", "A02", "B01"]
    assert sorted(h.label for h in r.map.deploy["soviet"]) == ["E03", "E04"]


def _wesnoth_adjacent(a, b):
    """Wesnoth's rule (map_location, 0-based playable coordinates): two hexes touch when x is
    equal and y differs by 1, or y is equal and x differs by 1, or both differ by 1 and the x
    of the hex with the greater y is even."""
    (ax, ay), (bx, by) = a, b
    dx, dy = abs(ax - bx), abs(ay - by)
    if dx == 0 and dy == 1 or dx == 1 and dy == 0:
        return True
    if dx == 1 and dy == 1:
        lower = a if ay > by else b
        return lower[0] % 2 == 0
    return False


def test_column_parity_after_the_border_is_wesnoths_own_adjacency():
    m = import_wesnoth(DATA / "no_header.map").map
    cells = [(x, y) for x in range(m.width) for y in range(m.height)]
    for a in cells:
        for b in cells:
            if a != b:
                hex_touch = Hex.from_offset(*a).distance(Hex.from_offset(*b)) == 1
                assert hex_touch == _wesnoth_adjacent(a, b), (a, b)


def test_every_unmapped_code_is_reported_at_once_with_its_hexes_and_nothing_is_written(tmp_path):
    out = tmp_path / "u.json"
    assert main(["import", "wesnoth", str(DATA / "unknown_codes.map"), "--out", str(out)]) == 2
    assert not out.exists()
    with pytest.raises(ValidationError) as exc:
        import_wesnoth(DATA / "unknown_codes.map")
    probs = {p.where: p.message for p in exc.value.problems}
    assert set(probs) == {"code Zz", "code Gg^Zq"}
    assert "B01, B02" in probs["code Zz"] and "2 hexes" in probs["code Zz"]


def test_a_terrain_table_adds_codes_and_overrides_the_shipped_ones(tmp_path):
    r = import_wesnoth(DATA / "unknown_codes.map", load_code_table(DATA / "mine.toml"))
    d = r.map.to_json()
    assert d["terrain"] == ["R,o", "w,w"]  # Gg is wheat by the override
    assert d["levels"] == ["001", "000"]
    assert any("player 3" in n for n in r.notes)  # only players 1 and 2 become sides
    out = tmp_path / "u.json"
    assert (
        main(
            [
                "import",
                "wesnoth",
                str(DATA / "unknown_codes.map"),
                "--out",
                str(out),
                "--terrain",
                str(DATA / "mine.toml"),
            ]
        )
        == 0
    )
    assert BattleMap.load(out).to_json()["terrain"] == ["R,o", "w,w"]


def test_shipped_code_table_loads_and_maps_the_common_terrains():
    t = load_code_table()
    expect = {
        "Gg": "clear",
        "Ww": "water",
        "Ss": "marsh",
        "Ch": "stone_building",
        "Kh": "reinforced_building",
        "Re": "road",
        "^Fp": "woods",
        "^Vh": "wood_building",
        "^Vhh": "stone_building",
    }
    for code, key in expect.items():
        assert t.lookup(code)["terrain"] == key, code
    assert t.lookup("Hh")["level"] == 1 and t.lookup("Mm")["level"] == 2


def test_bad_table_entries_are_named(tmp_path):
    p = tmp_path / "bad.toml"
    p.write_text('[codes]\n"Gg" = "lava"\n"Hh" = { terrain = "clear", level = 12 }\n')
    with pytest.raises(ValidationError) as exc:
        load_code_table(p)
    assert {x.where for x in exc.value.problems} == {"codes.Gg", "codes.Hh.level"}
