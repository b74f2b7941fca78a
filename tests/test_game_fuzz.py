"""200 seeded AI-vs-AI games (random and standard players, both sides, both rule variants) finish
without an exception, and after every command the invariants hold (tests/game_helpers.played):
each card exactly once across decks, hands, discards and the map; no hex over the stacking limit
(R5.2); Endurance within bounds (R6.5); victory points = destroyed costs + 2 x captured costs (R10).

More games on the larger test scenario and every shipped scenario run under ``-m slow``.
"""

from __future__ import annotations

import pytest
from game_helpers import MATCHUPS, SCENARIO_FILES, game_spec, played, scenario

from hexwar.game.ai import make_player
from hexwar.game.state import SIDES, check_invariants
from hexwar.paths import content_dir

N_GAMES = 200


@pytest.mark.parametrize("i", range(N_GAMES))
def test_ai_game_finishes_with_invariants_after_every_command(i):
    seed, variants, players = game_spec(i)
    state, broken = played(i)
    assert not broken, f"seed {seed}, variants {variants}, players {players}: {broken[:3]}"
    assert state.over and state.result is not None, f"seed {seed}: no result"
    assert state.result.winner in (None, *SIDES)
    assert state.turn <= state.scenario.turns


def test_the_fuzz_covers_both_players_on_both_sides_and_both_variants():
    specs = [game_spec(i) for i in range(N_GAMES)]
    for pair in set(MATCHUPS):
        for variants in ((), ("classic",)):
            assert sum(1 for _, v, p in specs if p == pair and v == variants) >= 20


def test_the_games_see_combat_and_both_kinds_of_result():
    reasons = {played(i)[0].result.reason for i in range(N_GAMES)}
    assert "turn limit" in reasons and ("points" in reasons or "overrun" in reasons)
    assert sum(1 for i in range(N_GAMES) if played(i)[0].kills) > N_GAMES // 2


def test_standard_beats_random_most_of_the_time():
    """The standard player wins clearly more games against the random one than it loses."""
    wins = losses = 0
    for i in range(N_GAMES):
        _, _, (pg, ps) = game_spec(i)
        if {pg, ps} != {"standard", "random"}:
            continue
        w = played(i)[0].result.winner
        std = "german" if pg == "standard" else "soviet"
        wins += w == std
        losses += w not in (std, None)
    assert wins >= 3 * losses and wins > 40, (wins, losses)


SHIPPED = sorted(p.stem for p in content_dir("scenarios").glob("*.toml"))


@pytest.mark.slow
@pytest.mark.parametrize("name", ["game_small", *SHIPPED])
@pytest.mark.parametrize("seed", range(40))
def test_more_ai_games_on_bigger_scenarios(name, seed, tmp_path):
    """Every shipped scenario and the small test one, 40 seeds each, up to 10 turns; then the
    game's save replays to the same state."""
    from hexwar.game.save import load_game, write_save
    from hexwar.game.scenario import find_scenario, load_scenario

    sc = scenario(name) if name.startswith("game_") else load_scenario(find_scenario(name))
    pairs = [("random", "random"), ("standard", "random"), ("random", "standard"), ("standard", "standard")]
    pg, ps = pairs[seed % 4]
    g = sc.new_game(seed=seed, variants=("classic",) if seed % 8 >= 4 else ())
    players = {"german": make_player(pg, "german", seed), "soviet": make_player(ps, "soviet", seed)}
    n = 0
    while not g.over and g.turn <= 10:
        g.apply(players[g.to_act].choose(g))
        n += 1
        bad = check_invariants(g)
        assert not bad, f"{name} seed {seed} {pg}/{ps} after {n}: {bad}"
    write_save(g, tmp_path / "g.json")
    assert load_game(tmp_path / "g.json", scenario_paths=SCENARIO_FILES).state_hash() == g.state_hash()
