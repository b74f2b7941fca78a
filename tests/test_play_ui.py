"""Headless UI tests of the play window (issue 7): mouse and key events dispatched to a pyglet
window over EGL must change the game exactly as the same commands applied to a second game
of the same scenario and seed (state hashes compared after every step); the computer plays
step by step on an injected clock; hot-seat hides the hand between players; clicks at hex
centres pick those hexes at pixel ratios 1, 1.25 and 2 (R2, R5, R6, R7)."""

from __future__ import annotations

import pytest

from hexwar.render import backend

pytestmark = pytest.mark.ui

try:
    backend.configure(True)
    from pyglet.window import key, mouse

    from hexwar.ui.play_window import PlayWindow
except Exception as exc:  # pragma: no cover - no EGL on this machine
    pytest.skip(f"headless pyglet unavailable: {exc}", allow_module_level=True)

from game_helpers import H, scenario, step  # noqa: E402

from hexwar.game import movement, ruleset, targeting  # noqa: E402
from hexwar.game.ai import make_player  # noqa: E402
from hexwar.game.commands import Commit, Declare, EndPhase, Move, Resolve  # noqa: E402
from hexwar.game.state import GameState, Phase  # noqa: E402
from hexwar.ui.clock import ManualClock, Pace  # noqa: E402

SEED = 7


def new_pair() -> tuple[GameState, GameState]:
    """Two games of the same scenario and seed, brought to the German commitment of turn 1
    by the same neutral commands."""
    sc = scenario("game_small")
    a, b = sc.new_game(seed=SEED), sc.new_game(seed=SEED)
    for st in (a, b):
        for _ in range(60):
            if st.phase == Phase.COMMITMENT and st.to_act == "german":
                break
            step(st)
    assert a.state_hash() == b.state_hash()
    assert a.phase == Phase.COMMITMENT and a.to_act == "german", (a.phase, a.to_act)
    return a, b


@pytest.fixture(scope="module")
def window():
    a, _ = new_pair()
    win = PlayWindow(a, ai={}, width=1200, height=800, visible=False, schedule=False, clock=ManualClock())
    yield win
    try:
        win.close()
    except Exception:
        pass


class Driver:
    """Clicks and keys as a person would."""

    def __init__(self, win: PlayWindow) -> None:
        self.win = win

    def key(self, sym: int, mods: int = 0) -> None:
        self.win.dispatch_event("on_key_press", sym, mods)

    def click_at(self, x: float, y: float, button: int = mouse.LEFT) -> None:
        self.win.dispatch_event("on_mouse_motion", x, y, 0, 0)
        self.win.dispatch_event("on_mouse_press", x, y, button, 0)
        self.win.dispatch_event("on_mouse_release", x, y, button, 0)

    def click(self, h, button: int = mouse.LEFT) -> None:
        self.click_at(*self.win.screen_point(h), button=button)

    def hover(self, h) -> None:
        x, y = self.win.screen_point(h)
        self.win.dispatch_event("on_mouse_motion", x, y, 0, 0)

    def widget(self, tip: str) -> None:
        self.click_at(*self.win.widget(tip).centre)

    def pass_screen(self) -> None:
        """Hot-seat: the other player takes the screen (Enter on the pass screen)."""
        assert self.win.controller.pass_to is not None
        self.key(key.ENTER)
        assert self.win.controller.pass_to is None


