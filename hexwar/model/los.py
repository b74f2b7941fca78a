r"""Line of sight (R3): exact, symmetric, translation-invariant and fast.

Public API:

* :func:`line_of_sight` ``(battlemap, a, b) -> LosResult``: one query, with the intervening
  hexes in order from ``a``, the hexside (spine) pairs, the first blocking hex and why, and the
  hindrance count (R3.6).
* :func:`visibility` ``(battlemap, viewer) -> int8 [height, width]``: the status
  (:data:`CLEAR`, :data:`HINDERED`, :data:`BLOCKED`) of every hex seen from ``viewer``;
  :func:`visibility_with_hindrances` also returns the hindrance counts.
* :func:`height_arrays` ``(battlemap) -> HeightArrays``: the per-hex blocking top, hindrance top
  and reason code the engine reads, rebuilt whenever ``battlemap.version`` changes (R3.4, R3.5).
* :func:`offset_geometry` ``(dq, dr) -> OffsetGeometry``: the intervening hexes and spine pairs of
  a centre-to-centre segment with axial offset ``(dq, dr)`` (R3.2, R3.3), relative to its start.

The exact shapely reference lives in :mod:`hexwar.model.los_exact`; the tests compare the two on
every ordered pair of random maps.

Exact geometry without square roots
-----------------------------------
Flat-topped hexes of size 1 have centres ``x = 1.5 q``, ``y = sqrt(3) (r + q/2)``. The affine map
``X = 2 x``, ``Y = 2 y / sqrt(3)`` sends centres to integer points ``(3q, 2r + q)`` and the six
corners of a hex to centre + ``(+-2, 0)``, ``(+-1, +-1)``::

          (-1,-1) ______ (1,-1)
                 /      \
        (-2, 0) <  (0,0) > (2, 0)          one hex in scaled coordinates (Y grows down)
                 \______/
          (-1, 1)        (1, 1)

An affine map keeps straight lines, incidence, "crosses over positive length", "touches at a
vertex" and "runs along a side", so R3.2/R3.3 can be decided there with integer arithmetic. For
the segment from the origin to ``B = (Bx, By) = (3 dq, 2 dr + dq)`` and a hex with centre ``c``:

* ``f(c) = Bx cy - By cx`` (twice the signed area, an integer). The corners of the hex have
  ``f = f(c) + {+-2By, +-(Bx - By), +-(Bx + By)}``; with ``m = max(|2By|, |Bx - By|, |Bx + By|)``
  the line meets the hex interior iff ``|f(c)| < m``. When ``|f(c)| == m`` it touches a
  corner, or, when two of the three terms equal ``m`` (the offset is a multiple of (2, -1),
  (1, 1) or (-1, 2)), runs along a whole side: a spine pair (R3.3).
* ``D(c) = cx Bx + 3 cy By`` is the Euclidean dot product ``4 (c . B)`` in true coordinates, and
  ``N = Bx^2 + 3 By^2 = 4 |B|^2``: ``t = D / N`` is the parameter of the point of the segment
  nearest the hex centre (R3.4). Hexes are the Voronoi cells of their centres, so along a line
  the chords of the hexes it crosses come in strictly increasing order of ``t`` (if chord 1
  precedes chord 2, comparing squared distances at a point of each chord gives ``t1 < t2``).
  Hence a hex crossed by the line lies strictly between the two end hexes iff ``0 < D < N``, and
  sorting by ``D`` gives the order from ``a``. For a spine pair both centres project onto the
  midpoint of the shared side, so both sides get the same ``t``.

Everything above is integer arithmetic, so the answer for ``(dq, dr)`` is exactly the mirror
image of the answer for ``(-dq, -dr)`` (``f`` changes sign, ``D`` becomes ``N - D``): symmetric.

Heights (R3.4) in doubled levels
--------------------------------
Eye ``E = 2 ground + 1`` (ground + 0.5, doubled); an intervening hex's top ``T = 2 (ground +
obstacle height)``. The hex blocks when ``T >= Ea + t (Eb - Ea)``, i.e. ``N (T - Ea) >= D (Eb -
Ea)``: exact in integers, and the same inequality from either end. The vectorized path
compares floats: ``X = (T - Ea) * (N / D)`` against ``Y = Eb - Ea`` with a tolerance of
``1e-9``. When ``X != Y`` they differ by at least ``1 / N`` (``>= 1e-7`` on the largest 500x500
map); when ``|X| <= 40`` the float error is below ``1e-14``, and when ``|X| > 40`` the sign of
``X - Y`` cannot change (``|Y| <= 19``). So the float test decides exactly like the integer one.

The on-the-fly path of maps without a plan (:func:`_round_fly`, issue 22) compares ``g = T -
Ea`` (an integer, exact in float) against ``w = (k / N) * D`` with ``k = Y - 1e-9``, all three
operations rounded: ``w = (Y - 1e-9) (D / N) (1 + e)`` with ``|e| <= 3 * 2**-53``, so ``w`` is
within ``1e-14 D / N`` of ``(Y - 1e-9) D / N``. If ``g N >= Y D`` then ``g >= Y D / N``, which
exceeds that by ``1e-9 D / N``: ``g >= w``. Otherwise ``g N <= Y D - 1``, so ``g <= Y D / N -
1 / N``, below ``w`` because ``1 / N > 2e-9 D / N`` (``D < 2**24``): ``g < w``. Again exact.

Worked example (R3.3, hexside LOS). In odd-q, B02 and B03 sit half a hex lower than A03 and
C03, so the segment from the centre of A03 to the centre of C03 runs exactly along the hexside
B02|B03 (scaled coordinates: A03 (0, 4), C03 (6, 4), the side from (2, 4) to (4, 4))::

      ____        ____
     /    \      /    \
    / A02  \____/ C02  \
    \      /    \      /
     \____/ B02  \____/
     /    \      /    \
    / A03 *\====/* C03 \     the segment A03-C03 (centres *) runs along the
    \      /    \      /     hexside shared by B02 and B03 ("====")
     \____/ B03  \____/
          \      /
           \____/

Woods in B02 only, or in B03 only: clear. Woods in both: blocked (the tests draw these and
more cases: vertex touches, heights, wrecks, fire, rubble).

>>> from hexwar.model.maps import BattleMap
>>> from hexwar.model.hexgrid import Hex
>>> m = BattleMap.new(6, 6)
>>> m.set_terrain(Hex.from_label("C03"), "woods")
>>> line_of_sight(m, Hex.from_label("A03"), Hex.from_label("E03")).status
'blocked'
>>> line_of_sight(m, Hex.from_label("A03"), Hex.from_label("E03")).reason
'terrain'
>>> offset_geometry(2, 0).intervening
((1, 0),)
"""

from __future__ import annotations

import weakref
from collections import OrderedDict
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np

from .hexgrid import Hex, HexLabelError
from .los_viewer import VIEWER_PLAN_MAX_HEXES, scan, viewer_plan
from .los_viewer import ragged as _ragged
from .maps import BattleMap, MapError

__all__ = [
    "BLOCKED",
    "CLEAR",
    "HINDERED",
    "REASON_NAMES",
    "STATUS_NAMES",
    "WRECK_LOS_HEIGHT",
    "HeightArrays",
    "LosResult",
    "OffsetGeometry",
    "height_arrays",
    "los_content_key",
    "line_of_sight",
    "offset_geometry",
    "visibility",
    "visibility_with_hindrances",
    "visibility_near",
    "near_window",
]

CLEAR, HINDERED, BLOCKED = 0, 1, 2
"""Status codes of :func:`visibility` (R3.6)."""
STATUS_NAMES = ("clear", "hindered", "blocked")
"""Status names by code, as :attr:`LosResult.status` spells them."""
REASON_NAMES = ("higher ground", "terrain", "building", "wreck", "fire")
"""Why a hex blocks, by the per-hex reason code of :class:`HeightArrays` (0: ground alone)."""
WRECK_LOS_HEIGHT = 1
"""R3.5: obstacle height (levels) of a wreck counter that carries the LOS symbol."""

