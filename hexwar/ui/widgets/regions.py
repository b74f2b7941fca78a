"""A screen's root of named regions (issue 34): the card table's and the campaign screen's trees
share it. Each child is a region named by its ``tip``; :meth:`RegionRoot.paint_regions` paints
them in order and records which of the painter's text boxes each region drew
(:attr:`RegionRoot.spans`), and :func:`stray_texts` finds the texts a region drew outside its
rectangle, so a layout test checks every text against its own region.

>>> from hexwar.ui.widgets import Element, MonoMeasure, Painter, Rect
>>> class Note(Element):  # records a 30-point-wide text box as Painter.text would
...     def paint(self, p, z=0):
...         p.text_boxes.append((self.rect.x, 0.0, self.rect.x + 30, 5.0, "hello", z))
>>> root = RegionRoot(children=[Note(tip="a"), Note(tip="b")])
>>> root.layout(Rect(0, 0, 100, 100))
>>> for c, x in zip(root.children, (0, 90)):
...     c.layout(Rect(x, 0, 10, 10))
>>> p = Painter(MonoMeasure())
>>> root.paint_regions(p, 0, (0, 0, 0, 255))
>>> root.spans, root.find_panel("b").tip
({'a': (0, 1), 'b': (1, 2)}, 'b')
>>> [s for s, _box in stray_texts(p, root.spans["b"], root.find_panel("b").rect)]
['hello']
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from .core import Element
from .geometry import Rect

if TYPE_CHECKING:
    from .painter import Painter

__all__ = ["RegionRoot", "stray_texts"]


class RegionRoot(Element):
    """An element whose children are a screen's named regions (their ``tip``).

    Attributes:
        spans: region name -> ``(first, end)`` indices into the painter's ``text_boxes`` drawn
            by that region in the last :meth:`paint_regions`.
    """

    spans: dict[str, tuple[int, int]]

    def paint_regions(self, p: Painter, z: int, background: tuple[int, int, int, int]) -> None:
        """Fill the root's rectangle with ``background`` (RGBA), then paint each visible region
        in order, recording its text boxes' span in :attr:`spans`.

        Args:
            p: the painter (screen points, y up).
            z: the drawing layer.
            background: the fill colour, RGBA 0-255.
        """
        p.rect(0, 0, self.rect.w, self.rect.h, background)
        self.spans = {}
        for c in self.children:
            if c.visible:
                first = len(p.text_boxes)
                c.paint(p, z)
                self.spans[c.tip] = (first, len(p.text_boxes))

    def find_panel(self, name: str) -> Element:
        """The region called ``name``, visible or not.

        Raises:
            StopIteration: no region has that name (a programming error).
        """
        return next(c for c in self.children if c.tip == name)


def stray_texts(
    p: Painter, span: tuple[int, int], r: Rect, slack: float = 1.0
) -> Iterator[tuple[str, tuple[float, float, float, float]]]:
    """The non-blank texts among ``p.text_boxes[first:end]`` that leave ``r`` by more than
    ``slack`` points, each as ``(text, (x0, y0, x1, y1))``.

    Args:
        p: the painter that drew them.
        span: ``(first, end)`` indices into ``p.text_boxes`` (a :attr:`RegionRoot.spans` value).
        r: the rectangle they must lie in (points).
        slack: how far a text may stand out (points).
    """
    first, end = span
    for x0, y0, x1, y1, s, _z in p.text_boxes[first:end]:
        if s.strip() and (x0 < r.x - slack or y0 < r.y - slack or x1 > r.x1 + slack or y1 > r.y1 + slack):
            yield s, (x0, y0, x1, y1)
