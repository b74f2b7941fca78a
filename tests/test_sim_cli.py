"""``hexwar sim artillery | fire | sweep`` end to end (issue 9): output, files, errors."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys

import numpy as np
import pytest

from hexwar.cli import main
from hexwar.model.hexgrid import Hex
from hexwar.model.maps import BattleMap

H = Hex.from_label
SCENARIO = "tests/data/game_small.toml"


@pytest.fixture
def town_file(tmp_path):
    m = BattleMap.new(12, 10, name="Test town")
    for lab, kind in [
        ("F05", "wood_building"),
        ("F06", "stone_building"),
        ("G05", "wood_building"),
        ("E05", "reinforced_building"),
        ("F04", "wood_building"),
    ]:
        m.set_terrain(H(lab), kind)
    for c in range(3):
        for r in range(10):
            m.set_level(Hex.from_offset(c, r), 2)
    p = tmp_path / "town.json"
    m.save(p)
    return str(p)


def run(capsys, *args: str) -> tuple[int, str, str]:
    rc = main(list(args))
    out = capsys.readouterr()
    return rc, out.out, out.err


def test_artillery_json_has_exact_and_estimates_beside_each_other(capsys, town_file):
    rc, out, err = run(
        capsys,
        "sim",
        "artillery",
        town_file,
        "--target",
        "F05",
        "--side",
        "german",
        "--trials",
        "20000",
        "--missions",
        "2",
        "--json",
    )
    assert rc == 0 and err == ""  # no progress bar, no chatter on stderr with --json
    rep = json.loads(out)
    assert rep["target"] == "F05" and rep["hit_on"] == 3 and rep["missions"] == 2 and rep["strikes"] == 40000
    assert abs(sum(e["exact"] for e in rep["landing"]) + rep["off_map"]["exact"] - 1) < 1e-5
    assert rep["landing"][0]["hex"] == "F05" and rep["landing"][0]["exact_fraction"] == "2/3"
    assert sum(e["count"] for e in rep["landing"]) + rep["off_map"]["count"] == 40000
    for e in rep["landing"]:
        assert e["ci95"][0] <= e["estimate"] <= e["ci95"][1]
    b = {x["hex"]: x for x in rep["buildings"]}
    assert set(b) == {"F05", "F06", "G05", "E05", "F04"}
    assert b["F05"]["expected_attacks"]["exact"] == pytest.approx(2 * 2 / 3, abs=1e-6)
    assert "default profile 10.5 cm leFH 18" in rep["notes"][0]


def test_same_seed_same_output_and_another_seed_differs(capsys, town_file):
    args = ["sim", "artillery", town_file, "--target", "F05", "--side", "soviet", "--trials", "5000"]
    a = run(capsys, *args, "--seed", "12")[1]
    b = run(capsys, *args, "--seed", "12")[1]
    c = run(capsys, *args, "--seed", "13")[1]
    assert a == b and a != c
    assert "exact beside Monte Carlo" in a and "95% interval" in a


def test_artillery_on_a_scenario_lists_its_units_and_uses_its_weapon(capsys):
    rc, out, _ = run(
        capsys,
        "sim",
        "artillery",
        SCENARIO,
        "--target",
        "K07",
        "--side",
        "soviet",
        "--trials",
        "4000",
        "--json",
    )
    rep = json.loads(out)
    assert rep["weapon"] == {"name": "122 mm M-30 battery", "damage_index": 9}
    assert rep["missions"] == 1  # the scenario's
    units = {u["hex"]: u for u in rep["units"]}
    assert units["K07"]["expected_attacks"]["exact"] == pytest.approx(0.5)
    assert (
        units["C05"]["expected_attacks"]["exact"] == 0 and units["C05"]["expected_attacks"]["estimate"] == 0
    )


def test_artillery_csv_file_has_a_row_per_landing_hex(capsys, town_file, tmp_path):
    path = tmp_path / "out.csv"
    rc, out, _ = run(
        capsys,
        "sim",
        "artillery",
        town_file,
        "--target",
        "F05",
        "--side",
        "soviet",
        "--trials",
        "3000",
        "--csv",
        str(path),
    )
    assert rc == 0 and f"wrote {path}" in out
    rows = list(csv.DictReader(io.StringIO(path.read_text())))
    assert len(rows) == 19 + 1 and rows[-1]["hex"] == "off-map"
    assert (
        rows[0]["hex"] == "F05"
        and float(rows[0]["p_landing_exact"]) == 0.5
        and rows[0]["building"] == "Wood building"
    )


def test_fire_json_csv_and_the_los_section(capsys, town_file, tmp_path):
    path = tmp_path / "fire.csv"
    rc, out, err = run(
        capsys,
        "sim",
        "fire",
        town_file,
        "--ignite",
        "F05",
        "--turns",
        "5",
        "--trials",
        "3000",
        "--variant",
        "burnout",
        "--json",
        "--csv",
        str(path),
    )
    assert rc == 0 and err.strip() == f"wrote {path}"
    rep = json.loads(out)
    assert rep["variant"] == "burnout" and rep["exact"] and rep["ignite"] == ["F05"]
    per_turn = rep["burning_buildings"]
    assert per_turn[0]["mean"] == 1 and len(per_turn) == 6
    for e in per_turn:
        assert e["ci95"][0] - 0.05 <= e["exact_mean"] <= e["ci95"][1] + 0.05
    assert rep["los"]["viewpoints"] == "every hex" and "definition" in rep["los"]
    rows = list(csv.DictReader(io.StringIO(path.read_text())))
    assert {r["hex"] for r in rows} >= {"F05", "F06"} and {int(r["turn"]) for r in rows} == set(range(6))


def test_fire_text_report(capsys, town_file):
    rc, out, _ = run(
        capsys,
        "sim",
        "fire",
        town_file,
        "--ignite",
        "F05",
        "--ignite",
        "E05",
        "--turns",
        "3",
        "--trials",
        "2000",
    )
    assert rc == 0
    assert (
        "Burning buildings per turn" in out
        and "P(burned by turn t)" in out
        and "Lines of sight cut by fire" in out
    )
    assert "F05*" in out and "E05*" in out


def test_sweep_writes_csv_rows_per_value_and_seed(capsys, town_file, tmp_path):
    path = tmp_path / "sweep.csv"
    rc, out, _ = run(
        capsys,
        "sim",
        "sweep",
        "artillery",
        town_file,
        "--target",
        "F05",
        "--side",
        "soviet",
        "--vary",
        "hit_on=3..5",
        "--seeds",
        "0,1",
        "--trials",
        "2000",
        "--csv",
        str(path),
    )
    rows = list(csv.DictReader(io.StringIO(path.read_text())))
    assert [(r["hit_on"], r["seed"]) for r in rows] == [(h, s) for h in "345" for s in "01"]
    assert [float(r["p_target_exact"]) for r in rows[::2]] == pytest.approx([4 / 6, 3 / 6, 2 / 6], abs=1e-6)
    rc, out, _ = run(
        capsys,
        "sim",
        "sweep",
        "fire",
        town_file,
        "--ignite",
        "F05",
        "--turns",
        "3",
        "--vary",
        "dr:wood_building=12,14",
        "--seeds",
        "0..1",
        "--trials",
        "1000",
    )
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [r["dr:wood_building"] for r in rows] == ["12", "12", "14", "14"]
    assert all(r["burning_exact"] for r in rows)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["artillery", "{map}", "--target", "Z99", "--side", "soviet"], "--target Z99 is off the map"),
        (["artillery", "{map}", "--target", "9Q", "--side", "soviet"], "--target '9Q' is not a hex label"),
        (
            ["artillery", "{map}", "--target", "F05", "--side", "italian"],
            "unknown side 'italian': expected german or soviet",
        ),
        (
            ["artillery", "no-such-map", "--target", "F05", "--side", "soviet"],
            "neither a map or scenario file",
        ),
        (
            ["artillery", "{map}", "--target", "F05", "--side", "soviet", "--trials", "lots"],
            "--trials 'lots'",
        ),
        (["fire", "{map}", "--ignite", "A01", "--turns", "3"], "--ignite A01: the hex holds clear terrain"),
        (["fire", "{map}", "--ignite", "F05", "--turns", "3", "--variant", "wet"], "unknown variant 'wet'"),
        (
            ["sweep", "artillery", "{map}", "--target", "F05", "--side", "soviet", "--vary", "range=3"],
            "not an artillery parameter",
        ),
        (
            ["sweep", "fire", "{map}", "--ignite", "F05", "--turns", "2", "--vary", "dr:woods=3"],
            "not a building class",
        ),
        (
            [
                "sweep",
                "artillery",
                "{map}",
                "--target",
                "F05",
                "--side",
                "soviet",
                "--vary",
                "hit_on=1.." + "9" * 500,
            ],
            "at most 9 digits",
        ),
        (
            [
                "sweep",
                "artillery",
                "{map}",
                "--target",
                "F05",
                "--side",
                "soviet",
                "--vary",
                "hit_on=1..100000",
            ],
            "at most 10000 values",
        ),
        # an output folder that does not exist is refused before the simulation runs
        (
            ["artillery", "{map}", "--target", "F05", "--side", "soviet", "--csv", "/no/such/dir/x.csv"],
            "the folder /no/such/dir does not exist",
        ),
        (
            ["fire", "{map}", "--ignite", "F05", "--turns", "2", "--png", "/no/such/dir/x.png"],
            "the folder /no/such/dir does not exist",
        ),
    ],
)
def test_bad_input_gives_one_clear_sentence(capsys, town_file, args, message):
    rc, out, err = run(capsys, "sim", *[a.replace("{map}", town_file) for a in args])
    assert rc == 2 and out == ""
    assert err.startswith("hexwar: ") and message in err and err.count("\n") == 1 and "Traceback" not in err


def test_the_harness_never_loads_pyglet():
    code = (
        "import sys, hexwar.sim.seeding, hexwar.sim.artillery, hexwar.sim.fire, hexwar.sim.fire_los, "
        "hexwar.sim.exact, hexwar.sim.sweep, hexwar.sim.report, hexwar.cli.sim; "
        "assert 'pyglet' not in sys.modules, 'pyglet imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.ui
def test_png_heatmaps_are_drawn_on_the_map_with_a_legend(capsys, town_file, tmp_path):
    from PIL import Image

    a, f = tmp_path / "art.png", tmp_path / "fire.png"
    rc, out, _ = run(
        capsys,
        "sim",
        "artillery",
        town_file,
        "--target",
        "F05",
        "--side",
        "soviet",
        "--trials",
        "2000",
        "--png",
        str(a),
    )
    assert rc == 0 and f"wrote {a}" in out
    rc, out, _ = run(
        capsys,
        "sim",
        "fire",
        town_file,
        "--ignite",
        "F05",
        "--turns",
        "3",
        "--trials",
        "500",
        "--png",
        str(f),
    )
    assert rc == 0 and f"wrote {f}" in out
    for p in (a, f):
        img = np.asarray(Image.open(p).convert("RGB")).astype(int)
        # the fire map is a strip of one small map per turn (turns 1-3, 700 pixels each, 4 apart)
        assert img.shape[1] == (1400 if p == a else 3 * 700 + 2 * 4) and img.shape[0] > 300
        # the legend panel (light, bottom right) and coloured heat cells are both there
        corner = img[-90:-20, -240:-40]
        assert (corner.mean(axis=2) > 200).mean() > 0.3
        packed = (img[..., 0] << 16) | (img[..., 1] << 8) | img[..., 2]
        assert np.unique(packed).size > 200
