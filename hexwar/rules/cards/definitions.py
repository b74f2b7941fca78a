"""Card definitions (R4): the frozen card types and their effects, the id helpers and the
vocabulary of the card files (sides, unit types, lines, phases...)."""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol

from ...errors import HexwarError
from ...formats.effect_rules import EFFECT_RULES

__all__ = [
    "CARD_FILES",
    "CREW_REQUIREMENTS",
    "CREW_TYPES",
    "DURATIONS",
    "LINES",
    "PHASES",
    "QUALITIES",
    "SIDES",
    "SIDE_PREFIX",
    "TARGET_TYPES",
    "UNIT_TYPES",
    "VARIANTS",
    "WEAPON_FLAGS",
    "CardError",
    "CombatRules",
    "CommandCard",
    "CrewQuality",
    "DamageCard",
    "DamageSide",
    "Effect",
    "EffectKind",
    "EventCard",
    "UnitCard",
    "Weapon",
    "card_id_of",
    "instance_id",
    "opponent",
    "target_type_of",
]


SIDES = ("german", "soviet")
SIDE_PREFIX = {"german": "de", "soviet": "su"}  # unit card ids start with "de_" / "su_"
TARGET_TYPES = ("infantry", "vehicle", "gun", "aircraft")  # attack columns and Damage-card edges
CREW_TYPES = ("tank_crew", "artillery_crew", "pilot")
UNIT_TYPES = TARGET_TYPES + CREW_TYPES  # R4.1
CREW_REQUIREMENTS = ("none", "infantry") + CREW_TYPES  # "infantry": a halftrack commits with one
LINES = ("frontline", "rear", "frontline_or_rear", "aircraft")  # "aircraft" = Turns of Flight
QUALITIES = ("green", "regular", "veteran")
WEAPON_FLAGS = ("bomb", "flamethrower", "indirect")  # R4.2
PHASES = ("begin_turn", "commitment", "movement", "combat", "draw", "end_turn", "any")
DURATIONS = ("instant", "attack", "turn", "permanent")
VARIANTS = ("standard", "classic")  # 000 / 001 (R11.3)
CARD_FILES = ("weapons", "units", "crews", "command", "damage", "events", "combat")
FORMAT = "hexwar-cards"
SCHEMA_VERSION = 1


class CardError(HexwarError):
    """An unknown card id or name, or a deck request that breaks a rule (R4)."""


def opponent(side: str) -> str:
    """The other side: ``opponent("german") == "soviet"``.

    Raises:
        CardError: for a side other than ``german``/``soviet``.
    """
    if side == "german":
        return "soviet"
    if side == "soviet":
        return "german"
    raise CardError(f"unknown side {side!r}; expected one of {SIDES}")


def target_type_of(unit_type: str) -> str:
    """The attack column / Damage-card edge a unit type is attacked as (R4.2, R4.3).

    Crews (tank crew, artillery crew, pilot) are attacked as infantry and use the infantry
    edge of a Damage card (R7.5: infantry may target a gun's crew).

    >>> target_type_of("tank_crew"), target_type_of("gun")
    ('infantry', 'gun')
    """
    return "infantry" if unit_type in CREW_TYPES else unit_type


def instance_id(card_id: str, n: int) -> str:
    """The id of the ``n``-th physical copy of a card: ``instance_id("hull_down", 2) == "hull_down#2"``."""
    return f"{card_id}#{n}"


@lru_cache(maxsize=65536)
def card_id_of(instance: str) -> str:
    """The card definition id of a card instance id (``"de_tiger_i#1"`` -> ``"de_tiger_i"``).

    A bare card id is returned unchanged.
    """
    return instance.split("#", 1)[0]


# --------------------------------------------------------------------------------------------
# Effects: the typed vocabulary (R4.3)
# --------------------------------------------------------------------------------------------


