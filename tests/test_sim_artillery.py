"""Artillery Monte Carlo against exact answers (R9.3, R9.4, R8.2-R8.4; hexwar.sim.artillery)."""

from __future__ import annotations

import itertools
import json
import math
from fractions import Fraction

import numpy as np
import pytest

from hexwar.model.hexgrid import Hex
from hexwar.model.maps import BattleMap
from hexwar.rules.buildings import attack_value, building_result
from hexwar.sim.artillery import BURNING, INTACT, RUBBLED, ArtillerySimError, simulate_artillery
from hexwar.sim.exact import building_states, landing_distribution, landing_fractions
from hexwar.sim.report import artillery_report
from hexwar.sim.seeding import SeedError, artillery_counter, d6_pair, trial_keys, trial_words

H = Hex.from_label


def town(width: int = 12, height: int = 12) -> BattleMap:
    """A small map with a block of wood, stone and reinforced buildings around F06."""
    m = BattleMap.new(width, height)
    for lab, kind in [
        ("F06", "wood_building"),
        ("F05", "stone_building"),
        ("G06", "reinforced_building"),
        ("E06", "wood_building"),
        ("F07", "stone_building"),
        ("F04", "wood_building"),
        ("H07", "wood_building"),
        ("D05", "stone_building"),
    ]:
        m.set_terrain(H(lab), kind)
    return m


@pytest.mark.parametrize(
    ("target", "hit_on", "bonus", "seed"),
    [
        ("F06", 4, 0, 105),  # Soviet, in the middle: drift up to 3
        ("F06", 3, 0, 102),  # German: drift up to 2
        ("B02", 4, 1, 103),  # Soviet with the Command-card bonus, near a corner: some strikes leave the map
        ("A01", 7, 0, 104),  # a hit number of 7 never hits: every strike drifts 1..6, many off the map
    ],
)
def test_landing_distribution_matches_the_exact_one_within_3_standard_errors(target, hit_on, bonus, seed):
    m = town()
    t = H(target)
    n = 1_000_000
    r = simulate_artillery(m, t, hit_on=hit_on, bonus=bonus, damage_index=8, trials=n, seed=seed)
    exact, off = landing_distribution(t, hit_on, bonus, m.width, m.height)
    assert r.strikes == n and int(r.landing_counts.sum()) + r.off_map == n
    assert ((exact == 0) <= (r.landing_counts == 0)).all(), "a strike landed where it cannot"
    est = r.landing_probability()
    for row, col in zip(*np.nonzero(exact), strict=True):
        p = exact[row, col]
        se = math.sqrt(p * (1 - p) / n)
        z = (est[row, col] - p) / se
        assert abs(z) < 3, (
            f"seed {seed}: hex {Hex.from_offset(int(col), int(row)).label} p={p:.5f} est={est[row, col]:.5f} z={z:.2f}"
        )
    if off > 0:
        se = math.sqrt(off * (1 - off) / n)
        assert abs(r.off_map_share() - off) < 3 * se, f"seed {seed}: off-map {r.off_map_share()} vs {off}"
    else:
        assert r.off_map == 0


def test_exact_landing_distribution_sums_to_one_and_has_the_rulebook_shape():
    d = landing_fractions(H("F06"), 4, 0, 12, 12)
    assert sum(d.values()) == 1
    assert d[H("F06")] == Fraction(1, 2)  # faces 4-6 hit
    assert len(d) == 1 + 18  # faces 1-3 times 6 directions: 18 hexes of 1/36 each
    assert all(v == Fraction(1, 36) for h, v in d.items() if h != H("F06"))
    assert d[H("F04")] == Fraction(1, 36)  # a 2 then a 1: two hexes north (R9.5)


def test_a_trial_rolling_2_then_1_lands_two_hexes_north_as_in_seed_003():
    # find the first trials whose mission-0 faces are (2, 1): the harness must put them on D05
    keys = trial_keys(7, 0, 5000)
    acc, d = d6_pair(trial_words(keys, artillery_counter(0, 0)))
    picks = np.flatnonzero((acc == 2) & (d == 1))[:3]
    assert picks.size
    r = simulate_artillery(
        BattleMap.new(10, 10), H("D07"), hit_on=4, damage_index=8, trials=5000, seed=7, keep_trials=True
    )
    d05 = H("D05")
    for i in picks:
        assert r.trial_landings[i, 0] == d05.offset[1] * 10 + d05.offset[0]


