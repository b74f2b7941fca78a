"""The Spearpoint combat engine: attack resolution steps a-i of seed 000 (R6), map-independent.

The engine changes unit states (:class:`~hexwar.rules.units.UnitLike`: Current Endurance,
Damage card, counters, bombs) and returns typed events (frozen dataclasses, each with a
readable ``text`` and ``to_json()``) that carry every roll, so the game log and the UI can show
them. It never removes a unit: a destroyed unit has Endurance 0 and a :class:`UnitDestroyed`
event; the game then takes it (and its Damage / Command cards, see :func:`leave_play`) out.

What the map supplies: a :class:`DefenseContext` per target -- the terrain part of the
effective Defense (R6.7: terrain table, wrecks R8.1, rubble R8.3, burning hex R8.4; as given by
:func:`hexwar.rules.terrain_effects.terrain_defense_modifier`), the LOS hindrance count (R6.3)
and whether the attacking side has a ground unit in play (``classic`` captures, R6.6). Range,
LOS and which line may target which (R7) are the game's checks.

Typical use by the game::

    engine = CombatEngine(cards, dice, Deck("damage", state.damage_deck, state.damage_discard,
                          reshuffle=True), state.units, variant="classic" if ... else "standard",
                          events_in_play=state.events_in_play)
    events = engine.resolve_attack(attacker, target, AttackOrders(weapons=(0, 1)),
                                   DefenseContext(terrain=mod, hindrances=h))

Effects helper entry points: :meth:`CombatEngine.apply_hit` (a fire hit: Damage Index 4,
R8.5) and :meth:`CombatEngine.fire_weapon` with ``attacker=None`` (an off-board artillery
attack, R9.4).

Rule decisions where 000 is silent are listed in ``docs/rules.md`` (section "Card combat").

>>> from hexwar.rules.cards import default_cards, Deck
>>> from hexwar.rules.dice import Dice
>>> from hexwar.rules.units import roster
>>> cards = default_cards()
>>> units = roster(cards, ("su_t34_76#1", "su_tank_crew_regular#1"), ("de_pz_iv_g#1", "de_tank_crew_regular#1"))
>>> engine = CombatEngine(cards, Dice(3), Deck("damage", ["dmg01#1"], reshuffle=True), units)
>>> ev = engine.resolve_attack(units["su_t34_76#1"], units["de_pz_iv_g#1"], AttackOrders((0,)), DefenseContext())
>>> ev[0].kind, ev[1].kind
('attack', 'to_hit')
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from functools import lru_cache
from typing import TYPE_CHECKING, Any, ClassVar

from ..errors import HexwarError
from .cards import (
    VARIANTS,
    CardSet,
    CommandCard,
    Deck,
    Effect,
    EffectKind,
    UnitCard,
    Weapon,
    card_id_of,
    opponent,
)
from .dice import Dice, Roll
from .units import UnitLike, UnitState

if TYPE_CHECKING:  # pragma: no cover
    from ..hexgrid import Hex
    from ..maps import BattleMap

__all__ = [
    "AircraftReturns",
    "AttackOrders",
    "AttackStarted",
    "AttackVoid",
    "BombDropped",
    "BonusPolicy",
    "BonusRequest",
    "CloseAssaultFoiled",
    "CloseAssaultStarted",
    "CombatEngine",
    "CombatError",
    "CombatEvent",
    "CommandCardExpired",
    "CrewFate",
    "DamageApplied",
    "DamageCardDrawn",
    "DamageDeckEmpty",
    "DamageEffectEnded",
    "DefenseContext",
    "EnduranceRecovered",
    "ExtraDamage",
    "FlightTurnsChanged",
    "FriendlyFire",
    "FriendlyFirePolicy",
    "ToHit",
    "UnitDestroyed",
    "attack_problems",
    "attacker_effects",
    "bonus_on",
    "classify_roll",
    "close_assault_attack_value",
    "close_assault_problems",
    "damage_card_deltas",
    "damage_card_extra_dice",
    "effective_defense",
    "end_turn",
    "events_json",
    "is_immobilized",
    "leave_play",
    "legal_weapons",
    "normalize_variant",
    "played_effects",
    "rate_of_fire",
    "to_hit_modifiers",
    "unit_effects",
    "victory_points",
    "weapon_damage_index",
    "with_damage_card",
]


class CombatError(HexwarError):
    """An attack the rules do not allow (the message lists every reason); nothing was rolled."""


def normalize_variant(variant: str | Iterable[str]) -> str:
    """``"standard"`` or ``"classic"`` from a variant name or a collection of variant names (R11.3).

    >>> normalize_variant(("burnout", "classic")), normalize_variant("standard")
    ('classic', 'standard')

    Raises:
        CombatError: for a single unknown name.
    """
    if isinstance(variant, str):
        if variant not in VARIANTS:
            raise CombatError(f"unknown rule variant {variant!r}; expected one of {VARIANTS}")
        return variant
    return "classic" if "classic" in set(variant) else "standard"


# --------------------------------------------------------------------------------------------
# Inputs
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class DefenseContext:
    """What the map tells the combat engine about one target (R6.3, R6.6, R6.7).

    Attributes:
        terrain: the terrain part of the target's effective Defense, in Defense points:
            terrain table (soft or armored, R6.8) + wreck modifiers (R8.1) + rubble (R8.3), or
            the burning-hex modifier alone (R8.4) -- i.e.
            :func:`hexwar.rules.terrain_effects.terrain_defense_modifier`. Ignored for
            aircraft (R6.8).
        hindrances: hindrance hexes on the LOS: -1 each to the to-hit roll (R3.5, R6.3).
        captor_has_ground_unit: the attacking side has a ground unit in play; in ``classic``
            a crew can only be captured then (R6.6).
    """

    terrain: int = 0
    hindrances: int = 0
    captor_has_ground_unit: bool = True

    @classmethod
    def at(cls, battlemap: BattleMap, h: Hex, card: UnitCard, *, hindrances: int = 0,
           captor_has_ground_unit: bool = True) -> DefenseContext:
        """The context of a unit of ``card`` standing in hex ``h`` of ``battlemap``.

        Uses :func:`hexwar.rules.terrain_effects.terrain_defense_modifier` with the unit's
        type (soft / armored / aircraft, R6.8).

        Raises:
            MapError: when ``h`` is off the map.
        """
        from .terrain_effects import terrain_defense_modifier

        unit_type = "infantry" if card.is_crew else card.unit_type
        return cls(terrain_defense_modifier(battlemap, h, unit_type), hindrances, captor_has_ground_unit)


@dataclass(frozen=True, slots=True)
class AttackOrders:
    """A declared attack's choices (R6.1, steps b and the attack's Command cards).

    Attributes:
        weapons: weapon indexes in card order of fire (1 or 2, distinct).
        indirect: fired indirectly (rear line, or an SPG's 1st weapon, R7.2-R7.3).
        command_cards: Command card instances (or ids) played on this attack; only cards
            of duration ``"attack"`` (Aimed Fire, Flank Shot, Rapid Fire, ...).
    """

    weapons: tuple[int, ...]
    indirect: bool = False
    command_cards: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class BonusRequest:
    """Asked before every roll the attacker may improve with a Command card (R1.3).

    Attributes:
        roll: ``"to_hit"``, ``"intensity"`` or ``"assault_dice"``.
        number: the to-hit roll's number within the attack, from 0 (intensity and assault
            dice carry the number of the to-hit roll that hit).
        attacker: attacking unit uid (``None`` for off-board artillery / fire).
        target: target unit uid.
        weapon_index: weapon fired (``None`` for close assault, fire, artillery).
        need: the attack value needed (to-hit rolls only; 0 otherwise).
        modifier: the to-hit modifiers before any bonus (to-hit rolls only).
    """

    roll: str
    number: int
    attacker: str | None
    target: str
    weapon_index: int | None = None
    need: int = 0
    modifier: int = 0


#: Answers a :class:`BonusRequest`: True = discard a Command card for +1 on this roll.
BonusPolicy = Callable[[BonusRequest], bool]

#: Classic friendly fire (R6.4): ``(attacker, weapon, weapon index) -> (friendly target, its
#: context)`` chosen by the opponent among the legal friendly targets of the firer, or
#: ``None`` when there is none. ``attacker`` is ``None`` for off-board artillery.
FriendlyFirePolicy = Callable[[UnitLike | None, Weapon, int | None], "tuple[UnitLike, DefenseContext] | None"]


def bonus_on(to_hit: Iterable[int] | str = (), intensity: Iterable[int] | str = ()) -> BonusPolicy:
    """A :data:`BonusPolicy` that uses the Command-card bonus on given roll numbers.

    Args:
        to_hit: to-hit roll numbers (0-based within the attack), or ``"all"``.
        intensity: to-hit roll numbers whose Intensity roll gets the bonus, or ``"all"``.

    >>> p = bonus_on(to_hit=[1])
    >>> p(BonusRequest("to_hit", 0, "a", "b")), p(BonusRequest("to_hit", 1, "a", "b"))
    (False, True)
    """
    th = None if to_hit == "all" else frozenset(int(i) for i in to_hit)
    it = None if intensity == "all" else frozenset(int(i) for i in intensity)

    def policy(req: BonusRequest) -> bool:
        if req.roll == "to_hit":
            return th is None or req.number in th
        return it is None or req.number in it

    return policy


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


# --------------------------------------------------------------------------------------------
# Effects, modifiers and legality (shared by the engine and the odds)
# --------------------------------------------------------------------------------------------


def _card(cards: CardSet, unit: UnitLike) -> UnitCard:
    return cards.unit(unit.card)


def _name(cards: CardSet, unit: UnitLike | None) -> str:
    if unit is None:
        return "artillery"
    try:
        return f"{_card(cards, unit).name} [{unit.uid}]"
    except HexwarError:
        return unit.uid


def _crew_of(units: Mapping[str, UnitLike], unit: UnitLike) -> UnitLike | None:
    c = unit.crew
    return units.get(c) if c else None


def _is_veteran(cards: CardSet, unit: UnitLike, units: Mapping[str, UnitLike]) -> bool:
    """A veteran crew card, or a unit crewed by one (ignores marked Damage effects)."""
    own = cards.quality_of(_card(cards, unit))
    if own is not None:
        return own.ignores_marked_effects
    crew = _crew_of(units, unit)
    q = cards.quality_of(_card(cards, crew)) if crew is not None else None
    return bool(q and q.ignores_marked_effects)


def _damage_edge_active(cards: CardSet, unit: UnitLike) -> bool:
    if unit.damage_card is None:
        return False
    edge = cards.damage_card(unit.damage_card).side_for(_card(cards, unit).unit_type)
    return edge.turns is None or (unit.damage_turns is not None and unit.damage_turns > 0)


def unit_effects(cards: CardSet, unit: UnitLike, units: Mapping[str, UnitLike],
                 events_in_play: Sequence[str] = (), *, damage_only: bool = False) -> list[tuple[str, Effect]]:
    """Every effect in force on ``unit`` now, as ``(source title, effect)`` pairs (R4.3).

    Sources, in order: its Damage card's edge for its type while active (R5.6; skipped when
    a veteran ignores it), the Command cards under it (identical cards count once, 001), and
    the Events in play whose selectors match its side and type.

    Args:
        damage_only: only the Damage card (used for a crew's effects on its unit's attacks).
    """
    out: list[tuple[str, Effect]] = []
    card = _card(cards, unit)
    if unit.damage_card is not None and _damage_edge_active(cards, unit):
        edge = cards.damage_card(unit.damage_card).side_for(card.unit_type)
        if not (edge.veteran_ignores and _is_veteran(cards, unit, units)):
            out.extend((edge.title, e) for e in edge.effects)
    if damage_only:
        return out
    seen: set[str] = set()
    for inst in unit.command_cards:
        cid = card_id_of(inst)
        if cid in seen:
            continue
        seen.add(cid)
        c = cards.command_or_event(cid)
        out.extend((c.title, e) for e in c.effects if e.applies_to(unit.side, card.unit_type))
    for inst in events_in_play:
        ev = cards.command_or_event(inst)
        out.extend((ev.title, e) for e in ev.effects if e.applies_to(unit.side, card.unit_type))
    return out


def attacker_effects(cards: CardSet, attacker: UnitLike, units: Mapping[str, UnitLike],
                     events_in_play: Sequence[str] = ()) -> list[tuple[str, Effect]]:
    """Effects on an attacking unit: its own (:func:`unit_effects`) plus its crew's Damage card."""
    out = unit_effects(cards, attacker, units, events_in_play)
    crew = _crew_of(units, attacker)
    if crew is not None:
        out.extend((f"crew: {t}", e) for t, e in unit_effects(cards, crew, units, damage_only=True))
    return out


