r"""Tests of the line-of-sight engine (R3) against hand-worked cases and the shapely reference.

Pictures: flat-topped hexes, odd-q offset (columns B, D, F ... sit half a hex lower), labels as
on CoH maps. ``*`` marks the centres the LOS runs between.

Hexside (spine) LOS, R3.3: A03 -> C03 runs exactly along the side shared by B02 and B03::

      ____        ____
     /    \      /    \
    / A02  \____/ C02  \
    \      /    \      /
     \____/ B02  \____/
     /    \      /    \
    / A03 *\====/* C03 \
    \      /    \      /
     \____/ B03  \____/
          \      /
           \____/

Vertex touch, R3.2: B03 -> F06 (axial offset (4, 1)) passes exactly through two hex corners.
At the first, the corner shared by C04, D04 and C05, it goes from C04 into D04 and only touches
C05; at the second (D05, E05, E06) it goes from D05 into E06 and only touches E05. Scaled
coordinates (X = 3q, Y = 2r + q; corners at centre +-(2, 0), +-(1, +-1)): the segment runs from
(3, 5) to (15, 11) and meets the corners (7, 7) and (11, 9)::

       B     C     D     E     F
      *                               row 03   B03 firer
            o     o                   row 04   C04, D04 crossed
            x     o     x             row 05   C05, E05 touched at a corner only; D05 crossed
                        o     *       row 06   E06 crossed; F06 target
"""

from __future__ import annotations

import math
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hexwar.model.hexgrid import Hex
from hexwar.model.los import (
    BLOCKED,
    CLEAR,
    HINDERED,
    REASON_NAMES,
    STATUS_NAMES,
    height_arrays,
    line_of_sight,
    offset_geometry,
    visibility,
    visibility_with_hindrances,
)
from hexwar.model.los_exact import line_of_sight_exact
from hexwar.model.maps import BattleMap, MapError

H = Hex.from_label


@pytest.fixture(autouse=True)
def _numpy_one_to_all(monkeypatch):
    """This module tests the numpy paths: one-to-all on maps up to 64x64 keeps the viewer plans
    here, as before issue 35's kernel took every map (tests/test_los_kernel.py compares them)."""
    import hexwar.model.los as L

    monkeypatch.setattr(L, "_KERNEL_MIN_HEXES_ALL", L._KERNEL_MIN_HEXES)


IMPLEMENTATIONS = {"fast": line_of_sight, "exact": line_of_sight_exact}
_impl = line_of_sight


@pytest.fixture(params=sorted(IMPLEMENTATIONS))
def impl(request):
    """Run a worked case through the fast path and through the shapely reference."""
    global _impl
    _impl = IMPLEMENTATIONS[request.param]
    yield request.param
    _impl = line_of_sight


def los(m: BattleMap, a: str, b: str):
    return _impl(m, H(a), H(b))


def labels(hexes) -> list[str]:
    return [h.label for h in hexes]


# ------------------------------------------------------------------------------------------
# Random maps (seeded numpy Generator, R1.2) with every LOS feature
# ------------------------------------------------------------------------------------------
TERRAIN_CHOICES = [
    "clear",
    "clear",
    "clear",
    "road",
    "woods",
    "brush",
    "orchard",
    "wheat",
    "wood_building",
    "stone_building",
    "reinforced_building",
    "marsh",
]
LOS_WRECKS = ["de-1", "su-2"]
PLAIN_WRECKS = ["de-3", "su-5"]


def random_map(width: int, height: int, seed: int, levels: int = 3, density: float = 1.0) -> BattleMap:
    """A map with woods, hindrances, buildings, rubble, fire, wrecks (with and without the
    LOS symbol) and hills, built through the map's own methods."""
    rng = np.random.default_rng(seed)
    m = BattleMap.new(width, height, name=f"random {seed}")
    for h in list(m.hexes()):
        key = TERRAIN_CHOICES[rng.integers(len(TERRAIN_CHOICES))] if rng.random() < density else "clear"
        m.set_terrain(h, key)
        m.set_level(h, int(rng.integers(0, levels + 1)) if rng.random() < 0.5 else 0)
        if m.terrain_at(h).is_building:
            u = rng.random()
            if u < 0.2:
                m.set_fire(h)
            elif u < 0.4:
                m.set_rubble(h)
        u = rng.random()
        if u < 0.06:
            m.add_wreck(h, LOS_WRECKS[rng.integers(2)])
        elif u < 0.1:
            m.add_wreck(h, PLAIN_WRECKS[rng.integers(2)])
    return m


def mirrored(res_ab, res_ba) -> bool:
    """True when two results of the same pair from opposite ends agree (R3.1)."""
    return (
        res_ab.status == res_ba.status
        and res_ab.hindrances == res_ba.hindrances
        and res_ab.intervening == tuple(reversed(res_ba.intervening))
        and res_ab.spine_pairs == tuple((q, p) for p, q in reversed(res_ba.spine_pairs))
    )