_R_GROUND, _R_TERRAIN, _R_BUILDING, _R_WRECK, _R_FIRE = range(5)
_BIG2 = 10**9  # "infinite" top in doubled levels: fire (R3.5, R8.4); -_BIG2: nothing there
_PAD = 2  # hexes of never-blocking border around the map (spine partners may lie off the map)
_TOL = 1e-9  # float tolerance of the vectorized test; see the module docstring for the proof
_PLAN_MAX_BYTES = 96 << 20  # larger shapes have no all-offsets plan (about 16 bytes an entry)
_PLAN_CACHE_BYTES = 224 << 20  # all plans together
_PLAN_CACHE_SIZE = 4
_GEO_CACHE_ENTRIES = 1_000_000  # per-map cache of single-query offsets, in crossed hexes
_BLOCK_ROWS = 8  # a single query's cache miss computes this many offsets (same dq) at once


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


# --------------------------------------------------------------------------------------
# Per-map height arrays (R3.4, R3.5), rebuilt when the map's version changes
# --------------------------------------------------------------------------------------
@dataclass(frozen=True, eq=False)
class HeightArrays:
    """What each hex of a map puts in the way of a line of sight (R3.4, R3.5).

    Attributes:
        version: the ``battlemap.version`` these arrays were built from.
        block_top: ``float64 [height, width]`` top of the hex in levels: ground level plus the
            obstacle height of its blocking feature (woods, intact building, wreck with the LOS
            symbol: :data:`WRECK_LOS_HEIGHT`); ground level alone where there is none (hills
            block by ground, R3.4); ``inf`` where a building burns (R8.4). Rubble adds
            nothing (R8.3).
        hinder_top: ``float64 [height, width]`` ground level + height of hindrance terrain
            (brush, orchard, wheat...), ``-inf`` where the hex holds none.
        reason: ``int8 [height, width]`` index into :data:`REASON_NAMES` of the feature that
            sets ``block_top`` (0: ground alone).
    """

    version: int
    block_top: np.ndarray
    hinder_top: np.ndarray
    reason: np.ndarray


