"""The batched map view: one vertex list per layer, counters and overlays on top.

:class:`MapView` draws a :class:`~hexwar.maps.BattleMap` through a :class:`~hexwar.render.camera.Camera`
into a pyglet window (or an offscreen framebuffer, :mod:`hexwar.render.offscreen`):

* terrain in batches: all hex fills in one indexed triangle vertex list with per-vertex
  colours (ground levels shaded), then one list each for patterns, contour lines, roads,
  buildings (by DR) and rubble, the grid, hex labels, and battlefield features (wrecks,
  fire, artillery marker);
* unit counters from :class:`~hexwar.render.counters.CounterView` descriptions;
* named overlays (:mod:`hexwar.render.overlays`): reachable hexes, LOS, heatmaps ...

Layers are pyglet groups under one camera group, ordered by :class:`~hexwar.render.layers.Layer`,
so units always draw above terrain, whatever was created first. The view keeps every GL
object it made (vertex lists, groups, programs, the glyph atlas texture) referenced, so
nothing vanishes after garbage collection.

Typical use in a window::

    view = MapView(bmap, window)
    view.camera.fit_map(bmap.width, bmap.height)
    @window.event
    def on_draw():
        window.clear()
        view.draw()
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from . import backend

backend.ensure_configured()

from pyglet.graphics import Batch  # noqa: E402

from ..hexgrid import Hex  # noqa: E402
from ..maps import BattleMap  # noqa: E402
from . import gpu, mapgeom  # noqa: E402
from .camera import WORLD_LAYOUT, Camera, map_bounds  # noqa: E402
from .counters import CounterView, build_counters, counters_at  # noqa: E402
from .layers import MAX_STACK, TEXT_LAYERS, Layer, counter_layers  # noqa: E402
from .looks import Looks, default_looks  # noqa: E402
from .mesh import Mesh, TexMesh  # noqa: E402
from .overlays import Overlay, OverlayContext  # noqa: E402
from .text import glyph_atlas  # noqa: E402

__all__ = ["MapView"]

#: On-screen cap height (framebuffer pixels) under which hex labels hide themselves.
MIN_LABEL_PX = 4.5

_STATIC_LAYERS = ("ground", "detail", "contour", "road", "building", "grid", "label", "feature")


class MapView:
    """Draws a map, its counters and overlays with a camera (see module doc).

    Args:
        bmap: the map to draw (the view watches ``bmap.version`` and redraws what changed).
        window: the pyglet window (or any object with a ``view`` matrix property feeding
            ``WindowBlock``) whose context the view draws in.
        looks: colours; default the shipped ``assets/terrain_looks.toml``.
        camera: the camera; default one fitted to the window size.
        batch: a pyglet batch to add to (the play screen may share one); default its own.
        show_labels: draw hex labels (toggle later with :attr:`show_labels`).
        show_grid: draw hex grid lines.

    Attributes:
        camera: the :class:`Camera` (pan/zoom it; the view reads it at every draw).
        batch: the pyglet batch holding every vertex list.
        counters: the counters last given to :meth:`set_counters`.
    """

    def __init__(self, bmap: BattleMap, window: Any, looks: Looks | None = None, camera: Camera | None = None,
                 batch: Batch | None = None, show_labels: bool = True, show_grid: bool = True) -> None:
        self.window = window
        self.looks = looks or default_looks()
        self.layout = WORLD_LAYOUT
        if camera is None:
            size = window.get_size() if hasattr(window, "get_size") else (800, 600)
            camera = Camera(viewport=(float(size[0]), float(size[1])))
            camera.fit_map(bmap.width, bmap.height)
        self.camera = camera
        self.batch = batch if batch is not None else Batch()
        self.atlas = glyph_atlas()
        self._colour_prog = gpu.colour_program()
        self._text_prog = gpu.text_program()
        self.world_group = gpu.ViewGroup(window, self.camera.view_matrix, order=0)
        self.hud_group = gpu.ViewGroup(window, None, order=1)
        self._groups: dict[int, Any] = {}
        for layer in Layer:
            if layer in (Layer.COUNTER,):
                continue
            parent = self.hud_group if layer >= Layer.HUD else self.world_group
            if layer in TEXT_LAYERS:
                self._groups[int(layer)] = gpu.TextGroup(layer, parent, self.atlas.texture, self._text_prog)
            else:
                self._groups[int(layer)] = gpu.LayerGroup(layer, parent, self._colour_prog)
        for k in range(MAX_STACK):
            body, text = counter_layers(k)
            self._groups[body] = gpu.LayerGroup(body, self.world_group, self._colour_prog)
            self._groups[text] = gpu.TextGroup(text, self.world_group, self.atlas.texture, self._text_prog)
        self._lists: dict[str, list[Any]] = {}
        self._overlays: dict[str, Overlay] = {}
        self._overlay_order: list[str] = []
        self.counters: list[CounterView] = []
        self._snap: dict[str, Any] = {}
        self._built_viewport: tuple[float, float] | None = None
        self._show_labels = bool(show_labels)
        self._labels_visible_now = True
        self._groups[int(Layer.GRID)].visible = bool(show_grid)
        self.map = bmap
        self._build_all()

    # -- map ----------------------------------------------------------------------------
    def set_map(self, bmap: BattleMap) -> None:
        """Draw another map (or the same one after a resize); rebuilds every layer."""
        self.map = bmap
        self._build_all()
        self._rebuild_overlays()

    def _snapshot(self) -> dict[str, Any]:
        m = self.map
        return {
            "shape": (m.height, m.width),
            "terrain": m.terrain.copy(), "level": m.level.copy(), "road": m.road.copy(),
            "rubble": m.rubble.copy(), "fire": m.fire.copy(),
            "wrecks": {h: tuple(s) for h, s in m.wrecks.items()}, "marker": m.artillery_marker,
            "version": m.version,
        }

    def _build_all(self) -> None:
        for name in _STATIC_LAYERS:
            self._clear(name)
        m, lk, lay = self.map, self.looks, self.layout
        self._ground = mapgeom.build_ground(m, lk, lay)
        self._put("ground", Layer.GROUND, self._ground)
        self._put("detail", Layer.DETAIL, mapgeom.build_details(m, lk, lay))
        self._put("contour", Layer.CONTOUR, mapgeom.build_contours(m, lk, lay))
        self._put("road", Layer.ROAD, mapgeom.build_roads(m, lk, lay))
        self._put("building", Layer.BUILDING, mapgeom.build_buildings(m, lk, lay))
        self._put("grid", Layer.GRID, mapgeom.build_grid(m, lk, lay))
        self._put("label", Layer.LABEL, mapgeom.build_labels(m, lk, lay, self.atlas))
        self._build_features()
        self._snap = self._snapshot()

    def _build_features(self) -> None:
        self._clear("feature")
        body, text = mapgeom.build_features(self.map, self.looks, self.layout, self.atlas)
        self._put("feature", Layer.FEATURE, body)
        self._put("feature", Layer.FEATURE_TEXT, text)

    def refresh(self) -> bool:
        """Redraw whatever changed in the map since the last build; True if anything did.

        Called by :meth:`draw`. Terrain or level changes recolour the ground list in place
        and rebuild patterns and contours; road, building/rubble, fire, wreck and marker
        changes rebuild only their own layers; a new map size rebuilds everything.
        """
        m, snap = self.map, self._snap
        if m.version == snap.get("version"):
            return False
        if snap.get("shape") != (m.height, m.width):
            self._build_all()
            self._rebuild_overlays()
            return True
        lk, lay = self.looks, self.layout
        t_ch = not np.array_equal(snap["terrain"], m.terrain)
        l_ch = not np.array_equal(snap["level"], m.level)
        r_ch = not np.array_equal(snap["road"], m.road)
        rb_ch = not np.array_equal(snap["rubble"], m.rubble)
        f_ch = (not np.array_equal(snap["fire"], m.fire) or snap["marker"] != m.artillery_marker
                or snap["wrecks"] != {h: tuple(s) for h, s in m.wrecks.items()})
        if t_ch or l_ch:
            colours = mapgeom.ground_colours(m, lk)
            vl = self._lists.get("ground", [None])[0]
            if vl is not None:
                gpu.write_colors(vl, colours)
            self._ground.colors = colours
            self._replace("detail", Layer.DETAIL, mapgeom.build_details(m, lk, lay))
        if l_ch:
            self._replace("contour", Layer.CONTOUR, mapgeom.build_contours(m, lk, lay))
        if t_ch or r_ch:
            self._replace("road", Layer.ROAD, mapgeom.build_roads(m, lk, lay))
        if t_ch or rb_ch:
            self._replace("building", Layer.BUILDING, mapgeom.build_buildings(m, lk, lay))
        if f_ch or t_ch or rb_ch:
            self._build_features()
        self._snap = self._snapshot()
        return True

    # -- vertex list bookkeeping --------------------------------------------------------
    def _put(self, name: str, layer: int, mesh: Mesh | TexMesh) -> None:
        group = self._groups[int(layer)]
        if isinstance(mesh, TexMesh):
            vl = gpu.upload_texmesh(mesh, self.batch, group)
        else:
            vl = gpu.upload_mesh(mesh, self.batch, group, self._colour_prog)
        if vl is not None:
            self._lists.setdefault(name, []).append(vl)
        else:
            self._lists.setdefault(name, [])

    def _clear(self, name: str) -> None:
        for vl in self._lists.pop(name, []):
            vl.delete()

    def _replace(self, name: str, layer: int, mesh: Mesh | TexMesh) -> None:
        self._clear(name)
        self._put(name, layer, mesh)

    def layer_vertex_counts(self) -> dict[str, int]:
        """Vertices per named vertex-list set (``ground``, ``detail`` ...): for tests and stats."""
        return {k: sum(v.count for v in vls) for k, vls in self._lists.items()}

    def vertex_list_count(self, name: str) -> int:
        """How many vertex lists the named set holds (one per layer it feeds)."""
        return len(self._lists.get(name, []))

    # -- counters -----------------------------------------------------------------------
    def set_counters(self, counters: Iterable[CounterView]) -> None:
        """Replace all unit counters (those sharing a hex stack bottom first, in order).

        Raises:
            HexwarError: for a counter with unknown side or type (see :class:`CounterView`).
        """
        self.counters = list(counters)
        self._clear("counters")
        levels = build_counters(self.counters, self.looks, self.layout, self.atlas, MAX_STACK)
        for k, (body, text) in enumerate(levels):
            b, t = counter_layers(k)
            self._put("counters", b, body)
            self._put("counters", t, text)

    def counters_at(self, h: Hex) -> list[CounterView]:
        """Counters standing in hex ``h``, bottom first."""
        return counters_at(self.counters, h)

    # -- overlays -----------------------------------------------------------------------
    def overlay_context(self) -> OverlayContext:
        """The context overlays are built with (map, looks, layout, atlas, viewport)."""
        return OverlayContext(self.map, self.looks, self.layout, self.atlas, self.camera.viewport,
                              self.camera.pixel_ratio)

    def set_overlay(self, name: str, overlay: Overlay | None) -> None:
        """Show ``overlay`` under ``name`` (replacing any overlay of that name); ``None`` removes it.

        Overlays are drawn in their layers; among overlays of one layer, the most recently
        set is on top.

        Raises:
            HexwarError: when the overlay's data does not fit the map (see each overlay).
        """
        if overlay is None:
            self.clear_overlay(name)
            return
        meshes = overlay.build(self.overlay_context())
        self._clear(f"overlay:{name}")
        self._overlays[name] = overlay
        if name in self._overlay_order:
            self._overlay_order.remove(name)
        self._overlay_order.append(name)
        for layer, mesh in sorted(meshes.items()):
            self._put(f"overlay:{name}", layer, mesh)

    def clear_overlay(self, name: str) -> None:
        """Remove the overlay called ``name`` (no error if there is none)."""
        self._clear(f"overlay:{name}")
        self._overlays.pop(name, None)
        if name in self._overlay_order:
            self._overlay_order.remove(name)

    def clear_overlays(self) -> None:
        """Remove every overlay."""
        for name in list(self._overlays):
            self.clear_overlay(name)

    @property
    def overlays(self) -> dict[str, Overlay]:
        """The overlays shown, by name (a copy)."""
        return dict(self._overlays)

    def _rebuild_overlays(self, screen_only: bool = False) -> None:
        for name in list(self._overlay_order):
            ov = self._overlays[name]
            if screen_only and not ov.screen_space:
                continue
            self.set_overlay(name, ov)

    # -- toggles ------------------------------------------------------------------------
    @property
    def show_labels(self) -> bool:
        """Whether hex labels are drawn (they also hide when too small to read)."""
        return self._show_labels

    @show_labels.setter
    def show_labels(self, on: bool) -> None:
        self._show_labels = bool(on)

    @property
    def show_grid(self) -> bool:
        """Whether hex grid lines are drawn."""
        return bool(self._groups[int(Layer.GRID)].visible)

    @show_grid.setter
    def show_grid(self, on: bool) -> None:
        if self._groups[int(Layer.GRID)].visible != bool(on):
            self._groups[int(Layer.GRID)].visible = bool(on)

    def _update_label_visibility(self) -> None:
        cap_px = self.atlas.cap_height * self.looks.label_height * self.layout.size * self.camera.zoom * self.camera.pixel_ratio
        want = self._show_labels and cap_px >= MIN_LABEL_PX
        g = self._groups[int(Layer.LABEL)]
        if g.visible != want:
            g.visible = want

    # -- camera, input --------------------------------------------------------------------
    def resize(self, width: float, height: float, pixel_ratio: float | None = None) -> None:
        """The window was resized to ``width`` x ``height`` points: keep the map anchored.

        The world point at the middle of the view stays there and the zoom is kept, so the
        map neither jumps nor stretches; screen-space overlays (legends) are rebuilt.
        """
        self.camera.resize(width, height, pixel_ratio)
        self._rebuild_overlays(screen_only=True)

    def hex_at(self, x: float, y: float) -> Hex | None:
        """The map hex under screen point ``(x, y)`` (window points), or ``None`` off the map."""
        h = self.camera.pick(x, y)
        return h if self.map.in_bounds(h) else None

    def fit(self, margin: float = 0.02) -> None:
        """Zoom and centre the camera so the whole map fits the view."""
        self.camera.fit_map(self.map.width, self.map.height, margin)

    def world_bounds(self) -> tuple[float, float, float, float]:
        """World rectangle of the map."""
        return map_bounds(self.map.width, self.map.height, self.layout)

    # -- drawing --------------------------------------------------------------------------
    def draw(self) -> None:
        """Bring changed layers up to date and draw everything (current GL context).

        The caller clears the framebuffer first (``window.clear()``) and sets the
        projection (pyglet windows do on resize; offscreen rendering does it itself).
        """
        self.refresh()
        if self._built_viewport != self.camera.viewport:
            if self._built_viewport is not None:
                self._rebuild_overlays(screen_only=True)
            self._built_viewport = self.camera.viewport
        self._update_label_visibility()
        self.batch.draw()

    def delete(self) -> None:
        """Delete every vertex list this view made (the view is unusable afterwards)."""
        for name in list(self._lists):
            self._clear(name)
        self._overlays.clear()
        self._overlay_order.clear()
