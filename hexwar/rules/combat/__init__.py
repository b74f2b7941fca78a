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

The package: :mod:`.orders` (contexts, orders, policies), :mod:`.events` (the combat events),
:mod:`.modifiers` (effects, modifiers, legality) and :mod:`.engine` (:class:`CombatEngine`).
"""

from __future__ import annotations

from .engine import (
    RULES_REVISION,
    CombatEngine,
    end_turn,
    events_json,
    leave_play,
    victory_points,
)
from .events import (
    AircraftReturns,
    AttackStarted,
    AttackVoid,
    BombDropped,
    CloseAssaultFoiled,
    CloseAssaultStarted,
    CombatEvent,
    CommandCardExpired,
    CrewFate,
    DamageApplied,
    DamageCardDrawn,
    DamageDeckEmpty,
    DamageEffectEnded,
    EnduranceRecovered,
    ExtraDamage,
    FlightTurnsChanged,
    FriendlyFire,
    ToHit,
    UnitDestroyed,
)
from .modifiers import (
    attack_problems,
    attacker_effects,
    classify_roll,
    close_assault_attack_value,
    close_assault_problems,
    damage_card_deltas,
    damage_card_extra_dice,
    effective_defense,
    is_immobilized,
    legal_weapons,
    played_effects,
    rate_of_fire,
    to_hit_modifiers,
    unit_effects,
    weapon_damage_index,
    with_damage_card,
)
from .orders import (
    AttackOrders,
    BonusPolicy,
    BonusRequest,
    CombatError,
    DefenseContext,
    FriendlyFirePolicy,
    bonus_on,
    normalize_variant,
)

__all__ = [
    "RULES_REVISION",
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
