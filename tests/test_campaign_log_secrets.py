"""A player's campaign log never shows the order of the event pile (R12.1).

Found by playing ``hexwar campaign`` (window and ``--headless``): the first log line was
``draw (event pile): [4, 7, 5, 2, 0, 6, 1, 9, 3, 8] of 10``, the shuffle's permutation of the
event cards in their file order, so the player knew every coming year's event card.
"""

from __future__ import annotations

import re

from hexwar.campaign.events import RandomDraw, describe
from hexwar.campaign.headless import show_events
from hexwar.campaign.state import new_campaign


def _shuffle(seed: int):
    st, events = new_campaign(seed)
    draws = [e for e in events if isinstance(e, RandomDraw) and "event" in e.purpose]
    assert draws, f"seed {seed}: no event pile shuffle in the set-up"
    return st, events, draws[0]


def test_a_side_and_a_spectator_see_the_shuffle_but_not_its_order():
    for seed in range(5):
        st, _, d = _shuffle(seed)
        order = str(list(d.result))
        for viewer in ("german", "soviet", "spectator"):
            line = describe(d, st.cards, viewer)
            assert order not in line, f"seed {seed} {viewer}: {line}"
            assert line == f"the event pile is shuffled ({len(st.cards.events)} cards)", seed
        # the umpire's (replay) line keeps the draw
        assert describe(d, st.cards, None) == f"draw (event pile): {order} of {d.options}"


def test_the_terminal_campaign_prints_no_permutation():
    st, events, d = _shuffle(3)
    lines: list[str] = []
    show_events(st, events, "german", lines.append)
    text = "\n".join(lines)
    assert "the event pile is shuffled" in text
    # a list of all 10 indices would be the pile's order
    for m in re.finditer(r"\[([\d, ]+)\]", text):
        assert sorted(int(x) for x in m.group(1).split(",")) != list(range(d.options)), text
