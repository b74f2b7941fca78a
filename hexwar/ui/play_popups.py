"""The play screen's pop-ups (issue 34 split of :mod:`hexwar.ui.panels`): the hover tooltip
(terrain, units, move cost R5.3, LOS R3) and the modal screens: hot-seat handover, game over
(R10), questions (quit, continue) and the shortcut help."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..game import ruleset
from ..game.state import Phase
from ..game.victory import objective_note
from .controller import PlayController
from .play_layout import SHORTCUTS, Layout, side_chip
from .widgets import Painter, wrap
from .widgets.theme import (
    ACTIVE,
    CLEAR_TEXT,
    DARK,
    DIM,
    ERROR,
    FAINT,
    GOOD,
    HINDERED_TEXT,
    PANEL,
    SIDE_UI,
    TARGET_TEXT,
    TEXT,
    Colour,
)

__all__ = [
    "block_reason",
    "paint_feed",
    "paint_game_over",
    "paint_help",
    "paint_pass",
    "paint_question",
    "paint_tooltip",
]


# -- pop-ups ---------------------------------------------------------------------------------------------
def _terrain_line(ctl: PlayController, h: Any) -> str:
    m = ctl.state.battlemap
    bits = m.describe(h)
    return f"{m.label(h)}  " + ", ".join(bits)


def block_reason(st: Any, res: Any) -> str:
    """What blocks a LOS (R3.3), naming the terrain: ``"woods"`` rather than ``"terrain"``."""
    if res.reason == "terrain" and res.blocking is not None:
        return str(st.battlemap.terrain_at(res.blocking).name).lower()
    return str(res.reason)


def paint_tooltip(p: Painter, ctl: PlayController, lay: Layout) -> None:
    """Paint the hover tooltip of the hovered hex (terrain, an objective with its points and the
    hold victory R10.2, units, move cost R5.3, LOS R3)."""
    st = ctl.state
    h = ctl.hover
    mx, my = p.extra.get("cursor_xy", p.mouse)  # the keyboard's cursor hex, else the mouse
    mx0, my0, mx1, my1 = lay.map
    if h is None or not (mx0 <= mx < mx1 and my0 <= my < my1):
        return
    lines: list[tuple[str, Colour, str]] = [(_terrain_line(ctl, h), DIM, "regular")]
    note = objective_note(st, h)
    if note is not None:  # R10.2: its points, holder and the hold victory it is part of
        lines.append((note, ACTIVE, "bold"))
    reach = ctl.reach_costs()
    if h in reach:
        lines.append((f"Move here: {reach[h]:g} MP (click or G)", CLEAR_TEXT, "bold"))
    tg = [t for t in ctl.targets() if st.units[t[0]].hex == h]
    if tg:
        lines.append(("Legal target: click (or T) to prepare the attack", TARGET_TEXT, "bold"))
    if st.phase == Phase.ARTILLERY and ctl.my_turn():
        why = ctl.artillery_ok(h)
        warn = ctl.artillery_warning(h) if why is None else None
        if warn is not None:  # R9.4: never offered plainly on one's own units (newuser3)
            lines.append((warn, TARGET_TEXT, "bold"))
            lines.append(("Call it anyway: click or G twice", DIM, "regular"))
        else:
            lines.append(
                ("Call artillery here (click or G)", CLEAR_TEXT, "bold")
                if why is None
                else (why, TARGET_TEXT, "regular")
            )
    res = ctl.los()
    if res is not None:
        if res.status == "blocked" and tg:  # a legal target all the same: observed (newuser3)
            lines.append(
                (
                    f"LOS blocked by {block_reason(st, res)} in {st.hex_label(res.blocking)}: indirect "
                    "fire, a friendly unit observes it (R7.3)",
                    HINDERED_TEXT,
                    "bold",
                )
            )
        elif res.status == "blocked":
            lines.append(
                (
                    f"LOS blocked by {block_reason(st, res)} in {st.hex_label(res.blocking)}",
                    TARGET_TEXT,
                    "bold",
                )
            )
        elif res.status == "hindered":
            lines.append((f"LOS hindered: +{res.hindrances} to the number needed", HINDERED_TEXT, "bold"))
        else:
            lines.append(("LOS clear", CLEAR_TEXT, "bold"))
    units = ctl.units_at(h)
    width = 340.0
    body: list[tuple[str, Colour, str, float]] = []
    for s, col, style in lines:
        for ln in wrap(p.atlas, s, width - 20, 12, style):
            body.append((ln, col, style, 12.0))
    if units:
        uid = units[0]
        u = st.units[uid]
        body.append((f"{ruleset.card_name(u.card)}  ({u.side})", SIDE_UI[u.side], "bold", 14.0))
        # the side panel shows this unit's card in full already: the tooltip keeps to its state,
        # so it covers less of the map round the cursor (newuser3)
        in_panel = uid == (ctl.selected if ctl.selected in st.units else None) or (
            ctl.selected not in st.units and not (ctl.hover_card in ctl.hand_cards() and ctl.hand_visible())
        )
        raws = ctl.unit_lines(uid)[1:8]
        if in_panel:
            raws = [r for r in raws if r.startswith("Now:")] or raws[:1]
        for raw in raws:
            for ln in wrap(p.atlas, raw.strip(), width - 20, 11.5):
                body.append((ln, GOOD if raw.startswith("Now:") else TEXT, "regular", 11.5))
        if len(units) > 1:
            others = ", ".join(ruleset.card_name(st.units[x].card) for x in units[1:])
            body.append((f"Also here: {others}", DIM, "regular", 11.5))
    body = body[:16]
    hgt = sum(16.0 if b[3] < 13 else 19.0 for b in body) + 14
    sel = st.units.get(ctl.selected) if ctl.selected else None
    sx, sy = p.extra.get("selected_xy", (mx, my)) if sel is not None else (mx, my)

    avoid = p.extra.get("avoid", {})
    segs = [((sx, sy), (mx, my))] + list(avoid.get("arrows", ()))
    boxes = list(avoid.get("units", ()))
    if p.extra.get("feed_box") is not None:  # the rolls shown (issue 36) stay readable
        boxes.append(p.extra["feed_box"])

    def cost(cx: float, cy: float) -> float:
        """How bad a tooltip with top-left corner (cx, cy) is: off the map area; covering the
        selected unit, the LOS line from it to the cursor or a declared attack's arrow; or a
        unit's counter (issue 36: it hid the neighbours of the hovered hex)."""
        cx = min(max(cx, mx0 + 4), mx1 - 4 - width)
        cy = max(min(cy, my1 - 4), my0 + 4 + hgt)
        bad = abs(cx - mx) * 0.01 + abs(cy - hgt / 2 - my) * 0.01  # near the cursor when all else ties
        for (ax, ay), (bx, by) in segs:
            for k in range(21):
                t = k / 20
                qx, qy = ax + (bx - ax) * t, ay + (by - ay) * t
                if cx - 6 <= qx <= cx + width + 6 and cy - hgt - 6 <= qy <= cy + 6:
                    bad += 40.0
        for ux0, uy0, ux1, uy1 in boxes:
            if ux0 < cx + width and cx < ux1 and uy0 < cy and cy - hgt < uy1:
                bad += 60.0
        hb = avoid.get("hover")  # never over the hovered hex itself
        if hb is not None and hb[0] < cx + width and cx < hb[2] and hb[1] < cy and cy - hgt < hb[3]:
            bad += 1000.0
        return bad

    d = max(22.0, float(avoid.get("r", 0.0)) + 4)  # clear of the hovered counter
    cands = [
        (mx + d, my - 18),
        (mx - width - d, my - 18),
        (mx + d, my + 46 + hgt),
        (mx - width - d, my + 46 + hgt),
        (mx - width / 2, my + d + hgt),
        (mx - width / 2, my - d),
        (mx0 + 4, my1 - 4),
        (mx1 - 4 - width, my1 - 4),
        (mx0 + 4, my0 + 4 + hgt),
        (mx1 - 4 - width, my0 + 4 + hgt),
    ]
    x, y = min(cands, key=lambda c: cost(*c))
    x = min(max(x, mx0 + 4), mx1 - 4 - width)
    y = max(min(y, my1 - 4), my0 + 4 + hgt)
    p.extra["tooltip_box"] = (x, y - hgt, x + width, y)
    p.rect(x + 3, y - hgt - 3, x + width + 3, y - 3, (0, 0, 0, 90), 1)
    p.rect(x, y - hgt, x + width, y, (24, 26, 30, 240), 1)
    p.frame(x, y - hgt, x + width, y, 1.0, (96, 100, 108, 255), 1)
    yy = y - 9
    for s, col, style, size in body:
        step = 16.0 if size < 13 else 19.0
        p.text(s, x + 10, yy - step / 2, size, col, style=style, max_width=width - 20, z=1)
        yy -= step


