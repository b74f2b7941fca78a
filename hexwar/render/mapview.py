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

import pyglet  # noqa: E402
from pyglet import gl  # noqa: E402
from pyglet.graphics import Batch  # noqa: E402

from ..model.hexgrid import Hex  # noqa: E402
from ..model.maps import BattleMap  # noqa: E402
from . import gpu, mapgeom  # noqa: E402
from .camera import WORLD_LAYOUT, Camera, map_bounds  # noqa: E402
from .counters import COUNTER_SIZE, CounterView, build_counters, counters_at  # noqa: E402
from .impostor import MapImpostor, ViewCache, impostor_hex_px  # noqa: E402
from .impostor import _quad as _cache_quad  # noqa: E402
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
IMPOSTOR_LAYERS = (
    Layer.GROUND,
    Layer.DETAIL,
    Layer.CONTOUR,
    Layer.ROAD_EDGE,
    Layer.ROAD,
    Layer.BUILDING,
    Layer.GRID,
)
_IMPOSTOR_SET = frozenset(int(x) for x in IMPOSTOR_LAYERS)

#: Changed rectangles above which the composite is redrawn whole instead.
MAX_DIRTY_BOXES = 8

_STATIC_LAYERS = ("ground", "detail", "contour", "road", "building", "grid", "label", "feature")
_SQRT3 = math.sqrt(3.0)


@dataclass
class _Entry:
    """One vertex list of the view: its layer and, for static map layers, its tile index."""

    vl: Any
    layer: int
    tiles: TileIndex | None = None
    box: tuple[float, float, float, float] | None = None


