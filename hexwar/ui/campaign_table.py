"""The campaign screen's table panels (issue 34): the opponent's row, the battle being placed
or revealed (with the year-end summary at a year's end), and the shown side's hand. Each
draws inside the rectangle its :class:`~hexwar.ui.campaign_panels.CampaignLayout` gave it."""

from __future__ import annotations

from typing import Any

from ..campaign.cards import SIDES, card_help
from ..campaign.events import BattleCardsRevealed, BattleScored, BattleStalemate, BattleWon, TacticRevealed
from .campaign_controller import TACTIC_KEYS
from .campaign_draw import (
    CARD_H,
    MIN_TEXT,
    SIDE_NAME,
    TACTIC_H,
    CampaignPanel,
    card,
    empty_slot,
    result_colour,
    text,
)
from .campaign_draw import wrap_words as _wrap
from .widgets import Painter
from .widgets import theme as T

__all__ = ["OpponentRow", "BattleArea", "HandPanel"]


def _odds(pair: Any, w: float) -> str:
    """A card's two P(win) figures; on a narrow card without the label (the hand's label names
    them; issue 36: "P(win) 100% / ..." wrapped and cut at 800x600)."""
    a, b = (float(v) * 100 for v in pair)
    return f"P(win) {a:.0f}% / {b:.0f}%" if w >= 120 else f"{a:.0f}/{b:.0f}%"


def _names(c: Any, ids: Any) -> str:
    """Card titles joined, or ``none`` (issue 36: "tactic cards: ;" when there were none)."""
    if not isinstance(ids, list):
        return str(ids)
    return ", ".join(c.title(t) for t in ids) or "none"


class OpponentRow(CampaignPanel):
    """The opponent's hand face down (R12.1), its tactic cards and used campaign cards, and
    the event cards when the top bar had no room for them (issue 36: gone at 800x600)."""

    name = "opponent"

    def paint_self(self, p: Painter, z: int) -> None:
        """Draw the row."""
        ctl = self.ctl
        st, c = ctl.state, ctl.state.cards
        me = ctl.hand_side
        opp = "soviet" if me == "german" else "german"
        cw, tw = self.root.cw, self.root.tw
        oy = self.rect.y
        text(p, f"{SIDE_NAME[opp]} hand ({len(st.hands[opp])} battle cards)", 12, oy + CARD_H + 6, 11.5, T.DIM,
             style="bold")  # fmt: skip
        for i, _b in enumerate(st.hands[opp]):
            card(p, 12 + i * (cw * 0.55), oy, "", [], opp, face_up=False, w=cw * 0.5, h=CARD_H * 0.8,
                 tip=f"{SIDE_NAME[opp]} battle card in hand")  # fmt: skip
        tx = 12 + 7 * cw * 0.55 + 10
        room = tw - 7 * cw * 0.55 - 20
        ot = st.view(me)["tactics_hand"][opp]  # with a face-down tactic card among them (R12.1)
        text(p, f"tactic cards: {_names(c, ot)}; used: {_names(c, st.tactics_discard[opp])}", tx, oy + 30, 10.5,
             T.TEXT, max_width=room)  # fmt: skip
        if st.options.uses_campaign_cards:
            text(p, f"campaign cards left: {len(st.campaign_unused[opp])}; used: {_names(c, st.campaign_used[opp])}",
                 tx, oy + 12, 10.5, T.DIM, max_width=room)  # fmt: skip
        if not self.root.events_on_top:
            line = f"events: {_names(c, list(st.events_in_play))}; pile: {len(st.event_pile)}"
            text(p, line, tx, oy + 48, 10.5, T.ROLL, style="bold", max_width=room)
            p.widget(tx, oy + 41, room, 14, None, "; ".join(card_help(c, e) for e in st.events_in_play))


