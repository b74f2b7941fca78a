"""The combat engine against hand-worked examples (R6, seeds 000 and 001).

Dice are scripted: a fake generator behind the real :class:`Dice` hands out the faces listed
in each test, in order, so every roll still goes through ``Dice.roll`` and its log, and a
test fails if the engine rolls more or fewer dice than the rules call for.
"""

from __future__ import annotations

import json

import pytest
from scripted_dice import scripted_dice  # noqa: E402

from hexwar.rules.cards import Deck, default_cards
from hexwar.rules.combat import (
    AttackOrders,
    CombatEngine,
    CombatError,
    DefenseContext,
    attack_problems,
    bonus_on,
    effective_defense,
    end_turn,
    is_immobilized,
    leave_play,
    legal_weapons,
    to_hit_modifiers,
)
from hexwar.rules.dice import Dice
from hexwar.rules.units import new_unit, roster

CARDS = default_cards()


scripted = scripted_dice


def engine(units, *faces, deck=("dmg05#1",), variant="standard", events=()):
    dice = scripted(*faces)
    return CombatEngine(
        CARDS, dice, Deck("damage", list(deck), reshuffle=True), units, variant=variant, events_in_play=events
    )


def done(eng: CombatEngine) -> None:
    assert eng.dice.rng.faces == [], f"scripted faces left over: {eng.dice.rng.faces}"


def kinds(events):
    return [e.kind for e in events]


def tank_duel(att_crew="regular", tgt_crew="regular"):
    """T-34/76 (1942) vs Pz IV G: F-34 needs 10 vs vehicles, DI 7; Pz IV G Defense 6, Endurance 14/7."""
    return roster(
        CARDS, ("su_t34_76#1", f"su_tank_crew_{att_crew}#1"), ("de_pz_iv_g#1", f"de_tank_crew_{tgt_crew}#1")
    )


T34, PZ4 = "su_t34_76#1", "de_pz_iv_g#1"
F34 = AttackOrders((0,))


# -- step c: the to-hit roll (R6.3) ----------------------------------------------------------


def test_hit_on_exactly_the_attack_value():
    u = tank_duel()
    eng = engine(u, 4, 6, 5)  # 2d10 = 10 = attack value: hit; Intensity 5
    ev = eng.resolve_attack(u[T34], u[PZ4], F34, DefenseContext())
    done(eng)
    assert kinds(ev) == ["attack", "to_hit", "damage"]
    assert ev[1].roll.result == 10 and ev[1].attack_value == 10 and ev[1].outcome == "hit"
    # Damage = 5 + DI 7 - Defense 6 = 6: Endurance 14 -> 8, above Half 7: no Damage card
    assert (ev[2].damage, ev[2].endurance_before, ev[2].endurance_after) == (6, 14, 8)
    assert u[PZ4].endurance == 8 and u[PZ4].damage_card is None


def test_one_below_the_attack_value_misses():
    u = tank_duel()
    eng = engine(u, 4, 5)  # 9 < 10: miss, no Intensity roll
    ev = eng.resolve_attack(u[T34], u[PZ4], F34, DefenseContext())
    done(eng)
    assert ev[1].outcome == "miss" and u[PZ4].endurance == 14


@pytest.mark.parametrize(
    ("crew", "hindrances", "immobilized", "faces", "outcome"),
    [
        ("green", 0, False, (4, 6), "miss"),  # 10 - 1 green = 9
        ("veteran", 0, False, (4, 5), "hit"),  # 9 + 1 veteran = 10
        ("regular", 1, False, (4, 6), "miss"),  # 10 - 1 hindrance
        ("regular", 2, False, (6, 6), "hit"),  # 12 - 2 = 10
        ("regular", 0, True, (3, 5), "hit"),  # 8 + 2 immobilized target (R6.3)
    ],
)
def test_to_hit_modifiers(crew, hindrances, immobilized, faces, outcome):
    u = tank_duel(att_crew=crew)
    u[PZ4].immobilized = immobilized
    eng = engine(u, *faces, 1)
    ev = eng.resolve_attack(u[T34], u[PZ4], F34, DefenseContext(hindrances=hindrances))
    assert ev[1].outcome == outcome
    if outcome == "miss":
        assert eng.dice.rng.faces == [1]
    else:
        done(eng)


