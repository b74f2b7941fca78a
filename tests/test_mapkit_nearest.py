"""Issue 35: :func:`hexwar.mapkit.nearest_sample` (the distance of every hex centre to a river
or road curve) gives exactly the full comparison's answer, distance and first nearest
sample, on grids and curves built to hold many exact ties, without the full comparison's
``points x samples`` arrays."""

from __future__ import annotations

import numpy as np
import pytest

from hexwar.mapkit import MapBuilder, _nearest_brute, nearest_sample


@pytest.mark.parametrize("kind", ["lattice", "random", "curve"])
def test_nearest_sample_equals_the_full_comparison(kind):
    rng = np.random.default_rng({"lattice": 1, "random": 2, "curve": 3}[kind])
    for trial in range(60):
        h, w = int(rng.integers(1, 50)), int(rng.integers(1, 50))
        m = int(rng.integers(1, 1200))
        if kind == "lattice":  # half-unit lattices: equal distances everywhere
            px = rng.integers(0, 20, (h, w)) * 0.5
            py = rng.integers(0, 20, (h, w)) * 0.5
            s = rng.integers(0, 20, (m, 2)) * 0.5
        elif kind == "random":
            px, py, s = rng.random((h, w)) * 50, rng.random((h, w)) * 50, rng.random((m, 2)) * 50
        else:  # a hex grid's centres and a sampled curve, as the map builder has them
            px, py = np.meshgrid(np.arange(w) * 0.87, np.arange(h) * 1.0)
            t = np.sort(rng.random(m))
            s = np.column_stack([t * 40 + 5, 10 + 20 * np.sin(t * 6)])
        block, tile = int(rng.choice([4, 16, 32])), int(rng.choice([1, 3, 8]))
        d, k = nearest_sample(px, py, s, block=block, tile=tile)
        d0, k0 = _nearest_brute(px.ravel(), py.ravel(), s)
        where = f"{kind} trial {trial} ({h}x{w}, {m} samples, block {block}, tile {tile})"
        assert np.array_equal(k.ravel(), k0), where
        assert np.array_equal(d.ravel(), d0), where


def test_a_long_river_on_a_big_map_needs_no_points_by_samples_array():
    import tracemalloc

    b = MapBuilder(200, 150, "t", "")
    tracemalloc.start()
    d, t = b.distance_to(["A001", "GR150", "A150"])  # about 10,000 samples
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert peak < 64 * 2**20  # the full comparison: 30,000 x 10,000 float64 = 2.4 GB
    assert d.shape == (150, 200) and float(d.min()) < 0.5 and 0.0 <= float(t.min()) <= float(t.max()) <= 2.0
