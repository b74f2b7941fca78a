"""Spearpoint card definitions (R4): unit, crew, weapon, Command, Damage and Event cards, and decks.

Everything here is a *frozen definition* loaded once from the TOML files in
``hexwar/data/cards/`` (DESIGN.md: definitions vs state). Mutable per-unit state lives in
:mod:`hexwar.rules.units`; mutable decks (:class:`Deck`) hold card *instance ids* only, so a
game state that contains them serializes to small JSON.

Files (all ``format = "hexwar-cards"``, ``schema_version = 1``, and a ``kind``):

==================  ===========================================================================
``weapons.toml``    ``[weapon.<id>]``: attack values per target type, rate of fire, Damage
                    Index, range in hexes, underscore and flags (R4.2)
``units_*.toml``    ``[unit.<id>]`` of one side (R4.1): type, crew needed, Defense, Endurance,
                    cost, line, movement and mobility (map additions), weapon ids
``crews.toml``      crew qualities (green -1, regular 0, veteran +1, R4.1) and crew types;
                    the crew cards of both sides are generated from these tables
``command.toml``    Command card kinds with their number of copies (50 cards in all, R4.3)
``damage.toml``     the 25 Damage cards, each with one effect per target type (R4.3)
``events.toml``     Event cards that may be shuffled into the Command deck (000)
``combat.toml``     the numbers of the combat rules themselves (R6): special rolls, crew fate
                    bands, immobilized bonus, deck sizes, Reserves budget
==================  ===========================================================================

Card effects are typed data (:class:`Effect`: a kind from :class:`EffectKind` plus numbers),
never free text interpreted at run time (R4.3); every help text is generated from the data.

Card *instances* (one physical card) have ids ``"<card id>#<n>"``, e.g. ``"hull_down#2"``;
:func:`card_id_of` recovers the definition id. Each physical card exists exactly once across
decks, hands, discard piles and the map.

>>> cards = default_cards()
>>> tiger = cards.unit("de_tiger_i")
>>> tiger.defense, tiger.endurance_full, tiger.endurance_half
(8, 20, 10)
>>> tiger.weapons[0].attack_value("vehicle")
8
>>> card_id_of("hull_down#2")
'hull_down'
"""

from __future__ import annotations

import enum
import os
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache, lru_cache
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from ..errors import HexwarError, Problem, ValidationError
from ..fileio import read_toml
from ..terrain import MOBILITY_CLASSES

if TYPE_CHECKING:  # pragma: no cover
    from .dice import Dice

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
    "CardSet",
    "CombatRules",
    "CommandCard",
    "CrewQuality",
    "DamageCard",
    "DamageSide",
    "Deck",
    "Effect",
    "EffectKind",
    "EventCard",
    "UnitCard",
    "Weapon",
    "auto_reserves",
    "build_command_deck",
    "build_damage_deck",
    "build_reserves_deck",
    "card_id_of",
    "default_cards",
    "instance_id",
    "load_cards",
    "opponent",
    "target_type_of",
    "validate_card_file",
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


# kind -> (value rule, contexts it may appear in, help template)
# value rule: "none" (no value), "signed" (non-zero int), "positive" (int >= 1)
_EFFECT_SPECS: dict[EffectKind, tuple[str, frozenset[str], str]] = {
    EffectKind.DEFENSE: ("signed", frozenset({"damage", "command", "event"}), "{value:+d} Defense"),
    EffectKind.ATTACK: ("signed", frozenset({"damage", "command", "event"}), "{value:+d} to its attack rolls"),
    EffectKind.EXPOSED: ("signed", frozenset({"damage", "command", "event"}),
                         "opponents {value:+d} to attack rolls against it"),
    EffectKind.DAMAGE_INDEX: ("signed", frozenset({"damage", "command", "event"}), "{value:+d} Damage Index"),
    EffectKind.RATE_OF_FIRE: ("signed", frozenset({"damage", "command", "event"}),
                              "{value:+d} rate of fire for each weapon (1 to 4)"),
    EffectKind.NO_SECOND_WEAPON: ("none", frozenset({"damage", "command", "event"}),
                                  "no attack with the 2nd listed weapon"),
    EffectKind.NO_ATTACK: ("none", frozenset({"damage", "command", "event"}), "no attack"),
    EffectKind.IMMOBILIZED: ("none", frozenset({"damage", "command", "event"}),
                             "immobilized: may not move; opponents {bonus:+d} to attack it"),
    EffectKind.EXTRA_DAMAGE: ("positive", frozenset({"damage"}),
                              "{value}d10 additional damage at once (no Defense)"),
    EffectKind.MOVEMENT: ("signed", frozenset({"damage", "command", "event"}), "{value:+d} movement points"),
    EffectKind.MOVE_COST: ("signed", frozenset({"command", "event"}),
                           "{value:+d} movement point(s) per hex entered by {mobility} units"),
    EffectKind.TURNS_OF_FLIGHT: ("signed", frozenset({"damage", "command", "event"}),
                                 "{value:+d} Turns of Flight"),
    EffectKind.INITIATIVE: ("signed", frozenset({"command", "event"}), "{value:+d} to the initiative roll"),
    EffectKind.DRAW: ("signed", frozenset({"command", "event"}), "{value:+d} card(s) in the Draw Phase"),
    EffectKind.REMOVE_DAMAGE_CARD: ("none", frozenset({"command"}), "remove its Damage card"),
    EffectKind.COMMIT_FROM_RESERVES: ("positive", frozenset({"command", "event"}),
                                      "commit {value} unit(s) directly from the Reserves deck"),
    EffectKind.ARTILLERY_ACCURACY: ("signed", frozenset({"command", "event"}),
                                    "{value:+d} to off-board artillery accuracy rolls"),
    EffectKind.NO_AIRCRAFT: ("none", frozenset({"command", "event"}), "aircraft may not be committed"),
    EffectKind.CLOSE_ASSAULT: ("signed", frozenset({"command", "event"}),
                               "{value:+d} to Close Assault attack rolls"),
}


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
        vals = ", ".join(f"{short[t]} {'_' + str(v) + '_' if self.underscored else v}" for t, v in self.attack)
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

    def help_text(self, cards: CardSet | None = None) -> str:
        """Multi-line help text generated from the card's data."""
        kind = self.unit_type.replace("_", " ")
        if self.is_crew:
            line = "rides with the unit it crews"
        elif self.line == "aircraft":
            line = f"{self.turns_of_flight} Turns of Flight"
        else:
            line = {"frontline": "frontline", "rear": "rear line",
                    "frontline_or_rear": "frontline or rear line"}[self.line]
        out = [f"{self.name} ({self.side} {kind}, {line}), cost {self.cost}"]
        crew = "no crew (N/C)" if self.crew == "none" else (
            "commits with an infantry unit" if self.crew == "infantry" else _with_article(self.crew.replace('_', ' ')))
        move = f"movement {self.movement} ({self.mobility})" if self.mobility else "does not move"
        out.append(f"Defense {self.defense}, Endurance {self.endurance_full} / Half {self.endurance_half}; "
                   f"{crew}; {move}")
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
        dur = {"instant": "at once", "attack": "for one attack", "turn": "until End Turn",
               "permanent": "until the unit leaves play"}[self.duration]
        fx = "; ".join(e.describe(rules) for e in self.effects)
        return f"{self.title} ({self.phase.replace('_', ' ')} phase, {who}, {dur}): {fx}. " \
               f"Or discard before any roll for +1."


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
        for name, (lo, hi) in (("survives", self.crew_survives), ("captured", self.crew_captured),
                               ("destroyed", self.crew_destroyed)):
            if lo <= die <= hi:
                return name
        raise ValueError(f"crew fate die {die} outside 1..10")