def test_command_card_bonus_is_one_logged_modifier():
    u = tank_duel()
    eng = engine(u, 4, 5, 3)  # 9 + 1 Command card = 10: hit; Intensity 3 + 1 = 4
    ev = eng.resolve_attack(
        u[T34], u[PZ4], F34, DefenseContext(), bonus=bonus_on(to_hit="all", intensity="all")
    )
    done(eng)
    to_hit = eng.dice.log[0]
    assert to_hit.modifiers == (("command card", 1),) and to_hit.result == 10
    intensity = eng.dice.log[1]
    assert intensity.modifiers == (("command card", 1),) and intensity.result == 4
    assert ev[2].damage == 4 + 7 - 6


# -- R6.4 special rolls ------------------------------------------------------------------------


def test_natural_18_doubles_intensity():
    u = tank_duel()
    eng = engine(u, 9, 9, 4)
    ev = eng.resolve_attack(u[T34], u[PZ4], F34, DefenseContext())
    done(eng)
    assert ev[1].outcome == "double"
    dmg = ev[2]
    # 2 x 4 + DI 7 - Defense 6 = 9: Endurance 14 -> 5 <= Half 7: a Damage card (R6.6)
    assert (dmg.raw, dmg.doubled, dmg.damage, dmg.endurance_after) == (8, True, 9, 5)
    assert ev[3].kind == "damage_card" and ev[3].card == "dmg05#1" and ev[3].reason == "half_endurance"
    assert u[PZ4].damage_card == "dmg05#1"


def test_natural_18_that_misses_does_not_double():
    u = roster(CARDS, ("de_grenadiers#1", None), ("su_yak9#1", "su_pilot_regular#1"))
    eng = engine(u, 9, 9)  # Kar 98k needs 18 vs aircraft; 18 - 1 hindrance = 17: miss
    ev = eng.resolve_attack(
        u["de_grenadiers#1"], u["su_yak9#1"], AttackOrders((0,)), DefenseContext(hindrances=1)
    )
    done(eng)
    assert ev[1].outcome == "miss"


def test_natural_19_draws_a_damage_card_then_damages():
    u = tank_duel()
    eng = engine(u, 10, 9, 3)
    ev = eng.resolve_attack(u[T34], u[PZ4], F34, DefenseContext())
    done(eng)
    assert kinds(ev) == ["attack", "to_hit", "damage_card", "damage"]
    assert ev[1].outcome == "special" and ev[2].reason == "special_roll"
    assert ev[3].damage == 3 + 7 - 6 and u[PZ4].endurance == 10 and u[PZ4].damage_card == "dmg05#1"


def test_natural_20_destroys_a_unit_that_already_has_a_damage_card():
    u = tank_duel()
    u[PZ4].damage_card, u[PZ4].endurance = "dmg05#1", 7
    eng = engine(u, 10, 10)  # no Intensity roll: unit and crew destroyed (000)
    ev = eng.resolve_attack(u[T34], u[PZ4], F34, DefenseContext())
    done(eng)
    assert kinds(ev) == ["attack", "to_hit", "destroyed", "crew_fate"]
    assert (ev[2].cause, ev[2].scorer, ev[2].victory_points, ev[2].wreck) == (
        "special_roll",
        "soviet",
        14,
        True,
    )
    assert (ev[3].fate, ev[3].die, ev[3].victory_points) == ("destroyed", None, 2)
    assert u[PZ4].endurance == 0


def test_classic_19_destroys_outright_and_2_3_is_friendly_fire():
    u = tank_duel()
    u.update(roster(CARDS, ("su_rifles#1", None)))
    eng = engine(u, 10, 9, variant="classic")
    ev = eng.resolve_attack(u[T34], u[PZ4], F34, DefenseContext())
    done(eng)
    assert kinds(ev) == ["attack", "to_hit", "destroyed", "crew_fate"] and u[PZ4].endurance == 0

    u = tank_duel()
    u.update(roster(CARDS, ("su_rifles#1", None)))
    picked = []

    def opponent_picks(attacker, weapon, index):
        picked.append((attacker.uid, weapon.name, index))
        return u["su_rifles#1"], DefenseContext(terrain=1)

    eng = engine(u, 1, 2, 5, variant="classic")  # natural 3: the F-34 hits the friendly rifles
    ev = eng.resolve_attack(u[T34], u[PZ4], F34, DefenseContext(), friendly_fire=opponent_picks)
    done(eng)
    assert picked == [(T34, "76 mm F-34", 0)]
    assert kinds(ev) == ["attack", "to_hit", "friendly_fire", "damage", "destroyed"]
    assert ev[3].damage == 5 + 7 - 1  # Intensity + DI - (Defense 0 + terrain 1) = 11 >= 8
    assert ev[4].scorer is None and ev[4].victory_points == 0  # no points (R6.4)
    assert u[PZ4].endurance == 14

    u = tank_duel()
    eng = engine(u, 1, 2)  # standard: natural 3 is just a miss
    assert eng.resolve_attack(u[T34], u[PZ4], F34, DefenseContext())[1].outcome == "miss"
    done(eng)


