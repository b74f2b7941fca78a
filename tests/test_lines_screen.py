"""The card-table screen (headless): built on the widget toolkit's Painter, hands hidden from
the other seats, Damage cards with the effect for the unit's type, arrows, odds, bonus, log,
help; ``hexwar render lines --screen play`` writes a PNG."""

from __future__ import annotations

import pytest
from lines_helpers import end_until, game

from hexwar.cli import main
from hexwar.lines.rules import card, cards
from hexwar.lines.scenario import StartingUnit as SU
from hexwar.lines.state import Phase
from hexwar.lines.table import TableController
from hexwar.render.mesh import TexMesh
from hexwar.ui.lines_screen import paint_table
from hexwar.ui.widgets import MonoMeasure, Painter, top_hit


class FakeAtlas(MonoMeasure):
    """Measures like MonoMeasure and draws nothing (the painter's GL-free contract)."""

    def text(self, *a, **k):
        return TexMesh.empty()


def _st():
    return game(
        ("de_grenadiers",),
        ("su_rifles", "su_sniper"),
        g_units=(
            SU("de_pz_iv_g", "front", "de_tank_crew_regular"),
            SU("de_ju87g", "air", "de_pilot_regular"),
        ),
        s_units=(SU("su_t34_76", "front", "su_tank_crew_regular"),),
    )


def _paint(ctl):
    p = Painter(FakeAtlas(0.5))
    centres = paint_table(p, ctl, 1400, 900)
    return p, centres


def test_the_table_shows_both_lines_aircraft_with_turns_of_flight_and_only_the_viewers_hand():
    st = _st()
    ctl = TableController(st)
    ctl.viewer = "german"
    p, centres = _paint(ctl)
    text = "\n".join(p.texts)
    assert "german Frontline" in text and "soviet Frontline" in text and "german Rear Line" in text
    assert "2 Turns of Flight" in p.texts and "Luftwaffe pilot (regular)" in p.texts  # the pilot under it
    assert "Grenadier squad" in text  # the German hand
    from hexwar.lines.rules import card

    assert (
        card("su_sniper").name not in p.texts and card("su_rifles").name not in p.texts
    )  # soviet hand hidden
    assert "soviet: 2 unit, 3 Command (hidden)" in text
    assert f"Command deck {len(st.command_deck)}" in text
    assert {"de_pz_iv_g#1", "su_t34_76#1", "de_ju87g#1"} <= set(centres)


def test_a_damage_card_shows_under_its_unit_with_the_effect_for_the_units_type():
    st = _st()
    dmg = st.damage_deck.pop(0)
    st.units["de_pz_iv_g#1"].damage_card = dmg
    edge = cards().damage_card(dmg).side_for("vehicle")
    p, _ = _paint(TableController(st))
    assert any(t.startswith(f"Damage: {edge.title}") for t in p.texts)


def test_clicks_select_and_target_and_the_odds_and_the_arrow_show_before_declaring():
    st = _st()
    end_until(st, Phase.DECLARATION)
    while st.to_act != "soviet":
        st.apply(st.legal_commands()[-1])
    ctl = TableController(st)
    p, centres = _paint(ctl)
    hit = top_hit(p.widgets, *centres["su_t34_76#1"])
    hit.action()
    p, centres = _paint(ctl)
    top_hit(p.widgets, *centres["de_pz_iv_g#1"]).action()
    assert ctl.selected == "su_t34_76#1" and ctl.target == "de_pz_iv_g#1"
    p, _ = _paint(ctl)
    # the exact odds as the hex window's labelled bars (R6): five outcomes adding up to 100%
    assert any(t.endswith("hit 64%") for t in p.texts)
    labels = ["Destroyed", "Damage card", "Damaged", "No effect", "Miss"]
    i = p.texts.index("Destroyed")
    assert p.texts[i : i + 10 : 2] == labels
    pcts = [float(t.rstrip("%")) for t in p.texts[i + 1 : i + 11 : 2]]
    assert abs(sum(pcts) - 100.0) < 0.3
    assert pcts[4] == pytest.approx(36.0, abs=0.05)  # miss = 1 - hit (64%)
    ctl.offer_bonus()
    p, _ = _paint(ctl)
    assert any(t.startswith("+1 on the next to-hit roll") for t in p.texts)
    assert ctl.confirm()
    assert st.attacks[1].attackers == ("su_t34_76#1",)
    p, _ = _paint(ctl)
    assert any("declares #1" in t for t in p.texts)  # the log
    ctl.key("help")
    p, _ = _paint(ctl)
    assert "Card table: keys (H / F1 closes)" in p.texts