def test_clicks_and_keys_change_the_game_exactly_as_the_same_commands(window):
    """Commit, move, declare, end phases and resolve through the window (hot-seat); a second
    game of the same seed gets the commands built independently; hashes agree at every step."""
    a, b = new_pair()
    window.set_game(a, ai={}, clock=ManualClock())
    d = Driver(window)
    ctl = window.controller
    assert ctl.pass_to is None and ctl.shown_side == "german"

    def same(cmd) -> None:
        b.apply(cmd)
        assert a.commands[-1] == cmd, (a.commands[-1], cmd)
        assert a.state_hash() == b.state_hash(), f"after {cmd}"

    def end_phase_for_both(phase: str) -> None:
        """Space ends the phase for whoever acts (after the hot-seat pass screen)."""
        while a.phase == phase:
            if ctl.pass_to is not None:
                d.pass_screen()
            side = a.to_act
            d.key(key.SPACE)
            same(EndPhase(side))
        if ctl.pass_to is not None:
            d.pass_screen()

    # commitment (R5.2): pick the Pz IV card in the hand, click a deploy hex
    pz = next(c for c in a.hand_units["german"] if c.startswith("de_pz_iv_g"))
    d.widget(f"card {pz}")
    assert ctl.card == pz
    deploy = H("B05")
    d.click(deploy)
    same(
        Commit(
            "german",
            pz,
            deploy,
            crew=next(
                c.crew
                for c in b.legal_commands()
                if isinstance(c, Commit) and c.unit == pz and c.hex == deploy
            ),
        )
    )
    assert a.units[pz].hex == deploy
    end_phase_for_both(Phase.COMMITMENT)
    assert a.phase == Phase.MOVEMENT and a.to_act == "german"

    # movement (R5.3): select the tank, click a reachable hex from which the rifles are a target
    d.click(deploy)
    assert ctl.selected == pz
    reach = movement.unit_reach(b, pz)
    assert reach is not None and set(ctl.reach_costs()) == set(reach.destinations())
    rng = max(w.range for w in ruleset.weapons(pz) if w.range)
    enemies = [
        u
        for u, s in sorted(b.units.items())
        if s.side == "soviet" and s.crewing is None and s.hex is not None
    ]
    best = sorted(
        (h.distance(b.units[e].hex), h.offset, h, e)
        for h in reach.destinations()
        for e in enemies
        if ruleset.sees(b, h, b.units[e].hex)[0] and h.distance(b.units[e].hex) <= rng
    )
    assert best, "no hex to fire from"
    rifles = best[0][3]
    rh = b.units[rifles].hex
    best = [x[2] for x in best]
    dest = best[0]
    d.click(dest)
    same(Move("german", pz, reach.path(dest)))
    end_phase_for_both(Phase.MOVEMENT)
    assert a.phase == Phase.DECLARATION

    # declaration (R6.1, R7): select, click the target, read the exact odds, Enter declares
    assert a.to_act == "german"
    d.click(dest)
    assert ctl.selected == pz
    legal = {t for t, _, _ in targeting.legal_targets(b, "german", pz)}
    assert rifles in legal
    d.click(rh)
    assert ctl.pending is not None and ctl.pending.target == rifles
    texts = window.screen_texts()
    assert "ATTACK ODDS (EXACT)" in texts
    odds = ctl.odds()
    assert odds is not None and abs(sum(odds.outcomes.values()) - 1.0) < 1e-9
    ws = next(
        ok for t, at_crew, ok in targeting.legal_targets(b, "german", pz) if t == rifles and not at_crew
    )
    d.key(key.ENTER)
    same(Declare("german", pz, rifles, tuple(ws[:2]), False))
    end_phase_for_both(Phase.DECLARATION)
    # resolution (R6.2): R resolves the German attack; the same dice roll in both games
    assert a.phase == Phase.RESOLUTION and a.to_act == "german"
    d.key(key.R)
    same(Resolve("german", 1))
    assert any(line.kind == "to_hit" for line in ctl.log), "the combat log shows the to-hit rolls"
    assert a.log == b.log


def test_the_computer_plays_step_by_step_on_the_injected_clock(window):
    """Versus the computer: one command per due tick, nothing before its time, and a moving
    counter walks its path hex by hex as the clock advances."""
    sc = scenario("game_small")
    st = sc.new_game(seed=SEED)
    for _ in range(80):  # to the Soviet movement of turn 1
        if st.phase == Phase.MOVEMENT and st.to_act == "soviet":
            break
        step(st)
    clock = ManualClock()
    pace = Pace(hex_step=0.25, action=0.5, combat=1.0, quick=0.2)
    window.set_game(st, ai={"soviet": make_player("standard", "soviet", SEED)}, clock=clock, pace=pace)
    ctl = window.controller
    n0 = len(st.commands)
    window.tick()  # due at once
    assert len(st.commands) == n0 + 1
    cmd = st.commands[-1]
    assert isinstance(cmd, Move), cmd
    for _ in range(5):  # no time passes: nothing more happens
        window.tick()
    assert len(st.commands) == n0 + 1
    assert ctl.anim is not None and ctl.anim.uid == cmd.unit
    start = ctl.anim.path[0]
    assert ctl.display_hex(cmd.unit) == start
    seen = [ctl.display_hex(cmd.unit)]
    for _ in cmd.path[:-1]:
        clock.advance(pace.hex_step)
        window.tick()
        seen.append(ctl.display_hex(cmd.unit))
    assert seen == [start, *cmd.path[:-1]], "the counter walks its path one hex per step"
    assert len(st.commands) == n0 + 1, "the computer waits for the animation"
    clock.advance(5.0)
    window.tick()
    window.tick()
    assert len(st.commands) <= n0 + 2
    # and it keeps going only as time passes
    for _ in range(30):
        if st.phase != Phase.MOVEMENT or st.to_act != "soviet":
            break
        k = len(st.commands)
        clock.advance(5.0)
        window.tick()
        window.tick()
        assert len(st.commands) - k <= 1
    assert st.phase != Phase.MOVEMENT or st.to_act != "soviet"


