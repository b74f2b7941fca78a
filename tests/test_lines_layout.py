"""The card table as a widget tree (issue 34; R11.1): :class:`TableLayout` is laid out once per
window size and table shape, every region and card lies in the window and in its region, no two
regions (nor two cards of a line or of the hand) overlap, every text lies inside the region
that drew it, and a click goes through the same tree that painted the screen; for the 2-player
``lines`` and the 4-player ``lines-4p`` tables at 1400x900 and 800x600."""

from __future__ import annotations

import pytest

from hexwar.game.scenario import find_scenario, load_scenario
from hexwar.lines.ai import LinesAI
from hexwar.lines.state import Phase
from hexwar.lines.table import TableController
from hexwar.render.mesh import TexMesh
from hexwar.ui.layout_check import layout_problems
from hexwar.ui.lines_geometry import OVERLAYS, ROWS
from hexwar.ui.lines_layout import TableLayout, card_text_problems, table_layout, table_problems
from hexwar.ui.lines_rows import HandCard, UnitCard
from hexwar.ui.widgets import MonoMeasure, Painter, top_hit

SIZES = ((1400, 900), (800, 600))
GAMES = ("lines", "lines-4p")


class FakeAtlas(MonoMeasure):
    """Measures like MonoMeasure (0.55 em a character, near DejaVu's) and draws nothing."""

    advance = 0.55

    def text(self, *a, **k):
        return TexMesh.empty()


_STATES: dict[tuple[str, str], object] = {}


def _state(name: str, when: str):
    """A game of scenario ``name``: at its ``setup``, or played by the computer (seed 5) into
    its first ``commitment`` phase, or into turn 3's ``resolution`` phase, or into the Declaration phase of turn 2 (``declaration``: lines, hands and arrows on the table) or
    of turn 4 (``late``: more cards in the lines)."""
    key = (name, when)
    if key not in _STATES:
        st = load_scenario(find_scenario(name)).new_game(seed=5)
        ai = {s: LinesAI(s, st.seed) for s in st.seats}
        if when == "commitment":
            while st.phase != Phase.COMMITMENT:
                st.apply(ai[st.to_act].choose(st))
        elif when == "resolution":  # turn 3's Resolution Phase: the odds of the attack R resolves
            while not st.over and not (st.turn >= 3 and st.phase == Phase.RESOLUTION):
                st.apply(ai[st.to_act].choose(st))
        elif when != "setup":
            turn = 2 if when == "declaration" else 4
            while not st.over and not (st.turn >= turn and st.phase == Phase.DECLARATION and st.attacks):
                st.apply(ai[st.to_act].choose(st))
        _STATES[key] = st
    return _STATES[key]


def _paint(ctl: TableController, w: float, h: float, root: TableLayout | None = None):
    p = Painter(FakeAtlas())
    root = table_layout(ctl, w, h, root=root)
    root.paint(p)
    return p, root


def _controllers(name: str):
    """The table in the states a person meets: setup, declaring (a unit and its target picked),
    a later turn, the hand-over screen, committing (a hand card picked), the help overlay."""
    out = []
    for when in ("setup", "declaration", "late", "resolution"):
        st = _state(name, when)
        ctl = TableController(st, ai={})
        ctl.take_seat()
        out.append((when, ctl))
    st = _state(name, "declaration")
    ctl = TableController(st, ai={})
    ctl.take_seat()
    mine = [u for u in st.units.values() if u.seat == st.to_act]
    theirs = [u for u in st.units.values() if u.side != st.units[mine[0].uid].side] if mine else []
    if mine and theirs:
        ctl.click(mine[0].uid)
        ctl.click(theirs[0].uid)
    out.append(("declaring", ctl))
    ctl = TableController(st, ai={})
    ctl.passing = st.to_act
    out.append(("hand-over", ctl))
    st = _state(name, "commitment")
    ctl = TableController(st, ai={})
    ctl.take_seat()
    v = ctl.view()
    if v.hand_units or v.hand_commands:
        ctl.click([*v.hand_units, *v.hand_commands][0])  # a picked hand card stands 4 points up
    out.append(("hand card picked", ctl))
    ctl = TableController(st, ai={})
    ctl.take_seat()
    ctl.help = True
    out.append(("help", ctl))
    return out


