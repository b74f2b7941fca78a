"""The shipped card set in compiled form (issue 35, hexwar/rules/cards/shipped.py): current, the
same set the full load builds (field by field, type by type, shared objects shared), used only
while neither a card file nor the card code changed, and never trusted when malformed (R4)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from hexwar.errors import ValidationError
from hexwar.rules.cards import default_cards, load_cards, shipped
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


def _split(folder: Path) -> tuple[dict, dict]:
    head_line, payload = (folder / COMPILED_NAME).read_text().split("\n", 1)
    return json.loads(head_line), json.loads(payload)


def _write(folder: Path, head: dict, doc: dict, forge_check: bool) -> None:
    payload = json.dumps(doc, ensure_ascii=False, separators=(",", ":"))
    if forge_check:  # as the compiler would: only the decoder's own refusals are left
        head = dict(head, check=shipped._check_of(head["fingerprint"], payload.encode()))
    (folder / COMPILED_NAME).write_text(json.dumps(head, sort_keys=True) + "\n" + payload + "\n")


@pytest.mark.parametrize(
    "damage,forged",
    [
        (lambda h, d: d["objects"][0].update({"$": "Path"}), True),  # only the card classes are built
        (lambda h, d: d["objects"][0].update({"no_such_field": 1}), True),
        (lambda h, d: d["units"].update({"de_tiger_i": {"$r": 10**6}}), True),
        (lambda h, d: d["objects"][-1].update({"$": "CombatRules", "special": {"$e": "os", "v": "x"}}), True),
        (lambda h, d: h.update({"version": 1}), False),
        (lambda h, d: h.update({"fingerprint": "0" * 64}), True),
        (lambda h, d: d["objects"][0].update(damage_index=d["objects"][0]["damage_index"] + 1), False),
        (lambda h, d: d.update({"objects": d["objects"][:5]}), False),
    ],
    ids=["class", "field", "reference", "enum", "version", "fingerprint", "edited number", "truncated"],
)
def test_a_malformed_compiled_file_is_not_trusted(tmp_path, damage, forged):
    """Damage the compiler did not write (an edited number or a cut payload: the check refuses
    it), or a payload with a forged check that names what is not a card (the decoder refuses
    it): never trusted; the full load reads the card files instead."""
    folder = _copy(tmp_path)
    assert compiled_cards(folder) is not None
    head, doc = _split(folder)
    damage(head, doc)
    _write(folder, head, doc, forged)
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
    _same(decode_cards(_split(folder)[1], folder), full)
