"""Issue 17 on the play screen, driven headless by dispatched events: every phase says what
the player can do and what End phase does (R5), the starting hand shows what each unit needs
(R5.2) and warns before keeping a crewless one, a whole turn plays from the keyboard alone,
stale status lines go and automatic phase ends are said as such, layouts do not overlap from
800x600 up and the map re-fits after a resize, the state colours stay apart under simulated
colour-vision deficiencies, quitting asks first and the last game is offered at start, and
the R1.3 bonus roll has its own buttons (issue 13 item 10)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from play_window_helpers import PlayWindow, key, press, window_for

pytestmark = pytest.mark.ui

from game_helpers import H, advance_to, scenario, step  # noqa: E402

from hexwar.game.ai import make_player  # noqa: E402
from hexwar.game.commands import ChooseHand, Commit, Declare, Discard, Draw, EndPhase, Move, Resolve  # noqa: E402
from hexwar.game.state import HAND_LIMIT_UNITS, Phase  # noqa: E402
from hexwar.model.hexgrid import Hex  # noqa: E402
from hexwar.ui.clock import ManualClock  # noqa: E402
from hexwar.ui.controller import PlayController  # noqa: E402
from hexwar.ui.guidance import AutoEnds, crew_need, crewless  # noqa: E402

SEED = 7


# -- item 1: every phase says what to do, with a button for each, and what End phase does ------------
def test_every_phase_of_a_turn_says_what_to_do_now_offers_buttons_and_what_end_phase_does():
    g = scenario("game_small").new_game(seed=SEED)
    ctl = PlayController(g, ai={}, clock=ManualClock())
    seen = set()
    for _ in range(120):
        if g.turn > 1 and g.phase == Phase.COMMITMENT:
            break
        ctl._check_pass()
        ctl.confirm_pass()
        if g.phase not in (Phase.SETUP, Phase.OVER):
            seen.add(g.phase)
            prompt = ctl.prompt()
            assert prompt and prompt != ctl.end_phase_line(), g.phase
            acts = ctl.actions()
            assert acts, f"no button in the {g.phase} phase"
            if EndPhase(g.to_act) in g.legal_commands():
                end = next(a for a in acts if a.label == "End phase")
                assert end.tip == ctl.end_phase_line() and end.tip.startswith("End phase (Space): ")
        step(g)
        ctl._touch()
    assert {Phase.COMMITMENT, Phase.MOVEMENT, Phase.DRAW} <= seen


def test_enter_in_the_commitment_phase_picks_a_unit_and_never_ends_the_phase_while_units_are_left():
    # the fresh player's pass (newuser2): Enter after Ctrl+Z ended the commitment with nothing committed
    g = scenario("game_small").new_game(seed=SEED)
    advance_to(g, Phase.COMMITMENT)
    ctl = PlayController(g, ai={}, clock=ManualClock())
    ctl.confirm_pass()
    assert ctl.committable()
    primary = [a for a in ctl.actions() if a.primary and a.enabled]
    assert primary and primary[0].label == "Pick a unit to commit"
    assert not any(a.primary for a in ctl.actions() if a.label == "End phase")
    phase, n = g.phase, len(g.commands)
    primary[0].run()
    assert g.phase == phase and len(g.commands) == n and ctl.card is not None


def test_over_the_hand_limit_the_draw_phase_prompts_and_has_a_discard_button():
    g = scenario("game_small").new_game(seed=SEED)
    advance_to(g, Phase.DRAW)
    side = g.to_act
    # more unit cards than the limit (R5.5): the Reserves go into the hand before the draw
    while len(g.hand_units[side]) <= HAND_LIMIT_UNITS + 1 and g.reserves[side]:
        g.hand_units[side].append(g.reserves[side].pop())
    ctl = PlayController(g, ai={}, clock=ManualClock())
    ctl.confirm_pass()
    draw = next(a for a in ctl.actions() if a.label.startswith("Draw"))
    draw.run()
    assert isinstance(g.commands[-1], Draw) and g.to_act == side
    assert (
        "over the limit" in ctl.prompt()
        and f"units {len(g.hand_units[side])}/{HAND_LIMIT_UNITS}" in ctl.prompt()
    )
    assert "End phase: not yet" in ctl.end_phase_line() and "discard" in ctl.end_phase_line()
    pick = next(a for a in ctl.actions() if a.label == "Pick a card to discard")
    assert pick.primary
    pick.run()
    assert ctl.card is not None
    discard = next(a for a in ctl.actions() if a.label == "Discard")
    n = len(g.hand_units[side]) + len(g.hand_commands[side])
    discard.run()
    assert (
        isinstance(g.commands[-1], Discard) and len(g.hand_units[side]) + len(g.hand_commands[side]) == n - 1
    )


# -- item 2: the starting hand -------------------------------------------------------------------------
def test_crew_needs_are_read_from_the_card_data_and_matched_one_crew_per_unit():
    assert crew_need("su_t34_76") == "a tank crew card"
    assert crew_need("su_rifles") is None and crew_need("su_tank_crew_regular") is None
    assert crew_need("de_sdkfz_251") == "an infantry unit to carry"
    assert crewless(["su_t34_76#1", "su_t34_76#2", "su_tank_crew_regular#1"]) == ["su_t34_76#2"]
    assert crewless(["de_sdkfz_251#1", "de_grenadiers#1"]) == []


def test_starting_hand_shows_cards_in_full_marks_crew_needs_and_warns_before_keeping_a_crewless_hand():
    g = scenario("game_small").new_game(seed=SEED)
    win = window_for(g)
    try:
        ctl = win.controller
        ctl.confirm_pass()
        assert g.phase == Phase.SETUP and ctl.shown_side == "soviet"
        cards = ctl.hand_cards()
        t34 = next(c for c in cards if c.startswith("su_t34_76"))
        # the card cursor shows the card in full in the side panel, and what it needs
        for _ in range(cards.index(t34) + 1):
            press(win, key.BRACKETRIGHT)
        assert ctl.hover_card == t34
        texts = win.screen_texts()
        assert "CARD" in texts and "needs a tank crew card" in texts and "+ tank crew" in texts
        press(win, key.C)
        assert ctl.hand_pick == [t34]
        assert "needs tank crew" in win.screen_texts()  # picked without a crew: marked in red
        assert "T-34" in ctl.prompt() and "still needs a tank crew card" in ctl.prompt()
        for c in cards:
            if (
                len(ctl.hand_pick) < g.scenario.sides["soviet"].hand_size
                and not c.startswith("su_tank_crew")
                and c != t34
            ):
                ctl.pick_card(c)
        press(win, key.ENTER)  # Keep hand: a warning first, nothing is kept
        assert g.phase == Phase.SETUP and ctl.error and "needs a tank crew card" in ctl.message
        assert [a.label for a in ctl.actions()][0] == "Keep anyway"
        press(win, key.ENTER)
        assert isinstance(g.commands[-1], ChooseHand) and t34 in g.commands[-1].cards
    finally:
        win.close()


def test_a_card_that_cannot_be_used_is_refused_with_the_rules_reason():
    g = scenario("game_small").new_game(seed=SEED)
    # the Soviet keeps a T-34 without its tank crew
    t34 = next(c for c in g.reserves["soviet"] if c.startswith("su_t34_76"))
    rest = [c for c in g.reserves["soviet"] if c != t34 and not c.startswith("su_tank_crew")]
    g.apply(ChooseHand("soviet", (t34, *rest[: g.scenario.sides["soviet"].hand_size - 1])))
    advance_to(g, Phase.COMMITMENT, "soviet")
    ctl = PlayController(g, ai={"german": make_player("standard", "german", 1)}, clock=ManualClock())
    ctl.pick_card(t34)
    assert (
        "cannot be used now" in ctl.message and "needs a tank crew card from your hand (R5.2)" in ctl.message
    )
    assert "commitment phase)" not in ctl.message and "crew=" not in ctl.message


# -- item 3: keyboard play ------------------------------------------------------------------------------
def walk_cursor(win: PlayWindow, target: Hex) -> None:
    """Arrow keys until the hex cursor is on ``target`` (columns first, then rows)."""
    ctl = win.controller
    if ctl.cursor is None:
        press(win, key.LEFT)
    for _ in range(200):
        c = ctl.cursor
        if c == target:
            return
        cc, tc = c.offset[0], target.offset[0]
        if cc != tc:
            press(win, key.RIGHT if tc > cc else key.LEFT)
        else:
            y0, y1 = win.screen_point(c)[1], win.screen_point(target)[1]
            press(win, key.UP if y1 > y0 else key.DOWN)
    raise AssertionError(f"cursor stuck at {ctl.cursor}, wanted {target}")


def test_a_whole_turn_is_played_with_the_keyboard_alone():
    """Hot-seat, both sides by key events only: commit (card cursor, C, arrows, G), move (Tab,
    arrows, G), declare (T, Enter) when a target is in range, resolve (R), draw and discard
    (Enter), end phases (Space), the pass screen (Enter), from the Commitment of turn 1 to the
    next turn."""
    g = scenario("game_small").new_game(seed=SEED)
    advance_to(g, Phase.COMMITMENT)
    win = window_for(g)
    try:
        ctl = win.controller
        done: dict[tuple[int, str, str], int] = {}
        for _ in range(400):
            if g.turn > 1 and g.phase == Phase.COMMITMENT:
                break
            if ctl.pass_to is not None:
                press(win, key.ENTER)
                continue
            side, ph = g.to_act, g.phase
            tries = done.get((g.turn, ph, side), 0)
            done[(g.turn, ph, side)] = tries + 1
            n = len(g.commands)
            if ph == Phase.COMMITMENT and tries == 0 and ctl.committable():
                card = ctl.committable()[0]
                while ctl.hover_card != card:
                    press(win, key.BRACKETRIGHT)
                press(win, key.C)
                target = ctl.deploy_hexes()[-1]
                walk_cursor(win, target)
                press(win, key.G)
                assert isinstance(g.commands[-1], Commit) and g.commands[-1].hex == target
            elif ph == Phase.MOVEMENT and tries == 0 and ctl.useful_units():
                press(win, key.TAB)
                reach = ctl.reach_costs()
                dest = max(sorted(reach, key=lambda h: (h.q, h.r)), key=lambda h: reach[h])
                walk_cursor(win, dest)
                press(win, key.G)
                assert isinstance(g.commands[-1], Move) and g.commands[-1].path[-1] == dest
            elif ph == Phase.DECLARATION and tries == 0 and ctl.useful_units():
                for _ in ctl.useful_units():
                    press(win, key.TAB)
                    if ctl.targets():
                        break
                if ctl.targets():
                    press(win, key.T)
                    press(win, key.ENTER)
                    assert isinstance(g.commands[-1], Declare)
                else:
                    press(win, key.SPACE)
            elif ph == Phase.RESOLUTION:
                press(win, key.R)
            elif ph == Phase.DRAW:
                press(
                    win,
                    key.ENTER
                    if (
                        any(isinstance(c, Draw | Discard) for c in g.legal_commands()) or ctl.card is not None
                    )
                    else key.SPACE,
                )
            else:
                press(win, key.SPACE)
            assert len(g.commands) > n or ctl.card is not None or ctl.pass_to is not None, (
                f"{ph} {side}: a key did nothing ({ctl.status()})"
            )
        assert g.turn == 2, (g.turn, g.phase)
        kinds = {type(c) for c in g.commands}
        assert {Commit, Move, EndPhase, Draw} <= kinds
    finally:
        win.close()


def test_arrow_keys_move_the_hex_cursor_to_neighbours_and_shift_arrows_pan_the_map():
    g = scenario("game_small").new_game(seed=SEED)
    advance_to(g, Phase.MOVEMENT)
    win = window_for(g)
    try:
        ctl = win.controller
        ctl.confirm_pass()
        press(win, key.TAB)
        start = ctl.cursor
        assert start == g.units[ctl.selected].hex
        for sym in (key.UP, key.RIGHT, key.DOWN, key.LEFT):
            before = ctl.cursor
            press(win, sym)
            assert ctl.cursor.distance(before) == 1 and ctl.hover == ctl.cursor
        assert start.distance(ctl.cursor) <= 1
        assert ctl.inspect_text() in win.caption  # the inspector follows the keyboard cursor
        cam = win.mapview.camera.center
        press(win, key.LEFT, key.MOD_SHIFT)
        assert win.mapview.camera.center != cam and ctl.cursor is not None
    finally:
        win.close()


# -- item 5: stale status, automatic ends -----------------------------------------------------------------
def test_status_lines_go_stale_after_the_next_command_and_automatic_ends_are_said_as_such():
    g = scenario("game_small").new_game(seed=SEED)
    advance_to(g, Phase.MOVEMENT)
    ctl = PlayController(g, ai={}, clock=ManualClock())
    ctl.confirm_pass()
    ctl.next_unit()
    assert "selected" in ctl.status()[0]
    mv = next(c for c in g.legal_commands() if isinstance(c, Move) and c.unit == ctl.selected)
    ctl.issue(mv)
    assert "selected" not in ctl.status()[0]
    # an automatic end is said as such: a phase closing without the side's End phase
    auto = AutoEnds()
    from hexwar.game.events import Event

    ev = [
        Event("phase", "x", {"phase": "movement", "turn": 2}),
        Event("end_phase", "x", {"side": "german"}),
        Event("phase", "x", {"phase": "declaration", "turn": 2}),
    ]
    (a,) = auto.feed(ev)
    assert (a.side, a.phase) == ("soviet", "movement") and "ended automatically" in a.text
    # and in a real game the log says so
    g2 = scenario("game_small").new_game(seed=SEED)
    ctl2 = PlayController(g2, ai={}, clock=ManualClock())
    for _ in range(200):
        if any(ln.kind == "auto_end" for ln in ctl2.log) or g2.turn > 2:
            break
        ctl2.issue(
            next(
                c
                for c in g2.legal_commands()
                if isinstance(c, EndPhase | Draw | Discard | Resolve | ChooseHand)
            )
        )
    assert any(ln.kind == "auto_end" and "ended automatically (nothing to do)" in ln.text for ln in ctl2.log)


def test_an_automatic_end_is_logged_before_the_event_that_closed_its_phase():
    # newuser2: the lines were added after the whole batch, so a turn-N line sat under "Turn N+1"
    g = scenario("game_small").new_game(seed=SEED)
    ctl = PlayController(g, ai={}, clock=ManualClock())
    for _ in range(300):
        if any(ln.kind == "auto_end" for ln in ctl.log) or g.over:
            break
        ctl.issue(
            next(
                c
                for c in g.legal_commands()
                if isinstance(c, EndPhase | Draw | Discard | Resolve | ChooseHand)
            )
        )
    log = ctl.log
    idx = [i for i, ln in enumerate(log) if ln.kind == "auto_end"]
    assert idx, f"seed {SEED}: no automatic end in 300 commands"
    for i in idx:
        phase = log[i].text.split(": ", 1)[1].split(" phase")[0].split(", ")[-1]
        opened = max(j for j in range(i) if log[j].kind == "phase")
        assert f"{phase} phase" in log[opened].text.lower(), (log[opened].text, log[i].text)
        assert log[i].turn == log[opened].turn


# -- item 6: layouts ---------------------------------------------------------------------------------------
def _overlaps(boxes):
    out = []
    for a, b in itertools.combinations(boxes, 2):
        if min(a[2], b[2]) - max(a[0], b[0]) > 1.0 and min(a[3], b[3]) - max(a[1], b[1]) > 1.0:
            out.append((a[4], b[4]))
    return out


@pytest.mark.parametrize("size", [(800, 600), (1024, 640), (1000, 700), (1600, 1000)])
def test_panels_lay_out_without_overlapping_texts_or_buttons(size):
    g = scenario("game_small").new_game(seed=SEED)
    advance_to(g, Phase.MOVEMENT)
    win = window_for(g, size=(1200, 800))
    try:
        win.set_size(*size)
        win.dispatch_event("on_resize", *size)
        win.controller.confirm_pass()
        win.controller.next_unit()
        from hexwar.ui.panels import Painter, layout, paint_screen

        p = Painter(win.mapview.atlas)
        paint_screen(p, win.controller, size[0], size[1], win.looks, win.flags, win._buttons())
        lay = layout(*size)
        top = [b for b in p.text_boxes if b[1] >= lay.top[1] - 1 and b[5] == 0]
        assert _overlaps(top) == [], size
        cards = [(w.x, w.y, w.x + w.w, w.y + w.h) for w in p.widgets if w.tip.startswith("card ")]

        def on_card(b) -> bool:
            return any(
                c[0] - 1 <= b[0] and b[2] <= c[2] + 1 and c[1] - 8 <= b[1] and b[3] <= c[3] + 8 for c in cards
            )

        texts = [b for b in p.text_boxes if b[5] == 0 and not on_card(b)]  # every panel text but card faces
        assert _overlaps(texts) == [], size
        msg = [b for b in texts if lay.hand[3] - 46 <= b[1] < lay.hand[3]]
        buttons = [
            (w.x, w.y, w.x + w.w, w.y + w.h, w.tip)
            for w in p.widgets
            if w.z == 0 and w.action is not None and not w.tip.startswith("card ")
        ]
        assert _overlaps(buttons) == [], size
        for b in top + msg:  # nothing drawn past the window's edge
            assert -1 <= b[0] and b[2] <= size[0] + 1, b
    finally:
        win.close()


def test_after_a_resize_the_map_fits_its_new_area():
    g = scenario("game_small").new_game(seed=SEED)
    win = window_for(g, size=(1400, 900))
    try:
        for size in ((900, 600), (1024, 640), (1600, 1000)):
            win.set_size(*size)
            win.dispatch_event("on_resize", *size)
            x0, y0, x1, y1 = win.map_area()
            m = g.battlemap
            for h in (Hex.from_offset(0, 0), Hex.from_offset(m.width - 1, m.height - 1)):
                x, y = win.screen_point(h)
                assert x0 <= x <= x1 and y0 <= y <= y1, (size, h.label, (x, y), (x0, y0, x1, y1))
    finally:
        win.close()


# -- item 4: colour-blind safe states -------------------------------------------------------------------------
#: Machado, Oliveira and Fernandes (2009), severity 1.0, on linear RGB.
CVD = {
    "protanopia": np.array(
        [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]]
    ),
    "deuteranopia": np.array(
        [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]]
    ),
    "tritanopia": np.array(
        [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.303900]]
    ),
    "normal": np.eye(3),
}


def _linear(c):
    c = np.asarray(c, float)[..., :3] / 255
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def _lab(lin):
    xyz = lin @ np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]]).T
    xyz = xyz / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > 216 / 24389, np.cbrt(xyz), (24389 / 27 * xyz + 16) / 116)
    return np.stack([116 * f[..., 1] - 16, 500 * (f[..., 0] - f[..., 1]), 200 * (f[..., 1] - f[..., 2])], -1)


def simulate(rgb, kind):
    """CIELAB of ``rgb`` as seen with colour-vision deficiency ``kind``."""
    return _lab(np.clip(_linear(rgb) @ CVD[kind].T, 0, 1))


def test_the_machado_matrices_keep_grey_and_confuse_red_with_green_for_deuteranopes():
    grey = simulate([128, 128, 128], "deuteranopia")
    assert abs(grey[1]) < 1.5 and abs(grey[2]) < 1.5
    red, green = simulate([200, 60, 40], "deuteranopia"), simulate([60, 150, 60], "deuteranopia")
    assert (
        np.linalg.norm(red - green)
        < np.linalg.norm(simulate([200, 60, 40], "normal") - simulate([60, 150, 60], "normal")) / 2
    )


def _ring_pixel(win, img, h, frac):
    """The rendered pixel a fraction ``frac`` of the way from hex ``h``'s centre to its corner 0."""
    cx, cy = win.screen_point(h)
    s = win.mapview.layout.size * win.mapview.camera.zoom
    r = win.get_pixel_ratio()
    x, y = (cx + s * frac) * r, (cy) * r
    return img[img.shape[0] - 1 - int(round(y)), int(round(x))]


