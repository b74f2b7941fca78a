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
>>> from hexwar.hexgrid import Hex
>>> cost = np.ones((3, 3)); cost[1, 1] = 3.0          # B02 costs 3 to enter
>>> r = reachable(cost, np.ones((3, 3), bool), Hex.from_label("A02"), 2)
>>> sorted(h.label for h in r.hexes())
['A01', 'A02', 'A03', 'B01', 'B03', 'C01', 'C02']
>>> r.cost[Hex.from_label("C02")], r.path(Hex.from_label("C02"))[0].label
(2.0, 'B01')
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import dijkstra

from ..hexgrid import DIRECTIONS, Hex

__all__ = ["Reach", "neighbor_table", "edge_weights", "reachable", "path_cost", "adjacent_mask", "TOW_FACTOR"]

TOW_FACTOR = 2.0  # R8.1: a towing vehicle moves at half its remaining MP = every hex costs double


@lru_cache(maxsize=16)
def neighbor_table(height: int, width: int) -> tuple[np.ndarray, np.ndarray]:
    """Directed neighbour edges of a ``height`` x ``width`` odd-q map (R2.1-R2.3).

    Returns:
        ``(src, dst)``: two ``int64`` arrays of flat cell indices (``row * width + col``),
        one entry per ordered pair of adjacent on-map hexes, in cell order then direction
        order 1..6.
    """
    src: list[int] = []
    dst: list[int] = []
    for row in range(height):
        for col in range(width):
            h = Hex.from_offset(col, row)
            for dq, dr in DIRECTIONS.values():
                c2, r2 = Hex(h.q + dq, h.r + dr).offset
                if 0 <= c2 < width and 0 <= r2 < height:
                    src.append(row * width + col)
                    dst.append(r2 * width + c2)
    s = np.array(src, dtype=np.int64)
    d = np.array(dst, dtype=np.int64)
    s.setflags(write=False)
    d.setflags(write=False)
    return s, d


def adjacent_mask(occupied: np.ndarray) -> np.ndarray:
    """``bool [height, width]``: hexes adjacent to (not in) any ``True`` hex of ``occupied``.

    Used for R5.3: rear-line units may not enter a hex adjacent to an enemy unit.
    """
    h, w = occupied.shape
    src, dst = neighbor_table(h, w)
    flat = occupied.ravel()
    out = np.zeros(h * w, dtype=bool)
    out[dst[flat[src]]] = True
    return out.reshape(h, w)


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
        out: list[Hex] = []
        col, row = dest.offset
        i = row * self.width + col
        col0, row0 = self.start.offset
        start_i = row0 * self.width + col0
        while i != start_i:
            out.append(Hex.from_offset(i % self.width, i // self.width))
            i = int(self.predecessors[i])
            if i < 0:  # pragma: no cover - dijkstra always links reachable cells back
                raise KeyError(f"no path recorded to {dest}")
        out.reverse()
        return tuple(out)


def edge_weights(cost: np.ndarray, road_cost: np.ndarray | None = None, road: np.ndarray | None = None,
                 factor: float = 1.0) -> np.ndarray:
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


def reachable(cost: np.ndarray, passable: np.ndarray, start: Hex, mp: float,
              road_cost: np.ndarray | None = None, road: np.ndarray | None = None,
              factor: float = 1.0) -> Reach:
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
    src, dst = neighbor_table(height, width)
    w = edge_weights(cost, road_cost, road, factor)
    ok = np.isfinite(w) & passable.ravel()[dst] & (w <= mp)
    n = height * width
    graph = csr_matrix((w[ok], (src[ok], dst[ok])), shape=(n, n))
    s = row * width + col
    dist, pred = dijkstra(graph, directed=True, indices=s, return_predecessors=True, limit=float(mp) + 1e-9)
    idx = np.flatnonzero(np.isfinite(dist))
    reach = {Hex.from_offset(int(i) % width, int(i) // width): float(dist[i]) for i in idx}
    return Reach(start, reach, width, pred)


def path_cost(cost: np.ndarray, passable: np.ndarray, start: Hex, path: tuple[Hex, ...],
              road_cost: np.ndarray | None = None, road: np.ndarray | None = None,
              factor: float = 1.0) -> tuple[float, str | None]:
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
            return math.inf, f"{h} is off the map"
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