# -- damage across a phase and End Turn (R6.5, R5.6) --------------------------------------------


def test_damage_adds_up_in_a_phase_and_recovers_to_full():
    u = tank_duel()
    eng = engine(u, 5, 5, 2, 5, 5, 2)
    eng.resolve_attack(u[T34], u[PZ4], F34, DefenseContext())
    eng.resolve_attack(u[T34], u[PZ4], F34, DefenseContext())
    done(eng)
    assert u[PZ4].endurance == 14 - 3 - 3  # 8: still above Half 7, no Damage card
    ev = end_turn(CARDS, u)
    assert [(e.unit, e.before, e.after) for e in ev] == [(PZ4, 8, 14)]


def test_damaged_unit_with_a_card_recovers_to_half():
    u = tank_duel()
    eng = engine(u, 5, 5, 7)  # 7 + 7 - 6 = 8: 14 -> 6 <= 7: Damage card
    eng.resolve_attack(u[T34], u[PZ4], F34, DefenseContext())
    done(eng)
    assert u[PZ4].endurance == 6 and u[PZ4].damage_card == "dmg05#1"
    ev = end_turn(CARDS, u)
    assert [(e.unit, e.before, e.after) for e in ev] == [(PZ4, 6, 7)]


def test_card_from_a_special_roll_means_half_endurance_next_turn():
    u = tank_duel()
    eng = engine(u, 10, 9, 1)  # card, then 1 + 7 - 6 = 2 damage: 12
    eng.resolve_attack(u[T34], u[PZ4], F34, DefenseContext())
    assert u[PZ4].endurance == 12
    end_turn(CARDS, u)
    assert u[PZ4].endurance == 7  # R5.6: with a Damage card, Current Endurance is Half


def test_damage_effect_counter_counts_down_at_end_turn():
    u = tank_duel()
    u[PZ4].damage_card, u[PZ4].damage_turns, u[PZ4].endurance = "dmg04#1", 2, 7  # Track Damage, 2 turns
    assert is_immobilized(CARDS, u[PZ4], u)
    assert end_turn(CARDS, u) == []
    assert u[PZ4].damage_turns == 1 and is_immobilized(CARDS, u[PZ4], u)
    ev = end_turn(CARDS, u)
    assert kinds(ev) == ["damage_effect_ended"] and u[PZ4].damage_turns == 0
    assert not is_immobilized(CARDS, u[PZ4], u) and u[PZ4].damage_card == "dmg04#1"


def test_temporary_no_attack_effect_then_attack_again():
    u = tank_duel()
    u[T34].damage_card, u[T34].damage_turns, u[T34].endurance = "dmg02#1", 1, 7  # Crew Stunned, 1 turn
    with pytest.raises(CombatError, match="may not attack"):
        engine(u).resolve_attack(u[T34], u[PZ4], F34, DefenseContext())
    end_turn(CARDS, u)
    assert attack_problems(CARDS, u[T34], u[PZ4], F34, u) == []


# -- crew fate (R6.6) ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("die", "fate", "crew_vp"),
    [
        (3, "survives", 0),
        (4, "captured", 4),
        (6, "captured", 4),
        (7, "destroyed", 2),
        (10, "destroyed", 2),
    ],
)
def test_crew_fate_from_the_destroying_intensity_die(die, fate, crew_vp):
    u = roster(CARDS, ("de_tiger_i#1", "de_tank_crew_regular#1"), ("su_t70#1", "su_tank_crew_regular#1"))
    t70 = u["su_t70#1"]
    t70.endurance, t70.damage_card = 1, "dmg05#1"
    eng = engine(u, 4, 4, die)  # 8 = the 88's value vs vehicles; die + 10 - 3 >= 8 > 1
    ev = eng.resolve_attack(u["de_tiger_i#1"], t70, AttackOrders((0,)), DefenseContext())
    done(eng)
    assert kinds(ev)[-2:] == ["destroyed", "crew_fate"]
    assert ev[-2].victory_points == 7 and ev[-2].scorer == "german"
    assert (ev[-1].crew, ev[-1].fate, ev[-1].die, ev[-1].victory_points) == (
        "su_tank_crew_regular#1",
        fate,
        die,
        crew_vp,
    )


