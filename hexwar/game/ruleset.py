"""The game layer's thin adapter over the rules modules: cards, LOS, effects (R3, R4).

The game state holds card ids only; every question about what a card *is* goes through here to
:mod:`hexwar.rules.cards` (the frozen :class:`~hexwar.rules.cards.CardSet`), and LOS questions
go to :mod:`hexwar.model.los` with a per-map-version cache kept in the game's ``cache`` (never in the
state's hash). Nothing here adds a rule of its own; it maps the game's vocabulary
(instance ids, sides, hexes) onto the rules modules' functions.

>>> card_name("de_tiger_i"), is_vehicle("de_tiger_i"), crew_required("de_tiger_i"), line("su_su152")
('Tiger I', True, 'tank_crew', 'either')
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from ..errors import clip
from ..model.hexgrid import Hex
from ..model.los import BLOCKED, los_content_key, visibility_with_hindrances
from ..rules import cards as _cards
from ..rules.cards import CardError, Effect, EffectKind, UnitCard, Weapon, card_id_of
from ..rules.combat import is_immobilized as _combat_immobilized
from ..rules.combat import unit_effects as _unit_effects
from ..rules.terrain_effects import enter_cost

if TYPE_CHECKING:  # pragma: no cover
    from ..model.maps import BattleMap
    from .state import GameState, UnitState

__all__ = [
    "cards",
    "unit_card",
    "card_name",
    "cost",
    "full_endurance",
    "half_endurance",
    "unit_type",
    "target_type",
    "is_ground",
    "is_crew",
    "is_aircraft",
    "is_vehicle",
    "is_gun",
    "is_infantry",
    "needs_crew",
    "crew_required",
    "line",
    "mobility",
    "movement_points",
    "turns_of_flight",
    "weapons",
    "unit_card_problem",
    "crew_problem",
    "crew_fits",
    "can_stand",
    "is_event",
    "event_ids",
    "command_card",
    "active_effects",
    "effect_total",
    "has_effect",
    "is_immobilized",
    "los_arrays",
    "sees",
]


@cache
def cards() -> _cards.CardSet:
    """The game's card definitions (:func:`hexwar.rules.cards.default_cards`)."""
    return _cards.default_cards()


@lru_cache(maxsize=65536)
def unit_card(cid: str) -> UnitCard:
    """The :class:`~hexwar.rules.cards.UnitCard` of a card id or instance id (cached).

    Raises:
        CardError: for an unknown id.
    """
    return cards().unit(cid)


def card_name(cid: str) -> str:
    """Display name of any card id or instance id (unit, Command, Event, Damage); the id if unknown."""
    c = cards()
    k = card_id_of(cid)
    if k in c.units:
        return c.units[k].name
    if k in c.command:
        return c.command[k].title
    if k in c.events:
        return c.events[k].title
    return k


def cost(cid: str) -> int:
    """Cost = victory points of a unit card (R4.1, R10)."""
    return unit_card(cid).cost


def full_endurance(cid: str) -> int:
    """Full Endurance (R4.1)."""
    return unit_card(cid).endurance_full


def half_endurance(cid: str) -> int:
    """Half Endurance, the critical-damage breakpoint (R4.1, R6.6)."""
    return unit_card(cid).endurance_half


def unit_type(cid: str) -> str:
    """One of :data:`hexwar.rules.cards.UNIT_TYPES`."""
    return unit_card(cid).unit_type


def target_type(cid: str) -> str:
    """The attack column / Damage-card edge the unit is attacked as (crews: infantry)."""
    return unit_card(cid).target_type


def is_ground(cid: str) -> bool:
    """Ground units: everything but aircraft and pilots (R10.1 Overrun, R5.2 stacking)."""
    return unit_card(cid).is_ground


def is_crew(cid: str) -> bool:
    """Tank crew, artillery crew or pilot cards."""
    return unit_card(cid).is_crew


