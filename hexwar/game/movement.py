"""Movement: reachable hexes and shortest paths over terrain costs (R5.3, R8.1, R8.3, R8.4).

This module works on arrays, never on unit objects (DESIGN: "pathfinding takes arrays or cost
functions"). The game engine builds, for one moving unit:

* ``cost``: ``float [height, width]`` movement points to *enter* each hex for the unit's
  mobility class, terrain and overlays included (rubble, fire: from
  :mod:`hexwar.rules.terrain_effects` through :mod:`hexwar.game.ruleset`); ``inf`` = may not
  enter;
* ``passable``: ``bool [height, width]``: hexes the unit may enter at all now: not holding an
  enemy unit, not already holding 3 friendly ground units (stacking at every step, R5.2/R5.3),
  and for rear-line units not adjacent to an enemy unit (R5.3).

:func:`reachable` runs Dijkstra (``scipy.sparse.csgraph``) from the unit's hex limited to its
remaining movement points and returns a :class:`Reach` with the cost of every reachable hex and
the cheapest path to it. Ties between equally cheap paths are broken the same way on every run
(scipy's Dijkstra is deterministic for the same graph), so replays stay identical.

>>> import numpy as np
>>> from hexwar.model.hexgrid import Hex
>>> cost = np.ones((3, 3)); cost[1, 1] = 3.0          # B02 costs 3 to enter
>>> r = reachable(cost, np.ones((3, 3), bool), Hex.from_label("A02"), 2)
>>> sorted(h.label for h in r.hexes())
['A01', 'A02', 'A03', 'B01', 'B03', 'C01', 'C02']
>>> r.cost[Hex.from_label("C02")], r.path(Hex.from_label("C02"))[0].label
(2.0, 'B01')
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np

from ..errors import clip
from ..model.hexgrid import DIRECTIONS, Hex, HexLabelError
from ..rules.cards import EffectKind
from ..rules.terrain_effects import enter_cost_array, rubble_entry_check
from ..rules.wrecks import drop_wreck, hook_up, hook_up_problem
from . import ruleset, special, victory
from .event_kinds import MoveEvent
from .sight import seen_mask
from .state import SHARED_MEMOS, SIDES, STACKING_LIMIT, other_side

__all__ = [
    "Reach",
    "neighbor_table",
    "edge_weights",
    "reachable",
    "path_cost",
    "adjacent_mask",
    "TOW_FACTOR",
    "unit_mobility",
    "movement_allowance",
    "cost_arrays",
    "unit_cost_arrays",
    "occupancy",
    "passable_for",
    "unit_reach",
    "reach_window",
    "move_problem",
    "do_move",
    "tow_problem",
    "do_tow",
    "do_drop_tow",
]

TOW_FACTOR = 2.0  # R8.1: a towing vehicle moves at half its remaining MP = every hex costs double


@lru_cache(maxsize=16)
def _indptr(height: int, width: int) -> np.ndarray:
    """CSR row pointers of :func:`neighbor_table`'s edges (sorted by source cell)."""
    src, _ = neighbor_table(height, width)
    out = np.searchsorted(src, np.arange(height * width + 1)).astype(np.int64)
    out.setflags(write=False)
    return out


_CELL_HEXES_MAX = 40_000  # cells up to which a map shape keeps the Hex of every cell (issue 35)


