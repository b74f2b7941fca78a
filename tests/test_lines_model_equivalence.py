"""The line scenario model reads every line scenario as the old parser did (issue 34, Proof item 1).

The old parser (``parse_lines_scenario`` with hand checks of every field, main at 83fb709) is kept
as a frozen test oracle in tests/legacy_lines_parser.py. On every shipped line scenario and a
seeded fuzz corpus of mutated ones:

- the two parsers accept and refuse the same documents (exceptions, counted: the old parser read a
  ``units`` value that is not a list as no units, and checked ``scenario.seed`` and
  ``scenario.special_rules`` only after it had decided to accept, so a bad one was taken as 0 or
  none; and it did not look at the keys of ``win.hold``; the model refuses all these);
- an accepted document gives the same scenario (every field);
- a refused one is refused at the same fields: every field the old parser named is named by the
  new one (or a field inside it), except when a part the model requires is broken (then the new
  one names at least one field the old one named).
"""

from __future__ import annotations

import copy
import dataclasses
import random
import tomllib
from pathlib import Path

import pytest
from legacy_lines_parser import old_parse_lines_scenario
from test_scenario_model_equivalence import mutate

from hexwar.errors import ValidationError
from hexwar.formats.lines_file import LinesScenarioFile
from hexwar.lines.scenario import parse_lines_scenario
from hexwar.model.filemodel import read_lenient
from hexwar.paths import content_dir


def line_scenarios() -> list[Path]:
    return [
        p
        for p in sorted(content_dir("scenarios").glob("*.toml"))
        if tomllib.loads(p.read_text()).get("mode") == "lines"
    ]


def outcome(parser, doc, path):
    try:
        return "ok", parser(copy.deepcopy(doc), "", path)
    except ValidationError as exc:
        return "refused", [(p.where, p.message) for p in exc.problems]


def near(w: str, new_where: list[str]) -> bool:
    return any(x == w or x.startswith((w + ".", w + "[")) or w.startswith(x + ".") for x in new_where)


def compare(doc, path: Path, tag: str) -> str:
    old, new = outcome(old_parse_lines_scenario, doc, path), outcome(parse_lines_scenario, doc, path)
    if old[0] == "ok" and new[0] == "refused":
        stricter = (".units", "scenario.seed", "scenario.special_rules")
        assert all(
            w.endswith(stricter) or w.startswith(stricter[1:]) or m.startswith("unknown field")
            for w, m in new[1]
        ), f"{tag}: old ok, new {new[1]}"
        return "stricter"
    assert old[0] == new[0], f"{tag}: old {old[0]} {old[1] if old[0] == 'refused' else ''}, new {new[1]}"
    if old[0] == "ok":
        for f in dataclasses.fields(old[1]):
            assert getattr(old[1], f.name) == getattr(new[1], f.name), f"{tag}: {f.name}"
        return "ok"
    new_where = [w for w, _ in new[1]]
    if read_lenient(LinesScenarioFile, doc, "x").value is None:
        assert any(near(w, new_where) for w, _ in old[1]), f"{tag}: old {old[1]}, new {new[1]}"
        return "required-broken"
    for w, msg in old[1]:
        assert near(w, new_where), f"{tag}: the old parser named {w!r} ({msg}); the new one named {new[1]}"
    return "refused"


def test_every_shipped_line_scenario_parses_to_the_same_scenario_by_both_parsers():
    paths = line_scenarios()
    assert len(paths) >= 6
    for p in paths:
        assert compare(tomllib.loads(p.read_text()), p, str(p)) == "ok"


def run_fuzz(n: int, seed0: int) -> dict[str, int]:
    bases = [(p, tomllib.loads(p.read_text())) for p in line_scenarios()]
    counts = {"ok": 0, "refused": 0, "required-broken": 0, "stricter": 0}
    for seed in range(seed0, seed0 + n):
        rng = random.Random(seed)
        path, base = bases[rng.randrange(len(bases))]
        d = copy.deepcopy(base)
        done = [mutate(d, rng) for _ in range(rng.randint(1, 2))]
        d["mode"] = "lines"  # the loader branches on mode before either parser (hexwar.game.modes)
        counts[compare(d, path, f"seed {seed} {path.name} {done}")] += 1
    return counts


def test_both_parsers_agree_on_a_seeded_fuzz_corpus_of_line_scenarios():
    counts = run_fuzz(300, 0)
    assert counts["ok"] >= 20 and counts["refused"] >= 100, counts
    assert counts["required-broken"] <= counts["refused"] // 3, counts


@pytest.mark.slow
def test_both_parsers_agree_on_a_larger_fuzz_corpus_of_line_scenarios():
    counts = run_fuzz(3000, 10_000)
    assert counts["ok"] >= 200 and counts["refused"] >= 1000, counts
