"""The campaign screen's controller (issue 16), headless: keys to commands, hot-seat cover,
the step-by-step reveal, odds beside the cards."""

from __future__ import annotations

from hexwar.campaign.ai import make_player
from hexwar.campaign.state import new_campaign
from hexwar.ui.campaign_controller import CampaignController
from hexwar.ui.clock import ManualClock


def _vs_computer(seed: int = 1) -> tuple[CampaignController, ManualClock]:
    st, _ = new_campaign(seed)
    clock = ManualClock()
    return CampaignController(st, ai={"soviet": make_player("standard", "soviet", seed)}, clock=clock), clock


def _choose_tactics(c: CampaignController) -> None:
    """Pick as many tactic cards as the German's rank allows (W, then Q, E, R: a promoted German
    chooses 2 or more a year, R11.2), each followed by Enter until the choice is taken."""
    st = c.state
    for k in "WQER":
        c.key(k)
        c.key("ENTER")
        if st.tactics_chosen["german"] or st.phase != "choose_tactics":
            return
    raise AssertionError(f"no tactic choice taken: {c.prompt()!r}")


def test_keys_choose_tactics_place_cards_and_reveal_step_by_step():
    c, clock = _vs_computer()
    st = c.state
    assert "choose 1 tactic card" in c.prompt()
    c.key("W")  # Flank Attack (the second tactic card)
    assert c.picked_tactics == ["flank_attack"]
    assert c.key("ENTER") and st.tactics_chosen["german"]
    while c.update():  # the computer chooses
        pass
    assert st.phase == "place" and c.acting == "german"
    b, t, info = c.odds()
    assert info["models"] == ["against a best-playing opponent", "if the opponent played at random"]
    assert set(b) == set(st.hands["german"]) and set(t) == {"flank_attack"}
    c.key("1")
    c.key("Q")
    assert c.picked_battle == st.hands["german"][0] and c.picked_tactic == "flank_attack"
    c.key("Q")  # again: none
    assert c.picked_tactic is None
    assert st.slots["soviet"] is not None  # the computer placed face down while the person chose
    c.key("ENTER")  # both placed: the reveal begins
    assert len(st.history) == 1
    assert c.revealing and c.reveal_shown == 1 and c.reveal[0].kind == "tactic_revealed"
    assert not c.update()  # not yet due
    clock.advance(0.6)
    assert c.update() and c.reveal_shown == 2
    c.key("SPACE")
    assert not c.revealing and c.reveal[-1].kind in ("battle_won", "battle_stalemate")
    assert st.battle == 2


def test_an_illegal_pick_is_refused_with_the_reason():
    c, _ = _vs_computer()
    c.key("Q")
    c.key("W")  # a Corporal takes one: the second pick is ignored
    assert c.picked_tactics == ["bluff"]
    c.key("Q")  # toggled off: nothing chosen
    assert not c.confirm() and "exactly 1" in c.message


def test_hot_seat_covers_the_hand_until_the_next_player_lifts_it():
    st, _ = new_campaign(2)
    c = CampaignController(st, clock=ManualClock())
    assert c.hot_seat and c.cover and "Pass the screen to the German player" in c.prompt()
    c.key("Q")
    assert c.picked_tactics == []  # covered: keys do nothing to the hand
    c.key("SPACE")
    c.key("Q")
    c.key("ENTER")
    assert c.cover and c.hand_side == "soviet"  # the Soviet's turn: covered again
    c.key("SPACE")
    c.key("W")
    c.key("ENTER")
    assert st.phase == "place" and c.cover and c.hand_side == "german"
    c.key("SPACE")
    c.key("3")
    c.key("ENTER")
    assert c.hand_side == "soviet" and c.cover
    assert c.odds() == ({}, {}, {})  # nothing is shown under the cover
    assert not any("places " + st.cards.title(st.slots["german"]) in line for line in c.log)  # type: ignore[arg-type]


def test_help_lists_every_shortcut_and_the_cards_from_data():
    c, _ = _vs_computer()
    c.key("H")
    assert c.show_help
    text = "\n".join(c.help_lines())
    assert "Enter" in text and "Flank Attack (tactic): +3 to your armour battle score" in text
    c.key("ESCAPE")
    assert not c.show_help


