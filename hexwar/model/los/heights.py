"""Per-map height arrays (R3.4, R3.5) and the engine state of each map, rebuilt when the
map's version changes."""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from ..hexgrid import Hex
from ..maps import BattleMap, MapError
from .geometry import _patch_rel

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
        "i64",
        "kbuf",
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
        self.kbuf: Any = None  # the compiled kernel's output buffers (single queries)
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
        # int64 padded arrays for the compiled kernel (issue 35): block top, hindrance top, ground
        self.i64 = (bt2, ht2, lv2)
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
