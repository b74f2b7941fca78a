"""Overlays drawn over the map: highlight sets, reachable hexes, LOS, paths, arrows, heatmaps.

An overlay is a plain object that turns itself into meshes per :class:`~hexwar.render.layers.Layer`
(:meth:`Overlay.build`); :meth:`hexwar.render.mapview.MapView.set_overlay` uploads them.
Overlays take plain data (hexes, numbers, a :class:`LosView`), never game-engine objects,
so the play screen, the editor and the simulation harness all use them alike.

Heatmaps (:class:`HeatmapOverlay`) take per-hex floats (``dict[Hex, float]`` or a
``[height, width]`` array in ``[row, col]`` order, NaN = no value), a colour ramp from
``assets/terrain_looks.toml`` and draw a legend (title, gradient, min and max) in the bottom
right corner of the image.

>>> stops = ((0, 0, 0, 255), (255, 255, 255, 255))
>>> ramp_colours(np.array([0.0, 0.5, 1.0]), stops, 0.0, 1.0)[:, 0].tolist()
[0, 128, 255]
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import HexwarError
from ..model.hexgrid import Hex, Layout
from ..model.maps import BattleMap
from .layers import Layer
from .looks import RGBA, Looks, mix, parse_colour, with_alpha
from .mapgeom import hex_centres
from .mesh import Mesh, MeshBuilder, TexMesh, hex_corner_offsets

__all__ = [
    "ArrowOverlay",
    "HeatmapOverlay",
    "HighlightOverlay",
    "LOS_RESULTS",
    "LosOverlay",
    "LosView",
    "Overlay",
    "OverlayContext",
    "PathOverlay",
    "ReachOverlay",
    "heat_values",
    "ramp_colours",
]

LOS_RESULTS = ("clear", "hindered", "blocked")  # R3.6
_SQRT3 = math.sqrt(3.0)


@dataclass
class OverlayContext:
    """What an overlay may use to build itself.

    Attributes:
        bmap: the map (size, labels, bounds).
        looks: colours.
        layout: the world layout (hex centres, size).
        atlas: the glyph atlas for text.
        viewport: ``(width, height)`` of the view in screen points (for screen-space parts).
        pixel_ratio: framebuffer pixels per point.
    """

    bmap: BattleMap
    looks: Looks
    layout: Layout
    atlas: Any
    viewport: tuple[float, float] = (800.0, 600.0)
    pixel_ratio: float = 1.0


class Overlay:
    """Base of all overlays.

    Subclasses implement :meth:`build`. ``screen_space`` is True when the result depends
    on the viewport (legends), so the view rebuilds it on resize.
    """

    screen_space: bool = False

    def build(self, ctx: OverlayContext) -> dict[int, Mesh | TexMesh]:
        """Meshes by layer (world units, or screen points for HUD layers)."""
        raise NotImplementedError


def _colour(ctx: OverlayContext, c: RGBA | str | None, key: str) -> RGBA:
    if c is None:
        return ctx.looks.overlay[key]
    if isinstance(c, str):
        if c in ctx.looks.overlay:
            return ctx.looks.overlay[c]
        return parse_colour(c)
    return tuple(int(v) for v in c)  # type: ignore[return-value]


def _hex_fill(b: MeshBuilder, cx: float, cy: float, size: float, colour: RGBA, inset: float = 0.0) -> None:
    b.polygon(hex_corner_offsets(size * (1.0 - inset)) + (cx, cy), colour)


def _hex_ring(
    b: MeshBuilder, cx: float, cy: float, size: float, width: float, colour: RGBA, inset: float = 0.0
) -> None:
    outer = hex_corner_offsets(size * (1.0 - inset)) + (cx, cy)
    inner = hex_corner_offsets(size * (1.0 - inset) - width / (_SQRT3 / 2)) + (cx, cy)
    for i in range(6):
        j = (i + 1) % 6
        b.polygon([outer[i], outer[j], inner[j], inner[i]], colour)


def _check_hexes(ctx: OverlayContext, hexes: Iterable[Hex], what: str) -> list[Hex]:
    out = []
    for h in hexes:
        if not isinstance(h, Hex):
            raise HexwarError(f"{what}: expected Hex values, got {h!r}")
        if ctx.bmap.in_bounds(h):
            out.append(h)
    return out


def _plate_text(
    ctx: OverlayContext,
    b: MeshBuilder,
    texts: list[TexMesh],
    text: str,
    x: float,
    y: float,
    size: float,
    fg: RGBA,
    bg: RGBA,
    style: str = "bold",
) -> None:
    w = ctx.atlas.measure(text, size, style)
    cap = ctx.atlas.cap_height * size
    pad = size * 0.28
    b.rect(x - w / 2 - pad, y - cap / 2 - pad, x + w / 2 + pad, y + cap / 2 + pad, bg)
    texts.append(ctx.atlas.text(text, x, y, size, fg, style=style))


# -- highlight sets ---------------------------------------------------------------------------
@dataclass
class HighlightOverlay(Overlay):
    """Mark a set of hexes: a ring above counters (``style="ring"``) or a fill under them.

    Attributes:
        hexes: the hexes (off-map ones are ignored).
        colour: an RGBA, ``"#rrggbb"``, or an overlay colour name (``"target"``,
            ``"highlight"``, ``"reach"`` ...); default ``"highlight"``.
        style: ``"ring"`` or ``"fill"``.
        width: ring width in hex sizes.
        alpha: fill opacity 0..1 (fills only).
    """

    hexes: Iterable[Hex]
    colour: RGBA | str | None = None
    style: str = "ring"
    width: float = 0.09
    alpha: float = 0.35

    def build(self, ctx: OverlayContext) -> dict[int, Mesh | TexMesh]:
        """Rings or fills over the highlighted hexes."""
        if self.style not in ("ring", "fill"):
            raise HexwarError(f"highlight style must be 'ring' or 'fill', got {self.style!r}")
        col = _colour(ctx, self.colour, "highlight")
        s = ctx.layout.size
        b = MeshBuilder()
        for h in _check_hexes(ctx, self.hexes, "highlight"):
            cx, cy = ctx.layout.hex_to_pixel(h)
            if self.style == "ring":
                _hex_ring(b, cx, cy, s, self.width * s, col, inset=0.04)
            else:
                _hex_fill(b, cx, cy, s, with_alpha(col, self.alpha), inset=0.03)
        return {int(Layer.OVERLAY if self.style == "ring" else Layer.UNDERLAY): b.build()}


@dataclass
class ReachOverlay(Overlay):
    """Reachable hexes with a number each (movement points spent or left, R5.3).

    Attributes:
        costs: hex -> the number to print (shown as an integer when whole).
        show_numbers: print the numbers at the bottom of each hex, above counters.
        colour: fill colour (default the looks' ``reach``).
        text_size: the numbers' size in hex sizes (the play window grows it at small zooms so
            they stay readable, :func:`hexwar.ui.play_minimap.cost_text_size`; issue 36).
    """

    costs: Mapping[Hex, float]
    show_numbers: bool = True
    colour: RGBA | str | None = None
    text_size: float = 0.24

    def build(self, ctx: OverlayContext) -> dict[int, Mesh | TexMesh]:
        """Tinted reachable hexes with their movement cost in movement points."""
        col = with_alpha(_colour(ctx, self.colour, "reach"), ctx.looks.overlay_numbers["reach_alpha"])
        edge = with_alpha(_colour(ctx, self.colour, "reach"), 0.85)
        s = ctx.layout.size
        under = MeshBuilder()
        plates = MeshBuilder()
        texts: list[TexMesh] = []
        hexes = _check_hexes(ctx, self.costs.keys(), "reachable hexes")
        for h in hexes:
            cx, cy = ctx.layout.hex_to_pixel(h)
            _hex_fill(under, cx, cy, s, col, inset=0.03)
            _hex_ring(under, cx, cy, s, 0.05 * s, edge, inset=0.03)
            if self.show_numbers:
                v = float(self.costs[h])
                txt = str(int(v)) if v == int(v) else f"{v:.1f}"
                _plate_text(
                    ctx,
                    plates,
                    texts,
                    txt,
                    cx,
                    cy - (0.68 - (self.text_size - 0.24) * 0.8) * s,  # a bigger plate stays in its hex
                    self.text_size * s,
                    ctx.looks.overlay["reach_text"],
                    (246, 244, 236, 220),
                )
        return {
            int(Layer.UNDERLAY): under.build(),
            int(Layer.OVERLAY): plates.build(),
            int(Layer.OVERLAY_TEXT): TexMesh.concat(texts),
        }


# -- line of sight (R3) -----------------------------------------------------------------------
@dataclass(frozen=True)
class LosView:
    """A LOS result to draw (R3.6), as plain data.

    Attributes:
        origin: the firer's hex.
        target: the target's hex.
        result: ``"clear"``, ``"hindered"`` or ``"blocked"``.
        intervening: intervening hexes in order from the firer (R3.2).
        hindering: the hexes that hinder (R3.5).
        blocking: the hexes that block (the first one stops the line, R3.6).
        reason: text shown by the target (``"blocked by woods in D07"``).

    Raises:
        HexwarError: for an unknown result.
    """

    origin: Hex
    target: Hex
    result: str
    intervening: tuple[Hex, ...] = ()
    hindering: tuple[Hex, ...] = ()
    blocking: tuple[Hex, ...] = ()
    reason: str = ""

    def __post_init__(self) -> None:
        if self.result not in LOS_RESULTS:
            raise HexwarError(f"LOS result must be one of {LOS_RESULTS}, got {self.result!r}")
        for name in ("intervening", "hindering", "blocking"):
            object.__setattr__(self, name, tuple(getattr(self, name)))


@dataclass
class LosOverlay(Overlay):
    """Draw a :class:`LosView`: the line coloured by result, intervening hexes outlined,
    hindering hexes in amber, blocking hexes in red with a cross; beyond the first blocking
    hex the line continues dashed. The reason is printed by the target hex."""

    los: LosView

    def build(self, ctx: OverlayContext) -> dict[int, Mesh | TexMesh]:
        """The LOS line, intervening and blocking hexes and the reason label (R3.6)."""
        lv = self.los
        s = ctx.layout.size
        ov = ctx.looks.overlay
        colour = {"clear": ov["los_clear"], "hindered": ov["los_hindered"], "blocked": ov["los_blocked"]}[
            lv.result
        ]
        under = MeshBuilder()
        over = MeshBuilder()
        texts: list[TexMesh] = []
        for h in _check_hexes(ctx, lv.intervening, "LOS"):
            cx, cy = ctx.layout.hex_to_pixel(h)
            _hex_ring(over, cx, cy, s, 0.035 * s, with_alpha(ov["los_intervening"], 0.8), inset=0.06)
        for h in _check_hexes(ctx, lv.hindering, "LOS"):
            cx, cy = ctx.layout.hex_to_pixel(h)
            _hex_fill(under, cx, cy, s, with_alpha(ov["los_hindered"], 0.35), inset=0.03)
            _hex_ring(over, cx, cy, s, 0.07 * s, ov["los_hindered"], inset=0.04)
        blocks = _check_hexes(ctx, lv.blocking, "LOS")
        for h in blocks:
            cx, cy = ctx.layout.hex_to_pixel(h)
            _hex_fill(under, cx, cy, s, with_alpha(ov["los_blocked"], 0.35), inset=0.03)
            _hex_ring(over, cx, cy, s, 0.08 * s, ov["los_blocked"], inset=0.04)
        x0, y0 = ctx.layout.hex_to_pixel(lv.origin)
        x1, y1 = ctx.layout.hex_to_pixel(lv.target)
        w = 0.075 * s
        casing = (25, 25, 22, 200)
        cut = 1.0
        if lv.result == "blocked" and blocks:
            bx, by = ctx.layout.hex_to_pixel(blocks[0])
            dx, dy = x1 - x0, y1 - y0
            ln2 = dx * dx + dy * dy
            cut = max(0.0, min(1.0, ((bx - x0) * dx + (by - y0) * dy) / ln2)) if ln2 else 1.0
        xm, ym = x0 + (x1 - x0) * cut, y0 + (y1 - y0) * cut
        over.line(x0, y0, xm, ym, w * 1.8, casing, cap=True)
        over.line(x0, y0, xm, ym, w, colour, cap=True)
        if cut < 1.0:
            over.dashed(xm, ym, x1, y1, w * 0.8, with_alpha(colour, 0.8), dash=0.22 * s, gap=0.16 * s)
            for h in blocks[:1]:
                cx, cy = ctx.layout.hex_to_pixel(h)
                k = 0.22 * s
                over.line(cx - k, cy - k, cx + k, cy + k, 0.09 * s, casing, cap=True)
                over.line(cx - k, cy + k, cx + k, cy - k, 0.09 * s, casing, cap=True)
                over.line(cx - k, cy - k, cx + k, cy + k, 0.055 * s, ov["los_blocked"], cap=True)
                over.line(cx - k, cy + k, cx + k, cy - k, 0.055 * s, ov["los_blocked"], cap=True)
        over.circle(x0, y0, 0.13 * s, casing, segments=18)
        over.circle(x0, y0, 0.095 * s, colour, segments=18)
        over.ring(x1, y1, 0.13 * s, 0.2 * s, casing, segments=24)
        over.ring(x1, y1, 0.145 * s, 0.185 * s, colour, segments=24)
        if lv.reason:
            _plate_text(
                ctx,
                over,
                texts,
                lv.reason,
                x1,
                y1 + 0.95 * s,
                0.3 * s,
                ov["legend_text"],
                ov["legend_back"],
                style="condensed",
            )
        return {
            int(Layer.UNDERLAY): under.build(),
            int(Layer.OVERLAY): over.build(),
            int(Layer.OVERLAY_TEXT): TexMesh.concat(texts),
        }


# -- paths and arrows -------------------------------------------------------------------------
@dataclass
class PathOverlay(Overlay):
    """A movement path through hex centres with a dot per step (R5.3 planned move)."""

    hexes: Sequence[Hex]
    colour: RGBA | str | None = None

    def build(self, ctx: OverlayContext) -> dict[int, Mesh | TexMesh]:
        """A connected line through the path's hex centres."""
        col = _colour(ctx, self.colour, "reach")
        s = ctx.layout.size
        pts = [ctx.layout.hex_to_pixel(h) for h in self.hexes]
        b = MeshBuilder()
        if len(pts) >= 2:
            b.polyline(pts, 0.11 * s, (25, 25, 22, 160))
            b.polyline(pts, 0.06 * s, col)
        for x, y in pts[1:]:
            b.circle(x, y, 0.09 * s, col, segments=14)
        return {int(Layer.OVERLAY): b.build()}