class EffectKind(enum.StrEnum):
    """Every kind of card effect hexwar knows (R4.3). Values are the TOML ``kind`` strings.

    Which kinds the combat engine reads: ``defense``, ``attack``, ``exposed``,
    ``damage_index``, ``rate_of_fire``, ``no_attack``, ``no_second_weapon``, ``immobilized``,
    ``extra_damage``, ``turns_of_flight`` and ``close_assault``. The others are read by the
    game layer (movement, initiative, draw, commitment, artillery).
    """

    DEFENSE = "defense"  # value: Defense modifier (R6.7)
    ATTACK = "attack"  # value: modifier to the unit's own to-hit rolls (R6.3)
    EXPOSED = "exposed"  # value: modifier to opponents' to-hit rolls against the unit
    DAMAGE_INDEX = "damage_index"  # value: modifier to the Damage Index of the unit's weapons
    RATE_OF_FIRE = "rate_of_fire"  # value: extra (or fewer) to-hit rolls per weapon, 1..4
    NO_SECOND_WEAPON = "no_second_weapon"  # the 2nd listed weapon may not fire
    NO_ATTACK = "no_attack"  # the unit may not attack
    IMMOBILIZED = "immobilized"  # may not move; attackers get the immobilized bonus (R6.3)
    EXTRA_DAMAGE = "extra_damage"  # value: d10s of additional damage at once, no Defense
    MOVEMENT = "movement"  # value: movement points modifier (R5.3)
    MOVE_COST = "move_cost"  # value + mobility: cost modifier per hex entered (R5.3)
    TURNS_OF_FLIGHT = "turns_of_flight"  # value: aircraft Turns of Flight modifier (R5.6)
    INITIATIVE = "initiative"  # value: initiative roll modifier (R5.1c)
    DRAW = "draw"  # value: extra cards in the Draw Phase (R5.5)
    REMOVE_DAMAGE_CARD = "remove_damage_card"  # remove the unit's Damage card
    COMMIT_FROM_RESERVES = "commit_from_reserves"  # value: units committed from the Reserves deck
    ARTILLERY_ACCURACY = "artillery_accuracy"  # value: off-board artillery accuracy roll (R9.3)
    NO_AIRCRAFT = "no_aircraft"  # aircraft may not be committed
    CLOSE_ASSAULT = "close_assault"  # value: modifier to Close Assault to-hit rolls (R6.6)


# kind -> (value rule, contexts it may appear in, help template). The value rules and contexts
# are the card file model's (hexwar.formats.card_file.EFFECT_RULES, one source); value rule:
# "none" (no value), "signed" (non-zero int), "positive" (int >= 1)
_EFFECT_TEXT: dict[EffectKind, str] = {
    EffectKind.DEFENSE: "{value:+d} Defense",
    EffectKind.ATTACK: "{value:+d} to its attack rolls",
    EffectKind.EXPOSED: "opponents {value:+d} to attack rolls against it",
    EffectKind.DAMAGE_INDEX: "{value:+d} Damage Index",
    EffectKind.RATE_OF_FIRE: "{value:+d} rate of fire for each weapon (1 to 4)",
    EffectKind.NO_SECOND_WEAPON: "no attack with the 2nd listed weapon",
    EffectKind.NO_ATTACK: "no attack",
    EffectKind.IMMOBILIZED: "immobilized: may not move; opponents {bonus:+d} to attack it",
    EffectKind.EXTRA_DAMAGE: "{value}d10 additional damage at once (no Defense)",
    EffectKind.MOVEMENT: "{value:+d} movement points",
    EffectKind.MOVE_COST: "{value:+d} movement point(s) per hex entered by {mobility} units",
    EffectKind.TURNS_OF_FLIGHT: "{value:+d} Turns of Flight",
    EffectKind.INITIATIVE: "{value:+d} to the initiative roll",
    EffectKind.DRAW: "{value:+d} card(s) in the Draw Phase",
    EffectKind.REMOVE_DAMAGE_CARD: "remove its Damage card",
    EffectKind.COMMIT_FROM_RESERVES: "commit {value} unit(s) directly from the Reserves deck",
    EffectKind.ARTILLERY_ACCURACY: "{value:+d} to off-board artillery accuracy rolls",
    EffectKind.NO_AIRCRAFT: "aircraft may not be committed",
    EffectKind.CLOSE_ASSAULT: "{value:+d} to Close Assault attack rolls",
}
_EFFECT_SPECS: dict[EffectKind, tuple[str, frozenset[str], str]] = {
    k: (*EFFECT_RULES[k.value], text) for k, text in _EFFECT_TEXT.items()
}
assert set(_EFFECT_SPECS) == set(EffectKind) and set(EFFECT_RULES) == {k.value for k in EffectKind}


