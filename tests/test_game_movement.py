"""Movement (R5.3): reachable hexes and paths over terrain costs, enemy hexes, stacking, rear line,
guns, rubble and fire (R8.3, R8.4), towing (R8.1)."""

from __future__ import annotations

import math

import networkx as nx
import numpy as np
import pytest
from game_helpers import H, advance_to, clear_units, place, scenario
from hypothesis import given, settings
from hypothesis import strategies as st

from hexwar.game.commands import DropTow, IllegalCommand, Move, Tow
from hexwar.game.movement import adjacent_mask, neighbor_table, path_cost, reachable, unit_reach
from hexwar.game.state import Phase, check_invariants
from hexwar.model.hexgrid import Hex


def test_reach_costs_and_paths_on_a_worked_grid():
    # 3 x 3 map, B02 costs 3 to enter: from A02 with 2 MP (worked by hand, odd-q neighbours)
    cost = np.ones((3, 3))
    cost[1, 1] = 3.0
    r = reachable(cost, np.ones((3, 3), bool), H("A02"), 2)
    assert sorted(h.label for h in r.hexes()) == ["A01", "A02", "A03", "B01", "B03", "C01", "C02"]
    assert r.cost[H("C02")] == 2.0 and r.cost[H("A02")] == 0.0
    assert [h.label for h in r.path(H("C02"))] == ["B01", "C02"]
    assert r.path(H("A02")) == ()
    with pytest.raises(KeyError):
        r.path(H("B02"))


def test_impassable_and_blocked_hexes_are_never_entered():
    cost = np.ones((3, 4))
    cost[:, 1] = math.inf  # column B impassable
    r = reachable(cost, np.ones((3, 4), bool), H("A02"), 10)
    assert {h.label for h in r.hexes()} == {"A01", "A02", "A03"}
    passable = np.ones((3, 4), bool)
    passable[0, 0] = False
    r = reachable(np.ones((3, 4)), passable, H("A02"), 1)
    assert H("A01") not in r.cost and H("B01") in r.cost


def test_road_steps_use_the_road_cost():
    cost = np.full((1, 4), 2.0)
    road_cost = np.ones((1, 4))
    road = np.array([[True, True, True, False]])
    r = reachable(cost, np.ones((1, 4), bool), H("A01"), 4, road_cost, road)
    assert r.cost[H("B01")] == 1.0 and r.cost[H("C01")] == 2.0 and r.cost[H("D01")] == 4.0  # D01 off-road: 2
    assert path_cost(
        cost, np.ones((1, 4), bool), H("A01"), (H("B01"), H("C01"), H("D01")), road_cost, road
    ) == (4.0, None)


def test_path_cost_names_the_first_bad_step():
    cost = np.ones((3, 3))
    ok = np.ones((3, 3), bool)
    assert path_cost(cost, ok, H("A01"), (H("C03"),))[1] == "C03 is not adjacent to A01"
    ok[0, 1] = False
    assert path_cost(cost, ok, H("A01"), (H("B01"),))[1] == "B01 is blocked"


def test_adjacent_mask_marks_the_six_neighbours():
    occ = np.zeros((5, 5), bool)
    occ[2, 2] = True  # C03
    adj = adjacent_mask(occ)
    assert {Hex.from_offset(c, r).label for r, c in zip(*np.nonzero(adj), strict=True)} == {
        h.label for h in H("C03").neighbors()
    }


