"""How the map looks: colours and drawing styles from ``assets/terrain_looks.toml``.

The rules never read this file (DESIGN: behaviour in ``hexwar/data``, looks in ``assets/``).
This module is pure Python (no pyglet), so the editor palette and tests can use it freely.

Colours are RGBA tuples of 0-255 ints.

>>> parse_colour("#c5c79b")
(197, 199, 155, 255)
>>> parse_colour("#00000080")
(0, 0, 0, 128)
>>> mix((0, 0, 0, 255), (200, 100, 50, 255), 0.5)
(100, 50, 25, 255)
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from ..errors import Problem, ValidationError
from ..fileio import read_toml
from ..model.terrain import RulesTerrain, default_terrain

__all__ = [
    "PALETTES",
    "palette_looks",
    "PATTERNS",
    "BUILDING_STYLES",
    "RGBA",
    "Looks",
    "TerrainLook",
    "SideLook",
    "default_looks",
    "load_looks",
    "looks_path",
    "mix",
    "parse_colour",
    "shade",
]

RGBA = tuple[int, int, int, int]
PATTERNS = ("none", "trees", "scrub", "orchard", "wheat", "marsh", "water", "building")
BUILDING_STYLES = ("wood", "stone", "reinforced")
_HEX_RE = re.compile(r"^#([0-9a-fA-F]{6})([0-9a-fA-F]{2})?$")


def parse_colour(text: str) -> RGBA:
    """Parse ``"#rrggbb"`` or ``"#rrggbbaa"`` into an RGBA tuple of 0-255 ints.

    Raises:
        ValueError: naming the text when it is not in that form.
    """
    if not isinstance(text, str):
        raise ValueError(f"expected a colour like '#c5c79b', got {text!r}")
    m = _HEX_RE.match(text.strip())
    if not m:
        raise ValueError(f"expected a colour like '#c5c79b' or '#c5c79b80', got {text!r}")
    v = m.group(1)
    a = int(m.group(2), 16) if m.group(2) else 255
    return (int(v[0:2], 16), int(v[2:4], 16), int(v[4:6], 16), a)


def mix(a: RGBA, b: RGBA, t: float) -> RGBA:
    """Linear blend ``a*(1-t) + b*t`` per channel (alpha included), rounded."""
    return tuple(int(round(x * (1.0 - t) + y * t)) for x, y in zip(a, b, strict=True))  # type: ignore[return-value]


def shade(c: RGBA, factor: float) -> RGBA:
    """Multiply the RGB channels by ``factor`` (clamped to 0-255); alpha unchanged."""
    return (*(min(255, max(0, int(round(x * factor)))) for x in c[:3]), c[3])  # type: ignore[return-value]


def with_alpha(c: RGBA, alpha: float) -> RGBA:
    """``c`` with its alpha replaced by ``alpha`` (0..1)."""
    return (c[0], c[1], c[2], int(round(255 * max(0.0, min(1.0, alpha)))))


@dataclass(frozen=True, slots=True)
class TerrainLook:
    """How one terrain type is drawn.

    Attributes:
        key: the terrain key of the rules table (``"woods"``).
        fill: ground colour at level 0 (what the hex centre shows for non-buildings).
        detail: colour of the pattern drawn over the fill.
        pattern: one of :data:`PATTERNS`.
        road: the terrain type is itself a road (drawn with the road style).
        roof: roof colour of a building (what its hex centre shows), else ``None``.
        outline: building outline colour, else ``None``.
        style: building style (:data:`BUILDING_STYLES`), else ``None``.
    """

    key: str
    fill: RGBA
    detail: RGBA
    pattern: str
    road: bool = False
    roof: RGBA | None = None
    outline: RGBA | None = None
    style: str | None = None


@dataclass(frozen=True, slots=True)
class SideLook:
    """Counter colours of one side (``german``, ``soviet``)."""

    fill: RGBA
    edge: RGBA
    band: RGBA
    symbol: RGBA
    symbol_fill: RGBA
    text: RGBA


@dataclass(frozen=True)
class Looks:
    """Every colour and size the renderer uses, loaded from ``terrain_looks.toml``.

    Attributes:
        terrain: looks by terrain key.
        map: ``background``, ``grid``, ``label``, ``edge`` colours.
        grid_width, label_height: in hex sizes (centre-to-corner radius).
        corner_shade: corner brightness factor of the soft relief (centre = 1.0).
        level_tint, level_step, level_max_blend: ground-level shading (see
            :meth:`ground_colour`).
        contour, contour_width: contour lines between levels (colour, hex sizes).
        road, road_edge, road_width, road_edge_width: road drawing (colours, hex sizes).
        bridge_parapet, bridge_width, bridge_parapet_width: bridges (a road hex across
            water, R2.4 bridge convention): parapet colour, deck width and the width of
            each parapet line (hex sizes).
        features: colours of rubble, fire, wreck and artillery marker drawings.
        sides: counter colours by side.
        counter: endurance bar, damage, pip and selection colours.
        overlay: overlay colours (reach, target, LOS, arrow, legend) and alphas.
        ramps: heatmap colour ramps by name (evenly spaced stops).
        source: the file the looks came from.
    """

    terrain: dict[str, TerrainLook]
    map: dict[str, RGBA]
    grid_width: float
    label_height: float
    corner_shade: float
    level_tint: RGBA
    level_step: float
    level_max_blend: float
    contour: RGBA
    contour_width: float
    road: RGBA
    road_edge: RGBA
    road_width: float
    road_edge_width: float
    bridge_parapet: RGBA
    bridge_width: float
    bridge_parapet_width: float
    features: dict[str, RGBA]
    sides: dict[str, SideLook]
    counter: dict[str, RGBA]
    overlay: dict[str, RGBA]
    overlay_numbers: dict[str, float]
    ramps: dict[str, tuple[RGBA, ...]]
    source: str = field(default="<memory>", compare=False)

    def terrain_look(self, key: str) -> TerrainLook:
        """The look of terrain ``key``.

        Raises:
            KeyError: naming the key and the looks file when it has no entry.
        """
        try:
            return self.terrain[key]
        except KeyError:
            raise KeyError(f"{self.source}: no [terrain.{key}] look; expected one per terrain type") from None

    def level_blend(self, level: int) -> float:
        """How far ground at ``level`` is blended toward the level tint (0 at level 0)."""
        return min(self.level_max_blend, self.level_step * max(0, int(level)))

    def ground_colour(self, key: str, level: int = 0) -> RGBA:
        """Ground colour of terrain ``key`` at ground ``level`` (levels, R2.4).

        Level 0 is the terrain's fill; each level blends ``level_step`` further toward the
        level tint, up to ``level_max_blend``: higher ground reads lighter and warmer.
        """
        return mix(self.terrain_look(key).fill, self.level_tint, self.level_blend(level))

    def centre_colour(self, key: str, level: int = 0, road: bool = False, rubble: bool = False) -> RGBA:
        """The colour drawn at the exact centre of a hex with no counters on it.

        Intact buildings show their roof, rubble its debris colour, roads (a road terrain or
        the hex's road flag, R2.4) the road colour, anything else its ground colour.
        """
        look = self.terrain_look(key)
        if look.pattern == "building":
            if rubble:
                return self.features["rubble"]
            assert look.roof is not None
            return look.roof
        if road or look.road:
            return self.road
        return self.ground_colour(key, level)

    def side(self, side: str) -> SideLook:
        """Counter colours of ``side``.

        Raises:
            KeyError: naming the side and the looks file.
        """
        try:
            return self.sides[side]
        except KeyError:
            raise KeyError(
                f"{self.source}: no [side.{side}] look; expected one of {sorted(self.sides)}"
            ) from None

    def ramp(self, name: str) -> tuple[RGBA, ...]:
        """Heatmap ramp stops named ``name``.

        Raises:
            KeyError: naming the ramp and the ones available.
        """
        try:
            return self.ramps[name]
        except KeyError:
            raise KeyError(f"unknown colour ramp {name!r}; expected one of {sorted(self.ramps)}") from None


def looks_path() -> Path:
    """The shipped ``assets/terrain_looks.toml``.

    Raises:
        FileNotFoundError: when hexwar's assets folder is not installed.
    """
    from ..paths import content_dir

    return content_dir("assets") / "terrain_looks.toml"


def load_looks(path: str | os.PathLike[str] | None = None, rules: RulesTerrain | None = None) -> Looks:
    """Load and validate a looks file, checking every terrain type has a look.

    Args:
        path: the TOML file; default the shipped ``assets/terrain_looks.toml``.
        rules: the terrain table whose keys need looks; default the package's.

    Raises:
        ValidationError: listing every problem (file, field, what was expected).
    """
    p = Path(path) if path is not None else looks_path()
    data = read_toml(p)
    return looks_from_dict(data, str(p), rules or default_terrain())


class _LooksReader:
    """Reads the tables of a looks file, collecting every problem (with the file and the
    dotted field) instead of stopping at the first; a bad value reads as a visible default
    (magenta, the range's low end) so reading goes on."""

    MAGENTA: RGBA = (255, 0, 255, 255)

    def __init__(self, data: dict[str, Any], src: str) -> None:
        self.data = data
        self.src = src
        self.problems: list[Problem] = []

    def table(self, name: str) -> dict[str, Any]:
        """The top-level table ``name`` (``{}`` and a problem when it is missing)."""
        t = self.data.get(name)
        if not isinstance(t, dict):
            self.problems.append(Problem(self.src, name, "missing table"))
            return {}
        return t

    def colour(self, t: dict[str, Any], where: str, key: str, default: str | None = None) -> RGBA:
        """``t[key]`` as a colour (``default`` when absent, if given)."""
        v = t.get(key, default)
        if v is None:
            self.problems.append(
                Problem(self.src, f"{where}.{key}", "missing; expected a colour like '#c5c79b'")
            )
            return self.MAGENTA
        try:
            return parse_colour(v)
        except ValueError as exc:
            self.problems.append(Problem(self.src, f"{where}.{key}", str(exc)))
            return self.MAGENTA

    def colours(self, t: dict[str, Any], where: str, keys: tuple[str, ...]) -> dict[str, RGBA]:
        """Every key of ``keys`` in ``t`` as a colour, in order."""
        return {k: self.colour(t, where, k) for k in keys}

    def number(self, t: dict[str, Any], where: str, key: str, lo: float, hi: float) -> float:
        """``t[key]`` as a number within ``lo..hi``."""
        v = t.get(key)
        if isinstance(v, bool) or not isinstance(v, (int, float)) or not lo <= v <= hi:
            self.problems.append(
                Problem(self.src, f"{where}.{key}", f"expected a number {lo}..{hi}, got {v!r}")
            )
            return lo
        return float(v)


_FEATURE_KEYS = (
    "rubble",
    "rubble_dark",
    "fire",
    "fire_core",
    "smoke",
    "wreck",
    "wreck_edge",
    "wreck_text",
    "wreck_red",
    "artillery",
    "artillery_fill",
)
_COUNTER_KEYS = (
    "endurance_full",
    "endurance_mid",
    "endurance_low",
    "endurance_back",
    "damage",
    "pip",
    "pip_edge",
    "selected",
    "shadow",
)
_OVERLAY_KEYS = (
    "reach",
    "reach_text",
    "target",
    "highlight",
    "los_clear",
    "los_hindered",
    "los_blocked",
    "los_intervening",
    "arrow",
    "legend_back",
    "legend_text",
)
#: overlay states added for issue 17 (older looks files without them get these defaults)
_OVERLAY_DEFAULTS = (
    ("cursor", "#00c8ff"),
    ("pending", "#7a1fa0"),
    ("deploy_german", "#0072b2"),
    ("deploy_soviet", "#cc79a7"),
    ("art_ok", "#009e73"),
    ("art_bad", "#c8102e"),
)


def _terrain_look(r: _LooksReader, t: Any, e: dict[str, Any]) -> TerrainLook:
    """The look of terrain type ``t`` (a rules terrain type) from its table ``e``."""
    src, where = r.src, f"terrain.{t.key}"
    pattern = e.get("pattern", "none")
    if pattern not in PATTERNS:
        r.problems.append(Problem(src, f"{where}.pattern", f"expected one of {PATTERNS}, got {pattern!r}"))
        pattern = "none"
    road_flag = e.get("road", False)
    if not isinstance(road_flag, bool):
        r.problems.append(Problem(src, f"{where}.road", "expected true or false"))
        road_flag = False
    roof = outline = style = None
    if pattern == "building" or t.is_building:
        if pattern != "building":
            r.problems.append(
                Problem(
                    src,
                    f"{where}.pattern",
                    f'{t.key} is a building (DR {t.dr}); expected pattern = "building"',
                )
            )
        roof = r.colour(e, where, "roof")
        outline = r.colour(e, where, "outline")
        style = e.get("style")
        if style not in BUILDING_STYLES:
            r.problems.append(
                Problem(src, f"{where}.style", f"expected one of {BUILDING_STYLES}, got {style!r}")
            )
            style = "wood"
    fill, detail = r.colour(e, where, "fill"), r.colour(e, where, "detail")
    return TerrainLook(t.key, fill, detail, pattern, road_flag, roof, outline, style)


def _terrain_looks(r: _LooksReader, rules: RulesTerrain) -> dict[str, TerrainLook]:
    """``[terrain.KEY]``: one look per terrain type of the rules table, and no other."""
    terrain: dict[str, TerrainLook] = {}
    tt = r.table("terrain")
    for t in rules.types:
        e = tt.get(t.key)
        if not isinstance(e, dict):
            r.problems.append(
                Problem(r.src, f"terrain.{t.key}", f"missing look for terrain type {t.key!r} ({t.name})")
            )
            continue
        terrain[t.key] = _terrain_look(r, t, e)
    for key in tt:
        if key not in {t.key for t in rules.types}:
            r.problems.append(Problem(r.src, f"terrain.{key}", "no such terrain type in the rules table"))
    return terrain


def _side_looks(r: _LooksReader) -> dict[str, SideLook]:
    """``[side.german]`` and ``[side.soviet]``: the counters' colours of each side."""
    sides: dict[str, SideLook] = {}
    st = r.table("side")
    for name in ("german", "soviet"):
        e = st.get(name)
        if not isinstance(e, dict):
            r.problems.append(Problem(r.src, f"side.{name}", "missing side look"))
            continue
        w = f"side.{name}"
        sides[name] = SideLook(
            *(r.colour(e, w, k) for k in ("fill", "edge", "band", "symbol", "symbol_fill", "text"))
        )
    return sides


def _ramps(r: _LooksReader) -> dict[str, tuple[RGBA, ...]]:
    """``[ramps]``: each heatmap ramp as at least two colours."""
    ramps: dict[str, tuple[RGBA, ...]] = {}
    for name, stops in r.table("ramps").items():
        if not isinstance(stops, list) or len(stops) < 2:
            r.problems.append(Problem(r.src, f"ramps.{name}", "expected a list of at least 2 colours"))
            continue
        out = []
        for i, s in enumerate(stops):
            try:
                out.append(parse_colour(s))
            except ValueError as exc:
                r.problems.append(Problem(r.src, f"ramps.{name}[{i}]", str(exc)))
        ramps[name] = tuple(out)
    return ramps


def looks_from_dict(data: dict[str, Any], src: str, rules: RulesTerrain) -> Looks:
    """Build :class:`Looks` from parsed TOML, collecting every problem.

    Args:
        data: the parsed looks file; src: its name for messages; rules: the terrain table
            (every terrain type needs a look, and buildings a roof, outline and style).

    Raises:
        ValidationError: listing every problem found (file, dotted field, what was expected).
    """
    r = _LooksReader(data, src)
    if data.get("schema_version") != 1:
        r.problems.append(Problem(src, "schema_version", f"expected 1, got {data.get('schema_version')!r}"))

    mp = r.table("map")
    map_colours = r.colours(mp, "map", ("background", "grid", "label", "edge"))
    grid_width = r.number(mp, "map", "grid_width", 0.0, 0.5)
    label_height = r.number(mp, "map", "label_height", 0.05, 0.6)
    corner_shade = r.number(mp, "map", "corner_shade", 0.5, 1.5)

    lv = r.table("levels")
    level_tint = r.colour(lv, "levels", "tint")
    level_step = r.number(lv, "levels", "step", 0.0, 1.0)
    level_max = r.number(lv, "levels", "max_blend", 0.0, 1.0)
    contour = r.colour(lv, "levels", "contour")
    contour_width = r.number(lv, "levels", "contour_width", 0.0, 0.5)

    rd = r.table("road")
    road = r.colour(rd, "road", "color")
    road_edge = r.colour(rd, "road", "edge")
    road_width = r.number(rd, "road", "width", 0.01, 1.0)
    road_edge_width = r.number(rd, "road", "edge_width", 0.0, 0.5)
    bridge_parapet = r.colour(rd, "road", "bridge_parapet")
    bridge_width = r.number(rd, "road", "bridge_width", 0.01, 1.0)
    bridge_parapet_width = r.number(rd, "road", "bridge_parapet_width", 0.0, 0.5)

    terrain = _terrain_looks(r, rules)
    features = r.colours(r.table("features"), "features", _FEATURE_KEYS)
    sides = _side_looks(r)
    counter = r.colours(r.table("counter"), "counter", _COUNTER_KEYS)
    ot = r.table("overlay")
    overlay = r.colours(ot, "overlay", _OVERLAY_KEYS)
    for k, default in _OVERLAY_DEFAULTS:
        overlay[k] = r.colour(ot, "overlay", k, default)
    overlay_numbers = {k: r.number(ot, "overlay", k, 0.0, 1.0) for k in ("reach_alpha", "heat_alpha")}
    ramps = _ramps(r)

    if r.problems:
        raise ValidationError(r.problems)
    return Looks(
        terrain,
        map_colours,
        grid_width,
        label_height,
        corner_shade,
        level_tint,
        level_step,
        level_max,
        contour,
        contour_width,
        road,
        road_edge,
        road_width,
        road_edge_width,
        bridge_parapet,
        bridge_width,
        bridge_parapet_width,
        features,
        sides,
        counter,
        overlay,
        overlay_numbers,
        ramps,
        src,
    )


#: The palettes of ``hexwar play --palette``: ``standard`` is the shipped looks file (its
#: state colours stay apart under simulated deuteranopia, protanopia and tritanopia);
#: ``high-contrast`` overrides parts of it from ``assets/palettes/high-contrast.toml``.
PALETTES = ("standard", "high-contrast")


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for k, v in over.items():
        out[k] = _merge(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


@cache
def palette_looks(name: str = "standard") -> Looks:
    """The shipped looks in palette ``name`` (:data:`PALETTES`), loaded once.

    Raises:
        HexwarError: for an unknown palette name.
        ValidationError: when a palette file is malformed (file and field named).
    """
    if name == "standard":
        return default_looks()
    if name not in PALETTES:
        from ..errors import HexwarError

        raise HexwarError(f"--palette {name!r}: expected one of {', '.join(PALETTES)}")
    base = read_toml(looks_path())
    p = looks_path().parent / "palettes" / f"{name}.toml"
    return looks_from_dict(_merge(base, read_toml(p)), str(p), default_terrain())


@cache
def default_looks() -> Looks:
    """The shipped looks for the package's terrain table, loaded once."""
    return load_looks()