def played_effects(cards: CardSet, command_cards: Sequence[str]) -> list[tuple[str, Effect]]:
    """The effects of Command cards played on one attack (identical cards count once)."""
    out: list[tuple[str, Effect]] = []
    seen: set[str] = set()
    for inst in command_cards:
        cid = card_id_of(inst)
        if cid in seen:
            continue
        seen.add(cid)
        c = cards.command_or_event(cid)
        out.extend((c.title, e) for e in c.effects)
    return out


def _total(effects: Iterable[tuple[str, Effect]], kind: EffectKind) -> int:
    return sum(e.value for _, e in effects if e.kind == kind)


def _has(effects: Iterable[tuple[str, Effect]], kind: EffectKind) -> bool:
    return any(e.kind == kind for _, e in effects)


def is_immobilized(cards: CardSet, unit: UnitLike, units: Mapping[str, UnitLike],
                   events_in_play: Sequence[str] = ()) -> bool:
    """Immobilized by rubble (R8.3, the state flag) or by an effect in force (R4.3)."""
    return bool(unit.immobilized) or _has(unit_effects(cards, unit, units, events_in_play), EffectKind.IMMOBILIZED)


def effective_defense(cards: CardSet, target: UnitLike, ctx: DefenseContext, units: Mapping[str, UnitLike],
                      events_in_play: Sequence[str] = ()) -> tuple[int, list[tuple[str, int]]]:
    """Effective Defense (R6.7) and its parts: card Defense, effects, terrain (none for aircraft).

    Returns:
        ``(defense, [(part name, value), ...])``; may be negative.

    >>> from hexwar.rules.cards import default_cards
    >>> from hexwar.rules.units import new_unit
    >>> c = default_cards(); t = new_unit(c, "de_tiger_i")
    >>> effective_defense(c, t, DefenseContext(terrain=1), {})[0]
    9
    """
    card = _card(cards, target)
    parts: list[tuple[str, int]] = [("card", card.defense)]
    for title, e in unit_effects(cards, target, units, events_in_play):
        if e.kind == EffectKind.DEFENSE:
            parts.append((title, e.value))
    if card.unit_type != "aircraft" and ctx.terrain:
        parts.append(("terrain", ctx.terrain))
    return sum(v for _, v in parts), parts


