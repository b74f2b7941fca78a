"""Lines of sight cut by fire, checked against the LOS engine on each trial's own map (R3, R8.4; hexwar.sim.fire_los)."""

from __future__ import annotations

import numpy as np
import pytest

from hexwar.model.hexgrid import Hex
from hexwar.model.los import BLOCKED, visibility
from hexwar.model.maps import BattleMap
from hexwar.sim.fire import reachable_buildings, simulate_fire, start_state
from hexwar.sim.fire_los import plan_los_cuts

H = Hex.from_label
KINDS = ["wood_building", "stone_building", "reinforced_building"]


def hilly_town(seed: int) -> tuple[BattleMap, list[Hex]]:
    """A 12 x 10 map: a ridge (levels 0-3), a block of buildings on the slope, a few woods."""
    rng = np.random.default_rng(seed)
    m = BattleMap.new(12, 10)
    for c in range(12):
        for r in range(10):
            m.set_level(Hex.from_offset(c, r), int(max(0, 3 - abs(c - int(rng.integers(2, 5))) // 2)))
    for c, r in zip(rng.integers(0, 12, 6), rng.integers(0, 10, 6), strict=True):
        m.set_terrain(Hex.from_offset(int(c), int(r)), "woods")
    c0, r0 = int(rng.integers(3, 7)), int(rng.integers(2, 6))
    block = []
    for dc in range(3):
        for dr in range(3):
            if rng.random() < 0.8:
                h = Hex.from_offset(c0 + dc, r0 + dr)
                m.set_terrain(h, KINDS[int(rng.integers(0, 3))])
                block.append(h)
    return m, block[:1]


def trial_map(m: BattleMap, burning: np.ndarray, rubble: np.ndarray) -> BattleMap:
    t = m.copy()
    for r, c in zip(*np.nonzero(rubble), strict=True):
        t.set_rubble(Hex.from_offset(int(c), int(r)))
    for r, c in zip(*np.nonzero(burning), strict=True):
        t.set_fire(Hex.from_offset(int(c), int(r)))
    return t


def blocked_pairs(m: BattleMap, hexes: list[Hex]) -> np.ndarray:
    """``bool [V, V]``: LOS between viewpoints blocked, by the LOS engine."""
    idx = [m.index(h) for h in hexes]
    rows = []
    for h in hexes:
        v = visibility(m, h)
        rows.append([v[r, c] == BLOCKED for r, c in idx])
    return np.array(rows)


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_cut_lines_are_exactly_the_lines_the_los_engine_finds_blocked(seed):
    m, ign = hilly_town(seed)
    b0, _ = start_state(m, ign)
    plan = plan_los_cuts(m, reachable_buildings(b0, m.dr_array()), None)
    r = simulate_fire(m, ign, 6, trials=30, seed=seed, burnout=True, los=plan, keep_trials=True)
    hexes = [Hex.from_offset(c, rr) for rr in range(m.height) for c in range(m.width)]
    base = blocked_pairs(m, hexes)
    lines = {tuple(sorted(x)) for x in plan.lines.tolist()}
    for trial in range(0, 30, 3):
        for t in (0, 2, 4, 6):
            now = blocked_pairs(trial_map(m, r.trial_burning[trial, t], r.trial_rubble[trial, t]), hexes)
            cut = np.triu(now & ~base, 1)
            pairs = {(int(a), int(b)) for a, b in zip(*np.nonzero(cut), strict=True)}
            assert pairs <= lines, f"seed {seed} trial {trial} turn {t}: a cut line was not planned"
            sc = plan.scorer(1, 0)
            sc.add(0, r.trial_burning[trial, t][None], r.trial_rubble[trial, t][None])
            res = sc.result()
            got = {tuple(sorted(int(x) for x in plan.lines[i])) for i in np.flatnonzero(res.line_counts[0])}
            assert got == pairs, (
                f"seed {seed} trial {trial} turn {t}: {len(got)} scored vs {len(pairs)} blocked"
            )
            lost = np.zeros(m.height * m.width, dtype=bool)
            for a, b in pairs:
                lost[a] = lost[b] = True
            assert (res.lost_counts[0].ravel() > 0).tolist() == lost.tolist()
            # every cutting fire burns, and every cut line has a cutting fire on it
            assert not (res.cutter_counts[0] & ~r.trial_burning[trial, t]).any()
            assert bool(pairs) == bool(res.cutter_counts[0].any())


def test_run_totals_add_up_over_trials():
    m, ign = hilly_town(2)
    b0, _ = start_state(m, ign)
    plan = plan_los_cuts(m, reachable_buildings(b0, m.dr_array()), None)
    r = simulate_fire(m, ign, 5, trials=200, seed=6, los=plan, keep_trials=True)
    los = r.los
    assert los.trials == 200 and los.line_counts.shape == (6, plan.lines.shape[0])
    assert (los.line_counts.sum(axis=1) == los.cut_sum).all()  # sum over lines = sum over trials
    # batch size does not matter for the LOS statistics either
    r2 = simulate_fire(m, ign, 5, trials=200, seed=6, los=plan, batch_size=7)
    for a in ("line_counts", "lost_counts", "cutter_counts", "cut_sum", "cut_sumsq"):
        assert (getattr(r2.los, a) == getattr(los, a)).all(), a


def test_fire_on_flat_ground_cuts_nothing_a_building_did_not_already_block():
    # eye 0.5 over a building of top 1 is blocked anyway: fire changes no line on a level map
    m = BattleMap.new(10, 8)
    for lab in ("D04", "D05", "E04", "E05"):
        m.set_terrain(H(lab), "wood_building")
    b0, _ = start_state(m, [H("D04")])
    plan = plan_los_cuts(m, reachable_buildings(b0, m.dr_array()), None)
    assert plan.lines.shape[0] == 0


def test_fire_blocks_a_line_that_passes_over_a_building_from_a_hill():
    # A01 and G01 at level 3 see over the level-0 wood building E01 (top 1, an intervening hex of
    # the line: the segment runs through C01 and E01 and along the top sides of B01, D01 and F01,
    # whose partners are off the map); its fire blocks them. A fire in D01 alone would not.
    m = BattleMap.new(7, 1)
    for lab in ("A01", "G01"):
        m.set_level(H(lab), 3)
    m.set_terrain(H("E01"), "wood_building")
    m.set_terrain(H("D01"), "wood_building")
    plan = plan_los_cuts(
        m, reachable_buildings(start_state(m, [H("D01")])[0], m.dr_array()), [H("A01"), H("G01")]
    )
    assert plan.lines.tolist() == [[0, 6]]
    assert plan.ent_pos.tolist() == [4] and plan.sp_pos.tolist() == [[3, -1]]
    r = simulate_fire(m, [H("E01")], 1, trials=10, seed=0, los=plan)
    assert r.los.line_counts[:, 0].tolist() == [10, 10]
    assert r.los.lost_counts[0, 0, 0] == 10 and r.los.lost_counts[0, 0, 6] == 10
    assert r.los.cutter_counts[0, 0, 4] == 10 and r.los.cutter_counts[0, 0, 3] == 0


def test_viewpoints_must_be_on_the_map():
    m = BattleMap.new(5, 5)
    m.set_terrain(H("C03"), "wood_building")
    with pytest.raises(ValueError):
        plan_los_cuts(m, m.dr_array() > 0, [Hex.from_offset(9, 9)])
