"""The card table played with the mouse alone (issue 36): every phase's action is a button, one
button is highlighted (what Enter / Space does now; in the Draw Phase the way Space draws,
R5.5), clicks on the buttons play a whole declaration and a draw; a resolved attack's arrow
leaves the table."""

from __future__ import annotations

from lines_helpers import end_until, game

from hexwar.lines.events import Drew
from hexwar.lines.scenario import StartingUnit as SU
from hexwar.lines.state import Phase
from hexwar.lines.table import TableController
from hexwar.render.mesh import TexMesh
from hexwar.ui.lines_actions import draw_label, table_buttons
from hexwar.ui.lines_screen import paint_table
from hexwar.ui.widgets import MonoMeasure, Painter, top_hit


class FakeAtlas(MonoMeasure):
    """Measures like MonoMeasure and draws nothing."""

    def text(self, *a, **k):
        return TexMesh.empty()


class LinePainter(Painter):
    """A painter that also records its lines (the arrows)."""

    def __init__(self, *a, **k):
        super().__init__(*a, **k)
        self.lines: list[tuple] = []

    def line(self, *a, **k):
        self.lines.append(a)
        return super().line(*a, **k)


def _paint(ctl, w=1400, h=900):
    p = LinePainter(FakeAtlas(0.5))
    centres = paint_table(p, ctl, w, h)
    return p, centres


def _click(p, tip):
    """Click the button named ``tip`` (its hit box's centre)."""
    box = next(b for b in p.widgets if b.tip == tip)
    x, y = box.x + box.w / 2, box.y + box.h / 2
    hit = top_hit(p.widgets, x, y)
    assert hit is box and hit.action is not None, f"{tip} is not clickable"
    hit.action()


def _st():
    return game(
        ("de_grenadiers",),
        ("su_rifles", "su_sniper"),
        g_units=(SU("de_pz_iv_g", "front", "de_tank_crew_regular"),),
        s_units=(SU("su_t34_76", "front", "su_tank_crew_regular"),),
    )


def test_exactly_one_button_is_highlighted_in_every_phase_and_the_draw_ways_are_told_apart():
    st = _st()
    ctl = TableController(st)
    seen = set()
    for _ in range(60):
        if st.over or st.turn > 2:
            break
        bs = table_buttons(ctl)
        if st.phase != Phase.SETUP and ctl.human_to_act():
            assert sum(b.primary for b in bs) == 1, (st.phase, [(b.label, b.primary) for b in bs])
            seen.add(st.phase)
        if st.phase == Phase.DRAW and st.to_act not in st.drawn:
            draws = [b for b in bs if b.tip.startswith("draw ")]
            assert len(draws) == len(ctl.draw_options()) >= 2
            assert len({b.label for b in draws}) == len(draws)  # every way says what it draws
            assert [b.primary for b in draws].count(True) == 1
            ctl.key("next_choice")  # V moves the highlight to the next way
            again = [b for b in table_buttons(ctl) if b.tip.startswith("draw ")]
            assert [b.primary for b in again] != [b.primary for b in draws]
        ctl.end_phase()
        ctl.take_seat()
    assert {Phase.COMMITMENT, Phase.DECLARATION, Phase.DRAW} <= seen


def test_draw_label_counts_the_command_card_every_draw_takes():
    from hexwar.lines.commands import Draw

    assert draw_label(Draw("german", ("reserves", "reserves"))) == "1 Command + 2 Reserves"
    assert draw_label(Draw("german", ("command", "reserves"))) == "2 Command + 1 Reserves"
    assert draw_label(Draw("german", ("command", "command"))) == "3 Command"


def test_a_declaration_and_a_draw_by_mouse_alone_and_the_resolved_arrow_leaves_the_table():
    st = _st()
    end_until(st, Phase.DECLARATION)
    while st.to_act != "soviet":
        st.apply(st.legal_commands()[-1])
    ctl = TableController(st)
    p, centres = _paint(ctl)
    top_hit(p.widgets, *centres["su_t34_76#1"]).action()
    p, centres = _paint(ctl)
    top_hit(p.widgets, *centres["de_pz_iv_g#1"]).action()
    p, _ = _paint(ctl)
    assert "Declare (Enter)" in p.texts
    _click(p, "declare")
    n = max(st.attacks)
    assert st.attacks[n].attackers == ("su_t34_76#1",)
    p, _ = _paint(ctl)
    arrows = [ln for ln in p.lines if ln[5][:3] == (200, 70, 60)]  # the Soviet declaration's arrow
    assert arrows, "the declared attack has its arrow"
    # end the phase by the button, then resolve by the button
    while st.phase == Phase.DECLARATION:
        p, _ = _paint(ctl)
        _click(p, "end phase")
        ctl.take_seat()
    while not st.attacks[n].resolved:
        assert st.phase == Phase.RESOLUTION
        p, _ = _paint(ctl)
        _click(p, "resolve" if st.to_act == "soviet" else "end phase")
        ctl.take_seat()
    p, _ = _paint(ctl)
    assert not [ln for ln in p.lines if ln[5][:3] == (200, 70, 60)], "a resolved attack's arrow stays"
    assert not [ln for ln in p.lines if ln[5][:3] == (120, 120, 120)]
    end_until(st, Phase.DRAW)
    ctl = TableController(st)
    seat = st.to_act
    p, _ = _paint(ctl)
    ways = [b for b in p.widgets if b.tip.startswith("draw ")]
    assert len(ways) >= 2
    assert ways[-1].action is not None
    want = ctl.draw_options()[-1].extra
    _click(p, ways[-1].tip)  # not the highlighted one
    drew = [e for e in st.log if isinstance(e, Drew) and e.seat == seat][-1]
    assert drew.sources == want
    assert seat in st.drawn


