"""The play screen drawn headless to a PNG: ``hexwar render SCENARIO_OR_SAVE --screen play``.

Used for the README screenshots (issue 7) and by anyone who wants a picture of a game in
progress without a display. A scenario is first played by two standard computer players
(fixed seeds, so the picture is the same every time) to a moment worth showing; a save is
replayed to its last position. Then the real :class:`~hexwar.ui.play_window.PlayWindow` is
opened hidden (pyglet headless over EGL), set up as a person would leave it, and rendered
offscreen with :func:`hexwar.render.offscreen.render_view`.

Screens:

* ``play``: the German player's Movement phase of turn 3: a unit selected with its
  reachable hexes and their movement costs, the LOS line to the nearest enemy, the unit's
  tooltip, the combat log with the rolls so far.
* ``battle``: versus the computer, mid-battle: the German Declaration phase (turn 3 or
  later) with an attack prepared on the best target and its exact odds, the attacks already
  declared, the log of the fighting so far.
* ``deck``: the setup of a point-budget scenario (``standard``, 000 Standard Game Setup,
  R4.3): the German deck builder page (:mod:`hexwar.ui.play_deck`) with a deck of 94 points
  that still lacks a tank crew (:data:`_SHOT_DECK`), the Tiger I searched for and drawn as a
  card, the running total and the crew rule (R4.1) that keeps the deck from being used.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ..errors import HexwarError

__all__ = ["SCREENS", "game_for_screen", "play_screen_image", "render_screen"]

SCREENS = ("play", "battle", "deck")
#: The ``deck`` screen's deck: 94 points, three tanks and two tank crews (R4.1 refuses it).
_SHOT_DECK = (
    "de_tiger_i", "de_tank_crew_regular", "de_pz_iv_h", "de_tank_crew_regular", "de_pz_iv_h",
    "de_hs129b", "de_pilot_regular", "de_grenadiers", "de_grenadiers", "de_grenadiers", "de_mg42_team",
)  # fmt: skip
HUMAN = "german"


def _load(target: str) -> tuple[Any, bool]:
    """``(GameState, from_save)`` for a scenario name/path or a save path."""
    from ..game.scenario import find_scenario, load_scenario

    p = Path(target)
    if p.is_file() and p.suffix.lower() == ".json":
        from ..game.save import load_game

        return load_game(p), True
    if not p.is_file():
        try:
            p = find_scenario(target)
        except HexwarError:
            raise HexwarError(
                f"{target}: --screen needs a scenario (path or shipped name) or a save file"
            ) from None
    if p.suffix.lower() != ".toml":
        raise HexwarError(f"{target}: --screen needs a scenario (.toml) or a save (.json), not a map")
    sc = load_scenario(p)
    return sc.new_game(), False


def game_for_screen(target: str, screen: str = "play", turn: int = 3) -> tuple[Any, dict[str, Any]]:
    """The game to show and its computer players: a scenario played by two standard computer
    players (seeded from the game's seed) up to the moment ``screen`` shows, or a save as it is.

    Returns:
        ``(state, ai)``: ``ai`` holds the computer player of the side not shown (Soviet).

    Raises:
        HexwarError: unknown screen, a target that is not a scenario or save.
    """
    from ..game import targeting
    from ..game.ai import make_player
    from ..game.state import Phase

    if screen not in SCREENS:
        raise HexwarError(f"--screen {screen!r}: expected one of {('map',) + SCREENS}")
    state, from_save = _load(target)
    players = {s: make_player("standard", s, state.seed) for s in ("german", "soviet")}
    ai = {"soviet": players["soviet"]}
    if from_save or screen == "deck":  # the deck page is the setup's: the game as it starts
        return state, ai

    def recent_combat() -> bool:
        """Shots were fired since the start of the previous turn (the log then shows rolls)."""
        begins = [i for i, e in enumerate(state.log) if e.kind == "begin_turn"]
        since = begins[-2] if len(begins) >= 2 else 0
        return any(e.kind == "to_hit" for e in state.log[since:])

    def reached() -> bool:
        if state.to_act != HUMAN:
            return False
        if state.turn < turn + 4 and not recent_combat():
            return False
        if screen == "play":
            return (
                state.turn >= turn
                and state.phase == Phase.MOVEMENT
                and any(u.side == HUMAN and u.mp_left > 0 and u.hex is not None for u in state.units.values())
            )
        if state.turn < turn or state.phase != Phase.DECLARATION:
            return False
        return any(
            targeting.legal_targets(state, HUMAN, uid)
            for uid in sorted(state.units)
            if state.units[uid].side == HUMAN
        )

    for _ in range(20000):
        if state.over or reached():
            break
        state.apply(players[state.to_act].choose(state))
    return state, ai


def _setup_window(win: Any, screen: str) -> None:
    """Select, prepare and hover as a player would for ``screen``; zoom to the action."""
    from ..game import movement, targeting

    ctl, st = win.controller, win.state
    if screen == "deck":
        page = ctl.open_deck()
        if page is None:
            raise HexwarError(
                f"{st.scenario.id}: --screen deck needs a scenario whose German side builds a deck "
                "(a point budget, e.g. standard) in its setup"
            )
        if set(_SHOT_DECK) <= set(page.builder.pool):
            page.builder.cards.clear()
            for c in _SHOT_DECK:
                page.add_card(c)
        page.search.field.text = "tiger"
        page.search.field.caret = len("tiger")
        page.search.query("tiger")
        win._ui_key = None
        win.refresh()
        return
    mine = [
        uid
        for uid, u in sorted(st.units.items())
        if u.side == ctl.shown_side and u.hex is not None and u.crewing is None and not u.aloft
    ]
    enemies = [
        u for u in st.units.values() if u.side != ctl.shown_side and u.hex is not None and u.crewing is None
    ]
    focus: list[Any] = []
    if screen == "battle" and ctl.my_turn():
        best = None
        for uid in mine:
            for tid, at_crew, ok in targeting.legal_targets(st, ctl.shown_side, uid):
                if at_crew or st.units[tid].hex is None:
                    continue
                d = st.units[uid].hex.distance(st.units[tid].hex)
                key = (-len(ok), abs(d - 4), uid, tid)  # a few hexes apart: the LOS line shows
                if best is None or key < best[0]:
                    best = (key, uid, tid)
        if best is not None:
            _, uid, tid = best
            ctl.select(uid)
            ctl.click_hex(st.units[tid].hex)  # prepares the attack: exact odds in the side panel
            ctl.set_hover(st.units[tid].hex)
            focus = [st.units[uid].hex, st.units[tid].hex]
    if not focus and mine:

        def reach_size(uid: str) -> int:
            r = movement.unit_reach(st, uid) if st.phase == "movement" else None
            return len(r.cost) if r is not None else 0

        from ..game import ruleset

        uid = max(
            mine,
            key=lambda u: (
                ruleset.needs_crew(st.units[u].card) and ruleset.is_vehicle(st.units[u].card),
                reach_size(u) > 0,
                u,
            ),
        )
        ctl.select(uid)
        h = st.units[uid].hex
        near = min(enemies, key=lambda e: (e.hex.distance(h), e.uid)) if enemies else None
        target = near.hex if near is not None else None
        if target is not None and target.distance(h) > 10:  # look toward the enemy, not across the map
            k = 7 / target.distance(h)
            cand = type(h)(round(h.q + (target.q - h.q) * k), round(h.r + (target.r - h.r) * k))
            target = cand if st.battlemap.in_bounds(cand) else target
        if target is not None:
            ctl.set_hover(target)
        focus = [h] + ([target] if target is not None else [])
    # zoom: the action fills the middle of the map area at a comfortable counter size
    cam = win.mapview.camera
    ax0, ay0, ax1, ay1 = win.map_area()
    w, hgt = win.get_size()
    pts = [win.mapview.layout.hex_to_pixel(h) for h in focus] or [((0.0, 0.0))]
    cx = sum(p[0] for p in pts) / len(pts)
    cy = sum(p[1] for p in pts) / len(pts)
    fit = cam.zoom
    cam.zoom = max(fit, min(1.25, cam.max_zoom))
    cam.center = (cx - ((ax0 + ax1) / 2 - w / 2) / cam.zoom, cy - ((ay0 + ay1) / 2 - hgt / 2) / cam.zoom)
    # keep the map filling the map area (no background showing at its edges)
    mx0, my0, mx1, my1 = win.mapview.world_bounds()
    hs = win.mapview.layout.size  # inside the ragged hex edges: half a hex in
    mx0, mx1, my0, my1 = mx0 + 0.5 * hs, mx1 - 0.5 * hs, my0 + 0.87 * hs, my1 - 0.87 * hs
    wx0, wy0 = cam.screen_to_world(ax0, ay0)
    wx1, wy1 = cam.screen_to_world(ax1, ay1)
    dx = (mx0 - wx0 if wx0 < mx0 else 0.0) + (mx1 - wx1 if wx1 > mx1 else 0.0)
    dy = (my0 - wy0 if wy0 < my0 else 0.0) + (my1 - wy1 if wy1 > my1 else 0.0)
    if wx1 - wx0 > mx1 - mx0:
        dx = 0.0
    if wy1 - wy0 > my1 - my0:
        dy = 0.0
    cam.center = (cam.center[0] + dx, cam.center[1] + dy)
    if ctl.hover is not None:  # the mouse sits on the hovered hex: its tooltip shows
        x, y = win.screen_point(ctl.hover)
        win._mouse = (x, y)
    win._ui_key = None
    win.refresh()


def play_screen_image(
    target: str,
    screen: str = "play",
    size: tuple[int, int] = (1400, 900),
    pixel_ratio: float = 1.0,
    turn: int = 3,
) -> Any:
    """The play screen for ``target`` as ``uint8 [H, W, 4]`` (see module doc).

    Args:
        target: a scenario (path or shipped name) or a save file.
        screen: ``"play"``, ``"battle"`` or ``"deck"``.
        size: window size in points.
        pixel_ratio: pixels per point (2 = a HiDPI screen).
        turn: the first turn a scenario is played to.

    Raises:
        HexwarError: a bad target or screen, or no GL context.
    """
    from ..render import backend

    backend.configure(None)
    from .clock import ManualClock
    from .play_window import PlayWindow

    state, ai = game_for_screen(target, screen, turn)
    win = PlayWindow(
        state,
        ai=ai,
        width=int(size[0]),
        height=int(size[1]),
        visible=False,
        schedule=False,
        clock=ManualClock(),
        pixel_ratio=pixel_ratio,
    )
    try:
        _setup_window(win, screen)
        return win.render_image()
    finally:
        win.mapview.delete()
        win.close()


def render_screen(
    target: str, out: str | os.PathLike[str], size: tuple[int, int], pixel_ratio: float, screen: str
) -> tuple[int, int]:
    """Write the play screen for ``target`` to the PNG ``out``; returns ``(width, height)`` in pixels.

    Raises:
        HexwarError: see :func:`play_screen_image`; naming ``out`` when it cannot be written.
    """
    from ..render.offscreen import save_png

    img = play_screen_image(target, screen, size, pixel_ratio)
    save_png(img, out)
    return int(img.shape[1]), int(img.shape[0])
