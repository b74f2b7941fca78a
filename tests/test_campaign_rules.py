"""The Eastern Front campaign's rules (002, R11.2), hand-worked, through the engine's commands."""

from __future__ import annotations

import dataclasses
from collections import Counter

import numpy as np
import pytest

from hexwar.campaign.cards import default_campaign_cards
from hexwar.campaign.commands import (
    ChooseTactics,
    DeclareCampaignCard,
    IllegalCommand,
    KeepEvents,
    PassCampaignCard,
    PlaceBattleCard,
    PlaceTacticCard,
    SwapEvent,
)
from hexwar.campaign.events import BattleWon, InitiativeDrawn, Promoted, RandomDraw, YearBegins, YearWon
from hexwar.campaign.options import CampaignOptions
from hexwar.campaign.scoring import Play, resolve_battle
from hexwar.campaign.state import new_campaign
from tests.campaign_helpers import battle, war

CARDS = default_campaign_cards()


def test_setup_deals_seven_battle_cards_a_corporal_tactic_and_reveals_one_event():
    # 002 Rules .1: 7 battle cards each, 1 tactic card (Corporal), the top event revealed, 1941 in play
    st, events = new_campaign(3)
    assert [len(st.hands[s]) for s in ("german", "soviet")] == [7, 7]
    assert st.year == 1941 and st.phase == "choose_tactics"
    assert st.tactic_allowance("german") == 1 and st.tactic_allowance("soviet") == 1
    assert len(st.events_in_play) == 1 and len(st.event_pile) == 9
    assert isinstance(events[0], RandomDraw) and events[0].purpose == "event pile"
    assert st.years_aside == [1942, 1943, 1944, 1945]
    with pytest.raises(IllegalCommand, match="exactly 1"):
        st.apply(ChooseTactics("german", ("bluff", "flank_attack")))


def test_a_drawn_battle_goes_to_the_initiative_holder():
    # Sturmgeschuetz-Brigade 5 vs Shturmovik Regiment 5; Order No. 227 touches only Soviet infantry
    st = war(events=["ev_order_227"])
    assert st.initiative == "german"  # 1941 (002 Rules .1)
    out = battle(st, "de_stug_brigade", "su_shturmovik_regiment")
    won = [e for e in out if isinstance(e, BattleWon)]
    assert won == [BattleWon("german", 1941, 1, "draw: initiative", 5, 5)]
    assert st.piles["german"] == [["de_stug_brigade", "su_shturmovik_regiment"]]
    plays = {"german": Play("de_stug_brigade"), "soviet": Play("su_shturmovik_regiment")}
    assert resolve_battle(CARDS, plays, ("ev_order_227",), "soviet").winner == "soviet"  # 1944-45 holder


def test_a_wins_draws_card_beats_the_initiative_on_a_draw():
    # Stavka Reserve: +1 and wins draws; Tiger 7 vs Guards Rifle 5 +1 = 6 ... make it a draw with Panzer 6
    plays = {"german": Play("de_panzer_division"), "soviet": Play("su_guards_rifle_division")}
    oc = resolve_battle(CARDS, plays, (), "german", ("soviet", "su_stavka_reserve"))
    assert oc.scores == {"german": 6, "soviet": 6}
    assert oc.winner == "soviet" and oc.reason == "draw: Stavka Reserve"


def test_score_is_card_then_event_then_tactic_then_campaign():
    # Panzer-Division 6, Rasputitsa -2 (armour), Flank Attack +3 (armour) = 7;
    # Rifle Division 3, Blitzkrieg is German so it adds to the German: 7 + 3 = 10
    plays = {"german": Play("de_panzer_division", "flank_attack"), "soviet": Play("su_rifle_division")}
    oc = resolve_battle(CARDS, plays, ("ev_rasputitsa",), "german", ("german", "de_blitzkrieg"))
    assert oc.steps["german"] == (
        ("Panzer-Division", 6),
        ("Rasputitsa", -2),
        ("Flank Attack", 3),
        ("Blitzkrieg", 3),
    )
    assert oc.scores == {"german": 10, "soviet": 3}


