"""The campaign screen (issue 16): the 1941-1945 war on the shared widget toolkit.

:func:`paint_campaign` draws everything the :class:`~hexwar.ui.campaign_controller.CampaignController`
says into a :class:`hexwar.ui.widgets.Painter` (no GL: tests read ``painter.texts`` and click
``painter.widgets``): the year track with the year cards won, both ranks with the tactic cards
they give, the event cards in play and the pile, the initiative card, the opponent's hand face
down, the placement slots (face down, then turned over step by step as the battle is
revealed), both battle piles, the shown side's hand with the exact odds beside every battle
and tactic card, the history of battles, the log, the prompt, the shortcut bar and the help
overlay (``H``). In hot-seat a cover hides the hand until the next player lifts it.

:class:`CampaignWindow` is the thin pyglet shell: keys and clicks to the controller, the
controller's ticks on pyglet's clock, the painter uploaded by a ``UiLayer`` above a map view
of the year's front (the map of the year's first hex scenario, or the steppe village), which is
also what :meth:`CampaignWindow.render_image` and ``hexwar render --screen campaign`` draw.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..campaign.cards import SIDES, card_help
from ..campaign.events import BattleCardsRevealed, BattleScored, BattleStalemate, BattleWon, TacticRevealed
from .campaign_controller import SHORTCUTS, TACTIC_KEYS, CampaignController
from .widgets import Painter
from .widgets import theme as T
from .widgets.text import ellipsize, wrap

__all__ = ["paint_campaign", "CampaignWindow", "campaign_image", "run", "SIDE_NAME", "result_colour"]

SIDE_NAME = {"german": "German", "soviet": "Soviet"}
CARD_W, CARD_H = 128.0, 74.0


MIN_TEXT = 11.0  # the smallest text drawn at 1400x860 (issue 30): long text is wrapped or cut, never shrunk


def _pct(p: Any) -> str:
    return f"{float(p) * 100:.0f}%"


def _fit(p: Painter, text: str, size: float, width: float, style: str = "regular") -> str:
    """``text`` cut to ``width`` points at ``size`` (an ellipsis marks the cut), never shrunk."""
    if width <= 0 or p.measure(text, size, style) <= width:
        return text
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if p.measure(text[:mid] + "…", size, style) <= width:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo].rstrip() + "…"


def _text(p: Painter, text: str, x: float, y: float, size: float, color: Any, **kw: Any) -> None:
    """``p.text`` at no less than :data:`MIN_TEXT`; ``max_width`` cuts the text (an ellipsis)
    instead of shrinking it."""
    size = max(size, MIN_TEXT)
    width = kw.pop("max_width", None)
    if width is not None:
        text = _fit(p, text, size, width, kw.get("style", "regular"))
    p.text(text, x, y, size, color, **kw)


def _wrap(p: Painter, text: str, size: float, width: float) -> list[str]:
    """``text`` word-wrapped to ``width`` points at ``size``."""
    out: list[str] = []
    line = ""
    for word in text.split():
        cand = f"{line} {word}" if line else word
        if line and p.measure(cand, size) > width:
            out.append(line)
            line = word
        else:
            line = cand
    if line:
        out.append(line)
    return out or [""]


def _card(
    p: Painter,
    x: float,
    y: float,
    title: str,
    lines: list[str],
    side: str | None,
    face_up: bool = True,
    active: bool = False,
    action: Any = None,
    tip: str = "",
    w: float = CARD_W,
    h: float = CARD_H,
    max_lines: int | None = None,
) -> None:
    """One card: face up (title, lines: at most ``max_lines`` after wrapping, else as many as
    the card's height holds) or face down (the side's colour and a pattern)."""
    edge = T.ACTIVE if active else T.LINE
    if not face_up:
        col = T.SIDE_UI.get(side or "", T.SECTION)
        p.rect(x, y, x + w, y + h, col)
        for k in range(1, 6):
            p.line(x + 6, y + k * h / 6, x + w - 6, y + k * h / 6, 1, (255, 255, 255, 40))
        p.frame(x, y, x + w, y + h, 2 if active else 1, edge)
        if w > 80:
            p.text("face down", x + w / 2, y + h / 2, 11, T.TEXT, ax="center", style="bold")
        else:  # a narrow card: two lines at 10 pt (issue 36: once squeezed to 8.5)
            p.text("face", x + w / 2, y + h / 2 + 7.5, MIN_TEXT, T.TEXT, ax="center", style="bold")
            p.text("down", x + w / 2, y + h / 2 - 7.5, MIN_TEXT, T.TEXT, ax="center", style="bold")
    else:
        p.rect(x, y, x + w, y + h, T.PARCHMENT)
        band = T.SIDE_UI.get(side or "", T.SECTION)
        p.rect(x, y + h - 16, x + w, y + h, band)
        p.text(_fit(p, title, MIN_TEXT, w - 10, "bold"), x + 5, y + h - 8, MIN_TEXT, T.TEXT, style="bold")
        wrapped = [part for ln in lines for part in _wrap(p, ln, MIN_TEXT, w - 12)]
        room = max(1, int((h - 22) // 13))
        for i, ln in enumerate(wrapped[: min(room, max_lines) if max_lines else room]):
            p.text(_fit(p, ln, MIN_TEXT, w - 12), x + 6, y + h - 28 - 13 * i, MIN_TEXT, T.DARK)
        p.frame(x, y, x + w, y + h, 3 if active else 1, T.ACTIVE if active else T.PARCHMENT_EDGE)
    if action is not None or tip:
        p.widget(x, y, w, h, action, tip)


def _section(p: Painter, x: float, y: float, w: float, h: float, title: str) -> None:
    p.rect(x, y, x + w, y + h, T.PANEL)
    p.rect(x, y + h - 20, x + w, y + h, T.SECTION)
    p.text(title, x + 8, y + h - 10, 11.5, T.DIM, style="bold")


def result_colour(shown: str, humans: list[str], result: Any) -> Any:
    """The colour a battle's result is announced in, for the side whose hand is shown: green when
    that side won, red when the opponent did (issue 36: an opponent's win was announced in the
    winner's green), plain for a stalemate or when the computer plays both sides."""
    if not isinstance(result, BattleWon) or not humans:
        return T.TEXT
    return T.GOOD if result.side == shown else T.ERROR


def _paint_top_bar(p: Painter, ctl: CampaignController, w: float, h: float) -> float:
    """The top bar (year track, initiative, ranks and tactic cards, events); return its lower edge (pt)."""
    st = ctl.state
    c = st.cards
    # -- top bar: year track, initiative, ranks, events -------------------------------------
    top = h - 64
    p.rect(0, top, w, h, T.PANEL)
    x = 10.0
    for yc in c.years:
        won = next((s for s in SIDES if yc.year in st.year_cards[s]), None)
        current = yc.year == st.year and not st.over
        col = T.SIDE_UI[won] if won else (T.ACTIVE if current else T.SECTION)
        p.rect(x, top + 10, x + 70, top + 54, col)
        _text(
            p,
            str(yc.year),
            x + 35,
            top + 40,
            14,
            T.DARK if current and not won else T.TEXT,
            ax="center",
            style="bold",
        )
        tag = (
            SIDE_NAME[won]
            if won
            else ("tied" if yc.year in st.years_unclaimed else ("now" if current else ""))
        )
        _text(p, tag, x + 35, top + 20, 10, T.DARK if current and not won else T.TEXT, ax="center")
        p.widget(
            x,
            top + 10,
            70,
            44,
            None,
            f"{yc.title}: " + (f"won by {SIDE_NAME[won]}" if won else tag or "to come"),
        )
        x += 76
    x += 10
    p.rect(x, top + 10, x + 118, top + 54, T.SIDE_UI[st.initiative])
    _text(p, "Initiative", x + 59, top + 40, 11, T.TEXT, ax="center", style="bold")
    _text(p, SIDE_NAME[st.initiative], x + 59, top + 22, 12, T.TEXT, ax="center")
    p.widget(x, top + 10, 118, 44, None, "The initiative holder wins drawn battles (002)")
    x += 130
    if w - x >= 2 * 210 + 300:  # wide: each side's rank over its tactic cards, side by side
        for s in SIDES:
            r = c.ranks[st.ranks[s] - 1]
            p.text(f"{SIDE_NAME[s]}: {r.title}", x, top + 42, 12, T.TEXT, style="bold")
            p.text(
                f"{r.tactic_cards} tactic card{'s' if r.tactic_cards > 1 else ''} a year - {st.wins[s]} won in {st.year}",
                x,
                top + 24,
                MIN_TEXT,
                T.DIM,
            )
            x += 210
    else:  # narrow (issue 36: cut at 1000x700): one line a side
        rank_w = 0.0
        for k, s in enumerate(SIDES):
            r = c.ranks[st.ranks[s] - 1]
            line = f"{SIDE_NAME[s]}: {r.title}, {r.tactic_cards} tactic/yr, {st.wins[s]} won"
            rank_w = max(rank_w, p.measure(line, MIN_TEXT, "bold"))
            p.text(line, x, top + 42 - 18 * k, MIN_TEXT, T.TEXT, style="bold")
        x += rank_w + 16
    ex = x
    room = w - 10 - ex  # the events get what is left of the bar, shortened, never cut
    if room >= 60:
        p.text("Events:", ex, top + 42, 11.5, T.DIM, style="bold")
        ew = max(0.0, (room - 60) / max(1, len(st.events_in_play)) - 5)
        for i, ev in enumerate(st.events_in_play):
            if ew >= 24:
                p.text(ellipsize(p.atlas, c.title(ev), ew, 11.5, "bold"), ex + 60 + (ew + 5) * i, top + 42, 11.5,
                       T.ROLL, style="bold")  # fmt: skip
                p.widget(ex + 60 + (ew + 5) * i, top + 32, ew, 20, None, card_help(c, ev))
        pile = f"pile: {len(st.event_pile)} cards" + (
            f" - picked for the swap: {c.title(ctl.picked_event)}" if ctl.picked_event else ""
        )
        p.text(ellipsize(p.atlas, pile, room, MIN_TEXT), ex, top + 22, MIN_TEXT, T.DIM)
    return top


def _paint_history_and_log(p: Painter, ctl: CampaignController, w: float, top: float) -> float:
    """The right column: the war's history over the log (newest lines, wrapped); return its left edge (pt)."""
    st = ctl.state
    c = st.cards
    # -- right column: history and log -----------------------------------------------------
    rw = 360.0 if w >= 1300 else max(230.0, round(w * 0.29))  # narrower beside a small table
    rx = w - rw - 8
    hist_h = (top - 60) * 0.5
    _section(p, rx, top - 8 - hist_h, rw, hist_h, "History of battles")
    yy = top - 40
    for hrec in st.history[-int((hist_h - 30) // 15) :]:
        who = SIDE_NAME.get(hrec.winner or "", "nobody")
        line = (
            f"{hrec.year}/{hrec.number}: {c.title(hrec.german)} {hrec.german_score} - {hrec.soviet_score} "
            f"{c.title(hrec.soviet)}: {who}"
        )
        p.text(ellipsize(p.atlas, line, rw - 16, MIN_TEXT), rx + 8, yy, MIN_TEXT, T.TEXT)  # never squeezed
        yy -= 15
    log_h = top - 60 - hist_h - 16
    _section(p, rx, 52, rw, log_h, "Log")
    room_lines = int((log_h - 30) // 14)
    wrapped: list[tuple[str, bool]] = []
    for ln in reversed(ctl.log):  # the newest lines, wrapped at 10 pt (issue 36: once squeezed to 6 pt)
        if len(wrapped) >= room_lines:
            break
        dim = ln.startswith("draw")
        wrapped[:0] = [(part, dim) for part in wrap(p.atlas, ln.strip(), rw - 16, MIN_TEXT)]
    yy = 52 + log_h - 32
    for ln, dim in wrapped[-room_lines:] if room_lines > 0 else []:
        p.text(ln, rx + 8, yy, MIN_TEXT, T.DIM if dim else T.TEXT)
        yy -= 14
    return rx


def _paint_opponent_row(p: Painter, ctl: CampaignController, top: float, rx: float) -> tuple[float, float]:
    """The opponent's hand face down (R12.1), tactic cards and used campaign cards along the top; return the card width and the row's lower edge (pt)."""
    st = ctl.state
    c = st.cards
    me = ctl.hand_side
    opp = "soviet" if me == "german" else "german"
    # -- the table: opponent's hand, slots, piles, own hand -----------------------------------
    tw = rx - 16
    cw = min(CARD_W, (tw - 12 - 6 * 8) / 7)  # seven cards fit beside the right column
    # opponent (face down: R12.1) along the top
    oy = top - 16 - CARD_H
    _text(
        p,
        f"{SIDE_NAME[opp]} hand ({len(st.hands[opp])} battle cards)",
        12,
        oy + CARD_H + 6,
        11.5,
        T.DIM,
        style="bold",
    )
    for i, _b in enumerate(st.hands[opp]):
        _card(
            p,
            12 + i * (cw * 0.55),
            oy,
            "",
            [],
            opp,
            face_up=False,
            w=cw * 0.5,
            h=CARD_H * 0.8,
            tip=f"{SIDE_NAME[opp]} battle card in hand",
        )
    ot = st.view(me)["tactics_hand"][opp]  # with a face-down tactic card among them (R12.1)
    _text(
        p,
        f"tactic cards: {', '.join(c.title(t) for t in ot) if isinstance(ot, list) else ot}"
        f"; used: {', '.join(c.title(t) for t in st.tactics_discard[opp]) or 'none'}",
        12 + 7 * cw * 0.55 + 10,
        oy + 30,
        10.5,
        T.TEXT,
        max_width=tw - 7 * cw * 0.55 - 20,
    )
    used = st.campaign_used[opp]
    if st.options.uses_campaign_cards:
        _text(
            p,
            f"campaign cards left: {len(st.campaign_unused[opp])}; used: {', '.join(c.title(x) for x in used) or 'none'}",
            12 + 7 * cw * 0.55 + 10,
            oy + 12,
            10.5,
            T.DIM,
            max_width=tw - 7 * cw * 0.55 - 20,
        )
    return cw, oy


def _paint_battle(
    p: Painter, ctl: CampaignController, w: float, top: float, rx: float, cw: float, oy: float
) -> float:
    """The placement slots, the reveal of a battle (tactics, cards, score, result) and the battle piles; return the own hand's baseline (pt)."""
    st = ctl.state
    c = st.cards
    me = ctl.hand_side
    tw = rx - 16  # the table's width, beside the right column
    # placement slots and the reveal, in the middle
    hy = 96.0
    hand_top = hy + 66 + CARD_H + 24
    my_ = max(hand_top + 60, (oy + hand_top) / 2 - CARD_H / 2)
    steps = ctl.reveal[: ctl.reveal_shown] if ctl.reveal_shown else []
    showing = bool(steps) and (ctl.revealing or st.phase in ("swap", "battle") or not any(st.slots.values()))
    last = steps[-1].event if steps else None
    # a battle of a year that is over is not shown into the next year: the year-end summary is
    summary = list(ctl.year_summary) if ctl.year_summary and not ctl.revealing else []
    if summary or (showing and not ctl.revealing and getattr(last, "year", st.year) != st.year):
        showing = False
        steps = []
    title = f"{st.year}, battle {st.battle} of {c.rules.battles_per_year}"
    if (
        showing
        and not ctl.revealing
        and st.phase not in ("swap", "battle")
        and isinstance(last, (BattleWon, BattleStalemate))
    ):
        title += f"  (the table shows battle {last.number} of {last.year}, just fought)"
    _text(p, title, 12, my_ + CARD_H + 20, 14, T.TEXT, style="bold", max_width=tw - 24)
    shown_tactic = {e.event.side: e.event for e in steps if isinstance(e.event, TacticRevealed)}
    shown_cards = next((e.event for e in steps if isinstance(e.event, BattleCardsRevealed)), None)
    shown_score = next((e.event for e in steps if isinstance(e.event, BattleScored)), None)
    result = next((e.event for e in steps if isinstance(e.event, (BattleWon, BattleStalemate))), None)
    sx = 12.0
    for s in SIDES:
        _text(p, SIDE_NAME[s], sx, my_ - 12, 11.5, T.SIDE_UI[s], style="bold")
        if showing and shown_cards is not None:
            bid = getattr(shown_cards, s)
            _card(
                p,
                sx,
                my_,
                c.title(bid),
                [f"{c.battle[bid].arm} {c.battle[bid].value}"],
                s,
                tip=card_help(c, bid),
                w=cw,
            )
        elif showing or st.slots[s] is not None:
            own = s == me and not ctl.cover and st.slots[s] is not None
            if own:
                bid = st.slots[s]
                _card(p, sx, my_, c.title(bid), ["placed face down"], s, tip=card_help(c, bid), w=cw)  # type: ignore[arg-type]
            else:
                _card(p, sx, my_, "", [], s, face_up=False, tip="battle card face down", w=cw)
        else:
            p.frame(sx, my_, sx + cw, my_ + CARD_H, 1, T.FAINT)
            _text(p, "battle card", sx + cw / 2, my_ + CARD_H / 2, 10.5, T.FAINT, ax="center")
        tx = sx + cw + 8
        tr = shown_tactic.get(s) if showing else None
        if tr is not None:
            if tr.tactic:
                _card(
                    p,
                    tx,
                    my_,
                    c.title(tr.tactic),
                    ["cancelled" if tr.cancelled else "revealed"],
                    s,
                    tip=card_help(c, tr.tactic),
                    w=cw,
                )
            else:
                p.frame(tx, my_, tx + cw, my_ + CARD_H, 1, T.FAINT)
                _text(p, "no tactic", tx + cw / 2, my_ + CARD_H / 2, 10.5, T.FAINT, ax="center")
        elif st.tactic_slots[s] is not None and not showing:
            if s == me and not ctl.cover:
                _card(p, tx, my_, c.title(st.tactic_slots[s]), ["placed face down"], s, w=cw)  # type: ignore[arg-type]
            else:
                _card(p, tx, my_, "", [], s, face_up=False, tip="tactic card face down", w=cw)
        else:
            p.frame(tx, my_, tx + cw, my_ + CARD_H, 1, T.FAINT)
            _text(p, "tactic card", tx + cw / 2, my_ + CARD_H / 2, 10.5, T.FAINT, ax="center")
        sx = tx + cw + 28
    if st.campaign_declared:
        cs, cid = st.campaign_declared
        _text(
            p,
            f"campaign card: {SIDE_NAME[cs]} {c.title(cid)}",
            sx,
            my_ + CARD_H - 10,
            11.5,
            T.ROLL,
            style="bold",
            max_width=tw - sx,
        )
    if shown_score is not None:
        _text(
            p,
            f"score {shown_score.german} - {shown_score.soviet}",
            sx,
            my_ + CARD_H / 2 + 6,
            16,
            T.TEXT,
            style="bold",
        )
        for k, (nm, stp) in enumerate(
            (("German", shown_score.german_steps), ("Soviet", shown_score.soviet_steps))
        ):
            steps_text = " ".join(f"{v:+d} {lbl}" if i else f"{v} {lbl}" for i, (lbl, v) in enumerate(stp))
            _text(
                p, f"{nm}: {steps_text}", sx, my_ + CARD_H / 2 - 14 - 14 * k, 10.5, T.DIM, max_width=tw - sx
            )
    if result is not None:
        txt = (
            f"{SIDE_NAME[result.side]} wins the battle ({result.reason})"
            if isinstance(result, BattleWon)
            else "Stalemate: nobody wins the battle"
        )
        # never shrunk (at 1000x700 it was squeezed to 1.3 pt): where it does not fit beside the
        # slots it goes under the battle piles, across the table
        col = result_colour(me, ctl.humans, result)
        if p.measure(txt, 13, "bold") <= tw - sx:
            _text(p, txt, sx, my_ - 12, 13, col, style="bold")
        else:
            _text(p, txt, 12, my_ - 60, 13, col, style="bold", max_width=tw - 12)
    # battle piles
    py_ = my_ - 36
    for k, s in enumerate(SIDES):
        piles = st.piles[s]
        _text(
            p,
            f"{SIDE_NAME[s]} battle piles: {len(piles)}"
            + (
                "  " + "  ".join(f"[{c.battle[a].value}|{c.battle[b].value}]" for a, b in piles)
                if piles
                else ""
            ),
            12 + k * tw / 2,
            py_,
            11,
            T.TEXT,
            max_width=tw / 2 - 16,
        )
    return hy


def _paint_own_hand(p: Painter, ctl: CampaignController, w: float, rx: float, cw: float, hy: float) -> None:
    """The own hand with the two odds figures and their opponent models (issue 30), or the cover between seats."""
    st = ctl.state
    c = st.cards
    me = ctl.hand_side
    tw = rx - 16  # the table's width, beside the right column
    # own hand with odds: two figures, the opponent model of each named (issue 30)
    bod, tod, info = ctl.odds() if not ctl.cover else ({}, {}, {})
    legend = ""
    if info:
        legend = (
            "P(win this battle) "
            + " / ".join(info["models"])
            + ("" if info["exact"] else " (approximate)")
            + (
                ""
                if info["decided"] == "by the cards"
                else f"; card strength only: decided {info['decided']}"
            )
        )
    _text(
        p,
        f"{SIDE_NAME[me]} hand" + (f" - {legend}" if legend and not ctl.cover else ""),
        12,
        hy + CARD_H + 2 * 0 + 12 + 66,
        11.5,
        T.DIM,
        style="bold",
        max_width=tw - 12,
    )
    if ctl.cover:
        p.rect(12, hy - 30, tw, hy + CARD_H + 70, T.SECTION)
        _text(
            p,
            f"Pass the screen to the {SIDE_NAME[me]} player",
            tw / 2,
            hy + 60,
            18,
            T.TEXT,
            ax="center",
            style="bold",
        )
        p.button(
            tw / 2 - 90,
            hy + 10,
            180,
            32,
            "Show my cards",
            ctl.lift_cover,
            primary=True,
            key="Space",
            align="center",
        )
    else:
        for i, b in enumerate(st.hands[me]):
            bx = 12 + i * (cw + 8)
            lines = [f"{c.battle[b].arm} {c.battle[b].value}"]
            if b in bod:
                lines.append(f"P(win) {_pct(bod[b][0])} / {_pct(bod[b][1])}")
            _card(
                p,
                bx,
                hy + 66,
                c.title(b),
                lines,
                me,
                active=b == ctl.picked_battle,
                action=lambda i=i: ctl.pick_battle(i),
                tip=card_help(c, b) + f"  [key {i + 1}]",
                w=cw,
            )
            _text(p, str(i + 1), bx + cw - 8, hy + 72, 10, T.FAINT, ax="right")
        tac = list(c.tactics) if st.phase == "choose_tactics" and me == ctl.acting else st.tactics_hand[me]
        for i, t in enumerate(tac):
            bx = 12 + i * (cw + 8)
            chosen = t in ctl.picked_tactics if st.phase == "choose_tactics" else t == ctl.picked_tactic
            lines = [e for e in card_help(c, t).split(": ", 1)[1:]]
            if t in tod:
                lines = [f"P(win) {_pct(tod[t][0])} / {_pct(tod[t][1])}"] + lines
            _card(
                p,
                bx,
                hy - 14,
                c.title(t),
                lines,
                None,
                active=chosen,
                h=CARD_H,
                action=lambda i=i: ctl.pick_tactic(i),
                tip=card_help(c, t) + f"  [key {TACTIC_KEYS[i]}]",
                w=cw,
                max_lines=3,  # the key letter sits in the fourth line's corner
            )
            _text(p, TACTIC_KEYS[i], bx + cw - 8, hy - 8, 10, T.FAINT, ax="right")
        if st.tactics_discard[me]:
            _text(
                p,
                "used this year: " + ", ".join(c.title(t) for t in st.tactics_discard[me]),
                12 + 5 * (cw + 8),
                hy + 20,
                10.5,
                T.DIM,
                max_width=tw - 5 * (cw + 8) - 12,
            )
        if st.options.uses_campaign_cards:
            cc = st.campaign_unused[me]
            _text(
                p,
                "campaign cards: "
                + (
                    ", ".join(("> " if x == ctl.picked_campaign else "") + c.title(x) for x in cc)
                    or "all used"
                ),
                12 + 5 * (cw + 8),
                hy + 4,
                10.5,
                T.ROLL,
                max_width=tw - 5 * (cw + 8) - 12,
            )


def _paint_prompt_and_help(p: Painter, ctl: CampaignController, w: float, h: float) -> None:
    """The bottom bar (prompt and action buttons) and the help panel when shown."""
    st = ctl.state
    # -- bottom: prompt and actions ------------------------------------------------------------
    p.rect(0, 0, w, 46, T.PANEL)
    _text(
        p,
        ctl.message or ctl.prompt(),
        12,
        30,
        12.5,
        T.ERROR if ctl.message else T.TEXT,
        style="bold",
        max_width=w - 24,
    )
    bx = 12.0
    acts: list[tuple[str, Any, str]] = []
    if ctl.acting and not ctl.cover:
        if st.phase in ("choose_tactics", "place"):
            acts.append(
                ("Place face down" if st.phase == "place" else "Confirm tactic cards", ctl.confirm, "Enter")
            )
        if st.phase == "place":
            acts.append(("No tactic card", lambda: ctl.pick_tactic(None), "N"))
        if st.phase == "campaign":
            acts += [
                ("Pick campaign card", ctl.cycle_campaign, "C"),
                ("Declare", ctl.declare, "D"),
                ("Pass", ctl.pass_campaign, "P"),
            ]
        if st.phase == "swap":
            acts += [
                ("Pick event", ctl.cycle_event, "V"),
                ("Swap event", ctl.swap, "S"),
                ("Keep events", ctl.keep, "K"),
            ]
    acts.append(("Help", lambda: setattr(ctl, "show_help", not ctl.show_help), "H"))
    for label, fn, key in acts:  # the key hint drawn here at MIN_TEXT (the painter's is 10.5 pt)
        kw = p.measure(key, MIN_TEXT, "bold") + 10
        bw = p.measure(label, 11.5, "bold" if key == "Enter" else "regular") + 18 + kw + 4
        p.button(bx, 5, bw, 20, label, fn, primary=key == "Enter", size=11.5)
        p.text(key, bx + bw - 7, 15, MIN_TEXT, T.DARK if key == "Enter" else T.DIM, ax="right", style="bold")
        bx += bw + 8
    if ctl.show_help:
        hw, hh = min(760.0, w - 80), min(560.0, h - 80)
        x0, y0 = (w - hw) / 2, (h - hh) / 2
        p.rect(x0, y0, x0 + hw, y0 + hh, T.PANEL, z=2)
        p.frame(x0, y0, x0 + hw, y0 + hh, 2, T.ACTIVE, z=2)
        _text(p, "Campaign shortcuts and cards", x0 + 14, y0 + hh - 20, 15, T.TEXT, style="bold", z=2)
        yy = y0 + hh - 46
        for keyname, what in SHORTCUTS:
            _text(p, keyname, x0 + 16, yy, 11.5, T.ACTIVE, style="bold", z=2)
            _text(p, what, x0 + 110, yy, 11.5, T.TEXT, z=2, max_width=hw - 130)
            yy -= 17
        yy -= 8
        for ln in ctl.help_lines()[len(SHORTCUTS) + 1 :]:
            _text(p, ln, x0 + 16, yy, 10.5, T.DIM, z=2, max_width=hw - 32)
            yy -= 15
            if yy < y0 + 10:
                break


def paint_campaign(p: Painter, ctl: CampaignController, w: float, h: float) -> None:
    """Draw the whole campaign screen into ``p`` for a window of ``w`` x ``h`` points."""
    p.rect(0, 0, w, h, T.BG)
    top = _paint_top_bar(p, ctl, w, h)
    rx = _paint_history_and_log(p, ctl, w, top)
    cw, oy = _paint_opponent_row(p, ctl, top, rx)
    hy = _paint_battle(p, ctl, w, top, rx, cw, oy)
    _paint_own_hand(p, ctl, w, rx, cw, hy)
    _paint_prompt_and_help(p, ctl, w, h)


def _backdrop_map(ctl: CampaignController) -> Any:
    """The map behind the screen: the year's first hex scenario's map, else the steppe village."""
    from ..game.scenario import find_scenario, load_scenario
    from ..model.maps import BattleMap
    from ..paths import find_content

    names = ctl.state.cards.hex_battles.scenarios.get(ctl.state.year, ())
    for n in names:
        try:
            return load_scenario(find_scenario(n)).battlemap
        except Exception:  # noqa: BLE001 - any shipped scenario problem: fall back to the village
            continue
    path = find_content("maps", "steppe_village")
    return BattleMap.load(path) if path is not None else BattleMap(8, 8)


class _CampaignWindowInput:
    """The campaign window's keys, quit and resume offer, saving and offscreen drawing (a mixin
    of the pyglet window class :func:`_make_window_class` makes; pyglet is imported only when a
    method runs)."""

    controller: CampaignController
    behaviour: Any
    mapview: Any
    offer: Any
    quit_requested: bool
    painter: Painter | None
    # the window's own methods and pyglet's (declared for the type checker; no values here)
    refresh: Any
    tick: Any
    close: Any
    switch_to: Any
    get_pixel_ratio: Any

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        """Ctrl+Q, Esc and H / F1 through the shared :class:`WindowBehaviour` (Esc cancels,
        never quits); other keys by name to the controller's shortcut table."""
        from pyglet.window import key

        if self.offer is not None and not self.behaviour.asking:  # the start offer is modal
            if symbol in (key.ENTER, key.NUM_ENTER):
                self.accept_offer()
            elif symbol == key.ESCAPE:
                self.decline_offer()
            elif self.behaviour.key(symbol, modifiers) is None:
                return True
            if not self.behaviour.closed:
                self.refresh()
            return True
        shared = self.behaviour.key(symbol, modifiers)
        if shared is not None:
            if shared == "cancel":
                self.controller.cancel()
            elif shared == "help":
                self.controller.show_help = not self.controller.show_help
            if not self.behaviour.closed:
                self.refresh()
            return True
        name = key.symbol_string(symbol).lstrip("_")
        if name.startswith("NUM_") and name[4:].isdigit():
            name = name[4:]
        used = self.controller.key(name)
        self.refresh()
        return used

    def on_close(self) -> bool:
        """The close button quits like Ctrl+Q (asking while the war goes on)."""
        self.behaviour.request_quit()
        if not self.behaviour.closed:
            self.refresh()
        return True

    def accept_offer(self) -> None:
        """Continue the offered war: replayed from its autosave, the same computer sides,
        autosaving to the same file."""
        from ..campaign.ai import make_player
        from ..campaign.save import load_campaign
        from ..errors import HexwarError

        offer, self.offer = self.offer, None
        if offer is None:
            return
        old = self.controller
        try:
            st = load_campaign(offer.path)
        except HexwarError as exc:
            old.message = f"cannot continue {offer.path}: {exc}"
            return
        ai = {s: make_player(n, s, st.seed) for s, n in offer.players.items() if n != "human"}
        self.controller = CampaignController(
            st, ai=ai, clock=old.clock, fighter=old.fighter, save=str(offer.path),
            reveal_seconds=old.reveal_seconds,
        )  # fmt: skip
        self.controller.log.append(f"Continuing {offer.text}.")

    def decline_offer(self) -> None:
        """Start the new war instead of the offered one."""
        self.offer = None

    def _save_now(self) -> str | None:
        """The war's last save before closing; an error message or None."""
        ctl = self.controller
        if not ctl.save:
            return None
        from ..campaign.save import write_campaign_save
        from ..errors import HexwarError

        try:
            write_campaign_save(ctl.state, ctl.save, ctl.save_players())
        except HexwarError as exc:
            return f"save failed: {exc}"
        return None

    def _close_for_good(self) -> None:
        import pyglet

        self.quit_requested = True
        pyglet.clock.unschedule(self.tick)
        self.close()
        if pyglet.app.event_loop.is_running:
            pyglet.app.exit()

    def render_image(self, size: tuple[float, float] | None = None, pixel_ratio: float | None = None) -> Any:
        """The whole screen rendered offscreen as ``uint8 [H, W, 4]`` (``size`` in points,
        ``pixel_ratio`` framebuffer pixels per point; default the window's)."""
        from ..render.offscreen import render_view

        self.switch_to()
        ratio = pixel_ratio or self.get_pixel_ratio()
        if size is not None:
            self.mapview.resize(size[0], size[1], ratio)
        self.refresh()
        return render_view(self.mapview, size=size, pixel_ratio=ratio)


def _make_window_class() -> Any:
    import pyglet

    from ..render import MapView
    from .widgets import UiLayer, top_hit

    class _CampaignWindow(_CampaignWindowInput, pyglet.window.Window):  # type: ignore[misc]
        """The campaign window (see the module text)."""

        def __init__(
            self,
            ctl: CampaignController,
            width: int = 1500,
            height: int = 900,
            visible: bool = True,
            schedule: bool = True,
            offer: Any = None,
            **kw: Any,
        ) -> None:
            super().__init__(
                width,
                height,
                caption="hexwar: the Eastern Front 1941-1945",
                resizable=True,
                visible=visible,
                **kw,
            )
            self._enable_event_queue = False
            self.controller = ctl
            self.mapview = MapView(_backdrop_map(ctl), self, show_labels=False)
            self.ui = UiLayer(self, self.mapview.batch, self.mapview.atlas)
            self.painter: Painter | None = None
            self._mouse = (-1.0, -1.0)
            self.quit_requested = False
            #: the last unfinished war offered at start (a ResumeOffer), or None
            self.offer = offer
            from .window_base import WindowBehaviour

            #: quit (asking while the war goes on, naming its autosave), Esc, help, title (issue 36)
            self.behaviour = WindowBehaviour(
                "campaign",
                "hexwar: the Eastern Front 1941-1945",
                at_stake=lambda: not self.controller.state.over,
                autosave=lambda: Path(self.controller.save) if self.controller.save else None,
                close=self._close_for_good,
                save_now=self._save_now,
            )
            self.mapview.fit()
            self.refresh()
            if schedule:
                pyglet.clock.schedule_interval(self.tick, 1 / 30)

        def refresh(self) -> None:
            """Repaint the screen from the controller."""
            w, h = self.get_size()
            p = Painter(self.mapview.atlas, self._mouse)
            paint_campaign(p, self.controller, w, h)
            if self.offer is not None:
                from .window_base import paint_question

                paint_question(
                    p, w, h, "Continue your last war?",
                    [self.offer.text, "It was autosaved; continuing replays it to where you left off."],
                    ("Continue", self.accept_offer, "Enter", "continue"),
                    ("New war", self.decline_offer, "Esc", "new_game"),
                )  # fmt: skip
            if self.behaviour.asking:
                from .window_base import paint_quit_question

                paint_quit_question(p, w, h, self.behaviour)
            self.painter = p
            self.ui.show(p)

        def tick(self, dt: float = 0.0) -> None:
            """One tick: the controller's reveal step or computer move, then a repaint."""
            if self.controller.update():
                self.refresh()

        def on_draw(self) -> None:
            """Clear and draw the backdrop map with the screen above it."""
            self.clear()
            self.mapview.draw()

        def on_resize(self, width: int, height: int) -> None:
            """Relayout (HiDPI aware)."""
            super().on_resize(width, height)
            if hasattr(self, "mapview"):
                self.mapview.resize(width, height, self.get_pixel_ratio())
                self.refresh()

        def on_mouse_motion(self, x: float, y: float, dx: float, dy: float) -> None:
            """Hover highlighting."""
            self._mouse = (x, y)
            self.refresh()

        def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> None:
            """A click on a card or button runs its action."""
            if self.painter is None:
                return
            hit = top_hit(self.painter.widgets, x, y)
            if hit is not None and hit.action is not None:
                hit.action()
                if not self.behaviour.closed:
                    self.refresh()

    return _CampaignWindow


def CampaignWindow(ctl: CampaignController, **kw: Any) -> Any:  # noqa: N802 - a class made on first use
    """The campaign window over ``ctl`` (pyglet is imported only here)."""
    from ..render import backend

    backend.ensure_configured()
    return _make_window_class()(ctl, **kw)


def campaign_image(
    ctl: CampaignController, size: tuple[int, int] = (1500, 900), pixel_ratio: float = 1.0
) -> Any:
    """``ctl``'s screen drawn headless as ``uint8 [H, W, 4]`` RGBA (``hexwar render --screen campaign``)."""
    win = CampaignWindow(ctl, width=size[0], height=size[1], visible=False, schedule=False)
    try:
        return win.render_image(size=(float(size[0]), float(size[1])), pixel_ratio=pixel_ratio)
    finally:
        win.close()


def run(ctl: CampaignController, offer: Any = None) -> None:
    """Open the campaign window and run until it is closed (``hexwar campaign``); ``offer``: the
    last unfinished war (:func:`hexwar.ui.autosave.latest_campaign_autosave`) asked about first."""
    import pyglet

    from ..render import backend

    backend.require_display()
    win = CampaignWindow(ctl, offer=offer)
    win.set_visible(True)
    pyglet.app.run()


def controller_for_render(target: str) -> CampaignController:
    """The war to draw: ``"campaign"`` (a new war, seed 1941, played by the computer into the
    German placement of battle 3 of 1942, a battle card picked), or a campaign save replayed
    (the German side shown, the Soviet the computer's).

    Raises:
        HexwarError: when ``target`` is neither.
    """
    from pathlib import Path

    from ..campaign.ai import make_player
    from ..campaign.save import load_campaign
    from ..campaign.state import new_campaign
    from ..errors import HexwarError

    if target == "campaign":
        st, _ = new_campaign(1941)
    elif Path(target).is_file():
        st = load_campaign(target)
    else:
        raise HexwarError(f"{target}: --screen campaign needs 'campaign' or a campaign save")
    both = {s: make_player("standard", s, st.seed) for s in SIDES}
    ctl = CampaignController(st, ai=both, reveal_seconds=0.0)
    if target == "campaign":
        for _ in range(2000):
            if st.year == 1942 and st.battle == 3 and st.phase == "place" and "german" in st.pending():
                break
            ctl.update()
    ctl.ai = {"soviet": both["soviet"]}
    ctl.skip_reveal()
    if st.phase == "place" and ctl.acting == "german":
        ctl.pick_battle(0)
    return ctl


def render_campaign(target: str, out: str, size: tuple[int, int], pixel_ratio: float) -> tuple[int, int]:
    """Draw the campaign screen of ``target`` (see :func:`controller_for_render`) to the PNG ``out``."""
    from ..render.offscreen import save_png

    img = campaign_image(controller_for_render(target), size, pixel_ratio)
    save_png(img, out)
    return int(img.shape[1]), int(img.shape[0])