@dataclass(frozen=True, eq=False)
class CardSet:
    """Every card definition of one ruleset, loaded once (:func:`default_cards`).

    Compared and hashed by identity (a loaded set is a value nobody rebuilds), so caches
    may key on it.

    Attributes:
        weapons, units, qualities, command, damage, events: read-only mappings by id.
        rules: :class:`CombatRules`.
        sources: the files the set was loaded from.
    """

    weapons: Mapping[str, Weapon]
    units: Mapping[str, UnitCard]
    qualities: Mapping[str, CrewQuality]
    command: Mapping[str, CommandCard]
    damage: Mapping[str, DamageCard]
    events: Mapping[str, EventCard]
    rules: CombatRules = field(default_factory=CombatRules)
    sources: tuple[str, ...] = ()

    def unit(self, card_id: str) -> UnitCard:
        """The unit card with id ``card_id`` (an instance id ``"id#n"`` works too).

        Raises:
            CardError: naming the id when no such card exists.
        """
        cid = card_id_of(card_id)
        try:
            return self.units[cid]
        except KeyError:
            raise CardError(f"unknown unit card {card_id!r}") from None

    def find_unit(self, name: str, side: str | None = None) -> UnitCard:
        """A unit card by id or by name, case-insensitively (for the CLI).

        Raises:
            CardError: when nothing or more than one card matches (the message lists them).
        """
        key = name.strip().lower()
        if not key:
            raise CardError("empty unit name: give a card id or name, e.g. de_tiger_i or 'Tiger I'")
        if key in self.units:
            return self.units[key]
        cands = [u for u in self.units.values() if side in (None, u.side)]
        exact = [u for u in cands if u.name.lower() == key or u.id.lower() == key]
        if len(exact) == 1:
            return exact[0]
        part = [u for u in cands if key in u.name.lower() or key in u.id.lower()]
        if len(part) == 1:
            return part[0]
        if not part:
            raise CardError(f"no unit card matches {name!r}")
        raise CardError(f"{name!r} matches several unit cards: " + ", ".join(f"{u.id} ({u.name})" for u in part))

    def side_units(self, side: str, crews: bool = True) -> list[UnitCard]:
        """The unit cards of one side in id order (with or without crew cards)."""
        return sorted((u for u in self.units.values() if u.side == side and (crews or not u.is_crew)),
                      key=lambda u: u.id)

    def crew_cards(self, side: str, crew_type: str) -> list[UnitCard]:
        """The crew cards of ``side`` of ``crew_type``, green to veteran."""
        order = {q: i for i, q in enumerate(QUALITIES)}
        return sorted((u for u in self.units.values() if u.side == side and u.unit_type == crew_type),
                      key=lambda u: order.get(u.quality or "", 9))

    def crew_card(self, side: str, crew_type: str, quality: str = "regular") -> UnitCard:
        """The crew card of ``side``, ``crew_type`` and ``quality``.

        Raises:
            CardError: when no such crew card exists.
        """
        for u in self.crew_cards(side, crew_type):
            if u.quality == quality:
                return u
        raise CardError(f"no {quality} {crew_type} card for {side}")

    def quality_of(self, unit_card: UnitCard) -> CrewQuality | None:
        """The :class:`CrewQuality` of a crew card, else ``None``."""
        return self.qualities.get(unit_card.quality) if unit_card.quality else None

    def is_event(self, card_id: str) -> bool:
        """True when ``card_id`` (or an instance id) names an Event card."""
        return card_id_of(card_id) in self.events

    def command_or_event(self, card_id: str) -> CommandCard | EventCard:
        """The Command or Event card definition of an id or instance id.

        Raises:
            CardError: when it is neither.
        """
        cid = card_id_of(card_id)
        if cid in self.command:
            return self.command[cid]
        if cid in self.events:
            return self.events[cid]
        raise CardError(f"unknown Command or Event card {card_id!r}")

    def damage_card(self, card_id: str) -> DamageCard:
        """The Damage card of an id or instance id.

        Raises:
            CardError: when there is none.
        """
        try:
            return self.damage[card_id_of(card_id)]
        except KeyError:
            raise CardError(f"unknown Damage card {card_id!r}") from None


