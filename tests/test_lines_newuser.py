"""What the fresh-user pass of the card table (R11.1) found, one test per finding: a mouse-only
player can leave through a Quit button, the quit question is drawn over the hand-over screen,
T visits only legal targets, Tab reaches every unit of a 4-player seat, ..."""

from __future__ import annotations

from functools import partial

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
            root.on_quit = partial(quits.append, 1)
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
    st = _state("lines-4p", "declaration")
    win = _window(st)
    from pyglet.window import key  # after the headless backend is configured

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


# -- item 2: hexwar play --size WxH -----------------------------------------------------------
def test_hexwar_play_size_reaches_the_card_table_and_the_hex_window(tmp_path, monkeypatch):
    """``hexwar play lines --size 800x600`` opens the card table at 800x600 (the editor's
    ``--size`` parser: a bad size is one sentence and exit status 1, no window); the hex window
    takes the same option."""
    from pathlib import Path

    from click.testing import CliRunner

    from hexwar.cli import cli, terminal
    from hexwar.cli import game as cli_game
    from hexwar.errors import HexwarError
    from hexwar.ui import lines_screen, play_window

    monkeypatch.setenv("HEXWAR_AUTOSAVE_DIR", str(tmp_path))
    seen: list[dict] = []
    monkeypatch.setattr(lines_screen, "run", lambda **kw: seen.append(kw))
    monkeypatch.setattr(play_window, "run", lambda **kw: seen.append(kw))
    monkeypatch.setattr(cli_game, "_no_display", lambda: False)
    monkeypatch.setattr(terminal, "_no_display", lambda: False)
    save = str(tmp_path / "g.json")
    r = CliRunner().invoke(cli, ["play", "lines", "--size", "800x600", "--save", save])
    assert r.exit_code == 0, r.output
    assert seen[-1]["size"] == (800, 600)
    r = CliRunner().invoke(cli, ["play", "lines", "--save", save])
    assert r.exit_code == 0 and "size" not in seen[-1]
    hexgame = str(Path(__file__).parent / "data" / "game_tiny.toml")
    r = CliRunner().invoke(cli, ["play", hexgame, "--size", "1024x700"])
    assert r.exit_code == 0, r.output
    assert seen[-1]["size"] == (1024, 700)
    n = len(seen)
    for bad in ("800", "100x100", "800x600x2"):
        r = CliRunner().invoke(cli, ["play", "lines", "--size", bad])
        msg = str(r.exception)
        assert isinstance(r.exception, HexwarError) and msg.startswith(f"--size {bad!r}"), msg
        assert "WIDTHxHEIGHT in points" in msg or "320..8192 points" in msg
    r = CliRunner().invoke(cli, ["play", "lines", "--headless", "--size", "800x600"])
    assert isinstance(r.exception, HexwarError) and "--headless" in str(r.exception)
    assert len(seen) == n  # no window for a bad size


def test_the_card_table_s_run_opens_its_window_at_the_size_asked(tmp_path, monkeypatch):
    """``lines_screen.run(size=...)`` makes the window that size (no larger than the screen)."""
    import pyglet

    from hexwar.game.scenario import find_scenario, load_scenario
    from hexwar.ui import lines_screen, play_session

    made: list[tuple[int, int]] = []
    monkeypatch.setattr(lines_screen, "LinesWindow", lambda *a, **k: made.append((k["width"], k["height"])))
    monkeypatch.setattr(pyglet.app, "run", lambda *a, **k: None)
    monkeypatch.setattr(play_session, "size_for_screen", lambda w=1400, h=900: (min(w, 1000), min(h, 700)))
    sc = load_scenario(find_scenario("lines"))
    lines_screen.run(sc, save=str(tmp_path / "a.json"), size=(800, 600))
    lines_screen.run(sc, save=str(tmp_path / "b.json"))
    assert made == [(800, 600), (1000, 700)]


# -- items 5 and 6: T visits legal targets only; Tab reaches every unit that may declare -------
def _declaration_turns(name: str, seed: int = 5, turns: int = 4):
    """Every decision of a Declaration Phase in a game of ``name`` the computer plays (seed
    ``seed``) up to turn ``turns``: yields the state before each declaration decision."""
    from hexwar.game.scenario import find_scenario, load_scenario
    from hexwar.lines.ai import LinesAI

    st = load_scenario(find_scenario(name)).new_game(seed=seed)
    ai = {s: LinesAI(s, st.seed) for s in st.seats}
    while not st.over and st.turn <= turns:
        if st.phase == "declaration":
            yield st
        st.apply(ai[st.to_act].choose(st))


