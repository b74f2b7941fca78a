"""The play window's log, with one person against the computer, is that person's side's view
(R12.1, R12.2), through the same :func:`hexwar.game.view.seat_events` as the terminal.

Found by the new-user trial: ``hexwar play standard --fog`` showed the seed and every Soviet
Reserves pool draw ("choice of 17, took #4"), i.e. the whole Soviet Reserves deck, in the
window's combat log, while the network seat and the terminal hid them.
"""

from __future__ import annotations

import pytest
from play_window_helpers import window_for

from hexwar.game.ai import make_player
from hexwar.game.scenario import find_scenario, load_scenario


@pytest.mark.parametrize("variants", [("fog",), ()])
def test_the_window_log_hides_the_other_sides_pool_draws_and_the_seed(variants):
    st = load_scenario(find_scenario("standard")).new_game(11, variants=variants)
    draws = [e.text for e in st.log if e.kind == "roll" and "Reserves deck card from the pool" in e.text]
    soviet = [t for t in draws if t.startswith("soviet ")]
    german = [t for t in draws if t.startswith("german ")]
    assert soviet and german  # the standard scenario draws both decks from pools
    win = window_for(st, ai={"soviet": make_player("standard", "soviet", seed=1)})
    try:
        text = "\n".join(line.text for line in win.controller.log_view.log)
    finally:
        win.close()
    for t in soviet:
        assert t not in text, f"seed 11 {variants}: the window shows the Soviet draw {t!r}"
    assert any(t in text for t in german)  # the person's own draws stay
    assert "seed 11" not in text
