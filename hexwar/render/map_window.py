"""What every hexwar window that shows a map between panels shares: fit, picking, hex centres.

:class:`MapAreaMixin` goes before ``pyglet.window.Window`` in a window class that has a
``mapview`` (:class:`~hexwar.render.mapview.MapView`) and a ``map_area()`` method giving the
screen rectangle (points) not covered by its panels. The editor and the play window use it.
"""

from __future__ import annotations

from typing import Any

from ..model.hexgrid import Hex

__all__ = ["MapAreaMixin"]


class MapAreaMixin:
    """Fit-to-area, picking and hex centres for a window with a map view between panels.

    Attributes:
        fit_margin: fraction of the map area left free on each side by :meth:`fit_map`.
    """

    fit_margin: float = 0.02
    mapview: Any

    def map_area(self) -> tuple[float, float, float, float]:
        """The screen rectangle ``(x0, y0, x1, y1)`` (points) the map is seen through."""
        raise NotImplementedError

    def fit_map(self) -> None:
        """Zoom and centre so the whole map fits the map area (pixel ratio kept current)."""
        cam = self.mapview.camera
        w, h = self.get_size()  # type: ignore[attr-defined]
        cam.resize(w, h, self.get_pixel_ratio())  # type: ignore[attr-defined]
        cam.fit(self.mapview.world_bounds(), margin=self.fit_margin, area=self.map_area())

    def hex_at(self, x: float, y: float) -> Hex | None:
        """The map hex under window point ``(x, y)``, or ``None`` (off the map or over a panel)."""
        ax0, ay0, ax1, ay1 = self.map_area()
        if not (ax0 <= x < ax1 and ay0 <= y < ay1):
            return None
        return self.mapview.hex_at(x, y)  # type: ignore[no-any-return]

    def screen_point(self, h: Hex) -> tuple[float, float]:
        """Window point of the centre of hex ``h`` (tests click there)."""
        return self.mapview.camera.hex_center_screen(h)  # type: ignore[no-any-return]
