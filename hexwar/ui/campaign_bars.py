"""The campaign screen's frame panels (issue 34): the top bar, the history and log column, the
bottom bar with the prompt and buttons, and the help overlay. Each draws inside the rectangle
its :class:`~hexwar.ui.campaign_panels.CampaignLayout` gave it (see that module)."""

from __future__ import annotations

from typing import Any

from ..campaign.cards import SIDES, card_help
from .campaign_controller import SHORTCUTS
from .campaign_draw import MIN_TEXT, SIDE_NAME, CampaignPanel, section, text
from .widgets import Painter
from .widgets import theme as T
from .widgets.text import ellipsize, wrap

__all__ = ["TopBar", "HistoryPanel", "LogPanel", "BottomBar", "HelpOverlay"]


class TopBar(CampaignPanel):
    """The year track, the initiative, both ranks with their tactic cards, the events."""

    name = "top bar"

    def paint_self(self, p: Painter, z: int) -> None:
        """Draw the bar; tell the root whether the events had room (else the opponent row has them)."""
        ctl = self.ctl
        st, c = ctl.state, ctl.state.cards
        r = self.rect
        top, w = r.y, r.w
        p.rect(0, top, w, top + r.h, T.PANEL)
        x = 10.0
        for yc in c.years:
            won = next((s for s in SIDES if yc.year in st.year_cards[s]), None)
            current = yc.year == st.year and not st.over
            col = T.SIDE_UI[won] if won else (T.ACTIVE if current else T.SECTION)
            p.rect(x, top + 10, x + 70, top + 54, col)
            ink = T.DARK if current and not won else T.TEXT
            text(p, str(yc.year), x + 35, top + 40, 14, ink, ax="center", style="bold")
            tag = (
                SIDE_NAME[won]
                if won
                else ("tied" if yc.year in st.years_unclaimed else ("now" if current else ""))
            )
            text(p, tag, x + 35, top + 20, 10, ink, ax="center")
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
        text(p, "Initiative", x + 59, top + 40, 11, T.TEXT, ax="center", style="bold")
        text(p, SIDE_NAME[st.initiative], x + 59, top + 22, 12, T.TEXT, ax="center")
        p.widget(x, top + 10, 118, 44, None, "The initiative holder wins drawn battles (002)")
        x = self._ranks(p, x + 130, top, w)
        self._events(p, x, top, w)

    def _ranks(self, p: Painter, x: float, top: float, w: float) -> float:
        st, c = self.ctl.state, self.ctl.state.cards
        if w - x >= 2 * 210 + 300:  # wide: each side's rank over its tactic cards, side by side
            for s in SIDES:
                r = c.ranks[st.ranks[s] - 1]
                p.text(f"{SIDE_NAME[s]}: {r.title}", x, top + 42, 12, T.TEXT, style="bold")
                n = r.tactic_cards
                p.text(f"{n} tactic card{'s' if n > 1 else ''} a year - {st.wins[s]} won in {st.year}",
                       x, top + 24, MIN_TEXT, T.DIM)  # fmt: skip
                x += 210
            return x
        rank_w = 0.0  # narrow (issue 36: cut at 1000x700): one line a side
        for k, s in enumerate(SIDES):
            r = c.ranks[st.ranks[s] - 1]
            line = f"{SIDE_NAME[s]}: {r.title}, {r.tactic_cards} tactic/yr, {st.wins[s]} won"
            rank_w = max(rank_w, p.measure(line, MIN_TEXT, "bold"))
            p.text(line, x, top + 42 - 18 * k, MIN_TEXT, T.TEXT, style="bold")
        return x + rank_w + 16

    def _events(self, p: Painter, ex: float, top: float, w: float) -> None:
        ctl = self.ctl
        st, c = ctl.state, ctl.state.cards
        room = w - 10 - ex  # the events get what is left of the bar, shortened, never cut
        self.root.events_on_top = room >= 60 + 24
        if not self.root.events_on_top:
            return
        p.text("Events:", ex, top + 42, 11.5, T.DIM, style="bold")
        ew = max(0.0, (room - 60) / max(1, len(st.events_in_play)) - 5)
        for i, ev in enumerate(st.events_in_play):
            if ew >= 24:
                ix = ex + 60 + (ew + 5) * i
                p.text(
                    ellipsize(p.atlas, c.title(ev), ew, 11.5, "bold"),
                    ix,
                    top + 42,
                    11.5,
                    T.ROLL,
                    style="bold",
                )
                p.widget(ix, top + 32, ew, 20, None, card_help(c, ev))
        pile = f"pile: {len(st.event_pile)} cards" + (
            f" - picked for the swap: {c.title(ctl.picked_event)}" if ctl.picked_event else ""
        )
        p.text(ellipsize(p.atlas, pile, room, MIN_TEXT), ex, top + 22, MIN_TEXT, T.DIM)


