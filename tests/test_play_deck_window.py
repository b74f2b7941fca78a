"""The play window's deck builder page (000 Standard Game Setup, R4.3), driven headless over EGL
as a person would: the keyboard alone (D, typing, Enter, Ctrl+Z, Tab to the button, Esc, Ctrl+Q)
and the mouse alone (the Build deck button, the search row, the deck list, Use this deck), each
ending in the game's own BuildDeck; hot-seat hands the screen over with the page closed.
The page's logic is tested without GL in tests/test_hex_deck_ui.py."""

from __future__ import annotations

import pytest
from play_window_helpers import key, press, window_for

pytestmark = pytest.mark.ui

from pyglet.window import mouse  # noqa: E402

from hexwar.game.commands import BuildDeck  # noqa: E402
from hexwar.game.scenario import find_scenario, load_scenario  # noqa: E402
from hexwar.game.state import card_of  # noqa: E402

SEED = 5
T, P = "de_tank_crew_regular", "de_pilot_regular"
DECK_A = ("de_pz_iv_h", T) * 3 + ("de_hs129b", P) * 2 + ("de_grenadiers",) * 3


@pytest.fixture(scope="module")
def standard():
    return load_scenario(find_scenario("standard"))


def _click_xy(win, x, y):
    win.dispatch_event("on_mouse_motion", x, y, 0, 0)
    win.dispatch_event("on_mouse_press", x, y, mouse.LEFT, 0)
    win.dispatch_event("on_mouse_release", x, y, mouse.LEFT, 0)


def _click_element(win, tip):
    e = win.deck_screen.root.find(tip)
    assert e is not None, f"no element {tip!r} on the deck page"
    _click_xy(win, e.rect.x + e.rect.w / 2, e.rect.y + e.rect.h / 2)


def _type(win, text):
    win.dispatch_event("on_text", text)


def _clear_field(win):
    f = win.deck_screen.focus
    for _ in range(len(f.text)):
        win.dispatch_event("on_text_motion", key.MOTION_BACKSPACE)


def test_the_keyboard_alone_builds_the_deck(standard):
    g = standard.new_game(SEED)
    win = window_for(g, ai={})
    try:
        texts = win.screen_texts()
        assert any(t.startswith("Your Reserves deck was dealt at random") for t in texts)
        press(win, key.D)
        assert win.deck_screen is not None and win.controller.deck_page is not None
        page = win.controller.deck_page
        assert win.deck_screen.focus is page.search.field  # typing searches at once
        for _ in range(len(page.builder.cards)):
            press(win, key.Z, key.MOD_CTRL)
        assert page.builder.cards == []
        for c in DECK_A:
            _clear_field(win)
            _type(win, c)
            press(win, key.ENTER)
        assert page.builder.cards == list(DECK_A)
        texts = win.screen_texts()
        assert "Points: 98  (limits 80-100: within the limits)" in texts
        # D, K and Space typed into the search field are text, not the play screen's keys
        _clear_field(win)
        _type(win, "dk ")
        press(win, key.K)
        assert page.search.field.text == "dk " and g.commands == []
        # Ctrl+Q asks over the page; Esc keeps playing, the page still open
        press(win, key.Q, key.MOD_CTRL)
        assert win.behaviour.asking and "Quit" in win.screen_texts()
        press(win, key.ESCAPE)
        assert not win.behaviour.asking and win.controller.deck_page is page
        # Tab to "Use this deck" and Enter presses it
        while win.deck_screen.focus is None or win.deck_screen.focus.tip != "use deck":
            press(win, key.TAB)
        press(win, key.ENTER)
        assert g.commands == [BuildDeck("german", DECK_A)]
        assert win.controller.deck_page is None and win.deck_screen is None
        texts = win.screen_texts()
        assert "Your Reserves deck: 13 cards, 98 points. Now pick your starting hand." in texts
        assert sorted(card_of(c) for c in win.controller.hand()[0]) == sorted(DECK_A)
    finally:
        win.close()


