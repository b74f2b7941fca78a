"""The editor palette, generated from data: every terrain type of the terrain table (R2.5) with
its look from ``assets/terrain_looks.toml``, and every wreck counter of the wreck pools (R8.1).

Nothing here is hand-listed: a terrain type added to ``hexwar/data/terrain.toml`` (with its look)
appears in the palette by itself. Pure data (no pyglet); :mod:`hexwar.editor.window` draws it.

>>> from hexwar.model.terrain import default_terrain
>>> from hexwar.render.looks import default_looks
>>> entries = terrain_entries(default_terrain(), default_looks())
>>> [e.key for e in entries if e.group == "Buildings"]
['wood_building', 'stone_building', 'reinforced_building']
>>> next(e for e in entries if e.key == "stone_building").detail
'DR 14'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..model.terrain import RulesTerrain

__all__ = ["PaletteEntry", "WreckEntry", "terrain_entries", "wreck_entries"]

RGBA = tuple[int, int, int, int]


@dataclass(frozen=True)
class PaletteEntry:
    """One terrain swatch.

    Attributes:
        key: terrain key (``"woods"``).
        name: display name (``"Woods"``).
        code: the map-file character.
        colour: swatch fill (the hex centre's colour: roof for buildings).
        edge: swatch outline (building outline, else a darker fill).
        detail: short rules summary shown beside the name (``"DR 14"``, ``"blocks LOS"``).
        group: ``"Terrain"`` or ``"Buildings"`` (buildings of each DR, R2.4).
        hotkey: the digit that picks it (``"1"``..``"9"``, ``"0"``), or ``""``.
    """

    key: str
    name: str
    code: str
    colour: RGBA
    edge: RGBA
    detail: str
    group: str
    hotkey: str = ""


@dataclass(frozen=True)
class WreckEntry:
    """One wreck counter (R8.1): id, nationality, LOS symbol and Defense modifier."""

    id: str
    nationality: str
    los: bool
    modifier: int
    applies: str

    @property
    def caption(self) -> str:
        """Short text: ``"+1"`` black (all units) or ``"+2s"`` red (soft units), ``"LOS"`` flag."""
        mod = f"{self.modifier:+d}" if self.modifier else "0"
        return mod + ("s" if self.applies == "soft" and self.modifier else "")


def _darker(c: RGBA, f: float = 0.7) -> RGBA:
    return (int(c[0] * f), int(c[1] * f), int(c[2] * f), c[3])


def terrain_entries(rules: RulesTerrain, looks: Any) -> list[PaletteEntry]:
    """Palette entries for every terrain type, terrain first then buildings by DR.

    Args:
        rules: the terrain table.
        looks: a :class:`hexwar.render.looks.Looks` (colours).
    """
    out: list[PaletteEntry] = []
    for t in rules.types:
        look = looks.terrain_look(t.key)
        colour = looks.centre_colour(t.key)
        edge = look.outline if getattr(look, "outline", None) is not None else _darker(colour)
        if t.dr is not None:
            detail, group = f"DR {t.dr}", "Buildings"
        else:
            group = "Terrain"
            if all(v == float("inf") for v in t.move.values()):
                detail = "impassable"
            elif t.los == "blocking":
                detail = "blocks LOS"
            elif t.los == "hindrance":
                detail = "hinders LOS"
            else:
                detail = ""
        out.append(PaletteEntry(t.key, t.name, t.code, tuple(colour), tuple(edge), detail, group))  # type: ignore[arg-type]
    out.sort(key=lambda e: (e.group == "Buildings", rules.by_key(e.key).dr or 0))
    keys = "1234567890"
    return [PaletteEntry(e.key, e.name, e.code, e.colour, e.edge, e.detail, e.group, keys[i] if i < len(keys) else "")
            for i, e in enumerate(out)]


def wreck_entries(rules: RulesTerrain) -> list[WreckEntry]:
    """Every wreck counter, German then Soviet, in data order (R8.1)."""
    ws = list(rules.wrecks.values())
    ws.sort(key=lambda w: (w.nationality != "german", list(rules.wrecks).index(w.id)))
    return [WreckEntry(w.id, w.nationality, w.los, w.modifier, w.applies) for w in ws]
