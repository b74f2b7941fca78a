"""JSON Schemas (draft 2020-12) of hexwar's files, and a checker that names file and field.

The kinds are :data:`SCHEMA_KINDS`: ``map`` (``hexwar-map`` JSON), ``save`` (``hexwar-save``
JSON), ``scenario`` (a ``hexwar-scenario`` TOML file as parsed), ``protocol`` (the network
messages), ``lines`` (a line scenario, ``mode = "lines"``), ``cards`` (the card data files),
``campaign`` (the campaign data files), ``campaign-save``, ``deck`` (a lines deck), ``terrain``,
``wrecks`` and ``effects`` (the rules data tables) and ``looks`` (a looks file: a theme or a
palette). Every kind is a typed model (:data:`MODEL_KINDS`: the map in
:mod:`hexwar.model.map_file`, the others in ``hexwar/formats/*_file.py``, the protocol's messages
in :mod:`hexwar.formats.protocol_file`): its schema is generated from the model and a document
is checked by the model itself (:func:`hexwar.model.filemodel.check`); no schema file is written
by hand. :func:`schema_problems` turns every error into a :class:`~hexwar.errors.Problem` whose
``where`` is a field path in hexwar's usual spelling (``features.D07.fire_turns``,
``commands[3].cmd``).

The schemas describe structure (fields, types, ranges, patterns); what needs the terrain
table, the cards or the map (codes, labels on the board, units that exist) stays in the
semantic checks of each loader, which run after the schema (:func:`merge_problems`).
"""

from __future__ import annotations

import json
from functools import cache
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
from .kinds import SCHEMA_KINDS
from .lines_file import LinesScenarioFile, lines_schema
from .looks_file import LooksFile
from .protocol_file import ClientMessage, message_problems, protocol_schema
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


def _looks_schema() -> dict[str, Any]:
    return json_schema(
        LooksFile,
        "urn:hexwar:schema:looks",
        "hexwar looks file (TOML, as parsed)",
        "How the map and counters are drawn (assets/terrain_looks.toml, --palette files). Colours' "
        "spelling and one look per terrain type of the rules table are checked by hexwar after the "
        "schema.",
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
    "looks": (LooksFile, _looks_schema),
    "protocol": (ClientMessage, protocol_schema),  # the client's messages; $defs.server the server's
}


def schema_text(kind: str) -> str:
    """The schema document of ``kind`` (one of :data:`SCHEMA_KINDS`), JSON text, generated from its model.

    Raises:
        HexwarError: for an unknown kind.
    """
    return json.dumps(load_schema(kind), indent=2, ensure_ascii=False) + "\n"


@cache
def load_schema(kind: str) -> dict[str, Any]:
    """The schema of ``kind``, generated from its model once (callers must not change it).

    Raises:
        HexwarError: for an unknown kind.
    """
    if kind not in MODEL_KINDS:
        raise HexwarError(f"unknown schema {kind!r}; expected one of {', '.join(SCHEMA_KINDS)}")
    return MODEL_KINDS[kind][1]()  # type: ignore[no-any-return]


def schema_problems(data: Any, kind: str, src: str) -> list[Problem]:
    """Every way ``data`` breaks the ``kind`` schema, as problems naming ``src`` and the field.

    Args:
        data: the parsed document (JSON, or TOML as a dict).
        kind: one of :data:`SCHEMA_KINDS` (``protocol``: one client message).
        src: the file name for the reports.

    Returns:
        problems in document order (empty when the document fits the schema).

    Raises:
        HexwarError: for an unknown kind.
    """
    if kind == "protocol":
        return message_problems(data, src)
    if kind not in MODEL_KINDS:
        raise HexwarError(f"unknown schema {kind!r}; expected one of {', '.join(SCHEMA_KINDS)}")
    return check(MODEL_KINDS[kind][0], data, src)[1]