def test_classic_capture_needs_a_captor_ground_unit():
    u = roster(CARDS, ("de_ju87g#1", "de_pilot_regular#1"), ("su_t70#1", "su_tank_crew_regular#1"))
    t70 = u["su_t70#1"]
    t70.endurance, t70.damage_card = 1, "dmg05#1"
    eng = engine(u, 5, 5, 5, variant="classic")  # BK 3,7 needs 10; die 5 would capture
    ev = eng.resolve_attack(
        u["de_ju87g#1"], t70, AttackOrders((0,)), DefenseContext(captor_has_ground_unit=False)
    )
    assert ev[-1].fate == "survives" and ev[-1].victory_points == 0
    u = roster(CARDS, ("de_ju87g#1", "de_pilot_regular#1"), ("su_t70#1", "su_tank_crew_regular#1"))
    u["su_t70#1"].endurance, u["su_t70#1"].damage_card = 1, "dmg05#1"
    eng = engine(u, 5, 5, 5, variant="standard")  # 000: no such condition
    ev = eng.resolve_attack(
        u["de_ju87g#1"], u["su_t70#1"], AttackOrders((0,)), DefenseContext(captor_has_ground_unit=False)
    )
    assert ev[-1].fate == "captured" and ev[-1].victory_points == 4


# -- R4.2 underscores, R7 weapon choices -----------------------------------------------------------


def test_underscored_weapons_cannot_affect_defense_2_or_more():
    u = roster(
        CARDS,
        ("de_pz_iv_g#1", "de_tank_crew_regular#1"),
        ("su_t34_76#1", "su_tank_crew_regular#1"),
        ("su_ba64#1", "su_tank_crew_regular#1"),
        ("su_rifles#1", None),
        ("su_zis3#1", "su_artillery_crew_regular#1"),
        ("de_flak38#1", "de_artillery_crew_regular#1"),
    )
    mg = AttackOrders((1,))  # MG 34s, underscored
    pz = u["de_pz_iv_g#1"]
    for target in ("su_t34_76#1", "su_ba64#1"):  # Defense 5 and Defense 2
        probs = attack_problems(CARDS, pz, u[target], mg, u)
        assert any("bullets" in p for p in probs), probs
    assert attack_problems(CARDS, pz, u["su_rifles#1"], mg, u) == []  # Defense 0
    assert attack_problems(CARDS, pz, u["su_zis3#1"], mg, u) == []  # a gun, Defense 1
    # base (card) Defense decides, not effective Defense: Armour Cracked (-2) does not help bullets
    u["su_ba64#1"].damage_card, u["su_ba64#1"].endurance = "dmg23#1", 3
    assert effective_defense(CARDS, u["su_ba64#1"], DefenseContext(), u)[0] == 0
    assert any("bullets" in p for p in attack_problems(CARDS, pz, u["su_ba64#1"], mg, u))
    # ... and terrain does not stop them either: a gun in woods is still affected
    assert legal_weapons(CARDS, pz, u["su_zis3#1"], u) == [0, 1]
    # a 2 cm Flak (not underscored) does affect Defense 5
    assert legal_weapons(CARDS, u["de_flak38#1"], u["su_t34_76#1"], u) == [0]
    with pytest.raises(CombatError, match="bullets"):
        engine(u).resolve_attack(pz, u["su_t34_76#1"], mg, DefenseContext())


def test_rate_of_fire_rolls_and_stops_when_the_target_is_destroyed():
    u = roster(CARDS, ("de_mg42_team#1", None), ("su_rifles#1", None))
    eng = engine(u, 5, 5, 10)  # needs 10: hit; 10 + 2 - 0 = 12 >= 8: destroyed; 2 rolls left unmade
    ev = eng.resolve_attack(u["de_mg42_team#1"], u["su_rifles#1"], AttackOrders((0,)), DefenseContext())
    done(eng)
    assert kinds(ev) == ["attack", "to_hit", "damage", "destroyed"]
    assert (ev[3].scorer, ev[3].victory_points, ev[3].wreck) == ("german", 4, False)

    u = roster(CARDS, ("de_mg42_team#1", None), ("su_rifles#1", None))
    eng = engine(u, 1, 1, 1, 1, 1, 1)  # rate of fire 3: three rolls, all missing
    ev = eng.resolve_attack(u["de_mg42_team#1"], u["su_rifles#1"], AttackOrders((0,)), DefenseContext())
    done(eng)
    assert [e.number for e in ev if e.kind == "to_hit"] == [0, 1, 2]


