"""The play screen's panels, drawn in screen points with the renderer's glyph atlas (issue 7).

Everything around the map is built here from the :class:`~hexwar.ui.controller.PlayController`
state as numpy meshes (:class:`Painter`) and uploaded in one go by :class:`UiLayer` into the
map view's batch, above the map, in three levels (panels, pop-ups, modal screens). So one
frame of the whole screen is a handful of draw calls, text stays sharp at every pixel ratio,
and ``hexwar render --screen play`` renders exactly what the window shows.

Layout (points, y up)::

    +---------------------------------------------------------------+
    | top bar: title | turn + phase track (R5) | initiative | VP (R10) |
    +---------------------------------------------+-----------------+
    |                                             | unit card (R4.1)|
    |                 map view                    | attack odds (R6)|
    |                                             | artillery (R9)  |
    |                                             | damage cards    |
    +---------------------------------------------+ combat log      |
    | hint / message | hand: unit and Command cards | actions |      |
    +---------------------------------------------+-----------------+

Widgets (buttons, cards) are recorded with their rectangles for hit testing; the window
dispatches clicks to their actions.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..game import ruleset
from ..game.state import Phase, card_of
from ..render.looks import Looks
from .controller import PHASE_TRACK, LogLine, PlayController
from .guidance import crew_need, crewless
from .widgets import CardView, Painter, Rect, UiLayer, ellipsize, wrap
from .widgets import HitBox as Widget
from .widgets.theme import (
    ACTIVE,
    BG,
    CLEAR_TEXT,
    DARK,
    DIM,
    ERROR,
    FAINT,
    FOCUS,
    GOOD,
    HINDERED_TEXT,
    LINE,
    PANEL,
    ROLL,
    SECTION,
    SIDE_UI,
    TARGET_TEXT,
    TEXT,
    Colour,
)

__all__ = [
    "TOP_H",
    "HAND_H",
    "SIDE_W",
    "SHORTCUTS",
    "Widget",
    "Painter",
    "UiLayer",
    "Layout",
    "layout",
    "paint_screen",
    "wrap",
]

TOP_H = 48.0
HAND_H = 196.0
SIDE_W = 380.0
MSG_H = 44.0  # the status line and the End phase line above the hand
PANEL_SOLID = (PANEL[0], PANEL[1], PANEL[2], 255)  # the map never shows through the panels (item 9)
MIN_CARD_W = 84.0  # narrower hand cards scroll instead of shrinking (item 6; 60 left names unreadable)

#: The keyboard shortcuts of the play screen (shown by the help overlay, H or F1; the same
#: list is in docs/play.md). Every order can be given without the mouse (issue 17 item 3).
SHORTCUTS: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = (
    (
        "Orders",
        (
            ("Left click", "select, move, target"),
            ("Right click", "select (cycles a stack)"),
            ("Space or E", "end the phase"),
            ("Enter", "the highlighted button"),
            ("R", "resolve the next attack"),
            ("B", "resolve with +1 (R1.3)"),
            ("1, 2", "toggle weapons"),
            ("P", "play the picked card"),
            ("Delete", "discard the picked card"),
            ("Esc", "cancel"),
            ("Ctrl+Z", "undo (before any die)"),
        ),
    ),
    (
        "Keyboard play",
        (
            ("Arrow keys", "move the hex cursor"),
            ("G", "act / aim at the cursor"),
            ("S", "select at the cursor"),
            ("Tab", "next unit (aloft too)"),
            ("T", "next target, free first"),
            ("[ and ]", "card cursor in the hand"),
            ("C", "pick it; again: the next"),
            ("Window title", "the hex, in plain text"),
        ),
    ),
    (
        "View",
        (
            ("Wheel", "zoom at the mouse"),
            ("+ / -", "zoom at the hex cursor"),
            ("Right drag", "pan the map"),
            ("Shift+arrows", "pan the map"),
            ("F or Home", "fit the map"),
            ("L", "hex labels on / off"),
            ("PgUp / PgDn", "scroll the log"),
            ("H or F1", "this help"),
            ("Ctrl+Q", "quit (asks; autosaved)"),
            ("Ctrl+R", "replay viewer, luck"),
        ),
    ),
)


@dataclass(frozen=True)
class Layout:
    """Screen rectangles ``(x0, y0, x1, y1)`` in points.

    Attributes:
        map: the map area.
        top: the top bar.
        side: the right-hand panel (unit, odds, artillery, log).
        hand: the bottom panel (hint, hand, actions).
    """

    map: tuple[float, float, float, float]
    top: tuple[float, float, float, float]
    side: tuple[float, float, float, float]
    hand: tuple[float, float, float, float]


def layout(width: float, height: float) -> Layout:
    """The screen layout for a window of ``width`` x ``height`` points (narrow windows shrink
    the side panel and the hand panel, never below a usable size)."""
    side_w = min(SIDE_W, max(260.0, width * 0.3))
    hand_h = min(HAND_H, max(172.0, height * 0.24))
    top_h = TOP_H
    W, H = float(width), float(height)
    return Layout(
        map=(0.0, hand_h, max(1.0, W - side_w), max(hand_h + 1.0, H - top_h)),
        top=(0.0, H - top_h, W, H),
        side=(max(1.0, W - side_w), 0.0, W, H - top_h),
        hand=(0.0, 0.0, max(1.0, W - side_w), hand_h),
    )


# -- the whole screen --------------------------------------------------------------------------------
@dataclass
class ScreenFlags:
    """Window-side switches the panels show.

    Attributes:
        show_help: the shortcut overlay is open.
        show_labels: hex labels are on.
        log_scroll: log lines scrolled up from the newest.
        tooltip: show the hover tooltip.
        extra: other switches; ``extra["quit_confirm"]`` holds the open quit question
            ``(title, lines)`` of :meth:`hexwar.ui.window_base.WindowBehaviour.question`.
    """

    show_help: bool = False
    show_labels: bool = True
    log_scroll: int = 0
    tooltip: bool = True
    extra: dict[str, Any] = field(default_factory=dict)


def paint_screen(
    p: Painter,
    ctl: PlayController,
    width: float,
    height: float,
    looks: Looks,
    flags: ScreenFlags,
    buttons: dict[str, Callable[[], Any]],
) -> None:
    """Paint the whole play screen for ``ctl`` into ``p`` (see module doc).

    Args:
        p: the painter (its mouse position drives hover highlights and the tooltip).
        ctl: the controller whose state is shown.
        width, height: window size in points.
        looks: colours (side colours of the counters).
        flags: window switches (help, labels, log scroll).
        buttons: window actions by name: ``fit``, ``labels``, ``help``, ``quit``, ``close_help``.
    """
    lay = layout(width, height)
    _paint_top(p, ctl, lay, buttons, flags)
    _paint_side(p, ctl, lay, flags, looks)
    _paint_hand(p, ctl, lay, looks, flags)
    if flags.tooltip and not flags.show_help and ctl.pass_to is None and not ctl.state.over:
        _paint_tooltip(p, ctl, lay)
    if ctl.pass_to is not None:
        _paint_pass(p, ctl, width, height)
    elif ctl.state.over and not flags.extra.get("result_closed"):
        _paint_game_over(p, ctl, width, height, buttons)
    if flags.show_help:
        _paint_help(p, width, height, buttons)
    if flags.extra.get("offer") is not None:
        _paint_question(
            p,
            width,
            height,
            "Continue your last game?",
            [flags.extra["offer"].text, "It was autosaved; continuing replays it to where you left off."],
            ("Continue", "continue", "Enter"),
            ("New game", "new_game", "Esc"),
            buttons,
        )
    if flags.extra.get("quit_confirm"):
        q = flags.extra["quit_confirm"]  # (title, lines) of the window's shared behaviour
        title, where = q if isinstance(q, tuple) else ("Quit this game?", [])
        _paint_question(
            p,
            width,
            height,
            title,
            list(where),
            ("Quit", "quit_now", "Enter"),
            ("Keep playing", "stay", "Esc"),
            buttons,
        )


def _side_chip(p: Painter, x: float, y: float, side: str, r: float = 6.0, z: int = 0) -> None:
    p.circle(x, y, r + 1.2, LINE, z)
    p.circle(x, y, r, SIDE_UI[side], z)


def _paint_top(
    p: Painter, ctl: PlayController, lay: Layout, buttons: dict[str, Callable[[], Any]], flags: ScreenFlags
) -> None:
    """The top bar, laid out left to right from measured widths (item 6): full from about
    1250 points, then the phase track shrinks to the current phase, then the texts shorten
    (800 points still fit everything without overlap)."""
    st = ctl.state
    x0, y0, x1, y1 = lay.top
    W = x1 - x0
    cy = (y0 + y1) / 2
    hi, lo = cy + 8, cy - 10
    p.rect(x0, y0, x1, y1, BG)
    p.rect(x0, y0, x1, y0 + 1, LINE)
    narrow = W < 1000
    # right: buttons, then victory points (R10)
    bx = x1 - 10
    labels_on = flags.show_labels and not flags.extra.get(
        "labels_small"
    )  # lit only when labels show (item 9)
    bw = 50.0 if narrow else 58.0
    for label, name, active in (
        ("Help", "help", flags.show_help),
        ("Labels", "labels", labels_on),
        ("Fit", "fit", False),
    ):
        bx -= bw
        tip = (
            label
            if name != "labels" or not flags.extra.get("labels_small")
            else "Labels (too small at this zoom)"
        )
        p.button(
            bx,
            cy - 14,
            bw,
            28,
            label,
            buttons.get(name),
            active=active,
            size=11 if narrow else 12,
            align="center",
            tip=tip,
        )
        bx -= 6
    bx -= 10
    right = bx
    for side in ("soviet", "german"):
        txt = f"{side.capitalize()} {st.vp[side]}"
        w = p.measure(txt, 14, "bold")
        bx -= w
        p.text(txt, bx, hi, 14, TEXT, style="bold")
        _side_chip(p, bx - 11, hi, side)
        bx -= 28
    sub = (
        f"win at {st.scenario.victory_points} VP"
        if narrow
        else f"victory points (win at {st.scenario.victory_points})"
    )
    p.text(sub, right, lo, 11, DIM, ax="right")
    vp_left = min(bx + 10, right - p.measure(sub, 11)) - 14
    # left: the title, the scenario's name under it
    name_w = min(p.measure(st.scenario.name, 11), 90.0 if narrow else 200.0)
    p.text("HEXWAR", 14, hi, 15, ACTIVE, style="bold")
    p.text(ellipsize(p.atlas, st.scenario.name, name_w, 11, "regular"), 14, lo, 11, DIM, max_width=name_w)
    x = 14 + max(p.measure("HEXWAR", 15, "bold"), name_w) + 16
    # turn and initiative
    limit = f" / {st.scenario.turns}" if st.scenario.turns else ""
    turn = f"Turn {st.turn}{limit}"
    ini = f"initiative {st.initiative.capitalize()}" if st.initiative else "initiative: not rolled"
    if narrow:
        ini = f"init. {st.initiative.capitalize()}" if st.initiative else "init. not rolled"
    p.text(turn, x, hi, 15, TEXT, style="bold")
    p.text(ini, x, lo, 11, DIM)
    x += max(p.measure(turn, 15, "bold"), p.measure(ini, 11)) + 16
    # who acts (measured first: it goes after the track)
    who_big, who_small = "", ""
    if st.to_act and not st.over:
        who = "computer" if st.to_act in ctl.ai else ("you" if not ctl.hot_seat else "hot-seat")
        who_big = f"{st.to_act.capitalize()}" + ("" if narrow else " to act")
        who_small = f"to act, {who}" if narrow else who
    elif st.over:
        who_big = "Game over"
    who_w = (17 + max(p.measure(who_big, 13, "bold"), p.measure(who_small, 11))) if who_big else 0.0
    # the phase track (R5): every phase, else the current one only
    avail = vp_left - x - who_w - 14
    natural = sum(p.measure(t, 12, "bold") + 18 for _, t in PHASE_TRACK) + 4 * len(PHASE_TRACK)
    track = (
        PHASE_TRACK if avail >= natural * 0.7 else tuple((ph, t) for ph, t in PHASE_TRACK if ph == st.phase)
    )
    if not track and st.phase == Phase.SETUP:
        track = ((Phase.SETUP, "Setup"),)
    nat = sum(p.measure(t, 12, "bold") + 18 for _, t in track) + 4 * len(track)
    k = min(1.0, max(0.1, avail / max(1.0, nat)))
    for ph, title in track:
        w = (p.measure(title, 12, "bold") + 18) * k
        cur = st.phase == ph
        done = (
            Phase.ORDER.index(st.phase) > Phase.ORDER.index(ph)
            if st.phase in Phase.ORDER and ph in Phase.ORDER
            else False
        )
        col = ACTIVE if cur else (SECTION if not done else (44, 47, 52, 255))
        p.rect(x, cy - 12, x + w, cy + 12, col)
        p.text(
            title,
            x + w / 2,
            cy,
            12,
            DARK if cur else (DIM if not done else FAINT),
            ax="center",
            style="bold",
            max_width=w - 6,
        )
        x += w + 4
    x += 10
    if st.to_act and not st.over:
        _side_chip(p, x + 6, hi, st.to_act)
        p.text(who_big, x + 17, hi, 13, TEXT, style="bold", max_width=max(10.0, vp_left - x - 17))
        p.text(who_small, x + 17, lo, 11, DIM, max_width=max(10.0, vp_left - x - 17))
    elif st.over:
        p.text("Game over", x, cy, 14, ACTIVE, style="bold", max_width=max(10.0, vp_left - x))


def _section(p: Painter, x0: float, x1: float, y: float, title: str, right: str = "") -> float:
    """A section header at ``y`` (its top); returns the y below it."""
    p.rect(x0, y - 22, x1, y, SECTION)
    p.text(title.upper(), x0 + 10, y - 11, 11, ACTIVE, style="bold")
    if right:
        p.text(right, x1 - 10, y - 11, 11, DIM, ax="right")
    return y - 28


def _unit_title(ctl: PlayController, uid: str) -> str:
    return ruleset.card_name(ctl.state.units[uid].card)


def _paint_side(p: Painter, ctl: PlayController, lay: Layout, flags: ScreenFlags, looks: Looks) -> None:
    st = ctl.state
    x0, y0, x1, y1 = lay.side
    p.rect(x0, y0, x1, y1, PANEL_SOLID)
    p.rect(x0, y0, x0 + 1, y1, LINE)
    px0, px1 = x0 + 10, x1 - 10
    y = y1 - 8
    # a hand card under the mouse or the card cursor, or the picked one: in full (item 2)
    hand = ctl.hand_cards() if ctl.hand_visible() else []
    card = ctl.hover_card if ctl.hover_card in hand else None
    if card is None and ctl.card in hand and ctl.selected is None:
        card = ctl.card
    uid = ctl.selected if ctl.selected in st.units else None
    if card is not None:
        y = _card_block(p, ctl, card, x0, x1, y, min(300.0, (y1 - y0) * 0.5), looks)
    # the unit card (R4.1): selected, else the one under the cursor
    title = "Selected unit"
    if uid is None and card is None:
        us = ctl.units_at(ctl.hover)
        if us:
            uid, title = us[0], "Unit under the cursor"
    if uid is not None or card is None:
        y = _section(p, x0 + 6, x1 - 6, y, title, st.hex_label(st.units[uid].hex) if uid else "")
    if uid is None and card is None:
        p.text("Click a unit to select it; hover for its card.", px0, y - 6, 12, DIM, max_width=px1 - px0)
        y -= 22
    elif uid is not None:
        y = _unit_block(p, ctl, uid, px0, px1, y, max_lines=9 if card is None else 4)
    y -= 6
    # pre-attack odds (R6), artillery (R9), damage cards (R6.6)
    if ctl.pending is not None:
        y = _odds_block(p, ctl, px0, px1, y, x0, x1)
    elif (
        st.phase == Phase.RESOLUTION
        and ctl.last_attack is None
        and any(not a.resolved for a in st.attacks.values())
    ):
        pass
    if ctl.strike is not None and ctl.strike.turn >= st.turn - 1:
        y = _section(p, x0 + 6, x1 - 6, y, "Artillery strike", f"turn {ctl.strike.turn}")
        s = ctl.strike
        for ln in wrap(p.atlas, s.text, px1 - px0, 12)[:3]:
            p.text(ln, px0, y - 6, 12, TEXT)
            y -= 17
        left = " · ".join(f"{k.capitalize()} {v}" for k, v in st.artillery_left.items())
        p.text(f"Missions left: {left}", px0, y - 6, 11, DIM)
        y -= 24
    if ctl.damage_cards:
        y = _section(p, x0 + 6, x1 - 6, y, "Damage cards drawn", f"{len(ctl.damage_cards)} so far")
        for dl in ctl.damage_cards[-2:]:
            for k, ln in enumerate(wrap(p.atlas, dl.text, px1 - px0 - 14, 12)[:3]):
                if k == 0:
                    p.rect(px0, y - 12, px0 + 6, y - 2, (192, 57, 43, 255))
                p.text(ln, px0 + 12, y - 6, 12, TEXT)
                y -= 17
            y -= 4
        y -= 4
    # the combat log fills the rest (every roll, R1.2)
    _log_block(p, ctl, x0, x1, y0 + 8, y, flags)


def _card_block(
    p: Painter, ctl: PlayController, card: str, x0: float, x1: float, y: float, h: float, looks: Looks
) -> float:
    """A hand card drawn in full (every fact, R4.1/R4.3) with what it needs beside it (R5.2)."""
    kind = "unit" if card_of(card) in ruleset.cards().units else "command"
    need = crew_need(card) if kind == "unit" else None
    y = _section(p, x0 + 6, x1 - 6, y, "Card", "needs " + need if need else "")
    c = ruleset.unit_card(card_of(card)) if kind == "unit" else ruleset.command_card(card)
    view = CardView(c, looks=looks, full=True, rules=ruleset.cards().rules)
    w = min(x1 - x0 - 24, 260.0)
    view.rect = Rect(x0 + 12, y - h, w, h)
    view.paint_self(p, 0)
    y -= h + 6
    if need:
        lacking = card in crewless(ctl.hand_pick if ctl.state.phase == Phase.SETUP else ctl.hand()[0])
        text = f"Needs {need} from your hand to be committed (R5.2)" + (
            ": none kept yet." if lacking else "."
        )
        for ln in wrap(p.atlas, text, x1 - x0 - 24, 12)[:2]:
            p.text(ln, x0 + 12, y - 6, 12, ERROR if lacking else DIM)
            y -= 16
    return y - 6


def _unit_block(
    p: Painter, ctl: PlayController, uid: str, px0: float, px1: float, y: float, max_lines: int, z: int = 0
) -> float:
    st = ctl.state
    u = st.units[uid]
    _side_chip(p, px0 + 6, y - 8, u.side, z=z)
    p.text(_unit_title(ctl, uid), px0 + 18, y - 8, 15, TEXT, style="bold", max_width=px1 - px0 - 90, z=z)
    card = ruleset.unit_card(u.card)
    full = max(1, card.endurance_full)
    # endurance bar (R6.5) with the Half mark (R6.6)
    bx0, bx1 = px1 - 66, px1
    p.rect(bx0, y - 13, bx1, y - 3, (20, 20, 20, 255), z)
    frac = max(0.0, min(1.0, u.endurance / full))
    colr = (63, 155, 70, 255) if frac > 0.5 else ((214, 169, 40, 255) if frac > 0.25 else (194, 57, 43, 255))
    p.rect(bx0 + 1, y - 12, bx0 + 1 + (bx1 - bx0 - 2) * frac, y - 4, colr, z)
    hx = bx0 + 1 + (bx1 - bx0 - 2) * card.endurance_half / full
    p.rect(hx - 0.75, y - 14, hx + 0.75, y - 2, TEXT, z)
    y -= 24
    lines = ctl.unit_lines(uid)[1:]  # the first line repeats the name
    n = 0
    for raw in lines:
        style, col, size = "regular", TEXT, 12.0
        if raw.startswith("  "):
            col = (214, 212, 200, 255)
        if raw.startswith("Now:"):
            style, col = "bold", GOOD
        if raw.startswith("Damage card"):
            col = ERROR
        for ln in wrap(p.atlas, raw.strip(), px1 - px0 - (12 if raw.startswith("  ") else 0), size, style):
            if n >= max_lines:
                return y
            p.text(ln, px0 + (12 if raw.startswith("  ") else 0), y - 6, size, col, style=style, z=z)
            y -= 16
            n += 1
    return y


def _odds_block(
    p: Painter, ctl: PlayController, px0: float, px1: float, y: float, x0: float, x1: float
) -> float:
    st = ctl.state
    pa = ctl.pending
    assert pa is not None
    y = _section(p, x0 + 6, x1 - 6, y, "Attack odds (exact)", "before you declare")
    att, tgt = st.units[pa.attacker], st.units[pa.target]
    tgt_name = ruleset.card_name(tgt.card) + (" (crew)" if pa.at_crew else "")
    p.text(
        f"{_unit_title(ctl, pa.attacker)}  >  {tgt_name}",
        px0,
        y - 6,
        13,
        TEXT,
        style="bold",
        max_width=px1 - px0,
    )
    y -= 20
    ttype = ruleset.unit_card(tgt.crew if pa.at_crew and tgt.crew else tgt.card).target_type
    from ..game import targeting

    for i, w in enumerate(ruleset.weapons(att.card)):
        if i not in pa.options:
            continue
        on = i in pa.weapons
        box = (px0, y - 13, px0 + 12, y - 1)
        p.rect(*box, ACTIVE if on else (90, 92, 96, 255))
        p.rect(box[0] + 1.5, box[1] + 1.5, box[2] - 1.5, box[3] - 1.5, ACTIVE if on else (30, 31, 34, 255))
        if on:
            p.line(box[0] + 2.5, box[1] + 6, box[0] + 5, box[1] + 3, 2.0, DARK)
            p.line(box[0] + 5, box[1] + 3, box[2] - 2, box[3] - 2.5, 2.0, DARK)
        av = w.attack_value(ttype)
        _, mode, hind = targeting.weapon_problem(st, pa.attacker, pa.target, i, pa.at_crew)
        need = (
            f"needs {av}"
            + (f" +{hind} hindrance" if hind else "")
            + (f", {mode}" if mode and mode != "direct" else "")
        )
        p.text(f"{i + 1}. {w.name}", px0 + 18, y - 7, 12, TEXT if on else DIM, max_width=px1 - px0 - 150)
        p.text(need, px1, y - 7, 12, ROLL if on else FAINT, ax="right")
        p.widget(px0, y - 15, px1 - px0, 17, functools.partial(ctl.toggle_weapon, i), f"weapon {i + 1}")
        y -= 19
    o = ctl.odds()
    if o is None:
        p.text("No odds: this attack is not legal as chosen.", px0, y - 6, 12, ERROR)
        return y - 26
    rows = (
        ("Destroyed", o.destroyed, (192, 57, 43, 255)),
        ("Damage card", o.damage_card, (226, 120, 48, 255)),
        ("Damaged", o.damaged, (214, 169, 40, 255)),
        ("No effect", o.no_effect, (132, 136, 128, 255)),
        ("Miss", o.miss, (86, 90, 96, 255)),
    )
    y -= 2
    bw = px1 - px0 - 150
    for name, v, col in rows:
        p.text(name, px0, y - 6, 12, TEXT)
        p.rect(px0 + 92, y - 12, px0 + 92 + bw, y - 1, (24, 25, 28, 255))
        p.rect(px0 + 92, y - 12, px0 + 92 + bw * max(0.0, min(1.0, v)), y - 1, col)
        p.text(f"{100 * v:.1f}%", px1, y - 6, 12, TEXT, ax="right", style="bold")
        y -= 17
    p.text(
        f"Expected {o.expected_vp:.1f} VP, {o.expected_damage:.1f} Endurance; hit {100 * o.hit:.0f}%",
        px0,
        y - 6,
        11.5,
        DIM,
    )
    return y - 28


def _log_colour(line: LogLine) -> tuple[Colour, str, float]:
    k = line.kind
    if k == "begin_turn":
        return ACTIVE, "bold", 12.5
    if k == "phase":
        return (200, 176, 120, 255), "bold", 11.5
    if k == "roll":
        return ROLL, "regular", 11.5
    if k in ("destroyed", "damage_card", "crew_fate", "captured", "victory"):
        return ERROR, "regular", 12.0
    if k in ("to_hit", "damage", "extra_damage", "artillery_strike", "artillery_unit_attack"):
        return (236, 214, 170, 255), "regular", 12.0
    if k in ("end_phase", "deal", "hand", "draw", "discard", "auto_end"):
        return DIM, "regular", 11.5
    return TEXT, "regular", 12.0


def _log_block(
    p: Painter, ctl: PlayController, x0: float, x1: float, ybot: float, ytop: float, flags: ScreenFlags
) -> None:
    n = len(ctl.log)
    ytop = _section(p, x0 + 6, x1 - 6, ytop, "Combat log", f"{n} lines · PgUp/PgDn")
    px0, px1 = x0 + 10, x1 - 12
    rows: list[tuple[str, Colour, str, float]] = []
    avail = ytop - ybot
    # newest at the bottom; walk back until the space is full
    end = max(0, n - flags.log_scroll)
    i = end - 1
    used = 0.0
    while i >= 0 and used < avail:
        ln = ctl.log[i]
        col, style, size = _log_colour(ln)
        indent = 12.0 if ln.kind == "roll" else 0.0
        text = ln.text
        if ln.kind == "begin_turn":
            text = text.strip("= ").strip()
        parts = wrap(p.atlas, text, px1 - px0 - indent - (10 if ln.kind != "roll" else 0), size, style)
        block = [(("  " if k else "") + s, col, style, size) for k, s in enumerate(parts)]
        h = sum(15.5 if b[3] < 12.4 else 17 for b in block) + (6 if ln.kind == "begin_turn" else 0)
        if used + h > avail and rows:
            break
        rows[:0] = [
            (("\u2022 " if ln.kind == "roll" and k == 0 else "") + s, c, st_, sz)
            for k, (s, c, st_, sz) in enumerate(block)
        ]
        if ln.kind == "begin_turn":
            rows.insert(0, ("---", FAINT, "regular", 6.0))
        used += h
        i -= 1
    y = ytop - 4
    for s, col, style, size in rows:
        if s == "---":
            p.rect(px0, y - 3, px1, y - 2, (70, 72, 76, 255))
            y -= 6
            continue
        indent = 12.0 if col == ROLL else 0.0
        p.text(s, px0 + indent, y - 7, size, col, style=style, max_width=px1 - px0 - indent)
        y -= 15.5 if size < 12.4 else 17
    if flags.log_scroll:
        p.text(f"{flags.log_scroll} newer lines below", px1, ybot + 2, 10.5, DIM, ax="right")


# -- the hand (R4.3, R5.2, R5.5) -------------------------------------------------------------------------
def _paint_hand(p: Painter, ctl: PlayController, lay: Layout, looks: Looks, flags: ScreenFlags) -> None:
    st = ctl.state
    x0, y0, x1, y1 = lay.hand
    p.rect(x0, y0, x1, y1, PANEL_SOLID)
    p.rect(x0, y1 - 1, x1, y1, LINE)
    # the status line (stale messages give way to what to do now) and what End phase does
    p.rect(x0, y1 - MSG_H, x1, y1 - 1, (36, 38, 43, 255))
    msg, err = ctl.status()
    lines = wrap(p.atlas, msg, x1 - x0 - 24, 13)
    if len(lines) > 1:  # two lines of 12 pt rather than one squeezed into nothing
        lines = wrap(p.atlas, msg, x1 - x0 - 24, 12)[:2]
        for k, ln in enumerate(lines):
            p.text(ln, x0 + 12, y1 - 11 - 14 * k, 12, ERROR if err else TEXT, max_width=x1 - x0 - 24)
    else:
        p.text(msg, x0 + 12, y1 - 13, 13, ERROR if err else TEXT, max_width=x1 - x0 - 24)
    end = ctl.end_phase_line()
    if end and len(lines) <= 1:
        p.text(end, x0 + 12, y1 - 33, 11, DIM, max_width=x1 - x0 - 24)
    # actions column (from the legal commands)
    acts = ctl.actions()
    rows_fit = max(1, int((y1 - MSG_H - 10 - (y0 + 6)) // 32))
    cols = 1 if len(acts) <= rows_fit else 2
    aw = min(232.0 if cols == 1 else 190.0, max(150.0, (x1 - x0) * (0.34 if cols == 1 else 0.22)))
    ax0 = x1 - cols * (aw + 8) - 2
    if len(acts) > rows_fit * cols:  # keep the primary ones and End phase, drop the rest
        keep = [a for a in acts if a.primary or a.key in ("Space", "Esc")]
        acts = (keep + [a for a in acts if a not in keep])[: rows_fit * cols]
    if acts:
        for i, a in enumerate(acts):
            c, r = divmod(i, rows_fit)
            bx = ax0 + c * (aw + 8)
            by = y1 - MSG_H - 10 - r * 32 - 28
            p.button(
                bx, by, aw, 28, a.label, a.run, primary=a.primary, enabled=a.enabled, key=a.key, tip=a.tip
            )
    elif not ctl.my_turn() and not st.over:
        who = st.to_act or ""
        txt = "Computer is thinking..." if who in ctl.ai else f"Waiting for {who.capitalize()}"
        p.text(txt, ax0 + aw / 2, y1 - 70, 13, DIM, ax="center")
    # the hand itself
    side = ctl.shown_side
    hx0, hx1 = x0 + 12, ax0 - 16
    top = y1 - MSG_H - 8
    if not ctl.hand_visible():
        p.rect(hx0, y0 + 10, hx1, top, (33, 35, 39, 255))
        p.text("Hand hidden", (hx0 + hx1) / 2, (y0 + 10 + top) / 2 + 8, 15, DIM, ax="center", style="bold")
        p.text(
            "Cards are shown only to the player whose turn it is.",
            (hx0 + hx1) / 2,
            (y0 + 10 + top) / 2 - 12,
            12,
            FAINT,
            ax="center",
        )
        return
    units, commands = ctl.hand(side)
    setup = st.phase == Phase.SETUP and side not in st.done
    title = f"{side.capitalize()} reserves: pick your starting hand" if setup else f"{side.capitalize()} hand"
    _side_chip(p, hx0 + 5, top - 7, side)
    if setup and hx1 - hx0 < 520:
        title = f"{side.capitalize()}: pick your starting hand"
    p.text(title, hx0 + 16, top - 7, 12, ACTIVE, style="bold", max_width=max(20.0, hx1 - hx0 - 130))
    if not setup:
        p.text(
            f"units {len(units)}/7 · Command {len(commands)}/5 · Reserves {len(st.reserves[side])}",
            hx1,
            top - 7,
            11,
            DIM,
            ax="right",
        )
    cards = [(c, "unit") for c in units] + [(c, "command") for c in commands]
    if not cards:
        p.text("No cards in hand.", hx0, top - 40, 13, DIM)
        return
    gap = 6.0
    # room above for a raised (picked) card and the card cursor's frame: they stayed clear of
    # the title's cap height but ran into its descenders (newuser3)
    ch = top - 24 - (y0 + 8)
    cw = min(112.0, (hx1 - hx0 - gap * (len(cards) - 1)) / len(cards))
    cy0 = y0 + 8
    index = {c: i for i, (c, _) in enumerate(cards)}
    if cw < MIN_CARD_W:  # too many to read: a scrolling row with < > (item 6)
        count = max(1, int((hx1 - hx0 - 2 * 26 + gap) // (MIN_CARD_W + gap)))
        focus = ctl.card_cursor if ctl.card_cursor is not None else index.get(ctl.card or "", None)
        start = int(flags.extra.get("hand_offset", 0))
        if focus is not None and focus != flags.extra.get("hand_focus"):
            flags.extra["hand_focus"] = focus
            if focus < start:
                start = focus
            elif focus >= start + count:
                start = focus - count + 1
        start = max(0, min(start, len(cards) - count))
        flags.extra["hand_offset"] = start

        def scroll(d: int) -> Callable[[], None]:
            return lambda: flags.extra.__setitem__("hand_offset", max(0, min(len(cards) - count, start + d)))

        p.button(
            hx0,
            cy0 + ch / 2 - 20,
            22,
            40,
            "<",
            scroll(-count),
            enabled=start > 0,
            align="center",
            tip="hand left",
        )
        p.button(
            hx1 - 22,
            cy0 + ch / 2 - 20,
            22,
            40,
            ">",
            scroll(count),
            enabled=start + count < len(cards),
            align="center",
            tip="hand right",
        )
        if setup:
            p.text(f"cards {start + 1}-{start + count} of {len(cards)}", hx1, top - 7, 11, DIM, ax="right")
        cards = cards[start : start + count]
        hx0 += 26
        cw = min(112.0, (hx1 - 26 - hx0 - gap * (len(cards) - 1)) / len(cards))
    usable: set[str] = set()
    if ctl.my_turn():  # cards some legal command uses now (the others are dimmed)
        for cmd in ctl.legal():
            inst = getattr(cmd, "unit", None) if cmd.name == "commit" else getattr(cmd, "card", None)
            if isinstance(inst, str) and cmd.name in ("commit", "use_command_card", "discard"):
                usable.add(card_of(inst))
    kept = ctl.hand_pick if setup else units
    lacking = set(crewless(kept))
    for j, (inst_id, kind) in enumerate(cards):
        i = index[inst_id]
        cx = hx0 + j * (cw + gap)
        picked = inst_id == ctl.card or inst_id in ctl.hand_pick
        lift = 6.0 if picked else 0.0
        need = crew_need(inst_id) if kind == "unit" else None
        badge = None
        if need is not None:  # what the unit needs beside it (R5.2), red while the hand has none
            short = (
                "infantry" if need.startswith("an infantry") else need.split(" ", 1)[1].replace(" card", "")
            )
            if setup and inst_id not in ctl.hand_pick:
                badge = (f"+ {short}", ACTIVE)
            elif inst_id in lacking:
                badge = (f"needs {short}", ERROR)
            else:
                badge = (f"+ {short}", GOOD)
        _card(
            p,
            ctl,
            inst_id,
            kind,
            cx,
            cy0 + lift,
            cw,
            ch - 2,
            picked,
            card_of(inst_id) in usable or setup,
            looks,
            badge,
        )
        if ctl.card_cursor == i and ctl.hand_visible():
            p.frame(cx - 3, cy0 - 3, cx + cw + 3, cy0 + ch + lift + 1, 2.0, FOCUS)
        p.widget(cx, cy0, cw, ch, functools.partial(ctl.pick_card, inst_id), f"card {inst_id}")


def _card(
    p: Painter,
    ctl: PlayController,
    c: str,
    kind: str,
    x: float,
    y: float,
    w: float,
    h: float,
    picked: bool,
    usable: bool,
    looks: Looks,
    badge: tuple[str, Colour] | None = None,
) -> None:
    """One hand card through the toolkit's :class:`CardView` (compact face)."""
    card = ruleset.unit_card(card_of(c)) if kind == "unit" else ruleset.command_card(c)
    view = CardView(card, looks=looks, picked=picked, usable=usable, badge=badge)
    view.rect = Rect(x, y - (6.0 if picked else 0.0), w, h)  # the view lifts a picked card itself
    view.paint_self(p, 0)


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