# --------------------------------------------------------------------------------------------
# Loading with collect-all-errors validation
# --------------------------------------------------------------------------------------------


class _Reader:
    """Typed field access on parsed TOML that records problems instead of raising."""

    def __init__(self, src: str, problems: list[Problem]):
        self.src = src
        self.problems = problems

    def bad(self, where: str, msg: str) -> None:
        self.problems.append(Problem(self.src, where, msg))

    def table(self, d: Any, where: str) -> dict[str, Any]:
        if not isinstance(d, dict):
            self.bad(where, "expected a table")
            return {}
        return d

    def int_(self, d: dict[str, Any], key: str, where: str, lo: int, hi: int,
             default: int | None = None) -> int:
        v = d.get(key, default)
        if isinstance(v, bool) or not isinstance(v, int):
            self.bad(f"{where}.{key}", f"expected an integer {lo}..{hi}, got {v!r}")
            return lo if default is None else default
        if not lo <= v <= hi:
            self.bad(f"{where}.{key}", f"expected an integer {lo}..{hi}, got {v}")
        return v

    def str_(self, d: dict[str, Any], key: str, where: str, choices: Sequence[str] | None = None,
             default: str | None = None) -> str:
        v = d.get(key, default)
        if not isinstance(v, str) or not v.strip():
            self.bad(f"{where}.{key}", f"expected a text{'' if choices is None else f' in {tuple(choices)}'}, got {v!r}")
            return default or (choices[0] if choices else "")
        if choices is not None and v not in choices:
            self.bad(f"{where}.{key}", f"expected one of {tuple(choices)}, got {v!r}")
        return v

    def bool_(self, d: dict[str, Any], key: str, where: str, default: bool = False) -> bool:
        v = d.get(key, default)
        if not isinstance(v, bool):
            self.bad(f"{where}.{key}", f"expected true or false, got {v!r}")
            return default
        return v

    def unknown(self, d: dict[str, Any], allowed: Iterable[str], where: str) -> None:
        extra = sorted(set(d) - set(allowed))
        for k in extra:
            self.bad(f"{where}.{k}", f"unknown field; expected one of {sorted(allowed)}")

    def effects(self, raw: Any, where: str, context: str) -> tuple[Effect, ...]:
        if not isinstance(raw, list) or not raw:
            self.bad(where, "expected a non-empty list of effects like { kind = \"defense\", value = 1 }")
            return ()
        out: list[Effect] = []
        for i, e in enumerate(raw):
            w = f"{where}[{i}]"
            if not isinstance(e, dict):
                self.bad(w, "expected an inline table { kind = ..., value = ... }")
                continue
            self.unknown(e, ("kind", "value", "mobility", "side", "unit_types"), w)
            kind_s = e.get("kind")
            try:
                kind = EffectKind(str(kind_s))
            except ValueError:
                self.bad(f"{w}.kind", f"unknown effect kind {kind_s!r}; expected one of "
                         f"{[k.value for k in EffectKind]}")
                continue
            rule, contexts, _ = _EFFECT_SPECS[kind]
            if context not in contexts:
                self.bad(f"{w}.kind", f"{kind.value!r} is not allowed on {context} cards "
                         f"(allowed on: {sorted(contexts)})")
            value = 0
            if rule == "none":
                if "value" in e:
                    self.bad(f"{w}.value", f"{kind.value!r} takes no value")
            else:
                v = e.get("value")
                if isinstance(v, bool) or not isinstance(v, int) or v == 0 or (rule == "positive" and v < 1):
                    self.bad(f"{w}.value", f"{kind.value!r} needs "
                             f"{'a positive integer' if rule == 'positive' else 'a non-zero integer'}, got {v!r}")
                else:
                    value = v
                    if abs(v) > 10:
                        self.bad(f"{w}.value", f"{v} is out of range -10..10")
            if kind == EffectKind.EXTRA_DAMAGE and value > 2:
                self.bad(f"{w}.value", "extra_damage is 1 or 2 d10")
            mobility = e.get("mobility")
            if kind == EffectKind.MOVE_COST:
                if mobility not in MOBILITY_CLASSES:
                    self.bad(f"{w}.mobility", f"expected one of {MOBILITY_CLASSES}, got {mobility!r}")
            elif mobility is not None:
                self.bad(f"{w}.mobility", "only move_cost effects name a mobility class")
            side = e.get("side")
            if side is not None and (context != "event" or side not in SIDES):
                self.bad(f"{w}.side", f"a side ({SIDES}) may only be named on Event effects")
                side = None
            uts = e.get("unit_types", [])
            if not isinstance(uts, list) or any(u not in UNIT_TYPES for u in uts):
                self.bad(f"{w}.unit_types", f"expected a list of {UNIT_TYPES}")
                uts = []
            elif uts and context == "damage":
                self.bad(f"{w}.unit_types", "Damage card edges already name their unit type")
            out.append(Effect(kind, value, mobility if isinstance(mobility, str) else None, side, tuple(uts)))
        return tuple(out)


def _check_header(data: dict[str, Any], r: _Reader, kind: str | None = None) -> str:
    fmt = data.get("format")
    if fmt != FORMAT:
        r.bad("format", f"expected {FORMAT!r}, got {fmt!r}")
    sv = data.get("schema_version")
    if sv != SCHEMA_VERSION:
        r.bad("schema_version", f"expected {SCHEMA_VERSION}, got {sv!r}")
    k = data.get("kind")
    if k not in CARD_FILES:
        r.bad("kind", f"expected one of {CARD_FILES}, got {k!r}")
        return ""
    if kind is not None and k != kind:
        r.bad("kind", f"expected {kind!r}, got {k!r}")
    return str(k)


