"""The card-table screen of the lines game (R11.1), built on the widget toolkit
(:mod:`hexwar.ui.widgets`): both sides' Frontlines and Rear Lines as rows of unit cards, aircraft
aloft with their Turns of Flight between them, the viewer's hand (the other seats' hands as
counts: hot-seat hides them), deck and discard counts, Damage cards under their units with the
effect for the unit's type, declaration arrows, the exact odds panel before declaring, the
Command-card bonus offer, the combat log with every roll, and the hex screen's shortcuts and
help overlay (:data:`hexwar.lines.table.SHORTCUTS`).

Decisions are the :class:`~hexwar.lines.table.TableController`'s; this module only lays out and
paints into a :class:`~hexwar.ui.widgets.Painter` (:func:`paint_table`, testable headless with
any measuring atlas), and the window routes pyglet events to the controller.
``hexwar render lines --screen play --out F.png`` draws it headless
(:func:`hexwar.ui.lines_render.table_image`).
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

from ..lines.rules import card, cards
from ..lines.table import TABLE_KEYS, TableController
from ..lines.view import SeatView, UnitView
from .lines_panel import paint_help, paint_pass_screen, paint_setup_pick, paint_side_panel
from .widgets import Painter, Rect, theme, top_hit
from .widgets.text import ellipsize

__all__ = ["paint_table", "LinesWindow", "run", "CARD_W", "CARD_H"]

CARD_W, CARD_H = 236.0, 120.0
LOG_W = 360.0
TOP_H, PROMPT_H, HAND_H = 34.0, 28.0, 112.0
SIDE_COL = {"german": (96, 124, 170, 255), "soviet": (200, 70, 60, 255)}
TABLE_BG = (38, 52, 40, 255)
LINE_BG = (46, 62, 48, 255)


def _unit_card(
    p: Painter,
    ctl: TableController,
    u: UnitView,
    x: float,
    y: float,
    centres: dict[str, tuple],
    w: float = CARD_W,
    h: float = CARD_H,
    clip_x: float | None = None,
) -> None:
    """One unit on the table drawn as its card (:func:`hexwar.ui.card_face.paint_unit_card`):
    the printed face with its armament table, the current Endurance, crew and Damage card."""
    from .card_face import paint_unit_card

    sel = ctl.selected == u.uid
    tgt = ctl.target == u.uid
    edge = theme.ACTIVE if sel else theme.ERROR if tgt else None
    paint_unit_card(p, card(u.uid), x, y, w, h, in_play=in_play_of(u), edge=edge, clip_x=clip_x)
    right = x + w if clip_x is None else min(x + w, clip_x)  # a fanned card's visible part
    if u.captured:
        p.text("captured", right - 6, y + h - 32, 10.0, theme.ERROR, ax="right", style="bold")
    if "-" in u.seat:  # 4 players: whose card it is (Frontline or Support Commander)
        p.text(u.seat.split("-", 1)[1], right - 6, y + h - 46, 10.0, (90, 80, 60, 255), ax="right")
    if sel or tgt:
        p.frame(x - 2, y - 2, x + w + 2, y + h + 2, 2.5, theme.ACTIVE if sel else theme.ERROR)
    p.widget(x, y, w, h, partial(ctl.click, u.uid), f"unit {u.uid}")
    centres[u.uid] = (x + w / 2, y + h / 2)


def _row(
    p: Painter,
    ctl: TableController,
    label: str,
    units: tuple[UnitView, ...],
    r: Rect,
    centres: dict[str, tuple],
    line: str | None = None,
) -> None:
    from .card_face import unit_card_height

    p.rect(r.x, r.y, r.x1, r.y1, LINE_BG)
    if line is not None:  # one of the viewer's own lines: a click commits the selected hand card there
        p.widget(r.x, r.y, r.w, r.h, partial(ctl.commit_to, line), f"line {line}")
    p.text(
        ellipsize(p.atlas, label, r.w - 12, 10.0, "bold"), r.x + 6, r.y1 - 9, 10.0, theme.DIM, style="bold"
    )
    if not units:
        return
    room = r.h - 24
    h_need = max(unit_card_height(card(u.uid), in_play=True) + (26 if u.damage else 0) for u in units)
    per_row, cw, n_rows = card_places(len(units), r.w - 20, room, h_need)
    h = max(40.0, min(h_need, (room - 8 * (n_rows - 1)) / n_rows))
    step = cw + 10 if per_row * (cw + 10) - 10 <= r.w - 20 else (r.w - 20 - cw) / max(1, per_row - 1)
    for i, u in enumerate(units):
        row, col = divmod(i, per_row)
        x = r.x + 10 + col * step
        covered = step < cw + 10 and col < per_row - 1 and i < len(units) - 1  # fanned: the next covers it
        _unit_card(
            p, ctl, u, x, r.y1 - 20 - h - row * (h + 8), centres, cw, h, x + step - 3 if covered else None
        )


def card_places(n: int, width: float, height: float, card_h: float) -> tuple[int, float, int]:
    """How ``n`` cards of height ``card_h`` sit in ``width`` x ``height`` points: side by side
    at up to :data:`CARD_W` (a gap of 10), narrowed to 170 points (every part of the card
    shows); when that is not enough, in two or more rows if their full height fits; else in one
    row narrowed down to 110 points (header, line and Endurance show); only past that do they
    fan out, overlapping.

    Returns:
        ``(cards per row, card width, rows)``.
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


