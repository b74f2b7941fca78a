"""Wesnoth ``.map`` files into hexwar maps (issue 19).

A Wesnoth map is text: one line per row, comma-separated terrain codes (``Gg``, ``Gs^Fp``,
``Hh^Vhh``), a code optionally preceded by a starting position (``1 Kh``: player 1 starts
there). Older files begin with a header (``border_size=1``, ``usage=map``) and a blank line;
newer ones do not. The file always includes a one-hex border ring around the playable map,
which Wesnoth draws but no unit enters: it is removed here.

Column parity. Wesnoth's hexes are flat-topped columns and, in its playable coordinates
(0-based, border excluded), odd columns are pushed down half a hex (two hexes ``(x, y)`` and
``(x+1, y')`` touch when ``y' = y`` or ``y' = y + 1`` for even ``x``): that is hexwar's odd-q
layout (R2.2). The file's columns are those coordinates shifted by the border (file column
``i`` is playable column ``i - 1``), so in file order the *even* columns are pushed down;
removing the border's first column is exactly what restores odd-q, and the playable hex at
file ``(i, j)`` becomes hexwar hex ``(col i - 1, row j - 1)`` with every neighbour kept.

Terrain codes map to hexwar terrain, ground levels and roads through the shipped table
``hexwar/data/wesnoth_terrain.toml`` (see its header for the lookup order), which a
``--terrain`` TOML file of the same form overrides entry by entry. Every code that maps to
nothing is reported at once, with the hexes it stands in; nothing is returned then.

Starting positions become deploy-zone markers (:attr:`hexwar.model.maps.BattleMap.deploy`):
player 1 is the german side, player 2 the soviet side; the zone is the start hex and every
castle or keep hex joined to it (where Wesnoth recruits). Other players and named special
locations are listed in the notes and skipped.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from ..errors import Problem, ValidationError, small_uint
from ..fileio import read_text, read_toml
from ..model.filemodel import read_lenient
from ..model.hexgrid import Hex
from ..model.maps import BattleMap
from ..model.terrain import RulesTerrain, default_terrain
from .import_tables import WesnothCodeTableFile

__all__ = ["WesnothImport", "CodeTable", "load_code_table", "import_wesnoth", "toml_key", "PLAYER_SIDES"]

PLAYER_SIDES = {1: "german", 2: "soviet"}
MAX_WESNOTH_BYTES = 8 * 1024 * 1024
_CELL_RE = re.compile(r"^(?:(\S+)\s+)?(\S+)$")


@dataclass
class WesnothImport:
    """What :func:`import_wesnoth` made.

    Attributes:
        map: the hexwar map (deploy markers from the starting positions).
        starts: player number -> the start hex.
        notes: things the user should know (skipped players, named locations).
    """

    map: BattleMap
    starts: dict[int, Hex]
    notes: list[str]


@dataclass
class CodeTable:
    """Wesnoth code -> ``{"terrain": key or "", "level": int, "road": bool}`` (missing = no say).

    Attributes:
        exact: entries by whole key (``"Gs^Fp"``, ``"^Fp"``, ``"Hh"``).
        prefix: entries by prefix (the key without its ``*``), longest first.
    """

    exact: dict[str, dict[str, Any]]
    prefix: list[tuple[str, dict[str, Any]]]

    def lookup(self, code: str) -> dict[str, Any] | None:
        """The entry for ``code`` by exact key, else the longest prefix key; ``None`` if none."""
        if code in self.exact:
            return self.exact[code]
        for p, e in self.prefix:
            if code.startswith(p):
                return e
        return None

    def merged(self, other: CodeTable) -> CodeTable:
        """This table with ``other``'s entries winning."""
        exact = {**self.exact, **other.exact}
        pref = dict(self.prefix)
        pref.update(dict(other.prefix))
        return CodeTable(exact, sorted(pref.items(), key=lambda kv: -len(kv[0])))


