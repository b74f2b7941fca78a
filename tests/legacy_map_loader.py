"""The map loader as it was before the typed models (main at 412e83e), kept as a test oracle.

tests/test_map_model_equivalence.py compares it with today's ``BattleMap.from_json`` on every
shipped map and on a seeded fuzz corpus (issue 34). The code is a frozen copy of
``BattleMap.from_json`` and of the ``jsonschema`` check of ``hexwar.formats.schema`` of that
commit, with the schema files it read (tests/data/legacy_schemas/KIND.schema.json: the map's,
and the scenario's and save's for the comparison of their structural checks). Do not change
it: it is the "before" of the comparison.
"""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
from jsonschema import Draft202012Validator

from hexwar.errors import Problem, ValidationError
from hexwar.formats.migrate import upgrade
from hexwar.model.filemodel import field_path, merge_problems
from hexwar.model.hexgrid import Hex, HexLabelError
from hexwar.model.map_file import MAP_FORMAT, MAP_SCHEMA_VERSION
from hexwar.model.maps import MARKER_SIDES, BattleMap, MapObjective, _impassable_to_all, zone_hexes
from hexwar.model.terrain import RulesTerrain, default_terrain

SCHEMAS = Path(__file__).parent / "data" / "legacy_schemas"


@cache
def _validator(kind: str = "map") -> Draft202012Validator:
    return Draft202012Validator(json.loads((SCHEMAS / f"{kind}.schema.json").read_text()))


def _message(err: Any) -> list[tuple[str, str]]:
    """``(where, message)`` pairs for one jsonschema error, in hexwar's wording."""
    where = field_path(err.absolute_path)
    sub = err.schema if isinstance(err.schema, dict) else {}
    desc = sub.get("description")
    v = err.validator
    if v == "additionalProperties" and isinstance(err.instance, dict):
        known = sorted(sub.get("properties", {}))
        extra = [k for k in err.instance if k not in sub.get("properties", {})]
        hint = f"; expected one of {known}" if known else ""
        return [(f"{where}.{k}" if where else str(k), f"unknown field{hint}") for k in extra]
    if v == "required":
        missing = [k for k in err.validator_value if isinstance(err.instance, dict) and k not in err.instance]
        out = []
        for k in missing:
            d = sub.get("properties", {}).get(k, {}).get("description")
            out.append((f"{where}.{k}" if where else k, f"missing; expected {d}" if d else "missing"))
        return out
    if "propertyNames" in list(err.absolute_schema_path):  # a bad key: name it in the path
        name = str(err.instance)
        return [(f"{where}.{name}" if where else name, f"bad name; expected {desc or 'a valid name'}")]
    if v in ("dependentSchemas", "dependentRequired"):
        return [(where, desc or err.message)]
    got = json.dumps(err.instance, ensure_ascii=False)
    if len(got) > 60:
        got = got[:57] + "..."
    if desc:
        return [(where, f"expected {desc}, got {got}")]
    return [(where, err.message)]