def _modal_box(p: Painter, W: float, H: float, bw: float, bh: float, shade: int = 150) -> tuple[float, float]:
    p.rect(0, 0, W, H, (8, 9, 11, shade), 2)
    x0, y0 = (W - bw) / 2, (H - bh) / 2
    p.rect(x0 + 4, y0 - 4, x0 + bw + 4, y0 + bh - 4, (0, 0, 0, 120), 2)
    p.rect(x0, y0, x0 + bw, y0 + bh, PANEL, 2)
    p.rect(x0, y0 + bh - 4, x0 + bw, y0 + bh, ACTIVE, 2)
    p.widget(0, 0, W, H, None, "modal", 2)  # eats clicks outside the box
    return x0, y0


def paint_pass(p: Painter, ctl: PlayController, W: float, H: float) -> None:
    """Paint the hot-seat handover screen that hides the hand until the next player confirms."""
    side = ctl.pass_to or ""
    x0, y0 = _modal_box(p, W, H, 560, 220, shade=238)
    side_chip(p, x0 + 30, y0 + 170, side, r=9, z=2)
    p.text(f"Pass to the {side.capitalize()} player", x0 + 48, y0 + 170, 20, TEXT, style="bold", z=2)
    p.text(
        f"Turn {ctl.state.turn}, {ctl.state.phase} phase. The hand stays hidden until you are ready.",
        x0 + 30,
        y0 + 128,
        13,
        DIM,
        max_width=500,
        z=2,
    )
    p.button(
        x0 + 30,
        y0 + 34,
        500,
        44,
        f"I am the {side.capitalize()} player: show my hand",
        ctl.confirm_pass,
        z=2,
        primary=True,
        key="Enter",
        size=14,
        tip="confirm pass",
    )


