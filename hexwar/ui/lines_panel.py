"""The card table's side panel and overlays (R11.1) as widgets of its
:class:`~hexwar.ui.lines_layout.TableLayout` (issue 34): the :class:`SidePanel` with the phase's
action buttons (toolkit :class:`~hexwar.ui.widgets.Button` s, :mod:`hexwar.ui.lines_actions`),
the exact odds before declaring as labelled bars (:func:`hexwar.ui.widgets.odds.paint_odds_bars`,
the hex window's rows), the selected card's text, the Command-card bonus offer and the log with
every roll; the keys' :class:`HelpOverlay`, the :class:`SetupPicker` of the starting hand (000)
with its :class:`ReserveCard` s, and the hot-seat :class:`PassScreen`.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from ..lines.rules import card, cards
from ..lines.table import SHORTCUTS, TableController
from ..lines.view import SeatView
from .lines_actions import button_widgets
from .lines_rows import SIDE_COL, TablePanel
from .widgets import Button, Element, Painter, Rect, theme, wrap, wrap_lines
from .widgets.odds import paint_odds_bars
from .widgets.text import ellipsize

__all__ = [
    "SidePanel",
    "SideInfo",
    "HelpOverlay",
    "SetupPicker",
    "ReserveCard",
    "PassScreen",
    "paint_side_info",
    "paint_help",
    "command_text",
]


class SidePanel(TablePanel):
    """The right-hand panel of the table: the phase's buttons (:class:`~hexwar.ui.widgets.Button`
    children, arranged on each paint: their labels are the phase's), then a :class:`SideInfo`
    below them; the replay viewer's table has none."""

    name = "side panel"

    def arrange(self, p: Painter) -> None:
        """Lay the phase's buttons out along the panel's top (one highlighted: what Enter /
        Space does) and give the info the room below them."""
        r = self.rect
        buttons, y = button_widgets(p, self.ctl, Rect(r.x + 8, r.y, r.w - 16, r.h - 8))
        self.children = []
        for b in buttons:
            self.add(b)
        self.add(SideInfo()).layout(Rect(r.x, r.y, r.w, max(0.0, y - r.y)))

    def paint(self, p: Painter, z: int = 0) -> None:
        """The panel's ground, its buttons and its info."""
        self.arrange(p)
        super().paint(p, z)

    def paint_self(self, p: Painter, z: int) -> None:
        """The panel's ground."""
        r = self.rect
        p.rect(r.x, r.y, r.x1, r.y1, theme.PANEL)


class SideInfo(TablePanel):
    """The side panel below its buttons: odds, selected card, Damage cards, bonus, log."""

    name = "side info"

    def paint_self(self, p: Painter, z: int) -> None:
        """Through :func:`paint_side_info` (the status message only when the prompt bar cut it)."""
        bar = self.root.find_panel("prompt")
        paint_side_info(p, self.ctl, self.v, self.rect, message=getattr(bar, "message_cut", True))