# ------------------------------------------------------------------------------------------
# R3.3 hexside LOS
# ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("woods", "expected"),
    [((), "clear"), (("B02",), "clear"), (("B03",), "clear"), (("B02", "B03"), "blocked")],
    ids=["none", "one side", "other side", "both sides"],
)
def test_hexside_los_blocks_only_when_both_sides_block(woods, expected, impl):
    m = BattleMap.new(5, 5)
    for lab in woods:
        m.set_terrain(H(lab), "woods")
    r = los(m, "A03", "C03")
    assert r.intervening == ()
    assert [set(labels(p)) for p in r.spine_pairs] == [{"B02", "B03"}]
    assert r.status == expected
    assert los(m, "C03", "A03").status == expected
    if expected == "blocked":
        assert r.blocking in (H("B02"), H("B03")) and r.reason == "terrain"


@pytest.mark.parametrize(
    ("woods", "expected"),
    [
        ((), "clear"),
        (("B02", "D02", "F02"), "clear"),
        (("B03", "D03", "F03"), "clear"),
        (("B02", "D02", "F02", "B03", "D03", "F03"), "blocked"),
        (("D02", "D03"), "blocked"),
        (("B02", "D03", "F02"), "clear"),
    ],
    ids=["none", "one side", "other side", "both sides", "one pair", "alternating sides"],
)
def test_full_spine_a03_g03(woods, expected, impl):
    """A03 -> G03 runs along B02|B03, crosses C03, runs along D02|D03, crosses E03, runs along
    F02|F03: three spine pairs (R3.3) and two intervening hexes (R3.2)."""
    m = BattleMap.new(8, 5)
    for lab in woods:
        m.set_terrain(H(lab), "woods")
    r = los(m, "A03", "G03")
    assert labels(r.intervening) == ["C03", "E03"]
    assert [sorted(labels(p)) for p in r.spine_pairs] == [["B02", "B03"], ["D02", "D03"], ["F02", "F03"]]
    assert r.status == expected
    assert los(m, "G03", "A03").status == expected


def test_spine_pair_hindrance_rules(impl):
    """R3.3: a pair hinders if one side blocks or hinders and the other hinders."""
    cases = [
        (("woods", "brush"), "hindered", 1),
        (("brush", "brush"), "hindered", 1),
        (("brush", "clear"), "clear", 0),
        (("woods", "clear"), "clear", 0),
        (("orchard", "woods"), "hindered", 1),
    ]
    for (top, bottom), status, count in cases:
        m = BattleMap.new(5, 5)
        m.set_terrain(H("B02"), top)
        m.set_terrain(H("B03"), bottom)
        for a, b in (("A03", "C03"), ("C03", "A03")):
            r = los(m, a, b)
            assert (r.status, r.hindrances) == (status, count), (top, bottom, a, b)


def test_spine_on_the_map_edge_has_an_off_map_partner(impl):
    """A01 -> C01 runs along the top edge of B01: its partner B00 is off the map and never
    blocks, so woods in B01 alone cannot block."""
    m = BattleMap.new(4, 3)
    m.set_terrain(H("B01"), "woods")
    r = los(m, "A01", "C01")
    assert r.status == "clear"
    assert len(r.spine_pairs) == 1 and H("B01") in r.spine_pairs[0]
    other = [h for h in r.spine_pairs[0] if h != H("B01")][0]
    assert not m.in_bounds(other)
    assert r.to_json()["spine_pairs"][0].count("B01") == 1


# ------------------------------------------------------------------------------------------
# R3.2 vertex touches
# ------------------------------------------------------------------------------------------
def test_line_through_vertex_only_touching_a_blocker_is_clear(impl):
    m = BattleMap.new(8, 8)
    r = los(m, "B03", "F06")
    assert labels(r.intervening) == ["C04", "D04", "D05", "E06"]
    assert r.spine_pairs == ()
    m.set_terrain(H("C05"), "woods")
    m.set_terrain(H("E05"), "stone_building")
    assert los(m, "B03", "F06").status == "clear"
    assert los(m, "F06", "B03").status == "clear"
    m.set_terrain(H("D05"), "woods")  # control: a crossed hex does block
    r = los(m, "B03", "F06")
    assert (r.status, r.blocking, r.reason) == ("blocked", H("D05"), "terrain")