def test_counter_intelligence_cancels_the_tactic_but_not_the_campaign_card():
    plays = {
        "german": Play("de_panzer_division", "flank_attack"),
        "soviet": Play("su_tank_corps", "counter_intelligence"),
    }
    oc = resolve_battle(CARDS, plays, (), "soviet", ("german", "de_blitzkrieg"))
    assert oc.cancelled == frozenset({"german"})
    assert oc.scores == {"german": 9, "soviet": 6}  # 6 + Blitzkrieg 3 (cannot be countered), no Flank Attack
    both = {
        "german": Play("de_panzer_division", "counter_intelligence"),
        "soviet": Play("su_tank_corps", "counter_intelligence"),
    }
    assert resolve_battle(CARDS, both, (), "german").cancelled == frozenset({"german", "soviet"})


def test_two_wins_in_a_year_promote_one_rank_and_only_one():
    # Fuehrer's Halt Order: German armour -1. German wins battles 1, 2, 3 (draw, initiative) and 4.
    st = war(german=("flank_attack",), soviet=("bluff",), events=["ev_halt_order"])
    promos: list[Promoted] = []
    for g, s, gt in [
        ("de_tiger_abteilung", "su_militia", None),  # 6 vs 3
        ("de_panzer_division", "su_rifle_division", None),  # 5 vs 3 -> promoted
        ("de_stuka_geschwader", "su_guards_rifle_division", None),  # 5 vs 5, initiative
        ("de_stug_brigade", "su_heavy_tank_regiment", "flank_attack"),  # 4 + 3 = 7 vs 5
        ("de_artillerie_regiment", "su_shturmovik_regiment", None),  # 4 vs 5
        ("de_grenadier_regiment", "su_tank_corps", None),  # 4 vs 6
        ("de_gebirgsjaeger", "su_breakthrough_artillery", None),
    ]:  # 3 vs 8
        promos += [e for e in battle(st, g, s, gt) if isinstance(e, Promoted)]
    assert st.year == 1942
    assert [e for e in st.log if isinstance(e, YearWon)] == [YearWon(1941, "german", 4, 3)]
    assert promos[0] == Promoted("german", 2)  # after the second win, not the fourth
    assert [p for p in promos if p.side == "german"] == [Promoted("german", 2)]
    assert st.ranks == {"german": 2, "soviet": 2}  # the Soviets won 3: promoted once too
    assert st.tactic_allowance("german") == 2  # Sergeant chooses 2 tactic cards in 1942
    assert st.year_cards == {"german": [1941], "soviet": []}


def test_bluff_returns_to_the_hand_after_use_and_other_tactics_are_discarded():
    st = war(german=("bluff",), soviet=("flank_attack",), events=["ev_order_227"])
    battle(st, "de_tiger_abteilung", "su_tank_corps", "bluff", "flank_attack")
    assert st.tactics_hand["german"] == ["bluff"] and st.tactics_discard["german"] == []
    assert st.tactics_hand["soviet"] == [] and st.tactics_discard["soviet"] == ["flank_attack"]
    st.apply(PlaceBattleCard("german", "de_panzer_division"))
    st.apply(PlaceTacticCard("german", "bluff"))  # Bluff again, the next battle
    st.apply(PlaceBattleCard("soviet", "su_militia"))
    with pytest.raises(IllegalCommand, match="discarded until next year"):
        st.apply(PlaceTacticCard("soviet", "flank_attack"))


def test_only_one_tactic_card_per_battle():
    st = war(german=("bluff",), soviet=("flank_attack",))
    st.apply(PlaceTacticCard("german", None))
    with pytest.raises(IllegalCommand, match="only one tactic card"):
        st.apply(PlaceTacticCard("german", "bluff"))


def test_a_campaign_card_cannot_be_used_twice_in_a_war():
    st = war(campaign_cards=True, events=["ev_order_227"])
    assert st.phase == "campaign" and st.pending() == ["german"]  # the initiative holder is asked first
    st.apply(DeclareCampaignCard("german", "de_blitzkrieg"))
    assert st.phase == "place"  # the first to declare takes the battle: the Soviet is not asked
    battle(st, "de_gebirgsjaeger", "su_guards_rifle_division")  # 3 + 3 = 6 vs 5 + 1
    assert st.campaign_used["german"] == ["de_blitzkrieg"]
    assert st.phase == "campaign"
    assert (
        st.check(DeclareCampaignCard("german", "de_blitzkrieg"))
        == "de_blitzkrieg was already used in this war (once per war)"
    )
    st.apply(PassCampaignCard("german"))
    assert st.pending() == ["soviet"]  # German passed: the Soviet may declare
    st.apply(DeclareCampaignCard("soviet", "su_uranus"))
    assert st.check(DeclareCampaignCard("german", "de_luftflotte")) is not None


