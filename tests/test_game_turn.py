"""The turn sequence (R5) and victory (R10): initiative, who acts first, automatic passes,
resolution order, void attacks, crews, Events, hand limits, End Turn, fire, artillery, Overrun,
points, objectives and the turn limit."""

from __future__ import annotations

import dataclasses

import pytest
from game_helpers import H, advance_to, clear_units, place, scenario, script_dice

from hexwar.game.commands import (
    Commit,
    Declare,
    Draw,
    EndPhase,
    Recrew,
    Resolve,
    TargetArtillery,
)
from hexwar.game.state import Phase, check_invariants


def empty(**changes):
    sc = scenario("game_empty")
    if changes:
        sc = dataclasses.replace(sc, **changes)
    return sc.new_game(seed=1)


def test_initiative_winner_acts_first_in_every_phase_and_ties_are_rerolled():
    g = empty()
    place(g, "de_grenadiers", "C05")
    place(g, "su_rifles", "E05")
    script_dice(g, 4, 4, 9, 2)  # turn 2 initiative: 4-4 tie, re-roll 9-2: Germans
    advance_to(g, Phase.DRAW)
    while g.turn == 1:
        advance_to(g, g.phase)
        from game_helpers import step

        step(g)
    assert g.initiative == "german"
    tie = [e for e in g.log if e.kind == "initiative_tie"]
    assert tie and tie[-1].data["roll"] == 4
    firsts = [e for e in g.log if e.kind == "phase" and e.data["turn"] == 2]
    assert firsts and all("(german first)" in e.text for e in firsts)
    assert g.to_act == "german"


def test_a_side_with_nothing_to_do_passes_by_itself():
    g = empty()
    advance_to(g, Phase.COMMITMENT)
    # both hands hold units, so commitment is played; with no unit on the map movement and
    # combat offer nothing: both sides pass them by themselves
    while g.phase == Phase.COMMITMENT:
        g.apply(EndPhase(g.to_act))
    assert g.phase == Phase.DRAW
    assert [e.data["phase"] for e in g.log if e.kind == "phase"][-4:] == [
        "movement",
        "declaration",
        "resolution",
        "draw",
    ]
    assert not any(e.kind == "end_phase" and e.data["phase"] in ("movement", "declaration") for e in g.log)


def resolution_setup(faces=()):
    g = empty()
    a1 = place(g, "de_grenadiers", "C05")
    a2 = place(g, "de_sturm", "C06")
    b1 = place(g, "su_rifles", "D05")
    b2 = place(g, "su_smg", "D06")
    advance_to(g, Phase.DECLARATION)
    first = g.to_act
    mine = {"german": (a1, a2, b1, b2), "soviet": (b1, b2, a1, a2)}
    for side in (first, "soviet" if first == "german" else "german"):
        x1, x2, t1, t2 = mine[side]
        assert g.to_act == side
        g.apply(Declare(side, x1.uid, t1.uid, (0,)))
        g.apply(Declare(side, x2.uid, t2.uid, (0,)))
        if g.phase == Phase.DECLARATION and g.to_act == side:
            g.apply(EndPhase(side))
    assert g.phase == Phase.RESOLUTION
    if faces:
        script_dice(g, *faces)
    return g, first


def test_resolution_alternates_starting_with_the_initiative_winner():
    g, first = resolution_setup(faces=[1, 1] * 20)  # every roll a miss (2 < any attack value)
    sides = []
    while g.phase == Phase.RESOLUTION:
        side = g.to_act
        n = min(a.number for a in g.attacks.values() if a.side == side and not a.resolved)
        g.apply(Resolve(side, n))
        sides.append(side)
    other = "soviet" if first == "german" else "german"
    assert sides == [first, other, first, other]  # R6.2


def test_an_attack_whose_attacker_was_destroyed_is_void():
    # the first resolver hits and destroys the unit that had declared on it
    g, first = resolution_setup()
    mine = sorted((a for a in g.attacks.values() if a.side == first), key=lambda a: a.number)
    target = mine[0].target
    victim_attack = next(a for a in g.attacks.values() if a.side != first and target in a.attackers)
    # Kar 98k / MP 40 / Mosin / PPSh: a natural 20 is a special hit; the Damage card or the damage
    # of the hit that follows: put Intensity 10 + DI 2 against Defense 0, Endurance 8: destroyed
    script_dice(g, 10, 10, 10, 10, 10, 10, 10)
    g.apply(Resolve(first, mine[0].number))
    assert target not in g.units
    assert g.attacks[victim_attack.number].resolved
    assert any(e.kind == "void" and e.data["attack"] == victim_attack.number for e in g.log)
    assert not check_invariants(g)


