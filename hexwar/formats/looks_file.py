"""The looks file (a theme: ``assets/looks.toml`` and the ``--palette`` files) as a typed model.

:class:`LooksFile` declares the file's shape once: the tables it must have, the number ranges,
a terrain look's pattern, road flag and building style, a heatmap ramp of at least two stops.
:func:`hexwar.render.looks.looks_from_dict` validates a parsed file by it (every problem at once,
with the dotted field) and then checks what the model cannot say: each colour's spelling, a look
for every terrain type of the rules table and no other, a building drawn as a building (R2.1).
Colour keys are the reader's (its key lists), so the tables accept keys the model does not name.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import ConfigDict, Field

from ..model.filemodel import EXACT, FileModel, new_dict

__all__ = ["LooksFile", "PATTERNS", "BUILDING_STYLES"]

#: The fill patterns a terrain look may have.
PATTERNS = ("none", "trees", "scrub", "orchard", "wheat", "marsh", "water", "building")
#: The drawing styles of a building (by its DR, R2.1).
BUILDING_STYLES = ("wood", "stone", "reinforced")


class _Table(FileModel):
    """A table of colours and numbers; colour keys are checked by the reader."""

    model_config = ConfigDict(extra="allow", strict=True, frozen=True)


def _number(lo: float, hi: float) -> Any:
    return Annotated[int | float, Field(ge=lo, le=hi, description=f"a number {lo}..{hi}")]


class MapLooks(_Table):
    """``[map]``: background, grid, labels and edge colours and the grid's proportions."""

    grid_width: _number(0.0, 0.5)  # type: ignore[valid-type]
    label_height: _number(0.05, 0.6)  # type: ignore[valid-type]
    corner_shade: _number(0.5, 1.5)  # type: ignore[valid-type]


class LevelLooks(_Table):
    """``[levels]``: how ground levels tint a hex and where contours are drawn."""

    step: _number(0.0, 1.0)  # type: ignore[valid-type]
    max_blend: _number(0.0, 1.0)  # type: ignore[valid-type]
    contour_width: _number(0.0, 0.5)  # type: ignore[valid-type]


class RoadLooks(_Table):
    """``[road]``: road and bridge colours and widths (fractions of a hex)."""

    width: _number(0.01, 1.0)  # type: ignore[valid-type]
    edge_width: _number(0.0, 0.5)  # type: ignore[valid-type]
    bridge_width: _number(0.01, 1.0)  # type: ignore[valid-type]
    bridge_parapet_width: _number(0.0, 0.5)  # type: ignore[valid-type]


class OverlayLooks(_Table):
    """``[overlay]``: state colours and the reach and heatmap opacities."""

    reach_alpha: _number(0.0, 1.0)  # type: ignore[valid-type]
    heat_alpha: _number(0.0, 1.0)  # type: ignore[valid-type]


class TerrainLookEntry(_Table):
    """``[terrain.KEY]``: one terrain type's fill, detail and pattern (a building's roof, outline and style)."""

    pattern: Literal["none", "trees", "scrub", "orchard", "wheat", "marsh", "water", "building"] = Field(
        "none", description=f"one of {PATTERNS}"
    )
    road: bool = Field(False, description="true or false")
    style: Literal["wood", "stone", "reinforced"] | None = Field(
        None, description=f"one of {BUILDING_STYLES}"
    )


class SideLooks(_Table):
    """``[side]``: the counters' colours of each side."""

    german: _Table = Field(description="the German side's look")
    soviet: _Table = Field(description="the Soviet side's look")


class LooksFile(_Table):
    """A looks file (version 1)."""

    schema_version: Annotated[Literal[1], EXACT] = Field(description="1")
    map: MapLooks = Field(description="the [map] table")
    levels: LevelLooks = Field(description="the [levels] table")
    road: RoadLooks = Field(description="the [road] table")
    terrain: dict[str, TerrainLookEntry] = Field(description="the [terrain] table")
    features: _Table = Field(description="the [features] table")
    # an absent [side] table reads as an empty one, so the report names each missing side
    side: SideLooks = Field(default_factory=new_dict, validate_default=True, description="the [side] table")  # type: ignore[arg-type]
    counter: _Table = Field(description="the [counter] table")
    overlay: OverlayLooks = Field(description="the [overlay] table")
    ramps: dict[
        str, Annotated[list[Any], Field(min_length=2, description="a list of at least 2 colours")]
    ] = Field(description="the [ramps] table")
