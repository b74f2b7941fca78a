"""Issue 36 on the hex play window, driven headless: units and hand cards drawn as cards
(:mod:`hexwar.ui.card_face`), a click on a stack selecting a unit that can act, the hover box
kept off neighbouring counters and attack arrows, no arrow left for a resolved attack."""

from __future__ import annotations

import pytest
from play_window_helpers import window_for

pytestmark = pytest.mark.ui

from game_helpers import H, advance_to, clear_units, place, scenario  # noqa: E402

from hexwar.game.state import Phase  # noqa: E402
from hexwar.ui.clock import ManualClock  # noqa: E402
from hexwar.ui.controller import PlayController  # noqa: E402

SEED = 7


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def test_a_click_on_a_stack_selects_the_unit_that_can_move_and_a_second_click_cycles():
    g = scenario("game_small").new_game(seed=SEED)
    advance_to(g, Phase.COMMITMENT)
    clear_units(g)
    stuck = place(g, "de_grenadiers", "D05")  # sorts first in the stack
    tank = place(g, "de_pz_iv_g", "D05", crew="de_tank_crew_regular")
    place(g, "su_rifles", "L05")
    advance_to(g, Phase.MOVEMENT, "german")
    g.units[stuck.uid].mp_left = 0.0  # R5.3: it has spent its movement points this phase
    g.cache.clear()
    ctl = PlayController(g, ai={}, clock=ManualClock())
    ctl.confirm_pass()
    assert ctl.units_at(H("D05"))[0] == stuck.uid
    ctl.click_hex(H("D05"))
    assert ctl.selected == tank.uid, ctl.selected
    assert ctl.reach_costs()  # blue hexes to click straight away
    ctl.click_hex(H("D05"), alternate=True)  # a right click still reaches the other one
    assert ctl.selected == stuck.uid


def test_the_hover_box_keeps_off_the_counters_round_the_hovered_hex():
    g = scenario("game_small").new_game(seed=SEED)
    advance_to(g, Phase.COMMITMENT)
    clear_units(g)
    # a ring of units round F05 (both sides of it, above and below) and one enemy further off
    for label in ("G05", "E05", "F04", "F06", "G04", "E04"):
        place(g, "de_grenadiers", label)
    place(g, "su_rifles", "J05")
    advance_to(g, Phase.MOVEMENT, "german")
    win = window_for(g, size=(1400, 900))
    try:
        win.controller.confirm_pass()
        x, y = win.screen_point(H("F05"))
        win.dispatch_event("on_mouse_motion", x, y, 0, 0)
        box = win.tooltip_box
        assert box is not None
        units = win._tooltip_avoid()["units"]
        assert len(units) == 7
        covered = [u for u in units if _overlap(box, u)]
        assert not covered, (box, covered)
    finally:
        win.close()


def test_the_side_panel_shows_the_selected_unit_as_its_card_in_play_and_the_hand_as_cards():
    g = scenario("game_small").new_game(seed=SEED)
    advance_to(g, Phase.COMMITMENT)
    u = place(g, "de_pz_iv_g", "D05", crew="de_tank_crew_regular", endurance=9)
    advance_to(g, Phase.MOVEMENT, "german")
    win = window_for(g, size=(1400, 900))
    try:
        ctl = win.controller
        ctl.confirm_pass()
        ctl.select(u.uid)
        texts = win.screen_texts()
        # the card face (001 "Card Types Detailed"): its Armament table with the DI column,
        # Half / Full Endurance, and in play the current Endurance (R6.5) and its crew
        assert "Armament" in texts and "DI" in texts and "Half 7 / Full 14" in texts
        assert "End 9/14" in texts
        assert any(t.startswith("Movement 5 (tracked); range") for t in texts)
        assert texts.count("Armament") + texts.count("Arms") >= 2  # the hand's unit cards are cards too
        # Command cards in the hand are paper cards saying what they apply to (R4.3): the card
        # cursor on the last one scrolls the hand to it
        assert g.hand_commands["german"]
        ctl.move_card_cursor(-1)
        assert ctl.hover_card == g.hand_commands["german"][-1]
        texts = win.screen_texts()
        assert sum(t.startswith("applies to: ") for t in texts) >= 2, texts  # the hand and the panel
    finally:
        win.close()


def _computer_game(fast: bool = False):
    from hexwar.game.ai import make_player
    from hexwar.ui.clock import Pace

    g = scenario("game_small").new_game(seed=SEED)
    ai = {s: make_player("standard", s, SEED) for s in ("german", "soviet")}
    win = window_for(g, ai=ai, size=(1400, 900), pace=Pace(0.0, 0.1, 0.1, 0.0), fast=fast)
    return g, win