@pytest.mark.parametrize("missions", [1, 3])
def test_building_outcomes_match_the_exact_markov_chain(missions):
    m = town()
    t = H("F06")
    n = 200_000
    r = simulate_artillery(m, t, hit_on=4, damage_index=9, missions=missions, trials=n, seed=31 + missions)
    exact = landing_fractions(t, 4, 0, m.width, m.height)
    assert set(r.building_hexes) == {h for h in exact if h is not None and m.building_at(h) is not None}
    for k, h in enumerate(r.building_hexes):
        ex = building_states(exact[h], 9, int(r.building_dr[k]), missions)
        for key, counts in (
            ("rubble", r.rubble_counts),
            ("burning", r.fire_counts),
            ("fire_started", r.fire_started_counts),
        ):
            p = float(ex[key])
            est = counts[k] / n
            se = math.sqrt(max(p * (1 - p), 1e-12) / n)
            assert abs(est - p) < 3 * se + 1e-12, (
                f"{h.label} {key}: exact {p:.5f} est {est:.5f} (missions {missions})"
            )


def test_building_states_agree_with_brute_force_enumeration():
    # two missions; each lands in the hex (p) or not, then rolls 2d6: enumerate every outcome exactly
    p = Fraction(5, 36)
    for di, dr in ((9, 13), (8, 14), (4, 15), (12, 13)):
        dist = {"intact": Fraction(0), "burning": Fraction(0), "rubble": Fraction(0)}
        started = Fraction(0)
        per_strike = [(None, 1 - p)] + [((a, b), p / 36) for a in range(1, 7) for b in range(1, 7)]
        for seq in itertools.product(per_strike, repeat=2):
            prob = Fraction(1)
            state, lit = "intact", False
            for roll, q in seq:
                prob *= q
                if roll is None or state == "rubble":
                    continue
                res = building_result(attack_value(sum(roll), di, "artillery"), dr, "artillery").value
                if res == "rubble":
                    state = "rubble"
                elif res == "fire" and state == "intact":
                    state, lit = "burning", True
            dist[state] += prob
            started += prob if lit else 0
        ex = building_states(p, di, dr, 2)
        assert (ex["intact"], ex["burning"], ex["rubble"], ex["fire_started"]) == (
            dist["intact"],
            dist["burning"],
            dist["rubble"],
            started,
        ), (di, dr)


def test_expected_attacks_count_every_strike_in_the_hex():
    m = town()
    r = simulate_artillery(m, H("F06"), hit_on=4, damage_index=9, missions=4, trials=100_000, seed=5)
    ea = r.expected_attacks()
    # 4 missions x P(land on the target) = 4 x 1/2; per trial the count is Binomial(4, 1/2)
    se = math.sqrt(4 * 0.5 * 0.5 / r.trials)
    assert abs(ea[m.index(H("F06"))] - 2.0) < 3 * se
    assert math.isclose(ea.sum() + r.off_map / r.trials, 4.0)


@pytest.mark.parametrize("batch", [1, 100, 10_000])
def test_same_seed_identical_output_for_batch_sizes_1_100_10000(batch):
    m = town()
    ref = simulate_artillery(
        m,
        H("F06"),
        hit_on=4,
        damage_index=9,
        missions=3,
        trials=2500,
        seed=77,
        batch_size=2500,
        keep_trials=True,
    )
    r = simulate_artillery(
        m,
        H("F06"),
        hit_on=4,
        damage_index=9,
        missions=3,
        trials=2500,
        seed=77,
        batch_size=batch,
        keep_trials=True,
    )
    assert (r.trial_landings == ref.trial_landings).all()
    assert (r.trial_states == ref.trial_states).all()
    for a in ("landing_counts", "rubble_counts", "fire_counts", "fire_started_counts"):
        assert (getattr(r, a) == getattr(ref, a)).all(), a
    rep = json.dumps(artillery_report(r, m, side="soviet", weapon_name="w"), sort_keys=True)
    assert rep == json.dumps(artillery_report(ref, m, side="soviet", weapon_name="w"), sort_keys=True)


