"""The card table's regions on the table itself (issue 34; R11.1): the top bar, the prompt, the
lines with their unit cards, the declaration arrows, the hand and the Event cards in play.
Each is a toolkit :class:`~hexwar.ui.widgets.Element` laid out by its
:class:`~hexwar.ui.lines_layout.TableLayout` root (see that module): a line and the hand place
their cards as child widgets in :meth:`~LineRow.layout` (once per size and table shape), the
cards paint themselves from the root's current view and run their click on
:meth:`~UnitCard.on_press`.
"""

from __future__ import annotations

import math
from functools import partial
from typing import Any

from ..lines.rules import card, cards
from ..lines.view import UnitView
from .lines_geometry import CARD_H, CARD_W, LINE_BG, card_places, hand_card_h, row_units, unit_h
from .widgets import Button, Element, Painter, Rect, theme
from .widgets.text import ellipsize

__all__ = [
    "TablePanel",
    "TopBar",
    "PromptBar",
    "LineRow",
    "UnitCard",
    "Arrows",
    "HandStrip",
    "HandCard",
    "EventsNote",
    "in_play_of",
    "SIDE_COL",
]

SIDE_COL = {"german": (96, 124, 170, 255), "soviet": (200, 70, 60, 255)}


def in_play_of(u: UnitView) -> Any:
    """The :class:`~hexwar.ui.card_face.InPlay` facts of a unit on the table (its view)."""
    from .card_face import InPlay

    extra = ", ".join(u.command_cards) if u.command_cards else ""
    # 4 players: whose card it is (Frontline or Support Commander); a captured unit says so
    tags = (["captured"] if u.captured else []) + ([u.seat.split("-", 1)[1]] if "-" in u.seat else [])
    return InPlay(u.endurance, u.crew, u.damage, u.flight_turns if u.line == "air" else None, extra,
                  ", ".join(tags), u.captured)  # fmt: skip


class TablePanel(Element):
    """A region of the card table: laid out by the :class:`~hexwar.ui.lines_layout.TableLayout`
    above it, drawing the root's controller and view inside :attr:`rect` (its ``tip`` is its
    name)."""

    name = ""

    def __init__(self, tip: str = "") -> None:
        super().__init__(tip=tip or self.name)
        #: ``(first, end)`` indices into the painter's ``text_boxes`` of the last :meth:`paint`
        self.span = (0, 0)

    def paint(self, p: Painter, z: int = 0) -> None:
        """Draw this region (or card) and its children, recording the span of its texts."""
        first = len(p.text_boxes)
        super().paint(p, z)
        self.span = (first, len(p.text_boxes))

    @property
    def root(self) -> Any:
        """The :class:`~hexwar.ui.lines_layout.TableLayout` this region (or card) hangs from."""
        e: Element | None = self
        while e is not None and e.parent is not None:
            e = e.parent
        return e

    @property
    def ctl(self) -> Any:
        """The :class:`~hexwar.lines.table.TableController` drawn."""
        return self.root.ctl

    @property
    def v(self) -> Any:
        """The viewer's :class:`~hexwar.lines.view.SeatView` this paint."""
        return self.root.v