def _tied_1941(cards=None):
    """German 3 wins, Soviet 3 wins, battle 7 a stalemate by Fighting Withdrawal (1941: German
    initiative)."""
    st = war(german=("fighting_withdrawal",), soviet=("bluff",), events=["ev_halt_order"])
    if cards is not None:
        st.cards = cards
    for g, s, gt in [
        ("de_tiger_abteilung", "su_militia", None),
        ("de_panzer_division", "su_rifle_division", None),
        ("de_stug_brigade", "su_guards_rifle_division", None),  # 4 vs 5
        ("de_stuka_geschwader", "su_heavy_tank_regiment", None),  # 5 vs 5: initiative
        ("de_artillerie_regiment", "su_shturmovik_regiment", None),
        ("de_grenadier_regiment", "su_tank_corps", None),
        ("de_gebirgsjaeger", "su_breakthrough_artillery", "fighting_withdrawal"),
    ]:
        battle(st, g, s, gt)
    assert st.history[-1].winner is None and st.history[-1].reason == "stalemate"
    assert st.year == 1942 and sorted(st.hands["german"]) == sorted(CARDS.battle_cards("german"))
    return st


def test_a_tied_year_goes_to_the_initiative_holder():
    """hexwar's tiebreak (rules.toml ``tied_year = "initiative"``, docs/campaign.md): a year tied
    3-3 by a stalemate gives its card to the initiative holder, the German in 1941."""
    assert CARDS.rules.tied_year == "initiative"
    st = _tied_1941()
    assert st.initiative == "german" or st.year == 1942
    assert [e for e in st.log if isinstance(e, YearWon)] == [YearWon(1941, "german", 3, 3)]
    assert st.year_cards == {"german": [1941], "soviet": []} and st.years_unclaimed == []


def test_a_tied_year_gives_no_year_card_under_002s_rule():
    """002 as written (``tied_year = "nobody"``): the tied year's card stays unclaimed."""
    cards = dataclasses.replace(CARDS, rules=dataclasses.replace(CARDS.rules, tied_year="nobody"))
    st = _tied_1941(cards)
    assert [e for e in st.log if isinstance(e, YearWon)] == [YearWon(1941, None, 3, 3)]
    assert st.year_cards == {"german": [], "soviet": []} and st.years_unclaimed == [1941]


def test_1943_initiative_goes_to_the_higher_drawn_year():
    from hexwar.campaign.ai import RandomPlayer

    german_holds = 0
    for seed in range(120):
        st, _ = new_campaign(seed)
        ps = {s: RandomPlayer(s, seed) for s in ("german", "soviet")}
        while not st.over and st.year < 1944:
            st.apply(ps[st.to_act].choose(st))  # type: ignore[index]
        draws = [e for e in st.log if isinstance(e, InitiativeDrawn)]
        begins = {e.year: e.initiative for e in st.log if isinstance(e, YearBegins)}
        assert [d.year for d in draws] == [1943]
        d = draws[0]
        assert d.german != d.soviet and 1941 <= min(d.german, d.soviet) and max(d.german, d.soviet) <= 1945
        assert d.holder == ("german" if d.german > d.soviet else "soviet") == begins[1943]
        assert begins[1941] == begins[1942] == "german"
        assert begins.get(1944, "soviet") == "soviet"
        german_holds += d.holder == "german"
    # two different cards of five: each side draws the higher one with probability exactly 1/2
    assert abs(german_holds / 120 - 0.5) < 4 * (0.25 / 120) ** 0.5


def test_random_initiative_draws_every_year():
    st, out = new_campaign(9, CampaignOptions(random_initiative=True))
    d = [e for e in out if isinstance(e, InitiativeDrawn)]
    assert [x.year for x in d] == [1941] and st.initiative == d[0].holder


