"""Tiled TMX/TMJ import and export (issue 19), on small files written for the purpose."""

import json
from pathlib import Path

import pytest

from hexwar.cli import main
from hexwar.errors import ValidationError
from hexwar.formats.tiled import export_tiled, import_tiled, load_tile_table, strip_gid
from hexwar.model.hexgrid import Hex, Layout
from hexwar.model.maps import BattleMap
from hexwar.paths import content_dir

DATA = Path(__file__).parent / "data" / "tiled"

EXPECTED_ODD = {
    "terrain": [".T~.", "T.hs", "==~T"],
    "levels": ["2200", "0000", "0000"],
}


def test_gid_flags_are_all_stripped_including_the_hexagonal_120_degree_rotation():
    assert strip_gid(0x80000000 | 5) == 5  # horizontal flip
    assert strip_gid(0x40000000 | 5) == 5  # vertical flip
    assert strip_gid(0x20000000 | 5) == 5  # diagonal flip (60 degree rotation on hex maps)
    assert strip_gid(0x10000000 | 5) == 5  # hexagonal 120 degree rotation
    assert strip_gid(0xF0000000 | 0x0FFFFFFF) == 0x0FFFFFFF


@pytest.mark.parametrize("name", ["odd_csv.tmx", "odd_gzip.tmx"])
def test_odd_stagger_tmx_reads_as_odd_q_with_two_tilesets_and_flipped_tiles(name):
    r = import_tiled(DATA / name)
    d = r.map.to_json()
    assert d["width"] == 4 and d["height"] == 3
    assert d["terrain"] == EXPECTED_ODD["terrain"]
    assert d["levels"] == EXPECTED_ODD["levels"]
    assert d["name"] == "Tiled test, odd stagger"
    assert d["features"] == {
        "D01": {"wrecks": ["su-1", "de-2"]},
        "C02": {"fire": True, "fire_turns": 1},
        "D02": {"rubble": True},
        "A03": {"road": True},
        "B03": {"road": True},
    }
    assert d["deploy"] == {"german": ["A01:A03"], "soviet": ["D01:D03"]}
    assert d["objectives"] == [{"hex": "B02", "name": "Church", "points": 10}]
    assert any("decoration" in n for n in r.notes)


def test_even_stagger_tmj_with_zlib_moves_one_column_right_and_keeps_every_neighbour():
    r = import_tiled(DATA / "even_zlib.tmj")
    m = r.map
    assert (m.width, m.height) == (5, 3)
    d = m.to_json()
    # column A is new, its ground copied from column B (roads become clear)
    assert d["terrain"] == [".." + "T~.", "TT.hs", ".==~T"]
    assert d["levels"] == ["22200", "00000", "00000"]
    assert d["features"]["E01"] == {"wrecks": ["su-1", "de-2"]}
    assert d["features"]["D02"] == {"fire": True, "fire_turns": 1}
    assert d["features"]["E02"] == {"rubble": True}
    assert d["deploy"] == {"german": ["B01:B03"], "soviet": ["E01:E03"]}
    assert d["objectives"] == [{"hex": "C02", "name": "Church", "points": 10}]
    assert any("even" in n for n in r.notes)


@pytest.mark.parametrize("stagger_even", [False, True])
def test_tiled_neighbours_are_hexwar_neighbours_in_the_same_direction(stagger_even):
    # Tiled's hexagonal renderer (staggeraxis x): tile (x, y) sits at
    # px = x * columnwidth, py = y * tileheight + (rowheight if (x & 1) ^ staggerEven).
    w, h, tw, th, side = 7, 6, 64, 56, 32
    colw, rowh = (tw - side) / 2 + side, th / 2

    def tiled_px(x, y):
        return x * colw, y * th + (rowh if (x & 1) ^ int(stagger_even) else 0)

    shift = 1 if stagger_even else 0
    lay = Layout(1.0)
    pairs = 0
    for x in range(w):
        for y in range(h):
            for x2 in range(w):
                for y2 in range(h):
                    if (x, y) == (x2, y2):
                        continue
                    (ax, ay), (bx, by) = tiled_px(x, y), tiled_px(x2, y2)
                    touching = ((ax - bx) ** 2 + (ay - by) ** 2) ** 0.5 < 60  # neighbours are 55-56 px apart
                    ha, hb = Hex.from_offset(x + shift, y), Hex.from_offset(x2 + shift, y2)
                    assert (ha.distance(hb) == 1) == touching, ((x, y), (x2, y2))
                    if touching:
                        pairs += 1
                        (pa, qa), (pb, qb) = lay.hex_to_pixel(ha), lay.hex_to_pixel(hb)
                        # same direction: signs of the offsets agree
                        assert (pb > pa) == (bx > ax) and (pb < pa) == (bx < ax)
                        assert (qb > qa) == (by > ay) and (qb < qa) == (by < ay)
    assert pairs > 2 * w * h  # ordered pairs: most hexes have several neighbours on the board


