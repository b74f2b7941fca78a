"""The toolkit's widgets: panel, box (rows/columns), label, text block, button, scrolling
list, text field and modal dialog. Logic is headless; drawing goes through a
:class:`~hexwar.ui.widgets.painter.Painter` (batched meshes)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from . import keys
from . import theme as T
from .core import Element
from .geometry import FLEX, Rect, Size, columns, rows
from .text import ellipsize, wrap

if TYPE_CHECKING:
    from .painter import Painter

__all__ = ["Panel", "Box", "Label", "TextBlock", "Button", "ScrollList", "TextField", "Dialog"]


def _measure(e: Element) -> Any:
    s = e.screen
    if s is None:
        raise RuntimeError(f"{type(e).__name__} {e.tip!r} is not on a screen (no text measure)")
    return s.measure


class Panel(Element):
    """A filled rectangle (optionally framed) holding children.

    Args:
        colour: the fill (RGBA).
        border: frame colour, or ``None`` for no frame.
        children, tip: as for :class:`Element`.
    """

    def __init__(
        self,
        children: Sequence[Element] = (),
        colour: T.Colour = T.PANEL,
        border: T.Colour | None = None,
        tip: str = "",
    ) -> None:
        super().__init__(children=children, tip=tip)
        self.colour, self.border = colour, border

    def layout(self, rect: Rect) -> None:
        """Every child fills the panel (wrap them in a :class:`Box` to arrange them)."""
        self.rect = rect
        for c in self.children:
            c.layout(rect)

    def paint_self(self, p: Painter, z: int) -> None:
        """The fill and the frame."""
        p.rect(*self.rect.corners, self.colour, z)
        if self.border is not None:
            p.frame(*self.rect.corners, 1.0, self.border, z)


class Box(Element):
    """Children in rows (top to bottom, ``vertical=True``) or columns (left to right).

    Args:
        children: the elements.
        sizes: each child's height (rows) or width (columns): points or :class:`Flex`; default
            an equal share each.
        gap: points between children.
        pad: points kept free inside every edge.
        vertical: rows (``True``) or columns.
    """

    def __init__(
        self,
        children: Sequence[Element],
        sizes: Sequence[Size] | None = None,
        gap: float = 0.0,
        pad: float = 0.0,
        vertical: bool = True,
    ) -> None:
        super().__init__(children=children)
        self.sizes = list(sizes) if sizes is not None else [FLEX] * len(children)
        if len(self.sizes) != len(children):
            raise ValueError(f"Box: {len(children)} children but {len(self.sizes)} sizes")
        self.gap, self.pad, self.vertical = gap, pad, vertical

    def layout(self, rect: Rect) -> None:
        """Place the children with :func:`~hexwar.ui.widgets.geometry.rows` / ``columns``."""
        self.rect = rect
        cells = (rows if self.vertical else columns)(rect, self.sizes, self.gap, self.pad)
        for c, r in zip(self.children, cells, strict=True):
            c.layout(r)


class Label(Element):
    """One line of text, shortened with an ellipsis when it does not fit.

    Args:
        text: the text.
        size: font size (points).
        colour: RGBA.
        style: ``regular`` / ``bold`` / ``condensed``.
        align: ``left``, ``center`` or ``right``.
    """

    def __init__(
        self,
        text: str,
        size: float = 13.0,
        colour: T.Colour = T.TEXT,
        style: str = "regular",
        align: str = "left",
    ) -> None:
        super().__init__(tip="")
        self.text, self.size, self.colour, self.style, self.align = text, size, colour, style, align

    def shown(self) -> str:
        """The text as drawn (ellipsized to the width)."""
        return ellipsize(_measure(self), self.text, self.rect.w, self.size, self.style)

    def paint_self(self, p: Painter, z: int) -> None:
        """The (shortened) text, vertically centred."""
        r = self.rect
        x = {"left": r.x, "center": r.x + r.w / 2, "right": r.x1}[self.align]
        p.text(self.shown(), x, r.y + r.h / 2, self.size, self.colour, ax=self.align, style=self.style, z=z)


class TextBlock(Element):
    """Wrapped text: as many lines as fit the height (or ``max_lines``); the last shown line
    ends in an ellipsis when text was cut.

    Args:
        text: the text (``\\n`` breaks paragraphs).
        size: font size (points); lines are ``size + line_gap`` points apart.
        colour, style: as for :class:`Label`.
        max_lines: at most this many lines (``None``: as many as fit).
        line_gap: extra points between lines.
    """

    def __init__(
        self,
        text: str,
        size: float = 12.0,
        colour: T.Colour = T.TEXT,
        style: str = "regular",
        max_lines: int | None = None,
        line_gap: float = 4.0,
    ) -> None:
        super().__init__()
        self.text, self.size, self.colour, self.style = text, size, colour, style
        self.max_lines, self.line_gap = max_lines, line_gap

    @property
    def line_height(self) -> float:
        """Points from one line to the next."""
        return self.size + self.line_gap

    def lines(self) -> list[str]:
        """The lines as drawn: wrapped to the width, cut to what fits, ellipsized if cut."""
        m = _measure(self)
        out = wrap(m, self.text, self.rect.w, self.size, self.style)
        fit = max(0, int((self.rect.h + 1e-9) // self.line_height))
        if self.max_lines is not None:
            fit = min(fit, self.max_lines)
        out = [ellipsize(m, ln, self.rect.w, self.size, self.style) for ln in out]
        if len(out) > fit:
            out = out[:fit]
            if out:
                out[-1] = ellipsize(m, out[-1] + " …", self.rect.w, self.size, self.style)
                if not out[-1].endswith("…"):
                    out[-1] += "…"
        return out

    def paint_self(self, p: Painter, z: int) -> None:
        """The lines from the top down."""
        y = self.rect.y1 - self.line_height / 2
        for ln in self.lines():
            p.text(ln, self.rect.x, y, self.size, self.colour, style=self.style, z=z)
            y -= self.line_height


class Button(Element):
    """A push button: click, or Enter / Space while focused, runs ``action``.

    Args:
        label: the text.
        action: what it does (``None``: inert).
        key: a shortcut hint drawn on the right (the window maps the key itself).
        primary: drawn highlighted (the default choice).
        active: drawn as switched on (toggles, the current tool).
        tip: tooltip / test handle (default the label).
        show_tip: show ``tip`` as a tooltip on hover.
        size: font size (points).
        align: label placement, ``left`` or ``center``.
    """

    def __init__(
        self,
        label: str,
        action: Callable[[], Any] | None = None,
        key: str = "",
        primary: bool = False,
        active: bool = False,
        tip: str = "",
        show_tip: bool = False,
        size: float = 13.0,
        align: str = "left",
    ) -> None:
        super().__init__(tip=tip or label, focusable=True)
        self.label, self.action, self.key = label, action, key
        self.primary, self.active, self.show_tip, self.size, self.align = (
            primary,
            active,
            show_tip,
            size,
            align,
        )

    def activate(self) -> bool:
        """Run the action (if enabled and set); returns whether it ran."""
        if not self.enabled or self.action is None:
            return False
        self.action()
        return True

    def on_press(self, x: float, y: float, button: int, modifiers: int) -> bool:
        """A left click runs the action."""
        if button == keys.MOUSE_LEFT:
            self.activate()
            return True
        return False

    def on_key(self, symbol: int, modifiers: int) -> bool:
        """Enter or Space runs the action."""
        if symbol in (keys.ENTER, keys.SPACE):
            return self.activate()
        return False

    def paint_self(self, p: Painter, z: int) -> None:
        """Through :meth:`Painter.button` (hover, primary/active, key hint, hit box)."""
        r = self.rect
        p.button(r.x, r.y, r.w, r.h, self.label, self.action, z=z, primary=self.primary, enabled=self.enabled,
                 active=self.active, key=self.key, tip=self.tip, size=self.size, align=self.align)  # fmt: skip


class ScrollList(Element):
    """A vertical list of text rows that scrolls (wheel, Up/Down/Page Up/Page Down/Home/End)
    and has a selected row (click or Enter runs ``on_pick``).

    Args:
        items: the row texts.
        row_h: points per row.
        on_pick: called with the picked row index.
        size: font size (points).

    Attributes:
        offset: index of the first row shown.
        selected: the selected row index, or ``None``.
    """

    def __init__(
        self,
        items: Sequence[str] = (),
        row_h: float = 20.0,
        on_pick: Callable[[int], Any] | None = None,
        size: float = 12.0,
        tip: str = "",
    ) -> None:
        super().__init__(tip=tip, focusable=True)
        self.items = list(items)
        self.row_h, self.on_pick, self.size = row_h, on_pick, size
        self.offset = 0
        self.selected: int | None = None

    def layout(self, rect: Rect) -> None:
        """Place the list; the offset is clamped again for the new height and the selected row
        stays shown (rows selected before the first layout, or a taller window, never leave
        the list scrolled past rows that now fit)."""
        self.rect = rect
        self.scroll_to(self.offset)
        if self.selected is not None and self.items:
            self.select(self.selected)

    @property
    def visible_rows(self) -> int:
        """How many whole rows fit the height."""
        return max(0, int((self.rect.h + 1e-9) // self.row_h))

    @property
    def max_offset(self) -> int:
        """The largest :attr:`offset` (the last row at the bottom)."""
        return max(0, len(self.items) - self.visible_rows)

    def set_items(self, items: Sequence[str]) -> None:
        """Replace the rows, keeping the offset and selection in range."""
        self.items = list(items)
        self.scroll_to(self.offset)
        if self.selected is not None and self.selected >= len(self.items):
            self.selected = len(self.items) - 1 if self.items else None

    def scroll_to(self, offset: int) -> None:
        """Show rows from ``offset`` (clamped to ``0 .. max_offset``)."""
        self.offset = min(max(0, offset), self.max_offset)

    def row_at(self, y: float) -> int | None:
        """The row index at height ``y`` (points), or ``None`` past the last row."""
        k = int((self.rect.y1 - y) // self.row_h)
        i = self.offset + k
        return i if 0 <= k < self.visible_rows and i < len(self.items) else None

    def select(self, i: int | None) -> None:
        """Select row ``i`` (clamped) and scroll so it is shown."""
        if i is None or not self.items:
            self.selected = None
            return
        i = min(max(0, i), len(self.items) - 1)
        self.selected = i
        if i < self.offset:
            self.scroll_to(i)
        elif i >= self.offset + self.visible_rows:
            self.scroll_to(i - self.visible_rows + 1)

    def pick(self) -> None:
        """Run ``on_pick`` for the selected row."""
        if self.selected is not None and self.on_pick is not None:
            self.on_pick(self.selected)

    def on_press(self, x: float, y: float, button: int, modifiers: int) -> bool:
        """A click selects and picks the row under the pointer."""
        i = self.row_at(y)
        if i is not None:
            self.select(i)
            self.pick()
        return True

    def on_scroll(self, x: float, y: float, dy: float) -> bool:
        """Three rows per notch; wheel away from the user shows earlier rows."""
        self.scroll_to(self.offset - round(3 * dy))
        return True

    def on_key(self, symbol: int, modifiers: int) -> bool:
        """Up/Down move the selection, Page Up/Down by a page, Home/End to the ends, Enter picks."""
        page = max(1, self.visible_rows - 1)
        cur = self.selected if self.selected is not None else self.offset - 1
        moves = {keys.UP: cur - 1, keys.DOWN: cur + 1, keys.PAGEUP: cur - page, keys.PAGEDOWN: cur + page,
                 keys.HOME: 0, keys.END: len(self.items) - 1}  # fmt: skip
        if symbol in moves:
            self.select(moves[symbol])
            return True
        if symbol == keys.ENTER:
            self.pick()
            return True
        return False

    def paint_self(self, p: Painter, z: int) -> None:
        """The shown rows (the selected one highlighted) and a scroll bar when needed."""
        r = self.rect
        p.rect(*r.corners, T.FIELD, z)
        m = _measure(self)
        bar = 6.0 if self.max_offset else 0.0
        for k in range(self.visible_rows):
            i = self.offset + k
            if i >= len(self.items):
                break
            y1 = r.y1 - k * self.row_h
            if i == self.selected:
                p.rect(r.x, y1 - self.row_h, r.x1 - bar, y1, T.SECTION, z)
            txt = ellipsize(m, self.items[i], r.w - 12 - bar, self.size)
            p.text(txt, r.x + 6, y1 - self.row_h / 2, self.size, T.TEXT, z=z)
        if bar:
            n = len(self.items)
            th = max(12.0, r.h * self.visible_rows / n)
            ty1 = r.y1 - (r.h - th) * self.offset / self.max_offset
            p.rect(r.x1 - bar, ty1 - th, r.x1, ty1, T.BUTTON_HOVER, z)


class TextField(Element):
    """A one-line text input: typing inserts at the caret; Left/Right/Home/End move it;
    Backspace/Delete erase; Enter runs ``on_enter``.

    Args:
        text: the starting text.
        on_enter: called with the text on Enter.
        max_length: at most this many characters (``None``: no limit).
        allowed: a predicate a typed character must pass (``None``: printable characters).
        size: font size (points).

    Attributes:
        text: the current text.
        caret: the caret position (0 .. ``len(text)``).
    """

    def __init__(
        self,
        text: str = "",
        on_enter: Callable[[str], Any] | None = None,
        max_length: int | None = None,
        allowed: Callable[[str], bool] | None = None,
        size: float = 13.0,
        tip: str = "",
    ) -> None:
        super().__init__(tip=tip, focusable=True)
        self.text, self.caret = text, len(text)
        self.on_enter, self.max_length, self.allowed, self.size = on_enter, max_length, allowed, size

    def on_text(self, text: str) -> bool:
        """Insert the characters that pass the filter (control characters never do)."""
        for ch in text:
            if not ch.isprintable() or (self.allowed is not None and not self.allowed(ch)):
                continue
            if self.max_length is not None and len(self.text) >= self.max_length:
                break
            self.text = self.text[: self.caret] + ch + self.text[self.caret :]
            self.caret += 1
        return True

    def on_motion(self, motion: int) -> bool:
        """Caret moves and erasing (pyglet's text motions equal the key codes)."""
        if motion == keys.LEFT:
            self.caret = max(0, self.caret - 1)
        elif motion == keys.RIGHT:
            self.caret = min(len(self.text), self.caret + 1)
        elif motion in (keys.HOME, keys.UP):
            self.caret = 0
        elif motion in (keys.END, keys.DOWN):
            self.caret = len(self.text)
        elif motion == keys.BACKSPACE:
            if self.caret > 0:
                self.text = self.text[: self.caret - 1] + self.text[self.caret :]
                self.caret -= 1
        elif motion == keys.DELETE:
            self.text = self.text[: self.caret] + self.text[self.caret + 1 :]
        else:
            return False
        return True

    def on_key(self, symbol: int, modifiers: int) -> bool:
        """Enter runs ``on_enter``; other keys without Ctrl are used (their characters arrive
        through :meth:`on_text`), so typing never triggers a screen's shortcuts. Caret keys and erasing arrive as text motions
        (:meth:`on_motion`; pyglet sends both a key press and a motion for them, so handling
        them here too would erase twice)."""
        if symbol == keys.ENTER:
            if self.on_enter is not None:
                self.on_enter(self.text)
            return True
        if symbol in (keys.TAB, keys.ESCAPE) or modifiers & keys.MOD_CTRL:
            return False  # focus moves, dialogs cancel, Ctrl shortcuts still work
        return True  # typing (or erasing) must not trigger the screen's shortcuts

    def on_press(self, x: float, y: float, button: int, modifiers: int) -> bool:
        """A click puts the caret at the end (and the screen gives the field the focus)."""
        self.caret = len(self.text)
        return True

    def paint_self(self, p: Painter, z: int) -> None:
        """The box, the text (its end kept in view) and the caret when focused."""
        r = self.rect
        p.rect(*r.corners, T.FIELD, z)
        p.frame(*r.corners, 1.0, T.ACTIVE if self.focused else T.BUTTON, z)
        m = _measure(self)
        shown = self.text
        while shown and m.measure(shown, self.size) > r.w - 16:
            shown = shown[1:]
        p.text(shown, r.x + 8, r.y + r.h / 2, self.size, T.TEXT, z=z)
        if self.focused:
            left = self.text[: self.caret][-len(shown) :] if shown else ""
            cx = r.x + 8 + m.measure(left, self.size)
            p.rect(cx, r.y + 6, cx + 1.5, r.y1 - 6, T.TEXT, z)


class Dialog(Element):
    """A modal dialog: a title, a message, optional body elements and a row of buttons,
    centred over a shaded screen. Open with :meth:`Screen.open`; a click outside does
    nothing; Escape runs ``on_cancel`` (and closes) when given.

    Args:
        title: the heading.
        message: wrapped text under it.
        buttons: ``(label, action)`` pairs, left to right; the first is the primary one. Each
            button closes the dialog, then runs its action.
        body: extra elements (a :class:`TextField` ...) stacked under the message, each
            ``body_h`` points high.
        width: the dialog's width (points); the height follows from its content.
        on_cancel: what Escape does (``None``: Escape does nothing).
        shade: alpha of the shade over the screen (0-255).
    """

    def __init__(
        self,
        title: str,
        message: str = "",
        buttons: Sequence[tuple[str, Callable[[], Any] | None]] = (),
        body: Sequence[Element] = (),
        width: float = 520.0,
        on_cancel: Callable[[], Any] | None = None,
        shade: int = 150,
        body_h: float = 30.0,
    ) -> None:
        super().__init__(tip=f"dialog {title}")
        self.title, self.message, self.width, self.on_cancel, self.shade = (
            title,
            message,
            width,
            on_cancel,
            shade,
        )
        self.body_h = body_h
        self.text_block = self.add(TextBlock(message, size=13.0, colour=T.TEXT))
        self.body = [self.add(b) for b in body]
        self.buttons: list[Button] = []
        for i, (label, act) in enumerate(buttons):
            self.buttons.append(self.add(Button(label, self._closing(act), primary=i == 0, align="center")))  # type: ignore[arg-type]
        self.box = Rect(0, 0, 0, 0)

    def _closing(self, act: Callable[[], Any] | None) -> Callable[[], Any]:
        def run() -> None:
            s = self.screen
            if s is not None:
                s.close(self)
            if act is not None:
                act()

        return run

    def hit_test(self, x: float, y: float) -> Element | None:
        """The dialog covers the whole screen (modality): outside its box, itself."""
        if not self.box.contains(x, y):
            return self
        return super().hit_test(x, y)

    def on_press(self, x: float, y: float, button: int, modifiers: int) -> bool:
        """Clicks on the dialog (or outside it) do nothing but are used."""
        return True

    def on_key(self, symbol: int, modifiers: int) -> bool:
        """Escape cancels when the dialog allows it."""
        if symbol == keys.ESCAPE and self.on_cancel is not None:
            s = self.screen
            if s is not None:
                s.close(self)
            self.on_cancel()
            return True
        return False

    def layout(self, rect: Rect) -> None:
        """Centre the box in ``rect``: title 46, message lines, body rows, buttons 56 points."""
        self.rect = rect
        w = min(self.width, max(120.0, rect.w - 40))
        s = self.screen
        n_lines = len(wrap(s.measure, self.message, w - 40, 13.0)) if (s is not None and self.message) else 0
        h = 46 + n_lines * 17 + (8 if n_lines else 0) + len(self.body) * (self.body_h + 8) + 60
        self.box = Rect(rect.x + (rect.w - w) / 2, rect.y + (rect.h - h) / 2, w, h)
        inner = self.box.inset(20, 0)
        y = self.box.y1 - 46
        self.text_block.layout(Rect(inner.x, y - n_lines * 17, inner.w, n_lines * 17))
        y -= n_lines * 17 + (8 if n_lines else 0)
        for b in self.body:
            b.layout(Rect(inner.x, y - self.body_h, inner.w, self.body_h))
            y -= self.body_h + 8
        if self.buttons:
            cells = columns(Rect(inner.x, self.box.y + 18, inner.w, 30), [FLEX] * len(self.buttons), gap=12)
            for b, c in zip(self.buttons, cells, strict=True):
                b.layout(c)

    def paint_self(self, p: Painter, z: int) -> None:
        """The shade, the box with its accent edge, the title; a hit box eats outside clicks."""
        W, H = self.rect.w, self.rect.h
        p.rect(0, 0, W, H, (8, 9, 11, self.shade), z)
        b = self.box
        p.rect(b.x + 4, b.y - 4, b.x1 + 4, b.y1 - 4, (0, 0, 0, 120), z)
        p.rect(*b.corners, T.PANEL, z)
        p.rect(b.x, b.y1 - 4, b.x1, b.y1, T.ACTIVE, z)
        p.widget(0, 0, W, H, None, "modal", z)
        p.text(self.title, b.x + 20, b.y1 - 26, 17, T.ACTIVE, style="bold", z=z)