class TopBar(TablePanel):
    """The turn, the phase, the seat to act and both sides' VP (the result once the game is
    over), with the decks' counts at the right (short forms in a narrow window) and, on the
    playing table (with a side panel), the **Help** and **Quit** buttons at its right end, as
    in the hex window's top bar: a mouse-only player leaves through Quit, which asks the
    window's quit question (:attr:`~hexwar.ui.lines_layout.TableLayout.on_quit`) like Ctrl+Q
    (fresh-user pass, item 1)."""

    name = "top bar"

    #: the buttons' width and the gap between them (points; the hex window's top bar: 58 / 6)
    BUTTON_W, GAP = 58.0, 6.0

    def __init__(self) -> None:
        super().__init__()
        self.help = Button("Help", self._help, tip="help", size=12.0, align="center")
        self.quit = Button("Quit", self._quit, tip="quit", size=12.0, align="center")
        self.buttons_w = 0.0

    def _help(self) -> None:
        """The Help button: the keys' overlay, as H / F1."""
        self.ctl.toggle_help()

    def _quit(self) -> None:
        """The Quit button: the window's quit (it asks while a game goes on), as Ctrl+Q."""
        on_quit = getattr(self.root, "on_quit", None)
        if on_quit is not None:
            on_quit()

    def layout(self, rect: Rect) -> None:
        """The bar; Help and Quit at its right end when the table has its side panel."""
        self.rect = r = rect
        self.children = []
        self.buttons_w = 0.0
        if not getattr(self.root, "side_panel", False):
            return
        bw, gap = self.BUTTON_W, self.GAP
        x = r.x1 - 8 - bw
        for b in (self.quit, self.help):
            self.add(b).layout(Rect(x, r.y + (r.h - 26) / 2, bw, 26))
            x -= bw + gap
        self.buttons_w = r.x1 - x - bw + 4

    def paint_self(self, p: Painter, z: int) -> None:
        """Draw the bar."""
        v, top = self.v, self.rect
        width = top.w - self.buttons_w
        p.rect(top.x, top.y, top.x1, top.y1, theme.SECTION)
        score = "   ".join(
            f"{s} {v.vp[s]}/{v.targets[s]} VP" + (f" (Overrun {v.overrun[s]})" if v.overrun[s] else "")
            for s in ("german", "soviet")
        )
        head = f"Turn {v.turn} - {v.phase} phase - to act: {v.to_act or '-'}   {score}"
        if v.result:
            head = v.result
        decks = f"Command deck {v.command_deck} (discard {v.command_discard})   Damage deck {v.damage_deck}"
        if p.measure(head, 12.5, "bold") + p.measure(decks, 10.5) + 40 > width:  # narrow: the short form
            decks = f"Command {v.command_deck} ({v.command_discard})  Damage {v.damage_deck}"
        dw = p.measure(decks, 10.5)
        if not v.result and p.measure(head, 12.5, "bold") > width - dw - 40:  # narrow: the short form
            score = "  ".join(f"{s} {v.vp[s]}/{v.targets[s]}" for s in ("german", "soviet"))
            head = f"Turn {v.turn} {v.phase} - {v.to_act or '-'}   {score} VP"
        p.text(ellipsize(p.atlas, head, width - dw - 40, 12.5, "bold"), top.x + 10, top.y + top.h / 2, 12.5,
               theme.TEXT, style="bold")  # fmt: skip
        p.text(decks, top.x + width - 10, top.y + top.h / 2, 10.5, theme.DIM, ax="right")


class PromptBar(TablePanel):
    """What the person at the screen is asked to do (:meth:`TableController.prompt`)."""

    name = "prompt"

    #: whether the last paint cut the status message (the side panel then shows it whole)
    message_cut: bool = False

    def paint_self(self, p: Painter, z: int) -> None:
        """Draw the prompt, cut with an ellipsis when too long, and the controller's status
        message (a refusal or hint, :attr:`TableController.message`) at its right in red, up
        to half the bar: by the prompt, not under the bonus in the side panel (fresh-user pass
        2, item 8)."""
        r = self.rect
        p.rect(r.x, r.y, r.x1, r.y1, (60, 52, 30, 255))
        msg = self.ctl.message
        mw = min(p.measure(msg, 11.0), (r.w - 20) / 2) if msg else 0.0
        room = r.w - 20 - (mw + 16 if msg else 0.0)
        p.text(ellipsize(p.atlas, self.ctl.prompt(), room, 12.0, "bold"), r.x + 10, r.y + r.h / 2, 12.0,
               theme.ACTIVE, style="bold")  # fmt: skip
        self.message_cut = False
        if msg:
            shown = ellipsize(p.atlas, msg, mw, 11.0)
            self.message_cut = shown != msg
            p.text(shown, r.x1 - 10, r.y + r.h / 2, 11.0, theme.ERROR, ax="right")