def is_aircraft(cid: str) -> bool:
    """Aircraft (R5.2: go aloft, R7.4)."""
    return unit_card(cid).unit_type == "aircraft"


def is_vehicle(cid: str) -> bool:
    """Vehicles (armored, R6.8)."""
    return unit_card(cid).unit_type == "vehicle"


def is_gun(cid: str) -> bool:
    """Guns (R5.3: move only when the scenario says so)."""
    return unit_card(cid).unit_type == "gun"


def is_infantry(cid: str) -> bool:
    """Infantry (R7.5, close assault)."""
    return unit_card(cid).unit_type == "infantry"


def needs_crew(cid: str) -> bool:
    """The unit cannot act without a crew card (tank crew, artillery crew, pilot)."""
    return unit_card(cid).needs_crew


def crew_required(cid: str) -> str | None:
    """The crew requirement: ``None``, ``"infantry"`` (halftrack) or a crew type."""
    c = unit_card(cid).crew
    return None if c == "none" else c


def line(cid: str) -> str:
    """``"frontline"``, ``"rear"``, ``"either"`` (SPG) or ``"aircraft"`` (R4.1, R7)."""
    ln = unit_card(cid).line
    return "either" if ln == "frontline_or_rear" else ln


def mobility(cid: str) -> str | None:
    """Mobility class (``foot``/``tracked``/``wheeled``) or ``None`` (guns, aircraft)."""
    return unit_card(cid).mobility


def movement_points(cid: str) -> int:
    """Movement points per Movement phase (R5.3; guns that may move get 1)."""
    u = unit_card(cid)
    return u.movement if u.movement else (1 if u.unit_type == "gun" else 0)


def turns_of_flight(cid: str) -> int:
    """Turns of Flight of an aircraft (R5.6); 0 for other units."""
    return unit_card(cid).turns_of_flight or 0


def weapons(cid: str) -> tuple[Weapon, ...]:
    """The unit's weapons in card order (R4.2)."""
    return unit_card(cid).weapons


# -- scenario checks ------------------------------------------------------------------------
def unit_card_problem(cid: str, side: str) -> str | None:
    """Why ``cid`` is not a unit card of ``side`` (for the scenario validator), or ``None``."""
    c = cards()
    u = c.units.get(cid)
    if u is None:
        near = sorted(k for k in c.units if k.startswith(_cards.SIDE_PREFIX.get(side, "")))[:8]
        return f"unknown unit card {clip(cid)}; {side} cards are e.g. {near}"
    if u.side != side:
        return f"{clip(cid)} is a {u.side} card, not {side}"
    return None


def crew_fits(unit_cid: str, crew_cid: str) -> bool:
    """True when ``crew_cid`` is the kind of crew ``unit_cid`` requires (R4.1, R5.2)."""
    req = crew_required(unit_cid)
    return req is not None and req != "infantry" and is_crew(crew_cid) and unit_type(crew_cid) == req


def a_or_an(noun: str) -> str:
    """``noun`` with its indefinite article, for messages.

    >>> a_or_an("artillery crew"), a_or_an("tank crew")
    ('an artillery crew', 'a tank crew')
    """
    return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"


_a = a_or_an


def crew_problem(unit_cid: str, crew_cid: str | None) -> str | None:
    """Why ``crew_cid`` is not the right crew for a starting unit, or ``None``."""
    req = crew_required(unit_cid)
    name = card_name(unit_cid)
    if req is None or req == "infantry":
        if crew_cid is not None:
            return f"{name} takes no crew card"
        return None
    if crew_cid is None:
        return f"{name} needs {_a(req.replace('_', ' '))} card as its crew (R5.2)"
    if not crew_fits(unit_cid, crew_cid):
        return f"{card_name(crew_cid)} is not {_a(req.replace('_', ' '))}"
    if unit_card(unit_cid).side != unit_card(crew_cid).side:
        return f"{card_name(crew_cid)} belongs to the other side"
    return None


