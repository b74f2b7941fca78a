"""Every ``Literal`` of integers in a file model refuses ``true`` and ``1.0`` (R12.3: bad input
gets a clear error naming the field; the models are strict, filemodel's docstring).

Pydantic's strict mode does not reach a ``Literal`` field (it compares by equality, and
``True == 1 == 1.0``), so each such field carries :data:`hexwar.model.filemodel.EXACT`. This test
walks every model of :mod:`hexwar.formats` and :mod:`hexwar.model`, so a new ``Literal[1]``
without it fails here.
"""

from __future__ import annotations

import importlib
import pkgutil
import typing
from typing import Annotated, Any

import pytest
from pydantic import BaseModel, TypeAdapter, ValidationError

import hexwar.formats
import hexwar.model
from hexwar.formats.deck_file import DeckFile
from hexwar.model.filemodel import check


def _int_literal_fields() -> list[tuple[str, Any]]:
    out: dict[str, Any] = {}
    for pkg in (hexwar.formats, hexwar.model):
        for info in pkgutil.iter_modules(pkg.__path__):
            mod = importlib.import_module(f"{pkg.__name__}.{info.name}")
            for obj in vars(mod).values():
                if not (isinstance(obj, type) and issubclass(obj, BaseModel)) or obj is BaseModel:
                    continue
                for name, fi in obj.model_fields.items():
                    ann = fi.annotation
                    if typing.get_origin(ann) is not typing.Literal:
                        continue
                    args = typing.get_args(ann)
                    if all(type(a) is int for a in args):
                        out[f"{obj.__module__}.{obj.__qualname__}.{name}"] = (
                            Annotated[(ann, *fi.metadata)] if fi.metadata else ann
                        )
    return sorted(out.items())


FIELDS = _int_literal_fields()


def test_the_walk_finds_the_schema_versions() -> None:
    # 13 files declare one or two; a walk that found none would pass every test below
    assert len(FIELDS) >= 20, [n for n, _ in FIELDS]
    assert any(n.endswith("DeckFile.schema_version") for n, _ in FIELDS)
    assert any(n.endswith(".players") for n, _ in FIELDS)


@pytest.mark.parametrize("name,typ", FIELDS, ids=[n for n, _ in FIELDS])
def test_int_literal_refuses_bool_and_float(name: str, typ: Any) -> None:
    ta = TypeAdapter(typ)
    lit = typing.get_args(typ)[0] if typing.get_origin(typ) is Annotated else typ
    first = typing.get_args(lit)[0]
    assert ta.validate_python(first) == first and type(ta.validate_python(first)) is int
    for bad in (True, False, float(first)):
        with pytest.raises(ValidationError):
            ta.validate_python(bad)


@pytest.mark.parametrize("bad,shown", [(True, "true"), (1.0, "1.0")])
def test_deck_file_problem_names_the_field(bad: Any, shown: str) -> None:
    doc = {
        "format": "hexwar-deck",
        "schema_version": bad,
        "deck": {"name": "x", "side": "german", "cards": ["de_grenadiers"]},
    }
    model, problems = check(DeckFile, doc, "decks/x.toml")
    assert model is None
    assert [str(p) for p in problems] == [f"decks/x.toml: schema_version: expected 1, got {shown}"]