def test_points_target_ends_the_game_at_once_after_a_resolution():
    g = empty(victory_points=4)
    a = place(g, "de_pz_iv_g", "C05", crew="de_tank_crew_regular")
    t = place(g, "su_rifles", "E05")
    advance_to(g, Phase.DECLARATION, "german")
    g.apply(Declare("german", a.uid, t.uid, (0,)))
    advance_to(g, Phase.RESOLUTION, "german")
    script_dice(g, 6, 6, 5)  # 12 >= 11: hit; 5 + 8 - 0 > 8: destroyed, 4 VP
    g.apply(Resolve("german", min(x.number for x in g.attacks.values() if x.side == "german")))
    assert g.over and g.result.winner == "german" and g.result.reason == "points"
    assert g.phase == Phase.OVER and g.to_act is None and g.legal_commands() == []


def test_crew_fate_captured_scores_twice_its_cost():
    g = empty()
    a = place(g, "su_t34_76", "E05", crew="su_tank_crew_regular")
    t = place(g, "de_pz_iv_g", "C05", crew="de_tank_crew_green")
    advance_to(g, Phase.DECLARATION, "soviet")
    g.apply(Declare("soviet", a.uid, t.uid, (0,)))
    advance_to(g, Phase.RESOLUTION, "soviet")
    # F-34 needs 10 vs vehicles: 9 + 8 = 17 (no special); Intensity 5 -> 5 + 7 - 6 = 6 damage:
    # 14 -> 8; not destroyed. Use a natural 18 (doubles): 2 x 5 + 7 - 6 = 11 -> 3, Damage card ...
    script_dice(g, 9, 9, 10)  # natural 18: Intensity 10 doubled = 20 + 7 - 6 = 21 >= 14: destroyed
    n = min(x.number for x in g.attacks.values() if x.side == "soviet")
    g.apply(Resolve("soviet", n))
    assert t.uid not in g.units
    fate = next(e for e in g.log if e.kind == "crew_fate")
    # the crew's fate reads the destroying hit's natural Intensity die: 10 -> destroyed (7-10)
    assert fate.data["fate"] == "destroyed" and fate.data["die"] == 10
    assert g.vp["soviet"] == 14 + 1  # Pz IV 14 + green crew 1
    assert not check_invariants(g)


def test_fire_damage_hits_units_in_hexes_burning_before_the_turn():
    g = empty()
    u = place(g, "de_grenadiers", "G02")
    g.battlemap.set_fire(H("G02"))
    g.battlemap.fire_turns[g.battlemap.index(H("G02"))] = 1
    place(g, "su_rifles", "J08")
    advance_to(g, Phase.DRAW)
    # Begin Turn 2: a. spread checks into the wood buildings H02 and G03: 1 + 1 + 6 = 8 < DR 13 each;
    # b. fire damage check 6 + 6 = 12 >= 8: hit; Intensity 10 + 4 - (0 - 2) = 16 > 8: destroyed
    script_dice(g, 1, 1, 1, 1, 6, 6, 10)
    from game_helpers import step

    while g.turn == 1:
        step(g)
    check = next(e for e in g.log if e.kind == "fire_damage_check")
    assert check.data["hit"] and u.uid not in g.units
    assert g.vp["soviet"] == 5  # a unit lost to fire scores for the enemy (docs/rules.md)


def test_artillery_targets_only_what_an_observer_sees_and_scores_its_kills():
    g = scenario("game_tiny").new_game(seed=3)
    clear_units(g)
    from hexwar.model.los import line_of_sight

    obs = place(g, "de_grenadiers", "C05")
    seen = [
        h
        for h in g.battlemap.hexes()
        if 2 <= h.distance(H("C05")) <= 4
        and line_of_sight(g.battlemap, H("C05"), h).visible
        and g.battlemap.terrain_at(h).key != "water"
    ]
    hidden = [h for h in g.battlemap.hexes() if not line_of_sight(g.battlemap, H("C05"), h).visible]
    t = place(g, "su_rifles", sorted(seen)[0].label)
    place(g, "su_rifles", "J08")
    advance_to(g, Phase.ARTILLERY, "german")
    from test_game_commands import refused

    refused(g, TargetArtillery("german", sorted(hidden)[0]), "no friendly ground unit has LOS")
    g.apply(TargetArtillery("german", t.hex))
    # accuracy 3 (Germans hit on 3+); to hit infantry 9: 5 + 5; Intensity 9 + DI 8 - (at most 3) > 8
    script_dice(g, 3, 5, 5, 9)
    while g.phase == Phase.ARTILLERY:
        g.apply(EndPhase(g.to_act))
    assert t.uid not in g.units and g.vp["german"] == 4
    assert obs.uid in g.units and g.artillery_left["german"] == 0
    assert not check_invariants(g)


