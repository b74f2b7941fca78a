"""Fire Monte Carlo against closed forms and dynamic programming (R8.4, R8.6; hexwar.sim.fire, exact)."""

from __future__ import annotations

import json
import math
from fractions import Fraction

import numpy as np
import pytest

from hexwar.model.hexgrid import Hex
from hexwar.model.maps import BattleMap
from hexwar.rules.fire import spread_probability
from hexwar.sim.exact import ExactTooLarge, chain_burning, exact_fire, exact_fire_on_map, two_building_burning
from hexwar.sim.fire import FireSimError, reachable_buildings, simulate_fire, start_state
from hexwar.sim.report import fire_report

H = Hex.from_label
KIND = {13: "wood_building", 14: "stone_building", 15: "reinforced_building"}


def within_3_se(est: np.ndarray, exact: np.ndarray, n: int, what: str) -> None:
    se = np.sqrt(np.maximum(exact * (1 - exact), 0) / n)
    bad = np.abs(est - exact) > 3 * se + 1e-12
    assert not bad.any(), f"{what}: estimate {est[bad]} vs exact {exact[bad]} (n={n})"


def two_buildings(dr: int) -> BattleMap:
    m = BattleMap.new(8, 10)
    m.set_terrain(H("D07"), "wood_building")
    m.set_terrain(H("D08"), KIND[dr])
    return m


@pytest.mark.parametrize(("dr", "seed"), [(13, 1), (14, 2), (15, 3)])
def test_two_building_map_matches_the_closed_form_over_3_turns(dr, seed):
    # seed 003's D07 -> D08: P(D08 burns by turn t) = 1 - (1 - p)**t, p = P(2d6 + 6 >= DR)
    p = spread_probability(dr)
    closed = two_building_burning(dr, 3)
    assert closed == [1 - (1 - p) ** t for t in range(4)]
    n = 200_000
    r = simulate_fire(two_buildings(dr), [H("D07")], 3, trials=n, seed=seed)
    est = r.p_burning()[:, 7, 3]
    within_3_se(est, np.array([float(x) for x in closed]), n, f"D08 DR {dr} seed {seed}")
    assert (r.p_burning()[:, 6, 3] == 1).all()  # the source burns throughout


def test_two_building_map_with_burnout_matches_the_closed_form():
    n = 200_000
    closed = np.array([float(x) for x in two_building_burning(14, 9, burnout=True)])
    # hand check: the source spreads in turns 1-3 only; a building lit at turn s burns through s + 3
    p = 5 / 12
    assert (
        math.isclose(closed[4], 1 - (1 - p) ** 3)
        and closed[7] == 0
        and math.isclose(closed[5], (1 - p) * p + (1 - p) ** 2 * p)
    )
    r = simulate_fire(two_buildings(14), [H("D07")], 9, trials=n, seed=4, burnout=True)
    within_3_se(r.p_burning()[:, 7, 3], closed, n, "D08 with burnout")
    src = r.p_burning()[:, 6, 3]
    assert (src[:4] == 1).all() and (src[4:] == 0).all()  # lit at turn 0, burns out at the start of turn 4
    assert (r.rubble_counts[4:, 6, 3] == n).all()


def chain_map(drs: list[int]) -> tuple[BattleMap, list[Hex]]:
    """Buildings down column D from D02: each touches only the ones above and below."""
    m = BattleMap.new(8, 3 + len(drs))
    hexes = [Hex.from_offset(3, 1 + k) for k in range(len(drs))]
    for h, dr in zip(hexes, drs, strict=True):
        m.set_terrain(h, KIND[dr])
    return m, hexes


def test_chain_of_buildings_matches_the_dynamic_program():
    drs = [13, 14, 15, 13, 14, 14, 13]
    T = 8
    m, hexes = chain_map(drs)
    dp = np.array(chain_burning(drs, T), dtype=float)  # [T+1, n]
    n = 100_000
    r = simulate_fire(m, [hexes[0]], T, trials=n, seed=8)
    idx = tuple(np.array([m.index(h) for h in hexes]).T)
    est = r.p_burning()[:, idx[0], idx[1]]
    within_3_se(est, dp, n, "chain")
    # the expected number of burning buildings is the sum over the chain
    assert np.allclose(r.burning_buildings_mean(), est.sum(axis=1))