@pytest.mark.parametrize("palette", ["standard", "high-contrast"])
def test_state_colours_stay_apart_under_simulated_colour_vision_deficiencies(palette):
    """Selection, target ring, hindering hex, cursor and the pending arrow, sampled from the
    rendered screen, keep a CIELAB distance of at least 20 from each other under
    deuteranopia, protanopia and tritanopia; so do the tooltip's state lines."""
    g = scenario("game_small").new_game(seed=SEED)
    advance_to(g, Phase.MOVEMENT)
    win = window_for(g, size=(1000, 700), palette=palette)
    try:
        from hexwar.render.overlays import HighlightOverlay

        win.mapview.camera.zoom *= 2.5
        ctl = win.controller
        ctl.confirm_pass()
        ring = {}
        hexes = {
            "selection": H("E05"),
            "target": H("G05"),
            "hindered": H("E07"),
            "cursor": H("G07"),
            "los_clear": H("D06"),
        }
        win.mapview.camera.center = win.mapview.layout.hex_to_pixel(H("F06"))
        win._ui_key = None
        win.refresh()
        looks = win.looks
        win.mapview.set_overlay("t_sel", HighlightOverlay([hexes["selection"]], "highlight", width=0.13))
        from hexwar.ui.play_window import _CursorOverlay, _TargetOverlay

        win.mapview.set_overlay("t_tgt", _TargetOverlay([hexes["target"]], "target", width=0.11))
        win.mapview.set_overlay("t_hind", HighlightOverlay([hexes["hindered"]], "los_hindered", width=0.07))
        win.mapview.set_overlay("t_cur", _CursorOverlay(hexes["cursor"], looks.overlay["cursor"]))
        win.mapview.set_overlay("t_clear", HighlightOverlay([hexes["los_clear"]], "los_clear", width=0.1))
        win.mapview.set_overlay("t_pend", HighlightOverlay([H("B06")], looks.overlay["pending"], width=0.12))
        hexes["pending"] = H("B06")
        img = win.render_image()
        if __import__("os").environ.get("HEXWAR_TEST_PNG"):  # pragma: no cover - a look for people
            from hexwar.render.offscreen import save_png

            save_png(img, __import__("os").environ["HEXWAR_TEST_PNG"] + f"-{palette}.png")
        fracs = {
            "selection": 0.89,
            "target": 0.9,
            "hindered": 0.92,
            "cursor": 0.9,
            "los_clear": 0.9,
            "pending": 0.88,
        }
        for name, h in hexes.items():
            ring[name] = _ring_pixel(win, img, h, fracs[name])
        for name, px in ring.items():  # the sampled pixel is the state's own colour
            want = {
                "selection": looks.overlay["highlight"],
                "target": looks.overlay["target"],
                "hindered": looks.overlay["los_hindered"],
                "cursor": looks.overlay["cursor"],
                "los_clear": looks.overlay["los_clear"],
                "pending": looks.overlay["pending"],
            }[name]
            assert np.abs(px[:3].astype(int) - np.array(want[:3])).max() <= 40, (name, px, want)
        worst = []
        for kind in CVD:
            labs = {n: simulate(px, kind) for n, px in ring.items()}
            for a, b in itertools.combinations(labs, 2):
                d = float(np.linalg.norm(labs[a] - labs[b]))
                worst.append((d, kind, a, b))
        assert min(worst)[0] >= 20.0, sorted(worst)[:4]
        # the tooltip's state lines (Legal target / LOS hindered / LOS clear / Move here)
        from hexwar.ui.widgets import theme

        lines = {"target": theme.TARGET_TEXT, "hindered": theme.HINDERED_TEXT, "clear": theme.CLEAR_TEXT}
        for kind in CVD:
            for a, b in itertools.combinations(lines, 2):
                assert np.linalg.norm(simulate(lines[a], kind) - simulate(lines[b], kind)) >= 20, (kind, a, b)
    finally:
        win.close()