def test_overrun_after_three_end_turns_and_a_commitment_resets_the_count():
    g = dataclasses.replace(scenario("game_empty"), overrun=True).new_game(seed=4)
    place(g, "de_grenadiers", "C05")
    from game_helpers import step

    while g.turn <= 2:
        step(g)
    assert g.overrun["german"] == 2 and not g.over
    advance_to(g, Phase.COMMITMENT, "soviet")
    rifles = next(c for c in g.hand_units["soviet"] if c.startswith("su_rifles"))
    g.apply(Commit("soviet", rifles, H("J08")))
    assert g.overrun["german"] == 0  # R10.1: a new enemy ground unit resets the count
    assert any(e.kind == "overrun_reset" for e in g.log)
    g2 = dataclasses.replace(scenario("game_empty"), overrun=True).new_game(seed=4)
    place(g2, "de_grenadiers", "C05")
    while not g2.over:
        step(g2)
    assert g2.result.winner == "german" and g2.result.reason == "overrun" and g2.turn == 3


def test_turn_limit_compares_points_plus_objectives():
    g = dataclasses.replace(scenario("game_tiny"), turns=1).new_game(seed=6)
    clear_units(g)
    place(g, "de_grenadiers", "E05")  # on the objective (5 points)
    g.objective_holders[H("E05")] = "german"
    place(g, "su_rifles", "J08")
    from game_helpers import step

    while not g.over:
        step(g)
    assert g.result.reason == "turn limit" and g.result.objective_points == {"german": 5, "soviet": 0}
    assert g.result.winner == "german"
    # the terminal's Result line says the objective points that decided it (fresh8)
    sc = f"german {g.vp['german']}, soviet {g.vp['soviet']}"
    assert (
        g.result.summary()
        == f"german wins by turn limit in turn 1: {sc}; objective points german 5, soviet 0"
    )
    assert g.result.how() == "by turn limit in turn 1"


def test_hold_objectives_at_a_turn_wins():
    from hexwar.game.scenario import HoldVictory

    g = dataclasses.replace(scenario("game_tiny"), hold=HoldVictory("german", 1), turns=0).new_game(seed=6)
    clear_units(g)
    place(g, "de_grenadiers", "E05")
    g.objective_holders[H("E05")] = "german"
    place(g, "su_rifles", "J08")
    from game_helpers import step

    while not g.over:
        step(g)
    assert g.result.winner == "german" and g.result.reason == "objectives" and g.turn == 1
    # a person reads it as a hold victory (fresh8: "german wins by objectives in turn 1" named
    # neither the holding nor the objective points); the log's text, which a save's log hash
    # covers, is the old one
    sc = f"german {g.vp['german']}, soviet {g.vp['soviet']}"
    assert g.result.how() == "by holding every objective at the end of turn 1"
    assert g.result.summary() == (
        f"german wins by holding every objective at the end of turn 1 (R10.2): {sc}; "
        "objective points german 5, soviet 0"
    )
    assert str(g.result) == f"german wins by objectives in turn 1: {sc}"


def test_what_wins_is_told_before_play_and_on_the_objective_hex():
    """R10.1, R10.2: the sentences a person reads before the first choice (the terminal) and
    over an objective hex (the window's hover text, ``inspect``), hold victory included."""
    from hexwar.game.inspect import inspect_hex
    from hexwar.game.scenario import HoldVictory
    from hexwar.game.victory import conditions, objective_note

    sc = dataclasses.replace(scenario("game_tiny"), hold=HoldVictory("german", 4), turns=6, victory_points=60)
    g = sc.new_game(seed=6)
    g.objective_holders[H("E05")] = "soviet"
    hold = "the Germans win outright holding the objective at the end of turn 4 (R10.2)"
    assert conditions(g) == [
        "Win at once with 60 victory points, or by an Overrun (every enemy ground unit gone for 3 End Turns) (R10.1).",
        f"Hold victory: {hold}.",
        "After turn 6: victory points plus the points of the objectives each side holds; the higher total "
        "wins, equal totals draw (R10.2).",
        "Objectives (the last ground unit to enter holds one): E05 Knoll (5 points, held by soviet).",
    ]
    note = f"Objective Knoll: 5 points, held by soviet; {hold}"
    assert objective_note(g, H("E05")) == note and objective_note(g, H("E06")) is None
    assert inspect_hex(g, H("E05")).split("; ")[1:3] == note.split("; ")
    no_hold = dataclasses.replace(sc, hold=None, overrun=False).new_game(seed=6)
    assert conditions(no_hold)[0] == "Win at once with 60 victory points (R10.1)."
    assert objective_note(no_hold, H("E05")) == "Objective Knoll: 5 points, held by nobody (R10.2)"