@dataclass
class ArrowOverlay(Overlay):
    """An arrow from one hex centre to another, e.g. an artillery strike's drift (R9.3).

    Attributes:
        start, end: the hexes.
        label: optional text by the arrow's middle (``"drift 2"``).
        colour: default the looks' ``arrow``.
    """

    start: Hex
    end: Hex
    label: str = ""
    colour: RGBA | str | None = None

    def build(self, ctx: OverlayContext) -> dict[int, Mesh | TexMesh]:
        """An arrow from ``a`` to ``b`` with its label (artillery drift, declared attacks)."""
        col = _colour(ctx, self.colour, "arrow")
        s = ctx.layout.size
        x0, y0 = ctx.layout.hex_to_pixel(self.start)
        x1, y1 = ctx.layout.hex_to_pixel(self.end)
        b = MeshBuilder()
        texts: list[TexMesh] = []
        if (x0, y0) != (x1, y1):
            b.arrow(x0, y0, x1, y1, 0.16 * s, (25, 25, 22, 170), head=0.55 * s)
            b.arrow(x0, y0, x1, y1, 0.1 * s, col, head=0.48 * s)
        b.circle(x0, y0, 0.12 * s, col, segments=16)
        if self.label:  # beside the shaft, off the counters at either end
            dx, dy = x1 - x0, y1 - y0
            ln = max(1e-9, (dx * dx + dy * dy) ** 0.5)
            px, py = (-dy / ln, dx / ln) if ln > 1e-6 else (0.0, 1.0)  # left of the arrow: A>B and B>A apart
            _plate_text(
                ctx,
                b,
                texts,
                self.label,
                (x0 + x1) / 2 + px * 0.45 * s,
                (y0 + y1) / 2 + py * 0.45 * s,
                0.3 * s,
                ctx.looks.overlay["legend_text"],
                ctx.looks.overlay["legend_back"],
                style="condensed",
            )
        return {int(Layer.OVERLAY): b.build(), int(Layer.OVERLAY_TEXT): TexMesh.concat(texts)}


