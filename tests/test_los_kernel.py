"""The compiled LOS kernel (issue 35) against the numpy paths and the exact reference (R3).

* its walk from hex to crossed neighbour lists exactly the intervening hexes and ``D`` of the
  candidate test (``_bulk_geometry``, R3.2) for every offset off the hexside directions within
  30 hexes and for random offsets up to 499 (a 500x500 map);
* one-to-all statuses and hindrance counts (R3.4-R3.6) equal the numpy paths' on random maps
  with woods, hindrances, buildings, rubble (R8.3), fire (R8.4), wrecks with and without the
  LOS symbol (R3.5) and hills, from every viewer of small maps (so every hexside line, R3.3) and
  sampled viewers of maps past 64x64 (where the kernel runs by default);
* single queries equal the numpy single query field by field (intervening hexes, spine pairs,
  first blocking hex and why) and the shapely reference on status and hindrances;
* without the kernel (``HEXWAR_LOS_KERNEL=0``) hexwar answers the same through numpy.

The kernel tests skip when the extension was not built (no C compiler at install time).
"""

from __future__ import annotations

import pickle
import subprocess
import sys

import numpy as np
import pytest
from test_los import random_map

import hexwar.model.los as L
from hexwar.model.hexgrid import Hex
from hexwar.model.los_exact import line_of_sight_exact

needs_kernel = pytest.mark.skipif(not L.kernel_available(), reason="compiled LOS kernel not built")


def _numpy_answers(monkeypatch, fn, *args):
    with monkeypatch.context() as mp:
        mp.setattr(L, "_KERNEL", None)
        return fn(*args)


@needs_kernel
def test_the_walk_crosses_exactly_the_hexes_of_the_candidate_test():
    rng = np.random.default_rng(3501)
    offsets = [(q, r) for q in range(-30, 31) for r in range(-30, 31)]
    offsets += [tuple(x) for x in rng.integers(-499, 500, (1500, 2)).tolist()]
    bufs = [np.zeros(2048, dtype=np.int64) for _ in range(3)]
    checked = 0
    for dq, dr in offsets:
        bx, by = 3 * dq, 2 * dr + dq
        if by == 0 or bx == by or bx == -by:  # hexside directions go by the candidate test in C too
            with pytest.raises(ValueError):
                L._KERNEL.geometry(dq, dr, *bufs)
            continue
        n = L._KERNEL.geometry(dq, dr, *bufs)
        g = L._bulk_geometry(np.array([dq]), np.array([dr]))
        assert np.array_equal(bufs[0][:n], g.q_i), (dq, dr)
        assert np.array_equal(bufs[1][:n], g.r_i), (dq, dr)
        assert np.array_equal(bufs[2][:n], g.d_i), (dq, dr)
        checked += 1
    assert checked > 4000
    # by hand: offset (3, -1) has B = (9, 1), N = 84, m = 10; it crosses (1, 0) (centre (3, 1):
    # f = 6, D = 30) and then (2, -1) (centre (6, 0): f = -6, D = 54), in that order
    n = L._KERNEL.geometry(3, -1, *bufs)
    assert (bufs[0][:n].tolist(), bufs[1][:n].tolist(), bufs[2][:n].tolist()) == ([1, 2], [0, -1], [30, 54])


@needs_kernel
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_one_to_all_equals_the_numpy_path_from_every_viewer_of_small_maps(seed, monkeypatch):
    m = random_map(13, 11, seed=3510 + seed)
    for v in m.hexes():
        want = _numpy_answers(monkeypatch, L.visibility_with_hindrances, m, v)
        with monkeypatch.context() as mp:
            mp.setattr(L, "_KERNEL_MIN_HEXES_ALL", 0)  # the kernel on a small map (the default)
            got = L.visibility_with_hindrances(m, v)
            assert np.array_equal(L.visibility(m, v), got[0])
        assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1]), f"seed {seed} {v.label}"