def test_two_weapons_fire_in_order_and_damage_draws_a_card():
    u = roster(CARDS, ("de_grenadiers#1", None), ("su_rifles#1", None))
    # Kar 98k (12): 6+6 hit, Intensity 1: 1 + 2 = 3 -> 5; MG 42 (11, 2x): 1+1 miss, 6+5 hit,
    # Intensity 2: 4 -> 1 <= Half 4: Damage card dmg01 (infantry: Casualty)
    eng = engine(u, 6, 6, 1, 1, 1, 6, 5, 2, deck=("dmg01#1",))
    ev = eng.resolve_attack(u["de_grenadiers#1"], u["su_rifles#1"], AttackOrders((0, 1)), DefenseContext())
    done(eng)
    assert kinds(ev) == ["attack", "to_hit", "damage", "to_hit", "to_hit", "damage", "damage_card"]
    assert [e.weapon_index for e in ev if e.kind == "to_hit"] == [0, 1, 1]
    assert u["su_rifles#1"].endurance == 1 and ev[-1].title == "Casualty"
    # Casualty: the 2nd listed weapon may no longer fire (the 1st still may)
    g2 = new_unit(CARDS, "de_grenadiers#2")
    u[g2.uid] = g2
    assert any("2nd listed" in p for p in attack_problems(CARDS, u["su_rifles#1"], g2, AttackOrders((1,)), u))
    assert attack_problems(CARDS, u["su_rifles#1"], g2, AttackOrders((0,)), u) == []


def test_crew_fate_reads_the_intensity_die_of_the_hit_that_destroyed_the_unit():
    """000 step g: a Damage card's extra d10 destroys the tank; its crew's fate reads the
    destroying hit's Intensity die (6: captured), not the extra die (8) (rules revision 2)."""
    u = tank_duel()
    # 5+5 hit, Intensity 6: 6 + 7 - 6 = 7: 14 -> 7 <= 7: Ammunition Fire (1d10 extra): 8 -> -1
    eng = engine(u, 5, 5, 6, 8, deck=("dmg03#1",))
    ev = eng.resolve_attack(u[T34], u[PZ4], F34, DefenseContext())
    done(eng)
    assert kinds(ev) == [
        "attack",
        "to_hit",
        "damage",
        "damage_card",
        "extra_damage",
        "destroyed",
        "crew_fate",
    ]
    assert ev[5].cause == "extra_damage" and (ev[6].fate, ev[6].die) == ("captured", 6)


def test_rules_revision_1_keeps_the_crew_fate_of_the_highest_extra_die():
    """Games saved before rules revision 2 replay as they were played: the extra die (8)."""
    u = tank_duel()
    eng = engine(u, 5, 5, 6, 8, deck=("dmg03#1",))
    eng.rules_revision = 1
    ev = eng.resolve_attack(u[T34], u[PZ4], F34, DefenseContext())
    done(eng)
    assert ev[5].cause == "extra_damage" and (ev[6].fate, ev[6].die) == ("destroyed", 8)


def test_veteran_crew_ignores_a_marked_damage_effect():
    u = tank_duel(tgt_crew="veteran")
    eng = engine(u, 5, 5, 7, deck=("dmg02#1",))  # Crew Stunned (no attack, veterans ignore)
    ev = eng.resolve_attack(u[T34], u[PZ4], F34, DefenseContext())
    assert ev[-1].kind == "damage_card" and ev[-1].ignored
    assert attack_problems(CARDS, u[PZ4], u[T34], AttackOrders((0,)), u) == []
    u2 = tank_duel(tgt_crew="regular")
    eng = engine(u2, 5, 5, 7, deck=("dmg02#1",))
    eng.resolve_attack(u2[T34], u2[PZ4], F34, DefenseContext())
    assert any(
        "may not attack" in p for p in attack_problems(CARDS, u2[PZ4], u2[T34], AttackOrders((0,)), u2)
    )


def test_aircraft_fuel_leak_cuts_turns_of_flight():
    u = roster(CARDS, ("de_flak38#1", "de_artillery_crew_regular#1"), ("su_yak9#1", "su_pilot_regular#1"))
    # 2 cm Flak needs 10 vs aircraft, DI 3; Yak-9 Defense 1, 8 / 4; terrain ignored for aircraft
    eng = engine(u, 5, 5, 5, 1, 1, 1, 1, deck=("dmg02#1",))
    ev = eng.resolve_attack(u["de_flak38#1"], u["su_yak9#1"], AttackOrders((0,)), DefenseContext(terrain=3))
    done(eng)
    assert ev[2].defense == 1 and ev[2].damage == 7
    assert ev[3].title == "Fuel Leak" and (ev[4].before, ev[4].after) == (3, 2)


# -- close assault (000) ---------------------------------------------------------------------------


