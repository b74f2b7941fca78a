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
from ..model.hexgrid import Hex  # noqa: E402
from ..render.looks import Looks, default_looks  # noqa: E402
from ..render.mapview import MapView  # noqa: E402
from ..render.overlays import HeatmapOverlay, LosOverlay, LosView  # noqa: E402
from ..ui.widgets import (  # noqa: E402  # noqa: E402
    Element,
    HitBox,
    Painter,
    Screen,
    TextField,
    UiLayer,
    top_hit,
)
from .model import EditorDocument  # noqa: E402
from .overlays import BrushCursorOverlay, ObjectiveOverlay, PasteOverlay, ZoneOverlay  # noqa: E402
from .palette import terrain_entries, wreck_entries  # noqa: E402
from .panels import (  # noqa: E402
    SIDE_COLOURS,
    STATUS_H,
    TOP_H,
    EditorPanelsMixin,
    _card_info,
    side_widths,
)
from .panes import EditorPanesMixin  # noqa: E402
from .recovery import Autosaver, Recovery  # noqa: E402
from .scenario_draft import SIDES  # noqa: E402
from .session import LEFT, MIDDLE, RIGHT, TOOL_BY_ID, EditorSession  # noqa: E402
from .tools import brush_hexes  # noqa: E402

__all__ = ["EditorWindow"]


def _fmt_pct(v: float) -> str:
    return f"{100 * v:.0f}%" if v >= 0.0995 else f"{100 * v:.1f}%"