def test_offset_geometry_examples():
    # straight down a column: the hexes between
    assert offset_geometry(0, 4).intervening == ((0, 1), (0, 2), (0, 3))
    # along direction 3 (SE): one hex per step, no spine
    assert offset_geometry(3, 0).intervening == ((1, 0), (2, 0))
    assert offset_geometry(3, 0).spine_pairs == ()
    # the vertex case above
    assert offset_geometry(4, 1).intervening == ((1, 0), (2, 0), (2, 1), (3, 1))
    # diagonal (1, 1): pairs and centres alternate
    g = offset_geometry(2, 2)
    assert g.intervening == ((1, 1),)
    assert [set(p) for p in g.spine_pairs] == [{(1, 0), (0, 1)}, {(2, 1), (1, 2)}]
    # t of the nearest point (R3.4): the midpoint hex of a straight line sits at t = 1/2
    assert offset_geometry(2, 0).intervening_d[0] * 2 == offset_geometry(2, 0).n


# ------------------------------------------------------------------------------------------
# R3.5 features and overlays
# ------------------------------------------------------------------------------------------
def test_wreck_with_los_symbol_blocks_between_but_not_at_either_end(impl):
    m = BattleMap.new(7, 3)
    m.add_wreck(H("C02"), "su-1")  # carries the LOS symbol
    r = los(m, "A02", "E02")  # A02 (0,1) -> E02 (4,-1): offset (4,-2), C02 is crossed
    assert H("C02") in r.intervening
    assert (r.status, r.blocking, r.reason) == ("blocked", H("C02"), "wreck")
    assert los(m, "C02", "E02").status == "clear"  # starts in the wreck hex
    assert los(m, "A02", "C02").status == "clear"  # ends in it
    m.remove_wreck(H("C02"))
    m.add_wreck(H("C02"), "su-3")  # no LOS symbol: no effect
    assert los(m, "A02", "E02").status == "clear"


def test_building_fire_blocks_at_every_level_and_rubble_does_not(impl):
    m = BattleMap.new(7, 3)
    m.set_terrain(H("C02"), "stone_building")
    assert los(m, "A02", "E02").reason == "building"
    for h in ("A02", "E02"):
        m.set_level(H(h), 9)  # eyes at 9.5: far above the building (top 1)
    assert los(m, "A02", "E02").status == "clear"
    m.set_fire(H("C02"))
    r = los(m, "A02", "E02")
    assert (r.status, r.reason) == ("blocked", "fire")
    m.set_rubble(H("C02"))  # puts the fire out; rubble does not block (R8.3)
    for h in ("A02", "E02"):
        m.set_level(H(h), 0)
    assert los(m, "A02", "E02").status == "clear"
    assert height_arrays(m).block_top[H("C02").offset[::-1]] == 0.0


def test_hindrances_count_each_hex_that_reaches_the_los(impl):
    m = BattleMap.new(8, 3)
    m.set_terrain(H("C02"), "brush")
    m.set_terrain(H("E02"), "orchard")
    r = los(m, "A02", "G02")
    assert labels(r.intervening) == ["C02", "E02"]
    assert (r.status, r.hindrances) == ("hindered", 2)
    # units high above the hindrances see over them (R3.5 uses the R3.4 test)
    m.set_level(H("A02"), 2)
    m.set_level(H("G02"), 2)
    assert los(m, "A02", "G02").status == "clear"
    # a hex that both blocks and hinders blocks
    m.set_level(H("A02"), 0)
    m.set_level(H("G02"), 0)
    m.add_wreck(H("C02"), "de-2")
    r = los(m, "A02", "G02")
    assert (r.status, r.blocking, r.reason, r.hindrances) == ("blocked", H("C02"), "wreck", 0)


# ------------------------------------------------------------------------------------------
# R3.4 heights
# ------------------------------------------------------------------------------------------
def test_hill_between_two_low_units_blocks(impl):
    """A02 (0) -> C02 (1) -> E02 (0): the hill's top 1 >= the LOS height 0.5."""
    m = BattleMap.new(6, 3)
    m.set_level(H("C02"), 1)
    r = los(m, "A02", "E02")
    assert (r.status, r.blocking, r.reason) == ("blocked", H("C02"), "higher ground")


def test_units_on_higher_ground_see_over_woods(impl):
    """Both units at level 1 (eyes 1.5) over woods at level 0 (top 1): clear."""
    m = BattleMap.new(6, 3)
    m.set_terrain(H("C02"), "woods")
    assert los(m, "A02", "E02").status == "blocked"
    m.set_level(H("A02"), 1)
    m.set_level(H("E02"), 1)
    assert los(m, "A02", "E02").status == "clear"
    m.set_level(H("C02"), 1)  # the woods on the same hill: top 2 >= 1.5
    r = los(m, "A02", "E02")
    assert (r.status, r.reason) == ("blocked", "terrain")