def test_the_event_swap_puts_the_old_card_at_the_bottom():
    st = war(event_swap=True, events=["ev_order_227"])
    top = st.event_pile[0]
    battle(st, "de_tiger_abteilung", "su_militia")
    assert st.phase == "swap" and st.pending() == ["german"]  # the battle's winner decides
    assert (
        st.check(SwapEvent("soviet", "ev_order_227"))
        == "only the winner of the battle may swap an event card"
    )
    st.apply(SwapEvent("german", "ev_order_227"))
    assert st.event_pile[-1] == "ev_order_227" and st.events_in_play == [top]
    assert st.phase == "place" and st.battle == 2
    battle(st, "de_panzer_division", "su_rifle_division")
    st.apply(KeepEvents("german"))
    assert st.events_in_play == [top]


def test_two_event_cards_a_year_and_the_advanced_reshuffle():
    st, _ = new_campaign(4, CampaignOptions(events=2))
    assert len(st.events_in_play) == 2 and len(st.event_pile) == 8
    from hexwar.campaign.ai import RandomPlayer

    ps = {s: RandomPlayer(s, 4) for s in ("german", "soviet")}
    while st.year == 1941:
        st.apply(ps[st.to_act].choose(st))  # type: ignore[index]
    # all ten reshuffled at the end of the year, two revealed for 1942
    assert len(st.events_in_play) == 2 and len(st.event_pile) == 8 and st.events_discard == []


def test_basic_rules_discard_the_year_event_and_draw_the_next():
    st, _ = new_campaign(4)
    first, nxt = st.events_in_play[0], st.event_pile[0]
    from hexwar.campaign.ai import RandomPlayer

    ps = {s: RandomPlayer(s, 4) for s in ("german", "soviet")}
    while st.year == 1941:
        st.apply(ps[st.to_act].choose(st))  # type: ignore[index]
    assert st.events_discard == [first] and st.events_in_play == [nxt]


def test_advanced_rules_give_all_five_tactic_cards_and_the_campaign_cards():
    st, _ = new_campaign(2, CampaignOptions(advanced=True))
    assert st.ranks == {"german": 5, "soviet": 5}
    assert st.phase == "campaign"  # nothing to choose: every tactic card in hand; campaign window open
    assert st.tactics_hand["german"] == list(CARDS.tactics)


def test_an_illegal_command_changes_nothing():
    st = war()
    before = st.state_hash()
    with pytest.raises(IllegalCommand):
        st.apply(PlaceBattleCard("german", "su_tank_corps"))
    with pytest.raises(IllegalCommand):
        st.apply(SwapEvent("german", "ev_rasputitsa"))
    assert st.state_hash() == before


def _random_war(seed: int, opts: CampaignOptions, every_command: bool = True) -> tuple[object, list[str]]:
    """A war of random players; invariants checked after every command, or (to keep the
    default run fast) after every command that ends a battle."""
    from hexwar.campaign.ai import RandomPlayer

    st, _ = new_campaign(seed, opts)
    ps = {s: RandomPlayer(s, seed) for s in ("german", "soviet")}
    problems: list[str] = []
    while not st.over:
        n = len(st.history)
        st.apply(ps[st.to_act].choose(st))  # type: ignore[index]
        if every_command or len(st.history) != n or st.over:
            problems += st.check_invariants()
        if problems:
            break
    return st, problems


OPTION_SETS = [
    CampaignOptions(),
    CampaignOptions(campaign_cards=True),
    CampaignOptions(advanced=True, events=2, event_swap=True),
    CampaignOptions(random_initiative=True, event_swap=True),
    CampaignOptions(events=2, field_marshals=True),
]


def test_invariants_hold_over_1000_random_wars():
    # every card in exactly one place, ranks Corporal..Field Marshal, 7 battles a year, <= 1945
    years_played: Counter[int] = Counter()
    for seed in range(1000):
        opts = OPTION_SETS[seed % len(OPTION_SETS)]
        st, problems = _random_war(seed, opts, every_command=seed % 10 == 0)
        assert not problems, f"seed {seed}, {opts.names()}: {problems}"
        assert st.over  # type: ignore[attr-defined]
        per_year = Counter(h.year for h in st.history)  # type: ignore[attr-defined]
        assert set(per_year.values()) == {7}, f"seed {seed}: {per_year}"
        assert max(per_year) <= 1945 and min(per_year) == 1941
        w = st.winner  # type: ignore[attr-defined]
        yc = st.year_cards  # type: ignore[attr-defined]
        if w is not None:
            assert len(yc[w]) >= 3 or max(per_year) == 1945
        years_played[len(per_year)] += 1
    assert min(years_played) >= 3  # nobody can have 3 year cards before the end of 1943