def test_hot_seat_hides_the_hand_of_the_seat_not_to_act():
    st = game(("de_tiger_i", "de_tank_crew_veteran"), ("su_kv_1s", "su_tank_crew_regular"))
    ctl = TableController(st)
    first = st.to_act
    p, _ = _paint(ctl)
    mine = "Tiger I" if first == "german" else "KV-1S"
    theirs = "KV-1S" if first == "german" else "Tiger I"
    assert mine in p.texts and theirs not in p.texts
    ctl.end_phase()
    p, _ = _paint(ctl)  # the hand-over screen: neither hand is shown, nothing acts for the next seat
    nxt = ctl.state.to_act
    assert ctl.passing == nxt and theirs not in p.texts and mine not in p.texts
    assert f"Hand the screen to {nxt}" in p.texts
    ctl.key("end_phase")
    assert ctl.state.to_act == nxt and ctl.passing == nxt
    ctl.key("confirm")  # Enter: the next person is looking
    p, _ = _paint(ctl)
    assert ctl.passing is None
    assert theirs in p.texts and mine not in p.texts


@pytest.mark.ui
def test_hexwar_render_lines_writes_the_card_table_png(tmp_path, capsys):
    out = tmp_path / "lines.png"
    rc = main(["render", "lines", "--screen", "play", "--size", "900x600", "--out", str(out)])
    assert rc == 0, capsys.readouterr()
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000


def test_the_setup_picks_the_starting_hand_by_clicks_and_the_log_hides_the_other_seats_hand():
    from hexwar.lines.scenario import LinesScenario, LinesSide

    g = ("de_tiger_i", "de_tank_crew_veteran", "de_grenadiers", "de_mg42_team", "de_pioniere")
    s = ("su_kv_1s", "su_tank_crew_regular", "su_rifles", "su_guards", "su_smg")
    sc = LinesScenario("t", "t", {"german": LinesSide(reserves=g), "soviet": LinesSide(reserves=s)}, seed=2)
    st = sc.with_decks({"german": g, "soviet": s}).new_game()
    assert st.phase == Phase.SETUP
    ctl = TableController(st)
    first = st.to_act
    p, _ = _paint(ctl)
    assert (
        "Setup: click 4 cards of your Reserves deck for your starting hand (0 of 4 picked), then Enter."
        in p.texts
    )
    picks = sorted(st.reserves[first])[:5]
    for c in picks:  # a fifth click is refused: 4 cards (000 setup)
        top_hit(p.widgets, *_centre(p, f"reserve {c}")).action()
    assert ctl.picks == picks[:4]
    top_hit(p.widgets, *_centre(p, f"reserve {picks[0]}")).action()  # a second click takes it back
    assert ctl.picks == picks[1:4]
    top_hit(p.widgets, *_centre(p, f"reserve {picks[4]}")).action()
    assert ctl.confirm()
    assert sorted(st.hand_units[first]) == sorted(picks[1:])
    other = st.to_act
    assert other != first and ctl.passing == other  # hot-seat: the hand-over screen first
    ctl.take_seat()
    p, _ = _paint(ctl)
    mine_names = {card(c).name for c in st.hand_units[first]}
    text = "\n".join(p.texts)
    assert f"{first} takes 4 unit cards into hand (hidden)" in text
    assert not any(n in text for n in mine_names - {card(c).name for c in st.reserves[other]})


def _centre(p, tip):
    h = next(h for h in p.widgets if h.tip == tip)
    return h.x + h.w / 2, h.y + h.h / 2


def test_the_4_player_table_tags_each_unit_with_its_commander_and_hands_go_through_the_hand_over():
    from hexwar.game.scenario import load_scenario
    from hexwar.lines.ai import LinesAI

    st = load_scenario("lines-4p").new_game(seed=5)
    ai = {s: LinesAI(s, st.seed) for s in st.seats}
    while st.phase != Phase.DECLARATION:
        st.apply(ai[st.to_act].choose(st))
    ctl = TableController(st)
    ctl.take_seat()
    p, centres = _paint(ctl)
    seats = {st.units[u].seat for u in centres}
    assert {"german-front", "german-support"} & seats and {"soviet-front", "soviet-support"} & seats
    for role in {s.split("-")[1] for s in seats}:
        assert role in p.texts  # the commander's tag on his units' cards
    first = st.to_act
    ctl.end_phase()
    p, _ = _paint(ctl)
    assert ctl.passing == st.to_act != first
    assert all(card(c).name not in p.texts for c in st.hand_units[st.to_act])


def test_the_selected_units_damage_card_is_told_in_full_beside_the_table():
    """The strip under a card holds one line of its Damage card; the side panel the whole effect."""
    st = _st()
    dmg = st.damage_deck.pop(0)
    st.units["de_pz_iv_g#1"].damage_card = dmg
    edge = cards().damage_card(dmg).side_for("vehicle")
    ctl = TableController(st)
    ctl.viewer = "german"
    ctl.selected = "de_pz_iv_g#1"
    p = Painter(FakeAtlas(0.5))
    paint_table(p, ctl, 1400, 900)
    said = " ".join(t for t in p.texts if not t.startswith("Damage: "))
    effect = edge.describe(cards().rules).removeprefix(edge.title + ": ")
    assert f"Pz.Kpfw. IV Ausf. G: Damage card {edge.title}" in said
    assert " ".join(effect.split()) in " ".join(said.split())


