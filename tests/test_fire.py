"""Fire over turns: spread, fire damage checks, burnout (R5.1a-b, R8.3-R8.6)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from scripted_dice import scripted_dice  # noqa: E402

from hexwar.model.hexgrid import Hex
from hexwar.model.maps import BattleMap
from hexwar.rules.artillery import TargetUnit
from hexwar.rules.dice import Dice
from hexwar.rules.fire import (
    FireBurnedOut,
    FireDamageCheck,
    FiresAged,
    FireSpreadCheck,
    age_fires,
    fire_damage_checks,
    fire_damage_eligible,
    fire_damage_hexes,
    fire_damage_hits,
    fire_spread_phase,
    neighbor_shift,
    neighbor_values,
    spread_candidates,
    spread_pairs,
    spread_probability,
    spread_step,
    spread_step_rng,
)
from hexwar.rules.terrain_effects import apply_events

H = Hex.from_label


def hits_recorder():
    calls = []

    def resolve_hit(unit, hx, di, mod, dice):
        calls.append((unit.id, hx.label, di, mod))
        return [f"hit {unit.id}"]

    return calls, resolve_hit


def begin_turn(m: BattleMap, dice: Dice, variants=frozenset()) -> list:
    events = fire_spread_phase(m, dice, variants)
    apply_events(m, events)
    return events


# -- seed 003's examples ---------------------------------------------------------------------
def test_fire_in_d07_spreads_into_stone_d08_on_9_and_its_rifles_skip_the_damage_check():
    m = BattleMap.new(8, 10)
    m.set_terrain(H("D07"), "wood_building")
    m.set_terrain(H("D08"), "stone_building")
    m.set_fire(H("D07"))
    events = begin_turn(m, scripted_dice(4, 5))
    spreads = [e for e in events if isinstance(e, FireSpreadCheck)]
    assert len(spreads) == 1
    s = spreads[0]
    assert (s.from_hex, s.to_hex, s.faces, s.total, s.dr, s.spread) == (
        H("D07"),
        H("D08"),
        (4, 5),
        15,
        14,
        True,
    )
    assert str(s) == "Fire spread D07 -> D08: 2d6 [4, 5] + 6 = 15 vs DR 14: the fire spreads"
    assert m.has_fire(H("D08"))
    assert fire_damage_hexes(m) == [H("D07")]
    calls, resolve_hit = hits_recorder()
    d = scripted_dice(6, 2)
    checks = fire_damage_checks(
        m,
        [(H("D08"), TargetUnit("rifles", "infantry")), (H("D07"), TargetUnit("smg", "infantry"))],
        d,
        resolve_hit,
    )
    assert [c.unit for c in checks if isinstance(c, FireDamageCheck)] == ["smg"]
    assert len(d.log) == 1 and calls == [("smg", "D07", 4, -2)]


def test_a_unit_in_a_burning_hex_fails_its_check_on_9():
    m = BattleMap.new(6, 6)
    m.set_terrain(H("C03"), "wood_building")
    m.set_fire(H("C03"))
    begin_turn(m, Dice(1))  # the fire burns into this turn
    calls, resolve_hit = hits_recorder()
    events = fire_damage_checks(
        m, [(H("C03"), TargetUnit("rifles", "infantry"))], scripted_dice(4, 5), resolve_hit
    )
    check = events[0]
    assert isinstance(check, FireDamageCheck) and check.total == 9 and check.hit
    assert events[1] == "hit rifles" and calls == [
        ("rifles", "C03", 4, -2)
    ]  # Damage Index 4, fire Defense -2
    assert str(check) == "Fire damage check for rifles in C03: 2d6 [4, 5] = 9: hit (Damage Index 4)"


def test_fire_damage_check_hits_on_8_and_the_command_card_takes_one_off():
    assert [fire_damage_hits(t) for t in range(2, 13)] == [False] * 6 + [True] * 5
    m = BattleMap.new(6, 6)
    m.set_terrain(H("C03"), "wood_building")
    m.set_fire(H("C03"))
    m.fire_turns[m.index(H("C03"))] = 1
    calls, resolve_hit = hits_recorder()
    units = [(H("C03"), TargetUnit("a", "infantry")), (H("C03"), TargetUnit("b", "gun"))]
    d = scripted_dice(4, 4, 4, 5)
    events = fire_damage_checks(m, units, d, resolve_hit, uses_command_card=lambda u: True)
    checks = [e for e in events if isinstance(e, FireDamageCheck)]
    assert [(c.total, c.hit, c.command_card) for c in checks] == [(7, False, True), (8, True, True)]
    assert d.log[0].modifiers == (("command card", -1),)
    assert calls == [("b", "C03", 4, -2)]


def test_fire_damage_skips_aircraft_and_units_outside_old_fires():
    m = BattleMap.new(6, 6)
    m.set_terrain(H("C03"), "wood_building")
    m.set_fire(H("C03"))  # counter 0: lit this turn, not burning before step a
    d = Dice(2)
    units = [(H("C03"), TargetUnit("rifles", "infantry")), (H("A01"), TargetUnit("tank", "vehicle"))]
    assert fire_damage_checks(m, units, d, lambda *a: []) == [] and d.log == []
    m.fire_turns[m.index(H("C03"))] = 2
    out = fire_damage_checks(m, [(H("C03"), TargetUnit("il2", "aircraft"))], d, lambda *a: [])
    assert out == [] and d.log == []


# -- neighbours on arrays --------------------------------------------------------------------
@pytest.mark.parametrize("w,h", [(7, 6), (8, 5), (1, 3)])
def test_neighbor_values_agree_with_hex_geometry(w, h):
    rng = np.random.default_rng(w * 10 + h)
    a = rng.integers(1, 1000, size=(2, h, w))
    m = BattleMap.new(w, h)
    for d in range(1, 7):
        nv = neighbor_values(a, d, fill=-1)
        for hx in m.hexes():
            n = hx.neighbor(d)
            want = a[:, n.offset[1], n.offset[0]] if m.in_bounds(n) else [-1, -1]
            assert list(nv[:, hx.offset[1], hx.offset[0]]) == list(want), (d, hx.label)
    with pytest.raises(ValueError):
        neighbor_shift(7)


# -- spread (R8.4) ---------------------------------------------------------------------------
def pair_arrays(dr: int) -> tuple[np.ndarray, np.ndarray]:
    """A01 burning next to a building of ``dr`` in B01 (A01's SE neighbour)."""
    burning = np.zeros((1, 2), bool)
    burning[0, 0] = True
    drs = np.zeros((1, 2), np.int16)
    drs[0, 1] = dr
    return burning, drs


@pytest.mark.parametrize("dr,p", [(13, Fraction(7, 12)), (14, Fraction(5, 12)), (15, Fraction(5, 18))])
def test_spread_probability_per_dr_exact_by_enumerating_the_dice(dr, p):
    assert spread_probability(dr) == p
    burning, drs = pair_arrays(dr)
    batch = np.broadcast_to(burning, (36, 1, 2))
    totals = np.array([a + b for a in range(1, 7) for b in range(1, 7)])
    after = spread_step(batch, drs, totals)  # compact: one candidate pair per trial
    assert Fraction(int(after[:, 0, 1].sum()), 36) == p


@pytest.mark.parametrize("dr,seed", [(13, 61), (14, 62), (15, 63)])
def test_spread_rate_per_dr_monte_carlo(dr, seed):
    burning, drs = pair_arrays(dr)
    n = 100_000
    after = spread_step_rng(np.broadcast_to(burning, (n, 1, 2)), drs, np.random.default_rng(seed))
    p = float(spread_probability(dr))
    rate = after[:, 0, 1].mean()
    assert abs(rate - p) <= 3 * math.sqrt(p * (1 - p) / n), f"seed {seed}: DR {dr}: {rate:.5f} vs {p:.5f}"


@pytest.mark.parametrize("dr", [13, 14, 15])
def test_two_burning_neighbours_give_two_independent_checks(dr):
    # A01 and C01 burn; B01 (odd column) touches both (its NW and NE neighbours).
    burning = np.array([[True, False, True]])
    drs = np.array([[0, dr, 0]], np.int16)
    cand = spread_candidates(burning[None], drs)
    assert cand.sum() == 2 and cand[0, 1, 0, 1] and cand[0, 5, 0, 1]  # directions NE (2) and NW (6)
    totals = np.array(
        [[a + b, c + d] for a in range(1, 7) for b in range(1, 7) for c in range(1, 7) for d in range(1, 7)]
    )
    after = spread_step(np.broadcast_to(burning, (1296, 1, 3)), drs, totals.ravel())
    p1 = spread_probability(dr)
    assert Fraction(int(after[:, 0, 1].sum()), 1296) == 1 - (1 - p1) ** 2 == spread_probability(dr, sources=2)
    m = BattleMap.new(3, 1)
    m.set_terrain(H("B01"), {13: "wood_building", 14: "stone_building", 15: "reinforced_building"}[dr])
    for label in ("A01", "C01"):
        m.set_terrain(H(label), "wood_building")
        m.set_fire(H(label))
    events = fire_spread_phase(m, scripted_dice(1, 1, 1, 1))
    checks = [e for e in events if isinstance(e, FireSpreadCheck)]
    assert [(c.from_hex.label, c.to_hex.label) for c in checks] == [("C01", "B01"), ("A01", "B01")]


def test_a_new_fire_does_not_spread_in_the_step_that_lit_it():
    burning = np.array([[[True, False, False]]])
    drs = np.array([[0, 13, 13]], np.int16)
    dense = np.full((1, 6, 1, 3), 12)
    after = spread_step(burning, drs, dense)
    assert after[0, 0].tolist() == [True, True, False]
    m = BattleMap.new(3, 1)
    for label in ("A01", "B01", "C01"):
        m.set_terrain(H(label), "wood_building")
    m.set_fire(H("A01"))
    events = begin_turn(m, scripted_dice(6, 6))
    assert [(e.from_hex.label, e.to_hex.label) for e in events if isinstance(e, FireSpreadCheck)] == [
        ("A01", "B01")
    ]
    assert m.has_fire(H("B01")) and not m.has_fire(H("C01"))
    events = begin_turn(m, scripted_dice(6, 6))  # next turn B01 spreads on
    assert [(e.from_hex.label, e.to_hex.label) for e in events if isinstance(e, FireSpreadCheck)] == [
        ("B01", "C01")
    ]
    assert m.has_fire(H("C01"))


def test_spread_needs_an_intact_unburning_building():
    m = BattleMap.new(4, 4)
    m.set_terrain(H("B02"), "wood_building")
    m.set_fire(H("B02"))
    m.set_terrain(H("B01"), "stone_building")
    m.set_rubble(H("B01"))  # rubble: no building to catch fire
    m.set_terrain(H("B03"), "wood_building")
    m.set_fire(H("B03"))  # already burning
    m.set_terrain(H("C02"), "woods")  # not a building
    d = Dice(4)
    events = fire_spread_phase(m, d)
    assert [e for e in events if isinstance(e, FireSpreadCheck)] == [] and d.log == []


def test_rubble_puts_out_a_fire_and_stops_it_spreading():
    m = BattleMap.new(3, 1)
    for label in ("A01", "B01"):
        m.set_terrain(H(label), "wood_building")
    m.set_fire(H("A01"))
    m.set_rubble(H("A01"))
    assert not m.has_fire(H("A01")) and m.fire_turns[0, 0] == 0
    assert fire_spread_phase(m, Dice(0)) == []
    burning = np.array([[[True, False]]])
    rubble = np.array([[[False, True]]])
    assert spread_candidates(burning, np.array([[0, 13]]), rubble).sum() == 0


@pytest.mark.parametrize("seed", range(6))
def test_dense_and_compact_rolls_and_batches_agree(seed):
    rng = np.random.default_rng(seed)
    B, h, w = 5, 6, 7
    burning = rng.random((B, h, w)) < 0.2
    drs = np.where(rng.random((h, w)) < 0.6, rng.integers(13, 16, (h, w)), 0).astype(np.int16)
    dense = rng.integers(2, 13, size=(B, 6, h, w))
    cand = spread_candidates(burning, drs)
    a = spread_step(burning, drs, dense)
    b = spread_step(burning, drs, dense[cand])
    assert (a == b).all()
    for t in range(B):  # each trial alone gives the same as in the batch
        assert (spread_step(burning[t : t + 1], drs, dense[t : t + 1])[0] == a[t]).all()
    with pytest.raises(ValueError, match="candidate pair"):
        spread_step(burning, drs, dense[cand][:-1] if cand.any() else np.ones(1))


@pytest.mark.parametrize("seed", range(6))
def test_spread_pairs_are_the_candidates_in_compact_order(seed):
    rng = np.random.default_rng(100 + seed)
    B, h, w = 4, 5, 8
    burning = rng.random((B, h, w)) < 0.3
    drs = np.where(rng.random((B, h, w)) < 0.7, rng.integers(13, 16, (B, h, w)), 0).astype(
        np.int16
    )  # per trial
    rubble = rng.random((B, h, w)) < 0.1
    cand = spread_candidates(burning, drs, rubble)
    pairs = spread_pairs(burning, drs, rubble)
    b, k, r, c = np.nonzero(cand)
    assert (
        (pairs.lead == b).all()
        and (pairs.direction == k + 1).all()
        and (pairs.row == r).all()
        and (pairs.col == c).all()
    )
    assert pairs.per_trial(B).tolist() == [int(cand[i].sum()) for i in range(B)]
    totals = rng.integers(2, 13, size=len(b))
    via_pairs = spread_step(burning, drs, totals, rubble, candidates=pairs)
    via_dense = spread_step(burning, drs, totals, rubble, candidates=cand)
    via_none = spread_step(burning, drs, totals, rubble)
    dense = np.zeros((B, 6, h, w), int)
    dense[b, k, r, c] = totals
    assert (via_pairs == via_dense).all() and (via_pairs == via_none).all()
    assert (via_pairs == spread_step(burning, drs, dense, rubble)).all()
    assert not (via_pairs & rubble & ~burning).any()


def random_fire_map(seed: int) -> BattleMap:
    rng = np.random.default_rng(seed)
    m = BattleMap.new(9, 7)
    keys = ["clear", "wood_building", "stone_building", "reinforced_building", "woods"]
    for hx in m.hexes():
        m.set_terrain(hx, keys[rng.integers(len(keys))])
        if m.terrain_at(hx).is_building:
            u = rng.random()
            if u < 0.1:
                m.set_rubble(hx)
            elif u < 0.35:
                m.set_fire(hx)
                m.fire_turns[m.index(hx)] = rng.integers(0, 4)
    return m


@pytest.mark.parametrize("seed", range(8))
def test_game_path_is_the_array_core_at_batch_size_one(seed):
    m = random_fire_map(seed)
    variants = {"burnout"} if seed % 2 else set()
    before_fire, before_turns, before_rubble = m.fire.copy(), m.fire_turns.copy(), m.rubble.copy()
    dr_before = m.dr_array()
    d = Dice(seed)
    events = begin_turn(m, d, variants)
    aged = age_fires(before_fire[None], before_turns[None], 3 if variants else None)
    rubble = before_rubble[None] | aged.burned_out
    totals = np.array([r.natural for r in d.log], dtype=np.int16)
    want = spread_step(aged.burning, dr_before, totals, rubble)
    assert (m.fire == want[0]).all(), f"seed {seed}"
    assert (m.rubble == rubble[0]).all()
    newly = want[0] & ~aged.burning[0]
    assert (m.fire_turns[newly] == 0).all() and (
        m.fire_turns[aged.burning[0]] == aged.fire_turns[0][aged.burning[0]]
    ).all()
    assert sum(isinstance(e, FireSpreadCheck) for e in events) == len(d.log)


# -- aging and burnout (R8.6) ---------------------------------------------------------------
def test_burnout_fire_from_the_map_leaves_rubble_after_three_full_turns():
    m = BattleMap.new(5, 5)
    m.set_terrain(H("C03"), "wood_building")
    m.set_fire(H("C03"))
    for turn in (1, 2, 3):
        events = begin_turn(m, Dice(turn), {"burnout"})
        assert m.has_fire(H("C03")) and m.fire_turns[m.index(H("C03"))] == turn
        assert any(isinstance(e, FiresAged) for e in events)
    events = begin_turn(m, Dice(4), {"burnout"})  # it burned turns 1, 2 and 3 in full
    assert events[0] == FireBurnedOut(H("C03"), 3)
    assert str(events[0]) == "The fire in C03 burned 3 full turns and burns out: rubble"
    assert m.has_rubble(H("C03")) and not m.has_fire(H("C03"))
    assert fire_damage_hexes(m) == []


def test_burnout_fire_lit_during_a_turn_counts_from_the_next_turn():
    m = BattleMap.new(3, 1)
    m.set_terrain(H("A01"), "wood_building")
    m.set_terrain(H("B01"), "wood_building")
    m.set_fire(H("A01"))
    begin_turn(m, scripted_dice(6, 6), {"burnout"})  # turn 1: B01 catches fire in step a
    assert m.has_fire(H("B01")) and m.fire_turns[0, 1] == 0
    for _turn in (2, 3, 4):
        begin_turn(m, Dice(0), {"burnout"})
    assert m.has_rubble(H("A01")) and m.has_fire(H("B01")) and m.fire_turns[0, 1] == 3
    begin_turn(m, Dice(0), {"burnout"})  # turn 5: B01 burned turns 2, 3, 4 in full
    assert m.has_rubble(H("B01"))


def test_without_the_variant_fires_burn_for_the_rest_of_the_game():
    m = BattleMap.new(3, 3)
    m.set_terrain(H("B02"), "wood_building")
    m.set_fire(H("B02"))
    for turn in range(1, 11):
        begin_turn(m, Dice(turn))
    assert m.has_fire(H("B02")) and m.fire_turns[m.index(H("B02"))] == 10 and not m.rubble.any()
    a = age_fires(np.array([True]), np.array([500]))
    assert a.burning.tolist() == [True] and not a.burned_out.any()


def test_a_fire_that_burns_out_does_not_spread_in_that_step():
    m = BattleMap.new(3, 1)
    m.set_terrain(H("A01"), "wood_building")
    m.set_terrain(H("B01"), "wood_building")
    m.set_fire(H("A01"))
    m.fire_turns[0, 0] = 3
    d = Dice(0)
    events = begin_turn(m, d, {"burnout"})
    assert [type(e) for e in events] == [FireBurnedOut] and d.log == []
    assert not m.fire.any()


def test_fire_damage_eligibility_is_burning_before_the_spread():
    burning = np.array([True, True, False])
    turns = np.array([1, 0, 0])
    assert fire_damage_eligible(burning, turns).tolist() == [True, False, False]


def test_events_serialize_and_read_well():
    e = FiresAged((H("D07"), H("E07")), (1, 3))
    assert str(e) == "Fires burning into this turn: D07 (1), E07 (3)"
    assert e.to_json() == {"event": "FiresAged", "hexes": ["D07", "E07"], "turns": [1, 3]}
    c = FireSpreadCheck(H("D07"), H("D08"), (1, 2), 9, 14, False)
    assert str(c).endswith("= 9 vs DR 14: no spread")


@pytest.mark.integration
@pytest.mark.parametrize("seed", range(6))
def test_fire_damage_through_the_combat_engine(seed):
    from hexwar.rules.cards import Deck, default_cards
    from hexwar.rules.combat import CombatEngine, DamageApplied, DefenseContext
    from hexwar.rules.units import roster

    cards = default_cards()
    units = roster(cards, ("su_rifles#1", None))
    dice = Dice(seed)
    engine = CombatEngine(
        cards, dice, Deck("damage", [f"dmg{i:02d}#1" for i in range(1, 26)], reshuffle=True), units
    )
    m = BattleMap.new(6, 6)
    m.set_terrain(H("C03"), "stone_building")
    m.set_fire(H("C03"))
    m.fire_turns[m.index(H("C03"))] = 1

    def resolve_hit(unit, hx, di, mod, d):
        return engine.apply_hit(units[unit.id], DefenseContext(terrain=mod), damage_index=di, source="fire")

    events = fire_damage_checks(m, [(H("C03"), TargetUnit("su_rifles#1", "infantry"))], dice, resolve_hit)
    check = events[0]
    assert isinstance(check, FireDamageCheck)
    damage = [e for e in events if isinstance(e, DamageApplied)]
    assert len(damage) == (1 if check.hit else 0)
    for e in damage:  # Intensity + 4 - (card Defense - 2), R8.5 / R6.7
        assert (e.damage_index, e.defense, e.source) == (4, cards.unit("su_rifles#1").defense - 2, "fire")
        assert e.damage == max(0, e.raw + 4 - e.defense)
