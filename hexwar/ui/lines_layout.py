"""The card table as a tree of toolkit widgets (issue 34; R11.1): one :class:`TableLayout`
root, laid out once per window size and *table shape* (which cards lie in which line, which
cards are in the viewer's hand, whose side is at the bottom, the setup phase), whose
:meth:`~TableLayout.layout` gives every region its rectangle; each region draws what the
:class:`~hexwar.lines.table.TableController` says inside it and answers hit tests, so a click
goes through the same tree (:meth:`TableLayout.press`) that painted the screen.

The regions (their ``tip`` is their name, :meth:`TableLayout.find_panel` finds them), top to
bottom:

- ``top bar``: the turn, the phase, the seat to act, both sides' VP and the decks, and the
  Help and Quit buttons (:attr:`TableLayout.on_quit`; with the side panel only);
- ``prompt``: what the person at the screen is asked to do;
- ``enemy Rear Line``, ``enemy Frontline``, ``aircraft``, ``own Frontline``, ``own Rear Line``:
  the lines (:class:`~hexwar.ui.lines_rows.LineRow`), each holding its unit cards
  (:class:`~hexwar.ui.lines_rows.UnitCard`); a click on one of the viewer's own lines commits
  the selected hand card there;
- ``arrows``: the declaration arrows between the cards (drawn over the lines, never clicked);
- ``side panel``: the phase's buttons, the exact odds, the selected card, the bonus, the log
  (:mod:`hexwar.ui.lines_panel`); absent in the replay viewer, whose lines take the width;
- ``hand``: the viewer's hand as cards, the other seats' hands as counts;
- ``events``: the Event cards in play, over the bottom edge of the own Rear Line;
- ``setup``: the Reserves picker of 000 setup, over the hand and the own Rear Line;
- ``pass``: the hot-seat hand-over screen (modal: it eats every click);
- ``help``: the keys; ``overlay``: the window's quit question (painted by
  :func:`hexwar.ui.window_base.paint_quit_question`, hit-tested by the boxes it drew).

:meth:`TableLayout.paint` records which of the painter's text boxes each region drew
(:attr:`TableLayout.spans`), so the layout test checks every text against its own region's
box (:func:`table_problems`) as well as against the window
(:func:`hexwar.ui.layout_check.layout_problems`).
"""

from __future__ import annotations

from typing import Any

from ..lines.table import TableController
from ..lines.view import SeatView
from .lines_geometry import (
    HAND_H,
    LOG_W,
    OVERLAYS,
    PROMPT_H,
    ROWS,
    TABLE_BG,
    TOP_H,
    hand_need,
    row_heights,
    row_need,
    row_units,
    sides_of,
    split,
    table_shape,
)
from .lines_panel import HelpOverlay, PassScreen, SetupPicker, SidePanel
from .lines_rows import Arrows, EventsNote, HandStrip, LineRow, PromptBar, TopBar, UnitCard
from .widgets import ELLIPSIS, Element, Painter, Rect, RegionRoot, stray_texts
from .widgets.painted import PaintedLayer

__all__ = ["TableLayout", "table_layout", "table_problems", "card_text_problems"]


