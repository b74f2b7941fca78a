"""Issue 36 on the hex play window, driven headless: units and hand cards drawn as cards
(:mod:`hexwar.ui.card_face`), a click on a stack selecting a unit that can act, the hover box
kept off neighbouring counters and attack arrows, no arrow left for a resolved attack."""

from __future__ import annotations

import pytest
from play_window_helpers import window_for

pytestmark = pytest.mark.ui

from game_helpers import H, advance_to, clear_units, place, scenario  # noqa: E402

from hexwar.game.state import Phase  # noqa: E402
from hexwar.ui.clock import ManualClock  # noqa: E402
from hexwar.ui.controller import PlayController  # noqa: E402

SEED = 7


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_a_click_on_a_stack_selects_the_unit_that_can_move_and_a_second_click_cycles():
    g = scenario("game_small").new_game(seed=SEED)
    advance_to(g, Phase.COMMITMENT)
    clear_units(g)
    stuck = place(g, "de_grenadiers", "D05")  # sorts first in the stack
    tank = place(g, "de_pz_iv_g", "D05", crew="de_tank_crew_regular")
    place(g, "su_rifles", "L05")
    advance_to(g, Phase.MOVEMENT, "german")
    g.units[stuck.uid].mp_left = 0.0  # R5.3: it has spent its movement points this phase
    g.cache.clear()
    ctl = PlayController(g, ai={}, clock=ManualClock())
    ctl.confirm_pass()
    assert ctl.units_at(H("D05"))[0] == stuck.uid
    ctl.click_hex(H("D05"))
    assert ctl.selected == tank.uid, ctl.selected
    assert ctl.reach_costs()  # blue hexes to click straight away
    ctl.click_hex(H("D05"), alternate=True)  # a right click still reaches the other one
    assert ctl.selected == stuck.uid


def test_the_hover_box_keeps_off_the_counters_round_the_hovered_hex():
    g = scenario("game_small").new_game(seed=SEED)
    advance_to(g, Phase.COMMITMENT)
    clear_units(g)
    # a ring of units round F05 (both sides of it, above and below) and one enemy further off
    for label in ("G05", "E05", "F04", "F06", "G04", "E04"):
        place(g, "de_grenadiers", label)
    place(g, "su_rifles", "J05")
    advance_to(g, Phase.MOVEMENT, "german")
    win = window_for(g, size=(1400, 900))
    try:
        win.controller.confirm_pass()
        x, y = win.screen_point(H("F05"))
        win.dispatch_event("on_mouse_motion", x, y, 0, 0)
        box = win.tooltip_box
        assert box is not None
        units = win._tooltip_avoid()["units"]
        assert len(units) == 7
        covered = [u for u in units if _overlap(box, u)]
        assert not covered, (box, covered)
    finally:
        win.close()


def test_the_side_panel_shows_the_selected_unit_as_its_card_in_play_and_the_hand_as_cards():
    g = scenario("game_small").new_game(seed=SEED)
    advance_to(g, Phase.COMMITMENT)
    u = place(g, "de_pz_iv_g", "D05", crew="de_tank_crew_regular", endurance=9)
    advance_to(g, Phase.MOVEMENT, "german")
    win = window_for(g, size=(1400, 900))
    try:
        ctl = win.controller
        ctl.confirm_pass()
        ctl.select(u.uid)
        texts = win.screen_texts()
        # the card face (001 "Card Types Detailed"): its Armament table with the DI column,
        # Half / Full Endurance, and in play the current Endurance (R6.5) and its crew
        assert "Armament" in texts and "DI" in texts and "Half 7 / Full 14" in texts
        assert "End 9/14" in texts
        assert any(t.startswith("Movement 5 (tracked); range") for t in texts)
        assert texts.count("Armament") >= 2  # the hand's unit cards are cards too
        # Command cards in the hand are paper cards saying what they apply to (R4.3): the card
        # cursor on the last one scrolls the hand to it
        assert g.hand_commands["german"]
        ctl.move_card_cursor(-1)
        assert ctl.hover_card == g.hand_commands["german"][-1]
        texts = win.screen_texts()
        assert sum(t.startswith("applies to: ") for t in texts) >= 2, texts  # the hand and the panel
    finally:
        win.close()
