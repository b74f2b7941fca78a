"""One behaviour for every window (issue 36), headless over EGL: Ctrl+Q asks while something
would be lost and names the autosave, Esc cancels and never quits, H / F1 help, the title
carries the focused item, and the card table is played from the keyboard."""

from __future__ import annotations

import pytest

from hexwar.render import backend
from hexwar.ui.window_base import WINDOW_KINDS, WindowBehaviour, continue_command

pytestmark = pytest.mark.ui

try:
    backend.configure(True)
    from pyglet.window import key

    from hexwar.ui.lines_screen import LinesWindow
except Exception as exc:  # pragma: no cover - no EGL on this machine
    pytest.skip(f"headless pyglet unavailable: {exc}", allow_module_level=True)


def _behaviour(stake: bool, path=None) -> tuple[WindowBehaviour, list[str]]:
    closed: list[str] = []
    b = WindowBehaviour(
        "play", "hexwar", at_stake=lambda: stake, autosave=lambda: path, close=lambda: closed.append("x")
    )
    return b, closed


def test_the_shared_behaviour_asks_only_when_something_is_at_stake_and_esc_never_quits():
    b, closed = _behaviour(stake=False)
    assert b.key(key.ESCAPE, 0) == "cancel" and not closed  # Esc is the window's cancel
    assert b.key(key.H, 0) == "help" and b.key(key.F1, 0) == "help"
    assert b.key(key.H, 0, typing=True) is None  # typing an H into a field
    assert b.key(key.Q, key.MOD_CTRL) == "handled" and closed == ["x"]  # nothing lost: at once
    b, closed = _behaviour(stake=True, path="/tmp/g.json")
    b.key(key.Q, key.MOD_CTRL)
    assert b.asking and not closed
    assert b.key(key.SPACE, 0) == "handled" and b.asking  # the question is modal
    assert b.question() == (
        "Quit this game?",
        ["The game is saved in /tmp/g.json; `hexwar play /tmp/g.json` continues it."],
    )
    b.key(key.ESCAPE, 0)
    assert not b.asking and not closed
    b.key(key.Q, key.MOD_CTRL)
    b.key(key.ENTER, 0)
    assert closed == ["x"] and b.closed
    assert continue_command("campaign", "w.json") == "hexwar campaign w.json"
    assert set(WINDOW_KINDS) == {"play", "table", "campaign", "editor", "deck", "replay"}


def _table(tmp_path, save: bool = True) -> LinesWindow:
    from hexwar.lines.players import make_lines_player
    from hexwar.lines.render import lines_game_for

    st = lines_game_for("lines")  # turn 2, Declaration, the Soviet to act
    assert st.phase == "declaration" and st.to_act == "soviet"
    return LinesWindow(
        st,
        {"german": make_lines_player("standard", "german", st.seed)},
        str(tmp_path / "table.json") if save else None,
        width=1400,
        height=900,
        visible=False,
    )


def _texts(win: LinesWindow) -> str:
    win.draw()
    return "\n".join(win.view.painter.texts)  # type: ignore[union-attr]


def test_card_table_ctrl_q_asks_names_the_autosave_and_esc_keeps_playing(tmp_path):
    """Issue 36: Ctrl+Q quit a game in progress at once with no autosave."""
    from hexwar.game.save import load_game

    win = _table(tmp_path)
    try:
        assert win.key(key.Q, key.MOD_CTRL)
        assert win.behaviour.asking and win.window.context is not None
        t = _texts(win).replace("\n", " ")
        assert "Quit this game?" in t and f"`hexwar play {tmp_path / 'table.json'}` continues it" in t, t
        win.key(key.ESCAPE, 0)
        assert not win.behaviour.asking and win.window.context is not None
        win.key(key.ESCAPE, 0)  # Esc at the table cancels, never quits
        assert win.window.context is not None
        win.key(key.Q, key.MOD_CTRL)
        win.key(key.ENTER, 0)
        assert win.behaviour.closed and win.window.context is None
        assert load_game(tmp_path / "table.json").state_hash() == win.ctl.state.state_hash()  # type: ignore[union-attr]
    finally:
        if win.window.context is not None:
            win.window.close()


