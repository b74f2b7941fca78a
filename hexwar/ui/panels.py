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
from typing import Any

from ..game import ruleset
from ..game.state import Phase, card_of
from ..render.looks import Looks
from .controller import PHASE_TRACK, PlayController
from .guidance import crew_need, crewless
from .play_layout import (
    ARMS_CARD_W,
    HAND_CARD_W,
    HAND_H,
    MIN_CARD_W,
    MSG_H,
    PANEL_SOLID,
    SHORTCUTS,
    SIDE_W,
    TOP_H,
    Layout,
    ScreenFlags,
    layout,
    side_chip,
)
from .play_minimap import paint_hover_cost, paint_minimap
from .play_popups import (
    paint_feed,
    paint_game_over,
    paint_help,
    paint_pass,
    paint_question,
    paint_tooltip,
)
from .play_side import paint_side
from .widgets import HitBox as Widget
from .widgets import Painter, UiLayer, ellipsize, wrap
from .widgets.theme import (
    ACTIVE,
    BG,
    DARK,
    DIM,
    ERROR,
    FAINT,
    FOCUS,
    GOOD,
    LINE,
    PANEL,
    SECTION,
    TEXT,
    Colour,
)

__all__ = [
    "PANEL",
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
    if p.extra.get("minimap") is not None:  # the whole map, the part in view framed (issue 36)
        paint_minimap(p, p.extra["minimap"], looks)
    if p.extra.get("hover_cost") is not None and not flags.show_help:
        paint_hover_cost(p, *p.extra["hover_cost"])
    _paint_top(p, ctl, lay, buttons, flags)
    paint_side(p, ctl, lay, flags, looks)
    _paint_hand(p, ctl, lay, looks, flags)
    if ctl.pass_to is None:  # the rolls of the last attack or mission (issue 36)
        paint_feed(p, ctl, lay, ctl.clock.now())
    if flags.tooltip and not flags.show_help and ctl.pass_to is None and not ctl.state.over:
        paint_tooltip(p, ctl, lay)
    if ctl.pass_to is not None:
        paint_pass(p, ctl, width, height)
    elif ctl.state.over and not flags.extra.get("result_closed"):
        paint_game_over(p, ctl, width, height, buttons)
    if flags.show_help:
        paint_help(p, width, height, buttons)
    if flags.extra.get("offer") is not None:
        paint_question(
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
        paint_question(
            p,
            width,
            height,
            title,
            list(where),
            ("Quit", "quit_now", "Enter"),
            ("Keep playing", "stay", "Esc"),
            buttons,
        )


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
        side_chip(p, bx - 11, hi, side)
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
        side_chip(p, x + 6, hi, st.to_act)
        p.text(who_big, x + 17, hi, 13, TEXT, style="bold", max_width=max(10.0, vp_left - x - 17))
        p.text(who_small, x + 17, lo, 11, DIM, max_width=max(10.0, vp_left - x - 17))
    elif st.over:
        p.text("Game over", x, cy, 14, ACTIVE, style="bold", max_width=max(10.0, vp_left - x))


# -- the hand (R4.3, R5.2, R5.5) -------------------------------------------------------------------------
def _paint_status(p: Painter, ctl: PlayController, lay: Layout) -> None:
    """Draw the status line at the top of the hand panel and, below it, what End phase does."""
    x0, _y0, x1, y1 = lay.hand
    # stale messages give way to what to do now
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


def _paint_actions(p: Painter, ctl: PlayController, lay: Layout) -> float:
    """Draw the action buttons (from the legal commands) at the right of the hand panel; return
    their left edge (px), where the hand's cards must stop."""
    st = ctl.state
    x0, y0, x1, y1 = lay.hand
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
    return ax0


def _hand_scroller(
    p: Painter,
    ctl: PlayController,
    flags: ScreenFlags,
    cards: list[tuple[str, str]],
    index: dict[str, int],
    box: tuple[float, float, float, float],
    min_w: float,
    setup: bool,
) -> tuple[list[tuple[str, str]], float, float]:
    """A hand too wide to read as one row: draw < > buttons and return the cards in view, the
    row's new left edge and the card width (px) (item 6). ``box`` is (hx0, hx1, top, cy0 + ch / 2)."""
    hx0, hx1, top, mid = box
    gap = 6.0
    count = max(1, int((hx1 - hx0 - 2 * 26 + gap) // (min_w + gap)))
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

    total = len(cards)  # bound now: ``cards`` becomes the slice in view below

    def scroll(d: int) -> Callable[[], None]:
        return lambda: flags.extra.__setitem__("hand_offset", max(0, min(total - count, start + d)))

    p.button(
        hx0,
        mid - 20,
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
        mid - 20,
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
    cw = min(HAND_CARD_W, (hx1 - 26 - hx0 - gap * (len(cards) - 1)) / len(cards))
    return cards, hx0, cw


def _paint_hand(p: Painter, ctl: PlayController, lay: Layout, looks: Looks, flags: ScreenFlags) -> None:
    st = ctl.state
    x0, y0, x1, y1 = lay.hand
    p.rect(x0, y0, x1, y1, PANEL_SOLID)
    p.rect(x0, y1 - 1, x1, y1, LINE)
    _paint_status(p, ctl, lay)
    ax0 = _paint_actions(p, ctl, lay)
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
    side_chip(p, hx0 + 5, top - 7, side)
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
    cw = min(HAND_CARD_W, (hx1 - hx0 - gap * (len(cards) - 1)) / len(cards))
    cy0 = y0 + 8
    index = {c: i for i, (c, _) in enumerate(cards)}
    # cards wide enough for their Armament table (issue 36) while three or more still fit,
    # else narrower ones (the full card is in the side panel on hover)
    min_w = ARMS_CARD_W if hx1 - hx0 - 2 * 26 >= 3 * (ARMS_CARD_W + gap) else MIN_CARD_W
    if cw < min_w:  # too many to read: a scrolling row with < > (item 6)
        cards, hx0, cw = _hand_scroller(
            p, ctl, flags, cards, index, (hx0, hx1, top, cy0 + ch / 2), min_w, setup
        )
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
    """One hand card drawn as a card (:func:`hexwar.ui.card_face.paint_card`, R4.1-R4.3): a
    picked card framed in the focus colour, one no legal command uses now dimmed, and what a
    unit card needs beside it (R5.2) on a strip along its foot."""
    from .card_face import paint_card

    card = ruleset.unit_card(card_of(c)) if kind == "unit" else ruleset.command_card(card_of(c))
    paint_card(p, card, x, y, w, h, looks=looks, edge=FOCUS if picked else None, rules=ruleset.cards().rules)
    if badge is not None:
        text, col = badge
        p.rect(x + 1.5, y + 1.5, x + w - 1.5, y + 17, (28, 30, 34, 235))
        p.text(text, x + w / 2, y + 9, 11, col, ax="center", style="bold", max_width=w - 8)
    if not usable:
        p.rect(x, y, x + w, y + h, (20, 22, 26, 120))
