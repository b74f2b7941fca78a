"""``Commit`` (R5.2): a unit card from hand onto a deploy-zone hex (with crew or carried
infantry) or aloft (aircraft)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import numpy as np

from ...model.hexgrid import Hex
from ...rules.cards import EffectKind
from ...rules.terrain_effects import enter_cost_array
from .. import movement as mv
from .. import ruleset, victory
from ..commands import Commit
from ..events import Recorder
from ..state import STACKING_LIMIT, UnitState, card_of, other_side
from .common import enemy_in, ground_count
from .registry import Action

if TYPE_CHECKING:  # pragma: no cover
    from ..state import GameState

__all__ = ["ACTION", "check", "apply", "options", "new_unit", "hand_crews", "card_groups", "open_hexes"]


def check(state: GameState, cmd: Commit) -> str | None:
    """Why a :class:`~hexwar.game.commands.Commit` is illegal now (R5.2), or ``None``."""
    return _card_problem(state, cmd) or _place_problem(state, cmd, {})


def _card_problem(state: GameState, cmd: Commit) -> str | None:
    """The checks of :func:`check` on the cards alone (hand, crew, rider), not the hex."""
    side = cmd.side
    hand = state.hand_units[side]
    if cmd.unit not in hand:
        return f"{cmd.unit} is not in your hand"
    cid = card_of(cmd.unit)
    name = ruleset.card_name(cid)
    if ruleset.is_crew(cid):
        return f"{name} is a crew card: commit it with the unit it crews (crew=...) or with recrew"
    req = ruleset.crew_required(cid)
    if req is None:
        if cmd.crew is not None or cmd.carry is not None:
            return f"{name} takes no crew and carries nobody"
    elif req == "infantry":
        if cmd.crew is not None:
            return f"{name} takes no crew card; it commits together with an infantry unit (carry=...)"
        if cmd.carry is None:
            return f"{name} must be committed together with an infantry unit from your hand (carry=..., 000)"
        if cmd.carry not in hand or cmd.carry == cmd.unit:
            return f"{cmd.carry} is not in your hand"
        if not ruleset.is_infantry(card_of(cmd.carry)):
            return f"{ruleset.card_name(card_of(cmd.carry))} is not infantry"
    else:
        if cmd.carry is not None:
            return f"{name} carries nobody"
        if cmd.crew is None:
            return (
                f"{name} needs {ruleset.a_or_an(req.replace('_', ' '))} card from your hand (crew=..., R5.2)"
            )
        if cmd.crew not in hand:
            return f"{cmd.crew} is not in your hand"
        if not ruleset.crew_fits(cid, card_of(cmd.crew)):
            return f"{ruleset.card_name(card_of(cmd.crew))} is not {ruleset.a_or_an(req.replace('_', ' '))}"
    return None


def _place_problem(state: GameState, cmd: Commit, memo: dict[tuple[Hex, str], bool]) -> str | None:
    """The checks of :func:`check` on where the unit goes (aloft, or the hex), after
    :func:`_card_problem` passed. ``memo`` remembers :func:`ruleset.can_stand` answers by
    ``(hex, card id)`` within one position (issue 22: the listing asks for every hex)."""
    side = cmd.side
    cid = card_of(cmd.unit)
    name = ruleset.card_name(cid)
    if ruleset.is_aircraft(cid):
        if cmd.hex is not None:
            return f"{name} is an aircraft: it goes aloft, give no hex (R5.2)"
        for ev in state.events_in_play:
            if any(
                e.kind == EffectKind.NO_AIRCRAFT and e.side in (None, side)
                for e in ruleset.command_card(ev).effects
            ):
                return f"aircraft may not be committed while {ruleset.card_name(ev)} is in play"
        return None
    h = cmd.hex
    if h is None:
        return f"{name} needs a hex of your deploy zone"
    if not state.battlemap.in_bounds(h):
        return f"{state.hex_label(h)} is off the map"
    if h not in deploy_set(state.scenario.sides[side].deploy):
        return f"{h.label} is not in your deploy zone (R5.2)"
    if not _stands(state, h, cid, memo):
        return f"{name} may not stand in {h.label} ({state.battlemap.terrain_at(h).name})"
    if cmd.carry is not None and not _stands(state, h, card_of(cmd.carry), memo):
        return f"{ruleset.card_name(card_of(cmd.carry))} may not stand in {h.label}"
    if enemy_in(state, side, h):
        return f"{h.label} holds an enemy unit"
    need = 2 if cmd.carry is not None else 1
    if ground_count(state, side, h) + need > STACKING_LIMIT:
        return f"{h.label} already holds {ground_count(state, side, h)} ground units (stacking limit {STACKING_LIMIT}, R5.2)"
    return None


def _stands(state: GameState, h: Hex, cid: str, memo: dict[tuple[Hex, str], bool]) -> bool:
    """:func:`ruleset.can_stand` of ``cid`` in ``h``, remembered in ``memo`` by what it reads
    of the card: aircraft (never) or its mobility (foot for guns)."""
    u = ruleset.unit_card(cid)
    kind = "aircraft" if u.unit_type == "aircraft" else (u.mobility or "foot")
    hit = memo.get((h, kind))
    if hit is None:
        hit = memo[(h, kind)] = ruleset.can_stand(state.battlemap, h, cid)
    return hit


_DEPLOY_SETS: dict[int, tuple[tuple[Hex, ...], frozenset[Hex]]] = {}


def deploy_set(deploy: tuple[Hex, ...]) -> frozenset[Hex]:
    """The hexes of a deploy zone (R5.2) as a set, built once per zone: membership in the
    zone's tuple compares hex by hex, the set hashes once (issue 22)."""
    hit = _DEPLOY_SETS.get(id(deploy))
    if hit is None or hit[0] is not deploy:
        if len(_DEPLOY_SETS) > 256:
            _DEPLOY_SETS.clear()
        hit = _DEPLOY_SETS[id(deploy)] = (deploy, frozenset(deploy))
    return hit[1]


