"""The battle map: terrain, ground levels, buildings and dynamic overlays (R2.4), and its files.

A :class:`BattleMap` keeps numpy arrays indexed ``[row, col]`` in odd-q offset coordinates
(R2.2), so whole-map rules (LOS, fire spread, rendering) can work on arrays while the rest of
the program speaks in :class:`~hexwar.model.hexgrid.Hex` values.

Map file format (JSON, ``"format": "hexwar-map"``, ``schema_version`` 2; the JSON Schema is
``hexwar schema map``)::

    {
      "format": "hexwar-map", "schema_version": 2,
      "name": "Kharkov, March 1943", "description": "...",
      "width": 30, "height": 20,
      "terrain": ["..hhs=..", ...],      # one string per row, one terrain code per hex
      "levels":  ["00001111", ...],      # optional, one digit (ground level 0-9) per hex
      "features": {"D07": {"road": true, "wrecks": ["su-1"], "rubble": false,
                           "fire": true, "fire_turns": 0}},
      "deploy": {"german": ["A01:C20"], "soviet": ["AB01:AD20"]},   # optional markers (v2)
      "objectives": [{"hex": "P11", "name": "Church", "points": 10}]  # optional markers (v2)
    }

The file's typed models (one per version) and the 1 -> 2 step are in
:mod:`hexwar.model.map_file`; version 1 files (no markers) are read through it; a map without
markers is written as version 1, so files and scenario hashes from older hexwar stay the same.

Terrain codes come from the terrain table (``hexwar/data/terrain.toml``). Loading checks the
typed model first (:class:`~hexwar.model.map_file.MapFile`), then the meaning (codes, labels on the board, buildings), and collects
every problem (file, field or hex label, what was expected) and raises one
:class:`~hexwar.errors.ValidationError`; nothing in the file is executed; saving is atomic.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import Problem, ValidationError
from ..fileio import LIMITS, atomic_write_text, dump_json, loads_json, read_text
from . import compiled_docs
from .documents import merge_problems, upgrade_document
from .hexgrid import Hex, HexLabelError
from .map_format import MAP_FORMAT, MAP_MIGRATIONS, MAP_SCHEMA_VERSION, rects_zone, zone_hexes
from .map_reader import MapReader, read_model
from .terrain import RulesTerrain, TerrainType, default_terrain, impassable_to_all

_impassable_to_all = impassable_to_all  # the old private name (tests/legacy_map_loader.py)

__all__ = [
    "MAP_FORMAT",
    "MAP_SCHEMA_VERSION",
    "MAX_MAP_SIDE",
    "BattleMap",
    "MapError",
    "MapObjective",
    "zone_specs",
    "zone_hexes",
]

MARKER_SIDES = ("german", "soviet")
MAX_MAP_SIDE = 500  # hexes; a larger side is rejected as absurd
MAX_MAP_BYTES = LIMITS["hexwar-map"][0]  # the one set of limits (hexwar.fileio.LIMITS)
_FEATURE_KEYS = {"road", "wrecks", "rubble", "fire", "fire_turns"}


class MapError(ValueError):
    """An operation on a map named a hex off the board or an impossible change.

    The message names the hex (label when it has one) and what was expected.
    """


def _label_or_axial(h: Hex, row_digits: int) -> str:
    try:
        return h.to_label(row_digits)
    except HexLabelError:
        return f"axial ({h.q}, {h.r})"


@dataclass(frozen=True)
class MapObjective:
    """An objective marker on a map (R10.2): a scenario on the map may use it.

    Attributes:
        hex: the hex.
        name: display name.
        points: victory points it is worth to its holder.
    """

    hex: Hex
    name: str = ""
    points: int = 0


def zone_specs(hexes: Iterator[Hex] | list[Hex] | tuple[Hex, ...], row_digits: int = 2) -> list[str]:
    """The fewest-effort spelling of a set of hexes as labels and rectangles, column-major.

    Runs of rows in one column become ``"A01:A05"``; neighbouring columns with the same run
    merge into one rectangle. :func:`zone_hexes` of the result gives the same set back.

    >>> zone_specs([Hex.from_label(x) for x in ("A01", "A02", "B01", "B02", "D05")])
    ['A01:B02', 'D05']
    """
    cols: dict[int, list[int]] = {}
    for h in set(hexes):
        c, r = h.offset
        cols.setdefault(c, []).append(r)
    runs: list[tuple[int, int, int]] = []  # (col, r0, r1)
    for c in sorted(cols):
        rows = sorted(cols[c])
        start = prev = rows[0]
        for r in rows[1:]:
            if r == prev + 1:
                prev = r
                continue
            runs.append((c, start, prev))
            start = prev = r
        runs.append((c, start, prev))
    rects: list[list[int]] = []  # [c0, c1, r0, r1]
    for c, r0, r1 in runs:
        for rc in rects:
            if rc[1] == c - 1 and rc[2] == r0 and rc[3] == r1:
                rc[1] = c
                break
        else:
            rects.append([c, c, r0, r1])
    out = []
    for c0, c1, r0, r1 in sorted(rects):
        a = Hex.from_offset(c0, r0).to_label(row_digits)
        b = Hex.from_offset(c1, r1).to_label(row_digits)
        out.append(a if a == b else f"{a}:{b}")
    return out


@dataclass(eq=False)
class BattleMap:
    """A hex battle map (R2.4) of ``width`` columns by ``height`` rows, odd-q layout.

    Attributes:
        width: number of columns (hexes).
        height: number of rows (hexes).
        name: display name.
        description: free text shown to players (never interpreted).
        rules: the terrain table and wreck pools the codes refer to.
        terrain: ``uint8 [height, width]`` index into ``rules.types``.
        level: ``int16 [height, width]`` ground level (levels, R3.4).
        road: ``bool [height, width]`` a road runs through the hex (R2.4).
        rubble: ``bool [height, width]`` the building was reduced to rubble (R8.3).
        fire: ``bool [height, width]`` a building fire burns (R8.4).
        fire_turns: ``int16 [height, width]`` full turns a fire has burned (R8.6 ``burnout``).
        wrecks: wreck counter ids stacked per hex, bottom first (R8.1).
        artillery_marker: the hex of the artillery marker, if placed (R9.2).
        deploy: deploy-zone markers by side (``"german"``, ``"soviet"``): hexes a scenario on
            this map may use as the side's deploy zone (R5.2). Empty on most maps.
        objectives: objective markers (R10.2).
        version: increases on every change, so caches (LOS heights) can tell they are stale.

    Change the map through its methods (``set_terrain``, ``add_wreck``, ``set_fire`` ...),
    which check the hex and bump ``version``.
    """

    width: int
    height: int
    name: str = "Untitled"
    description: str = ""
    rules: RulesTerrain = field(default_factory=default_terrain, repr=False)
    terrain: np.ndarray = field(init=False, repr=False)
    level: np.ndarray = field(init=False, repr=False)
    road: np.ndarray = field(init=False, repr=False)
    rubble: np.ndarray = field(init=False, repr=False)
    fire: np.ndarray = field(init=False, repr=False)
    fire_turns: np.ndarray = field(init=False, repr=False)
    wrecks: dict[Hex, list[str]] = field(default_factory=dict, repr=False)
    artillery_marker: Hex | None = None
    deploy: dict[str, tuple[Hex, ...]] = field(default_factory=dict, repr=False)
    objectives: tuple[MapObjective, ...] = field(default=(), repr=False)
    version: int = 0

    def __post_init__(self) -> None:
        if not (1 <= self.width <= MAX_MAP_SIDE and 1 <= self.height <= MAX_MAP_SIDE):
            raise MapError(f"map size {self.width}x{self.height}: each side must be 1..{MAX_MAP_SIDE} hexes")
        shape = (self.height, self.width)
        self.terrain = np.zeros(shape, dtype=np.uint8)
        self.level = np.zeros(shape, dtype=np.int16)
        self.road = np.zeros(shape, dtype=bool)
        self.rubble = np.zeros(shape, dtype=bool)
        self.fire = np.zeros(shape, dtype=bool)
        self.fire_turns = np.zeros(shape, dtype=np.int16)

    # -- construction ------------------------------------------------------------------
    @classmethod
    def new(
        cls,
        width: int,
        height: int,
        fill: str = "clear",
        name: str = "Untitled",
        rules: RulesTerrain | None = None,
    ) -> BattleMap:
        """A map of ``width`` x ``height`` hexes filled with terrain ``fill`` at level 0.

        Raises:
            MapError: for a size outside 1..500 or an unknown terrain key.
        """
        m = cls(width, height, name=name, rules=rules or default_terrain())
        try:
            m.terrain[:, :] = m.rules.index_of_key(fill)
        except KeyError:
            raise MapError(
                f"unknown terrain {fill!r}; expected one of {[t.key for t in m.rules.types]}"
            ) from None
        return m

    def defer_deploy(self, rects: dict[str, list[tuple[int, int, int, int]]]) -> None:
        """Set the deploy zones to the sides' offset rectangles ``(c0, r0, c1, r1)`` (checked
        on the board), their hexes made when :attr:`deploy` is first read
        (:func:`~hexwar.model.map_format.rects_zone`: file order, each hex once). Issue 35:
        a map load does not make the 50,000 hexes of a generated 500x500 map's zones until a
        scenario or the editor asks for them."""
        self.__dict__["_deploy"] = {}
        self.__dict__["_deploy_rects"] = {s: list(r) for s, r in rects.items() if r}

    def copy(self) -> BattleMap:
        """A deep copy (arrays and wreck stacks copied)."""
        m = BattleMap(self.width, self.height, self.name, self.description, self.rules)
        for a in ("terrain", "level", "road", "rubble", "fire", "fire_turns"):
            getattr(m, a)[...] = getattr(self, a)
        m.wrecks = {h: list(s) for h, s in self.wrecks.items()}
        m.artillery_marker = self.artillery_marker
        m.deploy = dict(self.deploy)
        m.objectives = tuple(self.objectives)
        return m

    # -- coordinates -------------------------------------------------------------------
    @property
    def row_digits(self) -> int:
        """Digits in row labels: 2, or 3 for maps over 99 rows (R2.2)."""
        return 3 if self.height > 99 else 2

    def in_bounds(self, h: Hex) -> bool:
        """True when ``h`` lies on the map."""
        col, row = h.offset
        return 0 <= col < self.width and 0 <= row < self.height

    def index(self, h: Hex) -> tuple[int, int]:
        """Array index ``(row, col)`` of ``h``.

        Raises:
            MapError: naming the hex when it is off the map.
        """
        col, row = h.offset
        if not (0 <= col < self.width and 0 <= row < self.height):
            raise MapError(f"hex {self.label(h)} is off the {self.width}x{self.height} map")
        return row, col

    def label(self, h: Hex) -> str:
        """The hex's CoH label with this map's row digits (axial text when off the board)."""
        return _label_or_axial(h, self.row_digits)

    def hex_at(self, label: str) -> Hex:
        """Parse ``label`` and check it is on this map.

        Raises:
            MapError: naming the label when it is malformed or off the map.
        """
        try:
            h = Hex.from_label(label)
        except HexLabelError as exc:
            raise MapError(str(exc)) from None
        if not self.in_bounds(h):
            raise MapError(
                f"hex {label!r} is off the map: columns A..{self.label(Hex.from_offset(self.width - 1, 0))[: -self.row_digits]},"
                f" rows 1..{self.height}"
            )
        return h

    def hexes(self) -> Iterator[Hex]:
        """Every hex on the map, column by column (A01, A02, ..., B01 ...)."""
        for col in range(self.width):
            for row in range(self.height):
                yield Hex.from_offset(col, row)

    def neighbors(self, h: Hex) -> list[Hex]:
        """The on-map neighbours of ``h`` in direction order (R2.3)."""
        return [n for n in h.neighbors() if self.in_bounds(n)]

    # -- queries -----------------------------------------------------------------------
    def terrain_at(self, h: Hex) -> TerrainType:
        """The base terrain type of ``h`` (buildings stay their type even as rubble)."""
        return self.rules.types[int(self.terrain[self.index(h)])]

    def level_at(self, h: Hex) -> int:
        """Ground level of ``h`` in levels."""
        return int(self.level[self.index(h)])

    def building_at(self, h: Hex) -> TerrainType | None:
        """The intact building in ``h`` (not rubble), or ``None`` (R2.4, R8.3)."""
        t = self.terrain_at(h)
        return t if t.is_building and not self.rubble[self.index(h)] else None

    def has_fire(self, h: Hex) -> bool:
        """True when a building fire burns in ``h`` (R8.4)."""
        return bool(self.fire[self.index(h)])

    def has_rubble(self, h: Hex) -> bool:
        """True when ``h`` holds rubble (R8.3)."""
        return bool(self.rubble[self.index(h)])

    def wrecks_at(self, h: Hex) -> list[str]:
        """Wreck counter ids in ``h``, bottom first (a copy)."""
        self.index(h)
        return list(self.wrecks.get(h, ()))

    def describe(self, h: Hex) -> list[str]:
        """What stands in ``h`` as short phrases for status bars and tooltips.

        Terrain (with the building's DR), ground level, then road, rubble, fire and wreck
        counters when present (R2.4): ``["Stone building (DR 14)", "level 1", "fire"]``.

        Raises:
            MapError: naming the hex when it is off the map.
        """
        t = self.terrain_at(h)
        bits = [f"{t.name} (DR {t.dr})" if t.dr else t.name, f"level {self.level_at(h)}"]
        idx = self.index(h)
        if self.road[idx]:
            bits.append("road")
        if self.rubble[idx]:
            bits.append("rubble")
        if self.fire[idx]:
            bits.append("fire")
        ws = self.wrecks.get(h)
        if ws:
            bits.append("wrecks " + ", ".join(ws))
        return bits

    def building_mask(self) -> np.ndarray:
        """``bool [height, width]``: hexes whose base terrain is a building."""
        is_b = np.array([t.is_building for t in self.rules.types], dtype=bool)
        return is_b[self.terrain]

    def dr_array(self) -> np.ndarray:
        """``int16 [height, width]``: DR of intact buildings, 0 elsewhere (R8.2)."""
        drs = np.array([t.dr or 0 for t in self.rules.types], dtype=np.int16)
        out = drs[self.terrain]
        out[self.rubble] = 0
        return out

    # -- changes -----------------------------------------------------------------------
    def _touch(self) -> None:
        self.version += 1

    def set_terrain(self, h: Hex, key: str) -> None:
        """Set the base terrain of ``h`` to terrain ``key``; clears rubble/fire a non-building cannot
        hold, and the road flag of a hex turned to water (a bridge is road terrain, docs/rules.md).

        Raises:
            MapError: off-map hex or unknown terrain key.
        """
        idx = self.index(h)
        try:
            self.terrain[idx] = self.rules.index_of_key(key)
        except KeyError:
            raise MapError(
                f"unknown terrain {key!r}; expected one of {[t.key for t in self.rules.types]}"
            ) from None
        if _impassable_to_all(self.rules.by_key(key)):
            self.road[idx] = False
        if not self.rules.by_key(key).is_building:
            self.rubble[idx] = False
            self.fire[idx] = False
            self.fire_turns[idx] = 0
        self._touch()

    def set_level(self, h: Hex, level: int) -> None:
        """Set the ground level of ``h`` (0..9 levels, R2.4).

        Raises:
            MapError: off-map hex or level outside 0..9.
        """
        idx = self.index(h)
        if not isinstance(level, (int, np.integer)) or not 0 <= int(level) <= 9:
            raise MapError(f"hex {self.label(h)}: ground level must be 0..9, got {level!r}")
        self.level[idx] = int(level)
        self._touch()

    def set_road(self, h: Hex, on: bool = True) -> None:
        """Put a road through ``h`` or remove it (R2.4).

        A road across water is a bridge, which is road terrain (docs/rules.md): use
        ``set_terrain(h, "road")``.

        Raises:
            MapError: off the map, or a road flag on terrain no unit may enter (water).
        """
        idx = self.index(h)
        if on and _impassable_to_all(self.terrain_at(h)):
            raise MapError(
                f"hex {self.label(h)}: a road flag on {self.terrain_at(h).name.lower()} is ambiguous; "
                f"a bridge is road terrain: set the hex's terrain to road"
            )
        self.road[idx] = bool(on)
        self._touch()

    def add_wreck(self, h: Hex, wreck_id: str) -> None:
        """Put wreck counter ``wreck_id`` on top of the stack in ``h`` (R8.1).

        Raises:
            MapError: off-map hex or unknown wreck id.
        """
        self.index(h)
        if wreck_id not in self.rules.wrecks:
            raise MapError(
                f"hex {self.label(h)}: unknown wreck {wreck_id!r}; expected one of {sorted(self.rules.wrecks)}"
            )
        self.wrecks.setdefault(h, []).append(wreck_id)
        self._touch()

    def remove_wreck(self, h: Hex, wreck_id: str | None = None) -> str:
        """Remove the top wreck (or the named one) from ``h`` and return its id (R8.1 towing).

        Raises:
            MapError: off-map hex, no wreck there, or the named wreck is not there.
        """
        self.index(h)
        stack = self.wrecks.get(h)
        if not stack:
            raise MapError(f"hex {self.label(h)} holds no wreck")
        if wreck_id is None:
            wid = stack.pop()
        elif wreck_id in stack:
            stack.remove(wreck_id)
            wid = wreck_id
        else:
            raise MapError(f"hex {self.label(h)} holds no wreck {wreck_id!r}")
        if not stack:
            del self.wrecks[h]
        self._touch()
        return wid

    def set_rubble(self, h: Hex, on: bool = True) -> None:
        """Reduce the building in ``h`` to rubble (puts out its fire, R8.3), or restore it.

        Raises:
            MapError: off-map hex, or rubble asked for where no building stands.
        """
        idx = self.index(h)
        if on and not self.terrain_at(h).is_building:
            raise MapError(
                f"hex {self.label(h)}: rubble needs a building hex, found {self.terrain_at(h).name}"
            )
        self.rubble[idx] = bool(on)
        if on:
            self.fire[idx] = False
            self.fire_turns[idx] = 0
        self._touch()

    def set_fire(self, h: Hex, on: bool = True) -> None:
        """Set a building fire burning in ``h`` (R8.4), or put it out.

        Raises:
            MapError: off-map hex, or fire asked for where no intact building stands.
        """
        idx = self.index(h)
        if on and self.building_at(h) is None:
            raise MapError(
                f"hex {self.label(h)}: fire needs an intact building, found "
                f"{'rubble' if self.rubble[idx] else self.terrain_at(h).name}"
            )
        self.fire[idx] = bool(on)
        if not on:
            self.fire_turns[idx] = 0
        self._touch()

    # -- files -------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The map as a JSON-ready dict in the ``hexwar-map`` format.

        Written as schema version 2 when the map carries markers (``deploy``,
        ``objectives``), else as version 1, the oldest that holds it: a map saved again
        keeps its text and hash, and so do the scenario hashes in older saves.
        """
        codes = self.rules.codes
        terrain_rows = ["".join(codes[int(i)] for i in row) for row in self.terrain]
        has_markers = any(self.deploy.values()) or bool(self.objectives)
        data: dict[str, Any] = {
            "format": MAP_FORMAT,
            "schema_version": MAP_SCHEMA_VERSION if has_markers else 1,
            "name": self.name,
            "description": self.description,
            "width": self.width,
            "height": self.height,
            "terrain": terrain_rows,
        }
        if self.level.any():
            data["levels"] = ["".join(str(int(v)) for v in row) for row in self.level]
        feats: dict[str, dict[str, Any]] = {}
        for h in sorted(self.hexes(), key=lambda x: (x.offset[1], x.offset[0])):
            idx = self.index(h)
            f: dict[str, Any] = {}
            if self.road[idx]:
                f["road"] = True
            if self.wrecks.get(h):
                f["wrecks"] = list(self.wrecks[h])
            if self.rubble[idx]:
                f["rubble"] = True
            if self.fire[idx]:
                f["fire"] = True
                if self.fire_turns[idx]:
                    f["fire_turns"] = int(self.fire_turns[idx])
            if f:
                feats[self.label(h)] = f
        data["features"] = feats
        deploy = {s: zone_specs(self.deploy[s], self.row_digits) for s in MARKER_SIDES if self.deploy.get(s)}
        if deploy:
            data["deploy"] = deploy
        if self.objectives:
            objs = []
            for o in self.objectives:
                d: dict[str, Any] = {"hex": self.label(o.hex)}
                if o.name:
                    d["name"] = o.name
                if o.points:
                    d["points"] = o.points
                objs.append(d)
            data["objectives"] = objs
        return data

    def to_text(self) -> str:
        """The map file's text (deterministic JSON)."""
        return dump_json(self.to_json())

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the map to ``path`` atomically (temp file, fsync, rename).

        Raises:
            HexwarError: naming the path when it cannot be written.
        """
        atomic_write_text(path, self.to_text())

    def content_hash(self) -> str:
        """SHA-256 of the map's file text: equal maps have equal hashes."""
        return hashlib.sha256(self.to_text().encode()).hexdigest()

    @classmethod
    def load(cls, path: str | os.PathLike[str], rules: RulesTerrain | None = None) -> BattleMap:
        """Load and validate a map file.

        Raises:
            ValidationError: listing every problem (file, field or hex label, expectation).
        """
        text = read_text(path, kind="hexwar-map")
        doc = compiled_docs.lookup(text, ("map",))  # a shipped map's validated document (issue 35)
        if doc is not None:
            return cls._from_document(doc, str(path), rules or default_terrain(), [], {}, None)
        return cls.from_json(loads_json(text, str(path)), str(path), rules)

    @classmethod
    def from_json(cls, data: Any, src: str = "<memory>", rules: RulesTerrain | None = None) -> BattleMap:
        """Build a map from parsed JSON: the typed model first, then the meaning, every problem at once.

        The document is upgraded to the current version (:data:`MAP_MIGRATIONS`), validated by
        :class:`~hexwar.model.map_file.MapFile` (structure: fields, types, ranges, patterns),
        then checked for what the model cannot say (terrain codes of ``rules``, hexes on the
        board, wrecks that exist, rubble and fire only in buildings, R2.4, R8.3, R8.4). When
        the model refuses a part that the board does not hang on (a feature, a marker, the
        name), the rest is still checked, so one run reports everything.

        Args:
            data: the parsed JSON document.
            src: the file name to put in problem reports.
            rules: terrain table; default the package's.

        Raises:
            ValidationError: listing every problem found (file, field or hex, expectation).
        """
        rules = rules or default_terrain()
        if not isinstance(data, dict):
            raise ValidationError([Problem(src, "", 'expected a JSON object with "format": "hexwar-map"')])
        structural: list[Problem] = []
        if data.get("format") == MAP_FORMAT:
            try:
                data, _ = upgrade_document(data, MAP_SCHEMA_VERSION, MAP_MIGRATIONS, src)
            except ValidationError as exc:  # reported with the rest; read as the current version
                structural = exc.problems
                data = dict(data, schema_version=MAP_SCHEMA_VERSION)
        doc, more, raw_grids, obj_index = read_model(data, src)
        structural += more
        if doc is None:
            raise ValidationError(structural)
        return cls._from_document(doc, src, rules, structural, raw_grids, obj_index)

    @classmethod
    def _from_document(
        cls,
        doc: Any,
        src: str,
        rules: RulesTerrain,
        structural: list[Problem],
        raw_grids: dict[str, list[Any] | None],
        obj_index: list[int] | None,
    ) -> BattleMap:
        """The board of a validated map document (the model's value, or its compiled form):
        the semantic checks and the arrays (:class:`MapReader`); ``structural`` problems of the
        model come first in the report.

        Raises:
            ValidationError: listing every problem found.
        """
        m = cls(doc.width, doc.height, name=doc.name, description=doc.description, rules=rules)
        reader = MapReader(m, doc, src, rules, raw_grids, obj_index)
        objectives = reader.read()
        m.objectives = tuple(MapObjective(h, name, points) for h, name, points in objectives)
        merged = merge_problems(structural, reader.problems)
        if merged:
            raise ValidationError(merged)
        return m

    def summary(self) -> dict[str, Any]:
        """Size, terrain counts, buildings by DR and overlay counts, JSON-ready."""
        counts = {t.key: int((self.terrain == i).sum()) for i, t in enumerate(self.rules.types)}
        dr = self.dr_array()
        return {
            "name": self.name,
            "width": self.width,
            "height": self.height,
            "hexes": self.width * self.height,
            "terrain": {k: v for k, v in counts.items() if v},
            "buildings": {str(d): int((dr == d).sum()) for d in sorted(set(int(x) for x in dr.flat) - {0})},
            "levels": {
                str(lv): int((self.level == lv).sum()) for lv in sorted(set(int(x) for x in self.level.flat))
            },
            "roads": int(self.road.sum()),
            "wrecks": sum(len(s) for s in self.wrecks.values()),
            "rubble": int(self.rubble.sum()),
            "fires": int(self.fire.sum()),
        }


def _deploy_get(m: BattleMap) -> dict[str, tuple[Hex, ...]]:
    d: dict[str, tuple[Hex, ...]] = m.__dict__["_deploy"]
    pending = m.__dict__.get("_deploy_rects")
    if pending:
        m.__dict__["_deploy_rects"] = None
        for side, rects in pending.items():
            d[side] = rects_zone(rects)
    return d


def _deploy_set(m: BattleMap, value: dict[str, tuple[Hex, ...]]) -> None:
    m.__dict__["_deploy"] = value
    m.__dict__["_deploy_rects"] = None


# the dataclass field ``deploy`` (its __init__ argument and default) is read and set through
# this property: zones a load deferred (BattleMap.defer_deploy) are made at the first read
BattleMap.deploy = property(_deploy_get, _deploy_set, doc="Deploy-zone markers by side (R5.2).")  # type: ignore[assignment]
