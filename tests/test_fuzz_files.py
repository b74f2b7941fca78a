"""Fuzzing every file kind hexwar reads, and tampering with the saves of all three games (issue 33).

* Fuzz (:mod:`fuzz_files`): seeded mutants of a valid sample of each kind - maps, hex and line
  scenarios, hex, line and campaign saves, decks, terrain tables, card files, Tiled .tmx/.tmj
  and tile tables, Wesnoth .map, protocol messages. Each mutant is either accepted (then a few
  commands are played from it) or refused with a HexwarError naming the file; no traceback, no
  hang (per-case timeout), no "validates but fails to play". The default run tries a few
  mutants of each kind; ``-m slow`` tries 20,000 (``HEXWAR_FUZZ_CASES`` overrides).
* Tamper: one changed byte (or value) in a save of each game; every change that changes the game
  (anything but whitespace, key order or the informational ``scenario.path``) must be refused by
  ``replay --verify``. Default: a few per game; ``-m slow``: 2,000 across the three.

A failure prints the kind, the seed and the mutation, so one case reruns alone.
"""

from __future__ import annotations

import json
import os
import random
from collections import Counter
from pathlib import Path

import pytest
from fuzz_files import KINDS, build_corpus, check_case

FAILURES = ("traceback", "hang", "unnamed", "validates-but-fails")


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    return build_corpus(tmp_path_factory.mktemp("fuzz") / "corpus")


def _fuzz(corpus: Path, work: Path, per_kind: int, first_seed: int = 0) -> Counter:
    work.mkdir(exist_ok=True)
    outcomes: Counter = Counter()
    failures: list[str] = []
    for kind in KINDS:
        for seed in range(first_seed, first_seed + per_kind):
            outcome, detail = check_case(kind, corpus, work, seed)
            outcomes[outcome] += 1
            outcomes[f"{kind.name}:{outcome}"] += 1
            if outcome in FAILURES:
                failures.append(f"{outcome}: {detail}")
    assert not failures, f"{len(failures)} failing mutants:\n" + "\n".join(failures[:10])
    return outcomes


def test_every_file_kind_has_a_valid_sample_that_is_accepted(corpus, tmp_path):
    from fuzz_files import _names_a_file  # noqa: F401 - the oracle module loads

    for kind in KINDS:
        kind.use(corpus / kind.file)  # the unmutated sample loads and plays


def test_fuzz_a_few_mutants_of_every_file_kind(corpus, tmp_path):
    n = int(os.environ.get("HEXWAR_FUZZ_PER_KIND", "3"))
    out = _fuzz(corpus, tmp_path / "work", n, first_seed=1_000_000)  # fixed: a failure reruns
    assert out["accepted"] + out["refused"] == n * len(KINDS)