def to_hit_modifiers(cards: CardSet, attacker: UnitLike | None, target: UnitLike, ctx: DefenseContext,
                     units: Mapping[str, UnitLike], events_in_play: Sequence[str] = (),
                     command_cards: Sequence[str] = (), extra: Sequence[tuple[str, int]] = ()) -> list[tuple[str, int]]:
    """Named modifiers of one to-hit roll (R6.3), the Command-card bonus excluded.

    Crew quality (green -1, veteran +1), attack effects on the attacker (Damage card, its
    crew's Damage card, Command cards under it, Events) and played on this attack, ``exposed``
    effects on the target, +2 against an immobilized target, -1 per hindrance, and ``extra``.
    """
    mods: list[tuple[str, int]] = []
    if attacker is not None:
        acard = _card(cards, attacker)
        q = cards.quality_of(acard)
        crew = _crew_of(units, attacker)
        if q is None and crew is not None:
            q = cards.quality_of(_card(cards, crew))
        if q is not None and q.attack:
            mods.append((f"{q.key} crew", q.attack))
        for title, e in attacker_effects(cards, attacker, units, events_in_play):
            if e.kind == EffectKind.ATTACK:
                mods.append((title, e.value))
        for title, e in played_effects(cards, command_cards):
            if e.kind == EffectKind.ATTACK:
                mods.append((title, e.value))
    for title, e in unit_effects(cards, target, units, events_in_play):
        if e.kind == EffectKind.EXPOSED:
            mods.append((f"target {title}", e.value))
    if is_immobilized(cards, target, units, events_in_play):
        mods.append(("target immobilized", cards.rules.immobilized_attack_bonus))
    if ctx.hindrances:
        mods.append((f"{ctx.hindrances} hindrance{'s' if ctx.hindrances != 1 else ''}", -ctx.hindrances))
    mods.extend(extra)
    return mods


def weapon_damage_index(cards: CardSet, attacker: UnitLike | None, weapon: Weapon, units: Mapping[str, UnitLike],
                        events_in_play: Sequence[str] = (), command_cards: Sequence[str] = ()) -> int:
    """The weapon's Damage Index with ``damage_index`` effects (attacker and played cards), >= 0."""
    di = weapon.damage_index + _total(played_effects(cards, command_cards), EffectKind.DAMAGE_INDEX)
    if attacker is not None:
        di += _total(attacker_effects(cards, attacker, units, events_in_play), EffectKind.DAMAGE_INDEX)
    return max(0, di)


def rate_of_fire(cards: CardSet, attacker: UnitLike | None, weapon: Weapon, units: Mapping[str, UnitLike],
                 events_in_play: Sequence[str] = (), command_cards: Sequence[str] = ()) -> int:
    """To-hit rolls for ``weapon``: its rate of fire with ``rate_of_fire`` effects, kept in 1..4."""
    n = weapon.rate_of_fire + _total(played_effects(cards, command_cards), EffectKind.RATE_OF_FIRE)
    if attacker is not None:
        n += _total(attacker_effects(cards, attacker, units, events_in_play), EffectKind.RATE_OF_FIRE)
    return max(1, min(4, n))


def damage_card_extra_dice(cards: CardSet, unit: UnitLike, damage_card: str, units: Mapping[str, UnitLike]) -> int:
    """d10s of extra damage ``unit`` takes at once when ``damage_card`` is drawn for it (0 if ignored)."""
    edge = cards.damage_card(damage_card).side_for(_card(cards, unit).unit_type)
    if edge.veteran_ignores and _is_veteran(cards, unit, units):
        return 0
    return sum(e.value for e in edge.effects if e.kind == EffectKind.EXTRA_DAMAGE)


@lru_cache(maxsize=4096)
def _edge_deltas(cards: CardSet, damage_card: str, unit_type: str, veteran: bool,
                 immobilized: bool) -> tuple[int, int, int]:
    edge = cards.damage_card(damage_card).side_for(unit_type)
    if edge.veteran_ignores and veteran:
        return 0, 0, 0
    fx = [("", e) for e in edge.effects]
    bonus = cards.rules.immobilized_attack_bonus if _has(fx, EffectKind.IMMOBILIZED) and not immobilized else 0
    return (_total(fx, EffectKind.DEFENSE), _total(fx, EffectKind.EXPOSED) + bonus,
            _total(fx, EffectKind.EXTRA_DAMAGE))


def damage_card_deltas(cards: CardSet, unit: UnitLike, damage_card: str, units: Mapping[str, UnitLike],
                       events_in_play: Sequence[str] = ()) -> tuple[int, int, int]:
    """What drawing ``damage_card`` now does to a unit without one, for the rest of an attack:
    ``(Defense change, change of the opponents' to-hit modifier, extra d10s)`` (R6.3, R6.6, R6.7).

    The same as comparing :func:`effective_defense` and :func:`to_hit_modifiers` of
    :func:`with_damage_card` with the unit as it is (a test holds them equal for every card),
    but cached: the exact odds ask it for every card of the deck.
    """
    return _edge_deltas(cards, card_id_of(damage_card), _card(cards, unit).unit_type,
                        _is_veteran(cards, unit, units), is_immobilized(cards, unit, units, events_in_play))


def with_damage_card(cards: CardSet, unit: UnitLike, damage_card: str) -> UnitState:
    """A copy of ``unit`` holding ``damage_card`` with a fresh counter (for the odds' what-ifs)."""
    edge = cards.damage_card(damage_card).side_for(_card(cards, unit).unit_type)
    return UnitState(uid=unit.uid, side=unit.side, endurance=unit.endurance, crew=unit.crew,
                     damage_card=damage_card, damage_turns=edge.turns, immobilized=bool(unit.immobilized),
                     command_cards=list(unit.command_cards), bombs_used=tuple(unit.bombs_used),
                     flight_turns=int(unit.flight_turns))


