"""Unit counters drawn from a plain description (:class:`CounterView`), independent of the game.

A counter is a rounded square in its side's colours (R4.1 side: German field grey, Soviet
olive brown with a red band) carrying a NATO-style type symbol drawn with shapes (infantry
X, vehicle oval, gun dot and barrel, aircraft wings; crews combine the infantry X with their
speciality), the unit's name, an endurance bar (current / full endurance, R4.1, R5.6), a red
corner mark when it holds a Damage card, and crew quality pips (green 1, regular 2,
veteran 3; R4.1).

Geometry is pure numpy (templates cached per look, stamped per counter); text comes from
the glyph atlas passed in.

>>> CounterView(Hex(0, 0), "german", "infantry", "Gren").quality_pips
0
>>> CounterView(Hex(0, 0), "soviet", "vehicle", "T-34", quality="veteran").quality_pips
3
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np

from ..errors import HexwarError
from ..model.hexgrid import Hex, Layout
from ..rules.cards import SIDES
from .looks import RGBA, Looks, SideLook, shade
from .mesh import Mesh, MeshBuilder, TexMesh

__all__ = [
    "COUNTER_SIZE",
    "SIDES",
    "UNIT_TYPES",
    "CounterView",
    "build_counters",
    "counters_at",
    "stack_offsets",
]

#: R4.1 unit types; crews appear as counters only when they stand alone on the map.
UNIT_TYPES = ("infantry", "vehicle", "gun", "aircraft", "tank_crew", "artillery_crew", "pilot")
_QUALITY = {"green": -1, "regular": 0, "veteran": 1}
#: Counter side as a fraction of the hex size (centre-to-corner); a hex is 1.73 sizes tall.
COUNTER_SIZE = 1.4
#: Offset between counters of one stack, in hex sizes (up and to the right, like cardboard).
STACK_STEP = (0.1, 0.1)


@dataclass(frozen=True)
class CounterView:
    """What the renderer needs to draw one unit counter (no game objects involved).

    Attributes:
        hex: the hex the unit stands in.
        side: ``"german"`` or ``"soviet"`` (R4.1).
        unit_type: one of :data:`UNIT_TYPES` (R4.1).
        label: the short name printed on the counter (``"Pz IV"``).
        endurance: current endurance (R4.1, R6); drawn as a bar against ``endurance_max``.
        endurance_max: Full Endurance (> 0).
        damaged: the unit holds a Damage card (R4.3): a red corner mark.
        quality: crew quality: -1/0/+1 or ``"green"``/``"regular"``/``"veteran"``
            (R4.1); ``None`` for units with no crew card.
        selected: draw a selection outline.
        key: the caller's id for the unit (picking, tooltips); not drawn.

    Raises:
        HexwarError: for an unknown side, unit type or quality, or endurance out of range.
    """

    hex: Hex
    side: str
    unit_type: str
    label: str = ""
    endurance: int = 1
    endurance_max: int = 1
    damaged: bool = False
    quality: int | str | None = None
    selected: bool = False
    key: str | None = None

    def __post_init__(self) -> None:
        if self.side not in SIDES:
            raise HexwarError(f"counter {self.label!r}: side must be one of {SIDES}, got {self.side!r}")
        if self.unit_type not in UNIT_TYPES:
            raise HexwarError(
                f"counter {self.label!r}: unit type must be one of {UNIT_TYPES}, got {self.unit_type!r}"
            )
        if self.endurance_max <= 0 or not 0 <= self.endurance <= max(self.endurance_max, self.endurance):
            raise HexwarError(
                f"counter {self.label!r}: endurance {self.endurance}/{self.endurance_max}: "
                "expected 0 <= endurance and endurance_max > 0"
            )
        if self.endurance < 0:
            raise HexwarError(f"counter {self.label!r}: endurance must be >= 0, got {self.endurance}")
        q = self.quality
        if q is not None and not (
            q in _QUALITY or (isinstance(q, int) and not isinstance(q, bool) and q in (-1, 0, 1))
        ):
            raise HexwarError(
                f"counter {self.label!r}: quality must be -1, 0, 1, 'green', 'regular', 'veteran' "
                f"or None, got {q!r}"
            )

    @property
    def quality_pips(self) -> int:
        """Pips drawn for crew quality: 0 without a crew, green 1, regular 2, veteran 3."""
        if self.quality is None:
            return 0
        q = _QUALITY[self.quality] if isinstance(self.quality, str) else int(self.quality)
        return q + 2

    @property
    def endurance_fraction(self) -> float:
        """``endurance / endurance_max`` clamped to 0..1."""
        return max(0.0, min(1.0, self.endurance / self.endurance_max))


def stack_offsets(n: int, size: float) -> list[tuple[float, float]]:
    """World offsets of the ``n`` counters of one stack, bottom first, centred on the hex."""
    dx, dy = STACK_STEP
    mid = (n - 1) / 2.0
    return [((i - mid) * dx * size, (i - mid) * dy * size) for i in range(n)]


def _rounded_rect(
    b: MeshBuilder, hw: float, hh: float, rad: float, colour: RGBA, cx: float = 0.0, cy: float = 0.0
) -> None:
    pts = []
    for (sx, sy), a0 in (
        ((1, 1), 0.0),
        ((-1, 1), math.pi / 2),
        ((-1, -1), math.pi),
        ((1, -1), 1.5 * math.pi),
    ):
        ox, oy = cx + sx * (hw - rad), cy + sy * (hh - rad)
        for i in range(5):
            a = a0 + i * (math.pi / 2) / 4
            pts.append((ox + rad * math.cos(a), oy + rad * math.sin(a)))
    b.polygon(pts, colour)


# counter-local layout (unit counter: [-0.5, 0.5]^2)
_BAND = (0.33, 0.455)  # y range of the top band
_SYM = (0.0, 0.09, 0.33, 0.2)  # symbol box centre x, y, half width, half height
_LABEL_Y = -0.215
_BAR = (-0.40, -0.445, 0.40, -0.365)  # x0, y0, x1, y1


_QUAD_IDX = np.array([0, 1, 2, 0, 2, 3], dtype=np.uint32)


def _symbol(b: MeshBuilder, unit_type: str, ink: RGBA, paper: RGBA) -> None:
    cx, cy, hw, hh = _SYM
    lw = 0.035
    if unit_type in ("aircraft", "pilot"):
        # aviation: a bow-tie of two wing lobes over a fuselage
        b.rect(cx - hw, cy - hh, cx + hw, cy + hh, paper)
        b.circle(cx - 0.11, cy, 0.085, ink, segments=14, rx=0.13)
        b.circle(cx + 0.11, cy, 0.085, ink, segments=14, rx=0.13)
        b.circle(cx - 0.11, cy, 0.045, paper, segments=12, rx=0.08)
        b.circle(cx + 0.11, cy, 0.045, paper, segments=12, rx=0.08)
        b.frame(cx - hw, cy - hh, cx + hw, cy + hh, lw, ink)
        if unit_type == "pilot":
            b.line(cx - hw, cy - hh, cx + hw, cy + hh, 0.025, ink)
        return
    b.rect(cx - hw, cy - hh, cx + hw, cy + hh, paper)
    if unit_type in ("infantry", "tank_crew", "artillery_crew"):
        b.line(cx - hw, cy - hh, cx + hw, cy + hh, 0.03, ink)
        b.line(cx - hw, cy + hh, cx + hw, cy - hh, 0.03, ink)
    if unit_type in ("vehicle", "tank_crew"):
        r_out = 0.12 if unit_type == "vehicle" else 0.075
        b.ring(cx, cy, r_out - 0.032, r_out, ink, segments=24, rx_scale=1.9)
    if unit_type in ("gun", "artillery_crew"):
        r = 0.055 if unit_type == "gun" else 0.04
        b.circle(cx, cy - 0.03, r, ink, segments=14)
        if unit_type == "gun":
            b.line(cx, cy - 0.03, cx, cy + hh - 0.02, 0.03, ink)
            b.line(cx - 0.1, cy - 0.11, cx + 0.1, cy - 0.11, 0.03, ink)
    b.frame(cx - hw, cy - hh, cx + hw, cy + hh, lw, ink)


@lru_cache(maxsize=256)
def _counter_template(
    side: SideLook,
    unit_type: str,
    pips: int,
    damaged: bool,
    selected: bool,
    counter_colours: tuple[tuple[str, RGBA], ...],
) -> Mesh:
    cc = dict(counter_colours)
    b = MeshBuilder()
    if selected:
        _rounded_rect(b, 0.6, 0.6, 0.12, cc["selected"])
    _rounded_rect(b, 0.5, 0.5, 0.08, cc["shadow"], cx=0.05, cy=-0.06)
    _rounded_rect(b, 0.5, 0.5, 0.08, side.edge)
    _rounded_rect(b, 0.465, 0.465, 0.06, side.fill)
    # top band (Soviet red; German darker grey)
    b.rect(-0.465, _BAND[0], 0.465, _BAND[1] - 0.02, side.band)
    _rounded_rect(b, 0.465, 0.065, 0.05, side.band, cx=0.0, cy=_BAND[1] - 0.065)
    # a soft highlight along the upper-left edge, as on printed counters
    b.rect(-0.465, _BAND[0] - 0.025, 0.465, _BAND[0], shade(side.fill, 1.1))
    _symbol(b, unit_type, side.symbol, side.symbol_fill)
    for i in range(pips):
        px = -0.37 + i * 0.115
        py = (_BAND[0] + _BAND[1]) / 2
        b.circle(px, py, 0.047, cc["pip_edge"], segments=12)
        b.circle(px, py, 0.033, cc["pip"], segments=12)
    if damaged:
        b.polygon([(0.465, 0.465), (0.465, 0.2), (0.2, 0.465)], cc["damage"])
        b.line(0.31, 0.435, 0.435, 0.31, 0.03, (255, 255, 255, 235))
    b.rect(_BAR[0] - 0.012, _BAR[1] - 0.012, _BAR[2] + 0.012, _BAR[3] + 0.012, cc["endurance_back"])
    return b.build()


@lru_cache(maxsize=64)
def _simple_template(
    side: SideLook, damaged: bool, selected: bool, counter_colours: tuple[tuple[str, RGBA], ...]
) -> Mesh:
    """A few-triangle counter for far-out views (symbols and names would be sub-pixel)."""
    cc = dict(counter_colours)
    b = MeshBuilder()
    if selected:
        b.rect(-0.62, -0.62, 0.62, 0.62, cc["selected"])
    b.rect(-0.5, -0.5, 0.5, 0.5, side.edge)
    b.rect(-0.44, -0.44, 0.44, 0.44, side.fill)
    b.rect(-0.44, _BAND[0], 0.44, 0.44, side.band)
    cx, cy, hw, hh = _SYM
    b.rect(cx - hw, cy - hh, cx + hw, cy + hh, side.symbol_fill)
    if damaged:
        b.polygon([(0.44, 0.44), (0.44, 0.1), (0.1, 0.44)], cc["damage"])
    return b.build()


def _bar_colour(frac: float, cc: dict[str, RGBA]) -> RGBA:
    if frac > 0.66:
        return cc["endurance_full"]
    if frac > 0.33:
        return cc["endurance_mid"]
    return cc["endurance_low"]


def build_counters(
    counters: Iterable[CounterView],
    looks: Looks,
    layout: Layout,
    atlas: Any,
    max_levels: int = 12,
    simple: bool = False,
    owner_of: Callable[[Hex], int | None] | None = None,
) -> list[tuple[Mesh, TexMesh]]:
    """Meshes of all unit counters, one ``(body, text)`` pair per stack position.

    Args:
        counters: the counters; those sharing a hex stack in the given order (bottom first).
        looks: colours.
        layout: the world layout (counter size follows ``layout.size``).
        atlas: a glyph atlas for the names.
        max_levels: stack positions with their own pair; deeper counters join the last.
        simple: draw plain coloured squares (for far-out views; no symbol, bar or name).
        owner_of: maps a hex to its map index (``row * width + col``) so the meshes can be
            culled by tile; ``None`` (or a hex mapping to ``None``) leaves them unculled.

    Returns:
        ``levels[k] = (body mesh, text mesh)`` for stack position ``k``: drawing position
        ``k``'s body then text before position ``k + 1`` keeps names under the counters
        stacked on them.

    Raises:
        HexwarError: naming the counter's side if its looks are missing.
    """
    s = layout.size
    side_px = COUNTER_SIZE * s
    stacks: dict[Hex, list[CounterView]] = {}
    for c in counters:
        stacks.setdefault(c.hex, []).append(c)
    cc = looks.counter
    cc_items = tuple(sorted(cc.items()))
    bodies: list[list[Mesh]] = [[] for _ in range(max_levels)]
    texts: list[list[tuple[str, float, float, RGBA, int]]] = [[] for _ in range(max_levels)]
    cullable = owner_of is not None
    for h, stack in stacks.items():
        hx, hy = layout.hex_to_pixel(h)
        own = owner_of(h) if owner_of is not None else None
        if own is None:
            cullable = False
        for k, ((ox, oy), c) in enumerate(zip(stack_offsets(len(stack), s), stack, strict=True)):
            lvl = min(k, max_levels - 1)
            try:
                side = looks.side(c.side)
            except KeyError as exc:
                raise HexwarError(str(exc)) from None
            if simple:
                tpl = _simple_template(side, bool(c.damaged), bool(c.selected), cc_items)
            else:
                tpl = _counter_template(
                    side, c.unit_type, c.quality_pips, bool(c.damaged), bool(c.selected), cc_items
                )
            cx, cy = hx + ox, hy + oy
            pos = tpl.positions.astype(np.float64) * side_px + (cx, cy)
            parts = [Mesh(pos.astype(np.float32), tpl.colors, tpl.indices)]
            frac = c.endurance_fraction
            if frac > 0 and not simple:
                x0, y0, x1, y1 = _BAR
                bx0, by0 = cx + x0 * side_px, cy + y0 * side_px
                bx1, by1 = cx + (x0 + (x1 - x0) * frac) * side_px, cy + y1 * side_px
                parts.append(
                    Mesh(
                        np.array([[bx0, by0], [bx1, by0], [bx1, by1], [bx0, by1]], dtype=np.float32),
                        np.tile(np.asarray(_bar_colour(frac, cc), dtype=np.uint8), (4, 1)),
                        _QUAD_IDX,
                    )
                )
            if own is not None:
                for p_ in parts:
                    p_.owner = np.full(p_.vertex_count, own, dtype=np.int64)
            bodies[lvl].extend(parts)
            if c.label and not simple:
                texts[lvl].append(
                    (c.label, cx, cy + _LABEL_Y * side_px, side.text, -1 if own is None else own)
                )
    out = []
    for k in range(max_levels):
        if bodies[k] or texts[k]:
            body = Mesh.concat(bodies[k])
            tl = texts[k]
            text = (
                atlas.texts(
                    [t[0] for t in tl],
                    np.array([t[1] for t in tl]),
                    np.array([t[2] for t in tl]),
                    0.2 * side_px,
                    np.array([t[3] for t in tl], dtype=np.uint8).reshape(-1, 4),
                    style="condensed",
                    owners=np.array([t[4] for t in tl], dtype=np.int64),
                    max_width=0.88 * side_px,
                )
                if tl
                else TexMesh.empty()
            )
            if not cullable:
                body.owner = None
                text.owner = None
            out.append((body, text))
        else:
            out.append((Mesh.empty(), TexMesh.empty()))
    while out and not out[-1][0].vertex_count and not out[-1][1].vertex_count:
        out.pop()
    return out


def counters_at(counters: Sequence[CounterView], h: Hex) -> list[CounterView]:
    """The counters standing in hex ``h``, bottom first (for picking and tooltips)."""
    return [c for c in counters if c.hex == h]