def test_the_mouse_alone_builds_the_deck_and_hot_seat_hands_over(standard):
    g = standard.new_game(SEED)
    win = window_for(g, ai={})
    try:
        build = next(w for w in win.widgets if w.tip.startswith("Build your own Reserves deck"))
        _click_xy(win, *build.centre)
        page = win.controller.deck_page
        assert page is not None
        deck = win.deck_screen.root.find("deck")
        while page.builder.cards:  # a click on the first deck row takes that card out
            _click_xy(win, deck.rect.x + 20, deck.rect.y1 - deck.row_h / 2)
        # a click on a row of the card list adds that card; the wheel scrolls to rows not shown
        lst = page.search.list
        for c in DECK_A:
            i = [r[0] for r in page.search.matches].index(c)
            x = lst.rect.x + 20
            for _ in range(10):
                if lst.offset <= i < lst.offset + lst.visible_rows:
                    break
                win.dispatch_event("on_mouse_scroll", x, lst.rect.y + 5, 0, 1 if i < lst.offset else -1)
            _click_xy(win, x, lst.rect.y1 - (i - lst.offset + 0.5) * lst.row_h)
        assert page.builder.cards == list(DECK_A), page.builder.cards
        _click_element(win, "use deck")
        assert g.commands == [BuildDeck("german", DECK_A)]
        # the German hand, then the hand-over screen: no page, no German cards on screen
        ctl = win.controller
        ctl.hand_pick = list(g.reserves["german"][:4])
        ctl.crew_warned = True
        ctl.confirm_hand()
        win.refresh()
        assert ctl.pass_to == "soviet" and win.deck_screen is None
        press(win, key.D)
        assert ctl.deck_page is None
        press(win, key.ENTER)  # the Soviet player takes the screen
        assert ctl.deck_question()
        press(win, key.D)
        assert ctl.deck_page is not None and ctl.deck_page.builder.side == "soviet"
        texts = win.screen_texts()
        assert not any("Pz.Kpfw. IV Ausf. H" in t for t in texts)
        press(win, key.ESCAPE)
        press(win, key.K)
        assert ctl.deck_page is None and not ctl.deck_question() and g.to_act == "soviet"
    finally:
        win.close()


def test_the_readme_screenshot_shows_a_deck_the_crew_rule_refuses():
    """``hexwar render standard --screen deck`` (README, docs/screenshots/deck.png): the page
    with 94 points and a tank crew short, as the README describes it; a fixed-deck scenario has
    no such page."""
    from hexwar.errors import HexwarError
    from hexwar.ui.clock import ManualClock
    from hexwar.ui.play_window import PlayWindow
    from hexwar.ui.render_state import _setup_window, game_for_screen

    st, ai = game_for_screen("standard", "deck")
    win = PlayWindow(st, ai=ai, width=1400, height=900, visible=False, schedule=False, clock=ManualClock())
    try:
        _setup_window(win, "deck")
        texts = win.screen_texts()
        assert "Points: 94  (limits 80-100: within the limits)" in texts
        assert "3 units need a tank crew and the deck has 2 (R4.1)" in texts
        assert "Tiger I  ·  vehicle  ·  Frontline  ·  24 pts" in texts  # the search row of the card drawn
    finally:
        win.close()
    k, ai = game_for_screen("kharkov", "deck")
    win = PlayWindow(k, ai=ai, width=1000, height=700, visible=False, schedule=False, clock=ManualClock())
    try:
        with pytest.raises(
            HexwarError, match="--screen deck needs a scenario whose German side builds a deck"
        ):
            _setup_window(win, "deck")
    finally:
        win.close()


def test_the_d_that_opens_the_page_is_not_typed_into_its_search(standard):
    """pyglet sends a key's text after the key: the ``d`` of the D that opens the page must
    not land in the focused search field (a fresh user saw "d" there, fresh7); the next key
    types as usual, and a page the Build deck button opened takes text at once."""
    g = standard.new_game(SEED)
    win = window_for(g, ai={})
    try:
        press(win, key.D)
        win.dispatch_event("on_text", "d")  # the same keystroke's text
        page = win.controller.deck_page
        assert page is not None and page.search.field.text == ""
        press(win, key.T)
        win.dispatch_event("on_text", "t")
        assert page.search.field.text == "t"
        press(win, key.ESCAPE)
        assert win.controller.deck_page is None
        build = next(w for w in win.widgets if w.tip.startswith("Build your own Reserves deck"))
        _click_xy(win, *build.centre)
        page = win.controller.deck_page
        assert page is not None
        win.dispatch_event("on_text", "x")  # typed text with no key event before it (an IME)
        assert page.search.field.text == "x"
    finally:
        win.close()


def test_the_hand_row_pages_with_its_arrow_buttons(standard):
    """The starting hand's row of 13-14 Reserves cards scrolls with < and > (item 6): a click
    on > shows the next cards, < the first again. The > button's closure once read the slice
    in view instead of the whole hand, so it paged nowhere (fresh7)."""
    g = standard.new_game(SEED)
    win = window_for(g, ai={}, size=(1400, 900))
    try:
        press(win, key.K)  # keep the dealt deck: the hand row of the whole Reserves deck

        def shown() -> list[str]:
            return [w.tip[5:] for w in win.widgets if w.tip.startswith("card ")]

        first = shown()
        deck = list(g.reserves["german"])
        assert first == deck[: len(first)] and len(first) < len(deck)
        right = next(w for w in win.widgets if w.tip == "hand right")
        _click_xy(win, *right.centre)
        win.refresh()
        assert shown() == deck[len(first) : 2 * len(first)]
        left = next(w for w in win.widgets if w.tip == "hand left")
        _click_xy(win, *left.centre)
        win.refresh()
        assert shown() == first
    finally:
        win.close()
