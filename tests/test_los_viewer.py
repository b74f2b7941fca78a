"""Remembered per-viewer crossing lists on small maps (hexwar.model.los_viewer, issue 22).

On maps of at most VIEWER_PLAN_MAX_HEXES hexes a viewer's whole-map LOS (R3.4 blocking, R3.5
hindrance counts, R3.3 spine pairs) is read from its own lists in one pass. The answers must
be exactly those of the general path (rounds with early exits) on every viewer, whatever the
cache holds; the general path and single queries agree with the shapely reference elsewhere
(tests/test_los.py, tests/test_los_exact.py), and those tests now run through this path too.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from test_los import random_map

import hexwar.model.los as L
from hexwar.game.scenario import load_scenario
from hexwar.model import los_viewer
from hexwar.model.hexgrid import Hex
from hexwar.model.los import line_of_sight, visibility, visibility_with_hindrances
from hexwar.model.maps import BattleMap

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
HEX_SCENARIOS = sorted(p for p in SCENARIOS.glob("*.toml") if not p.name.startswith("lines"))
CODES = {"clear": L.CLEAR, "hindered": L.HINDERED, "blocked": L.BLOCKED}


@pytest.fixture(autouse=True)
def _numpy_one_to_all(monkeypatch):
    """The viewer lists are a numpy path: one-to-all on small maps keeps it in this module
    (the compiled kernel takes every map by default since issue 35's fifth session)."""
    monkeypatch.setattr(L, "_KERNEL_MIN_HEXES_ALL", L._KERNEL_MIN_HEXES)


@pytest.fixture
def fresh():
    los_viewer.clear_viewer_plans()
    yield los_viewer
    los_viewer.clear_viewer_plans()


def _general(monkeypatch, m, v):
    with monkeypatch.context() as mp:
        mp.setattr(L, "VIEWER_PLAN_MAX_HEXES", 0)
        return visibility_with_hindrances(m, v)


def _same(a, b):
    return np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])


@pytest.mark.parametrize("path", HEX_SCENARIOS, ids=lambda p: p.stem)
def test_every_third_viewer_of_every_shipped_map_sees_what_the_general_path_sees(path, fresh, monkeypatch):
    m = load_scenario(path).battlemap
    assert m.width * m.height <= los_viewer.VIEWER_PLAN_MAX_HEXES
    hexes = list(m.hexes())
    for v in hexes[path.stem.__len__() % 3 :: 3]:
        got = visibility_with_hindrances(m, v)
        assert _same(got, _general(monkeypatch, m, v)), f"{path.stem} viewer {v.label}"
    assert fresh.viewer_plan_bytes() > 0


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_viewer_of_random_hilly_maps_with_wrecks_and_fires_agrees_with_the_general_path(
    seed, fresh, monkeypatch
):
    m = random_map(17, 13, seed=seed, levels=4)
    for v in m.hexes():
        assert _same(visibility_with_hindrances(m, v), _general(monkeypatch, m, v)), f"seed {seed} {v.label}"
        status = visibility(m, v)  # without the counts: the same statuses
        assert np.array_equal(status, _general(monkeypatch, m, v)[0])


def test_the_remembered_lists_follow_changes_of_the_map_content(fresh):
    # the lists depend only on the shape and the viewer: a wreck placed after they were made is
    # seen at once (R3.2: a wreck with the LOS symbol blocks between, not at the ends)
    m = BattleMap.new(12, 9)
    a, b = Hex.from_label("A05"), Hex.from_label("K05")
    assert visibility(m, a)[4, 10] == L.CLEAR
    mid = Hex.from_label("E05")
    wreck = next(k for k, w in sorted(m.rules.wrecks.items()) if w.los)
    m.add_wreck(mid, wreck)
    res = line_of_sight(m, a, b)
    assert mid in res.intervening and res.status == "blocked"
    assert visibility(m, a)[4, 10] == L.BLOCKED


def test_the_cache_stays_within_its_byte_bound_and_evicts_the_oldest_viewer(fresh, monkeypatch):
    m = random_map(20, 15, seed=11)
    hexes = list(m.hexes())
    one = fresh.viewer_plan(L._get_plan(15, 20, 0), 0, 0).nbytes
    fresh.clear_viewer_plans()
    monkeypatch.setattr(fresh, "VIEWER_PLAN_CACHE_BYTES", 5 * one)
    answers = {v: visibility_with_hindrances(m, v) for v in hexes[:40]}
    assert 0 < fresh.viewer_plan_bytes() <= 5 * one * 1.5  # another viewer's lists differ in size
    assert len(fresh._CACHE) < 40
    assert (15, 20, *hexes[0].offset) not in fresh._CACHE  # the first viewer went first
    for v in hexes[:40]:  # rebuilt lists give the same answers
        assert _same(visibility_with_hindrances(m, v), answers[v]), v.label


def test_the_remembered_arrays_are_read_only(fresh):
    vp = fresh.viewer_plan(L._get_plan(9, 10, 1), 3, 4)
    with pytest.raises(ValueError):
        vp.rel[0] = 0
    assert vp.rel.dtype == np.int32 and vp.inv.dtype == np.float64
