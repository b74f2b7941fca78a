"""Exact answers to set beside the Monte Carlo: artillery landings, building outcomes, fire spread.

Artillery (R9.3, R8.2-R8.4)
    :func:`landing_distribution` turns :func:`hexwar.rules.artillery.exact_landing_distribution`
    (the 36 equally likely accuracy/direction face pairs fed through the game's
    ``drift_landing``) into a ``[height, width]`` array plus the off-map share.
    :func:`building_states` gives the exact probability that a building ends intact, burning
    or rubble after ``missions`` strikes at the same target: each mission lands in its hex with
    probability ``p`` and then rolls AV = 2d6 + DI (:func:`hexwar.rules.buildings.outcome_codes`),
    a three-state Markov chain (intact -> burning on AV >= DR + 1, intact/burning -> rubble on
    AV = DR).

Fire (R8.4, R8.6)
    :func:`two_building_burning`: closed form for a fire next to one building of DR ``dr``:
    with ``p = P(2d6 + 6 >= DR)`` the building burns by turn t with probability
    ``1 - (1 - p)**t`` (``burnout``: the source burns out at the start of turn 4 and spreads
    only in turns 1-3; the building itself burns out 4 turns after it caught fire).
    :func:`chain_burning`: a fire at one end of a chain of buildings: the front moves one
    building per success, a dynamic program over the front position.
    :func:`exact_fire`: any small cluster of buildings, a dynamic program over the joint state
    of the cluster (each building intact, burning with its turn counter, or burned out), with
    the same step as the game: age, then independent spread checks from every burning
    neighbour, applied together.

>>> two_building_burning(14, 3)
[Fraction(0, 1), Fraction(5, 12), Fraction(95, 144), Fraction(1385, 1728)]
>>> chain_burning([13, 14, 15], 2)[2]        # 1 - (7/12)**2 and 5/12 * 5/18
[Fraction(1, 1), Fraction(95, 144), Fraction(25, 216)]
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np

from ..errors import HexwarError
from ..model.hexgrid import Hex
from ..rules.artillery import exact_landing_distribution
from ..rules.buildings import BuildingResult, building_outcome_probabilities
from ..rules.fire import neighbor_shift, spread_probability
from ..rules.terrain_effects import default_effects

__all__ = [
    "ExactFire",
    "ExactTooLarge",
    "building_states",
    "chain_burning",
    "exact_fire",
    "exact_fire_on_map",
    "landing_fractions",
    "landing_distribution",
    "two_building_burning",
]


class ExactTooLarge(HexwarError):
    """The exact fire computation would need too many states; use the Monte Carlo alone."""


# -- artillery -------------------------------------------------------------------------------
def landing_distribution(
    target: Hex, hit_on: int, bonus: int, width: int, height: int
) -> tuple[np.ndarray, float]:
    """Exact single-strike landing probabilities (R9.3): ``(float64 [height, width], off-map share)``.

    >>> p, off = landing_distribution(Hex.from_label("A01"), hit_on=4, bonus=0, width=5, height=5)
    >>> round(float(p.sum()) + off, 12), float(p[0, 0])
    (1.0, 0.5)
    """
    out = np.zeros((height, width))
    off = 0.0
    for h, pr in exact_landing_distribution(target, hit_on, bonus, width, height).items():
        if h is None:
            off += float(pr)
        else:
            col, row = h.offset
            out[row, col] += float(pr)
    return out, off


def landing_fractions(
    target: Hex, hit_on: int, bonus: int, width: int, height: int
) -> dict[Hex | None, Fraction]:
    """:func:`hexwar.rules.artillery.exact_landing_distribution` on the map (off-map under ``None``)."""
    return exact_landing_distribution(target, hit_on, bonus, width, height)


def building_states(
    p_land: Fraction | float, damage_index: int, dr: int, missions: int, burning_at_start: bool = False
) -> dict[str, Any]:
    """Exact end state of one building after ``missions`` strikes at the same target (R8.2-R8.4).

    Args:
        p_land: probability that one strike lands in the building's hex (Fraction for exact).
        damage_index: the mission weapon's Damage Index.
        dr: the building's DR.
        missions: strikes fired one after the other.
        burning_at_start: the building already burns.

    Returns:
        ``{"intact": P, "burning": P, "rubble": P, "fire_started": P}`` (Fractions when
        ``p_land`` is one): the state after the last mission, and the probability that some
        strike set it alight.

    >>> s = building_states(Fraction(1, 2), damage_index=4, dr=13, missions=1)
    >>> s["rubble"], s["burning"]
    (Fraction(1, 18), Fraction(1, 12))
    """
    probs = building_outcome_probabilities(damage_index, dr, "artillery")
    one = Fraction(1) if isinstance(p_land, Fraction) else 1.0
    zero = 0 * one
    pr = p_land * probs[BuildingResult.RUBBLE]
    pf = p_land * probs[BuildingResult.FIRE]
    # four states: intact, burning, rubble after burning, rubble straight from intact
    intact, burning, rub_lit, rub_unlit = (
        (zero, one, zero, zero) if burning_at_start else (one, zero, zero, zero)
    )
    for _ in range(missions):
        intact, burning, rub_lit, rub_unlit = (
            intact * (one - pr - pf),
            burning * (one - pr) + intact * pf,
            rub_lit + burning * pr,
            rub_unlit + intact * pr,
        )
    started = zero if burning_at_start else burning + rub_lit
    return {"intact": intact, "burning": burning, "rubble": rub_lit + rub_unlit, "fire_started": started}


# -- fire: closed forms ----------------------------------------------------------------------
def two_building_burning(
    dr: int,
    turns: int,
    burnout: bool = False,
    spread_bonus: int | None = None,
    burnout_turns: int | None = None,
) -> list[Fraction]:
    """P(the second building burns at turn t), t = 0..turns: a fire lit at turn 0 next to one
    building of DR ``dr`` and nothing else that burns (R8.4, R8.6).

    Without ``burnout``: ``1 - (1 - p)**t``. With it: the source spreads in turns 1..L (L = 3,
    burning out at the start of turn L + 1 before it could spread); a building lit at turn s
    burns through turn s + L, so P(burning at t) = sum over s in 1..min(t, L) with
    ``t <= s + L`` of ``(1 - p)**(s - 1) * p``.
    """
    eff = default_effects()
    p = spread_probability(dr, 1, spread_bonus)
    L = eff.burnout_turns if burnout_turns is None else burnout_turns
    out = []
    for t in range(turns + 1):
        if not burnout:
            out.append(1 - (1 - p) ** t)
        else:
            out.append(
                sum(((1 - p) ** (s - 1) * p for s in range(1, min(t, L) + 1) if t <= s + L), Fraction(0))
            )
    return out


def chain_burning(drs: Sequence[int], turns: int, spread_bonus: int | None = None) -> list[list[Fraction]]:
    """P(building k of a chain burns at turn t): ``out[t][k]``, t = 0..turns (no burnout).

    Building 0 is lit at turn 0; building k touches only k - 1 and k + 1. A building can catch
    fire only from the one before it (the one after cannot burn first), so the fire front
    ``f`` (buildings 0..f burn) moves to ``f + 1`` in a turn with probability
    ``P(2d6 + 6 >= DR[f + 1])``: a dynamic program over the front's distribution. Fires never
    go out, so building k burns at turn t iff the front has reached k.
    """
    n = len(drs)
    ps = [spread_probability(d, 1, spread_bonus) for d in drs]
    dist = [Fraction(0)] * n
    dist[0] = Fraction(1)
    out = []
    for t in range(turns + 1):
        if t:
            new = [Fraction(0)] * n
            for f, pr in enumerate(dist):
                if not pr:
                    continue
                if f + 1 < n:
                    new[f + 1] += pr * ps[f + 1]
                    new[f] += pr * (1 - ps[f + 1])
                else:
                    new[f] += pr
            dist = new
        # P(building k burning) = P(front >= k)
        tail = list(itertools.accumulate(reversed(dist)))[::-1]
        out.append(tail)
    return out


# -- fire: the general dynamic program -------------------------------------------------------
@dataclass(frozen=True)
class ExactFire:
    """Exact fire statistics of a small cluster (see :func:`exact_fire`).

    Attributes:
        hexes: the buildings of the cluster (the fires and every building they can reach).
        burning: ``float64 [T+1, K]`` P(building k burns at turn t).
        burned_by: ``float64 [T+1, K]`` P(building k has burned at some turn <= t).
        rubble: ``float64 [T+1, K]`` P(building k burned out into rubble by turn t).
        count_dist: ``float64 [T+1, K+1]`` distribution of the number of burning buildings.
        states: the largest number of joint states of one cluster held at one turn.
        area_names: the areas asked for (``areas`` of :func:`exact_fire`).
        area_all: ``float64 [T+1, A]`` P(every building of the area has burned by turn t).
        area_burned: ``float64 [T+1, A]`` expected buildings of the area burned by turn t.
        area_burning: ``float64 [T+1, A]`` expected buildings of the area burning at turn t.
    """

    hexes: tuple[Hex, ...]
    burning: np.ndarray
    burned_by: np.ndarray
    rubble: np.ndarray
    count_dist: np.ndarray
    states: int
    area_names: tuple[str, ...] = ()
    area_all: np.ndarray = field(default_factory=lambda: np.zeros((0, 0)))
    area_burned: np.ndarray = field(default_factory=lambda: np.zeros((0, 0)))
    area_burning: np.ndarray = field(default_factory=lambda: np.zeros((0, 0)))

    def expected_burning(self) -> np.ndarray:
        """``float64 [T+1]``: expected number of burning buildings at each turn."""
        return self.count_dist @ np.arange(self.count_dist.shape[1])


_INTACT, _RUBBLE = -2, -1  # a building state; >= 0: burning with that turn counter


def exact_fire(
    burning: np.ndarray,
    fire_turns: np.ndarray,
    dr: np.ndarray,
    turns: int,
    burnout: bool = False,
    spread_bonus: int | None = None,
    burnout_turns: int | None = None,
    max_buildings: int = 14,
    max_states: int = 200_000,
    areas: Mapping[str, Sequence[Hex]] | None = None,
) -> ExactFire:
    """Exact per-building fire probabilities over ``turns`` Begin Turn steps (R8.4, R8.6).

    The same step as :func:`hexwar.rules.fire.age_fires` + ``spread_step``: age every fire
    (``burnout``: a fire whose counter reached the limit becomes rubble and does not spread),
    then every intact building with ``k`` burning neighbours catches fire independently with
    probability ``1 - (1 - p)**k``, ``p = P(2d6 + bonus >= DR)``; new fires start at counter 0.
    Computed in floating point over the joint states of each cluster of touching buildings.

    Args:
        burning: ``bool [H, W]`` fires at turn 0.
        fire_turns: ``int [H, W]`` their counters.
        dr: ``int [H, W]`` DRs of intact buildings (0 elsewhere).
        turns: Begin Turn steps (T).
        burnout: variant ``burnout``.
        spread_bonus, burnout_turns: default the effect data's.
        max_buildings: refuse a cluster of more buildings (separate clusters are computed apart
            and combined: they burn independently).
        max_states: refuse when one turn would hold more joint states.
        areas: named areas (name -> hexes): also P(all of an area's buildings burned by turn
            t), the product over the independent clusters holding them (0 when one of them no
            fire can reach), and the expected buildings burned and burning.

    Raises:
        ExactTooLarge: when the cluster or the state space is too large.
    """
    from .fire import reachable_buildings

    eff = default_effects()
    bonus = eff.fire_spread_bonus if spread_bonus is None else spread_bonus
    limit = (eff.burnout_turns if burnout_turns is None else burnout_turns) if burnout else None
    burning = np.asarray(burning, dtype=bool)
    dr = np.asarray(dr)
    reach = reachable_buildings(burning, dr)
    cells = [(int(r), int(c)) for r, c in zip(*np.nonzero(reach), strict=True)]
    index = {rc: k for k, rc in enumerate(cells)}
    nbrs, comps = _clusters(cells, index)
    big = max((len(c) for c in comps), default=0)
    if big > max_buildings:
        raise ExactTooLarge(
            f"a cluster of {big} buildings can burn; the exact computation handles at most "
            f"{max_buildings} per cluster"
        )
    T = int(turns)
    K = len(cells)
    out_b = np.zeros((T + 1, K))
    out_e = np.zeros((T + 1, K))
    out_r = np.zeros((T + 1, K))
    count = np.zeros((T + 1, 1))
    count[:, 0] = 1.0
    biggest = 1
    area_names = tuple(areas or {})
    area_k, area_all = _area_members(areas or {}, area_names, dr, burning, index, T)
    for members in comps:
        local = {k: i for i, k in enumerate(members)}
        sub_nbrs = [[local[j] for j in nbrs[k]] for k in members]
        p1 = [
            float(spread_probability(int(dr[cells[k]]), 1, bonus)) if dr[cells[k]] > 0 else 0.0
            for k in members
        ]
        start = tuple(int(fire_turns[cells[k]]) if burning[cells[k]] else _INTACT for k in members)
        groups = [[local[k] for k in ks if k in local] for ks in area_k]
        b, e, rr, n, states, g_all = _cluster_dp(start, sub_nbrs, p1, T, limit, max_states, groups)
        for a, g in enumerate(groups):
            if g:
                area_all[:, a] *= g_all[:, a]
        out_b[:, members] = b
        out_e[:, members] = e
        out_r[:, members] = rr
        count = np.stack([np.convolve(count[t], n[t]) for t in range(T + 1)])
        biggest = max(biggest, states)
    area_burned = (
        np.stack([out_e[:, ks].sum(axis=1) for ks in area_k], axis=1) if area_k else np.zeros((T + 1, 0))
    )
    area_burning = (
        np.stack([out_b[:, ks].sum(axis=1) for ks in area_k], axis=1) if area_k else np.zeros((T + 1, 0))
    )
    return ExactFire(
        tuple(Hex.from_offset(c, r) for r, c in cells),
        out_b,
        out_e,
        out_r,
        count,
        biggest,
        area_names,
        area_all,
        area_burned,
        area_burning,
    )


def _clusters(
    cells: list[tuple[int, int]], index: dict[tuple[int, int], int]
) -> tuple[list[list[int]], list[list[int]]]:
    """Each building cell's neighbours among ``cells`` (odd-q offsets), and the clusters of
    touching cells, which burn independently (each its own dynamic programme)."""
    nbrs: list[list[int]] = []
    for r, c in cells:
        ks = []
        for d in range(1, 7):
            drow, dcol = neighbor_shift(d)[c & 1]
            j = index.get((r + drow, c + dcol))
            if j is not None:
                ks.append(j)
        nbrs.append(ks)
    # clusters that touch no other evolve independently: one dynamic program each
    comp = [-1] * len(cells)
    comps: list[list[int]] = []
    for k0 in range(len(cells)):
        if comp[k0] >= 0:
            continue
        stack, members = [k0], []
        comp[k0] = len(comps)
        while stack:
            k = stack.pop()
            members.append(k)
            for j in nbrs[k]:
                if comp[j] < 0:
                    comp[j] = len(comps)
                    stack.append(j)
        comps.append(sorted(members))
    return nbrs, comps


def _area_members(
    areas: Mapping[str, Sequence[Hex]],
    area_names: tuple[str, ...],
    dr: np.ndarray,
    burning: np.ndarray,
    index: dict[tuple[int, int], int],
    T: int,
) -> tuple[list[list[int]], np.ndarray]:
    """Each area's buildings as cluster cells, and ``P(all burned)`` started at 1 per turn and
    area (0 for an area with no building, or one no fire can reach: it never burns)."""
    area_k: list[list[int]] = []  # each area's buildings as cluster cells
    area_all = np.ones((T + 1, len(area_names)))
    for a, name in enumerate(area_names):
        rcs = {(r, c) for h in areas[name] for r, c in [(h.offset[1], h.offset[0])]}
        rcs = {
            rc
            for rc in rcs
            if 0 <= rc[0] < dr.shape[0] and 0 <= rc[1] < dr.shape[1] and (dr[rc] > 0 or burning[rc])
        }
        area_k.append([index[rc] for rc in rcs if rc in index])
        if len(area_k[-1]) < len(rcs) or not rcs:  # a building no fire reaches never burns
            area_all[:, a] = 0.0
    return area_k, area_all


def _cluster_dp(
    start: tuple[int, ...],
    nbrs: list[list[int]],
    p1: list[float],
    T: int,
    limit: int | None,
    max_states: int,
    groups: Sequence[Sequence[int]] = (),
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, int, np.ndarray]:
    """The dynamic program of :func:`exact_fire` over one cluster's joint states (``groups``:
    cell sets whose P(all burned) is also returned, ``[T+1, len(groups)]``)."""
    K = len(start)
    out_g = np.zeros((T + 1, len(groups)))
    if limit is None:  # the counter does not matter: keep one burning state
        start = tuple(0 if s >= 0 else s for s in start)
    dist: dict[tuple[int, ...], float] = {start: 1.0}
    out_b = np.zeros((T + 1, K))
    out_e = np.zeros((T + 1, K))
    out_r = np.zeros((T + 1, K))
    out_n = np.zeros((T + 1, K + 1))
    biggest = 1

    def record(t: int) -> None:
        for st, pr in dist.items():
            nb = 0
            for k, s in enumerate(st):
                if s >= 0:
                    out_b[t, k] += pr
                    nb += 1
                if s != _INTACT:
                    out_e[t, k] += pr
                if s == _RUBBLE:
                    out_r[t, k] += pr
            out_n[t, nb] += pr
            for g, ks in enumerate(groups):
                if all(st[k] != _INTACT for k in ks):
                    out_g[t, g] += pr

    record(0)
    for t in range(1, T + 1):
        new: dict[tuple[int, ...], float] = {}
        for st, pr in dist.items():
            aged = list(st)
            for k, s in enumerate(st):
                if s >= 0 and limit is not None:
                    aged[k] = _RUBBLE if s >= limit else s + 1
            cand = []
            for k, s in enumerate(aged):
                if s == _INTACT:
                    n_src = sum(1 for j in nbrs[k] if aged[j] >= 0)
                    if n_src:
                        cand.append((k, 1.0 - (1.0 - p1[k]) ** n_src))
            for outcome in itertools.product((False, True), repeat=len(cand)):
                q = pr
                nxt = list(aged)
                for (k, pk), lit in zip(cand, outcome, strict=True):
                    q *= pk if lit else 1.0 - pk
                    if lit:
                        nxt[k] = 0
                if q:
                    key = tuple(nxt)
                    new[key] = new.get(key, 0.0) + q
            if len(new) > max_states:
                raise ExactTooLarge(f"more than {max_states} joint fire states at turn {t}")
        dist = new
        biggest = max(biggest, len(dist))
        record(t)
    return out_b, out_e, out_r, out_n, biggest, out_g


def exact_fire_on_map(
    battlemap: Any,
    ignite: Iterable[Hex],
    turns: int,
    burnout: bool = False,
    dr: np.ndarray | None = None,
    **kw: Any,
) -> ExactFire:
    """:func:`exact_fire` for fires lit in ``ignite`` at turn 0 on ``battlemap`` (counter 0),
    plus the fires the map already holds.

    Raises:
        ExactTooLarge: see :func:`exact_fire`.
    """
    burning = battlemap.fire.copy()
    fturns = battlemap.fire_turns.astype(np.int16, copy=True)
    for h in ignite:
        r, c = battlemap.index(h)
        if not burning[r, c]:
            burning[r, c] = True
            fturns[r, c] = 0
    return exact_fire(burning, fturns, battlemap.dr_array() if dr is None else dr, turns, burnout, **kw)
