"""The card table as a tree of toolkit widgets (issue 34; R11.1): one :class:`TableLayout`
root, laid out once per window size and *table shape* (which cards lie in which line, which
cards are in the viewer's hand, whose side is at the bottom, the setup phase), whose
:meth:`~TableLayout.layout` gives every region its rectangle; each region draws what the
:class:`~hexwar.lines.table.TableController` says inside it and answers hit tests, so a click
goes through the same tree (:meth:`TableLayout.press`) that painted the screen.

The regions (their ``tip`` is their name, :meth:`TableLayout.find_panel` finds them), top to
bottom:

- ``top bar``: the turn, the phase, the seat to act, both sides' VP and the decks;
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

from ..lines.rules import card
from ..lines.table import TableController
from ..lines.view import SeatView, UnitView
from .widgets import Element, Painter, Rect
from .widgets.painted import PaintedLayer

__all__ = [
    "TableLayout",
    "table_layout",
    "table_shape",
    "table_problems",
    "card_places",
    "row_need",
    "hand_card_h",
    "hand_need",
    "row_heights",
    "split",
    "ROWS",
    "OVERLAYS",
    "CARD_W",
    "CARD_H",
    "LOG_W",
    "TOP_H",
    "PROMPT_H",
    "HAND_H",
    "EMPTY_ROW",
    "TABLE_BG",
    "LINE_BG",
]

CARD_W, CARD_H = 236.0, 120.0
LOG_W = 360.0
TOP_H, PROMPT_H, HAND_H = 34.0, 28.0, 112.0
TABLE_BG = (38, 52, 40, 255)
LINE_BG = (46, 62, 48, 255)
#: Height in points of an empty line's strip.
EMPTY_ROW = 34.0
#: The five lines top to bottom: ``(whose, line, region name)``; ``whose`` is ``"enemy"``,
#: ``"own"`` or ``None`` (the aircraft aloft of both sides, between the Frontlines).
ROWS: tuple[tuple[str | None, str, str], ...] = (
    ("enemy", "rear", "enemy Rear Line"),
    ("enemy", "front", "enemy Frontline"),
    (None, "air", "aircraft"),
    ("own", "front", "own Frontline"),
    ("own", "rear", "own Rear Line"),
)
#: Regions drawn over others (the layout test does not ask them to stay clear of the rest).
OVERLAYS = ("arrows", "events", "setup", "pass", "help", "overlay")


def card_places(n: int, width: float, height: float, card_h: float) -> tuple[int, float, int]:
    """How ``n`` cards of height ``card_h`` sit in ``width`` x ``height`` points: side by side
    at up to :data:`CARD_W` (a gap of 10), narrowed to 170 points (every part of the card
    shows); when that is not enough, in two or more rows if their full height fits; else in one
    row narrowed down to 110 points (header, line and Endurance show); only past that do they
    fan out, overlapping.

    Returns:
        ``(cards per row, card width, rows)``.

    >>> card_places(3, 800, 200, 130)  # side by side at full width
    (3, 236.0, 1)
    >>> card_places(6, 560, 300, 130)  # three 170-point cards a row fit: two rows of three
    (3, 180.0, 2)
    """
    if n <= 0:
        return 1, CARD_W, 1
    fit = int((width + 10) // (170.0 + 10))
    if n <= fit:
        return n, min(CARD_W, (width + 10) / n - 10), 1
    if fit >= 1:
        rows = -(-n // fit)
        if rows * card_h + (rows - 1) * 8 <= height:
            per = -(-n // rows)
            return per, min(CARD_W, (width + 10) / per - 10), rows
    return n, max(110.0, min(CARD_W, (width + 10) / n - 10)), 1


def _unit_h(units: tuple[UnitView, ...]) -> float:
    """The height the tallest of ``units`` needs on the table (its armament rows, the in-play
    strip, a Damage card's strip)."""
    from .card_face import unit_card_height

    return max(unit_card_height(card(u.uid), in_play=True) + (26 if u.damage else 0) for u in units)


def row_need(units: tuple[UnitView, ...], width: float = 1e9) -> float:
    """Points a line needs to show its cards whole (label and margins included) in ``width``
    points of cards (in rows of cards at least 170 points wide, :func:`card_places`); an empty
    line: :data:`EMPTY_ROW`."""
    if not units:
        return EMPTY_ROW
    h = _unit_h(units)
    rows = -(-len(units) // max(1, int((width + 10) // 180.0)))
    return 24.0 + rows * h + (rows - 1) * 8


def hand_card_h(v: SeatView) -> float:
    """The height a hand card needs to show whole (a Command card: band, title, five lines of
    text and its phase; a unit card: its armament rows)."""
    from .card_face import unit_card_height

    need = 126.0 if v.hand_commands else 0.0
    for c in v.hand_units:
        need = max(need, unit_card_height(card(c)))
    return need


def hand_need(v: SeatView, width: float = 1e9) -> float:
    """Points the hand's strip needs to show its cards whole in ``width`` points (in rows of
    cards at least 170 points wide, :func:`card_places`), at least :data:`HAND_H`."""
    n = len(v.hand_units) + len(v.hand_commands)
    if v.seat is None or not n:
        return HAND_H
    rows = -(-n // max(1, int((width + 10) // 180.0)))
    return max(HAND_H, 28.0 + 4.0 + rows * hand_card_h(v) + (rows - 1) * 8)


def row_heights(needs: list[float], total: float, hand_need: float = HAND_H) -> tuple[list[float], float]:
    """Heights of the table's rows and of the hand (points) in ``total + HAND_H`` points.

    When every line's cards fit whole (``needs``, from :func:`row_need`), each line gets its
    need, the hand grows up to ``hand_need`` so its cards show whole, and what is left is shared
    by the lines with cards (no line is a large empty rectangle while a card is cut). Otherwise
    the lines with cards share the room equally (an empty line keeps :data:`EMPTY_ROW`) and the
    hand keeps :data:`HAND_H`.

    Returns:
        ``(row heights, hand height)``.
    """
    full = [i for i, n in enumerate(needs) if n > EMPTY_ROW]
    if not full:  # empty lines: the hand takes what it needs, the lines share the rest
        grow = min(max(0.0, total - EMPTY_ROW * len(needs)), max(0.0, hand_need - HAND_H))
        return [(total - grow) / len(needs)] * len(needs), HAND_H + grow
    if sum(needs) > total:
        share = max(EMPTY_ROW, (total - EMPTY_ROW * (len(needs) - len(full))) / len(full))
        return [share if i in full else EMPTY_ROW for i in range(len(needs))], HAND_H
    spare = total - sum(needs)
    grow = min(spare, max(0.0, hand_need - HAND_H))
    spare -= grow
    return [n + (spare / len(full) if i in full else 0.0) for i, n in enumerate(needs)], HAND_H + grow


def split(full: Rect, hand_h: float = HAND_H) -> tuple[Rect, Rect, Rect, Rect]:
    """The top bar, the prompt, the middle (lines and side panel) and the hand's strip of the
    window ``full`` (points, y up), the hand ``hand_h`` high."""
    top = Rect(full.x, full.y1 - TOP_H, full.w, TOP_H)
    prompt = Rect(full.x, top.y - PROMPT_H, full.w, PROMPT_H)
    hand = Rect(full.x, full.y, full.w, hand_h)
    mid = Rect(full.x, full.y + hand_h, full.w, full.h - TOP_H - PROMPT_H - hand_h)
    return top, prompt, mid, hand


def sides_of(ctl: TableController) -> tuple[str, str]:
    """``(own, enemy)``: the viewer's side (at the bottom; German for a spectator) and the other."""
    me = ctl.side() or "german"
    return me, "soviet" if me == "german" else "german"


def row_units(v: SeatView, me: str, them: str, whose: str | None, line: str) -> tuple[UnitView, ...]:
    """The units of one of :data:`ROWS` in view ``v`` (the aircraft row: the enemy's, then ours)."""
    if whose is None:
        return tuple(v.lines[them]["air"]) + tuple(v.lines[me]["air"])
    return tuple(v.lines[me if whose == "own" else them][line])


def table_shape(ctl: TableController, v: SeatView, side_panel: bool = True) -> tuple[Any, ...]:
    """What the table's layout depends on besides the window's size: the side at the bottom,
    each line's cards (and which carry a Damage card: its strip makes the card taller), the
    viewer's hand, the setup phase and the side panel. Equal shapes lay out alike."""
    me, them = sides_of(ctl)
    rows = tuple(
        tuple((u.uid, u.damage is not None) for u in row_units(v, me, them, whose, ln))
        for whose, ln, _ in ROWS
    )
    return (me, rows, tuple(v.hand_units), tuple(v.hand_commands), v.seat, v.phase == "setup", side_panel)


class TableLayout(Element):
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
    """

    def __init__(self, ctl: TableController, side_panel: bool = True) -> None:
        from .lines_panel import HelpOverlay, PassScreen, SetupPicker, SidePanel
        from .lines_rows import Arrows, EventsNote, HandStrip, LineRow, PromptBar, TopBar

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
        p.rect(0, 0, self.rect.w, self.rect.h, TABLE_BG)
        self.spans = {}
        for c in self.children:
            if c.visible:
                first = len(p.text_boxes)
                c.paint(p, z)
                self.spans[c.tip] = (first, len(p.text_boxes))

    def find_panel(self, name: str) -> Element:
        """The region called ``name`` (see the module text), visible or not."""
        return next(c for c in self.children if c.tip == name)

    @property
    def centres(self) -> dict[str, tuple[float, float]]:
        """The centre point of every unit card laid out (for arrows and tests)."""
        from .lines_rows import LineRow

        out: dict[str, tuple[float, float]] = {}
        for row in self.children:
            if isinstance(row, LineRow):
                out.update(row.centres())
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
    where the next begins), and every text a region drew outside its own box; one line each."""
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
    for pname, (first, end) in root.spans.items():
        r = root.find_panel(pname).rect
        for x0, y0, x1, y1, s, _z in p.text_boxes[first:end]:
            if s.strip() and (x0 < r.x - 1 or y0 < r.y - 1 or x1 > r.x1 + 1 or y1 > r.y1 + 1):
                out.append(
                    f"{head}: {s!r} ({x0:.0f}-{x1:.0f} x {y0:.0f}-{y1:.0f}) leaves region {pname!r} {r}"
                )
    return out


def _inside(a: Rect, b: Rect, slack: float = 4.5) -> bool:
    """``a`` lies within ``b`` (a selected card's frame may stand out by a few points)."""
    return a.x >= b.x - slack and a.y >= b.y - slack and a.x1 <= b.x1 + slack and a.y1 <= b.y1 + slack
