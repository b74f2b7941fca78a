"""The terrain and wreck tables are read through their typed models (issue 34): every problem at once."""

from __future__ import annotations

import pytest

from hexwar.errors import ValidationError
from hexwar.fileio import read_toml
from hexwar.model.terrain import _parse_terrain, _parse_wrecks, load_terrain


def test_the_shipped_tables_load_to_the_values_of_their_files():
    from importlib import resources

    rt = load_terrain()
    raw = read_toml(str(resources.files("hexwar") / "data" / "terrain.toml"))["terrain"]
    assert [t.key for t in rt.types] == list(raw)  # file order: a map's codes index it
    for t in rt.types:
        r = raw[t.key]
        move = {m: float("inf") if m in r.get("impassable", []) else float(v) for m, v in r["move"].items()}
        assert (t.code, t.name, t.los, t.height, t.move, t.dr) == (
            r["code"],
            r["name"],
            r["los"],
            r["height"],
            move,
            r.get("dr"),
        ), t.key
        assert (t.defense_soft, t.defense_armored) == (r["defense"]["soft"], r["defense"]["armored"]), t.key
    woods = rt.by_key("woods")
    # hexwar/data/terrain.toml [terrain.woods]: code T, blocking, height 1, wheeled impassable (R2.5)
    assert (woods.code, woods.los, woods.height, woods.move["foot"], woods.move["tracked"]) == (
        "T",
        "blocking",
        1,
        2.0,
        3.0,
    )
    assert woods.move["wheeled"] == float("inf") and (woods.defense_soft, woods.defense_armored) == (2, 1)
    assert len(rt.wrecks) == 12


def test_a_broken_terrain_table_reports_every_problem_with_its_field_path():
    from importlib import resources

    data = read_toml(str(resources.files("hexwar") / "data" / "terrain.toml"))
    data["terrain"]["woods"]["los"] = "foggy"
    data["terrain"]["woods"]["move"]["wheeled"] = 0
    data["terrain"]["road"]["code"] = "T"  # a model cannot see a code used twice: the check after it
    data["terrain"]["clear"]["dr"] = 99
    data["terrain"]["clear"]["smell"] = "grass"
    with pytest.raises(ValidationError) as exc:
        _parse_terrain(data, "terrain.toml")
    got = {(p.where, p.message) for p in exc.value.problems}
    assert ("terrain.woods.los", 'expected clear, hindrance or blocking (R3.5), got "foggy"') in got
    assert ("terrain.woods.move.wheeled", "expected an integer >= 1 (movement points), got 0") in got
    assert (
        "terrain.clear.dr",
        "expected an integer DR such as 13, 14 or 15 (buildings, R8.2), got 99",
    ) in got
    assert any(w == "terrain.clear.smell" and m.startswith("unknown field") for w, m in got)
    # the duplicate code is found once the structure is sound
    data = read_toml(str(resources.files("hexwar") / "data" / "terrain.toml"))
    data["terrain"]["road"]["code"] = "T"
    with pytest.raises(ValidationError) as exc:
        _parse_terrain(data, "terrain.toml")
    assert [(p.where, p.message) for p in exc.value.problems] == [
        ("terrain.woods.code", "'T' already used by road")
    ]


def test_a_broken_wreck_table_reports_every_problem():
    from importlib import resources

    data = read_toml(str(resources.files("hexwar") / "data" / "wrecks.toml"))
    data["wreck"][0]["nationality"] = "italian"
    data["wreck"][1]["applies"] = "none"
    del data["wreck"][2]["los"]
    with pytest.raises(ValidationError) as exc:
        _parse_wrecks(data, "wrecks.toml")
    wheres = [p.where for p in exc.value.problems]
    assert wheres == ["wreck[0].nationality", "wreck[1].applies", "wreck[2].los"]
    data = read_toml(str(resources.files("hexwar") / "data" / "wrecks.toml"))
    data["wreck"][1]["id"] = data["wreck"][0]["id"]
    with pytest.raises(ValidationError) as exc:
        _parse_wrecks(data, "wrecks.toml")
    assert [p.message for p in exc.value.problems] == ["duplicate wreck id 'de-1'"]
