"""``hexwar los``: one line (text and JSON), the visibility map, its PNG, and clear errors."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest
from PIL import Image

from hexwar.cli import main
from hexwar.cli.los import visibility_png
from hexwar.model.hexgrid import Hex
from hexwar.model.los import BLOCKED, visibility
from hexwar.model.maps import BattleMap


@pytest.fixture
def map_file(tmp_path):
    """A03 -> G03 along a full spine (B02|B03, D02|D03, F02|F03), woods in C03, brush in C04."""
    m = BattleMap.new(8, 5, name="spine")
    m.set_terrain(Hex.from_label("C03"), "woods")
    m.set_terrain(Hex.from_label("C04"), "brush")
    p = tmp_path / "spine.json"
    m.save(p)
    return p


def test_json_output(map_file, capsys):
    assert main(["los", str(map_file), "A03", "G03", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d == {
        "from": "A03",
        "to": "G03",
        "status": "blocked",
        "intervening": ["C03", "E03"],
        "spine_pairs": [["B03", "B02"], ["D03", "D02"], ["F03", "F02"]],
        "blocking": "C03",
        "reason": "terrain",
        "hindrances": 0,
    }


def test_text_output(map_file, capsys):
    assert main(["los", str(map_file), "a03", "g03"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "A03 -> G03: blocked by C03 (terrain)"
    assert out[1] == "intervening: C03 E03"
    assert out[2] == "hexside pairs: B03|B02 D03|D02 F03|F02"
    assert main(["los", str(map_file), "A04", "E04"]) == 0  # crosses the brush in C04
    assert capsys.readouterr().out.splitlines()[0] == (
        "A04 -> E04: hindered (1 hindrance: +1 to the attack value needed)"
    )


def test_all_prints_the_visibility_map(map_file, capsys):
    assert main(["los", str(map_file), "A03", "--all", "--json"]) == 0
    d = json.loads(capsys.readouterr().out)
    m = BattleMap.load(map_file)
    status = visibility(m, Hex.from_label("A03"))
    assert d["counts"]["blocked"] == int((status == BLOCKED).sum())
    assert sum(d["counts"].values()) == 40
    assert d["rows"][2][0] == "@" and len(d["rows"]) == 5 and all(len(r) == 8 for r in d["rows"])
    assert d["rows"][2][4] == "#"  # E03, behind the woods in C03
    assert main(["los", str(map_file), "A03", "--all"]) == 0
    text = capsys.readouterr().out.splitlines()
    assert text[0].startswith("LOS from A03 on spine (8 x 5):")
    assert text[2:] == [f"{i + 1:02d} {r}" for i, r in enumerate(d["rows"])]


def test_png_of_the_visibility_map(map_file, tmp_path, capsys):
    out = tmp_path / "vis.png"
    assert main(["los", str(map_file), "A03", "--all", "--png", str(out)]) == 0
    assert "wrote" in capsys.readouterr().out
    with Image.open(out) as im:
        assert im.format == "PNG" and im.size[0] > 100 and im.size[1] > 50


def test_pillow_fallback_draws_status_colours(tmp_path):
    m = BattleMap.new(6, 4)
    m.set_terrain(Hex.from_label("C02"), "woods")
    viewer = Hex.from_label("A02")
    status = visibility(m, viewer)
    p = tmp_path / "fallback.png"
    from hexwar.cli import los as cli_los

    cli_los._pillow_png(m, viewer, status, p, (300, 200))
    with Image.open(p) as im:
        rgb = np.asarray(im.convert("RGB"))
    assert (rgb == (70, 70, 70)).all(axis=2).any()  # blocked hexes
    assert (rgb == (208, 48, 42)).all(axis=2).any()  # the viewer
    assert visibility_png.__doc__


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["A01", "Z99"], "TO: hex 'Z99' is off the map"),
        (["7Q", "A01"], "FROM: bad hex label '7Q'"),
    ],
)
def test_bad_labels_are_clear_errors(map_file, capsys, args, message):
    assert main(["los", str(map_file), *args]) == 2
    assert message in capsys.readouterr().err


def test_usage_errors(map_file, capsys):
    assert main(["los", str(map_file), "A01"]) != 0
    assert "give either TO or --all" in capsys.readouterr().err
    assert main(["los", str(map_file), "A01", "B02", "--png", "x.png"]) != 0
    assert main(["los", "no-such-map", "A01", "B02"]) == 2


def test_shipped_map_by_name():
    out = subprocess.run(
        [sys.executable, "-m", "hexwar.cli", "los", "kharkov", "D07", "H12", "--json"],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["from"] == "D07"
