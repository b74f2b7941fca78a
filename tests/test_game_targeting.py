"""Who may target whom (R7): direct fire with range and LOS, hindrances, indirect fire with
observers, SPGs, aircraft, bombs, crews (R7.5), close assault, and the declaration rules (R6.1)."""

from __future__ import annotations

import pytest
from game_helpers import advance_to, place, scenario
from test_game_commands import refused

from hexwar.game.commands import Declare, DeclareCloseAssault
from hexwar.game.state import Phase
from hexwar.game.targeting import legal_targets
from hexwar.model.los import line_of_sight


def find_pair(bm, want, avoid=("A07", "A08")):
    """The first (a, b) hex pair of the map, in label order, for which ``want(a, b, los)`` holds."""
    hexes = sorted(
        (h for h in bm.hexes() if h.label not in avoid and bm.terrain_at(h).key != "water"),
        key=lambda h: h.label,
    )
    for a in hexes:
        for b in hexes:
            if a != b and want(a, b, line_of_sight(bm, a, b)):
                return a.label, b.label
    raise AssertionError("no such pair on the map")


@pytest.fixture
def game():
    g = scenario("game_empty").new_game(seed=1)
    place(g, "de_grenadiers", "A07")  # decoys: one legal declaration each, so the phase is played
    place(g, "su_rifles", "A08")
    return g


def declare_phase(game, side="german"):
    advance_to(game, Phase.DECLARATION, side)
    return game


def test_direct_fire_in_range_with_clear_or_hindered_los(game):
    ha, hb = find_pair(game.battlemap, lambda a, b, los: a.distance(b) <= 4 and los.hindrances >= 1)
    a = place(game, "de_grenadiers", ha)
    t = place(game, "su_rifles", hb)
    los = line_of_sight(game.battlemap, a.hex, t.hex)
    assert los.status == "hindered"
    declare_phase(game)
    game.apply(Declare("german", a.uid, t.uid, (0, 1)))
    atk = max(game.attacks.values(), key=lambda x: x.number)
    assert atk.attackers == (a.uid,) and atk.weapons == (0, 1) and not atk.indirect
    assert atk.hindrance == los.hindrances  # R3.5: each hindrance adds 1 to the value needed


def test_out_of_range_is_refused(game):
    ha, hb = find_pair(game.battlemap, lambda a, b, los: a.distance(b) == 5 and los.visible)
    a = place(game, "de_grenadiers", ha)  # Kar 98k range 4, MG 42 range 6
    t = place(game, "su_rifles", hb)
    declare_phase(game)
    refused(game, Declare("german", a.uid, t.uid, (0,)), "5 hexes away", "range of 4")
    game.apply(Declare("german", a.uid, t.uid, (1,)))  # the MG reaches


def test_bullets_cannot_affect_defense_two_or_more(game):
    a = place(game, "su_rifles", "E02")
    t = place(game, "de_pz_iv_g", "E03", crew="de_tank_crew_regular")
    declare_phase(game, "soviet")
    refused(game, Declare("soviet", a.uid, t.uid, (0,)), "fires bullets", "Defense 6")


def test_indirect_fire_needs_an_observer_not_the_firers_own_los(game):
    gun = place(game, "su_m30", "J02", crew="su_artillery_crew_regular")  # rear line, indirect
    t = place(game, "de_grenadiers", "F06")
    assert line_of_sight(game.battlemap, gun.hex, t.hex).status == "blocked"
    declare_phase(game, "soviet")
    refused(game, Declare("soviet", gun.uid, t.uid, (0,)), "no friendly ground unit has LOS")
    game2 = scenario("game_empty").new_game(seed=1)
    place(game2, "de_grenadiers", "A07")
    place(game2, "su_rifles", "A08")
    gun2 = place(game2, "su_m30", "J02", crew="su_artillery_crew_regular")
    t2 = place(game2, "de_grenadiers", "F06")
    obs = place(game2, "su_sniper", "F07")  # an observer next to the target (R7.3)
    assert line_of_sight(game2.battlemap, obs.hex, t2.hex).visible
    declare_phase(game2, "soviet")
    game2.apply(Declare("soviet", gun2.uid, t2.uid, (0,)))
    atk = max(game2.attacks.values(), key=lambda x: x.number)
    assert atk.indirect


