"""Per-target running maxima of one viewer's lines (R3.4, R3.5), shared by every one-to-all
path."""

from __future__ import annotations

from typing import Any

import numpy as np


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
