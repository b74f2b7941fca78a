"""What the third fresh player (issue 17's last step) tripped on in a real window, each driven
headless by dispatched key events: Tab in the Declaration phase reaches every unit that has not
declared (R6.1), the starting hand is picked card after card with C, a picked unit card puts the
hex cursor into its deploy zone and Enter commits it (R5.2), artillery on one's own units is
warned about first (R9.4), the player chooses the Command card set aside for +1 initiative
(R1.3), the raised hand card keeps clear of the hand's title, the artillery strike's ring does
not stay all turn, and the window is shown only with its first frame drawn."""

from __future__ import annotations

import pytest
from play_window_helpers import PlayWindow, key, press
from play_window_helpers import window_for as _window_for

pytestmark = pytest.mark.ui

from game_helpers import H, advance_to, place, scenario  # noqa: E402

from hexwar.game import ruleset, targeting  # noqa: E402
from hexwar.game.commands import ChooseHand, Commit, Draw, EndPhase, TargetArtillery  # noqa: E402
from hexwar.game.state import Phase  # noqa: E402
from hexwar.model.hexgrid import Hex  # noqa: E402
from hexwar.render.gamescene import short_name  # noqa: E402
from hexwar.ui.clock import ManualClock  # noqa: E402
from hexwar.ui.log_view import StrikeView  # noqa: E402

SEED = 7


def window_for(state, size=(1400, 900)) -> PlayWindow:
    return _window_for(state, size=size)


# -- (a) Tab in the Declaration phase ------------------------------------------------------------------
def test_tab_in_the_declaration_phase_reaches_every_unit_and_says_which_have_no_target():
    g = scenario("game_small").new_game(seed=SEED)
    advance_to(g, Phase.COMMITMENT)
    # one German with a target (a Pz IV beside the Soviet rifles in K07) and one without any
    near = place(g, "de_pz_iv_g", "J07", crew="de_tank_crew_regular")
    place(g, "de_pz_iv_g", "J06", crew="de_tank_crew_regular")  # keeps the phase open after one declares
    far = place(g, "de_grenadiers", "A10")
    advance_to(g, Phase.DECLARATION, "german")
    win = window_for(g)
    try:
        ctl = win.controller
        ctl.confirm_pass()
        mine = sorted(
            uid
            for uid, u in g.units.items()
            if u.side == "german" and u.hex is not None and u.crewing is None
        )
        with_target = {uid for uid in mine if targeting.legal_targets(g, "german", uid)}
        assert near.uid in with_target and far.uid not in with_target, "the test needs both kinds"
        seen, said = [], {}
        for _ in range(len(mine)):
            press(win, key.TAB)
            seen.append(ctl.selected)
            said[ctl.selected] = ctl.status()[0]
        assert sorted(seen) == mine  # every unit once, not only those with a target
        assert "no target in range and LOS (R6.1)" in said[far.uid]
        assert "legal target" in said[near.uid] and "T prepares" in said[near.uid]
        # a unit that declared is done (R6.1: one attack each): Tab passes it by
        ctl.select(near.uid)
        press(win, key.T)
        press(win, key.ENTER)
        assert g.attacks and near.uid in g.attacks[max(g.attacks)].attackers
        # the prompt says it has declared, not that it "has no legal target now"
        ctl.select(near.uid)
        assert f"has declared attack {max(g.attacks)}" in ctl.prompt(), ctl.prompt()
        for _ in range(len(mine) + 1):
            press(win, key.TAB)
            assert ctl.selected != near.uid
    finally:
        win.close()


# -- C in the Setup phase picks card after card ---------------------------------------------------------
def test_c_pressed_again_in_setup_picks_the_next_card_and_never_takes_the_last_one_back():
    g = scenario("game_small").new_game(seed=SEED)
    advance_to(g, Phase.SETUP, "soviet")
    win = window_for(g)
    try:
        ctl = win.controller
        ctl.confirm_pass()
        want = g.scenario.sides["soviet"].hand_size
        assert want >= 3
        for n in range(1, want + 1):
            press(win, key.C)
            assert len(ctl.hand_pick) == n, (n, ctl.hand_pick)
        picked = list(ctl.hand_pick)
        assert len(set(picked)) == want
        # the full hand is named, as the hand row may have scrolled the picks out of sight
        prompt = ctl.prompt()
        assert prompt.startswith("Your starting hand: ") and "Keep it (Enter)" in prompt
        assert all(short_name(ruleset.card_name(c)) in prompt for c in picked)
        press(win, key.ENTER)  # the crew warning may ask once: Enter again keeps the hand
        if not g.commands or not isinstance(g.commands[-1], ChooseHand):
            press(win, key.ENTER)
        assert isinstance(g.commands[-1], ChooseHand) and list(g.commands[-1].cards) == picked
    finally:
        win.close()


