"""Scenario special rules of 1943 (docs/rules.md R10.5-R10.8), worked by hand on small positions.

R10.5 minefields stop ground units and immobilize vehicles on 1d6 <= 2 (engineers lift mines);
R10.6 night limits fire and observation to 2 hexes; R10.7 snow and mud cost movement points;
R10.8 river crossings let foot units enter water hexes for 4 MP.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from game_helpers import H, advance_to, place, scenario, script_dice

from hexwar.errors import ValidationError
from hexwar.game import movement as mv
from hexwar.game.commands import Move
from hexwar.game.scenario import Battlefield, load_scenario
from hexwar.game.special import CROSSING_COST, ground_mp_change
from hexwar.game.state import Phase
from hexwar.game.targeting import weapon_problem

ROOT = Path(__file__).resolve().parent.parent
SKIRMISH = (ROOT / "scenarios" / "skirmish.toml").read_text(encoding="utf-8")


def _game(**changes):
    sc = dataclasses.replace(scenario("game_empty"), **changes)
    return sc.new_game(seed=4)


def _move(g, unit, labels):
    cmd = Move(unit.side, unit.uid, tuple(H(x) for x in labels))
    assert g.check(cmd) is None, g.check(cmd)
    g.apply(cmd)


# -- R10.5 minefields -------------------------------------------------------------------------------
def test_a_tank_entering_a_minefield_on_a_2_is_immobilized_and_stops_there():
    g = _game(battlefield=Battlefield(mines=frozenset({H("D05")})))
    tank = place(g, "de_pz_iv_g", "B05", crew="de_tank_crew_regular")
    advance_to(g, Phase.MOVEMENT, "german")
    script_dice(g, 2)
    _move(g, tank, ["C05", "D05", "E05"])  # the move is cut short in the minefield
    assert tank.hex == H("D05") and tank.immobilized and tank.mp_left == 0.0
    assert g.dice.log[-1].natural == 2 and "minefield" in g.dice.log[-1].purpose


def test_a_tank_entering_a_minefield_on_a_3_gets_through_but_stops():
    g = _game(battlefield=Battlefield(mines=frozenset({H("D05")})))
    tank = place(g, "de_pz_iv_g", "B05", crew="de_tank_crew_regular")
    advance_to(g, Phase.MOVEMENT, "german")
    script_dice(g, 3)
    _move(g, tank, ["C05", "D05", "E05"])
    assert tank.hex == H("D05") and not tank.immobilized and tank.mp_left == 0.0


def test_infantry_stops_in_a_minefield_without_a_roll_and_engineers_walk_through():
    g = _game(battlefield=Battlefield(mines=frozenset({H("D05")})))
    inf = place(g, "de_grenadiers", "C05")
    pio = place(g, "de_pioniere", "C06")
    advance_to(g, Phase.MOVEMENT, "german")
    rolls = len(g.dice.log)
    _move(g, inf, ["D05", "E05"])
    assert inf.hex == H("D05") and inf.mp_left == 0.0 and len(g.dice.log) == rolls
    _move(g, pio, ["D05", "E05"])  # R10.5: pioneers lift mines and walk on
    assert pio.hex == H("E05") and len(g.dice.log) == rolls


def test_mines_may_not_lie_in_a_deploy_zone(tmp_path):
    p = tmp_path / "m.toml"
    p.write_text(
        SKIRMISH.replace("[sides.german]", '[battlefield]\nmines = ["B05"]\n\n[sides.german]', 1),
        encoding="utf-8",
    )
    with pytest.raises(ValidationError) as ei:
        load_scenario(p)
    assert any(
        pr.where == "battlefield.mines" and "B05" in pr.message and "deploy" in pr.message
        for pr in ei.value.problems
    )


# -- R10.6 night ------------------------------------------------------------------------------------
def test_at_night_a_tank_fires_at_2_hexes_but_not_at_3():
    g = _game(night=(1,))
    tank = place(g, "de_pz_iv_g", "B05", crew="de_tank_crew_regular")
    near = place(g, "su_rifles", "D05")
    far = place(g, "su_rifles", "E05")
    advance_to(g, Phase.DECLARATION, "german")
    assert g.turn == 1
    assert weapon_problem(g, tank.uid, near.uid, 0)[0] is None
    problem = weapon_problem(g, tank.uid, far.uid, 0)[0]
    assert problem is not None and "night" in problem and "R10.6" in problem


def test_by_day_the_same_shot_at_3_hexes_is_legal():
    g = _game(night=(2,))  # turn 2 is night, turn 1 is not
    tank = place(g, "de_pz_iv_g", "B05", crew="de_tank_crew_regular")
    far = place(g, "su_rifles", "E05")
    advance_to(g, Phase.DECLARATION, "german")
    assert weapon_problem(g, tank.uid, far.uid, 0)[0] is None


# -- R10.7 snow and mud -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("ground", "card", "crew", "mp"),
    [
        ("dry", "de_grenadiers", None, 4.0),
        ("snow", "de_grenadiers", None, 3.0),  # 4 - 1
        ("snow", "de_ferdinand", "de_tank_crew_regular", 2.0),  # 3 - 1
        ("mud", "de_sdkfz_222", "de_tank_crew_regular", 6.0),  # wheeled: 8 - 2
        ("mud", "de_pz_iv_g", "de_tank_crew_regular", 4.0),  # tracked: 5 - 1
    ],
)
def test_snow_and_mud_cut_movement_points(ground, card, crew, mp):
    g = _game(ground=ground)
    u = place(g, card, "C05", crew=crew)
    assert mv.movement_allowance(g, u.uid) == mp


def test_ground_never_cuts_movement_below_one_point():
    assert ground_mp_change("mud", "wheeled") == -2 and ground_mp_change("dry", "wheeled") == 0
    g = _game(ground="mud")
    u = place(g, "de_grenadiers", "C05")
    g.units[u.uid] = u
    import hexwar.game.ruleset as rs

    orig = rs.movement_points
    try:
        rs.movement_points = lambda card: 1  # a one-point unit in mud keeps its point
        assert mv.movement_allowance(g, u.uid) == 1.0
    finally:
        rs.movement_points = orig


# -- R10.8 river crossings ----------------------------------------------------------------------------
def _crossing_game():
    text = SKIRMISH.replace("[sides.german]", '[battlefield]\ncrossings = ["H15"]\n\n[sides.german]', 1)
    from hexwar.game.scenario import parse_scenario

    return parse_scenario(text, ROOT / "scenarios" / "skirmish.toml").new_game(seed=2)


def test_foot_units_enter_a_crossing_hex_for_their_whole_move_vehicles_never():
    g = _crossing_game()
    bm = g.battlemap
    foot, _ = mv.cost_arrays(g, "foot")
    tracked, _ = mv.cost_arrays(g, "tracked")
    col, row = H("H15").offset
    assert foot[row, col] == CROSSING_COST == 4.0
    assert tracked[row, col] == float("inf")
    other = H("J15")  # the stream elsewhere stays water for everyone
    assert foot[other.offset[1], other.offset[0]] == float("inf")
    assert bm.terrain_at(H("H15")).code == "~"


def test_a_squad_next_to_the_crossing_reaches_it_and_one_hex_further_away_does_not():
    g = _crossing_game()
    advance_to(g, Phase.MOVEMENT)
    side = g.to_act
    card = "de_grenadiers" if side == "german" else "su_rifles"
    open_next = [
        h
        for h in H("H15").neighbors()
        if g.battlemap.in_bounds(h) and mv.cost_arrays(g, "foot")[0][h.offset[1], h.offset[0]] == 1.0
    ]
    assert open_next, "an open hex next to the crossing"
    a = place(g, card, open_next[0].label, side=side)
    a.mp_left = mv.movement_allowance(g, a.uid)  # 4 MP
    r = mv.unit_reach(g, a.uid)
    assert r is not None and H("H15") in r.hexes() and r.cost[H("H15")] == 4.0
    # one hex further back: 1 MP to the bank, then 4 for the crossing is 5 > 4
    foot = mv.cost_arrays(g, "foot")[0]
    back = next(
        h
        for h in open_next[0].neighbors()
        if g.battlemap.in_bounds(h)
        and h.distance(H("H15")) == 2
        and foot[h.offset[1], h.offset[0]] == 1.0
        and not g.battlemap.road[h.offset[1], h.offset[0]]
    )
    b = place(g, card, back.label, side=side)
    b.mp_left = mv.movement_allowance(g, b.uid)
    rb = mv.unit_reach(g, b.uid)
    assert rb is not None and H("H15") not in rb.hexes()


def test_a_crossing_must_be_a_water_hex(tmp_path):
    p = tmp_path / "c.toml"
    p.write_text(
        SKIRMISH.replace("[sides.german]", '[battlefield]\ncrossings = ["N12"]\n\n[sides.german]', 1),
        encoding="utf-8",
    )
    with pytest.raises(ValidationError) as ei:
        load_scenario(p)
    assert any(pr.where == "battlefield.crossings[0]" and "N12" in pr.message for pr in ei.value.problems)


def test_bad_night_turns_and_ground_are_named(tmp_path):
    p = tmp_path / "n.toml"
    p.write_text(
        SKIRMISH.replace("turns = 8\n", 'turns = 8\nnight = [1, 9]\nground = "ice"\n', 1), encoding="utf-8"
    )
    with pytest.raises(ValidationError) as ei:
        load_scenario(p)
    where = {pr.where for pr in ei.value.problems}
    assert "scenario.night[1]" in where and "scenario.ground" in where
