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
        next(ok for t, _, ok in legal_targets(g, "german", tank.uid) if t == cmd.target)[:2])


def test_standard_calls_artillery_on_the_cluster():
    from hexwar.model.los import line_of_sight

    g = scenario("game_tiny").new_game(seed=4)
    clear_units(g)
    place(g, "de_grenadiers", "B02")  # observer
    bm = g.battlemap
    seen = sorted(h for h in bm.hexes() if 3 <= h.distance(H("B02")) <= 5 and line_of_sight(bm, H("B02"), h).visible
                  and bm.terrain_at(h).key != "water" and h.offset[1] >= 1)
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
            players = {s: make_player("standard" if s == std else "random", s, seed) for s in ("german", "soviet")}
            run = play(scenario("game_small"), players, seed=seed)
            wins += run.result.winner == std
    assert wins >= 6, wins
