"""The hard campaign player against a random opponent (issue 30, R11.2, R12.1).

Checks by hand arithmetic: the second linear program that picks, among the maximin mixes of a
battle's game, the one best against a random opponent (it keeps the guarantee, so the
exploitability stays the equilibrium's); the tactic cards chosen against a random opponent at
the start of a year, against values of :meth:`YearGame.random_value` (itself checked against
plain recursion in tests/test_campaign_equilibrium.py); the evidence the opponent's own choice
of tactic cards gives the opponent model, and that it is not read before it is public.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from campaign_helpers import war

from hexwar.campaign.ai import EquilibriumPlayer, standard_tactics
from hexwar.campaign.cards import default_campaign_cards
from hexwar.campaign.commands import ChooseTactics
from hexwar.campaign.equilibrium import (
    YearGame,
    best_maximin,
    leader_value,
    solve_leader_game,
    solve_matrix_game,
    tactics_vs_random,
)
from hexwar.campaign.scoring import Play, resolve_battle
from hexwar.campaign.state import new_campaign

CARDS = default_campaign_cards()


def test_best_maximin_keeps_the_value_and_picks_the_best_mix_against_random():
    # rows 0 and 1 are matching pennies, row 2 a sure 0: value 0; the maximin mixes are
    # x0 = x1 = t, x2 = 1 - 2t (t in [0, 1/2]).
    a = np.array([[1.0, -1.0], [-1.0, 1.0], [0.0, 0.0]])
    v, x, _ = solve_matrix_game(a)
    assert abs(v) < 1e-12
    # gain 1.2 t + 0.5 (1 - 2t) = 0.5 + 0.2 t: t = 1/2
    got = best_maximin(a, None, v, np.array([1.0, 0.2, 0.5]))
    assert got is not None and np.allclose(got, [0.5, 0.5, 0.0], atol=1e-9)
    # gain 0.5 (1 - 2t) + 0 t: t = 0, the sure row
    got = best_maximin(a, None, v, np.array([0.0, 0.0, 0.5]))
    assert got is not None and np.allclose(got, [0.0, 0.0, 1.0], atol=1e-9)
    # a row that pays more against random but gives up the guarantee is never taken: with
    # row 3 = (-1, 1/2) the columns ask x0 >= x1 + x3 and x0 <= x1 + x3 / 2, so x3 = 0
    a4 = np.vstack([a, [-1.0, 0.5]])
    got = best_maximin(a4, None, 0.0, np.array([0.0, 0.0, 0.0, 0.9]))
    assert got is not None and (got @ a4).min() >= -1e-10 and got[3] < 1e-9
    # a value no mix guarantees: rejected (the caller keeps its first mix)
    assert best_maximin(a, None, 0.5, np.array([1.0, 1.0, 1.0])) is None


def test_best_maximin_in_a_leader_game_keeps_the_leader_value():
    rng = np.random.default_rng(30)
    for trial in range(30):
        m, n = int(rng.integers(3, 7)), int(rng.integers(2, 5))
        a = rng.integers(-2, 3, size=(m, n)).astype(float)
        classes = np.array([0, 1] + list(rng.integers(0, 2, size=m - 2)))
        v, x, _ = solve_leader_game(a, classes)
        gain = rng.random(m)
        got = best_maximin(a, classes, v, gain)
        assert got is not None, f"trial {trial}"
        assert leader_value(a, classes, got) >= v - 1e-10, f"trial {trial}"
        assert gain @ got >= gain @ x - 1e-9, f"trial {trial}"  # at least the first mix's gain


def test_tactics_chosen_against_a_random_opponent_maximise_the_value_against_it():
    """1941 with Order No. 227 and the German initiative, both at Corporal: against a Soviet
    holding no card (the proxy) the German's one card with the best year
    (YearGame.random_value) is Fighting Withdrawal, and the choice is that card."""
    ev = ("ev_order_227",)
    got = tactics_vs_random(CARDS, ev, "german", "german", 1, 1)
    assert got == ("fighting_withdrawal",)
    g = YearGame(CARDS, ev, "german")
    gh, sh = CARDS.battle_cards("german"), CARDS.battle_cards("soviet")
    vs_none = {t: g.random_value(g.key(gh, sh, (t,), (), 0), "german") for t in CARDS.tactics}
    assert max(vs_none, key=vs_none.__getitem__) == "fighting_withdrawal"
    assert standard_tactics(CARDS.tactics, 1) == ("flank_attack",)
    assert vs_none["flank_attack"] < vs_none["fighting_withdrawal"] - 0.1
    with pytest.raises(ValueError, match="unknown side"):
        tactics_vs_random(CARDS, ev, "german", "umpire", 1, 1)
    assert tactics_vs_random(CARDS, ev, "german", "soviet", 5, 1) == tuple(CARDS.tactics)


@pytest.mark.slow
def test_the_first_years_card_against_the_real_random_soviet():
    """The same year against the real random Soviet (its one card uniformly among the five):
    Fighting Withdrawal 0.873 against the standard Flank Attack's 0.675 in P(winning the year)
    with the exact best response (docs/campaign.md; values of the recursion checked against
    plain recursion in tests/test_campaign_equilibrium.py, exact to 1e-3)."""
    ev = ("ev_order_227",)
    g = YearGame(CARDS, ev, "german")
    gh, sh = CARDS.battle_cards("german"), CARDS.battle_cards("soviet")

    def p_year(t: str) -> float:
        vals = [g.random_value(g.key(gh, sh, (t,), (s,), 0), "german") for s in CARDS.tactics]
        return (sum(vals) / len(vals) + 1) / 2

    assert abs(p_year("fighting_withdrawal") - 0.873) < 1e-3
    assert abs(p_year("flank_attack") - 0.675) < 1e-3


@pytest.mark.parametrize(("soviet_set", "random_evidence"), [(("bluff",), True), (("flank_attack",), False)])
def test_the_opponents_tactic_choice_is_evidence_once_public(soviet_set, random_evidence):
    """At Corporal the standard (and the hard) player chooses Flank Attack; a random player
    any of the five cards alike. A Soviet choosing Bluff moves the log-likelihood ratio of
    "random" to "standard" by log(0.2 / 0.005); choosing Flank Attack by log(0.2 / 1)."""
    st = war(3, german=("fighting_withdrawal",), soviet=soviet_set)
    hard = EquilibriumPlayer("german", 3)
    hard._observe(st)
    lr = hard.log_like[1] - hard.log_like[2]
    want = math.log(0.2 / 0.005) if random_evidence else math.log(0.2)
    assert abs(lr - want) < 1e-12
    assert (hard.p_random > 0.9) is random_evidence
    hard._observe(st)  # once a year
    assert abs(hard.log_like[1] - hard.log_like[2] - want) < 1e-12


def test_the_opponents_choice_is_not_read_while_choosing():
    """The Soviet chose first; while the German still chooses, the Soviet's set is not public
    (R12.1): the hard player's choice and its opponent model do not depend on it."""
    picks = []
    for soviet_set in itertools.combinations(CARDS.tactics, 1):
        st, _ = new_campaign(3)
        assert st.phase == "choose_tactics"
        st.apply(ChooseTactics("soviet", soviet_set))
        hard = EquilibriumPlayer("german", 3)
        cmd = hard.choose(st)
        assert isinstance(cmd, ChooseTactics)
        picks.append(cmd.tactics)
        assert not hard.log_like.any()
    assert len(set(picks)) == 1