def can_stand(battlemap: BattleMap, h: Hex, cid: str) -> bool:
    """True when a unit of card ``cid`` may be placed in ``h`` (its mobility can enter it).

    Guns use the foot costs; aircraft stand nowhere.
    """
    u = unit_card(cid)
    if u.unit_type == "aircraft":
        return False
    mob = u.mobility or "foot"
    return bool(np.isfinite(enter_cost(battlemap, h, mob)))


def is_event(cid: str) -> bool:
    """True for an Event card id or instance id."""
    return cards().is_event(cid)


def event_ids() -> list[str]:
    """Every Event card id."""
    return sorted(cards().events)


def command_card(cid: str) -> Any:
    """The Command or Event card definition of an id or instance id."""
    return cards().command_or_event(cid)


# -- effects in force on a unit (R4.3) -------------------------------------------------------
def active_effects(state: GameState, u: UnitState) -> list[Effect]:
    """Every typed effect in force on unit ``u`` now (R4.3), from the combat engine's reading.

    Its Damage card's edge while active (veterans ignore marked edges), the Command cards under
    it and the Events in play that select it (:func:`hexwar.rules.combat.unit_effects`).
    """
    return [e for _, e in _unit_effects(cards(), u, state.units, state.events_in_play)]


def effect_total(effects: Iterable[Effect], kind: EffectKind) -> int:
    """Sum of the values of ``kind`` effects."""
    return sum(e.value for e in effects if e.kind == kind)


def has_effect(effects: Iterable[Effect], kind: EffectKind) -> bool:
    """True when any effect is of ``kind``."""
    return any(e.kind == kind for e in effects)


def is_immobilized(state: GameState, u: UnitState) -> bool:
    """Immobilized by rubble (R8.3) or by an effect in force (R4.3)."""
    return _combat_immobilized(cards(), u, state.units, state.events_in_play)


def side_effects(state: GameState, side: str, kind: EffectKind) -> int:
    """Sum of ``kind`` effects of the Events in play that apply to ``side`` (e.g. initiative)."""
    total = 0
    for ev in state.events_in_play:
        for e in command_card(ev).effects:
            if e.kind == kind and (e.side is None or e.side == side):
                total += e.value
    return total


# -- LOS (R3) with a per-map-version cache ---------------------------------------------------
def los_arrays(state: GameState, viewer: Hex) -> tuple[np.ndarray, np.ndarray]:
    """``(status, hindrances)`` arrays ``[H, W]`` of everything ``viewer`` sees (R3).

    From :func:`hexwar.model.los.visibility_with_hindrances`; cached while the map's LOS
    content (:func:`hexwar.model.los.los_content_key`: shape, heights, blocking and hindering
    features) stays the same, so a change that cannot move any LOS (the artillery marker,
    R9.2) keeps the cached arrays (issue 22). The arrays are shared: do not write to them.
    """
    bm = state.battlemap
    cur = state.cache.get("los_content")
    if cur is None or cur[0] is not bm or cur[1] != bm.version:
        content = los_content_key(bm)
        if cur is None or cur[0] is not bm or cur[2] != content:
            for k in [k for k in state.cache if isinstance(k, tuple) and k and k[0] == "los"]:
                del state.cache[k]
        else:
            content = cur[2]  # the same bytes object: cheaper comparisons
        state.cache["los_content"] = (bm, bm.version, content)
    key = ("los", viewer)
    hit = state.cache.get(key)
    if hit is None:
        hit = visibility_with_hindrances(bm, viewer)
        state.cache[key] = hit
    return hit  # type: ignore[no-any-return]


def sees(state: GameState, a: Hex, b: Hex) -> tuple[bool, int]:
    """``(visible, hindrances)`` of the LOS from ``a`` to ``b`` (R3.1, R3.5)."""
    status, hind = los_arrays(state, a)
    idx = state.battlemap.index(b)
    return bool(status[idx] != BLOCKED), int(hind[idx])


__all__ += ["side_effects", "CardError", "a_or_an"]
