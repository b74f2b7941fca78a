"""Computer players: the random player only plays legal commands; the standard player commits by
need, keeps out of fire, picks targets by the combat engine's exact odds and calls artillery on
clusters."""

from __future__ import annotations

import pytest
from game_helpers import H, advance_to, clear_units, place, scenario

from hexwar.errors import HexwarError
from hexwar.game.ai import RandomPlayer, StandardPlayer, make_player
from hexwar.game.commands import Commit, Declare, EndPhase, Move, TargetArtillery
from hexwar.game.state import Phase


def test_make_player_by_name():
    assert isinstance(make_player("random", "german", 1), RandomPlayer)
    assert isinstance(make_player("standard", "soviet", 1), StandardPlayer)
    with pytest.raises(HexwarError):
        make_player("clever", "german")


def test_random_player_picks_legal_commands_reproducibly():
    g = scenario("game_tiny").new_game(seed=2)
    p1, p2 = RandomPlayer(g.to_act, 9), RandomPlayer(g.to_act, 9)
    c1, c2 = p1.choose(g), p2.choose(g)
    assert c1 == c2 and c1 in g.legal_commands()
    picks = {str(RandomPlayer(g.to_act, s).choose(g)) for s in range(30)}
    assert len(picks) > 10  # it really spreads over the choices


def test_standard_commits_when_it_has_nothing_on_the_map():
    g = scenario("game_empty").new_game(seed=3)
    advance_to(g, Phase.COMMITMENT)
    side = g.to_act
    cmd = StandardPlayer(side, 1).choose(g)
    assert isinstance(cmd, Commit) and cmd.hex in g.scenario.sides[side].deploy
    assert g.check(cmd) is None


def test_standard_never_moves_into_a_burning_hex():
    g = scenario("game_empty").new_game(seed=3)
    inf = place(g, "de_grenadiers", "F02")
    place(g, "su_rifles", "J08")
    for lab in ("G02", "G03"):
        g.battlemap.set_fire(H(lab))  # two burning wood buildings next to it: good cover otherwise
    advance_to(g, Phase.MOVEMENT, "german")
    p = StandardPlayer("german", 1)
    for _ in range(5):
        if g.to_act != "german" or g.phase != Phase.MOVEMENT:
            break
        cmd = p.choose(g)
        if isinstance(cmd, EndPhase):
            break
        assert not isinstance(cmd, Move) or not any(g.battlemap.has_fire(h) for h in cmd.path[-1:])
        g.apply(cmd)
    assert not g.battlemap.has_fire(inf.hex)


def test_standard_picks_the_target_with_the_best_exact_odds():
    from hexwar.game.ai_standard import StandardPlayer as SP

    g = scenario("game_empty").new_game(seed=3)
    tank = place(g, "de_pz_iv_g", "C05", crew="de_tank_crew_regular")
    easy = place(g, "su_rifles", "E05")  # infantry in the open
    hard = place(g, "su_kv_1s", "E04", crew="su_tank_crew_veteran")  # Defense 7 heavy tank
    advance_to(g, Phase.DECLARATION, "german")
    from hexwar.game.targeting import legal_targets

    p = SP("german", 1)
    cmd = p.choose(g)
    assert isinstance(cmd, Declare) and cmd.attacker == tank.uid
    ev = {}
    for tid, _, ok in legal_targets(g, "german", tank.uid):
        ev[tid] = p._odds(g, tank, tid, False, tuple(ok[:2]), 0, False).expected_vp
    assert set(ev) == {easy.uid, hard.uid}
    assert cmd.target == max(ev, key=ev.get) and cmd.weapons == tuple(
        next(ok for t, _, ok in legal_targets(g, "german", tank.uid) if t == cmd.target)[:2]
    )


def test_standard_calls_artillery_on_the_cluster():
    from hexwar.model.los import line_of_sight

    g = scenario("game_tiny").new_game(seed=4)
    clear_units(g)
    place(g, "de_grenadiers", "B02")  # observer
    bm = g.battlemap
    seen = sorted(
        h
        for h in bm.hexes()
        if 3 <= h.distance(H("B02")) <= 5
        and line_of_sight(bm, H("B02"), h).visible
        and bm.terrain_at(h).key != "water"
        and h.offset[1] >= 1
    )
    cluster, lone = seen[0], seen[-1]
    assert cluster.distance(lone) >= 3
    for card in ("su_rifles", "su_smg", "su_guards"):
        place(g, card, cluster.label)  # three squads in one hex
    place(g, "su_sniper", lone.label)
    advance_to(g, Phase.ARTILLERY, "german")
    cmd = StandardPlayer("german", 1).choose(g)
    while not isinstance(cmd, TargetArtillery):  # it may first play a Forward Observer card
        g.apply(cmd)
        cmd = StandardPlayer("german", 1).choose(g)
    assert cmd.hex.distance(cluster) <= 1


def test_standard_beats_random_on_the_small_scenario():
    from hexwar.game.headless import play

    wins = 0
    for seed in range(4):
        for std in ("german", "soviet"):
            players = {
                s: make_player("standard" if s == std else "random", s, seed) for s in ("german", "soviet")
            }
            run = play(scenario("game_small"), players, seed=seed)
            wins += run.result.winner == std
    assert wins >= 6, wins


