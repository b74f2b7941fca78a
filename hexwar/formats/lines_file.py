"""The line scenario file (``mode = "lines"`` scenario TOML, 000's scenario-card form) as typed models.

:class:`LinesScenarioFile` is the document as the TOML parses (version 1). ``hexwar schema
lines`` prints its JSON Schema. What the model cannot say (unit card ids of the side, Event
cards that exist, deck points, a starting unit's line and crew, a seat of the game, whether a
random deck can be dealt) is checked by :func:`hexwar.lines.scenario.parse_lines_scenario`
after it (R11.1).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints

from ..model.filemodel import EXACT, FileModel, json_schema, new_list

__all__ = ["LinesScenarioFile", "lines_schema"]

CardIds = Annotated[
    list[Annotated[str, Field(description="a unit card id")]], Field(description="a list of text")
]
Texts = Annotated[list[Annotated[str, Field(description="text")]], Field(description="a list of text")]


class LinesHead(FileModel):
    """The ``[scenario]`` table of a line scenario."""

    id: Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{1,64}$")] = Field(
        description="1-64 letters, digits, '-' or '_'"
    )
    name: str = Field(description="text")
    description: str = Field("", description="text (the scenario card's situation)")
    seed: int = Field(0, ge=0, le=2**63 - 1, description="an integer >= 0 (default seed, R1.2)")
    players: Annotated[Literal[2, 4], EXACT] = Field(2, description="2 or 4 (000 4-player team variant)")
    victory_points: int | None = Field(
        None, ge=1, le=10_000, description="an integer 1..10000 (default 51, 4 players 76; R10.1)"
    )
    overrun: bool = Field(True, description="true or false")
    turns: int = Field(0, ge=0, le=1000, description="an integer 0..1000 (turn limit, 0 = none)")
    rules: list[Literal["standard", "classic", "fog", "crews-fight"]] = Field(
        default_factory=new_list, description='a list of rule variants ("standard" or "classic" on lines)'
    )
    events: Texts = Field(
        default_factory=new_list, description="Event card ids shuffled into the Command deck"
    )
    events_in_play: Texts = Field(
        default_factory=new_list, description="Event card ids in play from the start"
    )
    special_rules: Texts = Field(
        default_factory=new_list, description="the scenario card's special rules (text)"
    )


class LinesUnit(FileModel):
    """A ``[[sides.SIDE.units]]`` table: a unit in play at the start, not in the Reserves budget."""

    card: str = Field(description="a unit card id of the side (not a crew)")
    line: Literal["front", "rear", "air"] | None = Field(None, description="front, rear or air")
    crew: str | None = Field(None, description="a crew card id")
    seat: str | None = Field(None, description="a seat of the side (4 players)")


class LinesSideFile(FileModel):
    """A ``[sides.german]`` or ``[sides.soviet]`` table (000 scenario card)."""

    budget: int | None = Field(
        None, ge=1, le=200, description="an integer 1..200 (points; default 100, 4 players 75)"
    )
    minimum: int | None = Field(None, ge=0, le=200, description="an integer 0..200 (points)")
    pool: CardIds = Field(default_factory=new_list)
    reserves: CardIds = Field(default_factory=new_list)
    hand: CardIds = Field(default_factory=new_list)
    initiative: int = Field(0, ge=-5, le=5, description="an integer -5..5")
    victory_points: int | None = Field(None, ge=1, le=10_000, description="an integer 1..10000")
    no_aircraft_before: int = Field(0, ge=0, le=100, description="an integer 0..100 (turn)")
    max_card_cost: int = Field(0, ge=0, le=100, description="an integer 0..100 (points; 0: no limit)")
    exclude_types: Texts = Field(
        default_factory=new_list, description="unit types kept out of the Reserves deck"
    )
    units: list[Annotated[LinesUnit, Field(description="a table {card, line, crew}")]] = Field(
        default_factory=new_list, description="[[sides.SIDE.units]] tables"
    )


class LinesSides(FileModel):
    """``[sides.german]`` and ``[sides.soviet]`` (either may be left out: defaults)."""

    # frozen models: one default shared safely
    german: LinesSideFile = Field(LinesSideFile.model_validate({}), description="a table")
    soviet: LinesSideFile = Field(LinesSideFile.model_validate({}), description="a table")


class LinesHold(FileModel):
    """``hold``: a side wins at the end of a turn if it still holds its Frontline."""

    side: Literal["german", "soviet"] = Field(description="a side: german or soviet")
    turn: int = Field(ge=1, le=1000, description="an integer 1..1000")


class LinesWin(FileModel):
    """The ``[win]`` table."""

    hold: LinesHold | None = Field(None, description='{ side = "german" or "soviet", turn = 1..1000 }')


class LinesScenarioFile(FileModel):
    """A line scenario file (version 1) as the TOML parses."""

    format: Literal["hexwar-scenario"] = Field("hexwar-scenario", description='"hexwar-scenario"')
    schema_version: Annotated[Literal[1], EXACT] = Field(1, description="1")
    mode: Literal["lines"] = Field(description='"lines" (R11.1)')
    scenario: LinesHead = Field(description="the [scenario] table")
    sides: LinesSides = Field(description="the [sides.german] and [sides.soviet] tables")
    win: LinesWin | None = Field(None, description="the [win] table")


def lines_schema() -> dict[str, Any]:
    """The JSON Schema of the line scenario file (``hexwar schema lines``)."""
    return json_schema(
        LinesScenarioFile,
        "urn:hexwar:schema:lines",
        "hexwar line scenario (TOML, as parsed)",
        'A scenario file with mode = "lines" (000 scenario cards, R11.1) as the TOML document '
        "parses. Unit and Event card ids, deck points, starting units' lines and crews are "
        "checked by hexwar after the schema.",
    )
