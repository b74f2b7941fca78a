"""The standard lines player's shortcuts (issue 31: the hard player's rollouts are the standard
player on every seat) choose as the full lists do: :func:`hexwar.lines.ai.unit_declarations`
lists exactly the engine's legal declarations of one unit (R6.1, 000 Legal Targets), in order."""

from __future__ import annotations

import pytest

from hexwar.game.scenario import load_scenario
from hexwar.lines.ai import unit_declarations
from hexwar.lines.commands import Declare
from hexwar.lines.players import make_lines_player
from hexwar.lines.state import Phase


@pytest.mark.parametrize(
    "name,players,variants",
    [
        ("lines", ("standard", "random"), None),
        ("lines-4p", ("random", "standard"), None),
        ("lines_bukrin", ("random", "random"), ("classic",)),
    ],
)
def test_one_units_declarations_are_the_legal_lists_declarations_of_that_unit(name, players, variants):
    sc = load_scenario(name)
    seen = 0
    for seed in range(5):
        st = sc.new_game(seed=seed, variants=variants)
        p = {s: make_lines_player(players[i % 2], s, seed) for i, s in enumerate(st.seats)}
        while not st.over:
            if st.phase == Phase.DECLARATION:
                seat = st.to_act
                want = [c for c in st.legal_commands(seat) if isinstance(c, Declare)]
                got = [c for uid in sorted(st.units) for c in unit_declarations(st, seat, uid)]
                assert got == want, f"seed {seed}, turn {st.turn}, {seat}"
                seen += len(want)
                other = next(s for s in st.seats if s != seat)
                assert all(
                    unit_declarations(st, other, uid) == [] for uid in st.units if st.units[uid].seat == seat
                )
            st.apply(p[st.to_act].choose(st))
    assert seen > 100