@dataclass(frozen=True, slots=True)
class Effect:
    """One typed card effect (R4.3).

    Attributes:
        kind: what the effect does (:class:`EffectKind`).
        value: its number (modifier, dice count, cards, units); 0 for kinds without one.
        mobility: for ``move_cost`` only: the mobility class affected.
        side: Events only: ``"german"``/``"soviet"`` when only that side's units are
            affected; ``None`` for both.
        unit_types: the unit types affected (empty: all). A Damage card edge or a Command
            card already names its unit types, so there this stays empty.
    """

    kind: EffectKind
    value: int = 0
    mobility: str | None = None
    side: str | None = None
    unit_types: tuple[str, ...] = ()

    def applies_to(self, side: str, unit_type: str) -> bool:
        """True when the effect's side and unit-type selectors match a unit."""
        if self.side is not None and self.side != side:
            return False
        return not self.unit_types or unit_type in self.unit_types

    def describe(self, rules: CombatRules | None = None) -> str:
        """Help text generated from the data, e.g. ``"+1 Defense"``."""
        bonus = rules.immobilized_attack_bonus if rules else 2
        text = _EFFECT_SPECS[self.kind][2].format(value=self.value, mobility=self.mobility, bonus=bonus)
        who = []
        if self.side:
            who.append(self.side.capitalize())
        if self.unit_types:
            who.append("/".join(t.replace("_", " ") for t in self.unit_types))
        return f"{' '.join(who)} units: {text}" if who else text[:1].upper() + text[1:]


# --------------------------------------------------------------------------------------------
# Definitions
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Weapon:
    """A weapon listed on unit cards (R4.2).

    Attributes:
        id: identifier in ``weapons.toml``.
        name: display name.
        attack: ``(target type, attack value)`` pairs in :data:`TARGET_TYPES` order; a
            missing type cannot be affected. The attack value is the 2d10 sum needed.
        rate_of_fire: number of to-hit rolls, 1..4.
        damage_index: added to the Intensity d10 (R6.5).
        range: maximum range in hexes (map addition); 0 = no range limit (aircraft, R7.4).
        underscored: fires bullets: cannot affect a target of base Defense >= 2 (R4.2).
        bomb: may be used once per flight (R7.4).
        flamethrower: may attack buildings (R8.2).
        indirect: may fire without its own LOS (R7.3).
    """

    id: str
    name: str
    attack: tuple[tuple[str, int], ...]
    rate_of_fire: int = 1
    damage_index: int = 0
    range: int = 1
    underscored: bool = False
    bomb: bool = False
    flamethrower: bool = False
    indirect: bool = False

    def attack_value(self, target_type: str) -> int | None:
        """The 2d10 sum needed against ``target_type`` (crew types read as infantry), or ``None``."""
        tt = target_type_of(target_type)
        for t, v in self.attack:
            if t == tt:
                return v
        return None

    def affects(self, target: UnitCard) -> bool:
        """True when this weapon can affect ``target`` at all (000 Legal Targets, R4.2).

        It needs an attack value for the target's type, and an underscored weapon cannot
        affect a base (card) Defense of 2 or more.
        """
        if self.attack_value(target.target_type) is None:
            return False
        return not (self.underscored and target.defense >= 2)

    def in_range(self, distance: int) -> bool:
        """True when a target ``distance`` hexes away is in range (range 0 = unlimited)."""
        return self.range == 0 or distance <= self.range

    @property
    def flags(self) -> tuple[str, ...]:
        """The weapon's flags in :data:`WEAPON_FLAGS` order."""
        return tuple(f for f in WEAPON_FLAGS if getattr(self, f))

    def describe(self) -> str:
        """One line of help text: attack values, rate of fire, Damage Index, range, flags."""
        short = {"infantry": "inf", "vehicle": "veh", "gun": "gun", "aircraft": "air"}
        vals = ", ".join(f"{short[t]} {v}" for t, v in self.attack)
        parts = [f"{self.name}: {vals}"]
        if self.rate_of_fire > 1:
            parts.append(f"{self.rate_of_fire}x rate of fire")
        parts.append(f"DI {self.damage_index}")
        parts.append("unlimited range" if self.range == 0 else f"range {self.range}")
        if self.underscored:
            parts.append("bullets (no effect on Defense 2+)")
        parts.extend(self.flags)
        return "; ".join(parts)


