"""State colours apart for every colour vision, computed from the palette files (issue 36).

For both palettes (``assets/terrain_looks.toml`` and ``--palette high-contrast``) every pair of
state colours that can be on screen together and could be taken for each other is at least
CIELAB dE 20 apart under normal vision and simulated protanopia, deuteranopia and tritanopia
(Machado, Oliveira and Fernandes 2009, severity 1; the matrices of tests/test_play_ux.py).

Which pairs can be taken for each other is decided by shape and phase, stated here once:

* the same shape (two rings, two fills, two lines) must differ by colour;
* a ring is drawn around a counter and a line across the fills, so ring/counter and
  line/fill pairs must differ by colour too (issue 36: the target ring was 0.9 from the Soviet
  counter band for protanopes; the high-contrast clear-LOS line 6.2 from the reach fill);
* any other pair differs by shape as well (a fill is never a ring or a line);
* two counters are told apart by their bands or by their fills (one of the two pairs >= 20);
* states never shown in the same phase (deploy zones only in Setup, reach only in Movement,
  the prepared attack only in Declaration) are not compared.
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from test_play_ux import CVD, simulate

from hexwar.render.looks import PALETTES, palette_looks

#: state -> (shape, phases it shows in; "all" for every phase)
STATES: dict[str, tuple[str, frozenset[str]]] = {
    "highlight": ("ring", frozenset({"all"})),  # the selected unit: a plain ring
    "target": ("ring", frozenset({"declaration"})),  # a ring with corner ticks
    "cursor": ("ring", frozenset({"all"})),  # the keyboard's hex cursor
    "reach": ("fill", frozenset({"movement"})),
    "deploy_german": ("fill", frozenset({"setup"})),
    "deploy_soviet": ("fill", frozenset({"setup"})),
    "los_hindered": ("fill", frozenset({"movement", "declaration"})),  # hindering hexes filled
    "los_blocked": ("cross", frozenset({"movement", "declaration"})),  # blocking hexes crossed
    "los_clear": ("line", frozenset({"movement", "declaration"})),
    "pending": ("line", frozenset({"declaration"})),  # the prepared attack's arrow
    "german": ("counter", frozenset({"all"})),  # the counters' bands and fills
    "soviet": ("counter", frozenset({"all"})),
}
#: shape pairs drawn on top of each other: they must differ by colour as well
TOUCHING = {frozenset({"ring", "counter"}), frozenset({"line", "fill"}), frozenset({"line", "counter"})}
MIN_DE = 20.0


def _colours(palette: str) -> dict[str, list[tuple[int, ...]]]:
    looks = palette_looks(palette)
    out: dict[str, list[tuple[int, ...]]] = {k: [looks.overlay[k]] for k in STATES if k in looks.overlay}
    for side in ("german", "soviet"):
        out[side] = [looks.sides[side].band, looks.sides[side].fill]
    return out


def _together(a: str, b: str) -> bool:
    pa, pb = STATES[a][1], STATES[b][1]
    return "all" in pa or "all" in pb or bool(pa & pb)


def _compared(a: str, b: str) -> bool:
    sa, sb = STATES[a][0], STATES[b][0]
    return _together(a, b) and (sa == sb or frozenset({sa, sb}) in TOUCHING)


def test_the_rule_compares_the_pairs_the_issue_named():
    assert _compared("target", "soviet") and _compared("los_clear", "reach")
    assert not _compared("reach", "deploy_german")  # never in the same phase
    assert not _compared("target", "los_blocked")  # a ticked ring against a crossed hex


@pytest.mark.parametrize("palette", PALETTES)
def test_state_colours_are_apart_for_every_colour_vision(palette):
    cols = _colours(palette)
    assert set(cols) == set(STATES), "a state colour is missing from the palette"
    low = []
    for kind in CVD:
        for a, b in itertools.combinations(STATES, 2):
            if not _compared(a, b):
                continue
            if STATES[a][0] == STATES[b][0] == "counter":  # told apart by the band or by the fill
                pairs = list(zip(cols[a], cols[b], strict=True))
                ds = [float(np.linalg.norm(simulate(ca, kind) - simulate(cb, kind))) for ca, cb in pairs]
                if max(ds) < MIN_DE:
                    low.append((round(max(ds), 1), kind, a, b, pairs[0][0][:3], pairs[0][1][:3]))
                continue
            for ca, cb in itertools.product(cols[a], cols[b]):  # a ring or line meets band and fill
                d = float(np.linalg.norm(simulate(ca, kind) - simulate(cb, kind)))
                if d < MIN_DE:
                    low.append((round(d, 1), kind, a, b, ca[:3], cb[:3]))
    assert not low, "\n".join(map(str, sorted(low)))