def test_pointy_topped_map_is_refused_saying_why_and_what_to_do():
    with pytest.raises(ValidationError) as exc:
        import_tiled(DATA / "pointy.tmx")
    msg = str(exc.value)
    assert "pointy-topped" in msg and "flat-topped" in msg and "Stagger Axis X" in msg


def test_every_unmapped_tile_is_reported_at_once_with_its_position_and_nothing_is_written(tmp_path):
    out = tmp_path / "m.json"
    rc = main(["import", "tiled", str(DATA / "unmapped.tmj"), "--out", str(out)])
    assert rc == 2 and not out.exists()
    with pytest.raises(ValidationError) as exc:
        import_tiled(DATA / "unmapped.tmj")
    wheres = [p.where for p in exc.value.problems]
    assert wheres == [
        "layer 'terrain' tile (1, 0) hex B01",
        "layer 'terrain' tile (0, 1) hex A02",
        "layer 'terrain' tile (2, 1) hex C02",
    ]
    assert "tile 2 of tileset 'painted'" in exc.value.problems[1].message


def test_a_terrain_table_maps_tileset_tiles_and_wins_over_properties(tmp_path):
    table = load_tile_table(DATA / "painted.toml")
    r = import_tiled(DATA / "unmapped.tmj", table)
    d = r.map.to_json()
    # gid 2 = tile 1 (woods by the table), gid 3 = tile 2 (clear at level 3),
    # 2147483650 = gid 2 flipped horizontally: woods again
    assert d["terrain"] == [".T.", "..T"]
    assert d["levels"] == ["000", "300"]


def test_xml_with_a_dtd_or_entities_is_refused():
    with pytest.raises(ValidationError, match="DTD or entities"):
        import_tiled(DATA / "entities.tmx")


def test_import_refuses_to_overwrite_without_force(tmp_path):
    out = tmp_path / "m.json"
    out.write_text("keep me")
    assert main(["import", "tiled", str(DATA / "odd_csv.tmx"), "--out", str(out)]) == 2
    assert out.read_text() == "keep me"
    assert main(["import", "tiled", str(DATA / "odd_csv.tmx"), "--out", str(out), "--force"]) == 0
    assert BattleMap.load(out).to_json()["terrain"] == EXPECTED_ODD["terrain"]


def _shipped_maps():
    return sorted(content_dir("maps").glob("*.json")) + sorted(
        (content_dir("scenarios") / "maps").glob("*.json")
    )


@pytest.mark.parametrize("suffix", [".tmj", ".tmx"])
def test_import_of_export_is_the_same_map_for_every_shipped_map(tmp_path, suffix):
    for p in _shipped_maps():
        m = BattleMap.load(p)
        out = tmp_path / f"{p.stem}{suffix}"
        written = export_tiled(m, out)
        assert written[1].name == f"{p.stem}_{suffix[1:]}_tiles.png" and written[1].stat().st_size > 0
        back = import_tiled(out).map
        assert back.to_text() == m.to_text(), p.name


