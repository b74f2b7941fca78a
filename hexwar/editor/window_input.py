"""The editor window's input: mouse presses, drags, releases and wheel, typing, and the
keyboard shortcuts (:data:`hexwar.editor.help_overlay.SHORTCUTS`).

A mixin of :class:`hexwar.editor.window.EditorWindow`: a click goes to an open prompt, a panel
widget or the map tool, in that order; keys go to a prompt, a focused search field, the shared
window keys (:class:`~hexwar.ui.window_base.WindowBehaviour`) or the session's tools.
"""

from __future__ import annotations

from typing import Any

from ..render import backend

backend.ensure_configured()

from pyglet.window import key, mouse  # noqa: E402

from ..ui.widgets import HitBox, top_hit  # noqa: E402
from .session import LEFT, MIDDLE, RIGHT  # noqa: E402

__all__ = ["EditorInputMixin"]


class EditorInputMixin:
    """The input half of :class:`~hexwar.editor.window.EditorWindow` (see module doc)."""

    session: Any
    mapview: Any
    behaviour: Any
    palette: Any
    wrecks: Any
    modal: str | None
    tab: str
    show_help: bool
    ui_screen: Any
    _mouse: tuple[float, float]
    _pan_drag: bool
    _minimap_drag: bool
    _quit_after_save: bool
    _after: Any
    _sync_modal: Any
    _paint_if_changed: Any
    _painter: Any
    _palette_now: Any
    _minimap_click: Any
    _tool: Any
    _close_modal: Any
    _quit_save: Any
    _quit_discard: Any
    _recover_restore: Any
    _recover_discard: Any
    _saveas_confirm: Any
    _resize_confirm: Any
    _new_map_confirm: Any
    hex_at: Any
    map_area: Any
    fit_map: Any
    focused_list: Any
    open_resize: Any
    open_new_map: Any
    open_save_as: Any
    save: Any
    request_quit: Any
    toggle_help: Any
    toggle_labels: Any

    def on_close(self) -> bool:
        """The window's close button: ask about unsaved changes first."""
        self.request_quit()
        return True  # handled: we close ourselves

    def on_mouse_motion(self, x: float, y: float, dx: float, dy: float) -> None:
        """Hover: status bar and brush cursor follow the hex under the mouse."""
        self._mouse = (x, y)
        if self.modal is None and not self.show_help:
            self.session.move(self.hex_at(x, y))

    def on_mouse_press(self, x: float, y: float, button: int, modifiers: int) -> None:
        """Clicks go to a prompt, a panel widget, or the map tool."""
        self._mouse = (x, y)
        if self.modal is not None:
            self._sync_modal()
            self.ui_screen.mouse_press(x, y, button, modifiers)  # a dialog eats every click
            self._after()
            return
        if self.show_help:
            self.show_help = False
            return
        hit = top_hit(self._widgets_now(), x, y)
        for lst in getattr(self, "_lists", {}).values():
            lst.focused = False  # a click elsewhere leaves a search field (a click on it focuses again)
        if hit is not None:
            if hit.action is not None and button == mouse.LEFT:
                self._minimap_drag = hit.tip == "minimap"  # dragging on the minimap keeps jumping
                hit.action()
                self._after()
            return
        if button == mouse.MIDDLE:
            self._pan_drag = True
            return
        h = self.hex_at(x, y)
        self.session.press(h, _btn(button), modifiers)
        self._after()

    def on_mouse_drag(self, x: float, y: float, dx: float, dy: float, buttons: int, modifiers: int) -> None:
        """Drags paint strokes, stretch lines and rectangles, or pan (middle button)."""
        self._mouse = (x, y)
        if self._pan_drag or buttons & mouse.MIDDLE:
            self.mapview.camera.pan(dx, dy)
            return
        if self._minimap_drag:
            self._minimap_click()
            return
        if self.modal is not None or self.show_help:
            return
        self.session.drag(self.hex_at(x, y), modifiers)
        self._after()

    def on_mouse_release(self, x: float, y: float, button: int, modifiers: int) -> None:
        """Ends a stroke, line, rectangle or deploy-zone drag (one undo step each)."""
        self._mouse = (x, y)
        if self._pan_drag or self._minimap_drag:
            self._pan_drag = self._minimap_drag = False
            return
        self.session.release(self.hex_at(x, y), modifiers)
        self._after()

    def on_mouse_scroll(self, x: float, y: float, scroll_x: float, scroll_y: float) -> None:
        """Over a list (palette, Event cards, a dialog's list): scroll it, three rows a notch;
        over the map: zoom at the cursor."""
        if self.modal is not None:
            self._sync_modal()
            self.ui_screen.mouse_scroll(x, y, scroll_y)
            return
        for lst in getattr(self, "_lists", {}).values():
            if lst.contains(x, y):
                lst.scroll(-round(3 * scroll_y))
                return
        if self.hex_at(x, y) is None:
            return  # over a panel: nothing to zoom
        if scroll_y:
            self.mapview.camera.zoom_at(x, y, 1.15**scroll_y)

    def on_text(self, text: str) -> None:
        """Typing into a prompt's text field (Save As, a scenario field, the card search, the
        Resize and New map dialogs) or a palette's search field."""
        if self.modal is not None and self.modal != "quit" and self.modal != "recover":
            self._sync_modal()
            self.ui_screen.text(text)
        elif self.modal is None and (lst := self.focused_list()) is not None:
            lst.type(text)

    def on_text_motion(self, motion: int) -> None:
        """Caret moves and erasing in a prompt's text field (or a palette's search field)."""
        if self.modal is not None and self.modal != "quit" and self.modal != "recover":
            self._sync_modal()
            self.ui_screen.text_motion(motion)
        elif (
            self.modal is None and (lst := self.focused_list()) is not None and motion == key.MOTION_BACKSPACE
        ):
            lst.erase()

    def on_key_press(self, symbol: int, modifiers: int) -> bool:
        """Keyboard shortcuts (see :data:`hexwar.editor.help_overlay.SHORTCUTS`)."""
        s = self.session
        ctrl = bool(modifiers & (key.MOD_CTRL | key.MOD_COMMAND))
        shift = bool(modifiers & key.MOD_SHIFT)
        if self.modal is not None:
            return self._modal_key_press(symbol, ctrl, shift)
        if self.show_help:
            if symbol in (key.ESCAPE, key.H, key.F1):
                self.show_help = False
            return True
        lst = self.focused_list()
        if lst is not None and not ctrl:  # typing goes to the search field, not to tool letters
            pick = self._palette_now()[3] if lst is self._palette_now()[0] else None
            lst.key(symbol, pick)
            return True
        shared = self.behaviour.key(symbol, modifiers)  # Ctrl+Q, Esc, H / F1: as in every window
        if shared == "handled":
            self._after()
            return True
        if shared == "cancel":
            s.cancel()
            return True  # never let Esc close the window
        if shared == "help":
            self.toggle_help()
            return True
        if ctrl and symbol == key.F:
            if self.tab != "map":
                self.tab = "map"
            self._palette_now()[0].focus()
            self.session.say("Type to search the palette; Up/Down choose, Enter picks, Esc leaves the field")
            return True
        if ctrl and symbol in (key.R, key.N):
            self.open_resize() if symbol == key.R else self.open_new_map()
            return True
        if ctrl:
            return self._ctrl_key(symbol, shift)
        return self._plain_key(symbol)

    def _ctrl_key(self, symbol: int, shift: bool) -> bool:
        """Ctrl (Cmd) shortcuts: undo, redo, save, clipboard, select all, quit."""
        s = self.session
        if symbol == key.Z:
            s.redo() if shift else s.undo()
        elif symbol == key.Y:
            s.redo()
        elif symbol == key.S:
            self.open_save_as() if shift else self.save()
        elif symbol == key.C:
            s.copy()
        elif symbol == key.X:
            s.cut()
        elif symbol == key.V:
            s.begin_paste()
        elif symbol == key.A:
            s.select_all()
        elif symbol == key.Q:
            self.request_quit()
        else:
            return False
        self._after()
        return True

    def _plain_key(self, symbol: int) -> bool:
        """Shortcuts without Ctrl: tools by letter, brush, rotation and flips, zoom and pan, the
        terrain hotkeys; Esc cancels (and never closes the window)."""
        s = self.session
        if symbol == key.ESCAPE:
            s.cancel()
            return True  # never let Esc close the window
        if symbol in (key.H, key.F1):
            self.toggle_help()
        elif symbol == key.BRACKETLEFT:
            s.set_brush(s.brush - 1)
        elif symbol == key.BRACKETRIGHT:
            s.set_brush(s.brush + 1)
        elif symbol == key.COMMA:
            s.rotate(-1)
        elif symbol == key.PERIOD:
            s.rotate(1)
        elif symbol == key.SLASH:
            s.flip("lr")
        elif symbol == key.BACKSLASH:
            s.flip("tb")
        elif symbol in (key.DELETE, key.BACKSPACE):
            s.delete_selection()
        elif symbol == key.TAB:
            s.cycle_side()
        elif symbol == key.T:
            self.toggle_labels()
        elif symbol == key.HOME:
            self.fit_map()
        elif symbol in (key.PLUS, key.EQUAL, key.NUM_ADD):
            self.mapview.camera.zoom_at(*self._map_centre(), 1.25)
        elif symbol in (key.MINUS, key.NUM_SUBTRACT):
            self.mapview.camera.zoom_at(*self._map_centre(), 0.8)
        elif symbol in (key.LEFT, key.RIGHT, key.UP, key.DOWN):
            d = 60.0
            self.mapview.camera.pan(
                {key.LEFT: d, key.RIGHT: -d}.get(symbol, 0.0), {key.DOWN: d, key.UP: -d}.get(symbol, 0.0)
            )
        elif symbol in (key.PAGEUP, key.PAGEDOWN):
            step = 1 if symbol == key.PAGEDOWN else -1
            if s.tool == "unit":
                s.cycle_unit(step)
            else:
                ids = [w.id for w in self.wrecks]
                if ids:
                    i = ids.index(s.wreck) if s.wreck in ids else 0
                    s.set_wreck(ids[(i + step) % len(ids)])
        elif key._0 <= symbol <= key._9:
            digit = chr(symbol)
            for e in self.palette:
                if e.hotkey == digit:
                    s.set_terrain(e.key)
                    self.tab = "map"
        else:
            letter = key.symbol_string(symbol)
            if len(letter) == 1 and letter.isalpha() and s.tool_by_key(letter):
                self._tool(s.tool)
            else:
                return False
        self._after()
        return True

    def _modal_key_press(self, symbol: int, ctrl: bool, shift: bool = False) -> bool:
        m = self.modal
        if symbol == key.ESCAPE:
            self._quit_after_save = False
            self._close_modal()
        elif m == "quit" and symbol == key.S:
            self._quit_save()
        elif m == "quit" and symbol == key.D:
            self._quit_discard()
        elif m == "recover" and symbol == key.R:
            self._recover_restore()
        elif m == "recover" and symbol == key.D:
            self._recover_discard()
        elif m == "saveas" and symbol == key.NUM_ENTER:
            self._saveas_confirm()
        elif m in ("resize", "newmap") and symbol == key.NUM_ENTER:
            self._resize_confirm() if m == "resize" else self._new_map_confirm()
        else:  # Enter (the focused button or the field), Tab (focus order)
            self._sync_modal()
            self.ui_screen.key_press(symbol, key.MOD_SHIFT if shift else 0)
        self._after()
        return True

    def _map_centre(self) -> tuple[float, float]:
        x0, y0, x1, y1 = self.map_area()
        return ((x0 + x1) / 2, (y0 + y1) / 2)

    def _widgets_now(self) -> list[HitBox]:
        self._paint_if_changed()
        return list(self._painter.widgets) if self._painter is not None else []


def _btn(button: int) -> int:
    return {mouse.LEFT: LEFT, mouse.RIGHT: RIGHT, mouse.MIDDLE: MIDDLE}.get(button, LEFT)