class TableLayout(RegionRoot):
    """The card table's root widget (see the module text).

    Args:
        ctl: the controller whose table is drawn (:attr:`ctl` may be reassigned: the network
            client and the window's resume swap it).
        side_panel: with the buttons, odds and log column (``False``: the replay viewer's
            table, the lines taking the whole width).

    Attributes:
        v: the viewer's :class:`~hexwar.lines.view.SeatView` of the last :meth:`ensure`.
        shape: the :func:`table_shape` the tree was laid out for.
        me, them: the viewer's side and the other.
        lw: the side panel's width (points; 0 without one).
        spans: region name -> ``(first, end)`` indices into the painter's ``text_boxes`` drawn
            by that region in the last :meth:`paint`.
        layouts: how many times the tree was laid out (tests: once per size and shape).
        on_quit: the top bar's Quit button's action (set by the window).
    """

    def __init__(self, ctl: TableController, side_panel: bool = True) -> None:
        kids: list[Element] = [TopBar(), PromptBar()]
        kids += [LineRow(whose, ln, name) for whose, ln, name in ROWS]
        kids += [Arrows(), SidePanel(), HandStrip(), EventsNote(), SetupPicker(), PassScreen(), HelpOverlay()]
        kids.append(PaintedLayer(tip="overlay"))
        super().__init__(children=kids)
        self.ctl = ctl
        self.side_panel = side_panel
        self.v: SeatView = ctl.view()
        self.shape: tuple[Any, ...] = ()
        self.me, self.them = sides_of(ctl)
        self.lw = 0.0
        self.spans: dict[str, tuple[int, int]] = {}
        self.layouts = 0
        #: what the top bar's Quit button does (``() -> Any``; the window sets it to its quit,
        #: which asks while a game goes on); ``None``: the button does nothing (headless)
        self.on_quit: Any = None

    def ensure(self, ctl: TableController, width: float, height: float) -> bool:
        """Take ``ctl``'s view; lay the tree out again when the window's size or the table's
        shape changed. Returns whether it did."""
        self.ctl = ctl
        self.v = ctl.view()
        shape = table_shape(ctl, self.v, self.side_panel)
        size = (float(width), float(height))
        if shape == self.shape and (self.rect.w, self.rect.h) == size and self.layouts:
            return False
        self.shape = shape
        self.layout(Rect(0, 0, *size))
        return True

    def layout(self, rect: Rect) -> None:
        """Give every region its rectangle for a window of ``rect`` (points) and the view
        :attr:`v` (the lines take what their cards need, :func:`row_heights`)."""
        self.rect = rect
        self.layouts += 1
        v, w = self.v, rect.w
        self.me, self.them = sides_of(self.ctl)
        units = [row_units(v, self.me, self.them, whose, ln) for whose, ln, _ in ROWS]
        room = rect.h - TOP_H - PROMPT_H
        self.lw = lw = min(LOG_W, max(240.0, w * 0.3)) if self.side_panel else 0.0  # narrow: two cards a line
        cards_w = w - lw - 12 - 20  # a line's room for cards
        heights, hand_h = row_heights(
            [row_need(us, cards_w) for us in units], room - HAND_H, hand_need(v, w - 20)
        )
        top, prompt, mid, hand = split(rect, hand_h)
        table = Rect(mid.x, mid.y, mid.w - lw, mid.h)
        rects = {"top bar": top, "prompt": prompt, "arrows": table, "hand": hand, "help": rect}
        rects["side panel"] = Rect(mid.x1 - lw, mid.y, lw, mid.h)
        top_y = table.y1
        for (_, _, name), hh in zip(ROWS, heights, strict=True):
            rects[name] = Rect(table.x + 6, top_y - hh + 3, table.w - 12, hh - 6)
            top_y -= hh
        rects["events"] = Rect(table.x + 10, hand.y1 + 1, max(0.0, table.w - 20), 14)
        # over the (empty) hand and the own Rear Line: the starting units stay in view
        rects["setup"] = Rect(0, 0, table.x1, hand.h + heights[-1])
        rects["pass"] = Rect(0, 0, w, prompt.y)
        rects["overlay"] = rect
        for c in self.children:
            c.layout(rects[c.tip])
        self.find_panel("side panel").visible = self.side_panel

    def paint(self, p: Painter, z: int = 0) -> None:
        """The table's cloth, then each region in order, recording its text boxes' span."""
        self.paint_regions(p, z, TABLE_BG)

    @property
    def centres(self) -> dict[str, tuple[float, float]]:
        """The centre point of every unit card laid out (for arrows and tests)."""
        out: dict[str, tuple[float, float]] = {}
        for row in self.children:
            if isinstance(row, LineRow):
                out.update(row.centres())
        return out

    @property
    def card_rects(self) -> dict[str, Rect]:
        """The rectangle of every unit card laid out (points; the arrows end on their edges)."""
        out: dict[str, Rect] = {}
        for row in self.children:
            if isinstance(row, LineRow):
                out.update({k.uid: k.rect for k in row.children if isinstance(k, UnitCard)})
        return out

    def press(self, x: float, y: float, button: int = 1, modifiers: int = 0) -> bool:
        """A click at ``(x, y)`` (points): the deepest region under it uses it, else its
        parents in turn (:meth:`Element.on_press`). Returns whether something used it."""
        e = self.hit_test(x, y)
        while e is not None:
            if e.enabled and e.on_press(x, y, button, modifiers):
                return True
            e = e.parent
        return False


def table_layout(
    ctl: TableController,
    width: float,
    height: float,
    side_panel: bool = True,
    root: TableLayout | None = None,
) -> TableLayout:
    """The laid-out tree of ``ctl``'s table in ``width`` x ``height`` points: ``root`` when it
    fits (laid out again only if the size or the shape changed), else a new one."""
    if root is None or root.side_panel != side_panel:
        root = TableLayout(ctl, side_panel)
    root.ensure(ctl, width, height)
    return root


