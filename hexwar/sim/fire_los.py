"""Lines of sight cut by fire, scored in every trial of a fire simulation (R3, R8.4).

Definition (docs/sim.md, docs/rules.md)
    Fix a set of *viewpoints*: the hexes of the scenario's units and objectives, or every hex
    of a bare map. A *line* is an unordered pair of viewpoints whose LOS is not blocked on the
    map as loaded (before the simulated ignitions; clear or hindered). At turn ``t`` of a trial
    the line is **cut by fire** when its LOS is blocked on that trial's map (its fires and the
    rubble they left): a building fire blocks at every level (R3.5), so a burning intervening
    hex cuts it, and a hexside (spine) pair cuts it when both sides then block (R3.3). Fire is
    the only thing that blocks more during a fire simulation, so every blocked line is blocked
    by fire. Reported per turn:

    * ``line_counts``: in how many trials each line is cut;
    * ``lost_counts``: **hexes whose LOS is cut by fire**: per viewpoint hex, the trials in
      which at least one of its lines is cut;
    * ``cutter_counts``: per burning hex, the trials in which it blocks at least one line;
    * the number of cut lines per trial (sum and sum of squares: mean and interval).

How it is computed exactly and fast
    :func:`plan_los_cuts` asks the map's LOS engine (:func:`hexwar.los.visibility`) from every
    viewpoint twice, on the map as loaded and with every building a fire can reach burning;
    only the lines blocked in the second and not in the first can ever be cut. For those it
    lists, from :func:`hexwar.los.offset_geometry`, the intervening hexes that can burn and the
    spine pairs with a side that can burn, with each side's R3.4 height test against the line
    (with its building, and as bare ground once a burnout left rubble). In a trial a line is
    then cut iff one of its listed intervening hexes burns, or both sides of one of its listed
    spine pairs block (burning, or blocking by height: with the building unless it burned out).
    The tests check this against the LOS engine on the trial maps themselves.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..hexgrid import Hex
from ..maps import BattleMap

__all__ = ["LosCutPlan", "LosCutResult", "LosCutScorer", "plan_los_cuts"]


@dataclass(frozen=True)
class LosCutResult:
    """LOS-cut statistics of a fire simulation (see the module docstring).

    Attributes:
        viewpoints: the viewpoint hexes (``None``: every hex of the map).
        lines: ``int64 [L, 2]`` flat indices ``row * width + col`` of each line's two ends.
        line_counts: ``int64 [T+1, L]`` trials with the line cut at turn t.
        lost_counts: ``int64 [T+1, height, width]`` trials in which the viewpoint hex has at
            least one line cut.
        cutter_counts: ``int64 [T+1, height, width]`` trials in which the hex burns and blocks
            at least one line.
        cut_sum, cut_sumsq: ``int64 [T+1]`` sum over trials of the number of cut lines, and of
            its square.
        trials: number of trials.
    """

    viewpoints: tuple[Hex, ...] | None
    lines: np.ndarray
    line_counts: np.ndarray
    lost_counts: np.ndarray
    cutter_counts: np.ndarray
    cut_sum: np.ndarray
    cut_sumsq: np.ndarray
    trials: int
    width: int
    height: int

    def mean_cut_lines(self) -> np.ndarray:
        """``float64 [T+1]``: expected number of lines cut at each turn."""
        return self.cut_sum / max(self.trials, 1)

    def sd_cut_lines(self) -> np.ndarray:
        """``float64 [T+1]``: standard deviation of the number of cut lines per trial."""
        n = max(self.trials, 1)
        mean = self.cut_sum / n
        var = (self.cut_sumsq - n * mean**2) / max(n - 1, 1)
        return np.sqrt(np.maximum(var, 0.0))

    def line_hexes(self, i: int) -> tuple[Hex, Hex]:
        """The two end hexes of line ``i``."""
        a, b = (divmod(int(x), self.width) for x in self.lines[i])
        return Hex.from_offset(a[1], a[0]), Hex.from_offset(b[1], b[0])


@dataclass
class LosCutPlan:
    """What can be cut, prepared once per map, ignition and viewpoint set (:func:`plan_los_cuts`).

    Attributes:
        width, height: the map size.
        viewpoints: the viewpoints (``None``: every hex).
        lines: ``int64 [L, 2]`` flat ends of the lines that fire can cut.
        ent_line, ent_pos: non-spine entries: line index and flat position of an intervening
            hex that can burn (sorted by line).
        sp_line: spine entries' line index (sorted); sp_pos ``int64 [S, 2]`` flat positions of
            the two sides (-1 off the map); sp_block ``bool [S, 2]`` side blocks by height with
            its building; sp_ground ``bool [S, 2]`` side blocks by height as bare ground.
    """

    width: int
    height: int
    viewpoints: tuple[Hex, ...] | None
    lines: np.ndarray
    ent_line: np.ndarray
    ent_pos: np.ndarray
    sp_line: np.ndarray
    sp_pos: np.ndarray
    sp_block: np.ndarray
    sp_ground: np.ndarray
    stats: dict[str, Any] = field(default_factory=dict)

    def scorer(self, trials: int, turns: int, window: tuple[int, int, int, int] | None = None) -> LosCutScorer:
        """A :class:`LosCutScorer` for a run of ``trials`` x ``turns`` on the window
        ``(row0, col0, rows, cols)`` of the map the simulation's arrays cover."""
        return LosCutScorer(self, trials, turns, window or (0, 0, self.height, self.width))