def _parse_weapons(data: dict[str, Any], r: _Reader) -> dict[str, Weapon]:
    out: dict[str, Weapon] = {}
    table = r.table(data.get("weapon"), "weapon")
    for wid, w in table.items():
        where = f"weapon.{wid}"
        if not isinstance(w, dict):
            r.bad(where, "expected a table")
            continue
        r.unknown(w, ("name", "attack", "rof", "damage_index", "range", "underscored", "flags"), where)
        att = r.table(w.get("attack"), f"{where}.attack")
        pairs: list[tuple[str, int]] = []
        for t in att:
            if t not in TARGET_TYPES:
                r.bad(f"{where}.attack.{t}", f"unknown target type; expected one of {TARGET_TYPES}")
        for t in TARGET_TYPES:
            if t in att:
                pairs.append((t, r.int_(att, t, f"{where}.attack", 2, 20)))
        if not pairs and isinstance(w.get("attack"), dict):
            r.bad(f"{where}.attack", "expected at least one attack value")
        flags = w.get("flags", [])
        if not isinstance(flags, list) or any(f not in WEAPON_FLAGS for f in flags):
            r.bad(f"{where}.flags", f"expected a list of {WEAPON_FLAGS}, got {flags!r}")
            flags = []
        out[wid] = Weapon(
            id=wid,
            name=r.str_(w, "name", where),
            attack=tuple(pairs),
            rate_of_fire=r.int_(w, "rof", where, 1, 4, default=1),
            damage_index=r.int_(w, "damage_index", where, 0, 20),
            range=r.int_(w, "range", where, 0, 60),
            underscored=r.bool_(w, "underscored", where),
            bomb="bomb" in flags,
            flamethrower="flamethrower" in flags,
            indirect="indirect" in flags,
        )
    return out


_UNIT_FIELDS = ("name", "type", "crew", "defense", "endurance", "cost", "line", "movement", "mobility",
                "turns_of_flight", "weapons", "note")


def _parse_units(data: dict[str, Any], r: _Reader, weapons: Mapping[str, Weapon] | None) -> dict[str, UnitCard]:
    out: dict[str, UnitCard] = {}
    side = data.get("side")
    if side not in SIDES:
        r.bad("side", f"expected one of {SIDES}, got {side!r}")
        side = "german"
    table = r.table(data.get("unit"), "unit")
    for uid, u in table.items():
        where = f"unit.{uid}"
        if not isinstance(u, dict):
            r.bad(where, "expected a table")
            continue
        r.unknown(u, _UNIT_FIELDS, where)
        if not uid.startswith(SIDE_PREFIX[side] + "_"):
            r.bad(where, f"{side} unit ids start with {SIDE_PREFIX[side] + '_'!r}")
        utype = r.str_(u, "type", where, TARGET_TYPES)
        crew = r.str_(u, "crew", where, CREW_REQUIREMENTS, default="none")
        allowed_crew = {"infantry": ("none",), "gun": ("artillery_crew",), "aircraft": ("pilot",),
                        "vehicle": ("tank_crew", "artillery_crew", "infantry", "none")}.get(utype, CREW_REQUIREMENTS)
        if crew not in allowed_crew:
            r.bad(f"{where}.crew", f"a {utype} needs crew in {allowed_crew}, got {crew!r}")
        end = r.table(u.get("endurance"), f"{where}.endurance")
        full = r.int_(end, "full", f"{where}.endurance", 2, 40, default=2)
        half = r.int_(end, "half", f"{where}.endurance", 1, 20, default=1)
        if half >= full:
            r.bad(f"{where}.endurance", f"half ({half}) must be below full ({full})")
        line = r.str_(u, "line", where, LINES)
        tof: int | None = None
        if utype == "aircraft":
            if line != "aircraft":
                r.bad(f"{where}.line", "aircraft have line = \"aircraft\" (Turns of Flight)")
            tof = r.int_(u, "turns_of_flight", where, 1, 6)
        else:
            if line == "aircraft":
                r.bad(f"{where}.line", "only aircraft have line = \"aircraft\"")
            if "turns_of_flight" in u:
                r.bad(f"{where}.turns_of_flight", "only aircraft have Turns of Flight")
        mobility = u.get("mobility")
        movement = r.int_(u, "movement", where, 0, 12, default=0)
        if utype in ("gun", "aircraft"):
            if mobility is not None or movement != 0:
                r.bad(f"{where}.mobility", f"a {utype} has no mobility class and movement 0 (R4.1)")
            mobility = None
        else:
            want = ("foot",) if utype == "infantry" else ("tracked", "wheeled")
            if mobility not in want:
                r.bad(f"{where}.mobility", f"a {utype} moves {' or '.join(want)}, got {mobility!r}")
                mobility = want[0]
            if movement < 1:
                r.bad(f"{where}.movement", "expected at least 1 movement point")
        wids = u.get("weapons")
        ws: list[Weapon] = []
        if not isinstance(wids, list) or not 1 <= len(wids) <= 3:
            r.bad(f"{where}.weapons", "expected a list of 1 to 3 weapon ids")
            wids = []
        for i, wid in enumerate(wids):
            if weapons is None:
                continue
            w = weapons.get(wid) if isinstance(wid, str) else None
            if w is None:
                r.bad(f"{where}.weapons[{i}]", f"unknown weapon {wid!r} (not in weapons.toml)")
                continue
            ws.append(w)
            if w.range == 0 and utype != "aircraft":
                r.bad(f"{where}.weapons[{i}]", f"{wid}: range 0 (unlimited) is for aircraft weapons only")
            if w.bomb and utype != "aircraft":
                r.bad(f"{where}.weapons[{i}]", f"{wid}: only aircraft carry bombs")
            if w.indirect and not (line == "rear" or (line == "frontline_or_rear" and i == 0)):
                r.bad(f"{where}.weapons[{i}]", f"{wid}: indirect weapons belong to rear-line units "
                      "or the 1st weapon of an SPG (R7.2, R7.3)")
            if line == "rear" and not w.indirect and w.attack_value("aircraft") is None:
                r.bad(f"{where}.weapons[{i}]", f"{wid}: a rear-line unit fires indirectly (R7.3)")
        if line == "frontline_or_rear" and ws and not ws[0].indirect:
            r.bad(f"{where}.weapons[0]", "an SPG's 1st weapon is its indirect long-range weapon (R7.2)")
        note = u.get("note", "")
        if not isinstance(note, str):
            r.bad(f"{where}.note", "expected a text")
            note = ""
        out[uid] = UnitCard(
            id=uid, name=r.str_(u, "name", where), side=str(side), unit_type=utype, crew=crew,
            defense=r.int_(u, "defense", where, 0, 12), endurance_full=full, endurance_half=half,
            cost=r.int_(u, "cost", where, 1, 40), line=line, weapons=tuple(ws), movement=movement,
            mobility=mobility if isinstance(mobility, str) else None, turns_of_flight=tof, note=note,
        )
    return out


