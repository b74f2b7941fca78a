"""A plain map document is read without the map model, to the model's own value (issue 35, fifth
session: a generated 500x500 map's first load no longer imports pydantic).

:func:`hexwar.model.map_format.lean_document` must never accept what the strict model refuses or
would change, and what it accepts must be the model's value exactly: the same fields in the same
order, the same types (lists stay lists, ints stay ints), each hex's features in the model's key
order, the same ``model_fields_set`` at every level. Checked on every shipped and test map, on
generated maps, and on the seeded fuzz corpus of tests/test_map_model_equivalence.py (a failing
document is named by its seed and mutations). Anything it does not accept goes through the model,
so every problem report stays the model's (tests/test_maps.py and the equivalence tests).
"""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys

import pytest
from pydantic import BaseModel
from test_map_model_equivalence import base_doc, mutate, shipped_maps

from hexwar.errors import ValidationError
from hexwar.mapgen import generate
from hexwar.model.compiled_docs import Doc
from hexwar.model.documents import upgrade_document
from hexwar.model.filemodel import validate
from hexwar.model.map_file import MapFile
from hexwar.model.map_format import MAP_MIGRATIONS, MAP_SCHEMA_VERSION, lean_document
from hexwar.model.maps import BattleMap


def canon(v):
    """A value as nested tuples that keep every order, type and fields-set (Doc or model alike)."""
    if isinstance(v, (Doc, BaseModel)):
        return ("model", tuple((k, canon(x)) for k, x in v), tuple(sorted(v.model_fields_set)))
    if isinstance(v, dict):
        return ("dict", tuple((k, canon(x)) for k, x in v.items()))
    if isinstance(v, (list, tuple)):
        return (type(v).__name__, tuple(canon(x) for x in v))
    return (type(v).__name__, v)


def model_value(doc):
    """The map model's value of ``doc``, or ``None`` when the model refuses it."""
    try:
        return validate(MapFile, copy.deepcopy(doc))
    except Exception:  # pydantic.ValidationError
        return None


def upgraded(doc):
    """``doc`` as ``BattleMap.from_json`` hands it to the model: a version 1 map migrated."""
    if isinstance(doc, dict) and doc.get("format") == "hexwar-map":
        try:
            return upgrade_document(doc, MAP_SCHEMA_VERSION, MAP_MIGRATIONS, "m.json")[0]
        except ValidationError:
            pass
    return doc


def check_lean(doc, tag: str) -> bool:
    """Assert the lean reading of ``doc`` is ``None`` or the model's value; True when it read it."""
    doc = upgraded(doc)
    lean = lean_document(copy.deepcopy(doc))
    if lean is None:
        return False
    want = model_value(doc)
    assert want is not None, f"{tag}: read without the model, but the model refuses it"
    assert canon(lean) == canon(want), f"{tag}: the value differs from the model's"
    return True


def test_every_shipped_and_test_map_reads_to_the_models_value():
    read = 0
    for p in shipped_maps():
        doc = json.loads(p.read_text())
        read += check_lean(doc, str(p))
    assert read >= 13  # the shipped maps (version 1, migrated) and the test maps


@pytest.mark.parametrize("style", ["village", "steppe"])
def test_a_generated_map_reads_to_the_models_value(style):
    m = generate(60, 40, seed=7, style=style)
    doc = json.loads(m.to_text())
    doc["objectives"] = [{"hex": "D07", "points": 3}, {"name": "Hill", "hex": "E08"}]
    doc["features"]["B02"] = {"wrecks": ["su-1"], "fire_turns": 2, "fire": True}  # keys out of order
    assert m.deploy and check_lean(doc, style)


def test_the_fuzz_corpus_reads_to_the_models_value_or_goes_through_the_model():
    base = base_doc()
    read = refused = 0
    for seed in range(600):
        rng = random.Random(seed)
        d = copy.deepcopy(base)
        done = [mutate(d, rng) for _ in range(rng.randint(1, 3))]
        read += check_lean(d, f"seed {seed} {done}")
        refused += model_value(upgraded(d)) is None
    assert read >= 80 and refused >= 300, (read, refused)  # both kinds, often


