"""The shipped documents' compiled forms (issue 35, hexwar/model/compiled_docs.py): current,
equal to a fresh validation, the same game when loaded through them, and never trusted when the
bytes, the code or the file itself do not match."""

from __future__ import annotations

import dataclasses
import importlib.util
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from hexwar.fileio import read_text
from hexwar.game.scenario import load_scenario
from hexwar.model import compiled_docs
from hexwar.model.compiled_docs import Doc, decode, encode, lookup

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("compile_docs", ROOT / "tools" / "compile_docs.py")
assert _spec is not None and _spec.loader is not None
compile_docs = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(compile_docs)

DOCS = compile_docs.shipped_documents()
SCENARIOS = sorted(p.stem for kind, p in DOCS if kind in ("scenario", "lines-scenario"))


def _text(kind: str, path: Path) -> str:
    return read_text(path, kind="data" if kind in ("terrain", "wrecks", "effects") else None)


def same(model: Any, doc: Any, where: str = "doc") -> None:
    """``doc`` (decoded) holds exactly the values of ``model`` (a validated model value): the same
    fields, the same Python types (a tuple stays a tuple), the same ``model_fields_set``."""
    from pydantic import BaseModel

    if isinstance(model, BaseModel):
        assert isinstance(doc, Doc), where
        assert doc.model_fields_set == model.model_fields_set, where
        for name in type(model).model_fields:
            same(getattr(model, name), getattr(doc, name), f"{where}.{name}")
        return
    assert type(doc) is type(model), f"{where}: {type(doc).__name__} for {type(model).__name__}"
    if isinstance(model, (list, tuple)):
        assert len(doc) == len(model), where
        for i, (m, d) in enumerate(zip(model, doc, strict=True)):
            same(m, d, f"{where}[{i}]")
    elif isinstance(model, dict):
        assert list(doc) == list(model), where
        for k in model:
            same(model[k], doc[k], f"{where}.{k}")
    else:
        assert doc == model, where


def test_the_compiled_folder_is_current():
    """Every shipped document has its compiled file, written by this code, and nothing else is
    there (``python tools/compile_docs.py`` writes it again)."""
    assert compile_docs.main(["--check"]) == 0, "stale: run python tools/compile_docs.py"
    assert len(DOCS) >= 30 and {k for k, _ in DOCS} == {
        "scenario",
        "lines-scenario",
        "map",
        "terrain",
        "wrecks",
        "effects",
    }


@pytest.mark.parametrize("kind,path", DOCS, ids=[f"{k}:{p.name}" for k, p in DOCS])
def test_each_compiled_document_holds_the_fresh_validation_value(kind, path):
    text = _text(kind, path)
    fresh = compile_docs.validated_value(kind, text, str(path))
    doc = lookup(text, (kind,))
    assert doc is not None, f"{path}: no compiled form used"
    same(fresh, doc)
    assert lookup(text, tuple(k for k in compiled_docs.KINDS if k != kind)) is None  # its kind only


def _game_summary(sc: Any) -> Any:
    """A scenario as plain data: every field (the map by its file text), then the state hash of a
    game of it set up on seed 5."""
    fields = {}
    for f in dataclasses.fields(sc):
        v = getattr(sc, f.name)
        fields[f.name] = v.to_text() if f.name == "battlemap" and v is not None else repr(v)
    from hexwar.model.terrain import default_terrain
    from hexwar.rules.terrain_effects import default_effects

    game = sc.new_game(seed=5)
    tables = repr(default_terrain()), repr(default_effects())  # the rules tables it was read with
    return fields, tables, game.state_hash()  # the hash the saves and the views check (R1.2, R12.1)


@pytest.mark.parametrize("name", SCENARIOS)
def test_a_load_through_the_compiled_documents_builds_the_same_game(name, monkeypatch):
    """The same Scenario (every field, the map's text) and the same game set up on it, loaded
    through the compiled documents and by validating every file."""
    from hexwar.model import terrain
    from hexwar.rules import terrain_effects

    through = _game_summary(load_scenario(name))
    monkeypatch.setattr(compiled_docs, "ENABLED", False)
    terrain.default_terrain.cache_clear()
    terrain_effects.default_effects.cache_clear()
    try:
        validated = _game_summary(load_scenario(name))
    finally:
        terrain.default_terrain.cache_clear()
        terrain_effects.default_effects.cache_clear()
    assert through == validated


def test_encode_decode_keeps_types_and_refuses_what_it_cannot_read():
    d = decode(json.loads(json.dumps({"$m": {"a": {"$t": [1, [2]]}, "b": {"$d": {"x": None}}}, "$s": ["a"]})))
    assert isinstance(d, Doc) and d.a == (1, [2]) and type(d.a) is tuple and d.b == {"x": None}
    assert d.model_fields_set == frozenset({"a"}) and dict(d) == {"a": (1, [2]), "b": {"x": None}}
    with pytest.raises(AttributeError):
        d.c  # noqa: B018
    with pytest.raises(AttributeError):
        d.a = 3
    for bad in ({"x": 1}, {"$m": [], "$s": []}, {"$t": 3}, float("inf")):
        with pytest.raises(ValueError):
            decode(bad)
    with pytest.raises(TypeError):
        encode({1, 2})
    with pytest.raises(TypeError):
        encode(float("nan"))