def local_scenario(folder):
    """game_small copied into ``folder``, so a save written there finds its scenario (R12.4)."""
    import shutil

    from game_helpers import DATA

    from hexwar.game.scenario import load_scenario

    for name in ("game_small.toml", "game_small_map.json"):
        shutil.copy(DATA / name, folder / name)
    return load_scenario(folder / "game_small.toml")


# -- item 7: saves in the window --------------------------------------------------------------------------------
def test_quitting_a_game_in_progress_asks_first_and_the_last_game_is_offered_at_start(tmp_path, monkeypatch):
    from hexwar.game.save import write_save
    from hexwar.ui.autosave import latest_autosave

    monkeypatch.setenv("HEXWAR_AUTOSAVE_DIR", str(tmp_path))
    old = local_scenario(tmp_path).new_game(seed=SEED)
    advance_to(old, Phase.MOVEMENT)
    write_save(old, tmp_path / "game_small-1.json", {"german": "human", "soviet": "standard"})
    (tmp_path / "junk.json").write_text("{not json")
    offer = latest_autosave()
    assert (
        offer is not None and offer.path == tmp_path / "game_small-1.json" and "movement phase" in offer.text
    )
    fresh = scenario("game_small").new_game(seed=SEED + 1)
    win = window_for(fresh, offer=offer)
    try:
        assert "Continue your last game?" in win.screen_texts()
        press(win, key.ENTER)
        assert win.state.state_hash() == old.state_hash() and "soviet" in win.controller.ai
        assert win.controller.saver is not None and str(win.controller.saver.path) == str(offer.path)
        press(win, key.Q, key.MOD_CTRL)
        assert not win.quit_requested and "Quit this game?" in win.screen_texts()
        press(win, key.ESCAPE)
        assert "Quit this game?" not in win.screen_texts()
        press(win, key.Q, key.MOD_CTRL)
        press(win, key.ENTER)
        assert win.quit_requested
    finally:
        try:
            win.close()
        except Exception:
            pass