def test_the_controller_plays_a_whole_war_between_computers():
    st, _ = new_campaign(4)
    c = CampaignController(
        st,
        ai={s: make_player("standard", s, 4) for s in ("german", "soviet")},
        clock=ManualClock(),
        reveal_seconds=0.0,
    )
    n = 0
    while not st.over and n < 5000:
        c.update()
        n += 1
    assert st.over and "war is over" in c.prompt()


def test_year_end_summary_hint_and_no_stale_battle_into_the_next_year():
    """Issue 30: after 1941 the screen's controller holds a year-end summary (the year card, the
    battles won, the promotions, each battle) that replaces the last battle of the year; after
    each battle ``A`` shows what the hard (equilibrium) player would have played."""
    from hexwar.campaign.events import YearWon

    c, clock = _vs_computer()
    st = c.state
    c.ai = {"soviet": make_player("easy", "soviet", 1)}
    won: list[YearWon] = []
    for _ in range(5000):  # bounded: a key the controller refuses must fail the test, not hang it
        if st.year != 1941:
            break
        if c.acting == "german":
            if st.phase == "choose_tactics":
                _choose_tactics(c)
            else:
                n = st.battle
                c.key("1")
                c.key("ENTER")
                c.key("SPACE")
                assert c.hint.startswith(f"1941/{n}: the hard player would have played ")
        else:
            if c.revealing:
                c.key("SPACE")  # the manual clock never advances: show the reveal at once
            assert c.update() or c.acting == "german" or c.revealing, "stuck"
        won += [e for e in st.log if isinstance(e, YearWon) and e not in won]
    assert len(won) == 1
    e = won[0]
    card = f"the 1941 year card goes to the {e.side.capitalize()}" if e.side else "tied"
    assert c.year_summary[0].startswith("1941 is over:") and card in c.year_summary[0]
    assert c.year_summary[1].startswith(f"battles won: German {e.german_wins}, Soviet {e.soviet_wins}")
    assert sum(1 for ln in c.year_summary if ln[:2] in {f"{k}." for k in range(1, 8)}) == 7
    promoted = [x for x in st.log if type(x).__name__ == "Promoted"]
    assert any("promoted" in ln.lower() for ln in c.year_summary) == bool(promoted)
    assert not c.show_hint and c.key("A") and c.show_hint
    # the next year's first battle clears the summary once its cards are revealed
    for _ in range(5000):
        if len(st.history) >= 8:
            break
        if c.acting == "german":
            if st.phase == "choose_tactics":
                _choose_tactics(c)
            else:
                c.key("1")
                c.key("ENTER")
        else:
            if c.revealing:
                c.key("SPACE")
            assert c.update() or c.acting == "german" or c.revealing, "stuck"
    assert len(st.history) >= 8, "the second year never got to its first battle"
    assert c.year_summary == []


def test_the_hint_names_the_mix_the_hard_player_draws_from():
    """Issue 30: ``A``'s hint is what the hard player would play, the mix
    :class:`~hexwar.campaign.ai.EquilibriumPlayer` draws from (the equilibrium mix best against
    random play, R11.2), not the linear program's first equilibrium mix; seeds printed."""
    import numpy as np

    from hexwar.campaign.ai import EquilibriumPlayer
    from hexwar.campaign.equilibrium import position

    for seed in (1, 2, 3):
        c, _ = _vs_computer(seed)
        st = c.state
        for _ in range(200):
            if st.phase == "place" and c.acting == "german":
                break
            if c.acting == "german":
                _choose_tactics(c)
            else:
                assert c.update() or c.acting == "german", f"seed {seed}: stuck"
        hard = EquilibriumPlayer("german")
        hard.plan(st)
        pos = position(st, "german")
        assert hard.last_mix is not None
        i = int(np.argmax(hard.last_mix))
        c.key("1")
        c.key("ENTER")
        want = f"{hard.last_mix[i]:.0%} {st.cards.title(pos.mine[i][0])}"
        got = c.hint.split("would have played ", 1)[1]
        assert got.startswith(want), f"seed {seed}: {got!r} does not start with {want!r}"
