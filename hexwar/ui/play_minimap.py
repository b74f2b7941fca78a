"""The play window's minimap and readable move costs (issue 36).

* **Minimap**: while the map area shows only part of the map, a small picture of the whole map
  (:class:`hexwar.ui.widgets.minimap.Minimap`, the editor's, coloured like the map's hex
  centres) sits in the map area's lower left corner with the part on screen framed and every
  unit the shown side sees (R12.1) as a dot: German a square, Soviet a circle (told apart by
  shape as well as colour). A click on it puts that point in the middle of the map area.
* **Move costs** (R5.3): the numbers on reachable hexes are drawn at least
  :data:`MIN_COST_PT` points high, growing within their hex as the zoom shrinks; when even the
  largest that fits is too small, they are left off the map and the hovered reachable hex
  shows its cost in a badge beside the cursor (and the tooltip).
"""

from __future__ import annotations

from typing import Any

from .widgets.geometry import Rect
from .widgets.minimap import Minimap, minimap_cells

__all__ = ["MIN_COST_PT", "MinimapMixin", "cost_text_size"]

#: The smallest move-cost number drawn on the map, in points.
MIN_COST_PT = 10.0
#: The move-cost numbers' size in hex sizes: the usual one, and the largest a hex holds.
COST_SIZE, COST_SIZE_MAX = 0.24, 0.40


def cost_text_size(hex_points: float) -> float | None:
    """The move-cost number's size in hex sizes for a hex ``hex_points`` points across its
    radius (``layout.size * zoom``): :data:`COST_SIZE`, more when that would be under
    :data:`MIN_COST_PT` points, or None when even :data:`COST_SIZE_MAX` is (hover only).

    >>> cost_text_size(64.0), cost_text_size(30.0), cost_text_size(20.0)
    (0.24, 0.3333333333333333, None)
    """
    if hex_points <= 0:
        return None
    need = MIN_COST_PT / hex_points
    if need <= COST_SIZE:
        return COST_SIZE
    return need if need <= COST_SIZE_MAX else None


class MinimapMixin:
    """The minimap part of :class:`~hexwar.ui.play_window.PlayWindow` (see module doc). Reads
    the window's ``mapview``, ``looks``, ``controller`` and ``_mouse``."""

    mapview: Any
    looks: Any
    controller: Any
    _mouse: tuple[float, float]
    _fitted: bool
    map_area: Any
    drawn_state: Any
    _minimap: Minimap | None = None
    _minimap_key: Any = None

    def minimap_now(self) -> Minimap:
        """The minimap, its cells built once per map (and again when rubble changed it, R8.3)."""
        m = self.mapview.map
        k = (id(m), m.width, m.height, int(m.rubble.sum()))
        if self._minimap is None:
            self._minimap = Minimap()
        if self._minimap_key != k:
            self._minimap_key = k
            self._minimap.set_cells(
                *minimap_cells(m, self.looks, self.mapview.layout),
                self.mapview.world_bounds(),
                self.mapview.layout.size,
            )
        return self._minimap

    def view_world_rect(self) -> tuple[float, float, float, float]:
        """The world rectangle the map area shows now."""
        cam = self.mapview.camera
        ax0, ay0, ax1, ay1 = self.map_area()
        (x0, y0), (x1, y1) = cam.screen_to_world(ax0, ay0), cam.screen_to_world(ax1, ay1)
        return (min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))

    def minimap_needed(self) -> bool:
        """True while part of the map is outside the map area (zoomed in or panned)."""
        bx0, by0, bx1, by1 = self.mapview.world_bounds()
        vx0, vy0, vx1, vy1 = self.view_world_rect()
        tol = self.mapview.layout.size * 0.25
        return bx0 < vx0 - tol or by0 < vy0 - tol or bx1 > vx1 + tol or by1 > vy1 + tol

    def minimap_rect(self) -> Rect:
        """Where the minimap goes: the map area's lower left corner, at most 200 x 140 points."""
        ax0, ay0, ax1, ay1 = self.map_area()
        w = min(200.0, (ax1 - ax0) * 0.3)
        h = min(140.0, (ay1 - ay0) * 0.3)
        return Rect(ax0 + 10, ay0 + 10, w, h)

    def minimap_paint(self) -> dict[str, Any] | None:
        """What the panels draw of the minimap now (None: the whole map is in view): the
        minimap placed, the view rectangle, the unit dots ``(world x, world y, side)`` and the
        click action."""
        if not self.minimap_needed():
            return None
        mm = self.minimap_now()
        mm.place(self.minimap_rect())
        lay = self.mapview.layout
        dots = []
        for u in self.drawn_state().units.values():
            if u.hex is not None and u.crewing is None:
                x, y = lay.hex_to_pixel(u.hex)
                dots.append((x, y, u.side))
        return {"minimap": mm, "view": self.view_world_rect(), "dots": dots, "action": self.minimap_click}

    def minimap_click(self) -> None:
        """A click on the minimap: the world point under the mouse goes to the middle of the
        map area (zoom kept)."""
        wx, wy = self.minimap_now().to_world(*self._mouse)
        cam = self.mapview.camera
        ax0, ay0, ax1, ay1 = self.map_area()
        vw, vh = cam.viewport
        dx, dy = (ax0 + ax1) / 2 - vw / 2, (ay0 + ay1) / 2 - vh / 2
        cam.look_at(wx - dx / cam.zoom, wy - dy / cam.zoom)
        self._fitted = False


def paint_minimap(p: Any, info: dict[str, Any], looks: Any) -> None:
    """Paint the minimap of :meth:`MinimapMixin.minimap_paint` with its unit dots: German
    squares, Soviet circles, in the counters' band colours with a dark rim."""
    mm: Minimap = info["minimap"]
    mm.paint(p, info["view"], info["action"], "minimap")
    b = mm.box
    for wx, wy, side in info["dots"]:
        x, y = mm.to_screen(wx, wy)
        if not (b.x <= x <= b.x1 and b.y <= y <= b.y1):
            continue
        col = looks.sides[side].band if side in looks.sides else (200, 200, 200, 255)
        if side == "german":
            p.rect(x - 3.5, y - 3.5, x + 3.5, y + 3.5, (15, 15, 18, 255))
            p.rect(x - 2.5, y - 2.5, x + 2.5, y + 2.5, col)
        else:
            p.circle(x, y, 4.0, (15, 15, 18, 255))
            p.circle(x, y, 3.0, col)
    mm.paint_view(p, info["view"])  # the frame on top of the dots


def paint_hover_cost(p: Any, x: float, y: float, cost: float) -> None:
    """The hovered reachable hex's move cost (R5.3) as a badge above point ``(x, y)`` (points),
    when the map's numbers are too small to draw (:func:`cost_text_size`)."""
    txt = f"{cost:g} MP"
    w = p.measure(txt, 12, "bold") + 12
    p.rect(x - w / 2, y + 8, x + w / 2, y + 28, (246, 244, 236, 240), 1)
    p.frame(x - w / 2, y + 8, x + w / 2, y + 28, 1.0, (30, 60, 110, 255), 1)
    p.text(txt, x, y + 18, 12, (20, 40, 80, 255), ax="center", style="bold", z=1)
