"""Combat modifiers and legality (R6, R7): effects in force, Defense, to-hit modifiers,
Damage-card deltas, which attacks and close assaults are allowed."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache

from ...errors import HexwarError
from ..cards import (
    CardSet,
    Effect,
    EffectKind,
    UnitCard,
    Weapon,
    card_id_of,
    opponent,
)
from ..units import UnitLike, UnitState
from .orders import AttackOrders, DefenseContext

__all__ = [
    "attack_problems",
    "attacker_effects",
    "classify_roll",
    "close_assault_attack_value",
    "close_assault_problems",
    "damage_card_deltas",
    "damage_card_extra_dice",
    "effective_defense",
    "is_immobilized",
    "legal_weapons",
    "played_effects",
    "rate_of_fire",
    "to_hit_modifiers",
    "unit_effects",
    "weapon_damage_index",
    "with_damage_card",
]


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


def unit_effects(
    cards: CardSet,
    unit: UnitLike,
    units: Mapping[str, UnitLike],
    events_in_play: Sequence[str] = (),
    *,
    damage_only: bool = False,
) -> list[tuple[str, Effect]]:
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


def attacker_effects(
    cards: CardSet, attacker: UnitLike, units: Mapping[str, UnitLike], events_in_play: Sequence[str] = ()
) -> list[tuple[str, Effect]]:
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


def is_immobilized(
    cards: CardSet, unit: UnitLike, units: Mapping[str, UnitLike], events_in_play: Sequence[str] = ()
) -> bool:
    """Immobilized by rubble (R8.3, the state flag) or by an effect in force (R4.3)."""
    return bool(unit.immobilized) or _has(
        unit_effects(cards, unit, units, events_in_play), EffectKind.IMMOBILIZED
    )


def effective_defense(
    cards: CardSet,
    target: UnitLike,
    ctx: DefenseContext,
    units: Mapping[str, UnitLike],
    events_in_play: Sequence[str] = (),
) -> tuple[int, list[tuple[str, int]]]:
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


def to_hit_modifiers(
    cards: CardSet,
    attacker: UnitLike | None,
    target: UnitLike,
    ctx: DefenseContext,
    units: Mapping[str, UnitLike],
    events_in_play: Sequence[str] = (),
    command_cards: Sequence[str] = (),
    extra: Sequence[tuple[str, int]] = (),
) -> list[tuple[str, int]]:
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


def weapon_damage_index(
    cards: CardSet,
    attacker: UnitLike | None,
    weapon: Weapon,
    units: Mapping[str, UnitLike],
    events_in_play: Sequence[str] = (),
    command_cards: Sequence[str] = (),
) -> int:
    """The weapon's Damage Index with ``damage_index`` effects (attacker and played cards), >= 0."""
    di = weapon.damage_index + _total(played_effects(cards, command_cards), EffectKind.DAMAGE_INDEX)
    if attacker is not None:
        di += _total(attacker_effects(cards, attacker, units, events_in_play), EffectKind.DAMAGE_INDEX)
    return max(0, di)


def rate_of_fire(
    cards: CardSet,
    attacker: UnitLike | None,
    weapon: Weapon,
    units: Mapping[str, UnitLike],
    events_in_play: Sequence[str] = (),
    command_cards: Sequence[str] = (),
) -> int:
    """To-hit rolls for ``weapon``: its rate of fire with ``rate_of_fire`` effects, kept in 1..4."""
    n = weapon.rate_of_fire + _total(played_effects(cards, command_cards), EffectKind.RATE_OF_FIRE)
    if attacker is not None:
        n += _total(attacker_effects(cards, attacker, units, events_in_play), EffectKind.RATE_OF_FIRE)
    return max(1, min(4, n))


def damage_card_extra_dice(
    cards: CardSet, unit: UnitLike, damage_card: str, units: Mapping[str, UnitLike]
) -> int:
    """d10s of extra damage ``unit`` takes at once when ``damage_card`` is drawn for it (0 if ignored)."""
    edge = cards.damage_card(damage_card).side_for(_card(cards, unit).unit_type)
    if edge.veteran_ignores and _is_veteran(cards, unit, units):
        return 0
    return sum(e.value for e in edge.effects if e.kind == EffectKind.EXTRA_DAMAGE)


@lru_cache(maxsize=4096)
def _edge_deltas(
    cards: CardSet, damage_card: str, unit_type: str, veteran: bool, immobilized: bool
) -> tuple[int, int, int]:
    edge = cards.damage_card(damage_card).side_for(unit_type)
    if edge.veteran_ignores and veteran:
        return 0, 0, 0
    fx = [("", e) for e in edge.effects]
    bonus = (
        cards.rules.immobilized_attack_bonus if _has(fx, EffectKind.IMMOBILIZED) and not immobilized else 0
    )
    return (
        _total(fx, EffectKind.DEFENSE),
        _total(fx, EffectKind.EXPOSED) + bonus,
        _total(fx, EffectKind.EXTRA_DAMAGE),
    )