def _compute_tops(m: BattleMap) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Doubled-level block top, hindrance top (int64) and reason (int8), all ``[H, W]``."""
    types = m.rules.types
    los_b = np.array([t.los == "blocking" for t in types], dtype=bool)
    los_h = np.array([t.los == "hindrance" for t in types], dtype=bool)
    th = np.array([t.height for t in types], dtype=np.int64)
    isb = np.array([t.is_building for t in types], dtype=bool)
    tt = m.terrain
    intact = ~(isb[tt] & m.rubble)  # R8.3: rubble removes the building's LOS effect
    level = m.level.astype(np.int64)
    feat = np.where(los_b[tt] & intact, th[tt], -1)  # obstacle height, -1 = no feature
    reason = np.where(los_b[tt] & intact, np.where(isb[tt], _R_BUILDING, _R_TERRAIN), _R_GROUND).astype(
        np.int8
    )
    for h, stack in m.wrecks.items():
        if any(m.rules.wrecks[w].los for w in stack if w in m.rules.wrecks):
            col, row = h.offset
            if 0 <= col < m.width and 0 <= row < m.height and WRECK_LOS_HEIGHT > feat[row, col]:
                feat[row, col] = WRECK_LOS_HEIGHT
                reason[row, col] = _R_WRECK
    top2 = 2 * (level + np.maximum(feat, 0))
    burning = m.fire & intact
    top2[burning] = _BIG2  # R3.5/R8.4: building fire blocks at every level
    reason[burning] = _R_FIRE
    hind2 = np.where(los_h[tt] & intact, 2 * (level + th[tt]), -_BIG2)
    return top2, hind2, reason


def _padded(a: np.ndarray, fill: int) -> np.ndarray:
    return np.pad(a, _PAD, mode="constant", constant_values=fill)


_HEX_LIST_CELLS = 40_000  # padded cells up to which a map's state keeps a list of Hex objects


class _LazyHexes:
    """``hexes[flat]``: the Hex of a padded-flat index, made on demand (large maps)."""

    __slots__ = ("wp",)

    def __init__(self, wp: int) -> None:
        self.wp = wp

    def __getitem__(self, flat: int) -> Hex:
        row, col = divmod(flat, self.wp)
        return Hex.from_offset(col - _PAD, row - _PAD)


@lru_cache(maxsize=16)
def _padded_hexes(height: int, width: int) -> tuple[Hex, ...]:
    """The Hex of every padded cell of a map shape, by padded-flat index (shared by every map
    of the shape: a game starts on a copy of its scenario's map; issue 22)."""
    return tuple(
        Hex.from_offset(col, row) for row in range(-_PAD, height + _PAD) for col in range(-_PAD, width + _PAD)
    )


class _MapState:
    """Padded flat arrays of one map for the engine; refreshed on version change."""

    __slots__ = (
        "shape",
        "H",
        "W",
        "Wp",
        "row_digits",
        "hexes",
        "version",
        "bt2",
        "ht2",
        "lv2",
        "reason",
        "btf",
        "htf",
        "any_hind",
        "eye2",
        "eyef",
        "tcol",
        "trow",
        "trow_half",
        "geo",
        "arrays",
        "plans",
        "geo_entries",
        "eye_min",
        "eye_max",
        "patch_rel",
        "content",
        "ax",
        "__weakref__",
    )

    def __init__(self, m: BattleMap) -> None:
        self.H, self.W = m.height, m.width
        self.shape = (m.height, m.width)
        self.Wp = m.width + 2 * _PAD
        self.row_digits = m.row_digits
        # Hex objects of the padded cells, for query results: a list on small maps, made on
        # demand on large ones (254k objects on 500x500 made the garbage collector pause
        # inside queries; issue 22).
        self.hexes: Any = (
            _padded_hexes(m.height, m.width)
            if (m.height + 2 * _PAD) * self.Wp <= _HEX_LIST_CELLS
            else _LazyHexes(self.Wp)
        )
        self.geo: dict[tuple[int, int, int], Any] = {}
        self.plans: list[Any] = [None, None]  # weak references to the shape's plans (the LRU owns them)
        self.geo_entries = 0
        self.patch_rel = _patch_rel(self.Wp)
        # per target in (col, row) order: its column, its row, and row - col // 2 (so a
        # viewer's axial dr is one subtraction, see _visibility)
        self.tcol = np.repeat(np.arange(self.W, dtype=np.int64), self.H)
        self.trow = np.tile(np.arange(self.H, dtype=np.int64), self.W)
        self.trow_half = self.trow - self.tcol // 2
        self.version = -1
        self.content: bytes = b""
        self.refresh(m)

    def refresh(self, m: BattleMap) -> None:
        top2, hind2, reason = _compute_tops(m)
        # everything a query reads is derived from these four arrays (and the shape), so equal
        # bytes mean equal answers to every query (issue 22: :func:`los_content_key`); a new
        # version with the same content (an artillery marker, a fire outside a building)
        # keeps the derived arrays and lists
        content = b"".join(
            (
                np.array(self.shape, dtype=np.int64).tobytes(),
                top2.tobytes(),
                hind2.tobytes(),
                reason.tobytes(),
                m.level.astype(np.int64).tobytes(),
            )
        )
        if self.version >= 0 and content == self.content:
            self.arrays = HeightArrays(m.version, *self.arrays_of())
            self.version = m.version
            return
        self.content = content
        self.ax: tuple[int, int, np.ndarray, np.ndarray] | None = None
        bt2 = _padded(top2, -_BIG2).ravel()
        ht2 = _padded(hind2, -_BIG2).ravel()
        lv2 = _padded(2 * m.level.astype(np.int64), -_BIG2).ravel()
        self.bt2 = bt2.tolist()
        self.ht2 = ht2.tolist()
        self.lv2 = lv2.tolist()
        self.reason = _padded(reason, 0).ravel().tolist()
        self.btf = bt2.astype(np.float64)
        self.htf = ht2.astype(np.float64)
        self.any_hind = bool((hind2 > -_BIG2).any())
        self.eye2 = 2 * m.level.astype(np.int64) + 1  # [H, W] doubled eye heights
        self.eyef = self.eye2.T.ravel().astype(np.float64)  # the same, in (col, row) order
        self.eye_min, self.eye_max = int(self.eye2.min()), int(self.eye2.max())
        arrays = (
            np.where(top2 >= _BIG2, np.inf, top2 / 2.0),
            np.where(hind2 <= -_BIG2, -np.inf, hind2 / 2.0),
            reason,
        )
        for a in arrays:
            a.flags.writeable = False  # shared with every caller
        self.arrays = HeightArrays(m.version, *arrays)
        self.version = m.version

    def axial(self) -> tuple[int, int, np.ndarray, np.ndarray]:
        """``(stride, r0, top_b, top_h)``: the padded block and hindrance tops (doubled levels,
        float64) in the axial layout of :func:`_axial_index`, where a crossed hex's index is
        linear in its axial offset; ``-inf`` outside the padded map. Built on first use (the
        one-to-all path of maps without a plan, issue 22)."""
        if self.ax is None:
            stride, r0, size, where = _axial_index(self.H, self.W)
            tb = np.full(size, -np.inf)
            tb[where] = self.btf
            th = np.full(size, -np.inf)
            th[where] = self.htf
            self.ax = (stride, r0, tb, th)
        return self.ax

    def arrays_of(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The current block top, hindrance top and reason arrays (shared, read-only)."""
        a = self.arrays
        return a.block_top, a.hinder_top, a.reason

    def flat(self, m: BattleMap, h: Hex) -> int:
        """Padded flat index of on-map hex ``h``; MapError naming it when off the map."""
        try:
            col = h.q
            row = h.r + (col - (col & 1)) // 2
        except AttributeError:
            raise MapError(f"expected a Hex, got {h!r}") from None
        if not (0 <= col < self.W and 0 <= row < self.H):
            m.index(h)  # raises MapError with the label
        return (row + _PAD) * self.Wp + col + _PAD


@lru_cache(maxsize=16)
def _axial_index(height: int, width: int) -> tuple[int, int, int, np.ndarray]:
    """The axial layout of a padded map shape: ``(stride, r0, size, where)``.

    The hex in column ``c``, row ``w`` (odd-q offset) has axial ``r = w - (c >> 1)`` and sits
    at index ``(r + r0) * stride + c + _PAD`` (``stride`` = padded width); ``where``: int64
    [padded cells] that index of every padded cell, by padded-flat index. A hex at axial
    offset ``(q, r)`` from another is ``r * stride + q`` further on (issue 22).
    """
    stride = width + 2 * _PAD
    r0 = _PAD + ((width - 1 + _PAD) >> 1)
    c = np.arange(-_PAD, width + _PAD, dtype=np.int64)
    w = np.arange(-_PAD, height + _PAD, dtype=np.int64)
    where = ((w[:, None] - (c[None, :] >> 1) + r0) * stride + (c + _PAD)[None, :]).ravel()
    size = (height + _PAD + r0 + 1) * stride
    return stride, r0, size, where


_STATES: weakref.WeakKeyDictionary[BattleMap, _MapState] = weakref.WeakKeyDictionary()
_last: tuple[Any, _MapState | None] = (lambda: None, None)  # (weakref to the last map, its state)


def _state(m: BattleMap) -> _MapState:
    """The engine state of ``m``, refreshed when its version changed (no stale cache)."""
    global _last
    ref, st = _last
    if ref() is not m or st is None:
        st = _STATES.get(m)
        if st is None or st.shape != (m.height, m.width):
            if not isinstance(m, BattleMap):
                raise TypeError(f"expected a BattleMap, got {type(m).__name__}")
            st = _MapState(m)
            _STATES[m] = st
        _last = (weakref.ref(m), st)
    elif st.shape != (m.height, m.width):
        _last = (lambda: None, None)
        return _state(m)
    if st.version != m.version:
        st.refresh(m)
    return st


def height_arrays(battlemap: BattleMap) -> HeightArrays:
    """The blocking top, hindrance top and reason code of every hex (R3.4, R3.5, R8.1-R8.4).

    Cached per map and rebuilt the first time it is asked for after ``battlemap.version``
    changed, so a wreck, fire or rubble placed through the map's methods is seen at once.
    The arrays are shared and read-only.

    >>> from hexwar.model.maps import BattleMap
    >>> m = BattleMap.new(3, 2, fill="woods")
    >>> height_arrays(m).block_top.tolist()
    [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]]
    """
    return _state(battlemap).arrays


def los_content_key(battlemap: BattleMap) -> bytes:
    """What every LOS answer on ``battlemap`` depends on, as bytes (R3.4, R3.5, R8.1-R8.4).

    The map's shape, the blocking and hindrance tops, the reason codes and the ground levels
    of every hex, from which every query's result is computed (rebuilt, like
    :func:`height_arrays`, when ``battlemap.version`` changed). Two maps, or one map at two
    versions, with equal keys give equal answers to every query; a change that leaves them
    (an artillery marker, a fire outside a building, a wreck without the LOS symbol) keeps
    the key, so caches of LOS results keyed by it stay valid across it (issue 22).
    """
    return _state(battlemap).content  # type: ignore[no-any-return]


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


def _rel(q: np.ndarray, r: np.ndarray, parity: int, wp: int) -> np.ndarray:
    """Padded-flat displacement of axial offsets (q, r) from a viewer in a column of ``parity``."""
    return (r + (q + parity) // 2) * wp + q


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


# --------------------------------------------------------------------------------------
# Single query
# --------------------------------------------------------------------------------------
def _label(h: Hex, row_digits: int) -> str:
    try:
        return h.to_label(row_digits)
    except HexLabelError:
        return f"axial ({h.q}, {h.r})"


@dataclass(frozen=True, slots=True)
class LosResult:
    """The answer of :func:`line_of_sight` (R3.6).

    Attributes:
        a: the firer's hex (LOS runs from its centre, R3.1).
        b: the target's hex.
        status: ``"clear"``, ``"hindered"`` or ``"blocked"``.
        intervening: hexes whose interior the segment crosses, in order from ``a`` (R3.2).
        spine_pairs: pairs of hexes whose shared hexside the segment runs along, in order from
            ``a`` (R3.3). They are not intervening hexes (the segment never enters them). A
            pair on the map edge has one hex off the map, which never blocks or hinders.
        blocking: the first blocking hex from ``a`` (for a blocking spine pair, its first
            hex), or ``None``.
        reason: why ``blocking`` blocks: ``"terrain"``, ``"building"``, ``"wreck"``,
            ``"fire"`` or ``"higher ground"`` (the hex's ground level alone reaches the LOS
            height); ``None`` unless blocked.
        hindrances: hindering intervening hexes plus hindering spine pairs (R3.5): each adds
            1 to the attack value the firer needs. 0 when blocked.
        row_digits: digits of row labels on the map (2, or 3 past 99 rows), for labels.
    """

    a: Hex
    b: Hex
    status: str
    intervening: tuple[Hex, ...]
    spine_pairs: tuple[tuple[Hex, Hex], ...]
    blocking: Hex | None
    reason: str | None
    hindrances: int
    row_digits: int = field(default=2, repr=False, compare=False)

    @property
    def visible(self) -> bool:
        """True unless blocked: ``a`` and ``b`` may fire at each other (R3.1)."""
        return self.status != "blocked"

    def to_json(self) -> dict[str, Any]:
        """JSON-ready dict: ``from, to, status, intervening, spine_pairs, blocking, reason,
        hindrances`` with hexes as map labels (``"D07"``)."""
        rd = self.row_digits
        return {
            "from": _label(self.a, rd),
            "to": _label(self.b, rd),
            "status": self.status,
            "intervening": [_label(h, rd) for h in self.intervening],
            "spine_pairs": [[_label(p, rd), _label(q, rd)] for p, q in self.spine_pairs],
            "blocking": None if self.blocking is None else _label(self.blocking, rd),
            "reason": self.reason,
            "hindrances": self.hindrances,
        }


_new = object.__new__
(_set_a, _set_b, _set_status, _set_inter, _set_pairs, _set_blocking, _set_reason, _set_hind, _set_digits) = (
    LosResult.__dict__[f].__set__
    for f in (
        "a",
        "b",
        "status",
        "intervening",
        "spine_pairs",
        "blocking",
        "reason",
        "hindrances",
        "row_digits",
    )
)


def _result(
    a: Hex,
    b: Hex,
    status: str,
    intervening: tuple[Hex, ...],
    pairs: tuple[tuple[Hex, Hex], ...],
    blocking: Hex | None,
    reason: str | None,
    hind: int,
    digits: int,
) -> LosResult:
    """``LosResult(...)`` without the frozen dataclass's slow ``__init__`` (same fields)."""
    r = _new(LosResult)
    _set_a(r, a)
    _set_b(r, b)
    _set_status(r, status)
    _set_inter(r, intervening)
    _set_pairs(r, pairs)
    _set_blocking(r, blocking)
    _set_reason(r, reason)
    _set_hind(r, hind)
    _set_digits(r, digits)
    return r


