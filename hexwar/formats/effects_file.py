"""The battlefield-effect numbers (``hexwar/data/effects.toml``, R8, R9) as a typed model.

:class:`EffectsFile` declares the file once (``hexwar schema effects``);
:func:`hexwar.rules.terrain_effects.load_effects` reads it by the model (every problem at once,
with the field path: ``fire.spread_bonus``) into :class:`~hexwar.rules.terrain_effects.EffectRules`.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, ValidationError, ValidatorFunctionWrapHandler, WrapValidator
from pydantic_core import PydanticCustomError

from ..model.filemodel import EXACT, FileModel, json_schema, new_list
from ..model.terrain_file import Mobility

__all__ = ["EffectsFile", "effects_schema"]


def _whole_list(v: Any, handler: ValidatorFunctionWrapHandler) -> Any:
    """A bad class names the list (``rubble.banned``), as the whole list is the rule's value."""
    try:
        return handler(v)
    except ValidationError:
        raise PydanticCustomError(
            "mobility_classes", "expected a list of mobility classes from ('foot', 'tracked', 'wheeled')"
        ) from None


Classes = Annotated[
    list[Annotated[Mobility, Field(description="a mobility class: foot, tracked or wheeled")]],
    WrapValidator(_whole_list),
    Field(description="a list of mobility classes (foot, tracked, wheeled)"),
]


class Rubble(FileModel):
    """``[rubble]`` (R8.3)."""

    base_terrain: str = Field("clear", description='a terrain key such as "clear"')
    defense: int = Field(ge=-9, le=9, description="an integer -9..9")
    move: int = Field(ge=0, le=20, description="an integer 0..20")
    banned: Classes = Field(default_factory=new_list)
    immobilize_check: Classes = Field(default_factory=new_list)
    immobilized_on: int = Field(ge=0, le=6, description="an integer 0..6")


class Fire(FileModel):
    """``[fire]`` (R8.4-R8.6)."""

    defense: int = Field(ge=-9, le=9, description="an integer -9..9")
    move: int = Field(ge=0, le=20, description="an integer 0..20")
    spread_bonus: int = Field(ge=-20, le=30, description="an integer -20..30")
    damage_hit_on: int = Field(ge=2, le=13, description="an integer 2..13")
    damage_index: int = Field(ge=0, le=20, description="an integer 0..20")
    burnout_turns: int = Field(ge=1, le=1000, description="an integer 1..1000")


class Buildings(FileModel):
    """``[buildings]`` (R8.2-R8.4)."""

    close_combat_bonus: int = Field(ge=-20, le=20, description="an integer -20..20")
    fire_margin: int = Field(ge=1, le=20, description="an integer 1..20")


class ArtilleryNumbers(FileModel):
    """``[artillery]`` (R9.3)."""

    hit_on: dict[
        Annotated[str, Field(description="a side")],
        Annotated[int, Field(ge=1, le=7, description="an integer 1..7")],
    ] = Field(min_length=1, description="a table side = d6 face, e.g. { german = 3, soviet = 4 }")


class Towing(FileModel):
    """``[towing]`` (R8.1)."""

    hook_up_cost: int = Field(ge=0, le=20, description="an integer 0..20")


class EffectsFile(FileModel):
    """``hexwar/data/effects.toml``."""

    schema_version: Annotated[Literal[1], EXACT] = Field(description="1")
    rubble: Rubble = Field(description="the [rubble] table")
    fire: Fire = Field(description="the [fire] table")
    buildings: Buildings = Field(description="the [buildings] table")
    artillery: ArtilleryNumbers = Field(description="the [artillery] table")
    towing: Towing = Field(description="the [towing] table")


def effects_schema() -> dict[str, Any]:
    """The JSON Schema of the effects table (``hexwar schema effects``)."""
    return json_schema(
        EffectsFile,
        "urn:hexwar:schema:effects",
        "hexwar battlefield-effect numbers (TOML, as parsed)",
        "The numbers of rubble, fire, buildings, off-board artillery and towing (R8, R9), "
        "hexwar/data/effects.toml.",
    )