def _copy_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "compiled"
    shutil.copytree(compiled_docs.compiled_dir(), folder)
    monkeypatch.setattr(compiled_docs, "compiled_dir", lambda: folder)
    monkeypatch.setattr(compiled_docs, "_FOUND", {})
    return folder


DAMAGE = [
    "other code",
    "not json",
    "an edited number",
    "an edited type",
    "deep nesting",
    "unknown object with its check",
    "other kind",
    "truncated",
    "too large",
    "a link elsewhere",
    "a directory",
    "missing",
]


@pytest.mark.parametrize("damage", DAMAGE)
def test_a_compiled_file_that_does_not_match_is_never_used(damage, tmp_path, monkeypatch):
    """Written by other code (an edited model), edited by hand (found by the fresh-user pass:
    victory_points 100 -> 5 ended a game in turn 1), damaged, of another kind, too large, not a
    file or gone: ``lookup`` gives ``None`` and the scenario is validated from its own file, the
    same game as before, never a traceback."""
    folder = _copy_folder(tmp_path, monkeypatch)
    text = read_text(ROOT / "scenarios" / "kharkov.toml")
    target = folder / f"{compiled_docs.key_of(text)}.json"
    assert lookup(text, ("scenario",)) is not None
    head_line, payload = target.read_text().split("\n", 1)
    head = json.loads(head_line)

    def write(h: dict, p: str) -> None:
        target.write_text(json.dumps(h, sort_keys=True) + "\n" + p)

    if damage == "other code":
        write(dict(head, code="0" * 64), payload)
    elif damage == "not json":
        target.write_text('{"format": "hexwar-compiled-document", ')
    elif damage == "an edited number":
        write(head, payload.replace('"victory_points":100', '"victory_points":5', 1))
        assert '"victory_points":5' in target.read_text()
    elif damage == "an edited type":
        write(head, payload.replace('"victory_points":100', '"victory_points":"abc"', 1))
    elif damage == "deep nesting":
        write(head, "[" * 100_000 + "\n")
    elif damage == "unknown object with its check":  # a forged check still cannot name a class
        p = payload.replace('"ground":"dry"', '"ground":{"__import__":"os"}', 1)
        write(dict(head, check=compiled_docs._check_of(target.stem, p.rstrip("\n").encode())), p)
    elif damage == "other kind":
        write(dict(head, kind="map"), payload)
    elif damage == "truncated":
        target.write_bytes(target.read_bytes()[: len(head_line) + 200])
    elif damage == "too large":
        write(head, payload.rstrip("\n") + " " * compiled_docs.MAX_BYTES + "\n")
    elif damage == "a link elsewhere":
        target.unlink()
        target.symlink_to("/etc/passwd" if Path("/etc/passwd").exists() else folder)
    elif damage == "a directory":
        target.unlink()
        target.mkdir()
    else:
        target.unlink()
    monkeypatch.setattr(compiled_docs, "_FOUND", {})
    assert lookup(text, ("scenario",)) is None
    sc = load_scenario("kharkov")  # validated from the file instead: the same scenario
    assert (sc.id, sc.victory_points, sc.turns) == ("kharkov", 100, 10)


def test_hexwar_validate_checks_the_file_itself_not_its_compiled_form(monkeypatch):
    """``hexwar validate`` validates the shipped file by its model (the compiled form is a
    cache of that result, never what validate vouches for)."""
    import hexwar.game.scenario as scenario_module
    from hexwar.validate import validate_file

    validated = []
    real = scenario_module.read_lenient
    monkeypatch.setattr(
        scenario_module, "read_lenient", lambda model, *a: validated.append(model.__name__) or real(model, *a)
    )
    assert validate_file(str(ROOT / "scenarios" / "kharkov.toml")) == "hexwar-scenario"
    assert validated == ["ScenarioFile"]  # the model validated the file
    assert compiled_docs.ENABLED  # on again after validate
    load_scenario("kharkov")  # a game's load still reads the compiled form
    assert validated == ["ScenarioFile"]


def test_a_changed_byte_is_validated_from_the_file(tmp_path):
    """A user's copy of a shipped scenario with one change has no compiled form: it is read and
    validated as any file, and its problem is reported."""
    src = (ROOT / "scenarios" / "kharkov.toml").read_text()
    bad = tmp_path / "kharkov_edit.toml"
    bad.write_text(src.replace("turns = 10", "turns = -1", 1))
    assert lookup(bad.read_text(), ("scenario",)) is None
    from hexwar.errors import ValidationError

    with pytest.raises(ValidationError, match="scenario.turns"):
        load_scenario(bad)
