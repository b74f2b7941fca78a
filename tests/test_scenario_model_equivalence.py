"""The typed scenario model reads every scenario as the old loader did (issue 34, Proof item 1).

The old loader (``build_scenario`` with its hand-written checks of every field, main at 83fb709)
is kept as a frozen test oracle in tests/legacy_scenario_loader.py. On every shipped scenario and
on a seeded fuzz corpus of mutated scenarios:

- the two loaders accept and refuse the same documents;
- an accepted document gives the same scenario (every field, the map's text, the content hash);
- a refused one is refused at the same fields: every field the old loader named is named by the
  new one (the new one may name more). One exception, counted: when a part the model requires
  is broken (a side's ``deploy`` that is not a list of labels), the new loader reports every
  structural problem but runs no semantic check (cards, hexes on the map): the old one checked
  the rest of that side too. Such documents must be refused by both, and the new loader must
  name at least one field the old one named.

The seed of a failing document is printed with the mutations applied.
"""

from __future__ import annotations

import copy
import dataclasses
import random
import shutil
import tomllib
from pathlib import Path

import pytest
from legacy_scenario_loader import old_build_scenario

from hexwar.errors import ValidationError
from hexwar.formats.scenario_file import ScenarioFile
from hexwar.game.scenario import build_scenario
from hexwar.model.filemodel import read_lenient
from hexwar.paths import content_dir

DATA = Path(__file__).parent / "data"


def shipped_scenarios() -> list[Path]:
    """Every hex scenario the project ships or keeps as test data."""
    out = sorted(content_dir("scenarios").glob("*.toml")) + sorted((DATA / "legacy_e9c3826").glob("*.toml"))
    out += sorted(DATA.glob("game_*.toml"))
    return [p for p in out if tomllib.loads(p.read_text()).get("mode", "hex") == "hex"]


def outcome(loader, doc, text, path):
    """``("ok", scenario)`` or ``("refused", [(where, message), ...])`` of one loader."""
    try:
        return "ok", loader(copy.deepcopy(doc), text, path)
    except ValidationError as exc:
        return "refused", [(p.where, p.message) for p in exc.problems]


def same_scenario(a, b) -> None:
    for f in dataclasses.fields(a):
        if f.name == "battlemap":
            assert a.battlemap.to_text() == b.battlemap.to_text()
        else:
            assert getattr(a, f.name) == getattr(b, f.name), f.name


def near(w: str, new_where: list[str]) -> bool:
    """The old loader's field ``w`` is named by the new one (or a field inside it, or around it)."""
    return any(
        x == w or x.startswith(w + ".") or x.startswith(w + "[") or w.startswith(x + ".") for x in new_where
    )


def compare(doc, text: str, path: Path, tag: str) -> str:
    old, new = outcome(old_build_scenario, doc, text, path), outcome(build_scenario, doc, text, path)
    assert old[0] == new[0], f"{tag}: old {old[0]} {old[1] if old[0] == 'refused' else ''}, new {new[1]}"
    if old[0] == "ok":
        same_scenario(old[1], new[1])
    elif read_lenient(ScenarioFile, {k: v for k, v in doc.items() if k != "mode"}, "x").value is None:
        new_where = [w for w, _ in new[1]]
        assert any(near(w, new_where) for w, _ in old[1]), f"{tag}: old {old[1]}, new {new[1]}"
        return "required-broken"
    else:
        new_where = [w for w, _ in new[1]]
        for w, msg in old[1]:
            assert near(w, new_where), (
                f"{tag}: the old loader named {w!r} ({msg}); the new one named {new[1]}"
            )
    return old[0]


def test_every_shipped_scenario_loads_to_the_same_scenario_by_both_loaders():
    paths = shipped_scenarios()
    assert len(paths) >= 20
    for p in paths:
        text = p.read_text()
        assert compare(tomllib.loads(text), text, p, str(p)) == "ok"


