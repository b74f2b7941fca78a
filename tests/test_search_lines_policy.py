"""The hard player's own policy, :class:`hexwar.search.lines.HardLinesAI` (issue 31; R6.2 the
alternating Resolution, a void attack; R1.2 seeds), and the standard player it must leave as it
was (the ``normal`` level is the yardstick of issue 31's proof).

Cheap: one constructed Resolution Phase, a few seeded games of the standard player, one short
hard game at a tiny budget.
"""

from __future__ import annotations

import pytest
from lines_helpers import act, end_until, game

import hexwar.search.lines as search_lines
from hexwar.game.scenario import load_scenario
from hexwar.lines.ai import LinesAI
from hexwar.lines.commands import Declare, Resolve
from hexwar.lines.odds import declare_odds
from hexwar.lines.scenario import StartingUnit as SU
from hexwar.lines.state import Phase
from hexwar.search.lines import HardLinesAI, LinesSearchGame, LinesSearchPlayer

PZ, GREN, PIO = "de_pz_iv_h#1", "de_grenadiers#1", "de_pioniere#1"
T34, RIFLES = "su_t34_76#1", "su_rifles#1"


def _resolution(soviet_declares: bool):
    """Seed 3 (the German has the initiative, so it resolves first): a Pz IV H, Grenadiers and
    Pioniere against a T-34 and Rifles. The Pz IV H fires at the T-34 (attack 1, the costlier
    target), the Grenadiers at the Rifles (attack 2); the Rifles, when ``soviet_declares``, at
    the Pioniere (attack 3), which declare nothing."""
    st = game(
        (),
        (),
        seed=3,
        g_units=(
            SU("de_pz_iv_h", "front", "de_tank_crew_regular"),
            SU("de_grenadiers", "front"),
            SU("de_pioniere", "front"),
        ),
        s_units=(SU("su_t34_76", "front", "su_tank_crew_regular"), SU("su_rifles", "front")),
    )
    end_until(st, Phase.DECLARATION)
    decls = [Declare("german", PZ, T34, (0,)), Declare("german", GREN, RIFLES, (0, 1))]
    if soviet_declares:
        decls.append(Declare("soviet", RIFLES, PIO, (0, 1)))
    for d in sorted(decls, key=lambda d: st.order.index(d.seat)):  # initiative order
        act(st, d)
    end_until(st, Phase.RESOLUTION)
    assert st.to_act == "german", "seed 3: the German was expected to resolve first"
    return st


def test_the_hard_policy_first_destroys_the_unit_whose_attack_is_pending():
    """R6.2: an attack whose attacker is gone is void. The standard player resolves the attack on
    the costlier target first (the T-34); the hard policy the Grenadiers' attack on the Rifles,
    whose own attack on the Pioniere dies with them: its score is the chance the Rifles are
    destroyed times the victory points their attack is expected to take, plus a hundredth of
    its own expected victory points; the Pz IV H's only that hundredth."""
    st = _resolution(soviet_declares=True)
    std = LinesAI("german", 3).choose(st)
    assert isinstance(std, Resolve) and std.number == 1 and std.bonus is not None
    hard = HardLinesAI("german", 3)
    on_rifles = declare_odds(st, GREN, RIFLES, (0, 1))
    on_t34 = declare_odds(st, PZ, T34, (0,))
    rifles_attack = declare_odds(st, RIFLES, PIO, (0, 1))
    scores = hard.resolution_scores(st)
    assert scores == {
        1: 0.01 * on_t34.expected_vp,
        2: on_rifles.destroyed * rifles_attack.expected_vp + 0.01 * on_rifles.expected_vp,
    }
    assert on_rifles.destroyed > 0 and rifles_attack.expected_vp > 0
    # the Rifles cost 4: no Command card is spent for +1 on them (the standard player's rule)
    assert hard.choose(st) == Resolve("german", 2, None)
    assert hard.bonus_card(st, st.attacks[1]) == std.bonus