class UnitCard(TablePanel):
    """One unit on the table drawn as its card (:func:`hexwar.ui.card_face.paint_unit_card`):
    the printed face with its armament table, the current Endurance, crew and Damage card, and
    in its second row whose card it is (4 players) or that it was captured; a click selects it or makes it the target (:meth:`TableController.click`).

    Args:
        uid: the unit's id (``"de_pz_iv_g#1"``).
        clip_x: where the next card covers a fanned one (points), or ``None``.
    """

    def __init__(self, uid: str, rect: Rect, clip_x: float | None = None) -> None:
        super().__init__(tip=f"unit {uid}")
        self.uid = uid
        self.rect = rect
        self.clip_x = clip_x

    @property
    def shown(self) -> Rect:
        """The part of the card that shows (a fanned card: up to where the next begins)."""
        r = self.rect
        return r if self.clip_x is None else Rect(r.x, r.y, self.clip_x - r.x, r.h)

    def paint_self(self, p: Painter, z: int) -> None:
        """The card and its highlight (selected or target)."""
        from .card_face import paint_unit_card

        ctl, u = self.ctl, self.parent.unit(self.uid)  # type: ignore[union-attr]
        x, y, w, h = self.rect.x, self.rect.y, self.rect.w, self.rect.h
        sel = ctl.selected == u.uid
        tgt = ctl.target == u.uid
        edge = theme.ACTIVE if sel else theme.ERROR if tgt else None
        clip_x = self.clip_x
        paint_unit_card(p, card(u.uid), x, y, w, h, in_play=in_play_of(u), edge=edge, clip_x=clip_x)
        if sel or tgt:
            p.frame(x - 2, y - 2, x + w + 2, y + h + 2, 2.5, theme.ACTIVE if sel else theme.ERROR)
        p.widget(x, y, w, h, partial(ctl.click, u.uid), self.tip)

    def on_press(self, x: float, y: float, button: int, modifiers: int) -> bool:
        """Select the unit or make it the target."""
        self.ctl.click(self.uid)
        return True