#: Height in points of an empty line's strip.
EMPTY_ROW = 34.0


def _row_need(units: tuple[UnitView, ...], width: float = 1e9) -> float:
    """Points a line needs to show its cards whole (label and margins included) in ``width``
    points of cards (in rows of cards at least 170 points wide, :func:`card_places`); an empty
    line: :data:`EMPTY_ROW`."""
    from .card_face import unit_card_height

    if not units:
        return EMPTY_ROW
    h = max(unit_card_height(card(u.uid), in_play=True) + (26 if u.damage else 0) for u in units)
    rows = -(-len(units) // max(1, int((width + 10) // 180.0)))
    return 24.0 + rows * h + (rows - 1) * 8


def _hand_card_h(v: SeatView) -> float:
    """The height a hand card needs to show whole (a Command card: band, title, five lines of
    text and its phase; a unit card: its armament rows)."""
    from .card_face import unit_card_height

    need = 126.0 if v.hand_commands else 0.0
    for c in v.hand_units:
        need = max(need, unit_card_height(card(c)))
    return need


def _hand_need(v: SeatView, width: float = 1e9) -> float:
    """Points the hand's strip needs to show its cards whole in ``width`` points (in rows of
    cards at least 170 points wide, :func:`card_places`), at least :data:`HAND_H`."""
    n = len(v.hand_units) + len(v.hand_commands)
    if v.seat is None or not n:
        return HAND_H
    rows = -(-n // max(1, int((width + 10) // 180.0)))
    return max(HAND_H, 28.0 + 4.0 + rows * _hand_card_h(v) + (rows - 1) * 8)


def _row_heights(needs: list[float], total: float, hand_need: float = HAND_H) -> tuple[list[float], float]:
    """Heights of the table's rows and of the hand (points) in ``total + HAND_H`` points.

    When every line's cards fit whole (``needs``, from :func:`_row_need`), each line gets its
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


def _arrow(
    p: Painter,
    a: tuple[float, float],
    b: tuple[float, float],
    colour: tuple[int, int, int, int],
    shift: float = 0.0,
) -> None:
    """An attack arrow from card centre ``a`` to card centre ``b``, from edge to edge, moved
    ``shift`` points to its left (two attacks between the same cards in opposite directions
    stay two arrows)."""
    import math

    if shift:
        d = math.hypot(b[0] - a[0], b[1] - a[1]) or 1.0
        nx, ny = -(b[1] - a[1]) / d * shift, (b[0] - a[0]) / d * shift
        a, b = (a[0] + nx, a[1] + ny), (b[0] + nx, b[1] + ny)

    def edge(c: tuple[float, float], d: tuple[float, float]) -> tuple[float, float]:
        """Where the segment from card centre ``c`` towards ``d`` leaves the card."""
        dx, dy = d[0] - c[0], d[1] - c[1]
        t = min((CARD_W / 2) / abs(dx) if dx else math.inf, (CARD_H / 2) / abs(dy) if dy else math.inf, 1.0)
        return c[0] + dx * t, c[1] + dy * t

    a, b = edge(a, b), edge(b, a)
    p.line(a[0], a[1], b[0], b[1], 2.5, colour, 1)
    ang = math.atan2(b[1] - a[1], b[0] - a[0])
    for d in (2.6, -2.6):
        p.line(
            b[0], b[1], b[0] - 12 * math.cos(ang + d / 6), b[1] - 12 * math.sin(ang + d / 6), 2.5, colour, 1
        )


def _hand(p: Painter, ctl: TableController, v: SeatView, r: Rect, others_w: float | None = None) -> None:
    """The viewer's hand as cards (fanned only when narrower than 110 points) and the other
    seats' hands as counts (in ``others_w`` points at the right; default 62% of the strip)."""
    p.rect(r.x, r.y, r.x1, r.y1, theme.PANEL)
    if v.seat is None:
        p.text("spectator: no hand shown", r.x + 10, r.y1 - 14, 12.0, theme.DIM)
        return
    p.text(
        f"{v.seat}'s hand (Reserves deck {v.reserves.get(v.seat, 0)})",
        r.x + 10,
        r.y1 - 12,
        11.0,
        theme.DIM,
        style="bold",
    )
    others = "   ".join(
        f"{s}: {n} unit, {m} Command (hidden), Reserves {v.reserves.get(s, 0)}"
        for s, (n, m) in v.hand_counts.items()
        if s != v.seat
    )
    room = r.w * 0.62 if others_w is None else others_w
    p.text(ellipsize(p.atlas, others, room, 10.0), r.x1 - 10, r.y1 - 12, 10.0, theme.FAINT, ax="right")
    from .card_face import paint_card

    hand = list(v.hand_units) + list(v.hand_commands)
    if not hand:
        return
    # the hand's cards drawn as cards (card_face): side by side, in rows when the strip is high
    # enough, fanned only as a last resort (card_places)
    per_row, cw, n_rows = card_places(len(hand), r.w - 20, r.h - 32, _hand_card_h(v))
    ch = (r.h - 32 - 8 * (n_rows - 1)) / n_rows
    step = cw + 10 if per_row * (cw + 10) - 10 <= r.w - 20 else (r.w - 20 - cw) / max(1, per_row - 1)
    for i, c in enumerate(hand):
        row, col = divmod(i, per_row)
        x = r.x + 10 + col * step
        picked = ctl.selected == c
        cursor = ctl.card_cursor is not None and ctl.card_cursor == i and ctl.state.phase != "setup"
        y = r.y + 4 + (n_rows - 1 - row) * (ch + 8) + (4 if picked else 0)
        is_unit = c in v.hand_units
        defn = card(c) if is_unit else cards().command_or_event(c)
        edge = theme.ACTIVE if picked else theme.FOCUS if cursor else None
        covered = step < cw + 10 and col < per_row - 1 and i < len(hand) - 1  # fanned: the next covers it
        paint_card(
            p, defn, x, y, cw, ch, edge=edge, rules=cards().rules, clip_x=x + step - 3 if covered else None
        )
        if picked:
            p.frame(x - 1, y - 1, x + cw + 1, y + ch + 1, 2.5, theme.ACTIVE)
        if ctl.bonus == c:
            p.text("+1 bonus", (x + step - 3 if covered else x + cw) - 6, y + 8, 10.0, theme.ERROR, ax="right",
                   style="bold")  # fmt: skip
        p.widget(x, y, cw, ch, partial(ctl.click, c), f"card {c}")


def paint_table(
    p: Painter, ctl: TableController, width: float, height: float, side_panel: bool = True
) -> dict[str, tuple[float, float]]:
    """Paint the whole card table for ``ctl``'s viewer into ``p`` (screen points, y up);
    ``side_panel=False`` leaves out the buttons, odds and log column (the replay viewer has its
    own), the lines taking the whole width.

    Returns:
        the centre point of every unit card drawn (for arrows and tests).
    """
    v = ctl.view()
    full = Rect(0, 0, width, height)
    p.rect(0, 0, width, height, TABLE_BG)
    me = ctl.side() or "german"
    them = "soviet" if me == "german" else "german"
    rows_ = [(them, "rear"), (them, "front"), (None, "air"), (me, "front"), (me, "rear")]
    units_ = [
        v.lines[them]["air"] + v.lines[me]["air"] if side is None else v.lines[side][ln] for side, ln in rows_
    ]
    room = full.h - TOP_H - PROMPT_H
    lw = min(LOG_W, max(240.0, width * 0.3)) if side_panel else 0.0  # narrow: room for two cards a line
    cards_w = width - lw - 12 - 20  # a line's room for cards
    needs = [_row_need(us, cards_w) for us in units_]
    heights, hand_h = _row_heights(needs, room - HAND_H, _hand_need(v, width - 20))
    top, prompt, mid, hand = _split(full, hand_h)
    table, log = Rect(mid.x, mid.y, mid.w - lw, mid.h), Rect(mid.x1 - lw, mid.y, lw, mid.h)
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
    p.text(ellipsize(p.atlas, head, width - dw - 40, 12.5, "bold"), 10, top.y + top.h / 2, 12.5, theme.TEXT,
           style="bold")  # fmt: skip
    p.text(decks, width - 10, top.y + top.h / 2, 10.5, theme.DIM, ax="right")
    p.rect(prompt.x, prompt.y, prompt.x1, prompt.y1, (60, 52, 30, 255))
    p.text(ellipsize(p.atlas, ctl.prompt(), width - 20, 12.0, "bold"), 10, prompt.y + prompt.h / 2, 12.0,
           theme.ACTIVE, style="bold")  # fmt: skip
    hs = heights[-1]  # the own Rear Line's height (the setup picker covers it)
    centres: dict[str, tuple[float, float]] = {}
    top_y = table.y1
    for i, (side, ln) in enumerate(rows_):
        r = Rect(table.x + 6, top_y - heights[i] + 3, table.w - 12, heights[i] - 6)
        top_y -= heights[i]
        if side is None:
            air = v.lines[them]["air"] + v.lines[me]["air"]
            _row(
                p,
                ctl,
                "aircraft aloft (no line): " + ", ".join(f"{u.name} {u.flight_turns} ToF" for u in air)
                if air
                else "aircraft aloft: none",
                air,
                r,
                centres,
            )
        else:
            label = f"{side} {'Frontline' if ln == 'front' else 'Rear Line'}"
            _row(p, ctl, label, v.lines[side][ln], r, centres, ln if side == me else None)
    for a in v.attacks:  # declaration arrows: a resolved attack's arrow is gone (its result is in the log)
        src = [centres[x] for x in a.attackers if x in centres]
        if not src or a.target not in centres or a.resolved:
            continue
        colour = SIDE_COL[a.seat.split("-")[0]][:3] + (235,)
        for s in src:
            _arrow(p, s, centres[a.target], colour, 5.0)  # type: ignore[arg-type]
    if ctl.selected in centres and ctl.target in centres:
        _arrow(p, centres[ctl.selected], centres[ctl.target], theme.ACTIVE)
    if side_panel:
        paint_side_panel(p, ctl, v, log)
    _hand(
        p, ctl, v, hand, lw - 20 if v.phase == "setup" and lw else None
    )  # setup: the picker covers the rest
    if v.events:
        p.text(
            "Events: " + ", ".join(v.events),
            table.x + 10,
            hand.y1 + 8,
            10.0,
            theme.ROLL,
            max_width=table.w - 20,
        )
    if v.phase == "setup":  # over the (empty) hand and the own Rear Line: the starting units stay in view
        paint_setup_pick(p, ctl, Rect(0, 0, table.x1, hand.h + hs))
    if ctl.passing:
        paint_pass_screen(p, ctl, Rect(0, 0, width, prompt.y))
    if ctl.help:
        paint_help(p, full)
    return centres


def _split(full: Rect, hand_h: float = HAND_H) -> tuple[Rect, Rect, Rect, Rect]:
    """The top bar, the prompt, the middle (lines and side panel) and the hand's strip."""
    top = Rect(full.x, full.y1 - TOP_H, full.w, TOP_H)
    prompt = Rect(full.x, top.y - PROMPT_H, full.w, PROMPT_H)
    hand = Rect(full.x, full.y, full.w, hand_h)
    mid = Rect(full.x, full.y + hand_h, full.w, full.h - TOP_H - PROMPT_H - hand_h)
    return top, prompt, mid, hand


class _Camera:
    def __init__(self, w: float, h: float, pr: float) -> None:
        self.viewport = (float(w), float(h))
        self.pixel_ratio = pr

    @property
    def framebuffer_size(self) -> tuple[int, int]:
        return int(round(self.viewport[0] * self.pixel_ratio)), int(
            round(self.viewport[1] * self.pixel_ratio)
        )


class _TableView:
    """What :func:`hexwar.render.offscreen.render_view` needs of a view: the table's batch."""

    def __init__(self, window: Any, ctl: TableController | None, w: float, h: float, pr: float) -> None:
        import pyglet

        from ..render.looks import default_looks
        from ..render.text import glyph_atlas
        from .widgets import UiLayer

        self.window = window
        self.ctl = ctl
        self.looks = default_looks()
        self.camera = _Camera(w, h, pr)
        self.batch = pyglet.graphics.Batch()
        self.atlas = glyph_atlas()
        self.ui = UiLayer(window, self.batch, self.atlas)
        self.painter: Painter | None = None
        #: painted above the table (the window's quit question), ``(painter, w, h) -> None``
        self.overlay: Any = None

    def resize(self, w: float, h: float, pixel_ratio: float | None = None) -> None:
        self.camera = _Camera(w, h, pixel_ratio or self.camera.pixel_ratio)

    def refresh(self, mouse: tuple[float, float] = (-1.0, -1.0)) -> Painter:
        p = Painter(self.atlas, mouse)
        if self.ctl is not None:
            paint_table(p, self.ctl, *self.camera.viewport)
        if self.overlay is not None:
            self.overlay(p, *self.camera.viewport)
        self.ui.show(p)
        self.painter = p
        return p

    def draw(self, exact: bool = False) -> None:
        self.refresh()
        self.batch.draw()


def in_play_of(u: UnitView) -> Any:
    """The :class:`~hexwar.ui.card_face.InPlay` facts of a unit on the table (its view)."""
    from .card_face import InPlay

    extra = ", ".join(u.command_cards) if u.command_cards else ""
    return InPlay(u.endurance, u.crew, u.damage, u.flight_turns if u.line == "air" else None, extra)


class LinesWindow:
    """The card-table window: the start page (scenario card, decks, the deck builder) for a new
    game, then the table; pyglet events go to the page's :class:`~hexwar.ui.widgets.Screen` or to
    the :class:`TableController`, painted on every frame.

    Args:
        state: the game to continue, or ``None`` for the start page of ``scenario``.
        ai: computer players by seat (the rest are hot-seat humans) for ``state``.
        save: autosave path (after every End Turn).
        scenario, seed, variants, ai_names: the new game's (with ``state=None``); ``ai_names``:
            seat -> computer player name.
        offer: the last unfinished game of the scenario (a
            :class:`~hexwar.ui.autosave.ResumeOffer`), offered on the start page.
    """

    def __init__(
        self,
        state: Any,
        ai: dict[str, Any] | None = None,
        save: str | None = None,
        width: int = 1400,
        height: int = 900,
        visible: bool = True,
        scenario: Any = None,
        seed: int | None = None,
        variants: tuple[str, ...] | None = None,
        ai_names: dict[str, str] | None = None,
        max_turns: int | None = None,
        offer: Any = None,
    ) -> None:
        import pyglet

        from .lines_start import LinesStart

        sc = state.scenario if state is not None else scenario
        self.window = pyglet.window.Window(
            width, height, caption=f"hexwar lines: {sc.name}", resizable=True, visible=visible
        )
        self.save = save
        self.max_turns = max_turns
        self.ai_names = dict(ai_names or {})
        self.ctl: TableController | None = None
        self.saver: Any = None
        self.view = _TableView(self.window, None, width, height, self.window.get_pixel_ratio())
        self.start: LinesStart | None = None
        self._seen = 0
        self.mouse = (-1.0, -1.0)
        self._eat_text = False
        from .window_base import WindowBehaviour

        #: quit (asking while a game goes on, naming its autosave), Esc, help, title (issue 36)
        self.behaviour = WindowBehaviour(
            "table",
            f"hexwar lines: {sc.name}",
            at_stake=lambda: self.ctl is not None and not self.ctl.state.over,
            autosave=lambda: Path(self.save) if self.save else None,
            close=self._close_for_good,
            save_now=self._save_now,
        )
        self.view.overlay = self._overlay
        if state is None:
            self.start = LinesStart(
                sc,
                self.ai_names,
                self.view.atlas,
                seed,
                variants,
                on_start=self._begin,
                on_quit=self.behaviour.request_quit,
                offer=offer,
                on_resume=self._resume,
            )
            self.start.layout(width, height)
        else:
            self._begin(state, ai or {})
        w = self.window

        @w.event
        def on_draw() -> None:
            w.clear()
            self.draw()

        @w.event
        def on_resize(width: int, height: int) -> None:
            self.view.resize(width, height)
            if self.start is not None:
                self.start.layout(width, height)

        @w.event
        def on_mouse_motion(x: float, y: float, dx: float, dy: float) -> None:
            self.mouse = (x, y)
            if self._page() is not None:
                self._page().mouse_motion(x, y)  # type: ignore[union-attr]

        @w.event
        def on_mouse_press(x: float, y: float, button: int, modifiers: int) -> None:
            page = self._page()
            if page is not None:
                page.mouse_press(x, y, button, modifiers)
            else:
                self.press(x, y)

        @w.event
        def on_mouse_release(x: float, y: float, button: int, modifiers: int) -> None:
            page = self._page()
            if page is not None:
                page.mouse_release(x, y, button, modifiers)

        @w.event
        def on_mouse_scroll(x: float, y: float, sx: float, sy: float) -> None:
            page = self._page()
            if page is not None:
                page.mouse_scroll(x, y, sy)
            elif self.ctl is not None:
                self.ctl.scroll(round(3 * sy))

        @w.event
        def on_key_press(symbol: int, modifiers: int) -> bool:
            return self.key(symbol, modifiers)

        @w.event
        def on_close() -> bool:  # the close button quits like Ctrl+Q (asking while a game goes on)
            self.behaviour.request_quit()
            return True

        @w.event
        def on_text(text: str) -> None:
            page = self._page()
            if page is not None and not self._eat_text:
                page.text(text)

        @w.event
        def on_text_motion(motion: int) -> None:
            page = self._page()
            if page is not None:
                page.text_motion(motion)

        pyglet.clock.schedule_interval(self.tick, 0.25)

    def _stop_eating(self, dt: float = 0.0) -> None:
        self._eat_text = False

    def _page(self) -> Any:
        """The toolkit screen of the start / deck builder page, or ``None`` at the table."""
        return self.start.screen if self.start is not None and self.ctl is None else None

    def _begin(self, state: Any, ai: dict[str, Any] | None = None) -> None:
        """Sit down at the table of ``state`` (players made from :attr:`ai_names` if not given)."""
        from ..game.save import Autosaver
        from ..lines.players import make_lines_player

        if ai is None:
            ai = {s: make_lines_player(n, s, state.seed) for s, n in self.ai_names.items()}
        self.ctl = TableController(state, ai=ai, max_turns=self.max_turns)
        self.view.ctl = self.ctl
        self._seen = len(state.log)  # the autosave reads the events of each action from here on
        self.saver = (
            Autosaver(self.save, {s: getattr(ai.get(s), "name", "human") for s in state.seats})
            if self.save
            else None
        )

    def _resume(self, state: Any, offer: Any) -> None:
        """Continue the offered game at the table: it keeps saving to its own autosave file and
        its computer seats are the ones saved (``"human"`` seats are played here)."""
        from ..lines.players import LINES_PLAYER_NAMES, make_lines_player

        self.save = str(offer.path)
        names = offer.players.items()
        ai = {s: make_lines_player(n, s, state.seed) for s, n in names if n in LINES_PLAYER_NAMES}
        self._begin(state, ai)
        self.behaviour.focus(self.window, self.ctl.focus_text() if self.ctl else "")

    def draw(self) -> None:
        """Paint the page or the table into the window's batch and draw it."""
        page = self._page()
        if page is not None:
            p = Painter(self.view.atlas, self.mouse)
            page.paint(p)
            self.view.ui.show(p)
            self.view.painter = p
        else:
            self.view.refresh(self.mouse)
        self.view.batch.draw()

    def press(self, x: float, y: float) -> None:
        """A click on the table: the top hit box's action."""
        p = self.view.painter or self.view.refresh(self.mouse)
        hit = top_hit(p.widgets, x, y)
        if hit is not None and hit.action is not None:
            hit.action()
        self._after()

    def _overlay(self, p: Painter, width: float, height: float) -> None:
        if self.behaviour.asking:
            from .window_base import paint_quit_question

            paint_quit_question(p, width, height, self.behaviour)

    def _save_now(self) -> str | None:
        """The game's last save before closing (when it has a save file); an error or None."""
        if self.ctl is None or self.saver is None:
            return None
        from ..errors import HexwarError
        from ..game.save import write_save

        try:
            write_save(self.ctl.state, self.saver.path, self.saver.players)  # type: ignore[arg-type]  # a line game saves through the same writer
        except HexwarError as exc:
            return f"save failed: {exc}"
        return None

    def _close_for_good(self) -> None:
        import pyglet

        pyglet.clock.unschedule(self.tick)
        self.window.close()
        if pyglet.app.event_loop.is_running:
            pyglet.app.exit()

    def key(self, symbol: int, modifiers: int) -> bool:
        """A key: first the shared behaviour (Ctrl+Q asks while a game goes on, Esc cancels and
        never quits, H / F1 help); on a page the page's, at the table its intent."""
        page = self._page()
        shared = self.behaviour.key(symbol, modifiers, typing=page is not None)
        if shared == "handled":
            if self.view.painter is not None and not self.behaviour.closed:
                self.view.refresh(self.mouse)
            return True
        if page is not None:
            page.key_press(symbol, modifiers)
            if self._page() is not page:  # the key opened another page: its character is not typed there
                import pyglet

                self._eat_text = True
                pyglet.clock.schedule_once(self._stop_eating, 0)
            return True  # Escape must not close the window under a page
        intent = {"cancel": "cancel", "help": "help"}.get(shared or "") or TABLE_KEYS.get(symbol)
        if intent is None or self.ctl is None:
            return symbol == 0xFF1B  # pyglet closes on Escape by default: the table uses it to cancel
        if intent == "quit_if_over":
            if self.ctl.state.over:
                self.behaviour.request_quit()
            return True
        self.ctl.key(intent)
        self._after()
        return True

    def tick(self, dt: float) -> None:
        """Computer seats act, one decision a tick."""
        if self.ctl is not None and self.ctl.step_ai():
            self._after()

    def _after(self) -> None:
        """After every action: the autosave, the focused item in the title."""
        if self.saver is not None and self.ctl is not None:
            # every event since the last action (a turn's end is followed by more than a handful
            # of events in the same action: the next turn's initiative, its first phase)
            log = self.ctl.state.log
            self.saver.after(self.ctl.state, log[self._seen :])
            self._seen = len(log)
        if self.ctl is not None:
            self.behaviour.focus(self.window, self.ctl.focus_text())


def run(
    scenario: Any,
    seed: int | None = None,
    variants: tuple[str, ...] | None = None,
    ai: dict[str, str] | None = None,
    save: str | None = None,
    turns: int | None = None,
    state: Any = None,
    offer: Any = None,
) -> None:
    """Open the card table (``hexwar play lines``): a new game starts on the start page (decks,
    the deck builder), a saved one at the table. ``ai``: seat -> player name (default: the
    computer plays every seat of the side the person does not)."""
    import pyglet

    from ..lines.players import make_lines_player

    seats = state.seats if state is not None else scenario.seats
    names = ai if ai is not None else {s: "standard" for s in seats if not s.startswith("german")}
    if save is None:  # every game window autosaves (issue 36): a new file in the autosave folder
        import datetime

        from .autosave import new_game_autosave

        sc_id = (state.scenario if state is not None else scenario).id
        save = str(new_game_autosave(f"lines-{sc_id}", datetime.datetime.now()))
        print(f"autosaving this game to {save} after every turn")
    if state is not None:
        LinesWindow(
            state, {s: make_lines_player(n, s, state.seed) for s, n in names.items()}, save, max_turns=turns
        )
    else:
        LinesWindow(
            None,
            save=save,
            scenario=scenario,
            seed=seed,
            variants=variants,
            ai_names=names,
            max_turns=turns,
            offer=offer,
        )
    pyglet.app.run()