def test_end_turn_recovers_endurance_and_flies_aircraft_home():
    g = empty()
    hurt = place(g, "de_grenadiers", "C05", endurance=5)
    crit = place(g, "su_rifles", "H05", endurance=2)
    crit.damage_card = "dmg05#1"  # a permanent edge
    g.damage_deck.remove("dmg05#1")
    plane = place(g, "de_ju87g", None, crew="de_pilot_regular")
    plane.flight_turns = 1
    from game_helpers import step

    while g.turn == 1:
        step(g)
    assert hurt.endurance == 8 and crit.endurance == 4  # Full without a card, Half with one (R5.6)
    assert plane.uid not in g.units and g.reserves["german"][-2:] == [plane.uid, plane.crew]
    assert not check_invariants(g)


def test_event_drawn_applies_and_the_draw_goes_on():
    g = scenario("game_small").new_game(seed=8)
    advance_to(g, Phase.DRAW)
    side = g.to_act
    ev = next(c for c in g.all_cards if c.startswith("ev_panzer_aces"))
    if ev in g.command_deck:
        g.command_deck.remove(ev)
        g.command_deck.insert(0, ev)
    n = len(g.hand_commands[side])
    g.apply(Draw(side, ("command", "command")))
    assert ev in g.events_in_play and ev not in g.hand_commands[side]
    assert len(g.hand_commands[side]) == n + 3  # the Event did not count: one more was drawn
    assert any(e.kind == "event_card" for e in g.log)
    assert not check_invariants(g)


def test_enveloped_crewless_gun_is_captured_and_recrewing_gives_the_points_back():
    g = empty()
    gun = place(g, "su_45mm", "F04")  # crewless: its crew was shot away
    place(g, "de_grenadiers", "E04")  # adjacent enemy, no friendly support
    place(g, "su_rifles", "J08")
    from game_helpers import step

    while g.turn == 1:
        step(g)
    assert gun.side == "german" and g.vp["german"] == 12  # 2 x cost 6
    crew = "de_artillery_crew_regular#1"
    g.hand_units["german"].append(crew)
    g.all_cards = g.all_cards + (crew,)
    advance_to(g, Phase.COMMITMENT, "german")
    g.apply(Recrew("german", crew, gun.uid))
    assert gun.crew == crew and g.vp["german"] == 0 and not check_invariants(g)


@pytest.mark.parametrize("variant", [(), ("classic",), ("burnout",)])
def test_variants_are_named_in_the_log_and_the_state(variant):
    g = scenario("game_tiny").new_game(seed=1, variants=variant)
    assert g.variants == variant
    assert (", ".join(variant) or "standard") in g.log[0].text


def test_event_with_a_duration_covers_the_turns_after_it_was_drawn():
    g = scenario("game_tiny").new_game(seed=8)  # ev_morning_mist lasts 1 turn
    ev = next(c for c in g.all_cards if c.startswith("ev_morning_mist"))
    advance_to(g, Phase.DRAW)
    g.command_deck.remove(ev)
    g.command_deck.insert(0, ev)
    g.apply(Draw(g.to_act, ("command", "command")))
    assert ev in g.events_in_play and g.event_turns[ev] == 2  # drawn in turn 1: lasts through turn 2
    from game_helpers import step

    while g.turn == 1:
        step(g)
    assert ev in g.events_in_play  # turn 2 is under the mist
    while g.turn == 2:
        step(g)
    assert ev not in g.events_in_play and ev in g.command_discard
    assert any(e.kind == "event_ends" for e in g.log)
    assert not check_invariants(g)


def test_movement_and_move_cost_effects_of_events():
    from hexwar.game.movement import unit_reach

    g = empty()
    tank = place(g, "de_pz_iv_g", "B01", crew="de_tank_crew_regular")
    inf = place(g, "de_grenadiers", "B05")
    for e in ("ev_fuel_shortage#1", "ev_rasputitsa#1"):
        g.events_in_play.append(e)
        g.event_turns[e] = -1
        g.all_cards = g.all_cards + (e,)
    advance_to(g, Phase.MOVEMENT, "german")
    assert tank.mp_left == 4  # 5 - 1: Fuel Shortage, German vehicles (R4.3)
    assert unit_reach(g, tank.uid).cost[H("C01")] == 2.0  # clear 1 + 1: Rasputitsa, tracked
    assert inf.mp_left == 4 and unit_reach(g, inf.uid).cost[H("B04")] == 1.0  # foot units unaffected
    assert not check_invariants(g)