def table_problems(root: TableLayout, p: Painter, name: str = "table") -> list[str]:
    """After ``root.paint(p)``: every region (and every card of a line or the hand) whose box
    leaves the window, every two regions (other than :data:`OVERLAYS`) whose boxes overlap,
    every two cards of one line or of the hand that overlap (a fanned card is drawn only up to
    where the next begins), and every text a region, or a card of it, drew outside its own box;
    one line each."""
    out: list[str] = []
    w, h = root.rect.w, root.rect.h
    head = f"{name} {w:g}x{h:g}"

    def outside(r: Rect, what: str) -> None:
        if r.x < -0.5 or r.y < -0.5 or r.x1 > w + 0.5 or r.y1 > h + 0.5:
            out.append(f"{head}: {what} {r} leaves the window")

    def overlaps(items: list[tuple[str, Rect]], what: str) -> None:
        for i, (an, ar) in enumerate(items):
            for bn, br in items[i + 1 :]:
                ox = min(ar.x1, br.x1) - max(ar.x, br.x)
                oy = min(ar.y1, br.y1) - max(ar.y, br.y)
                if ox > 0.5 and oy > 0.5:
                    out.append(f"{head}: {what} {an!r} and {bn!r} overlap ({ox:.1f} x {oy:.1f} points)")

    regions = [c for c in root.children if c.visible and c.tip not in OVERLAYS]
    for c in regions:
        outside(c.rect, f"region {c.tip!r}")
    overlaps([(c.tip, c.rect) for c in regions], "regions")
    for c in root.children:
        if not c.visible or not c.children:
            continue
        cards = [(k.tip, getattr(k, "shown", k.rect)) for k in c.children if k.visible]
        for kn, kr in cards:
            outside(kr, kn)
            if c.tip not in OVERLAYS and not _inside(kr, c.rect):
                out.append(f"{head}: {kn!r} {kr} leaves region {c.tip!r} {c.rect}")
        overlaps(cards, f"in {c.tip!r}, cards")
        for k in c.children:  # every text a card (or button) drew lies on it
            r = getattr(k, "shown", k.rect)
            for s, (x0, y0, x1, y1) in stray_texts(p, getattr(k, "span", (0, 0)), r):
                out.append(f"{head}: {s!r} ({x0:.0f}-{x1:.0f} x {y0:.0f}-{y1:.0f}) leaves {k.tip!r} {r}")
    for pname, span in root.spans.items():
        r = root.find_panel(pname).rect
        for s, (x0, y0, x1, y1) in stray_texts(p, span, r):
            out.append(f"{head}: {s!r} ({x0:.0f}-{x1:.0f} x {y0:.0f}-{y1:.0f}) leaves region {pname!r} {r}")
    return out


def _inside(a: Rect, b: Rect, slack: float = 4.5) -> bool:
    """``a`` lies within ``b`` (a selected card's frame may stand out by a few points)."""
    return a.x >= b.x - slack and a.y >= b.y - slack and a.x1 <= b.x1 + slack and a.y1 <= b.y1 + slack


def _shown(full: str, texts: list[str]) -> bool:
    """``full`` is among ``texts`` whole, or shortened to a prefix ending with an ellipsis."""
    for t in texts:
        if t == full or (len(t) > 1 and t.endswith(ELLIPSIS) and full.startswith(t[:-1].rstrip())):
            return True
    return False


def card_text_problems(root: TableLayout, p: Painter, name: str = "table") -> list[str]:
    """After ``root.paint(p)``: every card text cut without an ellipsis, one line each (fresh-user
    pass, item 3). For each unit card on the table and each card in hand (from the texts it
    drew, :attr:`~hexwar.ui.lines_rows.TablePanel.span`):

    - its name (a Command or Event card: its title, on up to two 12-point lines) is drawn
      whole, or shortened to a prefix ending with "…";
    - a unit card with its second row (not squeezed to its header and strips, and not fanned
      under the next card) draws each weapon's row whole or with "…", or says how many it
      leaves out ("+N more", "N weapons": the side panel lists them when the unit is
      selected).
    """
    import re

    from ..lines.rules import card as unit_card
    from ..lines.rules import cards as all_cards
    from .card_face import FOOT_H, HEAD_H, SUB_H, armament_rows
    from .lines_rows import HandCard, UnitCard

    out: list[str] = []
    head = f"{name} {root.rect.w:g}x{root.rect.h:g}"
    for region in root.children:
        if not region.visible:
            continue
        for k in region.children:
            if not isinstance(k, (UnitCard, HandCard)) or not k.visible:
                continue
            a, b = k.span
            boxes = p.text_boxes[a:b]
            texts = [t[4] for t in boxes]
            cid = k.uid if isinstance(k, UnitCard) else k.cid
            if isinstance(k, UnitCard) or k.is_unit:
                c = unit_card(cid)
                pairs = [f"{t} {u}" for t, u in zip(texts, texts[1:], strict=False)]  # a name on two lines
                if not _shown(c.name, texts + pairs):
                    out.append(f"{head}: {k.tip!r} name {c.name!r} cut: {texts[:4]}")
                r = getattr(k, "shown", k.rect)
                # the card's second row is drawn when the header, it and the in-play strips fit
                strips = 0.0
                if isinstance(k, UnitCard):
                    strips = FOOT_H + (26.0 if region.unit(k.uid).damage is not None else 0.0)  # type: ignore[attr-defined]
                second = k.rect.h - HEAD_H - SUB_H >= strips
                if k.clip_x is not None or not second:
                    continue
                said = any(re.search(r"\+\d+( more)?\b|\b\d+ weapons?\b", t) for t in texts)
                for wname, rof, _, _ in armament_rows(c):
                    label = f"{rof} {wname}" if rof else wname
                    if not _shown(label, texts) and not said:
                        out.append(f"{head}: {k.tip!r} {r} weapon {label!r} left out unannounced")
            else:
                title = all_cards().command_or_event(cid).title
                lines = [t[4] for t, size in zip(boxes, p.text_sizes[a:b], strict=False) if size == 12.0]
                got = " ".join(lines)
                if got != title and not (got.endswith(ELLIPSIS) and title.startswith(got[:-1].rstrip()[:1])):
                    out.append(f"{head}: {k.tip!r} title {title!r} drawn as {lines!r}")
    return out