# -- heatmaps ---------------------------------------------------------------------------------
def ramp_colours(values: np.ndarray, stops: Sequence[RGBA], vmin: float, vmax: float) -> np.ndarray:
    """``uint8 [n, 4]`` colours of ``values`` on a piecewise-linear ramp between ``vmin`` and ``vmax``.

    Values are clamped to the range; stops are evenly spaced; alpha comes from the stops.
    When ``vmax <= vmin`` every value maps to the lowest stop.
    """
    v = np.asarray(values, dtype=np.float64).reshape(-1)
    st = np.asarray(stops, dtype=np.float64)
    span = vmax - vmin
    t = np.zeros_like(v) if span <= 0 else np.clip((v - vmin) / span, 0.0, 1.0)
    t = np.nan_to_num(t, nan=0.0)
    pos = t * (len(st) - 1)
    i = np.minimum(np.floor(pos).astype(np.int64), len(st) - 2)
    f = (pos - i)[:, None]
    out = st[i] * (1 - f) + st[i + 1] * f
    return np.clip(np.round(out), 0, 255).astype(np.uint8)


def heat_values(values: Mapping[Hex, float] | np.ndarray, bmap: BattleMap) -> np.ndarray:
    """Per-hex values as a ``float64 [height, width]`` array, NaN where there is no value.

    Args:
        values: ``dict[Hex, float]`` (off-map hexes are an error) or an array shaped
            ``[height, width]`` in ``[row, col]`` order like the map's own arrays.

    Raises:
        HexwarError: naming the hex or the shape when they do not fit the map.
    """
    if isinstance(values, Mapping):
        out = np.full((bmap.height, bmap.width), np.nan)
        for h, v in values.items():
            if not isinstance(h, Hex) or not bmap.in_bounds(h):
                raise HexwarError(
                    f"heatmap value for {h!r}: the hex is not on the {bmap.width}x{bmap.height} map"
                )
            row, col = bmap.index(h)
            out[row, col] = float(v)
        return out
    arr = np.asarray(values, dtype=np.float64)
    if arr.shape != (bmap.height, bmap.width):
        raise HexwarError(
            f"heatmap array has shape {arr.shape}; expected (height, width) = "
            f"({bmap.height}, {bmap.width}) in [row, col] order"
        )
    return arr