def test_spg_fires_indirectly_with_its_first_weapon_only(game):
    spg = place(game, "de_wespe", "B06", crew="de_tank_crew_regular")
    t = place(game, "su_rifles", "H07")
    place(game, "de_sniper", "H08")  # observer
    assert line_of_sight(game.battlemap, spg.hex, t.hex).status == "blocked"
    declare_phase(game)
    refused(game, Declare("german", spg.uid, t.uid, (1,)), "no LOS")
    game.apply(Declare("german", spg.uid, t.uid, (0,)))


def test_aircraft_attack_any_ground_unit_and_aa_fire_ignores_los(game):
    plane = place(game, "de_ju87g", None, crew="de_pilot_regular")  # Defense 1: rifles may hit it
    far = place(game, "su_t34_76", "J07", crew="su_tank_crew_regular")
    rifles = place(game, "su_rifles", "J01")
    smg = place(game, "su_smg", "J02")
    declare_phase(game, "soviet")
    game.apply(Declare("soviet", rifles.uid, plane.uid, (0,)))  # Mosin has an aircraft value (R7.4)
    refused(game, Declare("soviet", smg.uid, plane.uid, (0,)), "cannot affect aircraft")
    advance_to(game, Phase.DECLARATION, "german")
    game.apply(Declare("german", plane.uid, far.uid, (0,)))


def test_a_bomb_falls_once_per_flight(game):
    plane = place(game, "de_fw190f", None, crew="de_pilot_regular")
    t = place(game, "su_rifles", "J05")
    plane.bombs_used = (0,)
    declare_phase(game)
    refused(game, Declare("german", plane.uid, t.uid, (0,)), "already dropped")
    game.apply(Declare("german", plane.uid, t.uid, (1,)))


def test_infantry_may_target_a_frontline_guns_crew(game):
    pak = place(game, "de_pak40", "E04", crew="de_artillery_crew_regular")
    how = place(game, "de_lefh18", "D03", crew="de_artillery_crew_regular")  # rear line
    rifles = place(game, "su_rifles", "F04")
    tank = place(game, "su_t70", "F05", crew="su_tank_crew_regular")
    declare_phase(game, "soviet")
    refused(game, Declare("soviet", rifles.uid, how.uid, (0,), at_crew=True), "not a frontline gun")
    refused(game, Declare("soviet", tank.uid, pak.uid, (0,), at_crew=True), "only infantry")
    refused(game, Declare("soviet", rifles.uid, pak.crew, (0,)), "target the unit")
    game.apply(Declare("soviet", rifles.uid, pak.uid, (0,), at_crew=True))
    assert max(game.attacks.values(), key=lambda x: x.number).at_crew


def test_one_attack_per_unit_per_turn(game):
    a = place(game, "de_grenadiers", "C05")
    t = place(game, "su_rifles", "D05")
    declare_phase(game)
    game.apply(Declare("german", a.uid, t.uid, (0,)))
    refused(game, Declare("german", a.uid, t.uid, (1,)), "already declared")


def test_close_assault_needs_three_adjacent_infantry(game):
    tank = place(game, "de_pz_iv_g", "E04", crew="de_tank_crew_regular")
    inf = [place(game, c, h) for c, h in (("su_ptrd_team", "F04"), ("su_smg", "D04"), ("su_guards", "E05"))]
    far = place(game, "su_engineers", "G05")
    sniper = place(game, "su_sniper", "D03")  # adjacent, but no attack value against vehicles at all
    declare_phase(game, "soviet")
    cands = [c for c in game.legal_commands() if isinstance(c, DeclareCloseAssault)]
    assert cands and cands[0].target == tank.uid
    refused(game, DeclareCloseAssault("soviet", (inf[0].uid, inf[1].uid), tank.uid), "at least 3")
    refused(game, DeclareCloseAssault("soviet", (inf[0].uid, inf[1].uid, far.uid), tank.uid), "not adjacent")
    refused(
        game,
        DeclareCloseAssault("soviet", (inf[0].uid, inf[1].uid, sniper.uid), tank.uid),
        "no attack value against vehicles",
    )
    game.apply(DeclareCloseAssault("soviet", tuple(u.uid for u in inf), tank.uid))
    assert max(game.attacks.values(), key=lambda x: x.number).close_assault


def test_no_attack_effect_forbids_declaring(game):
    a = place(game, "de_grenadiers", "C05")
    t = place(game, "su_rifles", "D05")
    a.damage_card, a.damage_turns = "dmg02#1", 1  # infantry edge: Pinned, no attack for a turn
    game.damage_deck.remove("dmg02#1")
    declare_phase(game)
    refused(game, Declare("german", a.uid, t.uid, (0,)), "may not attack")
    assert legal_targets(game, "german", a.uid) == []
