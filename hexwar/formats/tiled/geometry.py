"""Where a Tiled tile lies on hexwar's board, and a read Tiled document turned into a map (issue 19; issue 34).

Tile centres and the tile under a point (the stagger of :mod:`hexwar.formats.tiled`), the
roles of the tile layers, tiles to terrain, levels, buildings and roads, and object layers to
wrecks, rubble, fire, deploy zones and objectives (R2.2, R8, R10.2): :func:`import_tiled`.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import Any

from ...errors import Problem, ValidationError, clip, small_uint
from ...fileio import read_text
from ...model.hexgrid import Hex, HexLabelError
from ...model.maps import BattleMap, MapObjective, zone_hexes
from ...model.terrain import RulesTerrain, default_terrain
from .read import (
    LAYER_NEEDS,
    MAX_TILED_BYTES,
    OBJECT_KINDS,
    TILE_PROPERTIES,
    TiledImport,
    _Doc,
    _read_tmj,
    _read_tmx,
    _Tileset,
    strip_gid,
)

__all__ = ["import_tiled"]


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


def _apply_tile(
    m: BattleMap,
    rules: RulesTerrain,
    kind: str,
    props: dict[str, Any],
    at: str,
    rc: tuple[int, int],
    bad: Any,
    buildings: dict[tuple[int, int], str],
    roads_set: list[tuple[int, int]],
) -> None:
    """Write one tile's hexwar properties into hex ``rc`` (row, column) of ``m``: terrain, ground
    level (0-9), a building (kept in ``buildings`` until every layer is read) and a road (kept in
    ``roads_set``); a bad value is reported through ``bad(at, message)`` (R2.1, R2.4)."""
    r, c = rc
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


def _finish_buildings_roads_and_stagger(
    m: BattleMap,
    rules: RulesTerrain,
    buildings: dict[tuple[int, int], str],
    roads_set: list[tuple[int, int]],
    shift: int,
    notes: list[str],
) -> None:
    """Put the buildings over their ground, turn roads across open ground or water into road
    terrain (R2.4), and fill the new west column of an even-staggered map (its ground copied from
    column B, a note in ``notes``)."""
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


def _check_layer_roles(doc: _Doc, roles: list[Any], bad: Any, notes: list[str]) -> None:
    """Report a missing terrain layer or a role given to two layers through ``bad``, and note which
    tile layer plays which role in ``notes``."""
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
    _check_layer_roles(doc, roles, bad, notes)
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
            _apply_tile(m, rules, kind, props, at, (r, c), bad, buildings, roads_set)
    _finish_buildings_roads_and_stagger(m, rules, buildings, roads_set, shift, notes)
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
