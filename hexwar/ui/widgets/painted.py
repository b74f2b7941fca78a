"""A widget drawn by a painter function (issue 34): for pieces several windows share that paint
straight into a :class:`~hexwar.ui.widgets.Painter` (the quit question of
:func:`hexwar.ui.window_base.paint_quit_question`), hung into a widget tree so one
:meth:`~hexwar.ui.widgets.Element.hit_test` answers every click. It hit-tests the
:class:`~hexwar.ui.widgets.HitBox` es its own drawing recorded, nothing else: no second set of
rectangles.

>>> from hexwar.ui.widgets import MonoMeasure, Painter, Rect
>>> clicks = []
>>> layer = PaintedLayer(lambda p, r: p.widget(r.x, r.y, 20, 10, lambda: clicks.append(1), "ok"))
>>> layer.layout(Rect(0, 0, 100, 100))
>>> layer.paint(Painter(MonoMeasure()))
>>> layer.hit_test(5, 5) is layer, layer.hit_test(50, 50)
(True, None)
>>> layer.on_press(5, 5, 1, 0), clicks
(True, [1])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from .core import Element
from .geometry import Rect
from .painter import HitBox, top_hit

if TYPE_CHECKING:
    from .painter import Painter

__all__ = ["PaintedLayer"]


class PaintedLayer(Element):
    """An element whose drawing is ``draw(painter, rect)`` (``None``: draws nothing).

    Args:
        draw: the painter function, called with the painter and this element's rectangle
            (points); may be set later (:attr:`draw`).
        tip: the element's name.

    Attributes:
        boxes: the hit boxes the last :meth:`paint` recorded (a click inside one is this
            element's; outside all of them it falls through to what lies below).
    """

    def __init__(self, draw: Callable[[Painter, Rect], None] | None = None, tip: str = "") -> None:
        super().__init__(tip=tip)
        self.draw = draw
        self.boxes: list[HitBox] = []

    def paint_self(self, p: Painter, z: int) -> None:
        """Run the painter function, keeping the hit boxes it recorded."""
        first = len(p.widgets)
        if self.draw is not None:
            self.draw(p, self.rect)
        self.boxes = list(p.widgets[first:])

    def hit_test(self, x: float, y: float) -> Element | None:
        """This element when one of its boxes lies under ``(x, y)``, else ``None``."""
        hit = top_hit(self.boxes, x, y) if self.visible and self.draw is not None else None
        return self if hit is not None else None

    def on_press(self, x: float, y: float, button: int, modifiers: int) -> bool:
        """Run the action of the box under the pointer (an inert box, e.g. a modal shade, eats
        the click)."""
        hit = top_hit(self.boxes, x, y)
        if hit is None:
            return False
        if hit.action is not None:
            hit.action()
        return True