def test_equal_height_blocks(impl):
    """R3.4 "top >= LOS height": eyes 1.5 (level 1) and 0.5 (level 0); C02 is midway, so the
    LOS height there is exactly 1.0, equal to the top of woods at level 0 or of a level-1 hill.

        A02 eye 1.5 ------ C02 LOS height 1.0 ------ E02 eye 0.5
                           woods top 0 + 1 = 1  ->  1 >= 1: blocked
    """
    m = BattleMap.new(6, 3)
    m.set_level(H("A02"), 1)
    assert offset_geometry(4, -2).intervening_d[0] * 2 == offset_geometry(4, -2).n  # t = 1/2
    m.set_terrain(H("C02"), "woods")
    for a, b in (("A02", "E02"), ("E02", "A02")):
        r = los(m, a, b)
        assert (r.status, r.reason) == ("blocked", "terrain")
    m.set_terrain(H("C02"), "clear")
    m.set_level(H("C02"), 1)
    for a, b in (("A02", "E02"), ("E02", "A02")):
        r = los(m, a, b)
        assert (r.status, r.reason) == ("blocked", "higher ground")
    # one level lower on the far side is no longer equal: 1.5 -> LOS height 1.5 > 1
    m.set_level(H("E02"), 1)
    assert los(m, "A02", "E02").status == "clear"


def test_nearest_point_interpolation_off_the_centre_line(impl):
    """R3.4 uses the point of the segment nearest the hex centre, not the hex's rank.

    B03 (level 2, eye 2.5) -> F06 (level 0, eye 0.5), offset (4, 1), N = 252. The
    intervening hexes C04, D04, D05, E06 have D = 54, 108, 144, 198, so t = 3/14, 3/7, 4/7,
    11/14 and the LOS heights 2.5 - 2t are 2.071, 1.643, 1.357, 0.929 (rounded)::

        hex   t      LOS height   level-1 woods (top 2)   level-1 hill (top 1)
        C04   3/14   2.071        2 < 2.071: no block
        D04   3/7    1.643        2 >= 1.643: blocks
        E06   11/14  0.929                                1 >= 0.929: blocks
    """
    m = BattleMap.new(8, 8)
    m.set_level(H("B03"), 2)
    g = offset_geometry(4, 1)
    assert (g.n, g.intervening_d) == (252, (54, 108, 144, 198))
    for lab in ("C04", "D04"):
        m.set_terrain(H(lab), "woods")
        m.set_level(H(lab), 1)
    r = los(m, "B03", "F06")
    assert (r.status, r.blocking) == ("blocked", H("D04"))
    m.set_terrain(H("D04"), "clear")
    m.set_level(H("D04"), 0)
    assert los(m, "B03", "F06").status == "clear"  # C04's top 2 < 2.071
    m.set_level(H("E06"), 1)  # top 1 >= 0.929: blocks by ground
    r = los(m, "F06", "B03")
    assert (r.status, r.blocking, r.reason) == ("blocked", H("E06"), "higher ground")


# ------------------------------------------------------------------------------------------
# R3.1 self and neighbours; API details
# ------------------------------------------------------------------------------------------
def test_hex_sees_itself_and_its_six_neighbours():
    m = BattleMap.new(5, 5, fill="woods")
    c = H("C03")
    m.set_level(c, 0)
    for n in c.neighbors():
        m.set_level(n, 9)
    for t in [c, *c.neighbors()]:
        assert line_of_sight(m, c, t).status == "clear"
    vis = visibility(m, c)
    for t in [c, *c.neighbors()]:
        col, row = t.offset
        assert vis[row, col] == CLEAR
    assert (vis == BLOCKED).sum() == 25 - 7


def test_json_has_exactly_the_issue_keys(impl):
    m = BattleMap.new(8, 5)
    m.set_terrain(H("C03"), "woods")
    d = los(m, "A03", "G03").to_json()
    assert list(d) == [
        "from",
        "to",
        "status",
        "intervening",
        "spine_pairs",
        "blocking",
        "reason",
        "hindrances",
    ]
    assert d == {
        "from": "A03",
        "to": "G03",
        "status": "blocked",
        "intervening": ["C03", "E03"],
        "spine_pairs": [["B03", "B02"], ["D03", "D02"], ["F03", "F02"]],
        "blocking": "C03",
        "reason": "terrain",
        "hindrances": 0,
    }


def test_labels_use_three_row_digits_on_tall_maps():
    m = BattleMap.new(3, 120)
    d = line_of_sight(m, Hex.from_offset(0, 100), Hex.from_offset(0, 110)).to_json()
    assert d["from"] == "A101" and d["intervening"][0] == "A102"


def test_off_map_hexes_are_clear_errors():
    m = BattleMap.new(4, 4)
    with pytest.raises(MapError, match="E01"):
        line_of_sight(m, H("A01"), H("E01"))
    with pytest.raises(MapError, match="A05"):
        visibility(m, H("A05"))
    with pytest.raises(MapError):
        line_of_sight(m, "A01", H("B01"))  # type: ignore[arg-type]


