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

__all__ = ["PaletteEntry", "WreckEntry", "terrain_entries", "terrain_tip", "wreck_entries", "wreck_tip"]

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
    return [
        PaletteEntry(
            e.key, e.name, e.code, e.colour, e.edge, e.detail, e.group, keys[i] if i < len(keys) else ""
        )
        for i, e in enumerate(out)
    ]


def wreck_entries(rules: RulesTerrain) -> list[WreckEntry]:
    """Every wreck counter, German then Soviet, in data order (R8.1)."""
    ws = list(rules.wrecks.values())
    ws.sort(key=lambda w: (w.nationality != "german", list(rules.wrecks).index(w.id)))
    return [WreckEntry(w.id, w.nationality, w.los, w.modifier, w.applies) for w in ws]


def terrain_tip(rules: RulesTerrain, key: str) -> str:
    """The palette tooltip of terrain ``key``: LOS (R3.5), obstacle height (R3.4), movement
    points per mobility class, Defense modifiers (R6.7) and a building's DR (R8.2).

    >>> from hexwar.model.terrain import default_terrain
    >>> terrain_tip(default_terrain(), "stone_building").startswith("Stone building (")
    True
    """
    t = rules.by_key(key)
    los = {
        "clear": "LOS clear",
        "hindrance": "hinders LOS (+1 to the attack value per hex, R3.5)",
        "blocking": "blocks LOS",
    }.get(t.los, t.los)
    bits = [los + (f", {t.height} level{'s' if t.height != 1 else ''} high" if t.height else "")]
    moves = [f"{m} {'impassable' if v == float('inf') else f'{v:g}'}" for m, v in sorted(t.move.items())]
    if moves:
        bits.append("move " + ", ".join(moves))
    if t.defense_soft or t.defense_armored:
        bits.append(f"Defense soft {t.defense_soft:+d}, armored {t.defense_armored:+d}")
    if t.dr is not None:
        bits.append(f"building DR {t.dr}")
    return f"{t.name} ('{t.code}'): " + "; ".join(bits)


def wreck_tip(w: WreckEntry) -> str:
    """The palette tooltip of wreck counter ``w`` (R8.1): nationality, LOS symbol, modifier."""
    who = "all ground units" if w.applies == "all" else "soft units only"
    mod = f"Defense {w.modifier:+d} for {who}" if w.modifier else "no Defense modifier"
    los = "LOS symbol: LOS may start or end in its hex, not pass through (R3.5)" if w.los else "no LOS symbol"
    return f"Wreck counter {w.id} ({w.nationality}): {mod}; {los}"
