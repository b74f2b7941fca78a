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
"""

from __future__ import annotations

import base64
import binascii
import json
import math
import os
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import HexwarError, Problem, ValidationError, clip, small_uint
from ..fileio import atomic_write_bytes, atomic_write_text, dump_json, loads_json, read_text
from ..model.hexgrid import Hex, HexLabelError
from ..model.maps import BattleMap, MapObjective, zone_hexes, zone_specs
from ..model.terrain import RulesTerrain, default_terrain

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

FLIPPED_HORIZONTALLY = 0x80000000
FLIPPED_VERTICALLY = 0x40000000
FLIPPED_DIAGONALLY = 0x20000000  # a 60 degree rotation on hexagonal maps
ROTATED_HEXAGONAL_120 = 0x10000000
FLAG_BITS = FLIPPED_HORIZONTALLY | FLIPPED_VERTICALLY | FLIPPED_DIAGONALLY | ROTATED_HEXAGONAL_120
GID_MASK = ~FLAG_BITS & 0xFFFFFFFF
TILE_PROPERTIES = ("hexwar_terrain", "hexwar_level", "hexwar_building", "hexwar_road")
LAYER_NEEDS = {
    "terrain": "hexwar_terrain",
    "levels": "hexwar_level",
    "buildings": "hexwar_building",
    "roads": "hexwar_road",
}
OBJECT_KINDS = ("wreck", "rubble", "fire", "deploy", "objective")
MAX_TILED_BYTES = 32 * 1024 * 1024
TILE_W, TILE_H, TILE_SIDE = 64, 56, 32  # exported tiles: a flat-topped hex, pixels


def strip_gid(raw: int) -> int:
    """A global tile id without its flip and rotation flags (all four high bits).

    >>> strip_gid(0x80000003), strip_gid(0x10000007), strip_gid(0xF0000002), strip_gid(5)
    (3, 7, 2, 5)
    """
    return raw & GID_MASK


@dataclass
class _Tileset:
    firstgid: int
    name: str
    tiles: dict[int, dict[str, Any]] = field(default_factory=dict)  # local id -> properties


@dataclass
class _Object:
    kind: str
    name: str
    x: float
    y: float
    width: float
    height: float
    is_tile: bool
    props: dict[str, Any]
    where: str


@dataclass
class _Doc:
    width: int
    height: int
    tilewidth: float
    tileheight: float
    hexside: float
    stagger_even: bool
    tilesets: list[_Tileset]
    layers: list[tuple[str, list[int]]]  # name, raw gids row-major
    objects: list[_Object]
    properties: dict[str, Any]


@dataclass
class TiledImport:
    """What :func:`import_tiled` made.

    Attributes:
        map: the hexwar map.
        notes: things the user should know (a column added for an even stagger, skipped layers).
    """

    map: BattleMap
    notes: list[str]


# -- the tile table ----------------------------------------------------------------------
def load_tile_table(path: str | os.PathLike[str]) -> dict[str, dict[int, dict[str, Any]]]:
    """Read a ``--terrain`` TOML table: tileset name -> tile id -> hexwar properties.

    Format::

        [tiles."my grass set"]
        0 = "clear"                                   # a terrain key
        1 = "woods"
        7 = { terrain = "clear", level = 2 }          # terrain, level, building, road
        9 = { road = true }

    Returns:
        ``{tileset: {local id: {"hexwar_terrain": ..., ...}}}``.

    Raises:
        ValidationError: naming the file and entry for anything else.
    """
    from ..fileio import read_toml
    from ..model.filemodel import check
    from .import_tables import TileTableFile

    doc, problems = check(TileTableFile, read_toml(path), str(path))  # issue 34: the table's model
    if doc is None:
        raise ValidationError(problems)
    out: dict[str, dict[int, dict[str, Any]]] = {}
    for ts, entries in doc.tiles.items():
        for k, e in entries.items():
            out.setdefault(ts, {})[int(k)] = e.properties()
    return out


# -- reading TMX / TMJ -------------------------------------------------------------------
def _xml(text: str, src: str) -> Any:
    """Parse untrusted XML: no DTD, no entities, no external references (defusedxml)."""
    import defusedxml.ElementTree as SafeET
    from defusedxml import DefusedXmlException

    try:
        return SafeET.fromstring(text, forbid_dtd=True, forbid_entities=True, forbid_external=True)
    except DefusedXmlException as exc:
        raise ValidationError(
            [
                Problem(
                    src,
                    "",
                    f"refused: the XML declares a DTD or entities ({type(exc).__name__}); "
                    "Tiled never writes them",
                )
            ]
        ) from None
    except SafeET.ParseError as exc:
        raise ValidationError([Problem(src, "", f"bad XML: {exc}")]) from None


def _prop_value(ptype: str | None, value: Any) -> Any:
    if ptype == "bool":
        return value if isinstance(value, bool) else str(value).strip().lower() == "true"
    if ptype == "int":
        try:
            return int(value)
        except (TypeError, ValueError):
            return value
    if ptype == "float":
        try:
            return float(value)
        except (TypeError, ValueError):
            return value
    return value


def _xml_props(el: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    props = el.find("properties")
    if props is None:
        return out
    for p in props.findall("property"):
        name = p.get("name")
        if name is None:
            continue
        value = p.get("value")
        if value is None:
            value = p.text or ""
        out[name] = _prop_value(p.get("type"), value)
    return out


def _json_props(obj: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    props = obj.get("properties") if isinstance(obj, dict) else None
    if isinstance(props, list):  # Tiled 1.2+: a list of {name, type, value}
        for p in props:
            if isinstance(p, dict) and isinstance(p.get("name"), str):
                out[p["name"]] = _prop_value(p.get("type"), p.get("value"))
    elif isinstance(props, dict):  # older TMJ: a plain object
        out.update(props)
    return out


def _decode_data(
    encoding: str | None, compression: str | None, payload: Any, count: int, src: str, where: str
) -> list[int]:
    """Layer data to ``count`` raw gids (flags still set)."""
    if encoding in (None, "") and isinstance(payload, list):
        gids = payload
    elif encoding == "csv":
        text = payload if isinstance(payload, str) else ""
        entries = [x.strip() for x in text.replace("\n", ",").split(",") if x.strip()]
        gids = [small_uint(x, 10) for x in entries]  # type: ignore[misc]
        k = next((i for i, g in enumerate(gids) if g is None), None)
        if k is not None:  # issue 33: name the bad entry (its index and value, clipped)
            raise ValidationError(
                [Problem(src, f"{where} data[{k}]", f"CSV entry {clip(entries[k])} is not a tile id")]
            )
    elif encoding == "base64":
        try:
            raw = base64.b64decode("".join(str(payload).split()), validate=True)
        except (binascii.Error, ValueError):
            raise ValidationError([Problem(src, where, "base64 layer data does not decode")]) from None
        try:
            if compression in ("zlib", "gzip"):
                # bounded: a layer never holds more than 4 bytes a tile (no decompression bomb)
                dec = zlib.decompressobj(wbits=15 if compression == "zlib" else 31)
                raw = dec.decompress(raw, 4 * count + 1)
                if len(raw) > 4 * count or dec.unconsumed_tail:
                    raise ValidationError(
                        [
                            Problem(
                                src,
                                where,
                                f"{compression} layer data holds more than the "
                                f"{count} tiles (width x height) of the layer",
                            )
                        ]
                    )
            elif compression == "zstd":
                raise ValidationError(
                    [
                        Problem(
                            src,
                            where,
                            "zstd-compressed layer data is not supported: in Tiled set "
                            "Map > Map Properties > Tile Layer Format to CSV, Base64 (zlib) or Base64 (gzip)",
                        )
                    ]
                )
            elif compression not in (None, ""):
                raise ValidationError(
                    [Problem(src, where, f"unknown compression {clip(compression)}; expected zlib or gzip")]
                )
        except zlib.error:
            raise ValidationError(
                [Problem(src, where, f"{compression} layer data does not decompress")]
            ) from None
        if len(raw) != 4 * count:
            raise ValidationError(
                [
                    Problem(
                        src,
                        where,
                        f"layer data holds {len(raw) // 4} tiles, expected {count} (width x height)",
                    )
                ]
            )
        gids = [int.from_bytes(raw[i : i + 4], "little") for i in range(0, len(raw), 4)]
    else:
        raise ValidationError(
            [Problem(src, where, f"unknown layer encoding {clip(encoding)}; expected csv or base64")]
        )
    k = next(
        (
            i
            for i, g in enumerate(gids)
            if not (isinstance(g, int) and not isinstance(g, bool) and 0 <= g <= 0xFFFFFFFF)
        ),
        None,
    )
    if k is not None:  # issue 33: name the bad entry
        raise ValidationError(
            [
                Problem(
                    src,
                    f"{where} data[{k}]",
                    f"{clip(gids[k])} is not a tile id (an unsigned 32-bit integer)",
                )
            ]
        )
    if len(gids) != count:
        raise ValidationError(
            [
                Problem(
                    src,
                    where,
                    f"layer data holds {len(gids)} tile ids, expected {count} "
                    "(width x height) unsigned integers",
                )
            ]
        )
    return gids


def _load_external_tileset(base: Path, source: str, firstgid: int, src: str) -> _Tileset:
    p = base / source
    where = f"tileset {clip(source)}"  # issue 33: file strings are quoted and clipped, never raw
    if p.suffix.lower() not in (".tsx", ".tsj", ".json"):
        # Tiled writes tilesets only as .tsx or .tsj (.json before 1.9): nothing else is opened
        raise ValidationError(
            [Problem(src, where, "expected an external tileset file ending in .tsx or .tsj")]
        )
    try:  # issue 33: only inside the map's folder (or below it): no absolute path, no ../, no link out
        inside = base.resolve() in p.resolve().parents
    except (OSError, RuntimeError, ValueError):  # a symlink loop, a NUL byte
        inside = False
    if not inside:
        raise ValidationError(
            [Problem(src, where, "an external tileset must lie in the map's folder (or a folder inside it)")]
        )
    if not p.is_file():
        raise ValidationError([Problem(src, where, "external tileset not found beside the map")])
    text = read_text(p, MAX_TILED_BYTES)
    if p.suffix.lower() in (".tsj", ".json"):
        return _json_tileset(loads_json(text, str(p)), firstgid, str(p))
    return _xml_tileset(_xml(text, str(p)), firstgid)


def _xml_tileset(el: Any, firstgid: int) -> _Tileset:
    ts = _Tileset(firstgid, el.get("name", ""))
    for t in el.findall("tile"):
        try:
            tid = int(t.get("id", ""))
        except ValueError:
            continue
        ts.tiles[tid] = _xml_props(t)
    return ts


def _json_tileset(d: Any, firstgid: int, src: str) -> _Tileset:
    if not isinstance(d, dict):
        raise ValidationError([Problem(src, "", "expected a Tiled tileset object")])
    ts = _Tileset(firstgid, str(d.get("name", "")))
    for t in d.get("tiles", []) if isinstance(d.get("tiles"), list) else []:
        if isinstance(t, dict) and isinstance(t.get("id"), int):
            ts.tiles[t["id"]] = _json_props(t)
    return ts


def _check_header(orientation: Any, staggeraxis: Any, staggerindex: Any, infinite: Any, src: str) -> bool:
    """Refuse what hexwar cannot hold; return True for an even stagger."""
    if orientation != "hexagonal":
        raise ValidationError(
            [
                Problem(
                    src,
                    "orientation",
                    f"a {clip(orientation)} map; hexwar imports hexagonal Tiled maps "
                    "(in Tiled: New Map, Orientation Hexagonal, Stagger Axis X)",
                )
            ]
        )
    if staggeraxis == "y":
        raise ValidationError(
            [
                Problem(
                    src,
                    "staggeraxis",
                    'this map is pointy-topped (staggeraxis="y": staggered rows); '
                    'hexwar\'s hexes are flat-topped columns (staggeraxis="x") and its hexsides, labels '
                    "and LOS are built on them, so turning the grid would move every hex relative to "
                    "its neighbours. Draw the map on a flat-topped grid: in Tiled, Map > Map Properties, "
                    "Stagger Axis X, then repaint the tiles (or start a New Map with Stagger Axis X)",
                )
            ]
        )
    if staggeraxis not in ("x", None):
        raise ValidationError([Problem(src, "staggeraxis", f'expected "x", got {clip(staggeraxis)}')])
    if staggerindex not in ("odd", "even", None):
        raise ValidationError(
            [Problem(src, "staggerindex", f'expected "odd" or "even", got {clip(staggerindex)}')]
        )
    if infinite in (True, 1, "1", "true"):
        raise ValidationError(
            [
                Problem(
                    src,
                    "infinite",
                    "an infinite map; hexwar maps have a fixed size: in Tiled, "
                    "Map > Map Properties, untick Infinite",
                )
            ]
        )
    return staggerindex == "even"


def _int_attr(value: Any, name: str, src: str, lo: int = 1, hi: int = 500, json: bool = False) -> int:
    """``value`` as an integer in ``lo..hi``: an XML attribute's digits, or (``json``) a JSON
    number that is an integer ("10", true and 10.5 are refused there: Tiled writes integers).

    Raises:
        ValidationError: naming the file and field, with what was expected.
    """
    if json and (type(value) is not int and not (type(value) is float and value.is_integer())):
        raise ValidationError([Problem(src, name, f"expected an integer, got {clip(value)}")])
    try:
        v = int(value)
    except (TypeError, ValueError):
        raise ValidationError([Problem(src, name, f"expected an integer, got {clip(value)}")]) from None
    if not lo <= v <= hi:
        raise ValidationError([Problem(src, name, f"expected {lo}..{hi}, got {v}")])
    return v


def _read_tmx(text: str, path: Path) -> _Doc:
    src = str(path)
    root = _xml(text, src)
    if root.tag != "map":
        raise ValidationError(
            [Problem(src, "", f"expected a Tiled <map>, found <{clip(root.tag, quote=False)}>")]
        )
    even = _check_header(
        root.get("orientation"), root.get("staggeraxis"), root.get("staggerindex"), root.get("infinite"), src
    )
    w = _int_attr(root.get("width"), "width", src)
    h = _int_attr(root.get("height"), "height", src)
    tw = _int_attr(root.get("tilewidth"), "tilewidth", src, 1, 100000)
    th = _int_attr(root.get("tileheight"), "tileheight", src, 1, 100000)
    side = _int_attr(root.get("hexsidelength", "0"), "hexsidelength", src, 0, 100000)
    tilesets = []
    for el in root.findall("tileset"):
        fg = _int_attr(el.get("firstgid"), "tileset firstgid", src, 1, 2**28)
        if el.get("source"):
            tilesets.append(_load_external_tileset(path.parent, el.get("source"), fg, src))
        else:
            tilesets.append(_xml_tileset(el, fg))
    layers: list[tuple[str, list[int]]] = []
    objects: list[_Object] = []

    def walk(parent: Any, prefix: str) -> None:
        for el in parent:
            if el.tag == "layer":
                name = el.get("name", "")
                data = el.find("data")
                where = f"layer {clip(name)}"
                if data is None:
                    raise ValidationError([Problem(src, where, "has no <data>")])
                if data.find("chunk") is not None:
                    raise ValidationError(
                        [Problem(src, where, "holds chunks (an infinite map); untick Infinite in Tiled")]
                    )
                enc = data.get("encoding")
                if enc is None:
                    try:
                        payload: Any = [small_uint(t.get("gid", "0"), 10) for t in data.findall("tile")]
                        if None in payload:
                            raise ValueError("not a tile id")
                    except ValueError:
                        k = next(
                            j
                            for j, t in enumerate(data.findall("tile"))
                            if small_uint(t.get("gid", "0"), 10) is None
                        )
                        raise ValidationError(
                            [
                                Problem(
                                    src,
                                    f"{where} data[{k}]",
                                    f"<tile gid={clip(data.findall('tile')[k].get('gid'))}> is not a tile id",
                                )
                            ]
                        ) from None
                else:
                    payload = data.text or ""
                layers.append((name, _decode_data(enc, data.get("compression"), payload, w * h, src, where)))
            elif el.tag == "objectgroup":
                gname = el.get("name", "")
                for i, o in enumerate(el.findall("object")):
                    kind = (o.get("type") or o.get("class") or "").strip().lower()
                    point = o.find("point") is not None
                    ow = f"object layer {clip(gname)} object {clip(o.get('id', i))}"
                    try:
                        ox, oy = float(o.get("x", 0)), float(o.get("y", 0))
                        ew = 0.0 if point else float(o.get("width", 0))
                        eh = 0.0 if point else float(o.get("height", 0))
                        if not all(math.isfinite(v) for v in (ox, oy, ew, eh)):
                            raise ValueError("nan or inf")  # NaN has no tile: refused like text
                    except ValueError:
                        raise ValidationError(
                            [Problem(src, ow, "x, y, width and height must be finite numbers")]
                        ) from None
                    objects.append(
                        _Object(
                            kind,
                            o.get("name", ""),
                            ox,
                            oy,
                            ew,
                            eh,
                            o.get("gid") is not None,
                            _xml_props(o),
                            ow,
                        )
                    )
            elif el.tag == "group":
                walk(el, prefix + el.get("name", "") + "/")

    walk(root, "")
    return _Doc(w, h, tw, th, side, even, tilesets, layers, objects, _xml_props(root))


def _read_tmj(text: str, path: Path) -> _Doc:
    src = str(path)
    d = loads_json(text, src)  # deep nesting and 4300-digit numbers are problems, not tracebacks
    if not isinstance(d, dict) or d.get("type", "map") != "map":
        raise ValidationError([Problem(src, "", 'expected a Tiled map object ("type": "map")')])
    even = _check_header(
        d.get("orientation"), d.get("staggeraxis"), d.get("staggerindex"), d.get("infinite"), src
    )
    w = _int_attr(d.get("width"), "width", src, json=True)
    h = _int_attr(d.get("height"), "height", src, json=True)
    tw = _int_attr(d.get("tilewidth"), "tilewidth", src, 1, 100000, json=True)
    th = _int_attr(d.get("tileheight"), "tileheight", src, 1, 100000, json=True)
    side = _int_attr(d.get("hexsidelength", 0), "hexsidelength", src, 0, 100000, json=True)
    tilesets = []
    for i, t in enumerate(d.get("tilesets", []) if isinstance(d.get("tilesets"), list) else []):
        if not isinstance(t, dict):
            raise ValidationError([Problem(src, f"tilesets[{i}]", "expected a tileset object")])
        fg = _int_attr(t.get("firstgid"), f"tilesets[{i}].firstgid", src, 1, 2**28, json=True)
        if isinstance(t.get("source"), str):
            tilesets.append(_load_external_tileset(path.parent, t["source"], fg, src))
        else:
            tilesets.append(_json_tileset(t, fg, src))
    layers: list[tuple[str, list[int]]] = []
    objects: list[_Object] = []

    def walk(items: Any, where0: str) -> None:
        for lay in items if isinstance(items, list) else []:
            if not isinstance(lay, dict):
                continue
            name = str(lay.get("name", ""))
            where = f"layer {clip(name)}"
            if lay.get("type") == "tilelayer":
                if "chunks" in lay:
                    raise ValidationError(
                        [Problem(src, where, "holds chunks (an infinite map); untick Infinite in Tiled")]
                    )
                enc = lay.get("encoding", "csv" if isinstance(lay.get("data"), list) else None)
                enc = None if enc == "csv" and isinstance(lay.get("data"), list) else enc
                layers.append(
                    (name, _decode_data(enc, lay.get("compression"), lay.get("data"), w * h, src, where))
                )
            elif lay.get("type") == "objectgroup":
                for j, o in enumerate(lay.get("objects", []) if isinstance(lay.get("objects"), list) else []):
                    if not isinstance(o, dict):
                        continue
                    kind = str(o.get("type") or o.get("class") or "").strip().lower()
                    point = bool(o.get("point"))
                    try:
                        ox, oy = float(o.get("x", 0)), float(o.get("y", 0))
                        ow = 0.0 if point else float(o.get("width", 0))
                        oh = 0.0 if point else float(o.get("height", 0))
                        if not all(math.isfinite(v) for v in (ox, oy, ow, oh)):
                            raise ValueError("nan or inf")  # NaN has no tile: refused like text
                    except (TypeError, ValueError):
                        raise ValidationError(
                            [
                                Problem(
                                    src,
                                    f"object layer {clip(name)} object {clip(o.get('id', j))}",
                                    "x, y, width and height must be finite numbers",
                                )
                            ]
                        ) from None
                    objects.append(
                        _Object(
                            kind,
                            str(o.get("name", "")),
                            ox,
                            oy,
                            ow,
                            oh,
                            "gid" in o,
                            _json_props(o),
                            f"object layer {clip(name)} object {clip(o.get('id', j))}",
                        )
                    )
            elif lay.get("type") == "group":
                walk(lay.get("layers"), where)

    walk(d.get("layers"), "")
    return _Doc(w, h, tw, th, side, even, tilesets, layers, objects, _json_props(d))


# -- geometry ------------------------------------------------------------------------------
def _tile_centre(doc: _Doc, x: int, y: int) -> tuple[float, float]:
    """Pixel centre of tile ``(x, y)`` as Tiled's hexagonal renderer places it (staggeraxis x)."""
    colw = (doc.tilewidth - doc.hexside) / 2 + doc.hexside
    pushed = bool((x & 1) ^ int(doc.stagger_even))
    return x * colw + doc.tilewidth / 2, y * doc.tileheight + doc.tileheight / 2 + (
        doc.tileheight / 2 if pushed else 0
    )


