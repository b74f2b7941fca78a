"""hexwar's pyglet rendering layer: the map view, counters, overlays, camera and PNG output.

Shared by the play screen, the editor and the simulation heatmaps. Importing this package
loads nothing from GL; names are imported on first use, and every GL module first decides
headless vs windowed (:mod:`hexwar.render.backend`), because pyglet fixes that choice when
its GL loads.

Public API (see each module):

* :class:`~hexwar.render.mapview.MapView` - batched map + counters + overlays in a window
* :class:`~hexwar.render.camera.Camera`, :data:`~hexwar.render.camera.WORLD_LAYOUT`
* :class:`~hexwar.render.counters.CounterView`
* overlays: :class:`~hexwar.render.overlays.HeatmapOverlay`, ``ReachOverlay``,
  ``HighlightOverlay``, ``LosOverlay`` + ``LosView``, ``PathOverlay``, ``ArrowOverlay``
* :func:`~hexwar.render.offscreen.render_map`, ``render_view``, ``save_png``, ``hidden_window``
* :func:`~hexwar.render.backend.configure`, ``require_display``, ``NO_DISPLAY_MESSAGE``
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = [
    "ArrowOverlay",
    "Camera",
    "CounterView",
    "HeatmapOverlay",
    "HighlightOverlay",
    "Layer",
    "LosOverlay",
    "LosView",
    "MapView",
    "NO_DISPLAY_MESSAGE",
    "PathOverlay",
    "ReachOverlay",
    "WORLD_LAYOUT",
    "configure",
    "hidden_window",
    "render_map",
    "read_window",
    "render_view",
    "require_display",
    "save_png",
]

_WHERE = {
    "ArrowOverlay": "overlays",
    "HeatmapOverlay": "overlays",
    "HighlightOverlay": "overlays",
    "LosOverlay": "overlays",
    "LosView": "overlays",
    "PathOverlay": "overlays",
    "ReachOverlay": "overlays",
    "Camera": "camera",
    "WORLD_LAYOUT": "camera",
    "CounterView": "counters",
    "Layer": "layers",
    "read_window": "offscreen",
    "MapView": "mapview",
    "hidden_window": "offscreen",
    "render_map": "offscreen",
    "render_view": "offscreen",
    "save_png": "offscreen",
    "NO_DISPLAY_MESSAGE": "backend",
    "configure": "backend",
    "require_display": "backend",
}


def __getattr__(name: str) -> Any:
    mod = _WHERE.get(name)
    if mod is None:
        raise AttributeError(f"module 'hexwar.render' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{mod}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(list(globals()) + __all__)