def test_hexwar_play_save_json_opens_the_save_in_the_window(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from hexwar.cli import cli
    from hexwar.cli import game as cli_game
    from hexwar.game.save import write_save
    from hexwar.ui import play_window

    g = local_scenario(tmp_path).new_game(seed=SEED)
    advance_to(g, Phase.MOVEMENT)
    path = tmp_path / "g.json"
    write_save(g, path, {"german": "human", "soviet": "standard"})
    seen = {}
    monkeypatch.setattr(play_window, "run", lambda **kw: seen.update(kw))
    monkeypatch.setattr(cli_game, "_no_display", lambda: False)
    r = CliRunner().invoke(cli, ["play", str(path), "--palette", "high-contrast"])
    assert r.exit_code == 0, r.output
    assert seen["resumed"].state_hash() == g.state_hash() and seen["save"] == str(path)
    assert seen["players"] == {"german": "human", "soviet": "standard"} and seen["palette"] == "high-contrast"


# -- issue 13 item 10: the R1.3 bonus roll in the window ----------------------------------------------------
def test_the_bonus_roll_buttons_pass_the_picked_rolls_to_resolve():
    from hexwar.game.actions.resolve import bonus_rolls

    g = scenario("game_small").new_game(seed=SEED)
    players = {s: make_player("standard", s, SEED) for s in ("german", "soviet")}
    for _ in range(3000):
        if (
            g.phase == Phase.RESOLUTION
            and g.to_act == "german"
            and g.hand_commands["german"]
            and any(a.side == "german" and not a.resolved and bonus_rolls(g, n) for n, a in g.attacks.items())
        ):
            break
        assert not g.over
        g.apply(players[g.to_act].choose(g))
    else:
        raise AssertionError("no German attack to resolve")
    win = window_for(g, ai={"soviet": players["soviet"]})
    try:
        ctl = win.controller
        n = min(k for k, a in g.attacks.items() if a.side == "german" and not a.resolved)
        rolls = bonus_rolls(g, n)
        d = win.widget(f"Resolve {n} with +1 on rolls (R1.3): one Command card each")
        win.dispatch_event("on_mouse_press", *d.centre, 1, 0)
        assert ctl.bonus == (n, [])
        assert f"bonus {rolls[0]}" in {w.tip for w in win.widgets}
        w = win.widget(f"bonus {rolls[0]}")
        win.dispatch_event("on_mouse_press", *w.centre, 1, 0)
        assert ctl.bonus == (n, [rolls[0]])
        card = g.hand_commands["german"][0]
        press(win, key.ENTER)
        last = g.commands[-1]
        assert isinstance(last, Resolve) and last.attack == n
        assert last.bonus_rolls == (rolls[0],) and last.bonus_cards == (card,)
        assert card not in g.hand_commands["german"]
    finally:
        win.close()


# -- the terminal game ---------------------------------------------------------------------------------------
def test_the_terminal_groups_long_hex_lists_and_answers_odds(monkeypatch, capsys):
    import click

    from hexwar.cli.game import TerminalPlayer
    from hexwar.game.commands import TargetArtillery

    g = scenario("game_small").new_game(seed=SEED)
    players = {s: make_player("standard", s, SEED) for s in ("german", "soviet")}
    for _ in range(3000):
        if (
            g.phase == Phase.ARTILLERY
            and sum(isinstance(c, TargetArtillery) for c in g.legal_commands()) > 20
        ):
            break
        g.apply(players[g.to_act].choose(g))
    cmds = g.legal_commands()
    arts = [c for c in cmds if isinstance(c, TargetArtillery)]
    lines, numbered, groups = TerminalPlayer.menu(g, cmds)
    assert len(lines) < len(cmds) - 15 and len(numbered) + sum(len(m) for m in groups.values()) == len(cmds)
    art = next(k for k, m in groups.items() if all(isinstance(c, TargetArtillery) for c in m.values()))
    assert len(groups[art]) == len(arts) and any(
        "artillery mission" in ln and f"{len(arts)} hexes" in ln for ln in lines
    )
    target = arts[3]
    answers = iter([f"{art} Z99", f"{art} {g.hex_label(target.hex).lower()}"])
    monkeypatch.setattr(click, "prompt", lambda *a, **k: next(answers))
    assert TerminalPlayer(g.to_act).choose(g) == target
    assert "give one of these hexes" in capsys.readouterr().out
    # odds N: the exact odds of a listed declaration (R6)
    for _ in range(3000):
        if g.phase == Phase.DECLARATION and any(isinstance(c, Declare) for c in g.legal_commands()):
            break
        g.apply(players[g.to_act].choose(g))
    lines, numbered, groups = TerminalPlayer.menu(g, g.legal_commands())
    i = next(k for k, c in enumerate(numbered) if isinstance(c, Declare))
    answers = iter([f"odds {i}", "q"])
    monkeypatch.setattr(click, "prompt", lambda *a, **k: next(answers))
    with pytest.raises(click.exceptions.Abort):
        TerminalPlayer(g.to_act).choose(g)
    out = capsys.readouterr().out
    assert "destroyed:" in out and "miss:" in out and "expected" in out


# -- item 9: the smaller ones ----------------------------------------------------------------------------------
def test_weapon_lines_carry_no_markup_and_bullets_are_said_in_words():
    from hexwar.game import ruleset

    w = ruleset.unit_card("de_grenadiers").weapons[0]
    text = w.describe()
    assert "_" not in text and "inf 12" in text and "bullets (no effect on Defense 2+)" in text


def test_labels_button_is_lit_only_while_labels_show_and_the_tooltip_follows_a_keyboard_pan():
    g = scenario("game_small").new_game(seed=SEED)
    advance_to(g, Phase.MOVEMENT)
    win = window_for(g)
    try:
        ctl = win.controller
        ctl.confirm_pass()
        lit = lambda: win.widget("Labels") is not None and not win.flags.extra.get("labels_small")  # noqa: E731
        assert lit()
        for _ in range(12):
            press(win, key.MINUS)
        win.refresh()
        assert win.flags.extra.get("labels_small")
        assert win.widget("Labels (too small at this zoom)") is not None
        press(win, key.F)
        win.refresh()
        assert lit()
        x, y = win.screen_point(H("F05"))
        win.dispatch_event("on_mouse_motion", x, y, 0, 0)
        assert ctl.hover == H("F05")
        press(win, key.RIGHT, key.MOD_SHIFT)  # the map moves under the still mouse
        assert ctl.hover == win.hex_at(x, y) and ctl.hover != H("F05")
    finally:
        win.close()


def test_the_los_label_gives_way_to_move_costs_and_the_panels_are_opaque():
    from hexwar.ui.panels import PANEL_SOLID

    assert PANEL_SOLID[3] == 255
    g = scenario("game_small").new_game(seed=SEED)
    advance_to(g, Phase.MOVEMENT)
    win = window_for(g)
    try:
        ctl = win.controller
        ctl.confirm_pass()
        ctl.next_unit()
        assert ctl.reach_costs()
        far = max(ctl.reach_costs(), key=lambda h: g.units[ctl.selected].hex.distance(h))
        res = ctl.los(b=far)
        assert win._los_overlay(res).los.reason == ""  # the tooltip says it; the badges stay readable
        ctl.select(None)
        ctl.selected = next(
            u for u in sorted(g.units) if g.units[u].side != ctl.shown_side and g.units[u].hex is not None
        )
        res = ctl.los(b=far)
        assert res is not None and not ctl.reach_costs()  # an enemy selected: no move costs shown
        assert win._los_overlay(res).los.reason != ""
    finally:
        win.close()


def test_at_800x600_the_hand_scrolls_instead_of_shrinking_cards_below_reading_size():
    g = scenario("game_small").new_game(seed=SEED)
    win = window_for(g, size=(800, 600))
    try:
        ctl = win.controller
        ctl.confirm_pass()
        assert g.phase == Phase.SETUP and len(ctl.hand_cards()) > 8
        win.refresh()
        cards = [w for w in win.widgets if w.tip.startswith("card ")]
        assert cards and min(w.w for w in cards) >= 83 and len(cards) < len(ctl.hand_cards())
        last = ctl.hand_cards()[-1]
        for _ in range(len(ctl.hand_cards())):
            press(win, key.BRACKETRIGHT)
            if ctl.hover_card == last:
                break
        win.refresh()
        assert f"card {last}" in {w.tip for w in win.widgets}  # the row followed the card cursor
    finally:
        win.close()


@pytest.mark.parametrize("size", [(1400, 900), (1024, 640)])
def test_hand_cards_stay_wide_enough_to_read_their_names_with_a_full_starting_hand(size):
    # newuser2: with 9 or more cards the titles were unreadably small even at 1400 wide
    g = scenario("game_small").new_game(seed=SEED)
    win = window_for(g, size=size)
    try:
        win.controller.confirm_pass()
        assert len(win.controller.hand_cards()) > 8
        win.refresh()
        cards = [w for w in win.widgets if w.tip.startswith("card ")]
        assert cards and min(w.w for w in cards) >= 83, size
    finally:
        win.close()


def test_the_soviet_deploy_zone_no_longer_looks_like_woods_to_a_deuteranope():
    from hexwar.render.looks import default_looks, mix

    looks = default_looks()
    clear, woods = looks.terrain["clear"].fill, looks.terrain["woods"].fill
    for side in ("german", "soviet"):
        zone = mix(clear, looks.overlay[f"deploy_{side}"], 0.30)  # the zone's fill over clear ground
        for kind in ("deuteranopia", "protanopia", "tritanopia"):
            assert np.linalg.norm(simulate(zone, kind) - simulate(woods, kind)) >= 20, (side, kind)


def test_the_computers_last_words_do_not_stay_into_the_persons_next_phase():
    g = scenario("game_small").new_game(seed=SEED)
    clock = ManualClock()
    ctl = PlayController(g, ai={"soviet": make_player("standard", "soviet", SEED)}, clock=clock)
    checked = 0
    for _ in range(400):
        if g.turn > 2 or checked >= 3:
            break
        if ctl.my_turn():
            ctl.issue(
                next(
                    c
                    for c in g.legal_commands()
                    if isinstance(c, EndPhase | Draw | Discard | Resolve | ChooseHand)
                )
            )
            continue
        where = (g.turn, g.phase)
        clock.advance(10.0)
        ctl.update()
        if ctl.my_turn() and (g.turn, g.phase) != where:
            assert "(computer)" not in ctl.status()[0], ctl.status()
            checked += 1
    assert checked >= 1


# -- new-player pass (issue 17's proof in a real window) -----------------------------------------------
def test_each_draw_button_says_what_it_does_the_initiative_bonus_one_is_not_a_plain_repeat():
    """The R1.3 Draw (a Command card set aside for +1 initiative) had the label of the first
    split, so the Draw phase showed "Draw: 2 Reserves" twice."""
    g = scenario("game_small").new_game(seed=SEED)
    advance_to(g, Phase.DRAW)
    side = g.to_act
    assert g.hand_commands[side], "the test needs a Command card in hand"
    ctl = PlayController(g, ai={}, clock=ManualClock())
    ctl.confirm_pass()
    draws = [a for a in ctl.actions() if a.label.startswith("Draw")]
    labels = [a.label for a in draws]
    assert len(labels) == len(set(labels)), labels
    init = next(a for a in draws if "+1 initiative" in a.label)
    assert not init.primary and "initiative roll (R1.3)" in init.tip
    assert all(a.primary for a in draws if a is not init)
    init.run()  # first the card to set aside is picked (newuser3), then the button names it
    named = next(a for a in ctl.actions() if "+1 initiative" in a.label)
    named.run()
    assert isinstance(g.commands[-1], Draw) and g.commands[-1].initiative_card


def test_t_on_a_selected_unit_without_targets_says_that_unit_has_none():
    """T with your unit selected but no enemy it can attack named no unit and asked to select
    one, though Tab had just selected it."""
    g = scenario("game_small").new_game(seed=SEED)
    advance_to(g, Phase.MOVEMENT)
    ctl = PlayController(g, ai={}, clock=ManualClock())
    ctl.confirm_pass()
    uid = next(u for u, x in sorted(g.units.items()) if x.side == ctl.shown_side and x.hex is not None)
    ctl.select(uid)
    ctl.targets = lambda: []  # type: ignore[method-assign]
    ctl.next_target()
    assert ctl.error and "has no enemy unit it can attack now" in ctl.message
    ctl.select(None)
    ctl.next_target()
    assert ctl.message == "Select a unit with a legal target first (Tab)."


def test_a_side_that_drew_is_not_told_its_draw_phase_ended_with_nothing_to_do():
    """After clicking a Draw button the next turn began with "German: draw ended automatically
    (nothing to do)": the Draw itself ends the side's draw phase (R5.5), no End phase follows."""
    from hexwar.game.events import Event

    auto = AutoEnds()
    ev = [
        Event("phase", "x", {"phase": "draw", "turn": 1}),
        Event("draw", "x", {"side": "german"}),
        Event("begin_turn", "x", {"turn": 2}),
    ]
    (a,) = auto.feed(ev)
    assert (a.side, a.phase) == ("soviet", "draw")
    g = scenario("game_small").new_game(seed=SEED)
    advance_to(g, Phase.DRAW)
    side = g.to_act
    ctl = PlayController(g, ai={}, clock=ManualClock())
    ctl.confirm_pass()
    next(a for a in ctl.actions() if a.label.startswith("Draw") and a.primary).run()
    assert not any(x.side == side and x.phase == Phase.DRAW for x in ctl.last_auto)


def test_a_side_that_called_artillery_is_not_told_its_artillery_phase_ended_with_nothing_to_do():
    """The artillery call (R9.2) ends the side's artillery phase by itself, as a Draw does."""
    from hexwar.game.events import Event

    ev = [
        Event("phase", "x", {"phase": "artillery", "turn": 5}),
        Event("artillery_marker_placed", "x", {"side": "german"}),
        Event("end_phase", "x", {"side": "soviet"}),
        Event("phase", "x", {"phase": "commitment", "turn": 5}),
    ]
    assert AutoEnds().feed(ev) == []


def test_aim_artillery_without_an_enemy_in_sight_says_so_and_leaves_the_cursor():
    """Aim artillery put the cursor on the first legal hex (an empty map edge) when no enemy
    was in sight, and G then spent the mission there."""
    from hexwar.game.commands import TargetArtillery

    g = scenario("game_small").new_game(seed=SEED)
    for _ in range(200):
        if g.phase == Phase.ARTILLERY and any(isinstance(c, TargetArtillery) for c in g.legal_commands()):
            break
        step(g)
    ctl = PlayController(g, ai={}, clock=ManualClock())
    ctl.confirm_pass()
    ctl.set_cursor(None)
    enemy = {u.hex for u in g.units.values() if u.side != ctl.shown_side and u.hex is not None}
    ctl.legal = lambda: [
        c
        for c in g.legal_commands()  # type: ignore[method-assign]
        if not (isinstance(c, TargetArtillery) and c.hex in enemy)
    ]
    assert any(isinstance(c, TargetArtillery) for c in ctl.legal()), (
        "the test needs a hex to call artillery on"
    )
    ctl.aim_artillery()
    assert ctl.cursor is None and ctl.error and "No enemy unit your units can see" in ctl.message


def test_the_hand_card_cursor_and_its_card_view_end_with_the_phase():
    # newuser2: the card cursor kept the side panel's card view up into the Declaration phase
    g = scenario("game_small").new_game(seed=SEED)
    advance_to(g, Phase.COMMITMENT)
    ctl = PlayController(g, ai={}, clock=ManualClock())
    ctl.confirm_pass()
    ctl.move_card_cursor(1)
    ctl.hover_card = ctl.hand_cards()[ctl.card_cursor]
    assert ctl.card_cursor is not None
    phase = g.phase
    while g.phase == phase and not g.over:
        ctl.issue(EndPhase(g.to_act))
    assert ctl.card_cursor is None and ctl.hover_card is None
