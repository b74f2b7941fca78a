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