def damage_card_deltas(
    cards: CardSet,
    unit: UnitLike,
    damage_card: str,
    units: Mapping[str, UnitLike],
    events_in_play: Sequence[str] = (),
) -> tuple[int, int, int]:
    """What drawing ``damage_card`` now does to a unit without one, for the rest of an attack:
    ``(Defense change, change of the opponents' to-hit modifier, extra d10s)`` (R6.3, R6.6, R6.7).

    The same as comparing :func:`effective_defense` and :func:`to_hit_modifiers` of
    :func:`with_damage_card` with the unit as it is (a test holds them equal for every card),
    but cached: the exact odds ask it for every card of the deck.
    """
    return _edge_deltas(
        cards,
        card_id_of(damage_card),
        _card(cards, unit).unit_type,
        _is_veteran(cards, unit, units),
        is_immobilized(cards, unit, units, events_in_play),
    )


def with_damage_card(cards: CardSet, unit: UnitLike, damage_card: str) -> UnitState:
    """A copy of ``unit`` holding ``damage_card`` with a fresh counter (for the odds' what-ifs)."""
    edge = cards.damage_card(damage_card).side_for(_card(cards, unit).unit_type)
    return UnitState(
        uid=unit.uid,
        side=unit.side,
        endurance=unit.endurance,
        crew=unit.crew,
        damage_card=damage_card,
        damage_turns=edge.turns,
        immobilized=bool(unit.immobilized),
        command_cards=list(unit.command_cards),
        bombs_used=tuple(unit.bombs_used),
        flight_turns=int(unit.flight_turns),
    )


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


def _command_card_problems(
    cards: CardSet, attacker_card: UnitCard, command_cards: Sequence[str], close_assault: bool = False
) -> list[str]:
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


def attack_problems(
    cards: CardSet,
    attacker: UnitLike,
    target: UnitLike,
    orders: AttackOrders,
    units: Mapping[str, UnitLike],
    events_in_play: Sequence[str] = (),
) -> list[str]:
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
        out.append(
            f"{acard.name} may not attack ({', '.join(t for t, e in effects if e.kind == EffectKind.NO_ATTACK)})"
        )
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
                out.append(
                    f"an SPG firing indirectly uses its 1st weapon only (R7.2); {w.name} only against aircraft"
                )
            elif not w.indirect and tcard.unit_type != "aircraft":
                out.append(f"{w.name} cannot fire indirectly")
    out.extend(_command_card_problems(cards, acard, orders.command_cards))
    return out


def legal_weapons(
    cards: CardSet,
    attacker: UnitLike,
    target: UnitLike,
    units: Mapping[str, UnitLike],
    *,
    indirect: bool = False,
    events_in_play: Sequence[str] = (),
) -> list[int]:
    """Indexes of the attacker's weapons that may fire at ``target`` on their own (for the AI/UI)."""
    card = _card(cards, attacker)
    return [
        i
        for i in range(len(card.weapons))
        if not attack_problems(cards, attacker, target, AttackOrders((i,), indirect), units, events_in_play)
    ]


def close_assault_attack_value(cards: CardSet, assaulters: Sequence[UnitLike]) -> int | None:
    """The best (lowest) attack value vs vehicles among the assaulting infantry (000), or None.

    Underscores do not matter: the assault uses improvised explosives, not the listed weapons.
    """
    vals = [
        v for u in assaulters for w in _card(cards, u).weapons if (v := w.attack_value("vehicle")) is not None
    ]
    return min(vals) if vals else None


def close_assault_problems(
    cards: CardSet,
    assaulters: Sequence[UnitLike],
    target: UnitLike,
    units: Mapping[str, UnitLike],
    events_in_play: Sequence[str] = (),
    command_cards: Sequence[str] = (),
) -> tuple[list[UnitLike], list[str]]:
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
        problems.extend(
            _command_card_problems(cards, _card(cards, ready[0]), command_cards, close_assault=True)
        )
    return ready, problems


def _close_assault_modifiers(
    cards: CardSet,
    ready: Sequence[UnitLike],
    target: UnitLike,
    ctx: DefenseContext,
    units: Mapping[str, UnitLike],
    events_in_play: Sequence[str],
    command_cards: Sequence[str],
) -> list[tuple[str, int]]:
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
