"""Sight under fog of war (R12.2): which units a side sees, last-known markers, who sees each event.

A side sees an enemy ground unit while at least one of its own ground units on the map (not a
crew riding a unit, not an aircraft aloft: docs/rules.md) has LOS, clear or hindered (R3), to
the unit's hex; adjacent units are always seen (R3.1); aircraft aloft are seen by both sides.
Sight is taken after every command (:func:`after_command`, called by
:meth:`GameState.apply <hexwar.game.state.GameState.apply>`). Without fog every unit is seen.
The view function that uses it is :func:`hexwar.game.view.view`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from ..model.los import BLOCKED
from . import ruleset
from .commands import SIDES

if TYPE_CHECKING:  # pragma: no cover
    from .events import GameEvent
    from .state import GameState

__all__ = [
    "FOG",
    "fog_on",
    "seen_mask",
    "seen_units",
    "after_command",
    "after_setup",
    "event_sides",
    "event_cuts",
    "owner_of",
    "mentioned",
]

FOG = "fog"  # the rule variant / scenario option (R12.2)
_UNIT_KEYS = ("unit", "target", "attacker", "crew")


def fog_on(state: GameState) -> bool:
    """Whether the fog-of-war option is in force in this game (R12.2)."""
    return FOG in state.variants


def seen_mask(state: GameState, side: str) -> np.ndarray:
    """``bool [height, width]``: hexes ``side`` sees (R12.2), from :mod:`hexwar.model.los` visibility maps.

    The union over the side's observing ground units (not crews, not aircraft) of the hexes
    in LOS, clear or hindered, of each one's hex (R3; a hex sees itself and its neighbours).
    Cached per command (epoch) and map version in ``state.cache``.
    """
    bm = state.battlemap
    key = ("seen_mask", side, state.cache.get("epoch", 0), bm.version, len(state.commands))
    hit = state.cache.get("seen_mask_" + side)
    if hit is not None and hit[0] == key:
        return hit[1]  # type: ignore[no-any-return]
    mask = np.zeros((bm.height, bm.width), dtype=bool)
    for h in {
        u.hex
        for u in state.units.values()
        if u.side == side
        and u.hex is not None
        and not u.aloft
        and u.crewing is None
        and ruleset.is_ground(u.card)
    }:
        status, _ = ruleset.los_arrays(state, h)
        mask |= status != BLOCKED
    state.cache["seen_mask_" + side] = (key, mask)
    return mask


def seen_units(state: GameState, side: str) -> frozenset[str]:
    """Instance ids of the units ``side`` may see now: its own, aircraft aloft, and enemy units
    on seen hexes (all of them without fog). Crews are seen with the unit they ride (R12.2)."""
    if not fog_on(state):
        return frozenset(state.units)
    mask = seen_mask(state, side)
    out = set()
    for uid, u in state.units.items():
        if u.side == side or u.aloft:
            out.add(uid)
        elif u.hex is not None:
            col, row = u.hex.offset
            if mask[row, col]:
                out.add(uid)
    return frozenset(out)


def mentioned(data: dict[str, Any]) -> set[str]:
    """Unit instance ids an event's data names (``unit``, ``target``, ``attacker``, ``crew``,
    ``attackers``, ``by``, and those of a declared ``attack``)."""
    out = {v for k in _UNIT_KEYS if isinstance(v := data.get(k), str)}
    for k in ("attackers", "by"):
        v = data.get(k)
        if isinstance(v, list):
            out.update(x for x in v if isinstance(x, str))
    a = data.get("attack")
    if isinstance(a, dict):
        out |= mentioned(a)
    return out


def _hex_seen(state: GameState, mask: np.ndarray, label: str) -> bool:
    """Whether the hex labelled ``label`` is in ``mask`` (False for a label not on the map)."""
    try:
        col, row = state.battlemap.hex_at(label).offset
    except Exception:  # an off-map or malformed label is never seen
        return False
    return bool(mask[row, col])


def _judge(
    state: GameState,
    ev: GameEvent,
    before: dict[str, frozenset[str]],
    after: dict[str, frozenset[str]],
    masks: dict[str, np.ndarray],
    last_hex: dict[str, dict[str, str]],
) -> tuple[tuple[str, ...], dict[str, dict[str, Any]]]:
    """Who may see ``ev`` under fog, and how much of it (R12.1, R12.2; docs/rules.md "Fog of war").

    Returns ``(sides, cuts)``: ``sides`` see the event; ``cuts[side]`` (when present) says what
    of it that side may not know: ``{"path": [labels]}`` for an enemy move seen in part (the
    hexes of its path the side sees, in order), ``{"hide": [uids]}`` for an event shown because
    it names the side's own unit while it also names an enemy unit the side never saw (the
    unseen firer of an indirect attack): those names are replaced by ``"hidden"``.

    An enemy move is seen on the hexes of its path the side sees (the observers stand still
    during the other side's move); ``last_hex[side][uid]`` gets the last such hex (the
    last-known marker's place, R12.2).
    """
    units = mentioned(ev.data)
    if not units:
        return SIDES, {}
    sides: list[str] = []
    cuts: dict[str, dict[str, Any]] = {}
    mover = ev.data.get("unit") if ev.kind == "move" else None
    for s in SIDES:
        seen = before[s] | after[s]
        own = {uid for uid in units if owner_of(state, uid) == s}
        if isinstance(mover, str) and mover not in own:
            u = state.units.get(mover)
            if u is not None and u.aloft:  # aircraft aloft are seen by both sides
                sides.append(s)
                continue
            labels = [str(ev.data.get("from"))] + [str(x) for x in ev.data.get("path", [])]
            vis = [lab for lab in labels if _hex_seen(state, masks[s], lab)]
            if not vis:
                continue
            sides.append(s)
            last_hex.setdefault(s, {})[mover] = vis[-1]
            if len(vis) < len(labels):
                cuts[s] = {"path": vis}
            continue
        hidden = sorted(uid for uid in units if uid not in own and uid not in seen)
        if not hidden:
            sides.append(s)
        elif own:
            sides.append(s)
            cuts[s] = {"hide": hidden}
    return tuple(sides), cuts


def owner_of(state: GameState, uid: str) -> str | None:
    """The side a unit belongs to (in play: its controller; gone: from the kills or its card)."""
    u = state.units.get(uid)
    if u is not None:
        return u.side
    for k in reversed(state.kills):  # gone: the side that lost it is the other one of the scorer
        if k.uid == uid:
            return "soviet" if k.scorer == "german" else "german"
    try:
        return ruleset.unit_card(uid.rsplit("#", 1)[0]).side
    except Exception:  # not a unit card
        return None


def _record(
    state: GameState,
    events: list[GameEvent],
    before: dict[str, frozenset[str]],
    after: dict[str, frozenset[str]],
) -> dict[str, dict[str, str]]:
    """Append ``log_sides`` (and ``log_cuts``) for ``events``, the last entries of the log;
    returns the last hex each side saw of each enemy unit that moved (:func:`_judge`)."""
    masks = {s: seen_mask(state, s) for s in SIDES}
    last_hex: dict[str, dict[str, str]] = {}
    sides_for: list[tuple[str, ...]] = [SIDES] * len(events)
    cuts_for: list[dict[str, dict[str, Any]]] = [{} for _ in events]
    nxt: tuple[str, ...] = SIDES
    nxt_cuts: dict[str, dict[str, Any]] = {}
    for i in range(len(events) - 1, -1, -1):  # a command's rolls precede the event they belong to
        ev = events[i]
        if ev.kind == "roll":
            sides_for[i] = nxt
            # the rolls of a move seen in part are not seen (they name hexes out of sight)
            cuts_for[i] = {s: ({"drop": True} if "path" in c else c) for s, c in nxt_cuts.items()}
        else:
            nxt, nxt_cuts = _judge(state, ev, before, after, masks, last_hex)
            sides_for[i], cuts_for[i] = nxt, nxt_cuts
    first = len(state.log) - len(events)
    pad = first - len(state.log_sides)
    if pad > 0:
        state.log_sides.extend([SIDES] * pad)
    del state.log_sides[first:]
    state.log_sides.extend(sides_for)
    for k in [k for k in state.log_cuts if k >= first]:
        del state.log_cuts[k]
    for i, c in enumerate(cuts_for):
        if c:
            state.log_cuts[first + i] = c
    return last_hex


def after_setup(state: GameState) -> None:
    """Sight at the start of the game (R12.2): who may see each setup event (the other side's
    starting units are seen only where a unit of the side sees their hex, R12.1). Called by
    :func:`hexwar.game.setup.new_game`; without fog it does nothing."""
    if not fog_on(state):
        return
    now = {s: seen_units(state, s) for s in SIDES}
    state.log_sides.clear()
    state.log_cuts.clear()
    _record(state, list(state.log), now, now)
    state.sight = now


def after_command(state: GameState, events: list[GameEvent]) -> None:
    """Bring sight, last-known markers and the per-event visibility up to date (R12.2).

    Called by :meth:`GameState.apply <hexwar.game.state.GameState.apply>` after every
    command. Without fog it does nothing. With fog: ``state.sight`` becomes each side's
    :func:`seen_units`; an enemy unit seen before and not now leaves a marker in
    ``state.last_seen[side][uid] = (hex label, turn, card id)`` on the last hex the side saw
    it on (the last seen hex of its move, else where it stood); a marker goes when the unit is
    seen again or leaves play; ``state.log_sides`` gets, for each new event, the sides that
    may see it, and ``state.log_cuts`` what of it a side may not know (:func:`_judge`; a roll
    goes with the event that follows it, the event it is part of).
    """
    if not fog_on(state):
        return
    before = state.sight or {s: seen_units(state, s) for s in SIDES}
    before_hex = {uid: u.hex for uid, u in state.units.items()}
    after = {s: seen_units(state, s) for s in SIDES}
    last_hex = _record(state, events, before, after)
    for s in SIDES:
        marks = state.last_seen.setdefault(s, {})
        for uid in before[s] - after[s]:
            u = state.units.get(uid)
            if u is None or u.side == s or u.crewing is not None:
                continue
            lab = last_hex.get(s, {}).get(uid)
            if lab is None:
                h = before_hex.get(uid) or u.hex
                lab = h.label if h is not None else None
            if lab is not None:
                marks[uid] = (lab, state.turn, u.card)
        for uid in list(marks):
            if uid in after[s] or uid not in state.units:
                del marks[uid]
    state.sight = after


def event_sides(state: GameState, i: int) -> tuple[str, ...]:
    """The sides that may see event ``state.log[i]`` under fog (both without fog, R12.2)."""
    if i < len(state.log_sides):
        return state.log_sides[i]
    return SIDES


def event_cuts(state: GameState, i: int) -> dict[str, dict[str, Any]]:
    """What of event ``state.log[i]`` each side may not know under fog (:func:`_judge`): side ->
    ``{"path": [...]}``, ``{"hide": [...]}`` or ``{"drop": True}``; empty when it sees it whole."""
    return state.log_cuts.get(i, {})