def test_export_writes_an_odd_stagger_tiled_map_with_the_tileset_properties(tmp_path):
    from PIL import Image

    m = BattleMap.load(content_dir("maps") / "steppe_village.json")
    assert main(["export", "tiled", "steppe_village", "--out", str(tmp_path / "sv.tmj")]) == 0
    d = json.loads((tmp_path / "sv.tmj").read_text())
    assert (d["orientation"], d["staggeraxis"], d["staggerindex"]) == ("hexagonal", "x", "odd")
    assert [lay["name"] for lay in d["layers"]] == ["terrain", "levels", "roads", "features"]
    ts = d["tilesets"][0]
    names = [p["value"] for t in ts["tiles"] for p in t["properties"] if p["name"] == "hexwar_terrain"]
    assert names == [t.key for t in m.rules.types]
    img = Image.open(tmp_path / ts["image"])
    assert img.size == (ts["columns"] * 64, ((ts["tilecount"] + 7) // 8) * 56)
    # a woods tile is drawn in the renderer's woods colour at its centre-left tree
    from hexwar.render.looks import default_looks

    woods_id = names.index("woods")
    fill = default_looks().terrain_look("woods").fill
    ox, oy = (woods_id % 8) * 64, (woods_id // 8) * 56
    assert img.getpixel((ox + 32, oy + 4))[:3] == fill[:3]
    assert (
        main(["export", "tiled", "steppe_village", "--out", str(tmp_path / "sv.tmj")]) == 2
    )  # exists: --force


def test_a_compressed_layer_larger_than_the_map_is_refused_without_inflating_it(tmp_path):
    import base64
    import zlib

    bomb = base64.b64encode(zlib.compress(b"\0" * 50_000_000)).decode()
    d = json.loads((DATA / "unmapped.tmj").read_text())
    d["layers"][0].update(encoding="base64", compression="zlib", data=bomb)
    p = tmp_path / "bomb.tmj"
    p.write_text(json.dumps(d))
    with pytest.raises(ValidationError, match="holds more than the 6 tiles"):
        import_tiled(p)


@pytest.mark.parametrize(
    "field,value", [("width", "3"), ("height", True), ("tilewidth", 64.5), ("width", None)]
)
def test_a_tmj_size_that_is_not_a_json_integer_is_refused_naming_the_field(tmp_path, field, value):
    d = json.loads((DATA / "unmapped.tmj").read_text())
    d[field] = value
    p = tmp_path / "typed.tmj"
    p.write_text(json.dumps(d))
    with pytest.raises(ValidationError, match=f"{field}.*expected an integer, got {value!r}"):
        import_tiled(p)
    d[field] = float(json.loads((DATA / "unmapped.tmj").read_text())[field])  # 3.0: Tiled's value
    p.write_text(json.dumps(d))
    with pytest.raises(ValidationError, match="unmapped|tile"):  # read on to the usual problem
        import_tiled(p)


from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_ODD_TEXT = (DATA / "odd_csv.tmx").read_text()
_EVEN_DOC = json.loads((DATA / "even_zlib.tmj").read_text())


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cut=st.integers(0, len(_ODD_TEXT)), junk=st.text(max_size=8), at=st.integers(0, len(_ODD_TEXT)))
def test_a_damaged_tmx_gives_a_clear_error_never_a_traceback(tmp_path, cut, junk, at):
    text = _ODD_TEXT[:at] + junk + _ODD_TEXT[at:cut] if at < cut else _ODD_TEXT[:cut] + junk
    p = tmp_path / "x.tmx"
    p.write_text(text)
    (tmp_path / "town.tsx").write_text((DATA / "town.tsx").read_text())
    try:
        import_tiled(p)
    except ValidationError as exc:
        assert exc.problems and all(str(q.file).endswith(("x.tmx", "town.tsx")) for q in exc.problems)


_values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 2**33),
    st.text(max_size=6),
    st.lists(st.integers(-1, 20), max_size=14),
)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    path=st.lists(
        st.sampled_from(
            [
                "layers",
                0,
                1,
                2,
                "data",
                "width",
                "height",
                "tilesets",
                "objects",
                "firstgid",
                "x",
                "y",
                "properties",
                "value",
                "encoding",
                "staggerindex",
            ]
        ),
        min_size=1,
        max_size=4,
    ),
    value=_values,
)
def test_a_mutated_tmj_gives_a_clear_error_never_a_traceback(tmp_path, path, value):
    import copy

    d = copy.deepcopy(_EVEN_DOC)
    node = d
    for key in path[:-1]:
        try:
            node = node[key]
        except (KeyError, IndexError, TypeError):
            return
    try:
        node[path[-1]] = value
    except (IndexError, TypeError):
        return
    p = tmp_path / "x.tmj"
    p.write_text(json.dumps(d))
    (tmp_path / "town.tsj").write_text((DATA / "town.tsj").read_text())
    try:
        import_tiled(p)
    except ValidationError as exc:
        assert exc.problems
