"""The rules data files of terrain (``hexwar/data/terrain.toml``) and wrecks (``wrecks.toml``) as typed models.

:class:`TerrainTableFile` and :class:`WreckPoolsFile` declare the two tables once (R2.5, R8.1);
:func:`hexwar.model.terrain.load_terrain` validates each file by its model (every problem at once,
with the field path: ``terrain.woods.move.wheeled``) and then checks what a model cannot say: a
terrain code used twice, a wreck id used twice.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StringConstraints

from .filemodel import EXACT, FileModel, new_list

__all__ = ["TerrainEntry", "TerrainTableFile", "WreckEntry", "WreckPoolsFile"]

Mobility = Literal["foot", "tracked", "wheeled"]  # R4.1 map addition
MovePoints = Annotated[int, Field(ge=1, description="an integer >= 1 (movement points)")]


class MoveCosts(FileModel):
    """Movement points to enter, per mobility class (R5.3)."""

    foot: MovePoints
    tracked: MovePoints
    wheeled: MovePoints


class DefenseModifiers(FileModel):
    """Defense modifiers of units in the hex (R6.7, R6.8)."""

    soft: int = Field(0, description="an integer (soft units: infantry, crews, guns)")
    armored: int = Field(0, description="an integer (armored units: vehicles)")


class TerrainEntry(FileModel):
    """One terrain type (R2.5)."""

    code: Annotated[str, StringConstraints(pattern=r"^\S$")] = Field(
        description="one non-space character (the code in a map's row strings)"
    )
    name: str | None = Field(None, description="text (default: the key)")
    los: Literal["clear", "hindrance", "blocking"] = Field(description="clear, hindrance or blocking (R3.5)")
    height: int = Field(0, ge=0, description="an integer >= 0 (levels above the ground, R3.4)")
    move: MoveCosts = Field(description="{ foot, tracked, wheeled } movement points (R5.3)")
    impassable: list[Annotated[Mobility, Field(description="a mobility class: foot, tracked or wheeled")]] = (
        Field(default_factory=new_list, description="mobility classes that may not enter")
    )
    # a frozen model: one default shared safely
    defense: DefenseModifiers = Field(DefenseModifiers(soft=0, armored=0), description="{ soft, armored }")
    dr: int | None = Field(
        None, ge=2, le=30, description="an integer DR such as 13, 14 or 15 (buildings, R8.2)"
    )


class TerrainTableFile(FileModel):
    """``hexwar/data/terrain.toml``."""

    schema_version: Annotated[Literal[1], EXACT] = Field(1, description="1")
    terrain: dict[str, TerrainEntry] = Field(min_length=1, description="a table of terrain types")


class WreckEntry(FileModel):
    """One wreck counter (R8.1)."""

    id: str = Field(description="text (the counter id)")
    nationality: Literal["german", "soviet"] = Field(description="'german' or 'soviet'")
    los: bool = Field(description="true or false (the counter carries the LOS symbol, R3.5)")
    modifier: int = Field(description="an integer (Defense modifier, 0 = none)")
    applies: Literal["all", "soft"] = Field(description="'all' (black) or 'soft' (red)")


class WreckPoolsFile(FileModel):
    """``hexwar/data/wrecks.toml``."""

    schema_version: Annotated[Literal[1], EXACT] = Field(1, description="1")
    wreck: list[WreckEntry] = Field(default_factory=new_list, description="[[wreck]] tables")