def _plan_of(st: _MapState, parity: int) -> _Plan | None:
    """The shape's plan for ``parity`` if one is built (weakly held: an evicted plan dies)."""
    ref = st.plans[parity]
    plan = ref() if ref is not None else None
    if plan is None:
        got = _peek_plan(st.H, st.W, parity)
        if isinstance(got, _Plan):
            plan = got
            st.plans[parity] = weakref.ref(got)
    return plan


def _ints(a: np.ndarray) -> bytes:
    """The int64 bytes of an int array, read back with ``memoryview(...).cast("q")``.

    Bytes, because the garbage collector never tracks them (nor, after its first look, a
    tuple holding only bytes and ints): every full collection walks every tracked object,
    and ``array('q')`` objects are tracked. A 200x200 map's million cached entries in
    200,000 arrays made one collection, and so one single query, take 150-190 ms (issue 22).
    """
    return np.ascontiguousarray(a, dtype=np.int64).tobytes()


def _geo_block(st: _MapState, parity: int, dq: int, drow: int) -> None:
    """Put the crossing lists of a block of :data:`_BLOCK_ROWS` offsets around ``(dq, drow)`` into ``st.geo``.

    One vectorized :func:`_bulk_geometry` call for offsets with the same column difference
    ``dq`` and nearby row differences: a single query never builds more than this block
    (a few milliseconds even on a 500x500 map), never the whole plan (issue 22).
    """
    lo = max(-(st.H - 1), drow - drow % _BLOCK_ROWS)
    hi = min(st.H - 1, lo + _BLOCK_ROWS - 1)
    drows = np.arange(lo, hi + 1, dtype=np.int64)
    dqs = np.full(drows.size, dq, dtype=np.int64)
    drs = drows - (dq + parity) // 2
    b = _bulk_geometry(dqs, drs)
    wp = st.Wp
    # int64 bytes (_ints), not tuples, lists or arrays of ints: nothing the garbage collector
    # tracks. Cached tuples of ints stayed in the young generation until a collection walked
    # them all (40-50 ms pauses inside single queries on a 200x200 map), and array('q')
    # objects stay tracked for good (150-190 ms full collections, issue 22).
    rel_i = _ints(_rel(b.q_i, b.r_i, parity, wp))
    rel_l = _ints(_rel(b.q_l, b.r_l, parity, wp))
    rel_r = _ints(_rel(b.q_r, b.r_r, parity, wp))
    d_i, d_s = _ints(b.d_i), _ints(b.d_s)
    pi, ps, ns = b.ptr_i.tolist(), b.ptr_s.tolist(), b.n.tolist()
    for j, dr in enumerate(drs.tolist()):
        a, e, a2, e2 = pi[j], pi[j + 1], ps[j], ps[j + 1]
        a, e, a2, e2 = 8 * a, 8 * e, 8 * a2, 8 * e2  # bytes
        _geo_put(
            st, (parity, dq, dr), (ns[j], 0, rel_i[a:e], d_i[a:e], rel_l[a2:e2], rel_r[a2:e2], d_s[a2:e2])
        )


def _geo_put(st: _MapState, key: tuple[int, int, int], hit: tuple[Any, ...]) -> None:
    """Cache one offset's lists, evicting the oldest offsets while over :data:`_GEO_CACHE_ENTRIES`.

    Eviction is a few offsets at a time (insertion order), never the whole cache at once:
    freeing a million cached ints in one go took 35 ms inside a single query.
    """
    st.geo[key] = hit
    st.geo_entries += len(hit[2]) // 8 + 1
    geo = st.geo
    while st.geo_entries > _GEO_CACHE_ENTRIES and len(geo) > 1:
        old = next(iter(geo))
        st.geo_entries -= len(geo.pop(old)[2]) // 8 + 1


def _query_lists(st: _MapState, parity: int, dq: int, dr: int, drow: int):  # type: ignore[no-untyped-def]
    """``(n, shift, rel_i, d_i, rel_l, rel_r, d_s)`` of one offset from a viewer column parity.

    ``rel - shift`` are padded-flat displacements from the firer's hex; the five lists are
    int64 bytes (:func:`_ints`). Answers are kept per map (geometry only, so never stale), taken from the shape's plan when
    :func:`visibility` has built one, else computed a block of offsets at a time
    (:func:`_geo_block`): no query builds a whole plan.
    """
    key = (parity, dq, dr)
    hit = st.geo.get(key)
    if hit is not None:
        return hit
    plan = _plan_of(st, parity)
    if plan is not None:
        k = (dq + st.W - 1) * (2 * st.H - 1) + drow + st.H - 1
        s, e = plan.ptr_i_l[k], plan.ptr_i_l[k + 1]
        s2, e2 = plan.ptr_s_l[k], plan.ptr_s_l[k + 1]
        hit = (
            plan.n_l[k],
            plan.shift,
            _ints(plan.rel_i[s:e]),
            _ints(plan.d_i[s:e]),
            _ints(plan.rel_l[s2:e2]),
            _ints(plan.rel_r[s2:e2]),
            _ints(plan.d_s[s2:e2]),
        )
        _geo_put(st, key, hit)
        return hit
    _geo_block(st, parity, dq, drow)
    return st.geo[key]


