"""Whole-map visibility of one viewer on a small map from its own remembered crossing lists (R3).

On the maps games are played on (the shipped scenarios are 30x22 to 44x32 hexes), a
:func:`hexwar.model.los.visibility` call is spent in numpy's per-call overhead, not in its
arithmetic: the general path reads each target's crossing list in rounds of growing length
(so a blocked target stops early) and runs about 400 numpy calls for some 9,000 entries. An
AI-vs-AI game asks for a viewer's whole-map LOS again each time the map's LOS content changes
(a wreck, rubble, a fire, R3.5/R8), mostly from the same few dozen hexes where units stand,
and a balance run plays game after game on one map.

So for a map of at most :data:`VIEWER_PLAN_MAX_HEXES` hexes the crossing lists of every target
as seen from one viewer hex (the rows of the map shape's all-offsets plan, gathered for that
hex: padded-flat displacements and ``N / D`` of every intervening hex and spine pair, R3.2,
R3.3) are kept in a cache bounded by :data:`VIEWER_PLAN_CACHE_BYTES`. A call with a cached viewer
reads every entry of every target in one pass: a gather of the blocking tops, a product, one
segment maximum (and the same for the hindering tops with a segment count, R3.5): about 25
numpy calls, a third of the time (issue 22). Maxima and counts do not depend on the order in
which entries are read, so the answer is exactly that of the general path (tests compare the
two on every viewer of the shipped maps, and both with the exact reference).

The arrays depend only on the map's shape and the viewer's hex, never on its content.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = [
    "VIEWER_PLAN_MAX_HEXES",
    "VIEWER_PLAN_CACHE_BYTES",
    "ViewerPlan",
    "viewer_plan",
    "scan",
    "clear_viewer_plans",
    "viewer_plan_bytes",
    "ragged",
]

#: maps with at most this many hexes use remembered per-viewer lists (64x64; a viewer's lists
#: on a 44x32 map take about 0.4 MB)
VIEWER_PLAN_MAX_HEXES = 64 * 64
#: all remembered viewers together (least recently used first out)
VIEWER_PLAN_CACHE_BYTES = 64 << 20


@dataclass(frozen=True, slots=True)
class ViewerPlan:
    """Every target's crossing lists from one viewer hex of one map shape (R3.2, R3.3).

    Targets are numbered ``col * H + row`` (column by column). Displacements are padded-flat,
    plus the plan's shift (index 0 of a shifted view never blocks), as in the shape's plan.

    Attributes:
        hexes: int64 [T]: targets with at least one intervening hex.
        starts: int64 [T]: where each of their lists starts in ``rel``/``inv``.
        lens: int64 [T]: entries of each list.
        rel: int32 [E]: displacement of each intervening hex.
        inv: float64 [E]: ``N / D`` of each (``t = D / N`` along the line, R3.4).
        pair_hexes, pair_starts, pair_lens: the same for targets with spine pairs.
        rel_l, rel_r: int32 [S]: the two hexes of each pair.
        inv_s: float64 [S]: ``N / D`` of each pair.
    """

    hexes: np.ndarray
    starts: np.ndarray
    lens: np.ndarray
    rel: np.ndarray
    inv: np.ndarray
    pair_hexes: np.ndarray
    pair_starts: np.ndarray
    pair_lens: np.ndarray
    rel_l: np.ndarray
    rel_r: np.ndarray
    inv_s: np.ndarray

    @property
    def nbytes(self) -> int:
        """Bytes held by the arrays."""
        return sum(int(getattr(self, f).nbytes) for f in self.__slots__)


_CACHE: OrderedDict[tuple[int, int, int, int], ViewerPlan] = OrderedDict()
_BYTES = [0]


def ragged(start: np.ndarray, lens: np.ndarray) -> np.ndarray:
    """Concatenated ``arange(start[i], start[i] + lens[i])``: int64 indices of ragged runs.

    Args:
        start, lens: int64 [K] first index and length of each run (lengths >= 0).
    """
    first = np.cumsum(lens) - lens
    return np.repeat(start - first, lens) + np.arange(int(lens.sum()), dtype=np.int64)  # type: ignore[no-any-return]


def _lists(ptr: np.ndarray, kp: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``(targets with entries, their starts in the gathered order, their lengths, gather index)``."""
    a = ptr[kp]
    lens = ptr[kp + 1] - a
    sel = np.flatnonzero(lens)
    ln = lens[sel]
    return sel, np.cumsum(ln) - ln, ln, ragged(a[sel], ln)