@pytest.mark.parametrize(
    "change",
    [
        {"width": True},
        {"width": 24.0},
        {"height": 501},
        {"schema_version": 1},
        {"format": "hexwar-mapx"},
        {"name": None},
        {"smell": 1},
        {"levels": ["0" * 30 + "\n"]},
        {"features": {"A01\n": {"road": True}}},
        {"features": {"A01": {"road": 1}}},
        {"features": {"A01": {"fire_turns": 1}}},
        {"features": {"A01": {"fire": True, "fire_turns": 1001}}},
        {"features": {"A01": {"wrecks": "su-1"}}},
        {"features": {"A01": {"smoke": True}}},
        {"deploy": {"german": []}},
        {"deploy": {"italian": ["A01"]}},
        {"deploy": {"german": ["A01-C03"]}},
        {"objectives": [{"name": "x"}]},
        {"objectives": [{"hex": "A01", "points": -1}]},
        {"objectives": [{"hex": "A01", "value": 1}]},
    ],
)
def test_what_the_model_refuses_goes_through_the_model(change):
    doc = dict(base_doc(), **change)
    assert lean_document(copy.deepcopy(doc)) is None
    assert model_value(doc) is None  # and the model does refuse it


def test_a_refused_map_reports_the_models_problems():
    doc = dict(base_doc(), width=True)
    with pytest.raises(ValidationError) as exc:
        BattleMap.from_json(doc, "m.json")
    assert [(p.where, p.message) for p in exc.value.problems] == [
        ("width", "expected an integer 1..500 (hexes), got true")
    ]


def test_a_plain_map_loads_without_importing_pydantic(tmp_path):
    p = tmp_path / "gen.json"
    generate(80, 60, seed=3).save(p)
    code = (
        "import sys; from hexwar.model.maps import BattleMap; m = BattleMap.load(sys.argv[1]); "
        "print(m.width, m.height, len(m.deploy['german']), 'pydantic' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code, str(p)], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["80", "60", str(len(BattleMap.load(p).deploy["german"])), "False"]


def eager_zones(doc) -> dict:
    """The deploy zones as the loader made them before issue 35's fifth session: each side's
    specs' hexes in file order, each hex once."""
    from hexwar.model.map_format import zone_hexes

    out = {}
    for side, specs in doc.get("deploy", {}).items():
        zone, seen = [], set()
        for spec in specs:
            for x in zone_hexes(spec):
                if x not in seen:
                    seen.add(x)
                    zone.append(x)
        out[side] = tuple(zone)
    return out


@pytest.mark.parametrize(
    "deploy",
    [
        {"soviet": ["AB01:AD24"], "german": ["A01:C24"]},
        {"german": ["B02:D05", "C04:F09", "D07", "A01"], "soviet": ["AB01", "AB01:AC02"]},
        {"german": ["D07"]},
    ],
)
def test_deploy_zones_made_at_first_read_are_the_zones_a_load_made(deploy, tmp_path):
    """Issue 35: a load keeps the zones' rectangles; their hexes (in file order, each once, the
    sides in file order) are made when ``deploy`` is first read, by a copy or after pickling too."""
    import pickle

    doc = dict(base_doc(), deploy=deploy)
    want = eager_zones(doc)
    m = BattleMap.from_json(copy.deepcopy(doc), "m.json")
    assert m.__dict__["_deploy_rects"]  # not made yet
    assert list(m.deploy.items()) == list(want.items())
    for other in (
        BattleMap.from_json(copy.deepcopy(doc), "m.json").copy(),
        pickle.loads(pickle.dumps(BattleMap.from_json(copy.deepcopy(doc), "m.json"))),
    ):
        assert list(other.deploy.items()) == list(want.items())
    fresh = BattleMap.from_json(copy.deepcopy(doc), "m.json")
    fresh.deploy = {"german": (m.deploy["german"][0],)}  # a new value replaces the deferred zones
    assert fresh.deploy == {"german": (m.deploy["german"][0],)}
    p = tmp_path / "m.json"
    m.save(p)
    back = BattleMap.load(p).deploy  # written as merged rectangles, german first: the same hexes
    assert {s: set(z) for s, z in back.items()} == {s: set(z) for s, z in want.items()}


def test_overlapping_deferred_zones_are_still_refused():
    doc = dict(base_doc(), deploy={"german": ["A01:C24"], "soviet": ["C20:D24"]})
    with pytest.raises(ValidationError) as exc:
        BattleMap.from_json(doc, "m.json")
    assert [(p.where, p.message) for p in exc.value.problems] == [
        ("deploy", "the german and soviet deploy zones overlap in 5 hexes, e.g. C20")
    ]