def _height_test(n: int, d: int, top2: float, ea: int, eb: int) -> bool:
    """R3.4 in doubled levels: a hex of top ``top2`` at ``t = d / n`` blocks the line of eyes ``ea``, ``eb``."""
    if top2 == np.inf:
        return True
    return n * (top2 - ea) >= d * (eb - ea)


def plan_los_cuts(battlemap: BattleMap, burnable: np.ndarray, viewpoints: Sequence[Hex] | None = None) -> LosCutPlan:
    """Find the lines of sight fire can cut and what cuts them (see the module docstring).

    Args:
        battlemap: the map as loaded (before the ignitions). Not changed.
        burnable: ``bool [height, width]`` hexes that may burn during the run
            (:func:`hexwar.sim.fire.reachable_buildings` of the ignitions and the map's fires).
        viewpoints: the viewpoint hexes (units and objectives of a scenario), or ``None`` for
            every hex of the map.

    Raises:
        MapError: for a viewpoint off the map.
    """
    from ..los import BLOCKED, height_arrays, offset_geometry, visibility

    W, H = battlemap.width, battlemap.height
    burnable = np.asarray(burnable, dtype=bool) & ~battlemap.fire  # hexes burning already block
    if viewpoints is None:
        vps = [Hex.from_offset(c, r) for r in range(H) for c in range(W)]
        vp_tuple = None
    else:
        vps = []
        for h in viewpoints:
            battlemap.index(h)
            if h not in vps:
                vps.append(h)
        vp_tuple = tuple(vps)
    flat_of = {h: battlemap.index(h)[0] * W + battlemap.index(h)[1] for h in vps}
    is_vp = np.zeros(H * W, dtype=bool)
    is_vp[list(flat_of.values())] = True
    lines: list[tuple[int, int]] = []
    if burnable.any() and len(vps) > 1:
        fired = battlemap.copy()
        for r, c in zip(*np.nonzero(burnable), strict=True):
            fired.set_fire(Hex.from_offset(int(c), int(r)))
        for a in vps:
            fa = flat_of[a]
            v0 = visibility(battlemap, a).ravel()
            v1 = visibility(fired, a).ravel()
            cand = np.flatnonzero((v0 != BLOCKED) & (v1 == BLOCKED) & is_vp)
            lines.extend((fa, int(b)) for b in cand if b > fa)
    base = height_arrays(battlemap)
    top2 = 2.0 * base.block_top
    ground2 = 2.0 * battlemap.level.astype(np.float64)
    lvl = battlemap.level
    ent_line: list[int] = []
    ent_pos: list[int] = []
    sp_line: list[int] = []
    sp_pos: list[tuple[int, int]] = []
    sp_block: list[tuple[bool, bool]] = []
    sp_ground: list[tuple[bool, bool]] = []

    def flat(q: int, r: int) -> int:
        col = q
        row = r + (col - (col & 1)) // 2
        return row * W + col if (0 <= col < W and 0 <= row < H) else -1

    for i, (fa, fb) in enumerate(lines):
        ra, ca = divmod(fa, W)
        rb, cb = divmod(fb, W)
        a, b = Hex.from_offset(ca, ra), Hex.from_offset(cb, rb)
        g = offset_geometry(b.q - a.q, b.r - a.r)
        ea, eb = 2 * int(lvl[ra, ca]) + 1, 2 * int(lvl[rb, cb]) + 1
        for dq, dr in g.intervening:
            p = flat(a.q + dq, a.r + dr)
            if p >= 0 and burnable.flat[p]:
                ent_line.append(i)
                ent_pos.append(p)
        for (lq, lr), (rq, rr) in g.spine_pairs:
            pl, pr = flat(a.q + lq, a.r + lr), flat(a.q + rq, a.r + rr)
            if not ((pl >= 0 and burnable.flat[pl]) or (pr >= 0 and burnable.flat[pr])):
                continue
            d = g.spine_d[g.spine_pairs.index(((lq, lr), (rq, rr)))]
            blk, gnd = [], []
            for p in (pl, pr):
                if p < 0:
                    blk.append(False)
                    gnd.append(False)
                else:
                    blk.append(_height_test(g.n, d, float(top2.flat[p]), ea, eb))
                    gnd.append(_height_test(g.n, d, float(ground2.flat[p]), ea, eb))
            sp_line.append(i)
            sp_pos.append((pl, pr))
            sp_block.append((blk[0], blk[1]))
            sp_ground.append((gnd[0], gnd[1]))
    return LosCutPlan(
        width=W, height=H, viewpoints=vp_tuple,
        lines=np.array(lines, dtype=np.int64).reshape(-1, 2),
        ent_line=np.array(ent_line, dtype=np.int64), ent_pos=np.array(ent_pos, dtype=np.int64),
        sp_line=np.array(sp_line, dtype=np.int64), sp_pos=np.array(sp_pos, dtype=np.int64).reshape(-1, 2),
        sp_block=np.array(sp_block, dtype=bool).reshape(-1, 2), sp_ground=np.array(sp_ground, dtype=bool).reshape(-1, 2),
        stats={"viewpoints": len(vps), "lines": len(lines)},
    )


