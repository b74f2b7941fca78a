"""The single query :func:`line_of_sight` (R3.1-R3.6) and its result type."""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..hexgrid import Hex, HexLabelError
from ..maps import BattleMap, MapError
from .geometry import _bulk_geometry, _rel
from .heights import _PAD, REASON_NAMES, _MapState, _state
from .plan import _peek_plan, _Plan

_GEO_CACHE_ENTRIES = 1_000_000  # per-map cache of single-query offsets, in crossed hexes
_BLOCK_ROWS = 8  # a single query's cache miss computes this many offsets (same dq) at once


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


