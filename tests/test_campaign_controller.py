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
    b, t = c.odds()
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
    assert c.odds() == ({}, {})  # nothing is shown under the cover
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
