"""The map file's format facts that need no model library: its ``format`` and
``schema_version``, the hex-label and zone patterns, deploy zones as hexes
(:func:`zone_hexes`) and the version steps (:data:`MAP_MIGRATIONS`, R2.4).

The map's typed model is :mod:`hexwar.model.map_file` (pydantic), which re-exports every name
here; the board reader and the migrations import this module, so a map read from its compiled
form (:mod:`hexwar.model.compiled_docs`) imports no model (issue 35).
"""

from __future__ import annotations

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
    a_s, sep, b_s = spec.partition(":")
    a = Hex.from_label(a_s.strip())
    if not sep:
        return [a]
    b = Hex.from_label(b_s.strip())
    (c0, r0), (c1, r1) = a.offset, b.offset
    if c1 < c0 or r1 < r0:
        raise HexLabelError(f"bad zone {spec!r}: the first corner must be the top-left one")
    if c1 - c0 >= MAX_SIDE or r1 - r0 >= MAX_SIDE:  # issue 33: found by the fuzz suite
        raise HexLabelError(f"bad zone {clip(spec)}: larger than any map ({MAX_SIDE} hexes a side)")
    # Hex.from_offset inlined: a deploy zone of a 500x500 map holds tens of thousands of hexes
    return [Hex(c, r - (c - (c & 1)) // 2) for c in range(c0, c1 + 1) for r in range(r0, r1 + 1)]


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