def _tile_at(doc: _Doc, px: float, py: float) -> tuple[int, int] | None:
    """The tile whose centre is nearest pixel ``(px, py)``, or None off the map."""
    colw = (doc.tilewidth - doc.hexside) / 2 + doc.hexside
    gx = int(math.floor((px - doc.tilewidth / 2) / colw + 0.5))
    best: tuple[float, int, int] | None = None
    for x in (gx - 1, gx, gx + 1):
        gy = int(math.floor((py - doc.tileheight / 2) / doc.tileheight))
        for y in (gy - 1, gy, gy + 1, gy + 2):
            if 0 <= x < doc.width and 0 <= y < doc.height:
                cx, cy = _tile_centre(doc, x, y)
                dd = (cx - px) ** 2 + (cy - py) ** 2
                if best is None or dd < best[0]:
                    best = (dd, x, y)
    if best is None:
        return None
    # off the map when farther than a tile from every centre
    return (best[1], best[2]) if best[0] <= max(doc.tilewidth, doc.tileheight) ** 2 else None


# -- conversion ----------------------------------------------------------------------------
def _layer_roles(
    doc: _Doc, layer: str | None, src: str
) -> tuple[list[tuple[str, str, list[int]]], list[str]]:
    """Each tile layer's role (``terrain``, ``levels``, ``buildings``, ``roads`` or ``""``:
    skipped) as ``(name, role, gids)``, and notes. ``layer`` names the terrain layer
    (``--layer``): matched exactly, else ignoring case and surrounding spaces; without it the
    layer named ``terrain`` is, or the only tile layer.

    Raises:
        ValidationError: ``layer`` matches no tile layer or more than one (the layers found are
            listed).
    """
    found = [n for n, _ in doc.layers]
    listing = ", ".join(repr(n) for n in found) or "none"
    notes: list[str] = []
    chosen: int | None = None
    if layer is not None:
        hits = [i for i, n in enumerate(found) if n == layer] or [
            i for i, n in enumerate(found) if n.strip().lower() == layer.strip().lower()
        ]
        if len(hits) != 1:
            why = "matches no tile layer" if not hits else f"matches {len(hits)} tile layers"
            raise ValidationError(
                [Problem(src, "--layer", f"{layer!r} {why}; the tile layers found: {listing}")]
            )
        chosen = hits[0]
    elif sum(1 for n in found if n.strip().lower() == "terrain") == 0 and len(found) == 1:
        chosen = 0
        notes.append(f"the only tile layer ({found[0]!r}) is read as the terrain layer")
    out = []
    for i, (n, gids) in enumerate(doc.layers):
        role = n.strip().lower()
        if chosen is not None:
            role = "terrain" if i == chosen else ("" if role == "terrain" else role)
        out.append((n, role if role in LAYER_NEEDS else "", gids))
    return out, notes