def test_overlays_are_seen_by_the_next_query_without_stale_cache():
    m = BattleMap.new(7, 3)
    m.set_terrain(H("C02"), "wood_building")
    a, e = H("A02"), H("E02")
    col, row = e.offset
    assert los(m, "A02", "E02").status == "blocked" and visibility(m, a)[row, col] == BLOCKED
    m.set_rubble(H("C02"))
    assert los(m, "A02", "E02").status == "clear" and visibility(m, a)[row, col] == CLEAR
    m.add_wreck(H("C02"), "de-6")
    assert los(m, "A02", "E02").reason == "wreck" and visibility(m, a)[row, col] == BLOCKED
    m.remove_wreck(H("C02"))
    m.set_rubble(H("C02"), False)
    m.set_fire(H("C02"))
    assert los(m, "A02", "E02").reason == "fire" and visibility(m, a)[row, col] == BLOCKED
    assert height_arrays(m).version == m.version


def test_height_arrays_reasons_and_tops():
    m = BattleMap.new(6, 1)
    m.set_terrain(H("A01"), "woods")
    m.set_terrain(H("B01"), "stone_building")
    m.add_wreck(H("C01"), "su-1")
    m.set_terrain(H("D01"), "wood_building")
    m.set_fire(H("D01"))
    m.set_terrain(H("E01"), "brush")
    m.set_level(H("E01"), 2)
    ha = height_arrays(m)
    assert ha.block_top.tolist() == [[1.0, 1.0, 1.0, math.inf, 2.0, 0.0]]
    assert ha.hinder_top.tolist() == [[-math.inf, -math.inf, -math.inf, -math.inf, 3.0, -math.inf]]
    assert [REASON_NAMES[i] for i in ha.reason[0]] == [
        "terrain",
        "building",
        "wreck",
        "fire",
        "higher ground",
        "higher ground",
    ]


# ------------------------------------------------------------------------------------------
# Properties: symmetry, agreement of the two fast entry points, translation, geometry
# ------------------------------------------------------------------------------------------
@st.composite
def maps(draw, max_side: int = 8):
    w = draw(st.integers(2, max_side))
    h = draw(st.integers(2, max_side))
    seed = draw(st.integers(0, 2**32 - 1))
    levels = draw(st.integers(0, 4))
    density = draw(st.sampled_from([0.3, 0.6, 1.0]))
    return random_map(w, h, seed, levels, density)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(m=maps())
def test_symmetry_on_all_pairs_of_random_maps(m):
    """R3.1: A sees B exactly when B sees A; same hexes, same pairs, same hindrances."""
    hexes = list(m.hexes())
    for i, a in enumerate(hexes):
        for b in hexes[i:]:
            ab, ba = line_of_sight(m, a, b), line_of_sight(m, b, a)
            assert mirrored(ab, ba), (m.name, a.label, b.label, ab, ba)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(m=maps())
def test_visibility_equals_single_queries(m):
    for a in m.hexes():
        status, counts = visibility_with_hindrances(m, a)
        assert np.array_equal(status, visibility(m, a))
        for b in m.hexes():
            r = line_of_sight(m, a, b)
            col, row = b.offset
            assert STATUS_NAMES[status[row, col]] == r.status, (m.name, a.label, b.label)
            assert counts[row, col] == r.hindrances, (m.name, a.label, b.label)


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    shift_cols=st.integers(0, 3).map(lambda k: 2 * k),
    shift_rows=st.integers(0, 5),
)
def test_translation_even_columns_or_any_rows_gives_the_same_result(seed, shift_cols, shift_rows):
    """The same terrain pattern placed elsewhere (even column shifts keep the odd-q stagger)
    gives the same answers, with every hex moved by the same axial translation."""
    pattern = random_map(6, 5, seed)
    big = 6 + 6, 5 + 5
    m1, m2 = BattleMap.new(*big), BattleMap.new(*big)
    for m, (dc, dr) in ((m1, (0, 0)), (m2, (shift_cols, shift_rows))):
        for arr in ("terrain", "level", "rubble", "fire"):
            getattr(m, arr)[dr : dr + 5, dc : dc + 6] = getattr(pattern, arr)
        for h, stack in pattern.wrecks.items():
            col, row = h.offset
            for w in stack:
                m.add_wreck(Hex.from_offset(col + dc, row + dr), w)
        m.version += 1  # arrays written directly above
    move = Hex.from_offset(shift_cols, shift_rows) - Hex(0, 0)
    cells = [Hex.from_offset(c, r) for c in range(6) for r in range(5)]
    for a in cells:
        for b in cells:
            r1 = line_of_sight(m1, a, b)
            r2 = line_of_sight(m2, a + move, b + move)
            assert r1.status == r2.status and r1.hindrances == r2.hindrances
            assert tuple(h + move for h in r1.intervening) == r2.intervening
            assert tuple((p + move, q + move) for p, q in r1.spine_pairs) == r2.spine_pairs
            assert (r1.blocking and r1.blocking + move) == r2.blocking and r1.reason == r2.reason


