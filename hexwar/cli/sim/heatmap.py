"""The heatmaps of ``hexwar sim ... --png``: values per hex drawn on the real map by hexwar's
pyglet renderer, headless, with a legend band. Only this module of the harness loads the
renderer (never :mod:`hexwar.sim`), and only when a PNG is asked for.
"""

from __future__ import annotations

import numpy as np

from ...model.hexgrid import Hex
from ...model.maps import BattleMap

__all__ = ["render_heatmap", "render_heatmap_strip"]


def _heatmap_image(
    battlemap: BattleMap,
    values: np.ndarray,
    title: str,
    rings: list[Hex],
    ramp: str = "heat",
    vmax: float | None = None,
    width: int = 1400,
) -> np.ndarray:
    """``uint8 [h, w, 4]``: ``values`` drawn on the whole map with a legend band (headless)."""
    from ...render import backend

    backend.configure(None)
    from ...render.camera import Camera, map_bounds
    from ...render.offscreen import render_map
    from ...render.overlays import HeatmapOverlay, HighlightOverlay

    # the whole map, with a free band above and below it so the legend covers no hex
    w, band, margin = width, 100, 0.02
    cam = Camera(viewport=(float(w), 100.0))
    x0, y0, x1, y1 = map_bounds(battlemap.width, battlemap.height, cam.layout)
    zoom = w * (1 - 2 * margin) / (x1 - x0)
    h = int(min(2400, (y1 - y0) * zoom / (1 - 2 * margin) + 2 * band))
    cam = Camera(viewport=(float(w), float(h)))
    cam.fit((x0, y0 - band / zoom, x1, y1 + band / zoom), margin)
    overlays = {
        "heat": HeatmapOverlay(
            values,
            ramp=ramp,
            vmin=0.0,
            vmax=vmax,
            title=title,
            hide_below=1e-9,
            show_values=int((np.asarray(values) > 1e-9).sum()) <= 120,
            fmt=lambda v: f"{v:.2g}",
            wash=0.6,
        ),
        "marks": HighlightOverlay(rings, colour="target"),
    }
    return np.asarray(render_map(battlemap, size=(w, h), overlays=overlays, camera=cam))


def render_heatmap(
    battlemap: BattleMap,
    values: np.ndarray,
    title: str,
    path: str,
    rings: list[Hex],
    ramp: str = "heat",
    vmax: float | None = None,
) -> tuple[int, int]:
    """Draw ``values`` (``[height, width]``, NaN/0 = none) on the map with a legend, headless, to ``path``.

    Returns the image size in pixels. Raises HexwarError when it cannot render or write.
    """
    from ...render.offscreen import save_png

    img = _heatmap_image(battlemap, values, title, rings, ramp, vmax)
    save_png(img, path)
    return int(img.shape[1]), int(img.shape[0])


def render_heatmap_strip(
    battlemap: BattleMap,
    frames: list[tuple[np.ndarray, str]],
    path: str,
    rings: list[Hex],
    ramp: str = "heat",
    vmax: float | None = None,
) -> tuple[int, int]:
    """Draw one small map per frame (``(values [height, width], title)``), side by side, to ``path``.

    Used for per-turn heatmaps: each panel's title says what it shows. Returns the image size.
    """
    from ...render.offscreen import save_png

    width = 700 if len(frames) > 1 else 1400
    imgs = [_heatmap_image(battlemap, v, t, rings, ramp, vmax, width=width) for v, t in frames]
    hmax = max(i.shape[0] for i in imgs)
    pad = [np.pad(i, ((0, hmax - i.shape[0]), (0, 4), (0, 0)), constant_values=255) for i in imgs]
    strip = np.ascontiguousarray(np.concatenate(pad, axis=1)[:, :-4])
    save_png(strip, path)
    return int(strip.shape[1]), int(strip.shape[0])
