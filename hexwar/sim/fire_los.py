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
    :func:`plan_los_cuts` asks the map's LOS engine (:func:`hexwar.model.los.visibility`) from every
    viewpoint twice, on the map as loaded and with every building a fire can reach burning;
    only the lines blocked in the second and not in the first can ever be cut. For those it
    lists, from :func:`hexwar.model.los.offset_geometry`, the intervening hexes that can burn and the
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

from ..model.hexgrid import Hex
from ..model.maps import BattleMap

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

    def scorer(
        self, trials: int, turns: int, window: tuple[int, int, int, int] | None = None
    ) -> LosCutScorer:
        """A :class:`LosCutScorer` for a run of ``trials`` x ``turns`` on the window
        ``(row0, col0, rows, cols)`` of the map the simulation's arrays cover."""
        return LosCutScorer(self, trials, turns, window or (0, 0, self.height, self.width))


def _height_test(n: int, d: int, top2: float, ea: int, eb: int) -> bool:
    """R3.4 in doubled levels: a hex of top ``top2`` at ``t = d / n`` blocks the line of eyes ``ea``, ``eb``."""
    if top2 == np.inf:
        return True
    return n * (top2 - ea) >= d * (eb - ea)


def plan_los_cuts(
    battlemap: BattleMap, burnable: np.ndarray, viewpoints: Sequence[Hex] | None = None
) -> LosCutPlan:
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
    from ..model.los import BLOCKED, height_arrays, offset_geometry, visibility

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
        width=W,
        height=H,
        viewpoints=vp_tuple,
        lines=np.array(lines, dtype=np.int64).reshape(-1, 2),
        ent_line=np.array(ent_line, dtype=np.int64),
        ent_pos=np.array(ent_pos, dtype=np.int64),
        sp_line=np.array(sp_line, dtype=np.int64),
        sp_pos=np.array(sp_pos, dtype=np.int64).reshape(-1, 2),
        sp_block=np.array(sp_block, dtype=bool).reshape(-1, 2),
        sp_ground=np.array(sp_ground, dtype=bool).reshape(-1, 2),
        stats={"viewpoints": len(vps), "lines": len(lines)},
    )


