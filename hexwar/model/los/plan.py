"""The plan path: exact crossing lists of every offset of a map shape's window, built once per
shape and viewer column parity, and the rounds that read them (R3.2-R3.5)."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np

from ..los_viewer import ragged as _ragged
from .fly import _FLY_GROWTH
from .geometry import _TAB_J, _bulk_geometry, _rel
from .heights import _PAD
from .rounds import _Acc
from .table import _FAR_END, _FAR_J

_PLAN_MAX_BYTES = 96 << 20  # larger shapes have no all-offsets plan (about 16 bytes an entry)
_PLAN_CACHE_BYTES = 224 << 20  # all plans together
_PLAN_CACHE_SIZE = 4


# --------------------------------------------------------------------------------------
# All-offsets plan per map shape and viewer column parity
# --------------------------------------------------------------------------------------
@dataclass(eq=False)
class _Plan:
    """Crossing lists of every (dcol, drow) in a map's window, for one viewer column parity.

    Entries are relative padded-flat displacements, grouped by target ``k = (dcol + W - 1) *
    (2H - 1) + drow + H - 1`` and ordered by ``D``.
    """

    H: int
    W: int
    parity: int
    shift: int  # rel + shift >= 0
    n: np.ndarray
    ptr_i: np.ndarray
    rel_i: np.ndarray  # int32 padded-flat displacement + shift
    d_i: np.ndarray  # int32 D
    inv_i: np.ndarray  # float64 N / D
    ptr_s: np.ndarray
    rel_l: np.ndarray
    rel_r: np.ndarray
    d_s: np.ndarray
    inv_s: np.ndarray
    n_l: list[int] = field(default_factory=list)
    ptr_i_l: list[int] = field(default_factory=list)
    ptr_s_l: list[int] = field(default_factory=list)


def _window_offsets(H: int, W: int, parity: int) -> tuple[np.ndarray, np.ndarray]:
    dc = np.arange(-(W - 1), W, dtype=np.int64)
    drow = np.arange(-(H - 1), H, dtype=np.int64)
    DC = np.repeat(dc, drow.size)
    DROW = np.tile(drow, dc.size)
    return DC, DROW - (DC + parity) // 2


@lru_cache(maxsize=64)
def _plan_size_estimate(H: int, W: int) -> int:
    dq, dr = _window_offsets(H, W, 0)
    return int(np.maximum(np.abs(dq), np.maximum(np.abs(dr), np.abs(dq + dr))).sum())


_PLANS: OrderedDict[tuple[int, int, int], _Plan | None] = OrderedDict()


_NOT_BUILT = object()


def _peek_plan(H: int, W: int, parity: int) -> Any:
    """The cached plan, ``None`` when the shape is too large for one, or ``_NOT_BUILT``."""
    return _PLANS.get((H, W, parity), _NOT_BUILT)


def _plan_fits(H: int, W: int) -> bool:
    """Whether a shape's plan stays under :data:`_PLAN_MAX_BYTES` (16 bytes an entry)."""
    # Every offset but the 7 nearest crosses at least one hex per hex of distance but one, and
    # at least a quarter of the window's offsets lie min(W, H) / 2 hexes away or further: a
    # cheap lower bound first (the exact count of a 500x500 window takes a second).
    if 16 * ((2 * W - 1) * (2 * H - 1) // 4) * (min(W, H) // 2 - 1) > _PLAN_MAX_BYTES:
        return False
    return 16 * _plan_size_estimate(H, W) <= _PLAN_MAX_BYTES


def _plan_bytes(p: _Plan | None) -> int:
    if p is None:
        return 0
    return sum(
        a.nbytes for a in (p.n, p.ptr_i, p.rel_i, p.d_i, p.inv_i, p.ptr_s, p.rel_l, p.rel_r, p.d_s, p.inv_s)
    )


def _get_plan(H: int, W: int, parity: int) -> _Plan | None:
    """The plan of a map shape and viewer column parity, built on first use (LRU cache, at
    most :data:`_PLAN_CACHE_SIZE` plans and :data:`_PLAN_CACHE_BYTES`)."""
    key = (H, W, parity)
    if key in _PLANS:
        _PLANS.move_to_end(key)
        return _PLANS[key]
    plan = _build_plan(H, W, parity) if _plan_fits(H, W) else None
    _PLANS[key] = plan
    while len(_PLANS) > 1 and (
        len(_PLANS) > _PLAN_CACHE_SIZE or sum(_plan_bytes(p) for p in _PLANS.values()) > _PLAN_CACHE_BYTES
    ):
        _PLANS.popitem(last=False)
    return plan


def _build_plan(H: int, W: int, parity: int) -> _Plan:
    """Exact crossing lists of every offset of an ``H`` x ``W`` map's window (see :class:`_Plan`)."""
    wp = W + 2 * _PAD
    dq, dr = _window_offsets(H, W, parity)
    K = dq.size
    # A displacement never reaches past the padded map, so this shift keeps rel + shift >= 0.
    shift = (H + 2 * _PAD) * wp + W + 2 * _PAD
    ns, pis, pss, ris, dis, invis, rls, rrs, dss, inss = ([] for _ in range(10))
    chunk = max(1, 400_000 // max(1, W + H))
    for s in range(0, K, chunk):
        b = _bulk_geometry(dq[s : s + chunk], dr[s : s + chunk])
        nf = b.n.astype(np.float64)
        li, ls = np.diff(b.ptr_i), np.diff(b.ptr_s)
        ns.append(b.n)
        pis.append(li)
        pss.append(ls)
        ris.append((_rel(b.q_i, b.r_i, parity, wp) + shift).astype(np.int32))
        dis.append(b.d_i.astype(np.int32))  # D < N < 2**24
        invis.append(np.repeat(nf, li) / b.d_i)
        rls.append((_rel(b.q_l, b.r_l, parity, wp) + shift).astype(np.int32))
        rrs.append((_rel(b.q_r, b.r_r, parity, wp) + shift).astype(np.int32))
        dss.append(b.d_s.astype(np.int32))
        inss.append(np.repeat(nf, ls) / b.d_s)

    def ptr(lens: list[np.ndarray]) -> np.ndarray:
        out = np.zeros(K + 1, dtype=np.int64)
        np.cumsum(np.concatenate(lens), out=out[1:])
        return out

    n = np.concatenate(ns)
    ptr_i, ptr_s = ptr(pis), ptr(pss)
    plan = _Plan(
        H,
        W,
        parity,
        shift,
        n,
        ptr_i,
        np.concatenate(ris),
        np.concatenate(dis),
        np.concatenate(invis),
        ptr_s,
        np.concatenate(rls),
        np.concatenate(rrs),
        np.concatenate(dss),
        np.concatenate(inss),
    )
    plan.n_l = n.tolist()
    plan.ptr_i_l = ptr_i.tolist()
    plan.ptr_s_l = ptr_s.tolist()
    return plan


def _round_plan(acc: _Acc, plan: _Plan, tg: np.ndarray, kp: np.ndarray, skip: np.ndarray) -> None:
    """The rest of the lists of targets ``tg`` (plan offsets ``kp``) past their first ``skip``,
    in rounds of growing length (a target leaves once blocked)."""
    a = plan.ptr_i[kp] + skip
    end = plan.ptr_i[kp + 1]
    far = np.minimum(skip, _FAR_J)  # the far end's table entries (point symmetry of the geometry)
    step = _TAB_J
    # spine pairs first, whole (few targets): a blocked spine target then reads no more
    sa = plan.ptr_s[kp]
    lens = plan.ptr_s[kp + 1] - sa
    if lens.any():
        sel = lens > 0
        idx = _ragged(sa[sel], lens[sel])
        acc.pairs(tg[sel], plan.rel_l[idx], plan.rel_r[idx], plan.inv_s[idx], lens[sel])
        keep = acc.best_b[tg] < acc.kt[tg]
        tg, a, end, kp, far = tg[keep], a[keep], end[keep], kp[keep], far[keep]
    a0, tg0, end0 = a, tg, end
    # the unread middle [a, e): round 1 read the first `skip` and (with _FAR_END) the last `far`
    e = np.maximum(end - far, a) if _FAR_END else end
    # each round reads `2 * step` more of the middle, nearest first: one run of each list (a
    # read from both ends took two, and their cache misses cost more than the far end's early
    # exits saved once round 1 has read the far end: 3-5% on 100x100 and 300x300, issue 22)
    step *= 2
    while tg.size:
        a2 = np.minimum(a + step, e)
        acc.interior(tg, plan.rel_i[idx := _ragged(a, a2 - a)], plan.inv_i[idx], a2 - a, hind=False)
        keep = (a2 < e) & (acc.best_b[tg] < acc.kt[tg])
        tg, a, e = tg[keep], a2[keep], e[keep]
        step *= _FLY_GROWTH
    if acc.vh is not None:  # hindrances of the targets left unblocked, over their whole lists
        keep = acc.best_b[tg0] < acc.kt[tg0]
        a, tg = a0[keep], tg0[keep]
        lens = end0[keep] - a
        idx = _ragged(a, lens)
        acc.interior(tg, plan.rel_i[idx], plan.inv_i[idx], lens, block=False)
