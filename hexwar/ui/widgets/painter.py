"""Immediate-mode drawing of screen-space UI into numpy meshes, uploaded in one batch.

:class:`Painter` collects rectangles, lines, polygons and glyph-atlas text per *level*
(0 panels, 1 pop-ups such as tooltips, 2 modal screens) and records every clickable rectangle
as a :class:`HitBox`. :class:`UiLayer` uploads a painter's meshes into a pyglet batch (the map
view's, drawn after the map) in screen points, so a whole screen is a handful of draw calls and
text is crisp at every pixel ratio. The painter itself needs no GL: it only calls
``atlas.measure`` and ``atlas.text`` (tests pass a fake atlas).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ...render.mesh import Mesh, MeshBuilder, TexMesh
from . import theme as T
from .text import ui_style

__all__ = ["HitBox", "Painter", "UiLayer"]


@dataclass
class HitBox:
    """A clickable rectangle (points) with its action.

    Attributes:
        x, y, w, h: the rectangle, origin bottom-left.
        action: what a left click does (``None``: inert, but it still eats the click).
        tip: a description (tests find hit boxes by it).
        z: the level it was drawn on (modal ones win).
    """

    x: float
    y: float
    w: float
    h: float
    action: Callable[[], Any] | None
    tip: str = ""
    z: int = 0

    def hit(self, px: float, py: float) -> bool:
        """True when point ``(px, py)`` lies inside."""
        return self.x <= px < self.x + self.w and self.y <= py < self.y + self.h

    @property
    def centre(self) -> tuple[float, float]:
        """The rectangle's centre point."""
        return (self.x + self.w / 2, self.y + self.h / 2)


def top_hit(boxes: Sequence[HitBox], px: float, py: float) -> HitBox | None:
    """The hit box under ``(px, py)``: the highest level wins, then the last drawn."""
    best: HitBox | None = None
    for b in boxes:
        if b.hit(px, py) and (best is None or b.z >= best.z):
            best = b
    return best


