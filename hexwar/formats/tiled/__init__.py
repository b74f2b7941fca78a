"""Tiled hexagonal maps (TMX XML and TMJ JSON) in and out of hexwar (issue 19).

Import (:func:`import_tiled`) reads a map made in the Tiled editor with a hexagonal orientation:

- Stagger. Tiled names the layout with ``staggeraxis`` and ``staggerindex`` and its hexagonal
  renderer pushes tile ``(x, y)`` down half a tile when ``staggeraxis="x"`` and
  ``(x & 1) ^ (staggerindex == "even")``. ``staggeraxis="x"`` with ``staggerindex="odd"`` is
  exactly hexwar's odd-q layout (R2.2: flat-topped hexes, odd columns pushed down), so tile
  ``(x, y)`` is hex ``(col x, row y)``. With ``staggerindex="even"`` the even columns are
  pushed down; no same-size odd-q rectangle has the same neighbours, so every tile moves one
  column right (``col = x + 1``) and the map gains one column (A) on the west edge, filled
  from its eastern neighbour's ground (terrain and level; buildings and roads become clear):
  every hex keeps all six neighbours in the same directions. ``staggeraxis="y"`` (pointy-topped
  hexes in staggered rows) is refused: hexwar's hexsides and LOS are built on flat-topped
  columns, and turning the grid would move every hex relative to its neighbours.
- Global tile ids carry flag bits (TMX format): bit 31 horizontal flip, 30 vertical flip,
  29 diagonal flip (60 degree rotation on hexagonal maps), 28 hexagonal 120 degree rotation.
  They are all stripped (``gid & 0x0FFFFFFF``): a rotated woods tile is still woods.
- Tilesets, embedded or external (``.tsx``, ``.tsj`` in the map's folder or below it, nothing else is opened), by ``firstgid``.
- Layer data as CSV, XML ``<tile>`` elements, base64, base64 + zlib or gzip (zstd is refused
  with a message: Python has no zstd reader before 3.14).
- Tile layers by name: ``terrain`` (each tile names a terrain type), ``levels`` (ground
  levels), ``buildings`` (a building type over the terrain), ``roads`` (a road through the
  hex); other tile layers are skipped with a note. Layers inside groups count too.
- What a tile means comes from its tile properties ``hexwar_terrain`` (a terrain key of the
  terrain table such as ``woods``), ``hexwar_level`` (0-9), ``hexwar_building`` (a building
  terrain key such as ``stone_building``) and ``hexwar_road`` (true), or from a ``--terrain``
  table (:func:`load_tile_table`) mapping tileset name and tile id to the same keys.
- Object layers for features: objects whose ``type`` (or ``class``) is ``wreck`` (property
  ``wrecks``: ids bottom first, comma-separated), ``rubble``, ``fire`` (property
  ``fire_turns``), ``deploy`` (properties ``side`` and optionally ``hexes``, hexwar hex labels
  and rectangles; else the hexes under the object) or ``objective`` (name, property ``points``).
  A point object stands in the hex under it; a rectangle covers every hex whose centre it holds.

Every problem (each unmapped tile with its layer, tile position and hex, bad values, unknown
objects) is collected and raised at once as one :class:`~hexwar.errors.ValidationError`;
nothing is written then.

Export (:func:`export_tiled`) writes a TMJ or TMX map (odd stagger) with a generated tileset:
a PNG of one tile per terrain type, ground level and road drawn from ``assets/terrain_looks.toml``
(the renderer's looks) and carrying the ``hexwar_*`` properties, so the map opens in Tiled
looking as in hexwar and imports back to the same map.

The code is split by what it does (issue 34): :mod:`.read` (TMX/TMJ files, tilesets, layer
data, the tile table), :mod:`.geometry` (tiles on the board, the conversion to a map:
:func:`import_tiled`) and :mod:`.write` (:func:`export_tiled`). This package keeps the public
names where they always were.
"""

from __future__ import annotations

from .geometry import TiledImport, import_tiled
from .read import FLAG_BITS, GID_MASK, TILE_PROPERTIES, load_tile_table, strip_gid
from .write import export_tiled

__all__ = [
    "FLAG_BITS",
    "GID_MASK",
    "TILE_PROPERTIES",
    "TiledImport",
    "import_tiled",
    "export_tiled",
    "load_tile_table",
    "strip_gid",
]