def new_unit(state: GameState, uid: str, side: str, h: Hex | None, aloft: bool) -> UnitState:
    """Put card instance ``uid`` from ``side``'s hand into play in ``h`` (or aloft, with its
    Turns of Flight, R7.1) and return it."""
    u = UnitState(uid, side, side, h, aloft=aloft, endurance=ruleset.full_endurance(uid), entered=state.turn)
    if aloft and not ruleset.is_crew(uid):
        u.flight_turns = ruleset.turns_of_flight(uid) + ruleset.effect_total(
            ruleset.active_effects(state, u), EffectKind.TURNS_OF_FLIGHT
        )
        u.flight_turns = max(1, u.flight_turns)
    state.units[uid] = u
    state.hand_units[side].remove(uid)
    return u


def apply(state: GameState, cmd: Commit, rec: Recorder) -> None:
    """Put the unit (crew, carried infantry) in play; a ground unit resets the enemy's Overrun
    count (R10.1) and may take an objective (R10.2)."""
    side = cmd.side
    aloft = cmd.hex is None
    u = new_unit(state, cmd.unit, side, cmd.hex, aloft)
    extra = ""
    if cmd.crew is not None:
        c = new_unit(state, cmd.crew, side, cmd.hex, aloft)
        c.crewing = u.uid
        u.crew = c.uid
        extra = f" with {ruleset.card_name(c.uid)} ({c.uid})"
    if cmd.carry is not None:
        new_unit(state, cmd.carry, side, cmd.hex, False)
        extra = f" carrying {ruleset.card_name(cmd.carry)} ({cmd.carry})"
    where = "aloft" if cmd.hex is None else f"into {cmd.hex.label}"
    rec.emit(
        "commit",
        f"{side} commits {ruleset.card_name(u.uid)} ({u.uid}){extra} {where}",
        unit=u.uid,
        hex=None if cmd.hex is None else cmd.hex.label,
        crew=cmd.crew,
        carry=cmd.carry,
    )
    if ruleset.is_ground(u.card) and cmd.hex is not None:
        enemy = other_side(side)
        if state.overrun[enemy]:
            rec.emit(
                "overrun_reset",
                f"{enemy}'s Overrun count resets: {side} committed a ground unit (R10.1)",
                side=enemy,
            )
        state.overrun[enemy] = 0
        ev = victory.enter_hex(state, side, cmd.hex)
        if ev is not None:
            rec.add(ev)


def hand_crews(state: GameState, side: str) -> tuple[dict[str, str], dict[str, list[str]], list[str]]:
    """``side``'s hand seen for commitment: first instance per card id, crew instances by
    unit type, infantry instances (by card id)."""
    firsts: dict[str, str] = {}
    for c in state.hand_units[side]:
        firsts.setdefault(card_of(c), c)
    crews: dict[str, list[str]] = {}
    infantry: list[str] = []
    for cid, inst in sorted(firsts.items()):
        if ruleset.is_crew(cid):
            crews.setdefault(ruleset.unit_type(cid), []).append(inst)
        elif ruleset.is_infantry(cid):
            infantry.append(inst)
    return firsts, crews, infantry


def card_groups(state: GameState, side: str) -> Iterator[tuple[str, str, str | None, str | None]]:
    """``(card id, instance, crew, rider)`` of every commitment whose cards pass (R5.2), in the
    order :func:`options` lists them: one instance per card id (sorted), every fitting crew
    or infantry rider; the hex checks are left to the caller."""
    firsts, crews, infantry = hand_crews(state, side)
    for cid, inst in sorted(firsts.items()):
        if ruleset.is_crew(cid):
            continue
        req = ruleset.crew_required(cid)
        opts: list[tuple[str | None, str | None]]
        if req is None:
            opts = [(None, None)]
        elif req == "infantry":
            opts = [(None, i) for i in infantry if i != inst]
        else:
            opts = [(c, None) for c in crews.get(req, [])]
        for crew, carry in opts:
            # the card checks once per unit and crew or rider, then the hex checks per hex:
            # together exactly check(), whose first refusal is a card's (issue 22)
            if _card_problem(state, Commit(side, inst, None, crew, carry)) is None:
                yield cid, inst, crew, carry