def assault_roster():
    return roster(
        CARDS,
        ("su_rifles#1", None),
        ("su_rifles#2", None),
        ("su_ptrd_team#1", None),
        ("de_pz_iii_m#1", "de_tank_crew_regular#1"),
    )


INF = ("su_rifles#1", "su_rifles#2", "su_ptrd_team#1")


def test_close_assault_of_three_infantry():
    u = assault_roster()
    # best attack value vs vehicles in the group: PTRD 12 (rifles 17); 6+6 hits; dice 3+4+2 = 9
    # - Defense 5 = 4, no Damage Index: 14 -> 10
    eng = engine(u, 6, 6, 3, 4, 2)
    ev = eng.close_assault([u[i] for i in INF], u["de_pz_iii_m#1"], DefenseContext())
    done(eng)
    assert kinds(ev) == ["close_assault", "to_hit", "damage"]
    assert ev[0].attack_value == 12 and ev[2].raw == 9 and ev[2].damage_index == 0 and ev[2].damage == 4
    assert eng.dice.log[1].dice == "3d10"
    assert u["de_pz_iii_m#1"].endurance == 10


def test_close_assault_destroys_crew_fate_from_highest_die():
    u = assault_roster()
    eng = engine(u, 6, 6, 8, 7, 9)  # 24 - 5 = 19 >= 14
    ev = eng.close_assault([u[i] for i in INF], u["de_pz_iii_m#1"], DefenseContext())
    done(eng)
    assert kinds(ev)[-2:] == ["destroyed", "crew_fate"]
    assert ev[-2].by == INF and ev[-2].scorer == "soviet" and ev[-2].victory_points == 12
    assert (ev[-1].fate, ev[-1].die) == ("destroyed", 9)


def test_close_assault_foiled_when_an_assaulting_unit_is_destroyed_first():
    u = assault_roster()
    u["su_rifles#2"].endurance = 0  # destroyed by an earlier resolution this phase
    eng = engine(u)  # no dice may be rolled
    ev = eng.close_assault([u[i] for i in INF], u["de_pz_iii_m#1"], DefenseContext())
    done(eng)
    assert kinds(ev) == ["close_assault_foiled"] and ev[0].remaining == ("su_rifles#1", "su_ptrd_team#1")
    assert u["de_pz_iii_m#1"].endurance == 14


def test_close_assault_of_four_goes_on_with_three():
    u = assault_roster()
    u.update(roster(CARDS, ("su_smg#1", None)))
    u["su_rifles#2"].endurance = 0
    eng = engine(u, 6, 6, 1, 1, 1)
    ev = eng.close_assault([u[i] for i in (*INF, "su_smg#1")], u["de_pz_iii_m#1"], DefenseContext())
    done(eng)
    assert ev[0].attackers == ("su_rifles#1", "su_ptrd_team#1", "su_smg#1")
    with pytest.raises(CombatError, match="vehicle"):
        engine(u).close_assault([u[i] for i in INF], u["su_smg#1"], DefenseContext())


# -- bombs, SPGs, crews, Command cards, Events --------------------------------------------------------


def test_bomb_once_per_flight():
    u = roster(CARDS, ("de_fw190f#1", "de_pilot_regular#1"), ("su_t34_76#1", "su_tank_crew_regular#1"))
    fw, t34 = u["de_fw190f#1"], u["su_t34_76#1"]
    eng = engine(u, 6, 6, 1)  # SC 500 needs 12 vs vehicles, DI 12: 1 + 12 - 5 = 8: 14 -> 6
    ev = eng.resolve_attack(fw, t34, AttackOrders((0,)), DefenseContext())
    done(eng)
    assert ev[-1].kind == "bomb" and fw.bombs_used == (0,)
    with pytest.raises(CombatError, match="already dropped"):
        engine(u).resolve_attack(fw, t34, AttackOrders((0,)), DefenseContext())
    assert attack_problems(CARDS, fw, t34, AttackOrders((1,)), u) == []
    end_turn(CARDS, u)
    assert fw.flight_turns == 1 and fw.bombs_used == (0,)
    ev = end_turn(CARDS, u)
    assert "aircraft_returns" in kinds(ev) and fw.bombs_used == ()


