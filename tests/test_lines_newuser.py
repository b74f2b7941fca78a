"""What the fresh-user pass of the card table (R11.1) found, one test per finding: a mouse-only
player can leave through a Quit button, the quit question is drawn over the hand-over screen,
T visits only legal targets, Tab reaches every unit of a 4-player seat, ..."""

from __future__ import annotations

import pytest
from test_lines_layout import SIZES, FakeAtlas, _state

from hexwar.lines.table import TableController
from hexwar.ui.lines_layout import table_layout
from hexwar.ui.widgets import Button, Painter, top_hit


def _paint(ctl: TableController, w: float, h: float, root=None, side_panel: bool = True):
    p = Painter(FakeAtlas())
    root = table_layout(ctl, w, h, side_panel=side_panel, root=root)
    root.paint(p)
    return p, root


def _window(st, w: int = 1400, h: int = 900):
    """A hidden card-table window on ``st`` (headless pyglet through EGL), or a skip."""
    from hexwar.render import backend

    try:
        backend.configure(True)
        from hexwar.ui.lines_screen import LinesWindow
    except Exception as exc:  # pragma: no cover - no EGL on this machine
        pytest.skip(f"headless pyglet unavailable: {exc}")
    return LinesWindow(st, {}, None, width=w, height=h, visible=False)


# -- item 1: a Quit button ------------------------------------------------------------------
@pytest.mark.parametrize("name", ("lines", "lines-4p"))
def test_the_top_bar_has_help_and_quit_buttons_that_a_click_reaches(name):
    """A mouse-only player leaves through the top bar's Quit button (the window's quit, which
    asks while a game goes on), also behind the hand-over screen; Help opens the keys. The
    replay viewer's table (no side panel) has neither."""
    st = _state(name, "declaration")
    ctl = TableController(st, ai={})
    ctl.take_seat()
    for w, h in SIZES:
        for passing in (None, st.to_act):
            ctl.passing = passing
            quits: list[int] = []
            p, root = _paint(ctl, w, h)
            root.on_quit = lambda: quits.append(1)
            bar = root.find_panel("top bar")
            btns = {b.tip: b for b in bar.children if isinstance(b, Button)}
            assert set(btns) == {"help", "quit"}, (w, h)
            box = top_hit(p.widgets, *btns["quit"].rect.centre)
            assert box is not None and box.tip == "quit"  # nothing drawn over it
            assert root.press(*btns["quit"].rect.centre) and quits == [1]
            if passing is None:
                assert root.press(*btns["help"].rect.centre) and ctl.help
                ctl.help = False
    ctl.passing = None
    _, root = _paint(ctl, 1400, 900, side_panel=False)
    assert not root.find_panel("top bar").children


@pytest.mark.ui
def test_the_quit_button_asks_the_window_s_quit_question():
    st = _state("lines", "declaration")
    win = _window(st)
    try:
        win.ctl.take_seat()
        win.draw()
        quit_btn = next(b for b in win.view.root.find_panel("top bar").children if b.tip == "quit")
        win.press(*quit_btn.rect.centre)
        assert win.behaviour.asking and not win.behaviour.closed  # the game is at stake: it asks
        win.draw()
        assert any(b.tip == "quit_now" for b in win.view.painter.widgets)
    finally:
        win.window.close()


# -- item 4: the quit question over the hand-over screen -------------------------------------
@pytest.mark.ui
def test_the_quit_question_is_drawn_above_the_4_player_hand_over_screen():
    """Ctrl+Q behind the 4-player hand-over screen: the question's box and texts lie on a level
    above every text of the hand-over screen (on the same level the screen's texts, drawn after
    every shape of the level, showed through the question's box)."""
    from pyglet.window import key

    st = _state("lines-4p", "declaration")
    win = _window(st)
    try:
        win.ctl.passing = st.to_act
        win.key(key.Q, key.MOD_CTRL)
        assert win.behaviour.asking
        win.draw()
        p = win.view.painter
        title = win.behaviour.question()[0]
        q_z = next(b[5] for b in p.text_boxes if b[4] == title)
        pass_z = {b[5] for b in p.text_boxes if b[4].startswith(("Hand the screen to", "I am "))}
        assert pass_z and max(pass_z) < q_z, (pass_z, q_z)
        stay = next(b for b in p.widgets if b.tip == "stay")
        assert top_hit(p.widgets, *stay.centre) is stay
        win.press(*stay.centre)
        assert not win.behaviour.asking and win.ctl.passing == st.to_act  # still handing over
    finally:
        win.window.close()

