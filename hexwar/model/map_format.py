"""The map file's format facts that need no model library: its ``format`` and
``schema_version``, the hex-label and zone patterns, deploy zones as hexes
(:func:`zone_hexes`) and the version steps (:data:`MAP_MIGRATIONS`, R2.4).

The map's typed model is :mod:`hexwar.model.map_file` (pydantic), which re-exports every name
here; the board reader and the migrations import this module, so a map read from its compiled
form (:mod:`hexwar.model.compiled_docs`) imports no model (issue 35).
"""

from __future__ import annotations

import re
from typing import Any

from ..errors import clip
from .documents import Step
from .hexgrid import Hex, HexLabelError

__all__ = [
    "MAP_FORMAT",
    "MAP_SCHEMA_VERSION",
    "HEX_LABEL",
    "ZONE_SPEC",
    "MAX_SIDE",
    "MAP_MIGRATIONS",
    "map_1_to_2",
    "zone_hexes",
    "zone_rect",
    "rect_hexes",
    "rects_zone",
    "lean_document",
]

MAP_FORMAT = "hexwar-map"
MAP_SCHEMA_VERSION = 2  # the version this hexwar reads (MapFileV2)
HEX_LABEL = r"^[A-Za-z]{1,3}[0-9]{2,3}$"
ZONE_SPEC = r"^[A-Za-z]{1,3}[0-9]{2,3}(:[A-Za-z]{1,3}[0-9]{2,3})?$"
MAX_SIDE = 500  # hexes (R2.2: labels reach 3 letters and 3 digits)


def zone_hexes(spec: str) -> list[Hex]:
    """Hexes of a zone spec of the file: a label ``"D07"`` or a rectangle ``"A01:C22"`` (offset corners).

    Raises:
        HexLabelError: for a malformed label, a reversed rectangle, or a rectangle wider or
            taller than any map (``MAX_SIDE``: ``"D01:DNULL03"`` would list millions).

    >>> [h.label for h in zone_hexes("B02:C03")]
    ['B02', 'B03', 'C02', 'C03']
    """
    return rect_hexes(zone_rect(spec))


def zone_rect(spec: str) -> tuple[int, int, int, int]:
    """``(c0, r0, c1, r1)``: the offset corners of a zone spec (a label is a 1x1 rectangle),
    checked as :func:`zone_hexes` checks them, without making its hexes.

    Raises:
        HexLabelError: as :func:`zone_hexes`.

    >>> zone_rect("B02:C03"), zone_rect("D07")
    ((1, 1, 2, 2), (3, 6, 3, 6))
    """
    a_s, sep, b_s = spec.partition(":")
    a = Hex.from_label(a_s.strip())
    if not sep:
        return (*a.offset, *a.offset)
    b = Hex.from_label(b_s.strip())
    (c0, r0), (c1, r1) = a.offset, b.offset
    if c1 < c0 or r1 < r0:
        raise HexLabelError(f"bad zone {spec!r}: the first corner must be the top-left one")
    if c1 - c0 >= MAX_SIDE or r1 - r0 >= MAX_SIDE:  # issue 33: found by the fuzz suite
        raise HexLabelError(f"bad zone {clip(spec)}: larger than any map ({MAX_SIDE} hexes a side)")
    return c0, r0, c1, r1


