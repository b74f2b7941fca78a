"""The batched map view: one vertex list per layer, counters and overlays on top.

:class:`MapView` draws a :class:`~hexwar.model.maps.BattleMap` through a :class:`~hexwar.render.camera.Camera`
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

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from . import backend

backend.ensure_configured()

from pyglet import gl  # noqa: E402
from pyglet.graphics import Batch  # noqa: E402

from ..model.hexgrid import Hex  # noqa: E402
from ..model.maps import BattleMap  # noqa: E402
from . import gpu, mapgeom  # noqa: E402
from .camera import WORLD_LAYOUT, Camera, map_bounds  # noqa: E402
from .counters import COUNTER_SIZE, CounterView, build_counters, counters_at  # noqa: E402
from .impostor import MapImpostor, ViewCache, impostor_hex_px  # noqa: E402
from .layers import MAX_STACK, TEXT_LAYERS, Layer, counter_layers  # noqa: E402
from .looks import Looks, default_looks  # noqa: E402
from .mesh import TILE, Mesh, TexMesh, TileIndex, tile_sort  # noqa: E402
from .overlays import Overlay, OverlayContext  # noqa: E402
from .text import glyph_atlas  # noqa: E402

__all__ = ["IMPOSTOR_LAYERS", "MapView"]

#: On-screen cap height (framebuffer pixels) under which hex labels hide themselves.
MIN_LABEL_PX = 4.5
#: On-screen hex size (centre to corner, framebuffer pixels) under which terrain patterns
#: (trees, furrows, reeds) are left out: they would be sub-pixel noise and cost the most.
MIN_DETAIL_PX = 9.0
#: On-screen counter side (framebuffer pixels) under which counters are drawn as plain squares.
MIN_COUNTER_DETAIL_PX = 18.0
#: Layers baked into the far-out map image (see :mod:`hexwar.render.impostor`).
IMPOSTOR_LAYERS = (Layer.GROUND, Layer.DETAIL, Layer.CONTOUR, Layer.ROAD_EDGE, Layer.ROAD, Layer.BUILDING, Layer.GRID)
_IMPOSTOR_SET = frozenset(int(x) for x in IMPOSTOR_LAYERS)

_STATIC_LAYERS = ("ground", "detail", "contour", "road", "building", "grid", "label", "feature")
_SQRT3 = math.sqrt(3.0)


@dataclass
class _Entry:
    """One vertex list of the view: its layer and, for static map layers, its tile index."""

    vl: Any
    layer: int
    tiles: TileIndex | None = None


class MapView:
    """Draws a map, its counters and overlays with a camera (see module doc).

    Args:
        bmap: the map to draw (the view watches ``bmap.version`` and redraws what changed).
        window: the pyglet window (or any object with a ``view`` matrix property feeding
            ``WindowBlock``) whose context the view draws in.
        looks: colours; default the shipped ``assets/terrain_looks.toml``.
        camera: the camera; default one fitted to the window size.
        batch: a pyglet batch for the caller's own extra drawables (drawn right after the
            map, counters and overlays by :meth:`draw`); default a new one.
        show_labels: draw hex labels (toggle later with :attr:`show_labels`).
        show_grid: draw hex grid lines.
        use_impostor: far out, draw the terrain from a cached image (much faster with
            software rendering); ``False`` always draws geometry.
        use_cache: keep the static layers around the viewport in a texture between frames
            (:class:`~hexwar.render.impostor.ViewCache`); ``False`` draws every layer every
            frame (one-shot renders do).
        cache_samples: multisampling of the cached layers (4: anti-aliased terrain even in
            a window without multisampling).

    Attributes:
        camera: the :class:`Camera` (pan/zoom it; the view reads it at every draw).
        batch: a batch for extra drawables of the caller (drawn after the view's layers;
            put world-space things in ``view.group(Layer.OVERLAY)`` so they follow the camera).
        counters: the counters last given to :meth:`set_counters`.

    Every layer is one vertex list in the view's own store (static terrain layers sorted
    into 8x8-hex tiles, so :meth:`draw` submits only the tiles on screen with one
    ``glMultiDrawElements`` per layer).
    """

    def __init__(self, bmap: BattleMap, window: Any, looks: Looks | None = None, camera: Camera | None = None,
                 batch: Batch | None = None, show_labels: bool = True, show_grid: bool = True,
                 use_impostor: bool = True, use_cache: bool = True, cache_samples: int = 4) -> None:
        self.window = window
        self.looks = looks or default_looks()
        self.layout = WORLD_LAYOUT
        if camera is None:
            size = window.get_size() if hasattr(window, "get_size") else (800, 600)
            camera = Camera(viewport=(float(size[0]), float(size[1])))
            camera.fit_map(bmap.width, bmap.height)
        self.camera = camera
        self.batch = batch if batch is not None else Batch()
        self._store = Batch()  # allocation only: the view draws its lists itself, layer by layer
        self.atlas = glyph_atlas()
        self._colour_prog = gpu.colour_program()
        self._text_prog = gpu.text_program()
        self.world_group = gpu.ViewGroup(window, lambda: self.camera.view_matrix(), order=0)
        self.hud_group = gpu.ViewGroup(window, None, order=1)
        self._groups: dict[int, Any] = {}
        for layer in Layer:
            if layer in (Layer.COUNTER,):
                continue
            parent = self.hud_group if layer >= Layer.HUD else self.world_group
            if layer in TEXT_LAYERS:
                self._groups[int(layer)] = gpu.TextGroup(layer, parent, self.atlas.texture, self._text_prog)
            else:
                self._groups[int(layer)] = gpu.LayerGroup(layer, parent, self._colour_prog,
                                                          opaque=layer == Layer.GROUND)
        for k in range(MAX_STACK):
            body, text = counter_layers(k)
            self._groups[body] = gpu.LayerGroup(body, self.world_group, self._colour_prog)
            self._groups[text] = gpu.TextGroup(text, self.world_group, self.atlas.texture, self._text_prog)
        self._lists: dict[str, list[_Entry]] = {}
        self._draw_order: list[tuple[int, list[_Entry]]] | None = None
        self._overlays: dict[str, Overlay] = {}
        self._overlay_order: list[str] = []
        self.counters: list[CounterView] = []
        self._snap: dict[str, Any] = {}
        self._built_viewport: tuple[float, float] | None = None
        self._show_labels = bool(show_labels)
        self._groups[int(Layer.GRID)].visible = bool(show_grid)
        self.use_impostor = bool(use_impostor)
        self._impostor = MapImpostor()
        self._impostor_group = gpu.TextGroup(Layer.GROUND, self.world_group, None, gpu.image_program())
        self._impostor_vl: Any = None
        self.use_cache = bool(use_cache)
        self.cache_samples = int(cache_samples)
        self._cache = ViewCache()
        self._cache_group = gpu.TextGroup(Layer.GROUND, self.world_group, None, gpu.image_program())
        self._cache_vl: Any = None
        self._comp_group = gpu.TextGroup(Layer.GROUND, self.world_group, None, gpu.image_program())
        self._comp_vl: Any = None
        self._dyn_gen = 0  # counters and overlays: bumped whenever they change
        self._feature_gen = 0
        self._static_gen = 0
        self._last_zoom: float | None = None
        self._last_gens: tuple[int, int] | None = None
        self._counter_simple = False
        self.map = bmap
        self._build_all()

    # -- map ----------------------------------------------------------------------------
    def set_map(self, bmap: BattleMap) -> None:
        """Draw another map (or the same one after a resize); rebuilds every layer.

        Counters and overlays are kept; an overlay that no longer fits the map (a heatmap
        array of the old size) is dropped.
        """
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
        self._put_roads()
        self._put("building", Layer.BUILDING, mapgeom.build_buildings(m, lk, lay))
        self._put("grid", Layer.GRID, mapgeom.build_grid(m, lk, lay))
        self._put("label", Layer.LABEL, mapgeom.build_labels(m, lk, lay, self.atlas))
        self._build_features()
        self._snap = self._snapshot()
        self._static_gen += 1
        if self.counters:
            self._build_counters()  # counters off the new map stop being culled by tile

    def _put_roads(self) -> None:
        self._clear("road")
        edges, surface = mapgeom.build_roads(self.map, self.looks, self.layout)
        self._put("road", Layer.ROAD_EDGE, edges)
        self._put("road", Layer.ROAD, surface)

    def _build_features(self) -> None:
        self._feature_gen += 1
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
            for e in self._lists.get("ground", []):
                gpu.write_colors(e.vl, colours)
            self._ground.colors = colours
            self._replace("detail", Layer.DETAIL, mapgeom.build_details(m, lk, lay))
        if l_ch:
            self._replace("contour", Layer.CONTOUR, mapgeom.build_contours(m, lk, lay))
        if t_ch or r_ch:
            self._put_roads()
        if t_ch or rb_ch:
            self._replace("building", Layer.BUILDING, mapgeom.build_buildings(m, lk, lay))
        if f_ch or t_ch or rb_ch:
            self._build_features()
        if t_ch or l_ch or r_ch or rb_ch:
            self._static_gen += 1
        self._snap = self._snapshot()
        return True

    # -- vertex list bookkeeping --------------------------------------------------------
    def group(self, layer: int) -> Any:
        """The pyglet group of ``layer`` (a :class:`Layer` or counter order): for extra
        drawables in :attr:`batch` that should follow the camera at that layer's depth."""
        return self._groups[int(layer)]

    def _put(self, name: str, layer: int, mesh: Mesh | TexMesh) -> None:
        group = self._groups[int(layer)]
        tiles = None
        if mesh.vertex_count and mesh.owner is not None and (name in _STATIC_LAYERS or name == "counters"):
            mesh.indices, tiles = tile_sort(mesh.indices, mesh.owner, self.map.width, self.map.height, TILE)
        if isinstance(mesh, TexMesh):
            vl = gpu.upload_texmesh(mesh, self._store, group)
        else:
            vl = gpu.upload_mesh(mesh, self._store, group, self._colour_prog)
        entries = self._lists.setdefault(name, [])
        if vl is not None:
            entries.append(_Entry(vl, int(layer), tiles))
        self._draw_order = None
        if name not in _STATIC_LAYERS:
            self._dyn_gen += 1

    def _clear(self, name: str) -> None:
        for e in self._lists.pop(name, []):
            e.vl.delete()
        self._draw_order = None
        if name not in _STATIC_LAYERS:
            self._dyn_gen += 1

    def _replace(self, name: str, layer: int, mesh: Mesh | TexMesh) -> None:
        self._clear(name)
        self._put(name, layer, mesh)

    def vertex_lists(self, name: str) -> list[Any]:
        """The vertex lists of a named set (``ground``, ``detail``, ``counters``, ``overlay:NAME``)."""
        return [e.vl for e in self._lists.get(name, [])]

    def layer_vertex_counts(self) -> dict[str, int]:
        """Vertices per named vertex-list set (``ground``, ``detail`` ...): for tests and stats."""
        return {k: sum(e.vl.count for e in es) for k, es in self._lists.items()}

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
        self._build_counters()

    def _owner_of(self, h: Hex) -> int | None:
        col, row = h.offset
        if 0 <= col < self.map.width and 0 <= row < self.map.height:
            return row * self.map.width + col
        return None

    def _build_counters(self) -> None:
        self._clear("counters")
        levels = build_counters(self.counters, self.looks, self.layout, self.atlas, MAX_STACK,
                                simple=self._counter_simple, owner_of=self._owner_of)
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
        from ..errors import HexwarError

        for name in list(self._overlay_order):
            ov = self._overlays[name]
            if screen_only and not ov.screen_space:
                continue
            try:
                self.set_overlay(name, ov)
            except HexwarError:
                self.clear_overlay(name)  # no longer fits (a heatmap of the map before a resize)

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
        px = self.layout.size * self.camera.zoom * self.camera.pixel_ratio  # hex size on screen
        cap_px = self.atlas.cap_height * self.looks.label_height * px
        want = self._show_labels and cap_px >= MIN_LABEL_PX
        g = self._groups[int(Layer.LABEL)]
        if g.visible != want:
            g.visible = want
        d = self._groups[int(Layer.DETAIL)]
        if d.visible != (px >= MIN_DETAIL_PX):
            d.visible = px >= MIN_DETAIL_PX
        simple = COUNTER_SIZE * px < MIN_COUNTER_DETAIL_PX
        if simple != self._counter_simple:
            self._counter_simple = simple
            if self.counters:
                self._build_counters()

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
    def visible_hex_range(self, margin: int = 1) -> tuple[int, int, int, int]:
        """Rows ``r0..r1`` and columns ``c0..c1`` (inclusive, maybe off the map) on screen,
        widened by ``margin`` hexes for drawings that spill over their hex."""
        x0, y0, x1, y1 = self.camera.visible_world_rect()
        s = self.layout.size
        ox, oy = self.layout.origin
        c0 = math.floor((x0 - ox - s) / (1.5 * s)) - margin
        c1 = math.ceil((x1 - ox + s) / (1.5 * s)) + margin
        r0 = math.floor((oy - y1) / (_SQRT3 * s) - 1.0) - margin
        r1 = math.ceil((oy - y0) / (_SQRT3 * s)) + margin
        return r0, r1, c0, c1

    def _ordered(self) -> list[tuple[int, list[_Entry]]]:
        if self._draw_order is None:
            by: dict[int, list[_Entry]] = {}
            for es in self._lists.values():
                for e in es:
                    by.setdefault(e.layer, []).append(e)
            self._draw_order = sorted(by.items())
        return self._draw_order

    def _draw_quad(self, vl: Any, group: Any) -> None:
        if vl is None:
            return
        group.parent.set_state()
        group.set_state()
        gl.glDisable(gl.GL_BLEND)
        gpu.draw_ranges(vl, None)
        gl.glEnable(gl.GL_BLEND)
        group.unset_state()
        group.parent.unset_state()

    def _draw_layers(self, lo: int | None = None, hi: int | None = None, cull: bool = True,
                     force_detail: bool = False, impostor: bool = False) -> None:
        """Draw the layers ``lo <= layer <= hi`` (all by default) in order.

        With ``impostor`` the far-out image stands in for :data:`IMPOSTOR_LAYERS`.
        """
        r0, r1, c0, c1 = self.visible_hex_range()
        if impostor:
            self._draw_quad(self._impostor_vl, self._impostor_group)
        parent = None
        for layer, entries in self._ordered():
            if (lo is not None and layer < lo) or (hi is not None and layer > hi):
                continue
            if impostor and layer in _IMPOSTOR_SET:
                continue
            g = self._groups[layer]
            if not g.visible and not (force_detail and layer == Layer.DETAIL):
                continue
            if g.parent is not parent:
                if parent is not None:
                    parent.unset_state()
                parent = g.parent
                parent.set_state()
            g.set_state()
            for e in entries:
                ranges = e.tiles.ranges(r0, r1, c0, c1) if (cull and e.tiles is not None) else None
                gpu.draw_ranges(e.vl, ranges)
            g.unset_state()
        if parent is not None:
            parent.unset_state()

    def impostor_active(self) -> bool:
        """True when the current zoom draws the terrain from the far-out image."""
        if not self.use_impostor:
            return False
        px = self.layout.size * self.camera.zoom * self.camera.pixel_ratio
        return px <= impostor_hex_px(self.map.width, self.map.height, self.layout.size) + 1e-9

    def _ensure_impostor(self) -> None:
        key = (self._static_gen, self.map.width, self.map.height, self.show_grid)
        if self._impostor.key == key and self._impostor_vl is not None:
            return
        if self._impostor_vl is not None:
            self._impostor_vl.delete()
            self._impostor_vl = None
        top = int(max(IMPOSTOR_LAYERS))
        self._impostor.build(self, lambda: self._draw_layers(hi=top, cull=False, force_detail=True), key,
                             self.cache_samples)
        self._impostor_group.texture = self._impostor.texture
        self._impostor_vl = gpu.upload_texmesh(self._impostor.quad(), self._store, self._impostor_group)

    def _cache_top(self) -> int:
        """The highest layer kept in the viewport cache: the static map under overlays."""
        return int(Layer.FEATURE_TEXT)

    def _draw_composite(self, top: int) -> None:
        """Show the cached static map with underlays, counters and overlays (re-compositing
        them first if they changed), then the screen-space layers live."""
        key = (self._cache.builds, self._dyn_gen)
        if self._cache.comp_key != key:
            self._cache.build_composite(self, lambda: self._draw_layers(lo=top + 1, hi=int(Layer.HUD) - 1), key)
            self._comp_group.texture = self._cache.comp_texture
            if self._comp_vl is not None:
                self._comp_vl.delete()
            self._comp_vl = gpu.upload_texmesh(self._cache.quad(), self._store, self._comp_group)
        self._cache.draw(self.camera, lambda: self._draw_quad(self._comp_vl, self._comp_group), composite=True)
        self._draw_layers(lo=int(Layer.HUD))

    @property
    def cache_builds(self) -> int:
        """How many times the static level of the viewport cache was rendered (tests, benchmarks)."""
        return self._cache.builds

    @property
    def composite_builds(self) -> int:
        """How many times counters and overlays were composited over the cached map."""
        return self._cache.comp_builds

    def draw(self, exact: bool = False) -> None:
        """Bring changed layers up to date and draw everything (current GL context).

        Static layers come from the viewport cache (rebuilt when needed), or are drawn
        culled to the tiles on screen; far out the far-out image stands in for the
        terrain. Then the layers above (counters, overlays) and :attr:`batch` (the
        caller's extras). The caller clears the framebuffer first (``window.clear()``);
        pyglet windows set the projection on resize, offscreen rendering sets it itself.

        Args:
            exact: never show a stale cache. While the zoom changes from frame to frame
                (wheel zooming) the old cache is shown scaled, and while the map changes
                from frame to frame (a paint stroke) the map is drawn directly; the cache
                is rebuilt once things settle, so zooming and painting stay smooth.
                ``exact=True`` (screenshots, tests) always rebuilds first.
        """
        self.refresh()
        if self._built_viewport != self.camera.viewport:
            if self._built_viewport is not None:
                self._rebuild_overlays(screen_only=True)
            self._built_viewport = self.camera.viewport
        self._update_label_visibility()
        imp = self.impostor_active()
        if imp:
            self._ensure_impostor()
        if not self.use_cache:
            self._draw_layers(impostor=imp)
        else:
            top = self._cache_top()
            cam = self.camera
            key = (self._static_gen, self._feature_gen if top >= Layer.FEATURE else None, top, cam.zoom,
                   cam.pixel_ratio, cam.framebuffer_size, imp, self.show_grid,
                   self._groups[int(Layer.LABEL)].visible, self._groups[int(Layer.DETAIL)].visible)
            gens = (self._static_gen, self._feature_gen)
            volatile = not exact and (cam.zoom != self._last_zoom or gens != self._last_gens)
            if self._cache.valid(key, cam):
                self._draw_composite(top)
            elif (volatile and cam.zoom != self._last_zoom and self._cache.key is not None
                  and self._cache.key[:3] + self._cache.key[4:] == key[:3] + key[4:] and self._cache.covers(cam)):
                # zoom still changing: show the old image scaled, rebuild when it settles
                tex = self._cache.texture
                gl.glBindTexture(tex.target, tex.id)
                gl.glTexParameteri(tex.target, gl.GL_TEXTURE_MAG_FILTER, gl.GL_LINEAR)
                gl.glTexParameteri(tex.target, gl.GL_TEXTURE_MIN_FILTER, gl.GL_LINEAR)
                self._draw_quad(self._cache_vl, self._cache_group)
                gl.glBindTexture(tex.target, tex.id)
                gl.glTexParameteri(tex.target, gl.GL_TEXTURE_MAG_FILTER, gl.GL_NEAREST)
                gl.glTexParameteri(tex.target, gl.GL_TEXTURE_MIN_FILTER, gl.GL_NEAREST)
                self._draw_layers(lo=top + 1)
            elif volatile:
                # the map or the zoom is changing frame after frame (a paint stroke, the
                # wheel): draw directly, cache once it settles
                self._draw_layers(impostor=imp)
            else:
                self._cache.build(self, lambda: self._draw_layers(hi=top, impostor=imp), key, self.cache_samples)
                self._cache_group.texture = self._cache.texture
                if self._cache_vl is not None:
                    self._cache_vl.delete()
                self._cache_vl = gpu.upload_texmesh(self._cache.quad(), self._store, self._cache_group)
                self._draw_composite(top)
            self._last_gens = gens
        self._last_zoom = self.camera.zoom
        self.batch.draw()

    def delete(self) -> None:
        """Delete every vertex list this view made (the view is unusable afterwards)."""
        for name in list(self._lists):
            self._clear(name)
        for vl in (self._impostor_vl, self._cache_vl, self._comp_vl):
            if vl is not None:
                vl.delete()
        self._impostor_vl = self._cache_vl = self._comp_vl = None
        self._impostor.delete()
        self._cache.delete()
        self._overlays.clear()
        self._overlay_order.clear()