def test_a_different_seed_gives_different_trials():
    m = town()
    a = simulate_artillery(m, H("F06"), hit_on=4, damage_index=9, trials=2000, seed=1, keep_trials=True)
    b = simulate_artillery(m, H("F06"), hit_on=4, damage_index=9, trials=2000, seed=2, keep_trials=True)
    assert (a.trial_landings != b.trial_landings).mean() > 0.3


def test_rubble_stays_rubble_and_burning_buildings_only_turn_to_rubble():
    m = town()
    m.set_fire(H("F06"))
    r = simulate_artillery(
        m, H("F06"), hit_on=4, damage_index=10, missions=6, trials=20_000, seed=3, keep_trials=True
    )
    k = r.building_hexes.index(H("F06"))
    assert r.building_start[k] == BURNING
    s = r.trial_states[:, k]
    assert set(np.unique(s).tolist()) <= {BURNING, RUBBLED}  # a burning building never returns to intact
    assert r.fire_started_counts[k] == 0  # it was already burning
    assert (r.trial_states[:, [i for i, h in enumerate(r.building_hexes) if h != H("F06")]] != INTACT).any()


def test_rubble_at_the_start_is_not_a_building_any_more():
    m = town()
    m.set_rubble(H("F06"))
    r = simulate_artillery(m, H("F06"), hit_on=4, damage_index=10, trials=1000, seed=3)
    assert H("F06") not in r.building_hexes


@pytest.mark.parametrize(
    ("kw", "msg"),
    [
        ({"target": Hex.from_offset(12, 3)}, "off the 12 x 12 map"),
        ({"hit_on": 0}, "hit_on must be"),
        ({"missions": 0}, "missions must be"),
        ({"bonus": 2}, "bonus must be"),
        ({"damage_index": -1}, "damage_index must be"),
        ({"dr": np.zeros((3, 3))}, "dr array has shape"),
    ],
)
def test_bad_arguments_raise_one_clear_error(kw, msg):
    args = {"target": H("F06"), "hit_on": 4, "damage_index": 8, "trials": 10}
    args.update(kw)
    target = args.pop("target")
    with pytest.raises(ArtillerySimError, match=msg):
        simulate_artillery(town(), target, **args)


def test_bad_seed_or_batch_size_is_refused():
    with pytest.raises(SeedError):
        simulate_artillery(town(), H("F06"), hit_on=4, damage_index=8, trials=10, seed=-3)
    with pytest.raises(SeedError):
        simulate_artillery(town(), H("F06"), hit_on=4, damage_index=8, trials=10, batch_size=0)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [201, 202])
def test_ten_million_strikes_on_kharkov_match_the_exact_landing_map(seed):
    # many hexes at 1e7 strikes: each within 4 standard errors, and the whole histogram by chi-square
    from hexwar.cli.basic import resolve_map

    m = resolve_map("kharkov")
    t = Hex.from_offset(1, 1)  # near the corner: every drift direction, many off the map
    n = 10_000_000
    r = simulate_artillery(m, t, hit_on=7, damage_index=10, trials=n, seed=seed)
    exact, off = landing_distribution(t, 7, 0, m.width, m.height)
    est = r.landing_probability()
    se = np.sqrt(exact * (1 - exact) / n)
    nz = exact > 0
    assert (np.abs(est - exact)[nz] < 4 * se[nz]).all(), f"seed {seed}"
    observed = np.append(r.landing_counts[nz], r.off_map)
    expected = np.append(exact[nz], off) * n
    chi2 = float(((observed - expected) ** 2 / expected).sum())
    from scipy.stats import chi2 as chi2_dist

    limit = chi2_dist.ppf(0.999, observed.size - 1)
    assert chi2 < limit, (
        f"seed {seed}: chi-square {chi2:.1f} over {observed.size - 1} df (p < 0.001 above {limit:.1f})"
    )