def _tips_of_the_whole_hand(window) -> set[str]:
    """Widget tips with the hand row scrolled through every offset (a long hand scrolls, item 6)."""
    tips: set[str] = set()
    for off in range(40):
        window.flags.extra["hand_offset"] = off
        window.refresh()
        tips |= {w.tip for w in window.widgets}
    window.flags.extra["hand_offset"] = 0
    window.refresh()
    return tips


def test_hot_seat_hides_the_hand_between_players(window):
    a, _ = new_pair()
    window.set_game(a, ai={}, clock=ManualClock())
    d = Driver(window)
    ctl = window.controller
    german = set(a.hand_units["german"] + a.hand_commands["german"])
    assert {f"card {c}" for c in german} <= _tips_of_the_whole_hand(window)
    d.key(key.SPACE)  # German ends its commitment: the screen waits for the Soviet player
    assert ctl.pass_to == "soviet" and a.to_act == "soviet"
    texts = window.screen_texts()
    assert "Pass to the Soviet player" in texts and "Hand hidden" in texts
    tips = {w.tip for w in window.widgets}
    assert not any(t.startswith("card ") for t in tips), "no card of either hand is shown"
    assert not any(ruleset.card_name(c) in texts for c in german)
    d.click(H("E05"))  # clicks on the map do nothing behind the pass screen
    assert len(a.commands) and a.commands[-1] == EndPhase("german")
    d.pass_screen()
    soviet = set(a.hand_units["soviet"] + a.hand_commands["soviet"])
    tips = _tips_of_the_whole_hand(window)
    assert {f"card {c}" for c in soviet} <= tips
    assert not any(f"card {c}" in tips for c in german)


@pytest.mark.parametrize("ratio", [1.0, 1.25, 2.0])
def test_click_at_a_hex_centre_picks_that_hex_at_pixel_ratios(window, ratio):
    a, _ = new_pair()
    window.set_game(a, ai={}, clock=ManualClock())
    window.set_pixel_ratio(ratio)
    try:
        d = Driver(window)
        bm = a.battlemap
        for lab in ("A01", "B02", "G05", "N10", "K07", "C05"):
            h = H(lab)
            x, y = window.screen_point(h)
            assert window.hex_at(x, y) == h
            # a hair inside the hex still picks it (not a rounding accident at the centre)
            assert window.hex_at(x + 3, y - 2) == h
        pak = next(u for u, s in a.units.items() if s.side == "german" and s.hex == H("C05"))
        d.click(H("C05"), button=mouse.RIGHT)
        assert window.controller.selected == pak
        # the rendered image agrees: an empty hex's centre shows its terrain's centre colour
        # (the mouse off the map first: the hover box may sit anywhere clear of counters, issue 36)
        window.dispatch_event("on_mouse_leave", 0, 0)
        img = window.render_image()
        W, Hh = window.get_size()
        assert img.shape[:2] == (round(Hh * ratio), round(W * ratio))
        looks = window.looks
        checked = 0
        occupied = {u.hex for u in a.units.values()}
        for h in (H("E02"), H("H08"), H("J03"), H("F09")):
            if h in occupied or not bm.in_bounds(h):
                continue
            x, y = window.screen_point(h)
            px, py = int(x * ratio), int((Hh - y) * ratio)
            want = looks.centre_colour(
                bm.terrain_at(h).key, int(bm.level_at(h)), bool(bm.road[bm.index(h)]), bool(bm.has_rubble(h))
            )
            got = img[py, px, :3].astype(int)
            assert max(abs(got[i] - want[i]) for i in range(3)) <= 12, (h.label, ratio, got, want)
            checked += 1
        assert checked >= 2
    finally:
        window.set_pixel_ratio(None)