@settings(max_examples=200, deadline=None)
@given(dq=st.integers(-40, 40), dr=st.integers(-40, 40))
def test_offset_geometry_is_point_symmetric_and_rotation_invariant(dq, dr):
    g = offset_geometry(dq, dr)
    back = offset_geometry(-dq, -dr)
    # from the far end: the same hexes in reverse order, translated by -(dq, dr)
    assert tuple((q - dq, r - dr) for q, r in reversed(g.intervening)) == back.intervening
    assert (
        tuple(((q2 - dq, r2 - dr), (q1 - dq, r1 - dr)) for (q1, r1), (q2, r2) in reversed(g.spine_pairs))
        == back.spine_pairs
    )
    assert tuple(g.n - d for d in reversed(g.intervening_d)) == back.intervening_d
    # rotating the offset by 60 degrees rotates every crossed hex (the grid's symmetry)
    rot = Hex(dq, dr).rotate_right()
    gr = offset_geometry(rot.q, rot.r)
    assert {(h.q, h.r) for h in (Hex(*x).rotate_right() for x in g.intervening)} == set(gr.intervening)
    assert gr.n == g.n
    assert all(0 < d < g.n for d in g.intervening_d)
    if max(abs(dq), abs(dr), abs(dq + dr)) >= 2:
        assert g.intervening or g.spine_pairs


def test_los_module_imports_neither_shapely_nor_pyglet():
    code = "import sys, hexwar.model.los; print('shapely' in sys.modules, 'pyglet' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]


def test_visibility_status_codes():
    assert (CLEAR, HINDERED, BLOCKED) == (0, 1, 2)
    assert STATUS_NAMES == ("clear", "hindered", "blocked")


@pytest.fixture
def fresh_plans():
    """Empty the plan cache before and after (tests below change when plans are built)."""
    import hexwar.model.los as los_mod
    from hexwar.model.los_viewer import clear_viewer_plans

    for cache in (los_mod._PLANS, los_mod._TABLES, los_mod._SEEN_SHAPES):
        cache.clear()
    clear_viewer_plans()
    yield los_mod
    for cache in (los_mod._PLANS, los_mod._TABLES, los_mod._SEEN_SHAPES):
        cache.clear()
    clear_viewer_plans()


def test_per_offset_cache_and_shape_plan_give_the_same_answers(fresh_plans):
    """Single queries run from a per-offset cache, a block of offsets at a time, and never
    build a shape's plan (issue 22: no whole-plan build inside one query); once visibility
    has built the plan they read it. Both agree on every ordered pair."""
    L = fresh_plans
    base = random_map(9, 7, seed=5)
    hexes = list(base.hexes())
    m1 = base.copy()
    per_offset = [line_of_sight(m1, a, b) for a in hexes for b in hexes]
    assert L._state(m1).plans == [None, None] and not L._PLANS
    L._get_plan(7, 9, 0)
    L._get_plan(7, 9, 1)
    m2 = base.copy()
    planned = [line_of_sight(m2, a, b) for a in hexes for b in hexes]
    assert all(p is not None and p() is not None for p in L._state(m2).plans)
    assert per_offset == planned


def test_single_queries_never_build_a_whole_plan(fresh_plans):
    L = fresh_plans
    m = BattleMap.new(40, 40)
    hexes = list(m.hexes())
    for b in hexes:
        line_of_sight(m, hexes[-1], b)
        line_of_sight(m, hexes[0], b)
    assert not L._PLANS
    st = L._state(m)
    # blocks of _BLOCK_ROWS offsets with the same column difference were computed together
    assert len(st.geo) >= 2 * 40 * 40 - 14 and st.geo_entries > 0


def test_an_evicted_plan_is_not_kept_alive_by_its_map(fresh_plans):
    import gc

    L = fresh_plans
    m = random_map(9, 7, seed=3)
    visibility(m, Hex.from_offset(2, 2))
    line_of_sight(m, Hex.from_offset(2, 2), Hex.from_offset(8, 6))
    ref = L._state(m).plans[0]
    assert ref is not None and ref() is not None
    for h, w in ((5, 6), (6, 5), (5, 5)):  # 6 newer plans push both of the 7x9 map's out
        L._get_plan(h, w, 0)
        L._get_plan(h, w, 1)
    gc.collect()
    assert (7, 9, 0) not in L._PLANS and ref() is None
    assert line_of_sight(m, Hex.from_offset(2, 2), Hex.from_offset(8, 6)).status in (
        "clear",
        "hindered",
        "blocked",
    )


