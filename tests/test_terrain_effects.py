"""Terrain Defense modifiers and movement costs with overlays (R6.7, R6.8, R8.1, R8.3, R8.4)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scripted_dice import scripted_dice  # noqa: E402

from hexwar.errors import ValidationError
from hexwar.model.hexgrid import Hex
from hexwar.model.maps import BattleMap, MapError
from hexwar.rules.dice import Dice
from hexwar.rules.terrain_effects import (
    EffectRules,
    apply_events,
    default_effects,
    defense_class,
    enter_cost,
    enter_cost_array,
    immobilized_by_rubble,
    load_effects,
    rubble_entry_check,
    terrain_defense_array,
    terrain_defense_modifier,
    wreck_defense_modifier,
)

H = Hex.from_label


def wreck_id(m: BattleMap, modifier: int, applies: str, los: bool | None = None) -> str:
    for w in m.rules.wrecks.values():
        if w.modifier == modifier and w.applies == applies and (los is None or w.los == los):
            return w.id
    raise AssertionError(f"the wreck data has no counter {modifier:+d} {applies}")


# -- data ------------------------------------------------------------------------------------
def test_effect_numbers_are_the_rulebooks():
    eff = default_effects()
    assert (eff.rubble_defense, eff.rubble_move, eff.fire_defense, eff.fire_move) == (2, 2, -2, 1)
    assert eff.rubble_banned == {"wheeled"} and eff.rubble_immobilize_check == {"tracked"}
    assert eff.rubble_immobilized_on == 1
    assert (eff.fire_spread_bonus, eff.fire_damage_hit_on, eff.fire_damage_index, eff.burnout_turns) == (
        6,
        8,
        4,
        3,
    )
    assert (eff.close_combat_bonus, eff.fire_margin, eff.hook_up_cost) == (4, 1, 2)
    assert eff.side_hit_on("german") == 3 and eff.side_hit_on("soviet") == 4
    with pytest.raises(ValueError, match="italian"):
        eff.side_hit_on("italian")


def test_bad_effects_file_lists_every_problem(tmp_path):
    p = tmp_path / "effects.toml"
    p.write_text(
        "schema_version = 1\n[rubble]\ndefense = 'two'\nmove = 2\nbanned = ['hover']\nimmobilized_on = 1\n"
        "[fire]\ndefense = -2\nmove = 1\nspread_bonus = 6\ndamage_hit_on = 8\ndamage_index = 4\nburnout_turns = 0\n"
        "[buildings]\nclose_combat_bonus = 4\nfire_margin = 1\n[artillery]\nhit_on = { german = 9 }\n"
    )
    with pytest.raises(ValidationError) as exc:
        load_effects(str(p))
    where = {pr.where for pr in exc.value.problems}
    assert {
        "rubble.defense",
        "rubble.banned",
        "fire.burnout_turns",
        "artillery.hit_on.german",
        "towing",
    } <= where
    assert all(pr.file == str(p) for pr in exc.value.problems)


def test_defense_classes_of_unit_types():
    assert [defense_class(t) for t in ("infantry", "tank crew", "artillery crew", "pilot", "gun")] == [
        "soft"
    ] * 5
    assert defense_class("vehicle") == "armored" and defense_class("Aircraft") == "aircraft"
    with pytest.raises(ValueError, match="submarine"):
        defense_class("submarine")


# -- Defense (R6.7) --------------------------------------------------------------------------
def test_terrain_table_modifiers_soft_and_armored():
    m = BattleMap.new(6, 6)
    m.set_terrain(H("B02"), "woods")
    m.set_terrain(H("C03"), "stone_building")
    assert terrain_defense_modifier(m, H("A01"), "soft") == 0
    assert (
        terrain_defense_modifier(m, H("B02"), "soft"),
        terrain_defense_modifier(m, H("B02"), "armored"),
    ) == (2, 1)
    assert (
        terrain_defense_modifier(m, H("C03"), "infantry"),
        terrain_defense_modifier(m, H("C03"), "vehicle"),
    ) == (3, 2)


def test_rubble_gives_plus_two_instead_of_the_building():
    m = BattleMap.new(6, 6)
    m.set_terrain(H("C03"), "stone_building")
    m.set_rubble(H("C03"))
    # R8.3: the stone building's +3/+2 is gone; rubble gives +2 to every ground unit.
    assert terrain_defense_modifier(m, H("C03"), "soft") == 2
    assert terrain_defense_modifier(m, H("C03"), "armored") == 2


def test_fire_gives_minus_two_and_no_other_terrain_modifier():
    m = BattleMap.new(6, 6)
    m.set_terrain(H("C03"), "stone_building")
    m.add_wreck(H("C03"), wreck_id(m, 2, "soft"))
    m.add_wreck(H("C03"), wreck_id(m, 1, "all"))
    assert terrain_defense_modifier(m, H("C03"), "soft") == 3 + 2 + 1
    m.set_fire(H("C03"))
    assert terrain_defense_modifier(m, H("C03"), "soft") == -2
    assert terrain_defense_modifier(m, H("C03"), "armored") == -2


def test_aircraft_take_no_terrain_modifier():
    m = BattleMap.new(4, 4)
    m.set_terrain(H("B02"), "woods")
    m.add_wreck(H("B02"), wreck_id(m, 1, "all"))
    assert terrain_defense_modifier(m, H("B02"), "aircraft") == 0
    m.set_terrain(H("C02"), "wood_building")
    m.set_fire(H("C02"))
    assert terrain_defense_modifier(m, H("C02"), "aircraft") == 0


@pytest.mark.parametrize(
    "modifier,applies,soft,armored", [(1, "all", 1, 1), (2, "soft", 2, 0), (-1, "soft", -1, 0)]
)
def test_wreck_modifiers_apply_as_their_colour_says(modifier, applies, soft, armored):
    m = BattleMap.new(4, 4)
    m.set_terrain(H("B02"), "woods")
    m.add_wreck(H("B02"), wreck_id(m, modifier, applies))
    assert terrain_defense_modifier(m, H("B02"), "soft") == 2 + soft  # woods +2 soft
    assert terrain_defense_modifier(m, H("B02"), "armored") == 1 + armored  # woods +1 armored
    assert wreck_defense_modifier(m.wrecks_at(H("B02")), m.rules, "aircraft") == 0


def test_stacked_wrecks_add_up():
    m = BattleMap.new(4, 4)
    for wid in (wreck_id(m, 1, "all"), wreck_id(m, 1, "all"), wreck_id(m, -1, "soft")):
        m.add_wreck(H("B02"), wid)
    assert terrain_defense_modifier(m, H("B02"), "soft") == 1
    assert terrain_defense_modifier(m, H("B02"), "armored") == 2


def random_overlay_map(seed: int, w: int = 9, h: int = 7) -> BattleMap:
    rng = np.random.default_rng(seed)
    m = BattleMap.new(w, h)
    keys = [t.key for t in m.rules.types]
    ids = sorted(m.rules.wrecks)
    for hx in m.hexes():
        m.set_terrain(hx, keys[rng.integers(len(keys))])
        if rng.random() < 0.3 and m.terrain_at(hx).key != "water":  # a bridge is road terrain
            m.set_road(hx)
        if m.terrain_at(hx).is_building:
            u = rng.random()
            if u < 0.25:
                m.set_rubble(hx)
            elif u < 0.5:
                m.set_fire(hx)
        for _ in range(rng.integers(0, 3)):
            m.add_wreck(hx, ids[rng.integers(len(ids))])
    return m


@pytest.mark.parametrize("seed", range(5))
def test_defense_array_equals_scalar_everywhere(seed):
    m = random_overlay_map(seed)
    for cls in ("soft", "armored", "aircraft"):
        arr = terrain_defense_array(m, cls)
        for hx in m.hexes():
            assert arr[m.index(hx)] == terrain_defense_modifier(m, hx, cls), (seed, cls, hx.label)


def test_defense_off_map_and_bad_class_are_clear_errors():
    m = BattleMap.new(4, 4)
    with pytest.raises(MapError, match="off the"):
        terrain_defense_modifier(m, H("Z20"), "soft")
    with pytest.raises(ValueError, match="unit type"):
        terrain_defense_modifier(m, H("A01"), "hover")


# -- movement (R5.3, R8.3, R8.4) -------------------------------------------------------------
def test_terrain_costs_per_mobility_class():
    m = BattleMap.new(5, 5)
    m.set_terrain(H("B02"), "woods")
    assert [enter_cost(m, H("A01"), c) for c in ("foot", "tracked", "wheeled")] == [1, 1, 2]
    assert [enter_cost(m, H("B02"), c) for c in ("foot", "tracked", "wheeled")] == [2, 3, math.inf]


def test_rubble_costs_two_more_and_bans_wheeled():
    m = BattleMap.new(5, 5)
    m.set_terrain(H("C03"), "reinforced_building")
    assert enter_cost(m, H("C03"), "tracked") == math.inf  # a bunker: tracked may not enter
    m.set_rubble(H("C03"))
    # the building is gone: clear (1/1) + 2; wheeled may not enter rubble (R8.3)
    assert [enter_cost(m, H("C03"), c) for c in ("foot", "tracked", "wheeled")] == [3, 3, math.inf]


def test_fire_costs_one_more():
    m = BattleMap.new(5, 5)
    m.set_terrain(H("C03"), "wood_building")
    m.set_fire(H("C03"))
    assert [enter_cost(m, H("C03"), c) for c in ("foot", "tracked", "wheeled")] == [3, 4, math.inf]


def test_moving_along_a_road_uses_the_road_cost():
    m = BattleMap.new(5, 5)
    m.set_terrain(H("B02"), "woods")
    m.set_road(H("B02"))
    m.set_road(H("B03"))
    assert enter_cost(m, H("B02"), "wheeled") == math.inf
    assert enter_cost(m, H("B02"), "wheeled", from_hex=H("B03")) == 1  # along the road
    assert enter_cost(m, H("B02"), "wheeled", from_hex=H("C03")) == math.inf  # C03 has no road
    assert enter_cost(m, H("B02"), "foot", from_hex=H("B04")) == 2  # not adjacent


@pytest.mark.parametrize("seed", range(5))
def test_cost_array_equals_scalar_everywhere(seed):
    m = random_overlay_map(seed)
    for mob in ("foot", "tracked", "wheeled"):
        plain = enter_cost_array(m, mob)
        along = enter_cost_array(m, mob, along_road=True)
        for hx in m.hexes():
            assert plain[m.index(hx)] == enter_cost(m, hx, mob), (seed, mob, hx.label)
            for n in m.neighbors(hx):
                expect = along if (m.road[m.index(hx)] and m.road[m.index(n)]) else plain
                assert expect[m.index(hx)] == enter_cost(m, hx, mob, from_hex=n), (
                    seed,
                    mob,
                    hx.label,
                    n.label,
                )


def test_cost_errors_name_the_problem():
    m = BattleMap.new(4, 4)
    with pytest.raises(ValueError, match="mobility class 'hover'"):
        enter_cost(m, H("A01"), "hover")
    with pytest.raises(MapError, match="Z20"):
        enter_cost(m, H("Z20"), "foot")


# -- rubble immobilization (R8.3) ------------------------------------------------------------
def test_tracked_unit_entering_rubble_is_immobilized_on_a_one_only():
    assert [immobilized_by_rubble(f) for f in range(1, 7)] == [True] + [False] * 5
    m = BattleMap.new(4, 4)
    m.set_terrain(H("B02"), "wood_building")
    m.set_rubble(H("B02"))
    d = scripted_dice(1, 2)
    ev = rubble_entry_check(m, H("B02"), "tracked", d, unit="T-34 #1")
    assert ev is not None and ev.immobilized and ev.roll == 1
    assert "immobilized" in str(ev) and "B02" in str(ev)
    ev2 = rubble_entry_check(m, H("B02"), "tracked", d, unit="T-34 #2")
    assert ev2 is not None and not ev2.immobilized
    assert [r.dice for r in d.log] == ["1d6", "1d6"]


def test_no_immobilization_check_off_rubble_or_for_foot():
    m = BattleMap.new(4, 4)
    m.set_terrain(H("B02"), "wood_building")
    d = Dice(3)
    assert rubble_entry_check(m, H("B02"), "tracked", d) is None
    m.set_rubble(H("B02"))
    assert rubble_entry_check(m, H("B02"), "foot", d) is None
    assert d.log == []


def test_immobilization_rate_is_one_sixth():
    seed = 20240501
    faces = np.random.default_rng(seed).integers(1, 7, size=60_000)
    rate = immobilized_by_rubble(faces).mean()
    se = math.sqrt((1 / 6) * (5 / 6) / faces.size)
    assert abs(rate - 1 / 6) < 3 * se, f"seed {seed}: rate {rate}"


def test_apply_events_skips_foreign_events_and_effects_replace():
    m = BattleMap.new(4, 4)
    apply_events(m, ["a combat event", 42])  # nothing to apply, no error
    eff = default_effects().replace(rubble_defense=3)
    assert isinstance(eff, EffectRules) and eff.rubble_defense == 3 and default_effects().rubble_defense == 2