# -- a picked unit card: the cursor goes to its deploy zone, Enter commits -------------------------------
def test_a_picked_unit_card_puts_the_cursor_in_its_deploy_zone_and_enter_or_g_commits_it():
    g = scenario("game_small").new_game(seed=SEED)
    advance_to(g, Phase.COMMITMENT, "german")
    win = window_for(g)
    try:
        ctl = win.controller
        ctl.confirm_pass()
        card = ctl.committable()[0]
        while ctl.hover_card != card:
            press(win, key.BRACKETRIGHT)
        press(win, key.C)  # the key, not the button: the card is picked ...
        assert ctl.card == card
        assert ctl.cursor in ctl.deploy_hexes()  # ... and the cursor waits in the deploy zone,
        m = g.battlemap  # at its hex nearest the middle of the map (the front), not a corner
        mid = Hex.from_offset(m.width // 2, m.height // 2)
        best = min((h.distance(mid), abs(h.offset[1] - mid.offset[1])) for h in ctl.deploy_hexes())
        assert (ctl.cursor.distance(mid), abs(ctl.cursor.offset[1] - mid.offset[1])) == best
        at = ctl.cursor
        outside = next(
            h
            for h in (Hex.from_offset(c, r) for c in range(m.width) for r in range(m.height))
            if h not in ctl.deploy_hexes() and not g.units_at(h)
        )
        ctl.set_cursor(outside)
        n = len(g.commands)
        press(win, key.G)  # G beside the zone says why, it is not silent
        assert len(g.commands) == n and ctl.status()[1] and "is not a deploy hex" in ctl.status()[0]
        ctl.set_cursor(at)
        commit = next(a for a in ctl.actions() if a.label == f"Commit in {g.hex_label(at)}")
        assert commit.primary and commit.key == "Enter"
        assert not any(a.primary for a in ctl.actions() if a.label == "End phase")
        n = len(g.commands)
        press(win, key.ENTER)  # Enter commits, it does not end the phase
        assert len(g.commands) == n + 1 and isinstance(g.commands[-1], Commit) and g.commands[-1].hex == at
        if ctl.committable():  # G at the cursor commits as well
            press(win, key.C) if ctl.hover_card in ctl.committable() else ctl.pick_next_commit()
            assert ctl.cursor in ctl.deploy_hexes()
            at = ctl.cursor
            press(win, key.G)
            assert isinstance(g.commands[-1], Commit) and g.commands[-1].hex == at
    finally:
        win.close()


# -- (c) artillery on one's own unit ------------------------------------------------------------------
def test_artillery_on_a_hex_with_ones_own_unit_is_warned_about_before_it_is_called():
    g = scenario("game_small").new_game(seed=SEED)
    advance_to(g, Phase.ARTILLERY, "german")
    pak = next(u for u in g.units.values() if u.side == "german" and u.hex == H("C05"))
    assert g.check(TargetArtillery("german", H("C05"))) is None, "the rules allow it (R9.2)"
    win = window_for(g)
    try:
        ctl = win.controller
        ctl.confirm_pass()
        ctl.set_cursor(H("C05"))
        win.refresh()
        texts = " ".join(win.screen_texts())
        assert "Call artillery here" not in texts
        assert "Your own" in texts and "attacks every unit there (R9.4)" in texts
        assert ctl.artillery_warning(H("C05")) is not None and pak.uid in g.units
        n = len(g.commands)
        press(win, key.G)
        assert len(g.commands) == n, "called on one's own unit without a word"
        msg, err = ctl.status()
        assert err and "Your own" in msg and "again" in msg
        assert ctl.artillery_warning(H("K07")) is None  # an enemy hex: no warning
        press(win, key.G)  # asked once: the second G calls it
        assert isinstance(g.commands[n], TargetArtillery) and g.commands[n].hex == H("C05")
    finally:
        win.close()


# -- (d) the Command card set aside for +1 initiative is the player's choice -------------------------------
def test_the_player_chooses_which_command_card_is_set_aside_for_plus_one_initiative():
    g = scenario("game_small").new_game(seed=SEED)
    advance_to(g, Phase.DRAW, "german")
    side = g.to_act
    hand = list(g.hand_commands[side])
    assert len(hand) >= 2, "the test needs two Command cards in hand"
    win = window_for(g)
    try:
        ctl = win.controller
        ctl.confirm_pass()
        n = len(g.commands)
        init = next(a for a in ctl.actions() if "+1 initiative" in a.label)
        init.run()  # no card picked yet: it asks for one, it does not draw with the first card
        assert len(g.commands) == n and ctl.card == hand[0]
        assert "set aside" in ctl.status()[0]
        press(win, key.BRACKETRIGHT)  # the card cursor to the second Command card, C picks it
        while ctl.hover_card != hand[1]:
            press(win, key.BRACKETRIGHT)
        press(win, key.C)
        assert ctl.card == hand[1]
        named = next(a for a in ctl.actions() if "+1 initiative" in a.label)
        assert not named.label.endswith("...") and named.primary
        assert ruleset.card_name(hand[1]) in named.tip and ruleset.card_name(hand[1]) in ctl.status()[0]
        assert short_name(ruleset.card_name(hand[1]))
        press(win, key.ENTER)
        d = g.commands[n]
        assert isinstance(d, Draw) and d.initiative_card == hand[1]
        assert hand[1] not in g.hand_commands[side] and hand[0] in g.hand_commands[side]
    finally:
        win.close()


# -- (e) the raised hand card and the hand's title ---------------------------------------------------------
@pytest.mark.parametrize("size", [(1400, 900), (1024, 640), (800, 600)])
def test_the_raised_hand_card_and_its_cursor_frame_stay_below_the_hands_title(size):
    from hexwar.ui.panels import Painter, paint_screen

    class Recording(Painter):
        def frame(self, x0, y0, x1, y1, *a, **kw):
            self.frames = getattr(self, "frames", []) + [(x0, y0, x1, y1)]
            return super().frame(x0, y0, x1, y1, *a, **kw)

    g = scenario("game_small").new_game(seed=SEED)
    advance_to(g, Phase.SETUP, "soviet")
    win = window_for(g, size=size)
    try:
        ctl = win.controller
        ctl.confirm_pass()
        press(win, key.BRACKETRIGHT)  # the card cursor's frame
        ctl.pick_card(ctl.hand_cards()[0])  # a picked (raised) card
        p = Recording(win.mapview.atlas)
        paint_screen(p, ctl, size[0], size[1], win.looks, win.flags, win._buttons())
        box = next(b for b in p.text_boxes if "pick your starting hand" in b[4])
        # the box is the cap height; "p", "y" and "g" reach 0.3 em below it (12 pt)
        title = (box[0], box[1] - 0.3 * 12, box[2], box[3], box[4])
        cards = [w for w in p.widgets if w.tip.startswith("card ")]
        lifted_top = max(w.y + w.h for w in cards) + 6  # a picked card is raised 6 points
        assert lifted_top <= title[1], (lifted_top, title)
        frames = [f for f in getattr(p, "frames", []) if any(abs(f[0] - (w.x - 3)) < 0.5 for w in cards)]
        assert frames and max(f[3] for f in frames) <= title[1] + 0.5, (frames, title)
    finally:
        win.close()


# -- (f) the artillery strike's ring goes when the turn goes on -------------------------------------------
def test_the_artillery_strike_marker_is_gone_once_the_movement_phase_begins():
    g = scenario("game_small").new_game(seed=SEED)
    advance_to(g, Phase.COMMITMENT, "german")
    win = window_for(g)
    try:
        ctl = win.controller
        ctl.confirm_pass()
        strike = StrikeView("german", H("K07"), H("K07"), 0, 0, True, False, "strike", g.turn)
        ctl.log_view.strike = strike
        win.refresh()
        assert win.mapview._overlays.get("strike") is not None  # shown right after it fell
        while g.phase == Phase.COMMITMENT:
            g.apply(EndPhase(g.to_act))
        ctl._touch()
        ctl.log_view.strike = strike
        win.refresh()
        assert g.phase != Phase.COMMITMENT and g.turn == strike.turn
        assert win.mapview._overlays.get("strike") is None  # no stray red ring in Movement
    finally:
        win.close()


# -- (b) the first frame is drawn before the window is shown --------------------------------------------
def test_the_play_window_is_shown_only_with_its_first_frame_drawn(monkeypatch):
    import pyglet

    from hexwar.ui import play_window as pw

    events: list[str] = []
    init, draw, vis = pw.PlayWindow.__init__, pw.PlayWindow.on_draw, pw.PlayWindow.set_visible

    def rec_init(self, *a, **kw):
        events.append("created visible" if kw.get("visible", True) else "created hidden")
        kw.update(width=800, height=600, schedule=False, clock=ManualClock())
        init(self, *a, **kw)
        opened.append(self)

    def rec_draw(self):
        events.append("draw")
        draw(self)

    def rec_visible(self, visible=True):
        events.append("shown" if visible else "hidden")
        vis(self, False)  # headless: never really mapped

    opened: list[PlayWindow] = []
    monkeypatch.setattr(pw.PlayWindow, "__init__", rec_init)
    monkeypatch.setattr(pw.PlayWindow, "on_draw", rec_draw)
    monkeypatch.setattr(pw.PlayWindow, "set_visible", rec_visible)
    monkeypatch.setattr(pw.backend, "require_display", lambda: None)
    monkeypatch.setattr(pyglet.app, "run", lambda *a, **k: events.append("loop"))
    try:
        pw.run(scenario("game_small"), seed=SEED, ai={})
    finally:
        for w in opened:
            w.close()
    assert events[0] == "created hidden", events
    shown = events.index("shown")
    assert "draw" in events[:shown] and "draw" in events[shown : events.index("loop")], events


# -- the hex cursor on an edge hex of a fitted map does not move the map --------------------------------
def test_the_cursor_on_a_corner_hex_of_the_fitted_map_leaves_the_map_where_it_is():
    from hexwar.game.scenario import find_scenario, load_scenario

    g = load_scenario(find_scenario("standard")).new_game(seed=SEED)  # the window's default game
    win = window_for(g, size=(1400, 900))
    try:
        ctl = win.controller
        ctl.confirm_pass()
        m = g.battlemap
        before = tuple(win.mapview.camera.center)
        for h in (H("A01"), Hex.from_offset(m.width - 1, m.height - 1)):
            x0, y0, x1, y1 = win.map_area()
            x, y = win.screen_point(h)
            assert x0 <= x <= x1 and y0 <= y <= y1, "the fitted map shows its corners"
            ctl.set_cursor(h)
            win.refresh()
            assert tuple(win.mapview.camera.center) == before, h.label
        # a hex really out of sight is still brought into view
        win.mapview.camera.zoom_at(*win.screen_point(H("A01")), 4.0)
        far = Hex.from_offset(m.width - 1, m.height - 1)
        ctl.set_cursor(far)
        win.refresh()
        x0, y0, x1, y1 = win.map_area()
        x, y = win.screen_point(far)
        assert x0 <= x <= x1 and y0 <= y <= y1
    finally:
        win.close()


# -- + and - zoom about the hex cursor; the title says where the selected unit may move ---------------------
def test_zoom_keys_zoom_about_the_hex_cursor_and_the_title_gives_the_move_cost():
    g = scenario("game_small").new_game(seed=SEED)
    advance_to(g, Phase.COMMITMENT)
    place(g, "de_grenadiers", "D05")
    advance_to(g, Phase.MOVEMENT, "german")
    win = window_for(g)
    try:
        ctl = win.controller
        ctl.confirm_pass()
        press(win, key.TAB)
        reach = ctl.reach_costs()
        assert reach, "the test needs a unit that can move"
        dest = max(sorted(reach, key=lambda h: (h.q, h.r)), key=lambda h: reach[h])
        ctl.set_cursor(dest)
        win.refresh()
        assert f"{dest.label}: " in win._caption and f"move here: {reach[dest]:g} MP" in win._caption
        before = win.screen_point(dest)
        press(win, key.PLUS)
        press(win, key.PLUS)
        after = win.screen_point(dest)
        assert abs(after[0] - before[0]) < 1.0 and abs(after[1] - before[1]) < 1.0, (before, after)
    finally:
        win.close()


# -- the tooltip does not repeat the card the side panel shows -------------------------------------------
def test_the_tooltip_over_the_unit_shown_in_the_side_panel_keeps_to_its_state():
    g = scenario("game_small").new_game(seed=SEED)
    advance_to(g, Phase.COMMITMENT)
    u = place(g, "de_pz_iv_g", "D05", crew="de_tank_crew_regular")
    advance_to(g, Phase.MOVEMENT, "german")
    win = window_for(g)
    try:
        ctl = win.controller
        ctl.confirm_pass()
        weapon = next(ln for ln in ctl.unit_lines(u.uid) if ln.strip().startswith("1."))
        ctl.select(u.uid)
        ctl.set_cursor(H("D05"))
        texts = win.screen_texts()
        first = weapon.strip()[:20]
        # issue 36: the side panel draws the unit as its card (the Armament table, not the
        # "1. ..." help lines), and the tooltip does not repeat the weapon lines either
        assert sum(t.startswith(first) for t in texts) == 0, [t for t in texts if t.startswith(first)]
        assert "7.5 cm KwK 40 L/43" in texts  # the weapon's row on the card in the side panel
        assert any(t.startswith("Now:") for t in texts)  # its state stays in the tooltip
        # another unit under the cursor still gets its whole card in the tooltip
        other = place(g, "de_grenadiers", "D06")
        ctl._touch()
        ctl.set_cursor(H("D06"))
        ow = next(ln for ln in ctl.unit_lines(other.uid) if ln.strip().startswith("1.")).strip()[:20]
        assert any(t.startswith(ow) for t in win.screen_texts())
    finally:
        win.close()


# -- a refused End phase says what to do instead ----------------------------------------------------------
def test_space_before_the_draw_says_why_not_and_what_to_do_now():
    g = scenario("game_small").new_game(seed=SEED)
    advance_to(g, Phase.DRAW, "german")
    win = window_for(g)
    try:
        ctl = win.controller
        ctl.confirm_pass()
        assert EndPhase("german") not in g.legal_commands(), "the draw must come first (R5.5)"
        n = len(g.commands)
        press(win, key.SPACE)
        msg, err = ctl.status()
        assert len(g.commands) == n and err
        assert msg.startswith("End phase: not yet, ") and "Draw buttons" in msg, msg
    finally:
        win.close()


# -- a Command card for a unit: the cursor goes onto a unit it may go on, Enter plays it -------------------
def test_a_picked_command_card_for_a_unit_puts_the_cursor_on_one_and_enter_plays_it():
    from game_helpers import step

    from hexwar.game.commands import UseCommandCard

    g = scenario("game_small").new_game(seed=SEED)
    advance_to(g, Phase.COMMITMENT)
    place(g, "de_pz_iv_g", "J07", crew="de_tank_crew_regular")
    card = None
    for _ in range(300):  # the first moment a Command card in hand may go on a unit
        uses = [c for c in g.legal_commands() if isinstance(c, UseCommandCard) and c.unit is not None]
        if uses and g.to_act == "german":
            card = uses[0].card
            break
        step(g)
    assert card is not None, "the test needs a Command card for a unit"
    win = window_for(g)
    try:
        ctl = win.controller
        ctl.confirm_pass()
        while ctl.hover_card is None or ctl.hover_card.split("#")[0] != card.split("#")[0]:
            press(win, key.BRACKETRIGHT)
        press(win, key.C)
        on = ctl.card_unit_targets()
        assert on and ctl.cursor is not None and any(u in on for u in ctl.units_at(ctl.cursor))
        play = next(a for a in ctl.actions() if a.label.startswith("Play on "))
        assert play.primary and play.key == "Enter"
        n = len(g.commands)
        press(win, key.ENTER)
        assert len(g.commands) == n + 1 and isinstance(g.commands[-1], UseCommandCard)
        assert g.commands[-1].unit in on
    finally:
        win.close()


# -- aircraft aloft can be selected and attack from the keyboard ------------------------------------------
def test_tab_reaches_an_aircraft_aloft_and_t_enter_declares_its_attack():
    from hexwar.game.commands import Declare

    g = scenario("game_small").new_game(seed=SEED)
    advance_to(g, Phase.COMMITMENT)
    plane = place(g, "de_ju87g", None, crew="de_pilot_regular")  # aloft: no hex to click (R5.2)
    place(g, "de_pz_iv_g", "J06", crew="de_tank_crew_regular")  # a ground unit with a target too
    advance_to(g, Phase.DECLARATION, "german")
    assert targeting.legal_targets(g, "german", plane.uid), "R7.4: it may attack any ground unit"
    win = window_for(g)
    try:
        ctl = win.controller
        ctl.confirm_pass()
        for _ in range(8):
            press(win, key.TAB)
            if ctl.selected == plane.uid:
                break
        assert ctl.selected == plane.uid, "Tab never reached the aircraft aloft"
        assert "aloft" in ctl.status()[0] and "legal target" in ctl.status()[0]
        press(win, key.T)
        press(win, key.ENTER)
        d = g.commands[-1]
        assert isinstance(d, Declare) and d.attacker == plane.uid
    finally:
        win.close()


# -- T offers first the targets no attack of the side aims at yet -------------------------------------------
def test_t_offers_first_a_target_that_no_declared_attack_aims_at():
    g = scenario("game_small").new_game(seed=SEED)
    advance_to(g, Phase.COMMITMENT)
    a = place(g, "de_pz_iv_g", "J07", crew="de_tank_crew_regular")
    b = place(g, "de_pz_iv_g", "J06", crew="de_tank_crew_regular")
    place(g, "su_rifles", "K06")  # a second Soviet target beside the rifles in K07
    advance_to(g, Phase.DECLARATION, "german")
    win = window_for(g)
    try:
        ctl = win.controller
        ctl.confirm_pass()
        assert len({t[0] for t in targeting.legal_targets(g, "german", b.uid)}) >= 2
        ctl.select(a.uid)
        press(win, key.T)
        press(win, key.ENTER)
        first = g.attacks[max(g.attacks)].target
        ctl.select(b.uid)
        press(win, key.T)
        assert ctl.pending is not None and ctl.pending.target != first
    finally:
        win.close()


# -- G in the Artillery phase without a cursor does what the Aim artillery button (G) says ----------------
def test_g_without_a_cursor_in_the_artillery_phase_aims_at_an_enemy_in_sight():
    g = scenario("game_small").new_game(seed=SEED)
    advance_to(g, Phase.COMMITMENT)
    place(g, "de_grenadiers", "J07")  # an observer beside the Soviet rifles in K07 (R9.2)
    advance_to(g, Phase.ARTILLERY, "german")
    win = window_for(g)
    try:
        ctl = win.controller
        ctl.confirm_pass()
        aim = next(a for a in ctl.actions() if a.label == "Aim artillery")
        assert aim.key == "G" and ctl.cursor is None and ctl.hover is None
        press(win, key.G)
        enemy = {u.hex for u in g.units.values() if u.side == "soviet" and u.hex is not None}
        assert ctl.cursor in enemy, ctl.status()
        n = len(g.commands)
        press(win, key.G)  # the second G calls the mission there
        assert isinstance(g.commands[n], TargetArtillery) and g.commands[n].hex in enemy
    finally:
        win.close()


# -- an indirect-fire target behind blocked LOS says it is observed, not only "LOS blocked" -------------------
def test_a_legal_indirect_fire_target_behind_blocked_los_says_it_is_observed():
    from hexwar.model.los import line_of_sight

    g = scenario("game_small").new_game(seed=SEED)
    advance_to(g, Phase.COMMITMENT)
    gun = place(g, "de_lefh18", "A01", crew="de_artillery_crew_regular")
    place(g, "de_grenadiers", "J07")  # the observer beside the rifles in K07 (R7.3)
    m = g.battlemap
    spot = None
    for c in range(0, 3):
        for r in range(m.height):
            h = Hex.from_offset(c, r)
            if not g.units_at(h) and line_of_sight(m, h, H("K07")).status == "blocked":
                spot = h
                break
        if spot:
            break
    assert spot is not None, "the test needs a hex without LOS to K07"
    g.units[gun.uid].hex = spot
    g.units[g.units[gun.uid].crew].hex = spot
    g.cache.clear()
    advance_to(g, Phase.DECLARATION, "german")
    win = window_for(g)
    try:
        ctl = win.controller
        ctl.confirm_pass()
        ctl.select(gun.uid)
        assert any(g.units[t[0]].hex == H("K07") for t in ctl.targets()), "observed: a legal target"
        ctl.set_cursor(H("K07"))
        texts = " ".join(win.screen_texts())
        assert "indirect fire, a friendly unit observes it (R7.3)" in texts
        assert "indirect fire: observed (R7.3)" in win._caption
    finally:
        win.close()
