"""The campaign data models read the campaign files as the old reader did (issue 34, Proof item 1).

The old reader (hand-written getters, hexwar/campaign/cards.py at 83fb709) is kept as a frozen
test oracle in tests/legacy_campaign_cards.py. On the shipped campaign folder and on a seeded
fuzz corpus (one file of a copy of the folder changed):

- the two loaders accept and refuse the same folders, and each file alone the same way;
- an accepted folder gives the same campaign cards;
- a refused one is refused at the same fields: every (file, field) the old loader named is named
  by the new one, or a field inside it. Exceptions, each checked: the old loader read a file
  whose header was broken as far as it could (the new one names the header and stops); it took
  a bad value as the lowest allowed one or a made-up default and went on checking against it
  (years that follow one another, rank orders, counts across the files), where the new one
  leaves the value out.

It also checks that the model's effect rules are the campaign's own (one table of what each
effect kind takes).
"""

from __future__ import annotations

import copy
import random
import shutil
import tomllib
from pathlib import Path

from fuzz_files import VALUES, _toml_dump
from legacy_campaign_cards import old_load_campaign_cards, old_validate_campaign_card_file
from test_card_model_equivalence import mutate

from hexwar.campaign.cards import _SPECS, DATA_DIR, load_campaign_cards, validate_campaign_card_file
from hexwar.errors import ValidationError
from hexwar.formats.campaign_file import CAMPAIGN_EFFECT_RULES

assert VALUES


def outcome(fn, arg):
    try:
        return "ok", fn(arg)
    except ValidationError as exc:
        return "refused", [(Path(p.file).name, p.where, p.message) for p in exc.problems]


def compare(old, new, tag: str) -> str:
    assert old[0] == new[0], f"{tag}: old {old[0]} {old[1] if old[0] == 'refused' else ''}, new {new[1]}"
    if old[0] == "ok":
        assert old[1] == new[1], tag
        return "ok"
    got = [(f, w) for f, w, _ in new[1]]
    unread = {f for f, w, _ in new[1] if w in ("format", "schema_version", "kind", "")}
    for f, w, msg in old[1]:
        w = w.removeprefix(".")  # the old loader named a top-level key ".key"
        if not f.endswith(".toml") and got:
            continue  # a count across the files that took in a card the old loader had refused
        if f in unread or (
            w in ("year", "rank") and any(nf == f and nw.startswith(w + ".") for nf, nw in got)
        ):
            continue  # the exceptions of the module docstring
        assert (
            any(
                nf == f and (nw == w or nw.startswith((w + ".", w + "[")) or w.startswith(nw + "."))
                for nf, nw in got
            )
            or not w
        ), f"{tag}: the old loader named {f} {w!r} ({msg}); the new one named {new[1]}"
    return "refused"


def test_the_effect_rules_are_the_campaigns_own():
    assert CAMPAIGN_EFFECT_RULES == {k.value: (v[0], v[1], v[2]) for k, v in _SPECS.items()}


def test_the_shipped_campaign_files_load_to_the_same_cards_by_both_loaders():
    assert (
        compare(outcome(old_load_campaign_cards, DATA_DIR), outcome(load_campaign_cards, DATA_DIR), "shipped")
        == "ok"
    )
    for p in sorted(DATA_DIR.glob("*.toml")):
        assert compare(
            outcome(old_validate_campaign_card_file, str(p)),
            outcome(validate_campaign_card_file, str(p)),
            p.name,
        ) in ("ok",)


def test_both_loaders_agree_on_a_seeded_fuzz_corpus_of_campaign_files(tmp_path):
    docs = {p.name: tomllib.loads(p.read_text()) for p in sorted(DATA_DIR.glob("*.toml"))}
    counts = {"ok": 0, "refused": 0}
    for seed in range(150):
        rng = random.Random(seed)
        name = rng.choice(sorted(docs))
        doc = copy.deepcopy(docs[name])
        done = [mutate(doc, rng) for _ in range(rng.randint(1, 2))]
        folder = tmp_path / f"c{seed}"
        shutil.copytree(DATA_DIR, folder)
        (folder / name).write_text(_toml_dump(doc))
        tag = f"seed {seed} {name} {done}"
        compare(
            outcome(old_validate_campaign_card_file, str(folder / name)),
            outcome(validate_campaign_card_file, str(folder / name)),
            tag,
        )
        counts[
            compare(outcome(old_load_campaign_cards, folder), outcome(load_campaign_cards, folder), tag)
        ] += 1
        shutil.rmtree(folder)
    assert counts["ok"] >= 5 and counts["refused"] >= 70, counts