@dataclass(frozen=True, slots=True)
class CrewQuality:
    """A crew quality (R4.1).

    Attributes:
        key: ``"green"``, ``"regular"`` or ``"veteran"``.
        name: display name.
        attack: modifier to the crewed unit's to-hit rolls (green -1, veteran +1, R6.3).
        ignores_marked_effects: ignores Damage-card effects marked ``veteran_ignores`` (000:
            "experienced units such as Veterans may be able to ignore an Effect").
    """

    key: str
    name: str
    attack: int
    ignores_marked_effects: bool = False


class QualityTable(Protocol):
    """What :meth:`UnitCard.help_text` reads of a card set: the crew qualities by id (R4.1, R6.3).

    :class:`~hexwar.rules.cards.cardset.CardSet` satisfies it; the definitions never import the
    card set, which imports them (issue 34: no import loop).
    """

    @property
    def qualities(self) -> Mapping[str, CrewQuality]:
        """Crew qualities by id."""
        ...


@dataclass(frozen=True, slots=True)
class UnitCard:
    """A unit card, crews included (R4.1).

    Attributes:
        id: identifier, ``de_...`` (German) or ``su_...`` (Soviet).
        name: display name.
        side: ``"german"`` or ``"soviet"``.
        unit_type: one of :data:`UNIT_TYPES`.
        crew: the crew it needs: one of :data:`CREW_REQUIREMENTS` (``"infantry"``: a
            halftrack commits together with an infantry unit, which is no crew).
        defense: card (base) Defense.
        endurance_full: Full Endurance.
        endurance_half: Half Endurance (the critical-damage breakpoint, R6.6).
        cost: cost and victory points (R10).
        line: one of :data:`LINES` (``"aircraft"``: the card shows Turns of Flight).
        weapons: the listed weapons, in card order (the 1st is the SPG's long-range weapon).
        movement: movement points per turn (map addition, R5.3); 0 for guns and aircraft.
        mobility: ``"foot"``, ``"tracked"``, ``"wheeled"`` or ``None`` (guns, aircraft).
        turns_of_flight: aircraft only: turns aloft (R5.6).
        quality: crew cards only: a key of :data:`QUALITIES`.
        note: a historical caption (not rules text).
    """

    id: str
    name: str
    side: str
    unit_type: str
    crew: str
    defense: int
    endurance_full: int
    endurance_half: int
    cost: int
    line: str
    weapons: tuple[Weapon, ...] = ()
    movement: int = 0
    mobility: str | None = None
    turns_of_flight: int | None = None
    quality: str | None = None
    note: str = ""

    @property
    def target_type(self) -> str:
        """The attack column and Damage-card edge for this unit (crews: ``"infantry"``)."""
        return target_type_of(self.unit_type)

    @property
    def is_crew(self) -> bool:
        """True for tank crew, artillery crew and pilot cards."""
        return self.unit_type in CREW_TYPES

    @property
    def needs_crew(self) -> bool:
        """True when the unit cannot fight without a crew card of type :attr:`crew`."""
        return self.crew in CREW_TYPES

    @property
    def armored(self) -> bool:
        """Armored units (vehicles) take the armored terrain modifier (R6.8)."""
        return self.unit_type == "vehicle"

    @property
    def soft(self) -> bool:
        """Soft units (infantry, crews, guns) take the soft terrain modifier (R6.8)."""
        return self.unit_type in ("infantry", "gun") or self.is_crew

    @property
    def is_ground(self) -> bool:
        """Everything but aircraft and pilots."""
        return self.unit_type not in ("aircraft", "pilot")

    @property
    def is_spg(self) -> bool:
        """Self-propelled guns operate on the frontline or the rear line (R7.2)."""
        return self.line == "frontline_or_rear"

    def help_text(self, cards: QualityTable | None = None) -> str:
        """Multi-line help text generated from the card's data.

        Args:
            cards: where the crew qualities' attack modifiers come from (a
                :class:`~hexwar.rules.cards.cardset.CardSet`); ``None``: the quality without it.
        """
        kind = self.unit_type.replace("_", " ")
        if self.is_crew:
            line = "rides with the unit it crews"
        elif self.line == "aircraft":
            line = f"{self.turns_of_flight} Turns of Flight"
        else:
            line = {
                "frontline": "frontline",
                "rear": "rear line",
                "frontline_or_rear": "frontline or rear line",
            }[self.line]
        out = [f"{self.name} ({self.side} {kind}, {line}), cost {self.cost}"]
        crew = (
            "no crew (N/C)"
            if self.crew == "none"
            else (
                "commits with an infantry unit"
                if self.crew == "infantry"
                else _with_article(self.crew.replace("_", " "))
            )
        )
        move = f"movement {self.movement} ({self.mobility})" if self.mobility else "does not move"
        out.append(
            f"Defense {self.defense}, Endurance {self.endurance_full} / Half {self.endurance_half}; "
            f"{crew}; {move}"
        )
        if self.quality:
            q = cards.qualities[self.quality] if cards else None
            mod = f" ({q.attack:+d} to attack rolls)" if q is not None and q.attack else ""
            out.append(f"Quality: {self.quality}{mod}")
        for i, w in enumerate(self.weapons, 1):
            out.append(f"  {i}. {w.describe()}")
        if self.note:
            out.append(self.note)
        return "\n".join(out)