def classify_roll(natural: int, total: int, attack_value: int, variant: str, cards: CardSet) -> str:
    """The outcome of a to-hit roll (R6.3-R6.4).

    Natural (unmodified) sums decide the specials: classic 2-3 friendly fire, 19-20
    ``"special"`` (always a hit), 18 ``"double"`` when the modified total hits; otherwise
    ``"hit"`` when ``total >= attack_value`` (a hit on exactly the attack value), else ``"miss"``.

    >>> from hexwar.rules.cards import default_cards
    >>> c = default_cards()
    >>> [classify_roll(n, n, 10, "standard", c) for n in (9, 10, 18, 19)]
    ['miss', 'hit', 'double', 'special']
    >>> classify_roll(3, 3, 10, "classic", c), classify_roll(3, 3, 10, "standard", c)
    ('friendly_fire', 'miss')
    """
    r = cards.rules
    if variant == "classic" and natural in r.friendly_fire:
        return "friendly_fire"
    if natural in r.special:
        return "special"
    if total >= attack_value:
        return "double" if natural in r.double_intensity else "hit"
    return "miss"


def _command_card_problems(cards: CardSet, attacker_card: UnitCard, command_cards: Sequence[str],
                           close_assault: bool = False) -> list[str]:
    out: list[str] = []
    seen: set[str] = set()
    for inst in command_cards:
        cid = card_id_of(inst)
        c = cards.command.get(cid)
        if c is None:
            out.append(f"{inst} is not a Command card")
            continue
        if cid in seen:
            out.append(f"two {c.title} cards on one attack (identical Command cards do not add up)")
        seen.add(cid)
        if c.duration != "attack":
            out.append(f"{c.title} is not played on an attack (duration {c.duration})")
        elif close_assault:
            if not all(e.kind in (EffectKind.CLOSE_ASSAULT, EffectKind.ATTACK) for e in c.effects):
                out.append(f"{c.title} does not apply to a Close Assault")
            if not c.applies_to_unit("infantry"):
                out.append(f"{c.title} is not for infantry")
        elif not c.applies_to_unit(attacker_card.unit_type):
            out.append(f"{c.title} is not for a {attacker_card.unit_type}")
        elif any(e.kind == EffectKind.CLOSE_ASSAULT for e in c.effects):
            out.append(f"{c.title} is for Close Assaults only")
    return out


def attack_problems(cards: CardSet, attacker: UnitLike, target: UnitLike, orders: AttackOrders,
                    units: Mapping[str, UnitLike], events_in_play: Sequence[str] = ()) -> list[str]:
    """Every reason the declared attack is not legal as far as the cards go (empty: legal).

    Checks (R6.1, R4.2, R7.2-R7.5, 000): both units in play and on opposite sides; a crew
    present when the card needs one; no ``no_attack`` effect; 1 to 2 distinct valid weapons,
    the 2nd listed not under ``no_second_weapon``; each weapon can affect the target (attack
    value for its type; underscored weapons not against Defense 2+); bombs not yet used this
    flight; indirect fire only by rear-line units and SPGs, an SPG's 2nd weapon only against
    aircraft; a crew targeted only by infantry (R7.5); the played Command cards fit.
    Range, LOS and lines are the map's checks.
    """
    out: list[str] = []
    try:
        acard, tcard = _card(cards, attacker), _card(cards, target)
    except HexwarError as exc:
        return [str(exc)]
    if attacker.endurance <= 0:
        out.append(f"{acard.name} is destroyed")
    if target.endurance <= 0:
        out.append(f"{tcard.name} is destroyed")
    if attacker.side == target.side:
        out.append(f"{tcard.name} is on the attacker's own side")
    if acard.is_crew or not acard.weapons:
        out.append(f"{acard.name} has no weapons")
        return out
    if acard.needs_crew:
        crew = _crew_of(units, attacker)
        if crew is None or crew.endurance <= 0:
            out.append(f"{acard.name} has no {acard.crew.replace('_', ' ')}")
    effects = attacker_effects(cards, attacker, units, events_in_play)
    if _has(effects, EffectKind.NO_ATTACK):
        out.append(f"{acard.name} may not attack ({', '.join(t for t, e in effects if e.kind == EffectKind.NO_ATTACK)})")
    ws = orders.weapons
    if not 1 <= len(ws) <= cards.rules.max_weapons:
        out.append(f"an attack fires 1 to {cards.rules.max_weapons} weapons, not {len(ws)}")
    if len(set(ws)) != len(ws):
        out.append("the same weapon is chosen twice")
    if tcard.is_crew and acard.unit_type != "infantry":
        out.append("only infantry may target a gun's crew (R7.5)")
    for i in ws:
        if not isinstance(i, int) or not 0 <= i < len(acard.weapons):
            out.append(f"{acard.name} has no weapon {i!r} (it has {len(acard.weapons)})")
            continue
        w = acard.weapons[i]
        if i == 1 and _has(effects, EffectKind.NO_SECOND_WEAPON):
            out.append(f"{w.name} is the 2nd listed weapon and may not fire (damage effect)")
        if not w.affects(tcard):
            if w.attack_value(tcard.target_type) is None:
                out.append(f"{w.name} cannot affect a {tcard.target_type}")
            else:
                out.append(f"{w.name} fires bullets and cannot affect Defense {tcard.defense} (R4.2)")
        if w.bomb and i in attacker.bombs_used:
            out.append(f"{w.name} was already dropped this flight (R7.4)")
        if orders.indirect:
            if acard.line == "frontline":
                out.append(f"{acard.name} is a frontline unit and fires directly only (R7.2)")
            elif acard.line == "frontline_or_rear" and i != 0 and tcard.unit_type != "aircraft":
                out.append(f"an SPG firing indirectly uses its 1st weapon only (R7.2); {w.name} only against aircraft")
            elif not w.indirect and tcard.unit_type != "aircraft":
                out.append(f"{w.name} cannot fire indirectly")
    out.extend(_command_card_problems(cards, acard, orders.command_cards))
    return out


def legal_weapons(cards: CardSet, attacker: UnitLike, target: UnitLike, units: Mapping[str, UnitLike],
                  *, indirect: bool = False, events_in_play: Sequence[str] = ()) -> list[int]:
    """Indexes of the attacker's weapons that may fire at ``target`` on their own (for the AI/UI)."""
    card = _card(cards, attacker)
    return [i for i in range(len(card.weapons))
            if not attack_problems(cards, attacker, target, AttackOrders((i,), indirect), units, events_in_play)]


def close_assault_attack_value(cards: CardSet, assaulters: Sequence[UnitLike]) -> int | None:
    """The best (lowest) attack value vs vehicles among the assaulting infantry (000), or None.

    Underscores do not matter: the assault uses improvised explosives, not the listed weapons.
    """
    vals = [v for u in assaulters for w in _card(cards, u).weapons if (v := w.attack_value("vehicle")) is not None]
    return min(vals) if vals else None