class HistoryPanel(CampaignPanel):
    """The war's battles, newest at the bottom, the winner first (issue 36: a long line cut
    the winner off)."""

    name = "history"

    def paint_self(self, p: Painter, z: int) -> None:
        """Draw the section and as many of the last battles as it holds."""
        st, c = self.ctl.state, self.ctl.state.cards
        r = self.rect
        section(p, r.x, r.y, r.w, r.h, "History of battles")
        yy = r.y1 - 32
        for hrec in st.history[-max(0, int((r.h - 30) // 15)) :] if r.h > 45 else []:
            who = SIDE_NAME.get(hrec.winner or "", "nobody")
            line = (
                f"{hrec.year}/{hrec.number} {who}: {hrec.german_score}-{hrec.soviet_score} "
                f"{c.title(hrec.german)} v {c.title(hrec.soviet)}"
            )
            col = T.SIDE_UI.get(hrec.winner or "", T.TEXT)
            head = f"{hrec.year}/{hrec.number} {who}:"
            hw = p.measure(head, MIN_TEXT, "bold")
            p.text(head, r.x + 8, yy, MIN_TEXT, col if hrec.winner else T.DIM, style="bold")
            rest = line[len(head) :].strip()
            p.text(ellipsize(p.atlas, rest, r.w - 22 - hw, MIN_TEXT), r.x + 14 + hw, yy, MIN_TEXT, T.TEXT)
            p.widget(r.x, yy - 7, r.w, 14, None, line)
            yy -= 15


class LogPanel(CampaignPanel):
    """The newest log lines, wrapped at :data:`MIN_TEXT` (issue 36: once squeezed to 6 pt)."""

    name = "log"

    def paint_self(self, p: Painter, z: int) -> None:
        """Draw the section and the newest lines that fit."""
        ctl = self.ctl
        r = self.rect
        section(p, r.x, r.y, r.w, r.h, "Log")
        room_lines = int((r.h - 30) // 14)
        wrapped: list[tuple[str, bool]] = []
        for ln in reversed(ctl.log):
            if len(wrapped) >= room_lines:
                break
            dim = ln.startswith("draw")
            wrapped[:0] = [(part, dim) for part in wrap(p.atlas, ln.strip(), r.w - 16, MIN_TEXT)]
        yy = r.y1 - 32
        for ln, dim in wrapped[-room_lines:] if room_lines > 0 else []:
            p.text(ln, r.x + 8, yy, MIN_TEXT, T.DIM if dim else T.TEXT)
            yy -= 14


class BottomBar(CampaignPanel):
    """The prompt (or the last refusal, in red) and a button for every action of the phase,
    each with its key (issue 36: every action reachable by mouse and by keyboard)."""

    name = "bottom bar"

    def actions(self) -> list[tuple[str, Any, str]]:
        """``(label, action, key)`` of every button shown now."""
        ctl = self.ctl
        st = ctl.state
        acts: list[tuple[str, Any, str]] = []
        if ctl.acting and not ctl.cover:
            if st.phase in ("choose_tactics", "place"):
                acts.append(
                    (
                        "Place face down" if st.phase == "place" else "Confirm tactic cards",
                        ctl.confirm,
                        "Enter",
                    )
                )
            if st.phase == "place":
                acts.append(("No tactic card", lambda: ctl.pick_tactic(None), "N"))
            if st.phase == "campaign":
                acts += [("Pick campaign card", ctl.cycle_campaign, "C"), ("Declare", ctl.declare, "D"),
                         ("Pass", ctl.pass_campaign, "P")]  # fmt: skip
            if st.phase == "swap":
                acts += [
                    ("Pick event", ctl.cycle_event, "V"),
                    ("Swap event", ctl.swap, "S"),
                    ("Keep events", ctl.keep, "K"),
                ]
        if ctl.revealing:
            acts.append(("Show all", ctl.skip_reveal, "Space"))
        if ctl.hint:
            acts.append(("Hide hint" if ctl.show_hint else "Hint", ctl.toggle_hint, "A"))
        acts.append(("Help", lambda: setattr(ctl, "show_help", not ctl.show_help), "H"))
        return acts

    def paint_self(self, p: Painter, z: int) -> None:
        """Draw the bar."""
        ctl = self.ctl
        r = self.rect
        p.rect(0, 0, r.w, r.h, T.PANEL)
        text(p, ctl.message or ctl.prompt(), 12, 30, 12.5, T.ERROR if ctl.message else T.TEXT,
             style="bold", max_width=r.w - 24)  # fmt: skip
        bx = 12.0
        for (
            label,
            fn,
            key,
        ) in self.actions():  # the key hint drawn here at MIN_TEXT (the painter's is 10.5 pt)
            kw = p.measure(key, MIN_TEXT, "bold") + 10
            bw = p.measure(label, 11.5, "bold" if key == "Enter" else "regular") + 18 + kw + 4
            if bx + bw > r.w - 4:
                break
            p.button(bx, 5, bw, 20, label, fn, primary=key == "Enter", size=11.5)
            p.text(
                key, bx + bw - 7, 15, MIN_TEXT, T.DARK if key == "Enter" else T.DIM, ax="right", style="bold"
            )
            bx += bw + 8


class HelpOverlay(CampaignPanel):
    """The shortcuts and the help text of the cards (``H`` / ``F1``), above everything."""

    name = "help"

    def paint_self(self, p: Painter, z: int) -> None:
        """Draw the overlay on level 2."""
        ctl = self.ctl
        r = self.rect
        x0, y0, hw, hh = r.x, r.y, r.w, r.h
        p.rect(x0, y0, x0 + hw, y0 + hh, T.PANEL, z=2)
        p.frame(x0, y0, x0 + hw, y0 + hh, 2, T.ACTIVE, z=2)
        text(p, "Campaign shortcuts and cards", x0 + 14, y0 + hh - 20, 15, T.TEXT, style="bold", z=2)
        yy = y0 + hh - 46
        for keyname, what in SHORTCUTS:
            text(p, keyname, x0 + 16, yy, 11.5, T.ACTIVE, style="bold", z=2)
            text(p, what, x0 + 110, yy, 11.5, T.TEXT, z=2, max_width=hw - 130)
            yy -= 17
        yy -= 8
        for ln in ctl.help_lines()[len(SHORTCUTS) + 1 :]:
            if yy < y0 + 10:
                break
            text(p, ln, x0 + 16, yy, 10.5, T.DIM, z=2, max_width=hw - 32)
            yy -= 15
