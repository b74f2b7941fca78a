"""Monte Carlo of building fires over turns on a real map (R5.1a, R8.4, R8.6).

A run lights fires in the ``ignite`` hexes during turn 0 (as artillery or a flamethrower would:
counter 0, R8.6) on top of any fires the map already holds, then plays Begin Turn step a of
turns 1..T in every trial with the game's own array core (:mod:`hexwar.rules.fire`):

1. :func:`~hexwar.rules.fire.age_fires`: every fire counts one more turn; in variant
   ``burnout`` a fire that has burned 3 full turns leaves rubble (R8.6) and does not spread;
2. :func:`~hexwar.rules.fire.spread_pairs`: every (burning hex, adjacent intact unburning
   building) pair rolls 2d6;
3. :func:`~hexwar.rules.fire.spread_step`: the pair spreads when ``2d6 + 6 >= DR`` (R8.4); all
   spreads of the step land together.

The 2d6 of a check are the two faces of the trial's word at
``fire_counter(turn, direction, building hex)`` (:mod:`hexwar.sim.seeding`): the game rolls the
same checks in the same order (direction, row, column), and the tests replay trials through
:func:`hexwar.rules.fire.fire_spread_phase` and the game engine's Begin Turn.

Recorded per turn ``t = 0..T`` (0 = right after the ignition): how many trials have each hex
burning, burned by then (lit at some turn <= t), rubble from burnout; the distribution of the
number of burning buildings; and, when asked for, the lines of sight cut by fire
(:mod:`hexwar.sim.fire_los`).

>>> from hexwar.model.maps import BattleMap
>>> m = BattleMap.new(8, 10)
>>> for lab in ("D07", "D08"): m.set_terrain(Hex.from_label(lab), "stone_building")
>>> r = simulate_fire(m, [Hex.from_label("D07")], turns=3, trials=2000, seed=3)
>>> r.burning_counts.shape, int(r.burning_counts[0, 6, 3])           # D07 burns in every trial
((4, 10, 8), 2000)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import HexwarError
from ..model.hexgrid import Hex
from ..model.maps import BattleMap
from ..rules.fire import age_fires, neighbor_values, spread_pairs, spread_step
from ..rules.terrain_effects import default_effects
from .seeding import batches, check_seed, d6_pair, fire_counter, trial_keys, trial_words

__all__ = [
    "DEFAULT_BATCH",
    "FireResult",
    "FireSimError",
    "check_ignition",
    "reachable_buildings",
    "simulate_fire",
    "start_state",
]

DEFAULT_BATCH = 4096
MAX_TURNS = 200


class FireSimError(HexwarError):
    """Bad input to the fire simulation; the message names the hex or field and what was expected."""


@dataclass(frozen=True)
class FireResult:
    """Counts of a fire simulation; every probability derives from these integers.

    Attributes:
        ignite: the hexes set alight at turn 0.
        turns: Begin Turn steps played (T); trials, seed: as run.
        burnout_turns: full turns before a fire leaves rubble (variant ``burnout``), or ``None``.
        width, height: the map size.
        dr: ``int16 [height, width]`` the DRs simulated (0: no intact building).
        burning_counts: ``int64 [T+1, height, width]`` trials with the hex burning at turn t.
        ever_counts: ``int64 [T+1, height, width]`` trials where the hex burned at some turn
            <= t (its building caught fire by turn t; the starting fires count).
        rubble_counts: ``int64 [T+1, height, width]`` trials where a fire burned out into rubble
            there by turn t (variant ``burnout``; zeros otherwise).
        burning_hist: ``int64 [T+1, nb+1]``: ``burning_hist[t, k]`` trials with exactly ``k``
            burning buildings at turn t (``nb``: the buildings a fire can reach,
            :func:`reachable_buildings`).
        spread_checks: ``int64 [T+1]`` spread checks rolled in each turn, over all trials.
        los: the LOS-cut statistics (:class:`~hexwar.sim.fire_los.LosCutResult`) or ``None``.
        trial_burning: ``bool [trials, T+1, height, width]``, kept only when asked for.
        trial_rubble: ``bool [trials, T+1, height, width]`` rubble left by burnouts, likewise.
        area_names: the named areas scored (``areas`` of :func:`simulate_fire`), in order.
        area_buildings: ``int64 [A]`` buildings of each area (intact or burning at turn 0).
        area_burning: ``int64 [T+1, A]`` burning buildings of the area at turn t, summed over
            trials (divide by ``trials`` for the expectation).
        area_burned: ``int64 [T+1, A]`` buildings of the area that have burned by turn t (burning
            now, burned out into rubble, or burned earlier), summed over trials;
            ``area_burned_sq`` the sum of its squares (for the interval of the mean).
        area_all: ``int64 [T+1, A]`` trials in which every building of the area has burned by
            turn t ("the village burned down"; 0 for an area without buildings).
    """

    ignite: tuple[Hex, ...]
    turns: int
    trials: int
    seed: int
    burnout_turns: int | None
    width: int
    height: int
    dr: np.ndarray
    burning_counts: np.ndarray
    ever_counts: np.ndarray
    rubble_counts: np.ndarray
    burning_hist: np.ndarray
    spread_checks: np.ndarray
    los: Any = None
    trial_burning: np.ndarray | None = field(default=None, repr=False)
    trial_rubble: np.ndarray | None = field(default=None, repr=False)
    area_names: tuple[str, ...] = ()
    area_buildings: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.int64))
    area_burning: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), dtype=np.int64))
    area_burned: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), dtype=np.int64))
    area_burned_sq: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), dtype=np.int64))
    area_all: np.ndarray = field(default_factory=lambda: np.zeros((0, 0), dtype=np.int64))

    def p_burning(self) -> np.ndarray:
        """``float64 [T+1, height, width]``: probability the hex burns at turn t."""
        return self.burning_counts / max(self.trials, 1)

    def p_burned_by(self) -> np.ndarray:
        """``float64 [T+1, height, width]``: probability the hex has burned by turn t."""
        return self.ever_counts / max(self.trials, 1)

    def burning_buildings_mean(self) -> np.ndarray:
        """``float64 [T+1]``: expected number of burning buildings at each turn."""
        k = np.arange(self.burning_hist.shape[1])
        return (self.burning_hist * k).sum(axis=1) / max(self.trials, 1)

    def burning_buildings_sd(self) -> np.ndarray:
        """``float64 [T+1]``: standard deviation of the number of burning buildings per trial."""
        k = np.arange(self.burning_hist.shape[1])
        n = max(self.trials, 1)
        mean = (self.burning_hist * k).sum(axis=1) / n
        var = (self.burning_hist * (k - mean[:, None]) ** 2).sum(axis=1) / max(n - 1, 1)
        return np.sqrt(var)

    def burning_buildings_quantile(self, q: float) -> np.ndarray:
        """``int64 [T+1]``: the ``q`` quantile (0..1) of the number of burning buildings per turn."""
        cum = np.cumsum(self.burning_hist, axis=1)
        need = q * self.trials
        return np.argmax(cum >= need - 1e-9, axis=1)


def start_state(battlemap: BattleMap, ignite: Iterable[Hex]) -> tuple[np.ndarray, np.ndarray]:
    """``(burning, fire_turns)`` at turn 0: the map's fires plus ``ignite`` lit with counter 0 (R8.6).

    Raises:
        FireSimError: for a bad ignition hex (:func:`check_ignition`).
    """
    burning0 = battlemap.fire.copy()
    turns0 = battlemap.fire_turns.astype(np.int16, copy=True)
    for h in check_ignition(battlemap, ignite):
        r, c = battlemap.index(h)
        if not burning0[r, c]:
            burning0[r, c] = True
            turns0[r, c] = 0
    return burning0, turns0


def reachable_buildings(burning: np.ndarray, dr: np.ndarray) -> np.ndarray:
    """``bool [H, W]``: hexes a fire can ever reach: the burning hexes and every intact building
    joined to one through a chain of adjacent intact buildings (spread only enters an adjacent
    building, R8.4).

    >>> b = np.zeros((1, 6), bool); b[0, 0] = True
    >>> reachable_buildings(b, np.array([[13, 13, 0, 14, 0, 0]])).astype(int).tolist()
    [[1, 1, 0, 0, 0, 0]]
    """
    building = np.asarray(dr) > 0
    reach = np.asarray(burning, dtype=bool).copy()
    while True:
        grow = reach.copy()
        for d in range(1, 7):
            grow |= neighbor_values(reach, d, fill=False)
        grow &= building | reach
        if (grow == reach).all():
            return reach
        reach = grow


class _Window:
    """One cluster's window ``[r0:r0+h, c0:c0+w]`` of the map, with its arrays (the DRs of the
    cluster's buildings only, its fires and their counters at turn 0)."""

    def __init__(
        self,
        r0: int,
        c0: int,
        h: int,
        w: int,
        dr: np.ndarray,
        burning0: np.ndarray,
        turns0: np.ndarray,
        mask: np.ndarray | None = None,
    ) -> None:
        self.r0, self.c0, self.h, self.w = r0, c0, h, w
        self.slices = (slice(r0, r0 + h), slice(c0, c0 + w))
        keep = mask[self.slices] if mask is not None else True
        self.dr = np.ascontiguousarray(np.where(keep, dr[self.slices], 0).astype(np.int16))
        self.b0 = burning0[self.slices] & keep
        self.t0 = np.where(self.b0, turns0[self.slices], 0).astype(np.int16)
        self.buildings = int(((self.dr > 0) | self.b0).sum())  #: hexes of the window that can burn

    def start(self, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """``(burning, fire_turns, rubble, ever)`` of ``n`` trials at turn 0."""
        burning = np.broadcast_to(self.b0, (n, self.h, self.w)).copy()
        return (
            burning,
            np.broadcast_to(self.t0, (n, self.h, self.w)).copy(),
            np.zeros((n, self.h, self.w), dtype=bool),
            burning.copy(),
        )


def _windows(reach: np.ndarray, dr: np.ndarray, burning0: np.ndarray, turns0: np.ndarray) -> list[_Window]:
    """One :class:`_Window` per cluster of touching hexes of ``reach`` (each holds fire)."""
    left = reach.copy()
    out = []
    while left.any():
        r, c = np.argwhere(left)[0]
        seed = np.zeros_like(left)
        seed[r, c] = True
        comp = reachable_buildings(seed, np.where(left, 1, 0))
        left &= ~comp
        rows, cols = np.nonzero(comp)
        r0, r1 = int(rows.min()), int(rows.max()) + 1
        c0, c1 = int(cols.min()) & ~1, int(cols.max()) + 1
        out.append(_Window(r0, c0, r1 - r0, c1 - c0, dr, burning0, turns0, comp))
    return out


def check_ignition(battlemap: BattleMap, hexes: Iterable[Hex]) -> tuple[Hex, ...]:
    """The ignition hexes, checked: on the map, each an intact building (fires burn only in
    buildings, R8.4), no repeats.

    Raises:
        FireSimError: naming the first bad hex and what it holds.
    """
    out: list[Hex] = []
    for h in hexes:
        if not isinstance(h, Hex):
            raise FireSimError(f"ignition hexes must be Hex values, got {h!r}")
        if not battlemap.in_bounds(h):
            last = Hex.from_offset(battlemap.width - 1, battlemap.height - 1).label
            raise FireSimError(
                f"--ignite {h.label}: the hex is off the {battlemap.width} x {battlemap.height} map "
                f"(A01..{last})"
            )
        if battlemap.building_at(h) is None:
            what = (
                "rubble"
                if battlemap.rubble[battlemap.index(h)]
                else f"{battlemap.terrain_at(h).name.lower()} terrain"
            )
            raise FireSimError(
                f"--ignite {h.label}: the hex holds {what}, not an intact building; "
                f"fires burn only in buildings (R8.4)"
            )
        if h not in out:
            out.append(h)
    return tuple(out)


def simulate_fire(
    battlemap: BattleMap,
    ignite: Sequence[Hex],
    turns: int,
    *,
    trials: int = 10_000,
    seed: int = 0,
    burnout: bool = False,
    batch_size: int = DEFAULT_BATCH,
    dr: np.ndarray | None = None,
    spread_bonus: int | None = None,
    burnout_turns: int | None = None,
    los: Any = None,
    keep_trials: bool = False,
    crop: bool = True,
    areas: Mapping[str, Sequence[Hex]] | None = None,
    progress: Callable[[int], Any] | None = None,
) -> FireResult:
    """Simulate fires lit in ``ignite`` over ``turns`` Begin Turn steps in ``trials`` trials (R8.4-R8.6).

    Args:
        battlemap: the map (buildings, rubble, and fires already burning with their counters).
            Not changed.
        ignite: building hexes set alight during turn 0 (may be empty when the map burns).
        turns: Begin Turn steps to play, 1..200.
        trials: number of trials, each with its own SeedSequence child.
        seed: the run's seed.
        burnout: variant ``burnout`` (R8.6): fires leave rubble after their full turns.
        batch_size: trials per numpy batch (memory); does not change the result.
        dr: optional ``int [height, width]`` DRs replacing the map's (parameter sweeps).
        spread_bonus: the spread modifier (default the effect data's 6).
        burnout_turns: full turns before burnout (default the effect data's 3); used with
            ``burnout``.
        los: a :class:`~hexwar.sim.fire_los.LosCutPlan` to score lines of sight cut by fire,
            or ``None``.
        keep_trials: also return every trial's burning map per turn (memory: trials x (T+1) x
            hexes bytes).
        crop: run each cluster of buildings a fire can reach (:func:`reachable_buildings`) on
            its own smallest window; the result is the same, only faster.
        areas: named areas (name -> hexes on the map, :mod:`hexwar.game.areas`) to score per
            trial: buildings burning, buildings burned by each turn and whether all of them
            have (``FireResult.area_*``).
        progress: called with the number of trials finished after each batch.

    Returns:
        a :class:`FireResult`.

    Raises:
        FireSimError: for a bad ignition hex, turn count or DR array.
        SeedError: for a bad seed, trial count or batch size.
    """
    seed = check_seed(seed)
    eff = default_effects()
    if isinstance(turns, bool) or not isinstance(turns, int | np.integer) or not 1 <= turns <= MAX_TURNS:
        raise FireSimError(f"turns must be a whole number 1..{MAX_TURNS}, got {turns!r}")
    ign = check_ignition(battlemap, ignite)
    W, H = battlemap.width, battlemap.height
    hw = H * W
    if dr is None:
        dr_map = battlemap.dr_array()
    else:
        dr_map = np.asarray(dr).astype(np.int16)
        if dr_map.shape != (H, W):
            raise FireSimError(f"dr array has shape {dr_map.shape}; expected (height, width) = ({H}, {W})")
    bonus = eff.fire_spread_bonus if spread_bonus is None else int(spread_bonus)
    limit = (eff.burnout_turns if burnout_turns is None else int(burnout_turns)) if burnout else None
    burning0, turns0 = start_state(battlemap, ign)
    reach = reachable_buildings(burning0, dr_map)
    nb = int(reach.sum())
    T = int(turns)
    # Fire never leaves the buildings connected to a fire, and touching clusters burn
    # independently (each check's dice are keyed by turn, direction and hex), so each cluster runs
    # on the smallest window holding it (first column even: odd-q neighbours depend on parity).
    windows = (
        _windows(reach, dr_map, burning0, turns0)
        if crop and nb
        else [_Window(0, 0, H, W, dr_map, burning0, turns0)]
    )
    box = _union_box(reach, nb, crop, H, W)
    area_names = tuple(areas or {})
    area_cells, area_n = _area_cells(battlemap, areas or {}, area_names, windows, (dr_map > 0) | burning0)
    scorer = (
        los.scorer(trials, T, (box[0], box[2], box[1] - box[0], box[3] - box[2])) if los is not None else None
    )
    tally = _FireTally(T, H, W, nb, trials, keep_trials, limit, windows, area_cells, area_n, box, scorer)
    for start, stop in batches(trials, batch_size):
        n = stop - start
        keys = trial_keys(seed, start, stop)
        states = [w.start(n) for w in windows]
        per_trial = np.zeros((T + 1, n), dtype=np.int64)
        tally.record(0, states, start, stop, per_trial)
        for t in range(1, T + 1):
            for i, w in enumerate(windows):
                states[i], npairs = _spread_turn(w, states[i], t, n, keys, limit, bonus, W, hw)
                tally.checks[t] += npairs
            tally.record(t, states, start, stop, per_trial)
        for t in range(T + 1):
            tally.hist[t] += np.bincount(per_trial[t], minlength=nb + 1)
        if progress is not None:
            progress(n)
    return FireResult(
        ignite=ign,
        turns=T,
        trials=int(trials),
        seed=seed,
        burnout_turns=limit,
        width=W,
        height=H,
        dr=dr_map,
        burning_counts=tally.burning_counts,
        ever_counts=tally.ever_counts,
        rubble_counts=tally.rubble_counts,
        burning_hist=tally.hist,
        spread_checks=tally.checks,
        los=scorer.result() if scorer is not None else None,
        trial_burning=tally.keep,
        trial_rubble=tally.keep_rub,
        area_names=area_names,
        area_buildings=area_n,
        area_burning=tally.area_burning,
        area_burned=tally.area_burned,
        area_burned_sq=tally.area_burned_sq,
        area_all=tally.area_all,
    )


def _union_box(reach: np.ndarray, nb: int, crop: bool, H: int, W: int) -> tuple[int, int, int, int]:
    """``(u0, u1, v0, v1)``: the rows and columns holding every building a fire can reach (first
    column even), the whole map without ``crop`` or without such buildings."""
    if not crop or not nb:
        return 0, H, 0, W
    rows, cols = np.nonzero(reach)
    return int(rows.min()), int(rows.max()) + 1, int(cols.min()) & ~1, int(cols.max()) + 1


_Cells = tuple[np.ndarray, np.ndarray]


def _area_cells(
    battlemap: BattleMap,
    areas: Mapping[str, Sequence[Hex]],
    area_names: tuple[str, ...],
    windows: list[_Window],
    is_building: np.ndarray,
) -> tuple[list[list[_Cells]], np.ndarray]:
    """Per area and window, the area's building cells inside the window (local row and column
    arrays), and each area's number of buildings."""
    area_cells: list[list[_Cells]] = []
    area_n = np.zeros(len(area_names), dtype=np.int64)
    for name in area_names:
        cells = {battlemap.index(h) for h in areas[name] if battlemap.in_bounds(h)}
        cells = {rc for rc in cells if is_building[rc]}
        area_n[len(area_cells)] = len(cells)
        per_w = []
        for w in windows:
            inside = [
                (r - w.r0, c - w.c0)
                for r, c in cells
                if w.r0 <= r < w.r0 + w.h
                and w.c0 <= c < w.c0 + w.w
                and (w.dr[r - w.r0, c - w.c0] > 0 or w.b0[r - w.r0, c - w.c0])
            ]
            per_w.append(
                (
                    np.array([x[0] for x in inside], dtype=np.intp),
                    np.array([x[1] for x in inside], dtype=np.intp),
                )
            )
        area_cells.append(per_w)
    return area_cells, area_n


_State = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


def _spread_turn(
    w: _Window,
    state: _State,
    t: int,
    n: int,
    keys: np.ndarray,
    limit: int | None,
    bonus: int,
    W: int,
    hw: int,
) -> tuple[_State, int]:
    """Begin Turn step a of turn ``t`` in one window for ``n`` trials (R8.4, R8.6): fires age
    (burnout leaves rubble), then every (fire, building) pair rolls its 2d6 from the trial's
    word (``W``: the map's width, ``hw``: its hexes, for the dice counters). Returns the new
    ``(burning, fire_turns, rubble, ever)`` and the checks rolled."""
    burning, fturns, rubble, ever = state
    aged = age_fires(burning, fturns, limit)
    if limit is not None:
        rubble |= aged.burned_out
    # trials where every building of the window has burned roll no more checks
    live = np.flatnonzero(ever.reshape(n, -1).sum(axis=1, dtype=np.int32) < w.buildings)
    sub = live.size < n
    b_in = aged.burning[live] if sub else aged.burning
    r_in = rubble[live] if sub else rubble
    pairs = spread_pairs(b_in, w.dr, r_in)
    npairs = pairs.lead.shape[0]
    if npairs:
        pos = (pairs.row + w.r0) * W + (pairs.col + w.c0)  # the building's flat index on the map
        trial = live[pairs.lead] if sub else pairs.lead
        words = trial_words(keys[trial], fire_counter(t, pairs.direction, pos, hw))
        f1, f2 = d6_pair(words)
        totals = f1.astype(np.int16) + f2
    else:
        totals = np.zeros(0, dtype=np.int16)
    new = spread_step(b_in, w.dr, totals, r_in, bonus, candidates=pairs)
    if sub:
        burning = aged.burning
        burning[live] = new
    else:
        burning = new
    ever |= burning
    return (burning, aged.fire_turns, rubble, ever), int(npairs)  # new fires start at 0 (R8.6 counter)


class _FireTally:
    """The counts of a fire run, per turn ``t = 0..T``: trials with each hex burning, burned by
    then and rubble, the number of burning buildings per trial, the spread checks, each area's
    buildings burning and burned, and (when asked) every trial's maps and the LOS scorer."""

    def __init__(
        self,
        T: int,
        H: int,
        W: int,
        nb: int,
        trials: int,
        keep_trials: bool,
        limit: int | None,
        windows: list[_Window],
        area_cells: list[list[_Cells]],
        area_n: np.ndarray,
        box: tuple[int, int, int, int],
        scorer: Any,
    ) -> None:
        A = len(area_cells)
        self.burning_counts = np.zeros((T + 1, H, W), dtype=np.int64)
        self.ever_counts = np.zeros((T + 1, H, W), dtype=np.int64)
        self.rubble_counts = np.zeros((T + 1, H, W), dtype=np.int64)
        self.hist = np.zeros((T + 1, nb + 1), dtype=np.int64)
        self.checks = np.zeros(T + 1, dtype=np.int64)
        self.keep = np.zeros((trials, T + 1, H, W), dtype=bool) if keep_trials else None
        self.keep_rub = np.zeros((trials, T + 1, H, W), dtype=bool) if keep_trials else None
        self.area_burning = np.zeros((T + 1, A), dtype=np.int64)
        self.area_burned = np.zeros((T + 1, A), dtype=np.int64)
        self.area_burned_sq = np.zeros((T + 1, A), dtype=np.int64)
        self.area_all = np.zeros((T + 1, A), dtype=np.int64)
        self.limit, self.windows, self.area_cells, self.area_n = limit, windows, area_cells, area_n
        self.box, self.scorer = box, scorer

    def record(self, t: int, states: list[_State], start: int, stop: int, per_trial: np.ndarray) -> None:
        """Count turn ``t`` of trials ``start..stop`` (their windows' ``states``)."""
        n = stop - start
        for w, (burning, _, rubble, ever) in zip(self.windows, states, strict=True):
            sl = w.slices
            self.burning_counts[t][sl] += burning.view(np.uint8).sum(axis=0, dtype=np.int64)
            self.ever_counts[t][sl] += ever.view(np.uint8).sum(axis=0, dtype=np.int64)
            if self.limit is not None:
                self.rubble_counts[t][sl] += rubble.view(np.uint8).sum(axis=0, dtype=np.int64)
            per_trial[t] += burning.reshape(n, -1).view(np.uint8).sum(axis=1, dtype=np.int64)
        for a in range(len(self.area_cells)):
            now = np.zeros(n, dtype=np.int64)
            gone = np.zeros(n, dtype=np.int64)
            for (burning, _, _, ever), (rr, cc) in zip(states, self.area_cells[a], strict=True):
                if rr.size:
                    now += burning[:, rr, cc].sum(axis=1, dtype=np.int64)
                    gone += ever[:, rr, cc].sum(axis=1, dtype=np.int64)
            self.area_burning[t, a] += int(now.sum())
            self.area_burned[t, a] += int(gone.sum())
            self.area_burned_sq[t, a] += int((gone * gone).sum())
            self.area_all[t, a] += int((gone == self.area_n[a]).sum()) if self.area_n[a] else 0
        if self.keep is not None or self.scorer is not None:
            self._record_union(t, states, start, stop)

    def _record_union(self, t: int, states: list[_State], start: int, stop: int) -> None:
        """Turn ``t``'s burning and rubble maps of the union box, kept per trial and scored for LOS."""
        u0, u1, v0, v1 = self.box
        n = stop - start
        ub = np.zeros((n, u1 - u0, v1 - v0), dtype=bool)
        ur = np.zeros_like(ub)
        for w, (burning, _, rubble, _) in zip(self.windows, states, strict=True):
            inner = (
                slice(None),
                slice(w.r0 - u0, w.r0 - u0 + w.h),
                slice(w.c0 - v0, w.c0 - v0 + w.w),
            )
            ub[inner] |= burning
            ur[inner] |= rubble
        if self.keep is not None and self.keep_rub is not None:
            union = (slice(u0, u1), slice(v0, v1))
            self.keep[start:stop, t][(slice(None), *union)] = ub
            self.keep_rub[start:stop, t][(slice(None), *union)] = ur
        if self.scorer is not None:
            self.scorer.add(t, ub, ur)