def test_each_roll_of_the_computers_attack_is_shown_with_dice_needed_and_result_and_a_key_skips():
    from hexwar.game.commands import Resolve
    from hexwar.game.events import RollEvent

    g, win = _computer_game()
    try:
        ctl, clock = win.controller, win.controller.clock
        for _ in range(3000):  # the computers play until one resolves an attack with rolls
            n = len(g.commands)
            clock.advance(0.05)
            win.tick()
            if len(g.commands) > n and isinstance(g.commands[-1], Resolve) and ctl.feed.rows:
                break
        else:
            pytest.fail(f"no attack resolved (seed {SEED})")
        cmd = g.commands[-1]
        rolls = [e.roll for e in g.log[-60:] if isinstance(e, RollEvent) and "to hit" in e.roll.purpose]
        feed = ctl.feed
        assert feed.title.startswith(f"{cmd.side.capitalize()} (computer): attack {cmd.attack}: ")
        hits = [r for r in feed.rows if r.label.startswith("to hit")]
        assert hits and [r.faces for r in hits] == [tuple(r.faces) for r in rolls[-len(hits) :]]
        for r in hits:  # R6.3: success is the modified sum reaching the number needed (R6.4: 19-20 hit)
            assert r.needed is not None
            assert r.success == (r.result >= r.needed or sum(r.faces) >= 19), r
        # the rolls come one by one, and the computer waits while they are read
        assert feed.revealed(clock.now()) == 1
        texts = win.screen_texts()
        r0 = feed.rows[0]
        tail = "".join(f" {v:+d} {nm}" for nm, v in r0.modifiers) + f" = {r0.result}"
        tail += f", needs {r0.needed}" if r0.needed is not None else ""
        assert feed.title in texts and r0.label in texts and tail in texts, texts
        assert all(str(f) in texts for f in r0.faces)  # each die drawn with its face
        if r0.success is not None:  # said in words, not by colour alone
            assert ("HIT" if r0.success else "MISS") in texts
        if len(feed.rows) > 1:
            assert feed.rows[1].label not in texts or feed.rows[1].label == r0.label
        n = len(g.commands)
        for _ in range(3):
            clock.advance(0.2)
            win.tick()
        assert len(g.commands) == n and feed.pausing(clock.now())
        # a key ends the pause: every roll is shown and the computer goes on
        from pyglet.window import key

        win.dispatch_event("on_key_press", key.SPACE, 0)
        assert not feed.pausing(clock.now()) and feed.revealed(clock.now()) == len(feed.rows)
        assert len(g.commands) == n  # the key only skipped
        box = win.widget("rolls")  # the box stays to be read; a click on it puts it away
        cx, cy = box.x + box.w / 2, box.y + box.h / 2
        win.dispatch_event("on_mouse_motion", cx, cy, 0, 0)
        assert ctl.hover is None  # no hex hovered through the box
        win.dispatch_event("on_mouse_press", cx, cy, 1, 0)
        assert not feed.rows and "rolls" not in {w.tip for w in win.widgets}
        for _ in range(20):
            clock.advance(0.2)
            win.tick()
        assert len(g.commands) > n
    finally:
        win.close()


def test_fast_play_shows_no_roll_pause():
    from hexwar.game.commands import Resolve

    g, win = _computer_game(fast=True)
    try:
        ctl, clock = win.controller, win.controller.clock
        seen = 0
        for _ in range(3000):
            n = len(g.commands)
            clock.advance(0.05)
            win.tick()
            if len(g.commands) > n and isinstance(g.commands[-1], Resolve):
                seen += 1
                assert not ctl.feed.rows and not ctl.feed.pausing(clock.now())
                if seen >= 2:
                    break
        assert seen >= 1, f"no attack resolved (seed {SEED})"
    finally:
        win.close()


def _movement_window(size=(800, 600)):
    g = scenario("game_small").new_game(seed=SEED)
    advance_to(g, Phase.COMMITMENT)
    clear_units(g)
    tank = place(g, "de_pz_iv_g", "D05", crew="de_tank_crew_regular")
    place(g, "su_rifles", "L05")
    advance_to(g, Phase.MOVEMENT, "german")
    win = window_for(g, size=size)
    win.controller.confirm_pass()
    win.controller.select(tank.uid)
    return g, win