@settings(max_examples=40, deadline=None)
@given(
    st.integers(2, 7),
    st.integers(2, 7),
    st.lists(st.sampled_from([1.0, 2.0, 3.0, math.inf]), min_size=49, max_size=49),
    st.integers(0, 48),
    st.integers(0, 8),
)
def test_reach_equals_networkx_dijkstra(h, w, costs, start, mp):
    """The scipy path agrees with networkx's Dijkstra on random grids (cost, reach, path cost)."""
    cost = np.array(costs[: h * w]).reshape(h, w)
    s = Hex.from_offset(start % w, (start // w) % h)
    r = reachable(cost, np.ones((h, w), bool), s, mp)
    g = nx.DiGraph()
    src, dst = neighbor_table(h, w)
    for a, b in zip(src.tolist(), dst.tolist(), strict=True):
        c = float(cost.ravel()[b])
        if math.isfinite(c):
            g.add_edge(a, b, weight=c)
    si = s.offset[1] * w + s.offset[0]
    want = nx.single_source_dijkstra_path_length(g, si, cutoff=mp) if si in g else {si: 0}
    got = {hx.offset[1] * w + hx.offset[0]: c for hx, c in r.cost.items()}
    assert got == pytest.approx({k: float(v) for k, v in want.items()})
    for hx, c in r.cost.items():
        assert path_cost(cost, np.ones((h, w), bool), s, r.path(hx))[0] == pytest.approx(c)


# -- the game's movement rules ------------------------------------------------------------------
@pytest.fixture
def game():
    g = scenario("game_empty").new_game(seed=1)
    return g


def at_movement(g, side="german"):
    advance_to(g, Phase.MOVEMENT, side)
    return g


def test_move_spends_terrain_costs_and_moves_the_crew(game):
    tank = place(game, "de_pz_iv_g", "B01", crew="de_tank_crew_regular")
    at_movement(game)
    assert tank.mp_left == 5  # the card's movement points (R5.3)
    # C01 clear 1, D01 clear 1 for a tracked unit (terrain table)
    game.apply(Move("german", tank.uid, (H("C01"), H("D01"))))
    assert tank.hex == H("D01") and tank.mp_left == 3
    assert game.units[tank.crew].hex == H("D01")
    assert not check_invariants(game)


def test_moving_through_an_enemy_is_refused_and_changes_nothing(game):
    inf = place(game, "de_grenadiers", "C05")
    place(game, "su_rifles", "D05")
    at_movement(game)
    before = game.state_hash()
    rolls = len(game.dice.log)
    with pytest.raises(IllegalCommand) as exc:
        game.apply(Move("german", inf.uid, (H("D05"), H("E05"))))
    assert "D05" in exc.value.reason and "enemy" in exc.value.reason
    assert game.state_hash() == before and len(game.dice.log) == rolls and inf.hex == H("C05")
    assert all(H("D05") not in c.path for c in game.legal_commands() if isinstance(c, Move))


def test_a_fourth_unit_into_a_full_hex_is_refused(game):
    for _ in range(3):
        place(game, "de_grenadiers", "D04")
    mover = place(game, "de_sturm", "C04")
    at_movement(game)
    before = game.state_hash()
    with pytest.raises(IllegalCommand) as exc:
        game.apply(Move("german", mover.uid, (H("D04"),)))
    assert "stacking limit" in exc.value.reason and "D04" in exc.value.reason
    with pytest.raises(IllegalCommand):  # nor through it (stacking holds at every step, R5.3)
        game.apply(Move("german", mover.uid, (H("D04"), H("E04"))))
    assert game.state_hash() == before


def test_frontline_units_may_close_in_next_to_enemies(game):
    car = place(game, "de_sdkfz_251", "B06")
    place(game, "su_rifles", "D06")
    at_movement(game)
    assert H("C06") in unit_reach(game, car.uid).cost  # adjacent to D06: fine for frontline units


def test_rear_line_restriction_applies_to_rear_cards():
    g = scenario("game_small").new_game(seed=2)
    clear_units(g)
    kat = place(g, "su_katyusha", "L05", crew="su_artillery_crew_regular")  # rear line, wheeled, 6 MP
    place(g, "de_grenadiers", "J05")
    advance_to(g, Phase.MOVEMENT, "soviet")
    reach = unit_reach(g, kat.uid)
    near = set(H("J05").neighbors())
    assert reach is not None and reach.destinations() and not (set(reach.cost) & near)
    with pytest.raises(IllegalCommand) as exc:
        g.apply(Move("soviet", kat.uid, (H("K05"),)))
    assert "rear-line" in exc.value.reason


def test_spg_is_not_a_rear_line_card_for_movement(game):
    spg = place(game, "de_stug_iii_g", "B06", crew="de_tank_crew_regular")
    place(game, "su_rifles", "D06")
    at_movement(game)
    assert H("C06") in unit_reach(game, spg.uid).cost


def test_guns_do_not_move_unless_the_scenario_says_so(game):
    gun = place(game, "de_pak40", "C04", crew="de_artillery_crew_regular")
    place(game, "de_grenadiers", "A01")
    at_movement(game)
    assert unit_reach(game, gun.uid) is None
    with pytest.raises(IllegalCommand) as exc:
        game.apply(Move("german", gun.uid, (H("D04"),)))
    assert "guns move only when the scenario says so" in exc.value.reason


def test_fire_costs_one_more_and_rubble_two_more_and_bans_wheels(game):
    bm = game.battlemap
    tank = place(game, "de_pz_iv_g", "F02", crew="de_tank_crew_regular")
    bm.set_fire(H("G02"))  # wood building: tracked 3 + fire 1
    bm.set_rubble(H("G03"))  # stone building as rubble: clear 1 + 2
    at_movement(game)
    r = unit_reach(game, tank.uid)
    assert r.cost[H("G02")] == 4.0 and r.cost[H("G03")] == 3.0
    from hexwar.rules.terrain_effects import enter_cost

    assert enter_cost(bm, H("G03"), "wheeled") == math.inf


def test_tracked_unit_entering_rubble_rolls_for_immobilization(game):
    bm = game.battlemap
    bm.set_rubble(H("G03"))
    tank = place(game, "de_pz_iv_g", "F03", crew="de_tank_crew_regular")
    at_movement(game)
    n = len(game.dice.log)
    events = game.apply(Move("german", tank.uid, (H("G03"),)))
    rolls = game.dice.log[n:]
    assert len(rolls) == 1 and rolls[0].dice == "1d6"
    face = rolls[0].natural
    assert tank.immobilized == (face == 1)  # R8.3: immobilized on a 1
    assert any(e.kind == "rubble_entry_check" for e in events)


def test_tow_hooks_up_for_two_then_halves_and_drops_free(game):
    bm = game.battlemap
    bm.add_wreck(H("D03"), "su-1")
    tank = place(game, "de_pz_iv_g", "C03", crew="de_tank_crew_regular")
    at_movement(game)
    game.apply(Tow("german", tank.uid, H("D03")))
    assert tank.towing == "su-1" and not bm.wrecks_at(H("D03")) and tank.mp_left == 1.5  # (5 - 2) / 2
    with pytest.raises(IllegalCommand):
        game.apply(Move("german", tank.uid, (H("D03"), H("E03"))))  # 2 MP > 1.5
    game.apply(Move("german", tank.uid, (H("D02"),)))
    game.apply(DropTow("german", tank.uid))
    assert bm.wrecks_at(H("D02")) == ["su-1"] and tank.towing is None
    assert not check_invariants(game)
    with pytest.raises(IllegalCommand):
        game.apply(Tow("german", tank.uid, H("A01")))


def test_objective_changes_hands_when_a_ground_unit_enters():
    g = scenario("game_tiny").new_game(seed=5)
    inf = place(g, "de_grenadiers", "D05")
    advance_to(g, Phase.MOVEMENT, "german")
    assert g.objective_holders[H("E05")] is None
    g.apply(Move("german", inf.uid, (H("E05"),)))
    assert g.objective_holders[H("E05")] == "german"


def test_refusals_name_hexes_as_a_player_reads_them(game):
    # found by trying hexwar as a new user: "C05 is not adjacent to C05" for a path that
    # repeats the unit's own hex, and "Hex(q=200, r=3)" for a hex off the map
    inf = place(game, "de_grenadiers", "C05")
    at_movement(game)
    with pytest.raises(IllegalCommand) as exc:
        game.apply(Move("german", inf.uid, (H("C05"), H("C04"))))
    assert (
        "C05" in exc.value.reason and "already" in exc.value.reason and "not adjacent" not in exc.value.reason
    )
    with pytest.raises(IllegalCommand) as exc:
        game.apply(Move("german", inf.uid, (Hex(200, 3),)))
    assert exc.value.reason == "GS104 is off the map"
    assert (
        path_cost(np.ones((2, 2)), np.ones((2, 2), bool), Hex(0, 0), (Hex(-1, 0),))[1]
        == "axial (-1, 0) is off the map"
    )
