"""The campaign save model reads campaign saves as the old parser did (issue 34, Proof item 1).

The old parser (hand checks of every field, hexwar/campaign/save.py at 83fb709) is kept as a frozen
test oracle in tests/legacy_campaign_save.py. On a campaign save of a seeded war and a seeded
fuzz corpus of mutations of it: both accept and refuse the same documents (exception, counted:
the old parser took any ``players`` value that is empty, and any value of a player, as text; the
model asks for an object of names), an accepted one gives the same parsed save, and every field
the old parser named is named by the new one (or a field inside it), except when a part the model
requires is broken (then the new one names at least one of the old one's fields).
"""

from __future__ import annotations

import copy
import dataclasses
import json
import random

from legacy_campaign_save import old_parse
from test_scenario_model_equivalence import mutate

from hexwar.campaign.ai import make_player
from hexwar.campaign.save import _parse, save_data
from hexwar.campaign.state import new_campaign
from hexwar.errors import ValidationError
from hexwar.formats.campaign_save_file import CampaignSaveFile
from hexwar.model.filemodel import read_lenient


def war_doc() -> dict:
    war, _ = new_campaign(3)
    ps = {s: make_player("random", s, 3) for s in ("german", "soviet")}
    while not war.over and len(war.commands) < 40:
        war.apply(ps[war.to_act].choose(war))
    return json.loads(json.dumps(save_data(war, {"german": "random", "soviet": "random"})))


def outcome(parser, doc):
    try:
        return "ok", parser(copy.deepcopy(doc), "w.json")
    except ValidationError as exc:
        return "refused", [(p.where, p.message) for p in exc.problems]


def near(w: str, new_where: list[str]) -> bool:
    return any(x == w or x.startswith((w + ".", w + "[")) or w.startswith(x + ".") for x in new_where)


def compare(doc, tag: str) -> str:
    old, new = outcome(old_parse, doc), outcome(_parse, doc)
    if old[0] == "ok" and new[0] == "refused":
        assert all(w.startswith("players") for w, _ in new[1]), f"{tag}: old ok, new {new[1]}"
        return "stricter"
    assert old[0] == new[0], f"{tag}: old {old[0]} {old[1] if old[0] == 'refused' else ''}, new {new[1]}"
    if old[0] == "ok":
        for f in dataclasses.fields(old[1]):
            assert getattr(old[1], f.name) == getattr(new[1], f.name), f"{tag}: {f.name}"
        return "ok"
    new_where = [w for w, _ in new[1]]
    if isinstance(doc, dict) and read_lenient(CampaignSaveFile, doc, "x").value is None:
        assert any(near(w, new_where) for w, _ in old[1]), f"{tag}: old {old[1]}, new {new[1]}"
        return "required-broken"
    for w, msg in old[1]:
        assert near(w, new_where), f"{tag}: the old parser named {w!r} ({msg}); the new one named {new[1]}"
    return "refused"


def test_both_parsers_agree_on_a_campaign_save_and_a_seeded_fuzz_corpus_of_mutations():
    base = war_doc()
    assert compare(base, "unchanged") == "ok"
    counts = {"ok": 0, "refused": 0, "required-broken": 0, "stricter": 0}
    for seed in range(400):
        rng = random.Random(seed)
        d = copy.deepcopy(base)
        done = [mutate(d, rng) for _ in range(rng.randint(1, 2))]
        counts[compare(d, f"seed {seed} {done}")] += 1
    assert counts["ok"] >= 20 and counts["refused"] >= 150, counts
