"""The editor window: map view, tool bar, palette, status bar, help overlay and prompts.

The window is a thin shell over :class:`~hexwar.editor.session.EditorSession`: it turns mouse
positions into hexes (the renderer's camera picking) and keys into session calls, and draws
the session's state with the shared renderer (:class:`hexwar.render.mapview.MapView` and its
overlays, plus the editor's own overlays in :mod:`hexwar.editor.overlays`). It holds no
editing logic of its own, so it can be driven headless by dispatching events::

    import pyglet
    pyglet.options["headless"] = True
    win = EditorWindow(EditorDocument.new(20, 15), visible=False)
    win.dispatch_event("on_key_press", key.B, 0)
    win.dispatch_event("on_mouse_press", x, y, mouse.LEFT, 0)

Layout (screen points, y up): a top bar (title and buttons), the tool bar on the left, the
palette panel on the right (terrain swatches generated from the terrain table, brush, wreck
counters, map size; a Scenario tab in scenario mode), the status bar at the bottom (hex under
the cursor, what is in it, the last message, tool and brush), the map in between.

The window is cut by concern into mixins (issue 34): the overlays in
:mod:`hexwar.editor.window_overlays`, the prompts, saving and quitting in
:mod:`hexwar.editor.window_prompts`, the mouse and keys in :mod:`hexwar.editor.window_input`,
the panels in :mod:`hexwar.editor.panels`, :mod:`hexwar.editor.scenario_panel` and
:mod:`hexwar.editor.panes`; this module keeps
construction, drawing and the panel actions.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from typing import Any

from ..render import backend
from ..render.map_window import MapAreaMixin

backend.ensure_configured()

import pyglet  # noqa: E402

from ..errors import HexwarError  # noqa: E402
from ..model.hexgrid import Hex  # noqa: E402
from ..render.looks import Looks, default_looks  # noqa: E402
from ..render.mapview import MapView  # noqa: E402
from ..ui.widgets import (  # noqa: E402  # noqa: E402
    Element,
    Painter,
    Screen,
    TextField,
    UiLayer,
    top_hit,
)
from .model import EditorDocument  # noqa: E402
from .palette import terrain_entries, wreck_entries  # noqa: E402
from .panels import (  # noqa: E402
    STATUS_H,
    TOP_H,
    EditorPanelsMixin,
    side_widths,
)
from .panes import EditorPanesMixin  # noqa: E402
from .recovery import Autosaver, Recovery  # noqa: E402
from .scenario_panel import EditorScenarioPanelMixin  # noqa: E402
from .session import TOOL_BY_ID, EditorSession  # noqa: E402
from .window_input import EditorInputMixin  # noqa: E402
from .window_overlays import EditorOverlaysMixin  # noqa: E402
from .window_prompts import EditorPromptsMixin  # noqa: E402

__all__ = ["EditorWindow"]


class EditorWindow(  # type: ignore[misc]
    EditorInputMixin,
    EditorPromptsMixin,
    EditorOverlaysMixin,
    EditorPanesMixin,
    EditorScenarioPanelMixin,
    EditorPanelsMixin,
    MapAreaMixin,
    pyglet.window.Window,
):
    """The map and scenario editor window (see module doc).

    Args:
        doc: the document to edit.
        width, height: window size in points.
        visible: show the window (tests pass ``False``; headless windows are never shown).
        clock: monotonic seconds for autosave timing (injectable for tests).
        autosave_interval: seconds between autosaves (60).
        recovery_folder: where recovery files go (default :func:`hexwar.editor.recovery.recovery_dir`).
        recoveries: recovery files found at start; the first is offered in a prompt.
        units: the unit catalogue for the unit tool (default: from the card data).
        looks: colours (default the shipped looks).
        schedule: schedule the autosave tick on pyglet's clock (the real app does; tests
            call :meth:`tick` themselves).

    Attributes:
        session: the :class:`EditorSession` (tool state; every edit goes through it).
        mapview: the renderer's :class:`MapView`.
        autosaver: the :class:`Autosaver`.
        modal: the open prompt (``"quit"``, ``"recover"``, ``"saveas"``) or ``None``.
        show_help: the help overlay is open.
        quit_requested: the window was closed cleanly (after saving or discarding).
    """

    def __init__(
        self,
        doc: EditorDocument,
        width: int = 1280,
        height: int = 800,
        visible: bool = True,
        clock: Callable[[], float] = time.monotonic,
        autosave_interval: float = 60.0,
        recovery_folder: str | os.PathLike[str] | None = None,
        recoveries: Sequence[Recovery] = (),
        units: dict[str, list[tuple[str, str, str | None]]] | None = None,
        looks: Looks | None = None,
        schedule: bool = True,
        **kw: Any,
    ) -> None:
        super().__init__(width, height, caption=doc.title, resizable=True, visible=visible, **kw)
        # Handle dispatched events at once (pyglet's event loop does the same when it runs);
        # otherwise a window with no loop running only queues them.
        self._enable_event_queue = False
        self.session = EditorSession(doc, units=units)
        self.looks = looks or default_looks()
        self.mapview = MapView(doc.map, self, looks=self.looks, show_labels=True)
        self.autosaver = Autosaver(doc, clock=clock, interval=autosave_interval, folder=recovery_folder)
        self._attach(doc)
        self.palette = terrain_entries(doc.map.rules, self.looks)
        self.wrecks = wreck_entries(doc.map.rules)
        self.modal: str | None = None
        self._field = TextField(on_enter=lambda _text: self._saveas_confirm(), tip="file name")
        self.show_help = False
        self.quit_requested = False
        self.tab = "map"
        self.sub_tab = "setup"  # the Scenario tab's page: setup, sides, places
        self._typed: Any = None  # the scenario field dialog's TextField or the card picker
        self.recoveries = list(recoveries)
        if self.recoveries:
            self.modal = "recover"
        self._mouse = (0.0, 0.0)
        self._pan_drag = False
        self._minimap_drag = False
        self._ui_key: Any = None
        self._ov_keys: dict[str, Any] = {}
        # the panels, status bar and prompts: one toolkit painter, uploaded above the map
        self.ui = UiLayer(self, self.mapview.batch, self.mapview.atlas)
        self.ui_frame = UiLayer(self, self.mapview.batch, self.mapview.atlas, order=51)  # the minimap's frame
        self._frame_key: Any = None
        self.ui_screen = Screen(Element(), self.mapview.atlas)
        self._painter: Painter | None = None
        self._dialog_kind: str | None = None
        self._map_obj = doc.map
        from ..ui.window_base import WindowBehaviour

        #: quit, Esc, help and title: the behaviour every hexwar window shares (issue 36)
        self.behaviour = WindowBehaviour(
            "editor",
            doc.title,
            at_stake=lambda: self.doc.dirty,
            autosave=lambda: self.autosaver.written,
            close=self._quit_now,
            lost_text=self._lost_text,
            ask=self._ask_quit,
        )
        self.fit_map()
        if schedule:
            pyglet.clock.schedule_interval(self.tick, 1.0)

    # -- plumbing ------------------------------------------------------------------------
    @property
    def doc(self) -> EditorDocument:
        """The document being edited."""
        return self.session.doc

    def _attach(self, doc: EditorDocument) -> None:
        doc.add_listener(lambda ch: None)

    def tick(self, dt: float = 0.0) -> None:
        """Periodic work (every second): autosave when due (never raises into pyglet)."""
        try:
            self.autosaver.tick()
        except HexwarError as exc:
            self.session.say(f"autosave failed: {exc}", error=True)

    def map_area(self) -> tuple[float, float, float, float]:
        """The screen rectangle ``(x0, y0, x1, y1)`` the map is seen through (between panels)."""
        w, h = self.get_size()
        tw, pw = side_widths(w)
        return (tw, STATUS_H, max(tw + 1, w - pw), max(STATUS_H + 1, h - TOP_H))

    def _after(self) -> None:
        """Bring the view up to date with the document after any action (nothing once closed)."""
        if self.behaviour.closed:
            return
        doc = self.doc
        if doc.map is not self._map_obj:
            self._map_obj = doc.map
            self.mapview.set_map(doc.map)
            self._ov_keys.clear()
        self.behaviour.title_base = doc.title
        self.behaviour.focus(self, self.behaviour.focused)  # a closed window's title is left alone

    # -- drawing -------------------------------------------------------------------------
    def on_draw(self) -> None:
        """Draw the map, its overlays, the panels and any prompt."""
        if self.context is None:  # closed
            return
        self.switch_to()
        self._after()
        self._sync_overlays()
        bg = self.looks.map["background"]
        pyglet.gl.glClearColor(bg[0] / 255, bg[1] / 255, bg[2] / 255, 1.0)
        self._paint_if_changed()
        self.clear()
        self.mapview.draw()

    def on_resize(self, width: int, height: int) -> None:
        """Keep the map anchored and relayout the panels."""
        super().on_resize(width, height)
        if hasattr(self, "view"):
            self.mapview.resize(width, height, self.get_pixel_ratio())
            self._ui_key = None

    def screenshot(self, path: str | os.PathLike[str] | None = None) -> Any:
        """Draw the window now and return its image (``pyglet.image.ImageData``); save a PNG to ``path``."""
        self.switch_to()
        self.on_draw()
        img = pyglet.image.get_buffer_manager().get_color_buffer().get_image_data()
        if path is not None:  # encoded in memory, then written atomically (hexwar.fileio)
            import io

            from ..fileio import atomic_write_bytes

            buf = io.BytesIO()
            img.save(str(path), file=buf)
            atomic_write_bytes(path, buf.getvalue())
        return img

    # -- panels (drawn through the widget toolkit, hexwar.ui.widgets) ----------------------
    def _ui_state(self) -> Any:
        s, doc = self.session, self.doc
        sc = doc.scenario
        return (self.get_size(), s.tool, s.brush, s.terrain, s.wreck, s.side, s.unit_index, s.show_labels,
                doc.dirty, doc.stack.can_undo(), doc.stack.can_redo(), doc.map.width, doc.map.height,
                self.tab, sc, self._status_state(), self.modal, self.modal_text, self._field.caret,
                self.show_help, id(self.ui_screen.focus), self._hover_key(), self.sub_tab,
                self._typed_state(), self.palette_state(), id(doc.map), doc.map.version, self.labels_too_small(),
                getattr(self, "_form", None) and tuple(sorted(self._form.items())))  # fmt: skip

    def _hover_key(self) -> int:
        # the hit box's place in drawing order: stable across repaints (a new painter makes new
        # boxes), so hovering one button repaints once, not every frame
        if self._painter is None:
            return -1
        hit = top_hit(self._painter.widgets, *self._mouse)
        return -1 if hit is None else self._painter.widgets.index(hit)

    def _paint_if_changed(self) -> None:
        """Repaint the panels, the status bar and any prompt when what they show changed (and
        the minimap's frame, on its own layer, when the camera moved)."""
        self._sync_modal()
        k = self._ui_state()
        if k == self._ui_key and self._painter is not None:
            self._paint_minimap_frame()
            return
        self._paint_if_changed_now(k)
        self._paint_minimap_frame()

    def _paint_minimap_frame(self) -> None:
        shown = (
            self._painter is not None
            and self._painter.extra.get("minimap")
            and self.modal is None
            and not self.show_help
        )
        fk = (
            self.camera_state(),
            self.get_size(),
            bool(shown),
            self._ui_key is not None and id(self._painter),
        )
        if fk == self._frame_key:
            return
        self._frame_key = fk
        p = Painter(self.mapview.atlas)
        if shown:
            ax0, ay0, ax1, ay1 = self.map_area()
            cam = self.mapview.camera
            v0, v1 = cam.screen_to_world(ax0, ay0), cam.screen_to_world(ax1, ay1)
            self.minimap_now().paint_view(p, (v0[0], v0[1], v1[0], v1[1]))
        self.ui_frame.show(p)

    def _paint_if_changed_now(self, k: Any) -> None:
        self._ui_key = k
        self._frame_key = None
        for lst in getattr(self, "_lists", {}).values():
            lst.rect = None  # only the lists painted now take the wheel
        p = Painter(self.mapview.atlas, self._mouse)
        self._paint_panels(p)
        self._paint_status(p)
        if self.modal is not None:
            self.ui_screen.layout(*self.get_size())
            self.ui_screen.paint(p)
        elif self.show_help:
            self._paint_help(p)
        self._painter = p
        self.ui.show(p)

    def screen_texts(self) -> list[str]:
        """Every string on screen now (panels, status bar, prompts; tests read it)."""
        self._paint_if_changed()
        return list(self._painter.texts) if self._painter is not None else []

    # -- actions ---------------------------------------------------------------------------
    def _tool(self, tid: str) -> None:
        self.session.set_tool(tid)
        if self.session.tool != tid:
            return  # refused (a scenario tool on a map): the status bar says why
        self._palette_for_tool(tid)
        if tid == "unit" and self.doc.scenario is not None:
            self.tab = "map"  # the unit palette
        elif TOOL_BY_ID[tid].scenario_only and self.doc.scenario is not None:
            self.tab = "scenario" if tid != "deploy" else self.tab
        elif tid in ("brush", "line", "fill", "wreck"):
            self.tab = "map"

    def _tab(self, tab: str) -> None:
        self.tab = tab

    def _sub(self, page: str) -> None:
        self.sub_tab = page

    def _profile(self, profiles: list[str], i: int) -> None:
        if profiles:
            self.session.set_weapon_profile(profiles[i % len(profiles)])

    def _choose_objective(self, h: Hex) -> None:
        self.session.objective = h

    def _problems(self) -> list[Any]:
        """The validator's problems with the scenario now (cached per draft and map version)."""
        from .scenario_fields import draft_problems

        sc, m = self.doc.scenario, self.doc.map
        k = (sc, m.version, id(m), self.doc.path)
        if getattr(self, "_problems_key", None) != k:
            self._problems_key = k
            p = self.doc.path if self.doc.path is not None and self.doc.path.suffix == ".toml" else None
            self._problems_cache = draft_problems(sc, m, p) if sc is not None else []
        return list(self._problems_cache)

    def _terrain(self, k: str) -> None:
        self.session.set_terrain(k)

    def _wreck(self, wid: str) -> None:
        self.session.set_wreck(wid)

    def _brush(self, r: int) -> None:
        self.session.set_brush(r)

    def _side(self, side: str) -> None:
        if self.session.side != side:
            self.session.cycle_side()

    def _resize(self, which: str, n: int) -> None:
        if self.session.resize(**{which: n}):
            self._after()
            self.fit_map()

    # -- test helpers ------------------------------------------------------------------------
    def widget_at(self, tip_or_label: str) -> tuple[float, float]:
        """Centre point of the first panel widget whose tip matches (for tests and scripts).

        Raises:
            HexwarError: when no widget has that tip.
        """
        for w in self._widgets_now():
            if w.tip == tip_or_label and w.z == 0:
                return (w.x + w.w / 2, w.y + w.h / 2)
        raise HexwarError(f"no widget {tip_or_label!r}")