class BattleArea(CampaignPanel):
    """The battle: both sides' slots, turned over step by step in the reveal; the score and
    the result (labelled with its battle number once the next battle is being placed: issue 36,
    a stale result sat beside the next battle's cards); both battle piles or the hint (``A``);
    at a year's end the year-end summary in place of the slots (issue 36: it was not drawn)."""

    name = "battle"

    def _summary_now(self) -> list[str]:
        ctl = self.ctl
        st = ctl.state
        if not ctl.year_summary or ctl.revealing:
            return []
        if st.over or st.phase == "choose_tactics" or (st.battle <= 1 and st.slots[ctl.hand_side] is None):
            return list(ctl.year_summary)
        return []

    def paint_self(self, p: Painter, z: int) -> None:
        """Draw the area."""
        r = self.rect
        my_ = max(r.y + 66, r.y + r.h / 2 - CARD_H / 2)
        summary = self._summary_now()
        if summary:
            self._paint_summary(p, summary)
            return
        self._paint_slots(p, my_)
        self._paint_piles_or_hint(p, my_)

    def _paint_summary(self, p: Painter, summary: list[str]) -> None:
        r = self.rect
        tw = self.root.tw
        sy1 = r.y1 - 4
        most = max(1, int((r.h - 56) // 15))  # lines a column holds
        n = len(summary) - 1
        cols = 1 if n <= most and r.w < 900 else 2  # one column when it holds them all on a small table
        col_h = min(most, -(-n // cols))
        sy0 = max(r.y + 4, sy1 - 52 - 15 * (col_h - 1))
        p.rect(8, sy0, tw, sy1, T.PANEL)
        p.frame(8, sy0, tw, sy1, 1, T.ACTIVE)
        text(p, summary[0], 18, sy1 - 16, 13, T.TEXT, style="bold", max_width=tw - 36)
        colw = (tw - 40) / cols
        for k, ln in enumerate(summary[1 : 1 + cols * col_h]):
            text(
                p,
                ln,
                18 + (k // col_h) * (colw + 10),
                sy1 - 38 - 15 * (k % col_h),
                MIN_TEXT,
                T.TEXT,
                max_width=colw,
            )

    def _paint_slots(self, p: Painter, my_: float) -> None:
        ctl = self.ctl
        st, c = ctl.state, ctl.state.cards
        me, cw, tw = ctl.hand_side, self.root.cw, self.root.tw
        steps = ctl.reveal[: ctl.reveal_shown] if ctl.reveal_shown else []
        showing = bool(steps) and (
            ctl.revealing or st.phase in ("swap", "battle") or not any(st.slots.values())
        )
        last = steps[-1].event if steps else None
        if showing and not ctl.revealing and getattr(last, "year", st.year) != st.year:
            showing = False  # a battle of a year that is over is not shown into the next year
        n = c.rules.battles_per_year
        fought = next(
            (e.event for e in ctl.reveal if isinstance(e.event, (BattleWon, BattleStalemate))), None
        )
        if showing and fought is not None:  # issue 36: the reveal of battle 1 was titled "battle 2"
            title = f"{fought.year}, battle {fought.number} of {n}"
            if ctl.revealing:
                title += ": the cards are turned over"
            elif st.phase not in ("swap", "battle"):
                title += ", just fought"
        elif st.battle < 1:
            title = f"{st.year}: the year's tactic cards, then battle 1 of {n}"
        else:
            title = f"{st.year}, battle {st.battle} of {n}"
        text(p, title, 12, my_ + CARD_H + 20, 14, T.TEXT, style="bold", max_width=tw - 24)
        shown_tactic = {e.event.side: e.event for e in steps if isinstance(e.event, TacticRevealed)}
        shown_cards = next((e.event for e in steps if isinstance(e.event, BattleCardsRevealed)), None)
        sx = 12.0
        for s in SIDES:
            text(p, SIDE_NAME[s], sx, my_ - 12, 11.5, T.SIDE_UI[s], style="bold")
            if showing and shown_cards is not None:
                bid = getattr(shown_cards, s)
                card(
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
                if s == me and not ctl.cover and st.slots[s] is not None:
                    bid = st.slots[s]
                    card(p, sx, my_, c.title(bid), ["placed face down"], s, tip=card_help(c, bid), w=cw)
                else:
                    card(p, sx, my_, "", [], s, face_up=False, tip="battle card face down", w=cw)
            else:
                empty_slot(p, sx, my_, cw, CARD_H, "battle card")
            tx = sx + cw + 8
            tr = shown_tactic.get(s) if showing else None
            if tr is not None and tr.tactic:
                card(p, tx, my_, c.title(tr.tactic), ["cancelled" if tr.cancelled else "revealed"], s,
                     tip=card_help(c, tr.tactic), w=cw)  # fmt: skip
            elif tr is not None:
                empty_slot(p, tx, my_, cw, CARD_H, "no tactic")
            elif st.tactic_slots[s] is not None and not showing:
                if s == me and not ctl.cover:
                    card(p, tx, my_, c.title(st.tactic_slots[s]), ["placed face down"], s, w=cw)
                else:
                    card(p, tx, my_, "", [], s, face_up=False, tip="tactic card face down", w=cw)
            else:
                empty_slot(p, tx, my_, cw, CARD_H, "tactic card")
            sx = tx + cw + 28
        if st.campaign_declared:
            cs, cid = st.campaign_declared
            text(p, f"campaign card: {SIDE_NAME[cs]} {c.title(cid)}", sx, my_ + CARD_H - 10, 11.5, T.ROLL,
                 style="bold", max_width=tw - sx)  # fmt: skip
        self._paint_outcome(p, steps, showing, sx, my_)

    def _paint_outcome(self, p: Painter, steps: list[Any], showing: bool, sx: float, my_: float) -> None:
        """The score and the result; when the slots already show the next battle, both are
        labelled with the battle they belong to."""
        ctl = self.ctl
        me, tw = ctl.hand_side, self.root.tw
        score = next((e.event for e in steps if isinstance(e.event, BattleScored)), None)
        result = next((e.event for e in steps if isinstance(e.event, (BattleWon, BattleStalemate))), None)
        if result is not None and not showing and getattr(result, "year", None) != ctl.state.year:
            return  # last year's battle: the summary told it
        if score is not None:
            head = f"score {score.german} - {score.soviet}"
            if not showing and result is not None:
                head = f"battle {result.number}: {score.german} - {score.soviet}"
            text(p, head, sx, my_ + CARD_H / 2 + 6, 16 if showing else 13, T.TEXT if showing else T.DIM, style="bold",
                 max_width=tw - sx)  # fmt: skip
            for k, (nm, stp) in enumerate((("German", score.german_steps), ("Soviet", score.soviet_steps))):
                steps_text = " ".join(
                    f"{v:+d} {lbl}" if i else f"{v} {lbl}" for i, (lbl, v) in enumerate(stp)
                )
                text(
                    p,
                    f"{nm}: {steps_text}",
                    sx,
                    my_ + CARD_H / 2 - 14 - 14 * k,
                    10.5,
                    T.DIM,
                    max_width=tw - sx,
                )
        if result is None:
            return
        if isinstance(result, BattleWon):
            txt = f"{SIDE_NAME[result.side]} wins the battle ({result.reason})"
            if not showing:
                txt = f"{SIDE_NAME[result.side]} won battle {result.number} ({result.reason})"
        else:
            txt = "Stalemate: nobody wins the battle" if showing else f"Battle {result.number}: stalemate"
        # never shrunk (at 1000x700 it was squeezed to 1.3 pt): where it does not fit beside the
        # slots it goes under the battle piles, across the table
        col = result_colour(me, ctl.humans, result)
        size = 13.0 if showing else 12.0  # a battle already fought: a size smaller
        if p.measure(txt, size, "bold") <= tw - sx:
            text(p, txt, sx, my_ - 12, size, col, style="bold")
        else:
            text(p, txt, 12, my_ - 60, size, col, style="bold", max_width=tw - 12)

    def _paint_piles_or_hint(self, p: Painter, my_: float) -> None:
        ctl = self.ctl
        st, c = ctl.state, ctl.state.cards
        tw = self.root.tw
        py_ = my_ - 36
        if ctl.show_hint and ctl.hint:  # A: where the piles are, until A again
            for k, ln in enumerate(_wrap(p, "Hint: " + ctl.hint, MIN_TEXT, tw - 24, "bold")[:2]):
                text(p, ln, 12, py_ - 14 * k, MIN_TEXT, T.ROLL, style="bold", max_width=tw - 24)
            return
        for k, s in enumerate(SIDES):
            piles = st.piles[s]
            pl = "  ".join(f"[{c.battle[a].value}|{c.battle[b].value}]" for a, b in piles)
            text(p, f"{SIDE_NAME[s]} battle piles: {len(piles)}" + (f"  {pl}" if piles else ""), 12 + k * tw / 2, py_,
                 11, T.TEXT, max_width=tw / 2 - 16)  # fmt: skip


class HandPanel(CampaignPanel):
    """The shown side's battle cards with the two odds figures and their opponent models
    (issue 30), its tactic cards (the used ones greyed), or the hot-seat cover."""

    name = "hand"

    def paint_self(self, p: Painter, z: int) -> None:
        """Draw the hand."""
        ctl = self.ctl
        me, tw = ctl.hand_side, self.root.tw
        hy = 82 + TACTIC_H + 6  # the battle cards' lower edge
        bod, tod, info = ctl.odds() if not ctl.cover else ({}, {}, {})
        legend = ""
        if info:
            legend = (
                "P(win this battle) " + " / ".join(info["models"]) + ("" if info["exact"] else " (approximate)")
                + ("" if info["decided"] == "by the cards" else f"; card strength only: decided {info['decided']}")
            )  # fmt: skip
        if (
            ctl.state.options.uses_campaign_cards
            and tw - (12 + 5 * (self.root.tcw + 8)) < 120
            and not ctl.cover
        ):
            legend = self.campaign_line() + (f"; {legend}" if legend else "")
        text(p, f"{SIDE_NAME[me]} hand" + (f" - {legend}" if legend and not ctl.cover else ""), 12, hy + CARD_H + 12,
             11.5, T.DIM, style="bold", max_width=tw - 12)  # fmt: skip
        if ctl.cover:
            p.rect(12, 56, tw, hy + CARD_H + 4, T.SECTION)
            text(p, f"Pass the screen to the {SIDE_NAME[me]} player", tw / 2, hy + 20, 18, T.TEXT, ax="center",
                 style="bold")  # fmt: skip
            p.button(tw / 2 - 90, hy - 40, 180, 32, "Show my cards", ctl.lift_cover, primary=True, key="Space",
                     align="center")  # fmt: skip
            return
        self._battle_cards(p, hy, bod)
        self._tactic_cards(p, tod)

    def _battle_cards(self, p: Painter, hy: float, bod: dict[str, Any]) -> None:
        ctl = self.ctl
        st, c = ctl.state, ctl.state.cards
        me, cw = ctl.hand_side, self.root.cw
        for i, b in enumerate(st.hands[me]):
            lines = [f"{c.battle[b].arm} {c.battle[b].value}"]
            if b in bod:
                lines.append(_odds(bod[b], cw))
            card(p, 12 + i * (cw + 8), hy, c.title(b), lines, me, active=b == ctl.picked_battle,
                 action=lambda i=i: ctl.pick_battle(i), tip=card_help(c, b) + f"  [key {i + 1}]", w=cw)  # fmt: skip
            text(p, str(i + 1), 12 + i * (cw + 8) + cw - 6, hy + 8, 10, T.FAINT, ax="right")

    def _tactic_cards(self, p: Painter, tod: dict[str, Any]) -> None:
        ctl = self.ctl
        st, c = ctl.state, ctl.state.cards
        me, tcw, tw = ctl.hand_side, self.root.tcw, self.root.tw
        choosing = st.phase == "choose_tactics" and me == ctl.acting
        tac = list(c.tactics) if choosing else st.tactics_hand[me]
        i = -1
        for i, t in enumerate(tac):
            chosen = t in ctl.picked_tactics if st.phase == "choose_tactics" else t == ctl.picked_tactic
            lines = card_help(c, t).split(": ", 1)[1:]
            if t in tod:
                lines = [_odds(tod[t], tcw)] + lines
            card(p, 12 + i * (tcw + 8), 82, c.title(t), lines, None, active=chosen, h=TACTIC_H,
                 action=lambda i=i: ctl.pick_tactic(i), tip=card_help(c, t) + f"  [key {TACTIC_KEYS[i]}]", w=tcw,
                 key=TACTIC_KEYS[i])  # fmt: skip
        used = [] if choosing else [t for t in st.tactics_discard[me] if t not in tac]
        for j, t in enumerate(used[: max(0, 4 - i)]):  # the used ones greyed, in the row's free places
            card(p, 12 + (i + 1 + j) * (tcw + 8), 82, c.title(t), ["used this year"], None, h=TACTIC_H, dim=True,
                 tip=card_help(c, t) + " (used this year)", w=tcw)  # fmt: skip
        x0 = 12 + 5 * (tcw + 8)
        if st.options.uses_campaign_cards and tw - x0 >= 120:  # else the hand's label names them
            text(p, self.campaign_line(), x0, 82 + TACTIC_H / 2, 10.5, T.ROLL, max_width=tw - x0)

    def campaign_line(self) -> str:
        """The shown side's unused campaign cards, the picked one marked."""
        ctl = self.ctl
        st, c = ctl.state, ctl.state.cards
        cc = st.campaign_unused[ctl.hand_side]
        return "campaign cards: " + (
            ", ".join(("> " if x == ctl.picked_campaign else "") + c.title(x) for x in cc) or "all used"
        )