def paint_game_over(
    p: Painter, ctl: PlayController, W: float, H: float, buttons: dict[str, Callable[[], Any]]
) -> None:
    """Paint the game-over screen: the result and the victory points (R10)."""
    st = ctl.state
    res = st.result
    assert res is not None
    x0, y0 = _modal_box(p, W, H, 560, 300, shade=150)
    head = "Draw" if res.winner is None else f"{res.winner.capitalize()} victory"
    p.text("GAME OVER", x0 + 30, y0 + 262, 12, ACTIVE, style="bold", z=2)
    p.text(head, x0 + 30, y0 + 230, 26, TEXT, style="bold", z=2)
    p.text(res.how(), x0 + 30, y0 + 198, 14, DIM, z=2)
    y = y0 + 160
    p.text("Side", x0 + 30, y, 12, DIM, style="bold", z=2)
    p.text("Victory points", x0 + 200, y, 12, DIM, style="bold", z=2)
    p.text("Objectives", x0 + 340, y, 12, DIM, style="bold", z=2)
    p.text("Kills", x0 + 460, y, 12, DIM, style="bold", z=2)
    for side in ("german", "soviet"):
        y -= 26
        side_chip(p, x0 + 36, y, side, z=2)
        p.text(
            side.capitalize(), x0 + 50, y, 15, TEXT, style="bold" if side == res.winner else "regular", z=2
        )
        p.text(str(res.score.get(side, st.vp[side])), x0 + 200, y, 15, TEXT, style="bold", z=2)
        p.text(str(res.objective_points.get(side, 0)), x0 + 340, y, 15, TEXT, z=2)
        p.text(str(sum(1 for k in st.kills if k.scorer == side)), x0 + 460, y, 15, TEXT, z=2)
    bw = 156.0
    p.button(x0 + 30, y0 + 24, bw, 38, "Look at the map", buttons.get("close_result"), z=2, key="Esc",
             tip="close result")  # fmt: skip
    p.button(x0 + 44 + bw, y0 + 24, bw, 38, "Replay", buttons.get("replay"), z=2, key="Ctrl+R", tip="replay")
    p.button(x0 + 58 + 2 * bw, y0 + 24, bw, 38, "Quit", buttons.get("quit"), z=2, primary=True, key="Q",
             tip="quit")  # fmt: skip


def paint_question(
    p: Painter,
    W: float,
    H: float,
    title: str,
    lines: list[str],
    yes: tuple[str, str, str],
    no: tuple[str, str, str],
    buttons: dict[str, Callable[[], Any]],
) -> None:
    """A modal question with two buttons (``(label, button name, key)`` each)."""
    bw = min(W - 40, 600.0)
    body = [ln for s in lines for ln in wrap(p.atlas, s, bw - 60, 13)][:5]
    bh = 130.0 + 19 * len(body)
    x0, y0 = _modal_box(p, W, H, bw, bh, shade=170)
    p.text(title, x0 + 30, y0 + bh - 34, 19, TEXT, style="bold", z=2, max_width=bw - 60)
    y = y0 + bh - 66
    for ln in body:
        p.text(ln, x0 + 30, y, 13, DIM, z=2, max_width=bw - 60)
        y -= 19
    half = (bw - 80) / 2
    p.button(
        x0 + 30, y0 + 22, half, 38, yes[0], buttons.get(yes[1]), z=2, primary=True, key=yes[2], tip=yes[1]
    )
    p.button(x0 + 50 + half, y0 + 22, half, 38, no[0], buttons.get(no[1]), z=2, key=no[2], tip=no[1])