class LineRow(TablePanel):
    """One line of the table (:data:`~hexwar.ui.lines_layout.ROWS`): its strip, its label and
    its unit cards (:class:`UnitCard` children, placed by :func:`card_places`: side by side,
    in rows, narrowed, fanned only as a last resort). A click on one of the viewer's own lines
    commits the selected hand card there (:meth:`TableController.commit_to`).

    Args:
        whose: ``"own"``, ``"enemy"`` or ``None`` (the aircraft aloft of both sides).
        line: ``"front"``, ``"rear"`` or ``"air"``.
        name: the region's name.
    """

    def __init__(self, whose: str | None, line: str, name: str) -> None:
        super().__init__(tip=name)
        self.whose, self.line = whose, line
        self._units: dict[str, UnitView] = {}

    def units(self) -> tuple[UnitView, ...]:
        """This line's units in the root's current view."""
        r = self.root
        return row_units(r.v, r.me, r.them, self.whose, self.line)

    def unit(self, uid: str) -> UnitView:
        """The current view of unit ``uid`` of this line."""
        return next(u for u in self.units() if u.uid == uid)

    def layout(self, rect: Rect) -> None:
        """Place the line's cards in ``rect`` (their height the tallest card's need, shrunk to
        what the strip holds; 24 points for the label and margins)."""
        self.rect = r = rect
        self.children = []
        units = self.units()
        if not units:
            return
        room = r.h - 24
        h_need = unit_h(units)
        per_row, cw, n_rows = card_places(len(units), r.w - 20, room, h_need)
        h = max(40.0, min(h_need, (room - 8 * (n_rows - 1)) / n_rows))
        step = cw + 10 if per_row * (cw + 10) - 10 <= r.w - 20 else (r.w - 20 - cw) / max(1, per_row - 1)
        for i, u in enumerate(units):
            row, col = divmod(i, per_row)
            x = r.x + 10 + col * step
            # fanned: the next card covers this one from x + step on
            covered = step < cw + 10 and col < per_row - 1 and i < len(units) - 1
            clip = x + step - 3 if covered else None
            self.add(UnitCard(u.uid, Rect(x, r.y1 - 20 - h - row * (h + 8), cw, h), clip))

    def centres(self) -> dict[str, tuple[float, float]]:
        """The centre point of each of the line's cards."""
        return {k.uid: k.rect.centre for k in self.children if isinstance(k, UnitCard)}

    @property
    def box_tip(self) -> str:
        """The name of the line's hit box in the painter's record (``line front``)."""
        return f"line {self.line}"

    def own_line(self) -> str | None:
        """The line a click commits to (the viewer's own lines only), else ``None``."""
        return self.line if self.whose == "own" else None

    def paint_self(self, p: Painter, z: int) -> None:
        """The strip and its label (the aircraft row names each aircraft's Turns of Flight)."""
        r = self.rect
        p.rect(r.x, r.y, r.x1, r.y1, LINE_BG)
        line = self.own_line()
        if line is not None:  # one of the viewer's own lines: a click commits the selected hand card there
            p.widget(r.x, r.y, r.w, r.h, partial(self.ctl.commit_to, line), self.box_tip)
        if self.whose is None:
            air = self.units()
            label = (
                "aircraft aloft (no line): " + ", ".join(f"{u.name} {u.flight_turns} ToF" for u in air)
                if air
                else "aircraft aloft: none"
            )
        else:
            side = self.root.me if self.whose == "own" else self.root.them
            label = f"{side} {'Frontline' if self.line == 'front' else 'Rear Line'}"
        p.text(ellipsize(p.atlas, label, r.w - 12, 10.0, "bold"), r.x + 6, r.y1 - 9, 10.0, theme.DIM,
               style="bold")  # fmt: skip

    def on_press(self, x: float, y: float, button: int, modifiers: int) -> bool:
        """On one of the viewer's own lines: commit the selected hand card there."""
        line = self.own_line()
        if line is None:
            return False
        self.ctl.commit_to(line)
        return True


def arrow(
    p: Painter,
    a: tuple[float, float],
    b: tuple[float, float],
    colour: tuple[int, int, int, int],
    shift: float = 0.0,
    half_a: tuple[float, float] = (CARD_W / 2, CARD_H / 2),
    half_b: tuple[float, float] = (CARD_W / 2, CARD_H / 2),
) -> None:
    """An attack arrow from card centre ``a`` to card centre ``b``, from edge to edge, moved
    ``shift`` points to its left (two attacks between the same cards in opposite directions
    stay two arrows). ``half_a`` / ``half_b``: half the width and height of the card at each
    end (points; the cards as laid out: a narrowed or squeezed card is smaller than
    ``CARD_W`` x ``CARD_H``, and edges taken from the full size ended the arrows in empty rows,
    fresh-user pass 2, item 2)."""
    if shift:
        d = math.hypot(b[0] - a[0], b[1] - a[1]) or 1.0
        nx, ny = -(b[1] - a[1]) / d * shift, (b[0] - a[0]) / d * shift
        a, b = (a[0] + nx, a[1] + ny), (b[0] + nx, b[1] + ny)

    def edge(
        c: tuple[float, float], d: tuple[float, float], half: tuple[float, float]
    ) -> tuple[float, float]:
        """Where the segment from card centre ``c`` towards ``d`` leaves the card."""
        dx, dy = d[0] - c[0], d[1] - c[1]
        t = min(half[0] / abs(dx) if dx else math.inf, half[1] / abs(dy) if dy else math.inf, 1.0)
        return c[0] + dx * t, c[1] + dy * t

    a, b = edge(a, b, half_a), edge(b, a, half_b)
    p.line(a[0], a[1], b[0], b[1], 2.5, colour, 1)
    ang = math.atan2(b[1] - a[1], b[0] - a[0])
    for d in (2.6, -2.6):
        p.line(
            b[0], b[1], b[0] - 12 * math.cos(ang + d / 6), b[1] - 12 * math.sin(ang + d / 6), 2.5, colour, 1
        )