class LosCutScorer:
    """Accumulates the LOS-cut statistics of a fire simulation, batch by batch (exact counts).

    Created by :meth:`LosCutPlan.scorer`; :func:`hexwar.sim.fire.simulate_fire` calls
    :meth:`add` with each batch's burning and rubble arrays after every turn. The "any of these
    hexes" tests are sparse 0/1 matrix products (``[trials, hexes] @ [hexes, lines]``), whose
    entries are small whole numbers, exact in ``float32``.
    """

    def __init__(self, plan: LosCutPlan, trials: int, turns: int, window: tuple[int, int, int, int]) -> None:
        from scipy import sparse

        self.plan = plan
        self.trials = trials
        r0, c0, hh, ww = window
        W, H = plan.width, plan.height
        hw = H * W
        L = plan.lines.shape[0]
        self.line_counts = np.zeros((turns + 1, L), dtype=np.int64)
        self.lost_counts = np.zeros((turns + 1, hw), dtype=np.int64)
        self.cutter_counts = np.zeros((turns + 1, hw), dtype=np.int64)
        self.cut_sum = np.zeros(turns + 1, dtype=np.int64)
        self.cut_sumsq = np.zeros(turns + 1, dtype=np.int64)

        def to_window(p: np.ndarray) -> np.ndarray:
            r, c = np.divmod(p, W)
            inside = (p >= 0) & (r >= r0) & (r < r0 + hh) & (c >= c0) & (c < c0 + ww)
            return np.where(inside, (r - r0) * ww + (c - c0), -1)

        ent_w = to_window(plan.ent_pos)
        if (ent_w < 0).any():  # pragma: no cover - burnable hexes lie in the window
            raise ValueError("a hex that can burn lies outside the simulated window")
        f32 = np.float32
        S = plan.sp_line.size
        # the hexes that can cut a line (map flat index), as columns of the cutter counts
        sides = plan.sp_pos[plan.sp_pos >= 0] if S else np.zeros(0, np.int64)
        self.cut_cols = np.unique(np.concatenate([plan.ent_pos, sides]))
        col_of = {int(p): i for i, p in enumerate(self.cut_cols)}
        # intervening hexes: [positions, lines], and [positions, cutter columns]
        self.ent_cols, inv = np.unique(ent_w, return_inverse=True)
        ent_full = np.unique(plan.ent_pos)  # same order: the window map keeps the order
        self.ent_to_cut = np.array([col_of[int(p)] for p in ent_full], dtype=np.int64)
        self.a_ent = sparse.csr_matrix(
            (np.ones(inv.size, f32), (inv, plan.ent_line)), shape=(self.ent_cols.size, L)
        )
        # spine pairs: [entries, lines], and each side's cutter column
        self.sp_w = to_window(plan.sp_pos) if S else plan.sp_pos
        self.a_sp = sparse.csr_matrix((np.ones(S, f32), (np.arange(S), plan.sp_line)), shape=(S, L))
        self.c_side = []
        for j in (0, 1):
            ok = plan.sp_pos[:, j] >= 0 if S else np.zeros(0, bool)
            cols = [col_of[int(p)] for p in plan.sp_pos[ok, j]] if S else []
            self.c_side.append(
                sparse.csr_matrix(
                    (np.ones(len(cols), f32), (np.flatnonzero(ok), cols)), shape=(S, self.cut_cols.size)
                )
            )
        # line ends: [lines, end hexes]
        self.end_cols, end_inv = np.unique(plan.lines.reshape(-1), return_inverse=True)
        self.inc = sparse.csr_matrix(
            (np.ones(end_inv.size, f32), (np.repeat(np.arange(L), 2), end_inv)), shape=(L, self.end_cols.size)
        )

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
        L = self.plan.lines.shape[0]
        if L == 0:
            return
        b = burning.reshape(n, -1)
        rb = rubble.reshape(n, -1)
        f32 = np.float32
        hot = b[:, self.ent_cols]
        cut = np.asarray(hot.astype(f32) @ self.a_ent)
        cutters = np.zeros((n, self.cut_cols.size), dtype=bool)
        cutters[:, self.ent_to_cut] = hot  # a burning intervening hex always blocks its lines
        if self.sp_w.size:
            bl, burn_l = self._side(b, rb, 0)
            br, burn_r = self._side(b, rb, 1)
            both = bl & br
            if both.any():
                cut += np.asarray(both.astype(f32) @ self.a_sp)
                for burns, c in ((burn_l, self.c_side[0]), (burn_r, self.c_side[1])):
                    cutters |= np.asarray((both & burns).astype(f32) @ c) > 0
        cutb = cut > 0
        k = cutb.sum(axis=1, dtype=np.int64)
        self.cut_sum[t] += int(k.sum())
        self.cut_sumsq[t] += int((k * k).sum())
        self.line_counts[t] += cutb.sum(axis=0)
        lost = np.asarray(cutb.astype(f32) @ self.inc) > 0
        self.lost_counts[t, self.end_cols] += lost.sum(axis=0)
        self.cutter_counts[t, self.cut_cols] += cutters.sum(axis=0)

    def result(self) -> LosCutResult:
        """The accumulated :class:`LosCutResult`."""
        H, W = self.plan.height, self.plan.width
        T1 = self.line_counts.shape[0]
        return LosCutResult(
            viewpoints=self.plan.viewpoints,
            lines=self.plan.lines,
            line_counts=self.line_counts,
            lost_counts=self.lost_counts.reshape(T1, H, W),
            cutter_counts=self.cutter_counts.reshape(T1, H, W),
            cut_sum=self.cut_sum,
            cut_sumsq=self.cut_sumsq,
            trials=self.trials,
            width=W,
            height=H,
        )
