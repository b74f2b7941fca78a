"""The single query :func:`line_of_sight` (R3.1-R3.6) and its result type."""

from __future__ import annotations

import weakref
from dataclasses import FrozenInstanceError
from typing import Any

import numpy as np

from ..hexgrid import Hex, HexLabelError
from ..maps import BattleMap, MapError
from .geometry import _bulk_geometry, _rel
from .heights import _PAD, REASON_NAMES, _MapState, _state
from .kernel import _KERNEL, _KERNEL_MAX_SIDE, _KERNEL_MIN_HEXES
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

    A frozen value with the equality, hash and repr of a dataclass over the fields above
    (``row_digits`` left out of both). The compiled kernel's answers (issue 35) make the
    ``intervening`` and ``spine_pairs`` tuples on first access: a 500-hex line's Hex objects
    cost more than the query.
    """

    __slots__ = ("a", "b", "status", "_inter", "_pairs", "blocking", "reason", "hindrances", "row_digits")
    __match_args__ = ("a", "b", "status", "intervening", "spine_pairs", "blocking", "reason", "hindrances")

    a: Hex
    b: Hex
    status: str
    blocking: Hex | None
    reason: str | None
    hindrances: int
    row_digits: int
    _inter: Any  # a tuple of Hex, or (hexes, bytes) until first read
    _pairs: Any

    def __init__(
        self,
        a: Hex,
        b: Hex,
        status: str,
        intervening: tuple[Hex, ...],
        spine_pairs: tuple[tuple[Hex, Hex], ...],
        blocking: Hex | None,
        reason: str | None,
        hindrances: int,
        row_digits: int = 2,
    ) -> None:
        _fill(self, a, b, status, intervening, spine_pairs, blocking, reason, hindrances, row_digits)

    @property
    def intervening(self) -> tuple[Hex, ...]:
        """Hexes whose interior the segment crosses, in order from ``a`` (R3.2)."""
        v = self._inter
        if type(v) is _Lazy:
            v = v.hexes_of(v.flat)
            _slot_inter(self, v)
        return v  # type: ignore[no-any-return]

    @property
    def spine_pairs(self) -> tuple[tuple[Hex, Hex], ...]:
        """Pairs of hexes whose shared hexside the segment runs along, in order from ``a`` (R3.3)."""
        v = self._pairs
        if type(v) is _Lazy:
            v = tuple(zip(v.hexes_of(v.flat), v.hexes_of(v.flat2), strict=True))
            _slot_pairs(self, v)
        return v  # type: ignore[no-any-return]

    def _key(self) -> tuple[Any, ...]:
        return (
            self.a,
            self.b,
            self.status,
            self.intervening,
            self.spine_pairs,
            self.blocking,
            self.reason,
            self.hindrances,
        )

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._key() == other._key()  # type: ignore[attr-defined, no-any-return]

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        names = ("a", "b", "status", "intervening", "spine_pairs", "blocking", "reason", "hindrances")
        body = ", ".join(f"{n}={v!r}" for n, v in zip(names, self._key(), strict=True))
        return f"LosResult({body})"

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (LosResult, (*self._key(), self.row_digits))

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


class _Lazy:
    """A :class:`LosResult` field not made yet: the padded-flat indices of its hexes (int64
    bytes; ``flat2``: the second hexes of spine pairs) and the map's padded-cell Hex lookup."""

    __slots__ = ("hexes", "flat", "flat2")

    def __init__(self, hexes: Any, flat: bytes, flat2: bytes = b"") -> None:
        self.hexes, self.flat, self.flat2 = hexes, flat, flat2

    def hexes_of(self, flat: bytes) -> tuple[Hex, ...]:
        """The Hex objects of int64 padded-flat indices."""
        hexes = self.hexes
        return tuple([hexes[x] for x in memoryview(flat).cast("q")])


_new = object.__new__
(
    _slot_a,
    _slot_b,
    _slot_status,
    _slot_inter,
    _slot_pairs,
    _slot_blocking,
    _slot_reason,
    _slot_hind,
    _slot_digits,
) = (
    LosResult.__dict__[f].__set__
    for f in ("a", "b", "status", "_inter", "_pairs", "blocking", "reason", "hindrances", "row_digits")
)


def _fill(
    r: LosResult,
    a: Hex,
    b: Hex,
    status: str,
    intervening: Any,
    pairs: Any,
    blocking: Hex | None,
    reason: str | None,
    hind: int,
    digits: int,
) -> None:
    _slot_a(r, a)
    _slot_b(r, b)
    _slot_status(r, status)
    _slot_inter(r, intervening)
    _slot_pairs(r, pairs)
    _slot_blocking(r, blocking)
    _slot_reason(r, reason)
    _slot_hind(r, hind)
    _slot_digits(r, digits)


def _result(
    a: Hex,
    b: Hex,
    status: str,
    intervening: Any,
    pairs: Any,
    blocking: Hex | None,
    reason: str | None,
    hind: int,
    digits: int,
) -> LosResult:
    """``LosResult(...)`` without ``__init__``'s call overhead (same fields); ``intervening``
    and ``pairs`` may be :class:`_Lazy`, made into tuples on first access."""
    r = _new(LosResult)
    _fill(r, a, b, status, intervening, pairs, blocking, reason, hind, digits)
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
    if _KERNEL is not None and st.H * st.W >= _KERNEL_MIN_HEXES and max(st.H, st.W) <= _KERNEL_MAX_SIDE:
        return _kernel_query(st, a, b, ca, ra, cb, rb)
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


def _kernel_query(st: _MapState, a: Hex, b: Hex, ca: int, ra: int, cb: int, rb: int) -> LosResult:
    """:func:`line_of_sight` by the compiled kernel (issue 35): the same answer, with the hex
    tuples made on first access (:class:`LosResult`)."""
    bufs = st.kbuf
    if bufs is None:
        cap = 4 * (st.H + st.W) + 64  # more than any line's intervening hexes or spine pairs
        bufs = st.kbuf = tuple(np.empty(cap, dtype=np.int64) for _ in range(3))
    bt, ht, lv = st.i64
    assert _KERNEL is not None
    n, ni, npairs, blk, blk_d, hind = _KERNEL.query(bt, ht, lv, st.H, st.W, ca, ra, cb, rb, *bufs)
    hexes = st.hexes
    inter = _Lazy(hexes, bufs[0][:ni].tobytes()) if ni else ()
    pairs = _Lazy(hexes, bufs[1][:npairs].tobytes(), bufs[2][:npairs].tobytes()) if npairs else ()
    if blk < 0:
        return _result(a, b, "hindered" if hind else "clear", inter, pairs, None, None, hind, st.row_digits)
    ea = st.lv2[(ra + _PAD) * st.Wp + ca + _PAD] + 1
    k = st.lv2[(rb + _PAD) * st.Wp + cb + _PAD] + 1 - ea
    if n * (st.lv2[blk] - ea) >= blk_d * k:
        reason = "higher ground"  # the ground alone reaches the LOS height (R3.4)
    else:
        reason = REASON_NAMES[st.reason[blk]]
    return _result(a, b, "blocked", inter, pairs, hexes[blk], reason, 0, st.row_digits)