@dataclass(frozen=True, slots=True)
class DamageSide:
    """One edge of a Damage card: the effect for one target type (R4.3, R6.6).

    Attributes:
        target_type: one of :data:`TARGET_TYPES`.
        title: the effect's title, e.g. ``"Immobilized"``.
        effects: the typed effects applied while the effect is active.
        turns: the built-in counter: the effect ends after this many End Turns (the End Turn
            of the turn it was drawn counts, R5.6); ``None`` = permanent.
        veteran_ignores: a veteran crew (or veteran crew card) ignores these effects (the
            damage itself still applies).
    """

    target_type: str
    title: str
    effects: tuple[Effect, ...]
    turns: int | None = None
    veteran_ignores: bool = False

    def describe(self, rules: CombatRules | None = None) -> str:
        """Help text, e.g. ``"Immobilized: Immobilized: ...; -2 Defense"``."""
        text = "; ".join(e.describe(rules) for e in self.effects)
        if self.turns:
            text += f" (for {self.turns} turn{'s' if self.turns != 1 else ''})"
        if self.veteran_ignores:
            text += " Veterans ignore this effect."
        return f"{self.title}: {text}"


@dataclass(frozen=True, slots=True)
class DamageCard:
    """A Damage card: four edges, one per target type (R4.3).

    Attributes:
        id: identifier (one physical card each: its instance id is ``"<id>#1"``).
        sides: the four :class:`DamageSide` in :data:`TARGET_TYPES` order.
    """

    id: str
    sides: tuple[DamageSide, ...]

    def side_for(self, unit_type: str) -> DamageSide:
        """The edge that applies to ``unit_type`` (crews use the infantry edge)."""
        tt = target_type_of(unit_type)
        for s in self.sides:
            if s.target_type == tt:
                return s
        raise CardError(f"damage card {self.id} has no {tt} edge")  # validation prevents this

    def help_text(self, rules: CombatRules | None = None) -> str:
        """Four lines, one per edge."""
        return "\n".join(f"{s.target_type}: {s.describe(rules)}" for s in self.sides)


