"""Writing a hexwar map as a Tiled TMJ or TMX map with a generated tileset (issue 19; issue 34).

:func:`export_tiled` and the tileset image drawn from the renderer's looks
(:func:`tileset_image`); the map imports back to the same map (:mod:`hexwar.formats.tiled`).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from ...errors import HexwarError
from ...fileio import atomic_write_bytes, atomic_write_text, dump_json
from ...model.hexgrid import Hex
from ...model.maps import BattleMap, zone_specs
from ...model.terrain import RulesTerrain, default_terrain
from .read import TILE_H, TILE_SIDE, TILE_W

__all__ = ["export_tiled", "tileset_image"]


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

    from ...render.looks import default_looks

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