class Painter:
    """Collects screen-space shapes and text per level (0 panels, 1 pop-ups, 2 modal, 3
    :attr:`TOP`: a question asked over a modal screen, e.g. the quit question over the card
    table's hand-over screen).

    Args:
        atlas: the renderer's glyph atlas (:func:`hexwar.render.text.glyph_atlas`), or any
            object with ``measure(text, size, style)`` and ``text(...) -> TexMesh``.
        mouse: the mouse position in points (buttons under it draw highlighted).

    Attributes:
        widgets: every clickable rectangle drawn (:class:`HitBox`), in drawing order.
        texts: every string drawn (tests read the screen through it).
        text_boxes: ``(x0, y0, x1, y1, text, z)`` of every string drawn, its measured box in
            points (layout tests check that texts and buttons do not overlap).
        text_sizes: the size in points each string of :attr:`text_boxes` is drawn at, after
            any squeezing to ``max_width`` (layout tests check that none is under 10).
        extra: window facts the painting code may use (e.g. the selected unit's screen point).
    """

    LEVELS = 4
    #: the level above every modal screen (the window's quit question): its text is drawn over
    #: the texts of level 2 (each level draws its shapes, then its texts)
    TOP = 3

    def __init__(self, atlas: Any, mouse: tuple[float, float] = (-1.0, -1.0)) -> None:
        self.atlas = atlas
        self.mouse = mouse
        self._b = [MeshBuilder() for _ in range(self.LEVELS)]
        self._t: list[list[TexMesh]] = [[] for _ in range(self.LEVELS)]
        self.widgets: list[HitBox] = []
        self.extra: dict[str, Any] = {}
        self.texts: list[str] = []
        self.text_boxes: list[tuple[float, float, float, float, str, int]] = []
        self.text_sizes: list[float] = []

    # -- primitives ---------------------------------------------------------------------------
    def rect(self, x0: float, y0: float, x1: float, y1: float, colour: Sequence[int], z: int = 0) -> None:
        """A filled rectangle between corners ``(x0, y0)`` and ``(x1, y1)`` (points)."""
        self._b[z].rect(x0, y0, x1, y1, tuple(colour))  # type: ignore[arg-type]

    def frame(
        self, x0: float, y0: float, x1: float, y1: float, width: float, colour: Sequence[int], z: int = 0
    ) -> None:
        """A rectangle outline ``width`` points wide (inside the rectangle)."""
        self._b[z].frame(x0, y0, x1, y1, width, tuple(colour))  # type: ignore[arg-type]

    def line(
        self, x0: float, y0: float, x1: float, y1: float, width: float, colour: Sequence[int], z: int = 0
    ) -> None:
        """A straight line ``width`` points wide."""
        self._b[z].line(x0, y0, x1, y1, width, tuple(colour))  # type: ignore[arg-type]

    def circle(self, x: float, y: float, r: float, colour: Sequence[int], z: int = 0) -> None:
        """A filled circle of radius ``r`` points."""
        self._b[z].circle(x, y, r, tuple(colour), segments=20)  # type: ignore[arg-type]

    def polygon(self, pts: Sequence[tuple[float, float]], colour: Sequence[int], z: int = 0) -> None:
        """A filled convex polygon (points)."""
        self._b[z].polygon(pts, tuple(colour))  # type: ignore[arg-type]

    def rects(self, x0: Any, y0: Any, x1: Any, y1: Any, colours: Any, z: int = 0) -> None:
        """Many filled rectangles at once (numpy ``[n]`` corner arrays, ``[n, 4]`` RGBA colours):
        one mesh append, for pictures of thousands of cells such as the editor's minimap."""
        import numpy as np

        x0, y0, x1, y1 = (np.asarray(v, dtype=np.float64).reshape(-1) for v in (x0, y0, x1, y1))
        n = x0.shape[0]
        if n == 0:
            return
        pts = np.stack(
            [np.stack([x0, y0], 1), np.stack([x1, y0], 1), np.stack([x1, y1], 1), np.stack([x0, y1], 1)],
            axis=1,
        ).reshape(-1, 2)
        cols = np.repeat(np.asarray(colours, dtype=np.uint8).reshape(n, 4), 4, axis=0)
        idx = (np.array([0, 1, 2, 0, 2, 3])[None, :] + 4 * np.arange(n)[:, None]).reshape(-1)
        self._b[z]._add(pts, cols, idx)

    def text(
        self,
        s: str,
        x: float,
        y: float,
        size: float = 13.0,
        colour: Sequence[int] = T.TEXT,
        ax: str = "left",
        ay: str = "center",
        style: str = "regular",
        max_width: float | None = None,
        z: int = 0,
    ) -> float:
        """Draw ``s`` anchored at ``(x, y)`` (``ax`` left/center/right, ``ay``
        bottom/center/top/baseline); a text wider than ``max_width`` is squeezed to fit.
        Returns its width in points (after any squeezing)."""
        if not s:
            return 0.0
        style = ui_style(style)
        self._t[z].append(
            self.atlas.text(
                s,
                round(x),
                round(y),
                size,
                tuple(colour),
                anchor_x=ax,
                anchor_y=ay,
                style=style,
                max_width=max_width,
            )
        )
        self.texts.append(s)
        w = float(self.atlas.measure(s, size, style))
        eff = size * (max_width / w) if max_width and w > max_width > 0 else size
        w = min(w, max_width) if max_width else w
        x0 = x - (w / 2 if ax == "center" else w if ax == "right" else 0.0)
        cap = size * 0.72  # glyph cap height (DejaVu ~0.73 em): the ink box, not the line box
        y0 = {"bottom": y, "baseline": y, "top": y - cap}.get(ay, y - cap / 2)
        self.text_boxes.append((x0, y0, x0 + w, y0 + cap, s, z))
        self.text_sizes.append(eff)
        return w

    def measure(self, s: str, size: float = 13.0, style: str = "regular") -> float:
        """Width of ``s`` in points."""
        return float(self.atlas.measure(s, size, ui_style(style)))

    def hovered(self, x: float, y: float, w: float, h: float) -> bool:
        """True when the mouse is inside the rectangle."""
        mx, my = self.mouse
        return x <= mx < x + w and y <= my < y + h

    def widget(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        action: Callable[[], Any] | None,
        tip: str = "",
        z: int = 0,
    ) -> None:
        """Record a clickable rectangle."""
        self.widgets.append(HitBox(x, y, w, h, action, tip, z))

    def button(
        self,
        x: float,
        y: float,
        w: float,
        h: float,
        label: str,
        action: Callable[[], Any] | None,
        z: int = 0,
        primary: bool = False,
        enabled: bool = True,
        active: bool = False,
        key: str = "",
        tip: str = "",
        size: float = 13.0,
        align: str = "left",
    ) -> None:
        """A button: hover and primary/active highlighting, an optional key hint on the right,
        recorded as a hit box (a disabled button's hit box is inert). ``align`` places the
        label (``left`` or ``center``)."""
        hov = enabled and self.hovered(x, y, w, h)
        if active or primary:
            col: T.Colour = T.ACTIVE if not hov else T.ACTIVE_HOVER
            fg: T.Colour = T.DARK
        else:
            col = T.BUTTON_HOVER if hov else T.BUTTON
            fg = T.TEXT if enabled else T.FAINT
        if not enabled:
            col = T.BUTTON_DISABLED
        self.rect(x, y - 1.5, x + w, y + h - 1.5, (0, 0, 0, 90), z)
        self.rect(x, y, x + w, y + h, col, z)
        self.rect(x, y + h - 1, x + w, y + h, (255, 255, 255, 36), z)
        kw = 0.0
        if key:
            kw = self.measure(key, 10.5, "bold") + 10
            self.text(
                key, x + w - 7, y + h / 2, 10.5, (fg[0], fg[1], fg[2], 150), ax="right", style="bold", z=z
            )
        style = "bold" if (primary or active) else "regular"
        if align == "center":
            self.text(
                label,
                x + (w - kw) / 2,
                y + h / 2,
                size,
                fg,
                ax="center",
                style=style,
                max_width=w - 8 - kw,
                z=z,
            )
        else:
            self.text(label, x + 9, y + h / 2, size, fg, style=style, max_width=w - 18 - kw, z=z)
        self.widget(x, y, w, h, action if enabled else None, tip or label, z)

    def build(self) -> list[tuple[Mesh, TexMesh]]:
        """The meshes per level: ``[(shapes, text), ...]`` for levels 0 to :attr:`LEVELS` - 1."""
        return [(self._b[z].build(), TexMesh.concat(self._t[z])) for z in range(self.LEVELS)]