def _paint_tooltip(p: Painter, ctl: PlayController, lay: Layout) -> None:
    st = ctl.state
    h = ctl.hover
    mx, my = p.extra.get("cursor_xy", p.mouse)  # the keyboard's cursor hex, else the mouse
    mx0, my0, mx1, my1 = lay.map
    if h is None or not (mx0 <= mx < mx1 and my0 <= my < my1):
        return
    lines: list[tuple[str, Colour, str]] = [(_terrain_line(ctl, h), DIM, "regular")]
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

    def cost(cx: float, cy: float) -> float:
        """How bad a tooltip with top-left corner (cx, cy) is: off the map area, or covering the
        selected unit and the LOS line from it to the cursor."""
        bad = 0.0
        bad += max(0.0, mx0 + 4 - cx) + max(0.0, cx + width - (mx1 - 4))
        bad += max(0.0, my0 + 4 - (cy - hgt)) + max(0.0, cy - (my1 - 4))
        for k in range(21):
            t = k / 20
            qx, qy = sx + (mx - sx) * t, sy + (my - sy) * t
            if cx - 6 <= qx <= cx + width + 6 and cy - hgt - 6 <= qy <= cy + 6:
                bad += 40.0
        return bad

    cands = [
        (mx + 22, my - 18),
        (mx - width - 22, my - 18),
        (mx + 22, my + 46 + hgt),
        (mx - width - 22, my + 46 + hgt),
    ]
    x, y = min(cands, key=lambda c: cost(*c))
    x = min(max(x, mx0 + 4), mx1 - 4 - width)
    y = max(min(y, my1 - 4), my0 + 4 + hgt)
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