def viewer_plan(plan: Any, col: int, row: int) -> ViewerPlan:
    """The lists of every target from the viewer at offset ``(col, row)``, remembered.

    Args:
        plan: the all-offsets plan of the map's shape for the viewer's column parity (a
            :class:`hexwar.model.los._Plan`: ``H``, ``W``, ``ptr_i``, ``rel_i``, ``inv_i``,
            ``ptr_s``, ``rel_l``, ``rel_r``, ``inv_s``; entries of offset
            ``k = (dcol + W - 1) * (2H - 1) + drow + H - 1``).
        col, row: the viewer's odd-q offset (hexes, on the map).

    Returns:
        the :class:`ViewerPlan` (shared: do not write to its arrays).
    """
    H, W = plan.H, plan.W
    key = (H, W, col, row)
    hit = _CACHE.get(key)
    if hit is not None:
        _CACHE.move_to_end(key)
        return hit
    tc = np.repeat(np.arange(W, dtype=np.int64), H)
    tr = np.tile(np.arange(H, dtype=np.int64), W)
    kp = (tc - col + W - 1) * (2 * H - 1) + (tr - row) + H - 1
    sel, starts, lens, idx = _lists(plan.ptr_i, kp)
    ssel, sstarts, slens, sidx = _lists(plan.ptr_s, kp)
    vp = ViewerPlan(
        hexes=sel,
        starts=starts,
        lens=lens,
        rel=plan.rel_i[idx].astype(np.int32),
        inv=plan.inv_i[idx],
        pair_hexes=ssel,
        pair_starts=sstarts,
        pair_lens=slens,
        rel_l=plan.rel_l[sidx].astype(np.int32),
        rel_r=plan.rel_r[sidx].astype(np.int32),
        inv_s=plan.inv_s[sidx],
    )
    for name in ViewerPlan.__slots__:
        getattr(vp, name).flags.writeable = False
    _CACHE[key] = vp
    _BYTES[0] += vp.nbytes
    while len(_CACHE) > 1 and _BYTES[0] > VIEWER_PLAN_CACHE_BYTES:
        _, old = _CACHE.popitem(last=False)
        _BYTES[0] -= old.nbytes
    return vp


def scan(
    vp: ViewerPlan, vb: np.ndarray, vh: np.ndarray | None, kt: np.ndarray, counts: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Per target, the highest blocking and hindering ratio and the hindrance count (R3.4, R3.5).

    Args:
        vp: the viewer's lists (:func:`viewer_plan`).
        vb, vh: float64 shifted views of ``T - Ea`` (blocking tops; hindering tops, ``None``
            on a map without hindrances) above the viewer's eye ``Ea`` (levels x 2), indexed
            by the lists' displacements; ``-inf`` where nothing blocks or hinders.
        kt: float64 [T]: each target's eye above the viewer's, less the tolerance.
        counts: also count the hindrances.

    Returns:
        ``(best_b, best_h, cnt)``: float64 [T] maxima of ``(T - Ea) * N / D`` over each
        target's intervening hexes and spine pairs (a pair blocks only if both sides do, and
        hinders if each side blocks or hinders, R3.3), ``-inf`` for a target with none;
        int64 [T] counts of entries at or above ``kt`` (``None`` unless ``counts``). A target
        is blocked iff ``best_b >= kt``.
    """
    T = kt.size
    best_b = np.full(T, -np.inf)
    best_h = np.full(T, -np.inf)
    cnt = np.zeros(T, dtype=np.int64) if counts else None
    sel = vp.hexes
    if sel.size:
        x = vb.take(vp.rel)
        x *= vp.inv
        best_b[sel] = np.maximum.reduceat(x, vp.starts)
        if vh is not None:
            vh.take(vp.rel, out=x)
            x *= vp.inv
            best_h[sel] = np.maximum.reduceat(x, vp.starts)
            if cnt is not None:
                hit = x >= np.repeat(kt[sel], vp.lens)
                cnt[sel] = np.add.reduceat(hit, vp.starts, dtype=np.int64)
    ps = vp.pair_hexes
    if ps.size:
        bl = vb.take(vp.rel_l)
        bl *= vp.inv_s
        br = vb.take(vp.rel_r)
        br *= vp.inv_s
        best_b[ps] = np.maximum(best_b[ps], np.maximum.reduceat(np.minimum(bl, br), vp.pair_starts))
        if vh is not None:
            hl = vh.take(vp.rel_l)
            hl *= vp.inv_s
            np.maximum(hl, bl, out=hl)
            hr = vh.take(vp.rel_r)
            hr *= vp.inv_s
            np.maximum(hr, br, out=hr)
            np.minimum(hl, hr, out=hl)
            best_h[ps] = np.maximum(best_h[ps], np.maximum.reduceat(hl, vp.pair_starts))
            if cnt is not None:
                hit = hl >= np.repeat(kt[ps], vp.pair_lens)
                cnt[ps] += np.add.reduceat(hit, vp.pair_starts, dtype=np.int64)
    return best_b, best_h, cnt


def clear_viewer_plans() -> None:
    """Forget every remembered viewer (tests; memory figures)."""
    _CACHE.clear()
    _BYTES[0] = 0


def viewer_plan_bytes() -> int:
    """Bytes of all remembered viewers' lists."""
    return _BYTES[0]