def test_move_costs_are_readable_at_any_zoom_or_shown_beside_the_hovered_hex():
    from hexwar.ui.play_minimap import MIN_COST_PT

    g, win = _movement_window()
    try:
        ctl, cam = win.controller, win.mapview.camera
        reach = ctl.reach_costs()
        h = next(x for x, c in sorted(reach.items(), key=lambda kv: kv[0].q) if c == 3)
        seen = set()
        for zoom in (0.2, 0.3, 0.45, 0.6, 1.0, 2.0):
            cam.zoom = zoom
            win._fitted = False
            x, y = win.screen_point(h)
            win.dispatch_event("on_mouse_motion", x, y, 0, 0)
            ov = win.mapview._overlays["reach"]
            pts = ov.text_size * win.mapview.layout.size * zoom  # the number's size on screen
            if ov.show_numbers:
                assert pts >= MIN_COST_PT - 1e-9, (zoom, pts)
                assert "3 MP" not in win.screen_texts()
                seen.add("map")
            else:  # too small for any size that fits the hex: the hovered one in a badge
                assert "3 MP" in win.screen_texts(), zoom
                seen.add("badge")
        assert seen == {"map", "badge"}
    finally:
        win.close()


def test_a_minimap_shows_while_the_map_is_larger_than_the_view_and_a_click_moves_the_view():
    from hexwar.errors import HexwarError

    g, win = _movement_window()
    try:
        win.fit_map()
        with pytest.raises(HexwarError):
            win.widget("minimap")  # the whole map in view: no minimap
        x0, y0, x1, y1 = win.map_area()
        win.mapview.camera.zoom_at((x0 + x1) / 2, (y0 + y1) / 2, 4.0)
        win._fitted = False
        mm = win.widget("minimap")
        b = win.minimap_now().box
        win.dispatch_event("on_mouse_motion", b.x + b.w / 2, b.y + b.h / 2, 0, 0)
        assert win.controller.hover is None and win.tooltip_box is None  # no hex under the minimap
        target = H("L05")  # the Soviet rifles, off screen now
        tx, ty = win.screen_point(target)
        assert not (x0 <= tx < x1 and y0 <= ty < y1)
        wx, wy = win.mapview.layout.hex_to_pixel(target)
        mx, my = win.minimap_now().to_screen(wx, wy)
        assert mm.hit(mx, my)
        win.dispatch_event("on_mouse_press", mx, my, 1, 0)
        win.dispatch_event("on_mouse_release", mx, my, 1, 0)
        tx, ty = win.screen_point(target)
        assert abs(tx - (x0 + x1) / 2) < 12 and abs(ty - (y0 + y1) / 2) < 12, (tx, ty)
        assert win.controller.selected is not None  # the click on the minimap was no map click
    finally:
        win.close()


def test_no_arrow_stays_for_a_resolved_attack():
    g, win = _computer_game(fast=True)
    try:
        clock = win.controller.clock
        resolved_seen = 0
        for _ in range(2500):
            if g.over or g.turn > 2:
                break
            clock.advance(0.2)
            win.tick()
            win.refresh()
            arrows = set(win._keys.get("attack_hexes", ()))
            if g.phase not in (Phase.DECLARATION, Phase.RESOLUTION):
                assert not arrows, (g.turn, g.phase, arrows)  # R6.2: attacks end with the phase
                continue
            live = set()
            for a in g.attacks.values():
                au = g.units.get(a.attackers[0])
                tu = g.units.get(a.target) if a.target else None
                pair = (
                    au.hex if au else None,
                    a.building if a.building is not None else (tu.hex if tu else None),
                )
                if not a.resolved:
                    live.add(pair)
            for a in g.attacks.values():
                if a.resolved:
                    resolved_seen += 1
            assert arrows <= live, (g.turn, g.phase, arrows - live)
        assert resolved_seen, f"no attack was resolved (seed {SEED})"
    finally:
        win.close()


def test_a_narrow_unit_card_counts_its_weapons_in_good_english():
    from hexwar.game import ruleset
    from hexwar.ui.card_face import paint_unit_card
    from hexwar.ui.widgets import Painter

    g, win = _movement_window()
    try:
        p = Painter(win.mapview.atlas)
        one = ruleset.unit_card("de_sdkfz_251")  # one weapon: 2x MG 34s
        assert len(one.weapons) == 1
        paint_unit_card(p, one, 0, 0, 130, 110)
        assert any(t.startswith("1 weapon (") for t in p.texts), p.texts
    finally:
        win.close()