def _all_answers(m, viewers):
    return [visibility_with_hindrances(m, v) for v in viewers]


def _assert_same(a, b):
    for (s1, c1), (s2, c2) in zip(a, b, strict=True):
        assert np.array_equal(s1, s2) and np.array_equal(c1, c2)


def test_maps_too_large_for_a_plan_read_the_rest_of_each_line_on_the_fly(fresh_plans, monkeypatch):
    """Issue 22: past the plan's byte cap, the targets round 1 leaves unblocked read the rest
    of their lines in windows computed on the fly (here in chunks of a few candidates)."""
    L = fresh_plans
    m = random_map(10, 9, seed=9)
    viewers = [Hex.from_offset(0, 0), Hex.from_offset(5, 4), Hex.from_offset(9, 8), Hex.from_offset(4, 0)]
    with_plan = _all_answers(m, viewers)
    L._PLANS.clear()
    monkeypatch.setattr(L, "_PLAN_MAX_BYTES", 0)
    monkeypatch.setattr(L, "_FLY_CANDIDATES", 64)  # many small chunks
    monkeypatch.setattr(L, "_FLY_ENTRIES", 16)
    m2 = m.copy()
    _assert_same(with_plan, _all_answers(m2, viewers))
    assert L._peek_plan(9, 10, 0) is None and L._state(m2).plans == [None, None]
    for v in viewers:  # and single queries through the per-offset cache
        for b in m2.hexes():
            assert line_of_sight(m2, v, b) == line_of_sight(m, v, b)


def test_large_shapes_build_the_near_table_at_their_second_visibility_call(fresh_plans, monkeypatch):
    """A single visibility call on a large shape (``hexwar los --all``) costs less without the
    near table, so the first call computes round 1 on the fly; both agree with single queries."""
    L = fresh_plans
    monkeypatch.setattr(L, "_TAB_EAGER_OFFSETS", 0)
    monkeypatch.setattr(L, "_PLAN_MAX_BYTES", 0)
    m = random_map(12, 8, seed=14, levels=3)
    v = Hex.from_offset(6, 3)
    first = visibility_with_hindrances(m, v)
    assert (8, 12) not in L._TABLES
    second = visibility_with_hindrances(m, v)
    assert (8, 12) in L._TABLES
    _assert_same([first], [second])
    status, counts = first
    for b in m.hexes():
        r = line_of_sight(m, v, b)
        col, row = b.offset
        assert (STATUS_NAMES[status[row, col]], counts[row, col]) == (r.status, r.hindrances), b.label


def test_reading_lists_from_the_target_end_too_changes_no_answer(monkeypatch):
    import hexwar.model.los as L

    monkeypatch.setattr(L, "VIEWER_PLAN_MAX_HEXES", 0)  # the general path, in rounds
    m = random_map(11, 8, seed=21, levels=3)
    viewers = [Hex.from_offset(c, r) for c, r in ((0, 0), (3, 7), (10, 4), (6, 2), (5, 5))]
    both = _all_answers(m, viewers)
    monkeypatch.setattr(L, "_FAR_END", False)
    _assert_same(both, _all_answers(m, viewers))
    monkeypatch.setattr(L, "_FAR_END", True)
    for far_j in (1, 3, L._TAB_J):  # how many entries round 1 reads from the far end
        monkeypatch.setattr(L, "_FAR_J", far_j)
        _assert_same(both, _all_answers(m, viewers))


def test_targets_blocked_near_the_viewer_read_no_further(fresh_plans, monkeypatch):
    """Early exit (issue 22): on a flat map of woods every line longer than one hex is blocked
    by its first intervening hex (R3.4: equal eyes, woods on the way), so after round 1 only
    lines along hexsides (R3.3, which round 1 leaves whole to the later rounds) read more
    intervening hexes; the answers still equal the single queries."""
    L = fresh_plans
    monkeypatch.setattr(L, "VIEWER_PLAN_MAX_HEXES", 0)  # the general path, in rounds
    real = L._Acc.interior
    got: list[np.ndarray] = []
    monkeypatch.setattr(
        L._Acc,
        "interior",
        lambda self, tg, rel, *args, **k: got.append(tg.copy()) or real(self, tg, rel, *args, **k),
    )
    m = BattleMap.new(14, 12, fill="woods")
    read_on = 0
    for a in (Hex.from_offset(0, 0), Hex.from_offset(7, 6), Hex.from_offset(13, 11)):
        got.clear()
        status, counts = visibility_with_hindrances(m, a)
        read_on += sum(tg.size for tg in got)
        for tg in got:
            for t in tg.tolist():
                b = Hex.from_offset(*divmod(t, 12))
                assert offset_geometry(b.q - a.q, b.r - a.r).spine_pairs, (a.label, b.label)
        for b in m.hexes():
            r = line_of_sight(m, a, b)
            col, row = b.offset
            assert (STATUS_NAMES[status[row, col]], counts[row, col]) == (r.status, r.hindrances)
    assert read_on > 0  # the hexside lines did read on