def _plain_best_response(ev, ini, side, hands, tacs, diff) -> float:
    """The German-view value of ``side``'s best response to an opponent playing at random (a
    uniform battle card of its hand, then none or one of its distinct held tactic cards
    uniformly; Bluff stays in the hand), by plain recursion over actual card ids: no classes,
    no coding, every own tactic option including Bluff."""
    opp = "soviet" if side == "german" else "german"
    left = len(hands["german"])
    if not left or abs(diff) > left:
        if diff == 0:
            return 1.0 if ini == "german" else -1.0  # the tied-year rule (docs/campaign.md)
        return float(np.sign(diff))
    sign = 1.0 if side == "german" else -1.0
    best = -2.0
    for b in dict.fromkeys(hands[side]):
        for t in (None, *dict.fromkeys(tacs[side])):
            opts = (None, *dict.fromkeys(tacs[opp]))
            total = 0.0
            for ob in hands[opp]:
                for ot in opts:
                    plays = {side: Play(b, t), opp: Play(ob, ot)}
                    w = resolve_battle(CARDS, plays, ev, ini).winner
                    d = diff + (1 if w == "german" else -1 if w == "soviet" else 0)
                    nh = {side: _drop(hands[side], b), opp: _drop(hands[opp], ob)}
                    nt = {
                        side: tacs[side] if t in (None, "bluff") else _drop(tacs[side], t),
                        opp: tacs[opp] if ot in (None, "bluff") else _drop(tacs[opp], ot),
                    }
                    total += _plain_best_response(ev, ini, side, nh, nt, d) / (len(hands[opp]) * len(opts))
            best = max(best, sign * total)
    return sign * best


def _drop(items: tuple[str, ...], x: str) -> tuple[str, ...]:
    i = items.index(x)
    return items[:i] + items[i + 1 :]


