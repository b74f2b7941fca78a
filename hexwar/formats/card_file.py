"""The card data files (``format = "hexwar-cards"``, ``hexwar/data/cards/*.toml``) as typed models.

One model per ``kind`` of card file (R4): ``weapons`` (:class:`WeaponsFile`, R4.2), ``units``
(:class:`UnitsFile`, R4.1), ``crews`` (:class:`CrewsFile`, R4.1, R11.3), ``command``
(:class:`CommandFile`, R4.3), ``damage`` (:class:`DamageFile`, R4.3), ``events``
(:class:`EventsFile`, R4.3) and ``combat`` (:class:`CombatFile`, R6). :data:`CardFile` is their
union, told apart by ``kind``; ``hexwar schema cards`` prints its JSON Schema.

A model says everything one card can say about itself: fields, types, ranges, and the rules
between its own fields (a gun has no mobility class, an aircraft flies from the ``aircraft``
line, an endurance's half value lies below its full value, an effect's kind is allowed on the
card it is on, R4.1-R4.3). What needs another card or another file (a weapon id that exists,
a crew card for every crew type a unit needs, deck sizes of 50 and 25 cards, ids used once) is
checked by :func:`hexwar.rules.cards.loader.load_cards` after the model.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints, ValidatorFunctionWrapHandler, model_validator

from ..model.filemodel import BUILT, DEFERRED, EXACT, FileModel, json_schema, new_list
from ..model.terrain_file import Mobility
from .card_vocab import (
    EFFECT_RULES,
    CommandEffects,
    CrewNeed,
    DamageEffects,
    Duration,
    EventEffects,
    LineName,
    Phase,
    Quality,
    Side,
    TargetType,
    Text,
    UnitType,
    WeaponFlag,
    card_rules,
)

__all__ = [
    "CARD_FORMAT",
    "CARD_SCHEMA_VERSION",
    "EFFECT_RULES",
    "CardHeader",
    "CardKind",
    "CardFile",
    "CARD_MODELS",
    "WeaponsFile",
    "UnitsFile",
    "CrewsFile",
    "CommandFile",
    "DamageFile",
    "EventsFile",
    "CombatFile",
    "card_schema",
]

CARD_FORMAT = "hexwar-cards"
CARD_SCHEMA_VERSION = 1


# -- the header every card file has --------------------------------------------------------------
class CardHeader(FileModel):
    """The three keys every card file starts with; the rest depends on ``kind``."""

    model_config = FileModel.model_config | {"extra": "allow"}

    format: Literal["hexwar-cards"] = Field(description='"hexwar-cards"')
    schema_version: Annotated[Literal[1], EXACT] = Field(description="1 (this hexwar's card schema)")
    kind: Literal["weapons", "units", "crews", "command", "damage", "events", "combat"] = Field(
        description="the kind of card file: weapons, units, crews, command, damage, events or combat"
    )


class CardKind(FileModel):
    """The ``kind`` of a card file, read first to choose its model."""

    model_config = FileModel.model_config | {"extra": "allow"}

    kind: Literal["weapons", "units", "crews", "command", "damage", "events", "combat"]


class _Head(FileModel):
    model_config = DEFERRED  # a base only: its subclasses are built

    format: Literal["hexwar-cards"] = Field(description='"hexwar-cards"')
    schema_version: Annotated[Literal[1], EXACT] = Field(description="1 (this hexwar's card schema)")


CardId = Annotated[str, Field(description="a card id")]


# -- weapons (R4.2) ---------------------------------------------------------------------------------
Attack = Annotated[int, Field(ge=2, le=20, description="an integer 2..20")]


class AttackValues(FileModel):
    """A weapon's attack value per target type (a 2d10 target, R6.3); at least one."""

    infantry: Attack | None = None
    vehicle: Attack | None = None
    gun: Attack | None = None
    aircraft: Attack | None = None

    @model_validator(mode="after")
    def _at_least_one(self) -> AttackValues:
        if not self.model_fields_set:
            raise ValueError("expected at least one attack value")
        return self