def test_same_seed_and_commands_give_the_same_log_byte_for_byte():
    from hexwar.campaign.events import log_lines

    a, _ = _random_war(77, OPTION_SETS[2])
    b, _ = _random_war(77, OPTION_SETS[2])
    assert log_lines(a.log) == log_lines(b.log)  # type: ignore[attr-defined]
    assert a.state_hash() == b.state_hash()  # type: ignore[attr-defined]


def test_random_draws_come_only_from_the_wars_generator():
    st, out = new_campaign(11)
    rng = np.random.default_rng(11)
    assert [x for x in out if isinstance(x, RandomDraw)][0].result == tuple(
        int(i) for i in rng.permutation(10)
    )


def test_the_campaign_engine_never_imports_pyglet():
    import subprocess
    import sys

    code = (
        "import sys; import hexwar.campaign.state, hexwar.campaign.ai, hexwar.campaign.odds, "
        "hexwar.campaign.save, hexwar.campaign.headless, hexwar.campaign.battles, hexwar.cli.campaign; "
        "assert 'pyglet' not in sys.modules, 'pyglet imported'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_a_face_down_battle_card_cannot_be_told_from_the_opponents_view_of_its_hand():
    # R12.1: the opponent's hand is public, so it is shown WITH the face-down card (a net2 finding:
    # the hand without it told which card lay there)
    import copy

    from campaign_helpers import war

    from hexwar.campaign.commands import PlaceBattleCard

    base = war(seed=4)
    first = base.pending()[0] if isinstance(base.pending(), list) else base.to_act
    other = "soviet" if first == "german" else "german"
    hand = list(base.hands[first])
    assert len(set(hand)) >= 2, hand
    views = []
    for card in sorted(set(hand))[:2]:
        st = copy.deepcopy(base)
        st.apply(PlaceBattleCard(first, card))
        v = st.view(other)
        assert v["slots"][first] == "face down"
        assert v["hands"][first] == sorted(hand)
        assert (
            st.view(first)["hands"][first] == st.hands[first]
            and card not in st.hands[first]
            or hand.count(card) > 1
        )
        views.append({k: v[k] for k in ("hands", "slots", "tactics_hand")})
    assert views[0] == views[1]


def _endings(n: int, tied_year: str | None, level: str = "normal") -> Counter:
    """How ``n`` seeded basic wars between two ``level`` players end under ``tied_year``
    (``None``: the shipped rules.toml)."""
    from hexwar.campaign.ai import make_player
    from hexwar.campaign.balance import ending_of

    cards = (
        CARDS
        if tied_year is None
        else dataclasses.replace(CARDS, rules=dataclasses.replace(CARDS.rules, tied_year=tied_year))
    )
    out: Counter = Counter()
    for seed in range(n):
        st, _ = new_campaign(seed)
        st.cards = cards
        ps = {s: make_player(level, s, seed) for s in ("german", "soviet")}
        while not st.over:
            st.apply(ps[st.to_act].choose(st))  # type: ignore[index]
        out[ending_of(st.result_reason, st.winner)] += 1
    return out


@pytest.mark.parametrize(
    "n, level",
    [
        pytest.param(30, "easy"),  # random players: cheap, and they tie many years
        pytest.param(200, "normal", marks=pytest.mark.slow),
        pytest.param(20, "hard", marks=pytest.mark.slow),  # the default computer player
    ],
)
def test_wars_end_by_first_to_three_years_under_the_tiebreak(n, level):
    """Issue 30: at least 85% of basic wars end by 002's "first to win 3 years". With hexwar's
    tiebreak every year's card is claimed, so five years always give someone three (100%); with
    002's unclaimed tied years the same seeded wars between standard players end that way
    far less often (measured 64.5% of 200 wars, docs/campaign.md), so the check can fail."""
    # seeds 0..n-1; a failure prints the endings
    ours = _endings(n, None, level)  # the shipped rules
    theirs = _endings(n, "nobody", level)
    share = ours["first to 3 years"] / n
    print(
        f"{level} vs {level}, first to 3 years: tiebreak {ours['first to 3 years']}/{n}, 002's rule {theirs['first to 3 years']}/{n}"
    )
    assert share >= 0.85, (share, dict(ours))
    if level != "hard":  # the equilibrium player ties few years even under 002's rule
        assert theirs["first to 3 years"] / n < 0.85, dict(theirs)