def test_card_table_keys_pick_hand_cards_own_units_and_targets_and_the_title_names_them(tmp_path):
    win = _table(tmp_path, save=False)
    ctl = win.ctl
    assert ctl is not None
    titles: list[str] = []
    win.window.set_caption = titles.append  # headless windows ignore captions: record them
    try:
        st = ctl.state
        win.key(key.BRACKETRIGHT, 0)
        assert ctl.selected == st.hand_units["soviet"][0]  # ] selects the first card in hand
        win.key(key.BRACKETLEFT, 0)
        assert ctl.selected == st.hand_commands["soviet"][-1]  # [ wraps to the last
        win.key(key.ESCAPE, 0)
        assert ctl.selected is None
        win.key(key.TAB, 0)
        mine = ctl.selected
        assert mine is not None and st.units[mine].seat == "soviet"
        win.key(key.T, 0)
        assert ctl.target is not None and st.units[ctl.target].side == "german"
        first = ctl.target
        legal = ctl.target_choices()  # R6.1: T visits the legal targets of the unit only
        assert first in legal
        win.key(key.T, 0)
        assert ctl.target in legal and (ctl.target != first) == (len(legal) > 1)  # the next one
        from hexwar.lines.rules import card

        title = win.behaviour.title()
        assert f"selected {card(mine).name}" in title and f"target {card(ctl.target).name}" in title, title
        assert titles[-1] == title
        win.key(key.H, 0)
        assert ctl.help
        win.key(key.ESCAPE, 0)
        assert not ctl.help and win.window.context is not None
    finally:
        win.window.close()


def test_deck_builder_window_esc_never_quits_and_quitting_an_unsaved_deck_asks(tmp_path):
    from hexwar.lines.deckbuilder import DeckBuilder
    from hexwar.ui.deck_builder import DeckBuilderWindow, DeckPage

    holder: dict[str, DeckBuilderWindow] = {}
    page = DeckPage(
        DeckBuilder("german"), str(tmp_path / "d.toml"), on_back=lambda: holder["w"].behaviour.request_quit(),
        back_label="Close",
    )  # fmt: skip
    win = holder["w"] = DeckBuilderWindow(page, "hexwar deck builder: german", visible=False)
    press = win.window.dispatch_event
    try:
        page.add_card("de_pz_iv_g")
        assert page.unsaved()
        press("on_key_press", key.ESCAPE, 0)
        assert win.window.context is not None and not win.behaviour.asking  # Esc never quits
        press("on_key_press", key.Q, key.MOD_CTRL)
        assert win.behaviour.asking
        t = " ".join(win.draw_texts())
        assert "Quit this deck?" in t and "is not saved" in t and "d.toml" in t, t
        press("on_key_press", key.ESCAPE, 0)  # keep editing
        assert not win.behaviour.asking and win.window.context is not None
        page.remove_last()  # back to the deck as opened (empty): nothing would be lost
        assert not page.unsaved()
        press("on_key_press", key.Q, key.MOD_CTRL)  # so no question
        assert win.behaviour.closed and win.window.context is None
    finally:
        if win.window.context is not None:
            win.window.close()


def test_every_reserves_card_is_reachable_in_the_800x600_setup(tmp_path):
    """Issue 36: at 800x600 the setup showed 6 of 14 Reserves cards with no way to the rest."""
    from hexwar.game.scenario import find_scenario, load_scenario

    st = load_scenario(find_scenario("lines")).new_game()
    seat = st.to_act
    assert st.phase == "setup" and len(st.reserves[seat]) == 14
    win = LinesWindow(st, {}, None, width=800, height=600, visible=False)
    try:
        seen: set[str] = set()
        for _ in range(6):  # mouse only: the Next button pages on
            win.draw()
            boxes = win.view.painter.widgets  # type: ignore[union-attr]
            seen |= {b.tip.split(" ", 1)[1] for b in boxes if b.tip.startswith("reserve ")}
            nxt = [b for b in boxes if b.tip == "reserves next" and b.action is not None]
            if not nxt:
                break
            nxt[0].action()
        assert seen == set(st.reserves[seat])
        for b in win.view.painter.widgets:  # type: ignore[union-attr]
            assert 0 <= b.x and b.x + b.w <= 800 and 0 <= b.y and b.y + b.h <= 600, b.tip
        ctl = win.ctl
        assert ctl is not None
        ctl.card_cursor = None
        for _ in range(14):  # keyboard only: ] steps over all of them, S picks
            win.key(key.BRACKETRIGHT, 0)
        assert ctl.card_cursor == 13
        win.key(key.S, 0)
        assert ctl.picks == [sorted(st.reserves[seat])[13]]
    finally:
        win.window.close()
