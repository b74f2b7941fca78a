"""Exact odds before placing (R11.2): hand-worked fractions and a Monte Carlo of the engine."""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from hexwar.campaign.cards import default_campaign_cards
from hexwar.campaign.commands import PlaceBattleCard, PlaceTacticCard
from hexwar.campaign.odds import card_odds, odds_table, opponent_options, win_odds
from hexwar.campaign.scoring import Play, resolve_battle
from tests.campaign_helpers import battle, war

CARDS = default_campaign_cards()


def test_tiger_against_militia_or_breakthrough_artillery_is_one_half():
    # 7 beats 2, loses to 8: two equally likely cards
    p = win_odds(
        CARDS,
        "german",
        Play("de_tiger_abteilung"),
        ["su_militia", "su_breakthrough_artillery"],
        [None],
        (),
        "german",
    )
    assert p == Fraction(1, 2)


def test_flank_attack_makes_the_tiger_certain_unless_countered():
    opp = ["su_militia", "su_breakthrough_artillery"]
    assert (
        win_odds(CARDS, "german", Play("de_tiger_abteilung", "flank_attack"), opp, [None], (), "german") == 1
    )
    # Counter-Intelligence cancels the +3: (militia, -) win, (militia, CI) win, (art, -) 10>8 win, (art, CI) 7<8
    p = win_odds(
        CARDS,
        "german",
        Play("de_tiger_abteilung", "flank_attack"),
        opp,
        [None, "counter_intelligence"],
        (),
        "german",
    )
    assert p == Fraction(3, 4)


def test_a_draw_counts_as_a_win_only_for_the_initiative_holder():
    opp = ["su_shturmovik_regiment"]
    assert win_odds(CARDS, "german", Play("de_stug_brigade"), opp, [None], (), "german") == 1
    assert win_odds(CARDS, "german", Play("de_stug_brigade"), opp, [None], (), "soviet") == 0


def test_event_modifiers_enter_the_odds():
    # Rasputitsa: Panzer-Division 6 - 2 = 4 against Rifle 3 (win), Guards Rifle 5 (lose), Tank Corps 6 - 2 = 4 (draw, German)
    opp = ["su_rifle_division", "su_guards_rifle_division", "su_tank_corps"]
    assert win_odds(
        CARDS, "german", Play("de_panzer_division"), opp, [None], ("ev_rasputitsa",), "german"
    ) == Fraction(2, 3)
    assert win_odds(
        CARDS, "german", Play("de_panzer_division"), opp, [None], ("ev_rasputitsa",), "soviet"
    ) == Fraction(1, 3)


def test_odds_table_uses_what_the_side_cannot_rule_out():
    st = war(german=("flank_attack",), soviet=("bluff",), events=["ev_order_227"])
    battle(st, "de_tiger_abteilung", "su_militia")
    st.apply(PlaceBattleCard("soviet", "su_rifle_division"))  # the Soviet places first, face down
    opp_b, opp_t = opponent_options(st, "german")
    assert sorted(opp_b) == sorted(
        c for c in CARDS.battle_cards("soviet") if c != "su_militia"
    )  # slot card included
    assert opp_t == [None, "bluff"]
    table = odds_table(st, "german")
    assert set(table) == set(st.hands["german"]) and set(table["de_panzer_division"]) == {
        None,
        "flank_attack",
    }
    # Panzer 6 against 6 cards x {none, Bluff}; Order 227 gives Soviet infantry +1: Rifle 4, Guards 6,
    # Heavy 5, Tank 6, Shturmovik 5, Artillery 8: 6 beats 4, 5, 5 and wins the draws with 6, 6 (initiative)
    assert table["de_panzer_division"][None] == Fraction(5, 6)
    assert table["de_panzer_division"]["flank_attack"] == 1  # 6 + 3 = 9 beats even the 8
    st.apply(PlaceTacticCard("soviet", None))
    st.apply(PlaceBattleCard("german", "de_gebirgsjaeger"))
    b, t = card_odds(st, "german")
    assert set(b) == {"de_gebirgsjaeger"}  # placed: only its row
    # Gebirgsjaeger 3 beats only Rifle 4? no: 3 < 4; nothing but a draw... every Soviet card scores >= 4
    assert b["de_gebirgsjaeger"] == 0 and t["flank_attack"] == 0


def test_exact_odds_agree_with_a_monte_carlo_of_the_engine():
    rng = np.random.default_rng(2024)
    st = war(german=("flank_attack",), soviet=("counter_intelligence",), events=["ev_rasputitsa"])
    table = odds_table(st, "german")
    opp_b, opp_t = opponent_options(st, "german")
    n = 4000
    for b, t in [
        ("de_panzer_division", "flank_attack"),
        ("de_stug_brigade", None),
        ("de_grenadier_regiment", None),
    ]:
        ib = rng.integers(0, len(opp_b), n)
        it = rng.integers(0, len(opp_t), n)
        wins = sum(
            resolve_battle(
                CARDS,
                {"german": Play(b, t), "soviet": Play(opp_b[i], opp_t[j])},
                tuple(st.events_in_play),
                st.initiative,
            ).winner
            == "german"
            for i, j in zip(ib, it, strict=True)
        )
        p = float(table[b][t])
        sigma = (p * (1 - p) / n) ** 0.5
        assert abs(wins / n - p) <= 4 * sigma + 1e-9, f"{b}+{t}: MC {wins / n} vs exact {p} (seed 2024)"