def _paint_pass(p: Painter, ctl: PlayController, W: float, H: float) -> None:
    side = ctl.pass_to or ""
    x0, y0 = _modal_box(p, W, H, 560, 220, shade=238)
    _side_chip(p, x0 + 30, y0 + 170, side, r=9, z=2)
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


def _paint_game_over(
    p: Painter, ctl: PlayController, W: float, H: float, buttons: dict[str, Callable[[], Any]]
) -> None:
    st = ctl.state
    res = st.result
    assert res is not None
    x0, y0 = _modal_box(p, W, H, 560, 300, shade=150)
    head = "Draw" if res.winner is None else f"{res.winner.capitalize()} victory"
    p.text("GAME OVER", x0 + 30, y0 + 262, 12, ACTIVE, style="bold", z=2)
    p.text(head, x0 + 30, y0 + 230, 26, TEXT, style="bold", z=2)
    p.text(f"by {res.reason} in turn {res.turn}", x0 + 30, y0 + 198, 14, DIM, z=2)
    y = y0 + 160
    p.text("Side", x0 + 30, y, 12, DIM, style="bold", z=2)
    p.text("Victory points", x0 + 200, y, 12, DIM, style="bold", z=2)
    p.text("Objectives", x0 + 340, y, 12, DIM, style="bold", z=2)
    p.text("Kills", x0 + 460, y, 12, DIM, style="bold", z=2)
    for side in ("german", "soviet"):
        y -= 26
        _side_chip(p, x0 + 36, y, side, z=2)
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


def _paint_question(
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


def _paint_help(p: Painter, W: float, H: float, buttons: dict[str, Callable[[], Any]]) -> None:
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
