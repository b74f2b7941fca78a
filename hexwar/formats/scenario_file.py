"""The hex scenario file (``hexwar-scenario`` TOML, docs/scenarios-format.md) as typed models.

:class:`ScenarioFile` is the document as the TOML parses (version 1, the only one so far: no
migration steps). ``hexwar schema scenario`` prints its JSON Schema, and
:func:`hexwar.formats.schema.schema_problems` checks a document with it (every problem at once,
with the field path: ``sides.german.budget``). What the model cannot say (Unit and Event card
ids that exist, hexes on the map, deck and hand consistency, stacking, the map file itself) is
checked by :func:`hexwar.game.scenario.build_scenario` after it. Line scenarios
(``mode = "lines"``, R11.1) are another mode with their own reader (:mod:`hexwar.lines.scenario`).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints, model_validator

from ..model.filemodel import DEFERRED, EXACT, FileModel, json_schema, new_dict, new_list

__all__ = ["ScenarioFile", "SCENARIO_SCHEMA_VERSION", "scenario_schema"]

SCENARIO_SCHEMA_VERSION = 1
_LABEL = r"^[A-Za-z]{1,3}[0-9]{2,3}$"
Label = Annotated[str, StringConstraints(pattern=_LABEL), Field(description="a hex label like 'D07'")]
SideName = Literal["german", "soviet"]
CardList = Annotated[
    list[Annotated[str, Field(description="a unit card id")]], Field(description="a list of unit card ids")
]
Variant = Annotated[
    Literal["standard", "classic", "burnout", "fog", "crews-fight"],
    Field(description="a rule variant: standard, classic, burnout, fog or crews-fight"),
]


class _ScenarioPart(FileModel):
    """A part of a hex scenario file: its validators are built when a hex scenario is first
    read, so a game on lines (R11), which never reads one, does not build them (issue 35)."""

    model_config = DEFERRED


class ScenarioHead(_ScenarioPart):
    """The ``[scenario]`` table."""

    id: Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9_-]{1,64}$")] = Field(
        description="1-64 letters, digits, '-' or '_'"
    )
    name: str = Field(description="text")
    description: str = Field("", description="text")
    map: Annotated[str, StringConstraints(min_length=1)] = Field(
        description="a shipped map name or a path relative to the scenario file"
    )
    seed: int = Field(0, ge=0, description="an integer >= 0 (default seed, R1.2)")
    turns: int = Field(0, ge=0, le=1000, description="an integer 0..1000 (turn limit, 0 = none)")
    victory_points: int | None = Field(None, ge=1, le=10000, description="an integer 1..10000 (R10.1)")
    overrun: bool = Field(True, description="true or false")
    guns_move: bool = Field(False, description="true or false")
    override_reserves: bool = Field(False, description="true or false")
    rules: list[Variant] = Field(default_factory=new_list, description="a list of rule variants")
    fog: bool = Field(False, description='true or false (fog of war, R12.2; the same as rules = ["fog"])')
    night: list[Annotated[int, Field(ge=1, le=200, description="a turn number")]] = Field(
        default_factory=new_list, description="night turns (R10.6)"
    )
    ground: Literal["dry", "snow", "mud"] = Field(
        "dry", description="ground conditions (R10.7): dry, snow or mud"
    )
    events: list[Annotated[str, Field(description="an Event card id")]] = Field(
        default_factory=new_list, description="a list of Event card ids"
    )


Attack = Annotated[int, Field(ge=2, le=25, description="an attack value 2..25")]


class AttackValues(_ScenarioPart):
    """An off-board weapon's attack values by target type (R9.1); at least one."""

    model_config = DEFERRED | {"json_schema_extra": {"minProperties": 1}}

    infantry: Attack | None = None
    vehicle: Attack | None = None
    gun: Attack | None = None

    @model_validator(mode="after")
    def _at_least_one(self) -> AttackValues:
        if not self.model_fields_set:
            raise ValueError(
                "expected a table of attack values, e.g. { infantry = 10, vehicle = 14 }, got {}"
            )
        return self


class ArtilleryWeapon(_ScenarioPart):
    """The off-board weapon of a side's artillery (R9.1)."""

    name: str = Field(description="text")
    damage_index: int = Field(ge=0, le=30, description="an integer 0..30")
    rate_of_fire: int = Field(1, ge=1, le=4, description="an integer 1..4")
    attack: AttackValues = Field(description="a table of attack values, e.g. { infantry = 10, vehicle = 14 }")


class Artillery(_ScenarioPart):
    """A side's off-board artillery (R9)."""

    missions: int = Field(ge=0, le=100, description="an integer 0..100")
    per_turn: int = Field(1, ge=1, le=10, description="an integer 1..10")
    hit_on: int | None = Field(None, ge=1, le=7, description="an integer 1..7")
    weapon: ArtilleryWeapon = Field(description="{ name, attack = { infantry, vehicle, gun }, damage_index }")


class UnitPlacement(_ScenarioPart):
    """A ``[[sides.SIDE.units]]`` table: a unit set up on the map, with its crew (R5)."""

    card: str = Field(description="a unit card id")
    hex: Label | None = None
    crew: str | None = Field(None, description="a crew card id")


