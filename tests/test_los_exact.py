"""The fast LOS path agrees with the shapely reference on every ordered pair (R3.6).

The default run checks every ordered pair of small random maps with hills, woods, hindrances,
buildings, rubble, fires and wrecks; ``-m slow`` checks every ordered pair of a 40x40 map.
Seeds are fixed and appear in the test ids and failure messages.
"""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from hexwar.model.hexgrid import Hex
from hexwar.model.los import line_of_sight, offset_geometry, visibility
from hexwar.model.los_exact import hex_polygon_scaled, line_of_sight_exact, visibility_exact
from hexwar.model.maps import BattleMap

try:  # tests/ is on sys.path under pytest's default import mode
    from test_los import random_map
except ImportError:  # pragma: no cover - tests run as a package
    from tests.test_los import random_map


def _disagreements(m: BattleMap, sources: list[Hex]) -> list[str]:
    bad = []
    targets = list(m.hexes())
    for a in sources:
        for b in targets:
            fast, exact = line_of_sight(m, a, b), line_of_sight_exact(m, a, b)
            if fast != exact:
                bad.append(f"{m.name} {a.label}->{b.label}: fast {fast} exact {exact}")
    return bad


@pytest.mark.parametrize(
    ("w", "h", "seed", "levels", "density"),
    [(9, 8, 3, 3, 1.0), (8, 9, 11, 1, 0.6), (7, 7, 2024, 5, 0.4), (8, 8, 99, 0, 1.0)],
    ids=lambda v: str(v),
)
def test_fast_path_equals_exact_reference_on_every_ordered_pair(w, h, seed, levels, density):
    m = random_map(w, h, seed, levels, density)
    bad = _disagreements(m, list(m.hexes()))
    assert not bad, f"seed {seed}: {len(bad)} disagreements, first: {bad[:3]}"


def test_visibility_equals_exact_reference():
    m = random_map(9, 7, seed=77)
    for viewer in (
        Hex.from_offset(0, 0),
        Hex.from_offset(4, 3),
        Hex.from_offset(8, 6),
        Hex.from_offset(3, 6),
    ):
        assert np.array_equal(visibility(m, viewer), visibility_exact(m, viewer)), viewer.label


@settings(max_examples=150, deadline=None)
@given(dq=st.integers(-25, 25), dr=st.integers(-25, 25))
def test_offset_geometry_equals_shapely_relate(dq, dr):
    """R3.2/R3.3 straight from DE-9IM: interiors meet in a line -> intervening; boundary meets
    the segment's interior in a line -> spine side; vertex touches -> neither."""
    g = offset_geometry(dq, dr)
    seg = shapely.LineString([(0, 0), (3 * dq, 2 * dr + dq)])
    # a crossed hex's centre lies within one hex of the segment: a box 2 hexes wider suffices
    cands = [
        (q, r)
        for q in range(min(0, dq) - 2, max(0, dq) + 3)
        for r in range(min(0, dr) - 2, max(0, dr) + 3)
        if (q, r) not in ((0, 0), (dq, dr))
    ]
    rel = shapely.relate(np.array([hex_polygon_scaled(Hex(q, r)) for q, r in cands]), seg)
    inter = {c for c, de9im in zip(cands, rel, strict=True) if de9im[0] == "1"}
    sides = {c for c, de9im in zip(cands, rel, strict=True) if de9im[0] == "F" and de9im[3] == "1"}
    assert set(g.intervening) == inter
    assert {h for p in g.spine_pairs for h in p} == sides


def test_exact_reference_sees_vertex_touch_and_spine_exactly():
    """The reference itself on the two borderline geometries (independent of the fast path)."""
    m = BattleMap.new(8, 8)
    r = line_of_sight_exact(m, Hex.from_label("B03"), Hex.from_label("F06"))
    assert [h.label for h in r.intervening] == ["C04", "D04", "D05", "E06"] and r.spine_pairs == ()
    r = line_of_sight_exact(m, Hex.from_label("A03"), Hex.from_label("C03"))
    assert r.intervening == () and [sorted(h.label for h in p) for p in r.spine_pairs] == [["B02", "B03"]]


def _check_part(args: tuple[int, int, int]) -> list[str]:
    """Every ordered pair (a, b) with a among hexes ``part``, ``part + parts``, ... in both
    directions, so each ordered pair of the map is checked exactly once over all parts."""
    seed, part, parts = args
    m = random_map(40, 40, seed, levels=3)
    hexes = list(m.hexes())
    bad = []
    for i in range(part, len(hexes), parts):
        a = hexes[i]
        for b in hexes[i:]:
            for x, y in ((a, b), (b, a)) if a != b else ((a, b),):
                fast, exact = line_of_sight(m, x, y), line_of_sight_exact(m, x, y)
                if fast != exact:
                    bad.append(f"{m.name} {x.label}->{y.label}: fast {fast} exact {exact}")
    return bad


@pytest.mark.slow
def test_fast_path_equals_exact_reference_on_all_pairs_of_a_40x40_map():
    """All 2,560,000 ordered pairs (about 25 minutes of CPU, shared over every core)."""
    seed, parts = 40, 64
    with ProcessPoolExecutor(max_workers=os.cpu_count() or 1) as ex:
        bad = [x for part in ex.map(_check_part, [(seed, p, parts) for p in range(parts)]) for x in part]
    assert not bad, f"seed {seed}: {len(bad)} disagreements, first: {bad[:3]}"