def close_assault_problems(cards: CardSet, assaulters: Sequence[UnitLike], target: UnitLike,
                           units: Mapping[str, UnitLike], events_in_play: Sequence[str] = (),
                           command_cards: Sequence[str] = ()) -> tuple[list[UnitLike], list[str]]:
    """Who may take part in a Close Assault now, and every reason it cannot happen (000).

    Each assaulting unit must be an enemy infantry unit in play with an attack value against
    vehicles and no ``no_attack`` effect; at least ``close_assault_min`` (3) must remain; the
    target must be a vehicle in play. Adjacency is the map's check.

    Returns:
        ``(ready units, problems)``.
    """
    tcard = _card(cards, target)
    problems: list[str] = []
    if tcard.unit_type != "vehicle":
        problems.append(f"{tcard.name} is not a vehicle: only vehicles are Close Assaulted")
    if target.endurance <= 0:
        problems.append(f"{tcard.name} is destroyed")
    ready: list[UnitLike] = []
    for u in assaulters:
        c = _card(cards, u)
        if u.endurance <= 0 or c.unit_type != "infantry" or u.side == target.side:
            continue
        if all(w.attack_value("vehicle") is None for w in c.weapons):
            continue
        if _has(unit_effects(cards, u, units, events_in_play), EffectKind.NO_ATTACK):
            continue
        ready.append(u)
    need = cards.rules.close_assault_min
    if len(ready) < need:
        problems.append(f"a Close Assault needs {need} infantry able to attack vehicles; {len(ready)} left")
    if ready:
        problems.extend(_command_card_problems(cards, _card(cards, ready[0]), command_cards, close_assault=True))
    return ready, problems


def _close_assault_modifiers(cards: CardSet, ready: Sequence[UnitLike], target: UnitLike, ctx: DefenseContext,
                             units: Mapping[str, UnitLike], events_in_play: Sequence[str],
                             command_cards: Sequence[str]) -> list[tuple[str, int]]:
    mods = to_hit_modifiers(cards, None, target, ctx, units, events_in_play)
    for title, e in played_effects(cards, command_cards):
        if e.kind in (EffectKind.CLOSE_ASSAULT, EffectKind.ATTACK):
            mods.append((title, e.value))
    side = ready[0].side if ready else opponent(target.side)
    for inst in events_in_play:
        ev = cards.command_or_event(inst)
        for e in ev.effects:
            if e.kind == EffectKind.CLOSE_ASSAULT and e.applies_to(side, "infantry"):
                mods.append((ev.title, e.value))
    return mods


# --------------------------------------------------------------------------------------------
# The engine
# --------------------------------------------------------------------------------------------


_AUTO = "auto"