def _parse_crews(data: dict[str, Any], r: _Reader) -> tuple[dict[str, CrewQuality], dict[str, UnitCard]]:
    quals: dict[str, CrewQuality] = {}
    qt = r.table(data.get("quality"), "quality")
    for q in QUALITIES:
        if q not in qt:
            r.bad("quality", f"missing quality {q!r}")
    for key, q in qt.items():
        where = f"quality.{key}"
        if key not in QUALITIES:
            r.bad(where, f"unknown quality; expected one of {QUALITIES}")
            continue
        qd = r.table(q, where)
        r.unknown(qd, ("name", "attack", "ignores_marked_effects"), where)
        quals[key] = CrewQuality(key, r.str_(qd, "name", where), r.int_(qd, "attack", where, -3, 3),
                                 r.bool_(qd, "ignores_marked_effects", where))
    units: dict[str, UnitCard] = {}
    ct = r.table(data.get("crew_type"), "crew_type")
    for ctype, c in ct.items():
        where = f"crew_type.{ctype}"
        if ctype not in CREW_TYPES:
            r.bad(where, f"unknown crew type; expected one of {CREW_TYPES}")
            continue
        c = r.table(c, where)
        r.unknown(c, ("names", "defense", "endurance", "cost", "movement"), where)
        names = r.table(c.get("names"), f"{where}.names")
        end = r.table(c.get("endurance"), f"{where}.endurance")
        full = r.int_(end, "full", f"{where}.endurance", 2, 20, default=2)
        half = r.int_(end, "half", f"{where}.endurance", 1, 10, default=1)
        if half >= full:
            r.bad(f"{where}.endurance", f"half ({half}) must be below full ({full})")
        costs = r.table(c.get("cost"), f"{where}.cost")
        defense = r.int_(c, "defense", where, 0, 5)
        movement = r.int_(c, "movement", where, 0, 8, default=0)
        for side in SIDES:
            name = names.get(side)
            if not isinstance(name, str):
                r.bad(f"{where}.names.{side}", "expected the crew's name for this side")
                name = ctype
            for qk in QUALITIES:
                cid = f"{SIDE_PREFIX[side]}_{ctype}_{qk}"
                qname = quals[qk].name if qk in quals else qk
                units[cid] = UnitCard(
                    id=cid, name=f"{name} ({qname.lower()})", side=side, unit_type=ctype, crew="none",
                    defense=defense, endurance_full=full, endurance_half=half,
                    cost=r.int_(costs, qk, f"{where}.cost", 1, 10, default=1),
                    line="frontline",  # crews ride with the unit they crew
                    movement=movement, mobility="foot" if movement else None, quality=qk,
                )
    for ctype in CREW_TYPES:
        if ctype not in ct:
            r.bad("crew_type", f"missing crew type {ctype!r}")
    return quals, units


def _parse_command(data: dict[str, Any], r: _Reader) -> dict[str, CommandCard]:
    out: dict[str, CommandCard] = {}
    for cid, c in r.table(data.get("command"), "command").items():
        where = f"command.{cid}"
        if not isinstance(c, dict):
            r.bad(where, "expected a table")
            continue
        r.unknown(c, ("title", "copies", "phase", "applies_to", "duration", "effects", "note"), where)
        at = c.get("applies_to", [])
        if not isinstance(at, list) or any(t not in UNIT_TYPES for t in at):
            r.bad(f"{where}.applies_to", f"expected a list of {UNIT_TYPES}")
            at = []
        duration = r.str_(c, "duration", where, DURATIONS)
        phase = r.str_(c, "phase", where, PHASES)
        effects = r.effects(c.get("effects"), f"{where}.effects", "command")
        if duration == "attack" and phase != "combat":
            r.bad(f"{where}.phase", "a card played on one attack is played in the combat phase")
        out[cid] = CommandCard(cid, r.str_(c, "title", where), r.int_(c, "copies", where, 1, 10), phase,
                               tuple(at), duration, effects, str(c.get("note", "")))
    return out


def _parse_damage(data: dict[str, Any], r: _Reader) -> dict[str, DamageCard]:
    out: dict[str, DamageCard] = {}
    raw = data.get("damage")
    if not isinstance(raw, list):
        r.bad("damage", "expected [[damage]] entries")
        return out
    for i, d in enumerate(raw):
        where = f"damage[{i}]"
        if not isinstance(d, dict):
            r.bad(where, "expected a table")
            continue
        r.unknown(d, ("id",) + TARGET_TYPES, where)
        did = d.get("id")
        if not isinstance(did, str) or not did:
            r.bad(f"{where}.id", "expected an id")
            did = f"damage{i}"
        if did in out:
            r.bad(f"{where}.id", f"duplicate Damage card id {did!r}")
        where = f"damage.{did}"
        sides: list[DamageSide] = []
        for t in TARGET_TYPES:
            s = d.get(t)
            if not isinstance(s, dict):
                r.bad(f"{where}.{t}", f"missing the {t} effect (every Damage card has all four, R4.3)")
                continue
            r.unknown(s, ("title", "effects", "turns", "veteran_ignores"), f"{where}.{t}")
            turns = s.get("turns")
            if turns is not None and (isinstance(turns, bool) or not isinstance(turns, int) or not 1 <= turns <= 5):
                r.bad(f"{where}.{t}.turns", f"expected a turn counter 1..5, got {turns!r}")
                turns = None
            sides.append(DamageSide(t, r.str_(s, "title", f"{where}.{t}"),
                                    r.effects(s.get("effects"), f"{where}.{t}.effects", "damage"),
                                    turns, r.bool_(s, "veteran_ignores", f"{where}.{t}")))
        out[did] = DamageCard(did, tuple(sides))
    return out


