"""A minimap: the whole map as one small picture of hex cells, the part on screen framed; a
click on it names the world point to look at (the editor and play windows jump there).

The picture is drawn with :meth:`~hexwar.ui.widgets.painter.Painter.rects` (one mesh append for
every cell), from cell colours the caller gives (the editor passes the terrain looks' centre
colours, so it matches the map and follows every edit). Maps wider or higher than
:data:`MAX_CELLS` hexes are sampled every k-th hex. Logic is headless; the world <-> minimap
transform is plain arithmetic:

>>> import numpy as np
>>> mm = Minimap()
>>> xs, ys = np.array([[0.0, 1.5]]), np.array([[0.0, -0.87]])
>>> mm.set_cells(xs, ys, np.zeros((1, 2, 4), np.uint8), (-1.0, -1.8, 2.5, 0.9), 1.0)
>>> mm.place(Rect(0, 0, 70, 50))
>>> [round(v, 2) for v in mm.to_world(35, 25)]
[0.75, -0.45]
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from . import theme as T
from .geometry import Rect

if TYPE_CHECKING:
    from .painter import Painter

__all__ = ["MAX_CELLS", "Minimap", "minimap_cells"]

#: Hexes per side drawn at most; bigger maps are sampled.
MAX_CELLS = 128


class Minimap:
    """The minimap's picture and transform (see module doc).

    Attributes:
        box: the screen rectangle (points) the map picture fills, after :meth:`place`.
        scale: points per world unit.
    """

    def __init__(self) -> None:
        self.box = Rect(0, 0, 0, 0)
        self.scale = 1.0
        self._world = (0.0, 0.0, 1.0, 1.0)
        self._xs = np.zeros((0, 0))
        self._ys = np.zeros((0, 0))
        self._cols = np.zeros((0, 0, 4), np.uint8)
        self._half = (0.5, 0.5)

    def set_cells(
        self,
        xs: np.ndarray,
        ys: np.ndarray,
        colours: np.ndarray,
        world: tuple[float, float, float, float],
        hex_size: float,
    ) -> None:
        """The cells: world centres ``xs, ys`` ``[H, W]``, RGBA ``colours`` ``[H, W, 4]``, the
        map's world rectangle ``world`` and the hex radius ``hex_size`` (world units)."""
        h, w = xs.shape
        k = max(1, math.ceil(max(h, w) / MAX_CELLS))
        self._xs, self._ys, self._cols = xs[::k, ::k], ys[::k, ::k], colours[::k, ::k]
        self._world = world
        self._half = (hex_size * 0.75 * k + 1e-9, hex_size * math.sqrt(3) / 2 * k + 1e-9)

    def place(self, rect: Rect) -> None:
        """Fit the map's world rectangle into ``rect`` (points), keeping its shape, centred."""
        x0, y0, x1, y1 = self._world
        ww, wh = max(1e-9, x1 - x0), max(1e-9, y1 - y0)
        self.scale = min(rect.w / ww, rect.h / wh)
        bw, bh = ww * self.scale, wh * self.scale
        self.box = Rect(rect.x + (rect.w - bw) / 2, rect.y + (rect.h - bh) / 2, bw, bh)

    def to_screen(self, wx: float, wy: float) -> tuple[float, float]:
        """Minimap point of world point ``(wx, wy)``."""
        x0, y0, _, _ = self._world
        return (self.box.x + (wx - x0) * self.scale, self.box.y + (wy - y0) * self.scale)

    def to_world(self, sx: float, sy: float) -> tuple[float, float]:
        """World point under minimap point ``(sx, sy)`` (clamped to the map's rectangle)."""
        x0, y0, x1, y1 = self._world
        wx = x0 + (sx - self.box.x) / self.scale
        wy = y0 + (sy - self.box.y) / self.scale
        return (min(x1, max(x0, wx)), min(y1, max(y0, wy)))

    def paint(
        self,
        p: Painter,
        view: tuple[float, float, float, float] | None,
        action: Any = None,
        tip: str = "minimap",
    ) -> None:
        """Paint the cells and the frame of the world rectangle ``view`` (what is on screen);
        record a hit box running ``action`` (the window reads the pointer itself)."""
        b = self.box
        p.rect(b.x - 2, b.y - 2, b.x1 + 2, b.y1 + 2, T.LINE)
        if self._xs.size:
            sx, sy = self.to_screen(self._xs, self._ys)  # type: ignore[arg-type]
            hx, hy = self._half[0] * self.scale, self._half[1] * self.scale
            n = self._xs.size
            p.rects(
                np.clip(sx - hx, b.x, b.x1),
                np.clip(sy - hy, b.y, b.y1),
                np.clip(sx + hx, b.x, b.x1),
                np.clip(sy + hy, b.y, b.y1),
                self._cols.reshape(n, 4),
            )
        if view is not None:
            self.paint_view(p, view)
        p.widget(b.x, b.y, b.w, b.h, action, tip)

    def paint_view(self, p: Painter, view: tuple[float, float, float, float]) -> None:
        """The frame of world rectangle ``view`` (what is on screen), clipped to the picture
        (a window may paint it on its own layer, so a pan repaints only the frame)."""
        b = self.box
        vx0, vy0 = self.to_screen(min(view[0], view[2]), min(view[1], view[3]))
        vx1, vy1 = self.to_screen(max(view[0], view[2]), max(view[1], view[3]))
        vx0, vx1 = max(b.x, vx0), min(b.x1, vx1)
        vy0, vy1 = max(b.y, vy0), min(b.y1, vy1)
        if vx1 > vx0 and vy1 > vy0:
            p.frame(vx0, vy0, vx1, vy1, 1.5, (255, 255, 255, 230))


def minimap_cells(m: Any, looks: Any, layout: Any) -> tuple[Any, Any, Any]:
    """World centres ``xs, ys`` ``[H, W]`` and RGBA ``[H, W, 4]`` of every hex: the colour the
    map shows at the hex centre (terrain look, level shade, roads, rubble; R2.4). The editor and
    the play window draw their minimaps from it."""
    from ...render.mapgeom import hex_centres

    xs, ys = hex_centres(m.width, m.height, layout)
    keys = [t.key for t in m.rules.types]
    level = np.clip(m.level.astype(np.int64), -32, 31)
    code = (
        (m.terrain.astype(np.int64) * 64 + level + 32) * 2 + m.road.astype(np.int64)
    ) * 2 + m.rubble.astype(np.int64)
    cols = np.zeros((m.height, m.width, 4), np.uint8)
    for c in np.unique(code):
        v = int(c)
        rub, v = v % 2, v // 2
        road, v = v % 2, v // 2
        lv, t = v % 64 - 32, v // 64
        cols[code == c] = looks.centre_colour(keys[t], level=lv, road=bool(road), rubble=bool(rub))
    return xs, ys, cols