@dataclass
class CombatEngine:
    """Resolves attacks with the game's dice and Damage deck (R6).

    Args:
        cards: the card definitions.
        dice: the game's :class:`~hexwar.rules.dice.Dice` (every roll is logged there too).
        damage_deck: the Damage deck (reshuffles its discard pile when empty).
        units: every unit in play by uid (crews included), to find crews by id.
        variant: ``"standard"`` (000) or ``"classic"`` (001), or a collection of variant names.
        events_in_play: Event card instances in play (their effects apply, R4.3).
    """

    cards: CardSet
    dice: Dice
    damage_deck: Deck
    units: Mapping[str, UnitLike] = field(default_factory=dict)
    variant: str = "standard"
    events_in_play: Sequence[str] = ()

    def __post_init__(self) -> None:
        self.variant = normalize_variant(self.variant)
        self._names: dict[str, str] = {}

    def _n(self, unit: UnitLike | None) -> str:
        """Display name of a unit for event texts (memoized by uid)."""
        if unit is None:
            return "artillery"
        name = self._names.get(unit.uid)
        if name is None:
            name = self._names[unit.uid] = _name(self.cards, unit)
        return name

    # -- a whole declared attack (steps a-i) ----------------------------------------------
    def resolve_attack(self, attacker: UnitLike, target: UnitLike, orders: AttackOrders, ctx: DefenseContext,
                       *, bonus: BonusPolicy | None = None,
                       friendly_fire: FriendlyFirePolicy | None = None) -> list[CombatEvent]:
        """Resolve one declared attack: up to two weapons, rate of fire N rolls each (R6).

        The weapons fire in ``orders.weapons`` order; each hit is resolved as it happens;
        firing stops once the target is destroyed (step i). Bombs are marked used (R7.4).

        Args:
            attacker, target: unit states (changed in place).
            orders: weapons, indirect fire, Command cards played on the attack.
            ctx: the target's :class:`DefenseContext`.
            bonus: asked before each roll whether a Command card is discarded for +1 (R1.3).
            friendly_fire: classic 2-3: the opponent's choice (see :data:`FriendlyFirePolicy`).

        Returns:
            the events; ``[AttackVoid]`` when the attacker or target is already gone (R6.2).

        Raises:
            CombatError: listing every reason the attack is illegal (:func:`attack_problems`).
        """
        if attacker.endurance <= 0 or target.endurance <= 0:
            gone = attacker if attacker.endurance <= 0 else target
            return [AttackVoid(f"attack void: {self._n(gone)} is gone (R6.2)", attacker.uid, target.uid,
                               f"{gone.uid} destroyed")]
        problems = attack_problems(self.cards, attacker, target, orders, self.units, self.events_in_play)
        if problems:
            raise CombatError(f"{self._n(attacker)} cannot attack {self._n(target)}: "
                              + "; ".join(problems))
        acard = _card(self.cards, attacker)
        wnames = ", ".join(acard.weapons[i].name for i in orders.weapons)
        events: list[CombatEvent] = [AttackStarted(
            f"{self._n(attacker)} attacks {self._n(target)} with {wnames}",
            attacker.uid, target.uid, tuple(orders.weapons), tuple(orders.command_cards))]
        number = 0
        for i in orders.weapons:
            if target.endurance <= 0:
                break
            w = acard.weapons[i]
            n = rate_of_fire(self.cards, attacker, w, self.units, self.events_in_play, orders.command_cards)
            events += self.fire_weapon(w, target, ctx, side=attacker.side, attacker=attacker, weapon_index=i,
                                       rolls=n, command_cards=orders.command_cards, bonus=bonus,
                                       friendly_fire=friendly_fire, first_number=number)
            number += n
            if w.bomb:
                attacker.bombs_used = tuple(sorted(set(attacker.bombs_used) | {i}))
                events.append(BombDropped(f"{self._n(attacker)} has dropped its {w.name} (R7.4)",
                                          attacker.uid, i))
        return events

    # -- one weapon (steps c-h for each of its rolls) ---------------------------------------
    def fire_weapon(self, weapon: Weapon, target: UnitLike, ctx: DefenseContext, *, side: str,
                    attacker: UnitLike | None = None, weapon_index: int | None = None, rolls: int | None = None,
                    command_cards: Sequence[str] = (), modifiers: Sequence[tuple[str, int]] = (),
                    bonus: BonusPolicy | None = None, friendly_fire: FriendlyFirePolicy | None = None,
                    first_number: int = 0) -> list[CombatEvent]:
        """Fire one weapon at ``target``: ``rolls`` to-hit rolls (default its rate of fire), each
        hit resolved at once; stops when the target is destroyed.

        No legality checks here (see :func:`attack_problems`); off-board artillery (R9.4)
        calls this with ``attacker=None`` and the mission's weapon.

        Args:
            weapon: the weapon (its attack value for the target's type must exist).
            side: the firing side (scores the victory points).
            attacker: the firing unit, or ``None`` (off-board artillery).
            weapon_index: its index on the attacker's card (for events and bonus requests).
            rolls: number of to-hit rolls; default the rate of fire with effects.
            command_cards: Command cards played on the attack.
            modifiers: extra named to-hit modifiers (e.g. a scenario's).
            first_number: number of the first roll within the whole attack (for ``bonus``).

        Raises:
            CombatError: when the weapon has no attack value against the target's type.
        """
        cards = self.cards
        tcard = _card(cards, target)
        av = weapon.attack_value(tcard.target_type)
        if av is None:
            raise CombatError(f"{weapon.name} cannot affect a {tcard.target_type}")
        n = rolls if rolls is not None else rate_of_fire(cards, attacker, weapon, self.units, self.events_in_play,
                                                         command_cards)
        di = weapon_damage_index(cards, attacker, weapon, self.units, self.events_in_play, command_cards)
        by = (attacker.uid,) if attacker is not None else ()
        events: list[CombatEvent] = []
        for k in range(n):
            if target.endurance <= 0:
                break
            number = first_number + k
            mods = to_hit_modifiers(cards, attacker, target, ctx, self.units, self.events_in_play, command_cards,
                                    modifiers)
            req = BonusRequest("to_hit", number, by[0] if by else None, target.uid, weapon_index, av,
                               sum(v for _, v in mods))
            use = bool(bonus(req)) if bonus else False
            roll = self.dice.roll(f"to hit: {self._n(attacker)} {weapon.name} -> {self._n(target)} "
                                  f"(needs {av})", "2d10", mods, command_card=use)
            outcome = classify_roll(roll.natural, roll.result, av, self.variant, cards)
            events.append(ToHit(f"{roll}: {_OUTCOME_TEXT[outcome]}", by[0] if by else None, target.uid,
                                weapon.name, weapon_index, number, av, roll, outcome))
            if outcome == "miss":
                continue
            if outcome == "friendly_fire":
                events += self._friendly_fire(attacker, weapon, weapon_index, di, friendly_fire, bonus, number)
                continue
            if outcome == "special":
                events += self._special(target, ctx, di, side, by, bonus, number, weapon_index)
                continue
            events += self.apply_hit(target, ctx, damage_index=di, double=outcome == "double", scorer=side,
                                     by=by, bonus=self._intensity_bonus(bonus, number, by, target, weapon_index))
        return events

    @staticmethod
    def _intensity_bonus(bonus: BonusPolicy | None, number: int, by: tuple[str, ...], target: UnitLike,
                         weapon_index: int | None) -> bool:
        if bonus is None:
            return False
        return bool(bonus(BonusRequest("intensity", number, by[0] if by else None, target.uid, weapon_index)))

    def _special(self, target: UnitLike, ctx: DefenseContext, di: int, side: str, by: tuple[str, ...],
                 bonus: BonusPolicy | None, number: int, weapon_index: int | None) -> list[CombatEvent]:
        """Natural 19-20 (R6.4): draw a Damage card (then the hit's damage), or destroy."""
        if self.variant == "classic" or target.damage_card is not None:
            return self.destroy(target, scorer=side, by=by, cause="special_roll", fate_die=None,
                                crew_destroyed=True, ctx=ctx)
        events = self.draw_damage_card(target, reason="special_roll", scorer=side, by=by, ctx=ctx)
        if target.endurance > 0:
            events += self.apply_hit(target, ctx, damage_index=di, scorer=side, by=by,
                                     bonus=self._intensity_bonus(bonus, number, by, target, weapon_index))
        return events

    def _friendly_fire(self, attacker: UnitLike | None, weapon: Weapon, weapon_index: int | None, di: int,
                       policy: FriendlyFirePolicy | None, bonus: BonusPolicy | None,
                       number: int) -> list[CombatEvent]:
        """Classic natural 2-3 (R6.4): the opponent's chosen friendly target is hit; no points."""
        choice = policy(attacker, weapon, weapon_index) if policy is not None else None
        who = self._n(attacker)
        if choice is None:
            return [FriendlyFire(f"friendly fire from {who}: no legal friendly target", attacker.uid if attacker else None,
                                 None)]
        victim, vctx = choice
        events: list[CombatEvent] = [FriendlyFire(f"friendly fire: {who} hits {self._n(victim)}",
                                                  attacker.uid if attacker else None, victim.uid)]
        by = (attacker.uid,) if attacker is not None else ()
        events += self.apply_hit(victim, vctx, damage_index=di, scorer=None, by=by, source="friendly fire",
                                 bonus=self._intensity_bonus(bonus, number, by, victim, weapon_index))
        return events

    # -- damage (steps d-h) ------------------------------------------------------------------
    def apply_hit(self, target: UnitLike, ctx: DefenseContext, *, damage_index: int, double: bool = False,
                  scorer: str | None = _AUTO, by: tuple[str, ...] = (), source: str = "hit",
                  bonus: bool = False, intensity: int | None = None) -> list[CombatEvent]:
        """Apply one hit: Intensity 1d10 (+1 with the Command-card bonus; doubled on a natural 18)
        + Damage Index - effective Defense, at least 0 (R6.5); then critical damage (R6.6) and
        destruction with victory points and crew fate.

        Fire damage (R8.5) calls this with ``damage_index=4, source="fire"``.

        Args:
            target: the unit hit (changed in place).
            ctx: its :class:`DefenseContext`.
            damage_index: the weapon's Damage Index (with effects).
            double: a natural 18 hit (R6.4).
            scorer: the side scoring a destruction; default the target's opponent; ``None``
                for nobody (friendly fire).
            by: attacking unit uids (for the events).
            source: what hit it, for the events and log.
            bonus: the attacker discards a Command card for +1 on the Intensity roll (R1.3).
            intensity: a fixed natural Intensity die instead of rolling (tests, replays).

        Returns:
            events: :class:`DamageApplied`, then maybe :class:`DamageCardDrawn`,
            :class:`ExtraDamage`, :class:`UnitDestroyed`, :class:`CrewFate`.
        """
        if scorer == _AUTO:
            scorer = opponent(target.side)
        if target.endurance <= 0:
            return []
        if intensity is None:
            roll = self.dice.roll(f"intensity: {source} on {self._n(target)}", "1d10", command_card=bonus)
        else:
            if not 1 <= intensity <= 10:
                raise CombatError(f"an Intensity die reads 1..10, not {intensity}")
            mods = ((("command card", 1),) if bonus else ())
            roll = Roll(f"intensity: {source} on {self._n(target)} (fixed)", "1d10", (intensity,), mods,
                        intensity, intensity + sum(v for _, v in mods))
        raw = roll.result * (2 if double else 1)
        return self._damage(target, ctx, roll, raw, double, damage_index, roll.natural, scorer, by, source)

    def _damage(self, target: UnitLike, ctx: DefenseContext, roll: Roll | None, raw: int, doubled: bool,
                damage_index: int, fate_die: int, scorer: str | None, by: tuple[str, ...],
                source: str) -> list[CombatEvent]:
        cards = self.cards
        card = _card(cards, target)
        defense, parts = effective_defense(cards, target, ctx, self.units, self.events_in_play)
        damage = max(0, raw + damage_index - defense)
        before = target.endurance
        target.endurance = before - damage
        dtext = " ".join(f"{v:+d} {n}" for n, v in parts)
        events: list[CombatEvent] = [DamageApplied(
            f"{self._n(target)} takes {damage} damage ({source}: {'2x' if doubled else ''}{raw // (2 if doubled else 1)}"
            f" + DI {damage_index} - Defense {defense} [{dtext}]); Endurance {before} -> {target.endurance}",
            target.uid, source, roll, raw, doubled, damage_index, defense, damage, before, target.endurance)]
        if target.endurance <= 0:
            events += self.destroy(target, scorer=scorer, by=by, cause="damage", fate_die=fate_die, ctx=ctx)
        elif target.damage_card is None and target.endurance <= card.endurance_half:
            events += self.draw_damage_card(target, reason="half_endurance", scorer=scorer, by=by, ctx=ctx)
        return events

    def draw_damage_card(self, target: UnitLike, *, reason: str, scorer: str | None = _AUTO,
                         by: tuple[str, ...] = (), ctx: DefenseContext | None = None) -> list[CombatEvent]:
        """Draw a Damage card for ``target`` and apply its edge for the target's type (R6.6).

        At most one card per unit (a unit that has one draws nothing). Immediate effects:
        ``extra_damage`` (d10s, no Defense; may destroy: crew fate from the highest die) and
        ``turns_of_flight``. A veteran ignores a marked edge (the card still counts).

        Args:
            reason: ``"half_endurance"`` or ``"special_roll"``.
        """
        if scorer == _AUTO:
            scorer = opponent(target.side)
        cards = self.cards
        if target.damage_card is not None or target.endurance <= 0:
            return []
        inst = self.damage_deck.draw(self.dice)
        if inst is None:
            return [DamageDeckEmpty(f"no Damage card left for {self._n(target)}", target.uid)]
        card = _card(cards, target)
        edge = cards.damage_card(inst).side_for(card.unit_type)
        target.damage_card = inst
        target.damage_turns = edge.turns
        ignored = edge.veteran_ignores and _is_veteran(cards, target, self.units)
        events: list[CombatEvent] = [DamageCardDrawn(
            f"{self._n(target)} draws Damage card {inst}: {edge.describe(cards.rules)}"
            + (" (ignored by its veterans)" if ignored else ""),
            target.uid, inst, edge.title, reason, ignored, edge.turns)]
        if ignored:
            return events
        extra = sum(e.value for e in edge.effects if e.kind == EffectKind.EXTRA_DAMAGE)
        if extra:
            roll = self.dice.roll(f"extra damage ({edge.title}) on {self._n(target)}", f"{extra}d10")
            before = target.endurance
            target.endurance = before - roll.result
            events.append(ExtraDamage(f"{roll}: {self._n(target)} Endurance {before} -> {target.endurance}",
                                      target.uid, roll, roll.result, before, target.endurance))
            if target.endurance <= 0:
                events += self.destroy(target, scorer=scorer, by=by, cause="extra_damage", fate_die=max(roll.faces),
                                       ctx=ctx)
                return events
        tof = sum(e.value for e in edge.effects if e.kind == EffectKind.TURNS_OF_FLIGHT)
        if tof and card.unit_type == "aircraft":
            before = int(target.flight_turns)
            target.flight_turns = max(0, before + tof)
            events.append(FlightTurnsChanged(f"{self._n(target)}: Turns of Flight {before} -> {target.flight_turns}",
                                             target.uid, before, target.flight_turns))
        return events

    def destroy(self, target: UnitLike, *, scorer: str | None, by: tuple[str, ...] = (), cause: str = "damage",
                fate_die: int | None = None, crew_destroyed: bool = False,
                ctx: DefenseContext | None = None) -> list[CombatEvent]:
        """Destroy ``target`` (step g, R6.6): Endurance 0, victory points, crew fate.

        The crew's fate comes from ``fate_die`` (the destroying hit's natural Intensity die):
        1-3 survives (under its Reserves deck), 4-6 captured (2x its cost), 7-10 destroyed
        (its cost). ``crew_destroyed`` (natural 19-20 destruction) destroys it outright. A
        capture needs a scorer, and in ``classic`` a ground unit of the captor in play
        (``ctx.captor_has_ground_unit``); otherwise the crew survives.
        """
        cards = self.cards
        card = _card(cards, target)
        target.endurance = 0
        vp = card.cost if scorer else 0
        events: list[CombatEvent] = [UnitDestroyed(
            f"{self._n(target)} is destroyed" + (f": {vp} VP to {scorer}" if scorer else " (no points)"),
            target.uid, card.id, card.unit_type, target.side, scorer, vp, cause, tuple(by), card.unit_type == "vehicle")]
        crew = _crew_of(self.units, target)
        if crew is None or crew.endurance <= 0:
            return events
        ccard = _card(cards, crew)
        if crew_destroyed or fate_die is None:
            fate = "destroyed"
        else:
            fate = cards.rules.crew_fate(fate_die)
        if fate == "captured" and (scorer is None or (self.variant == "classic" and ctx is not None
                                                      and not ctx.captor_has_ground_unit)):
            fate = "survives"
        cvp = 0 if scorer is None else {"survives": 0, "captured": ccard.cost * cards.rules.capture_multiplier,
                                        "destroyed": ccard.cost}[fate]
        die = "" if fate_die is None or crew_destroyed else f" (die {fate_die})"
        events.append(CrewFate(f"{self._n(crew)} {fate}{die}" + (f": {cvp} VP to {scorer}" if cvp else ""),
                               crew.uid, target.uid, fate, None if crew_destroyed else fate_die, scorer, cvp))
        return events

    # -- close assault (000) ----------------------------------------------------------------
    def close_assault(self, assaulters: Sequence[UnitLike], target: UnitLike, ctx: DefenseContext, *,
                      command_cards: Sequence[str] = (), bonus: BonusPolicy | None = None) -> list[CombatEvent]:
        """A Close Assault by three or more infantry on a vehicle (000; R6.6: adjacent to it).

        At resolution the infantry still able to attack are counted; fewer than three foils it
        (:class:`CloseAssaultFoiled`). One to-hit roll with the best attack value vs vehicles
        of the group; on a hit roll 1d10 per assaulting unit, sum (doubled on a natural 18) -
        effective Defense, no Damage Index; crew fate from the highest die. Natural 19-20 as
        for any attack; a classic natural 2-3 is a plain miss (no weapon to misdirect).

        Raises:
            CombatError: when the target is not a vehicle or a played card does not fit.
        """
        cards = self.cards
        ids = tuple(u.uid for u in assaulters)
        if target.endurance <= 0:
            return [AttackVoid(f"close assault void: {self._n(target)} is gone (R6.2)", ",".join(ids),
                               target.uid, f"{target.uid} destroyed")]
        tcard = _card(cards, target)
        if tcard.unit_type != "vehicle":
            raise CombatError(f"close assault on {self._n(target)}: only vehicles are Close Assaulted (000)")
        ready, _ = close_assault_problems(cards, assaulters, target, self.units, self.events_in_play)
        bad_cards = _command_card_problems(cards, tcard, command_cards, close_assault=True)
        if bad_cards:
            raise CombatError(f"close assault on {self._n(target)}: " + "; ".join(bad_cards))
        if len(ready) < cards.rules.close_assault_min:
            return [CloseAssaultFoiled(f"close assault on {self._n(target)} foiled: only {len(ready)} "
                                       f"infantry left", ids, target.uid, tuple(u.uid for u in ready))]
        av = close_assault_attack_value(cards, ready)
        assert av is not None
        side = ready[0].side
        rid = tuple(u.uid for u in ready)
        mods = _close_assault_modifiers(cards, ready, target, ctx, self.units, self.events_in_play, command_cards)
        events: list[CombatEvent] = [CloseAssaultStarted(
            f"close assault by {', '.join(self._n(u) for u in ready)} on {self._n(target)} (needs {av})",
            rid, target.uid, av)]
        use = bool(bonus(BonusRequest("to_hit", 0, rid[0], target.uid, None, av, sum(v for _, v in mods)))) if bonus \
            else False
        roll = self.dice.roll(f"close assault to hit -> {self._n(target)} (needs {av})", "2d10", mods,
                              command_card=use)
        outcome = classify_roll(roll.natural, roll.result, av, self.variant, cards)
        if outcome == "friendly_fire":
            outcome = "miss"
        events.append(ToHit(f"{roll}: {_OUTCOME_TEXT[outcome]}", rid[0], target.uid, "close assault", None, 0, av,
                            roll, outcome))
        if outcome == "miss":
            return events
        if outcome == "special":
            if self.variant == "classic" or target.damage_card is not None:
                return events + self.destroy(target, scorer=side, by=rid, cause="special_roll", crew_destroyed=True,
                                             ctx=ctx)
            events += self.draw_damage_card(target, reason="special_roll", scorer=side, by=rid, ctx=ctx)
            if target.endurance <= 0:
                return events
        use = bool(bonus(BonusRequest("assault_dice", 0, rid[0], target.uid))) if bonus else False
        dice_roll = self.dice.roll(f"close assault dice ({len(ready)} infantry) on {self._n(target)}",
                                   f"{len(ready)}d10", command_card=use)
        doubled = outcome == "double"
        raw = dice_roll.result * (2 if doubled else 1)
        return events + self._damage(target, ctx, dice_roll, raw, doubled, 0, max(dice_roll.faces), side, rid,
                                     "close assault")


