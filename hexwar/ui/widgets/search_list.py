"""A searchable list: a text field over a :class:`~hexwar.ui.widgets.controls.ScrollList` of
the rows that match what is typed, and the chosen row's full text under it.

A row matches when every word typed occurs in its search text (case-insensitive). The matches
are ranked by the row's name (issue 36: "tank crew" once chose an 8.8 cm Flak 36, whose card
text mentions both words): first the names that begin with what is typed, then the names that
contain it, then the names that contain every word, then the rows matched only by their id or
details; within a rank the given order is kept (the editor passes cards in ``hexwar cards``
order). Up/Down in the field move the list's selection, Enter picks it, so the picker works
from the keyboard alone.

>>> s = SearchList([("a", "Tiger I", "heavy tank"), ("b", "Grenadiers", "infantry")])
>>> s.query("tank")
>>> [k for k, _, _ in s.matches]
['a']
>>> s = SearchList([("f", "8.8 cm Flak 36", "gun; tank crew or gun crew"), ("t", "Tank crew (regular)", "crew")])
>>> s.query("tank crew")
>>> [k for k, _, _ in s.matches]
['t', 'f']
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from . import keys
from . import theme as T
from .controls import ScrollList, TextBlock, TextField
from .core import Element
from .geometry import Rect

if TYPE_CHECKING:
    from .painter import Painter

__all__ = ["SearchList"]


class _SearchField(TextField):
    """The search field: typing filters; Up/Down move the list's selection."""

    def __init__(self, owner: SearchList, tip: str) -> None:
        super().__init__(on_enter=lambda _t: owner.pick(), tip=tip)
        self.owner = owner

    def on_text(self, text: str) -> bool:
        """Insert the characters and filter the rows."""
        super().on_text(text)
        self.owner.query(self.text)
        return True

    def on_motion(self, motion: int) -> bool:
        """Up/Down choose a row; the other motions edit the text (and filter again)."""
        if motion in (keys.UP, keys.DOWN):
            lst = self.owner.list
            cur = lst.selected if lst.selected is not None else -1  # type: ignore[attr-defined]
            lst.select(cur + (1 if motion == keys.DOWN else -1))  # type: ignore[attr-defined]
            return True
        used = super().on_motion(motion)
        self.owner.query(self.text)
        return used


class SearchList(Element):
    """A search field, the matching rows and the chosen row's details (see module doc).

    Args:
        entries: ``(key, row text, details)`` per row, in the order to show; the search text
            of a row is its row text and details.
        on_pick: called with the picked row's key (click or Enter).
        rows: rows of the list shown at once.
        row_h: points per row.
        detail_lines: lines of the details block.
        tip: tooltip / test name (the field is ``tip + " search"``).

    Attributes:
        matches: the rows that match the current query, in order.
        field: the search :class:`TextField`; ``list``: the :class:`ScrollList`.
    """

    def __init__(
        self,
        entries: Sequence[tuple[str, str, str]],
        on_pick: Callable[[str], Any] | None = None,
        rows: int = 8,
        row_h: float = 20.0,
        detail_lines: int = 6,
        tip: str = "search list",
    ) -> None:
        super().__init__(tip=tip)
        self.entries = list(entries)
        self.on_pick = on_pick
        self.n_rows, self.row_h, self.detail_lines = rows, row_h, detail_lines
        self.field = self.add(_SearchField(self, tip=f"{tip} search"))
        self.list = self.add(ScrollList(row_h=row_h, on_pick=self._picked_row, size=12.0, tip=f"{tip} rows"))
        self.details = self.add(TextBlock("", size=11.0, colour=T.DIM, line_gap=3.0))
        self.matches: list[tuple[str, str, str]] = []
        self.query("")

    @property
    def height(self) -> float:
        """Points the whole widget needs (field, list, details)."""
        return 30 + 6 + self.n_rows * self.row_h + 6 + self.detail_lines * 14

    def query(self, text: str) -> None:
        """Show the rows matching every word of ``text`` (case-insensitive); select the first."""
        words = text.lower().split()
        q = " ".join(words)

        def rank(e: tuple[str, str, str]) -> int:
            name = e[1].lower()
            if q and name.startswith(q):
                return 0
            if q and q in name:
                return 1
            return 2 if all(w in name for w in words) else 3

        found = [e for e in self.entries if all(w in f"{e[0]} {e[1]} {e[2]}".lower() for w in words)]
        self.matches = sorted(found, key=rank)  # stable: the given order within a rank
        self.list.set_items([e[1] for e in self.matches])  # type: ignore[attr-defined]
        self.list.offset = 0  # type: ignore[attr-defined]
        self.list.selected = 0 if self.matches else None  # type: ignore[attr-defined]

    @property
    def chosen(self) -> tuple[str, str, str] | None:
        """The selected row, or ``None`` when nothing matches."""
        i = self.list.selected  # type: ignore[attr-defined]
        return self.matches[i] if i is not None and 0 <= i < len(self.matches) else None

    def pick(self) -> None:
        """Run ``on_pick`` with the selected row's key."""
        c = self.chosen
        if c is not None and self.on_pick is not None:
            self.on_pick(c[0])

    def _picked_row(self, i: int) -> None:
        self.pick()

    def layout(self, rect: Rect) -> None:
        """Field at the top, the list, the details at the bottom."""
        self.rect = rect
        y1 = rect.y1
        self.field.layout(Rect(rect.x, y1 - 30, rect.w, 30))
        lh = self.n_rows * self.row_h
        self.list.layout(Rect(rect.x, y1 - 36 - lh, rect.w, lh))
        self.details.layout(Rect(rect.x, rect.y, rect.w, max(0.0, y1 - 42 - lh - rect.y)))

    def paint(self, p: Painter, z: int = 0) -> None:
        """Refresh the details of the chosen row, then paint."""
        c = self.chosen
        self.details.text = c[2] if c is not None else "(no match)"  # type: ignore[attr-defined]
        super().paint(p, z)