class WeaponCard(FileModel):
    """A ``[weapon.ID]`` table (R4.2)."""

    name: Text
    attack: AttackValues = Field(description="a table of attack values by target type")
    rof: int = Field(1, ge=1, le=4, description="an integer 1..4 (rate of fire)")
    damage_index: int = Field(ge=0, le=20, description="an integer 0..20")
    range: int = Field(ge=0, le=60, description="an integer 0..60 (hexes; 0: unlimited, aircraft)")
    underscored: bool = Field(False, description="true or false")
    flags: list[WeaponFlag] = Field(
        default_factory=new_list, description="a list of bomb, flamethrower, indirect"
    )


class WeaponsFile(_Head):
    """``kind = "weapons"``: every weapon unit cards list."""

    model_config = BUILT

    kind: Literal["weapons"] = Field(description='"weapons"')
    weapon: dict[CardId, Annotated[WeaponCard, Field(description="a [weapon.ID] table")]] = Field(
        description="[weapon.ID] tables"
    )


# -- units (R4.1) -------------------------------------------------------------------------------------
class UnitEndurance(FileModel):
    """Endurance at full and at half strength (R4.1): half below full."""

    full: int = Field(2, ge=2, le=40, description="an integer 2..40")
    half: int = Field(1, ge=1, le=20, description="an integer 1..20")

    @model_validator(mode="after")
    def _half_below_full(self) -> UnitEndurance:
        if self.half >= self.full:
            raise ValueError(f"half ({self.half}) must be below full ({self.full})")
        return self


_CREW_FOR = {
    "infantry": ("none",),
    "gun": ("artillery_crew",),
    "aircraft": ("pilot",),
    "vehicle": ("tank_crew", "artillery_crew", "infantry", "none"),
}


class UnitCard(FileModel):
    """A ``[unit.ID]`` table (R4.1)."""

    name: Text
    type: TargetType = Field(description="a unit type: infantry, vehicle, gun or aircraft")
    crew: CrewNeed = Field(
        "none", description="the crew it needs: none, infantry, tank_crew, artillery_crew or pilot"
    )
    defense: int = Field(ge=0, le=12, description="an integer 0..12")
    endurance: UnitEndurance = Field(description="{ full, half }")
    cost: int = Field(ge=1, le=40, description="an integer 1..40 (points)")
    line: LineName = Field(description="frontline, rear, frontline_or_rear or aircraft")
    movement: int = Field(0, ge=0, le=12, description="an integer 0..12 (movement points)")
    mobility: Mobility | None = Field(None, description="a mobility class: foot, tracked or wheeled")
    turns_of_flight: int | None = Field(None, ge=1, le=6, description="an integer 1..6 (aircraft only)")
    weapons: list[Annotated[str, Field(description="a weapon id")]] = Field(
        min_length=1, max_length=3, description="a list of 1 to 3 weapon ids"
    )
    note: str = Field("", description="a text")

    @model_validator(mode="wrap")
    @classmethod
    def _type_rules(cls, v: Any, handler: ValidatorFunctionWrapHandler) -> Any:
        """R4.1: the crew a type takes, the aircraft line and Turns of Flight, mobility and movement."""
        out = handler(v)
        t = out.type
        found: list[tuple[str, str]] = []
        if out.crew not in _CREW_FOR[t]:
            found.append(("crew", f"a {t} needs crew in {_CREW_FOR[t]}, got {out.crew!r}"))
        if t == "aircraft":
            if out.line != "aircraft":
                found.append(("line", 'aircraft have line = "aircraft" (Turns of Flight)'))
            if out.turns_of_flight is None:
                found.append(("turns_of_flight", "missing; expected an integer 1..6"))
        else:
            if out.line == "aircraft":
                found.append(("line", 'only aircraft have line = "aircraft"'))
            if out.turns_of_flight is not None:
                found.append(("turns_of_flight", "only aircraft have Turns of Flight"))
        if t in ("gun", "aircraft"):
            if out.mobility is not None or out.movement != 0:
                found.append(("mobility", f"a {t} has no mobility class and movement 0 (R4.1)"))
        else:
            want = ("foot",) if t == "infantry" else ("tracked", "wheeled")
            if out.mobility not in want:
                found.append(("mobility", f"a {t} moves {' or '.join(want)}, got {out.mobility!r}"))
            if out.movement < 1:
                found.append(("movement", "expected at least 1 movement point"))
        card_rules("UnitCard", v, found)
        return out