_OUTCOME_TEXT = {
    "miss": "miss",
    "hit": "hit",
    "double": "hit, natural 18: Intensity doubled",
    "special": "natural 19-20: special hit",
    "friendly_fire": "natural 2-3: friendly fire",
}


# --------------------------------------------------------------------------------------------
# End Turn and leaving play
# --------------------------------------------------------------------------------------------


def end_turn(cards: CardSet, units: Mapping[str, UnitLike]) -> list[CombatEvent]:
    """End Turn for every unit in play (R5.6), in uid order.

    For each unit with Endurance > 0: Command cards of duration ``"turn"`` expire (removed
    from the unit; :class:`CommandCardExpired` -- the game discards them); the Damage-card
    counter counts down (:class:`DamageEffectEnded` at 0); an aircraft's Turns of Flight count
    down (:class:`AircraftReturns` at 0; its bombs are reset for the next flight); finally
    Current Endurance recovers to Full without a Damage card, to Half with one.
    """
    events: list[CombatEvent] = []
    for uid in sorted(units):
        u = units[uid]
        if u.endurance <= 0:
            continue
        card = cards.unit(u.card)
        keep = []
        for inst in u.command_cards:
            c = cards.command_or_event(inst)
            if isinstance(c, CommandCard) and c.duration == "turn":
                events.append(CommandCardExpired(f"{c.title} leaves {_name(cards, u)}", u.uid, inst))
            else:
                keep.append(inst)
        if len(keep) != len(u.command_cards):
            u.command_cards[:] = keep
        if u.damage_card is not None and u.damage_turns is not None and u.damage_turns > 0:
            u.damage_turns -= 1
            if u.damage_turns == 0:
                edge = cards.damage_card(u.damage_card).side_for(card.unit_type)
                events.append(DamageEffectEnded(f"{edge.title} on {_name(cards, u)} ends", u.uid, u.damage_card))
        if card.unit_type == "aircraft":
            u.flight_turns = int(u.flight_turns) - 1
            if u.flight_turns <= 0:
                u.flight_turns = 0
                u.bombs_used = ()
                events.append(AircraftReturns(f"{_name(cards, u)} has spent its Turns of Flight", u.uid, u.crew))
        want = card.endurance_half if u.damage_card is not None else card.endurance_full
        if u.endurance != want:
            before = u.endurance
            u.endurance = want
            events.append(EnduranceRecovered(f"{_name(cards, u)} Endurance {before} -> {want}"
                                             f" ({'Half: it has a Damage card' if u.damage_card else 'Full'})",
                                             u.uid, before, want))
    return events