@pytest.mark.slow
def test_fuzz_20000_mutants_across_the_file_kinds(corpus, tmp_path, capsys):
    total = int(os.environ.get("HEXWAR_FUZZ_CASES", "20000"))
    per_kind = -(-total // len(KINDS))
    out = _fuzz(corpus, tmp_path / "work", per_kind)
    with capsys.disabled():
        print(
            f"\nfuzz: {per_kind * len(KINDS)} mutants, {out['accepted']} accepted and played, "
            f"{out['refused']} refused naming the file, 0 tracebacks, 0 hangs, 0 validates-but-fails"
        )
        for kind in KINDS:
            print(
                f"  {kind.name}: accepted {out[kind.name + ':accepted']}, refused {out[kind.name + ':refused']}"
            )


# -- tampering with saves ------------------------------------------------------------------------
SAVES = {"hex": "save_hex.json", "lines": "save_lines.json", "campaign": "save_war.json"}


def _verify(path: Path) -> bool:
    """``hexwar replay --verify``'s answer for ``path`` (through the same functions)."""
    from hexwar.campaign.save import load_campaign
    from hexwar.errors import HexwarError
    from hexwar.game.save import load_game

    try:
        (load_campaign if "war" in path.name else load_game)(path)
        return True
    except HexwarError:
        return False


def _same_game(a: bytes, b: bytes) -> bool:
    """Whether two save texts describe the same game: equal as JSON documents, but for the
    informational ``scenario.path`` (the recorded absolute path; the scenario's content is
    bound by ``scenario.hash``) and ``schema_version`` 1 vs 2 (2 only adds the optional
    ``scenario.map``)."""
    try:
        da, db = json.loads(a), json.loads(b)
    except ValueError:
        return False
    for d in (da, db):
        if isinstance(d, dict):
            if isinstance(d.get("scenario"), dict):
                d["scenario"].pop("path", None)
            if d.get("schema_version") in (1, 2) and "scenario" in d:
                d["schema_version"] = 1
    if da == db:
        return True
    pa, pb = _parsed(json.loads(a)), _parsed(json.loads(b))
    return pa is not None and pa == pb  # "c05" and "C05" name the same hex (R2.2)


def _parsed(doc):
    """The save as hexwar reads it (commands parsed), without the fields that do not describe
    the game (the file's own path, the recorded scenario path); ``None`` when it does not parse."""
    import dataclasses

    from hexwar.campaign.save import _parse as parse_campaign
    from hexwar.errors import HexwarError
    from hexwar.game.save import parse_save

    try:
        if isinstance(doc, dict) and doc.get("format") == "hexwar-campaign-save":
            return dataclasses.replace(parse_campaign(doc, "x"), path="")
        return dataclasses.replace(parse_save(doc, "x"), path="", scenario_path="")
    except HexwarError:
        return None


def _tamper(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    """One changed byte (printable, so JSON stays likely to parse), or one changed value."""
    b = bytearray(data)
    if rng.random() < 0.7:
        i = rng.randrange(len(b))
        old = b[i]
        b[i] = rng.choice(b'0123456789abcdef" ,:{}[]-.etnrufalsgmo')
        return bytes(b), f"byte {i}: {chr(old)!r} -> {chr(b[i])!r}"
    doc = json.loads(data)
    from fuzz_files import VALUES, _get, _paths

    paths = [p for p in _paths(doc) if p]
    path = paths[rng.randrange(len(paths))]
    parent = _get(doc, path[:-1])
    v = VALUES[rng.randrange(len(VALUES))] if rng.random() < 0.5 else _nudge(parent[path[-1]], rng)
    parent[path[-1]] = v
    return json.dumps(doc, indent=2, ensure_ascii=False).encode(), f"set {path} = {v!r}"[:160]


def _nudge(v, rng):
    if isinstance(v, bool):
        return not v
    if isinstance(v, int):
        return v + rng.choice((-1, 1))
    if isinstance(v, str) and v:
        i = rng.randrange(len(v))
        return v[:i] + rng.choice("0123456789abcdefxyz") + v[i + 1 :]
    if isinstance(v, list) and v:
        return v[:-1]
    return None


def _tamper_run(corpus: Path, work: Path, per_game: int, first_seed: int) -> Counter:
    work.mkdir(exist_ok=True)
    for f in corpus.iterdir():
        (work / f.name).write_bytes(f.read_bytes())
    out: Counter = Counter()
    bad: list[str] = []
    for game, name in SAVES.items():
        original = (corpus / name).read_bytes()
        target = work / name
        for seed in range(first_seed, first_seed + per_game):
            data, what = _tamper(original, random.Random(seed))
            target.write_bytes(data)
            same = _same_game(original, data)
            ok = _verify(target)
            out[f"{game}:{'same' if same else 'changed'}:{'verified' if ok else 'refused'}"] += 1
            if ok and not same:
                bad.append(f"{game} seed {seed}: {what} verifies but changes the game")
        target.write_bytes(original)
        assert _verify(target), f"the untouched {game} save must verify"
    assert not bad, "\n".join(bad[:10])
    return out


def test_tamper_a_few_bytes_of_each_games_save(corpus, tmp_path):
    n = int(os.environ.get("HEXWAR_TAMPER_PER_GAME", "4"))
    out = _tamper_run(corpus, tmp_path / "work", n, 1_000_000)
    assert sum(out.values()) == 3 * n


@pytest.mark.slow
def test_tamper_2000_saves_of_the_three_games(corpus, tmp_path, capsys):
    total = int(os.environ.get("HEXWAR_TAMPER_CASES", "2000"))
    per_game = -(-total // 3)
    out = _tamper_run(corpus, tmp_path / "work", per_game, 0)
    with capsys.disabled():
        changed = sum(v for k, v in out.items() if ":changed:" in k)
        print(
            f"\ntamper: {3 * per_game} tampered saves, {changed} change the game, all refused; "
            f"0 verify while differing from the game played"
        )
        for k in sorted(out):
            print(f"  {k}: {out[k]}")