@pytest.mark.parametrize("name", GAMES)
def test_every_region_card_and_text_fits_at_both_sizes(name):
    """Issue 34: at 1400x900 and 800x600, in setup, declaring, a later turn, behind the
    hand-over screen and under the help: regions and cards inside the window, no two regions or
    two cards of one line (or of the hand) overlapping, each text inside its region, the
    painter's check (no text overlaps, none cut, none under 10 points), and no card text cut
    without an ellipsis: names, weapons (or their count) and Command-card titles (item 3)."""
    found: list[str] = []
    for when, ctl in _controllers(name):
        for w, h in SIZES:
            p, root = _paint(ctl, w, h)
            found += table_problems(root, p, f"{name} {when}")
            found += layout_problems(p, w, h, f"{name} {when}")
            found += card_text_problems(root, p, f"{name} {when}")
    assert not found, "\n".join(found[:20])


def test_the_regions_are_the_table_s_and_the_lines_hold_their_cards():
    """The tree: the two bars, the five lines top to bottom (the viewer's at the bottom), the
    regions over them; each line holds exactly its units' cards, the hand the viewer's cards."""
    st = _state("lines", "declaration")
    ctl = TableController(st, ai={})
    ctl.take_seat()
    p, root = _paint(ctl, 1400, 900)
    tips = [c.tip for c in root.children]
    assert tips == [
        "top bar",
        "prompt",
        *(n for _, _, n in ROWS),
        "arrows",
        "side panel",
        "hand",
        *OVERLAYS[1:],
    ]
    ys = [root.find_panel(n).rect.y for _, _, n in ROWS]
    assert ys == sorted(ys, reverse=True)  # top to bottom
    me = ctl.side()
    own_front = root.find_panel("own Frontline")
    assert {k.uid for k in own_front.children} == {u for u in st.lines[me]["front"]}  # type: ignore[attr-defined]
    hand = root.find_panel("hand")
    v = ctl.view()
    assert [k.cid for k in hand.children] == [*v.hand_units, *v.hand_commands]  # type: ignore[attr-defined]
    assert set(root.centres) == {u for side in st.lines.values() for ln in side.values() for u in ln}


def test_the_tree_is_laid_out_once_per_size_and_table_shape():
    """A repaint of the same table (even with another card selected) keeps the layout; a new
    window size or a card moving into a line lays it out again."""
    st = load_scenario(find_scenario("lines")).new_game(seed=5)
    ai = {s: LinesAI(s, st.seed) for s in st.seats}
    while st.phase != Phase.COMMITMENT:
        st.apply(ai[st.to_act].choose(st))
    ctl = TableController(st, ai={})
    ctl.take_seat()
    _, root = _paint(ctl, 1400, 900)
    assert root.layouts == 1
    hand = [k.cid for k in root.find_panel("hand").children if isinstance(k, HandCard)]
    for cid in hand:  # a selection is not a new shape
        ctl.click(cid)
        if ctl.commit_options():
            break
    assert _paint(ctl, 1400, 900, root)[1] is root and root.layouts == 1
    _paint(ctl, 800, 600, root)
    assert root.layouts == 2
    before = root.shape
    assert ctl.commit_options(), "seed 5: a hand card can be committed"
    assert ctl.confirm()  # the card goes into a line: a new shape
    _paint(ctl, 800, 600, root)
    assert root.shape != before and root.layouts == 3