@pytest.mark.slow
def test_a_300x300_map_agrees_with_the_exact_reference_on_a_sample_of_viewers():
    """Issue 22: on a map past the plan limit (the one-to-all path computes the geometry per
    viewer, single queries a block of offsets at a time) every answer still equals the shapely
    reference: visibility and hindrance counts of sampled viewers against line_of_sight_exact on
    sampled targets, and against the single-query path on every target of one viewer."""
    m = random_map(300, 300, seed=2203, density=0.35)
    rng = np.random.default_rng(2203)
    viewers = [Hex.from_offset(0, 0), Hex.from_offset(299, 299), Hex.from_offset(150, 151)]
    viewers += [Hex.from_offset(int(c), int(r)) for c, r in rng.integers(0, 300, (2, 2))]
    codes = {"clear": CLEAR, "hindered": HINDERED, "blocked": BLOCKED}
    for i, v in enumerate(viewers):
        status, counts = visibility_with_hindrances(m, v)
        for c, r in rng.integers(0, 300, (120, 2)):
            t = Hex.from_offset(int(c), int(r))
            ex = line_of_sight_exact(m, v, t)
            assert (status[r, c], counts[r, c]) == (codes[ex.status], ex.hindrances), (
                f"viewer {v.label} target {t.label}"
            )
        if i == 2:
            for t in m.hexes():
                res = line_of_sight(m, v, t)
                c, r = t.offset
                assert (status[r, c], counts[r, c]) == (codes[res.status], res.hindrances), t.label


def test_on_the_fly_windows_cross_the_same_hexes_as_the_candidate_test():
    """Issue 22: ``_fly_interior`` (per crossed hex line, in a canonical frame reached by a
    lattice rotation and mirrors, entries by cumulative sums of table steps) yields, for every
    offset off the hexside directions and every window ``dlo < D <= dhi``, exactly the
    intervening hexes and ``D`` of ``_bulk_geometry``'s test of every candidate hex (R3.2,
    R3.4), as axial indices ``r * stride + q``; offsets up to 499 hexes (a 500x500 map), whole
    lines as well as random windows, and windows only a few hexes long."""
    import hexwar.model.los as L

    rng = np.random.default_rng(2204)
    stride = 1009
    for trial in range(60):
        reach = (2, 5, 30, 499)[trial % 4]
        dq = rng.integers(-reach, reach + 1, 200)
        dr = rng.integers(-reach, reach + 1, 200)
        bx, by = 3 * dq, 2 * dr + dq
        keep = ~((by == 0) | (bx == by) | (bx == -by))
        dq, dr = dq[keep], dr[keep]
        n = 9 * dq * dq + 3 * (2 * dr + dq) ** 2
        if trial % 3 == 0:
            dlo, dhi = np.zeros_like(n), n.copy()
        elif trial % 3 == 1:
            dlo = (rng.random(n.size) * n).astype(np.int64)
            dhi = dlo + (rng.random(n.size) * n).astype(np.int64)
        else:  # a few hexes at a time, like the first rounds
            dlo = (rng.random(n.size) * n).astype(np.int64)
            dhi = dlo + n * rng.integers(1, 4, n.size) // np.maximum(np.abs(dq) + np.abs(dr), 1)
        b = L._bulk_geometry(dq, dr, dlo, dhi)
        lens, rel, d = L._fly_interior(dq, dr, dlo, dhi, stride)
        assert np.array_equal(lens, np.diff(b.ptr_i)), f"trial {trial}"
        k = np.repeat(np.arange(dq.size), lens)
        ref = b.r_i * stride + b.q_i
        o1, o2 = np.lexsort((ref, k)), np.lexsort((rel, k))
        assert np.array_equal(ref[o1], rel[o2]) and np.array_equal(b.d_i[o1], d[o2]), f"trial {trial}"
    # worked by hand: offset (3, -1) has B = (9, 1), N = 84, m = max(2, 8, 10) = 10; the hexes
    # (1, 0) (centre (3, 1): f = 9 - 3 = 6, D = 27 + 3 = 30) and (2, -1) (centre (6, 0): f = -6,
    # D = 54) cross (|f| < 10); (1, -1) (centre (3, -1): f = -12) does not.
    lens, rel, d = L._fly_interior(np.array([3]), np.array([-1]), np.array([0]), np.array([84]), stride)
    assert lens.tolist() == [2]
    # axial index r * stride + q: (1, 0) is 1, (2, -1) is 2 - stride
    assert sorted(zip(rel.tolist(), d.tolist(), strict=True)) == [(2 - stride, 54), (1, 30)]
