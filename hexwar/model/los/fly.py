"""The on-the-fly path (issue 22): crossed hexes of many segments by hex lines in a canonical
frame, and the rounds that read the rest of each line for maps without a plan (R3.2-R3.5)."""

from __future__ import annotations

import numpy as np

from ..los_viewer import ragged as _ragged
from .geometry import _FLY_CANDIDATES, _N_CLASSES, _bulk_geometry, _canon, _class_steps, _rel
from .heights import _PAD, _MapState
from .rounds import _Acc

_FLY_GROWTH = 3  # each on-the-fly window is this many times longer than the last
_FLY_EDGE = 3  # hex lines at each end of an on-the-fly window that its D bounds can cut
_FLY_ENTRIES = 1 << 18  # about this many crossed hexes per on-the-fly chunk (temporaries in cache)


def _fly_lines(q: np.ndarray, r: np.ndarray, dlo: np.ndarray, dhi: np.ndarray) -> tuple[np.ndarray, ...]:
    """The intervening hexes (R3.2) of K canonical segments with ``dlo < D <= dhi``, as hex lines.

    Issue 22 (``hexwar los --all`` on an open 500x500 map): the same hexes as
    :func:`_bulk_geometry`'s interior list, without a test per candidate hex. In the canonical
    frame of :func:`_canon` (``0 <= q <= r``, so ``Bx = 3 q <= By = 2 r + q``) a line of hexes
    with one ``q`` holds ``r = t``; ``f = Bx s - 3 By q`` and ``D = 3 q (Bx + By) + 6 By t``
    (``s = q + 2 t``) are linear in ``t``, so ``|f| < m`` (the band of hexes whose interior the
    segment's line crosses) and ``dlo < D <= dhi`` are each an interval of ``t``, found once per
    line by floor division. In order of ``D`` the crossed hexes of a window are consecutive
    chords of the segment (module docstring), so each hex after the first is a neighbour of
    the one before (chords meet on a side or at a vertex, and any two of the three hexes at a
    vertex share a side): the lines ``q`` that hold crossed hexes are consecutive.

    A crossed hex's centre lies less than one hex radius from the line, so true ``x = 1.5 q``
    is within 1 of ``1.5 q_B D / N``: ``|q - q_B D / N| < 2/3``. Hence only the first and last
    :data:`_FLY_EDGE` candidate lines (``c_lo = floor(q_B dlo / N) - 1`` up, ``c_hi =
    ceil(q_B dhi / N) + 1`` down) can hold hexes the window cuts; on every line in between the
    band alone decides, and the band is at least ``2 m / (2 Bx) >= 2 By / Bx >= 2`` long in
    ``t``, so such a line is never empty.

    Floor divisions run in float64: for integers ``|a| < 2**53`` and ``0 < b < 2**53`` the
    correctly rounded ``a / b`` lies on the same side of every integer as the exact quotient
    (a non-integer quotient is at least ``1 / b`` from one, far more than its rounding
    error), so ``floor(a / b)`` is exact. Every value here is an integer below ``2**35``
    (``|dq|, |dr| < 500`` on a 500x500 map: ``|Bx|, |By| <= 1500``, ``N, D < 2**24``).

    Args:
        q, r: int64 [K] canonical offsets of the far ends (hexes), off the hexside directions
            (``By > 0``, ``Bx != By``; those have spine pairs, :func:`_bulk_geometry`).
        dlo, dhi: int64 [K] window along each segment (``t = D / N``); ``dhi`` is cut to
            ``N - 1`` here (the far end is no intervening hex).

    Returns:
        ``(nl, qf, ql, lo, up, c2, b6)``: int64 [K] lines per segment and the ``q`` of the
        first and last; float64 [L] per line (by segment, ``q`` increasing) ``lo = t0 - 1``
        and ``up = te + 1`` around its first and last ``t`` (:func:`_fly_entries` checks
        ``t0 <= te``); float64 [K] ``3 (Bx + By)`` and ``6 By`` (``D = c2 q + b6 t``).
    """
    f64 = np.float64
    ne = _FLY_EDGE
    bx = 3 * q
    by = 2 * r + q
    n = bx * bx + 3 * by * by
    m = np.maximum(2 * by, np.abs(bx - by))  # bx, by >= 0: |Bx + By| is never the largest
    dhi = np.minimum(dhi, n - 1)
    c_lo = np.maximum(q * dlo // n - 1, 0)
    c_hi = np.minimum(-((-q * dhi) // n) + 1, q)
    c1 = (bx - 3 * by).astype(f64)  # f = c1 q + 2 Bx t
    c2 = (3 * (bx + by)).astype(f64)
    b6 = (6 * by).astype(f64)
    den = np.where(bx > 0, 2 * bx, 1).astype(f64)
    mf = m.astype(f64)
    # the first and last `ne` candidate lines: band and window
    j = np.arange(2 * ne)
    qb = np.where(j < ne, c_lo[:, None] + j, (c_hi - 2 * ne + 1)[:, None] + j)
    ok = (qb <= c_hi[:, None]) & ((j < ne) | (qb >= (c_lo + ne)[:, None]))
    qbf = qb.astype(f64)
    u = -c1[:, None] * qbf
    tl = np.floor((u - mf[:, None]) / den[:, None]) + 1
    np.maximum(tl, np.floor((dlo.astype(f64)[:, None] - c2[:, None] * qbf) / b6[:, None]) + 1, out=tl)
    th = np.ceil((u + mf[:, None]) / den[:, None]) - 1
    np.minimum(th, np.floor((dhi.astype(f64)[:, None] - c2[:, None] * qbf) / b6[:, None]), out=th)
    full = ok & (th >= tl)
    inner = c_hi - c_lo + 1 > 2 * ne
    qf = np.where(full, qb, 1 << 40).min(axis=1)
    ql = np.where(full, qb, -(1 << 40)).max(axis=1)
    qf = np.where(inner, np.minimum(qf, c_lo + ne), qf)
    ql = np.where(inner, np.maximum(ql, c_hi - ne), ql)
    nl = np.maximum(ql - qf + 1, 0)
    lstart = np.cumsum(nl) - nl
    # u = -c1 q on every line, by one integer cumulative sum (steps -c1 within a segment)
    u = np.repeat(-(bx - 3 * by), nl)
    sg = np.flatnonzero(nl)
    u_first, u_last = -c1[sg] * qf[sg], -c1[sg] * ql[sg]
    u[lstart[sg]] = u_first - np.concatenate(([0.0], u_last[:-1]))
    np.cumsum(u, out=u)
    mm = np.repeat(mf, nl)
    dd = np.repeat(den, nl)
    lo = u - mm  # t0 - 1 = floor((u - m) / den), te + 1 = ceil((u + m) / den)
    lo /= dd
    np.floor(lo, out=lo)
    up = np.add(u, mm, out=mm)
    up /= dd
    np.ceil(up, out=up)
    sel = ok & (qb >= qf[:, None]) & (qb <= ql[:, None])  # the end lines inside the chain
    pos = ((lstart - qf)[:, None] + qb)[sel]
    lo[pos] = tl[sel] - 1
    up[pos] = th[sel] + 1
    return nl, qf, ql, lo, up, c2, b6


def _fly_entries(
    lines: tuple[np.ndarray, ...], aq: int, at: int, base: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every crossed hex of :func:`_fly_lines`' lines, in order along each segment.

    Per entry the table index and ``D`` are arithmetic along a line and change by a fixed
    step from one line to the next within a segment, so both come out of one integer
    cumulative sum of steps each (issue 22: about 4 entries a line on a 500x500 map).

    Args:
        lines: what :func:`_fly_lines` returned.
        aq, at: index steps of the canonical ``q`` and ``t`` in the table (one symmetry class).
        base: table index of the segments' common start.

    Returns:
        ``(lens, idx, d)``: int64 [K] entries per segment; int64 [E] table index and ``D``
        of each entry, grouped by segment.
    """
    nl, qf, ql, lo, up, c2, b6 = lines
    cnt = (up - lo).astype(np.int64)
    cnt -= 1
    if cnt.size and cnt.min() < 1:
        raise AssertionError("empty hex line inside a crossed chain")  # pragma: no cover - geometry invariant
    cc = np.zeros(cnt.size + 1, dtype=np.int64)
    np.cumsum(cnt, out=cc[1:])
    lend = np.cumsum(nl)
    lstart = lend - nl
    lens = cc[lend] - cc[lstart]
    ls = cc[1:-1]  # entry index where each line but the first starts
    # inside a segment the next line starts at (q + 1, t0) after (q, te): t0 - te = dt + 2
    dt = lo[1:] - up[:-1]
    idx = np.full(int(cc[-1]), at, dtype=np.int64)
    step = at * dt
    step += aq + 2 * at
    idx[ls] = step
    d = np.repeat(b6.astype(np.int64), lens)
    step = np.repeat(b6, nl)[1:] * dt
    step += np.repeat(c2 + 2 * b6, nl)[1:]
    d[ls] = step
    # the first entry of each segment: from the last entry of the one before (or from zero)
    sg = np.flatnonzero(nl)
    f, e = lstart[sg], lend[sg] - 1
    es = cc[f]
    q_f, q_e = qf[sg].astype(np.float64), ql[sg].astype(np.float64)
    t_f, t_e = lo[f] + 1, up[e] - 1
    i_f, i_e = aq * q_f + at * t_f, aq * q_e + at * t_e
    d_f, d_e = c2[sg] * q_f + b6[sg] * t_f, c2[sg] * q_e + b6[sg] * t_e
    idx[es] = i_f - np.concatenate(([-base], i_e[:-1]))
    d[es] = d_f - np.concatenate(([0.0], d_e[:-1]))
    np.cumsum(idx, out=idx)
    np.cumsum(d, out=d)
    return lens, idx, d


def _fly_interior(
    dq: np.ndarray, dr: np.ndarray, dlo: np.ndarray, dhi: np.ndarray, stride: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Intervening hexes (R3.2) of K segments with ``dlo < D <= dhi``, in axial form.

    :func:`_canon`, :func:`_fly_lines` and :func:`_fly_entries` over offsets of any symmetry
    classes (the one-to-all path groups its targets by class and calls those directly).

    Args:
        dq, dr: int64 [K] axial offsets of the far ends (hexes), off the hexside directions.
        dlo, dhi: int64 [K] windows along the segments (``t = D / N``).
        stride: table row length of the axial index ``r * stride + q`` (greater than
            twice the largest ``|q|``).

    Returns:
        ``(lens, rel, d)``: int64 [K] entries per segment; int64 [E] axial index ``r * stride
        + q`` of each crossed hex relative to the start and its ``D``, grouped by segment in
        order along it.
    """
    cls, cq, cr = _canon(dq, dr)
    lens = np.zeros(dq.size, dtype=np.int64)
    rel = np.zeros(0, dtype=np.int64)
    d = np.zeros(0, dtype=np.int64)
    parts = []
    for c in np.unique(cls).tolist():
        k = np.flatnonzero(cls == c)
        aq, at = _class_steps(c, stride)
        ln, i, dd = _fly_entries(_fly_lines(cq[k], cr[k], dlo[k], dhi[k]), aq, at, 0)
        lens[k] = ln
        parts.append((k, ln, i, dd))
    if parts:
        start = np.cumsum(lens) - lens
        rel = np.empty(int(lens.sum()), dtype=np.int64)
        d = np.empty_like(rel)
        for k, ln, i, dd in parts:
            where = _ragged(start[k], ln)
            rel[where] = i
            d[where] = dd
    return lens, rel, d


def _round_fly(
    acc: _Acc,
    st: _MapState,
    col: int,
    row: int,
    ea: int,
    tg: np.ndarray,
    dq: np.ndarray,
    dr: np.ndarray,
    dlo: np.ndarray,
    ahead: int,
) -> None:
    """The rest of the lists of targets ``tg`` (axial offsets ``dq``, ``dr``) past ``D = dlo``,
    in windows computed on the fly (maps without a plan): each round reads the line up to
    ``ahead`` hexes from the viewer, then ``ahead`` grows (reading windows from the target's
    end too measured slower on the benchmark maps). Every entry is read once, with its
    hindrance (the near table's hindrances come separately).

    Lines off the hexside directions (almost all) go by symmetry class (:func:`_canon`), so
    each chunk's table steps are constants, through :func:`_fly_lines` and
    :func:`_fly_entries` into the map's axial tables (:meth:`_MapState.axial`); lines along
    hexside directions (spine pairs, R3.3) through :func:`_bulk_geometry`.
    """
    parity = col & 1
    wp = st.Wp
    shift = (st.H + 2 * _PAD) * wp + st.W + 2 * _PAD  # matches the shifted views of _visibility
    n = 9 * dq * dq + 3 * (2 * dr + dq) ** 2
    nhex = np.maximum(np.abs(dq), np.maximum(np.abs(dr), np.abs(dq + dr)))
    by = 2 * dr + dq
    spine = (by == 0) | (3 * dq == by) | (3 * dq == -by)  # along a hexside direction (R3.3)
    cls, cq, cr = _canon(dq, dr)
    cls[spine] = _N_CLASSES  # a group of their own, last
    order = np.argsort(cls, kind="stable")
    tg, dq, dr, dlo, n, nhex, cls, cq, cr = (a[order] for a in (tg, dq, dr, dlo, n, nhex, cls, cq, cr))
    hi = n.copy()  # unread: dlo < D < hi
    stride, r0, tab_b, tab_h = st.axial()
    base = (row - (col >> 1) + r0) * stride + col + _PAD  # the viewer's axial table index
    g = np.maximum(tab_b, tab_h)  # the larger T - Ea of blocking and hindrance tops, per cell
    g -= ea
    steps = [_class_steps(c, stride) for c in range(_N_CLASSES)]
    prev = 0
    while tg.size:
        reach = np.where(nhex > ahead, n * ahead // np.maximum(nhex, 1), n)
        f_hi = np.minimum(reach, hi - 1)
        thr = acc.kt[tg] / n  # R3.4: blocked iff (T - Ea) >= thr * D
        edges = np.searchsorted(cls, np.arange(_N_CLASSES + 2)).tolist()
        chunk = max(1, _FLY_ENTRIES // (ahead - prev + 2))
        for c in range(_N_CLASSES):
            aq, at = steps[c]
            for s in range(edges[c], edges[c + 1], chunk):
                e = min(s + chunk, edges[c + 1])
                lens, idx, d = _fly_entries(_fly_lines(cq[s:e], cr[s:e], dlo[s:e], f_hi[s:e]), aq, at, base)
                acc.crossed(tg[s:e], thr[s:e], lens, idx, d, g, tab_b, tab_h, ea)
        chunk = max(1, _FLY_CANDIDATES // (3 * (ahead - prev) + 12))
        for s in range(edges[_N_CLASSES], edges[_N_CLASSES + 1], chunk):
            e = s + chunk
            nf = n[s:e].astype(np.float64)
            b = _bulk_geometry(dq[s:e], dr[s:e], dlo[s:e], f_hi[s:e], ordered=False)
            li, ls = np.diff(b.ptr_i), np.diff(b.ptr_s)
            acc.interior(tg[s:e], _rel(b.q_i, b.r_i, parity, wp) + shift, np.repeat(nf, li) / b.d_i, li)
            if b.d_s.size:
                sel = ls > 0
                acc.pairs(
                    tg[s:e][sel],
                    _rel(b.q_l, b.r_l, parity, wp) + shift,
                    _rel(b.q_r, b.r_r, parity, wp) + shift,
                    np.repeat(nf, ls) / b.d_s,
                    ls[sel],
                )
        keep = (f_hi + 1 < hi) & (acc.best_b[tg] < acc.kt[tg])
        tg, dq, dr, n, nhex, dlo, hi = tg[keep], dq[keep], dr[keep], n[keep], nhex[keep], f_hi[keep], hi[keep]
        cls, cq, cr = cls[keep], cq[keep], cr[keep]
        prev, ahead = ahead, ahead * _FLY_GROWTH