class Arrows(TablePanel):
    """The declaration arrows between the cards' centres (a resolved attack's is gone: its
    result is in the log) and the arrow of the attack being chosen; drawn over the lines and
    never clicked (:meth:`hit_test` is ``None``)."""

    name = "arrows"

    def paint_self(self, p: Painter, z: int) -> None:
        """Draw the arrows."""
        rects, ctl = self.root.card_rects, self.ctl
        centres = {u: r.centre for u, r in rects.items()}
        half = {u: (r.w / 2, r.h / 2) for u, r in rects.items()}
        for a in self.v.attacks:
            src = [x for x in a.attackers if x in centres]
            shown = a.number == ctl.watching  # a computer's resolution being shown: its arrow stays
            if not src or a.target not in centres or (a.resolved and not shown):
                continue
            colour = theme.ROLL[:3] + (235,) if shown else SIDE_COL[a.seat.split("-")[0]][:3] + (235,)
            for s in src:
                arrow(p, centres[s], centres[a.target], colour, 5.0, half[s], half[a.target])  # type: ignore[arg-type]
        if ctl.selected in centres and ctl.target in centres:
            arrow(
                p,
                centres[ctl.selected],
                centres[ctl.target],
                theme.ACTIVE,
                0.0,
                half[ctl.selected],
                half[ctl.target],
            )

    def hit_test(self, x: float, y: float) -> Element | None:
        """Never: a click goes to the card under the arrow."""
        return None


class HandCard(TablePanel):
    """A card of the viewer's hand (a unit or a Command card, :func:`hexwar.ui.card_face.paint_card`);
    the picked one stands 4 points higher; a click picks it (:meth:`TableController.click`).

    Args:
        cid: the card's id; index: its place in the hand (the keyboard's card cursor).
        clip_x: where the next card covers a fanned one (points), or ``None``.
    """

    def __init__(self, cid: str, index: int, rect: Rect, is_unit: bool, clip_x: float | None = None) -> None:
        super().__init__(tip=f"card {cid}")
        self.cid, self.index, self.is_unit, self.clip_x = cid, index, is_unit, clip_x
        self.rect = rect

    @property
    def picked(self) -> bool:
        """The card is selected (it stands out of the hand)."""
        return bool(self.ctl.selected == self.cid)

    @property
    def shown(self) -> Rect:
        """Where the card is drawn now (4 points up when picked; a fanned card up to the next)."""
        r = self.rect.moved(0, 4) if self.picked else self.rect
        return r if self.clip_x is None else Rect(r.x, r.y, self.clip_x - r.x, r.h)

    def hit_test(self, x: float, y: float) -> Element | None:
        """Hit where the card is drawn (the picked card's raised place)."""
        r = self.rect.moved(0, 4) if self.picked else self.rect
        return self if self.visible and r.contains(x, y) else None

    def paint_self(self, p: Painter, z: int) -> None:
        """The card face, its highlight (picked, the keyboard's cursor) and the bonus tag."""
        from .card_face import paint_card

        ctl, c = self.ctl, self.cid
        picked = self.picked
        r = self.rect.moved(0, 4) if picked else self.rect
        x, y, cw, ch = r.x, r.y, r.w, r.h
        cursor = ctl.card_cursor is not None and ctl.card_cursor == self.index and ctl.state.phase != "setup"
        defn = card(c) if self.is_unit else cards().command_or_event(c)
        edge = theme.ACTIVE if picked else theme.FOCUS if cursor else None
        paint_card(p, defn, x, y, cw, ch, edge=edge, rules=cards().rules, clip_x=self.clip_x)
        if picked:
            p.frame(x - 1, y - 1, x + cw + 1, y + ch + 1, 2.5, theme.ACTIVE)
        if ctl.bonus == c:
            p.text("+1 bonus", (self.clip_x if self.clip_x is not None else x + cw) - 6, y + 8, 10.0, theme.ERROR,
                   ax="right", style="bold")  # fmt: skip
        p.widget(x, y, cw, ch, partial(ctl.click, c), self.tip)

    def on_press(self, x: float, y: float, button: int, modifiers: int) -> bool:
        """Pick the card (or put it back)."""
        self.ctl.click(self.cid)
        return True