def _parse_events(data: dict[str, Any], r: _Reader) -> dict[str, EventCard]:
    out: dict[str, EventCard] = {}
    for eid, e in r.table(data.get("event"), "event").items():
        where = f"event.{eid}"
        if not isinstance(e, dict):
            r.bad(where, "expected a table")
            continue
        r.unknown(e, ("title", "effects", "turns", "note"), where)
        if not eid.startswith("ev_"):
            r.bad(where, "Event ids start with 'ev_'")
        turns = e.get("turns")
        if turns is not None and (isinstance(turns, bool) or not isinstance(turns, int) or not 1 <= turns <= 10):
            r.bad(f"{where}.turns", f"expected 1..10 turns or no value (rest of the game), got {turns!r}")
            turns = None
        out[eid] = EventCard(eid, r.str_(e, "title", where), r.effects(e.get("effects"), f"{where}.effects", "event"),
                             turns, str(e.get("note", "")))
    return out


def _pair(v: Any) -> tuple[int, int] | None:
    if isinstance(v, list) and len(v) == 2 and all(isinstance(x, int) and not isinstance(x, bool) for x in v):
        return (v[0], v[1])
    return None


def _parse_combat(data: dict[str, Any], r: _Reader) -> CombatRules:
    c = r.table(data.get("combat"), "combat")
    d = CombatRules()
    kw: dict[str, Any] = {}
    for name in ("double_intensity", "special", "friendly_fire"):
        v = c.get(name)
        if not isinstance(v, list) or not all(isinstance(x, int) and 2 <= x <= 20 for x in v):
            r.bad(f"combat.{name}", "expected a list of natural 2d10 sums 2..20")
        else:
            kw[name] = tuple(v)
    for name in ("crew_survives", "crew_captured", "crew_destroyed"):
        p = _pair(c.get(name))
        if p is None or not 1 <= p[0] <= p[1] <= 10:
            r.bad(f"combat.{name}", "expected [low, high] d10 faces")
        else:
            kw[name] = p
    if all(k in kw for k in ("crew_survives", "crew_captured", "crew_destroyed")):
        faces = sorted(f for k in ("crew_survives", "crew_captured", "crew_destroyed")
                       for f in range(kw[k][0], kw[k][1] + 1))
        if faces != list(range(1, 11)):
            r.bad("combat", "the crew fate bands must cover d10 faces 1..10 exactly once")
    ranges = {"immobilized_attack_bonus": (0, 5), "capture_multiplier": (1, 4),
              "close_assault_min": (2, 6), "max_weapons": (1, 3), "command_deck_size": (10, 200),
              "damage_deck_size": (5, 100), "reserves_min": (1, 500), "reserves_max": (1, 500),
              "hand_units": (0, 10), "hand_command": (0, 10)}
    for name, (lo, hi) in ranges.items():
        kw[name] = r.int_(c, name, "combat", lo, hi, default=getattr(d, name))
    r.unknown(c, set(ranges) | {"double_intensity", "special", "friendly_fire", "crew_survives", "crew_captured",
                                "crew_destroyed"}, "combat")
    return CombatRules(**kw)


def _data_dir() -> Path:
    return Path(str(resources.files("hexwar") / "data" / "cards"))


def _read_all(folder: Path, problems: list[Problem]) -> dict[str, list[tuple[str, dict[str, Any]]]]:
    by_kind: dict[str, list[tuple[str, dict[str, Any]]]] = {k: [] for k in CARD_FILES}
    files = sorted(folder.glob("*.toml"))
    if not files:
        problems.append(Problem(str(folder), "", "no card files (*.toml) found"))
    for f in files:
        try:
            data = read_toml(f)
        except ValidationError as exc:
            problems.extend(exc.problems)
            continue
        r = _Reader(str(f), problems)
        kind = _check_header(data, r)
        if kind:
            by_kind[kind].append((str(f), data))
    return by_kind


