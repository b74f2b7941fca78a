"""The hex window's side panel draws the Damage card on a unit as a card (issue 36: the section
was lines of text), with the shared card drawing of hexwar/ui/card_face.py, and its boxes hold
at 800x600 (R6.6: the edge for the unit's type, its effect, the turns left)."""

from __future__ import annotations

import pytest

from hexwar.game import ruleset  # noqa: E402
from hexwar.game.state import card_of  # noqa: E402
from hexwar.ui.controller import LogLine  # noqa: E402
from hexwar.ui.layout_check import layout_problems  # noqa: E402
from hexwar.ui.panels import paint_screen  # noqa: E402
from hexwar.ui.play_side import damage_cards_shown  # noqa: E402
from hexwar.ui.widgets import Painter  # noqa: E402
from tests.play_window_helpers import window_for

pytestmark = pytest.mark.ui


@pytest.fixture(scope="module")
def damaged():
    """The standard scenario's battle with two units under Damage cards (Immobilized on one,
    a temporary edge on the other), both drawn in the log."""
    from hexwar.ui.render_state import game_for_screen

    st, _ = game_for_screen("standard", "battle")
    alive = [uid for uid, u in st.units.items() if u.hex is not None and not u.damage_card and not u.crewing]
    a, b = alive[0], alive[-1]
    st.units[a].damage_card = "dmg01#1"
    st.units[b].damage_card = "dmg02#1"
    st.units[b].damage_turns = 2
    return st, a, b


def _panel(st, sel, drawn, size):
    win = window_for(st, size=size)
    try:
        ctl = win.controller
        for uid in drawn:
            ctl.log_view.damage_cards.append(
                LogLine(f"{ruleset.card_name(st.units[uid].card)}: Damage card", "damage_card", 1)
            )
        ctl.selected = sel
        p = Painter(win.mapview.atlas)
        paint_screen(p, ctl, size[0], size[1], win.looks, win.flags, win._buttons())
        return p, ctl
    finally:
        win.close()


def _edge(st, uid):
    card = ruleset.unit_card(st.units[uid].card)
    return ruleset.cards().damage[card_of(st.units[uid].damage_card)].side_for(card.target_type)


@pytest.mark.parametrize("size", [(1400, 900), (800, 600)], ids=["1400x900", "800x600"])
def test_the_selected_units_damage_card_is_drawn_as_a_card(damaged, size):
    st, a, b = damaged
    p, ctl = _panel(st, a, [b], size)
    assert damage_cards_shown(ctl, a) == [a, b]
    edge = _edge(st, a)
    name = ruleset.card_name(st.units[a].card)
    assert "DAMAGE" in p.texts  # the paper card's band (card_face.paint_paper_card)
    assert edge.title in p.texts
    assert f"permanent - under {name}" in p.texts or any(t.startswith("permanent - under ") for t in p.texts)
    if size == (1400, 900):  # room for the second: the last one drawn, on another unit
        assert any(t.startswith("2 turns left - under ") for t in p.texts)
    assert not layout_problems(p, *size, f"damage panel {size}")


def test_a_temporary_edge_shows_its_turns_left(damaged):
    st, a, b = damaged
    p, _ = _panel(st, b, [], (1400, 900))
    assert _edge(st, b).title in p.texts
    assert any(t.startswith("2 turns left - under ") for t in p.texts)
