"""The designer's loop on maps nobody here drew (issue 32): Tiled and Wesnoth maps written by the
test (an odd layer name, empty tiles, odd codes) are imported, played as they are with
``hexwar play standard --map`` to the end, turned into a scenario in the editor model, saved,
validated, simulated and played. Plus the import features on their own: ``--layer``, the empty
tile note, valid TOML suggestions for any code, export names that cannot clash, and the shipped
Wesnoth table over Wesnoth's terrain code list."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from hexwar.cli import main
from hexwar.editor.model import EditorDocument
from hexwar.editor.scenario_draft import ArtilleryDraft, UnitPlacement
from hexwar.errors import ValidationError
from hexwar.formats.tiled import export_tiled, import_tiled
from hexwar.formats.wesnoth import import_wesnoth, load_code_table
from hexwar.game.scenario import load_scenario
from hexwar.model.hexgrid import Hex
from hexwar.model.maps import BattleMap

H = Hex.from_label
LAYER = "Ground 1 (Sommer)"  # not "terrain": the name most real maps give their ground


# --------------------------------------------------------------------------------------------
# files written by the test
# --------------------------------------------------------------------------------------------
def _tiled(path: Path, w: int = 12, h: int = 10) -> Path:
    """A flat-topped Tiled map: ground in LAYER (gid 1 clear, 2 woods, 3 wood building, 0 empty
    in column F), a "Trees" decoration layer, and deploy zones on the west and east edges."""
    props = {1: "clear", 2: "woods", 3: "wood_building"}
    tiles = [
        {"id": i - 1, "properties": [{"name": "hexwar_terrain", "type": "string", "value": v}]}
        for i, v in props.items()
    ]
    data = []
    for y in range(h):
        for x in range(w):
            data.append(
                0 if x == 5 else (3 if (x, y) in ((4, 4), (7, 5)) else (2 if (x + y) % 7 == 0 else 1))
            )
    doc = {
        "type": "map",
        "orientation": "hexagonal",
        "width": w,
        "height": h,
        "tilewidth": 64,
        "tileheight": 56,
        "hexsidelength": 32,
        "staggeraxis": "x",
        "staggerindex": "odd",
        "infinite": False,
        "tilesets": [{"firstgid": 1, "name": "painted", "tiles": tiles}],
        "layers": [
            {"id": 1, "name": LAYER, "type": "tilelayer", "width": w, "height": h, "data": data},
            {"id": 2, "name": "Trees", "type": "tilelayer", "width": w, "height": h, "data": [0] * (w * h)},
            {
                "id": 3,
                "name": "zones",
                "type": "objectgroup",
                "objects": [
                    {
                        "id": 1,
                        "type": "deploy",
                        "x": 0,
                        "y": 0,
                        "width": 0,
                        "height": 0,
                        "properties": [
                            {"name": "side", "type": "string", "value": "german"},
                            {"name": "hexes", "type": "string", "value": f"A01:B{h:02d}"},
                        ],
                    },
                    {
                        "id": 2,
                        "type": "deploy",
                        "x": 0,
                        "y": 0,
                        "width": 0,
                        "height": 0,
                        "properties": [
                            {"name": "side", "type": "string", "value": "soviet"},
                            {"name": "hexes", "type": "string", "value": f"K01:L{h:02d}"},
                        ],
                    },
                ],
            },
        ],
    }
    path.write_text(json.dumps(doc))
    return path


# codes from Wesnoth's terrain list, odd ones included (backslash bridges, open gates, interior
# floors, off-map, embellishments, the newer mushroom overlay)
ODD_ROW = ["Gg^Bw\\", "Rr^Pr\\o", "Iwr", "Iwo", "Gs^Edb", "Dd^Dc", "_off^_usr", "Tb^Tf", "Uu^Ii", "Gg^Efm"]


def _wesnoth(path: Path, w: int = 12, h: int = 10) -> Path:
    """A Wesnoth map with its border ring: player 1's keep and castle in the west, player 2's in
    the east, a river, a village, and one row of odd codes."""
    rows = []
    for j in range(h + 2):
        row = []
        for i in range(w + 2):
            if i in (0, w + 1) or j in (0, h + 1):
                row.append("Xv")
            elif j == 2 and 1 <= i <= len(ODD_ROW):
                row.append(ODD_ROW[i - 1])
            elif i == 7 and j != 6:
                row.append("Ww")
            elif i == 7:
                row.append("Ww^Bsb|")
            elif (i, j) == (2, 5):
                row.append("1 Kh")
            elif (i, j) == (w - 1, 5):
                row.append("2 Kh")
            elif i in (1, 2, 3) and j in (4, 5, 6) or i in (w - 2, w - 1, w) and j in (4, 5, 6):
                row.append("Ch")
            elif (i, j) == (5, 8):
                row.append("Gs^Vh")
            else:
                row.append("Gg" if (i + j) % 5 else "Gs^Fp")
        rows.append(", ".join(row))
    path.write_text("\n".join(rows) + "\n")
    return path


# --------------------------------------------------------------------------------------------
# import features
# --------------------------------------------------------------------------------------------
def test_tiled_layer_option_reads_the_named_layer_and_notes_the_layers_and_empty_tiles(tmp_path, capsys):
    src = _tiled(tmp_path / "field.tmj")
    with pytest.raises(ValidationError) as exc:  # without --layer: which layers there are
        import_tiled(src)
    msg = str(exc.value)
    assert (
        "no tile layer named 'terrain'" in msg
        and repr(LAYER) in msg
        and "'Trees'" in msg
        and "--layer" in msg
    )
    r = import_tiled(src, layer=LAYER)
    assert r.map.terrain_at(H("E05")).key == "wood_building" and r.map.terrain_at(H("A02")).key == "clear"
    notes = " | ".join(r.notes)
    assert f"{LAYER!r} (terrain)" in notes and "'Trees' (skipped)" in notes
    assert (
        "10 empty tiles (no tile) in the terrain layer" in notes
        and "F01" in notes
        and "clear ground" in notes
    )
    assert all(r.map.terrain_at(H(f"F{y:02d}")).key == "clear" for y in range(1, 11))
    assert import_tiled(src, layer=LAYER.upper()).map.to_text() == r.map.to_text()  # case ignored
    with pytest.raises(
        ValidationError, match=r"--layer.*'Roads' matches no tile layer; the tile layers found: "
    ):
        import_tiled(src, layer="Roads")
    out = tmp_path / "field.json"
    assert main(["import", "tiled", str(src), "--out", str(out), "--layer", LAYER]) == 0
    assert "empty tiles" in capsys.readouterr().err and BattleMap.load(out).deploy["german"]


ODD_CODES = ["Zq\\", 'Zq"x', 'Zq^Y\\"', "Z\\\\", "Zé", "Zq^"]


def test_every_unmapped_code_gets_a_suggestion_that_is_valid_toml_naming_that_code(tmp_path):
    rows = ["Xv, " + ", ".join(["Xv"] * len(ODD_CODES)) + ", Xv"]
    rows.append("Xv, " + ", ".join(ODD_CODES) + ", Xv")
    rows.append(rows[0])
    p = tmp_path / "odd.map"
    p.write_text("\n".join(rows) + "\n", encoding="utf-8")
    with pytest.raises(ValidationError) as exc:
        import_wesnoth(p)
    seen = set()
    for prob in exc.value.problems:
        line = prob.message.split("add ", 1)[1].split(" (a terrain key", 1)[0]
        data = tomllib.loads("[codes]\n" + line)  # valid TOML, whatever the code
        (code,) = data["codes"]
        assert prob.where == f"code {code}"
        seen.add(code)
    assert seen == set(ODD_CODES)


# Every string= code of Wesnoth's terrain list (data/core/terrain.cfg of wesnoth/wesnoth, the
# codes its mainline multiplayer maps are drawn from), written out by hand.
WESNOTH_CODES = """
Wog Wo Wot Wwg Ww Wwt Wwf Wwrg Wwr Wwrt Ss Sm Gg Gs Gd Gll Rb Re Rd Rr Rrc Rp Ai Aa Dd Ds
^Do ^Dr Dd^Dc ^Efm ^Gvs ^Es ^Em ^Emf ^Edp ^Edpp ^Wm ^Ecf ^Eb ^Ebn ^Eff ^Esd ^Ewl ^Ewf ^Edt ^Edb
^Fet ^Fetd ^Ft ^Ftr ^Ftd ^Ftp ^Fts ^Fp ^Fpa ^Fds ^Fdf ^Fdw ^Fda ^Fms ^Fmf ^Fmw ^Fma
Hh Hhd Hd Ha Mm Md Ms Mdd Hh^Fp Ha^Fpa Hh^Fds Hhd^Fdf Hhd^Fdw Ha^Fda Hh^Fms Hhd^Fmf Hhd^Fmw
Ha^Fma Hh^Ft Hd^Ftd Iwr Ior ^Ii Uu Uue Urb Ur ^Uf ^Ufi Uh ^Br| ^Br/ ^Br\\ Qxu Qxe Qxua Ql Qlf
Mv Mm^Xm Md^Xm Ms^Xm Mdd^Xm Xu Xuc Xue Xuce Xos Xol Xom Xoi ^Pr\\ ^Pr/ ^Pr| ^Pw\\ ^Pw/ ^Pw|
^Pr\\o ^Pr/o ^Pr|o ^Pw\\o ^Pw/o ^Pw|o ^Prg ^Pwd ^Prgo ^Pwdo ^Xo ^Qov Xv ^Vda ^Vdr ^Vdt ^Vct
^Vo ^Voa ^Vea ^Ve ^Vh ^Vha ^Vhr ^Vhc ^Vwm ^Vhca ^Vhcr ^Vhh ^Vhha ^Vhhr ^Vht ^Vd ^Vu ^Vud ^Vc
^Vca ^Vl ^Vla ^Vaa ^Vhs ^Vm ^Vov Ce Cea Co Coa Ch Cha Cv Cud Chr Chw Chs Cd Cdr Cme Cm Ke Ket
Kea Ko Koa Kh Kha Kv Kud Khr Khw Khs Kd Kdr Kme Km ^Cov ^Kov ^Bw| ^Bw/ ^Bw\\ ^Bw|r ^Bw/r ^Bw\\r
^Bsb| ^Bsb\\ ^Bsb/ ^Bs| ^Bs/ ^Bs\\ ^Bh\\ ^Bh/ ^Bh| ^Bcx\\ ^Bcx/ ^Bcx| ^Bp\\ ^Bp/ ^Bp|
_off^_usr ^_fme _s _f
""".replace("\\\\", "\\").split()


def test_the_shipped_table_maps_every_code_of_wesnoths_terrain_list(tmp_path):
    codes = [c if not c.startswith("^") else "Gg" + c for c in WESNOTH_CODES]
    width = 12
    rows = [codes[i : i + width] for i in range(0, len(codes), width)]
    rows[-1] += ["Gg"] * (width - len(rows[-1]))
    border = ["Xv"] * (width + 2)
    text = "\n".join(", ".join(r) for r in [border] + [["Xv", *r, "Xv"] for r in rows] + [border])
    p = tmp_path / "all.map"
    p.write_text(text + "\n")
    m = import_wesnoth(p).map  # raises, naming every code, if one maps to nothing
    t = load_code_table()
    assert t.lookup("^Pr\\o")["terrain"] == "" and t.lookup("^Pr|")["terrain"] == "water"
    assert t.lookup("Iwo")["terrain"] == "clear" and t.lookup("^Tf")["terrain"] == "woods"
    flat = [m.terrain_at(Hex.from_offset(i % width, i // width)).key for i in range(len(codes))]
    by = dict(zip(codes, flat, strict=True))
    assert (
        by["Gg^Vhh"] == "stone_building"
        and by["Gg^Vh"] == "wood_building"
        and by["Kh"] == "reinforced_building"
    )
    assert by["Mv"] == "water" and by["_off^_usr"] == "water" and by["Gg^Bw\\"] == "road"


def test_exporting_k_tmj_then_k_tmx_writes_two_images(tmp_path, capsys):
    m = BattleMap.load(Path(__file__).parents[1] / "maps" / "kharkov.json")
    a = export_tiled(m, tmp_path / "k.tmj")
    b = export_tiled(m, tmp_path / "k.tmx")  # no --force needed: nothing clashes
    assert a[1] != b[1] and a[1].exists() and b[1].exists()
    assert import_tiled(tmp_path / "k.tmj").map.to_text() == import_tiled(tmp_path / "k.tmx").map.to_text()
    assert main(["export", "tiled", "kharkov", "--out", str(tmp_path / "k.tmj")]) == 2  # the same again does
    assert "exists" in capsys.readouterr().err


# --------------------------------------------------------------------------------------------
# the loop
# --------------------------------------------------------------------------------------------
WEAPON = json.dumps(
    {"name": "122 mm M-30 battery", "attack": {"infantry": 10, "vehicle": 12, "gun": 11}, "damage_index": 10}
)


@pytest.mark.parametrize("kind", ["tiled", "wesnoth"])
def test_the_designers_loop_on_an_imported_map(kind, tmp_path, capsys):
    # 1. import
    mp = tmp_path / f"{kind}.json"
    if kind == "tiled":
        args = ["import", "tiled", str(_tiled(tmp_path / "f.tmj")), "--out", str(mp), "--layer", LAYER]
    else:
        args = ["import", "wesnoth", str(_wesnoth(tmp_path / "f.map")), "--out", str(mp)]
    assert main(args) == 0, capsys.readouterr().err
    capsys.readouterr()
    m = BattleMap.load(mp)
    assert m.deploy.get("german") and m.deploy.get("soviet")
    # 2. the standard game on it as it is, headless, to the end
    save = tmp_path / "std.json"
    assert (
        main(
            ["play", "standard", "--map", str(mp), "--headless", "--seed", "5", "--save", str(save), "--json"]
        )
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    assert out["result"] is not None, out
    assert main(["replay", str(save), "--verify"]) == 0
    capsys.readouterr()
    # 3. a scenario on it in the editor model: from its markers, then a unit each and a battery
    doc = EditorDocument.open(mp)
    doc.new_scenario_on_map()
    g, s = (
        sorted(m.deploy["german"], key=lambda h: h.offset)[0],
        sorted(m.deploy["soviet"], key=lambda h: h.offset)[0],
    )
    target = next(
        h for h in m.hexes() if h.distance(s) == 2 and m.terrain_at(h).key in ("clear", "woods", "road")
    )
    observer = next(
        h for h in m.neighbors(target) if m.terrain_at(h).key in ("clear", "woods", "road") and h != g
    )
    from hexwar.editor.commands import ScenarioEdit

    draft = doc.scenario.with_units(
        [UnitPlacement("german", "de_grenadiers", target), UnitPlacement("soviet", "su_rifles", observer)]
    ).with_artillery("soviet", ArtilleryDraft(4, WEAPON))
    doc.execute(ScenarioEdit("units and battery", draft))
    scen = doc.save()
    # 4. validate, simulate (its own check on), play
    assert main(["validate", str(scen)]) == 0
    capsys.readouterr()
    rc = main(
        [
            "sim",
            "scenario",
            str(scen),
            "--target",
            f"soviet:{target.label}@1",
            "--turns",
            "1",
            "--trials",
            "60",
            "--json",
        ]
    )
    rep = json.loads(capsys.readouterr().out)
    assert rc == 0 and rep["exact_computed"] and rep["missions"][0]["fired"]["estimate"] == 1.0
    assert main(["play", str(scen), "--headless", "--seed", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["result"] is not None
    assert load_scenario(scen).battlemap.content_hash() == m.content_hash()