def test_without_a_pending_enemy_attack_the_likelier_points_come_first():
    """Nothing to pre-empt and no attacker in danger: only the hundredth of the expected victory
    points is left, so the attack expected to score more is resolved first, whatever its
    target costs (the standard player: the costlier target, the T-34)."""
    st = _resolution(soviet_declares=False)
    assert LinesAI("german", 3).choose(st).number == 1
    on_rifles = declare_odds(st, GREN, RIFLES, (0, 1))
    on_t34 = declare_odds(st, PZ, T34, (0,))
    hard = HardLinesAI("german", 3)
    assert hard.resolution_scores(st) == {1: 0.01 * on_t34.expected_vp, 2: 0.01 * on_rifles.expected_vp}
    want = 1 if on_t34.expected_vp >= on_rifles.expected_vp else 2
    assert hard.choose(st).number == want


def test_a_void_attack_is_scored_last():
    """R6.2: once the Rifles are gone, the Grenadiers' attack on them is void (-inf)."""
    st = _resolution(soviet_declares=True)
    del st.units[RIFLES]
    st.lines["soviet"]["front"].remove(RIFLES)
    scores = HardLinesAI("german", 3).resolution_scores(st)
    assert scores[2] == float("-inf") and scores[1] > 0


@pytest.mark.parametrize(("on", "own"), [(False, LinesAI), (True, HardLinesAI)])
def test_only_the_searching_side_plays_the_hard_policy_and_only_when_switched_on(monkeypatch, on, own):
    """The opponent in the rollouts is always the standard player (the ``normal`` level)."""
    monkeypatch.setattr(search_lines, "HARD_POLICY", on)
    g = LinesSearchGame(4, "soviet")
    for seat in ("soviet-front", "soviet-support", "soviet"):
        assert type(g._player(seat)) is own
    for seat in ("german-front", "german"):
        assert type(g._player(seat)) is LinesAI
    assert type(LinesSearchGame(4)._player("soviet")) is LinesAI  # no side: the standard player


@pytest.mark.parametrize(
    ("name", "seed", "commands", "digest"),
    [
        ("lines", 0, 153, "cf8a72d2334bb7e6c11b912dd1574be18ed8329837d57524dc315567bc83e76c"),
        ("lines", 7, 133, "04286036a2128c47ec03ae7f3e707c552a3e8f9e4e6274002f8055a0bc398ab1"),
        ("lines-4p", 3, 124, "44588d566253d9b3bc0c14d8ef6003ba65c2fb83254c8d14046c57590ccb381a"),
    ],
)
def test_the_standard_players_seeded_games_are_as_before(name, seed, commands, digest):
    """``normal`` is issue 31's yardstick: its seeded games end in the same state as at commit
    e8342a9 (before the hard policy; the +1 rule moved into ``LinesAI.bonus_card``)."""
    g = load_scenario(name).new_game(seed=seed)
    players = {s: LinesAI(s, seed) for s in g.seats}
    while not g.over:
        g.apply(players[g.to_act].choose(g))
    assert (len(g.commands), g.state_hash()) == (commands, digest), f"{name} seed {seed}"


def test_the_shipped_hard_player_plays_as_before():
    """The hard policy is off in the shipped player: a short seeded hard game (budget 8, to the
    end of turn 3) ends in the same state as at commit e8342a9."""
    assert search_lines.HARD_POLICY is False
    g = load_scenario("lines").new_game(seed=5)
    players = {s: LinesSearchPlayer(s, 5, 8) if s == "soviet" else LinesAI(s, 5) for s in g.seats}
    while not g.over and g.turn <= 3:
        g.apply(players[g.to_act].choose(g))
    assert (len(g.commands), g.state_hash()) == (
        72,
        "c62268667baf7df6e445efad66ca0967d50602856349dbf4aef5de4c3c9d453f",
    )


def test_the_hard_policy_gives_the_same_hard_game_for_a_seed(monkeypatch):
    """R1.2: switched on, the hard player's game is still one per seed (and it differs from the
    shipped player's somewhere, or the switch would do nothing)."""
    monkeypatch.setattr(search_lines, "HARD_POLICY", True)
    hashes = []
    for _ in range(2):
        g = load_scenario("lines").new_game(seed=5)
        players = {s: LinesSearchPlayer(s, 5, 8) if s == "soviet" else LinesAI(s, 5) for s in g.seats}
        while not g.over and g.turn <= 3:
            g.apply(players[g.to_act].choose(g))
        hashes.append(g.state_hash())
    assert hashes[0] == hashes[1]
    assert hashes[0] != "c62268667baf7df6e445efad66ca0967d50602856349dbf4aef5de4c3c9d453f"