@pytest.mark.parametrize("name", GAMES)
def test_a_click_goes_through_the_tree_to_what_the_painter_shows_on_top(name):
    """No second set of rectangles: at the centre of every hit box the painter recorded (and
    that is on top there), the tree's hit test finds the widget of the same name, and a click
    through the tree runs that widget's action."""
    for when, ctl in _controllers(name):
        for w, h in SIZES:
            p, root = _paint(ctl, w, h)
            for b in p.widgets:
                x, y = b.centre
                if top_hit(p.widgets, x, y) is not b or b.action is None:
                    continue
                e = root.hit_test(x, y)
                tips = []
                while e is not None:
                    tips.append(getattr(e, "box_tip", e.tip))
                    e = e.parent
                assert b.tip in tips, (name, when, w, h, b.tip, tips)


def test_a_click_on_a_card_picks_it_and_the_hand_over_screen_eats_clicks():
    st = _state("lines", "declaration")
    ctl = TableController(st, ai={})
    ctl.take_seat()
    _, root = _paint(ctl, 1400, 900)
    mine = next(k for k in root.find_panel("own Frontline").children if isinstance(k, UnitCard))
    ctl.passing = st.to_act  # behind the hand-over screen a click on the card does nothing
    _paint(ctl, 1400, 900, root)
    assert root.press(*mine.rect.centre) and ctl.selected is None
    ctl.take_seat()
    _paint(ctl, 1400, 900, root)
    assert root.press(*mine.rect.centre) and ctl.selected == mine.uid


def test_a_captured_unit_and_a_4_player_commander_are_named_in_the_cards_second_row():
    """Trip found by the layout test: the 4-player commander's tag (and ``captured``) were drawn
    over the card's armament heading; now they stand where the printed line was (the line is
    the row the card lies in), captured in the error colour, and nothing overlaps."""
    st = _state("lines-4p", "declaration")
    ctl = TableController(st, ai={})
    ctl.take_seat()
    uid = next(u for u in sorted(st.units) if st.units[u].seat.endswith("-support"))
    st.units[uid].captured = True
    try:
        for w, h in SIZES:
            p, root = _paint(ctl, w, h)
            card = next(k for c in root.children for k in c.children if getattr(k, "uid", None) == uid)
            tag = next(
                b for b in p.text_boxes if b[4].startswith("captured") and card.rect.contains(b[0], b[1])
            )
            # (a card squeezed below its armament table adds its weapons' count, item 3)
            assert tag[4] in ("captured, support", "captured, supp…", "captured, support, 2 weapons"), tag[4]
            assert tag[1] > card.rect.y1 - 22 - 16 - 1  # in the second row, under the 22-point header
            assert not layout_problems(p, w, h) and not table_problems(root, p)
    finally:
        st.units[uid].captured = False


def test_table_problems_finds_a_card_moved_out_of_its_line_and_a_text_out_of_its_region():
    """The check itself: a card moved to start where its line ends, and a text drawn 200
    points below its region, are both reported by name."""
    st = _state("lines", "declaration")
    ctl = TableController(st, ai={})
    ctl.take_seat()
    p, root = _paint(ctl, 800, 600)
    assert not table_problems(root, p)
    row = root.find_panel("own Frontline")
    last = row.children[-1]
    last.rect = last.rect.moved(row.rect.x1 - last.rect.x, 0)
    got = table_problems(root, p)
    assert any(f"'{last.tip}'" in g and "leaves" in g for g in got), got
    p, root = _paint(ctl, 800, 600, None)
    first, _ = root.spans["top bar"]
    x0, y0, x1, y1, s, z = p.text_boxes[first]
    p.text_boxes[first] = (x0, y0 - 200, x1, y1 - 200, s, z)
    got = table_problems(root, p)
    assert len(got) == 1 and "leaves region 'top bar'" in got[0] and repr(s) in got[0]


