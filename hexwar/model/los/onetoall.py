"""One viewer against every hex: :func:`visibility` and its variants (R3.1-R3.6)."""

from __future__ import annotations

import numpy as np

from ..hexgrid import Hex
from ..los_viewer import VIEWER_PLAN_MAX_HEXES, scan, viewer_plan
from ..maps import BattleMap, MapError
from .fly import _FLY_GROWTH, _round_fly
from .heights import _PAD, _TOL, BLOCKED, CLEAR, HINDERED, _state
from .kernel import _KERNEL, _KERNEL_MAX_SIDE, _KERNEL_MIN_HEXES_ALL
from .plan import _NOT_BUILT, _get_plan, _peek_plan, _plan_fits, _round_plan
from .rounds import _Acc
from .table import (
    _TAB_AHEAD,
    _get_table,
    _round_table,
    _tab_field,
    _table_hindrances,
)


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
    if _KERNEL is not None and H * W >= _KERNEL_MIN_HEXES_ALL and max(H, W) <= _KERNEL_MAX_SIDE:
        # the compiled kernel (issue 35): every line walked from the viewer, exact, early exit
        status = np.empty((H, W), dtype=np.int8)
        cnt = np.empty((H, W), dtype=np.int64)
        bt, ht, lv = st.i64
        _KERNEL.visibility(bt, ht, lv, H, W, col, row, st.any_hind, status, cnt)
        return status, cnt if counts else None
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
