"""JSON Schemas and schema_version migrations (issue 19)."""

import copy
import json
import shutil
import tomllib
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from hexwar.cli import main
from hexwar.errors import ValidationError
from hexwar.formats.migrate import CURRENT, migrate_file, upgrade
from hexwar.formats.schema import SCHEMA_KINDS, load_schema, schema_problems, schema_text
from hexwar.game.save import read_save
from hexwar.game.scenario import parse_scenario
from hexwar.model.maps import BattleMap
from hexwar.paths import content_dir

ROOT = Path(__file__).resolve().parent.parent
LEGACY = Path(__file__).parent / "data" / "legacy_e9c3826"


@pytest.mark.parametrize("kind", SCHEMA_KINDS)
def test_every_shipped_schema_is_a_valid_draft_2020_12_schema_and_printed_as_shipped(kind, capsys):
    doc = load_schema(kind)
    Draft202012Validator.check_schema(doc)
    assert doc["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert main(["schema", kind]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads(schema_text(kind))


def _shipped():
    maps = sorted(content_dir("maps").glob("*.json")) + sorted(
        (content_dir("scenarios") / "maps").glob("*.json")
    )
    maps += sorted((LEGACY / "maps").glob("*.json"))
    scns = sorted(content_dir("scenarios").glob("*.toml")) + sorted(LEGACY.glob("*.toml"))
    saves = sorted(LEGACY.glob("save_*.json"))
    return maps, scns, saves


def test_every_shipped_file_is_valid_under_its_schema_after_migration():
    maps, scns, saves = _shipped()
    assert len(maps) >= 10 and len(scns) >= 12 and len(saves) == 6
    for p in maps:
        doc, steps = upgrade(json.loads(p.read_text()), "map", str(p))
        assert steps == [1] and schema_problems(doc, "map", str(p)) == [], p
    for p in scns:
        if tomllib.loads(p.read_text()).get("mode") == "lines":
            continue  # R11.1: line scenarios are another mode, validated by hexwar.lines.scenario
        doc, _ = upgrade(tomllib.loads(p.read_text()), "scenario", str(p))
        assert schema_problems(doc, "scenario", str(p)) == [], p
    for p in saves:
        doc, steps = upgrade(json.loads(p.read_text()), "save", str(p))
        assert steps == [1] and schema_problems(doc, "save", str(p)) == [], p


def _map_doc():
    doc = json.loads((content_dir("maps") / "steppe_village.json").read_text())
    return upgrade(doc, "map")[0]


# (mutation, field path the validator and the schema both name)
MAP_MUTATIONS = [
    (lambda d: d.update(width=0), "width"),
    (lambda d: d.update(height="24"), "height"),
    (lambda d: d.update(format="hexwar-mop"), "format"),
    (lambda d: d.update(name=7), "name"),
    (lambda d: d.update(smell="cabbage"), "smell"),
    (lambda d: d.pop("terrain"), "terrain"),
    (lambda d: d["levels"].__setitem__(3, "1" * 29 + "x"), "levels[3]"),
    (lambda d: d["features"].update(D07={"road": "yes"}), "features.D07.road"),
    (lambda d: d["features"].update(D07={"smoke": True}), "features.D07.smoke"),
    (lambda d: d["features"].update(D07={"fire_turns": 2}), "features.D07.fire"),
    (lambda d: d["features"].update(Q7Q={"road": True}), "features.Q7Q"),
    (lambda d: d.update(deploy={"italian": ["A01"]}), "deploy.italian"),
    (lambda d: d.update(deploy={"german": ["A01-C03"]}), "deploy.german[0]"),
    (lambda d: d.update(objectives=[{"hex": "P11", "points": -3}]), "objectives[0].points"),
]


@pytest.mark.parametrize("i", range(len(MAP_MUTATIONS)))
def test_mutated_maps_the_loader_refuses_are_refused_by_the_schema_at_the_same_field(i):
    mutate, where = MAP_MUTATIONS[i]
    d = _map_doc()
    mutate(d)
    with pytest.raises(ValidationError) as exc:
        BattleMap.from_json(copy.deepcopy(d), "m.json")
    loader = [p.where for p in exc.value.problems]
    schema = [p.where for p in schema_problems(d, "map", "m.json")]
    assert any(w == where or w.startswith(where + " ") for w in loader), loader
    assert where in schema, schema


SAVE_MUTATIONS = [
    (lambda d: d.update(seed=-1), "seed"),
    (lambda d: d.update(variants=["fast"]), "variants[0]"),
    (lambda d: d["scenario"].update(hash="abc"), "scenario.hash"),
    (lambda d: d["scenario"].pop("id"), "scenario.id"),
    (lambda d: d.update(players={"italian": "ai"}), "players.italian"),
    (lambda d: d.update(cheat=True), "cheat"),
    (lambda d: d["commands"][0].pop("side"), "commands[0].side"),
    (lambda d: d["final"].pop("hash"), "final.hash"),
    (lambda d: d.update(schema_version=9), "schema_version"),
]


@pytest.mark.parametrize("i", range(len(SAVE_MUTATIONS)))
def test_mutated_saves_the_reader_refuses_are_refused_by_the_schema_at_the_same_field(i, tmp_path):
    mutate, where = SAVE_MUTATIONS[i]
    d = json.loads((LEGACY / "save_skirmish_s2.json").read_text())
    mutate(d)
    p = tmp_path / "s.json"
    p.write_text(json.dumps(d))
    with pytest.raises(ValidationError) as exc:
        read_save(p)
    assert where in [x.where for x in exc.value.problems]
    if where != "schema_version":  # a future version is refused before any schema
        assert where in [
            x.where
            for x in schema_problems(
                upgrade(d, "save")[0] if d.get("schema_version") == 1 else d, "save", str(p)
            )
        ]


SCENARIO_MUTATIONS = [
    ('[scenario]\nid = "standard"', '[scenario]\nid = "bad id!"', "scenario.id"),
    ("turns = 20", "turns = -1", "scenario.turns"),
    ("overrun = true", 'overrun = "yes"', "scenario.overrun"),
    ("budget = 100\npool", "budget = 300\npool", "sides.german.budget"),
    ('deploy = ["A01:C24"]', "deploy = []", "sides.german.deploy"),
    ("rules = []", 'rules = ["fast"]', "scenario.rules[0]"),
]


@pytest.mark.parametrize("i", range(len(SCENARIO_MUTATIONS)))
def test_mutated_scenarios_the_loader_refuses_are_refused_by_the_schema_at_the_same_field(i, tmp_path):
    old, new, where = SCENARIO_MUTATIONS[i]
    text = (content_dir("scenarios") / "standard.toml").read_text()
    assert old in text
    text = text.replace(old, new, 1)
    p = tmp_path / "standard.toml"
    p.write_text(text)
    shutil.copy(content_dir("maps") / "steppe_village.json", tmp_path / "steppe_village.json")
    with pytest.raises(ValidationError) as exc:
        parse_scenario(text, p)
    assert where in [x.where for x in exc.value.problems]
    assert where in [x.where for x in schema_problems(tomllib.loads(text), "scenario", str(p))]


def test_validate_reports_schema_and_semantic_problems_at_once_with_file_and_field(tmp_path, capsys):
    d = _map_doc()
    d["width"] = 30
    d["name"] = 5  # structural: the schema
    d["features"]["ZZ99"] = {"road": True}  # semantic: off the board
    d["terrain"][0] = "X" + d["terrain"][0][1:]  # semantic: unknown code, named by hex
    p = tmp_path / "m.json"
    p.write_text(json.dumps(d))
    assert main(["validate", str(p)]) == 1
    out = capsys.readouterr().out
    assert f"{p}: name: expected text" in out
    assert f"{p}: features.ZZ99: hex 'ZZ99' is off the 30x24 map" in out
    assert f"{p}: terrain[0] A01: unknown terrain code 'X'" in out


def test_map_migration_1_to_2_keeps_the_content_hash_so_old_saves_still_replay(tmp_path):
    src = LEGACY / "maps" / "ponyri.json"
    dst = tmp_path / "ponyri.json"
    shutil.copy(src, dst)
    before = BattleMap.load(src).content_hash()
    kind, steps, text = migrate_file(dst)
    assert (kind, steps) == ("map", [1])
    assert json.loads(dst.read_text())["schema_version"] == CURRENT["map"] == 2
    assert BattleMap.load(dst).content_hash() == before
    assert BattleMap.load(dst).to_text() == src.read_text()  # saved again: version 1 text, no markers


def test_a_map_with_markers_is_written_as_version_2_and_version_1_cannot_hold_them():
    m = BattleMap.load(content_dir("maps") / "steppe_village.json")
    from hexwar.model.hexgrid import Hex

    m.deploy = {"german": (Hex.from_label("A01"),)}
    d = m.to_json()
    assert d["schema_version"] == 2 and d["deploy"] == {"german": ["A01"]}
    d1 = dict(d, schema_version=1)
    # version 1 files go through the 1 -> 2 step, so a v1 file naming markers is read as v2
    assert BattleMap.from_json(d1).deploy == m.deploy


def test_a_file_from_a_newer_hexwar_is_refused_naming_schema_version(tmp_path):
    d = _map_doc()
    d["schema_version"] = 3
    with pytest.raises(ValidationError) as exc:
        BattleMap.from_json(d, "m.json")
    assert any(p.where == "schema_version" and "newer" in p.message for p in exc.value.problems)


def test_migrate_writes_atomically_and_never_over_another_file(tmp_path, capsys):
    dst = tmp_path / "save.json"
    shutil.copy(LEGACY / "save_standard_s1.json", dst)
    other = tmp_path / "other.json"
    other.write_text("keep")
    assert main(["migrate", str(dst), "--out", str(other)]) == 2
    assert other.read_text() == "keep"
    assert main(["migrate", str(dst)]) == 0  # prints, writes nothing
    assert json.loads(capsys.readouterr().out)["schema_version"] == 2
    assert json.loads(dst.read_text())["schema_version"] == 1
    assert main(["migrate", str(dst), "--in-place"]) == 0
    assert json.loads(dst.read_text())["schema_version"] == 2
    assert not list(tmp_path.glob(".*.tmp"))


def test_legacy_round1_files_load_validate_migrate_and_replay_with_verify(tmp_path, capsys):
    work = tmp_path / "legacy"
    shutil.copytree(LEGACY, work)
    saves = sorted(work.glob("save_*.json"))
    others = [str(f) for f in sorted((work / "maps").glob("*.json")) + sorted(work.glob("*.toml"))]
    assert main(["validate", *others]) == 0  # (validating a save replays it: done below, once)
    for save in saves:
        assert len(read_save(save).commands) > 50
    for f in others + [str(x) for x in saves]:
        assert main(["migrate", f, "--in-place"]) == 0, f
    capsys.readouterr()
    assert main(["validate", *others]) == 0
    for save in saves:
        assert json.loads(save.read_text())["schema_version"] == 2
        assert main(["replay", str(save), "--verify"]) == 0, save
    out = capsys.readouterr().out
    assert out.count("replays exactly") == 6


def test_validate_says_a_file_is_from_a_newer_hexwar_when_its_schema_version_is_ahead(tmp_path, capsys):
    # a fresh-user find: {"schema_version": 999} said only "format: missing"
    from hexwar.cli import main

    f = tmp_path / "v999.json"
    f.write_text('{"schema_version": 999}\n')
    assert main(["validate", str(f)]) == 1
    out = capsys.readouterr().out
    assert "format: missing" in out and "schema_version: 999 is newer than this hexwar reads" in out


def test_migrate_refuses_an_out_path_that_is_the_input_itself(tmp_path, capsys):
    import shutil

    from hexwar.cli import main

    src = next(Path("tests/data/legacy_e9c3826").rglob("*.json"))
    f = tmp_path / "old.json"
    shutil.copy(src, f)
    before = f.read_bytes()
    assert main(["migrate", str(f), "--out", str(tmp_path / "." / "old.json")]) == 2
    assert "give --in-place" in capsys.readouterr().err
    assert f.read_bytes() == before