@dataclass(frozen=True, slots=True)
class CommandCard:
    """A Command card kind (R4.3); ``copies`` physical cards of it are in the deck.

    Attributes:
        id: identifier.
        title: display title.
        copies: physical copies in the 50-card Command deck.
        phase: when it is played (:data:`PHASES`).
        applies_to: unit types it may be played on (empty: any, or no unit).
        duration: ``"instant"`` (takes effect and is discarded), ``"attack"`` (for the one
            attack it is played on), ``"turn"`` (stays with the unit until End Turn) or
            ``"permanent"`` (stays with the unit until it leaves play).
        effects: typed effects.
        note: historical caption (not rules text).
    """

    id: str
    title: str
    copies: int
    phase: str
    applies_to: tuple[str, ...]
    duration: str
    effects: tuple[Effect, ...]
    note: str = ""

    def applies_to_unit(self, unit_type: str) -> bool:
        """True when the card may be played on a unit of ``unit_type``."""
        return not self.applies_to or unit_type in self.applies_to

    def help_text(self, rules: CombatRules | None = None) -> str:
        """Help text generated from the data."""
        who = "/".join(t.replace("_", " ") for t in self.applies_to) or "any unit"
        dur = {
            "instant": "at once",
            "attack": "for one attack",
            "turn": "until End Turn",
            "permanent": "until the unit leaves play",
        }[self.duration]
        fx = "; ".join(e.describe(rules) for e in self.effects)
        return (
            f"{self.title} ({self.phase.replace('_', ' ')} phase, {who}, {dur}): {fx}. "
            f"Or discard before any roll for +1."
        )


@dataclass(frozen=True, slots=True)
class EventCard:
    """An Event card (000): applies to both players (unless an effect names a side) when drawn.

    Attributes:
        id: identifier (``ev_...``).
        title: display title.
        effects: typed effects, each with optional side / unit-type selectors.
        turns: the Event lasts this many End Turns; ``None`` = the rest of the game.
        note: historical caption (not rules text).
    """

    id: str
    title: str
    effects: tuple[Effect, ...]
    turns: int | None = None
    note: str = ""

    def help_text(self, rules: CombatRules | None = None) -> str:
        """Help text generated from the data."""
        dur = "for the rest of the game" if self.turns is None else f"for {self.turns} turn(s)"
        return f"Event: {self.title} ({dur}): " + "; ".join(e.describe(rules) for e in self.effects)


@dataclass(frozen=True, slots=True)
class CombatRules:
    """The numbers of the combat rules themselves, from ``combat.toml`` (R6).

    Attributes:
        double_intensity: natural 2d10 sums that double the Intensity roll (R6.4: 18).
        special: natural sums that draw a Damage card / destroy (R6.4: 19, 20).
        friendly_fire: natural sums that cause friendly fire in ``classic`` (R6.4: 2, 3).
        immobilized_attack_bonus: to-hit bonus against an immobilized target (R6.3: +2).
        crew_survives / crew_captured / crew_destroyed: inclusive d10 bands (R6.6).
        capture_multiplier: victory points factor for captures (R6.6: 2).
        close_assault_min: infantry needed for a Close Assault (000: 3).
        max_weapons: weapons per declared attack (R6.1: 2).
        command_deck_size: Command cards in the deck (R4.3: 50).
        damage_deck_size: Damage cards (R4.3: 25).
        reserves_min / reserves_max: Reserves deck point budget (000: 80-100).
        hand_units: unit cards in the starting hand (000: 4).
        hand_command: Command cards dealt at setup (000: 3).
    """

    double_intensity: tuple[int, ...] = (18,)
    special: tuple[int, ...] = (19, 20)
    friendly_fire: tuple[int, ...] = (2, 3)
    immobilized_attack_bonus: int = 2
    crew_survives: tuple[int, int] = (1, 3)
    crew_captured: tuple[int, int] = (4, 6)
    crew_destroyed: tuple[int, int] = (7, 10)
    capture_multiplier: int = 2
    close_assault_min: int = 3
    max_weapons: int = 2
    command_deck_size: int = 50
    damage_deck_size: int = 25
    reserves_min: int = 80
    reserves_max: int = 100
    hand_units: int = 4
    hand_command: int = 3

    def crew_fate(self, die: int) -> str:
        """``"survives"``, ``"captured"`` or ``"destroyed"`` for a natural Intensity die (R6.6)."""
        for name, (lo, hi) in (
            ("survives", self.crew_survives),
            ("captured", self.crew_captured),
            ("destroyed", self.crew_destroyed),
        ):
            if lo <= die <= hi:
                return name
        raise ValueError(f"crew fate die {die} outside 1..10")


def _with_article(crew: str) -> str:
    """'needs a tank crew' / 'needs an artillery crew' (R4.1 crew required, in plain English).

    >>> _with_article("artillery crew")
    'needs an artillery crew'
    """
    return f"needs {'an' if crew[:1].lower() in 'aeiou' else 'a'} {crew}"
