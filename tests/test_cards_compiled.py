"""The shipped card set in compiled form (issue 35, hexwar/rules/cards/shipped.py): current, the
same set the full load builds (field by field, type by type, shared objects shared), used only
while neither a card file nor the card code changed, and never trusted when malformed (R4)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from hexwar.errors import ValidationError
from hexwar.rules.cards import default_cards, load_cards
from hexwar.rules.cards.shipped import (
    CODE,
    COMPILED_NAME,
    card_data_dir,
    compiled_cards,
    decode_cards,
    encode_cards,
    fingerprint,
    write_compiled,
)

DATA = card_data_dir()


def _same(a, b):
    """Field by field, type by type: the compiled documents (which keep every type, enum and
    shared object) and the reprs (tuples, not lists; EffectKind, not str) are equal."""
    assert encode_cards(a) == encode_cards(b)
    for name in ("weapons", "units", "qualities", "command", "damage", "events"):
        x, y = getattr(a, name), getattr(b, name)
        assert list(x) == list(y), name  # the same ids in the same order
        assert repr(dict(x)) == repr(dict(y)), name
    assert repr(a.rules) == repr(b.rules) and a.sources == b.sources


def test_the_shipped_compiled_card_set_is_current():
    assert compiled_cards(DATA) is not None, (
        "hexwar/data/cards/compiled.json is stale (a card file or the card code changed): "
        "run `python tools/compile_cards.py`"
    )


def test_the_compiled_set_is_exactly_what_the_full_load_builds():
    full = load_cards(DATA)
    compiled = compiled_cards(DATA)
    assert compiled is not None
    _same(full, compiled)
    # the Tiger's gun is the weapon of the weapons table, one object, as the full load shares it
    tiger = compiled.units["de_tiger_i"]
    assert tiger.weapons[0] is compiled.weapons[tiger.weapons[0].id]
    assert full.units["de_tiger_i"].weapons[0] is full.weapons[tiger.weapons[0].id]
    assert (tiger.defense, tiger.endurance_full, tiger.endurance_half) == (8, 20, 10)  # R4.1, the card
    assert len(compiled.damage) == 25 and sum(c.copies for c in compiled.command.values()) == 50  # R4.3
    # what a game reads is the compiled set (built once per process)
    assert default_cards() is default_cards()
    _same(default_cards(), full)


def _copy(tmp_path: Path) -> Path:
    folder = tmp_path / "cards"
    shutil.copytree(DATA, folder, ignore=shutil.ignore_patterns("__pycache__"))
    return folder


def test_a_changed_card_file_is_read_and_validated_again(tmp_path):
    folder = _copy(tmp_path)
    assert compiled_cards(folder) is not None  # the same bytes: the compiled set holds
    units = folder / "units_german.toml"
    text = units.read_text()
    assert "cost = 12" in text
    units.write_text(text.replace("cost = 12", "cost = 13", 1))
    assert compiled_cards(folder) is None  # one changed number: not trusted
    units.write_text(text.replace("cost = 12", 'cost = "12"', 1))
    with pytest.raises(ValidationError) as err:  # the full load reports it, naming file and field
        load_cards(folder)
    assert any(p.file == str(units) and p.where.endswith(".cost") for p in err.value.problems)
    units.write_text(text)
    assert compiled_cards(folder) is not None
    (folder / "extra.toml").write_text((folder / "events.toml").read_text())
    assert compiled_cards(folder) is None  # a file more: not trusted either


def test_the_fingerprint_covers_the_card_code():
    assert fingerprint(DATA) == fingerprint(DATA, CODE)
    for i in range(len(CODE)):  # leaving any one source file out changes it
        assert fingerprint(DATA, CODE[:i] + CODE[i + 1 :]) != fingerprint(DATA)
    assert fingerprint(DATA, (*CODE, "no/such/module.py")) is None  # unreadable: nothing trusted


@pytest.mark.parametrize(
    "damage",
    [
        lambda d: d["objects"][0].update({"$": "Path"}),  # only the card classes are built
        lambda d: d["objects"][0].update({"no_such_field": 1}),
        lambda d: d["units"].update({"de_tiger_i": {"$r": 10**6}}),
        lambda d: d["objects"][-1].update({"$": "CombatRules", "special": {"$e": "os", "v": "x"}}),
        lambda d: d.update({"version": 2}),
        lambda d: d.update({"fingerprint": "0" * 64}),
    ],
    ids=["class", "field", "reference", "enum", "version", "fingerprint"],
)
def test_a_malformed_compiled_file_is_not_trusted(tmp_path, damage):
    folder = _copy(tmp_path)
    doc = json.loads((folder / COMPILED_NAME).read_text())
    damage(doc)
    (folder / COMPILED_NAME).write_text(json.dumps(doc))
    assert compiled_cards(folder) is None
    (folder / COMPILED_NAME).write_text("{not json")
    assert compiled_cards(folder) is None
    (folder / COMPILED_NAME).unlink()
    assert compiled_cards(folder) is None


def test_writing_and_reading_round_trips(tmp_path):
    folder = _copy(tmp_path)
    (folder / COMPILED_NAME).unlink()
    full = load_cards(folder)
    write_compiled(full, folder)
    again = compiled_cards(folder)
    assert again is not None
    _same(full, again)
    doc = json.loads((folder / COMPILED_NAME).read_text())
    _same(decode_cards(doc, folder), full)
