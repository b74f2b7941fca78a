"""Exact geometry of one centre-to-centre segment (R3.2, R3.3): the candidate test of
every hex near the segment, in integers (see :mod:`hexwar.model.los` for the proof)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

_TAB_J = 8  # entries per offset in the near table (hexwar.model.los.table)
_TAB_R = _TAB_J + 1  # table entries lie within this many hexes of the viewer
_TAB_SIDE = 2 * _TAB_R + 1
_TAB_SENTINEL = _TAB_SIDE * _TAB_SIDE  # patch cell that never blocks nor hinders
_FLY_CANDIDATES = 1 << 20  # candidate hexes per on-the-fly geometry chunk (bounds memory)
_N_CLASSES = 12  # lattice symmetry classes of _canon
_PATCH_Q = np.repeat(np.arange(-_TAB_R, _TAB_R + 1, dtype=np.int64), _TAB_SIDE)
_PATCH_R = np.tile(np.arange(-_TAB_R, _TAB_R + 1, dtype=np.int64), _TAB_SIDE)


# --------------------------------------------------------------------------------------
# Geometry of one offset (R3.2, R3.3), exact integer arithmetic
# --------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class _Bulk:
    """Crossing lists of K offsets as CSR arrays (interior hexes and spine sides)."""

    n: np.ndarray  # int64 [K]: N = Bx^2 + 3 By^2
    ptr_i: np.ndarray  # int64 [K + 1]
    q_i: np.ndarray  # int64 [E]: relative axial q of interior hexes, by offset then D
    r_i: np.ndarray
    d_i: np.ndarray  # int64 [E]: D
    ptr_s: np.ndarray  # int64 [K + 1]: spine pairs
    q_l: np.ndarray  # side with f > 0, then its partner (f < 0)
    r_l: np.ndarray
    q_r: np.ndarray
    r_r: np.ndarray
    d_s: np.ndarray


def _csr_ptr(k: np.ndarray, K: int) -> np.ndarray:
    ptr = np.zeros(K + 1, dtype=np.int64)
    np.cumsum(np.bincount(k, minlength=K), out=ptr[1:])
    return ptr


def _bulk_geometry(
    dq: np.ndarray,
    dr: np.ndarray,
    dlo: np.ndarray | None = None,
    dhi: np.ndarray | None = None,
    ordered: bool = True,
) -> _Bulk:
    """Intervening hexes and spine pairs of K centre-to-centre segments (R3.2, R3.3).

    Args:
        dq, dr: int arrays [K], axial offsets of the far end from the start (hexes).
        dlo, dhi: optional int arrays [K]: keep only the entries with ``dlo < D <= dhi``
            (a window along each segment, ``t = D / N``; issue 22's one-to-all rounds). Only
            the columns and rows such a window can reach are examined: a crossed hex's centre
            lies within one hex radius of the point of the segment nearest to it.
        ordered: with ``False`` the intervening hexes of each offset come in no particular
            order (still grouped by offset): what one-to-all needs, without a sort.

    Returns:
        a :class:`_Bulk` whose entries are relative to the start hex, ordered by offset
        and then by ``D`` (distance along the segment).
    """
    dq = np.asarray(dq, dtype=np.int64).ravel()
    dr = np.asarray(dr, dtype=np.int64).ravel()
    K = dq.size
    bx = 3 * dq
    by = 2 * dr + dq
    n = bx * bx + 3 * by * by
    m = np.maximum(np.abs(2 * by), np.maximum(np.abs(bx - by), np.abs(bx + by)))
    spine = ((by == 0) | (bx == by) | (bx == -by)) & (n > 0)
    # Candidate columns: a crossed hex lies in a column between the two ends.
    col0 = np.minimum(dq, 0)
    ncol = np.abs(dq) + 1
    if dhi is not None:
        assert dlo is not None
        dlo = np.asarray(dlo, dtype=np.int64).ravel()
        dhi = np.asarray(dhi, dtype=np.int64).ravel()
        nn = np.maximum(n, 1)
        # True x of a centre is 1.5 q, of the nearest point 1.5 dq D / N, and they are less
        # than 1 apart: |q - dq D / N| < 2/3.
        a_, b_ = dq * dlo, dq * dhi
        c_lo = np.maximum(np.minimum(a_, b_) // nn - 1, col0)
        c_hi = np.minimum(-((-np.maximum(a_, b_)) // nn) + 1, np.maximum(dq, 0))
        col0 = c_lo
        ncol = np.maximum(c_hi - c_lo + 1, 0)
        # the same for y: |s - By D / N| < 2 / sqrt(3) (s = 2r + q, scaled Y)
        a_, b_ = by * dlo, by * dhi
        s_min = np.minimum(a_, b_) // nn - 2
        s_max = -((-np.maximum(a_, b_)) // nn) + 2
    kc = np.repeat(np.arange(K, dtype=np.int64), ncol)
    first = np.cumsum(ncol) - ncol
    iq = np.repeat(col0, ncol) + (np.arange(kc.size, dtype=np.int64) - np.repeat(first, ncol))
    cbx, cby, cm = bx[kc], by[kc], m[kc]
    vert = cbx == 0
    sg = np.where(cbx < 0, -1, 1)
    den = np.where(vert, 1, np.abs(cbx))
    c = 3 * cby * iq * sg
    # |Bx s - 3 By q| <= m  <=>  s in [(c - m) / |Bx|, (c + m) / |Bx|]   (s = 2r + q = scaled Y)
    lo = -((m[kc] - c) // den)
    hi = (c + cm) // den
    lo = np.where(vert, np.minimum(0, cby), lo)  # dq = 0: the column itself, between the ends
    hi = np.where(vert, np.maximum(0, cby), hi)
    if dhi is not None:
        lo = np.maximum(lo, s_min[kc])
        hi = np.minimum(hi, s_max[kc])
    lo = lo + ((lo - iq) & 1)  # s has the parity of q
    cnt = np.where(hi >= lo, (hi - lo) // 2 + 1, 0)
    kk = np.repeat(kc, cnt)
    first2 = np.cumsum(cnt) - cnt
    s = np.repeat(lo - 2 * first2, cnt) + 2 * np.arange(kk.size, dtype=np.int64)
    q = np.repeat(iq, cnt)
    kbx, kby, km = bx[kk], by[kk], m[kk]
    f = kbx * s - kby * 3 * q
    d = 3 * q * kbx + 3 * s * kby
    if dhi is not None and dlo is not None:
        between = (d > dlo[kk]) & (d <= np.minimum(dhi, n - 1)[kk])
    else:
        between = (d > 0) & (d < n[kk])
    af = np.abs(f)
    inter = between & (af < km)
    side = between & (af == km) & spine[kk]
    r = (s - q) // 2

    # Sort by (offset, D) through one int64 key: D < N < 2**24 on every map up to 500x500.
    ii = np.flatnonzero(inter)
    if ordered:
        ii = ii[np.argsort(kk[ii] * (1 << 26) + d[ii], kind="stable")]
    ss = np.flatnonzero(side)
    ss = ss[np.argsort(kk[ss] * (1 << 26) + 2 * d[ss] + (f[ss] < 0), kind="stable")]
    left, right = ss[0::2], ss[1::2]
    if left.size != right.size or np.any(d[left] != d[right]) or np.any(f[left] <= 0):
        raise AssertionError("spine sides do not pair up")  # pragma: no cover - geometry invariant
    return _Bulk(
        n=n,
        ptr_i=_csr_ptr(kk[ii], K),
        q_i=q[ii],
        r_i=r[ii],
        d_i=d[ii],
        ptr_s=_csr_ptr(kk[left], K),
        q_l=q[left],
        r_l=r[left],
        q_r=q[right],
        r_r=r[right],
        d_s=d[left],
    )


def _canon_maps() -> np.ndarray:
    """int64 [12, 2, 2]: for ``rot * 4 + mx * 2 + my``, the axial map from the canonical frame
    of :func:`_fly_interior` back to the original one (rotation by 0, 120 or 240 degrees
    after the mirrors ``X -> -X`` and ``Y -> -Y``: hex-lattice symmetries, isometries)."""
    rinv = [np.array([[1, 0], [0, 1]]), np.array([[-1, -1], [1, 0]]), np.array([[0, 1], [-1, -1]])]
    mx = np.array([[-1, 0], [1, 1]])  # (q, r) -> (-q, q + r): X -> -X, an involution
    my = np.array([[1, 0], [-1, -1]])  # (q, r) -> (q, -q - r): Y -> -Y, an involution
    eye = np.eye(2, dtype=np.int64)
    out = [
        rinv[k] @ (mx if x else eye) @ (my if y else eye) for k in range(3) for x in (0, 1) for y in (0, 1)
    ]
    return np.array(out, dtype=np.int64)


_CANON = _canon_maps()


def _canon(dq: np.ndarray, dr: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The canonical frame of K axial offsets (R3.2 geometry is kept by lattice symmetries).

    Args:
        dq, dr: int64 [K] axial offsets (hexes).

    Returns:
        ``(cls, q, r)``: int64 [K] symmetry class ``rot * 4 + mx * 2 + my`` (index into
        :data:`_CANON`, which maps the canonical frame back) and the offset in the canonical
        frame: a rotation by ``rot`` * 120 degrees, then the mirrors ``X -> -X`` (``mx``) and
        ``Y -> -Y`` (``my``), make ``q >= 0`` the smallest of ``|q|, |r|, |q + r|`` and ``By =
        2 r + q >= 0`` (``> 0`` off the hexside directions).
    """
    ds = -dq - dr
    aq, ar_, as_ = np.abs(dq), np.abs(dr), np.abs(ds)
    rot = np.where((aq <= ar_) & (aq <= as_), 0, np.where(ar_ <= as_, 1, 2))
    q1 = np.choose(rot, (dq, dr, ds))
    r1 = np.choose(rot, (dr, ds, dq))
    mx = q1 < 0
    q2 = np.abs(q1)
    r2 = np.where(mx, q1 + r1, r1)
    my = 2 * r2 + q2 < 0
    r3 = np.where(my, -q2 - r2, r2)
    return rot * 4 + mx * 2 + my, q2, r3


def _class_steps(cls: int, stride: int) -> tuple[int, int]:
    """Axial index steps ``(aq, at)`` of the canonical ``q`` and ``t`` for symmetry class
    ``cls`` (:data:`_CANON`), in a table with index ``r * stride + q``."""
    (m00, m01), (m10, m11) = _CANON[cls].tolist()
    return m10 * stride + m00, m11 * stride + m01


@dataclass(frozen=True, slots=True)
class OffsetGeometry:
    """What a centre-to-centre segment with axial offset ``(dq, dr)`` passes (R3.2, R3.3).

    All hexes are axial ``(q, r)`` offsets relative to the start hex; translation invariance
    makes them valid for every start hex.

    Attributes:
        dq, dr: axial offset of the far end (hexes).
        n: ``N = Bx^2 + 3 By^2`` (4 x squared length in true units), the denominator of ``t``.
        intervening: hexes whose interior the segment crosses over positive length, in order
            from the start (R3.2).
        intervening_d: ``D`` of each intervening hex: ``t = D / n`` locates the point of the
            segment nearest its centre (R3.4).
        spine_pairs: hexes sharing a hexside the segment runs along, in order from the start
            (R3.3); in each pair the hex to the right of the direction of travel, as drawn
            with y growing down, comes first.
        spine_d: ``D`` of each pair (both centres project onto the side's midpoint).
    """

    dq: int
    dr: int
    n: int
    intervening: tuple[tuple[int, int], ...]
    intervening_d: tuple[int, ...]
    spine_pairs: tuple[tuple[tuple[int, int], tuple[int, int]], ...]
    spine_d: tuple[int, ...]


@lru_cache(maxsize=8192)
def offset_geometry(dq: int, dr: int) -> OffsetGeometry:
    """The exact crossing list of axial offset ``(dq, dr)`` (R3.2, R3.3), computed once, cached.

    Args:
        dq, dr: axial offset in hexes of the target from the firer.

    >>> g = offset_geometry(2, -1)     # along a hexside: spine pair between two hexes
    >>> g.intervening, g.spine_pairs
    ((), (((1, 0), (1, -1)),))
    >>> offset_geometry(0, 3).intervening
    ((0, 1), (0, 2))
    """
    b = _bulk_geometry(np.array([dq]), np.array([dr]))
    return OffsetGeometry(
        int(dq),
        int(dr),
        int(b.n[0]),
        tuple(zip(b.q_i.tolist(), b.r_i.tolist(), strict=True)),
        tuple(b.d_i.tolist()),
        tuple(
            zip(
                zip(b.q_l.tolist(), b.r_l.tolist(), strict=True),
                zip(b.q_r.tolist(), b.r_r.tolist(), strict=True),
                strict=True,
            )
        ),
        tuple(b.d_s.tolist()),
    )


def _rel(q: np.ndarray, r: np.ndarray, parity: int, wp: int) -> np.ndarray:
    """Padded-flat displacement of axial offsets (q, r) from a viewer in a column of ``parity``."""
    return (r + (q + parity) // 2) * wp + q


def _patch_rel(wp: int) -> tuple[np.ndarray, np.ndarray]:
    """Padded-flat displacement of every patch code from a hex in an even / odd column
    (the sentinel: far past the end, so a clipped take reads the final ``-inf``)."""
    out = []
    for p in (0, 1):
        rel = np.full(_TAB_SENTINEL + 1, 1 << 40, dtype=np.int64)
        rel[:-1] = _rel(_PATCH_Q, _PATCH_R, p, wp)
        out.append(rel)
    return out[0], out[1]