def toml_key(text: str) -> str:
    """``text`` as a TOML basic-string key, valid for any text: a backslash or a double quote
    gets a backslash in front, control characters and DEL become 4-digit unicode escapes,
    everything else stays as it is (issue 32: Wesnoth codes such as the bridge ``^Bw`` plus a
    backslash).

    >>> import tomllib
    >>> code = "^Bw" + chr(92) + chr(34)
    >>> list(tomllib.loads(toml_key(code) + " = 1"))[0] == code
    True
    """
    out = []
    for ch in text:
        if ch in ('"', "\\"):
            out.append("\\" + ch)
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def load_code_table(
    path: str | os.PathLike[str] | None = None, rules: RulesTerrain | None = None
) -> CodeTable:
    """Read a Wesnoth code table (default the shipped ``data/wesnoth_terrain.toml``).

    Raises:
        ValidationError: naming the file and key of every bad entry (unknown terrain keys,
            levels outside 0-9, unknown fields).
    """
    rules = rules or default_terrain()
    src = str(path) if path is not None else str(resources.files("hexwar") / "data" / "wesnoth_terrain.toml")
    data = read_toml(src)
    read = read_lenient(WesnothCodeTableFile, data, src)  # issue 34: the table's typed model
    doc = read.value
    if doc is None:
        raise ValidationError(read.problems)
    problems: list[Problem] = []
    keys = {t.key for t in rules.types}
    exact: dict[str, dict[str, Any]] = {}
    prefix: dict[str, dict[str, Any]] = {}
    for code, e in doc.codes.items():
        entry: dict[str, Any] = {
            k: getattr(e, k) for k in ("terrain", "level", "road") if k in e.model_fields_set
        }
        t = entry.get("terrain")
        if t is not None and t != "" and t not in keys:  # R2.5: a terrain of the table
            plain = isinstance(data["codes"][code], str)
            problems.append(
                Problem(
                    src,
                    f"codes.{code}" if plain else f"codes.{code}.terrain",
                    f'unknown terrain {t!r}; expected one of {sorted(keys)} (or "" for no effect)',
                )
            )
        if code.endswith("*"):
            prefix[code[:-1]] = entry
        else:
            exact[code] = entry
    problems = read.problems + read.semantic(problems)
    if problems:
        raise ValidationError(problems)
    return CodeTable(exact, sorted(prefix.items(), key=lambda kv: -len(kv[0])))


