"""Retained widgets, keyboard focus and modality: the toolkit's event routing (no GL).

An :class:`Element` has a rectangle (points), children, and handlers that return ``True``
when they used an event. A :class:`Screen` owns one root element and a stack of modal
:class:`~hexwar.ui.widgets.controls.Dialog` s: pointer events go to the deepest element under
the pointer in the top layer (a modal dialog eats every click, inside or out), keys go to the
focused element and bubble up to its parents, Tab / Shift+Tab move the focus in tab order
(focusable elements in tree order, or by ``tab_index``), Escape closes the top dialog.
Painting walks the tree into a :class:`~hexwar.ui.widgets.painter.Painter` (root on level 0,
tooltips on 1, dialogs on 2) and draws the focus ring around the focused element.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

from . import keys
from . import theme as T
from .geometry import Rect
from .tooltip import paint_tooltip

if TYPE_CHECKING:
    from .painter import Painter

__all__ = ["Element", "Screen"]


class Element:
    """A node of the widget tree.

    Args:
        rect: where it is (points); containers set their children's in :meth:`layout`.
        children: child elements, painted in order (later ones on top).
        tip: the tooltip text (also how tests find an element).
        focusable: it can take the keyboard focus (Tab, click).
        tab_index: explicit tab position (lower first; ``None``: tree order after indexed ones).

    Attributes:
        visible: hidden elements neither paint nor receive events.
        enabled: disabled elements paint dimmed and ignore input.
        parent: the containing element (``None`` for a root).
        screen: the :class:`Screen` showing it (set when attached).
    """

    def __init__(
        self,
        rect: Rect | None = None,
        children: Sequence[Element] = (),
        tip: str = "",
        focusable: bool = False,
        tab_index: int | None = None,
    ) -> None:
        self.rect = rect or Rect(0, 0, 0, 0)
        self.children: list[Element] = []
        self.parent: Element | None = None
        self.tip = tip
        self.focusable = focusable
        self.tab_index = tab_index
        self.visible = True
        self.enabled = True
        for c in children:
            self.add(c)

    # -- tree --------------------------------------------------------------------------------
    def add(self, child: Element) -> Element:
        """Append ``child`` and return it."""
        child.parent = self
        self.children.append(child)
        return child

    def walk(self) -> Iterator[Element]:
        """This element and all visible descendants, pre-order (tree order)."""
        yield self
        for c in self.children:
            if c.visible:
                yield from c.walk()

    @property
    def screen(self) -> Screen | None:
        """The screen this element is shown on, if any."""
        e: Element | None = self
        while e is not None:
            s = getattr(e, "_screen", None)
            if s is not None:
                return s  # type: ignore[no-any-return]
            e = e.parent
        return None

    @property
    def focused(self) -> bool:
        """This element holds the keyboard focus."""
        s = self.screen
        return s is not None and s.focus is self

    def find(self, tip: str) -> Element | None:
        """The first visible element (pre-order) whose ``tip`` equals ``tip``."""
        return next((e for e in self.walk() if e.tip == tip), None)

    # -- layout and painting -------------------------------------------------------------------
    def layout(self, rect: Rect) -> None:
        """Place this element at ``rect``; containers override to place their children."""
        self.rect = rect

    def paint(self, p: Painter, z: int = 0) -> None:
        """Draw this element, then its visible children, on level ``z``."""
        self.paint_self(p, z)
        for c in self.children:
            if c.visible:
                c.paint(p, z)

    def paint_self(self, p: Painter, z: int) -> None:
        """Draw this element alone (default: nothing)."""

    # -- events (return True when used) ---------------------------------------------------------
    def hit_test(self, x: float, y: float) -> Element | None:
        """The deepest visible element under ``(x, y)`` (later children first), or ``None``."""
        if not self.visible or not self.rect.contains(x, y):
            return None
        for c in reversed(self.children):
            h = c.hit_test(x, y)
            if h is not None:
                return h
        return self

    def on_press(self, x: float, y: float, button: int, modifiers: int) -> bool:
        """A mouse button went down on this element."""
        return False

    def on_release(self, x: float, y: float, button: int, modifiers: int) -> bool:
        """A mouse button came up (sent to the element pressed)."""
        return False

    def on_drag(self, x: float, y: float, dx: float, dy: float) -> bool:
        """The pointer moved with a button down (sent to the element pressed)."""
        return False

    def on_scroll(self, x: float, y: float, dy: float) -> bool:
        """The wheel turned ``dy`` notches over this element (positive: away from the user)."""
        return False

    def on_key(self, symbol: int, modifiers: int) -> bool:
        """A key went down while this element (or a child) has the focus."""
        return False

    def on_text(self, text: str) -> bool:
        """Typed text while focused."""
        return False

    def on_motion(self, motion: int) -> bool:
        """A text motion (arrow keys, Home, End, Backspace, Delete) while focused."""
        return False

    def on_focus(self, gained: bool) -> None:
        """The focus came (``gained``) or went."""


class Screen:
    """One screen: a root element, a modal stack, the focus and the pointer.

    Args:
        root: the root element (laid out over the whole window by :meth:`layout`).
        measure: the text measure (the glyph atlas; :class:`~hexwar.ui.widgets.text.MonoMeasure`
            in tests) that text widgets use for wrapping and ellipsis.
        pixel_ratio: framebuffer pixels per point (HiDPI; layouts may snap to it).

    Attributes:
        dialogs: the open modal dialogs, topmost last.
        focus: the element with the keyboard focus, or ``None``.
        mouse: the pointer position in points.
        size: the window size in points.
    """

    def __init__(self, root: Element, measure: Any, pixel_ratio: float = 1.0) -> None:
        self.root = root
        root._screen = self  # type: ignore[attr-defined]
        self.measure = measure
        self.pixel_ratio = pixel_ratio
        self.dialogs: list[Element] = []
        self.focus: Element | None = None
        self.mouse = (-1.0, -1.0)
        self.size = (0.0, 0.0)
        self._pressed: Element | None = None
        self._focus_before: list[Element | None] = []

    # -- layers --------------------------------------------------------------------------------
    @property
    def top(self) -> Element:
        """The layer receiving input: the topmost dialog, else the root."""
        return self.dialogs[-1] if self.dialogs else self.root

    def layout(self, width: float, height: float, pixel_ratio: float | None = None) -> None:
        """Lay the root out over ``width`` x ``height`` points and re-centre the dialogs."""
        self.size = (float(width), float(height))
        if pixel_ratio is not None:
            self.pixel_ratio = pixel_ratio
        self.root.layout(Rect(0, 0, float(width), float(height)))
        for d in self.dialogs:
            d.layout(Rect(0, 0, float(width), float(height)))

    def open(self, dialog: Element) -> Element:
        """Show ``dialog`` modally on top; the focus moves to its first focusable element."""
        dialog._screen = self  # type: ignore[attr-defined]
        self.dialogs.append(dialog)
        self._focus_before.append(self.focus)
        dialog.layout(Rect(0, 0, *self.size))
        self.set_focus(next(iter(self.tab_order()), None))
        return dialog

    def close(self, dialog: Element | None = None) -> None:
        """Close ``dialog`` (default the topmost); the focus returns to where it was."""
        d = dialog or (self.dialogs[-1] if self.dialogs else None)
        if d is None or d not in self.dialogs:
            return
        i = self.dialogs.index(d)
        self.dialogs.pop(i)
        back = self._focus_before.pop(i)
        d._screen = None  # type: ignore[attr-defined]
        self.set_focus(back if back is not None and back in self.top.walk() else None)

    # -- focus ---------------------------------------------------------------------------------
    def tab_order(self) -> list[Element]:
        """Focusable, enabled elements of the top layer: explicit ``tab_index`` first (in
        index order), then the others in tree order."""
        elems = [e for e in self.top.walk() if e.focusable and e.enabled]
        indexed = sorted((e for e in elems if e.tab_index is not None), key=lambda e: e.tab_index or 0)
        return indexed + [e for e in elems if e.tab_index is None]

    def set_focus(self, e: Element | None) -> None:
        """Give ``e`` the keyboard focus (``None``: nobody)."""
        if e is self.focus:
            return
        old, self.focus = self.focus, e
        if old is not None:
            old.on_focus(False)
        if e is not None:
            e.on_focus(True)

    def focus_next(self, backwards: bool = False) -> Element | None:
        """Move the focus to the next (previous) element in tab order, wrapping around."""
        order = self.tab_order()
        if not order:
            self.set_focus(None)
            return None
        if self.focus not in order:
            nxt = order[-1] if backwards else order[0]
        else:
            i = order.index(self.focus)  # type: ignore[arg-type]
            nxt = order[(i + (-1 if backwards else 1)) % len(order)]
        self.set_focus(nxt)
        return nxt

    # -- dispatch ------------------------------------------------------------------------------
    def element_at(self, x: float, y: float) -> Element | None:
        """The element under ``(x, y)`` in the top layer, or ``None``."""
        return self.top.hit_test(x, y)

    def mouse_motion(self, x: float, y: float) -> None:
        """The pointer moved to ``(x, y)``."""
        self.mouse = (x, y)

    def mouse_press(self, x: float, y: float, button: int = keys.MOUSE_LEFT, modifiers: int = 0) -> bool:
        """A button went down; returns ``True`` when the UI used it (the map must not).

        With a dialog open, every press is used: outside the dialog it does nothing.
        """
        self.mouse = (x, y)
        e = self.element_at(x, y)
        self._pressed = e
        if e is not None and e.focusable and e.enabled:
            self.set_focus(e)
        while e is not None:
            if e.enabled and e.on_press(x, y, button, modifiers):
                return True
            e = e.parent
        return bool(self.dialogs) or self.root.hit_test(x, y) not in (None, self.root)

    def mouse_release(self, x: float, y: float, button: int = keys.MOUSE_LEFT, modifiers: int = 0) -> bool:
        """A button came up (delivered to the element the press went to)."""
        e, self._pressed = self._pressed, None
        return bool(e is not None and e.enabled and e.on_release(x, y, button, modifiers))

    def mouse_drag(self, x: float, y: float, dx: float, dy: float) -> bool:
        """The pointer moved with a button down."""
        self.mouse = (x, y)
        e = self._pressed
        return bool(e is not None and e.enabled and e.on_drag(x, y, dx, dy))

    def mouse_scroll(self, x: float, y: float, dy: float) -> bool:
        """The wheel turned over ``(x, y)``: the deepest element that scrolls uses it."""
        e = self.element_at(x, y)
        while e is not None:
            if e.enabled and e.on_scroll(x, y, dy):
                return True
            e = e.parent
        return bool(self.dialogs)

    def key_press(self, symbol: int, modifiers: int = 0) -> bool:
        """A key went down: the focused element and its parents first, then Tab / Shift+Tab
        (focus order) and Escape (closes the top dialog if it allows). With a dialog open,
        every key is used."""
        e = self.focus
        while e is not None:
            if e.enabled and e.on_key(symbol, modifiers):
                return True
            e = e.parent
        if self.dialogs and self.dialogs[-1].on_key(symbol, modifiers):
            return True
        if symbol == keys.TAB:
            return self.focus_next(backwards=bool(modifiers & keys.MOD_SHIFT)) is not None or bool(
                self.dialogs
            )
        return bool(self.dialogs)

    def text(self, text: str) -> bool:
        """Typed text goes to the focused element."""
        return bool(self.focus is not None and self.focus.enabled and self.focus.on_text(text))

    def text_motion(self, motion: int) -> bool:
        """A text motion goes to the focused element."""
        return bool(self.focus is not None and self.focus.enabled and self.focus.on_motion(motion))

    # -- painting ------------------------------------------------------------------------------
    def paint(self, p: Painter) -> None:
        """Paint the root (level 0), the tooltip of the element under the pointer (level 1),
        the dialogs (level 2) and the focus ring."""
        p.mouse = self.mouse
        self.root.paint(p, 0)
        for d in self.dialogs:
            d.paint(p, 2)
        if not self.dialogs:
            e = self.element_at(*self.mouse)
            if e is not None and getattr(e, "show_tip", False) and e.tip:
                paint_tooltip(p, self.measure, e.tip, self.mouse, Rect(0, 0, *self.size))
        f = self.focus
        if f is not None and f.visible:
            x0, y0, x1, y1 = f.rect.inset(-2).corners
            p.frame(x0, y0, x1, y1, 2.0, T.FOCUS, 2 if self.dialogs else 1)


#: An action a widget runs (button press, list pick).
Action = Callable[[], Any]
