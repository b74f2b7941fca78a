"""The terrain tables of the map importers as typed models: a Tiled tile table and a Wesnoth code table.

- :class:`TileTableFile`: ``hexwar import tiled --terrain TABLE.toml``: ``[tiles.TILESET]``
  tables of tile id = a terrain key or ``{ terrain, level, building, road }``
  (:func:`hexwar.formats.tiled.load_tile_table`);
- :class:`WesnothCodeTableFile`: ``hexwar/data/wesnoth_terrain.toml`` and ``hexwar import
  wesnoth --terrain``: ``[codes]`` of Wesnoth code = a terrain key or ``{ terrain, level, road }``
  (:func:`hexwar.formats.wesnoth.load_code_table`).

A plain text value is the same as ``{ terrain = "..." }``. Whether a terrain key is in the
terrain table is checked by the importer after the model (the table is data, R2.5).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BeforeValidator, Field, StringConstraints, model_validator

from ..model.filemodel import EXACT, FileModel

__all__ = ["TileTableFile", "TileEntry", "WesnothCodeTableFile", "WesnothEntry"]


def _as_table(v: Any) -> Any:
    """A plain terrain key is the table ``{ terrain = key }``."""
    return {"terrain": v} if isinstance(v, str) else v


Level = Annotated[int, Field(ge=0, le=9, description="a ground level 0-9")]


class TileEntry(FileModel):
    """What one tile means: ``{ terrain, level, building, road }`` (at least one)."""

    terrain: str | None = Field(None, description="a terrain key of hexwar/data/terrain.toml")
    level: Level | None = None
    building: str | None = Field(None, description="a building terrain key")
    road: bool | None = Field(None, description="true or false")

    @model_validator(mode="after")
    def _not_empty(self) -> TileEntry:
        if not self.model_fields_set:
            raise ValueError("expected a terrain key or { terrain, level, building, road }")
        return self

    def properties(self) -> dict[str, Any]:
        """The entry as Tiled tile properties (``hexwar_terrain`` ...)."""
        return {
            f"hexwar_{k}": getattr(self, k)
            for k in ("terrain", "level", "building", "road")
            if k in self.model_fields_set
        }


class TileTableFile(FileModel):
    """A ``--terrain`` table of ``hexwar import tiled``."""

    tiles: dict[
        Annotated[str, Field(description="a tileset name")],
        Annotated[
            dict[
                Annotated[
                    str,
                    StringConstraints(pattern=r"^[0-9]{1,9}$"),
                    Field(description="a tile id (a number, 0 = the first tile of the tileset)"),
                ],
                Annotated[
                    TileEntry,
                    BeforeValidator(_as_table),
                    Field(description="a terrain key or { terrain, level, building, road }"),
                ],
            ],
            Field(description="a table of tile id = terrain"),
        ],
    ] = Field(description="[tiles.TILESET] tables mapping tile ids to terrain")


class WesnothEntry(FileModel):
    """What one Wesnoth code part means: ``{ terrain, level, road }``; ``""`` = no effect."""

    terrain: str | None = Field(
        None, description='a terrain key of hexwar/data/terrain.toml, or "" for no effect'
    )
    level: Level | None = None
    road: bool | None = Field(None, description="true or false")


class WesnothCodeTableFile(FileModel):
    """A Wesnoth code table."""

    schema_version: Annotated[Literal[1], EXACT] = Field(1, description="1")
    codes: dict[
        Annotated[str, Field(description="a Wesnoth terrain code, or a prefix ending in *")],
        Annotated[
            WesnothEntry,
            BeforeValidator(_as_table),
            Field(description="a terrain key or { terrain, level, road }"),
        ],
    ] = Field(description="a [codes] table of Wesnoth code = hexwar terrain")