class EditorWindow(EditorPanesMixin, EditorPanelsMixin, MapAreaMixin, pyglet.window.Window):  # type: ignore[misc]
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
            self._set_ov(
                f"deploy-{side}",
                (z, id(m)) if z else None,
                functools.partial(ZoneOverlay, z, col, alpha=0.30, border=0.08),
            )
        objs = tuple((o.hex, o.points) for o in sc.objectives) if sc is not None else ()  # type: ignore[attr-defined]
        self._set_ov("objectives", (objs, id(m)) if objs else None, lambda: ObjectiveOverlay(objs))
        # named areas of the scenario's [areas] table, one tinted zone each
        from .panels import _area_colour

        areas = dict(self._area_hexes())
        for ov in [k for k in self._ov_keys if k.startswith("area:") and k[5:] not in areas]:
            self._set_ov(ov, None, lambda: None)
        for name, hexes in areas.items():
            self._set_ov(
                f"area:{name}",
                (hexes, id(m)) if hexes else None,
                functools.partial(ZoneOverlay, hexes, _area_colour(name), alpha=0.22, border=0.10),
            )
        units = tuple(sc.units) if sc is not None else ()  # type: ignore[attr-defined]
        if self._ov_keys.get("units", object()) != (units, id(m)):
            self._ov_keys["units"] = (units, id(m))
            self.mapview.set_counters(self._counter_views(units))
        sel = frozenset(s.selection)
        self._set_ov(
            "selection",
            (sel, id(m)) if sel else None,
            lambda: ZoneOverlay(sel, (255, 226, 74, 255), alpha=0.18, border=0.06, on_top=True),
        )
        prev = frozenset(s.preview)
        pcol = SIDE_COLOURS[s.side] if s.tool == "deploy" else (255, 255, 255, 255)
        self._set_ov(
            "preview",
            (prev, pcol, id(m)) if prev else None,
            lambda: ZoneOverlay(prev, pcol, alpha=0.28, border=0.05, on_top=True),
        )
        paste = s.paste_preview() if s.tool == "paste" else {}
        self._set_ov(
            "paste",
            (tuple(sorted(paste.items(), key=lambda kv: kv[0])), ver) if paste else None,
            lambda: PasteOverlay(paste),
        )
        cursor: tuple[Hex, ...] = ()
        if (
            s.hover is not None
            and s.tool in ("brush", "line", "elevation", "rubble", "fire", "deploy")
            and self.doc.stroke is None
        ):
            cursor = tuple(brush_hexes(s.hover, s.brush, m))
        elif s.hover is not None and s.tool in (
            "road",
            "fill",
            "wreck",
            "wand",
            "select",
            "los",
            "artillery",
            "spread",
            "objective",
            "unit",
        ):
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
        self._set_ov(
            "los",
            (los.a, los.b, los.status, ver) if los is not None else None,
            lambda: self._los_overlay(los),
        )
        art = s.artillery
        self._set_ov(
            "artillery",
            (art[0], art[1], ver) if art is not None else None,
            lambda: self._artillery_overlay(art),
        )
        spr = s.spread
        self._set_ov(
            "spread",
            (spr[0], tuple(spr[1].items()), ver) if spr is not None else None,
            lambda: self._spread_overlay(spr),
        )

    def _area_hexes(self) -> tuple[tuple[str, frozenset[Hex]], ...]:
        """The scenario's ``[areas]`` as (name, hexes) pairs, parsed by the game's own reader."""
        sc = self.doc.scenario
        if sc is None:
            return ()
        from ..game.areas import parse_area_hexes

        out = []
        for name, specs in sc.areas().items():
            hexes = parse_area_hexes(specs, self.doc.map, f"areas.{name}", lambda w, e: None)
            out.append((name, frozenset(hexes)))
        return tuple(out)

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
            out.append(
                CounterView(
                    u.hex, u.side, utype, name, full, full, quality="regular" if u.crew else None, key=u.card
                )
            )
        return out

    def _los_overlay(self, res: Any) -> Any:
        m = self.doc.map
        reason = res.status
        if res.blocking is not None:
            reason = f"blocked by {res.reason or 'terrain'} in {m.label(res.blocking)}"
        elif res.hindrances:
            reason = f"hindered: +{res.hindrances}"
        return LosOverlay(
            LosView(
                res.a,
                res.b,
                res.status,
                tuple(res.intervening),
                (),
                (res.blocking,) if res.blocking is not None else (),
                reason,
            )
        )

    def _artillery_overlay(self, art: Any) -> Any:
        target, side, dist = art
        vals = {h: float(p) for h, p in dist.items() if h is not None}
        off = float(dist.get(None, 0))
        return HeatmapOverlay(
            vals,
            ramp="heat",
            vmin=0.0,
            vmax=max(vals.values()) if vals else 1.0,
            title=f"P(landing) {side}, off map {_fmt_pct(off)}",
            show_values=True,
            legend=False,
            fmt=_fmt_pct,
            hide_below=1e-12,
        )

    def _spread_overlay(self, spr: Any) -> Any:
        h, chances = spr
        vals = {n: float(p) for n, p in chances.items()}
        vals[h] = 1.0
        return HeatmapOverlay(
            vals,
            ramp="fire",
            vmin=0.0,
            vmax=1.0,
            title="P(fire spreads next turn)",
            show_values=True,
            legend=False,
            fmt=_fmt_pct,
            hide_below=1e-12,
        )

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

    # -- modal prompts (toolkit dialogs) and help -------------------------------------------
    @property
    def modal_text(self) -> str:
        """The Save As prompt's text (its :class:`~hexwar.ui.widgets.TextField`)."""
        return self._field.text

    @modal_text.setter
    def modal_text(self, text: str) -> None:
        self._field.text = text
        self._field.caret = len(text)

    def _field_initial(self, field: str) -> str:
        from .scenario_fields import weapon_text

        sc, side = self.doc.scenario, self.session.side
        if sc is None:
            return ""
        if field in ("name", "id", "description"):
            return str(getattr(sc, field))
        if field in ("budget", "hand_size"):
            v = sc.rest_value("sides", side, field)
            return "" if v is None else str(v)
        o = sc.objective_at(self.session.objective) if self.session.objective is not None else None
        if field == "objective_name":
            return o.name if o is not None else ""
        if field == "objective_points":
            return str(o.points) if o is not None else ""
        if field == "weapon":
            art = sc.artillery_of(side)
            return weapon_text(art.weapon) if art is not None else ""
        return ""

    def _typed_dialog(self, kind: str) -> Any:
        from ..ui.widgets import Dialog, SearchList
        from .scenario_fields import FIELDS, card_entries

        what, _, arg = kind.partition(":")
        if what == "field":
            f = TextField(
                self._field_initial(arg), on_enter=lambda _t: self._field_confirm(arg), tip=f"field {arg}"
            )

            def typed(text: str, _orig: Any = f.on_text) -> bool:
                _orig(text)
                self._refresh_field_message(arg)
                return True

            def motion(m: int, _orig: Any = f.on_motion) -> bool:
                used = _orig(m)
                self._refresh_field_message(arg)
                return bool(used)

            f.on_text = typed  # type: ignore[method-assign]
            f.on_motion = motion  # type: ignore[method-assign,assignment]
            self._typed = f
            label, hint = FIELDS[arg]
            who = f" ({self.session.side})" if arg in ("budget", "hand_size", "weapon") else ""
            return Dialog(
                f"{label}{who}",
                hint,
                [("Set  (Enter)", lambda: self._field_confirm(arg)), ("Cancel  (Esc)", self._close_modal)],
                body=[f],
                shade=120,
                width=620,
            )
        sl = SearchList(
            card_entries(self.session.side),
            on_pick=lambda cid: self._card_picked(arg, cid),
            rows=10,
            tip=f"cards {arg}",
        )
        self._typed = sl
        d = Dialog(
            f"Add a card to the {self.session.side} {'starting hand' if arg == 'hand' else 'Reserves'}",
            "type to search (name, type, id); Up/Down choose, Enter or click adds; Esc closes",
            [("Done  (Esc)", self._close_modal)],
            body=[sl],
            shade=120,
            width=680,
            body_h=sl.height,
        )
        return d

    def _card_picked(self, target: str, card_id: str) -> None:
        self.session.add_card(target, card_id)
        self._ui_key = None

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

    def toggle_help(self) -> None:
        """Show or hide the keyboard shortcut overlay (H, F1)."""
        self.show_help = not self.show_help

    def toggle_labels(self) -> None:
        """Hex labels on or off (T)."""
        self.session.show_labels = not self.session.show_labels
        self.session.say(
            "Hex labels "
            + ("on" if self.session.show_labels else "off")
            + (" (too small to read at this zoom: zoom in to see them)" if self.labels_too_small() else "")
        )

    def _close_modal(self) -> None:
        self._form_dialog = None
        self.modal = None
        self.modal_text = ""
        self._typed = None

    def _typed_state(self) -> Any:
        t = self._typed
        if t is None:
            return None
        f = getattr(t, "field", t)
        lst = getattr(t, "list", None)
        return (
            f.text,
            f.caret,
            lst.selected if lst is not None else None,
            lst.offset if lst is not None else None,
        )

    def open_field(self, field: str) -> None:
        """Open the dialog that types scenario field ``field`` (checked as it is typed)."""
        self.modal = f"field:{field}"

    def open_cards(self, target: str) -> None:
        """Open the searchable card picker adding to the side's ``reserves`` or ``hand``."""
        self.modal = f"cards:{target}"

    def _field_confirm(self, field: str) -> None:
        problem = self.session.set_field(field, self._typed.text if self._typed is not None else "")
        if problem is None:
            self._close_modal()
        else:
            self._refresh_field_message(field)

    def _refresh_field_message(self, field: str) -> None:
        from .scenario_fields import FIELDS, parse_field

        d = self.ui_screen.dialogs[-1] if self.ui_screen.dialogs else None
        if d is None or self._typed is None:
            return
        try:
            parse_field(field, self._typed.text)
            msg = f"{FIELDS[field][1]}  ·  ok"
        except ValueError as exc:
            msg = f"{FIELDS[field][1]}  ·  {exc}"
        d.message = msg  # type: ignore[attr-defined]
        d.text_block.text = msg  # type: ignore[attr-defined]

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
            self.session.say(
                f"Not saved: {first.where + ': ' if first and first.where else ''}"
                f"{first.message if first else exc}{more}",
                error=True,
            )
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
            stem = (
                "".join(c if c.isalnum() or c in "-_" else "_" for c in self.doc.map.name.lower())
                or "untitled"
            )
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
        """Quit (Ctrl+Q, the close button) through the shared :class:`WindowBehaviour`: with
        unsaved changes it asks first (Save / Discard / Cancel, naming the recovery file)."""
        self.behaviour.request_quit()  # asking opens the "quit" prompt (Save / Discard / Cancel)

    def _ask_quit(self) -> None:
        """Open the quit prompt, the recovery file written first so the prompt can name it."""
        try:
            self.autosaver.write_now()
        except HexwarError as exc:
            self.session.say(f"autosave failed: {exc}", error=True)
        self.modal = "quit"

    def _lost_text(self) -> str:
        """The quit question's sentence: what is lost and where the recovery file is."""
        where = self.doc.path.name if self.doc.path else "this new map"
        rec = self.autosaver.written
        kept = f" The last autosave stays in the recovery file {rec} until you quit." if rec else ""
        return f"Save the changes to {where} before quitting?{kept}"

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
        self.behaviour.request_quit(True)

    def _quit_now(self) -> None:
        """Clean quit: remove the recovery file, close the window, stop the app loop."""
        self.behaviour.closed = True
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
        r.discard()
        self._replace_document(doc)
        self.autosaver.write_now()
        self.session.say(f"Restored the autosave from {r.saved_at}: save to keep it")
        self._close_modal()

    def _replace_document(self, doc: EditorDocument) -> None:
        """Edit ``doc`` from now on (a restored autosave, a new map): new session and autosaver,
        the old document's recovery file removed."""
        old = self.session
        self.autosaver.discard()
        self.session = EditorSession(doc, units=old.units)
        self.autosaver = Autosaver(
            doc, clock=self.autosaver.clock, interval=self.autosaver.interval, folder=self.autosaver.folder
        )
        self.palette = terrain_entries(doc.map.rules, self.looks)
        self.wrecks = wreck_entries(doc.map.rules)
        self.tab, self.palette_kind = "map", "terrain"
        self._after()
        self.fit_map()
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


def _btn(button: int) -> int:
    return {mouse.LEFT: LEFT, mouse.RIGHT: RIGHT, mouse.MIDDLE: MIDDLE}.get(button, LEFT)
