"""Wrecks: destroyed vehicles leave wreck counters; their LOS and Defense effects; towing (R8.1).

Seed 003: "When a vehicle is destroyed, remove its counter from the map and replace it with a
randomly drawn wreck counter of the same nationality." hexwar keeps the counters as data
(``hexwar/data/wrecks.toml``, :class:`~hexwar.model.terrain.WreckCounter`): an id, a nationality, the
LOS symbol (LOS may start and end in the hex but not pass through it, height 1, R3.5) and a
Defense modifier, black (+1 for every ground unit) or red (+2 or -1 for soft units only). Wrecks
stack; they stay for the rest of the game unless towed.

* :func:`wreck_vehicle` draws the counter with the game's :class:`~hexwar.rules.dice.Dice`
  (logged) and returns a :class:`WreckPlaced` event; applying it stacks the counter in the hex.
* The LOS engine reads ``battlemap.wrecks`` and ``battlemap.rules.wrecks[id].los`` itself;
  :func:`wreck_blocks_los` / :func:`wreck_los_mask` say the same for other callers.
* Defense: :func:`~hexwar.rules.terrain_effects.wreck_defense_modifier` (re-exported here) is
  what :func:`~hexwar.rules.terrain_effects.terrain_defense_modifier` adds.
* Towing: a tracked vehicle in or next to the wreck's hex spends 2 movement points to hook it up
  (:func:`hook_up` -> :class:`WreckHookedUp`, the counter leaves the map and travels with the
  vehicle), then moves at half its remaining movement points (:func:`towing_movement_points`),
  and drops it at no cost in its own hex (:func:`drop_wreck` -> :class:`WreckDropped`).

>>> from hexwar.model.maps import BattleMap
>>> from hexwar.rules.dice import Dice
>>> m = BattleMap.new(5, 5)
>>> h = Hex.from_label("B02")
>>> ev = wreck_vehicle(m, h, "soviet", Dice(1), vehicle="T-34/76")
>>> ev.apply(m)
>>> m.wrecks_at(h) == [ev.wreck_id] and ev.wreck_id.startswith("su-")
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..errors import HexwarError
from ..model.hexgrid import Hex
from ..model.maps import MapError
from ..model.terrain import RulesTerrain, WreckCounter
from .terrain_effects import EffectEvent, EffectRules, default_effects, hex_text, wreck_defense_modifier

if TYPE_CHECKING:  # pragma: no cover - typing only
    from ..model.maps import BattleMap
    from .dice import Dice

__all__ = [
    "TOWING_MOBILITY",
    "TowingError",
    "WreckDropped",
    "WreckHookedUp",
    "WreckPlaced",
    "draw_wreck",
    "drop_wreck",
    "hook_up",
    "hook_up_problem",
    "towing_movement_points",
    "wreck_blocks_los",
    "wreck_defense_modifier",
    "wreck_los_mask",
    "wreck_pool",
    "wreck_vehicle",
]

TOWING_MOBILITY = "tracked"  # R8.1: only tracked vehicles tow


class TowingError(HexwarError):
    """A hook-up that the rules do not allow (R8.1); the message says why."""


def wreck_pool(rules: RulesTerrain, nationality: str) -> list[WreckCounter]:
    """The wreck counters of ``nationality`` in data order (R8.1).

    Raises:
        HexwarError: when the pool is empty (unknown nationality or no counters in the data).
    """
    pool = rules.wreck_pool(nationality)
    if not pool:
        nats = sorted({w.nationality for w in rules.wrecks.values()})
        raise HexwarError(f"no wreck counters for nationality {nationality!r}; the wreck data has {nats}")
    return pool


def draw_wreck(rules: RulesTerrain, nationality: str, dice: Dice, vehicle: str = "vehicle") -> WreckCounter:
    """Draw one wreck counter of ``nationality`` uniformly at random, logged in ``dice`` (R8.1, R1.2).

    Counters are drawn with replacement: the pools are counter types, a stack may repeat one.

    Raises:
        HexwarError: when the nationality has no counters.
    """
    pool = wreck_pool(rules, nationality)
    return dice.choice(f"wreck counter for {vehicle} ({nationality})", pool)


@dataclass(frozen=True)
class WreckPlaced(EffectEvent):
    """A destroyed vehicle left a wreck counter on top of the stack in its hex (R8.1).

    Attributes:
        hex: where the vehicle was destroyed.
        wreck_id: the counter drawn.
        vehicle: the destroyed vehicle's name (log text).
        nationality: the pool it was drawn from.
        los: the counter carries the LOS symbol.
        modifier: its Defense modifier (0: none).
        applies: ``"all"`` (black) or ``"soft"`` (red).
    """

    hex: Hex
    wreck_id: str
    vehicle: str
    nationality: str
    los: bool
    modifier: int
    applies: str

    def apply(self, battlemap: BattleMap) -> None:
        """Stack the counter in the hex (``BattleMap.add_wreck``)."""
        battlemap.add_wreck(self.hex, self.wreck_id)

    def __str__(self) -> str:
        bits = []
        if self.los:
            bits.append("blocks LOS")
        if self.modifier:
            bits.append(
                f"{'black' if self.applies == 'all' else 'red'} {self.modifier:+d} Defense"
                f" ({'all ground units' if self.applies == 'all' else 'soft units'})"
            )
        what = ", ".join(bits) or "no effect"
        return f"{self.vehicle} burns out in {hex_text(self.hex)}: wreck {self.wreck_id} ({what})"


def wreck_vehicle(
    battlemap: BattleMap, h: Hex, nationality: str, dice: Dice, vehicle: str = "vehicle"
) -> WreckPlaced:
    """The wreck a vehicle destroyed in ``h`` leaves (R6.6, R8.1): one counter drawn from its pool.

    Does not change the map; apply the returned event.

    Args:
        battlemap: the map (for its wreck data and to check ``h``).
        h: the destroyed vehicle's hex.
        nationality: ``"german"`` or ``"soviet"``: the vehicle's, which picks the pool.
        dice: the game's dice (the draw is logged).
        vehicle: the vehicle's name for the log.

    Raises:
        MapError: when ``h`` is off the map.
        HexwarError: when the nationality has no counters.
    """
    battlemap.index(h)
    w = draw_wreck(battlemap.rules, nationality, dice, vehicle)
    return WreckPlaced(h, w.id, vehicle, nationality, w.los, w.modifier, w.applies)


def wreck_blocks_los(battlemap: BattleMap, h: Hex) -> bool:
    """True when a counter with the LOS symbol lies in ``h`` (R3.5, R8.1). Raises ``MapError`` off the map."""
    battlemap.index(h)
    return any(battlemap.rules.wrecks[w].los for w in battlemap.wrecks.get(h, ()))


def wreck_los_mask(battlemap: BattleMap) -> np.ndarray:
    """``bool [height, width]``: hexes holding a wreck with the LOS symbol (R3.5, R8.1)."""
    out = np.zeros((battlemap.height, battlemap.width), dtype=bool)
    for h, stack in battlemap.wrecks.items():
        if battlemap.in_bounds(h) and any(battlemap.rules.wrecks[w].los for w in stack):
            out[battlemap.index(h)] = True
    return out


# -- towing (R8.1) ---------------------------------------------------------------------------
def towing_movement_points(mp_left: float, effects: EffectRules | None = None) -> float:
    """Movement points a vehicle has while towing, after paying the hook-up (R8.1).

    Half of what is left after the hook-up cost (2), not rounded: with whole-number terrain
    costs this reaches exactly the hexes that doubling every cost of the rest would
    (``hexwar.game.movement.TOW_FACTOR``).

    Args:
        mp_left: the vehicle's movement points before hooking up.

    Raises:
        TowingError: when ``mp_left`` is below the hook-up cost.

    >>> towing_movement_points(6), towing_movement_points(5), towing_movement_points(2)
    (2.0, 1.5, 0.0)
    """
    eff = effects or default_effects()
    if mp_left < eff.hook_up_cost:
        raise TowingError(
            f"hooking up a wreck costs {eff.hook_up_cost} movement points, only {mp_left:g} left"
        )
    rest = mp_left - eff.hook_up_cost
    return float(rest) / 2.0


@dataclass(frozen=True)
class WreckHookedUp(EffectEvent):
    """A tracked vehicle hooked up a wreck (R8.1); the counter leaves the map and moves with it.

    Attributes:
        vehicle: the towing vehicle's id.
        vehicle_hex: where the vehicle stands.
        wreck_hex: where the wreck lay (the same hex or adjacent).
        wreck_id: the counter.
        mp_before: the vehicle's movement points before hooking up.
        mp_after: its movement points while towing (half the rest).
    """

    vehicle: str
    vehicle_hex: Hex
    wreck_hex: Hex
    wreck_id: str
    mp_before: float
    mp_after: float

    def apply(self, battlemap: BattleMap) -> None:
        """Take the counter off the map (``BattleMap.remove_wreck``)."""
        battlemap.remove_wreck(self.wreck_hex, self.wreck_id)

    def __str__(self) -> str:
        return (
            f"{self.vehicle} in {hex_text(self.vehicle_hex)} hooks up wreck {self.wreck_id} from "
            f"{hex_text(self.wreck_hex)}: movement {self.mp_before:g} -> {self.mp_after:g}"
        )


def hook_up_problem(
    battlemap: BattleMap,
    vehicle_hex: Hex,
    wreck_hex: Hex,
    mobility: str,
    mp_left: float,
    wreck_id: str | None = None,
    effects: EffectRules | None = None,
) -> str | None:
    """Why a vehicle may not hook up a wreck (R8.1), or ``None`` when it may.

    Checks: both hexes on the map; the vehicle is tracked; the wreck hex is the vehicle's or
    adjacent; a wreck (the named one, if given) lies there; 2 movement points are left.
    (Whether the vehicle already tows something is the game's to check.)
    """
    eff = effects or default_effects()
    for hx in (vehicle_hex, wreck_hex):
        if not battlemap.in_bounds(hx):
            return f"hex {hex_text(hx)} is off the map"
    if mobility != TOWING_MOBILITY:
        return f"only tracked vehicles tow wrecks, this one is {mobility}"
    if vehicle_hex.distance(wreck_hex) > 1:
        return (
            f"wreck hex {hex_text(wreck_hex)} is not the vehicle's hex {hex_text(vehicle_hex)} nor next to it"
        )
    stack = battlemap.wrecks.get(wreck_hex, [])
    if not stack:
        return f"no wreck in {hex_text(wreck_hex)}"
    if wreck_id is not None and wreck_id not in stack:
        return f"no wreck {wreck_id!r} in {hex_text(wreck_hex)} (there: {', '.join(stack)})"
    if mp_left < eff.hook_up_cost:
        return f"hooking up costs {eff.hook_up_cost} movement points, only {mp_left:g} left"
    return None


def hook_up(
    battlemap: BattleMap,
    vehicle: str,
    vehicle_hex: Hex,
    wreck_hex: Hex,
    mobility: str,
    mp_left: float,
    wreck_id: str | None = None,
    effects: EffectRules | None = None,
) -> WreckHookedUp:
    """Hook up a wreck for towing (R8.1): spend 2 movement points, then move at half the rest.

    Args:
        battlemap: the map.
        vehicle: the vehicle's id (log text).
        vehicle_hex: the vehicle's hex.
        wreck_hex: the wreck's hex: the vehicle's own or adjacent.
        mobility: the vehicle's mobility class; must be ``"tracked"``.
        mp_left: the vehicle's movement points left this phase.
        wreck_id: which counter of the stack; default the top one.

    Returns:
        the event (does not change the map; apply it).

    Raises:
        TowingError: saying why when the rules do not allow it.
    """
    problem = hook_up_problem(battlemap, vehicle_hex, wreck_hex, mobility, mp_left, wreck_id, effects)
    if problem:
        raise TowingError(f"{vehicle} cannot hook up a wreck: {problem}")
    wid = wreck_id if wreck_id is not None else battlemap.wrecks[wreck_hex][-1]
    return WreckHookedUp(
        vehicle, vehicle_hex, wreck_hex, wid, float(mp_left), towing_movement_points(mp_left, effects)
    )


@dataclass(frozen=True)
class WreckDropped(EffectEvent):
    """A towing vehicle dropped its wreck in its own hex, at no cost (R8.1).

    Attributes:
        vehicle: the vehicle's id.
        hex: where the wreck is dropped (the vehicle's hex).
        wreck_id: the counter, stacked on top.
    """

    vehicle: str
    hex: Hex
    wreck_id: str

    def apply(self, battlemap: BattleMap) -> None:
        """Stack the counter in the hex (``BattleMap.add_wreck``)."""
        battlemap.add_wreck(self.hex, self.wreck_id)

    def __str__(self) -> str:
        return f"{self.vehicle} drops wreck {self.wreck_id} in {hex_text(self.hex)}"


def drop_wreck(battlemap: BattleMap, vehicle: str, h: Hex, wreck_id: str) -> WreckDropped:
    """Drop a towed wreck in the vehicle's hex ``h`` at no cost (R8.1).

    Also what the game does when a towing vehicle is destroyed: the wreck it towed drops in its
    hex (docs/rules.md).

    Raises:
        MapError: when ``h`` is off the map or ``wreck_id`` is not a known counter.
    """
    battlemap.index(h)
    if wreck_id not in battlemap.rules.wrecks:
        raise MapError(f"unknown wreck {wreck_id!r}; expected one of {sorted(battlemap.rules.wrecks)}")
    return WreckDropped(vehicle, h, wreck_id)