def test_every_optional_field_left_out_loads_the_same_by_both_loaders():
    """Each optional key of a shipped scenario's tables left out in turn: the defaults agree."""
    n = 0
    for p in shipped_scenarios()[:6]:
        text = p.read_text()
        doc = tomllib.loads(text)
        for table, keys in (
            (
                "scenario",
                [
                    "seed",
                    "turns",
                    "victory_points",
                    "overrun",
                    "guns_move",
                    "rules",
                    "fog",
                    "night",
                    "ground",
                    "events",
                    "description",
                    "override_reserves",
                ],
            ),
            ("objectives", ["name", "points", "holder"]),
        ):
            for key in keys:
                d = copy.deepcopy(doc)
                parts = d.get(table)
                for part in parts if isinstance(parts, list) else [parts]:
                    if isinstance(part, dict) and key in part:
                        del part[key]
                        n += 1
                compare(d, text, p, f"{p.name} without {table}.{key}")
    assert n >= 20, n


# -- the fuzz corpus: seeded mutations of a small scenario with every kind of table -------------
VALUES = [
    0,
    -1,
    1,
    3,
    9,
    90,
    101,
    5000,
    "x",
    "",
    "D07",
    "A01:B08",
    "E05",
    "Z99",
    "A00",
    True,
    [],
    {},
    1.5,
]  # no None: TOML has no null
CARDS = ["de_grenadiers", "su_rifles", "de_pak40", "de_pilot_veteran", "de_tank_crew_green", "su_t70", "nope"]


def base_doc() -> dict:
    d = tomllib.loads((DATA / "game_tiny.toml").read_text())
    d["scenario"]["night"] = [2]
    d["scenario"]["rules"] = ["fog"]
    d["areas"] = {"village": ["E05..F06", "G07"]}
    d["battlefield"] = {"mines": ["E03"], "wrecks": {"E01": ["de-1"]}}
    d["victory"] = {"hold": {"side": "soviet", "turn": 3}}
    d["objectives"].append({"hex": "F02", "points": 2, "holder": "german"})
    return d


def _paths(doc, prefix=()):
    out = [prefix]
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += _paths(v, prefix + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out += _paths(v, prefix + (i,))
    return out


def mutate(d: dict, rng: random.Random) -> str:
    """One random change of ``d`` in place; returns what it did."""
    paths = [p for p in _paths(d) if p]
    path = paths[rng.randrange(len(paths))]
    parent = d
    for k in path[:-1]:
        parent = parent[k]
    how = rng.randrange(5)
    if how == 0 and isinstance(parent, dict):
        del parent[path[-1]]
        return f"del {path}"
    if how == 1 and isinstance(parent, dict):
        parent[rng.choice(["extra", "Turns", "hex"])] = rng.choice(VALUES)
        return f"key beside {path}"
    if how == 2 and isinstance(parent, list):
        parent.append(parent[rng.randrange(len(parent))])
        return f"dup in {path[:-1]}"
    v = rng.choice(CARDS) if how == 3 else rng.choice(VALUES)
    parent[path[-1]] = v
    return f"{path} = {v!r}"


def run_fuzz(n: int, seed0: int, folder: Path) -> dict[str, int]:
    shutil.copy(DATA / "game_tiny_map.json", folder / "game_tiny_map.json")
    path = folder / "fuzz.toml"
    base = base_doc()
    assert compare(base, "", path, "base") == "ok"
    counts = {"ok": 0, "refused": 0, "required-broken": 0}
    for seed in range(seed0, seed0 + n):
        rng = random.Random(seed)
        d = copy.deepcopy(base)
        done = [mutate(d, rng) for _ in range(rng.randint(1, 2))]
        counts[compare(d, "", path, f"seed {seed} {done}")] += 1
    return counts


def test_both_loaders_agree_on_a_seeded_fuzz_corpus_of_mutated_scenarios(tmp_path):
    counts = run_fuzz(250, 0, tmp_path)
    assert counts["ok"] >= 10 and counts["refused"] >= 120, counts
    assert counts["required-broken"] <= counts["refused"] // 3, counts


@pytest.mark.slow
def test_both_loaders_agree_on_a_larger_fuzz_corpus_of_scenarios(tmp_path):
    counts = run_fuzz(3000, 10_000, tmp_path)
    assert counts["ok"] >= 100, counts
