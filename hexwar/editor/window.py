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
"""

from __future__ import annotations

import functools
import os
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from ..render import backend
from ..render.map_window import MapAreaMixin

backend.ensure_configured()

import pyglet  # noqa: E402
from pyglet.window import key, mouse  # noqa: E402

from ..errors import HexwarError, ValidationError  # noqa: E402
from ..hexgrid import Hex  # noqa: E402
from ..render.looks import Looks, default_looks  # noqa: E402
from ..render.mapview import MapView  # noqa: E402
from ..render.overlays import HeatmapOverlay, LosOverlay, LosView  # noqa: E402
from ..ui.widgets import (  # noqa: E402  # noqa: E402
    Dialog,
    Element,
    HitBox,
    Painter,
    Rect,
    Screen,
    TextField,
    UiLayer,
    ellipsize,
    grid,
    top_hit,
)
from .help_overlay import SHORTCUTS  # noqa: E402
from .model import EditorDocument  # noqa: E402
from .overlays import BrushCursorOverlay, ObjectiveOverlay, PasteOverlay, ZoneOverlay  # noqa: E402
from .palette import terrain_entries, wreck_entries  # noqa: E402
from .recovery import Autosaver, Recovery  # noqa: E402
from .scenario_draft import SIDES, VARIANTS  # noqa: E402
from .session import LEFT, MIDDLE, RIGHT, TOOL_BY_ID, EditorSession  # noqa: E402
from .tools import brush_hexes  # noqa: E402

__all__ = ["EditorWindow"]

TOP_H = 38
STATUS_H = 28
TOOLBAR_W = 100
PANEL_W = 284

# UI theme (RGB / RGBA)
BG = (34, 36, 40)
PANEL = (43, 46, 51)
SECTION = (52, 56, 62)
BUTTON = (62, 67, 74)
BUTTON_HOVER = (78, 84, 93)
ACTIVE = (214, 164, 62)
TEXT = (226, 224, 214, 255)
DIM = (150, 150, 142, 255)
DARK_TEXT = (30, 28, 24, 255)
ERROR = (236, 98, 84, 255)
OK = (140, 200, 120, 255)
FONT = 10
#: Editor sizes are type points (pyglet's 96 dpi font points); the atlas draws in screen points.
PT = 96 / 72

SIDE_COLOURS = {"german": (64, 104, 176, 255), "soviet": (196, 64, 56, 255)}
GROUPS = (("Terrain", ("brush", "line", "fill", "elevation", "road")),
          ("Features", ("wreck", "rubble", "fire")),
          ("Select", ("select", "wand")),
          ("Check", ("los", "artillery", "spread")),
          ("Scenario", ("deploy", "objective", "unit")))


def _fmt_pct(v: float) -> str:
    return f"{100 * v:.0f}%" if v >= 0.0995 else f"{100 * v:.1f}%"


class EditorWindow(MapAreaMixin, pyglet.window.Window):  # type: ignore[misc]
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

    def __init__(self, doc: EditorDocument, width: int = 1280, height: int = 800, visible: bool = True,
                 clock: Callable[[], float] = time.monotonic, autosave_interval: float = 60.0,
                 recovery_folder: str | os.PathLike[str] | None = None, recoveries: Sequence[Recovery] = (),
                 units: dict[str, list[tuple[str, str, str | None]]] | None = None, looks: Looks | None = None,
                 schedule: bool = True, **kw: Any) -> None:
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
        self.recoveries = list(recoveries)
        if self.recoveries:
            self.modal = "recover"
        self._mouse = (0.0, 0.0)
        self._pan_drag = False
        self._ui_key: Any = None
        self._ov_keys: dict[str, Any] = {}
        # the panels, status bar and prompts: one toolkit painter, uploaded above the map
        self.ui = UiLayer(self, self.mapview.batch, self.mapview.atlas)
        self.ui_screen = Screen(Element(), self.mapview.atlas)
        self._painter: Painter | None = None
        self._dialog_kind: str | None = None
        self._map_obj = doc.map
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
        return (TOOLBAR_W, STATUS_H, max(TOOLBAR_W + 1, w - PANEL_W), max(STATUS_H + 1, h - TOP_H))

    def _after(self) -> None:
        """Bring the view up to date with the document after any action."""
        doc = self.doc
        if doc.map is not self._map_obj:
            self._map_obj = doc.map
            self.mapview.set_map(doc.map)
            self._ov_keys.clear()
        self.set_caption(doc.title)

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

    # -- overlays --------------------------------------------------------------------------
    def _set_ov(self, name: str, key_: Any, make: Callable[[], Any]) -> None:
        if self._ov_keys.get(name, object()) == key_:
            return
        self._ov_keys[name] = key_
        ov = make() if key_ is not None else None
        self.mapview.set_overlay(name, ov)

    def _sync_overlays(self) -> None:
        s = self.session
        m = self.doc.map
        v = self.mapview
        if v.show_labels != s.show_labels:
            v.show_labels = s.show_labels
        sc = self.doc.scenario
        ver = m.version
        # deploy zones per side, objectives, starting units (scenario mode)
        for side in SIDES:
            z = sc.deploy_of(side) if sc is not None else frozenset()  # type: ignore[attr-defined]
            col = SIDE_COLOURS[side]
            self._set_ov(f"deploy-{side}", (z, id(m)) if z else None,
                         functools.partial(ZoneOverlay, z, col, alpha=0.30, border=0.08))
        objs = tuple((o.hex, o.points) for o in sc.objectives) if sc is not None else ()  # type: ignore[attr-defined]
        self._set_ov("objectives", (objs, id(m)) if objs else None, lambda: ObjectiveOverlay(objs))
        units = tuple(sc.units) if sc is not None else ()  # type: ignore[attr-defined]
        if self._ov_keys.get("units", object()) != (units, id(m)):
            self._ov_keys["units"] = (units, id(m))
            self.mapview.set_counters(self._counter_views(units))
        sel = frozenset(s.selection)
        self._set_ov("selection", (sel, id(m)) if sel else None,
                     lambda: ZoneOverlay(sel, (255, 226, 74, 255), alpha=0.18, border=0.06, on_top=True))
        prev = frozenset(s.preview)
        pcol = SIDE_COLOURS[s.side] if s.tool == "deploy" else (255, 255, 255, 255)
        self._set_ov("preview", (prev, pcol, id(m)) if prev else None,
                     lambda: ZoneOverlay(prev, pcol, alpha=0.28, border=0.05, on_top=True))
        paste = s.paste_preview() if s.tool == "paste" else {}
        self._set_ov("paste", (tuple(sorted(paste.items(), key=lambda kv: kv[0])), ver) if paste else None,
                     lambda: PasteOverlay(paste))
        cursor: tuple[Hex, ...] = ()
        if s.hover is not None and s.tool in ("brush", "line", "elevation", "rubble", "fire", "deploy") \
                and self.doc.stroke is None:
            cursor = tuple(brush_hexes(s.hover, s.brush, m))
        elif s.hover is not None and s.tool in ("road", "fill", "wreck", "wand", "select", "los", "artillery",
                                                 "spread", "objective", "unit"):
            cursor = (s.hover,) if m.in_bounds(s.hover) else ()
        self._set_ov("cursor", (cursor, id(m)) if cursor else None, lambda: BrushCursorOverlay(cursor))
        # LOS (R3): the renderer's LOS overlay, fixed or live while choosing the second hex
        los = None
        if s.los is not None:
            a, b, res = s.los
            if res is None and getattr(s, "_live_los", None) is not None:
                res = s._live_los
                b = res.b
            if res is not None and b is not None:
                los = res
        self._set_ov("los", (los.a, los.b, los.status, ver) if los is not None else None, lambda: self._los_overlay(los))
        art = s.artillery
        self._set_ov("artillery", (art[0], art[1], ver) if art is not None else None, lambda: self._artillery_overlay(art))
        spr = s.spread
        self._set_ov("spread", (spr[0], tuple(spr[1].items()), ver) if spr is not None else None,
                     lambda: self._spread_overlay(spr))

    def _counter_views(self, units: Iterable[Any]) -> list[Any]:
        from ..render.counters import UNIT_TYPES, CounterView

        info = _card_info()
        out = []
        for u in units:
            if u.hex is None or not self.doc.map.in_bounds(u.hex):
                continue
            name, utype, full = info.get(u.card, (u.card, "infantry", 1))
            if utype not in UNIT_TYPES:
                utype = "infantry"
            out.append(CounterView(u.hex, u.side, utype, name, full, full,
                                   quality="regular" if u.crew else None, key=u.card))
        return out

    def _los_overlay(self, res: Any) -> Any:
        m = self.doc.map
        reason = res.status
        if res.blocking is not None:
            reason = f"blocked by {res.reason or 'terrain'} in {m.label(res.blocking)}"
        elif res.hindrances:
            reason = f"hindered: +{res.hindrances}"
        return LosOverlay(LosView(res.a, res.b, res.status, tuple(res.intervening), (),
                                  (res.blocking,) if res.blocking is not None else (), reason))

    def _artillery_overlay(self, art: Any) -> Any:
        target, side, dist = art
        vals = {h: float(p) for h, p in dist.items() if h is not None}
        off = float(dist.get(None, 0))
        return HeatmapOverlay(vals, ramp="heat", vmin=0.0, vmax=max(vals.values()) if vals else 1.0,
                              title=f"P(landing) {side}, off map {_fmt_pct(off)}", show_values=True, legend=False,
                              fmt=_fmt_pct, hide_below=1e-12)

    def _spread_overlay(self, spr: Any) -> Any:
        h, chances = spr
        vals = {n: float(p) for n, p in chances.items()}
        vals[h] = 1.0
        return HeatmapOverlay(vals, ramp="fire", vmin=0.0, vmax=1.0, title="P(fire spreads next turn)",
                              show_values=True, legend=False, fmt=_fmt_pct, hide_below=1e-12)

    # -- panels (drawn through the widget toolkit, hexwar.ui.widgets) ----------------------
    def _ui_state(self) -> Any:
        s, doc = self.session, self.doc
        sc = doc.scenario
        return (self.get_size(), s.tool, s.brush, s.terrain, s.wreck, s.side, s.unit_index, s.show_labels,
                doc.dirty, doc.stack.can_undo(), doc.stack.can_redo(), doc.map.width, doc.map.height,
                self.tab, sc, self._status_state(), self.modal, self.modal_text, self._field.caret,
                self.show_help, id(self.ui_screen.focus), self._hover_key())  # fmt: skip

    def _hover_key(self) -> int:
        hit = top_hit(self._painter.widgets, *self._mouse) if self._painter is not None else None
        return -1 if hit is None else id(hit)

    def _paint_if_changed(self) -> None:
        """Repaint the panels, the status bar and any prompt when what they show changed."""
        self._sync_modal()
        k = self._ui_state()
        if k == self._ui_key and self._painter is not None:
            return
        self._ui_key = k
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

    def _kit(self, p: Painter) -> tuple[Any, Any, Any]:
        """The editor's drawing vocabulary over the toolkit painter: ``rect(x, y, w, h)``,
        ``text(...)`` with sizes in the editor's type points, ``button(...)``."""
        atlas = self.mapview.atlas

        def rect(x: float, y: float, w: float, h: float, col: Sequence[int], z: int = 0) -> None:
            p.rect(x, y, x + w, y + h, _rgba(col), z)

        def text(t: str, x: float, y: float, col: Any = TEXT, size: float = FONT, bold: bool = False,
                 ax: str = "left", ay: str = "center", width: float | None = None, z: int = 0) -> None:
            style = "bold" if bold else "regular"
            if width is not None:
                t = ellipsize(atlas, t, width, size * PT, style)
            p.text(t, x, y, size * PT, _rgba(col), ax=ax, ay=ay, style=style, z=z)

        def button(x: float, y: float, w: float, h: float, label: str, action: Callable[[], None] | None,
                   active: bool = False, enabled: bool = True, tip: str = "", size: float = FONT) -> None:
            p.button(x, y, w, h, label, action, active=active, enabled=enabled, tip=tip, size=size * PT,
                     align="center")

        return rect, text, button

    def _paint_panels(self, p: Painter) -> None:
        rect, text, button = self._kit(p)
        W, H = self.get_size()
        # backgrounds
        rect(0, H - TOP_H, W, TOP_H, BG)
        rect(0, 0, W, STATUS_H, BG)
        rect(0, STATUS_H, TOOLBAR_W, H - TOP_H - STATUS_H, PANEL)
        rect(W - PANEL_W, STATUS_H, PANEL_W, H - TOP_H - STATUS_H, PANEL)
        rect(0, H - TOP_H, W, 1, (20, 20, 22))
        rect(0, STATUS_H - 1, W, 1, (20, 20, 22))
        rect(TOOLBAR_W - 1, STATUS_H, 1, H - TOP_H - STATUS_H, (20, 20, 22))
        rect(W - PANEL_W, STATUS_H, 1, H - TOP_H - STATUS_H, (20, 20, 22))

        # top bar: title and buttons
        s, doc = self.session, self.doc
        text("hexwar", 12, H - TOP_H / 2, ACTIVE, size=13, bold=True)
        name = doc.path.name if doc.path is not None else f"{doc.map.name} (unsaved)"
        kind = "scenario" if doc.scenario is not None else "map"
        text(f"{'● ' if doc.dirty else ''}{name}  ·  {kind} {doc.map.width} × {doc.map.height}", 92,
             H - TOP_H / 2, TEXT, size=11, width=W - 560)
        bx = W - 8
        for label, action, enabled, active in reversed((
            ("Save", self.save, True, False),
            ("Undo", s.undo, doc.stack.can_undo(), False),
            ("Redo", s.redo, doc.stack.can_redo(), False),
            ("Labels", self.toggle_labels, True, s.show_labels),
            ("Fit", self.fit_map, True, False),
            ("Help", self.toggle_help, True, self.show_help),
        )):  # fmt: skip
            w = 62
            bx -= w + 6
            button(bx, H - TOP_H + 6, w, TOP_H - 12, label, action, active=active, enabled=enabled)

        # tool bar: one button per tool object (hexwar.editor.session.TOOLS)
        y = H - TOP_H - 8
        for gname, ids in GROUPS:
            if gname == "Scenario" and doc.scenario is None:
                continue
            y -= 14
            text(gname.upper(), 10, y, DIM, size=8, bold=True)
            y -= 6
            for tid in ids:
                t = TOOL_BY_ID[tid]
                y -= 27
                button(6, y, TOOLBAR_W - 12, 24, "", functools.partial(self._tool, tid), active=s.tool == tid,
                       tip=t.help)
                col = DARK_TEXT if s.tool == tid else TEXT
                text(t.key, 16, y + 12, col, size=9, bold=True, ax="center")
                text(t.label, 28, y + 12, col, size=FONT)
            y -= 4

        # right panel: tabs
        px = W - PANEL_W + 10
        pw = PANEL_W - 20
        y = H - TOP_H - 8
        if doc.scenario is not None:
            y -= 26
            button(px, y, pw / 2 - 2, 24, "Map", lambda: self._tab("map"), active=self.tab == "map")
            button(px + pw / 2 + 2, y, pw / 2 - 2, 24, "Scenario", lambda: self._tab("scenario"),
                   active=self.tab == "scenario")
            y -= 6
        if self.tab == "scenario" and doc.scenario is not None:
            self._paint_scenario_panel(p, px, pw, y)
        else:
            self._paint_map_panel(p, px, pw, y)

    def _paint_map_panel(self, p: Painter, px: float, pw: float, y: float) -> None:
        rect, text, button = self._kit(p)
        s, doc = self.session, self.doc

        # terrain palette (generated from the terrain table, R2.5)
        y -= 18
        text("TERRAIN", px, y, DIM, size=8, bold=True)
        text("click or 1-0", px + pw, y, DIM, size=8, ax="right")
        y -= 4
        for e in self.palette:
            y -= 24
            active = s.terrain == e.key and s.tool in ("brush", "line", "fill")
            hov = p.hovered(px, y, pw, 22)
            rect(px, y, pw, 22, ACTIVE if active else (BUTTON_HOVER if hov else SECTION))
            p.widget(px, y, pw, 22, functools.partial(self._terrain, e.key), e.name)
            cx, cy = px + 15, y + 11
            p.polygon(_hex_points(cx, cy, 10.5), (*e.edge[:3], 255))
            p.polygon(_hex_points(cx, cy, 8.5), (*e.colour[:3], 255))
            col = DARK_TEXT if active else TEXT
            text(e.name, px + 32, y + 11, col, width=pw - 110)
            text(e.detail, px + pw - 22, y + 11, DARK_TEXT if active else DIM, size=8, ax="right")
            text(e.hotkey, px + pw - 6, y + 11, DARK_TEXT if active else DIM, size=8, ax="right", bold=True)

        # brush
        y -= 30
        text("BRUSH", px, y + 8, DIM, size=8, bold=True)
        text("[ ]", px + pw, y + 8, DIM, size=8, ax="right")
        y -= 22
        for i, (r, n) in enumerate(((0, "1 hex"), (1, "7 hexes"), (2, "19 hexes"))):
            button(px + i * (pw / 3), y, pw / 3 - 4, 22, n, functools.partial(self._brush, r), active=s.brush == r)

        # wreck counters (R8.1)
        y -= 26
        text("WRECK COUNTERS", px, y + 8, DIM, size=8, bold=True)
        text("X to place", px + pw, y + 8, DIM, size=8, ax="right")
        cells = grid(Rect(px, y - 34 - 36 * 10, pw, 36 * 10 + 34), len(self.wrecks), 6, 32, gap=4)
        for w, c in zip(self.wrecks, cells, strict=True):
            active = s.wreck == w.id and s.tool == "wreck"
            rect(c.x, c.y, c.w, c.h, ACTIVE if active else (58, 56, 50))
            rect(c.x + 2, c.y + 2, c.w - 4, c.h - 4, (77, 75, 69) if not active else (120, 96, 40))
            if w.los:
                p.circle(c.x1 - 7, c.y + 25, 3.5, (240, 236, 224, 255))
            text(w.id, c.x + c.w / 2, c.y + 20, TEXT, size=8, ax="center", bold=True)
            mcol = (232, 90, 74, 255) if w.applies == "soft" else TEXT
            text(w.caption, c.x + c.w / 2, c.y + 8, mcol, size=8, ax="center")
            p.widget(c.x, c.y, c.w, c.h, functools.partial(self._wreck, w.id), f"{w.id}: {w.nationality}")
        y -= 34 + 36 * ((len(self.wrecks) + 5) // 6 - 1) + 8

        # map size and resize (add / trim rows and columns on each side)
        y -= 18
        text(f"MAP SIZE  {doc.map.width} × {doc.map.height}", px, y, DIM, size=8, bold=True)
        y -= 4
        for i, (side, kw) in enumerate((("Left", "left"), ("Right", "right"), ("Top", "top"), ("Bottom", "bottom"))):
            cx = px + (i % 2) * (pw / 2)
            cy = y - 24 - (i // 2) * 26
            text(side, cx, cy + 11, TEXT)
            if kw == "left":  # two at a time keep the odd-q stagger without an extra row
                for j, (lab, k) in enumerate((("−2", -2), ("−", -1), ("+", 1), ("+2", 2))):
                    tip = f"{'add' if k > 0 else 'trim'} {abs(k)} left column{'s' if abs(k) > 1 else ''}"
                    if abs(k) == 1:
                        tip = f"{'add' if k > 0 else 'trim'} a left row/column"
                    button(cx + 34 + j * 24, cy, 22, 22, lab, functools.partial(self._resize, "left", k), tip=tip,
                           size=8)
                continue
            button(cx + 52, cy, 34, 22, "−", functools.partial(self._resize, kw, -1), tip=f"trim a {kw} row/column")
            button(cx + 90, cy, 34, 22, "+", functools.partial(self._resize, kw, 1), tip=f"add a {kw} row/column")

    def _paint_scenario_panel(self, p: Painter, px: float, pw: float, y: float) -> None:
        rect, text, button = self._kit(p)
        s, sc = self.session, self.doc.scenario
        assert sc is not None
        y -= 18
        text("SIDE", px, y, DIM, size=8, bold=True)
        text("Tab", px + pw, y, DIM, size=8, ax="right")
        y -= 28
        for i, side in enumerate(SIDES):
            button(px + i * (pw / 2), y, pw / 2 - 4, 24, side.capitalize(), functools.partial(self._side, side),
                   active=s.side == side)
        y -= 14
        for side in SIDES:
            y -= 16
            z = len(sc.deploy_of(side))
            n = sum(1 for u in sc.units if u.side == side)
            rect(px, y - 5, 10, 10, SIDE_COLOURS[side])
            text(f"{side.capitalize()}: zone {z} hexes · {n} unit{'s' if n != 1 else ''}", px + 16, y, TEXT, size=9,
                 width=pw - 16)
        y -= 16
        text(f"{len(sc.objectives)} objective hexes", px + 16, y, TEXT, size=9)
        y -= 8

        def stepper(label: str, value: str, minus: Callable[[], None], plus: Callable[[], None]) -> None:
            nonlocal y
            y -= 28
            text(label, px, y + 11, TEXT)
            button(px + pw - 118, y, 30, 22, "−", minus)
            text(value, px + pw - 59, y + 11, ACTIVE, ax="center", bold=True)
            button(px + pw - 30, y, 30, 22, "+", plus)

        y -= 14
        text("SETTINGS", px, y, DIM, size=8, bold=True)
        adj = s.adjust_setting
        stepper("Turn limit", str(sc.turns) if sc.turns else "none", lambda: adj("turns", -1), lambda: adj("turns", 1))
        stepper("Victory points", str(sc.victory_points), lambda: adj("victory_points", -1),
                lambda: adj("victory_points", 1))
        art = sc.artillery_of(s.side)
        stepper(f"Artillery ({s.side})", str(art.missions if art else 0), lambda: adj("missions", -1),
                lambda: adj("missions", 1))
        from ..rules.terrain_effects import default_effects

        hit = art.hit_on if art is not None and art.hit_on is not None else default_effects().side_hit_on(s.side)
        stepper("  hits on d6", f"{hit}+", lambda: adj("hit_on", -1), lambda: adj("hit_on", 1))
        y -= 30
        text("Variants", px, y + 11, TEXT)
        for i, v in enumerate(VARIANTS):
            button(px + pw - 118 + i * 60, y, 56, 22, v, functools.partial(s.toggle_variant, v),
                   active=v in sc.variants)
        evs = _event_ids()
        if evs:
            y -= 22
            text("EVENT CARDS IN THE COMMAND DECK", px, y, DIM, size=8, bold=True)
            for i, eid in enumerate(evs[:12]):
                cx = px + (i % 2) * (pw / 2)
                if i % 2 == 0:
                    y -= 24
                nice = eid.removeprefix("ev_").replace("_", " ")
                button(cx, y, pw / 2 - 4, 21, nice[:20], functools.partial(s.toggle_event, eid),
                       active=eid in sc.events, size=8)
        y -= 22
        text("STARTING UNIT  (N to place, PgUp/PgDn)", px, y, DIM, size=8, bold=True)
        y -= 28
        u = s.current_unit()
        button(px, y, 26, 24, "‹", lambda: s.cycle_unit(-1))
        button(px + pw - 26, y, 26, 24, "›", lambda: s.cycle_unit(1))
        text(u[1] if u else "(no unit cards)", px + pw / 2, y + 12, TEXT if u else DIM, ax="center", width=pw - 60)

    def _status_state(self) -> tuple[str, str, bool, str]:
        s, m = self.session, self.doc.map
        h = s.hover
        info = ""
        if h is not None and m.in_bounds(h):
            bits = m.describe(h)
            sc = self.doc.scenario
            if sc is not None:
                for side in SIDES:
                    if h in sc.deploy_of(side):
                        bits.append(f"{side} deploy")
                o = sc.objective_at(h)
                if o is not None:
                    bits.append(f"objective {o.points} VP")
                us = sc.units_at(h)
                if us:
                    bits.append("units " + ",".join(u.card for u in us))
            info = f"{m.label(h)}   " + " · ".join(bits)
        tool = "Paste" if s.tool == "paste" else TOOL_BY_ID[s.tool].label
        right = f"{tool}  ·  brush {len(brush_hexes(Hex(0, 0), s.brush))}"
        return (info, s.status, s.status_error, right)

    def _paint_status(self, p: Painter) -> None:
        _, text, _ = self._kit(p)
        info, status, error, right = self._status_state()
        W, _ = self.get_size()
        text(info or "—", 10, STATUS_H / 2, TEXT, bold=True, width=310)
        text(status, 330, STATUS_H / 2, ERROR if error else TEXT, width=max(40.0, W - 330 - 200))
        text(right, W - 10, STATUS_H / 2, DIM, ax="right")

    # -- modal prompts (toolkit dialogs) and help -------------------------------------------
    @property
    def modal_text(self) -> str:
        """The Save As prompt's text (its :class:`~hexwar.ui.widgets.TextField`)."""
        return self._field.text

    @modal_text.setter
    def modal_text(self, text: str) -> None:
        self._field.text = text
        self._field.caret = len(text)

    def _sync_modal(self) -> None:
        """Open the toolkit dialog for :attr:`modal` (or close it) when :attr:`modal` changed."""
        if self._dialog_kind == self.modal and (self.modal is None or self.ui_screen.dialogs):
            return
        while self.ui_screen.dialogs:
            self.ui_screen.close()
        self._dialog_kind = self.modal
        if self.modal is not None:
            self.ui_screen.layout(*self.get_size())
            self.ui_screen.open(self._make_dialog(self.modal))

    def _make_dialog(self, kind: str) -> Dialog:
        if kind == "quit":
            where = self.doc.path.name if self.doc.path else "this new map"
            return Dialog("Unsaved changes", f"Save the changes to {where} before quitting?",
                          [("Save  (S)", self._quit_save), ("Discard  (D)", self._quit_discard),
                           ("Cancel  (Esc)", self._close_modal)], shade=120)  # fmt: skip
        if kind == "recover":
            r = self.recoveries[0]
            of = r.document_path.name if r.document_path else "an untitled map"
            return Dialog("Recover unsaved work?",
                          f"The editor did not quit cleanly. Autosave from {r.saved_at or 'earlier'} of {of} can "
                          "be restored.",
                          [("Restore  (R)", self._recover_restore), ("Discard  (D)", self._recover_discard),
                           ("Later  (Esc)", self._close_modal)], shade=120)  # fmt: skip
        hint = ".json saves a map, .toml a scenario" if self.doc.scenario is None else "scenario file (.toml)"
        return Dialog("Save as", hint, [("Save  (Enter)", self._saveas_confirm), ("Cancel  (Esc)", self._close_modal)],
                      body=[self._field], shade=120)  # fmt: skip

    def _paint_help(self, p: Painter) -> None:
        _, text, _ = self._kit(p)
        W, H = self.get_size()
        cols = _help_columns()
        pw = min(W - 40, 1000)
        ph = min(H - 40, 90 + 17 * max(len(c) for c in cols) + 6 * 5)
        x0, y0 = (W - pw) / 2, (H - ph) / 2
        p.rect(0, 0, W, H, (0, 0, 0, 120), 2)
        p.widget(0, 0, W, H, None, "modal", 2)
        p.rect(x0, y0, x0 + pw, y0 + ph, (*PANEL, 255), 2)
        p.rect(x0, y0 + ph - 40, x0 + pw, y0 + ph, (*BG, 255), 2)
        text("Keyboard shortcuts", x0 + 16, y0 + ph - 20, ACTIVE, size=14, bold=True, z=2)
        text("H, F1 or Esc closes", x0 + pw - 16, y0 + ph - 20, DIM, size=10, ax="right", z=2)
        colw = (pw - 32) / len(cols)
        for ci, col in enumerate(cols):
            y = y0 + ph - 62
            for kind, a, bb in col:
                if kind == "section":
                    y -= 6
                    text(a.upper(), x0 + 16 + ci * colw, y, ACTIVE, size=9, bold=True, z=2)
                else:
                    text(a, x0 + 16 + ci * colw, y, TEXT, size=9, bold=True, z=2)
                    text(bb, x0 + 16 + ci * colw + 150, y, DIM, size=9, width=colw - 160, z=2)
                y -= 17

    def toggle_help(self) -> None:
        """Show or hide the keyboard shortcut overlay (H, F1)."""
        self.show_help = not self.show_help

    def toggle_labels(self) -> None:
        """Hex labels on or off (T)."""
        self.session.show_labels = not self.session.show_labels
        self.session.say("Hex labels " + ("on" if self.session.show_labels else "off"))

    def _close_modal(self) -> None:
        self.modal = None
        self.modal_text = ""

    # -- actions ---------------------------------------------------------------------------
    def _tool(self, tid: str) -> None:
        self.session.set_tool(tid)
        if TOOL_BY_ID[tid].scenario_only and self.doc.scenario is not None:
            self.tab = "scenario" if tid != "deploy" else self.tab
        elif tid in ("brush", "line", "fill", "wreck"):
            self.tab = "map"

    def _tab(self, tab: str) -> None:
        self.tab = tab

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

    def save(self, path: str | os.PathLike[str] | None = None) -> bool:
        """Save (Ctrl+S) or Save As ``path``; with no file yet, opens the Save As prompt.

        Refusals (unwritable folder, a scenario the game's validator rejects) are shown in
        the status bar; the document stays dirty. Returns True when saved.
        """
        if path is None and self.doc.path is None:
            self.open_save_as()
            return False
        try:
            p = self.doc.save(path)
        except ValidationError as exc:
            first = exc.problems[0] if exc.problems else None
            more = f" (+{len(exc.problems) - 1} more)" if len(exc.problems) > 1 else ""
            self.session.say(f"Not saved: {first.where + ': ' if first and first.where else ''}"
                             f"{first.message if first else exc}{more}", error=True)
            return False
        except HexwarError as exc:
            self.session.say(f"Not saved: {exc}", error=True)
            return False
        self.session.say(f"Saved {p}")
        self._after()
        return True

    def open_save_as(self) -> None:
        """Open the Save As prompt (Ctrl+Shift+S)."""
        self.modal = "saveas"
        if self.doc.path is not None:
            self.modal_text = str(self.doc.path)
        else:
            suffix = ".toml" if self.doc.scenario is not None else ".json"
            stem = "".join(c if c.isalnum() or c in "-_" else "_" for c in self.doc.map.name.lower()) or "untitled"
            self.modal_text = str(Path.cwd() / f"{stem}{suffix}")

    def _saveas_confirm(self) -> None:
        target = self.modal_text.strip()
        if not target:
            return
        p = Path(os.path.expanduser(target))
        if self.doc.scenario is not None and p.suffix.lower() != ".toml":
            self.session.say("A scenario is saved as a .toml file", error=True)
            return
        if self.doc.scenario is None and p.suffix.lower() != ".json":
            self.session.say("A map is saved as a .json file", error=True)
            return
        self._close_modal()
        if self.save(p) and self._quit_after_save:
            self._quit_now()

    _quit_after_save = False

    def request_quit(self) -> None:
        """Quit; with unsaved changes, ask first (Save / Discard / Cancel)."""
        if self.doc.dirty:
            self.modal = "quit"
        else:
            self._quit_now()

    def _quit_save(self) -> None:
        self._close_modal()
        if self.doc.path is None:
            self._quit_after_save = True
            self.open_save_as()
            return
        if self.save():
            self._quit_now()

    def _quit_discard(self) -> None:
        self._close_modal()
        self._quit_now()

    def _quit_now(self) -> None:
        """Clean quit: remove the recovery file, close the window, stop the app loop."""
        self.autosaver.discard()
        self.quit_requested = True
        pyglet.clock.unschedule(self.tick)
        self.close()
        if pyglet.app.event_loop.is_running:
            pyglet.app.exit()

    def _recover_restore(self) -> None:
        r = self.recoveries.pop(0)
        try:
            doc = r.load()
        except HexwarError as exc:
            self.session.say(f"Recovery file is broken: {exc}", error=True)
            self._close_modal()
            return
        old = self.session
        self.autosaver.discard()
        self.session = EditorSession(doc, units=old.units)
        self.autosaver = Autosaver(doc, clock=self.autosaver.clock, interval=self.autosaver.interval,
                                   folder=self.autosaver.folder)
        r.discard()
        self.autosaver.write_now()
        self._after()
        self.fit_map()
        self.session.say(f"Restored the autosave from {r.saved_at}: save to keep it")
        self._close_modal()
        self._ui_key = None

    def _recover_discard(self) -> None:
        r = self.recoveries.pop(0)
        r.discard()
        self._close_modal()
        self.session.say("Discarded the recovery file")

    # -- events ----------------------------------------------------------------------------
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
        if hit is not None:
            if hit.action is not None and button == mouse.LEFT:
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
        if self.modal is not None or self.show_help:
            return
        self.session.drag(self.hex_at(x, y), modifiers)
        self._after()

    def on_mouse_release(self, x: float, y: float, button: int, modifiers: int) -> None:
        """Ends a stroke, line, rectangle or deploy-zone drag (one undo step each)."""
        self._mouse = (x, y)
        if self._pan_drag:
            self._pan_drag = False
            return
        self.session.release(self.hex_at(x, y), modifiers)
        self._after()

    def on_mouse_scroll(self, x: float, y: float, scroll_x: float, scroll_y: float) -> None:
        """Zoom at the cursor."""
        if scroll_y:
            self.mapview.camera.zoom_at(x, y, 1.15 ** scroll_y)

    def on_text(self, text: str) -> None:
        """Typing into the Save As prompt (its toolkit text field)."""
        if self.modal == "saveas":
            self._sync_modal()
            self.ui_screen.text(text)

    def on_text_motion(self, motion: int) -> None:
        """Caret moves and erasing in the Save As prompt."""
        if self.modal == "saveas":
            self._sync_modal()
            self.ui_screen.text_motion(motion)

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
        if ctrl:
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
            self.mapview.camera.pan({key.LEFT: d, key.RIGHT: -d}.get(symbol, 0.0), {key.DOWN: d, key.UP: -d}.get(symbol, 0.0))
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


def _rgba(col: Sequence[int]) -> tuple[int, ...]:
    c = tuple(col)
    return c if len(c) == 4 else (*c[:3], 255)


def _btn(button: int) -> int:
    return {mouse.LEFT: LEFT, mouse.RIGHT: RIGHT, mouse.MIDDLE: MIDDLE}.get(button, LEFT)


def _hex_points(cx: float, cy: float, r: float) -> list[tuple[float, float]]:
    import math

    return [(cx + r * math.cos(math.pi / 3 * i), cy + r * math.sin(math.pi / 3 * i)) for i in range(6)]


def _help_columns() -> list[list[tuple[str, str, str]]]:
    rows: list[tuple[str, str, str]] = []
    for sec, items in SHORTCUTS:
        rows.append(("section", sec, ""))
        rows.extend(("key", k, w) for k, w in items)
    half = (len(rows) + 1) // 2
    # split at a section boundary near the middle
    cut = half
    for i in range(half, len(rows)):
        if rows[i][0] == "section":
            cut = i
            break
    return [rows[:cut], rows[cut:]]


@functools.cache
def _card_info() -> dict[str, tuple[str, str, int]]:
    """``card id -> (short name, unit type, Full Endurance)`` from the card data, if loadable."""
    try:
        from ..rules.cards import default_cards

        cards = default_cards()
    except (HexwarError, ImportError, OSError):
        return {}
    return {u.id: (u.name, u.unit_type, max(1, u.endurance_full)) for u in cards.units.values()}


@functools.cache
def _event_ids() -> list[str]:
    try:
        from ..rules.cards import default_cards

        return sorted(default_cards().events)
    except (HexwarError, ImportError, OSError):
        return []