def paint_side_info(p: Painter, ctl: TableController, v: SeatView, r: Rect, message: bool = True) -> None:
    """The side panel's text in ``r`` (points, y up) from its top down: the exact odds of the
    declaration being made as bars (R6), the selected hand card's text, the full effect of the
    selected unit's and the target's Damage cards (R6.6), the Command-card bonus (R1.3) and the
    log, newest at the bottom, as many lines as fit; the selected card's texts take the lines
    that fit above the bonus, the last ending with "…" when cut (fresh-user pass 2, item 6: at
    800x600 they ran below the panel, cut mid-sentence, and the bonus heading was lost).
    ``message``: also the status message (the prompt bar shows it unless it cut it)."""

    def say(s: str, y: float, size: float, colour: Any, style: str = "regular") -> None:
        if y - 0.36 * size >= r.y:  # the text's box (its cap height about y) stays in the panel
            p.text(s, r.x + 8, y, size, colour, style=style)

    def fit(y: float, most: int, reserve: float = 45.0) -> int:
        """Lines of 13 points that fit below ``y`` leaving ``reserve`` points for the bonus
        heading and its line (at most ``most``; a text cut to them ends with "…")."""
        return max(1, min(most, int((y - r.y - reserve) // 13)))

    def bars(o: Any, y: float) -> float:
        """The hex window's labelled bars (R6) from ``y`` down, when they fit in ``r``."""
        from .widgets.odds import odds_bars_height

        if y - 8 - odds_bars_height(10.5) < r.y:
            return y
        return paint_odds_bars(p, o, r.x + 8, r.x1 - 8, y - 8, 10.5) + 8

    y = r.y1 - 10
    res = ctl.resolution_odds()
    if res is not None:  # the attack R resolves now, with the offered bonus (R6, R1.3)
        n, o = res
        say(ellipsize(p.atlas, f"Odds of attack #{n} (exact; R resolves it)", r.w - 16, 11.0, "bold"), y, 11.0,
            theme.DIM, "bold")  # fmt: skip
        y = bars(o, y)
    else:
        say("Odds before declaring (exact)", y, 11.0, theme.DIM, "bold")
        o = ctl.attack_odds()
        if o is not None:  # the hex window's labelled bars (R6)
            y = bars(o, y)
        else:
            odds = ctl.odds() or (
                "select your unit, then an enemy target"
                if v.phase == "declaration"
                else ctl.resolution_note()
                if v.phase == "resolution"
                else "shown in the Declaration phase, for the attack being declared"
            )
            for ln in wrap_lines(p.atlas, odds, r.w - 16, 10.5, 3):
                y -= 15
                say(ln, y, 10.5, theme.ROLL)
    if ctl.target and ctl.selected in ctl.state.units:
        ws = card(ctl.selected).weapons
        chosen = (
            ", ".join(f"{i + 1}. {ws[i].name}" for i in ctl.weapons if i < len(ws))
            or "none (1 / 2 / 3 choose)"
        )
        y -= 15
        say(ellipsize(p.atlas, f"weapons: {chosen}", r.w - 16, 10.0), y, 10.0, theme.TEXT)
    ca = ctl.close_assault_odds()
    if ca is not None:  # the Close Assault A declares (000), its exact odds too
        n_inf = len(getattr(ctl.close_assault_choice(), "units", ()))
        y -= 18
        say(ellipsize(p.atlas, f"Close Assault (A), {n_inf} infantry (exact)", r.w - 16, 11.0, "bold"), y,
            11.0, theme.DIM, "bold")  # fmt: skip
        y = bars(ca, y)
    sel = ctl.selected
    hand = v.hand_units + v.hand_commands
    if sel is not None and sel in ctl.state.units and ctl.target is None:
        # a unit in play: its weapons in full (a squeezed card shows their count only)
        unit = card(sel)
        y -= 22
        say(ellipsize(p.atlas, f"Selected: {unit.name}", r.w - 16, 11.0, "bold"), y, 11.0, theme.DIM, "bold")
        weapons = [ln.strip() for ln in unit.help_text(cards()).split("\n") if ln.startswith("  ")]
        for ln in wrap_lines(p.atlas, "\n".join(weapons), r.w - 16, 10.0, fit(y, 6)):  # "…" when cut
            y -= 13
            say(ln, y, 10.0, theme.TEXT)
    if sel is not None and sel in hand:
        y -= 22
        say("Selected card", y, 11.0, theme.DIM, "bold")
        text = card(sel).help_text(cards()) if sel in v.hand_units else command_text(sel)
        for ln in wrap_lines(p.atlas, text, r.w - 16, 10.0, fit(y, 9)):  # "…" when cut (pass 2, item 6)
            y -= 13
            say(ln, y, 10.0, theme.TEXT)
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
        for ln in wrap_lines(p.atlas, text, r.w - 16, 10.0, fit(y - 8, 4)):
            y -= 13
            say(ln, y, 10.0, theme.ERROR)
    y -= 22
    say("Command-card bonus (B)", y, 11.0, theme.DIM, "bold")
    y -= 15
    bonus = (
        f"+1 on the next to-hit roll: {cards().command_or_event(ctl.bonus).title}"
        if ctl.bonus
        else "none offered; B picks a Command card to discard for +1"
    )
    for i, ln in enumerate(wrap_lines(p.atlas, bonus, r.w - 16, 10.0, 2)):
        y -= 13 if i else 0
        say(ln, y, 10.0, theme.TEXT)
    if ctl.message and message:  # the prompt bar shows it; here only when cut there
        for ln in wrap_lines(p.atlas, ctl.message, r.w - 16, 10.0, 3):
            y -= 14
            say(ln, y, 10.0, theme.ERROR)
    y -= 22
    say("Log (every roll)", y, 11.0, theme.DIM, "bold")
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
        say(ln, y, 10.0, theme.ROLL if roll else theme.TEXT)


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


class HelpOverlay(TablePanel):
    """The keys' help (``H`` / ``F1``) over the whole table; clicks go through it to the table."""

    name = "help"

    def paint(self, p: Painter, z: int = 0) -> None:
        """Through :func:`paint_help`, while the controller shows help."""
        if self.ctl.help:
            paint_help(p, self.rect)

    def hit_test(self, x: float, y: float) -> Element | None:
        """Never: the help box is not clickable."""
        return None


class ReserveCard(TablePanel):
    """A card of the seat's Reserves deck in the setup picker (000): its name, type and cost,
    the crew it needs; a click puts it into the starting hand or takes it back.

    Args:
        cid: the card's id; rect: where it lies (points).
    """

    def __init__(self, cid: str, rect: Rect) -> None:
        super().__init__(tip=f"reserve {cid}")
        self.cid = cid
        self.rect = rect

    def paint_self(self, p: Painter, z: int) -> None:
        """The card (its side's band), the ``in hand`` mark, the keyboard's cursor frame."""
        ctl, c = self.ctl, self.cid
        x, y, w, h = self.rect.x, self.rect.y, self.rect.w, self.rect.h
        u = card(c)
        picked = c in ctl.picks
        p.rect(x, y, x + w, y + h, theme.PARCHMENT, z)
        p.rect(x, y + h - 18, x + w, y + h, SIDE_COL[u.side], z)
        p.text(ellipsize(p.atlas, u.name, w - 10, 10.5, "bold"), x + 5, y + h - 9, 10.5, theme.TEXT, style="bold",
               z=z)  # fmt: skip
        p.text(ellipsize(p.atlas, f"{u.unit_type.replace('_', ' ')}, cost {u.cost}", w - 10, 10.0), x + 5,
               y + h - 29, 10.0, theme.DARK, z=z)  # fmt: skip
        crew = "" if u.is_crew or u.crew == "none" else f"needs {u.crew.replace('_', ' ')}"
        p.text(ellipsize(p.atlas, crew, w - 10 - (52 if picked else 0), 10.0), x + 5, y + h - 44, 10.0, theme.DARK,
               z=z)  # fmt: skip
        if picked:
            p.frame(x - 2, y - 2, x + w + 2, y + h + 2, 3.0, theme.ACTIVE, z)
            p.text("in hand", x + w - 5, y + h - 44, 10.0, (150, 90, 0, 255), ax="right", style="bold", z=z)
        if ctl.card_cursor is not None and self.index == ctl.card_cursor:
            p.frame(x - 4, y - 4, x + w + 4, y + h + 4, 2.0, theme.FOCUS, z)  # the keyboard's cursor
        p.widget(x, y, w, h, partial(ctl.click, c), self.tip, z)

    @property
    def index(self) -> int:
        """The card's place in the whole deck (the keyboard's cursor counts it)."""
        picker = self.parent
        assert isinstance(picker, SetupPicker)
        return picker.start + picker.children.index(self) - picker.n_buttons

    def on_press(self, x: float, y: float, button: int, modifiers: int) -> bool:
        """Put the card into the starting hand, or take it back."""
        self.ctl.click(self.cid)
        return True


class SetupPicker(TablePanel):
    """000 setup: the seat's Reserves deck as :class:`ReserveCard` s to click for the starting
    hand, in pages (``< Previous`` / ``Next >`` buttons, or the hand cursor ``[`` / ``]``) when
    more cards than fit; shown over the (empty) hand and the own Rear Line while a person
    picks. Its cards are arranged on each paint (the deck and the page are the game's)."""

    name = "setup"

    W, H, GAP = 132.0, 56.0, 6.0

    def __init__(self) -> None:
        super().__init__()
        self.start = 0
        self.n_buttons = 0
        self.title_w = 0.0
        self.pager = ""

    def active(self) -> bool:
        """A person picks a starting hand now (not behind the hand-over screen)."""
        ctl = self.ctl
        return bool(
            self.v.phase == "setup"
            and ctl.state.to_act is not None
            and ctl.human_to_act()
            and not ctl.passing
        )

    def arrange(self, p: Painter) -> None:
        """The page of the deck shown, its cards and the pager's buttons."""
        ctl, r = self.ctl, self.rect
        st = ctl.state
        w, h, gap = self.W, self.H, self.GAP
        per_row = max(1, int((r.w - 24 + gap) // (w + gap)))
        rows_fit = max(1, int((r.h - 28 - 4 + gap) // (h + gap)))
        deck = ctl.hand_choices() or sorted(st.reserves.get(st.to_act, []))
        cap = per_row * rows_fit
        self.children = []
        self.start, self.title_w, self.pager = 0, r.w - 24, ""
        if len(deck) > cap:  # more cards than fit: pages, followed by the hand cursor ([ / ]) or the buttons
            self.start = start = ((ctl.card_cursor or 0) // cap) * cap
            last = min(len(deck), start + cap)
            self.pager = f"{start + 1}-{last} of {len(deck)}"
            bx = r.x1 - 12 - 2 * 92 - 6
            self.title_w = bx - 20 - p.measure(self.pager, 11.0, "bold") - r.x - 24
            prev = Button("< Previous", partial(ctl.step_card, -cap) if start else None, tip="reserves previous",
                          size=11.0)  # fmt: skip
            prev.enabled = start > 0
            nxt = Button("Next >", partial(ctl.step_card, cap) if last < len(deck) else None, tip="reserves next",
                         size=11.0)  # fmt: skip
            nxt.enabled = last < len(deck)
            self.add(prev).layout(Rect(bx, r.y1 - 25, 92, 22))
            self.add(nxt).layout(Rect(bx + 98, r.y1 - 25, 92, 22))
        self.n_buttons = len(self.children)
        for i, c in enumerate(deck[self.start : self.start + cap]):
            x = r.x + 12 + (i % per_row) * (w + gap)
            y = r.y1 - 28 - h - (i // per_row) * (h + gap)
            self.add(ReserveCard(c, Rect(x, y, w, h)))

    def paint(self, p: Painter, z: int = 0) -> None:
        """On level 1: the ground, the pager, its buttons, the title, the cards."""
        if not self.active():
            self.children = []
            return
        self.arrange(p)
        z, r = 1, self.rect
        p.rect(r.x, r.y, r.x1, r.y1, (41, 44, 49, 255), z)
        if self.pager:
            bx = r.x1 - 12 - 2 * 92 - 6
            p.text(self.pager, bx - 10, r.y1 - 14, 11.0, theme.TEXT, ax="right", style="bold", z=z)
        for b in self.children[: self.n_buttons]:
            b.paint(p, z)
        title = f"{self.ctl.state.to_act}: your Reserves deck - pick the starting hand (Enter takes it)"
        p.text(ellipsize(p.atlas, title, self.title_w, 12.0, "bold"), r.x + 12, r.y1 - 14, 12.0, theme.ACTIVE,
               style="bold", z=z)  # fmt: skip
        for c in self.children[self.n_buttons :]:
            c.paint(p, z)

    def hit_test(self, x: float, y: float) -> Element | None:
        """While picking: a card or a button under ``(x, y)``, else the picker itself (it
        covers the hand and the own Rear Line)."""
        return super().hit_test(x, y) if self.children else None


class PassScreen(TablePanel):
    """Hot-seat hand-over: hands hidden until the next person takes the seat (its button, or
    Enter); modal while shown (a click beside the button does nothing)."""

    name = "pass"

    def __init__(self) -> None:
        super().__init__()
        self.take = Button("", None, primary=True, align="center")
        self.add(self.take)

    def layout(self, rect: Rect) -> None:
        """The shade over everything under the prompt, its button in the middle."""
        self.rect = r = rect
        self.take.layout(Rect(r.x + r.w / 2 - 140, r.y + r.h / 2 - 56, 280, 36))

    def paint(self, p: Painter, z: int = 0) -> None:
        """On level 2, while a seat is being handed over."""
        ctl = self.ctl
        if not ctl.passing:
            return
        seat = ctl.passing or ""
        r = self.rect
        p.rect(r.x, r.y, r.x1, r.y1, (20, 22, 26, 245), 2)
        p.widget(r.x, r.y, r.w, r.h, None, "modal", 2)  # inert: nothing under the screen is clicked
        p.text(f"Hand the screen to {seat}", r.x + r.w / 2, r.y + r.h / 2 + 40, 24.0, theme.ACTIVE, ax="center",
               style="bold", z=2)  # fmt: skip
        p.text("Hands are hidden until the next player is looking.", r.x + r.w / 2, r.y + r.h / 2 + 6, 13.0,
               theme.DIM, ax="center", z=2)  # fmt: skip
        self.take.label = self.take.tip = f"I am {seat}: show my hand  (Enter)"
        self.take.action = ctl.take_seat
        self.take.paint(p, 2)

    def hit_test(self, x: float, y: float) -> Element | None:
        """While shown: the button, or the screen itself (which eats the click)."""
        return super().hit_test(x, y) if self.ctl.passing else None

    def on_press(self, x: float, y: float, button: int, modifiers: int) -> bool:
        """A click beside the button does nothing, and nothing under the screen gets it."""
        return True
