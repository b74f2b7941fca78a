"""The typed file models check structure exactly as the hand-written JSON Schemas did (issue 34).

The scenario and save schemas of main at 412e83e are kept in tests/data/legacy_schemas/ and
checked with ``jsonschema`` (tests/legacy_map_loader.py: the old checker); the models replace them
in ``hexwar.formats.schema.schema_problems``. On seeded corpora of mutated scenarios (the mutator
of tests/test_validate_play.py) and mutated saves (every legacy save of tests/data), both name
the same problems: the same field paths with the same messages. The failing seed is printed.
"""

from __future__ import annotations

import copy
import json
import random
import tomllib
from pathlib import Path

from legacy_map_loader import old_schema_problems
from test_validate_play import BASES, all_ids
from test_validate_play import mutate as mutate_scenario

from hexwar.formats.migrate import upgrade
from hexwar.formats.save_file import SaveFile
from hexwar.formats.scenario_file import ScenarioFile
from hexwar.model.filemodel import check

LEGACY = Path(__file__).parent / "data" / "legacy_e9c3826"


def same_problems(doc, model, kind: str, tag: str) -> bool:
    old = sorted({(p.where, p.message) for p in old_schema_problems(doc, "f", kind)})
    new = sorted({(p.where, p.message) for p in check(model, doc, "f")[1]})
    assert old == new, (
        f"{tag}: only the old schema: {set(old) - set(new)}; only the model: {set(new) - set(old)}"
    )
    return bool(old)


def test_the_scenario_model_names_the_problems_the_scenario_schema_named():
    ids = all_ids()
    bases = [tomllib.loads(p.read_text()) for p in BASES]
    refused = 0
    for seed in range(400):
        rng = random.Random(seed)
        doc, done = mutate_scenario(rng.choice(bases), rng, ids)
        refused += same_problems(doc, ScenarioFile, "scenario", f"seed {seed} {done}")
    assert refused >= 60, refused  # the corpus reaches the structure often enough to mean something


VALUES = [0, -1, 1, "x", "", True, None, [], {}, 1.5, "german", "lines", "hex", ["fast"], {"a": 1}]


def mutate_save(d: dict, rng: random.Random) -> None:
    """One random change of a save document, in place."""
    op = rng.randrange(8)
    if op == 0:
        d[rng.choice([*d, "cheat", "mode"])] = rng.choice(VALUES)
    elif op == 1:
        d.pop(rng.choice(list(d)), None)
    elif op == 2 and isinstance(d.get("scenario"), dict):
        k = rng.choice(["id", "name", "path", "hash", "map", "x"])
        if rng.random() < 0.4:
            d["scenario"].pop(k, None)
        else:
            d["scenario"][k] = rng.choice([*VALUES, "generated:7", "abc", "0" * 64])
    elif op == 3 and isinstance(d.get("commands"), list) and d["commands"]:
        c = rng.choice(d["commands"])
        if isinstance(c, dict):
            k = rng.choice(["cmd", "side", "seat", "hex", "unit"])
            if rng.random() < 0.5:
                c.pop(k, None)
            else:
                c[k] = rng.choice([*VALUES, "soviet-front"])
    elif op == 4 and isinstance(d.get("commands"), list):
        d["commands"].append(rng.choice([*VALUES, {"cmd": "x"}, {"side": "german"}]))
    elif op == 5 and isinstance(d.get("checkpoints"), list):
        d["checkpoints"].append(
            rng.choice(
                [
                    {"turn": 1},
                    {"turn": -1, "commands": 1, "hash": "x"},
                    {"turn": 1, "commands": 1, "hash": 5},
                    5,
                ]
            )
        )
    elif op == 6 and isinstance(d.get("final"), dict):
        k = rng.choice(["turn", "phase", "commands", "hash", "result", "x", "log_hash"])
        if rng.random() < 0.4:
            d["final"].pop(k, None)
        else:
            d["final"][k] = rng.choice(VALUES)
    elif op == 7:
        d["players"] = rng.choice([{"italian": "ai"}, {"german": 5}, {"soviet-front": "x"}, [], "x"])


def test_the_save_model_names_the_problems_the_save_schema_named():
    saves = [upgrade(json.loads(p.read_text()), "save")[0] for p in sorted(LEGACY.glob("save_*.json"))]
    assert len(saves) == 6
    for s in saves:
        assert same_problems(s, SaveFile, "save", "unchanged") is False
        s["commands"] = s["commands"][:30]  # the first commands hold every kind of field
    refused = 0
    for seed in range(400):
        rng = random.Random(seed)
        doc = copy.deepcopy(rng.choice(saves))
        for _ in range(rng.randint(1, 3)):
            mutate_save(doc, rng)
        refused += same_problems(doc, SaveFile, "save", f"seed {seed}")
    assert refused >= 300, refused


def test_the_format_references_are_generated_from_the_models_and_current():
    import importlib.util

    root = Path(__file__).resolve().parent.parent
    spec = importlib.util.spec_from_file_location("format_docs", root / "tools" / "format_docs.py")
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    assert tool.main(["--check"]) == 0, (
        "docs/*-format.md field tables are stale: run python tools/format_docs.py"
    )
    maps = (root / "docs" / "maps-format.md").read_text()
    # one row per field of the model, with the model's own description
    assert "| `width` | integer 1..500 | required | an integer 1..500 (hexes) |" in maps
    assert "| `features.<a hex label like D07>.fire_turns` | integer 0..1000 |" in maps


def test_a_broken_deck_file_reports_model_and_card_problems_at_once(tmp_path):
    from hexwar.errors import ValidationError
    from hexwar.lines.scenario import load_deck

    p = tmp_path / "d.toml"
    p.write_text('format = "hexwar-dock"\n[deck]\nside = "italian"\ncolour = "red"\ncards = ["de_nope"]\n')
    try:
        load_deck(p)
    except ValidationError as exc:
        got = [(x.where, x.message) for x in exc.problems]
    else:
        raise AssertionError("a broken deck loaded")
    wheres = [w for w, _ in got]
    assert wheres[:3] == ["format", "deck.side", "deck.colour"], got
    assert got[1][1] == 'expected a side: german or soviet, got "italian"'
    # the card check after the model still runs on the cards of a deck the model refused
    assert any(w == "deck.cards" and "de_nope" in m for w, m in got), got
