"""The campaign's computer players (R11.2): strength against the random player and balance.

The full targets (500 wars against the random player, 1,000 wars of the standard player on
both sides) are slow-marked; the default run plays smaller samples with bounds the targets
imply. Decision speed is a benchmark (benchmarks/bench_campaign.py), not an assertion.
"""

from __future__ import annotations

import pytest

from hexwar.campaign.ai import StandardPlayer, make_player
from hexwar.campaign.balance import balance, balance_markdown, play_one
from hexwar.campaign.options import CampaignOptions
from hexwar.campaign.state import new_campaign


def _vs_random(n: int, seed0: int, opts: CampaignOptions) -> float:
    won = 0
    for i in range(n):
        names = (
            {"german": "standard", "soviet": "random"}
            if i % 2 == 0
            else {"german": "random", "soviet": "standard"}
        )
        w, _, _ = play_one(seed0 + i, names, opts)
        won += w is not None and names[w] == "standard"
    return won / n


def test_standard_player_beats_the_random_player_in_most_wars():
    assert _vs_random(60, 500, CampaignOptions()) >= 0.7  # the 500-war target is 80% (slow test)


@pytest.mark.slow
def test_standard_player_wins_80_percent_of_500_wars_against_the_random_player():
    p = _vs_random(500, 0, CampaignOptions())
    assert p >= 0.80, f"standard vs random: {p:.1%} of 500 wars (seeds 0..499)"


@pytest.mark.slow
def test_each_side_wins_35_to_65_percent_of_1000_wars_between_standard_players():
    r = balance(1000, seed=10_000, n_random=0)
    for side in ("german", "soviet"):
        assert 0.35 <= r.wins[side] / 1000 <= 0.65, f"{side}: {r.wins} (seeds 10000..10999)"


def test_neither_side_dominates_100_wars_between_standard_players():
    r = balance(100, seed=20_000, n_random=0)
    for side in ("german", "soviet"):
        assert 0.30 <= r.wins[side] / 100 <= 0.70, f"{side}: {r.wins} (seeds 20000..20099)"


def test_standard_player_only_issues_legal_commands_under_every_option():
    for k, opts in enumerate(
        [
            CampaignOptions(advanced=True, events=2, event_swap=True),
            CampaignOptions(campaign_cards=True, random_initiative=True),
        ]
    ):
        st, _ = new_campaign(k)
        st, _ = new_campaign(k, opts)
        ps = {s: StandardPlayer(s, k) for s in ("german", "soviet")}
        while not st.over:
            cmd = ps[st.to_act].choose(st)  # type: ignore[index]
            assert st.check(cmd) is None, cmd
            st.apply(cmd)
        assert st.campaign_used["german"] or st.campaign_used["soviet"]  # it does use campaign cards


def test_standard_player_puts_fighting_withdrawal_on_a_lost_cause():
    from tests.campaign_helpers import war

    st = war(german=("fighting_withdrawal",), soviet=("bluff",), events=["ev_halt_order"])
    p = StandardPlayer("german")
    b = p.choose(st)
    st.apply(b)
    t = p.choose(st)
    # with six battles still to come it keeps the card unless the card played is weak
    assert t.tactic is None or st.cards.battle[b.card].value <= 3  # type: ignore[attr-defined]


def test_balance_table_renders_one_row_per_option_set():
    r = balance(4, seed=1, n_random=2)
    md = balance_markdown([r])
    assert md.splitlines()[2].startswith("| basic (002) | 4 (seeds 1..4) |")
    assert sum(r.wins.values()) == 4 and sum(r.vs_random_wins.values()) == 2


def test_players_are_deterministic_for_a_seed():
    a = play_one(42, {"german": "standard", "soviet": "random"}, CampaignOptions())[:2]
    b = play_one(42, {"german": "standard", "soviet": "random"}, CampaignOptions())[:2]
    assert a == b
    with pytest.raises(ValueError):
        make_player("genius", "german")


def test_the_hexwar_balance_hook_loads_campaign_option_sets():
    from hexwar.campaign.balance import load_campaign_source
    from hexwar.errors import HexwarError

    stem, opts = load_campaign_source("advanced+events=2+event_swap")
    assert stem == "advanced+events=2+event_swap" and opts == CampaignOptions(
        advanced=True, events=2, event_swap=True
    )
    assert load_campaign_source("basic")[1] == CampaignOptions()
    with pytest.raises(HexwarError, match="unknown switch"):
        load_campaign_source("blitz")


def test_head_to_head_table_is_the_same_with_worker_processes():
    """``campaign --balance N --ai-level A,B --workers K``: each war depends only on its seed and
    levels, so the counts with two processes equal those of one (seeds 0..2 each way)."""
    from hexwar.campaign.balance import head_to_head

    one = head_to_head(("normal", "easy"), 3)
    two = head_to_head(("normal", "easy"), 3, workers=2)
    assert (one.wins, one.by_side, one.endings) == (two.wins, two.by_side, two.endings)
    assert sum(one.wins.values()) == 6