def _segments(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Unique sorted ``keys`` and the start of each run (for ``reduceat``); ``keys`` sorted."""
    if keys.size == 0:
        return keys, keys
    starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    return keys[starts], starts


class LosCutScorer:
    """Accumulates the LOS-cut statistics of a fire simulation, batch by batch (exact counts).

    Created by :meth:`LosCutPlan.scorer`; :func:`hexwar.sim.fire.simulate_fire` calls
    :meth:`add` with each batch's burning and rubble arrays after every turn.
    """

    def __init__(self, plan: LosCutPlan, trials: int, turns: int, window: tuple[int, int, int, int]) -> None:
        self.plan = plan
        self.trials = trials
        r0, c0, hh, ww = window
        W, H = plan.width, plan.height
        self.window = window
        L = plan.lines.shape[0]
        self.line_counts = np.zeros((turns + 1, L), dtype=np.int64)
        self.lost_counts = np.zeros((turns + 1, H * W), dtype=np.int64)
        self.cutter_counts = np.zeros((turns + 1, H * W), dtype=np.int64)
        self.cut_sum = np.zeros(turns + 1, dtype=np.int64)
        self.cut_sumsq = np.zeros(turns + 1, dtype=np.int64)

        def to_window(p: np.ndarray) -> np.ndarray:
            r, c = np.divmod(p, W)
            inside = (p >= 0) & (r >= r0) & (r < r0 + hh) & (c >= c0) & (c < c0 + ww)
            return np.where(inside, (r - r0) * ww + (c - c0), -1)

        self.ent_w = to_window(plan.ent_pos)
        if (self.ent_w < 0).any():  # pragma: no cover - burnable hexes lie in the window
            raise ValueError("a hex that can burn lies outside the simulated window")
        self.ent_lines, self.ent_starts = _segments(plan.ent_line)
        self.sp_w = to_window(plan.sp_pos) if plan.sp_pos.size else plan.sp_pos
        self.sp_lines, self.sp_starts = _segments(plan.sp_line)
        # lines by each end, for "hexes whose LOS is cut"
        self.end_order, self.end_keys, self.end_starts = [], [], []
        for j in (0, 1):
            order = np.argsort(plan.lines[:, j], kind="stable")
            keys, starts = _segments(plan.lines[order, j])
            self.end_order.append(order)
            self.end_keys.append(keys)
            self.end_starts.append(starts)
        # cutters through intervening entries: by window position
        order = np.argsort(self.ent_w, kind="stable")
        self.ent_by_pos = order
        self.ent_pos_keys, self.ent_pos_starts = _segments(self.ent_w[order])
        self.ent_pos_full = plan.ent_pos[order][self.ent_pos_starts] if order.size else order

    def _side(self, burning: np.ndarray, rubble: np.ndarray, j: int) -> tuple[np.ndarray, np.ndarray]:
        """``(blocks [n, S], burns [n, S])`` of side ``j`` of every spine entry."""
        pos = self.sp_w[:, j]
        ok = pos >= 0
        safe = np.where(ok, pos, 0)
        burns = burning[:, safe] & ok
        rub = rubble[:, safe] & ok
        blk = self.plan.sp_block[:, j]
        gnd = self.plan.sp_ground[:, j]
        return burns | np.where(rub, gnd, blk), burns

    def add(self, t: int, burning: np.ndarray, rubble: np.ndarray) -> None:
        """Score one batch at turn ``t``: ``burning`` and ``rubble`` are ``bool [n, rows, cols]`` on the window."""
        n = burning.shape[0]
        b = burning.reshape(n, -1)
        rb = rubble.reshape(n, -1)
        L = self.plan.lines.shape[0]
        cut = np.zeros((n, L), dtype=bool)
        W = self.plan.width
        if self.ent_w.size:
            ent = b[:, self.ent_w]
            cut[:, self.ent_lines] |= np.logical_or.reduceat(ent, self.ent_starts, axis=1)
            # burning intervening hexes always block their line: cutters
            hot = np.logical_or.reduceat(ent[:, self.ent_by_pos], self.ent_pos_starts, axis=1)
            self.cutter_counts[t, self.ent_pos_full] += hot.sum(axis=0)
        if self.sp_w.size:
            bl, burn_l = self._side(b, rb, 0)
            br, burn_r = self._side(b, rb, 1)
            both = bl & br
            cut[:, self.sp_lines] |= np.logical_or.reduceat(both, self.sp_starts, axis=1)
            if both.any():
                # a burning side of a blocking spine pair blocks a line: a cutter (counted once per trial)
                extra = np.zeros((n, self.plan.height * W), dtype=bool)
                for j, burns in ((0, burn_l), (1, burn_r)):
                    hit = both & burns
                    tr, e = np.nonzero(hit)
                    extra[tr, self.plan.sp_pos[e, j]] = True
                if self.ent_w.size:  # do not count twice a hex already counted as an intervening cutter
                    extra[:, self.ent_pos_full] &= ~hot
                self.cutter_counts[t] += extra.sum(axis=0)
        k = cut.sum(axis=1, dtype=np.int64)
        self.cut_sum[t] += int(k.sum())
        self.cut_sumsq[t] += int((k * k).sum())
        if L:
            self.line_counts[t] += cut.sum(axis=0)
            lost = np.zeros((n, self.plan.height * W), dtype=bool)
            for j in (0, 1):
                any_cut = np.logical_or.reduceat(cut[:, self.end_order[j]], self.end_starts[j], axis=1)
                lost[:, self.end_keys[j]] |= any_cut
            self.lost_counts[t] += lost.sum(axis=0)

    def result(self) -> LosCutResult:
        """The accumulated :class:`LosCutResult`."""
        H, W = self.plan.height, self.plan.width
        T1 = self.line_counts.shape[0]
        return LosCutResult(
            viewpoints=self.plan.viewpoints, lines=self.plan.lines, line_counts=self.line_counts,
            lost_counts=self.lost_counts.reshape(T1, H, W), cutter_counts=self.cutter_counts.reshape(T1, H, W),
            cut_sum=self.cut_sum, cut_sumsq=self.cut_sumsq, trials=self.trials, width=W, height=H,
        )