class UnitsFile(_Head):
    """``kind = "units"``: one side's unit cards (ids start with ``de_`` or ``su_``)."""

    model_config = BUILT

    kind: Literal["units"] = Field(description='"units"')
    side: Side = Field(description="a side: german or soviet")
    unit: dict[CardId, Annotated[UnitCard, Field(description="a [unit.ID] table")]] = Field(
        description="[unit.ID] tables"
    )


# -- crews (R4.1; the crews-fight variant, R11.3) --------------------------------------------------
class CrewQuality(FileModel):
    """A ``[quality.Q]`` table."""

    name: Text
    attack: int = Field(ge=-3, le=3, description="an integer -3..3 (attack modifier)")
    ignores_marked_effects: bool = Field(False, description="true or false")


class Qualities(FileModel):
    """The three crew qualities."""

    green: CrewQuality = Field(description="the green quality")
    regular: CrewQuality = Field(description="the regular quality")
    veteran: CrewQuality = Field(description="the veteran quality")


WeaponIds = Annotated[
    list[Annotated[str, Field(description="a weapon id")]],
    Field(min_length=1, max_length=2, description="a list of 1 or 2 weapon ids"),
]


class AfootWeapons(FileModel):
    """The weapons a crew fighting as infantry carries, per side."""

    german: WeaponIds
    soviet: WeaponIds


class FightAsInfantry(FileModel):
    """``[fight_as_infantry]``: crews that stay in play as infantry (000's optional rule, R11.3)."""

    crew_types: list[Literal["tank_crew", "artillery_crew"]] = Field(
        default_factory=new_list, description="a list of ground crew types (tank_crew, artillery_crew)"
    )
    qualities: list[Quality] = Field(
        default_factory=new_list, description="a list of qualities: green, regular, veteran"
    )
    movement: int = Field(3, ge=1, le=8, description="an integer 1..8")
    weapons: AfootWeapons = Field(description="{ german = [weapon ids], soviet = [weapon ids] }")


class CrewEndurance(FileModel):
    """A crew's endurance (R4.1): half below full."""

    full: int = Field(2, ge=2, le=20, description="an integer 2..20")
    half: int = Field(1, ge=1, le=10, description="an integer 1..10")

    @model_validator(mode="after")
    def _half_below_full(self) -> CrewEndurance:
        if self.half >= self.full:
            raise ValueError(f"half ({self.half}) must be below full ({self.full})")
        return self


CrewCost = Annotated[int, Field(ge=1, le=10, description="an integer 1..10 (points)")]


class CrewCosts(FileModel):
    """Points per quality."""

    green: CrewCost = 1
    regular: CrewCost = 1
    veteran: CrewCost = 1


class CrewNames(FileModel):
    """The crew's name on each side."""

    german: str = Field(description="the crew's name for this side")
    soviet: str = Field(description="the crew's name for this side")


class CrewTypeCard(FileModel):
    """A ``[crew_type.T]`` table: one card per side and quality is made from it."""

    names: CrewNames = Field(description="{ german = ..., soviet = ... }")
    defense: int = Field(ge=0, le=5, description="an integer 0..5")
    endurance: CrewEndurance = Field(description="{ full, half }")
    cost: CrewCosts = Field(description="{ green, regular, veteran } points")
    movement: int = Field(0, ge=0, le=8, description="an integer 0..8")