@needs_kernel
def test_one_to_all_equals_the_numpy_path_on_maps_past_64x64(monkeypatch):
    rng = np.random.default_rng(3520)
    for seed, (w, h) in enumerate([(70, 66), (97, 68)]):
        m = random_map(w, h, seed=3520 + seed, density=0.5)
        viewers = [Hex.from_offset(0, 0), Hex.from_offset(w - 1, h - 1)]
        viewers += [
            Hex.from_offset(int(c), int(r))
            for c, r in zip(rng.integers(0, w, 3), rng.integers(0, h, 3), strict=True)
        ]
        for v in viewers:
            got = L.visibility_with_hindrances(m, v)
            want = _numpy_answers(monkeypatch, L.visibility_with_hindrances, m, v)
            assert np.array_equal(got[0], want[0]) and np.array_equal(got[1], want[1]), (
                f"seed {seed} {v.label}"
            )


@needs_kernel
def test_single_queries_equal_the_numpy_query_and_the_exact_reference(monkeypatch):
    rng = np.random.default_rng(3530)
    m = random_map(72, 66, seed=3530, density=0.6)
    hexes = list(m.hexes())
    for i in range(400):
        a = hexes[int(rng.integers(len(hexes)))]
        b = hexes[int(rng.integers(len(hexes)))]
        if i % 4 == 0:  # along a hexside direction (R3.3) from a
            k = int(rng.integers(2, 20))
            d = [(2, -1), (1, 1), (-1, 2), (-2, 1), (-1, -1), (1, -2)][i % 6]
            b = Hex(a.q + d[0] * k, a.r + d[1] * k)
            if not (0 <= b.offset[0] < 72 and 0 <= b.offset[1] < 66):
                continue
        got = L.line_of_sight(m, a, b)
        want = _numpy_answers(monkeypatch, L.line_of_sight, m, a, b)
        assert got == want, f"{a.label} {b.label}"
        assert (got.intervening, got.spine_pairs, got.blocking, got.reason) == (
            want.intervening,
            want.spine_pairs,
            want.blocking,
            want.reason,
        )
        if i % 8 == 0:
            ex = line_of_sight_exact(m, a, b)
            assert (got.status, got.hindrances) == (ex.status, ex.hindrances), f"{a.label} {b.label}"


@needs_kernel
def test_a_kernel_result_is_a_plain_frozen_value():
    m = random_map(70, 66, seed=3540)
    a, b = Hex.from_offset(3, 4), Hex.from_offset(60, 50)
    r = L.line_of_sight(m, a, b)
    again = pickle.loads(pickle.dumps(r))
    assert again == r and hash(again) == hash(r)
    assert len(r.intervening) >= 56  # at least one hex per column crossed between the ends
    assert r.to_json()["from"] == a.to_label(2)
    with pytest.raises(AttributeError):
        r.status = "clear"  # type: ignore[misc]


def test_without_the_kernel_hexwar_answers_through_numpy():
    code = (
        "import numpy as np, hexwar.model.los as L\n"
        "from hexwar.model.maps import BattleMap\n"
        "from hexwar.model.hexgrid import Hex\n"
        "m = BattleMap.new(70, 66)\n"
        "m.set_terrain(Hex.from_offset(5, 5), 'woods')\n"
        "s = L.visibility(m, Hex.from_offset(5, 3))\n"
        "print(L.kernel_available(), int(s[7, 5]), int(s[4, 5]),"
        " L.line_of_sight(m, Hex.from_offset(5, 3), Hex.from_offset(5, 9)).status)\n"
    )
    env = {k: v for k, v in __import__("os").environ.items()}
    env["HEXWAR_LOS_KERNEL"] = "0"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    # woods at E06 between E04 and E08..E10 on flat ground: blocked; E05 next to E04: clear
    assert out.stdout.split() == ["False", "2", "0", "blocked"]
