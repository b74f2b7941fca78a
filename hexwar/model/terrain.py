"""Terrain types and wreck counters as frozen definitions loaded from rules data (R2.5, R8.1).

The data lives in ``hexwar/data/terrain.toml`` and ``hexwar/data/wrecks.toml`` (their typed
models: :mod:`hexwar.model.terrain_file`); every number of terrain behaviour lives there and
nowhere in code. Looks (colours) live under ``assets/``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from typing import Any

from ..errors import Problem, ValidationError
from ..fileio import loads_toml, read_text
from . import compiled_docs

__all__ = [
    "impassable_to_all",
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


def _table(path: str, kind: str, model: str) -> Any:
    """The validated document of the rules table at ``path``: its compiled form when these are
    the shipped bytes (:mod:`hexwar.model.compiled_docs`, issue 35), else the TOML validated by
    ``hexwar.model.terrain_file``'s ``model``.

    Raises:
        ValidationError: naming the file and every problem.
    """
    text = read_text(path, kind="data")
    doc = compiled_docs.lookup(text, (kind,))
    if doc is not None:
        return doc
    return _checked(loads_toml(text, path), path, model)


def _checked(data: dict[str, Any], src: str, model: str) -> Any:
    """A parsed rules table validated by ``hexwar.model.terrain_file``'s ``model``.

    Raises:
        ValidationError: naming ``src`` and every problem.
    """
    from . import terrain_file
    from .documents import check

    doc, problems = check(getattr(terrain_file, model), data, src)
    if doc is None:
        raise ValidationError(problems)
    return doc


def _parse_terrain(data: dict[str, Any], src: str) -> RulesTerrain:
    """The terrain table of a parsed ``terrain.toml``: its model, then codes used once (R2.5)."""
    return _terrain_of(_checked(data, src, "TerrainTableFile"), src)


def _terrain_of(doc: Any, src: str) -> RulesTerrain:
    """The terrain table of a validated ``terrain.toml`` document: codes used once (R2.5)."""
    problems: list[Problem] = []
    types: list[TerrainType] = []
    seen_codes: dict[str, str] = {}
    for key, t in doc.terrain.items():
        if t.code in seen_codes:
            problems.append(
                Problem(src, f"terrain.{key}.code", f"{t.code!r} already used by {seen_codes[t.code]}")
            )
        seen_codes[t.code] = key
        move = {m: math.inf if m in t.impassable else float(getattr(t.move, m)) for m in MOBILITY_CLASSES}
        types.append(
            TerrainType(
                key, t.code, t.name or key, t.los, t.height, move, t.defense.soft, t.defense.armored, t.dr
            )
        )
    if problems:
        raise ValidationError(problems)
    return RulesTerrain(tuple(types), {})


def _parse_wrecks(data: dict[str, Any], src: str) -> dict[str, WreckCounter]:
    """The wreck pools of a parsed ``wrecks.toml``: its model, then ids used once (R8.1)."""
    return _wrecks_of(_checked(data, src, "WreckPoolsFile"), src)


def _wrecks_of(doc: Any, src: str) -> dict[str, WreckCounter]:
    """The wreck pools of a validated ``wrecks.toml`` document: ids used once (R8.1)."""
    problems: list[Problem] = []
    out: dict[str, WreckCounter] = {}
    for i, w in enumerate(doc.wreck):
        if w.id in out:
            problems.append(Problem(src, f"wreck[{i}].id", f"duplicate wreck id {w.id!r}"))
        out[w.id] = WreckCounter(w.id, w.nationality, w.los, w.modifier, w.applies)
    if problems:
        raise ValidationError(problems)
    return out


def impassable_to_all(t: TerrainType) -> bool:
    """Terrain no mobility class may enter (water, R2.5): a road flag there would be a bridge."""
    return bool(t.move) and all(math.isinf(v) for v in t.move.values())


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
    rt = _terrain_of(_table(tp, "terrain", "TerrainTableFile"), tp)
    return RulesTerrain(rt.types, _wrecks_of(_table(wp, "wrecks", "WreckPoolsFile"), wp))


@cache
def default_terrain() -> RulesTerrain:
    """The package's own terrain table and wreck pools, loaded once."""
    return load_terrain()