class CrewTypes(FileModel):
    """The three crew types."""

    tank_crew: CrewTypeCard = Field(description="the tank crew")
    artillery_crew: CrewTypeCard = Field(description="the artillery crew")
    pilot: CrewTypeCard = Field(description="the pilot")


class CrewsFile(_Head):
    """``kind = "crews"``: crew qualities and crew types."""

    model_config = BUILT

    kind: Literal["crews"] = Field(description='"crews"')
    quality: Qualities = Field(description="[quality.green], [quality.regular], [quality.veteran]")
    fight_as_infantry: FightAsInfantry | None = Field(None, description="the crews-fight variant's crews")
    crew_type: CrewTypes = Field(
        description="[crew_type.tank_crew], [crew_type.artillery_crew], [crew_type.pilot]"
    )


# -- Command, Damage and Event cards (R4.3) -----------------------------------------------------
class CommandCard(FileModel):
    """A ``[command.ID]`` table."""

    title: Text
    copies: int = Field(ge=1, le=10, description="an integer 1..10")
    phase: Phase = Field(description="the phase it is played in")
    applies_to: list[UnitType] = Field(default_factory=new_list, description="a list of unit types")
    duration: Duration = Field(description="instant, attack, turn or permanent")
    effects: CommandEffects
    note: str = Field("", description="a text")

    @model_validator(mode="after")
    def _attack_in_combat(self) -> CommandCard:
        if self.duration == "attack" and self.phase != "combat":
            card_rules(
                "CommandCard", self, [("phase", "a card played on one attack is played in the combat phase")]
            )
        return self


class CommandFile(_Head):
    """``kind = "command"``: the Command cards (50 copies in all, R4.3)."""

    model_config = BUILT

    kind: Literal["command"] = Field(description='"command"')
    command: dict[CardId, Annotated[CommandCard, Field(description="a [command.ID] table")]] = Field(
        description="[command.ID] tables"
    )


class DamageEdge(FileModel):
    """One edge of a Damage card: its effect on one unit type."""

    title: Text
    effects: DamageEffects
    turns: int | None = Field(None, ge=1, le=5, description="a turn counter 1..5")
    veteran_ignores: bool = Field(False, description="true or false")


class DamageCard(FileModel):
    """A ``[[damage]]`` entry: an edge for each target type (checked by the loader: all four)."""

    id: str = Field(description="an id (the loader checks it is not empty and used once)")
    infantry: DamageEdge | None = Field(None, description="the infantry edge: { title, effects }")
    vehicle: DamageEdge | None = Field(None, description="the vehicle edge: { title, effects }")
    gun: DamageEdge | None = Field(None, description="the gun edge: { title, effects }")
    aircraft: DamageEdge | None = Field(None, description="the aircraft edge: { title, effects }")


class DamageFile(_Head):
    """``kind = "damage"``: the Damage cards (25, R4.3)."""

    model_config = BUILT

    kind: Literal["damage"] = Field(description='"damage"')
    damage: list[Annotated[DamageCard, Field(description="a [[damage]] table")]] = Field(
        description="[[damage]] entries"
    )


class EventCard(FileModel):
    """An ``[event.ev_ID]`` table."""

    title: Text
    effects: EventEffects
    turns: int | None = Field(None, ge=1, le=10, description="1..10 turns or no value (rest of the game)")
    note: str = Field("", description="a text")


class EventsFile(_Head):
    """``kind = "events"``: the Event cards a scenario may shuffle into the Command deck."""

    model_config = BUILT

    kind: Literal["events"] = Field(description='"events"')
    event: dict[
        Annotated[
            str, StringConstraints(pattern=r"^ev_"), Field(description="an Event id starting with 'ev_'")
        ],
        Annotated[EventCard, Field(description="an [event.ev_ID] table")],
    ] = Field(description="[event.ev_ID] tables")