def leave_play(unit: UnitLike, damage_deck: Deck, command_discard: list[str] | None = None) -> list[str]:
    """Clear a unit leaving play: its Damage card to the Damage discard pile, its Command cards
    to ``command_discard`` (000: "any associated Command or Damage cards are cleared").

    Returns:
        the card instances moved.
    """
    moved: list[str] = []
    if unit.damage_card is not None:
        damage_deck.discard_card(unit.damage_card)
        moved.append(unit.damage_card)
        unit.damage_card = None
        unit.damage_turns = None
    if unit.command_cards:
        if command_discard is not None:
            command_discard.extend(unit.command_cards)
        moved.extend(unit.command_cards)
        unit.command_cards[:] = []
    return moved


def victory_points(cards: CardSet, card_id: str, captured: bool = False) -> int:
    """Victory points for destroying (its cost) or capturing (twice its cost) a card (R6.6, R10).

    >>> from hexwar.rules.cards import default_cards
    >>> victory_points(default_cards(), "de_tiger_i#1"), victory_points(default_cards(), "de_tiger_i", captured=True)
    (24, 48)
    """
    cost = cards.unit(card_id).cost
    return cost * cards.rules.capture_multiplier if captured else cost


def events_json(events: Iterable[CombatEvent]) -> list[dict[str, Any]]:
    """The events as JSON-ready dicts."""
    return [e.to_json() for e in events]