@pytest.mark.parametrize("name", ("lines", "lines-4p"))
def test_t_visits_exactly_the_legal_targets_of_the_selected_unit(name):
    """R6.1: T steps through the targets the selected unit may legally declare on (a
    declaration, or a Close Assault it may join), each once, and through nothing else; with
    no unit selected it picks nothing and says why."""
    from hexwar.lines.commands import Declare, DeclareCloseAssault

    checked = 0
    for st in _declaration_turns(name):
        legal = st.legal_commands()
        ctl = TableController(st, ai={})
        ctl.take_seat()
        assert ctl.next_target() is None and ctl.target is None and "T then" in ctl.message
        for u in sorted(x for x, unit in st.units.items() if unit.seat == st.to_act and unit.crewing is None):
            want = {c.target for c in legal if isinstance(c, Declare) and c.unit == u}
            want |= {c.target for c in legal if isinstance(c, DeclareCloseAssault) and u in c.units}
            ctl.selected, ctl.target = u, None
            seen = [ctl.next_target() for _ in range(len(want) + 1)]
            if want:
                assert set(seen) == want and len(set(seen[:-1])) == len(want) and seen[-1] == seen[0]
                assert ctl.target == seen[-1]
                checked += 1
            else:
                assert seen == [None] and "no legal target" in ctl.message
    assert checked >= 5


def test_tab_reaches_every_unit_of_a_4_player_seat_that_may_still_declare():
    """4 players, the German Frontline Commander declares with the unit Tab selects, again and
    again: Tab lands on a unit that may still declare each time, so every unit gets its
    attack (the first Tab after a declaration once selected the unit that had just declared)."""
    from hexwar.lines.commands import Declare

    for st in _declaration_turns("lines-4p", turns=3):
        if st.to_act == "german-front" and st.turn == 3:
            break
    else:  # pragma: no cover - the seeded game
        raise AssertionError("seed 5: german-front declares in turn 3")
    ctl = TableController(st, ai={})
    ctl.take_seat()
    own = sorted(u for u, x in st.units.items() if x.seat == "german-front" and x.crewing is None)
    assert len(own) >= 3
    declared: list[str] = []
    while st.to_act == "german-front" and st.phase == "declaration":
        u = ctl.next_unit()
        ds = [c for c in st.legal_commands() if isinstance(c, Declare) and c.unit == u]
        if not ds:
            break
        assert u not in declared
        assert ctl.issue(ds[0])
        declared.append(u)
    can = {c.unit for c in st.legal_commands() if isinstance(c, Declare)}
    assert len(declared) >= 3 and not can, (declared, can)


# -- item 7: the computer's attacks resolved one by one ---------------------------------------
def _resolution(seed: int, turn: int):
    """The computer-played game of ``lines`` (seed ``seed``) at the start of turn ``turn``'s
    Resolution Phase."""
    from hexwar.game.scenario import find_scenario, load_scenario
    from hexwar.lines.ai import LinesAI

    st = load_scenario(find_scenario("lines")).new_game(seed=seed)
    ai = {s: LinesAI(s, st.seed) for s in st.seats}
    while not (st.turn == turn and st.phase == "resolution"):
        st.apply(ai[st.to_act].choose(st))
    return st


def test_r_and_space_never_act_for_a_computer_seat():
    """R (or Space) while the computer is to act in the Resolution Phase resolved the
    computer's attack for it; now a person's keys act only for a person's seat."""
    from hexwar.lines.ai import LinesAI

    st = _resolution(6, 3)  # soviet (the computer here) resolves first
    assert st.to_act == "soviet"
    ctl = TableController(st, ai={"soviet": LinesAI("soviet", st.seed)})
    n = len(st.log)
    for intent in ("resolve", "end_phase", "confirm"):
        ctl.key(intent)
    assert len(st.log) == n and st.to_act == "soviet"


@pytest.mark.ui
def test_the_computer_s_resolutions_are_shown_one_by_one():
    """Seed 6, turn 3: the Soviet computer resolves 4 attacks, the German person 2 (R6.2:
    alternating, the Soviets first, their last two in a row). After each of the computer's
    resolutions (pass 2, item 3: also when the person acts next; it went by unnamed), and
    after the person's, the next decision waits RESOLVE_PAUSE
    seconds of ticks (the arrow stays, the prompt names the attack, a Next button shows), or
    until Space: one click on Resolve no longer shows the computer's next result with it."""
    from hexwar.lines.ai import LinesAI
    from hexwar.lines.commands import Resolve
    from hexwar.ui.lines_actions import table_buttons
    from hexwar.ui.lines_screen import RESOLVE_PAUSE

    st = _resolution(6, 3)
    win = _window(st)
    from pyglet.window import key  # after the headless backend is configured

    try:
        win.ctl.ai = {"soviet": LinesAI("soviet", st.seed)}
        ctl = win.ctl
        shown: list[int] = []
        spaced = False
        held_ai = 0
        while st.phase == "resolution" and not st.over:
            if ctl.human_to_act() and not ctl.held():
                assert ctl.resolve() and ctl.watching is not None
                shown.append(ctl.watching)
                if st.to_act != "soviet" or st.phase != "resolution":
                    continue  # the person's own resolution, the person acting next: it stays shown
            else:
                win.tick(0.25)
                assert isinstance(ctl.last_ai, Resolve) and ctl.watching == ctl.last_ai.number
                shown.append(ctl.watching)
                held_ai += 1  # pass 2, item 3: held whoever acts next (the person too)
            n = len(st.log)
            for _ in range(int(RESOLVE_PAUSE / 0.25) - 1):  # the pause: nothing happens
                win.tick(0.25)
            assert len(st.log) == n and ctl.watching == shown[-1] and ctl.held()
            assert f"attack #{shown[-1]}" in ctl.prompt() and "Space or Next goes on" in ctl.prompt()
            assert [b.tip for b in table_buttons(ctl)] == ["go on"]
            win.draw()
            assert any(b.tip == "go on" for b in win.view.painter.widgets)
            if not spaced or ctl.human_to_act():  # Space goes on at once (and acts for nobody)
                win.key(key.SPACE, 0)
                assert ctl.watching is None and len(st.log) == n
                spaced = True
            # else the pause ends with the next tick, which makes the computer's next decision
        assert len(shown) == 6 and spaced and held_ai == 4  # 4 Soviet, 2 German
    finally:
        win.window.close()