# -- combat numbers (R6) --------------------------------------------------------------------------
Natural = Annotated[int, Field(ge=2, le=20, description="a natural 2d10 sum 2..20")]
Face = Annotated[int, Field(ge=1, le=10, description="a d10 face 1..10")]
Band = Annotated[list[Face], Field(min_length=2, max_length=2, description="[low, high] d10 faces")]


class CombatNumbers(FileModel):
    """The ``[combat]`` table: the numbers of R6 and 000's setup."""

    double_intensity: list[Natural] = Field(description="a list of natural 2d10 sums 2..20")
    special: list[Natural] = Field(description="a list of natural 2d10 sums 2..20")
    friendly_fire: list[Natural] = Field(description="a list of natural 2d10 sums 2..20")
    crew_survives: Band
    crew_captured: Band
    crew_destroyed: Band
    immobilized_attack_bonus: int = Field(2, ge=0, le=5, description="an integer 0..5")
    capture_multiplier: int = Field(2, ge=1, le=4, description="an integer 1..4")
    close_assault_min: int = Field(3, ge=2, le=6, description="an integer 2..6")
    max_weapons: int = Field(2, ge=1, le=3, description="an integer 1..3")
    command_deck_size: int = Field(50, ge=10, le=200, description="an integer 10..200")
    damage_deck_size: int = Field(25, ge=5, le=100, description="an integer 5..100")
    reserves_min: int = Field(80, ge=1, le=500, description="an integer 1..500")
    reserves_max: int = Field(100, ge=1, le=500, description="an integer 1..500")
    hand_units: int = Field(4, ge=0, le=10, description="an integer 0..10")
    hand_command: int = Field(3, ge=0, le=10, description="an integer 0..10")

    @model_validator(mode="after")
    def _bands(self) -> CombatNumbers:
        """R6.6: the crew fate bands run low to high and cover the d10 faces 1..10 exactly once."""
        found = [
            (name, "expected [low, high] d10 faces")
            for name in ("crew_survives", "crew_captured", "crew_destroyed")
            if getattr(self, name)[0] > getattr(self, name)[1]
        ]
        faces = sorted(
            f
            for k in ("crew_survives", "crew_captured", "crew_destroyed")
            for f in range(getattr(self, k)[0], getattr(self, k)[1] + 1)
        )
        if not found and faces != list(range(1, 11)):
            found.append(("", "the crew fate bands must cover d10 faces 1..10 exactly once"))
        card_rules("CombatNumbers", self, found)
        return self


class CombatFile(_Head):
    """``kind = "combat"``: the combat numbers."""

    model_config = BUILT

    kind: Literal["combat"] = Field(description='"combat"')
    combat: CombatNumbers = Field(description="the [combat] table")


CardFile = Annotated[
    WeaponsFile | UnitsFile | CrewsFile | CommandFile | DamageFile | EventsFile | CombatFile,
    Field(discriminator="kind"),
]
#: kind -> its model
CARD_MODELS: dict[str, Any] = {
    "weapons": WeaponsFile,
    "units": UnitsFile,
    "crews": CrewsFile,
    "command": CommandFile,
    "damage": DamageFile,
    "events": EventsFile,
    "combat": CombatFile,
}


def card_schema() -> dict[str, Any]:
    """The JSON Schema of the card files (``hexwar schema cards``)."""
    return json_schema(
        CardFile,  # type: ignore[arg-type]
        "urn:hexwar:schema:cards",
        "hexwar card file (TOML, as parsed)",
        "A card data file (hexwar/data/cards/*.toml) as the TOML document parses: one of weapons, "
        "units, crews, command, damage, events or combat, told apart by its kind. Weapon ids that "
        "exist, crew cards for every crew a unit needs, deck sizes and ids used once are checked "
        "by hexwar after the schema.",
    )
