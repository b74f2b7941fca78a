"""Wrecks: random counters per nationality, stacks, LOS symbol, Defense modifiers, towing (R8.1)."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

from hexwar.errors import HexwarError
from hexwar.model.hexgrid import Hex
from hexwar.model.maps import BattleMap, MapError
from hexwar.rules.dice import Dice
from hexwar.rules.terrain_effects import terrain_defense_modifier
from hexwar.rules.wrecks import (
    TowingError,
    WreckPlaced,
    draw_wreck,
    drop_wreck,
    hook_up,
    hook_up_problem,
    towing_movement_points,
    wreck_blocks_los,
    wreck_los_mask,
    wreck_pool,
    wreck_vehicle,
)

H = Hex.from_label


def counter(m: BattleMap, nationality: str, **props) -> str:
    for w in m.rules.wreck_pool(nationality):
        if all(getattr(w, k) == v for k, v in props.items()):
            return w.id
    raise AssertionError(f"no {nationality} counter with {props}")


def test_destroyed_vehicle_leaves_a_counter_of_its_nationality():
    m = BattleMap.new(6, 6)
    for seed in range(30):
        for nat, prefix in (("german", "de-"), ("soviet", "su-")):
            ev = wreck_vehicle(m, H("C03"), nat, Dice(seed), vehicle="Pz IV H")
            assert ev.wreck_id.startswith(prefix) and ev.nationality == nat
            w = m.rules.wrecks[ev.wreck_id]
            assert (ev.los, ev.modifier, ev.applies) == (w.los, w.modifier, w.applies)


def test_wreck_draw_is_logged_and_seeded():
    m = BattleMap.new(6, 6)
    d1, d2 = Dice(11), Dice(11)
    a = wreck_vehicle(m, H("C03"), "soviet", d1, vehicle="T-34/76")
    b = wreck_vehicle(m, H("C03"), "soviet", d2, vehicle="T-34/76")
    assert a == b
    assert len(d1.log) == 1 and "T-34/76" in d1.log[0].purpose
    assert m.wrecks_at(H("C03")) == []  # rule functions do not change the map


def test_wreck_counters_are_drawn_uniformly():
    m = BattleMap.new(4, 4)
    seed = 8675309
    d = Dice(seed)
    pool = [w.id for w in wreck_pool(m.rules, "german")]
    n = 30_000
    counts = Counter(draw_wreck(m.rules, "german", d).id for _ in range(n))
    p = 1 / len(pool)
    se = math.sqrt(p * (1 - p) / n)
    assert set(counts) == set(pool)
    for wid in pool:
        assert abs(counts[wid] / n - p) < 3 * se, f"seed {seed}: {wid} {counts[wid] / n:.4f} vs {p:.4f}"


def test_unknown_nationality_is_a_clear_error():
    m = BattleMap.new(4, 4)
    with pytest.raises(HexwarError, match="italian"):
        wreck_vehicle(m, H("A01"), "italian", Dice(1))
    with pytest.raises(MapError):
        wreck_vehicle(m, H("Z20"), "german", Dice(1))


def test_wrecks_stack_bottom_first_and_event_reads_well():
    m = BattleMap.new(6, 6)
    d = Dice(5)
    e1 = wreck_vehicle(m, H("D04"), "german", d, vehicle="Tiger I")
    e2 = wreck_vehicle(m, H("D04"), "soviet", d, vehicle="KV-1S")
    e1.apply(m)
    e2.apply(m)
    assert m.wrecks_at(H("D04")) == [e1.wreck_id, e2.wreck_id]
    s = str(WreckPlaced(H("D04"), "x", "Tiger I", "german", True, 2, "soft"))
    assert s == "Tiger I burns out in D04: wreck x (blocks LOS, red +2 Defense (soft units))"
    assert e1.to_json()["hex"] == "D04" and e1.to_json()["event"] == "WreckPlaced"


def test_wreck_with_los_symbol_is_seen_by_los_helpers():
    m = BattleMap.new(5, 5)
    m.add_wreck(H("B02"), counter(m, "german", los=False))
    assert not wreck_blocks_los(m, H("B02"))
    m.add_wreck(H("B02"), counter(m, "soviet", los=True))
    m.add_wreck(H("D03"), counter(m, "soviet", los=True))
    assert wreck_blocks_los(m, H("B02")) and not wreck_blocks_los(m, H("A01"))
    mask = wreck_los_mask(m)
    assert mask.sum() == 2 and mask[m.index(H("B02"))] and mask[m.index(H("D03"))]


@pytest.mark.parametrize("nat", ["german", "soviet"])
def test_placed_wreck_modifies_defense_as_its_colour_says(nat):
    m = BattleMap.new(5, 5)
    for (modifier, applies), (soft, armored) in {(1, "all"): (1, 1), (-1, "soft"): (-1, 0)}.items():
        hx = H("C03")
        m2 = m.copy()
        wid = counter(m2, nat, modifier=modifier, applies=applies)
        WreckPlaced(hx, wid, "tank", nat, False, modifier, applies).apply(m2)
        assert terrain_defense_modifier(m2, hx, "soft") == soft
        assert terrain_defense_modifier(m2, hx, "armored") == armored


# -- towing ----------------------------------------------------------------------------------
def test_towing_movement_is_half_of_what_is_left_after_two():
    assert towing_movement_points(8) == 3.0
    assert towing_movement_points(7) == 2.5
    assert towing_movement_points(2) == 0.0
    with pytest.raises(TowingError, match="costs 2"):
        towing_movement_points(1)


def test_hook_up_from_the_same_or_an_adjacent_hex_and_drop_elsewhere():
    m = BattleMap.new(8, 8)
    bottom = counter(m, "german", los=True)
    top = counter(m, "soviet", los=False)
    m.add_wreck(H("C04"), bottom)
    m.add_wreck(H("C04"), top)
    ev = hook_up(m, "T-34 #1", H("C05"), H("C04"), "tracked", 6)
    assert (ev.wreck_id, ev.mp_before, ev.mp_after) == (top, 6.0, 2.0)
    assert m.wrecks_at(H("C04")) == [bottom, top]  # nothing changes until applied
    ev.apply(m)
    assert m.wrecks_at(H("C04")) == [bottom]
    assert "hooks up wreck" in str(ev) and "C04" in str(ev)
    named = hook_up(m, "T-34 #2", H("C04"), H("C04"), "tracked", 4, wreck_id=bottom)
    named.apply(m)
    assert m.wrecks_at(H("C04")) == []
    drop = drop_wreck(m, "T-34 #1", H("E06"), top)
    drop.apply(m)
    assert m.wrecks_at(H("E06")) == [top] and str(drop) == f"T-34 #1 drops wreck {top} in E06"


@pytest.mark.parametrize(
    "vehicle_hex,wreck_hex,mobility,mp,wid,reason",
    [
        ("C05", "C04", "wheeled", 6, None, "only tracked"),
        ("C05", "C04", "foot", 6, None, "only tracked"),
        ("C06", "C04", "tracked", 6, None, "not the vehicle's hex"),
        ("C05", "D05", "tracked", 6, None, "no wreck in D05"),
        ("C05", "C04", "tracked", 6, "nope", "no wreck 'nope'"),
        ("C05", "C04", "tracked", 1.5, None, "only 1.5 left"),
    ],
)
def test_hook_up_refused_with_a_reason(vehicle_hex, wreck_hex, mobility, mp, wid, reason):
    m = BattleMap.new(8, 8)
    m.add_wreck(H("C04"), counter(m, "german"))
    assert reason in (hook_up_problem(m, H(vehicle_hex), H(wreck_hex), mobility, mp, wid) or "")
    with pytest.raises(TowingError, match=reason.replace("'", ".")):
        hook_up(m, "Panther", H(vehicle_hex), H(wreck_hex), mobility, mp, wid)
    assert len(m.wrecks_at(H("C04"))) == 1


def test_hook_up_off_map_and_drop_unknown_wreck():
    m = BattleMap.new(4, 4)
    assert "off the map" in hook_up_problem(m, H("Z20"), H("A01"), "tracked", 6)
    with pytest.raises(MapError, match="unknown wreck"):
        drop_wreck(m, "Tiger", H("A01"), "no-such-wreck")


def test_wreck_event_round_trip_through_a_map_file():
    m = BattleMap.new(6, 6)
    ev = wreck_vehicle(m, H("B03"), "german", Dice(np.random.SeedSequence(4)), vehicle="StuG III G")
    ev.apply(m)
    again = BattleMap.from_json(m.to_json())
    assert again.wrecks_at(H("B03")) == [ev.wreck_id]