@pytest.mark.parametrize("side", ["german", "soviet"])
def test_random_solver_equals_plain_recursion_for_either_side(side):
    """RandomSolver (YearGame.random_value's integer-coded expectimax) against the plain
    recursion above, for both sides best-responding, three battles left of Massed Guns with
    German initiative: Bluff and Counter-Intelligence on the random side, interchangeable
    Soviet cards (Rifle and People's Militia Divisions, both 3 infantry) in hand, each
    starting difference 0 and 1."""
    ev = ("ev_massed_guns",)
    hands = {
        "german": ("de_tiger_abteilung", "de_grenadier_regiment", "de_artillerie_regiment"),
        "soviet": ("su_rifle_division", "su_militia", "su_breakthrough_artillery"),
    }
    opp = "soviet" if side == "german" else "german"
    tacs = {side: ("bluff", "flank_attack", "artillery_barrage"), opp: ("bluff", "counter_intelligence")}
    g = YearGame(CARDS, ev, "german")
    for diff in (0, 1):
        k = g.key(hands["german"], hands["soviet"], tacs["german"], tacs["soviet"], diff)
        want = _plain_best_response(ev, "german", side, hands, tacs, diff)
        assert abs(g.random_value(k, side) - want) < 1e-12, (side, diff)


def test_random_payoffs_beyond_the_budget_leave_the_opponents_tactic_cards_out_only_as_a_proxy():
    """random_payoffs at the first battle of seed 4's 1941 (Flank Attack against Preparatory
    Barrage, both sides at Corporal: the rest of
    the year's subgame_size 13,728, 6,864 without the Soviet's tactic card): within the budget
    the exact values; beyond it None, unless the proxy is asked for and the year without the
    opponent's tactic cards fits: then every cell is the German's best response against a
    random Soviet that holds no tactic card after this battle (and differs from the exact
    value somewhere: the Soviet's card matters)."""
    from hexwar.campaign.ai import RandomPlayer
    from hexwar.campaign.equilibrium import position, public_state, random_payoffs, subgame_size, year_game

    st, _ = new_campaign(4)
    ps = {s: RandomPlayer(s, 4) for s in ("german", "soviet")}
    chosen = {"german": ("flank_attack",), "soviet": ("artillery_barrage",)}
    while st.phase != "place":
        side = st.to_act
        st.apply(ChooseTactics(side, chosen[side]) if st.phase == "choose_tactics" else ps[side].choose(st))
    key0 = public_state(st)
    assert subgame_size(key0) == 13_728
    pos = position(st, "german")
    exact = random_payoffs(st, pos, 13_728)
    assert exact is not None
    assert random_payoffs(st, pos, 10_000) is None
    got = random_payoffs(st, pos, 10_000, proxy=True)
    assert got is not None and got.shape == exact.shape
    assert random_payoffs(st, pos, 6_000, proxy=True) is None  # 6,864 does not fit either
    g = year_game(st.cards, tuple(st.events_in_play), st.initiative, True)
    gh, sh, gt, stt, d = g.key(*key0[:4], key0[4])
    for i, (b, t) in enumerate(pos.mine):
        for j, (sb, s_t) in enumerate(pos.theirs):
            g_hand, g_tac = g._after(gh, gt, (g._rep[b], t))
            w = g.winner(Play(g._rep[b], t), Play(sb, s_t))
            s_hand = _drop(sh, sb)
            assert got[i, j] == g.random_value((g_hand, s_hand, g_tac, (), d + w), "german")
            s_left = stt if s_t in (None, "bluff") else _drop(stt, s_t)
            assert exact[i, j] == g.random_value((g_hand, s_hand, g_tac, s_left, d + w), "german")
    assert np.abs(got - exact).max() > 0.01


def test_random_solver_memory_is_bounded_across_year_games(monkeypatch):
    """RandomSolver.TOTAL_LIMIT: once the live solvers of the process hold more states, every
    memo is cleared before the next solve (a batch of wars meets about forty year games), and
    the values do not depend on it."""
    from hexwar.campaign.equilibrium import RandomSolver

    monkeypatch.setattr(RandomSolver, "TOTAL_LIMIT", 1000)
    gh, sh = CARDS.battle_cards("german"), CARDS.battle_cards("soviet")
    g1 = YearGame(CARDS, ("ev_massed_guns",), "german")
    g2 = YearGame(CARDS, ("ev_order_227",), "soviet")
    k1 = g1.key(gh, sh, ("flank_attack",), ("bluff",), 0)
    k2 = g2.key(gh, sh, ("artillery_barrage",), ("fighting_withdrawal",), 0)
    v1 = g1.random_value(k1, "german")
    s1 = g1._random_values["german"]
    assert len(s1.memo) > 1000
    v2 = g2.random_value(k2, "german")
    assert len(s1.memo) == 0 and len(g2._random_values["german"].memo) > 1000
    assert g1.random_value(k1, "german") == v1
    assert len(g2._random_values["german"].memo) == 0
    assert g2.random_value(k2, "german") == v2
