"""Combat events (R6): frozen records of what the combat engine did, one log line each."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, ClassVar

from ..dice import Roll

__all__ = [
    "AircraftReturns",
    "AttackStarted",
    "AttackVoid",
    "BombDropped",
    "CloseAssaultFoiled",
    "CloseAssaultStarted",
    "CombatEvent",
    "CommandCardExpired",
    "CrewFate",
    "DamageApplied",
    "DamageCardDrawn",
    "DamageDeckEmpty",
    "DamageEffectEnded",
    "EnduranceRecovered",
    "ExtraDamage",
    "FlightTurnsChanged",
    "FriendlyFire",
    "ToHit",
    "UnitDestroyed",
]


# --------------------------------------------------------------------------------------------
# Events
# --------------------------------------------------------------------------------------------


def _jsonable(v: Any) -> Any:
    if isinstance(v, Roll):
        return v.to_json()
    if isinstance(v, tuple | list):
        return [_jsonable(x) for x in v]
    return v


@dataclass(frozen=True, slots=True)
class CombatEvent:
    """Base of every combat event. ``kind`` names the event type; ``text`` is one log line."""

    kind: ClassVar[str] = "combat"
    text: str

    def to_json(self) -> dict[str, Any]:
        """JSON-ready dict with ``"kind"`` and every field (rolls as :meth:`Roll.to_json`)."""
        d: dict[str, Any] = {"kind": self.kind}
        for f in fields(self):
            d[f.name] = _jsonable(getattr(self, f.name))
        return d

    @property
    def rolls(self) -> tuple[Roll, ...]:
        """The dice rolls this event carries, in the order they were rolled."""
        return tuple(getattr(self, f.name) for f in fields(self) if isinstance(getattr(self, f.name), Roll))

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True, slots=True)
class AttackStarted(CombatEvent):
    """A declared attack begins (step a/b): who fires which weapons at whom."""

    kind: ClassVar[str] = "attack"
    attacker: str
    target: str
    weapons: tuple[int, ...]
    command_cards: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class AttackVoid(CombatEvent):
    """R6.2: the attacker or the target is gone; nothing is rolled."""

    kind: ClassVar[str] = "attack_void"
    attacker: str
    target: str
    reason: str


@dataclass(frozen=True, slots=True)
class ToHit(CombatEvent):
    """One to-hit roll (step c, R6.3-R6.4).

    Attributes:
        outcome: ``"miss"``, ``"hit"``, ``"double"`` (natural 18: doubled Intensity),
            ``"special"`` (natural 19-20) or ``"friendly_fire"`` (classic 2-3).
    """

    kind: ClassVar[str] = "to_hit"
    attacker: str | None
    target: str
    weapon: str
    weapon_index: int | None
    number: int
    attack_value: int
    roll: Roll
    outcome: str


@dataclass(frozen=True, slots=True)
class FriendlyFire(CombatEvent):
    """Classic 2-3 (R6.4): the opponent's choice of friendly target (``None``: no legal target)."""

    kind: ClassVar[str] = "friendly_fire"
    attacker: str | None
    new_target: str | None


@dataclass(frozen=True, slots=True)
class DamageApplied(CombatEvent):
    """Steps d-e: one hit's damage (R6.5), ``max(0, raw + damage_index - defense)``.

    Attributes:
        source: ``"hit"``, ``"close assault"``, ``"friendly fire"``, ``"fire"``, ``"artillery"``...
        roll: the Intensity roll (close assault: the assault dice).
        raw: the Intensity (doubled on a natural 18; close assault: dice sum).
        doubled: the natural 18 doubled it.
        defense: effective Defense (R6.7).
    """

    kind: ClassVar[str] = "damage"
    target: str
    source: str
    roll: Roll | None
    raw: int
    doubled: bool
    damage_index: int
    defense: int
    damage: int
    endurance_before: int
    endurance_after: int


@dataclass(frozen=True, slots=True)
class DamageCardDrawn(CombatEvent):
    """Step f (R6.6) or a natural 19-20: a Damage card goes under the target.

    Attributes:
        card: the Damage card instance.
        title: the edge's title for the target's type.
        reason: ``"half_endurance"`` or ``"special_roll"``.
        ignored: a veteran ignores the effect (the card still counts).
        turns: the edge's counter (``None`` = permanent).
    """

    kind: ClassVar[str] = "damage_card"
    target: str
    card: str
    title: str
    reason: str
    ignored: bool
    turns: int | None


