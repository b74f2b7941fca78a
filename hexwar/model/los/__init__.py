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

The package's parts: :mod:`.geometry` (the exact candidate test of one offset), :mod:`.heights`
(per-map height arrays and engine state), :mod:`.single` (the single query), :mod:`.plan` (the
plan path of small shapes), :mod:`.fly` (the on-the-fly path of shapes without a plan),
:mod:`.table` (round 1's near table), :mod:`.rounds` (per-target maxima), :mod:`.onetoall`
(:func:`visibility` and its variants) and :mod:`.kernel` (issue 35: the compiled kernel
``_ckernel``, which answers both kinds of query on maps over 64x64 hexes when pip built it;
:func:`kernel_available` says whether it did). Every path decides with the integer tests below.

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
    "kernel_available",
]


import sys
import types
from typing import Any

# the rest of the one module's names (benchmarks and tools read some of them)
from ..hexgrid import Hex, HexLabelError
from ..los_viewer import ragged as _ragged
from ..los_viewer import scan, viewer_plan
from ..maps import BattleMap, MapError
from . import fly, geometry, heights, kernel, onetoall, plan, rounds, single, table
from .fly import _FLY_EDGE, _FLY_ENTRIES, _FLY_GROWTH, _fly_entries, _fly_interior, _fly_lines, _round_fly
from .geometry import (
    _CANON,
    _FLY_CANDIDATES,
    _N_CLASSES,
    _PATCH_Q,
    _PATCH_R,
    _TAB_J,
    _TAB_R,
    _TAB_SENTINEL,
    _TAB_SIDE,
    OffsetGeometry,
    _Bulk,
    _bulk_geometry,
    _canon,
    _canon_maps,
    _class_steps,
    _csr_ptr,
    _patch_rel,
    _rel,
    offset_geometry,
)
from .heights import (
    _BIG2,
    _HEX_LIST_CELLS,
    _PAD,
    _R_BUILDING,
    _R_FIRE,
    _R_GROUND,
    _R_TERRAIN,
    _R_WRECK,
    _STATES,
    _TOL,
    BLOCKED,
    CLEAR,
    HINDERED,
    REASON_NAMES,
    STATUS_NAMES,
    WRECK_LOS_HEIGHT,
    HeightArrays,
    _axial_index,
    _compute_tops,
    _LazyHexes,
    _MapState,
    _padded,
    _padded_hexes,
    _state,
    height_arrays,
    los_content_key,
)
from .kernel import _KERNEL, _KERNEL_MAX_SIDE, _KERNEL_MIN_HEXES, _KERNEL_MIN_HEXES_ALL, kernel_available
from .onetoall import (
    VIEWER_PLAN_MAX_HEXES,
    _statuses,
    _visibility,
    near_window,
    visibility,
    visibility_near,
    visibility_with_hindrances,
)
from .plan import (
    _NOT_BUILT,
    _PLAN_CACHE_BYTES,
    _PLAN_CACHE_SIZE,
    _PLAN_MAX_BYTES,
    _PLANS,
    _build_plan,
    _get_plan,
    _peek_plan,
    _Plan,
    _plan_bytes,
    _plan_fits,
    _plan_size_estimate,
    _round_plan,
    _window_offsets,
)
from .rounds import _Acc, _segment_max, _segment_sum
from .single import (
    _BLOCK_ROWS,
    _GEO_CACHE_ENTRIES,
    LosResult,
    _geo_block,
    _geo_put,
    _ints,
    _label,
    _plan_of,
    _query_lists,
    _result,
    line_of_sight,
)
from .table import (
    _FAR_END,
    _FAR_J,
    _SEEN_SHAPES,
    _TAB_AHEAD,
    _TAB_CACHE_BYTES,
    _TAB_EAGER_OFFSETS,
    _TABLES,
    _build_table,
    _far_views,
    _get_table,
    _patch,
    _round_table,
    _tab_field,
    _tab_views,
    _Table,
    _table_hindrances,
)

_PARTS = (kernel, geometry, heights, rounds, plan, table, fly, single, onetoall)


class _Package(types.ModuleType):
    """The package module: setting one of its names also sets it in every part that reads it.

    Tests and benchmarks tune the engine by setting attributes of ``hexwar.model.los``
    (``monkeypatch.setattr(L, "_PLAN_MAX_BYTES", 0)``, ``VIEWER_PLAN_MAX_HEXES``, ``_Acc``...),
    as they did when it was one module; the parts read those names from their own globals.
    """

    def __setattr__(self, name: str, value: Any) -> None:
        for part in _PARTS:
            if name in part.__dict__:
                setattr(part, name, value)
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
