"""The card table's layout arithmetic (issue 34; R11.1), below its widgets: the table's sizes,
how cards sit in a line or the hand (:func:`card_places`), how much height each line and the
hand need and get (:func:`row_need`, :func:`hand_need`, :func:`row_heights`), the five lines
(:data:`ROWS`) and the *table shape* a layout depends on (:func:`table_shape`). No widget
here: :mod:`hexwar.ui.lines_rows`, :mod:`hexwar.ui.lines_panel` and the
:class:`~hexwar.ui.lines_layout.TableLayout` root all import it.
"""

from __future__ import annotations

from typing import Any

from ..lines.rules import card
from ..lines.table import TableController
from ..lines.view import SeatView, UnitView
from .widgets import Rect

__all__ = [
    "card_places",
    "row_need",
    "unit_h",
    "hand_card_h",
    "hand_need",
    "row_heights",
    "split",
    "sides_of",
    "row_units",
    "table_shape",
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


def unit_h(units: tuple[UnitView, ...]) -> float:
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
    h = unit_h(units)
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