def load_cards(folder: str | os.PathLike[str] | None = None) -> CardSet:
    """Load and validate every card file in ``folder`` (default: the package's ``data/cards``).

    All files are read and checked before anything is reported, and every problem is listed
    at once (file, field path, what was expected): unknown weapon ids, crew types without
    crew cards, deck sizes other than the rules' 50 and 25, Damage cards missing an edge, ...

    Raises:
        ValidationError: with every problem found.
    """
    folder = Path(folder) if folder is not None else _data_dir()
    problems: list[Problem] = []
    by_kind = _read_all(folder, problems)
    for kind in CARD_FILES:
        if kind not in ("units",) and len(by_kind[kind]) != 1:
            problems.append(Problem(str(folder), "", f"expected exactly one {kind!r} card file, "
                                    f"found {len(by_kind[kind])}"))
    if not by_kind["units"]:
        problems.append(Problem(str(folder), "", "no 'units' card files found"))

    def one(kind: str) -> tuple[str, dict[str, Any]]:
        return by_kind[kind][0] if by_kind[kind] else (str(folder / f"{kind}.toml"), {})

    src, data = one("weapons")
    weapons = _parse_weapons(data, _Reader(src, problems))
    src, data = one("combat")
    rules = _parse_combat(data, _Reader(src, problems))
    src, data = one("crews")
    qualities, units = _parse_crews(data, _Reader(src, problems))
    crew_ids = set(units)
    for src, data in by_kind["units"]:
        r = _Reader(src, problems)
        for uid, u in _parse_units(data, r, weapons).items():
            if uid in units:
                r.bad(f"unit.{uid}", "duplicate unit card id")
            units[uid] = u
    # cross-file checks: every crew a unit needs exists on its side
    for u in units.values():
        if u.needs_crew and not any(units[c].side == u.side and units[c].unit_type == u.crew for c in crew_ids):
            problems.append(Problem(str(folder), f"unit.{u.id}.crew", f"no {u.side} {u.crew} card exists"))
    src, data = one("command")
    command = _parse_command(data, _Reader(src, problems))
    n_cmd = sum(c.copies for c in command.values())
    if command and n_cmd != rules.command_deck_size:
        problems.append(Problem(src, "command", f"the Command cards add up to {n_cmd} copies; "
                                f"expected exactly {rules.command_deck_size} (R4.3)"))
    src, data = one("damage")
    damage = _parse_damage(data, _Reader(src, problems))
    if len(damage) != rules.damage_deck_size and (damage or data):
        problems.append(Problem(src, "damage", f"{len(damage)} Damage cards; expected exactly "
                                f"{rules.damage_deck_size} (R4.3)"))
    src, data = one("events")
    events = _parse_events(data, _Reader(src, problems))
    clash = set(events) & set(command)
    for cid in sorted(clash):
        problems.append(Problem(src, f"event.{cid}", "id also used by a Command card"))
    if problems:
        raise ValidationError(problems)
    return CardSet(
        weapons=MappingProxyType(dict(weapons)), units=MappingProxyType(dict(units)),
        qualities=MappingProxyType(dict(qualities)), command=MappingProxyType(dict(command)),
        damage=MappingProxyType(dict(damage)), events=MappingProxyType(dict(events)), rules=rules,
        sources=tuple(sorted(s for lst in by_kind.values() for s, _ in lst)),
    )


@cache
def default_cards() -> CardSet:
    """The package's own cards (``hexwar/data/cards``), loaded and validated once."""
    return load_cards()


def validate_card_file(path: str) -> None:
    """Validate one card file (for ``hexwar validate``; ``format = "hexwar-cards"``).

    The file is checked on its own; weapon references of a units file are checked against
    the package's ``weapons.toml`` unless the file *is* a weapons file.

    Raises:
        ValidationError: with every problem found.
    """
    problems: list[Problem] = []
    data = read_toml(path)
    r = _Reader(str(path), problems)
    kind = _check_header(data, r)
    if kind == "weapons":
        _parse_weapons(data, r)
    elif kind == "units":
        _parse_units(data, r, default_cards().weapons)
    elif kind == "crews":
        _parse_crews(data, r)
    elif kind == "command":
        cmd = _parse_command(data, r)
        n = sum(c.copies for c in cmd.values())
        size = default_cards().rules.command_deck_size
        if cmd and n != size:
            r.bad("command", f"the Command cards add up to {n} copies; expected exactly {size} (R4.3)")
    elif kind == "damage":
        dmg = _parse_damage(data, r)
        size = default_cards().rules.damage_deck_size
        if len(dmg) != size:
            r.bad("damage", f"{len(dmg)} Damage cards; expected exactly {size} (R4.3)")
    elif kind == "events":
        _parse_events(data, r)
    elif kind == "combat":
        _parse_combat(data, r)
    if problems:
        raise ValidationError(problems)


# --------------------------------------------------------------------------------------------
# Decks: card instances, shuffling and drawing with the game's Dice (R4.3, R5.5)
# --------------------------------------------------------------------------------------------


@dataclass
class Deck:
    """A mutable deck of card instances (ids only, so it serializes to JSON).

    A Deck may wrap lists owned by a game state (``Deck("damage", state.damage_deck,
    state.damage_discard, reshuffle=True)``): it only ever changes them in place.

    Attributes:
        name: ``"command"``, ``"damage"`` or ``"reserves:<side>"``.
        cards: instance ids; index 0 is the top of the deck.
        discard: the discard pile (Command: cards that left the game, R5.5; Damage: cards
            cleared from units, reshuffled into the deck when it runs out).
        reshuffle: when the deck is empty, shuffle the discard pile in as a new deck (the
            Damage deck does; Command discards leave the game; Reserves never discard).
    """

    name: str
    cards: list[str] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    reshuffle: bool = False

    def __len__(self) -> int:
        return len(self.cards)

    def draw(self, dice: Dice | None = None) -> str | None:
        """Take the top card; ``None`` when the deck (and any reshuffle) is empty.

        Args:
            dice: the game's :class:`~hexwar.rules.dice.Dice`, needed only when an empty
                reshuffling deck shuffles its discard pile back in (logged as a shuffle).

        Raises:
            CardError: when a reshuffle is needed and no ``dice`` was given.
        """
        if not self.cards and self.reshuffle and self.discard:
            if dice is None:
                raise CardError(f"the {self.name} deck must be reshuffled: pass the game's Dice")
            self.cards[:] = self.discard  # in place: a Deck may wrap a game state's own lists
            self.discard.clear()
            dice.shuffle(f"reshuffle {self.name} deck", self.cards)
        if not self.cards:
            return None
        return self.cards.pop(0)

    def put_under(self, instance: str) -> None:
        """Put a card at the bottom (a discarded unit card, a surviving crew, R5.5)."""
        self.cards.append(instance)

    def discard_card(self, instance: str) -> None:
        """Put a card on the discard pile."""
        self.discard.append(instance)

    def composition(self, include_discard_if_empty: bool = True) -> Counter[str]:
        """Card ids (not instances) left to draw, with counts, order unknown to players.

        When the deck is empty and reshuffles, the discard pile is what the next draw comes
        from, so it is returned instead.
        """
        src = self.cards
        if not src and self.reshuffle and include_discard_if_empty:
            src = self.discard
        return Counter(card_id_of(c) for c in src)

    def instances(self) -> list[str]:
        """Every instance this deck holds (deck and discard pile)."""
        return list(self.cards) + list(self.discard)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {"name": self.name, "cards": list(self.cards), "discard": list(self.discard),
                "reshuffle": self.reshuffle}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Deck:
        """Rebuild a deck from :meth:`to_json` output.

        Raises:
            CardError: when a field is missing or of the wrong type.
        """
        try:
            cards, discard = list(data["cards"]), list(data.get("discard", []))
            if not all(isinstance(c, str) for c in cards + discard):
                raise TypeError
            return cls(str(data["name"]), cards, discard, bool(data.get("reshuffle", False)))
        except (KeyError, TypeError):
            raise CardError("bad deck data: expected name, cards (list of card ids), discard") from None


