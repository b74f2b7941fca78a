"""Generated maps (issue 19): same seed same map, playable, road-joined deploy zones, LOS mix."""

import json

import numpy as np
import pytest

from hexwar.cli import main
from hexwar.errors import HexwarError
from hexwar.mapgen import STYLES, generate, generate_document, parse_generated, road_connected
from hexwar.model.hexgrid import Hex
from hexwar.model.los import BLOCKED, CLEAR, visibility
from hexwar.model.maps import BattleMap


def test_the_same_seed_gives_the_same_map_and_another_seed_another():
    for style in STYLES:
        a, b = generate(30, 24, 11, style), generate(30, 24, 11, style)
        assert a.to_text() == b.to_text(), style
        assert generate(30, 24, 12, style).to_text() != a.to_text(), style


@pytest.mark.parametrize("style", STYLES)
def test_every_generated_map_validates_joins_its_deploy_zones_by_road_and_mixes_los(style):
    for seed in range(4):
        m = generate(30, 24, seed, style)
        where = f"style {style} seed {seed}"
        again = BattleMap.from_json(json.loads(m.to_text()), where)  # loads as a map file
        assert again.to_text() == m.to_text(), where
        g, s = m.deploy["german"], m.deploy["soviet"]
        assert {h.offset[0] for h in g} == {0, 1, 2} and {h.offset[0] for h in s} == {27, 28, 29}, where
        assert len(g) == len(s) == 3 * 24
        # both zones reach each other along road hexes (breadth-first over the road flags)
        assert road_connected(m, g, s), where
        # buildings of the three DRs (R8.2)
        assert {13, 14, 15} <= {int(x) for x in m.dr_array().flat}, where
        # LOS mix over the visibility maps of viewers at the four quarters' centres
        clear = blocked = total = 0
        for c, r in ((7, 6), (22, 6), (7, 18), (22, 18)):
            vis = visibility(m, Hex.from_offset(c, r))
            clear += int((vis == CLEAR).sum()) - 1
            blocked += int((vis == BLOCKED).sum())
            total += vis.size - 1
        assert 0.02 < blocked / total < 0.98 and 0.02 < clear / total, (where, clear, blocked, total)


def test_a_river_map_is_crossed_by_bridges_between_the_two_sides():
    m = generate(30, 24, 3, "river")
    water = m.terrain == m.rules.index_of_key("water")
    assert water.any()
    # the river runs from the north edge to the south edge: every road joining the sides is a bridge over it
    assert road_connected(m, m.deploy["german"], m.deploy["soviet"])
    bridges = [
        h
        for h in m.hexes()
        if m.road[m.index(h)]
        and any(water[n.offset[1], n.offset[0]] for n in m.neighbors(h))
        and m.terrain_at(h).key == "road"
    ]
    assert bridges


def test_bad_sizes_styles_and_specs_are_refused_with_the_reason():
    with pytest.raises(HexwarError, match="12..500"):
        generate(8, 30, 1)
    with pytest.raises(HexwarError, match="unknown map style"):
        generate(30, 24, 1, "desert")
    with pytest.raises(HexwarError, match="generated:SEED"):
        parse_generated("random:5")
    assert parse_generated("generated:5:city") == (30, 24, 5, "city")


def test_the_editor_gets_a_document_on_a_generated_map():
    doc = generate_document(20, 16, 4, "forest")
    assert doc.map.to_text() == generate(20, 16, 4, "forest").to_text()
    assert doc.path is None


def test_edit_generate_out_writes_the_map_headless_and_refuses_to_overwrite(tmp_path, capsys):
    out = tmp_path / "g.json"
    assert main(["edit", "--generate", "24x18", "--seed", "9", "--style", "steppe", "--out", str(out)]) == 0
    m = BattleMap.load(out)
    assert m.to_text() == generate(24, 18, 9, "steppe").to_text()
    assert main(["edit", "--generate", "24x18", "--seed", "10", "--out", str(out)]) == 2
    assert BattleMap.load(out).to_text() == m.to_text()
    assert main(["edit", "--generate", "24x18", "--seed", "10", "--out", str(out), "--force"]) == 0


def test_the_standard_game_plays_on_a_generated_map_and_its_save_replays(tmp_path, capsys):
    save = tmp_path / "g.json"
    assert (
        main(
            [
                "play",
                "standard",
                "--map",
                "generated:5",
                "--headless",
                "--seed",
                "3",
                "--turns",
                "1",
                "--save",
                str(save),
                "--json",
            ]
        )
        == 0
    )
    d = json.loads(save.read_text())
    assert d["schema_version"] == 2 and d["scenario"]["map"] == "generated:5:village:30x24"
    capsys.readouterr()
    assert main(["replay", str(save), "--verify"]) == 0
    assert "replays exactly" in capsys.readouterr().out
    from hexwar.game.save import load_game

    state = load_game(save)
    gen = generate(30, 24, 5, "village")
    assert state.scenario.battlemap.content_hash() == gen.content_hash()
    assert state.scenario.sides["german"].deploy == gen.deploy["german"]
    assert np.array_equal(state.scenario.battlemap.terrain, gen.terrain)


@pytest.mark.slow
def test_soak_many_seeds_every_style_gives_a_playable_map():
    from hexwar.mapgen import map_problems

    for style in STYLES:
        for seed in range(40):
            for size in ((30, 24), (16, 12), (48, 30)):
                m = generate(*size, seed, style)
                assert map_problems(m) == [], (style, seed, size)


def test_map_markers_move_with_their_hexes_when_the_editor_resizes_the_map():
    from hexwar.editor.tools import resized_map

    m = generate(20, 16, 1)
    n, t = resized_map(m, right=-2)
    assert n.deploy["german"] == m.deploy["german"]  # the west edge stays
    assert "soviet" not in n.deploy  # its two columns were trimmed: the marker goes with them
    n2, t2 = resized_map(m, left=2)
    assert n2.deploy["german"] == tuple(h + t2 for h in m.deploy["german"])


@pytest.mark.ui
def test_edit_generate_opens_the_editor_on_the_generated_map(tmp_path):
    import os
    import subprocess
    import sys

    png = tmp_path / "gen.png"
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env["HEXWAR_RECOVERY_DIR"] = str(tmp_path / "rec")
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "hexwar.cli",
            "edit",
            "--generate",
            "16x12",
            "--seed",
            "2",
            "--style",
            "river",
            "--screenshot",
            str(png),
            "--size",
            "800x600",
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    from PIL import Image

    with Image.open(png) as im:
        assert im.size == (800, 600)
        # a map is drawn, not an empty window: many colours below the title bar
        assert len(im.crop((0, 40, 800, 600)).getcolors(maxcolors=1 << 20) or []) > 20
    # and without a display the window cannot open: one sentence, status 2
    out = subprocess.run(
        [sys.executable, "-m", "hexwar.cli", "edit", "--generate", "16x12"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert out.returncode == 2 and "needs a display" in out.stderr