# -- objectives (R10.2): the standard player plays for the scenario's win conditions -------------
def _objective_game(objectives, turns):
    """``game_empty`` with ``objectives`` ((label, points, holder), ...) and a turn limit."""
    import dataclasses

    from hexwar.game.scenario import Objective

    sc = dataclasses.replace(
        scenario("game_empty"),
        turns=turns,
        objectives=tuple(Objective(H(lab), lab, pts, holder) for lab, pts, holder in objectives),
    )
    g = sc.new_game(seed=3)
    return g


def _german_moves(g, limit=12):
    p = StandardPlayer("german", 1)
    moves = []
    for _ in range(limit):
        if g.to_act != "german" or g.phase != Phase.MOVEMENT:
            break
        cmd = p.choose(g)
        if isinstance(cmd, EndPhase):
            break
        if isinstance(cmd, Move):
            moves.append(cmd)
        g.apply(cmd)
    return moves


def test_standard_takes_an_undefended_objective_it_can_reach():
    g = _objective_game([("E05", 10, "soviet")], turns=8)
    inf = place(g, "de_grenadiers", "C05")
    place(g, "su_rifles", "J01")
    advance_to(g, Phase.MOVEMENT, "german")
    _german_moves(g)
    assert inf.hex == H("E05")
    assert g.objective_holders[H("E05")] == "german"


def test_standard_enters_a_burning_objective_to_take_it():
    g = _objective_game([("G03", 10, "soviet")], turns=8)
    inf = place(g, "de_grenadiers", "E03")
    place(g, "su_rifles", "J08")
    advance_to(g, Phase.MOVEMENT, "german")
    g.battlemap.set_fire(H("G03"))  # the objective is a burning wooden building (R8.4)
    g.battlemap.set_fire(H("G02"))  # a burning building that is no objective stays out of bounds
    moves = _german_moves(g)
    # into or through the burning hex: the last ground unit to enter holds it (R10.2)
    assert any(H("G03") in m.path for m in moves if m.unit == inf.uid)
    assert g.objective_holders[H("G03")] == "german"
    assert all(H("G02") not in m.path for m in moves)


def test_standard_holds_an_objective_it_owns_when_the_turn_limit_is_near():
    g = _objective_game([("E05", 15, "german")], turns=1)  # turn 1 is the last turn
    inf = place(g, "de_grenadiers", "E05")
    place(g, "su_rifles", "I05")  # in the open, a tempting target two hexes beyond its range
    advance_to(g, Phase.MOVEMENT, "german")
    assert StandardPlayer("german", 1).posture(g).urgency == 3.0
    _german_moves(g)
    assert inf.hex == H("E05") and g.objective_holders[H("E05")] == "german"


def test_standard_does_not_trade_units_for_points_when_the_objective_decides():
    from hexwar.game.ai_standard import StandardPlayer as SP

    def play_out(turns):
        g = _objective_game([("E05", 15, "german")], turns=turns)
        place(g, "de_grenadiers", "E05")
        tank = place(g, "de_pz_iii_m", "C05", crew="de_tank_crew_green")
        place(g, "su_zis2", "I05", crew="su_artillery_crew_regular")  # an AT gun covering the east
        place(g, "su_rifles", "J05")
        advance_to(g, Phase.MOVEMENT, "german")
        p = SP("german", 1)
        posture = p.posture(g)
        exposure = p._threat_arrays(g)["exposure"]
        before = float(exposure[g.battlemap.index(tank.hex)])
        _german_moves(g)
        return posture, before, float(exposure[g.battlemap.index(tank.hex)])

    # last turn, leading by the objective's 15 points: the tank keeps out of the gun's fire
    posture, before, after = play_out(turns=1)
    assert posture.cautious and posture.lead == 15
    assert after <= before
    # the same position far from the turn limit: it closes in to fight (the difference is the objective)
    posture, before, after = play_out(turns=20)
    assert not posture.cautious and after > before


@pytest.mark.parametrize("cells", [1 << 18, 1])
def test_nearest_distance_is_the_least_hex_distance_from_any_of_the_hexes(cells, monkeypatch):
    """The standard player's pull towards objectives and enemies (issue 35, fifth session):
    one broadcast over the hexes (in passes of a few hexes when the window is large) gives
    exactly the least R2.1 distance, hex by hex, that one window a hex gave."""
    import numpy as np

    from hexwar.game import ai_standard as A
    from hexwar.model.hexgrid import Hex

    monkeypatch.setattr(A, "_NEAREST_CELLS", cells)
    rng = np.random.default_rng(3551)
    for trial in range(40):
        hexes = [
            Hex.from_offset(int(c), int(r)) for c, r in rng.integers(-3, 40, (int(rng.integers(1, 7)), 2))
        ]
        r0, c0 = (int(x) for x in rng.integers(0, 20, 2))
        r1, c1 = r0 + int(rng.integers(1, 15)), c0 + int(rng.integers(1, 15))
        got = A._nearest_distance(hexes, r0, r1, c0, c1)
        want = np.array(
            [
                [min(h.distance(Hex.from_offset(c, r)) for h in hexes) for c in range(c0, c1)]
                for r in range(r0, r1)
            ]
        )
        assert got.dtype == np.int64 and np.array_equal(got, want), (
            f"trial {trial}: {hexes} {(r0, r1, c0, c1)}"
        )