class HandStrip(TablePanel):
    """The viewer's hand as cards (:class:`HandCard` children: side by side, in rows when the
    strip is high enough, fanned only when narrower than 110 points) and the other seats'
    hands as counts (hot-seat hides them, R12.1); a spectator sees no hand."""

    name = "hand"

    def __init__(self) -> None:
        super().__init__()
        #: the other seats' counts' room at the right (points; setup: left of the picker)
        self.others_w: float | None = None

    def layout(self, rect: Rect) -> None:
        """Place the hand's cards in ``rect``."""
        self.rect = r = rect
        self.children = []
        v, root = self.v, self.root
        # setup: the picker covers the left of the strip, the counts go right of it
        self.others_w = root.lw - 20 if v.phase == "setup" and root.lw else None
        if v.seat is None:
            return
        hand = list(v.hand_units) + list(v.hand_commands)
        if not hand:
            return
        per_row, cw, n_rows = card_places(len(hand), r.w - 20, r.h - 32, hand_card_h(v))
        ch = (r.h - 32 - 8 * (n_rows - 1)) / n_rows
        step = cw + 10 if per_row * (cw + 10) - 10 <= r.w - 20 else (r.w - 20 - cw) / max(1, per_row - 1)
        for i, c in enumerate(hand):
            row, col = divmod(i, per_row)
            x = r.x + 10 + col * step
            y = r.y + 4 + (n_rows - 1 - row) * (ch + 8)
            covered = step < cw + 10 and col < per_row - 1 and i < len(hand) - 1  # fanned: the next covers it
            self.add(HandCard(c, i, Rect(x, y, cw, ch), c in v.hand_units, x + step - 3 if covered else None))

    def paint_self(self, p: Painter, z: int) -> None:
        """The strip, its title and the other seats' counts (the cards are the children)."""
        v, r = self.v, self.rect
        p.rect(r.x, r.y, r.x1, r.y1, theme.PANEL)
        if v.seat is None:
            p.text("spectator: no hand shown", r.x + 10, r.y1 - 14, 12.0, theme.DIM)
            return
        p.text(f"{v.seat}'s hand (Reserves deck {v.reserves.get(v.seat, 0)})", r.x + 10, r.y1 - 12, 11.0,
               theme.DIM, style="bold")  # fmt: skip
        others = "   ".join(
            f"{s}: {n} unit, {m} Command (hidden), Reserves {v.reserves.get(s, 0)}"
            for s, (n, m) in v.hand_counts.items()
            if s != v.seat
        )
        room = r.w * 0.62 if self.others_w is None else self.others_w
        p.text(ellipsize(p.atlas, others, room, 10.0), r.x1 - 10, r.y1 - 12, 10.0, theme.FAINT, ax="right")


class EventsNote(TablePanel):
    """The Event cards in play, one line over the bottom edge of the own Rear Line."""

    name = "events"

    def paint_self(self, p: Painter, z: int) -> None:
        """Name the events (squeezed to the table's width), if any."""
        v, r = self.v, self.rect
        if v.events:
            p.text("Events: " + ", ".join(v.events), r.x, r.y + 7, 10.0, theme.ROLL, max_width=r.w)

    def hit_test(self, x: float, y: float) -> Element | None:
        """Never: a click goes to the line under the note."""
        return None
