"""Reading Tiled TMX and TMJ files into a plain document (issue 19; split out of tiled.py, issue 34).

The tile table (:func:`load_tile_table`), global tile ids and their flag bits
(:func:`strip_gid`), tilesets (embedded, ``.tsx``, ``.tsj``), layer data in every encoding Tiled
writes, and the header checks; :mod:`hexwar.formats.tiled` describes the whole import.
"""

from __future__ import annotations

import base64
import binascii
import math
import os
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...errors import Problem, ValidationError, clip, small_uint
from ...fileio import loads_json, read_text
from ...model.maps import BattleMap

__all__ = ["FLAG_BITS", "GID_MASK", "TILE_PROPERTIES", "TiledImport", "load_tile_table", "strip_gid"]

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
    from ...fileio import read_toml
    from ...model.filemodel import check
    from ..import_tables import TileTableFile

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