def line_of_sight(battlemap: BattleMap, a: Hex, b: Hex) -> LosResult:
    """Line of sight from the centre of ``a`` to the centre of ``b`` (R3.1-R3.6).

    Args:
        battlemap: the map; its terrain, ground levels and overlays (wrecks with the LOS
            symbol, fire, rubble) are read through :func:`height_arrays`, so changes made
            through the map's methods are seen by the next query.
        a: the firer's hex (on the map).
        b: the target's hex (on the map).

    Returns:
        a :class:`LosResult`. ``line_of_sight(m, a, b).status == line_of_sight(m, b, a).status``
        always (R3.1), and the intervening hexes of one are those of the other reversed.

    Raises:
        MapError: naming the hex when ``a`` or ``b`` is off the map or not a ``Hex``.

    A unit sees its own hex and its 6 neighbours (R3.1): no hex lies between them.
    """
    st = _state(battlemap)
    try:
        ca, cb = a.q, b.q
        ra = a.r + (ca - (ca & 1)) // 2
        rb = b.r + (cb - (cb & 1)) // 2
    except AttributeError:
        raise MapError(f"line_of_sight needs two Hex values, got {a!r} and {b!r}") from None
    if not (0 <= ca < st.W and 0 <= ra < st.H):
        battlemap.index(a)  # raises MapError naming the hex
    if not (0 <= cb < st.W and 0 <= rb < st.H):
        battlemap.index(b)
    dq = cb - ca
    dr = b.r - a.r
    if -1 <= dq <= 1 and -1 <= dr <= 1 and -1 <= dq + dr <= 1:
        return _result(a, b, "clear", (), (), None, None, 0, st.row_digits)
    wp = st.Wp
    fa = (ra + _PAD) * wp + ca + _PAD
    n, shift, *lists = _query_lists(st, ca & 1, dq, dr, rb - ra)
    rel_i, d_i, rel_l, rel_r, d_s = [memoryview(x).cast("q") for x in lists]
    base = fa - shift  # base + rel is the padded-flat index of a crossed hex
    bt, ht, lv2 = st.bt2, st.ht2, st.lv2
    ea = lv2[fa] + 1
    k = lv2[(rb + _PAD) * wp + cb + _PAD] + 1 - ea  # Eb - Ea, doubled levels
    blk = -1  # flat index of the first blocking hex
    blk_d = 0
    hind = 0
    if not d_s:
        for x, d in zip(rel_i, d_i, strict=True):
            x += base
            dk = d * k
            if n * (bt[x] - ea) >= dk:  # R3.4: top >= LOS height
                blk, blk_d = x, d
                break
            if n * (ht[x] - ea) >= dk:  # R3.5: a hindrance that reaches the LOS
                hind += 1
    else:
        steps = sorted(
            [(d, base + x, -1) for x, d in zip(rel_i, d_i, strict=True)]
            + [(d, base + x, base + y) for x, y, d in zip(rel_l, rel_r, d_s, strict=True)]
        )
        for d, x, y in steps:
            dk = d * k
            if y < 0:
                if n * (bt[x] - ea) >= dk:
                    blk, blk_d = x, d
                    break
                if n * (ht[x] - ea) >= dk:
                    hind += 1
            else:  # R3.3 spine pair: each side judged by the R3.4 test at the same height
                bx_ = n * (bt[x] - ea) >= dk
                by_ = n * (bt[y] - ea) >= dk
                if bx_ and by_:
                    blk, blk_d = x, d
                    break
                if (bx_ or n * (ht[x] - ea) >= dk) and (by_ or n * (ht[y] - ea) >= dk):
                    hind += 1
    hexes = st.hexes
    intervening = tuple([hexes[base + x] for x in rel_i])
    pairs = (
        tuple([(hexes[base + x], hexes[base + y]) for x, y in zip(rel_l, rel_r, strict=True)]) if d_s else ()
    )
    if blk < 0:
        return _result(
            a, b, "hindered" if hind else "clear", intervening, pairs, None, None, hind, st.row_digits
        )
    if n * (lv2[blk] - ea) >= blk_d * k:
        reason = "higher ground"  # the ground alone reaches the LOS height (R3.4)
    else:
        reason = REASON_NAMES[st.reason[blk]]
    return _result(a, b, "blocked", intervening, pairs, hexes[blk], reason, 0, st.row_digits)


# --------------------------------------------------------------------------------------
# One viewer against every hex (vectorized, with early exit)
# --------------------------------------------------------------------------------------
# Issue 22. Most lines on a real map are blocked a few hexes from the viewer, so a target's
# crossing list is read in rounds, nearest hexes first, and a target leaves as soon as it is
# blocked:
#
# * round 1 reads the first _TAB_J crossed hexes of every target from the shape's near
#   table (:class:`_Table`): dense [W, H, J] arrays sliced per viewer (no per-target index
#   arrays), whose entries are hex codes into a small patch of heights around the viewer;
# * the targets that survive read the rest of their lists from the shape's plan when the
#   map is small enough for one, else in windows of growing length computed on the fly by
#   :func:`_fly_interior` (``dlo < D <= dhi``; lines along hexside directions by
#   :func:`_bulk_geometry`), chunked so memory stays bounded.
#
# Blocked targets need nothing more (their hindrance count is 0), and a target that is not
# blocked has read every entry, so its hindrance maximum and count are complete: the answer
# is exactly the one of reading every list in full.
_TAB_J = 8  # entries per offset in the near table
_TAB_AHEAD = _TAB_J + 2  # hex lengths along each line the table's geometry window covers
_TAB_R = _TAB_J + 1  # table entries lie within this many hexes of the viewer
_TAB_SIDE = 2 * _TAB_R + 1
_TAB_SENTINEL = _TAB_SIDE * _TAB_SIDE  # patch cell that never blocks nor hinders
_TAB_EAGER_OFFSETS = 300_000  # smaller shapes build the table at their first visibility call
_TAB_CACHE_BYTES = 160 << 20  # all near tables together (a 500x500 shape's is about 90 MB)
_FLY_CANDIDATES = 1 << 20  # candidate hexes per on-the-fly geometry chunk (bounds memory)
_FAR_END = True  # round 1 also reads each list from the target's end
_FAR_J = 4  # ... its last _FAR_J entries (at most _TAB_J; 4 measured 8-16% faster than 8)
_FLY_GROWTH = 3  # each on-the-fly window is this many times longer than the last
_FLY_EDGE = 3  # hex lines at each end of an on-the-fly window that its D bounds can cut
_FLY_ENTRIES = 1 << 18  # about this many crossed hexes per on-the-fly chunk (temporaries in cache)
_N_CLASSES = 12  # lattice symmetry classes of _canon
_PATCH_Q = np.repeat(np.arange(-_TAB_R, _TAB_R + 1, dtype=np.int64), _TAB_SIDE)
_PATCH_R = np.tile(np.arange(-_TAB_R, _TAB_R + 1, dtype=np.int64), _TAB_SIDE)


@dataclass(eq=False)
class _Table:
    """The first :data:`_TAB_J` crossed hexes of every offset of a map shape's window.

    Indexed ``[dcol + W - 1, drow + H]`` for ``dcol`` in ``-(W-1)..W-1`` and ``drow`` in
    ``-H..H-1``, as seen from a viewer in an even column; a viewer in an odd column reads odd
    ``dcol`` one row up (:func:`_tab_views`). Spine offsets (lines along hexsides, R3.3) have
    no entries here: the later rounds read them whole.
    """

    H: int
    W: int
    code: np.ndarray  # int16 [J, 2W-1, 2H]: (q + R) * SIDE + (r + R) of the axial offset, or SENTINEL
    dd: np.ndarray  # int32 [J, 2W-1, 2H]: D (1 for the sentinel)
    cnt: np.ndarray  # int16 [2W-1, 2H]: entries held here
    more: np.ndarray  # bool [2W-1, 2H]: the list goes on past them
    dlo: np.ndarray  # int64 [2W-1, 2H]: the rest of the list is the entries with D > dlo
    nf: np.ndarray  # float64 [2W-1, 2H]: N of the offset (12 for the viewer's own hex: no entries)
    nbytes: int = 0


_TABLES: OrderedDict[tuple[int, int], _Table] = OrderedDict()
_SEEN_SHAPES: OrderedDict[tuple[int, int], None] = OrderedDict()