class SideSetup(_ScenarioPart):
    """A ``[sides.german]`` or ``[sides.soviet]`` table (R5)."""

    deploy: list[
        Annotated[
            str,
            StringConstraints(pattern=r"^\s*[A-Za-z]{1,3}[0-9]{2,3}\s*(:\s*[A-Za-z]{1,3}[0-9]{2,3}\s*)?$"),
            Field(description="a hex label or rectangle like 'A01:C22'"),
        ]
    ] = Field(min_length=1, description="at least one hex label or rectangle like 'A01:C22'")
    reserves: CardList = Field(default_factory=new_list)
    budget: int | None = Field(None, ge=80, le=100, description="an integer 80..100 (points)")
    pool: CardList = Field(default_factory=new_list)
    hand: CardList = Field(default_factory=new_list)
    hand_size: int | None = Field(None, ge=0, le=7, description="an integer 0..7")
    command_cards: int | None = Field(None, ge=0, le=5, description="an integer 0..5")
    initiative: int = Field(0, ge=-9, le=9, description="an integer -9..9")
    max_copies: int | None = Field(
        None,
        ge=0,
        le=20,
        description="an integer 0..20: copies of one unit card in a pool-built deck (0: no limit)",
    )
    units: list[UnitPlacement] = Field(default_factory=new_list, description="[[sides.SIDE.units]] tables")
    artillery: Artillery | None = Field(None, description="a table with missions and weapon")


class Sides(_ScenarioPart):
    """The ``[sides.german]`` and ``[sides.soviet]`` tables."""

    german: SideSetup = Field(description="a side table")
    soviet: SideSetup = Field(description="a side table")


class Objective(_ScenarioPart):
    """An ``[[objectives]]`` table (R10.2)."""

    hex: Label
    name: str = Field("", description="text")
    points: int = Field(0, ge=0, le=1000, description="an integer 0..1000")
    holder: SideName | None = Field(None, description="a side: german or soviet")


class Battlefield(_ScenarioPart):
    """The ``[battlefield]`` table: fires, rubble and wrecks placed on the map at the start (R10.3)."""

    fires: list[Label] = Field(default_factory=new_list, description="building hexes burning at the start")
    rubble: list[Label] = Field(default_factory=new_list, description="building hexes already rubble")
    mines: list[Label] = Field(default_factory=new_list, description="minefield hexes (R10.5)")
    crossings: list[Label] = Field(
        default_factory=new_list, description="water hexes foot units may cross (R10.8)"
    )
    wrecks: dict[
        Annotated[str, StringConstraints(pattern=_LABEL), Field(description="a hex label like 'D07'")],
        Annotated[
            list[Annotated[str, Field(description="a wreck counter id")]],
            Field(description="wreck counter ids"),
        ],
    ] = Field(default_factory=new_dict, description="hex label = [wreck counter ids]")


class Hold(_ScenarioPart):
    """``[victory.hold]``: a side wins by holding every objective at a turn's end (R10.1)."""

    side: SideName = Field(description="a side: german or soviet")
    turn: int = Field(ge=1, le=1000, description="an integer 1..1000")


class Victory(_ScenarioPart):
    """The ``[victory]`` table."""

    hold: Hold | None = Field(None, description="a table with side and turn")


AreaName = Annotated[
    str,
    StringConstraints(min_length=1, max_length=40),
    Field(description="an area name of 1 to 40 characters"),
]
AreaSpec = Annotated[
    str,
    StringConstraints(pattern=r"^\s*[A-Za-z]{1,3}[0-9]{2,3}\s*(\.\.\s*[A-Za-z]{1,3}[0-9]{2,3}\s*)?$"),
    Field(description="a hex label like 'D07' or a range like 'B02..C05'"),
]


class ScenarioFile(_ScenarioPart):
    """A hex scenario file (version 1) as the TOML parses."""

    format: Literal["hexwar-scenario"] = Field("hexwar-scenario", description='"hexwar-scenario"')
    schema_version: Annotated[Literal[1], EXACT] = Field(1, description="1 (this hexwar's scenario schema)")
    scenario: ScenarioHead = Field(description="the [scenario] table")
    sides: Sides = Field(description="the [sides.german] and [sides.soviet] tables")
    objectives: list[Objective] = Field(default_factory=new_list, description="[[objectives]] tables")
    areas: dict[
        AreaName,
        Annotated[list[AreaSpec], Field(description="a list of hex labels and ranges like 'B02..C05'")],
    ] = Field(
        default_factory=new_dict,
        max_length=64,
        description="an [areas] table of name = [hex labels or ranges]",
    )
    battlefield: Battlefield | None = Field(
        None, description="the [battlefield] table: fires, rubble and wrecks placed on the map at the start"
    )
    victory: Victory | None = Field(None, description="the [victory] table")


def scenario_schema() -> dict[str, Any]:
    """The JSON Schema of the scenario file (``hexwar schema scenario``)."""
    return json_schema(
        ScenarioFile,
        "urn:hexwar:schema:scenario",
        "hexwar scenario (TOML, as parsed)",
        "A scenario file (docs/scenarios-format.md) as the TOML document parses. Unit and Event "
        "card ids, hexes on the map, deck and hand consistency, stacking and the map file itself "
        "are checked by hexwar after the schema.",
    )