def _convert(
    doc: _Doc,
    src: str,
    table: dict[str, dict[int, dict[str, Any]]],
    rules: RulesTerrain,
    name: str,
    layer: str | None = None,
) -> TiledImport:
    problems: list[Problem] = []
    notes: list[str] = []

    def bad(where: str, msg: str) -> None:
        problems.append(Problem(src, where, msg))

    shift = 1 if doc.stagger_even else 0
    width = doc.width + shift
    if width > 500:
        raise ValidationError(
            [
                Problem(
                    src,
                    "width",
                    f"{doc.width} columns (+1 for the even stagger): hexwar maps have at most 500",
                )
            ]
        )
    m = BattleMap.new(
        width, doc.height, "clear", name=str(doc.properties.get("hexwar_name", name)), rules=rules
    )
    desc = doc.properties.get("hexwar_description", "")
    m.description = desc if isinstance(desc, str) else ""
    tilesets = sorted(doc.tilesets, key=lambda t: t.firstgid)

    def tile_props(gid: int) -> tuple[_Tileset | None, int, dict[str, Any]]:
        ts = None
        for t in tilesets:
            if t.firstgid <= gid:
                ts = t
        if ts is None:
            return None, gid, {}
        local = gid - ts.firstgid
        props = {k: v for k, v in ts.tiles.get(local, {}).items() if k in TILE_PROPERTIES}
        props.update(table.get(ts.name, {}).get(local, {}))
        return ts, local, props

    def hex_of(x: int, y: int) -> Hex:
        return Hex.from_offset(x + shift, y)

    roles, layer_notes = _layer_roles(doc, layer, src)
    notes += layer_notes
    seen_layers: dict[str, int] = {}
    for _, role, _ in roles:
        if role:
            seen_layers[role] = seen_layers.get(role, 0) + 1
    if "terrain" not in seen_layers:
        bad(
            "layers",
            f"no tile layer named 'terrain'; the tile layers found: "
            f"{', '.join(repr(n) for n, _ in doc.layers) or 'none'} (name the ground layer with "
            "--layer NAME, or rename it terrain; levels, buildings and roads layers are optional)",
        )
    for lname, n in seen_layers.items():
        if n > 1:
            bad(f"layer {lname!r}", f"{n} tile layers have this name; expected one")
    if doc.layers:
        notes.append(
            "tile layers: "
            + ", ".join(f"{n!r} ({role or 'skipped'})" for n, role, _ in roles)
            + (
                " (hexwar reads layers named terrain, levels, buildings, roads; --layer NAME "
                "names the terrain layer)"
                if any(not role for _, role, _ in roles)
                else ""
            )
        )
    roads_set: list[tuple[int, int]] = []
    buildings: dict[tuple[int, int], str] = {}
    for lname, kind, gids in roles:
        need = LAYER_NEEDS.get(kind)
        if need is None:
            continue
        empty = [i for i, raw in enumerate(gids) if strip_gid(raw) == 0]
        if empty and kind == "terrain":
            first = ", ".join(m.label(hex_of(i % doc.width, i // doc.width)) for i in empty[:5])
            notes.append(
                f"{len(empty)} empty tile{'s' if len(empty) != 1 else ''} (no tile) in the terrain layer "
                f"{lname!r} became clear ground at level 0 ({first}{', ...' if len(empty) > 5 else ''})"
            )
        for i, raw in enumerate(gids):
            gid = strip_gid(raw)
            if gid == 0:
                continue
            x, y = i % doc.width, i // doc.width
            hx = hex_of(x, y)
            at = f"layer {lname!r} tile ({x}, {y}) hex {m.label(hx)}"
            ts, local, props = tile_props(gid)
            if ts is None:
                bad(
                    at,
                    f"tile id {gid} belongs to no tileset (the first tileset starts at firstgid "
                    f"{tilesets[0].firstgid if tilesets else 'none'})",
                )
                continue
            if need not in props:
                bad(
                    at,
                    f"tile {local} of tileset {ts.name!r} has no {need} property and no entry in the --terrain "
                    f"table (add {need} to the tile in Tiled, or [tiles.{json.dumps(ts.name)}] {local} = ... to "
                    "a --terrain TOML file)",
                )
                continue
            r, c = y, x + shift
            for key, value in props.items():
                if key == "hexwar_terrain" and kind == "terrain":
                    try:
                        m.terrain[r, c] = rules.index_of_key(str(value))
                    except KeyError:
                        bad(
                            at,
                            f"hexwar_terrain {value!r} is not a terrain of hexwar's table; expected one of "
                            f"{[t.key for t in rules.types]}",
                        )
                elif key == "hexwar_level" and kind in ("terrain", "levels"):
                    if (
                        isinstance(value, bool)
                        or not isinstance(value, (int, str))
                        or small_uint(value) is None
                        or not 0 <= int(value) <= 9
                    ):
                        bad(at, f"hexwar_level {value!r}; expected a ground level 0-9")
                    else:
                        m.level[r, c] = int(value)
                elif key == "hexwar_building" and kind in ("terrain", "buildings"):
                    try:
                        bt = rules.by_key(str(value))
                    except KeyError:
                        bt = None
                    if bt is None or not bt.is_building:
                        bad(
                            at,
                            f"hexwar_building {value!r}; expected a building terrain: "
                            f"{[t.key for t in rules.types if t.is_building]}",
                        )
                    else:
                        buildings[(r, c)] = bt.key
                elif key == "hexwar_road" and kind in ("terrain", "roads"):
                    if value not in (True, False, "true", "false"):
                        bad(at, f"hexwar_road {value!r}; expected true or false")
                    elif value in (True, "true"):
                        roads_set.append((r, c))
    for (r, c), key in buildings.items():
        m.terrain[r, c] = rules.index_of_key(key)
    road_i = rules.index_of_key("road") if "road" in [t.key for t in rules.types] else None
    clear_i = rules.index_of_key("clear") if "clear" in [t.key for t in rules.types] else None
    water_i = {i for i, t in enumerate(rules.types) if t.move and all(math.isinf(v) for v in t.move.values())}
    for r, c in roads_set:
        m.road[r, c] = True
        if road_i is not None and (int(m.terrain[r, c]) == clear_i or int(m.terrain[r, c]) in water_i):
            # a road across open ground is road terrain, across water a bridge: road terrain too (R2.4)
            m.terrain[r, c] = road_i
    if shift:
        for r in range(m.height):
            t = rules.types[int(m.terrain[r, 1])] if m.width > 1 else rules.types[0]
            m.terrain[r, 0] = (
                clear_i
                if (t.is_building or t.key == "road") and clear_i is not None
                else int(m.terrain[r, 1])
            )
            m.level[r, 0] = m.level[r, 1] if m.width > 1 else 0
        notes.append(
            'staggerindex="even": Tiled pushes even columns down, hexwar odd ones (odd-q), so every tile '
            "moved one column right and a new column A was added on the west edge (its ground copied from "
            "column B); every hex keeps its neighbours"
        )
    _objects(doc, m, shift, rules, bad)
    m.version = 0
    if problems:
        raise ValidationError(problems)
    # the result must be a valid hexwar map: round it through the loader's checks
    BattleMap.from_json(m.to_json(), src, rules)
    return TiledImport(m, notes)


def _objects(doc: _Doc, m: BattleMap, shift: int, rules: RulesTerrain, bad: Any) -> None:
    deploy: dict[str, list[Hex]] = {}
    objectives: list[MapObjective] = []
    for o in doc.objects:
        if o.kind not in OBJECT_KINDS:
            if o.kind:
                bad(o.where, f"unknown object type {o.kind!r}; expected one of {OBJECT_KINDS}")
            else:
                bad(
                    o.where,
                    f"an object without a type; give it one of {OBJECT_KINDS} in Tiled's Type (Class) field",
                )
            continue
        hexes: list[Hex] = []
        spec = o.props.get("hexes") if o.kind == "deploy" else o.props.get("hex")
        if isinstance(spec, str) and spec.strip():
            for part in spec.replace(",", " ").split():
                try:
                    hexes.extend(zone_hexes(part))
                except HexLabelError as exc:
                    bad(f"{o.where} hexes", str(exc))
            off = [h for h in hexes if not m.in_bounds(h)]
            if off:
                bad(o.where, f"hex {m.label(off[0])} is off the {m.width}x{m.height} map")
                continue
        elif o.width > 0 and o.height > 0 and not o.is_tile:
            for y in range(doc.height):
                for x in range(doc.width):
                    cx, cy = _tile_centre(doc, x, y)
                    if o.x <= cx <= o.x + o.width and o.y <= cy <= o.y + o.height:
                        hexes.append(Hex.from_offset(x + shift, y))
        else:
            px, py = o.x, o.y
            if o.is_tile:  # a tile object's origin is its bottom-left corner
                px, py = o.x + o.width / 2, o.y - o.height / 2
            t = _tile_at(doc, px, py)
            if t is not None:
                hexes.append(Hex.from_offset(t[0] + shift, t[1]))
        if not hexes:
            bad(o.where, f"the {o.kind} object lies on no hex of the map")
            continue
        for hx in hexes:
            idx = m.index(hx)
            at = f"{o.where} hex {m.label(hx)}"
            if o.kind == "wreck":
                ids = o.props.get("wrecks", o.props.get("wreck", o.name))
                for wid in [s.strip() for s in str(ids).split(",") if s.strip()]:
                    if wid not in rules.wrecks:
                        bad(at, f"unknown wreck {wid!r}; expected one of {sorted(rules.wrecks)}")
                    else:
                        m.wrecks.setdefault(hx, []).append(wid)
            elif o.kind == "rubble":
                if not m.terrain_at(hx).is_building:
                    bad(at, f"rubble needs a building hex (R8.3), found {m.terrain_at(hx).name}")
                else:
                    m.rubble[idx] = True
            elif o.kind == "fire":
                if not m.terrain_at(hx).is_building:
                    bad(at, f"fire needs a building hex (R8.4), found {m.terrain_at(hx).name}")
                    continue
                m.fire[idx] = True
                ft = o.props.get("fire_turns", 0)
                if small_uint(ft, 3) is None:
                    bad(at, f"fire_turns {clip(ft)}; expected an integer 0..999 (full turns burned)")
                else:
                    m.fire_turns[idx] = int(ft)
            elif o.kind == "deploy":
                side = str(o.props.get("side", o.name)).strip().lower()
                if side not in ("german", "soviet"):
                    bad(
                        o.where, f"deploy object side {side!r}; expected german or soviet (a 'side' property)"
                    )
                    break
                zone = deploy.setdefault(side, [])
                if hx not in zone:
                    zone.append(hx)
            elif o.kind == "objective":
                pts = o.props.get("points", 0)
                if small_uint(pts, 4) is None or int(pts) > 1000:
                    bad(at, f"points {clip(pts)}; expected an integer 0..1000")
                    pts = 0
                if any(x.hex == hx for x in objectives):
                    bad(at, f"{m.label(hx)} is already an objective")
                    continue
                objectives.append(MapObjective(hx, o.name, int(pts)))
    m.deploy = {s: tuple(z) for s, z in deploy.items()}
    m.objectives = tuple(objectives)


def import_tiled(
    path: str | os.PathLike[str],
    table: dict[str, dict[int, dict[str, Any]]] | None = None,
    rules: RulesTerrain | None = None,
    layer: str | None = None,
) -> TiledImport:
    """Read a Tiled hexagonal map (``.tmx`` or ``.tmj``/``.json``) as a hexwar map.

    Args:
        path: the Tiled file; external tilesets are read relative to it.
        table: a ``--terrain`` table (:func:`load_tile_table`); it overrides tile properties.
        rules: the terrain table (default the package's).
        layer: the tile layer that holds the ground (``--layer``; default the layer named
            ``terrain``, or the only tile layer). Empty tiles of the terrain layer become clear
            ground at level 0, and a note counts them.

    Returns:
        the map and notes for the user.

    Raises:
        ValidationError: listing every problem (pointy-topped or non-hexagonal maps, unmapped
            tiles with their positions, bad values) at once.
    """
    p = Path(path)
    text = read_text(p, MAX_TILED_BYTES)
    doc = (
        _read_tmx(text, p)
        if p.suffix.lower() == ".tmx" or text.lstrip().startswith("<")
        else _read_tmj(text, p)
    )
    return _convert(doc, str(p), table or {}, rules or default_terrain(), p.stem, layer)


# -- export --------------------------------------------------------------------------------
def _tile_catalogue(rules: RulesTerrain) -> list[tuple[str, dict[str, Any]]]:
    """The exported tileset's tiles: (kind, hexwar properties) in id order."""
    out: list[tuple[str, dict[str, Any]]] = [("terrain", {"hexwar_terrain": t.key}) for t in rules.types]
    out += [("level", {"hexwar_level": lv}) for lv in range(1, 10)]
    out.append(("road", {"hexwar_road": True}))
    return out


def _hex_polygon(
    ox: float, oy: float, w: float = TILE_W, h: float = TILE_H, s: float = TILE_SIDE, inset: float = 0.0
) -> list[tuple[float, float]]:
    a = (w - s) / 2
    pts = [(0, h / 2), (a, 0), (a + s, 0), (w, h / 2), (a + s, h), (a, h)]
    cx, cy = w / 2, h / 2
    return [(ox + cx + (x - cx) * (1 - inset), oy + cy + (y - cy) * (1 - inset)) for x, y in pts]


def tileset_image(rules: RulesTerrain | None = None) -> Any:
    """A PIL image of the exported tileset: one flat-topped hex tile per terrain type, ground
    level 1-9 and road, drawn with the renderer's looks (``assets/terrain_looks.toml``).

    Returns:
        a ``PIL.Image.Image`` (RGBA) of ``columns x rows`` tiles of 64 x 56 pixels.
    """
    from PIL import Image, ImageDraw

    from ..render.looks import default_looks

    rules = rules or default_terrain()
    looks = default_looks()
    cat = _tile_catalogue(rules)
    cols = 8
    rows = (len(cat) + cols - 1) // cols
    img = Image.new("RGBA", (cols * TILE_W, rows * TILE_H), (0, 0, 0, 0))
    draw = ImageDraw.Draw(img, "RGBA")

    def rgba(c: Any, alpha: float | None = None) -> tuple[int, int, int, int]:
        r, g, b, a = (int(v) for v in c)  # looks colours are 0-255 RGBA
        return (r, g, b, int(round(255 * alpha)) if alpha is not None else a)

    for i, (kind, props) in enumerate(cat):
        ox, oy = (i % cols) * TILE_W, (i // cols) * TILE_H
        poly = _hex_polygon(ox, oy)
        cx, cy = ox + TILE_W / 2, oy + TILE_H / 2
        if kind == "terrain":
            look = looks.terrain_look(props["hexwar_terrain"])
            draw.polygon(poly, fill=rgba(look.fill))
            det = rgba(look.detail)
            pat = look.pattern
            if pat == "trees":
                for dx, dy in ((-12, -8), (10, -10), (0, 6), (-14, 10), (14, 8)):
                    draw.ellipse([cx + dx - 7, cy + dy - 7, cx + dx + 7, cy + dy + 7], fill=det)
            elif pat == "scrub":
                for dx, dy in ((-14, -6), (8, -12), (2, 4), (-8, 12), (16, 6), (-2, -16)):
                    draw.ellipse([cx + dx - 3, cy + dy - 3, cx + dx + 3, cy + dy + 3], fill=det)
            elif pat == "orchard":
                for dx in (-14, 0, 14):
                    for dy in (-10, 4, 16):
                        if abs(dy) < 18:
                            draw.ellipse([cx + dx - 4, cy + dy - 4, cx + dx + 4, cy + dy + 4], fill=det)
            elif pat == "wheat":
                for dy in range(-18, 20, 6):
                    draw.line([cx - 20, cy + dy, cx + 20, cy + dy], fill=det, width=2)
            elif pat == "marsh":
                for dx, dy in ((-12, -8), (6, -10), (-4, 6), (12, 8), (-16, 12)):
                    draw.line([cx + dx - 5, cy + dy, cx + dx + 5, cy + dy], fill=det, width=2)
                    draw.line([cx + dx, cy + dy, cx + dx, cy + dy - 6], fill=det, width=1)
            elif pat == "water":
                for dy in (-10, 0, 10):
                    draw.arc([cx - 16, cy + dy - 4, cx, cy + dy + 4], 180, 360, fill=det, width=2)
                    draw.arc([cx, cy + dy - 4, cx + 16, cy + dy + 4], 0, 180, fill=det, width=2)
            elif pat == "building" and look.roof is not None:
                w_ = {"wood": 2, "stone": 3, "reinforced": 5}.get(look.style or "", 2)
                draw.rectangle(
                    [cx - 16, cy - 13, cx + 16, cy + 13],
                    fill=rgba(look.roof),
                    outline=rgba(look.outline) if look.outline else None,
                    width=w_,
                )
                if look.style == "reinforced" and look.outline is not None:
                    draw.rectangle([cx - 10, cy - 7, cx + 10, cy + 7], outline=rgba(look.outline), width=2)
            if look.road:
                draw.ellipse(
                    [cx - 9, cy - 9, cx + 9, cy + 9],
                    fill=rgba(looks.road),
                    outline=rgba(looks.road_edge),
                    width=2,
                )
            draw.polygon(poly, outline=rgba(looks.map["grid"]))
        elif kind == "level":
            lv = props["hexwar_level"]
            draw.polygon(
                _hex_polygon(ox, oy, inset=0.0),
                fill=rgba(looks.level_tint, looks.level_blend(lv)),
                outline=rgba(looks.contour),
            )
            draw.text((cx - 3, oy + TILE_H - 14), str(lv), fill=rgba(looks.map["label"]))
        else:
            draw.ellipse(
                [cx - 8, cy - 8, cx + 8, cy + 8],
                fill=rgba(looks.road),
                outline=rgba(looks.road_edge),
                width=2,
            )
    return img


def _export_objects(m: BattleMap) -> list[dict[str, Any]]:
    """Point objects (hexwar labels in ``hex``/``hexes``) for features and markers."""
    colw = (TILE_W - TILE_SIDE) / 2 + TILE_SIDE

    def centre(h: Hex) -> tuple[float, float]:
        c, r = h.offset
        return c * colw + TILE_W / 2, r * TILE_H + TILE_H / 2 + (TILE_H / 2 if c & 1 else 0)

    objs: list[dict[str, Any]] = []

    def add(kind: str, h: Hex, name: str = "", props: dict[str, Any] | None = None) -> None:
        x, y = centre(h)
        objs.append({"kind": kind, "name": name, "x": x, "y": y, "props": props or {}})

    for h in sorted(m.hexes(), key=lambda x: (x.offset[1], x.offset[0])):
        idx = m.index(h)
        if m.wrecks.get(h):
            add("wreck", h, props={"wrecks": ",".join(m.wrecks[h])})
        if m.rubble[idx]:
            add("rubble", h)
        if m.fire[idx]:
            add("fire", h, props={"fire_turns": int(m.fire_turns[idx])})
    for side in ("german", "soviet"):
        zone = m.deploy.get(side)
        if zone:
            add("deploy", zone[0], side, {"side": side, "hexes": " ".join(zone_specs(zone, m.row_digits))})
    for o in m.objectives:
        add("objective", o.hex, o.name, {"points": o.points})
    for i, obj in enumerate(objs):
        obj["id"] = i + 1
    return objs


def _prop_type(v: Any) -> str:
    return (
        "bool"
        if isinstance(v, bool)
        else "int"
        if isinstance(v, int)
        else "float"
        if isinstance(v, float)
        else "string"
    )


def export_tiled(m: BattleMap, out: str | os.PathLike[str], force: bool = False) -> list[Path]:
    """Write ``m`` as a Tiled map (``.tmj`` or ``.tmx`` by the suffix of ``out``) and its tileset PNG.

    The map is hexagonal, ``staggeraxis="x"``, ``staggerindex="odd"`` (hexwar's odd-q), with tile
    layers ``terrain``, ``levels`` and ``roads`` and an object layer ``features`` (wrecks,
    rubble, fire, deploy zones, objectives); the tileset (``<stem>_<ext>_tiles.png`` beside it,
    so ``k.tmj`` and ``k.tmx`` never share or replace one image, issue 32) is embedded with the
    ``hexwar_*`` tile properties, so :func:`import_tiled` gives ``m`` back.

    Returns:
        the files written (map, image).

    Raises:
        HexwarError: for another suffix, an existing file without ``force``, or a write failure.
    """
    import io

    target = Path(out)
    suffix = target.suffix.lower()
    if suffix not in (".tmj", ".tmx", ".json"):
        raise HexwarError(f"--out {target}: expected a .tmj or .tmx file name")
    image_path = target.with_name(f"{target.stem}_{suffix[1:]}_tiles.png")  # one image per map file
    for p in (target, image_path):
        if p.exists() and not force:
            raise HexwarError(f"{p} exists: give --force to replace it, or another --out")
    rules = m.rules
    cat = _tile_catalogue(rules)
    img = tileset_image(rules)
    buf = io.BytesIO()
    img.save(buf, "PNG")
    key_gid = {props["hexwar_terrain"]: i + 1 for i, (k, props) in enumerate(cat) if k == "terrain"}
    level_gid = {props["hexwar_level"]: i + 1 for i, (k, props) in enumerate(cat) if k == "level"}
    road_gid = next(i + 1 for i, (k, _) in enumerate(cat) if k == "road")
    terrain = [key_gid[rules.types[int(v)].key] for v in m.terrain.flat]
    levels = [level_gid[int(v)] if int(v) else 0 for v in m.level.flat]
    roads = [road_gid if bool(v) else 0 for v in m.road.flat]
    objs = _export_objects(m)
    tiles_meta = {
        "name": "hexwar",
        "tilewidth": TILE_W,
        "tileheight": TILE_H,
        "tilecount": len(cat),
        "columns": 8,
        "image": image_path.name,
        "imagewidth": img.width,
        "imageheight": img.height,
        "margin": 0,
        "spacing": 0,
    }
    map_props = {"hexwar_name": m.name, "hexwar_description": m.description}
    if suffix in (".tmj", ".json"):
        doc = {
            "type": "map",
            "version": "1.10",
            "tiledversion": "1.10.2",
            "orientation": "hexagonal",
            "renderorder": "right-down",
            "width": m.width,
            "height": m.height,
            "tilewidth": TILE_W,
            "tileheight": TILE_H,
            "hexsidelength": TILE_SIDE,
            "staggeraxis": "x",
            "staggerindex": "odd",
            "infinite": False,
            "compressionlevel": -1,
            "nextlayerid": 5,
            "nextobjectid": len(objs) + 1,
            "properties": [{"name": k, "type": "string", "value": v} for k, v in map_props.items()],
            "tilesets": [
                dict(
                    firstgid=1,
                    **tiles_meta,
                    tiles=[
                        {
                            "id": i,
                            "properties": [
                                {"name": k, "type": _prop_type(v), "value": v} for k, v in props.items()
                            ],
                        }
                        for i, (_, props) in enumerate(cat)
                    ],
                )
            ],
            "layers": [
                {
                    "id": 1,
                    "name": "terrain",
                    "type": "tilelayer",
                    "width": m.width,
                    "height": m.height,
                    "x": 0,
                    "y": 0,
                    "opacity": 1,
                    "visible": True,
                    "data": terrain,
                },
                {
                    "id": 2,
                    "name": "levels",
                    "type": "tilelayer",
                    "width": m.width,
                    "height": m.height,
                    "x": 0,
                    "y": 0,
                    "opacity": 1,
                    "visible": True,
                    "data": levels,
                },
                {
                    "id": 3,
                    "name": "roads",
                    "type": "tilelayer",
                    "width": m.width,
                    "height": m.height,
                    "x": 0,
                    "y": 0,
                    "opacity": 1,
                    "visible": True,
                    "data": roads,
                },
                {
                    "id": 4,
                    "name": "features",
                    "type": "objectgroup",
                    "draworder": "topdown",
                    "x": 0,
                    "y": 0,
                    "opacity": 1,
                    "visible": True,
                    "objects": [
                        {
                            "id": o["id"],
                            "name": o["name"],
                            "type": o["kind"],
                            "x": o["x"],
                            "y": o["y"],
                            "width": 0,
                            "height": 0,
                            "rotation": 0,
                            "visible": True,
                            "point": True,
                            **(
                                {
                                    "properties": [
                                        {"name": k, "type": _prop_type(v), "value": v}
                                        for k, v in o["props"].items()
                                    ]
                                }
                                if o["props"]
                                else {}
                            ),
                        }
                        for o in objs
                    ],
                },
            ],
        }
        text = dump_json(doc)
    else:
        text = _tmx_text(m, cat, tiles_meta, map_props, terrain, levels, roads, objs)
    atomic_write_bytes(image_path, buf.getvalue())
    atomic_write_text(target, text)
    return [target, image_path]


def _tmx_text(
    m: BattleMap,
    cat: list[tuple[str, dict[str, Any]]],
    meta: dict[str, Any],
    map_props: dict[str, Any],
    terrain: list[int],
    levels: list[int],
    roads: list[int],
    objs: list[dict[str, Any]],
) -> str:
    import xml.etree.ElementTree as ET  # writing only; reading goes through defusedxml

    def props_el(parent: Any, props: dict[str, Any]) -> None:
        if not props:
            return
        pe = ET.SubElement(parent, "properties")
        for k, v in props.items():
            attrs = {"name": k, "value": ("true" if v else "false") if isinstance(v, bool) else str(v)}
            if _prop_type(v) != "string":
                attrs["type"] = _prop_type(v)
            ET.SubElement(pe, "property", attrs)

    root = ET.Element(
        "map",
        {
            "version": "1.10",
            "tiledversion": "1.10.2",
            "orientation": "hexagonal",
            "renderorder": "right-down",
            "width": str(m.width),
            "height": str(m.height),
            "tilewidth": str(TILE_W),
            "tileheight": str(TILE_H),
            "infinite": "0",
            "hexsidelength": str(TILE_SIDE),
            "staggeraxis": "x",
            "staggerindex": "odd",
            "nextlayerid": "5",
            "nextobjectid": str(len(objs) + 1),
        },
    )
    props_el(root, map_props)
    ts = ET.SubElement(
        root,
        "tileset",
        {
            "firstgid": "1",
            "name": meta["name"],
            "tilewidth": str(TILE_W),
            "tileheight": str(TILE_H),
            "tilecount": str(meta["tilecount"]),
            "columns": str(meta["columns"]),
        },
    )
    ET.SubElement(
        ts,
        "image",
        {"source": meta["image"], "width": str(meta["imagewidth"]), "height": str(meta["imageheight"])},
    )
    for i, (_, props) in enumerate(cat):
        props_el(ET.SubElement(ts, "tile", {"id": str(i)}), props)
    for lid, (name, data) in enumerate((("terrain", terrain), ("levels", levels), ("roads", roads)), start=1):
        lay = ET.SubElement(
            root, "layer", {"id": str(lid), "name": name, "width": str(m.width), "height": str(m.height)}
        )
        d = ET.SubElement(lay, "data", {"encoding": "csv"})
        rows = [",".join(str(g) for g in data[r * m.width : (r + 1) * m.width]) for r in range(m.height)]
        d.text = "\n" + ",\n".join(rows) + "\n"
    og = ET.SubElement(root, "objectgroup", {"id": "4", "name": "features"})
    for o in objs:
        oe = ET.SubElement(
            og,
            "object",
            {"id": str(o["id"]), "name": o["name"], "type": o["kind"], "x": repr(o["x"]), "y": repr(o["y"])},
        )
        props_el(oe, o["props"])
        ET.SubElement(oe, "point")
    ET.indent(root, space=" ")
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