# -- item 9: odds in the Resolution Phase and for a Close Assault -----------------------------
def _texts(ctl: TableController, w: float = 1400, h: float = 900) -> list[str]:
    p, root = _paint(ctl, w, h)
    a, b = root.spans["side panel"]
    return [t[4] for t in p.text_boxes[a:b]]


def test_the_resolution_phase_shows_the_exact_odds_of_the_attack_r_resolves():
    """R6 / R6.2: in the Resolution Phase the side panel shows the exact odds of the attack R
    resolves (the person's first unresolved one, with its Command cards), as bars, and with
    the offered Command-card bonus once B offers one (R1.3)."""
    from hexwar.lines.odds import declare_odds

    st = _resolution(6, 3)
    ctl = TableController(st, ai={})
    n, odds = ctl.resolution_odds()
    a = st.attacks[n]
    assert (
        a.seat == st.to_act
        and not a.resolved
        and n == min(k for k, x in st.attacks.items() if x.seat == st.to_act and not x.resolved)
    )
    assert odds == declare_odds(
        st, a.attackers[0], a.target, tuple(a.weapons), a.at_crew, tuple(a.command_cards)
    )
    for w, h in SIZES:
        texts = _texts(ctl, w, h)
        assert f"Odds of attack #{n} (exact; R resolves it)" in texts, (w, h)
        assert "Destroyed" in texts and f"{100 * odds.miss:.1f}%" in texts
    if st.hand_commands.get(st.to_act):
        ctl.offer_bonus()
        n2, with_bonus = ctl.resolution_odds()
        assert n2 == n and with_bonus == declare_odds(
            st, a.attackers[0], a.target, tuple(a.weapons), a.at_crew, tuple(a.command_cards), True
        )
        assert with_bonus.hit >= odds.hit
    ctl.ai = {st.to_act: object()}  # a computer's turn: no odds for it
    assert ctl.resolution_odds() is None


def test_a_close_assault_shows_its_exact_odds_before_declaring():
    """000 Close Assault: with an infantry unit and an enemy Frontline vehicle picked, the side
    panel shows the exact odds of the Close Assault A would declare (the selected infantry and
    every other Frontline infantry that may join) as bars, at both window sizes."""
    from hexwar.game.scenario import find_scenario, load_scenario
    from hexwar.lines.ai import LinesAI
    from hexwar.lines.commands import DeclareCloseAssault
    from hexwar.lines.odds import close_assault_line_odds

    st = load_scenario(find_scenario("lines")).new_game(seed=6)
    ai = {s: LinesAI(s, st.seed) for s in st.seats}
    while not any(isinstance(c, DeclareCloseAssault) for c in st.legal_commands()):
        st.apply(ai[st.to_act].choose(st))
    ca = max(
        (c for c in st.legal_commands() if isinstance(c, DeclareCloseAssault)),
        key=lambda c: (len(c.units), c.units),
    )
    ctl = TableController(st, ai={})
    ctl.click(ca.units[0])
    ctl.click(ca.target)
    assert ctl.target == ca.target and ctl.close_assault_choice() == ca
    want = close_assault_line_odds(st, ca.units, ca.target)
    assert ctl.close_assault_odds() == want
    for w, h in SIZES:
        texts = _texts(ctl, w, h)
        assert f"Close Assault (A), {len(ca.units)} infantry (exact)" in texts, (w, h, texts[:12])
        assert f"{100 * want.destroyed:.1f}%" in texts
    assert ctl.close_assault() and any(a.close_assault for a in st.attacks.values())


# -- item 10: a new game deals with a new seed ------------------------------------------------
def _dealt(st) -> tuple:
    return tuple(sorted((s, tuple(sorted(st.reserves.get(s, [])))) for s in st.seats))


def test_the_start_page_shows_the_seed_and_s_deals_with_a_new_one():
    """R1.2: Start deals with the scenario's seed (or --seed), shown on the page; S (New seed)
    steps to :func:`next_seed` of it, a fixed function of the seed, and the game dealt then
    has other Reserves decks."""
    from hexwar.game.scenario import find_scenario, load_scenario
    from hexwar.ui.lines_start import LinesStart, next_seed
    from hexwar.ui.widgets import MonoMeasure

    sc = load_scenario(find_scenario("lines"))
    start = LinesStart(sc, {"soviet": "standard"}, MonoMeasure())
    assert start.game_seed() == sc.seed == 1943
    start.screen.root.refresh()
    assert "Seed 1943: `--seed 1943` deals the same again" in start.screen.root.hint.text
    first = _dealt(start.begin())
    start = LinesStart(sc, {"soviet": "standard"}, MonoMeasure())
    start.screen.key_press(ord("s"), 0)
    assert start.game_seed() == next_seed(1943) != 1943
    start.screen.root.refresh()
    assert f"Seed {next_seed(1943)}:" in start.screen.root.hint.text
    st = start.begin()
    assert st.seed == next_seed(1943) and _dealt(st) != first
    assert next_seed(next_seed(1943)) not in (1943, next_seed(1943))


