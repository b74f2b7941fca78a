"""The card table's side panel and overlays (R11.1, split from :mod:`hexwar.ui.lines_screen`):
the phase's action buttons (:mod:`hexwar.ui.lines_actions`), the exact odds before declaring as
labelled bars (:func:`hexwar.ui.widgets.odds.paint_odds_bars`, the hex window's rows), the
selected card's text, the Command-card bonus offer and the log with every roll; the keys' help
overlay, the setup picker of the starting hand (000) and the hot-seat hand-over screen.
"""

from __future__ import annotations

from functools import partial

from ..lines.rules import card, cards
from ..lines.table import SHORTCUTS, TableController
from ..lines.view import SeatView
from .lines_actions import paint_buttons
from .widgets import Painter, Rect, theme, wrap
from .widgets.odds import paint_odds_bars
from .widgets.text import ellipsize

__all__ = ["paint_side_panel", "paint_help", "paint_setup_pick", "paint_pass_screen", "command_text"]

SIDE_COL = {"german": (96, 124, 170, 255), "soviet": (200, 70, 60, 255)}


def paint_side_panel(p: Painter, ctl: TableController, v: SeatView, r: Rect) -> None:
    """The right-hand panel of the table in ``r`` (points, y up): the phase's buttons, the exact
    odds of the declaration being made as bars (R6), the selected hand card's text, the
    Command-card bonus (R1.3) and the log, newest at the bottom."""
    p.rect(r.x, r.y, r.x1, r.y1, theme.PANEL)
    # the phase's actions as buttons (mouse-only play), one of them highlighted: what Enter / Space does
    y = paint_buttons(p, ctl, Rect(r.x + 8, r.y, r.w - 16, r.h - 8)) - 10
    p.text("Odds before declaring (exact)", r.x + 8, y, 11.0, theme.DIM, style="bold")
    o = ctl.attack_odds()
    if o is not None:  # the hex window's labelled bars (R6)
        y = paint_odds_bars(p, o, r.x + 8, r.x1 - 8, y - 8, 10.5) + 8
    else:
        odds = ctl.odds() or (
            "select your unit, then an enemy target"
            if v.phase == "declaration"
            else "shown in the Declaration phase, for the attack being declared"
        )
        for ln in wrap(p.atlas, odds, r.w - 16, 10.5)[:3]:
            y -= 15
            p.text(ln, r.x + 8, y, 10.5, theme.ROLL)
    if ctl.target and ctl.selected in ctl.state.units:
        ws = card(ctl.selected).weapons
        chosen = (
            ", ".join(f"{i + 1}. {ws[i].name}" for i in ctl.weapons if i < len(ws)) or "none (1 / 2 choose)"
        )
        y -= 15
        p.text(ellipsize(p.atlas, f"weapons: {chosen}", r.w - 16, 10.0), r.x + 8, y, 10.0, theme.TEXT)
    sel = ctl.selected
    hand = v.hand_units + v.hand_commands
    if sel is not None and sel in hand:
        y -= 22
        p.text("Selected card", r.x + 8, y, 11.0, theme.DIM, style="bold")
        text = card(sel).help_text(cards()) if sel in v.hand_units else command_text(sel)
        for ln in [w for para in text.split("\n") for w in wrap(p.atlas, para, r.w - 16, 10.0)][:7]:
            y -= 13
            p.text(ln, r.x + 8, y, 10.0, theme.TEXT)
    # the full effect of the selected unit's / the target's Damage card (R6.6): the strip on the
    # card holds one line, this holds it all
    in_play = {u.uid: u for lines in v.lines.values() for row in lines.values() for u in row}
    for uid in dict.fromkeys((ctl.selected, ctl.target)):
        u = in_play.get(uid or "")
        if u is None or u.damage is None:
            continue
        title, effect, turns = u.damage
        left = f" ({turns} turn{'s' if turns != 1 else ''} left)" if turns else ""
        text = f"{u.name}: Damage card {title}{left}: {effect.removeprefix(title + ': ')}"
        y -= 8
        for ln in wrap(p.atlas, text, r.w - 16, 10.0)[:4]:
            y -= 13
            p.text(ln, r.x + 8, y, 10.0, theme.ERROR)
    y -= 22
    p.text("Command-card bonus (B)", r.x + 8, y, 11.0, theme.DIM, style="bold")
    y -= 15
    bonus = (
        f"+1 on the next to-hit roll: {cards().command_or_event(ctl.bonus).title}"
        if ctl.bonus
        else "none offered; B picks a Command card to discard for +1"
    )
    for i, ln in enumerate(wrap(p.atlas, bonus, r.w - 16, 10.0)[:2]):
        y -= 13 if i else 0
        p.text(ln, r.x + 8, y, 10.0, theme.TEXT)
    if ctl.message:
        for ln in wrap(p.atlas, ctl.message, r.w - 16, 10.0)[:3]:
            y -= 14
            p.text(ln, r.x + 8, y, 10.0, theme.ERROR)
    y -= 22
    p.text("Log (every roll)", r.x + 8, y, 11.0, theme.DIM, style="bold")
    lines = list(v.log)
    if ctl.log_offset:
        lines = lines[: -ctl.log_offset] if ctl.log_offset < len(lines) else lines[:1]
    out: list[str] = []
    for text in lines:
        out.extend(wrap(p.atlas, text, r.w - 16, 10.0))
    room = int((y - r.y - 8) // 13)
    for ln in out[-room:] if room > 0 else []:
        y -= 13
        roll = ": 2d10" in ln or ": 1d10" in ln or "d10 [" in ln
        p.text(ln, r.x + 8, y, 10.0, theme.ROLL if roll else theme.TEXT)


def _phase_of(cid: str) -> str:
    """The phase a Command card is played in, for people (an Event card: ``event``)."""
    return str(getattr(cards().command_or_event(cid), "phase", "event")).replace("_", " ")


def command_text(cid: str) -> str:
    """A Command card's title, phase and rules text (as ``hexwar cards`` prints it)."""
    c = cards().command_or_event(cid)
    help_text = getattr(c, "help_text", None)
    if callable(help_text):
        try:
            return str(help_text())
        except TypeError:
            pass
    return f"{c.title} ({_phase_of(cid)})"


def paint_help(p: Painter, r: Rect) -> None:
    """The keys, one a row, at 11 pt (rows closer in a short window; long texts shortened)."""
    step = max(14.0, min(20.0, (r.h - 70) / len(SHORTCUTS)))
    w, h = min(r.w - 20, 680.0), 44.0 + step * len(SHORTCUTS)
    x, y = r.x + (r.w - w) / 2, r.y + (r.h - h) / 2
    p.rect(x, y, x + w, y + h, theme.PANEL, 2)
    p.frame(x, y, x + w, y + h, 1.5, theme.ACTIVE, 2)
    p.text("Card table: keys (H / F1 closes)", x + 14, y + h - 18, 13.0, theme.TEXT, style="bold", z=2)
    kw = min(170.0, w * 0.3)
    for i, (k, what) in enumerate(SHORTCUTS):
        yy = y + h - 42 - step * i
        p.text(
            ellipsize(p.atlas, k, kw - 10, 11.0, "bold"), x + 14, yy, 11.0, theme.ACTIVE, style="bold", z=2
        )
        p.text(ellipsize(p.atlas, what, w - kw - 28, 11.0), x + 14 + kw, yy, 11.0, theme.TEXT, z=2)


def paint_setup_pick(p: Painter, ctl: TableController, r: Rect) -> None:
    """000 setup: the seat's Reserves deck as cards to click for the starting hand."""
    st = ctl.state
    seat = st.to_act
    if seat is None or not ctl.human_to_act() or ctl.passing:
        return
    p.rect(r.x, r.y, r.x1, r.y1, (41, 44, 49, 255), 1)
    w, h, gap = 132.0, 56.0, 6.0
    per_row = max(1, int((r.w - 24 + gap) // (w + gap)))
    rows_fit = max(1, int((r.h - 28 - 4 + gap) // (h + gap)))
    deck = ctl.hand_choices() or sorted(st.reserves.get(seat, []))
    cap = per_row * rows_fit
    start, title_w = 0, r.w - 24
    if len(deck) > cap:  # more cards than fit: pages, followed by the hand cursor ([ / ]) or the buttons
        start = ((ctl.card_cursor or 0) // cap) * cap
        last = min(len(deck), start + cap)
        pager = f"{start + 1}-{last} of {len(deck)}"
        bx = r.x1 - 12 - 2 * 92 - 6
        pw = p.measure(pager, 11.0, "bold")
        title_w = bx - 20 - pw - r.x - 24
        p.text(pager, bx - 10, r.y1 - 14, 11.0, theme.TEXT, ax="right", style="bold", z=1)
        p.button(bx, r.y1 - 25, 92, 22, "< Previous", partial(ctl.step_card, -cap) if start else None, z=1,
                 enabled=start > 0, tip="reserves previous", size=11.0)  # fmt: skip
        p.button(bx + 98, r.y1 - 25, 92, 22, "Next >", partial(ctl.step_card, cap) if last < len(deck) else None,
                 z=1, enabled=last < len(deck), tip="reserves next", size=11.0)  # fmt: skip
    title = f"{seat}: your Reserves deck - pick the starting hand (Enter takes it)"
    p.text(ellipsize(p.atlas, title, title_w, 12.0, "bold"), r.x + 12, r.y1 - 14, 12.0, theme.ACTIVE,
           style="bold", z=1)  # fmt: skip
    for i, c in enumerate(deck[start : start + cap]):
        x = r.x + 12 + (i % per_row) * (w + gap)
        y = r.y1 - 28 - h - (i // per_row) * (h + gap)
        u = card(c)
        picked = c in ctl.picks
        p.rect(x, y, x + w, y + h, theme.PARCHMENT, 1)
        p.rect(x, y + h - 18, x + w, y + h, SIDE_COL[u.side], 1)
        p.text(ellipsize(p.atlas, u.name, w - 10, 10.5, "bold"), x + 5, y + h - 9, 10.5, theme.TEXT, style="bold",
               z=1)  # fmt: skip
        p.text(ellipsize(p.atlas, f"{u.unit_type.replace('_', ' ')}, cost {u.cost}", w - 10, 10.0), x + 5,
               y + h - 29, 10.0, theme.DARK, z=1)  # fmt: skip
        crew = "" if u.is_crew or u.crew == "none" else f"needs {u.crew.replace('_', ' ')}"
        p.text(ellipsize(p.atlas, crew, w - 10 - (52 if picked else 0), 10.0), x + 5, y + h - 44, 10.0, theme.DARK,
               z=1)  # fmt: skip
        if picked:
            p.frame(x - 2, y - 2, x + w + 2, y + h + 2, 3.0, theme.ACTIVE, 1)
            p.text("in hand", x + w - 5, y + h - 44, 10.0, (150, 90, 0, 255), ax="right", style="bold", z=1)
        if ctl.card_cursor is not None and start + i == ctl.card_cursor:
            p.frame(x - 4, y - 4, x + w + 4, y + h + 4, 2.0, theme.FOCUS, 1)  # the keyboard's cursor
        p.widget(x, y, w, h, partial(ctl.click, c), f"reserve {c}", 1)


def paint_pass_screen(p: Painter, ctl: TableController, r: Rect) -> None:
    """Hot-seat hand-over: hands hidden until the next person takes the seat."""
    seat = ctl.passing or ""
    p.rect(r.x, r.y, r.x1, r.y1, (20, 22, 26, 245), 2)
    p.text(
        f"Hand the screen to {seat}",
        r.x + r.w / 2,
        r.y + r.h / 2 + 40,
        24.0,
        theme.ACTIVE,
        ax="center",
        style="bold",
        z=2,
    )
    p.text(
        "Hands are hidden until the next player is looking.",
        r.x + r.w / 2,
        r.y + r.h / 2 + 6,
        13.0,
        theme.DIM,
        ax="center",
        z=2,
    )
    p.button(
        r.x + r.w / 2 - 140,
        r.y + r.h / 2 - 56,
        280,
        36,
        f"I am {seat}: show my hand  (Enter)",
        ctl.take_seat,
        z=2,
        primary=True,
        align="center",
    )