@pytest.mark.ui
def test_the_window_clicks_through_its_tree_and_the_real_font_fits_too():
    """The window (headless, the real glyph atlas) at both sizes and both games: the table
    holds its layout, repaints keep the tree, a click on a card picks it through the tree, and
    the quit question's buttons (painted by the shared window code) are clicked through it too."""
    from hexwar.render import backend

    try:
        backend.configure(True)
        from hexwar.ui.lines_screen import LinesWindow
    except Exception as exc:  # pragma: no cover - no EGL on this machine
        pytest.skip(f"headless pyglet unavailable: {exc}")
    from pyglet.window import key

    for name in GAMES:
        st = _state(name, "declaration")
        win = LinesWindow(st, {}, None, width=1400, height=900, visible=False)
        try:
            found: list[str] = []
            for w, h in SIZES:
                win.view.resize(w, h)
                win.draw()
                root = win.view.root
                assert root is not None
                win.draw()
                assert win.view.root is root
                found += table_problems(root, win.view.painter, f"{name} window")
                found += layout_problems(win.view.painter, w, h, f"{name} window")
            assert not found, "\n".join(found[:20])
            ctl = win.ctl
            assert ctl is not None
            ctl.take_seat()
            win.draw()
            root = win.view.root
            cards = [k for c in root.children for k in c.children if isinstance(k, UnitCard)]
            card = next(k for k in cards if st.units[k.uid].seat == st.to_act)  # one of the seat's units
            win.press(*card.rect.centre)
            assert ctl.selected == card.uid
            win.key(key.Q, key.MOD_CTRL)  # a game at stake: the question, modal
            assert win.behaviour.asking
            win.draw()
            keep = next(b for b in win.view.painter.widgets if b.tip == "stay")
            hand_card = next(k for k in root.find_panel("hand").children if isinstance(k, HandCard))
            x, y = hand_card.rect.x + 3, hand_card.rect.y + 3  # under the shade, beside the question's box
            win.press(x, y)
            assert win.behaviour.asking and ctl.selected == card.uid  # nothing happened
            win.press(*keep.centre)
            assert not win.behaviour.asking and not win.behaviour.closed
        finally:
            win.window.close()


@pytest.mark.parametrize("name", GAMES)
def test_every_arrow_ends_on_its_attacker_s_and_its_target_s_card(name):
    """Fresh-user pass 2, item 2: in lines-4p at 800x600 the arrows of declared attacks ended
    in empty rows (their ends were taken at CARD_W x CARD_H from the centres, and the cards
    there are smaller). Each arrow's shaft (the first line of an arrow) starts on the
    attacker's card and ends on the target's, at both sizes, in every state of this file."""
    from hexwar.ui.lines_rows import Arrows

    for when, ctl in _controllers(name):
        for w, h in SIZES:
            p, root = _paint(ctl, w, h)
            rects = root.card_rects
            want = [
                (s, a.target)
                for a in root.v.attacks
                if not a.resolved and a.target in rects
                for s in a.attackers
                if s in rects
            ]
            if ctl.selected in rects and ctl.target in rects:
                want.append((ctl.selected, ctl.target))
            shafts: list[tuple[float, float, float, float]] = []

            def record(x0, y0, x1, y1, *a, _to=shafts, **k):
                _to.append((x0, y0, x1, y1))

            p.line = record  # type: ignore[method-assign]
            arrows = next(c for c in root.children if isinstance(c, Arrows))
            arrows.paint_self(p, 0)
            got = shafts[::3]  # a shaft and the two strokes of its head
            assert len(got) == len(want), (name, when, w, h)
            for (src, tgt), (x0, y0, x1, y1) in zip(want, got, strict=True):
                for uid, x, y in ((src, x0, y0), (tgt, x1, y1)):
                    r = rects[uid]
                    assert r.x - 6 <= x <= r.x1 + 6 and r.y - 6 <= y <= r.y1 + 6, (
                        name,
                        when,
                        w,
                        h,
                        uid,
                        r,
                        x,
                        y,
                    )