@dataclass
class _Stack:
    """The counter meshes of one hex stack (``levels`` as :func:`build_counters` returns them)
    and their world bounding box ``(x0, y0, x1, y1)`` (``None``: nothing drawn)."""

    levels: list[tuple[Mesh, TexMesh]]
    box: tuple[float, float, float, float] | None


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
    ``glMultiDrawElements`` per layer). Static map layers live in their own exactly sized
    GL buffers (:class:`~hexwar.render.gpu.StaticMesh`, no copy in system memory), and hex
    labels are built only once the zoom can show them (:data:`MIN_LABEL_PX`): a whole
    500x500 map in one image never builds its 250,000 unreadable labels (issue 22).
    """

    def __init__(
        self,
        bmap: BattleMap,
        window: Any,
        looks: Looks | None = None,
        camera: Camera | None = None,
        batch: Batch | None = None,
        show_labels: bool = True,
        show_grid: bool = True,
        use_impostor: bool = True,
        use_cache: bool = True,
        cache_samples: int = 4,
    ) -> None:
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
                self._groups[int(layer)] = gpu.LayerGroup(
                    layer, parent, self._colour_prog, opaque=layer == Layer.GROUND
                )
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
        self._grid_group = gpu.TextGroup(Layer.GRID, self.world_group, None, gpu.image_program())
        self._grid_vl: Any = None
        self._grid_rect: tuple[float, float, float, float] | None = None
        self._comp_vl: Any = None
        self._dyn_gen = 0  # counters and overlays: bumped whenever they change
        self._stacks: dict[Any, _Stack] = {}  # (hex, counters, simple) -> meshes, for incremental updates
        self._level_sigs: list[tuple[Any, ...]] = []  # per stack position: the stack meshes its lists show
        self._comp_dirty: list[tuple[float, float, float, float]] | None = []  # None: redraw it all
        self._feature_gen = 0
        self._static_gen = 0
        self._last_zoom: float | None = None
        self._last_gens: tuple[int, int] = (-1, -1)
        self._stale = False
        self._comp_rect: tuple[float, float, float, float] | None = None
        self._cache_rect: tuple[float, float, float, float] | None = None
        self._counter_simple = False
        self.map = bmap
        self._labels_built = False
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
            "terrain": m.terrain.copy(),
            "level": m.level.copy(),
            "road": m.road.copy(),
            "rubble": m.rubble.copy(),
            "fire": m.fire.copy(),
            "wrecks": {h: tuple(s) for h, s in m.wrecks.items()},
            "marker": m.artillery_marker,
            "version": m.version,
        }

    def _build_all(self) -> None:
        for name in _STATIC_LAYERS:
            self._clear(name)
        m, lk, lay = self.map, self.looks, self.layout
        self._put("ground", Layer.GROUND, mapgeom.build_ground(m, lk, lay))
        self._put("detail", Layer.DETAIL, mapgeom.build_details(m, lk, lay))
        self._put("contour", Layer.CONTOUR, mapgeom.build_contours(m, lk, lay))
        self._put_roads()
        self._put("building", Layer.BUILDING, mapgeom.build_buildings(m, lk, lay))
        self._put("grid", Layer.GRID, mapgeom.build_grid(m, lk, lay))
        # hex labels are built the first time they can show (issue 22): zoomed out past
        # MIN_LABEL_PX (a whole 500x500 map in one image) they would be 5M unreadable vertices
        self._labels_built = False
        self._build_features()
        self._snap = self._snapshot()
        self._static_gen += 1
        self._stacks = {}  # culling tiles follow the map's size
        for k in range(len(self._level_sigs)):
            self._clear(f"counters:{k}", dirty=False)
        self._level_sigs = []
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
        f_ch = (
            not np.array_equal(snap["fire"], m.fire)
            or snap["marker"] != m.artillery_marker
            or snap["wrecks"] != {h: tuple(s) for h, s in m.wrecks.items()}
        )
        if t_ch or l_ch:
            colours = mapgeom.ground_colours(m, lk)
            for e in self._lists.get("ground", []):
                gpu.write_colors(e.vl, colours)
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

    def _put(
        self, name: str, layer: int, mesh: Mesh | TexMesh, dirty: bool = True, tiles: TileIndex | None = None
    ) -> None:
        group = self._groups[int(layer)]
        if (
            tiles is None
            and mesh.vertex_count
            and mesh.owner is not None
            and (name in _STATIC_LAYERS or name.startswith("counters"))
        ):
            mesh.indices, tiles = tile_sort(mesh.indices, mesh.owner, self.map.width, self.map.height, TILE)
        if name in _STATIC_LAYERS:
            # the map layers: own exactly sized GL buffers, no system-memory copy (issue 22)
            vl = gpu.upload_static(mesh, group.program)
            if vl is not None and getattr(self.window, "context", None) is pyglet.gl.current_context:
                vl.upload()  # into GL at once (the arrays go now, not at the first draw)
        elif isinstance(mesh, TexMesh):
            vl = gpu.upload_texmesh(mesh, self._store, group)
        else:
            vl = gpu.upload_mesh(mesh, self._store, group, self._colour_prog)
        entries = self._lists.setdefault(name, [])
        box = None
        if mesh.vertex_count and dirty and name not in _STATIC_LAYERS:  # what the composite must redraw
            (x0, y0), (x1, y1) = mesh.positions.min(axis=0), mesh.positions.max(axis=0)
            box = (float(x0), float(y0), float(x1), float(y1))
        if vl is not None:
            entries.append(_Entry(vl, int(layer), tiles, box))
        self._draw_order = None
        if name not in _STATIC_LAYERS:
            self._dyn_gen += 1
            if dirty and box is not None:
                self._mark_dirty(box if layer < Layer.HUD else False)

    def _clear(self, name: str, dirty: bool = True) -> None:
        for e in self._lists.pop(name, []):
            e.vl.delete()
            if dirty and name not in _STATIC_LAYERS and e.box is not None:
                self._mark_dirty(e.box if e.layer < Layer.HUD else False)
        self._draw_order = None
        if name not in _STATIC_LAYERS:
            self._dyn_gen += 1

    def _mark_dirty(self, box: tuple[float, float, float, float] | None | bool) -> None:
        """Note that the composite must be redrawn inside world rectangle ``box`` (``None``:
        everywhere; ``False``: nowhere, a screen-space layer drawn live every frame)."""
        if box is False:
            return
        if box is None or self._comp_dirty is None:
            self._comp_dirty = None
        else:
            self._comp_dirty.append(box)  # type: ignore[arg-type]

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

        Incremental (issue 22): the meshes of every hex stack are kept, so only stacks that
        changed are built again, and the cached composite is redrawn only around them (the
        stacks' old and new outlines), not over the whole view.

        Raises:
            HexwarError: for a counter with unknown side or type (see :class:`CounterView`).
        """
        self.counters = list(counters)
        self._build_counters(incremental=True)

    def _owner_of(self, h: Hex) -> int | None:
        col, row = h.offset
        if 0 <= col < self.map.width and 0 <= row < self.map.height:
            return row * self.map.width + col
        return None

    def _stack_meshes(self, h: Hex, stack: tuple[CounterView, ...]) -> _Stack:
        key = (h, stack, self._counter_simple)
        got = self._stacks.get(key)
        if got is None:
            levels = build_counters(
                stack,
                self.looks,
                self.layout,
                self.atlas,
                MAX_STACK,
                simple=self._counter_simple,
                owner_of=self._owner_of,
            )
            pts = [m.positions for lv in levels for m in lv if m.vertex_count]
            if pts:
                allp = np.concatenate(pts)
                (x0, y0), (x1, y1) = allp.min(axis=0), allp.max(axis=0)
                box = (float(x0), float(y0), float(x1), float(y1))
            else:
                box = None
            got = _Stack(levels, box)
        return got

    def _build_counters(self, incremental: bool = False) -> None:
        stacks: dict[Hex, list[CounterView]] = {}
        for c in self.counters:
            stacks.setdefault(c.hex, []).append(c)
        old = self._stacks
        new: dict[Any, _Stack] = {}
        for h, st in stacks.items():
            key = (h, tuple(st), self._counter_simple)
            new[key] = old[key] if key in old else self._stack_meshes(h, key[1])
        dirty = [st.box for k, st in old.items() if k not in new and st.box is not None]
        dirty += [st.box for k, st in new.items() if k not in old and st.box is not None]
        self._stacks = new
        # stacks in map-tile order (each stack lies in one tile): the concatenated meshes come
        # out tile-sorted, as tile_sort would make them, without sorting every triangle again
        W, H = self.map.width, self.map.height
        ntr, ntc = -(-H // TILE), -(-W // TILE)
        tiled: list[tuple[int, int, _Stack, Any]] = []
        cullable = True
        for i, (key, stack) in enumerate(new.items()):
            own = self._owner_of(key[0])
            if own is None:
                cullable = False
                own = 0
            tiled.append(((own // W) // TILE * ntc + (own % W) // TILE, i, stack, key))
        if cullable:
            tiled.sort(key=lambda x: (x[0], x[1]))
        depth = max((len(st.levels) for st in new.values()), default=0)
        for k in range(depth, len(self._level_sigs)):
            self._clear(f"counters:{k}", dirty=False)
        del self._level_sigs[depth:]
        for k in range(depth):
            lv = [(tid, st.levels[k]) for tid, _, st, _ in tiled if len(st.levels) > k]
            sig = tuple(key for _, _, st, key in tiled if len(st.levels) > k)
            if k < len(self._level_sigs) and self._level_sigs[k] == sig:
                continue  # this stack position shows the same meshes: its vertex lists stay
            self._clear(f"counters:{k}", dirty=False)
            if k < len(self._level_sigs):
                self._level_sigs[k] = sig
            else:
                self._level_sigs.append(sig)
            b, t = counter_layers(k)
            for layer, j in ((b, 0), (t, 1)):
                parts = [(tid, m[j]) for tid, m in lv if m[j].vertex_count]
                mesh: Mesh | TexMesh = (
                    Mesh.concat([m for _, m in parts if isinstance(m, Mesh)])
                    if j == 0
                    else TexMesh.concat([m for _, m in parts if isinstance(m, TexMesh)])
                )
                tiles = None
                if cullable and parts and mesh.owner is not None:
                    tris = np.bincount(
                        np.array([tid for tid, _ in parts], dtype=np.int64),
                        weights=np.array([len(m.indices) // 3 for _, m in parts], dtype=np.int64),
                        minlength=ntr * ntc,
                    )
                    tiles = TileIndex(np.concatenate([[0], np.cumsum(tris)]).astype(np.int64), ntr, ntc, TILE)
                self._put(f"counters:{k}", layer, mesh, dirty=False, tiles=tiles)
        if incremental:
            for box in dirty:
                self._mark_dirty(box)
        else:
            self._mark_dirty(None)

    def counters_at(self, h: Hex) -> list[CounterView]:
        """Counters standing in hex ``h``, bottom first."""
        return counters_at(self.counters, h)

    # -- overlays -----------------------------------------------------------------------
    def overlay_context(self) -> OverlayContext:
        """The context overlays are built with (map, looks, layout, atlas, viewport)."""
        return OverlayContext(
            self.map, self.looks, self.layout, self.atlas, self.camera.viewport, self.camera.pixel_ratio
        )

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
        if want and not self._labels_built:
            self._labels_built = True
            self._put(
                "label", Layer.LABEL, mapgeom.build_labels(self.map, self.looks, self.layout, self.atlas)
            )
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
    def visible_hex_range(
        self, margin: int = 1, within: tuple[float, float, float, float] | None = None
    ) -> tuple[int, int, int, int]:
        """Rows ``r0..r1`` and columns ``c0..c1`` (inclusive, maybe off the map) on screen (or
        in world rectangle ``within``), widened by ``margin`` hexes for drawings that spill
        over their hex."""
        x0, y0, x1, y1 = within if within is not None else self.camera.visible_world_rect()
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

    def _draw_layers(
        self,
        lo: int | None = None,
        hi: int | None = None,
        cull: bool = True,
        force_detail: bool = False,
        impostor: bool = False,
        within: tuple[float, float, float, float] | None = None,
    ) -> None:
        """Draw the layers ``lo <= layer <= hi`` (all by default) in order.

        With ``impostor`` the far-out image stands in for :data:`IMPOSTOR_LAYERS`; with
        ``within`` (a world rectangle) tiles are culled to it instead of to the camera's view.
        """
        r0, r1, c0, c1 = self.visible_hex_range(margin=1 if within is None else 2, within=within)
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
        self._impostor.build(
            self, lambda: self._draw_layers(hi=top, cull=False, force_detail=True), key, self.cache_samples
        )
        self._impostor_group.texture = self._impostor.texture
        self._impostor_vl = gpu.upload_texmesh(self._impostor.quad(), self._store, self._impostor_group)

    def _cache_top(self) -> int:
        """The highest layer kept in the viewport cache: the static map under overlays."""
        return int(Layer.FEATURE_TEXT)

    def _draw_composite(self, top: int) -> None:
        """Show the cached static map with underlays, counters and overlays (re-compositing
        them first if they changed: only around what changed when that is known), then the
        screen-space layers live."""
        c = self._cache
        key = c.stage_builds
        dirty = self._comp_dirty
        if c.comp_key != key or dirty is None or dirty:
            boxes = None if (c.comp_key != key or dirty is None or len(dirty) > MAX_DIRTY_BOXES) else dirty
            c.build_composite(
                self, lambda box: self._draw_layers(lo=top + 1, hi=int(Layer.HUD) - 1, within=box), key, boxes
            )
            self._comp_dirty = []
            if (
                self._comp_vl is None
                or self._comp_group.texture is not c.comp_texture
                or self._comp_rect != c.rect
            ):
                self._comp_group.texture = c.comp_texture
                if self._comp_vl is not None:
                    self._comp_vl.delete()
                self._comp_vl = gpu.upload_texmesh(c.quad(), self._store, self._comp_group)
                self._comp_rect = c.rect
        c.draw(self.camera, lambda: self._draw_quad(self._comp_vl, self._comp_group), composite=True)
        self._draw_layers(lo=int(Layer.HUD))

    @property
    def cache_builds(self) -> int:
        """How many times the multisampled base of the viewport cache was rendered (tests, benchmarks)."""
        return self._cache.builds

    @property
    def composite_builds(self) -> int:
        """How many times counters and overlays were composited over the cached map (wholly or
        around what changed)."""
        return self._cache.comp_builds

    @property
    def cache_settled(self) -> bool:
        """True when no build of the viewport cache is in progress (the picture is exact)."""
        return self._cache.job is None and not self._stale

    def _lay_grid(self, texture: Any, rect: tuple[float, float, float, float]) -> None:
        """The grid alone (``texture``, premultiplied alpha) over world rectangle ``rect``,
        through the current camera (the cache's own: texel for pixel)."""
        self._grid_group.texture = texture
        if self._grid_vl is None or self._grid_rect != rect:
            if self._grid_vl is not None:
                self._grid_vl.delete()
            self._grid_vl = gpu.upload_texmesh(_cache_quad(*rect), self._store, self._grid_group)
            self._grid_rect = rect
        g = self._grid_group
        parent = self.world_group
        parent.set_state()
        g.set_state()
        gl.glBlendFuncSeparate(gl.GL_ONE, gl.GL_ONE_MINUS_SRC_ALPHA, gl.GL_ONE, gl.GL_ONE_MINUS_SRC_ALPHA)
        gpu.draw_ranges(self._grid_vl, None)
        gl.glBlendFuncSeparate(
            gl.GL_SRC_ALPHA, gl.GL_ONE_MINUS_SRC_ALPHA, gl.GL_ONE, gl.GL_ONE_MINUS_SRC_ALPHA
        )
        g.unset_state()
        parent.unset_state()

    def _draw_stale(self, top: int) -> None:
        """The old cached image scaled to the current zoom: the composite when counters and
        overlays have not changed since it was made (one textured quad), else the static
        image with the layers above drawn live."""
        c = self._cache
        whole = (
            not self._comp_dirty
            and self._comp_dirty is not None
            and c.comp_texture is not None
            and c.comp_key == c.stage_builds
            and self._comp_vl is not None
            and self._comp_rect == c.rect
        )
        if whole:
            tex, vl, group = c.comp_texture, self._comp_vl, self._comp_group
        else:
            tex = c.texture
            if self._cache_vl is None or self._cache_rect != c.rect or self._cache_group.texture is not tex:
                self._cache_group.texture = tex
                if self._cache_vl is not None:
                    self._cache_vl.delete()
                self._cache_vl = gpu.upload_texmesh(c.quad(), self._store, self._cache_group)
                self._cache_rect = c.rect
            vl, group = self._cache_vl, self._cache_group
        gl.glBindTexture(tex.target, tex.id)
        gl.glTexParameteri(tex.target, gl.GL_TEXTURE_MAG_FILTER, gl.GL_LINEAR)
        gl.glTexParameteri(tex.target, gl.GL_TEXTURE_MIN_FILTER, gl.GL_LINEAR)
        self._draw_quad(vl, group)
        gl.glBindTexture(tex.target, tex.id)
        gl.glTexParameteri(tex.target, gl.GL_TEXTURE_MAG_FILTER, gl.GL_NEAREST)
        gl.glTexParameteri(tex.target, gl.GL_TEXTURE_MIN_FILTER, gl.GL_NEAREST)
        self._draw_layers(lo=int(Layer.HUD) if whole else top + 1)

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
                from frame to frame (a paint stroke) the map is drawn directly. Once things
                settle the multisampled base is rebuilt in strips of at most
                :data:`~hexwar.render.impostor.BUILD_BUDGET` pixel-samples a frame (the old
                image, scaled, shows until it is done), so zooming, toggling the grid and
                painting never stall a frame. Label toggles and feature changes redo only
                the single-sampled static image; counter and overlay changes redraw the
                composite only around them. ``exact=True`` (screenshots, tests) builds
                everything first.
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
        self._stale = False
        if not self.use_cache:
            self._draw_layers(impostor=imp)
        else:
            top = self._cache_top()
            cam, c = self.camera, self._cache
            # multisampled, the grid gets its own texture (a grid toggle then redoes only the
            # single-sampled stage); single-sampled it is simply drawn in the stage
            split_grid = self.cache_samples > 1 and not imp
            base_key = (
                self._static_gen,
                cam.zoom,
                cam.pixel_ratio,
                cam.framebuffer_size,
                imp,
                self._groups[int(Layer.DETAIL)].visible,
                split_grid,
            )
            gens = (self._static_gen, self._feature_gen)
            volatile = not exact and (cam.zoom != self._last_zoom or self._static_gen != self._last_gens[0])
            grid = int(Layer.GRID)

            def base() -> None:
                self._draw_layers(hi=int(Layer.BUILDING), impostor=imp)

            def grid_alone() -> None:
                g = self._groups[grid]
                shown = g.visible
                g.visible = True  # built even while hidden, so showing it costs no rebuild
                try:
                    self._draw_layers(lo=grid, hi=grid)
                finally:
                    g.visible = shown

            def stage() -> None:
                self._draw_layers(lo=grid + 1 if split_grid else grid, hi=top, impostor=imp)

            ok = c.valid(base_key, cam)
            # the old image may stand in while the base is rebuilt when only the zoom, the
            # grid toggle or the detail level differ (the map and the framebuffer are the same)
            stale_ok = (
                c.texture is not None
                and c.base_key is not None
                and c.covers(cam)
                and (c.base_key[0], c.base_key[2], c.base_key[3], c.base_key[4])
                == (base_key[0], base_key[2], base_key[3], base_key[4])
            )
            if not ok:
                if exact or (not volatile and not stale_ok):
                    # nothing to show meanwhile: built at once
                    c.build(
                        self,
                        base,
                        base_key,
                        self.cache_samples,
                        grid_alone if split_grid else None,
                        self._lay_grid,
                    )
                    ok = True
                else:
                    if c.job is None or c.job.key != base_key or not c.job.covers(cam):
                        c.start(self, base_key, self.cache_samples, grid=split_grid)
                    if not volatile:
                        c.step(self, base, draw_grid=grid_alone, lay_grid=self._lay_grid)
                        # a frame that rendered part of the base shows the old image once more:
                        # the static image and the composite follow in the next frame
                        ok = c.job is None and not stale_ok
            if ok:
                stage_key = (
                    c.builds,
                    self._feature_gen,
                    self._groups[int(Layer.LABEL)].visible,
                    self.show_grid,
                )
                if c.key != stage_key:
                    c.build_stage(self, stage, stage_key, gridded=split_grid and self.show_grid)
                self._draw_composite(top)
            elif stale_ok:
                # the zoom or the grid toggle changed: the old image, scaled, until the new one is done
                self._stale = True
                self._draw_stale(top)
            else:
                # the map is changing frame after frame (a paint stroke), or nothing cached
                # covers the view: draw directly, cache once it settles
                self._stale = True
                self._draw_layers(impostor=imp)
            self._last_gens = gens
        self._last_zoom = self.camera.zoom
        self.batch.draw()

    def delete(self) -> None:
        """Delete every vertex list this view made (the view is unusable afterwards)."""
        for name in list(self._lists):
            self._clear(name)
        for vl in (self._impostor_vl, self._cache_vl, self._comp_vl, self._grid_vl):
            if vl is not None:
                vl.delete()
        self._impostor_vl = self._cache_vl = self._comp_vl = self._grid_vl = None
        self._impostor.delete()
        self._cache.delete()
        self._overlays.clear()
        self._overlay_order.clear()
