"""The hard hex player (issue 31): samples with the side's view (R12.1), the evaluation's
objective terms (R10.2) by hand, seeds (R1.2), levels by name. Tiny budgets: the strength
figures are in docs/scenarios.md (``hexwar balance --head-to-head``), never asserted here. The
fog test (decisions unchanged when every hidden enemy unit is replaced) is in tests/test_fog.py.
"""

from __future__ import annotations

import numpy as np
import pytest

from hexwar.errors import HexwarError
from hexwar.game.ai import StandardPlayer, make_player
from hexwar.game.scenario import find_scenario, load_scenario
from hexwar.game.view import ViewPlayer, view
from hexwar.search.hexgame import EasyHexPlayer, HexSearchPlayer, determinize_hex, hex_evaluation


@pytest.mark.parametrize("variants", [(), ("fog",)])
def test_every_sample_shows_the_side_the_same_view_and_plays_on(variants):
    """EXAMPLES 2 (open_spiel's assertion): each determinized game gives ``view(side)`` equal to
    the real one's, deals real cards into the unseen hand and decks, and can be played on."""
    g = load_scenario(find_scenario("kharkov")).new_game(9, variants=variants)
    players = {s: ViewPlayer(make_player("standard", s, 1)) for s in ("german", "soviet")}
    rng = np.random.default_rng(0)
    checked = 0
    while not g.over and len(g.commands) < 90:
        side = g.to_act
        if len(g.commands) % 9 == 0:
            w = determinize_hex(g, side, rng)
            assert view(w, side).data == view(g, side).data, f"{variants} seed 9, command {len(g.commands)}"
            enemy = "soviet" if side == "german" else "german"
            assert len(w.hand_units[enemy]) == len(g.hand_units[enemy])
            assert not any(c.startswith("hidden") for c in w.command_deck + w.reserves[enemy])
            if checked % 4 == 0:  # the sample is a game: the standard players go on in it
                ps = {s: StandardPlayer(s, 2) for s in ("german", "soviet")}
                for _ in range(15):
                    if w.over:
                        break
                    w.apply(ps[w.to_act].choose(w))
            checked += 1
        g.apply(players[side].choose(g))
    assert checked >= 10


def test_objective_points_weigh_more_as_the_turn_limit_nears():
    """R10.2: moving one objective (kharkov: 10 points, turn limit 10) from the Soviets to the
    Germans changes the German evaluation by 2 x 10 x urgency: 20 on turn 1 (urgency 1), and
    2 x 10 x (1 + 2/3) = 33.33 on turn 8 (3 turns left)."""
    g = load_scenario(find_scenario("kharkov")).new_game(1)
    obj = next(o for o in g.scenario.objectives if o.points == 10)
    for turn, want in ((1, 20.0), (8, 20.0 * (1 + 2 / 3))):
        g.turn = turn
        g.objective_holders[obj.hex] = "soviet"
        before = hex_evaluation(g, "german")
        g.objective_holders[obj.hex] = "german"
        after = hex_evaluation(g, "german")
        assert after - before == pytest.approx(want)
        assert hex_evaluation(g, "soviet") == pytest.approx(-after)  # zero-sum


def test_a_hold_victory_pulls_its_side_to_hold_every_objective():
    """R10.2 (Sinyavino: the Soviets win by holding all 3 objectives at the end of turn 8): with
    every objective Soviet, against 2 of 3, on turn 2 the hold term adds 20 x (1 - 4/9) = 11.11
    on top of the objective points (10 or 15, urgency 1)."""
    g = load_scenario(find_scenario("sinyavino")).new_game(1)
    objs = g.scenario.objectives
    g.turn = 2
    for o in objs:
        g.objective_holders[o.hex] = "soviet"
    full = hex_evaluation(g, "soviet")
    g.objective_holders[objs[0].hex] = None
    two = hex_evaluation(g, "soviet")
    assert full - two == pytest.approx(objs[0].points + 20.0 * (1 - 4 / 9))


def test_the_hard_player_is_deterministic_for_a_seed_and_legal():
    sc = load_scenario(find_scenario("standard"))
    runs = []
    for _ in range(2):
        g = sc.new_game(4)
        p = {"german": HexSearchPlayer("german", 4, iterations=4), "soviet": StandardPlayer("soviet", 4)}
        while not g.over and g.turn <= 2:
            c = p[g.to_act].choose(g)
            assert g.check(c) is None
            g.apply(c)
        runs.append(g.state_hash())
    assert runs[0] == runs[1]


def test_levels_by_name():
    assert isinstance(make_player("hard", "german", 1), HexSearchPlayer)
    assert isinstance(make_player("easy", "soviet", 1), EasyHexPlayer)
    assert isinstance(make_player("normal", "soviet", 1), StandardPlayer)
    with pytest.raises(HexwarError, match="unknown computer player"):
        make_player("expert", "german")
    with pytest.raises(HexwarError, match="iterations"):
        HexSearchPlayer("german", 0, -1)
