"""Who may target whom on the map (R7) and the declaration of attacks (R6.1).

A declared attack names one attacker, one target and up to two of the attacker's weapons
(card order, 0-based). Each weapon must be able to affect the target (an attack value for its
type; bullets - underscored values - cannot affect a card Defense of 2 or more, R4.2) and must
reach it in one of these ways:

* **direct fire** (R7.1, R7.2): frontline units, SPGs and aircraft-capable weapons of ground
  units: the target is within the weapon's range and the LOS is clear or hindered; each
  hindrance adds 1 to the attack value needed (R3.5);
* **indirect fire** (R7.2, R7.3): rear-line units (artillery) with any weapon, an SPG with its
  first weapon only, and any weapon flagged ``indirect``: the target is within range and in LOS
  of at least one friendly ground unit (the observer; the firer itself counts); hindrances are
  those of the best observer's LOS;
* **aircraft** (R7.4): an aircraft aloft may attack any ground unit (no range, no LOS); a bomb
  fires once per flight. Any weapon with an aircraft attack value may target an aircraft
  aloft, regardless of LOS and range;
* **crew fire** (R7.5): infantry may target a frontline gun's crew (``at_crew``), sparing the
  gun; the weapon must affect infantry (crews are attacked as infantry).

An attacker needs its crew if it requires one, may not have declared already this turn, and
may not be under a ``no_attack`` effect; its second listed weapon may not fire under
``no_second_weapon`` (R4.3 effects).

Close assault (000, R6.6): three or more infantry adjacent to an enemy vehicle, each with an
attack value against vehicles (underscores do not matter: improvised explosives, as the combat
engine reads it), declare one joint attack on it.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from typing import TYPE_CHECKING, Any

from ..errors import clip
from ..model.los import los_content_key
from ..rules.cards import EffectKind, Weapon
from ..rules.combat import AttackOrders, attack_problems
from . import ruleset, special
from .commands import Command, Declare, DeclareBuildingAttack, DeclareCloseAssault
from .sight import seen_units
from .state import SHARED_MEMOS, Attack, other_side

if TYPE_CHECKING:  # pragma: no cover
    from .state import GameState, UnitState

__all__ = [
    "FireMode",
    "attacker_problem",
    "weapon_problem",
    "declare_problem",
    "close_assault_problem",
    "unseen_target_problem",
    "do_declare",
    "do_declare_close_assault",
    "declaration_options",
    "building_attack_problem",
    "do_declare_building_attack",
    "legal_targets",
    "targeting_key",
    "share_memos",
    "content_memo",
    "void_attacks",
    "observers",
    "MAX_WEAPONS",
]

MAX_WEAPONS = 2  # R6.1


class FireMode:
    """How a weapon reaches its target: ``direct``, ``indirect``, ``air`` (aircraft attacker or
    target aloft, R7.4) or ``crew`` (R7.5, direct fire at a gun's crew)."""

    DIRECT = "direct"
    INDIRECT = "indirect"
    AIR = "air"


def observers(state: GameState, side: str) -> list[UnitState]:
    """The side's ground units on the map that can observe (R7.3, R9.2): not crews, not aloft."""
    return [
        u
        for _, u in sorted(state.units.items())
        if u.side == side
        and u.hex is not None
        and not u.aloft
        and u.crewing is None
        and ruleset.is_ground(u.card)
    ]


def _effects(state: GameState, u: UnitState) -> list[Any]:
    """:func:`hexwar.game.ruleset.active_effects` of ``u``, remembered under
    :func:`targeting_key` (which holds everything they read: the unit's and its crew's fields,
    the Events in play, R4.3); shared, never change it."""
    memo = content_memo(state, "active_effects")
    hit = memo.get(u.uid)
    if hit is None:
        hit = memo[u.uid] = ruleset.active_effects(state, u)
    return hit  # type: ignore[no-any-return]


def attacker_problem(state: GameState, side: str, uid: str) -> str | None:
    """Why unit ``uid`` may not declare an attack now, or ``None`` (R6.1, R4.3)."""
    u = state.units.get(uid)
    if u is None:
        return f"no unit {clip(uid, quote=False)} in play"
    name = f"{ruleset.card_name(u.card)} ({uid})"
    if u.side != side:
        return f"{name} is not yours"
    if u.crewing is not None:
        return f"{name} is a crew; it fights only through the unit it crews"
    if ruleset.needs_crew(u.card) and u.crew is None:
        return f"{name} has no crew and cannot fire (R4.1)"
    if any(uid in a.attackers for a in state.attacks.values()):
        return f"{name} has already declared an attack this turn (R6.1)"
    if ruleset.has_effect(_effects(state, u), EffectKind.NO_ATTACK):
        return f"{name} may not attack this turn (damage or card effect)"
    if not ruleset.weapons(u.card):
        return f"{name} has no weapons"
    return None


def _mode(
    state: GameState, u: UnitState, t: UnitState, widx: int, w: Weapon, ctx: dict[str, Any]
) -> tuple[str | None, int, str | None]:
    """``(mode, hindrances, problem)`` for weapon ``widx`` of ``u`` against ``t`` (geometry only;
    ``ctx``: :func:`_weapon_problem`'s per-attacker values, the observers kept there)."""
    if t.aloft:
        return FireMode.AIR, 0, None  # R7.4: regardless of LOS (and range)
    if u.aloft:
        return FireMode.AIR, 0, None  # R7.4: any ground unit
    assert u.hex is not None and t.hex is not None
    dist = u.hex.distance(t.hex)
    if not w.in_range(dist):
        return None, 0, f"{t.hex.label} is {dist} hexes away, beyond the {w.name}'s range of {w.range}"
    night = special.is_night(state)  # R10.6: at night fire and observation reach NIGHT_RANGE hexes
    ln = ruleset.line(u.card)
    indirect_ok = ln == "rear" or (ln == "either" and widx == 0) or w.indirect
    direct_ok = ln != "rear"
    if direct_ok and not (night and dist > special.NIGHT_RANGE):
        vis, hind = ruleset.sees(state, u.hex, t.hex)
        if vis:
            return FireMode.DIRECT, hind, None
    if indirect_ok:
        best: int | None = None
        obs = ctx.get("observers")
        if obs is None:
            obs = ctx["observers"] = observers(state, u.side)
        for o in obs:
            assert o.hex is not None
            if night and o.hex.distance(t.hex) > special.NIGHT_RANGE:
                continue
            vis, hind = ruleset.sees(state, o.hex, t.hex)
            if vis and (best is None or hind < best):
                best = hind
        if best is not None:
            return FireMode.INDIRECT, best, None
        return (
            None,
            0,
            f"no friendly ground unit has LOS to {t.hex.label} to observe for indirect fire (R7.3)",
        )
    if night and dist > special.NIGHT_RANGE:
        return (
            None,
            0,
            f"{t.hex.label} is {dist} hexes away: at night fire reaches {special.NIGHT_RANGE} hexes (R10.6)",
        )
    return None, 0, f"no LOS from {u.hex.label} to {t.hex.label} (R7.1)"


def targeting_key(state: GameState) -> tuple[Any, ...]:
    """Everything a weapon check (:func:`weapon_problem`) reads, as one hashable value.

    Every field of every unit in play (cards, hexes, crews, Damage cards and their turns,
    Command cards under it, bombs dropped, R4.3, R7.4), the Events in play (R4.3), the turn
    (night, R10.6), the map object and its LOS content (:func:`hexwar.model.los.los_content_key`,
    R3). Worked out once per epoch (a few microseconds a unit)."""
    epoch = (state.cache.get("epoch", 0), state.battlemap.version, state.turn)
    hit = state.cache.get("targeting_key")
    if hit is not None and hit[0] == epoch:
        return hit[1]  # type: ignore[no-any-return]
    bm = state.battlemap
    key = (
        state.turn,
        id(bm),
        los_content_key(bm),
        tuple(state.events_in_play),
        tuple(
            (
                uid,
                u.owner,
                u.side,
                u.hex,
                u.aloft,
                u.crew,
                u.crewing,
                u.endurance,
                u.damage_card,
                u.damage_turns,
                u.immobilized,
                u.mp_left,
                u.towing,
                u.flight_turns,
                tuple(u.bombs_used),
                tuple(u.command_cards),
                u.entered,
            )
            for uid, u in sorted(state.units.items())
        ),
    )
    state.cache["targeting_key"] = (epoch, key)
    return key


def share_memos(state: GameState, shared: dict[Any, Any]) -> None:
    """Let ``state`` keep its targeting memos (:func:`weapon_problem`, :func:`legal_targets`)
    and its units' reach (:func:`hexwar.game.movement.unit_reach`) in ``shared``, keyed by
    content, so other games holding the same dict reuse them (issue 31).

    Only for games of the same scenario object, rule variants and card set (what the memos read
    besides their keys): the search gives one dict to the sample worlds of one decision. Two
    games with equal keys (units, Events, turn, LOS content; a reach's inputs) have equal
    answers, whichever map object they hold.

    Args:
        state: a game (its ``cache`` gets the entry).
        shared: a dict of the caller's, empty at first and then only filled here.
    """
    state.cache[SHARED_MEMOS] = shared


def content_memo(state: GameState, name: str, extra: Any = None) -> dict[Any, Any]:
    """A memo of ``name`` answers kept while :func:`targeting_key` (and ``extra``, what else
    the answers read) stays the same: across commands that change none of it, such as one
    Declare after another (issue 22); and across games given one dict by :func:`share_memos`
    (the key less the map object's identity, issue 31).

    Args:
        state: the game.
        name: the memo's name (its ``state.cache`` entry).
        extra: a hashable value of everything else the answers read (the map's other
            content included: the key holds the map's LOS content only).

    Returns:
        the memo dict: the caller's question -> its answer (answers are shared: never
        change one).
    """
    key = (targeting_key(state), extra)
    hit = state.cache.get(name)
    if hit is None or hit[0] != key:
        shared = state.cache.get(SHARED_MEMOS)
        if shared is None:
            hit = (key, {})
        else:
            tk = key[0]
            content = (name, tk[0], *tk[2:], extra)  # all but id(battlemap): its LOS content stays
            memo_ = shared.get(content)
            if memo_ is None:
                memo_ = shared[content] = {}
            hit = (key, memo_)
        state.cache[name] = hit
    memo: dict[Any, Any] = hit[1]
    return memo


def weapon_problem(
    state: GameState, uid: str, tid: str, widx: int, at_crew: bool = False
) -> tuple[str | None, str | None, int]:
    """Whether weapon ``widx`` of ``uid`` may fire at ``tid`` (R7, R4.2).

    Answers are remembered while what they read stays (:func:`targeting_key`): the listing, the
    check of a declaration and the players ask the same questions many times (issue 22).

    Returns:
        ``(problem, mode, hindrances)``: ``problem`` is ``None`` when legal; ``mode`` is a
        :class:`FireMode` value.

    Raises:
        KeyError: when ``uid`` is not in play.
    """
    memo = content_memo(state, "weapon_problem")
    key = (uid, tid, widx, at_crew)
    hit = memo.get(key)
    if hit is None:
        hit = memo[key] = _weapon_problem(state, uid, tid, widx, at_crew)
    return hit


def _weapon_problem(
    state: GameState, uid: str, tid: str, widx: int, at_crew: bool, ctx: dict[str, Any] | None = None
) -> tuple[str | None, str | None, int]:
    """:func:`weapon_problem` computed afresh. ``ctx`` keeps what depends on the attacker
    ``uid`` alone in this position (its effects, its side's observers), for the next weapon
    and target of the same attacker: an empty dict for each attacker and position (``None``:
    a new one)."""
    ctx = {} if ctx is None else ctx
    u = state.units[uid]
    t = state.units.get(tid)
    if t is None:
        return f"no unit {clip(tid, quote=False)} in play", None, 0
    ws = ruleset.weapons(u.card)
    if not 0 <= widx < len(ws):
        return f"{ruleset.card_name(u.card)} has weapons 0..{len(ws) - 1}, not {widx}", None, 0
    w = ws[widx]
    effects = ctx.get("effects")
    if effects is None:
        effects = ctx["effects"] = _effects(state, u)
    if widx == 1 and ruleset.has_effect(effects, EffectKind.NO_SECOND_WEAPON):
        return f"the 2nd listed weapon of {ruleset.card_name(u.card)} may not fire (damage effect)", None, 0
    if w.bomb and widx in u.bombs_used:
        return f"the {w.name} was already dropped this flight (R7.4)", None, 0
    target_card = ruleset.unit_card(t.card)
    if at_crew:
        if t.crew is None:
            return f"{ruleset.card_name(t.card)} has no crew to target", None, 0
        target_card = ruleset.unit_card(t.crew)
    if not w.affects(target_card):
        if w.attack_value(target_card.target_type) is None:
            return f"the {w.name} cannot affect {target_card.target_type} targets (R4.2)", None, 0
        return f"the {w.name} fires bullets and cannot affect Defense {target_card.defense} (R4.2)", None, 0
    if w.bomb and t.aloft:
        return "bombs cannot attack aircraft", None, 0
    mode, hind, problem = _mode(state, u, t, widx, w, ctx)
    if problem:
        return problem, None, 0
    if ruleset.line(u.card) == "either" and mode == FireMode.INDIRECT and widx != 0:  # pragma: no cover
        return "an SPG fires indirectly with its first weapon only (R7.2)", None, 0
    return None, mode, hind


def unseen_target_problem(state: GameState, side: str, tid: str) -> str | None:
    """Under fog (R12.2), why ``side`` may not name ``tid`` as a target: it is not in play or
    ``side`` does not see it, in the same words either way, so a refusal never tells a seat
    that an unseen unit exists, or where (R12.1); ``None`` without fog or for a seen unit.

    Args:
        state: the game.
        side: the side naming the target.
        tid: the target's instance id, as the command gives it.
    """
    if "fog" not in state.variants:
        return None
    t = state.units.get(tid)
    if t is None or (t.side != side and tid not in seen_units(state, side)):
        return f"{side} sees no unit {tid} (R12.2: a target must be seen)"
    return None


def target_problem(state: GameState, side: str, uid: str, tid: str, at_crew: bool) -> str | None:
    """Why ``tid`` is not a legal target for ``uid`` at all (ignoring weapons), or ``None``."""
    u = state.units[uid]
    t = state.units.get(tid)
    unseen = unseen_target_problem(state, side, tid)
    if unseen is not None:
        return unseen
    if t is None:
        return f"no unit {clip(tid, quote=False)} in play"
    if t.side == side:
        return f"{ruleset.card_name(t.card)} ({tid}) is on your side"
    if t.crewing is not None:
        return (
            f"{ruleset.card_name(t.card)} ({tid}) rides {t.crewing}; target the unit "
            "(infantry may fire at a frontline gun's crew with at_crew, R7.5)"
        )
    if at_crew:
        if not ruleset.is_infantry(u.card):
            return "only infantry may target a gun's crew (R7.5)"
        if not ruleset.is_gun(t.card) or ruleset.line(t.card) != "frontline":
            return (
                f"{ruleset.card_name(t.card)} is not a frontline gun; only their crews may be targeted (R7.5)"
            )
        if t.crew is None:
            return f"{ruleset.card_name(t.card)} has no crew"
        if u.aloft:  # pragma: no cover - aircraft are not infantry
            return "aircraft do not target crews"
    if u.aloft and t.aloft and all(w.attack_value("aircraft") is None for w in ruleset.weapons(u.card)):
        return f"{ruleset.card_name(u.card)} cannot attack aircraft"
    return None


def declare_problem(state: GameState, cmd: Declare) -> str | None:
    """Why a :class:`~hexwar.game.commands.Declare` is illegal now (R6.1, R7), or ``None``."""
    p = attacker_problem(state, cmd.side, cmd.attacker)
    if p:
        return p
    p = target_problem(state, cmd.side, cmd.attacker, cmd.target, cmd.at_crew)
    if p:
        return p
    if not 1 <= len(cmd.weapons) <= MAX_WEAPONS:
        return f"declare 1 or {MAX_WEAPONS} weapons, got {len(cmd.weapons)} (R6.1)"
    if len(set(cmd.weapons)) != len(cmd.weapons):
        return "a weapon is named twice"
    modes = []
    for widx in cmd.weapons:
        prob, mode, _ = weapon_problem(state, cmd.attacker, cmd.target, widx, cmd.at_crew)
        if prob:
            return prob
        modes.append(mode)
    # the combat engine's own card checks must agree (R6.1, R4.2, R7.2)
    t = state.units[cmd.target]
    tgt = state.units[t.crew] if cmd.at_crew and t.crew in state.units else t
    probs = attack_problems(
        ruleset.cards(),
        state.units[cmd.attacker],
        tgt,
        AttackOrders(tuple(cmd.weapons), FireMode.INDIRECT in modes),
        state.units,
        state.events_in_play,
    )
    return probs[0] if probs else None


def do_declare(state: GameState, cmd: Declare, sink: Any) -> Attack:
    """Record a checked declaration (R6.1) and log it."""
    modes = []
    hind = 0
    for widx in cmd.weapons:
        _, mode, h = weapon_problem(state, cmd.attacker, cmd.target, widx, cmd.at_crew)
        modes.append(mode)
        hind = max(hind, h)
    n = max(state.attacks, default=0) + 1
    a = Attack(
        n,
        cmd.side,
        (cmd.attacker,),
        cmd.target,
        tuple(cmd.weapons),
        cmd.at_crew,
        False,
        any(m == FireMode.INDIRECT for m in modes),
        hind,
    )
    state.attacks[n] = a
    u, t = state.units[cmd.attacker], state.units[cmd.target]
    ws = ruleset.weapons(u.card)
    wtxt = " and ".join(ws[i].name for i in cmd.weapons)
    crew = " (at its crew, R7.5)" if cmd.at_crew else ""
    how = f", {', '.join(sorted({m for m in modes if m}))} fire" + (f", {hind} hindrance" if hind else "")
    sink.emit(
        "declare",
        f"{cmd.side} declares attack {n}: {ruleset.card_name(u.card)} ({u.uid}) at "
        f"{ruleset.card_name(t.card)} ({t.uid}){crew} in {state.hex_label(t.hex)} with {wtxt}{how}",
        attack=a.to_json(),
    )
    return a


def close_assault_problem(state: GameState, cmd: DeclareCloseAssault) -> str | None:
    """Why a close assault declaration is illegal (000 Close Assault, R6.6), or ``None``."""
    need = ruleset.cards().rules.close_assault_min
    if len(cmd.attackers) < need:
        return f"a close assault needs at least {need} infantry units, got {len(cmd.attackers)}"
    if len(set(cmd.attackers)) != len(cmd.attackers):
        return "an attacker is named twice"
    unseen = unseen_target_problem(state, cmd.side, cmd.target)  # before anything about the target
    if unseen is not None:
        return unseen
    t = state.units.get(cmd.target)
    if t is None:
        return f"no unit {clip(cmd.target, quote=False)} in play"
    if t.side == cmd.side:
        return f"{cmd.target} is on your side"
    if not ruleset.is_vehicle(t.card) or t.hex is None:
        return f"{ruleset.card_name(t.card)} is not a vehicle on the map: only vehicles are close-assaulted"
    for uid in cmd.attackers:
        p = attacker_problem(state, cmd.side, uid)
        if p:
            return p
        u = state.units[uid]
        if not ruleset.is_infantry(u.card):
            return f"{ruleset.card_name(u.card)} ({uid}) is not infantry"
        if u.hex is None or u.hex.distance(t.hex) != 1:
            return (
                f"{ruleset.card_name(u.card)} ({uid}) is not adjacent to {t.hex.label} (close assault, R6.6)"
            )
        if all(w.attack_value("vehicle") is None for w in ruleset.weapons(u.card)):
            return f"{ruleset.card_name(u.card)} ({uid}) has no attack value against vehicles"
    return None


def do_declare_close_assault(state: GameState, cmd: DeclareCloseAssault, sink: Any) -> Attack:
    """Record a checked close assault declaration and log it."""
    n = max(state.attacks, default=0) + 1
    a = Attack(n, cmd.side, tuple(cmd.attackers), cmd.target, (), False, True, False, 0)
    state.attacks[n] = a
    t = state.units[cmd.target]
    sink.emit(
        "declare",
        f"{cmd.side} declares attack {n}: close assault by {', '.join(cmd.attackers)} on "
        f"{ruleset.card_name(t.card)} ({t.uid}) in {state.hex_label(t.hex)}",
        attack=a.to_json(),
    )
    return a


def building_attack_problem(state: GameState, cmd: Any) -> str | None:
    """Why an infantry close-combat attack on a building is illegal (R8.2), or ``None``.

    The attacker must be infantry able to attack this turn, the hex adjacent to it and holding
    an intact building, and the weapon one of its weapons.
    """
    p = attacker_problem(state, cmd.side, cmd.attacker)
    if p:
        return p
    u = state.units[cmd.attacker]
    if not ruleset.is_infantry(u.card):
        return f"{ruleset.card_name(u.card)} is not infantry: only infantry attacks buildings in close combat (R8.2)"
    h = cmd.hex
    if h is None or not state.battlemap.in_bounds(h):
        return "give the building's hex on the map"
    if u.hex is None or u.hex.distance(h) != 1:
        return f"{h.label} is not adjacent to {ruleset.card_name(u.card)} (close combat, R8.2)"
    if state.battlemap.building_at(h) is None:
        return f"{h.label} holds no intact building"
    ws = ruleset.weapons(u.card)
    if not 0 <= cmd.weapon < len(ws):
        return f"{ruleset.card_name(u.card)} has weapons 0..{len(ws) - 1}, not {cmd.weapon}"
    if cmd.weapon == 1 and ruleset.has_effect(_effects(state, u), EffectKind.NO_SECOND_WEAPON):
        return "the 2nd listed weapon may not be used (damage effect)"
    return None


def do_declare_building_attack(state: GameState, cmd: Any, sink: Any) -> Attack:
    """Record a checked close-combat attack on a building (R8.2) and log it."""
    n = max(state.attacks, default=0) + 1
    a = Attack(n, cmd.side, (cmd.attacker,), "", (cmd.weapon,), building=cmd.hex)
    state.attacks[n] = a
    u = state.units[cmd.attacker]
    b = state.battlemap.building_at(cmd.hex)
    sink.emit(
        "declare",
        f"{cmd.side} declares attack {n}: {ruleset.card_name(u.card)} ({u.uid}) attacks the "
        f"{b.name if b else 'building'} in {cmd.hex.label} in close combat (R8.2)",
        attack=a.to_json(),
    )
    return a


def legal_targets(state: GameState, side: str, uid: str) -> list[tuple[str, bool, tuple[int, ...]]]:
    """Every ``(target id, at_crew, legal weapon indexes)`` for ``uid`` now (for UIs and AIs).

    Remembered while what it reads stays (:func:`targeting_key` and whether ``uid`` declared;
    not under fog of war, R12.2); each
    call returns a new list."""
    if "fog" in state.variants:
        return _legal_targets(state, side, uid)
    # attacker_problem also reads whether the unit has declared already (R6.1)
    declared = any(uid in a.attackers for a in state.attacks.values())
    memo = content_memo(state, "legal_targets")
    hit = memo.get((side, uid, declared))
    if hit is None:
        hit = memo[(side, uid, declared)] = _legal_targets(state, side, uid)
    return list(hit)


def _legal_targets(state: GameState, side: str, uid: str) -> list[tuple[str, bool, tuple[int, ...]]]:
    """:func:`legal_targets` computed afresh."""
    out: list[tuple[str, bool, tuple[int, ...]]] = []
    if attacker_problem(state, side, uid):
        return out
    enemy = other_side(side)
    nw = len(ruleset.weapons(state.units[uid].card))
    memo = content_memo(state, "weapon_problem")  # weapon_problem's memo, read once (issue 31)
    ctx: dict[str, Any] = {}
    for tid, t in sorted(state.units.items()):
        if t.side != enemy or t.crewing is not None:
            continue
        for at_crew in (False, True):
            if target_problem(state, side, uid, tid, at_crew):
                continue
            ok = []
            for i in range(nw):
                hit = memo.get((uid, tid, i, at_crew))
                if hit is None:
                    hit = memo[(uid, tid, i, at_crew)] = _weapon_problem(state, uid, tid, i, at_crew, ctx)
                if hit[0] is None:
                    ok.append(i)
            if ok:
                out.append((tid, at_crew, tuple(ok)))
    return out


def declaration_options(state: GameState, side: str) -> Iterator[Command]:
    """Every legal declaration of ``side`` now: :func:`declare_options`, then
    :func:`close_assault_options`, then :func:`building_attack_options` (R6.1, R7, R8.2)."""
    yield from declare_options(state, side)
    yield from close_assault_options(state, side)
    yield from building_attack_options(state, side)


def declare_options(state: GameState, side: str) -> Iterator[Declare]:
    """Every legal :class:`Declare` of ``side``: each target with each 1- or 2-weapon choice (R6.1, R7)."""
    for uid in sorted(state.units):
        for tid, at_crew, ok in legal_targets(state, side, uid):
            for k in range(1, min(MAX_WEAPONS, len(ok)) + 1):
                for ws in combinations(ok, k):
                    yield Declare(side, uid, tid, ws, at_crew)


def close_assault_options(state: GameState, side: str) -> Iterator[DeclareCloseAssault]:
    """Every enemy vehicle with exactly the minimum number of adjacent infantry able to assault it (000)."""
    need = ruleset.cards().rules.close_assault_min
    enemy = other_side(side)
    for tid, t in sorted(state.units.items()):
        if t.side != enemy or t.hex is None or t.aloft or not ruleset.is_vehicle(t.card):
            continue
        cands = [
            uid
            for uid, u in sorted(state.units.items())
            if u.side == side
            and u.hex is not None
            and u.hex.distance(t.hex) == 1
            and ruleset.is_infantry(u.card)
            and attacker_problem(state, side, uid) is None
            and any(w.attack_value("vehicle") is not None for w in ruleset.weapons(u.card))
        ]
        if len(cands) >= need:
            yield DeclareCloseAssault(side, tuple(cands[:need]), tid)


def building_attack_options(state: GameState, side: str) -> Iterator[DeclareBuildingAttack]:
    """Every building next to an infantry unit of ``side`` that may attack it (R8.2)."""
    for uid, u in sorted(state.units.items()):
        if u.side != side or u.hex is None or u.aloft or not ruleset.is_infantry(u.card):
            continue
        for h in state.battlemap.neighbors(u.hex):
            if state.battlemap.building_at(h) is not None:
                cmd = DeclareBuildingAttack(side, uid, h, 0)
                if building_attack_problem(state, cmd) is None:
                    yield cmd


def _still_legal(state: GameState, a: Attack, sink: Any) -> str | None:
    """Re-check a declared attack with the combat engine before it is resolved (R6.2).

    A Damage card drawn since the declaration may forbid attacking (``no_attack``: the attack
    is void) or the 2nd weapon (``no_second_weapon``: that weapon no longer fires). Returns why
    the attack is void, or ``None`` (the weapons list may have been trimmed).
    """
    t = state.units[a.target]
    tgt = state.units[t.crew] if a.at_crew and t.crew in state.units else t
    att = state.units[a.attackers[0]]

    def probs(ws: tuple[int, ...]) -> list[str]:
        return attack_problems(
            ruleset.cards(),
            att,
            tgt,
            AttackOrders(ws, a.indirect, tuple(a.command_cards)),
            state.units,
            state.events_in_play,
        )

    first = probs(tuple(a.weapons))
    if not first:
        return None
    keep = tuple(w for w in a.weapons if not probs((w,)))
    if keep and not probs(keep):
        sink.emit(
            "weapons_lost",
            f"attack {a.number}: only {', '.join(ruleset.weapons(att.card)[w].name for w in keep)} "
            f"may still fire ({first[0]})",
            attack=a.number,
            weapons=list(keep),
        )
        a.weapons = keep
        return None
    return first[0]


def void_attacks(state: GameState, sink: Any) -> None:
    """R6.2: mark declared attacks void whose attacker was destroyed (or lost its crew) or
    whose target is gone; a close assault with fewer than the minimum infantry left is
    dispersed (000)."""
    need = ruleset.cards().rules.close_assault_min
    for n, a in sorted(state.attacks.items()):
        if a.resolved:
            continue
        why = None
        t = state.units.get(a.target)
        if a.building is not None:
            u = state.units.get(a.attackers[0])
            if u is None or u.side != a.side:
                why = "its attacker was destroyed"
            elif state.battlemap.building_at(a.building) is None:
                why = "the building is gone"
        elif t is None or t.side == a.side:
            why = "its target is gone"
        elif a.at_crew and t.crew is None:
            why = "the gun's crew is gone"
        elif a.close_assault:
            alive = [x for x in a.attackers if x in state.units and state.units[x].side == a.side]
            if len(alive) < need:
                why = f"only {len(alive)} assaulting infantry are left: the close assault is dispersed"
        else:
            u = state.units.get(a.attackers[0])
            if u is None or u.side != a.side:
                why = "its attacker was destroyed"
            elif ruleset.needs_crew(u.card) and u.crew is None:
                why = "its attacker lost its crew"
            else:
                why = _still_legal(state, a, sink)
        if why:
            a.resolved = True
            state.command_discard.extend(a.command_cards)  # cards played on it are spent
            a.command_cards = []
            sink.emit("void", f"attack {n} is void: {why} (R6.2)", attack=n)