def test_a_new_window_game_follows_the_last_autosaved_game_s_seed(tmp_path, monkeypatch):
    """``hexwar play lines`` without --seed after a game of the scenario: the window's new
    game gets the seed after that game's (its autosave says which), not the scenario's again."""
    import pyglet

    from hexwar.game.save import write_save
    from hexwar.game.scenario import find_scenario, load_scenario
    from hexwar.ui import lines_screen, play_session
    from hexwar.ui.lines_start import next_seed

    monkeypatch.setattr(play_session, "size_for_screen", lambda w=1400, h=900: (w, h))  # no display asked
    monkeypatch.setenv("HEXWAR_AUTOSAVE_DIR", str(tmp_path))
    made: list = []
    monkeypatch.setattr(lines_screen, "LinesWindow", lambda *a, **k: made.append(k.get("seed")))
    monkeypatch.setattr(pyglet.app, "run", lambda *a, **k: None)
    sc = load_scenario(find_scenario("lines"))
    lines_screen.run(sc, save=str(tmp_path / "x.json"))
    assert made == [None]  # no game before: the scenario's seed
    st = sc.new_game(seed=77)
    write_save(st, tmp_path / "lines-lines-20260101-000000.json", {"german": "human", "soviet": "standard"})
    lines_screen.run(sc, save=str(tmp_path / "y.json"))
    lines_screen.run(sc, save=str(tmp_path / "z.json"), seed=5)  # --seed wins
    assert made == [None, next_seed(77), 5]


@pytest.mark.ui
def test_after_a_game_ends_new_game_deals_with_the_next_seed():
    """At the end of a game the table offers New game (N): the start page comes back with the
    seed after the finished game's, and Start deals other decks with it."""
    from hexwar.game.scenario import find_scenario, load_scenario
    from hexwar.lines.ai import LinesAI
    from hexwar.ui.lines_actions import table_buttons
    from hexwar.ui.lines_start import next_seed

    st = load_scenario(find_scenario("lines")).new_game(seed=6)
    ai = {s: LinesAI(s, st.seed) for s in st.seats}
    while not st.over:
        st.apply(ai[st.to_act].choose(st))
    win = _window(st)
    from pyglet.window import key  # after the headless backend is configured

    try:
        assert [b.tip for b in table_buttons(win.ctl)] == ["new game"]
        assert "N (New game)" in win.ctl.prompt()
        win.draw()
        win.key(key.N, 0)
        assert win.ctl is None and win.start is not None
        assert win.start.game_seed() == next_seed(6)
        win.draw()
        win.key(key.ENTER, 0)
        assert win.ctl is not None and win.ctl.state.seed == next_seed(6)
        assert _dealt(win.ctl.state) != _dealt(load_scenario(find_scenario("lines")).new_game(seed=6))
    finally:
        win.window.close()


# -- item 8: every button keeps its place ------------------------------------------------------
def _declaring(st) -> list[TableController]:
    """The Declaration Phase of ``st``: nothing picked, each unit that may declare picked, and
    with its first legal target."""
    out = [TableController(st, ai={})]
    for u in out[0].unit_choices():
        for with_target in (False, True):
            ctl = TableController(st, ai={})
            ctl.selected = u
            if with_target:
                ctl.next_target()
            out.append(ctl)
    return out


def _button_states():
    """Controllers in the phases a person meets, each with what they may have picked."""
    from hexwar.game.scenario import find_scenario, load_scenario
    from hexwar.lines.ai import LinesAI

    out = []
    st = _state("lines", "commitment")
    ctl = TableController(st, ai={})
    out.append(ctl)
    for c in [*st.hand_units.get(st.to_act, []), *st.hand_commands.get(st.to_act, [])]:
        ctl = TableController(st, ai={})
        ctl.click(c)
        out.append(ctl)
    for when in ("declaration", "late"):
        out += _declaring(_state("lines", when))
    st = load_scenario(find_scenario("lines")).new_game(seed=6)  # turn 3: a squad of 3 weapons declares
    ai = {s: LinesAI(s, st.seed) for s in st.seats}
    while not (st.turn == 3 and st.phase == "declaration"):
        st.apply(ai[st.to_act].choose(st))
    out += _declaring(st)
    out.append(TableController(_resolution(6, 3), ai={}))
    st = load_scenario(find_scenario("lines")).new_game(seed=6)
    ai = {s: LinesAI(s, st.seed) for s in st.seats}
    while st.phase != "draw":
        st.apply(ai[st.to_act].choose(st))
    out.append(TableController(st, ai={}))
    return out