def options(state: GameState, side: str) -> Iterator[Commit]:
    """One instance per card id onto every open deploy hex, with every fitting crew or rider."""
    deploy = state.scenario.sides[side].deploy
    # the hexes _place_problem could pass: on the map, without an enemy, with room for one more
    # (each is in the zone); its per-hex checks below are then only the terrain and, with a
    # rider, room for two (issue 22: the same commands in the same order, without a full check
    # of every hex for every unit)
    # (issue 35: each hex's room is worked out when a group first reaches it, so the first
    # command, all the turn sequence's "can this side act" check pulls, costs a few hexes, not
    # the whole zone: on a 500x500 map the zone holds about 25,000 hexes)
    bm = state.battlemap
    room_of: dict[Hex, int] = {}

    def room(h: Hex) -> int:
        r = room_of.get(h)
        if r is None:
            r = room_of[h] = (
                STACKING_LIMIT - ground_count(state, side, h)
                if bm.in_bounds(h) and not enemy_in(state, side, h)
                else 0
            )
        return r

    # can_stand reads only the map: remembered per map version (issue 22)
    memo = state.cache.get("can_stand")
    if memo is None or memo[0] is not state.battlemap or memo[1] != state.battlemap.version:
        memo = state.cache["can_stand"] = (state.battlemap, state.battlemap.version, {})
    stands: dict[tuple[Hex, str], bool] = memo[2]
    for cid, inst, crew, carry in card_groups(state, side):
        if ruleset.is_aircraft(cid):
            cmd = Commit(side, inst, None, crew, carry)
            if _place_problem(state, cmd, stands) is None:
                yield cmd
            continue
        need = 2 if carry is not None else 1
        rider = card_of(carry) if carry is not None else None
        for h in deploy:
            if (
                room(h) >= 1
                and _stands(state, h, cid, stands)
                and (rider is None or _stands(state, h, rider, stands))
                and room(h) >= need
            ):
                yield Commit(side, inst, h, crew, carry)


_ZONE_ARRAYS: dict[int, tuple[tuple[Hex, ...], np.ndarray, np.ndarray]] = {}


def _zone_arrays(deploy: tuple[Hex, ...]) -> tuple[np.ndarray, np.ndarray]:
    """``int64`` columns and rows of a deploy zone's hexes, in its order (built once per zone)."""
    hit = _ZONE_ARRAYS.get(id(deploy))
    if hit is None or hit[0] is not deploy:
        if len(_ZONE_ARRAYS) > 64:
            _ZONE_ARRAYS.clear()
        off = np.array([h.offset for h in deploy], dtype=np.int64).reshape(-1, 2)
        hit = _ZONE_ARRAYS[id(deploy)] = (deploy, off[:, 0].copy(), off[:, 1].copy())
    return hit[1], hit[2]


def open_hexes(
    state: GameState, side: str, cid: str, carry: str | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The deploy hexes :func:`options` lists for a ground unit of card ``cid`` with rider
    ``carry`` (an instance id or ``None``), as arrays (R5.2; issue 35: a computer player rates
    a 25,000-hex zone without 25,000 commands).

    Returns:
        ``(positions, cols, rows)``: ``int64 [K]`` indices into the side's deploy tuple, in
        its order, of the hexes on the map, without an enemy, with stacking room for the unit
        (and its rider) and terrain both can stand in; and their columns and rows.
    """
    bm = state.battlemap
    deploy = state.scenario.sides[side].deploy
    cols, rows = _zone_arrays(deploy)
    inb = (cols >= 0) & (cols < bm.width) & (rows >= 0) & (rows < bm.height)
    c, r = np.where(inb, cols, 0), np.where(inb, rows, 0)
    occ, cnt = mv.occupancy(state)
    room = np.where(inb & ~occ[other_side(side)][r, c], STACKING_LIMIT - cnt[side][r, c].astype(np.int64), 0)
    ok = room >= (2 if carry is not None else 1)
    for card in (cid, card_of(carry) if carry is not None else None):
        if card is not None:
            ok &= _stand_array(state, card)[r, c]
    pos = np.flatnonzero(ok)
    return pos, cols[pos], rows[pos]


def _stand_array(state: GameState, cid: str) -> np.ndarray:
    """``bool [H, W]``: :func:`ruleset.can_stand` of card ``cid`` on every hex (the foot costs
    for guns, nowhere for aircraft), remembered per map version and mobility."""
    u = ruleset.unit_card(cid)
    kind = "aircraft" if u.unit_type == "aircraft" else (u.mobility or "foot")
    bm = state.battlemap
    key = ("stand_array", kind)
    hit = state.cache.get(key)
    if hit is None or hit[0] is not bm or hit[1] != bm.version:
        arr = (
            np.zeros((bm.height, bm.width), dtype=bool)
            if kind == "aircraft"
            else np.isfinite(enter_cost_array(bm, kind))
        )
        hit = state.cache[key] = (bm, bm.version, arr)
    return hit[2]  # type: ignore[no-any-return]


ACTION = Action(Commit, check, apply, options)