def _build_table(H: int, W: int) -> _Table:
    """Compute the near table of an ``H`` x ``W`` shape (exact geometry, a window per offset)."""
    J, R, C = _TAB_J, _TAB_R, 2 * W - 1
    dq = np.repeat(np.arange(-(W - 1), W, dtype=np.int64), 2 * H)
    drow = np.tile(np.arange(-H, H, dtype=np.int64), C)
    dr = drow - dq // 2  # axial offset from a viewer in an even column
    K = dq.size
    code = np.full((J, K), _TAB_SENTINEL, dtype=np.int16)
    dd = np.ones((J, K), dtype=np.int32)
    cnt = np.zeros(K, dtype=np.int16)
    more = np.zeros(K, dtype=bool)
    dlo = np.zeros(K, dtype=np.int64)
    nhex = np.maximum(np.abs(dq), np.maximum(np.abs(dr), np.abs(dq + dr)))
    bx, by = 3 * dq, 2 * dr + dq
    n = bx * bx + 3 * by * by
    spine = ((by == 0) | (bx == by) | (bx == -by)) & (n > 0)
    dhi = np.where(nhex > _TAB_AHEAD, n * _TAB_AHEAD // np.maximum(nhex, 1), n)
    chunk = max(
        1, _FLY_CANDIDATES // (16 * _TAB_AHEAD)
    )  # about 25 candidates an offset: ~60 MB of temporaries
    for s in range(0, K, chunk):
        e = min(K, s + chunk)
        b = _bulk_geometry(dq[s:e], dr[s:e], np.zeros(e - s, dtype=np.int64), dhi[s:e])
        lens = np.diff(b.ptr_i)
        kk = np.repeat(np.arange(e - s), lens)
        rank = np.arange(kk.size) - b.ptr_i[kk]
        keep = (rank < J) & ~spine[s:e][kk]  # spine lines step two hexes at a time: read whole later
        q, r = b.q_i[keep], b.r_i[keep]
        if q.size and max(int(np.abs(q).max()), int(np.abs(r).max())) > R:
            raise AssertionError("near-table entry beyond its patch")  # pragma: no cover - geometry invariant
        kg = kk[keep] + s
        code[rank[keep], kg] = (q + R) * _TAB_SIDE + (r + R)
        dd[rank[keep], kg] = b.d_i[keep]  # D < N < 2**24
        cnt[s:e] = np.minimum(lens, J)
        over = lens > J
        dl = dhi[s:e].copy()
        dl[over] = b.d_i[b.ptr_i[:-1][over] + J - 1]
        dlo[s:e] = dl
        more[s:e] = over | (dhi[s:e] < n[s:e])
    code[:, spine] = _TAB_SENTINEL
    dd[:, spine] = 1
    cnt[spine] = 0
    more[spine] = True
    dlo[spine] = 0
    shp = (C, 2 * H)
    t = _Table(
        H,
        W,
        code.reshape(J, *shp),
        dd.reshape(J, *shp),
        cnt.reshape(shp),
        more.reshape(shp),
        dlo.reshape(shp),
        np.where(n > 0, n, 12).astype(np.float64).reshape(shp),
    )
    t.nbytes = code.nbytes + dd.nbytes + cnt.nbytes + more.nbytes + dlo.nbytes + t.nf.nbytes
    return t


def _get_table(H: int, W: int) -> _Table | None:
    """The near table of a shape: built at the first visibility call of a small shape, at the
    second of a large one (a single call is cheaper without it), then kept (LRU, byte cap)."""
    key = (H, W)
    t = _TABLES.get(key)
    if t is not None:
        _TABLES.move_to_end(key)
        return t
    if (2 * W - 1) * 2 * H > _TAB_EAGER_OFFSETS and key not in _SEEN_SHAPES:
        _SEEN_SHAPES[key] = None
        while len(_SEEN_SHAPES) > 16:
            _SEEN_SHAPES.popitem(last=False)
        return None
    t = _build_table(H, W)
    _TABLES[key] = t
    while sum(x.nbytes for x in _TABLES.values()) > _TAB_CACHE_BYTES and len(_TABLES) > 1:
        _TABLES.popitem(last=False)
    return t


def _tab_views(a: np.ndarray, H: int, W: int, col: int, row: int) -> list[tuple[slice, np.ndarray]]:
    """``(target column slice, view)`` pairs covering the viewer's targets in table ``a``.

    Each view is indexed ``[..., target col within the slice, target row]`` (the last two
    axes of ``a`` are the table's offset axes).
    """
    c0 = W - 1 - col
    even = a[..., c0 : c0 + W, H - row : 2 * H - row]
    if not col & 1:
        return [(slice(None), even)]
    odd = a[..., c0 : c0 + W, H - row - 1 : 2 * H - row - 1]  # dcol odd: one row up (see _Table)
    return [(slice(0, None, 2), odd[..., 0::2, :]), (slice(1, None, 2), even[..., 1::2, :])]


def _tab_field(a: np.ndarray, H: int, W: int, col: int, row: int) -> np.ndarray:
    """``[W, H]`` copy of a per-offset table field for the viewer's targets."""
    out = np.empty((W, H), dtype=a.dtype)
    for sl, v in _tab_views(a, H, W, col, row):
        out[sl] = v
    return out


def _patch(st: _MapState, col: int, row: int, vals: np.ndarray) -> np.ndarray:
    """``vals`` (padded flat) of the hexes within :data:`_TAB_R` of the viewer, by patch code;
    ``-inf`` off the map and in the sentinel cell."""
    c = col + _PATCH_Q
    r = row + _PATCH_R + (c - (c & 1)) // 2 - (col - (col & 1)) // 2
    ok = (c >= 0) & (c < st.W) & (r >= 0) & (r < st.H)
    out = np.full(_TAB_SENTINEL + 1, -np.inf)
    out[:-1][ok] = vals[((r + _PAD) * st.Wp + c + _PAD)[ok]]
    return out


def _segment_max(vals: np.ndarray, lens: np.ndarray, empty: Any = -np.inf) -> np.ndarray:
    """Max of ``vals`` over consecutive segments of ``lens`` (``empty`` for empty segments)."""
    out = np.full(lens.size, empty, dtype=vals.dtype)
    if vals.size:
        nz = np.flatnonzero(lens)
        last = int(nz[-1]) + 1
        starts = np.cumsum(lens[:last]) - lens[:last]
        out[:last] = np.maximum.reduceat(vals, starts)
        out[:last][lens[:last] == 0] = empty
    return out


def _segment_sum(flags: np.ndarray, lens: np.ndarray) -> np.ndarray:
    """Count of true ``flags`` over consecutive segments of ``lens``."""
    c = np.concatenate([[0], np.cumsum(flags, dtype=np.int64)])
    ends = np.cumsum(lens)
    return c[ends] - c[ends - lens]  # type: ignore[no-any-return]


class _Acc:
    """Per-target running maxima of one viewer's lines (targets in (col, row) order)."""

    __slots__ = ("vb", "vh", "kt", "best_b", "best_h", "cnt")

    def __init__(self, vb: np.ndarray, vh: np.ndarray | None, kt: np.ndarray, counts: bool) -> None:
        self.vb, self.vh, self.kt = vb, vh, kt
        self.best_b = np.full(kt.size, -np.inf)
        self.best_h = np.full(kt.size, -np.inf)
        self.cnt = np.zeros(kt.size, dtype=np.int64) if counts else None

    def interior(
        self,
        tg: np.ndarray,
        rel: np.ndarray,
        inv: np.ndarray,
        lens: np.ndarray,
        block: bool = True,
        hind: bool = True,
    ) -> None:
        """Intervening hexes (R3.2, R3.4, R3.5): ``rel`` into the shifted views, per target
        ``tg``; ``block`` / ``hind`` choose which of the two maxima to update."""
        if not rel.size:
            return
        x = np.empty(rel.size)
        if block:
            np.take(
                self.vb, rel, out=x, mode="clip"
            )  # clip: unbuffered (indices are in range by construction)
            x *= inv
            self.best_b[tg] = np.maximum(self.best_b[tg], _segment_max(x, lens))
        if self.vh is None or not hind:
            return
        np.take(self.vh, rel, out=x, mode="clip")
        x *= inv
        self.best_h[tg] = np.maximum(self.best_h[tg], _segment_max(x, lens))
        if self.cnt is not None:
            self.cnt[tg] += _segment_sum(x >= np.repeat(self.kt[tg], lens), lens)

    def crossed(
        self,
        tg: np.ndarray,
        thr: np.ndarray,
        lens: np.ndarray,
        idx: np.ndarray,
        d: np.ndarray,
        g: np.ndarray,
        tab_b: np.ndarray,
        tab_h: np.ndarray | None,
        ea: int,
    ) -> None:
        """Intervening hexes (R3.2, R3.4, R3.5) from :func:`_fly_entries`: ``idx`` into the
        axial tables, ``D`` of each, per target ``tg`` whose thresholds are ``thr = kt / N``.

        An entry blocks iff ``T - Ea >= thr * D`` (module docstring), and hinders iff its
        hindrance top does; ``g`` holds the larger of the two per cell, so one gather finds
        every entry that does either, and only those few read the tops again.
        """
        if not idx.size:
            return
        w = np.repeat(thr, lens)
        w *= d
        hit = np.flatnonzero(np.take(g, idx, mode="clip") >= w)
        if not hit.size:
            return
        seg = np.searchsorted(np.cumsum(lens), hit, side="right")
        hx, wx = idx[hit], w[hit]
        blk = np.bincount(seg[tab_b[hx] - ea >= wx], minlength=lens.size)
        self.best_b[tg[blk > 0]] = np.inf
        if tab_h is None or self.vh is None:
            return
        hind = np.bincount(seg[tab_h[hx] - ea >= wx], minlength=lens.size)
        self.best_h[tg[hind > 0]] = np.inf
        if self.cnt is not None:
            self.cnt[tg] += hind

    def pairs(
        self, tg: np.ndarray, rel_l: np.ndarray, rel_r: np.ndarray, inv: np.ndarray, lens: np.ndarray
    ) -> None:
        """Spine pairs (R3.3): a pair blocks only if both sides block; it hinders if each side
        blocks or hinders."""
        if not rel_l.size:
            return
        bl = np.take(self.vb, rel_l, mode="clip") * inv
        br = np.take(self.vb, rel_r, mode="clip") * inv
        self.best_b[tg] = np.maximum(self.best_b[tg], _segment_max(np.minimum(bl, br), lens))
        if self.vh is None:
            return
        hl = np.maximum(np.take(self.vh, rel_l, mode="clip") * inv, bl)
        hr = np.maximum(np.take(self.vh, rel_r, mode="clip") * inv, br)
        pair_h = np.minimum(hl, hr)
        self.best_h[tg] = np.maximum(self.best_h[tg], _segment_max(pair_h, lens))
        if self.cnt is not None:
            self.cnt[tg] += _segment_sum(pair_h >= np.repeat(self.kt[tg], lens), lens)


def _far_views(a: np.ndarray, H: int, W: int, col: int, row: int) -> list[tuple[slice, np.ndarray, int]]:
    """``(target column slice, view, target column parity)``: table ``a`` at the offset from
    each target back to the viewer (its list read from the far end, R3.1 symmetry)."""
    rev = a[..., col : col + W, :][..., ::-1, :]  # index col + W - 1 - c for target column c
    out = []
    for p in (0, 1):
        s = 1 if p and not col & 1 else 0  # odd target column, even viewer column: one row up
        rows = rev[..., row + 1 - s : row + H + 1 - s][..., ::-1]
        out.append((slice(p, None, 2), rows[..., p::2, :], p))
    return out


def _patch_rel(wp: int) -> tuple[np.ndarray, np.ndarray]:
    """Padded-flat displacement of every patch code from a hex in an even / odd column
    (the sentinel: far past the end, so a clipped take reads the final ``-inf``)."""
    out = []
    for p in (0, 1):
        rel = np.full(_TAB_SENTINEL + 1, 1 << 40, dtype=np.int64)
        rel[:-1] = _rel(_PATCH_Q, _PATCH_R, p, wp)
        out.append(rel)
    return out[0], out[1]


def _round_table(
    acc: _Acc, st: _MapState, tab: _Table, col: int, row: int, gb: np.ndarray, nt: np.ndarray
) -> None:
    """Round 1: R3.4 on the first :data:`_TAB_J` and the last :data:`_FAR_J` crossed hexes of
    every target (from the viewer's end and the target's, by symmetry), from the near table
    (issue 22: four from the far end measured 8-16% faster than eight). Hindrances come later,
    for the targets left unblocked (:func:`_table_hindrances`).

    ``nt``: ``float64 [W, H]`` N of every target (at least 12, the viewer's own hex included).
    """
    H, W = st.H, st.W
    pb = _patch(st, col, row, gb)
    bb = acc.best_b.reshape(W, H)
    for (sl, code), (_, dd) in zip(
        _tab_views(tab.code, H, W, col, row), _tab_views(tab.dd, H, W, col, row), strict=True
    ):
        x = np.take(pb, code)  # [J, w, H]
        x *= nt[sl][None] / dd
        bb[sl] = np.maximum.reduce(x, axis=0)
    if not _FAR_END:
        return
    # the far end: hexes next to the target, where a line down from high ground is lowest
    gbx = np.append(gb, -np.inf)
    flat = (np.arange(H, dtype=np.int64) + _PAD)[None, :] * st.Wp + (np.arange(W, dtype=np.int64) + _PAD)[
        :, None
    ]  # [W, H] padded-flat index of each target
    rels = st.patch_rel
    for (sl, code, p), (_, dd, _) in zip(
        _far_views(tab.code[:_FAR_J], H, W, col, row),
        _far_views(tab.dd[:_FAR_J], H, W, col, row),
        strict=True,
    ):
        idx = np.take(rels[p], code)
        idx += flat[sl][None]
        x = np.take(gbx, idx, mode="clip")
        n = nt[sl][None]
        x *= n / (n - dd)  # D from the viewer = N - D from the target
        np.maximum(bb[sl], np.maximum.reduce(x, axis=0), out=bb[sl])


def _table_hindrances(
    acc: _Acc, st: _MapState, tab: _Table, col: int, row: int, gh: np.ndarray, tg: np.ndarray, nt: np.ndarray
) -> None:
    """The hindrances (R3.5) of the near-table entries of targets ``tg`` (those not blocked:
    every other target's hindrances never matter, so round 1 leaves them out)."""
    H = st.H
    ph = _patch(st, col, row, gh)
    c, r = np.divmod(tg, H)
    dcol = c - col
    tc = dcol + st.W - 1
    tr = (r - row) + H - ((dcol & 1) if col & 1 else 0)
    x = np.take(ph, tab.code[:, tc, tr])  # [J, len(tg)]
    x *= nt.ravel()[tg][None] / tab.dd[:, tc, tr]
    acc.best_h[tg] = np.maximum(acc.best_h[tg], np.maximum.reduce(x, axis=0))
    if acc.cnt is not None:
        acc.cnt[tg] += np.count_nonzero(x >= acc.kt[tg][None], axis=0)


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


def _visibility(battlemap: BattleMap, viewer: Hex, counts: bool) -> tuple[np.ndarray, np.ndarray | None]:
    st = _state(battlemap)
    try:
        col = viewer.q
        row = viewer.r + (col - (col & 1)) // 2
    except AttributeError:
        raise MapError(f"visibility needs a Hex viewer, got {viewer!r}") from None
    H, W = st.H, st.W
    if not (0 <= col < W and 0 <= row < H):
        battlemap.index(viewer)  # raises MapError naming the hex
    parity = col & 1
    fa = (row + _PAD) * st.Wp + col + _PAD
    ea = st.lv2[fa] + 1
    gb = st.btf - ea  # T - Ea for every padded hex
    gh = st.htf - ea if st.any_hind else None
    # g = T - Ea per padded hex, behind `shift` never-blocking cells, so view[rel + shift]
    # reads hex fa + rel (the plan's and _round_fly's displacements carry the same shift).
    shift = (H + 2 * _PAD) * st.Wp + W + 2 * _PAD
    pre = np.full(shift, -np.inf)
    vb = np.concatenate([pre, gb])[fa:]
    vh = np.concatenate([pre, gh])[fa:] if gh is not None else None
    # R3.4 as a bound on the target's eye: blocked iff Eb - Ea <= (T - Ea) * N / D.
    kt = (st.eyef - ea) - _TOL  # targets in (col, row) order (exact integers less the tolerance)
    acc = _Acc(vb, vh, kt, counts)
    if H * W <= VIEWER_PLAN_MAX_HEXES:  # a game's map: the viewer's own lists, one pass (issue 22)
        if _peek_plan(H, W, parity) is _NOT_BUILT and _plan_fits(H, W):
            _get_plan(H, W, 1 - parity)
        small = _get_plan(H, W, parity)
        if small is not None:
            acc.best_b, acc.best_h, acc.cnt = scan(viewer_plan(small, col, row), vb, vh, kt, counts)
            return _statuses(acc, W, H)
    trow = st.trow
    dq = st.tcol - col
    dr = st.trow_half - (row - col // 2)  # = (trow - row) - (dq + parity) // 2: col - parity is even
    tab = _get_table(H, W)
    if tab is not None:
        nt = _tab_field(tab.nf, H, W, col, row)  # N of every target, 12 for the viewer's own hex
        _round_table(acc, st, tab, col, row, gb, nt)
        alive = _tab_field(tab.more, H, W, col, row).ravel() & (acc.best_b < kt)
        skip = _tab_field(tab.cnt, H, W, col, row).ravel()
    else:
        alive = np.maximum(np.abs(dq), np.maximum(np.abs(dr), np.abs(dq + dr))) > 1
        skip = np.zeros(kt.size, dtype=np.int64)
    tg = np.flatnonzero(alive)
    if _peek_plan(H, W, parity) is _NOT_BUILT and _plan_fits(H, W):
        _get_plan(H, W, 1 - parity)  # both parities now: the first call pays, later ones never (issue 22)
    plan = _get_plan(H, W, parity)
    if plan is not None:
        kp = (dq[tg] + W - 1) * (2 * H - 1) + (trow[tg] - row) + H - 1
        _round_plan(acc, plan, tg, kp, skip[tg].astype(np.int64))
    else:
        dlo = _tab_field(tab.dlo, H, W, col, row).ravel() if tab is not None else skip  # zeros
        _round_fly(
            acc,
            st,
            col,
            row,
            ea,
            tg,
            dq[tg],
            dr[tg],
            dlo[tg],
            _TAB_AHEAD * _FLY_GROWTH if tab is not None else _TAB_AHEAD,
        )
    if tab is not None and gh is not None:
        _table_hindrances(acc, st, tab, col, row, gh, np.flatnonzero(acc.best_b < kt), nt)
    return _statuses(acc, W, H)


def _statuses(acc: _Acc, W: int, H: int) -> tuple[np.ndarray, np.ndarray | None]:
    """``int8 [H, W]`` statuses (R3.4, R3.5) and hindrance counts (0 where blocked) of a
    viewer's finished maxima."""
    kt = acc.kt
    blocked = acc.best_b >= kt
    hindered = ~blocked & (acc.best_h >= kt)
    status = np.where(blocked, BLOCKED, np.where(hindered, HINDERED, CLEAR)).astype(np.int8)
    status = status.reshape(W, H).T.copy()
    if acc.cnt is None:
        return status, None
    acc.cnt[blocked] = 0
    return status, acc.cnt.reshape(W, H).T.copy()


def visibility(battlemap: BattleMap, viewer: Hex) -> np.ndarray:
    """Status of the line of sight from ``viewer`` to every hex of the map (R3), vectorized.

    Args:
        battlemap: the map (overlays changed through its methods are seen at once).
        viewer: the viewing hex (on the map).

    Returns:
        ``int8 [height, width]`` indexed ``[row, col]`` (odd-q offset, like the map's
        arrays): :data:`CLEAR`, :data:`HINDERED` or :data:`BLOCKED`; equal to
        ``line_of_sight(battlemap, viewer, target).status`` for every target.

    Raises:
        MapError: when ``viewer`` is off the map.

    >>> from hexwar.model.maps import BattleMap
    >>> from hexwar.model.hexgrid import Hex
    >>> m = BattleMap.new(5, 1)
    >>> m.set_terrain(Hex.from_label("C01"), "woods")
    >>> visibility(m, Hex.from_label("A01")).tolist()   # C01 hides D01 and E01
    [[0, 0, 0, 2, 2]]
    >>> visibility(m, Hex.from_label("B01")).tolist()   # B01-D01 runs along the side C01|C02: clear
    [[0, 0, 0, 0, 2]]
    """
    return _visibility(battlemap, viewer, False)[0]


def visibility_with_hindrances(battlemap: BattleMap, viewer: Hex) -> tuple[np.ndarray, np.ndarray]:
    """Like :func:`visibility`, plus ``int64 [height, width]`` hindrance counts (R3.5).

    The count equals :attr:`LosResult.hindrances` for every target (0 where blocked).

    Raises:
        MapError: when ``viewer`` is off the map.
    """
    status, cnt = _visibility(battlemap, viewer, True)
    assert cnt is not None
    return status, cnt


def near_window(height: int, width: int, viewer: Hex, radius: int) -> tuple[int, int, int, int]:
    """``(r0, r1, c0, c1)``: rows ``r0:r1`` and columns ``c0:c1`` of a ``height`` x ``width``
    map holding every hex within ``radius + 1`` of ``viewer`` (R2.1), ``c0`` even so the
    window's odd-q layout is the map's. Its size is the same wherever the viewer stands (it is
    moved inside the map, not cut), so every window of a radius shares one shape and that
    shape's tables (issue 35).

    Raises:
        ValueError: for a negative radius.
    """
    if radius < 0:
        raise ValueError(f"radius must be >= 0, got {radius}")
    col = viewer.q
    row = viewer.r + (col - (col & 1)) // 2
    # columns col - radius - 2 .. col + radius + 2 and one to start at an even column; as many
    # as the map's width has parity, so a window pushed against the right edge starts even too
    side_c = 2 * radius + 6 + (width & 1)
    side_r = 2 * radius + 3
    wc, wr = min(side_c, width), min(side_r, height)
    c0 = min(max(0, col - radius - 2), width - wc)
    c0 -= c0 & 1
    r0 = min(max(0, row - radius - 1), height - wr)
    return r0, r0 + wr, c0, min(width, c0 + wc)


def visibility_near(
    battlemap: BattleMap, viewer: Hex, radius: int
) -> tuple[tuple[int, int, int, int], np.ndarray, np.ndarray]:
    """:func:`visibility_with_hindrances` for the hexes within ``radius`` of ``viewer`` only,
    at a cost set by the radius, not by the map (R3; issue 35: a computer player asks what an
    enemy unit sees within its weapon ranges on a 500x500 map).

    A line from the viewer to a hex at most ``radius`` away crosses only hexes at most
    ``radius`` away (a point of a hex is within 2/3 of a hex of its centre in the hex-distance
    norm, and the norm is convex), so the answer from a copy of the window
    (:func:`near_window`) is the map's: lines are translation invariant (R3.2) and the window
    starts at an even column.

    Args:
        battlemap: the map.
        viewer: the viewing hex (on the map).
        radius: hex distance (R2.1) up to which targets are examined (>= 0).

    Returns:
        ``(window, status, hindrances)``: ``window = (r0, r1, c0, c1)`` as
        :func:`near_window`, ``int8 [r1 - r0, c1 - c0]`` statuses and ``int64`` hindrance
        counts of the window's hexes (``[row - r0, col - c0]``); hexes farther than ``radius``
        are reported :data:`BLOCKED` with 0 hindrances (not examined).

    Raises:
        MapError: when ``viewer`` is off the map.
        ValueError: for a negative radius.
    """
    try:
        col = viewer.q
        row = viewer.r + (col - (col & 1)) // 2
    except AttributeError:
        raise MapError(f"visibility needs a Hex viewer, got {viewer!r}") from None
    H, W = battlemap.height, battlemap.width
    if not (0 <= col < W and 0 <= row < H):
        battlemap.index(viewer)  # raises MapError naming the hex
    r0, r1, c0, c1 = win = near_window(H, W, viewer, radius)
    if (r1 - r0) * (c1 - c0) * 2 > H * W:  # most of the map: the whole map's answer, cut
        status, cnt = visibility_with_hindrances(battlemap, viewer)
        status, cnt = status[r0:r1, c0:c1].copy(), cnt[r0:r1, c0:c1].copy()
    else:
        sub = BattleMap(c1 - c0, r1 - r0, rules=battlemap.rules)
        for a in ("terrain", "level", "rubble", "fire"):
            getattr(sub, a)[...] = getattr(battlemap, a)[r0:r1, c0:c1]
        for h, stack in battlemap.wrecks.items():
            hc, hr = h.offset
            if r0 <= hr < r1 and c0 <= hc < c1:
                sub.wrecks[Hex.from_offset(hc - c0, hr - r0)] = list(stack)
        status, cnt = visibility_with_hindrances(sub, Hex.from_offset(col - c0, row - r0))
    q = np.arange(c0, c1)[None, :]
    rr = np.arange(r0, r1)[:, None] - (q - (q & 1)) // 2
    dq, dr = q - col, rr - (row - (col - (col & 1)) // 2)
    far = np.maximum(np.maximum(np.abs(dq), np.abs(dr)), np.abs(dq + dr)) > radius
    status[far] = BLOCKED
    cnt[far] = 0
    return win, status, cnt