def test_every_button_keeps_its_place_in_every_phase():
    """A button stands in the same place (its top-left corner) whatever the phase and the
    selection, at both window sizes: End phase, Bonus and Play card no longer move when the
    weapons, Close Assault or Next way come and go (they were laid out one after another)."""
    from hexwar.ui.lines_actions import SLOTS

    states = _button_states()
    for w, h in SIZES:
        seen: dict[str, set[tuple[float, float]]] = {}
        for ctl in states:
            _, root = _paint(ctl, w, h)
            for b in root.find_panel("side panel").children:
                if isinstance(b, Button):
                    seen.setdefault(b.tip, set()).add((round(b.rect.x, 1), round(b.rect.y1, 1)))
        assert {"commit", "declare", "resolve", "end phase", "bonus", "weapon 1", "weapon 2"} <= set(seen), (
            seen
        )
        assert set(seen) <= set(SLOTS)
        moved = {t: xs for t, xs in seen.items() if len(xs) > 1}
        assert not moved, (w, h, moved)
        # the main action of every phase stands in one place
        mains = {xs.pop() for t, xs in seen.items() if SLOTS[t] in ((0, 0), (0, None))}
        assert len(mains) == 1, mains


# -- item 3: card texts shortened with an ellipsis, never cut silently ------------------------
def test_card_texts_are_shortened_with_an_ellipsis_or_announced_never_cut():
    """A Command card's title of three lines ends its second with "…" (the third was dropped);
    a fanned card's name is shortened to where the next card covers it (it was left out); a
    card with room for one weapon row of two says "+1 more" in its heading (the second was
    dropped); a card with no room for its table names the weapons' count in its second row; a
    damaged card squeezed below its strips keeps them under its header (the Damage card's
    title only);
    a unit in play, selected, has its weapons listed in full in the side panel."""
    from hexwar.lines.rules import card
    from hexwar.ui.card_face import paint_paper_card, paint_unit_card, unit_card_height
    from hexwar.ui.widgets import ELLIPSIS

    p = Painter(FakeAtlas())
    paint_paper_card(p, "command", "A very long Command card title indeed", ["x"], 0, 0, 110, 126)
    titles = [t[4] for t, size in zip(p.text_boxes, p.text_sizes, strict=True) if size == 12.0]
    assert len(titles) == 2 and titles[1].endswith(ELLIPSIS), titles

    pz = card("de_pz_iv_h")  # Pz.Kpfw. IV Ausf. H: two weapons
    p = Painter(FakeAtlas())
    paint_unit_card(p, pz, 0, 0, 236, 120, clip_x=120)  # fanned: the next card covers it from x = 120
    name = next(t for t in p.text_boxes if t[4].startswith("Pz"))
    assert name[4].endswith(ELLIPSIS) and name[2] <= 120, name

    h_one_row = unit_card_height(pz) - 13  # room for the heading and one weapon row
    p = Painter(FakeAtlas())
    paint_unit_card(p, pz, 0, 0, 236, h_one_row)
    texts = [t[4] for t in p.text_boxes]
    assert "Armament (+1 more)" in texts and "7.5 cm KwK 40 L/48" in texts, texts

    p = Painter(FakeAtlas())
    paint_unit_card(p, pz, 0, 0, 236, 22 + 16 + 8)  # header and second row only
    texts = [t[4] for t in p.text_boxes]
    assert "Frontline, 2 weapons" in texts, texts

    from hexwar.ui.card_face import HEAD_H, InPlay

    p = Painter(FakeAtlas())  # a damaged card squeezed to 48 points: its strips stay under the header
    ip = InPlay(7, "Panzer crew (regular)", ("Turret Jammed", "Turret Jammed: -2 to its attack rolls", 1))
    paint_unit_card(p, pz, 0, 0, 236, 48, in_play=ip)
    header = [t for t in p.text_boxes if t[4] in ("6", "15") or t[4].startswith("Pz")]
    others = [t for t in p.text_boxes if t not in header]
    assert others and all(t[3] <= 48 - HEAD_H + 1 for t in others), others

    st = _state("lines", "declaration")
    ctl = TableController(st, ai={})
    ctl.selected = next(u for u in sorted(st.units) if st.units[u].crewing is None)
    texts = _texts(ctl)
    c = card(ctl.selected)
    assert f"Selected: {c.name}" in texts
    assert any(t.startswith(f"1. {c.weapons[0].name}") for t in texts), texts


# -- fresh-user pass 2 ------------------------------------------------------------------------
def _supply_run_draw() -> TableController:
    """The Draw Phase of seed 6 after a Supply Run (R5.5, command.toml: a Draw effect of +2,
    kept in ``state.pending`` as the card's play does): five ways of drawing."""
    from hexwar.game.scenario import find_scenario, load_scenario
    from hexwar.lines.ai import LinesAI

    st = load_scenario(find_scenario("lines")).new_game(seed=6)
    ai = {s: LinesAI(s, st.seed) for s in st.seats}
    while st.phase != "draw":
        st.apply(ai[st.to_act].choose(st))
    st.pending.setdefault(st.to_act, {})["draw"] = 2
    return TableController(st, ai={})