def _default_fmt(v: float) -> str:
    return f"{v:.3g}"


@dataclass
class HeatmapOverlay(Overlay):
    """Colour each hex by a value, with a legend (title, gradient, min and max) on the image.

    Attributes:
        values: ``dict[Hex, float]`` or ``[height, width]`` array (``[row, col]``), NaN = none.
        ramp: a ramp name from the looks (``heat``, ``fire``, ``viridis``, ``blues``,
            ``diverging``) or a sequence of RGBA stops.
        vmin, vmax: value range of the ramp; default the finite values' min and max.
        title: legend title (``"P(landing)"``).
        legend: draw the legend.
        alpha: fill opacity 0..1 (default the looks' ``heat_alpha``).
        hide_below: values below this are not drawn (e.g. 1e-9 hides zero probabilities).
        show_values: print each hex's value in it.
        fmt: formats numbers for the legend and the hexes (default 3 significant digits).
        wash: opacity 0..1 of a pale neutral wash over the hexes that get no value, so the
            map's own colours (wheat and brush are yellow-brown) are not read as values of the
            ramp; 0 (the default) draws none. The sim heatmaps use 0.6.
    """

    values: Mapping[Hex, float] | np.ndarray
    ramp: str | Sequence[RGBA] = "heat"
    vmin: float | None = None
    vmax: float | None = None
    title: str = ""
    legend: bool = True
    alpha: float | None = None
    hide_below: float | None = None
    show_values: bool = False
    fmt: Callable[[float], str] = field(default=_default_fmt)
    wash: float = 0.0

    screen_space = True

    def range(self, arr: np.ndarray) -> tuple[float, float]:
        """The ``(vmin, vmax)`` used for ``arr`` (explicit ones, else the finite data's)."""
        finite = arr[np.isfinite(arr)]
        lo = self.vmin if self.vmin is not None else (float(finite.min()) if finite.size else 0.0)
        hi = self.vmax if self.vmax is not None else (float(finite.max()) if finite.size else 1.0)
        return lo, hi

    def stops(self, looks: Looks) -> tuple[RGBA, ...]:
        """The ramp's colour stops.

        Raises:
            HexwarError: for an unknown ramp name or fewer than 2 stops.
        """
        if isinstance(self.ramp, str):
            try:
                return looks.ramp(self.ramp)
            except KeyError as exc:
                raise HexwarError(str(exc).strip("'\"")) from None
        st = tuple(tuple(int(v) for v in c) for c in self.ramp)
        if len(st) < 2:
            raise HexwarError("a colour ramp needs at least 2 stops")
        return st  # type: ignore[return-value]

    def build(self, ctx: OverlayContext) -> dict[int, Mesh | TexMesh]:
        """Per-hex colour ramp, optional values, and the legend (screen space)."""
        arr = heat_values(self.values, ctx.bmap)
        lo, hi = self.range(arr)
        stops = self.stops(ctx.looks)
        alpha = ctx.looks.overlay_numbers["heat_alpha"] if self.alpha is None else float(self.alpha)
        mask = np.isfinite(arr)
        if self.hide_below is not None:
            mask &= arr >= self.hide_below
        out: dict[int, Mesh | TexMesh] = {}
        x, y = hex_centres(ctx.bmap.width, ctx.bmap.height, ctx.layout)
        tpl = MeshBuilder()
        tpl.polygon(hex_corner_offsets(ctx.layout.size * 1.0015), (255, 255, 255, 255))
        cell = tpl.build()
        if mask.any() or self.wash > 0:
            wash_a = int(round(255 * min(1.0, max(0.0, float(self.wash)))))
            pale = np.array([236, 236, 232, wash_a], dtype=np.uint8)
            cols = ramp_colours(arr[mask], stops, lo, hi) if mask.any() else np.zeros((0, 4), np.uint8)
            cols[:, 3] = np.round(cols[:, 3].astype(np.float64) * alpha).astype(np.uint8)
            if wash_a:  # the unvalued hexes first, then the valued: one instanced mesh
                rest = ~mask
                pts = np.concatenate([np.stack([x[rest], y[rest]], 1), np.stack([x[mask], y[mask]], 1)])
                cols = np.concatenate([np.broadcast_to(pale, (int(rest.sum()), 4)), cols]).astype(np.uint8)
            else:
                pts = np.stack([x[mask], y[mask]], 1)
            out[int(Layer.UNDERLAY)] = cell.instanced(pts, colors=cols)
            if self.show_values:
                vals = arr[mask]
                texts = [self.fmt(float(v)) for v in vals]
                dark = ramp_colours(vals, stops, lo, hi).astype(np.int64)[:, :3].sum(axis=1) > 3 * 150
                tc = np.where(
                    dark[:, None], np.array([30, 28, 22, 255]), np.array([250, 248, 240, 255])
                ).astype(np.uint8)
                out[int(Layer.UNDERLAY_TEXT)] = ctx.atlas.texts(
                    texts,
                    x[mask],
                    y[mask] - 0.52 * ctx.layout.size,
                    0.28 * ctx.layout.size,
                    tc,
                    style="condensed",
                )
        if self.legend:
            body, text = self._legend(ctx, stops, lo, hi)
            out[int(Layer.HUD)] = body
            out[int(Layer.HUD_TEXT)] = text
        return out

    def _legend(
        self, ctx: OverlayContext, stops: Sequence[RGBA], lo: float, hi: float
    ) -> tuple[Mesh, TexMesh]:
        vw, vh = ctx.viewport
        ov = ctx.looks.overlay
        scale = max(0.6, min(1.4, min(vw, vh) / 600.0))
        w, h = 250.0 * scale, 74.0 * scale
        margin = 12.0 * scale
        x0, y0 = vw - w - margin, margin
        b = MeshBuilder()
        b.rect(x0 + 2 * scale, y0 - 3 * scale, x0 + w + 2 * scale, y0 + h - 3 * scale, (0, 0, 0, 60))
        b.rect(x0, y0, x0 + w, y0 + h, ov["legend_back"])
        b.frame(x0, y0, x0 + w, y0 + h, 1.2 * scale, mix(ov["legend_text"], ov["legend_back"], 0.6))
        pad = 12.0 * scale
        bx0, bx1 = x0 + pad, x0 + w - pad
        by0, by1 = y0 + 24.0 * scale, y0 + 40.0 * scale
        n = len(stops)
        for i in range(n - 1):
            xa = bx0 + (bx1 - bx0) * i / (n - 1)
            xb = bx0 + (bx1 - bx0) * (i + 1) / (n - 1)
            b.polygon(
                [(xa, by0), (xb, by0), (xb, by1), (xa, by1)],
                stops[i],
                colours=[stops[i], stops[i + 1], stops[i + 1], stops[i]],
            )
        b.frame(bx0 - 1, by0 - 1, bx1 + 1, by1 + 1, 1.0 * scale, ov["legend_text"])
        for frac in (0.0, 0.5, 1.0):
            tx = bx0 + (bx1 - bx0) * frac
            b.line(tx, by0 - 4 * scale, tx, by0, 1.2 * scale, ov["legend_text"])
        a = ctx.atlas
        fs = 12.0 * scale
        texts = [
            a.text(
                self.title or "value",
                x0 + pad,
                y0 + h - 10.0 * scale,
                14.0 * scale,
                ov["legend_text"],
                anchor_x="left",
                anchor_y="top",
                style="bold",
                max_width=w - 2 * pad,
            ),
            a.text(self.fmt(lo), bx0, y0 + 11.0 * scale, fs, ov["legend_text"], anchor_x="left"),
            a.text(self.fmt((lo + hi) / 2), (bx0 + bx1) / 2, y0 + 11.0 * scale, fs, ov["legend_text"]),
            a.text(self.fmt(hi), bx1, y0 + 11.0 * scale, fs, ov["legend_text"], anchor_x="right"),
        ]
        return b.build(), TexMesh.concat(texts)
