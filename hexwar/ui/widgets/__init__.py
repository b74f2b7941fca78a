"""The widget toolkit of every hexwar screen (play screen, editor, card table, campaign,
network client). See docs/architecture.md "The widget toolkit" for a worked example.

- :mod:`.geometry`: :class:`Rect`, :func:`rows` / :func:`columns` / :func:`grid` with
  :data:`FLEX` shares, :func:`snap` to framebuffer pixels (HiDPI).
- :mod:`.text`: :func:`wrap`, :func:`ellipsize`, :class:`MonoMeasure` (headless measure).
- :mod:`.painter`: :class:`Painter` (immediate-mode meshes per level, :class:`HitBox` es) and
  :class:`UiLayer` (uploads them into a pyglet batch: the only GL part).
- :mod:`.core`: :class:`Element` (the widget tree) and :class:`Screen` (event routing, focus
  and Tab order, modal dialogs, tooltips, focus ring).
- :mod:`.controls`: :class:`Panel`, :class:`Box`, :class:`Label`, :class:`TextBlock`,
  :class:`Button`, :class:`ScrollList`, :class:`TextField`, :class:`Dialog`.
- :mod:`.search_list`: :class:`SearchList` (a search field over a scrolling list).
- :mod:`.cards`: :class:`CardView` and :func:`card_facts` (cards drawn from the card data).
- :mod:`.painted`: :class:`PaintedLayer` (a painter function's drawing in a tree, hit-tested
  by the boxes it drew).
- :mod:`.regions`: :class:`RegionRoot` (a screen's root of named regions, the text boxes each
  drew) and :func:`stray_texts` (the layout tests' check).
- :mod:`.tooltip`: :func:`place_tooltip`, :func:`paint_tooltip`.
- :mod:`.keys`: key codes (equal to pyglet's) so the logic imports no pyglet.

Nothing here but :class:`UiLayer` touches GL; layout, hit testing, focus and text editing run
in plain tests.
"""

from __future__ import annotations

from . import keys, theme
from .cards import CardFacts, CardView, card_facts, paint_nato
from .controls import Box, Button, Dialog, Label, Panel, ScrollList, TextBlock, TextField
from .core import Element, Screen
from .geometry import FLEX, Flex, Rect, columns, grid, rows, snap
from .painted import PaintedLayer
from .painter import HitBox, Painter, UiLayer, top_hit
from .regions import RegionRoot, stray_texts
from .search_list import SearchList
from .text import ELLIPSIS, MonoMeasure, ellipsize, ui_style, wrap, wrap_lines
from .tooltip import paint_tooltip, place_tooltip

__all__ = [
    "keys", "theme", "CardFacts", "CardView", "card_facts", "paint_nato", "Box", "Button", "Dialog", "Label",
    "Panel", "ScrollList", "SearchList", "TextBlock", "TextField", "Element", "Screen", "FLEX", "Flex", "Rect", "columns", "grid",
    "rows", "snap", "HitBox", "PaintedLayer", "RegionRoot", "stray_texts", "Painter", "UiLayer", "top_hit", "ELLIPSIS", "MonoMeasure", "ellipsize", "ui_style",
    "wrap", "wrap_lines", "paint_tooltip", "place_tooltip",
]  # fmt: skip