def test_no_two_buttons_overlap_in_any_phase_even_after_supply_run():
    """Pass 2, item 1: after Supply Run the fourth and fifth ways of drawing fell into the
    third's slot ("Draw 2 Command + 3 Reserves" under "Draw 1 Command + 4 Reserves": a click
    drew 1 + 4); no two clickable buttons of the side panel overlap, in every phase, at both
    sizes, and the prompt counts the cards of the way Space draws."""
    ctl = _supply_run_draw()
    assert len(ctl.draw_options()) == 5
    assert ctl.choice_text().startswith("Space draws "), ctl.choice_text()
    assert "Command + Command" not in ctl.choice_text() and "Reserves" in ctl.choice_text()
    for w, h in SIZES:
        for c in [*_button_states(), ctl]:
            _, root = _paint(c, w, h)
            bs = [b for b in root.find_panel("side panel").children if isinstance(b, Button)]
            for i, a in enumerate(bs):
                for b in bs[i + 1 :]:
                    ox = min(a.rect.x1, b.rect.x1) - max(a.rect.x, b.rect.x)
                    oy = min(a.rect.y1, b.rect.y1) - max(a.rect.y, b.rect.y)
                    assert ox <= 0.5 or oy <= 0.5, (w, h, str(c.state.phase), a.tip, b.tip)
        p, root = _paint(ctl, w, h)
        draws = [b for b in root.find_panel("side panel").children if b.tip.startswith("draw ")]
        assert len(draws) == 5
        for b in draws:  # what the painter shows on top at each way's button is that way
            x, y = b.rect.x + b.rect.w / 2, b.rect.y + b.rect.h / 2
            assert top_hit(p.widgets, x, y).tip == b.tip


def test_every_weapon_of_the_unit_is_offered_and_two_fire_at_most():
    """Pass 2, item 5: only a unit's first two weapons had buttons and keys (``ws[:2]``): the
    Pioneer's Kar 98k, the Panzergrenadier's MP 40 were never offered. R6.1: any weapons that
    can affect the target, up to two: all three have a button and a key (1 / 2 / 3); a third
    chosen beside two is refused with the rule's reason."""
    from hexwar.game.scenario import find_scenario, load_scenario
    from hexwar.lines.ai import LinesAI
    from hexwar.lines.rules import card
    from hexwar.lines.table import TABLE_KEYS

    st = load_scenario(find_scenario("lines")).new_game(seed=6)  # turn 3: a squad of 3 weapons declares
    ai = {s: LinesAI(s, st.seed) for s in st.seats}
    while not (st.turn == 3 and st.phase == "declaration"):
        st.apply(ai[st.to_act].choose(st))
    ctl = TableController(st, ai={})
    three = [u for u in ctl.unit_choices() if len(card(u).weapons) == 3]
    assert three, "seed 6, turn 3: a unit of three weapons may declare"
    ctl.selected = three[0]
    ctl.next_target()
    for w, h in SIZES:
        _, root = _paint(ctl, w, h)
        tips = {b.tip for b in root.find_panel("side panel").children if isinstance(b, Button)}
        assert {"weapon 1", "weapon 2", "weapon 3"} <= tips, tips
    assert TABLE_KEYS[ord("3")] == "weapon_3"
    ctl.weapons = ()
    ctl.key("weapon_3")
    assert ctl.weapons == (2,)
    ctl.key("weapon_1")
    ctl.key("weapon_2")  # a third beside two: refused
    assert ctl.weapons == (0, 2) and "at most 2 weapons (R6.1)" in ctl.message, ctl.message
    ctl.key("weapon_3")
    assert ctl.weapons == (0,)


def test_a_computer_s_resolution_is_held_before_a_person_acts_and_before_the_hand_over():
    """Pass 2, item 3, in lines-4p (two German persons at one screen, the Soviet seats the
    computer's, seed 5): every Soviet resolution is held (:meth:`TableController.held`, the
    prompt names it) whoever acts next, and when a person acts next the hand-over screen comes
    only after it (it was drawn over the resolution at once); Space (end_phase) goes on and
    acts for nobody."""
    from hexwar.game.scenario import find_scenario, load_scenario
    from hexwar.lines.ai import LinesAI
    from hexwar.lines.commands import Resolve

    st = load_scenario(find_scenario("lines-4p")).new_game(seed=5)
    people = {s: LinesAI(s, st.seed) for s in st.seats if s.startswith("german")}
    ctl = TableController(st, ai={s: LinesAI(s, st.seed) for s in st.seats if s.startswith("soviet")})
    held = handed = 0
    while not st.over and st.turn <= 4:
        if ctl.passing:
            ctl.take_seat()
        if ctl.human_to_act():
            assert not ctl.held()
            assert ctl.issue(people[st.to_act].choose(st))
            continue
        viewer = ctl.viewer
        assert ctl.step_ai()
        if isinstance(ctl.last_ai, Resolve):
            assert ctl.held() and f"attack #{ctl.last_ai.number}" in ctl.prompt(), ctl.prompt()
            assert ctl.passing is None and ctl.viewer == viewer  # the hand-over waits
            n = len(st.log)
            ctl.key("end_phase")  # Space: goes on, acts for nobody
            assert not ctl.held() and len(st.log) == n
            held += 1
            handed += ctl.passing is not None
    assert held >= 4 and handed >= 1, (held, handed)