def _parse_rows(text: str, src: str) -> tuple[list[list[str]], int, int]:
    """Rows of cells, the border size and the line number the data starts on."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    border = 1
    start = 0
    header: dict[str, str] = {}
    # a legacy header: key=value lines, then a blank line
    i = 0
    while i < len(lines) and re.fullmatch(r"\s*[a-z_]+\s*=.*", lines[i]):
        k, _, v = lines[i].partition("=")
        header[k.strip()] = v.strip()
        i += 1
    if header:
        start = i
        while start < len(lines) and not lines[start].strip():
            start += 1
        if header.get("usage", "map") != "map":
            raise ValidationError(
                [
                    Problem(
                        src,
                        "usage",
                        f"usage={header['usage']}: a Wesnoth mask or overlay, not a map; expected usage=map",
                    )
                ]
            )
        if "border_size" in header:
            if header["border_size"] not in ("0", "1"):
                raise ValidationError(
                    [Problem(src, "border_size", f"expected 0 or 1, got {header['border_size']!r}")]
                )
            border = int(header["border_size"])
    rows = [[c.strip() for c in ln.split(",")] for ln in lines[start:] if ln.strip()]
    return rows, border, start


def import_wesnoth(
    path: str | os.PathLike[str], table: CodeTable | None = None, rules: RulesTerrain | None = None
) -> WesnothImport:
    """Read a Wesnoth ``.map`` file as a hexwar map (border removed, odd-q kept).

    Args:
        path: the ``.map`` file.
        table: extra code entries (a ``--terrain`` file via :func:`load_code_table`); they win
            over the shipped table.
        rules: the terrain table (default the package's).

    Returns:
        the map, the starting positions and notes.

    Raises:
        ValidationError: listing every problem at once: ragged rows, a map with no playable
            hex, and every unmapped code with the hexes it stands in.
    """
    rules = rules or default_terrain()
    src = str(path)
    text = read_text(path, MAX_WESNOTH_BYTES)
    rows, border, line0 = _parse_rows(text, src)
    codes = load_code_table(rules=rules)
    if table is not None:
        codes = codes.merged(table)
    if not rows:
        raise ValidationError(
            [Problem(src, "", "no map rows found; expected lines of comma-separated terrain codes")]
        )
    widths = {len(r) for r in rows}
    if len(widths) != 1:
        bad = [f"line {line0 + i + 1} ({len(r)} codes)" for i, r in enumerate(rows) if len(r) != len(rows[0])]
        raise ValidationError(
            [
                Problem(
                    src,
                    "rows",
                    f"every row needs {len(rows[0])} codes like the first; found {', '.join(bad[:5])}",
                )
            ]
        )
    fw, fh = len(rows[0]), len(rows)
    w, h = fw - 2 * border, fh - 2 * border
    if not (1 <= w <= 500 and 1 <= h <= 500):
        raise ValidationError(
            [
                Problem(
                    src,
                    "",
                    f"{fw} x {fh} codes less the border ring of {border} leaves {w} x {h} "
                    "hexes; expected 1..500 on each side",
                )
            ]
        )
    m = BattleMap.new(w, h, "clear", name=Path(src).stem.replace("_", " "), rules=rules)
    problems: list[Problem] = []
    unmapped: dict[str, list[str]] = {}
    starts: dict[int, Hex] = {}
    notes: list[str] = []
    castle: set[Hex] = set()
    for j in range(border, fh - border):
        for i in range(border, fw - border):
            cell = rows[j][i]
            mt = _CELL_RE.match(cell)
            hx = Hex.from_offset(i - border, j - border)
            label = m.label(hx)
            if mt is None:
                problems.append(Problem(src, f"line {line0 + j + 1} hex {label}", f"bad cell {cell!r}"))
                continue
            loc, code = mt.group(1), mt.group(2)
            if loc is not None:
                if small_uint(loc) is not None:
                    starts[int(loc)] = hx
                else:
                    notes.append(f"named location {loc!r} at {label} skipped")
            base, _, overlay = code.partition("^")
            entry_full = codes.exact.get(code)
            e_base = codes.lookup(base)
            e_over = codes.lookup("^" + overlay) if overlay else None
            if entry_full is None and (e_base is None or (overlay and e_over is None)):
                unmapped.setdefault(code, []).append(label)
                continue
            chosen = (
                [entry_full] if entry_full is not None else [e for e in (e_base, e_over) if e is not None]
            )
            r, c = hx.offset[1], hx.offset[0]
            for e in chosen:  # base first, then the overlay wins
                if e.get("terrain"):
                    m.terrain[r, c] = rules.index_of_key(e["terrain"])
                if "level" in e:
                    m.level[r, c] = int(e["level"])
                if e.get("road"):
                    m.road[r, c] = True
            if base[:1] in ("C", "K"):
                castle.add(hx)
    for code, labels in unmapped.items():
        shown = ", ".join(labels[:12]) + (f" and {len(labels) - 12} more" if len(labels) > 12 else "")
        problems.append(
            Problem(
                src,
                f"code {code}",
                f"Wesnoth terrain {code!r} maps to no hexwar terrain "
                f"(in {len(labels)} hex{'es' if len(labels) != 1 else ''}: {shown}); "
                f'add {toml_key(code)} = "TERRAIN" (a terrain key, e.g. clear) under [codes] in a '
                "--terrain table",
            )
        )
    if problems:
        raise ValidationError(problems)
    deploy: dict[str, tuple[Hex, ...]] = {}
    for n in sorted(starts):
        side = PLAYER_SIDES.get(n)
        if side is None:
            notes.append(
                f"starting position of player {n} at {m.label(starts[n])} skipped (players 1 and 2 become "
                "the german and soviet deploy zones)"
            )
            continue
        zone = [starts[n]]
        todo = [starts[n]]
        while todo:
            cur = todo.pop()
            for nb in m.neighbors(cur):
                if nb in castle and nb not in zone:
                    zone.append(nb)
                    todo.append(nb)
        deploy[side] = tuple(zone)
    m.deploy = deploy
    m.version = 0
    BattleMap.from_json(m.to_json(), src, rules)  # the result is a valid hexwar map
    return WesnothImport(m, starts, notes)
