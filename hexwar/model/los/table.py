"""The near table (issue 22): the first crossed hexes of every offset of a map shape, read in
round 1 of one-to-all (R3.2-R3.5)."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

import numpy as np

from .geometry import (
    _FLY_CANDIDATES,
    _PATCH_Q,
    _PATCH_R,
    _TAB_J,
    _TAB_R,
    _TAB_SENTINEL,
    _TAB_SIDE,
    _bulk_geometry,
)
from .heights import _PAD, _MapState
from .rounds import _Acc

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
_TAB_AHEAD = _TAB_J + 2  # hex lengths along each line the table's geometry window covers
_TAB_EAGER_OFFSETS = 300_000  # smaller shapes build the table at their first visibility call
_TAB_CACHE_BYTES = 160 << 20  # all near tables together (a 500x500 shape's is about 90 MB)
_FAR_END = True  # round 1 also reads each list from the target's end
_FAR_J = 4  # ... its last _FAR_J entries (at most _TAB_J; 4 measured 8-16% faster than 8)


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
