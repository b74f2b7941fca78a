"""Resize to a typed size with an anchor (issue 17; :mod:`hexwar.editor.resize`): the typed size
is kept exactly for every anchor, the content moves by a true grid translation (R2.2: every
hex keeps its neighbours), and the anchor says where it stays."""

from __future__ import annotations

import itertools

import pytest

from hexwar.editor.hexstate import HexState
from hexwar.editor.model import EditorDocument
from hexwar.editor.resize import ANCHORS, anchor_margins, resize_plan
from hexwar.editor.session import EditorSession
from hexwar.model.hexgrid import Hex

H = Hex.from_label


def _marked(w: int, h: int) -> EditorDocument:
    doc = EditorDocument.new(w, h, scenario=True)
    m = doc.map
    for c, r in itertools.product(range(w), range(h)):
        if (c * 7 + r * 3) % 4 == 0:
            m.set_terrain(Hex.from_offset(c, r), "woods")
    return doc


@pytest.mark.parametrize("anchor", ANCHORS)
def test_every_anchor_keeps_the_typed_size_and_moves_the_content_by_one_translation(anchor):
    for nw, nh in ((9, 7), (12, 7), (13, 10), (7, 5), (6, 9)):
        doc = _marked(9, 7)
        before = {h: HexState.read(doc.map, h) for h in doc.map.hexes()}
        s = EditorSession(doc, units={"german": [], "soviet": []})
        plan = resize_plan(doc.map, doc.scenario, nw, nh, anchor)
        assert s.resize_to(nw, nh, anchor) is None, s.status
        m = doc.map
        assert (m.width, m.height) == (nw, nh)
        left, right, top, bottom = plan.margins
        assert left % 2 == 0 and left + right == nw - 9 and top + bottom == nh - 7
        # growing never trims a side, shrinking never adds one
        for a, b in ((left, right), (top, bottom)):
            assert a * b >= 0
        for h, st in before.items():
            if m.in_bounds(h + plan.translation):
                assert HexState.read(m, h + plan.translation) == st, (anchor, nw, nh, h)


def test_the_anchor_says_where_the_content_stays():
    m = _marked(10, 8).map
    assert anchor_margins(m, 14, 12, "top-left") == (0, 4, 0, 4)
    assert anchor_margins(m, 14, 12, "bottom-right") == (4, 0, 4, 0)
    assert anchor_margins(m, 14, 12, "centre") == (2, 2, 2, 2)
    assert anchor_margins(m, 6, 4, "bottom") == (-2, -2, -4, 0)
    # an odd change with a right anchor: the pair of columns on the left, the odd one right
    assert anchor_margins(m, 13, 8, "right") == (2, 1, 0, 0)
    with pytest.raises(Exception, match="anchor"):
        anchor_margins(m, 12, 8, "middle")
    with pytest.raises(Exception, match="1..500"):
        anchor_margins(m, 0, 8, "top")