def test_a_void_attack_reads_as_void_in_the_prompt_the_panel_and_when_shown():
    """Pass 2, item 4 (seed 1, turn 1: the Soviet Guards' attack #4 is void, the squad being
    destroyed, R6.2): the prompt said "R resolves attack #4" while the panel said "no attack
    of yours left to resolve", and once resolved it was announced as "soviet resolved attack
    #4: Guards rifle squad at ...". Now the prompt and the panel say it is void and why; R
    turns it back (docs/rules.md, "A void attack": it stays the owner's choice) without
    spending the offered bonus card; shown after, it reads "was void"."""
    from hexwar.game.scenario import find_scenario, load_scenario
    from hexwar.lines.ai import LinesAI

    st = load_scenario(find_scenario("lines")).new_game(seed=1)
    ai = {s: LinesAI(s, st.seed) for s in st.seats}

    def first_unresolved() -> int | None:
        ns = [n for n, a in sorted(st.attacks.items()) if a.seat == st.to_act and not a.resolved]
        return ns[0] if ns else None

    while not (st.phase == "resolution" and st.to_act == "soviet" and first_unresolved() == 4):
        st.apply(ai[st.to_act].choose(st))
    ctl = TableController(st, ai={"german": ai["german"]})
    mine = [n for n, a in sorted(st.attacks.items()) if a.seat == "soviet" and not a.resolved]
    assert mine[0] == 4
    assert "attack #4 is void (Guards rifle squad is gone; R6.2)" in ctl.prompt(), ctl.prompt()
    texts = " ".join(_texts(ctl))
    assert "attack #4 is void" in texts and "no attack of yours left" not in texts, texts
    hand = list(st.hand_commands["soviet"])
    if hand:
        ctl.offer_bonus()
    assert ctl.resolve() and st.attacks[4].resolved
    assert list(st.hand_commands["soviet"]) == hand  # no card discarded for a void attack (R1.3)
    assert ctl.watch_text.startswith("soviet's attack #4 (Guards rifle squad at "), ctl.watch_text
    assert "was void: Guards rifle squad is gone (R6.2, no roll)" in ctl.watch_text
    assert "resolved attack #4" not in ctl.watch_text


def test_no_side_panel_text_is_cut_silently_and_a_narrow_hand_card_wraps_its_name():
    """Pass 2, item 6: the selected card's text in the side panel stopped mid-sentence ("a
    match for the", the 8th of its lines left out without a mark); now each of the panel's
    wrapped texts ends its last kept line with "…" when cut. A narrow hand card (lines-4p at
    800x600: 148 x 80 points) with the height to spare wraps its name to two lines ("Gun
    crew (reg…" before), and still shortens it with "…" where two lines are not enough."""
    from hexwar.lines.rules import card, cards
    from hexwar.ui.card_face import paint_unit_card
    from hexwar.ui.lines_panel import command_text
    from hexwar.ui.widgets import ELLIPSIS, wrap, wrap_lines

    p = Painter(FakeAtlas())
    st = _state("lines", "commitment")
    cut = 0
    for cid, (w, h) in [
        (c, s) for c in [*st.hand_units[st.to_act], *st.hand_commands[st.to_act]] for s in SIZES
    ]:
        ctl = TableController(st, ai={})
        ctl.selected = cid
        texts = _texts(ctl, w, h)
        i = texts.index("Selected card")
        full = card(cid).help_text(cards()) if cid in st.hand_units[st.to_act] else command_text(cid)
        block = texts[i + 1 : texts.index("Command-card bonus (B)")]
        assert block and (full.rstrip().endswith(block[-1].rstrip()) or block[-1].endswith(ELLIPSIS)), (
            cid,
            block,
        )
        cut += block[-1].endswith(ELLIPSIS)
    assert cut, "seed 5: a hand card's text is longer than the panel's lines at 800x600"
    long = "one two three four five six seven eight nine ten eleven twelve"
    got = wrap_lines(p.atlas, long, 60, 10.0, 2)
    assert len(got) == 2 and got[1].endswith(ELLIPSIS) and got == wrap(p.atlas, long, 60, 10.0)[:1] + got[1:]

    p = Painter(FakeAtlas())
    gun = card("de_artillery_crew_regular")
    paint_unit_card(p, gun, 0, 0, 148, 80)
    texts = [t[4] for t in p.text_boxes]
    assert "Gun crew" in texts and "(regular)" in texts, texts
    p = Painter(FakeAtlas())
    paint_unit_card(p, gun, 0, 0, 148, 56)  # no height to spare: one line, shortened with "…"
    names = [t[4] for t in p.text_boxes if t[4].startswith("Gun")]
    assert len(names) == 1 and names[0].endswith(ELLIPSIS), names


