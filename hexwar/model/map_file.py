"""The map file (``"format": "hexwar-map"``) as typed models, one per version, and the step between.

:class:`MapFileV2` is the current file; :class:`MapFileV1` the round-1 file (no markers).
:func:`map_1_to_2` is the migration between them, a function of parsed documents registered
in :data:`MAP_MIGRATIONS` (``hexwar.formats.migrate`` runs every kind's steps). The grid is
held as column data (one row string per map row), never as one object per hex: a 500x500
map validates in milliseconds. What the model cannot say (terrain codes of the table, labels
on the board, wrecks that exist, buildings under rubble or fire) is checked by
:meth:`hexwar.model.maps.BattleMap.from_json` after it.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

from pydantic import (
    ConfigDict,
    Field,
    StringConstraints,
    ValidationError,
    ValidatorFunctionWrapHandler,
    WrapValidator,
)
from pydantic_core import InitErrorDetails, PydanticCustomError
from typing_extensions import TypedDict

from .filemodel import BUILT, DEFERRED, EXACT, FileModel, error_details, json_schema, new_dict, new_list
from .map_format import (
    HEX_LABEL,
    MAP_FORMAT,
    MAP_MIGRATIONS,
    MAP_SCHEMA_VERSION,
    MAX_SIDE,
    ZONE_SPEC,
    map_1_to_2,
    zone_hexes,
)

__all__ = [
    "MAP_FORMAT",
    "MAP_SCHEMA_VERSION",
    "HEX_LABEL",
    "ZONE_SPEC",
    "MapFeatures",
    "MapObjectiveEntry",
    "MapFileV1",
    "MapFileV2",
    "MapFile",
    "MAP_MIGRATIONS",
    "map_1_to_2",
    "map_schema",
    "zone_hexes",
]


HexKey = Annotated[str, StringConstraints(pattern=HEX_LABEL), Field(description="a hex label like D07")]
Side = Annotated[Literal["german", "soviet"], Field(description="a side: german or soviet")]
ZoneSpec = Annotated[
    str,
    StringConstraints(pattern=ZONE_SPEC),
    Field(description="a hex label like D07 or a rectangle like A01:C22"),
]
Side_ = Annotated[int, Field(ge=1, le=MAX_SIDE, description=f"an integer 1..{MAX_SIDE} (hexes)")]


class MapFeatures(TypedDict, total=False):
    """What stands in one hex besides its terrain (R2.4, R8.1-R8.6); every key optional.

    A typed dict, not a model: a map may hold features in every hex of 500x500, and a dict
    validates about seven times faster than a model instance per hex.
    """

    __pydantic_config__ = ConfigDict(extra="forbid", strict=True)  # type: ignore[misc]

    road: Annotated[bool, Field(description="true or false")]
    rubble: Annotated[bool, Field(description="true or false")]
    fire: Annotated[bool, Field(description="true or false")]
    fire_turns: Annotated[int, Field(ge=0, le=1000, description="an integer 0..1000 (full turns burned)")]
    wrecks: Annotated[
        list[Annotated[str, Field(description="a wreck id")]], Field(description="a list of wreck ids")
    ]


def _fire_turns_need_fire(f: Any, handler: ValidatorFunctionWrapHandler) -> MapFeatures:
    """``fire_turns`` only with ``fire: true`` (R8.6: only a burning hex counts turns).

    A wrap validator, so the rule is reported together with the entry's own problems (a
    ``fire_turns`` out of range AND no ``fire``), as the JSON Schema's ``dependentSchemas`` does.
    """
    extra: list[InitErrorDetails] = []
    if isinstance(f, dict) and "fire_turns" in f and f.get("fire") is not True:
        msg = (
            f"expected true when fire_turns is given, got {json.dumps(f['fire'])[:40]}"
            if "fire" in f
            else "missing; expected true when fire_turns is given"
        )
        extra.append(
            InitErrorDetails(type=PydanticCustomError("fire_needed", msg, {"field": "fire"}), loc=(), input=f)
        )
    try:
        out: MapFeatures = handler(f)
    except ValidationError as exc:
        errs = error_details(exc)
        raise ValidationError.from_exception_data("MapFeatures", errs + extra) from None
    if extra:
        raise ValidationError.from_exception_data("MapFeatures", extra)
    return out


Features = Annotated[
    MapFeatures,
    WrapValidator(_fire_turns_need_fire, json_schema_input_type=MapFeatures),
    Field(description="an object of hex features"),
]


class MapObjectiveEntry(FileModel):
    """An objective marker (R10.2)."""

    hex: Annotated[str, StringConstraints(pattern=HEX_LABEL)] = Field(description="a hex label like P11")
    name: str = Field("", description="text")
    points: int = Field(0, ge=0, le=1000, description="an integer 0..1000 (victory points)")


class _MapBody(FileModel):
    model_config = DEFERRED  # a base, and version 1 (read only through the migration to 2)

    name: str = Field("Untitled", description="text (the map's display name)")
    description: str = Field("", description="text shown to players")
    width: Side_
    height: Side_
    terrain: list[Annotated[str, Field(description="a row string of terrain codes")]] = Field(
        description="a list of row strings, one terrain code per hex (codes of hexwar/data/terrain.toml)"
    )
    levels: list[
        Annotated[
            str,
            StringConstraints(pattern=r"^[0-9]*$"),
            Field(description="a row string of digits 0-9 (ground levels)"),
        ]
    ] = Field(
        default_factory=new_list, description="a list of row strings, one ground level digit 0-9 per hex"
    )
    features: dict[HexKey, Features] = Field(
        default_factory=new_dict, description="an object keyed by hex label"
    )


class MapFileV1(_MapBody):
    """A round-1 map file: the grid and its features, no markers."""

    format: Literal["hexwar-map"] = Field(description='"hexwar-map"')
    schema_version: Annotated[Literal[1], EXACT] = Field(description="1")


class MapFileV2(_MapBody):
    """A map file (R2.4) of this hexwar: version 1 plus deploy-zone and objective markers."""

    model_config = BUILT

    format: Literal["hexwar-map"] = Field(description='"hexwar-map"')
    schema_version: Annotated[Literal[2], EXACT] = Field(
        description="2 (this hexwar's map schema; version 1 files are migrated)"
    )
    deploy: dict[Side, Annotated[list[ZoneSpec], Field(min_length=1)]] = Field(
        default_factory=new_dict,
        description="deploy-zone markers by side: lists of hex labels and rectangles like A01:C22",
    )
    objectives: list[MapObjectiveEntry] = Field(
        default_factory=new_list, description="a list of objective markers"
    )


MapFile = MapFileV2  # the current version


def map_schema() -> dict[str, Any]:
    """The JSON Schema of the current map file (``hexwar schema map``)."""
    return json_schema(
        MapFile,
        "urn:hexwar:schema:map",
        "hexwar map file",
        "A hex battle map (R2.4) in odd-q offset layout: flat-topped hexes, odd columns pushed "
        "down half a hex, columns A.., rows 01... Version 1 files (no deploy or objectives) are "
        "read by migrating them to version 2. Terrain codes, hex labels on the board, wreck ids "
        "and buildings under rubble or fire are checked by hexwar after the schema.",
    )
