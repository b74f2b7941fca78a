"""A scrolling, optionally searchable list for immediate-mode panels (the editor's palettes,
Event cards, objectives): painted through a :class:`~hexwar.ui.widgets.painter.Painter` each
time the panel repaints, with its own small state (query, first row shown, keyboard cursor).

Rows are :class:`PanelRow` s: a key, a label, a short detail on the right, an optional
swatch drawn by a callback, a hotkey hint and a tooltip shown while the mouse rests on the
row. The list scrolls with the wheel (:meth:`PanelList.scroll`), with Page Up/Down and the
arrows while its search field has the focus, and shows a scroll bar and ``"4-15 of 22"``
when rows are hidden. Every row stays reachable: nothing is cut off.

A row matches the query when every typed word occurs in its key, label, detail or search
words (case-insensitive):

>>> rows = [PanelRow("woods", "Woods", "blocks LOS"), PanelRow("marsh", "Marsh")]
>>> lst = PanelList("terrain", searchable=True)
>>> lst.type("los")
>>> [r.key for r in lst.matches(rows)]
['woods']
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from . import keys
from . import theme as T
from .geometry import Rect
from .text import ellipsize
from .tooltip import paint_tooltip

if TYPE_CHECKING:
    from .painter import Painter

__all__ = ["PanelRow", "PanelList"]

Swatch = Callable[["Painter", float, float, float], None]


@dataclass(frozen=True)
class PanelRow:
    """One row of a :class:`PanelList`.

    Attributes:
        key: what picking the row passes on (a terrain key, a card id).
        label: the row's text.
        detail: short text at the right (``"DR 14"``).
        tip: the tooltip (full text; empty: none).
        search: extra words the query matches.
        swatch: ``swatch(painter, cx, cy, radius)`` draws an icon at the row's left (points).
        hotkey: a key hint drawn at the far right.
        checked: drawn with a tick (a toggle that is on).
    """

    key: str
    label: str
    detail: str = ""
    tip: str = ""
    search: str = ""
    swatch: Swatch | None = None
    hotkey: str = ""
    checked: bool = False


class PanelList:
    """A list that paints itself into a panel rectangle (see module doc).

    Args:
        name: the list's name; hit boxes are tipped ``"{name} {row key}"``, the search field
            ``"{name} search"`` (tests and scripts find them by it).
        searchable: draw a search field above the rows.
        row_h: points per row.
        placeholder: the search field's text while empty.

    Attributes:
        query: the typed search text.
        offset: index of the first matching row shown.
        cursor: index (among the matches) of the row Enter picks, or ``None``.
        focused: the search field takes typed text.
        rect: where the rows were last painted (``None`` before the first paint).
        visible_rows: how many rows the last paint showed.
    """

    def __init__(
        self, name: str, searchable: bool = False, row_h: float = 22.0, placeholder: str = ""
    ) -> None:
        self.name, self.searchable, self.row_h = name, searchable, row_h
        self.placeholder = placeholder or f"search {name}"
        self.query = ""
        self.offset = 0
        self.cursor: int | None = None
        self.focused = False
        self.rect: Rect | None = None
        self.visible_rows = 0
        self._n = 0
        self._keys: list[str] = []

    # -- state ------------------------------------------------------------------------------
    def matches(self, rows: Sequence[PanelRow]) -> list[PanelRow]:
        """The rows matching every word of :attr:`query`, in order."""
        words = self.query.lower().split()
        return [
            r for r in rows if all(w in f"{r.key} {r.label} {r.detail} {r.search}".lower() for w in words)
        ]

    def type(self, text: str) -> None:
        """Append typed characters to the query (printable ones); back to the first row."""
        self.query += "".join(ch for ch in text if ch.isprintable())
        self.offset, self.cursor = 0, 0

    def erase(self) -> None:
        """Backspace in the search field."""
        self.query = self.query[:-1]
        self.offset, self.cursor = 0, 0

    def scroll(self, rows: int) -> None:
        """Show rows ``rows`` further down (negative: up), clamped to the list."""
        self.offset = max(0, min(self.offset + rows, self.max_offset))

    @property
    def max_offset(self) -> int:
        """The largest :attr:`offset` with the rows of the last paint."""
        return max(0, self._n - max(1, self.visible_rows))

    def contains(self, x: float, y: float) -> bool:
        """True when point ``(x, y)`` lies on the rows last painted (wheel routing)."""
        return self.rect is not None and self.rect.contains(x, y)

    def key(self, symbol: int, pick: Callable[[str], Any] | None = None) -> bool:
        """A key while the search field has the focus: Up/Down move the cursor, Page Up/Down
        scroll, Enter picks the cursor's row (through ``pick``), Esc leaves the field.
        Returns whether the key was used."""
        page = max(1, self.visible_rows - 1)
        cur = self.cursor if self.cursor is not None else -1
        moves = {keys.UP: cur - 1, keys.DOWN: cur + 1, keys.PAGEUP: cur - page, keys.PAGEDOWN: cur + page}
        if symbol in moves and self._n:
            self.cursor = max(0, min(self._n - 1, moves[symbol]))
            if self.cursor < self.offset:
                self.offset = self.cursor
            elif self.cursor >= self.offset + max(1, self.visible_rows):
                self.offset = self.cursor - max(1, self.visible_rows) + 1
            return True
        if symbol == keys.ENTER:
            c = self.cursor if self.cursor is not None else 0
            if pick is not None and 0 <= c < len(self._keys):
                pick(self._keys[c])
            return True
        if symbol == keys.ESCAPE:
            self.focused = False
            return True
        if symbol == keys.BACKSPACE:
            return True  # the text motion erases
        return False

    def focus(self) -> None:
        """Give the search field the focus (click, Ctrl+F)."""
        if self.searchable:
            self.focused = True

    # -- painting --------------------------------------------------------------------------
    def paint(
        self,
        p: Painter,
        x: float,
        y0: float,
        w: float,
        h: float,
        rows: Sequence[PanelRow],
        chosen: str | None,
        on_pick: Callable[[str], Any] | None,
        size: float = 12.0,
        active: T.Colour = T.ACTIVE,
    ) -> None:
        """Paint into the rectangle ``(x, y0, w, h)`` (points, origin bottom-left).

        Args:
            rows: every row (the query filters them).
            chosen: the key drawn as selected (``None``: none).
            on_pick: called with a row's key when it is clicked.
            size: font size of the rows (points).
            active: the chosen row's colour.
        """
        top = y0 + h
        if self.searchable:
            fh = self.row_h
            top -= fh
            p.rect(x, top, x + w, top + fh, T.FIELD)
            p.frame(x, top, x + w, top + fh, 1.0, T.ACTIVE if self.focused else T.BUTTON)
            shown = self.query if self.query or self.focused else self.placeholder
            col = T.TEXT if self.query else T.FAINT
            txt = ellipsize(p.atlas, shown, w - 16, size)
            tw = p.text(txt, x + 6, top + fh / 2, size, col)
            if self.focused:
                cx = x + 6 + (tw if self.query else 0.0)
                p.rect(cx, top + 4, cx + 1.5, top + fh - 4, T.TEXT)
            p.widget(x, top, w, fh, self.focus, f"{self.name} search")
            top -= 4
        found = self.matches(rows)
        self._n = len(found)
        self._keys = [r.key for r in found]
        list_h = max(0.0, top - y0)
        n_vis = max(1, int((list_h + 1e-9) // self.row_h))
        more = self._n > n_vis
        if more:  # the last row gives way to the "4-15 of 22" line
            n_vis = max(1, int((list_h - 14 + 1e-9) // self.row_h))
        self.visible_rows = n_vis
        self.offset = max(0, min(self.offset, self.max_offset))
        self.rect = Rect(x, top - n_vis * self.row_h, w, n_vis * self.row_h)
        bar = 6.0 if more else 0.0
        tip_row: PanelRow | None = None
        if not found:
            p.text("no match" if self.query else "(empty)", x + 6, top - self.row_h / 2, size, T.DIM)
        for k in range(n_vis):
            i = self.offset + k
            if i >= self._n:
                break
            r = found[i]
            ry = top - (k + 1) * self.row_h
            rh = self.row_h - 2
            on = r.key == chosen or r.checked
            hov = p.hovered(x, ry, w - bar, rh)
            bg = active if on else (T.BUTTON_HOVER if hov else T.SECTION)
            p.rect(x, ry, x + w - bar - 2, ry + rh, bg)
            if self.focused and i == self.cursor:
                p.frame(x, ry, x + w - bar - 2, ry + rh, 1.5, T.FOCUS)
            fg = T.DARK if on else T.TEXT
            lx = x + 6
            if r.swatch is not None:
                r.swatch(p, x + 13, ry + rh / 2, rh / 2 - 1)
                lx = x + 28
            right = x + w - bar - 8
            if r.hotkey:
                p.text(
                    r.hotkey, right, ry + rh / 2, size * 0.8, fg if on else T.DIM, ax="right", style="bold"
                )
                right -= p.measure(r.hotkey, size * 0.8, "bold") + 8
            if r.detail:
                dsz = size * 0.8
                dw = min(p.measure(r.detail, dsz), (right - lx) * 0.5)
                p.text(
                    ellipsize(p.atlas, r.detail, dw + 1, dsz),
                    right,
                    ry + rh / 2,
                    dsz,
                    fg if on else T.DIM,
                    ax="right",
                )
                right -= dw + 8
            label = ("✓ " if r.checked else "") + r.label
            p.text(ellipsize(p.atlas, label, right - lx, size), lx, ry + rh / 2, size, fg)
            act: Callable[[], Any] | None = functools.partial(on_pick, r.key) if on_pick is not None else None
            p.widget(x, ry, w - bar, rh, act, f"{self.name} {r.key}")
            if hov and r.tip:
                tip_row = r
        if more:
            track = self.rect
            p.rect(track.x1 - bar, track.y, track.x1, track.y1, T.FIELD)
            th = max(12.0, track.h * n_vis / self._n)
            ty1 = track.y1 - (track.h - th) * self.offset / max(1, self.max_offset)
            p.rect(track.x1 - bar, ty1 - th, track.x1, ty1, T.BUTTON_HOVER)
            last = min(self._n, self.offset + n_vis)
            p.text(
                f"{self.offset + 1}-{last} of {self._n}  (wheel scrolls)",
                x + w,
                track.y - 8,
                max(10.0, size * 0.75),  # never under 10 points (issue 36)
                T.DIM,
                ax="right",
            )
        if tip_row is not None:
            bounds = Rect(0, 0, p.extra.get("screen_w", 4000.0), p.extra.get("screen_h", 4000.0))
            paint_tooltip(p, p.atlas, tip_row.tip, p.mouse, bounds, width=320, size=size)