def test_spg_fires_indirectly_with_its_first_weapon_only():
    u = roster(
        CARDS,
        ("su_su76m#1", "su_tank_crew_regular#1"),
        ("su_t34_76#1", "su_tank_crew_regular#1"),
        ("de_grenadiers#1", None),
        ("de_wespe#1", "de_tank_crew_regular#1"),
        ("su_yak9#1", "su_pilot_regular#1"),
        ("de_lefh18#1", "de_artillery_crew_regular#1"),
    )
    su76, gren = u["su_su76m#1"], u["de_grenadiers#1"]
    assert attack_problems(CARDS, su76, gren, AttackOrders((0,), indirect=True), u) == []
    probs = attack_problems(CARDS, su76, gren, AttackOrders((1,), indirect=True), u)
    assert any("1st weapon only" in p for p in probs)
    assert attack_problems(CARDS, su76, gren, AttackOrders((1,)), u) == []  # on the frontline: both
    # the 2nd weapon may still shoot at aircraft (000)
    assert attack_problems(CARDS, u["de_wespe#1"], u["su_yak9#1"], AttackOrders((1,), indirect=True), u) == []
    assert any(
        "frontline" in p
        for p in attack_problems(CARDS, u["su_t34_76#1"], gren, AttackOrders((0,), indirect=True), u)
    )
    assert (
        attack_problems(CARDS, u["de_lefh18#1"], u["su_t34_76#1"], AttackOrders((0,), indirect=True), u) == []
    )


def test_unit_without_its_crew_cannot_attack_and_crews_are_targeted_by_infantry_only():
    u = roster(
        CARDS,
        ("su_zis3#1", "su_artillery_crew_regular#1"),
        ("de_grenadiers#1", None),
        ("de_tiger_i#1", "de_tank_crew_regular#1"),
    )
    crew = u["su_artillery_crew_regular#1"]
    assert attack_problems(CARDS, u["de_grenadiers#1"], crew, AttackOrders((0,)), u) == []  # R7.5
    assert any(
        "only infantry" in p for p in attack_problems(CARDS, u["de_tiger_i#1"], crew, AttackOrders((0,)), u)
    )
    eng = engine(u, 6, 6, 6)  # Kar 98k needs 12 vs infantry (crews); 6 + 2 - 0 = 8 >= 4
    ev = eng.resolve_attack(u["de_grenadiers#1"], crew, AttackOrders((0,)), DefenseContext())
    assert ev[-1].kind == "destroyed" and ev[-1].victory_points == 2 and ev[-1].unit == crew.uid
    assert any(
        "has no artillery crew" in p
        for p in attack_problems(CARDS, u["su_zis3#1"], u["de_grenadiers#1"], AttackOrders((0,)), u)
    )


def test_command_cards_on_an_attack_and_under_units():
    u = tank_duel()
    eng = engine(u, 4, 4, 1)  # 8 + 2 Aimed Fire = 10
    ev = eng.resolve_attack(
        u[T34], u[PZ4], AttackOrders((0,), command_cards=("aimed_fire#1",)), DefenseContext()
    )
    done(eng)
    assert ev[1].outcome == "hit" and ("Aimed Fire", 2) in ev[1].roll.modifiers

    u = tank_duel()
    u[PZ4].command_cards.append("hull_down#1")  # +1 Defense
    eng = engine(u, 5, 5, 5)
    ev = eng.resolve_attack(
        u[T34], u[PZ4], AttackOrders((0,), command_cards=("flank_shot#2",)), DefenseContext()
    )
    assert ev[2].damage_index == 9 and ev[2].defense == 7 and ev[2].damage == 5 + 9 - 7

    u = tank_duel()
    eng = engine(u, 1, 1, 1, 1)  # Rapid Fire: two rolls with a 1x weapon
    ev = eng.resolve_attack(
        u[T34], u[PZ4], AttackOrders((0,), command_cards=("rapid_fire#1",)), DefenseContext()
    )
    done(eng)
    assert sum(e.kind == "to_hit" for e in ev) == 2
    with pytest.raises(CombatError, match="do not add up"):
        engine(u).resolve_attack(
            u[T34],
            u[PZ4],
            AttackOrders((0,), command_cards=("aimed_fire#1", "aimed_fire#2")),
            DefenseContext(),
        )
    with pytest.raises(CombatError, match="not played on an attack"):
        engine(u).resolve_attack(
            u[T34], u[PZ4], AttackOrders((0,), command_cards=("hull_down#1",)), DefenseContext()
        )
    # identical Command cards under one unit count once (001)
    u[PZ4].command_cards[:] = ["hull_down#1", "hull_down#2"]
    assert effective_defense(CARDS, u[PZ4], DefenseContext(), u)[0] == 7


def test_turn_command_card_expires_at_end_turn():
    u = tank_duel()
    u[PZ4].command_cards.append("smoke_screen#1")
    assert effective_defense(CARDS, u[PZ4], DefenseContext(), u)[0] == 8
    ev = end_turn(CARDS, u)
    assert [(e.kind, e.card) for e in ev] == [("command_card_expired", "smoke_screen#1")]
    assert u[PZ4].command_cards == []