def old_from_json(data: Any, src: str = "<memory>", rules: RulesTerrain | None = None) -> BattleMap:
    """Build a map from parsed JSON, collecting every problem.

    Args:
        data: the parsed JSON document.
        src: the file name to put in problem reports.
        rules: terrain table; default the package's.

    Raises:
        ValidationError: listing every problem found.
    """
    rules = rules or default_terrain()
    problems: list[Problem] = []

    def bad(where: str, msg: str) -> None:
        problems.append(Problem(src, where, msg))

    if not isinstance(data, dict):
        raise ValidationError([Problem(src, "", 'expected a JSON object with "format": "hexwar-map"')])
    version_problems: list[Problem] = []
    if data.get("format") == MAP_FORMAT:
        try:
            data, _ = upgrade(data, "map", src)
        except ValidationError as exc:  # reported with the rest; read as the current version
            version_problems = exc.problems
            data = dict(data, schema_version=MAP_SCHEMA_VERSION)
    structural = version_problems + old_schema_problems(data, src)
    w, h = data.get("width"), data.get("height")
    if (
        any(p.where in ("width", "height") for p in structural)
        or not isinstance(w, int)
        or not isinstance(h, int)
    ):
        raise ValidationError(structural)
    m = BattleMap(
        w,
        h,
        name=str(data.get("name", "Untitled")),
        description=str(data.get("description", "")),
        rules=rules,
    )
    digits = m.row_digits
    code_index = {t.code: i for i, t in enumerate(rules.types)}

    def grid(key: str, required: bool, cell: Any, fast: tuple[np.ndarray, np.ndarray] | None = None) -> None:
        rows = data.get(key)
        if not isinstance(rows, list):
            return  # missing or of the wrong type: the schema said so
        if len(rows) != h:
            bad(key, f"expected {h} rows (height), found {len(rows)}")
        for ri, row in enumerate(rows[:h]):
            if not isinstance(row, str):
                continue
            if len(row) != w:
                bad(f"{key}[{ri}]", f"row {ri + 1} has {len(row)} characters, expected {w} (width)")
            elif fast is not None and row.isascii():
                vals = fast[1][np.frombuffer(row.encode("ascii"), dtype=np.uint8)]
                if (vals >= 0).all():  # every cell valid: one vectorized store (500x500 maps)
                    fast[0][ri, :] = vals
                    continue
            for ci, ch in enumerate(row[:w]):  # the per-cell path names each bad hex
                err = cell(ri, ci, ch)
                if err:
                    bad(f"{key}[{ri}] {Hex.from_offset(ci, ri).to_label(digits)}", err)

    def terrain_cell(ri: int, ci: int, ch: str) -> str | None:
        if ch not in code_index:
            return f"unknown terrain code {ch!r}; expected one of {rules.codes!r}"
        m.terrain[ri, ci] = code_index[ch]
        return None

    def level_cell(ri: int, ci: int, ch: str) -> str | None:
        if not ("0" <= ch <= "9"):
            return f"ground level {ch!r}; expected a digit 0-9"
        m.level[ri, ci] = int(ch)
        return None

    # byte -> value tables of the vectorized row path (-1: not valid, take the per-cell path)
    t_lut = np.full(256, -1, dtype=np.int64)
    for code, i in code_index.items():
        if len(code) == 1 and code.isascii():
            t_lut[ord(code)] = i
    l_lut = np.full(256, -1, dtype=np.int64)
    l_lut[ord("0") : ord("9") + 1] = np.arange(10)
    grid("terrain", True, terrain_cell, (m.terrain, t_lut))
    grid("levels", False, level_cell, (m.level, l_lut))

    def on_board(label: Any, where: str) -> Hex | None:
        if not isinstance(label, str):
            return None
        try:
            hx = Hex.from_label(label)
        except HexLabelError as exc:
            bad(where, str(exc))
            return None
        if not m.in_bounds(hx):
            bad(where, f"hex {label!r} is off the {w}x{h} map")
            return None
        return hx

    feats = data.get("features", {})
    for label, f in feats.items() if isinstance(feats, dict) else ():
        where = f"features.{label}"
        hx = on_board(label, where)
        if hx is None or not isinstance(f, dict):
            continue
        idx = m.index(hx)
        ttype = rules.types[int(m.terrain[idx])]
        is_building = ttype.is_building
        if f.get("road") is True:
            if _impassable_to_all(ttype):
                road_code = next((t.code for t in rules.types if t.key == "road"), "=")
                bad(
                    f"{where}.road",
                    f"a road flag on {ttype.name.lower()} is ambiguous: a bridge is road "
                    f"terrain over the river (docs/rules.md): write {road_code!r} for this hex "
                    f"in its terrain row instead",
                )
            m.road[idx] = True
        if f.get("rubble") is True:
            if not is_building:
                bad(f"{where}.rubble", "rubble needs a building hex (R8.3)")
            m.rubble[idx] = True
        if f.get("fire") is True:
            if not is_building:
                bad(f"{where}.fire", "fire needs a building hex (R8.4)")
            if f.get("rubble") is True:
                bad(f"{where}.fire", "a rubble hex cannot burn (R8.3)")
            m.fire[idx] = True
            ft = f.get("fire_turns", 0)
            if isinstance(ft, int) and not isinstance(ft, bool) and 0 <= ft <= 1000:
                m.fire_turns[idx] = ft
        ws = f.get("wrecks")
        if isinstance(ws, list) and all(isinstance(x, str) for x in ws):
            for wid in ws:
                if wid not in rules.wrecks:
                    bad(
                        f"{where}.wrecks",
                        f"unknown wreck {wid!r}; expected one of {sorted(rules.wrecks)}",
                    )
            if ws:
                m.wrecks[hx] = [x for x in ws if x in rules.wrecks]
    deploy = data.get("deploy", {})
    for side, specs in deploy.items() if isinstance(deploy, dict) else ():
        if side not in MARKER_SIDES or not isinstance(specs, list):
            continue
        zone: list[Hex] = []
        seen: set[Hex] = set()  # membership by set: a list scan made a 500x500 map's zones quadratic
        for i, spec in enumerate(specs):
            zw = f"deploy.{side}[{i}]"
            if not isinstance(spec, str):
                continue
            try:
                hexes = zone_hexes(spec)
            except HexLabelError as exc:
                bad(zw, str(exc))
                continue
            off = [x for x in hexes if not m.in_bounds(x)]
            if off:
                bad(zw, f"{spec!r} reaches off the {w}x{h} map (e.g. {off[0].label})")
                continue
            for x in hexes:
                if x not in seen:
                    seen.add(x)
                    zone.append(x)
        if zone:
            m.deploy[side] = tuple(zone)
    if len(m.deploy) == 2 and set(m.deploy["german"]) & set(m.deploy["soviet"]):
        both = sorted(set(m.deploy["german"]) & set(m.deploy["soviet"]))
        bad(
            "deploy",
            f"the german and soviet deploy zones overlap in {len(both)} hexes, e.g. {both[0].label}",
        )
    objs: list[MapObjective] = []
    for i, o in enumerate(data.get("objectives", []) if isinstance(data.get("objectives"), list) else []):
        if not isinstance(o, dict):
            continue
        ox = on_board(o.get("hex"), f"objectives[{i}].hex")
        if ox is None:
            continue
        if any(x.hex == ox for x in objs):
            bad(f"objectives[{i}].hex", f"{ox.label} is already an objective")
            continue
        pts = o.get("points", 0)
        objs.append(
            MapObjective(
                ox,
                str(o.get("name", "")) if isinstance(o.get("name", ""), str) else "",
                pts if isinstance(pts, int) and not isinstance(pts, bool) else 0,
            )
        )
    m.objectives = tuple(objs)
    problems = merge_problems(structural, problems)
    if problems:
        raise ValidationError(problems)
    return m


def old_schema_problems(data: Any, src: str, kind: str = "map") -> list[Problem]:
    """The old jsonschema check of a ``kind`` document (hexwar.formats.schema at 412e83e)."""
    errors = sorted(_validator(kind).iter_errors(data), key=lambda e: [str(p) for p in e.absolute_path])
    out: list[Problem] = []
    for err in errors:
        for where, msg in _message(err):
            out.append(Problem(src, where, msg))
    if len(out) > 200:
        rest = len(out) - 200
        out = out[:200] + [Problem(src, "", f"... and {rest} more schema problems")]
    return out
