"""JSON Schemas (draft 2020-12) of hexwar's files, and a checker that names file and field.

The kinds are :data:`SCHEMA_KINDS`: ``map`` (``hexwar-map`` JSON), ``save`` (``hexwar-save``
JSON), ``scenario`` (a ``hexwar-scenario`` TOML file as parsed), ``protocol`` (the network
messages), ``lines`` (a line scenario, ``mode = "lines"``), ``cards`` (the card data files), ``campaign`` (the campaign data files), ``campaign-save``, ``deck`` (a lines deck), ``terrain``, ``wrecks`` and
``effects`` (the rules data tables). A kind with a typed model (:data:`MODEL_KINDS`: the map, in
:mod:`hexwar.model.map_file`; the hex scenario, in :mod:`hexwar.formats.scenario_file`; the save, in
:mod:`hexwar.formats.save_file`) has its schema generated from the model and is checked by the
model itself (:func:`hexwar.model.filemodel.check`); the others still ship a hand-written
``hexwar/formats/schemas/KIND.schema.json`` checked with the ``jsonschema`` library. Either way
:func:`schema_problems` turns every error into a :class:`~hexwar.errors.Problem` whose
``where`` is a field path in hexwar's usual spelling (``features.D07.fire_turns``,
``commands[3].cmd``).

The schemas describe structure (fields, types, ranges, patterns); what needs the terrain
table, the cards or the map (codes, labels on the board, units that exist) stays in the
semantic checks of each loader, which run after the schema (:func:`merge_problems`).
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

from ..errors import HexwarError, Problem
from ..model.filemodel import check, field_path, json_schema, merge_problems
from ..model.map_file import MapFile, map_schema
from ..model.terrain_file import TerrainTableFile, WreckPoolsFile
from .campaign_file import CampaignFile, campaign_schema
from .campaign_save_file import CampaignSaveFile, campaign_save_schema
from .card_file import CardFile, card_schema
from .deck_file import DeckFile
from .effects_file import EffectsFile, effects_schema
from .lines_file import LinesScenarioFile, lines_schema
from .save_file import SaveFile, save_schema
from .scenario_file import ScenarioFile, scenario_schema


def _deck_schema() -> dict[str, Any]:
    return json_schema(
        DeckFile,
        "urn:hexwar:schema:deck",
        "hexwar deck file (TOML, as parsed)",
        "A Reserves deck for a game on lines (hexwar play lines --deck). Card ids that exist, of "
        "the deck's side, within the points, are checked by hexwar after the schema.",
    )


def _terrain_schema() -> dict[str, Any]:
    return json_schema(
        TerrainTableFile,
        "urn:hexwar:schema:terrain",
        "hexwar terrain table (TOML, as parsed)",
        "The terrain types of hexwar/data/terrain.toml (R2.5). A code used twice is checked by "
        "hexwar after the schema.",
    )


def _wrecks_schema() -> dict[str, Any]:
    return json_schema(
        WreckPoolsFile,
        "urn:hexwar:schema:wrecks",
        "hexwar wreck counters (TOML, as parsed)",
        "The wreck counters of hexwar/data/wrecks.toml (R8.1). An id used twice is checked by "
        "hexwar after the schema.",
    )


__all__ = [
    "SCHEMA_KINDS",
    "KIND_OF_FORMAT",
    "load_schema",
    "schema_text",
    "schema_problems",
    "merge_problems",
    "field_path",
    "MODEL_KINDS",
]

SCHEMA_KINDS = (
    "map",
    "scenario",
    "lines",
    "save",
    "protocol",
    "cards",
    "campaign",
    "deck",
    "terrain",
    "wrecks",
)
KIND_OF_FORMAT = {"hexwar-map": "map", "hexwar-scenario": "scenario", "hexwar-save": "save"}
#: kind -> (root model, its schema document): the kinds declared once, as typed models
MODEL_KINDS: dict[str, tuple[Any, Any]] = {
    "map": (MapFile, map_schema),
    "scenario": (ScenarioFile, scenario_schema),
    "save": (SaveFile, save_schema),
    "lines": (LinesScenarioFile, lines_schema),
    "cards": (CardFile, card_schema),
    "campaign": (CampaignFile, campaign_schema),
    "campaign-save": (CampaignSaveFile, campaign_save_schema),
    "deck": (DeckFile, _deck_schema),
    "terrain": (TerrainTableFile, _terrain_schema),
    "wrecks": (WreckPoolsFile, _wrecks_schema),
    "effects": (EffectsFile, effects_schema),
}
MAX_SCHEMA_PROBLEMS = 200  # a wholly wrong file reports this many, then a count of the rest


def _schema_file(kind: str) -> Any:
    if kind not in SCHEMA_KINDS:
        raise HexwarError(f"unknown schema {kind!r}; expected one of {', '.join(SCHEMA_KINDS)}")
    return resources.files("hexwar") / "formats" / "schemas" / f"{kind}.schema.json"


def schema_text(kind: str) -> str:
    """The schema document of ``kind`` (one of :data:`SCHEMA_KINDS`) as shipped, JSON text.

    Raises:
        HexwarError: for an unknown kind.
    """
    if kind in MODEL_KINDS:
        return json.dumps(MODEL_KINDS[kind][1](), indent=2, ensure_ascii=False) + "\n"
    return _schema_file(kind).read_text(encoding="utf-8")


@cache
def load_schema(kind: str) -> dict[str, Any]:
    """The parsed schema of ``kind``, checked against the draft 2020-12 metaschema once.

    Raises:
        HexwarError: for an unknown kind or a schema file that is not a valid schema.
    """
    if kind in MODEL_KINDS:
        return MODEL_KINDS[kind][1]()  # type: ignore[no-any-return]
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import SchemaError

    doc = json.loads(schema_text(kind))
    try:
        Draft202012Validator.check_schema(doc)
    except SchemaError as exc:  # pragma: no cover - a shipped schema is tested
        raise HexwarError(f"the shipped {kind} schema is broken: {exc.message}") from None
    return doc  # type: ignore[no-any-return]


def _message(err: Any) -> list[tuple[str, str]]:
    """``(where, message)`` pairs for one jsonschema error, in hexwar's wording."""
    where = field_path(err.absolute_path)
    sub = err.schema if isinstance(err.schema, dict) else {}
    desc = sub.get("description")
    v = err.validator
    if v == "additionalProperties" and isinstance(err.instance, dict):
        known = sorted(sub.get("properties", {}))
        extra = [k for k in err.instance if k not in sub.get("properties", {})]
        hint = f"; expected one of {known}" if known else ""
        return [(f"{where}.{k}" if where else str(k), f"unknown field{hint}") for k in extra]
    if v == "required":
        missing = [k for k in err.validator_value if isinstance(err.instance, dict) and k not in err.instance]
        out = []
        for k in missing:
            d = sub.get("properties", {}).get(k, {}).get("description")
            out.append((f"{where}.{k}" if where else k, f"missing; expected {d}" if d else "missing"))
        return out
    if "propertyNames" in list(err.absolute_schema_path):  # a bad key: name it in the path
        name = str(err.instance)
        return [(f"{where}.{name}" if where else name, f"bad name; expected {desc or 'a valid name'}")]
    if v in ("dependentSchemas", "dependentRequired"):
        return [(where, desc or err.message)]
    got = json.dumps(err.instance, ensure_ascii=False, default=str)  # a backstop for any non-JSON value
    if len(got) > 60:
        got = got[:57] + "..."
    if desc:
        return [(where, f"expected {desc}, got {got}")]
    return [(where, err.message)]


def schema_problems(data: Any, kind: str, src: str) -> list[Problem]:
    """Every way ``data`` breaks the ``kind`` schema, as problems naming ``src`` and the field.

    Args:
        data: the parsed document (JSON, or TOML as a dict).
        kind: one of :data:`SCHEMA_KINDS`.
        src: the file name for the reports.

    Returns:
        problems in document order (empty when the document fits the schema).

    Raises:
        HexwarError: for an unknown kind.
    """
    if kind in MODEL_KINDS:
        return check(MODEL_KINDS[kind][0], data, src)[1]
    from jsonschema import Draft202012Validator

    validator = Draft202012Validator(load_schema(kind))
    errors = sorted(validator.iter_errors(data), key=lambda e: [str(p) for p in e.absolute_path])
    out: list[Problem] = []
    for err in errors:
        for where, msg in _message(err):
            out.append(Problem(src, where, msg))
    if len(out) > MAX_SCHEMA_PROBLEMS:
        rest = len(out) - MAX_SCHEMA_PROBLEMS
        out = out[:MAX_SCHEMA_PROBLEMS] + [Problem(src, "", f"... and {rest} more schema problems")]
    return out