def rect_hexes(rect: tuple[int, int, int, int]) -> list[Hex]:
    """The hexes of the offset rectangle ``(c0, r0, c1, r1)``, column by column (R2.2)."""
    c0, r0, c1, r1 = rect
    # Hex.from_offset inlined: a deploy zone of a 500x500 map holds tens of thousands of hexes
    return [Hex(c, r - (c - (c & 1)) // 2) for c in range(c0, c1 + 1) for r in range(r0, r1 + 1)]


def rects_zone(rects: list[tuple[int, int, int, int]]) -> tuple[Hex, ...]:
    """The deploy zone of a side's rectangles in file order: the first one's hexes, then each
    later one's hexes not listed yet (:meth:`hexwar.model.map_reader.MapReader.deploy`)."""
    zone = rect_hexes(rects[0])
    if len(rects) > 1:
        seen = set(zone)
        for rect in rects[1:]:
            for x in rect_hexes(rect):
                if x not in seen:
                    seen.add(x)
                    zone.append(x)
    return tuple(zone)


def map_1_to_2(doc: dict[str, Any]) -> dict[str, Any]:
    """Map 1 -> 2: markers (``deploy``, ``objectives``) become possible; nothing else changes.

    Takes a parsed version 1 document and returns a new version 2 document (the input is not
    changed): a version 1 file is a version 2 file without markers.

    >>> map_1_to_2({"format": "hexwar-map", "schema_version": 1})["schema_version"]
    2
    """
    return {**doc, "schema_version": 2}


#: from_version -> the step to from_version + 1
MAP_MIGRATIONS: dict[int, Step] = {1: map_1_to_2}


_HEX_RE = re.compile(HEX_LABEL[1:-1])  # fullmatch: "$" would also take a final newline
_ZONE_RE = re.compile(ZONE_SPEC[1:-1])
_LEVELS_RE = re.compile("[0-9]*")
#: the map model's fields, in its order, with the defaults of those a file may leave out
_FIELDS = ("name", "description", "width", "height", "terrain", "levels", "features")
_FIELDS_V2 = ("format", "schema_version", "deploy", "objectives")
_REQUIRED = frozenset(("format", "schema_version", "width", "height", "terrain"))
_FEATURE_KEYS = ("road", "rubble", "fire", "fire_turns", "wrecks")  # MapFeatures' order
_SIDES = ("german", "soviet")


def lean_document(data: dict[str, Any]) -> Any:
    """The value the map model (:class:`hexwar.model.map_file.MapFile`) gives ``data``, as a
    :class:`~hexwar.model.compiled_docs.Doc`, when ``data`` is a plain current map document
    the model accepts as it is; ``None`` for anything else (the caller validates by the model,
    which reports every problem in its words).

    Issue 35, fifth session: a user's map, e.g. a generated 500x500 one, is read without
    importing pydantic and building the map model (about 0.09 s of a first load). Accepted
    only what the strict model accepts unchanged: the exact JSON types (no bool for an int),
    the model's ranges and patterns, no unknown key; the value has the model's field order,
    defaults and ``model_fields_set``, a hex's features in the model's key order
    (``tests/test_map_lean.py`` compares it with the model's on shipped, generated and
    altered maps).
    """
    from .compiled_docs import Doc

    if not _REQUIRED <= data.keys() or not data.keys() <= {*_FIELDS, *_FIELDS_V2}:
        return None
    fmt, ver, w, h = data["format"], data["schema_version"], data["width"], data["height"]
    if not (type(fmt) is str and fmt == MAP_FORMAT and type(ver) is int and ver == MAP_SCHEMA_VERSION):
        return None
    if not (type(w) is int and type(h) is int and 1 <= w <= MAX_SIDE and 1 <= h <= MAX_SIDE):
        return None
    name, desc = data.get("name", "Untitled"), data.get("description", "")
    if type(name) is not str or type(desc) is not str:
        return None
    terrain, levels = data["terrain"], data.get("levels", [])
    if type(terrain) is not list or type(levels) is not list:
        return None
    if not all(type(r) is str for r in terrain):
        return None
    if not all(type(r) is str and _LEVELS_RE.fullmatch(r) for r in levels):
        return None
    features = _lean_features(data.get("features", {}))
    deploy = _lean_deploy(data.get("deploy", {}))
    objectives = _lean_objectives(data.get("objectives", []), Doc)
    if features is None or deploy is None or objectives is None:
        return None
    values = {
        "name": name,
        "description": desc,
        "width": w,
        "height": h,
        "terrain": list(terrain),
        "levels": list(levels),
        "features": features,
        "format": fmt,
        "schema_version": ver,
        "deploy": deploy,
        "objectives": objectives,
    }
    return Doc(values, frozenset(data))


def _lean_features(raw: Any) -> dict[str, dict[str, Any]] | None:
    """The model's ``features`` value of ``raw``, or ``None`` when the model might say
    otherwise (see :func:`lean_document`)."""
    if type(raw) is not dict:
        return None
    out: dict[str, dict[str, Any]] = {}
    keys = frozenset(_FEATURE_KEYS)
    for label, f in raw.items():
        if type(label) is not str or not _HEX_RE.fullmatch(label) or type(f) is not dict:
            return None
        if not f.keys() <= keys:
            return None
        for k in ("road", "rubble", "fire"):
            if k in f and type(f[k]) is not bool:
                return None
        if "fire_turns" in f:
            t = f["fire_turns"]
            if type(t) is not int or not 0 <= t <= 1000 or f.get("fire") is not True:
                return None
        if "wrecks" in f:
            ws = f["wrecks"]
            if type(ws) is not list or not all(type(x) is str for x in ws):
                return None
            f = dict(f, wrecks=list(ws))
        out[label] = {k: f[k] for k in _FEATURE_KEYS if k in f}
    return out


def _lean_deploy(raw: Any) -> dict[str, list[str]] | None:
    """The model's ``deploy`` value of ``raw``, or ``None`` (see :func:`lean_document`)."""
    if type(raw) is not dict:
        return None
    out: dict[str, list[str]] = {}
    for side, specs in raw.items():
        if side not in _SIDES or type(specs) is not list or not specs:
            return None
        if not all(type(x) is str and _ZONE_RE.fullmatch(x) for x in specs):
            return None
        out[side] = list(specs)
    return out


def _lean_objectives(raw: Any, doc: Any) -> list[Any] | None:
    """The model's ``objectives`` value of ``raw`` (a ``doc`` each), or ``None`` (see
    :func:`lean_document`)."""
    if type(raw) is not list:
        return None
    out = []
    for o in raw:
        if type(o) is not dict or "hex" not in o or not o.keys() <= {"hex", "name", "points"}:
            return None
        hx, name, points = o["hex"], o.get("name", ""), o.get("points", 0)
        if type(hx) is not str or not _HEX_RE.fullmatch(hx) or type(name) is not str:
            return None
        if type(points) is not int or not 0 <= points <= 1000:
            return None
        out.append(doc({"hex": hx, "name": name, "points": points}, frozenset(o)))
    return out