def test_lines_take_what_their_cards_need_and_the_hand_shows_its_cards_whole():
    """Walk-through trip: one card made its line the whole table's height while the hand's cards
    were cut at the window's edge (their phase and lower armament rows never showed)."""
    from hexwar.ui.lines_screen import EMPTY_ROW, HAND_H, _row_heights

    needs = [EMPTY_ROW, 130.0, EMPTY_ROW, 130.0, EMPTY_ROW]
    rows, hand = _row_heights(needs, 600.0, 150.0)
    # 3 x 34 + 2 x 130 = 362 needed of 600: the hand grows by 38 to 150, the other 200 go to the
    # two lines with cards
    assert hand == 150.0 and rows == [34.0, 230.0, 34.0, 230.0, 34.0]
    rows, hand = _row_heights(needs, 250.0, 150.0)  # too little room: equal shares, the hand as it was
    assert hand == HAND_H and rows == [34.0, 74.0, 34.0, 74.0, 34.0]
    st = _st()
    ctl = TableController(st)
    ctl.viewer = "german"
    st.hand_commands["german"] = ["hull_down#1"]
    p, _ = _paint(ctl)
    assert "commitment phase" in p.texts  # the Command card's footer, at the bottom of the hand


@pytest.mark.ui
def test_the_table_holds_its_layout_through_a_whole_game_and_its_replay(tmp_path, capsys):
    """Walk-through trip: six cards in a line (and ten in a hand) fanned out with each covered
    card's text showing through the next one; the replay's narrower table did it at every size.
    Now a line narrows its cards, wraps them into rows, and only fans as a last resort with the
    covered part of a card left blank (layout_check: no overlaps, nothing cut, 10 pt and up)."""
    from hexwar.render import backend

    try:
        backend.configure(True)
        from hexwar.ui.lines_screen import LinesWindow
    except Exception as exc:  # pragma: no cover - no EGL on this machine
        pytest.skip(f"headless pyglet unavailable: {exc}")
    from hexwar.ui.layout_check import layout_problems
    from hexwar.ui.replay_model import load_replay
    from hexwar.ui.replay_window import paint_replay

    save = tmp_path / "g.json"
    assert main(["play", "lines", "--headless", "--ai", "german,soviet", "--seed", "11", "--save", str(save),
                 "--json"]) == 0  # fmt: skip
    capsys.readouterr()
    m = load_replay(save)
    win = LinesWindow(m.state_at(0), {}, None, width=800, height=600, visible=False)
    try:
        problems = []

        def longest(k):  # the most cards in one line at step k
            return max(len(r) for side in m.state_at(k).lines.values() for r in side.values())

        most = max(range(len(m) + 1), key=longest)
        assert longest(most) == 6  # seed 11: six cards in one line
        for step in sorted({0, len(m) // 3, most, len(m)}):
            st = m.state_at(step)
            for w, h in ((800, 600), (1400, 900)):
                p = Painter(win.view.atlas)
                paint_table(p, TableController(st, ai={}), w, h)
                problems += layout_problems(p, w, h, f"table step {step}")
                p = Painter(win.view.atlas)
                paint_replay(p, m, step, w, h, go=lambda s: None)
                problems += layout_problems(p, w, h, f"replay step {step}")
        assert not problems, "\n".join(problems[:10])
    finally:
        win.window.close()


def test_in_setup_the_other_hands_counts_stay_clear_of_the_reserves_picker():
    """Walk-through trip (800x600): the picker covered the left part of "soviet: 0 unit, ..."."""
    from hexwar.game.scenario import find_scenario, load_scenario

    st = load_scenario(find_scenario("lines")).new_game()
    p = Painter(FakeAtlas(0.5))
    paint_table(p, TableController(st, ai={}), 800, 600)
    box = next(b for b in p.text_boxes if b[4].startswith("soviet: "))
    assert box[0] >= 800 - 240  # right of the table (the side panel is 240 points wide at 800)


def test_at_800x600_a_hand_of_seven_shows_whole_cards_in_rows():
    """Walk-through trip: at 800x600 a hand of 4 unit and 3 Command cards was squeezed to 105
    points a card ("1 weapon (card too small...)") while the empty lines took the height."""
    st = _st()
    st.hand_units["german"] = ["de_grenadiers#9", "de_tank_crew_regular#9", "de_pz_iv_g#9", "de_hs129b#9"]
    st.hand_commands["german"] = ["hull_down#1", "drop_tanks#1", "flank_shot#1"]
    for side in st.lines.values():
        for row in side.values():
            row.clear()
    ctl = TableController(st)
    ctl.viewer = "german"
    p = Painter(FakeAtlas(0.5))
    paint_table(p, ctl, 800, 600)
    assert not any("card too small" in t for t in p.texts)
    assert p.texts.count("Armament") == 4 and p.texts.count("COMMAND") == 3
    cards_ = [b for b in p.widgets if b.tip.startswith("card ")]
    assert len(cards_) == 7 and min(b.w for b in cards_) >= 170
    assert len({round(b.y) for b in cards_}) == 2  # two rows