class UiLayer:
    """Uploads a :class:`Painter`'s meshes into a batch above the map, in screen points.

    Args:
        window: the pyglet window (its ``view`` is set to identity while the UI draws).
        batch: the batch to draw in (the map view's ``batch``, drawn after the map).
        atlas: the glyph atlas (its texture draws the text).
        order: draw order of the UI's parent group within the batch.
    """

    def __init__(self, window: Any, batch: Any, atlas: Any, order: int = 50) -> None:
        from ...render import gpu

        self._gpu = gpu
        self.batch = batch
        self.root = gpu.ViewGroup(window, None, order=order)
        self.groups = []
        for z in range(Painter.LEVELS):
            self.groups.append(
                (gpu.LayerGroup(2 * z, self.root), gpu.TextGroup(2 * z + 1, self.root, atlas.texture))
            )
        self._vls: list[Any] = []

    def show(self, painter: Painter) -> None:
        """Replace what is shown by ``painter``'s meshes."""
        self.clear()
        for z, (shapes, text) in enumerate(painter.build()):
            body, tex = self.groups[z]
            self._vls.append(self._gpu.upload_mesh(shapes, self.batch, body))
            self._vls.append(self._gpu.upload_texmesh(text, self.batch, tex))

    def clear(self) -> None:
        """Remove everything uploaded."""
        for vl in self._vls:
            if vl is not None:
                vl.delete()
        self._vls = []