@dataclass(frozen=True, slots=True)
class DamageDeckEmpty(CombatEvent):
    """A Damage card was due but the deck and its discard pile are empty: none is drawn."""

    kind: ClassVar[str] = "damage_deck_empty"
    target: str


@dataclass(frozen=True, slots=True)
class ExtraDamage(CombatEvent):
    """A Damage-card effect's extra d10s, applied at once without Defense."""

    kind: ClassVar[str] = "extra_damage"
    target: str
    roll: Roll
    damage: int
    endurance_before: int
    endurance_after: int


@dataclass(frozen=True, slots=True)
class FlightTurnsChanged(CombatEvent):
    """A Damage-card effect changed an aircraft's Turns of Flight (R5.6)."""

    kind: ClassVar[str] = "flight_turns"
    unit: str
    before: int
    after: int


@dataclass(frozen=True, slots=True)
class UnitDestroyed(CombatEvent):
    """Step g (R6.6): the unit is destroyed; ``scorer`` gets ``victory_points`` (R10).

    Attributes:
        unit: its uid; card, unit_type, side: what it was.
        scorer: the side scoring, ``None`` (friendly fire).
        victory_points: its cost (0 when nobody scores).
        cause: ``"damage"``, ``"special_roll"``, ``"extra_damage"``.
        by: the attacking unit uids (empty for artillery or fire).
        wreck: a vehicle: leaves a wreck in its hex (R8.1).
    """

    kind: ClassVar[str] = "destroyed"
    unit: str
    card: str
    unit_type: str
    side: str
    scorer: str | None
    victory_points: int
    cause: str
    by: tuple[str, ...] = ()
    wreck: bool = False


@dataclass(frozen=True, slots=True)
class CrewFate(CombatEvent):
    """The crew of a destroyed unit (R6.6): ``"survives"`` (under its Reserves deck),
    ``"captured"`` (2x its cost to ``scorer``) or ``"destroyed"`` (its cost to ``scorer``).

    Attributes:
        die: the natural die that decided (``None`` when destroyed outright by a special roll).
    """

    kind: ClassVar[str] = "crew_fate"
    crew: str
    unit: str
    fate: str
    die: int | None
    scorer: str | None
    victory_points: int


@dataclass(frozen=True, slots=True)
class BombDropped(CombatEvent):
    """R7.4: a bomb weapon was used; it may not fire again this flight."""

    kind: ClassVar[str] = "bomb"
    unit: str
    weapon_index: int


@dataclass(frozen=True, slots=True)
class CloseAssaultStarted(CombatEvent):
    """A Close Assault of ``attackers`` on ``target`` rolls against ``attack_value`` (000)."""

    kind: ClassVar[str] = "close_assault"
    attackers: tuple[str, ...]
    target: str
    attack_value: int


@dataclass(frozen=True, slots=True)
class CloseAssaultFoiled(CombatEvent):
    """000: fewer than three assaulting infantry are left at resolution; the attack disperses."""

    kind: ClassVar[str] = "close_assault_foiled"
    attackers: tuple[str, ...]
    target: str
    remaining: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class EnduranceRecovered(CombatEvent):
    """End Turn (R5.6): back to Full (no Damage card) or Half (with one)."""

    kind: ClassVar[str] = "recovered"
    unit: str
    before: int
    after: int


@dataclass(frozen=True, slots=True)
class DamageEffectEnded(CombatEvent):
    """End Turn (R5.6): a temporary Damage-card effect's counter reached 0 (the card stays)."""

    kind: ClassVar[str] = "damage_effect_ended"
    unit: str
    card: str


@dataclass(frozen=True, slots=True)
class CommandCardExpired(CombatEvent):
    """End Turn: a Command card of duration ``"turn"`` leaves the unit (to the discard pile)."""

    kind: ClassVar[str] = "command_card_expired"
    unit: str
    card: str


@dataclass(frozen=True, slots=True)
class AircraftReturns(CombatEvent):
    """End Turn (R5.6): Turns of Flight spent: the aircraft and its pilot (``crew``) go under the
    Reserves deck."""

    kind: ClassVar[str] = "aircraft_returns"
    unit: str
    crew: str | None = None