def test_the_window_log_reads_as_the_headless_log():
    """Pass 2, item 7: the window's log showed each to-hit roll twice (the roll's line, then
    the to-hit line with its outcome) and the Intensity roll before the attack's line; the
    headless log (hexwar.game.headless.readable) shows each once, in order. Seed 6, turn 3's
    Resolution Phase: after every resolution the window's newest log lines are the headless
    game's lines of it (as the person's seat reads them)."""
    from hexwar.game.headless import readable
    from hexwar.lines.ai import LinesAI
    from hexwar.lines.view import seat_log_text

    st = _resolution(6, 3)
    ai = {s: LinesAI(s, st.seed) for s in st.seats}
    ctl = TableController(st, ai={})
    seen = 0
    while st.phase == "resolution" and not st.over:
        n = len(st.log)
        st.apply(ai[st.to_act].choose(st))
        new = st.log[n:]
        want = [seat_log_text(e, ctl.shown_seat()) for e in readable(new)]
        log = list(ctl.view().log)
        got = log[-len(want) :]
        assert got == want, (got, want)
        for e in new:  # no roll a later line shows is a line of its own (each once, in order)
            if e.kind == "roll" and e not in readable(new):
                assert log.count(e.text) <= sum(1 for x in new if x.kind != "roll" and x.text == e.text), (
                    e.text
                )
                assert not any(t.startswith("intensity:") and t == e.text for t in log), e.text
        seen += 1
    assert seen >= 4


def test_esc_withdraws_the_bonus_tab_skips_declared_units_and_the_message_is_by_the_prompt():
    """Pass 2, item 8: Esc withdraws an offered +1 bonus in the Resolution Phase (R1.3: the
    card stays in hand; it stayed offered); Tab once every unit has declared selects nothing
    (it selected a unit that had declared) and says why; the status message (red) stands in
    the prompt bar, by the prompt, not under the bonus in the side panel, and fits the window
    at both sizes."""
    from test_lines_layout import table_problems

    from hexwar.game.scenario import find_scenario, load_scenario
    from hexwar.lines.ai import LinesAI
    from hexwar.lines.commands import Declare, DeclareCloseAssault
    from hexwar.ui.layout_check import layout_problems

    st = _resolution(5, 2)
    ctl = TableController(st, ai={})
    assert st.hand_commands[st.to_act], "seed 5: a Command card in hand to offer"
    ctl.offer_bonus()
    assert ctl.bonus is not None
    ctl.key("cancel")
    assert ctl.bonus is None and "bonus withdrawn" in ctl.message

    st = load_scenario(find_scenario("lines")).new_game(seed=6)
    ai = {s: LinesAI(s, st.seed) for s in st.seats}
    while not (st.turn == 3 and st.phase == "declaration"):
        st.apply(ai[st.to_act].choose(st))
    seat = st.to_act
    while any(isinstance(c, (Declare, DeclareCloseAssault)) for c in st.legal_commands()):
        st.apply(next(c for c in st.legal_commands() if isinstance(c, (Declare, DeclareCloseAssault))))
    assert st.to_act == seat and st.phase == "declaration"
    ctl = TableController(st, ai={})
    ctl.key("next_unit")
    assert ctl.selected is None and "Space ends the phase" in ctl.message, ctl.message
    for w, h in SIZES:
        p, root = _paint(ctl, w, h)
        bar = root.find_panel("prompt").rect
        box = next(
            t for t in p.text_boxes if t[4].startswith("none of your units"[:10]) or t[4] == ctl.message
        )
        assert bar.y <= box[1] and box[3] <= bar.y1 and bar.x <= box[0] and box[2] <= bar.x1, (box, bar)
        assert not table_problems(root, p) and not layout_problems(p, w, h)
        a, b = root.spans["side panel"]
        assert not any(t[4].startswith("none of your") for t in p.text_boxes[a:b])


def test_the_play_command_s_messages_give_a_window_size_the_scenarios_and_a_way_to_play(monkeypatch):
    """Pass 2, item 9: ``--size 800by600`` gave the editor's example ("like 30x20", a map's
    size in hexes): now a window's (1400x900); ``hexwar play nosuch`` names the shipped
    scenarios; with no display, the hint to play in the terminal names ``--ai soviet`` (a
    bare ``--headless`` is a computer-against-computer game), for the card game and the hex
    game alike."""
    from click.testing import CliRunner

    from hexwar.cli import cli, terminal
    from hexwar.cli import game as cli_game
    from hexwar.errors import HexwarError

    r = CliRunner().invoke(cli, ["play", "lines", "--size", "800by600"])
    assert isinstance(r.exception, HexwarError) and "like 1400x900" in str(r.exception), r.exception
    assert "30x20" not in str(r.exception)
    r = CliRunner().invoke(cli, ["play", "nosuch"])
    msg = str(r.exception)
    assert isinstance(r.exception, HexwarError) and "the shipped scenarios are:" in msg, msg
    assert all(n in msg for n in ("lines", "lines-4p", "kharkov", "skirmish")), msg
    monkeypatch.setattr(cli_game, "_no_display", lambda: True)
    monkeypatch.setattr(terminal, "_no_display", lambda: True)
    for name in ("lines", "skirmish"):
        r = CliRunner().invoke(cli, ["play", name])
        assert f"hexwar play {name} --headless --ai soviet` to play the German side yourself" in r.output, (
            r.output
        )
        assert "computer-against-computer" in r.output