@lru_cache(maxsize=16)
def _cell_hexes(height: int, width: int) -> tuple[Hex, ...]:
    """The Hex of every flat cell index ``row * width + col`` (shapes up to
    :data:`_CELL_HEXES_MAX` cells)."""
    return tuple(Hex.from_offset(i % width, i // width) for i in range(height * width))


def _cell_hex(i: int, height: int, width: int) -> Hex:
    """The Hex of flat cell index ``i``: from :func:`_cell_hexes` on small shapes, made on
    demand on large ones (250,000 Hex objects of a 500x500 map took 0.6 s to make, issue 35)."""
    if height * width <= _CELL_HEXES_MAX:
        return _cell_hexes(height, width)[i]
    return Hex.from_offset(i % width, i // width)


@lru_cache(maxsize=16)
def neighbor_table(height: int, width: int) -> tuple[np.ndarray, np.ndarray]:
    """Directed neighbour edges of a ``height`` x ``width`` odd-q map (R2.1-R2.3).

    Returns:
        ``(src, dst)``: two ``int64`` arrays of flat cell indices (``row * width + col``),
        one entry per ordered pair of adjacent on-map hexes, in cell order then direction
        order 1..6.
    """
    # vectorized (issue 35: the Python loop took 3 s on a 500x500 map), same order
    n = height * width
    flat = np.arange(n, dtype=np.int64)
    row, col = np.divmod(flat, width)
    r_ax = row - (col - (col & 1)) // 2
    dirs = np.array(list(DIRECTIONS.values()), dtype=np.int64)  # [6, 2] in direction order 1..6
    c2 = col[:, None] + dirs[None, :, 0]
    r2 = r_ax[:, None] + dirs[None, :, 1] + (c2 - (c2 & 1)) // 2
    ok = (c2 >= 0) & (c2 < width) & (r2 >= 0) & (r2 < height)
    src = np.broadcast_to(flat[:, None], ok.shape)[ok]
    dst = (r2 * width + c2)[ok]
    s = np.ascontiguousarray(src, dtype=np.int64)
    d = np.ascontiguousarray(dst, dtype=np.int64)
    s.setflags(write=False)
    d.setflags(write=False)
    return s, d


def adjacent_mask(occupied: np.ndarray) -> np.ndarray:
    """``bool [height, width]``: hexes adjacent to (not in) any ``True`` hex of ``occupied``.

    Used for R5.3: rear-line units may not enter a hex adjacent to an enemy unit.
    """
    # by shifted slices (issue 35): the same answer as marking the neighbours of
    # :func:`neighbor_table`, without gathering six edges a cell (odd-q: a hex in an even
    # column meets the rows ``row - 1`` and ``row`` of the columns beside it, an odd one
    # ``row`` and ``row + 1``)
    occ = np.asarray(occupied, dtype=bool)
    h, w = occ.shape
    out = np.zeros((h, w), dtype=bool)
    out[1:, :] |= occ[:-1, :]
    out[:-1, :] |= occ[1:, :]
    up = np.zeros_like(occ)  # up[row] = occ[row - 1]
    up[1:, :] = occ[:-1, :]
    down = np.zeros_like(occ)  # down[row] = occ[row + 1]
    down[:-1, :] = occ[1:, :]
    even = (np.arange(w) & 1) == 0
    for d in (-1, 1):
        xs = slice(max(0, -d), w - max(0, d))  # columns whose neighbour column c + d is on the map
        ns = slice(max(0, d), w - max(0, -d))
        out[:, xs] |= occ[:, ns] | np.where(even[xs][None, :], up[:, ns], down[:, ns])
    return out


@dataclass(frozen=True)
class Reach:
    """The hexes one unit can reach this phase (R5.3).

    Attributes:
        start: the unit's hex.
        cost: movement points spent to reach each reachable hex (the start costs 0).
        width: map width in hexes (to decode flat indices).
        predecessors: ``int32 [height * width]`` previous cell on the cheapest path, -9999
            where none.
    """

    start: Hex
    cost: dict[Hex, float]
    width: int
    predecessors: np.ndarray
    _pred: list[int] = field(default_factory=list, repr=False, compare=False)

    def hexes(self) -> list[Hex]:
        """Reachable hexes, the start included, in cell order."""
        return list(self.cost)

    def destinations(self) -> list[Hex]:
        """Reachable hexes other than the start, in cell order."""
        return [h for h in self.cost if h != self.start]

    def path(self, dest: Hex) -> tuple[Hex, ...]:
        """The cheapest path to ``dest``: the hexes entered, in order (empty for the start).

        Raises:
            KeyError: naming the hex when it is not reachable.
        """
        if dest not in self.cost:
            raise KeyError(f"{dest.label if dest.offset[1] >= 0 else dest} is not reachable")
        pred: Any = self.predecessors
        if pred.size <= _CELL_HEXES_MAX:  # a big map walks the array (issue 35: no 250k list a unit)
            if not self._pred:
                self._pred.extend(pred.tolist())
            pred = self._pred
        height = self.predecessors.size // self.width
        out: list[Hex] = []
        col, row = dest.offset
        i = row * self.width + col
        col0, row0 = self.start.offset
        start_i = row0 * self.width + col0
        while i != start_i:
            out.append(_cell_hex(i, height, self.width))
            i = int(pred[i])
            if i < 0:  # pragma: no cover - dijkstra always links reachable cells back
                raise KeyError(f"no path recorded to {dest}")
        out.reverse()
        return tuple(out)


def edge_weights(
    cost: np.ndarray, road_cost: np.ndarray | None = None, road: np.ndarray | None = None, factor: float = 1.0
) -> np.ndarray:
    """Movement points of every directed neighbour edge of :func:`neighbor_table` (R5.3).

    Args:
        cost: ``float [height, width]`` movement points to enter each hex off-road.
        road_cost: ``float [height, width]`` cost to enter a hex along a road (from
            :func:`hexwar.rules.terrain_effects.enter_cost_array` with ``along_road=True``).
        road: ``bool [height, width]`` road flags; a step from one road hex into another uses
            ``road_cost`` (docs/rules.md, R2.4).
        factor: multiplier of every cost (:data:`TOW_FACTOR` while towing a wreck, R8.1).

    Returns:
        ``float64`` array aligned with the ``(src, dst)`` edge arrays.
    """
    height, width = cost.shape
    src, dst = neighbor_table(height, width)
    w = cost.ravel()[dst].astype(np.float64)
    if road_cost is not None and road is not None:
        rflat = road.ravel()
        along = rflat[src] & rflat[dst]
        w = np.where(along, road_cost.ravel()[dst], w)
    return w * factor if factor != 1.0 else w


def reachable(
    cost: np.ndarray,
    passable: np.ndarray,
    start: Hex,
    mp: float,
    road_cost: np.ndarray | None = None,
    road: np.ndarray | None = None,
    factor: float = 1.0,
) -> Reach:
    """Every hex ``start`` can reach spending at most ``mp`` movement points (R5.3).

    Args:
        cost: ``float [height, width]`` movement points to enter each hex (``inf``: never).
        passable: ``bool [height, width]`` hexes that may be entered now (no enemy, stacking
            room, rear-line restriction); the start hex need not be passable.
        start: the moving unit's hex (must be on the map).
        mp: movement points left (>= 0).
        road_cost: optional road costs, see :func:`edge_weights`.
        road: optional road flags, see :func:`edge_weights`.
        factor: cost multiplier (towing, R8.1).

    Returns:
        a :class:`Reach`; the start is always in it at cost 0.

    Raises:
        ValueError: when ``start`` is off the map or the arrays' shapes differ.
    """
    if cost.shape != passable.shape:
        raise ValueError(f"cost {cost.shape} and passable {passable.shape} shapes differ")
    height, width = cost.shape
    col, row = start.offset
    if not (0 <= col < width and 0 <= row < height):
        raise ValueError(f"start hex {start} is off the {width}x{height} map")
    win = reach_window(cost, start, mp, road_cost if road is not None else None, factor)
    if win is None:
        idx, dist, pred = _dijkstra(cost, passable, col, row, mp, road_cost, road, factor)
    else:
        # issue 35: only the window the movement points can cover (the same search: every
        # cell outside it costs more than ``mp`` to reach, so none is ever put in the heap)
        r0, r1, c0, c1 = win
        sub = (slice(r0, r1), slice(c0, c1))
        ws = c1 - c0
        idx_w, dist, pred_w = _dijkstra(
            cost[sub],
            passable[sub],
            col - c0,
            row - r0,
            mp,
            None if road_cost is None else road_cost[sub],
            None if road is None else road[sub],
            factor,
        )
        idx = (idx_w // ws + r0) * width + idx_w % ws + c0
        cells_w = np.arange(pred_w.size)
        glob = (cells_w // ws + r0) * width + cells_w % ws + c0
        pred = np.full(height * width, -9999, dtype=pred_w.dtype)
        pred[glob] = np.where(pred_w >= 0, (pred_w // ws + r0) * width + pred_w % ws + c0, pred_w)
    reach = {_cell_hex(i, height, width): d for i, d in zip(idx.tolist(), dist.tolist(), strict=True)}
    return Reach(start, reach, width, pred)


def reach_window(
    cost: np.ndarray,
    start: Hex,
    mp: float,
    road_cost: np.ndarray | None = None,
    factor: float = 1.0,
) -> tuple[int, int, int, int] | None:
    """The rows ``r0:r1`` and columns ``c0:c1`` holding every hex ``start`` can reach with
    ``mp`` movement points (R5.3), or ``None`` when that is most of the map (issue 35).

    Every step costs at least the cheapest finite entry ``w`` of ``cost`` (and ``road_cost``)
    times ``factor``, so no hex more than ``mp / w + 1`` hexes away is reached; the window
    holds every hex within that distance plus one, and starts at an even column so the
    odd-q layout of the window is the map's.

    Args:
        cost: ``float [height, width]`` movement points to enter each hex.
        start: the unit's hex (on the map).
        mp: movement points left.
        road_cost: optional ``float [height, width]`` costs along a road.
        factor: cost multiplier (towing, R8.1).
    """
    height, width = cost.shape
    if height * width <= 4096 or not math.isfinite(mp):
        return None
    # the smallest entry (``inf`` never wins a minimum over a finite one; no entry is nan)
    lo = min(float(a.min()) for a in (cost, road_cost) if a is not None) * factor
    if not lo > 0:
        return None
    steps = int(mp / lo) + 2 if math.isfinite(lo) else 1
    col, row = start.offset
    c0 = max(0, col - steps - 1)
    c0 -= c0 & 1
    c1 = min(width, col + steps + 2)
    r0 = max(0, row - steps - 1)
    r1 = min(height, row + steps + 2)
    if (c1 - c0) * (r1 - r0) * 2 > height * width:
        return None
    return r0, r1, c0, c1


def _dijkstra(
    cost: np.ndarray,
    passable: np.ndarray,
    col: int,
    row: int,
    mp: float,
    road_cost: np.ndarray | None,
    road: np.ndarray | None,
    factor: float,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`reachable`'s search on the given arrays: the reached flat cells (cell order),
    their costs and the predecessor of every cell."""
    # scipy on first use (issue 35: its import is about a third of a CLI game's start-up,
    # and loading a scenario never searches a reach)
    from scipy.sparse import csr_matrix
    from scipy.sparse.csgraph import dijkstra

    height, width = cost.shape
    src, dst = neighbor_table(height, width)
    w = edge_weights(cost, road_cost, road, factor)
    # blocked edges keep their slot with an infinite weight: the CSR structure is shared
    w = np.where(passable.ravel()[dst] & (w <= mp), w, np.inf)
    n = height * width
    graph = csr_matrix((w, dst, _indptr(height, width)), shape=(n, n))
    s = row * width + col
    dist, pred = dijkstra(graph, directed=True, indices=s, return_predecessors=True, limit=float(mp) + 1e-9)
    idx = np.flatnonzero(np.isfinite(dist))
    return idx, dist[idx], pred


def _off_map_name(h: Hex) -> str:
    """A hex off the map as a player reads it: its label, or axial coordinates when it has none."""
    try:
        return h.label
    except HexLabelError:
        return f"axial ({h.q}, {h.r})"


def path_cost(
    cost: np.ndarray,
    passable: np.ndarray,
    start: Hex,
    path: tuple[Hex, ...],
    road_cost: np.ndarray | None = None,
    road: np.ndarray | None = None,
    factor: float = 1.0,
) -> tuple[float, str | None]:
    """Movement points of an explicit ``path`` from ``start`` and the first problem, if any.

    Args:
        cost: as in :func:`reachable`.
        passable: as in :func:`reachable`.
        start: the unit's hex.
        path: hexes entered in order.
        road_cost: optional road costs, see :func:`edge_weights`.
        road: optional road flags, see :func:`edge_weights`.
        factor: cost multiplier (towing, R8.1).

    Returns:
        ``(mp, problem)``: total cost in movement points, and ``None`` or a sentence naming the
        first hex that is off the map, not adjacent, impassable or blocked.
    """
    height, width = cost.shape
    total = 0.0
    prev = start
    for h in path:
        col, row = h.offset
        if not (0 <= col < width and 0 <= row < height):
            return math.inf, f"{_off_map_name(h)} is off the map"
        if h == prev:
            return (
                math.inf,
                f"the path steps from {h.label} into {h.label} itself: list only the hexes entered",
            )
        if prev.distance(h) != 1:
            return math.inf, f"{h.label} is not adjacent to {prev.label}"
        c = float(cost[row, col])
        if road_cost is not None and road is not None:
            pc, pr = prev.offset
            if road[row, col] and road[pr, pc]:
                c = float(road_cost[row, col])
        c *= factor
        if not math.isfinite(c):
            return math.inf, f"{h.label} may not be entered by this unit (terrain)"
        if not passable[row, col]:
            return math.inf, f"{h.label} is blocked"
        total += c
        prev = h
    return total, None


# -- the game's movement rules on a GameState (R5.3, R8.1, R8.3) ---------------------------
# These build the arrays above from a game and carry out Move / Tow / DropTow commands.
# They import the game layer lazily so the array functions stay usable on their own.


def unit_mobility(state: Any, uid: str) -> str | None:
    """The mobility class a unit moves with, or ``None`` when it cannot move at all (R5.3).

    Guns move only when the scenario says so (``guns_move``), then as ``foot``; aircraft,
    crews riding a unit and units off the map never move.
    """

    u = state.units[uid]
    if u.aloft or u.hex is None or u.crewing is not None:
        return None
    card = u.card
    if not ruleset.is_ground(card):
        return None
    mob = ruleset.mobility(card)
    if ruleset.is_gun(card):
        return (mob or "foot") if state.scenario.guns_move else None
    return mob


def movement_allowance(state: Any, uid: str) -> float:
    """Movement points the unit gets at the start of a Movement phase (R5.3).

    The card's movement points; half of them while towing a wreck (R8.1); 0 when it cannot
    move (no mobility, crewless, immobilized by a damage effect or by rubble).
    """

    u = state.units[uid]
    if unit_mobility(state, uid) is None or ruleset.needs_crew(u.card) and u.crew is None:
        return 0.0
    if u.immobilized or ruleset.is_immobilized(state, u):
        return 0.0

    mp = float(ruleset.movement_points(u.card))
    ground = getattr(state.scenario, "ground", "dry")
    if ground != "dry":  # R10.7: snow and mud
        mp = max(1.0, mp + special.ground_mp_change(ground, unit_mobility(state, uid) or ""))
    mp = max(
        0.0, mp + ruleset.effect_total(ruleset.active_effects(state, u), EffectKind.MOVEMENT)
    )  # R4.3 effects
    return mp / 2.0 if u.towing else mp


def unit_cost_arrays(state: Any, uid: str) -> tuple[np.ndarray, np.ndarray]:
    """:func:`cost_arrays` for one unit, with its ``move_cost`` effects added to every hex it
    may enter (Events such as a thaw, R4.3)."""

    u = state.units[uid]
    mob = unit_mobility(state, uid)
    assert mob is not None
    cost, road_cost = cost_arrays(state, mob)
    extra = sum(
        e.value
        for e in ruleset.active_effects(state, u)
        if e.kind == EffectKind.MOVE_COST and e.mobility in (None, mob)
    )
    if extra:
        cost = np.where(np.isfinite(cost), np.maximum(cost + extra, 1.0), cost)
        road_cost = np.where(np.isfinite(road_cost), np.maximum(road_cost + extra, 1.0), road_cost)
    return cost, road_cost


def cost_arrays(state: Any, mobility: str) -> tuple[np.ndarray, np.ndarray]:
    """``(cost, road_cost)`` float arrays for ``mobility`` on the game's map, cached per map version.

    From :func:`hexwar.rules.terrain_effects.enter_cost_array` (terrain, rubble, fire).
    """

    bm = state.battlemap
    key = ("cost", bm.version, mobility)
    hit = state.cache.get(key)
    if hit is None:
        for k in [
            k for k in state.cache if isinstance(k, tuple) and k and k[0] == "cost" and k[1] != bm.version
        ]:
            del state.cache[k]
        hit = (
            special.crossing_costs(state, mobility, enter_cost_array(bm, mobility)),  # R10.8
            special.crossing_costs(state, mobility, enter_cost_array(bm, mobility, along_road=True)),
        )
        state.cache[key] = hit
    return hit


def occupancy(state: Any) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """Per side: ``bool [H, W]`` hexes holding any of its units, and ``int [H, W]`` ground-unit counts.

    Crews riding a unit do not count for stacking (R5.2); aircraft aloft are on no hex.
    """

    key = (state.cache.get("epoch", 0), state.battlemap.version)
    hit = state.cache.get("occupancy")
    if hit is not None and hit[0] == key:
        return hit[1]  # type: ignore[no-any-return]
    bm = state.battlemap
    occ = {s: np.zeros((bm.height, bm.width), dtype=bool) for s in SIDES}
    cnt = {s: np.zeros((bm.height, bm.width), dtype=np.int16) for s in SIDES}
    for u in state.units.values():
        if u.hex is None or u.aloft:
            continue
        col, row = u.hex.offset
        occ[u.side][row, col] = True
        if u.crewing is None and ruleset.is_ground(u.card):
            cnt[u.side][row, col] += 1
    state.cache["occupancy"] = (key, (occ, cnt))
    return occ, cnt


def passable_for(state: Any, uid: str) -> np.ndarray:
    """``bool [H, W]``: hexes the unit may enter now (R5.3).

    Not holding an enemy unit; holding fewer than 3 friendly ground units besides itself
    (stacking at every step, R5.2); for rear-line units, not adjacent to an enemy unit.
    """

    u = state.units[uid]
    occ, cnt = occupancy(state)
    enemy = occ[other_side(u.side)]
    if "fog" in state.variants:  # R12.2: a side plans only around the enemy units it sees
        enemy = enemy & seen_mask(state, u.side)
    mine = cnt[u.side].copy()
    if u.hex is not None:
        col, row = u.hex.offset
        mine[row, col] -= 1
    ok = ~enemy & (mine < STACKING_LIMIT)
    if ruleset.line(u.card) == "rear":
        ok &= ~adjacent_mask(enemy)
    return ok


def unit_reach(state: Any, uid: str) -> Reach | None:
    """The hexes a unit can still reach this Movement phase, or ``None`` if it cannot move.

    Cached until the game changes (``state.cache["epoch"]`` moves on with every command), and
    kept past it while everything :func:`reachable` is given stays the same (the unit's hex
    and movement points, its cost arrays, the hexes it may enter, the road flags): another
    unit's move elsewhere leaves it (issue 22), and shared by those inputs between games given
    one memo dict (:func:`hexwar.game.targeting.share_memos`, issue 31). The :class:`Reach` is
    shared: do not change it.
    """
    u = state.units[uid]
    mob = unit_mobility(state, uid)
    if mob is None or u.mp_left <= 0 or u.hex is None:
        return None
    key = (state.cache.get("epoch", 0), state.battlemap.version, u.hex, u.mp_left)
    hit = state.cache.get(("reach", uid))
    if hit is not None and hit[0] == key:
        return hit[1]  # type: ignore[no-any-return]
    cost, road_cost = unit_cost_arrays(state, uid)
    passable = passable_for(state, uid)
    road = state.battlemap.road
    win = reach_window(cost, u.hex, u.mp_left, road_cost)
    # the search reads only its window (issue 35: whole 500x500 arrays were 4 MB of bytes a unit)
    sub = (slice(None), slice(None)) if win is None else (slice(win[0], win[1]), slice(win[2], win[3]))
    inputs = (
        u.hex,
        u.mp_left,
        win,
        cost[sub].tobytes(),
        road_cost[sub].tobytes(),
        passable[sub].tobytes(),
        road[sub].tobytes(),
    )
    if hit is not None and hit[2] == inputs:
        r = hit[1]
    else:
        shared = state.cache.get(SHARED_MEMOS)  # the search's worlds of one decision (issue 31)
        r = None if shared is None else shared.get(("reach", inputs))
        if r is None:
            r = reachable(cost, passable, u.hex, u.mp_left, road_cost, road)
            if shared is not None:
                shared[("reach", inputs)] = r
    state.cache[("reach", uid)] = (key, r, inputs)
    return r  # type: ignore[no-any-return]


def move_problem(state: Any, side: str, uid: str, path: tuple[Hex, ...]) -> str | None:
    """Why ``side`` may not move ``uid`` along ``path`` now (R5.3), or ``None``."""

    u = state.units.get(uid)
    if u is None:
        return f"no unit {clip(uid, quote=False)} in play"
    if u.side != side:
        return f"{uid} is not yours"
    name = f"{ruleset.card_name(u.card)} ({uid})"
    mob = unit_mobility(state, uid)
    if mob is None:
        if u.crewing is not None:
            return f"{name} is a crew riding {u.crewing}; it moves with that unit"
        if u.aloft:
            return f"{name} is aloft; aircraft do not move on the map"
        if ruleset.is_gun(u.card):
            return f"{name} is a gun; guns move only when the scenario says so (R5.3)"
        return f"{name} cannot move"
    if ruleset.needs_crew(u.card) and u.crew is None:
        return f"{name} has no crew and cannot move"
    if u.immobilized or ruleset.is_immobilized(state, u):
        return f"{name} is immobilized"
    if not path:
        return "the path is empty: give at least one hex to enter"
    cost, road_cost = unit_cost_arrays(state, uid)
    passable = passable_for(state, uid)
    assert u.hex is not None
    # explain a blocked hex precisely before the generic check
    prev = u.hex
    for h in path:
        if not state.battlemap.in_bounds(h):
            return f"{state.hex_label(h)} is off the map"
        if h == u.hex and prev == u.hex:
            return f"{name} is already in {h.label}: the path lists only the hexes it enters"
        if h == prev:
            return f"the path steps from {h.label} into {h.label} itself: list only the hexes entered"
        if prev.distance(h) != 1:
            return f"{h.label} is not adjacent to {prev.label}"
        if not passable[state.battlemap.index(h)]:
            return f"{name} may not enter {h.label}: " + _blocked_reason(state, u, h)
        prev = h
    mp, problem = path_cost(cost, passable, u.hex, path, road_cost, state.battlemap.road)
    if problem:
        return f"{name}: {problem}"
    if mp > u.mp_left + 1e-9:
        return f"{name} needs {mp:g} movement points for that path but has {u.mp_left:g} left"
    return None


def _blocked_reason(state: Any, u: Any, h: Hex) -> str:

    occ, cnt = occupancy(state)
    idx = state.battlemap.index(h)
    if occ[other_side(u.side)][idx]:
        return "it holds an enemy unit (R5.3)"
    if cnt[u.side][idx] >= STACKING_LIMIT:
        return f"it already holds {STACKING_LIMIT} ground units (stacking limit, R5.2)"
    if ruleset.line(u.card) == "rear":
        return "rear-line units may not enter a hex adjacent to an enemy unit (R5.3)"
    return "blocked"  # pragma: no cover


def do_move(state: Any, side: str, uid: str, path: tuple[Hex, ...], sink: Any) -> None:
    """Carry out a checked move: step by step, paying each hex's cost (R5.3).

    A tracked unit entering rubble rolls for immobilization (R8.3) and stops there if it
    fails; objectives change hands as ground units enter them (R10.2). The crew and a towed
    wreck move with the unit.
    """
    u = state.units[uid]
    mob = unit_mobility(state, uid)
    assert mob is not None and u.hex is not None
    cost, road_cost = unit_cost_arrays(state, uid)
    start = u.hex
    entered: list[Hex] = []
    spent = 0.0
    stopped = ""
    fog_block = None
    if "fog" in state.variants:  # R12.2: an unseen enemy in the way stops the move (docs/rules.md)
        enemy = occupancy(state)[0][other_side(u.side)]
        fog_block = enemy | adjacent_mask(enemy) if ruleset.line(u.card) == "rear" else enemy
    for h in path:
        prev = u.hex
        if fog_block is not None and fog_block[h.offset[1], h.offset[0]]:
            stopped = f"; stops in {prev.label}: an unseen enemy unit bars the way (R12.2)"
            break
        pc, pr = prev.offset
        col, row = h.offset
        step = (
            float(road_cost[row, col])
            if (state.battlemap.road[pr, pc] and state.battlemap.road[row, col])
            else float(cost[row, col])
        )
        u.mp_left -= step
        spent += step
        u.hex = h
        if u.crew is not None:
            state.units[u.crew].hex = h
        entered.append(h)
        ev = victory.enter_hex(state, u.side, h)
        if ev is not None:
            sink.add(ev)
        check = rubble_entry_check(state.battlemap, h, mob, state.dice, unit=uid)
        if check is not None:
            sink.effect(check)
            if check.immobilized:
                u.immobilized = True
                u.mp_left = 0.0
                stopped = f"; immobilized in the rubble of {h.label}"
                break
        mine = special.mine_entry_check(state, uid, h, mob)  # R10.5
        if mine is not None:
            sink.effect(mine)
            u.mp_left = 0.0
            if mine.immobilized:
                u.immobilized = True
            stopped = f"; {'immobilized in' if mine.immobilized else 'stops in'} the minefield of {h.label}"
            break
    if u.mp_left < 1e-9:
        u.mp_left = 0.0
    labels = [state.hex_label(h) for h in entered]
    tow = f" towing wreck {u.towing}" if u.towing else ""
    sink.add(
        MoveEvent(
            f"{side} moves {ruleset.card_name(u.card)} ({uid}){tow} {start.label} -> "
            f"{' -> '.join(labels)} ({spent:g} MP, {u.mp_left:g} left){stopped}",
            {"unit": uid, "from": start.label, "path": labels, "mp": spent},
        )
    )


def tow_problem(state: Any, side: str, uid: str, wreck_hex: Hex | None) -> str | None:
    """Why ``uid`` may not hook up the wreck in ``wreck_hex`` now (R8.1), or ``None``."""
    u = state.units.get(uid)
    if u is None:
        return f"no unit {clip(uid, quote=False)} in play"
    if u.side != side:
        return f"{uid} is not yours"
    if wreck_hex is None:
        return "give the hex of the wreck to hook up"
    if u.hex is None or u.aloft or u.crewing is not None or not ruleset.is_vehicle(u.card):
        return f"{uid} is not a vehicle on the map"
    if u.towing:
        return f"{uid} already tows wreck {u.towing}"
    if ruleset.needs_crew(u.card) and u.crew is None:
        return f"{uid} has no crew"
    if u.immobilized or ruleset.is_immobilized(state, u):
        return f"{uid} is immobilized"
    mob = ruleset.mobility(u.card) or "none"
    problem = hook_up_problem(state.battlemap, u.hex, wreck_hex, mob, u.mp_left)
    return f"{ruleset.card_name(u.card)} ({uid}) cannot hook up a wreck: {problem}" if problem else None


def do_tow(state: Any, side: str, uid: str, wreck_hex: Hex, sink: Any) -> None:
    """Hook up the top wreck in ``wreck_hex`` (R8.1): 2 MP, then half the rest."""
    u = state.units[uid]
    ev = hook_up(state.battlemap, uid, u.hex, wreck_hex, "tracked", u.mp_left)
    sink.effect(ev)
    u.towing = ev.wreck_id
    u.mp_left = ev.mp_after


def do_drop_tow(state: Any, side: str, uid: str, sink: Any) -> None:
    """Drop the towed wreck in the vehicle's hex at no cost (R8.1)."""
    u = state.units[uid]
    ev = drop_wreck(state.battlemap, uid, u.hex, u.towing)
    sink.effect(ev)
    u.towing = None