def test_the_window_redraws_its_panels_after_another_window_closed():
    # the replay viewer (Ctrl+R) or `hexwar render` closes its own window and leaves no GL
    # context current: the next mouse move over the play window raised "No GL context"
    g, win = _movement_window()
    other = window_for(scenario("game_tiny").new_game(seed=1))
    try:
        other.switch_to()
        other.close()
        x, y = win.screen_point(H("E05"))
        win.dispatch_event("on_mouse_motion", x, y, 0, 0)
        assert win.controller.hover == H("E05") and "Move here: 1 MP (click or G)" in win.screen_texts()
    finally:
        win.close()


def test_hexwar_play_fast_reaches_the_window_and_turns_the_roll_pause_off(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from hexwar.cli import cli
    from hexwar.cli import game as cli_game
    from hexwar.ui import play_window

    monkeypatch.setenv("HEXWAR_AUTOSAVE_DIR", str(tmp_path))
    seen: list[dict] = []
    monkeypatch.setattr(play_window, "run", lambda **kw: seen.append(kw))
    monkeypatch.setattr(cli_game, "_no_display", lambda: False)
    data = str(__import__("pathlib").Path(__file__).parent / "data" / "game_tiny.toml")
    for args in ([data, "--fast"], [data]):
        r = CliRunner().invoke(cli, ["play", *args])
        assert r.exit_code == 0, r.output
    assert seen[0].get("fast") is True and not seen[1].get("fast")
    win = window_for(scenario("game_tiny").new_game(seed=1), fast=True)
    try:
        assert not win.controller.feed.on  # --fast: no pause, no box
    finally:
        win.close()


def test_hexwar_play_opens_a_window_no_larger_than_the_screen(monkeypatch, tmp_path):
    # walk-through at 800x600: the 1400x900 window ran off the screen, the quit question cut
    import types

    import pyglet

    from hexwar.render import backend
    from hexwar.ui import play_window

    class Stop(Exception):
        pass

    seen: dict = {}

    def record(*a, **kw):
        seen.update(kw)
        raise Stop

    screen = types.SimpleNamespace(width=800, height=600)
    monkeypatch.setattr(
        pyglet.display, "get_display", lambda: types.SimpleNamespace(get_default_screen=lambda: screen)
    )
    monkeypatch.setattr(backend, "require_display", lambda: None)
    monkeypatch.setattr(play_window, "PlayWindow", record)
    monkeypatch.setenv("HEXWAR_AUTOSAVE_DIR", str(tmp_path))  # run() reads the last game's seed there
    with pytest.raises(Stop):
        play_window.run(scenario("game_tiny"))
    assert (seen["width"], seen["height"]) == (800, 600)
    screen.width, screen.height = 2560, 1440
    with pytest.raises(Stop):
        play_window.run(scenario("game_tiny"))
    assert (seen["width"], seen["height"]) == (1400, 900)


def test_a_new_window_game_after_one_of_the_same_scenario_deals_the_next_seed(tmp_path, monkeypatch):
    # fresh7: every `hexwar play` dealt the scenario's seed again (the same Reserves decks,
    # the same initiative dice, the computer's same deck), even "New game" at the resume offer;
    # the card table already moved to next_seed of its last autosaved game
    import os
    import types

    import pyglet

    from hexwar.game.save import write_save
    from hexwar.render import backend
    from hexwar.ui import play_window
    from hexwar.ui.lines_start import next_seed

    class Stop(Exception):
        pass

    seen: dict = {}

    def record(state, **kw):
        seen["seed"] = state.seed
        raise Stop

    screen = types.SimpleNamespace(width=1400, height=900)
    monkeypatch.setattr(
        pyglet.display, "get_display", lambda: types.SimpleNamespace(get_default_screen=lambda: screen)
    )
    monkeypatch.setattr(backend, "require_display", lambda: None)
    monkeypatch.setattr(play_window, "PlayWindow", record)
    monkeypatch.setenv("HEXWAR_AUTOSAVE_DIR", str(tmp_path))
    sc = scenario("game_tiny")

    def seed_of_new_game(**kw) -> int:
        with pytest.raises(Stop):
            play_window.run(sc, **kw)
        return seen["seed"]

    assert seed_of_new_game() == sc.seed  # no game of it yet: the scenario's seed
    write_save(sc.new_game(seed=sc.seed), tmp_path / "game_tiny-1.json")
    first = next_seed(sc.seed)
    assert first != sc.seed and seed_of_new_game() == first
    write_save(sc.new_game(seed=first), tmp_path / "game_tiny-2.json")
    older = (tmp_path / "game_tiny-1.json").stat().st_mtime
    os.utime(tmp_path / "game_tiny-2.json", (older + 60, older + 60))  # the newest, whatever the clock
    assert seed_of_new_game() == next_seed(first)
    assert seed_of_new_game(seed=5) == 5  # --seed N still picks one
