"""Attacks on buildings: AV = 2d6 + DI (+4 close combat) against DR: rubble or fire (R8.2-R8.4)."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from scripted_dice import scripted_dice  # noqa: E402

from hexwar.model.hexgrid import Hex
from hexwar.model.maps import BattleMap
from hexwar.rules.buildings import (
    FIRE,
    NO_EFFECT,
    RUBBLE,
    BuildingAttackError,
    BuildingResult,
    attack_building,
    attack_value,
    building_outcome_probabilities,
    building_result,
    needed_roll,
    outcome_codes,
    two_d6_distribution,
)
from hexwar.rules.dice import Dice
from hexwar.rules.terrain_effects import apply_events

H = Hex.from_label


def town(key: str = "wood_building") -> BattleMap:
    m = BattleMap.new(6, 6)
    m.set_terrain(H("C03"), key)
    return m


# -- seed 003's worked examples -------------------------------------------------------------
def test_artillery_av_14_on_a_wood_building_starts_a_fire_not_rubble():
    assert building_result(14, 13, "artillery") is BuildingResult.FIRE
    m = town("wood_building")
    ev = attack_building(m, H("C03"), "artillery", 4, scripted_dice(6, 4), attacker="Soviet artillery")
    assert ev is not None and (ev.av, ev.dr, ev.result) == (14, 13, BuildingResult.FIRE)
    ev.apply(m)
    assert m.has_fire(H("C03")) and not m.has_rubble(H("C03"))


def test_rifle_fp_2_in_close_combat_needs_an_8_to_set_a_wood_building_alight():
    # 003: "The rifle's FP is 6 (2FP + 4CC modifier). It needs an 8 die roll (8+6FP=14)"
    assert attack_value(0, 2, "close combat") == 6
    assert needed_roll(dr=13, damage_index=2, kind="close combat") == 8
    m = town("wood_building")
    miss = attack_building(
        m, H("C03"), "close combat", 2, scripted_dice(3, 4), "Rifles", attacker_hex=H("C04")
    )
    hit = attack_building(
        m, H("C03"), "close combat", 2, scripted_dice(4, 4), "Rifles", attacker_hex=H("B03")
    )
    assert miss is not None and (miss.av, miss.result) == (
        13,
        BuildingResult.NO_EFFECT,
    )  # AV = DR: no rubble in CC
    assert hit is not None and (hit.av, hit.bonus, hit.result) == (14, 4, BuildingResult.FIRE)


# -- the AV/DR table ------------------------------------------------------------------------
@pytest.mark.parametrize("dr", [13, 14, 15])
def test_av_against_dr_for_every_kind(dr):
    for av in range(2, 30):
        want_art = "fire" if av >= dr + 1 else "rubble" if av == dr else "no effect"
        want_other = "fire" if av >= dr + 1 else "no effect"
        assert building_result(av, dr, "artillery").value == want_art
        assert building_result(av, dr, "flamethrower").value == want_other
        assert building_result(av, dr, "close combat").value == want_other


def test_outcome_codes_vectorized_and_no_building_means_no_effect():
    av = np.arange(10, 18)
    dr_map = np.array([0, 13, 14, 15])
    codes = outcome_codes(av[:, None], dr_map[None, :], "artillery")
    assert codes.shape == (8, 4) and codes.dtype == np.int8
    assert (codes[:, 0] == NO_EFFECT).all()
    assert codes[av == 13, 1] == RUBBLE and codes[av == 14, 1] == FIRE and codes[av == 14, 2] == RUBBLE
    assert outcome_codes(15, 14, "flamethrower") == FIRE


@pytest.mark.parametrize("kind", ["rifle", "tank gun", "", "ARTILLERY "])
def test_only_artillery_flamethrowers_and_close_combat_attack_buildings(kind):
    with pytest.raises(BuildingAttackError, match="R8.2"):
        attack_building(town(), H("C03"), kind, 3, Dice(1))
    with pytest.raises(BuildingAttackError):
        outcome_codes(13, 13, kind)


def test_close_combat_needs_an_adjacent_attacker():
    m = town()
    with pytest.raises(BuildingAttackError, match="adjacent"):
        attack_building(m, H("C03"), "close combat", 2, Dice(1), "Rifles", attacker_hex=H("C05"))
    with pytest.raises(BuildingAttackError, match="adjacent"):
        attack_building(m, H("C03"), "close combat", 2, Dice(1), "Rifles")


def test_rubble_or_open_ground_is_not_attacked_and_rolls_nothing():
    m = town("stone_building")
    m.set_rubble(H("C03"))
    d = Dice(9)
    assert attack_building(m, H("C03"), "artillery", 4, d) is None
    assert attack_building(m, H("A01"), "flamethrower", 4, d) is None
    assert d.log == []


def test_rubble_replaces_the_building_and_puts_out_its_fire():
    m = town("stone_building")
    m.set_fire(H("C03"))
    ev = attack_building(m, H("C03"), "artillery", 4, scripted_dice(5, 5))  # AV 14 = DR 14
    assert ev is not None and ev.result is BuildingResult.RUBBLE and ev.was_burning
    apply_events(m, [ev])
    assert m.has_rubble(H("C03")) and not m.has_fire(H("C03")) and m.building_at(H("C03")) is None
    assert "rubble" in str(ev) and "fire goes out" in str(ev)


def test_fire_on_a_burning_building_changes_nothing():
    m = town("wood_building")
    m.set_fire(H("C03"))
    m.fire_turns[m.index(H("C03"))] = 2
    ev = attack_building(m, H("C03"), "flamethrower", 3, scripted_dice(6, 6))
    assert ev is not None and ev.result is BuildingResult.FIRE and ev.was_burning
    ev.apply(m)
    assert m.has_fire(H("C03")) and m.fire_turns[m.index(H("C03"))] == 2
    assert "already burns" in str(ev)


def test_the_roll_is_logged_with_di_and_cc_bonus_and_no_command_card():
    m = town()
    d = scripted_dice(2, 3)
    ev = attack_building(m, H("C03"), "close combat", 2, d, "Pioneers", attacker_hex=H("D03"))
    assert ev is not None
    (roll,) = d.log
    assert roll.dice == "2d6" and roll.faces == (2, 3)
    assert roll.modifiers == (("Damage Index", 2), ("close combat", 4)) and roll.result == ev.av == 11
    assert str(ev) == (
        "Pioneers attacks the Wood building in C03 (close combat): AV 2d6 [2, 3] + DI 2 +4 close combat"
        " = 11 vs DR 13: no effect"
    )
    assert ev.to_json()["kind"] == "close combat" and ev.to_json()["result"] == "no effect"


def test_needed_roll_for_rubble_is_artillery_only():
    assert needed_roll(14, 4, "artillery", "rubble") == 10
    with pytest.raises(BuildingAttackError, match="only artillery"):
        needed_roll(14, 4, "flamethrower", "rubble")


# -- exact probabilities --------------------------------------------------------------------
def test_two_d6_distribution_is_exact():
    dist = two_d6_distribution()
    faces = [a + b for a in range(1, 7) for b in range(1, 7)]
    assert dist == {s: Fraction(faces.count(s), 36) for s in range(2, 13)}


@pytest.mark.parametrize(
    "di,dr,kind",
    [(4, 13, "artillery"), (5, 15, "artillery"), (3, 14, "flamethrower"), (2, 13, "close combat")],
)
def test_outcome_probabilities_match_enumeration_and_monte_carlo(di, dr, kind):
    p = building_outcome_probabilities(di, dr, kind)
    assert sum(p.values()) == 1
    fire_sum = sum(1 for a in range(1, 7) for b in range(1, 7) if attack_value(a + b, di, kind) >= dr + 1)
    assert p[BuildingResult.FIRE] == Fraction(fire_sum, 36)
    seed = 1000 + di * 100 + dr
    rng = np.random.default_rng(seed)
    n = 200_000
    totals = rng.integers(1, 7, size=(n, 2)).sum(axis=1)
    codes = outcome_codes(attack_value(totals, di, kind), dr, kind)
    for code, res in (
        (NO_EFFECT, BuildingResult.NO_EFFECT),
        (RUBBLE, BuildingResult.RUBBLE),
        (FIRE, BuildingResult.FIRE),
    ):
        q = float(p[res])
        se = math.sqrt(max(q * (1 - q), 1e-12) / n)
        est = float((codes == code).mean())
        assert abs(est - q) <= 3 * se, f"seed {seed}: {res.value} {est:.5f} vs exact {q:.5f}"