def test_events_in_play_change_defense_and_attack():
    u = roster(
        CARDS, ("de_grenadiers#1", None), ("su_rifles#1", None), ("de_pz_iv_g#1", "de_tank_crew_regular#1")
    )
    ctx = DefenseContext()
    assert (
        effective_defense(CARDS, u["su_rifles#1"], ctx, u, ("ev_order_227#1",))[0] == 1
    )  # Soviet infantry +1
    assert effective_defense(CARDS, u["de_grenadiers#1"], ctx, u, ("ev_order_227#1",))[0] == 0
    mods = to_hit_modifiers(CARDS, u["de_pz_iv_g#1"], u["su_rifles#1"], ctx, u, ("ev_panzer_aces#1",))
    assert ("Panzer Aces", 1) in mods
    assert (
        to_hit_modifiers(CARDS, u["de_grenadiers#1"], u["su_rifles#1"], ctx, u, ("ev_panzer_aces#1",)) == []
    )


# -- effects-helper entry points, deck handling, determinism ----------------------------------------


def test_fire_hit_and_off_board_artillery():
    u = roster(CARDS, ("su_rifles#1", None), ("de_grenadiers#1", None))
    eng = engine(u, 3)
    # fire (R8.5): Intensity 3 + DI 4 - (Defense 0 - 2 burning) = 9 >= 8: destroyed, Germans score
    ev = eng.apply_hit(u["su_rifles#1"], DefenseContext(terrain=-2), damage_index=4, source="fire")
    done(eng)
    assert kinds(ev) == ["damage", "destroyed"] and ev[0].damage == 9 and ev[1].scorer == "german"
    eng = engine(u, 5, 4, 1)  # 122 mm M-30 needs 9 vs infantry; 1 + 10 - 0 = 11
    ev = eng.fire_weapon(CARDS.weapons["m30"], u["de_grenadiers#1"], DefenseContext(), side="soviet")
    done(eng)
    assert (
        ev[0].attacker is None
        and ev[-1].kind == "destroyed"
        and ev[-1].by == ()
        and ev[-1].scorer == "soviet"
    )


def test_attack_on_a_destroyed_unit_is_void():
    u = tank_duel()
    u[PZ4].endurance = 0
    ev = engine(u).resolve_attack(u[T34], u[PZ4], F34, DefenseContext())
    assert kinds(ev) == ["attack_void"]


def test_damage_deck_reshuffles_its_discard_pile():
    u = tank_duel()
    dice = scripted(5, 5, 7)
    deck = Deck("damage", [], ["dmg07#1"], reshuffle=True)
    eng = CombatEngine(CARDS, dice, deck, u)
    ev = eng.resolve_attack(u[T34], u[PZ4], F34, DefenseContext())
    assert ev[-1].card == "dmg07#1" and deck.discard == [] and dice.log[-1].dice == "shuffle"
    assert leave_play(u[PZ4], deck) == ["dmg07#1"] and deck.discard == ["dmg07#1"]
    u[PZ4].endurance = 3
    eng = CombatEngine(CARDS, scripted(5, 5, 1), Deck("damage", [], [], reshuffle=True), u)
    ev = eng.resolve_attack(u[T34], u[PZ4], F34, DefenseContext())
    assert ev[-1].kind == "damage_deck_empty"


def test_same_seed_same_events_and_json_ready():
    logs = []
    for _ in range(2):
        u = tank_duel()
        eng = CombatEngine(
            CARDS, Dice(42), Deck("damage", [f"{d}#1" for d in sorted(CARDS.damage)], reshuffle=True), u
        )
        ev = []
        for _ in range(6):
            ev += eng.resolve_attack(u[T34], u[PZ4], F34, DefenseContext())
            if u[PZ4].endurance <= 0:
                break
        logs.append(json.dumps([e.to_json() for e in ev], sort_keys=True))
        rolls = [r for e in ev for r in e.rolls]
        assert rolls == [r for r in eng.dice.log if r.dice != "shuffle"]
    assert logs[0] == logs[1]


def test_illegal_attacks_list_every_reason():
    u = tank_duel()
    with pytest.raises(CombatError) as exc:
        engine(u).resolve_attack(u[T34], u[PZ4], AttackOrders((0, 1, 5)), DefenseContext())
    msg = str(exc.value)
    assert "1 to 2 weapons" in msg and "no weapon 5" in msg and "bullets" in msg
    assert any("own side" in p for p in attack_problems(CARDS, u[T34], u["su_tank_crew_regular#1"], F34, u))
