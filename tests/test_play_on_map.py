"""``hexwar play SCENARIO --map FILE.json``: a scenario on any map file (issue 32, R5.2, R10.2)."""

from __future__ import annotations

import json

import pytest

from hexwar.cli import main
from hexwar.errors import HexwarError
from hexwar.game.onmap import scenario_on_map
from hexwar.game.save import load_game
from hexwar.game.scenario import find_scenario, load_scenario
from hexwar.mapgen import generate
from hexwar.model.hexgrid import Hex
from hexwar.model.maps import MapObjective

H = Hex.from_label


@pytest.fixture()
def saved_map(tmp_path):
    m = generate(16, 12, 3, "village")
    p = tmp_path / "mine.json"
    m.save(p)
    return m, p


def test_standard_plays_on_a_saved_map_file_and_its_save_replays_from_the_map_by_name(
    saved_map, tmp_path, capsys
):
    m, p = saved_map
    save = tmp_path / "g.json"
    args = [
        "play",
        "standard",
        "--map",
        str(p),
        "--headless",
        "--seed",
        "3",
        "--turns",
        "1",
        "--save",
        str(save),
    ]
    assert main([*args, "--json"]) == 0
    d = json.loads(save.read_text())
    assert d["schema_version"] == 2 and d["scenario"]["map"] == "file:mine.json"
    capsys.readouterr()
    assert main(["validate", str(save)]) == 0
    assert main(["replay", str(save), "--verify"]) == 0
    assert "replays exactly" in capsys.readouterr().out
    st = load_game(save)
    assert st.scenario.battlemap.content_hash() == m.content_hash()
    assert st.scenario.sides["german"].deploy == m.deploy["german"]  # R5.2: the map's markers
    # the map file changed since: the save refuses to replay on it, naming the change
    m2 = generate(16, 12, 4, "village")
    m2.save(p)
    assert main(["replay", str(save)]) != 0
    assert "or the map mine.json it was played on has changed" in capsys.readouterr().out


def test_the_maps_objective_markers_are_the_objectives(saved_map, tmp_path):
    m, p = saved_map
    m.objectives = (MapObjective(H("H06"), "Church", 10), MapObjective(H("B02"), "Hill", 5))
    m.save(p)
    sc = scenario_on_map(load_scenario(find_scenario("standard")), str(p))
    assert [(o.hex.label, o.name, o.points) for o in sc.objectives] == [
        ("H06", "Church", 10),
        ("B02", "Hill", 5),
    ]
    assert sc.map_spec == "file:mine.json"


def test_what_is_missing_is_named(saved_map, tmp_path):
    m, p = saved_map
    bare = tmp_path / "bare.json"
    m.deploy = {"german": m.deploy["german"]}
    m.save(bare)
    with pytest.raises(
        HexwarError, match=r"bare.json: the map has no soviet deploy zone \(add soviet deploy markers"
    ):
        scenario_on_map(load_scenario(find_scenario("standard")), str(bare))
    with_objectives = next(
        n for n in ("kharkov", "skirmish", "ponyri") if load_scenario(find_scenario(n)).objectives
    )
    with pytest.raises(HexwarError, match="the map has no objective markers"):
        scenario_on_map(load_scenario(find_scenario(with_objectives)), str(p))
    with pytest.raises(HexwarError, match="no such map file"):
        scenario_on_map(load_scenario(find_scenario("standard")), str(tmp_path / "nothing.json"))
    with pytest.raises(HexwarError, match="not a hexwar map"):
        scenario_on_map(load_scenario(find_scenario("standard")), str(find_scenario("standard")))
