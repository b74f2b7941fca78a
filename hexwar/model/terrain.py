"""Terrain types and wreck counters as frozen definitions loaded from rules data (R2.5, R8.1).

The data lives in ``hexwar/data/terrain.toml`` and ``hexwar/data/wrecks.toml``; every number
of terrain behaviour lives there and nowhere in code. Looks (colours) live under ``assets/``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from ..errors import Problem, ValidationError
from ..fileio import read_toml

__all__ = [
    "LOS_EFFECTS",
    "MOBILITY_CLASSES",
    "RulesTerrain",
    "TerrainType",
    "WreckCounter",
    "default_terrain",
    "load_terrain",
]

MOBILITY_CLASSES = ("foot", "tracked", "wheeled")  # R4.1 map addition
LOS_EFFECTS = ("clear", "hindrance", "blocking")  # R3.5


@dataclass(frozen=True, slots=True)
class TerrainType:
    """One terrain type (R2.5).

    Attributes:
        key: identifier, e.g. ``"stone_building"``.
        code: the single character used in map row strings.
        name: display name.
        los: ``"clear"``, ``"hindrance"`` or ``"blocking"`` (R3.5).
        height: obstacle height in levels above ground (R3.4).
        move: movement points to enter per mobility class; ``math.inf`` when impassable.
        defense_soft: Defense modifier for soft units (R6.7, R6.8).
        defense_armored: Defense modifier for armored units.
        dr: building Defense Rating (R8.2) or ``None`` when not a building.
    """

    key: str
    code: str
    name: str
    los: str
    height: int
    move: dict[str, float] = field(hash=False, compare=False)
    defense_soft: int = 0
    defense_armored: int = 0
    dr: int | None = None

    @property
    def is_building(self) -> bool:
        """True for building terrain (has a DR, R2.4)."""
        return self.dr is not None

    def move_cost(self, mobility: str) -> float:
        """Movement points to enter for ``mobility`` (``math.inf`` when impassable).

        Raises:
            KeyError: for an unknown mobility class.
        """
        return self.move[mobility]


@dataclass(frozen=True, slots=True)
class WreckCounter:
    """A wreck counter (R8.1, seed 003).

    Attributes:
        id: identifier used in maps and saves, e.g. ``"su-3"``.
        nationality: ``"german"`` or ``"soviet"``.
        los: carries the LOS symbol (blocks LOS through the hex, height 1; R3.5).
        modifier: Defense modifier for units in the hex (black +1; red +2 or -1).
        applies: ``"all"`` (black) or ``"soft"`` (red, soft units only, R6.8).
    """

    id: str
    nationality: str
    los: bool
    modifier: int
    applies: str


@dataclass(frozen=True)
class RulesTerrain:
    """The terrain table and wreck pools loaded from rules data.

    Attributes:
        types: terrain types in table order (index = the code stored in map arrays).
        wrecks: wreck counters by id.
    """

    types: tuple[TerrainType, ...]
    wrecks: dict[str, WreckCounter]

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_code", {t.code: i for i, t in enumerate(self.types)})
        object.__setattr__(self, "_by_key", {t.key: i for i, t in enumerate(self.types)})

    def index_of_code(self, code: str) -> int:
        """Table index of a row-string code. Raises ``KeyError`` if unknown."""
        return self._by_code[code]  # type: ignore[attr-defined]

    def index_of_key(self, key: str) -> int:
        """Table index of a terrain key such as ``"woods"``. Raises ``KeyError`` if unknown."""
        return self._by_key[key]  # type: ignore[attr-defined]

    def by_key(self, key: str) -> TerrainType:
        """The terrain type named ``key``. Raises ``KeyError`` if unknown."""
        return self.types[self.index_of_key(key)]

    @property
    def codes(self) -> str:
        """All row-string codes, in table order."""
        return "".join(t.code for t in self.types)

    def wreck_pool(self, nationality: str) -> list[WreckCounter]:
        """The wreck counters of one nationality, in data order (R8.1)."""
        return [w for w in self.wrecks.values() if w.nationality == nationality]


def _parse_terrain(data: dict[str, Any], src: str) -> RulesTerrain:
    problems: list[Problem] = []
    types: list[TerrainType] = []
    table = data.get("terrain")
    if not isinstance(table, dict) or not table:
        raise ValidationError([Problem(src, "terrain", "expected a table of terrain types")])
    seen_codes: dict[str, str] = {}
    for key, t in table.items():
        where = f"terrain.{key}"
        if not isinstance(t, dict):
            problems.append(Problem(src, where, "expected a table"))
            continue
        code = t.get("code")
        if not isinstance(code, str) or len(code) != 1 or code.isspace():
            problems.append(Problem(src, f"{where}.code", "expected one non-space character"))
            continue
        if code in seen_codes:
            problems.append(Problem(src, f"{where}.code", f"{code!r} already used by {seen_codes[code]}"))
        seen_codes[code] = key
        los = t.get("los")
        if los not in LOS_EFFECTS:
            problems.append(Problem(src, f"{where}.los", f"expected one of {LOS_EFFECTS}, got {los!r}"))
        height = t.get("height", 0)
        if not isinstance(height, int) or height < 0:
            problems.append(Problem(src, f"{where}.height", "expected an integer >= 0"))
        move_t = t.get("move", {})
        impassable = t.get("impassable", [])
        if not isinstance(impassable, list):  # issue 33 (fuzz): `impassable = 1` was a TypeError
            problems.append(Problem(src, f"{where}.impassable", "expected a list of mobility classes"))
            impassable = []
        move: dict[str, float] = {}
        for m in MOBILITY_CLASSES:
            v = move_t.get(m) if isinstance(move_t, dict) else None
            if not isinstance(v, int) or v < 1:
                problems.append(Problem(src, f"{where}.move.{m}", "expected an integer >= 1"))
                v = 1
            move[m] = math.inf if m in impassable else float(v)
        for m in impassable if isinstance(impassable, list) else []:
            if m not in MOBILITY_CLASSES:
                problems.append(Problem(src, f"{where}.impassable", f"unknown mobility class {m!r}"))
        dfn = t.get("defense", {})
        soft = dfn.get("soft", 0) if isinstance(dfn, dict) else 0
        armored = dfn.get("armored", 0) if isinstance(dfn, dict) else 0
        if not isinstance(soft, int) or not isinstance(armored, int):
            problems.append(Problem(src, f"{where}.defense", "expected integer soft and armored modifiers"))
        dr = t.get("dr")
        if dr is not None and (not isinstance(dr, int) or not 2 <= dr <= 30):
            problems.append(Problem(src, f"{where}.dr", "expected an integer DR such as 13, 14 or 15"))
        types.append(
            TerrainType(
                key,
                code,
                str(t.get("name", key)),
                str(los),
                int(height) if isinstance(height, int) else 0,
                move,
                int(soft) if isinstance(soft, int) else 0,
                int(armored) if isinstance(armored, int) else 0,
                dr,
            )
        )
    if problems:
        raise ValidationError(problems)
    return RulesTerrain(tuple(types), {})


def _parse_wrecks(data: dict[str, Any], src: str) -> dict[str, WreckCounter]:
    problems: list[Problem] = []
    out: dict[str, WreckCounter] = {}
    for i, w in enumerate(data.get("wreck", [])):
        where = f"wreck[{i}]"
        try:
            wc = WreckCounter(
                str(w["id"]), str(w["nationality"]), bool(w["los"]), int(w["modifier"]), str(w["applies"])
            )
        except (KeyError, TypeError, ValueError) as exc:
            problems.append(Problem(src, where, f"missing or bad field {exc}"))
            continue
        if wc.nationality not in ("german", "soviet"):
            problems.append(Problem(src, f"{where}.nationality", "expected 'german' or 'soviet'"))
        if wc.applies not in ("all", "soft"):
            problems.append(Problem(src, f"{where}.applies", "expected 'all' (black) or 'soft' (red)"))
        if wc.id in out:
            problems.append(Problem(src, f"{where}.id", f"duplicate wreck id {wc.id!r}"))
        out[wc.id] = wc
    if problems:
        raise ValidationError(problems)
    return out


def load_terrain(terrain_path: str | None = None, wrecks_path: str | None = None) -> RulesTerrain:
    """Load and validate the terrain table and wreck pools (R2.5, R8.1).

    Args:
        terrain_path: a terrain TOML file; default the package's ``data/terrain.toml``.
        wrecks_path: a wrecks TOML file; default the package's ``data/wrecks.toml``.

    Raises:
        ValidationError: listing every problem in the files.
    """
    data_dir = resources.files("hexwar") / "data"
    tp = terrain_path or str(data_dir / "terrain.toml")
    wp = wrecks_path or str(data_dir / "wrecks.toml")
    rt = _parse_terrain(read_toml(tp), tp)
    return RulesTerrain(rt.types, _parse_wrecks(read_toml(wp), wp))


@cache
def default_terrain() -> RulesTerrain:
    """The package's own terrain table and wreck pools, loaded once."""
    return load_terrain()
