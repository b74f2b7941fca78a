"""The campaign screen as a tree of toolkit widgets (issue 34): one :class:`CampaignLayout`
root, built once per window size, whose :meth:`~CampaignLayout.layout` gives each panel its
rectangle; each panel draws what the :class:`~hexwar.ui.campaign_controller.CampaignController`
says inside its own rectangle.

The panels (their ``tip`` is their name, :meth:`Element.find` finds them):

- ``top bar``: the year track with the year cards won, the initiative card, both ranks with
  the tactic cards they give, the event cards in play and the pile;
- ``history``: the war's battles, the winner first; ``log``: the newest lines, wrapped;
- ``opponent``: the opponent's hand face down (R12.1), its tactic cards and used campaign cards;
- ``battle``: the placement slots (face down, then turned over step by step as the battle is
  revealed), the score and the result, both battle piles, the hint (``A``), and at a year's
  end the year-end summary in place of the slots;
- ``hand``: the shown side's battle and tactic cards with the exact odds, or the hot-seat cover;
- ``bottom bar``: the prompt and the action buttons with their keys; ``help``: the shortcuts.

:meth:`CampaignLayout.paint` records which of the painter's text boxes each panel drew
(:attr:`CampaignLayout.spans`), so the layout test checks every text against its own panel's
box as well as against the window (:func:`panel_problems`).
"""

from __future__ import annotations

from .campaign_bars import BottomBar, HelpOverlay, HistoryPanel, LogPanel, TopBar
from .campaign_controller import CampaignController
from .campaign_draw import CARD_H, CARD_W, TACTIC_H
from .campaign_table import BattleArea, HandPanel, OpponentRow
from .widgets import Painter, Rect, RegionRoot, stray_texts
from .widgets import theme as T

__all__ = ["CampaignLayout", "panel_problems", "PANELS"]

#: the panels' names, in painting order
PANELS = ("top bar", "history", "log", "opponent", "battle", "hand", "bottom bar", "help")


class CampaignLayout(RegionRoot):
    """The campaign screen's root widget.

    Args:
        ctl: the controller whose war is drawn (the window swaps it on "continue";
            :attr:`ctl` may be reassigned).

    Attributes:
        spans: panel name -> ``(first, end)`` indices into the painter's ``text_boxes`` drawn
            by that panel in the last :meth:`paint`.
        cw, tcw: the battle and tactic cards' widths (points) of this layout.
        tw: the table's width beside the right column (points).
        events_on_top: whether the top bar had room for the event cards in the last paint
            (else the opponent row names them).
    """

    def __init__(self, ctl: CampaignController) -> None:
        super().__init__(children=[TopBar(), HistoryPanel(), LogPanel(), OpponentRow(), BattleArea(),
                                   HandPanel(), BottomBar(), HelpOverlay()])  # fmt: skip
        self.ctl = ctl
        self.spans: dict[str, tuple[int, int]] = {}
        self.cw = self.tcw = CARD_W
        self.tw = 0.0
        self.events_on_top = True

    def layout(self, rect: Rect) -> None:
        """Give every panel its rectangle for a window of ``rect`` (points)."""
        self.rect = rect
        w, h = rect.w, rect.h
        top = h - 64
        rw = 360.0 if w >= 1300 else max(230.0, round(w * 0.29))  # narrower beside a small table
        rx = w - rw - 8
        hist_h = (top - 60) * 0.5
        self.tw = tw = rx - 16
        self.cw = min(CARD_W, (tw - 12 - 6 * 8) / 7)  # seven battle cards beside the right column
        self.tcw = min(CARD_W, (tw - 12 - 4 * 8) / 5)  # five tactic cards, as wide as they can be
        table_w = rx - 4
        oy = top - 16 - CARD_H
        hand_top = 82 + TACTIC_H + 6 + CARD_H + 24
        rects = {
            "top bar": Rect(0, top, w, 64),
            "history": Rect(rx, top - 8 - hist_h, rw, hist_h),
            "log": Rect(rx, 52, rw, top - 60 - hist_h - 16),
            "opponent": Rect(0, oy, table_w, top - oy),
            "battle": Rect(0, hand_top, table_w, max(0.0, oy - hand_top)),
            "hand": Rect(0, 48, table_w, hand_top - 48),
            "bottom bar": Rect(0, 0, w, 46),
        }
        hw, hh = min(760.0, w - 80), min(560.0, h - 80)
        rects["help"] = Rect((w - hw) / 2, (h - hh) / 2, hw, hh)
        for c in self.children:
            c.layout(rects[c.tip])

    def paint(self, p: Painter, z: int = 0) -> None:
        """The background, then each panel, recording its text boxes' span."""
        self.find_panel("help").visible = self.ctl.show_help
        self.paint_regions(p, z, T.BG)


def panel_problems(root: CampaignLayout, p: Painter, name: str = "campaign") -> list[str]:
    """Every text box a panel drew outside its own box, and every two panels (other than the
    help overlay, drawn above) whose boxes overlap, after ``root.paint(p)``; one line each."""
    out: list[str] = []
    w, h = root.rect.w, root.rect.h
    head = f"{name} {w:g}x{h:g}"
    panels = [c for c in root.children if c.tip != "help"]
    for i, a in enumerate(panels):
        ar = a.rect
        if ar.x < -0.5 or ar.y < -0.5 or ar.x1 > w + 0.5 or ar.y1 > h + 0.5:
            out.append(f"{head}: panel {a.tip!r} {ar} leaves the window")
        for b in panels[i + 1 :]:
            br = b.rect
            ox = min(ar.x1, br.x1) - max(ar.x, br.x)
            oy = min(ar.y1, br.y1) - max(ar.y, br.y)
            if ox > 0.5 and oy > 0.5:
                out.append(f"{head}: panels {a.tip!r} and {b.tip!r} overlap ({ox:.1f} x {oy:.1f} points)")
    for pname, span in root.spans.items():
        r = root.find_panel(pname).rect
        for s, (x0, y0, x1, y1) in stray_texts(p, span, r):
            out.append(f"{head}: {s!r} ({x0:.0f}-{x1:.0f} x {y0:.0f}-{y1:.0f}) leaves panel {pname!r} {r}")
    return out
