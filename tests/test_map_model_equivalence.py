"""The typed map model reads every map as the old loader did (issue 34, Proof item 1).

The old loader (``BattleMap.from_json`` with the hand-written JSON Schema, main at 412e83e) is
kept as a frozen test oracle in tests/legacy_map_loader.py. On every shipped map and on a seeded
fuzz corpus of mutated maps:

- the two loaders accept and refuse the same documents;
- an accepted document gives the same map (file text, arrays, deploy zones in order, markers);
- a refused one is refused at the same fields: every field the old loader named is named by the
  new one (the new one may name more: it keeps checking parts the old one skipped).

The seed of a failing document is printed with the mutations applied.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import numpy as np
import pytest
from legacy_map_loader import old_from_json

from hexwar.errors import ValidationError
from hexwar.model.maps import BattleMap
from hexwar.paths import content_dir

DATA = Path(__file__).parent / "data"


def shipped_maps() -> list[Path]:
    """Every map file the project ships or keeps as test data."""
    out = sorted(content_dir("maps").glob("*.json")) + sorted(
        (content_dir("scenarios") / "maps").glob("*.json")
    )
    out += sorted((DATA / "legacy_e9c3826" / "maps").glob("*.json"))
    out += [p for p in sorted(DATA.glob("*.json")) if json.loads(p.read_text()).get("format") == "hexwar-map"]
    return out


def outcome(loader, doc):
    """``("ok", map)`` or ``("refused", [(where, message), ...])`` of one loader on a copy of ``doc``."""
    try:
        return "ok", loader(copy.deepcopy(doc), "m.json")
    except ValidationError as exc:
        return "refused", [(p.where, p.message) for p in exc.problems]


def same_map(a: BattleMap, b: BattleMap) -> None:
    assert a.to_text() == b.to_text()
    for name in ("terrain", "level", "road", "rubble", "fire", "fire_turns"):
        assert np.array_equal(getattr(a, name), getattr(b, name)), name
    assert a.wrecks == b.wrecks and a.deploy == b.deploy and a.objectives == b.objectives
    assert (a.name, a.description, a.width, a.height) == (b.name, b.description, b.width, b.height)


def compare(doc, tag: str) -> str:
    old, new = outcome(old_from_json, doc), outcome(BattleMap.from_json, doc)
    assert old[0] == new[0], f"{tag}: old {old[0]} {old[1] if old[0] == 'refused' else ''}, new {new[1]}"
    if old[0] == "ok":
        same_map(old[1], new[1])
    else:
        new_where = [w for w, _ in new[1]]
        for w, msg in old[1]:
            assert any(x == w or x.startswith(w + " ") or w.startswith(x + ".") for x in new_where), (
                f"{tag}: the old loader named {w!r} ({msg}); the new one named {new_where}"
            )
    return old[0]


def test_every_shipped_map_loads_to_the_same_map_by_both_loaders():
    maps = shipped_maps()
    assert len(maps) >= 12
    for p in maps:
        assert compare(json.loads(p.read_text()), str(p)) == "ok"


# -- the fuzz corpus: seeded mutations of a small map with every kind of field ------------------
VALUES = [0, -1, 1, 501, 24, "x", "", "24", True, False, None, [], {}, 1.5, ["A01"], {"road": True}]
LABELS = ["A01", "D07", "ZZ99", "A00", "Q7Q", "a03", "AD24", "AE01", "B105", "", "7"]
FEATURE_KEYS = ["road", "rubble", "fire", "fire_turns", "wrecks", "smoke"]


def base_doc() -> dict:
    d = json.loads((content_dir("maps") / "steppe_village.json").read_text())
    d["schema_version"] = 2
    d["deploy"] = {"german": ["A01:C24"], "soviet": ["AB01:AD24"]}
    d["objectives"] = [{"hex": "P11", "name": "Church", "points": 10}, {"hex": "D07"}]
    return d


def mutate(d: dict, rng: random.Random) -> str:
    """One random change of ``d`` in place; returns what it did."""
    op = rng.randrange(12)
    if op == 0:
        k = rng.choice(["format", "schema_version", "name", "description", "width", "height", "levels"])
        v = rng.choice(VALUES + [1, 2, 3, "hexwar-map"])
        d[k] = v
        return f"{k}={v!r}"
    if op == 1:
        k = rng.choice(
            ["name", "description", "levels", "features", "deploy", "objectives", "terrain", "width"]
        )
        d.pop(k, None)
        return f"del {k}"
    if op == 2:
        d[rng.choice(["smell", "cells", "Name"])] = rng.choice(VALUES)
        return "extra key"
    if op in (3, 4) and isinstance(d.get("terrain"), list) and d["terrain"]:
        ri = rng.randrange(len(d["terrain"]))
        row = d["terrain"][ri]
        if isinstance(row, str) and row:
            ci = rng.randrange(len(row))
            ch = rng.choice(".hwfsXb?=~ é")
            d["terrain"][ri] = row[:ci] + ch + row[ci + 1 :] if op == 3 else row[:-1]
            return f"terrain[{ri}][{ci}]={ch!r} op{op}"
        return "noop"
    if op == 5 and isinstance(d.get("levels"), list) and d["levels"]:
        ri = rng.randrange(len(d["levels"]))
        row = d["levels"][ri]
        if isinstance(row, str) and row:
            ch = rng.choice("059x ")
            d["levels"][ri] = ch + row[1:]
            return f"levels[{ri}]={ch!r}"
        return "noop"
    if op in (6, 7):
        feats = d.setdefault("features", {})
        if not isinstance(feats, dict):
            return "noop"
        label = rng.choice(LABELS + list(feats)[:5])
        f = feats.setdefault(label, {}) if isinstance(feats.get(label, {}), dict) else {}
        key = rng.choice(FEATURE_KEYS)
        f[key] = rng.choice(VALUES + [True, ["su-1"], ["bogus"], 3, 1001])
        if rng.random() < 0.2:
            feats[label] = rng.choice(VALUES)
        return f"features.{label}.{key}"
    if op == 8:
        side = rng.choice(["german", "soviet", "italian"])
        specs = [rng.choice(["A01", "A01:C03", "C03:A01", "A01-C03", "AD24", "AE01:AF02", "B02:C03", 5])]
        if rng.random() < 0.5:
            specs.append(rng.choice(["D01:D24", "AB01", "ZZ99"]))
        deploy = d.get("deploy") if isinstance(d.get("deploy"), dict) else {}
        deploy[side] = rng.choice([specs, specs, [], "A01"])
        d["deploy"] = deploy
        return f"deploy.{side}={deploy[side]!r}"
    if op == 9:
        objs = d.get("objectives") if isinstance(d.get("objectives"), list) else []
        o = {"hex": rng.choice(LABELS + ["P11"])}
        if rng.random() < 0.5:
            o[rng.choice(["name", "points", "value"])] = rng.choice(VALUES + [5, "Hill"])
        objs.append(o if rng.random() < 0.9 else rng.choice(VALUES))
        d["objectives"] = objs
        return f"objectives+={o!r}"
    if op == 10 and isinstance(d.get("terrain"), list):
        d["terrain"].append(rng.choice(["." * 30, 5, "." * 29]))
        return "terrain row added"
    if op == 11:
        d["schema_version"] = rng.choice([1, 2, 3, "2", 0])
        return f"schema_version={d['schema_version']!r}"
    return "noop"


def run_fuzz(n: int, seed0: int) -> dict[str, int]:
    base = base_doc()
    counts = {"ok": 0, "refused": 0}
    for seed in range(seed0, seed0 + n):
        rng = random.Random(seed)
        d = copy.deepcopy(base)
        done = [mutate(d, rng) for _ in range(rng.randint(1, 3))]
        counts[compare(d, f"seed {seed} {done}")] += 1
    return counts


def test_both_loaders_agree_on_a_seeded_fuzz_corpus_of_mutated_maps():
    counts = run_fuzz(400, 0)
    # the corpus reaches both outcomes often enough to mean something
    assert counts["ok"] >= 30 and counts["refused"] >= 200, counts


@pytest.mark.slow
def test_both_loaders_agree_on_a_larger_fuzz_corpus():
    counts = run_fuzz(5000, 10_000)
    assert counts["ok"] >= 300, counts
