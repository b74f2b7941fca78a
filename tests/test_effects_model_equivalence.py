"""The effects-table model reads hexwar/data/effects.toml as the old parser did (issue 34).

The old parser (tests/legacy_effects_parser.py, frozen) and the model-based one agree on the
shipped table and on a seeded fuzz corpus of mutations of it: the same tables accepted with the
same numbers, the same ones refused, every field the old one named named by the new one (or a
field inside it). One exception, counted: the old parser ignored unknown keys; the model refuses
them (a misspelt key is a mistake to report).
"""

from __future__ import annotations

import copy
import random
import tomllib
from importlib import resources

from legacy_effects_parser import old_parse_effects
from test_scenario_model_equivalence import mutate

from hexwar.errors import ValidationError
from hexwar.rules.terrain_effects import _parse_effects

TABLE = tomllib.loads((resources.files("hexwar") / "data" / "effects.toml").read_text())


def outcome(parser, doc):
    try:
        return "ok", parser(copy.deepcopy(doc), "e.toml")
    except ValidationError as exc:
        return "refused", [(p.where, p.message) for p in exc.problems]


def test_both_parsers_agree_on_the_effects_table_and_its_mutations():
    counts = {"ok": 0, "refused": 0, "stricter": 0}
    for seed in range(-1, 600):
        d = copy.deepcopy(TABLE)
        rng = random.Random(seed)
        done = [mutate(d, rng) for _ in range(rng.randint(1, 2))] if seed >= 0 else []
        old, new = outcome(old_parse_effects, d), outcome(_parse_effects, d)
        tag = f"seed {seed} {done}"
        if old[0] == "ok" and new[0] == "refused":
            assert all(m.startswith("unknown field") for _, m in new[1]), f"{tag}: {new[1]}"
            counts["stricter"] += 1
            continue
        assert old[0] == new[0], f"{tag}: old {old}, new {new}"
        if old[0] == "ok":
            assert old[1] == new[1], tag
        else:
            got = [w for w, _ in new[1]]
            for w, msg in old[1]:
                assert any(
                    x == w or x.startswith((w + ".", w + "[")) or w.startswith(x + ".") for x in got
                ), f"{tag}: old {w} {msg}; new {new[1]}"
        counts[old[0]] += 1
    assert counts["ok"] >= 25 and counts["refused"] >= 200, counts