def test_infantry_sets_an_adjacent_wood_building_on_fire_in_close_combat():
    """003's example: a rifle unit (Damage Index 2) attacks an empty wooden building in close
    combat: 2 + 4 = 6, it needs an 8 on 2d6 for AV 14 >= DR 13 + 1: fire (R8.2, R8.4)."""
    from hexwar.game.commands import DeclareBuildingAttack

    g = empty()
    inf = place(g, "de_grenadiers", "F02")  # G02 is a wood building next to it
    place(g, "su_rifles", "J08")
    advance_to(g, Phase.DECLARATION, "german")
    from test_game_commands import refused

    refused(g, DeclareBuildingAttack("german", inf.uid, H("H03"), 0), "not adjacent")
    refused(g, DeclareBuildingAttack("german", inf.uid, H("E02"), 0), "no intact building")
    g.apply(DeclareBuildingAttack("german", inf.uid, H("G02"), 0))
    advance_to(g, Phase.RESOLUTION, "german")
    script_dice(g, 4, 4)
    n = next(a.number for a in g.attacks.values() if a.building == H("G02"))
    g.apply(Resolve("german", n))
    ev = next(e for e in g.log if e.kind == "building_attack")
    assert ev.data["av"] == 14 and ev.data["dr"] == 13 and ev.data["result"] == "fire"
    assert g.battlemap.has_fire(H("G02")) and not check_invariants(g)


def test_close_assault_resolves_with_one_die_per_infantry():
    """000: one to-hit roll against the group's best vehicle value (RPG-43 12), then 1d10 per
    assaulting unit, summed, minus effective Defense, no Damage Index."""
    from hexwar.game.commands import DeclareCloseAssault

    g = empty()
    tank = place(g, "de_pz_iv_g", "E04", crew="de_tank_crew_regular")  # Defense 6, Endurance 14
    inf = [place(g, c, h) for c, h in (("su_ptrd_team", "F04"), ("su_smg", "D04"), ("su_guards", "E05"))]
    advance_to(g, Phase.DECLARATION, "soviet")
    g.apply(DeclareCloseAssault("soviet", tuple(u.uid for u in inf), tank.uid))
    advance_to(g, Phase.RESOLUTION, "soviet")
    # to hit 6 + 7 = 13 >= 12; assault dice 10 + 10 + 9 = 29 - Defense (6 + road 0 for armour) > 14: destroyed
    script_dice(g, 6, 7, 10, 10, 9)
    n = next(a.number for a in g.attacks.values() if a.close_assault)
    g.apply(Resolve("soviet", n))
    dmg = next(e for e in g.log if e.kind == "damage" and e.data["source"] == "close assault")
    assert dmg.data["raw"] == 29 and dmg.data["damage_index"] == 0
    assert dmg.data["damage"] == 29 - dmg.data["defense"]
    assert tank.uid not in g.units and g.vp["soviet"] >= 14
    assert g.battlemap.wrecks_at(H("E04"))  # a destroyed vehicle leaves a wreck (R8.1)
    assert not check_invariants(g)


def test_shooting_a_guns_crew_leaves_the_gun_crewless():
    g = empty()
    pak = place(g, "de_pak40", "E04", crew="de_artillery_crew_green")  # crew: Endurance 4, Defense 0
    rifles = place(g, "su_rifles", "F04")
    advance_to(g, Phase.DECLARATION, "soviet")
    g.apply(Declare("soviet", rifles.uid, pak.uid, (0,), at_crew=True))
    advance_to(g, Phase.RESOLUTION, "soviet")
    # Mosin vs infantry 12: 6 + 6 = 12 hits; Intensity 8 + DI 2 - Defense (0 + road -1 soft) = 11 > 4: the crew dies
    script_dice(g, 6, 6, 8)
    n = next(a.number for a in g.attacks.values() if a.at_crew)
    g.apply(Resolve("soviet", n))
    assert pak.uid in g.units and pak.crew is None and pak.endurance == 8  # the gun is spared (R7.5)
    assert g.vp["soviet"] == 1  # the green crew's cost
    assert not check_invariants(g)