def test_chain_dynamic_program_equals_the_general_one_exactly():
    drs = [13, 15, 14, 13, 15]
    m, hexes = chain_map(drs)
    T = 7
    chain = chain_burning(drs, T)
    general = exact_fire_on_map(m, [hexes[0]], T)
    assert general.hexes == tuple(hexes)
    assert np.allclose(general.burning, np.array(chain, dtype=float), atol=1e-12)
    # the front needs 4 successes in a row to reach the last building by turn 4 (DRs 15, 14, 13, 15)
    assert chain[3][4] == 0
    assert chain[4][4] == Fraction(5, 18) * Fraction(5, 12) * Fraction(7, 12) * Fraction(5, 18)


def test_general_dynamic_program_matches_monte_carlo_on_a_block_with_burnout():
    m = BattleMap.new(8, 8)
    block = {"C03": 13, "D03": 14, "C04": 14, "D04": 13, "E04": 15, "D05": 14, "C05": 13}
    for lab, dr in block.items():
        m.set_terrain(H(lab), KIND[dr])
    T = 8
    ex = exact_fire_on_map(m, [H("C03")], T, burnout=True)
    n = 100_000
    r = simulate_fire(m, [H("C03")], T, trials=n, seed=9, burnout=True)
    for k, h in enumerate(ex.hexes):
        row, col = m.index(h)
        within_3_se(r.p_burning()[:, row, col], ex.burning[:, k], n, f"{h.label} burning")
        within_3_se(r.p_burned_by()[:, row, col], ex.burned_by[:, k], n, f"{h.label} burned by")
    # the distribution of the number of burning buildings, turn by turn
    hist = r.burning_hist[:, : ex.count_dist.shape[1]] / n
    within_3_se(hist, ex.count_dist, n, "count distribution")
    assert np.allclose(ex.count_dist.sum(axis=1), 1)


def test_separate_clusters_are_combined_and_large_clusters_refused():
    m = BattleMap.new(10, 6)
    for lab in ("B02", "B03", "H02", "H03", "H04"):
        m.set_terrain(H(lab), "wood_building")
    ex = exact_fire_on_map(m, [H("B02"), H("H02")], 3)
    one = exact_fire_on_map(m, [H("B02")], 3)
    assert np.allclose(
        ex.expected_burning(), one.expected_burning() + exact_fire_on_map(m, [H("H02")], 3).expected_burning()
    )
    big = BattleMap.new(8, 8, fill="wood_building")
    with pytest.raises(ExactTooLarge):
        exact_fire_on_map(big, [H("A01")], 2)


@pytest.mark.parametrize("batch", [1, 100, 10_000])
def test_same_seed_identical_output_for_batch_sizes_1_100_10000(batch, kharkov_fire):
    m, ign = kharkov_fire
    ref = simulate_fire(m, ign, 4, trials=600, seed=21, batch_size=600, keep_trials=True, burnout=True)
    r = simulate_fire(m, ign, 4, trials=600, seed=21, batch_size=batch, keep_trials=True, burnout=True)
    assert (r.trial_burning == ref.trial_burning).all()
    for a in ("burning_counts", "ever_counts", "rubble_counts", "burning_hist", "spread_checks"):
        assert (getattr(r, a) == getattr(ref, a)).all(), a
    assert json.dumps(fire_report(r, m), sort_keys=True) == json.dumps(fire_report(ref, m), sort_keys=True)


@pytest.fixture(scope="module")
def kharkov_fire():
    from hexwar.cli.basic import resolve_map

    m = resolve_map("kharkov")
    dr = m.dr_array()
    rows, cols = np.nonzero(dr > 0)
    # the two largest building clusters' first hexes, found from the map itself
    seen = np.zeros_like(dr, dtype=bool)
    clusters = []
    for r, c in zip(rows, cols, strict=True):
        if seen[r, c]:
            continue
        b = np.zeros_like(seen)
        b[r, c] = True
        reach = reachable_buildings(b, dr)
        seen |= reach
        clusters.append((int(reach.sum()), Hex.from_offset(int(c), int(r))))
    clusters.sort(key=lambda x: -x[0])
    return m, [clusters[0][1], clusters[1][1]]