def test_help_overlay_and_game_over_screen(window):
    a, _ = new_pair()
    window.set_game(a, ai={}, clock=ManualClock())
    d = Driver(window)
    d.key(key.H)
    assert window.flags.show_help and "Keyboard and mouse" in window.screen_texts()
    n = len(a.commands)
    d.key(key.SPACE)  # keys other than H/F1/Esc do nothing while help is open
    assert len(a.commands) == n
    d.key(key.ESCAPE)
    assert not window.flags.show_help
    # play the game out with two computer players and check the result screen
    clock = ManualClock()
    window.set_game(
        a,
        ai={s: make_player("random", s, 3) for s in ("german", "soviet")},
        clock=clock,
        pace=Pace(0.0, 0.0, 0.0, 0.0),
    )
    for _ in range(4000):
        if a.over:
            break
        clock.advance(1.0)
        window.tick()
    assert a.over
    texts = window.screen_texts()
    assert "GAME OVER" in texts
    assert any(t.startswith("by ") and "turn" in t for t in texts)
    assert str(a.vp["german"]) in texts and str(a.vp["soviet"]) in texts


def test_hexwar_render_screen_play_draws_the_whole_play_screen(tmp_path, window):
    """``hexwar render SCENARIO --screen play``: the play screen mid-game as a PNG (README
    screenshots): the panels' colours at their places, the map in between."""
    from PIL import Image

    from hexwar.cli import main
    from hexwar.ui import panels

    out = tmp_path / "play.png"
    path = str(scenario("game_small").path)
    assert main(["render", path, "--screen", "play", "--size", "1000x640", "--out", str(out)]) == 0
    img = Image.open(out).convert("RGB")
    assert img.size == (1000, 640)
    lay = panels.layout(1000, 640)
    top = img.getpixel((int(lay.top[0]) + 3, 640 - int(lay.top[1]) - 3))
    assert max(abs(a - b) for a, b in zip(top, panels.BG[:3], strict=True)) <= 3
    side = img.getpixel((int(lay.side[2]) - 3, 640 - int(lay.side[1]) - 3))
    assert max(abs(a - b) for a, b in zip(side, panels.PANEL[:3], strict=True)) <= 6
    mid = img.getpixel((int((lay.map[0] + lay.map[2]) / 2), 640 - int((lay.map[1] + lay.map[3]) / 2)))
    assert mid != top and mid != side


def test_hover_follows_the_mouse_and_clears_when_it_leaves_the_window(window):
    a, _ = new_pair()
    window.set_game(a, ai={}, clock=ManualClock())
    x, y = window.screen_point(H("G05"))
    window.dispatch_event("on_mouse_motion", x, y, 0, 0)
    assert window.controller.hover == H("G05")
    window.dispatch_event("on_mouse_leave", x, y)
    assert window.controller.hover is None


def test_the_hold_victory_shows_over_the_objective_and_on_the_game_over_screen(window):
    """R10.2: the side panel's Objectives section and the hover text over an objective hex tell
    the points and the scenario's hold victory; a game won by it says so on the game-over screen
    (fresh8: "by objectives in turn 1" and no word of the hold victory anywhere in the window)."""
    import dataclasses

    from hexwar.game.scenario import HoldVictory
    from hexwar.game.victory import finish, objective_points

    sc = dataclasses.replace(scenario("game_small"), hold=HoldVictory("soviet", 5))
    a = sc.new_game(seed=SEED)
    for _ in range(60):
        if a.phase == Phase.COMMITMENT and a.to_act == "german":
            break
        step(a)
    window.set_game(a, ai={}, clock=ManualClock())
    d = Driver(window)
    window.dispatch_event("on_mouse_leave", 0, 0)
    texts = window.screen_texts()  # the side panel's section, with the points each side holds
    i = texts.index("OBJECTIVES (1)")
    assert texts[i + 1] == "German 0 · Soviet 0 pts", texts[i : i + 4]
    assert " ".join(texts[i + 2 : i + 5]).startswith(
        "Hold victory: the Soviets win outright holding the objective at the end of turn 5 (R10.2)."
    ), texts[i : i + 5]
    d.hover(H("G05"))
    shown = " ".join(window.screen_texts())
    holder = a.objective_holders.get(H("G05")) or "nobody"
    assert (
        f"Objective Hill 112: 10 points, held by {holder}; the Soviets win outright holding the objective "
        "at the end of turn 5 (R10.2)"
    ) in shown
    a.objective_holders[H("G05")] = "soviet"
    finish(a, "soviet", "objectives", objective_points(a))
    window.set_game(a, ai={}, clock=ManualClock())
    texts = window.screen_texts()
    assert "GAME OVER" in texts and "by holding every objective at the end of turn 1" in texts