def paint_help(p: Painter, W: float, H: float, buttons: dict[str, Callable[[], Any]]) -> None:
    """Paint the keyboard shortcut overlay (:data:`SHORTCUTS`)."""
    rows = max(len(items) for _, items in SHORTCUTS)
    step = 21.0 if H >= 600 else 17.0
    bw, bh = min(W - 30, 1080.0), min(H - 30, 100 + rows * step)
    x0, y0 = _modal_box(p, W, H, bw, bh, shade=140)
    p.widget(x0, y0, bw, bh, buttons.get("close_help"), "close help", 2)
    p.text("Keyboard and mouse", x0 + 24, y0 + bh - 30, 18, ACTIVE, style="bold", z=2)
    p.text("H, F1 or Esc closes", x0 + bw - 24, y0 + bh - 30, 12, DIM, ax="right", z=2)
    colw = (bw - 48) / len(SHORTCUTS)
    size = 12.0 if bw >= 1000 else 10.5
    kw = min(120.0, colw * 0.36)
    for ci, (sec, items) in enumerate(SHORTCUTS):
        y = y0 + bh - 66
        cx = x0 + 24 + ci * colw
        p.text(sec.upper(), cx, y, 12, ACTIVE, style="bold", z=2)
        y -= step + 2
        for k, what in items:
            p.text(k, cx, y, size, TEXT, style="bold", z=2, max_width=kw - 6)
            p.text(what, cx + kw, y, size, DIM, max_width=colw - kw - 12, z=2)
            y -= step


def paint_feed(p: Painter, ctl: PlayController, lay: Layout, now: float) -> None:
    """Paint the rolls of the last attack or artillery mission (issue 36,
    :mod:`hexwar.ui.combat_feed`) at the top of the map area: per roll its dice as faces, the
    modifiers, the result, the number needed and HIT / MISS in words (not colour alone); the
    rolls appear one by one while the game pauses, and a line says a key skips."""
    feed = ctl.feed
    n = feed.revealed(now)
    if n == 0:
        return
    mx0, my0, mx1, my1 = lay.map
    w = min(560.0, mx1 - mx0 - 16)
    rows = feed.rows[:n]
    row_h = 38.0
    h = 30 + row_h * len(feed.rows) + (18 if feed.pausing(now) else 6)
    x0 = (mx0 + mx1) / 2 - w / 2
    y1 = my1 - 8
    y0 = max(my0 + 4, y1 - h)
    p.extra["feed_box"] = (x0, y0, x0 + w, y1)
    p.widget(x0, y0, w, y1 - y0, ctl.dismiss_feedback, "rolls", 1)  # a click puts it away
    p.rect(x0 + 3, y0 - 3, x0 + w + 3, y1 - 3, (0, 0, 0, 90), 1)
    p.rect(x0, y0, x0 + w, y1, (24, 26, 30, 242), 1)
    p.frame(x0, y0, x0 + w, y1, 1.0, ACTIVE, 1)
    p.text(feed.title, x0 + 10, y1 - 14, 13, ACTIVE, style="bold", max_width=w - 20, z=1)
    y = y1 - 30
    for r in rows:
        if y - row_h < y0:
            break
        p.text(r.label, x0 + 10, y - 8, 11, DIM, max_width=w - 20, z=1)
        dx = x0 + 10
        for f in r.faces:  # each die as a face (R1.1)
            p.rect(dx, y - 34, dx + 20, y - 16, (236, 232, 220, 255), 1)
            p.text(str(f), dx + 10, y - 25, 12, DARK, ax="center", style="bold", z=1)
            dx += 24
        mods = "".join(f" {v:+d} {name}" for name, v in r.modifiers)
        tail = f"{mods} = {r.result}"
        if r.needed is not None:
            tail += f", needs {r.needed}"
        right = 0.0
        if r.success is not None:
            verdict = "HIT" if r.success else "MISS"
            if "artillery" in r.label:
                verdict = "ON TARGET" if r.success else "DRIFTS"
            right = p.measure(verdict, 13, "bold") + 16
            bx = x0 + w - 10 - right
            p.rect(bx, y - 34, x0 + w - 10, y - 16, GOOD if r.success else ERROR, 1)
            p.text(verdict, bx + right / 2, y - 25, 13, DARK, ax="center", style="bold", z=1)
        p.text(tail, dx + 4, y - 25, 12, TEXT, max_width=max(20.0, x0 + w - 20 - right - dx - 4), z=1)
        y -= row_h
    if feed.pausing(now):
        p.text("any key or a click goes on", x0 + w - 10, y0 + 9, 10, FAINT, ax="right", z=1)