def test_cropping_to_the_reachable_buildings_changes_nothing(kharkov_fire):
    m, ign = kharkov_fire
    a = simulate_fire(m, ign, 6, trials=400, seed=5, crop=True, keep_trials=True)
    b = simulate_fire(m, ign, 6, trials=400, seed=5, crop=False, keep_trials=True)
    assert (a.trial_burning == b.trial_burning).all() and (a.burning_hist == b.burning_hist).all()


def test_fires_already_on_the_map_keep_their_counters():
    m = two_buildings(14)
    m.set_fire(H("D07"))
    m.fire_turns[m.index(H("D07"))] = 2  # burned 2 full turns: burns out at the start of turn 2
    r = simulate_fire(m, [], 3, trials=1000, seed=1, burnout=True)
    assert r.burning_counts[1, 6, 3] == 1000 and r.burning_counts[2, 6, 3] == 0
    # it could spread only in turn 1
    assert r.burning_counts[3, 7, 3] == r.burning_counts[1, 7, 3]


def test_reachable_buildings_stop_at_streets_and_rubble():
    m = BattleMap.new(6, 3)
    for lab in ("A01", "B01", "D01", "E01"):
        m.set_terrain(H(lab), "wood_building")
    m.set_rubble(H("E01"))
    b0, _ = start_state(m, [H("A01")])
    reach = reachable_buildings(b0, m.dr_array())
    assert {Hex.from_offset(int(c), int(r)).label for r, c in zip(*np.nonzero(reach), strict=True)} == {
        "A01",
        "B01",
    }


@pytest.mark.parametrize(
    ("ignite", "msg"),
    [
        (Hex.from_offset(8, 0), "off the 8 x 10 map"),
        (Hex.from_label("A01"), "holds clear terrain, not an intact building"),
    ],
)
def test_bad_ignition_hexes_are_refused_with_a_sentence(ignite, msg):
    with pytest.raises(FireSimError, match=msg):
        simulate_fire(two_buildings(14), [ignite], 3, trials=10)


def test_rubble_cannot_be_ignited_and_turns_must_be_sensible():
    m = two_buildings(14)
    m.set_rubble(H("D08"))
    with pytest.raises(FireSimError, match="holds rubble"):
        simulate_fire(m, [H("D08")], 3, trials=10)
    with pytest.raises(FireSimError, match="turns must be"):
        simulate_fire(m, [H("D07")], 0, trials=10)


def test_exact_fire_refuses_too_many_states():
    m, hexes = chain_map([13] * 6)
    with pytest.raises(ExactTooLarge):
        b0, t0 = start_state(m, [hexes[0]])
        exact_fire(b0, t0, m.dr_array(), 5, burnout=True, max_states=3)


@pytest.mark.slow
@pytest.mark.parametrize("burnout", [False, True])
def test_kharkov_clusters_exact_dp_vs_a_million_trials(kharkov_fire, burnout):
    # every small cluster of the real map lit at one building; many hexes and turns, so each
    # probability must lie within 4 standard errors (3 would fail by chance somewhere)
    m, _ = kharkov_fire
    dr = m.dr_array()
    rows, cols = np.nonzero(dr > 0)
    limit = 9 if burnout else 12
    ign, seen = [], np.zeros(dr.shape, dtype=bool)
    for r, c in zip(rows, cols, strict=True):
        if seen[r, c]:
            continue
        b = np.zeros(dr.shape, dtype=bool)
        b[r, c] = True
        reach = reachable_buildings(b, dr)
        seen |= reach
        if 3 <= reach.sum() <= limit:
            ign.append(Hex.from_offset(int(c), int(r)))
    assert len(ign) >= 5
    T, n = 8, 1_000_000
    ex = exact_fire_on_map(m, ign, T, burnout=burnout, max_buildings=limit)
    res = simulate_fire(m, ign, T, trials=n, seed=12, burnout=burnout)
    for k, h in enumerate(ex.hexes):
        row, col = m.index(h)
        est, p = res.p_burning()[:, row, col], np.clip(ex.burning[:, k], 0, 1)
        se = np.sqrt(p * (1 - p) / n)
        assert (np.abs(est - p) <= 4 * se + 1e-12).all(), f"{h.label}: {est} vs {p}"
    assert np.allclose(
        res.burning_buildings_mean(), ex.expected_burning(), atol=4 * res.burning_buildings_sd().max() / 1000
    )