def build_command_deck(cards: CardSet, dice: Dice, events: Iterable[str] = ()) -> Deck:
    """The shuffled Command deck: every Command card's copies (50) plus chosen Events (000).

    Events are *added* to the 50 Command cards and shuffled in ("masked" as Command cards).
    Instance ids are ``"<id>#<copy>"``, copies numbered from 1.

    Raises:
        CardError: for an unknown Event id or an Event chosen twice.
    """
    inst = [instance_id(c.id, n) for c in sorted(cards.command.values(), key=lambda c: c.id)
            for n in range(1, c.copies + 1)]
    seen: set[str] = set()
    for e in events:
        if e not in cards.events:
            raise CardError(f"unknown Event card {e!r}; expected one of {sorted(cards.events)}")
        if e in seen:
            raise CardError(f"Event {e!r} chosen twice")
        seen.add(e)
        inst.append(instance_id(e, 1))
    dice.shuffle("shuffle command deck", inst)
    return Deck("command", inst)


def build_damage_deck(cards: CardSet, dice: Dice) -> Deck:
    """The shuffled 25-card Damage deck (reshuffles its discard pile when it runs out)."""
    inst = [instance_id(d, 1) for d in sorted(cards.damage)]
    dice.shuffle("shuffle damage deck", inst)
    return Deck("damage", inst, reshuffle=True)


def reserves_problems(cards: CardSet, side: str, unit_ids: Sequence[str], check_budget: bool = True) -> list[str]:
    """Why a list of unit card ids is not a legal Reserves deck for ``side`` (empty: legal).

    Checks: every id is a unit card of that side; the total cost is within the rules'
    80..100 points (000 Standard Game Setup) when ``check_budget``.
    """
    out: list[str] = []
    total = 0
    for cid in unit_ids:
        u = cards.units.get(card_id_of(cid))
        if u is None:
            out.append(f"unknown unit card {cid!r}")
        elif u.side != side:
            out.append(f"{cid} is a {u.side} card, not {side}")
        else:
            total += u.cost
    lo, hi = cards.rules.reserves_min, cards.rules.reserves_max
    if check_budget and not lo <= total <= hi:
        out.append(f"the Reserves deck costs {total} points; expected {lo}..{hi}")
    return out


def build_reserves_deck(cards: CardSet, side: str, unit_ids: Sequence[str], dice: Dice | None = None,
                        check_budget: bool = True) -> Deck:
    """A side's Reserves deck from unit card ids (duplicates allowed, 000).

    Instance ids number the copies of each card: ``["su_t34_76", "su_t34_76"]`` gives
    ``su_t34_76#1`` and ``su_t34_76#2``. Shuffled with ``dice`` when given.

    Raises:
        CardError: listing every reason the deck is not legal (:func:`reserves_problems`).
    """
    probs = reserves_problems(cards, side, unit_ids, check_budget)
    if probs:
        raise CardError(f"{side} Reserves deck: " + "; ".join(probs))
    counts: Counter[str] = Counter()
    inst = []
    for cid in unit_ids:
        cid = card_id_of(cid)
        counts[cid] += 1
        inst.append(instance_id(cid, counts[cid]))
    if dice is not None:
        dice.shuffle(f"shuffle {side} reserves", inst)
    return Deck(f"reserves:{side}", inst)


def auto_reserves(cards: CardSet, side: str, dice: Dice, budget: int | None = None,
                  minimum: int | None = None, max_copies: int = 3) -> list[str]:
    """Pick a random legal Reserves deck (unit card ids) for ``side`` within the budget.

    Random cards are added until nothing more fits the budget; every unit that needs a crew
    is added together with a crew card of that type (random quality), so the deck can field
    all its units. Uses ``dice.choice`` (logged).

    Args:
        budget: maximum points (default the rules' 100).
        minimum: minimum points (default the rules' 80).
        max_copies: at most this many copies of one non-crew card.

    Raises:
        CardError: if no legal deck was found (cannot happen with the shipped cards).
    """
    hi = cards.rules.reserves_max if budget is None else budget
    lo = cards.rules.reserves_min if minimum is None else minimum
    pool = [u for u in cards.side_units(side, crews=False)]
    picked: list[str] = []
    total = 0
    for _ in range(200):
        room = hi - total
        counts = Counter(picked)
        options = []
        for u in pool:
            crew_cost = min((c.cost for c in cards.crew_cards(side, u.crew)), default=0) if u.needs_crew else 0
            if counts[u.id] < max_copies and u.cost + crew_cost <= room:
                options.append(u)
        if not options:
            break
        u = dice.choice(f"{side} reserves pick", options)
        picked.append(u.id)
        total += u.cost
        if u.needs_crew:
            crews = [c for c in cards.crew_cards(side, u.crew) if c.cost <= hi - total]
            crew = dice.choice(f"{side} reserves crew", crews)
            picked.append(crew.id)
            total += crew.cost
    if not lo <= total <= hi:
        raise CardError(f"could not build a {side} Reserves deck of {lo}..{hi} points (got {total})")
    return picked


def _with_article(crew: str) -> str:
    """'needs a tank crew' / 'needs an artillery crew' (R4.1 crew required, in plain English).

    >>> _with_article("artillery crew")
    'needs an artillery crew'
    """
    return f"needs {'an' if crew[:1].lower() in 'aeiou' else 'a'} {crew}"