def test_the_setup_hand_is_picked_and_taken_by_mouse_alone():
    """Walk-through trip: the setup said "then Enter" and had no button to take the hand."""
    from hexwar.game.scenario import find_scenario, load_scenario

    st = load_scenario(find_scenario("lines")).new_game()
    seat = st.to_act
    ctl = TableController(st, ai={})
    p, _ = _paint(ctl)
    take = next(b for b in p.widgets if b.tip == "take hand")
    assert take.action is None  # nothing picked yet: disabled
    for _ in range(4):
        p, _ = _paint(ctl)
        free = next(b for b in p.widgets if b.tip.startswith("reserve ") and b.tip[8:] not in ctl.picks)
        top_hit(p.widgets, free.x + free.w / 2, free.y + free.h / 2).action()
    p, _ = _paint(ctl)
    assert "Take this hand (Enter)" in p.texts
    _click(p, "take hand")
    assert st.to_act != seat and len(st.hand_units[seat]) == 4


def test_the_setup_cursor_does_not_carry_over_onto_the_hand():
    """Walk-through trip: after S-picking the hand by keyboard the 6th hand card showed the
    cursor's focus frame in the Commitment phase."""
    from hexwar.game.scenario import find_scenario, load_scenario

    st = load_scenario(find_scenario("lines")).new_game()
    ctl = TableController(st, ai={})
    for _ in range(4):
        ctl.key("card_next")
        ctl.key("pick_card")
    assert ctl.card_cursor == 3
    ctl.key("confirm")
    assert ctl.card_cursor is None and ctl.picks == []


def test_a_command_card_playable_outside_commitment_gets_a_play_button_that_plays_it():
    """The fresh-user pass (round 3, session 4): a mouse-only player had no way to play a Command
    card in the Declaration, Resolution or Draw Phase (R4.3), where P could. Over seeded computer
    games, at every decision of the seat to act, each Command card in its hand is offered a
    "play card" button exactly when a legal play of it exists, and a click on it plays it."""
    from hexwar.game.scenario import find_scenario, load_scenario
    from hexwar.lines.ai import LinesAI
    from hexwar.lines.commands import UseCommandCard

    offered_outside = 0
    for seed in (1, 2, 3):
        st = load_scenario(find_scenario("lines")).new_game(seed=seed)
        ai = {s: LinesAI(s, st.seed) for s in st.seats}
        for _ in range(400):
            if st.over or st.turn > 4:
                break
            seat = st.to_act
            if st.phase != Phase.SETUP:
                ctl = TableController(st, ai={})
                legal = st.legal_commands()
                for c in dict.fromkeys(st.hand_commands.get(seat, ())):
                    ctl.selected = c
                    playable = any(isinstance(x, UseCommandCard) and x.card == c for x in legal)
                    tips = [b.tip for b in table_buttons(ctl)]
                    if st.phase != Phase.COMMITMENT:
                        assert ("play card" in tips) == playable, (seed, st.turn, st.phase, c, tips)
                        offered_outside += playable
            st.apply(ai[seat].choose(st))
    assert offered_outside >= 1, "no Command card was playable outside Commitment: the test saw nothing"


def test_the_play_button_plays_the_card_in_the_declaration_phase():
    """A click on "play card" outside Commitment issues the card's play (R4.3)."""
    from hexwar.game.scenario import find_scenario, load_scenario
    from hexwar.lines.ai import LinesAI
    from hexwar.lines.commands import UseCommandCard

    for seed in range(1, 12):
        st = load_scenario(find_scenario("lines")).new_game(seed=seed)
        ai = {s: LinesAI(s, st.seed) for s in st.seats}
        for _ in range(400):
            if st.over or st.turn > 4:
                break
            seat = st.to_act
            if st.phase in (Phase.DECLARATION, Phase.RESOLUTION, Phase.DRAW):
                plays = [x for x in st.legal_commands() if isinstance(x, UseCommandCard)]
                if plays:
                    ctl = TableController(st, ai={})
                    ctl.selected = plays[0].card
                    before = tuple(st.hand_commands.get(seat, ()))
                    p, _ = _paint(ctl)
                    _click(p, "play card")
                    assert tuple(st.hand_commands.get(seat, ())) != before, (seed, st.phase)
                    return
            st.apply(ai[seat].choose(st))
    raise AssertionError("no seed of 1..11 had a Command card playable outside Commitment")
