"""The card file models read the card data as the old reader did (issue 34, Proof item 1).

The old loader (hand-written getters for every field, hexwar/rules/cards/loader.py and reader.py
at 83fb709) is kept as a frozen test oracle in tests/legacy_card_loader.py. On the shipped card
folder and on a seeded fuzz corpus (one card file of a copy of the folder changed: a value set,
a key deleted or added, an item duplicated):

- the two loaders accept and refuse the same folders, and each card file alone the same way;
- an accepted folder gives the same card set (every card, in order, and the combat numbers);
- a refused one is refused at the same fields: every (file, field) the old loader named is named
  by the new one, or a field inside it. Two exceptions: the old loader went on reading a card
  file whose header was broken as an empty file of its kind (so it also named that kind's
  tables in a file that was not read); it took any value for a Command or Event card's
  ``note`` (turned into text), where the model asks for text; and it ignored unknown keys in
  some tables (a file's top level, endurances, crew names and costs), which the model refuses
  as everywhere else (a misspelt key is a mistake to report). A folder only the new loader
  refuses is refused for such keys or notes only. And where a unit's ``type`` is refused, the
  old loader went on checking the rules of that type (crew, line, mobility) against it; the
  new one names the type. A Damage card without an id was named ``damage.damageN`` by the old
  loader, ``damage[N]`` by the new one; and it counted the decks against a deck size it had
  refused.
"""

from __future__ import annotations

import copy
import random
import re
import shutil
import tomllib
from pathlib import Path

import pytest
from fuzz_files import VALUES, _paths, _toml_dump
from legacy_card_loader import old_load_cards, old_validate_card_file

from hexwar.errors import ValidationError
from hexwar.rules.cards.loader import load_cards, validate_card_file

DATA = Path(__file__).resolve().parent.parent / "hexwar" / "data" / "cards"


def outcome(fn, arg):
    try:
        return "ok", fn(arg)
    except ValidationError as exc:
        return "refused", [(Path(p.file).name, p.where, p.message) for p in exc.problems]


def same_cards(a, b) -> None:
    for f in ("weapons", "units", "qualities", "command", "damage", "events"):
        assert list(getattr(a, f).items()) == list(getattr(b, f).items()), f
    assert a.rules == b.rules


def compare(old, new, tag: str, folder: Path) -> str:
    if old[0] == "ok" and new[0] == "refused":
        assert all(m.startswith("unknown field") or w.endswith(".note") for _, w, m in new[1]), (
            f"{tag}: {new[1]}"
        )
        return "stricter"
    assert old[0] == new[0], f"{tag}: old {old[0]} {old[1] if old[0] == 'refused' else ''}, new {new[1]}"
    if old[0] == "ok":
        if old[1] is not None:
            same_cards(old[1], new[1])
        return "ok"
    got = [(f, w) for f, w, _ in new[1]]
    unread = {f for f, w, _ in new[1] if w in ("format", "schema_version", "kind", "")}
    for f, w, msg in old[1]:
        if not (folder / f).exists() or f in unread or w.endswith(".note"):
            continue  # the exceptions of the module docstring
        if (f, w.rsplit(".", 1)[0] + ".type") in got:
            continue  # the old loader checked the unit against a type it had refused
        m = re.match(r"damage\.damage(\d+)\b", w)
        if m and any(nw.startswith(f"damage[{m.group(1)}]") for _, nw in got):
            continue  # the old loader's made-up id of a Damage card without one
        if w in ("command", "damage") and ("combat.toml", f"combat.{w}_deck_size") in got:
            continue  # the old loader counted the deck against the size it had refused
        assert (
            any(
                nf == f and (nw == w or nw.startswith((w + ".", w + "[")) or w.startswith(nw + ".") or not w)
                for nf, nw in got
            )
            or (f, w) in got
        ), f"{tag}: the old loader named {f} {w!r} ({msg}); the new one named {new[1]}"
    return "refused"


def test_the_shipped_cards_load_to_the_same_card_set_by_both_loaders():
    assert compare(outcome(old_load_cards, DATA), outcome(load_cards, DATA), "shipped", DATA) == "ok"
    for p in sorted(DATA.glob("*.toml")):
        assert (
            compare(
                outcome(old_validate_card_file, str(p)), outcome(validate_card_file, str(p)), p.name, DATA
            )
            == "ok"
        )


def mutate(doc: dict, rng: random.Random) -> str:
    paths = [p for p in _paths(doc) if p]
    path = paths[rng.randrange(len(paths))]
    parent = doc
    for k in path[:-1]:
        parent = parent[k]
    how = rng.randrange(4)
    if how == 0 and isinstance(parent, dict):
        del parent[path[-1]]
        return f"del {path}"
    if how == 1 and isinstance(parent, dict):
        parent[rng.choice(["extra", "value", "note", "flags"])] = rng.choice(VALUES[1:])
        return f"key beside {path}"
    if how == 2 and isinstance(parent, list):
        parent.append(parent[rng.randrange(len(parent))])
        return f"dup in {path[:-1]}"
    v = rng.choice(VALUES[1:] + [3, 12, 25, "frontline", "tracked", "indirect", "ev_x", "de_x", "kar98k"])
    parent[path[-1]] = v
    return f"{path} = {v!r}"


def run_fuzz(n: int, seed0: int, tmp: Path) -> dict[str, int]:
    docs = {p.name: tomllib.loads(p.read_text()) for p in sorted(DATA.glob("*.toml"))}
    counts = {"ok": 0, "refused": 0, "stricter": 0}
    for seed in range(seed0, seed0 + n):
        rng = random.Random(seed)
        name = rng.choice(sorted(docs))
        doc = copy.deepcopy(docs[name])
        done = [mutate(doc, rng) for _ in range(rng.randint(1, 2))]
        folder = tmp / f"c{seed}"
        shutil.copytree(DATA, folder)
        (folder / name).write_text(_toml_dump(doc))
        tag = f"seed {seed} {name} {done}"
        compare(
            outcome(old_validate_card_file, str(folder / name)),
            outcome(validate_card_file, str(folder / name)),
            tag,
            folder,
        )
        counts[compare(outcome(old_load_cards, folder), outcome(load_cards, folder), tag, folder)] += 1
        shutil.rmtree(folder)
    return counts


def test_both_loaders_agree_on_a_seeded_fuzz_corpus_of_card_files(tmp_path):
    counts = run_fuzz(80, 0, tmp_path)
    assert counts["ok"] >= 2 and counts["refused"] >= 40, counts


@pytest.mark.slow
def test_both_loaders_agree_on_a_larger_fuzz_corpus_of_card_files(tmp_path):
    counts = run_fuzz(1500, 10_000, tmp_path)
    assert counts["ok"] >= 100 and counts["refused"] >= 700, counts
